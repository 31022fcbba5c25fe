"""A saved reply's JSON document (`toolchoice parse`): the library's, as send's are (``records.py``); the command
line redacts it and prints it."""

from __future__ import annotations

from typing import Any, Sequence

from .model import LedgerEntry, Reply, Translation


def parse_json(provider: str, reply: Reply, verdict: dict[str, Any] | None,
               translation: Translation | None, stream: Any = None,
               reply_findings: Sequence[LedgerEntry] = ()) -> dict[str, Any]:
    """What `parse --format json` prints, before redaction: the reply as read (``reply.to_json``), the verdict, and,
    where a scenario was given, the choice asked and sent and the request's ledger; with ``stream``, how the saved
    stream was assembled (``streaming.assemble_bytes``); with ``reply_findings``, what the saved body itself showed
    (``reply.duplicate_key``: ``ledger`` is the request's, and without a scenario there is no verdict to hold it)."""
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
    if reply_findings:
        data["reply_findings"] = [e.to_json() for e in reply_findings]
    return data
