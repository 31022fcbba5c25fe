"""Secrets a client sends inside a request body: the values it hands an MCP server (its headers, its token).

A family's mock module names where they sit as ``MOCK_SECRETS``, paths of keys into the body (``"*"``: every
element of an array, every value of an object). The mock and the proxy judge the body as it was sent (and the
proxy forwards it unchanged: the real API needs them); whatever they keep or show — the ``--save`` files, the
jsonl records, the Responses mock's echo of ``tools`` in its reply — holds ``MARKER`` in their place, never the
value. ``secrets`` gives the values found to a ``Redactor`` too, for texts that are not the body (an upstream
reply, a record's message).
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple

MARKER = "[redacted]"  # as the saved request's key headers (saving.py)
KeyPath = tuple[str, ...]


class Scrubbed(NamedTuple):
    body: Any  # the body with every secret replaced by MARKER (the body itself when it held none)
    values: tuple[str, ...]  # the values replaced, as text


def scrub(body: Any, paths: Iterable[KeyPath]) -> Scrubbed:
    """``body`` with the value at each of ``paths`` replaced by MARKER; copies only what changes. Never raises on
    a body of odd types: a path that does not fit the body is left alone."""
    found: list[str] = []
    for path in paths:
        body = _scrub(body, path, found)
    return Scrubbed(body, tuple(found))


def scrub_module(module: Any, body: Any) -> Scrubbed:
    """``scrub`` with the family's ``MOCK_SECRETS`` (none: the body as it is)."""
    paths = getattr(module, "MOCK_SECRETS", ())
    return scrub(body, paths) if paths else Scrubbed(body, ())


# How many values the mock hands a Redactor besides the scrubbed body. The body's places hold MARKER whatever the
# count (``scrub``), and the mock's replies and records are made from it, so the texts' redaction only stands
# guard (a client's tool_choice quoting its own token); a Redactor costs ~0.2 ms a value to build (10,000 tokens
# in one body: 2 s), so the guard takes the first ones only. The proxy gives all (the upstream's reply may echo).
GUARD_AT_MOST = 256


def secrets(values: Iterable[str], at_most: int | None = None) -> dict[str, str]:
    """value -> MARKER for a Redactor: each value, and what follows an auth scheme (``Bearer <token>``); the
    first ``at_most`` values only, when given."""
    out: dict[str, str] = {}
    for count, value in enumerate(values):
        if at_most is not None and count >= at_most:
            break
        out[value] = MARKER
        scheme, _, rest = value.strip().partition(" ")
        if scheme and rest.strip():
            out[rest.strip()] = MARKER
    return out


def redacted(value: Any, kept: dict[str, str], found: dict[str, str] | None = None) -> Any:
    """A record or message with the body's secrets (``secrets``) replaced, and every key found by its look
    (``redaction.redact_patterns``; ``found``, the body's, by value too: ``body_keys``): none of the mock's own
    words quote them, but a client's tool_choice, a model's call arguments or an exception's words may."""
    from ..redaction import Redactor

    return Redactor(kept, found=found).data(value)


# How many keys found by their look in one body are searched for by value (a piece of one quoted elsewhere): every
# spelling of the first redaction.SPELLED_FOUND, the text itself of the rest. Past these a key is still replaced
# whole wherever its look finds it; its pieces are not searched for (the index costs ~9 kB a key past the first 256,
# ~95 kB each of those: ~31 MiB for 1,024, built once per body; docs/keys.md).
FOUND_AT_MOST = 1024


def body_keys(body: Any) -> dict[str, str]:
    """The keys a client's body holds by their look, wherever it put them (an ``api_key`` field, LiteLLM's
    ``extra_body``, a key pasted into a prompt or echoed in a tool result: ``redaction.pattern_keys``), value ->
    MARKER: every text the mock or proxy keeps or shows is redacted with them, a piece of one too. The first
    FOUND_AT_MOST only (a key past them is still replaced whole where its look finds it)."""
    from ..redaction import pattern_keys

    return pattern_keys(body, FOUND_AT_MOST) if body is not None else {}


def scrub_text(text: str, paths: Iterable[KeyPath]) -> str:
    """A body that is no JSON (kept as text by ``--save``): the value after each key that ends a path (a string,
    or a flat object or array) replaced by MARKER, as far as it can be found without parsing."""
    import re

    names = {next((step for step in reversed(path) if step != "*"), "") for path in paths} - {""}
    for name in sorted(names):
        text = re.sub(r'("%s"\s*:\s*)("(?:[^"\\]|\\.)*"|\{[^{}]*\}|\[[^\[\]]*\])' % re.escape(name),
                      lambda match: match.group(1) + '"' + MARKER + '"', text)
    return text


URL_PARTS = "@url"  # a path's last step: the credentials a URL there carries (user info, query, fragment)


def _url_scrubbed(value: Any, found: list[str]) -> Any:
    """A URL with its user info, query and fragment (where a client puts a key) replaced by MARKER; the scheme,
    host and path kept (they say which server it was)."""
    from urllib.parse import urlsplit, urlunsplit

    if not isinstance(value, str):
        return value
    try:
        parts = urlsplit(value)
        netloc = parts.netloc
    except ValueError:
        found.append(value)
        return MARKER
    userinfo, at, host = netloc.rpartition("@")
    secret = [p for p in (userinfo if at else "", parts.query, parts.fragment) if p]
    if not secret:
        return value
    found.extend(secret)
    return urlunsplit((parts.scheme, (MARKER + "@" + host) if at else netloc, parts.path,
                       MARKER if parts.query else "", MARKER if parts.fragment else ""))


def _scrub(value: Any, path: KeyPath, found: list[str]) -> Any:
    if path == (URL_PARTS,):
        return _url_scrubbed(value, found)
    if not path:
        if value is None:
            return None
        found.extend(_texts(value))
        return MARKER
    step, rest = path[0], path[1:]
    if isinstance(value, dict):
        keys = list(value) if step == "*" else [step] if step in value else []
        copy: dict[Any, Any] | None = None
        for key in keys:
            inner = value[key]
            done = _scrub(inner, rest, found)
            if done is not inner:
                copy = dict(value) if copy is None else copy
                copy[key] = done
        return value if copy is None else copy
    if isinstance(value, list) and step == "*":
        items: list[Any] | None = None
        for index, inner in enumerate(value):
            done = _scrub(inner, rest, found)
            if done is not inner:
                items = list(value) if items is None else items
                items[index] = done
        return value if items is None else items
    if step == "*" and not rest and value is not None:  # e.g. headers that are not an object: all of it
        found.extend(_texts(value))
        return MARKER
    return value


def _texts(value: Any) -> list[str]:
    """Every string and other scalar inside ``value`` as text (iterative: a body may nest deep)."""
    import json

    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            out.append(item)
        elif item is not None:
            out.append(json.dumps(item))
    return out
