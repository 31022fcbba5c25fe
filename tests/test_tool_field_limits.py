"""Limits on one tool's fields and on strict schemas, per API: refused before sending only where a source says the API
refuses (the ledger quotes the API's words and cites the source; the mock answers the same words in the same
envelope), a warning where the source is secondary, nothing where no source states a limit. The truth is outside the
code (2026-11-26):

- OpenAI Chat Completions, a function description over 1024 characters: 400 {"error": {"message": "Invalid
  'tools[13].function.description': string too long. Expected a string with maximum length 1024, but got a string
  with length 1103 instead.", "type": "invalid_request_error", "param": "tools[13].function.description", "code":
  "string_above_max_length"}} (getsentry/sentry-mcp#106, gpt-4o on api.openai.com, 2025-04-25). Azure OpenAI answers
  the same (langchain-ai/open_deep_research#80, azure_openai:o3-mini, the same envelope; OpenHands/OpenHands#4838).
  Since 2026-11-27 OpenAI's is a warning: run-llama/llama_index#18784 (merged 2025-05-19) found 36,000 characters
  taken on gpt-4.1-mini, and no newer 400 was found (docs/fact-audit.md); Azure's since 2026-11-28, no Azure
  recording being newer than 2025-04-23 (tests/test_fact_freshness23i.py).
- Anthropic strict tool use: platform.claude.com/docs/en/build-with-claude/structured-outputs, "Schema complexity
  limits": "the API enforces several complexity limits": 20 strict tools per request, 24 optional parameters and 16
  parameters with union types across all strict schemas. The words of its 400s: "Too many strict tools (N). The
  maximum number of strict tools supported is 20" (datarobot-oss/datarobot-genai#547), "Schemas contains too many
  optional parameters (87), which would make grammar compilation inefficient. Reduce the number of optional
  parameters in your tool schemas (limit: 24)." (elie222/inbox-zero#2662), "... (limit: 16 parameters with unions)"
  (camel-ai/camel#4171 names the three limits).
- OpenAI's strict schemas (structured outputs, "Supported schemas"): at most 5000 object properties, 10 levels of
  nesting, 1000 enum values; read from secondary copies of the page only: a warning, the request still sent.
- Cohere, strict_tools: 'you can define a maximum of 200 fields across all tools' (docs.cohere.com/v2/docs/
  tool-use-parameter-types); no recorded refusal: a warning.
- Anthropic tool names: the API's 400 names ^[a-zA-Z0-9_-]{1,128}$ (its docs print {1,64}).
- Bedrock Converse: botocore's ToolSpecification.description is NonEmptyString {"min": 1} with no max: a long
  description is sent.

In-process: the translators and the mock service (no socket).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolchoice.providers.core.model import Message, RenderOptions, Scenario, Tool
from toolchoice.providers.core.registry import translate

STRICT_21 = "Too many strict tools (21). The maximum number of strict tools supported is 20"
OPTIONAL_25 = ("Schemas contains too many optional parameters (25), which would make grammar compilation inefficient. "
               "Reduce the number of optional parameters in your tool schemas (limit: 24).")
UNIONS_17 = "limit: 16 parameters with unions"


def scenario(*tools: Tool) -> Scenario:
    return Scenario(path="s.yaml", tools=tools, messages=(Message("user", "hi"),))


def run(provider: str, *tools: Tool) -> tuple[list[Any], Any]:
    t = translate(provider, scenario(*tools), RenderOptions())
    return [e for e in t.ledger if e.severity in ("error", "warning") and e.code.endswith("over_limit")], t


def described(length: int) -> tuple[Tool, ...]:
    return (Tool("short", "d", {"type": "object", "properties": {}}),
            Tool("long", "x" * length, {"type": "object", "properties": {}}))


def test_azure_sends_a_description_over_1024_characters_with_a_warning() -> None:
    """Since 2026-11-28 (tests/test_fact_freshness23i.py): Azure's newest recorded 400 is of 2025-04-23 and no Azure
    source states the limit, so it is a warning that says since when it is unverified."""
    found, t = run("azure", *described(1025))
    assert t.request is not None and not t.refused
    assert [(e.severity, e.code) for e in found] == [("warning", "tool.over_limit")]
    assert "langchain-ai/open_deep_research#80" in found[0].message and "'long'" in found[0].message


def test_openai_sends_a_description_over_1024_characters_with_a_warning() -> None:
    """Audit of 2026-11-27 (docs/fact-audit.md): the newest recorded 400 on api.openai.com is of 2025-04-25
    (getsentry/sentry-mcp#106); run-llama/llama_index#18784 (merged 2025-05-19) found 36,000 characters taken on
    gpt-4.1-mini ('It seems openai has removed this length limit.'), and openai 3.57.0's FunctionDefinition.description
    states no maximum. No source says the API refuses it today: sent, with a warning naming both sources."""
    found, t = run("openai", *described(36_000))
    assert t.request is not None and not t.refused
    assert [(e.severity, e.code) for e in found] == [("warning", "tool.over_limit")]
    assert "sent as written" in found[0].message and "run-llama/llama_index#18784" in found[0].message
    assert "getsentry/sentry-mcp#106" in found[0].message and "'long'" in found[0].message


@pytest.mark.parametrize("provider", ["openai", "azure"])
def test_a_description_of_1024_characters_is_sent(provider: str) -> None:
    found, t = run(provider, *described(1024))
    assert t.request is not None and not found


@pytest.mark.parametrize("provider", ["openai-responses", "anthropic", "bedrock", "gemini", "groq", "mistral", "cohere"])
def test_no_source_no_description_limit(provider: str) -> None:
    found, t = run(provider, *described(5000))
    assert t.request is not None and not found


def answer(provider: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    from toolchoice.providers.core.mock.service import MockService

    exchange = MockService(provider).handle("POST", path, {}, json.dumps(body).encode())
    return exchange.status, json.loads(exchange.body or b"null")


def chat_body(length: int) -> dict[str, Any]:
    return {"model": "gpt-5.4-mini", "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"type": "function", "function": {"name": n, "description": d,
                                                        "parameters": {"type": "object", "properties": {}}}}
                      for n, d in (("short", "d"), ("long", "x" * length))]}


def test_the_openai_mock_takes_a_long_description() -> None:
    """No source says api.openai.com refuses it today (fact openai.description_limit): the mock answers it."""
    status, _ = answer("openai", "/v1/chat/completions", chat_body(36_000))
    assert status == 200


def test_the_azure_mock_takes_a_long_description() -> None:
    """No source says Azure refuses it today (fact azure.description_limit, unverified since 2025-04-23)."""
    status, _ = answer("azure", "/v1/chat/completions", chat_body(1025))
    assert status == 200


def test_the_groq_mock_takes_a_long_description() -> None:
    status, _ = answer("groq", "/openai/v1/chat/completions", {**chat_body(5000), "model": "openai/gpt-oss-120b"})
    assert status == 200


def strict_tool(name: str, schema: dict[str, Any], strict: bool = True) -> Tool:
    return Tool(name, "d", schema, strict=strict)


CLOSED = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}


def test_more_than_20_strict_tools_are_refused_by_anthropic() -> None:
    found, t = run("anthropic", *(strict_tool(f"t{i}", CLOSED) for i in range(21)))
    assert t.request is None
    assert [(e.severity, e.code) for e in found] == [("error", "schema.over_limit")]
    assert STRICT_21 in found[0].message and "datarobot-oss/datarobot-genai#547" in found[0].message
    found, t = run("anthropic", *(strict_tool(f"t{i}", CLOSED) for i in range(20)))
    assert t.request is not None and not found
    found, t = run("anthropic", *(strict_tool(f"t{i}", CLOSED, strict=False) for i in range(40)))
    assert t.request is not None and not found  # "Non-strict tools don't count toward this limit."


def optional(count: int, prefix: str = "o") -> dict[str, Any]:
    return {"type": "object", "properties": {f"{prefix}{i}": {"type": "string"} for i in range(count)},
            "additionalProperties": False}


def test_more_than_24_optional_parameters_across_strict_schemas_are_refused_by_anthropic() -> None:
    nested = {"type": "object", "properties": {"inner": optional(5, "n")}, "required": ["inner"],
              "additionalProperties": False}  # nested ones count: "Each parameter not listed in required"
    found, t = run("anthropic", strict_tool("a", optional(20)), strict_tool("b", nested))
    assert t.request is None
    assert [e.code for e in found] == ["schema.over_limit"]
    assert OPTIONAL_25 in found[0].message and "elie222/inbox-zero#2662" in found[0].message
    found, t = run("anthropic", strict_tool("a", optional(19)), strict_tool("b", nested))
    assert t.request is not None and not found
    found, t = run("anthropic", strict_tool("a", optional(20), strict=False), strict_tool("b", nested, strict=False))
    assert t.request is not None and not found


def unions(count: int) -> dict[str, Any]:
    props = {f"u{i}": ({"type": ["string", "null"]} if i % 2 else {"anyOf": [{"type": "string"}, {"type": "null"}]})
             for i in range(count)}
    return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}


def test_more_than_16_union_parameters_across_strict_schemas_are_refused_by_anthropic() -> None:
    found, t = run("anthropic", strict_tool("a", unions(17)))
    assert t.request is None and [e.code for e in found] == ["schema.over_limit"]
    assert UNIONS_17 in found[0].message and "(17 parameters with type arrays or anyOf)" in found[0].message
    found, t = run("anthropic", strict_tool("a", unions(16)))
    assert t.request is not None and not found


def test_the_anthropic_mock_answers_21_strict_tools_as_anthropic_does() -> None:
    body = {"model": "claude-sonnet-4-6", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"name": f"t{i}", "input_schema": CLOSED, "strict": True} for i in range(21)]}
    status, reply = answer("anthropic", "/v1/messages", body)
    assert status == 400
    assert reply["type"] == "error" and reply["error"]["type"] == "invalid_request_error"
    assert reply["error"]["message"].startswith(STRICT_21)
    body["tools"] = body["tools"][:20]
    status, _ = answer("anthropic", "/v1/messages", body)
    assert status == 200


def test_the_anthropic_mock_answers_25_optional_parameters_as_anthropic_does() -> None:
    body = {"model": "claude-sonnet-4-6", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"name": "a", "input_schema": optional(25), "strict": True}]}
    status, reply = answer("anthropic", "/v1/messages", body)
    assert status == 400 and reply["error"]["message"] == OPTIONAL_25


def test_openais_strict_schema_limits_are_warnings_from_secondary_copies() -> None:
    many = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(5001)},
            "required": [f"p{i}" for i in range(5001)], "additionalProperties": False}
    for provider in ("openai", "openai-responses"):
        found, t = run(provider, strict_tool("many", many))
        assert t.request is not None
        assert [(e.severity, e.code) for e in found] == [("warning", "schema.over_limit")]
        assert "5001" in found[0].message and "5000" in found[0].message
        found, t = run(provider, strict_tool("many", many, strict=False))
        assert t.request is not None and not found


def test_openais_strict_nesting_over_10_levels_is_a_warning() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for level in range(11):
        schema = {"type": "object", "properties": {f"l{level}": schema}, "required": [f"l{level}"],
                  "additionalProperties": False}
    found, t = run("openai", strict_tool("deep", schema))
    assert t.request is not None and [(e.severity, e.code) for e in found] == [("warning", "schema.over_limit")]
    assert "11" in found[0].message and "10" in found[0].message
    found, t = run("openai", strict_tool("deep", schema["properties"]["l10"]))
    assert not found


def test_bedrock_takes_a_description_of_any_length_as_botocore_states() -> None:
    botocore = pytest.importorskip("botocore.loaders")
    model = botocore.Loader().load_service_model("bedrock-runtime", "service-2")
    spec = model["shapes"]["ToolSpecification"]["members"]["description"]["shape"]
    assert "max" not in model["shapes"][spec]  # no source states a most: nothing refused
    found, t = run("bedrock", *described(20000))
    assert t.request is not None and not found


ANTHROPIC_NAME_128 = "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"


def test_anthropic_takes_names_up_to_128_characters_as_its_validator_says() -> None:
    """The API's own 400s name the rule ^[a-zA-Z0-9_-]{1,128}$ (home-assistant/core#147760, vybestack/llxprt-code#482,
    nicobailon/pi-mcp-adapter#190; 'tools.18.custom.name: String should have at most 128 characters' in
    anthropics/claude-code#96152), while the tool-use docs still print {1,64}: 65 to 128 characters are sent with a
    warning naming the docs' rule, 129 are refused."""
    closed = {"type": "object", "properties": {}}
    found, t = run("anthropic", Tool("x" * 100, "d", closed))
    names = [e for e in t.ledger if e.code.startswith("tool.name")]
    assert t.request is not None and [(e.severity, e.code) for e in names] == [("warning", "tool.name_unstated")]
    assert "64" in names[0].message and "128" in names[0].message
    t = translate("anthropic", scenario(Tool("x" * 129, "d", closed)), RenderOptions())
    names = [e for e in t.ledger if e.code.startswith("tool.name")]
    assert t.request is None and [e.code for e in names] == ["tool.name_invalid"] and "128" in names[0].message
    t = translate("anthropic", scenario(Tool("x" * 64, "d", closed)), RenderOptions())
    assert t.request is not None and not [e for e in t.ledger if e.code.startswith("tool.name")]


def test_cohere_strict_tools_over_200_fields_is_a_warning() -> None:
    """docs.cohere.com/v2/docs/tool-use-parameter-types: 'When the strict_tools parameter is set to True, you can
    define a maximum of 200 fields across all tools being passed to an API call.' No recorded refusal: a warning."""
    def tool(name: str, count: int) -> Tool:
        props = {f"f{i}": {"type": "string"} for i in range(count)}
        return Tool(name, "d", {"type": "object", "properties": props, "required": list(props)}, strict=True)

    found, t = run("cohere", tool("a", 150), tool("b", 51))
    assert t.request is not None and t.request.body["strict_tools"] is True
    assert [(e.severity, e.code) for e in found] == [("warning", "schema.over_limit")]
    assert "201" in found[0].message and "200" in found[0].message
    found, t = run("cohere", tool("a", 150), tool("b", 50))
    assert t.request is not None and not found
    loose = [t._replace(strict=None) for t in (tool("a", 150), tool("b", 51))]
    found, t = run("cohere", *loose)
    assert t.request is not None and not found


def test_a_gemini_name_over_64_characters_is_sent_with_a_warning() -> None:
    """google-genai's FunctionDeclaration.name: '... with a maximum length of 128.' (the types, read 2026-11-26), while
    the API's recorded 400s say '... or dashes (-), with a maximum length of 64.' (kaitranntt/ccs#25, #219): the two
    disagree, so 65 to 128 characters are sent with a warning; past 128 the SDK's rule refuses."""
    types = pytest.importorskip("google.genai.types")
    assert "maximum length of 128" in (types.FunctionDeclaration.model_fields["name"].description or "")
    closed = {"type": "object", "properties": {}}
    t = translate("gemini", scenario(Tool("x" * 100, "d", closed)), RenderOptions())
    names = [e for e in t.ledger if e.code.startswith("tool.name")]
    assert t.request is not None and [(e.severity, e.code) for e in names] == [("warning", "tool.name_unstated")]
    assert "kaitranntt/ccs#25" in names[0].message and "64" in names[0].message
    t = translate("gemini", scenario(Tool("x" * 64, "d", closed)), RenderOptions())
    assert t.request is not None and not [e for e in t.ledger if e.code.startswith("tool.name")]
    t = translate("gemini", scenario(Tool("x" * 129, "d", closed)), RenderOptions())
    assert t.request is None


def test_openais_strict_enum_limits_are_warnings() -> None:
    """'Up to 1,000 enum values across the schema'; 'If one string enum has more than 250 values, combined enum string
    length must be <= 15,000 characters' (jsonschemaprofiles.unitvectorylabs.com/schemas/openai, secondary)."""
    def tool(values: list[str]) -> Tool:
        return strict_tool("pick", {"type": "object", "properties": {"v": {"type": "string", "enum": values}},
                                    "required": ["v"], "additionalProperties": False})

    found, t = run("openai", tool([f"v{i}" for i in range(1001)]))
    assert t.request is not None and [(e.severity, e.code) for e in found] == [("warning", "schema.over_limit")]
    assert "1001" in found[0].message
    found, _ = run("openai", tool([f"{i:060d}" for i in range(251)]))  # 251 values of 60 characters: 15,060
    assert [(e.severity, e.code) for e in found] == [("warning", "schema.over_limit")] and "15060" in found[0].message
    found, _ = run("openai", tool([f"{i:060d}" for i in range(250)]))  # 250 values: no length limit stated
    assert not found


def test_the_anthropic_mock_refuses_names_in_the_apis_own_words() -> None:
    """The API's recorded 400s, envelope and words: a name past 128 characters 'tools.18.custom.name: String should
    have at most 128 characters' (anthropics/claude-code#96152, {"type":"error","error":{"type":
    "invalid_request_error","message":...},"request_id":...}); a name with another character "tools.0.custom.name:
    String should match pattern '^[a-zA-Z0-9_-]{1,128}$'" (home-assistant/core#147760, name 'assist.HassTurnOn')."""
    def body(name: str) -> dict[str, Any]:
        return {"model": "claude-sonnet-4-6", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}],
                "tools": [{"name": "ok", "input_schema": {"type": "object"}},
                          {"name": name, "input_schema": {"type": "object"}}]}

    status, reply = answer("anthropic", "/v1/messages", body("x" * 129))
    assert status == 400 and reply["type"] == "error" and reply["error"] == {
        "type": "invalid_request_error", "message": "tools.1.custom.name: String should have at most 128 characters"}
    status, reply = answer("anthropic", "/v1/messages", body("assist.HassTurnOn"))
    assert status == 400 and reply["error"]["message"] == ANTHROPIC_NAME_128.replace("tools.0", "tools.1")
    status, _ = answer("anthropic", "/v1/messages", body("x" * 128))
    assert status == 200


def test_a_render_within_every_limit_does_not_read_the_dated_facts():
    """The limits are checked on every request, but the facts they cite are read only for a request over one: a
    render of every provider within the limits imports no core.facts (a command imports only what it uses)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys\nfrom toolchoice.cli.app import run\nrun(sys.argv[1:])\n"
            "print(sorted(m for m in sys.modules if m.endswith(('core.facts', 'core.hosted_tool_facts'))))\n")
    root = Path(__file__).parent.parent
    result = subprocess.run([sys.executable, "-c", code, "render", "configs/planner-trap.yaml", "-p", "all", "-f",
                             "json"], capture_output=True, text=True, timeout=60, cwd=root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "[]"
