"""A saved reply's JSON document (`toolchoice parse`): the library's, as send's are (``records.py``); the command
line redacts it and prints it."""

from __future__ import annotations

from typing import Any

from .model import Reply, Translation


def parse_json(provider: str, reply: Reply, verdict: dict[str, Any] | None,
               translation: Translation | None, stream: Any = None) -> dict[str, Any]:
    """What `parse --format json` prints, before redaction: the reply as read (``reply.to_json``), the verdict, and,
    where a scenario was given, the choice asked and sent and the request's ledger; with ``stream``, how the saved
    stream was assembled (``streaming.assemble_bytes``)."""
    data = {
        "provider": provider,
        "requested_tool_choice": translation.requested_tool_choice if translation is not None else None,
        "effective_tool_choice": translation.effective_tool_choice if translation is not None else None,
        "reply": reply.to_json(),
        "verdict": verdict,
        "ledger": [e.to_json() for e in translation.ledger] if translation is not None else [],
        "error": reply.error.one_line(provider) if reply.error else None,
    }
    if stream is not None:
        data["stream"] = stream.to_json()
    return data
