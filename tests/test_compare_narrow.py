"""`compare` over several scenarios at 80 and 60 columns: the summary lines under the tables (one per scenario:
its exit code, path and what the code means) fit the terminal, folded at word boundaries with nothing lost;
a line that fits is as it was; `--format json` does not change with the width. Real CLI runs (test_interface's
``run``: the console script's entry in-process, COLUMNS as the terminal's width), dry and `--send` to stand-ins on
127.0.0.1. The meanings held to are the exit codes' words in docs/commands.md's table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from servers import StandIn
from test_interface import ROOT, run

CONFIGS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "configs").glob("*.yaml"))
REFUSED = "translation refused (an error in the ledger, or a warning under --strict)"  # exit 3, docs/commands.md
WIDE = "100000"


def summary(out: str) -> list[str]:
    """The lines from "N scenarios:" on."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if re.fullmatch(r"\d+ scenarios:", line))
    return lines[start:]


def words(lines: list[str]) -> list[str]:
    return " ".join(lines).split()


def characters(lines: list[str]) -> str:
    """Every character but the spaces: a word longer than a line is folded, not broken at a space."""
    return "".join("".join(lines).split())


@pytest.mark.parametrize("columns", [80, 60])
def test_the_dry_run_summary_fits_and_keeps_every_word(columns: int):
    out = run("compare", *CONFIGS, COLUMNS=str(columns)).stdout
    assert max(len(line) for line in out.splitlines()) <= columns, [line for line in out.splitlines()
                                                                   if len(line) > columns]
    wide = summary(run("compare", *CONFIGS, COLUMNS=WIDE).stdout)
    narrow = summary(out)
    assert words(narrow) == words(wide)  # nothing lost, nothing added, in order, every break at a space
    assert REFUSED in " ".join(wide) and any(len(line) > 80 for line in wide)  # lines there were to fold
    # each scenario's line starts with its code and path; its continuation lines go on under the path
    for line in narrow[1:]:
        assert re.match(r"  \d  configs/\S+\.yaml: ", line) or re.match(r" {5}\S", line), line
    # a line that fits is as it was
    kept = [line for line in wide if len(line) <= columns]
    assert kept and all(line in narrow for line in kept)


def test_at_80_columns_only_the_lines_that_do_not_fit_change():
    wide = summary(run("compare", *CONFIGS, COLUMNS=WIDE).stdout)
    at_80 = summary(run("compare", *CONFIGS, COLUMNS="80").stdout)
    first = [line for line in at_80 if not line.startswith("     ")]  # each scenario's first line, in order
    assert len(first) == len(wide)
    for narrow, whole in zip(first, wide):
        assert narrow == whole if len(whole) <= 80 else (whole.startswith(narrow) and len(narrow) <= 80)


def test_a_path_is_data_never_markup_and_is_folded_whole(tmp_path: Path):
    source = (ROOT / "configs" / "weather.yaml").read_text()
    odd = tmp_path / "[bold red]OWNED[reset]-a-scenario-whose-file-name-is-far-longer-than-any-terminal-line.yaml"
    odd.write_text(source)
    out = run("compare", str(odd), CONFIGS[0], COLUMNS="60").stdout
    assert max(len(line) for line in out.splitlines()) <= 60
    joined = "".join(line.strip() for line in summary(out)[1:])
    assert str(odd).replace(" ", "") in joined.replace(" ", "")  # the markup shown as written, folded not cut
    assert "\x1b" not in out


def sent_to(server: StandIn, folder: Path, long_name: str) -> list[str]:
    """Two copies of configs/weather.yaml (the first under a long name) whose openai row sends to ``server``."""
    source = (ROOT / "configs" / "weather.yaml").read_text().split("providers:")[0]
    files = []
    for name in (long_name, "second.yaml"):
        path = folder / name
        path.write_text(source + f"providers:\n  openai: {{model: m, base_url: \"{server.base_url()}\"}}\n")
        files.append(str(path))
    return files


@pytest.mark.parametrize("columns", [80, 60])
def test_compare_send_summary_fits(tmp_path: Path, columns: int):
    with StandIn("openai") as server:
        files = sent_to(server, tmp_path, "first-scenario-with-a-long-descriptive-name.yaml")
        shown = run("compare", *files, "-p", "openai", "--send", "--retries", "0", COLUMNS=str(columns))
        wide = run("compare", *files, "-p", "openai", "--send", "--retries", "0", COLUMNS=WIDE)
    lines = shown.stdout.splitlines()
    assert max(len(line) for line in lines) <= columns, [line for line in lines if len(line) > columns]
    assert characters(summary(shown.stdout)) == characters(summary(wide.stdout))  # the long path folded whole
    assert any(len(line) > 80 for line in summary(wide.stdout))  # the long path's line had to fold


def test_json_does_not_change_with_the_width():
    at = {columns: run("compare", *CONFIGS[:3], "-f", "json", COLUMNS=columns).stdout for columns in ("60", WIDE)}
    assert at["60"] == at[WIDE] and at["60"].startswith("[")


@pytest.mark.parametrize("columns", [80, 60])
def test_send_summary_over_several_scenarios_fits(tmp_path: Path, columns: int):
    """`send` writes the same summary (cli/exits.summary_text) and folds it the same way."""
    with StandIn("openai") as server:
        files = sent_to(server, tmp_path, "first-scenario-with-a-long-descriptive-name-that-will-not-fit.yaml")
        shown = run("send", *files, "-p", "openai", "--retries", "0", COLUMNS=str(columns))
        wide = run("send", *files, "-p", "openai", "--retries", "0", COLUMNS=WIDE)
    narrow, whole = summary(shown.stdout), summary(wide.stdout)
    assert max(len(line) for line in narrow) <= columns, [line for line in narrow if len(line) > columns]
    assert characters(narrow) == characters(whole) and words(narrow)[:3] == words(whole)[:3]
    assert any(len(line) > columns for line in whole)  # the long path's line had to fold
