"""fitted_table's narrowest layout: one record a row, each value after its label, folded so a label stays
with the start of its value.

rich's word wrap breaks at every space, the no-break space too (its words are ``\\s*\\S+\\s*``, and ``\\s`` takes
U+00A0): a label ending one line and its value starting the next read as two records' pieces. Here each record
is wrapped once, by rich's own ``Text.wrap``, at the width its cell gets, with the spaces inside a label and the
one after it held by a stand-in character that is no space; the stand-ins are then put back. A label and the
first word of its value that would not fit a line together are left breakable (the word then starts the next
line whole) unless that word is longer than a line and folds anyway: no word is cut to keep them together. A
short value with its label (half a line at most: "verdict ✔ obeyed", "tools 1 sent") is held whole, so it is
never read as "verdict ✔" over "obeyed".
"""

from __future__ import annotations

from typing import Any

from .hanging import UNITS, free_stand_ins
from .word_breaks import wrap

NBSP = "\u00a0"  # written between a label and its value, as before: a copy of the line reads "label value"
_BORDERS_AND_PADDING = 4  # a bordered one-column table: "│ " and " │"
SHORT_SHARE = 2  # a label and its value within half a line are never parted across lines


def _shown(console: Any, value: Any) -> Any:
    """``value`` as a Text with its control characters written out (as the printer shows them), so the
    wrap measures what is drawn."""
    from rich.text import Text

    from toolchoice.providers.core.shown_text import SHOWN_CONTROL, visible

    text = value if isinstance(value, Text) else Text(str(value))
    if not SHOWN_CONTROL.search(text.plain):
        return text
    out = Text()
    for segment in text.render(console, end=""):
        out.append(visible(segment.text), segment.style)
    return out


def _call_block(value: str, inner: int, room: int, json: bool = False) -> list[str] | None:
    """A calls value's lines where one of its calls passes its line (the first line's ``room``: after its label,
    which then starts a line), each broken where an argument ends (``call_lines``; ``json``: a value of JSON,
    broken between its members, ``json_lines``); None where it fits."""
    from .call_lines import call_lines, json_lines

    out: list[str] = []
    changed = False
    for j, line in enumerate(value.split("\n")):
        lines = (json_lines if json else call_lines)(line, inner, first=room if j == 0 else None)
        changed = changed or lines is not None
        out.extend(lines if lines is not None else [line])
    return out if changed else None


def _prose_block(value: str, inner: int, room: int, calls: bool = False) -> list[str] | None:
    """A prose value's lines where it quotes JSON and passes its line (a refusal quoting the tool_choice it would
    send), broken as the notes under the table are (``call_lines.prose_ranges``: at spaces, and inside the JSON
    only between its members, never inside a key or a value); ``calls``: a line holding a tool call as
    ``call_lines`` breaks it; None where none changed."""
    from .call_lines import prose_block

    return prose_block(value, inner, room, calls)


def record_table(width: int, headers: list[str], rows: list[list[Any]], *, short: dict[str, str] | None,
                 title: Any, calls: tuple[str, ...] = (), jsons: tuple[str, ...] = (),
                 prose: tuple[str, ...] = (), pairs: tuple[str, ...] = ()) -> Any:
    """One bordered row a record at ``width``: "label value · label value", a label never at the end of a
    line without the start of its value, as wide as rich made the layout before (title, rules). ``calls``: the
    headers whose values are tool calls: one too wide for the rest of its line starts a line with its label and
    is broken only where an argument ends (``call_lines``); ``jsons``: the headers whose values are JSON (a tool_choice
    on the wire), so too, broken between their members (``json_lines``); ``prose``: the headers whose values are
    text that may quote JSON (a verdict quoting a refusal), so too where they quote it (``prose_ranges``);
    ``pairs``: the headers whose values are two halves joined by " / " (``in 10 / out 5``), broken only between the
    halves (it read "tokens in" over "10 / out 5")."""
    import io
    import re

    from rich.cells import cell_len  # what Text.cell_len measures, without making a Text
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from toolchoice.providers.core.redaction import visible

    from .call_lines import ELLIPSIS, call_pieces

    console = Console(width=max(width, 1), file=io.StringIO(), markup=False, emoji=False, highlight=False)
    inner = width - _BORDERS_AND_PADDING
    records: list[Any] = []
    longest = 0
    for row in rows:
        pieces: list[tuple[str, Any]] = []  # (label, or "" where none is drawn; value as shown)
        for header, value in zip(headers, row):
            label = visible((short or {}).get(header, header))
            # a header of no word ("%": the value says it) is left out: "obeyed 5 · 100%", not "· % 100%"
            pieces.append((label if any(ch.isalnum() for ch in label) else "", _shown(console, value),
                           "json" if header in jsons else ("mixed" if header in calls else "prose") if header in prose
                           else "pair" if header in pairs else header in calls))
        plain = " · ".join(label + NBSP + value.plain if label else value.plain for label, value, _ in pieces)
        free = free_stand_ins(plain, 2)  # free while the record is under 137,468 characters; else nothing is held
        held_space, held_nbsp = free if len(free) == 2 else (" ", NBSP)
        line = Text()
        for i, (label, value, call) in enumerate(pieces):
            lead = 2 if i else 0  # a call broken over lines starts a line of its own: "· calls name("
            block, below = None, False  # below: its lines start under its label (its name too long beside it)
            json, is_prose = call == "json", call in ("prose", "mixed")
            if call == "pair":  # each half's spaces held: a break only between the halves (same length: styles stay),
                value, call = value.copy(), False  # and none where the label and the pair fit a line together
                whole = cell_len(f"{label} {value.plain}") <= inner
                value.plain = (value.plain.replace(" ", held_space) if whole else
                               " / ".join(half.replace(" ", held_space) for half in value.plain.split(" / ")))
            broken = (lambda text, room: _prose_block(text, inner, room, call == "mixed")) if is_prose else (
                lambda text, room: _call_block(text, inner, room, json))
            if call and inner > 1 and not value.spans:
                block = broken(value.plain, inner - lead - (cell_len(label) + 1 if label else 0))
                if block is not None and block[0].endswith(ELLIPSIS):
                    whole = broken(value.plain, inner)
                    if whole is None or not whole[0].endswith(ELLIPSIS):
                        block, below = whole or value.plain.split("\n"), True
            if i:
                line.append("\n· " if block is not None and not below else " · ", style="bold")
            if is_prose and block is not None:  # its lines as broken, each fits: rich breaks no line of them again
                value = Text(("\n" if below else "") + "\n".join(block), style=value.style)
            elif call and not is_prose and not value.spans:  # each call line whole where it fits, as broken where not:
                value = Text(("\n" if below else "") + "\n".join(
                    part.replace(" ", held_space) if (part.startswith(("{", "[")) if json else call_pieces(part))
                    else part
                    for part in (block or value.plain.split("\n"))), style=value.style)
            if (inner > 0 and block is None and "\n" not in value.plain and " " in value.plain
                    and cell_len(f"{label} {value.plain}".strip()) <= inner // SHORT_SHARE):
                # a short value is one piece ("verdict ✔ obeyed", "tools 1 sent", "other 1 invalid_arguments"):
                # it read "verdict ✔" at a line's end over "obeyed"; same length: styles stay
                value = value.copy()
                value.plain = value.plain.replace(" ", held_space)
            if label and below:  # a label's own words together ("API tool_choice"), its value under it
                line.append(label.replace(" ", held_space), style="bold")
            elif label:
                first = re.match(r"\S*", value.plain).group()  # type: ignore[union-attr]
                # held where the pair fits a line, or where the word folds anyway (longer than a line)
                hold = inner > 0 and (cell_len(f"{label} {first}") <= inner or cell_len(first) > inner)
                # a label's own words stay together ("API tool_choice"), even where its value goes to the next line
                line.append(label.replace(" ", held_space) + (held_nbsp if hold else NBSP), style="bold")
            line.append(value)
        longest = max([longest] + [cell_len(part) for part in line.plain.split("\n")])
        # a unit's spaces held too ("95% CI 57%–100%)": `compare --send`'s verdict); same length: styles stay
        line.plain = UNITS.sub(lambda m: m.group().replace(" ", held_space), line.plain)
        if inner > 0:
            folded = wrap(line, console, inner, justify="left", overflow="fold")  # word_breaks' rule
            for part in folded:
                part.rstrip()
            line = Text("\n").join(folded)
        line.plain = line.plain.replace(held_space, " ").replace(held_nbsp, NBSP)  # same length: styles stay
        records.append(line)
    table = Table(show_header=False, expand=False, title=title, title_justify="left", show_lines=True)
    # as wide as the unfolded records made it (up to the width), so the title and rules fold as they did
    # the records are folded already (no line past ``inner``): rich draws their lines as they are, not wrapped again
    # (a second word wrap of every record: +11% instructions for `run --replay` of 300 steps at 60 columns)
    table.add_column(overflow="fold", min_width=min(longest, inner) if inner > 0 else None, no_wrap=inner > 0)
    for record in records:
        table.add_row(record)
    return table
