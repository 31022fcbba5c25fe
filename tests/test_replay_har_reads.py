"""How often `run --replay FILE.har` reads each recorded call (providers/core/trace_har_replay.py; bench/README.md
"run --replay FILE.har of a long conversation"): counted, not timed.

Each call of an agent's HAR holds the whole history before it, so every reading of a call reads that history: the
replay's cost is the number of such readings times the history. A conversation of N calls must be read N times by
each reader it needs — its request judged once as the mock judges it (``har_conversations.follow``, which finds the
conversations), imported once as a saved request (``saved_request.read_request``: the scenario, each step's
warnings), its recorded response read once (``trace_har.read_response``) — and never again (a response read three
times, a second scenario check per call: trial 19b/19j's cuts). The HAR's keys are redacted from each message of
the history once, not once for each later call carrying it (trial 20b). The HAR is made here as openai-python sends
a loop: each request the previous one's messages, the reply's assistant turn and the result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from har_loops import loop_har
from toolchoice.providers.core import saved_request, trace_har, trace_har_replay
from toolchoice.providers.core.mock import judge as judge_module

CALLS = 20
KEY = "sk-proj-readsOnce0123456789abcdefABCDEF"  # the HAR's key: its redactor is built, as for any real HAR


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, counts: dict[str, list[Any]],
              key: Any) -> None:
    function = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        counts.setdefault(name, []).append(key(args))
        return function(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_each_call_of_the_conversation_is_read_once_by_each_reader(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    path = loop_har(tmp_path / "loop.har", CALLS, KEY)
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


def test_each_message_of_the_history_is_redacted_once_not_once_a_call(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    """The HAR's keys are redacted from each imported call's scenario; a message the previous call sent the same is
    not redacted again (``trace_har_replay._redacted_import``): a message's text is read by the redaction about once,
    not once for each later call that carries it (at step 20 the first result was read 19 times)."""
    from toolchoice.providers.core.redaction import Redactor

    path = loop_har(tmp_path / "loop.har", CALLS, KEY)
    results = {f"result {n}: 3 C": 0 for n in range(1, CALLS)}
    redact = Redactor.data

    def counted(self: Redactor, value: Any) -> Any:  # each data redaction given a result's text (it reads every
        shown = repr(value)  # string of its value, in a walk or in its JSON text, whichever it takes)
        for text in results:
            results[text] += shown.count(repr(text))
        return redact(self, value)

    monkeypatch.setattr(Redactor, "data", counted)
    scenario, _ = trace_har_replay.replay_file(path, None, "openai")

    assert scenario.loop is not None and all(text in repr(scenario.loop.results) for text in results)  # given back
    assert KEY not in repr(scenario)
    assert all(1 <= count <= 2 for count in results.values()), results  # each redacted with its first call
