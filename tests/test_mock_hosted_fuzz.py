"""The mock's reading of hosted tools (MCP servers, toolsets, tool_choice mcp) on odd JSON values: a value of
the wrong type is the API's 400 in its own envelope, never the mock's 500 (adversarial report #7: Responses
``"allowed_tools": "notalist"`` and Anthropic ``"mcp_server_name": {"x": 1}`` were answered 500).

The fields and their types are those of the SDK types (openai 3.57.0 types/responses/tool_param.py Mcp and
tool_choice_mcp_param.py; anthropic 2.14.0 beta_request_mcp_server_url_definition_param.py,
beta_mcp_toolset_param.py; google-genai 3.6.1 types.McpServer / StreamableHttpTransport). Each example puts one
JSON value of any shape at one of those places in an otherwise valid body."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from json_places import put
from toolchoice.providers.core.mock.service import MockService

SECRET = "sk-fuzz-mcp-secret-5c4b3a29"
RESPONSES = ("/v1/responses", {
    "model": "gpt-5.4-mini", "input": "What is React?",
    "tools": [{"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp",
               "allowed_tools": ["ask_question"], "require_approval": "never",
               "headers": {"Authorization": f"Bearer {SECRET}"}, "authorization": SECRET}],
    "tool_choice": {"type": "mcp", "server_label": "deepwiki", "name": "ask_question"}})
ANTHROPIC = ("/v1/messages", {
    "model": "claude-sonnet-5", "max_tokens": 64, "messages": [{"role": "user", "content": "What is React?"}],
    "mcp_servers": [{"type": "url", "name": "deepwiki", "url": "https://mcp.deepwiki.com/mcp",
                     "authorization_token": SECRET, "tool_configuration": {"allowed_tools": ["a"], "enabled": True}}],
    "tools": [{"type": "mcp_toolset", "mcp_server_name": "deepwiki", "configs": {"a": {"enabled": True}},
               "default_config": {"enabled": True}}],
    "tool_choice": {"type": "any"}})
GEMINI = ("/v1beta/models/gemini-3.5-flash:generateContent", {
    "contents": [{"role": "user", "parts": [{"text": "What is React?"}]}],
    "tools": [{"mcpServers": [{"name": "deepwiki", "streamableHttpTransport": {
        "url": "https://mcp.deepwiki.com/mcp", "headers": {"Authorization": f"Bearer {SECRET}"}, "timeout": "5s"}}]}],
    "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}})

# (provider, base, places): a place is the path of keys to the value replaced
CASES = {
    "openai-responses": (RESPONSES, [
        ("tools", 0), *[("tools", 0, key) for key in (
            "type", "server_label", "server_url", "connector_id", "tunnel_id", "server_description", "authorization",
            "headers", "allowed_callers", "defer_loading", "allowed_tools", "require_approval")],
        ("tools", 0, "headers", "Authorization"), ("tools", 0, "allowed_tools", 0),
        ("tool_choice",), ("tool_choice", "server_label"), ("tool_choice", "name"), ("tool_choice", "type")]),
    "anthropic": (ANTHROPIC, [
        ("mcp_servers",), ("mcp_servers", 0), *[("mcp_servers", 0, key) for key in (
            "type", "name", "url", "authorization_token", "tool_configuration")],
        ("mcp_servers", 0, "tool_configuration", "allowed_tools"), ("mcp_servers", 0, "tool_configuration", "enabled"),
        ("tools", 0), *[("tools", 0, key) for key in (
            "type", "mcp_server_name", "configs", "default_config", "cache_control", "tools")],
        ("tools", 0, "configs", "a"), ("tools", 0, "configs", "a", "enabled"), ("tools", 0, "default_config", "enabled"),
        ("tool_choice",)]),
    "gemini": (GEMINI, [
        ("tools", 0), ("tools", 0, "mcpServers"), ("tools", 0, "mcpServers", 0),
        ("tools", 0, "mcpServers", 0, "name"), ("tools", 0, "mcpServers", 0, "streamableHttpTransport"),
        *[("tools", 0, "mcpServers", 0, "streamableHttpTransport", key) for key in (
            "url", "headers", "timeout", "sseReadTimeout", "terminateOnClose")],
        ("tools", 0, "mcpServers", 0, "streamableHttpTransport", "headers", "Authorization"),
        ("toolConfig", "functionCallingConfig", "mode")]),
}
# the API's error envelope, per family (tests/data/responses/errors/*)
ENVELOPE = {"openai-responses": lambda body: set(body["error"]) >= {"message", "type"},
            "anthropic": lambda body: body["type"] == "error" and {"type", "message"} <= set(body["error"]),
            "gemini": lambda body: {"code", "message", "status"} <= set(body["error"])}

scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False) \
    | st.text(max_size=12) | st.sampled_from(["deepwiki", "always", "never", "mcp", "url", "ANY", ""])
json_values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=3) | st.dictionaries(
    st.text(max_size=6) | st.sampled_from(["tool_names", "read_only", "always", "never", "enabled", "url"]), kids,
    max_size=3), max_leaves=10)


@pytest.mark.parametrize("provider", list(CASES))
def test_an_odd_value_in_a_hosted_tool_field_is_never_a_500(provider: str) -> None:
    (path, base), places = CASES[provider]
    service = MockService(provider)
    assert service.handle("POST", path, {}, json.dumps(base).encode()).status == 200  # the base is valid

    @settings(max_examples=80, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(places), json_values)
    def check(place: tuple[Any, ...], value: Any) -> None:
        exchange = service.handle("POST", path, {}, json.dumps(put(base, place, value)).encode())
        assert exchange.status in (200, 400), (place, value, exchange.body)
        assert exchange.record["status"] == exchange.status
        if exchange.status == 400:
            assert ENVELOPE[provider](json.loads(exchange.body)), exchange.body
        # whatever the body, its MCP secret is in no answer nor record
        assert SECRET not in (exchange.body or b"").decode() + json.dumps(exchange.record)

    check()


@pytest.mark.parametrize(("provider", "place", "value", "words"), [
    ("openai-responses", ("tools", 0, "allowed_tools"), "notalist",
     "Invalid type for 'tools[0].allowed_tools': expected an array of strings or an object, but got a string instead."),
    ("openai-responses", ("tools", 0, "headers", "Authorization"), 5,
     "Invalid type for 'tools[0].headers.Authorization': expected a string, but got an integer instead."),
    ("openai-responses", ("tool_choice", "server_label"), None,
     "Invalid type for 'tool_choice.server_label': expected a string, but got null instead."),
    ("anthropic", ("tools", 0, "mcp_server_name"), {"x": 1}, "tools.0.mcp_server_name: Input should be a valid string"),
    ("anthropic", ("mcp_servers", 0, "authorization_token"), ["x"],
     "mcp_servers.0.authorization_token: Input should be a valid string"),
    ("gemini", ("tools", 0, "mcpServers", 0, "streamableHttpTransport", "headers"), "x",
     "Invalid JSON payload received. Invalid value at 'tools[0].mcp_servers[0].streamable_http_transport.headers': "
     "expected an object."),
])
def test_the_reports_bodies_are_answered_400_in_the_apis_words(provider: str, place: tuple[Any, ...], value: Any,
                                                                 words: str) -> None:
    (path, base), _ = CASES[provider]
    exchange = MockService(provider).handle("POST", path, {}, json.dumps(put(base, place, value)).encode())
    assert exchange.status == 400
    assert words in exchange.body.decode()
    assert exchange.record["findings"][-1] == {"severity": "error", "code": "mock.refused", "message": words}


def test_unjudged_names_each_tool_type_once_with_its_count() -> None:
    """40,000 MCP toolsets made a 520 KB log line naming mcp_toolset 40,000 times (adversarial report #14)."""
    (path, base), _ = CASES["anthropic"]
    servers = [{"type": "url", "name": f"s{i}", "url": f"https://mcp{i}.example/mcp"} for i in range(3)]
    tools = [{"type": "mcp_toolset", "mcp_server_name": f"s{i}"} for i in range(3)] + \
        [{"type": "web_search_20250305", "name": "web_search"}] * 2
    exchange = MockService("anthropic").handle("POST", path, {}, json.dumps(
        {**base, "mcp_servers": servers, "tools": tools}).encode())
    assert exchange.status == 200
    (unjudged,) = [f["message"] for f in exchange.record["findings"] if f["code"] == "mock.unjudged"]
    assert unjudged == "tools that are not functions, passed unjudged: mcp_toolset (3), web_search_20250305 (2)"
