"""Claude Opus 5 takes thinking {type: disabled} only at effort high or below.

Truth from Anthropic's documents (read 2026-11-27): platform.claude.com/docs/en/build-with-claude/
thinking-troubleshooting, table 'Thinking support, defaults, and rejected configurations by model' (Opus 5's row
rejects 'disabled', per its footnote, with effort xhigh or max), and models/opus-5-5/whats-new-opus-5-5: 'On Claude
Opus 5, thinking is on by default and thinking: {"type": "disabled"} is accepted at effort high or below.' Sonnet 5's
row carries no such footnote, and Opus 5.5 is another model (rule claude-5.5-*)."""

from __future__ import annotations

import json

import pytest

from toolchoice.providers import load_scenario_text, translate
from toolchoice.providers.core.mock.service import MockService

SCENARIO = "messages: [{role: user, content: hi}]\nproviders:\n  %s: %s\n"


def render(provider: str, model: str, effort: str | None):
    thinking = {"type": "disabled", **({"effort": effort} if effort else {})}
    settings = {"model": model, "max_tokens": 4096, "thinking": thinking}
    return translate(provider, load_scenario_text(SCENARIO % (provider, json.dumps(settings)), "t.yaml"))


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
@pytest.mark.parametrize("effort", ["xhigh", "max"])
def test_opus_5_refuses_disabled_at_xhigh_and_max(provider: str, effort: str) -> None:
    t = render(provider, "claude-opus-5" if provider == "anthropic" else "anthropic.claude-opus-5", effort)
    errors = [e for e in t.ledger if e.severity == "error"]
    assert [e.code for e in errors] == ["thinking.disabled_effort"]
    assert any(e.code == "rule.applied" and "claude-opus-5-disabled-effort" in e.message for e in t.ledger)


@pytest.mark.parametrize("effort", [None, "low", "medium", "high"])
def test_opus_5_takes_disabled_at_high_or_below_and_sends_the_effort(effort: str | None) -> None:
    t = render("anthropic", "claude-opus-5", effort)
    assert not [e for e in t.ledger if e.severity == "error"]
    assert t.request.body["thinking"] == {"type": "disabled"}
    # the effort written is sent (it was dropped in silence with thinking disabled)
    assert t.request.body.get("output_config") == ({"effort": effort} if effort else None)


@pytest.mark.parametrize("model", ["claude-sonnet-5", "claude-opus-4-8"])
def test_other_models_are_not_refused_on_a_guess(model: str) -> None:
    assert not [e for e in render("anthropic", model, "max").ledger if e.severity == "error"]


MESSAGES = [{"role": "user", "content": "hi"}]


def test_the_mock_answers_it_as_the_api_does() -> None:
    def ask(effort: str, model: str = "claude-opus-5") -> tuple[int, dict]:
        body = {"model": model, "max_tokens": 4096, "messages": MESSAGES, "thinking": {"type": "disabled"},
                "output_config": {"effort": effort}}
        exchange = MockService("anthropic").handle("POST", "/v1/messages", {}, json.dumps(body).encode())
        return exchange.status, exchange.record

    status, record = ask("max")
    assert status == 400 and any(f["code"] == "thinking.disabled_effort" for f in record["findings"])
    assert ask("high")[0] == 200
    assert ask("max", "claude-sonnet-5")[0] == 200


def test_bedrock_mock_reads_claudes_effort_in_additional_fields() -> None:
    body = {"messages": [{"role": "user", "content": [{"text": "hi"}]}],
            "additionalModelRequestFields": {"thinking": {"type": "disabled"}, "output_config": {"effort": "xhigh"}}}
    exchange = MockService("bedrock").handle("POST", "/model/anthropic.claude-opus-5/converse", {},
                                             json.dumps(body).encode())
    assert exchange.status == 400
    assert not any(f["code"] == "mock.unjudged" for f in exchange.record["findings"])
