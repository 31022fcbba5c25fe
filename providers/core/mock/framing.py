"""Stream encoders, the inverse of ``core/stream_framing.py``'s decoders: one bytes object per event.

- SSE: ``event: NAME`` (when the family names its events) and one ``data:`` line, then a blank line
  (html.spec.whatwg.org server-sent events); OpenAI Chat ends with ``data: [DONE]``.
- NDJSON: one JSON value per line (Ollama).
- AWS event stream: a 12-byte prelude (total length, headers length, CRC32 of those 8 bytes), string
  headers (``:event-type``, ``:content-type``, ``:message-type``), the JSON payload, and the CRC32
  of everything before it (the layout botocore's ``eventstream.py`` reads).
"""

from __future__ import annotations

import json
import struct
import zlib
from typing import Any, Iterable

_PRELUDE = struct.Struct(">II")


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def sse(events: Iterable[tuple[str | None, Any]]) -> list[bytes]:
    out = []
    for name, data in events:
        text = data if isinstance(data, str) else _dumps(data)
        out.append(((f"event: {name}\n" if name else "") + f"data: {text}\n\n").encode("utf-8"))
    return out


def ndjson(events: Iterable[tuple[str | None, Any]]) -> list[bytes]:
    return [(_dumps(data) + "\n").encode("utf-8") for _, data in events]


def _header(name: str, value: str) -> bytes:
    raw_name, raw_value = name.encode(), value.encode()
    return bytes([len(raw_name)]) + raw_name + b"\x07" + struct.pack(">H", len(raw_value)) + raw_value


def eventstream_message(headers: dict[str, str], payload: bytes) -> bytes:
    head = b"".join(_header(k, v) for k, v in headers.items())
    prelude = _PRELUDE.pack(12 + len(head) + len(payload) + 4, len(head))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    message = prelude + head + payload
    return message + struct.pack(">I", zlib.crc32(message))


def eventstream(events: Iterable[tuple[str | None, Any]]) -> list[bytes]:
    out = []
    for name, data in events:
        if name and name.startswith(":exception:"):
            headers = {":exception-type": name[len(":exception:"):], ":content-type": "application/json",
                       ":message-type": "exception"}
        else:
            headers = {":event-type": name or "", ":content-type": "application/json", ":message-type": "event"}
        out.append(eventstream_message(headers, _dumps(data).encode("utf-8")))
    return out


ENCODERS = {"sse": sse, "ndjson": ndjson, "eventstream": eventstream}
CONTENT_TYPES = {"sse": "text/event-stream; charset=utf-8", "ndjson": "application/x-ndjson",
                 "eventstream": "application/vnd.amazon.eventstream"}
