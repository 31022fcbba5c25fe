"""`toolchoice trace FILE.har`'s listing says, under its samples, how to replay each conversation: the
`toolchoice run --replay FILE --trace-id N -p PROVIDER` command with the conversation's number and its API's provider
id (and `--stream` where its first call's recorded response is a stream, which the replay takes only as one), each
whole on a line of its own; why a conversation cannot be replayed where it cannot, folded to the terminal's width.

Through the real CLI entry (in-process) at 80 and 60 columns. The truth is outside the code: the APIs are those of
the HAR's own URLs (tests/data/har/SOURCES.md: entries 1 and 3 Chat Completions, 4 a Chat Completions stream, 5
Responses, 6 an Anthropic Messages stream, 7 google-genai's generateContent), and each printed command, run as
printed, replays that conversation (its `har.replayed` note names the entries)."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

import pytest

from cli import refused, run_cli

ROOT = Path(__file__).resolve().parents[1]
SESSION = ROOT / "tests" / "data" / "har" / "sdk-session.har"
# conversation -> (its entries, the API of their URLs, streamed): read off the file's entries by hand
HELD = {1: ([1, 3], "openai", False), 2: ([4], "openai", True), 3: ([5], "openai-responses", False),
        4: ([6], "anthropic", True), 5: ([7], "gemini", False)}
HEADING = "# to replay a conversation offline as run's loop:"


def _listing(path: Path, columns: int, *extra: str) -> list[str]:
    shown = run_cli(["trace", str(path), *extra], env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    assert shown.returncode == 0 and "Traceback" not in shown.stderr, shown.stderr
    return shown.stdout.splitlines()


def _under(lines: list[str]) -> list[str]:
    """The comment lines after the last sample: what the listing says under its conversations."""
    at = lines.index(HEADING)
    assert all(line.startswith("#") for line in lines[at:]) and not any(line.startswith("#") for line in
                                                                      lines[at - 3:at]), lines
    return lines[at:]


def _replayed(command: str) -> dict[str, Any]:
    """The printed command run as printed (its words after `toolchoice`), its JSON document."""
    words = shlex.split(command)
    assert words[0] == "toolchoice"
    done = run_cli([*words[1:], "-f", "json"], env={"COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _entries_replayed(document: dict[str, Any]) -> str:
    [step, *_] = document["runs"][0]["loops"][0]["steps"]
    [note] = [e["message"] for e in step["ledger"] if e["code"] == "har.replayed"]
    return note


@pytest.mark.parametrize("columns", [80, 60])
def test_each_conversation_s_command_replays_it(columns: int) -> None:
    lines = _listing(SESSION, columns)
    under = _under(lines)
    assert len(HEADING) <= columns
    expected = [f"#   toolchoice run --replay {SESSION} --trace-id {n} -p {api}" + (" --stream" if streamed else "")
                for n, (_, api, streamed) in HELD.items()]
    assert under[1:] == expected  # each whole, on a line of its own, in the listing's order
    if columns == 60:  # the commands are the same at any width: drawn whole, never folded
        assert under == _under(_listing(SESSION, 80))
        return
    for n, (entries, api, _) in HELD.items():
        note = _entries_replayed(_replayed(expected[n - 1].removeprefix("#   ")))
        assert f"conversation {n}, {len(entries)} call{'s' if len(entries) > 1 else ''} to {api} " \
               f"(log.entries[{', '.join(map(str, entries))}])" in note, note
    listed = json.loads(run_cli(["trace", str(SESSION), "-f", "json"]).stdout)["replay"]
    assert [(r["conversation"], r["provider"], r["command"]) for r in listed] == [
        (n, api, line.removeprefix("#   ")) for (n, (_, api, _)), line in zip(HELD.items(), expected)]


def _with_stranger(tmp_path: Path) -> Path:
    """The recorded session with, first, a copy of its Gemini call (entries[7]) at a host toolchoice does not know."""
    har = json.loads(SESSION.read_text(encoding="utf-8"))
    stranger = json.loads(json.dumps(har["log"]["entries"][7]))
    stranger["request"]["url"] = "https://llm.internal.example/v1/models/gemini-3.5-flash:generateContent"
    har["log"]["entries"].insert(0, stranger)
    path = tmp_path / "with-stranger.har"
    path.write_text(json.dumps(har), encoding="utf-8")
    return path


def test_a_host_toolchoice_does_not_know_renumbers_the_replay_of_its_api(tmp_path: Path) -> None:
    """An entry at an unknown host speaking Gemini's path, before the others: listed without -p it is no call, so
    Gemini's conversation is 5; `run --replay -p gemini` reads it as a Gemini call (conversation 1), so the command
    that replays the listing's conversation 5 names 6. Run as printed, it replays log.entries[8] (7, moved by one)."""
    path = _with_stranger(tmp_path)
    under = _under(_listing(path, 80))
    assert under[-1] == f"#   toolchoice run --replay {path} --trace-id 6 -p gemini"
    assert under[1] == f"#   toolchoice run --replay {path} --trace-id 1 -p openai"  # no stranger of its path
    assert "log.entries[8])" in _entries_replayed(_replayed(under[-1].removeprefix("#   ")))
    # listed with -p gemini, the stranger is conversation 1 and the others move by one; -p openai leaves it no call
    under = _under(_listing(path, 80, "-p", "gemini"))
    assert under[1] == f"#   toolchoice run --replay {path} --trace-id 1 -p gemini"  # the stranger
    assert under[2] == f"#   toolchoice run --replay {path} --trace-id 1 -p openai"  # the listing's 2
    assert under[-1] == f"#   toolchoice run --replay {path} --trace-id 6 -p gemini"
    listed = json.loads(run_cli(["trace", str(path), "-p", "gemini", "-f", "json"]).stdout)["replay"]
    assert [(r["conversation"], r["provider"]) for r in listed][:2] == [(1, "gemini"), (2, "openai")]
    assert "log.entries[2, 4])" in _entries_replayed(_replayed(under[2].removeprefix("#   ")))


@pytest.mark.parametrize("columns", [80, 60])
def test_a_call_that_does_not_read_says_why_none_replays_folded_to_the_width(tmp_path: Path, columns: int) -> None:
    har = json.loads(SESSION.read_text(encoding="utf-8"))
    har["log"]["entries"][4]["request"]["postData"]["text"] = "{not json"
    path = tmp_path / "broken.har"
    path.write_text(json.dumps(har), encoding="utf-8")
    lines = _listing(path, columns)
    said = [line for line in lines if line.startswith("# run --replay cannot")]
    assert said, lines
    at = lines.index(said[0])
    words = " ".join(line.removeprefix("#").strip() for line in lines[at:])
    assert words == ("run --replay cannot replay this file's conversations: sample 3 (log.entries[4]) does not "
                     "read as openai's request, so its conversation is not known")
    assert all(len(line) <= columns for line in lines[at:]) and len(lines[at:]) > 1
    assert "toolchoice run --replay" not in "\n".join(lines)
    line = refused(run_cli(["run", "--replay", str(path), "-p", "openai", "--trace-id", "1"]))
    assert "log.entries[4]" in line  # the replay refuses the file, as the listing says


def test_the_words_past_the_commands_shown() -> None:
    from toolchoice.providers.core.trace_har import Replay
    from toolchoice.providers.core.har_replays import SHOWN, replay_lines

    many = tuple(Replay(n, "openai", 1, f"toolchoice run --replay a.har --trace-id {n} -p openai")
                 for n in range(1, SHOWN + 4))
    mixed = (Replay(SHOWN + 4, None, 2, None, "its calls go to 2 APIs (openai, anthropic): a loop replays one "
                                               "API's calls"), *many)
    lines = replay_lines(mixed)
    assert [whole for _, whole in lines].count(True) == SHOWN
    assert lines[1] == (f"  conversation {SHOWN + 4}: its calls go to 2 APIs (openai, anthropic): a loop replays "
                        "one API's calls", False)
    assert lines[-1] == ("  and 3 more: --trace-id N with its API's -p (trace FILE -f json lists each command)", False)


def test_a_file_name_holding_controls_gets_a_command_that_runs_as_printed(tmp_path: Path) -> None:
    """A HAR whose name holds an ESC sequence, a newline, a tab, a quote and U+202E: the command was printed with the
    name written out (`'a\\u001b[31mb\\u000ac.har'`), which a shell reads as another file. It is a $'...' word now: no
    control character on the terminal, and bash, reading the line as printed, gives the file's own name, whose
    conversation the command replays."""
    import subprocess

    name = "a\x1b[31mb\nc\td 'e\u202e.har"
    (tmp_path / name).write_bytes(SESSION.read_bytes())
    shown = run_cli(["trace", name], env={"COLUMNS": "80", "NO_COLOR": "1"}, cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    under = _under(shown.stdout.splitlines())
    assert len(under) == 1 + len(HELD) and under[5].endswith(" --trace-id 5 -p gemini")
    assert not any(ch in shown.stdout for ch in "\x1b\t\u202e")
    command = under[5].removeprefix("#   ")
    read = subprocess.run(["bash", "-c", "printf '%s\\0' " + command], capture_output=True, check=True).stdout
    words = [os.fsdecode(word) for word in read.split(b"\0")[:-1]]
    assert words[:3] == ["toolchoice", "run", "--replay"] and words[3] == name
    done = run_cli([*words[1:], "-f", "json"], env={"COLUMNS": "80"}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "conversation 5, 1 call to gemini (log.entries[7])" in _entries_replayed(json.loads(done.stdout))
    listed = json.loads(run_cli(["trace", name, "-f", "json"], cwd=tmp_path).stdout)["replay"]
    assert listed[4]["command"] == command
    # --scenario-out's `try` line names the scenario written by the same quoting
    out = "s\x1b\n'.yaml"
    wrote = run_cli(["trace", name, "--sample", "1", "--scenario-out", out], cwd=tmp_path)
    assert wrote.returncode == 0 and "\x1b" not in wrote.stdout and wrote.stdout.count("\n") == 1, wrote.stderr
    pasted = wrote.stdout.split("try `", 1)[1].removesuffix("`\n")
    read = subprocess.run(["bash", "-c", "printf '%s\\0' " + pasted], capture_output=True, check=True).stdout
    assert read.split(b"\0")[:-1] == [b"toolchoice", b"render", os.fsencode(out), b"-p", b"openai"]


def test_the_command_line_says_its_option_for_a_host_it_does_not_know(tmp_path: Path) -> None:
    """An entry at a host toolchoice does not know: trace's listing, a sample's scenario and run --replay's ledger
    tell a command-line user to give -p PROVIDER; the Python caller's argument (provider=..., which the library's
    record says; the JSON documents name the field, provider) is no word of theirs (they said `(from Python,
    import_har(provider=...))`)."""
    path = _with_stranger(tmp_path)
    env = {"COLUMNS": "200", "NO_COLOR": "1"}
    drawn = [run_cli(["trace", str(path)], env=env), run_cli(["trace", str(path), "--sample", "1"], env=env),
             run_cli(["trace", str(path), "--sample", "1", "-f", "json"], env=env),
             run_cli(["run", "--replay", str(path), "--trace-id", "1", "-p", "openai"], env=env)]
    for shown in drawn:
        assert shown.returncode == 0, shown.stderr
        said = " ".join((shown.stdout + shown.stderr).split())
        assert "at a host toolchoice does not know (llm.internal.example): not read; give -p PROVIDER, the API it " \
               "speaks" in said, said
        assert "Python" not in said and "provider=" not in said
