"""Limits an API's source states on one tool's fields and on its strict schemas, measured on the wire body as sent.

A capability row's ``body_limits`` hold them (``capabilities.py``), each naming its dated fact: ``severity`` "error"
where the source says the API refuses (render and send refuse first, quoting the API's words; the mock answers them),
"warning" where the limit is read from a secondary copy or rests on recordings over a year old (the request is sent;
core/fact_freshness.py). Where no source states a limit, a row
holds none. Measured on the body, as ``ToolLimit`` is, so the translators, the mock and a saved body agree.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, NamedTuple

# (index of the tool, or -1 for the whole request; the tool's name or ""; the count measured)
Measured = Iterator[tuple[int, str, int]]


class BodyLimit(NamedTuple):
    """The most of one measure a source says an API takes. ``words``: the API's error message with {count} (the
    measure), {index} (the tool's place in the tools array) filled in; ``what`` says what is counted."""

    fact: str
    code: str  # the ledger code: tool.over_limit (one tool's field) or schema.over_limit (strict schemas)
    severity: str  # "error": the API refuses past it; "warning": a secondary source states it
    most: int
    measure: str  # a key of MEASURES
    what: str
    words: str = ""

    def over(self, body: Any) -> tuple[int, str, int, str] | None:
        """(index, tool name, count, the API's words) for the first measure over ``most``; else None."""
        for index, name, count in MEASURES[self.measure](body):
            if count > self.most:
                return index, name, count, self.words.format(count=count, index=index)
        return None


def _tools(body: Any) -> list[Any]:
    tools = body.get("tools") if isinstance(body, dict) else None
    return tools if isinstance(tools, list) else []


def _chat_descriptions(body: Any) -> Measured:
    """Chat Completions: each tools[i].function.description's length in characters."""
    for index, tool in enumerate(_tools(body)):
        function = tool.get("function") if isinstance(tool, dict) else None
        description = function.get("description") if isinstance(function, dict) else None
        if isinstance(description, str):
            yield index, str(function.get("name", "")), len(description)


def _anthropic_strict(body: Any) -> list[tuple[int, dict[str, Any], Any]]:
    """(index, tool, schema) of each strict tool: Messages' tools[i] {strict, input_schema}, or Converse's
    toolConfig.tools[i].toolSpec {strict, inputSchema: {json}} (Claude on Bedrock)."""
    config = body.get("toolConfig") if isinstance(body, dict) else None
    if isinstance(config, dict):
        specs = [(i, t.get("toolSpec")) for i, t in enumerate(_tools(config)) if isinstance(t, dict)]
        return [(i, s, s["inputSchema"].get("json") if isinstance(s.get("inputSchema"), dict) else None)
                for i, s in specs if isinstance(s, dict) and s.get("strict") is True]
    return [(i, t, t.get("input_schema")) for i, t in enumerate(_tools(body))
            if isinstance(t, dict) and t.get("strict") is True]


def _openai_strict(body: Any) -> Iterator[tuple[int, str, Any]]:
    """(index, name, parameters) of each strict function tool: chat's {function: {strict}} or Responses' flat form."""
    for index, tool in enumerate(_tools(body)):
        if not isinstance(tool, dict):
            continue
        function = tool.get("function") if isinstance(tool.get("function"), dict) else tool
        if function.get("strict") is True:
            yield index, str(function.get("name", "")), function.get("parameters")


def _subschemas(schema: Any) -> Iterator[tuple[str, Any]]:
    """(how it is reached, sub-schema) for every schema directly under ``schema``."""
    if not isinstance(schema, dict):
        return
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for value in properties.values():
            yield "property", value
    for key in ("items", "additionalProperties", "not"):
        if isinstance(schema.get(key), dict):
            yield key, schema[key]
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        if isinstance(schema.get(key), list):
            for value in schema[key]:
                yield key, value
    for key in ("$defs", "definitions"):
        if isinstance(schema.get(key), dict):
            for value in schema[key].values():
                yield key, value


def _walk(schema: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
    """Every schema object in ``schema`` (bounded by the scenario's nesting limit when it was read)."""
    if isinstance(schema, dict) and depth < 200:
        yield schema
        for _, sub in _subschemas(schema):
            yield from _walk(sub, depth + 1)


def _optional(schema: Any) -> int:
    """Parameters not listed in required, nested ones included (Anthropic's docs: 'Each parameter not listed in
    `required` counts toward this limit')."""
    count = 0
    for node in _walk(schema):
        properties = node.get("properties")
        if isinstance(properties, dict):
            required = node.get("required") if isinstance(node.get("required"), list) else []
            count += sum(1 for name in properties if name not in required)
    return count


def _unions(schema: Any) -> int:
    """Parameters that use anyOf or a type array (Anthropic's docs: 'Total parameters that use `anyOf` or type
    arrays (for example, "type": ["string", "null"])')."""
    count = 0
    for node in _walk(schema):
        properties = node.get("properties")
        if isinstance(properties, dict):
            count += sum(1 for p in properties.values()
                         if isinstance(p, dict) and ("anyOf" in p or isinstance(p.get("type"), list)))
    return count


def _strict_tool_count(body: Any) -> Measured:
    yield -1, "", len(_anthropic_strict(body))


def _strict_optional(body: Any) -> Measured:
    yield -1, "", sum(_optional(schema) for _, _, schema in _anthropic_strict(body))


def _strict_unions(body: Any) -> Measured:
    yield -1, "", sum(_unions(schema) for _, _, schema in _anthropic_strict(body))


def _object_depth(schema: Any, depth: int = 0) -> int:
    """Levels of nested objects: an object schema is one level, an object in its properties two, ..."""
    if not isinstance(schema, dict) or depth >= 200:
        return 0
    own = 1 if schema.get("type") == "object" or isinstance(schema.get("properties"), dict) else 0
    below = max((_object_depth(sub, depth + 1) for _, sub in _subschemas(schema)), default=0)
    return own + below


def _strict_properties(body: Any) -> Measured:
    for index, name, schema in _openai_strict(body):
        yield index, name, sum(len(n["properties"]) for n in _walk(schema) if isinstance(n.get("properties"), dict))


def _strict_nesting(body: Any) -> Measured:
    for index, name, schema in _openai_strict(body):
        yield index, name, _object_depth(schema)


def _strict_enum_values(body: Any) -> Measured:
    for index, name, schema in _openai_strict(body):
        yield index, name, sum(len(n["enum"]) for n in _walk(schema) if isinstance(n.get("enum"), list))


def _strict_string_length(body: Any) -> Measured:
    """Property names, definition names, enum and const values: their characters together."""
    for index, name, schema in _openai_strict(body):
        total = 0
        for node in _walk(schema):
            for key in ("properties", "$defs", "definitions"):
                if isinstance(node.get(key), dict):
                    total += sum(len(str(k)) for k in node[key])
            if isinstance(node.get("enum"), list):
                total += sum(len(str(v)) for v in node["enum"])
            if "const" in node:
                total += len(str(node["const"]))
        yield index, name, total


def _strict_large_enum(body: Any) -> Measured:
    """The characters of each string enum of more than 250 values."""
    for index, name, schema in _openai_strict(body):
        for node in _walk(schema):
            values = node.get("enum")
            if isinstance(values, list) and len(values) > 250 and all(isinstance(v, str) for v in values):
                yield index, name, sum(len(v) for v in values)


def _cohere_strict_fields(body: Any) -> Measured:
    """With strict_tools true: the properties of every tool's parameters together, nested ones included."""
    if isinstance(body, dict) and body.get("strict_tools") is True:
        total = 0
        for tool in _tools(body):
            function = tool.get("function") if isinstance(tool, dict) else None
            schema = function.get("parameters") if isinstance(function, dict) else None
            total += sum(len(n["properties"]) for n in _walk(schema) if isinstance(n.get("properties"), dict))
        yield -1, "", total


MEASURES: dict[str, Callable[[Any], Measured]] = {
    "chat_description_length": _chat_descriptions,
    "anthropic_strict_tools": _strict_tool_count,
    "anthropic_strict_optional": _strict_optional,
    "anthropic_strict_unions": _strict_unions,
    "openai_strict_properties": _strict_properties,
    "openai_strict_nesting": _strict_nesting,
    "openai_strict_enum_values": _strict_enum_values,
    "openai_strict_string_length": _strict_string_length,
    "openai_strict_large_enum": _strict_large_enum,
    "cohere_strict_fields": _cohere_strict_fields,
}


# -- the limits, each with its fact (core/facts.py); the rows in capabilities.py name them -------------------------

# OpenAI: a warning since 2026-11-27 (fact openai.description_limit: the newest recorded 400 is of 2025-04, and a
# merged test of 2025-05 found 36,000 characters taken); Azure's too since 2026-11-28 (fact azure.description_limit: its
# newest recorded 400 is of 2025-04-23, and neither Azure's docs nor its spec state a maximum: unverified since then)
OPENAI_DESCRIPTION = BodyLimit(
    "openai.description_limit", "tool.over_limit", "warning", 1024, "chat_description_length",
    "characters in its description",
    "Invalid 'tools[{index}].function.description': string too long. Expected a string with maximum length 1024, but "
    "got a string with length {count} instead.")
AZURE_DESCRIPTION = OPENAI_DESCRIPTION._replace(fact="azure.description_limit")

ANTHROPIC_STRICT = (
    BodyLimit("anthropic.strict_tool_limit", "schema.over_limit", "error", 20, "anthropic_strict_tools",
              "strict tools in one request",
              "Too many strict tools ({count}). The maximum number of strict tools supported is 20. Try reducing the "
              "number of tools marked as strict."),
    BodyLimit("anthropic.strict_optional_limit", "schema.over_limit", "error", 24, "anthropic_strict_optional",
              "optional parameters across the strict schemas",
              "Schemas contains too many optional parameters ({count}), which would make grammar compilation "
              "inefficient. Reduce the number of optional parameters in your tool schemas (limit: 24)."),
    BodyLimit("anthropic.strict_union_limit", "schema.over_limit", "error", 16, "anthropic_strict_unions",
              "parameters with union types (anyOf or a type array) across the strict schemas",
              "Schemas contains too many parameters with union types ({count} parameters with type arrays or anyOf). "
              "This causes exponential compilation cost. Reduce the number of nullable or union-typed parameters "
              "(limit: 16 parameters with unions)."),
)

# Claude on Bedrock (Converse): the same limits, the model's words after Bedrock's prefix, in Bedrock's envelope
# ({"message": ...}, ValidationException). A model rule brings them (model_rules: strict_schema_limits), not the row:
# the Bedrock row covers models that are not Claude.
_BEDROCK_MODEL_ERRORS = "The model returned the following errors: "
BEDROCK_CLAUDE_STRICT = tuple(
    limit._replace(fact="bedrock.claude_strict_limits", words=_BEDROCK_MODEL_ERRORS + limit.words)
    for limit in ANTHROPIC_STRICT)

OPENAI_STRICT = (
    BodyLimit("openai.strict_schema_limits", "schema.over_limit", "warning", 5000, "openai_strict_properties",
              "object properties in its strict schema"),
    BodyLimit("openai.strict_schema_limits", "schema.over_limit", "warning", 10, "openai_strict_nesting",
              "levels of nested objects in its strict schema"),
    BodyLimit("openai.strict_schema_limits", "schema.over_limit", "warning", 1000, "openai_strict_enum_values",
              "enum values in its strict schema"),
    BodyLimit("openai.strict_schema_limits", "schema.over_limit", "warning", 120_000, "openai_strict_string_length",
              "characters of property names, definition names, enum and const values in its strict schema"),
    BodyLimit("openai.strict_schema_limits", "schema.over_limit", "warning", 15_000, "openai_strict_large_enum",
              "characters in one string enum of more than 250 values in its strict schema"),
)

COHERE_STRICT = (
    BodyLimit("cohere.strict_field_limit", "schema.over_limit", "warning", 200, "cohere_strict_fields",
              "fields across the tools with strict_tools"),
)

# The model rules whose fact, when true, brings limits the provider's row does not hold: (provider, RULE_KEYS key).
RULE_LIMITS: dict[tuple[str, str], tuple[BodyLimit, ...]] = {
    ("bedrock", "strict_schema_limits"): BEDROCK_CLAUDE_STRICT,
}
RULE_LIMIT_PROVIDERS = frozenset(provider for provider, _ in RULE_LIMITS)


def model_limits(provider: str, facts: Any) -> tuple[BodyLimit, ...]:
    """The limits a model's rules bring (``facts``: model_rules.resolve's mapping of key -> Fact)."""
    found: tuple[BodyLimit, ...] = ()
    for (owner, key), limits in RULE_LIMITS.items():
        fact = facts.get(key) if owner == provider else None
        if fact is not None and fact.value is True:
            found += limits
    return found
