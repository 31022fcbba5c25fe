"""Anthropic strict tool use: toolchoice's lint agrees with the official SDK's own rules.

The oracle is anthropic's ``transform_schema`` (anthropic 2.12.0 lib/_parse/_transform.py), which
rewrites a schema into the subset Anthropic's strict mode supports: a schema it leaves unchanged is
one the lint must accept, and one it changes (or refuses) is one the lint must flag. Two rewrites the
SDK makes are normalization, not rules, and are undone before comparing: it drops ``type`` beside
enum/const/anyOf/allOf.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sdk_types import missing

from toolchoice.providers.core import registry
from toolchoice.providers.core.scenario import load_scenario_text
from toolchoice.providers.anthropic_strict import anthropic_strict_problems

SCHEMAS = Path(__file__).parent / "data" / "schemas"
pytestmark = pytest.mark.skipif(missing("anthropic"), reason="anthropic (in the [test] extra) is not installed")


def transform_schema(schema: Any) -> Any:
    """The oracle, imported when a test runs rather than at collection (anthropic takes ~1 s to import)."""
    from anthropic.lib._parse._transform import transform_schema as sdk_transform_schema

    return sdk_transform_schema(schema)


def _normal(schema: Any) -> Any:
    if isinstance(schema, dict):
        out = {k: _normal(v) for k, v in schema.items()}
        if any(k in out for k in ("enum", "const", "anyOf", "allOf")):
            out.pop("type", None)
        return out
    if isinstance(schema, list):
        return [_normal(v) for v in schema]
    return schema


def sdk_accepts(schema: dict[str, Any]) -> bool:
    try:
        return _normal(transform_schema(schema)) == _normal(schema)
    except (ValueError, AssertionError, TypeError):
        return False


HANDMADE: list[dict[str, Any]] = [
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": False},
    {"type": "object", "properties": {"city": {"type": "string"}}},  # not closed
    {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "additionalProperties": False},
    {"type": "object", "properties": {"s": {"type": "string", "pattern": "^a"}}, "additionalProperties": False},
    {"type": "object", "properties": {"s": {"type": "string", "format": "email"}}, "additionalProperties": False},
    {"type": "object", "properties": {"s": {"type": "string", "format": "hex"}}, "additionalProperties": False},
    {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
     "additionalProperties": False},
    {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}, "minItems": 2}},
     "additionalProperties": False},
    {"type": "object", "properties": {"u": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
     "additionalProperties": False},
    {"type": "object", "properties": {"u": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
     "additionalProperties": False},
    {"type": "object", "properties": {"e": {"type": "string", "enum": ["a", "b"]}}, "additionalProperties": False},
    {"type": "object", "properties": {"o": {"type": "object", "properties": {"x": {"type": "number"}}}},
     "additionalProperties": False},
    {"type": "object", "properties": {"any": {}}, "additionalProperties": False},
    {"type": "object", "properties": {"r": {"$ref": "#/$defs/R"}}, "$defs": {"R": {"type": "string"}},
     "additionalProperties": False},
]


def _recorded() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(SCHEMAS.glob("*.json")):
        data = json.loads(path.read_text())
        tools = data["tools"] if isinstance(data, dict) and "tools" in data else data if isinstance(data, list) else [data]
        for tool in tools:
            schema = tool.get("parameters") or tool.get("input_schema") or tool.get("inputSchema")
            if isinstance(schema, dict):
                out.append((f"{path.stem}:{tool.get('name')}", schema))
    return out


CASES = [(f"handmade-{i}", s) for i, s in enumerate(HANDMADE)] + _recorded()


@pytest.mark.parametrize("name, schema", CASES, ids=[c[0] for c in CASES])
def test_lint_agrees_with_the_sdk_transform(name: str, schema: dict[str, Any]):
    assert (anthropic_strict_problems(schema) == []) == sdk_accepts(schema), anthropic_strict_problems(schema)


def test_both_sides_of_the_oracle_are_exercised():
    verdicts = {sdk_accepts(s) for _, s in CASES}
    assert verdicts == {True, False}


def test_a_strict_tool_breaking_the_rules_is_a_warning_in_the_ledger():
    scenario = load_scenario_text("""
tools:
  - name: f
    strict: true
    parameters: {type: object, properties: {n: {type: integer, minimum: 1}}}
tool_choice: auto
messages: [{role: user, content: hi}]
""")
    t = registry.translate("anthropic", scenario)
    assert t.request is not None and t.request.body["tools"][0]["strict"] is True
    messages = [e.message for e in t.ledger if e.code == "schema.strict_invalid"]
    assert any("additionalProperties: false" in m for m in messages)
    assert any("minimum" in m for m in messages)
