"""A scenario's MCP servers (core/native_tools.py) on the Gemini Developer API: a ``tools`` entry
``{mcpServers: [{name, streamableHttpTransport: {url, headers}}]}`` (google-genai 3.6.1 ``types.Tool.mcp_servers``:
"MCP Servers to connect to. This field is not supported in Vertex AI."; ``types.McpServer`` name and
``streamable_http_transport``; ``types.StreamableHttpTransport`` url and headers; ``models.py``
``_Tool_to_mldev`` sends ``mcpServers`` to generateContent, and ``streamable_http_transport`` "is only supported
in Gemini Developer API mode"). What McpServer has no field for is left out with a ledger entry."""

from __future__ import annotations

from typing import Any

from ..core import native_tools
from ..core.request_context import Context

# kind -> the id of the fact (core/facts.py) naming its type; TOOLS_TYPE: the fact naming the type its tools are
NATIVE_TOOLS: dict[str, str] = {"mcp": "gemini.native.mcp"}
TOOLS_TYPE = "gemini.tools_type"
LEDGER_CODES: dict[str, str] = {
    "tool.native": "an MCP server from the scenario's tools: sent in tools[].mcpServers",
    "tool.native_field_dropped": "a key of an mcp tool that McpServer has no field for",
    "tool.native_header_conflict": "an mcp tool's authorization left out: the tool's own Authorization header is sent",
}


def hosted_tools(ctx: Context, first: int) -> list[dict[str, Any]]:
    """The ``tools`` entry holding the scenario's MCP servers (one Tool with every server), or none."""
    kept = native_tools.kept(ctx)
    if not kept:
        return []
    from ..core.facts import cited  # read only when a scenario has hosted tools

    source = cited(NATIVE_TOOLS["mcp"])
    servers: list[dict[str, Any]] = []
    for tool in kept:
        fields, label = tool.fields, tool.fields["server_label"]
        if "server_url" not in fields:
            given = next(k for k in native_tools.WHERE if k in fields)
            ctx.ledger.warning("tool.native_dropped", f"tool {tool.label} is not sent: it names a {given}, and "
                               f"{ctx.cap.title}'s McpServer ({source}) takes only a URL")
            continue
        transport: dict[str, Any] = {"url": fields["server_url"]}
        headers = dict(fields.get("headers") or {})
        own = native_tools.own_authorization(fields)
        if own is not None:  # the user's header is never replaced by one toolchoice builds
            ctx.ledger.warning("tool.native_header_conflict", f"{tool.label}: authorization {fields['authorization']} "
                               f"is not sent: McpServer has no token field, and as the header Authorization: Bearer "
                               f"{fields['authorization']} it would replace the tool's own header {own}, sent as "
                               "written")
        elif "authorization" in fields:  # the OAuth access token, as MCP servers take it: a bearer header
            headers["Authorization"] = f"Bearer {fields['authorization']}"
            ctx.ledger.info("tool.native", f"{tool.label}: authorization sent as the header Authorization: Bearer "
                            f"{fields['authorization']} (McpServer has no token field)")
        if native_tools.PLACEHOLDER.search(transport["url"]):  # a key in the URL's path, as $NAME: read at send time
            ctx.body_env.append(("tools", first, "mcpServers", len(servers), "streamableHttpTransport", "url"))
        if headers:
            transport["headers"] = headers
            ctx.body_env.extend((("tools", first, "mcpServers", len(servers), "streamableHttpTransport", "headers", h)
                                 for h in headers))
        for key in ("allowed_tools", "require_approval", "server_description", "defer_loading"):
            if key in fields and not (key == "require_approval" and fields[key] == "never"):
                ctx.ledger.warning("tool.native_field_dropped", f"{tool.label}: {key} is not sent ({source} has no "
                                   "such field)")
        servers.append({"name": label, "streamableHttpTransport": transport})
        ctx.ledger.info("tool.native", f"tool {tool.label} sent in tools[].mcpServers ({source})")
    return [{"mcpServers": servers}] if servers else []
