"""The summary lines under `compare` over several scenarios, folded to narrow terminals (cli/output.py ``wrapped``),
measured as a terminal shows them, not as the code under test measures them: Unicode's East Asian Width (UAX #11:
W and F take two cells), combining marks none, and a tab moving to the next multiple of 8 (the default tab stops
ECMA-48 / `tabs(1)` set). Real CLI runs (the console script in-process, COLUMNS as the terminal's width).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from test_interface import run


def cells(line: str) -> int:
    column = 0
    for ch in line:
        if ch == "\t":
            column = (column // 8 + 1) * 8
        elif unicodedata.combining(ch):
            continue
        else:
            column += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return column


def summary(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if re.fullmatch(r"\d+ scenarios:", line.strip()) or
                 line.startswith("2 scen"))
    return lines[start:]


SCENARIO = "messages:\n  - {role: user, content: hi}\n"


def scenarios(tmp_path: Path, *names: str) -> list[str]:
    paths = []
    for name in names:
        path = tmp_path / name
        path.write_text(SCENARIO, encoding="utf-8")
        paths.append(str(path))
    return paths


@pytest.mark.parametrize("columns", [19, 16, 12, 10, 8])
def test_below_20_columns_every_summary_line_fits(tmp_path: Path, columns: int):
    """A code column too wide to keep at this width: the first line was the code and a whole line's width of path."""
    paths = scenarios(tmp_path, "配置" * 12 + ".yaml", "a" * 90 + ".yaml")
    out = run("compare", *paths, "-p", "openai", COLUMNS=str(columns)).stdout
    lines = summary(out)
    assert [line for line in lines if cells(line) > columns] == [], lines
    assert "".join("".join(lines).split()).count("配置") == 12  # nothing lost


def test_a_tab_in_a_path_is_measured_where_the_terminal_puts_it(tmp_path: Path):
    """A tab is kept as text (redaction.visible): it moves the cursor to the next tab stop, up to 8 cells. The
    width is the line's length without its tabs: a measure that counts a tab as nothing takes the line as fitting."""
    paths = scenarios(tmp_path, "\t".join("abcdefghij") + ".yaml", "x.yaml")
    wide = summary(run("compare", *paths, "-p", "openai", COLUMNS="100000").stdout)
    (line,) = [line for line in wide if "\t" in line]
    columns = len(line.replace("\t", ""))
    assert cells(line) > columns
    lines = summary(run("compare", *paths, "-p", "openai", COLUMNS=str(columns)).stdout)
    assert [line for line in lines if cells(line) > columns] == [], lines


def test_a_newline_in_a_path_cannot_forge_a_summary_line(tmp_path: Path):
    """A file name may hold a newline (POSIX: any byte but '/' and NUL). Written raw, it starts a line of its own
    that reads as another scenario's result: "2 scenarios:" over three result lines."""
    forged = "a.yaml\n  0  forged.yaml: rendered (warnings allowed)\nx"
    paths = scenarios(tmp_path, forged, "b.yaml")
    for columns in ("100000", "60"):
        lines = summary(run("compare", *paths, "-p", "openai", COLUMNS=columns).stdout)
        assert lines[0] == "2 scenarios:"
        results = [line for line in lines[1:] if re.match(r"  \d  ", line)]
        assert len(results) == 2, lines
        assert not any(line.startswith("  0  forged.yaml") for line in lines), lines
