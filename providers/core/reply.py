"""Every provider's error body, read into one ProviderError (and one line).

Each provider module declares how its error body looks (``ERROR_ENVELOPES``, ``core/error_envelope.py``,
each with its source; the recorded bodies are in tests/data/responses/errors/SOURCES.md), reached through the
registry. Every declared form is read whichever provider answered, tried in this order: an error object
(``{"error": {"message", "type", "code", ...}}``), a message as text (``{"error": "..."}``), a ``detail``
without a message (FastAPI's validation errors), a top-level ``message``. Anything else (an HTML proxy page,
plain text): the status and the start of the body.

``provider_error`` never raises.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, Mapping, NamedTuple

from .bounded import cut, json_value
from .capabilities import CAPABILITIES
from .error_envelope import ErrorEnvelope, Headers, message_text
from .model import ProviderError, Reply, ToolchoiceError, quoted
from .redaction import printable
from .registry import module_for, parse_reply

MAX_MESSAGE = 1000
BODY_START = 200

_WS = re.compile(r"\s+")
_TAGS = re.compile(r"<[^>]+>")
_TITLE_OPEN = re.compile("<title", re.IGNORECASE)
_TITLE_CLOSE = re.compile("</title>", re.IGNORECASE)


# An HTML page's tags and title, as _TAGS.sub(" ", text) and re.search(r"<title[^>]*>(.*?)</title>", text, re.I | re.S)
# read them (the same texts: tests/test_regex_linear.py), read once: those patterns, tried at each "<" or "<title" of a
# server's page, read it to its end from each where no ">" or "</title>" followed (8,000 characters: ~38 ms each)
def _untagged(text: str) -> str:
    """``text`` with each tag a space: no tag starts after the last ``>``, so the rest is kept as it is."""
    end = text.rfind(">") + 1
    return _TAGS.sub(" ", text[:end]) + text[end:]


def _title(text: str) -> str | None:
    """The text between the first ``<title...>`` and the ``</title>`` after it: a later ``<title`` whose tag ends at
    the same ``>`` or a later one has no ``</title>`` after it either."""
    opened = _TITLE_OPEN.search(text)
    tag_end = -1 if opened is None else text.find(">", opened.end())
    closed = None if tag_end < 0 else _TITLE_CLOSE.search(text, tag_end + 1)
    return None if closed is None else text[tag_end + 1:closed.start()]


def _one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """One line of at most ``limit`` characters, without terminal escapes a server may have sent."""
    text = _WS.sub(" ", printable(text)).strip()
    return cut(text, limit)


def _word(value: Any) -> str | None:
    """A type-like string (``invalid_request_error``, ``INVALID_ARGUMENT``), not a number."""
    return value if isinstance(value, str) and value and not value.isdigit() else None


def _header(headers: Mapping[str, str] | None, name: str) -> str | None:
    if not headers:
        return None
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


@functools.lru_cache(maxsize=1)
class Forms(NamedTuple):
    """Every module's envelopes (``error_envelope.ErrorEnvelope``) merged, in the order the registry reaches the modules."""

    object_keys: tuple[str, ...]
    kind_keys: tuple[str, ...]
    notes: tuple[Callable[[dict[str, Any]], list[str]], ...]
    details_keys: tuple[str, ...]
    text_keys: tuple[str, ...]
    detail_keys: tuple[str, ...]
    message_keys: tuple[str, ...]
    type_keys: tuple[str, ...]
    kind_of: tuple[Callable[[Headers, dict[str, Any]], str | None], ...]
    markers: tuple[tuple[str, str], ...]
    reply_keys: frozenset[str]


def merged(envelopes: list[ErrorEnvelope]) -> Forms:
    def keys(values: Any) -> tuple[Any, ...]:
        return tuple(dict.fromkeys(v for v in values if v))

    return Forms(
        object_keys=keys(e.object_key for e in envelopes),
        kind_keys=keys(k for e in envelopes for k in e.kind_keys),
        notes=keys(e.notes for e in envelopes),
        details_keys=keys(e.details_key for e in envelopes),
        text_keys=keys(e.text_key for e in envelopes),
        detail_keys=keys(e.detail_key for e in envelopes),
        message_keys=keys(k for e in envelopes for k in e.message_keys),
        type_keys=keys(k for e in envelopes for k in e.type_keys),
        kind_of=keys(e.kind_of for e in envelopes),
        markers=keys(e.marker for e in envelopes),
        reply_keys=frozenset(k for e in envelopes for k in e.reply_keys),
    )


def _forms() -> Forms:
    """Every provider module's declared error envelopes, merged (each module imported once, when an error or
    a body that is not its own provider's reply is read)."""
    from .registry import error_envelopes

    return merged(error_envelopes())


def _kind_of(forms: Forms, headers: Mapping[str, str] | None, body: Mapping[str, Any]) -> str | None:
    """The kind a family reads beside its body (AWS's x-amzn-ErrorType), as one clean line."""
    for read in forms.kind_of:
        raw = read(headers, dict(body))
        if raw:
            return _one_line(raw).strip() or None
    return None


def _from_error_object(err: Mapping[str, Any], status: int | None, forms: Forms) -> ProviderError:
    message = message_text(err.get("message"))
    kind = next((w for w in (_word(err.get(k)) for k in forms.kind_keys) if w), None)
    code = err.get("code")
    if not kind and isinstance(code, str) and not code.isdigit():
        kind = code  # a code that is a word names the kind when no field does
    extras = []
    if isinstance(code, str) and code and code != kind and not code.isdigit():
        extras.append(f"code {code}")
    for notes in forms.notes:
        extras.extend(notes(dict(err)))
    for key in forms.details_keys:
        if not message and isinstance(err.get(key), list) and err[key]:
            message = quoted(err[key])
    if not message:
        message = "(empty message)"
    if extras:
        message += " [" + "; ".join(extras) + "]"
    return ProviderError(status, kind, _one_line(message))


def _looks_html(text: str) -> bool:
    start = text.lstrip()[:200].lower()
    return start.startswith("<!doctype html") or start.startswith("<html") or "<head" in start or "<body" in start


def _constants(text: str) -> list[str]:
    """NaN, Infinity, -Infinity where ``text`` is JSON but for them (as Python's json.loads reads it), else []."""
    import json

    if text.lstrip()[:1] not in ("{", "["):
        return []
    found: dict[str, None] = {}
    try:
        json.loads(text, parse_constant=lambda word: found.setdefault(word))
    except (ValueError, RecursionError):
        return []
    return list(found)


def _non_json(status: int | None, text: str) -> ProviderError:
    if not text.strip():
        return ProviderError(status, None, "empty response body")
    from .bounded import unreadable

    why = unreadable(text)
    if why is not None:  # JSON, past a bound of this program or of Python's (an integer's digits): said, not "non-JSON"
        return ProviderError(status, "unreadable_reply", f"the body is JSON this program cannot read: {why}")
    constants = _constants(text)
    if constants:  # JSON to Python's permissive json.loads: said why it is not (the body's start may not show it)
        return ProviderError(status, None, f"non-JSON response (it writes {' and '.join(constants)}, which JSON has "
                             f"no value for: RFC 8259): {_one_line(text, BODY_START)}")
    if _looks_html(text):
        title = _title(text)
        shown = _one_line(_untagged(text), BODY_START)
        label = f"HTML page \"{_one_line(title, 120)}\"" if title is not None else "HTML page"
        return ProviderError(status, None, f"non-JSON response ({label}): {shown}")
    return ProviderError(status, None, f"non-JSON response: {_one_line(text, BODY_START)}")


def provider_error(provider: str, status: int | None, body: Any, *,
                   headers: Mapping[str, str] | None = None) -> ProviderError:
    """Read an error response. ``body`` is the parsed JSON, or the raw text when it was not JSON
    (a string that parses as JSON is read as JSON). Never raises."""
    try:
        if status is not None and 300 <= status < 400:
            return _redirect(status, headers)
        return _read(provider, status, body, headers)
    except Exception as exc:  # noqa: BLE001 - an error reader must not fail
        return ProviderError(status, None, _one_line(f"unreadable error body ({type(exc).__name__}): "
                                                     f"{quoted(body)}", BODY_START))


def repeated_path(error: ProviderError, url: str) -> ProviderError:
    """A 404 at a URL whose path repeats its first segment (`/v1/v1/messages`: a base URL given with /v1 to a client
    whose paths start with it, as Anthropic's do): said, with what to give instead. Any other error as it was."""
    from urllib.parse import urlsplit

    twice = re.match(r"(/[^/]+)\1/", urlsplit(url).path)
    if error.status != 404 or twice is None:
        return error
    return error._replace(message=f"{error.message} (the URL's path repeats {twice.group(1)}: give the base URL "
                                  f"without its {twice.group(1)})")


def _redirect(status: int, headers: Mapping[str, str] | None) -> ProviderError:
    """A 3xx: redirects are never followed (a key must not travel to a host nobody named), so say
    where the server points instead."""
    location = _header(headers, "location")
    where = f"to {_one_line(location, BODY_START)}" if location else "without a Location header"
    return ProviderError(status, "redirect", f"the server redirects {where}; redirects are not followed "
                                             "(give the final URL as the base URL if you trust it)")


def _read(provider: str, status: int | None, body: Any, headers: Mapping[str, str] | None) -> ProviderError:
    del provider  # every declared form is recognized whoever answered; the name is for the caller's line
    if isinstance(body, bytes):
        body = body.decode("utf-8", errors="replace")
    if isinstance(body, str):
        try:
            body = json_value(body)
        except ValueError:
            return _non_json(status, body)
    if isinstance(body, list):
        first = next((item for item in body if isinstance(item, dict)), None)
        if first is None:
            return ProviderError(status, None, _one_line(quoted(body), BODY_START))
        body = first
    if body is None:
        return ProviderError(status, None, "empty response body")
    if not isinstance(body, dict):
        return ProviderError(status, None, _one_line(f"error body is JSON {type(body).__name__}: {quoted(body)}",
                                                     BODY_START))
    forms = _forms()
    for key in forms.object_keys:
        if isinstance(body.get(key), dict):
            return _from_error_object(body[key], status, forms)
    for key in forms.text_keys:
        if isinstance(body.get(key), str):
            return ProviderError(status, None, _one_line(body[key] or "(empty message)"))
    for key in forms.detail_keys:
        if key in body and "message" not in body:
            return ProviderError(status, None, _one_line(message_text(body[key]) or "(empty detail)"))
    for key in forms.message_keys:
        if key in body:
            kind = _kind_of(forms, headers, body) or next(
                (w for w in (_word(body.get(k)) for k in forms.type_keys) if w), None)
            message = message_text(body[key]) or "(empty message)"
            code = body.get("code")
            if isinstance(code, str) and code and code != kind:
                message += f" [code {code}]"
            return ProviderError(status, kind, _one_line(message))
    return ProviderError(status, _kind_of(forms, headers, body),
                         _one_line(f"unrecognized error body: {quoted(body)}", BODY_START * 2))


def looks_like_error(body: Any, provider: str | None = None) -> bool:
    """Whether a saved body with no status is an error envelope rather than a reply (for `parse`).
    ``provider``: whose reply it should be; its module's ``reply_keys`` decide a reply without asking the
    other modules."""
    if isinstance(body, list):
        keys = _forms().object_keys + _forms().text_keys
        return bool(body) and all(isinstance(i, dict) and any(k in i for k in keys) for i in body)
    if not isinstance(body, dict):
        return True
    if provider is not None and any(key in body for key in _own_reply_keys(provider)):
        return False
    forms = _forms()
    if any(key in body for key in forms.reply_keys):
        return False
    if any(body.get(key) == value for key, value in forms.markers):
        return True
    for key in forms.object_keys + forms.text_keys:
        if key in body and body[key] not in (None, {}, ""):
            return True
    if any(key in body for key in forms.detail_keys):
        return True
    message = next((body[key] for key in forms.message_keys if key in body), None)
    return isinstance(message, str)


def _own_reply_keys(provider: str) -> frozenset[str]:
    if provider not in CAPABILITIES:
        return frozenset()
    return frozenset(k for e in getattr(module_for(provider), "ERROR_ENVELOPES", ()) for k in e.reply_keys)


def read_reply(provider: str, status: int | None, body: Any, text: str = "", *,
               headers: Mapping[str, str] | None = None) -> Reply:
    """Any answer (or a saved body) → a normalized Reply; every failure becomes ``Reply.error``.

    ``body`` is the parsed JSON or None; ``text`` the raw text (used when ``body`` is None). A
    non-2xx status, a body that is not JSON, an error envelope (even with 200) and a body the
    provider's parser cannot read are all errors. ``status`` None means unknown (``parse``)."""
    failed = status is not None and not 200 <= status < 300
    if failed or body is None or looks_like_error(body, provider):
        return Reply(error=provider_error(provider, status, body if body is not None else text, headers=headers))
    try:
        reply = parse_reply(provider, body)
    except ToolchoiceError as exc:
        message = exc.message.removeprefix(f"{provider}: ")
        return Reply(error=ProviderError(status, "unreadable_reply", _one_line(message)))
    foreign = _foreign_shape(provider, body)
    if foreign:  # read by this provider's parser it is an empty reply (judged "obeyed") or calls misread
        return Reply(error=ProviderError(status, "unreadable_reply", foreign))
    return reply


def _foreign_shape(provider: str, body: Any) -> str | None:
    """When ``body`` lacks this family's documented reply shape and has another's (a base URL pointing at
    another API), say so (core/sniff.py; other families' modules are imported only then)."""
    if provider not in CAPABILITIES or not isinstance(body, dict) or module_for(provider).looks_like_reply(body):
        return None
    from .sniff import foreign_kind

    foreign = foreign_kind(provider, body)
    if foreign is None:
        return None
    what, suggestion = foreign
    return (f"this body looks like {what}, not a reply in {provider}'s format (the base URL may point at another "
            f"API; -p {suggestion} reads it)")
