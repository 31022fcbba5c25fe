"""What trial18e's new user left (session 18, trial18k): a system prompt pasted in Gemini's shape, a text answer cut
short in `run`'s narrow layouts, and a tool_choice naming an undeclared tool pointed at the wrong one. Each test runs
the real command-line entry (tests/cli.py) and reads what the user sees: the one-line error (exit 2, no traceback),
the step table and its one-record-a-row layout at 80 and 60 columns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from cli import run_cli, refused_saying, user_env
from toolchoice.providers import running_mock

ROOT = Path(__file__).resolve().parent.parent

TOOLS = """\
tools:
  - {name: refund_order, parameters: {type: object, properties: {order_id: {type: string}}}}
  - {name: lookup_order, parameters: {type: object, properties: {order_id: {type: string}}}}
"""


# ---- a system prompt in Gemini's (or Anthropic's) shape: said as the scenario writes it ----------------------------

_GEMINI_WAY = 'or convert a request your agent sent: toolchoice trace REQUEST.json -p gemini (docs/traces.md'


@pytest.mark.parametrize(("written", "where", "said"), [
    ("messages:\n  - {role: system, parts: [{text: You are a support agent.}]}\n"
     "  - {role: user, content: Refund A-17}\n",
     ":5:20:", 'a system message with parts (Gemini\'s form) (write the text as content: "..." or as the top-level '
               'system: "..."; ' + _GEMINI_WAY),
    ("messages:\n  - {role: developer, parts: [{text: Be brief.}]}\n  - {role: user, content: Refund A-17}\n",
     ":5:23:", "a developer message with parts (Gemini's form)"),
    ("systemInstruction: {parts: [{text: You are a support agent.}]}\nmessages: [{role: user, content: Refund A-17}]\n",
     ":4:1:", "unknown key 'systemInstruction' in the scenario (Gemini's system instruction) (write the text as "
              'system: "..." or as a first message {role: system, content: "..."}; ' + _GEMINI_WAY),
    ("system_instruction: {parts: [{text: Hi}]}\nmessages: [{role: user, content: Refund A-17}]\n",
     ":4:1:", "unknown key 'system_instruction' in the scenario (Gemini's system instruction)"),
    ("system: {parts: [{text: You are a support agent.}]}\nmessages: [{role: user, content: Refund A-17}]\n",
     ":4:9:", "system is text, not {parts: [...]} (Gemini's form) (write the text as system: \"...\""),
    ("system: [{type: text, text: You are a support agent.}]\nmessages: [{role: user, content: Refund A-17}]\n",
     ":4:9:", "system is text, not a list of content blocks (Anthropic's form) (write the text as system: \"...\" or "
              "as a first message {role: system, content: \"...\"}; or convert a request your agent sent: toolchoice "
              "trace REQUEST.json -p anthropic"),
])
def test_a_system_prompt_pasted_in_an_apis_shape_says_how_to_write_it(tmp_path: Path, written: str, where: str,
                                                                      said: str) -> None:
    """`{role: system, parts: [...]}` read "unknown key 'parts' in a system message (known keys: role, content)",
    Gemini's top-level systemInstruction "unknown key ... (known keys: name, description, tools, ...)", and
    `system: {parts: ...}` "system must be a string, not dict {...} (quote it if YAML read it as something else)",
    where a user message with parts already said what it was (trial18e)."""
    scenario = tmp_path / "agent.yaml"
    scenario.write_text(TOOLS + written, encoding="utf-8")
    line = refused_saying(run_cli(["render", str(scenario), "-p", "gemini"], env=user_env()), f"{scenario}{where}", said)
    assert "known keys" not in line and "quote it" not in line


def test_the_conversion_the_system_hint_names_reads_geminis_system_instruction(tmp_path: Path) -> None:
    """The hint's way out, followed: a generateContent request (systemInstruction and contents in parts, as the REST
    reference writes them) saved as {url, body} and given to `trace -p gemini` comes out as system: text, which the
    scenario then sends as Gemini's systemInstruction again."""
    request = tmp_path / "request.json"
    request.write_text(json.dumps({
        "url": "https://generativelanguage.googleapis.com/v1beta/models/gemini-3.5-flash:generateContent",
        "body": {"systemInstruction": {"parts": [{"text": "You are a support agent."}]},
                 "contents": [{"role": "user", "parts": [{"text": "Refund A-17"}]}],
                 "tools": [{"functionDeclarations": [{"name": "lookup_order", "parameters": {
                     "type": "object", "properties": {"order_id": {"type": "string"}}}}]}],
                 "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}}}), encoding="utf-8")
    out = tmp_path / "converted.yaml"
    done = run_cli(["trace", str(request), "-p", "gemini", "--scenario-out", str(out)], env=user_env())
    assert done.returncode == 0, done.stderr
    assert yaml.safe_load(out.read_text(encoding="utf-8"))["system"] == "You are a support agent."
    rendered = run_cli(["render", str(out), "-p", "gemini", "-f", "json"], env=user_env())
    assert rendered.returncode == 0, rendered.stderr
    body = json.loads(rendered.stdout)["request"]["body"]
    assert body["systemInstruction"] == {"parts": [{"text": "You are a support agent."}]}


# ---- run: a text answer takes the room its cell has -----------------------------------------------------------------

AGENT = TOOLS + """\
tool_choice: required
messages: [{role: user, content: Refund order A-17 please}]
loop: {max_steps: 3, after_call: auto, results: {lookup_order: {status: delivered}, refund_order: refunded}}
"""
LONG = ("Order A-17 was delivered on Tuesday and the refund of 42.00 has been issued to the original card; it should "
        "arrive within five business days.")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], str]:
    """`run` on Gemini against the mock, step 2 a text answer: the mock's own (short) and a long one, at 80 and 60."""
    here = tmp_path_factory.mktemp("trial18k")
    (here / "agent.yaml").write_text(AGENT, encoding="utf-8")
    (here / "long.yaml").write_text(yaml.safe_dump({"replies": [{"call": "lookup_order"}, {"text": LONG}]}),
                                    encoding="utf-8")
    out = {}
    for kind, script in (("short", None), ("long", here / "long.yaml")):
        for columns in (80, 60):
            with running_mock("gemini", script=script) as mock:
                done = run_cli(["run", str(here / "agent.yaml"), "-p", "gemini", "--base-url", mock.base_url],
                               env=user_env(columns, GEMINI_API_KEY="unused"))
            assert done.returncode == 0, done.stderr
            assert all(len(line) <= columns for line in done.stdout.splitlines()), done.stdout
            out[kind, columns] = done.stdout
    return out


def _record(stdout: str, step: int) -> str:
    """One step's record of the one-record-a-row layout, its lines joined with spaces (borders taken off)."""
    table = stdout.split("┌")[1].split("└")[0]
    records = [" ".join(" ".join(line.strip("│ ") for line in part.splitlines()[1:]).split())  # a label's NBSP too
               for part in table.split("├")]
    return next(record for record in records if record.startswith(f"step {step} "))


def test_a_text_answer_in_the_one_record_a_row_layout_takes_the_room_there_is(runs: dict[tuple[str, int], str]) -> None:
    """At 60 columns each step is a record of 56-cell lines, yet the answer was cut to 30 characters: "(no call)
    toolchoice mock: a text answe…", the rest of the line empty. The mock's answer is now whole; a long one takes
    two lines' room and is cut after a word."""
    short = _record(runs["short", 60], 2)
    assert "calls (no call) toolchoice mock: a text answer (no tool call). · verdict ✔ obeyed" in short, short
    long = _record(runs["long", 60], 2)
    preview = long.split("calls (no call) ")[1].split(" · verdict")[0]
    assert preview.endswith("…") and LONG.startswith(preview[:-1]) and LONG[len(preview) - 1] == " "  # after a word
    assert 60 < len(preview) <= 2 * 56, preview


def _cell(stdout: str, step: int) -> str:
    """The calls cell of a step in the 80-column table (no side borders: its columns by the header's positions)."""
    lines = stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("step "))
    start, end = lines[header].index("calls"), lines[header].index("verdict")
    rows = lines[header + 2:]
    first = next(i for i, line in enumerate(rows) if line[:5].strip() == str(step))
    cell = [rows[first][start:end].strip()]
    for line in rows[first + 1:]:
        if line[:5].strip() or not line[start:end].strip():
            break
        cell.append(line[start:end].strip())
    return " ".join(cell)


def test_a_text_answer_in_the_step_table_fills_its_cell_and_the_table_stays_whole(runs: dict[tuple[str, int],
                                                                                          str]) -> None:
    """At 80 columns the step table keeps its layout (no line past 80: the fixture checks), the answer two lines of
    its column, cut after a word where longer."""
    for kind in ("short", "long"):
        cell = _cell(runs[kind, 80], 2)
        assert cell.startswith("(no call) ") and cell.endswith("…"), cell
        text = cell.removeprefix("(no call) ")[:-1]
        answer = LONG if kind == "long" else "toolchoice mock: a text answer (no tool call)."
        assert answer.startswith(text) and answer[len(text)] == " ", cell  # after a word: `on T…` was cut inside one
    assert "final answer  Order A-17 was delivered" in runs["long", 80]  # the whole answer under the table, as before


# ---- tool_choice naming an undeclared tool: the tool it likely meant -------------------------------------------------

SCHEMAS = ROOT / "tests" / "data" / "schemas"  # real tool sets (BFCL, github-mcp-server): SOURCES.md there


@pytest.mark.parametrize(("tools", "written", "said"), [
    # the trial: difflib ranked refund_order first (more letters in common); get and lookup are the same kind of act
    (None, "get_order", "(did you mean lookup_order?)"),
    (None, "lokup_order", "(did you mean lookup_order?)"),  # a typo stays difflib's
    (["bfcl-live-parallel-multiple-2-2-0-korean-enum-default"], "get_weather",
     "(did you mean OpenWeatherMap.get_current_weather?)"),  # difflib: no suggestion at all
    (["bfcl-live-parallel-multiple-2-2-0-korean-enum-default"], "search_news", "(did you mean HNA_NEWS.search?)"),
    (["bfcl-live-multiple-93-41-0-empty-properties"], "get_servers", "(did you mean list_servers?)"),
    # two tools fit as well: both named, not the first difflib finds
    (["bfcl-live-multiple-93-41-0-empty-properties"], "add_server",
     "(did you mean add_mtnards_server or add_postgres_server?)"),
    (["github-mcp-issue-write", "github-mcp-update-issue-labels"], "update_issue",
     "(did you mean update_issue_labels?)"),
    (["github-mcp-issue-write", "github-mcp-update-issue-labels"], "create_issue",
     "(did you mean issue_write or update_issue_labels?)"),
])
def test_a_tool_choice_naming_no_declared_tool_suggests_the_tool_it_likely_meant(tmp_path: Path,
                                                                                  tools: list[str] | None,
                                                                                  written: str, said: str) -> None:
    declared = TOOLS if tools is None else "tools:\n" + "".join(f"  - from: {SCHEMAS / name}.json\n" for name in tools)
    scenario = tmp_path / "choice.yaml"
    scenario.write_text(declared + f"tool_choice: {written}\nmessages: [{{role: user, content: hi}}]\n",
                        encoding="utf-8")
    refused_saying(run_cli(["render", str(scenario), "-p", "openai"], env=user_env()),
             f"tool_choice names '{written}', which is not a declared tool", said)


def test_a_loop_step_offering_an_undeclared_tool_gets_the_same_suggestion(tmp_path: Path) -> None:
    """loop.steps[].tools, loop.results and loop.stop.tool name tools too, and suggest the same way."""
    scenario = tmp_path / "loop.yaml"
    scenario.write_text(TOOLS + "messages: [{role: user, content: hi}]\nloop:\n  steps: [{tools: [get_order]}]\n",
                        encoding="utf-8")
    refused_saying(run_cli(["run", str(scenario), "-p", "gemini", "--dry-run"], env=user_env()),
             "loop step 1 offers 'get_order', which is not a declared tool (did you mean lookup_order?)")


# ---- send and compare --send at 60 columns: a text answer drawn as what it is -----------------------------------------


@pytest.fixture(scope="module")
def sent(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """`send` and `compare --send` at 60 columns, the reply the long text answer (tool_choice auto)."""
    here = tmp_path_factory.mktemp("trial18k-send")
    (here / "agent.yaml").write_text(AGENT.replace("tool_choice: required", "tool_choice: auto"), encoding="utf-8")
    (here / "text.yaml").write_text(yaml.safe_dump({"replies": [{"text": LONG}]}), encoding="utf-8")
    out = {}
    for command in ("send", "compare"):
        with running_mock("gemini", script=here / "text.yaml") as mock:
            done = run_cli([command, str(here / "agent.yaml"), "-p", "gemini", "--base-url", mock.base_url,
                            *(["--send"] if command == "compare" else [])], env=user_env(60, GEMINI_API_KEY="unused"))
        assert done.returncode == 0, done.stderr
        assert all(len(line) <= 60 for line in done.stdout.splitlines()), done.stdout
        out[command] = done.stdout
    return out


def test_sends_text_answer_goes_on_under_its_text_not_under_its_label(sent: dict[str, str]) -> None:
    """`text  Order A-17 ... refund of` was followed by `42.00 has been ...` at the line's start, where the next
    label (`finish_reason`) starts too; run's final answer hangs under its text."""
    lines = sent["send"].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("text  "))
    rest = lines[first + 1:lines.index(next(line for line in lines if line.startswith("finish_reason")))]
    assert rest and all(line.startswith(" " * 6) and line[6] != " " for line in rest), lines
    assert " ".join(" ".join(lines[first:first + 1 + len(rest)]).split()) == "text " + LONG


def test_compare_sends_text_answer_says_where_it_is_cut(sent: dict[str, str]) -> None:
    """The calls cell held the answer's first 60 characters with no mark, `... the refund of 42.00` read as the whole
    answer; it is cut after a word with "…"."""
    table = sent["compare"].split("┡")[1].split("└")[0]
    start = table.splitlines()[1].index("(text)")
    cell = " ".join(line[start:].split("│")[0].strip() for line in table.splitlines()[1:] if line.strip())
    assert cell.startswith("(text) Order A-17") and cell.endswith("…"), cell
    shown = cell.removeprefix("(text) ")[:-1]
    assert LONG.startswith(shown) and LONG[len(shown)] == " " and len(shown) <= 60, cell


@pytest.mark.parametrize("width", [12, 19, 21, 33, 56])
def test_a_preview_cut_to_its_lines_is_drawn_in_them_by_the_printer(width: int) -> None:
    """table_fit.preview_cut's lines are the printer's: rich wraps what it kept in at most the lines it was cut to,
    none wider than the cell, and what it kept is the answer's start, up to a word, then "…"."""
    import io

    from rich.console import Console

    from toolchoice.cli.table_fit import preview_cut

    for text in (LONG, "(no call) " + LONG, "toolchoice mock: a text answer (no tool call)."):
        for lines in (1, 2, 3):
            kept = preview_cut(text, width, lines)
            console = Console(width=width, file=io.StringIO(), markup=False, emoji=False, highlight=False)
            console.print(kept, overflow="fold")
            drawn = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
            assert len(drawn) <= max(lines, 1) and all(len(line) <= width for line in drawn), (kept, drawn)
            if kept != text:
                assert kept.endswith("…") and text.startswith(kept[:-1]), kept
                assert text[len(kept) - 1] == " " or " " not in kept, kept  # after a word, where one was kept


def test_what_the_provider_ran_goes_on_under_its_label_at_60_columns() -> None:
    """Anthropic's recorded tool search reply (tests/data/responses/anthropic, SOURCES.md there): `run by the provider
    tool_search tool_search_tool_regex` went on at the line's start with `loaded get_temp_data`, as the text did."""
    reply = ROOT / "tests" / "data" / "responses" / "anthropic" / "anthropic-tool-search-regex.json"
    done = run_cli(["parse", str(reply), "-p", "anthropic"], env=user_env(60))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("run by the provider  "))
    assert lines[first + 1] == "    loaded get_temp_data", lines
    assert lines[first + 2].startswith("text  ") and lines[first + 3].startswith(" " * 6 + "to get the weather"), lines
    assert all(len(line) <= 60 for line in lines)
