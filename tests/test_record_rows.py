"""fitted_table's one-record-a-row layout keeps a label on the line of the start of its value (cli/record_rows.py).

rich breaks a line at any space, the no-break space after a label too, so "· p50" could end a line and "ms 446"
start the next. The tables here are drawn by the commands' own printers from real recordings: probe's document
against llama-cpp-python 0.3.36 (tests/data/probe/SOURCES.md) and the replayed Gemma loops of
tests/data/loops/SOURCES.md. Each record's drawn lines are read back (borders off) and measured with rich's
``cell_len``; the record's text is rebuilt from the data the command was given (the labels are the commands'
headers, as docs/probe.md and docs/run.md show them), so nothing here is what cli/record_rows.py computed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.text import Text

from cli import run_cli

ROOT = Path(__file__).resolve().parent.parent
PROBE = json.loads((ROOT / "tests" / "data" / "probe" / "llama-cpp-python-gemma-270m.json").read_text())
NBSP = "\u00a0"
REPLAY = ["run", "configs/planner-loop.yaml", "-p", "openai", "--model", "gemma-3-270m", "--replay"]


def drawn_records(out: str) -> tuple[list[list[str]], int]:
    """Each bordered record's lines (the text between "│ " and " │") and the cells a line holds, measured."""
    records: list[list[str]] = []
    inner = 0
    for line in out.splitlines():
        if line.startswith("┌"):
            inner = cell_len(line) - 4  # "│ " + text + " │" under a border as wide as the table
            records.append([])
        elif line.startswith("├"):
            records.append([])
        elif line.startswith("│") and records:
            assert line.endswith("│") and cell_len(line) == inner + 4, line
            records[-1].append(line[2:-2].rstrip(" "))  # the padding; a no-break space is text
        elif line.startswith("└"):
            break
    return records, inner


def check(lines: list[str], fields: list[tuple[str, str]], inner: int) -> None:
    """``lines`` draw "label value · label value ..." (``fields``; a label "" is not drawn): nothing lost, no
    word that fits a line cut, every label on the line of its value's first character, but where that word
    fits a line only without the label before it."""
    expected = " · ".join(f"{label} {value}" if label else value for label, value in fields)
    chars: list[tuple[str, int]] = []  # each drawn character and its line
    for number, line in enumerate(lines):
        assert cell_len(line) <= inner, (line, inner)
        if chars:
            chars.append((" ", -1))  # a line break stands for one space
        chars += [(" " if ch == NBSP else ch, number) for ch in line]
    drawn = "".join(ch for ch, _ in chars)
    # equal text: every word whole (a word cut across lines would read as two), nothing dropped
    assert drawn == expected, (drawn, expected)
    at = 0
    for label, value in fields:
        if not label:
            at += len(value) + 3
            continue
        start = at + len(label) + 1
        first = value.split(" ")[0]
        label_lines = {chars[i][1] for i in range(at, at + len(label))}
        assert len(label_lines) == 1, (label, lines)  # "p50 ms", "95% CI": one line
        if value and chars[start][1] != chars[at][1]:  # the value starts on another line: only when it must
            assert cell_len(f"{label} {first}") > inner >= cell_len(first), (label, first, lines)
        at = start + len(value) + 3


def probe_fields(question: dict[str, Any]) -> list[tuple[str, str]]:
    """A probe question as its table row reads (docs/probe.md): question, wire, result, evidence, p50 ms."""
    wire = question["wire"]
    wire = "(not sent)" if wire is None else wire if isinstance(wire, str) else json.dumps(wire)
    evidence = question["evidence"]
    if len(evidence) > 200:
        evidence = evidence[:200] + "… (--format json: all)"
    return [("question", question["question"]), ("wire", wire), ("result", question["result"]),
            ("evidence", evidence), ("p50 ms", f"{question['latency_ms_p50']:.0f}")]


def drawn_probe(columns: int) -> str:
    from toolchoice.cli.output import new_console
    from toolchoice.cli.probe_cmd import _print

    console = new_console(width=columns, color_system=None)
    with console.capture() as captured:
        _print(console, PROBE)
    return captured.get()


@pytest.mark.parametrize("columns", [60, 80, 110, 72, 96])
def test_probe_s_records_keep_each_label_with_its_value(columns: int) -> None:
    out = drawn_probe(columns)
    assert all(cell_len(line) <= columns for line in out.splitlines()), out
    records, inner = drawn_records(out)
    assert len(records) == len(PROBE["questions"]) == 11, out
    for lines, question in zip(records, PROBE["questions"]):
        check(lines, probe_fields(question), inner)


def test_at_60_columns_the_labels_that_rich_parted_from_their_values_stay_with_them() -> None:
    """The recording at 60 columns: rich alone ended lines with "·", "wire" or "p50" before their values."""
    lines = drawn_probe(60).replace(NBSP, " ").splitlines()
    assert "│ question any (the word \"any\") · wire any ·               │" in lines
    assert any(line.startswith("│ result rejected · evidence status 500;") for line in lines)
    assert not any(line.rstrip(" │").endswith(("· wire", "· result", "· p50", "· p50 ms", "· evidence"))
                   for line in lines), lines


def replayed(columns: int, *extra: str, code: int = 0) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    result = run_cli([*REPLAY, *extra], env={**env, "COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb"},
                     cwd=ROOT)
    assert result.returncode == code, result.stderr
    assert all(cell_len(line) <= columns for line in result.stdout.splitlines()), result.stdout
    return result.stdout


def loop_steps(folder: str) -> list[dict[str, Any]]:
    loop = json.loads((ROOT / "tests" / "data" / "loops" / folder / "openai" / "loop-001" / "loop.json").read_text())
    return loop["steps"]


def test_run_s_step_records_at_60_columns_keep_each_label_with_its_value() -> None:
    """The replayed loop of docs/run.md at 60 columns: one record a step, "step N · choice ... · tokens I/O"."""
    records, inner = drawn_records(replayed(60, "tests/data/loops/planner-loop-gemma-270m"))
    assert len(records) == 6
    for number, lines in enumerate(records, 1):
        text = " ".join(lines).replace(NBSP, " ")
        assert text.startswith(f"step {number} · choice ")
        # the labels of docs/run.md's step table, each with its value: read back by its neighbours
        labels = ["step", "choice", "wire", "calls", "verdict", "latency", "tokens"]
        values = []
        rest = text
        for label, after in zip(labels, labels[1:] + [None]):
            assert rest.startswith(label + " "), (label, rest)
            rest = rest[len(label) + 1:]
            cut = rest.index(f" · {after} ") if after else len(rest)
            values.append(rest[:cut])
            rest = rest[cut + 3:]
        check(lines, list(zip(labels, values)), inner)
    # the wire of step 1 is 56 characters, a whole line: it starts the line after its label, whole
    first = records[0]
    assert first[0].endswith("· wire") and first[1] == '{"type":"function","function":{"name":"plan_tool_call"}}'


def test_run_s_per_step_summary_keeps_95_ci_and_p50_with_their_values() -> None:
    """`run --repeat 5` over the recorded five loops: the "per step" table at 60 and 80 columns."""
    for columns in (60, 80):
        out = replayed(columns, "tests/data/loops/planner-loop-gemma-270m-x5", "--repeat", "5",
                       code=4)  # a reply disobeyed (invalid_arguments on 2 steps): exit 4, README "Exit codes"
        summary = out[out.index("per step"):]
        records, inner = drawn_records(summary)
        assert len(records) == 6, summary
        for lines in records:
            text = " ".join(lines).replace(NBSP, " ")
            for label in ("95% CI", "p50", "tokens", "other", "reached", "obeyed"):
                index = text.index(f" · {label} ") + 3
                line = next(line for line in lines if label in line.replace(NBSP, " "))
                # the label's line holds the character after it: the start of its value
                assert f"{label} " in line.replace(NBSP, " ") and not line.replace(NBSP, " ").endswith(label), line
                assert text[index + len(label) + 1] != " "


def test_a_value_longer_than_a_line_starts_after_its_label_and_folds() -> None:
    """A first word longer than a line folds wherever it starts: it starts after its label, no line overflows."""
    from toolchoice.cli.output import fitted_table, new_console

    word = "x" * 70
    table = fitted_table(60, ["question", "wire"], [["named get_time", word]], short={},
                         word_cap=56)  # as probe asks: a word that fits a line decides the layout
    console = new_console(width=60, color_system=None)
    with console.capture() as captured:
        console.print(table)
    lines = captured.get().splitlines()
    assert all(cell_len(line) <= 60 for line in lines), lines
    records, inner = drawn_records(captured.get())
    assert records[0][0].replace(NBSP, " ") == "question named get_time ·"
    assert any(line.startswith("wire" + NBSP + "xxx") for line in records[0]), records[0]


def test_control_characters_are_measured_as_shown() -> None:
    """A server's text with ESC and BEL is shown written out (\\u001b): the record is folded at what is drawn, so
    its label stays with it and no line overflows."""
    from toolchoice.cli.output import fitted_table, new_console

    hostile = "\x1b[31m\x07" * 6 + " tail"
    table = fitted_table(60, ["evidence", "p50 ms"], [[Text(hostile), "7"]] * 2, short={})
    console = new_console(width=60, color_system=None)
    with console.capture() as captured:
        console.print(table)
    out = captured.get()
    assert "\x1b" not in out and "\x07" not in out
    records, inner = drawn_records(out)
    shown = ("\\u001b[31m\\u0007" * 6) + " tail"
    for lines in records:
        check(lines, [("evidence", shown), ("p50 ms", "7")], inner)
