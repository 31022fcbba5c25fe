"""``toolchoice proxy``: the mock's judging in front of the real provider.

Each request is judged as the mock judges it (the refusals the mock would answer become findings,
the request goes on all the same: the real API decides), forwarded with the client's headers (the
key passes through and is never printed or saved), and the answer is written back as it arrives:
a stream chunk by chunk, never buffered. The reply is then read as ``send`` reads it (the family's
parser or stream assembler) and judged against the requested tool_choice (obeyed / disobeyed /
phantom). httpx is the upstream client.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

from ..model import Reply, Scenario
from ..registry import module_for
from .body_secrets import redacted, scrub_module, secrets
from .judge import Judged, judge, record
from .server import Request, Server, Served, drained, head, serve
from .service import MAX_BODY, MockService, Recorder, client_secrets

_HOP = frozenset({"host", "content-length", "connection", "transfer-encoding", "accept-encoding", "keep-alive",
                  "proxy-connection", "te", "upgrade"})
_BACK_HOP = frozenset({"content-length", "connection", "transfer-encoding", "content-encoding", "keep-alive"})


class ProxyHandler:
    def __init__(self, provider: str, upstream: str, save_dir: Path | None = None, timeout: float = 600.0) -> None:
        self.service = MockService(provider)
        self.provider = self.service.provider
        self.module = self.service.module
        self.upstream = upstream.rstrip("/")
        self.save_dir = save_dir
        self.timeout = timeout
        self.count = 0
        self.emit: Recorder = lambda line: None  # set by Server
        self._client: Any = None

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
        judged = Judged(None, None, (), (), None)
        body: Any = None
        if route is not None:
            try:
                body = json.loads(request.body) if request.body.strip() else None
            except (ValueError, RecursionError):
                body = None
            if body is not None:
                judged = judge(self.provider, self.module, body, route)
        # the body goes on as sent (the API needs its MCP secrets); records and saves never hold them
        kept = secrets(scrub_module(self.module, body).values) if body is not None else {}
        read = judged.read
        stream = bool(route.get("stream")) if route and route.get("stream") is not None else bool(read and read.stream)
        headers = {k: v for k, v in request.headers.items() if k not in _HOP}
        headers["accept-encoding"] = "identity"  # the reply is read as it passes: no compression to undo
        collected = bytearray()
        old = request.version == "HTTP/1.0"
        decoder = assembler = None
        status = 502
        try:
            async with self._client.stream(request.method, self._upstream_url(request.target), headers=headers,
                                           content=request.body) as response:
                status = response.status_code
                out = {k: v for k, v in response.headers.items() if k.lower() not in _BACK_HOP}
                if old:  # HTTP/1.0 has no chunked framing: the body as it comes, ended by the close
                    out["connection"] = "close"
                else:
                    out["transfer-encoding"] = "chunked"
                writer.write(head(status, out))
                streamed = stream and 200 <= status < 300
                if streamed:
                    from ..stream_framing import EventDecoder

                    decoder = EventDecoder(self.service.framing)
                    assembler = module_for(self.provider).stream_assembler(self.provider)
                async for chunk in response.aiter_raw():
                    writer.write(chunk if old else b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    await drained(writer)
                    if decoder is not None:
                        for event in decoder.feed(chunk):
                            assembler.feed(event)
                    if len(collected) < MAX_BODY:
                        collected += chunk
                if not old:
                    writer.write(b"0\r\n\r\n")
                await drained(writer)
        except httpx.HTTPError as exc:
            message = f"toolchoice proxy: the upstream failed: {type(exc).__name__}: {exc}"
            if status == 502:
                body_bytes, out = self.service.error(502, message)
                writer.write(head(502, {**out, "content-length": str(len(body_bytes))}) + body_bytes)
                await drained(writer)
            line = record(number, self.provider, path, judged, status, None, stream)
            line["findings"].append({"severity": "error", "code": "proxy.upstream", "message": message})
            self.emit(redacted(line, kept))
            return None, status != 502
        if decoder is not None:
            for event in decoder.close():
                assembler.feed(event)
            reply = assembler.finish().reply
        else:
            from ..reply import read_reply

            try:
                parsed = json.loads(collected) if collected.strip() else None
            except (ValueError, RecursionError):
                parsed = None
            reply = read_reply(self.provider, status, parsed, bytes(collected).decode("utf-8", "replace"))
        line = redacted(self._line(number, path, judged, status, stream, reply), kept)
        if self.save_dir is not None:
            from .saving import save_exchange

            save_exchange(self.save_dir, number, request, status, bytes(collected),
                          self.service.framing if decoder is not None else None, line,
                          {**client_secrets(request.headers, request.target), **kept},
                          getattr(self.module, "MOCK_SECRETS", ()))
        self.emit(line)
        return None, not old

    def _line(self, number: int, path: str, judged: Judged, status: int, stream: bool, reply: Reply) -> dict[str, Any]:
        line = record(number, self.provider, path, judged, status, None, stream)
        line["calls"] = [{"name": c.name, "arguments": c.arguments if c.arguments is not None else c.raw_arguments}
                         for c in reply.tool_calls]
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
            scenario = Scenario(path="<request>", tools=read.tools, tool_choice=judged.choice,
                                messages=read.messages)
            found = verdict(scenario, reply)
            line["verdict"] = found["category"]
            line["findings"].append({"severity": "info" if found["obeyed"] else "warning",
                                     "code": f"verdict.{found['category']}", "message": "; ".join(found["reasons"])})
        return line


def serve_proxy(provider: str, upstream: str, *, host: str = "127.0.0.1", port: int = 0, save_dir: Path | None = None,
                max_requests: int | None = None, on_url: Callable[[str], None], on_record: Recorder) -> Served:
    """``toolchoice proxy`` as a library call: judging in front of ``upstream`` until stopped (``serve``)."""
    handler = ProxyHandler(provider, upstream, save_dir)
    server = Server(handler, host=host, port=port, max_requests=max_requests, on_record=on_record,
                    bad_request=handler.service.error)
    return serve(server, handler.service.module, what="proxy", counts=lambda: (handler.count, 0), on_url=on_url)
