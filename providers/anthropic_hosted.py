"""The hosted tools of a scenario's ``tools:`` (core/native_tools.py) on Anthropic's Messages API.

- An MCP server goes out through the MCP connector (beta): the server in ``mcp_servers``
  (anthropic 2.14.0 ``types/beta/beta_request_mcp_server_url_definition_param.py``
  ``BetaRequestMCPServerURLDefinitionParam``: type url, url, name, authorization_token, tool_configuration) and
  its tools enabled by an ``mcp_toolset`` in ``tools`` (``types/beta/beta_mcp_toolset_param.py``
  ``BetaMCPToolsetParam``: mcp_server_name, default_config, configs), with the header
  ``anthropic-beta: mcp-client-2025-11-20`` (platform.claude.com/docs/en/agents-and-tools/mcp-connector:
  "Current version: This feature requires the beta header: "anthropic-beta": "mcp-client-2025-11-20"";
  an allowlist is ``default_config: {enabled: false}`` with ``configs: {NAME: {enabled: true}}``). What the
  definition has no field for (headers, require_approval, server_description, a connector or tunnel instead
  of a URL) is left out with a ledger entry.
- ``code_execution_20250825`` / ``_20260120`` / ``_20260521``: ``{type, name: code_execution}``
  (``types/code_execution_tool_2025…_param.py``), the tool whose code calls the tools listing it in
  ``allowed_callers``.
"""

from __future__ import annotations

from typing import Any

from .core import native_tools
from .core.request_context import Context

MCP_BETA = "mcp-client-2025-11-20"  # the header value (fact anthropic.native.mcp_beta)
# kind -> the id of the fact (core/facts.py) naming its type; the sources the messages cite are read from the facts.
NATIVE_TOOLS: dict[str, str] = {"mcp": "anthropic.native.mcp",
                                 **{kind: f"anthropic.native.{kind}" for kind in native_tools.CODE_EXECUTION}}
_BETA_FACT = "anthropic.native.mcp_beta"
_SERVER_FACT = "anthropic.native.mcp_server"
_TOOL_CONFIG_FACT = "anthropic.native.mcp_tool_config"


def _cited(fact_id: str) -> str:
    """The source a message names, read from the dated fact (core/facts.py: imported only for hosted tools)."""
    from .core.facts import cited as from_fact

    return from_fact(fact_id)


LEDGER_CODES: dict[str, str] = {
    "tool.native": "an MCP server (mcp_servers + mcp_toolset) or a code_execution tool from the scenario's tools:",
    "tool.native_beta": "the MCP connector's beta header sent (anthropic-beta: mcp-client-2025-11-20)",
    "tool.native_field_dropped": "a key of an mcp tool the MCP connector's server definition has no field for",
    "tool.native_name_clash": "two tools sent named code_execution (two code_execution versions, or a function of "
                              "that name beside one)",
}


def hosted_tools(ctx: Context, body: dict[str, Any], first: int) -> list[dict[str, Any]]:
    """The tools entries of the scenario's hosted tools (``body["mcp_servers"]`` filled on the way); the
    beta header, when one is needed, is ``beta_header(ctx)``'s to add."""
    out: list[dict[str, Any]] = []
    servers: list[dict[str, Any]] = []
    for tool in native_tools.kept(ctx):
        if tool.kind != "mcp":
            out.append({"type": tool.kind, "name": "code_execution"})
            ctx.ledger.info("tool.native", f"tool {tool.kind} sent as {{type: {tool.kind}, name: code_execution}} "
                            f"({_cited(NATIVE_TOOLS[tool.kind])})")
            continue
        entry = _server(ctx, tool.fields, len(servers))
        if entry is None:
            continue
        servers.append(entry)
        out.append(_toolset(ctx, tool.fields))
    if servers:
        body["mcp_servers"] = servers
    _name_clash(ctx, [entry["type"] for entry in out if entry.get("name") == "code_execution"])
    return out


def _name_clash(ctx: Context, versions: list[str]) -> None:
    """A warning when more than one tool of the request is named code_execution (two versions of the tool, or a
    function of that name beside one): a tool_use or a tool_choice naming code_execution cannot say which."""
    functions = sum(1 for tool in ctx.plan.tools if tool.name == "code_execution")
    if not versions or len(versions) + functions < 2:
        return
    named = [*versions, *(["the function code_execution"] * functions)]
    ctx.ledger.warning("tool.native_name_clash", f"{' and '.join(named)} are sent, each named code_execution: a call "
                       "or a tool_choice naming code_execution cannot say which one it means (toolchoice found no "
                       "Anthropic source on duplicate names; keep one of them)")


def beta_header(ctx: Context, body: dict[str, Any], headers: dict[str, str]) -> None:
    if "mcp_servers" not in body:
        return
    from .core.facts import fact

    headers["anthropic-beta"] = MCP_BETA
    ctx.ledger.info("tool.native_beta", f"mcp_servers and mcp_toolset are the MCP connector (beta): sent with "
                    f"anthropic-beta: {MCP_BETA} ({_cited(_BETA_FACT)}; verified {fact(_BETA_FACT).verified})")
    from .anthropic_tool_changes import user_betas

    written = user_betas(ctx.settings)
    if written is not None and MCP_BETA not in (part.strip() for part in written[1].split(",")):
        # the user's betas (the mid-conversation tool changes', ...) and the connector's: one comma-separated list
        merged = f"{written[1].rstrip(', ')},{MCP_BETA}"
        ctx.settings = ctx.settings._replace(headers={**ctx.settings.headers, written[0]: merged})
        ctx.ledger.info("tool.native_beta", f"providers.{ctx.provider}.headers sets {written[0]}: {MCP_BETA} is "
                        f"added to its list, sent as {written[0]}: {merged}")


def _server(ctx: Context, fields: Any, index: int) -> dict[str, Any] | None:
    server_type = _cited(_SERVER_FACT)
    label = fields["server_label"]
    if "server_url" not in fields:
        given = next(k for k in native_tools.WHERE if k in fields)
        ctx.ledger.warning("tool.native_dropped", f"tool mcp server '{label}' is not sent: it names a {given}, and "
                           f"{ctx.cap.title}'s MCP server definition ({server_type}) takes only a url")
        return None
    server: dict[str, Any] = {"type": "url", "url": fields["server_url"], "name": label}
    if native_tools.PLACEHOLDER.search(server["url"]):  # a key in the URL's path, as $NAME: read at send time
        ctx.body_env.append(("mcp_servers", index, "url"))
    if "authorization" in fields:
        server["authorization_token"] = fields["authorization"]
        ctx.body_env.append(("mcp_servers", index, "authorization_token"))
    dropped = {"headers": "no headers field (write authorization: $TOKEN for a bearer token)",
               "server_description": "no description field",
               "require_approval": "no approval step: the API runs the server's calls itself"}
    for key, why in dropped.items():
        if key in fields and not (key == "require_approval" and fields[key] == "never"):
            named = f" ({', '.join(fields[key])})" if key == "headers" else ""  # which of the user's headers
            ctx.ledger.warning("tool.native_field_dropped", f"mcp server '{label}': {key}{named} is not sent "
                               f"({server_type} has {why})")
    ctx.ledger.info("tool.native", f"tool mcp server '{label}' sent in mcp_servers with an mcp_toolset tool "
                    f"({_cited(NATIVE_TOOLS['mcp'])})")
    return server


def _toolset(ctx: Context, fields: Any) -> dict[str, Any]:
    label = fields["server_label"]
    toolset: dict[str, Any] = {"type": "mcp_toolset", "mcp_server_name": label}
    allowed = fields.get("allowed_tools")
    names = allowed if isinstance(allowed, list) else (allowed or {}).get("tool_names")
    default: dict[str, Any] = {}
    if isinstance(allowed, dict) and "read_only" in allowed:
        ctx.ledger.warning("tool.native_field_dropped", f"mcp server '{label}': allowed_tools.read_only is not sent "
                           f"({_cited(_TOOL_CONFIG_FACT)} has only enabled and defer_loading)")
    if names is not None:  # the documented allowlist: every tool off, the named ones on
        default["enabled"] = False
        toolset["configs"] = {name: {"enabled": True} for name in names}
    if fields.get("defer_loading") is not None:
        default["defer_loading"] = fields["defer_loading"]
    if default:
        toolset["default_config"] = default
    return toolset
