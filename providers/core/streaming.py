"""Streamed replies: the stream record, assembly through the provider's assembler, and the
deadline-bounded async reader.

``stream_framing`` decodes the bytes into ``Event``s; a provider module's ``stream_assembler`` folds
events into the same ``Reply`` its ``parse_reply`` makes from a non-streamed body. ``stream_reply``
sends a prepared request and does all of it live; ``assemble_bytes`` does it offline (``parse --stream``).

Imported only by streaming code paths: `render` never loads it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Callable, Iterable, NamedTuple, Protocol

from .model import ProviderError, Reply
from .stream_assembly import Assembly, Finding, missing_final
from .stream_framing import (DoneMarker, Event, EventDecoder, Framing, iter_chunks, unterminated_end,
                             json_or_none, saved_events)

DEFAULT_IDLE = 30.0  # seconds without a byte before a stream counts as stalled


# Findings that do not make an exchange fail: the reply was read whole another way.
BENIGN_FINDINGS = frozenset({"stream.not_streamed", "stream.unterminated_event", "stream.inexact_done",
                             "stream.done_skipped", "stream.duplicate_key"})


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


# ---- the whole exchange ----------------------------------------------------------------------


class GuardedAssembler:
    """A provider's assembler, fed through one guard: an event whose fields have types the assembler does
    not expect (an object as an id or index, a boolean as tool_calls, nesting past json_depth) becomes
    a stream.malformed_event finding instead of a crash, and the rest of the stream is still read."""

    _FAULTS = (TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError)

    def __init__(self, inner: Assembler) -> None:
        self.inner = inner
        self.findings: list[Finding] = []

    def feed(self, event: Event) -> bool:
        try:
            return bool(self.inner.feed(event))
        except self._FAULTS as exc:
            if len(self.findings) < 20:
                self.findings.append(Finding("stream.malformed_event", f"event {event.name or ''}: cannot be read: "
                                             f"{type(exc).__name__}: {str(exc)[:160]}".replace("event : ", "an event: ")))
            return False

    def finish(self) -> Assembly:
        try:
            assembly = self.inner.finish()
        except self._FAULTS as exc:
            return Assembly(Reply(error=ProviderError(None, "stream.malformed_event", f"the stream's events cannot "
                                                      f"be assembled: {type(exc).__name__}: {str(exc)[:160]}")),
                            findings=(*self.findings, Finding("stream.malformed_event", f"assembling failed: "
                                                              f"{type(exc).__name__}: {str(exc)[:160]}")))
        if self.findings:
            assembly = assembly._replace(findings=(*self.findings, *assembly.findings))
        return assembly


def assembler_for(provider: str) -> tuple[Framing, Assembler]:
    from .registry import module_for

    module = module_for(provider)
    return module.STREAM_FRAMING, GuardedAssembler(module.stream_assembler(provider))


def decoder_for(framing: Framing, assembler: Any) -> EventDecoder:
    """The framing's decoder, ending the stream at ``data: [DONE]`` as the family's official SDK does: the rule its
    assembler declares (``done_marker``; the provider module's, reached through the registry)."""
    return EventDecoder(framing, done_marker(assembler))


def done_marker(assembler: Any) -> DoneMarker:
    return getattr(assembler, "inner", assembler).done_marker


def settled(findings: Iterable[Finding]) -> list[Finding]:
    """The decoder's and the assembler's findings together: a data: [DONE] that arrived without its blank line
    (``unterminated_end``, not an event, as the SDK that ends at its prefix reads it) leaves the chat assembler without its end
    marker, yet nothing was cut: that stream.no_final_event is dropped. A stream whose end is another event
    (Anthropic's message_stop, Responses' response.completed) is still missing it: that finding stays."""
    found = list(findings)
    if unterminated_end() in found:
        marker = missing_final("data: [DONE]")  # the chat assembler's (openai_chat_stream.py final_event)
        return [f for f in found if f != marker]
    return found


def failed(findings: Iterable[Finding], reply: Reply, status: int | None = None,
           benign: frozenset[str] = BENIGN_FINDINGS) -> Reply:
    """The reply, with an error when the exchange failed: a non-2xx status, or any finding but the benign
    ones (a cut, a stall, bad framing, a malformed event, no event at all). A failed stream is never judged
    as if the model had answered: its verdict is an error, never "obeyed"."""
    if reply.error is not None:
        return reply
    if status is not None and not 200 <= status < 300:
        return reply._replace(error=ProviderError(status, "stream.http_error", f"HTTP {status}: the error body "
                                                  "could not be read"))
    bad = [f for f in findings if f.code not in benign]
    if not bad:
        return reply
    return reply._replace(error=ProviderError(status, bad[0].code, f"the stream failed: {bad[0].message}"))


def assemble_events(provider: str, events: Iterable[Event]) -> Assembly:
    _, assembler = assembler_for(provider)
    for event in events:
        assembler.feed(event)
    return assembler.finish()


def assemble_bytes(provider: str, data: bytes, *, keep_events: bool = False) -> StreamResult:
    """A saved stream (``send --stream --save``, a curl -N capture, an SDK's chunk file; see
    ``saved_events``) -> StreamResult, offline. Raw framings are decoded 64 KiB at a time and each
    event is dropped once assembled (unless ``keep_events``), so a long stream does not pile up
    parsed payloads."""
    framing, assembler = assembler_for(provider)
    start = data.lstrip()[:1]
    log: list[Event] = []
    benign = BENIGN_FINDINGS
    if (framing == "sse" and start in (b"{", b"[")) or (framing == "eventstream" and start == b"{"):
        benign = BENIGN_FINDINGS | {"stream.no_final_event"}  # SDK chunk files do not record the end marker
        events, findings = saved_events(framing, data)
        count = len(events)
        for event in events:
            assembler.feed(event)
        log = events if keep_events else []
    else:
        decoder = decoder_for(framing, assembler)
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
    found = tuple(settled([*findings, *assembly.findings]))
    if count == 0 and not found:
        found += (Finding("stream.empty", "the stream holds no event"),)
    return StreamResult(provider, None, failed(found, assembly.reply, benign=benign), count, assembly.deltas, Timings(),
                        found, data, tuple(log), assembly.extras)


async def read_stream(chunks: AsyncIterator[bytes], framing: Framing, *, started: float,
                      deadline: float, idle: float = DEFAULT_IDLE,
                      clock: Callable[[], float] = time.monotonic,
                      on_bytes: Callable[[bytes], bytes] | None = None,
                      done: DoneMarker = "prefix") -> AsyncIterator[Event | Finding | bytes]:
    """Bytes from ``chunks`` -> events, each stamped with seconds since ``started`` (a ``clock`` time).

    Yields the (possibly redacted, via ``on_bytes``) raw chunks, the events, and findings as they
    happen. Stops at the end of the stream, at ``deadline`` (a ``clock`` time: finding
    stream.deadline), or after ``idle`` seconds without a byte (stream.stalled). Never raises for a
    network fault: it becomes stream.transport. ``done``: how the family's SDK ends a stream at data: [DONE]
    (``decoder_for``)."""
    decoder = EventDecoder(framing, done)
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
        if decoder.broken or decoder.done:  # data: [DONE] ends the stream, as the SDKs read it: stop reading
            break
    for event in decoder.close(clock() - started):
        yield event
    for finding in decoder.findings:
        yield finding


async def stream_reply(client: Any, prepared: Any, provider: str, deadline: float, *,
                       idle: float = DEFAULT_IDLE, keep_events: bool = True,
                       on_event: Callable[[Event, Assembler], None] | None = None,
                       clock: Callable[[], float] = time.monotonic,
                       on_cut: Callable[[StreamResult], None] | None = None) -> StreamResult:
    """Send a prepared streaming request (``transport.prepare`` of a ``--stream`` translation) on an
    ``httpx.AsyncClient`` and assemble the reply as it arrives.

    ``deadline``: seconds the whole exchange may take (connect, headers and every event); ``idle``:
    seconds without a byte before the stream counts as stalled. A non-2xx answer is read whole into
    ``reply.error`` (as the non-streamed path does); a 2xx plain JSON body (a server that ignored
    ``stream``) is parsed with ``parse_reply`` and reported as stream.not_streamed. Network faults
    become findings (and ``reply.error`` when nothing arrived); this never raises for them. One
    attempt: retrying before the first event is the caller's choice. ``on_event`` is called for each
    event after the assembler took it (live display). ``on_cut``: on Ctrl-C (the task cancelled, as asyncio.run
    does), handed what had arrived, with the finding stream.interrupted, before the cancellation goes on."""
    from .redaction import Redactor
    from .reply import read_reply
    from .transport import redact

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
    cut: BaseException | None = None

    try:
        async with _open(client, prepared, end - clock()) as response:
            status = response.status_code
            headers_at = clock() - started
            headers = {k.lower(): redact(v, secrets) for k, v in response.headers.items()}
            kind = headers.get("content-type", "")
            if not 200 <= status < 300 or "application/json" in kind:
                body = await asyncio.wait_for(_read_capped(response), max(0.001, end - clock()))
                text = body.decode("utf-8", errors="replace")
                raw.append(body)
                parsed = json_or_none(text)
                reply = read_reply(provider, status, parsed, text, headers=headers)
                if reply.error is not None and status == 404:  # /v1/v1/messages: said as the whole answer's is
                    from .reply import repeated_path

                    reply = reply._replace(error=repeated_path(reply.error, str(prepared.url)))
                if 200 <= status < 300:
                    findings.append(Finding("stream.not_streamed", f"the server answered {kind or 'without a type'} "
                                            "instead of a stream: read as one body"))
            else:
                async for item in read_stream(response.aiter_bytes(), framing, started=started, deadline=end,
                                              idle=idle, clock=clock, done=done_marker(assembler)):
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
    except asyncio.CancelledError as exc:  # Ctrl-C: what arrived goes to on_cut, then the cancellation goes on
        if on_cut is None:
            raise
        cut = exc
        findings.append(Finding("stream.interrupted", f"Ctrl-C after {count} event{'s' if count != 1 else ''}: "
                                "reading stopped; what arrived is kept"))
    except Exception as exc:  # noqa: BLE001 - httpx errors, a refused connection: a finding and an error
        message = redact(f"{type(exc).__name__}: {exc}".strip(), secrets)
        findings.append(Finding("stream.transport", message))
        if status is None:
            reply = Reply(error=ProviderError(None, None, message))
    total = clock() - started
    if reply is None:
        if status is not None and 200 <= status < 300 and count == 0 and not findings:  # no stall, cut or limit
            findings.append(Finding("stream.empty", "the server answered 2xx but sent no event"))
        assembly = assembler.finish()
        reply = assembly.reply
        deltas, extras = assembly.deltas, assembly.extras
        findings = settled([*findings, *assembly.findings])
    else:
        deltas, extras = (), {}
    reply = failed(findings, reply, status)
    # One redaction pass over everything that leaves: the stream's bytes whole (a key split across chunks is
    # still found), then the parsed records (decoded from the real bytes, as the non-streamed path reads them)
    from .stream_redaction import redact_stream

    redactor = Redactor(secrets)
    received = b"".join(raw)
    raw.clear()  # the chunks, once joined: a 32 MiB stream is not held twice through the rest
    saved = redact_stream(received, framing, redactor)
    if redactor:
        shown = redactor.data(reply)
        if shown != reply and saved and _assembles_a_key(provider, saved, redactor):
            # the server echoed a key in pieces, each too short to be one (a few characters a delta): the bytes
            # hold none whole, the reply put together from them does; only the redacted reply is kept
            saved = b""
            findings.append(Finding("stream.raw_withheld", "the stream's events held a key in pieces (echoed back a "
                                    "few characters a delta): the raw stream is not kept, the reply put together "
                                    "from it is (redacted)"))
        reply, findings, extras = shown, redactor.data(findings), redactor.data(extras)
        if saved != received:  # the events hold a key only when their bytes did (walking them all costs ~40x more)
            log = redactor.data(log)

    def ms(value: float | None) -> float | None:
        return None if value is None else value * 1000.0

    timings = Timings(ms(headers_at), ms(first_byte), ms(first_tool), ms(last_event),
                      ms(longest_gap) if previous is not None else None, ms(total))
    result = StreamResult(provider, status, reply, count, deltas, timings, tuple(findings), saved, tuple(log),
                          extras, headers)
    if cut is not None and on_cut is not None:
        on_cut(result)
        raise cut
    return result


def _assembles_a_key(provider: str, saved: bytes, redactor: Any) -> bool:
    """Whether the redacted bytes, put together again as ``parse --stream`` would, still make a key."""
    try:
        again = assemble_bytes(provider, saved).reply
    except Exception:  # noqa: BLE001 - whatever they hold, they are not kept when they cannot be checked
        return True
    return again is not None and redactor.data(again) != again


async def _read_capped(response: Any) -> bytes:
    """A plain (error or non-streamed) body, at most reply_bytes after decompression."""
    from . import limits

    cap = limits.get("reply_bytes")
    parts: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > cap:
            raise ValueError(limits.refusal("the reply body", "reply_bytes"))
        parts.append(chunk)
    return b"".join(parts)


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
