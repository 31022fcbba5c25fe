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
    """google-genai 3.6.1 sends these fields to the Developer API (models._GenerateContentConfig_to_mldev); none is
    refused, and those toolchoice does not model are named as passed unjudged (so they were sent)."""
    from google import genai
    from google.genai import types

    from toolchoice.providers.core.mock.server import running_mock

    config = types.GenerateContentConfig(
        system_instruction="Be brief.", temperature=0.2, labels={"team": "a"}, store=False, service_tier="standard",
        cached_content="cachedContents/abc", continuation_token=b"token",
        safety_settings=[types.SafetySetting(category="HARM_CATEGORY_HARASSMENT", threshold="BLOCK_NONE")],
        tools=[types.Tool(function_declarations=[types.FunctionDeclaration(name="get_time")])],
        tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="AUTO")),
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
    with running_mock("gemini") as mock:
        client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=mock.base_url, api_version=version))
        assert client.models.generate_content(model="gemini-3.5-flash", contents="Time?", config=config).candidates
    (line,) = mock.records
    assert line["status"] == 200 and "body.unknown_field" not in codes(line)
    (unjudged,) = [f["message"] for f in line["findings"] if f["code"] == "mock.unjudged"]
    assert unjudged.endswith("cachedContent, continuationToken, labels, safetySettings, serviceTier, store")


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
