"""What `compare` shows: one row per provider, built from translations (and replies when sent).

Pure data first (``row_cells``, ``differing``), then the three renderings: JSON, Markdown, rich.
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import urlsplit

from toolchoice.providers.core.model import LedgerEntry, Translation

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
    summary = " ".join(f"{counts[s]}{s[0].upper()}" for s in ("error", "warning", "info") if counts[s])
    return {
        "provider": t.provider,
        "endpoint": endpoint,
        "tool_choice on the wire": wire,
        "tools": tools,
        "parallel": _feature_cell(t, "parallel", parallel_set),
        "strict": "invalid schema" if any(e.code == "schema.strict_invalid" for e in t.ledger)
        else _feature_cell(t, "strict", strict_set),
        "ledger": f"{summary} {top.code}" if top else summary,
        "_severity": top.severity if top else "info",
        "_headline": top.message if top else "",
        "_counts": summary,
    }


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
    columns = COLUMNS + extra_columns
    marks = differing(rows)

    def cell(i: int, column: str) -> str:
        text = str(rows[i].get(column, "")).replace("|", "\\|").replace("\n", " ")
        if column == "ledger" and rows[i].get("_headline"):
            headline_text = rows[i]["_headline"].replace("|", "\\|")
            text += ": " + (headline_text if len(headline_text) <= 160 else headline_text[:157] + "…")
        if column in ("tool_choice on the wire",) and text not in ("REFUSED", "(not sent)"):
            text = f"`{text}`"
        return f"**{text}**" if (i, column) in marks else text

    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(i, c) for c in columns) + " |" for i in range(len(rows))]
    lines.append("")
    lines.append("**bold**: differs from most providers.")
    return "\n".join(lines)


def print_table(rows: list[dict[str, str]], title: str, extra_columns: tuple[str, ...] = (),
                styles: dict[tuple[int, str], str] | None = None,
                ledgers: dict[str, list[LedgerEntry]] | None = None) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    severity_style = {"error": "bold red", "warning": "yellow", "info": "cyan"}
    marks = differing(rows)
    table = Table(title=title, show_lines=False, title_justify="left")
    for column in COLUMNS + extra_columns:
        table.add_column(column, overflow="fold")
    for i, row in enumerate(rows):
        cells = []
        for column in COLUMNS + extra_columns:
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
            cells.append(Text(value, style=style))
        table.add_row(*cells)
    console = Console()
    console.print(table)
    console.print(Text("magenta: differs from most providers · ledger: E errors, W warnings, I info; "
                       "`toolchoice render SCENARIO -p ID` shows every entry", style="dim"))
    for severity, code, providers, message in grouped_findings(ledgers or {}):
        line = Text(f"{code} ", style=severity_style[severity])
        line.append(f"({', '.join(providers)}): ", style="bold")
        line.append(message)
        console.print(line)


def grouped_findings(ledgers: dict[str, list[LedgerEntry]]) -> list[tuple[str, str, list[str], str]]:
    """Warnings and errors across providers, one line per code: (severity, code, providers, first message)."""
    found: dict[str, tuple[str, list[str], str]] = {}
    for provider, ledger in ledgers.items():
        for e in ledger:
            if e.severity == "info":
                continue
            severity, names, message = found.setdefault(e.code, (e.severity, [], e.message))
            if provider not in names:
                names.append(provider)
    order = {"error": 0, "warning": 1}
    return sorted(((sev, code, names, msg) for code, (sev, names, msg) in found.items()),
                  key=lambda item: order[item[0]])
