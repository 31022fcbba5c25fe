"""`toolchoice mock` against the official SDKs as real clients over 127.0.0.1.

Truth from outside the code: each SDK parses every reply with its own types and stream code (a reply
the SDK cannot read fails here), raises its own typed error for the envelopes, and the jsonl record
says what the client put on the wire. openai-agents' documented ``reset_tool_choice`` (default True:
"the tool choice is reset to its default after a tool call", agents/agent.py) must show as request 1
``required`` and request 2 without tool_choice.
"""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

import pytest

from toolchoice.providers.core.mock.script import Script, ScriptCall, Step
from toolchoice.providers.core.mock.server import running_mock

KEY = "sk-test-mock-0123456789abcdef"
WEATHER_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"},
                                                   "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
                  "required": ["city", "unit"], "additionalProperties": False}
CHAT_TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Weather.",
                                                "parameters": WEATHER_SCHEMA}},
              {"type": "function", "function": {"name": "get_time", "parameters": {
                  "type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}}}]
USER = [{"role": "user", "content": "Weather in Paris?"}]


def _openai(mock: object) -> object:
    from openai import OpenAI

    return OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)  # type: ignore[attr-defined]


# ---- openai: Chat Completions --------------------------------------------------------------------


def test_openai_chat_whole_and_streamed() -> None:
    with running_mock("openai") as mock:
        assert mock.base_url.endswith("/v1")
        client = _openai(mock)
        whole = client.chat.completions.create(model="gpt-4o-mini", messages=USER, tools=CHAT_TOOLS,
                                               tool_choice={"type": "function", "function": {"name": "get_time"}})
        call = whole.choices[0].message.tool_calls[0]
        assert call.function.name == "get_time" and whole.choices[0].finish_reason == "tool_calls"
        chunks = list(client.chat.completions.create(model="gpt-4o-mini", messages=USER, tools=CHAT_TOOLS,
                                                     tool_choice="required", stream=True,
                                                     stream_options={"include_usage": True}))
        assert chunks[-1].usage is not None and chunks[-1].usage.total_tokens == 15
        with client.chat.completions.stream(model="gpt-4o-mini", messages=USER, tools=CHAT_TOOLS,
                                            tool_choice="none") as stream:
            final = stream.get_final_completion()
        assert final.choices[0].message.tool_calls is None and final.choices[0].message.content
    first, second, third = mock.records
    assert first["requested"] == {"type": "function", "function": {"name": "get_time"}}
    assert first["tool_choice"] == {"tool": "get_time"} and first["stream"] is False
    assert first["offered_tools"] == ["get_weather", "get_time"] and first["status"] == 200
    assert first["calls"] == [{"name": "get_time", "arguments": {"tz": "example"}, "id": call.id}]
    assert second["stream"] is True and second["requested"] == "required" and second["calls"][0]["name"] == "get_weather"
    assert second["calls"][0]["arguments"]["unit"] in ("celsius", "fahrenheit")
    assert third["requested"] == "none" and third["calls"] == []


def test_openai_refusals_are_the_sdks_errors() -> None:
    import openai

    with running_mock("openai") as mock:
        client = _openai(mock)
        with pytest.raises(openai.BadRequestError) as raised:
            client.chat.completions.create(model="gpt-4o-mini", messages=USER, tools=CHAT_TOOLS,
                                           tool_choice={"type": "function", "function": {"name": "delete_all"}})
        assert raised.value.status_code == 400 and raised.value.type == "invalid_request_error"
        with pytest.raises(openai.BadRequestError) as raised:  # the recorded OpenAI 400 (tests/data/responses/errors)
            client.chat.completions.create(model="gpt-4o-mini", messages=USER, tool_choice="required")
        assert "'tool_choice' is only allowed when 'tools' are specified" in raised.value.message
    refused = mock.records[0]
    assert refused["status"] == 400 and refused["tool_choice"] == {"tool": "delete_all"}
    assert refused["offered_tools"] == ["get_weather", "get_time"] and refused["calls"] == []
    assert any(f["severity"] == "error" for f in refused["findings"])


def test_openai_responses_whole_and_streamed() -> None:
    tools = [{"type": "function", "name": "get_weather", "parameters": WEATHER_SCHEMA, "strict": True}]
    with running_mock("openai-responses") as mock:
        client = _openai(mock)
        whole = client.responses.create(model="gpt-4o-mini", input="Weather?", tools=tools, tool_choice="required")
        assert [item.type for item in whole.output] == ["function_call"]
        assert whole.output[0].name == "get_weather"
        with client.responses.stream(model="gpt-4o-mini", input="Weather?", tools=tools,
                                     tool_choice={"type": "function", "name": "get_weather"}) as stream:
            final = stream.get_final_response()
        assert final.output[0].arguments == whole.output[0].arguments
    assert [r["requested"] for r in mock.records] == ["required", {"type": "function", "name": "get_weather"}]
    assert [r["stream"] for r in mock.records] == [False, True]


# ---- anthropic -----------------------------------------------------------------------------------

ANTHROPIC_TOOLS = [{"name": "get_weather", "description": "Weather.", "input_schema": WEATHER_SCHEMA}]


def _anthropic(mock: object, version: str | None = None) -> object:
    import anthropic

    headers = {"anthropic-version": version} if version else None
    return anthropic.Anthropic(base_url=mock.base_url, api_key=KEY, max_retries=0,  # type: ignore[attr-defined]
                               default_headers=headers)


def test_anthropic_loop_with_thinking_round_trip() -> None:
    """The thinking block's signature goes back in the next request; the mock reads it as kept."""
    with warnings.catch_warnings(), running_mock("anthropic") as mock:
        warnings.simplefilter("ignore", DeprecationWarning)  # model deprecation notices of the SDK
        client = _anthropic(mock, "2026-10-21")
        messages: list[dict[str, object]] = [{"role": "user", "content": "Weather in Paris?"}]
        first = client.messages.create(model="claude-sonnet-4-5", max_tokens=4096, messages=messages,
                                       tools=ANTHROPIC_TOOLS, thinking={"type": "enabled", "budget_tokens": 1024})
        assert [b.type for b in first.content] == ["thinking", "tool_use"] and first.content[0].signature
        use = first.content[1]
        messages += [{"role": "assistant", "content": first.content},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "sunny"}]}]
        with client.messages.stream(model="claude-sonnet-4-5", max_tokens=4096, messages=messages,
                                    tools=ANTHROPIC_TOOLS, thinking={"type": "enabled", "budget_tokens": 1024}) as stream:
            final = stream.get_final_message()
        assert final.stop_reason == "end_turn" and final.content[-1].type == "text"
    assert [r["status"] for r in mock.records] == [200, 200]
    assert mock.records[1]["stream"] is True and mock.records[1]["calls"] == []
    assert "reasoning.signature_foreign" not in [f["code"] for f in mock.records[1]["findings"]]


def test_anthropic_altered_signature_is_a_finding() -> None:
    with warnings.catch_warnings(), running_mock("anthropic") as mock:
        warnings.simplefilter("ignore", DeprecationWarning)
        client = _anthropic(mock)
        history = USER + [{"role": "assistant", "content": [
            {"type": "thinking", "thinking": "hm", "signature": "EqQBCkgIARABGAIiQL-not-the-mocks"},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris", "unit": "celsius"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}]
        client.messages.create(model="claude-sonnet-4-5", max_tokens=4096, messages=history, tools=ANTHROPIC_TOOLS,
                               thinking={"type": "enabled", "budget_tokens": 1024})
    assert "reasoning.signature_foreign" in [f["code"] for f in mock.records[0]["findings"]]


def test_anthropic_refuses_what_the_api_refuses() -> None:
    import anthropic

    with warnings.catch_warnings(), running_mock("anthropic") as mock:
        warnings.simplefilter("ignore", DeprecationWarning)
        client = _anthropic(mock)
        with pytest.raises(anthropic.BadRequestError) as forced:
            client.messages.create(model="claude-sonnet-4-5", max_tokens=4096, messages=USER, tools=ANTHROPIC_TOOLS,
                                   tool_choice={"type": "any"}, thinking={"type": "enabled", "budget_tokens": 1024})
        assert forced.value.body["error"]["type"] == "invalid_request_error"
        assert "Thinking may not be enabled when tool_choice forces tool use." in forced.value.message
        with pytest.raises(anthropic.BadRequestError):
            client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=USER, tools=ANTHROPIC_TOOLS,
                                   tool_choice={"type": "tool", "name": "get_time"})
        # the history's tool_use without the thinking block that preceded it (thinking on)
        history = USER + [{"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather",
                                                             "input": {"city": "Paris", "unit": "celsius"}}]},
                          {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}]
        with pytest.raises(anthropic.BadRequestError):
            client.messages.create(model="claude-sonnet-4-5", max_tokens=4096, messages=history, tools=ANTHROPIC_TOOLS,
                                   thinking={"type": "enabled", "budget_tokens": 1024})
    forced_line, named_line, history_line = mock.records
    assert forced_line["requested"] == {"type": "any"} and forced_line["tool_choice"] == "required"
    assert forced_line["status"] == 400
    # the 400 in the API's words (mastra-ai/mastra#7507), toolchoice's advice kept as the finding beside it
    assert forced.value.body["error"]["message"] == "Thinking may not be enabled when tool_choice forces tool use."
    assert [f["code"] for f in forced_line["findings"] if f["severity"] == "error"] == ["thinking.forced_choice",
                                                                                       "mock.refused"]
    assert named_line["tool_choice"] == {"tool": "get_time"} and named_line["status"] == 400
    assert "thinking.tool_history" in [f["code"] for f in history_line["findings"]]


# ---- google-genai ----------------------------------------------------------------------------------


def _genai(mock: object, version: str) -> object:
    from google import genai
    from google.genai import types

    return genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=mock.base_url,  # type: ignore[attr-defined]
                                                                    api_version=version))


@pytest.mark.parametrize("version", ["v1beta", "v1"])
def test_google_genai_forced_choices_whole_and_streamed(version: str) -> None:
    from google.genai import types

    declarations = [types.FunctionDeclaration(name="get_weather", parameters_json_schema=WEATHER_SCHEMA),
                    types.FunctionDeclaration(name="get_time", parameters_json_schema={
                        "type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]})]

    def config(names: list[str]) -> types.GenerateContentConfig:
        return types.GenerateContentConfig(
            tools=[types.Tool(function_declarations=declarations)],
            tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(
                mode="ANY", allowed_function_names=names)),
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))

    with running_mock("gemini") as mock:
        client = _genai(mock, version)
        whole = client.models.generate_content(model="gemini-2.5-flash", contents="Weather?", config=config(["get_time"]))
        assert [c.name for c in whole.function_calls] == ["get_time"]
        chunks = list(client.models.generate_content_stream(model="gemini-2.5-flash", contents="Weather?",
                                                            config=config(["get_weather", "get_time"])))
        assert [c.name for chunk in chunks for c in chunk.function_calls or []] == ["get_weather"]
    one, several = mock.records
    assert one["path"] == f"/{version}/models/gemini-2.5-flash:generateContent"
    assert one["requested"]["mode"] == "ANY" and one["tool_choice"] == {"tool": "get_time"}
    assert several["stream"] is True
    assert several["tool_choice"] == {"allowed": ["get_weather", "get_time"], "mode": "required"}


def test_google_genai_automatic_function_calling_loop_keeps_signatures() -> None:
    from google.genai import types

    calls: list[dict[str, str]] = []

    def get_weather(city: str, unit: str) -> str:
        """Current weather for a city."""
        calls.append({"city": city, "unit": unit})
        return "sunny"

    with running_mock("gemini") as mock:
        client = _genai(mock, "v1beta")
        answer = client.models.generate_content(model="gemini-3-pro-preview", contents="Weather in Paris?",
                                                config=types.GenerateContentConfig(tools=[get_weather]))
        assert answer.text  # the SDK ran the tool, sent its result, and read the text answer
    assert len(calls) == 1 and len(mock.records) == 2
    assert mock.records[0]["calls"][0]["name"] == "get_weather"
    assert "history.signature_kept" in [f["code"] for f in mock.records[1]["findings"]]


# ---- botocore (Bedrock Converse) ------------------------------------------------------------------


def test_botocore_converse_whole_stream_and_refusal() -> None:
    import botocore.session
    from botocore.exceptions import ClientError

    config = {"tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": WEATHER_SCHEMA}}}],
              "toolChoice": {"tool": {"name": "get_weather"}}}
    messages = [{"role": "user", "content": [{"text": "Weather?"}]}]
    model = "anthropic.claude-sonnet-4-5-20250929-v1:0"
    with running_mock("bedrock") as mock:
        client = botocore.session.get_session().create_client(
            "bedrock-runtime", region_name="us-east-1", endpoint_url=mock.base_url,
            aws_access_key_id="AKIAMOCKEXAMPLE0001", aws_secret_access_key="mock-secret-0123456789")
        whole = client.converse(modelId=model, messages=messages, toolConfig=config)
        assert whole["stopReason"] == "tool_use"
        assert whole["output"]["message"]["content"][0]["toolUse"]["name"] == "get_weather"
        events = list(client.converse_stream(modelId=model, messages=messages, toolConfig=config)["stream"])
        assert [next(iter(e)) for e in events] == ["messageStart", "contentBlockStart", "contentBlockDelta",
                                                   "contentBlockStop", "messageStop", "metadata"]
        with pytest.raises(ClientError) as raised:
            client.converse(modelId=model, messages=messages,
                            toolConfig={**config, "toolChoice": {"tool": {"name": "nope"}}})
        assert raised.value.response["Error"]["Code"] == "ValidationException"
    assert [r["tool_choice"] for r in mock.records] == [{"tool": "get_weather"}] * 2 + [{"tool": "nope"}]
    assert [r["status"] for r in mock.records] == [200, 200, 400]


# ---- an agent framework: openai-agents ----------------------------------------------------------------


@pytest.mark.parametrize("api,stream", [("openai-responses", False), ("openai-responses", True), ("openai", False),
                                        ("openai", True)])
def test_openai_agents_reset_tool_choice_is_visible(api: str, stream: bool) -> None:
    from agents import (Agent, ModelSettings, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner, function_tool,
                        set_tracing_disabled)
    from openai import AsyncOpenAI

    set_tracing_disabled(True)
    seen: list[str] = []

    @function_tool
    def get_weather(city: str) -> str:
        """Current weather for a city."""
        seen.append(city)
        return "sunny"

    with running_mock(api) as mock:
        client = AsyncOpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        model_class = OpenAIResponsesModel if api == "openai-responses" else OpenAIChatCompletionsModel
        agent = Agent(name="weather", instructions="Use the tool.", tools=[get_weather],
                      model=model_class(model="gpt-4o-mini", openai_client=client),
                      model_settings=ModelSettings(tool_choice="required"))

        async def run() -> object:
            if not stream:
                return await Runner.run(agent, "Weather in Paris?")
            result = Runner.run_streamed(agent, "Weather in Paris?")
            async for _ in result.stream_events():
                pass
            return result

        result = asyncio.run(run())
        assert result.final_output  # type: ignore[attr-defined]
    assert seen == ["example"]
    first, second = mock.records
    assert first["requested"] == "required" and first["calls"][0]["name"] == "get_weather"
    assert second["requested"] is None and second["tool_choice"] is None and second["calls"] == []
    assert first["stream"] is stream and second["stream"] is stream


# ---- LangChain: the wrappers' own bodies ------------------------------------------------------------------


def test_langchain_wrappers_show_what_they_send() -> None:
    """ChatOpenAI's bind_tools(tool_choice="any") goes out as "required"; ChatAnthropic reads "none" as a tool name
    (the case `--dialect langchain` emulates), and the mock answers it with Anthropic's 400, as the API does."""
    from langchain_anthropic import ChatAnthropic
    from langchain_core.tools import tool
    from langchain_openai import ChatOpenAI

    @tool
    def get_weather(city: str) -> str:
        """Current weather for a city."""
        return "sunny"

    with running_mock("openai") as mock:
        llm = ChatOpenAI(model="gpt-4o-mini", base_url=mock.base_url, api_key=KEY, max_retries=0)
        bound = llm.bind_tools([get_weather], tool_choice="any")
        assert bound.invoke("Weather?").tool_calls[0]["name"] == "get_weather"
        streamed = [chunk for chunk in bound.stream("Weather?")]
        assert any(chunk.tool_call_chunks for chunk in streamed)
    assert [(r["requested"], r["stream"]) for r in mock.records] == [("required", False), ("required", True)]
    with warnings.catch_warnings(), running_mock("anthropic") as mock:
        warnings.simplefilter("ignore", DeprecationWarning)
        llm = ChatAnthropic(model="claude-sonnet-4-5", base_url=mock.base_url, api_key=KEY, max_retries=0)
        assert llm.bind_tools([get_weather], tool_choice="get_weather").invoke("Weather?").tool_calls
        with pytest.raises(Exception) as raised:
            llm.bind_tools([get_weather], tool_choice="none").invoke("Weather?")
        assert "400" in str(raised.value)
    named, none = mock.records
    assert named["requested"] == {"type": "tool", "name": "get_weather"} and named["status"] == 200
    assert none["requested"] == {"type": "tool", "name": "none"} and none["tool_choice"] == {"tool": "none"}
    assert none["status"] == 400


# ---- cohere and ollama ---------------------------------------------------------------------------------------


def test_cohere_and_ollama_sdks() -> None:
    import cohere
    import ollama

    with running_mock("cohere") as mock:
        client = cohere.ClientV2(api_key=KEY, base_url=mock.base_url)
        reply = client.chat(model="command-a-03-2025", messages=USER, tools=CHAT_TOOLS, tool_choice="REQUIRED")
        assert reply.finish_reason == "TOOL_CALL" and reply.message.tool_calls[0].function.name == "get_weather"
        events = list(client.chat_stream(model="command-a-03-2025", messages=USER, tools=CHAT_TOOLS,
                                         tool_choice="NONE"))
        assert events[-1].type == "message-end" and events[-1].delta.finish_reason == "COMPLETE"
    assert [(r["requested"], r["tool_choice"]) for r in mock.records] == [("REQUIRED", "required"), ("NONE", "none")]
    with running_mock("ollama") as mock:
        client = ollama.Client(host=mock.base_url)
        first = client.chat(model="llama3.2", messages=USER, tools=CHAT_TOOLS)
        call = first.message.tool_calls[0]
        assert call.function.name == "get_weather" and call.function.arguments["unit"] in ("celsius", "fahrenheit")
        history = USER + [first.message, {"role": "tool", "content": "sunny", "tool_name": "get_weather"}]
        chunks = list(client.chat(model="llama3.2", messages=history, tools=CHAT_TOOLS, stream=True))
        assert chunks[-1].done and "".join(c.message.content for c in chunks)
    assert [r["stream"] for r in mock.records] == [False, True]
    assert mock.records[1]["calls"] == [] and mock.records[1]["requested"] is None


def test_gemini_3_refuses_a_current_turn_call_without_its_signature() -> None:
    """The client dropped the thoughtSignature of the call it replays: Gemini 3's documented 400 (model rule
    gemini-3-signatures), raised by google-genai as its own ClientError; gemini-2.5 accepts the same history."""
    from google.genai import errors, types

    call = types.Part(function_call=types.FunctionCall(name="get_weather", args={"city": "Paris", "unit": "celsius"}))
    history = [types.Content(role="user", parts=[types.Part(text="Weather?")]),
               types.Content(role="model", parts=[call]),
               types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(
                   name="get_weather", response={"output": "sunny"}))])]
    config = types.GenerateContentConfig(tools=[types.Tool(function_declarations=[types.FunctionDeclaration(
        name="get_weather", parameters_json_schema=WEATHER_SCHEMA)])],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
    with running_mock("gemini") as mock:
        client = _genai(mock, "v1beta")
        with pytest.raises(errors.ClientError) as raised:
            client.models.generate_content(model="gemini-3-pro-preview", contents=history, config=config)
        assert raised.value.code == 400 and "missing a thought_signature" in raised.value.message
        assert client.models.generate_content(model="gemini-2.5-flash", contents=history, config=config).text
    assert [r["status"] for r in mock.records] == [400, 200]


def test_model_rules_decide_refusals_deepseek_thinking_by_default() -> None:
    """deepseek-v4 thinks by default and then rejects a forcing tool_choice (model rules, api-docs.deepseek.com
    thinking_mode): the request as the client sent it is refused; with thinking disabled it is answered."""
    import openai

    with running_mock("deepseek") as mock:
        client = _openai(mock)
        with pytest.raises(openai.BadRequestError) as raised:
            client.chat.completions.create(model="deepseek-v4-flash", messages=USER, tools=CHAT_TOOLS,
                                           tool_choice="required")
        assert "Thinking mode does not support this tool_choice" in raised.value.message
        reply = client.chat.completions.create(model="deepseek-v4-flash", messages=USER, tools=CHAT_TOOLS,
                                               tool_choice="required", extra_body={"thinking": {"type": "disabled"}})
        assert reply.choices[0].message.tool_calls
    assert [r["status"] for r in mock.records] == [400, 200]
    # the 400 in the API's words (deepseek-ai/DeepSeek-V3#1376), toolchoice's advice kept as the finding beside it
    assert raised.value.body["message"] == "Thinking mode does not support this tool_choice"
    assert [f["code"] for f in mock.records[0]["findings"] if f["severity"] == "error"] == ["thinking.forced_choice",
                                                                                          "mock.refused"]
    assert "providers.deepseek.thinking" in mock.records[0]["findings"][0]["message"]


# ---- the SDKs on the recorded error bodies and on the mock's ---------------------------------------------------

TIME_TOOL = [{"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}]


def _sdk_error(provider: str, base: str, root: str) -> Exception:
    """The exception the provider's official SDK raises for the request the recording answered (its model, effort)."""
    if provider == "openai":  # pipecat-ai/pipecat#4043: gpt-5.4, reasoning_effort low, a function tool
        from openai import OpenAI

        call = lambda: OpenAI(base_url=base, api_key=KEY, max_retries=0).chat.completions.create(  # noqa: E731
            model="gpt-5.4", messages=USER, tools=TIME_TOOL, reasoning_effort="low")
    elif provider == "azure":  # microsoft/foundry-dev-tools#779: gpt-6-astra, function tools
        from openai import AzureOpenAI

        call = lambda: AzureOpenAI(azure_endpoint=root, api_key=KEY, api_version="2024-10-21",  # noqa: E731
                                   max_retries=0).chat.completions.create(model="gpt-6-astra", messages=USER,
                                                                          tools=TIME_TOOL)
    elif provider == "mistral":  # architects-toolkit/SmartHopper#647: mistral-small, reasoning_effort medium
        from mistralai.client import Mistral

        call = lambda: Mistral(api_key=KEY, server_url=root).chat.complete(  # noqa: E731
            model="mistral-small-latest", messages=USER, reasoning_effort="medium")
    else:  # groq, BerriAI/litellm#11001: a tool_choice naming a tool not declared
        from groq import Groq

        call = lambda: Groq(api_key=KEY, base_url=root, max_retries=0).chat.completions.create(  # noqa: E731
            model="llama-3.3-70b-versatile", messages=USER, tools=TIME_TOOL,
            tool_choice={"type": "function", "function": {"name": "nope"}})
    with pytest.raises(Exception) as raised:
        call()
    return raised.value


def _seen(error: Exception) -> tuple[Any, ...]:
    """What a caller reads off the SDK's error: its class, status and the body as the SDK parsed it."""
    import json

    body = getattr(error, "body", None)
    if isinstance(body, str):  # mistralai's SDKError keeps the text
        body = json.loads(body)
    return (type(error), getattr(error, "status_code", None), body, getattr(error, "param", None),
            getattr(error, "code", None), getattr(error, "type", None))


@pytest.mark.parametrize(("provider", "recorded"), [
    ("openai", "error-openai-tools-reasoning-effort"), ("azure", "error-azure-tools-reasoning-effort-gpt-6-astra"),
    ("mistral", "error-mistral-400-reasoning-effort"), ("groq", "error-groq-requested-tool-does-not-exist")])
def test_the_sdk_raises_on_the_mock_what_it_raises_on_the_recorded_body(provider: str, recorded: str) -> None:
    """The official SDK against a stand-in answering the recorded 400 (tests/data/responses/errors), then against
    the mock: the same exception class, status and parsed body (openai's param and code: the known defect was
    param null on the mock where every recording says reasoning_effort)."""
    from servers import StandIn, Step

    with StandIn(provider, Step.recorded_error(400, recorded)) as stand_in:
        expected = _seen(_sdk_error(provider, stand_in.base_url(provider), stand_in.url))
    with running_mock(provider) as mock:
        got = _seen(_sdk_error(provider, mock.base_url, mock.base_url.removesuffix("/v1")))
    assert expected[0].__name__ in ("BadRequestError", "SDKError") and expected[1] == 400
    assert got == expected


def _family_error(provider: str, base: str) -> Exception:
    """The official SDK's exception for a request the mock refuses in each family (a stand-in answers its recorded
    body whatever the request): Anthropic a top-level anyOf, Gemini mode ANY without declarations, Bedrock a named
    toolChoice on mistral-large. (Ollama's only 400, no model, is refused by its SDK before sending; Cohere's SDK
    always sends the model, the mock's only 400 there.)"""
    if provider == "anthropic":
        import anthropic

        call = lambda: anthropic.Anthropic(base_url=base, api_key=KEY, max_retries=0).messages.create(  # noqa: E731
            model="claude-sonnet-4-6", max_tokens=64, messages=USER,
            tools=[{"name": "pick", "input_schema": {"anyOf": [{"type": "object"}]}}])
    elif provider == "gemini":
        from google import genai
        from google.genai import types

        genai_client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=base))  # closed once freed
        call = lambda: genai_client.models.generate_content(  # noqa: E731
            model="gemini-2.5-flash", contents="hi", config=types.GenerateContentConfig(
                tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="ANY"))))
    elif provider == "bedrock":
        import botocore.session

        client = botocore.session.get_session().create_client(
            "bedrock-runtime", region_name="us-east-1", endpoint_url=base,
            aws_access_key_id="AKIAMOCKEXAMPLE0001", aws_secret_access_key="mock-secret-0123456789")
        call = lambda: client.converse(  # noqa: E731
            modelId="mistral.mistral-large-2402-v1:0", messages=[{"role": "user", "content": [{"text": "hi"}]}],
            toolConfig={"tools": [{"toolSpec": {"name": "get_time", "inputSchema": {"json": {"type": "object"}}}}],
                        "toolChoice": {"tool": {"name": "get_time"}}})
    with pytest.raises(Exception) as raised:
        call()
    return raised.value


def _kind(error: Exception) -> tuple[Any, ...]:
    """The class and what each SDK says the error is: its status, and its kind where the SDK reads one (the class by
    name: botocore makes each client's exception classes anew)."""
    name = f"{type(error).__module__}.{type(error).__qualname__}"
    response = getattr(error, "response", None)
    if isinstance(response, dict):  # botocore's ClientError
        return name, response["ResponseMetadata"]["HTTPStatusCode"], response["Error"]["Code"]
    body = getattr(error, "body", None)
    kind = body.get("error", {}).get("type") if isinstance(body, dict) else None  # anthropic's
    return (name, getattr(error, "status_code", None) or getattr(error, "code", None),
            getattr(error, "status", None), kind)


@pytest.mark.parametrize(("provider", "recorded", "headers"), [
    ("anthropic", "error-anthropic-invalid-input-schema", {}),
    ("gemini", "error-gemini-function-calling-config-without-declarations", {}),
    # the error type travels in the header (tests/data/responses/errors/SOURCES.md, vercel/ai#4396)
    ("bedrock", "error-bedrock-toolchoice-not-supported", {"x-amzn-ErrorType": "ValidationException"})])
def test_each_familys_sdk_raises_on_the_mock_the_class_it_raises_on_the_recorded_body(
        provider: str, recorded: str, headers: dict[str, str]) -> None:
    from servers import StandIn, Step

    with StandIn(provider, Step.recorded_error(400, recorded, headers=headers)) as stand_in:
        expected = _kind(_family_error(provider, stand_in.base_url(provider)))
    with running_mock(provider) as mock:
        got = _kind(_family_error(provider, mock.base_url))
    assert [r["status"] for r in mock.records] == [400] and got == expected
