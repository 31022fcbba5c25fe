"""How often `run --replay FILE.har` reads each recorded call (providers/core/trace_har_replay.py; bench/README.md
"run --replay FILE.har of a long conversation"): counted, not timed.

Each call of an agent's HAR holds the whole history before it, so every reading of a call reads that history: the
replay's cost is the number of such readings times the history. A conversation of N calls must be read N times by
each reader it needs — its request judged once as the mock judges it (``har_conversations.follow``, which finds the
conversations), imported once as a saved request (``saved_request.read_request``: the scenario, each step's
warnings), its recorded response read once (``trace_har.read_response``) — and never again (a response read three
times, a second scenario check per call: trial 19b/19j's cuts). The HAR is made here as openai-python sends a loop:
each request the previous one's messages, the reply's assistant turn and the result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolchoice.providers.core import saved_request, trace_har, trace_har_replay
from toolchoice.providers.core.mock import judge as judge_module

CALLS = 20


def _loop_har(path: Path, calls: int) -> Path:
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Weather in every city?"}]
    entries = []
    for n in range(1, calls + 1):
        last = n == calls
        call = {"id": f"call_{n}", "type": "function",
                "function": {"name": "get_weather", "arguments": json.dumps({"city": f"city {n}"})}}
        message = ({"role": "assistant", "content": "done"} if last else
                   {"role": "assistant", "content": None, "tool_calls": [call]})
        body = {"model": "gpt-4o-mini", "messages": messages, "tools": tools,
                "tool_choice": "auto" if last else "required"}
        reply = {"id": f"chatcmpl-{n}", "object": "chat.completion", "model": "gpt-4o-mini",
                 "choices": [{"index": 0, "message": message, "finish_reason": "stop" if last else "tool_calls"}]}
        entries.append({"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                                    "headers": [], "postData": {"mimeType": "application/json",
                                                                "text": json.dumps(body)}},
                        "response": {"status": 200, "content": {"mimeType": "application/json",
                                                                "text": json.dumps(reply)}},
                        "time": 2})
        messages = [*messages, message, {"role": "tool", "tool_call_id": call["id"], "content": f"{n} C"}]
    path.write_text(json.dumps({"log": {"version": "1.2", "entries": entries}}), encoding="utf-8")
    return path


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, counts: dict[str, list[Any]],
              key: Any) -> None:
    function = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        counts.setdefault(name, []).append(key(args))
        return function(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_each_call_of_the_conversation_is_read_once_by_each_reader(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    path = _loop_har(tmp_path / "loop.har", CALLS)
    counts: dict[str, list[Any]] = {}
    _counting(monkeypatch, saved_request, "read_request", counts, lambda args: str(args[0]))  # the entry's label
    _counting(monkeypatch, judge_module, "judge", counts, lambda args: len(args[2]["messages"]))
    _counting(monkeypatch, trace_har, "read_response", counts, lambda args: args[1].index)

    scenario, replay = trace_har_replay.replay_file(path, None, "openai")

    assert scenario.loop is not None and scenario.loop.max_steps == CALLS  # the replay read the whole loop
    assert len(replay.transcripts[0].replies) == CALLS
    # each entry imported once, judged once (its history: the call's own, 1 + 2 (n - 1) messages), read once
    assert sorted(counts["read_request"]) == sorted(f"{path} log.entries[{i}]" for i in range(CALLS))
    assert counts["judge"] == [1 + 2 * n for n in range(CALLS)]
    assert counts["read_response"] == list(range(CALLS))
