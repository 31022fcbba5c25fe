"""`toolchoice providers` as a person reads it (trial13a), in-process at 60, 80 and 120 columns without colour: the
default view printed every dated fact with its source, ~1,740 lines at 80 columns; it is now the matrix and one line
of counts a provider, with `-p ID` for one provider in full (its wire forms, notes, sources, facts and rules) and
`-p all` for every fact and rule as before. What each view must show comes from `providers -f json`, whose output
(and markdown's) the option leaves as it was without -p."""

from __future__ import annotations

import json
import re

import pytest

from cli import run_cli

WIDTHS = (60, 80, 120)


def environment(columns: int = 80) -> dict[str, str]:
    return {"COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb"}


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    done = run_cli(["providers", "-f", "json"], env=environment())
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def words_of(text: str) -> str:
    """The text's words in reading order, the tables' borders out (a one-column table's lines joined)."""
    return " ".join(re.sub(r"[│┃┏┓┗┛┡┩┢┪╇╈┳┻━─┌┐└┘├┤┼┬┴]", " ", text).split())


def laid_out(text: str, columns: int) -> None:
    lines = text.splitlines()
    assert all(len(line) <= columns for line in lines), text
    assert "\x1b" not in text and not [line for line in lines if line.endswith(" ")], text


@pytest.mark.parametrize("columns", WIDTHS)
def test_the_default_view_is_the_matrix_and_a_count_a_provider(rows, columns):
    done = run_cli(["providers"], env=environment(columns))
    assert done.returncode == 0, done.stderr
    laid_out(done.stdout, columns)
    assert len(done.stdout.splitlines()) < 60, done.stdout  # 1,740 lines at 80 columns before
    words = " ".join(done.stdout.split())
    for row in rows:  # each provider's row of marks, and its counts as the JSON lists its facts and rules
        facts, rules = len(row["facts"]), len(row["model_rules"])
        assert f"{row['provider']} {facts}" + (f" ({rules})" if rules else "") in words, (row["provider"], words)
        assert re.search(rf"^{re.escape(row['provider'])} +[✔→≈✘]", done.stdout, re.M), done.stdout
    assert not any(fact["id"] in words for row in rows for fact in row["facts"])  # ids are for -p
    assert "toolchoice providers -p ID" in words


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("provider", ["gemini", "anthropic"])
def test_one_provider_in_full(rows, provider, columns):
    row = next(r for r in rows if r["provider"] == provider)
    done = run_cli(["providers", "-p", provider], env=environment(columns))
    assert done.returncode == 0, done.stderr
    laid_out(done.stdout, columns)
    text = done.stdout
    words = words_of(text)
    for fact in row["facts"]:  # each id whole on a line, what it states and its source
        assert re.search(rf"(?<![\w.-]){re.escape(fact['id'])}(?![\w.-])", text), fact["id"]
        assert " ".join(fact["statement"].split()) in words, fact["id"]
    for rule in row["model_rules"]:
        assert re.search(rf"(?<![\w.-]){re.escape(rule['name'])}(?![\w.-])", text), rule["name"]
    for source in row["sources"]:
        assert " ".join(source.split()) in words, source
    for feature in ("auto", "none", "required", "any", "named", "allowed", "parallel", "strict"):
        cell = row[feature]
        assert feature in words and cell["level"] in words
        # each quoted word of a wire form whole on a line (JSON broken between members, never inside a string);
        # the words of a wire form in prose and of a note, folded as prose beside the other columns
        for token in re.findall(r'"[^"]*"', cell["wire"]):
            assert token in text, (token, text)
        prose = cell["note"] + ("" if cell["wire"].startswith(("{", "[")) else " " + cell["wire"])
        for word in prose.split():  # a name in prose (tool_choice.disable_parallel_tool_use) whole too
            assert re.search(rf"(?<!\S){re.escape(word)}(?!\S)", words), (word, feature, text)
    others = [r["provider"] for r in rows if r["provider"] != provider and r["provider"] not in provider]
    assert not any(re.search(rf"^─+ {re.escape(other)} ·", text, re.M) for other in others)


def test_p_filters_the_machine_outputs_and_leaves_them_whole_without_it(rows):
    done = run_cli(["providers", "-f", "json", "-p", "gemini,ollama"], env=environment())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [r for r in rows if r["provider"] in ("gemini", "ollama")]
    every = run_cli(["providers", "-f", "json", "-p", "all"], env=environment())
    assert json.loads(every.stdout) == rows
    markdown = run_cli(["providers", "-f", "markdown"], env=environment()).stdout
    picked = run_cli(["providers", "-f", "markdown", "-p", "ollama"], env=environment()).stdout
    assert [line for line in picked.splitlines() if line.startswith("| `")] == \
        [line for line in markdown.splitlines() if line.startswith("| `ollama`")]
    rules = json.loads(run_cli(["providers", "--model", "claude-sonnet-5", "-f", "json"], env=environment()).stdout)
    on = json.loads(run_cli(["providers", "--model", "claude-sonnet-5", "-f", "json", "-p", "bedrock"],
                            env=environment()).stdout)
    assert on == [entry for entry in rules if entry["provider"] == "bedrock"] and on


def test_p_all_is_every_fact_and_rule(rows):
    done = run_cli(["providers", "-p", "all"], env=environment(80))
    assert done.returncode == 0, done.stderr
    for row in rows:
        for fact in row["facts"]:
            assert fact["id"] in done.stdout


def test_an_unknown_provider_is_one_line_and_its_words_are_data():
    done = run_cli(["providers", "-p", "[bold]nope[/bold]"], env=environment())
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "'[bold]nope[/bold]'" in done.stderr, done.stderr
