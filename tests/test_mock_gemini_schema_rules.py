"""The Gemini mock judges a declaration's ``parameters`` past JSON kinds (trial18h).

Until 2026-11-27 the mock answered 200 to a schema the API refuses with a 400: ``properties`` on a STRING, an ARRAY
without ``items``, ``required`` naming a property that is not there, ``enum`` on an INTEGER, a ``type`` that is not a
Type, numbers in ``enum``. Each expected body is the API's recorded one (tests/data/responses/errors/, SOURCES.md) or
its recorded line, the sources named beside each case; google-genai 3.6.1 against the mock on 127.0.0.1 raises on the
mock's 400 what it raises on the recorded body. What the API takes, or no source says it refuses, is answered 200.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sdk_types import missing
from toolchoice.providers.core.mock.service import MockService

KEY = "AIzaSyMockKeyForTests0123456789abcdefgh"
USER = [{"role": "user", "parts": [{"text": "hi"}]}]
PATH = "/v1beta/models/gemini-2.5-flash:generateContent"
ERRORS = Path(__file__).parent / "data" / "responses" / "errors"
AT = "tools[0].function_declarations[0].parameters"


def ask(declarations: list[dict[str, Any]], path: str = PATH, **more: Any) -> tuple[int, Any, dict[str, Any]]:
    body = {"contents": USER, "tools": [{"functionDeclarations": declarations}], **more}
    exchange = MockService("gemini").handle("POST", path, {}, json.dumps(body).encode())
    return exchange.status, json.loads(exchange.body), exchange.record


def one(parameters: dict[str, Any], **more: Any) -> tuple[int, Any, dict[str, Any]]:
    return ask([{"name": "f", "parameters": parameters}], **more)


def recorded(name: str) -> dict[str, Any]:
    return json.loads((ERRORS / name).read_text(encoding="utf-8"))


def _filler(count: int) -> list[dict[str, Any]]:
    return [{"name": f"f{i}", "parameters": {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}}}
            for i in range(count)]


def test_an_array_without_items_is_the_recorded_body_whole() -> None:
    """AstrBotDevs/AstrBot#6029: declaration 9's ARRAY property source_uuids has no items."""
    bad = {"name": "pick", "parameters": {"type": "OBJECT", "properties": {"source_uuids": {"type": "ARRAY"}}}}
    status, reply, record = ask([*_filler(9), bad])
    assert status == 400 and reply == recorded("error-gemini-schema-items-missing.json")
    said = [f["message"] for f in record["findings"] if f["code"] == "body.schema_rule"]
    assert len(said) == 1 and "AstrBotDevs/AstrBot#6029" in said[0]


def test_required_naming_no_property_is_the_recorded_body_whole() -> None:
    """iBUHub/AIStudioToAPI#154: declaration 1 requires "ref" with empty properties, declaration 8 "ref" beside a
    "text" it has (its empty properties got no line of its own: an empty map is not judged)."""
    declarations = _filler(9)
    declarations[1] = {"name": "browser_click", "parameters": {"type": "object", "properties": {}, "required": ["ref"]}}
    declarations[8] = {"name": "browser_type", "parameters": {"type": "object", "properties": {
        "text": {"type": "string"}}, "required": ["ref", "text"]}}
    status, reply, _ = ask(declarations)
    assert status == 400 and reply == recorded("error-gemini-schema-required-undefined.json")


@pytest.mark.parametrize("schema,lines", [
    # anomalyco/opencode#11889 (gemini-3-flash-preview): both lines for one node, properties first
    ({"type": "OBJECT", "properties": {"data": {"type": "STRING", "properties": {"a": {"type": "STRING"}},
                                                "required": ["a"]}}},
     [f"{AT}.properties[data].properties: only allowed for OBJECT type",
      f"{AT}.properties[data].required: only allowed for OBJECT type"]),
    # musistudio/llms#20 (gemini-2.5-pro): '...properties[truncateMode].enum: only allowed for STRING type'
    ({"type": "OBJECT", "properties": {"truncateMode": {"type": "INTEGER", "enum": ["1", "2"]}}},
     [f"{AT}.properties[truncateMode].enum: only allowed for STRING type"]),
    # a property's place is its name, an ARRAY's element 'items', an anyOf branch 'any_of[i]'
    ({"type": "OBJECT", "properties": {"l": {"type": "ARRAY", "items": {"type": "OBJECT", "properties": {
        "m": {"type": "array"}}}}, "u": {"anyOf": [{"type": "STRING"}, {"type": "NUMBER", "enum": ["1"]}]}}},
     [f"{AT}.properties[l].items.properties[m].items: missing field.",
      f"{AT}.properties[u].any_of[1].enum: only allowed for STRING type"]),
])
def test_each_rule_is_a_line_in_the_apis_words(schema: dict[str, Any], lines: list[str]) -> None:
    status, reply, record = one(schema)
    assert status == 400 and reply == {"error": {
        "code": 400, "message": "".join(f"* GenerateContentRequest.{line}\n" for line in lines),
        "status": "INVALID_ARGUMENT"}}
    assert "body.schema_rule" in [f["code"] for f in record["findings"]]


TYPE_LINE = "Invalid value at '{}' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), {}"
ENUM_LINE = "Invalid value at '{}' (TYPE_STRING), {}"


def test_a_type_not_of_type_and_numbers_in_enum_are_the_parsers_lines_with_their_details() -> None:
    """zereight/gitlab-mcp#166 (type "": the line and its fieldViolation), thClaws/thClaws#172 (enum [0, 1, 2] on
    generativelanguage.googleapis.com, mixed in body order with the unknown-name lines); a body the parser refuses
    gets the parser's lines alone, not the rules past it."""
    status, reply, record = one({"type": "OBJECT", "properties": {
        "a": {"type": ""}, "b": {"type": "INTEGER", "enum": [0, 1]}, "c": {"type": "dict", "const": 1}}})
    place = f"{AT}.properties[{{}}].value"
    lines = [(f"{place.format(0)}.type", TYPE_LINE.format(f"{place.format(0)}.type", '""')),
             (f"{place.format(1)}.enum[0]", ENUM_LINE.format(f"{place.format(1)}.enum[0]", 0)),
             (f"{place.format(1)}.enum[1]", ENUM_LINE.format(f"{place.format(1)}.enum[1]", 1)),
             (f"{place.format(2)}.type", TYPE_LINE.format(f"{place.format(2)}.type", '"dict"')),
             (place.format(2), f"Invalid JSON payload received. Unknown name \"const\" at '{place.format(2)}': Cannot "
                               "find field.")]
    assert status == 400 and reply["error"]["message"] == "\n".join(line for _, line in lines)
    assert reply["error"]["details"] == [{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [
        {"field": field, "description": line} for field, line in lines]}]
    codes = [f["code"] for f in record["findings"]]
    assert codes.count("body.field_value") == 4 and "body.schema_rule" not in codes


def test_the_recorded_exchange_of_an_object_without_properties_is_answered() -> None:
    """The recorded request whole (pydantic-ai's cassette, 2025-06-16: a declaration's parameters an OBJECT with no
    properties, mode ANY), which the API answered 200 (fact gemini.schema_empty_object): the mock answers it 200,
    judging nothing in its schemas; google-genai's types take the body as they take any generateContent body."""
    exchange = json.loads((Path(__file__).parent / "data" / "exchanges" / "gemini-empty-object-parameters-any.json")
                          .read_text(encoding="utf-8"))
    assert exchange["status"] == 200 and exchange["response"]["candidates"][0]["content"]["parts"] == [
        {"functionCall": {"args": {}, "name": "bar"}}]
    path = "/v1beta/models/" + exchange["uri"].rsplit("/models/", 1)[1]
    reply = MockService("gemini").handle("POST", path, {}, json.dumps(exchange["request"]).encode())
    codes = [f["code"] for f in reply.record["findings"]]
    assert reply.status == 200, reply.record["findings"]
    assert not {"body.schema_rule", "body.field_value", "body.unknown_field"} & set(codes)
    if not missing("google.genai"):
        from sdk_types import gemini_body_problems

        assert gemini_body_problems(exchange["request"]) == []


@pytest.mark.parametrize("schema", [
    # an OBJECT with no properties (fact gemini.schema_empty_object: recorded 200s from 2025-06; the 400 'properties:
    # should be non-empty for OBJECT type' recorded up to 2025-03-31)
    {"type": "OBJECT", "properties": {}},
    {"type": "object"},
    {"type": "OBJECT", "properties": {"o": {"type": "OBJECT"}, "a": {"type": "ARRAY", "items": {"type": "OBJECT"}}},
     "required": ["o"]},  # inside: no recording since 2025-06, not judged
    {"type": "OBJECT", "properties": {"e": {"type": "STRING", "format": "email", "enum": ["a@b.c"]},
                                      "d": {"type": "STRING", "format": "date"}, "n": {"type": "null"},
                                      "i": {"type": "integer", "format": "int32"}}},  # format: 'Any value is allowed'
    {"type": "OBJECT", "properties": {"x": {"anyOf": [{"type": "STRING"}, {"type": "NULL"}]}}, "required": ["x"]},
    {"type": "OBJECT", "properties": {"s": {"type": "STRING", "properties": {}, "required": [], "enum": []}}},
    {"type": "OBJECT", "properties": {"l": {"type": "ARRAY", "items": {"type": "STRING"}}},
     "required": ["l"], "propertyOrdering": ["l"]},
    {"type": "OBJECT", "properties": {"e": {"type": "STRING", "enum": [None, "a"]}}},  # a null element: not judged
    {"type": "OBJECT", "required": ["a"], "anyOf": [{"type": "OBJECT", "properties": {"a": {"type": "STRING"}}}]},
])
def test_what_the_api_takes_or_no_source_says_it_refuses_is_answered(schema: dict[str, Any]) -> None:
    status, _, record = one(schema)
    assert status == 200, record["findings"]


def test_v1alpha_whose_field_list_no_source_gives_is_not_judged() -> None:
    bad = {"type": "OBJECT", "properties": {"l": {"type": "ARRAY"}, "t": {"type": ""}}}
    status, _, _ = one(bad, path=PATH.replace("v1beta", "v1alpha"))
    assert status == 200
    assert one(bad, path=PATH.replace("v1beta", "v1"))[0] == 400


@pytest.mark.skipif(missing("google.genai"), reason="needs google-genai")
def test_google_genai_raises_on_the_mocks_400_what_it_raises_on_the_recorded_body() -> None:
    """google-genai sends a types.Schema it does not check (an ARRAY without items, enum on an INTEGER, properties on
    a STRING): over HTTP the mock answers the API's 400, which the SDK raises as ClientError as it raises the recorded
    body; a schema the API takes is answered."""
    from google import genai
    from google.genai import errors, types

    from toolchoice.providers.core.mock.server import running_mock

    def config(parameters: types.Schema) -> types.GenerateContentConfig:
        return types.GenerateContentConfig(tools=[types.Tool(function_declarations=[types.FunctionDeclaration(
            name="pick", parameters=parameters)])])

    bad = types.Schema(type="OBJECT", properties={
        "source_uuids": types.Schema(type="ARRAY"), "n": types.Schema(type="INTEGER", enum=["1"]),
        "s": types.Schema(type="STRING", properties={"a": types.Schema(type="STRING")})})
    good = types.Schema(type="OBJECT", properties={"source_uuids": types.Schema(
        type="ARRAY", items=types.Schema(type="STRING"))}, required=["source_uuids"])
    body = recorded("error-gemini-schema-items-missing.json")
    with pytest.raises(errors.ClientError) as expected:
        errors.APIError.raise_error(400, body, None)
    with running_mock("gemini") as mock:
        client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=mock.base_url))
        with pytest.raises(errors.ClientError) as raised:
            client.models.generate_content(model="gemini-2.5-flash", contents="hi", config=config(bad))
        assert client.models.generate_content(model="gemini-2.5-flash", contents="hi", config=config(good)).candidates
    assert (raised.value.code, raised.value.status) == (expected.value.code, expected.value.status) == (
        400, "INVALID_ARGUMENT")
    at = "* GenerateContentRequest.tools[0].function_declarations[0].parameters.properties"
    assert raised.value.message == (f"{at}[source_uuids].items: missing field.\n"
                                    f"{at}[n].enum: only allowed for STRING type\n"
                                    f"{at}[s].properties: only allowed for OBJECT type\n")
    assert [line["status"] for line in mock.records] == [400, 200]


# a declaration's parametersJsonSchema (fact gemini.json_schema_ref_words): one rule, a $ref that does not resolve in it
def json_schema(schema: dict[str, Any]) -> tuple[int, Any, dict[str, Any]]:
    return ask([{"name": "f", "parametersJsonSchema": schema}])


def test_a_json_schema_ref_that_does_not_resolve_is_the_recorded_body_whole() -> None:
    """google-gemini/gemini-cli#13326: an MCP tool's inputSchema, which Gemini CLI sends as parametersJsonSchema, whose
    target_object.anyOf[1] points at a definition the schema does not hold: the message alone, no details; the
    declarations beside it (Schema parameters the API takes) do not save the request."""
    schema = {"type": "object", "properties": {"target_object": {"anyOf": [
        {"type": "string"}, {"$ref": "#/$defs/Table"}]}}, "required": ["target_object"]}
    status, reply, record = ask([*_filler(2), {"name": "create_object", "parametersJsonSchema": schema}])
    assert status == 400 and reply == recorded("error-gemini-json-schema-ref-undefined.json")
    said = [f["message"] for f in record["findings"] if f["code"] == "body.schema_rule"]
    assert len(said) == 1 and "google-gemini/gemini-cli#13326" in said[0] and "function_declarations[2]" in said[0]


@pytest.mark.parametrize("schema,place", [
    # Febchuk/knappy-slack-assistant specs/21 (gemini-3-flash-preview, 2026-10-04): a missing local definition or an
    # external URL, 'reference to undefined schema at properties.a'
    ({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}, "properties.a"),
    ({"type": "object", "properties": {"a": {"$ref": "https://example.com/schemas/a.json"}}}, "properties.a"),
    # the place's form, gemini-cli#13326: keys and list indexes joined by dots, inside items and $defs too
    ({"type": "object", "$defs": {"T": {"type": "object", "properties": {"r": {"$ref": "#/definitions/R"}}}},
      "properties": {"l": {"type": "array", "items": {"$ref": "#/$defs/T"}}}}, "$defs.T.properties.r"),
    ({"type": "object", "properties": {"l": {"type": "array", "items": {"oneOf": [
        {"type": "null"}, {"$ref": "#/properties/nothing"}]}}}}, "properties.l.items.oneOf.1"),
])
def test_a_ref_that_does_not_resolve_is_named_by_its_place(schema: dict[str, Any], place: str) -> None:
    status, reply, _ = json_schema(schema)
    assert status == 400 and reply == {"error": {
        "code": 400, "message": f"reference to undefined schema at {place}", "status": "INVALID_ARGUMENT"}}


@pytest.mark.parametrize("schema", [
    # what knappy-slack-assistant's measurement found taken in parametersJsonSchema (specs/21 section 4.2)
    {"type": "object", "$defs": {"T": {"type": "string"}}, "properties": {
        "t": {"$ref": "#/$defs/T", "description": "d", "default": "x"}, "c": {"const": 1}, "n": {"type": ["string", "null"]},
        "a": {"allOf": [{"type": "string"}, {"not": {"const": ""}}]}, "u": {"type": "array", "uniqueItems": True},
        "p": {"type": "object", "patternProperties": {"^x": {"type": "string"}}, "additionalProperties": False},
        "i": {"if": {"type": "string"}, "then": {"minLength": 1}}, "e": {"enum": [], "examples": ["a"]},
        "m": {"enum": ["a", 1, None]}, "f": {"type": "string", "format": "no-such-format"}, "b": True,
        "r": {"type": "string", "pattern": "(["}, "l": {"type": "array"}, "x-vendor": {"x-google-enum-descriptions": []}}},
    {"type": "object", "properties": {"node": {"$ref": "#"}}},  # root $ref "#", recursive
    {"type": "object", "definitions": {"a b": {"type": "string"}}, "properties": {"s": {"$ref": "#/definitions/a%20b"}}},
    {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "$id": "https://example.com/root.json",
     "properties": {"s": {"$ref": "https://example.com/root.json#/properties/t"}, "t": {"type": "string"}}},
    {"type": "object", "properties": {"d": {"type": "object", "properties": {"d": {"type": "object", "properties": {
        "d": {"type": "object", "properties": {"d": {"type": "object", "properties": {"d": {"type": "object",
            "properties": {"d": {"type": "object", "properties": {"d": {"type": "string"}}}}}}}}}}}}}}},  # 7 deep
    # not judged (no recording): an anchor, a relative reference, a $ref at the root
    {"type": "object", "properties": {"a": {"$ref": "#nowhere"}, "b": {"$ref": "other.json"}}},
    {"$ref": "#/$defs/Missing"},
])
def test_a_json_schema_the_api_takes_or_no_source_judges_is_answered(schema: dict[str, Any]) -> None:
    status, _, record = json_schema(schema)
    assert status == 200, record["findings"]


def test_a_response_json_schema_is_not_judged() -> None:
    """No recording of the API's answer to a responseJsonSchema's $ref that does not resolve was found."""
    status, _, _ = ask([{"name": "f", "parametersJsonSchema": {"type": "object"},
                         "responseJsonSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/M"}}}}])
    assert status == 200


# the declaration Google's Firebase AI SDK for Android serialized before firebase/firebase-android-sdk#7850 (its
# FunctionDeclarationTest.kt at 3f5f6872e8~1, whole): "Having both `parametersSchema` and `parametersJsonSchema` in the
# serialized requests caused them to be rejected by the service." (fact gemini.parameters_exclusive)
FIREBASE_DECLARATION = {
    "name": "isUserAGoat", "description": "Determine if the user is subject to teleportations.",
    "parameters": {"type": "OBJECT", "properties": {"userID": {"type": "STRING",
                                                               "description": "ID of the User making the call"}},
                   "required": ["userID"]},
    "parametersJsonSchema": None, "responseJsonSchema": None}


@pytest.mark.parametrize("declaration", [
    FIREBASE_DECLARATION,
    {"name": "f", "parameters": {"type": "OBJECT"}, "parametersJsonSchema": {"type": "object"}},
    {"name": "f", "parameters": {"type": "OBJECT"}, "parameters_json_schema": {"type": "object"}},
])
def test_parameters_beside_parameters_json_schema_is_refused_in_toolchoice_s_words(declaration: dict[str, Any]) -> None:
    """Google states the refusal, not its words: a 400 INVALID_ARGUMENT whose message says it is toolchoice's, naming
    the declaration's place; the finding names the statement and the fact."""
    status, reply, record = ask([*_filler(2), declaration])
    assert status == 400 and reply["error"]["status"] == "INVALID_ARGUMENT" and set(reply["error"]) == {
        "code", "message", "status"}
    name = json.dumps(declaration["name"])
    assert reply["error"]["message"] == (
        f"toolchoice mock: FunctionDeclaration {name} at 'tools[0].function_declarations[2]' sets both parameters and "
        "parametersJsonSchema, which are mutually exclusive (the API's words for this are not recorded)")
    (said,) = [f["message"] for f in record["findings"] if f["code"] == "body.schema_rule"]
    assert "firebase/firebase-android-sdk#7850" in said and "fact gemini.parameters_exclusive" in said


@pytest.mark.parametrize("declaration", [
    {"name": "f", "parameters": {"type": "OBJECT"}},
    {"name": "f", "parametersJsonSchema": {"type": "object"}},
    {"name": "f", "parameters": None, "parametersJsonSchema": {"type": "object"}},  # a message left out: not set
    # the protos say the same of response and responseJsonSchema; no refusal recorded: not judged
    {"name": "f", "parameters": {"type": "OBJECT"}, "response": {"type": "STRING"},
     "responseJsonSchema": {"type": "string"}},
])
def test_one_of_the_two_forms_is_answered(declaration: dict[str, Any]) -> None:
    status, _, record = ask([declaration])
    assert status == 200, record["findings"]


def test_the_schema_rules_are_answered_before_the_two_forms() -> None:
    """Which the API answers first is not recorded: the recorded lines of a schema rule are the mock's answer."""
    status, reply, _ = ask([{"name": "f", "parameters": {"type": "OBJECT", "properties": {"l": {"type": "ARRAY"}}},
                             "parametersJsonSchema": {"type": "object"}}])
    assert status == 400 and reply["error"]["message"] == f"* GenerateContentRequest.{AT}.properties[l].items: missing field.\n"
