"""`toolchoice providers`: the support matrix, straight from the capability table."""

from __future__ import annotations

from typing import Any
from enum import Enum

import typer

from toolchoice.providers.core.capabilities import CAPABILITIES, FEATURES
from toolchoice.providers.core.registry import matrix_rows

from .exits import handled
from .output import dumps, write


class MatrixFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    markdown = "markdown"


def matrix_markdown() -> str:
    """The support matrix of docs/providers.md (and, cut to its marks, of the README): tests/test_readme.py checks both."""
    head = "| provider | " + " | ".join(FEATURES) + " | arguments | verified |"
    lines = [head, "|" + "---|" * (len(FEATURES) + 3)]
    for cap in CAPABILITIES.values():
        cells = []
        for feature in FEATURES:
            s = cap.feature(feature)
            wire = f" `{s.wire}`" if s.wire else ""
            cells.append(f"{s.level.mark}{wire}".replace("|", "\\|"))
        lines.append(f"| `{cap.provider}` | " + " | ".join(cells) + f" | {cap.arguments} | {cap.verified} |")
    lines.append("")
    lines.append("✔ native · → same meaning, the provider's own word · ≈ emulated (lossy, in the ledger) · "
                 "✘ unsupported (dropped with a warning, or refused under --no-emulate)")
    lines.append("")
    lines.append("The forms are what the translators send: `N` the tool's name, `M` the allowed mode, a list holding "
                 "`N` one item per allowed tool, `\"A\"|\"B\"` A for allowed mode required and B for auto; "
                 "`(…)`: no field is sent.")
    return "\n".join(lines)


def model_rules_data(model: str) -> list[dict]:
    """For each provider with a rule matching ``model``, or with rules per model family none of which knows
    it (said unknown, with no facts): the facts that apply and the rule each comes from."""
    from toolchoice.providers.core.model_rules import RULE_KEYS, end_of_life, resolve, unknown, unstated

    out = []
    for provider in CAPABILITIES:
        facts = resolve(provider, model)
        is_unknown = unknown(provider, model)
        said = [(key, unstated(provider, model.lower(), key)) for key in RULE_KEYS]
        if not facts and not is_unknown and not any(rule for _, rule in said):
            continue
        entry = {"provider": provider, "model": model, "known": not is_unknown, "facts": [
            {"fact": key, "value": fact.value, "rule": fact.rule.name, "source": fact.rule.source,
             "verified": fact.rule.verified} for key, fact in facts.items() if fact.rule is not None]}
        if any(rule for _, rule in said):  # known model, facts no source states (model_rule.unstated)
            entry["unstated"] = [{"fact": key, "rule": rule.name, "read": rule.unstated[key],
                                  "verified": rule.verified} for key, rule in said if rule is not None]
        retiring = end_of_life(provider, model)
        if retiring:
            entry["end_of_life"] = retiring
        out.append(entry)
    return out


def print_model_rules(model: str, format: "MatrixFormat") -> None:
    from .output import emit_json, output_redactor

    data = model_rules_data(model)
    if format is not MatrixFormat.pretty:
        emit_json(data, output_redactor())  # a key pasted into --model is not shown (the pretty view's console redacts)
        return
    if not data:
        write(output_redactor().text(f"no model rule matches {model} (facts then come from the provider's capability "
                                     "row alone)"))
        return
    from rich.table import Table

    from .output import new_console

    from rich.text import Text

    # a Text: the model id is the user's, never read as markup (the console below reads our own)
    title = Text(f"model rules for {model} (override per provider: providers.<id>.rules.<fact>)")
    table = Table(title=title)
    for column in ("provider", "fact", "value", "rule"):
        table.add_column(column, no_wrap=True)  # ids: whole, or the rows below
    rows: list[tuple[str, str, str, str]] = []
    sources: dict[str, str] = {}
    for entry in data:
        for fact in entry["facts"]:
            value = str(fact["value"]).lower() if isinstance(fact["value"], bool) else str(fact["value"])
            rows.append((entry["provider"], fact["fact"], value, fact["rule"]))
            table.add_row(*rows[-1])
            sources[fact["rule"]] = f"{fact['source']} (verified {fact['verified']})"
    console = new_console(markup=True)  # the one printer (tables fold to fit); this markup is our own
    if not _fits(console, [[header, *cells] for header, cells in zip(("provider", "fact", "value", "rule"),
                                                                       zip(*rows) if rows else ((),) * 4)]):  # 60 columns: folded, `signatures_required` read `signatures_requir` over `ed`
        table = Table(title=title, show_header=False, show_lines=True)
        table.add_column(overflow="fold")
        for provider, fact, value, rule in rows:
            # the rule on its own line: "· rule" ended a line and the name started the next (rich breaks at spaces)
            table.add_row(Text.assemble((provider, "bold"), f" {fact} = {value}\nrule {rule}"))
    if table.row_count:
        console.print(table)
    from rich.markup import escape

    for name, source in sources.items():
        console.print(f"[bold]{escape(name)}[/bold]: {escape(source)}", highlight=False)
    # a provider whose family rules do not know the model may still have a rule for every other model (bedrock's
    # `-other`: a named tool_choice only for Claude 3 and Nova): said apart, or "bedrock knows X not" beside a
    # bedrock row reads as a contradiction
    unknown_to = [entry["provider"] for entry in data if not entry["known"] and not entry["facts"]]
    if unknown_to:
        console.print(escape(f"no model-family rule of {', '.join(unknown_to)} knows {model}: its thinking and "
                             "tool_choice limits are unknown there"), highlight=False)
    for entry in data:
        if not entry["known"] and entry["facts"]:
            rules = ", ".join(dict.fromkeys(fact["rule"] for fact in entry["facts"]))
            console.print(escape(f"{entry['provider']}: {model} is in none of the model families its rules name; the "
                                 f"table shows its rule for every other model ({rules})"), highlight=False)
    for entry in data:
        for fact in entry.get("unstated", ()):
            console.print(escape(f"{entry['provider']}: {fact['fact']}: no source states it for {model} (rule "
                                 f"{fact['rule']}; sent as written, model_rule.unstated): {fact['read']} (verified "
                                 f"{fact['verified']})"), highlight=False)
    for entry in data:
        if entry.get("end_of_life"):
            console.print(escape(f"{entry['provider']}: {entry['end_of_life']}"), highlight=False)


def _fits(console: Any, columns: list[list[str]]) -> bool:
    """Whether a bordered table of ``columns`` (each its header, then its cells' plain text) is whole at the
    console's width: each column as wide as its longest line, plus rich's padding and borders (3 a column, and 1).
    That is rich's own Measurement of such a table (tests/test_review10l.py), counted here from the text: measuring
    the table through rich was a third of `providers --model`'s drawing."""
    from rich.cells import cell_len

    natural = 1 + sum(3 + max(cell_len(line) for text in column for line in text.split("\n")) for column in columns)
    return natural <= console.width


def _dated_table(title: str, first: str, rows: list[tuple[str, tuple[str, ...], str, str, str | None]],
                 console: Any) -> Any:
    """A table of dated items: name (and, under it, what the item states), providers, verified date, source,
    where the four columns are whole at the console's width; else one column, each item's name on its own
    line, what it states, then its providers, date and source. A name (a fact id, a rule's name) is never
    folded: at 80 columns `together.named_choice_type` read `together.named_choi` over `ce_type`."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, show_lines=any(row[4] for row in rows))
    for column in (first, "providers", "verified", "source"):
        table.add_column(column, overflow="fold")
    for name, providers, verified, source, statement in rows:
        cell = Text(name, style="bold")
        if statement:
            cell.append("\n" + statement)
        table.add_row(cell, ", ".join(providers), verified, source)
    if _fits(console, [[first] + [name + ("\n" + statement if statement else "") for name, *_, statement in rows],
                       ["providers"] + [", ".join(row[1]) for row in rows], ["verified"] + [row[2] for row in rows],
                       ["source"] + [row[3] for row in rows]]):
        return table
    listed = Table(title=title, show_header=False, show_lines=True)
    listed.add_column(overflow="fold")
    for name, providers, verified, source, statement in rows:
        cell = Text(name, style="bold")
        cell.append(("\n" + statement if statement else "") + f"\nproviders {', '.join(providers)} · verified {verified}"
                    f"\nsource {source}")
        listed.add_row(cell)
    return listed


_STYLE = {"native": "green", "renamed": "green", "emulated": "yellow", "unsupported": "red"}
_LEGEND = "✔ native  → renamed  ≈ emulated  ✘ unsupported"
_SHORT = {"required": "req.", "allowed": "allow.", "parallel": "par."}  # the compact layout's headers
_ARGS = "args: a tool call's arguments in replies, as JSON text (string) or an object"


def matrix_table(console: Any) -> Any:
    """The support matrix laid out for the console's width, whole at any width: with each short wire form
    where it fits, the marks alone under short headers where that fits (no side borders), else one row a
    provider with its features written out (the wire forms are in --format json and markdown)."""
    from rich.measure import Measurement
    from rich.table import Table

    def fits(table: Any) -> bool:  # its natural width, measured without the console's bound
        return Measurement.get(console, console.options.update_width(10_000), table).maximum <= console.width

    full = Table(title=f"tool_choice support ({_LEGEND})", show_lines=False, caption=_ARGS)
    full.add_column("provider", style="bold", no_wrap=True)
    for feature in FEATURES:
        full.add_column(feature, no_wrap=True)
    full.add_column("args", no_wrap=True)
    full.add_column("verified", no_wrap=True)
    # no borders, one space between columns: 78 characters, whole on an 80-column CI log
    compact = Table(title=f"tool_choice support ({_LEGEND})", box=None, padding=(0, 1, 0, 0), pad_edge=False,
                    header_style="bold underline",
                    caption=", ".join(f"{s} {f}" for f, s in _SHORT.items()) + "\n" + _ARGS)
    compact.add_column("provider", style="bold", no_wrap=True)
    for feature in FEATURES:
        compact.add_column(_SHORT.get(feature, feature), no_wrap=True, justify="center")
    compact.add_column("args", no_wrap=True)
    compact.add_column("verified", no_wrap=True)
    for cap in CAPABILITIES.values():
        marks, cells = [], []
        for feature in FEATURES:
            s = cap.feature(feature)
            wire = s.wire if len(s.wire) <= 12 else ""
            marks.append(f"[{_STYLE[s.level.value]}]{s.level.mark}[/]")
            cells.append(f"{marks[-1]} {wire}".rstrip())
        full.add_row(cap.provider, *cells, cap.arguments, cap.verified)
        compact.add_row(cap.provider, *marks, cap.arguments, cap.verified)
    for table in (full, compact):
        if fits(table):
            return table
    listed = Table(title=f"tool_choice support ({_LEGEND})", show_lines=True, caption=_ARGS)
    listed.add_column("provider", style="bold", no_wrap=True)
    listed.add_column("features, arguments, verified", overflow="fold")
    for cap in CAPABILITIES.values():
        # a no-break space keeps each feature beside its mark when the line folds
        parts = [f"{feature}\u00a0[{_STYLE[cap.feature(feature).level.value]}]{cap.feature(feature).level.mark}[/]"
                 for feature in FEATURES]
        listed.add_row(cap.provider, " · ".join(parts) + f" · args {cap.arguments} · {cap.verified}")
    return listed


@handled
def providers(format: MatrixFormat = typer.Option(MatrixFormat.pretty, "--format", "-f",
                                                 help="pretty, json or markdown."),
              model: str = typer.Option(None, "--model", "-m",
                                        help="Print the model rules that apply to this model id instead.")) -> None:
    """Print the support matrix (tool_choice forms, parallel, strict) and the dated facts; --model: a model's rules."""
    if model is not None and not model.strip():
        from toolchoice.providers.core.model import ToolchoiceError

        raise ToolchoiceError("--model is empty (an unset variable?)", hint="give a model id, or leave --model out "
                              "for the support matrix")
    if model:
        print_model_rules(model, format)
        return
    if format is MatrixFormat.json:
        write(dumps(matrix_rows()))
        return
    if format is MatrixFormat.markdown:
        write(matrix_markdown())
        return
    from .output import new_console

    console = new_console(markup=True)  # the one printer (tables fold to fit); this markup is our own
    table = matrix_table(console)
    console.print(table)
    from toolchoice.providers.core.facts import FACTS
    from toolchoice.providers.core.model_rules import RULES

    console.print(_dated_table("dated facts (beyond the table)", "fact: what it states",
                               [(f.id, f.providers, f.verified, f.source, f.statement) for f in FACTS], console))
    console.print(_dated_table("model rules (matched on the model id; toolchoice providers --model ID)", "rule",
                               [(r.name, r.providers, r.verified, r.source, None) for r in RULES], console))
    console.print("The exact wire forms and each row's sources: toolchoice providers --format json (or markdown).",
                  style="dim")
