"""cli/table_draw.py draws tables without rich's per-cell machinery; the truth it is held to is rich itself: the
same tables drawn by rich's own ``Table`` code (``table_draw`` switched off), byte for byte, with and without
colours, at many widths, for cells of every kind the commands print (wide CJK and emoji cells, controls, bidi
controls, tabs, trailing spaces, empty lines, styled and multi-style text, things that look like rich markup or
emoji codes) and the table settings toolchoice uses."""

from __future__ import annotations

import io
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from rich import box as boxes
from rich.table import Table
from rich.text import Text

from toolchoice.cli import output, table_draw

PIECES = ["a", "get_weather", "x" * 30, " ", "  ", "\n", "\t", "é", "e\u0301", "界", "数据", "🙂", "👍🏽", "\x1b[31m",
          "\x07", "\r", "\u202e", "\u2067", "[bold]", "[/]", ":smile:", "{", '"city": "Paris"', "–", "✔", "\u00a0",
          "sk-" + "A" * 24, "\u200b", "0123456789"]
STYLES = [None, "", "bold", "green", "bold red", "dim", "none"]


def cells() -> Any:
    plain = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
    styled = st.tuples(plain, st.sampled_from(STYLES)).map(lambda p: Text(p[0], style=p[1] or ""))
    assembled = st.lists(st.tuples(plain, st.sampled_from(STYLES)), min_size=1, max_size=3).map(
        lambda parts: Text.assemble(*[(text, style or "") for text, style in parts]))
    return st.one_of(plain, styled, assembled)


# Built once: a strategy made anew for every cell drawn (``draw(cells())``) cost more CPU than drawing the tables
# (Hypothesis validates each new strategy and its parts); the same strategy, drawn the same way.
CELLS = cells()


@st.composite
def tables(draw: Any) -> Table:
    kind = draw(st.sampled_from(["heavy", "simple", "none", "stacked"]))
    options: dict[str, Any] = {"title": draw(st.sampled_from([None, "tool calls", "ledger"])), "title_justify": "left",
                               "expand": False, "header_style": "bold", "show_header": draw(st.booleans())}
    if kind == "simple":
        options.update(box=boxes.SIMPLE_HEAD, padding=(0, 1, 0, 0), pad_edge=False, show_edge=False)
    elif kind == "none":
        options.update(box=None)
    elif kind == "stacked":
        options.update(show_lines=True)
    table = Table(**options)
    columns = draw(st.integers(1, 4))
    for i in range(columns):
        table.add_column(draw(st.sampled_from(["#", "name", "arguments", "what changed / what to know", "界"])),
                         justify=draw(st.sampled_from(["left", "right", "center"])),
                         overflow=draw(st.sampled_from(["fold", "ellipsis", "crop"])),
                         no_wrap=draw(st.booleans()), min_width=draw(st.sampled_from([None, 1, 4, 20])))
    for _ in range(draw(st.integers(0, 5))):
        table.add_row(*[draw(CELLS) for _ in range(columns)])
    return table


def printed(table: Table, width: int, colour: bool) -> str:
    console = output.new_console(output.output_redactor(secrets={"sk-" + "A" * 24: "$OPENAI_API_KEY"}),
                                 file=io.StringIO(), width=width,
                                 **({"force_terminal": True, "color_system": "truecolor"} if colour else
                                    {"color_system": None}))
    with console.capture() as captured:
        console.print(table)
    return captured.get()


def by_rich(table: Table, width: int, colour: bool, monkeypatch: pytest.MonkeyPatch) -> str:
    with monkeypatch.context() as patch:
        patch.setattr(table_draw, "drawable", lambda table: False)
        patch.setattr(table_draw, "padded_lines", lambda *args: None)
        return printed(table, width, colour)


def described(table: Table) -> str:
    settings = {name: getattr(table, name) for name in ("box", "show_header", "show_edge", "show_lines", "padding",
                                                          "pad_edge", "title")}
    columns = [(c.header, c.justify, c.overflow, c.no_wrap, c.min_width, [repr(cell) for cell in c._cells])
               for c in table.columns]
    return f"{settings}\n{columns}"


def copied(table: Table) -> Table:
    """The same table before any layout (the printer marks a table it has fitted, and may unfold its columns)."""
    import copy
    import dataclasses

    fresh = copy.copy(table)
    fresh.columns = [dataclasses.replace(column, _cells=list(column._cells)) for column in table.columns]
    fresh.rows = list(table.rows)
    return fresh


# Two properties over one table strategy and one example count: drawing the tables was about half their CPU, so one
# generation serves both; each check has its own width, drawn as before.
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables(), width=st.sampled_from([8, 20, 40, 60, 80, 120]), colour=st.booleans(),
       widths_width=st.integers(1, 130))
def test_a_table_is_drawn_as_rich_draws_it_and_its_column_widths_are_riches(
        table: Table, width: int, colour: bool, widths_width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    note(described(table))
    expected = by_rich(copied(table), width, colour, monkeypatch)
    assert printed(copied(table), width, colour) == expected
    # the table itself as drawn from the strategy: the drawing above laid out copies (each marks its copy: _fitted,
    # _deciding_cells), as the widths test had a fresh table
    console = output.new_console(file=io.StringIO(), width=200)
    options = console.options.update_width(widths_width)
    assert table_draw.column_widths(console, table, options) == table._calculate_column_widths(console, options)


def test_the_fast_path_draws_the_common_cells() -> None:
    """So that the tests above compare something: the plain cells of a long table do not fall back to rich."""
    table = Table(title="tool calls")
    for name in ("#", "name", "arguments"):
        table.add_column(name, overflow="fold")
    table.add_row("1", "get_weather", '{\n  "city": "Paris"\n}')
    console = output.new_console(file=io.StringIO(), width=80)
    options = console.options.update(width=20, justify="left", overflow="fold", no_wrap=False, height=None)
    from rich.padding import Padding

    lines = table_draw.padded_lines(console, Padding('{\n  "city": "Paris"\n}', (0, 1)), options, None,
                                    lambda console, text: text)
    assert lines is not None and ["".join(s.text for s in line) for line in lines] == [
        " {                  ", '   "city": "Paris"  ', " }                  "]
    assert table_draw.drawable(table)


def test_a_huge_cell_is_laid_out_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 27 MB argument took rich over 10 minutes: its Text is joined again after the word wrap and split at each
    line end by ``Segment.split_and_crop_lines``, which copies the rest of the text at each one (the work counted
    here: a segment's length times the line ends it holds). A long cell is wrapped by rich's ``Text.wrap`` alone,
    and drawn as rich draws it."""
    from rich.segment import Segment

    argument = '{\n  "data": "' + "x" * 12_000 + '",\n  "text": "' + "word " * 2_000 + '"\n}'
    table = Table(title="tool calls")
    table.add_column("#", justify="right")
    table.add_column("arguments", overflow="fold")
    table.add_row("1", argument)
    copied_work = 0
    split = Segment.split_and_crop_lines

    def counted(segments: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal copied_work
        segments = list(segments)
        copied_work += sum(len(s.text) * s.text.count("\n") for s in segments)
        return split(segments, *args, **kwargs)

    for width in (60, 80):
        expected = by_rich(copied(table), width, False, monkeypatch)
        with monkeypatch.context() as patch:
            patch.setattr(Segment, "split_and_crop_lines", counted)
            assert printed(copied(table), width, False) == expected
        assert copied_work <= 2 * len(argument)
