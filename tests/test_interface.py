"""The command-line interface as a new user meets it (issue 14): one flag vocabulary, stable JSON,
layouts that fit 60/80/200 columns, and the fixes for what a first run turned up. `toolchoice` runs
in-process (tests/cli.py: the console script's entry), the installed script itself in a real process
where the shell's view matters (completion); sends go to the stand-in servers on 127.0.0.1
(tests/servers.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from toolchoice.providers.core.capabilities import CAPABILITIES, PROVIDER_IDS
from toolchoice.providers.core.model import wire_json

from cli import run_cli
from servers import StandIn, Step, fixture

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "configs").glob("*.yaml"))
TRAP = str(ROOT / "configs" / "planner-trap.yaml")
WEATHER = str(ROOT / "configs" / "weather.yaml")
KEY_VARS = sorted({env for cap in CAPABILITIES.values() for env in cap.key_env})


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k not in KEY_VARS and "proxy" not in k.lower()}
    out.update({"NO_PROXY": "127.0.0.1,localhost", "COLUMNS": "160", "TERM": "dumb", "NO_COLOR": "1",
                "OPENAI_API_KEY": "sk-test-interface"})
    out.update(extra)
    return out


def run(*args: str, stdin: str | None = None, **extra: str) -> subprocess.CompletedProcess[str]:
    """``toolchoice ARGS`` in this process (tests/cli.py), with its own environment and stdin."""
    return run_cli(args, env=env(**extra), input=stdin, cwd=ROOT)


def one_error_line(result: subprocess.CompletedProcess[str], code: int = 2) -> str:
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("toolchoice: error: "), result.stderr
    return lines[0]


# ---- --version, completion, help -----------------------------------------------------------------


def test_version_prints_the_packages_version():
    from importlib.metadata import version as installed

    version = installed("toolchoice")  # what pip recorded from pyproject (its version is read from the package)
    result = run("--version")
    assert result.returncode == 0 and result.stdout == f"toolchoice {version}\n"


def test_shell_completion_is_on():
    """Through the completion protocol (what `--install-completion` wires into the shell): the installed
    script answers in a real process (commands), and a command's options come back from the same entry
    (``run([])``, what the script calls) in this process."""
    import shutil

    assert "--install-completion" in run("--help").stdout and "--show-completion" in run("--help").stdout
    exe = shutil.which("toolchoice")
    assert exe, "the toolchoice console script must be installed (pip install -e .)"

    def complete(words: str, process: bool) -> list[str]:
        parts = words.split(" ")
        protocol = env(_TOOLCHOICE_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(len(parts) - 1))
        if process:
            result = subprocess.run([exe], capture_output=True, text=True, timeout=60, env=protocol)
        else:
            result = run_cli([], env=protocol)
        assert result.returncode == 0, result.stderr
        return result.stdout.split()

    assert complete("toolchoice ren", process=True) == ["render"]
    assert "--tool-choice" in complete("toolchoice render x.yaml --tool", process=False)


@pytest.mark.parametrize("command", ["render", "compare", "send", "parse", "probe"])
def test_help_examples_keep_their_brackets(command):
    result = run(command, "--help", COLUMNS="400")
    assert result.returncode == 0
    assert "'{allowed: [a, b], mode: auto}'" in result.stdout


@pytest.mark.parametrize("columns", ["80", "60"])
def test_every_help_is_whole_at_80_and_60_columns(columns):
    """typer's option table cut a word longer than its column with "…" (providers.<id>.headers,
    $TOOLCHOICE_ALLOW_ENV, anthropic=claude-sonnet-5, --results-from at 60: eleven cells at 80, found by a new
    user); the help folds them instead, and no line is wider than the terminal."""
    from toolchoice.cli.app import COMMANDS

    for command in ["", *COMMANDS]:
        result = run(*([command] if command else []), "--help", COLUMNS=columns)
        assert result.returncode == 0, (command, result.stderr)
        assert "…" not in result.stdout, (command, [line for line in result.stdout.splitlines() if "…" in line])
        assert max(len(line) for line in result.stdout.splitlines()) <= int(columns), command


# ---- compare: the footer, the strict column -------------------------------------------------------


def test_compare_says_which_columns_a_narrow_terminal_left_out():
    """At 60 columns the table drops columns to stay whole (tools, parallel: where README example 1 shows
    'dropped*'); a new user missed them because nothing said so. Each width names what it left out."""
    wide = run("compare", TRAP, "-p", "all", COLUMNS="200").stdout
    assert "left out at" not in wide
    for columns in ("80", "60"):
        out = run("compare", TRAP, "-p", "all", COLUMNS=columns).stdout
        said = " ".join(out[out.index("left out at"):].split()[:12])
        header = next(line for line in out.splitlines() if "provider" in line)
        left_out = said.split(": ", 1)[1].split(" (")[0].split(", ")
        assert left_out and all(name not in header for name in left_out), (said, header)
        assert max(len(line) for line in out.splitlines()) <= int(columns)


def test_compare_footer_gives_each_provider_its_own_message():
    ledgers = {t["provider"]: t["ledger"] for t in json.loads(run("render", TRAP, "-p", "all", "-f", "json").stdout)}
    out = run("compare", TRAP, "-p", "all", COLUMNS="100000").stdout
    footer = [line for line in out.splitlines() if re.match(r"^[a-z_]+\.[a-z_]+ \(", line)]
    assert footer, out
    for line in footer:
        code, providers, message = re.match(r"^(\S+) \(([^)]*)\): (.*)$", line).groups()
        named = providers.split(", ")
        if providers.startswith("every provider"):  # most of the twenty: the line names those left out
            left_out = providers.split(" but ", 1)[1].split(", ") if " but " in providers else []
            named = [p for p in ledgers if p not in left_out]
        for provider in named:
            title = CAPABILITIES[provider].title  # several providers share a line in words that fit each
            own = [e["message"] for e in ledgers[provider] if e["code"] == code]
            assert message in own or message in [m.replace(title, "the provider") for m in own], (provider, line)
    # one provider's line is its own message, word for word (Ollama's title stays in it)
    assert any(line.startswith("tool_choice.ignored (ollama): Ollama (native /api/chat) cannot") for line in footer)


STRICT_TOOL = """tools:
  - name: get_weather
    strict: true
    parameters:
      type: object
      properties: {city: {type: string}}
      required: [city]
      additionalProperties: false
tool_choice: required
messages:
  - {role: user, content: "Weather in Paris?"}
"""


def test_compare_strict_column_says_sent_for_anthropic_and_bedrock():
    """Anthropic's strict tool use (docs' strict-tool-use quickstart: "strict": true on the tool) and
    Bedrock's toolSpec.strict are sent; the compare cell says so."""
    data = json.loads(run("compare", "-", "-p", "anthropic,bedrock", "-f", "json", stdin=STRICT_TOOL).stdout)
    bodies = {p["provider"]: p["request"]["body"] for p in data["providers"]}
    assert bodies["anthropic"]["tools"][0]["strict"] is True
    assert bodies["bedrock"]["toolConfig"]["tools"][0]["toolSpec"]["strict"] is True
    table = run("compare", "-", "-p", "anthropic,bedrock", "-f", "markdown", stdin=STRICT_TOOL).stdout
    rows = [r for r in table.splitlines() if r.startswith("| anthropic") or r.startswith("| bedrock")]
    strict_col = table.splitlines()[0].split(" | ").index("strict")
    assert [r.split(" | ")[strict_col] for r in rows] == ["sent", "sent"]


# ---- --model per provider -------------------------------------------------------------------------


def test_model_per_provider_and_a_warning_when_one_model_goes_to_several():
    result = run("render", WEATHER, "-p", "openai,anthropic", "-m", "anthropic=claude-sonnet-4-5", "-m", "gpt-4o",
                 "-f", "json")
    assert result.returncode == 0 and result.stderr == "", result.stderr
    models = {t["provider"]: t["request"]["body"]["model"] for t in json.loads(result.stdout)}
    assert models == {"openai": "gpt-4o", "anthropic": "claude-sonnet-4-5"}
    shared = run("render", WEATHER, "-p", "openai,anthropic", "--model", "gpt-4o", "-f", "json")
    assert shared.returncode == 0
    assert shared.stderr.startswith("toolchoice: warning: --model gpt-4o goes to 2 providers (openai, anthropic)")
    assert {t["request"]["body"]["model"] for t in json.loads(shared.stdout)} == {"gpt-4o"}
    assert "unknown provider 'antropic'" in one_error_line(run("render", WEATHER, "-m", "antropic=claude", "-f", "json"))


def test_one_base_url_for_several_providers_is_said_on_stderr():
    """A new user sent two providers to one mock with one --base-url and got a 404 from the wrong one: the
    command says where the URL goes and how to give each provider its own (providers.<id>.base_url)."""
    url = "http://127.0.0.1:9/v1"
    shared = run("compare", WEATHER, "-p", "openai,anthropic", "--base-url", url, "-f", "json")
    assert shared.returncode == 0
    assert shared.stderr.startswith("toolchoice: warning: --base-url goes to 2 providers (openai, anthropic)")
    assert "providers.<id>.base_url" in shared.stderr and len(shared.stderr.splitlines()) == 1
    one = run("render", WEATHER, "-p", "openai", "--base-url", url, "-f", "json")
    assert one.returncode == 0 and one.stderr == "", one.stderr
    looped = run("run", WEATHER, "-p", "openai", "-p", "anthropic", "--base-url", url, "--dry-run", "-f", "json")
    assert looped.stderr.startswith("toolchoice: warning: --base-url goes to 2 providers (openai, anthropic)")


# ---- one flag vocabulary ------------------------------------------------------------------------


def test_provider_flags_are_the_same_on_render_and_compare():
    a = run("compare", WEATHER, "-p", "openai,anthropic", "-f", "json")
    b = run("render", WEATHER, "--providers", "openai,anthropic", "-f", "json")
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    assert [p["provider"] for p in json.loads(a.stdout)["providers"]] == ["openai", "anthropic"]
    assert [t["provider"] for t in json.loads(b.stdout)] == ["openai", "anthropic"]


def test_send_with_several_providers_points_to_compare():
    line = one_error_line(run("send", WEATHER, "-p", "openai,anthropic"))
    assert "toolchoice compare" in line and "--send" in line and "unknown provider" not in line


@pytest.mark.parametrize("flag", [["--repeat", "5"], ["--min-obeyed", "0.9"], ["--save", "out"]])
def test_compare_send_only_options_without_send_are_refused(flag):
    assert "needs --send" in one_error_line(run("compare", WEATHER, *flag))


def test_parse_takes_the_translation_options():
    body = ROOT / "tests/data/responses/anthropic/anthropic-tool-use-only.json"
    result = run("parse", str(body), "-p", "anthropic", "-s", WEATHER, "--strict", "--no-emulate",
                 "--base-url", "http://127.0.0.1:9/x", "-f", "json")
    assert result.returncode in (0, 4), result.stderr
    assert json.loads(result.stdout)["provider"] == "anthropic"
    assert "needs --scenario" in one_error_line(run("parse", str(body), "-p", "anthropic", "--strict"))


def test_probe_asks_only_the_given_tool_choice():
    with StandIn("openai") as server:
        server.script(*[Step(body=fixture("openai", "openai-chat-single-strict")) for _ in range(4)])
        result = run("probe", "-p", "openai", "--base-url", server.base_url("openai"), "--tool-choice", "auto",
                     "--repeat", "1", "-f", "json")
        sent = [r.json["tool_choice"] for r in server.requests]
    assert result.returncode == 0, result.stderr
    assert [q["question"] for q in json.loads(result.stdout)["questions"]] == ["auto"]
    assert sent == ["auto"]


def test_probe_s_tool_choice_help_says_what_probe_does_with_it():
    """probe's --tool-choice asks only that choice's questions (and the control when one fails, docs/probe.md);
    its help said "Override the scenario's tool_choice", the words of the commands that send one request."""
    text = " ".join(run("probe", "--help").stdout.replace("│", " ").split())
    assert "Ask only the questions about this tool_choice" in text and "the question without tool_choice" in text
    assert "Override the scenario's tool_choice" in " ".join(run("send", "--help").stdout.replace("│", " ").split())


def test_send_dry_run_curl_is_exactly_render_curl():
    dry = run("send", TRAP, "-p", "anthropic", "--dry-run", "-f", "curl")
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout == run("render", TRAP, "-p", "anthropic", "-f", "curl").stdout
    assert "--dry-run" in one_error_line(run("send", TRAP, "-p", "anthropic", "-f", "curl"))


# ---- curl ------------------------------------------------------------------------------------------


def test_curl_keeps_the_ledger_warnings_and_sends_the_body_byte_for_byte(tmp_path):
    script = run("render", TRAP, "-p", "openai", "-f", "curl").stdout
    rendered = json.loads(run("render", TRAP, "-p", "openai", "-f", "json").stdout)
    warnings = [e for e in rendered["ledger"] if e["severity"] != "info"]
    assert any(e["code"] == "pitfall.required_trap" for e in warnings)
    for e in warnings:
        assert f"# {e['severity']} {e['code']}: " in script
    fake = tmp_path / "curl"
    fake.write_text(f'#!/bin/sh\ncat > "{tmp_path}/body"\n')
    fake.chmod(0o755)
    shell = subprocess.run(["bash", "-c", script], env=env(PATH=f"{tmp_path}:{os.environ['PATH']}"),
                           capture_output=True, text=True, timeout=30)
    assert shell.returncode == 0, shell.stderr
    assert (tmp_path / "body").read_bytes() == wire_json(rendered["request"]["body"]).encode()


# ---- parse: the wrong -p -----------------------------------------------------------------------


# every provider's folder of recorded replies -> its row's wire family
FAMILY_DIRS = {folder.name: CAPABILITIES[folder.name].module
               for folder in sorted((ROOT / "tests/data/responses").iterdir()) if folder.name in CAPABILITIES}


def recorded_bodies() -> list[tuple[str, Path]]:
    out = []
    for folder, family in FAMILY_DIRS.items():
        for path in sorted((ROOT / "tests/data/responses" / folder).glob("*.json")):
            if not path.name.endswith(".expect.json") and not path.name.startswith("error-"):
                out.append((family, path))
    return out


@pytest.mark.parametrize("family, path", recorded_bodies(), ids=lambda v: getattr(v, "name", v))
def test_every_recorded_reply_is_recognised_as_its_family(family, path):
    from toolchoice.providers.core.sniff import family_of

    assert family_of(json.loads(path.read_text())) == family


def test_parse_with_the_wrong_provider_says_which_format_the_file_is():
    body = ROOT / "tests/data/responses/openai/openai-chat-parallel.json"
    line = one_error_line(run("parse", str(body), "-p", "anthropic"))
    assert "OpenAI Chat Completions" in line and "-p openai" in line
    anthropic = ROOT / "tests/data/responses/anthropic/anthropic-tool-use-only.json"
    assert "-p anthropic" in one_error_line(run("parse", str(anthropic), "-p", "gemini"))


# ---- layout ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [60, 80, 200])
@pytest.mark.parametrize("command", [["compare", TRAP, "-p", "all"], ["render", TRAP]])
def test_tables_fit_the_width_and_never_break_ids(width, command):
    out = run(*command, COLUMNS=str(width)).stdout
    table = [line for line in out.splitlines() if line[:1] in "┏┃┡│└"]
    assert table and all(len(line) <= width for line in table), out
    first_cells = [line.split("│")[1].strip() for line in table if line.startswith("│")]
    assert [c for c in first_cells if c] == list(PROVIDER_IDS)  # every id whole, on one line
    header = next(line for line in table if line.startswith("┃") and "provider" in line)
    for word in [w.strip() for w in header.strip("┃").split("┃")]:
        assert word in ("provider", "endpoint", "host", "tool_choice on the wire", "on the wire", "tools",
                        "parallel", "par.", "strict", "ledger"), header


@pytest.mark.parametrize("width", [200, 100, 80, 60])
def test_the_support_matrix_is_whole_at_every_width(width):
    """`toolchoice providers`: no line wider than the terminal, no cell cut short (…), every provider id
    whole on its own line, and each provider's eight marks, in the order of its row's features."""
    out = run("providers", COLUMNS=str(width)).stdout
    matrix = out[:out.index("dated facts")]
    assert all(len(line) <= width for line in matrix.splitlines()), matrix
    assert "…" not in matrix, matrix
    marks = {"native": "✔", "renamed": "→", "emulated": "≈", "unsupported": "✘"}
    for pid in PROVIDER_IDS:
        rows = [line for line in matrix.splitlines() if line.strip("│ ").split()[:1] == [pid]]
        assert rows, (pid, matrix)
        start = matrix.index(rows[0])
        block = matrix[start:start + 400]  # the row, or the row's folded lines
        expected = [marks[CAPABILITIES[pid].feature(f).level.value] for f in
                    ("auto", "none", "required", "any", "named", "allowed", "parallel", "strict")]
        found = [ch for ch in block if ch in "✔→≈✘"][:8]
        assert found == expected, (pid, block)


@pytest.mark.parametrize("width", [80, 60])
def test_the_model_rules_table_is_whole(width):
    out = run("providers", "--model", "claude-opus-4-6", COLUMNS=str(width)).stdout
    assert all(len(line) <= width for line in out.splitlines()) and "…" not in out, out
    assert "│ anthropic " in out and "│ bedrock " in out


@pytest.mark.parametrize("width", [80, 60])
def test_a_ledger_with_long_codes_is_whole(tmp_path, width):
    """pitfall.forced_after_tool_result (32 characters) beside a message at 60 columns: the ledger stacks
    severity and code over the message instead of cutting the code."""
    scenario = tmp_path / "long-codes.yaml"
    scenario.write_text("tools:\n  - {name: search, parameters: {type: object, properties: {q: {type: string}}}}\n"
                        "tool_choice: required\nmessages:\n  - {role: user, content: hi}\n"
                        "  - {role: assistant, tool_calls: [{id: c1, name: read_file, arguments: {path: a}}]}\n"
                        "  - {role: tool, tool_call_id: c1, content: ok}\n")
    shown = run("render", str(scenario), "-p", "deepseek", "--ledger-only", COLUMNS=str(width)).stdout
    data = json.loads(run("render", str(scenario), "-p", "deepseek", "-f", "json").stdout)
    assert all(len(line) <= width for line in shown.splitlines()) and "…" not in shown, shown
    for entry in data["ledger"]:
        assert entry["code"] in shown, (entry["code"], shown)


def test_without_colour_differences_are_marked_with_a_symbol():
    out = run("compare", TRAP, "-p", "openai,groq,anthropic").stdout
    assert re.search(r"│ anthropic .*\}\*", out), out
    assert "*: differs from most providers" in out and "magenta" not in out


def test_only_the_few_are_marked_and_the_key_only_with_a_mark():
    """A mark means "differs from most providers": a column is marked only where one value holds more than
    half the rows. openai, groq and llamacpp send `required` to anthropic's and gemini's own forms (3 of 5:
    those two are marked); parallel is sent by openai, groq, llamacpp, anthropic and dropped by gemini (4 of
    5: gemini's cell is marked). With openai and anthropic alone every column is a 1-1 split: nothing is
    marked and the key is not printed."""
    out = run("compare", TRAP, "-p", "openai,groq,llamacpp,anthropic,gemini").stdout
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.startswith("│ ") and
            line.split("│")[1].strip()}
    assert "*" not in rows["openai"] + rows["groq"] + rows["llamacpp"], out
    assert re.search(r'\{"mode":"ANY"\}\*', rows["gemini"]) and "dropped*" in rows["gemini"], out
    assert "*: differs from most providers" in out
    two = run("compare", TRAP, "-p", "openai,anthropic").stdout
    assert "*" not in two.replace("*:", "") and "differs from most" not in two, two
    markdown = run("compare", TRAP, "-p", "openai,anthropic", "-f", "markdown").stdout
    assert "**" not in markdown and "differs from most" not in markdown, markdown


# ---- render: summary, ledger only, stdin, several scenarios -------------------------------------


def test_render_without_providers_prints_a_summary_and_ledger_only_shows_ledgers():
    summary = run("render", TRAP)
    assert summary.returncode == 0 and len(summary.stdout.splitlines()) < 60
    assert "-p ID" in summary.stdout and '"messages"' not in summary.stdout
    ledgers = run("render", TRAP, "-p", "openai,anthropic", "--ledger-only", COLUMNS="200").stdout
    assert "pitfall.required_trap" in ledgers and '"messages"' not in ledgers and "POST " not in ledgers


def test_render_reads_the_scenario_from_stdin():
    from_file = run("render", TRAP, "-p", "gemini", "-f", "json")
    from_stdin = run("render", "-", "-p", "gemini", "-f", "json", stdin=Path(TRAP).read_text())
    assert from_stdin.returncode == 0, from_stdin.stderr
    assert json.loads(from_stdin.stdout)["request"] == json.loads(from_file.stdout)["request"]


def test_several_scenarios_per_call_with_a_summary_and_the_worst_exit_code():
    names = [str(c.relative_to(ROOT)) for c in CONFIGS]
    result = run("compare", *names, "-p", "openai,anthropic")
    assert result.returncode == 3  # strict-schema and think-forced are refused somewhere
    assert f"{len(names)} scenarios:" in result.stdout
    for name in names:
        assert re.search(rf"^  [03]  {re.escape(name)}: ", result.stdout, re.M), name
    # a dry run: exit 0 means rendered (it said "rendered / sent and obeyed", a new user read it as sent)
    assert ": rendered (warnings allowed)\n" in result.stdout and "sent and obeyed" not in result.stdout
    assert "))" not in result.stdout  # the meaning is not bracketed: its own brackets stay single
    docs = json.loads(run("render", *names, "-p", "openai", "-f", "json").stdout)
    assert [d["scenario"] for d in docs] == names


def test_a_developer_message_is_the_developer_role_where_the_api_has_one():
    scenario = ("tools: [{name: t, parameters: {type: object}}]\nmessages:\n  - {role: developer, content: be terse}\n"
                "  - {role: user, content: hi}\n")
    data = {t["provider"]: t for t in json.loads(run("render", "-", "-p", "openai,groq,anthropic,openai-responses",
                                                     "-f", "json", stdin=scenario).stdout)}
    # openai-python: ChatCompletionDeveloperMessageParam (role "developer"); Responses: instructions is
    # "a system (or developer) message"
    assert data["openai"]["request"]["body"]["messages"][0] == {"role": "developer", "content": "be terse"}
    assert data["openai-responses"]["request"]["body"]["instructions"] == "be terse"
    assert data["groq"]["request"]["body"]["messages"][0] == {"role": "system", "content": "be terse"}
    assert data["anthropic"]["request"]["body"]["system"] == "be terse"
    for pid, has_role in (("openai", True), ("openai-responses", True), ("groq", False), ("anthropic", False)):
        codes = [e["code"] for e in data[pid]["ledger"]]
        assert ("system.developer_as_system" in codes) is (not has_role), pid


# ---- JSON shapes ---------------------------------------------------------------------------------


TOOLS = """tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}, state: {type: string}}, required: [city, state]}
tool_choice: required
messages:
  - {role: user, content: "What's the weather in San Francisco?"}
"""


def test_sent_json_has_the_same_shape_whatever_repeat_is(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(TOOLS)
    with StandIn("openai") as server:
        server.script(*[Step(body=fixture("openai", "openai-chat-single-strict")) for _ in range(3)])
        base = server.base_url("openai")
        one = json.loads(run("send", str(path), "-p", "openai", "--base-url", base, "-f", "json").stdout)
        many = json.loads(run("send", str(path), "-p", "openai", "--base-url", base, "-f", "json", "-n", "2").stdout)
    assert isinstance(one["latency_ms"], float)
    assert "latency_ms" not in many and set(many["latency_percentiles_ms"]) == {"p50", "p95", "n"}
    assert all(isinstance(r["latency_ms"], float) for r in many["results"])
    for document in (one, many):
        assert document["effective_tool_choice"] == "required" and document["requested_tool_choice"] == "required"


def test_compare_json_has_the_same_keys_dry_and_sent(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(TOOLS)
    dry = json.loads(run("compare", str(path), "-p", "openai", "-f", "json").stdout)
    with StandIn("openai") as server:
        server.script(*[Step(body=fixture("openai", "openai-chat-single-strict")) for _ in range(3)])
        base = server.base_url("openai")
        sent = json.loads(run("compare", str(path), "-p", "openai", "--base-url", base, "--send", "-f", "json").stdout)
        repeated = json.loads(run("compare", str(path), "-p", "openai", "--base-url", base, "--send", "-n", "2",
                                  "-f", "json").stdout)
    assert set(dry) == set(sent) == {"scenario", "sent", "providers", "diff", "wall_ms"}
    assert set(dry["diff"]) == set(sent["diff"]) == {"tools", "same_tools", "arguments", "wire"}
    assert set(sent["providers"][0]) == set(repeated["providers"][0])
    assert isinstance(sent["providers"][0]["latency_ms"], float)
    assert isinstance(repeated["providers"][0]["latency_ms"], float)
    assert sent["providers"][0]["effective_tool_choice"] == "required"


def test_min_obeyed_sets_the_exit_code(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(TOOLS)
    text = {"id": "x", "object": "chat.completion", "created": 1, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "no"}, "finish_reason": "stop"}]}
    with StandIn("openai") as server:
        base = server.base_url("openai")
        server.script(*[Step(body=fixture("openai", "openai-chat-single-strict")) for _ in range(3)], Step(body=text))
        low = run("send", str(path), "-p", "openai", "--base-url", base, "-n", "4", "-k", "1", "--min-obeyed", "0.9")
        server.script(*[Step(body=fixture("openai", "openai-chat-single-strict")) for _ in range(3)], Step(body=text))
        ok = run("send", str(path), "-p", "openai", "--base-url", base, "-n", "4", "-k", "1", "--min-obeyed", "0.7")
    assert low.returncode == 4 and "obeyed 3/4 (75%), below --min-obeyed 0.9" in low.stderr
    assert ok.returncode == 0, ok.stderr


def test_compare_send_saves_each_provider_into_its_own_folder(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(TOOLS)
    with StandIn("openai") as server:
        server.script(*[Step(body=fixture("openai", "openai-chat-single-strict")) for _ in range(2)])
        result = run("compare", str(path), "-p", "openai", "--base-url", server.base_url("openai"), "--send",
                     "-n", "2", "--save", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "out" / "openai").iterdir() if p.name.endswith(".reply.json")) == \
        ["sample-001.reply.json", "sample-002.reply.json"]


# ---- the provider interface (ARCHITECTURE.md) ---------------------------------------------------


def test_every_family_module_offers_the_provider_interface():
    from toolchoice.providers.core.registry import family_modules, reasoning_families

    modules = list(family_modules())
    assert sorted(m.__name__.rsplit(".", 1)[1] for m in modules) == sorted({c.module for c in CAPABILITIES.values()})
    for module in modules:
        for name in ("translate", "parse_reply", "offered_tools", "looks_like_reply", "stream_assembler"):
            assert callable(getattr(module, name, None)), (module.__name__, name)
        assert isinstance(module.LEDGER_CODES, dict) and module.STREAM_FRAMING in ("sse", "ndjson", "eventstream")
        what, suggestion = module.REPLY_KIND
        assert what.startswith(("a ", "an ")) and suggestion.split()[0] in CAPABILITIES, module.__name__
        assert not module.looks_like_reply({}), module.__name__
        for pid in getattr(module, "CUSTOM_TOOLS", {}):
            assert CAPABILITIES[pid].module == module.__name__.rsplit(".", 1)[1]
    assert len(reasoning_families()) == len(modules)  # one family name per module, none shared
