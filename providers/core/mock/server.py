"""A minimal HTTP/1.1 server on asyncio streams for ``toolchoice mock`` and ``toolchoice proxy``.

Keep-alive, Content-Length and chunked request bodies, ``Expect: 100-continue``; replies whole
(Content-Length) or streamed (chunked, one chunk per event, flushed as written; to an HTTP/1.0 client the
events unframed and the connection closed, as RFC 9112 section 7 asks). Every input is bounded by the
``mock_*`` limits (core/limits.py, docs/limits.md; ``Bounds``, read when a server is made): the head
(431), the body (413, before ``100 Continue`` when its Content-Length already says so), a request from its
first byte (a client sending a byte a second is answered 408), an idle keep-alive connection, an answer the
client does not read (per write), the connections open at once (past them a 503 and close). A framing error
(a negative or conflicting Content-Length, a bad chunk size) is a 400, never a silent close. A body of
``JUDGE_INLINE_BYTES`` or more is judged in a worker thread (at most ``mock_judge_threads`` at once), so one
large request does not stall the event loop and every other client with it. Every request answered gives one
record to ``on_record``; after ``max_requests`` records the server stops by itself; on stop, requests in flight
are cut and their tasks end quietly (no traceback on Ctrl-C).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import threading
from http import HTTPStatus
from pathlib import Path
from typing import Any, Awaitable, Callable, NamedTuple, TypeVar

from .. import limits
from ..error_keys import says_no_key
from ..errors import ToolchoiceError
from .deadline import within as _within
from .host_field import host_problem
from .script import Script, load_script
from .service import Exchange, MockService, Recorder, client_secrets
from .body_secrets import redacted

JUDGE_INLINE_BYTES = 64 * 1024  # a smaller body is judged on the event loop (a worker thread costs more than it)


class Bounds(NamedTuple):
    """What one client may hold of a mock or proxy server: the ``mock_*`` limits (core/limits.py)."""

    header_bytes: int
    body_bytes: int
    request_seconds: float  # one request, from its first byte to its last (slowloris)
    idle_seconds: float  # a keep-alive connection with no request under way
    write_seconds: float  # one write of the answer: a client that stopped reading is cut off
    connections: int  # open at once; the default is well under the process's file limit, so the server can answer
    judge_threads: int

    @classmethod
    def from_limits(cls) -> "Bounds":
        """The limits as set now (``TOOLCHOICE_LIMIT_MOCK_*``, else their defaults)."""
        return cls(limits.get("mock_header_bytes"), limits.get("mock_body_bytes"), limits.get("mock_request_seconds"),
                   limits.get("mock_idle_seconds"), limits.get("mock_write_seconds"), limits.get("mock_connections"),
                   limits.get("mock_judge_threads"))


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


async def read_request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                       bounds: Bounds | None = None) -> Request | None:
    """The next request on a connection; None when the client closed it, or left it idle ``idle_seconds``.
    Once its first byte came, the whole request must come within ``request_seconds`` (else a 408). One deadline,
    moved when the first byte comes (a timer per request, not two)."""
    bounds = bounds or Bounds.from_limits()
    started = False
    try:
        async with _within(bounds.idle_seconds) as deadline:
            first = await reader.read(1)
            if not first:
                return None
            started = True
            deadline.reschedule(asyncio.get_running_loop().time() + bounds.request_seconds)
            return await _read_rest(first, reader, writer, bounds)
    except asyncio.TimeoutError:
        if not started:
            return None
        raise BadRequest(408, f"the request did not arrive within {bounds.request_seconds:g} seconds") from None


async def _read_rest(first: bytes, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                     bounds: Bounds) -> Request:
    try:
        raw = first + await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        raise BadRequest(400, "incomplete request head") from None
    except asyncio.LimitOverrunError:
        raise BadRequest(431, f"request head larger than {limits.shown('mock_header_bytes', bounds.header_bytes)}; "
                              f"{limits.raise_hint('mock_header_bytes')}") from None
    lines = raw.decode("latin-1").split("\r\n")
    try:
        method, target, version = lines[0].split(" ", 2)
    except ValueError:
        raise BadRequest(400, "malformed request line") from None
    if not _VERSION.fullmatch(version) or target != "*" and not target.lower().startswith(_TARGET_STARTS):
        raise BadRequest(400, "malformed request line")  # RFC 9112 3.2: a path, a URL (or OPTIONS' *), nothing else
    if version not in ("HTTP/1.0", "HTTP/1.1"):
        raise BadRequest(505, f"{version} is not supported: send HTTP/1.1")
    headers: dict[str, str] = {}
    for line in filter(None, lines[1:]):
        name, colon, value = line.partition(":")
        if not colon or not _FIELD_NAME.fullmatch(name):  # RFC 9112 5.1, 5.2; the line unquoted (a key may be in it)
            raise BadRequest(400, "a header line that is not name: value (RFC 9112 5.1, 5.2: obs-fold is refused)")
        name, value = name.lower(), value.strip(" \t")  # OWS is spaces and tabs only (RFC 9110 5.6.3)
        if name == "content-length" and headers.get(name, value) != value:  # RFC 9112 6.3: a smuggling attempt
            raise BadRequest(400, "conflicting Content-Length headers")
        if name in headers and name != "content-length":  # RFC 9110 5.3: a field sent twice is one, comma-joined
            value = f"{headers[name]}, {value}"  # (two anthropic-version headers: the API's 400 names both)
        headers[name] = value
    chunked = "transfer-encoding" in headers
    if chunked:
        codings = [c.strip().lower() for c in headers["transfer-encoding"].split(",") if c.strip()]
        if codings.count("chunked") > 1 or codings[-1:] != ["chunked"] and "chunked" in codings:  # RFC 9112 6.1, 6.3
            raise BadRequest(400, "Transfer-Encoding: chunked must be given once, as the last coding "
                                  f"(given: {', '.join(codings)[:200]})")
        if codings != ["chunked"]:
            raise BadRequest(501, "Transfer-Encoding other than chunked is not supported")
    else:
        length_text = headers.get("content-length", "0")
        if not (length_text.isascii() and length_text.isdigit()):
            raise BadRequest(400, "bad Content-Length")
        if len(length_text) > 12 or int(length_text) > bounds.body_bytes:  # before 100 Continue (RFC 9110 10.1.1)
            raise BadRequest(413, _too_large(bounds))
    wrong_host = host_problem(lines[1:], version)  # RFC 9112 3.2: one Host line, none only on HTTP/1.0
    if headers.get("expect", "").lower() == "100-continue":
        if wrong_host:  # the client holds its body back until 100 Continue: nothing to read before the 400
            raise BadRequest(400, wrong_host)
        writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    try:
        body = await (_chunked_body(reader, bounds) if chunked else reader.readexactly(int(length_text)))
    except asyncio.IncompleteReadError:
        raise BadRequest(400, "the body ended before its Content-Length") from None
    if wrong_host:  # after its body, read whole: a close with bytes unread could reset the 400 away
        raise BadRequest(400, wrong_host)
    return Request(method, target, headers, body, version, reader)


def _too_large(bounds: Bounds) -> str:
    return (f"request body larger than {limits.shown('mock_body_bytes', bounds.body_bytes)}; "
            f"{limits.raise_hint('mock_body_bytes')}")


_VERSION, _FIELD_NAME = re.compile(r"HTTP/\d\.\d"), re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # a token
_HEX = re.compile(rb"[0-9A-Fa-f]{1,16}")
_TARGET_STARTS = ("/", "http://", "https://")  # origin-form, absolute-form: "@host/..." appended to an upstream
MAX_TRAILERS = 64


async def _chunked_body(reader: asyncio.StreamReader, bounds: Bounds) -> bytes:
    """A chunked body (RFC 9112 7.1): sizes in hex, each chunk's CRLF checked, trailer lines read and dropped."""
    body = bytearray()
    try:
        while True:
            size_text = (await reader.readuntil(b"\r\n"))[:-2].split(b";", 1)[0].strip()
            if not _HEX.fullmatch(size_text):
                raise BadRequest(400, "bad chunk size in a chunked body")
            size = int(size_text, 16)
            if size == 0:
                break
            if len(body) + size > bounds.body_bytes:
                raise BadRequest(413, _too_large(bounds))
            body += await reader.readexactly(size)
            if await reader.readexactly(2) != b"\r\n":
                raise BadRequest(400, "a chunk of a chunked body does not end where its size says")
        for _ in range(MAX_TRAILERS):
            if await reader.readuntil(b"\r\n") == b"\r\n":
                return bytes(body)
        raise BadRequest(431, f"more than {MAX_TRAILERS} trailer lines")
    except asyncio.IncompleteReadError:
        raise BadRequest(400, "the chunked body ended before its last chunk") from None
    except asyncio.LimitOverrunError:
        raise BadRequest(400, "a chunk size or trailer line longer than 64 KiB") from None


async def drained(writer: asyncio.StreamWriter) -> None:
    """``writer.drain()`` within ``mock_write_seconds``: a client that stopped reading is cut off
    (ConnectionResetError), so it holds no connection and no answer in memory for ever. Nothing left in the
    transport's buffer (the kernel took it all, the common case): no wait, so no timer."""
    if not writer.transport.get_write_buffer_size():
        await writer.drain()  # returns at once (raises if the connection was lost)
        return
    try:
        async with _within(limits.get("mock_write_seconds")):
            await writer.drain()
    except asyncio.TimeoutError:
        writer.transport.abort()
        raise ConnectionResetError("the client did not read the answer") from None


# a coroutine that writes the answer and returns (the record, or None when it emitted it already; keep-alive)
Handler = Callable[[Request, asyncio.StreamWriter], Awaitable[tuple[dict[str, Any] | None, bool]]]


class Server:
    """Serves ``handler`` (a coroutine that writes the answer and returns (record, keep_alive))."""

    def __init__(self, handler: Handler, *, host: str = "127.0.0.1", port: int = 0, max_requests: int | None = None,
                 on_record: Recorder | None = None, bad_request: Callable[[int, str], tuple[bytes, dict[str, str]]]
                 | None = None, bounds: Bounds | None = None) -> None:
        self.handler, self.host, self.port = handler, host, port
        self.bounds = bounds or Bounds.from_limits()
        self.max_requests = max_requests
        self.on_record = on_record
        self.bad_request = bad_request
        self.records = 0
        self.done: asyncio.Event | None = None
        self._server: asyncio.AbstractServer | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        if hasattr(handler, "emit"):
            handler.emit = self.emit  # type: ignore[attr-defined]
        judges = getattr(handler, "judges", None)
        if isinstance(judges, Judges):
            judges.threads = self.bounds.judge_threads

    async def start(self) -> int:
        self.done = asyncio.Event()
        self._server = await asyncio.start_server(self._connection, self.host, self.port,  # kept before it serves:
                                                  limit=self.bounds.header_bytes, start_serving=False)  # a start
        self.port = self._server.sockets[0].getsockname()[1]  # cancelled (running_mock's wait) leaves no socket open
        await self._server.start_serving()
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
        tasks = list(self._tasks)  # requests in flight (a scripted delay, a slow client): cut, ended quietly
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=2)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 2)
        judges = getattr(self.handler, "judges", None)
        if isinstance(judges, Judges):
            judges.close()
        closing = getattr(self.handler, "aclose", None)  # the proxy's upstream client
        if closing is not None:
            with contextlib.suppress(Exception):
                await closing()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            if len(self._writers) >= self.bounds.connections:
                await self._refuse(writer, 503, f"more than {self.bounds.connections} connections are open: close "
                                                "some and try again")
                return
            self._writers.add(writer)
            while self.done is not None and not self.done.is_set():
                try:
                    request = await read_request(reader, writer, self.bounds)
                except BadRequest as exc:
                    await self._refuse(writer, exc.status, str(exc))
                    return
                if request is None:
                    return
                line, keep = await self.handler(request, writer)
                if line is not None:
                    self.emit(line)
                self._count()
                if not keep or not keeps_alive(request):
                    return
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.TimeoutError, asyncio.LimitOverrunError,
                ValueError):
            return
        except asyncio.CancelledError:  # the server stops: this connection's task ends, not as cancelled (an
            return                      # asyncio stream callback would print the CancelledError's traceback)
        finally:
            self._writers.discard(writer)
            if task is not None:
                self._tasks.discard(task)
            with contextlib.suppress(Exception):
                writer.close()

    async def _refuse(self, writer: asyncio.StreamWriter, status: int, message: str) -> None:
        """Answer ``status`` in the provider's error envelope and close (a request the server cannot read)."""
        body, headers = self.bad_request(status, message) if self.bad_request else (b"", {})
        writer.write(head(status, {**headers, "content-length": str(len(body)), "connection": "close"}) + body)
        await drained(writer)

    def emit(self, line: dict[str, Any]) -> None:
        """Hand one request's record on (a handler may emit it before its answer is written)."""
        if self.on_record is not None:
            self.on_record(line)

    def _count(self) -> None:
        self.records += 1
        if self.max_requests is not None and self.records >= self.max_requests:
            self.stop()


def keeps_alive(request: Request) -> bool:
    """Whether the connection stays open after the answer: HTTP/1.1 unless ``Connection: close``; HTTP/1.0 only
    with ``Connection: keep-alive`` (RFC 9112 9.3)."""
    tokens = {t.strip().lower() for t in request.headers.get("connection", "").split(",")}
    if request.version == "HTTP/1.0":
        return "keep-alive" in tokens
    return "close" not in tokens


async def write_exchange(writer: asyncio.StreamWriter, exchange: Exchange, request: Request | None = None) -> bool:
    """Write a mock answer; False when the connection must close (script cut_after; a stream to an HTTP/1.0
    client, which has no chunked framing: the events go unframed and the close ends them)."""
    if exchange.delay:
        await asyncio.sleep(exchange.delay)
    headers = dict(exchange.headers)
    old = request is not None and request.version == "HTTP/1.0"
    if old and exchange.chunks is None and keeps_alive(request):  # type: ignore[arg-type]
        headers["connection"] = "keep-alive"
    if exchange.chunks is None:
        body = exchange.body or b""
        headers["content-length"] = str(len(body))
        if exchange.cut_after is not None:
            writer.write(head(exchange.status, headers) + body[: len(body) // 2])
            await drained(writer)
            writer.transport.abort()
            return False
        writer.write(head(exchange.status, headers) + body)
        await drained(writer)
        return True
    if old:
        headers["connection"] = "close"
    else:
        headers["transfer-encoding"] = "chunked"
    headers["cache-control"] = "no-cache"
    writer.write(head(exchange.status, headers))
    for index, chunk in enumerate(exchange.chunks):
        if exchange.cut_after is not None and index >= exchange.cut_after:
            await drained(writer)
            writer.transport.abort()
            return False
        writer.write(chunk if old else b"%x\r\n%s\r\n" % (len(chunk), chunk))
        await drained(writer)
    if old:
        return False
    writer.write(b"0\r\n\r\n")
    await drained(writer)
    return True


_T = TypeVar("_T")


class Judges:
    """Where a request body is read and judged: on the event loop under ``JUDGE_INLINE_BYTES``, else in a worker
    thread (at most ``threads`` at once, made when the first large body comes). Reading and judging 32 MiB takes
    a second or more of CPU: on the event loop every other client would wait that long."""

    def __init__(self) -> None:
        self.threads = 2  # set by Server (Bounds.judge_threads)
        self._pool: Any = None

    async def run(self, size: int, work: Callable[..., _T], *args: Any) -> _T:
        if size < JUDGE_INLINE_BYTES:
            return work(*args)
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="toolchoice-judge")
        return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)

    def close(self) -> None:
        """The threads end once the judging under way ends (the server stopped: nothing waits for it)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class MockHandler:
    """``Server`` handler for ``toolchoice mock``: MockService answers; ``save`` keeps each exchange."""

    def __init__(self, service: MockService, save_dir: Path | None = None) -> None:
        self.service = service
        self.save_dir = save_dir
        self.emit: Recorder = lambda line: None  # set by Server
        self.judges = Judges()

    async def __call__(self, request: Request, writer: asyncio.StreamWriter) -> tuple[dict[str, Any] | None, bool]:
        exchange = await self.judges.run(len(request.body), self.service.handle, request.method, request.target,
                                         request.headers, request.body)
        keys = client_secrets(request.headers, request.target)
        # a key the client also put in the URL's path (the line names the path; the proxy's lines are redacted so),
        # a key's shape in a path no route takes (its 404 line): every line is redacted here too
        record = redacted(exchange.record, keys, exchange.found)
        self.emit(record)  # the line is out when the client reads the answer
        if self.save_dir is not None:  # and so are the saved files: a client reading the folder once answered finds
            from .saving import save_exchange  # them whole (they were written after the answer, racing it)

            save_exchange(self.save_dir, record["n"], request, exchange.status,
                          exchange.body if exchange.chunks is None else b"".join(exchange.chunks),
                          self.service.framing if exchange.chunks is not None else None, record,
                          {**keys, **exchange.secrets}, getattr(self.service.module, "MOCK_SECRETS", ()),
                          exchange.found)
        return None, await write_exchange(writer, exchange, request)


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
            mock.wait_for(2)  # the first two, waited for: a proxy's line follows its answer

    ``wait``: the seconds ``with`` waits for the server to listen (10); past them it raises, and no thread or socket
    is left. A port or host it cannot listen on raises ``call_args.cannot_listen_on``'s error, naming the argument.
    """

    def __init__(self, server: Server, module: Any, save_dir: Path | None = None) -> None:
        self.server = server
        self.module = module
        self.save_dir = save_dir
        self.records: list[dict[str, Any]] = []
        self._arrived = threading.Condition()  # a record kept: wait_for looks again
        self.base_url = ""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._on_record, self._entered = server.on_record, False  # the caller's recorder, each entry wraps; entered?
        self.wait = 10.0  # seconds the server has to start listening in: past them, __enter__ raises

    @says_no_key  # the listen error quotes the host, where a key may have been pasted
    def __enter__(self) -> "Running":
        if self._thread is not None and self._thread.is_alive():  # its state is the running server's: keep it
            raise ToolchoiceError(f"this mock is already running at {self.base_url}",
                                  hint="use it inside its with block, or make another with running_mock()")
        if self.save_dir is not None:  # made and locked as `toolchoice mock --save DIR` does, until the block ends;
            from ..save import lock_folder, prepare_save_dir  # entered again, it goes on numbering: its files stay

            lock_folder(self.save_dir, "save_dir") if self._entered and self.save_dir.is_dir() else \
                prepare_save_dir(self.save_dir, "save_dir")
        self._entered = True
        started = threading.Event()
        previous = self._on_record  # (a second `with` wrapped the first's wrapper: each record was kept twice)

        def keep(line: dict[str, Any]) -> None:
            with self._arrived:
                self.records.append(line)
                self._arrived.notify_all()
            if previous is not None:
                previous(line)

        self.server.on_record = keep
        self._error, self._loop = None, asyncio.new_event_loop()  # an earlier start's error is not this one's
        loop = self._loop

        async def main() -> None:
            try:
                await self.server.start()
            except OSError as exc:  # a port taken, a host that does not resolve: the argument to change, named
                from ..call_args import cannot_listen_on

                raise cannot_listen_on(self.server.host, self.server.port, exc) from None
            self.base_url = base_url(self.module, self.server.host, self.server.port)
            started.set()
            await self.server.serve()

        task = loop.create_task(main())

        def run() -> None:
            try:
                loop.run_until_complete(task)
            except BaseException as exc:  # noqa: BLE001 - surfaced in __enter__ (a start given up on: cancelled)
                self._error = exc
            finally:  # the socket of a start given up on, the resolver's worker thread (a host to look up): none left
                if self.server._server is not None:
                    self.server._server.close()
                loop.run_until_complete(loop.shutdown_default_executor())
                loop.close()
                started.set()

        self._thread = threading.Thread(target=run, name="toolchoice-mock", daemon=True)
        self._thread.start()
        if not started.wait(self.wait):  # not listening yet (a host whose lookup hangs): given up, not left serving
            with contextlib.suppress(RuntimeError):  # its loop ended meanwhile (the start failed)
                loop.call_soon_threadsafe(task.cancel)
            self._thread.join(10)
            if not isinstance(self._error, Exception):  # cancelled (or started by a hair, then cancelled)
                self._error = ToolchoiceError(
                    f"the mock did not start listening on {self.server.host}:{self.server.port} within {self.wait:g} s",
                    hint='a host name may take that long to look up: give an address (host="127.0.0.1"), or set a '
                         "longer wait (running_mock(...).wait, in seconds) before the with block")
        if self._error is not None:
            self._thread.join(10)  # its loop closed: no thread is left behind the error
            self._unlock()
            raise self._error
        return self

    def wait_for(self, count: int, seconds: float = 5.0) -> list[dict[str, Any]]:
        """The records once ``count`` are kept, or those kept when ``seconds`` have passed: a proxy writes its line
        after the answer (the line holds the reply), so a client holding its reply may look before the line is kept."""
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.records) >= count, timeout=seconds)
            return list(self.records)

    def __exit__(self, *exc: Any) -> None:
        if self._loop is not None and self._thread is not None and self._thread.is_alive():
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self.server.stop)
            self._thread.join(10)
        self._unlock()

    def _unlock(self) -> None:
        if self.save_dir is not None:
            from ..save import unlock_folder

            unlock_folder(self.save_dir)


@says_no_key
def running_mock(provider: str, *, script: Script | str | os.PathLike[str] | None = None,
                 save_dir: str | os.PathLike[str] | None = None, host: str = "127.0.0.1", port: int = 0,
                 max_requests: int | None = None) -> Running:
    from ..call_args import folder, listen_args, wrong

    listen_args(host, port, max_requests)
    save_dir = folder(save_dir, "save_dir")
    if isinstance(script, (str, os.PathLike)):  # a path, as `toolchoice mock --script FILE` takes it
        script = load_script(script)
    elif script is not None and not isinstance(script, Script):
        raise wrong("script", "a script (load_script(path)) or its path", script)
    service = MockService(provider, script)
    server = Server(MockHandler(service, save_dir), host=host, port=port, max_requests=max_requests,
                    bad_request=service.error)
    return Running(server, service.module, save_dir)


def cannot_listen(server: Server, exc: OSError, hint: str) -> Exception:
    """The one-line error for a server that could not start listening (the command line's: running_mock's names
    the argument to change, ``call_args.cannot_listen_on``)."""
    return ToolchoiceError(f"cannot listen on {server.host}:{server.port}: {exc.strerror or exc}", hint=hint)


class Served:
    """What a ``serve_mock`` / ``serve_proxy`` run did: requests answered, refused (mock) and the base URL; the proxy's
    lines by verdict (``verdicts``: "" for a line without one, an error or a request not judged), and the requests
    the stop cut short (no line), so the tally adds up to the requests."""

    __slots__ = ("url", "requests", "refused", "what", "verdicts")

    def __init__(self, url: str, requests: int, refused: int, what: str) -> None:
        self.url, self.requests, self.refused, self.what = url, requests, refused, what
        self.verdicts: dict[str, int] = {}

    def line(self) -> str:
        requests = f"{self.requests} request{'' if self.requests == 1 else 's'}"
        if self.what == "proxy":  # did the model obey at every step: the tally of the lines, obeyed first
            tally = sorted(self.verdicts.items(), key=lambda kv: (kv[0] != "obeyed", kv[0] == "", kv[0]))
            said = ", ".join(f"{n} {verdict or 'without a verdict'}" for verdict, n in tally)
            cut = self.requests - sum(self.verdicts.values())  # on their way when it stopped: no line judges them
            said += (", " if said and cut > 0 else "") + (f"{cut} cut short by the stop" if cut > 0 else "")
            return f"toolchoice proxy: stopped after {requests} proxied" + (f": {said}" if said else "")
        return f"toolchoice mock: stopped after {requests}, {self.refused} refused"


def serve(server: Server, module: Any, *, what: str, counts: Any, on_url: Callable[[str], None]) -> Served:
    """Run ``server`` in this thread until ``max_requests``, SIGINT or SIGTERM (both end it cleanly);
    ``on_url`` gets the base URL once it listens. A port that cannot be bound is a ToolchoiceError."""
    import signal

    url = ""
    # the handlers there before (the console script maps SIGTERM to Ctrl-C's): put back when the loop's go, so a
    # second signal while the summary is written is still Ctrl-C's, never the default action's kill (exit -15)
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

    async def main() -> None:
        nonlocal url
        try:
            await server.start()
        except OSError as exc:
            raise cannot_listen(server, exc, "choose another --port, or --port 0 for a free one") from None
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
                if before[sig] is not None:
                    signal.signal(sig, before[sig])

    try:
        asyncio.run(main())
    except KeyboardInterrupt:  # SIGINT / SIGTERM before the loop's handlers were set: stopped before serving
        pass
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

