"""render/compare/send for Gemini warn (``schema.api_refuses``) on exactly the converted ``parameters`` the mock
refuses (trial18m).

The Gemini translator converts a scenario's JSON Schema to Gemini's Schema and then judges what it will send with the
mock's own rules (gemini/schema_rules.py, the parser's lines of gemini/request_fields.py): each place, the API's
recorded words and their source, the request sent as written. The truth is outside the translator: the same body
through google-genai 3.6.1's own types to the mock on 127.0.0.1 (raised as ClientError with the API's lines, or
answered), and the real-world schemas of tests/data/schemas, which the API takes once converted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from sdk_types import missing
from toolchoice.providers import gemini
from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.mock.service import MockService
from toolchoice.providers.core.model import Message, ProviderSettings, RenderOptions, Scenario, Tool

KEY = "AIzaSyMockKeyForTests0123456789abcdefgh"
MODEL = "gemini-2.5-flash"
SCHEMAS = Path(__file__).parent / "data" / "schemas"
CODE = "schema.api_refuses"


def render(parameters: dict[str, Any], form: str | None = "parameters", name: str = "pick") -> Any:
    """A scenario of one tool (built whole: the loader would refuse BFCL's "dict"), translated for Gemini."""
    scenario = Scenario(path="t", tools=(Tool(name, "Picks.", parameters),), messages=(Message("user", "hi"),),
                        providers={"gemini": ProviderSettings(schema_form=form)})
    return gemini.translate("gemini", scenario, RenderOptions(model=MODEL), CAPABILITIES["gemini"])


def warned(translation: Any) -> list[str]:
    return [e.message for e in translation.ledger if e.code == CODE]


def mock_status(body: dict[str, Any]) -> tuple[int, Any]:
    """The exact body toolchoice sends, to the mock in process."""
    exchange = MockService("gemini").handle("POST", f"/v1beta/models/{MODEL}:generateContent", {},
                                            json.dumps(body).encode())
    return exchange.status, json.loads(exchange.body)


# each case: the JSON Schema a scenario writes; the (place, the API's words) the converted parameters get, [] for none
CASES = [
    # anomalyco/opencode#11889: properties and required on a string
    ({"type": "object", "properties": {"data": {"type": "string", "properties": {"a": {"type": "string"}},
                                                "required": ["a"]}}},
     [("parameters.properties[data].properties", "only allowed for OBJECT type"),
      ("parameters.properties[data].required", "only allowed for OBJECT type")]),
    # iBUHub/AIStudioToAPI#154: a required name with no property
    ({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["ref", "text"]},
     [("parameters.required[0]", "property is not defined")]),
    # musistudio/llms#20: string values on an integer, kept by the conversion
    ({"type": "object", "properties": {"truncateMode": {"type": "integer", "enum": ["1", "2"]}}},
     [("parameters.properties[truncateMode].enum", "only allowed for STRING type")]),
    # a type list with null is Gemini's type + nullable: the enum stays on the integer
    ({"type": "object", "properties": {"n": {"type": ["integer", "null"], "enum": ["1"]}}},
     [("parameters.properties[n].enum", "only allowed for STRING type")]),
    # AstrBotDevs/AstrBot#6029: an array without items, here nested in an anyOf branch and in an array's items
    ({"type": "object", "properties": {"u": {"anyOf": [{"type": "string"}, {"type": "array"}]},
                                       "l": {"type": "array", "items": {"type": "array"}}}},
     [("parameters.properties[u].any_of[1].items", "missing field."),
      ("parameters.properties[l].items.items", "missing field.")]),
    # what the conversion repairs is not the API's to refuse: $defs/$ref inlined, a number enum removed (its own
    # warning), a type list split, additionalProperties removed
    ({"type": "object", "$defs": {"T": {"type": "string", "enum": ["a"]}},
      "properties": {"t": {"$ref": "#/$defs/T"}, "n": {"type": "integer", "enum": [1, 2]},
                     "v": {"type": ["string", "integer"]}}, "additionalProperties": False}, []),
    # what the API takes (the mock answers it): an empty map or list, format, a null in enum, required beside anyOf
    ({"type": "object", "properties": {"s": {"type": "string", "format": "email", "enum": ["a@b.c", None]},
                                       "o": {"type": "object", "properties": {}, "required": []},
                                       "l": {"type": "array", "items": {"type": "string"}}},
      "required": ["s", "l"]}, []),
    ({"type": "object", "required": ["a"], "anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}},
                                                     {"type": "object", "properties": {"b": {"type": "string"}}}]},
     []),
]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    pytest.importorskip("google.genai")
    from google import genai
    from google.genai import types

    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("gemini") as mock:
        yield genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=mock.base_url))


@pytest.mark.skipif(missing("google.genai"), reason="needs google-genai")
@pytest.mark.parametrize("schema,expected", CASES, ids=range(len(CASES)))
def test_render_warns_on_exactly_what_the_mock_refuses_through_google_genai(client: Any, schema: dict[str, Any],
                                                                             expected: list[tuple[str, str]]) -> None:
    from google.genai import errors, types

    translation = render(schema)
    said = warned(translation)
    assert translation.request is not None and len(said) == (1 if expected else 0), said
    grouped: dict[str, list[str]] = {}
    for place, words in expected:
        grouped.setdefault(words, []).append(place)
    for words, places in grouped.items():
        assert f'"{words}" at {", ".join(places)} (' in said[0]
    if expected:  # each place named once, and no other
        assert said[0].startswith("tool 'pick': ") and said[0].count("parameters.") == len(expected)
        assert "(the API's recorded words, fact gemini.schema_rule_words)" in said[0]
    # the same body, as sent, through google-genai's own types to the mock
    tools = [types.Tool.model_validate(group) for group in translation.request.body["tools"]]
    config = types.GenerateContentConfig(tools=tools)
    if not expected:
        assert client.models.generate_content(model=MODEL, contents="hi", config=config).candidates
        return
    with pytest.raises(errors.ClientError) as raised:
        client.models.generate_content(model=MODEL, contents="hi", config=config)
    at = "* GenerateContentRequest.tools[0].function_declarations[0]."
    assert (raised.value.code, raised.value.status) == (400, "INVALID_ARGUMENT")
    assert sorted(raised.value.message.splitlines()) == sorted(f"{at}{place}: {words}" for place, words in expected)


# a field of another JSON kind than Schema's, which the conversion copies: google-genai's types refuse to build it, so
# the body toolchoice sends goes to the mock as it is
@pytest.mark.parametrize("schema,place,source", [
    ({"type": "object", "properties": {"a": {"type": "string"}}, "required": "a"}, "parameters.required",
     "toolchoice's words"),
    ({"type": "object", "properties": {"a": {"type": "string", "description": ["x"]}}},
     "parameters.properties[0].value.description", "zed-industries/zed#53919"),
])
def test_a_field_of_another_kind_is_warned_as_the_mock_refuses_it(schema: dict[str, Any], place: str,
                                                                    source: str) -> None:
    translation = render(schema)
    said = warned(translation)
    assert len(said) == 1 and f"{place}: " in said[0] and source in said[0]
    status, reply = mock_status(translation.request.body)
    assert status == 400 and f"tools[0].function_declarations[0].{place.rsplit('.', 1)[0]}" in reply["error"]["message"]


def test_a_response_schema_is_judged_by_the_parser_as_the_mock_judges_it() -> None:
    """A declaration's response (google-genai's FunctionDeclaration.response, a Gemini Schema sent as written): a
    field Schema has not is the parser's recorded line (fact gemini.unknown_field_words), and the mock's 400."""
    scenario = Scenario(path="t", tools=(Tool("pick", "Picks.", {"type": "object", "properties": {
        "a": {"type": "string"}}}, fields={"response": {"type": "OBJECT", "properties": {
            "r": {"type": "STRING", "const": "x"}}}}),), messages=(Message("user", "hi"),))
    translation = gemini.translate("gemini", scenario, RenderOptions(model=MODEL), CAPABILITIES["gemini"])
    said = warned(translation)
    assert len(said) == 1 and "response.properties[0].value.const: " in said[0]
    assert "Unknown name \\\"const\\\" at 'tools[0].function_declarations[0].response.properties[0].value'" in said[0]
    status, reply = mock_status(translation.request.body)
    assert status == 400 and "Unknown name \"const\" at 'tools[0].function_declarations[0].response.properties[0]" \
        ".value'" in reply["error"]["message"]


def test_auto_form_sends_a_lossy_schema_as_json_schema_and_does_not_judge_it() -> None:
    """schema_form auto (the default) sends parametersJsonSchema when the conversion would lose something: a Value the
    API does not judge by Schema's rules, and the mock neither."""
    schema = {"type": "object", "properties": {"s": {"type": "string", "required": ["x"]},
                                               "n": {"type": "integer", "enum": [1]}}}
    translation = render(schema, form=None)
    assert "parametersJsonSchema" in translation.request.body["tools"][0]["functionDeclarations"][0]
    assert not warned(translation) and mock_status(translation.request.body)[0] == 200
    converted = render(schema)
    assert len(warned(converted)) == 1 and mock_status(converted.request.body)[0] == 400


@pytest.mark.parametrize("path", sorted(p.name for p in SCHEMAS.glob("*.json")))
def test_real_world_schemas_convert_to_what_the_api_takes(path: str) -> None:
    """Each file's tools as a scenario holds them: BFCL's type names ("dict", "float", "tuple") as `tools import`
    maps them (BFCL's own GORILLA_TO_OPENAPI table; the scenario loader refuses "dict"). Converted, or sent whole as
    parametersJsonSchema, none gets the warning, and the mock answers each."""
    from toolchoice.providers.core.tool_import_schemas import bfcl_schema

    for tool in json.loads((SCHEMAS / path).read_text())["tools"]:
        schema = tool.get("parameters") or {}
        for form in ("parameters", None):
            translation = render(bfcl_schema(schema) if path.startswith("bfcl-") else schema, form, tool["name"])
            assert not warned(translation) and translation.request is not None, tool["name"]
            assert mock_status(translation.request.body)[0] == 200, tool["name"]


@pytest.mark.skipif(missing("google.genai"), reason="needs google-genai")
@pytest.mark.parametrize("form", ["parametersJsonSchema", None])
def test_a_json_schema_ref_that_does_not_resolve_is_warned_and_google_genai_raises_the_recorded_error(
        client: Any, form: str | None) -> None:
    """A $ref the schema holds no definition for, sent whole as parametersJsonSchema (asked for, or under auto: the
    conversion cannot inline it): the warning quotes the API's words (fact gemini.json_schema_ref_words), and the
    body as sent, through google-genai's FunctionDeclaration(parameters_json_schema=...), gets from the mock the
    ClientError google-genai raises on the recorded body (google-gemini/gemini-cli#13326)."""
    from google.genai import errors, types

    schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"},
                                               "b": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/Gone"}]}}}
    translation = render(schema, form=form)
    said = warned(translation)
    assert translation.request is not None and len(said) == 1
    assert ('parametersJsonSchema: "reference to undefined schema at properties.a" (and at properties.b.anyOf.1: '
            "the API names one) (google-gemini/gemini-cli#13326") in said[0]
    assert "fact gemini.json_schema_ref_words" in said[0]
    declaration = translation.request.body["tools"][0]["functionDeclarations"][0]
    sent = types.FunctionDeclaration(name=declaration["name"], description=declaration["description"],
                                     parameters_json_schema=declaration["parametersJsonSchema"])
    with pytest.raises(errors.ClientError) as expected:
        errors.APIError.raise_error(400, json.loads((Path(__file__).parent / "data" / "responses" / "errors" /
                                                     "error-gemini-json-schema-ref-undefined.json").read_text()), None)
    with pytest.raises(errors.ClientError) as raised:
        client.models.generate_content(model=MODEL, contents="hi", config=types.GenerateContentConfig(
            tools=[types.Tool(function_declarations=[sent])]))
    assert (raised.value.code, raised.value.status, raised.value.details) == (
        expected.value.code, expected.value.status, {"error": {**expected.value.details["error"],
                                                              "message": "reference to undefined schema at properties.a"}})


def test_a_json_schema_whose_refs_resolve_is_not_warned() -> None:
    schema = {"type": "object", "$defs": {"T": {"type": "string"}}, "properties": {
        "t": {"$ref": "#/$defs/T"}, "self": {"$ref": "#"}}}
    translation = render(schema, form="parametersJsonSchema")
    assert not warned(translation) and mock_status(translation.request.body)[0] == 200


def test_a_tools_list_written_in_extra_is_judged_as_sent() -> None:
    """providers.gemini.extra's tools replace the translated ones whole: the declarations the request sends are the
    ones judged, by the parser's recorded line for a field Schema has not (fact gemini.unknown_field_words) and the
    rules past it (fact gemini.schema_rule_words), as the mock answers them."""
    extra = {"tools": [{"functionDeclarations": [
        {"name": "pick", "parameters": {"type": "OBJECT", "properties": {"l": {"type": "ARRAY"}}}},
        {"name": "other", "parameters": {"type": "OBJECT", "properties": {"s": {"type": "STRING", "exclusiveMinimum": 1}}}},
        {"name": "third", "parametersJsonSchema": {"type": "object", "properties": {"a": {"$ref": "#/x"}}}}]}]}
    scenario = Scenario(path="t", tools=(Tool("pick", "Picks.", {"type": "object"}),), messages=(Message("user", "hi"),),
                        providers={"gemini": ProviderSettings(extra=extra)})
    translation = gemini.translate("gemini", scenario, RenderOptions(model=MODEL), CAPABILITIES["gemini"])
    said = warned(translation)
    assert len(said) == 3 and "extra.overrides" in [e.code for e in translation.ledger]
    assert said[0].startswith("tool 'pick': ") and '"missing field." at parameters.properties[l].items' in said[0]
    assert said[1].startswith("tool 'other': ") and 'Unknown name \\"exclusiveMinimum\\"' in said[1]
    assert said[2].startswith("tool 'third': ") and "reference to undefined schema at properties.a" in said[2]
    status, reply = mock_status(translation.request.body)
    assert status == 400 and 'Unknown name "exclusiveMinimum"' in reply["error"]["message"]


def test_a_warning_names_the_first_places_and_counts_the_rest() -> None:
    """5,000 required names with no property: the API (the mock) names each place; the warning names the first six
    and counts the others exactly (it named all 5,000: one warning of 292,057 characters, a render of 1.4 MB)."""
    translation = render({"type": "object", "properties": {"a": {"type": "string"}},
                          "required": [f"r{i}" for i in range(5000)]})
    said = warned(translation)
    status, reply = mock_status(translation.request.body)
    refused = [line.split("parameters.", 1)[1].split(":", 1)[0] for line in reply["error"]["message"].splitlines()]
    assert status == 400 and len(refused) == 5000
    assert len(said) == 1 and len(said[0]) < 1000
    assert f"at {', '.join('parameters.' + p for p in refused[:6])}, … and {5000 - 6} more (" in said[0]
    assert "parameters.required[6]" not in said[0]


def test_a_parser_line_past_the_first_is_counted() -> None:
    """A response schema of 40 fields Schema has not: the parser's first six lines, then the count of the others."""
    scenario = Scenario(path="t", tools=(Tool("pick", "Picks.", {"type": "object", "properties": {
        "a": {"type": "string"}}}, fields={"response": {"type": "OBJECT", "properties": {
            f"r{i}": {"type": "STRING", "const": "x"} for i in range(40)}}}),), messages=(Message("user", "hi"),))
    translation = gemini.translate("gemini", scenario, RenderOptions(model=MODEL), CAPABILITIES["gemini"])
    said = warned(translation)
    status, reply = mock_status(translation.request.body)
    assert status == 400 and reply["error"]["message"].count('Unknown name "const"') == 40
    assert len(said) == 1 and said[0].count("Unknown name") == 6
    assert f"(fact gemini.unknown_field_words); … and {40 - 6} more; the request is sent as written" in said[0]


def test_a_place_holding_a_line_break_is_one_line() -> None:
    """A property whose name holds a newline and an ESC: the API names its place with them; the warning writes them
    out (as redaction.visible shows a control character, a newline as \\u000a), so a table's cell holds one line."""
    translation = render({"type": "object", "properties": {"a\nb\x1b": {"type": "string", "properties": {
        "z": {"type": "string"}}}}})
    said = warned(translation)
    status, reply = mock_status(translation.request.body)
    assert status == 400 and "parameters.properties[a\nb\x1b].properties: only allowed" in reply["error"]["message"]
    assert len(said) == 1 and "\n" not in said[0] and "\x1b" not in said[0]
    assert "at parameters.properties[a\\u000ab\\u001b].properties (" in said[0]


def test_parameters_beside_parameters_json_schema_is_warned_as_the_mock_refuses_it() -> None:
    """A tools list written in extra whose declaration sets both forms, as Google's Firebase AI SDK for Android sent it
    before firebase/firebase-android-sdk#7850 (a null parametersJsonSchema beside parameters), which 'caused them to
    be rejected by the service' (fact gemini.parameters_exclusive): warned, with the statement and no claimed words;
    the mock refuses the same body. One form alone is not warned."""
    from test_mock_gemini_schema_rules import FIREBASE_DECLARATION

    extra = {"tools": [{"functionDeclarations": [
        FIREBASE_DECLARATION, {"name": "alone", "parametersJsonSchema": {"type": "object"}},
        {"name": "both", "parameters": {"type": "OBJECT", "properties": {"l": {"type": "ARRAY"}}},
         "parametersJsonSchema": {"type": "object"}}]}]}
    scenario = Scenario(path="t", tools=(Tool("pick", "Picks.", {"type": "object"}),), messages=(Message("user", "hi"),),
                        providers={"gemini": ProviderSettings(extra=extra)})
    translation = gemini.translate("gemini", scenario, RenderOptions(model=MODEL), CAPABILITIES["gemini"])
    said = warned(translation)
    assert len(said) == 2
    assert said[0].startswith("tool 'isUserAGoat': Gemini's API rejects its declaration as sent: parameters beside "
                              "parametersJsonSchema (firebase/firebase-android-sdk#7850")
    assert "fact gemini.parameters_exclusive" in said[0] and "not recorded" in said[0]
    assert said[1].startswith("tool 'both': Gemini's API answers 400 INVALID_ARGUMENT to its declaration as sent: ")
    assert "missing field." in said[1] and "parameters beside parametersJsonSchema" in said[1]
    status, reply = mock_status(translation.request.body)
    assert status == 400 and reply["error"]["message"].startswith(
        "* GenerateContentRequest.tools[0].function_declarations[2].parameters.properties[l].items: missing field.")
    status, reply = mock_status({**translation.request.body, "tools": [{"functionDeclarations": [
        FIREBASE_DECLARATION]}]})
    assert status == 400 and "sets both parameters and parametersJsonSchema" in reply["error"]["message"]
