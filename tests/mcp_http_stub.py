"""Just enough of MCP's streamable HTTP for a tools/list (initialize, the initialized notification, tools/list,
the DELETE that closes the session), in a thread on 127.0.0.1, for tests of what a hostile server does: the
tools it lists come from ``tools(headers)``, ``wire`` rewrites the bytes of the tools/list answer (a hostile server's
own), and ``on_close`` runs before the DELETE is answered."""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Iterator


@contextmanager
def serving(tools: Callable[[Any], list[dict[str, Any]]], on_close: Callable[[], None] = lambda: None,
            paths: list[str] | None = None, wire: Callable[[bytes], bytes] = lambda body: body,
            sse: bool = False, json_kind: str = "application/json") -> Iterator[str]:
    """The server's URL while the block runs (any path is served; ``paths`` gets each request's). ``sse``: the
    tools/list answer as an event stream (one ``message`` event), as a streamable-HTTP server may answer;
    ``json_kind``: the Content-Type of its JSON answers."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def answer(self, status: int, body: bytes = b"", kind: str = json_kind) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("mcp-session-id", "s1")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 - no server-to-client stream
            self.answer(405)

        def do_DELETE(self) -> None:  # noqa: N802
            on_close()
            self.answer(200)

        def do_POST(self) -> None:  # noqa: N802
            if paths is not None:
                paths.append(self.path)
            message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            if message.get("id") is None:
                return self.answer(202)
            if message["method"] not in ("initialize", "tools/list"):  # server/discover: a server before it
                return self.answer(200, json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": {
                    "code": -32601, "message": "Method not found"}}).encode())
            result = ({"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                       "serverInfo": {"name": "stub", "version": "1"}} if message["method"] == "initialize" else
                      {"tools": tools(self.headers)})
            body = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}).encode()
            if message["method"] == "tools/list" and sse:
                return self.answer(200, b"event: message\ndata: " + wire(body) + b"\n\n", "text/event-stream")
            self.answer(200, wire(body) if message["method"] == "tools/list" else body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/mcp"
    finally:
        server.shutdown()
        server.server_close()
