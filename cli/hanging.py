"""A line of the pretty views that is a label and a text (`  - reason`, `3× reason`, `  step 2 warning code: ...`),
folded to the console's width with the text's further lines hanging under its first word, so that a wrapped
reason does not run back to the left margin under the label. Words stay whole (rich's `Text.wrap`; a word longer
than a line is folded). The text is data: it is never read as markup. ``packed``: parts on a line (a sample's status
and latency, probe's title), broken only between two of them."""

from __future__ import annotations

import re
from typing import Any, Callable, Iterator

from .word_breaks import wrap

FALLBACK_INDENT = 4  # where a long label's text goes on: under a label wider than a third of the line
# a unit that reads wrong split over two lines: "95%" ending one and "CI 57–100%" starting the next, and a number
# and its unit ("362 ms" as "362" over "ms", "20 km/h", "21 °C")
_UNIT_AT = re.compile(r"95% CI \S+|(?<![\w.])\d[\d.,]* (?:ms|s|µs|%|[kMG]i?B|°C|km/h)(?![\w/])")
_CI = re.compile(r"(?=95% CI \S)")  # each place, overlapping ones too ("95% CI 95% CI x")
_NUMBER_RUN = re.compile(r"[\d.,]+")
_NUMBER_START = re.compile(r"(?<![\w.])\d")  # where the pattern's number may begin
_UNIT_AFTER = re.compile(r" (?:ms|s|µs|%|[kMG]i?B|°C|km/h)(?![\w/])")


class _Units:
    """The matches of ``_UNIT_AT`` (search, findall, sub), found where that pattern finds them but read once: the
    pattern, tried at each digit after a comma of a long run of digits and commas up to its end, took n^2 steps on
    "1,1,1,..." (8,000 characters: 98 ms). A number's match ends where its run of digits, dots and commas ends, so
    only the run's first place where a number may begin is tried (a later one fails where it failed); a match of
    "95% CI" ends at a space, so no match ends inside such a run (the same matches: tests/test_regex_linear.py)."""

    pattern = _UNIT_AT.pattern

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        starts = [found.start() for found in _CI.finditer(text)]
        for run in _NUMBER_RUN.finditer(text):
            first = _NUMBER_START.search(text, run.start(), run.end())
            if first is not None and _UNIT_AFTER.match(text, run.end()):
                starts.append(first.start())
        at = 0
        for start in sorted(starts):
            if start >= at:
                found = _UNIT_AT.match(text, start)
                if found is not None:
                    yield found
                    at = found.end()

    def search(self, text: str) -> re.Match[str] | None:
        return next(self.finditer(text), None)

    def findall(self, text: str) -> list[str]:
        return [found.group() for found in self.finditer(text)]

    def sub(self, replace: Callable[[re.Match[str]], str], text: str) -> str:
        out, at = [], 0
        for found in self.finditer(text):
            out += [text[at:found.start()], replace(found)]
            at = found.end()
        return "".join(out) + text[at:]


UNITS = _Units()
# private use: no space, one cell, no control; the Basic Multilingual Plane's, then planes 15 and 16: a text of n
# characters holds at most n of them, so any text shorter than 137,468 characters leaves stand-ins free (a server's
# reply once held the first 256, all there were, and compare --send's one-record-a-row layout ended in a ValueError)
_STAND_INS = (range(0xE000, 0xF900), range(0xF0000, 0xFFFFE), range(0x100000, 0x10FFFE))


def free_stand_ins(text: str, count: int) -> list[str]:
    """Up to ``count`` stand-ins ``text`` does not hold: each holds a space rich must not break at while it wraps
    (rich breaks at every space, a no-break one too), then is put back; one cell each, so styles stay in place.
    Shared with record_rows.py, which holds a label's spaces the same way."""
    held = set(text)
    out: list[str] = []
    for codes in _STAND_INS:
        for code in codes:
            if chr(code) not in held:
                out.append(chr(code))
                if len(out) == count:
                    return out
    return out


def unit_lines(text: str, width: int) -> list[str] | None:
    """``text`` (plain, a table cell's) wrapped to ``width`` as rich wraps it (words whole, a longer one folded), a
    number and its unit kept on one line (``UNITS``); None where it holds no unit or every line fits."""
    import io

    from rich.cells import cell_len
    from rich.console import Console
    from rich.text import Text

    if width < 1 or not UNITS.search(text) or all(cell_len(line) <= width for line in text.split("\n")):
        return None
    [held] = free_stand_ins(text, 1) or [" "]
    console = Console(width=width, file=io.StringIO(), markup=False, emoji=False, highlight=False)
    # a word wider than a line broken after a `/`, a `.`, ... (word_breaks)
    wrapped = wrap(Text(UNITS.sub(lambda m: m.group().replace(" ", held), text)), console, width, overflow="fold")
    return [line.plain.rstrip(" ").replace(held, " ") for line in wrapped]


_LAYOUT_SPACE = re.compile(r"[ \t\r\n]+")


def one_spaced(text: str) -> str:
    """``text`` on one line, each run of spaces, tabs and line ends one space. Not ``str.split()``: it also splits
    at (and so drops) controls the printer writes out (U+001C-001F, U+0085, U+2028/2029, VT, FF)."""
    return _LAYOUT_SPACE.sub(" ", text).strip(" ")


def redacted(console: Any, text: str) -> str:
    """The keys out before the text is wrapped, as the printer takes them out before it lays a text out: a key
    folded over two lines here could no longer be matched there."""
    redactor = getattr(console, "redactor", None)
    return redactor.text(text) if redactor else text


def hanging(console: Any, label: Any, text: Any, style: str = "", json: bool = False) -> Any:
    """``label`` then ``text`` (``Text`` or plain ``str``: the keys taken out), as one ``Text`` of lines no wider
    than the console. ``json``: ``text`` is one line of JSON (run's final answer: the stop tool's arguments, cut
    after a member with "…"), broken as ``call_lines.json_lines`` breaks it, a valid document or not."""
    from rich.cells import cell_len
    from rich.text import Text

    label = label if isinstance(label, Text) else Text(redacted(console, label), style=style)
    text = text.copy() if isinstance(text, Text) else Text(redacted(console, text), style=style)
    held = next(iter(free_stand_ins(text.plain, 1)), None) if UNITS.search(text.plain) else None
    if held is not None:  # a unit's spaces held by a stand-in while rich wraps: same length, so styles stay
        text.plain = UNITS.sub(lambda m: m.group().replace(" ", held), text.plain)
    width = max(console.width, 1)
    head = cell_len(label.plain)
    indent = head if head <= width // 3 else min(FALLBACK_INDENT, head)
    out = Text(style=style)
    for number, part in enumerate(text.split("\n", allow_blank=True)):
        lead = label if number == 0 else Text(" " * indent)
        first_room = max(width - cell_len(lead.plain), 1)
        first_word = part.plain.split(" ", 1)[0]
        if cell_len(first_word) > first_room and cell_len(lead.plain) > indent:  # it would fold beside the label:
            first_room = 0                                                          # the text starts under it
        quoted = _json_lines(part, width - indent, first_room, cell_len(lead.plain) > indent, json)
        if quoted is not None:  # it quotes JSON: broken between members, never inside a key or a value
            first_room, lines = quoted
            out.append("\n" if number else "")
            out.append_text(lead)
            if not first_room:
                out.rstrip()
            for k, line in enumerate(lines):
                out.append("\n" + " " * indent if k or not first_room else "")
                out.append_text(line)
            continue
        lines = list(wrap(part, console, first_room, overflow="fold")) if part.plain and first_room else [Text()]
        first = lines[0].copy()
        first.rstrip()
        rest = part[len(first.plain):]
        skip = len(rest.plain) - len(rest.plain.lstrip(" "))
        rest = rest[skip:]
        if number:
            out.append("\n")
        out.append_text(lead)
        out.append_text(first)
        if not first_room:
            out.rstrip()
        if rest.plain:
            for line in wrap(rest, console, max(width - indent, 1), overflow="fold"):
                line.rstrip()
                out.append("\n" + " " * indent)
                out.append_text(line)
    if held is not None:
        out.plain = out.plain.replace(held, " ")
    return out


def _json_lines(part: Any, width: int, first_room: int, may_start_under: bool,
                json: bool = False) -> tuple[int, list[Any]] | None:
    """``part`` (a ``Text``) in lines as ``call_lines.prose_ranges`` breaks it, where it quotes JSON and does not
    fit: (the room its first line takes beside the label, 0 where it starts under the label; its lines, each
    with the styles of the text it comes from). rich folds a word at any character, and read `{"type":"fun` over
    `ction",...}`. None: rich wraps it as any text. ``json``: ``part`` is JSON, broken by ``json_ranges``."""
    from .call_lines import json_ranges, prose_ranges

    if not part.plain:
        return None
    ranges_of = json_ranges if json else prose_ranges
    ranges = ranges_of(part.plain, width, first_room or None)
    if ranges is None:
        return None
    start, end, drawn = ranges[0]
    if first_room and first_room < width and may_start_under and drawn != part.plain[start:end]:
        first_room = 0  # its first piece is wider than the room beside the label: it starts under the label
        ranges = ranges_of(part.plain, width)
        if ranges is None:
            return None
    return first_room, [_cut(part, start, end, drawn) for start, end, drawn in ranges]


def prose_broken(console: Any, text: Any) -> Any:
    """``text`` (a ``Text``: a line of compare's findings) broken to the console's width, with no hanging indent,
    where it quotes JSON (``call_lines.prose_ranges``); as it is where it does not: rich wraps it."""
    from rich.text import Text

    ranges = _json_lines(text, max(console.width, 1), 0, False)
    return text if ranges is None else Text("\n", style=text.style).join(ranges[1])


def _cut(part: Any, start: int, end: int, drawn: str) -> Any:
    """``part[start:end]``, or where it was shortened (``drawn`` ends in "…" in its place) its start and "…"."""
    if drawn == part.plain[start:end]:
        return part[start:end]
    line = part[start:start + len(drawn) - 1]
    line.append(drawn[-1])
    return line


def packed(parts: list[Any], separator: str, width: int) -> Any:
    """One rich Text of ``parts`` (Texts) joined by ``separator``, a line break in place of the separator where
    the next part would pass ``width``: a part ("200", "134 ms", "first tool delta 134 ms") is never folded
    inside itself unless it alone is wider than a line (rich folds at every space, a no-break one too)."""
    from rich.text import Text

    out, used = Text(), 0
    for part in parts:
        if used and used + len(separator) + part.cell_len > width:
            out.append("\n")
            used = 0
        elif used:
            out.append(separator)
            used += len(separator)
        out.append_text(part)
        used += part.cell_len
    return out
