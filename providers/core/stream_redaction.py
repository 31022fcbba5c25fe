"""Redacting a whole stream's bytes once it has ended (issue 29: never chunk by chunk, where a key split
between two pieces survives). SSE and NDJSON are text; an AWS event stream is re-framed message by message
so the saved file still decodes. Imported by ``streaming.stream_reply`` and ``save``."""

from __future__ import annotations

import struct
import zlib
from typing import Any

from .stream_framing import _HEADER_TYPES, _PRELUDE, Framing


def redact_stream(data: bytes, framing: Framing, redactor: Any) -> bytes:
    """A whole stream's bytes with every key redacted (any spelling, any piece, wherever chunks split it).
    An AWS event stream is re-framed: each message's payload and string headers redacted, its lengths and
    both CRCs computed again, so the saved file still decodes (and nothing in it decodes back to a key)."""
    if not redactor or not data:
        return data
    if framing != "eventstream":
        text = data.decode("utf-8", errors="surrogateescape")
        redacted = redactor.text(text)
        # nothing redacted (the same text): the bytes as they are, not a second copy of the whole stream
        return data if redacted is text else redacted.encode("utf-8", errors="surrogateescape")
    out = bytearray()
    at = 0
    while len(data) - at >= 16:
        total, headers_length, _ = _PRELUDE.unpack_from(data, at)
        if total < 16 + headers_length or at + total > len(data):
            break
        raw_headers = data[at + 12:at + 12 + headers_length]
        payload = data[at + 12 + headers_length:at + total - 4]
        out += encode_message(_redact_headers(raw_headers, redactor),
                              redactor.text(payload.decode("utf-8", errors="surrogateescape")).encode(
                                  "utf-8", errors="surrogateescape"))
        at += total
    rest = data[at:]
    if rest:  # an unfinished message: its text, redacted (it never decoded as a message anyway)
        out += redactor.text(rest.decode("utf-8", errors="surrogateescape")).encode("utf-8", errors="surrogateescape")
    return bytes(out)


def _redact_headers(raw: bytes, redactor: Any) -> bytes:
    if not redactor.contains(raw.decode("utf-8", errors="replace")):
        return raw
    out = bytearray()
    i = 0
    while i < len(raw):
        size = raw[i]
        name = raw[i + 1:i + 1 + size]
        kind = raw[i + 1 + size]
        i += 2 + size
        width = _HEADER_TYPES.get(kind, 0)
        if width == -1:
            width = int.from_bytes(raw[i:i + 2], "big")
            i += 2
            value = raw[i:i + width]
            if kind == 7:
                value = redactor.text(value.decode("utf-8", errors="surrogateescape")).encode(
                    "utf-8", errors="surrogateescape")
            out += bytes([size]) + name + bytes([kind]) + len(value).to_bytes(2, "big") + value
        else:
            out += bytes([size]) + name + bytes([kind]) + raw[i:i + width]
        i += width
    return bytes(out)


def encode_message(raw_headers: bytes, payload: bytes) -> bytes:
    """One AWS event-stream message: prelude (lengths, CRC), headers, payload, message CRC."""
    total = 16 + len(raw_headers) + len(payload)
    prelude = struct.pack(">II", total, len(raw_headers))
    head = prelude + struct.pack(">I", zlib.crc32(prelude)) + raw_headers + payload
    return head + struct.pack(">I", zlib.crc32(head))
