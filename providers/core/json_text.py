"""JSON text as toolchoice writes it: ``json.dumps(value, indent=2, ensure_ascii=False)``, byte for byte.

Python's encoder only has a C implementation without ``indent``; with it, every value is a Python
generator step (~0.7 ms for one 4-step loop of ``run --format json``, a sixth of a loop step's CPU).
orjson writes the same layout (two spaces, ``": "``, UTF-8 as is, the same escapes) ~30× faster, and is
used when it can promise the same bytes:

- values Python's encoder refuses or spells its own way are left to Python: orjson raises on keys that
  are not strings, integers beyond 64 bits, lone surrogates, circular or too deep values and most
  objects that are not JSON; NaN and ±Infinity (Python writes ``NaN``, orjson ``null``), subclasses
  (Python writes them through their base type) and the objects orjson writes but Python refuses
  (dataclasses, dates, plain enums, UUIDs) are found by a walk over the value (``_shape``: exact JSON types,
  finite floats), which costs no memory where reading orjson's text back (what was done before) built the
  whole document again (~125 MiB for an 8 MB reply) and cost as much time or more (~14× for that reply);
- floats below 1e-4: Python writes ``1e-05`` and ``1e-07`` where orjson writes ``0.00001`` and ``1e-7``;
  when orjson's text may hold one (``_float_spelled_otherwise``, which may also match inside a string:
  then Python writes it, no harm done), Python writes the text;
- a large document is written in pieces (``_pieces``), so that orjson's buffer never holds the whole text.

``tests/test_json_text.py`` holds the promise against the standard library's own output.
"""

from __future__ import annotations

import json
import marshal
import math
import re
from typing import Any, Iterator

# orjson's spellings of the floats in (0, 1e-4), where Python's repr differs: 0.0000ddd (1e-5 <= |x| < 1e-4)
# and a one-digit negative exponent after a digit (1e-9 < |x| < 1e-5: 1e-7, where Python writes 1e-07).
# Both searches start with a literal, which re finds at C speed (a look-behind would make it try every
# position: ~0.5 ms on a 27 kB loop); a match inside a string only costs the slow path.
_SMALL_DECIMAL = re.compile(r"0\.0000[0-9]")
_SHORT_EXPONENT = re.compile(r"e-[1-9](?![0-9])")


def _float_spelled_otherwise(text: str) -> bool:
    if _SMALL_DECIMAL.search(text):
        return True
    return any(m.start() and text[m.start() - 1] in "0123456789" for m in _SHORT_EXPONENT.finditer(text))


_orjson: Any = None


def _fast_encoder() -> Any:
    """orjson, imported on first use (~0.4 ms after the standard modules toolchoice loads anyway), or
    False when it is not installed."""
    global _orjson
    if _orjson is None:
        try:
            import orjson
        except ImportError:  # pragma: no cover - a dependency; Python's encoder writes the same text
            _orjson = False
        else:
            _orjson = orjson
    return _orjson


# orjson reserves several times a string's length while it writes it (a 25 MB argument: ~250 MB, against ~50 MB
# for Python's encoder); its speed is in the many small values of a long document, not in one long string. A value
# holding a longer string is written by Python.
LONG_STRING = 1 << 20


_WALKED = 4_000  # values looked at, at most: a document of more is written in pieces

# orjson grows its buffer as it writes: ~3.4× the text at its peak (32 MiB for the 9 MB text of an 8 MB reply).
# A document of more than _WALKED values or PIECED_FROM characters of strings is written in pieces instead
# (``_pieces``): runs of members weighing about PIECE each (characters of their strings, 8 a value), one orjson
# call a run, the pieces joined as text: ~2× the text at the peak. Below, one orjson call (``_shape`` walked the
# whole value: nothing escapes the check; a larger document is checked on the way by ``_pieces``).
PIECED_FROM = 1 << 20
PIECE = 1 << 16
_SMALL, _LARGE, _LONG, _OTHER = "small", "large", "long", "other"


def _shape(value: Any) -> str:
    """What writes ``value``, from one walk over it: _OTHER when it holds what orjson writes otherwise than Python's
    encoder (a value that is not exactly a dict, list, tuple, str, int, bool, None or a finite float: NaN is null
    to orjson, plain enums and UUIDs are refused by Python, a subclass is written through its base type; or
    nesting deeper than orjson goes, a circular value among them), _LONG when a string in it is LONG_STRING
    characters or more (keys: their total), _LARGE (the walk stops there: ``_pieces`` checks the rest) when it holds
    more than _WALKED values or PIECED_FROM characters of strings, else _SMALL: walked whole, orjson writes it."""
    kind = type(value)
    if kind is not dict and kind is not list and kind is not tuple:
        if kind is str:
            return _LONG if len(value) >= LONG_STRING else _SMALL
        plain = kind is int or kind is bool or value is None or (kind is float and math.isfinite(value))
        return _SMALL if plain else _OTHER
    finite = math.isfinite
    stack = [(value, 0)]
    walked = characters = 0
    while stack:
        item, depth = stack.pop()
        if depth >= 254:
            return _OTHER
        if type(item) is dict:
            try:
                keys = sum(map(len, item))
            except TypeError:  # a key that is not a string: orjson refuses it
                return _OTHER
            if keys >= LONG_STRING:
                return _LONG
            characters += keys
            walked += 2 * len(item)
            members: Any = item.values()
        else:
            walked += len(item)
            members = item
        if walked >= _WALKED or characters >= PIECED_FROM:
            return _LARGE
        for member in members:
            kind = type(member)
            if kind is str:
                if len(member) >= LONG_STRING:
                    return _LONG
                characters += len(member)
            elif kind is int or kind is bool or member is None:
                continue
            elif kind is dict or kind is list or kind is tuple:
                stack.append((member, depth + 1))
            elif kind is not float or not finite(member):
                return _OTHER
    return _LARGE if characters >= PIECED_FROM else _SMALL


def _holds_long_string(value: Any) -> bool:
    return _shape(value) == _LONG


class _NotPlain(ValueError):
    """A value ``_shape`` calls _OTHER, or a string of LONG_STRING or more: Python's encoder writes the document."""


def _leaf_weight(item: Any, kind: type) -> int:
    if kind is str:
        if len(item) >= LONG_STRING:
            raise _NotPlain("a long string")
        return len(item) + 8
    if kind is int or kind is bool or item is None or (kind is float and math.isfinite(item)):
        return 8
    raise _NotPlain(f"{kind.__name__}: written by Python's encoder")


def _weight(value: Any, cap: int) -> int:
    """The characters of the container ``value``'s strings (keys too), 8 a value, counted until ``cap`` (a circular
    value stops there). Each value counted is checked as ``_shape`` checks it (raises ``_NotPlain``, or TypeError
    for a key that is not a string): a value lighter than ``cap`` is checked whole."""
    finite = math.isfinite
    stack = [value]
    total = 0
    while stack and total < cap:
        item = stack.pop()
        if type(item) is dict:
            total += 8 + 8 * len(item) + sum(map(len, item))
            members: Any = item.values()
        else:
            total += 8 + 8 * len(item)
            members = item
        if total >= cap:  # heavy: ``_pieces`` checks its members one by one
            return total
        for member in members:
            kind = type(member)
            if kind is str:
                if len(member) >= LONG_STRING:
                    raise _NotPlain("a long string")
                total += len(member)
                if total >= cap:
                    return total
            elif kind is int or kind is bool or member is None:
                continue
            elif kind is dict or kind is list or kind is tuple:
                stack.append(member)
            elif kind is not float or not finite(member):
                raise _NotPlain(f"{kind.__name__}: written by Python's encoder")
    return total


_FLAT = frozenset({str, int, bool, type(None)})
_FULL = object()  # the run weighs PIECE or more: write it
_BLOCK = 256  # members of a list weighed at once (C speed) when they are all strings, ints, bools or None


def _pieces(fast: Any, value: Any, level: int) -> Iterator[bytes]:
    """orjson's indented text of the container ``value`` (which weighs PIECE or more) at nesting ``level``, in
    pieces: the runs of its members that weigh less than PIECE, each written by one orjson call with its brackets
    cut and its lines indented to ``level``; a heavier member in pieces of its own. Every value is checked on the
    way (``_weight``: what ``_shape`` checks). Raises where orjson would (too deep, a key that is not a string)
    and ``_NotPlain``: Python's encoder writes the document then."""
    if level >= 255:
        raise _NotPlain("too deep for orjson")
    mapping = type(value) is dict
    inner = b"\n" + b"  " * (level + 1)
    first = True
    run: list[Any] = []
    weight = 0

    def flushed() -> bytes:
        raw = fast.dumps(dict(run) if mapping else run, option=fast.OPT_INDENT_2)[1:-2]  # "\n  a,\n  b"
        return (b"" if first else b",") + (raw.replace(b"\n", inner[:-2]) if level else raw)

    def members() -> Iterator[Any]:
        """The members to weigh one by one; a block of flat ones light enough goes into the run at once."""
        nonlocal weight
        if mapping:
            yield from value.items()
            return
        for start in range(0, len(value), _BLOCK):
            block = value[start:start + _BLOCK]
            kinds = set(map(type, block))
            if kinds <= _FLAT:
                size = 8 * len(block) + (sum(map(len, block)) if kinds == {str}
                                         else sum(len(m) for m in block if type(m) is str))
                if size < PIECE:
                    run.extend(block)
                    weight += size
                    if weight >= PIECE:
                        yield _FULL
                    continue
            yield from block

    yield b"{" if mapping else b"["
    for member in members():
        if member is _FULL:
            yield flushed()
            first, run, weight = False, [], 0
            continue
        item = member[1] if mapping else member
        kind = type(item)
        heavy = kind is dict or kind is list or kind is tuple
        size = _weight(item, PIECE) if heavy else _leaf_weight(item, kind)
        if heavy and size >= PIECE:
            if run:
                yield flushed()
                first, run, weight = False, [], 0
            if mapping and type(member[0]) is not str:
                raise TypeError("a key that is not a string: Python's encoder writes it")
            yield (b"" if first else b",") + inner + (fast.dumps(member[0]) + b": " if mapping else b"")
            yield from _pieces(fast, item, level + 1)
            first = False
            continue
        run.append(member)
        weight += size
        if weight >= PIECE:
            yield flushed()
            first, run, weight = False, [], 0
    if run:
        yield flushed()
    yield b"\n" + b"  " * level + (b"}" if mapping else b"]")


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``, the same text, faster where it can be."""
    fast = _fast_encoder()
    shape = _shape(value) if fast else _OTHER
    if shape == _SMALL or shape == _LARGE:
        try:
            if shape == _LARGE:  # every value past the walk's end is checked on the way
                text = "".join([piece.decode("utf-8") for piece in _pieces(fast, value, 0)])
            else:
                text = fast.dumps(value, option=fast.OPT_INDENT_2).decode("utf-8")
        except (TypeError, ValueError, RecursionError):  # orjson.JSONEncodeError is a TypeError
            pass
        else:
            if not _float_spelled_otherwise(text):
                return text
    return json.dumps(value, indent=2, ensure_ascii=False)


def extends_list(text: str, before: str) -> bool:
    """Whether ``text``, a list's ``json.dumps`` text, is the list ``before`` is the text of, or that list's items and
    more (``json.dumps`` writes ``", "`` between items): where a recorded conversation resumes from the previous
    call's (``saved_prefix``, ``mock.read_prefix``). The separator is looked at first (``before`` may be megabytes)."""
    return text == before or (text[len(before) - 1:len(before) + 1] == ", " and text.startswith(before[:-1]))


_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_UTF8 = re.compile(b"\xed[\xa0-\xbf]")  # a surrogate as marshal writes a str (UTF-8, surrogatepass)


def whole_characters(value: Any, halves: list[int], shared: bool = False) -> Any:
    """``value`` with each lone surrogate in its strings as U+FFFD, counted in ``halves``: the reader refuses one
    (``yaml_input.Reader.value``), where a transcript (loop_save) or a saved request (saved_request) holds a reply's
    JSON \\ud800 escape, which json.loads reads as half a character. A copy (no list or mapping shared, as YAML's
    dumper would write an alias for one), or with ``shared`` the value itself where it holds none. Most values hold
    none: marshal's text (C) says so, and is the copy, where a walk in Python over a HAR call's whole history was
    the replay's costliest pass (bench/README.md, trial23f); a byte pair of a number that looks like one only costs
    the walk. A value marshal does not write (a subclass, nested past its bound) is walked."""
    try:
        packed = marshal.dumps(value, 2)  # version 2: no references, so nothing shared in the copy
    except ValueError:
        return _whole_walk(value, halves)
    if _SURROGATE_UTF8.search(packed) is not None:
        return _whole_walk(value, halves)
    return value if shared else marshal.loads(packed)


def _whole_walk(value: Any, halves: list[int]) -> Any:
    if isinstance(value, str):
        if not _SURROGATE.search(value):
            return value
        halves[0] += len(_SURROGATE.findall(value))
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_whole_walk(k, halves): _whole_walk(v, halves) for k, v in value.items()}
    if isinstance(value, list):
        return [_whole_walk(v, halves) for v in value]
    return value
