"""`--help`'s option panels laid out so that every word stays whole at the terminal's width.

typer draws an option panel as one table whose type column (`<float range> [0.1<=x<=3600.0]`) and name
columns may shrink as much as the help column: at 60 columns the words were cut in all of them
(`anthropic=clau` / `de-sonnet-5`, `--capabilitie` / `s`). Here typer still builds each panel's cells (its
rows, styles and words), and the cells are laid out in the first of three layouts whose words all fit:

1. typer's table, the name and type columns never narrower than their cells, the help column the rest;
2. the same with a range under its type (`<int range>` over `[1<=x<=1000000]`);
3. one option a block: its names and type on a line, the help indented under them.

Loaded only on the help path (``install``), from the modules typer's help has already imported."""

from __future__ import annotations

from typing import Any

# the help column's least width in a table layout: narrower, the stacked layout reads better
HELP_MIN = 30
STACKED_INDENT = 4


class _Captured:
    """A console stand-in that keeps what typer's panel function prints (the Panel of its table)."""

    def __init__(self) -> None:
        self.printed: list[Any] = []

    def print(self, *objects: Any, **_: Any) -> None:
        self.printed.extend(objects)


def _cells(draw: Any, params: list[Any], ctx: Any, markup_mode: Any) -> list[list[Any]] | None:
    """typer's panel for ``params`` as rows of cells, or None when it drew nothing (or something other than a
    table in a panel, which then goes out as typer drew it)."""
    captured = _Captured()
    draw(name="", params=params, ctx=ctx, markup_mode=markup_mode, console=captured)
    if len(captured.printed) != 1:
        return None
    table = getattr(captured.printed[0], "renderable", None)
    columns = getattr(table, "columns", None)
    if not columns:
        return None
    by_column = [list(column.cells) for column in columns]
    return [list(row) for row in zip(*by_column)]


def _plain(cell: Any) -> str:
    return getattr(cell, "plain", "") if cell is not None else ""


def _longest_word(cell: Any) -> int:
    """The widest word of a help cell (a Columns of Texts, or a Text)."""
    from rich.cells import cell_len

    parts = getattr(cell, "renderables", None) or [cell]
    return max((cell_len(word) for part in parts for word in _plain(part).split()), default=0)


def _split_range(types: Any) -> Any:
    """`<int range> [1<=x<=1000000]` as two lines (the Text's styles kept)."""
    at = _plain(types).find(" [")
    if at <= 0:
        return types
    head, tail = types.divide([at])
    return head + "\n" + tail[1:]


def _layout(rows: list[list[Any]], width: int) -> int:
    """1, 2 or 3 (the module's docstring): the first layout in which every word of ``rows`` fits ``width``."""
    from rich.cells import cell_len

    help_min = max(HELP_MIN, max(_longest_word(row[-1]) for row in rows))
    labels = [max(cell_len(_plain(row[i])) for row in rows) for i in range(len(rows[0]) - 2)]
    label_width = sum(w + 2 for w in labels if w)  # each shown column and the space either side of it
    for layout in (1, 2):
        types = [_split_range(row[-2]) if layout == 2 else row[-2] for row in rows]
        type_width = max(max((cell_len(line) for line in _plain(t).split("\n")), default=0) for t in types)
        if label_width + (type_width + 2 if type_width else 0) + help_min <= width:
            return layout
    return 3


def _table(rows: list[list[Any]], layout: int) -> Any:
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    table = Table(highlight=True, show_header=False, expand=True, box=None, padding=(0, 1), pad_edge=False,
                  show_lines=False, leading=0)
    if layout == 3:
        marks = [row[0] for row in rows] if len(rows[0]) == 7 else None  # typer's required column (`*`)
        if marks:
            table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        for i, row in enumerate(rows):
            label = Text(" ", overflow="fold").join(cell for cell in row[1 if marks else 0:-1] if _plain(cell))
            body = Table.grid()
            body.add_row(label)
            body.add_row(Padding(row[-1], (0, 0, 0, STACKED_INDENT)))
            table.add_row(*([marks[i]] if marks else []), body)
        return table
    shown = [i for i in range(len(rows[0]) - 1) if any(_plain(row[i]) for row in rows)]
    for _ in shown:
        table.add_column(no_wrap=True)
    table.add_column(ratio=1)
    for row in rows:
        cells = [(_split_range(row[i]) if layout == 2 and i == len(row) - 2 else row[i]) for i in shown]
        table.add_row(*cells, row[-1])
    return table


def install() -> None:
    """Replace typer's option-panel drawing with ``panel`` (once per process)."""
    from typer import rich_utils

    original = rich_utils._print_options_panel
    if getattr(original, "whole_words", False):
        return

    def panel(*, name: str, params: list[Any], ctx: Any, markup_mode: Any, console: Any) -> None:
        if not params:
            return
        rows = _cells(original, params, ctx, markup_mode)
        if not rows:
            original(name=name, params=params, ctx=ctx, markup_mode=markup_mode, console=console)
            return
        from rich.panel import Panel

        layout = ctx.meta.get("toolchoice.help_layout")
        if layout is None:  # one layout for every panel of the command: decided on all its parameters
            shown = [p for p in ctx.command.get_params(ctx) if not getattr(p, "hidden", False)]
            every = _cells(original, shown, ctx, markup_mode)
            layout = _layout(every or rows, console.width - 4)  # the panel's border and padding
            ctx.meta["toolchoice.help_layout"] = layout
        console.print(Panel(_table(rows, layout), border_style=rich_utils.STYLE_OPTIONS_PANEL_BORDER, title=name,
                            title_align=rich_utils.ALIGN_OPTIONS_PANEL))

    panel.whole_words = True  # type: ignore[attr-defined]
    rich_utils._print_options_panel = panel
