"""What llama-cpp-python 0.3.36's OpenAI-compatible server really does with tools, on the raw wire.

Measured against `python -m llama_cpp.server --chat_format chatml-function-calling` with the base Gemma 3 270M
model (see llama_server.py). The model is not instruction-tuned, so these tests assert status codes, error
bodies and the structure and schema of replies, never what the arguments or the text say. The behaviour
follows from llama_cpp/llama_chat_format.py `chatml_function_calling` (0.3.36):
- tool_choice None/"none" (or no tools) renders the prompt without tools and never calls one;
- a named tool_choice dict appends "functions.NAME:\\n" and samples under a grammar built from the schema;
- "auto" asks a grammar for "functions.NAME:" or "message:"; a message then samples under a grammar that
  only allows a function name or <|im_end|>, so the text comes back empty; it passes max_tokens=None;
- anything else hits `assert tool_choice == "auto"`: an AssertionError with an empty message;
- the template prints tool definitions only inside a system message and has no branch for role "tool".
llama_cpp/server/errors.py turns every exception into HTTP 500 except context-length overflows (400).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import jsonschema
import pytest

pytestmark = pytest.mark.realmodel

TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {
        "name": "get_weather", "description": "Get the current weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}},
                       "required": ["city"]}}},
    {"type": "function", "function": {
        "name": "get_time", "description": "Get the current time in a timezone.",
        "parameters": {"type": "object",
                       "properties": {"timezone": {"type": "string", "description": "IANA timezone"}},
                       "required": ["timezone"]}}},
]
SCHEMAS = {tool["function"]["name"]: tool["function"]["parameters"] for tool in TOOLS}
USER = [{"role": "user", "content": "What is the weather in Paris?"}]
SYSTEM = [{"role": "system", "content": "You are a helpful assistant."}]
# Generous: a grammar-constrained step over Gemma's 262k-token vocabulary is slow on a busy 2-core machine.
TIMEOUT_S = 300.0


def named(name: str) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name}}


def chat(base_url: str, **fields: Any) -> httpx.Response:
    """POST /chat/completions with the two tools, greedy sampling and a small budget unless overridden."""
    body: dict[str, Any] = {"model": "gemma-3-270m", "messages": USER, "tools": TOOLS,
                            "temperature": 0, "seed": 0, "max_tokens": 48}
    body.update(fields)
    return httpx.post(f"{base_url}/chat/completions", json=body, timeout=TIMEOUT_S)


def ok_choice(resp: httpx.Response) -> dict[str, Any]:
    assert resp.status_code == 200, resp.text
    body = resp.json()
    assert body["object"] == "chat.completion"
    assert len(body["choices"]) == 1
    choice: dict[str, Any] = body["choices"][0]
    return choice


def error_of(resp: httpx.Response, status: int) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error"}
    error: dict[str, Any] = body["error"]
    assert set(error) == {"message", "type", "param", "code"}
    return error


def history(assistant: dict[str, Any], tool_content: str | None) -> list[dict[str, Any]]:
    """user -> assistant call to get_weather -> (tool result) -> user."""
    tool = [{"role": "tool", "tool_call_id": "call_1", "content": tool_content}] if tool_content is not None else []
    return [*USER, {"role": "assistant", **assistant}, *tool, {"role": "user", "content": "And in Tokyo?"}]


CALL = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}


def test_models_lists_the_loaded_gguf(llama_server: str) -> None:
    resp = httpx.get(f"{llama_server}/models", timeout=30)
    assert resp.status_code == 200
    models = resp.json()["data"]
    assert len(models) == 1
    assert models[0]["id"].endswith("gemma-3-270m-q4_k_m.gguf")


@pytest.mark.parametrize("tool", sorted(SCHEMAS))
def test_named_object_form_yields_one_schema_valid_call(llama_server: str, tool: str) -> None:
    resp = chat(llama_server, tool_choice=named(tool))
    choice = ok_choice(resp)
    assert choice["finish_reason"] == "tool_calls"
    message = choice["message"]
    assert message["role"] == "assistant"
    assert message["content"] is None
    [call] = message["tool_calls"]
    assert call["type"] == "function"
    assert call["function"]["name"] == tool
    # ids are "call__<index>_<name>_<completion id>", the completion id being the body id without "chat"
    assert call["id"] == f"call__0_{tool}_{resp.json()['id'].removeprefix('chat')}"
    arguments = json.loads(call["function"]["arguments"])  # a JSON string, as on OpenAI
    jsonschema.validate(arguments, SCHEMAS[tool])
    # a single call is mirrored in the deprecated function_call field
    assert message["function_call"] == call["function"]


def test_named_tool_missing_from_tools_is_500_with_the_reason(llama_server: str) -> None:
    error = error_of(chat(llama_server, tool_choice=named("get_stock_price")), 500)
    assert error == {"message": "Tool with name 'get_stock_price' not found in tools",
                     "type": "internal_server_error", "param": None, "code": None}


def test_required_is_500_with_an_empty_message(llama_server: str) -> None:
    error = error_of(chat(llama_server, tool_choice="required"), 500)
    assert error == {"message": "", "type": "internal_server_error", "param": None, "code": None}


def test_required_with_only_the_named_tool_is_rejected_the_same_way(llama_server: str) -> None:
    """The llamacpp translator's emulation of a named choice (one tool + "required") fails here."""
    error = error_of(chat(llama_server, tools=TOOLS[1:], tool_choice="required"), 500)
    assert error["message"] == ""


@pytest.mark.parametrize("tool_choice", ["get_time", {"function": {"name": "get_time"}},
                                         {"type": "function", "name": "get_time"}],
                         ids=["bare-name", "no-type", "responses-flat-form"])
def test_other_choice_shapes_fail_validation_as_500_not_422(llama_server: str, tool_choice: Any) -> None:
    error = error_of(chat(llama_server, tool_choice=tool_choice), 500)
    assert error["type"] == "internal_server_error"
    assert error["message"].startswith("2 validation errors:")
    assert "('body', 'tool_choice'" in error["message"]


def test_context_overflow_is_the_one_400(llama_server: str) -> None:
    long_user = [{"role": "user", "content": "word " * 3000}]
    error = error_of(chat(llama_server, messages=long_user, tool_choice="none"), 400)
    assert error["type"] == "invalid_request_error"
    assert error["param"] == "messages"
    assert error["code"] == "context_length_exceeded"
    assert error["message"].startswith("This model's maximum context length is 2048 tokens.")


def test_none_gives_text_and_no_call(llama_server: str) -> None:
    choice = ok_choice(chat(llama_server, tool_choice="none"))
    assert choice["finish_reason"] == "stop"
    assert "tool_calls" not in choice["message"]
    assert isinstance(choice["message"]["content"], str) and choice["message"]["content"].strip()


def test_omitted_tool_choice_means_none_not_auto(llama_server: str) -> None:
    """Unlike OpenAI (auto when tools are present), no tool_choice renders the prompt without tools."""
    omitted = chat(llama_server, max_tokens=1)
    assert "tool_calls" not in ok_choice(omitted)["message"]
    none = chat(llama_server, tool_choice="none", max_tokens=1)
    assert omitted.json()["usage"]["prompt_tokens"] == none.json()["usage"]["prompt_tokens"]


def test_tool_definitions_reach_the_prompt_only_with_a_system_message(llama_server: str) -> None:
    def prompt_tokens(messages: list[dict[str, Any]], tool_choice: Any) -> int:
        resp = chat(llama_server, messages=messages, tool_choice=tool_choice, max_tokens=1)
        assert resp.status_code == 200, resp.text
        return int(resp.json()["usage"]["prompt_tokens"])

    # without a system message, named adds only the "functions.get_time:\n" prefix to the prompt
    assert prompt_tokens(USER, named("get_time")) - prompt_tokens(USER, "none") < 20
    # with one, the two tool schemas and the calling instructions are printed into it
    assert prompt_tokens(SYSTEM + USER, named("get_time")) - prompt_tokens(SYSTEM + USER, "none") > 150


def test_auto_text_reply_comes_back_empty(llama_server: str) -> None:
    """Without a system message the model (greedy first step) answers with a message: always ""."""
    choice = ok_choice(chat(llama_server, tool_choice="auto"))
    assert choice["finish_reason"] == "stop"
    assert "tool_calls" not in choice["message"]
    assert choice["message"]["content"] == ""


def test_auto_can_call_and_ignores_max_tokens(llama_server: str) -> None:
    """With the tools in the prompt (system message) auto calls a tool; max_tokens=3 does not cut it."""
    choice = ok_choice(chat(llama_server, messages=SYSTEM + USER, tool_choice="auto", max_tokens=3))
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] is None
    calls = choice["message"]["tool_calls"]
    assert calls
    for call in calls:
        assert call["function"]["name"] in SCHEMAS
        json.loads(call["function"]["arguments"])  # complete JSON despite max_tokens=3
    assert choice["message"]["tool_calls"][0]["id"].startswith("call__0_")


def test_tiny_max_tokens_truncates_named_arguments_but_finish_reason_says_tool_calls(llama_server: str) -> None:
    resp = chat(llama_server, tool_choice=named("get_weather"), max_tokens=3)
    choice = ok_choice(resp)
    assert choice["finish_reason"] == "tool_calls"
    assert resp.json()["usage"]["completion_tokens"] == 3
    [call] = choice["message"]["tool_calls"]
    with pytest.raises(json.JSONDecodeError):
        json.loads(call["function"]["arguments"])


def test_parallel_tool_calls_is_not_read(llama_server: str) -> None:
    """Not a field of the request model: false is accepted, and so is a value that is not even a boolean."""
    for value in (False, "not-a-boolean"):
        choice = ok_choice(chat(llama_server, tool_choice=named("get_time"), parallel_tool_calls=value))
        assert choice["finish_reason"] == "tool_calls"
        assert [c["function"]["name"] for c in choice["message"]["tool_calls"]] == ["get_time"]


def test_assistant_content_null_is_rejected_and_empty_string_works(llama_server: str) -> None:
    error = error_of(chat(llama_server, messages=history({"content": None, "tool_calls": [CALL]}, "Sunny"),
                          tool_choice="none", max_tokens=1), 500)
    assert "'loc': ('body', 'messages', 1, 'ChatCompletionRequestAssistantMessage', 'content')" in error["message"]
    assert "'msg': 'Input should be a valid string'" in error["message"]

    ok_choice(chat(llama_server, messages=history({"content": "", "tool_calls": [CALL]}, "Sunny"),
                   tool_choice="none", max_tokens=1))


def test_assistant_content_omitted_breaks_the_template(llama_server: str) -> None:
    error = error_of(chat(llama_server, messages=history({"tool_calls": [CALL]}, "Sunny"),
                          tool_choice="none", max_tokens=1), 500)
    assert error["message"] == "'dict object' has no attribute 'content'"


def test_tool_message_content_never_reaches_the_prompt(llama_server: str) -> None:
    def prompt_tokens(tool_content: str | None) -> int:
        resp = chat(llama_server, messages=history({"content": "", "tool_calls": [CALL]}, tool_content),
                    tool_choice="none", max_tokens=1)
        assert resp.status_code == 200, resp.text
        return int(resp.json()["usage"]["prompt_tokens"])

    short, long = prompt_tokens("x"), prompt_tokens("Sunny, 21 degrees Celsius, light wind from the west. " * 5)
    assert short == long  # the content is dropped ...
    assert prompt_tokens(None) < short  # ... while the "<|im_start|>tool" header line stays
