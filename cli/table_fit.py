"""``fitted_table``: a table whole at the console's width (run's step table and tallies, probe's questions, a
provider's features): bordered under its headers, else without side borders under short headers, else one record
a row (record_rows.py); the cells that are tool calls, JSON or prose quoting JSON broken as call_lines.py breaks
them at the width their column gets, never folded by rich inside a key, a value or a name."""

from __future__ import annotations

import re
from typing import Any

from toolchoice.providers.core.redaction import visible

from .hanging import UNITS, packed, unit_lines

_WORD_CAP = 14  # a longer word in a cell (JSON, an id) folds anyway; it does not decide the layout


# a name a line breaks inside only where a record's line cannot hold it: a fact id, a setting's key, a variable, a URL
_NAME = re.compile(r"[\w.$:/<>~%?=&#+@-]*[\w/]")


def _bare(word: str) -> str:
    """``word`` without the punctuation prose puts around a name: `(fact bedrock.strict_models)`, `'any'`."""
    return word.strip(",;:.()[]'`\"")


# a text preview (run's text answer in its calls cell) takes at most this many lines of the width its cell gets (more
# in a column too narrow for _PREVIEW_LAYOUT characters in them), and is measured _PREVIEW_LAYOUT long when the layout
# is chosen (the layouts stay as they were when it was cut to 30 characters)
PREVIEW_LINES = 2
_PREVIEW_LAYOUT = 40  # `(no call) ` and 30 characters


def preview_cut(text: str, width: int, lines: int = PREVIEW_LINES) -> str:
    """``text`` (one line of prose) cut at a space so it wraps in at most ``lines`` lines of ``width`` cells (the
    printer's greedy wrap), "…" after the last word kept; as it is where it fits."""
    import textwrap

    from .call_lines import ELLIPSIS, cell_len, shortened

    if width < 2 or cell_len(text) <= width:
        return text
    wrapped = textwrap.wrap(text, width, break_on_hyphens=False)
    if len(wrapped) <= lines and all(cell_len(line) <= width for line in wrapped):
        return text
    kept = wrapped[:lines]
    last = kept[-1]
    if cell_len(last) >= width and " " in last:  # no room for "…": after the word before
        last = last.rsplit(" ", 1)[0]
    kept[-1] = last + ELLIPSIS if cell_len(last) < width else shortened(last, width)
    return " ".join(kept)


def _previews_cut(rows: list[list[Any]], columns: dict[int, int], preview: Any,
                  layout: bool = False) -> list[list[Any]]:
    """``rows`` with each line of a str cell in ``columns`` (index: width) that ``preview`` matches cut to
    ``PREVIEW_LINES`` lines of its width; ``layout``: to that many characters, as the layout measures it."""
    from .call_lines import shortened

    def cut(line: str, width: int) -> str:  # in a narrow column, as many lines as hold what the layout measured
        return shortened(line, width) if layout else preview_cut(line, width, max(PREVIEW_LINES,
                                                                                  -(-_PREVIEW_LAYOUT // max(width, 1))))

    return [[("\n".join(cut(line, columns[i]) if preview.match(line) else line
                        for line in cell.split("\n")) if i in columns and isinstance(cell, str) else cell)
             for i, cell in enumerate(row)] for row in rows]


class PartsTitle:
    """A table's title of parts (``probe openai · URL · model · 1 sample(s) per question``, ``s.yaml · 20 providers ·
    dry run (nothing sent)``, the support matrix's legend), drawn at the width its table gets with a line broken only
    between two parts (``hanging.packed``), the separator's mark ending the line there as rich left it (`URL ·`: the
    lines joined by a space read the title), a part broken inside only where it alone is wider than a line (by the
    word rule): rich broke a title at any space, `1` over `sample(s) per question`, `dry` over `run`, `✘` over
    `unsupported`. Data: never read as markup, its controls written out (``visible``, before the parts are
    measured). ``str()`` is the title on one line."""

    def __init__(self, parts: list[str], separator: str = " · ", style: str = "table.title") -> None:
        self.parts, self.separator, self.style = [visible(part) for part in parts], separator, style

    def __str__(self) -> str:
        return self.separator.join(self.parts)

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import Text

        mark = self.separator.rstrip()  # " ·" ends a part's line; the space after it is the break
        gap = self.separator[len(mark):]
        parts = [Text(part + mark if i < len(self.parts) - 1 else part) for i, part in enumerate(self.parts)]
        title = packed(parts, gap, options.max_width)
        title.stylize(self.style)
        yield title


def parts_title(title: Any) -> Any:
    """``title`` (a str joined by " · ") as a ``PartsTitle``; any other title (a Text, one part) as it is."""
    return PartsTitle(title.split(" · ")) if isinstance(title, str) and " · " in title else title


def fitted_table(width: int, headers: list[str], rows: list[list[Any]], *, short: dict[str, str] | None = None,
                 right: tuple[str, ...] = (), title: Any = None, lines: bool = False,
                 word_cap: int = _WORD_CAP, caps: dict[str, int] | None = None, calls: tuple[str, ...] = (),
                 jsons: tuple[str, ...] = (), prose: tuple[str, ...] = (), pairs: tuple[str, ...] = (),
                 preview: Any = None) -> Any:
    """A table whole at ``width``: bordered under its headers where rich lays it out with every header word
    and cell word unbroken; else without side borders, under the ``short`` headers, words unbroken where that
    fits; else one row a record, each value after its header. ``right``: the right-justified columns; ``lines``:
    a rule between rows; ``word_cap``: the longest word that decides the layout (a longer one folds anyway);
    ``caps``: another for a column (by header): longer where its words are names (`{tool: plan_tool_call}` read
    `{tool:` over `plan_tool_call` over `}`), shorter where they are JSON that folds anyway (held to it where the
    table would not fit without side borders otherwise); ``calls``: the columns of tool calls, each broken only where
    an argument ends at the width its column gets (``call_lines``); ``jsons``: the columns of JSON (a tool_choice
    on the wire), each broken so between its members and elements (``json_lines``), a string or number never inside; ``prose``:
    the columns of text that may quote JSON (a verdict quoting a refusal), broken at their spaces and, inside the
    JSON, only between its members (``prose_lines``) where they quote it; a column in ``calls`` and ``prose``: each
    line holding a call broken as a call, each other as prose (run's side-by-side verdicts); ``pairs``: the columns
    whose cells are two halves joined by " / " (run's tokens, ``in 48 / out 19``), each half on a line of its own
    under the short headers, so the column is as narrow as its wider half there, and whole on one line elsewhere;
    ``preview``: a pattern for the lines of the ``calls`` columns that are a text's preview (run's `(no call) TEXT`),
    each cut to ``PREVIEW_LINES`` lines of the width its cell gets once the layout is chosen (one record a row: of a
    record's line), the layout chosen as if it were ``_PREVIEW_LAYOUT`` characters long."""
    import io

    from rich import box as boxes
    from rich.console import Console
    from rich.table import Table

    from .table_draw import laid_out_width

    rows = [[visible(cell) if isinstance(cell, str) else cell for cell in row] for row in rows]  # measured as shown
    title = parts_title(title)  # broken between its parts only
    whole_rows = rows  # the previews as long as they came, cut to the room once the layout is chosen
    at_previews = [i for i, header in enumerate(headers) if header in calls] if preview is not None else []
    if at_previews:
        rows = _previews_cut(rows, {i: _PREVIEW_LAYOUT for i in at_previews}, preview, layout=True)

    def longest(value: Any, cap: int = word_cap) -> int:
        """The widest word that decides the layout: up to ``cap``, or a name of any width a record's line holds (a
        fact id, a setting's key, a URL: `bedrock.strict_models` was folded in a provider's note column at 60)."""
        text = value.plain if hasattr(value, "plain") else str(value)
        words = UNITS.sub(lambda unit: unit.group().replace(" ", "_"), text).split()  # "362 ms": one word (measured)
        return max([min(cap, max(map(len, words), default=0))]
                   + [len(word) for word in map(_bare, words) if cap < len(word) <= width - 4 and _NAME.fullmatch(word)])

    def build(names: list[str], bordered: bool, tight: bool = False, rows: list[list[Any]] = rows) -> Any:
        if pairs and not bordered:
            rows = [[cell.replace(" / ", "\n") if isinstance(cell, str) and headers[i] in pairs else cell
                     for i, cell in enumerate(row)] for row in rows]
        table = Table(show_header=True, header_style="bold", expand=False, title=title, title_justify="left",
                      show_lines=lines,
                      **({} if bordered else {"box": boxes.SIMPLE_HEAD, "padding": (0, 1, 0, 0), "pad_edge": False,
                                              "show_edge": False}))
        for i, (header, name) in enumerate(zip(headers, names)):
            cap = (caps or {}).get(header, word_cap)
            if header in jsons:  # JSON's every key and value whole where it is not too long: past it, "…"
                from .call_lines import json_least

                least = max([longest(name)] + [min(cap, json_least(str(row[i])) or longest(row[i], cap))
                                               for row in rows])
            else:
                least = max([longest(name)] + [longest(row[i], cap) for row in rows])
            if header in prose:  # the JSON a text quotes: each key and value whole where a record's line holds it, as
                from .call_lines import prose_json_least  # the ledger's message column (past it, "…")

                least = max([least] + [piece for row in rows for line in str(getattr(row[i], "plain", row[i])).split("\n")
                                       if (piece := prose_json_least(line)) <= width - 4])
            if header in calls:  # an argument whole where it is not too long: past it, shortened ("…")
                from .call_lines import longest_piece

                least = max([least] + [min(cap, longest_piece(str(row[i]))) for row in rows])
            # tight: a column given a cap below word_cap (JSON, which folds anyway) no wider than its least where
            # a word of it passes the cap, so rich leaves the room to the others (the step table's wire column at
            # 80 columns, beside a tool name held whole)
            folds = tight and cap < word_cap and any(longest(row[i], 1 << 16) > cap for row in rows)
            table.add_column(name, justify="right" if header in right else "left", overflow="fold", min_width=least,
                             max_width=least if folds else None)
        for row in rows:
            table.add_row(*row)
        return table

    def fits(table: Any) -> bool:  # as the printer lays it out (new_console's fit)
        console = Console(width=width, file=io.StringIO(), markup=False, emoji=False, highlight=False)
        return laid_out_width(console, console.options, table) <= width

    def calls_broken(table: Any, *how: Any) -> Any:
        """``table`` built again (``how``: as it was built) with its calls broken at its columns' widths, each
        of those columns held at its width."""
        from rich.text import Text

        from .call_lines import broken, prose_block
        from .table_draw import inner_widths

        def prose_broken(cell: Any, width: int, calls: bool) -> Any:  # lines quoting JSON broken as the notes are
            text = cell.plain if isinstance(cell, Text) else cell
            if not isinstance(text, str) or (isinstance(cell, Text) and cell.spans):
                return cell
            # a line that is one JSON piece wider than the column is one line shortened with "…", as the ledger and
            # this table's one-record-a-row layout draw it (it was left for rich to fold inside its value)
            lines = prose_block(text, width, calls=calls)
            if lines is None:
                return cell
            joined = "\n".join(lines)
            return Text(joined, style=cell.style) if isinstance(cell, Text) else joined

        def units_held(cell: Any, width: int) -> Any:  # "362 ms" never "362" over "ms": wrapped here, units held
            text = cell.plain if isinstance(cell, Text) else cell
            if not isinstance(text, str) or (isinstance(cell, Text) and cell.spans) or not UNITS.search(text):
                return cell
            lines = unit_lines(text, width)
            if lines is None:
                return cell
            return Text("\n".join(lines), style=cell.style) if isinstance(cell, Text) else "\n".join(lines)

        at = [i for i, header in enumerate(headers) if header in calls or header in jsons or header in prose
              or any(UNITS.search(str(getattr(row[i], "plain", row[i]))) for row in rows)]
        widths = inner_widths(table, width) if at else None
        if widths is None:
            return table
        inner = {i: widths[i] for i in at}
        cells = _previews_cut(whole_rows, {i: inner[i] for i in at_previews}, preview) if at_previews else rows
        changed = [[prose_broken(cell, inner[i], headers[i] in calls) if i in inner and headers[i] in prose
                     else broken(cell, inner[i], headers[i] in jsons) if i in inner and isinstance(cell, str)
                     and (headers[i] in calls or headers[i] in jsons) else cell
                     for i, cell in enumerate(row)] for row in cells]
        changed = [[units_held(cell, inner[i]) if i in inner and headers[i] not in calls and headers[i] not in jsons
                     else cell for i, cell in enumerate(row)] for row in changed]
        if changed == rows:
            return table
        out = build(*how, rows=changed)
        for i in at:
            out.columns[i].width = inner[i]
        return out

    wide = build(headers, bordered=True)
    if fits(wide):
        return calls_broken(wide, headers, True)
    names = [(short or {}).get(h, h) for h in headers]
    for tight in (False, True):
        narrow = build(names, bordered=False, tight=tight)
        if fits(narrow):
            return calls_broken(narrow, names, False, tight)
    # one row a record, each value after its header, a label kept with the start of its value (record_rows)
    from .record_rows import record_table

    if at_previews:  # a record's lines, less the label before it
        rows = _previews_cut(whole_rows, {i: width - 4 - len((short or {}).get(headers[i], headers[i])) - 1
                                          for i in at_previews}, preview)
    return record_table(width, headers, rows, short=short, title=title, calls=calls, jsons=jsons, prose=prose,
                        pairs=pairs)
