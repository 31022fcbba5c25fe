"""A local stand-in for provider APIs: real HTTP on 127.0.0.1, in a thread, for end-to-end tests.

It answers each request with the next scripted ``Step`` (then repeats the default step), serving
recorded real response bodies from ``tests/data/responses/<provider>/``, and can inject status
codes, Retry-After headers, delays, malformed JSON, HTML pages and dropped connections. Every
request it receives is recorded (method, path, query, headers, raw body, parsed JSON, time).

    with StandIn("openai") as server:
        server.script(Step.error("openai", 429, retry_after="0"), Step.reply("openai"))
        run toolchoice send ... --base-url server.base_url("openai")
        server.requests[0].headers["authorization"]
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

DATA = Path(__file__).parent / "data" / "responses"

# The CLI as the interpreter running the tests runs it: `python -m pytest` needs no console script on PATH.
CLI: list[str] = [sys.executable, "-m", "toolchoice.cli"]

# One recorded real success body per provider (file stem inside tests/data/responses/<provider>/).
DEFAULT_REPLY: dict[str, str] = {
    "openai": "openai-chat-single-strict",
    "openai-responses": "openai-responses-function-call",
    "anthropic": "anthropic-tool-use-only",
    "gemini": "gemini-function-call-thought-signature",
    "mistral": "mistral-tool-call-no-type-field",
    "groq": "groq-tool-call-empty-arguments",
    "deepseek": "deepseek-tool-call-with-reasoning",
    "ollama": "ollama-native-object-arguments",
    "bedrock": "bedrock-converse-tool-use",
    "cohere": "cohere-v2-parallel-tool-plan",
}

def default_reply(provider: str) -> str | None:
    """The recorded body a stand-in answers for ``provider``: its DEFAULT_REPLY, else the first recorded
    body in its own folder (a newly added host's fixture), else None."""
    if provider in DEFAULT_REPLY:
        return DEFAULT_REPLY[provider]
    bodies = sorted(p for p in (DATA / provider).glob("*.json") if not p.name.endswith(".expect.json"))
    return bodies[0].stem if bodies else None


# Base URLs the way each official SDK spells them (what --base-url takes), relative to the server root.
BASE_PATH: dict[str, str] = {
    "anthropic": "",
    "gemini": "",
    "ollama": "",
    "bedrock": "",
    "cohere": "",
    "deepseek": "",
}


def fixture_path(provider: str, stem: str) -> Path:
    """tests/data/responses/<provider>/<stem>.json (or .html), else the errors folder's file."""
    for folder in (DATA / provider, DATA / "errors"):
        for suffix in (".json", ".html", ""):
            path = folder / f"{stem}{suffix}"
            if path.is_file():
                return path
    raise FileNotFoundError(f"no recorded body {stem!r} for {provider}")


def fixture(provider: str, stem: str) -> Any:
    return json.loads(fixture_path(provider, stem).read_text(encoding="utf-8"))


def error_family(provider: str) -> str:
    from toolchoice.providers.core.capabilities import CAPABILITIES

    return CAPABILITIES[provider].module


def error_body(provider: str, status: int, message: str, kind: str = "invalid_request_error") -> Any:
    """An error body in the envelope of the provider's wire family (its row's module; shapes as recorded
    in data/responses/errors); Mistral, an OpenAI-compatible host, has its own."""
    family = error_family(provider)
    if family == "anthropic":
        return {"type": "error", "error": {"type": kind, "message": message}}
    if family == "gemini":
        return {"error": {"code": status, "message": message, "status": kind.upper()}}
    if family in ("bedrock", "cohere"):
        return {"message": message}
    if family == "ollama":
        return {"error": message}
    if provider == "mistral":
        return {"object": "error", "message": message, "type": kind, "param": None, "code": None}
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


@dataclass
class Step:
    """One scripted answer."""

    status: int = 200
    body: Any = None  # dict/list -> JSON; str/bytes -> sent as is
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json"
    delay: float = 0.0  # seconds before answering
    drop: bool = False  # close the connection without any response
    gate: "Rendezvous | None" = None  # held until every request the gate expects has arrived

    @classmethod
    def reply(cls, provider: str, stem: str | None = None, **kw: Any) -> "Step":
        """A recorded real success body for ``provider``."""
        return cls(body=fixture(provider, stem or default_reply(provider)), **kw)

    @classmethod
    def error(cls, provider: str, status: int, message: str = "stand-in error", *, kind: str | None = None,
              retry_after: str | None = None, retry_after_ms: str | None = None, **kw: Any) -> "Step":
        headers = dict(kw.pop("headers", {}))
        if retry_after is not None:
            headers["Retry-After"] = retry_after
        if retry_after_ms is not None:
            headers["retry-after-ms"] = retry_after_ms
        default_kind = {429: "rate_limit_error", 529: "overloaded_error"}.get(
            status, "server_error" if status >= 500 else "invalid_request_error")
        if error_family(provider) == "bedrock":
            headers.setdefault("x-amzn-ErrorType", "ThrottlingException" if status == 429 else "ValidationException")
        return cls(status=status, body=error_body(provider, status, message, kind or default_kind),
                   headers=headers, **kw)

    @classmethod
    def recorded_error(cls, status: int, stem: str, **kw: Any) -> "Step":
        """A recorded real error body from data/responses/errors/."""
        path = fixture_path("errors", stem)
        if path.suffix == ".html":
            return cls(status=status, body=path.read_bytes(), content_type="text/html", **kw)
        return cls(status=status, body=json.loads(path.read_text(encoding="utf-8")), **kw)

    @classmethod
    def html(cls, status: int = 502) -> "Step":
        return cls.recorded_error(status, "error-html-502-nginx")

    @classmethod
    def malformed(cls, status: int = 200) -> "Step":
        return cls(status=status, body='{"id": "chatcmpl-1", "choices": [{"index": 0, "message": ')

    @classmethod
    def dropped(cls) -> "Step":
        return cls(drop=True)

    def payload(self) -> bytes:
        if isinstance(self.body, bytes):
            return self.body
        if isinstance(self.body, str):
            return self.body.encode("utf-8")
        if self.body is None:
            return b""
        return json.dumps(self.body, ensure_ascii=False).encode("utf-8")


class Rendezvous:
    """Holds each request until ``parties`` requests have arrived (across servers sharing it): concurrency shown
    without a clock. Serial clients never get past the first request; the generous ``timeout`` is the only clock
    and only ends the wait; ``failure`` then says how many came, and the test asserts it is None."""

    def __init__(self, parties: int, timeout: float = 30.0) -> None:
        self.parties, self.timeout = parties, timeout
        self.arrived = 0
        self.failure: str | None = None
        self._cond = threading.Condition()

    def wait(self) -> None:
        with self._cond:
            self.arrived += 1
            self._cond.notify_all()
            if not self._cond.wait_for(lambda: self.arrived >= self.parties or self.failure, self.timeout):
                self.failure = (f"requests were not concurrent: only {self.arrived} of {self.parties} arrived "
                                f"within {self.timeout:g} s")
                self._cond.notify_all()


@dataclass
class Received:
    method: str
    path: str  # without the query
    query: str
    headers: dict[str, str]  # lower-case names
    raw: bytes
    at: float  # time.monotonic() on arrival

    @property
    def json(self) -> Any:
        return json.loads(self.raw.decode("utf-8"))


class StandIn:
    """The server. ``provider`` picks the default answer (its recorded reply)."""

    def __init__(self, provider: str = "openai", *steps: Step, default: Step | None = None) -> None:
        self.provider = provider
        self.default = default or (Step.reply(provider) if default_reply(provider) else Step(body={}))
        self.steps: list[Step] = list(steps)
        self.requests: list[Received] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- control -----------------------------------------------------------------------------

    def script(self, *steps: Step) -> "StandIn":
        with self._lock:
            self.steps.extend(steps)
        return self

    def next_step(self) -> Step:
        with self._lock:
            return self.steps.pop(0) if self.steps else self.default

    def record(self, received: Received) -> None:
        with self._lock:
            self.requests.append(received)

    @property
    def port(self) -> int:
        assert self._server is not None, "server not started"
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def base_url(self, provider: str | None = None) -> str:
        """The --base-url for ``provider`` by its SDK's convention (OpenAI-style ones end in /v1)."""
        return self.url + BASE_PATH.get(provider or self.provider, "/v1")

    def start(self) -> "StandIn":
        handler = type("Handler", (_Handler,), {"stand_in": self})
        self._server = _Server(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        # stop() waits for the serving loop to notice, up to one poll interval: 5 ms, not 20, for each of
        # the few hundred servers the suite starts (polling costs ~10 µs a time)
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.005},
                                        name="stand-in", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> "StandIn":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # a burst of concurrent clients must not hit the kernel's default backlog of 5


class _Handler(BaseHTTPRequestHandler):
    disable_nagle_algorithm = True  # small replies go out at once, not after a delayed ACK
    protocol_version = "HTTP/1.1"
    stand_in: StandIn

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep test output quiet
        return

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        parts = urlsplit(self.path)
        self.stand_in.record(Received(self.command, parts.path, parts.query,
                                      {k.lower(): v for k, v in self.headers.items()}, raw, time.monotonic()))
        step = self.stand_in.next_step()
        if step.gate is not None:
            step.gate.wait()
        if step.delay:
            time.sleep(step.delay)
        if step.drop:
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            return
        payload = step.payload()
        self.send_response(step.status)
        self.send_header("Content-Type", step.content_type)
        self.send_header("Content-Length", str(len(payload)))
        for name, value in step.headers.items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (read timeout)

    do_POST = _handle
    do_GET = _handle


def send_blocking(request: Any, **kwargs: Any) -> Any:
    """``transport.send_async`` run to completion, for tests that send one request: a plain ``sleep``
    callable is awaited as the transport's sleep between retries."""
    import asyncio

    from toolchoice.providers.core import transport

    sleep = kwargs.pop("sleep", None)
    if sleep is not None:
        async def awaited(seconds: float) -> None:
            sleep(seconds)

        kwargs["sleep"] = awaited
    return asyncio.run(transport.send_async(request, **kwargs))
