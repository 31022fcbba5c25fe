"""Adversarial round 21 (trial 21b): inputs aimed at what session 20 added (send --trace-out and
trace_export.SampleTrace, command_shown, the mock's Host and request-line checks, write_atomic to devices and
FIFOs, alias bounds, schema pattern pieces, shell_word's printf form, HAR replay), and the classic leaks retried on
them. The truth is from outside the code: a real mock server on 127.0.0.1 counting the requests it got, the real
CLI entry, curl's own option spelling (``--user=USER:PASSWORD`` is ``-u USER:PASSWORD``), the files on disk.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

from cli import run_cli
from toolchoice.providers.core.mock.server import running_mock

KEY = "sk-proj-AdversarialTwentyOne0123456789abcdefghijklmnopqrstuv"
SCENARIO = ("tools:\n  - name: get_weather\n    parameters: {type: object, properties: {city: {type: string}}}\n"
            "tool_choice: required\nmessages:\n  - {role: user, content: Weather in Paris?}\n")
# what `toolchoice probe --save` wrote against the mock (2026-11-28), cut to one feature: a measured overlay
OVERLAY = {"toolchoice_capabilities": 1, "provider": "openai", "endpoint": "http://127.0.0.1:1/v1/chat/completions",
           "model": "gpt-5.4-mini", "measured_at": "2026-11-28T07:32:13Z", "samples_per_question": 1,
           "features": {"auto": {"result": "honored", "question": "auto",
                                 "evidence": "status 200; calls: get_weather; finish tool_calls"}}}


@pytest.fixture(scope="module")
def mock() -> Iterator[Any]:
    with running_mock("openai") as served:
        yield served


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


def _env(**extra: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/"), "OPENAI_API_KEY": KEY,
            "COLUMNS": "80", **extra}


# ---- run --trace-out: a folder, or a file in no folder, said before the loops are sent ------------------------------
# trial 20m made send refuse these before a request (call_args.sample_trace); run's trace_out was only checked
# against its inputs, so `run s.yaml --trace-out missing/t.json` sent every step of every loop (measured against the
# mock: 2 requests a loop), then said "cannot write". Now both go through call_args.trace_file.

def test_run_s_trace_out_in_no_folder_or_a_folder_is_refused_before_a_request(mock: Any, scenario: Path) -> None:
    before = len(mock.records)
    for out in (scenario.parent / "missing" / "t.json", scenario.parent):
        result = run_cli(["run", str(scenario), "-p", "openai", "--base-url", mock.base_url, "--trace-out", str(out)],
                         env=_env())
        assert result.returncode == 2, result.stderr
        assert result.stderr.startswith("toolchoice: error: --trace-out") and "Traceback" not in result.stderr
        assert len(result.stderr.splitlines()) == 1, result.stderr
    assert len(mock.records) == before  # nothing was sent


def test_jobs_run_s_trace_out_in_no_folder_is_the_argument_s_error_before_a_request(mock: Any, scenario: Path) -> None:
    from toolchoice.providers import RenderOptions, load_scenario
    from toolchoice.providers.core import jobs, loop, runner
    from toolchoice.providers.core.errors import ArgumentError

    before = len(mock.records)
    options = loop.LoopOptions(RenderOptions(base_url=mock.base_url))
    os.environ["OPENAI_API_KEY"] = KEY
    try:
        with pytest.raises(ArgumentError) as caught:
            jobs.run(load_scenario(scenario), ["openai"], options, settings=runner.SendSettings(retries=0),
                     trace_out=str(scenario.parent / "missing" / "t.json"))
    finally:
        del os.environ["OPENAI_API_KEY"]
    assert caught.value.argument == "trace_out"
    assert len(mock.records) == before


# ---- --trace-out naming the --capabilities overlay ------------------------------------------------------------------
# `send s.yaml --capabilities overlay.json --trace-out overlay.json` (and run's) sent, then replaced the overlay a
# probe had measured (requests paid for) with the trace: the user's file gone, said nowhere. The library is handed the
# overlay already read, so the command line, which has its name, refuses it before a request.

@pytest.mark.parametrize("command", ["send", "run"])
def test_a_trace_out_that_is_the_capabilities_overlay_is_refused_and_the_overlay_kept(
        mock: Any, scenario: Path, command: str) -> None:
    overlay = scenario.parent / "overlay.json"
    written = json.dumps(OVERLAY, indent=2) + "\n"
    overlay.write_text(written, encoding="utf-8")
    before = len(mock.records)
    result = run_cli([command, str(scenario), "-p", "openai", "--base-url", mock.base_url, "--capabilities",
                      str(overlay), "--trace-out", str(overlay)], env=_env())
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "--trace-out" in result.stderr and "which this run reads" in result.stderr, result.stderr
    assert overlay.read_text(encoding="utf-8") == written
    assert len(mock.records) == before


def test_the_capabilities_overlay_still_goes_with_another_trace_out(mock: Any, scenario: Path) -> None:
    overlay = scenario.parent / "overlay.json"
    overlay.write_text(json.dumps(OVERLAY), encoding="utf-8")
    out = scenario.parent / "trace.json"
    result = run_cli(["send", str(scenario), "-p", "openai", "--base-url", mock.base_url, "--capabilities",
                      str(overlay), "--trace-out", str(out), "-f", "json"], env=_env())
    assert result.returncode == 0, result.stderr
    assert json.loads(out.read_text())["resourceSpans"] and KEY not in out.read_text()


# ---- SampleTrace given a str ----------------------------------------------------------------------------------------
# jobs.send's trace_out takes "a trace_export.SampleTrace several sends share"; one made as SampleTrace("trace.json")
# (jobs.send's own trace_out takes a str) ended in AttributeError: 'str' object has no attribute 'exists', a
# traceback from call_args.not_an_input, before anything was sent.

def test_a_sample_trace_made_with_a_str_is_written_like_one_made_with_a_path(mock: Any, scenario: Path) -> None:
    from toolchoice.providers import RenderOptions, load_scenario
    from toolchoice.providers.core import jobs, runner
    from toolchoice.providers.core.errors import WrongArgument
    from toolchoice.providers.core.trace_export import SampleTrace

    loaded = load_scenario(scenario)
    [translation] = jobs.translations(loaded, ["openai"], RenderOptions(base_url=mock.base_url))
    out = scenario.parent / "shared.json"
    shared = SampleTrace(str(out))  # type: ignore[arg-type]
    os.environ["OPENAI_API_KEY"] = KEY
    try:
        for _ in range(2):
            assert jobs.send(loaded, translation, settings=runner.SendSettings(retries=0), trace_out=shared).code == 0
        with pytest.raises(WrongArgument, match="trace_out"):
            jobs.send(loaded, translation, trace_out=SampleTrace(3))  # type: ignore[arg-type]
    finally:
        del os.environ["OPENAI_API_KEY"]
    shared.write()
    text = out.read_text(encoding="utf-8")
    spans = json.loads(text)["resourceSpans"][0]["scopeSpans"][0]["spans"]
    assert len(spans) == 2 and KEY not in text


# ---- command_shown: curl's --user=USER:PASSWORD ---------------------------------------------------------------------
# curl's manual: "-u, --user <user:password>"; a long option's value may follow an `=` (as the module reads every other
# option). `-u bob:pw` and `--user bob:pw` hid the password; `--user=bob:pw` showed it.

@pytest.mark.parametrize(("written", "shown"), [
    ("curl --user=bob:hunter2secret https://h.example/mcp", "curl --user=bob:[redacted] https://h.example/mcp"),
    ("srv -u=bob:hunter2secret", "srv -u=bob:[redacted]"),
    ("curl --user bob:hunter2secret", "curl --user bob:[redacted]"),
    ("curl -u bob:hunter2secret", "curl -u bob:[redacted]"),
    ("curl --user=bob https://h.example", "curl --user=bob https://h.example"),  # no password: nothing to hide
])
def test_curl_s_user_option_hides_the_password_in_each_spelling(written: str, shown: str) -> None:
    from toolchoice.providers.core.command_shown import command_secrets, shown_command

    assert shown_command(written) == shown
    assert command_secrets(written) == (["hunter2secret"] if "hunter2secret" in written else [])


def test_a_missing_mcp_command_s_error_line_hides_a_user_option_s_password() -> None:
    result = run_cli(["tools", "--mcp", "toolchoice-no-such-server-21b --user=alice:hunter2secretU --port 8080"])
    assert result.returncode == 2 and "no such command" in result.stderr, result.stderr
    assert "hunter2secretU" not in result.stderr + result.stdout and "--user=alice:[redacted]" in result.stderr


# ---- a trace written to a terminal: what json.dumps leaves raw ------------------------------------------------------
# trial 20m made `--trace-out /dev/stdout` (a device) written through, so the trace lands on the terminal; json.dumps
# (ensure_ascii=False) escapes only C0 controls, so a tool description or a message holding a C1 CSI (U+009B, an
# escape sequence's start for a terminal reading C1), a bidi override (U+202E, which reorders the line shown) or DEL
# reached it raw, where `send -f json` writes each as a JSON escape (cli/output.write_json). The file's data is the
# same either way: json.loads reads the escapes back to the characters.

CONTROLS = "A\x9b31mB\u202eC\x7fD\u2028E"


def _raw_controls(text: str) -> list[str]:
    return [hex(ord(c)) for c in text if 0x7F <= ord(c) <= 0x9F or c in "\u202e\u2028"]


def test_send_s_trace_through_a_pipe_writes_controls_out_as_json_escapes(mock: Any, tmp_path: Path) -> None:
    import threading

    from toolchoice.providers.core.trace_export import write_document

    data = {"resourceSpans": [], "text": CONTROLS, "kept": "é☃😀"}
    out = tmp_path / "trace.json"
    write_document(out, data, {})
    text = out.read_text(encoding="utf-8")
    assert _raw_controls(text) == [] and json.loads(text) == data and "é☃😀" in text
    path = tmp_path / "c.yaml"
    path.write_text(SCENARIO.replace("Weather in Paris?", json.dumps(CONTROLS)).replace(
        "name: get_weather\n", f"name: get_weather\n    description: {json.dumps(CONTROLS)}\n"), encoding="utf-8")
    fifo = tmp_path / "fifo"  # what `--trace-out /dev/stdout` is written through to, as a terminal would be
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run_cli(["send", str(path), "-p", "openai", "--base-url", mock.base_url, "--trace-out", str(fifo),
                      "-f", "json"], env=_env())
    reader.join(10)
    assert result.returncode == 0, result.stderr
    written = got[0].decode("utf-8")
    assert "resourceSpans" in written and "\\u009b31mB\\u202e" in written, written[-500:]
    assert _raw_controls(written) == [] and _raw_controls(result.stdout) == []


# ---- load_scenario_dict: an integer past Python's digit limit --------------------------------------------------------
# A file's reader says "a number of 5000 characters is past what can be read" at its line; load_scenario_dict wrote
# the data out with json.dumps, whose ValueError ("Exceeds the limit (4300 digits) for integer string conversion")
# came out bare: no place, not a ToolchoiceError a caller catches as the others.

def test_a_dict_s_integer_past_the_digit_limit_is_a_wrong_argument_naming_its_place() -> None:
    import sys

    from toolchoice.providers.core.errors import WrongArgument
    from toolchoice.providers.core.scenario_dict import load_scenario_dict

    huge = 10 ** (sys.get_int_max_str_digits() + 10)
    with pytest.raises(WrongArgument) as caught:
        load_scenario_dict({"tools": [{"name": "f", "parameters": {"type": "object", "properties": {
            "n": {"type": "integer", "maximum": huge}}}}], "messages": [{"role": "user", "content": "hi"}]})
    assert "['properties']['n']['maximum']: an integer of more digits" in str(caught.value)
    assert load_scenario_dict({"tools": [{"name": "f", "parameters": {"type": "object", "properties": {
        "n": {"type": "integer", "maximum": 10 ** 300}}}}], "messages": [{"role": "user", "content": "hi"}]}).tools


# ---- an MCP server's last stderr line, cut at 200 characters -------------------------------------------------------
# The line was cut to 200 characters before the secrets were hidden, so a secret the cut fell inside was no longer
# the whole value the redactor looks for: `tools --mcp "server ... --token hunter2secretStraddle"` whose server wrote
# its arguments to stderr and crashed showed `"--token", "hunter2sec`. Now hidden whole, then cut. The server is real
# (tests/mcp_server.py argv --crash: its last stderr line is what it was started with).

def test_a_secret_where_the_server_s_stderr_line_is_cut_is_not_shown_in_part() -> None:
    import shlex
    import sys

    from sdk_types import missing

    if missing("mcp"):
        pytest.skip("the [mcp] extra (in [test]) is not installed")
    secret = "hunter2secretStraddle"
    prefix, between = 'started with {"args": ["--crash", "--pad", "', '", "--token", "'
    pad = "P" * (190 - len(prefix) - len(between))  # the secret starts at character 190 of the line
    server = Path(__file__).resolve().parent / "mcp_server.py"
    command = shlex.join([sys.executable, str(server), "argv", "--crash", "--pad", pad, "--token", secret])
    result = run_cli(["tools", "--mcp", command])
    assert result.returncode == 2 and "the server's last stderr line: started with" in result.stderr, result.stderr
    assert secret[:6] not in result.stderr + result.stdout, result.stderr[-300:]


# ---- --trace-out /dev/stdout when stdout is a file -------------------------------------------------------------------
# trial 20m wrote a trace through /dev/stdout when it reaches a terminal or a pipe (a device or a FIFO), but with
# stdout a file (`send ... --trace-out /dev/stdout > out.txt`, or pytest's capture) the chain /dev/stdout ->
# /proc/self/fd/1 -> out.txt ends in a regular file, so the trace was written beside the link and renamed over it:
# run as root, /dev/stdout itself became a regular file holding the trace (this machine, 2026-11-28 07:36, put back),
# and out.txt never got it. The same chain is built here in the test's own folder (never /dev/stdout): a link to
# /proc/self/fd/N of a file this test opened, as the shell opens out.txt.

def test_a_trace_out_linking_to_an_open_file_s_descriptor_is_written_to_it_and_the_link_stays(
        mock: Any, scenario: Path) -> None:
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("no /proc/self/fd here")
    out = scenario.parent / "out.txt"
    with open(out, "wb") as handle:
        handle.write(b"before\n")
        handle.flush()
        link = scenario.parent / "stdout"
        link.symlink_to(f"/proc/self/fd/{handle.fileno()}")
        result = run_cli(["send", str(scenario), "-p", "openai", "--base-url", mock.base_url, "--trace-out",
                          str(link), "-f", "json"], env=_env())
        assert result.returncode == 0, result.stderr
        assert link.is_symlink() and os.readlink(link) == f"/proc/self/fd/{handle.fileno()}"
    written = out.read_bytes()
    assert written.startswith(b"before\n{\"resourceSpans\"") and KEY.encode() not in written, written[:200]
    assert sorted(p.name for p in scenario.parent.iterdir()) == ["out.txt", "s.yaml", "stdout"]  # nothing beside it


# ---- an MCP URL's header value outside ASCII ------------------------------------------------------------------------
# `send` says "$OPENAI_API_KEY holds a non-ASCII character (character 4 of 24)" and never what it is; `tools --mcp-url
# URL -H 'X-Token: ...'` (and a scenario's from: headers:) said the SDK's httpx's own words, "UnicodeEncodeError:
# 'ascii' codec can't encode character '\xfc' in position 0", a character of the secret and no hint. The server here is
# real (the mock: an HTTP server that would answer); nothing reaches it.

@pytest.mark.parametrize("header, env", [("X-Token: ünïcode-secret", {}),
                                         ("Authorization: Bearer $T21_TOKEN", {"T21_TOKEN": "sk-ünïcode-secret"})])
def test_an_mcp_header_value_outside_ascii_is_one_line_that_shows_none_of_it(
        mock: Any, header: str, env: dict[str, str]) -> None:
    from sdk_types import missing

    if missing("mcp"):
        pytest.skip("the [mcp] extra (in [test]) is not installed")
    url = mock.base_url.rsplit("/v1", 1)[0] + "/mcp"
    before = len(mock.records)
    result = run_cli(["tools", "--mcp-url", url, "-H", header, "--timeout", "5"], env=_env(**env))
    assert result.returncode == 2, result.stderr
    line = result.stderr
    assert "non-ASCII character (character " in line and "Error" not in line and "ü" not in line, line
    assert "\\xfc" not in line and len(line.splitlines()) == 1 and len(mock.records) == before


# ---- `-` as a file to write: stdout --------------------------------------------------------------------------------
# `send --trace-out -` (and run's, and `probe --save -`) wrote a file named `-` in the working folder, said nowhere;
# probe then said "capability overlay written to stdin: give --capabilities stdin". `init -` and `trace --scenario-out -`
# write stdout (trial 6-era fix for the latter: "it wrote a file named -"); so do these now, through the process's
# stdout (fd 1: here the file this test opened in its place, as a shell's `> out.txt`).

def _with_stdout_a_file(out: Path, args: list[str]) -> Any:
    """``run_cli(args)`` with the process's fd 1 the file ``out`` (as a shell's ``> out``), put back after."""
    saved = os.dup(1)
    try:
        with open(out, "wb") as handle:
            os.dup2(handle.fileno(), 1)
            return run_cli(args, env=_env())
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def test_a_trace_out_of_dash_is_written_to_stdout_not_to_a_file_named_dash(
        mock: Any, scenario: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(scenario.parent)
    out = scenario.parent / "out.txt"
    result = _with_stdout_a_file(out, ["send", str(scenario), "-p", "openai", "--base-url", mock.base_url,
                                       "--trace-out", "-"])
    assert result.returncode == 0, result.stderr
    assert not (scenario.parent / "-").exists()
    assert json.loads(out.read_text(encoding="utf-8"))["resourceSpans"]


def test_probe_s_save_of_dash_writes_stdout_and_says_so(mock: Any, scenario: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(scenario.parent)
    out = scenario.parent / "out.txt"
    result = _with_stdout_a_file(out, ["probe", str(scenario), "-p", "openai", "--base-url", mock.base_url,
                                       "--repeat", "1", "--save", "-"])
    assert result.returncode == 0, result.stderr
    assert not (scenario.parent / "-").exists()
    assert json.loads(out.read_text(encoding="utf-8"))["toolchoice_capabilities"] == 1
    said = " ".join(result.stdout.split())
    assert "capability overlay written to stdout" in said and "stdin" not in said, said[-300:]


# ---- an MCP command line from a scenario file: NAME=NAME=... and one long word --------------------------------------
# A scenario's `from: {mcp: ...}` is as long as the file may be (file_bytes, 8 MiB), where a command-line argument is at
# most 128 KiB (Linux's MAX_ARG_STRLEN). command_shown read NAME=value by recursing into the value, so
# `srv a=a=a=...` (3,000 of them) was "internal error: RecursionError", no file:line; and the line was split with shlex,
# whose split of one long word takes time growing as its square (a 300,000-character word: ~5 s of CPU, shown three
# times), and then said whole on the error line. Now a name at a time, and a line past 128 KiB refused unsplit.

def _mcp_scenario(tmp_path: Path, command: str) -> Path:
    path = tmp_path / "mcp.yaml"
    path.write_text("tools:\n  - from: {mcp: " + json.dumps(command) + "}\ntool_choice: auto\nmessages:\n"
                    "  - {role: user, content: hi}\n", encoding="utf-8")
    return path


def test_a_chain_of_assignments_is_read_a_name_at_a_time() -> None:
    from toolchoice.providers.core.command_shown import command_secrets, shown_command

    assert shown_command("srv a=b=TOKEN=xyz123 c=PASSWORD=pw9999") == "srv a=b=TOKEN=[redacted] c=PASSWORD=[redacted]"
    chain = "srv " + "a=" * 3000 + "API_KEY=hunter2secret"
    assert shown_command(chain) == chain.replace("hunter2secret", "[redacted]")
    assert command_secrets(chain) == ["hunter2secret"]


@pytest.mark.parametrize("live", [True, False])
@pytest.mark.parametrize("command", ["srv " + "a=" * 3000 + "v", "srv " + "a" * 140_000])
def test_an_mcp_command_line_from_a_file_is_one_line_naming_the_file(
        tmp_path: Path, command: str, live: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    import shlex

    from sdk_types import missing

    if live and missing("mcp"):
        pytest.skip("the [mcp] extra (in [test]) is not installed")
    split, longest = shlex.split, [0]

    def counted(text: str, *args: Any, **kwargs: Any) -> list[str]:
        longest[0] = max(longest[0], len(text))
        return split(text, *args, **kwargs)

    monkeypatch.setattr(shlex, "split", counted)
    path = _mcp_scenario(tmp_path, command)
    result = run_cli(["render", str(path), "-p", "openai", *(["--live-mcp"] if live else [])], env=_env())
    assert result.returncode == 2 and result.stderr.startswith(f"toolchoice: error: {path}:2"), result.stderr[:300]
    assert "internal error" not in result.stderr and len(result.stderr.splitlines()) == 1
    if len(command) > 131_072:  # refused where it is read, never split (nor shown)
        assert "toolchoice takes at most 131,072" in result.stderr and len(result.stderr) < 400
        assert longest[0] <= 131_072
