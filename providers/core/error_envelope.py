"""How an API's error body looks, as data its provider module declares (``ERROR_ENVELOPES``).

``core/reply.py`` reads every form the modules declare, whichever provider answered (a proxy or a server in
front of a host may answer in another family's form). The forms are structural — an error object under a
key, a message as text under a key, FastAPI's ``detail``, a top-level ``message`` — and the order in which
they are tried is the reader's; which keys, which fields name the kind of error and what else is worth
showing belong to the family, each with its source.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from .model import quoted

Headers = Mapping[str, str] | None


class ErrorEnvelope:
    """One documented error body form (a module may declare several).
    (A plain class: a NamedTuple class costs ~0.2 ms of every command's start-up to create.)"""

    __slots__ = ('source', 'object_key', 'kind_keys', 'notes', 'details_key', 'text_key', 'detail_key',
                 'message_keys', 'type_keys', 'kind_of', 'marker', 'reply_keys',)

    def __init__(self, source: str, *, object_key: str | None = None, kind_keys: tuple[str, ...] = (),
                 notes: Callable[[dict[str, Any]], list[str]] | None = None, details_key: str | None = None,
                 text_key: str | None = None, detail_key: str | None = None, message_keys: tuple[str, ...] = (),
                 type_keys: tuple[str, ...] = (), kind_of: Callable[[Headers,
                 dict[str, Any]], str | None] | None = None, marker: tuple[str, str] | None = None,
                 reply_keys: tuple[str, ...] = ()) -> None:
        self.source = source  # where the form is documented or recorded, with the words
        self.object_key = object_key  # {"error": {"message", ...}}: the key holding an error object
        self.kind_keys = kind_keys  # that object's fields naming the kind of error (a word, not a number)
        self.notes = notes  # more of that object shown after the message
        self.details_key = details_key  # that object's field read when its message is empty (a non-empty list)
        self.text_key = text_key  # {"error": "..."}: the key holding the message as text
        self.detail_key = detail_key  # {"detail": ...} without a message: a validation error list or text
        self.message_keys = message_keys  # {"message": ...} at the top level
        self.type_keys = type_keys  # beside such a message: fields naming the kind
        self.kind_of = kind_of  # the kind from headers or body
        self.marker = marker  # a top-level field whose value says "error"
        self.reply_keys = reply_keys  # top-level keys only this family's success reply has


def detail_list(items: list[Any]) -> str:
    """FastAPI/pydantic validation details: ``msg (loc.path)`` joined by '; '."""
    parts = []
    for item in items:
        if isinstance(item, dict):
            msg = item.get("msg") or item.get("message") or quoted(item)
            loc = item.get("loc")
            where = ".".join(str(p) for p in loc) if isinstance(loc, list) and loc else ""
            parts.append(f"{msg} ({where})" if where else str(msg))
        else:
            parts.append(str(item))
    return "; ".join(parts)


def message_text(value: Any) -> str:
    """A message field that may be a string, a ``{"detail": [...]}`` object or anything else."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("detail"), list):
        return detail_list(value["detail"])
    if isinstance(value, dict) and isinstance(value.get("detail"), str):
        return value["detail"]
    if isinstance(value, list):
        return detail_list(value)
    return quoted(value)
