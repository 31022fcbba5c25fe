"""A tool_choice with no tools declared, per provider: refused only where the API's own source says the API refuses
it (the ledger quotes that source's words), otherwise sent as written (a forcing choice with a warning that the model
cannot call a tool). The truth is outside the code: the words each API answered, as recorded in public issues or read
in its server's source (the dated facts ``*.tool_choice_without_tools``, core/facts.py), and the SDKs' types for what
is sent.

- OpenAI chat: "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified." for
  "auto" (dapr/dapr-agents#248), Azure the same for auto and none (Azure/azure-sdk-for-net#45598).
- OpenAI Responses: "Tool choice 'required' must be specified with 'tools' parameter." (anomalyco/opencode#48857).
- Gemini: 400 INVALID_ARGUMENT "Function calling config is set without function_declarations."
  (musistudio/claude-code-router#1207).
- Anthropic Messages (as Amazon Bedrock serves it, through OpenRouter): "tool_choice may only be specified while
  providing tools."
- Bedrock Converse: toolChoice lives in toolConfig, whose tools list is required with at least one member (botocore
  bedrock-runtime service-2.json ToolConfiguration, ToolConfigurationToolsList min 1; Portkey-AI/gateway#1124).
- vLLM: every choice but "none" (check_tool_usage); xAI: "A tool_choice was set on the request but no tools were
  specified." (livekit/agents#3114); llama.cpp takes it (server-common.cpp).
- Cerebras: 400 wrong_api_format "'tool_choice' is only allowed when 'tools' are specified" (juspay/neurolink#1564,
  probed live against api.cerebras.ai, 2026-08-26; the value sent is not recorded, the words name none).
- Mistral: its own request library refuses any, required and a named choice without tools and takes auto and none
  (mistral-common 1.13.1 guidance/grammar_factory.py: 'raise InvalidRequestException(f"No tools provided for tool
  choice `{choice}`")'); no answer of api.mistral.ai itself is recorded, so nothing is refused (2026-11-27).
- Groq, DeepSeek, Fireworks, Together, SambaNova, Hugging Face, Cohere, Ollama: no source found (searched again
  2026-11-27, a fifth time in recorded bodies: pydantic/pydantic-ai's cassettes and llamastack/llama-stack's
  recordings hold no request to these hosts with tool_choice and no tools), so the ledger says it is unsettled.

In-process: the planner, the translators and the mock service (no socket).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.choice_plan import plan_choice
from toolchoice.providers.core.facts import fact
from toolchoice.providers.core.model import Ledger, RenderOptions, Scenario
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario_text

USER = "messages:\n  - {role: user, content: hi}\n"
# the API's words, as quoted by the sources above (not read from the code)
REFUSED_WITH = {
    "openai": "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
    "azure": "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
    "openai-responses": "Tool choice 'required' must be specified with 'tools' parameter.",
    "gemini": "Function calling config is set without function_declarations.",
    "anthropic": "tool_choice may only be specified while providing tools.",
    "bedrock": "Member must have length greater than or equal to 1",
    "vllm": "When using `tool_choice`, `tools` must be set.",
    "xai": "A tool_choice was set on the request but no tools were specified.",
    "cerebras": "'tool_choice' is only allowed when 'tools' are specified",
}
NO_SOURCE = ("groq", "deepseek", "fireworks", "together", "sambanova", "huggingface", "cohere", "ollama")
# mistral-common 1.13.1 guidance/grammar_factory.py _text_grammar_spec, for `any` (what a required choice is sent as)
MISTRAL_LIBRARY = "No tools provided for tool choice `any`"


def without_tools(choice: str) -> Scenario:
    """A scenario whose tool_choice is ``choice`` and that declares no tools (a named or allowed choice loads
    against a declared tool x, which is then taken away)."""
    s = load_scenario_text("tools:\n  - name: x\n" + f"tool_choice: {choice}\n" + USER, "s.yaml")
    return Scenario(path=s.path, tools=(), tool_choice=s.tool_choice, messages=s.messages)


def planned(provider: str, choice: str) -> tuple[Any, Ledger]:
    ledger = Ledger()
    return plan_choice(CAPABILITIES[provider], without_tools(choice), RenderOptions(), ledger), ledger


def entries(ledger: Ledger, code: str = "tool_choice.without_tools") -> list[Any]:
    return [e for e in ledger.entries if e.code == code]


# ---- forcing choices ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("provider", ["openai", "azure", "openai-responses", "gemini", "anthropic", "bedrock", "vllm",
                                      "xai"])
def test_a_forcing_choice_is_refused_where_a_source_says_the_api_refuses_it_in_its_words(provider: str) -> None:
    _, ledger = planned(provider, "required")
    [entry] = entries(ledger)
    assert entry.severity == "error"
    assert REFUSED_WITH[provider] in entry.message


@pytest.mark.parametrize("provider", NO_SOURCE)
@pytest.mark.parametrize("choice", ["required", "{tool: x}", "{allowed: [x], mode: required}"])
def test_a_forcing_choice_is_sent_with_a_warning_where_no_source_says_the_api_refuses_it(provider: str,
                                                                                         choice: str) -> None:
    plan, ledger = planned(provider, choice)
    [entry] = entries(ledger)
    assert entry.severity == "warning"
    assert "cannot call a tool" in entry.message and "no source states" in entry.message
    assert "it is unsettled" in entry.message  # said unsettled, not claimed either way (fifth audit pass, 2026-11-27)
    assert not [e for e in ledger.entries if e.severity == "error"]
    assert plan.tools == ()


@pytest.mark.parametrize("choice", ["required", "{tool: x}", "{allowed: [x], mode: required}"])
def test_mistral_sends_a_forcing_choice_with_its_librarys_words_and_no_refusal(choice: str) -> None:
    """Mistral's own library refuses it, but no answer of the hosted API is recorded: a warning, never a refusal."""
    plan, ledger = planned("mistral", choice)
    [entry] = entries(ledger)
    assert entry.severity == "warning" and "cannot call a tool" in entry.message and "not refused" in entry.message
    assert MISTRAL_LIBRARY in entry.message and "mistral-common 1.13.1" in entry.message
    assert "no answer of api.mistral.ai itself is recorded" in entry.message
    assert not [e for e in ledger.entries if e.severity == "error"]
    t = translate("mistral", without_tools("required"), RenderOptions())
    assert t.request.body["tool_choice"] == "any" and "tools" not in t.request.body


def test_mistral_auto_and_none_say_its_library_takes_them() -> None:
    for choice in ("auto", "none"):
        [entry] = entries(planned("mistral", choice)[1])
        assert entry.severity == "info" and "takes auto and none" in entry.message


def test_llamacpp_and_openrouter_say_what_their_source_says_instead() -> None:
    for provider, says in (("llamacpp", "llama-server takes it"), ("openrouter", "passes it on to the upstream")):
        _, ledger = planned(provider, "required")
        [entry] = entries(ledger)
        assert entry.severity == "warning" and says in entry.message and "cannot call a tool" in entry.message


def test_responses_refuses_required_only_a_named_choice_is_not_known_refused() -> None:
    _, ledger = planned("openai-responses", "{tool: x}")
    assert [e.severity for e in entries(ledger)] == ["warning"]


# ---- auto and none -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("provider, choice", [("openai", "auto"), ("openai", "none"), ("azure", "none"),
                                              ("gemini", "none"), ("anthropic", "auto"), ("bedrock", "auto"),
                                              ("vllm", "auto"), ("xai", "none"), ("cerebras", "auto"),
                                              ("cerebras", "none")])
def test_auto_or_none_is_omitted_where_a_source_says_the_api_refuses_it(provider: str, choice: str) -> None:
    plan, ledger = planned(provider, choice)
    assert plan.mode == "unset"
    [entry] = entries(ledger)
    assert entry.severity == "info" and "omitted" in entry.message and REFUSED_WITH[provider] in entry.message
    assert "OpenAI-style" not in entry.message


@pytest.mark.parametrize("provider", ["mistral", "groq", "deepseek", "together", "huggingface", "openrouter",
                                      "llamacpp"])
@pytest.mark.parametrize("choice", ["auto", "none"])
def test_auto_or_none_is_sent_as_written_where_no_source_says_the_api_refuses_it(provider: str, choice: str) -> None:
    t = translate(provider, without_tools(choice), RenderOptions())
    assert t.request.body["tool_choice"] == choice  # openai_chat hosts' words (SDK types: "none" | "auto")
    assert "tools" not in t.request.body
    [entry] = [e for e in t.ledger if e.code == "tool_choice.without_tools"]
    assert entry.severity == "info" and "sent as written" in entry.message
    assert ("it is unsettled" in entry.message) == (CAPABILITIES[provider].without_tools is None)


def test_vllm_takes_none_without_tools_so_none_is_sent() -> None:
    """check_tool_usage: 'if "tool_choice" is "none" -- no validation is needed for tools'."""
    t = translate("vllm", without_tools("none"), RenderOptions())
    assert t.request.body["tool_choice"] == "none"
    assert not t.refused


# ---- what goes on the wire where nothing refuses it ------------------------------------------------------------

@pytest.mark.parametrize("provider, wire", [
    ("mistral", "any"),  # mistralai ToolChoiceEnum: "auto" | "none" | "any" | "required"
    ("groq", "required"), ("deepseek", "required"), ("huggingface", "required"), ("llamacpp", "required"),
])
def test_required_without_tools_is_sent_as_the_rows_word(provider: str, wire: str) -> None:
    t = translate(provider, without_tools("required"), RenderOptions())
    assert not t.refused
    assert t.request.body["tool_choice"] == wire and "tools" not in t.request.body


def test_a_named_choice_without_tools_is_sent_to_mistral_as_written() -> None:
    t = translate("mistral", without_tools("{tool: x}"), RenderOptions())
    assert not t.refused
    assert t.request.body["tool_choice"] == {"type": "function", "function": {"name": "x"}}


def test_cohere_required_without_tools_is_sent_as_required() -> None:
    """cohere 7.3.1 V2ChatRequestToolChoice: 'REQUIRED' | 'NONE'."""
    t = translate("cohere", without_tools("required"), RenderOptions())
    assert not t.refused and t.request.body["tool_choice"] == "REQUIRED"


@pytest.mark.parametrize("provider", ["openai", "gemini", "anthropic", "bedrock", "cerebras"])
def test_refused_forcing_choices_still_refuse_the_request(provider: str) -> None:
    assert translate(provider, without_tools("required"), RenderOptions()).refused


# ---- the rows and their dated facts ------------------------------------------------------------------------------

def test_each_rows_rule_names_its_dated_fact_which_quotes_the_words() -> None:
    ruled = {p: row.without_tools for p, row in CAPABILITIES.items() if row.without_tools is not None}
    assert set(ruled) == set(REFUSED_WITH) | {"llamacpp", "openrouter", "mistral"}
    for provider, rule in ruled.items():
        dated = fact(rule.fact)
        assert provider in dated.providers and dated.verified == ("2026-11-27" if provider in ("mistral", "cerebras") else "2026-11-26")
        source = dated.source.replace('\\"', '"')
        if rule.refused:
            assert REFUSED_WITH[provider] in rule.words
            assert rule.words.removesuffix(" (parameter=tool_choice)") in source or REFUSED_WITH[provider] in source
        else:
            assert rule.takes and not rule.words
    assert "No tools provided for tool choice `{choice}`" in fact("mistral.tool_choice_without_tools").source.replace(
        '\\"', '"')  # the library's words, read in mistral-common 1.13.1


# ---- the mock agrees with the translator -------------------------------------------------------------------------

def ask(provider: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    from toolchoice.providers.core.mock.service import MockService

    exchange = MockService(provider).handle("POST", path, {}, json.dumps(body).encode())
    return exchange.status, exchange.record


CHAT = "/v1/chat/completions"
USER_MSG = [{"role": "user", "content": "hi"}]


NAMED = {"type": "function", "function": {"name": "get_time"}}
OPEN_HOSTS = ("mistral", "groq", "deepseek", "fireworks", "together", "openrouter", "sambanova", "huggingface")


# llama-server reads a tool_choice that is not a string as "auto" (fact llamacpp.tool_choice_words): no named case
@pytest.mark.parametrize("provider, choice", [(p, "required") for p in (*OPEN_HOSTS, "llamacpp")]
                         + [(p, NAMED) for p in OPEN_HOSTS])
def test_the_mock_answers_a_forcing_choice_without_tools_where_the_translator_sends_it(provider: str,
                                                                                       choice: Any) -> None:
    status, record = ask(provider, CHAT, {"model": "m", "messages": USER_MSG, "tool_choice": choice})
    assert status == 200
    found = [f for f in record["findings"] if f["code"] == "tool_choice.without_tools"]
    assert found and found[0]["severity"] == "warning"


def test_the_mock_refuses_anthropic_and_gemini_as_their_translators_do() -> None:
    status, record = ask("anthropic", "/v1/messages", {"model": "claude-sonnet-5", "max_tokens": 10,
                                                       "messages": USER_MSG, "tool_choice": {"type": "any"}})
    assert status == 400
    status, record = ask("gemini", "/v1beta/models/gemini-3.5-flash:generateContent",
                         {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
                          "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}})
    assert status == 400


def test_the_mock_answers_cohere_required_without_tools() -> None:
    status, record = ask("cohere", "/v2/chat", {"model": "command-a-03-2025", "messages": USER_MSG,
                                                "tool_choice": "REQUIRED"})
    assert status == 200


def test_the_responses_mock_refuses_required_and_answers_a_named_choice_as_the_translator_does() -> None:
    """anomalyco/opencode#48857 records the refusal of "required" only: a named function is sent (with the warning),
    so the mock answers it rather than refusing it in toolchoice's own words."""
    body = {"model": "gpt-5.4-mini", "input": "hi"}
    status, _ = ask("openai-responses", "/v1/responses", {**body, "tool_choice": "required"})
    assert status == 400
    status, record = ask("openai-responses", "/v1/responses", {**body, "tool_choice": {"type": "function",
                                                                                       "name": "get_time"}})
    assert status == 200
    assert [f["severity"] for f in record["findings"] if f["code"] == "tool_choice.without_tools"] == ["warning"]


def test_the_chat_mocks_refusals_are_the_rows() -> None:
    """One table: the hosts the mock refuses tool_choice without tools for are the rows whose source says so."""
    from toolchoice.providers.openai_chat_mock import WITHOUT_TOOLS

    assert set(WITHOUT_TOOLS) == {"openai", "azure", "vllm", "xai", "cerebras"}
    for provider, rule in WITHOUT_TOOLS.items():
        assert rule is CAPABILITIES[provider].without_tools


CHAT_HOSTS = tuple(p for p, row in CAPABILITIES.items() if row.module == "openai_chat")
WIRE = {"auto": "auto", "none": "none", "required": "required", "{tool: x}": {"type": "function",
                                                                            "function": {"name": "x"}}}


@pytest.mark.parametrize("provider", CHAT_HOSTS)
def test_every_chat_host_mock_refuses_exactly_what_its_translator_refuses_or_leaves_out(provider: str) -> None:
    """The mock answers 400 for a choice without tools exactly where the translator refuses it (forcing) or leaves
    it out because the API refuses it (auto, none); llama-server reads an object as auto, so no named case there."""
    for choice, wire in WIRE.items():
        if provider == "llamacpp" and isinstance(wire, dict):
            continue
        t = translate(provider, without_tools(choice), RenderOptions())
        refused_or_left_out = t.refused or "tool_choice" not in t.request.body
        status, _ = ask(provider, CHAT, {"model": "m", "messages": USER_MSG, "tool_choice": wire})
        assert (status == 400) is refused_or_left_out, (provider, choice)
