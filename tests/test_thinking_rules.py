"""The 2026 thinking × forced tool_choice rules, held to Anthropic's documents (checked 2026-11-26).

Expected outcomes are the documents' words, not the code's:
- platform.claude.com/docs/en/build-with-claude/thinking-tool-workflows: "tool_choice options that force tool use
  return an error with manual extended thinking (thinking: {type: "enabled"}); adaptive thinking supports forced
  tool use."
- models/opus-5-5/whats-new-opus-5-5 and models/sonnet-5-5/whats-new-sonnet-5-5: "Forced tool use returns an
  error."; Opus 5.5 "Thinking can't be disabled"; Sonnet 5.5 turns off up-front thinking with between_tools.
- models/fable-5-1/migration-guide (claude-fable-5-1, claude-mythos-5-1): disabled and manual thinking return 400;
  "Forcing a tool call with {type: "any"} or {type: "tool", name: "..."} returns a 400 error."
- models/fable-5/migration-guide (claude-fable-5, claude-mythos-5): disabled and manual return 400 (forced use is
  not among its breaking changes).
- anthropic 2.14.0 _data/deprecated_models.py: claude-sonnet-4-5 "November 30th, 2026".
- anthropics/skills skills/claude-api/shared/model-migration.md (at 9d2f1ae, 2026-07-01), Claude Sonnet 5's "Breaking
  changes (will 400 on Claude Sonnet 5)": "3. Bedrock only: forced `tool_choice` requires `thinking: {type:
  "disabled"}`. On Amazon Bedrock, pass `thinking: {type: "disabled"}` alongside `tool_choice: {type: "tool", name:
  ...}` or `tool_choice: {type: "any"}`. The Claude API and Vertex AI do not require this." (read 2026-11-27)
"""

from __future__ import annotations

import json

import pytest

from toolchoice.providers import load_scenario_text, translate
from toolchoice.providers.core import model_rules

TOOLS = """
tools:
  - name: get_time
    parameters: {type: object, properties: {tz: {type: string}}}
messages: [{role: user, content: What time is it?}]
"""


def render(provider: str, model: str, choice: str, thinking: str | None = None):
    settings = {"model": model, "max_tokens": 4096}
    if thinking is not None:
        settings["thinking"] = json.loads(thinking)
    text = TOOLS + f"tool_choice: {choice}\nproviders:\n  {provider}: {json.dumps(settings)}\n"
    return translate(provider, load_scenario_text(text, "rules.yaml"))


def codes(t) -> set[str]:
    return {e.code for e in t.ledger}


# (model, thinking as written, refused?) for a forcing choice; None = the model's default
FORCED = [
    ("claude-opus-4-6", '"adaptive"', False),  # adaptive supports forced tool use
    ("claude-sonnet-4-6", '"adaptive"', False),
    ("claude-opus-4-7", '"adaptive"', False),
    ("claude-opus-5", None, False),  # adaptive on by default: forced use supported
    ("claude-sonnet-5", None, False),
    ("claude-mythos-5", None, False),  # always adaptive; forced use not among its breaking changes
    ("claude-fable-5", None, False),
    ("claude-sonnet-4-6", '{"budget": 2048}', True),  # manual thinking: forced use errors
    ("claude-sonnet-4-5", "true", True),  # extended-only model, thinking: true is manual
    ("claude-opus-5-5", None, True),  # refuses forced tool use outright
    ("claude-sonnet-5-5", None, True),
    ("claude-fable-5-1", None, True),
    ("claude-mythos-5-1", None, True),
]


# Sonnet 5 on Bedrock only: thinking goes out disabled beside a forcing choice (test_bedrock_sonnet_5_* below)
CASES = [(provider, *row) for provider in ("anthropic", "bedrock") for row in FORCED
         if (provider, row[0]) != ("bedrock", "claude-sonnet-5")]


@pytest.mark.parametrize("provider, model, thinking, refused", CASES, ids=[f"{p}-{m}-{t}" for p, m, t, _ in CASES])
@pytest.mark.parametrize("choice", ["required", "get_time"])
def test_forced_choice_is_refused_only_where_documented(provider, model, thinking, refused, choice):
    wire = model if provider == "anthropic" else f"anthropic.{model}"
    t = render(provider, wire, choice, thinking)
    assert t.refused is refused, t.ledger
    assert ("thinking.forced_choice" in codes(t)) is refused
    if t.request is not None:
        body = t.request.body
        fields = body if provider == "anthropic" else body.get("additionalModelRequestFields", {})
        # never add a setting the model refuses: no {type: disabled} to make room for the forced choice
        assert fields.get("thinking", {}).get("type") != "disabled"


@pytest.mark.parametrize("model", ["anthropic.claude-sonnet-5", "us.anthropic.claude-sonnet-5-v1:0"])
@pytest.mark.parametrize("choice", ["required", "get_time"])
def test_bedrock_sonnet_5_sends_thinking_disabled_beside_a_forcing_choice(model, choice):
    """The skill's '3. Bedrock only': 'pass `thinking: {type: "disabled"}` alongside' a forcing tool_choice."""
    t = render("bedrock", model, choice)
    assert not t.refused, t.ledger
    assert t.request.body["additionalModelRequestFields"]["thinking"] == {"type": "disabled"}
    assert "thinking.disabled_for_choice" in codes(t)
    assert any("bedrock-sonnet-5-forced-choice" in e.message for e in t.ledger if e.code == "rule.applied")


def test_bedrock_sonnet_5_refuses_a_forcing_choice_with_adaptive_thinking_written():
    t = render("bedrock", "anthropic.claude-sonnet-5", "required", '"adaptive"')
    assert t.refused and "thinking.forced_choice" in codes(t)


@pytest.mark.parametrize("provider, model", [("anthropic", "claude-sonnet-5"), ("bedrock", "anthropic.claude-opus-5"),
                                             ("bedrock", "anthropic.claude-sonnet-5-5"), ("bedrock", "anthropic.claude-sonnet-4-6")])
def test_the_bedrock_sonnet_5_rule_holds_for_nothing_else(provider, model):
    """'The Claude API and Vertex AI do not require this'; the section is Sonnet 5's alone."""
    assert "bedrock-sonnet-5-forced-choice" not in [r.name for r in model_rules.matching(provider, model)]


def test_the_bedrock_mock_answers_sonnet_5s_forcing_choice_by_its_thinking():
    from toolchoice.providers.core.mock.service import MockService

    body = {"messages": [{"role": "user", "content": [{"text": "hi"}]}], "inferenceConfig": {"maxTokens": 4096},
            "toolConfig": {"tools": [{"toolSpec": {"name": "get_time", "inputSchema": {"json": {"type": "object"}}}}],
                           "toolChoice": {"any": {}}}}
    path = "/model/us.anthropic.claude-sonnet-5-v1:0/converse"
    refused = MockService("bedrock").handle("POST", path, {}, json.dumps(body).encode())
    assert refused.status == 400  # adaptive thinking, on by default
    assert "thinking.forced_choice" in [f["code"] for f in refused.record["findings"] if f["severity"] == "error"]
    body["additionalModelRequestFields"] = {"thinking": {"type": "disabled"}}
    assert MockService("bedrock").handle("POST", path, {}, json.dumps(body).encode()).status == 200


@pytest.mark.parametrize("model", ["claude-opus-5-5", "claude-sonnet-5-5", "claude-fable-5-1", "claude-mythos-5-1",
                                   "claude-fable-5", "claude-mythos-5"])
def test_disabled_is_never_sent_where_refused(model):
    t = render("anthropic", model, "auto", "false")
    assert t.request is not None
    assert t.request.body.get("thinking", {}).get("type") != "disabled"


def test_sonnet_5_5_turns_thinking_down_with_between_tools():
    t = render("anthropic", "claude-sonnet-5-5", "auto", "false")
    assert t.request.body["thinking"] == {"type": "between_tools"}  # anthropic 2.14.0 thinking_config_between_tools


def test_opus_5_still_takes_disabled():
    """'On Claude Opus 5, thinking is on by default and thinking: {"type": "disabled"} is accepted'."""
    t = render("anthropic", "claude-opus-5", "auto", "false")
    assert t.request.body["thinking"] == {"type": "disabled"}


@pytest.mark.parametrize("model", ["claude-fable-5-3", "claude-opus-9", "claude-sonnet-6"])
def test_an_unknown_model_is_said_to_be_unknown_and_nothing_is_refused(model):
    t = render("anthropic", model, "required", '"adaptive"')
    assert not t.refused and "model_rule.unknown" in codes(t)


def test_known_models_are_not_called_unknown():
    t = render("anthropic", "claude-sonnet-5", "required")
    assert "model_rule.unknown" not in codes(t)


@pytest.mark.parametrize("model, family", [("claude-opus-5-5", "claude-opus-5.5"), ("claude-opus-5", "claude-5-adaptive-on"),
                                           ("claude-sonnet-4-5-20250929", "claude-extended-only"),
                                           ("anthropic.claude-opus-4-6-v1", "claude-4.6-both"),
                                           ("claude-opus-4-20250514", "claude-extended-only")])
def test_rules_match_families_not_prefixes(model, family):
    provider = "bedrock" if model.startswith("anthropic.") else "anthropic"
    assert [r.name for r in model_rules.matching(provider, model) if r.family] == [family]


@pytest.mark.parametrize("model", ["o3-mini", "o4-mini", "o1", "o3-mini-2025-01-31"])
def test_o_series_gets_no_parallel_tool_calls(model):
    text = TOOLS + f"tool_choice: auto\nparallel_tool_calls: false\nproviders:\n  openai: {{model: {model}}}\n"
    t = translate("openai", load_scenario_text(text, "p.yaml"))
    assert "parallel_tool_calls" not in t.request.body and "parallel.model_refuses" in codes(t)


def test_gpt_4o_still_gets_parallel_tool_calls():
    text = TOOLS + "tool_choice: auto\nparallel_tool_calls: false\nproviders:\n  openai: {model: gpt-4o}\n"
    assert translate("openai", load_scenario_text(text, "p.yaml")).request.body["parallel_tool_calls"] is False


@pytest.mark.parametrize("provider, model, today, warned", [
    ("anthropic", "claude-sonnet-4-5", "2026-11-26", True),  # 4 days left
    ("anthropic", "claude-sonnet-4-5-20250929", "2026-10-30", False),  # 31 days left
    ("anthropic", "claude-sonnet-4-5", "2026-12-01", True),  # past
    ("bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0", "2026-11-26", True),
    ("deepseek", "deepseek-chat", "2026-11-26", True),
    ("deepseek", "deepseek-reasoner", "2026-11-26", True),
    ("deepseek", "deepseek-v4-flash", "2026-11-26", False),
    ("anthropic", "claude-sonnet-5", "2026-11-26", False),
    # openai 3.57.0 types/shared/chat_model.py 'Deprecated values'
    ("openai", "gpt-4o-mini", "2026-11-26", False),  # 2027-01-14: 49 days left
    ("openai", "gpt-4o-mini", "2026-12-20", True),
    ("openai-responses", "o3-mini", "2026-11-26", True),  # 2026-10-23
    ("openai", "gpt-5", "2026-11-26", True),  # 2026-12-11
    ("azure", "o3-mini", "2026-11-26", False),  # Azure retires on its own schedule
    ("openai", "gpt-5.4-mini", "2026-11-26", False),
    # ai.google.dev/gemini-api/docs/deprecations
    ("gemini", "gemini-2.5-flash", "2026-11-26", True),
    ("gemini", "gemini-3.5-flash", "2026-11-26", False),
])
def test_end_of_life(provider, model, today, warned):
    text = model_rules.end_of_life(provider, model, today)
    assert (text is not None) is warned
    if text:
        assert "verified 2026-11-26" in text and any(source in text for source in (
            "deprecated_models.py", "api-docs.deepseek.com", "chat_model.py", "ai.google.dev"))


def test_a_scenario_naming_a_retired_model_is_told():
    text = TOOLS + "tool_choice: auto\nproviders:\n  deepseek: {model: deepseek-chat}\n"
    t = translate("deepseek", load_scenario_text(text, "d.yaml"))
    entry = next(e for e in t.ledger if e.code == "model.end_of_life")
    assert entry.severity == "warning" and "2026-07-24" in entry.message


@pytest.mark.parametrize("model", ["claude-opus-5-5", "claude-fable-5", "claude-mythos-5-1"])
def test_advice_never_suggests_turning_off_what_cannot_be_turned_off(model):
    """These models answer 400 to thinking {type: disabled} (their what's-new / migration pages): no advice says
    'thinking: false'."""
    text = TOOLS + f"tool_choice: required\nproviders:\n  anthropic: {{model: {model}, max_tokens: 4096, " \
                   "thinking: adaptive, temperature: 0}\n"
    t = translate("anthropic", load_scenario_text(text, "a.yaml"))
    advice = [e.message for e in t.ledger if e.severity == "error"]
    assert advice and not any("thinking: false" in m for m in advice)


def test_an_unknown_deepseek_model_is_not_guessed_at():
    """No rule knows deepseek-v9: nothing is refused and no thinking setting is added for the forced choice."""
    text = TOOLS + "tool_choice: required\nproviders:\n  deepseek: {model: deepseek-v9}\n"
    t = translate("deepseek", load_scenario_text(text, "d.yaml"))
    assert not t.refused and "thinking" not in t.request.body and "model_rule.unknown" in codes(t)


def test_deepseek_v4_forced_choice_turns_its_default_thinking_off():
    """DeepSeek V4 thinks by default and thinking mode rejects a forcing choice; disabled is accepted there."""
    text = TOOLS + "tool_choice: required\nproviders:\n  deepseek: {model: deepseek-v4-flash}\n"
    t = translate("deepseek", load_scenario_text(text, "d.yaml"))
    assert t.request.body["thinking"] == {"type": "disabled"} and "thinking.disabled_for_choice" in codes(t)


IDS = ["claude-opus-5", "claude-opus-5-5", "claude-sonnet-5-5-20261001", "anthropic.claude-opus-4-6-v1",
       "us.anthropic.claude-sonnet-4-6", "claude-fable-5-1", "claude-mythos-5-1", "claude-mythos-5", "claude-fable-5",
       "claude-3-7-sonnet-20250219", "claude-3-5-haiku-20241022", "claude-2.1", "claude-instant-1.2",
       "anthropic.claude-v2:1", "amazon.nova-pro-v1:0", "meta.llama3-70b", "gemini-3.5-flash", "gemini-2.5-flash",
       "gemini-2.5-flash-lite", "models/gemini-2.5-pro", "gpt-5.6", "gpt-5.4-mini", "gpt-5.60", "o3-mini", "o1",
       "o4-mini-2025-04-16", "deepseek-v4-flash", "deepseek-reasoner", "deepseek-chat", "command-a-03-2025",
       "command-r7b-12-2024", "command-r-plus", "command", "claude-haiku-5-5", "claude-haiku-4-5", "claude-opus-4-1",
       "claude-opus-4-8", "claude-sonnet-4-5-20250929", "claude-mythos-preview", "CLAUDE-OPUS-5-5", "gpt-6-astra",
       "gpt-6.2-astra", "gpt-6-astra-pro", "gpt-6-sol", "gpt-6.1-sol", "gpt-6-sol-2026-09-22", "gpt-6-luna"]


@pytest.mark.parametrize("pattern", sorted({r.pattern for r in model_rules.RULES} | {
    e.pattern for e in model_rules.END_OF_LIFE if not e.models}))
def test_the_needle_prefilter_never_changes_a_match(pattern):
    """Rules skip compiling a pattern when none of its literal texts is in the id: the result must be re.search's."""
    import re

    for model in IDS:
        assert model_rules._search(pattern, model.lower()) is (re.search(pattern, model.lower()) is not None), model
