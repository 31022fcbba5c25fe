"""OpenAI's strict tool rules (``openai_chat.py`` and ``openai_responses.py`` check every strict tool's schema
against them): additionalProperties false on every object, every property required (platform.openai.com's
Structured Outputs guide, "Supported schemas"; tests/test_common.py holds them to real schemas)."""

from __future__ import annotations

from typing import Any


def openai_strict_problems(schema: dict[str, Any], path: str = "parameters") -> list[str]:
    """Where a schema breaks OpenAI's strict rules: additionalProperties false on every object,
    every property required."""
    problems: list[str] = []
    if not isinstance(schema, dict):
        return problems
    if schema.get("type") == "object" or "properties" in schema:
        if schema.get("additionalProperties") is not False:
            problems.append(f"{path} needs additionalProperties: false")
        props = schema.get("properties") or {}
        missing = [k for k in props if k not in (schema.get("required") or [])]
        if missing:
            problems.append(f"{path} must list every property in required (missing: {', '.join(missing)}; "
                            "make optional ones nullable)")
        for key, sub in props.items():
            problems.extend(openai_strict_problems(sub, f"{path}.{key}"))
    for key in ("items",):
        if isinstance(schema.get(key), dict):
            problems.extend(openai_strict_problems(schema[key], f"{path}[]"))
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key) or []):
            problems.extend(openai_strict_problems(sub, f"{path}.{key}[{i}]"))
    for key in ("$defs", "definitions"):
        for name, sub in (schema.get(key) or {}).items():
            problems.extend(openai_strict_problems(sub, f"{path}.{key}.{name}"))
    return problems
