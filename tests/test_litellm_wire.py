"""LiteLLM 1.110.2 as a real client of `toolchoice mock`, on 127.0.0.1: what `litellm.completion(..., tool_choice=X)`
puts on each provider's wire, held to the provider's own request types (the official SDKs of the test extra:
openai, anthropic, google-genai, mistralai, groq, cohere, ollama, botocore), and what LiteLLM raises when it
refuses. docs/litellm.md tables every case with the LiteLLM source that makes it.

The expected wire values are the provider's documented forms, written here and checked against its SDK types in
the same test; none is computed by toolchoice. litellm is imported once, in this file's worker (~2.5 s of CPU;
tests/litellm_client.py keeps it off the internet), and one mock per provider serves every case."""

from __future__ import annotations

import time
import typing
from pathlib import Path
from typing import Any, Iterator

import openai  # noqa: F401  (LiteLLM's own client for the OpenAI-compatible hosts: keeps this file with the SDK tests)
import pytest

from litellm_client import KEY, NAMED, Client
from sdk_types import check, converse_input_shape, missing

pytestmark = [pytest.mark.skipif(missing("litellm", "anthropic", "google.genai", "mistralai", "groq", "cohere", "ollama",
                                         "botocore"), reason="the test extra's litellm and provider SDKs"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore:.*`ReadOnly` qualifier:UserWarning")]  # LiteLLM's own TypedDicts


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    with Client(tmp_path_factory.mktemp("litellm")) as made:
        yield made
    assert made.outside == [], made.outside  # nothing but the loopback, in the whole file


# ---- the provider's own types: the truth each wire value is held to ----------------------------------------------


def _openai_words() -> tuple[str, ...]:
    from openai.types.chat.chat_completion_tool_choice_option_param import ChatCompletionToolChoiceOptionParam

    (words,) = [a for a in typing.get_args(ChatCompletionToolChoiceOptionParam) if typing.get_origin(a) is typing.Literal]
    return typing.get_args(words)


def _openai_choice_problems(value: Any) -> list[str]:
    from openai.types.chat.chat_completion_tool_choice_option_param import ChatCompletionToolChoiceOptionParam

    return check(value, ChatCompletionToolChoiceOptionParam)


def _openai_body_problems(body: dict[str, Any]) -> list[str]:
    from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

    return check(body, CompletionCreateParamsNonStreaming)


def _anthropic_body_problems(body: dict[str, Any]) -> list[str]:
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

    return check(body, MessageCreateParamsNonStreaming)


def _gemini_config(body: dict[str, Any]) -> Any:
    """The body's toolConfig through google-genai's ToolConfig (extra='forbid': an unknown key fails)."""
    from google.genai import types

    return types.ToolConfig.model_validate(body["toolConfig"]).function_calling_config


def _mistral_words() -> tuple[str, ...]:
    from mistralai.client.models.toolchoiceenum import ToolChoiceEnum

    (words,) = [a for a in typing.get_args(ToolChoiceEnum) if typing.get_origin(a) is typing.Literal]
    return typing.get_args(words)


def _groq_choice_problems(value: Any) -> list[str]:
    from groq.types.chat.chat_completion_tool_choice_option_param import ChatCompletionToolChoiceOptionParam

    return check(value, ChatCompletionToolChoiceOptionParam)


def _cohere_choice_words() -> tuple[str, ...]:
    from cohere.v2.client import V2Client

    hint = typing.get_type_hints(V2Client.chat)["tool_choice"]
    return tuple(w for a in typing.get_args(hint) if typing.get_origin(a) is typing.Literal for w in typing.get_args(a))


def _bedrock_problems(body: dict[str, Any], path: str) -> str:
    """botocore's own validation of a Converse request (the model id is the path's)."""
    from urllib.parse import unquote

    from botocore.validate import ParamValidator

    model_id = unquote(path.split("/model/", 1)[1].rsplit("/", 1)[0])
    return ParamValidator().validate({**body, "modelId": model_id}, converse_input_shape()).generate_report()


# ---- OpenAI and the hosts LiteLLM sends OpenAI's form to -----------------------------------------------------------

OPENAI_FORMS = {"auto": "auto", "none": "none", "required": "required", "named": NAMED}
OPENAI_HOSTS = ("openai", "groq", "deepseek", "xai", "openrouter")


@pytest.mark.parametrize("provider", OPENAI_HOSTS)
@pytest.mark.parametrize("choice", list(OPENAI_FORMS))
def test_openai_compatible_hosts_get_the_choice_as_written(client: Client, provider: str, choice: str) -> None:
    """OpenAI's words and its named object reach every OpenAI-compatible host unchanged (LiteLLM's
    OpenAIGPTConfig.map_openai_params copies a supported param as it is), in openai-python's and groq-python's
    ChatCompletionToolChoiceOptionParam; each host answers, and a forcing choice gets its call."""
    sent = client.send(provider, tool_choice=OPENAI_FORMS[choice])
    assert sent.error is None, sent.error
    assert sent.body is not None and sent.body["tool_choice"] == OPENAI_FORMS[choice]
    assert _openai_choice_problems(sent.body["tool_choice"]) == []
    if provider == "groq":
        assert _groq_choice_problems(sent.body["tool_choice"]) == []
    if provider in ("openai", "groq", "xai", "deepseek"):  # nothing beyond openai's request type
        assert _openai_body_problems(sent.body) == [], sent.body
    assert [t["function"]["name"] for t in sent.body["tools"]] == ["get_weather", "get_time"]
    assert sent.line is not None and sent.line["status"] == 200
    assert sent.calls == ([] if choice == "none" else ["get_weather"])


@pytest.mark.parametrize("provider", OPENAI_HOSTS)
def test_any_passes_through_to_openai_compatible_hosts(client: Client, provider: str) -> None:
    """"any" is not one of openai-python's words; LiteLLM sends it anyway, drop_params or not (drop_params drops
    unsupported *parameters*, never a value). OpenAI's and Groq's types refuse it: the mock answers their 400 in
    their recorded words (OpenAI's: fact openai.tool_choice_value_words; Groq's:
    tests/data/responses/errors/error-groq-tool-choice-null.json) and LiteLLM raises BadRequestError. DeepSeek, xAI
    and OpenRouter document no such word either (facts *.tool_choice_words: openrouter 1.3.84 ChatToolChoice, xai-sdk 1.21.0 ToolMode, no DeepSeek list); no source
    says what they answer, so the mock neither reads it (it read it as required, with no finding) nor refuses it:
    passed unjudged, with mock.choice_unread."""
    for drop in (False, True):
        sent = client.send(provider, tool_choice="any", drop_params=drop)
        assert sent.body is not None and sent.body["tool_choice"] == "any"
        assert "any" not in _openai_words() and _openai_choice_problems("any") != []
        if provider in ("openai", "groq"):
            assert type(sent.error).__name__ == "BadRequestError", sent.error
            # the APIs' recorded 400s: OpenAI's (fact openai.tool_choice_value_words), Groq's
            words = {"openai": "Invalid value: 'any'. Supported values are: 'none', 'auto', and 'required'.",
                     "groq": "Only allowed string values for 'tool_choice' are none, auto, and required"}[provider]
            assert words in str(sent.error)
            assert sent.line is not None and sent.line["status"] == 400
        else:
            assert sent.error is None and sent.line is not None and sent.line["tool_choice"] is None
            assert [f["code"] for f in sent.line["findings"] if f["code"] == "mock.choice_unread"] == ["mock.choice_unread"]


@pytest.mark.parametrize("provider", OPENAI_HOSTS + ("mistral",))
def test_parallel_tool_calls_false_is_sent_as_written(client: Client, provider: str) -> None:
    """parallel_tool_calls=False goes on the wire as is, with no tool_choice added. openai-python and
    mistralai's requests have the field; for DeepSeek the mock says parallel.unsupported (toolchoice's row: no
    switch, from a source it marks unverified)."""
    from mistralai.client.models.chatcompletionrequest import ChatCompletionRequest

    sent = client.send(provider, parallel_tool_calls=False)
    assert sent.error is None and sent.body is not None
    assert sent.body["parallel_tool_calls"] is False and "tool_choice" not in sent.body
    assert "parallel_tool_calls" in ChatCompletionRequest.model_fields
    codes = [f["code"] for f in sent.line["findings"]] if sent.line else []
    assert ("parallel.unsupported" in codes) == (provider == "deepseek"), codes


def test_the_mock_answers_groq_with_the_service_tier_groq_sends(client: Client) -> None:
    """A whole Groq reply carries service_tier (recorded: tests/data/responses/groq/groq-tool-call-empty-arguments.json,
    "on_demand"; groq-python's ChatCompletion types it). LiteLLM's GroqChatConfig.transform_response reads it with
    getattr and no default, so a reply without it raised "'ModelResponse' object has no attribute 'service_tier'"
    (APIConnectionError) after the mock had answered: the mock now answers it as recorded."""
    import json

    import httpx

    recorded = json.loads((Path(__file__).parent / "data" / "responses" / "groq" /
                           "groq-tool-call-empty-arguments.json").read_text(encoding="utf-8"))
    answer = httpx.post(client.mock("groq").base_url + "/chat/completions", timeout=10, json={
        "model": "llama-3.3-70b-versatile", "messages": [{"role": "user", "content": "hi"}]}).json()
    assert answer["service_tier"] == recorded["service_tier"] == "on_demand"
    sent = client.send("groq", tool_choice="required")
    assert sent.error is None and sent.calls == ["get_weather"]


# ---- Mistral ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("choice", "wire"), [("auto", "auto"), ("none", "none"), ("required", "any"), ("any", "any"),
                                              ("named", NAMED)])
def test_mistral_gets_any_for_required(client: Client, choice: str, wire: Any) -> None:
    """MistralConfig._map_tool_choice: "required" | "any" → "any"; a named object as OpenAI's. mistralai 3.7.0
    takes both "any" and "required" (ToolChoiceEnum) and the named ToolChoice {type, function: {name}}."""
    from mistralai.client.models.toolchoice import ToolChoice

    sent = client.send("mistral", tool_choice=OPENAI_FORMS.get(choice, choice))
    assert sent.error is None and sent.body is not None and sent.body["tool_choice"] == wire
    if isinstance(wire, str):
        assert wire in _mistral_words()
    else:
        assert ToolChoice.model_validate(wire).function.name == "get_weather"
    assert sent.calls == ([] if choice == "none" else ["get_weather"])


# ---- Anthropic -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("choice", "wire"), [
    ("auto", {"type": "auto"}), ("none", {"type": "none"}), ("required", {"type": "any"}),
    ("named", {"type": "tool", "name": "get_weather"})])
def test_anthropic_gets_its_own_forms(client: Client, choice: str, wire: dict[str, Any]) -> None:
    """AnthropicConfig._map_tool_choice: auto → {type: auto}, required → {type: any}, none → {type: none}, a
    named function → {type: tool, name}; the whole body is anthropic's MessageCreateParamsNonStreaming."""
    sent = client.send("anthropic", tool_choice=OPENAI_FORMS[choice])
    assert sent.error is None and sent.body is not None and sent.body["tool_choice"] == wire
    assert _anthropic_body_problems(sent.body) == [], sent.body
    assert sent.calls == ([] if choice == "none" else ["get_weather"])


def test_anthropic_custom_typed_tools_are_judged_as_function_tools(client: Client) -> None:
    """LiteLLM writes each Anthropic tool with "type": "custom" (anthropic's ToolParam: type Literal["custom"], the
    client tool itself). The mock said "tools that are not functions, passed unjudged: custom (2)" of them, while it
    read them as the tools the choice names: no such finding now, and the named choice is still judged against
    them."""
    from anthropic.types.tool_param import ToolParam

    sent = client.send("anthropic", tool_choice={"type": "function", "function": {"name": "get_time"}})
    assert sent.body is not None and [t["type"] for t in sent.body["tools"]] == ["custom", "custom"]
    assert all(check(tool, ToolParam) == [] for tool in sent.body["tools"])
    assert sent.line is not None and sent.line["offered_tools"] == ["get_weather", "get_time"]
    assert sent.line["tool_choice"] == {"tool": "get_time"} and sent.calls == ["get_time"]
    assert [f for f in sent.line["findings"] if f["code"] == "mock.unjudged" and "custom" in f["message"]] == []


def test_anthropic_any_is_dropped_silently(client: Client) -> None:
    """The string "any" (Anthropic's own word, as OpenAI's tool_choice) matches no branch of
    _map_tool_choice, which returns None: the request goes without tool_choice, so the API's default (auto)
    holds — no error, with or without drop_params."""
    from anthropic.types.tool_choice_any_param import ToolChoiceAnyParam

    assert typing.get_type_hints(ToolChoiceAnyParam)["type"] == typing.Literal["any"]  # the API has the word
    for drop in (False, True):
        sent = client.send("anthropic", tool_choice="any", drop_params=drop)
        assert sent.error is None and sent.body is not None
        assert "tool_choice" not in sent.body and sent.line is not None and sent.line["requested"] is None


@pytest.mark.parametrize(("choice", "wire"), [
    (None, {"type": "auto", "disable_parallel_tool_use": True}),
    ("required", {"type": "any", "disable_parallel_tool_use": True})])
def test_anthropic_parallel_false_goes_inside_tool_choice(client: Client, choice: str | None,
                                                          wire: dict[str, Any]) -> None:
    """parallel_tool_calls=False → disable_parallel_tool_use: true inside tool_choice ({type: auto} when none was
    given), as anthropic's ToolChoiceAutoParam / ToolChoiceAnyParam have it."""
    sent = client.send("anthropic", parallel_tool_calls=False, **({"tool_choice": choice} if choice else {}))
    assert sent.error is None and sent.body is not None and sent.body["tool_choice"] == wire
    assert _anthropic_body_problems(sent.body) == []


# ---- Gemini (Google AI Studio) ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("choice", "mode", "names"), [
    ("auto", "AUTO", None), ("none", "NONE", None), ("required", "ANY", None), ("named", "ANY", ["get_weather"])])
def test_gemini_gets_a_function_calling_config(client: Client, choice: str, mode: str, names: list[str] | None) -> None:
    """VertexGeminiConfig.map_tool_choice_values: none → NONE, required → ANY, auto → AUTO, a named function →
    ANY with allowed_function_names — written snake_case, the proto field's own name, which google-genai's
    FunctionCallingConfig takes beside allowedFunctionNames (proto3 JSON parsers accept both)."""
    sent = client.send("gemini", tool_choice=OPENAI_FORMS[choice])
    assert sent.error is None and sent.body is not None
    assert set(sent.body["toolConfig"]["functionCallingConfig"]) == ({"mode"} if names is None
                                                                     else {"mode", "allowed_function_names"})
    config = _gemini_config(sent.body)
    assert config.mode.value == mode and config.allowed_function_names == names
    assert sent.calls == ([] if choice == "none" else ["get_weather"])


def test_gemini_any_is_refused_before_sending_even_with_drop_params(client: Client) -> None:
    """"any" reaches map_tool_choice_values' last branch, which raises UnsupportedParamsError whatever
    drop_params says (only a named function nobody can force is dropped); Gemini's own word is "ANY"."""
    from google.genai import types

    assert types.FunctionCallingConfigMode("ANY")
    for drop in (False, True):
        sent = client.send("gemini", tool_choice="any", drop_params=drop)
        assert type(sent.error).__name__ == "UnsupportedParamsError" and sent.line is None
        assert "VertexAI doesn't support tool_choice=any" in str(sent.error)


def test_gemini_parallel_false_is_left_out(client: Client) -> None:
    """Gemini has no parallel switch (google-genai's GenerateContentConfig has no such field); with two tools
    LiteLLM leaves parallel_tool_calls=False out without a word."""
    from google.genai import types

    assert "parallel_tool_calls" not in types.GenerateContentConfig.model_fields
    from litellm_client import TOOLS

    for tools in (TOOLS, TOOLS[:1]):  # LiteLLM tests for several tools; one does not reach the body either
        sent = client.send("gemini", parallel_tool_calls=False, tools=tools)
        assert sent.error is None and sent.body is not None
        assert "toolConfig" not in sent.body and "parallel" not in str(sent.body)


# ---- Cohere ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("choice", ["none", "required", "named", "auto", "any"])
def test_cohere_drops_every_tool_choice_silently(client: Client, choice: str) -> None:
    """CohereV2ChatConfig lists tool_choice among its supported params but its map_openai_params never copies
    it: the v2 request goes without one, no error, drop_params or not. cohere-python's V2 chat takes
    tool_choice "REQUIRED" | "NONE": none and required had a form; the mock, given no choice, calls a tool."""
    assert set(_cohere_choice_words()) == {"REQUIRED", "NONE"}
    sent = client.send("cohere", tool_choice=OPENAI_FORMS.get(choice, choice))
    assert sent.error is None and sent.body is not None and sent.path == "/v2/chat"
    assert "tool_choice" not in sent.body and [t["function"]["name"] for t in sent.body["tools"]] == [
        "get_weather", "get_time"]
    assert sent.calls == ["get_weather"]  # even for none


def test_cohere_parallel_false_is_refused_unless_dropped(client: Client) -> None:
    """parallel_tool_calls is not in CohereV2ChatConfig's supported params: UnsupportedParamsError, or with
    drop_params=True dropped; cohere-python's V2 chat has no such parameter."""
    import inspect

    from cohere.v2.client import V2Client

    assert "parallel_tool_calls" not in inspect.signature(V2Client.chat).parameters
    refused = client.send("cohere", parallel_tool_calls=False)
    assert type(refused.error).__name__ == "UnsupportedParamsError" and refused.line is None
    dropped = client.send("cohere", parallel_tool_calls=False, drop_params=True)
    assert dropped.error is None and dropped.body is not None and "parallel_tool_calls" not in dropped.body


# ---- Ollama ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("choice", ["none", "required", "named", "auto", "any"])
def test_ollama_chat_sends_no_tool_choice_and_keeps_the_tools(client: Client, choice: str) -> None:
    """ollama_chat: /api/chat, whose ChatRequest (ollama-python 0.6.3) has no tool_choice. LiteLLM sends none,
    without a word, and keeps the tools for "none" too (the mock answers a call)."""
    from ollama._types import ChatRequest

    assert "tool_choice" not in ChatRequest.model_fields
    sent = client.send("ollama", tool_choice=OPENAI_FORMS.get(choice, choice))
    assert sent.error is None and sent.body is not None and sent.path == "/api/chat"
    assert "tool_choice" not in sent.body and len(sent.body["tools"]) == 2
    assert sent.calls == ["get_weather"]


# ---- Bedrock Converse ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("choice", "wire"), [("auto", {"auto": {}}), ("required", {"any": {}}),
                                              ("named", {"tool": {"name": "get_weather"}})])
def test_bedrock_converse_gets_its_tool_choice(client: Client, choice: str, wire: dict[str, Any]) -> None:
    """AmazonConverseConfig.map_tool_choice_values: auto → {auto: {}}, required → {any: {}}, a named function →
    {tool: {name}}; the whole body passes botocore's own validation of the Converse input."""
    sent = client.send("bedrock", tool_choice=OPENAI_FORMS[choice])
    assert sent.error is None and sent.body is not None and sent.path is not None
    assert sent.body["toolConfig"]["toolChoice"] == wire
    assert _bedrock_problems(sent.body, sent.path) == ""
    assert sent.calls == ["get_weather"]


def test_bedrock_none_is_refused_or_dropped_with_the_tools_kept(client: Client) -> None:
    """Converse's ToolChoice has auto, any and tool only (botocore's shape): LiteLLM refuses "none"
    (UnsupportedParamsError) unless drop_params, which sends the tools without a toolChoice — so the model may
    call one (the mock does)."""
    from sdk_types import botocore_session

    assert set(botocore_session().get_service_model("bedrock-runtime").shape_for("ToolChoice").members) == {
        "auto", "any", "tool"}
    refused = client.send("bedrock", tool_choice="none")
    assert type(refused.error).__name__ == "UnsupportedParamsError" and refused.line is None
    dropped = client.send("bedrock", tool_choice="none", drop_params=True)
    assert dropped.error is None and dropped.body is not None and dropped.path is not None
    assert "toolChoice" not in dropped.body["toolConfig"] and len(dropped.body["toolConfig"]["tools"]) == 2
    assert _bedrock_problems(dropped.body, dropped.path) == "" and dropped.calls == ["get_weather"]


def test_bedrock_any_and_parallel_false(client: Client) -> None:
    """"any" is refused before sending even with drop_params (map_tool_choice_values' last branch);
    parallel_tool_calls=False is left out without a word (Converse has no such member)."""
    assert "parallelToolCalls" not in converse_input_shape().members
    for drop in (False, True):
        sent = client.send("bedrock", tool_choice="any", drop_params=drop)
        assert type(sent.error).__name__ == "UnsupportedParamsError" and sent.line is None
    quiet = client.send("bedrock", parallel_tool_calls=False)
    assert quiet.error is None and quiet.body is not None and quiet.body["toolConfig"].keys() == {"tools"}


HAIKU = "bedrock/converse/anthropic.claude-haiku-4-5-20251001-v1:0"  # supports_parallel_tool_use_config in LiteLLM's map


@pytest.mark.parametrize(("choice", "wire", "extra"), [
    (None, None, {"type": "auto", "disable_parallel_tool_use": True}),
    ("required", {"any": {}}, {"disable_parallel_tool_use": True})])
def test_bedrock_claude_parallel_false_goes_in_additional_model_request_fields(
        client: Client, choice: str | None, wire: Any, extra: dict[str, Any]) -> None:
    """For a Claude model LiteLLM's map marks supports_parallel_tool_use_config, parallel_tool_calls=False becomes
    Anthropic's own tool_choice inside additionalModelRequestFields (AmazonConverseConfig
    _merge_parallel_tool_use_config), beside toolConfig.toolChoice when a choice is given. botocore takes it (a
    document, passed to the model); the mock does not read it and now says so (mock.unjudged) instead of passing
    it silently."""
    sent = client.send("bedrock", model=HAIKU, parallel_tool_calls=False, **({"tool_choice": choice} if choice else {}))
    assert sent.error is None and sent.body is not None and sent.path is not None
    assert sent.body["additionalModelRequestFields"] == {"tool_choice": extra}
    assert sent.body["toolConfig"].get("toolChoice") == wire
    assert _bedrock_problems(sent.body, sent.path) == ""
    assert sent.line is not None
    unjudged = [f["message"] for f in sent.line["findings"] if f["code"] == "mock.unjudged"]
    assert len(unjudged) == 1 and "additionalModelRequestFields.tool_choice" in unjudged[0], sent.line["findings"]


# ---- a choice with no tools, a forcing choice with thinking on ----------------------------------------------------


def test_a_choice_without_tools_is_dropped_for_openai_and_sent_to_anthropic_and_gemini(client: Client) -> None:
    """OpenAIGPTConfig.transform_request pops tool_choice when the request has no tools (OpenAI's API answers 400
    "'tool_choice' is only allowed when 'tools' are specified"); AnthropicConfig and Gemini's config send their
    mapped choice anyway, and those APIs refuse it ('tool_choice may only be specified while providing tools.';
    'Function calling config is set without function_declarations.'): the mock answers their 400 (Gemini's in its
    recorded words; Anthropic's, recorded only through Bedrock, in toolchoice's line quoting them)."""
    quiet = client.send("openai", tool_choice="required", tools=None)
    assert quiet.error is None and quiet.body is not None and "tool_choice" not in quiet.body and "tools" not in quiet.body
    for provider, wire, words in (("anthropic", {"type": "any"}, "without tools"),
                                  ("gemini", {"mode": "ANY"}, "Function calling config is set without "
                                                              "function_declarations.")):
        sent = client.send(provider, tool_choice="required", tools=None)
        assert sent.wire_choice == wire and sent.body is not None and "tools" not in sent.body
        assert type(sent.error).__name__ == "BadRequestError" and words in str(sent.error)


def test_a_forcing_choice_goes_out_beside_thinking(client: Client) -> None:
    """LiteLLM sends a forcing tool_choice as asked beside thinking — reasoning_effort's thinking block for Claude,
    DeepSeek V4's thinking on by default — and both APIs refuse that pair ("Thinking may not be enabled when
    tool_choice forces tool use."; DeepSeek: "Thinking mode does not support this tool_choice"): the mock answers
    their 400; drop_params changes nothing."""
    claude = client.send("anthropic", tool_choice="required", reasoning_effort="low", drop_params=True)
    assert claude.body is not None and claude.body["tool_choice"] == {"type": "any"}
    assert claude.body["thinking"]["type"] == "enabled" and _anthropic_body_problems(claude.body) == []
    assert type(claude.error).__name__ == "BadRequestError"
    assert "Thinking may not be enabled when tool_choice forces tool use." in str(claude.error)
    deepseek = client.send("deepseek", model="deepseek/deepseek-v4-flash", tool_choice="required")
    assert deepseek.body is not None and deepseek.body["tool_choice"] == "required" and "thinking" not in deepseek.body
    assert type(deepseek.error).__name__ == "BadRequestError"
    assert "Thinking mode does not support this tool_choice" in str(deepseek.error)


# ---- streaming -------------------------------------------------------------------------------------------------------

STREAMED = {"openai": "required", "groq": "required", "mistral": "any", "anthropic": {"type": "any"},
            "gemini": {"mode": "ANY"}, "bedrock": {"any": {}}, "ollama": None}


@pytest.mark.parametrize("provider", list(STREAMED))
def test_a_streamed_request_carries_the_same_choice(client: Client, provider: str) -> None:
    """stream=True sends the same tool_choice as the whole request (each family's stream route), and LiteLLM
    assembles the mock's streamed call."""
    sent = client.send(provider, tool_choice="required", stream=True)
    assert sent.error is None, sent.error
    assert sent.line is not None and sent.line["stream"] is True and sent.wire_choice == STREAMED[provider]
    assert sent.calls == ["get_weather"]


def test_a_streamed_cohere_v2_answer_breaks_litellm(client: Client) -> None:
    """Cohere's v2 stream is server-sent events (cohere-python reads it with httpx_sse's EventSource:
    `event: message-start` / `data: {...}`); LiteLLM's CohereV2ModelResponseIterator json-parses each line as
    it comes, so the first event line fails (MidStreamFallbackError) before any call is read."""
    sent = client.send("cohere", stream=True)
    assert sent.error is not None and "Error parsing chunk" in str(sent.error), sent.error
    assert sent.line is not None and sent.line["status"] == 200


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "bedrock"])
def test_no_key_reaches_the_lines_or_the_saved_requests(client: Client, provider: str) -> None:
    """The key LiteLLM sends (Authorization, x-api-key, x-goog-api-key, the AWS signature) is in no mock line and
    no saved request."""
    sent = client.send(provider, tool_choice="auto")
    assert sent.line is not None and KEY not in str(client.mock(provider).records)
    assert all(KEY.encode() not in path.read_bytes() for path in _settled_files(client.folder / provider))


def _settled_files(folder: Path) -> list[Path]:
    """The mock's saved files once none is half-written: it writes each to a ``.partial`` name beside it and renames
    it when whole (its --save is atomic), and the response's file may still be on its way when the line has come."""
    deadline = time.monotonic() + 5
    while any(p.name.endswith(".partial") for p in folder.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.01)
    files = sorted(folder.iterdir())
    assert files and not any(p.name.endswith(".partial") for p in files), files
    return files


def test_the_guard_refuses_a_public_host(client: Client) -> None:
    """The file's guard holds: a connection to anything but the loopback raises before any packet (and is
    recorded, so the module's check would fail)."""
    import socket

    before = list(client.outside)
    with pytest.raises(OSError, match="not the loopback"):
        socket.create_connection(("example.com", 443), timeout=1)
    assert client.outside == [*before, "getaddrinfo example.com"]
    client.outside[:] = before
