"""Hosted tools in a scenario's ``tools:`` (core/native_tools.py): remote MCP servers and the programmatic
tool-calling tools, held to the SDKs' request types (checked 2026-11-26):

- openai 3.57.0 ``types/responses/tool_param.py`` ``Mcp`` (server_label, server_url | connector_id | tunnel_id,
  allowed_tools, require_approval, headers, authorization, ...) and ``ProgrammaticToolCalling``;
- anthropic 2.14.0 ``types/beta/beta_request_mcp_server_url_definition_param.py`` (``mcp_servers``),
  ``types/beta/beta_mcp_toolset_param.py`` (the ``mcp_toolset`` tool), ``types/anthropic_beta_param.py``
  (``mcp-client-2025-11-20``), ``types/code_execution_tool_20250825_param.py``;
- google-genai 3.6.1 ``types.Tool.mcp_servers`` (``McpServer``, ``StreamableHttpTransport``).

Rendered bodies are validated by the SDK types; every provider that leaves a hosted tool out says so, and the
SDK type it names is read to check that it really has no such tool.
"""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import pytest

from cli import run_cli
from sdk_types import check, missing
from test_native_choices import _all_words
from toolchoice.providers import load_scenario_text, translate
from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.model import NativeTool, ToolchoiceError, RenderOptions
from toolchoice.providers.core.transport import prepare

MCP = {"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp",
       "require_approval": "never", "allowed_tools": ["ask_question"]}
FUNCTION = {"name": "get_time", "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}}}
TAKERS = {"mcp": {"openai-responses", "anthropic", "gemini"}, "programmatic_tool_calling": {"openai-responses"},
          "code_execution_20250825": {"anthropic"}}


def scenario(*tools: dict[str, Any], choice: Any = None, settings: dict[str, Any] | None = None) -> Any:
    doc: dict[str, Any] = {"tools": [FUNCTION, *tools], "messages": [{"role": "user", "content": "What is React?"}]}
    if choice is not None:
        doc["tool_choice"] = choice
    if settings:
        doc["providers"] = settings
    return load_scenario_text(json.dumps(doc), "s.yaml")


def codes(t: Any) -> list[str]:
    return [e.code for e in t.ledger]


# ---- reading ------------------------------------------------------------------------------------------


def test_hosted_tools_are_read_apart_from_the_function_tools():
    s = scenario(MCP, {"type": "programmatic_tool_calling"}, {"type": "code_execution_20250825"})
    assert [t.name for t in s.tools] == ["get_time"]
    assert s.native_tools == (NativeTool("mcp", MCP), NativeTool("programmatic_tool_calling"),
                              NativeTool("code_execution_20250825"))


@pytest.mark.parametrize("tool, words", [
    ({"type": "mcp", "server_url": "https://x.example/mcp"}, "needs server_label"),
    ({"type": "mcp", "server_label": "x"}, "exactly one of server_url, connector_id and tunnel_id"),
    ({"type": "mcp", "server_label": "x", "server_url": "https://a/mcp", "connector_id": "connector_gmail"},
     "(it has server_url and connector_id)"),
    ({"type": "mcp", "server_label": "x", "connector_id": "connector_gmial"}, "is not one of openai's connectors"),
    ({"type": "mcp", "server_label": "x y", "server_url": "https://a/mcp"}, "must be letters, digits"),
    ({"type": "mcp", "server_label": "x", "server_url": "ftp://a"}, "must be an http(s) URL"),
    ({"type": "mcp", "server_label": "x", "server_url": "https://a/mcp", "headers": {"Authorization": "Bearer sk-1"}},
     "must be an $ENV reference"),
    ({"type": "mcp", "server_label": "x", "server_url": "https://a/mcp", "authorization": "Bearer $T"},
     "must be an $ENV reference"),
    ({"type": "mcp", "server_label": "x", "server_url": "https://a/mcp", "require_approval": "sometimes"},
     "must be always, never"),
    ({"type": "mcp", "server_label": "x", "server_url": "https://a/mcp", "allowed_tool": ["a"]},
     "unknown key 'allowed_tool'"),
    ({"type": "programmatic_tool_calling", "name": "p"}, "unknown key 'name'"),
    ({"type": "code_execution_20250825", "name": "run"}, "always code_execution"),
])
def test_bad_hosted_tools_are_one_line_errors_with_their_line(tool, words):
    with pytest.raises(ToolchoiceError) as caught:
        scenario(tool)
    text = str(caught.value)
    assert words in text and "s.yaml:" in text and "\n" not in text


def test_two_servers_with_one_label_are_refused(tmp_path: Path):
    path = tmp_path / "dup.yaml"
    path.write_text("tools:\n  - {type: mcp, server_label: a, server_url: 'https://a.example/mcp'}\n"
                    "  - {type: mcp, server_label: a, server_url: 'https://b.example/mcp'}\n"
                    "messages: [{role: user, content: hi}]\n")
    result = run_cli(["render", str(path), "-p", "openai-responses"])
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"{path}:3" in result.stderr and "duplicate mcp server_label 'a' (first declared on line 2)" in result.stderr


# ---- rendered where the API takes them, as the SDK types say ---------------------------------------------------


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_responses_sends_them_as_tool_param_has_them_and_native_target_sees_them():
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    t = translate("openai-responses", scenario(MCP, {"type": "programmatic_tool_calling"},
                                              choice={"type": "mcp", "server_label": "deepwiki", "name": "ask_question"}))
    assert not t.refused, t.ledger
    body = t.request.body
    assert body["tools"][1:] == [MCP, {"type": "programmatic_tool_calling"}]
    assert check(body, ResponseCreateParamsNonStreaming) == []
    assert "tool_choice.native_target" not in codes(t)  # the scenario declares the forced server
    other = translate("openai-responses", scenario(MCP, choice={"type": "mcp", "server_label": "elsewhere"}))
    assert "tool_choice.native_target" in codes(other)
    ptc = translate("openai-responses", scenario(MCP, choice={"type": "programmatic_tool_calling"}))
    assert "tool_choice.native_target" in codes(ptc)


def test_a_forced_mcp_call_needs_no_function_tool_where_the_server_is_sent():
    doc = {"tools": [MCP], "tool_choice": {"type": "mcp", "server_label": "deepwiki"},
           "messages": [{"role": "user", "content": "hi"}]}
    t = translate("openai-responses", load_scenario_text(json.dumps(doc), "s.yaml"))
    assert not t.refused and t.request.body["tools"] == [MCP]
    assert t.request.body["tool_choice"] == {"type": "mcp", "server_label": "deepwiki"}
    required = dict(doc, tool_choice="required")
    dropped = translate("openai", load_scenario_text(json.dumps(required), "s.yaml"))
    assert dropped.refused and "tool_choice.without_tools" in codes(dropped)  # nothing would be sent there


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_anthropic_sends_the_mcp_connector_with_its_beta_header():
    from anthropic.types.anthropic_beta_param import AnthropicBetaParam
    from anthropic.types.beta.message_create_params import MessageCreateParamsNonStreaming

    from test_sdk_claims import literals

    server = dict(MCP, authorization="$DEEPWIKI_TOKEN", defer_loading=True)
    t = translate("anthropic", scenario(server, {"type": "code_execution_20250825"}, choice="required"),
                  RenderOptions(allow_env=("DEEPWIKI_TOKEN",)))
    assert not t.refused, t.ledger
    body = t.request.body
    assert body["mcp_servers"] == [{"type": "url", "url": MCP["server_url"], "name": "deepwiki",
                                    "authorization_token": "$DEEPWIKI_TOKEN"}]
    assert body["tools"][1:] == [
        {"type": "mcp_toolset", "mcp_server_name": "deepwiki", "configs": {"ask_question": {"enabled": True}},
         "default_config": {"enabled": False, "defer_loading": True}},
        {"type": "code_execution_20250825", "name": "code_execution"}]
    assert check(body, MessageCreateParamsNonStreaming) == []
    assert t.request.headers["anthropic-beta"] == "mcp-client-2025-11-20"
    assert "mcp-client-2025-11-20" in literals(AnthropicBetaParam)
    assert "tool.native_beta" in codes(t)
    assert t.request.body_env == (("mcp_servers", 0, "authorization_token"),)


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_anthropic_names_what_its_server_definition_lacks():
    from anthropic.types.beta.beta_request_mcp_server_url_definition_param import \
        BetaRequestMCPServerURLDefinitionParam as Server

    server = dict(MCP, require_approval="always", server_description="docs", headers={"X-Team": "$TEAM"})
    t = translate("anthropic", scenario(server))
    dropped = [e.message for e in t.ledger if e.code == "tool.native_field_dropped"]
    assert [m.split(": ")[1].split(" ")[0] for m in dropped] == ["headers", "server_description", "require_approval"]
    assert not {"headers", "description", "server_description", "require_approval"} & set(typing.get_type_hints(Server))
    code_only = translate("anthropic", scenario({"type": "code_execution_20250825"}))
    assert "mcp_servers" not in code_only.request.body and "anthropic-beta" not in code_only.request.headers
    connector = translate("anthropic", scenario({"type": "mcp", "server_label": "g", "connector_id": "connector_gmail"}))
    assert "tool.native_dropped" in codes(connector) and "mcp_servers" not in connector.request.body


@pytest.mark.skipif(missing("google.genai"), reason="needs google-genai")
def test_gemini_sends_an_mcp_server_as_its_tool_type_has_it():
    from google.genai import types

    server = dict(MCP, headers={"X-Api-Key": "$DOCS_KEY"})
    t = translate("gemini", scenario(server), RenderOptions(allow_env=("DOCS_KEY",)))
    assert not t.refused, t.ledger
    hosted = t.request.body["tools"][1]
    assert hosted == {"mcpServers": [{"name": "deepwiki", "streamableHttpTransport": {
        "url": MCP["server_url"], "headers": {"X-Api-Key": "$DOCS_KEY"}}}]}
    tool = types.Tool.model_validate(hosted)  # the SDK's own model reads the camelCase wire form
    assert tool.mcp_servers[0].streamable_http_transport.url == MCP["server_url"]
    assert t.request.body_env == (("tools", 1, "mcpServers", 0, "streamableHttpTransport", "headers", "X-Api-Key"),)


# ---- left out elsewhere, with the SDK type that lacks them -----------------------------------------------


@pytest.mark.parametrize("provider", PROVIDER_IDS)
def test_every_provider_sends_or_names_what_it_leaves_out(provider):
    s = scenario(MCP, {"type": "programmatic_tool_calling"}, {"type": "code_execution_20250825"})
    t = translate(provider, s)
    dropped = {e.message.split(" is not sent")[0] for e in t.ledger if e.code == "tool.native_dropped"}
    expected = {f"tool {'mcp server ' + repr('deepwiki') if kind == 'mcp' else kind}"
                for kind, takers in TAKERS.items() if provider not in takers}
    assert dropped == expected
    text = json.dumps(t.request.body)
    for kind, takers in TAKERS.items():
        if provider not in takers:
            assert kind not in text and "deepwiki" not in text if kind == "mcp" else kind not in text


def _openai_chat_tools() -> Any:
    from openai.types.chat.chat_completion_tool_union_param import ChatCompletionToolUnionParam

    return ChatCompletionToolUnionParam


def _mistral_tools() -> Any:
    from mistralai.client.models.chatcompletionrequest import ChatCompletionRequestTool

    return ChatCompletionRequestTool


def _cohere_tools() -> Any:
    from cohere.types import ToolV2

    return ToolV2


def _ollama_tools() -> Any:
    from ollama._types import Tool

    return Tool


def _responses_tools() -> Any:
    from openai.types.responses.tool_param import ToolParam

    return ToolParam


def _anthropic_tools() -> Any:
    from anthropic.types.beta.beta_tool_union_param import BetaToolUnionParam

    return BetaToolUnionParam


# The SDK tool types the drop messages name (TOOLS_TYPE): none has the kinds they leave out.
LACKING = {"openai": ("openai", _openai_chat_tools, ("mcp", "programmatic_tool_calling", "code_execution_20250825")),
           "mistral": ("mistralai", _mistral_tools, ("mcp", "programmatic_tool_calling", "code_execution_20250825")),
           "cohere": ("cohere", _cohere_tools, ("mcp", "programmatic_tool_calling", "code_execution_20250825")),
           "openai-responses": ("openai", _responses_tools, ("code_execution_20250825",)),
           "anthropic": ("anthropic", _anthropic_tools, ("programmatic_tool_calling",))}


@pytest.mark.parametrize("provider", sorted(LACKING))
def test_the_named_sdk_type_really_lacks_the_tool(provider):
    package, load, kinds = LACKING[provider]
    if missing(package):
        pytest.skip(f"needs {package}")
    words = _all_words(load())
    assert ("custom" if provider == "anthropic" else "function") in words  # the reader sees the type's literals
    assert not set(kinds) & words
    if provider == "openai-responses":
        assert {"mcp", "programmatic_tool_calling"} <= words
    if provider == "anthropic":
        assert {"mcp_toolset", "code_execution_20250825"} <= words


@pytest.mark.skipif(missing("ollama"), reason="needs ollama")
def test_ollamas_tool_is_a_function_declaration_only():
    assert set(_ollama_tools().model_fields) == {"type", "function"}  # type is a str: no server fields to send


@pytest.mark.skipif(missing("botocore"), reason="needs botocore")
def test_bedrocks_tool_shape_has_no_hosted_tool():
    from sdk_types import botocore_session

    shape = botocore_session().get_service_model("bedrock-runtime").shape_for("Tool")
    assert set(shape.members) == {"toolSpec", "systemTool", "cachePoint"}


# ---- secrets: $ENV in the body, resolved only at send time --------------------------------------------------


def test_a_header_secret_is_resolved_at_send_time_and_redacted():
    server = dict(MCP, headers={"Authorization": "Bearer $DEEPWIKI_TOKEN"})
    refused = translate("openai-responses", scenario(server))
    assert refused.refused and "env.not_allowed" in codes(refused)  # a scenario may not read a variable unasked
    t = translate("openai-responses", scenario(server), RenderOptions(allow_env=("DEEPWIKI_TOKEN",)))
    assert "env.allowed" in codes(t)
    assert t.request.body["tools"][1]["headers"] == {"Authorization": "Bearer $DEEPWIKI_TOKEN"}
    secret = "mcp-secret-value-0123456789"
    prepared = prepare(t.request, "openai-responses", {"OPENAI_API_KEY": "sk-test-0123456789abcdef",
                                                       "DEEPWIKI_TOKEN": secret})
    sent = json.loads(prepared.content)
    assert sent["tools"][1]["headers"] == {"Authorization": f"Bearer {secret}"}
    assert t.request.body["tools"][1]["headers"]["Authorization"] == "Bearer $DEEPWIKI_TOKEN"  # unchanged
    assert secret not in prepared.redactor.text(f"echo: {secret}")


PATH_SECRET = "sk-proj-pathkey-91c3e7a5d2b4f680"
URL_AT = {"openai-responses": ("tools", 1, "server_url"), "anthropic": ("mcp_servers", 0, "url"),
          "gemini": ("tools", 1, "mcpServers", 0, "streamableHttpTransport", "url")}


@pytest.mark.parametrize("provider", sorted(URL_AT))
def test_a_key_in_the_server_url_path_is_a_variable_read_at_send_time(provider: str) -> None:
    """trial 8b: a server that takes its key in the URL's path (``/KEY/mcp``) could only be written with the key
    itself (in the file and every output) or with ``$NAME``, which was sent as the text ``$NAME``, unread and
    ungated. Now it is an ``$ENV`` placeholder of the body, as a header's is: refused unless allowed, read at send
    time, redacted."""
    server = dict(MCP, server_url="https://mcp.example.com/$MCP_PATH_KEY/mcp")
    refused = translate(provider, scenario(server))
    assert refused.refused and "env.not_allowed" in codes(refused), codes(refused)
    t = translate(provider, scenario(server), RenderOptions(allow_env=("MCP_PATH_KEY",)))
    assert not t.refused and "env.allowed" in codes(t)
    value: Any = t.request.body
    for key in URL_AT[provider]:
        value = value[key]
    assert value == "https://mcp.example.com/$MCP_PATH_KEY/mcp"  # what every output shows
    env = {"OPENAI_API_KEY": "sk-test-0123456789abcdef", "ANTHROPIC_API_KEY": "sk-ant-test-0123456789",
           "GEMINI_API_KEY": "gem-test-0123456789abcdef", "MCP_PATH_KEY": PATH_SECRET}
    prepared = prepare(t.request, provider, env)
    assert f"https://mcp.example.com/{PATH_SECRET}/mcp" in prepared.content.decode()
    assert PATH_SECRET not in prepared.redactor.text(f"404 for /{PATH_SECRET}/mcp")


def test_send_delivers_a_server_url_key_and_shows_only_its_name(tmp_path: Path) -> None:
    from servers import StandIn, Step

    path = tmp_path / "mcp.yaml"
    path.write_text("tools:\n  - type: mcp\n    server_label: docs\n    server_url: https://docs.example/$MCP_PATH_KEY/mcp\n"
                    "messages: [{role: user, content: hi}]\n")
    env = {**DOCS_ENV, "MCP_PATH_KEY": PATH_SECRET}
    save = tmp_path / "saved"
    with StandIn("openai-responses", default=Step.reply("openai-responses")) as stand_in:
        result = run_cli(["send", str(path), "-p", "openai-responses", "--base-url", stand_in.base_url(),
                          "--allow-env", "MCP_PATH_KEY", "-f", "json", "--save", str(save)], env=env)
    assert result.returncode in (0, 4), result.stderr
    (got,) = stand_in.requests
    assert got.json["tools"][0]["server_url"] == f"https://docs.example/{PATH_SECRET}/mcp"
    assert json.loads(result.stdout)["request"]["body"]["tools"][0]["server_url"] == "https://docs.example/$MCP_PATH_KEY/mcp"
    saved = "".join(f.read_text(errors="replace") for f in save.rglob("*") if f.is_file())
    assert saved and PATH_SECRET not in result.stdout + result.stderr + saved
    missing_var = run_cli(["send", str(path), "-p", "openai-responses", "--base-url", "http://127.0.0.1:9",
                           "--allow-env", "MCP_PATH_KEY"], env=DOCS_ENV)
    assert missing_var.returncode != 0 and "server_url, headers or authorization need MCP_PATH_KEY" in (
        missing_var.stdout + missing_var.stderr), missing_var.stdout + missing_var.stderr


def test_render_never_shows_a_header_value_and_send_delivers_it(tmp_path: Path):
    path = tmp_path / "mcp.yaml"
    path.write_text("tools:\n  - {name: get_time}\n  - type: mcp\n    server_label: docs\n"
                    "    server_url: https://docs.example/mcp\n    headers: {X-Key: $DOCS_KEY}\n"
                    "messages: [{role: user, content: hi}]\n")
    header_reaches_the_server_never_the_output(path, DOCS_ENV)


DOCS_ENV = {"DOCS_KEY": "docs-key-value-0123456789abcdef", "OPENAI_API_KEY": "sk-test-0123456789abcdef",
            "NO_PROXY": "127.0.0.1"}


def header_reaches_the_server_never_the_output(path: Path, env: dict[str, str]) -> None:
    """`send` of a scenario whose second tool is an MCP server with the header ``X-Key: $DOCS_KEY`` to a
    127.0.0.1 stand-in: the server receives the value, the output shows only the placeholder."""
    from servers import StandIn, Step

    with StandIn("openai-responses", default=Step.reply("openai-responses")) as stand_in:
        result = run_cli(["send", str(path), "-p", "openai-responses", "--base-url", stand_in.base_url(),
                          "--allow-env", "DOCS_KEY", "-f", "json"], env=env)
    assert result.returncode in (0, 4), result.stderr
    assert env["DOCS_KEY"] not in result.stdout + result.stderr
    (got,) = stand_in.requests
    assert got.json["tools"][1]["headers"] == {"X-Key": env["DOCS_KEY"]}
    shown = json.loads(result.stdout)["request"]["body"]["tools"][1]["headers"]
    assert shown == {"X-Key": "$DOCS_KEY"}


# ---- a refused native choice carries no forcing notes -----------------------------------------------------


def test_a_refused_native_choice_gets_no_model_rule_notes_about_forcing():
    s = scenario(choice={"type": "mcp", "server_label": "x"},
                 settings={"anthropic": {"model": "claude-opus-4-6", "thinking": True}})
    t = translate("anthropic", s)
    assert t.refused and [e.code for e in t.ledger if e.severity == "error"] == ["tool_choice.unsupported"]
    assert not [e for e in t.ledger if e.code in ("thinking.forced_choice", "rule.applied", "tool_choice.mapped")]
    assert t.requested_tool_choice == {"type": "mcp", "server_label": "x"}
    forced = translate("anthropic", scenario(choice="required", settings=s.providers and {
        "anthropic": {"model": "claude-opus-4-6", "thinking": True}}))
    assert "thinking.forced_choice" in codes(forced)  # the same model and thinking with a choice that is sent


# ---- judged: a call on a declared MCP server obeys required --------------------------------------------------


ANTHROPIC_MCP_REPLY = {  # written from anthropic 2.14.0 types/beta/beta_message.py, validated below
    "id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-5", "stop_reason": "end_turn",
    "stop_sequence": None, "usage": {"input_tokens": 40, "output_tokens": 12},
    "content": [{"type": "mcp_tool_use", "id": "mcptoolu_01", "name": "ask_question", "server_name": "deepwiki",
                 "input": {"question": "What is React?"}},
                {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_01", "is_error": False,
                 "content": [{"type": "text", "text": "A UI library."}]},
                {"type": "text", "text": "React is a UI library."}]}


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_an_anthropic_mcp_call_is_a_server_call_that_obeys_required():
    from anthropic.types.beta.beta_message import BetaMessage

    from toolchoice.providers import parse_reply
    from toolchoice.providers.core.verdict import verdict

    BetaMessage.model_validate(ANTHROPIC_MCP_REPLY)
    reply = parse_reply("anthropic", ANTHROPIC_MCP_REPLY)
    assert [(c.kind, c.server, c.name, c.error) for c in reply.server_calls] == [
        ("mcp_tool_use", "deepwiki", "ask_question", None)]
    s = scenario(MCP, choice="required")
    t = translate("anthropic", s)
    judged = verdict(s, reply, t)
    assert judged["category"] == "obeyed" and "deepwiki/ask_question" in judged["reasons"][0]
    failed = json.loads(json.dumps(ANTHROPIC_MCP_REPLY))
    failed["content"][1]["is_error"] = True
    BetaMessage.model_validate(failed)
    assert parse_reply("anthropic", failed).server_calls[0].error == "mcp_tool_result is_error"
    text_only = dict(ANTHROPIC_MCP_REPLY, content=[ANTHROPIC_MCP_REPLY["content"][2]])
    assert verdict(s, parse_reply("anthropic", text_only), t)["category"] == "no_call"
    elsewhere = json.loads(json.dumps(ANTHROPIC_MCP_REPLY))  # a server the scenario does not declare
    elsewhere["content"][0]["server_name"] = "other-server"
    assert verdict(s, parse_reply("anthropic", elsewhere), t)["category"] == "no_call"


def test_a_transcript_keeps_the_hosted_tools_as_written():
    from toolchoice.providers.core.loop_save import transcript_scenario

    s = scenario(dict(MCP, headers={"X-Key": "$DOCS_KEY"}), {"type": "programmatic_tool_calling"})
    again = load_scenario_text(transcript_scenario(s, list(s.messages)), "t.yaml")
    assert again.native_tools == s.native_tools and again.tools == s.tools


def test_a_header_variable_that_is_not_set_is_named_before_any_connection():
    from toolchoice.providers.core.model import MissingKey

    server = dict(MCP, authorization="$DEEPWIKI_TOKEN")
    t = translate("openai-responses", scenario(server), RenderOptions(allow_env=("DEEPWIKI_TOKEN",)))
    assert t.request.body_env == (("tools", 1, "authorization"),)
    with pytest.raises(MissingKey) as caught:
        prepare(t.request, "openai-responses", {"OPENAI_API_KEY": "sk-test-0123456789abcdef"})
    assert "an mcp tool's server_url, headers or authorization need DEEPWIKI_TOKEN" in caught.value.message
