"""An MCP server that writes the headers it was sent back into its tool list (a description, a default): the
values were printed by `toolchoice tools --mcp-url -H`, sent on to the model provider in the tool descriptions,
and kept in `send --save` / `compare --send --save` (found by an adversarial run). The listing is now read with
each such value replaced by its ``$NAME`` (ledger: import.secret_echoed); a key set in the environment that a
tool file holds is not printed by `tools` either."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest

from cli import run_cli
from sdk_types import missing

pytestmark = pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")

TOKEN, XK = "supersecrettoken1234567890", "anothersecretvalue98765"


class Echoing(BaseHTTPRequestHandler):
    """Just enough streamable HTTP for a tools/list: initialize, the initialized notification, tools/list."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def answer(self, status: int, body: bytes = b"") -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("mcp-session-id", "s1")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 - no server-to-client stream
        self.answer(405)

    def do_DELETE(self) -> None:  # noqa: N802
        self.answer(200)

    def do_POST(self) -> None:  # noqa: N802
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        if message.get("id") is None:
            return self.answer(202)
        if message["method"] == "initialize":
            result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                      "serverInfo": {"name": "echo", "version": "1"}}
        else:
            auth, xk = self.headers.get("Authorization", ""), self.headers.get("X-Key", "")
            result = {"tools": [{"name": "echo", "description": f"auth was {auth} xkey {xk}", "inputSchema": {
                "type": "object", "properties": {"k": {"type": "string", "default": xk, "description": auth}}}}]}
        self.answer(200, json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}).encode())


@pytest.fixture()
def server_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Echoing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/mcp"
    finally:
        server.shutdown()
        server.server_close()


def test_tools_mcp_url_never_prints_an_echoed_header(server_url: str) -> None:
    env = {"MCP_TOKEN": TOKEN, "XK": XK}
    result = run_cli(["tools", "--mcp-url", server_url, "-H", "Authorization: Bearer $MCP_TOKEN", "-H", "X-Key: ${XK}",
                      "-f", "json"], env=env)
    assert result.returncode == 0, result.stderr
    assert TOKEN not in result.stdout + result.stderr and XK not in result.stdout + result.stderr
    document = json.loads(result.stdout)
    (tool,) = document["tools"]
    assert tool["description"] == "auth was Bearer $MCP_TOKEN xkey $XK"
    assert tool["parameters"]["properties"]["k"]["default"] == "$XK"
    (note,) = [e for e in document["ledger"] if e["code"] == "import.secret_echoed"]
    assert note["severity"] == "warning" and "$MCP_TOKEN, $XK" in note["message"]


def test_send_neither_sends_on_nor_saves_an_echoed_header(server_url: str, tmp_path: Path) -> None:
    from servers import StandIn, Step

    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - from: {mcp_url: \"%s\", headers: {Authorization: \"Bearer $MCP_TOKEN\"}}\n"
                        "messages:\n  - {role: user, content: hi}\n" % server_url)
    env = {"MCP_TOKEN": TOKEN, "OPENAI_API_KEY": "sk-test-0123456789abcdef"}
    with StandIn("openai", default=Step.reply("openai")) as provider:
        result = run_cli(["send", str(scenario), "-p", "openai", "--base-url", provider.base_url("openai"),
                          "--allow-env", "MCP_TOKEN", "--live-mcp", "--save", str(tmp_path / "saved"), "-f", "json"],
                         env=env)
    assert result.returncode in (0, 4), result.stderr
    (got,) = provider.requests
    assert TOKEN not in json.dumps(got.json)  # the model provider is not sent the MCP server's token
    assert got.json["tools"][0]["function"]["description"] == "auth was Bearer $MCP_TOKEN xkey "
    assert TOKEN not in result.stdout + result.stderr
    for path in (tmp_path / "saved").rglob("*"):
        assert TOKEN not in path.read_text(encoding="utf-8"), path


def test_tools_of_a_file_does_not_print_a_key_set_in_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([{"name": "t", "description": "key sk-openaikeyvalue-abcdefghijkl",
                                 "parameters": {"type": "object"}}]))
    result = run_cli(["tools", str(path)], env={"OPENAI_API_KEY": "sk-openaikeyvalue-abcdefghijkl"})
    assert result.returncode == 0 and "sk-openaikeyvalue" not in result.stdout
    assert "key $OPENAI_API_KEY" in result.stdout
