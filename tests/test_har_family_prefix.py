"""Each API's request reader (its family's ``mock_read``) read on from the previous call's history over a HAR
(providers/core/mock/read_prefix.py; bench/README.md "run --replay FILE.har"): counted, not timed, and the same as
reading each call's whole history.

An agent's call N sends call N-1's history and a few more items. ``trace FILE.har`` and ``run --replay`` read each
call's body with its family's reader twice (``har_conversations.follow``'s judge, then the import), and each reading
walked the whole history: ~N² items over N calls. Truth from outside the change: the reader reading each list whole
(``read_prefix.read_on`` made to read from the start, as the mock and the proxy still do) must give the same
reading, the same error, and the same listing and replay, on loops of seven APIs with odd calls (an item added, an
earlier item changed, a result for no call, a result dropped, a call repeated, a field of the wrong type, a field
no message has)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

import pytest

from har_loops import URLS, api_loop_har
from toolchoice.providers.core import trace_har, trace_har_replay
from toolchoice.providers.core.mock import read_prefix, reading
from toolchoice.providers.core.mock.judge import MockMalformed
from toolchoice.providers.core.registry import mock_family

APIS = ("openai", "openai-responses", "anthropic", "gemini", "bedrock", "cohere", "ollama")
CALLS = 20
KEY = "sk-proj-familyPrefix0123456789abcdefABCDEF"


def _whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every list read from its start, as before read_prefix (and as the mock reads outside a HAR)."""
    def whole(key: Any, messages: list[Any], fresh: Callable[[], Any], read: Callable[..., None]) -> Any:
        state = fresh()
        read(state, messages, 0)
        return state

    monkeypatch.setattr(read_prefix, "read_on", whole)


def _user(api: str, text: str) -> dict[str, Any]:
    return {"role": "user", "parts": [{"text": text}]} if api == "gemini" else \
        {"role": "user", "content": [{"text": text}]} if api == "bedrock" else {"role": "user", "content": text}


def _misfit(api: str) -> dict[str, Any]:
    """An item with a field of a type the API's types refuse (the reader's 400, with what it read before)."""
    return {"role": "user", "parts": [{"thoughtSignature": 5}]} if api == "gemini" else \
        {"role": "user", "content": [{"toolResult": {"toolUseId": "x", "content": [{"json": 5}]}}]} \
        if api == "bedrock" else {"role": "user", "content": 5}


def _orphan(api: str) -> dict[str, Any]:
    """A tool result that answers no call."""
    return {"openai": {"role": "tool", "tool_call_id": "nope", "content": "x"},
            "openai-responses": {"type": "function_call_output", "call_id": "nope", "output": "x"},
            "anthropic": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_nope",
                                                       "content": "x"}]},
            "gemini": {"role": "user", "parts": [{"functionResponse": {"name": "nope", "response": {"x": 1}}}]},
            "bedrock": {"role": "user", "content": [{"toolResult": {"toolUseId": "nope", "content": [{"text": "x"}]}}]},
            "cohere": {"role": "tool", "tool_call_id": "nope", "content": "x"},
            "ollama": {"role": "tool", "tool_name": "nope", "content": "x"}}[api]


def _odd_loop(path: Path, api: str) -> Path:
    """A loop whose calls send odd histories: an added user turn (5), the first item changed (8), a field of the
    wrong type (7), and, kept by every later call, a result for no call (9), a result dropped (12), the last turn and
    result repeated (15: the same call ids again), a turn with a field no message has (17)."""
    odd: dict[int, Callable[[list[Any]], list[Any]]] = {
        5: lambda h: [*h, _user(api, "and Paris?")],
        7: lambda h: [*h, _misfit(api)],
        8: lambda h: [_user(api, "Weather, again?"), *h[1:]],
        9: lambda h: [*h, _orphan(api)],
        12: lambda h: h[:-1],
        15: lambda h: [*h, *h[-2:]],
        17: lambda h: [*h, {**_user(api, "x"), "bogus": 1}]}
    return api_loop_har(path, api, CALLS, KEY, odd=odd, kept=frozenset({9, 12, 15, 17}))


def _bodies(path: Path) -> list[dict[str, Any]]:
    return [json.loads(e["request"]["postData"]["text"]) for e in json.loads(path.read_text())["log"]["entries"]]


def _readings(api: str, bodies: list[dict[str, Any]], provider: str, route: dict[str, Any]) -> list[Any]:
    """Each body read by the family's reader, in the file's order, twice over (as follow, then the imports)."""
    family = mock_family(api)
    per_host = {"provider": provider} if getattr(family, "MOCK_PER_HOST", False) else {}
    out: list[Any] = []
    with read_prefix.resuming():
        for _ in range(2):
            for body in bodies:
                try:
                    out.append(family.mock_read(body, route, **per_host))
                except MockMalformed as exc:
                    out.append(("malformed", str(exc), exc.partial))
    return out


@pytest.mark.parametrize("api", APIS)
def test_each_api_reader_reads_each_message_once_over_a_replay(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                api: str) -> None:
    """The tool results the API's reader turned into history messages (``reading.tool_message``), counted over
    `run --replay` of a 20-call loop: read whole, call N's N-1 results twice (the judge, the import), 2 × 190 = 380;
    read on from the previous call's, each of the last call's 19 results once a pass."""
    results = CALLS - 1  # the last call's history: a result a step before it
    path = api_loop_har(tmp_path / f"{api}.har", api, CALLS, KEY)
    counted = [0]
    function = reading.tool_message

    def tool_message(*args: Any, **kwargs: Any) -> Any:
        counted[0] += 1
        return function(*args, **kwargs)

    monkeypatch.setattr(reading, "tool_message", tool_message)
    scenario, replay = trace_har_replay.replay_file(path, None, api)
    assert scenario.loop is not None and scenario.loop.max_steps == CALLS
    assert len(replay.transcripts[0].replies) == CALLS
    assert results <= counted[0] <= 2 * results, counted[0]  # was 380


@pytest.mark.parametrize("api, provider, model", [
    ("openai", "openai", None), ("openai", "mistral", None), ("openai", "deepseek", "deepseek-reasoner"),
    ("openai", "groq", None), ("openai-responses", "openai-responses", None), ("anthropic", "anthropic", None),
    ("gemini", "gemini", "gemini-2.5-flash"), ("gemini", "gemini", "gemini-3-pro-preview"),
    ("bedrock", "bedrock", None), ("cohere", "cohere", None), ("ollama", "ollama", None)])
def test_a_resumed_reading_is_each_bodys_whole_reading(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, api: str,
                                                       provider: str, model: str | None) -> None:
    """Each call of an odd loop read by its family's reader (on the hosts whose refusals walk the history: Mistral's
    call ids, DeepSeek's reasoning, Gemini 3's signatures) gives the reading or the error of its whole history."""
    bodies = _bodies(_odd_loop(tmp_path / "odd.har", api))
    if model is not None and api == "openai":
        bodies = [{**body, "model": model} for body in bodies]
    route = mock_family(api).mock_route("POST", urlsplit(URLS[api]).path)
    assert route is not None
    if model is not None and api == "gemini":
        route = {**route, "model": model}
    resumed = _readings(api, bodies, provider, route)
    _whole(monkeypatch)
    whole = _readings(api, bodies, provider, route)
    assert resumed == whole
    assert sum(type(r) is tuple for r in whole) == 2  # call 7's misfit, each pass
    assert any(type(r) is not tuple and r.refusal for r in whole) or api in ("anthropic", "bedrock", "cohere", "ollama") \
        or provider == "groq"


@pytest.mark.parametrize("api", APIS)
def test_trace_and_replay_say_what_the_whole_reading_says(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                          api: str) -> None:
    """`trace FILE.har`'s listing (each call judged between steps: the findings come from the readings) and
    `run --replay`'s scenario and recorded replies, on the plain loop and the odd one, as when each call was read
    whole."""
    files = [api_loop_har(tmp_path / "loop.har", api, CALLS, KEY), _odd_loop(tmp_path / "odd.har", api)]

    def said() -> list[str]:
        out = [json.dumps(trace_har.import_har(path).to_json(), sort_keys=True, default=repr) for path in files]
        scenario, replay = trace_har_replay.replay_file(files[0], None, api)
        (transcript,) = replay.transcripts
        return [*out, repr((scenario, transcript.bodies, transcript.replies))]

    resumed = said()
    _whole(monkeypatch)
    assert resumed == said()
    assert KEY not in "".join(resumed)
