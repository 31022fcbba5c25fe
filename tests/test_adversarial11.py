"""Trial 11e, an adversarial round on the surfaces not yet attacked hard: wire snapshots edited or replaced by hand
(`render --snapshot`), the Python API given a key or a bad value where the docs say one clear ``ToolchoiceError``
(docs/python.md "Wrong arguments", "the errors say no key either"), and ``running_mock``'s address. Snapshot cases
run the installed command's entry in-process (tests/cli.py: the same ``run`` the console script calls, its exit code
and output), and in a real process where the process is the check (an address-space limit, a lone surrogate written
to a real stdout's encoding, a limit variable read at start-up, a regex bound in time whose slow patterns the
process remembers); the API cases run in-process against a real ``running_mock``."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Callable

import pytest

from cli import run_cli
from toolchoice.providers import ToolchoiceError, WrongArgument, load_scenario_text, parse_reply, translate
from toolchoice.providers.core import jobs, runner
from toolchoice.providers.core.mock.server import running_mock

ROOT = Path(__file__).resolve().parents[1]
KEY = "sk-proj-ADVERSARIAL11e-0123456789abcdefXYZ"


def _toolchoice(*args: str, cwd: Path, memory: int | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command in a real process (``memory``: its address space, in bytes)."""
    exe = shutil.which("toolchoice", path=str(Path(sys.executable).parent))
    assert exe

    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([exe, *args], capture_output=True, text=True, cwd=cwd, timeout=120, preexec_fn=limit)


@pytest.fixture()
def snapshot_folder(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "configs" / "weather.yaml", tmp_path)
    done = run_cli(["render", "weather.yaml", "-p", "openai", "--snapshot", "snap", "--update"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return tmp_path


# ---- snapshots: a snapshot file is whatever a hand or a bad merge left there ------------------------------------


def test_a_snapshot_file_that_is_not_utf8_is_a_drift_not_an_internal_error(snapshot_folder: Path) -> None:
    # a merge tool or an editor saving in Latin-1 leaves bytes UTF-8 cannot read: the check said "internal error:
    # UnicodeDecodeError" (exit 70), and so did --update, which could then never repair the folder
    (snapshot_folder / "snap" / "weather" / "openai.json").write_bytes(b'{"model": "caf\xe9"}\n')
    checked = run_cli(["render", "weather.yaml", "-p", "openai", "--snapshot", "snap"], cwd=snapshot_folder)
    assert checked.returncode == 5, checked.stderr
    assert "--- weather/openai.json: changed" in checked.stdout and "internal error" not in checked.stderr
    assert '-{"model": "caf\ufffd"}' in checked.stdout  # the diff shows what is there, the unreadable byte marked
    updated = run_cli(["render", "weather.yaml", "-p", "openai", "--snapshot", "snap", "--update"], cwd=snapshot_folder)
    assert updated.returncode == 0 and "updated 1" in updated.stdout, updated.stderr
    again = run_cli(["render", "weather.yaml", "-p", "openai", "--snapshot", "snap"], cwd=snapshot_folder)
    assert again.returncode == 0 and "1 snapshot files match" in again.stdout


def test_a_huge_snapshot_file_is_not_read_whole(snapshot_folder: Path) -> None:
    # a 2 GiB file where a snapshot goes (a log redirected to the wrong name, a sparse file) was read whole into
    # memory: under a 1.5 GB address space "internal error: MemoryError" (exit 70), elsewhere gigabytes and a
    # diff of them. It cannot equal what render writes: it is a change, said without reading it
    with (snapshot_folder / "snap" / "weather" / "openai.json").open("wb") as handle:
        handle.truncate(2 << 30)
    checked = _toolchoice("render", "weather.yaml", "-p", "openai", "--snapshot", "snap", cwd=snapshot_folder,
                          memory=1_500_000_000)
    assert checked.returncode == 5, checked.stderr
    assert "--- weather/openai.json: changed" in checked.stdout and "larger than" in checked.stdout
    assert len(checked.stdout) < 2000
    updated = _toolchoice("render", "weather.yaml", "-p", "openai", "--snapshot", "snap", "--update", cwd=snapshot_folder,
                          memory=1_500_000_000)
    assert updated.returncode == 0 and "updated 1" in updated.stdout, updated.stderr
    assert (snapshot_folder / "snap" / "weather" / "openai.json").stat().st_size < 100_000


def test_a_lone_surrogate_in_a_tool_file_is_snapshotted_as_its_json_escape(tmp_path: Path) -> None:
    # JSON's "\\ud800" (a tool description cut inside an emoji by an exporter) read into a str is a lone surrogate,
    # which UTF-8 cannot encode: --update stopped with "internal error: UnicodeEncodeError" (exit 70)
    (tmp_path / "tools.json").write_text('[{"type": "function", "function": {"name": "f", "description": '
                                         '"cut \\ud83d here", "parameters": {"type": "object"}}}]', encoding="utf-8")
    (tmp_path / "cut.yaml").write_text("tools:\n  - from: tools.json\ntool_choice: required\n"
                                       "messages: [{role: user, content: hi}]\n", encoding="utf-8")
    updated = _toolchoice("render", "cut.yaml", "-p", "openai,anthropic", "--snapshot", "snap", "--update", cwd=tmp_path)
    assert updated.returncode == 0, updated.stderr
    written = (tmp_path / "snap" / "cut" / "openai.json").read_bytes()
    assert "cut \ud83d here" in json.loads(written.decode("utf-8"))["request"]["body"]["tools"][0]["function"]["description"]
    checked = _toolchoice("render", "cut.yaml", "-p", "openai,anthropic", "--snapshot", "snap", cwd=tmp_path)
    assert checked.returncode == 0 and "2 snapshot files match" in checked.stdout, checked.stdout + checked.stderr


def test_a_snapshot_changes_a_folder_name_only_where_it_is_a_path(tmp_path: Path) -> None:
    # machine paths are written as ~, <cwd>, <scenario-dir> by plain text replacement: with HOME=/h (or a container's
    # cwd /app) "https://docs.example.com/help" became "https://docs.example.com~elp", so a snapshot written there
    # drifted on every other machine, and its request no longer said what is sent
    shutil.copy(ROOT / "configs" / "weather.yaml", tmp_path)
    (tmp_path / "help.yaml").write_text(
        'tools:\n  - name: search_docs\n    description: "Search https://docs.example.com/help/articles"\n'
        "    parameters: {type: object, properties: {q: {type: string}}}\ntool_choice: required\n"
        "messages: [{role: user, content: hi}]\n", encoding="utf-8")

    def render(home: str, *extra: str) -> subprocess.CompletedProcess[str]:
        return run_cli(["render", "help.yaml", "-p", "openai", "--snapshot", "snap", *extra], cwd=tmp_path,
                       env={**os.environ, "HOME": home})

    assert render("/h", "--update").returncode == 0
    written = json.loads((tmp_path / "snap" / "help" / "openai.json").read_text(encoding="utf-8"))
    assert written["request"]["body"]["tools"][0]["function"]["description"] == "Search https://docs.example.com/help/articles"
    checked = render(str(tmp_path / "elsewhere"))
    assert checked.returncode == 0, checked.stdout


# ---- the Python API: a key pasted in the wrong place is never in the error -------------------------------------


SCENARIO = """\
tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}}
tool_choice: required
messages: [{role: user, content: hi}]
"""


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def _error_text(error: ToolchoiceError) -> str:
    return "".join([str(error), repr(error), error.message, str(error.hint), error.one_line(), *map(str, error.args)])


@pytest.mark.parametrize("call", [
    lambda: translate(KEY, load_scenario_text(SCENARIO)),
    lambda: parse_reply(KEY, {"choices": []}),
    lambda: running_mock("openai", host=KEY).__enter__(),  # the error came from __enter__, past says_no_key
], ids=["translate", "parse_reply", "running_mock-host"])
def test_a_key_pasted_into_a_public_entry_is_named_by_its_placeholder(call: Callable[[], Any]) -> None:
    # docs/python.md: the errors the library raises name every key set in the environment by its placeholder, as
    # the command line's error line does; translate and parse_reply (the two entries of toolchoice.providers
    # itself) and running_mock's `with` quoted the key to the caller's logs
    before = set(threading.enumerate())
    with pytest.raises(ToolchoiceError) as caught:
        call()
    text = _error_text(caught.value)
    assert KEY not in text and "$OPENAI_API_KEY" in text, text
    assert set(threading.enumerate()) <= before


@pytest.mark.parametrize("kwargs, words", [
    ({"port": -5}, "port -5: give a whole number from 0 to 65535"),  # was OverflowError from bind()
    ({"port": 70000}, "port 70000: give a whole number from 0 to 65535"),
    ({"port": "8080"}, "port: give a whole number (int), not str"),  # was "cannot listen on 127.0.0.1:8080: Servname..."
    ({"port": 1.5}, "port: give a whole number (int), not float"),  # was served on port 1
    ({"port": True}, "port: give a whole number (int), not bool"),
    ({"host": 127001}, "host: give an address (str), not int"),
    ({"max_requests": 0}, "max_requests 0: give a whole number from 1"),
    ({"max_requests": "3"}, "max_requests: give a whole number (int) or None, not str"),
])
def test_running_mock_bad_address_is_one_toolchoice_error(kwargs: dict[str, Any], words: str) -> None:
    before = set(threading.enumerate())
    with pytest.raises(ToolchoiceError) as caught:
        with running_mock("openai", **kwargs):
            pass  # pragma: no cover - never entered
    assert words in str(caught.value)
    assert isinstance(caught.value, WrongArgument) == ("give a whole number (int)" in words or "(str)" in words)
    assert set(threading.enumerate()) <= before


@pytest.mark.parametrize("field, value, words", [
    ("concurrency", "2", "settings.concurrency: give a whole number (int), not str"),  # was TypeError from min()
    ("concurrency", 2.5, "settings.concurrency: give a whole number (int), not float"),
    ("max_in_flight", "8", "settings.max_in_flight: give a whole number (int) or None, not str"),
    ("keep", "no", "settings.keep: give True or False, not str"),
])
def test_send_settings_of_the_wrong_type_is_one_wrong_argument(field: str, value: Any, words: str) -> None:
    scenario = load_scenario_text(SCENARIO)
    [translation] = jobs.translations(scenario, ["openai"])
    settings = runner.SendSettings(**{field: value})
    for call in (lambda: jobs.send(scenario, translation, repeat=3, settings=settings),
                 lambda: jobs.compare_send(scenario, [translation], settings=settings),
                 lambda: jobs.run(scenario, ["openai"], settings=settings)):
        with pytest.raises(WrongArgument, match=words.replace("(", r"\(").replace(")", r"\)")):
            call()


# ---- a tool's regular expression against a model's arguments: bounded in time ---------------------------------


SLOW = "^(a|aa)+$"  # Python's backtracking re takes ~1.6^n steps on n a's and a '!': 2^48 at 80
SLOW_SCENARIO = f"""\
tools:
  - name: label
    parameters:
      type: object
      properties:
        tag: {{type: string, pattern: '{SLOW}'}}
        meta: {{type: object, patternProperties: {{'{SLOW}': {{type: string}}}}}}
  - name: grep
    type: custom
    format: {{type: grammar, syntax: regex, definition: '{SLOW}'}}
tool_choice: required
messages: [{{role: user, content: hi}}]
"""


def _chat_reply(calls: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-4o", "choices": [
        {"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": calls}}]}


@pytest.mark.parametrize("call, where", [
    ({"id": "c1", "type": "function", "function": {"name": "label", "arguments": json.dumps({"tag": "a" * 80 + "!"})}},
     "pattern"),
    ({"id": "c1", "type": "function", "function": {"name": "label", "arguments": json.dumps(
        {"meta": {"a" * 80 + "!": "x"}})}}, "pattern"),
    ({"id": "c1", "type": "custom", "custom": {"name": "grep", "input": "a" * 80 + "!"}}, "regex grammar"),
], ids=["pattern", "patternProperties", "custom-grammar"])
def test_a_tools_regex_on_a_models_arguments_is_bounded_in_time(tmp_path: Path, call: dict[str, Any], where: str) -> None:
    # the verdict checked a call's arguments with Python's re, which backtracks: the API's own matcher (OpenAI's is
    # the Rust regex crate's, linear) takes the same pattern in its stride, toolchoice's judge ran for ever --
    # holding the GIL, so not even Ctrl-C ended it (send, run, compare, and the proxy's judging of every answer)
    from servers import StandIn, Step

    (tmp_path / "slow.yaml").write_text(SLOW_SCENARIO, encoding="utf-8")
    with StandIn("openai", default=Step(body=_chat_reply([call]))) as server:
        exe = shutil.which("toolchoice", path=str(Path(sys.executable).parent))
        assert exe
        done = subprocess.run([exe, "send", "slow.yaml", "-p", "openai", "--base-url", server.base_url("openai"),
                               "-f", "json"], capture_output=True, text=True, cwd=tmp_path, timeout=60,
                              env={**os.environ, "OPENAI_API_KEY": KEY, "TOOLCHOICE_LIMIT_PATTERN_SECONDS": "0.2"})
    assert done.returncode in (0, 4), done.stderr
    shown = json.loads(done.stdout)
    text = json.dumps(shown)
    # the bound lowered to 0.2 s (docs/limits.md: a limit in seconds takes a decimal): the same check, a fifth the CPU
    assert "took more than 0.2 seconds (limit pattern_seconds)" in text and where in text, text


# ---- --trace-out: written as --save writes ----------------------------------------------------------------------


@pytest.mark.parametrize("command", ["send", "run"])
def test_trace_out_never_writes_through_a_planted_link_and_takes_a_lone_surrogate(tmp_path: Path, command: str) -> None:
    # the trace was written to the fixed name ".NAME.partial" beside it, following a link planted there (a shared
    # folder such as /tmp: another user's link to your ~/.bashrc has it overwritten with the trace), and encoded
    # strictly: a lone surrogate from a tool file ended the run with "internal error: UnicodeEncodeError"
    from servers import StandIn, Step

    (tmp_path / "tools.json").write_text('[{"type": "function", "function": {"name": "f", "description": '
                                         '"cut \\udfff here", "parameters": {"type": "object"}}}]', encoding="utf-8")
    (tmp_path / "cut.yaml").write_text("tools:\n  - from: tools.json\ntool_choice: required\n"
                                       "messages: [{role: user, content: hi}]\nloop: {max_steps: 1}\n", encoding="utf-8")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    (tmp_path / ".trace.json.partial").symlink_to(victim)
    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    with StandIn("openai", default=Step(body=_chat_reply([call]))) as server:
        exe = shutil.which("toolchoice", path=str(Path(sys.executable).parent))
        assert exe
        done = subprocess.run([exe, command, "cut.yaml", "-p", "openai", "--base-url", server.base_url("openai"),
                               "--trace-out", "trace.json"], capture_output=True, text=True, cwd=tmp_path, timeout=60,
                              env={**os.environ, "OPENAI_API_KEY": KEY})
    assert done.returncode == 0, done.stderr
    assert victim.read_text(encoding="utf-8") == "precious\n"
    trace = json.loads((tmp_path / "trace.json").read_bytes().decode("utf-8"))
    assert "cut \udfff here" in json.dumps(trace, ensure_ascii=False)


# ---- trace import: an attribute key's index -------------------------------------------------------------------


@pytest.mark.parametrize("index", ["\u00b2", "9" * 5000], ids=["superscript-two", "5000-digits"])
def test_a_trace_attribute_index_int_cannot_read_is_not_an_internal_error(tmp_path: Path, index: str) -> None:
    # OpenInference flattens lists into keys (llm.input_messages.1.message.role); str.isdigit() takes '\u00b2' and
    # a 5,000-digit run, which int() refuses: "internal error: ValueError" (exit 70). Such a segment is a name
    trace = json.loads((ROOT / "tests" / "data" / "traces" / "openinference-agno-1.0.15.json").read_text(encoding="utf-8"))
    for span in trace["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        for attribute in span["attributes"]:
            attribute["key"] = attribute["key"].replace("llm.input_messages.1.", f"llm.input_messages.{index}.")
    (tmp_path / "trace.json").write_text(json.dumps(trace), encoding="utf-8")
    done = run_cli(["trace", "trace.json"], cwd=tmp_path)
    assert "internal error" not in done.stderr and done.returncode in (0, 2), done.stderr
    assert len(done.stderr.strip().splitlines()) <= 1


@pytest.mark.parametrize("value", ["\u00b2", "9" * 5000], ids=["superscript-two", "5000-digits"])
def test_a_limit_variable_int_cannot_read_is_said_not_an_internal_error(tmp_path: Path, value: str) -> None:
    # TOOLCHOICE_LIMIT_<NAME> was read with str.isdigit() then int(): every command stopped with an internal error
    shutil.copy(ROOT / "configs" / "weather.yaml", tmp_path)
    exe = shutil.which("toolchoice", path=str(Path(sys.executable).parent))
    assert exe
    done = subprocess.run([exe, "render", "weather.yaml", "-p", "openai", "-f", "json"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60, env={**os.environ, "TOOLCHOICE_LIMIT_FILE_BYTES": value})
    assert done.returncode == 0 and "internal error" not in done.stderr, done.stderr


# ---- the Python API: every argument of run, send and render checked at the door ---------------------------------


LOOP_SCENARIO = SCENARIO + "loop: {max_steps: 2, results: {get_weather: ok}}\n"


def _run_cases() -> list[tuple[str, Callable[[], Any], str]]:
    from toolchoice.providers import RenderOptions
    from toolchoice.providers.core import loop

    import httpx

    def never(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"sent {request.url}: the wrong argument was not refused first")

    sc = load_scenario_text(LOOP_SCENARIO)
    [tr] = jobs.translations(sc, ["openai"])
    offline = runner.SendSettings(transport=httpx.MockTransport(never), retries=0)
    return [  # each was an AttributeError or TypeError from inside, or ran with the value (results_timeout=-1)
        ("LoopOptions(override=str)", lambda: jobs.run(sc, ["openai"], loop.LoopOptions(override="required"), settings=offline),
         "options.override: give a ToolChoice or None, not str"),
        ("LoopOptions(capabilities=str)", lambda: jobs.run(sc, ["openai"], loop.LoopOptions(capabilities="probe.yaml"), settings=offline),
         "options.capabilities: give a mapping of provider id to Capability or None, not str"),
        ("LoopOptions(models=list)", lambda: jobs.run(sc, ["openai"], loop.LoopOptions(models=["gpt-4o"]), settings=offline),
         "options.models: give a mapping of provider id to model, not list"),
        ("LoopOptions(results_from=int)", lambda: jobs.run(sc, ["openai"], loop.LoopOptions(results_from=5), settings=offline),
         "options.results_from: give a shell command (str) or None, not int"),
        ("LoopOptions(results_timeout=str)", lambda: jobs.run(sc, ["openai"], loop.LoopOptions(results_timeout="30"), settings=offline),
         "options.results_timeout: give a number of seconds, not str"),
        ("LoopOptions(results_timeout=-1)", lambda: jobs.run(sc, ["openai"], loop.LoopOptions(results_timeout=-1), settings=offline),
         "options.results_timeout -1: give a number of seconds greater than 0 and at most 3600"),
        ("run(processes=str)", lambda: jobs.run(sc, ["openai"], processes="2", settings=offline),
         "processes: give a whole number (int), not str"),
        ("run(processes=0)", lambda: jobs.run(sc, ["openai"], processes=0, settings=offline), "processes 0: give a whole number from 1 to 64"),
        ("run(replay=str)", lambda: jobs.run(sc, ["openai"], replay="saved", settings=offline),
         "replay: give a loop.Replay or None, not str"),
        ("run(spool_json=str)", lambda: jobs.run(sc, ["openai"], spool_json="no", settings=offline), "spool_json: give True or False, not str"),
        ("send(on_sample=int)", lambda: jobs.send(sc, tr, on_sample=5, settings=offline), "on_sample: give a function or None, not int"),
        ("render(capabilities=str)", lambda: jobs.render(sc, ["openai"], capabilities="probe.yaml"),
         "capabilities: give a mapping of provider id to Capability or None, not str"),
        ("translations(capabilities=list)", lambda: jobs.translations(sc, ["openai"], RenderOptions(), capabilities=[1]),
         "capabilities: give a mapping of provider id to Capability or None, not list"),
    ]


def test_run_send_and_render_arguments_of_the_wrong_kind_are_one_error_before_anything_is_sent() -> None:
    problems = []
    for label, call, words in _run_cases():
        try:
            call()
        except ToolchoiceError as exc:
            if words not in str(exc) or isinstance(exc, WrongArgument) != ("not " in words):
                problems.append(f"{label}: {type(exc).__name__}: {exc}")
        except Exception as exc:  # noqa: BLE001 - what the test is about
            problems.append(f"{label}: bare {type(exc).__name__}: {exc}")
        else:
            problems.append(f"{label}: no error")
    assert problems == []


def test_the_mock_makes_arguments_for_a_backtracking_pattern_in_bounded_time(tmp_path: Path) -> None:
    # the mock fits a made-up string to a tool's pattern by trying a few with Python's re: '^((.|.)*)*Z$' on
    # 'https://example.com/' never ended, holding the GIL: the mock answered no one again and Ctrl-C did not end it
    import httpx

    exe = shutil.which("toolchoice", path=str(Path(sys.executable).parent))
    assert exe
    mock = subprocess.Popen([exe, "mock", "-p", "openai", "--port", "0", "-f", "jsonl"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        assert mock.stdout is not None
        base = mock.stdout.readline().strip()
        body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tool_choice": "required",
                "tools": [{"type": "function", "function": {"name": "tag", "parameters": {"type": "object", "properties": {
                    "t": {"type": "string", "pattern": "^((.|.)*)*Z$"}}, "required": ["t"]}}}]}
        answer = httpx.post(f"{base}/chat/completions", json=body, headers={"Authorization": "Bearer sk-x"}, timeout=30)
        assert answer.status_code == 200
        assert answer.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "tag"
    finally:
        mock.kill()
        mock.wait(10)
