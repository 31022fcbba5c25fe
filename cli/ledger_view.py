"""The ledger as a table (render, send, parse, run --dry-run): severity, code, and what changed, its messages
drawn as data. A message that quotes JSON (`tool_choice required → {"type":"function","function":{...}}`) is
broken between the JSON's members where it does not fit its column (``call_lines.prose_lines``): rich folds a
word at any character, and read `{"type":"allowed_to` over `ols"`. The messages' words are the ledger's, and its
JSON output is untouched."""

from __future__ import annotations

import re
from typing import Any

SEVERITY_STYLE = {"info": "cyan", "warning": "yellow", "error": "bold red"}
MESSAGE_MIN = 20  # the narrowest the message column folds to
_NAME = re.compile(r"[\w.$:/<>-]{1,40}")  # a key, a variable, a URL: kept whole where a line holds it


def ledger_table(ledger: list[Any], width: int | None = None) -> Any:
    """The ledger as a rich table: severity, code (never broken), what changed. Where three columns do not
    fit ``width`` (a long code at 60 columns), one column: severity and code on a line, the message folded
    below them, so nothing is cut. A message quoting JSON is broken between its members at the width its
    column gets (``width`` given), every string and number whole where the column holds it."""
    from .call_lines import prose_json_least

    # three columns: 4 borders and 1 space each side of each cell; the message column at least as wide as the
    # longest name a message says to set (`providers.openai.rules` folded at 60 columns) and as the widest key or
    # value of the JSON it quotes (else it is shortened with "…"; one column holds it)
    names = (word.strip(",;:.()'`") for e in ledger for word in e.message.split())
    longest = max([0] + [len(name) for name in names if _NAME.fullmatch(name)]
                  + [prose_json_least(line) for e in ledger for line in e.message.split("\n")])
    needed = (max([len("severity")] + [len(e.severity) for e in ledger])  # the header is wider than "info"
              + max([len("code")] + [len(e.code) for e in ledger]) + max(MESSAGE_MIN, longest) + 10)
    stacked = width is not None and needed > width
    messages = [e.message for e in ledger]
    table = _table(ledger, messages, stacked)
    if width is None:
        return table
    broken = _broken(table, messages, width)
    if broken is None:
        return table
    out = _table(ledger, broken[1], stacked)
    out.columns[-1].width = broken[0]
    return out


def _table(ledger: list[Any], messages: list[str], stacked: bool) -> Any:
    from rich.table import Table
    from rich.text import Text

    if stacked:
        table = Table(show_header=True, header_style="bold", expand=False, show_lines=True)
        table.add_column("severity, code: what changed / what to know", overflow="fold")
        for e, message in zip(ledger, messages):
            style = SEVERITY_STYLE[e.severity]
            table.add_row(Text.assemble((f"{e.severity} ", style), (e.code, style), "\n", message))
        return table
    table = Table(show_header=True, header_style="bold", expand=False, show_lines=False)
    table.add_column("severity", no_wrap=True)
    table.add_column("code", no_wrap=True)
    table.add_column("what changed / what to know", overflow="fold", min_width=MESSAGE_MIN)
    for e, message in zip(ledger, messages):
        style = SEVERITY_STYLE[e.severity]
        table.add_row(Text(e.severity, style=style), Text(e.code, style=style), message)
    return table


def _broken(table: Any, messages: list[str], width: int) -> tuple[int, list[str]] | None:
    """(the message column's inner width as rich lays ``table`` out at ``width``, each message broken to it), or
    None where no message quotes JSON wider than its line (rich wraps them as before)."""
    from .call_lines import prose_lines
    from .table_draw import inner_widths

    widths = inner_widths(table, width)
    if widths is None:
        return None
    inner = widths[-1]
    out, changed = [], False
    for message in messages:
        lines = []
        for line in message.split("\n"):
            broken = prose_lines(line, inner)
            changed = changed or broken is not None
            lines += broken if broken is not None else [line]
        out.append("\n".join(lines))
    return (inner, out) if changed else None
