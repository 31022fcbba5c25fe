"""Helpers the family modules share when they read a request body back (``mock_read``)."""

from __future__ import annotations

import json
from typing import Any, Iterable

from ..model import HistoryCall, LedgerEntry, Message, Tool
from .judge import MockMalformed


def read_tools(entries: Any, expect: str | None = None) -> tuple[tuple[Tool, ...], tuple[LedgerEntry, ...]]:
    """A body's tool list as neutral tools (core/tool_import's readers); hosted tools are left out and named."""
    from ..tool_import import ImportProblem, convert

    if entries is None:
        return (), ()
    if not isinstance(entries, list):
        raise MockMalformed(f"tools must be an array, not {type(entries).__name__}")
    if not entries:
        return (), ()
    try:
        imported = convert(entries, "tools", expect=expect)
    except ImportProblem as problem:
        if "no function tools" in problem.message:
            return (), (LedgerEntry("info", "mock.unjudged", "tools: only hosted tools, passed unjudged"),)
        where = ".".join(str(w) for w in problem.where)
        raise MockMalformed(f"tools{'.' + where if where else ''}: {problem.message}") from None
    notes = tuple(LedgerEntry(n.severity, "mock.unjudged" if n.code == "import.skipped" else n.code, n.message)
                  for n in imported.notes if not (n.severity == "info" and n.code.startswith("import.")))
    return imported.tools, notes


def arguments_object(value: Any) -> dict[str, Any]:
    """History call arguments (JSON text or an object) as an object; unreadable ones as {}."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        try:
            parsed = json.loads(value) if value.strip() else {}
        except ValueError:
            return {}
        return parsed if isinstance(parsed, dict) else {}
    return {}


def text_of(content: Any) -> str | None:
    """A message's text: a string, or the text of its parts ({type: text|input_text|output_text, text})."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p.get("text") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "\n".join(texts) if texts else None
    return None


def tool_message(call_id: str, names: dict[str, str], content: Any, is_error: bool = False) -> Message:
    text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    return Message("tool", text, tool_call_id=call_id, tool_name=names.get(call_id, "unknown"), is_error=is_error)


def calls_message(calls: Iterable[HistoryCall], names: dict[str, str], text: str | None = None,
                  reasoning: tuple[Any, ...] = ()) -> Message:
    made = tuple(calls)
    for call in made:
        names[call.id] = call.name
    return Message("assistant", text, tool_calls=made, reasoning=reasoning)


def unjudged(body: dict[str, Any], known: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(key for key in body if key not in known))
