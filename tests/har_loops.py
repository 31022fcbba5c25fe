"""A HAR of an agent loop as openai-python sends it: each request the previous one's messages, the reply's assistant
turn and the tool's result; the first calls force a tool (``required``), the last answers in text (``auto``). Used
where a replay's reading is counted (tests/test_replay_har_reads.py, tests/test_replay_har_prefix.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]


def loop_har(path: Path, calls: int, key: str, *, system: str | None = None, step_text: bool = False,
             odd: dict[int, dict[str, Any]] | None = None) -> Path:
    """``calls`` calls sent with ``Bearer key``; ``system``: a leading system message; ``step_text``: each tool-call
    turn says "step N" (else its content is null); ``odd``: a message the app added at call N, after the history."""
    messages: list[dict[str, Any]] = ([{"role": "system", "content": system}] if system is not None else []) + \
        [{"role": "user", "content": "Weather in every city?"}]
    entries = []
    for n in range(1, calls + 1):
        last = n == calls
        call = {"id": f"call_{n}", "type": "function",
                "function": {"name": "get_weather", "arguments": json.dumps({"city": f"city {n}"})}}
        message = ({"role": "assistant", "content": "done"} if last else
                   {"role": "assistant", "content": f"step {n}" if step_text else None, "tool_calls": [call]})
        sent = [*messages, odd[n]] if odd and n in odd else messages
        body = {"model": "gpt-4o-mini", "messages": sent, "tools": TOOLS, "tool_choice": "auto" if last else "required"}
        reply = {"id": f"chatcmpl-{n}", "object": "chat.completion", "model": "gpt-4o-mini",
                 "choices": [{"index": 0, "message": message, "finish_reason": "stop" if last else "tool_calls"}]}
        entries.append({"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                                    "headers": [{"name": "Authorization", "value": f"Bearer {key}"}],
                                    "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
                        "response": {"status": 200, "content": {"mimeType": "application/json",
                                                                "text": json.dumps(reply)}},
                        "time": 2})
        messages = [*messages, message, {"role": "tool", "tool_call_id": call["id"], "content": f"result {n}: 3 C"}]
    path.write_text(json.dumps({"log": {"version": "1.2", "entries": entries}}), encoding="utf-8")
    return path
