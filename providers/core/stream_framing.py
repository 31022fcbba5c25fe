"""Stream framing: the bytes of a streamed reply -> ``Event``s, with the faults as findings.

Three framings carry every provider's stream:

- ``sse``: server-sent events, decoded by the WHATWG HTML "event stream interpretation" rules
  (html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation): lines end in
  CRLF, LF or CR; a leading BOM is dropped; ``:`` starts a comment; ``field: value`` loses one space
  after the colon; ``data`` lines join with LF; a blank line dispatches; an event with no data is not
  dispatched. The spec drops an event the stream ends inside (no blank line after it). Here a last
  event whose data is whole (JSON, or ``[DONE]``) is read, as google-genai 3.6.1
  (``_api_client.py`` ``_iter_response_stream``) and mistralai 3.7.0 (``utils/eventstreaming.py``
  ``stream_events``) read it, with the finding ``stream.unterminated_event``; one cut short is
  ``stream.incomplete_event``. Never silently dropped. A last ``data: [DONE]`` without its blank line is
  not dispatched, as openai's decoder (``_streaming.py`` ``SSEDecoder``) and the spec have it, and says so
  (``unterminated_end``): the marker arrived, so the stream was not cut.
- ``ndjson``: one JSON value per line (Ollama).
- ``eventstream``: AWS event-stream binary messages (Bedrock ConverseStream): a 12-byte prelude
  (total length, headers length, CRC32 of those 8 bytes), typed headers, the payload, and a CRC32 of the
  whole message before it (the layout botocore's ``botocore/eventstream.py`` reads).

``EventDecoder`` turns bytes in any split into events for one framing; ``decode_bytes`` and
``saved_events`` read a whole saved stream. Assembling the events into a reply is ``streaming``'s.

Imported only by streaming code paths: `render` never loads it.
"""

from __future__ import annotations

import codecs
import functools
import json
import re
import struct
import zlib
from typing import Any, Callable, Iterator, Literal, NamedTuple

from .bounded import TWICE_SAID, cut, depth_ok, key_shown, read_last
from .stream_assembly import Finding

Framing = Literal["sse", "ndjson", "eventstream"]
# How a family's official SDK ends an SSE stream at ``data: [DONE]`` (its assembler's ``done_marker``): "prefix", at
# data that starts with [DONE] (openai-python); "exact", at data that is exactly [DONE] (mistralai, cohere); None,
# never (anthropic, google-genai): the data is then an event like any other, read by the family's assembler.
DoneMarker = Literal["prefix", "exact"] | None


class Event(NamedTuple):
    """One decoded event. ``name``: the SSE ``event`` field (``message`` when absent), the
    event-stream ``:event-type`` (``:exception`` type for exceptions), None for NDJSON. ``data`` is
    the parsed JSON payload, or None when ``text`` is not JSON (``[DONE]``, a comment-only keepalive
    never becomes an event). ``at``: seconds since the request went out (None offline)."""

    name: str | None
    data: Any
    text: str
    at: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"event": self.name, "data": self.data if self.data is not None else self.text,
                "at_ms": None if self.at is None else round(self.at * 1000.0, 1)}


class StreamFault(Exception):
    """Bytes that cannot be decoded in the stream's framing; reading stops there."""


# ---- framing decoders ----------------------------------------------------------------------

_LINE_END = re.compile(r"\r\n|\r|\n")


class SSEDecoder:
    """WHATWG event-stream interpretation, fed bytes in any split; ``feed`` returns the dispatched
    events as ``(event type, data)`` pairs. ``id`` and ``retry`` are kept but not used."""

    def __init__(self, max_line: int | None = None) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._pending: list[str] = []  # pieces of a line not ended yet (joined once: no quadratic re-scan)
        self._pending_size = 0
        self.max_line = max_line
        self._first = True
        self._data: list[str] = []
        self._event = ""
        self.last_event_id = ""
        self.retry: int | None = None
        self.unterminated: tuple[str, str] | None = None

    def feed(self, chunk: bytes) -> list[tuple[str, str]]:
        text = self._decoder.decode(chunk)
        if self._first and text:
            self._first = False
            text = text.removeprefix("\ufeff")
        if text and not _LINE_END.search(text) and not (self._buffer.endswith("\r") and text):
            # no line ends here: keep the piece; the line is joined once when it ends
            if self._buffer:
                self._pending.append(self._buffer)
                self._buffer = ""
            self._pending.append(text)
            self._pending_size += len(text)
            if self.max_line is not None and self._pending_size > self.max_line:
                raise StreamFault(f"one SSE line is longer than {self.max_line} characters (limit stream_line_bytes)")
            return []
        self._join_pending()
        self._buffer += text
        return self._lines(final=False)

    def _join_pending(self) -> None:
        if self._pending:
            self._buffer = "".join(self._pending) + self._buffer
            self._pending = []
            self._pending_size = 0

    def close(self) -> tuple[list[tuple[str, str]], str]:
        """End of stream: events from the last lines, and the data of an event the stream ended inside
        (``unterminated`` holds it as an event: a last line without a line end is read as a line, as
        google-genai and mistralai read it)."""
        self._join_pending()
        self._buffer += self._decoder.decode(b"", final=True)
        events = self._lines(final=True)
        tail, self._buffer = self._buffer, ""
        if tail:
            self._line(tail, events)
        self.unterminated = (self._event or "message", "\n".join(self._data)) if self._data else None
        self._data, self._event = [], ""
        if self.unterminated:
            return events, self.unterminated[1]
        return events, "" if tail.startswith(":") else tail  # a field cut short (no data yet) is a cut too

    def _lines(self, final: bool) -> list[tuple[str, str]]:
        buffer = self._buffer
        events: list[tuple[str, str]] = []
        start = 0
        for match in _LINE_END.finditer(buffer):
            if match.group() == "\r" and match.end() == len(buffer) and not final:
                break  # a CR at the end may be the first half of CRLF
            if self.max_line is not None and match.start() - start > self.max_line:  # a whole line in one chunk
                raise StreamFault(f"one SSE line is longer than {self.max_line} characters (limit stream_line_bytes)")
            self._line(buffer[start:match.start()], events)
            start = match.end()
        self._buffer = buffer[start:]
        if self.max_line is not None and len(self._buffer) > self.max_line:
            raise StreamFault(f"one SSE line is longer than {self.max_line} characters (limit stream_line_bytes)")
        return events

    def _line(self, line: str, events: list[tuple[str, str]]) -> None:
        if not line:
            if self._data:
                events.append((self._event or "message", "\n".join(self._data)))
            self._data = []
            self._event = ""
            return
        if line[0] == ":":
            return
        field, colon, value = line.partition(":")
        if colon and value[:1] == " ":
            value = value[1:]
        if field == "data":
            self._data.append(value)
        elif field == "event":
            self._event = value
        elif field == "id":
            if "\0" not in value:
                self.last_event_id = value
        elif field == "retry":
            if value.isascii() and value.isdigit():
                self.retry = int(value)


class NDJSONDecoder:
    """Newline-delimited JSON: each non-blank line is one value (a trailing CR is dropped)."""

    def __init__(self, max_line: int | None = None) -> None:
        self._pieces: list[bytes] = []  # the line not ended yet, in pieces (joined once it ends)
        self._size = 0
        self.max_line = max_line

    def feed(self, chunk: bytes) -> list[str]:
        if b"\n" not in chunk:
            self._pieces.append(chunk)
            self._size += len(chunk)
            if self.max_line is not None and self._size > self.max_line:
                raise StreamFault(f"one NDJSON line is longer than {self.max_line} bytes (limit stream_line_bytes)")
            return []
        first, *lines, rest = chunk.split(b"\n")
        lines.insert(0, b"".join([*self._pieces, first]))
        if self.max_line is not None and max(len(rest), *map(len, lines)) > self.max_line:
            raise StreamFault(f"one NDJSON line is longer than {self.max_line} bytes (limit stream_line_bytes)")
        self._pieces, self._size = ([rest], len(rest)) if rest else ([], 0)
        return [text for text in (line.decode("utf-8", errors="replace").strip() for line in lines) if text]

    def close(self) -> tuple[list[str], str]:
        rest = b"".join(self._pieces).decode("utf-8", errors="replace").strip()
        self._pieces, self._size = [], 0
        return ([rest] if rest else []), ""


# AWS event-stream header value types: (size in bytes, or -1 for a u16 length prefix)
_HEADER_TYPES: dict[int, int] = {0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 6: -1, 7: -1, 8: 8, 9: 16}
_PRELUDE = struct.Struct(">III")
MAX_MESSAGE = 16 * 1024 * 1024  # botocore's _MAX_PAYLOAD_LENGTH
MAX_HEADERS = 128 * 1024  # botocore's _MAX_HEADERS_LENGTH


class EventStreamMessage(NamedTuple):
    headers: dict[str, Any]
    payload: bytes


def _header_value(kind: int, raw: bytes) -> Any:
    if kind == 0:
        return True
    if kind == 1:
        return False
    if kind in (2, 3, 4, 5):
        return int.from_bytes(raw, "big", signed=True)
    if kind == 7:
        return raw.decode("utf-8", errors="replace")
    if kind == 8:
        return int.from_bytes(raw, "big", signed=True)  # milliseconds since the epoch
    return bytes(raw)  # 6 bytes, 9 uuid


def parse_headers(data: bytes) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    i, end = 0, len(data)
    while i < end:
        size = data[i]
        name = data[i + 1:i + 1 + size].decode("utf-8", errors="replace")
        i += 1 + size
        if i >= end:
            raise StreamFault("event-stream header cut short")
        kind = data[i]
        i += 1
        width = _HEADER_TYPES.get(kind)
        if width is None:
            raise StreamFault(f"event-stream header {name!r} has unknown type {kind}")
        if width == -1:
            width = int.from_bytes(data[i:i + 2], "big")
            i += 2
        if i + width > end:
            raise StreamFault(f"event-stream header {name!r} runs past the headers")
        headers[name] = _header_value(kind, data[i:i + width])
        i += width
    return headers


_HEADER_CACHE: dict[bytes, dict[str, Any]] = {}  # read-only once parsed: never mutate a message's headers


class EventStreamDecoder:
    """AWS event-stream messages out of bytes in any split, with both CRC checks."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, chunk: bytes) -> list[EventStreamMessage]:
        self._buffer += chunk
        out = []
        buffer = memoryview(self._buffer)
        at, size = 0, len(buffer)
        try:
            while size - at >= 12:
                total, headers_length, prelude_crc = _PRELUDE.unpack_from(buffer, at)
                computed = zlib.crc32(buffer[at:at + 8])
                if computed != prelude_crc:
                    raise StreamFault(f"event-stream prelude CRC mismatch (expected {prelude_crc:#010x}, computed "
                                      f"{computed:#010x})")
                if total > MAX_MESSAGE or headers_length > MAX_HEADERS or total < 16 + headers_length:
                    raise StreamFault(f"event-stream message length {total} (headers {headers_length}) is not "
                                      "possible")
                if size - at < total:
                    break
                end = at + total
                (message_crc,) = struct.unpack_from(">I", buffer, end - 4)
                if zlib.crc32(buffer[at:end - 4]) != message_crc:
                    raise StreamFault(f"event-stream message CRC mismatch (expected {message_crc:#010x})")
                raw_headers = bytes(buffer[at + 12:at + 12 + headers_length])
                headers = _HEADER_CACHE.get(raw_headers)
                if headers is None:
                    headers = parse_headers(raw_headers)
                    if len(_HEADER_CACHE) < 256:  # a stream repeats a handful of header blocks
                        _HEADER_CACHE[raw_headers] = headers
                out.append(EventStreamMessage(headers, bytes(buffer[at + 12 + headers_length:end - 4])))
                at = end
        finally:
            buffer.release()
            if at:
                del self._buffer[:at]
        return out

    def close(self) -> tuple[list[EventStreamMessage], str]:
        rest = len(self._buffer)
        self._buffer = bytearray()
        return [], f"{rest} bytes of an unfinished event-stream message" if rest else ""


# ---- bytes -> events -------------------------------------------------------------------------


def json_or_none(text: str, depth: int | None = None, twice: set[str] | None = None) -> Any:
    """The parsed JSON, or None. No NaN/Infinity (not JSON); nothing deeper than json_depth (None too).
    ``depth``: that limit, read once by a caller that parses many events (reading it costs more than
    parsing a small event). An object naming a key twice is read as the SDKs' ``json.loads`` reads it (the last
    one), each such key added to ``twice`` for the caller to say so (``bounded.read_last``, the check a reply's
    body is read with: every key of an event, where the event's first alone was said until 2026-11-28)."""
    if not depth_ok(text, depth):
        return None
    found: dict[str, None] = {}
    try:
        data = read_last(text, found)
    except (ValueError, RecursionError):
        return None
    if found and twice is not None:
        for key in found:
            if len(twice) > TWICE_SAID:  # past them, one more stands for the rest
                break
            twice.add(key)
    return data


def not_json(what: str, text: str) -> Finding:
    """The finding for data that did not parse: ``stream.framing`` for text that is not JSON, ``stream.too_large``
    for JSON past what is read (``bounded.Unreadable``: an integer past Python's digit limit, nesting past
    json_depth), which is said with its limit, never called "not JSON" (the failure path only: the text is parsed
    again to tell)."""
    from .bounded import unreadable

    why = unreadable(text)
    if why is not None:
        return Finding("stream.too_large", f"{what} cannot be read: {why}")
    return Finding("stream.framing", f"{what} is not JSON: {text[:120]!r}")


# TWICE_SAID: a stream naming a new key twice in each of a million events was a million findings, and the set of
# those said compared whole after each read (200,000 events: 44 s, quadratic)
MORE_TWICE = Finding("stream.duplicate_key", f"more keys are named twice in events' objects (the first {TWICE_SAID} "
                     "are said); each read as the Python SDKs' json.loads reads it, the last of the two")


def duplicate_key(key: str) -> Finding:
    """An event's data naming ``key`` twice in one object: the server's JSON (RFC 8259 section 4: names SHOULD be
    unique), read as Python's json.loads reads it (the last), which other readers need not. A long key is cut."""
    return Finding("stream.duplicate_key", f"an event's data names the key {key_shown(key)} "
                   "twice in one object: read as the Python SDKs' json.loads reads it, the last of the two (RFC 8259: "
                   "names should be unique; other readers may keep the first, or refuse it)")


def inexact_done(text: str) -> Finding:
    """data that starts with [DONE] but is not exactly it (``[DONE] ``): openai 3.57.0 ``openai/_streaming.py``
    ends the stream there (``if sse.data.startswith("[DONE]"): break``), as do the other Stainless SDKs (groq,
    together, cerebras); mistralai 3.7.0 ``client/utils/eventstreaming.py`` compares the whole data (``data ==
    sentinel``) and would read it as JSON. Read as the end, as openai's SDK reads it, and said."""
    shown = cut(text, 40)
    prefix, exact = _sdks(lambda sdk: sdk.done == "prefix"), _sdks(lambda sdk: sdk.done == "exact")
    return Finding("stream.inexact_done", f"data {shown!r} is not exactly [DONE]: {_said(prefix, 'ends', 'end')} the "
                   f"stream at data that starts with [DONE], as read here; {_said(exact, 'compares', 'compare')} the "
                   "whole data and would not")


def _sdks(test: Callable[[Any], bool]) -> list[str]:
    """The names of the SDKs ``test`` holds for (``family_marks.SSE_SDKS``), in the rows' order."""
    from .family_marks import SSE_SDKS

    return list(dict.fromkeys(sdk.name for sdk in SSE_SDKS if test(sdk)))


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _said(names: list[str], one: str, many: str) -> str:
    """``names`` and their verb: "a ends", "a and b end", "a, b and c end"."""
    return f"{_listed(names)} {one if len(names) == 1 else many}"


@functools.lru_cache(maxsize=None)
def unterminated_end() -> Finding:
    """The stream ends right after data: [DONE], with no blank line: openai 3.57.0 openai/_streaming.py SSEDecoder
    hands the last line to decode(), which dispatches an event only at a blank line, so no [DONE] event comes out (the
    SSE spec: an event the stream ends inside is not dispatched); Stream.__stream__ then ends with the bytes, without
    an error, and the chat helper returns every chunk before it. Read the same way here: no event, nothing cut."""
    decoders = [f"{name}'s" for name in _sdks(lambda sdk: sdk.done == "prefix")]
    return Finding("stream.unterminated_event", f"data: [DONE] has no blank line after it: as the SSE spec says, "
                   f"{_said(decoders, 'decoder dispatches', 'decoders dispatch')} no event the stream ends inside, so "
                   "its SDK's clients never see the end marker; they read every event before it and do not fail. "
                   "Read so here: the marker's bytes arrived, nothing was cut after it")


class EventDecoder:
    """Bytes in any split -> ``Event``s for one framing; faults and leftovers become findings."""

    def __init__(self, framing: Framing, done_marker: DoneMarker = "prefix") -> None:
        from . import limits

        self.framing = framing
        self.done_marker = done_marker
        self.findings: list[Finding] = []
        self.broken = False
        self.done = False  # data: [DONE] seen: what follows is not assembled (the SDKs stop there)
        self.after_done = 0
        self.max_bytes = limits.get("stream_bytes")
        self.depth = limits.get("json_depth")
        self.seen = 0
        self.twice: set[str] = set()  # keys an event's object named twice, each said once
        self.told: set[str] = set()
        self.said = 0
        line = limits.get("stream_line_bytes")
        if framing == "sse":
            self._decoder: Any = SSEDecoder(line)
        elif framing == "ndjson":
            self._decoder = NDJSONDecoder(line)
        else:
            self._decoder = EventStreamDecoder()

    def feed(self, chunk: bytes, at: float | None = None) -> list[Event]:
        if self.broken:
            return []
        self.seen += len(chunk)
        if self.seen > self.max_bytes:
            from . import limits

            self.broken = True
            self.findings.append(Finding("stream.too_large", limits.refusal("the stream", "stream_bytes")
                                         + "; reading stopped"))
            return []
        try:
            return self._events(self._decoder.feed(chunk), at)
        except StreamFault as exc:
            self.broken = True
            code = "stream.too_large" if "limit stream_line_bytes" in str(exc) else "stream.framing"
            self.findings.append(Finding(code, str(exc)))
            return []

    def close(self, at: float | None = None) -> list[Event]:
        if self.broken:
            return []
        items, pending = self._decoder.close()
        events = self._events(items, at)
        last = getattr(self._decoder, "unterminated", None)
        if last is not None and (last[1].startswith("[DONE]") or json_or_none(last[1]) is not None):
            if self._ends(last[1]) and not self.done:  # not dispatched, as openai's decoder does; no cut
                self.done = True
                self.findings.append(unterminated_end())
            else:
                if not self.done:
                    readers = _sdks(lambda sdk: sdk.reads_last_event)
                    droppers = _sdks(lambda sdk: not sdk.reads_last_event)
                    self.findings.append(Finding("stream.unterminated_event", "the last event has no blank line "
                                                 f"after it; it is read, as {_said(readers, 'reads', 'read')} it (the "
                                                 f"SSE spec and {_listed(droppers)} drop it)"))
                events += self._events([last], at)
            pending = ""
        if pending.strip() and not self.done:
            shown = cut(pending, 120)
            self.findings.append(Finding("stream.incomplete_event", f"the stream ended inside an event: {shown!r}"))
        if self.after_done:
            self.findings.append(Finding("stream.after_done", f"{self.after_done} events after data: [DONE] were not "
                                         "assembled (the SDKs stop reading there)"))
        return events

    def _ends(self, text: str) -> bool:
        """Whether the data ends the stream, as the family's SDK reads it (``DoneMarker``)."""
        if self.done_marker == "prefix":
            return text.startswith("[DONE]")
        return self.done_marker == "exact" and text == "[DONE]"

    def _events(self, items: list[Any], at: float | None) -> list[Event]:
        out = []
        if self.framing == "sse":
            for name, text in items:
                if self.done:
                    self.after_done += 1
                    continue
                if text.startswith("[DONE]"):
                    if not self._ends(text):  # not this family's end: its assembler reads it as its SDK does
                        out.append(Event(name, None, text, at))
                        continue
                    self.done = True
                    if text != "[DONE]":
                        self.findings.append(inexact_done(text))
                    out.append(Event(name, None, "[DONE]", at))
                    continue
                data = json_or_none(text, self.depth, self.twice)
                if data is None and text.lstrip()[:1] in ("{", "["):
                    self.findings.append(not_json("an event's data", text))
                out.append(Event(name, data, text, at))
        elif self.framing == "ndjson":
            for text in items:
                data = json_or_none(text, self.depth, self.twice)
                if data is None and text != "null":
                    self.findings.append(not_json("an NDJSON line", text))
                out.append(Event(None, data, text, at))
        else:
            for message in items:
                out.append(_aws_event(message, at))
        if len(self.twice) > self.said:  # a key an event's object named twice: said once, where first met
            for key in sorted(self.twice - self.told):
                self.findings.append(duplicate_key(key) if len(self.told) < TWICE_SAID else MORE_TWICE)
                self.told.add(key)
            self.said = len(self.twice)
        return out


def _aws_event(message: EventStreamMessage, at: float | None) -> Event:
    headers = message.headers
    text = message.payload.decode("utf-8", errors="replace")
    kind = headers.get(":message-type", "event")
    if kind == "event":
        name = headers.get(":event-type")
    elif kind == "exception":
        name = f":exception:{headers.get(':exception-type', 'unknown')}"
    else:  # error
        name = f":error:{headers.get(':error-code', 'unknown')}"
        if not text:
            text = json.dumps({"message": headers.get(":error-message", "")})
    return Event(name if isinstance(name, str) else None, json_or_none(text) if text else {}, text, at)


SAVE_SUFFIX: dict[str, str] = {"sse": ".sse", "ndjson": ".ndjson", "eventstream": ".eventstream"}


def save_suffix(provider: str) -> str:
    """The file suffix for a provider's saved raw stream (``StreamResult.raw``), e.g. ``.sse``."""
    from .registry import module_for

    return SAVE_SUFFIX[module_for(provider).STREAM_FRAMING]


def decode_bytes(framing: Framing, data: bytes) -> tuple[list[Event], list[Finding]]:
    """A whole saved stream -> its events and framing findings (offline)."""
    decoder = EventDecoder(framing)
    events = decoder.feed(data)
    events += decoder.close()
    return events, decoder.findings


_SSE_FIELD = re.compile(rb"^(?:data|event|id|retry)?:", re.MULTILINE)


def _chunk_lines(data: bytes) -> list[str]:
    """A chunk file's lines, split at LF only (as vercel/ai's tests read them: ``.split('\\n')``): never
    at U+2028, U+0085 or the other breaks ``str.splitlines`` knows, which JSON strings may hold raw."""
    return [line.removesuffix("\r") for line in data.decode("utf-8", errors="replace").split("\n")]


def saved_events(framing: Framing, data: bytes) -> tuple[list[Event], list[Finding]]:
    """A saved stream -> events. Besides the raw framing (what ``send --stream --save`` keeps, or a
    ``curl -N`` capture) this reads the one-payload-a-line chunk files SDK test suites record
    (vercel/ai ``__fixtures__/*.chunks.txt``): SSE payloads without ``data:`` lines, and Bedrock
    events written as ``{"<event type>": {...}}`` lines."""
    start = data.lstrip()[:1]
    if framing == "sse" and start in (b"{", b"[") and not _SSE_FIELD.search(data):
        lines = [line for line in _chunk_lines(data) if line.strip()]
        events, findings = [], []
        for line in lines:
            value = json_or_none(line)
            if value is None:
                findings.append(not_json("a chunk line", line))
            name = value.get("type") if isinstance(value, dict) and isinstance(value.get("type"), str) else "message"
            events.append(Event(name, value, line))
        return events, findings
    if framing == "eventstream" and start == b"{":
        events, findings = [], []
        for line in _chunk_lines(data):
            value = json_or_none(line) if line.strip() else None
            if isinstance(value, dict) and len(value) == 1:
                ((name, payload),) = value.items()
                events.append(Event(name, payload, json.dumps(payload)))
            elif line.strip():
                findings.append(Finding("stream.framing", f"not an event line: {line[:120]!r}"))
        return events, findings
    return decode_bytes(framing, data)


def iter_chunks(data: bytes, size: int) -> Iterator[bytes]:
    """``data`` in pieces of ``size`` bytes (tests and the benchmark split streams with it)."""
    for i in range(0, len(data), size):
        yield data[i:i + size]
