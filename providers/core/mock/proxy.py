"""``toolchoice proxy``: the mock's judging in front of the real provider.

Each request is judged as the mock judges it (the refusals the mock would answer become findings,
the request goes on all the same: the real API decides), forwarded with the client's headers (the
key passes through and is never printed or saved), and the answer is written back as it arrives:
a stream chunk by chunk, never buffered, its status line, headers and bytes as they came. The reply is
then read as ``send`` reads it (the family's parser or stream assembler) and judged against the
requested tool_choice (obeyed / disobeyed / phantom); the line names the results the request sends
back and the answer that made each call, and says a result of a call no answer made or a call whose
result the history dropped, as the mock does (``call_origins``), unless the API refused that request
(400, 422); the reasoning state an answer hands out (its reply's reasoning items and call signatures, a stream's
as its assembler fills them, as a whole answer's) is followed to the requests that send it back
(``reasoning_from``), and the prefix check's breakages (other tools, system prompt or earlier messages) are said.
The client is watched while its answer is on its way: one that leaves ends the upstream request.
httpx is the upstream client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

from ..model import LedgerEntry, Reply, Scenario
from ..redaction import visible
from .call_origins import CallOrigins, Sent, loop_findings, prefix_check, reply_reasoning
from .body_secrets import body_keys, redacted, scrub_module, secrets
from .judge import Judged, judge, prefix_tools, record
from .server import Judges, Request, Server, Served, drained, head, reason, serve
from .service import MAX_BODY, MockService, Recorder, client_secrets, elsewhere

_HOP = frozenset({"host", "content-length", "connection", "transfer-encoding", "accept-encoding", "keep-alive",
                  "proxy-connection", "te", "upgrade"})
_REFUSED = frozenset({400, 422})  # the API refused the request as it was written (its history too)
_WATCH_SECONDS = 0.1  # how often a waiting request looks whether its client is still there
# Content-Encoding goes back with the bytes it describes (an upstream may compress though asked for identity)
_BACK_HOP = frozenset({"content-length", "connection", "transfer-encoding", "keep-alive"})


class ProxyHandler:
    def __init__(self, provider: str, upstream: str, save_dir: Path | None = None, timeout: float = 600.0) -> None:
        self.service = MockService(provider)
        self.provider = self.service.provider
        self.module = self.service.module
        self.upstream = checked_upstream(upstream).rstrip("/")
        self.save_dir = save_dir
        self.timeout = timeout
        self.count = 0
        self.verdicts: dict[str, int] = {}  # the lines written, by verdict ("" for none): the summary's tally
        self.emit: Recorder = lambda line: None  # set by Server
        self.judges = Judges()
        self._client: Any = None
        self._origins = CallOrigins()

    async def aclose(self) -> None:
        """The upstream client's connections closed (the server calls it when it stops)."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def _judged(self, raw: bytes, route: dict[str, Any] | None,
                headers: dict[str, str] | None = None) -> tuple[Any, Judged]:
        """The body read and judged (in a worker thread when it is large: ``Judges``)."""
        if route is None:
            return None, Judged(None, None, (), (), None)
        try:
            body = json.loads(raw) if raw.strip() else None
        except (ValueError, RecursionError) as exc:
            from .service import unparsed  # an integer past Python's digit limit: said

            return None, Judged(None, None, (), unparsed(exc, proxied=True), None)
        if body is None:
            return None, Judged(None, None, (), (), None)
        try:
            return body, judge(self.provider, self.module, body, route, headers)
        except Exception as exc:  # noqa: BLE001 - a fault of the reader's: the request still goes on as sent, and its
            from ..redaction import Redactor  # line says what could not be judged (the readers refuse odd types: 400)

            words = Redactor(secrets(scrub_module(self.module, body).values)).text(f"{type(exc).__name__}: {exc}")
            return body, Judged(None, None, (), (LedgerEntry("warning", "proxy.internal_error", "reading the request "
                                                             f"failed ({words}): passed on unjudged (please report it)"),),
                                None)

    def _upstream_url(self, target: str) -> str:
        parts = urlsplit(target)
        base = getattr(self.module, "MOCK_BASE_PATH", "")
        path = parts.path[len(base):] if base and parts.path.startswith(base) else parts.path
        return self.upstream + path + (f"?{parts.query}" if parts.query else "")

    async def __call__(self, request: Request, writer: asyncio.StreamWriter) -> tuple[dict[str, Any] | None, bool]:
        import httpx

        if self._client is None:
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(self.timeout, connect=10.0))
        self.count += 1
        number = self.count
        path = urlsplit(request.target).path
        route = self.module.mock_route(request.method, path)
        body, judged = await self.judges.run(len(request.body), self._judged, request.body, route, request.headers)
        # the body goes on as sent (the API needs its MCP secrets); records and saves never hold them, nor the
        # client's key, which the API may quote back ("Incorrect API key provided: sk-...")
        kept = {**client_secrets(request.headers, request.target),
                **(secrets(scrub_module(self.module, body).values) if body is not None else {})}
        found = body_keys(body)  # a key in the body's fields or texts: forwarded as sent, saved and shown [redacted]
        read = judged.read
        stream = bool(route.get("stream")) if route and route.get("stream") is not None else bool(read and read.stream)
        passage = _Passage()
        forward = asyncio.ensure_future(self._forward(request, writer, stream, passage))
        watch = asyncio.ensure_future(_client_left(request.reader, writer)) if request.reader is not None else None
        try:
            await asyncio.wait({forward} if watch is None else {forward, watch}, return_when=asyncio.FIRST_COMPLETED)
            if not forward.done():  # the client left first: stop reading the upstream for nobody
                forward.cancel()
                passage.client_gone = True
                await asyncio.wait({forward})
        finally:
            for task in (forward, watch):
                if task is not None and not task.done():
                    task.cancel()
        fault = None if forward.cancelled() else forward.exception()
        if fault is not None:  # the proxy's own: the client still gets an answer, the line says what happened
            from ..redaction import Redactor

            passage.fault = Redactor(kept, found=found).text(
                f"toolchoice proxy: internal error: {type(fault).__name__}: {fault}")
            if not passage.head_sent:
                passage.status = 500
                body_bytes, out = self.service.error(500, passage.fault)
                writer.write(head(500, {**out, "content-length": str(len(body_bytes)), "connection": "close"})
                             + body_bytes)
                with contextlib.suppress(ConnectionError):
                    await drained(writer)
        status = passage.status
        sent = Sent(judged.read.messages) if judged.read is not None else None  # followed once (call_origins)
        other = elsewhere(self.provider, request.method, path, "proxy") if route is None else ""
        why = _not_judged(passage, route is not None, f"{visible(request.method)} {path}", other)
        if why is not None:
            line = record(number, self.provider, path, judged, status, None, stream)
            line["findings"].append(why)
        else:
            line = self._line(number, path, judged, status, stream, self._reply(passage), sent)
            line["findings"] += [{"severity": "info" if f.code == "stream.not_streamed" else "warning", **f.to_json()}
                                 for f in passage.findings]  # stream.*
        if judged.read is not None and sent is not None:
            if status in _REFUSED:  # the API refused this history: its words say what is wrong, not also the proxy's
                results = self._origins.results(judged.read.messages)
            else:
                results = loop_findings(self._origins, sent, line["findings"], "proxy", prefix_tools(judged),
                                        self.provider, judged.read.model, judged.read.system)
            if results:
                line["results"] = results
            handed = self._origins.reasoning_from(sent)  # the thinking sent back, and whose answer made it
            if handed:
                line["reasoning_from"] = handed
        found.update(body_keys(line))  # a key the model's answer holds (a call's arguments): its pieces in the stream
        line = redacted(line, kept, found)
        if self.save_dir is not None and passage.failure is None:
            from .saving import save_exchange

            save_exchange(self.save_dir, number, request, status, bytes(passage.collected),
                          self.service.framing if passage.decoder is not None else None, line, kept,
                          getattr(self.module, "MOCK_SECRETS", ()), found)
        self.verdicts[line.get("verdict") or ""] = self.verdicts.get(line.get("verdict") or "", 0) + 1
        self.emit(line)
        return None, passage.whole  # an answer cut short (or unframed, to HTTP/1.0) leaves no connection to reuse

    async def _forward(self, request: Request, writer: asyncio.StreamWriter, stream: bool, passage: "_Passage") -> None:
        """The request to the upstream and its answer back to the client as it arrives, noted in ``passage``."""
        import httpx

        # as their bytes came (read as latin-1): httpx encodes a str value as ASCII, and a UTF-8 value (obs-text,
        # OpenRouter's X-Title of an app's name) was the proxy's own 500, the request never sent
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in request.headers.items() if k not in _HOP]
        headers.append((b"accept-encoding", b"identity"))  # the reply is read as it passes: no compression to undo
        old = request.version == "HTTP/1.0"  # no chunked framing: the body as it comes, ended by the close
        try:
            async with self._client.stream(request.method, self._upstream_url(request.target), headers=headers,
                                           content=request.body) as response:
                passage.status = response.status_code
                passage.headers = response.headers
                writer.write(_head_as_sent(passage.status, response.extensions.get("reason_phrase"),
                                           response.headers.raw, old))
                passage.head_sent = True
                kind = response.headers.get("content-type", "")
                if stream and 200 <= passage.status < 300 and "application/json" in kind:  # it ignored `stream`
                    passage.findings.append(_not_streamed(kind))
                elif stream and 200 <= passage.status < 300:
                    from ..streaming import assembler_for, decoder_for

                    passage.assembler = assembler_for(self.provider)[1]  # an event it cannot read: a finding
                    passage.decoder = decoder_for(self.service.framing, passage.assembler)
                inflate = _Inflate.for_encoding(response.headers.get("content-encoding", ""))
                async for chunk in response.aiter_raw():
                    writer.write(chunk if old else b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    await drained(writer)  # a client that stopped reading is cut off (limit mock_write_seconds)
                    passage.sent += len(chunk)
                    plain = chunk if inflate is None else inflate.feed(chunk)
                    passage.read += len(plain)
                    if passage.decoder is not None:
                        for event in passage.decoder.feed(plain):
                            passage.assembler.feed(event)
                    # a whole answer is judged from these bytes; a stream's are kept only for --save
                    if len(passage.collected) < MAX_BODY and (passage.decoder is None or self.save_dir is not None):
                        passage.collected += plain[:MAX_BODY - len(passage.collected)]
                passage.unread = inflate.problem if inflate is not None else None
                if not old:
                    writer.write(b"0\r\n\r\n")
                await drained(writer)
                passage.whole = not old
        except (httpx.HTTPError, httpx.InvalidURL) as exc:  # InvalidURL: a client's path httpx cannot send
            passage.failure = f"toolchoice proxy: the upstream failed: {type(exc).__name__}: {exc}"
            if passage.status == 502:  # nothing written yet: the client gets the failure in the API's envelope
                body_bytes, out = self.service.error(502, passage.failure)
                writer.write(head(502, {**out, "content-length": str(len(body_bytes)), "connection": "close"})
                             + body_bytes)
                with contextlib.suppress(ConnectionError):
                    await drained(writer)
        except ConnectionError:  # the client went away while its answer was written
            passage.client_gone = True

    def _reply(self, passage: "_Passage") -> Reply:
        """The answer as ``send`` reads it: the stream assembled, or the body parsed."""
        if passage.decoder is not None:
            from ..streaming import BENIGN_FINDINGS, settled

            for event in passage.decoder.close():
                passage.assembler.feed(event)
            assembly = passage.assembler.finish()
            passage.findings += [f for f in settled([*passage.decoder.findings, *assembly.findings])
                                 if f.code not in BENIGN_FINDINGS]
            return assembly.reply
        from ..reply import read_reply

        collected = passage.collected
        try:
            parsed = json.loads(collected) if collected.strip() else None
        except (ValueError, RecursionError):
            parsed = None
        return read_reply(self.provider, passage.status, parsed, bytes(collected).decode("utf-8", "replace"),
                          headers=passage.headers)

    def _line(self, number: int, path: str, judged: Judged, status: int, stream: bool, reply: Reply,
              sent: Sent | None = None) -> dict[str, Any]:
        line = record(number, self.provider, path, judged, status, None, stream)
        line["calls"] = _calls(reply)
        read = judged.read
        # the thinking's signatures, encrypted items, ids the upstream handed out: in its reply, a stream's as a
        # whole answer's (the assembler fills the reply's reasoning as parse_reply does)
        handed = reply_reasoning(reply)
        self._origins.made(number, [(c.id, c.name) for choice in reply.choices or (reply,) for c in choice.tool_calls],
                           prefix_tools(judged), read.system if read is not None else None, handed,
                           sent if read is not None and handed and prefix_check(self.provider, read.model) else None)
        if judged.refusal is not None:  # the mock would refuse it: a finding here, the upstream decides
            for finding in line["findings"]:
                if finding["message"] == judged.refusal:
                    finding["severity"] = "warning"
                    finding["message"] = "the API is expected to refuse this: " + finding["message"]
        if reply.error is not None:
            line["findings"].append({"severity": "error", "code": "proxy.error",
                                     "message": reply.error.one_line(self.provider)})
        elif judged.read is not None:
            from ..verdict import verdict

            read = judged.read
            # judged as send judges: parallel_tool_calls false (Anthropic's disable_parallel_tool_use) on the wire
            # makes a reply of several calls too_many_calls; the MCP servers the request declares are its offer
            scenario = Scenario(path="<request>", tools=read.tools, tool_choice=judged.choice,
                                parallel_tool_calls=read.parallel, messages=read.messages,
                                native_tools=read.native_tools)
            found = verdict(scenario, reply)
            line["verdict"] = found["category"]
            if reply.choices:  # n > 1: each choice's calls and verdict (core/choices.py)
                line["choices"] = [{"index": c["index"], "calls": _calls(choice), "verdict": c["category"]}
                                   for c, choice in zip(found["choices"], reply.choices)]
            line["findings"].append({"severity": "info" if found["obeyed"] else "warning",
                                     "code": f"verdict.{found['category']}", "message": "; ".join(found["reasons"])})
        return line


def _calls(reply: Reply) -> list[dict[str, Any]]:
    return [{"name": c.name, "arguments": c.arguments if c.arguments is not None else c.raw_arguments, "id": c.id}
            for c in reply.tool_calls]


def checked_upstream(url: str) -> str:
    """``url`` when it can be the upstream's base URL: http(s), a host, a port that is a number, and neither user
    info (httpx would send it as Basic auth, and the proxy's lines would quote it) nor a query (the client's path is
    appended after it); else a ToolchoiceError before the proxy listens (one line, exit 2)."""
    from ..model import ToolchoiceError
    from ..request_parts import http_url_fault

    fault = http_url_fault(url)
    if fault:
        raise ToolchoiceError(f"--upstream {fault[0]}",
                              hint="give the API's base URL as its SDK takes it, e.g. https://api.openai.com/v1")
    return url


class _Passage:
    """How far one answer got from the upstream to the client."""

    __slots__ = ("status", "headers", "collected", "sent", "read", "decoder", "assembler", "findings", "failure",
                 "client_gone", "whole", "unread", "head_sent", "fault")

    def __init__(self) -> None:
        self.status = 502  # until the upstream's status line arrives
        self.headers: Any = {}
        self.collected = bytearray()  # the first MAX_BODY bytes, read once the answer ended
        self.sent = 0  # bytes passed on, as they came
        self.read = 0  # bytes they decode to (a compressed answer's)
        self.unread: str | None = None  # why the answer could not be read (an encoding the proxy does not decode)
        self.decoder: Any = None
        self.assembler: Any = None
        self.findings: list[Any] = []  # the stream's faults (stream.*: a malformed event, no final event, ...)
        self.failure: str | None = None  # the upstream failed (proxy.upstream)
        self.client_gone = False
        self.head_sent = False  # the upstream's status line and headers went to the client
        self.fault: str | None = None  # a fault of the proxy's own (proxy.internal_error)
        self.whole = False  # the answer reached the client to its end


def _head_as_sent(status: int, phrase: bytes | None, headers: list[tuple[bytes, bytes]], old: bool = False) -> bytes:
    """The upstream's status line and headers as their bytes came (a value in UTF-8, the API's own reason phrase),
    but for the hop-by-hop ones: the body goes on chunked (to an HTTP/1.0 client: as it comes, ended by the close)."""
    lines = [b"HTTP/1.1 %d %s" % (status, phrase or reason(status).encode("ascii"))]
    lines += [name + b": " + value for name, value in headers if name.decode("latin-1").lower() not in _BACK_HOP]
    lines.append(b"connection: close" if old else b"transfer-encoding: chunked")
    return b"\r\n".join(lines) + b"\r\n\r\n"


def _not_judged(passage: _Passage, routed: bool, request: str, other: str = "") -> dict[str, str] | None:
    """Why an answer is not judged, as the line's finding; None when it is judged."""
    def finding(severity: str, code: str, message: str) -> dict[str, str]:
        return {"severity": severity, "code": code, "message": message}

    if passage.fault is not None:
        return finding("error", "proxy.internal_error", passage.fault + " (please report it)")
    if passage.client_gone:
        where = f"after {passage.sent} bytes of the answer" if passage.status != 502 else "before the upstream answered"
        return finding("warning", "proxy.client_gone", f"the client closed the connection {where}; the reply is not "
                       "judged")
    if passage.failure is not None:
        return finding("error", "proxy.upstream", passage.failure)
    if passage.unread is not None:
        return finding("warning", "proxy.unread", f"{passage.unread}: passed on as it came, not judged")
    if not routed and other:  # another family's model endpoint (Responses behind -p openai), whatever the upstream
        # answered: its tool_choice went unseen, and this family's reader would misread the answer
        return finding("warning", "proxy.not_judged", f"{request} is not an endpoint of this API{other}; passed on as "
                       f"it came (answered {passage.status})")
    if not routed and 200 <= passage.status < 300:  # a models list, a file upload: no tool_choice to judge
        return finding("info", "proxy.not_judged", f"{request} is not an endpoint toolchoice judges: passed on as it "
                       "came")
    if passage.read > MAX_BODY and passage.decoder is None:  # its start alone would read as "not JSON"
        return finding("warning", "proxy.too_large", f"the answer ({passage.read} bytes) is larger than the {MAX_BODY} "
                       "bytes the proxy reads: passed on whole, not judged")
    return None


def _not_streamed(kind: str) -> Any:
    from ..stream_assembly import Finding

    return Finding("stream.not_streamed", f"the server answered {kind} instead of a stream: read as one body")


class _Inflate:
    """A gzip / deflate answer decoded as it passes, for judging only (the client gets the bytes as they came), each
    piece to at most MAX_BODY bytes (a compression bomb stops being read, it is not expanded)."""

    def __init__(self) -> None:
        import zlib

        self._z: Any = zlib.decompressobj(zlib.MAX_WBITS | 32)  # a gzip or a zlib header, told apart by zlib
        self.problem: str | None = None

    @classmethod
    def for_encoding(cls, header: str) -> "_Inflate | None":
        codings = [c.strip().lower() for c in header.split(",") if c.strip().lower() not in ("", "identity")]
        if not codings:
            return None
        inflate = cls()
        if codings not in (["gzip"], ["x-gzip"], ["deflate"]):
            inflate.problem = f"the answer's Content-Encoding is {header.strip()!r}, which the proxy does not decode"
        return inflate

    def feed(self, chunk: bytes) -> bytes:
        import zlib

        if self.problem is not None:
            return b""
        try:
            plain = self._z.decompress(chunk, MAX_BODY)
        except zlib.error as exc:
            self.problem = f"the answer's compressed bytes do not decode ({exc})"
            return b""
        if self._z.unconsumed_tail:
            self.problem = f"a piece of the answer decompresses to more than {MAX_BODY} bytes"
        return plain


async def _client_left(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Returns once the client closed its connection (a client that gives up on a slow answer, or leaves a stream,
    must not keep the upstream busy). A client never half-closes before reading its answer over HTTP/1.1."""
    while not (reader.at_eof() or writer.transport.is_closing()):
        await asyncio.sleep(_WATCH_SECONDS)


def serve_proxy(provider: str, upstream: str, *, host: str = "127.0.0.1", port: int = 0, save_dir: Path | None = None,
                max_requests: int | None = None, on_url: Callable[[str], None], on_record: Recorder) -> Served:
    """``toolchoice proxy`` as a library call: judging in front of ``upstream`` until stopped (``serve``)."""
    handler = ProxyHandler(provider, upstream, save_dir)
    server = Server(handler, host=host, port=port, max_requests=max_requests, on_record=on_record,
                    bad_request=handler.service.error)
    served = serve(server, handler.service.module, what="proxy", counts=lambda: (handler.count, 0), on_url=on_url)
    served.verdicts = dict(handler.verdicts)
    return served
