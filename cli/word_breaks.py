"""Where a word wider than its line breaks: a URL, a file path, a dotted name or an id that no line holds whole.

rich folds such a word at whatever character the width falls on (`…/userguide/claude-m` over
`essages-adaptive-thinking.html`). Here it breaks at the last point that fits the line: after a `/`, `?`, `&` or `,`
(a URL's or a path's parts, a query string's, a list's items: `"a":1,"b":2`), else after a `.`, `_` or `-` (a dotted
name's, an id's). A point that would leave less than a quarter of the line on it is no point (`/` alone over the
rest of a path); a run of one character is not broken inside (`..`, `__`), nor a URL's scheme from its host
(`https://`). Where no point fits, the word folds at the width as rich folds it. A long word's first piece stays
beside the words before it where it ends after a `/`, `?`, `&` or `,` (``beside``: `(POST http://host/` over the
path), else the word starts the next line, as rich starts it. The pieces joined are the word: only the drawing
changes, never the text (`-f json` is not drawn).

``word_pieces`` is the rule; ``divide_line`` is rich's word wrap with it, and ``wrap`` rich's Text.wrap with that
(rich's steps through Text's public methods; rich's own calls its private ``rich._wrap.divide_line``, which nothing
here replaces): every Text the printer draws goes through it (``Wrapped``, from the printer's ``render``: table
cells, notes under a label, one record a row, the summary lines), so do the layout modules' own wraps, and
`--help`'s console draws with it too (``with_rule``); ``call_lines`` breaks the words of a prose line quoting JSON
and of a call's indented arguments with it. A piece the line holds whole (``WHOLE``: an IP address, a version, a
float, a host and its port) is broken inside only where it is wider than the line: before it where it does not fit
beside what the line holds."""

from __future__ import annotations

import re
from typing import Any, Callable

FIRST = frozenset("/?&,")  # a URL's, a path's, a query string's parts; a list's items (`"a":1,"b":2`)
THEN = frozenset("._-")  # a dotted name's, an id's
# a piece of a word broken inside only where it is wider than the line: an IP address, a version, a float (with a
# port or an exponent: `127.0.0.1:8080`, `3.57.0`, `1.5e-07`, `gpt-4.1`'s `4.1`), a host and its port
# (`api.example.com:443`); `127.0.0.` over `1:8080` read as two addresses
WHOLE = (re.compile(r"(?<![\d.])\d+(?:\.\d+)+(?:[eE][-+]?\d+)?(?::\d+)?(?!\d)"),
         re.compile(r"(?<![\w.-])[A-Za-z][\w-]*(?:\.[\w-]+)*:\d+(?!\d)"))
# rich's words (rich._wrap.re_word, \s*\S+\s*): a word with the spaces around it. Its matches follow each other, so
# only the first can start with a space: written so, a text of spaces alone is read once, not from each of its
# places to its end (8,000 spaces: 424 ms; the same matches: tests/test_regex_linear.py)
_WORD = re.compile(r"\A\s*\S+\s*|\S+\s*")


def _cells() -> Callable[[str], int]:
    from rich.cells import cell_len

    return cell_len


def word_pieces(word: str, width: int) -> list[str]:
    """``word`` (spaces after it go with its last piece) in pieces no wider than ``width`` cells (a character wider
    than the width alone: a piece of its own), broken as the module says; joined, they are ``word``."""
    width = max(width, 1)
    core = word.rstrip()
    trail = word[len(core):]
    if not core:
        return [word] if word else []
    ascii_text = core.isascii() and core.isprintable()
    cell_len = len if ascii_text else _cells()
    if cell_len(core) <= width:
        return [word]
    out: list[str] = []
    start = 0
    least = max(1, width // 4)
    wholes = _wholes(core, width, cell_len) if any(ch in core for ch in ".:") else []
    while start < len(core):
        # the characters that fit: ``fit`` of them, ``used`` cells
        if ascii_text:
            fit = used = min(width, len(core) - start)
        else:
            fit = used = 0
            while start + fit < len(core):
                size = cell_len(core[start + fit])
                if used + size > width and fit:
                    break
                used += size
                fit += 1
        end = start + fit
        if end >= len(core):
            out.append(core[start:])
            break
        if ascii_text:  # a cell a character: the points found by str.rfind, not a character at a time
            cut = (_last_point(core, start + least - 1, end, FIRST) or _last_point(core, start + least - 1, end, THEN)
                   or end)
        else:
            cut = _cut(core, start, end, used, least, cell_len)
        cut = _outside(core, cut, wholes, start, end, least) if wholes else cut
        out.append(core[start:cut])
        start += len(out[-1])
    out[-1] += trail
    return out


def _wholes(text: str, width: int, cell_len: Callable[[str], int]) -> list[tuple[int, int]]:
    """Where ``text`` holds pieces a line of ``width`` holds whole (``WHOLE``): each number, and each host with its
    port that holds a number whole or none of it (`a:0` in `a:0.100:1` is no host beside the number `0.100:1`)."""
    numbers, hosts = ([found.span() for found in pattern.finditer(text) if cell_len(found.group()) <= width]
                      for pattern in WHOLE)
    return numbers + [(low, high) for low, high in hosts
                      if all(low <= a and b <= high or high <= a or b <= low for a, b in numbers)]


def _outside(text: str, cut: int, wholes: list[tuple[int, int]], start: int, end: int, least: int) -> int:
    """``cut`` (in ``text[start:end]``, the piece the line holds) where it is inside none of the pieces the line
    holds whole (``wholes``: a number and a host with its port may overlap); else the last point of the piece
    outside them all (after a `/`, `?`, `&` or `,`, else after a `.`, `_` or `-`), else the last start or end of
    one of them inside the piece, else the width (``end``)."""
    def free(at: int) -> bool:
        return not any(low < at < high for low, high in wholes)

    if free(cut):
        return cut
    for points in (FIRST, THEN):
        at = end
        while True:
            found = _last_point(text, start + least - 1, at, points)
            if not found or free(found):
                break
            at = found - 1
        if found:
            return found
    bounds = [bound for low, high in wholes for bound in (low, high) if start < bound <= end and free(bound)]
    return max(bounds, default=end)


def _cut(text: str, start: int, end: int, used: int, least: int, cell_len: Callable[[str], int]) -> int:
    """Where the piece of ``text`` from ``start`` ends: ``text[start:end]`` (``used`` cells) fits the line, and
    more of it does not. The last point after a `/`, `?`, `&` or `,`, else the last after a `.`, `_` or `-`, none
    leaving less than ``least`` cells on the line; else ``end`` (folded at the width)."""
    then = 0
    at = end
    while at > start and used >= least:  # from the end back: ``used``, the cells before ``at``
        ch = text[at - 1]
        if (ch in FIRST or ch in THEN) and text[at] != ch:  # after a run of one character, not inside it
            if ch in FIRST and not (ch == "/" and _scheme(text, at)):
                return at
            then = then or (at if ch in THEN else 0)
        used -= cell_len(ch)
        at -= 1
    return then or end


def _last_point(text: str, low: int, end: int, points: frozenset[str]) -> int:
    """The last point after one of ``points`` in ``text[low:end]`` (the index after it, at most ``end``, which is
    inside ``text``), as ``_cut`` reads them; 0 where there is none."""
    best = -1
    for ch in points:
        found = text.rfind(ch, low, end)
        while found >= low and (text[found + 1] == ch or ch == "/" and _scheme(text, found + 1)):
            found = text.rfind(ch, low, found)
        best = max(best, found)
    return best + 1


def _scheme(text: str, at: int) -> bool:
    """Whether the run of `/` that ends at ``at`` follows a URL's scheme (`https://`, `file:///`)."""
    run = at - 1
    while run > 0 and text[run - 1] == "/":
        run -= 1
    return run > 0 and text[run - 1] == ":" and at - run >= 2


def beside(word: str, room: int, width: int) -> list[str] | None:
    """``word`` (wider than a line) in pieces whose first fits the ``room`` left on a line and ends after a `/`, `?`,
    `&` or `,`, the rest as ``word_pieces`` breaks them on the lines (``width`` wide) under it; None where no such
    first piece fits (the word starts the next line)."""
    if room < 1:
        return None
    head = word_pieces(word, room)[0]
    if len(head) == len(word) or head[-1] not in FIRST:  # a URL's or a path's part, not a piece of a name
        return None
    return [head] + word_pieces(word[len(head):], width)


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """rich's ``divide_line`` (rich._wrap: where a line of ``text`` breaks at ``width`` cells, words whole), a word
    wider than the line broken by ``word_pieces`` rather than at any character."""
    cell_len = _cells()
    breaks: list[int] = []
    offset = 0
    for found in _WORD.finditer(text):
        start, word = found.start(), found.group()
        length = cell_len(word.rstrip())
        if width - offset >= length:  # it fits the rest of the line
            offset += cell_len(word)
        elif length > width:  # it fits no line: broken, its first piece beside the words before it where that
            if fold:          # piece ends at a point (`(POST http://host/` over `path/...`), else on the next line
                pieces = beside(word, width - offset, width) if offset else None
                if pieces is None:
                    pieces = word_pieces(word, width)
                    if start:
                        breaks.append(start)
                for piece in pieces[:-1]:
                    start += len(piece)
                    breaks.append(start)
                offset = cell_len(pieces[-1])
            else:
                if start:
                    breaks.append(start)
                offset = cell_len(word)
        elif offset and start:  # it fits the next line
            breaks.append(start)
            offset = cell_len(word)
    return breaks


def wrap(text: Any, console: Any, width: int, *, justify: Any = None, overflow: Any = None, tab_size: int = 8,
         no_wrap: bool | None = None) -> Any:
    """``text.wrap(console, width, ...)`` (rich's Text.wrap: its lines, ``Lines``) with a word wider than a line
    broken by ``divide_line``: rich's steps, each through Text's and Lines' public methods (``divide``,
    ``rstrip_end``, ``justify``, ``truncate``), where rich's calls its private ``rich._wrap.divide_line``."""
    from rich.containers import Lines
    from rich.text import DEFAULT_JUSTIFY, DEFAULT_OVERFLOW

    wrap_justify = justify or text.justify or DEFAULT_JUSTIFY
    wrap_overflow = overflow or text.overflow or DEFAULT_OVERFLOW
    no_wrap = _first(no_wrap, text.no_wrap, False) or overflow == "ignore"
    lines = Lines()
    for line in text.split(allow_blank=True):
        if "\t" in line:
            line.expand_tabs(tab_size)
        if no_wrap:
            if overflow == "ignore":
                lines.append(line)
                continue
            new_lines = Lines([line])
        else:
            new_lines = line.divide(divide_line(line.plain, width, fold=wrap_overflow == "fold"))
            for piece in new_lines:
                piece.rstrip_end(width)
        if wrap_justify:
            new_lines.justify(console, width, justify=wrap_justify, overflow=wrap_overflow)
        for piece in new_lines:
            piece.truncate(width, overflow=wrap_overflow)
        lines.extend(new_lines)
    return lines


def _first(*values: bool | None) -> bool:
    """The first of ``values`` that is not None (rich's pick_bool)."""
    return bool(next((value for value in values if value is not None), False))


class Wrapped:
    """A Text drawn as rich draws one (``Text.__rich_console__``: its lines at the width it is given, joined, its
    end after them), wrapped by ``wrap``; measured as the Text. The printer draws every Text through it."""

    def __init__(self, text: Any) -> None:
        self.text = text

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        return self.text.__rich_measure__(console, options)

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import DEFAULT_JUSTIFY, DEFAULT_OVERFLOW, Text

        text = self.text
        tab_size = console.tab_size if text.tab_size is None else text.tab_size
        lines = wrap(text, console, options.max_width, justify=text.justify or options.justify or DEFAULT_JUSTIFY,
                     overflow=text.overflow or options.overflow or DEFAULT_OVERFLOW, tab_size=tab_size or 8,
                     no_wrap=_first(text.no_wrap, options.no_wrap, False))
        yield from Text("\n").join(lines).render(console, end=text.end)


def rendered(console: Any, renderable: Any, options: Any) -> Any:
    """What a console with the rule renders in place of ``renderable`` (its ``render``): a Text, or a string made
    one as rich makes it (``render_str``), drawn through ``Wrapped``; anything else as it is."""
    from rich.text import Text

    if isinstance(renderable, str):
        options = options or console.options
        renderable = console.render_str(renderable, highlight=options.highlight, markup=options.markup)
    return Wrapped(renderable) if isinstance(renderable, Text) else renderable


def with_rule(console: Any) -> Any:
    """``console`` (a rich Console made elsewhere: typer's, for --help) drawing every Text with the rule: its class
    made a subclass whose ``render`` goes through ``rendered`` (once)."""
    kind = type(console)
    if getattr(kind, "word_rule", False):
        return console
    if kind not in _BREAKING:
        class Breaking(kind):  # type: ignore[misc, valid-type]
            word_rule = True

            def render(self, renderable: Any, options: Any = None) -> Any:
                return super().render(rendered(self, renderable, options), options)

        Breaking.__name__ = Breaking.__qualname__ = f"Breaking{kind.__name__}"
        _BREAKING[kind] = Breaking
    console.__class__ = _BREAKING[kind]
    return console


_BREAKING: dict[type, type] = {}


def text_lines(text: str, width: int, *, initial_indent: str = "", subsequent_indent: str = "") -> list[str]:
    """``textwrap.wrap`` (plain lines measured in characters: doctor's, run's later steps) with a word wider than
    its line broken by ``word_pieces``, placed as ``divide_line`` places it (textwrap cut it at the line's last
    character)."""
    import textwrap

    class Wrapper(textwrap.TextWrapper):
        def _handle_long_word(self, reversed_chunks: list[str], cur_line: list[str], cur_len: int,
                              width: int) -> None:
            chunk = reversed_chunks[-1]
            pieces = beside(chunk, width - cur_len, width) if cur_line else word_pieces(chunk, width)
            if pieces is None:
                return  # no point fits beside the text before it: the word starts the next line
            cur_line.append(pieces[0])
            reversed_chunks[-1] = chunk[len(pieces[0]):]

    return Wrapper(width, initial_indent=initial_indent, subsequent_indent=subsequent_indent,
                   break_on_hyphens=False).wrap(text)


def lines_holding(text: str, width: int, phrases: tuple[str, ...]) -> list[str]:
    """``text_lines`` with each of ``phrases`` (a command a user copies: `toolchoice render SCENARIO -p ID`, an
    option and its value) on one line where it fits one: "toolchoice render" over "SCENARIO -p ID" read as two.
    textwrap breaks at ASCII whitespace only, so a no-break space holds a phrase's spaces while it wraps, and is a
    space again in the lines returned (a copied command holds plain spaces)."""
    held = "\u00a0"
    for phrase in phrases:
        text = text.replace(phrase, phrase.replace(" ", held))
    return [line.replace(held, " ") for line in text_lines(text, width)]
