"""Anthropic's strict tool rules (``anthropic.py`` checks every strict tool's schema against them)."""

from __future__ import annotations

from typing import Any


# Anthropic's strict tool use, as its SDK's transform_schema (anthropic 2.12.0 lib/_parse/_transform.py)
# encodes the API's JSON Schema subset: what it keeps is supported, what it moves into the description is not.
_ANTHROPIC_STRING_FORMATS = frozenset(("date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4",
                                       "ipv6", "uuid"))
_ANTHROPIC_TYPES = frozenset(("object", "array", "string", "integer", "number", "boolean", "null"))
_ANTHROPIC_KEPT = frozenset(("$defs", "$ref", "type", "anyOf", "allOf", "enum", "const", "description", "title",
                             "properties", "additionalProperties", "required", "format", "items", "minItems"))


def _primitive(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def anthropic_strict_problems(schema: Any, path: str = "input_schema") -> list[str]:
    """Where a schema breaks Anthropic's strict-tool rules: every object closed with additionalProperties
    false, enum/const of primitives, anyOf rather than oneOf, a type (or anyOf/allOf/enum/const) on every
    node, the listed string formats only, minItems 0 or 1, none of the other keywords (minimum, pattern,
    maxLength, ...). Optional properties may stay out of required, unlike OpenAI's rules."""
    problems: list[str] = []
    if not isinstance(schema, dict):
        return problems
    for name, sub in (schema.get("$defs") or {}).items():
        problems.extend(anthropic_strict_problems(sub, f"{path}.$defs.{name}"))
    if "$ref" in schema:
        return problems
    kind = schema.get("type")
    literal = ("enum" in schema and isinstance(schema["enum"], list) and schema["enum"]
               and all(_primitive(v) for v in schema["enum"])) or ("const" in schema and _primitive(schema["const"]))
    if "enum" in schema and not literal and "const" not in schema:
        problems.append(f"{path}: enum must list strings, numbers, booleans or null")
    if "oneOf" in schema:
        problems.append(f"{path}: oneOf is not supported (use anyOf)")
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key) or []):
            problems.extend(anthropic_strict_problems(sub, f"{path}.{key}[{i}]"))
    composed = any(k in schema for k in ("anyOf", "oneOf", "allOf"))
    if not composed and not literal:
        if kind is None:
            problems.append(f"{path}: needs a type (or anyOf, enum or const)")
        elif not isinstance(kind, str) or kind not in _ANTHROPIC_TYPES:
            problems.append(f"{path}: type {kind!r} is not supported (one type per node; use anyOf for several)")
    unsupported = [k for k in schema if k not in _ANTHROPIC_KEPT and k != "oneOf"]
    if kind == "object" and not composed and not literal:
        if schema.get("additionalProperties") is not False:
            problems.append(f"{path} needs additionalProperties: false")
        for key, sub in (schema.get("properties") or {}).items():
            problems.extend(anthropic_strict_problems(sub, f"{path}.{key}"))
    if "format" in schema and (kind != "string" or schema["format"] not in _ANTHROPIC_STRING_FORMATS):
        unsupported.append("format")
    if kind == "array" and not composed and not literal:
        if isinstance(schema.get("items"), dict):
            problems.extend(anthropic_strict_problems(schema["items"], f"{path}[]"))
        if "minItems" in schema and schema["minItems"] not in (0, 1):
            unsupported.append("minItems")
    elif "minItems" in schema:
        unsupported.append("minItems")
    if unsupported:
        problems.append(f"{path}: {', '.join(f'{k}: {schema[k]!r}' for k in unsupported)} not supported")
    return problems
