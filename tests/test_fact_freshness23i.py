"""The age of what toolchoice refuses and drops (session 23, trial23i). The truth is outside the code, read 2026-11-28:

- Azure OpenAI, a function description over 1024 characters: the newest Azure recording of the API's 400 is
  langchain-ai/open_deep_research#80 (2025-04-23, azure_openai:o3-mini: "Invalid 'tools[1].function.description':
  string too long. Expected a string with maximum length 1024, but got a string with length 2121 instead."); no newer
  one was found by the issues index, and no Azure source states a maximum: Azure's function-calling docs
  (MicrosoftDocs/azure-ai-docs articles/ai-foundry/openai/how-to/function-calling.md, ms.date 02/10/2026) and the
  client SAP/ai-sdk-js generates from Azure's inference spec (FunctionObject "description?: string"). OpenAI's own
  newest 400 is getsentry/sentry-mcp#106 (2025-04-25), and run-llama/llama_index#18784 (2025-05-19) found the limit
  lifted. So the limit is unverified since 2025-04-23 on Azure (since 2025-04-25 on OpenAI): a warning, not a refusal.
- DeepSeek's model list (api-docs.deepseek.com/zh-cn/quick_start/pricing, the stored copies of 2026-10/11):
  "模型 | deepseek-flash(1) | deepseek-v4-pro" and "(1) 模型名请使用 deepseek-flash。旧模型名 deepseek-v4-flash、
  deepseek-v4-flash-vision-exp 仍可调用,但对应模型已下线" (use deepseek-flash; the old names still answer, their model
  is offline). The default model must be one the provider lists.
- A tool_choice with no tools on Azure: BerriAI/litellm#41781 (2026-09-18, azure/gpt-5.6-luna) recorded "Invalid value
  for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified." — a refusal with evidence of 2026.

In-process: the translators, the mock service (no socket) and the generated page.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolchoice.providers.core.model import Message, RenderOptions, Scenario, Tool
from toolchoice.providers.core.registry import translate

ROOT = Path(__file__).resolve().parents[1]
AZURE_NEWEST = "2025-04-23"  # langchain-ai/open_deep_research#80
OPENAI_NEWEST = "2025-04-25"  # getsentry/sentry-mcp#106
DEEPSEEK_LISTED = {"deepseek-flash", "deepseek-v4-pro"}  # the pricing page's model row


def _long_description(provider: str, length: int = 2121) -> Any:
    tools = (Tool("short", "d", {"type": "object", "properties": {}}),
             Tool("long", "x" * length, {"type": "object", "properties": {}}))
    return translate(provider, Scenario(path="s.yaml", tools=tools, messages=(Message("user", "hi"),)), RenderOptions())


def test_azure_sends_a_long_description_with_a_warning_unverified_since_its_newest_recording() -> None:
    t = _long_description("azure")
    assert t.request is not None and not t.refused
    found = [e for e in t.ledger if e.code == "tool.over_limit"]
    assert [e.severity for e in found] == ["warning"]
    assert f"unverified since {AZURE_NEWEST}" in found[0].message
    assert "sent as written" in found[0].message and "'long'" in found[0].message


def test_openai_s_warning_says_since_when_it_is_unverified() -> None:
    found = [e for e in _long_description("openai", 36_000).ledger if e.code == "tool.over_limit"]
    assert [e.severity for e in found] == ["warning"] and f"unverified since {OPENAI_NEWEST}" in found[0].message


def test_the_azure_mock_answers_a_long_description() -> None:
    from toolchoice.providers.core.mock.service import MockService

    body = {"model": "gpt-5.4-mini", "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"type": "function", "function": {"name": "long", "description": "x" * 2121,
                                                        "parameters": {"type": "object", "properties": {}}}}]}
    exchange = MockService("azure").handle("POST", "/v1/chat/completions", {}, json.dumps(body).encode())
    assert exchange.status == 200


def test_an_azure_tool_catalogue_with_a_long_description_is_no_refusal_on_import() -> None:
    from toolchoice.providers.core.tool_import_limits import field_warnings

    notes = field_warnings([Tool("long", "x" * 2121, {"type": "object", "properties": {}})])
    assert notes and all("refuse" not in n.message.replace("may refuse", "") for n in notes)
    assert any("Azure OpenAI" in n.message for n in notes)


def test_the_deepseek_default_model_is_one_deepseek_lists() -> None:
    from toolchoice.providers.core.capabilities import CAPABILITIES

    assert CAPABILITIES["deepseek"].default_model in DEEPSEEK_LISTED
    t = translate("deepseek", Scenario(path="s.yaml", messages=(Message("user", "hi"),)), RenderOptions())
    assert t.request is not None and t.request.body["model"] in DEEPSEEK_LISTED
    # the rules know the default: its thinking mode is DeepSeek's, not an unknown model's
    assert not any(e.code == "model_rule.unknown" for e in t.ledger)


def test_every_refusal_rests_on_evidence_less_than_a_year_older_than_its_check() -> None:
    from toolchoice.providers.core.fact_freshness import entries

    stale = [e for e in entries() if "refuses" in e.action and e.stale]
    assert not stale, stale


def test_the_list_dates_the_description_limits_by_their_newest_recordings() -> None:
    from toolchoice.providers.core.fact_freshness import entries

    by_ref = {(e.ref, e.providers): e for e in entries()}
    azure = by_ref[("fact:azure.description_limit", ("azure",))]
    assert (azure.action, azure.evidence) == ("warns", AZURE_NEWEST)
    openai = by_ref[("fact:openai.description_limit", ("openai",))]
    assert (openai.action, openai.evidence) == ("warns", OPENAI_NEWEST)
    # Azure's refusal of a tool_choice with no tools: litellm#41781 (2026-09-18) is its newest recording
    assert by_ref[("fact:azure.tool_choice_without_tools", ("azure",))].evidence == "2026-09-18"


def test_the_list_holds_the_refusals_the_fact_audit_names() -> None:
    """The refusals docs/fact-audit.md's verdicts table names (written from that table, not from the code)."""
    from toolchoice.providers.core.fact_freshness import entries

    refs = {e.ref for e in entries() if "refuses" in e.action}
    assert {"fact:openai.tool_limit", "fact:groq.tool_limit", "fact:gemini.tool_limit", "fact:groq.choice_count",
            "fact:anthropic.strict_tool_limit", "fact:anthropic.tool_choice_without_tools",
            "rule:claude-5.1-no-forced-choice", "rule:claude-opus-5.5", "rule:claude-sonnet-5.5",
            "rule:claude-thinking-forced-choice", "rule:deepseek-v4-thinking", "rule:gpt-5.6-tools-effort-none",
            "rule:gpt-5.2-5.5-tools-effort"} <= refs
    drops = {e.ref for e in entries() if e.action == "drops"}
    assert {"rule:o-series-no-parallel", "rule:cohere-pre-r7b", "row:ollama"} <= drops


def test_fact_audit_shows_the_generated_table_with_the_ages() -> None:
    import re

    from toolchoice.providers.core.fact_freshness import markdown

    page = (ROOT / "docs" / "fact-audit.md").read_text()
    block = re.search(r"<!-- generated: fact_freshness\.markdown\(\) -->\n(.*?)\n<!-- end generated -->", page, re.S)
    assert block is not None and block.group(1) == markdown()
    row = next(line for line in block.group(1).splitlines() if "`fact:azure.description_limit`" in line)
    assert row.startswith(f"| **{AZURE_NEWEST}**") and "| warns |" in row
