"""JSON text as toolchoice writes it: ``json.dumps(value, indent=2, ensure_ascii=False)``, byte for byte.

Python's encoder only has a C implementation without ``indent``; with it, every value is a Python
generator step (~0.7 ms for one 4-step loop of ``run --format json``, a sixth of a loop step's CPU).
orjson writes the same layout (two spaces, ``": "``, UTF-8 as is, the same escapes) ~30× faster, and is
used when it can promise the same bytes:

- values Python's encoder refuses or spells its own way — NaN and ±Infinity (``NaN``; orjson writes
  ``null``), keys that are not strings, integers beyond 64 bits, lone surrogates, circular or too deep
  values, objects that are not JSON — are left to Python: a C-speed ``json.dumps`` without indent
  decides first (it raises where ``json.dumps`` would, and orjson raises on the rest);
- floats below 1e-4: Python writes ``1e-05`` and ``1e-07`` where orjson writes ``0.00001`` and ``1e-7``;
  when orjson's text may hold one (``_float_spelled_otherwise``, which may also match inside a string:
  then Python writes it, no harm done), Python writes the text.

``tests/test_json_text.py`` holds the promise against the standard library's own output.
"""

from __future__ import annotations

import json
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


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``, the same text, faster where it can be."""
    fast = _fast_encoder()
    if fast:
        try:
            json.dumps(value, allow_nan=False)  # C speed: raises on NaN/Infinity, cycles, non-JSON objects
            text = fast.dumps(value, option=fast.OPT_INDENT_2).decode("utf-8")
        except (TypeError, ValueError, RecursionError):  # orjson.JSONEncodeError is a TypeError
            pass
        else:
            if not _float_spelled_otherwise(text):
                return text
    return json.dumps(value, indent=2, ensure_ascii=False)
