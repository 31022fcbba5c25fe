"""What the APIs' limits say of an imported catalogue (``import.over_limit`` warnings): the capability rows'
``tool_limit`` and ``body_limits``, each with its dated fact, the same data render and send refuse with."""

from __future__ import annotations

from typing import Any, Sequence

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


def body_for(provider: str, tools: Sequence[Tool]) -> dict[str, Any] | None:
    """The request body a row's ``body_limits`` are measured on, holding ``tools``: its module's ``limits_body``
    (the family's own tool form); None for a module that declares none."""
    from .registry import module_for

    build = getattr(module_for(provider), "limits_body", None)
    return build(tools) if build is not None else None


def field_warnings(tools: Sequence[Tool]) -> list[LedgerEntry]:
    """One ``import.over_limit`` warning per tool (or request) and limit past a capability row's ``body_limits``,
    naming every API that states it with its fact: "refuses" where the source says the API does, "documents" where
    the source is secondary."""
    from .body_limits import MEASURES
    from .capabilities import CAPABILITIES

    found: dict[tuple[str, int, str, int, str, int, str], list[tuple[str, str]]] = {}
    bodies: dict[str, dict[str, Any] | None] = {}  # by module: the rows of one family share its body
    for row in CAPABILITIES.values():
        for limit in row.body_limits:
            if row.module not in bodies:
                bodies[row.module] = body_for(row.provider, tools)
            body = bodies[row.module]
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
