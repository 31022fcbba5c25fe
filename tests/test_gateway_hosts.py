"""Hosts that are, or only look like, a hosted API's own (core/host_rules.py): the host's rules hold at its own host
however it is written, and nowhere else. The truth is outside the code: RFC 1034 section 3.1 ("a name with a trailing
dot" is absolute: ``api.anthropic.com.`` names the same host as ``api.anthropic.com``), RFC 4343 (DNS names compare
without regard to case), and Anthropic's 400 for a blank text block ("text content blocks must be non-empty",
the row's history.blank_text source), which its own host answers and toolchoice then refuses."""

from __future__ import annotations

import pytest

from test_gateway import BLANK_AND_PLAN
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario_text

MADE = load_scenario_text(BLANK_AND_PLAN, "s.yaml")


def severities(provider: str, base_url: str, code: str) -> set[str]:
    t = translate(provider, MADE, RenderOptions(base_url=base_url))
    return {e.severity for e in t.ledger if e.code == code}


@pytest.mark.parametrize("provider, base_url, code", [
    ("anthropic", "https://api.anthropic.com.", "history.blank_text_dropped"),
    ("anthropic", "https://API.Anthropic.COM./", "history.blank_text_dropped"),
    ("bedrock", "https://bedrock-runtime.us-east-1.amazonaws.com.", "history.blank_text_dropped"),
    ("bedrock", "https://bedrock-runtime-fips.us-east-1.amazonaws.com.", "history.blank_text_dropped"),
    ("cohere", "https://api.cohere.ai.", "history.text_as_tool_plan"),
])
def test_an_own_host_written_absolute_keeps_the_hosts_rules(provider: str, base_url: str, code: str) -> None:
    assert severities(provider, base_url, code) == severities(provider, base_url.rstrip("/").rstrip("."), code) \
        == {"info"}


@pytest.mark.parametrize("provider, base_url, code", [
    ("anthropic", "https://api.anthropic.com.evil.example", "history.blank_text_dropped"),
    ("anthropic", "https://api.anthropic.com..", "history.blank_text_dropped"),
    ("anthropic", "https://evil-api.anthropic.com", "history.blank_text_dropped"),
    ("anthropic", "http://[::1]:8080", "history.blank_text_dropped"),
    ("cohere", "https://api.cohere.ai.evil.example.", "history.text_as_tool_plan"),
])
def test_a_host_that_only_looks_like_one_is_still_replaced(provider: str, base_url: str, code: str) -> None:
    assert severities(provider, base_url, code) == {"warning"}
