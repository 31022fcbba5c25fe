"""The sixteenth fact-audit pass (2026-11-28, docs/fact-audit.md).

DeepSeek's own integration guide (api-docs.deepseek.com/quick_start/agent_integrations/oh_my_pi; its source
deepseek-ai/awesome-deepseek-agent docs/oh-my-pi.md at 9ae3920) says "DeepSeek V4 thinking mode rejects the
`tool_choice` parameter." of every value, while the API's recorded 400s ("Thinking mode does not support this
tool_choice") are of forcing values only: `auto` and `none` in thinking mode are sent as written and warned, never
refused, and nothing is said where thinking is off or the user states the fact.

Google's thought-signatures page requires signatures of Gemini 3 ("When using Gemini 3 models, you must pass back
thought signatures during function calling"), while the API's 400 for an unsigned call is recorded on
gemini-2.5-flash (rowboatlabs/rowboat#694): for Gemini 2.5 whether unsigned history calls are refused is unstated,
so they are sent as written and the ledger says so (it said nothing before).
"""

from __future__ import annotations

import json

import pytest

from toolchoice.providers import load_scenario_text, translate
from toolchoice.providers.core import model_rules

GUIDE = "DeepSeek V4 thinking mode rejects the `tool_choice` parameter."  # the guide's words, as written there

TOOLS = ("tools:\n  - name: get_time\n    parameters: {type: object, properties: {tz: {type: string}}}\n"
         "messages: [{role: user, content: What time is it?}]\n")


def _deepseek(choice: str, settings: str):
    return translate("deepseek", load_scenario_text(TOOLS + f"tool_choice: {choice}\nproviders:\n  deepseek: "
                                                    f"{settings}\n", "s.yaml"))


def _codes(t) -> list[str]:
    return [e.code for e in t.ledger]


@pytest.mark.parametrize("model", ["deepseek-v4-flash", "deepseek-v4-pro", "deepseek-flash"])
@pytest.mark.parametrize("choice", ["auto", "none"])
def test_auto_and_none_in_default_thinking_are_sent_as_written_and_warned_in_the_guides_words(model, choice):
    # the seventeenth pass (tests/test_fact_audit17.py): the API reference takes them, so only the user's override warns
    t = _deepseek(choice, f"{{model: {model}, rules: {{tool_choice_with_thinking: false}}}}")
    assert t.request is not None and t.request.body["tool_choice"] == choice
    assert "thinking" not in t.request.body  # nothing changed for the user
    warned = [e for e in t.ledger if e.code == "thinking.choice_documented"]
    assert len(warned) == 1 and warned[0].severity == "warning"
    assert GUIDE in warned[0].message and f"tool_choice {choice} is sent as written" in warned[0].message


def test_thinking_set_on_warns_too_and_off_says_nothing():
    override = "rules: {tool_choice_with_thinking: false}"
    assert "thinking.choice_documented" in _codes(_deepseek("none", "{model: deepseek-v4-flash, thinking: true, "
                                                                    + override + "}"))
    off = _deepseek("none", "{model: deepseek-v4-flash, thinking: false, " + override + "}")
    assert off.request.body["thinking"] == {"type": "disabled"}
    assert "thinking.choice_documented" not in _codes(off)


def test_the_users_rule_states_the_fact_and_a_forcing_choice_keeps_its_own_handling():
    t = _deepseek("auto", "{model: deepseek-v4-flash, rules: {tool_choice_with_thinking: true}}")
    assert t.request is not None and "thinking.choice_documented" not in _codes(t)
    forced = _deepseek("required", "{model: deepseek-v4-flash}")
    assert "thinking.disabled_for_choice" in _codes(forced) and "thinking.choice_documented" not in _codes(forced)


def test_the_guides_words_are_in_the_rules_that_carry_the_fact():
    for model in ("deepseek-v4-flash", "deepseek-v4-pro", "deepseek-flash"):
        fact = model_rules.resolve("deepseek", model)["tool_choice_with_thinking"]
        assert fact.value is True and GUIDE in fact.rule.source and fact.rule.verified == "2026-11-28"


GEMINI = ("tools:\n  - name: get_weather\n    parameters: {type: object, properties: {city: {type: string}}}\n"
          "tool_choice: auto\nmessages:\n  - {role: user, content: Weather?}\n  - role: assistant\n"
          "    tool_calls: [{id: c1, name: get_weather, arguments: {city: Paris}%s}]\n"
          "  - {role: tool, tool_call_id: c1, content: '{\"sky\": \"sunny\"}'}\n"
          "providers:\n  gemini: {model: %s}\n")


def _gemini(model: str, signature: str = ""):
    return translate("gemini", load_scenario_text(GEMINI % (signature, model), "g.yaml"))


@pytest.mark.parametrize("model", ["gemini-2.5-flash", "gemini-2.5-pro"])
def test_gemini_2_5_unsigned_history_call_is_sent_as_written_and_said_unstated(model):
    t = _gemini(model)
    assert t.request is not None
    call = t.request.body["contents"][1]["parts"][0]
    assert call["functionCall"]["name"] == "get_weather" and "thoughtSignature" not in call
    note = [e for e in t.ledger if e.code == "model_rule.unstated"]
    assert len(note) == 1 and note[0].severity == "info"
    assert "gemini-2.5-thinking" in note[0].message and "rowboatlabs/rowboat#694" in note[0].message


def test_gemini_2_5_says_unsigned_calls_only_and_gemini_3_keeps_its_rule():
    assert "model_rule.unstated" in _codes(_gemini("gemini-2.5-flash"))
    signed = _gemini("gemini-2.5-flash", ", signature: c2ln")
    assert "model_rule.unstated" not in _codes(signed)
    assert signed.request.body["contents"][1]["parts"][0]["thoughtSignature"] == "c2ln"
    three = _gemini("gemini-3-pro-preview")
    assert "model_rule.unstated" not in _codes(three) and "history.thought_signature" in _codes(three)


def test_gemini_2_5_leaves_signatures_unstated_with_googles_words():
    rule = model_rules.unstated("gemini", "gemini-2.5-flash", "signatures_required")
    assert rule is not None and rule.name == "gemini-2.5-thinking"
    said = rule.unstated["signatures_required"]
    assert "When using Gemini 3 models, you must pass back thought signatures during function calling" in said
    assert "Function call is missing a thought_signature in functionCall parts." in said
    assert "signatures_required" not in model_rules.resolve("gemini", "gemini-2.5-flash")
    json.dumps(said)  # plain text, as `providers --format json` lists it
