"""The Gemini mock's GenerateContentRequest fields and thought-signature parts (trial16d).

1. A top-level field GenerateContentRequest has not (OpenAI's ``tool_choice``, ``temperature`` beside
   ``generationConfig``) was passed unjudged and answered 200; the API refuses it with its protobuf JSON parser's
   400. The expected words and envelope are copied from the recordings fact gemini.unknown_field_words cites
   (tests/data/responses/errors/error-gemini-unknown-field.json, nashsu/llm_wiki#49; a client's notes on an
   OpenAI-shaped body: 'Invalid JSON payload received. Unknown name "tool_choice": Cannot find field.'), and
   google-genai 3.6.1, run against the mock on 127.0.0.1, still gets every field it sends answered and raises on the
   mock's 400 what it raises on the recorded body.
2. A history part holding only a thoughtSignature (google-genai's ``Part(thought_signature=...)``, as a stream may end)
   was dropped by the mock's reader and the whole-reply parser; both keep it now, so the mock follows the signature
   back to the answer that handed it out.
"""

from __future__ import annotations

import json
from typing import Any

import pydantic
import pytest

from sdk_types import missing
from toolchoice.providers.core.mock.service import MockService

KEY = "AIzaSyMockKeyForTests0123456789abcdefgh"
USER = [{"role": "user", "parts": [{"text": "hi"}]}]
TOOLS = [{"functionDeclarations": [{"name": "get_time", "parameters": {"type": "object"}}]}]
PATH = "/v1beta/models/gemini-2.5-flash:generateContent"
UNKNOWN = 'Invalid JSON payload received. Unknown name "{}": Cannot find field.'  # the recordings' form

needs_genai = pytest.mark.skipif(missing("google.genai"), reason="needs google-genai")


def ask(body: dict[str, Any], path: str = PATH) -> tuple[int, Any, dict[str, Any]]:
    exchange = MockService("gemini").handle("POST", path, {}, json.dumps(body).encode())
    return exchange.status, json.loads(exchange.body) if exchange.body else None, exchange.record


def codes(record: dict[str, Any]) -> list[str]:
    return [f["code"] for f in record["findings"]]


# ---- 1. fields GenerateContentRequest has not -------------------------------------------------------------------


@pytest.mark.parametrize("version", ["v1beta", "v1"])
def test_an_openai_tool_choice_at_the_top_is_refused_in_the_apis_words(version: str) -> None:
    status, reply, record = ask({"contents": USER, "tools": TOOLS,
                                 "tool_choice": {"type": "function", "function": {"name": "get_time"}}},
                                PATH.replace("v1beta", version))
    assert status == 400 and reply["error"]["message"] == UNKNOWN.format("tool_choice")
    assert reply["error"]["status"] == "INVALID_ARGUMENT"
    assert reply["error"]["details"] == [{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [
        {"description": UNKNOWN.format("tool_choice")}]}]
    advice = [f["message"] for f in record["findings"] if f["code"] == "body.unknown_field"]
    assert advice and "toolConfig.functionCallingConfig" in advice[0]  # toolchoice's line says where it goes


def test_an_openai_body_names_each_field_it_has_not_in_body_order() -> None:
    """The client's notes (an OpenAI body: model, max_tokens, messages, stream, tool_choice) list one line per field,
    in order, and not ``model``, which GenerateContentRequest has."""
    status, reply, _ = ask({"model": "gemini-2.5-flash", "max_tokens": 2048, "messages": [{"role": "user",
                            "content": "hi"}], "stream": False, "tool_choice": "auto"})
    names = ["max_tokens", "messages", "stream", "tool_choice"]
    assert status == 400 and reply["error"]["message"] == "\n".join(UNKNOWN.format(n) for n in names)
    assert [v["description"] for v in reply["error"]["details"][0]["fieldViolations"]] == \
        [UNKNOWN.format(n) for n in names]


def test_v1alpha_whose_field_list_no_source_gives_passes_it_unjudged() -> None:
    status, _, record = ask({"contents": USER, "tool_choice": "auto"}, PATH.replace("v1beta", "v1alpha"))
    assert status == 200 and "body.unknown_field" not in codes(record)
    assert any("tool_choice" in f["message"] for f in record["findings"] if f["code"] == "mock.unjudged")


@needs_genai
@pytest.mark.parametrize("version", ["v1beta", "v1"])
def test_every_field_google_genai_sends_is_answered(version: str) -> None:
    """google-genai 3.6.1 sends these fields to the Developer API (models._GenerateContentConfig_to_mldev and the
    converters of the messages inside: generationConfig with thinkingConfig and imageConfig, tools of every kind, the
    toolConfig, the system instruction, a history whose parts hold each kind of data); none is refused, and those
    toolchoice does not model are named as passed unjudged (so they were sent)."""
    from google import genai
    from google.genai import types

    from toolchoice.providers.core.mock.server import running_mock

    tools = [types.Tool(function_declarations=[
                 types.FunctionDeclaration(name="get_time", description="The time"),
                 types.FunctionDeclaration(name="get_weather", parameters_json_schema={"type": "object"},
                                           response_json_schema={"type": "string"})]),
             types.Tool(google_search=types.GoogleSearch()), types.Tool(code_execution=types.ToolCodeExecution()),
             types.Tool(url_context=types.UrlContext()), types.Tool(google_maps=types.GoogleMaps(enable_widget=True)),
             types.Tool(google_search_retrieval=types.GoogleSearchRetrieval(
                 dynamic_retrieval_config=types.DynamicRetrievalConfig(mode="MODE_DYNAMIC", dynamic_threshold=0.5))),
             types.Tool(file_search=types.FileSearch(file_search_store_names=["fileSearchStores/a"], top_k=3)),
             types.Tool(computer_use=types.ComputerUse(environment="ENVIRONMENT_BROWSER")),
             types.Tool(mcp_servers=[types.McpServer(name="docs", streamable_http_transport=types.StreamableHttpTransport(
                 url="https://mcp.example.com/mcp"))])]
    config = types.GenerateContentConfig(
        system_instruction="Be brief.", temperature=0.2, top_p=0.9, top_k=20, seed=7, max_output_tokens=512,
        stop_sequences=["END"], presence_penalty=0.1, frequency_penalty=0.1, response_mime_type="text/plain",
        response_logprobs=True, logprobs=2, media_resolution="MEDIA_RESOLUTION_LOW",
        image_config=types.ImageConfig(aspect_ratio="1:1"),
        speech_config=types.SpeechConfig(voice_config=types.VoiceConfig(
            prebuilt_voice_config=types.PrebuiltVoiceConfig(voice_name="Kore"))),
        thinking_config=types.ThinkingConfig(include_thoughts=True, thinking_level="LOW"),
        labels={"team": "a"}, store=False, service_tier="standard",
        cached_content="cachedContents/abc", continuation_token=b"token",
        safety_settings=[types.SafetySetting(category="HARM_CATEGORY_HARASSMENT", threshold="BLOCK_NONE")],
        tools=tools, tool_config=types.ToolConfig(
            function_calling_config=types.FunctionCallingConfig(mode="AUTO"),
            retrieval_config=types.RetrievalConfig(lat_lng=types.LatLng(latitude=48.8, longitude=2.3),
                                                   language_code="fr")),
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
    signature = b"sig"
    history = [
        types.Content(role="user", parts=[
            types.Part(text="Time?"), types.Part(inline_data=types.Blob(mime_type="image/png", data=b"png")),
            types.Part(file_data=types.FileData(file_uri="https://example.com/a.pdf", mime_type="application/pdf")),
            types.Part(file_data=types.FileData(file_uri="https://example.com/v.mp4", mime_type="video/mp4"),
                       video_metadata=types.VideoMetadata(start_offset="1s", end_offset="2s", fps=1.0))]),
        types.Content(role="model", parts=[
            types.Part(text="thinking", thought=True, thought_signature=signature),
            types.Part(executable_code=types.ExecutableCode(language="PYTHON", code="print(1)")),
            types.Part(code_execution_result=types.CodeExecutionResult(outcome="OUTCOME_OK", output="1")),
            types.Part(function_call=types.FunctionCall(id="c1", name="get_time", args={}),
                       thought_signature=signature)]),
        types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(
            id="c1", name="get_time", response={"output": "noon"}))])]
    with running_mock("gemini") as mock:
        client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=mock.base_url, api_version=version))
        assert client.models.generate_content(model="gemini-3.5-flash", contents=history, config=config).candidates
    (line,) = mock.records
    assert line["status"] == 200 and "body.unknown_field" not in codes(line), line
    (unjudged,) = [f["message"] for f in line["findings"] if f["code"] == "mock.unjudged"]
    for name in ("cachedContent", "continuationToken", "labels", "safetySettings", "serviceTier", "store",
                 "tools[].googleSearch", "tools[].codeExecution", "tools[].computerUse"):
        assert name in unjudged


@needs_genai
def test_google_genai_raises_on_the_mocks_400_what_it_raises_on_the_recorded_body() -> None:
    """The same temperature at the top (HttpOptions.extra_body puts it there), against a stand-in answering the
    recorded body and against the mock: the same ClientError, code, status, message and details."""
    from google import genai
    from google.genai import errors, types
    from servers import StandIn, Step

    from toolchoice.providers.core.mock.server import running_mock

    def raised(base_url: str) -> tuple[Any, ...]:
        client = genai.Client(api_key=KEY, http_options=types.HttpOptions(
            base_url=base_url, extra_body={"temperature": 0.7}))
        with pytest.raises(errors.APIError) as caught:
            client.models.generate_content(model="gemini-3.5-flash", contents="hi")
        error = caught.value
        return type(error), error.code, error.status, error.message, error.details

    with StandIn("gemini", Step.recorded_error(400, "error-gemini-unknown-field")) as stand_in:
        expected = raised(stand_in.base_url("gemini"))
    with running_mock("gemini") as mock:
        got = raised(mock.base_url)
    assert expected[0] is errors.ClientError and got == expected


# ---- 1b. fields the messages inside have not (trial16m) -----------------------------------------------------------

AT = "Invalid JSON payload received. Unknown name \"{}\" at '{}': Cannot find field."  # the recordings' nested form


def violations(reply: dict[str, Any]) -> list[dict[str, str]]:
    return reply["error"]["details"][0]["fieldViolations"]


def test_a_field_generation_config_has_not_is_the_recorded_body() -> None:
    """google-gemini/deprecated-generative-ai-js#125 (fact gemini.unknown_field_words): tools put inside
    generationConfig, answered with these words and a fieldViolation whose field is the place."""
    status, reply, record = ask({"contents": USER, "generationConfig": {"temperature": 0.1, "tools": TOOLS}})
    words = AT.format("tools", "generation_config")
    assert status == 400 and reply["error"]["message"] == words
    assert violations(reply) == [{"field": "generation_config", "description": words}]
    (said,) = [f["message"] for f in record["findings"] if f["code"] == "body.unknown_field"]
    assert '"tools" is not a field of Gemini\'s GenerationConfig (at generation_config)' in said


@pytest.mark.parametrize("body,lines", [
    # an OpenAI tool in tools[]: each key at the Tool's place (langchain-ai/langchainjs#9412: at 'tools[26]')
    ({"contents": USER, "tools": [*TOOLS, {"type": "function", "function": {"name": "f"}}]},
     [("type", "tools[1]"), ("function", "tools[1]")]),
    # OpenAI's strict on a declaration (GewoonJaap/gemini-cli-openai#157, zed-industries/zed#43231's index form)
    ({"contents": USER, "tools": [{"functionDeclarations": [{"name": "a"}, {"name": "b", "strict": True}]}]},
     [("strict", "tools[0].function_declarations[1]")]),
    # a tool result in OpenAI's words (0x4m4/hexstrike-ai#70: "content" at 'contents[1].parts[0].function_response')
    ({"contents": [*USER, {"role": "model", "parts": [{"functionCall": {"name": "get_time", "args": {}}}]},
                   {"role": "user", "parts": [{"functionResponse": {"name": "get_time", "content": "noon"}}]}],
      "tools": TOOLS}, [("content", "contents[2].parts[0].function_response")]),
    ({"contents": USER, "generationConfig": {"thinkingConfig": {"thinkingBudget": 0, "effort": "low"}}},
     [("effort", "generation_config.thinking_config")]),
    ({"contents": USER, "toolConfig": {"function_calling_config": {"mode": "AUTO"}, "tool_choice": "auto"}},
     [("tool_choice", "tool_config")]),
    ({"contents": USER, "systemInstruction": {"parts": [{"text": "Be brief.", "cache_control": {}}]}},
     [("cache_control", "system_instruction.parts[0]")]),
    ({"contents": [{"role": "user", "content": "hi", "parts": []}]}, [("content", "contents[0]")]),
    ({"contents": USER, "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE",
                                            "method": "SEVERITY"}]}, [("method", "safety_settings[0]")]),
    # body order, depth first, the top level among them
    ({"temperature": 0.1, "contents": USER, "generationConfig": {"reasoning": {}}, "tool_choice": "auto"},
     [("temperature", None), ("reasoning", "generation_config"), ("tool_choice", None)]),
])
def test_a_field_a_message_inside_has_not_is_refused_at_its_place(body: dict[str, Any],
                                                                  lines: list[tuple[str, str | None]]) -> None:
    status, reply, record = ask(body)
    words = [UNKNOWN.format(name) if at is None else AT.format(name, at) for name, at in lines]
    assert status == 400 and reply["error"]["message"] == "\n".join(words)
    assert violations(reply) == [{**({"field": at} if at else {}), "description": line}
                                 for (_, at), line in zip(lines, words)]
    assert "body.unknown_field" in codes(record)


@pytest.mark.parametrize("body", [
    {"contents": USER, "generation_config": {"thinking_config": {"thinking_budget": 128, "include_thoughts": True},
                                             "max_output_tokens": 64, "response_mime_type": "application/json"}},
    {"contents": USER, "tools": [{"function_declarations": [{"name": "get_time", "parameters_json_schema": {
        "type": "object", "additionalProperties": False}}]}, {"google_search": {}}, {"url_context": {}}],
     "tool_config": {"retrieval_config": {"lat_lng": {"latitude": 1, "longitude": 2}}}},
    {"contents": [{"role": "user", "parts": [{"text": "hi", "thought_signature": "c2ln"},
                                             {"inline_data": {"mime_type": "image/png", "data": "cG5n"}}]}],
     "system_instruction": {"role": "system", "parts": [{"text": "Be brief."}]}},
])
def test_the_proto_spelling_and_what_a_message_holds_are_taken(body: dict[str, Any]) -> None:
    """Each field in its proto spelling too; a Schema or a Struct (parameters_json_schema, args) is not looked into."""
    status, _, record = ask(body)
    assert status == 200 and "body.unknown_field" not in codes(record)


@needs_genai
def test_each_field_google_genai_sends_inside_the_body_is_a_field_of_its_message() -> None:
    """Truth from the SDK: every key google-genai 3.6.1's _*_to_mldev converters set on a message of the body, and
    every field of a type they pass on whole, is a field of that message in the mock's table (so the real client is
    never refused for a field it sends)."""
    import ast
    import inspect

    from google.genai import models, types

    from toolchoice.providers.gemini.request_fields import MESSAGES, camel

    tree = ast.parse(inspect.getsource(models))
    converters = {"_Content_to_mldev": "Content", "_Part_to_mldev": "Part", "_FunctionCall_to_mldev": "FunctionCall",
                  "_Tool_to_mldev": "Tool", "_GoogleSearch_to_mldev": "GoogleSearch",
                  "_GoogleMaps_to_mldev": "GoogleMaps", "_ToolConfig_to_mldev": "ToolConfig",
                  "_FunctionCallingConfig_to_mldev": "FunctionCallingConfig", "_SafetySetting_to_mldev": "SafetySetting",
                  "_ImageConfig_to_mldev": "ImageConfig", "_GenerateContentConfig_to_mldev": "GenerationConfig"}
    seen = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in converters:
            seen.add(node.name)
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and getattr(call.func, "id", None) == "setv" \
                        and isinstance(call.args[1], ast.List) and isinstance(call.args[1].elts[0], ast.Constant):
                    target = "GenerateContentRequest" if ast.unparse(call.args[0]) == "parent_object" \
                        else converters[node.name]
                    key = call.args[1].elts[0].value
                    assert key in {camel(f) for f in MESSAGES[target]}, (node.name, key)
    assert seen == set(converters)
    whole = ["FunctionDeclaration", "ThinkingConfig", "FunctionResponse", "Blob", "FileData", "ExecutableCode",
             "CodeExecutionResult", "ComputerUse", "FileSearch", "RetrievalConfig", "GoogleSearchRetrieval",
             "DynamicRetrievalConfig", "UrlContext"]
    for name in whole:
        assert set(getattr(types, name).model_fields) <= set(MESSAGES[name]), name
    assert set(types.ToolCodeExecution.model_fields) <= set(MESSAGES["CodeExecution"])


# ---- 1c. a schema's fields (trial17f) ---------------------------------------------------------------------------

# googleapis/googleapis google/ai/generativelanguage/v1beta/content.proto at bc7e3ba, message Schema: its fields
SCHEMA_PROTO = ("type", "format", "title", "description", "nullable", "enum", "items", "max_items", "min_items",
                "properties", "required", "min_properties", "max_properties", "minimum", "maximum", "min_length",
                "max_length", "pattern", "example", "any_of", "property_ordering", "default")
DECLARED = "tools[0].function_declarations[0].parameters"


@pytest.mark.parametrize("parameters,lines", [
    # Laisky/one-api#60 (gemini-2.0-flash): "additionalProperties" at 'tools[0].function_declarations[0].parameters'
    ({"type": "object", "properties": {"location": {"type": "string"}}, "additionalProperties": False},
     [("additionalProperties", DECLARED)]),
    # decolua/9router#2309 and router-for-me/CLIProxyAPI#1189: a map entry's value at properties[i].value, its items
    # at properties[i].value.items (their 'request.' prefix is the Code Assist endpoint's envelope)
    ({"type": "OBJECT", "properties": {"a": {"type": "STRING"}, "b": {"type": "NUMBER", "multipleOf": 2},
                                       "c": {"type": "ARRAY", "items": {"type": "OBJECT", "gap": 1}}}},
     [("multipleOf", f"{DECLARED}.properties[1].value"), ("gap", f"{DECLARED}.properties[2].value.items")]),
    # depth first, in body order; anyOf's elements by their index; $schema / $defs / const are no Schema fields
    ({"$schema": "x", "type": "OBJECT", "anyOf": [{"type": "STRING"}, {"type": "NUMBER", "const": 1}],
      "$defs": {}}, [("$schema", DECLARED), ("const", f"{DECLARED}.any_of[1]"), ("$defs", DECLARED)]),
])
def test_a_field_schema_has_not_is_refused_at_its_place(parameters: dict[str, Any],
                                                        lines: list[tuple[str, str]]) -> None:
    """A schema was not looked into: a JSON Schema keyword the Schema message has not was answered 200."""
    status, reply, record = ask({"contents": USER, "tools": [{"functionDeclarations": [
        {"name": "get_time", "parameters": parameters}]}]})
    words = [AT.format(name, at) for name, at in lines]
    assert status == 400 and reply["error"]["message"] == "\n".join(words)
    assert violations(reply) == [{"field": at, "description": line} for (_, at), line in zip(lines, words)]
    assert "body.unknown_field" in codes(record)


NOT_REPEATING = "Invalid JSON payload received. Unknown name \"{}\" at '{}': Proto field is not repeating, cannot start list."


@pytest.mark.parametrize("parameters,field,at,kind", [
    # the recorded case (zed-industries/zed#53919: "type" given a list at a properties value): its words and details
    ({"type": "OBJECT", "properties": {"a": {"type": ["STRING", "NULL"]}}}, "type", f"{DECLARED}.properties[0].value",
     None),
    ({"type": "OBJECT", "properties": []}, "properties", DECLARED, "an object (a map of Schema)"),
    ({"type": "OBJECT", "anyOf": 5}, "anyOf", DECLARED, "a list (a repeated field)"),
    ({"type": "OBJECT", "properties": {"x": {"type": "STRING"}}, "required": "x"}, "required", DECLARED,
     "a list (a repeated field)"),
    ({"type": "OBJECT", "properties": {"a": {"type": "ARRAY", "items": 5}}}, "items", f"{DECLARED}.properties[0].value",
     "an object (a Schema message)"),
    ({"type": "OBJECT", "properties": {"d": {"type": "STRING", "enum": "a"}}}, "enum",
     f"{DECLARED}.properties[0].value", "a list (a repeated field)"),
])
def test_a_schema_field_of_another_kind_is_refused(parameters: dict[str, Any], field: str, at: str,
                                                  kind: str | None) -> None:
    """A schema field given a value of another JSON kind than content.proto's Schema gives it (``properties: []``,
    ``anyOf: 5``, ``required: "x"``) was answered 200. A list where the field holds one value is the API's recorded
    400 (zed-industries/zed#53919: its words, a fieldViolation with the place); the others, with no recorded answer
    found, are a 400 in toolchoice's words, which say so."""
    status, reply, record = ask({"contents": USER, "tools": [{"functionDeclarations": [
        {"name": "get_time", "parameters": parameters}]}]})
    assert status == 400 and reply["error"]["status"] == "INVALID_ARGUMENT", reply
    said = [f["message"] for f in record["findings"] if f["code"] == "body.field_type"]
    assert len(said) == 1 and f"\"{field}\" at '{at}'" in said[0], record["findings"]
    if kind is None:
        assert reply["error"]["message"] == NOT_REPEATING.format(field, at)
        assert violations(reply) == [{"field": at, "description": NOT_REPEATING.format(field, at)}]
        assert "zed-industries/zed#53919" in said[0]
    else:
        message = reply["error"]["message"]
        assert message.startswith("toolchoice mock: ") and f"\"{field}\" at '{at}' must be {kind}" in message
        assert "toolchoice's words" in message and "details" not in reply["error"]
        assert "toolchoice's words" in said[0]


def test_the_value_fields_and_null_take_any_json_and_an_unknown_field_keeps_its_place_in_body_order() -> None:
    status, _, record = ask({"contents": USER, "tools": [{"functionDeclarations": [{"name": "f", "parameters": {
        "type": "OBJECT", "example": [1, 2], "default": "x", "nullable": None, "enum": None,
        "properties": {"a": {"type": "STRING", "example": {"k": [1]}}}}}]}]})
    assert status == 200 and "body.field_type" not in codes(record), record["findings"]
    status, reply, _ = ask({"contents": USER, "tools": [{"functionDeclarations": [{"name": "f", "parameters": {
        "type": "OBJECT", "properties": {"a": {"type": ["STRING"], "const": 1}}}}]}]})
    place = f"{DECLARED}.properties[0].value"
    assert reply["error"]["message"] == "\n".join([NOT_REPEATING.format("type", place), AT.format("const", place)])
    assert [v["field"] for v in violations(reply)] == [place, place]


def test_response_schema_and_a_declarations_response_are_schemas_too_and_json_schema_values_are_not() -> None:
    status, reply, _ = ask({"contents": USER, "generationConfig": {
        "responseMimeType": "application/json", "responseSchema": {"type": "OBJECT", "additionalProperties": False},
        "responseJsonSchema": {"type": "object", "additionalProperties": False}},
        "tools": [{"functionDeclarations": [{"name": "f", "response": {"type": "STRING", "const": "x"},
                                             "parametersJsonSchema": {"type": "object", "$defs": {}}}]}]})
    assert status == 400 and reply["error"]["message"] == "\n".join([  # body order: generationConfig first
        AT.format("additionalProperties", "generation_config.response_schema"),
        AT.format("const", "tools[0].function_declarations[0].response")])


def test_every_schema_field_in_either_spelling_is_taken() -> None:
    # each field on a schema of the type it is for (gemini/schema_rules.py: enum on an OBJECT is refused past the parser)
    every = {"type": "OBJECT", "title": "T", "description": "d", "nullable": False,
             "properties": {"a": {"type": "STRING", "nullable": True, "format": "f", "enum": ["a"], "minLength": "1",
                                  "max_length": "2", "pattern": "^a"},
                            "b": {"type": "ARRAY", "items": {"type": "STRING"}, "maxItems": "3", "min_items": "1"},
                            "c": {"type": "NUMBER", "minimum": 0, "maximum": 1}},
             "required": ["a"], "minProperties": "1", "max_properties": "2", "example": {"a": 1},
             "anyOf": [{"type": "STRING"}], "property_ordering": ["a"], "default": None}
    status, _, record = ask({"contents": USER,
                             "tools": [{"functionDeclarations": [{"name": "f", "parameters": every}]}]})
    assert status == 200 and "body.unknown_field" not in codes(record)


def test_the_mocks_schema_fields_are_the_protos() -> None:
    """The proto's field list (copied above from content.proto): google-genai's types.Schema has these and the three
    the Developer API refuses, additional_properties (the SDK refuses to send it), defs and ref (it sends them)."""
    from toolchoice.providers.gemini.request_fields import MESSAGES

    assert set(SCHEMA_PROTO) == set(MESSAGES["Schema"])
    if not missing("google.genai"):
        from google.genai import types

        assert set(types.Schema.model_fields) - {"additional_properties", "defs", "ref"} == set(MESSAGES["Schema"])


def test_defs_and_ref_are_refused_as_the_api_refuses_them() -> None:
    """decolua/9router#1036 (gemini-3.1-flash-lite-preview, 2026-05-12): 'Invalid JSON payload received. Unknown name
    "ref" at 'tools[0].function_declarations[4].parameters.properties[0].value.items': Cannot find field.', with its
    fieldViolation; the mock took google-genai's defs and ref as Schema fields until 2026-11-27."""
    declarations = [{"name": f"f{i}", "parameters": {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}}}
                    for i in range(4)]
    declarations.append({"name": "g", "parameters": {"type": "OBJECT", "defs": {"P": {"type": "STRING"}}, "properties": {
        "p": {"type": "ARRAY", "items": {"ref": "#/defs/P"}}}}})
    status, reply, _ = ask({"contents": USER, "tools": [{"functionDeclarations": declarations}]})
    place = "tools[0].function_declarations[4].parameters"
    lines = [(place, AT.format("defs", place)),
             (f"{place}.properties[0].value.items", AT.format("ref", f"{place}.properties[0].value.items"))]
    assert status == 400 and reply["error"]["message"] == "\n".join(line for _, line in lines)
    assert violations(reply) == [{"field": field, "description": line} for field, line in lines]


class _Place(pydantic.BaseModel):  # at module level: google-genai reads a callable's hints by name
    name: str
    tags: list[str] = []
    size: int | None = None


def _get_time(tz: str, places: list[_Place] | None = None) -> str:
    """The time in a zone."""
    return tz


@needs_genai
def test_google_genai_schemas_of_every_kind_are_answered() -> None:
    """What google-genai builds from a types.Schema, a pydantic model (response_schema, t_schema's process_schema), a
    dict schema and a callable (parameters_json_schema) is answered 200."""
    from google import genai
    from google.genai import types

    from toolchoice.providers.core.mock.server import running_mock

    full = types.Schema(
        type="OBJECT", title="Args", description="d", nullable=False, min_properties=1, max_properties=5,
        required=["tz"], property_ordering=["tz", "n"], example={"tz": "UTC"}, default={"tz": "UTC"},
        properties={"tz": types.Schema(type="STRING", format="enum", enum=["UTC", "CET"], min_length=1, max_length=8,
                                       pattern="^[A-Z]+$"),
                    "n": types.Schema(type="ARRAY", min_items=1, max_items=3, items=types.Schema(
                        type="NUMBER", minimum=0, maximum=9)),
                    "x": types.Schema(any_of=[types.Schema(type="STRING"), types.Schema(type="INTEGER")])})
    tools = [types.Tool(function_declarations=[
        types.FunctionDeclaration(name="get_zone", description="d", parameters=full,
                                  response=types.Schema(type="STRING")),
        types.FunctionDeclaration(name="get_dict", parameters={  # type: ignore[arg-type]
            "type": "OBJECT", "properties": {"q": {"type": "STRING"}}})]), _get_time]
    configs = [types.GenerateContentConfig(tools=tools, automatic_function_calling=types.AutomaticFunctionCallingConfig(
                   disable=True)),
               types.GenerateContentConfig(response_mime_type="application/json", response_schema=list[_Place]),
               types.GenerateContentConfig(response_mime_type="application/json", response_schema=_Place)]
    with running_mock("gemini") as mock:
        client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=mock.base_url))
        for config in configs:
            assert client.models.generate_content(model="gemini-2.5-flash", contents="hi", config=config).candidates
    assert [line["status"] for line in mock.records] == [200, 200, 200], mock.records


def test_a_field_name_holding_a_quote_or_a_newline_keeps_its_details() -> None:
    """The details were left out when a name held '"' (the line no longer matched); a newline split one line in two."""
    for name in ('a"b', "a\nb", 'x": Cannot find field.'):
        status, reply, _ = ask({"contents": USER, name: 1, "tool_choice": "auto"})
        words = [UNKNOWN.format(name), UNKNOWN.format("tool_choice")]
        assert status == 400 and reply["error"]["message"] == "\n".join(words)
        assert [v["description"] for v in violations(reply)] == words, name
    status, reply, _ = ask({"contents": USER, "generationConfig": {'q"': 1}})
    assert violations(reply) == [{"field": "generation_config", "description": AT.format('q"', "generation_config")}]


# ---- 2. a part holding only a thought signature -----------------------------------------------------------------


@needs_genai
def test_a_signature_on_a_part_of_its_own_is_followed_back_to_its_answer() -> None:
    """The signed answer's signature sent back on a part of its own (google-genai's Part(thought_signature=...)): the
    line says which request handed it out, as it does when the signature stays on the text part."""
    from google import genai
    from google.genai import types

    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("gemini") as mock:
        client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=mock.base_url))
        first = client.models.generate_content(model="gemini-3.5-flash", contents="Weather in Paris?")
        (part,) = first.candidates[0].content.parts
        assert part.text and part.thought_signature  # a signed text answer
        history = [types.Content(role="user", parts=[types.Part(text="Weather in Paris?")]),
                   types.Content(role="model", parts=[types.Part(text=part.text),
                                                      types.Part(thought_signature=part.thought_signature)]),
                   types.Content(role="user", parts=[types.Part(text="And tomorrow?")])]
        client.models.generate_content(model="gemini-3.5-flash", contents=history)
    one, two = mock.records
    assert two["status"] == 200 and two["reasoning_from"] == [1]
    assert "reasoning.signature_foreign" not in codes(two)


@needs_genai
def test_the_whole_reply_keeps_a_part_holding_only_a_signature() -> None:
    from google.genai import types

    from toolchoice.providers.gemini.parse import parse_reply

    body = {"candidates": [{"content": {"role": "model", "parts": [{"text": "Sunny."}, {"thoughtSignature": "c2ln"}]},
                            "finishReason": "STOP", "index": 0}]}
    sdk_parts = types.GenerateContentResponse.model_validate(body).candidates[0].content.parts
    assert sdk_parts[1].thought_signature == b"sig" and sdk_parts[1].text is None  # the SDK keeps it as a part
    reply = parse_reply("gemini", body)
    assert reply.text == "Sunny." and [(r.text, r.signature) for r in reply.reasoning] == [(None, "c2ln")]
