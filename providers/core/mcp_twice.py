"""A key an MCP server's tools/list answer names twice in one object (a tool's ``"name"``, a schema property).

The MCP SDK reads each JSON-RPC message with pydantic (mcp 2.3.0 ``mcp/client/stdio.py`` ``_parse_line`` and
``mcp/client/streamable_http.py``: ``jsonrpc_message_adapter.validate_json``), which keeps the last of two equal
names without a word: what is imported is not all the server wrote. The server wrote it, not the user: imported
as the SDK reads it and said (``mcp.duplicate_key``), as ``reply.duplicate_key`` says a reply's. Over stdio the
keys are found by ``mcp_relay.Twice`` (the server's bytes pass through it) and read back from its file
(``read_file``); over HTTP by ``Watch``, on each answer's bytes as the SDK's client receives them, with
``bounded.read_last``, the check a reply's body is read with. Either way linear: each message read once more.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from .bounded import TWICE_SAID, key_shown, read_last

TWICE = "_toolchoice_twice"  # the listing's side key (as mcp_client.ECHOED): the keys said, then how many in all


class Keys(NamedTuple):
    """The first ``TWICE_SAID`` keys named twice, in the order met, and how many distinct keys were."""

    first: tuple[str, ...]
    total: int


def keys_of(found: dict[str, None]) -> Keys:
    return Keys(tuple(key for key, _ in zip(found, range(TWICE_SAID))), len(found))


def read_file(path: str, cap: int) -> Keys:
    """The keys ``mcp_relay.Twice`` wrote to ``path`` (a JSON string a line), at most ``cap`` bytes read (the relay
    writes each key once, fewer bytes than the answers held it twice: ``mcp_reply_bytes`` bounds them)."""
    import os
    import stat

    first: list[str] = []
    total = 0
    try:  # only the regular file the relay wrote: the server (same user) may have put a FIFO there, whose open
        # waited for a writer for ever, past every deadline, or a link to another file (an adversarial run)
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
        with open(handle, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                return Keys((), 0)
            for line in file.read(cap).splitlines():
                try:
                    key = json.loads(line)
                except ValueError:  # a line cut at the cap
                    continue
                total += 1
                if len(first) < TWICE_SAID and isinstance(key, str):
                    first.append(key)
    except OSError:
        pass
    return Keys(tuple(first), total)


class Watch:
    """The keys the tools/list answers of one HTTP session name twice, found as each answer's bytes pass: a JSON
    body read once it ends, an event stream's events as they end (``stream_framing.SSEDecoder``). Only a JSON-RPC
    result holding ``"tools"`` counts (another message's duplicates change no tool)."""

    def __init__(self) -> None:
        self.found: dict[str, None] = {}

    def answer(self, content_type: str) -> "Answer":
        return Answer(self, content_type.split(";")[0].strip().lower())

    def message(self, text: str) -> None:
        found: dict[str, None] = {}
        try:
            data = read_last(text, found)
        except (ValueError, RecursionError):  # the SDK says what it cannot read
            return
        for message in data if isinstance(data, list) else [data]:
            result = message.get("result") if isinstance(message, dict) else None
            if found and isinstance(result, dict) and "tools" in result:
                self.found.update(found)
                return


class Answer:
    """One HTTP answer's bytes, fed as they arrive and ended once."""

    def __init__(self, watch: Watch, content_type: str) -> None:
        from .stream_framing import SSEDecoder

        self.watch = watch
        self.events = SSEDecoder() if content_type == "text/event-stream" else None
        self.parts: list[bytes] | None = [] if content_type == "application/json" else None

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
