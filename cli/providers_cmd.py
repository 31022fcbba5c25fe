"""`toolchoice providers`: the support matrix, straight from the capability table."""

from __future__ import annotations

from enum import Enum
from typing import Any, List, Optional

import typer

from toolchoice.providers.core.capabilities import CAPABILITIES, FEATURES
from toolchoice.providers.core.registry import matrix_rows

from .exits import handled
from .output import dumps, write, write_json


class MatrixFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    markdown = "markdown"


def matrix_markdown(chosen: list[str] | None = None) -> str:
    """The support matrix of docs/providers.md (and, cut to its marks, of the README): tests/test_readme.py checks both.
    ``chosen``: only these providers' rows (-p)."""
    head = "| provider | " + " | ".join(FEATURES) + " | arguments | verified |"
    lines = [head, "|" + "---|" * (len(FEATURES) + 3)]
    for cap in CAPABILITIES.values():
        if chosen is not None and cap.provider not in chosen:
            continue
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


def model_rules_data(model: str, chosen: list[str] | None = None) -> list[dict]:
    """For each provider (``chosen``: of these) with a rule matching ``model``, or with rules per model family none
    of which knows it (said unknown, with no facts): the facts that apply and the rule each comes from."""
    from toolchoice.providers.core.model_rules import RULE_KEYS, end_of_life, resolve, unknown, unstated

    out = []
    for provider in CAPABILITIES if chosen is None else chosen:
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


def model_rules_markdown(model: str, data: list[dict]) -> str:
    """``model_rules_data`` as markdown: a table of the facts (provider, fact, value, rule), each rule's source and
    date under it, and what the pretty view says apart (unknown models, facts no source states, end of life). Every
    cell is the data's text with its pipes escaped: the model id is the user's."""
    def cell(text: object) -> str:
        return " ".join(str(text).split()).replace("\\", "\\\\").replace("|", "\\|")

    def shown(value: object) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    lines = [f"model rules for {cell(model)} (override per provider: providers.<id>.rules.<fact>)", ""]
    facts = [(entry["provider"], fact) for entry in data for fact in entry["facts"]]
    if facts:
        lines += ["| provider | fact | value | rule |", "|---|---|---|---|"]
        lines += [f"| `{p}` | {fact['fact']} | {cell(shown(fact['value']))} | {fact['rule']} |" for p, fact in facts]
        lines.append("")
        sources = {fact["rule"]: f"{fact['source']} (verified {fact['verified']})" for _, fact in facts}
        lines += [f"- **{name}**: {cell(source)}" for name, source in sources.items()]
    else:
        lines.append("No model rule matches (facts then come from the provider's capability row alone).")
    notes = [f"{entry['provider']}: " + ("this model is in none of the model families its rules name; the table shows "
                                         "its rule for every other model" if entry["facts"] else
                                         "no model-family rule knows this model: its thinking and tool_choice limits "
                                         "are unknown there") for entry in data if not entry["known"]]
    notes += [f"{entry['provider']}: {fact['fact']}: no source states it for this model (rule {fact['rule']}): "
              f"{fact['read']} (verified {fact['verified']})" for entry in data for fact in entry.get("unstated", ())]
    notes += [f"{entry['provider']}: {entry['end_of_life']}" for entry in data if entry.get("end_of_life")]
    if notes:
        lines += [""] + [f"- {cell(note)}" for note in notes]
    return "\n".join(lines)


def print_model_rules(model: str, format: "MatrixFormat", chosen: list[str] | None = None) -> None:
    from .output import emit_json, output_redactor

    data = model_rules_data(model, chosen)
    if format is MatrixFormat.json:
        emit_json(data, output_redactor())  # a key pasted into --model is not shown (the pretty view's console redacts)
        return
    if format is MatrixFormat.markdown:  # was the JSON above: -f markdown printed JSON
        write(output_redactor().text(model_rules_markdown(model, data)))
        return
    if not data:
        on = "" if chosen is None else f" on {', '.join(chosen)}"
        write(output_redactor().text(f"no model rule matches {model}{on} (facts then come from the provider's "
                                     "capability row alone)"))
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
        table.add_row(cell, Text(", ".join(providers)), Text(verified), Text(source))  # data, never markup
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


def _legend_title() -> Any:
    """The matrix's title, a mark never apart from its word (`✘` over `unsupported` at 60 columns)."""
    from .table_fit import PartsTitle

    first, *rest = _LEGEND.split("  ")
    return PartsTitle([f"tool_choice support ({first}", *rest[:-1], f"{rest[-1]})"], "  ")


def matrix_table(console: Any) -> Any:
    """The support matrix laid out for the console's width, whole at any width: with each short wire form
    where it fits, the marks alone under short headers where that fits (no side borders; at 60 columns without
    the arguments form and date), else one row a provider with its features written out (the wire forms are in
    -p ID, --format json and markdown)."""
    from rich.measure import Measurement
    from rich.table import Table

    def fits(table: Any) -> bool:  # its natural width, measured without the console's bound
        return Measurement.get(console, console.options.update_width(10_000), table).maximum <= console.width

    full = Table(title=_legend_title(), show_lines=False, caption=_ARGS)
    full.add_column("provider", style="bold", no_wrap=True)
    for feature in FEATURES:
        full.add_column(feature, no_wrap=True)
    full.add_column("args", no_wrap=True)
    full.add_column("verified", no_wrap=True)
    # no borders, one space between columns: 78 characters, whole on an 80-column CI log
    compact = Table(title=_legend_title(), box=None, padding=(0, 1, 0, 0), pad_edge=False,
                    header_style="bold underline",
                    caption=", ".join(f"{s} {f}" for f, s in _SHORT.items()) + "\n" + _ARGS)
    compact.add_column("provider", style="bold", no_wrap=True)
    for feature in FEATURES:
        compact.add_column(_SHORT.get(feature, feature), no_wrap=True, justify="center")
    compact.add_column("args", no_wrap=True)
    compact.add_column("verified", no_wrap=True)
    # the marks alone (60 columns): a row's arguments form and date are in -p ID
    marks_only = Table(title=_legend_title(), box=None, padding=(0, 1, 0, 0), pad_edge=False,
                       header_style="bold underline",
                       caption=", ".join(f"{s} {f}" for f, s in _SHORT.items()) + "\n" + "each row's arguments "
                       "form (JSON text or an object) and date: toolchoice providers -p ID")
    marks_only.add_column("provider", style="bold", no_wrap=True)
    for feature in FEATURES:
        marks_only.add_column(_SHORT.get(feature, feature), no_wrap=True, justify="center")
    for cap in CAPABILITIES.values():
        marks, cells = [], []
        for feature in FEATURES:
            s = cap.feature(feature)
            wire = s.wire if len(s.wire) <= 12 else ""
            marks.append(f"[{_STYLE[s.level.value]}]{s.level.mark}[/]")
            cells.append(f"{marks[-1]} {wire}".rstrip())
        full.add_row(cap.provider, *cells, cap.arguments, cap.verified)
        compact.add_row(cap.provider, *marks, cap.arguments, cap.verified)
        marks_only.add_row(cap.provider, *marks)
    for table in (full, compact, marks_only):
        if fits(table):
            return table
    listed = Table(title=_legend_title(), show_lines=True, caption=_ARGS)
    listed.add_column("provider", style="bold", no_wrap=True)
    listed.add_column("features, arguments, verified", overflow="fold")
    for cap in CAPABILITIES.values():
        # a no-break space keeps each feature beside its mark when the line folds
        parts = [f"{feature}\u00a0[{_STYLE[cap.feature(feature).level.value]}]{cap.feature(feature).level.mark}[/]"
                 for feature in FEATURES]
        listed.add_row(cap.provider, " · ".join(parts) + f" · args {cap.arguments} · {cap.verified}")
    return listed


def chosen_providers(requested: list[str] | None) -> list[str] | None:
    """-p values (repeatable, comma lists, 'all'), each id checked; None where none is given. (cli/inputs.py's
    reading of the same option loads the scenario reader, which `providers` never needs.)"""
    from toolchoice.providers.core.registry import check_provider

    names = [part.strip() for item in requested or [] for part in item.split(",") if part.strip()]
    if not names:
        if requested:  # -p "$PROVIDER" with the variable unset: refused as --model "" is, not the whole matrix
            from toolchoice.providers.core.model import ToolchoiceError

            raise ToolchoiceError("-p is empty (an unset variable?)",
                                  hint="name a provider (-p openai), -p all for every one, or leave -p out")
        return None
    for name in names:
        if name != "all":
            check_provider(name)
    return list(CAPABILITIES) if "all" in names else list(dict.fromkeys(names))


def facts_summary(console: Any) -> None:
    """Under the matrix: how many dated facts and model rules stand behind each provider's row, and how to read
    them (-p ID: one provider's; -p all: every one). Every fact with its source was ~1,700 lines at 80 columns."""
    from rich.text import Text

    from toolchoice.providers.core.facts import FACTS, facts_for
    from toolchoice.providers.core.model_rules import RULES

    counts = []
    for provider in CAPABILITIES:
        facts, rules = len(facts_for(provider)), sum(provider in r.providers for r in RULES)
        counts.append(f"{provider} {facts}" + (f" ({rules})" if rules else ""))
    dates = sorted({f.verified for f in FACTS} | {r.verified for r in RULES})
    verified = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
    console.print(Text("dated facts (model rules) per provider", style="bold"))
    for line in _packed(counts, " · ", console.width):  # a provider and its counts never apart
        console.print(Text(line))
    console.print(Text(f"{len(FACTS)} dated facts and {len(RULES)} model rules, each with its source, verified "
                       f"{verified}."))
    from .word_breaks import lines_holding

    tip = ("One provider's wire forms, notes, sources, facts and rules: toolchoice providers -p ID (-p all: every fact "
           "and rule; --model ID: the rules for a model; --format json: all of it).")
    # the command and each option with its value on one line: "toolchoice providers" over "-p ID" read as two
    for line in lines_holding(tip, max(console.width, 1), ("toolchoice providers -p ID", "-p all:", "--model ID:",
                                                          "--format json:")):
        console.print(Text(line, style="dim"))


def _packed(items: list[str], between: str, width: int) -> list[str]:
    """``items`` joined by ``between`` in lines no wider than ``width`` where each item fits one, none broken."""
    from rich.cells import cell_len

    lines: list[str] = []
    for item in items:
        if lines and cell_len(lines[-1] + between + item) <= width:
            lines[-1] += between + item
        else:
            lines.append(item)
    return lines


def print_provider(console: Any, provider: str) -> None:
    """One provider in full: each feature's support, wire form and note, the row's sources, its dated facts and
    model rules (each with its source and date)."""
    from rich.text import Text

    from toolchoice.providers.core.facts import facts_for
    from toolchoice.providers.core.model_rules import RULES

    from .hanging import hanging
    from .table_fit import fitted_table

    cap = CAPABILITIES[provider]
    console.rule(Text.assemble((provider, "bold"), f" · {cap.title}"))
    rows = []
    for feature in FEATURES:
        s = cap.feature(feature)
        rows.append([feature, Text(f"{s.level.mark} {s.level.value}", style=_STYLE[s.level.value]), s.wire or "–",
                     s.note or "–"])
    console.print(fitted_table(console.width, ["feature", "support", "on the wire", "note"], rows,
                               jsons=("on the wire",), caps={"on the wire": 40}, short={"on the wire": "wire"}))
    console.print(Text(f"arguments in replies: {cap.arguments} · verified {cap.verified}"
                       + (f" · measured {cap.measured}" if cap.measured else "")))
    for source in cap.sources:
        console.print(hanging(console, Text("source ", style="bold"), source))
    facts = facts_for(provider)
    if facts:
        console.print(_dated_table(f"dated facts ({len(facts)})", "fact: what it states",
                                   [(f.id, f.providers, f.verified, f.source, f.statement) for f in facts], console))
    rules = [r for r in RULES if provider in r.providers]
    if rules:
        console.print(_dated_table(f"model rules ({len(rules)}; toolchoice providers --model ID)", "rule",
                                   [(r.name, r.providers, r.verified, r.source, None) for r in rules], console))


PROVIDERS = typer.Option(None, "--provider", "-p",
                         help="One provider in full (repeatable, comma lists): its wire forms, notes, sources, dated "
                              "facts and model rules; 'all': every fact and rule. --format json / markdown, "
                              "--model: only these providers.")


@handled
def providers(format: MatrixFormat = typer.Option(MatrixFormat.pretty, "--format", "-f",
                                                 help="pretty, json or markdown."),
              model: str = typer.Option(None, "--model", "-m",
                                        help="Print the model rules that apply to this model id instead."),
              provider: Optional[List[str]] = PROVIDERS) -> None:
    """Print the support matrix (tool_choice forms, parallel, strict) and what backs it; -p ID: one provider in
    full; --model: a model's rules."""
    if model is not None and not model.strip():
        from toolchoice.providers.core.model import ToolchoiceError

        raise ToolchoiceError("--model is empty (an unset variable?)", hint="give a model id, or leave --model out "
                              "for the support matrix")
    chosen = chosen_providers(provider)
    if model:
        print_model_rules(model, format, chosen)
        return
    if format is MatrixFormat.json:
        rows = matrix_rows()
        write_json(dumps(rows if chosen is None else [row for row in rows if row["provider"] in chosen]))
        return
    if format is MatrixFormat.markdown:
        write(matrix_markdown(chosen))
        return
    from .output import new_console

    if chosen is not None and len(chosen) < len(CAPABILITIES):
        plain = new_console()  # no markup: every cell is data (a note, a wire form's [N])
        for name in chosen:
            print_provider(plain, name)
        return
    console = new_console(markup=True)  # the one printer (tables fold to fit); this markup is our own (the marks)
    console.print(matrix_table(console))
    if chosen is None:
        facts_summary(console)
        return
    from toolchoice.providers.core.facts import FACTS
    from toolchoice.providers.core.model_rules import RULES

    console.print(_dated_table("dated facts (beyond the table)", "fact: what it states",
                               [(f.id, f.providers, f.verified, f.source, f.statement) for f in FACTS], console))
    console.print(_dated_table("model rules (matched on the model id; toolchoice providers --model ID)", "rule",
                               [(r.name, r.providers, r.verified, r.source, None) for r in RULES], console))
    console.print("The exact wire forms and each row's sources: toolchoice providers --format json (or markdown), "
                  "or -p ID.", style="dim")
