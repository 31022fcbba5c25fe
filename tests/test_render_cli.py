"""`toolchoice render` and `compare` (dry run) as a user runs them: the installed command, real
processes, the JSON contract, exit codes, paste-safe curl, no socket, no httpx, no key in output."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from servers import CLI

from toolchoice.providers.core.capabilities import CAPABILITIES, PROVIDER_IDS
from toolchoice.providers.core.model import wire_json

from cli import run_cli
from runner_pool import BLOCK_SOCKETS, RunnerPool

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))
CANARY = "sk-CANARY-4f1e9c2d-do-not-print"
KEY_VARS = sorted({env for cap in CAPABILITIES.values() for env in cap.key_env})


def run(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(args, env=env, input=stdin)


def canary_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({name: CANARY for name in KEY_VARS})
    return env


def test_json_for_one_provider_is_an_object_with_the_documented_keys():
    result = run("render", str(ROOT / "configs/planner-trap.yaml"), "--provider", "openai", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"provider", "requested_tool_choice", "effective_tool_choice", "request", "ledger",
                         "offered_tools", "sent_choice", "sent_parallel"}
    assert data["sent_choice"] is None and data["sent_parallel"] is None  # no extra: the scenario's holds
    assert data["requested_tool_choice"] == "required"
    assert data["effective_tool_choice"] == "required"
    assert data["request"]["url"] == "https://api.openai.com/v1/chat/completions"
    assert data["request"]["headers"]["Authorization"] == "Bearer $OPENAI_API_KEY"
    assert data["request"]["body"]["tool_choice"] == "required"
    codes = [e["code"] for e in data["ledger"]]
    assert "pitfall.required_trap" in codes


def test_json_for_several_providers_is_a_list_in_the_order_asked():
    result = run("render", str(ROOT / "configs/weather.yaml"), "-p", "anthropic", "-p", "openai,groq", "-f", "json")
    assert result.returncode == 0, result.stderr
    assert [t["provider"] for t in json.loads(result.stdout)] == ["anthropic", "openai", "groq"]


def test_tool_choice_override_takes_every_spelling():
    path = str(ROOT / "configs/planner-trap.yaml")
    for spelling, wire in [("plan_tool_call", {"type": "function", "function": {"name": "plan_tool_call"}}),
                           ("{tool: plan_tool_call}", {"type": "function", "function": {"name": "plan_tool_call"}}),
                           ("any", "required"), ("true", "required"), ("none", "none"), ("auto", "auto")]:
        result = run("render", path, "-p", "openai", "-f", "json", "--tool-choice", spelling)
        assert result.returncode == 0, (spelling, result.stderr)
        assert json.loads(result.stdout)["effective_tool_choice"] == wire, spelling
    result = run("render", path, "-p", "openai", "-f", "json", "--tool-choice", "false")
    assert json.loads(result.stdout)["effective_tool_choice"] is None


def test_naming_the_tool_clears_the_required_trap_warning():
    path = str(ROOT / "configs/planner-trap.yaml")
    forced = json.loads(run("render", path, "-p", "openai", "-f", "json").stdout)
    named = json.loads(run("render", path, "-p", "openai", "-f", "json", "--tool-choice", "plan_tool_call").stdout)
    assert "pitfall.required_trap" in [e["code"] for e in forced["ledger"]]
    assert "pitfall.required_trap" not in [e["code"] for e in named["ledger"]]


def test_refused_translation_exits_3_with_request_null():
    result = run("render", str(ROOT / "configs/strict-schema.yaml"), "-p", "openai", "-f", "json")
    assert result.returncode == 3
    data = json.loads(result.stdout)
    assert data["request"] is None
    assert any(e["severity"] == "error" and e["code"] == "schema.strict_invalid" for e in data["ledger"])


def test_strict_flag_turns_warnings_into_a_refusal():
    path = str(ROOT / "configs/planner-trap.yaml")
    assert run("render", path, "-p", "openai", "-f", "json").returncode == 0
    result = run("render", path, "-p", "openai", "-f", "json", "--strict")
    assert result.returncode == 3
    assert json.loads(result.stdout)["ledger"][-1]["code"] == "strict.refused"


def test_no_emulate_refuses_what_the_provider_cannot_do_natively():
    path = str(ROOT / "configs/allowed-subset.yaml")
    assert run("render", path, "-p", "mistral", "-f", "json").returncode == 0
    result = run("render", path, "-p", "mistral", "-f", "json", "--no-emulate")
    assert result.returncode == 3
    assert "tool_choice.unsupported" in [e["code"] for e in json.loads(result.stdout)["ledger"]]


def test_bad_input_is_one_line_exit_2_without_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("tools:\n  - name: a\n    parameters: {type: object}\ntool_chioce: a\n")
    result = run("render", str(bad), "-f", "json")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert lines[0].startswith(f"toolchoice: error: {bad}:4:1: unknown key 'tool_chioce'")
    assert "did you mean tool_choice?" in lines[0]


def test_curl_is_valid_shell_that_sends_the_exact_body_with_keys_from_the_environment(tmp_path):
    result = run("render", str(ROOT / "configs/planner-trap.yaml"), "-p", "openai,anthropic", "-f", "curl")
    assert result.returncode == 0, result.stderr
    script = result.stdout
    assert "$OPENAI_API_KEY" in script and CANARY not in script
    # Run the pasted commands with a stand-in curl that prints what it would send.
    fake = tmp_path / "curl"
    fake.write_text('#!/bin/sh\nfor a in "$@"; do printf "ARG:%s\\n" "$a"; done\nprintf "BODY:"; cat\nprintf "\\n"\n')
    fake.chmod(0o755)
    env = canary_env()
    env["PATH"] = f"{tmp_path}:{env['PATH']}"
    shell = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=30)
    assert shell.returncode == 0, shell.stderr
    assert f"ARG:Authorization: Bearer {CANARY}" in shell.stdout
    rendered = json.loads(run("render", str(ROOT / "configs/planner-trap.yaml"), "-p", "openai", "-f", "json").stdout)
    bodies = [line[len("BODY:"):] for line in shell.stdout.splitlines() if line.startswith("BODY:")]
    assert bodies[0] == wire_json(rendered["request"]["body"])


def test_curl_escapes_shell_metacharacters_in_headers(tmp_path):
    scenario = tmp_path / "s.yaml"
    note = 'a "quoted" $home `id` \\ value'
    scenario.write_text(json.dumps({
        "tools": [{"name": "t", "parameters": {"type": "object"}}],
        "messages": [{"role": "user", "content": "it's $HOME `id`"}],
        "providers": {"openai": {"headers": {"X-Note": note, "X-Key": "$MY_PROXY_KEY"}}},
    }))
    result = run("render", str(scenario), "-p", "openai", "-f", "curl", "--allow-env", "MY_PROXY_KEY")
    fake = tmp_path / "curl"
    fake.write_text('#!/bin/sh\nfor a in "$@"; do printf "ARG:%s\\n" "$a"; done\nprintf "BODY:"; cat\nprintf "\\n"\n')
    fake.chmod(0o755)
    env = dict(os.environ, PATH=f"{tmp_path}:{os.environ['PATH']}", MY_PROXY_KEY=CANARY)
    shell = subprocess.run(["bash", "-c", result.stdout], capture_output=True, text=True, env=env, timeout=30)
    assert f"ARG:X-Note: {note}" in shell.stdout
    # An upper-case $NAME in a header value is an environment reference: the shell (and send) expand it,
    # render never prints its value.
    assert "$MY_PROXY_KEY" in result.stdout and f"ARG:X-Key: {CANARY}" in shell.stdout
    body = json.loads(next(line[5:] for line in shell.stdout.splitlines() if line.startswith("BODY:")))
    assert body["messages"][0]["content"] == "it's $HOME `id`"


@pytest.fixture(scope="module")
def dry_runs() -> list[dict[str, object]]:
    """render and compare (dry) of every shipped config, all providers, JSON, in that order, in one real
    process with sockets blocked (each attempt recorded) that says after each run whether httpx has been
    imported (by that run or an earlier one: the first run that shows it is the culprit)."""
    jobs = [["render", str(config), "--format", "json", "--provider", "all"] for config in CONFIGS]
    jobs += [["compare", str(config), "--format", "json", "--providers", "all"] for config in CONFIGS]
    runner = RunnerPool(1, os.environ, prelude=BLOCK_SOCKETS)
    try:
        results, own_output = runner.run({str(i): {"argv": argv} for i, argv in enumerate(jobs)})
    finally:
        runner_output = runner.close()
    assert "Traceback" not in own_output + runner_output, own_output + runner_output
    return [{"argv": argv, **results[str(i)]} for i, argv in enumerate(jobs)]


@pytest.mark.parametrize("command", ["render", "compare"])
def test_dry_runs_open_no_socket_and_never_import_httpx(command, dry_runs):
    runs = [run for run in dry_runs if run["argv"][0] == command]
    assert len(runs) == len(CONFIGS)
    for run in runs:
        config = run["argv"][1]
        assert run["code"] in (0, 3), (config, run["stderr"])
        assert run["sockets"] == [], (config, run["sockets"])
        assert "socket" not in run["stderr"] and "Traceback" not in run["stderr"], run["stderr"]
        assert not run["httpx"], f"{command} {config} imported httpx"


@pytest.mark.parametrize("fmt", ["json", "curl", "pretty"])
def test_no_key_value_appears_in_any_render_output(fmt):
    env = canary_env()
    for config in CONFIGS:
        result = run("render", str(config), "--provider", "all", "--format", fmt, env=env)
        assert result.returncode in (0, 3), result.stderr
        assert CANARY not in result.stdout and CANARY not in result.stderr


def test_every_shipped_scenario_renders_for_every_provider():
    """All 18 providers translate every shipped scenario; the only refusals are the documented ones."""
    expected_refusals = {
        ("strict-schema.yaml", "openai"), ("strict-schema.yaml", "azure"),
        ("strict-schema.yaml", "openai-responses"),
        ("think-forced.yaml", "anthropic"),
    }
    refused = set()
    for config in CONFIGS:
        result = run("render", str(config), "--provider", "all", "--format", "json")
        assert result.returncode in (0, 3), (config.name, result.stderr)
        data = json.loads(result.stdout)
        assert [t["provider"] for t in data] == list(PROVIDER_IDS)
        for t in data:
            assert t["ledger"], (config.name, t["provider"])
            if t["request"] is None:
                refused.add((config.name, t["provider"]))
            else:
                assert t["request"]["method"] == "POST" and t["request"]["url"].startswith("http")
    assert refused == expected_refusals


def test_pretty_output_shows_the_ledger_and_the_refusal():
    result = run("render", str(ROOT / "configs/think-forced.yaml"), "-p", "anthropic")
    assert result.returncode == 3
    assert "REFUSED" in result.stdout and "thinking.forced_choice" in result.stdout


def test_providers_matrix_comes_from_the_capability_table():
    data = json.loads(run("providers", "--format", "json").stdout)
    assert [row["provider"] for row in data] == list(PROVIDER_IDS)
    by_id = {row["provider"]: row for row in data}
    assert by_id["anthropic"]["required"] == {"level": "renamed", "wire": '{"type":"any"}', "note": ""}
    assert by_id["ollama"]["required"]["level"] == "unsupported"
    assert all(row["sources"] for row in data)
    # each row lists its module's own ledger codes with their meaning (the module's LEDGER_CODES)
    assert by_id["mistral"]["module"] == "openai_chat" and "history.ids_rewritten" in by_id["mistral"]["ledger_codes"]
    assert "thinking.forced_choice" in by_id["bedrock"]["ledger_codes"]
    assert all(isinstance(m, str) and m for row in data for m in row["ledger_codes"].values())
    markdown = run("providers", "--format", "markdown").stdout
    page = (ROOT / "docs" / "providers.md").read_text()
    assert markdown.strip() in page, ("docs/providers.md's support matrix is stale: "
                                      "TOOLCHOICE_UPDATE_README=1 python -m pytest tests/test_readme.py")


@pytest.mark.parametrize("args, words, process", [
    (["render", "configs/weather.yaml", "--format", "xml"], "'xml' is not one of", False),
    (["rendr"], "No such command 'rendr'", True),  # the installed entry, as the shell sees its exit code
    (["render"], "Missing argument 'scenario'", False),
    (["compare", "configs/weather.yaml", "--bogus"], "No such option: --bogus", False),
])
def test_usage_errors_are_one_line_exit_2(args, words, process):
    if process:
        result = subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=ROOT, timeout=60)
    else:
        result = run_cli(args, cwd=ROOT)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("toolchoice: error: ")
    assert words in result.stderr and "--help" in result.stderr


NON_ASCII = """tools:
  - name: get_weather
    description: "Weather in °C → for a city 東京 😀"
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
tool_choice: auto
messages:
  - {role: user, content: "Weather in Tōkyō? 😀"}
"""


@pytest.mark.parametrize("encoding", ["ascii", "cp1252", "latin-1"])
def test_a_stdout_without_every_character_shows_json_escapes_not_an_internal_error(tmp_path, encoding):
    """A Windows console redirected to a file writes cp1252, PYTHONIOENCODING=ascii ASCII: a character the
    encoding lacks was a UnicodeEncodeError, "internal error" and exit 70 with no output. It is now a JSON escape:
    the JSON document reads back the same, the pretty view shows it visibly."""
    path = tmp_path / "s.yaml"
    path.write_text(NON_ASCII, encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    as_json = subprocess.run([*CLI, "render", str(path), "-p", "openai", "-f", "json"], capture_output=True, env=env,
                             timeout=60)
    assert as_json.returncode == 0, as_json.stderr
    body = json.loads(as_json.stdout.decode(encoding))["request"]["body"]
    assert body["tools"][0]["function"]["description"] == "Weather in °C → for a city 東京 😀"
    assert body["messages"][0]["content"] == "Weather in Tōkyō? 😀"
    pretty = subprocess.run([*CLI, "render", str(path), "-p", "openai"], capture_output=True, env=env, timeout=60)
    assert pretty.returncode == 0 and b"internal error" not in pretty.stderr, pretty.stderr
    assert b"\\u2192" in pretty.stdout and b"\\ud83d\\ude00" in pretty.stdout


def test_an_error_handler_the_user_chose_for_stdout_stays() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii:replace"}
    result = subprocess.run([*CLI, "render", "-", "-p", "openai", "-f", "json"], input=NON_ASCII.encode("utf-8"),
                            capture_output=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["request"]["body"]["messages"][0]["content"] == "Weather in T?ky?? ?"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("fmt", ["json", "pretty"])
@pytest.mark.parametrize("unbuffered", ["1", ""])
def test_stdout_on_a_full_disk_is_one_line_saying_so_not_an_internal_error(fmt, unbuffered):
    """/dev/full fails every write with ENOSPC: that is the machine's doing, not a bug to report. One line
    that says what failed and what to do; exit 70 as before."""
    env = {**os.environ, "PYTHONUNBUFFERED": unbuffered}
    with open("/dev/full", "wb") as full:
        result = subprocess.run([*CLI, "render", "configs/weather.yaml", "-p", "all", "-f", fmt], stdout=full,
                                stderr=subprocess.PIPE, text=True, env=env, timeout=60, cwd=ROOT)
    assert result.returncode == 70, result.stderr
    assert result.stderr.splitlines() == ["toolchoice: error: cannot write the output: No space left on device "
                                          "(free some space, or send the output elsewhere)"], result.stderr


def test_stdout_past_the_file_size_limit_is_one_line_saying_so(tmp_path):
    """RLIMIT_FSIZE (ulimit -f): a write past it fails with EFBIG (Python ignores SIGXFSZ)."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))

    with open(tmp_path / "out.json", "wb") as out:
        result = subprocess.run([*CLI, "render", "configs/weather.yaml", "-p", "all", "-f", "json"], stdout=out,
                                stderr=subprocess.PIPE, text=True, timeout=60, cwd=ROOT, preexec_fn=limit)
    assert result.returncode == 70, result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("toolchoice: error: cannot write the output: File too large (") and "ulimit -f" in line
    assert (tmp_path / "out.json").stat().st_size <= 2048


def _big_scenario(tmp_path: Path) -> Path:
    """A scenario whose `render -p all -f json` is about 350 kB: several times what a pipe holds (64 KiB)."""
    tools = "\n".join(f"  - name: tool_{i}\n    description: \"{'A long description. ' * 20}\"\n"
                      f"    parameters: {{type: object, properties: {{city: {{type: string}}}}}}" for i in range(20))
    path = tmp_path / "big.yaml"
    path.write_text(f"tools:\n{tools}\ntool_choice: required\nmessages:\n  - {{role: user, content: hi}}\n")
    return path


@pytest.mark.skipif(os.name != "posix", reason="O_NONBLOCK pipes")
@pytest.mark.parametrize("unbuffered", ["1", ""])
def test_a_non_blocking_stdout_pipe_that_fills_up_gets_every_byte(tmp_path, unbuffered):
    """O_NONBLOCK belongs to the pipe, shared by all its writers (Node.js-based runners leave theirs so): once
    the pipe is full a write is refused with EAGAIN although the reader is only slower. The command waits as
    a blocking write would: the whole document arrives and the exit code is 0 (it was "internal error:
    BlockingIOError", exit 70, or 120 when buffered, with the first 64 KiB)."""
    import time

    path = _big_scenario(tmp_path)
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    env = {**os.environ, "PYTHONUNBUFFERED": unbuffered}
    process = subprocess.Popen([*CLI, "render", str(path), "-p", "all", "-f", "json"], stdout=write_end,
                               stderr=subprocess.PIPE, env=env)
    os.close(write_end)
    time.sleep(0.5)  # the reader is slow: the pipe fills up first
    with os.fdopen(read_end, "rb") as reader:
        data = reader.read()
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert err == b""
    document = json.loads(data)
    assert len(document) == len(PROVIDER_IDS) and len(data) > 4 * 65536


def test_on_a_colour_terminal_a_small_body_is_coloured_and_a_large_one_plain(tmp_path):
    """rich colours a JSON body with regexes and a span per token (~0.3 s for 250 kB): a body past
    output.HIGHLIGHT_MAX (64 kB) is shown plain on a terminal too, the same text json.dumps lays out."""
    import re

    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(FORCE_COLOR="1", TERM="xterm-256color", COLUMNS="120", OPENAI_API_KEY="sk-test")
    # 120 tools: OpenAI refuses more than 128 (fact openai.tool_limit)
    tools = "\n".join(f"  - name: tool_{i}\n    description: \"{'Looks things up. ' * 40}\"\n"
                      f"    parameters: {{type: object, properties: {{q: {{type: string}}}}}}" for i in range(120))
    big = tmp_path / "big.yaml"
    big.write_text(f"tools:\n{tools}\ntool_choice: required\nmessages:\n  - {{role: user, content: hi}}\n")
    for path, coloured in ((ROOT / "configs" / "weather.yaml", True), (big, False)):
        as_json = run_cli(["render", str(path), "-p", "openai", "-f", "json"], env=env)
        # byte for byte the standard library's layout, whichever encoder wrote it (a large one: orjson)
        assert as_json.stdout == json.dumps(json.loads(as_json.stdout), indent=2, ensure_ascii=False) + "\n"
        body = json.loads(as_json.stdout)["request"]["body"]
        laid_out = json.dumps(body, indent=2, ensure_ascii=False)
        assert (len(laid_out) > 64 * 1024) != coloured
        pretty = run_cli(["render", str(path), "-p", "openai"], env=env).stdout
        assert "\x1b[" in pretty  # a terminal's colours: the heading at least
        assert (laid_out in pretty) != coloured  # coloured: escapes between the tokens
        assert laid_out in re.sub(r"\x1b\[[0-9;]*m", "", pretty)


def test_a_plain_body_writes_out_controls_and_never_a_key(tmp_path):
    """Where colours do not show, a body goes to the output as one piece (output._Unstyled), not through a
    rich Text: it must still be redacted and have its controls written out as every text is."""
    key = "sk-test-" + "k" * 40
    path = tmp_path / "s.yaml"
    path.write_text('tools:\n  - name: f\n    description: "C1 \\x9b31m, U+2028 \\u2028, BEL \\a, the key '
                    + key + '"\n    parameters: {type: object}\nmessages:\n  - {role: user, content: hi}\n',
                    encoding="utf-8")
    result = run_cli(["render", str(path), "-p", "openai,anthropic"], env={**os.environ, "OPENAI_API_KEY": key,
                                                                           "COLUMNS": "80"})
    assert result.returncode == 0, result.stderr
    assert key not in result.stdout and "$OPENAI_API_KEY" in result.stdout
    assert not any(ch in result.stdout for ch in "\x9b\u2028\x07")
    assert '"description": "C1 \\u009b31m, U+2028 \\u2028, BEL \\u0007, the key $OPENAI_API_KEY"' in result.stdout


@pytest.mark.parametrize("args", [["--help"], ["render", "--help"], []])
def test_help_into_a_pipe_its_reader_closed_ends_quietly_with_0(args):
    """`toolchoice --help | head -3`: the reader took what it wanted and left. Every command ends so (exit 0,
    nothing on stderr); the help, printed by typer's own rich console, ended with rich's exit 1."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # gone before the help is written: the first write meets EPIPE
    result = subprocess.run([*CLI, *args], stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=60,
                            env={**os.environ, "COLUMNS": "80"})
    os.close(write_end)
    assert (result.returncode, result.stderr) == (0, "")
