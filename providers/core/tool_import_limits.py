"""What the APIs' limits say of an imported catalogue (``import.over_limit`` warnings): the capability rows'
``tool_limit`` and ``body_limits``, each with its dated fact, the same data render and send refuse with."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .model import LedgerEntry, Tool

def refusing_apis(count: int) -> str:
    """The APIs whose capability row says they refuse ``count`` tools in one request (``tool_limit``, each with its
    dated fact), grouped by limit: the same data render and send refuse with; "" when none does."""
    from .capabilities import CAPABILITIES

    by_most: dict[int, list[str]] = {}
    for row in CAPABILITIES.values():
        if row.tool_limit is not None and count > row.tool_limit.most:
            by_most.setdefault(row.tool_limit.most, []).append(f"{row.title} (fact {row.tool_limit.fact})")
    return "; ".join(f"{', '.join(titles)} refuse{'s' if len(titles) == 1 else ''} more than {most} in one request"
                     for most, titles in sorted(by_most.items()))


def _chat(tools: Sequence[Tool]) -> dict[str, Any]:
    """Chat Completions' tools (what the chat_* and openai_* measures read; they read Responses' flat form too)."""
    out = []
    for tool in tools:
        function: dict[str, Any] = {"name": tool.name, "parameters": tool.parameters}
        if tool.description is not None:
            function["description"] = tool.description
        if tool.strict is not None:
            function["strict"] = tool.strict
        out.append({"type": "function", "function": function})
    return {"tools": out}


def _messages(tools: Sequence[Tool]) -> dict[str, Any]:
    """Anthropic Messages' tools (what the anthropic_* measures read)."""
    return {"tools": [{"name": t.name, "input_schema": t.parameters, **({"strict": t.strict} if t.strict else {})}
                      for t in tools]}


def _cohere(tools: Sequence[Tool]) -> dict[str, Any]:
    """Cohere v2: strict_tools is one flag for every tool, set when any tool is strict (cohere.py: strict.widened)."""
    return {**_chat(tools), **({"strict_tools": True} if any(t.strict for t in tools) else {})}


# The body each measure of core/body_limits.py reads, by the measure's prefix.
_BODIES: dict[str, Callable[[Sequence[Tool]], dict[str, Any]]] = {
    "chat_": _chat, "openai_": _chat, "anthropic_": _messages, "cohere_": _cohere}


def body_for(measure: str, tools: Sequence[Tool]) -> dict[str, Any] | None:
    """The request body ``measure`` reads, holding ``tools``; None for a measure of no known body."""
    build = next((b for prefix, b in _BODIES.items() if measure.startswith(prefix)), None)
    return build(tools) if build is not None else None


def field_warnings(tools: Sequence[Tool]) -> list[LedgerEntry]:
    """One ``import.over_limit`` warning per tool (or request) and limit past a capability row's ``body_limits``,
    naming every API that states it with its fact: "refuses" where the source says the API does, "documents" where
    the source is secondary."""
    from .body_limits import MEASURES
    from .capabilities import CAPABILITIES

    found: dict[tuple[str, int, str, int, str, int, str], list[tuple[str, str]]] = {}
    bodies: dict[str, dict[str, Any] | None] = {}
    for row in CAPABILITIES.values():
        for limit in row.body_limits:
            if limit.measure not in bodies:
                bodies[limit.measure] = body_for(limit.measure, tools)
            body = bodies[limit.measure]
            for index, name, count in MEASURES[limit.measure](body) if body is not None else ():
                if count > limit.most:
                    key = (limit.severity, limit.most, limit.what, index, name, count, limit.measure)
                    found.setdefault(key, []).append((row.title, limit.fact))
    notes = []
    for (severity, most, what, index, name, count, _), rows in found.items():
        titles = ", ".join(dict.fromkeys(title for title, _ in rows))
        facts = ", ".join(dict.fromkeys(fact for _, fact in rows))
        where = f"tool '{name}': {count} {what}" if index >= 0 else f"{count} {what}"
        if severity == "error":
            said = (f"{titles} refuse{'s' if len(rows) == 1 else ''} more than {most} (fact"
                    f"{'s' if len(rows) > 1 else ''} {facts}); bring it to {most} or fewer before sending it there")
        else:
            said = f"a source says {titles} take{'s' if len(rows) == 1 else ''} at most {most} (fact {facts}): the API may refuse it"
        notes.append(LedgerEntry("warning", "import.over_limit", f"{where}: {said}"))
    return notes
