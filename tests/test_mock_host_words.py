"""What each host of the mock refuses or reads, held to that host's own source.

- ``tool_choice`` without ``tools`` on the OpenAI-compatible hosts: refused only where the host's own source says
  so, in its own words and envelope (OpenAI and Azure: the recorded 400; vLLM 0.33.0: ``check_tool_usage``, every
  value but ``"none"``; xAI and Cerebras: the recorded 400s), and answered as the host answers elsewhere (llama.cpp's server reads
  an absent tool list as no tools; the others: no source says they refuse it).
- Cohere v2 chat documents ``tool_choice`` as ``REQUIRED`` or ``NONE`` only (cohere 7.3.1
  ``V2ChatRequestToolChoice``): another value is not read as a choice (``AUTO`` and lowercase ``required`` were), and
  not refused either, since no source says the API refuses it.

In-process through ``MockService`` (no socket), but for the official SDKs reading the answers.
"""

from __future__ import annotations

import json
import typing
from typing import Any

import pytest

from sdk_types import missing
from toolchoice.providers.core.mock.service import MockService

USER = [{"role": "user", "content": "hi"}]
TOOL = {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}
NAMED = {"type": "function", "function": {"name": "get_time"}}
CHOICES = ["auto", "none", "required", NAMED]


def ask(provider: str, body: dict[str, Any], path: str = "/v1/chat/completions") -> tuple[int, Any, dict[str, Any]]:
    exchange = MockService(provider).handle("POST", path, {}, json.dumps(body).encode())
    reply = json.loads(exchange.body) if exchange.body is not None else None
    return exchange.status, reply, exchange.record


# ---- tool_choice without tools ---------------------------------------------------------------------------------

# OpenAI: tests/data/responses/errors/error-openai-tool-choice-without-tools.json (the recorded 400).
OPENAI_WORDS = "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified."


@pytest.mark.parametrize("choice", CHOICES)
def test_openai_and_azure_refuse_with_the_recorded_400(choice: Any) -> None:
    """Azure: Azure/azure-sdk-for-net#45598 quotes the same 400 for ChatToolChoice.Auto and .None ('Parameter:
    tool_choice'), so "none" is refused there too."""
    for provider in ("openai", "azure"):
        status, reply, record = ask(provider, {"model": "m", "messages": USER, "tool_choice": choice})
        assert status == 400
        assert reply["error"]["message"] == OPENAI_WORDS
        assert reply["error"]["type"] == "invalid_request_error"


@pytest.mark.parametrize("choice", ["auto", "required", NAMED])
def test_vllm_refuses_in_its_own_words_and_envelope(choice: Any) -> None:
    """vllm 0.33.0 entrypoints/openai/chat_completion/protocol.py ``check_tool_usage``: VLLMValidationError("When
    using `tool_choice`, `tools` must be set.", parameter="tool_choice"); its str() appends ' (parameter=...)'
    (vllm/exceptions.py) and serve/exception_handling/error_response.py answers 400 {error: {message, type:
    'BadRequestError', param, code: 400}}."""
    status, reply, _ = ask("vllm", {"model": "m", "messages": USER, "tool_choice": choice})
    assert status == 400
    assert reply == {"error": {"message": "When using `tool_choice`, `tools` must be set. (parameter=tool_choice)",
                               "type": "BadRequestError", "param": "tool_choice", "code": 400}}


def test_vllm_takes_none_and_null_without_tools() -> None:
    """'if "tool_choice" is "none" -- no validation is needed for tools'; a null tool_choice is not checked."""
    for choice in ("none", None):
        status, reply, _ = ask("vllm", {"model": "m", "messages": USER, "tool_choice": choice})
        assert status == 200
        assert "tool_calls" not in reply["choices"][0]["message"]


def test_vllm_refuses_tools_null_with_a_choice_and_an_empty_tool_list() -> None:
    """'if "tools" not in data or data["tools"] is None' (null tools refused like absent ones), and 'Reject empty
    tools array': "`tools` must not be an empty array. Either provide at least one tool or omit the field entirely."
    (parameter="tools")."""
    status, reply, _ = ask("vllm", {"model": "m", "messages": USER, "tool_choice": "auto", "tools": None})
    assert status == 400 and reply["error"]["param"] == "tool_choice"
    status, reply, _ = ask("vllm", {"model": "m", "messages": USER, "tools": []})
    assert status == 400
    assert reply["error"]["message"] == ("`tools` must not be an empty array. Either provide at least one tool or "
                                         "omit the field entirely. (parameter=tools)")
    assert reply["error"]["param"] == "tools"


@pytest.mark.parametrize("choice", CHOICES)
def test_xai_refuses_in_its_own_words_and_envelope(choice: Any) -> None:
    """livekit/agents#3114 quotes xAI's 400 for a chat request with tool_choice and no tools: {'code': 'Client
    specified an invalid argument', 'error': 'Invalid request content: A tool_choice was set on the request but no
    tools were specified.'}"""
    status, reply, _ = ask("xai", {"model": "grok-4.3", "messages": USER, "tool_choice": choice})
    assert status == 400
    assert reply == {"code": "Client specified an invalid argument",
                     "error": "Invalid request content: A tool_choice was set on the request but no tools were specified."}


@pytest.mark.parametrize("choice", CHOICES)
def test_cerebras_refuses_in_its_recorded_words_and_envelope(choice: Any) -> None:
    """juspay/neurolink#1564 (probed live against api.cerebras.ai): '400 wrong_api_format: "'tool_choice' is only
    allowed when 'tools' are specified"'; Cerebras's 400 body is {message, type, param, code} at the top level
    (livekit/agents#2403: {'message': ..., 'type': 'invalid_request_error', 'param': 'messages', 'code':
    'wrong_api_format'})."""
    status, reply, _ = ask("cerebras", {"model": "gpt-oss-120b", "messages": USER, "tool_choice": choice})
    assert status == 400
    assert reply["message"] == "'tool_choice' is only allowed when 'tools' are specified"
    assert reply["code"] == "wrong_api_format" and reply["type"] == "invalid_request_error" and "error" not in reply


UNREFUSED = ["llamacpp", "mistral", "groq", "deepseek", "fireworks", "together", "openrouter", "sambanova",
             "huggingface"]


@pytest.mark.parametrize("provider", UNREFUSED)
@pytest.mark.parametrize("choice", CHOICES)
def test_hosts_without_a_source_answer_without_a_call(provider: str, choice: Any) -> None:
    """No source says these hosts refuse it (llama.cpp's server-common.cpp reads the absent list as no tools and
    builds no tool grammar): answered 200 with text, as without tools, and the line still says what was asked."""
    status, reply, record = ask(provider, {"model": "m", "messages": USER, "tool_choice": choice})
    assert status == 200, reply
    message = reply["choices"][0]["message"]
    assert not message.get("tool_calls") and message["content"]
    assert record["requested"] == choice
    assert not [f for f in record["findings"] if f["severity"] == "error"]


# ---- Cohere's tool_choice words --------------------------------------------------------------------------------

COHERE_TOOL = {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}


def cohere(choice: Any) -> tuple[int, Any, dict[str, Any]]:
    return ask("cohere", {"model": "command-a-03-2025", "messages": USER, "tools": [COHERE_TOOL],
                          "tool_choice": choice}, "/v2/chat")


@pytest.mark.skipif(missing("cohere"), reason="needs cohere")
def test_cohere_words_are_the_sdk_types() -> None:
    from cohere.v2.types.v2chat_request_tool_choice import V2ChatRequestToolChoice

    from toolchoice.providers.core.fact_values import ChoiceWords

    from toolchoice.providers.core.facts import choice_words

    literal = next(a for a in typing.get_args(V2ChatRequestToolChoice) if typing.get_origin(a) is typing.Literal)
    assert choice_words("cohere") == ("cohere.tool_choice_values", ChoiceWords(typing.get_args(literal), "unread",
                                                                               forms=False))


@pytest.mark.parametrize(("choice", "neutral", "called"), [("REQUIRED", "required", True), ("NONE", "none", False)])
def test_cohere_reads_its_two_words(choice: str, neutral: str, called: bool) -> None:
    status, reply, record = cohere(choice)
    assert status == 200 and record["tool_choice"] == neutral
    assert bool(reply["message"].get("tool_calls")) == called


@pytest.mark.parametrize("choice", ["required", "none", {"type": "function", "function": {"name": "get_time"}}])
def test_cohere_does_not_read_other_values_and_does_not_refuse_them(choice: Any) -> None:
    """Cohere documents only REQUIRED and NONE; no source says what the API does with these written in another case
    or with an object, so they are neither read as a choice (lowercase required was read as required) nor refused:
    passed unjudged, answered as when tool_choice is left out, and the line says so. (Another string, AUTO or any,
    is refused 422 in the API's recorded words: tests/test_mock_choice_shapes.py.)"""
    status, _, record = cohere(choice)
    assert status == 200
    assert record["requested"] == choice and record["tool_choice"] is None
    unread = [f for f in record["findings"] if f["code"] == "mock.choice_unread"]
    assert unread and "REQUIRED, NONE" in unread[0]["message"]


def test_each_refusal_is_quoted_from_its_hosts_dated_fact() -> None:
    """The words the mock answers are the words its fact quotes (the ' (parameter=...)' vLLM appends aside)."""
    from toolchoice.providers.core.facts import fact
    from toolchoice.providers.openai_chat_mock import WITHOUT_TOOLS

    assert set(WITHOUT_TOOLS) == {"openai", "azure", "vllm", "xai", "cerebras"}
    for provider, rule in WITHOUT_TOOLS.items():
        dated = fact(rule.fact)
        assert dated.providers == (provider,) and dated.verified == ("2026-11-27" if provider == "cerebras" else "2026-11-26")
        assert rule.words.removesuffix(" (parameter=tool_choice)") in dated.source.replace('\\"', '"')


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_openai_sdk_reads_each_hosts_refusal_and_answer() -> None:
    """The official client against the mock: vLLM's and xAI's bodies arrive as BadRequestError with the host's own
    body; Together answers the same request with text."""
    from openai import BadRequestError, OpenAI

    from toolchoice.providers.core.mock.server import running_mock

    for provider, body in (("vllm", {"error": {"message": "When using `tool_choice`, `tools` must be set. "
                                                          "(parameter=tool_choice)", "type": "BadRequestError",
                                                "param": "tool_choice", "code": 400}}),
                           ("xai", {"code": "Client specified an invalid argument", "error": "Invalid request content: "
                                    "A tool_choice was set on the request but no tools were specified."})):
        with running_mock(provider) as mock:
            client = OpenAI(base_url=mock.base_url, api_key="sk-test", max_retries=0)
            with pytest.raises(BadRequestError) as refused:
                client.chat.completions.create(model="m", messages=USER, tool_choice="auto")  # type: ignore[arg-type]
        assert refused.value.status_code == 400 and refused.value.response.json() == body
        assert refused.value.body == body["error"]  # openai-python reads the "error" key, whatever its type
    with running_mock("together") as mock:
        client = OpenAI(base_url=mock.base_url, api_key="sk-test", max_retries=0)
        answer = client.chat.completions.create(model="m", messages=USER, tool_choice="required")  # type: ignore[arg-type]
    assert answer.choices[0].message.content and not answer.choices[0].message.tool_calls


@pytest.mark.skipif(missing("cohere"), reason="needs cohere")
def test_cohere_sdk_sends_an_undocumented_word_and_gets_it_unread() -> None:
    import cohere

    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("cohere") as mock:
        client = cohere.ClientV2(api_key="co-test", base_url=mock.base_url)
        forced = client.chat(model="command-a-03-2025", messages=USER, tools=[COHERE_TOOL], tool_choice="REQUIRED")
        client.chat(model="command-a-03-2025", messages=USER, tools=[COHERE_TOOL], tool_choice="required")
        records = list(mock.records)
    assert forced.message.tool_calls and forced.message.tool_calls[0].function.name == "get_time"
    assert [r["tool_choice"] for r in records] == ["required", None]
    assert records[1]["requested"] == "required" and records[1]["status"] == 200


# ---- vLLM's and llama.cpp's own checks of tool_choice, with tools ------------------------------------------------

TWO = [{"type": "function", "function": {"name": n, "parameters": {"type": "object", "properties": {}}}} for n in "ab"]
VLLM_USAGE = 'Correct usage: `{"type": "function", "function": {"name": "my_function"}}`'


@pytest.mark.parametrize(("choice", "words", "param"), [
    ("any", 'Invalid value for `tool_choice`: any! Only named tools, "none", "auto" or "required" are supported.',
     "tool_choice"),
    ({"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": [{"type": "function", "function":
                                                                                 {"name": "b"}}]}},
     f"Invalid value for `function`: `None` in `tool_choice`! {VLLM_USAGE}", "tool_choice.function"),
    ({"type": "function"}, f"Invalid value for `function`: `None` in `tool_choice`! {VLLM_USAGE}",
     "tool_choice.function"),
    ({"type": "function", "function": {}}, f"Expected field `name` in `function` in `tool_choice`! {VLLM_USAGE}",
     "tool_choice.function.name"),
    ({"type": "function", "function": {"name": ""}}, f"Invalid `name` in `function`: `` in `tool_choice`! {VLLM_USAGE}",
     "tool_choice.function.name"),
    ({"type": "function", "function": {"name": "zzz"}},
     "The tool specified in `tool_choice` does not match any of the specified `tools`", "tool_choice"),
])
def test_vllm_checks_tool_choice_in_its_own_words(choice: Any, words: str, param: str) -> None:
    """vllm 0.33.0 check_tool_usage, with tools: 'any' and the allowed_tools form were answered 200 with a call."""
    status, reply, _ = ask("vllm", {"model": "m", "messages": USER, "tools": TWO, "tool_choice": choice})
    assert status == 400, reply
    assert reply == {"error": {"message": f"{words} (parameter={param})", "type": "BadRequestError", "param": param,
                               "code": 400}}


def test_vllm_takes_a_named_choice_without_a_type() -> None:
    """check_tool_usage reads only function.name: the hub's {function: {name}} form is taken."""
    status, reply, record = ask("vllm", {"model": "m", "messages": USER, "tools": TWO,
                                         "tool_choice": {"function": {"name": "b"}}})
    assert status == 200 and reply["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "b"


@pytest.mark.parametrize("word", ["any", "AUTO", "validated"])
def test_llamacpp_refuses_a_word_it_does_not_parse(word: str) -> None:
    """common/chat.cpp common_chat_tool_choice_parse_oaicompat: 'throw std::invalid_argument("Invalid tool_choice: "
    + tool_choice)'; tools/server/server.cpp ex_wrapper answers an invalid_argument 400 with {"error":
    format_error_response(message, ERROR_TYPE_INVALID_REQUEST)} = {code: 400, message, type: invalid_request_error}
    (server-common.cpp). "any" was answered 200 with a call."""
    status, reply, _ = ask("llamacpp", {"model": "m", "messages": USER, "tools": TWO, "tool_choice": word})
    assert status == 400
    assert reply == {"error": {"code": 400, "message": f"Invalid tool_choice: {word}", "type": "invalid_request_error"}}


@pytest.mark.parametrize("choice", [{"type": "function", "function": {"name": "b"}},
                                    {"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": [
                                        {"type": "function", "function": {"name": "b"}}]}}])
def test_llamacpp_reads_an_object_choice_as_auto(choice: Any) -> None:
    """server-common.cpp: 'auto tool_choice = json_value(body, "tool_choice", std::string("auto"))': an object is
    not a string, so llama-server uses "auto" (the named tool was answered as if forced: a call to b)."""
    status, reply, record = ask("llamacpp", {"model": "m", "messages": USER, "tools": TWO, "tool_choice": choice})
    assert status == 200
    assert record["requested"] == choice and record["tool_choice"] == "auto"
    assert reply["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "a"  # auto: the first offered tool
    assert any(f["code"] == "mock.choice_unread" and "auto" in f["message"] for f in record["findings"])


# ---- Bedrock: a named toolChoice on the model its refusal was recorded for ---------------------------------------

BEDROCK_TOOLS = [{"toolSpec": {"name": n, "inputSchema": {"json": {"type": "object", "properties": {}}}}} for n in "ab"]


def bedrock(model: str, choice: Any) -> tuple[int, Any, dict[str, Any]]:
    return ask("bedrock", {"messages": [{"role": "user", "content": [{"text": "hi"}]}],
                           "toolConfig": {"tools": BEDROCK_TOOLS, "toolChoice": choice}}, f"/model/{model}/converse")


def test_bedrock_refuses_a_named_choice_where_the_refusal_was_recorded() -> None:
    """tests/data/responses/errors/error-bedrock-toolchoice-not-supported.json (recorded for
    mistral.mistral-large-2402-v1:0, SOURCES.md) was answered 200 with the named call; a model no source speaks
    of (model_rule.unknown) is still answered, with the warning."""
    recorded = json.loads((__import__("pathlib").Path(__file__).parent / "data" / "responses" / "errors" /
                           "error-bedrock-toolchoice-not-supported.json").read_text())
    status, reply, _ = bedrock("mistral.mistral-large-2402-v1:0", {"tool": {"name": "b"}})
    assert status == 400 and reply == recorded
    status, reply, record = bedrock("mistral.mistral-large-2402-v1:0", {"any": {}})
    assert status == 200
    status, reply, record = bedrock("some.unknown-model-v1", {"tool": {"name": "b"}})
    assert status == 200 and [c["toolUse"]["name"] for c in reply["output"]["message"]["content"] if "toolUse" in c] == ["b"]
    assert any(f["code"] == "tool_choice.model_support" for f in record["findings"])
