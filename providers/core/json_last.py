"""A server's JSON read as the official SDKs read it: of a key written twice in one object the last is kept, and
the key is said (``read_last``), within a depth (``nests_at_most``); and which keys a JSON-RPC tools/list answer
names twice (``listing_twice``). One implementation for toolchoice (``bounded`` re-exports it) and for the stdio
MCP relay, a script run as ``python -I -S`` that imports no package and loads this file by its path
(``mcp_relay``): so the standard library only, and no import of toolchoice's.
"""

from __future__ import annotations

import itertools
import json
import operator
import re
from typing import Any

# A JSON string as the depth scan reads one: from a quote to the next unescaped quote, or to the end of the text
# no possessive quantifier (Python 3.11's): the first way through always matches (a string runs to its closing quote,
# or to the end), so nothing is tried again
_STRING = re.compile(rb'"(?:[^"\\]+|\\[\s\S])*(?:"|\\?\Z)')
_BRACKETS = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")  # an opening bracket 2, a closing one 0
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))


def nests_at_most(text: str | bytes, cap: int) -> bool:
    """Whether JSON text nests at most ``cap`` levels (``bounded.depth_ok``, with the json_depth limit): a scan of
    its brackets outside strings only (linear, and in C: the strings cut out by a regex, the brackets left a 2 or a
    0, the depth after each the running sum less the count, its greatest found by ``max`` over C iterators; a Python
    loop over each quote cost 1.7 s over a 200-call HAR)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= cap:
        return True
    brackets = _STRING.sub(b"", data).translate(_BRACKETS, _NOT_BRACKETS)
    return max(map(operator.sub, itertools.accumulate(brackets), itertools.count(1)), default=0) <= cap


def no_constant(word: str) -> Any:
    """``parse_constant`` for json.loads: NaN, Infinity and -Infinity are not JSON (RFC 8259 has no such numbers)."""
    raise ValueError(f"{word} is not a JSON value")


KEY_SHOWN = 120  # characters of a key a message quotes: a key of 200,000 made a warning line of 200 KB


def cut(text: str, most: int) -> str:
    """``text`` as a message quotes it, at most ``most`` characters: past them, its first ``most`` - 1 and "…" (the
    cut marked). The one end-cut of a quoted text; the forms that keep a long text's end too say how much they
    left out (``mock_cmd.bounded``, ``exits._bounded_line``, ``sample_view.shown_head``)."""
    return text if len(text) <= most else text[:most - 1] + "…"


def key_shown(key: str) -> str:
    """``key`` as a message quotes it: JSON text, a long key cut and the cut marked."""
    return json.dumps(cut(key, KEY_SHOWN), ensure_ascii=False)


class DuplicateKey(ValueError):
    """A JSON object naming one key twice. Python's decoder keeps the last value and drops the first without a
    word (RFC 8259 section 4: "The names within an object SHOULD be unique"; readers differ on which one counts).
    ``line``: where that object opens in the text, when known."""

    def __init__(self, key: str, line: int | None = None) -> None:
        super().__init__(f"the key {key_shown(key)} is written twice in one object")
        self.key = key
        self.line = line


def _object(pairs: list[tuple[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """An object's pairs as ``json.loads`` makes them (the last of two equal names kept), and each name met again,
    in order (none, without a walk, when the dict kept every pair)."""
    out = dict(pairs)
    again: list[str] = []
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                again.append(key)
            seen.add(key)
    return out, again


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for the JSON decoder: the object, or ``DuplicateKey`` when a name comes twice."""
    out, again = _object(pairs)
    if again:
        raise DuplicateKey(again[0])
    return out


_UNIQUE = json.JSONDecoder(object_pairs_hook=unique_keys, parse_constant=no_constant)  # one decoder, made once:
# json.loads with an argument makes one a call (a stream's small events paid it each)
_UNIQUE_CONSTANTS = json.JSONDecoder(object_pairs_hook=unique_keys)


def read_last(text: str, twice: dict[str, None], constants: bool = False) -> Any:
    """A server's JSON text read as the official SDKs read it: of a key written twice in one object the last
    is kept, and the key added to ``twice`` (once, in the order the objects close). The one check of a server's
    JSON that streams (``stream_framing.json_or_none``), replies (``transport``, ``json_loads_twice``) and MCP
    listings (``listing_twice``) share: the text is read once when no key is written twice, once more (collecting)
    when one is; linear either way. No NaN or Infinity (``no_constant``) unless ``constants`` (the MCP SDK's reader,
    pydantic-core's, takes them). Raises what ``json.loads`` raises: a ValueError for text that is not JSON,
    RecursionError past the interpreter's stack (its callers check the depth first)."""
    if text.startswith("\ufeff"):  # json.loads's words: a decoder's own read would call it "Expecting value"
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    try:
        return (_UNIQUE_CONSTANTS if constants else _UNIQUE).decode(text)
    except DuplicateKey:
        pass

    def last(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out, again = _object(pairs)
        twice.update(dict.fromkeys(again))
        return out

    return json.JSONDecoder(object_pairs_hook=last, parse_constant=None if constants else no_constant).decode(text)


def spellings(word: str) -> str:
    """A regular expression of ``word`` as a JSON string in any spelling: each character as itself or as its
    ``\\u00XX`` escape (hex digits in either case), which a JSON reader reads as the same key."""
    def hexes(c: str) -> str:
        return "".join(f"[{h}{h.upper()}]" if h.isalpha() else h for h in f"{ord(c):04x}")
    return '"' + "".join(rf"(?:{re.escape(c)}|\\u{hexes(c)})" for c in word) + '"'


_TOOLS_KEY = re.compile(spellings("tools"))  # a message without it in any spelling is no tools/list answer


def listing_twice(text: str, depth: int) -> tuple[dict[str, None], bool]:
    """The keys a JSON-RPC message names twice when it is a tools/list answer (a result holding ``"tools"``: another
    message's duplicates change no tool), read as the MCP SDK reads a message (one object: pydantic-core's reader,
    which takes NaN and Infinity, and no batch or byte order mark), and whether that answer nests deeper than a tool
    file may (``depth`` levels of the result, as json_depth holds a file holding it: one more for the message):
    such an answer is refused, as the file would be. ({}, False) for any other message, and for text that is not
    JSON or past the interpreter's stack (the SDK says what it cannot read). Linear: read once more than the SDK
    reads it, and only when it holds a ``"tools"`` key in some spelling."""
    if not _TOOLS_KEY.search(text):
        return {}, False
    found: dict[str, None] = {}
    try:  # a message past the depth is read only to tell whether it is a tools/list answer (to be refused)
        message = read_last(text, found, constants=True)
    except (ValueError, RecursionError):
        return {}, False
    result = message.get("result") if isinstance(message, dict) else None
    if not isinstance(result, dict) or "tools" not in result:
        return {}, False
    return found, not nests_at_most(text, depth + 1)
