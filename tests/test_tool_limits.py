"""How many tools one request may declare, per API: refused before sending only where a source says the API refuses
more (the ledger quotes the API's words and cites the source), answered by the mock with the same words in the same
envelope; elsewhere nothing changes. The truth is outside the code, as recorded in public issues (2026-11-26):

- OpenAI Chat Completions, 129+ tools: 400 {"error": {"message": "Invalid 'tools': array too long. Expected an array
  with maximum length 128, but got an array with length 325 instead.", "type": "invalid_request_error", "param":
  "tools", "code": "array_above_max_length"}} (vishalmysore/Tools4AI#16; julep-ai/julep#330 with length 383).
- Gemini, 513+ function declarations: 400 {"error": {"code": 400, "message": "The GenerateContentRequest proto is
  invalid:\\n  * tools[0].function_declarations: [FIELD_INVALID] At most 512 function declarations can be
  specified.", "status": "INVALID_ARGUMENT"}} (google-gemini/gemini-cli#19083).
- Groq, 129+ tools: 400 {'error': {'message': "'tools' : maximum number of items is 128", 'type':
  'invalid_request_error'}} (HunorLaczko/ha-groq-cloud-api#25).
- No source states a limit for Anthropic, Bedrock, Mistral, Responses, Azure, Cohere, vLLM, llama.cpp: nothing changes.

In-process: the translators and the mock service (no socket), and the tool-file importer.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolchoice.providers.core.model import RenderOptions, Scenario, Tool
from toolchoice.providers.core.registry import translate

OPENAI_129 = ("Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with "
              "length 129 instead.")
GEMINI_513 = ("The GenerateContentRequest proto is invalid:\n  * tools[0].function_declarations: [FIELD_INVALID] At "
              "most 512 function declarations can be specified.")
GROQ = "'tools' : maximum number of items is 128"


def tools(count: int) -> tuple[Tool, ...]:
    return tuple(Tool(name=f"t{i}", description="d", parameters={"type": "object", "properties": {}})
                 for i in range(count))


def scenario(count: int) -> Scenario:
    from toolchoice.providers.core.model import Message

    return Scenario(path="s.yaml", tools=tools(count), messages=(Message("user", "hi"),))


def errors(provider: str, count: int) -> list[Any]:
    t = translate(provider, scenario(count), RenderOptions())
    return [e for e in t.ledger if e.severity == "error"], t


@pytest.mark.parametrize("provider,most,words", [("openai", 128, OPENAI_129), ("gemini", 512, GEMINI_513),
                                                 ("groq", 128, GROQ)])
def test_a_request_over_the_apis_tool_limit_is_refused_with_its_words(provider: str, most: int, words: str) -> None:
    found, t = errors(provider, most + 1)
    assert t.request is None
    assert [e.code for e in found] == ["tools.over_limit"]
    message = found[0].message
    assert words in message and f"{most + 1} tools" in message
    source = {"openai": "vishalmysore/Tools4AI#16", "gemini": "google-gemini/gemini-cli#19083",
              "groq": "HunorLaczko/ha-groq-cloud-api#25"}[provider]
    assert source in message


@pytest.mark.parametrize("provider,most", [("openai", 128), ("gemini", 512), ("groq", 128)])
def test_a_request_at_the_limit_is_sent(provider: str, most: int) -> None:
    found, t = errors(provider, most)
    assert t.request is not None and not found


@pytest.mark.parametrize("provider", ["anthropic", "bedrock", "mistral", "openai-responses", "azure", "cohere", "vllm",
                                      "llamacpp"])
def test_no_source_no_limit(provider: str) -> None:
    found, t = errors(provider, 600)
    assert t.request is not None and not found


def answer(provider: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    from toolchoice.providers.core.mock.service import MockService

    exchange = MockService(provider).handle("POST", path, {}, json.dumps(body).encode())
    return exchange.status, json.loads(exchange.body or b"null")


def chat_tools(count: int) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": f"t{i}", "parameters": {"type": "object", "properties": {}}}}
            for i in range(count)]


def test_the_openai_mock_answers_129_tools_as_openai_does() -> None:
    body = {"model": "gpt-5.4-mini", "messages": [{"role": "user", "content": "hi"}], "tools": chat_tools(129)}
    status, reply = answer("openai", "/v1/chat/completions", body)
    assert status == 400
    assert reply == {"error": {"message": OPENAI_129, "type": "invalid_request_error", "param": "tools",
                               "code": "array_above_max_length"}}
    status, _ = answer("openai", "/v1/chat/completions", {**body, "tools": chat_tools(128)})
    assert status == 200


def test_the_groq_mock_answers_129_tools_as_groq_does() -> None:
    body = {"model": "openai/gpt-oss-120b", "messages": [{"role": "user", "content": "hi"}], "tools": chat_tools(129)}
    status, reply = answer("groq", "/openai/v1/chat/completions", body)
    assert status == 400 and reply["error"]["message"] == GROQ and reply["error"]["type"] == "invalid_request_error"


def test_the_gemini_mock_answers_513_declarations_as_gemini_does() -> None:
    declarations = [{"name": f"t{i}", "parameters": {"type": "OBJECT", "properties": {}}} for i in range(513)]
    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": [{"functionDeclarations": declarations}]}
    status, reply = answer("gemini", "/v1beta/models/gemini-3.5-flash:generateContent", body)
    assert status == 400
    assert reply == {"error": {"code": 400, "message": GEMINI_513, "status": "INVALID_ARGUMENT"}}
    body["tools"][0]["functionDeclarations"] = declarations[:512]
    status, _ = answer("gemini", "/v1beta/models/gemini-3.5-flash:generateContent", body)
    assert status == 200


def test_the_anthropic_mock_takes_600_tools() -> None:
    body = {"model": "claude-sonnet-4-6", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"name": f"t{i}", "input_schema": {"type": "object"}} for i in range(600)]}
    status, _ = answer("anthropic", "/v1/messages", body)
    assert status == 200


def test_importing_more_tools_than_an_api_takes_warns_with_the_same_limits() -> None:
    from toolchoice.providers.core.tool_import import convert

    imported = convert({"tools": [{"name": f"t{i}", "inputSchema": {"type": "object"}} for i in range(130)]}, "t.json")
    warnings = [n for n in imported.notes if n[1] == "import.over_limit"]
    assert len(warnings) == 1
    text = warnings[0][2]
    assert "130 tools" in text and "more than 128" in text and "OpenAI Chat Completions" in text and "Groq" in text
    assert "Gemini" not in text  # 512 declarations: within its limit
    few = convert({"tools": [{"name": f"t{i}", "inputSchema": {"type": "object"}} for i in range(128)]}, "t.json")
    assert not [n for n in few.notes if n[1] == "import.over_limit"]


def test_the_gemini_limit_is_per_tool_as_the_recorded_error_names_it() -> None:
    """'tools[0].function_declarations: ... At most 512': two tools of 300 declarations each are each within it (the
    translator, which puts every declaration in one tool, would count 600)."""
    def declarations(start: int) -> list[dict[str, Any]]:
        return [{"name": f"t{i}", "parameters": {"type": "OBJECT", "properties": {}}} for i in range(start, start + 300)]

    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
            "tools": [{"functionDeclarations": declarations(0)}, {"functionDeclarations": declarations(300)}]}
    status, reply = answer("gemini", "/v1beta/models/gemini-3.5-flash:generateContent", body)
    assert status == 200, reply
    body["tools"][1]["functionDeclarations"] += declarations(600)[:213]
    status, reply = answer("gemini", "/v1beta/models/gemini-3.5-flash:generateContent", body)
    assert status == 400 and reply["error"]["message"] == GEMINI_513.replace("tools[0]", "tools[1]")
