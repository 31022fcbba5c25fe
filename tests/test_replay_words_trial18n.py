"""`run --replay FILE.har`'s refusals in the caller's words, and a HAR of one call's replay command.

A file of several conversations without a trace id, or one it does not hold, is refused by
``trace_har_replay.replay_file`` with words that name how to pick one: through the real CLI entry (in-process) the
command line's options (``--trace-id N``, ``-p``, ``toolchoice trace FILE.har``), through the Python call its keyword
arguments (``trace_id=``, ``provider=``), never the other's. The truth is outside the code: the options are those
click registered for `run` (and the command `trace` that `toolchoice --help`'s group holds), the keywords the
parameters ``inspect.signature`` reads off ``replay_file``.

`trace FILE.har` on a file of one provider call prints its scenario at once, with the command that replays it under
the notes, whole at 80 and 60 columns; run as printed, it replays that entry (its `har.replayed` note names it). The
files are cut from tests/data/har/sdk-session.har (SOURCES.md: entry 5 a Responses call, entry 4 a Chat Completions
stream, entries 1 and 3 one Chat Completions conversation)."""

from __future__ import annotations

import inspect
import json
import re
import shlex
from pathlib import Path

import pytest

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
SESSION = ROOT / "tests" / "data" / "har" / "sdk-session.har"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One file per cut of the session: its entries picked by their index in log.entries."""
    har = json.loads(SESSION.read_text(encoding="utf-8"))
    folder = tmp_path_factory.mktemp("cuts")
    out = {}
    for name, entries in {"responses": [5], "stream": [4], "two": [1, 3, 4]}.items():
        cut = json.loads(json.dumps(har))
        cut["log"]["entries"] = [har["log"]["entries"][i] for i in entries]
        out[name] = folder / f"{name}.har"
        out[name].write_text(json.dumps(cut), encoding="utf-8")
    return out


def _options() -> tuple[set[str], set[str]]:
    """The options click registered for `run`, and the group's commands."""
    import typer

    from toolchoice.cli.app import app

    group = typer.main.get_command(app)
    run = group.commands["run"]  # type: ignore[attr-defined]
    return {o for p in run.params for o in p.opts}, set(group.commands)  # type: ignore[attr-defined]


CASES = [("session", None), ("session", "9"), ("two", None)]  # 4 APIs; no conversation 9; 2 conversations of one API


def _path(files: dict[str, Path], name: str) -> Path:
    return SESSION if name == "session" else files[name]


@pytest.mark.parametrize("name,trace_id", CASES)
def test_the_command_line_says_its_options(files: dict[str, Path], name: str, trace_id: str | None) -> None:
    path = _path(files, name)
    shown = run_cli(["run", "--replay", str(path), "-p", "openai", *(["--trace-id", trace_id] if trace_id else [])],
                    env={"COLUMNS": "80", "NO_COLOR": "1"})
    assert shown.returncode == 2 and shown.stdout == "" and len(shown.stderr.splitlines()) == 1, shown.stderr
    line = shown.stderr
    options, commands = _options()
    said = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", line.split(str(path), 1)[1]))
    assert said and said <= options, (said, line)  # every option it names is one `run` takes
    assert "--trace-id" in said and "toolchoice trace FILE.har lists them" in line and "trace" in commands
    assert "trace_id" not in line and "provider=" not in line and "import_har" not in line
    if name == "session" and trace_id is None:
        assert "one -p per API" in line and "--trace-id N and its API's -p;" in line


@pytest.mark.parametrize("name,trace_id", CASES)
def test_the_python_call_says_its_keywords(files: dict[str, Path], name: str, trace_id: str | None) -> None:
    from toolchoice.providers.core import trace_har
    from toolchoice.providers.core.model import ToolchoiceError
    from toolchoice.providers.core.trace_har_replay import replay_file

    with pytest.raises(ToolchoiceError) as raised:
        replay_file(_path(files, name), trace_id, "openai")
    line = str(raised.value)
    keywords = set(re.findall(r"\b([a-z_]+)=", line))
    assert "trace_id" in keywords and keywords <= set(inspect.signature(replay_file).parameters), line
    assert "trace_har.import_har(path) lists them" in line and hasattr(trace_har, "import_har")
    assert not re.search(r"(?<![\w-])--?[a-z]", line.split(str(_path(files, name)), 1)[1]), line  # no option
    assert "toolchoice" not in line.split(str(_path(files, name)), 1)[1]
    if name == "session" and trace_id is None:
        assert "one provider= per API" in line and 'trace_id="N" and its API\'s provider=;' in line


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("name,api,stream,entry", [("responses", "openai-responses", False, 5),
                                                   ("stream", "openai", True, 4)])
def test_a_file_of_one_call_prints_its_replay_command(files: dict[str, Path], columns: int, name: str, api: str,
                                                      stream: bool, entry: int) -> None:
    path = files[name]
    shown = run_cli(["trace", str(path)], env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    command = f"toolchoice run --replay {path} --trace-id 1 -p {api}" + (" --stream" if stream else "")
    at = lines.index("# to replay this call offline as run's loop:")
    assert lines[at + 1] == f"#   {command}"  # whole on a line of its own at any width
    assert all(line.startswith("#") for line in lines[:at + 2]) and lines[at + 2].startswith("description:")
    assert all(len(line) <= columns for line in lines[:at + 1] if not line.startswith("# info")
               and not line.startswith("# warning"))
    json_form = run_cli(["trace", str(path), "-f", "json"], env={"COLUMNS": str(columns)})
    assert json_form.returncode == 0 and "run --replay" not in json_form.stdout + json_form.stderr  # a scenario only
    if columns == 60:
        return
    done = run_cli([*shlex.split(command)[1:], "-f", "json"], env={"COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    [step] = json.loads(done.stdout)["runs"][0]["loops"][0]["steps"]
    [note] = [e["message"] for e in step["ledger"] if e["code"] == "har.replayed"]
    assert "conversation 1, 1 call to" in note and "(log.entries[0])" in note, note  # the cut's only entry


def test_an_otlp_trace_of_two_runs_is_refused_in_each_caller_s_words(tmp_path: Path) -> None:
    """`run --replay` of an OTLP/JSON trace (two exports, one object per line) goes the same way."""
    from toolchoice.providers.core.model import ToolchoiceError
    from toolchoice.providers.core.trace_har_replay import replay_file

    traces = ROOT / "tests" / "data" / "traces"
    path = tmp_path / "two-runs.jsonl"
    path.write_text("".join(json.dumps(json.loads((traces / name).read_text(encoding="utf-8"))) + "\n" for name in
                            ("openinference-agno-1.0.15.json", "pydantic-ai-2.68.0.json")), encoding="utf-8")
    shown = run_cli(["run", "--replay", str(path), "-p", "openai"], env={"COLUMNS": "80"})
    assert shown.returncode == 2 and "holds 2 runs" in shown.stderr
    assert "pick one with --trace-id; toolchoice trace FILE lists them" in shown.stderr and "--trace-id" in _options()[0]
    with pytest.raises(ToolchoiceError) as raised:
        replay_file(path, None, "openai")
    assert "pick one with trace_id=; trace_scenario.import_trace(path) lists them" in str(raised.value)
    assert "trace_id" in inspect.signature(replay_file).parameters and "--" not in str(raised.value)


def test_the_python_call_of_one_call_has_its_replay(files: dict[str, Path]) -> None:
    from toolchoice.providers.core import trace_har
    from toolchoice.providers.core.saved_request import SavedScenario

    one = trace_har.import_har(files["responses"])
    assert isinstance(one, SavedScenario)
    [replay] = one.replays
    assert (replay.conversation, replay.provider, replay.calls) == (1, "openai-responses", 1)
    assert trace_har.import_har(files["responses"], sample=1).replays == ()  # a sample picked: no replay said
