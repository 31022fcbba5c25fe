"""What `compare` shows: one row per provider, built from translations (and replies when sent).

Pure data first (``row_cells``, ``differing``), then the three renderings: JSON, Markdown, rich.
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import urlsplit

from toolchoice.providers.core.model import LedgerEntry, Scenario, Translation

from .output import choice_text

COLUMNS = ("provider", "endpoint", "tool_choice on the wire", "tools", "parallel", "strict", "ledger")
COMPARED = ("tool_choice on the wire", "tools", "parallel", "strict")  # cells highlighted when they differ
_NOISE = {"model.default", "tool_choice.spelling", "tool_choice.mapped", "parallel.mapped", "strict.mapped",
          "endpoint.base_url", "dialect.call"}


def headline(ledger: list[LedgerEntry]) -> LedgerEntry | None:
    """The entry worth showing in one cell: the first error, else warning, else telling info."""
    for severity in ("error", "warning", "info"):
        for entry in ledger:
            if entry.severity == severity and (severity != "info" or entry.code not in _NOISE):
                return entry
    return None


def _feature_cell(t: Translation, prefix: str, wanted: bool) -> str:
    codes = {e.code: e for e in t.ledger if e.code.startswith(prefix)}
    if not wanted:
        return "–"
    if f"{prefix}.mapped" in codes:
        return "sent"
    if f"{prefix}.unsupported" in codes:
        return "dropped"
    if f"{prefix}.dropped" in codes:
        return "not sent"
    return "–"


def row_cells(t: Translation, declared: int, parallel_set: bool, strict_set: bool) -> dict[str, str]:
    counts = Counter(e.severity for e in t.ledger)
    top = headline(t.ledger)
    if t.request is None:
        endpoint, wire = "—", "REFUSED"
    else:
        parts = urlsplit(t.request.url)
        endpoint = parts.netloc
        wire = choice_text(t.effective_tool_choice)
    offered = len(t.offered_tools)
    tools = f"{offered} sent" if offered == declared else f"{offered} of {declared} sent"
    if t.request is None:  # refused: nothing is sent
        tools = "–"
    summary = " ".join(f"{counts[s]}{s[0].upper()}" for s in ("error", "warning", "info") if counts[s])
    return {
        "provider": t.provider,
        "endpoint": endpoint,
        "tool_choice on the wire": wire,
        "tools": tools,
        "parallel": _feature_cell(t, "parallel", parallel_set) if t.request is not None else "–",
        "strict": "invalid schema" if any(e.code == "schema.strict_invalid" for e in t.ledger)
        else _feature_cell(t, "strict", strict_set),
        "ledger": f"{summary} {top.code}" if top else summary,
        "_severity": top.severity if top else "info",
        "_headline": top.message if top else "",
        "_counts": summary,
    }


def differing_values(rows: list[dict[str, str]], column: str) -> bool:
    return len({r[column] for r in rows}) > 1


def dry_rows(scenario: Scenario, translations: list[Translation]) -> list[dict[str, str]]:
    strict_set = bool(scenario.strict) or any(t.strict for t in scenario.tools)
    return [row_cells(t, len(scenario.tools), scenario.parallel_tool_calls is not None, strict_set)
            for t in translations]


def wire_diff(rows: list[dict[str, str]]) -> list[dict[str, object]]:
    """The compared cells that differ between providers: [{field, values: {provider: cell}}]."""
    return [{"field": column, "values": {r["provider"]: r[column] for r in rows}}
            for column in COMPARED if differing_values(rows, column)]


def differing(rows: list[dict[str, str]]) -> set[tuple[int, str]]:
    """Cells (row index, column) whose value differs from the most common one in their column."""
    marks: set[tuple[int, str]] = set()
    for column in COMPARED:
        values = Counter(r[column] for r in rows)
        if len(values) < 2:
            continue
        common = values.most_common(1)[0][0]
        marks.update((i, column) for i, r in enumerate(rows) if r[column] != common)
    return marks


def markdown(rows: list[dict[str, str]], extra_columns: tuple[str, ...] = ()) -> str:
    from . import markdown_text as md

    columns = COLUMNS + extra_columns
    marks = differing(rows)

    def cell(i: int, column: str) -> str:
        raw = str(rows[i].get(column, ""))
        if column in ("tool_choice on the wire",) and raw not in ("REFUSED", "(not sent)"):
            text = md.code(raw)
        else:
            text = md.cell(raw, newline=" ")
        if column == "ledger" and rows[i].get("_headline"):
            headline_text = " ".join(rows[i]["_headline"].splitlines())  # a row stays one line
            text += ": " + md.escaped(headline_text if len(headline_text) <= 160 else headline_text[:157] + "…")
        return f"**{text}**" if (i, column) in marks else text

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(i, c) for c in columns) + " |" for i in range(len(rows))]
    lines.append("")
    lines.append("**bold**: differs from most providers.")
    return "\n".join(lines)


# Short headers for narrow terminals, and the order columns are dropped in when even those do not fit.
SHORT = {"tool_choice on the wire": "on the wire", "parallel": "par.", "endpoint": "host", "latency ms": "ms",
         "tokens in/out": "tokens"}
DROP_ORDER = ("endpoint", "tools", "parallel", "strict", "tokens in/out", "latency ms", "ledger")
WRAPS = {"tool_choice on the wire", "calls", "verdict", "what changed / what to know", "evidence", "endpoint",
         "API tool_choice"}
SEVERITY_STYLE_TEXT = {"error": "bold red", "warning": "yellow", "info": "cyan"}
DIFF_MARK = "*"  # marks a differing cell when there is no colour to see


def colourless(console: object) -> bool:
    return getattr(console, "color_system", None) is None or bool(getattr(console, "no_color", False))


def fit_table(console: object, title: str, columns: tuple[str, ...], cells: list[list[object]],
              show_lines: bool = False) -> object:
    """The widest table that fits the console: full headers, then short ones, then columns dropped in
    DROP_ORDER. Ids, codes and headers never wrap; only free-text columns (WRAPS) fold. Returns the
    table (rows of rich Texts in ``cells``, one per column)."""
    from rich.table import Table

    width = getattr(console, "width", 80)
    keep = list(columns)
    candidates: list[tuple[list[str], bool]] = [(list(keep), False), (list(keep), True)]
    for column in DROP_ORDER:
        if column in keep and column != columns[0]:
            keep.remove(column)
            candidates.append((list(keep), True))
    table = None
    for chosen, short in candidates:
        table = Table(title=title, show_lines=show_lines, title_justify="left")
        for column in chosen:
            header = SHORT.get(column, column) if short else column
            if column in WRAPS:
                table.add_column(header, overflow="fold", min_width=max(8, min(len(header), 12)))
            else:
                table.add_column(header, no_wrap=True)
        for row in cells:
            table.add_row(*(row[columns.index(c)] for c in chosen))
        if _minimum_width(chosen, columns, cells, short) <= width:
            break
    left_out = [c for c in columns if table is not None and c not in chosen]
    if left_out and table is not None:  # never silently: say which, and where they are whole
        table.caption = (f"left out at {width} columns: {', '.join(left_out)} (a wider terminal, -f markdown or "
                         "-f json shows them)")
        table.caption_justify = "left"
    return table


def _minimum_width(chosen: list[str], columns: tuple[str, ...], cells: list[list[object]], short: bool) -> int:
    """The narrowest the table can be: unbroken columns at their longest line, folding ones at their
    minimum, plus rich's borders and padding (3 per column and 1)."""
    total = 1
    for column in chosen:
        header = SHORT.get(column, column) if short else column
        if column in WRAPS:
            total += max(8, min(len(header), 12))
        else:
            index = columns.index(column)
            longest = max((len(line) for row in cells for line in str(row[index]).splitlines()), default=0)
            total += max(len(header), longest)
        total += 3
    return total


def print_table(rows: list[dict[str, str]], title: str, extra_columns: tuple[str, ...] = (),
                styles: dict[tuple[int, str], str] | None = None,
                ledgers: dict[str, list[LedgerEntry]] | None = None) -> None:
    from rich.text import Text

    from .output import new_console

    severity_style = {"error": "bold red", "warning": "yellow", "info": "cyan"}
    marks = differing(rows)
    console = new_console()
    plain = colourless(console)
    columns = COLUMNS + extra_columns
    cells = []
    for i, row in enumerate(rows):
        line = []
        for column in columns:
            value = str(row.get(column, ""))
            style = ""
            if (styles or {}).get((i, column)):
                style = (styles or {})[(i, column)]
            elif column == "ledger":
                style = severity_style[row["_severity"]]
                value = row.get("_counts", value) or "–"
            elif value == "REFUSED":
                style = "bold red"
            elif (i, column) in marks:
                style = "bold magenta"
                if plain:
                    value += DIFF_MARK
            line.append(Text(value, style=style))
        cells.append(line)
    console.print(fit_table(console, title, columns, cells))
    legend = f"{DIFF_MARK}: differs from most providers" if plain else "magenta: differs from most providers"
    console.print(Text(f"{legend} · ledger: E errors, W warnings, I info; "
                       "`toolchoice render SCENARIO -p ID` shows every entry", style="dim"))
    for severity, code, providers, message in grouped_findings(ledgers or {}):
        line = Text(f"{code} ", style=severity_style[severity])
        line.append(f"({', '.join(providers)}): ", style="bold")
        line.append(message)
        console.print(line)


def grouped_findings(ledgers: dict[str, list[LedgerEntry]]) -> list[tuple[str, str, list[str], str]]:
    """Warnings and errors across providers, one line per code and message: (severity, code, providers,
    message). Providers share a line only when their messages are the same once each provider's own
    name (its capability title) reads "the provider", so every provider's line says what its ledger says."""
    from toolchoice.providers.core.capabilities import CAPABILITIES

    found: dict[tuple[str, str], tuple[str, list[str], str]] = {}
    for provider, ledger in ledgers.items():
        title = CAPABILITIES[provider].title if provider in CAPABILITIES else provider
        for e in ledger:
            if e.severity == "info":
                continue
            general = e.message.replace(title, "the provider") if title else e.message
            severity, names, message = found.setdefault((e.code, general), (e.severity, [], e.message))
            if provider not in names:
                names.append(provider)
    order = {"error": 0, "warning": 1}
    lines = [(sev, code, names, msg if len(names) == 1 else general)
             for (code, general), (sev, names, msg) in found.items()]
    return sorted(lines, key=lambda item: order[item[0]])
