"""Trial 21c, a new user's first hour (README first, no key, the mock as the provider): what it found, held.

`parse` without -p suggested "or several: -p openai,anthropic", which parse then refused; `mock`/`proxy -p
openai,anthropic` answered "unknown provider (did you mean anthropic?)" and `mock`/`proxy`/`trace -p all` told a
command-line user what to pass in Python; an MCP server's last stderr line was cut at 200 characters before its
secrets were hidden (a key's head stayed) and without a mark; `tools server.py` (the server's source for the tool
file) was "invalid YAML ... quote a value that holds ': '"; `render configs/weather.yml` said "check the path" beside
configs/weather.yaml, and `compare configs` "name a .yaml file"; a forced loop repeating one call printed a
loop.repeated_call line per step when the required trap's pitfall sat between them. Each test runs the real
command-line entry (tests/cli.py) and holds what it says to truth from outside the code that says it: the files
on disk, a real MCP server process, a real mock server on 127.0.0.1, the run's own JSON."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
import yaml

from cli import refused, refused_saying, run_cli, user_env

ROOT = Path(__file__).resolve().parent.parent
BODY = ROOT / "tests" / "data" / "responses" / "openai" / "openai-chat-parallel.json"


# ---- 1. parse without -p suggested a list parse refuses ----------------------------------------------------

def test_parse_without_a_provider_asks_for_one_and_the_hint_works() -> None:
    line = refused(run_cli(["parse", str(BODY)], env=user_env()))
    assert "several" not in line and "openai,anthropic" not in line, line
    given = re.search(r"(-p \S+?);", line)
    assert given, line
    done = run_cli(["parse", str(BODY), *given.group(1).split()], env=user_env())
    assert done.returncode == 0, done.stderr
    assert "tool calls" in done.stdout


# ---- 2. mock, proxy and trace -p with a list or all ---------------------------------------------------------

@pytest.mark.parametrize("words", [["mock"], ["proxy", "--upstream", "https://api.openai.com/v1"]])
@pytest.mark.parametrize("given", ["openai,anthropic", "all"])
def test_a_server_of_one_api_says_it_takes_one_provider(words: list[str], given: str) -> None:
    line = refused_saying(run_cli([*words, "-p", given], env=user_env()), f"{words[0]} takes one provider, got '{given}'")
    assert "did you mean" not in line and "Python" not in line and "PROVIDER_IDS" not in line, line
    assert "one per provider" in line, line


@pytest.mark.parametrize("given", ["openai,anthropic", "all"])
def test_trace_of_a_saved_request_takes_one_provider(given: str) -> None:
    saved = ROOT / "tests" / "data" / "loops" / "planner-loop-gemma-270m" / "openai" / "loop-001" / "step-01.request.json"
    line = refused_saying(run_cli(["trace", str(saved), "-p", given], env=user_env()), "trace takes one provider")
    assert "did you mean" not in line and "Python" not in line, line
    done = run_cli(["trace", str(saved), "-p", "openai"], env=user_env())
    assert done.returncode == 0, done.stderr


# ---- 3. an MCP server's last stderr line: hidden, then cut ---------------------------------------------------

def test_a_secret_the_stderr_line_s_cut_splits_shows_no_head_and_the_cut_is_marked(tmp_path: Path) -> None:
    """The server prints 195 characters, then the value toolchoice read for it from $MY_SECRET: the line was cut
    at 200 before redaction, so `sk-ab`, the key's head, was printed (no redactor knows a 5-character piece)."""
    secret = "sk-abcdefghijklmnopqrstuvwxyz0123456789"
    (tmp_path / "server.py").write_text("import os, sys\nsys.stderr.write('x' * 195 + os.environ['MY_TOKEN'] + "
                                        "' tail\\n')\nsys.exit(1)\n", encoding="utf-8")
    done = run_cli(["tools", "--mcp", f"{shlex.quote(sys.executable)} server.py", "--env", "MY_TOKEN=$MY_SECRET",
                    "--timeout", "20"], env=user_env(MY_SECRET=secret), cwd=tmp_path)
    line = refused(done, secret)
    shown = line.split("the server's last stderr line: ", 1)[1].rstrip("\n")
    assert shown.startswith("x" * 195), shown
    tail = shown[195:]
    assert not any(secret[:n] in tail for n in range(3, len(secret))), tail  # no head of the key
    assert shown.endswith("…") and len(shown) == 200, shown  # cut, and said to be


# ---- 4. an MCP server's source given as the tool file --------------------------------------------------------

SERVER = "from mcp.server.mcpserver import MCPServer\nmcp = MCPServer('demo')\n\n@mcp.tool()\ndef a(x: str) -> str:\n" \
         "    return x\n\nmcp.run()\n"


def test_tools_on_a_server_s_source_points_at_mcp(tmp_path: Path) -> None:
    (tmp_path / "my_server.py").write_text(SERVER, encoding="utf-8")
    line = refused(run_cli(["tools", "my_server.py"], env=user_env(), cwd=tmp_path))
    assert "invalid YAML" not in line and "my_server.py is a program, not a tool file" in line, line
    words = shlex.split(line.split("toolchoice tools ", 1)[1].rstrip(")\n"))
    assert words[0] == "--mcp" and shlex.split(words[1]) == ["python", "my_server.py"], words


def test_from_a_server_s_source_points_at_from_mcp(tmp_path: Path) -> None:
    """The hint's `from: {mcp: ...}` is a from: entry the loader takes: put in the scenario, the dry run asks for
    --live-mcp (it starts no process without it), where the file's own line was refused as YAML."""
    (tmp_path / "my_server.py").write_text(SERVER, encoding="utf-8")
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools: [{from: my_server.py}]\ntool_choice: auto\nmessages: [{role: user, content: hi}]\n",
                        encoding="utf-8")
    line = refused(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path))
    assert line.startswith("toolchoice: error: s.yaml:1: from: my_server.py is a program, not a tool file"), line
    entry = re.search(r"(from: \{mcp: .*?\})", line)
    assert entry, line
    scenario.write_text(f"tools: [{{{entry.group(1)}}}]\ntool_choice: auto\nmessages: [{{role: user, content: hi}}]\n",
                        encoding="utf-8")
    assert yaml.safe_load(scenario.read_text())["tools"] == [{"from": {"mcp": "python my_server.py"}}]
    refused_saying(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path), "--live-mcp")


# ---- 5. a scenario path one letter off, or a folder ----------------------------------------------------------

@pytest.mark.parametrize("typed", ["configs/weather.yml", "configs/wether.yaml"])
def test_a_missing_scenario_names_the_file_beside_it(typed: str) -> None:
    line = refused_saying(run_cli(["render", typed, "-p", "openai"], env=user_env(), cwd=ROOT), "no such file")
    meant = re.search(r"did you mean (\S+)\?", line)
    assert meant and (ROOT / meant.group(1)).is_file(), line
    done = run_cli(["render", meant.group(1), "-p", "openai"], env=user_env(), cwd=ROOT)
    assert done.returncode == 0, done.stderr


def test_a_missing_file_with_nothing_near_says_to_check_the_path(tmp_path: Path) -> None:
    refused_saying(run_cli(["render", "nothing.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path),
                   "no such file (check the path)")


@pytest.mark.parametrize("command", ["compare", "run"])
def test_a_folder_of_scenarios_names_one_inside(command: str) -> None:
    line = refused_saying(run_cli([command, "configs", "-p", "openai"], env=user_env(), cwd=ROOT), "is a directory")
    named = re.search(r"such as (\S+) \((\d+) there\)", line)
    assert named, line
    assert int(named.group(2)) == len(list((ROOT / "configs").glob("*.yaml")))
    done = run_cli(["render", named.group(1), "-p", "openai"], env=user_env(), cwd=ROOT)
    assert done.returncode == 0, done.stderr


# ---- 6. the required trap in a loop: one repeated_call line -------------------------------------------------

def test_a_forced_loop_s_repeats_are_one_line_beside_the_trap_s_pitfall(tmp_path: Path) -> None:
    """configs/planner-trap.yaml as a loop against the mock: every step forces `required`, the mock calls the one
    tool with the same arguments, and every step's ledger holds pitfall.required_trap. The pitfall's lines came
    between the repeats', so each step printed its own loop.repeated_call; they are one line covering the steps
    the run's JSON gives a repeat to."""
    from toolchoice.providers.core.mock.server import running_mock

    scenario = yaml.safe_load((ROOT / "configs" / "planner-trap.yaml").read_text(encoding="utf-8"))
    scenario["loop"] = {"max_steps": 4}
    (tmp_path / "trap.yaml").write_text(yaml.safe_dump(scenario), encoding="utf-8")
    env = user_env(OPENAI_API_KEY="unused")
    with running_mock("openai") as mock:
        done = run_cli(["run", "trap.yaml", "-p", "openai", "--base-url", mock.base_url, "--retries", "0",
                        "--save", "saved", "-f", "json"], env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [loop] = json.loads(done.stdout)["runs"][0]["loops"]
    repeats = [s["step"] for s in loop["steps"] if any(e["code"] == "loop.repeated_call" for e in s["ledger"])]
    traps = [s["step"] for s in loop["steps"] if any(e["code"] == "pitfall.required_trap" for e in s["ledger"])]
    assert repeats == [2, 3, 4] and traps == [1, 2, 3, 4], (repeats, traps)
    shown = run_cli(["run", "trap.yaml", "-p", "openai", "--replay", "saved"], env=user_env(200), cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    lines = [line for line in shown.stdout.splitlines() if "loop.repeated_call" in line]
    assert len(lines) == 1 and lines[0].startswith("  steps 2-4 warning loop.repeated_call: each makes"), lines
    assert "(4 in a row)" in lines[0] and "set loop.stop.repeated_calls: 2 to end the loop at step 2" in lines[0]
    assert any(line.startswith("  steps 1-4 warning pitfall.required_trap") for line in shown.stdout.splitlines())


# ---- 7. Azure sent to a base URL (the mock's) ------------------------------------------------------------------

@pytest.mark.parametrize("base", [[], ["--base-url", "http://127.0.0.1:9/v1"]])
def test_an_azure_placeholder_is_said_only_where_the_url_shows_it(tmp_path: Path, base: list[str]) -> None:
    """`send -p azure --base-url MOCK` warned "providers.azure.deployment is not set: the URL shows YOUR-DEPLOYMENT"
    for a URL without it (a base URL replaces the deployment's path), and the mock's line repeated both
    placeholders as findings of the client's request. Each placeholder warning names a word the URL holds."""
    run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path)
    done = run_cli(["render", "scenario.yaml", "-p", "azure", *base, "-f", "json"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    url = document["request"]["url"]
    said = [e["message"] for e in document["ledger"] if e["code"] == "endpoint.placeholder"]
    shown = [re.search(r"the URL shows (\S+?);", m).group(1) for m in said]  # type: ignore[union-attr]
    assert all(word in url for word in shown), (url, said)
    assert len(said) == (0 if base else 2), said


def test_the_mock_finds_no_placeholder_in_a_client_s_azure_request(tmp_path: Path) -> None:
    from toolchoice.providers.core.mock.server import running_mock

    run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path)
    with running_mock("azure") as mock:
        done = run_cli(["send", "scenario.yaml", "-p", "azure", "--base-url", mock.base_url, "--retries", "0"],
                       env=user_env(AZURE_OPENAI_API_KEY="unused"), cwd=tmp_path)
        records = list(mock.records)
    assert done.returncode == 0, done.stderr
    [record] = records
    assert record["status"] == 200, record
    assert "endpoint.placeholder" not in [f["code"] for f in record["findings"]], record["findings"]


# ---- 8. render's summary named a format render does not have -----------------------------------------------

@pytest.mark.parametrize("command", ["render", "compare"])
def test_the_left_out_caption_names_formats_the_command_takes(tmp_path: Path, command: str) -> None:
    """`render scenario.yaml` (init's two providers: the summary table) at 80 columns said "(a wider terminal, -f
    markdown or -f json shows them)"; `render -f markdown` is refused. Each format the caption names is one the
    command's --help lists, and gives exit 0."""
    run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path)
    done = run_cli([command, "scenario.yaml"], env=user_env(80), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    caption = " ".join(done.stdout.split()).split("left out at 80 columns: ", 1)[1].split(" shows them)")[0]
    named = re.findall(r"-f (\w+)", caption)
    listed = re.search(r"--format\s+-f\s+<([a-z|]+)>", run_cli([command, "--help"], env=user_env(200)).stdout)
    assert named and listed, (caption, named)
    assert set(named) <= set(listed.group(1).split("|")), (named, listed.group(1))
    for format in named:
        assert run_cli([command, "scenario.yaml", "-f", format], env=user_env(), cwd=tmp_path).returncode == 0


# ---- 9. a command word from the docs that is no command -------------------------------------------------------

@pytest.mark.parametrize("word", ["replay", "dialects", "import", "serve", "list", "snapshot", "help", "version"])
def test_a_word_the_docs_use_for_a_job_names_the_command_that_does_it(word: str) -> None:
    """`toolchoice replay`, `toolchoice dialects`, `toolchoice import` (the docs say "replay", "dialects", "trace
    import") were "No such command" and the whole help to read. The line now names the command, and every
    command and option it names is one `toolchoice --help` and that command's --help list."""
    line = refused_saying(run_cli([word, "x"], env=user_env()), f"No such command '{word}'")
    hint = line.split("(", 1)[1].rsplit("see toolchoice --help)", 1)[0]  # what the line says beyond the help
    top = run_cli(["--help"], env=user_env(200)).stdout
    commands = set(re.findall(r"^│ (\w+)\s{2,}", top, re.M))
    named = re.findall(r"toolchoice (\w+)", hint)
    top_options = re.findall(r"toolchoice (--[a-z-]+)", hint)
    assert named or top_options or "--dialect" in hint, hint
    assert all(option in top for option in top_options), top_options
    for command in named:
        if command in ("COMMAND",):
            continue
        assert command in commands, (command, commands)
        options = re.findall(r"toolchoice " + command + r" [^;,]*?(--[a-z-]+)", hint)
        listed = run_cli([command, "--help"], env=user_env(200)).stdout
        assert all(option in listed for option in options), (options, command)
    if "--dialect" in hint:
        for command in ("render", "compare"):
            assert "--dialect" in run_cli([command, "--help"], env=user_env(200)).stdout


# ---- 10. trace's listing of a send --save folder ------------------------------------------------------------

def test_a_send_save_folder_s_listing_says_what_each_sample_called(tmp_path: Path) -> None:
    """`trace DIR` on what `send --save DIR` wrote listed every sample as `answered: text`: it read the calls of a
    mock's line, and send's reply file holds the parsed reply. The listing names the calls the saved body holds."""
    from toolchoice.providers.core.mock.server import running_mock

    run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path)
    with running_mock("openai") as mock:
        done = run_cli(["send", "scenario.yaml", "-p", "openai", "--base-url", mock.base_url, "--retries", "0",
                        "-n", "2", "--save", "saved"], env=user_env(OPENAI_API_KEY="unused"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    listed = run_cli(["trace", "saved"], env=user_env(), cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = yaml.safe_load(listed.stdout)["samples"]
    assert len(rows) == 2
    for row in rows:
        body = json.loads((tmp_path / "saved" / row["file"].replace(".request.", ".response.")).read_text())
        called = [c["function"]["name"] for c in body["choices"][0]["message"]["tool_calls"]]
        assert called == ["get_weather"] and row["answered"] == called, row
        assert row["verdict"] == "obeyed", row


# ---- 11. a scenario naming one provider --------------------------------------------------------------------

def test_a_scenario_naming_one_provider_says_one_provider(tmp_path: Path) -> None:
    """The title said "1 providers from its providers:"; the count is the providers: section's."""
    scenario = yaml.safe_load((ROOT / "configs" / "planner-trap.yaml").read_text(encoding="utf-8"))
    scenario["providers"] = {"anthropic": {"max_tokens": 512}}
    (tmp_path / "one.yaml").write_text(yaml.safe_dump(scenario), encoding="utf-8")
    done = run_cli(["compare", "one.yaml"], env=user_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    title = " ".join(done.stdout.split("┏")[0].split())
    every = len(json.loads(run_cli(["providers", "-f", "json"], env=user_env()).stdout))
    assert f"· 1 provider from its providers: (-p all: all {every})" in title, title
    assert [p["provider"] for p in json.loads(run_cli(["compare", "one.yaml", "-f", "json"], env=user_env(),
                                                      cwd=tmp_path).stdout)["providers"]] == ["anthropic"]


# ---- 12. a loop's error results: what the first said ----------------------------------------------------------

def test_a_loop_s_error_results_line_says_what_the_first_said(tmp_path: Path) -> None:
    """`run --results-from "pythn tool.py"` (a typo) ran the loop and said only "1 of 1 tool results were errors";
    why (the shell's "not found", which the model read as the result) was in -f json alone. The line quotes the
    first error result as the run's JSON records it."""
    from toolchoice.providers.core.mock.server import running_mock

    env = user_env(OPENAI_API_KEY="unused")
    command = ["run", str(ROOT / "configs" / "planner-loop.yaml"), "-p", "openai", "--retries", "0",
               "--results-from", "no-such-command-t21c tool.py"]
    with running_mock("openai") as mock:
        data = run_cli([*command, "--base-url", mock.base_url, "-f", "json"], env=env, cwd=tmp_path)
        shown = run_cli([*command, "--base-url", mock.base_url], env=env, cwd=tmp_path)
    assert data.returncode == 0 and shown.returncode == 0, data.stderr + shown.stderr
    [loop] = json.loads(data.stdout)["runs"][0]["loops"]
    [first] = [r for s in loop["steps"] for r in s["results"] if r["is_error"]][:1]
    assert "no-such-command-t21c" in first["content"], first
    said = " ".join(shown.stdout.split())
    assert (f"1 of 1 tool results were errors; the first, step 1 {first['name']}: {' '.join(first['content'].split())}"
            in said), said


# ---- 13. run --replay DIR without the scenario it started from ------------------------------------------------

def test_a_replay_folder_without_its_scenario_names_the_one_it_started_from() -> None:
    """`run -p openai --replay tests/data/loops/planner-loop-gemma-270m` (README example 3 without its first
    argument) said "give a SCENARIO file" and pointed at --help; the folder's transcript names the file the run
    started from. The hint is a command that replays it, as README example 3 does."""
    saved = "tests/data/loops/planner-loop-gemma-270m"
    line = refused(run_cli(["run", "-p", "openai", "--replay", saved], env=user_env(), cwd=ROOT))
    command = re.search(r"started from \S+: (toolchoice run [^)]+)\)", line)
    assert command, line
    words = shlex.split(command.group(1))
    transcript = (ROOT / saved / "openai" / "loop-001" / "scenario.yaml").read_text(encoding="utf-8")
    started = yaml.safe_load(transcript)["description"].rsplit(" of ", 1)[1]
    assert words[2] == started and (ROOT / started).is_file(), (words, started)
    done = run_cli([*words[1:], "--model", "gemma-3-270m"], env=user_env(200), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "replayed" in done.stdout and "ended: max_steps at step 6" in done.stdout


# ---- 14. an MCP URL written without its scheme -----------------------------------------------------------------

def test_an_mcp_url_without_its_scheme_says_so_and_the_hint_lists_the_tools() -> None:
    """`tools --mcp-url 127.0.0.1:PORT/mcp` was httpx's "UnsupportedProtocol: Request URL is missing an 'http://' or
    'https://' protocol."; the line says what the URL lacks, and the hint's URL lists the server's tools."""
    from mcp_http_stub import serving

    listing = [{"name": "search_docs", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]
    with serving(lambda headers: listing) as url:
        bare = url.split("://", 1)[1]
        line = refused(run_cli(["tools", "--mcp-url", bare], env=user_env()))
        assert "UnsupportedProtocol" not in line and "must be an http(s) URL with a host" in line, line
        given = re.search(r"with its scheme: (\S+)\)", line)
        assert given and given.group(1) == url, line
        done = run_cli(["tools", "--mcp-url", given.group(1)], env=user_env())
    assert done.returncode == 0, done.stderr
    assert [t["name"] for t in yaml.safe_load(done.stdout)["tools"]] == ["search_docs"]


# ---- 15. a comma list where one provider id goes ----------------------------------------------------------------

def test_a_providers_key_holding_a_list_says_one_id_each(tmp_path: Path) -> None:
    """`providers: {"openai,anthropic": {...}}` (the -p spelling, as a key) was "unknown provider 'openai,anthropic'
    (did you mean anthropic?)", which drops openai; so was a Python caller's `jobs.render(s, "openai,anthropic")`.
    The line names both, and the scenario written as it says (a key each) renders both."""
    from toolchoice.providers import load_scenario
    from toolchoice.providers.core import jobs

    scenario = yaml.safe_load((ROOT / "configs" / "planner-trap.yaml").read_text(encoding="utf-8"))
    scenario["providers"] = {"openai,anthropic": {"max_tokens": 512}}
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(scenario), encoding="utf-8")
    line = refused(run_cli(["render", "s.yaml", "-p", "openai"], env=user_env(), cwd=tmp_path))
    assert "did you mean" not in line and "give openai and anthropic each its own" in line, line
    scenario["providers"] = {"openai": {"max_tokens": 512}, "anthropic": {"max_tokens": 512}}
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(scenario), encoding="utf-8")
    done = run_cli(["compare", "s.yaml", "-f", "json"], env=user_env(), cwd=tmp_path)
    assert sorted(p["provider"] for p in json.loads(done.stdout)["providers"]) == ["anthropic", "openai"]
    with pytest.raises(Exception, match="give openai and anthropic each its own"):
        jobs.render(load_scenario(tmp_path / "s.yaml"), "openai,anthropic")


# ---- 16. pydantic-ai's "provider:model" given to --model ---------------------------------------------------------

def test_a_model_spelled_provider_colon_model_is_said_to_go_out_whole(tmp_path: Path) -> None:
    """`-m anthropic:claude-sonnet-5` (pydantic-ai's model string, docs/pydantic-ai.md's audience) went out as the
    model id 'anthropic:claude-sonnet-5', which no API knows, without a word. A warning says so and how to write
    it; the spelling it gives sends claude-sonnet-5, and an id with a colon of its own (Ollama's tags) is quiet."""
    run_cli(["init", "scenario.yaml"], env=user_env(), cwd=tmp_path)

    def model(*words: str) -> tuple[str, str]:
        done = run_cli(["render", "scenario.yaml", "-p", words[0], "-m", words[1], "-f", "json"], env=user_env(),
                       cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)["request"]["body"]["model"], done.stderr

    sent, said = model("anthropic", "anthropic:claude-sonnet-5")
    assert sent == "anthropic:claude-sonnet-5" and "is one model id here" in said, said
    fixed = re.search(r"write --model (\S+)", said)
    assert fixed, said
    sent, said = model("anthropic", fixed.group(1))
    assert sent == "claude-sonnet-5" and said == "", said
    sent, said = model("ollama", "llama3.1:8b")
    assert sent == "llama3.1:8b" and said == "", said


# ---- 17. compare.md's synopsis and the dialects compare takes -------------------------------------------------

def test_compare_s_synopsis_lists_every_dialect_compare_takes() -> None:
    """docs/compare.md's first line listed `--dialect api|langchain|litellm|vercel`: openai-agents and pydantic-ai,
    which compare --help lists, were only in the prose after it."""
    listed = re.search(r"--dialect\s+<([a-z|-]+)>", run_cli(["compare", "--help"], env=user_env(250)).stdout)
    synopsis = (ROOT / "docs" / "compare.md").read_text(encoding="utf-8").split("```", 1)[0]
    shown = re.search(r"\[--dialect ([a-z|-]+)", synopsis)
    assert listed and shown, synopsis
    assert set(shown.group(1).split("|")) == set(listed.group(1).split("|")), (shown.group(1), listed.group(1))
