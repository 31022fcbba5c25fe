"""The hosted-tool facts (core/facts.py): which provider modules render a scenario's hosted tools
(``NATIVE_TOOLS``) and which SDK type each module's tools are (``TOOLS_TYPE``) are dated facts, named by id.

- every id a module names is a fact with the module's provider, a source whose citation is followed by the
  words quoted, and an ISO date; the ledger messages cite the fact (change the fact and the message changes);
- every such fact an SDK type can decide is held here against the installed SDK (the expected values are
  copied from the SDK files named in each fact, checked 2026-11-26: openai 3.57.0, anthropic 2.14.0,
  google-genai 3.6.1, mistralai 3.7.0, cohere 7.3.1, botocore 1.44.8, ollama 0.6.3);
- `toolchoice providers` prints them whole at 80 and 60 columns; bench/stale_facts.py lists them.
"""

from __future__ import annotations

import datetime
import json
import sys
import typing
from pathlib import Path
from typing import Any, Callable

import pytest
import typing_extensions

from cli import run_cli
from sdk_types import botocore_session, check, missing
from test_native_choices import _all_words
from test_sdk_claims import _members, annotation, fields, literals
from toolchoice.providers import load_scenario_text, translate
from toolchoice.providers.core import facts as facts_module
from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.facts import CITE_END, FACTS, HOSTED_TOOL_FACTS, Fact, cited, fact
from toolchoice.providers.core.native_tools import CODE_EXECUTION
from toolchoice.providers.core.registry import module_for

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("mcp", "programmatic_tool_calling", *CODE_EXECUTION)


def _tools_type(provider: str) -> str:
    named = getattr(module_for(provider), "TOOLS_TYPE", "")
    return named.get(provider, named.get("")) if isinstance(named, dict) else named


def _named_facts(provider: str) -> list[str]:
    """The fact ids a provider's module names: its hosted kinds' and its tools' type."""
    return [*getattr(module_for(provider), "NATIVE_TOOLS", {}).values(), _tools_type(provider)]


def _dated(f: Fact) -> None:
    """A fact a module reads: a citation, then the words quoted at the source, and an ISO date."""
    citation, sep, words = f.source.partition(CITE_END)
    assert citation.strip() and sep and words.strip(), f"{f.id}: no citation {CITE_END!r} words quoted"
    assert "'" in words or '"' in words, f"{f.id}: the source quotes no words"
    assert f.statement.strip(), f"{f.id}: no statement"
    datetime.date.fromisoformat(f.verified)


# ---- every id a module names is a dated fact ------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDER_IDS)
def test_each_modules_hosted_kinds_and_tools_type_are_dated_facts(provider):
    takes = getattr(module_for(provider), "NATIVE_TOOLS", {})
    assert set(takes) <= set(KINDS)
    if set(takes) != set(KINDS):  # it leaves a kind out, so its drop message names its tools' type
        assert _tools_type(provider), f"{provider} has no TOOLS_TYPE"
    for fact_id in _named_facts(provider):
        f = fact(fact_id)
        assert provider in f.providers, (provider, fact_id)
        _dated(f)


def test_the_hosted_tool_facts_are_the_ones_the_modules_name():
    named = {fact_id for pid in PROVIDER_IDS for fact_id in _named_facts(pid)}
    helpers = {"anthropic.native.mcp_beta", "anthropic.native.mcp_server", "anthropic.native.mcp_tool_config"}
    assert {f.id for f in HOSTED_TOOL_FACTS} == named | helpers
    assert set(HOSTED_TOOL_FACTS) <= set(FACTS)
    for f in HOSTED_TOOL_FACTS:  # a fact concerns exactly the providers whose module names it
        naming = {pid for pid in PROVIDER_IDS if f.id in _named_facts(pid)}
        assert set(f.providers) == (naming or {"anthropic"}), f.id


@pytest.mark.parametrize("f", HOSTED_TOOL_FACTS, ids=[f.id for f in HOSTED_TOOL_FACTS])
def test_a_hosted_tool_fact_keeps_its_source_and_date(f):
    _dated(f)


@pytest.mark.parametrize("broken", [{"source": ""}, {"source": "openai 3.57.0 types/responses/tool_param.py Mcp"},
                                    {"verified": ""}, {"verified": "soon"}])
def test_the_check_fails_a_fact_that_loses_its_source_or_date(broken):
    with pytest.raises((AssertionError, ValueError)):
        _dated(fact("openai-responses.native.mcp")._replace(**broken))


def test_an_unknown_id_is_a_key_error():
    with pytest.raises(KeyError):
        fact("openai-responses.native.web_search")


# ---- the ledger messages cite the facts -----------------------------------------------------------


MCP = {"type": "mcp", "server_label": "docs", "server_url": "https://docs.example/mcp", "require_approval": "never"}


def _translate(provider: str, *tools: dict[str, Any]) -> Any:
    doc = {"tools": [{"name": "get_time"}, *tools], "messages": [{"role": "user", "content": "hi"}]}
    return translate(provider, load_scenario_text(json.dumps(doc), "s.yaml"))


def _messages(t: Any, code: str) -> list[str]:
    return [e.message for e in t.ledger if e.code == code]


def test_the_messages_are_the_ones_written_before_the_facts_moved():
    """The ledger words as they were when the sources were module constants (commit f58f654)."""
    t = _translate("anthropic", MCP, {"type": "code_execution_20260120"})
    assert _messages(t, "tool.native_beta") == [
        "mcp_servers and mcp_toolset are the MCP connector (beta): sent with anthropic-beta: mcp-client-2025-11-20 "
        "(platform.claude.com/docs/en/agents-and-tools/mcp-connector: 'This feature requires the beta header: "
        "\"anthropic-beta\": \"mcp-client-2025-11-20\"'; verified 2026-11-26)"]
    assert _messages(t, "tool.native") == [
        "tool mcp server 'docs' sent in mcp_servers with an mcp_toolset tool (anthropic 2.14.0 types/beta/"
        "beta_request_mcp_server_url_definition_param.py BetaRequestMCPServerURLDefinitionParam in mcp_servers, with "
        "a types/beta/beta_mcp_toolset_param.py BetaMCPToolsetParam tool (anthropic-beta: mcp-client-2025-11-20))",
        "tool code_execution_20260120 sent as {type: code_execution_20260120, name: code_execution} (anthropic 2.14.0 "
        "types/code_execution_tool_20260120_param.py)"]
    t = _translate("gemini", MCP)
    assert _messages(t, "tool.native") == [
        "tool mcp server 'docs' sent in tools[].mcpServers (google-genai 3.6.1 types.Tool.mcp_servers (McpServer: "
        "name, streamable_http_transport {url, headers}))"]
    t = _translate("cohere", {"type": "programmatic_tool_calling"})
    assert _messages(t, "tool.native_dropped") == [
        "tool programmatic_tool_calling is not sent: the tools of Cohere Chat v2 (cohere 7.3.1 types.ToolV2: type "
        "function only) have no programmatic_tool_calling tool, and toolchoice does not guess a stand-in; "
        "openai-responses takes it"]


@pytest.mark.parametrize("provider, tool, code, fact_id", [
    ("openai-responses", MCP, "tool.native", "openai-responses.native.mcp"),
    ("openai-responses", {"type": "programmatic_tool_calling"}, "tool.native",
     "openai-responses.native.programmatic_tool_calling"),
    ("openai-responses", {"type": "code_execution_20250825"}, "tool.native_dropped", "openai-responses.tools_type"),
    ("anthropic", MCP, "tool.native", "anthropic.native.mcp"),
    ("anthropic", MCP, "tool.native_beta", "anthropic.native.mcp_beta"),
    ("anthropic", dict(MCP, server_description="d"), "tool.native_field_dropped", "anthropic.native.mcp_server"),
    ("anthropic", dict(MCP, allowed_tools={"read_only": True}), "tool.native_field_dropped",
     "anthropic.native.mcp_tool_config"),
    ("anthropic", {"type": "code_execution_20260521"}, "tool.native", "anthropic.native.code_execution_20260521"),
    ("anthropic", {"type": "programmatic_tool_calling"}, "tool.native_dropped", "anthropic.tools_type"),
    ("gemini", MCP, "tool.native", "gemini.native.mcp"),
    ("gemini", dict(MCP, server_description="d"), "tool.native_field_dropped", "gemini.native.mcp"),
    ("gemini", {"type": "mcp", "server_label": "g", "connector_id": "connector_gmail"}, "tool.native_dropped",
     "gemini.native.mcp"),
    ("gemini", {"type": "programmatic_tool_calling"}, "tool.native_dropped", "gemini.tools_type"),
    ("groq", MCP, "tool.native_dropped", "openai.tools_type"),
    ("mistral", MCP, "tool.native_dropped", "mistral.tools_type"),
    ("cohere", MCP, "tool.native_dropped", "cohere.tools_type"),
    ("bedrock", MCP, "tool.native_dropped", "bedrock.tools_type"),
    ("ollama", MCP, "tool.native_dropped", "ollama.tools_type"),
])
def test_a_message_reads_its_source_from_the_fact(monkeypatch, provider, tool, code, fact_id):
    citation = cited(fact_id)
    before = _messages(_translate(provider, tool), code)
    assert before and any(citation in m for m in before), before
    moved = fact(fact_id)._replace(source=f"SOURCE-OF-{fact_id}{CITE_END}'words'", verified="2031-01-02")
    monkeypatch.setitem(facts_module._BY_ID, fact_id, moved)
    after = _messages(_translate(provider, tool), code)
    assert any(f"SOURCE-OF-{fact_id}" in m for m in after) and not any(citation in m for m in after), after
    if code == "tool.native_beta":
        assert after[0].endswith("; verified 2031-01-02)")


# ---- each fact held against the installed SDK ----------------------------------------------------


def _type_literals(tp: Any) -> set[str]:
    """The ``type`` literals of a union's members (``type`` defaulting to one word counts as that word)."""
    words: set[str] = set()
    for leaf in _members(tp):
        if "type" in fields(leaf):
            found = literals(annotation(leaf, "type"))
            default = getattr(getattr(leaf, "model_fields", {}).get("type"), "default", None)
            words |= set(found) or {default}
    return words


def _openai_responses_mcp() -> None:
    from openai.types.responses.tool_param import Mcp, ToolParam

    assert {"server_label", "server_url", "connector_id", "tunnel_id", "allowed_tools", "require_approval",
            "headers", "authorization", "server_description", "defer_loading"} <= fields(Mcp)
    assert check({"type": "mcp", "server_label": "docs", "server_url": "https://docs.example/mcp"}, Mcp) == []
    assert literals(annotation(Mcp, "type")) == {"mcp"} and Mcp in _members(ToolParam)


def _openai_responses_programmatic() -> None:
    from openai.types.responses.tool_param import ProgrammaticToolCalling, ToolParam

    assert fields(ProgrammaticToolCalling) == {"type"}
    assert literals(annotation(ProgrammaticToolCalling, "type")) == {"programmatic_tool_calling"}
    assert ProgrammaticToolCalling in _members(ToolParam)


def _openai_responses_tools() -> None:
    from openai.types.responses.tool_param import ToolParam

    assert len(typing_extensions.get_args(ToolParam)) == 16
    types = _type_literals(ToolParam)
    assert {"function", "mcp", "programmatic_tool_calling", "code_interpreter"} <= types
    assert not set(CODE_EXECUTION) & _all_words(ToolParam)


def _anthropic_mcp() -> None:
    from anthropic.types.anthropic_beta_param import AnthropicBetaParam
    from anthropic.types.beta.beta_mcp_toolset_param import BetaMCPToolsetParam
    from anthropic.types.beta.beta_tool_union_param import BetaToolUnionParam

    assert {"mcp_server_name", "type", "configs", "default_config"} <= fields(BetaMCPToolsetParam)
    assert literals(annotation(BetaMCPToolsetParam, "type")) == {"mcp_toolset"}
    assert BetaMCPToolsetParam in _members(BetaToolUnionParam)
    assert "mcp-client-2025-11-20" in literals(AnthropicBetaParam)


def _anthropic_mcp_beta() -> None:
    from anthropic.types.anthropic_beta_param import AnthropicBetaParam
    from toolchoice.providers.anthropic_hosted import MCP_BETA

    assert MCP_BETA == "mcp-client-2025-11-20" and MCP_BETA in literals(AnthropicBetaParam)
    assert MCP_BETA in fact("anthropic.native.mcp_beta").statement and MCP_BETA in cited("anthropic.native.mcp_beta")
    assert {"mcp-client-2025-04-04", "mcp-client-2026-09-15"} <= literals(AnthropicBetaParam)  # the two it names


def _anthropic_mcp_server() -> None:
    from anthropic.types.beta.beta_request_mcp_server_url_definition_param import \
        BetaRequestMCPServerURLDefinitionParam as Server

    assert fields(Server) == {"name", "type", "url", "authorization_token", "tool_configuration"}
    assert literals(annotation(Server, "type")) == {"url"}


def _anthropic_tool_config() -> None:
    from anthropic.types.beta.beta_mcp_tool_config_param import BetaMCPToolConfigParam

    assert fields(BetaMCPToolConfigParam) == {"enabled", "defer_loading"}


def _anthropic_code_execution(version: str) -> Callable[[], None]:
    def check() -> None:
        import importlib

        from anthropic.types.tool_union_param import ToolUnionParam

        module = importlib.import_module(f"anthropic.types.code_execution_tool_{version}_param")
        param = getattr(module, f"CodeExecutionTool{version}Param")
        assert literals(annotation(param, "name")) == {"code_execution"}
        assert literals(annotation(param, "type")) == {f"code_execution_{version}"}
        (callers,) = typing.get_args(annotation(param, "allowed_callers"))  # List[Literal[...]]
        assert f"code_execution_{version}" in literals(callers)
        assert param in _members(ToolUnionParam)
    return check


def _anthropic_tools() -> None:
    from anthropic.types.beta.beta_tool_union_param import BetaToolUnionParam
    from anthropic.types.tool_union_param import ToolUnionParam

    for union in (ToolUnionParam, BetaToolUnionParam):
        assert "programmatic_tool_calling" not in _all_words(union)
        assert "custom" in _type_literals(union)


def _gemini_mcp() -> None:
    from google.genai import types

    assert typing.get_args(types.Tool.model_fields["mcp_servers"].annotation)[0] == list[types.McpServer]
    assert "not supported in Vertex AI" in types.Tool.model_fields["mcp_servers"].description
    assert set(types.McpServer.model_fields) == {"name", "streamable_http_transport"}
    assert set(types.StreamableHttpTransport.model_fields) == {"headers", "sse_read_timeout", "terminate_on_close",
                                                               "timeout", "url"}


def _gemini_tools() -> None:
    from google.genai import types

    names = set(types.Tool.model_fields)
    assert {"function_declarations", "mcp_servers", "code_execution"} <= names
    assert not names & {"programmatic_tool_calling", *CODE_EXECUTION}
    assert typing.get_args(types.Tool.model_fields["code_execution"].annotation)[0] is types.ToolCodeExecution


def _openai_chat_tools() -> None:
    from openai.types.chat.chat_completion_tool_union_param import ChatCompletionToolUnionParam

    assert _type_literals(ChatCompletionToolUnionParam) == {"function", "custom"}


def _mistral_tools() -> None:
    from mistralai.client.models.chatcompletionrequest import ChatCompletionRequestTool
    from mistralai.client.models.createconnectorrequest import CreateConnectorRequest
    from mistralai.client.models.customconnector import CustomConnector

    assert _type_literals(ChatCompletionRequestTool) == {"function", "image_generation", "document_library",
                                                         "connector"}
    assert "connector_id" in CustomConnector.model_fields and not {"server", "server_url", "url"} & set(
        CustomConnector.model_fields)
    assert "server" in CreateConnectorRequest.model_fields  # a connector's URL is registered beforehand


def _cohere_tools() -> None:
    from cohere.types import ToolV2

    assert set(ToolV2.model_fields) == {"type", "function"}
    assert literals(ToolV2.model_fields["type"].annotation) == {"function"}


def _bedrock_tools() -> None:
    model = botocore_session().get_service_model("bedrock-runtime")
    assert set(model.shape_for("Tool").members) == {"toolSpec", "systemTool", "cachePoint"}
    assert set(model.shape_for("SystemTool").members) == {"name"}


def _ollama_tools() -> None:
    from ollama._types import Tool

    assert set(Tool.model_fields) == {"type", "function"} and Tool.model_fields["type"].default == "function"
    assert set(Tool.Function.model_fields) == {"name", "description", "parameters"}


SDK_CHECKS: dict[str, tuple[str, Callable[[], None]]] = {
    "openai-responses.native.mcp": ("openai", _openai_responses_mcp),
    "openai-responses.native.programmatic_tool_calling": ("openai", _openai_responses_programmatic),
    "openai-responses.tools_type": ("openai", _openai_responses_tools),
    "anthropic.native.mcp": ("anthropic", _anthropic_mcp),
    "anthropic.native.mcp_beta": ("anthropic", _anthropic_mcp_beta),
    "anthropic.native.mcp_server": ("anthropic", _anthropic_mcp_server),
    "anthropic.native.mcp_tool_config": ("anthropic", _anthropic_tool_config),
    **{f"anthropic.native.code_execution_{v}": ("anthropic", _anthropic_code_execution(v))
       for v in ("20250825", "20260120", "20260521")},
    "anthropic.tools_type": ("anthropic", _anthropic_tools),
    "gemini.native.mcp": ("google.genai", _gemini_mcp),
    "gemini.tools_type": ("google.genai", _gemini_tools),
    "openai.tools_type": ("openai", _openai_chat_tools),
    "mistral.tools_type": ("mistralai", _mistral_tools),
    "cohere.tools_type": ("cohere", _cohere_tools),
    "bedrock.tools_type": ("botocore", _bedrock_tools),
    "ollama.tools_type": ("ollama", _ollama_tools),
}


def test_every_hosted_tool_fact_is_held_against_its_sdk():
    assert set(SDK_CHECKS) == {f.id for f in HOSTED_TOOL_FACTS}


@pytest.mark.parametrize("fact_id", sorted(SDK_CHECKS))
def test_the_fact_holds_in_the_installed_sdk(fact_id):
    package, check = SDK_CHECKS[fact_id]
    if missing(package):
        pytest.skip(f"needs {package}")
    source = fact(fact_id).source
    assert {"google.genai": "google-genai"}.get(package, package) in source, source  # it names this SDK
    check()


def test_a_false_claim_fails_its_check(monkeypatch):
    """A check reads the SDK: give ollama's Tool a server field and the ollama.tools_type check fails."""
    if missing("ollama"):
        pytest.skip("needs ollama")
    from ollama._types import Tool

    monkeypatch.setattr(Tool, "model_fields", {**Tool.model_fields, "server_url": Tool.model_fields["type"]})
    with pytest.raises(AssertionError):
        _ollama_tools()


# ---- shown and listed ------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [80, 60])
def test_providers_prints_every_hosted_tool_fact_whole(width):
    # every fact: -p all (the default view counts them a provider, trial13a)
    out = run_cli(["providers", "-p", "all"], env={"COLUMNS": str(width), "PATH": "", "HOME": "/nonexistent"},
                  cwd=ROOT).stdout
    table = out[out.index("dated facts"):out.index("model rules (matched")]  # not "(model rules)" in a statement
    assert all(len(line) <= width for line in table.splitlines()) and "…" not in table, table
    # four columns where they are whole, else one (trial10d: the four folded the ids at 80 and 60 columns)
    first = "".join(line.split("│")[1].strip() for line in table.splitlines() if line.startswith("│"))
    dates = table
    for f in HOSTED_TOOL_FACTS:
        assert f.id in first and any(line.split("│")[1].strip() == f.id for line in table.splitlines()
                                     if line.startswith("│")), f.id
    assert "2026-11-26" in dates
    # what each fact states is shown under its id (the pretty form left it out: only id, providers, date, source)
    from toolchoice.providers.core.facts import FACTS

    squeezed = "".join(first.split())
    for f in FACTS:
        assert "".join((f.id + f.statement).split()) in squeezed, f.id


def test_stale_facts_lists_the_hosted_tool_facts():
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from stale_facts import dated_items
    finally:
        sys.path.remove(str(ROOT / "bench"))
    listed = {item["id"]: item for item in dated_items()}
    for f in HOSTED_TOOL_FACTS:
        assert listed[f"fact:{f.id}"] == {"id": f"fact:{f.id}", "verified": f.verified, "source": f.source}


def test_docs_providers_page_carries_them():
    page = (ROOT / "docs" / "providers.md").read_text(encoding="utf-8")
    for f in HOSTED_TOOL_FACTS:
        assert f"| `{f.id}` |" in page, f.id
