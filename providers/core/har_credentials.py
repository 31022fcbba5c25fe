"""The credentials a HAR entry's request holds (``trace_har``): its credential headers, cookies, query parameters
named for a key, the user and password of its URL and what a ``Basic`` credential decodes to, collected so that
everything ``trace FILE.har`` and ``run --replay FILE.har`` say is redacted of them (a HAR holds them in clear)."""

from __future__ import annotations

import base64
import binascii
from typing import Any


def credentials(request: dict[str, Any], parts: Any, found: dict[str, str]) -> None:
    """The values of the request's credential headers (Authorization, x-api-key, x-goog-api-key, a cookie), its
    cookies, its query parameters named for a key (Gemini's ``?key=``), the user and password of its URL (RFC 3986
    3.2.1 ``user:password@host``) and what a ``Basic`` credential decodes to (RFC 7617: base64 of ``user:password``):
    never shown, wherever they are quoted."""
    from urllib.parse import parse_qsl, unquote

    from .key_looks import credential_field
    from .redaction import key_header

    def keep(piece: str) -> None:
        for spelled in {piece.strip(), unquote(piece).strip()}:
            if len(spelled) >= 8:
                found[spelled] = "[redacted]"

    for piece in (parts.username, parts.password):
        if piece:
            keep(piece)
    query = [(n, v) for n, v in parse_qsl(parts.query, keep_blank_values=True) if credential_field(n)]
    for field, named in (("headers", key_header), ("cookies", lambda _: True),
                         ("queryString", credential_field)):
        items = request.get(field)
        for item in items if isinstance(items, list) else ():
            if not isinstance(item, dict) or not isinstance(item.get("value"), str):
                continue
            name, value = str(item.get("name", "")), item["value"]
            if not named(name) and not (field == "headers" and name.lower() == "cookie"):
                continue
            scheme, _, rest = value.strip().partition(" ")
            if field == "headers" and scheme.lower() == "basic":
                try:
                    decoded = base64.b64decode(rest.strip(), validate=True).decode("utf-8")
                except (binascii.Error, ValueError):
                    decoded = ""
                for piece in decoded.split(":", 1):
                    keep(piece)
            for piece in {value, value.split(" ", 1)[-1], *(p.split("=", 1)[-1] for p in value.split(";"))}:
                keep(piece)
    for _, value in query:
        keep(value)
