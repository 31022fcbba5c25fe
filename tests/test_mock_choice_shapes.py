"""A tool_choice of another API's shape is refused as the real API refuses it (trial15l, a user's trial: the OpenAI
Chat mock answered 200 to Anthropic's {"type": "any"} and {"type": "tool", "name": ...}; the Anthropic mock to OpenAI's
{"type": "function", "function": {...}} and to {"type": "required"}).

Each family's mock refuses the shapes its API's types leave out, in the family's 400 envelope and the API's own words
where a recording gives them (the expected words below are copied from the recordings core/choice_shape_words.py
cites, not from the code), and still takes every member of the official SDK's tool_choice union (read from the SDK
here, so a member the SDK adds is a member this test sends). Requests go as raw JSON over HTTP to mocks on 127.0.0.1
(the SDKs' types keep most wrong shapes from being sent), and through the SDK where it sends an untyped dict."""

from __future__ import annotations

import json
import typing
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from sdk_types import missing
from toolchoice.providers.core.mock.server import running_mock

KEY = "sk-test-mock-0123456789abcdef"
USER = [{"role": "user", "content": "hi"}]
SCHEMA = {"type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}
CHAT_TOOLS = [{"type": "function", "function": {"name": "get_time", "parameters": SCHEMA}}]
RESPONSES_TOOLS = [{"type": "function", "name": "get_time", "parameters": SCHEMA}]
CLAUDE_TOOLS = [{"name": "get_time", "input_schema": SCHEMA}]
# What the other families write for "required" and for "call get_time"
ANTHROPIC_ANY, ANTHROPIC_NAMED = {"type": "any"}, {"type": "tool", "name": "get_time"}
OPENAI_NAMED = {"type": "function", "function": {"name": "get_time"}}


@pytest.fixture(scope="module")
def mocks() -> Iterator[Any]:
    """One mock per provider on 127.0.0.1, started when first asked for, for the whole module."""
    with ExitStack() as stack:
        started: dict[str, Any] = {}

        def url(provider: str) -> Any:
            if provider not in started:
                started[provider] = stack.enter_context(running_mock(provider))
            return started[provider]

        yield url


def post(mock: Any, path: str, body: Any) -> tuple[int, Any, dict[str, Any]]:
    """The status, the JSON answer and the mock's line for one raw request."""
    before = len(mock.records)
    answer = httpx.post(mock.base_url + path, content=json.dumps(body).encode(), timeout=10,
                        headers={"content-type": "application/json", "authorization": f"Bearer {KEY}"})
    return answer.status_code, answer.json(), mock.records[before]


def codes(line: dict[str, Any]) -> list[str]:
    return [f["code"] for f in line["findings"]]


def _tags(member: Any) -> tuple[str, ...]:
    """The type tags a TypedDict member of a union takes (its ``type: Required[Literal[...]]``)."""
    hint = typing.get_type_hints(member, include_extras=True).get("type")
    while typing.get_origin(hint) is not typing.Literal and typing.get_args(hint):
        hint = typing.get_args(hint)[0]  # Required[...] / NotRequired[...] / Annotated[...]
    return typing.get_args(hint)


def _required(member: Any, key: str) -> bool:
    """Whether a TypedDict requires ``key`` (``Required[...]`` in a total=False one, or any key of a total one)."""
    import typing_extensions

    hint = typing_extensions.get_type_hints(member, include_extras=True)[key]
    return typing_extensions.get_origin(hint) is typing_extensions.Required or key in member.__required_keys__


def _union(alias: Any) -> tuple[list[str], list[Any]]:
    """A tool_choice union's string words and its object members."""
    words: list[str] = []
    members: list[Any] = []
    for arm in typing.get_args(alias):
        if typing.get_origin(arm) is typing.Literal:
            words += typing.get_args(arm)
        else:
            members.append(arm)
    return words, members


# ---- OpenAI Chat Completions and its hosts --------------------------------------------------------------------

OPENAI_REFUSAL = {"error": {"message": "Missing required parameter: 'tool_choice.function'.",
                            "type": "invalid_request_error", "param": "tool_choice.function",
                            "code": "missing_required_parameter"}}


@pytest.mark.parametrize("choice", [ANTHROPIC_ANY, ANTHROPIC_NAMED, {"type": "function", "name": "get_time"},
                                    {"any": {}}, {"mode": "ANY"}])
def test_openai_chat_refuses_another_apis_object_in_its_recorded_words(mocks: Any, choice: Any) -> None:
    """A public proxy's conformance table measured against api.openai.com: tool_choice {type: 'bogus'} -> param
    'tool_choice.function', code 'missing_required_parameter', "Missing required parameter: 'tool_choice.function'.";
    a public agent's notes: Anthropic's {"type": "tool", "name": ...} reaching /chat/completions is refused in these
    words. It was answered 200 (read as required / as the named tool)."""
    status, reply, line = post(mocks("openai"), "/v1/chat/completions",
                               {"model": "gpt-4o-mini", "messages": USER, "tools": CHAT_TOOLS, "tool_choice": choice})
    assert (status, reply) == (400, OPENAI_REFUSAL)
    assert "tool_choice.shape" in codes(line) and line["requested"] == choice and line["calls"] == []
    advice = next(f for f in line["findings"] if f["code"] == "tool_choice.shape")
    assert "ChatCompletionToolChoiceOptionParam" in advice["message"]  # toolchoice's line names the SDK type


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_openai_chat_takes_every_member_of_the_sdks_union(mocks: Any) -> None:
    from openai.types.chat import chat_completion_tool_choice_option_param as module

    words, members = _union(module.ChatCompletionToolChoiceOptionParam)
    objects = {"function": OPENAI_NAMED,
               "allowed_tools": {"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": [
                   {"type": "function", "function": {"name": "get_time"}}]}},
               "custom": {"type": "custom", "custom": {"name": "get_time"}}}
    assert sorted(tag for member in members for tag in _tags(member)) == sorted(objects)
    for choice in [*words, *objects.values()]:
        status, _, line = post(mocks("openai"), "/v1/chat/completions",
                               {"model": "gpt-4o-mini", "messages": USER, "tools": CHAT_TOOLS, "tool_choice": choice})
        assert status == 200 and "tool_choice.shape" not in codes(line), choice


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_openai_python_sending_anthropics_shape_gets_the_apis_error(mocks: Any) -> None:
    """openai-python sends a dict tool_choice as given (a TypedDict is not checked at run time)."""
    import openai

    client = openai.OpenAI(base_url=mocks("openai").base_url, api_key=KEY, max_retries=0)
    with pytest.raises(openai.BadRequestError) as raised:
        client.chat.completions.create(model="gpt-4o-mini", messages=USER, tools=CHAT_TOOLS,  # type: ignore[arg-type]
                                       tool_choice=ANTHROPIC_ANY)  # type: ignore[arg-type]
    assert raised.value.status_code == 400 and raised.value.body == OPENAI_REFUSAL["error"]
    assert (raised.value.param, raised.value.code) == ("tool_choice.function", "missing_required_parameter")


@pytest.mark.parametrize("provider", ["groq", "mistral", "azure", "fireworks", "together", "cerebras", "sambanova",
                                      "huggingface"])
def test_a_chat_host_whose_types_leave_the_shape_out_refuses_it_in_toolchoices_words(mocks: Any,
                                                                                     provider: str) -> None:
    """No recorded 400 of these hosts' for the shape: their SDK types require the named function's ``function``
    (Fireworks': type Literal['function']), so the 400 is toolchoice's line naming the type, in the host's envelope."""
    mock = mocks(provider)
    status, reply, line = post(mock, "/chat/completions",
                               {"model": "m", "messages": USER, "tools": CHAT_TOOLS, "tool_choice": ANTHROPIC_ANY})
    assert status == 400 and "tool_choice.shape" in codes(line)
    message = (reply["error"] if "error" in reply else reply)["message"]  # Mistral's fields are at the top level
    assert "is not a shape" in message and "another API's form" in message
    named = post(mock, "/chat/completions", {"model": "m", "messages": USER, "tools": CHAT_TOOLS,
                                             "tool_choice": OPENAI_NAMED})
    assert named[0] == 200 and named[2]["tool_choice"] == {"tool": "get_time"}


ERRORS = Path(__file__).parent / "data" / "responses" / "errors"


@pytest.mark.parametrize("choice", [ANTHROPIC_ANY, ANTHROPIC_NAMED, {"any": {}}, {"mode": "ANY"},
                                    {"type": "allowed_tools", "mode": "required", "tools": [{"type": "function"}]}])
def test_xai_refuses_another_apis_object_with_its_recorded_422(mocks: Any, choice: Any) -> None:
    """router-for-me/CLIProxyAPI#4718 (Grok 4.5, a tool_choice object xAI does not take): 'error status: 422', body
    {"error": "Failed to deserialize ... ModelToolChoice"}; #5916: an allowed_tools object, 422. It was answered 200."""
    status, reply, line = post(mocks("xai"), "/v1/chat/completions",
                               {"model": "grok-4.3", "messages": USER, "tools": CHAT_TOOLS, "tool_choice": choice})
    recorded = json.loads((ERRORS / "error-xai-422-tool-choice.json").read_text())
    assert (status, reply) == (422, recorded)
    assert line["status"] == 422 and "tool_choice.shape" in codes(line) and line["calls"] == []


@pytest.mark.parametrize("provider", ["deepseek", "openrouter"])
def test_deepseek_and_openrouter_refuse_an_untagged_object_in_toolchoices_marked_words(mocks: Any,
                                                                                       provider: str) -> None:
    """DeepSeek's API reference (ChatCompletionNamedToolChoice: type and function required) and OpenRouter's openapi
    (ChatNamedToolChoice, ChatServerToolChoice {type}) leave out Bedrock's {"any": {}} and Gemini's {"mode": "ANY"}; no
    recording gives either host's words for it, so the 400 says so, in the host's envelope (DeepSeek's recorded
    deserializer 400s: code invalid_request_error, jetbrains-cc-gui#591)."""
    for choice in ({"any": {}}, {"mode": "ANY"}):
        status, reply, line = post(mocks(provider), "/v1/chat/completions",
                                   {"model": "m", "messages": USER, "tools": CHAT_TOOLS, "tool_choice": choice})
        assert status == 400 and "tool_choice.shape" in codes(line)
        assert reply["error"]["message"].endswith("(its words for this are not recorded)")
        assert reply["error"]["code"] == ("invalid_request_error" if provider == "deepseek" else None)


def test_deepseek_refuses_a_tagged_object_and_openrouter_reads_it_as_a_server_tool(mocks: Any) -> None:
    """{"type": "any"} has no function object: DeepSeek's named choice requires one; on OpenRouter it is a
    ChatServerToolChoice naming a server tool by its type, what the API does with that type is not recorded:
    mock.choice_unread, answered as auto."""
    body = {"model": "m", "messages": USER, "tools": CHAT_TOOLS, "tool_choice": ANTHROPIC_ANY}
    assert post(mocks("deepseek"), "/v1/chat/completions", body)[0] == 400
    status, _, line = post(mocks("openrouter"), "/v1/chat/completions", body)
    assert status == 200 and line["tool_choice"] == "auto" and "mock.choice_unread" in codes(line)


@pytest.mark.skipif(missing("openai"), reason="needs openai")
@pytest.mark.parametrize("provider", ["deepseek", "xai", "openrouter"])
def test_openai_python_on_deepseek_xai_openrouter_gets_200_for_what_it_builds_and_the_apis_error(
        mocks: Any, provider: str) -> None:
    """Every member of openai-python's union these hosts document (their words, the named function) is answered 200
    through the SDK; another API's object gets the host's status (xAI's recorded 422 as UnprocessableEntityError)."""
    import openai

    client = openai.OpenAI(base_url=mocks(provider).base_url + "/v1", api_key=KEY, max_retries=0)
    for choice in ("none", "auto", "required", OPENAI_NAMED):
        reply = client.chat.completions.create(model="m", messages=USER, tools=CHAT_TOOLS,  # type: ignore[arg-type]
                                               tool_choice=choice)  # type: ignore[arg-type]
        assert reply.choices[0].finish_reason in ("stop", "tool_calls"), (provider, choice)
    error = openai.UnprocessableEntityError if provider == "xai" else openai.BadRequestError
    with pytest.raises(error) as raised:
        client.chat.completions.create(model="m", messages=USER, tools=CHAT_TOOLS,  # type: ignore[arg-type]
                                       tool_choice={"mode": "ANY"})  # type: ignore[arg-type]
    assert raised.value.status_code == (422 if provider == "xai" else 400)


COHERE_TOOLS = [{"type": "function", "function": {"name": "get_time", "parameters": SCHEMA}}]


@pytest.mark.parametrize("choice", ["any", "AUTO", "auto", "ANY"])
def test_cohere_refuses_a_string_it_has_not_with_its_recorded_422(mocks: Any, choice: str) -> None:
    """langchain-ai/langchain#33833 (command-a-03-2025, tool_choice 'any'): 422, "unrecognized tool choice option
    'any'. For proper usage, please refer to https://docs.cohere.com/reference/chat" (the value as sent)."""
    status, reply, line = post(mocks("cohere"), "/v2/chat", {"model": "command-a-03-2025", "messages": USER,
                                                             "tools": COHERE_TOOLS, "tool_choice": choice})
    recorded = json.loads((ERRORS / "error-cohere-422-tool-choice.json").read_text())
    assert status == 422 and reply == {"message": recorded["message"].replace("'any'", f"'{choice}'")}
    assert "tool_choice.shape" in codes(line) and line["status"] == 422


@pytest.mark.skipif(missing("cohere"), reason="needs cohere")
def test_cohere_sdk_gets_200_for_its_options_and_the_apis_422_for_another(mocks: Any) -> None:
    import cohere

    client = cohere.ClientV2(api_key=KEY, base_url=mocks("cohere").base_url)
    for choice in (None, "REQUIRED", "NONE"):
        extra = {"tool_choice": choice} if choice else {}
        reply = client.chat(model="command-a-03-2025", messages=USER, tools=COHERE_TOOLS, **extra)  # type: ignore
        assert reply.finish_reason in ("COMPLETE", "TOOL_CALL")
    with pytest.raises(cohere.UnprocessableEntityError) as raised:
        client.chat(model="command-a-03-2025", messages=USER, tools=COHERE_TOOLS,  # type: ignore[arg-type]
                    tool_choice="any")
    assert raised.value.status_code == 422 and "unrecognized tool choice option 'any'" in str(raised.value.body)


@pytest.mark.parametrize("provider", ["mistral", "fireworks"])
def test_a_host_whose_api_takes_any_keeps_taking_it(mocks: Any, provider: str) -> None:
    """mistralai 3.7.0 ToolChoiceEnum and fireworks-ai 1.2.30 ToolChoice name the string "any" (capability rows: any
    native): only the object {"type": "any"} is refused."""
    status, _, line = post(mocks(provider), "/chat/completions",
                           {"model": "m", "messages": USER, "tools": CHAT_TOOLS, "tool_choice": "any"})
    assert status == 200 and line["tool_choice"] == "required"


@pytest.mark.parametrize("provider", ["groq", "mistral", "fireworks", "cerebras", "sambanova", "together"])
def test_the_hosts_types_are_what_the_mock_reads(provider: str) -> None:
    """The SDK types the refusal cites: the named member requires ``function`` (Fireworks: its type is 'function')."""
    module, name = {"groq": ("groq.types.chat.chat_completion_named_tool_choice_param",
                             "ChatCompletionNamedToolChoiceParam"),
                    "mistral": ("mistralai.client.models.toolchoice", "ToolChoiceTypedDict"),
                    "fireworks": ("fireworks.types.chat.completion_create_params", "ToolChoiceFunctionSelection"),
                    "cerebras": ("cerebras.cloud.sdk.types.chat.completion_create_params", "ToolChoiceChoiceObject"),
                    "sambanova": ("sambanova.types.chat.completion_create_params", "ToolChoiceToolChoiceObject"),
                    "together": ("together.types.tool_choice_param", "ToolChoiceParam")}[provider]
    package = module.split(".")[0] if provider != "cerebras" else "cerebras.cloud.sdk"
    if missing(package):
        pytest.skip(f"needs {package}")
    import importlib

    member = getattr(importlib.import_module(module), name)
    assert _required(member, "type" if provider == "fireworks" else "function")
    if provider == "fireworks":
        assert _tags(member) == ("function",)


# ---- OpenAI Responses -----------------------------------------------------------------------------------------

@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_responses_refuses_chats_nested_form_in_its_recorded_words(mocks: Any) -> None:
    """Public clients' notes on forwarding Chat's named form to /v1/responses: "Unknown parameter:
    'tool_choice.function'." (the openai-python SDK sends the dict as given)."""
    import openai

    mock = mocks("openai-responses")
    client = openai.OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
    with pytest.raises(openai.BadRequestError) as raised:
        client.responses.create(model="gpt-5", input="hi", tools=RESPONSES_TOOLS,  # type: ignore[arg-type]
                                tool_choice=OPENAI_NAMED)  # type: ignore[arg-type]
    assert raised.value.status_code == 400
    assert raised.value.body["message"] == "Unknown parameter: 'tool_choice.function'."  # type: ignore[index]
    status, reply, line = post(mock, "/v1/responses", {"model": "gpt-5", "input": "hi", "tools": RESPONSES_TOOLS,
                                                       "tool_choice": ANTHROPIC_ANY})
    assert status == 400 and "tool_choice.shape" in codes(line) and "another API's form" in reply["error"]["message"]


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_responses_takes_every_member_of_the_sdks_union(mocks: Any) -> None:
    from openai.types.responses import response_create_params as module

    words, members = _union(module.ToolChoice)
    filled = {"function": {"name": "get_time"}, "custom": {"name": "get_time"}, "mcp": {"server_label": "docs"},
              "allowed_tools": {"mode": "auto", "tools": [{"type": "function", "name": "get_time"}]}}
    choices: list[Any] = [*words]
    for member in members:
        choices += [{"type": tag, **filled.get(tag, {})} for tag in _tags(member)]
    assert len(choices) > 10 and {"type": "function", "name": "get_time"} in choices
    for choice in choices:
        status, _, line = post(mocks("openai-responses"), "/v1/responses",
                               {"model": "gpt-5", "input": "hi", "tools": RESPONSES_TOOLS, "tool_choice": choice})
        assert not {"tool_choice.shape", "tool_choice.nested_function"} & set(codes(line)), choice
        if choice in ("auto", "none", "required") or choice.get("type") in ("function", "allowed_tools"):
            assert status == 200, choice


# ---- Anthropic ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("choice", "words"), [
    # a public gateway's probe of the live Messages API (claude-haiku-4-5, 2026-08-28) and an n8n workflow's log
    ({"type": "required"}, "tool_choice: Input tag 'required' found using 'type' does not match any of the expected "
                           "tags: 'auto', 'any', 'tool', 'none'"),
    (OPENAI_NAMED, "tool_choice: Input tag 'function' found using 'type' does not match any of the expected tags: "
                   "'auto', 'any', 'tool', 'none'"),
    ("auto", "tool_choice: Input should be an object"),
    ("required", "tool_choice: Input should be an object"),
])
def test_anthropic_refuses_openais_shapes_in_its_recorded_words(mocks: Any, choice: Any, words: str) -> None:
    """It answered 200 to OpenAI's named function and to {"type": "required"} (only an info note)."""
    status, reply, line = post(mocks("anthropic"), "/v1/messages",
                               {"model": "claude-sonnet-4-6", "max_tokens": 256, "messages": USER,
                                "tools": CLAUDE_TOOLS, "tool_choice": choice})
    assert status == 400 and reply["type"] == "error"
    assert reply["error"] == {"type": "invalid_request_error", "message": words}
    assert {"tool_choice.shape", "tool_choice.not_object"} & set(codes(line)) and line["calls"] == []
    assert "mock.choice_unread" not in codes(line)  # it was "answered as auto" beside the refusal


def test_anthropic_refuses_an_untagged_object_in_toolchoices_words(mocks: Any) -> None:
    """No recorded words for an object without a type (Bedrock's {any: {}}): toolchoice's line naming the type."""
    status, reply, line = post(mocks("anthropic"), "/v1/messages",
                               {"model": "claude-sonnet-4-6", "max_tokens": 256, "messages": USER,
                                "tools": CLAUDE_TOOLS, "tool_choice": {"any": {}}})
    assert status == 400 and "ToolChoiceParam" in reply["error"]["message"] and "tool_choice.untagged" in codes(line)


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_anthropic_takes_every_member_of_the_sdks_union_and_its_sdk_gets_the_apis_error(mocks: Any) -> None:
    import anthropic
    from anthropic.types import tool_choice_param

    _, members = _union(tool_choice_param.ToolChoiceParam)
    tags = sorted(tag for member in members for tag in _tags(member))
    assert tags == ["any", "auto", "none", "tool"]
    client = anthropic.Anthropic(base_url=mocks("anthropic").base_url, api_key=KEY, max_retries=0)
    for tag in tags:
        choice = {"type": tag, **({"name": "get_time"} if tag == "tool" else {})}
        reply = client.messages.create(model="claude-sonnet-4-6", max_tokens=256, messages=USER,  # type: ignore[arg-type]
                                       tools=CLAUDE_TOOLS, tool_choice=choice)  # type: ignore[arg-type]
        assert reply.stop_reason == ("end_turn" if tag == "none" else "tool_use"), tag
    with pytest.raises(anthropic.BadRequestError) as raised:
        client.messages.create(model="claude-sonnet-4-6", max_tokens=256, messages=USER,  # type: ignore[arg-type]
                               tools=CLAUDE_TOOLS, tool_choice=OPENAI_NAMED)  # type: ignore[arg-type]
    assert raised.value.status_code == 400 and "Input tag 'function' found using 'type'" in str(raised.value)


# ---- Gemini ---------------------------------------------------------------------------------------------------

GEMINI_PATH = "/v1beta/models/gemini-2.5-flash:generateContent"


def _gemini(calling: Any) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
            "tools": [{"functionDeclarations": [{"name": "get_time", "parameters": SCHEMA}]}],
            "toolConfig": {"functionCallingConfig": calling}}


@pytest.mark.parametrize("calling", [{"mode": "REQUIRED"}, {"type": "any"}, {"mode": "ANY", "type": "function"}])
def test_gemini_refuses_a_mode_or_field_functioncallingconfig_does_not_have(mocks: Any, calling: Any) -> None:
    """A mode: no recorded 400 of Gemini's for it, toolchoice's line naming google-genai's FunctionCallingConfig, in
    Google's envelope ({"mode": "REQUIRED"} was read as unknown and answered 200). A field it has not: the protobuf
    JSON parser's recorded form for a field inside the request, at the message's place (trial16d; fact
    gemini.unknown_field_words: 'Unknown name "tools" at 'generation_config': Cannot find field.'), toolchoice's
    line still the finding."""
    status, reply, line = post(mocks("gemini"), GEMINI_PATH, _gemini(calling))
    assert status == 400 and reply["error"]["status"] == "INVALID_ARGUMENT" and "tool_choice.shape" in codes(line)
    if "type" in calling:
        assert reply["error"]["message"] == ("Invalid JSON payload received. Unknown name \"type\" at "
                                             "'tool_config.function_calling_config': Cannot find field.")
        assert reply["error"]["details"][0]["fieldViolations"] == [
            {"field": "tool_config.function_calling_config", "description": reply["error"]["message"]}]
    else:
        assert "FunctionCallingConfig" in reply["error"]["message"]


@pytest.mark.skipif(missing("google.genai"), reason="needs google-genai")
def test_gemini_takes_every_mode_of_the_sdks_enum(mocks: Any) -> None:
    from google.genai import types

    for mode in types.FunctionCallingConfigMode:
        calling = {"mode": mode.value, **({"allowedFunctionNames": ["get_time"]} if mode.value == "ANY" else {})}
        status, _, line = post(mocks("gemini"), GEMINI_PATH, _gemini(calling))
        assert status == 200 and "tool_choice.shape" not in codes(line), mode


# ---- Bedrock Converse -----------------------------------------------------------------------------------------

BEDROCK_PATH = "/model/anthropic.claude-sonnet-4-5-20250929-v1:0/converse"


def _converse(choice: Any) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": [{"text": "hi"}]}],
            "toolConfig": {"tools": [{"toolSpec": {"name": "get_time", "inputSchema": {"json": SCHEMA}}}],
                           "toolChoice": choice}}


@pytest.mark.parametrize("choice", [ANTHROPIC_ANY, OPENAI_NAMED, "required", {"auto": {}, "any": {}}])
def test_bedrock_refuses_a_toolchoice_outside_the_service_models_union(mocks: Any, choice: Any) -> None:
    """botocore validates toolChoice before sending, so only a raw request carries these; no recorded
    ValidationException words for them: toolchoice's line, in Bedrock's envelope (x-amzn-errortype)."""
    mock = mocks("bedrock")
    answer = httpx.post(mock.base_url + BEDROCK_PATH, json=_converse(choice), timeout=10)
    assert answer.status_code == 400 and answer.headers["x-amzn-errortype"].startswith("ValidationException:")
    assert "service-2.json ToolChoice" in answer.json()["message"]
    assert "tool_choice.shape" in codes(mock.records[-1])


@pytest.mark.skipif(missing("botocore"), reason="needs botocore")
def test_bedrock_takes_every_member_of_the_service_models_union(mocks: Any) -> None:
    import botocore.session

    shape = botocore.session.get_session().get_service_model("bedrock-runtime").shape_for("ToolChoice")
    assert sorted(shape.members) == ["any", "auto", "tool"] and shape.is_tagged_union
    for member in shape.members:
        choice = {member: {"name": "get_time"} if member == "tool" else {}}
        status, _, line = post(mocks("bedrock"), BEDROCK_PATH, _converse(choice))
        assert status == 200 and line["calls"][0]["name"] == "get_time" and "tool_choice.shape" not in codes(line)


# ---- the proxy ------------------------------------------------------------------------------------------------

def test_the_proxy_passes_another_apis_shape_on_untouched_and_says_the_api_is_expected_to_refuse_it() -> None:
    from tests.servers import StandIn
    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server

    raw = json.dumps({"model": "gpt-4o-mini", "messages": USER, "tools": CHAT_TOOLS,
                      "tool_choice": ANTHROPIC_ANY}).encode()
    with StandIn("openai") as upstream:
        handler = ProxyHandler("openai", upstream.base_url())
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            answered = httpx.post(proxy.base_url + "/chat/completions", content=raw, timeout=10,
                                  headers={"content-type": "application/json"})
            line = proxy.wait_for(1)[0]  # the line follows the answer
    assert answered.status_code == 200 and [r.raw for r in upstream.requests] == [raw]
    assert {"severity": "warning", "code": "mock.refused", "message": "the API is expected to refuse this: "
            "Missing required parameter: 'tool_choice.function'."} in line["findings"]
