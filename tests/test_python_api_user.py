"""The Python API as an agent builder's own project uses it (trial 8a, docs/python.md): errors the library raises
say keys as the command line's error line does (by their placeholder), a compare's returned jobs hold no resolved
key, ``running_mock`` on a port it cannot bind is one ``ToolchoiceError`` (as ``toolchoice mock --port`` is) and
leaves no thread, and the folders the docs say may be a ``str`` are typed so. In-process; the sends go to a real
``running_mock`` on 127.0.0.1."""

from __future__ import annotations

import dataclasses
import os
import socket
import threading
import typing
from pathlib import Path

import pytest

from toolchoice.providers import RenderOptions, ToolchoiceError, WrongArgument, load_scenario_dict, load_scenario_text
from toolchoice.providers.core import jobs, runner
from toolchoice.providers.core.mock import server as mock_server
from toolchoice.providers.core.mock.server import running_mock

KEY = "sk-proj-TESTKEY0123456789abcdef"
SCENARIO = {"tools": [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}],
            "tool_choice": "required", "messages": [{"role": "user", "content": "Weather in Paris?"}]}


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("GROQ_API_KEY", "gsk-TESTKEY9876543210fedcba")


@pytest.mark.parametrize("call", [
    lambda: load_scenario_text(f"tools: [{{name: get_weather}}]\ntool_choice: {{tool: {KEY}}}\n"),
    lambda: load_scenario_dict({"messages": [{"role": KEY, "content": "hi"}]}),
    lambda: jobs.render(load_scenario_dict(SCENARIO), [KEY]),  # a key pasted where the provider id goes
    lambda: jobs.probe(KEY),
], ids=["text", "dict", "render", "probe"])
def test_library_errors_name_a_key_by_its_placeholder(call: typing.Callable[[], object]) -> None:
    # `toolchoice render` prints these as "...'$OPENAI_API_KEY'..." (cli/exits.error_line); the library's exception
    # quoted the key itself, to whatever log or traceback the caller's program writes
    with pytest.raises(ToolchoiceError) as caught:
        call()
    text = "".join([str(caught.value), repr(caught.value), caught.value.message, caught.value.one_line(),
                    *map(str, caught.value.args)])
    assert KEY not in text and "$OPENAI_API_KEY" in text


def test_compare_jobs_hold_no_resolved_key() -> None:
    scenario = load_scenario_dict(SCENARIO)
    with running_mock("openai") as openai, running_mock("groq") as groq:
        translations = [*jobs.translations(scenario, ["openai"], RenderOptions(base_url=openai.base_url)),
                        *jobs.translations(scenario, ["groq"], RenderOptions(base_url=groq.base_url))]
        result = jobs.compare_send(scenario, translations, settings=runner.SendSettings(retries=0))
    assert result.code == 0 and [j.first.verdict["category"] for j in result.jobs] == ["obeyed", "obeyed"]
    for job in result.jobs:  # asdict: what a caller's json.dumps(..., default=...) or a debugger shows of a job
        shown = repr(dataclasses.asdict(job))
        assert KEY not in shown and "Bearer $" in shown


def test_running_mock_on_a_taken_port_is_one_toolchoice_error() -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    before = set(threading.enumerate())
    try:
        with pytest.raises(ToolchoiceError, match=r"^port \d+: cannot listen on 127\.0\.0\.1: .*choose another port"):
            with running_mock("openai", port=taken.getsockname()[1]):
                pass  # pragma: no cover - never entered
    finally:
        taken.close()
    assert set(threading.enumerate()) <= before  # the server's thread ended with its error


def test_folders_the_docs_take_as_str_are_typed_so() -> None:
    # docs/python.md: "a save folder may be a str"; mypy --strict refused jobs.send(..., save="out")
    from toolchoice.providers.core import loop, loop_records, loop_replay, trace_export

    types = {**vars(runner), **vars(loop), **vars(loop_records), **vars(loop_replay),  # docs/python.md, "Types"
             **vars(trace_export)}
    for fn, name in ((jobs.send, "save"), (jobs.compare_send, "save"), (jobs.run, "save"), (jobs.run, "trace_out"),
                     (jobs.send, "trace_out"), (mock_server.running_mock, "save_dir")):
        hint = typing.get_type_hints(fn, localns=types)[name]
        assert str in typing.get_args(hint) and os.PathLike[str] in typing.get_args(hint), (fn.__name__, name, hint)


def test_running_mock_takes_a_str_folder_and_names_a_pasted_key_by_its_placeholder(tmp_path: Path) -> None:
    with running_mock("openai", save_dir=str(tmp_path)) as mock:
        scenario = load_scenario_dict(SCENARIO)
        [translation] = jobs.translations(scenario, ["openai"], RenderOptions(base_url=mock.base_url))
        assert jobs.send(scenario, translation, settings=runner.SendSettings(retries=0)).code == 0
    saved = sorted(Path(tmp_path).iterdir())  # as `toolchoice mock --save DIR` writes them (docs/mock.md)
    assert [p.name for p in saved] == ["sample-001.reply.json", "sample-001.request.json", "sample-001.response.json"]
    assert not any(KEY.encode() in p.read_bytes() for p in saved)
    with pytest.raises(ToolchoiceError) as caught:
        running_mock(KEY)
    assert KEY not in str(caught.value) and "$OPENAI_API_KEY" in str(caught.value)


def test_run_records_hold_no_key_a_tool_printed() -> None:
    # a tool that prints its configuration: `run -f json` and --save show the key as its placeholder; the records
    # jobs.run returned held it in the step's results, the history and the next step's request
    from toolchoice.providers.core import loop

    data = {**SCENARIO, "tool_choice": {"tool": "get_weather"},
            "loop": {"max_steps": 2, "results": {"get_weather": "unused"}}}
    scenario = load_scenario_dict(data)
    with running_mock("openai") as mock:
        options = loop.LoopOptions(render=RenderOptions(base_url=mock.base_url),
                                   results_from='cat >/dev/null; echo "18 C (token=$OPENAI_API_KEY)"')
        result = jobs.run(scenario, ["openai"], options, settings=runner.SendSettings(retries=0))
    [one] = result.runs
    assert result.code == 0 and len(one.steps) == 2
    assert one.steps[0].results[0].content == "18 C (token=$OPENAI_API_KEY)"
    records = repr([one.history, one.final, *(dataclasses.astuple(step) for step in one.steps),
                    [step.to_json() for step in one.steps]])
    assert KEY not in records and "token=$OPENAI_API_KEY" in records


def test_running_mock_takes_a_script_path_as_the_command_line_does(tmp_path: Path) -> None:
    # `toolchoice mock --script FILE`: a str given as script= was kept as it was, and every request got a 500
    # ("internal error: AttributeError: 'str' object has no attribute 'step'")
    script = tmp_path / "disobey.yaml"
    script.write_text("replies:\n  - {text: I will not call it}\n", encoding="utf-8")
    scenario = load_scenario_dict(SCENARIO)
    for given in (str(script), script):
        with running_mock("openai", script=given) as mock:
            [translation] = jobs.translations(scenario, ["openai"], RenderOptions(base_url=mock.base_url))
            sample = jobs.send(scenario, translation, settings=runner.SendSettings(retries=0)).samples[0]
        assert (sample.status, sample.reply.text, sample.reply.tool_calls) == (200, "I will not call it", ())
    with pytest.raises(WrongArgument, match=r"^script: give a script \(load_script\(path\)\) or its path, not dict"):
        running_mock("openai", script={"replies": []})


def test_a_running_mock_entered_again_is_refused_and_the_first_still_stops() -> None:
    # entering the same running_mock inside its own block started a second server on its port, failed, and left the
    # first one's thread and socket running after both blocks had ended
    before = set(threading.enumerate())
    mock = running_mock("openai")
    with pytest.raises(ToolchoiceError, match=r"already running at http://127\.0\.0\.1:\d+/v1"):
        with mock:
            with mock:
                pass  # pragma: no cover - never entered
    assert set(threading.enumerate()) <= before


def _open_under(folder: Path) -> list[str]:
    """This process's descriptors open on ``folder`` or below it (a held folder lock is one)."""
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # closed meanwhile (the listing's own descriptor)
            continue
        if target == str(folder) or target.startswith(f"{folder}/"):
            found.append(target)
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts descriptors in /proc")
def test_a_save_folder_is_free_again_once_its_job_returned(tmp_path: Path) -> None:
    # the folder lock was held until the process ended: a second send/run/compare saving into the same folder in one
    # program (a test session, a notebook cell run again) was refused as "another toolchoice run is saving into this
    # folder", and each call left one descriptor open
    from toolchoice.providers.core import loop

    scenario = load_scenario_dict({**SCENARIO, "loop": {"max_steps": 1}})
    with running_mock("openai", save_dir=tmp_path / "mock") as mock:
        options = RenderOptions(base_url=mock.base_url)
        [translation] = jobs.translations(scenario, ["openai"], options)
        settings = runner.SendSettings(retries=0)
        for _ in range(2):
            assert jobs.send(scenario, translation, settings=settings, save=tmp_path / "send").code == 0
            assert jobs.compare_send(scenario, [translation], settings=settings, save=tmp_path / "compare").code == 0
            assert jobs.run(scenario, ["openai"], loop.LoopOptions(render=options), settings=settings,
                            save=tmp_path / "run").code == 0
        assert _open_under(tmp_path) == [str(tmp_path / "mock")]  # the running mock's own lock alone
    assert sorted(p.name for p in (tmp_path / "mock").iterdir())[:3] == [  # the folder made, as `mock --save` makes it
        "sample-001.reply.json", "sample-001.request.json", "sample-001.response.json"]
    with running_mock("openai", save_dir=tmp_path / "mock"):  # and free again once its block ended
        pass
    assert _open_under(tmp_path) == []


def test_a_runs_document_is_what_run_format_json_prints() -> None:
    """`RunResult.document` against the command's own output, on the README's recorded loop replayed offline
    (an attempt's latency is the in-process transport's own, so it alone may differ)."""
    import json
    import re

    from toolchoice.providers.core import loop
    from toolchoice.providers.core.scenario import load_scenario

    from cli import run_cli

    root = Path(__file__).resolve().parents[1]
    path, saved = "configs/planner-loop.yaml", "tests/data/loops/planner-loop-gemma-270m"
    printed = run_cli(["run", path, "-p", "openai", "--replay", saved, "--format", "json"], cwd=root)
    assert printed.returncode == 0, printed.stderr
    scenario = load_scenario(root / path)._replace(path=path)
    ran = jobs.run(scenario, ["openai"], loop.LoopOptions(), replay=loop.load_replay(root / saved, "openai"))
    latency = re.compile(r'"latency_ms": [0-9.]+')
    mine = json.dumps(ran.document(path, ["openai"], replayed=True), indent=2, ensure_ascii=False) + "\n"
    assert latency.sub("L", printed.stdout) == latency.sub("L", mine)


def test_a_compares_document_is_what_compare_send_format_json_prints(tmp_path: Path) -> None:
    """`CompareResult.document` against `compare --send --format json`, each against a fresh mock (the mock numbers
    its ids per server); times are the runs' own, so they alone are left out."""
    import json

    import yaml

    from toolchoice.providers import load_scenario
    from cli import run_cli

    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(SCENARIO), encoding="utf-8")

    def timeless(value: typing.Any) -> typing.Any:
        if isinstance(value, dict):
            return {k: timeless(v) for k, v in value.items() if k not in ("latency_ms", "wall_ms", "attempts")}
        return [timeless(v) for v in value] if isinstance(value, list) else value

    with running_mock("openai") as mock:
        printed = run_cli(["compare", str(path), "-p", "openai", "--send", "--base-url", mock.base_url, "-f", "json"],
                          env={**os.environ, "OPENAI_API_KEY": KEY})
        theirs = json.loads(printed.stdout.replace(mock.base_url, "BASE"))
    assert printed.returncode == 0, printed.stderr
    scenario = load_scenario(path)
    with running_mock("openai") as mock:
        translations = jobs.translations(scenario, ["openai"], RenderOptions(base_url=mock.base_url))
        mine = jobs.compare_send(scenario, translations, settings=runner.SendSettings(retries=0)).document(str(path))
        mine = json.loads(json.dumps(mine).replace(mock.base_url, "BASE"))
    assert KEY not in json.dumps(mine) and mine["providers"][0]["verdict"]["obeyed"] is True
    assert timeless(theirs) == timeless(mine)
