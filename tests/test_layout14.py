"""Layout leftovers (trial14b), against the commands' own `-f json` words:

- run's `final answer` line, the stop tool's arguments: rich wrapped it at any space, inside a JSON string too
  (`"light rain, a west` over `wind of 20 km/h"`); now broken between members as the notes are, under the label;
- run's side-by-side table of several providers (its verdicts and how each loop ended, a refusal quoting the
  tool_choice it would send): rich folded the JSON and `providers.anthropic.thinking` in a column of 23 at 60;
  now the cells are broken as the step table's are, the table one record a row where a column cannot hold a key;
- `providers -p ID`'s note column: a fact id (`bedrock.strict_models`) and a URL folded at 60; a name up to a
  line's width now decides the layout;
- a table's prose cell that is one JSON piece wider than its column is shortened with "…" as the ledger shortens
  it (the full words stay in -f json), not folded inside its value.
`run` goes to `toolchoice mock` servers on 127.0.0.1, in-process (tests/cli.py)."""

from __future__ import annotations

import json
import re

import pytest
from test_call_layout import environment
from test_ledger_layout import quoted

from cli import run_cli
from toolchoice.providers.core.mock.server import running_mock

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*":?|-?\d+(?:\.\d+)?|true|false|null')
SUMMARY = "light rain, a west wind of 20 km/h"  # a string with spaces: rich broke it at them
STOP = "answer_with_the_forecast"
FINAL = f"""tools:
  - name: {STOP}
    parameters:
      type: object
      properties:
        summary_of_the_forecast: {{type: string, enum: ["{SUMMARY}"]}}
        the_details_of_the_day: {{type: object, properties: {{temperature_in_celsius: {{type: integer, enum: [21]}},
          wind_speed_in_kilometres_per_hour: {{type: integer, enum: [20]}}}},
          required: [temperature_in_celsius, wind_speed_in_kilometres_per_hour]}}
      required: [summary_of_the_forecast, the_details_of_the_day]
tool_choice: {STOP}
loop: {{max_steps: 2, stop: {{tool: {STOP}}}}}
messages:
  - {{role: user, content: Weather in Paris?}}
"""
NAME = "check_the_forecast_for_a_city_by_its_name_x"
BOTH = f"""tools:
  - name: {NAME}
    parameters: {{type: object, properties: {{city: {{type: string}}}}, required: [city]}}
tool_choice: {NAME}
parallel_tool_calls: false
loop: {{max_steps: 2}}
messages:
  - {{role: user, content: Weather in Paris?}}
providers:
  anthropic: {{base_url: "ANTHROPIC_URL", model: claude-sonnet-4-6, max_tokens: 4096, thinking: {{budget: 2048}}}}
  openai: {{base_url: "OPENAI_URL"}}
"""
WIDTHS = (60, 80)


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("layout14")
    out: dict = {}
    with running_mock("openai") as openai, running_mock("anthropic") as anthropic:
        (folder / "final.yaml").write_text(FINAL, encoding="utf-8")
        (folder / "both.yaml").write_text(BOTH.replace("ANTHROPIC_URL", anthropic.base_url)
                                          .replace("OPENAI_URL", openai.base_url), encoding="utf-8")
        final = ["run", "final.yaml", "-p", "openai", "--base-url", openai.base_url, "--retries", "0"]
        both = ["run", "both.yaml", "-p", "anthropic", "-p", "openai", "--retries", "0"]
        sent = ["compare", "both.yaml", "-p", "anthropic,openai", "--send", "--retries", "0"]
        for name, command in (("final", final), ("both", both), ("sent", sent)):
            out[name, "json"] = run_cli(command + ["-f", "json"], env=environment(80), cwd=folder)
            for columns in WIDTHS:
                out[name, columns] = run_cli(command, env=environment(columns), cwd=folder)
    return out


def assert_tokens_whole(lines: list[str], value: object) -> None:
    """Each key, string, number and literal of ``value`` whole on one line, or its start and "…" (shortened)."""
    for token in TOKEN.findall(json.dumps(value, separators=(",", ":"), ensure_ascii=False)):
        whole = any(token in line for line in lines)
        cut = any(line.endswith("…") and token.startswith(line.split()[-1][:-1]) and len(line.split()[-1]) > 6
                  for line in lines)
        assert whole or cut, (token, "\n".join(lines))


@pytest.mark.parametrize("columns", WIDTHS)
def test_run_s_final_answer_breaks_its_json_between_members(drawn, columns):
    done, document = drawn["final", columns], drawn["final", "json"]
    assert done.returncode == document.returncode == 0, done.stderr
    loop = json.loads(document.stdout)["runs"][0]["loops"][0]
    final = loop["final_answer"]
    assert loop["ended"]["reason"] == "stop_tool" and final["summary_of_the_forecast"] == SUMMARY, loop
    lines = done.stdout.splitlines()
    [at] = [k for k, line in enumerate(lines) if line.startswith("final answer  ")]
    block = lines[at:]
    assert len(block) > 1 and all(len(line) <= columns and not line.endswith(" ") for line in block), block
    assert all(line.startswith(" " * 14) and line[14] != " " for line in block[1:]), block  # under the answer
    text = "\n".join(block).removeprefix("final answer")
    assert "".join(text.split()) == "".join(json.dumps(final, ensure_ascii=False).split()), text
    assert any(f'"{SUMMARY}"' in line for line in block), block  # never broken at its spaces
    assert_tokens_whole(block, final)


@pytest.mark.parametrize("columns", WIDTHS)
def test_run_s_side_by_side_table_breaks_quoted_json_and_names_whole(drawn, columns):
    done, document = drawn["both", columns], drawn["both", "json"]
    assert done.returncode == document.returncode == 3, done.stderr
    loops = {loop["provider"]: loop for run in json.loads(document.stdout)["runs"] for loop in run["loops"]}
    error = loops["anthropic"]["ended"]["error"]
    assert error.startswith("refused: ") and NAME in error, error
    lines = done.stdout.splitlines()
    [at] = [k for k, line in enumerate(lines) if line == "per-step verdicts"]
    table = lines[at:]
    assert all(len(line) <= columns for line in table), "\n".join(table)
    values = quoted(error)
    assert values, error
    for value in values:
        assert_tokens_whole(table, value)
    for name in ("providers.anthropic.thinking:", "tool_choice"):  # names in the refusal's words: never folded
        assert any(name in line for line in table), (name, "\n".join(table))
    words = "".join("".join(line.strip("│┃ ").replace("│", "") for line in table).split())
    assert "".join(error.split()) in words.replace("·anthropic", "").replace("·openai", ""), "\n".join(table)


# a fact id or URL in a provider's notes (the matrix's -f json words): whole on one line at every width
_NAMEY = re.compile(r"[\w.:/-]*\w")  # longer than a word (14): an id, a key, a URL, a schema's type name


@pytest.mark.parametrize("columns", (60, 80, 100))
@pytest.mark.parametrize("provider", ["bedrock", "deepseek", "huggingface", "azure"])
def test_providers_note_column_never_folds_a_fact_id_or_url(provider, columns):
    document = run_cli(["providers", "-p", provider, "-f", "json"], env=environment(80))
    done = run_cli(["providers", "-p", provider], env=environment(columns))
    assert done.returncode == document.returncode == 0, done.stderr
    [row] = json.loads(document.stdout)
    notes = [row[feature]["note"] for feature in ("auto", "none", "required", "any", "named", "allowed", "parallel",
                                                  "strict")]
    names = {name for note in notes for name in _NAMEY.findall(note) if len(name) > 14}
    assert names, notes
    features = done.stdout.split("arguments in replies")[0].splitlines()
    assert all(len(line) <= columns for line in features), done.stdout
    for name in names:
        assert any(name in line for line in features), (name, "\n".join(features))


def test_a_prose_cell_of_one_json_piece_is_shortened_as_the_ledger_shortens_it():
    """One JSON piece wider than its column: the ledger's table shortens it with "…"; so does fitted_table's
    bordered layout now (rich folded it inside the string), as its one-record-a-row layout already did."""
    from rich.text import Text

    from toolchoice.cli.output import fitted_table, ledger_table, new_console
    from toolchoice.providers.core.model import LedgerEntry

    value = '["' + "k" * 70 + '"]'
    console = new_console(width=60)
    with console.capture() as captured:
        console.print(fitted_table(60, ["step", "verdict"], [["1", Text(value)]], prose=("verdict",)))
        console.print(ledger_table([LedgerEntry("warning", "a.b", value)], 60))
    lines = captured.get().splitlines()
    assert all(len(line) <= 60 for line in lines), lines
    kept = [line for line in lines if '["kkk' in line]
    assert len(kept) == 2 and all(line.rstrip(" │").endswith("…") for line in kept), lines
    assert not [line for line in lines if re.search(r'│ k+"?\]?', line)], lines  # no folded rest of the value


def test_json_cut_short_with_an_ellipsis_is_broken_as_json():
    """A message quoting a call's arguments cut with "…" (loop.repeated_call cuts them at 200): read as JSON where
    closing it gives what json.loads reads, its name and bracket breakable before it, no member lost."""
    from toolchoice.cli.call_lines import json_spans, prose_lines

    for text, span in (('a f({"city": "Par… then', '{"city": "Par…'), ("x [1, 2, … y", "[1, 2, …"),
                       ('{"a": … b', '{"a": …'), ('{"ke… z', None), ("{tool: x… y", None), ('p {"a":1}… q', '{"a":1}')):
        assert [text[a:b] for a, b in json_spans(text)] == ([span] if span else []), text
    name = "look_up_the_weather_forecast_for_a_city_by_its_name_x"
    line = (f'step 2 makes the same call: {name}({{"city": "Paris", "nested": {{"level1": {{"level2": 12}}}}, '
            '"note": "東京都渋谷区神南一丁目の天気…; set loop.stop.repeated_calls: 2')
    lines = prose_lines(line, 56)
    assert lines is not None and all(len(part) <= 56 for part in lines), lines
    assert "".join("".join(lines).split()) == "".join(line.split()), lines  # nothing shortened: every member kept
    assert any(part.startswith(f"{name}(") for part in lines) and any('"city": "Paris",' in p for p in lines), lines


@pytest.mark.parametrize("columns", (60, 80))
def test_the_calls_table_breaks_indented_arguments_after_a_key_never_inside_a_number_and_unit(tmp_path, columns):
    """`parse`'s calls table (send's too): an argument line wider than its column goes on under its key, a string
    broken at its spaces with a number and its unit together and its comma kept; rich broke `"12.5` from `km/h"`,
    left a value's `,` alone on a line, and folded `"g` over `":`. The arguments are the reply's: -f json holds them."""
    arguments = {"city": "[red]Paris[/red]", "speed": "12.5 km/h", "afternoon_forecast": "light rain, "
                 "a west wind of 20 km/h, 21 °C", "nested": {"level_one": {"level_two": {"g": "22.5 %"}}}}
    name = "get_the_forecast_for_a_city_" + "x" * 20
    body = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
                    "name": name, "arguments": json.dumps(arguments)}}]}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 2, "total_tokens": 3}}
    (tmp_path / "reply.json").write_text(json.dumps(body), encoding="utf-8")
    document = run_cli(["parse", "reply.json", "-p", "openai", "-f", "json"], env=environment(80), cwd=tmp_path)
    done = run_cli(["parse", "reply.json", "-p", "openai"], env=environment(columns), cwd=tmp_path)
    assert done.returncode == document.returncode == 0, done.stderr
    [call] = json.loads(document.stdout)["reply"]["tool_calls"]
    assert call["arguments"] == arguments, call
    lines = done.stdout.splitlines()
    table = lines[:next(k for k, line in enumerate(lines) if line.startswith("└")) + 1]
    assert all(len(line) <= columns for line in table), "\n".join(table)
    cells = [line.split("│")[3].strip() for line in table if line.startswith("│")]
    assert not [cell for cell in cells if cell in (",", '"12.5', '"20') or cell.startswith(("km/h", '":', "°C"))], cells
    for unit in ("12.5 km/h", "20 km/h", "21 °C", "22.5 %"):
        assert any(unit in cell for cell in cells), (unit, cells)
    for key in ("city", "speed", "afternoon_forecast", "nested", "level_one", "level_two", "g"):
        assert any(f'"{key}":' in cell for cell in cells), (key, cells)
    text = "".join("".join(cells).split())
    assert text == "".join(json.dumps(arguments, indent=2, ensure_ascii=False).split()), cells


@pytest.mark.parametrize("columns", WIDTHS)
def test_compare_send_s_finding_lines_break_quoted_json_between_members(drawn, columns):
    """compare --send's finding lines, as the dry run's (trial13m): rich folded the refusal's 98-character object
    inside `"disable_parallel_tool_use"` at 60 and 80."""
    done, document = drawn["sent", columns], drawn["sent", "json"]
    assert done.returncode == document.returncode == 3, done.stderr
    [anthropic] = [p for p in json.loads(document.stdout)["providers"] if p["provider"] == "anthropic"]
    [entry] = [e for e in anthropic["ledger"] if e["code"] == "thinking.forced_choice"]
    lines = done.stdout.splitlines()
    [at] = [k for k, line in enumerate(lines) if line.startswith(f"{entry['code']} (anthropic): ")]
    end = next((k for k in range(at + 1, len(lines)) if re.match(r"[\w.]+ \([^)]*\): ", lines[k])), len(lines))
    finding = lines[at:end]
    assert all(len(line) <= columns and not line.endswith(" ") for line in finding), finding
    assert "".join("".join(finding).split()).endswith("".join(entry["message"].split())), finding
    for value in quoted(entry["message"]):
        assert_tokens_whole(finding, value)


def test_a_number_and_its_unit_stay_on_one_line():
    """A note, a record and a table cell at every width from 20 to 60: "362 ms", "20 km/h", "21 °C" never end one
    line and start the next (hanging.UNITS holds them as it held "95% CI 57–100%"; fitted_table weighs them as one
    word). rich breaks at any space."""
    from rich.text import Text

    from toolchoice.cli.hanging import hanging
    from toolchoice.cli.output import fitted_table, new_console

    text = "the step took 362 ms at 20 km/h and 21 °C, then 1,250 ms more, 95% CI 57%–100% of 12.5 km/h"
    units = ("362 ms", "20 km/h", "21 °C", "1,250 ms", "12.5 km/h")
    rows = [["1", "52361 ms", Text(text)], ["2", "7 ms", Text("✔ obeyed")]]
    for width in range(20, 61):
        console = new_console(width=width)
        with console.capture() as captured:
            console.print(hanging(console, "  step 1 note: ", text))
            console.print(fitted_table(width, ["step", "latency", "verdict"], rows, right=("step", "latency")))
        drawn = captured.get()
        lines = drawn.splitlines()
        assert all(len(line) <= width for line in lines), drawn
        cells = "\n".join(re.sub(r"\s*[│┃]\s*", "\n", line) for line in lines)  # each cell's part on a line of its own
        for unit in units + ("52361 ms",):
            number, _, name = unit.partition(" ")
            assert not re.search(rf"(?<![\d.,]){re.escape(number)}\n+\s*{re.escape(name)}", cells), (unit, width, drawn)


def test_cut_json_is_read_a_few_times_a_line_at_most():
    """Each cut value read is a pass over the rest of the line: a line of `{…` 20,000 times was 20,000 passes (76 s);
    past CUT_SPANS_MOST the rest of the line is prose, as a bracket left open is."""
    from toolchoice.cli.call_lines import CUT_SPANS_MOST, json_spans, prose_lines

    assert len(json_spans("{…" * 20_000)) == CUT_SPANS_MOST
    assert len(json_spans('a {"x": "…' * 8_000)) == CUT_SPANS_MOST
    lines = prose_lines("[1, …" * 10_000, 60)
    assert lines is not None and all(len(line) <= 60 for line in lines)
