"""Trial 10l's review of the day's merges (06f2651..3c03acf): defects found in the new layouts.

`providers --model ID` at 60 columns draws one row a rule (cli/providers_cmd.py, trial10d); its "· rule" label
ended a line and the rule's name started the next (rich breaks at any space), as record_rows.py says a label
must never. The rule names are read from the JSON document (the data), not from the layout code."""

from __future__ import annotations

import json
import re

import pytest

from cli import run_cli
from test_user_trial10 import environment


@pytest.mark.parametrize("model", ["claude-opus-5", "gemini-3-pro-preview"])
def test_providers_model_keeps_the_rule_label_with_its_name_at_60_columns(model):
    data = json.loads(run_cli(["providers", "--model", model, "-f", "json"], env=environment()).stdout)
    rules = {fact["rule"] for entry in data for fact in entry["facts"]}
    assert rules
    done = run_cli(["providers", "--model", model], env=environment(COLUMNS="60"))
    assert done.returncode == 0, done.stderr
    lines = [re.sub(r"^[│┃]\s?|\s?[│┃]$", "", line).rstrip() for line in done.stdout.splitlines()]
    # the table's label (its rows start with a border): the sources under it are prose, wrapped as prose, and may
    # quote a rule's name as words ("only with effort xhigh or max: rule claude-opus-5-disabled-effort")
    table = [line for raw, line in zip(done.stdout.splitlines(), lines) if raw[:1] in "│┃"]
    assert table and not [line for line in table if re.search(r"\brule$", line)], done.stdout
    shown = {m.group(1) for line in lines for m in re.finditer(r"\brule ([\w.\-]+)", line)}
    assert rules <= shown, (sorted(rules - shown), done.stdout)
    assert max(len(line) for line in done.stdout.splitlines()) <= 60


@pytest.mark.parametrize("columns", [60, 120])
def test_providers_model_title_shows_the_model_as_written_not_as_markup(columns):
    """The model id is the user's text: in the table's title it was read as Rich markup (a `[/bold]` in it was an
    internal error; `[red]` coloured the rest). ARCHITECTURE.md: text from outside is never read as markup."""
    model = "claude-opus-5[/bold][red]x"
    done = run_cli(["providers", "--model", model], env=environment(COLUMNS=str(columns)))
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr
    lines = done.stdout.splitlines()
    top = next(i for i, line in enumerate(lines) if line[:1] in "┏┌")
    title = " ".join(line.strip() for line in lines[:top])
    assert f"model rules for {model}" in title, done.stdout[:500]


@pytest.mark.parametrize("width", [60, 80, 120, 931, 932, 933, 1926, 1927, 1928])
def test_dated_tables_choose_their_layout_by_riches_own_measure(width):
    """providers_cmd._fits counts a table's natural width from its text; rich's Measurement of the same four-column
    table (built here) is the truth for whether it is whole at ``width``."""
    from rich.console import Console
    from rich.measure import Measurement
    from rich.table import Table
    from rich.text import Text

    from toolchoice.cli.providers_cmd import _dated_table
    from toolchoice.providers.core.facts import FACTS
    from toolchoice.providers.core.model_rules import RULES

    console = Console(width=width, file=__import__("io").StringIO())
    for first, rows in (("fact: what it states", [(f.id, f.providers, f.verified, f.source, f.statement) for f in FACTS]),
                        ("rule", [(r.name, r.providers, r.verified, r.source, None) for r in RULES])):
        table = Table()
        for column in (first, "providers", "verified", "source"):
            table.add_column(column, overflow="fold")
        for name, providers, verified, source, statement in rows:
            table.add_row(Text(name + ("\n" + statement if statement else "")), ", ".join(providers), verified, source)
        whole = Measurement.get(console, console.options.update_width(100_000), table).maximum <= width
        drawn = _dated_table("t", first, rows, console)
        assert len(drawn.columns) == (4 if whole else 1), (first, width, whole)


@pytest.mark.parametrize("url", ["http:/user:s3cret-pass@host/v1", "http:user:s3cret-pass@host/v1",
                                 "user:s3cret-pass@host/v1"])
def test_a_password_in_a_url_missing_its_slashes_is_never_shown(url, tmp_path):
    """A URL without '//' after its scheme has no authority for urllib, so the user info in it was not found and the
    refusal quoted it whole (trial 10l). Refused as bad input, from the command line and from the scenario file."""
    done = run_cli(["render", "configs/weather.yaml", "-p", "openai", "--base-url", url], env=environment())
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert "s3cret-pass" not in done.stderr and "--base-url" in done.stderr
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools: [{name: f, parameters: {type: object}}]\nmessages: [{role: user, content: hi}]\n"
                        f"providers: {{openai: {{base_url: '{url}'}}}}\n")
    done = run_cli(["render", str(scenario), "-p", "openai"], env=environment())
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert "s3cret-pass" not in done.stderr and "base_url" in done.stderr
