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

``word_pieces`` is the rule; ``divide_line`` is rich's word wrap with it (every Text the printer or a layout
module wraps: table cells, notes under a label, one record a row, the summary lines), put in place of rich's by
``install``, as output.py puts ``visible`` in place of rich's control stripping; ``call_lines`` folds the words of a
prose line quoting JSON and of a call's indented arguments with it too."""

from __future__ import annotations

import re
from typing import Callable

FIRST = frozenset("/?&,")  # a URL's, a path's, a query string's parts; a list's items (`"a":1,"b":2`)
THEN = frozenset("._-")  # a dotted name's, an id's
_WORD = re.compile(r"\s*\S+\s*")  # rich's words (rich._wrap.re_word): a word with the spaces around it


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
        out.append(core[start:cut])
        start += len(out[-1])
    out[-1] += trail
    return out


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


def install() -> None:
    """rich's word wrap with ``word_pieces`` for every Text wrapped in this process (once; only where rich's
    Text.wrap calls the ``divide_line`` this module replaces, else rich folds as before)."""
    import rich.text as rich_text

    if getattr(rich_text, "divide_line", None) is not divide_line and hasattr(rich_text, "divide_line"):
        rich_text.divide_line = divide_line  # type: ignore[assignment]


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
