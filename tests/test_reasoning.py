"""Reasoning state through the history (issue 11) and model-aware rules (issue 12).

Truth from outside the code: real recorded replies with reasoning state (tests/data/responses/reasoning/,
sources in SOURCES.md), the providers' SDK request types (anthropic ThinkingBlockParam and
RedactedThinkingBlockParam, openai ResponseReasoningItemParam and FunctionCallOutput, google-genai
Part.thought_signature, botocore ReasoningContentBlock) and the providers' documented error texts.

The round trip for each provider: parse the recorded reply, append it to a history with
``history.assistant_message``, answer its calls, render, and find the reasoning state on the wire,
byte-for-byte, in the position the API wants it.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from toolchoice.providers import RenderOptions, load_scenario_text, parse_reply, translate
from toolchoice.providers.core.history import assistant_message
from toolchoice.providers.core.model import Message, ProviderError, Reply, ReasoningItem, ToolchoiceError
from toolchoice.providers.core.model_rules import RULES, resolve
from toolchoice.providers.core.reply import read_reply
from toolchoice.providers.core.verdict import REQUEST_ERROR, verdict

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "responses" / "reasoning"


def recorded(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text())


def tools_yaml(*names: str) -> str:
    return "tools:\n" + "".join(f"  - {{name: {n}, parameters: {{type: object, properties: {{}}}}}}\n" for n in names)


def replay(provider: str, body: dict[str, Any], settings: str = "{}", tool_names: tuple[str, ...] = (),
           options: RenderOptions = RenderOptions(), source: str | None = None):
    """Parse ``body`` (as ``source`` wrote it, default ``provider``), append the reply after a user turn,
    answer each call, render for ``provider``."""
    reply = parse_reply(source or provider, body)
    message = assistant_message(reply, source or provider)
    names = tool_names or tuple(dict.fromkeys(c.name for c in message.tool_calls)) or ("noop",)
    scenario = load_scenario_text(tools_yaml(*names) + "tool_choice: auto\nmessages:\n  - {role: user, content: Go.}\n"
                                  + f"providers:\n  {provider}: {settings}\n")
    results = tuple(Message("tool", content="ok", tool_call_id=c.id, tool_name=c.name) for c in message.tool_calls)
    scenario = scenario._replace(messages=scenario.messages + (message,) + results)
    return reply, translate(provider, scenario, options)


def ledger_text(t) -> str:
    return "\n".join(e.message for e in t.ledger)


# ---- round trips, one per provider family ----------------------------------------------------


def test_anthropic_thinking_block_goes_back_first_and_unchanged():
    body = recorded("anthropic-thinking-tool-use.json")
    reply, t = replay("anthropic", body, "{model: claude-sonnet-4-6, max_tokens: 4096, thinking: true}")
    assert not t.refused, t.ledger
    turn = t.request.body["messages"][1]
    thinking, tool_use = body["content"]
    # ThinkingBlockParam: {type, thinking, signature}, "passed back unmodified and in their original order"
    assert turn["content"][0] == thinking
    assert turn["content"][1] == {k: tool_use[k] for k in ("type", "id", "name", "input")}
    assert thinking["signature"] not in ledger_text(t)


def test_anthropic_redacted_thinking_goes_back_as_data():
    body = {"content": [{"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVy"},
                        {"type": "tool_use", "id": "toolu_1", "name": "ping", "input": {}}], "stop_reason": "tool_use"}
    _, t = replay("anthropic", body, "{model: claude-sonnet-4-6, max_tokens: 4096, thinking: true}")
    assert t.request.body["messages"][1]["content"][0] == body["content"][0]  # RedactedThinkingBlockParam


def test_bedrock_reasoning_content_goes_back_first_and_unchanged():
    body = recorded("bedrock-converse-reasoning.json")
    reply, t = replay("bedrock", body, "{model: us.anthropic.claude-sonnet-4-6, thinking: true, max_tokens: 4096}")
    assert not t.refused, t.ledger
    turn = t.request.body["messages"][1]
    assert turn["role"] == "assistant"
    assert turn["content"] == body["output"]["message"]["content"]  # reasoningContent first, then the text


def test_gemini_3_signature_goes_back_on_its_function_call_part():
    body = recorded("gemini-3-function-call-thought-signature.json")
    reply, t = replay("gemini", body, "{model: gemini-3-pro-preview}")
    part = body["candidates"][0]["content"]["parts"][0]
    wire = t.request.body["contents"][1]["parts"][0]
    assert wire["thoughtSignature"] == part["thoughtSignature"]  # google-genai Part.thought_signature
    assert wire["functionCall"]["name"] == part["functionCall"]["name"]
    assert wire["functionCall"]["args"] == part["functionCall"]["args"]
    assert "history.thought_signature" not in [e.code for e in t.ledger]  # no stand-in: the real one is there
    assert part["thoughtSignature"] not in ledger_text(t)


def test_gemini_3_text_signature_goes_back_on_the_text_part():
    body = recorded("gemini-3-text-thought-signature.json")
    reply = parse_reply("gemini", body)
    message = assistant_message(reply, "gemini")
    scenario = load_scenario_text("messages:\n  - {role: user, content: Go.}\nproviders:\n  gemini: "
                                  "{model: gemini-3-pro-preview}\n")
    scenario = scenario._replace(messages=scenario.messages + (message, Message("user", content="And?")))
    t = translate("gemini", scenario)
    assert t.request.body["contents"][1]["parts"] == body["candidates"][0]["content"]["parts"]


def test_responses_reasoning_item_precedes_its_function_call():
    body = recorded("openai-responses-o3-reasoning-function-call.json")
    reply, t = replay("openai-responses", body, "{model: o3}")
    item, call = body["output"]
    wire = t.request.body["input"]
    assert [i.get("type") for i in wire[1:3]] == ["reasoning", "function_call"]
    # ResponseReasoningItemParam: id and summary required, encrypted_content as returned
    assert {k: wire[1][k] for k in ("id", "summary", "encrypted_content")} == \
        {k: item[k] for k in ("id", "summary", "encrypted_content")}
    assert wire[2]["call_id"] == call["call_id"] and json.loads(wire[2]["arguments"]) == json.loads(call["arguments"])


def test_responses_encrypted_reasoning_and_summary_go_back_whole():
    body = recorded("openai-responses-reasoning-encrypted.json")
    item = body["output"][0]
    reply, t = replay("openai-responses", body, "{model: gpt-5-mini}")
    wire = t.request.body["input"][1]
    assert wire == {"type": "reasoning", "id": item["id"], "summary": item["summary"],
                    "encrypted_content": item["encrypted_content"]}
    assert t.request.body["input"][2]["role"] == "assistant"
    assert item["encrypted_content"] not in ledger_text(t)
    shown = json.dumps(reply.to_json())  # JSON keeps it whole
    assert item["encrypted_content"] in shown


@pytest.mark.parametrize("provider", ["deepseek", "vllm", "llamacpp"])
def test_reasoning_content_goes_back_beside_the_tool_calls(provider):
    body = recorded("deepseek-reasoner-tool-call.json")
    reply, t = replay(provider, body, "{model: deepseek-reasoner}" if provider == "deepseek" else "{}")
    message = body["choices"][0]["message"]
    wire = t.request.body["messages"][1]
    assert wire["reasoning_content"] == message["reasoning_content"]
    assert wire["tool_calls"][0]["id"] == message["tool_calls"][0]["id"]
    assert "pitfall.deepseek_reasoning_content" not in [e.code for e in t.ledger]


def test_hosts_without_reasoning_replay_leave_it_out_with_a_ledger_entry():
    _, t = replay("openai", recorded("deepseek-reasoner-tool-call.json"), "{model: gpt-4o-mini}")
    assert "reasoning_content" not in t.request.body["messages"][1]
    assert "reasoning.not_taken" in [e.code for e in t.ledger]


def test_cohere_thinking_goes_back_as_a_content_item_on_a_text_turn():
    body = recorded("cohere-reasoning.json")
    reply = parse_reply("cohere", body)
    scenario = load_scenario_text("messages:\n  - {role: user, content: 2+2?}\n")
    scenario = scenario._replace(messages=scenario.messages + (assistant_message(reply, "cohere"),
                                                               Message("user", content="And 3+3?")))
    wire = translate("cohere", scenario).request.body["messages"][1]
    assert wire["content"] == body["message"]["content"]  # AssistantMessageV2ContentOneItem: thinking, text


def test_ollama_thinking_goes_back_in_the_message_thinking_field():
    # the /api/chat reply shape of ollama-python ChatResponse / Message.thinking
    body = {"model": "qwen3", "message": {"role": "assistant", "content": "", "thinking": "Use the tool.",
                                          "tool_calls": [{"function": {"name": "ping", "arguments": {}}}]},
            "done": True, "done_reason": "stop"}
    _, t = replay("ollama", body, "{model: qwen3}")
    assert t.request.body["messages"][1]["thinking"] == "Use the tool."


# ---- moving a history across families ---------------------------------------------------------


def test_anthropic_transcript_on_gemini_3_drops_the_block_and_inserts_the_stand_in():
    _, t = replay("gemini", recorded("anthropic-thinking-tool-use.json"), "{model: gemini-3-flash-preview}",
                  source="anthropic")
    part = t.request.body["contents"][1]["parts"][0]
    assert part["thoughtSignature"] == "skip_thought_signature_validator"
    assert {"reasoning.dropped", "history.thought_signature", "rule.applied"} <= {e.code for e in t.ledger}


def test_anthropic_transcript_on_bedrock_with_thinking_is_refused_not_sent_broken():
    _, t = replay("bedrock", recorded("anthropic-thinking-tool-use.json"),
                  "{model: us.anthropic.claude-sonnet-4-6, thinking: true, max_tokens: 4096}", source="anthropic")
    assert t.refused and "thinking.tool_history" in [e.code for e in t.ledger]
    assert "reasoning.dropped" in [e.code for e in t.ledger]


def test_gemini_signature_dropped_elsewhere_with_a_ledger_entry():
    _, t = replay("anthropic", recorded("gemini-3-function-call-thought-signature.json"), source="gemini")
    dropped = [e for e in t.ledger if e.code == "reasoning.dropped"]
    assert dropped and "thoughtSignature" in dropped[0].message
    assert "thoughtSignature" not in json.dumps(t.request.body)


def test_user_override_makes_a_model_need_signatures():
    yaml = (tools_yaml("ping") + "messages:\n  - {role: user, content: Go.}\n  - role: assistant\n    tool_calls: "
            "[{id: c1, name: ping}]\n  - {role: tool, tool_call_id: c1, content: ok}\n")
    plain = translate("gemini", load_scenario_text(yaml + "providers:\n  gemini: {model: my-gemini-tuned}\n"))
    assert "thoughtSignature" not in json.dumps(plain.request.body)
    forced = translate("gemini", load_scenario_text(
        yaml + "providers:\n  gemini: {model: my-gemini-tuned, rules: {signatures_required: true}}\n"))
    assert forced.request.body["contents"][1]["parts"][0]["thoughtSignature"] == "skip_thought_signature_validator"
    assert "your override" in ledger_text(forced)


# ---- the scenario's neutral form and native spellings -------------------------------------------


NATIVE = """\
tools:
  - {name: ping}
messages:
  - {role: user, content: Go.}
  - role: assistant
    reasoning:
      - {type: thinking, thinking: hmm, signature: c2ln}
      - {type: redacted_thinking, data: cmVk}
      - {type: reasoning, id: rs_1, summary: [{type: summary_text, text: s}], encrypted_content: gAAA}
      - {reasoningContent: {reasoningText: {text: t, signature: YmVk}}}
      - {thought: true, text: g, thoughtSignature: Z2Vt}
      - {family: openai-chat, text: rc}
    reasoning_content: more
    tool_calls:
      - {id: c1, name: ping, thoughtSignature: c2ln}
  - {role: tool, tool_call_id: c1, content: ok}
"""


def test_native_spellings_load_into_the_neutral_form():
    message = load_scenario_text(NATIVE).messages[1]
    assert [i.to_json() for i in message.reasoning] == [
        {"family": "anthropic", "text": "hmm", "signature": "c2ln"},
        {"family": "anthropic", "encrypted": "cmVk", "redacted": True},
        {"family": "openai-responses", "id": "rs_1", "encrypted": "gAAA", "summary": ["s"]},
        {"family": "bedrock", "text": "t", "signature": "YmVk"},
        {"family": "gemini", "text": "g", "signature": "Z2Vt"},
        {"family": "openai-chat", "text": "rc"},
        {"family": "openai-chat", "text": "more"},
    ]
    assert message.tool_calls[0].signature == "c2ln"


@pytest.mark.parametrize("bad, where, words", [
    ("    reasoning: [{text: x}]\n", 6, "needs family"),
    ("    reasoning: [{family: claude, text: x}]\n", 6, "unknown reasoning family"),
    ("    reasoning: [{family: anthropic}]\n", 6, "needs text, signature or encrypted"),
    ("    reasoning: [{type: thinking, thinking: x, signatur: y}]\n", 6, "unknown key 'signatur'"),
    ("    reasoning: [{family: gemini, text: x, position: 5}]\n", 6, "position must be"),
])
def test_bad_reasoning_items_name_the_line(bad, where, words):
    yaml = ("tools:\n  - {name: ping}\nmessages:\n  - {role: user, content: Go.}\n  - role: assistant\n" + bad
            + "    tool_calls: [{id: c1, name: ping}]\n")
    with pytest.raises(ToolchoiceError) as caught:
        load_scenario_text(yaml, "s.yaml")
    assert caught.value.line == where and words in caught.value.message


def test_tool_result_content_parts_go_to_responses_as_a_list():
    yaml = (tools_yaml("ping") + "messages:\n  - {role: user, content: Go.}\n  - role: assistant\n    tool_calls: "
            "[{id: c1, name: ping}]\n  - role: tool\n    tool_call_id: c1\n    content: [{type: input_text, text: pong}]\n")
    scenario = load_scenario_text(yaml)
    wire = translate("openai-responses", scenario).request.body["input"][2]
    assert wire == {"type": "function_call_output", "call_id": "c1", "output": [{"type": "input_text", "text": "pong"}]}
    assert translate("openai", scenario).request.body["messages"][2]["content"] == \
        '[{"type": "input_text", "text": "pong"}]'  # chat hosts keep today's JSON text


def test_reply_json_is_unchanged_without_reasoning():
    reply = Reply()
    assert "reasoning" not in reply.to_json()
    assert "signature" not in parse_reply("openai", recorded("deepseek-reasoner-tool-call.json")).tool_calls[0].to_json()


def test_assistant_message_refuses_an_error_reply():
    with pytest.raises(ToolchoiceError):
        assistant_message(Reply(error=ProviderError(400, "x", "bad")), "openai")


# ---- the neutral thinking setting -----------------------------------------------------------------


def body_for(provider: str, settings: str, choice: str = "auto") -> tuple[dict[str, Any] | None, list[str]]:
    t = translate(provider, load_scenario_text(tools_yaml("ping") + f"tool_choice: {choice}\nmessages:\n"
                                               f"  - {{role: user, content: Go.}}\nproviders:\n  {provider}: {settings}\n"))
    return (t.request.body if t.request else None), [e.code for e in t.ledger]


def test_anthropic_thinking_forms_follow_the_model():
    body, _ = body_for("anthropic", "{model: claude-opus-4-7, thinking: true}")
    assert body["thinking"] == {"type": "adaptive"}  # Opus 4.7 rejects enabled (thinking-troubleshooting table)
    body, _ = body_for("anthropic", "{model: claude-sonnet-4-6, thinking: {budget: 2048}, max_tokens: 4096}")
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    body, _ = body_for("anthropic", "{model: claude-sonnet-4-6, thinking: {type: adaptive, effort: medium}}")
    assert body["thinking"] == {"type": "adaptive"} and body["output_config"] == {"effort": "medium"}
    body, codes = body_for("anthropic", "{model: claude-haiku-4-5, thinking: adaptive}")
    assert body is None and "thinking.form" in codes  # 4.5 rejects adaptive


def test_forced_choice_lint_runs_on_the_final_body():
    body, codes = body_for("anthropic", "{model: claude-sonnet-4-5, max_tokens: 4096, extra: {thinking: "
                           "{type: enabled, budget_tokens: 2048}}}", choice="required")
    assert body is None and "thinking.forced_choice" in codes  # extra cannot slip the conflict past the lint


def test_other_providers_map_the_thinking_setting():
    assert body_for("gemini", "{thinking: {budget: 512}}")[0]["generationConfig"]["thinkingConfig"] == \
        {"thinkingBudget": 512}
    assert body_for("gemini", "{model: gemini-3-pro-preview, thinking: {effort: low}}")[0]["generationConfig"][
        "thinkingConfig"] == {"thinkingLevel": "LOW"}  # google-genai ThinkingLevel.LOW
    assert body_for("openai-responses", "{thinking: {effort: high}}")[0]["reasoning"] == {"effort": "high"}
    assert body_for("deepseek", "{thinking: {effort: max}}")[0]["reasoning_effort"] == "max"


def test_gpt_5_6_on_azure_refuses_an_effort_with_tools_and_sends_none_or_absent_as_written():
    """Audit 2026-11-27, ninth pass (docs/fact-audit.md): every source for gpt-5.6 on Azure says an effort other than
    'none' is the 400 with function tools (anomalyco/opencode#40257 'medium'; agentgateway/agentgateway#2894 "even if
    it is none"; Microsoft's page as copies quote it: 'none' the only value); on 'none' and on leaving it out they
    disagree. Until the ninth pass an effort was sent with the unstated note: now it is refused; 'none' is never
    added, and 'none' or no effort is sent as written and said."""
    body, codes = body_for("azure", "{model: gpt-5.6-luna}")
    assert body is not None and "reasoning_effort" not in body
    assert "model_rule.unstated" in codes and "thinking.effort_for_tools" not in codes
    body, codes = body_for("azure", "{model: gpt-5.6-luna, thinking: {effort: none}}")
    assert body is not None and body["reasoning_effort"] == "none" and "model_rule.unstated" in codes
    body, codes = body_for("azure", "{model: gpt-5.6-sol, thinking: {effort: medium}}")
    assert body is None and "thinking.effort_for_tools" in codes
    body, codes = body_for("openai", "{model: gpt-5.6-luna}")  # api.openai.com's recorded rule still holds
    assert body["reasoning_effort"] == "none" and "thinking.effort_for_tools" in codes


def test_gpt_5_6_tools_on_chat_get_reasoning_effort_none():
    body, codes = body_for("openai", "{model: gpt-5.6}")
    assert body["reasoning_effort"] == "none" and "thinking.effort_for_tools" in codes
    body, codes = body_for("openai", "{model: gpt-5.4, thinking: {effort: low}}")
    assert body is None and "thinking.effort_for_tools" in codes
    body, codes = body_for("openai", "{model: gpt-5.4}")
    assert "reasoning_effort" not in body  # absent is accepted on 5.2-5.5



def test_gpt_5_5_on_openai_refuses_an_effort_with_tools_and_sends_none_or_absent_as_written():
    """Audit 2026-11-27, tenth pass (docs/fact-audit.md): gpt-5.5's 400 for an effort with tools is recorded
    (charmbracelet/crush#2913, Science-Discovery/Aether#1026), but the one recording of leaving the effort out on
    api.openai.com is the same 400 (jeffdafoe/llm-memory-api#178, 'the constraint trips even when reasoning_effort
    isn't in the request body') and none records 'none' taken: until the tenth pass both were sent with no word, as
    the gpt-5.2-5.5 family's 'absent is accepted' (recorded for 5.2 and 5.4) said. Now both are sent as written and
    said; gpt-5.4 and gpt-5.5 on Azure keep the family's rule."""
    body, codes = body_for("openai", "{model: gpt-5.5}")
    assert body is not None and "reasoning_effort" not in body and "model_rule.unstated" in codes
    body, codes = body_for("openai", "{model: gpt-5.5, thinking: {effort: none}}")
    assert body is not None and body["reasoning_effort"] == "none" and "model_rule.unstated" in codes
    body, codes = body_for("openai", "{model: gpt-5.5-2026-04-23, thinking: {effort: low}}")
    assert body is None and "thinking.effort_for_tools" in codes
    for provider, model in (("openai", "gpt-5.4"), ("azure", "gpt-5.5")):
        body, codes = body_for(provider, f"{{model: {model}}}")
        assert body is not None and "reasoning_effort" not in body and "model_rule.unstated" not in codes, model


# genkit-ai/genkit#6303 (2026-09-08, a live run on /v1/chat/completions with one function tool): "400 Function tools
# with reasoning_effort are not supported for gpt-6-astra in /v1/chat/completions. ..." and "The same error came back
# at low and xhigh, and reasoning_effort: 'none' was itself rejected"; BerriAI/litellm#39631 (2026-09-03): "a
# get_weather function tool and no reasoning_effort and get a 400 from OpenAI". Every recorded case is the 400.
ASTRA_RECORDED_400 = ["{model: gpt-6-astra}", "{model: gpt-6-astra, thinking: {effort: low}}",
                      "{model: gpt-6-astra, thinking: {effort: xhigh}}", "{model: gpt-6-astra, thinking: {effort: none}}"]


@pytest.mark.parametrize("settings", ASTRA_RECORDED_400)
def test_gpt_6_astra_with_function_tools_on_chat_is_refused_whatever_the_effort(settings):
    body, codes = body_for("openai", settings)
    assert body is None and "thinking.effort_for_tools" in codes


def test_gpt_6_astra_elsewhere_is_not_refused_on_a_guess():
    # Wei-Shaw/sub2api#6740 (2026-09-07): the same 400 on chat completions, then "强制responses没问题了" (forced to
    # Responses, no problem): Responses takes the tools with an effort
    body, codes = body_for("openai-responses", "{model: gpt-6-astra, thinking: {effort: high}}")
    assert body is not None and body["reasoning"] == {"effort": "high"}
    body, codes = body_for("openai", "{model: gpt-6.2-astra}")  # a sibling no recording speaks for: unknown, sent
    assert body is not None and "reasoning_effort" not in body and "model_rule.unknown" in codes


# gpt-6-astra on Azure Chat Completions with a function tool, as recorded: no effort, can1357/oh-my-pi#11052
# (2026-09-06, "omp sends tools with no reasoning_effort on the wire") and microsoft/simplechat
# GPT6_ASTRA_MODEL_CATALOG_FIX.md (observed 2026-10-01, "Not set (model default)"); "low", simplechat ("Rejected with
# the same error") and danny-avila/LibreChat#15844 (2026-09-11); "medium", maximhq/bifrost#7275 (2026-09-17, Azure
# Foundry: "Chat + tools + `medium` (or omitted effort) → Azure 400"). Each is the 400.
AZURE_ASTRA_RECORDED_400 = ["{model: gpt-6-astra}", "{model: gpt-6-astra, thinking: {effort: low}}",
                            "{model: gpt-6-astra, thinking: {effort: medium}}"]


@pytest.mark.parametrize("settings", AZURE_ASTRA_RECORDED_400)
def test_gpt_6_astra_on_azure_refuses_tools_with_no_effort_or_an_effort(settings):
    body, codes = body_for("azure", settings)  # emulation is on: 'none' is not added (gpt-5.6 on OpenAI only)
    assert body is None and "thinking.effort_for_tools" in codes
    assert "model_rule.unknown" not in codes  # known on Azure now: rule azure-gpt-6-astra-tools-effort


def test_gpt_6_astra_on_azure_sends_none_as_written_since_its_sources_disagree():
    """'none' with tools on Azure: bifrost#7275 ("`reasoning_effort` does not support `none`") and simplechat
    ("'reasoning_effort' does not support 'none' with this model") record it refused; Microsoft's reasoning page marks
    gpt-6-astra's effort "(including `none`)" and Foundry's azure_ai route lists 'none' (BerriAI/litellm#39983). No
    recording shows it taken with tools: sent as written, said unstated; never added to a request that left it out."""
    body, codes = body_for("azure", "{model: gpt-6-astra, thinking: {effort: none}}")
    assert body is not None and body["reasoning_effort"] == "none"
    assert "model_rule.unstated" in codes and "thinking.effort_for_tools" not in codes


def test_gpt_6_sol_refuses_an_effort_with_tools_and_leaves_the_rest_as_written():
    """onyx-dot-app/onyx#15008 (2026-09-23, through LiteLLM's OpenAI route): "Function tools with reasoning_effort are
    not supported for gpt-6-sol in /v1/chat/completions. To use function tools, use /v1/responses or set
    reasoning_effort to 'none'." An effort is the 400. What that request carried is not recorded, and the advice
    ('none') is itself a 400 on gpt-6-astra: 'none' and leaving it out are sent as written and said unstated."""
    body, codes = body_for("openai", "{model: gpt-6-sol, thinking: {effort: high}}")
    assert body is None and "thinking.effort_for_tools" in codes
    body, codes = body_for("openai", "{model: gpt-6-sol, thinking: {effort: none}}")
    assert body is not None and body["reasoning_effort"] == "none" and "model_rule.unstated" in codes
    body, codes = body_for("openai", "{model: gpt-6-sol}")
    assert body is not None and "reasoning_effort" not in body and "model_rule.unstated" in codes
    assert "thinking.effort_for_tools" not in codes



# gpt-6.1-sol on Chat Completions with a function tool (audit 2026-11-27, eighth pass): left out, a public client's
# OpenAI provider that sends no reasoning_effort, "confirmed on this key": "Function tools with reasoning_effort are not
# supported for gpt-6.1-sol in /v1/chat/completions. ..." and "'none' is itself rejected for that model (\"Supported
# values are: 'low', 'medium', 'high', and 'xhigh'\")"; an effort, the frigate discussion #24555 as quoted in a
# research note: the same 400 after 'none' was refused. Every case is the 400, as on gpt-6-astra.
SOL_6_1_RECORDED_400 = ["{model: gpt-6.1-sol}", "{model: gpt-6.1-sol, thinking: {effort: high}}",
                        "{model: gpt-6.1-sol, thinking: {effort: none}}"]


@pytest.mark.parametrize("settings", SOL_6_1_RECORDED_400)
def test_gpt_6_1_sol_with_function_tools_on_chat_is_refused_whatever_the_effort(settings):
    body, codes = body_for("openai", settings)
    assert body is None and "thinking.effort_for_tools" in codes and "model_rule.unknown" not in codes


def test_gpt_6_luna_refuses_an_effort_with_tools_takes_none_and_leaves_absent_as_written():
    """gpt-6-luna (eighth pass): an effort with tools is the 400 ('Function tools with reasoning_effort are not
    supported for gpt-6-luna in /v1/chat/completions. ...', moltis-org/moltis#1298; 'high' in a client's recorded
    LiteLLM error); 'none' with tools was taken live ('all HTTP 200', a verification record of 2026-10-02); what the
    first, refused call carried is not recorded, so leaving the effort out is sent as written and said, never changed."""
    body, codes = body_for("openai", "{model: gpt-6-luna, thinking: {effort: high}}")
    assert body is None and "thinking.effort_for_tools" in codes
    body, codes = body_for("openai", "{model: gpt-6-luna, thinking: {effort: none}}")
    assert body is not None and body["reasoning_effort"] == "none"
    assert "model_rule.unstated" not in codes and "thinking.effort_for_tools" not in codes
    body, codes = body_for("openai", "{model: gpt-6-luna}")
    assert body is not None and "reasoning_effort" not in body and "model_rule.unstated" in codes
    assert "thinking.effort_for_tools" not in codes
    body, codes = body_for("openai", "{model: gpt-6.1-terra}")  # a sibling no recording speaks for: unknown, sent
    assert body is not None and "reasoning_effort" not in body and "model_rule.unknown" in codes

# ---- verdicts ----------------------------------------------------------------------------------


@pytest.mark.parametrize("provider, name, status", [
    ("gemini", "error-gemini-missing-thought-signature.json", 400),
    ("deepseek", "error-deepseek-missing-reasoning-content.json", 400),
])
def test_refusals_for_missing_reasoning_are_request_errors(provider, name, status):
    scenario = load_scenario_text(tools_yaml("ping") + "tool_choice: required\nmessages:\n  - {role: user, content: Go.}\n")
    reply = read_reply(provider, status, recorded(name))
    judged = verdict(scenario, reply, translate(provider, scenario))
    assert judged["category"] == REQUEST_ERROR and not judged["obeyed"]


def test_missing_thought_signature_finish_reason_is_a_request_error():
    scenario = load_scenario_text(tools_yaml("ping") + "tool_choice: required\nmessages:\n  - {role: user, content: Go.}\n")
    reply = parse_reply("gemini", {"candidates": [{"finishReason": "MISSING_THOUGHT_SIGNATURE"}]})
    assert verdict(scenario, reply)["category"] == REQUEST_ERROR  # google-genai FinishReason


# ---- rules data and output -----------------------------------------------------------------------


def test_every_rule_has_a_source_and_a_date():
    for rule in RULES:
        assert rule.source.strip() and len(rule.verified) == 10 and rule.verified[4] == "-", rule.name


def test_rules_follow_the_anthropic_table():
    # platform.claude.com thinking-troubleshooting: model -> (form, default on)
    table = {"claude-fable-5": ("adaptive", True), "claude-opus-5": ("adaptive", True),
             "claude-opus-4-7": ("adaptive", False), "claude-sonnet-4-6": ("both", False),
             "claude-haiku-4-5-20251001": ("enabled", False), "claude-opus-4-1-20250805": ("enabled", False),
             "claude-3-5-haiku-20241022": ("none", None)}
    for model, (form, default) in table.items():
        facts = resolve("anthropic", model)
        assert facts["thinking_form"].value == form, model
        assert (facts["thinking_default"].value if "thinking_default" in facts else None) == default, model


def test_providers_model_prints_the_rules(tmp_path):
    result = run_cli(["providers", "--model", "gemini-3-pro-preview", "--format", "json"], cwd=ROOT)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    gemini = next(d for d in data if d["provider"] == "gemini")
    assert {"fact": "signatures_required", "value": True} == {k: gemini["facts"][0][k] for k in ("fact", "value")}


def test_pretty_output_shortens_signatures_json_keeps_them():
    from toolchoice.cli.output import shorten_opaque

    thinking = recorded("anthropic-thinking-tool-use.json")["content"][0]
    shown = shorten_opaque({"content": [thinking]})
    assert shown["content"][0]["signature"].startswith(thinking["signature"][:12])
    assert thinking["signature"] not in json.dumps(shown) and "chars)" in shown["content"][0]["signature"]
    assert shorten_opaque({"thoughtSignature": "skip_thought_signature_validator"}) == \
        {"thoughtSignature": "skip_thought_signature_validator"}


def test_items_keep_their_place_between_interleaved_calls():
    items = (ReasoningItem("anthropic", text="a", signature="s1"), ReasoningItem("anthropic", text="b", signature="s2",
                                                                                  position=1))
    scenario = load_scenario_text(tools_yaml("one", "two") + "messages:\n  - {role: user, content: Go.}\n"
                                  "providers:\n  anthropic: {model: claude-sonnet-4-6, thinking: true, max_tokens: 4096}\n")
    message = Message("assistant", tool_calls=tuple(
        __import__("toolchoice.providers.core.model", fromlist=["HistoryCall"]).HistoryCall(f"c{i}", n, {})
        for i, n in enumerate(("one", "two"))), reasoning=items)
    results = tuple(Message("tool", content="ok", tool_call_id=f"c{i}", tool_name=n) for i, n in enumerate(("one", "two")))
    t = translate("anthropic", scenario._replace(messages=scenario.messages + (message,) + results))
    kinds = [b["type"] for b in t.request.body["messages"][1]["content"]]
    assert kinds == ["thinking", "tool_use", "thinking", "tool_use"]


# ---- the official SDKs' request types (run when the SDKs are installed: the `test` extra) ----------


def _replayed_bodies():
    cases = [("anthropic", "anthropic-thinking-tool-use.json", "{model: claude-sonnet-4-6, max_tokens: 4096, thinking: true}"),
             ("bedrock", "bedrock-converse-reasoning.json", "{model: us.anthropic.claude-sonnet-4-6, max_tokens: 4096}"),
             ("gemini", "gemini-3-function-call-thought-signature.json", "{model: gemini-3-pro-preview}"),
             ("openai-responses", "openai-responses-o3-reasoning-function-call.json", "{model: o3}"),
             ("openai-responses", "openai-responses-reasoning-encrypted.json", "{model: gpt-5-mini}")]
    for provider, name, settings in cases:
        yield provider, replay(provider, recorded(name), settings)[1].request.body


@functools.cache
def _adapter(params: Any) -> Any:
    """pydantic's validator for an SDK's request TypedDict, built once (~0.1 s for the Responses type)."""
    import pydantic

    return pydantic.TypeAdapter(params)


@pytest.mark.parametrize("provider, body", list(_replayed_bodies()), ids=lambda v: v if isinstance(v, str) else "")
def test_replayed_reasoning_validates_against_the_sdk_request_types(provider, body):
    pydantic = pytest.importorskip("pydantic")
    if provider == "anthropic":
        types = pytest.importorskip("anthropic.types.message_create_params")
        _adapter(types.MessageCreateParamsNonStreaming).validate_python(body)
    elif provider == "openai-responses":
        types = pytest.importorskip("openai.types.responses.response_create_params")
        _adapter(types.ResponseCreateParamsNonStreaming).validate_python(body)
    elif provider == "gemini":
        genai = pytest.importorskip("google.genai.types")
        for content in body["contents"]:  # google-genai models refuse unknown keys (extra='forbid')
            genai.Content.model_validate(content)
    else:
        pytest.importorskip("botocore.session")
        from botocore.validate import ParamValidator
        from sdk_types import converse_input_shape

        report = ParamValidator().validate({"modelId": "m", **body}, converse_input_shape())  # unknown keys are errors here
        assert not report.has_errors(), report.generate_report()
