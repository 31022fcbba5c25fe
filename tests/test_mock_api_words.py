"""The mock speaks the API's words: a refused request's 400 carries the API's own message, where a source records it,
in the API's envelope, and toolchoice's advice stays in the judged line; a string tool_choice word a host's own source
does not name is passed unjudged, not read as required; an empty message list is refused only where a recorded 400
says so.

The expected words are copied from the recordings (each test names its source), not from the code."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import pytest

from sdk_types import missing
from toolchoice.providers.core.mock.service import MockService

USER = [{"role": "user", "content": "hi"}]
TOOL = {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}
CLAUDE_TOOL = {"name": "get_time", "input_schema": {"type": "object", "properties": {}}}
ERRORS = Path(__file__).parent / "data" / "responses" / "errors"


def ask(provider: str, body: dict[str, Any], path: str = "/v1/chat/completions") -> tuple[int, Any, dict[str, Any]]:
    exchange = MockService(provider).handle("POST", path, {}, json.dumps(body).encode())
    return exchange.status, json.loads(exchange.body) if exchange.body else None, exchange.record


def codes(record: dict[str, Any]) -> list[str]:
    return [f["code"] for f in record["findings"] if f["severity"] == "error"]


# ---- 1. refusals in the API's words ---------------------------------------------------------------------------

def test_deepseek_thinking_forced_choice_in_deepseeks_words() -> None:
    """deepseek-ai/DeepSeek-V3#1376 (curl to api.deepseek.com, deepseek-v4-flash): '400 — Thinking mode does not
    support this tool_choice'; every recorded DeepSeek 400 has code invalid_request_error. The body said
    'set providers.deepseek.thinking: false', a toolchoice scenario key, to a LiteLLM or Vercel client."""
    status, reply, record = ask("deepseek", {"model": "deepseek-v4-flash", "messages": USER, "tools": [TOOL],
                                             "tool_choice": "required"})
    assert status == 400
    assert reply == {"error": {"message": "Thinking mode does not support this tool_choice",
                               "type": "invalid_request_error", "param": None, "code": "invalid_request_error"}}
    advice = [f for f in record["findings"] if f["code"] == "thinking.forced_choice"]
    assert advice and "providers.deepseek.thinking: false" in advice[0]["message"]  # the advice is not lost
    refused = [f for f in record["findings"] if f["code"] == "mock.refused"]
    assert refused and refused[0]["message"] == "Thinking mode does not support this tool_choice"


def test_deepseek_reasoner_in_its_own_words() -> None:
    """i-am-bee/beeai-framework#1441, can1357/oh-my-pi#945: 'deepseek-reasoner does not support this tool_choice'."""
    status, reply, _ = ask("deepseek", {"model": "deepseek-reasoner", "messages": USER, "tools": [TOOL],
                                        "tool_choice": {"type": "function", "function": {"name": "get_time"}}})
    assert status == 400 and reply["error"]["message"] == "deepseek-reasoner does not support this tool_choice"


def test_claude_manual_thinking_forced_choice_in_anthropics_words() -> None:
    """mastra-ai/mastra#7507 (api.anthropic.com/v1/messages): 'Thinking may not be enabled when tool_choice forces
    tool use.'"""
    status, reply, record = ask("anthropic", {"model": "claude-sonnet-4-6", "max_tokens": 4096, "messages": USER,
                                              "tools": [CLAUDE_TOOL], "tool_choice": {"type": "any"},
                                              "thinking": {"type": "enabled", "budget_tokens": 1024}}, "/v1/messages")
    assert status == 400 and reply["type"] == "error"
    assert reply["error"] == {"type": "invalid_request_error",
                              "message": "Thinking may not be enabled when tool_choice forces tool use."}
    assert "thinking.forced_choice" in codes(record)


def test_bedrock_claude_in_bedrocks_words() -> None:
    """can1357/oh-my-pi#341 (amazon-bedrock us.anthropic.claude-sonnet-4-6): 'The model returned the following
    errors: Thinking may not be enabled when tool_choice forces tool use.'"""
    body = {"messages": [{"role": "user", "content": [{"text": "hi"}]}],
            "toolConfig": {"tools": [{"toolSpec": {"name": "get_time", "inputSchema": {"json": {"type": "object"}}}}],
                           "toolChoice": {"any": {}}},
            "inferenceConfig": {"maxTokens": 4096},
            "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 1024}}}
    status, reply, _ = ask("bedrock", body, "/model/us.anthropic.claude-sonnet-4-6/converse")
    assert status == 400
    assert reply == {"message": "The model returned the following errors: Thinking may not be enabled when "
                                "tool_choice forces tool use."}


@pytest.mark.parametrize("model,warned", [("us.anthropic.claude-opus-4-8", True), ("us.anthropic.claude-sonnet-5", True),
                                          ("eu.anthropic.claude-opus-5", False)])
def test_bedrock_strict_tool_on_a_recorded_model_is_answered_and_said(model: str, warned: bool) -> None:
    """BerriAI/litellm#31582 (Opus 4.7 / 4.8) and #33193 (a live Converse test: Sonnet 5 rejects, Opus 5 accepts)
    record 'The model returned the following errors: tools.0.custom.strict: Extra inputs are not permitted'; the
    translator warns and sends (no AWS reference read whole), so the mock answers and says it in its findings."""
    body = {"messages": [{"role": "user", "content": [{"text": "hi"}]}],
            "toolConfig": {"tools": [{"toolSpec": {"name": "get_time", "strict": True,
                                                   "inputSchema": {"json": {"type": "object"}}}}]},
            "inferenceConfig": {"maxTokens": 4096}}
    status, _, record = ask("bedrock", body, f"/model/{model}/converse")
    assert status == 200
    said = [f for f in record["findings"] if f["code"] == "strict.model_refused"]
    assert bool(said) == warned and all(f["severity"] == "warning" for f in said)


def test_no_recorded_words_keep_toolchoices_message() -> None:
    """Opus 5.5 refuses forced tool use whatever the thinking (whats-new-opus-5-5: 'Forced tool use returns an
    error.'), but no 400 body is recorded: the 400 keeps the ledger's message (docs/mock.md)."""
    status, reply, record = ask("anthropic", {"model": "claude-opus-5-5", "max_tokens": 4096, "messages": USER,
                                              "tools": [CLAUDE_TOOL], "tool_choice": {"type": "any"}}, "/v1/messages")
    assert status == 400
    refusing = [f for f in record["findings"] if f["code"] == "thinking.forced_choice"]
    assert refusing and reply["error"]["message"] == refusing[0]["message"]
    assert "mock.refused" not in codes(record)


@pytest.mark.parametrize(("model", "effort", "words"), [
    # pipecat-ai/pipecat#4043, openai/openai-openapi#541
    ("gpt-5.4", "high", "Function tools with reasoning_effort are not supported for gpt-5.4 in /v1/chat/completions. "
                        "Please use /v1/responses instead."),
    # github/app#2133 (gpt-5.6-sol; BerriAI/litellm#34569: tools alone are the 400)
    ("gpt-5.6-sol", None, "Function tools with reasoning_effort are not supported for gpt-5.6-sol in "
                          "/v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to "
                          "'none'."),
    # onyx-dot-app/onyx#15008 (2026-09-23, gpt-6-sol)
    ("gpt-6-sol", "high", "Function tools with reasoning_effort are not supported for gpt-6-sol in "
                          "/v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to "
                          "'none'."),
    # moltis-org/moltis#1298 (2026-10-10, gpt-6-luna); 'high' in a client's recorded LiteLLM error (eighth pass)
    ("gpt-6-luna", "high", "Function tools with reasoning_effort are not supported for gpt-6-luna in "
                           "/v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to "
                           "'none'."),
])
def test_openai_tools_with_effort_in_openais_words(model: str, effort: str | None, words: str) -> None:
    body = {"model": model, "messages": USER, "tools": [TOOL], **({"reasoning_effort": effort} if effort else {})}
    status, reply, record = ask("openai", body)
    assert status == 400 and reply["error"]["message"] == words
    assert "thinking.effort_for_tools" in codes(record)



def test_gpt_6_astra_tools_on_chat_are_refused_in_the_ledgers_words() -> None:
    """BerriAI/litellm#39631 (2026-09-03): a function tool and no reasoning_effort is OpenAI's 400 for gpt-6-astra;
    its 'none' is a 400 in other words (genkit-ai/genkit#6303), not recorded whole: the 400 keeps the ledger's line."""
    status, reply, record = ask("openai", {"model": "gpt-6-astra", "messages": USER, "tools": [TOOL]})
    assert status == 400
    refusing = [f for f in record["findings"] if f["code"] == "thinking.effort_for_tools"]
    assert refusing and reply["error"]["message"] == refusing[0]["message"]

@pytest.mark.parametrize("effort", [None, "low"])
def test_gpt_6_astra_tools_on_azure_are_refused_in_azures_recorded_words(effort: str | None) -> None:
    """can1357/oh-my-pi#11052 (2026-09-06, Azure, no reasoning_effort on the wire): '400 Function tools with
    reasoning_effort are not supported for gpt-6-astra in /v1/chat/completions. To use function tools, use /v1/responses
    or set reasoning_effort to 'none'.'; microsoft/simplechat GPT6_ASTRA_MODEL_CATALOG_FIX.md (observed 2026-10-01):
    the same words 'Not set', and for 'low' 'Rejected with the same error'."""
    body = {"model": "gpt-6-astra", "messages": USER, "tools": [TOOL], **({"reasoning_effort": effort} if effort else {})}
    status, reply, record = ask("azure", body)
    assert status == 400 and reply["error"]["message"] == (
        "Function tools with reasoning_effort are not supported for gpt-6-astra in /v1/chat/completions. To use "
        "function tools, use /v1/responses or set reasoning_effort to 'none'.")
    assert "thinking.effort_for_tools" in codes(record)


def test_gpt_6_astra_none_with_tools_on_azure_is_answered_not_refused() -> None:
    """Its sources disagree on 'none' (model rule azure-gpt-6-astra-tools-effort): the mock refuses nothing on a guess."""
    status, _, record = ask("azure", {"model": "gpt-6-astra", "messages": USER, "tools": [TOOL],
                                      "reasoning_effort": "none"})
    assert status == 200 and not codes(record)


def test_gpt_5_6_on_azure_refuses_an_effort_with_tools_in_azures_recorded_words() -> None:
    """anomalyco/opencode#40257 (2026-08-03, reasoning effort 'medium', Azure's form of the words): 'Function tools with
    reasoning_effort are not supported for gpt-5.6-sol in /v1/chat/completions. Please use /v1/responses instead.'
    (agentgateway/agentgateway#2894 the same for gpt-5.6-luna). Until the ninth pass the mock answered it 200; 'none'
    and no effort, on which the sources disagree, are still answered."""
    status, reply, record = ask("azure", {"model": "gpt-5.6-sol", "messages": USER, "tools": [TOOL],
                                          "reasoning_effort": "medium"})
    assert status == 400 and reply["error"] == {
        "message": "Function tools with reasoning_effort are not supported for gpt-5.6-sol in /v1/chat/completions. "
                   "Please use /v1/responses instead.", "type": "invalid_request_error", "param": "reasoning_effort",
        "code": None}
    assert "thinking.effort_for_tools" in codes(record)
    for effort in ({"reasoning_effort": "none"}, {}):
        status, _, record = ask("azure", {"model": "gpt-5.6-sol", "messages": USER, "tools": [TOOL], **effort})
        assert status == 200 and not codes(record)


def test_groq_undeclared_tool_in_groqs_recorded_words() -> None:
    recorded = json.loads((ERRORS / "error-groq-requested-tool-does-not-exist.json").read_text())
    status, reply, record = ask("groq", {"model": "llama-3.3-70b-versatile", "messages": USER, "tools": [TOOL],
                                         "tool_choice": {"type": "function", "function": {"name": "nope"}}},
                                "/openai/v1/chat/completions")
    assert status == 400
    assert {k: reply["error"][k] for k in recorded["error"]} == recorded["error"]
    assert "tool_choice.undeclared" in codes(record)  # toolchoice's line, naming the declared tools
    # another host has no recorded words: toolchoice's own
    status, reply, _ = ask("together", {"model": "m", "messages": USER, "tools": [TOOL],
                                        "tool_choice": {"type": "function", "function": {"name": "nope"}}})
    assert status == 400 and "not a declared tool" in reply["error"]["message"]


def test_every_recorded_word_is_quoted_in_its_dated_fact() -> None:
    from toolchoice.providers.core.facts import FACTS
    from toolchoice.providers.core.fact_values import refusals

    rows = [(dated, row) for dated in FACTS for row in refusals(dated.value)]
    # + Azure's gpt-6-astra words (trial13g), Groq's qwen/qwen3-32b and Mistral Small's reasoning_effort 400s
    # (core/effort_facts.py), Claude's top-level anyOf (trial13l), Azure's gpt-5.6 words (ninth audit pass), the
    # tool_choice shapes of another API (trial15l: OpenAI's, Responses', Anthropic's two; core/choice_shape_words.py),
    # Gemini's unknown field, at the top and inside (trial16d), xAI's 422 for another API's object and Cohere's 422 for
    # a string it has not (trial17f), Converse's toolSpec.strict 400 (eleventh audit pass), Fable 5.1's forced-choice
    # words on the Claude API and Converse, and Converse's recorded words for Fable 5 (trial18j, read 2026-11-28), and
    # Anthropic's 400 for an anthropic-version it has not (trial19e), OpenAI's for a string tool_choice it has not
    # (trial19h, Chat Completions and Responses)
    assert len(rows) == 32  # with deepseek.reasoning_content_missing's two (trial23m)
    for dated, row in rows:
        assert dated.verified in ("2026-11-27", "2026-11-28") and set(row.providers) <= set(dated.providers)
        first = row.words.split("{model}")[0].split("{tool_index}")[0].split("{type}")[0].split("{name}")[0].split("{choice}")[0]
        first = first.split("{version}")[0].split("{message_index}")[0]
        assert first in dated.source.replace('\\"', '"'), row


# ---- 2. string tool_choice words per OpenAI-compatible host ----------------------------------------------------

UNNAMED = ["deepseek", "xai", "openrouter", "together", "cerebras", "sambanova", "huggingface"]


@pytest.mark.parametrize("provider", UNNAMED)
def test_any_is_passed_unjudged_where_the_hosts_source_does_not_name_it(provider: str) -> None:
    """LiteLLM passes Anthropic's "any" through; no source says these hosts take or refuse it. It was read as
    required with no finding."""
    status, _, record = ask(provider, {"model": "m", "messages": USER, "tools": [TOOL], "tool_choice": "any"})
    assert status == 200 and record["requested"] == "any" and record["tool_choice"] is None
    unread = [f for f in record["findings"] if f["code"] == "mock.choice_unread"]
    assert unread and f"{provider}.tool_choice_words" in unread[0]["message"]
    status, _, record = ask(provider, {"model": "m", "messages": USER, "tools": [TOOL], "tool_choice": "required"})
    assert status == 200 and record["tool_choice"] == "required"


@pytest.mark.parametrize("provider", ["mistral", "fireworks"])
def test_any_is_read_where_the_hosts_types_name_it(provider: str) -> None:
    status, reply, record = ask(provider, {"model": "m", "messages": USER, "tools": [TOOL], "tool_choice": "any"})
    assert status == 200 and record["tool_choice"] == "required"
    assert not [f for f in record["findings"] if f["code"] == "mock.choice_unread"]


def _literal_words(alias: Any) -> tuple[str, ...]:
    if typing.get_origin(alias) is typing.Literal:
        return typing.get_args(alias)
    words: list[str] = []
    for arg in typing.get_args(alias):
        if typing.get_origin(arg) is typing.Literal:
            words += typing.get_args(arg)
    return tuple(words)


@pytest.mark.parametrize(("provider", "package", "module", "name"), [
    ("mistral", "mistralai", "mistralai.client.models.toolchoiceenum", "ToolChoiceEnum"),
    ("fireworks", "fireworks", "fireworks.types.chat.completion_create_params", "ToolChoice"),
    ("cerebras", "cerebras", "cerebras.cloud.sdk.types.chat.completion_create_params", "ToolChoice"),
    ("sambanova", "sambanova", "sambanova.types.chat.completion_create_params", "ToolChoice"),
    ("huggingface", "huggingface_hub", "huggingface_hub.inference._generated.types.chat_completion",
     "ChatCompletionInputToolChoiceEnum"),
])
def test_the_words_are_the_hosts_sdk_types(provider: str, package: str, module: str, name: str) -> None:
    if missing(package):
        pytest.skip(f"needs {package}")
    import importlib

    from toolchoice.providers.core.facts import choice_words

    stated = choice_words(provider)
    assert stated is not None and stated[0] == f"{provider}.tool_choice_words"
    assert set(stated[1].words) == set(_literal_words(getattr(importlib.import_module(module), name)))


# ---- 3. messages: [] -------------------------------------------------------------------------------------------

def test_empty_messages_refused_where_a_recorded_400_says_so() -> None:
    """OpenAI: "[] is too short - 'messages'" (run-llama/llama_index#9373, openai-python BadRequestError);
    Anthropic: 'messages: at least one message is required' (devoxx/DevoxxGenieIDEAPlugin#567); Gemini:
    '* GenerateContentRequest.contents: contents is not specified' (vercel/ai#3775: 'even if pass an empty array')."""
    status, reply, record = ask("openai", {"model": "gpt-5.4-mini", "messages": []})
    assert status == 400 and reply["error"]["message"] == "[] is too short - 'messages'"
    assert reply["error"]["type"] == "invalid_request_error" and "messages.empty" in codes(record)
    status, reply, _ = ask("anthropic", {"model": "claude-opus-5", "max_tokens": 1024, "messages": []}, "/v1/messages")
    assert status == 400 and reply["error"] == {"type": "invalid_request_error",
                                                "message": "messages: at least one message is required"}
    status, reply, _ = ask("gemini", {"contents": []}, "/v1beta/models/gemini-3.5-flash:generateContent")
    assert status == 400 and reply["error"]["message"] == "* GenerateContentRequest.contents: contents is not specified"
    assert reply["error"]["status"] == "INVALID_ARGUMENT"


@pytest.mark.parametrize("provider", ["azure", "mistral", "deepseek", "groq", "xai"])
def test_empty_messages_answered_where_no_source_says(provider: str) -> None:
    status, _, record = ask(provider, {"model": "m", "messages": []})
    assert status == 200 and not codes(record)


def test_render_refuses_it_for_openai_and_anthropic_only() -> None:
    from toolchoice.providers import load_scenario_text, translate

    for provider, severity in (("openai", "error"), ("anthropic", "error"), ("azure", None), ("bedrock", "warning")):
        t = translate(provider, load_scenario_text("messages: []\n", "t.yaml"))
        found = [e.severity for e in t.ledger if e.code == "messages.empty"]
        assert found == ([severity] if severity else []), (provider, found)


# ---- 4. the envelope's other fields: the recorded body whole ---------------------------------------------------

# each: the provider, the recorded body (tests/data/responses/errors/SOURCES.md names its source) and the request the
# recording answered (its model and effort); the mock's 400 must be that body, every field
RECORDED = [
    # pipecat-ai/pipecat#4043 (gpt-5.4, reasoning_effort low): param reasoning_effort, code null
    ("openai", "error-openai-tools-reasoning-effort.json",
     {"model": "gpt-5.4", "messages": USER, "tools": [TOOL], "reasoning_effort": "low"}),
    # GoogleChromeLabs/webmcp-tools#417 (gpt-5.6-terra, function tools)
    ("openai", "error-openai-tools-reasoning-effort-gpt-5.6.json",
     {"model": "gpt-5.6-terra", "messages": USER, "tools": [TOOL]}),
    # microsoft/foundry-dev-tools#779 (Azure, gpt-6-astra; oh-my-pi#11052: no reasoning_effort on the wire)
    ("azure", "error-azure-tools-reasoning-effort-gpt-6-astra.json",
     {"model": "gpt-6-astra", "messages": USER, "tools": [TOOL]}),
    # architects-toolkit/SmartHopper#647 (mistral-small, reasoning_effort medium): type, code and raw_status_code
    ("mistral", "error-mistral-400-reasoning-effort.json",
     {"model": "mistral-small-latest", "messages": USER, "reasoning_effort": "medium"}),
    # RageAgainstThePixel/OpenAI-DotNet#479: param tool_choice
    ("openai", "error-openai-tool-choice-without-tools.json",
     {"model": "gpt-4o-mini", "messages": USER, "tool_choice": "auto"}),
    # BerriAI/litellm#11001: Groq's body has no param and no code
    ("groq", "error-groq-requested-tool-does-not-exist.json",
     {"model": "llama-3.3-70b-versatile", "messages": USER, "tools": [TOOL],
      "tool_choice": {"type": "function", "function": {"name": "nope"}}}),
    # brianpetro/obsidian-smart-connections#942: the words were recorded for null; the mock says them for another
    # string (fact groq.tool_choice_words), in the recorded body
    ("groq", "error-groq-tool-choice-null.json",
     {"model": "llama-3.3-70b-versatile", "messages": USER, "tools": [TOOL], "tool_choice": "any"}),
    # musistudio/claude-code-router#1207: a function calling config without function declarations
    ("gemini", "error-gemini-function-calling-config-without-declarations.json",
     {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
      "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}}),
    # nashsu/llm_wiki#49: a top-level field GenerateContentRequest has not, with its BadRequest details
    ("gemini", "error-gemini-unknown-field.json",
     {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "temperature": 0.7}),
    # zed-industries/zed#53034: the tool-call id refusal
    ("mistral", "error-mistral-400-tool-call-id.json",
     {"model": "mistral-medium-latest", "messages": [
         *USER, {"role": "assistant", "content": "", "tool_calls": [
             {"id": "toolu_01VpEm654HvfMoRcrE3Hgdc6", "type": "function",
              "function": {"name": "get_time", "arguments": "{}"}}]},
         {"role": "tool", "tool_call_id": "toolu_01VpEm654HvfMoRcrE3Hgdc6", "content": "12:00"}], "tools": [TOOL]}),
]


@pytest.mark.parametrize(("provider", "recorded", "body"), RECORDED, ids=[r[1].removesuffix(".json") for r in RECORDED])
def test_the_400_is_the_recorded_body_field_by_field(provider: str, recorded: str, body: dict[str, Any]) -> None:
    expected = json.loads((ERRORS / recorded).read_text(encoding="utf-8"))
    path = "/v1beta/models/gemini-2.5-flash:generateContent" if provider == "gemini" else "/v1/chat/completions"
    status, reply, record = ask(provider, body, path)
    assert status == 400 and reply == expected
    assert codes(record)  # the line still says why, in toolchoice's words


def test_claudes_top_level_anyof_refusal_is_the_recorded_body() -> None:
    """anthropics/claude-code#44788: the 400 names the tool by its index, tools.12 there (the mock said toolchoice's
    line quoting the words); the request_id is the mock's own."""
    expected = json.loads((ERRORS / "error-anthropic-top-level-anyof.json").read_text(encoding="utf-8"))
    tools = [{**CLAUDE_TOOL, "name": f"tool_{i}"} for i in range(12)]
    tools.append({"name": "pick", "input_schema": {"anyOf": [{"type": "object"}, {"type": "object"}]}})
    status, reply, record = ask("anthropic", {"model": "claude-sonnet-4-6", "max_tokens": 64, "messages": USER,
                                              "tools": tools}, "/v1/messages")
    assert status == 400 and {**reply, "request_id": None} == {**expected, "request_id": None}
    assert "schema.rejected" in codes(record)  # toolchoice's advice stays a finding


def test_a_body_that_is_not_json_in_the_apis_recorded_words() -> None:
    """OpenAI: the whole body of ChatGPTNextWeb/NextChat#4064 (the mock said only its first sentence). Anthropic:
    'The request body is not valid JSON: ' and the parser's complaint, invalid_request_error
    (anthropics/claude-code#8272: '... no low surrogate in string: line 1 column 37589 (char 37588)'; the complaint is
    the mock's parser's)."""
    exchange = MockService("openai").handle("POST", "/v1/chat/completions", {}, b"{not json")
    expected = json.loads((ERRORS / "error-openai-unparsed-json.json").read_text(encoding="utf-8"))
    assert exchange.status == 400 and json.loads(exchange.body) == expected
    exchange = MockService("anthropic").handle("POST", "/v1/messages", {}, b"{not json")
    reply = json.loads(exchange.body)
    assert exchange.status == 400 and reply["error"]["type"] == "invalid_request_error"
    assert reply["error"]["message"].startswith("The request body is not valid JSON: ")
    assert reply["error"]["message"].endswith("line 1 column 2 (char 1)")


def test_responses_required_without_tools_in_the_apis_recorded_words() -> None:
    """anomalyco/opencode#48857 (live, gpt-4.1-mini): 'Responses: `Tool choice 'required' must be specified with 'tools'
    parameter.`' (fact openai-responses.tool_choice_without_tools); the mock said toolchoice's line quoting it. The
    ledger's line, with its advice, stays a finding."""
    status, reply, record = ask("openai-responses", {"model": "gpt-4.1-mini", "input": "hi", "tool_choice": "required"},
                                "/v1/responses")
    assert status == 400
    assert reply["error"]["message"] == "Tool choice 'required' must be specified with 'tools' parameter."
    advice = [f for f in record["findings"] if f["code"] == "tool_choice.without_tools"]
    assert advice and "declare the tools" in advice[0]["message"]


def test_azures_refusal_without_tools_names_the_param_its_recording_names() -> None:
    """Azure/azure-sdk-for-net#45598 (fact azure.tool_choice_without_tools): 'HTTP 400 (invalid_request_error: )
    Parameter: tool_choice Invalid value for 'tool_choice': ...'."""
    status, reply, _ = ask("azure", {"model": "gpt-4o", "messages": USER, "tool_choice": "none"})
    assert status == 400 and reply["error"]["type"] == "invalid_request_error"
    assert reply["error"]["param"] == "tool_choice"


def test_without_a_recorded_body_the_envelope_keeps_its_defaults() -> None:
    """Groq's qwen/qwen3-32b 400 is recorded as words only (earendil-works/pi#1745): Groq's recorded shape, {message,
    type}; gpt-6-astra on api.openai.com has no recorded body: the ledger's line, param null."""
    status, reply, _ = ask("groq", {"model": "qwen/qwen3-32b", "messages": USER, "reasoning_effort": "high"})
    assert status == 400 and set(reply["error"]) == {"message", "type"}
    status, reply, _ = ask("openai", {"model": "gpt-6-astra", "messages": USER, "tools": [TOOL]})
    assert status == 400 and reply["error"]["param"] is None


def test_every_recorded_envelope_reaches_a_family_that_writes_it() -> None:
    """A row's envelope is written by its family's mock_error(fields=...): a family that does not take them would
    fail the request (a TypeError answered as the mock's 500)."""
    import inspect

    from toolchoice.providers.core.facts import FACTS
    from toolchoice.providers.core.fact_values import refusals
    from toolchoice.providers.core.registry import mock_family

    rows = [row for dated in FACTS for row in refusals(dated.value) if row.envelope]
    # OpenAI's and Azure's tools-with-effort rows (5), Mistral Small's effort 400, OpenAI's tool_choice of another
    # API's shape (param tool_choice.function, code missing_required_parameter: core/choice_shape_words.py), OpenAI's
    # string it has not (param tool_choice, code invalid_value; Chat Completions and Responses: trial19h)
    assert len(rows) == 8
    for row in rows:
        assert all(isinstance(name, str) and name != "message" for name, _ in row.envelope), row
        for provider in row.providers:
            assert "fields" in inspect.signature(mock_family(provider).mock_error).parameters, (provider, row.code)
