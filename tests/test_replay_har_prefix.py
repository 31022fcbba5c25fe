"""Each recorded call's scenario read on from the previous call's conversation (providers/core/saved_prefix.py;
bench/README.md "run --replay FILE.har"): counted, not timed, and the same as reading each call's whole text.

An agent's call N sends call N-1's messages and a few more. The scenario check of each imported call
(``saved_request._check``) read the whole history again, ~N²/2 messages over a replay of N calls; it now reads a
call's new messages from the state the previous call's left (``scenario_messages.Reading``). Truth from outside the
change: the loader reading each call's whole text, as before (``saved_prefix.resumed`` switched off), must give the
same scenario, the same error, and the same bytes from `run --replay` on the recorded SDK session (tests/data/har)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cli import run_cli
from har_loops import loop_har
from toolchoice.providers.core import saved_prefix, scenario_messages, trace_har, trace_har_replay, yaml_input
from toolchoice.providers.core.model import ToolchoiceError

ROOT = Path(__file__).resolve().parents[1]
SESSION = ROOT / "tests" / "data" / "har" / "sdk-session.har"
CALLS = 20
KEY = "sk-proj-prefixReads0123456789abcdefABCDEF"


def _whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each call's scenario read from its whole text, as before saved_prefix."""
    monkeypatch.setattr(saved_prefix, "resumed", lambda *args: None)
    saved_prefix._LAST.clear()


def _imports(path: Path) -> list[Any]:
    """Each call of the file imported in order (as run --replay and trace's listing do): its scenario, or its error."""
    har = trace_har.read_har(path)
    out: list[Any] = []
    for call in har.calls:
        try:
            out.append(trace_har.import_call(har, call, judged=False))
        except ToolchoiceError as exc:
            out.append({"error": exc.message, "hint": exc.hint})
    return out


def test_each_message_is_read_once_over_the_replay_not_once_a_later_call(monkeypatch: pytest.MonkeyPatch,
                                                                         tmp_path: Path) -> None:
    """The scenario loader's message readers (an assistant turn, a tool result), counted over a replay of 20 calls:
    a reading of each call's whole history calls them 2 + 4 + ... + 38 = 380 times; read on from the previous call's,
    about once a message of the last call's 39, and once more for the replay's own scenario (step 1's)."""
    path = loop_har(tmp_path / "loop.har", CALLS, KEY, system="Be brief.", step_text=True)
    saved_prefix._LAST.clear()
    counts = {"read": 0, "resumed": 0, "new": 0}
    for name in ("_assistant", "_tool_result"):
        function = getattr(scenario_messages, name)

        def counted(*args: Any, _function: Any = function, **kwargs: Any) -> Any:
            counts["read"] += 1
            return _function(*args, **kwargs)

        monkeypatch.setattr(scenario_messages, name, counted)

    def hook(new: int) -> None:
        counts["resumed"] += 1
        counts["new"] += new

    monkeypatch.setattr(saved_prefix, "READ_HOOK", [hook])
    scenario, replay = trace_har_replay.replay_file(path, None, "openai")

    assert scenario.loop is not None and scenario.loop.max_steps == CALLS
    assert len(replay.transcripts[0].replies) == CALLS
    conversation = 1 + 2 * (CALLS - 1)  # the last call's: the question, then a turn and a result a step
    assert counts["resumed"] >= CALLS  # every imported call read on, none read whole
    assert counts["new"] == conversation  # each message read once over the replay
    assert counts["read"] <= conversation + 2 * CALLS, counts  # (the replay's scenario: step 1's, and its results)


def test_a_resumed_reading_gives_each_call_the_scenario_of_its_whole_text(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    """Every call of the recorded SDK session (four APIs) and of a loop with odd calls (an added user turn, a result
    for no call, a call's turn changed) imports to the same scenario data, notes or error either way."""
    odd = {5: {"role": "user", "content": "and Paris?"}, 9: {"role": "tool", "tool_call_id": "nope", "content": "x"}}
    loop = loop_har(tmp_path / "odd.har", 12, KEY, system="Be brief.", step_text=True, odd=odd)
    changed = json.loads(loop.read_text())
    body = json.loads(changed["log"]["entries"][7]["request"]["postData"]["text"])
    body["messages"][2]["content"] = "step one, said otherwise"  # call 8 changes what call 1's reply said
    changed["log"]["entries"][7]["request"]["postData"]["text"] = json.dumps(body)
    loop.write_text(json.dumps(changed))
    saved_prefix._LAST.clear()
    resumed = {path: _imports(path) for path in (SESSION, loop)}
    _whole(monkeypatch)
    whole = {path: _imports(path) for path in (SESSION, loop)}
    assert resumed == whole
    assert any("matches no earlier assistant tool call" in r["error"] for r in whole[loop] if isinstance(r, dict))


@pytest.mark.parametrize("bound", ["values", "characters"])
def test_the_readers_bounds_are_the_whole_texts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, bound: str) -> None:
    """The loader's bounds (values read, characters of text) are counted over a call's whole scenario: read in parts,
    a call each part of which is within them and the whole not is refused as it was, naming the same bound."""
    path = loop_har(tmp_path / "loop.har", 12, KEY, system="Be brief.", step_text=True)
    if bound == "values":
        monkeypatch.setattr(yaml_input, "MAX_VALUES", 160)
    else:
        monkeypatch.setenv("TOOLCHOICE_LIMIT_EXPANDED_BYTES", "700")
    saved_prefix._LAST.clear()
    resumed = _imports(path)
    _whole(monkeypatch)
    whole = _imports(path)
    assert resumed == whole
    refused = [r["error"] for r in whole if isinstance(r, dict)]
    assert refused and len(refused) < len(whole)  # the bound falls within the loop: the later calls refused
    assert all(("more than 160 values" if bound == "values" else "expanded_bytes") in r for r in refused)


_MEASURED = re.compile(r'("[a-z_]*_ms": )[0-9.e+-]+')  # a live step's latency, as bench/har_replay_same.py masks it


@pytest.mark.parametrize("args", [["--trace-id", "1", "-p", "openai"], ["--trace-id", "4", "-p", "anthropic", "--stream"],
                                  ["--trace-id", "5", "-p", "gemini"], ["--trace-id", "3", "-p", "openai-responses"],
                                  ["--trace-id", "2", "-p", "anthropic", "--format", "json"], ["-p", "openai"]])
def test_run_replay_says_the_same_bytes_as_the_whole_reading(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                             args: list[str]) -> None:
    """`run --replay` of the recorded SDK session's conversations (on their API and on another) and of a 20-call loop
    with a key in its headers: stdout, stderr and exit status as when each call was read whole."""
    env = {"COLUMNS": "80", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}
    loop = loop_har(tmp_path / "loop.har", CALLS, KEY, system="Be brief.", step_text=True)
    other = [a for a in args[args.index("-p"):] if a != "--stream"]  # the loop recorded no stream
    commands = [["run", "--replay", str(SESSION), *args], ["run", "--replay", str(loop), *other]]

    def said() -> list[str]:
        saved_prefix._LAST.clear()
        return [_MEASURED.sub(r"\1#", f"{done.returncode}\n{done.stdout}\n{done.stderr}")
                for done in (run_cli(command, env=env) for command in commands)]

    resumed = said()
    _whole(monkeypatch)
    assert resumed == said()
    assert KEY not in "".join(resumed)
    assert resumed[1].startswith("0\n") and "done" in resumed[1]  # the whole loop replayed, to its text answer
    assert resumed[0].startswith("2\n" if "--trace-id" not in args else "0\n")  # -p alone: the error, 5 held
