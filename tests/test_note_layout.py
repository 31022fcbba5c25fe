"""Lines under run's step table (a step's note, the `ended:` line) and compare's finding lines that quote a wire
value (trial13m): Anthropic's refusal of a forced tool with a thinking budget quotes the tool_choice it would send,
`{"type":"tool","name":"...","disable_parallel_tool_use":true}`, and the thinking object. rich folded that JSON at
any character (`"check_the_forecast_for_a_city_by_` over `its_name_x"`, `"disable` over `_parallel_tool_use"`);
now it breaks between members as the ledger table does (cli/call_lines.py), each key and value whole, under the
note's hanging indent. So does the step table's verdict cell that quotes the same refusal (trial13n: rich folded
it inside `"disable_parallel_tool_use"` at 60 columns and inside the name at 80), in the one-record-a-row layout
and in a bordered table's verdict column. The words are the command's own: its `-f json` document holds them. `run` goes to the
Anthropic mock on 127.0.0.1, in-process."""

from __future__ import annotations

import json
import re

import pytest
from test_call_layout import environment
from test_ledger_layout import quoted

from cli import run_cli
from toolchoice.providers.core.mock.server import running_mock

NAME = "check_the_forecast_for_a_city_by_its_name_x"  # 43: its member fits a line at 60 columns, its object not
SCENARIO = f"""tools:
  - name: {NAME}
    parameters: {{type: object, properties: {{city: {{type: string}}}}, required: [city]}}
  - name: answer
    parameters: {{type: object, properties: {{text: {{type: string}}}}, required: [text]}}
tool_choice: {NAME}
parallel_tool_calls: false
messages:
  - {{role: user, content: Weather in Paris?}}
providers:
  anthropic: {{model: claude-sonnet-4-6, max_tokens: 4096, thinking: {{budget: 2048}}}}
"""
RUN_WIDTHS = (60, 80, 120)
TABLE_WIDTHS = RUN_WIDTHS + (200,)  # at 200 the steps are a bordered table: the verdict a column of its own
# compare's finding lines have no indent: at 120 columns rich puts the 98-character object on a line of its own
COMPARE_WIDTHS = (60, 80)
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*":?|-?\d+(?:\.\d+)?|true|false|null')


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> dict:
    """Each command's pretty output at each width, and its `-f json` document."""
    folder = tmp_path_factory.mktemp("notes")
    path = folder / "forced.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    out: dict = {}
    with running_mock("anthropic") as mock:
        run = ["run", str(path), "-p", "anthropic", "--base-url", mock.base_url]
        for columns in TABLE_WIDTHS:
            out["run", columns] = run_cli(run, env=environment(columns), cwd=folder)
        out["run", "json"] = run_cli(run + ["-f", "json"], env=environment(80), cwd=folder)
    compare = ["compare", str(path), "-p", "anthropic,openai"]
    for columns in COMPARE_WIDTHS:
        out["compare", columns] = run_cli(compare, env=environment(columns), cwd=folder)
    out["compare", "json"] = run_cli(compare + ["-f", "json"], env=environment(80), cwd=folder)
    return out


def block(text: str, first: str, more: re.Pattern) -> list[str]:
    """The line starting ``first`` and the lines after it that ``more`` matches."""
    lines = text.splitlines()
    [at] = [k for k, line in enumerate(lines) if line.startswith(first)]
    end = at + 1
    while end < len(lines) and more.match(lines[end]):
        end += 1
    return lines[at:end]


def assert_drawn(lines: list[str], columns: int, words: str) -> None:
    """No line wider than the console nor ending in a space, the words in their order (breaks at spaces), and each
    key, string, number and literal of the JSON the words quote whole on one line."""
    text = "\n".join(lines)
    assert all(len(line) <= columns for line in lines) and not [l for l in lines if l.endswith(" ")], text
    assert "".join(text.split()) == "".join(words.split()), (words, text)
    values = quoted(words)
    assert any(NAME in json.dumps(v) for v in values), values
    for value in values:
        for token in TOKEN.findall(json.dumps(value, separators=(",", ":"), ensure_ascii=False)):
            assert any(token in line for line in lines), (token, text)


@pytest.mark.parametrize("columns", RUN_WIDTHS)
def test_run_s_step_note_and_ended_line_break_quoted_json_between_members(drawn, columns):
    done, document = drawn["run", columns], drawn["run", "json"]
    assert done.returncode == document.returncode == 3, done.stderr  # the step refused: the loop ended in error
    loop = json.loads(document.stdout)["runs"][0]["loops"][0]
    [entry] = [e for e in loop["steps"][0]["ledger"] if e["code"] == "thinking.forced_choice"]
    label = f"  step 1 {entry['severity']} {entry['code']}: "
    note = block(done.stdout, label, re.compile(r" {4,}\S"))  # the hanging indent: the label's width, or 4
    hang = len(label) if len(label) <= columns // 3 else 4
    assert all(line.startswith(" " * hang) and line[hang] != " " for line in note[1:]), note
    assert_drawn(note, columns, label + entry["message"])
    ended = block(done.stdout, "ended: ", re.compile(r"\S"))
    assert_drawn(ended, columns, f"ended: {loop['ended']['reason']} at step {loop['ended']['step']} "
                                 f"({loop['ended']['error']})")


@pytest.mark.parametrize("columns", COMPARE_WIDTHS)
def test_compare_s_finding_line_breaks_quoted_json_between_members(drawn, columns):
    done, document = drawn["compare", columns], drawn["compare", "json"]
    assert done.returncode == document.returncode == 3, done.stderr  # anthropic's request refused
    [anthropic] = [p for p in json.loads(document.stdout)["providers"] if p["provider"] == "anthropic"]
    [entry] = [e for e in anthropic["ledger"] if e["code"] == "thinking.forced_choice"]
    head = f"{entry['code']} (anthropic): "
    finding = block(done.stdout, head, re.compile(r"(?![\w.]+ \([^)]*\): )\S"))  # up to the next finding
    assert_drawn(finding, columns, head + entry["message"])


def verdict_cell(text: str) -> tuple[list[str], int]:
    """The step table's verdict cell, from "verdict ✘" (its label in the one-record-a-row layout) to the end of its
    value, and the width its lines get: the record's, or the verdict column's."""
    lines = text.splitlines()
    [top] = [k for k, line in enumerate(lines) if line.startswith(("┌", "┏"))]
    bottom = next(k for k in range(top, len(lines)) if lines[k].startswith(("└", "┗")))
    body = [line for line in lines[top + 1:bottom] if line.startswith("│")]
    if lines[top].startswith("┌"):  # one record a row: "│ label value · label value │"
        inner = len(lines[top]) - 4
        joined = "\n".join(line[2:-2].rstrip() for line in body).replace("\u00a0", " ")  # a label's no-break space
        start = joined.index("verdict ✘")
        end = joined.index(" · latency", start)
        return joined[start:end].split("\n"), inner
    column = STEP_HEADERS_AT["verdict"]
    inner = len(lines[top].split("┳")[column]) - 2
    cells = [line.split("│")[column + 1][1:].rstrip() for line in body]
    return [cell for cell in cells if cell], inner


STEP_HEADERS_AT = {"verdict": 4}  # the verdict's column among the step table's seven (cli/run_cmd.py STEP_HEADERS)


@pytest.mark.parametrize("columns", TABLE_WIDTHS)
def test_run_s_step_table_verdict_breaks_quoted_json_between_members(drawn, columns):
    done, document = drawn["run", columns], drawn["run", "json"]
    assert done.returncode == document.returncode == 3, done.stderr
    step = json.loads(document.stdout)["runs"][0]["loops"][0]["steps"][0]
    assert step["verdict"] is None and step["error"].startswith("refused: "), step
    lines, inner = verdict_cell(done.stdout)
    assert all(len(line) <= columns for line in done.stdout.splitlines())  # the table whole
    bordered = done.stdout.count("┏") == 1
    assert_drawn(lines, inner, ("" if bordered else "verdict ") + "✘ " + step["error"])
