"""Streamed replies: framing decoders, a deadline-bounded async reader, and the stream record.

Three framings carry every provider's stream:

- ``sse``: server-sent events, decoded by the WHATWG HTML "event stream interpretation" rules
  (html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation): lines end in
  CRLF, LF or CR; a leading BOM is dropped; ``:`` starts a comment; ``field: value`` loses one space
  after the colon; ``data`` lines join with LF; a blank line dispatches; an event with no data is not
  dispatched; an unterminated event at the end of the stream is not dispatched either (here it is
  reported as a finding, never silently dropped).
- ``ndjson``: one JSON value per line (Ollama).
- ``eventstream``: AWS event-stream binary messages (Bedrock ConverseStream): a 12-byte prelude
  (total length, headers length, CRC32 of those 8 bytes), typed headers, the payload, and a CRC32 of the
  whole message before it (the layout botocore's ``botocore/eventstream.py`` reads).

Each decoded event becomes an ``Event``; a provider module's ``stream_assembler`` folds events into
the same ``Reply`` its ``parse_reply`` makes from a non-streamed body. ``stream_reply`` sends a
prepared request and does all of it live; ``assemble_bytes`` does it offline (``parse --stream``).

Imported only by streaming code paths: `render` never loads it.
"""

from __future__ import annotations

import asyncio
import codecs
import json
import re
import struct
import time
import zlib
from typing import Any, AsyncIterator, Callable, Iterable, Iterator, Literal, NamedTuple, Protocol

from .model import ProviderError, Reply
from .stream_assembly import Assembly, Finding

Framing = Literal["sse", "ndjson", "eventstream"]

DEFAULT_IDLE = 30.0  # seconds without a byte before a stream counts as stalled


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


class Timings(NamedTuple):
    """Milliseconds from sending the request; None when it did not happen."""

    headers_ms: float | None = None
    first_byte_ms: float | None = None
    first_tool_delta_ms: float | None = None
    last_event_ms: float | None = None
    longest_gap_ms: float | None = None  # between two arrivals of bytes
    total_ms: float | None = None

    def to_json(self) -> dict[str, float | None]:
        return {k: None if v is None else round(v, 1) for k, v in self._asdict().items()}


class Assembler(Protocol):
    """Per provider (``providers/<family>.py``'s ``stream_assembler``): fed events in order."""

    def feed(self, event: Event) -> bool:
        """Take one event; True when it carried a tool call's start or argument delta."""

    def finish(self) -> Assembly:
        """The reply so far (called once, also after an early end)."""


class StreamResult(NamedTuple):
    """A streamed exchange, judged like a non-streamed one through ``reply``."""

    provider: str
    status: int | None
    reply: Reply
    events: int
    deltas: tuple[int, ...]
    timings: Timings
    findings: tuple[Finding, ...]
    raw: bytes  # every byte that arrived, redacted, as it came (what --save keeps)
    event_log: tuple[Event, ...] = ()
    extras: dict[str, Any] = {}
    headers: dict[str, str] = {}

    def to_json(self, *, with_events: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "status": self.status,
            "events": self.events,
            "argument_deltas": list(self.deltas),
            "timings": self.timings.to_json(),
            "findings": [f.to_json() for f in self.findings],
        }
        if self.extras:
            data["extras"] = self.extras
        if with_events:
            data["raw_events"] = [e.to_json() for e in self.event_log]
        return data


class StreamFault(Exception):
    """Bytes that cannot be decoded in the stream's framing; reading stops there."""


# ---- framing decoders ----------------------------------------------------------------------

_LINE_END = re.compile(r"\r\n|\r|\n")


class SSEDecoder:
    """WHATWG event-stream interpretation, fed bytes in any split; ``feed`` returns the dispatched
    events as ``(event type, data)`` pairs. ``id`` and ``retry`` are kept but not used."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._buffer = ""
        self._first = True
        self._data: list[str] = []
        self._event = ""
        self.last_event_id = ""
        self.retry: int | None = None

    def feed(self, chunk: bytes) -> list[tuple[str, str]]:
        text = self._decoder.decode(chunk)
        if self._first and text:
            self._first = False
            text = text.removeprefix("\ufeff")
        self._buffer += text
        return self._lines(final=False)

    def close(self) -> tuple[list[tuple[str, str]], str]:
        """End of stream: events from the last lines, and any text that never completed an event."""
        self._buffer += self._decoder.decode(b"", final=True)
        events = self._lines(final=True)
        pending = "\n".join(self._data)
        if self._buffer:
            pending = (pending + "\n" if pending else "") + self._buffer
        return events, pending

    def _lines(self, final: bool) -> list[tuple[str, str]]:
        buffer = self._buffer
        events: list[tuple[str, str]] = []
        start = 0
        for match in _LINE_END.finditer(buffer):
            if match.group() == "\r" and match.end() == len(buffer) and not final:
                break  # a CR at the end may be the first half of CRLF
            self._line(buffer[start:match.start()], events)
            start = match.end()
        self._buffer = buffer[start:]
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

    def __init__(self) -> None:
        self._buffer = b""

    def feed(self, chunk: bytes) -> list[str]:
        self._buffer += chunk
        *lines, self._buffer = self._buffer.split(b"\n")
        return [text for text in (line.decode("utf-8", errors="replace").strip() for line in lines) if text]

    def close(self) -> tuple[list[str], str]:
        rest = self._buffer.decode("utf-8", errors="replace").strip()
        self._buffer = b""
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


def _json_or_none(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


class EventDecoder:
    """Bytes in any split -> ``Event``s for one framing; faults and leftovers become findings."""

    def __init__(self, framing: Framing) -> None:
        self.framing = framing
        self.findings: list[Finding] = []
        self.broken = False
        if framing == "sse":
            self._decoder: Any = SSEDecoder()
        elif framing == "ndjson":
            self._decoder = NDJSONDecoder()
        else:
            self._decoder = EventStreamDecoder()

    def feed(self, chunk: bytes, at: float | None = None) -> list[Event]:
        if self.broken:
            return []
        try:
            return self._events(self._decoder.feed(chunk), at)
        except StreamFault as exc:
            self.broken = True
            self.findings.append(Finding("stream.framing", str(exc)))
            return []

    def close(self, at: float | None = None) -> list[Event]:
        if self.broken:
            return []
        items, pending = self._decoder.close()
        events = self._events(items, at)
        if pending.strip():
            shown = pending if len(pending) <= 120 else pending[:119] + "…"
            self.findings.append(Finding("stream.incomplete_event", f"the stream ended inside an event: {shown!r}"))
        return events

    def _events(self, items: list[Any], at: float | None) -> list[Event]:
        out = []
        if self.framing == "sse":
            for name, text in items:
                out.append(Event(name, None if text == "[DONE]" else _json_or_none(text), text, at))
        elif self.framing == "ndjson":
            for text in items:
                data = _json_or_none(text)
                if data is None and text != "null":
                    self.findings.append(Finding("stream.framing", f"an NDJSON line is not JSON: {text[:120]!r}"))
                out.append(Event(None, data, text, at))
        else:
            for message in items:
                out.append(_aws_event(message, at))
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
    return Event(name if isinstance(name, str) else None, _json_or_none(text) if text else {}, text, at)


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


# ---- the whole exchange ----------------------------------------------------------------------


def assembler_for(provider: str) -> tuple[Framing, Assembler]:
    from .registry import module_for

    module = module_for(provider)
    return module.STREAM_FRAMING, module.stream_assembler(provider)


def assemble_events(provider: str, events: Iterable[Event]) -> Assembly:
    _, assembler = assembler_for(provider)
    for event in events:
        assembler.feed(event)
    return assembler.finish()


_SSE_FIELD = re.compile(rb"^(?:data|event|id|retry)?:", re.MULTILINE)


def saved_events(framing: Framing, data: bytes) -> tuple[list[Event], list[Finding]]:
    """A saved stream -> events. Besides the raw framing (what ``send --stream --save`` keeps, or a
    ``curl -N`` capture) this reads the one-payload-a-line chunk files SDK test suites record
    (vercel/ai ``__fixtures__/*.chunks.txt``): SSE payloads without ``data:`` lines, and Bedrock
    events written as ``{"<event type>": {...}}`` lines."""
    start = data.lstrip()[:1]
    if framing == "sse" and start in (b"{", b"[") and not _SSE_FIELD.search(data):
        lines = [line for line in data.decode("utf-8", errors="replace").splitlines() if line.strip()]
        events, findings = [], []
        for line in lines:
            value = _json_or_none(line)
            if value is None:
                findings.append(Finding("stream.framing", f"a chunk line is not JSON: {line[:120]!r}"))
            name = value.get("type") if isinstance(value, dict) and isinstance(value.get("type"), str) else "message"
            events.append(Event(name, value, line))
        return events, findings
    if framing == "eventstream" and start == b"{":
        events, findings = [], []
        for line in data.decode("utf-8", errors="replace").splitlines():
            value = _json_or_none(line) if line.strip() else None
            if isinstance(value, dict) and len(value) == 1:
                ((name, payload),) = value.items()
                events.append(Event(name, payload, json.dumps(payload)))
            elif line.strip():
                findings.append(Finding("stream.framing", f"not an event line: {line[:120]!r}"))
        return events, findings
    return decode_bytes(framing, data)


def assemble_bytes(provider: str, data: bytes, *, keep_events: bool = False) -> StreamResult:
    """A saved stream (``send --stream --save``, a curl -N capture, an SDK's chunk file; see
    ``saved_events``) -> StreamResult, offline. Raw framings are decoded 64 KiB at a time and each
    event is dropped once assembled (unless ``keep_events``), so a long stream does not pile up
    parsed payloads."""
    framing, assembler = assembler_for(provider)
    start = data.lstrip()[:1]
    log: list[Event] = []
    if (framing == "sse" and start in (b"{", b"[")) or (framing == "eventstream" and start == b"{"):
        events, findings = saved_events(framing, data)
        count = len(events)
        for event in events:
            assembler.feed(event)
        log = events if keep_events else []
    else:
        decoder = EventDecoder(framing)
        count = 0
        for chunk in iter_chunks(data, 65536):
            for event in decoder.feed(chunk):
                count += 1
                assembler.feed(event)
                if keep_events:
                    log.append(event)
        for event in decoder.close():
            count += 1
            assembler.feed(event)
            if keep_events:
                log.append(event)
        findings = decoder.findings
    assembly = assembler.finish()
    return StreamResult(provider, None, assembly.reply, count, assembly.deltas, Timings(),
                        tuple(findings) + assembly.findings, data, tuple(log), assembly.extras)


async def read_stream(chunks: AsyncIterator[bytes], framing: Framing, *, started: float,
                      deadline: float, idle: float = DEFAULT_IDLE,
                      clock: Callable[[], float] = time.monotonic,
                      on_bytes: Callable[[bytes], bytes] | None = None) -> AsyncIterator[Event | Finding | bytes]:
    """Bytes from ``chunks`` -> events, each stamped with seconds since ``started`` (a ``clock`` time).

    Yields the (possibly redacted, via ``on_bytes``) raw chunks, the events, and findings as they
    happen. Stops at the end of the stream, at ``deadline`` (a ``clock`` time: finding
    stream.deadline), or after ``idle`` seconds without a byte (stream.stalled). Never raises for a
    network fault: it becomes stream.transport."""
    decoder = EventDecoder(framing)
    iterator = chunks.__aiter__()
    last_arrival = None
    while True:
        now = clock()
        remaining = deadline - now
        if remaining <= 0:
            yield Finding("stream.deadline", f"the stream passed its deadline after {(now - started):.2f} s: "
                          "reading stopped; what arrived is kept")
            break
        wait = min(remaining, idle)
        try:
            chunk = await asyncio.wait_for(iterator.__anext__(), wait)
        except StopAsyncIteration:
            break
        except asyncio.TimeoutError:
            now = clock()
            if now >= deadline:
                yield Finding("stream.deadline", f"the stream passed its deadline after {(now - started):.2f} s: "
                              "reading stopped; what arrived is kept")
            else:
                since = now - (last_arrival if last_arrival is not None else started)
                yield Finding("stream.stalled", f"no byte for {since:.2f} s (idle limit {idle:g} s): reading "
                              "stopped; what arrived is kept")
            break
        except Exception as exc:  # noqa: BLE001 - a broken connection is a finding, not a traceback
            if type(exc).__name__ == "ReadTimeout":  # the client's own read timeout: no byte for that long
                yield Finding("stream.stalled", f"no byte within the client's read timeout ({exc or 'ReadTimeout'}): "
                              "reading stopped; what arrived is kept")
            else:
                yield Finding("stream.transport", f"{type(exc).__name__}: {exc}".strip())
            break
        arrival = clock()
        last_arrival = arrival
        if on_bytes is not None:
            chunk = on_bytes(chunk)
        yield chunk
        for event in decoder.feed(chunk, arrival - started):
            yield event
        for finding in decoder.findings:
            yield finding
        decoder.findings.clear()
        if decoder.broken:
            break
    for event in decoder.close(clock() - started):
        yield event
    for finding in decoder.findings:
        yield finding


async def stream_reply(client: Any, prepared: Any, provider: str, deadline: float, *,
                       idle: float = DEFAULT_IDLE, keep_events: bool = True,
                       on_event: Callable[[Event, Assembler], None] | None = None,
                       clock: Callable[[], float] = time.monotonic) -> StreamResult:
    """Send a prepared streaming request (``transport.prepare`` of a ``--stream`` translation) on an
    ``httpx.AsyncClient`` and assemble the reply as it arrives.

    ``deadline``: seconds the whole exchange may take (connect, headers and every event); ``idle``:
    seconds without a byte before the stream counts as stalled. A non-2xx answer is read whole into
    ``reply.error`` (as the non-streamed path does); a 2xx plain JSON body (a server that ignored
    ``stream``) is parsed with ``parse_reply`` and reported as stream.not_streamed. Network faults
    become findings (and ``reply.error`` when nothing arrived); this never raises for them. One
    attempt: retrying before the first event is the caller's choice. ``on_event`` is called for each
    event after the assembler took it (live display)."""
    from .reply import read_reply
    from .transport import redact, redact_data

    secrets = prepared.secrets
    framing, assembler = assembler_for(provider)
    started = clock()
    end = started + deadline
    findings: list[Finding] = []
    raw: list[bytes] = []
    log: list[Event] = []
    count = 0
    first_byte = first_tool = last_event = headers_at = None
    longest_gap = 0.0
    previous = None
    status: int | None = None
    headers: dict[str, str] = {}
    reply: Reply | None = None

    def scrub(chunk: bytes) -> bytes:
        if not secrets or framing == "eventstream":
            return chunk
        text = redact(chunk.decode("utf-8", errors="surrogateescape"), secrets)
        return text.encode("utf-8", errors="surrogateescape")

    try:
        async with _open(client, prepared, end - clock()) as response:
            status = response.status_code
            headers_at = clock() - started
            headers = {k.lower(): redact(v, secrets) for k, v in response.headers.items()}
            kind = headers.get("content-type", "")
            if not 200 <= status < 300 or "application/json" in kind:
                body = await asyncio.wait_for(response.aread(), max(0.001, end - clock()))
                text = redact(body.decode("utf-8", errors="replace"), secrets)
                raw.append(text.encode())
                parsed = _json_or_none(text)
                reply = read_reply(provider, status, redact_data(parsed, secrets) if parsed is not None else None, text,
                                   headers=headers)
                if 200 <= status < 300:
                    findings.append(Finding("stream.not_streamed", f"the server answered {kind or 'without a type'} "
                                            "instead of a stream: read as one body"))
            else:
                async for item in read_stream(response.aiter_bytes(), framing, started=started, deadline=end,
                                              idle=idle, clock=clock, on_bytes=scrub):
                    if isinstance(item, bytes):
                        now = clock() - started
                        if first_byte is None:
                            first_byte = now
                        if previous is not None:
                            longest_gap = max(longest_gap, now - previous)
                        previous = now
                        raw.append(item)
                    elif isinstance(item, Finding):
                        findings.append(item)
                    else:
                        count += 1
                        last_event = item.at
                        if assembler.feed(item) and first_tool is None:
                            first_tool = item.at
                        if keep_events:
                            log.append(item)
                        if on_event is not None:
                            on_event(item, assembler)
    except asyncio.TimeoutError:
        findings.append(Finding("stream.deadline", f"no answer within the {deadline:g} s deadline"))
    except Exception as exc:  # noqa: BLE001 - httpx errors, a refused connection: a finding and an error
        message = redact(f"{type(exc).__name__}: {exc}".strip(), secrets)
        findings.append(Finding("stream.transport", message))
        if status is None:
            reply = Reply(error=ProviderError(None, None, message))
    total = clock() - started
    if reply is None:
        assembly = assembler.finish()
        reply = assembly.reply
        deltas, extras = assembly.deltas, assembly.extras
        findings.extend(assembly.findings)
    else:
        deltas, extras = (), {}

    def ms(value: float | None) -> float | None:
        return None if value is None else value * 1000.0

    timings = Timings(ms(headers_at), ms(first_byte), ms(first_tool), ms(last_event),
                      ms(longest_gap) if previous is not None else None, ms(total))
    return StreamResult(provider, status, reply, count, deltas, timings, tuple(findings), b"".join(raw), tuple(log),
                        extras, headers)


class _open:
    """``client.stream(...)`` entered within a time limit (connect + headers)."""

    def __init__(self, client: Any, prepared: Any, limit: float) -> None:
        self.context = client.stream(prepared.method, prepared.url, headers=prepared.headers,
                                     content=prepared.content)
        self.limit = max(0.001, limit)

    async def __aenter__(self) -> Any:
        return await asyncio.wait_for(self.context.__aenter__(), self.limit)

    async def __aexit__(self, *exc: Any) -> None:
        await self.context.__aexit__(*exc)


def iter_chunks(data: bytes, size: int) -> Iterator[bytes]:
    """``data`` in pieces of ``size`` bytes (tests and the benchmark split streams with it)."""
    for i in range(0, len(data), size):
        yield data[i:i + size]
