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

Unbuffered streams (``python -u``, ``PYTHONUNBUFFERED=1``, set in many container images) are a text layer
directly over the raw file, and the text layer ignores how much of a write the file took: a write that
reached a full disk or ``ulimit -f`` part-way was cut short silently, and the command exited 0 with its
output truncated. And a pipe another process left non-blocking (O_NONBLOCK is a property of the pipe, shared
by every process writing to it: Node.js-based runners leave it so) refuses a write once it is full, while
the reader is just slower: "internal error: BlockingIOError" with part of the output. ``whole_writes`` puts
a layer under the text layer (and its buffer, if any) that writes every byte, waiting for a full non-blocking
pipe to take more as a blocking write waits, or raises the error of the write that failed.
"""

from __future__ import annotations

import codecs
import io
import os
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


class WholeWrites(io.RawIOBase):
    """A raw file whose ``write`` writes every byte or raises (the OSError of the write that failed)."""

    def __init__(self, raw: Any) -> None:
        super().__init__()
        self.raw = raw

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        size = len(view)
        while view:
            try:
                written = self.raw.write(view)
            except BlockingIOError:
                written = None
            if written is None:  # a non-blocking pipe that is full: wait until the reader takes some
                import select  # (here: most streams never wait, and render's start-up stays where it is)

                select.select([], [self.raw], [])
                continue
            view = view[written:]
        return size

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return int(self.raw.fileno())

    def isatty(self) -> bool:
        return bool(self.raw.isatty())


_REPLACED: list[Any] = []


def whole_writes(names: list[str]) -> None:
    """See the module docstring: the streams named ("stdout", "stderr"), each a text layer over a raw file
    (unbuffered: it stays so) or over a BufferedWriter (``app._writes_may_be_lost`` chose them)."""
    for name in names:
        stream = getattr(sys, name)
        stream.flush()
        _REPLACED.append(stream)  # collected, it would close the file it wrapped, which the new layers write to
        unbuffered = type(stream.buffer) is io.FileIO
        raw = WholeWrites(stream.buffer if unbuffered else stream.buffer.raw)
        wrapped = io.TextIOWrapper(raw if unbuffered else io.BufferedWriter(raw), encoding=stream.encoding,
                                   errors=stream.errors, newline=None if os.name == "nt" else "\n",
                                   line_buffering=stream.line_buffering, write_through=unbuffered)
        setattr(sys, name, wrapped)
