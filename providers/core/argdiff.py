"""Where providers' tool calls disagree: which tools they chose, and which argument values differ.

Pure: replies in, a JSON-ready diff out. Arguments are flattened to dotted paths (``a.b``, ``items[0]``)
so a nested difference is named exactly; a value missing on one provider is ``kind: missing``, strings
that differ only in letter case are ``kind: case``, anything else ``kind: differs``.
"""

from __future__ import annotations

from typing import Any

from .model import Reply

MISSING = "<missing>"


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict) and value:
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return out
    if isinstance(value, list) and value:
        out = {}
        for i, item in enumerate(value):
            out.update(flatten(item, f"{prefix}[{i}]"))
        return out
    return {prefix: value} if prefix else {}


def _kind(values: list[Any]) -> str:
    if any(v == MISSING for v in values):
        return "missing"
    if all(isinstance(v, str) for v in values) and len({v.casefold() for v in values}) == 1:
        return "case"
    return "differs"


def argument_diff(replies: dict[str, Reply]) -> dict[str, Any]:
    """Compare the first call of each tool across providers that replied without an error."""
    answered = {p: r for p, r in replies.items() if r.error is None}
    chosen = {p: [c.name for c in r.tool_calls] for p, r in answered.items()}
    first_calls: dict[str, dict[str, dict[str, Any]]] = {}  # tool -> provider -> flat arguments
    for provider, reply in answered.items():
        for call in reply.tool_calls:
            if call.arguments is not None:
                first_calls.setdefault(call.name, {}).setdefault(provider, flatten(call.arguments))
    differences = []
    for tool, by_provider in first_calls.items():
        if len(by_provider) < 2:
            continue
        paths = sorted({path for flat in by_provider.values() for path in flat})
        for path in paths:
            values = {p: flat.get(path, MISSING) for p, flat in by_provider.items()}
            if len({repr(v) for v in values.values()}) > 1:
                differences.append({"tool": tool, "path": path, "kind": _kind(list(values.values())),
                                    "values": values})
    distinct = {tuple(names) for names in chosen.values()}
    return {"tools": chosen, "same_tools": len(distinct) <= 1, "arguments": differences}
