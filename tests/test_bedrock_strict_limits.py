"""Claude on Bedrock: Anthropic's strict-schema complexity limits hold there, other Bedrock models get nothing new.

Truth from outside the code (2026-11-26):
- platform.claude.com/docs/en/build-with-claude/structured-outputs, "Schema complexity limits": 20 strict tools per
  request, 24 optional parameters and 16 union-typed parameters across all strict schemas; the page lists Amazon
  Bedrock among the platforms structured outputs run on.
- Bedrock's recorded 400 for 28 strict tools on a Claude route (usestrix/strix#1050, litellm quoting the body):
  {"message":"The model returned the following errors: Too many strict tools (28). The maximum number of strict tools
  supported is 20. Try reducing the number of tools marked as strict."}; pydantic/pydantic-ai#5579 (Bedrock Claude,
  73 tools): "ValidationException: Too many strict tools (73). The maximum number of strict tools supported is 20.";
  datarobot-oss/datarobot-genai#547 (bedrock/claude through CrewAI).
- Bedrock's error envelope: {"message": ...} with the type in x-amzn-ErrorType (ValidationException for 400).

In-process: the translator and the mock service (no socket).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolchoice.providers.core.model import Message, ProviderSettings, RenderOptions, Scenario, Tool
from toolchoice.providers.core.registry import translate

CLAUDE = "us.anthropic.claude-sonnet-4-6"
BEDROCK_28 = ("The model returned the following errors: Too many strict tools (28). The maximum number of strict "
              "tools supported is 20. Try reducing the number of tools marked as strict.")
CLOSED = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}


def strict_tools(count: int, strict: bool = True) -> tuple[Tool, ...]:
    return tuple(Tool(f"t{i}", "d", CLOSED, strict=strict) for i in range(count))


def render(model: str, *tools: Tool, rules: dict[str, Any] | None = None) -> tuple[list[Any], Any]:
    providers = {"bedrock": ProviderSettings(rules=rules)} if rules else {}
    scenario = Scenario(path="s.yaml", tools=tools, messages=(Message("user", "hi"),), providers=providers)
    t = translate("bedrock", scenario, RenderOptions(model=model))
    return [e for e in t.ledger if e.severity in ("error", "warning") and e.code.endswith("over_limit")], t


def test_more_than_20_strict_tools_on_claude_on_bedrock_are_refused_with_bedrocks_words() -> None:
    found, t = render(CLAUDE, *strict_tools(28))
    assert t.request is None
    assert [(e.severity, e.code) for e in found] == [("error", "schema.over_limit")]
    assert BEDROCK_28 in found[0].message and "usestrix/strix#1050" in found[0].message
    found, t = render(CLAUDE, *strict_tools(20))
    assert t.request is not None and not found
    found, t = render(CLAUDE, *strict_tools(40, strict=False))
    assert t.request is not None and not found


def test_optional_and_union_limits_hold_for_claude_on_bedrock() -> None:
    props = {f"o{i}": {"type": "string"} for i in range(25)}
    found, t = render("anthropic.claude-haiku-4-5-20251001-v1:0",
                      Tool("a", "d", {"type": "object", "properties": props, "additionalProperties": False},
                           strict=True))
    assert t.request is None and [e.code for e in found] == ["schema.over_limit"]
    assert "too many optional parameters (25)" in found[0].message and "(limit: 24)" in found[0].message


@pytest.mark.parametrize("model", ["amazon.nova-pro-v1:0", "mistral.mistral-large-2402-v1:0", "acme.unknown-model-v1"])
def test_other_bedrock_models_get_no_strict_limit(model: str) -> None:
    found, t = render(model, *strict_tools(28))
    assert t.request is not None and not found


def test_a_users_rule_turns_the_limits_off_or_on() -> None:
    found, t = render(CLAUDE, *strict_tools(28), rules={"strict_schema_limits": False})
    assert t.request is not None and not found
    found, t = render("acme.unknown-model-v1", *strict_tools(28), rules={"strict_schema_limits": True})
    assert t.request is None and [e.code for e in found] == ["schema.over_limit"]


def converse(count: int) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": [{"text": "hi"}]}],
            "toolConfig": {"tools": [{"toolSpec": {"name": f"t{i}", "inputSchema": {"json": CLOSED}, "strict": True}}
                                     for i in range(count)]}}


def answer(model: str, body: dict[str, Any]) -> tuple[int, Any, dict[str, str]]:
    from toolchoice.providers.core.mock.service import MockService

    exchange = MockService("bedrock").handle("POST", f"/model/{model}/converse", {}, json.dumps(body).encode())
    headers = {k.lower(): v for k, v in dict(exchange.headers or {}).items()}
    return exchange.status, json.loads(exchange.body or b"null"), headers


def test_the_bedrock_mock_answers_28_strict_tools_on_claude_as_bedrock_does() -> None:
    status, reply, headers = answer(CLAUDE, converse(28))
    assert status == 400 and reply == {"message": BEDROCK_28}
    assert headers["x-amzn-errortype"].startswith("ValidationException")
    status, _, _ = answer(CLAUDE, converse(20))
    assert status == 200
    status, _, _ = answer("amazon.nova-pro-v1:0", converse(28))
    assert status == 200


def test_the_limit_is_the_models_so_it_holds_at_a_base_url_that_replaces_bedrocks_host() -> None:
    """A model rule follows the model id, not the host (core/host_rules.py): a gateway at another address serving
    this Claude model id is taken to serve this model, whose API answered the 400 above."""
    scenario = Scenario(path="s.yaml", tools=strict_tools(28), messages=(Message("user", "hi"),))
    t = translate("bedrock", scenario, RenderOptions(model=CLAUDE, base_url="http://127.0.0.1:8080"))
    assert t.request is None
    [entry] = [e for e in t.ledger if e.code == "schema.over_limit"]
    assert entry.severity == "error" and BEDROCK_28 in entry.message
