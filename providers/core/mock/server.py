"""A minimal HTTP/1.1 server on asyncio streams for ``toolchoice mock`` and ``toolchoice proxy``.

Keep-alive, Content-Length and chunked request bodies, ``Expect: 100-continue``; replies whole
(Content-Length) or streamed (chunked, one chunk per event, flushed as written). Bounded: headers
64 KiB, bodies ``MAX_BODY``. Every request answered gives one record to ``on_record``; after
``max_requests`` records the server stops by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from http import HTTPStatus
from pathlib import Path
from typing import Any, Awaitable, Callable

from .service import MAX_BODY, Exchange, MockService, Recorder, client_secrets

MAX_HEADER = 64 * 1024
IDLE_SECONDS = 300.0
_timeout = getattr(asyncio, "timeout", None)


class Request:
    __slots__ = ("method", "target", "headers", "body", "version", "reader")

    def __init__(self, method: str, target: str, headers: dict[str, str], body: bytes, version: str,
                 reader: asyncio.StreamReader | None = None) -> None:
        self.method, self.target, self.headers, self.body, self.version = method, target, headers, body, version
        self.reader = reader  # the connection it came on (the proxy watches it for a client that leaves)


class BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Status"


def head(status: int, headers: dict[str, str]) -> bytes:
    lines = [f"HTTP/1.1 {status} {reason(status)}"] + [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def read_request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> Request | None:
    try:
        raw = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as exc:
        if exc.partial.strip():
            raise BadRequest(400, "incomplete request head") from None
        return None
    except asyncio.LimitOverrunError:
        raise BadRequest(431, "request head larger than 64 KiB") from None
    lines = raw.decode("latin-1").split("\r\n")
    try:
        method, target, version = lines[0].split(" ", 2)
    except ValueError:
        raise BadRequest(400, "malformed request line") from None
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("expect", "").lower() == "100-continue":
        writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = bytearray()
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                break
            if len(body) + size > MAX_BODY:
                raise BadRequest(413, "request body too large")
            body += await reader.readexactly(size)
            await reader.readexactly(2)
        return Request(method, target, headers, bytes(body), version, reader)
    try:
        length = int(headers.get("content-length", "0"))
    except ValueError:
        raise BadRequest(400, "bad Content-Length") from None
    if length > MAX_BODY:
        raise BadRequest(413, "request body too large")
    body_bytes = await reader.readexactly(length) if length else b""
    return Request(method, target, headers, body_bytes, version, reader)


# a coroutine that writes the answer and returns (the record, or None when it emitted it already; keep-alive)
Handler = Callable[[Request, asyncio.StreamWriter], Awaitable[tuple[dict[str, Any] | None, bool]]]


class Server:
    """Serves ``handler`` (a coroutine that writes the answer and returns (record, keep_alive))."""

    def __init__(self, handler: Handler, *, host: str = "127.0.0.1", port: int = 0, max_requests: int | None = None,
                 on_record: Recorder | None = None, bad_request: Callable[[int, str], tuple[bytes, dict[str, str]]]
                 | None = None) -> None:
        self.handler, self.host, self.port = handler, host, port
        self.max_requests = max_requests
        self.on_record = on_record
        self.bad_request = bad_request
        self.records = 0
        self.done: asyncio.Event | None = None
        self._server: asyncio.AbstractServer | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        if hasattr(handler, "emit"):
            handler.emit = self.emit  # type: ignore[attr-defined]

    async def start(self) -> int:
        self.done = asyncio.Event()
        self._server = await asyncio.start_server(self._connection, self.host, self.port, limit=MAX_HEADER)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    def stop(self) -> None:
        if self.done is not None:
            self.done.set()

    async def serve(self) -> None:
        assert self.done is not None and self._server is not None
        await self.done.wait()
        self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        # a request still on its way (a proxied answer the upstream is slow to give) ends here, quietly
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=2)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 2)
        closing = getattr(self.handler, "aclose", None)
        if closing is not None:
            with contextlib.suppress(Exception):
                await closing()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            while self.done is not None and not self.done.is_set():
                try:
                    if _timeout is not None:  # 3.11+: no task per request (wait_for wraps the read in one)
                        async with _timeout(IDLE_SECONDS):
                            request = await read_request(reader, writer)
                    else:
                        request = await asyncio.wait_for(read_request(reader, writer), IDLE_SECONDS)
                except BadRequest as exc:
                    body, headers = self.bad_request(exc.status, str(exc)) if self.bad_request else (b"", {})
                    writer.write(head(exc.status, {**headers, "content-length": str(len(body)), "connection": "close"})
                                 + body)
                    await writer.drain()
                    return
                if request is None:
                    return
                line, keep = await self.handler(request, writer)
                if line is not None:
                    self.emit(line)
                self._count()
                if not keep or request.headers.get("connection", "").lower() == "close":
                    return
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError, asyncio.LimitOverrunError,
                ValueError):
            return
        except asyncio.CancelledError:
            if self.done is None or not self.done.is_set():
                raise
            return  # the server stops: cancelled on purpose (serve)
        finally:
            if task is not None:
                self._tasks.discard(task)
            self._writers.discard(writer)
            with contextlib.suppress(Exception):
                writer.close()

    def emit(self, line: dict[str, Any]) -> None:
        """Hand one request's record on (a handler may emit it before its answer is written)."""
        if self.on_record is not None:
            self.on_record(line)

    def _count(self) -> None:
        self.records += 1
        if self.max_requests is not None and self.records >= self.max_requests:
            self.stop()


async def write_exchange(writer: asyncio.StreamWriter, exchange: Exchange) -> bool:
    """Write a mock answer; False when the connection was cut on purpose (script cut_after)."""
    if exchange.delay:
        await asyncio.sleep(exchange.delay)
    headers = dict(exchange.headers)
    if exchange.chunks is None:
        body = exchange.body or b""
        headers["content-length"] = str(len(body))
        if exchange.cut_after is not None:
            writer.write(head(exchange.status, headers) + body[: len(body) // 2])
            await writer.drain()
            writer.transport.abort()
            return False
        writer.write(head(exchange.status, headers) + body)
        await writer.drain()
        return True
    headers["transfer-encoding"] = "chunked"
    headers["cache-control"] = "no-cache"
    writer.write(head(exchange.status, headers))
    for index, chunk in enumerate(exchange.chunks):
        if exchange.cut_after is not None and index >= exchange.cut_after:
            await writer.drain()
            writer.transport.abort()
            return False
        writer.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        await writer.drain()
    writer.write(b"0\r\n\r\n")
    await writer.drain()
    return True


class MockHandler:
    """``Server`` handler for ``toolchoice mock``: MockService answers; ``save`` keeps each exchange."""

    def __init__(self, service: MockService, save_dir: Path | None = None) -> None:
        self.service = service
        self.save_dir = save_dir
        self.emit: Recorder = lambda line: None  # set by Server

    async def __call__(self, request: Request, writer: asyncio.StreamWriter) -> tuple[dict[str, Any] | None, bool]:
        exchange = self.service.handle(request.method, request.target, request.headers, request.body)
        self.emit(exchange.record)  # the line is out when the client reads the answer
        keep = await write_exchange(writer, exchange)
        if self.save_dir is not None:
            from .saving import save_exchange

            save_exchange(self.save_dir, exchange.record["n"], request, exchange.status,
                          exchange.body if exchange.chunks is None else b"".join(exchange.chunks),
                          self.service.framing if exchange.chunks is not None else None, exchange.record,
                          {**client_secrets(request.headers, request.target), **exchange.secrets},
                          getattr(self.service.module, "MOCK_SECRETS", ()))
        return None, keep


def base_url(module: Any, host: str, port: int) -> str:
    """The base URL the provider's official SDK takes for a server at host:port."""
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    return f"http://{shown}:{port}{getattr(module, 'MOCK_BASE_PATH', '')}"


class Running:
    """A mock (or proxy) served on a thread of its own, for tests and library users:

        with running_mock("openai") as mock:
            OpenAI(base_url=mock.base_url, api_key="x") ...
            mock.records  # the jsonl lines so far
    """

    def __init__(self, server: Server, module: Any) -> None:
        self.server = server
        self.module = module
        self.records: list[dict[str, Any]] = []
        self.base_url = ""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def __enter__(self) -> "Running":
        started = threading.Event()
        previous = self.server.on_record

        def keep(line: dict[str, Any]) -> None:
            self.records.append(line)
            if previous is not None:
                previous(line)

        self.server.on_record = keep

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self.server.start())
                self.base_url = base_url(self.module, self.server.host, self.server.port)
                started.set()
                loop.run_until_complete(self.server.serve())
            except BaseException as exc:  # noqa: BLE001 - surfaced in __enter__
                self._error = exc
                started.set()
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name="toolchoice-mock", daemon=True)
        self._thread.start()
        started.wait(10)
        if self._error is not None:
            raise self._error
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._loop is not None and self._thread is not None and self._thread.is_alive():
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self.server.stop)
            self._thread.join(10)


def running_mock(provider: str, *, script: Any = None, save_dir: Path | None = None, host: str = "127.0.0.1",
                 port: int = 0, max_requests: int | None = None) -> Running:
    service = MockService(provider, script)
    server = Server(MockHandler(service, save_dir), host=host, port=port, max_requests=max_requests,
                    bad_request=service.error)
    return Running(server, service.module)



class Served:
    """What a ``serve_mock`` / ``serve_proxy`` run did: requests answered, refused (mock) and the base URL."""

    __slots__ = ("url", "requests", "refused", "what")

    def __init__(self, url: str, requests: int, refused: int, what: str) -> None:
        self.url, self.requests, self.refused, self.what = url, requests, refused, what

    def line(self) -> str:
        requests = f"{self.requests} request{'' if self.requests == 1 else 's'}"
        if self.what == "proxy":
            return f"toolchoice proxy: stopped after {requests} proxied"
        return f"toolchoice mock: stopped after {requests}, {self.refused} refused"


def serve(server: Server, module: Any, *, what: str, counts: Any, on_url: Callable[[str], None]) -> Served:
    """Run ``server`` in this thread until ``max_requests``, SIGINT or SIGTERM (both end it cleanly);
    ``on_url`` gets the base URL once it listens. A port that cannot be bound is a ToolchoiceError."""
    import signal

    from ..model import ToolchoiceError

    url = ""

    async def main() -> None:
        nonlocal url
        try:
            await server.start()
        except OSError as exc:
            raise ToolchoiceError(f"cannot listen on {server.host}:{server.port}: {exc.strerror or exc}",
                                  hint="choose another --port, or --port 0 for a free one") from None
        loop = asyncio.get_running_loop()
        handled = []
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, server.stop)
                handled.append(sig)
            except (NotImplementedError, RuntimeError, ValueError):  # not the main thread (in-process callers)
                pass
        url = base_url(module, server.host, server.port)
        on_url(url)
        try:
            await server.serve()
        finally:
            for sig in handled:
                loop.remove_signal_handler(sig)

    asyncio.run(main())
    requests, refused = counts()
    return Served(url, requests, refused, what)


def serve_mock(provider: str, *, script: Any = None, host: str = "127.0.0.1", port: int = 0,
               save_dir: Path | None = None, max_requests: int | None = None, on_url: Callable[[str], None],
               on_record: Recorder) -> Served:
    """``toolchoice mock`` as a library call: the provider's API until stopped (``serve``)."""
    service = MockService(provider, script)
    server = Server(MockHandler(service, save_dir), host=host, port=port, max_requests=max_requests,
                    on_record=on_record, bad_request=service.error)
    return serve(server, service.module, what="mock", counts=lambda: (service.count, service.refused), on_url=on_url)

