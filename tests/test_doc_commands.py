"""The docs' commands that tests/test_readme.py does not run (trial 8e: a new user runs every command of README.md
and docs/ as written): the README's keyless first run (a ```bash block, not a ``$`` example), the prose commands
of docs/commands.md and docs/run.md, docs/parse.md's refusal line, docs/schema-doctor-init.md's `doctor` example
(skipped by test_readme: its output is the machine's, here the environment is set to the page's), docs/mock.md's
script and its --gateway preview, and docs/send.md's two-choices example against the mock. Each runs in-process (tests/cli.py) and is held to what the page says, read from the page where it shows it."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from cli import run_cli
from test_readme import KEY_VARS, ROOT, plain_blocks

README = (ROOT / "README.md").read_text()
BOX = "┏┃┡│└┗╇┩━─┓┘"


def environment(**extra: str) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if k not in KEY_VARS and k not in ("COLUMNS", "LINES")}
    env.update({"NO_COLOR": "1", "TERM": "dumb", **extra})
    return env


def keyless_block() -> list[list[str]]:
    """The README's "Keyless first run" commands, each as its words (the comment after ``#`` left out)."""
    section = re.search(r"^## Keyless first run\n.*?^```bash\n(.*?)^```$", README, re.M | re.S)
    assert section is not None
    return [shlex.split(line, comments=True) for line in section.group(1).splitlines() if line.strip()]


def test_the_readme_s_keyless_first_run_runs_as_written_without_a_key(tmp_path):
    lines = keyless_block()
    assert [words[:2] for words in lines] == [["toolchoice", "init"], ["toolchoice", "compare"], ["toolchoice", "render"],
                                               ["toolchoice", "render"], ["toolchoice", "compare"], ["toolchoice", "run"]]
    outputs = []
    for words in lines:
        result = run_cli(words[1:], env=environment(COLUMNS="80"), cwd=tmp_path)
        assert result.returncode == 0, (words, result.stderr)
        outputs.append(result.stdout + result.stderr)
    assert outputs[0].strip() == "wrote scenario.yaml: try `toolchoice compare scenario.yaml`"
    assert (tmp_path / "scenario.yaml").is_file()
    # "keys stay $VARS": the Anthropic request shows its header's variable, the curl command Gemini's
    assert "x-api-key: $ANTHROPIC_API_KEY" in outputs[2]
    assert outputs[3].startswith("# gemini\n") and '"x-goog-api-key: $GEMINI_API_KEY"' in outputs[3]
    # "try another choice": both providers' rows, with the choice the README names
    # (at 80 columns the endpoint column is left out rather than a host folded: test_user_trial10)
    assert re.search(r"^│ openai +│ (?:[^│]+│ )?required ", outputs[4], re.M), outputs[4]
    assert re.search(r'^│ anthropic +│ (?:[^│]+│ )?\{"type":"any', outputs[4], re.M), outputs[4]
    # "the agent loop": step 1's request, and what the later steps depend on (the starter's loop: section)
    assert '"tool_choice": {' in outputs[5] and "later steps depend on the replies" in outputs[5], outputs[5]


@pytest.mark.parametrize("columns", [80, 60])
def test_the_keyless_first_run_s_tables_stay_whole(tmp_path, columns):
    run_cli(["init", "scenario.yaml"], env=environment(), cwd=tmp_path)
    for words in keyless_block()[1:]:
        if "curl" in words:
            continue  # a curl command is one line per part, pasted as is
        result = run_cli(words[1:], env=environment(COLUMNS=str(columns)), cwd=tmp_path)
        table = [line for line in result.stdout.splitlines() if line[:1] in BOX]
        assert table, words
        assert max(len(line.rstrip()) for line in table) <= columns, words
        assert all(line.rstrip()[-1] in BOX for line in table if line.strip()), words  # every row closed: none cut


def test_compare_on_several_scenarios_gives_a_result_each_a_summary_line_each_and_the_worst_code():
    """docs/commands.md: `toolchoice compare configs/*.yaml`: one result per scenario, then a summary line each,
    and the exit code of the worst."""
    assert "`toolchoice compare configs/*.yaml`: one result per scenario, then a\nsummary line each, and the exit code of the worst" in (
        ROOT / "docs" / "commands.md").read_text()
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "configs").glob("*.yaml"))
    result = run_cli(["compare", *files], env=environment(COLUMNS="100"), cwd=ROOT)
    out = result.stdout + result.stderr
    assert out.count("· dry run (nothing sent)") == len(files)
    # a line longer than the terminal goes on under its path, indented (test_compare_narrow): one line each, joined
    summary = out[out.index(f"{len(files)} scenarios:\n"):].replace("\n     ", " ").splitlines()[1:]
    codes = {line.split()[1].rstrip(":"): int(line.split()[0]) for line in summary}
    assert sorted(codes) == files
    # strict-schema.yaml's and think-forced.yaml's translations are refused on some provider (the README's code 3)
    assert codes["configs/strict-schema.yaml"] == 3 and codes["configs/think-forced.yaml"] == 3
    assert result.returncode == max(codes.values()) == 3


def test_a_replay_on_another_provider_puts_the_tool_results_in_one_user_turn_after_the_tool_use():
    """docs/run.md, --replay: `-p anthropic` on a loop recorded on openai puts each tool_result first in one user
    turn after its tool_use turn (the page's `runs/` is a folder `--save` wrote; the README's recorded loop here)."""
    assert "`toolchoice run configs/planner-loop.yaml -p anthropic --replay runs/ --format json` puts each\n  `tool_result` first" in (
        ROOT / "docs" / "run.md").read_text()
    result = run_cli(["run", "configs/planner-loop.yaml", "-p", "anthropic", "--replay",
                      "tests/data/loops/planner-loop-gemma-270m", "--format", "json"], env=environment(), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    steps = json.loads(result.stdout)["runs"][0]["loops"][0]["steps"]
    messages = steps[1]["request"]["body"]["messages"]
    uses = [i for i, m in enumerate(messages) if isinstance(m["content"], list)
            and any(part["type"] == "tool_use" for part in m["content"])]
    assert uses
    for i in uses:
        assert messages[i]["role"] == "assistant"
        after = messages[i + 1]
        assert after["role"] == "user" and after["content"][0]["type"] == "tool_result"
        ids = {part["id"] for part in messages[i]["content"] if part["type"] == "tool_use"}
        assert {part["tool_use_id"] for part in after["content"] if part["type"] == "tool_result"} == ids


def test_parse_refuses_a_body_of_another_provider_with_the_line_the_page_shows():
    page = (ROOT / "docs" / "parse.md").read_text()
    shown = re.search(r"`(toolchoice: error: this body looks like an OpenAI Chat Completions reply.*?)`\.", page, re.S)
    assert shown is not None
    result = run_cli(["parse", "tests/data/responses/openai/openai-chat-nested-args.json", "-p", "anthropic"],
                     env=environment(COLUMNS="60"), cwd=ROOT)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == " ".join(shown.group(1).split()) + "\n"


def doctor_example() -> tuple[str, list[str]]:
    page = (ROOT / "docs" / "schema-doctor-init.md").read_text()
    for lines in plain_blocks(page):
        if lines and lines[0].startswith("$ toolchoice doctor "):
            return lines[0][2:], lines[1:]
    raise AssertionError("no doctor example")


def test_doctor_prints_what_the_page_shows_with_the_page_s_environment():
    """The page's run had OPENAI_API_KEY set and a CA bundle named by both variables; the version lines are the
    machine's (not compared)."""
    command, shown = doctor_example()
    assert "with `OPENAI_API_KEY` set" in (ROOT / "docs" / "schema-doctor-init.md").read_text()
    env = environment(COLUMNS="100", OPENAI_API_KEY="sk-doc-example-key-0123456789",
                      SSL_CERT_FILE="/etc/ssl/certs/ca-certificates.crt", SSL_CERT_DIR="/etc/ssl/certs")
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        env.pop(name, None)
    result = run_cli(shlex.split(command)[1:], env=env, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    fresh = [line.rstrip() for line in result.stdout.splitlines()]
    start = shown.index("keys (names only; values are never shown):")
    assert fresh[fresh.index(shown[start]):] == shown[start:]
    assert fresh[0].startswith("toolchoice ") and "sk-doc-example" not in result.stdout + result.stderr


def test_the_mock_page_s_script_is_a_script_the_mock_reads():
    from toolchoice.providers.core.mock.script import load_script

    page = (ROOT / "docs" / "mock.md").read_text()
    block = next(b for b in re.findall(r"^```yaml\n(.*?)^```$", page, re.M | re.S) if b.startswith("replies:"))
    path = Path(ROOT / "tests" / "data")  # only to name the folder the loader may resolve against
    script = load_script_text(load_script, block, path)
    assert script.step(5) is not None  # steps: 5 wins over the list's fifth reply
    statuses = [script.step(n).status if script.step(n) is not None else None for n in range(1, 12)]
    assert statuses[6:8] == [429, 500]  # the list's 7th and 8th replies, in order


def load_script_text(load_script, text: str, folder: Path):
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "faults.yaml"
        file.write_text(text)
        return load_script(str(file))


REPLAY = ["run", "configs/planner-loop.yaml", "-p", "openai", "--model", "gemma-3-270m", "--replay",
          "tests/data/loops/planner-loop-gemma-270m"]


def test_the_step_table_fits_80_and_60_columns_as_the_run_page_says():
    """docs/run.md under the replayed loop: bordered at 120, short headers without side borders at 100 (the page's
    example, held by test_readme), one bordered row per step at 80 and 60 (the wire form's values whole: trial13a)."""
    page = " ".join((ROOT / "docs" / "run.md").read_text().split())
    assert "without side borders under short ones (`choice`, `wire`, `tokens`: at 100, above)" in page
    assert "(`step 1 · choice {tool: plan_tool_call} · wire ...`: at 80 and 60," in page
    assert "bordered under the full headers where every word fits (this example at 120 columns)" in page
    at = {}
    for columns in (120, 100, 80, 60):
        result = run_cli(REPLAY, env=environment(COLUMNS=str(columns)), cwd=ROOT)
        assert result.returncode == 0, result.stderr
        at[columns] = [line.replace("\u00a0", " ").rstrip() for line in result.stdout.splitlines()]
        assert max(len(line) for line in at[columns]) <= columns
    assert at[120][1].startswith("┏") and "┃ step ┃ tool_choice" in at[120][2]
    assert re.fullmatch(r"step +choice +wire +calls +verdict +latency +tokens", at[100][1]) and "┃" not in "".join(at[100])
    for columns in (80, 60):
        assert at[columns][1][0] == "┌" and at[columns][2].startswith("│ step 1 · choice {tool: plan_tool_call} ·")
        steps = [line for line in at[columns] if line.startswith("│ step ")]
        assert [line.split()[2] for line in steps] == ["1", "2", "3", "4", "5", "6"]


def test_a_replayed_loop_s_trace_out_reads_back_as_one_run_with_its_per_step_tool_choice(tmp_path):
    """docs/traces.md: `run --trace-out FILE` writes every loop as one trace, one span per step, and `toolchoice
    trace` reads it back to the same per-step tool_choice. A replay answers at once, so every step ended at about
    the same instant; the spans were laid out as `end - recorded latency`, and step 2 (63 s) then started before
    step 1 (52 s): the reader, which orders spans by their start, read the loop back as four runs."""
    out = tmp_path / "out.json"
    result = run_cli([*REPLAY, "--trace-out", str(out)], env=environment(COLUMNS="100"), cwd=ROOT)
    assert result.returncode == 0, result.stderr
    back = run_cli(["trace", str(out), "--format", "json"], env=environment(), cwd=ROOT)
    assert back.returncode == 0, back.stderr
    scenario = json.loads(back.stdout)
    assert "runs" not in scenario, scenario.get("runs")
    # the page's replayed loop: the forced plan at step 1, then auto (docs/run.md's example table)
    assert [step.get("tool_choice") for step in scenario["loop"]["steps"]] == [{"tool": "plan_tool_call"}] + ["auto"] * 5
    spans = [s for rs in json.loads(out.read_text())["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]
    starts = [int(s["startTimeUnixNano"]) for s in spans]
    ends = [int(s["endTimeUnixNano"]) for s in spans]
    assert all(ends[i] <= starts[i + 1] for i in range(len(spans) - 1))  # a step starts once the one before ended
    # each span keeps its step's recorded latency (docs/run.md's table: 52361 ms, 63583 ms, ...)
    assert [round((e - s) / 1e6) for s, e in zip(starts, ends)] == [52361, 63583, 20132, 22825, 18769, 26377]


def test_the_hosted_tools_example_renders_refused_without_allow_env_and_sent_with_it(tmp_path):
    """docs/tool-surfaces.md: its ```yaml block saved as mcp.yaml; without --allow-env even a dry render is REFUSED
    (env.not_allowed, exit 3); `toolchoice render mcp.yaml -p openai-responses --allow-env DEEPWIKI_TOKEN` renders,
    the header kept as its $NAME, with the warning env.allowed."""
    page = (ROOT / "docs" / "tool-surfaces.md").read_text()
    block = next(b for b in re.findall(r"^```yaml\n(.*?)^```$", page, re.M | re.S) if "type: mcp" in b)
    (tmp_path / "mcp.yaml").write_text(block)
    command = re.search(r"`toolchoice (render mcp\.yaml [^`]*)`", page)
    assert command is not None and "--allow-env DEEPWIKI_TOKEN" in command.group(1)
    env = environment(COLUMNS="100", DEEPWIKI_TOKEN="dw-secret-token-0123456789")
    refused = run_cli(["render", "mcp.yaml", "-p", "openai-responses"], env=env, cwd=tmp_path)
    assert refused.returncode == 3 and "REFUSED" in refused.stdout and "env.not_allowed" in refused.stdout
    allowed = run_cli(shlex.split(command.group(1)), env=env, cwd=tmp_path)
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    assert '"Authorization": "Bearer $DEEPWIKI_TOKEN"' in allowed.stdout and "env.allowed" in allowed.stdout
    assert "dw-secret" not in refused.stdout + refused.stderr + allowed.stdout + allowed.stderr


def test_the_timeout_bounds_keys_md_states_are_the_commands():
    """docs/keys.md: --timeout is 0.1 ≤ S ≤ 3600 on the commands that send (and --results-timeout), 0 < S ≤ 3600
    for an MCP server's (tools --timeout, from: {timeout: S})."""
    page = " ".join((ROOT / "docs" / "keys.md").read_text().split())
    assert ("`--timeout` must be a finite number of seconds, 0.1 ≤ S ≤ 3600 on the commands that send (and "
            "`--results-timeout`), 0 < S ≤ 3600 for an MCP server's (`tools --timeout`, `from: {timeout: S}`)") in page
    env = environment(OPENAI_API_KEY="sk-unused-0123456789")
    for value, code in (("0.05", 2), ("0.1", 0), ("3600", 0), ("3601", 2)):
        for command in (["send", "--dry-run"], ["run", "--dry-run"]):
            result = run_cli([command[0], "configs/weather.yaml", "-p", "openai", *command[1:], "--timeout", value],
                             env=env, cwd=ROOT)
            assert result.returncode == code, (command, value, result.stderr)
    too_long = run_cli(["run", "configs/weather.yaml", "-p", "openai", "--dry-run", "--results-timeout", "0.05"],
                       env=env, cwd=ROOT)
    assert too_long.returncode == 2
    for value in ("0", "-1", "3601", "nan"):
        result = run_cli(["tools", "--mcp", "true", "--timeout", value], env=env, cwd=ROOT)
        assert result.returncode == 2 and result.stderr == (
            "toolchoice: error: --timeout must be a number of seconds above 0, at most 3600\n"), value


def test_the_mock_s_line_names_the_server_call_it_answered_not_text(tmp_path, capsys):
    """docs/tool-surfaces.md's hosted-tools scenario sent to `toolchoice mock -p openai-responses`: the reply holds
    an `mcp_call` item (send says "run by the provider mcp_call deepwiki/ask_question"); the mock's own line said
    `text` and its jsonl `calls: []`, as if it had answered in text. The line and the record name the server call."""
    import jsonschema

    from toolchoice.cli.mock_cmd import _pretty
    from toolchoice.providers.core.mock.server import running_mock

    page = (ROOT / "docs" / "tool-surfaces.md").read_text()
    block = next(b for b in re.findall(r"^```yaml\n(.*?)^```$", page, re.M | re.S) if "type: mcp" in b)
    (tmp_path / "mcp.yaml").write_text(block)
    env = environment(COLUMNS="100", OPENAI_API_KEY="sk-unused-0123456789", DEEPWIKI_TOKEN="dw-secret-token-0123456789")
    with running_mock("openai-responses") as mock:
        sent = run_cli(["send", "mcp.yaml", "-p", "openai-responses", "--allow-env", "DEEPWIKI_TOKEN", "--base-url",
                        mock.base_url, "--retries", "0"], env=env, cwd=tmp_path)
        program = run_cli(["send", "mcp.yaml", "-p", "openai-responses", "--allow-env", "DEEPWIKI_TOKEN", "--base-url",
                           mock.base_url, "--retries", "0", "--tool-choice", "{type: programmatic_tool_calling}"],
                          env=env, cwd=tmp_path)
        records = list(mock.records)
    assert sent.returncode == 0, sent.stdout + sent.stderr
    assert program.returncode == 0, program.stdout + program.stderr
    schema = json.loads((ROOT / "cli" / "schemas" / "mock.schema.json").read_text())
    # `toolchoice schema mock` admits both lines (its neutral tool_choice had no place for a Responses-only choice)
    jsonschema.validate(records[1], schema)
    assert records[1]["tool_choice"] == {"type": "programmatic_tool_calling"} and "server_calls" not in records[1]
    records = records[:1]
    assert "run by the provider  mcp_call deepwiki/ask_question" in sent.stdout
    (record,) = records
    assert record["calls"] == [] and record["server_calls"] == [{"type": "mcp", "server_label": "deepwiki",
                                                                  "name": "ask_question"}]
    jsonschema.validate(record, schema)
    capsys.readouterr()
    _pretty(record)
    line = capsys.readouterr().out
    assert "  200  server call deepwiki/ask_question  " in line and "  text  " not in line, line


def _page_command(page: str, starts: str, base_url: str) -> list[str]:
    """The page's ```bash line that starts with `starts`, as its words (the comment after # left out), the
    printed base URL in place of http://127.0.0.1:PORT..."""
    for block in re.findall(r"^```bash\n(.*?)^```$", page, re.M | re.S):
        for line in block.splitlines():
            if line.startswith(starts):
                return shlex.split(line.replace("http://127.0.0.1:PORT/v1", base_url), comments=True)
    raise AssertionError(f"no ```bash line starting {starts!r}")


@pytest.mark.parametrize("columns", [80, 60])
def test_send_md_s_two_choices_example_prints_what_the_page_says(tmp_path, columns):
    """docs/send.md: the scenario asking n: 2 and the mock script whose choice 1 disobeys, saved under the page's
    names; the page's send command against the mock (in-process, on 127.0.0.1) draws each choice, says
    "1 of 2 choices obeyed" and exits 4."""
    from toolchoice.providers.core.mock.script import load_script
    from toolchoice.providers.core.mock.server import running_mock

    page = (ROOT / "docs" / "send.md").read_text()
    scenario, script = (b for b in re.findall(r"^```yaml\n(.*?)^```$", page, re.M | re.S)
                        if "extra: {n: 2}" in b or b.startswith("replies:\n  - choices:"))
    (tmp_path / "two-choices.yaml").write_text(scenario)
    (tmp_path / "second-disobeys.yaml").write_text(script)
    mock_words = _page_command(page, "toolchoice mock ", "")
    assert mock_words == ["toolchoice", "mock", "-p", "openai", "--script", "second-disobeys.yaml", "&"]
    with running_mock("openai", script=load_script(str(tmp_path / "second-disobeys.yaml"))) as mock:
        words = _page_command(page, "OPENAI_API_KEY=unused toolchoice send ", mock.base_url)
        result = run_cli(words[2:], env=environment(COLUMNS=str(columns), OPENAI_API_KEY="unused"), cwd=tmp_path)
    out = result.stdout
    assert result.returncode == 4, result.stderr
    lines = out.splitlines()
    assert "choice 0" in lines and "choice 1" in lines
    assert "✔ obeyed" in out and "✘ disobeyed: no_call" in out and "1 of 2 choices obeyed" in out
    assert max(len(line) for line in lines) <= columns


@pytest.mark.parametrize("gateway", [True, False])
def test_mock_md_s_gateway_example_gets_the_200_the_page_says_and_its_400_without_the_flag(gateway):
    """docs/mock.md "Preview the API": the page's run against `toolchoice mock -p mistral` (in-process, on
    127.0.0.1): with --gateway the ids are rewritten and the mock answers 200; without it, the mock's 400."""
    from toolchoice.providers.core.mock.server import running_mock

    page = (ROOT / "docs" / "mock.md").read_text()
    assert _page_command(page, "toolchoice mock ", "")[:4] == ["toolchoice", "mock", "-p", "mistral"]
    with running_mock("mistral") as mock:
        words = _page_command(page, "MISTRAL_API_KEY=unused toolchoice run ", mock.base_url)
        if not gateway:
            words.remove("--gateway")
        result = run_cli([*words[2:], "-f", "json"], env=environment(MISTRAL_API_KEY="unused"), cwd=ROOT)
        sent = list(mock.records)
    step = json.loads(result.stdout)["runs"][0]["loops"][0]["steps"][0]
    [result_id] = [r["id"] for r in sent[0]["results"]]  # the history's tool result, as the mock received it
    if gateway:  # rewritten to Mistral's 9 alphanumerics, answered 200
        assert result.returncode == 0 and step["status"] == 200, result.stdout[-2000:]
        assert re.fullmatch(r"[a-zA-Z0-9]{9}", result_id) and sent[0]["status"] == 200
    else:  # sent as written (toolu_01A), the mock's 400
        assert result.returncode == 1 and step["status"] == 400, result.stdout[-2000:]
        assert result_id == "toolu_01A" and sent[0]["status"] == 400
