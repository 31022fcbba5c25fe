"""JSON text as toolchoice writes it: ``json.dumps(value, indent=2, ensure_ascii=False)``, byte for byte.

Python's encoder only has a C implementation without ``indent``; with it, every value is a Python
generator step (~0.7 ms for one 4-step loop of ``run --format json``, a sixth of a loop step's CPU).
orjson writes the same layout (two spaces, ``": "``, UTF-8 as is, the same escapes) ~30× faster, and is
used when it can promise the same bytes:

- values Python's encoder refuses or spells its own way are left to Python: orjson raises on keys that
  are not strings, integers beyond 64 bits, lone surrogates, circular or too deep values and most
  objects that are not JSON; NaN and ±Infinity (Python writes ``NaN``, orjson ``null``), subclasses
  (Python writes them through their base type) and the objects orjson writes but Python refuses
  (dataclasses, dates, plain enums, UUIDs) are found by a walk over the value (``_plain``: exact JSON types,
  finite floats), which costs no memory where reading orjson's text back (what was done before) built the
  whole document again (~125 MiB for an 8 MB reply) and cost ~15× the walk's time;
- floats below 1e-4: Python writes ``1e-05`` and ``1e-07`` where orjson writes ``0.00001`` and ``1e-7``;
  when orjson's text may hold one (``_float_spelled_otherwise``, which may also match inside a string:
  then Python writes it, no harm done), Python writes the text.

``tests/test_json_text.py`` holds the promise against the standard library's own output.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

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


# orjson reserves several times a string's length while it writes it and again while it reads the text back (a
# 25 MB argument: ~230 MB to write, ~300 MB to read back, against ~50 MB for Python's encoder); its speed is in
# the many small values of a long document, not in one long string. A value holding a longer string is written
# by Python.
LONG_STRING = 1 << 20


_WALKED = 20_000  # values looked at, at most: a document of more is orjson's kind (many small values)


def _holds_long_string(value: Any) -> bool:
    """Whether a string (key or value) in ``value`` is at least LONG_STRING characters (stops at the first, and
    after _WALKED values: the walk is Python, and must not cost what orjson saves on a long document)."""
    stack = [value]
    seen: set[int] = set()  # a container met again (a circular value: the encoders refuse it) is not walked again
    walked = 0
    while stack and walked < _WALKED:
        walked += 1
        item = stack.pop()
        if isinstance(item, str):
            if len(item) >= LONG_STRING:
                return True
        elif isinstance(item, (dict, list, tuple)):
            if id(item) in seen:
                continue
            seen.add(id(item))
            if isinstance(item, dict):
                stack.extend(item.keys())
                stack.extend(item.values())
            else:
                stack.extend(item)
    return False


_LEAVES = (str, int, bool)
_NESTED = (dict, list, tuple)


def _plain(value: Any) -> bool:
    """Whether ``value`` holds only what both encoders write alike: dicts, lists, tuples, strings, ints, bools,
    None and finite floats, of exactly these types (orjson writes NaN as null, and writes plain enums, UUIDs and
    its Fragments where Python's encoder refuses them). Called on a value orjson wrote: no cycle, ≤ 255 levels."""
    kind = type(value)
    if kind in _NESTED:
        stack = [value]
    else:
        return kind in _LEAVES or value is None or (kind is float and math.isfinite(value))
    finite = math.isfinite
    while stack:
        item = stack.pop()
        for member in item.values() if type(item) is dict else item:
            kind = type(member)
            if kind is str or kind is int or kind is bool or member is None:
                continue
            if kind is dict or kind is list or kind is tuple:
                stack.append(member)
            elif kind is not float or not finite(member):
                return False
    return True


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``, the same text, faster where it can be."""
    fast = _fast_encoder()
    if fast and not _holds_long_string(value):
        try:
            raw = fast.dumps(value, option=fast.OPT_INDENT_2)
        except (TypeError, ValueError, RecursionError):  # orjson.JSONEncodeError is a TypeError
            pass
        else:
            text = raw.decode("utf-8")
            if not _float_spelled_otherwise(text) and _plain(value):
                return text
    return json.dumps(value, indent=2, ensure_ascii=False)
