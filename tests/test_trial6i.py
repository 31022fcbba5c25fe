"""Found by trial6i (a fidelity check of `toolchoice mock` with the official SDKs as clients); each test
failed before its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from toolchoice.providers.core.mock.server import running_mock

from test_mock_sdks import CHAT_TOOLS, KEY, USER

DATA = Path(__file__).parent / "data"


def test_cerebras_sdk_parses_the_mock_reply_and_chunks_as_its_own_types() -> None:
    """cerebras-cloud-sdk types/chat/chat_completion.py: ``ChatCompletionResponse`` and ``ChatChunkResponse``
    both declare ``system_fingerprint: str`` (required). Without it the SDK's union fell back to a loose
    ChatCompletionResponse for every stream chunk, whose ``delta`` was a plain dict:
    ``chunk.choices[0].delta.tool_calls`` raised AttributeError."""
    pytest.importorskip("cerebras.cloud.sdk")
    from cerebras.cloud.sdk import Cerebras
    from cerebras.cloud.sdk.types.chat.chat_completion import ChatChunkResponse, ChatCompletionResponse

    with running_mock("cerebras") as mock:
        client = Cerebras(api_key=KEY, base_url=mock.base_url.removesuffix("/v1"), max_retries=0,
                          warm_tcp_connection=False)
        raw = client.chat.completions.with_raw_response.create(model="llama-3.3-70b", messages=USER,
                                                               tools=CHAT_TOOLS, tool_choice="required")
        whole = ChatCompletionResponse.model_validate(raw.http_response.json())  # strict: raises when a field is missing
        assert whole.choices[0].message.tool_calls[0].function.name == "get_weather"
        chunks = list(client.chat.completions.create(model="llama-3.3-70b", messages=USER, tools=CHAT_TOOLS,
                                                     tool_choice={"type": "function",
                                                                  "function": {"name": "get_time"}}, stream=True))
    assert chunks and all(isinstance(chunk, ChatChunkResponse) for chunk in chunks), [type(c) for c in chunks]
    names = [call.function.name for chunk in chunks for call in (chunk.choices[0].delta.tool_calls or [])
             if call.function.name]
    assert names == ["get_time"]


def test_mistralai_sdk_reads_the_mock_stream_with_each_call_whole() -> None:
    """mistralai (client/models/deltamessage.py, toolcall.py, functioncall.py): a stream delta's ``tool_calls`` is
    ``List[ToolCall]`` whose ``function: FunctionCall`` requires ``name: str`` and ``arguments``: every tool-call
    delta carries the call whole. The mock streamed OpenAI's pieces (the arguments in chunks without the name) and
    ``Mistral.chat.stream`` raised ResponseValidationError on the second chunk."""
    pytest.importorskip("mistralai")
    from mistralai.client import Mistral

    with running_mock("mistral") as mock:
        client = Mistral(api_key=KEY, server_url=mock.base_url.removesuffix("/v1"))
        events = list(client.chat.stream(model="mistral-large-latest", messages=USER, tools=CHAT_TOOLS,
                                         tool_choice="any"))
    calls = [call for event in events for call in (event.data.choices[0].delta.tool_calls or [])]
    assert [(call.function.name, call.id) for call in calls] == [("get_weather", mock.records[0]["calls"][0]["id"])]
    assert re.fullmatch(r"[a-zA-Z0-9]{9}", calls[0].id)  # Mistral's id form (docs/mock.md)
    assert json.loads(calls[0].function.arguments) == mock.records[0]["calls"][0]["arguments"]
    assert events[-1].data.choices[0].finish_reason == "tool_calls"


@pytest.mark.parametrize("stream", [False, True])
def test_ollama_think_level_turns_thinking_on(stream: bool) -> None:
    """ollama-python _types.py ChatRequest: ``think: Optional[Union[bool, str]]`` 'Enable thinking mode (for
    thinking models)', and toolchoice's own translator sends an effort as ``think: "low"|"medium"|"high"``
    (providers/ollama.py). The mock read only ``think: true`` as thinking on: with a level the reply had no
    ``message.thinking`` ('Only present when thinking is enabled') and the judge planned thinking as unset."""
    pytest.importorskip("ollama")
    import ollama

    with running_mock("ollama") as mock:
        client = ollama.Client(host=mock.base_url)
        reply = client.chat(model="gpt-oss:20b", messages=USER, tools=CHAT_TOOLS, think="high", stream=stream)
        parts = list(reply) if stream else [reply]
    assert "".join(part.message.thinking or "" for part in parts)
    assert [call.function.name for part in parts for call in (part.message.tool_calls or [])] == ["get_weather"]


def test_mistral_refusal_comes_in_mistrals_error_envelope() -> None:
    """Mistral's 400 body is top level {"object": "error", "message": "...", "type": "invalid_request_error",
    "param": null, "code": null} (as quoted from api.mistral.ai/v1/chat/completions in
    Mobile-Artificial-Intelligence/maid#672; the recorded 422 in tests/data/responses/errors has the same top
    level). The mock answered OpenAI's {"error": {...}} for Mistral too."""
    pytest.importorskip("mistralai")
    from mistralai.client import Mistral
    from mistralai.client.errors import SDKError

    with running_mock("mistral") as mock:
        client = Mistral(api_key=KEY, server_url=mock.base_url.removesuffix("/v1"))
        with pytest.raises(SDKError) as caught:
            client.chat.complete(model="mistral-large-latest", messages=USER, tools=CHAT_TOOLS,
                                 tool_choice={"type": "function", "function": {"name": "no_such_tool"}})
    assert caught.value.status_code == 400
    body = json.loads(caught.value.body)
    assert body["object"] == "error" and body["type"] == "invalid_request_error", body
    assert "no_such_tool" in body["message"] and "error" not in body, body


def test_groq_refuses_another_apis_tool_choice_word() -> None:
    """groq-python types/chat/chat_completion_tool_choice_option_param.py: ``Literal["none", "auto", "required"]``
    or a named choice, and Groq's 400 for another string is recorded: "Only allowed string values for
    'tool_choice' are none, auto, and required" (tests/data/responses/errors/error-groq-tool-choice-null.json,
    its source in SOURCES.md). The mock answered "any" (Anthropic's and Mistral's word) 200 with a call."""
    pytest.importorskip("groq")
    import groq

    recorded = json.loads((DATA / "responses/errors/error-groq-tool-choice-null.json").read_text(encoding="utf-8"))
    with running_mock("groq") as mock:
        client = groq.Groq(api_key=KEY, base_url=mock.base_url.removesuffix("/openai/v1").removesuffix("/v1"),
                           max_retries=0)
        with pytest.raises(groq.BadRequestError) as refused:
            client.chat.completions.create(model="llama-3.3-70b-versatile", messages=USER, tools=CHAT_TOOLS,
                                           tool_choice="any")
        reply = client.chat.completions.create(model="llama-3.3-70b-versatile", messages=USER, tools=CHAT_TOOLS,
                                               tool_choice="required")
    assert reply.choices[0].message.tool_calls[0].function.name == "get_weather"
    assert [r["status"] for r in mock.records] == [400, 200]
    # in Groq's recorded words (until 2026-11-27 the mock said it in OpenAI's style)
    assert recorded["error"]["message"] in str(refused.value), refused.value
