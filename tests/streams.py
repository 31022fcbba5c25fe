"""Streams for tests: the recorded fixtures framed as their providers send them, and a stand-in
server on 127.0.0.1 that writes a scripted stream over a real socket with real pauses.

    with StreamServer() as server:
        server.script(Script([Piece(b"data: {...}\\n\\n", delay=0.05), ...]))
        ... POST server.url + "/anything" ...

Framing here is written from the protocols' own descriptions, independently of the decoders under
test: SSE as ``data: <json>\\n\\n`` (how vercel/ai replays its chunk files), NDJSON one line per
value, AWS event-stream messages laid out as the AWS event-stream encoding describes (prelude with
total and headers length and their CRC32, typed headers, payload, message CRC32); the event-stream
bytes are checked against botocore's own parser in test_streaming_framing.py.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
import zlib
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

STREAMS = Path(__file__).parent / "data" / "streams"


def fixture_lines(provider: str, name: str) -> list[str]:
    text = (STREAMS / provider / name).read_text(encoding="utf-8")
    return [line for line in text.split("\n") if line.strip()]


def sse(payloads: list[Any], *, done: bool = False, named: bool = False) -> bytes:
    """Server-sent events, one ``data:`` line per payload (a JSON value or raw text)."""
    out = []
    for payload in payloads:
        text = payload if isinstance(payload, str) else json.dumps(payload)
        head = ""
        value = payload if not isinstance(payload, str) or not named else _json_or_text(payload)
        if named and isinstance(value, dict) and isinstance(value.get("type"), str):
            head = f"event: {value['type']}\n"
        out.append(f"{head}data: {text}\n\n")
    if done:
        out.append("data: [DONE]\n\n")
    return "".join(out).encode("utf-8")


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def ndjson(payloads: list[Any]) -> bytes:
    return "".join((p if isinstance(p, str) else json.dumps(p)) + "\n" for p in payloads).encode("utf-8")


def _string_header(name: str, value: str) -> bytes:
    raw_name, raw_value = name.encode(), value.encode()
    return bytes([len(raw_name)]) + raw_name + bytes([7]) + struct.pack(">H", len(raw_value)) + raw_value


def eventstream_message(headers: dict[str, str], payload: bytes) -> bytes:
    """One AWS event-stream message with string headers."""
    head = b"".join(_string_header(k, v) for k, v in headers.items())
    total = 12 + len(head) + len(payload) + 4
    prelude = struct.pack(">II", total, len(head))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    body = prelude + head + payload
    return body + struct.pack(">I", zlib.crc32(body))


def bedrock_event(name: str, payload: Any) -> bytes:
    return eventstream_message({":event-type": name, ":content-type": "application/json", ":message-type": "event"},
                               json.dumps(payload).encode())


def bedrock_exception(kind: str, message: str) -> bytes:
    return eventstream_message({":exception-type": kind, ":content-type": "application/json",
                                ":message-type": "exception"}, json.dumps({"message": message}).encode())


def bedrock_stream(lines: list[str]) -> bytes:
    """vercel/ai's Bedrock chunk lines (``{"contentBlockDelta": {...}}``) as event-stream bytes."""
    out = []
    for line in lines:
        ((name, payload),) = json.loads(line).items()
        out.append(bedrock_event(name, payload))
    return b"".join(out)


def framed(provider: str, lines: list[str], *, done: bool = False) -> bytes:
    if provider == "bedrock":
        return bedrock_stream(lines)
    if provider == "ollama":
        return ndjson(lines)
    return sse(lines, done=done, named=provider == "anthropic")  # anthropic-python skips an event without its name


# ---- the stand-in server ---------------------------------------------------------------------


@dataclass
class Piece:
    data: bytes
    delay: float = 0.0  # seconds to wait before writing it


@dataclass
class Script:
    pieces: list[Piece]
    status: int = 200
    content_type: str = "text/event-stream"
    stall: float = 0.0  # after the pieces: keep the connection open this long, writing nothing
    drop: bool = False  # after the pieces: close the socket without ending the chunked body
    headers: dict[str, str] = field(default_factory=dict)


def paced(data: bytes, size: int, delay: float) -> list[Piece]:
    """``data`` cut into ``size``-byte pieces, ``delay`` seconds apart."""
    return [Piece(data[i:i + size], delay if i else 0.0) for i in range(0, len(data), size)]


class StreamServer:
    """Answers each POST with the next Script (the last one repeats). Records request bodies."""

    def __init__(self, *scripts: Script) -> None:
        self.scripts = list(scripts)
        self.bodies: list[Any] = []
        self.paths: list[str] = []
        self.stop_event = threading.Event()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def script(self, *scripts: Script) -> "StreamServer":
        with self._lock:
            self.scripts = list(scripts)
        return self

    def next_script(self) -> Script:
        with self._lock:
            return self.scripts.pop(0) if len(self.scripts) > 1 else self.scripts[0]

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "StreamServer":
        server = _Server(("127.0.0.1", 0), _Handler)
        server.owner = self  # type: ignore[attr-defined]
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop_event.set()
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that reset its connection (a command Ctrl-C stopped, leaving a kept-alive one) is no error of the
        stand-in's: socketserver printed its traceback to sys.stderr, which an in-process command's run_cli captures,
        and test_compare_rows' 'no Traceback in stderr' failed on it about one run in three (main, 2026-11-27)."""
        import sys

        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def do_POST(self) -> None:  # noqa: N802
        owner: StreamServer = self.server.owner  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        owner.paths.append(self.path)
        try:
            owner.bodies.append(json.loads(raw))
        except ValueError:
            owner.bodies.append(raw)
        script = owner.next_script()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.send_response(script.status)
        self.send_header("Content-Type", script.content_type)
        self.send_header("Transfer-Encoding", "chunked")
        for name, value in script.headers.items():
            self.send_header(name, value)
        self.end_headers()
        try:
            for piece in script.pieces:
                if piece.delay and owner.stop_event.wait(piece.delay):
                    return
                if piece.data:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece.data), piece.data))
                    self.wfile.flush()
            if script.stall:
                owner.stop_event.wait(script.stall)
            if script.drop:
                self.connection.shutdown(socket.SHUT_RDWR)
                self.close_connection = True
                return
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


def wait_until(predicate: Any, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.01)
    return False


# The scenario the streamed-send tests send: one tool, a required choice (tests/test_send_stream.py,
# tests/test_hardening_round3.py)
WEATHER_SCENARIO = """
tools:
  - name: weather
    parameters: {type: object, properties: {location: {type: string}}}
tool_choice: required
messages: [{role: user, content: What is the weather in San Francisco?}]
"""

# One tool with a required argument, a required choice, one question (tests/test_choices.py,
# tests/test_adversarial10.py, tests/test_adversarial12.py, tests/test_stream_ends.py)
CITY_WEATHER_SCENARIO = """\
tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
tool_choice: required
messages:
  - {role: user, content: Weather in Paris?}
"""
