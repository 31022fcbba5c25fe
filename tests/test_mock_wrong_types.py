"""A request body with a field of the wrong type is the API's 400 in its envelope, naming the field's path, never
the mock's 500 (`{"role": "assistant", "tool_calls": true}` was "toolchoice mock: internal error: TypeError: 'bool'
object is not iterable"); the proxy passes such a request on as sent and still writes its line.

The bodies are real ones: the requests the Vercel AI SDK and the LangChain-driven loops sent (tests/data/peers,
tests/data/saved, tests/data/loops: histories with calls, results and reasoning; a recorded Responses reply's
reasoning and function_call items sent back as input); Ollama's is the /api/chat shape of
ollama docs/api.md's chat examples (a history with a call and its result, ``think``), no recorded one holding a history.
Each example replaces one value anywhere in one body by a value of another JSON type; the mock's answer must be a
normal one or a 4xx in the family's envelope (tests/data/responses/errors)."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from json_places import places, put
from toolchoice.providers.core.mock.service import MockService

DATA = Path(__file__).parent / "data"
OLLAMA = {"model": "llama3.1", "stream": False, "think": True, "options": {"num_predict": 100, "temperature": 0.1},
          "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "Weather in Paris?"},
                       {"role": "assistant", "content": "", "thinking": "the tool knows",
                        "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]},
                       {"role": "tool", "content": "sunny", "tool_name": "get_weather"}],
          "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city",
                                                       "parameters": {"type": "object", "required": ["city"],
                                                                      "properties": {"city": {"type": "string"}}}}}]}
# provider -> the saved requests (the first few with the most in them: a history), by folder
RECORDED = {"openai": ["peers/vercel/openai-chat", "saved/openai-chat-proxy", "loops/planner-loop-gemma-270m/openai/loop-001"],
            "mistral": ["peers/vercel/mistral"], "openai-responses": ["peers/vercel/openai-responses"],
            "anthropic": ["peers/vercel/anthropic", "peers/vercel/anthropic-thinking"],
            "bedrock": ["peers/vercel/amazon-bedrock"], "gemini": ["peers/vercel/google"],
            "cohere": ["peers/vercel/cohere"]}
ENVELOPE = {
    "openai": lambda body: {"message", "type"} <= set(body["error"]),
    "mistral": lambda body: body["object"] == "error" and isinstance(body["message"], str),
    "openai-responses": lambda body: {"message", "type"} <= set(body["error"]),
    "anthropic": lambda body: body["type"] == "error" and body["error"]["type"] == "invalid_request_error",
    "bedrock": lambda body: set(body) == {"message"},
    "gemini": lambda body: body["error"]["status"] == "INVALID_ARGUMENT" and body["error"]["code"] == 400,
    "cohere": lambda body: set(body) == {"message"},
    "ollama": lambda body: set(body) == {"error"} and isinstance(body["error"], str),
}


def _bodies(provider: str) -> list[tuple[str, dict[str, Any]]]:
    if provider == "ollama":
        return [("/api/chat", OLLAMA)]
    found = []
    for folder in RECORDED[provider]:  # each folder's two bodies with the most in them (a history, thinking)
        saved = [json.loads(file.read_text()) for file in sorted((DATA / folder).glob("*.request.json"))]
        for one in sorted(saved, key=lambda each: -len(json.dumps(each["body"])))[:2]:
            found.append((urlsplit(one.get("url") or "/v1/chat/completions").path, one["body"]))
    if provider == "openai-responses":  # a recorded reply's reasoning and function_call items sent back with the output
        reply = json.loads((DATA / "responses/reasoning/openai-responses-o3-reasoning-function-call.json").read_text())
        call = reply["output"][-1]
        found.append(("/v1/responses", {"model": reply["model"], "tools": reply["tools"], "input": [
            {"role": "user", "content": "Find papers on machine learning"}, *reply["output"],
            {"type": "function_call_output", "call_id": call["call_id"], "output": "[]"}]}))
    return found


_KIND = (bool, int, float, str, list, dict, type(None))
others = st.sampled_from([True, False, 0, 7, -1, 1.5, "", "x", "auto", [], [1], ["x"], [None], [{}], [[]], {},
                          {"a": 1}, {"type": "x"}, {"type": {}}, None])


def _kind(value: Any) -> type:
    return next(kind for kind in _KIND if isinstance(value, kind))


@pytest.mark.parametrize("provider", ["openai", "mistral", "openai-responses", "anthropic", "bedrock", "gemini",
                                      "cohere", "ollama"])
def test_a_wrong_typed_value_anywhere_in_a_real_body_is_an_answer_or_the_apis_4xx_never_a_500(provider: str) -> None:
    """Every place of the bodies (one per shape: `messages[3].tool_calls` stands for every message's), each example
    putting a value of another JSON type there, drawn anew per place."""
    service = MockService(provider)
    cases, shapes = [], set()
    for path, body in _bodies(provider):
        assert service.handle("POST", path, {}, json.dumps(body).encode()).status == 200  # each body is valid
        for place in places(body):
            shape = (path, tuple("N" if isinstance(key, int) else key for key in place))
            if shape not in shapes:
                shapes.add(shape)
                inner: Any = body
                for key in place:
                    inner = inner[key]
                cases.append((path, body, place, _kind(inner)))

    @settings(max_examples=6, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def check(data: st.DataObject) -> None:
        for path, body, place, kind in cases:
            value = data.draw(others.filter(lambda v, kind=kind: _kind(v) is not kind))
            exchange = service.handle("POST", path, {}, json.dumps(put(body, place, value)).encode())
            assert exchange.status == 200 or 400 <= exchange.status < 500, (place, value, exchange.body)
            assert "mock.internal_error" not in json.dumps(exchange.record)
            if exchange.status != 200:
                assert ENVELOPE[provider](json.loads(exchange.body)), exchange.body

    check()


TOOL = [{"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}]


@pytest.mark.parametrize(("provider", "path", "body", "words"), [
    ("openai", "/v1/chat/completions", {"model": "m", "messages": [{"role": "assistant", "tool_calls": True}],
                                        "tools": TOOL},
     # param and code as api.openai.com's recorded wrong-type 400s have them ('param': 'messages', 'code':
     # 'invalid_type'; fact-audit.md, ninth pass): until 2026-11-27 both were null
     {"error": {"message": "Invalid type for 'messages[0].tool_calls': expected an array, but got a boolean instead.",
                "type": "invalid_request_error", "param": "messages[0].tool_calls", "code": "invalid_type"}}),
    ("azure", "/v1/chat/completions", {"model": "m", "messages": [{"role": "assistant", "tool_calls": True}],
                                       "tools": TOOL},
     # Azure's wrong-type 400 is recorded as words only (danny-avila/LibreChat#3111): param and code stay null
     {"error": {"message": "Invalid type for 'messages[0].tool_calls': expected an array, but got a boolean instead.",
                "type": "invalid_request_error", "param": None, "code": None}}),
    ("deepseek", "/v1/chat/completions", {"model": "deepseek-chat", "messages": [{"role": "user", "content": "hi"}],
                                          "thinking": {"type": {"on": 1}}},
     {"error": {"message": "Invalid type for 'thinking.type': expected a string, but got an object instead.",
                "type": "invalid_request_error", "param": None, "code": "invalid_request_error"}}),
    ("cohere", "/v2/chat", {"model": "command-a-03-2025", "messages": [{"role": "assistant", "tool_calls": True}],
                            "tools": TOOL},
     {"message": "invalid request: messages[0].tool_calls must be an array, not a boolean"}),
    ("ollama", "/api/chat", {"model": "llama3.1", "messages": [{"role": "assistant", "tool_calls": True}],
                             "tools": TOOL},
     {"error": "json: cannot unmarshal bool into Go struct field ChatRequest.messages.tool_calls of type "
               "[]api.ToolCall"}),
    # the server's recorded words for arguments sent as a string (ollama/ollama#12794, 2025-10-27: "json: cannot
    # unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments of type
    # api.ToolCallFunctionArguments"), whole
    ("ollama", "/api/chat", {"model": "llama3.1", "tools": TOOL, "messages": [
        {"role": "assistant", "tool_calls": [{"function": {"name": "get_time", "arguments": "{}"}}]}]},
     {"error": "json: cannot unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments "
               "of type api.ToolCallFunctionArguments"}),
    ("anthropic", "/v1/messages", {"model": "claude-sonnet-4-6", "max_tokens": 64, "thinking": {"type": True},
                                   "messages": [{"role": "user", "content": "hi"}]},
     {"type": "error", "error": {"type": "invalid_request_error", "message": "thinking.type: Input should be a valid "
                                 "string"}, "request_id": "req_toolchoice_mock"}),
    # Bedrock's recorded ValidationException for a JSON document that is not an object (aws/aws-sdk-js-v3#7330,
    # aws/aws-sdk-net#3377): until 2026-11-27 the mock read such a value quietly
    ("bedrock", "/model/anthropic.claude-sonnet-4-6/converse", {"messages": [
        {"role": "user", "content": [{"text": "hi"}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "get_time", "input": {}}}]},
        {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"json": [1, 2]}]}}]}]},
     {"message": "The format of the value at messages.2.content.0.toolResult.content.0.json is invalid. Provide a "
                 "json object for the field and try again."}),
    ("bedrock", "/model/anthropic.claude-sonnet-4-6/converse", {
        "messages": [{"role": "user", "content": [{"text": "hi"}]}],
        "toolConfig": {"tools": [{"toolSpec": {"name": "get_time", "inputSchema": {"json": "{}"}}}]}},
     {"message": "The format of the value at toolConfig.tools.0.toolSpec.inputSchema.json is invalid. Provide a json "
                 "object for the field and try again."}),
    ("gemini", "/v1beta/models/gemini-3.5-flash:generateContent",
     {"contents": [{"role": "user", "parts": [{"text": "hi"}]},
                   {"role": "model", "parts": [{"functionCall": {"name": "get_time", "args": {}},
                                                "thoughtSignature": False}]}]},
     {"error": {"code": 400, "message": "Invalid JSON payload received. Invalid value at "
                "'contents[1].parts[0].thought_signature' (TYPE_BYTES)", "status": "INVALID_ARGUMENT"}}),
])
def test_the_reported_bodies_are_the_apis_400_naming_the_field(provider: str, path: str, body: dict[str, Any],
                                                                words: dict[str, Any]) -> None:
    exchange = MockService(provider).handle("POST", path, {}, json.dumps(body).encode())
    assert exchange.status == 400 and json.loads(exchange.body) == words
    assert exchange.record["findings"][-1]["code"] == "mock.refused"
    # the line still shows what was read before the fault: the tools offered
    assert exchange.record["offered_tools"] == (["get_time"] if "tools" in body else [])


@contextmanager
def _proxied(upstream: str) -> Iterator[Any]:
    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server

    handler = ProxyHandler("openai", upstream)
    with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
        yield proxy


def _lines(proxy: Any, count: int) -> list[dict[str, Any]]:
    import time

    deadline = time.monotonic() + 5
    while len(proxy.records) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return list(proxy.records)


def test_the_proxy_passes_a_wrong_typed_body_on_as_sent_and_its_line_says_the_api_is_expected_to_refuse_it(
        monkeypatch: Any) -> None:
    """The upstream decides: the body reaches it byte for byte; the line names what the mock would refuse. And were
    a reader to fail all the same, the request still goes on and the line says it was not judged."""
    from tests.servers import StandIn

    raw = json.dumps({"model": "m", "messages": [{"role": "assistant", "tool_calls": True}], "tools": TOOL,
                      "tool_choice": "required"}).encode()
    with StandIn("openai") as upstream, _proxied(upstream.base_url()) as proxy:
        answered = httpx.post(proxy.base_url + "/chat/completions", content=raw,
                              headers={"content-type": "application/json"}, timeout=10)
        monkeypatch.setattr("toolchoice.providers.openai_chat_mock.mock_read",
                            lambda *args, **kw: (_ for _ in ()).throw(TypeError("'bool' object is not iterable")))
        again = httpx.post(proxy.base_url + "/chat/completions", content=raw,
                           headers={"content-type": "application/json"}, timeout=10)
        first, second = _lines(proxy, 2)
    assert answered.status_code == again.status_code == 200
    assert [r.raw for r in upstream.requests] == [raw, raw]
    assert {"severity": "warning", "code": "mock.refused", "message": "the API is expected to refuse this: Invalid "
            "type for 'messages[0].tool_calls': expected an array, but got a boolean instead."} in first["findings"]
    # judged as far as it reads: the choice and tools as sent, and the answer against them
    assert (first["requested"], first["offered_tools"], first["verdict"]) == ("required", ["get_time"], "phantom_tool")
    assert second["status"] == 200 and {"severity": "warning", "code": "proxy.internal_error", "message": "reading "
                                        "the request failed (TypeError: 'bool' object is not iterable): passed on "
                                        "unjudged (please report it)"} in second["findings"]
