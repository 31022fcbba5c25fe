"""A small real MCP server for the import tests, written with the official SDK (mcp 2: MCPServer, which
was FastMCP in mcp 1), plus three broken servers speaking raw JSON-RPC over stdio.

    python tests/mcp_server.py stdio              # the good server over stdio
    python tests/mcp_server.py http PORT          # the good server over streamable HTTP on 127.0.0.1:PORT
    python tests/mcp_server.py hang PIDFILE       # writes its pid, reads stdin, never answers
    python tests/mcp_server.py crash              # says why on stderr and exits 3 at once
    python tests/mcp_server.py malformed          # answers initialize, then tools/list with "tools": "nope"
    python tests/mcp_server.py string-schema      # a listing whose inputSchema is {"type": "string"}
    python tests/mcp_server.py pages-forever      # (SDK server) every page holds one tool and a next cursor
    python tests/mcp_server.py deep N             # (SDK server) one tool whose inputSchema nests N objects
    python tests/mcp_server.py error-long         # answers tools/list with a JSON-RPC error of 100,000 characters
    python tests/mcp_server.py many N [PAGE]      # lists N small tools, PAGE a page (all in one page without it)
    python tests/mcp_server.py argv ARGS...       # one tool whose description holds its ARGS and $MCP_ENV_KEY
                                                  # (--crash among them: writes the same to stderr, exits 3)
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Literal


def good_server():  # type: ignore[no-untyped-def]
    from mcp.server.mcpserver import MCPServer
    from mcp.types import ToolAnnotations

    server = MCPServer("toolchoice-test")

    @server.tool(title="Current weather", annotations=ToolAnnotations(readOnlyHint=True))
    def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> str:
        """Current weather for a city."""
        return f"sunny in {city}"

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    return server


def raw(listing: object, error: object = None) -> None:
    """Answer initialize properly, then tools/list with ``listing`` as the result (or ``error`` as its error)."""
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        method = message.get("method")
        if method == "initialize":
            result: object = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                              "serverInfo": {"name": "broken", "version": "0"}}
        elif method == "tools/list" and error is not None:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": error}) + "\n")
            sys.stdout.flush()
            continue
        elif method == "tools/list":
            result = listing
        else:
            reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}}
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
            continue
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
        sys.stdout.flush()


def main() -> None:
    mode = sys.argv[1]
    if mode == "stdio":
        good_server().run("stdio")
    elif mode == "http":
        good_server().run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    elif mode == "hang":
        with open(sys.argv[2], "w") as handle:
            handle.write(str(os.getpid()))
        for _ in sys.stdin:
            pass
        time.sleep(3600)
    elif mode == "crash":
        sys.stderr.write("boom: the server could not open its database\n")
        sys.exit(3)
    elif mode == "malformed":
        raw({"tools": "nope"})
    elif mode == "noise":  # prints a banner that is not JSON-RPC, then never answers
        sys.stdout.write("Starting server... \x1b[31mready\x1b[0m\n")
        sys.stdout.flush()
        for _ in sys.stdin:
            pass
        time.sleep(3600)
    elif mode == "error-long":  # a server whose error message is a page of text, with markup and a terminal escape
        raw(None, {"code": -32000, "message": "[bold]boom[/bold] \x1b[31m" + "x" * 100_000})
    elif mode == "argv":  # what the server was started with, as it saw it
        seen = json.dumps({"args": sys.argv[2:], "env": os.environ.get("MCP_ENV_KEY")})
        if "--crash" in sys.argv:
            sys.stderr.write(f"started with {seen}\n")
            sys.exit(3)
        raw({"tools": [{"name": "echo", "description": f"started with {seen}", "inputSchema": {"type": "object"}}]})
    elif mode == "many":
        many(int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    elif mode == "string-schema":
        raw({"tools": [{"name": "echo", "inputSchema": {"type": "string"}}]})
    elif mode in ("pages-forever", "deep"):
        sdk_server(mode, int(sys.argv[2]) if len(sys.argv) > 2 else 0)


def many(count: int, page: int) -> None:
    """Raw JSON-RPC: ``count`` small tools, ``page`` to a page (0: all in one), each page written as it is asked."""
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        if message.get("method") == "initialize":
            result: object = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                              "serverInfo": {"name": "many", "version": "0"}}
        elif message.get("method") != "tools/list":
            result = {}
        else:
            start = int((message.get("params") or {}).get("cursor") or 0)
            end = min(count, start + page) if page else count
            result = {"tools": [{"name": f"tool_{i}", "description": f"Tool number {i}.",
                                 "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}}}
                                for i in range(start, end)]}
            if end < count:
                result["nextCursor"] = str(end)  # type: ignore[index]
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
        sys.stdout.flush()


def sdk_server(mode: str, depth: int) -> None:
    """The SDK's low-level server, misbehaving: ``pages-forever`` answers every tools/list page with one new
    tool and a next cursor; ``deep`` lists one tool whose inputSchema nests ``depth`` objects."""
    import anyio
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server
    from mcp.types import ListToolsResult, Tool

    async def list_tools(ctx, params):  # type: ignore[no-untyped-def]
        if mode == "pages-forever":
            page = int((params.cursor if params and params.cursor else None) or 0)
            return ListToolsResult(tools=[Tool(name=f"tool_{page}", input_schema={"type": "object"})],
                                   next_cursor=str(page + 1))
        schema: dict = {"type": "string"}
        for _ in range(depth):
            schema = {"type": "object", "properties": {"a": schema}}
        return ListToolsResult(tools=[Tool(name="deep", input_schema=schema)])

    server = Server("misbehaving", on_list_tools=list_tools)

    async def serve() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(serve)


if __name__ == "__main__":
    main()
