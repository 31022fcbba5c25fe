"""A key an MCP server's tools/list answer names twice in one object (a tool's ``"name"``, a schema property).

The MCP SDK reads each JSON-RPC message with pydantic (mcp 2.3.0 ``mcp/client/stdio.py`` ``_parse_line`` and
``mcp/client/streamable_http.py``: ``jsonrpc_message_adapter.validate_json``), which keeps the last of two equal
names without a word: what is imported is not all the server wrote. The server wrote it, not the user: imported
as the SDK reads it and said (``mcp.duplicate_key``), as ``reply.duplicate_key`` says a reply's. Either way the
check is ``json_last.listing_twice`` (``bounded.read_last``, the check a reply's body is read with, after the depth
a tool file is held to: an answer nested past json_depth is refused, as a file holding it is). Over stdio it runs in
``mcp_relay.Twice`` (the server's bytes pass through it), which writes what it finds into a FIFO that ``Channel``
drains; over HTTP in ``Watch``, on each answer's bytes as the SDK's client receives them. Either way linear: each
message read once more.
"""

from __future__ import annotations

import json
import os
from typing import Any, NamedTuple

from .bounded import TWICE_SAID, key_shown
from .json_last import listing_twice

TWICE = "_toolchoice_twice"  # the listing's side key (as mcp_client.ECHOED): the keys said, then how many in all


class Keys(NamedTuple):
    """The first ``TWICE_SAID`` keys named twice, in the order met, and how many distinct keys were; ``deep``: a
    tools/list answer nested past json_depth (the listing is refused)."""

    first: tuple[str, ...]
    total: int
    deep: bool = False


def keys_of(found: dict[str, None], deep: bool = False) -> Keys:
    return Keys(tuple(key for key, _ in zip(found, range(TWICE_SAID))), len(found), deep)


PREFIX = "toolchoice-mcp-"  # a channel's folder: PREFIX, the pid of the run that made it, "-", random


class Channel:
    """Where ``mcp_relay.Twice`` writes (``--twice=FIFO``): a FIFO in a folder of its own (0700, named for this
    process), opened here to read before the relay starts, drained by a thread as it is written (at most ``cap``
    bytes kept). The relay opens it and removes it with its folder before it starts the server: what it carries is
    never in a file, and is gone with the two processes that hold it (a SIGKILL included). A folder left by a run
    killed before its relay opened it (empty but for the FIFO) is removed by the next run (``sweep``). Without a
    temporary folder or FIFOs (``path`` empty): nothing said, the listing as before."""

    def __init__(self, cap: int) -> None:
        import tempfile
        import threading

        self.cap, self.kept, self.path, self.folder = cap, bytearray(), "", ""
        self.ends: list[int] = []  # the reader, then our own writer
        try:
            sweep(tempfile.gettempdir())
            self.folder = tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-")
            path = os.path.join(self.folder, "twice")
            os.mkfifo(path, 0o600)
            self.ends.append(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
            # our own writer: the reader waits for the relay's lines, not an end, until ``keys`` closes it
            self.ends.append(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            os.set_blocking(self.ends[0], True)
        except (OSError, AttributeError):  # no temporary folder, no FIFOs (os.mkfifo): nothing said
            self.close()
            return
        self.path = path
        self.thread = threading.Thread(target=self._drain, args=(self.ends[0],), daemon=True)
        self.thread.start()

    def _drain(self, read: int) -> None:
        try:
            while chunk := os.read(read, 65536):
                if len(self.kept) <= self.cap:
                    self.kept += chunk[:self.cap + 1 - len(self.kept)]
        except OSError:
            pass
        finally:
            os.close(read)

    def keys(self) -> Keys:
        """What the relay wrote, once it is gone (the SDK stopped it): our writer closed, the rest read to its end
        (a relay still there at its deadline: what it wrote so far)."""
        if not self.path:
            return Keys((), 0)
        self._close_writer()
        self.thread.join(timeout=2)
        first: list[str] = []
        total, deep = 0, False
        for line in bytes(self.kept[:self.cap]).splitlines():
            try:
                key = json.loads(line)
            except ValueError:  # a line cut at the cap
                continue
            if key == {"deep": True}:  # mcp_relay.DEEP
                deep = True
            elif isinstance(key, str):
                total += 1
                if len(first) < TWICE_SAID:
                    first.append(key)
        return Keys(tuple(first), total, deep)

    def _close_writer(self) -> None:
        if len(self.ends) == 2:
            os.close(self.ends.pop())

    def close(self) -> None:
        """Our writer closed (the reader ends with the relay), and the folder removed if the relay left it."""
        import shutil

        self._close_writer()
        if not self.path:  # the thread never started: the reader is ours to close
            for end in self.ends:
                os.close(end)
            self.ends.clear()
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)


def sweep(tmp: str) -> None:
    """Remove the channel folders (``PREFIX``) in ``tmp`` of this user's runs that are no longer running: a run
    killed between making its folder and its relay's start left it (a FIFO, which never held anything)."""
    import shutil
    import stat

    try:
        entries = [entry for entry in os.scandir(tmp) if entry.name.startswith(PREFIX)]
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(PREFIX):].split("-", 1)[0]
        # ASCII digits only ("²" is a digit int() refuses), a pid kill() takes (a name of 20 digits overflowed):
        # anyone may make a folder so named in a shared temporary folder
        if not (pid.isascii() and pid.isdigit()) or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # running (or a pid taken again since: left)
        except ProcessLookupError:
            pass
        except (OSError, OverflowError):  # another user's process: running; no such pid can be: not a run's
            continue
        try:
            found = os.lstat(entry.path)
        except OSError:
            continue
        if stat.S_ISDIR(found.st_mode) and found.st_uid == os.getuid():
            shutil.rmtree(entry.path, ignore_errors=True)


class Watch:
    """The keys the tools/list answers of one HTTP session name twice, found as each answer's bytes pass: a JSON
    body read once it ends, an event stream's events as they end (``stream_framing.SSEDecoder``), each by
    ``json_last.listing_twice`` as mcp_relay reads a stdio line; ``deep``: an answer nested past ``depth``."""

    def __init__(self, depth: int) -> None:
        self.found: dict[str, None] = {}
        self.depth = depth
        self.deep = False

    def answer(self, content_type: str) -> "Answer":
        """An answer of ``content_type`` (its header's value), sorted as the SDK's client sorts it: by how the
        lowered value starts (mcp 2.3.0 ``streamable_http.py``, ``content_type.startswith("application/json")``),
        so "application/json charset=utf-8" (no ``;``) is JSON here too, as it is read there."""
        return Answer(self, content_type.lower())

    def message(self, text: str) -> None:
        found, deep = listing_twice(text, self.depth)
        self.found.update(found)
        self.deep = self.deep or deep


class Answer:
    """One HTTP answer's bytes, fed as they arrive and ended once."""

    def __init__(self, watch: Watch, content_type: str) -> None:
        from .stream_framing import SSEDecoder

        self.watch = watch
        self.events = SSEDecoder() if content_type.startswith("text/event-stream") else None
        self.parts: list[bytes] | None = [] if content_type.startswith("application/json") else None

    def feed(self, chunk: bytes) -> None:
        if self.events is not None:
            for _, data in self.events.feed(chunk):
                self.watch.message(data)
        elif self.parts is not None:
            self.parts.append(chunk)

    def end(self) -> None:
        if self.events is not None:
            events, _ = self.events.close()
            for _, data in events:
                self.watch.message(data)
        elif self.parts:
            self.watch.message(b"".join(self.parts).decode("utf-8", "replace"))
        self.events = self.parts = None


def said(shown: str, keys: Keys) -> list[Any]:
    """``mcp.duplicate_key``: a warning each key the listing names twice (the first ``TWICE_SAID``, quoted as every
    such message quotes a key, ``key_shown``), then one line for the rest."""
    from .model import LedgerEntry

    entries = [LedgerEntry("warning", "mcp.duplicate_key", f"{shown}: the server's tool listing names the key "
                           f"{key_shown(key)} twice in one object: imported as the MCP SDK reads it (pydantic), the "
                           "last of the two (RFC 8259: names should be unique; other readers may keep the first, or "
                           "refuse it)") for key in keys.first]
    if keys.total > len(keys.first):
        entries.append(LedgerEntry("warning", "mcp.duplicate_key", f"{shown}: and {keys.total - len(keys.first):,} "
                                   "more keys the server's tool listing names twice in one object, each imported "
                                   "as the last"))
    return entries
