"""A tool's parameters checked against the JSON Schema metaschema when the scenario is read: an invalid
schema (``required: path`` as a string, ``properties`` as a list, ``minLength: -3``) is bad input, one line
naming the tool, instead of being sent and then used to judge the model's arguments.

jsonschema decides (``check_schema`` of the validator the schema's ``$schema`` selects, 2020-12 by
default). It takes ~30 ms to import, which `render` does not pay for well-formed schemas: a walk over the
keywords whose values the metaschema constrains (a list, an object, a non-negative integer) looks first,
and jsonschema is asked only about a schema the walk finds suspicious. Only the standard library here.
"""

from __future__ import annotations

from typing import Any

from .model import ToolchoiceError

_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMAS = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
            "unevaluatedItems", "unevaluatedProperties", "additionalItems")
_COUNTS = ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties", "minContains",
           "maxContains")
_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})
_NUMBERS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _suspicious(schema: Any, depth: int = 0) -> bool:
    """Whether ``schema`` breaks one of the metaschema's type rules the walk knows (a quick over-approximation
    is fine: jsonschema has the last word)."""
    if isinstance(schema, bool):
        return False
    if not isinstance(schema, dict) or depth > 200:
        return True
    required = schema.get("required")
    if required is not None and not (isinstance(required, list) and all(isinstance(r, str) for r in required)):
        return True
    kind = schema.get("type")
    if "type" in schema and not ((isinstance(kind, str) and kind in _TYPES)
                                 or (isinstance(kind, list) and all(isinstance(k, str) and k in _TYPES for k in kind))):
        return True
    for key in _COUNTS:
        value = schema.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            return True
    for key in _NUMBERS:
        value = schema.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            return True
    if "enum" in schema and not isinstance(schema["enum"], list):
        return True
    for key in _SCHEMA_MAPS:
        if key in schema:
            value = schema[key]
            if not isinstance(value, dict) or any(_suspicious(v, depth + 1) for v in value.values()):
                return True
    for key in _SCHEMA_LISTS:
        if key in schema:
            value = schema[key]
            if not isinstance(value, list) or any(_suspicious(v, depth + 1) for v in value):
                return True
    for key in _SCHEMAS:
        if key in schema:
            value = schema[key]
            if isinstance(value, list) and key == "items":  # draft 4-7 tuple form
                if any(_suspicious(v, depth + 1) for v in value):
                    return True
            elif _suspicious(value, depth + 1):
                return True
    return False


def problem(schema: Any) -> str | None:
    """What is wrong with ``schema`` per its metaschema (jsonschema's words), or None."""
    found = problem_at(schema)
    return None if found is None else found[0]


def problem_at(schema: Any) -> tuple[str, tuple[str | int, ...]] | None:
    """What is wrong with ``schema`` and where in it (the keys down to the wrong value), or None: a scenario's reader
    turns the place into the file's line. A type name JSON Schema does not have and a property written as a bare
    type name are said in words a schema's author reads (jsonschema's are "not valid under any of the given
    schemas")."""
    if not _suspicious(schema):
        return None
    from jsonschema import exceptions, validators

    try:
        validators.validator_for(schema).check_schema(schema)
    except exceptions.SchemaError as exc:
        at = tuple(exc.path)
        where = "/".join(str(p) for p in at)
        return _said(exc, at) + (f" (at {where})" if where else ""), at
    except RecursionError:
        return "the schema nests too deeply to check", ()
    return None


def _said(exc: Any, at: tuple[str | int, ...]) -> str:
    from .bounded import nearest

    value = exc.instance
    if at and at[-1] == "type" and value is None:  # `type:` with nothing after it
        return (f"type is empty (YAML's null): write one of the types, {', '.join(sorted(_TYPES))} (quote 'null': "
                "YAML reads it bare as nothing)")
    if at and at[-1] == "type" and isinstance(value, (str, list)):  # {type: strin}, {type: [string, nul]}
        names = [value] if isinstance(value, str) else value
        wrong = next((n for n in names if not (isinstance(n, str) and n in _TYPES)), None)
        if wrong is not None:
            meant = nearest(wrong, sorted(_TYPES), 0.6) if isinstance(wrong, str) else None
            return (f"type {wrong!r} is not a JSON Schema type" + (f" (did you mean {meant}?)" if meant else "")
                    + f"; the types are {', '.join(sorted(_TYPES))}")
    empty = "{}" if at and at[-1] in _SCHEMA_MAPS else "[]" if at and at[-1] in (*_SCHEMA_LISTS, "enum", "required") \
        else None
    if value is None and empty:  # `properties:` with nothing under it: its entries indented beside it, not under it
        return (f"{at[-1]} is empty (null): indent what belongs to it two spaces more than {at[-1]}:, or write "
                f"{at[-1]}: {empty}")
    if len(at) >= 2 and at[-2] in _SCHEMA_MAPS and isinstance(value, str) and value in _TYPES:  # properties: {x: string}
        return f"{at[-1]!r} must be a schema, {{type: {value}}}, not the bare word {value!r}"
    return str(exc.message)


def check_tool(name: str, schema: Any, **where: Any) -> None:
    """Raise a one-line ToolchoiceError when the tool's parameters are not a valid JSON Schema."""
    found = problem(schema)
    if found is not None:
        raise ToolchoiceError(f"tool '{name}': its parameters are not a valid JSON Schema: {found}",
                              hint="fix the schema (https://json-schema.org/understanding-json-schema)", **where)


# JSON Schema's keywords (2020-12 core, applicator, validation, meta-data, format, content; draft 4-7 spellings)
# and the extensions providers read (OpenAPI's nullable, Gemini's propertyOrdering)
KEYWORDS = frozenset({
    "$schema", "$id", "$ref", "$defs", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "$comment",
    "definitions", "type", "enum", "const", "properties", "patternProperties", "additionalProperties", "required",
    "items", "prefixItems", "additionalItems", "contains", "minContains", "maxContains", "minItems", "maxItems",
    "uniqueItems", "minLength", "maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties", "propertyNames", "dependentRequired",
    "dependentSchemas", "dependencies", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "title",
    "description", "default", "examples", "example", "readOnly", "writeOnly", "deprecated", "contentEncoding",
    "contentMediaType", "contentSchema", "unevaluatedItems", "unevaluatedProperties", "nullable",
    "propertyOrdering", "strict"})
_KEYWORD_LIST = sorted(KEYWORDS)  # the list keyword_typos compares each unknown key with, sorted once


def keyword_typos(schema: Any, at: str = "", depth: int = 0) -> list[tuple[str, str, str]]:
    """(where, word, the keyword it is close to) for each key of a schema object that is no keyword but is
    close to one (``requried`` → ``required``): JSON Schema ignores unknown words, so a typo silently
    drops the rule it meant."""
    from .bounded import nearest

    found: list[tuple[str, str, str]] = []
    if not isinstance(schema, dict) or depth > 100:
        return found
    for key, value in schema.items():
        if not isinstance(key, str):
            continue
        if key not in KEYWORDS:
            match = nearest(key, _KEYWORD_LIST, 0.8)
            if match is not None:
                found.append((at or "$", key, match))
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                found += keyword_typos(sub, f"{at}/{key}/{name}", depth + 1)
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            for i, sub in enumerate(value):
                found += keyword_typos(sub, f"{at}/{key}/{i}", depth + 1)
        elif key in _SCHEMAS:
            found += keyword_typos(value, f"{at}/{key}", depth + 1)
    return found


_COMPOSED = ("allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "if", "dependentSchemas", "patternProperties")


def required_unknown(schema: Any, at: str = "", depth: int = 0) -> list[tuple[str, str, str | None, list[str]]]:
    """(where, the required name, the property it is close to or None, the properties) for each name ``required``
    lists that ``properties`` beside it does not describe (``required: [query]`` beside ``properties: {q: ...}``):
    valid JSON Schema, so nothing refuses it, but the schema then asks every call for an argument it never describes.
    An object that may describe it elsewhere (``allOf``, ``$ref``, ``patternProperties``, an ``additionalProperties``
    schema) is left alone."""
    from .bounded import nearest

    found: list[tuple[str, str, str | None, list[str]]] = []
    if not isinstance(schema, dict) or depth > 100:
        return found
    props, required = schema.get("properties"), schema.get("required")
    if (isinstance(props, dict) and isinstance(required, list) and not any(k in schema for k in _COMPOSED)
            and not isinstance(schema.get("additionalProperties"), dict)):
        names = [k for k in props if isinstance(k, str)]
        for word in required:
            if isinstance(word, str) and word not in props:
                found.append((at or "$", word, nearest(word, names, 0.6), names))
    for key in _SCHEMA_MAPS:
        if isinstance(schema.get(key), dict):
            for name, sub in schema[key].items():
                found += required_unknown(sub, f"{at}/{key}/{name}", depth + 1)
    for key in _SCHEMA_LISTS:
        if isinstance(schema.get(key), list):
            for i, sub in enumerate(schema[key]):
                found += required_unknown(sub, f"{at}/{key}/{i}", depth + 1)
    for key in _SCHEMAS:
        if key in schema:
            found += required_unknown(schema[key], f"{at}/{key}", depth + 1)
    return found
