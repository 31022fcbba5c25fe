"""Adversarial round 19 (trial19f) on session 18's merges (`run --replay FILE.har`, sent_choice / sent_parallel, the
Gemini translator's schema.api_refuses, Bedrock's key help) and on the house rules across commands: a replay opens
no socket and starts no process, bad input is one line saying what it is, a warning line keeps keys and terminal
escapes out as an error line does. Each test failed before its fix; the commands run in-process (tests/cli.py: the
console script's own entry) where no real process is the check.

The truth is outside the code under test: the recorded HAR of tests/data/har (openai-python's own requests), the
saved loop of tests/data/loops (a real model's run), the operating system's own FIFO and symlink loop, and the Gemini
mock's 400 (the API's recorded words) for the exact body the translator sends."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cli import refuse_sockets, refused, run_cli, user_env

ROOT = Path(__file__).resolve().parents[1]
HAR = ROOT / "tests" / "data" / "har" / "sdk-session.har"
SAVED = ROOT / "tests" / "data" / "loops" / "planner-loop-gemma-270m"
TRAP = str(ROOT / "configs" / "planner-trap.yaml")
KEY = "sk-proj-Adversarial19fKey0123456789abcdefXYZ"


# ---- a replay is offline: a scenario's live MCP source is not started nor reached ------------------------------------

@pytest.mark.parametrize("source", ["mcp", "mcp_url"])
@pytest.mark.parametrize("replay", ["har", "folder"])
def test_a_replay_starts_no_mcp_server_and_opens_no_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           source: str, replay: str) -> None:
    """`run SCENARIO --replay FILE.har` (or a saved folder) with a scenario whose tools come `from: {mcp: CMD}`: the
    command was run (it wrote its file) and an `mcp_url` was connected to, though a replay is offline (README: "so
    are ... `run --replay` (a saved loop)", dry runs that open no socket). It is now refused as a dry run's is,
    naming --live-mcp, before anything starts."""
    marker = tmp_path / "started"
    live = {"mcp": f"touch {marker}", "mcp_url": "http://127.0.0.1:9/mcp"}[source]
    scenario = tmp_path / "live.yaml"
    scenario.write_text(f"tools:\n  - from: {{{source}: \"{live}\"}}\n"
                        "  - {name: get_weather, description: W, parameters: {type: object}}\n"
                        "messages:\n  - {role: user, content: hi}\ntool_choice: required\n", encoding="utf-8")
    tried = refuse_sockets(monkeypatch)
    args = ["--replay", str(HAR), "--trace-id", "1"] if replay == "har" else ["--replay", str(SAVED)]
    done = run_cli(["run", str(scenario), *args, "-p", "openai"], env=user_env())
    line = refused(done)
    assert "--live-mcp" in line and f"from: {source}" in line, line
    assert not marker.exists() and tried == []


# ---- bad input: --replay given what is no file nor folder is said as what it is --------------------------------------

def _loop(path: Path) -> Path:
    path.symlink_to(path.name)  # a link to itself: the OS answers ELOOP
    return path


@pytest.mark.parametrize(("make", "said"), [
    (lambda p: (os.mkfifo(p / "traffic.har"), p / "traffic.har")[1], "is a FIFO"),
    (lambda p: (os.mkfifo(p / "trace.json"), p / "trace.json")[1], "is a FIFO"),
    (lambda p: _loop(p / "looped.har"), "symbolic links"),
    (lambda p: Path(os.devnull), "is a device"),
], ids=["fifo-har", "fifo-trace", "link-loop", "device"])
@pytest.mark.parametrize("with_scenario", [False, True], ids=["recording", "with-scenario"])
def test_a_replay_of_a_fifo_a_device_or_a_link_loop_says_what_it_is(tmp_path: Path, make, said: str,
                                                                       with_scenario: bool) -> None:
    """`run --replay X` where X is a FIFO, /dev/null or a link to itself said "give a SCENARIO file (a --replay
    folder replays a saved run of it)", or with a scenario "--replay X: no such folder" / "no such file or folder":
    none of them true. The recording's reader now says what X is (as `trace X` does), one line, exit 2."""
    target = make(tmp_path)
    scenario = [TRAP] if with_scenario else []
    line = refused(run_cli(["run", *scenario, "--replay", str(target), "-p", "openai"], env=user_env()))
    assert said in line and str(target) in line, line
    assert "SCENARIO" not in line and "no such" not in line, line


# ---- a warning line is drawn as an error line is: no key, no terminal escape ------------------------------------------

def test_a_warning_line_quoting_the_users_words_keeps_keys_and_escapes_out() -> None:
    """`--model` quoted as typed in its warning (a bare model given to several providers, or one for a provider not
    selected): a key pasted there was printed in clear (an error line redacts it), and an escape sequence reached the
    terminal (an error line strips it)."""
    for model in (KEY, f"gemini={KEY}"):
        done = run_cli(["compare", TRAP, "-p", "openai,anthropic", "--model", model],
                       env=user_env(OPENAI_API_KEY=KEY))
        assert "toolchoice: warning: --model" in done.stderr, done.stderr
        assert KEY not in done.stderr and KEY[-12:] not in done.stderr, done.stderr
    shown = run_cli(["compare", TRAP, "-p", "openai,anthropic", "--model", "gpt\x1b[2J\x1b]0;owned\x07"],
                    env=user_env())
    warning = next(line for line in shown.stderr.splitlines() if "warning" in line)
    assert "\x1b" not in warning and "\x07" not in warning and "gpt" in warning, repr(warning)


# ---- Gemini: a refusal at a property whose name holds a line break is warned as the mock answers it ------------------

def test_a_refused_place_under_a_property_named_with_a_line_break_is_warned() -> None:
    """The mock (the API's recorded words) answers 400 'enum: only allowed for STRING type' at a property named
    "a\\nb"; the translator's schema.api_refuses warned of every other property's but said nothing of it (its place
    did not match a pattern whose `.` stops at a line break)."""
    from toolchoice.providers import gemini
    from toolchoice.providers.core.capabilities import CAPABILITIES
    from toolchoice.providers.core.mock.service import MockService
    from toolchoice.providers.core.model import Message, ProviderSettings, RenderOptions, Scenario, Tool

    parameters = {"type": "object", "properties": {"a\nb": {"type": "integer", "enum": ["1"]}}}
    scenario = Scenario(path="t", tools=(Tool("pick", "Picks.", parameters),), messages=(Message("user", "hi"),),
                        providers={"gemini": ProviderSettings(schema_form="parameters")})
    translation = gemini.translate("gemini", scenario, RenderOptions(model="gemini-2.5-flash"), CAPABILITIES["gemini"])
    answered = MockService("gemini").handle("POST", "/v1beta/models/gemini-2.5-flash:generateContent", {},
                                            json.dumps(translation.request.body).encode())
    assert answered.status == 400
    words = json.loads(answered.body)["error"]["message"]
    assert "parameters.properties[a\nb].enum: only allowed for STRING type" in words, words
    warned = [e.message for e in translation.ledger if e.code == "schema.api_refuses"]
    # its place written out as redaction.visible shows a control character, a newline as \u000a: one line in a cell
    assert len(warned) == 1 and "parameters.properties[a\\u000ab].enum" in warned[0], translation.ledger


# ---- Bedrock: compare --send without the key says what an IAM user does, as send does -------------------------------

def test_compare_send_without_bedrocks_key_says_the_iam_words_as_send_does() -> None:
    """`send -p bedrock` without AWS_BEARER_TOKEN_BEDROCK says how an account on IAM credentials makes a short-term
    key (providers/bedrock.py KEY_HELP, trial18j); `compare -p bedrock --send` said only "set
    AWS_BEARER_TOKEN_BEDROCK", and its record's key_help was empty: a skipped job's MissingKey was raised without its
    provider, so no module was asked."""
    from toolchoice.providers import NothingToSend, load_scenario_dict
    from toolchoice.providers.core import jobs
    from toolchoice.providers.bedrock import KEY_HELP

    words = KEY_HELP["AWS_BEARER_TOKEN_BEDROCK"]
    env = {"PATH": os.environ.get("PATH", "")}
    sent = run_cli(["send", TRAP, "-p", "bedrock"], env=env)
    assert words in refused(sent)
    compared = refused(run_cli(["compare", TRAP, "-p", "bedrock", "--send"], env=env))
    assert words in compared and compared.count(words) == 1, compared
    saved = dict(os.environ)
    os.environ.pop("AWS_BEARER_TOKEN_BEDROCK", None)
    try:
        scenario = load_scenario_dict({"tools": [{"name": "get_weather", "parameters": {"type": "object"}}],
                                       "tool_choice": "get_weather", "messages": [{"role": "user", "content": "hi"}]})
        with pytest.raises(NothingToSend) as caught:
            jobs.compare_send(scenario, jobs.translations(scenario, "bedrock"))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    [missing] = caught.value.missing
    assert (missing.provider, missing.key_help) == ("bedrock", words)
    local = run_cli(["compare", TRAP, "-p", "bedrock", "--send", "--base-url", "http://127.0.0.1:9"], env=env)
    assert words not in local.stdout + local.stderr  # to this machine any value does: no IAM words


# ---- --repeat with --replay: no made-up samples ----------------------------------------------------------------------

@pytest.mark.parametrize(("recording", "held"), [
    ([str(HAR), "--trace-id", "1"], 1),
    ([str(ROOT / "configs" / "planner-loop.yaml"), "--replay", str(SAVED) + "-x5"], 5),
], ids=["har", "folder-of-5"])
def test_repeat_past_the_recorded_loops_is_refused_not_made_up(recording: list[str], held: int) -> None:
    """`run --replay X.har --repeat 20` replayed the one recorded loop 20 times and printed "20 of 20 obeyed, 95% CI
    84-100%" as if from 20 independent loops (docs/run.md: "--repeat N runs N independent loops"); the last saved
    loop was replayed again for every repeat past the folder's 5. Now one line says how many loops it holds."""
    args = ["run", *(["--replay", *recording] if recording[0].endswith(".har") else recording), "-p", "openai"]
    line = refused(run_cli([*args, "--repeat", str(held + 1)], env=user_env()))
    assert f"--repeat {held + 1}: give at most {held}" in line and f"holds {held} loop" in line, line
    ran = run_cli([*args, "--repeat", str(held), "-f", "json"], env=user_env())
    assert ran.returncode in (0, 4), ran.stderr
    assert len(json.loads(ran.stdout)["runs"][0]["loops"]) == held


# ---- a number the user typed: no internal error -----------------------------------------------------------------------

@pytest.mark.parametrize("trace_id", ["\u00b2", "9" * 5000], ids=["superscript-two", "5000-digits"])
def test_a_trace_id_that_is_no_number_int_reads_is_one_line_not_an_internal_error(trace_id: str) -> None:
    """`--trace-id ²` (str.isdigit is true of it, int() refuses it) and `--trace-id 999...` of 5,000 digits (past
    Python's 4,300-digit conversion limit) ended in "internal error: ValueError", exit 70. Both are a conversation
    the file does not hold: one line listing those it holds, exit 2. A digit of another script int() reads still
    picks its conversation."""
    line = refused(run_cli(["run", "--replay", str(HAR), "-p", "openai", "--trace-id", trace_id], env=user_env()))
    assert "no conversation" in line and "it holds 1 (2 calls to openai)" in line, line
    arabic_one = run_cli(["run", "--replay", str(HAR), "-p", "openai", "--trace-id", "\u0661", "-f", "json"],
                         env=user_env())
    assert arabic_one.returncode == 0 and len(json.loads(arabic_one.stdout)["runs"][0]["loops"][0]["steps"]) == 2


def test_import_har_given_a_sample_too_long_to_write_raises_its_own_error() -> None:
    """`trace_har.import_har(path, 10**5000)` raised ValueError (the refusal's words wrote the number out, which
    Python refuses past 4,300 digits) where a ToolchoiceError saying the samples the file holds was meant."""
    from toolchoice.providers.core.model import ToolchoiceError
    from toolchoice.providers.core.trace_har import import_har

    with pytest.raises(ToolchoiceError) as caught:
        import_har(str(HAR), 10 ** 5000)
    assert "(a number of about 5001 digits)" in str(caught.value) and "1-6" in str(caught.value)


# ---- `tools --mcp-url URL --timeout S`: the hint names the option the command has -------------------------------------

def test_tools_timeout_hint_names_the_commands_own_option(tmp_path: Path) -> None:
    """`toolchoice tools --mcp-url URL --timeout 0.5` at a server that takes the connection and never answers said
    "raise from: timeout", a scenario's key the command has no place for; it now says --timeout, and a scenario's
    `from:` keeps its own words (its `timeout:` key)."""
    import socket

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel accepts; nobody reads
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/mcp"
        line = refused(run_cli(["tools", "--mcp-url", url, "--timeout", "0.3"], env=user_env()))
        assert "no tool listing within 0.3 s" in line and line.rstrip().endswith("(check the server, or raise "
                                                                                  "--timeout)"), line
        scenario = tmp_path / "slow.yaml"
        scenario.write_text(f"tools:\n  - from: {{mcp_url: \"{url}\", timeout: 0.3}}\n"
                            "messages: [{role: user, content: hi}]\n", encoding="utf-8")
        line = refused(run_cli(["render", str(scenario), "-p", "openai", "--live-mcp"], env=user_env()))
        assert line.rstrip().endswith("(check the server, or raise from: timeout)"), line


# ---- run --replay DIR --save DIR: the recording is kept ---------------------------------------------------------------

def test_saving_a_replay_into_its_own_recording_is_refused_and_the_recording_kept(tmp_path: Path) -> None:
    """`run SCENARIO --replay runs --save runs`: --save clears an earlier run's loops in its folder, so the real
    model's recorded loop (its URL, model, latencies) was replaced by the replay's own requests and replies, and the
    next replay replayed the replay. Now one line says the folder holds the recording, exit 2, the files untouched."""
    import shutil

    runs = tmp_path / "runs"
    shutil.copytree(SAVED, runs)
    before = {p.relative_to(runs): p.read_bytes() for p in runs.rglob("*") if p.is_file()}
    planner = str(ROOT / "configs" / "planner-loop.yaml")
    line = refused(run_cli(["run", planner, "-p", "openai", "--replay", str(runs), "--save", str(runs)],
                           env=user_env()))
    assert f"--save {runs}: it holds the recording being replayed" in line, line
    assert {p.relative_to(runs): p.read_bytes() for p in runs.rglob("*") if p.is_file()} == before
    elsewhere = run_cli(["run", planner, "-p", "openai", "--replay", str(runs), "--save", str(tmp_path / "again")],
                        env=user_env())
    assert elsewhere.returncode in (0, 4), elsewhere.stderr
    assert (tmp_path / "again" / "openai" / "loop-001" / "step-01.reply.json").is_file()


# ---- trace FILE --scenario-out FILE --force: the recording is kept ----------------------------------------------------

@pytest.mark.parametrize("spelled", ["same", "dotted", "link"])
def test_trace_scenario_out_naming_the_recording_itself_is_refused(tmp_path: Path, spelled: str) -> None:
    """`trace traffic.har --sample 1 --scenario-out traffic.har --force` replaced the HAR with the YAML scenario read
    from it (--force is for a file that is there, not for the input): the recording was gone. Now one line says so,
    exit 2, the file as it was, however the path is spelled."""
    import shutil

    har = tmp_path / "traffic.har"
    shutil.copyfile(HAR, har)
    out = {"same": har, "dotted": tmp_path / "." / "traffic.har", "link": tmp_path / "out.yaml"}[spelled]
    if spelled == "link":
        out.symlink_to(har.name)
    line = refused(run_cli(["trace", str(har), "--sample", "1", "--scenario-out", str(out), "--force"],
                           env=user_env()))
    assert "the scenario would replace the recording it is read from" in line, line
    assert har.read_bytes() == HAR.read_bytes()


# ---- --trace-out naming a file the run reads: refused before any work -------------------------------------------------

@pytest.mark.parametrize("command", ["run-har", "run-scenario", "send"])
def test_trace_out_naming_the_runs_own_input_is_refused_and_the_input_kept(tmp_path: Path, command: str) -> None:
    """`run --replay traffic.har --trace-out traffic.har` (or `run scenario.yaml ... --trace-out scenario.yaml`, `send
    scenario.yaml --trace-out scenario.yaml`) wrote the OTLP/JSON trace over the file the run read: the recording or
    the scenario was gone, exit 0. Now one line names it, exit 2, before anything runs or is sent."""
    import shutil

    har, scenario = tmp_path / "traffic.har", tmp_path / "loop.yaml"
    shutil.copyfile(HAR, har)
    shutil.copyfile(ROOT / "configs" / "planner-loop.yaml", scenario)
    read, args = {"run-har": (har, ["run", "--replay", str(har), "--trace-id", "1", "-p", "openai"]),
                  "run-scenario": (scenario, ["run", str(scenario), "--replay", str(SAVED), "-p", "openai"]),
                  "send": (scenario, ["send", str(scenario), "-p", "openai"])}[command]
    before = read.read_bytes()
    line = refused(run_cli([*args, "--trace-out", str(tmp_path / "." / read.name)], env=user_env()))
    assert "--trace-out" in line and "which this run reads" in line, line
    assert read.read_bytes() == before


@pytest.mark.parametrize("command", ["run", "send"])
def test_trace_out_naming_a_file_the_scenarios_from_reads_is_refused_and_the_file_kept(
        tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario's `tools: [{from: tools.json}]` is read by the run too: `--trace-out tools.json` wrote the trace over
    it (found by trial19l, 2026-11-28). Now one line names it, exit 2, the file as it was, nothing sent."""
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}}}}]), encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - from: tools.json\ntool_choice: required\nmessages:\n"
                        "  - {role: user, content: Weather in Paris?}\n", encoding="utf-8")
    before = tools.read_bytes()
    tried = refuse_sockets(monkeypatch)
    args = (["run", str(scenario), "--replay", str(SAVED)] if command == "run"
            else ["send", str(scenario), "--base-url", "http://127.0.0.1:9"])
    line = refused(run_cli([*args, "-p", "openai", "--trace-out", str(tmp_path / "." / "tools.json")],
                           env={**user_env(), "OPENAI_API_KEY": "sk-test-0123456789abcdefghij"}))
    assert "--trace-out" in line and "which this run reads" in line and "tools.json" in line, line
    assert tools.read_bytes() == before and tried == []


def test_trace_out_into_a_missing_folder_names_the_option(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`run ... --trace-out nodir/x.json` said `trace_out: cannot write ...`, a Python caller's argument name: the
    writer's error lost its argument when its hint was changed. The command line names --trace-out."""
    tried = refuse_sockets(monkeypatch)
    line = refused(run_cli(["run", str(ROOT / "configs" / "planner-loop.yaml"), "--replay", str(SAVED), "-p", "openai",
                            "--trace-out", str(tmp_path / "nodir" / "x.json")], env=user_env()))
    # since trial 21b said before the run, as send says it (call_args.trace_file), not after it as "cannot write"
    assert line.startswith("toolchoice: error: --trace-out ") and "there is no folder" in line, line
    assert tried == []
