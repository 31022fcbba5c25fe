"""A saved request's headers in its scenario: a ``*-beta`` header (the API's own opt-in) is carried into
``providers.<id>.headers``; every other one the sender wrote is named in a ledger note (its name only, never its
value: a header may hold a secret, ``[redacted]`` in the save), so none goes away unsaid, a gateway's key header
among them. Not named: the headers an HTTP client writes for each message itself, the host and the message's
framing (RFC 9110 section 7.2 Host, 7.6.1 Connection; RFC 9112 section 6 Content-Length, Transfer-Encoding)."""

from __future__ import annotations

import json
from typing import Any

from .model import LedgerEntry
from .saved_key_refs import Ref, key_refs

_PER_MESSAGE = frozenset({"host", "connection", "content-length", "transfer-encoding"})
NAMED = 20  # header names a note lists; the rest are counted
NAME_SHOWN = 64  # characters of one header's name


def carried_headers(document: dict[str, Any], provider: str, refs: dict[str, Ref],
                    notes: list[LedgerEntry]) -> dict[str, Any] | None:
    """The ``headers`` of ``providers.<provider>``, None when no header is carried; ``notes`` get what was done."""
    from .request_parts import HEADER_NAME

    headers = document.get("headers") if isinstance(document.get("headers"), dict) else {}
    beta = {k: v for k, v in headers.items() if isinstance(v, str) and k.lower().endswith("-beta") and "$" not in v}
    carried = None
    if beta:  # a key's shape in one: its $NAME (literal_keys.check_header_shape's)
        carried = {k: key_refs(v, f"providers.{provider}.headers.{k}", k, False, refs, header=True)
                   for k, v in beta.items()}
        notes.append(LedgerEntry("info", "saved.headers", f"kept the request's {', '.join(beta)} header in "
                                 f"providers.{provider}.headers; its other headers are not carried"))
    left = [str(k) for k in headers if k not in beta and str(k).lower() not in _PER_MESSAGE]
    if left:
        shown = [k[:NAME_SHOWN] if HEADER_NAME.fullmatch(k) else json.dumps(k)[:NAME_SHOWN] for k in left[:NAMED]]
        more = f" and {len(left) - NAMED} more" if len(left) > NAMED else ""
        notes.append(LedgerEntry("info", "saved.headers_not_carried", f"the request's header{'s' * (len(left) > 1)} "
                                 f"{', '.join(shown)}{more} not carried (the scenario's send writes its own; to send "
                                 f"one again, write it under providers.{provider}.headers)"))
    return carried
