"""``--save DIR`` for mock and proxy: each exchange as ``send --save`` keeps a sample (core/save.py's
atomic files and names), every text redacted with the keys the client sent, and the MCP secrets of the body
(body_secrets: ``[redacted]`` in the saved request body, every text redacted with their values)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..redaction import Redactor, safe_json_text
from ..save import write_atomic
from .body_secrets import MARKER, KeyPath, scrub, scrub_text
from ..redaction import key_header

_SUFFIX = {"sse": ".sse", "ndjson": ".ndjson", "eventstream": ".eventstream"}


def save_exchange(folder: Path, number: int, request: Any, status: int, body: bytes | None, framing: str | None,
                  line: dict[str, Any], secrets: dict[str, str], secret_paths: tuple[KeyPath, ...] = (),
                  found: dict[str, str] | None = None) -> None:
    """Write one exchange; ``secrets`` (value -> placeholder) are redacted from every text, and the body's values
    at ``secret_paths`` (the family's MOCK_SECRETS) are replaced by MARKER whatever their length; every key found by
    its look (redaction.redact_patterns: a KEY_SHAPES key, a credential field's value, a URL's ?key=) is replaced,
    and ``found`` (body_secrets.body_keys) by value, in every spelling and piece."""
    redactor = Redactor(secrets, found=found)
    stem = f"sample-{number:03d}"
    headers = {k: (MARKER if key_header(k) else _as_sent(v)) for k, v in request.headers.items()}
    try:
        sent: Any = scrub(json.loads(request.body), secret_paths).body if request.body.strip() else None
    except (ValueError, RecursionError):
        sent = scrub_text(request.body.decode("utf-8", "replace"), secret_paths)
    document = {"method": request.method, "url": request.target, "headers": headers, "body": sent}
    write_atomic(folder / f"{stem}.request.json", redactor.document(document) + "\n")  # save.dumps' text, redacted
    if body is not None:
        if framing is not None:  # an AWS event stream re-framed with its payloads redacted (it was saved as it came)
            from ..stream_redaction import redact_stream

            saved = redact_stream(body, framing, redactor)
            if saved and _assembles_a_key(line.get("provider"), saved, redactor):
                saved = b""  # a key in pieces of a few characters an event (a model that spelled one out): as send does
            write_atomic(folder / f"{stem}.response{_SUFFIX[framing]}", saved)
        else:  # a key the upstream quoted with some characters \u-escaped is found in the decoded body too
            text = body.decode("utf-8", "replace")
            try:
                parsed = json.loads(text) if redactor and text.strip() else None
            except (ValueError, RecursionError):
                parsed = None
            write_atomic(folder / f"{stem}.response.json", safe_json_text(text, parsed, redactor))
    write_atomic(folder / f"{stem}.reply.json", redactor.document({**line, "http_status": status}) + "\n")


def _assembles_a_key(provider: Any, saved: bytes, redactor: Redactor) -> bool:
    """Whether a redacted stream, put together as ``parse --stream`` would, still makes a key (streaming's check:
    the stream is then saved empty, as ``send --stream --save`` withholds it)."""
    from ..streaming import _assembles_a_key as assembles

    return isinstance(provider, str) and assembles(provider, saved, redactor)


def _as_sent(value: str) -> str:
    """A header's value as the client wrote it: read off the wire byte for byte (latin-1, HTTP's obs-text), it is
    UTF-8 text where its bytes are ("Café", not "CafÃ©"), else left as read."""
    try:
        return value.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return value
