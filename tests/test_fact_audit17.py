"""The seventeenth fact-audit pass (2026-11-28, docs/fact-audit.md).

DeepSeek's API reference (api-docs.deepseek.com/api/create-chat-completion, not in the stored copies; its words as
quoted, the same in each, by public readers found by the code index) says "`required` and named tool choices are not
supported in thinking mode; the API returns a `400` error." Its integration guide says "DeepSeek V4 thinking mode
rejects the `tool_choice` parameter." of every value. The API reference wins (docs/fact-audit.md, "What counts as a
source"), and the recorded 400s agree with it: `auto` and `none` in thinking mode are sent as written with nothing
said (the sixteenth pass warned of them, so `--strict` refused them); a forcing choice keeps its handling.
"""

from __future__ import annotations

import pytest

from toolchoice.providers import load_scenario_text, translate
from toolchoice.providers.core import model_rules

# the API reference's words, as its readers quote them (written here, not read from the code under test)
REFERENCE = ("'`required` and named tool choices are not supported in thinking mode; the API returns a `400` error. "
             "Disable thinking mode first to use them.'")
EFFORT_NONE = "none disables thinking mode; low/high/max enable thinking mode."

TOOLS = ("tools:\n  - name: get_time\n    parameters: {type: object, properties: {tz: {type: string}}}\n"
         "messages: [{role: user, content: What time is it?}]\n")
MODELS = ["deepseek-v4-flash", "deepseek-v4-pro", "deepseek-flash"]


def _deepseek(choice: str, settings: str, strict: bool = False):
    from toolchoice.providers.core.model import RenderOptions

    scenario = load_scenario_text(TOOLS + f"tool_choice: {choice}\nproviders:\n  deepseek: {settings}\n", "s.yaml")
    return translate("deepseek", scenario, RenderOptions(strict=True)) if strict else translate("deepseek", scenario)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("choice", ["auto", "none"])
def test_auto_and_none_in_default_thinking_are_sent_as_written_with_nothing_said(model, choice):
    t = _deepseek(choice, f"{{model: {model}}}")
    assert t.request is not None and t.request.body["tool_choice"] == choice
    assert "thinking" not in t.request.body  # thinking stays at DeepSeek's default (on)
    assert [e.code for e in t.ledger if e.severity != "info"] == []


@pytest.mark.parametrize("choice", ["auto", "none"])
def test_in_thinking_mode_only_forcing_values_are_refused_as_the_api_reference_says(choice):
    t = _deepseek(choice, "{model: deepseek-flash, thinking: true}", strict=True)  # --strict refuses every warning
    assert t.request is not None and t.request.body["tool_choice"] == choice
    assert t.request.body["thinking"] == {"type": "enabled"}
    for forcing in ("required", "{type: function, name: get_time}"):  # 'required' and named: still the API's 400
        refused = [e for e in _deepseek(forcing, "{model: deepseek-v4-flash, thinking: true}").ledger
                   if e.code == "thinking.forced_choice"]
        assert len(refused) == 1 and refused[0].severity == "error"
        assert "Thinking mode does not support this tool_choice" in refused[0].message


@pytest.mark.parametrize("model", MODELS)
def test_the_rules_state_the_fact_with_the_api_references_words_and_todays_date(model):
    fact = model_rules.resolve("deepseek", model)["tool_choice_with_thinking"]
    assert fact.value is True
    assert REFERENCE in fact.rule.source and EFFORT_NONE in fact.rule.source
    assert "DeepSeek V4 thinking mode rejects the `tool_choice` parameter." in fact.rule.source  # the guide, kept
    assert fact.rule.verified == "2026-11-28"
    # the user who holds to the guide still can: the override warns, and sends
    t = _deepseek("auto", f"{{model: {model}, rules: {{tool_choice_with_thinking: false}}}}")
    assert [e.code for e in t.ledger if e.severity == "warning"] == ["thinking.choice_documented"]
