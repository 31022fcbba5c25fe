"""List a live MCP server's tools with the official MCP Python SDK (the optional extra ``toolchoice[mcp]``).

Imported only when a scenario or `toolchoice tools` names an MCP source. A stdio server is started as
a subprocess behind ``mcp_relay`` (which bounds its answers by ``mcp_reply_bytes``) and always stopped
(the SDK's ``stdio_client`` closes stdin, then terminates the process tree); everything runs under one
deadline, so a server that hangs, crashes or answers nonsense ends
in a one-line ToolchoiceError in bounded time. Header values may name environment variables
(``$TOKEN``, ``${TOKEN}``); their values are never printed.

SDK facts (mcp 2.x, modelcontextprotocol/python-sdk): ``mcp.Client`` takes a ``StdioServerParameters``
or a transport such as ``streamable_http_client(url, http_client=...)`` and negotiates the protocol
on entry; ``Client.list_tools(cursor=...)`` returns a ``ListToolsResult`` (``tools``, ``next_cursor``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping

from .bounded import cut
from .key_looks import LITERAL_PLACEHOLDER as HIDDEN
from .model import ToolchoiceError

INSTALL_HINT = "pip install 'toolchoice[mcp]'"
MAX_PAGES = 100  # a server that keeps answering with a next cursor is cut off here


ECHOED = "_toolchoice_echoed"  # the placeholders of header values the server wrote back into its listing


def _sdk() -> Any:
    try:
        import mcp
    except ImportError:
        raise ToolchoiceError("importing tools from an MCP server needs the MCP Python SDK",
                              hint=INSTALL_HINT) from None
    if not hasattr(mcp, "Client"):
        raise ToolchoiceError(f"the installed MCP SDK is too old (mcp {_version()}; toolchoice needs mcp 2)",
                              hint=INSTALL_HINT) from None
    return mcp


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mcp")
    except PackageNotFoundError:
        return "unknown"


def list_tools_stdio(command: str, *, timeout: float, cwd: Path | None = None,
                     env: Mapping[str, str] | None = None, started: float | None = None) -> dict[str, Any]:
    """``tools/list`` of a stdio server started with ``command`` (a command line, split like a shell), with
    ``env`` over the SDK's default environment. ``$NAME`` / ``${NAME}`` in an argument of the command or a value
    of ``env`` is read from the environment after the split (a value is one argument, never more); messages
    name the command as written, with the values of its secret-named parts hidden (``command_shown``: a token
    on a command line need not look like a key), and every value read or hidden is redacted from them."""
    started = time.monotonic() if started is None else started  # the deadline covers the SDK's import too
    from .command_shown import (LONG_COMMAND_HINT, command_secrets, hide_echoes, hide_echoes_data, long_command,
                                env_secrets, secret_name, shown_command, split_command)

    if long_command(command):  # not shown: its secrets are found by splitting it
        raise ToolchoiceError(f"mcp: {long_command(command)}", hint=LONG_COMMAND_HINT)
    known = env_secrets(env)  # a secret the server is handed is hidden on its command line too, as it stands
    who = f"mcp: {shown_command(command, known)}"
    try:
        argv = list(split_command(command))
    except ValueError as exc:
        raise ToolchoiceError(f"{who}: cannot split the command line: {exc}", hint="check the quotes") from None
    if not argv:
        raise ToolchoiceError(f"{who}: the command is empty")
    secrets: dict[str, str] = {}
    argv = [resolve_env(arg, who, "the command", secrets) for arg in argv]
    # what the server echoes of its command line (a stderr line, a description) keeps them hidden too
    secrets.update({value: HIDDEN for value in command_secrets(argv, known) if value not in secrets})
    extra = {name: resolve_env(value, who, f"env {name}", secrets) for name, value in (env or {}).items()}
    secrets.update({value: HIDDEN for name, value in extra.items()  # env: {API_KEY: text}: echoed, never shown
                    if value not in secrets and secret_name(name) and value != HIDDEN})
    program = argv[0]
    found = shutil.which(program, path=os.environ.get("PATH")) if os.sep not in program else (
        program if os.access(Path(cwd or ".") / program, os.X_OK) else None)
    if found is None:
        raise ToolchoiceError(f"{who}: no such command: {program}", hint="check the command, or give its full path")
    mcp = _sdk()
    from mcp.client.stdio import stdio_client

    import sys

    from . import limits, mcp_relay

    from .mcp_twice import Channel

    errlog = _StderrTail()
    before = _children()
    channel = Channel(limits.get("mcp_reply_bytes"))  # the keys the relay finds named twice (mcp_twice)
    # the server runs behind mcp_relay, which passes at most mcp_reply_bytes of its stdout on to the SDK, and stops
    # the server's process group at the deadline (the SDK's own stop then waited ~4-8 s more)
    found = [mcp_relay.TWICE + channel.path, mcp_relay.DEPTH + str(limits.get("json_depth"))] if channel.path else []
    relay = [sys.executable, "-I", "-S", mcp_relay.__file__, *found, str(limits.get("mcp_reply_bytes")),
             str(limits.get("tools")), repr(float(timeout)), program]
    params = mcp.StdioServerParameters(command=relay[0], args=[*relay[1:], *argv[1:]], cwd=str(cwd) if cwd else None,
                                       env=extra or None)
    try:
        done: dict[str, Any] = {}
        listing = _run(lambda: _listing(mcp.Client(stdio_client(params, errlog=errlog.file)), done=done, who=who),
                       who, timeout, secrets, done, channel.keys, started)
        short = [value for value, shown in secrets.items() if shown == HIDDEN]  # those the Redactor leaves
        hidden = hide_echoes_data(listing, short) if short else listing
        if hidden != listing:
            hidden[ECHOED] = sorted({*hidden.get(ECHOED, ()), HIDDEN})
        return hidden
    except ToolchoiceError as exc:
        errlog.close()  # the server stopped: its lines are all there once our end is closed (not 0.2 s a look)
        last = errlog.last_line()
        if errlog.holds(mcp_relay.OVER):
            raise ToolchoiceError(limits.refusal(f"{who}: the server's answers", "mcp_reply_bytes")) from None
        if errlog.holds(mcp_relay.OVER_TOOLS):
            raise _too_many_tools(who) from None
        if errlog.holds(mcp_relay.NOT_UTF8):  # the SDK's strict reader waited for the server's EOF until the deadline
            raise ToolchoiceError(f"{who}: the server wrote bytes that are not UTF-8 on stdout (MCP's stdio "
                                  "messages are UTF-8 JSON-RPC)", hint="check what the server prints") from None
        short = [value for value, shown in secrets.items() if shown == HIDDEN]
        if last:  # the server may print its arguments or environment: what was read is never shown, nor its first
            from .redaction import Redactor, printable  # part where the cut at 200 falls inside it (hidden, then cut)

            last = " ".join(printable(hide_echoes(Redactor(secrets).text(last), short)).split())
            last = cut(last, 200)  # the cut marked
        message = hide_echoes(exc.message + (f"; the server's last stderr line: {last}" if last else ""), short)
        again = ToolchoiceError(message, hint=exc.hint)
        again.hint_parts, again.names = exc.hint_parts, exc.names  # the hint's argument: `tools --timeout`
        raise again from None
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the SDK's own stop may not have run to its end
        _stop_started(before)
        raise
    finally:
        errlog.close()
        channel.close()


def _too_many_tools(who: str) -> ToolchoiceError:
    """A listing of more tools than a scenario takes, refused before the SDK parses it (~9 KB of objects a tool)."""
    from . import limits

    return ToolchoiceError(limits.refusal(f"{who}: the server lists more tools than a scenario takes", "tools"),
                           hint="import from a server that lists fewer, or filter its tools on the server's side")


def _children() -> set[int]:
    """The processes this one started that are still there (Linux's /proc; elsewhere none are known)."""
    me = str(os.getpid())
    found: set[int] = set()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    fields = handle.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue
            if fields[1].decode() == me:  # the field after the state: the parent's pid
                found.add(int(entry))
    return found


def _stop_started(before: set[int]) -> None:
    """Stop the stdio server this listing started, with what it started (the SDK starts it in a session of its
    own, so its group is its pid): a signal that ended toolchoice left it running (an adversarial run)."""
    import signal

    for pid in _children() - before:
        try:
            os.killpg(pid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            try:
                os.kill(pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass


class _StderrTail:
    """A stdio server's stderr through a pipe, of which only the last ``stderr_bytes`` are kept: a server may write
    gigabytes there (into a file, they filled the disk: an adversarial run)."""

    def __init__(self) -> None:
        import threading

        from . import limits

        self.cap = limits.get("stderr_bytes")
        self.tail = bytearray()
        self.lock = threading.Lock()
        read, write = os.pipe()
        self.file = os.fdopen(write, "w", encoding="utf-8", errors="replace")  # the child's stderr
        self.thread = threading.Thread(target=self._drain, args=(read,), daemon=True)
        self.thread.start()

    def _drain(self, read: int) -> None:
        try:
            while chunk := os.read(read, 65536):
                with self.lock:
                    self.tail += chunk
                    if len(self.tail) > self.cap:
                        del self.tail[:len(self.tail) - self.cap]
        finally:
            os.close(read)

    def close(self) -> None:
        """Our end of the pipe closed; the rest ends when the server's does (a child it left may hold it)."""
        self.file.close()
        self.thread.join(timeout=0.5)

    def _lines(self) -> list[str]:
        """The lines kept (so far), decoded."""
        self.thread.join(timeout=0.2)
        with self.lock:
            return bytes(self.tail).decode("utf-8", "replace").splitlines()

    def holds(self, line: str) -> bool:
        """Whether ``line`` is one of the lines kept."""
        return line in self._lines()

    def last_line(self) -> str:
        """The last non-blank line the server wrote there (so far)."""
        lines = [line.strip() for line in self._lines() if line.strip()]
        return lines[-1] if lines else ""


def list_tools_http(url: str, headers: Mapping[str, str], *, timeout: float, started: float | None = None
                    ) -> dict[str, Any]:
    """``tools/list`` of a streamable-HTTP server at ``url``; ``$NAME`` in header values comes from the environment.
    ``started``: ``time.monotonic()`` when the caller's wait began (default: now); the deadline counts from there, so
    the MCP SDK's import (seconds on a loaded machine) is inside ``timeout``, not added to it."""
    started = time.monotonic() if started is None else started
    from .request_parts import http_url_fault, redact_url, url_problem

    who = f"mcp_url: {url}"  # as written: a key in the path is a $NAME, read here and redacted from every message
    fault = http_url_fault(url, base=False)  # as written (its $NAMEs unread): `127.0.0.1:8000/mcp` was httpx's
    if fault is not None and not fault[1]:  # "UnsupportedProtocol: Request URL is missing an 'http://' ..."
        raise ToolchoiceError(f"mcp_url {fault[0]}", hint=f"with its scheme: http://{url.strip()}" if "://" not in url
                              else "give the server's whole URL, as http://127.0.0.1:8000/mcp")
    secrets: dict[str, str] = {}
    read = resolve_env(url, who, "the URL", secrets)
    problem = url_problem(read, base=False)  # as a hosted mcp tool's server_url: a key there would show everywhere
    if problem is not None:
        raise ToolchoiceError(f"mcp_url: {redact_url(url)}: {problem}",
                              hint="send a key in a header: -H 'Authorization: Bearer $TOKEN' (from: headers:), "
                                   "or write the part of the path that holds it as $NAME")
    from .request_parts import FRAMING_HEADERS

    framing = next((name for name in headers if name.strip().lower() in FRAMING_HEADERS), None)
    if framing is not None:  # httpx's LocalProtocolError once connected ("Too much data for declared Content-Length")
        raise ToolchoiceError(f"{who}: header {framing} is written by the HTTP client from the body it sends, not set "
                              "by hand", hint=f"remove {framing}")
    resolved, header_secrets = resolve_headers(headers, who)
    for name, value in resolved.items():  # the SDK's httpx sends header values as ASCII: its UnicodeEncodeError quoted
        wide = next((at for at, char in enumerate(value, 1) if not char.isascii()), None)  # a character of the value
        if wide is not None:
            raise ToolchoiceError(f"{who}: header {name}'s value holds a non-ASCII character (character {wide} of "
                                  f"{len(value)}), which the MCP SDK's HTTP client cannot send",
                                  hint="check the value: a key copied with a typographic quote or dash?")
        from .request_parts import HEADER_BREAK  # the check of a value written on the line, for one read from $NAME

        if HEADER_BREAK.search(value) or value != value.strip(" \t"):  # sent on (an ESC) or httpx's error quoting it
            raise ToolchoiceError(f"{who}: header {name}'s value (its $NAME read) holds a control character or a "
                                  "space at its start or end, which no HTTP header carries",
                                  hint="set the variable to the value alone: a line ending from a .env file?")
    secrets.update(header_secrets)
    url = read
    mcp = _sdk()
    from mcp.client.streamable_http import streamable_http_client
    import httpx2  # the SDK's HTTP client (a dependency of mcp 2)

    from . import limits
    from .mcp_twice import Watch, keys_of

    def connect() -> Awaitable[dict[str, Any]]:
        client = httpx2.AsyncClient(headers={**resolved, "Accept-Encoding": "identity"}, timeout=httpx2.Timeout(timeout),
                                    transport=_capped_transport(httpx2, who, done, watch))
        return _listing(mcp.Client(streamable_http_client(url, http_client=client)), client, done, who)

    done: dict[str, Any] = {}
    watch = Watch(limits.get("json_depth"))  # the keys its tools/list answers name twice, as their bytes pass
    return _run(connect, who, timeout, secrets, done, lambda: keys_of(watch.found, watch.deep), started)


def _capped_transport(httpx2: Any, who: str, done: dict[str, Any], watch: Any) -> Any:
    """The SDK's HTTP transport, every answer counted against ``mcp_reply_bytes`` (asked uncompressed; a
    compressed answer is counted as it arrives, before decoding, and refused: a gzip bomb never inflates). The
    first error status goes into ``done["status"]``: the SDK says only "Server returned an error response".
    Each answer's bytes also go to ``watch`` (``mcp_twice.Watch``: the keys a listing names twice)."""
    from . import limits

    from .mcp_relay import count_tools

    cap, most_tools, tools = limits.get("mcp_reply_bytes"), limits.get("tools"), [0]  # tools: of every answer

    class Counted(httpx2.AsyncByteStream):  # type: ignore[misc,name-defined]
        def __init__(self, inner: Any, compressed: bool, answer: Any) -> None:
            self.inner, self.compressed, self.seen, self.carry, self.answer = inner, compressed, 0, b"", answer

        async def __aiter__(self) -> Any:
            async for chunk in self.inner:
                self.seen += len(chunk)
                if self.compressed:
                    raise ToolchoiceError(f"{who}: the server compressed its answer although asked not to "
                                          "(a compressed answer is not read)")
                if self.seen > cap:
                    raise ToolchoiceError(limits.refusal(f"{who}: the server's answer", "mcp_reply_bytes"))
                found, self.carry = count_tools(chunk, self.carry)
                tools[0] += found
                if tools[0] > most_tools:  # as mcp_relay counts them: before the SDK parses the page
                    raise _too_many_tools(who)
                self.answer.feed(chunk)
                yield chunk
            self.answer.end()  # before the SDK reads the body's end

        async def aclose(self) -> None:
            await self.inner.aclose()

    class Capped(httpx2.AsyncHTTPTransport):  # type: ignore[misc,name-defined]
        async def handle_async_request(self, request: Any) -> Any:
            response = await super().handle_async_request(request)
            # 405 to the GET of a server-to-client stream, or to the DELETE that ends the session, is MCP's "not
            # offered here" (transports spec), which the SDK takes in its stride: no error of the listing's (every
            # malformed listing of such a server was said as "the server answered HTTP 405": an adversarial run)
            optional = response.status_code == 405 and request.method in ("GET", "DELETE")
            if response.status_code >= 400 and not optional:
                done.setdefault("status", response.status_code)
            encoding = response.headers.get("content-encoding", "identity").strip().lower()
            response.stream = Counted(response.stream, encoding not in ("", "identity"),
                                      watch.answer(response.headers.get("content-type", "")))
            return response

    return Capped()


def resolve_env(text: str, who: str, what: str, secrets: dict[str, str]) -> str:
    """``text`` with ``$NAME`` / ``${NAME}`` read from the environment; each value read goes into ``secrets``
    (value -> $NAME, for redaction). A variable that is not set is one line naming it, never its value."""
    from .request_parts import ENV_PLACEHOLDER

    missing: list[str] = []

    def value_of(match: Any) -> str:
        name = match.group(1) or match.group(2)
        value = os.environ.get(name)
        if not value:
            missing.append(name)
            return match.group(0)
        secrets[value] = f"${name}"
        return value

    read = ENV_PLACEHOLDER.sub(value_of, text)
    if missing:
        raise ToolchoiceError(f"{who}: {what} needs {', '.join(dict.fromkeys(missing))}, which is not set in the "
                              "environment", hint="export it, or write the value itself")
    return read


def resolve_headers(headers: Mapping[str, str], who: str) -> tuple[dict[str, str], dict[str, str]]:
    """Header values with ``$NAME`` / ``${NAME}`` read from the environment, and value -> $NAME for redaction."""
    from .request_parts import ENV_PLACEHOLDER

    secrets: dict[str, str] = {}
    missing = [name for value in headers.values() for m in ENV_PLACEHOLDER.finditer(value)
               if not os.environ.get(name := m.group(1) or m.group(2))]
    if missing:  # every header's, in one line
        raise ToolchoiceError(f"{who}: a header needs {', '.join(dict.fromkeys(missing))}, which is not set in "
                              "the environment", hint="export it, or remove it from headers")
    return {name: resolve_env(value, who, "a header", secrets) for name, value in headers.items()}, secrets


async def _listing(client: Any, http: Any = None, done: dict[str, Any] | None = None,
                   who: str = "mcp") -> dict[str, Any]:
    """Every page of tools/list as one MCP result: ``{"tools": [...]}`` with the wire's field names. ``done``
    gets the tools once they are all listed, before the session is closed (a server may never answer that).
    A listing still paging after MAX_PAGES, or nested past json_depth (what a tool file is held to), is
    refused: never cut short, or imported deeper than a file could be, without a word."""
    from .bounded import depth_ok

    tools: list[Any] = []
    try:
        async with client:
            cursor = None
            for _ in range(MAX_PAGES):
                page = await client.list_tools(cursor=cursor)
                tools.extend(tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in page.tools)
                cursor = page.next_cursor
                if not cursor:
                    break
            else:
                raise ToolchoiceError(f"{who}: the tool listing did not end after {MAX_PAGES} pages (the server "
                                      "keeps answering with a next cursor)", hint="check the server's pagination")
            if not depth_ok(json.dumps({"tools": tools})):
                raise nested_too_deeply(who)
            if done is not None:
                done["tools"] = tools
    finally:
        if http is not None:
            await http.aclose()
    return {"tools": tools}


def nested_too_deeply(who: str) -> ToolchoiceError:
    """A listing nested past json_depth: refused, as a tool file holding it is (never imported deeper)."""
    from . import limits

    return ToolchoiceError(f"{who}: the tool listing nests too deeply: more than {limits.shown('json_depth')}; "
                           f"{limits.raise_hint('json_depth')}")


def _run(make: Callable[[], Awaitable[dict[str, Any]]], who: str, timeout: float,
         secrets: dict[str, str], done: dict[str, Any] | None = None, twice: Callable[[], Any] | None = None,
         started: float | None = None) -> dict[str, Any]:
    """Run the listing under one deadline; every failure becomes one line (secrets redacted). ``done``: where
    ``_listing`` put the tools once listed: a deadline passed while only closing the session keeps them.
    ``twice``: the keys the listing named twice (``mcp_twice.Keys``), kept beside it as ``mcp_twice.TWICE``.
    ``started``: the ``time.monotonic()`` the deadline counts from (what went before, the imports, is in it)."""
    import anyio

    from . import limits

    too_deep = (f"{who}: the tool listing nests too deeply: past what the MCP SDK reads, and more than "
                f"{limits.shown('json_depth')}")

    async def bounded() -> dict[str, Any]:
        with anyio.CancelScope() as unreadable:  # cancelled when the SDK cannot parse a line that is a message
            heard.stop = unreadable.cancel
            left = timeout if started is None else max(0.0, timeout - (time.monotonic() - started))
            with anyio.fail_after(left):
                return await make()
        if heard.broken:
            raise ToolchoiceError(f"{who}: the server wrote a JSON-RPC message that is not JSON ({heard.broken}); "
                                  "MCP's stdio messages are one JSON object a line", hint=BROKEN_HINT)
        raise ToolchoiceError(too_deep)

    from .redaction import Redactor, printable

    redactor = Redactor(secrets)
    heard = _SDKLog()
    try:
        with heard:
            try:
                listing = anyio.run(bounded)
            except BaseException as exc:  # noqa: BLE001 - listed, then the close hung: the listing stands
                if done is None or "tools" not in done or not isinstance(_leaf(exc), TimeoutError):
                    raise
                listing = {"tools": done["tools"]}
        keys = twice() if twice is not None else None
        if keys is not None and keys.deep:  # an answer nested past json_depth (mcp_twice), as a file holding it
            raise nested_too_deeply(who)
        if keys is not None and keys.total:  # said by tool_import.import_listing (mcp.duplicate_key)
            from .mcp_twice import TWICE

            listing[TWICE] = {"keys": list(keys.first), "total": keys.total}
        if secrets:  # a server may echo a header it was sent (into a description, a default): never kept
            shown = redactor.data(listing)
            if shown != listing:
                echoed = sorted({p for v, p in secrets.items() if v in json.dumps(listing, ensure_ascii=False)})
                listing = {**shown, ECHOED: echoed}
        return listing
    except BaseException as exc:  # noqa: BLE001 - task groups wrap errors; each becomes one line
        if isinstance(exc, KeyboardInterrupt):
            raise
        cause = _leaf(exc)
        hint = None
        if isinstance(cause, ToolchoiceError):
            message, hint = cause.message, cause.hint
        elif _DEEP in str(cause):  # over HTTP the SDK raises it: "Failed to parse JSON response: ..."
            message = too_deep
        elif (unparsed := _unparsed_answer(cause)) is not None:  # over HTTP: as a broken line over stdio is said
            message = f"{who}: {unparsed}"
            hint = BROKEN_HINT if "not JSON" in unparsed else ('check what the server answers: a JSON-RPC 2.0 '
                                                               'message, {"jsonrpc": "2.0", "id": ..., "result": ...}')
        elif isinstance(cause, TimeoutError) and heard.first:
            message = f"{who}: the server's answer could not be read: {heard.first}"
        elif isinstance(cause, TimeoutError):
            message = f"{who}: no tool listing within {timeout:g} s (the server hangs, or is slow to start)"
            hint = _RAISE_TIMEOUT
        elif done is not None and "status" in done:  # an HTTP error the SDK read as "an error response"
            status = done["status"]
            from http import HTTPStatus

            try:
                phrase = HTTPStatus(status).phrase
            except ValueError:  # a status the standard library does not name
                phrase = ""
            message = f"{who}: the server answered HTTP {status} {phrase}".rstrip()
            if status in (401, 403):
                hint = ("the server wants a credential, or refused the one sent: send it in a header, "
                        "-H 'Authorization: Bearer $TOKEN' (from: headers:)")
        else:
            message = f"{who}: {_describe(cause)}"
            if message.startswith(f"{who}: cannot connect") and hint is None:  # nothing listens at the URL
                hint = "is the MCP server running, and listening there? start it, or check the URL's host, port, path"
        message = " ".join(printable(redactor.text(message)).split())
        if hint == _RAISE_TIMEOUT:  # a scenario's from: says `timeout:`; `toolchoice tools` its --timeout (cli/exits.py)
            from .errors import named

            raise named(message, "check the server, or raise ", "", names=("mcp.timeout",),
                        spelling={"mcp.timeout": "from: timeout"}) from None
        raise ToolchoiceError(message, hint=hint) from None


_RAISE_TIMEOUT = "check the server, or raise from: timeout"


_DEEP = "recursion limit exceeded"  # pydantic-core's words for JSON nested past its reader (Invalid JSON: ...)
BROKEN_HINT = ("check what the server writes: a JSON-RPC message is one JSON object, with a string's control "
               "characters escaped (\\n, \\u0001)")
# a JSON-RPC message's own key, outside any string (a quote inside a JSON string is escaped)
_JSONRPC_KEY = re.compile(r'"jsonrpc"\s*:')


def broken_message(cause: BaseException | None) -> str | None:
    """Why a stdio line the SDK could not parse is a broken JSON-RPC message, not a banner: the line is not JSON
    and yet opens as a JSON object with the ``"jsonrpc"`` key (a start-up banner, a log line, fails the same
    parse but never holds that key unescaped). The SDK logs such a line and waits on for an answer that never
    comes: the listing ended at its deadline (30 s by default; an adversarial run). None for any other line."""
    errors = getattr(cause, "errors", None)
    try:
        first = errors()[0] if callable(errors) else None
    except Exception:  # noqa: BLE001 - not pydantic's error after all: not said as one
        return None
    if not isinstance(first, dict) or first.get("type") != "json_invalid":
        return None
    line = first.get("input")
    if not isinstance(line, str) or not line.lstrip().startswith("{") or not _JSONRPC_KEY.search(line):
        return None
    return str((first.get("ctx") or {}).get("error") or first.get("msg") or "not JSON")[:200]


def _unparsed_answer(cause: BaseException) -> str | None:
    """The SDK's "Failed to parse JSON response: <pydantic's error>" of an HTTP answer, in the words a broken
    stdio line gets: what the server sent (not JSON, or JSON that is no JSON-RPC message) and why."""
    text = str(cause)
    if type(cause).__name__ not in ("MCPError", "McpError") or not text.startswith(
            ("Failed to parse JSON response", "Failed to parse SSE message")):
        return None
    lines = [line.strip() for line in text.splitlines()]
    invalid = next((line for line in lines if line.startswith("Invalid JSON: ")), None)
    if invalid is not None:
        return f"the server's answer is not JSON ({invalid[len('Invalid JSON: '):].split(' [type=')[0][:200]})"
    reason = next((line.split(" [type=")[0] for line in lines[2:] if line and not line.startswith("For further")),
                  "")
    field = lines[1] if len(lines) > 1 and not lines[1].startswith(("Invalid", "For further")) else ""
    said = f"{field}: {reason}" if field and reason else reason or field
    return f"the server's answer is not a JSON-RPC message{f' ({said[:200]})' if said else ''}"


class _SDKLog:
    """While listing, the SDK's log records (a traceback for every line a server prints that is not
    JSON-RPC) are kept here instead of reaching stderr: the first one explains a listing that never came."""

    def __init__(self) -> None:
        self.first = ""
        self.broken = ""  # why a line the SDK could not parse is a broken message (broken_message)
        self.stop: Callable[[], None] = lambda: None

    def __enter__(self) -> "_SDKLog":
        import logging

        outer = self

        class Keep(logging.Handler):
            def emit(self, record: logging.LogRecord) -> None:
                if not outer.first and record.levelno >= logging.WARNING:
                    cause = record.exc_info[1] if record.exc_info else None
                    text = record.getMessage() + (f": {str(cause).splitlines()[0][:200]}" if cause and str(cause) else "")
                    outer.first = text
                if record.exc_info and _DEEP in str(record.exc_info[1]):
                    # a line nested past the SDK's JSON reader (stdio): it logs it and waits on for an answer that
                    # never comes, so the listing ended only at its deadline (30 s; an adversarial run). Now.
                    outer.stop()
                elif record.exc_info and not outer.broken and (why := broken_message(record.exc_info[1])):
                    outer.broken = why  # a message the server broke (a raw control character): said at once
                    outer.stop()

        self.logger = logging.getLogger("mcp")
        self.saved = (self.logger.propagate, self.logger.handlers[:], self.logger.level)
        self.handler = Keep()
        self.logger.handlers = [self.handler]
        self.logger.propagate = False
        return self

    def __exit__(self, *exc: Any) -> None:
        self.logger.propagate, self.logger.handlers, level = self.saved
        self.logger.setLevel(level)


def _leaf(exc: BaseException) -> BaseException:
    """The first real error inside nested exception groups (cancellations are what it caused)."""
    try:
        group: type[BaseException] = BaseExceptionGroup  # type: ignore[name-defined]  # Python 3.11+
    except NameError:  # Python 3.10: anyio's backport
        from exceptiongroup import BaseExceptionGroup as group  # type: ignore[no-redef]
    while isinstance(exc, group):
        inner = [e for e in exc.exceptions if not _is_cancel(e)] or list(exc.exceptions)
        exc = inner[0]
    return exc


def _is_cancel(exc: BaseException) -> bool:
    import asyncio

    return isinstance(exc, asyncio.CancelledError)  # anyio.run runs on asyncio


def _describe(exc: BaseException) -> str:
    name = type(exc).__name__
    if name == "ValidationError":  # pydantic: the server's answer does not fit the MCP types
        errors = exc.errors()  # type: ignore[attr-defined]
        first = errors[0] if errors else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return f"the server's answer is malformed: {where + ': ' if where else ''}{first.get('msg', exc)}"
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else name
    if name in ("MCPError", "McpError"):
        return f"the server failed: {text}"
    if isinstance(exc, OSError) or "Connect" in name:
        return f"cannot connect: {text}"
    return f"{name}: {text}"
