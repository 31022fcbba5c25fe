"""The bound on what a stdio MCP server may answer: ``python -I -S mcp_relay.py [--twice=FILE] CAP TOOLS DEADLINE
PROGRAM ARGS...``.

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
SDK as pydantic reads it, the last of the two, without a word: with ``--twice=FILE``, each such key is written to
FILE once (a JSON string a line, ``Twice``) before the line goes on to the SDK, for mcp_client to say it.
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


def _spellings(word: str) -> bytes:
    """A regular expression of ``word`` as a JSON string in any spelling: each character as itself or as its
    ``\\u00XX`` escape (hex digits in either case), which a JSON reader reads as the same key."""
    def hexes(c: str) -> bytes:
        return b"".join(b"[%s%s]" % (h.encode(), h.upper().encode()) if h.isalpha() else h.encode()
                        for h in f"{ord(c):04x}")
    return b'"' + b"".join(rb"(?:%s|\\u%s)" % (c.encode(), hexes(c)) for c in word) + b'"'


TOOL_KEY = b'"inputSchema"'
# "input\u0053chema" is the same key: it passed uncounted (200,000 tools took 1.1 GB and a minute in the SDK: an
# adversarial run), so every spelling is counted
_TOOL_KEYS = re.compile(_spellings("inputSchema"))
_LONGEST = 2 + 6 * len("inputSchema")  # every character escaped


def count_tools(chunk: bytes, carry: bytes) -> tuple[int, bytes]:
    """The ``"inputSchema"`` keys in ``carry + chunk``, and what to carry into the next chunk (a key may straddle:
    the bytes after the last key found, at most one key's longest spelling less one)."""
    joined = carry + chunk
    found = list(_TOOL_KEYS.finditer(joined))
    start = max(found[-1].end() if found else 0, len(joined) - (_LONGEST - 1))
    return len(found), joined[start:]


TWICE = "--twice="  # the relay's own first argument (CAP is a number): never the server's
_TOOLS_KEY = re.compile(_spellings("tools"))  # a line without it in any spelling is no tools/list answer


class Twice:
    """The keys a tools/list answer (a JSON-RPC result holding ``"tools"``: one line, as MCP's stdio messages are)
    names twice in one object, each written to ``out`` once, as a JSON string on a line of its own. Linear: each
    line is joined once and read once, and only when it holds a ``"tools"`` key (the standard library's reader;
    bounded.read_last's check, which this script cannot import: ``pairs`` as json.loads keeps them, the last)."""

    def __init__(self, out: str) -> None:
        self.out = open(out, "a", encoding="utf-8")  # noqa: SIM115 - written to the relay's end
        self.parts: list[bytes] = []
        self.said: set[str] = set()

    def feed(self, chunk: bytes) -> None:
        start = 0
        while (end := chunk.find(b"\n", start)) != -1:
            self.parts.append(chunk[start:end])
            self._line(b"".join(self.parts))
            self.parts, start = [], end + 1
        if start < len(chunk):
            self.parts.append(chunk[start:])

    def _line(self, line: bytes) -> None:
        if not _TOOLS_KEY.search(line):
            return
        found: dict[str, None] = {}

        def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
            out = dict(items)
            if len(out) != len(items):
                seen: set[str] = set()
                for key, _ in items:
                    if key in seen:
                        found[key] = None
                    seen.add(key)
            return out

        try:
            message = json.loads(line, object_pairs_hook=pairs)
        except (ValueError, RecursionError):  # the SDK says what it cannot read
            return
        result = message.get("result") if isinstance(message, dict) else None
        if not found or not isinstance(result, dict) or "tools" not in result:
            return
        new = [key for key in found if key not in self.said]
        self.said.update(new)
        if new:
            try:
                self.out.write("".join(json.dumps(key) + "\n" for key in new))
                self.out.flush()  # before the line reaches the SDK: read once the listing is
            except OSError:  # a full disk: not said, the listing goes on as before
                pass


def main(argv: list[str]) -> int:
    twice_at = argv.pop(0)[len(TWICE):] if argv and argv[0].startswith(TWICE) else ""
    cap, most_tools, deadline, command = int(argv[0]), int(argv[1]), float(argv[2]), argv[3:]
    try:
        twice = Twice(twice_at) if twice_at else None
    except OSError:  # not said: the listing is read as before
        twice = None
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
