"""What the APIs' limits say of an imported catalogue (``import.over_limit`` warnings): the capability rows'
``tool_limit`` and ``body_limits``, each with its dated fact, the same data render and send refuse with."""

from __future__ import annotations


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
