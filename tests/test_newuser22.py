"""Trial 22c, a new user's first hour (README first, no key, the mock as the provider): what it found, held.

Each test runs the real command-line entry (tests/cli.py) and holds what it says to truth from outside the code
that says it: the files on disk, a real mock server on 127.0.0.1, a real MCP server process, a closed port."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from cli import refused, refused_saying, run_cli, user_env

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ["render", "send", "run", "parse", "compare", "probe", "providers", "tools", "trace", "schema", "mock",
            "proxy", "doctor", "init"]


# ---- 1. no command's --help showed an example ---------------------------------------------------------------

def _examples(command: str) -> list[str]:
    shown = run_cli([command, "--help"], env=user_env(columns=200))
    assert shown.returncode == 0, shown.stderr
    tail = shown.stdout.partition("Examples:")[2]
    examples: list[str] = []
    for line in tail.splitlines():
        if examples and examples[-1].endswith(" \\"):  # a shell continuation: the command goes on (help_examples)
            examples[-1] = examples[-1][:-1] + line.strip()
        elif "toolchoice " in line or line.strip().startswith("export "):
            examples.append(line.strip())
    return examples


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_s_help_ends_with_an_example_of_itself(command: str) -> None:
    examples = _examples(command)
    assert examples, f"toolchoice {command} --help shows no example"
    assert any(re.search(rf"toolchoice {command}\b", line) for line in examples), examples


def test_the_keyless_examples_run_as_written_on_the_file_init_writes(tmp_path: Path) -> None:
    """The examples that need no key and no server, typed in a folder holding only what `init` wrote."""
    assert run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path).returncode == 0
    ran = 0
    for command in ("render", "compare", "run", "providers", "schema", "doctor", "init"):
        for line in _examples(command):
            words = shlex.split(line.partition(">")[0])
            if words[0] != "toolchoice" or "URL" in words or "--replay" in words:
                continue
            where = tmp_path / command if command == "init" else tmp_path  # init's own file would exist
            where.mkdir(exist_ok=True)
            done = run_cli(words[1:], env=user_env(), cwd=where)
            assert done.returncode == 0, (line, done.stderr)
            ran += 1
    assert ran >= 12


def test_the_mock_examples_of_send_and_run_then_replay_run_as_written(tmp_path: Path) -> None:
    from toolchoice.providers.core.mock.server import running_mock

    assert run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path).returncode == 0
    ran = 0
    with running_mock("openai") as mock:
        for command in ("send", "run"):
            exported: dict[str, str] = {}  # each command's `export NAME=VALUE` lines, for the lines after them
            for line in _examples(command):
                words = shlex.split(line)
                if words[0] == "export":
                    exported.update(word.split("=", 1) for word in words[1:])
                    continue
                if "URL" not in words and "--replay" not in words:
                    continue
                words = [mock.base_url if w == "URL" else w for w in words]
                done = run_cli([*words[1:], "--retries", "0"], env=user_env(**exported), cwd=tmp_path)
                assert done.returncode == 0, (line, done.stderr)
                ran += 1
    assert ran == 3
    assert (tmp_path / "runs" / "openai" / "loop-001" / "step-01.response.json").is_file()


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("command", COMMANDS)
def test_each_example_command_is_one_line_at_80_and_60_columns(command: str, columns: int) -> None:
    """A command rich wraps onto two lines is pasted in two pieces, and the shell runs the first alone (`run`'s
    mock example, 87 characters with its key, did at 80 columns; at 60 its 65-character line and compare's 75 did):
    each line of an example, its shell continuation's too, is a line of the help as wide as the terminal."""
    help_text = run_cli([command, "--help"], env=user_env(columns=columns)).stdout
    shown = [line.strip(" │") for line in help_text.splitlines()]
    wide = [part for line in _examples(command) if line.startswith(("toolchoice ", "export "))
            for part in _continued(command, line) if part not in shown]
    assert not wide, wide


def _continued(command: str, example: str) -> list[str]:
    """``example``'s lines as the help writes them at any width (a continuation's ``\\`` ends all but the last)."""
    shown = run_cli([command, "--help"], env=user_env(columns=400)).stdout.splitlines()
    lines = [line.strip() for line in shown]
    for i, line in enumerate(lines):
        joined, j = line, i
        while joined.endswith(" \\") and j + 1 < len(lines):
            j += 1
            joined = joined[:-1] + lines[j]
        if joined == example:
            return lines[i:j + 1]
    return [example]


# ---- 2. a command run without its file said only "Missing argument 'response'" ------------------------------

BODY = ROOT / "tests" / "data" / "responses" / "openai" / "openai-chat-parallel.json"


@pytest.mark.parametrize("command", ["render", "compare", "send"])
def test_a_missing_scenario_says_what_it_is_and_how_to_make_one(command: str, tmp_path: Path) -> None:
    line = refused_saying(run_cli([command, "-p", "openai"], env=user_env(), cwd=tmp_path), "scenario file")
    made = re.search(r"(toolchoice init (\S+))", line)
    assert made, line
    assert run_cli(shlex.split(made.group(1))[1:], env=user_env(), cwd=tmp_path).returncode == 0
    assert run_cli(["render", made.group(2), "-p", "openai"], env=user_env(), cwd=tmp_path).returncode == 0


def test_parse_without_its_reply_says_what_to_give_and_stdin_works() -> None:
    line = refused_saying(run_cli(["parse", "-p", "openai"], env=user_env()), "saved reply body", ".response.json")
    assert "- to read it from stdin" in line, line
    done = run_cli(["parse", "-", "-p", "openai"], env=user_env(), input=BODY.read_text())
    assert done.returncode == 0 and "tool calls" in done.stdout, done.stderr


def test_trace_without_its_file_names_the_kinds_it_reads() -> None:
    line = refused_saying(run_cli(["trace"], env=user_env()), "OTLP/JSON", "HAR file", "--save")
    done = run_cli(["trace", str(ROOT / "tests" / "data" / "har" / "sdk-session.har")], env=user_env())
    assert done.returncode == 0, done.stderr


# ---- 3. parse REPLY -p ID SCENARIO: "Got unexpected extra argument(s)" -------------------------------------

def test_a_scenario_given_to_parse_as_a_second_argument_is_shown_its_option(tmp_path: Path) -> None:
    assert run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path).returncode == 0
    line = refused(run_cli(["parse", str(BODY), "-p", "openai", "scenario.yaml"], env=user_env(), cwd=tmp_path))
    given = re.search(r"goes with (-\w+)", line)
    assert given, line
    done = run_cli(["parse", str(BODY), "-p", "openai", given.group(1), "scenario.yaml"], env=user_env(), cwd=tmp_path)
    assert "verdict" in done.stdout and "give --scenario" not in done.stdout, done.stdout + done.stderr


# ---- 4. -f md: "'md' is not one of 'pretty', 'json', 'markdown'" without the did-you-mean -------------------

@pytest.mark.parametrize("words", [["compare", "configs/weather.yaml", "-p", "openai,anthropic"], ["providers"]])
def test_format_md_is_pointed_at_markdown_and_that_draws_a_markdown_table(words: list[str]) -> None:
    line = refused(run_cli([*words, "-f", "md"], env=user_env(), cwd=ROOT))
    meant = re.search(r"did you mean (\w+)\?", line)
    assert meant, line
    done = run_cli([*words, "-f", meant.group(1)], env=user_env(), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^\| provider \|", done.stdout, re.M), done.stdout
    assert re.search(r"^\|(---\|)+", done.stdout, re.M), done.stdout


# ---- 5. tools --mcp-url to a port nothing listens on: "cannot connect: All connection attempts failed" ----------

def _closed_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_mcp_url_nothing_listens_on_says_to_start_the_server_or_check_the_url() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/mcp"
    line = refused_saying(run_cli(["tools", "--mcp-url", url], env=user_env()), url, "cannot connect")
    assert "is the MCP server running" in line and "port" in line, line


# ---- 6. `toolchoice tools ... > tools.yaml` failed, the scenario's from: tools.yaml said only "the file is empty" --

def test_a_tool_file_a_failed_redirect_left_empty_says_so(tmp_path: Path) -> None:
    """`toolchoice tools --mcp-url URL > tools.yaml` with nothing listening: the shell empties tools.yaml before the
    command starts and writes its stdout there; done here around the command run in-process (a real shell and
    interpreter cost ~0.65 s of CPU, and the exit code and the empty stdout are the command's either way)."""
    url = f"http://127.0.0.1:{_closed_port()}/mcp"
    with open(tmp_path / "tools.yaml", "w", encoding="utf-8") as redirected:
        failed = run_cli(["tools", "--mcp-url", url], env=user_env(), cwd=tmp_path)
        redirected.write(failed.stdout)
    assert failed.returncode == 2 and (tmp_path / "tools.yaml").read_text() == "", failed.stderr
    (tmp_path / "s.yaml").write_text("tools: [{from: tools.yaml}]\ntool_choice: auto\n"
                                     "messages: [{role: user, content: hi}]\n")
    line = refused_saying(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path),
                          "tools.yaml:1", "empty")
    assert "toolchoice tools ... > FILE` that failed" in line and "run it again" in line, line


# ---- 7. --dialect langchain on an allowed-tools subset: "the API request is shown", and no way to see the wrapper's --

AGENT = """\
tools:
  - {name: search_docs, description: Search the docs., parameters: {type: object, properties: {q: {type: string}}}}
  - {name: open_ticket, description: Open a ticket., parameters: {type: object, properties: {t: {type: string}}}}
  - {name: delete_account, description: Delete the account., parameters: {type: object}}
tool_choice: {allowed: [search_docs, open_ticket], mode: required}
messages: [{role: user, content: My login fails}]
"""


def _ledger(done: object, code: str) -> list[str]:
    import json

    body = json.loads(done.stdout)  # type: ignore[attr-defined]
    record = body[0] if isinstance(body, list) else body
    return [e["message"] for e in record["ledger"] if e["code"] == code]


def test_an_allowed_subset_under_langchain_says_how_to_see_bind_tools_request(tmp_path: Path) -> None:
    import yaml

    (tmp_path / "agent.yaml").write_text(AGENT)
    done = run_cli(["render", "agent.yaml", "-p", "openai", "--dialect", "langchain", "-f", "json"], env=user_env(),
                   cwd=tmp_path)
    said = _ledger(done, "dialect.no_spelling")
    assert said and "list only the allowed tools" in said[0] and "tool_choice: required" in said[0], said
    data = yaml.safe_load(AGENT)  # the hint followed: the allowed tools alone, tool_choice required
    data["tools"] = [t for t in data["tools"] if t["name"] in data["tool_choice"]["allowed"]]
    data["tool_choice"] = "required"
    (tmp_path / "narrowed.yaml").write_text(yaml.safe_dump(data))
    done = run_cli(["render", "narrowed.yaml", "-p", "openai", "--dialect", "langchain", "-f", "json"],
                   env=user_env(), cwd=tmp_path)
    assert not _ledger(done, "dialect.no_spelling") and _ledger(done, "dialect.call"), done.stdout[:2000]


# ---- 8. an Anthropic client given an OpenAI mock's URL: "give the base URL without its /v1" only -----------------

def test_a_client_of_another_api_at_the_mock_s_v1_url_is_told_which_mock_serves_it(tmp_path: Path) -> None:
    from toolchoice.providers.core.mock.server import running_mock

    assert run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path).returncode == 0
    env = user_env(ANTHROPIC_API_KEY="unused")
    with running_mock("openai") as mock:
        assert mock.base_url.endswith("/v1")
        done = run_cli(["send", "scenario.yaml", "-p", "anthropic", "--base-url", mock.base_url, "--retries", "0"],
                       env=env, cwd=tmp_path)
        seen = [record.get("findings") for record in mock.records]
    said = " ".join(done.stdout.split())
    assert done.returncode == 1 and "/v1/v1/messages" in said, said
    meant = re.search(r"start the mock with (-p \w+)", said)
    assert meant and "without /v1" in said, (said, seen)
    with running_mock(meant.group(1).split()[1]) as right:
        again = run_cli(["send", "scenario.yaml", "-p", "anthropic", "--base-url", right.base_url, "--retries", "0"],
                        env=env, cwd=tmp_path)
    assert again.returncode == 0, again.stdout[-800:]


# ---- 9. parse of a --stream --save sample's reply file pointed at a .response.json that was never written -------

def test_parse_of_a_streamed_sample_s_reply_file_names_the_stream_file_on_disk(tmp_path: Path) -> None:
    from toolchoice.providers.core.mock.server import running_mock

    assert run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path).returncode == 0
    with running_mock("openai") as mock:
        sent = run_cli(["send", "scenario.yaml", "-p", "openai", "--base-url", mock.base_url, "--stream", "--save",
                        "sent", "--retries", "0"], env=user_env(OPENAI_API_KEY="unused"), cwd=tmp_path)
    assert sent.returncode == 0, sent.stdout[-800:]
    line = refused(run_cli(["parse", "sent/sample-001.reply.json", "-p", "openai"], env=user_env(), cwd=tmp_path))
    named = re.search(r"give (\S+)( --stream)? \(the", line)
    assert named and (tmp_path / named.group(1)).is_file(), (line, sorted(os.listdir(tmp_path / "sent")))
    done = run_cli(["parse", *named.group(0)[5:-5].split(), "-p", "openai", "-s", "scenario.yaml"], env=user_env(),
                   cwd=tmp_path)
    assert done.returncode == 0 and "obeyed" in done.stdout and not done.stderr, done.stdout + done.stderr


# ---- 10. model: at the top of a scenario (as in a chat call) listed the scenario's keys, not where it goes -------

@pytest.mark.parametrize("key, value, body_key", [("model", "gpt-4.1", "model"), ("temperature", 0.2, "temperature"),
                                                  ("max_tokens", 300, "max_completion_tokens")])
def test_a_per_provider_setting_at_the_top_says_it_goes_under_providers(tmp_path: Path, key: str, value: object,
                                                                         body_key: str) -> None:
    import json

    import yaml

    (tmp_path / "s.yaml").write_text(f"tools: [{{name: a, parameters: {{type: object}}}}]\n{key}: {value}\n"
                                     "messages: [{role: user, content: hi}]\n")
    line = refused_saying(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path), "s.yaml:2:1")
    shown = re.search(r"(providers: \{.*?\}\})", line)
    assert shown, line
    written = shown.group(1).replace("...", json.dumps(value))  # the hint's form, with the value put in
    (tmp_path / "s.yaml").write_text(f"tools: [{{name: a, parameters: {{type: object}}}}]\n{written}\n"
                                     "messages: [{role: user, content: hi}]\n")
    assert yaml.safe_load((tmp_path / "s.yaml").read_text())["providers"]["openai"] == {key: value}
    done = run_cli(["render", "s.yaml", "-p", "openai", "-f", "json"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["request"]["body"][body_key] == value


# ---- 11. proxy -p ID without --upstream: "Missing option '--upstream'", and which URL to give left to the docs ----

@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_proxy_without_upstream_names_the_url_the_provider_s_own_sdk_defaults_to(provider: str) -> None:
    line = refused_saying(run_cli(["proxy", "-p", provider], env=user_env()), "--upstream")
    named = re.search(r"--upstream (https://\S+) for " + provider, line)
    assert named, line
    if provider == "openai":
        import openai

        default = str(openai.OpenAI(api_key="unused").base_url)
    else:
        import anthropic

        default = str(anthropic.Anthropic(api_key="unused").base_url)
    assert named.group(1).rstrip("/") == default.rstrip("/"), (named.group(1), default)


# ---- 12. compare --send to the mock: a second provider "skipped: no API key", not that any value does there -------

def test_compare_send_to_the_mock_says_a_skipped_provider_s_key_may_be_any_value(tmp_path: Path) -> None:
    from toolchoice.providers.core.mock.server import running_mock

    assert run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path).returncode == 0
    words = ["compare", "scenario.yaml", "--send", "-p", "openai,groq", "--retries", "0"]
    with running_mock("openai") as mock:
        first = run_cli([*words, "--base-url", mock.base_url], env=user_env(columns=200, OPENAI_API_KEY="unused"),
                        cwd=tmp_path)
        told = re.search(r"(GROQ_API_KEY)=(\w+)\)", first.stdout)
        assert told, first.stdout
        again = run_cli([*words, "--base-url", mock.base_url, "-f", "json"],
                        env=user_env(OPENAI_API_KEY="unused", **{told.group(1): told.group(2)}), cwd=tmp_path)
        served = [record["path"] for record in mock.records]
    assert again.returncode == 0, again.stdout[-1500:] + again.stderr
    assert served.count("/v1/chat/completions") == 3, served  # openai twice, groq once it had its any value


# ---- 13. docs/tools.md's `--mcp "python my_server.py"` without a my_server.py (an mcp 1.x one fails under 2.x) -----

def test_docs_tools_server_runs_under_the_mcp_extra_with_the_page_s_command(tmp_path: Path) -> None:
    import sys

    page = (ROOT / "docs" / "tools.md").read_text()
    server = re.search(r"```python\n(.*?)```", page, re.S)
    command = re.search(r"^toolchoice tools --mcp \"([^\"]+)\"", page, re.M)
    assert server and command, "docs/tools.md shows no server, or no --mcp line"
    (tmp_path / "my_server.py").write_text(server.group(1))
    line = command.group(1).replace("python ", f"{shlex.quote(sys.executable)} ", 1)  # this environment's python
    done = run_cli(["tools", "--mcp", line], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "- name: lookup_order" in done.stdout and "order_id" in done.stdout, done.stdout


# ---- 14. a saved reply given as the scenario (run REPLY.json): "unknown key 'id' in the scenario" ---------------

def test_a_reply_body_given_as_the_scenario_is_named_and_sent_to_parse(tmp_path: Path) -> None:
    from toolchoice.providers.core.mock.server import running_mock

    assert run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path).returncode == 0
    with running_mock("openai") as mock:
        saved = run_cli(["run", "scenario.yaml", "-p", "openai", "--base-url", mock.base_url, "--save", "runs",
                         "--retries", "0"], env=user_env(OPENAI_API_KEY="unused"), cwd=tmp_path)
    assert saved.returncode == 0, saved.stdout[-800:]
    body = "runs/openai/loop-001/step-01.response.json"
    line = refused_saying(run_cli(["run", body, "-p", "openai"], env=user_env(), cwd=tmp_path),
                          f"{body}:1:1", "OpenAI Chat Completions reply, not a scenario")
    told = re.search(r"(toolchoice parse \S+ -p \S+)", line)
    assert told, line
    done = run_cli(shlex.split(told.group(1))[1:], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0 and "get_weather" in done.stdout, done.stdout + done.stderr


# ---- 15. trace SCENARIO.yaml (the scenario where the recorded run goes): "not JSON (Expecting value)" -----------

def test_trace_of_a_scenario_says_it_is_one_and_where_it_goes(tmp_path: Path) -> None:
    assert run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path).returncode == 0
    line = refused_saying(run_cli(["trace", "scenario.yaml"], env=user_env(), cwd=tmp_path),
                          "scenario.yaml is a toolchoice scenario, not a trace")
    assert "Expecting value" not in line, line
    told = re.search(r"\((toolchoice run \S+) -p ID\)", line)
    assert told, line
    done = run_cli([*shlex.split(told.group(1))[1:], "-p", "openai", "--dry-run"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
