"""What Gemini's API refuses in a function declaration's ``parameters`` (a Schema message) past its JSON parser: the
checks it runs on a body it could read, each refusal in the API's recorded words (fact gemini.schema_rule_words; read
by providers/gemini_mock.py).

The API answers these 400 INVALID_ARGUMENT with one line per place, each '* GenerateContentRequest.PLACE: WORDS' and a
newline, PLACE the schema's place with a property named by its name in brackets (``properties[data]``), ``items``,
``any_of[i]``, a list's element by its index; the message has no ``details``. Each rule and its recordings:

- ``properties`` or ``required`` on a schema whose ``type`` is not OBJECT: 'properties: only allowed for OBJECT type',
  'required: only allowed for OBJECT type' (anomalyco/opencode#11889, 2026-02-03, gemini-3-flash-preview: both lines,
  at 'tools[0].function_declarations[80].parameters.properties[data]');
- a ``required`` name an OBJECT's ``properties`` has not: 'required[I]: property is not defined'
  (iBUHub/AIStudioToAPI#154, 2026-05-05, gemini-3-flash-preview on /v1beta, the whole body);
- ``enum`` on a schema whose ``type`` is not STRING: 'enum: only allowed for STRING type' (musistudio/llms#20,
  2025-08-07, gemini-2.5-pro; the Gemini API reference's Schema.enum: 'Possible values of the element of Type.STRING
  with enum format');
- an ARRAY with no ``items``: 'items: missing field.' (AstrBotDevs/AstrBot#6029, 2026-03-11, the whole body through
  google-genai's ClientError; cline/cline#7339).

An empty list or map is no value to the proto (an empty ``properties``, ``required`` or ``enum`` is as if left out).
A schema with no ``type`` (an ``anyOf``) is not judged by type, nor the ``required`` of an OBJECT with ``anyOf``
branches (whether the API looks for the names in them is not recorded). Not judged, though some sources record them,
since the API's present answer is not known or the rule is not: an OBJECT with no properties ('properties: should be
non-empty for OBJECT type', recorded until 2025 for function declarations, pipecat-ai/pipecat-flows#110; the 2026
recording above was answered for a declaration whose properties were empty without that line); ``format`` ('only
'enum' and 'date-time' are supported for STRING type', google-gemini/gemini-cli#3178, 2025-07; the present API
reference says of format 'Any value is allowed'); nesting depth ('FunctionDeclaration 'NAME' in the request exceeds
the maximum allowed nesting depth.', gemini-cli#5923, zereight/gitlab-mcp#223: the limit is not documented).
"""

from __future__ import annotations

from typing import Any, Iterator

# the form of each line (AIStudioToAPI#154: '* GenerateContentRequest.tools[0].function_declarations[1].parameters.
# required[0]: property is not defined\n')
LINE = "* GenerateContentRequest.{at}: {words}\n"
ONLY_OBJECT = "only allowed for OBJECT type"
UNDEFINED = "property is not defined"
ONLY_STRING = "only allowed for STRING type"
MISSING = "missing field."
SOURCES = {ONLY_OBJECT: "anomalyco/opencode#11889", UNDEFINED: "iBUHub/AIStudioToAPI#154",
           ONLY_STRING: "musistudio/llms#20", MISSING: "AstrBotDevs/AstrBot#6029"}


def refused(body: dict[str, Any]) -> list[tuple[str, str]]:
    """Each (place, words) the API refuses in the body's function declarations' ``parameters``, in body order, a
    schema's own before those inside it."""
    found: list[tuple[str, str]] = []
    groups = body.get("tools")
    for index, group in enumerate(groups if isinstance(groups, list) else []):
        if not isinstance(group, dict):
            continue
        declarations = group.get("functionDeclarations", group.get("function_declarations"))
        for number, declaration in enumerate(declarations if isinstance(declarations, list) else []):
            if isinstance(declaration, dict):
                schema = declaration.get("parameters")
                if isinstance(schema, dict):
                    found.extend(_walk(schema, f"tools[{index}].function_declarations[{number}].parameters"))
    return found


def words(found: list[tuple[str, str]]) -> str:
    return "".join(LINE.format(at=at, words=said) for at, said in found)


def _walk(root: dict[str, Any], place: str) -> Iterator[tuple[str, str]]:
    """Walked with a stack of its own: a schema nested as deep as the JSON parser reads is walked whole."""
    stack: list[tuple[dict[str, Any], str]] = [(root, place)]
    while stack:
        schema, at = stack.pop()
        yield from _own(schema, at)
        inside: list[tuple[dict[str, Any], str]] = []
        properties = schema.get("properties")
        if isinstance(properties, dict):
            inside += [(value, f"{at}.properties[{name}]") for name, value in properties.items()
                       if isinstance(value, dict)]
        items = schema.get("items")
        if isinstance(items, dict):
            inside.append((items, f"{at}.items"))
        branches = schema.get("anyOf", schema.get("any_of"))
        if isinstance(branches, list):
            inside += [(branch, f"{at}.any_of[{i}]") for i, branch in enumerate(branches) if isinstance(branch, dict)]
        stack.extend(reversed(inside))


def _own(schema: dict[str, Any], at: str) -> Iterator[tuple[str, str]]:
    kind = schema.get("type")
    kind = kind.upper() if isinstance(kind, str) else ""
    if kind in ("", "TYPE_UNSPECIFIED"):
        return  # no type (an anyOf), or a number for it: not judged by type
    properties = schema.get("properties")
    required = schema.get("required")
    enum = schema.get("enum")
    if kind != "OBJECT":
        if isinstance(properties, dict) and properties:
            yield f"{at}.properties", ONLY_OBJECT
        if isinstance(required, list) and required:
            yield f"{at}.required", ONLY_OBJECT
    elif isinstance(required, list) and not schema.get("anyOf", schema.get("any_of")):  # with branches: not known
        names = properties if isinstance(properties, dict) else {}
        yield from ((f"{at}.required[{i}]", UNDEFINED) for i, name in enumerate(required)
                    if isinstance(name, str) and name not in names)
    if kind != "STRING" and isinstance(enum, list) and enum:
        yield f"{at}.enum", ONLY_STRING
    if kind == "ARRAY" and schema.get("items") is None:  # null: a message field left out
        yield f"{at}.items", MISSING
