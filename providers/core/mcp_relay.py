"""The bound on what a stdio MCP server may answer: ``python -I -S mcp_relay.py [--twice=FIFO]
[--depth=N] CAP TOOLS DEADLINE PROGRAM ARGS...``.

The MCP SDK's ``stdio_client`` starts this relay in the server's place (mcp_client.list_tools_stdio): the
relay starts the server with the same stdin and stderr, and copies its stdout through, at most CAP bytes
in all (``mcp_reply_bytes``). The SDK's reader keeps every byte until a newline, so a server writing one
endless line would grow toolchoice's memory until the deadline; past the cap the relay stops the server,
writes ``OVER`` on stderr and leaves, and the SDK sees the answer end. So too past TOOLS tools (limit ``tools``,
``OVER_TOOLS``): the SDK parses a page of tools into ~9 KB of objects a tool (100,000 small tools: ~860 MB, in
13 MB of JSON), so the tools are counted before it sees them, as the ``"inputSchema"`` keys that every MCP tool
has, in any JSON spelling (``count_tools``; a quote inside a JSON string is escaped, so a description cannot hold
one; a schema property named ``inputSchema`` counts too). So too at a byte that is not UTF-8 (``NOT_UTF8``): the
SDK's strict reader fails on it, then drains the server's stdout until an EOF that never comes (the listing ended at
its deadline). The SDK stops the relay as it stops a server (stdin closed, then the process group: the server is in
it); when the server exits by itself or is stopped past the cap, the relay stops what it
left in the group. At DEADLINE seconds (toolchoice's own, ``tools --timeout``) the relay stops the group itself:
the SDK's stop, which began then, waits 2 s for the server to exit once its stdin is closed, then 2 s more after
SIGTERM before SIGKILL (`tools --mcp "sleep 100" --timeout 2` ended after ~8-10 s); the relay gone, it ends at
once. A tools/list answer naming a key twice in one object (a tool's ``"name"``, a schema property) is read by the
SDK as pydantic reads it, the last of the two, without a word: with ``--twice=FIFO``, each such key is written to
the FIFO once (a JSON string a line, ``Twice``) before the line goes on to the SDK, for mcp_client to say it; and
an answer nested past ``--depth`` (json_depth), ``{"deep": true}``, for mcp_client to refuse it. The FIFO is
mcp_twice.Channel's, read as it is written: the relay opens it and removes it with its folder before the server
starts, so no file ever holds what a server wrote (a key may echo a secret it was handed) and nothing is left if
toolchoice is killed. The check is ``json_last.listing_twice``, toolchoice's own (``bounded.read_last``'s): this
script imports no package (``-I -S``: neither the server's ``PYTHONPATH`` nor its folder, where the SDK starts it,
may put a module in place of one it imports; no site, for start-up), so it loads that one file by its path.
Standard library only, no site.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import subprocess
import sys

OVER = "toolchoice: the MCP server's answers passed mcp_reply_bytes"
OVER_TOOLS = "toolchoice: the MCP server listed more tools than the tools limit"
NOT_UTF8 = "toolchoice: the MCP server wrote bytes that are not UTF-8 on stdout"
CHUNK = 65536


def _json_last():  # type: ignore[no-untyped-def]
    """``json_last``: imported within the package, else (run as a script, or from bench/) loaded by its path."""
    if __package__:
        from . import json_last
        return json_last
    import importlib.util

    spec = importlib.util.spec_from_file_location("_toolchoice_json_last", os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "json_last.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


json_last = _json_last()


TOOL_KEY = b'"inputSchema"'
# "input\u0053chema" is the same key: it passed uncounted (200,000 tools took 1.1 GB and a minute in the SDK: an
# adversarial run), so every spelling is counted
_TOOL_KEYS = re.compile(json_last.spellings("inputSchema").encode())
_LONGEST = 2 + 6 * len("inputSchema")  # every character escaped


def count_tools(chunk: bytes, carry: bytes) -> tuple[int, bytes]:
    """The ``"inputSchema"`` keys in ``carry + chunk``, and what to carry into the next chunk (a key may straddle:
    the bytes after the last key found, at most one key's longest spelling less one)."""
    joined = carry + chunk
    found = list(_TOOL_KEYS.finditer(joined))
    start = max(found[-1].end() if found else 0, len(joined) - (_LONGEST - 1))
    return len(found), joined[start:]


TWICE = "--twice="  # the relay's own options (CAP is a number): never the server's
DEPTH = "--depth="
DEEP = {"deep": True}  # the line that says a tools/list answer nests past --depth


def channel(path: str) -> int | None:
    """The FIFO at ``path`` opened to write (its reader, toolchoice, is there: the open does not wait), then
    removed with its folder, so only the two ends hold it. None when it is not a FIFO (nothing is said then)."""
    import stat

    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    opened = os.fstat(fd)
    if not stat.S_ISFIFO(opened.st_mode):
        os.close(fd)
        return None
    os.set_blocking(fd, True)  # toolchoice drains it: a write waits for room, never fails for want of it
    try:
        named = os.lstat(path)
        if (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino):
            os.unlink(path)
            os.rmdir(os.path.dirname(path))
    except OSError:  # left to toolchoice (mcp_twice.Channel removes its folder, and a dead run's)
        pass
    return fd


class Twice:
    """The keys tools/list answers (one line each, as MCP's stdio messages are) name twice in one object, each
    written to ``out`` once, a JSON string on a line of its own, and ``DEEP`` once for an answer nested past
    ``depth``. Linear: each line is joined once and read once by ``json_last.listing_twice``."""

    def __init__(self, out: int, depth: int) -> None:
        self.out: int | None = out
        self.depth = depth
        self.parts: list[bytes] = []
        self.said: set[str] = set()
        self.deep = False

    def feed(self, chunk: bytes) -> None:
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            self.parts.append(chunk[start:end])
            self._line(b"".join(self.parts))
            self.parts, start = [], end + 1
        if start < len(chunk):
            self.parts.append(chunk[start:])

    def _line(self, line: bytes) -> None:
        found, deep = json_last.listing_twice(line.decode("utf-8", "replace"), self.depth)
        new = [key for key in found if key not in self.said]
        self.said.update(new)
        # as the server wrote it, not ASCII-escaped: "\ud83d\ude00" is 12 bytes where the server's emoji was 4, and
        # what passed the channel's cap (mcp_reply_bytes, of the server's own bytes) was cut, keys and all; so each
        # key's line is no longer than the key as the server wrote it
        lines = [json.dumps(key, ensure_ascii=False) + "\n" for key in new]
        if deep and not self.deep:
            self.deep = True
            lines.append(json.dumps(DEEP) + "\n")
        if lines and self.out is not None:
            # a lone surrogate (a key's "\ud800" escape) as that escape again, inside the key's JSON string
            view = memoryview("".join(lines).encode("utf-8", "backslashreplace"))
            try:  # before the line reaches the SDK: read once the listing is
                while view:
                    view = view[os.write(self.out, view):]
            except OSError:  # toolchoice is gone (killed): the listing goes on as before
                self.out = None


def main(argv: list[str]) -> int:
    options = {}
    while argv and argv[0].startswith((TWICE, DEPTH)):
        name, _, value = argv.pop(0).partition("=")
        options[name + "="] = value
    cap, most_tools, deadline, command = int(argv[0]), int(argv[1]), float(argv[2]), argv[3:]
    out = channel(options[TWICE]) if options.get(TWICE) else None  # opened and removed before the server starts
    depth = int(options.get(DEPTH) or 0) or sys.maxsize  # json_depth, as mcp_client passes it (none: unchecked)
    twice = Twice(out, depth) if out is not None else None
    try:
        server = subprocess.Popen(command, stdout=subprocess.PIPE)  # stdin, stderr: the relay's own
    except OSError as exc:
        sys.stderr.write(f"cannot start {command[0]}: {exc.strerror or exc}\n")
        return 127
    _stop_at(deadline, server)
    assert server.stdout is not None
    out, seen, tools, carry = server.stdout.fileno(), 0, 0, b""
    text = codecs.getincrementaldecoder("utf-8")()  # the SDK reads strictly, then waits for an EOF that never comes
    try:
        while chunk := os.read(out, CHUNK):
            seen += len(chunk)
            found, carry = count_tools(chunk, carry)
            tools += found
            try:
                text.decode(chunk)
                fault = OVER if seen > cap else OVER_TOOLS if tools > most_tools else ""
            except UnicodeDecodeError:
                fault = NOT_UTF8
            if fault:
                server.kill()
                sys.stderr.write(fault + "\n")
                sys.stderr.flush()
                _stop_the_rest()  # the SDK sees the relay gone and stops nothing more
                return 3
            if twice is not None:
                twice.feed(chunk)
            view = memoryview(chunk)
            while view:
                view = view[os.write(1, view):]
    except OSError:  # the client stopped reading (it closed the pipe): so does the relay
        server.kill()
        _stop_the_rest()
        return 1
    # the server closed its stdout: the SDK sees the answers end now, as without the relay, not at its deadline
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    code = server.wait()
    _stop_the_rest()
    return code


def _stop_at(deadline: float, server: subprocess.Popen[bytes]) -> None:
    """At ``deadline`` seconds from now: SIGTERM to the group (the server and what it started), 0.5 s for them to
    end, then SIGKILL to the group, the relay with it (a relay not leading a group: the server killed, the relay
    gone)."""
    import signal

    def stop(signum: int, frame: object) -> None:
        _stop_the_rest()
        try:
            server.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass
        if hasattr(os, "killpg") and os.getpgid(0) == os.getpid():
            os.killpg(0, signal.SIGKILL)
        server.kill()
        os._exit(124)

    if hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, stop)
        signal.setitimer(signal.ITIMER_REAL, deadline)


def _stop_the_rest() -> None:
    """What the server started and left running (a worker, a daemon) ends with it: the SDK stops a server's
    process group only when it does not exit by itself once its stdin is closed. Only in a group this relay
    leads (the SDK starts it in a session of its own); never on a system without process groups."""
    import signal

    if not hasattr(os, "killpg") or os.getpgid(0) != os.getpid():
        return
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        os.killpg(0, signal.SIGTERM)
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
