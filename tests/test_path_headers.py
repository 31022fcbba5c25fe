"""A scenario's file name is data wherever a command prints it: in a title, a `══ path` header, curl's `# scenario`
comment, a markdown heading, the summary. A newline in the name (legal on POSIX) must not start a line of its own:
under `render -f curl` that line is a command a shell piping the output would run, elsewhere a forged line. It is
written out as ``\\u000a`` (as the summary already wrote it, trial9g). Real CLI runs (test_interface's ``run``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_interface import ROOT, run

FORGED = "touch pwned-by-a-file-name"
CASES = {
    "render-curl": ("render", "{a}", "{b}", "-p", "openai", "-f", "curl"),
    "render-pretty": ("render", "{a}", "{b}", "-p", "openai"),
    "render-all": ("render", "{a}", "-p", "all"),
    "compare": ("compare", "{a}", "{b}"),
    "compare-markdown": ("compare", "{a}", "{b}", "-f", "markdown"),
    "compare-langchain": ("compare", "{a}", "{b}", "--dialect", "langchain"),
}


def scenario_argv(tmp_path: Path, case: str) -> list[str]:
    a = tmp_path / f"x\n{FORGED}\n.yaml"
    b = tmp_path / "b.yaml"
    shutil.copy(ROOT / "configs" / "weather.yaml", a)
    shutil.copy(ROOT / "configs" / "weather.yaml", b)
    return [arg.format(a=a, b=b) for arg in CASES[case]]


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("columns", ["80", "60"])
def test_a_newline_in_a_file_name_never_starts_a_line(tmp_path: Path, case: str, columns: str):
    out = run(*scenario_argv(tmp_path, case), COLUMNS=columns).stdout
    starts = [line for line in out.splitlines() if line.lstrip(" │┃║#").startswith(FORGED)]
    assert starts == [], starts


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_newline_in_a_file_name_is_written_out_wherever_it_is_shown(tmp_path: Path, case: str):
    """Unfolded (the same run whichever width the test above draws at, so once per command, not per width):
    wherever the name is shown, its newline is written out."""
    wide = run(*scenario_argv(tmp_path, case), COLUMNS="100000").stdout
    assert wide.count("\\u000a" + FORGED) == wide.count(FORGED), wide
