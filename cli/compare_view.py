"""How `compare` draws its rows (``core/compare_records.py``: one row of cells per provider, built from the
translations, and the cells that differ): Markdown and rich tables that stay whole at 80 and 60 columns.
"""

from __future__ import annotations

import re

from toolchoice.providers.core.compare_records import COLUMNS, differing
from toolchoice.providers.core.model import LedgerEntry


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
# A host is not among them: folded, `api.openai.com` read `api.openai.` over `com`; the endpoint column goes first.
WRAPS = {"tool_choice on the wire", "calls", "verdict", "what changed / what to know", "evidence", "API tool_choice"}
SEVERITY_STYLE_TEXT = {"error": "bold red", "warning": "yellow", "info": "cyan"}
DIFF_MARK = "*"  # marks a differing cell when there is no colour to see


def colourless(console: object) -> bool:
    return getattr(console, "color_system", None) is None or bool(getattr(console, "no_color", False))


def fit_table(console: object, title: str, columns: tuple[str, ...], cells: list[list[object]],
              show_lines: bool = False) -> object:
    """The widest table that fits the console: full headers, then short ones, then columns dropped in
    DROP_ORDER (each time the full headers unfolded where they fit, else short ones). Ids, hosts, codes and
    headers never wrap; only free-text columns (WRAPS) fold, never inside a name or a unit ("95% CI 57%–100%)").
    Where not even the fewest columns fit at their least, one record a row (``record_rows``). Returns the table
    (rows of rich Texts in ``cells``, one per column)."""
    from rich.table import Table

    width = getattr(console, "width", 80)
    keep = list(columns)
    candidates: list[tuple[list[str], bool, bool]] = [(list(keep), False, False), (list(keep), True, False)]
    for column in DROP_ORDER:
        if column in keep and column != columns[0]:
            keep.remove(column)
            candidates += [(list(keep), False, True), (list(keep), True, False)]
    for chosen, short, whole in candidates:
        needs = _needs(chosen, columns, cells, short, whole)
        if 1 + sum(3 + least for least, _ in needs.values()) <= width:  # rich's borders and padding: 3 a column, 1
            break
    else:  # not even the fewest columns at their least (a tool name of 48 beside an interval): one record a row
        from .record_rows import record_table

        return record_table(width, list(columns), cells, short=SHORT, title=title)
    widths = _fold_widths(needs, width)
    table = Table(title=title, show_lines=show_lines, title_justify="left")
    for column in chosen:
        header = SHORT.get(column, column) if short else column
        if column in WRAPS:
            table.add_column(header, overflow="fold", min_width=needs[column][0], width=widths.get(column))
        else:
            table.add_column(header, no_wrap=True)
    for row in cells:
        table.add_row(*(_units_held(console, row[columns.index(c)], widths.get(c)) for c in chosen))
    left_out = [c for c in columns if c not in chosen]
    if left_out:  # never silently: say which, and where they are whole
        table.caption = (f"left out at {width} columns: {', '.join(left_out)} (a wider terminal, -f markdown or "
                         "-f json shows them)")
        table.caption_justify = "left"
    return table


def _least(header: str, whole: bool) -> int:
    """The narrowest a folding column gets: its header unfolded (``whole``), else at most 12 of it."""
    return len(header) if whole else max(8, min(len(header), 12))


_NAME = re.compile(r"[\w.$:/-]{1,64}")  # 64: the longest tool name the APIs take


def _longest_name(cells: list[list[object]], index: int) -> int:
    """The longest name written alone in a folding column (a variable, a tool, a model id: at 60 columns the
    skipped row's `set ANTHROPIC_API_KEY` read `ANTHROPIC_AP` over `I_KEY`), or before its call's arguments
    (`get_weather({...})`: the calls column), and the longest unit (``hanging.UNITS``: "95% CI 57%–100%)"); JSON
    folds anyway."""
    from .hanging import UNITS  # the pretty table's only: compare -f json / markdown do not load it

    texts = [str(row[index]) for row in cells]
    words = (word.split("(", 1)[0] for text in texts for word in text.split())
    units = (len(unit) for text in texts for unit in UNITS.findall(text))
    return max([len(word) for word in words if _NAME.fullmatch(word)] + list(units), default=0)


def _units_held(console: object, cell: object, width: int | None) -> object:
    """``cell`` (a rich Text) folded at ``width`` with the spaces of each unit in it ("95% CI 57%–100%)") held by a
    stand-in while rich wraps (``hanging.free_stand_ins``), then put back: rich breaks at every space, and the
    column is at least as wide as its longest unit (``_longest_name``). As it is where nothing folds."""
    from .hanging import UNITS, free_stand_ins

    plain = getattr(cell, "plain", None)
    if width is None or plain is None or not UNITS.search(plain):
        return cell
    held = next(iter(free_stand_ins(plain, 1)), None)
    if held is None:
        return cell
    text = cell.copy()  # type: ignore[attr-defined]
    text.plain = UNITS.sub(lambda m: m.group().replace(" ", held), plain)  # same length: styles stay
    lines = text.wrap(console, width, overflow="fold")
    for line in lines:
        line.rstrip()
    folded = type(text)("\n").join(lines)
    folded.plain = folded.plain.replace(held, " ")
    return folded


def _needs(chosen: list[str], columns: tuple[str, ...], cells: list[list[object]], short: bool,
           whole: bool) -> dict[str, tuple[int, int]]:
    """Each chosen column's least and natural width: an unbroken column its longest line (or its header) for both;
    a folding one its least (``_least``, and never below a name written alone in it) and its longest line."""
    needs = {}
    for column in chosen:
        header = SHORT.get(column, column) if short else column
        index = columns.index(column)
        longest = max((len(line) for row in cells for line in str(row[index]).splitlines()), default=0)
        if column in WRAPS:
            least = max(_least(header, whole), _longest_name(cells, index))
            needs[column] = (least, max(least, longest))
        else:
            needs[column] = (max(len(header), longest),) * 2
    return needs


def _fold_widths(needs: dict[str, tuple[int, int]], width: int) -> dict[str, int]:
    """Where the table is wider than ``width``, each folding column's width: its least, then the room left handed
    to the one farthest below its natural width, a cell at a time. rich narrows the widest folding columns
    first, below their least (a name of 17 folded in a column of 16 beside a wide one); {} where all fits."""
    wants = {column: need for column, need in needs.items() if column in WRAPS}
    room = width - 1 - 3 * len(needs) - sum(least for column, (least, _) in needs.items() if column not in WRAPS)
    if sum(natural for _, natural in wants.values()) <= room:
        return {}
    widths = {column: least for column, (least, _) in wants.items()}
    room -= sum(widths.values())
    while room > 0:
        short_of = [(wants[c][1] - w, c) for c, w in widths.items() if w < wants[c][1]]
        if not short_of:
            break
        widths[max(short_of)[1]] += 1
        room -= 1
    return widths


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
