"""Tables drawn as rich draws them, at a cost that does not grow with rich's per-cell machinery.

rich lays out every cell of a table through its whole general path, and measures every cell again on each
layout: a padding, ``Measurement.get`` twice, ``render_lines``, the text's word wrap, justification, a join, a
render into segments and a split back into lines (~100 µs a cell here: a reply with 3,000 calls is 12,000
cells, over a second, and `fit` and `fitted_table` lay a table out more than once). Here:

- ``column_widths``: a column's width depends only on its widest cell and on the cell with the longest word,
  so rich computes the widths on a copy of the table that holds just those cells (``Text.__rich_measure__``'s
  figures, found in one pass);
- ``padded_lines``: a cell of plain text with one style whose every line fits its column is its lines padded
  to the width, between the padding's spaces;
- ``drawn``: the rows, borders and title put together as ``Table._render`` puts them (tables with a footer,
  row styles, sections, leading or a caption are left to rich); where no colour is written, each line goes
  out as one piece of text.

Every other cell goes through rich as before. tests/test_table_draw.py holds the output to rich's own, styles
included, at many widths. The private parts of rich used here (``_get_cells``, ``_calculate_column_widths``,
``_extra_width``, ``Text._spans``) are checked once (``drawable``): without them rich draws the table itself.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from typing import Any, Callable

from rich.cells import cell_len
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

from .word_breaks import wrap


def padded_lines(console: Any, renderable: Any, options: Any, style: Any,
                 shown: Callable[[Any, Any], Any]) -> list[list[Segment]] | None:
    """What ``console.render_lines(renderable, options, style=style, pad=True)`` returns for a table cell (a
    ``Padding`` around a ``str`` or a ``Text``), or None where it is not that simple. ``shown``: what the
    printer does to every Text it draws (keys redacted, controls written out)."""
    if type(renderable) is not Padding or not renderable.expand or renderable.top or renderable.bottom:
        return None
    if options.height is not None:
        return None
    left, right = renderable.left, renderable.right
    width = options.max_width - left - right
    if width < 1:
        return None
    inner = renderable.renderable
    if type(inner) is str:
        text = console.render_str(inner, highlight=options.highlight, markup=options.markup)
    elif type(inner) is Text:
        text = shown(console, inner)
    else:
        return None
    if type(text) is not Text or text._spans:
        return None
    justify = text.justify or options.justify
    overflow = text.overflow or options.overflow
    if justify not in ("left", "right") or overflow == "ignore":
        return None
    plain = text.plain
    if "\t" in plain:
        return None
    lines = plain.split("\n")
    if any(len(line) > width for line in lines):  # folded (or zero-width characters: rich's trailing-space rules)
        # by rich's own word wrap, linear in the text; rich would join the lines again and split the whole
        # text at each line end (Segment.split_and_crop_lines: a copy of the rest each time, quadratic:
        # 10 minutes for a 27 MB argument)
        no_wrap = text.no_wrap if text.no_wrap is not None else bool(options.no_wrap)
        drawn = [line.plain for line in wrap(text, console, width, justify=justify, overflow=overflow,
                                              no_wrap=no_wrap)]
        if any(cell_len(line) != width for line in drawn):  # justified to the width by the wrap, else rich draws
            return None
    else:
        justified = [_justified(line, width, justify) for line in lines]
        if None in justified:
            return None
        drawn = [line for line in justified if line is not None]
    pad_style = console.get_style(renderable.style)
    text_style = console.get_style(text.style) if text.style else None
    if style:  # render_lines lays the cell's style under every segment
        pad_style = style + pad_style
        text_style = style + text_style
    head = [Segment(" " * left, pad_style)] if left else []
    tail = [Segment(" " * right, pad_style)] if right else []
    return [[*head, Segment(line, text_style), *tail] for line in drawn]


def _justified(line: str, width: int, justify: str) -> str | None:
    """A line that fits its column, padded to the width as rich justifies it (None: it does not fit)."""
    if justify == "right":
        line = line.rstrip()
    cells = cell_len(line)
    if cells > width:
        return None
    return line + " " * (width - cells) if justify == "left" else " " * (width - cells) + line


def measurable(table: Any) -> bool:
    """Whether ``column_widths`` can lay ``table`` out (this rich has the internals it uses)."""
    return (isinstance(table, Table) and hasattr(table, "_calculate_column_widths") and hasattr(table, "_extra_width")
            and all(hasattr(column, "_cells") for column in table.columns))


def drawable(table: Any) -> bool:
    """Whether ``drawn`` draws this table (else rich does)."""
    return (type(table) is Table and measurable(table) and hasattr(table, "_get_cells") and bool(table.columns)
            and not table.show_footer and not table.leading and not table.row_styles and table.caption is None
            and all(row.style is None and not row.end_section for row in table.rows))


def _measured(console: Any, options: Any, cell: Any) -> tuple[int, int] | None:
    """``Text.__rich_measure__``'s (minimum, maximum) of a text cell, as ``Measurement.get`` reads it (a string
    through ``render_str``); None for any other renderable."""
    if type(cell) is str:
        cell = console.render_str(cell, markup=options.markup, highlight=False)
    if type(cell) is not Text:
        return None
    plain = cell.plain
    width = len if plain.isascii() and plain.replace("\n", "").isprintable() else cell_len  # one cell a character
    lines = plain.splitlines()
    widest = max(map(width, lines)) if lines else 0
    words = plain.split()
    return (max(map(width, words)) if words else widest), widest


def _deciding_cells(console: Any, options: Any, table: Any) -> list[list[Any]]:
    """Per column, the cells that decide its measurement: the one with the longest word, the widest one, and
    every cell that is not text. Kept on the table for the next layout by the same kind of console."""
    key = (type(console), options.markup, len(table.rows))
    kept = getattr(table, "_deciding_cells", None)
    if kept is not None and kept[0] == key:
        return kept[1]
    deciding = []
    for column in table.columns:
        cells: list[Any] = []
        longest_word = widest = -1
        word_cell = wide_cell = None
        for cell in column._cells:
            measured = _measured(console, options, cell)
            if measured is None:
                cells.append(cell)
                continue
            if measured[0] > longest_word:
                longest_word, word_cell = measured[0], cell
            if measured[1] > widest:
                widest, wide_cell = measured[1], cell
        deciding.append(cells + [cell for cell in (word_cell, wide_cell) if cell is not None])
    table._deciding_cells = (key, deciding)
    return deciding


def column_widths(console: Any, table: Any, options: Any) -> list[int]:
    """``table._calculate_column_widths(console, options)``, measuring each text cell once: a column's
    measurement is the largest minimum and the largest maximum of its cells (both only shrink with the width
    rich offers, so the same cells decide at every width), and rich lays out a copy holding only those."""
    proxy = copy.copy(table)
    proxy.columns = [dataclasses.replace(column, _cells=cells)
                     for column, cells in zip(table.columns, _deciding_cells(console, options, table))]
    widths: list[int] = proxy._calculate_column_widths(console, options)
    return widths


def inner_widths(table: Any, width: int) -> list[int] | None:
    """Each column's width inside its padding as rich lays ``table`` out ``width`` cells wide (what a cell's text
    may be broken to); None for a table ``column_widths`` cannot measure."""
    import io

    from rich.console import Console

    if not measurable(table) or not hasattr(table, "_get_padding_width"):
        return None
    console = Console(width=width, file=io.StringIO(), markup=False, emoji=False, highlight=False)
    widths = column_widths(console, table, console.options.update_width(width - table._extra_width))
    return [column - table._get_padding_width(i) for i, column in enumerate(widths)]


def drawn(console: Any, table: Any, options: Any, shown: Callable[[Any, Any], Any] | None = None) -> list[Segment]:
    """The segments ``Table.__rich_console__`` yields for a ``drawable`` table. ``shown``: as for
    ``padded_lines`` (without it every cell goes through ``console.render_lines``)."""
    if options.max_width < 1:
        return []
    max_width = options.max_width if table.width is None else table.width
    extra = table._extra_width
    widths = column_widths(console, table, options.update_width(max_width - extra))
    render_options = options.update(width=sum(widths) + extra, highlight=table.highlight, height=None)
    out: list[Segment] = []
    if table.title:
        title = (console.render_str(table.title, style=Style.pick_first(table.title_style, "table.title"),
                                    highlight=False) if isinstance(table.title, str) else table.title)
        out.extend(console.render(title, render_options.update(justify=table.title_justify)))
    lines = _table_lines(console, table, render_options, widths, shown)
    if console.color_system is None:  # no style is written: a line is one piece of text
        new_line = Segment.line()
        for line in lines:
            out.append(Segment("".join(segment.text for segment in line)))
            out.append(new_line)
    else:
        for line in lines:
            out.extend(line)
            out.append(Segment.line())
    return out


SPACES_AT_LINE_END = re.compile(r" +\n")


def bare_line_ends(text: str) -> str:
    """``text`` without the spaces that end its lines: only the lines that do are looked at (a regex tries every
    space of a table's padding, ~4% of drawing the support matrix)."""
    found = text.find(" \n")
    if found < 0:
        return text
    pieces = []
    start = 0
    while found >= 0:
        pieces.append(text[start:found + 1].rstrip(" "))
        start = found + 1  # the line end starts the next piece
        found = text.find(" \n", found + 2)
    pieces.append(text[start:])
    return "".join(pieces)


def line_ends_bare(segments: Any) -> list[Segment]:
    """``segments`` without the spaces that end a line (a title or caption padded to the width, the space a wrapped
    text broke at): piped output has no trailing spaces. Spaces under a background colour stay, and so do the
    spaces that end the last, unfinished line (the next print goes on after them)."""
    out: list[Segment] = []
    tail: list[Segment] = []  # blank segments that end the line so far
    for segment in segments:
        text, style, control = segment
        if control or (style is not None and style.bgcolor is not None):
            out += tail
            tail.clear()
            out.append(segment)
            continue
        if "\n" in text:
            if text.partition("\n")[0].strip(" "):
                out += tail  # the line goes on in this segment: its blanks were not its end
            tail.clear()
            text = SPACES_AT_LINE_END.sub("\n", text)  # a segment: short
        elif not text.strip(" "):
            tail.append(segment)
            continue
        else:
            out += tail
            tail.clear()
        bare = text.rstrip(" ")
        if len(bare) < len(text):
            tail.append(Segment(text[len(bare):], style))
            segment = Segment(bare, style)
        elif text is not segment.text:
            segment = Segment(text, style)
        if segment.text:
            out.append(segment)
    out += tail
    return out


_ALIGN = {"top": Segment.align_top, "middle": Segment.align_middle, "bottom": Segment.align_bottom}


def _table_lines(console: Any, table: Any, options: Any, widths: list[int],
                 shown: Callable[[Any, Any], Any] | None) -> list[list[Segment]]:
    """The table's lines (no line ends): edges, the header, the rows and the lines between them."""
    get_style = console.get_style
    border = get_style(table.style or "") + get_style(table.border_style or "")
    safe = table.safe_box if table.safe_box is not None else console.safe_box
    box = table.box.substitute(options, safe=safe) if table.box else None
    if box and not table.show_header:
        box = box.get_plain_headed_box()
    edge = table.show_edge
    columns = table.columns
    rows = list(zip(*(table._get_cells(console, index, column) for index, column in enumerate(columns))))
    no_style = Style.null()
    lines: list[list[Segment]] = []
    if box and edge:
        lines.append([Segment(box.get_top(widths), border)])
    sides = [(box.head_left, box.head_right, box.head_vertical), (box.mid_left, box.mid_right, box.mid_vertical),
             (box.foot_left, box.foot_right, box.foot_vertical)] if box else []
    for index, row in enumerate(rows):
        first, last = index == 0, index == len(rows) - 1
        header = first and table.show_header
        cells = []
        exact = []  # whether a cell's lines are as wide as its column (rich's set_shape would change nothing)
        for width, cell, column in zip(widths, row, columns):
            cell_options = options.update(width=width, justify=column.justify, no_wrap=column.no_wrap,
                                          overflow=column.overflow, height=None, highlight=column.highlight)
            style = get_style(cell.style) + no_style
            cell_lines = (padded_lines(console, cell.renderable, cell_options, style, shown) if shown else None)
            exact.append(cell_lines is not None)
            cells.append(cell_lines if cell_lines is not None
                         else console.render_lines(cell.renderable, cell_options, style=style))
        height = max(len(cell_lines) for cell_lines in cells)
        tall = max(1, height)
        for k, (width, cell) in enumerate(zip(widths, row)):
            if exact[k] and len(cells[k]) == tall:
                continue
            style = get_style(cell.style) + no_style
            aligned = _ALIGN["bottom" if header else cell.vertical](cells[k], width, height, style)
            cells[k] = aligned if exact[k] and height == tall else Segment.set_shape(aligned, width, tall)
        if box:
            left_text, right_text, divider_text = sides[0 if first else (2 if last else 1)]
            left, right = Segment(left_text, border), Segment(right_text, border)
            divider = Segment(divider_text, border if divider_text.strip() else no_style.background_style + border)
            for line_no in range(tall):
                line = [left] if edge else []
                for k, cell_lines in enumerate(cells):
                    if k:
                        line.append(divider)
                    line.extend(cell_lines[line_no])
                if edge:
                    line.append(right)
                lines.append(line)
        else:
            lines.extend([segment for cell_lines in cells for segment in cell_lines[line_no]] for line_no in range(tall))
        if box and header:
            lines.append([Segment(box.get_row(widths, "head", edge=edge), border)])
        elif box and table.show_lines and not last:
            lines.append([Segment(box.get_row(widths, "row", edge=edge), border)])
    if box and edge:
        lines.append([Segment(box.get_bottom(widths), border)])
    return lines


def laid_out_width(console: Any, options: Any, table: Any) -> int:
    """The width rich lays ``table`` out at within ``options.max_width`` (its measure can say less, e.g. with
    wide characters; rich then crops the lines, border and all). Past the width on another rich, whose
    internals differ: a caller then takes its narrowest layout."""
    width = options.max_width
    if not measurable(table):  # another rich: its narrowest layout
        return width + 1
    extra = table._extra_width  # as Table.__rich_console__ lays it out
    return sum(column_widths(console, table, options.update_width(width - extra))) + extra
