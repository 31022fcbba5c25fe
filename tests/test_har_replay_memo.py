"""`run --replay FILE.har`'s own passes over each call's history, beside the family readers (bench/README.md "run
--replay FILE.har"): counted, not timed. ``har_conversations.follow`` digests each request's messages for the prefix
check (``call_origins.prefix_digests``: each message's JSON text hashed), and each call's import renders its
scenario back (``history_wire.history_arguments_json``: each call's arguments as JSON text). Read whole, call N's
history is done again for each later call: ~N²/2 over N calls. Inside the HAR's reading (``read_prefix.memo``) a
message or an arguments object the previous call's reading held is not done again. What the replay says is the
same: tests/test_har_family_prefix.py compares the replay with the whole reading, bench/har_replay_same.py its bytes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from har_loops import api_loop_har
from toolchoice.providers.core import history_wire, trace_har_replay
from toolchoice.providers.core.mock import call_origins

CALLS = 20
KEY = "sk-proj-replayMemo0123456789abcdefABCDEF"


def test_follow_digests_each_message_once_over_a_replay(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The messages `follow` hashed for the prefix check over a 20-call Chat Completions loop: the last call's history
    is 2 + 19 × 2 = 40 messages; each call's whole history hashed, 419 were."""
    hashed = [0]
    digest = call_origins._digest

    def counted(text: str) -> bytes:
        hashed[0] += 1
        return digest(text)

    monkeypatch.setattr(call_origins, "_digest", counted)
    path = api_loop_har(tmp_path / "loop.har", "openai", CALLS, KEY)
    scenario, replay = trace_har_replay.replay_file(path, None, "openai")
    assert len(replay.transcripts[0].replies) == CALLS
    last = json.loads(json.loads(path.read_text())["log"]["entries"][-1]["request"]["postData"]["text"])
    assert len(last["messages"]) == 40
    assert 40 <= hashed[0] <= 2 * 40, hashed[0]  # was 419


class _Json:
    """The json module, its ``dumps`` counted."""

    def __init__(self) -> None:
        self.dumped = 0

    def dumps(self, value: Any, **kwargs: Any) -> str:
        self.dumped += 1
        return json.dumps(value, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(json, name)


def test_the_render_back_writes_each_calls_arguments_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The arguments the render-back wrote as JSON text over the same replay: 19 calls in the last history, each
    import rendering its scenario back (and `follow`'s judge too): each call's arguments written once a pass, where
    each history's were written again for each later call (1 + 2 + ... + 19 = 190 a pass)."""
    counted = _Json()
    monkeypatch.setattr(history_wire, "json", counted)
    path = api_loop_har(tmp_path / "loop.har", "openai", CALLS, KEY)
    trace_har_replay.replay_file(path, None, "openai")
    assert 19 <= counted.dumped <= 2 * 19, counted.dumped  # was 380: 2 × 190
