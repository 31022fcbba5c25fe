"""A tool call in a column narrower than it: `name({"a": 1, "b": "x"})` broken only where an argument ends (after
its call's bracket, after a comma outside a JSON string), never inside a key or a value; a piece wider than the
column alone is shortened to it with a visible "…" (a tool's name wider than the column is broken by the word rule
instead, cli/word_breaks.py: shown whole). rich's wrap breaks at spaces (`"a":` over `1`) and folds a
word at any character (`{"city":"exam` over `ple"}`): a call's lines are made here, each no wider than the column,
so rich draws them as they are (compare --send's calls column, run's step table, their one-record-a-row layout).
"""

from __future__ import annotations

import re

ELLIPSIS = "…"
# The narrowest a calls column gets for its widest argument (`"units":"celsius",`): a longer one is shortened to
# the column's width with "…" rather than take the room of the other columns.
PIECE_LEAST = 24
# a call's name and bracket, before its JSON arguments: a whole word (after a space or at the line's start) of at
# most 64 characters, the longest the APIs take; a server's name `[b]x\u001b[31m\u200dz({` was read from its last
# letters, `u200dz(`, and the line broke inside it (a longer one: rich folds the line, nothing cut)
_CALL = re.compile(r"(?<!\S)[^\s(]{1,64}\((?=[\[{])")
_NAME_BRACKET = re.compile(r"[^\s(]{1,64}\(")  # a call's name and bracket, as _CALL reads them before the JSON
# The longest line read as a call: a call's arguments are cut to 80 characters before they are drawn (compare
# --send; run: 40), so only a server's tool name makes a line longer (`f([1,` ten thousand times): rich folds such
# a line as any text. (A line of JSON, the tool_choice sent, is the scenario's: 100 levels deep at most, its
# length the user's, an allowed_tools list of many tools longer than this.)
LINE_MOST = 1000


def cell_len(text: str) -> int:
    """rich's cell count, imported when a call is laid out (`compare --send -f json` cuts arguments without rich);
    printable ASCII is a cell a character, counted without it: a wire form allowing 10,000 tools asked ~2 million
    times, and the import statement alone was 6 of compare's 16 s."""
    if text.isascii() and text.isprintable():
        return len(text)
    from rich.cells import cell_len as cells

    return cells(text)


_STRING_REST = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*"', re.S)  # a JSON string's rest after its opening quote


def _after_string(text: str, quote: int) -> int:
    """The index after the string that opens at ``quote`` (its escapes skipped); the end of ``text`` if it never
    closes."""
    found = _STRING_REST.match(text, quote + 1)
    return found.end() if found else len(text)


def _breaks(text: str, keys: bool = False, closers: bool = False) -> list[tuple[int, float]]:
    """Where ``text`` (JSON, compact or spaced) may break, outside its strings: (the index after the break and the
    spaces after it, its depth). After a comma at depth 1 an argument ends; a nested value's opening bracket and
    its commas are one depth further. The arguments' own first bracket never breaks: it goes with the first
    argument (`get_weather(` over `{"city":"example"})`). ``keys``: after a scalar's key's colon too, deeper
    than its member's commas (a member wider than the column breaks there before its value is shortened:
    `"disable_parallel_tool_use":` over `true}`; an object or array value breaks after its bracket, as before).
    ``closers``: between two closing brackets too, the last place a part breaks (a value nested 90 deep ends in
    90 of them: `1}}}…` lost the rest where they can go on the next lines). None deeper than ``DEPTH_MOST``."""
    out: list[tuple[int, float]] = []
    depth = i = 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _after_string(text, i)
            continue
        if ch in "[{":
            depth += 1
            if 1 < depth <= DEPTH_MOST:
                out.append((i + 1, depth))
        elif ch in "]}":
            depth -= 1
            if closers and text[i + 1:i + 2] in ("]", "}"):
                out.append((i + 1, CLOSER_DEPTH))
        elif ch == "," and depth <= DEPTH_MOST:
            out.append((i + 1, depth))
        elif ch == ":" and keys and depth <= DEPTH_MOST and not _opens(text, i + 1):  # a scalar's key
            out.append((i + 1, depth + 0.5))
        i += 1
    spaced = []
    for at, depth in out:
        while at < len(text) and text[at] == " ":
            at += 1
        if at < len(text):
            spaced.append((at, depth))
    return spaced


CLOSER_DEPTH = 1_000_000.0  # deeper than any nesting json_depth lets through: a run of closers breaks last
# The deepest level a line breaks at: each level is a pass over its part, so a tool_choice *string* of 20,000 '['
# (text, not JSON, drawn as it is) was 20,000 passes over 20,000 breaks: compare ran for minutes. A JSON value is
# 100 levels deep at most (limit json_depth); a level past this one goes on its line whole, or shortened.
DEPTH_MOST = 128


def _opens(text: str, at: int) -> bool:
    """Whether the value at ``at`` (after spaces) is an object or an array."""
    while at < len(text) and text[at] == " ":
        at += 1
    return text[at:at + 1] in ("{", "[")


def _split(text: str, breaks: list[tuple[int, float]], width: int | None) -> list[str]:
    """``text`` cut at its shallowest breaks; a part wider than ``width`` cut again at its own shallowest, and so
    on (an argument is broken inside only where it does not fit a line whole). ``width`` None: cut once. A stack,
    not recursion, and each part reads its own breaks alone: a value nested a thousand deep is no RecursionError
    (a server's tool name may hold `f([1,` over and over), nor a walk over every break per part."""
    from bisect import bisect_left, bisect_right

    positions = [at for at, _ in breaks]
    out: list[str] = []
    stack = [(0, len(text))]  # the parts still to lay out, the next on top
    while stack:
        start, end = stack.pop()
        part = text[start:end]
        inner = breaks[bisect_right(positions, start):bisect_left(positions, end)]
        if not inner or (width is not None and cell_len(part.rstrip(" ")) <= width):
            out.append(part)
            continue
        top = min(depth for _, depth in inner)
        ends = [at for at, depth in inner if depth == top] + [end]
        parts = list(zip([start] + ends[:-1], ends))
        if width is None:
            out.extend(text[a:b] for a, b in parts)
        else:
            stack.extend(reversed(parts))
    return out


def _pieces(arguments: str, width: int | None = None, keys: bool = False, closers: bool = False) -> list[str]:
    """``arguments`` (JSON text) in pieces that are joined the text again: each argument with its comma and the
    spaces after it, an argument wider than ``width`` in its own pieces (its value's elements or keys, after
    its opening bracket and each comma; ``keys``: first after its key's colon); ``width`` None: the arguments
    alone."""
    return _split(arguments, _breaks(arguments, keys, closers), width)


def call_pieces(line: str, width: int | None = None) -> list[str] | None:
    """The unbreakable pieces of a line holding a call (the words before it, its name and bracket, each argument
    with its comma: ``_pieces`` at ``width``), or None where the line holds no call with JSON arguments (rich
    wraps it as any text)."""
    found = _CALL.search(line) if len(line) <= LINE_MOST else None
    if found is None:
        return None
    head = line[:found.start()]
    words = re.findall(r"\S+ *", head) if head.strip() else ([head] if head else [])
    return words + [found.group()] + _pieces(line[found.end():], width)


def shortened(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, its last one an ellipsis (as it is where it fits)."""
    if cell_len(text) <= width:
        return text
    if text.isascii() and text.isprintable():  # a cell a character
        return text[:max(0, width - 1)] + ELLIPSIS
    out, used = [], 0
    for ch in text:
        cells = cell_len(ch)
        if used + cells > width - 1:
            break
        out.append(ch)
        used += cells
    return "".join(out) + ELLIPSIS


def call_lines(line: str, width: int, first: int | None = None) -> list[str] | None:
    """``line`` in lines no wider than ``width`` cells (the first no wider than ``first``, where it is given: the
    room after a label), broken only between its pieces (``call_pieces``), none ending in a space; None where it
    holds no call, or fits as it is. A word before the arguments wider than a line (a tool's name and its bracket:
    64 characters and more at 60 columns) is broken by the word rule (``word_breaks``), shown whole: shortened,
    `lookup_the_current_weather_for_a_city_by_its_na…` lost its end and its bracket."""
    room = width if first is None else max(1, min(first, width))
    if width < 2 or cell_len(line) <= room:
        return None
    pieces = call_pieces(line, width)
    if pieces is None:
        return None
    head = _CALL.search(line).end()  # type: ignore[union-attr]  (call_pieces found it)
    long, at = [], 0
    for piece in pieces:
        at += len(piece)
        long.append(at <= head and cell_len(piece.rstrip(" ")) > width)
    return [drawn for _, _, drawn in _packed_at(pieces, tuple(long), width, room)]


def json_lines(line: str, width: int, first: int | None = None) -> list[str] | None:
    """A line of JSON (a tool_choice on the wire: `{"type":"function","function":{"name":"x"}}`) broken as
    ``call_lines`` breaks a call's arguments, and a member wider than the line after its key's colon: a string or
    a number is never broken, only shortened with "…" where it is wider than a line alone; None where it is no
    JSON object or array, or fits (``first``: as for ``call_lines``)."""
    room = width if first is None else max(1, min(first, width))
    if width < 2 or cell_len(line) <= room or not line.startswith(("{", "[")):
        return None
    return _packed(_pieces(line, width, keys=True, closers=True), width, room)


def json_ranges(line: str, width: int, first: int | None = None) -> list[tuple[int, int, str]] | None:
    """``json_lines`` with where each line comes from, as ``prose_ranges`` gives them: a line of JSON (run's final
    answer, cut after a member with "…": no longer a document ``json.loads`` reads, its brackets still counted)
    broken between its members, a key's colon before a scalar, or between closing brackets; None where it is no
    JSON object or array, or fits."""
    room = width if first is None else max(1, min(first, width))
    if width < 2 or cell_len(line) <= room or not line.startswith(("{", "[")) or len(line) > PROSE_MOST:
        return None
    return _packed_at(_pieces(line, width, keys=True, closers=True), (), width, room)


PROSE_MOST = 100_000  # a longer message (an allowed list of thousands of tools) is folded by rich as any text


def json_spans(line: str) -> list[tuple[int, int]]:
    """Where ``line`` (prose: a ledger message) quotes a JSON object or array: each outermost bracketed span, its
    brackets counted outside JSON strings, that ``json.loads`` reads whole (`{type: "enabled"}` and
    `[search_docs, read_file]` are prose). One pass and one parse a span; a bracket that never closes (`enum
    ["a","b…`) is read again from after it, a few times at most (a line of brackets is no quadratic walk)."""
    import json

    spans: list[tuple[int, int]] = []
    at, again, cuts = 0, 4, CUT_SPANS_MOST
    while at < len(line):
        depth = start = 0
        i = at
        while i < len(line):
            ch = line[i]
            if not depth:  # prose: a quote there is the prose's own
                if ch in "[{":
                    depth, start = 1, i
            elif ch == '"':
                i = _after_string(line, i)
                continue
            elif ch in "[{":
                depth += 1
            elif ch in "]}":
                depth -= 1
                if not depth:
                    try:
                        value = json.loads(line[start:i + 1])
                    except (ValueError, RecursionError):
                        value = None
                    if isinstance(value, (dict, list)):
                        spans.append((start, i + 1))
            i += 1
        if not depth or not again:
            break
        cut = _cut_span(line, start) if cuts else None
        if cut is not None:  # JSON cut short with "…" (a repeated call's arguments cut at 200): broken as JSON
            spans.append((start, cut))
            at, cuts = cut, cuts - 1  # each one a pass over the rest of the line: a few at most (`{…` 20,000 times)
            continue
        at, again = start + 1, again - 1  # the bracket left open: prose; what follows it is read again
    return spans


CUT_SPANS_MOST = 8  # cut values read as JSON in one line; past them the rest is prose (a message quotes one or two)


def _cut_span(line: str, start: int) -> int | None:
    """The end of a JSON value that opens at ``start`` and is cut short by the first "…" after it, inside a string
    or after a member (`{"city": "Par…`, `[1, 2, …`): the index after the "…", where the text before it, closed
    (its string and its open brackets; a comma or a key's colon before the cut left out, or given null), is
    what ``json.loads`` reads; else None (`enum ["a","b…` quoted by a message: prose, as before)."""
    import json

    cut = line.find(ELLIPSIS, start)
    if cut < 0 or cut - start > PROSE_MOST:
        return None
    head = line[start:cut]
    stack: list[str] = []
    i = 0
    while i < len(head):
        ch = head[i]
        if ch == '"':
            end = _after_string(head, i)
            if end == len(head) and not head.endswith('"') or end == len(head) and end - i < 2:
                head += '"'  # cut inside a string: the string closed
                break
            i = end
            continue
        if ch in "[{":
            stack.append("]" if ch == "[" else "}")
        elif ch in "]}":
            if not stack:
                return None
            stack.pop()
        i += 1
    if not stack:
        return None
    head = head.rstrip(" ")
    if head.endswith(","):
        head = head[:-1]
    elif head.endswith(":"):
        head += "null"
    try:
        json.loads(head + "".join(reversed(stack)))
    except (ValueError, RecursionError):
        return None
    return cut + 1


def _prose_pieces(line: str, width: int, spans: list[tuple[int, int]]) -> list[tuple[str, bool]]:
    """``line``'s unbreakable pieces, each with whether it is a word wider than ``width`` (broken where it is
    placed, as the printer's wrap breaks one: ``_packed_at``): each word with the spaces after it; each JSON span
    (``spans``) whole where it fits a line, else in ``json_lines``' pieces. A word written against a span (`(set
    {...})`) goes with the span's piece beside it."""
    marked: list[tuple[str, bool, bool]] = []  # (text, a break may follow it, JSON)
    at = 0
    for start, end in spans + [(len(line), len(line))]:
        # every character a word's, tabs and other spaces too (`\S+` dropped them): a break only after a space
        words = re.findall(r" +|[^ ]+ *", line[at:start])
        # a call's name and bracket may end a line, as in call_lines (`name(` over `{"city": ...`): a long name
        # shortened with its first argument lost that argument
        marked += [(word, word.endswith(" ") or (k == len(words) - 1 and start < len(line) and _NAME_BRACKET.fullmatch(
            word) is not None), False) for k, word in enumerate(words)]
        span = line[start:end]
        inner = [span] if cell_len(span) <= width else _pieces(span, width, keys=True)
        marked += [(piece, k < len(inner) - 1, True) for k, piece in enumerate(inner) if piece]
        at = end
    joined: list[list] = []  # [text, a break may follow it, holds JSON]
    for text, breaks, is_json in marked:
        if joined and not joined[-1][1]:
            joined[-1] = [joined[-1][0] + text, breaks, joined[-1][2] or is_json]
        else:
            joined.append([text, breaks, is_json])
    return [(text, not is_json and cell_len(text.rstrip(" ")) > width) for text, _, is_json in joined]


def _folded(word: str, width: int) -> list[str]:
    """``word`` in pieces ``width`` cells wide, the last one with the rest: after a `/`, a `.`, ... where one fits
    (a URL, a path, a dotted name: ``word_breaks.word_pieces``), else at the width."""
    from .word_breaks import word_pieces

    return word_pieces(word, width)


def prose_lines(line: str, width: int) -> list[str] | None:
    """A line of prose that quotes JSON (a ledger message: `tool_choice {...} → {"type":"function",...}`) in lines
    no wider than ``width``: broken at its spaces as rich wraps prose (a word wider than a line folded), each JSON
    object or array it quotes kept whole where it fits a line, else broken as ``json_lines`` breaks one (between
    members, a key's colon before a scalar; a string or number never inside, shortened with "…" only where it is
    wider than a line alone). None where it quotes no JSON or fits: rich wraps it as before."""
    if width < 2 or cell_len(line) <= width or len(line) > PROSE_MOST:
        return None
    spans = json_spans(line)
    return [drawn for _, _, drawn in _packed_at(*zip(*_prose_pieces(line, width, spans)), width, width)] if spans \
        else None


def prose_ranges(line: str, width: int, first: int | None = None) -> list[tuple[int, int, str]] | None:
    """``prose_lines`` with where each line comes from: (its start in ``line``, its end, the line drawn: that text,
    or its start and "…" where one piece alone was wider), so a caller keeps the styles of the text it breaks (a
    note after its label, cli/hanging.py). ``first``: the first line's room (the rest beside a label), as for
    ``call_lines``. None where the line quotes no JSON, or fits."""
    room = width if first is None else max(1, min(first, width))
    if width < 2 or cell_len(line) <= room or len(line) > PROSE_MOST:
        return None
    spans = json_spans(line)
    if not spans:
        return None
    pieces, long = zip(*_prose_pieces(line, width, spans))
    return _packed_at(pieces, long, width, room) if "".join(pieces) == line else None


def prose_block(text: str, width: int, first: int | None = None, calls: bool = False) -> list[str] | None:
    """``text``'s lines (prose that may quote JSON: a verdict, a loop's end; ``calls``: and lines that hold a tool
    call, run's side-by-side cells) each broken to ``width``: a call line as ``call_lines`` breaks it, any other as
    ``prose_ranges`` does (a line quoting no JSON left as it is, for rich to wrap); the first line ``first`` wide
    where given. None where no line changed."""
    out: list[str] = []
    changed = False
    for j, line in enumerate(text.split("\n")):
        room = first if j == 0 else None
        if calls and call_pieces(line) is not None:
            lines = call_lines(line, width, room)
        else:
            ranges = prose_ranges(line, width, room)
            lines = None if ranges is None else [drawn for _, _, drawn in ranges]
        changed = changed or lines is not None
        out.extend(lines if lines is not None else [line])
    return out if changed else None


def prose_json_least(line: str) -> int:
    """The narrowest a column gets with no JSON ``line`` quotes shortened (``json_least`` of each span)."""
    if len(line) > PROSE_MOST:
        return 0
    spans = [line[start:end] for start, end in json_spans(line)]
    return max((cell_len(piece.rstrip(" ")) for span in spans for piece in _pieces(span, 1, keys=True)), default=0)


def _packed(pieces: list[str], width: int, room: int) -> list[str]:
    """``pieces`` in lines, as many on a line as fit (the first line ``room`` wide), a piece wider than its line
    alone shortened (``shortened``)."""
    return [drawn for _, _, drawn in _packed_at(pieces, (), width, room)]


def _packed_at(pieces: list[str] | tuple[str, ...], long: tuple[bool, ...], width: int,
               room: int) -> list[tuple[int, int, str]]:
    """``_packed``'s lines, each with its start and end in the pieces joined (the spaces a line ends in left out).
    ``long``: per piece, whether it is a word wider than a line, broken as the printer's wrap breaks one
    (``word_breaks``: its first piece beside the words before it where it ends after a `/`, `?`, `&` or `,`, else
    the word starts the next line; its other pieces after the rule's points), never shortened."""
    lines: list[tuple[int, int, str]] = []
    current = ""
    start = at = 0
    for k, piece in enumerate(pieces):
        if k < len(long) and long[k] and cell_len((current + piece).rstrip(" ")) > room:
            from .word_breaks import beside, word_pieces

            parts = beside(piece, room - cell_len(current), width) if current else None
            if parts is None:
                if current:
                    kept = current.rstrip(" ")
                    lines.append((start, start + len(kept), kept))
                    current, room, start = "", width, at
                head = word_pieces(piece, room)[0]
                parts = [head] + (word_pieces(piece[len(head):], width) if len(head) < len(piece) else [])
            for part in parts[:-1]:  # each a line of its own, the first after the words before it
                current += part
                at += len(part)
                lines.append((start, at, current))
                current, room, start = "", width, at
            current += parts[-1]
            at += len(parts[-1])
            continue
        if current and cell_len((current + piece).rstrip(" ")) > room:
            kept = current.rstrip(" ")
            lines.append((start, start + len(kept), kept))
            current, room, start = "", width, at
        current += piece
        at += len(piece)
        if cell_len(current.rstrip(" ")) > room:  # a piece wider than its line alone
            kept = current.rstrip(" ")
            lines.append((start, start + len(kept), shortened(kept, room)))
            current, room, start = "", width, at
    if current.rstrip(" "):
        kept = current.rstrip(" ")
        lines.append((start, start + len(kept), kept))
    return lines


def broken(text: str, width: int, json: bool = False) -> str:
    """Every call line of ``text`` broken to ``width`` (``call_lines``; ``json``: every line of JSON,
    ``json_lines``), its other lines as they are."""
    out = []
    for line in text.split("\n"):
        lines = json_lines(line, width) if json else call_lines(line, width)
        out.extend(lines if lines is not None else [line])
    return "\n".join(out)


def longest_piece(text: str, json: bool = False) -> int:
    """The widest piece of the calls in ``text`` (``json``: of its lines of JSON; 0 where it holds none)."""
    def pieces(line: str) -> list[str]:
        if json:
            return _pieces(line) if line.startswith(("{", "[")) else []  # whole members: the width they want
        return call_pieces(line) or []

    widths = [cell_len(piece.rstrip(" ")) for line in text.split("\n") for piece in pieces(line)]
    return max(widths, default=0)


def json_least(text: str) -> int:
    """The narrowest a column of JSON gets with none of ``text``'s lines of JSON shortened: its widest piece where
    ``json_lines`` breaks it at every place it may (a key; a string or number with the brackets and comma after
    it); 0 where it holds no JSON object or array."""
    lines = [line for line in text.split("\n") if line.startswith(("{", "["))]
    return max((cell_len(piece.rstrip(" ")) for line in lines for piece in _pieces(line, 1, keys=True)), default=0)


def json_widest_key(text: str) -> int:
    """The widest key (with its quotes and colon) of ``text``'s lines of JSON; 0 where they hold none."""
    lines = [line for line in text.split("\n") if line.startswith(("{", "["))]
    return max((cell_len(piece.rstrip(" ")) for line in lines for piece in _pieces(line, 1, keys=True)
                if piece.rstrip(" ").endswith('":')), default=0)


def arguments_cut(arguments: str, most: int) -> str:
    """``arguments`` (JSON text) cut to at most ``most`` characters after the last argument that fits, an ellipsis
    after it (`{"city":"Paris",…`); inside the first one only where even it does not fit."""
    if len(arguments) <= most:
        return arguments
    kept = taken = ""  # kept: up to the last argument's comma within ``most``
    # read up to LINE_MOST characters: a server's 32 MiB of arguments is cut to 80 without walking all of it (7.5 s
    # a row); a first argument longer than that is then cut after an element inside it, not at the character
    for piece in _pieces(arguments[:max(most, LINE_MOST)]):
        if len(taken) + len(piece.rstrip(" ")) + 1 > most:
            break
        taken += piece
        if taken.rstrip(" ").endswith(","):
            kept = taken
    kept = kept.rstrip(" ")
    return kept + ELLIPSIS if kept else arguments[:most - 1] + ELLIPSIS


_MEMBER = re.compile(r'( *)("(?:[^"\\]|\\.)*": )?(.*)\Z', re.S)  # an indented line: its indent, its key, its value
_NUMBER = re.compile(r"[-+]?\d[\d.,]* +\Z")  # a number before its unit: "12.5 km/h" is one piece


def indented_lines(text: str, width: int) -> list[str] | None:
    """Indented JSON (a call's arguments in the calls table, ``json.dumps(indent=2)``) in lines no wider than
    ``width``: a member wider than its line broken after its key's colon, its value on the lines under the key two
    spaces further in (an indent no deeper than a third of the line), broken at the spaces of a string (a number
    and its unit kept together), a word wider than its line broken as the printer breaks one (``word_breaks``). Nothing is shortened: the table shows the
    arguments whole (``shown_head`` bounds them). None where every line fits. rich wrapped such a line at any
    space and folded at any character: `"12.5` over `km/h"`, a value's `,` alone on a line, `"g` over `":`."""
    if width < 8:
        return None
    out: list[str] = []
    changed = False
    for line in text.split("\n"):
        if cell_len(line) <= width:
            out.append(line)
            continue
        changed = True
        found = _MEMBER.match(line)
        indent, key, value = found.group(1), found.group(2) or "", found.group(3)  # type: ignore[union-attr]
        lead = " " * min(len(indent), width // 3)
        if key:
            head = lead + key.rstrip(" ")
            if cell_len(head) > width and cell_len(key.rstrip(" ")) <= width:
                head = key.rstrip(" ")  # the key whole at the line's start rather than folded under its indent
            out.extend(_folded(head, width))  # a key wider than a line: folded, shown whole
            lead = " " * min(len(lead) + 2, width // 3)
        room = width - len(lead)
        words: list[str] = []
        for word in re.findall(r"[^ ]+ *| +", value):
            if words and _NUMBER.fullmatch(words[-1]) and cell_len(words[-1] + word.rstrip(" ")) <= room:
                words[-1] += word  # "12.5 km/h"
            else:
                words.append(word)
        current = ""
        for word in words:
            if cell_len(word.rstrip(" ")) > room and cell_len((current + word).rstrip(" ")) > room:
                # wider than a line: its first piece beside the words before it where it ends after a `/`, `?`, `&`
                # or `,` (word_breaks.beside), else it starts the next line; broken after the rule's points
                from .word_breaks import beside

                parts = beside(word, room - cell_len(current), room) if current else None
                if parts is None:
                    if current:
                        out.append(lead + current.rstrip(" "))
                    current, parts = "", _folded(word, room)
                *whole, last = parts
                for part in whole:
                    out.append(lead + current + part)
                    current = ""
                current += last
                continue
            if current and cell_len((current + word).rstrip(" ")) > room:
                out.append(lead + current.rstrip(" "))
                current = ""
            current += word
        if current.rstrip(" "):
            out.append(lead + current.rstrip(" "))
    return out if changed else None
