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
    if marks:  # the key only where a cell is marked
        lines += ["", "**bold**: differs from most providers."]
    return "\n".join(lines)


# Short headers for narrow terminals, and the order columns are dropped in when even those do not fit.
SHORT = {"tool_choice on the wire": "on the wire", "parallel": "par.", "endpoint": "host", "latency ms": "ms",
         "tokens (mean)": "tokens"}
# The short headers that are abbreviations, and what they stand for: said in the key under a dry run's table where one
# is drawn (the other short headers are words: on the wire, host, tokens; `ms` is the unit of the latency's cells)
ABBREVIATED = {"par.": "parallel_tool_calls"}
DROP_ORDER = ("endpoint", "tools", "parallel", "strict", "tokens", "tokens (mean)", "latency ms", "ledger")
# A host is not among them: folded, `api.openai.com` read `api.openai.` over `com`; the endpoint column goes first.
WRAPS = {"tool_choice on the wire", "calls", "verdict", "what changed / what to know", "evidence", "API tool_choice"}
SEVERITY_STYLE_TEXT = {"error": "bold red", "warning": "yellow", "info": "cyan"}
DIFF_MARK = "*"  # marks a differing cell when there is no colour to see
WIRE = "tool_choice on the wire"


JSON_COLUMNS = (WIRE, "API tool_choice")  # JSON: broken between members and elements, never inside a value
# The narrowest a JSON column gets for its widest key: the longest key a provider's tool_choice holds, Anthropic's
# `"disable_parallel_tool_use":` (28), whole; a longer one (a scenario's own) is shortened with "…". At 24
# (the calls' PIECE_LEAST) five providers at 80 columns read `"disable_parallel_tool_use…` (trial16c).
JSON_KEY_LEAST = 28


def _breaks(column: str, columns: tuple[str, ...]) -> bool:
    """Whether ``column``'s cells are broken only where an argument ends (``call_lines``): the calls, and the
    tool_choice on the wire (a dialect's API tool_choice too), JSON, broken so between its members and elements,
    dry run or sent (folded, `{"type":"allowed_to` read over `ols",...`)."""
    return column == "calls" or column in JSON_COLUMNS


def colourless(console: object) -> bool:
    return getattr(console, "color_system", None) is None or bool(getattr(console, "no_color", False))


def fit_table(console: object, title: str, columns: tuple[str, ...], cells: list[list[object]],
              show_lines: bool = False, pairs: tuple[str, ...] = (), whole: str = "-f markdown or -f json") -> object:
    """The table that fits the console and reads best: every column, then one fewer at a time in DROP_ORDER, each
    set laid out under its full headers or its short ones (``_layout`` counts the lines), and a column dropped only
    where that makes the table much shorter (``_much_longer``): the columns that fold (the wire form) keep their
    width before a host or a tools column does (at 120 columns the host column left the wire column 11 wide, a
    table of 86 lines; more width never makes a table much longer). Headers never
    fold; ids, hosts and codes never wrap; only free-text columns (WRAPS) fold, never inside a name or a unit
    ("95% CI 57%–100%)"). Where not even the fewest columns fit at their least, one record a row
    (``record_rows``). ``pairs``: the columns whose cells are two halves joined by " / " (the tokens, ``in 10 / out
    5``, as run's tables say them: table_fit.fitted_table's ``pairs``), whole on one line under the full headers;
    under the short ones each half on a line of its own where that makes the table shorter (the column as narrow as
    its wider half), else whole.
    Returns the table (rows of rich Texts in ``cells``, one per column)."""
    from rich.table import Table

    from .table_fit import parts_title

    title = parts_title(title)  # "s.yaml · 20 providers · dry run (nothing sent)": broken between its parts only
    width = getattr(console, "width", 80)
    keep = list(columns)
    steps = [list(keep)]
    for column in DROP_ORDER:
        if column in keep and column != columns[0]:
            keep.remove(column)
            steps.append(list(keep))
    texts = _Texts(cells, tuple(columns.index(c) for c in pairs if c in columns))
    best = None
    for chosen in steps:  # each column dropped only where that makes the table much shorter
        full = _layout(chosen, columns, texts, False, width, show_lines)
        # under the short headers a pair's halves on a line each where that makes the table shorter, else whole
        shorts = [found for halves in ((False, True) if texts.pairs else (False,))
                  if (found := _layout(chosen, columns, texts, True, width, show_lines, halves)) is not None]
        short = min(shorts, key=lambda found: found[:2]) if shorts else None
        # full headers where they make the table no longer, nor fold its cells more
        layout = full if full is not None and (short is None or full[:2] <= short[:2]) else short
        if best is None:
            best = layout
        elif layout is not None and _much_longer(layout[0]) < best[0]:
            best = layout
        elif layout is not None:
            break
    if best is None:  # not even the fewest columns at their least (a tool name of 48 beside an interval): one a row
        from .record_rows import record_table

        labels = {k: v for k, v in SHORT.items() if k not in pairs}  # "tokens (mean) in 10 / out 5": the mean said
        return record_table(width, list(columns), cells, short=labels, title=title, calls=("calls",),
                            jsons=tuple(c for c in JSON_COLUMNS if c in columns), pairs=pairs)
    _, _, chosen, short, needs, widths, halves = best
    table = Table(title=title, show_lines=show_lines, title_justify="left")
    for column in chosen:
        header = SHORT.get(column, column) if short else column
        if column in WRAPS:
            table.add_column(header, overflow="fold", min_width=needs[column][0], width=widths.get(column))
        else:
            table.add_column(header, no_wrap=True)
    for row in cells:
        table.add_row(*(_calls_broken(row[columns.index(c)], widths.get(c), c in JSON_COLUMNS) if _breaks(c, columns)
                        else _halves(row[columns.index(c)]) if halves and c in pairs
                        else _units_held(console, row[columns.index(c)], widths.get(c)) for c in chosen))
    left_out = [c for c in columns if c not in chosen]
    if left_out:  # never silently: say which, and where they are whole
        table.caption = f"left out at {width} columns: {', '.join(left_out)} (a wider terminal, {whole} shows them)"
        table.caption_justify = "left"
    return table


def _halves(cell: object) -> object:
    """A pair's cell (``in 10 / out 5``) with each half on a line of its own; one style over the whole cell stays."""
    plain = getattr(cell, "plain", None)
    if plain is None or " / " not in plain or getattr(cell, "spans", True):
        return cell
    out = cell.copy()  # type: ignore[attr-defined]
    out.plain = plain.replace(" / ", "\n")
    return out


def _much_longer(lines: int) -> float:
    """Fewer lines than a layout with one column more must take for that column to be dropped: a sixth fewer
    (a fifth more the other way)."""
    return lines * 1.2


class _Texts:
    """Each column's cell texts and their lines, measured once for every layout tried."""

    def __init__(self, cells: list[list[object]], pairs: tuple[int, ...] = ()) -> None:
        self.cells = cells
        self.pairs = pairs  # the columns whose cells are two halves joined by " / " (fit_table's pairs)
        self._columns: dict[tuple[int, bool], list[list[str]]] = {}
        self._longest: dict[tuple[int, bool], int] = {}
        self._names: dict[int, int] = {}
        self._pieces: dict[int, int] = {}

    def lines(self, index: int, halves: bool = False) -> list[list[str]]:
        """Each cell's lines; ``halves``: a pair column's as the short headers draw it, each half on its own line."""
        key = (index, halves and index in self.pairs)
        found = self._columns.get(key)
        if found is None:
            found = self._columns[key] = [(str(row[index]).replace(" / ", "\n") if key[1] else str(row[index]))
                                          .splitlines() or [""] for row in self.cells]
        return found

    def longest(self, index: int, halves: bool = False) -> int:
        """The column's longest line."""
        key = (index, halves and index in self.pairs)
        if key not in self._longest:
            self._longest[key] = max((len(line) for lines in self.lines(*key) for line in lines), default=0)
        return self._longest[key]

    def longest_piece(self, index: int, json: bool = False) -> int:
        """The widest piece of a call (``json``: of JSON) in the column (``call_lines.longest_piece``), up to
        ``PIECE_LEAST``; JSON's widest key alone (``call_lines.json_widest_key``) up to ``JSON_KEY_LEAST``."""
        if index not in self._pieces:
            from .call_lines import PIECE_LEAST, json_widest_key, longest_piece

            texts = [str(row[index]) for row in self.cells]
            widest = min(PIECE_LEAST, max((longest_piece(text, json) for text in texts), default=0))
            if json:
                widest = max(widest, min(JSON_KEY_LEAST, max(map(json_widest_key, texts), default=0)))
            self._pieces[index] = widest
        return self._pieces[index]

    def longest_name(self, index: int) -> int:
        """``_longest_name`` of the column."""
        if index not in self._names:
            self._names[index] = _longest_name(self.cells, index)
        return self._names[index]


def _folded_lines(lines: list[str], width: int) -> int:
    """How many lines a cell takes folded at ``width``, as rich wraps it: at spaces, a word longer than a line
    folded (a unit held whole counts as a word: it is never split)."""
    total = 0
    for line in lines:
        if len(line) <= width:
            total += 1
            continue
        used = -1
        count = 1
        for word in line.split(" "):
            if used + 1 + len(word) <= width:
                used += 1 + len(word)
                continue
            if used > 0:
                count += 1
            count += (len(word) - 1) // width
            used = len(word) - (len(word) - 1) // width * width
        total += count
    return total


def _call_lines_count(lines: list[str], width: int, json: bool = False) -> int:
    """How many lines a calls cell takes at ``width``: its calls broken where an argument ends (``json``: a wire
    cell's JSON), any other line folded as rich folds it."""
    from .call_lines import call_lines, json_lines

    total = 0
    for line in lines:
        broken = json_lines(line, width) if json else call_lines(line, width)
        total += len(broken) if broken is not None else _folded_lines([line], width)
    return total


def _layout(chosen: list[str], columns: tuple[str, ...], texts: _Texts, short: bool, width: int,
            show_lines: bool, halves: bool = False) -> tuple[int, int, list[str], bool, dict[str, tuple[int, int]],
                                                             dict[str, int], bool] | None:
    """The lines a layout of ``chosen`` columns takes at ``width`` (header, rows, borders) and the cells its folding
    columns lack, with what draws it; None where its columns do not fit at their least (rich's borders and padding:
    3 a column, and 1). ``halves``: the pair columns' halves on a line each (fit_table's ``pairs``)."""
    needs = _needs(chosen, columns, texts, short, halves)
    if 1 + sum(3 + least for least, _ in needs.values()) > width:
        return None
    widths = _fold_widths(needs, width)
    rows = len(texts.cells)
    heights = [1] * rows
    for column in chosen:
        cell_lines = texts.lines(columns.index(column), halves)
        at = widths.get(column)
        for i, lines in enumerate(cell_lines):
            tall = (len(lines) if at is None else _call_lines_count(lines, at, column in JSON_COLUMNS)
                    if _breaks(column, columns) else _folded_lines(lines, at))
            if tall > heights[i]:
                heights[i] = tall
    borders = 4 + (max(0, rows - 1) if show_lines else 0)
    lacking = sum(needs[column][1] - at for column, at in widths.items())
    return sum(heights) + borders, lacking, chosen, short, needs, widths, halves


def _least(header: str) -> int:
    """The narrowest a folding column gets: its header unfolded (a full one; a short one is at most 12)."""
    return len(header)


_NAME = re.compile(r"[\w.$:/-]{1,64}")  # 64: the longest tool name the APIs take


def _longest_name(cells: list[list[object]], index: int) -> int:
    """The longest name written alone in a folding column (a variable, a tool, a model id: at 60 columns the
    skipped row's `set ANTHROPIC_API_KEY` read `ANTHROPIC_AP` over `I_KEY`), or before its call's arguments
    (`get_weather({...})`: the calls column), and the longest unit (``hanging.UNITS``: "95% CI 57%–100%)"); JSON
    folds anyway."""
    from .hanging import UNITS  # the pretty table's only: compare -f json / markdown do not load it

    texts = [str(row[index]) for row in cells]
    words = (word.partition("(") for text in texts for word in text.split())
    units = (len(unit) for text in texts for unit in UNITS.findall(text))
    return max([len(name + bracket) for name, bracket, _ in words if _NAME.fullmatch(name)] + list(units), default=0)


def _calls_broken(cell: object, width: int | None, json: bool = False) -> object:
    """A call too wide for its column broken where an argument ends (``call_lines``: `get_weather(` over
    `{"city":"example",` over `"days":1})`, never `{"city":"exa` over `mple"`); ``json``: a tool_choice on the wire
    as JSON, broken so too."""
    from .call_lines import broken

    plain = getattr(cell, "plain", None)
    if width is None or plain is None or getattr(cell, "spans", True):
        return cell
    text = broken(plain, width, json)
    if text == plain:
        return cell
    out = cell.copy()  # type: ignore[attr-defined]
    out.plain = text  # one style over the whole cell (no spans): it stays
    return out


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
    from .word_breaks import wrap

    lines = wrap(text, console, width, overflow="fold")
    for line in lines:
        line.rstrip()
    folded = type(text)("\n").join(lines)
    folded.plain = folded.plain.replace(held, " ")
    return folded


def _needs(chosen: list[str], columns: tuple[str, ...], texts: _Texts,
           short: bool, halves: bool = False) -> dict[str, tuple[int, int]]:
    """Each chosen column's least and natural width: an unbroken column its longest line (or its header) for both;
    a folding one its least (``_least``, and never below a name written alone in it) and its longest line."""
    needs = {}
    for column in chosen:
        header = SHORT.get(column, column) if short else column
        index = columns.index(column)
        longest = texts.longest(index, halves)
        if column in WRAPS:
            least = max(_least(header), texts.longest_name(index))
            if _breaks(column, columns):  # an argument whole where it is not too long: past it, shortened ("…")
                least = max(least, texts.longest_piece(index, column in JSON_COLUMNS))
            needs[column] = (least, max(least, longest))
        else:
            needs[column] = (max(len(header), longest),) * 2
    return needs


def _fold_widths(needs: dict[str, tuple[int, int]], width: int) -> dict[str, int]:
    """Where the table is wider than ``width``, each folding column's width: its least, then the room left shared
    out from the column nearest its natural width up (each takes what it lacks, or an even share of what is
    left: columns made whole first, the rest folded alike). rich narrows the widest folding columns first, below
    their least (a name of 17 folded in a column of 16 beside a wide one); {} where all fits."""
    wants = {column: need for column, need in needs.items() if column in WRAPS}
    room = width - 1 - 3 * len(needs) - sum(least for column, (least, _) in needs.items() if column not in WRAPS)
    if sum(natural for _, natural in wants.values()) <= room:
        return {}
    widths = {column: least for column, (least, _) in wants.items()}
    room -= sum(widths.values())
    lacking = sorted(wants, key=lambda c: wants[c][1] - wants[c][0])
    for k, column in enumerate(lacking):
        share = room // (len(lacking) - k)
        given = min(wants[column][1] - widths[column], max(0, share))
        widths[column] += given
        room -= given
    return widths


def print_table(rows: list[dict[str, str]], title: str, extra_columns: tuple[str, ...] = (),
                styles: dict[tuple[int, str], str] | None = None,
                ledgers: dict[str, list[LedgerEntry]] | None = None, whole: str = "-f markdown or -f json") -> None:
    """``whole``: the formats of the command drawing it that show every column (render has no markdown)."""
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
    table = fit_table(console, title, columns, cells, whole=whole)
    console.print(table)
    # the keys of what is drawn only: at 60 columns the marked cells' columns and the ledger's may be left out
    shown = drawn_columns(table, columns)
    legend = (f"{DIFF_MARK if plain else 'magenta'}: differs from most providers · "
              if any(column in shown for _, column in marks) else "")
    legend += "".join(f"{short}: {meaning} · " for short, meaning in abbreviations_drawn(table, columns))
    key = ("ledger: E errors, W warnings, I info; `toolchoice render SCENARIO -p ID` shows every entry"
           if "ledger" in shown else "`toolchoice render SCENARIO -p ID` shows each provider's ledger")
    from .word_breaks import lines_holding

    for line in lines_holding(legend + key, max(console.width, 1), ("`toolchoice render SCENARIO -p ID`",)):
        console.print(Text(line, style="dim"))  # the command whole on a line: at 60 columns it was split
    for severity, code, providers, message in grouped_findings(ledgers or {}):
        from .hanging import prose_broken, redacted

        line = Text(f"{code} ", style=severity_style[severity])
        line.append(f"({providers_named(providers, list(ledgers or {}))}): ", style="bold")
        line.append(redacted(console, message))  # the keys out before a line quoting JSON is broken
        console.print(prose_broken(console, line))


def drawn_columns(table: object, columns: tuple[str, ...]) -> tuple[str, ...]:
    """The columns ``fit_table`` drew: those whose header (full or short) heads one of the table's columns; every
    column where it drew one record a row (no header: each value after its label)."""
    if not getattr(table, "show_header", False):
        return columns
    headers = {str(getattr(c, "header", "")) for c in getattr(table, "columns", ())}
    return tuple(c for c in columns if c in headers or SHORT.get(c) in headers)


def abbreviations_drawn(table: object, columns: tuple[str, ...]) -> list[tuple[str, str]]:
    """The abbreviated headers (``ABBREVIATED``) ``fit_table`` drew, each with what it stands for: under the short
    headers, or as a label where it drew one record a row (whose labels are the short headers)."""
    if getattr(table, "show_header", False):
        drawn = {str(getattr(c, "header", "")) for c in getattr(table, "columns", ())}
    else:
        drawn = {SHORT.get(c, c) for c in columns}
    return [(short, meaning) for short, meaning in ABBREVIATED.items() if short in drawn]


def providers_named(providers: list[str], compared: list[str]) -> str:
    """The providers a finding line concerns, as its parenthesis names them: by id, or, when they are most of ten
    or more compared (-p all: nineteen ids over three lines), as "every provider" and the few left out."""
    others = [p for p in compared if p not in providers]
    if len(compared) >= 10 and len(others) <= 3:
        return "every provider" + (f" but {', '.join(others)}" if others else "")
    return ", ".join(providers)


def grouped_findings(ledgers: dict[str, list[LedgerEntry]]) -> list[tuple[str, str, list[str], str]]:
    """Warnings and errors across providers, one line per code and message: (severity, code, providers,
    message). Providers share a line only when their messages are the same once each provider's own
    name (its capability title) reads "the provider", so every provider's line says what its ledger says."""
    from toolchoice.providers.core.capabilities import CAPABILITIES

    found: dict[tuple[str, str], tuple[str, list[str], str]] = {}
    for provider, ledger in ledgers.items():
        title = CAPABILITIES[provider].title if provider in CAPABILITIES else provider
        # the title as a word only: Groq's title inside langchain's wrapper name ChatGroq read "Chatthe provider"
        named = re.compile(rf"(?<!\w){re.escape(title)}(?!\w)") if title else None
        for e in ledger:
            if e.severity == "info":
                continue
            general = named.sub("the provider", e.message) if named is not None else e.message
            severity, names, message = found.setdefault((e.code, general), (e.severity, [], e.message))
            if provider not in names:
                names.append(provider)
    order = {"error": 0, "warning": 1}
    lines = [(sev, code, names, msg if len(names) == 1 else general)
             for (code, general), (sev, names, msg) in found.items()]
    return sorted(lines, key=lambda item: order[item[0]])
