"""What Gemini's API refuses in a function declaration's ``parameters`` (a Schema message) past its JSON parser: the
checks it runs on a body it could read, each refusal in the API's recorded words (fact gemini.schema_rule_words; read
by providers/gemini_mock.py, and by the translator's judge in gemini/schema.py).

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
branches (whether the API looks for the names in them is not recorded). Not judged, since no source gives a rule to
check by (docs/mock.md, "A schema's values and rules", lists them; docs/fact-audit.md, "Gemini schema judging", what
was searched): nesting depth ('A FunctionDeclaration in the request exceeds the maximum allowed nesting depth.',
gemini-cli#6031, 2025-08-12; 'FunctionDeclaration 'NAME' in ...', zereight/gitlab-mcp#223: no source gives the
limit). Taken, so never refused: any ``format`` (the v1beta proto's Schema.format since googleapis/googleapis
fd84be8a8b, 2025-10-15: 'Any value is allowed, but most do not trigger any special functionality.'; the 2025-07
refusal 'only 'enum' and 'date-time' are supported for STRING type', gemini-cli#3178, was answered under the earlier
words 'Supported formats: ...'); an OBJECT with no properties (fact gemini.schema_empty_object: the whole exchange
recorded by pydantic-ai on 2025-06-16, ``parameters`` ``{properties: {}, type: OBJECT}`` under mode ANY answered
200, tests/data/exchanges/; and 2025-09-10 on gemini-2.5-pro; the 400 'properties: should be non-empty for OBJECT
type' was recorded for declarations up to 2025-03-31, langchain-ai/langchainjs#7935, none after; inside the
parameters no recording since either way).

A declaration's ``parametersJsonSchema`` (a JSON Schema, sent as a google.protobuf.Value the parser does not look
into) is judged by one rule (fact gemini.json_schema_ref_words): a ``$ref`` that does not resolve inside the schema,
a local pointer to nothing or an external URL, is refused with 400 INVALID_ARGUMENT and the message alone, 'reference
to undefined schema at PLACE', PLACE the path from the schema's root to the node holding the ``$ref``, its keys and
list indexes joined by dots ('properties.target_object.anyOf.1', google-gemini/gemini-cli#13326, 2025-11-18, the
whole body; 'properties.a', Febchuk/knappy-slack-assistant specs/21_launch_connections.md, measured 2026-10-04
against gemini-3-flash-preview with an API key: the one construct refused where 22 others were taken, the whole
request failing beside a good tool). Judged: a ``#`` or ``#/...`` pointer (percent and ~0/~1 escapes read), and an http(s) URL in a schema
with no ``$id``; not judged: an anchor (``#name``) or a relative reference, a ``$ref`` at the root (its PLACE is
not recorded). The request's message names one such ``$ref``; with several, which one is not recorded (the first in
body order is named).

A declaration with both ``parameters`` and ``parametersJsonSchema`` is refused (fact gemini.parameters_exclusive,
``both_forms``): the v1beta and Vertex protos say 'This field is mutually exclusive with `parameters`.', and Google's
Firebase AI SDK for Android stopped sending a null ``parametersJsonSchema`` beside ``parameters`` because 'Having both
`parametersSchema` and `parametersJsonSchema` in the serialized requests caused them to be rejected by the service.'
(firebase/firebase-android-sdk#7850, commit 3f5f6872e8, 2026-02-26; the commit's test shows the body it sent,
``"parameters": {...}, "parametersJsonSchema": null``). A null ``parametersJsonSchema`` is a value there (a
google.protobuf.Value's NullValue), a null ``parameters`` none (a message left out). The status and the API's words are
not recorded: the mock answers 400 INVALID_ARGUMENT, as to the other schema refusals, in toolchoice's words, marked so.
Not judged, no recorded answer found (docs/fact-audit.md): ``response`` beside ``responseJsonSchema`` (the proto's
'This field is mutually exclusive with `response`.', words of the reference; no refusal recorded);
``responseJsonSchema`` itself (no recording of its refusals).
"""

from __future__ import annotations

from typing import Any, Iterator
from urllib.parse import unquote

# the form of each line (AIStudioToAPI#154: '* GenerateContentRequest.tools[0].function_declarations[1].parameters.
# required[0]: property is not defined\n')
LINE = "* GenerateContentRequest.{at}: {words}\n"
ONLY_OBJECT = "only allowed for OBJECT type"
UNDEFINED = "property is not defined"
ONLY_STRING = "only allowed for STRING type"
MISSING = "missing field."
SOURCES = {ONLY_OBJECT: "anomalyco/opencode#11889", UNDEFINED: "iBUHub/AIStudioToAPI#154",
           ONLY_STRING: "musistudio/llms#20", MISSING: "AstrBotDevs/AstrBot#6029"}
# a parametersJsonSchema's $ref that does not resolve in it: the whole message (gemini-cli#13326: '"message":
# "reference to undefined schema at properties.target_object.anyOf.1"'), {at} the node's path from the root
UNDEFINED_REF = "reference to undefined schema at {at}"
REF_SOURCE = "google-gemini/gemini-cli#13326, Febchuk/knappy-slack-assistant specs/21_launch_connections.md"
# a declaration with both parameters and parametersJsonSchema: toolchoice's words (the API's are not recorded), {at}
# the declaration's place, {name} its name as JSON
BOTH_FORMS = ("toolchoice mock: FunctionDeclaration {name} at '{at}' sets both parameters and parametersJsonSchema, "
              "which are mutually exclusive (the API's words for this are not recorded)")
BOTH_SOURCE = ("firebase/firebase-android-sdk#7850: 'Having both `parametersSchema` and `parametersJsonSchema` in the "
               "serialized requests caused them to be rejected by the service.'; the v1beta proto: 'This field is "
               "mutually exclusive with `parameters`.'")
# JSON Schema's keywords whose value is a schema, a list of schemas, or a map of them (draft 2020-12, and draft-07's
# definitions and additionalItems): where a $ref can stand
_ONE = ("items", "additionalProperties", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties")
_MANY = ("anyOf", "oneOf", "allOf", "prefixItems", "items")
_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


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


def undefined_refs(body: dict[str, Any]) -> list[tuple[int, int, str]]:
    """Each (tools index, declaration index, place) of a ``$ref`` in a declaration's ``parametersJsonSchema`` that does
    not resolve inside it, in body order, a schema's own before those inside it (the module's docstring: what is
    judged)."""
    found: list[tuple[int, int, str]] = []
    groups = body.get("tools")
    for index, group in enumerate(groups if isinstance(groups, list) else []):
        declarations = group.get("functionDeclarations", group.get("function_declarations")) \
            if isinstance(group, dict) else None
        for number, declaration in enumerate(declarations if isinstance(declarations, list) else []):
            schema = declaration.get("parametersJsonSchema", declaration.get("parameters_json_schema")) \
                if isinstance(declaration, dict) else None
            if isinstance(schema, dict):
                found.extend((index, number, at) for at in _refs_undefined(schema))
    return found


def _refs_undefined(root: dict[str, Any]) -> Iterator[str]:
    with_id = _has_id(root)
    stack: list[tuple[dict[str, Any], str]] = [(root, "")]
    while stack:
        schema, at = stack.pop()
        ref = schema.get("$ref")
        if at and isinstance(ref, str) and not _resolves(root, ref, with_id):
            yield at
        inside: list[tuple[dict[str, Any], str]] = []
        for key, value in schema.items():
            where = f"{at}.{key}" if at else key
            if key in _MAPS and isinstance(value, dict):
                inside += [(sub, f"{where}.{name}") for name, sub in value.items() if isinstance(sub, dict)]
            elif key in _ONE and isinstance(value, dict):
                inside.append((value, where))
            elif key in _MANY and isinstance(value, list):
                inside += [(sub, f"{where}.{i}") for i, sub in enumerate(value) if isinstance(sub, dict)]
        stack.extend(reversed(inside))


def _resolves(root: dict[str, Any], ref: str, with_id: bool) -> bool:
    """False only for what the module's docstring says is judged: a pointer to nothing, an external URL."""
    if ref.startswith(("http://", "https://")):
        return with_id  # an $id in the schema may name that URL: not judged
    if ref != "#" and not ref.startswith("#/"):
        return True  # an anchor or a relative reference: not judged
    node: Any = root
    for step in ref[2:].split("/") if ref != "#" else ():
        step = unquote(step).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and step in node:
            node = node[step]
        # RFC 6901's index: ASCII digits, few (int() refuses '²', which isdigit takes, and 5,000 digits)
        elif isinstance(node, list) and step.isascii() and step.isdigit() and len(step) < 19 \
                and int(step) < len(node):
            node = node[int(step)]
        else:
            return False
    return True


def _has_id(root: Any) -> bool:
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("$id"), str):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def both_forms(body: dict[str, Any]) -> list[tuple[int, int]]:
    """Each (tools index, declaration index) of a function declaration holding both ``parameters`` (not null) and
    ``parametersJsonSchema`` (any value, null too: a google.protobuf.Value), in either spelling, in body order."""
    found: list[tuple[int, int]] = []
    groups = body.get("tools")
    for index, group in enumerate(groups if isinstance(groups, list) else []):
        declarations = group.get("functionDeclarations", group.get("function_declarations")) \
            if isinstance(group, dict) else None
        for number, declaration in enumerate(declarations if isinstance(declarations, list) else []):
            if isinstance(declaration, dict) and declaration.get("parameters") is not None \
                    and ("parametersJsonSchema" in declaration or "parameters_json_schema" in declaration):
                found.append((index, number))
    return found
