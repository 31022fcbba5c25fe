"""A line of the pretty views that is a label and a text (`  - reason`, `3× reason`, `  step 2 warning code: ...`),
folded to the console's width with the text's further lines hanging under its first word, so that a wrapped
reason does not run back to the left margin under the label. Words stay whole (rich's `Text.wrap`; a word longer
than a line is folded). The text is data: it is never read as markup."""

from __future__ import annotations

import re
from typing import Any

FALLBACK_INDENT = 4  # where a long label's text goes on: under a label wider than a third of the line
# a unit that reads wrong split over two lines: "95%" ending one and "CI 57–100%" starting the next
UNITS = re.compile(r"95% CI \S+")
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


def _redacted(console: Any, text: str) -> str:
    """The keys out before the text is wrapped, as the printer takes them out before it lays a text out: a key
    folded over two lines here could no longer be matched there."""
    redactor = getattr(console, "redactor", None)
    return redactor.text(text) if redactor else text


def hanging(console: Any, label: Any, text: Any, style: str = "") -> Any:
    """``label`` then ``text`` (``Text`` or plain ``str``: the keys taken out), as one ``Text`` of lines no wider
    than the console."""
    from rich.cells import cell_len
    from rich.text import Text

    label = label if isinstance(label, Text) else Text(_redacted(console, label), style=style)
    text = text.copy() if isinstance(text, Text) else Text(_redacted(console, text), style=style)
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
        lines = list(part.wrap(console, first_room, overflow="fold")) if part.plain and first_room else [Text()]
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
            for line in rest.wrap(console, max(width - indent, 1), overflow="fold"):
                line.rstrip()
                out.append("\n" + " " * indent)
                out.append_text(line)
    if held is not None:
        out.plain = out.plain.replace(held, " ")
    return out
