"""The console script's standard streams when they cannot write every character.

stdout and stderr write in the encoding Python chose for them: UTF-8 almost everywhere, but a Windows console
redirected to a file writes cp1252, an old server's locale Latin-1, and ``PYTHONIOENCODING=ascii`` ASCII. A
character such an encoding has no byte for (an arrow in the ledger, a reply's "°C", a tool name in another
script) made the strict default raise UnicodeEncodeError: the command ended as "internal error", exit 70,
with nothing of its output. ``escape_unencodable`` makes such a character a JSON escape (``\\u00b0``,
``\\ud83d\\ude00`` beyond the BMP): inside a JSON document it is the same string, read back unchanged; in a
table or a line it is shown visibly, as control characters are (``redaction.visible``). Only streams left
at the strict default in an encoding that is not UTF-8; an error handler the user chose
(``PYTHONIOENCODING=latin-1:replace``) stays. Only in the console script's own process (``app.main``).
"""

from __future__ import annotations

import codecs
import sys
from typing import Any

HANDLER = "toolchoice.json-escape"


def _json_escapes(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    shown = []
    for char in error.object[error.start:error.end]:
        code = ord(char)
        if code > 0xFFFF:  # a surrogate pair, as JSON writes a character beyond the BMP
            code -= 0x10000
            shown.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            shown.append(f"\\u{code:04x}")
    return "".join(shown), error.end


def writes_utf8(stream: Any) -> bool:
    """Whether ``stream`` (a text stream) encodes as UTF-8."""
    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "").name == "utf-8"
    except LookupError:
        return False


def escape_unencodable() -> None:
    """See the module docstring."""
    for stream in (sys.stdout, sys.stderr):
        if stream is None or getattr(stream, "errors", None) != "strict" or not hasattr(stream, "reconfigure"):
            continue
        if writes_utf8(stream):
            continue
        try:
            codecs.lookup_error(HANDLER)
        except LookupError:
            codecs.register_error(HANDLER, _json_escapes)
        stream.reconfigure(errors=HANDLER)
