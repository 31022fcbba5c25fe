"""An MCP server that writes the headers it was sent back into its tool list (a description, a default): the
values were printed by `toolchoice tools --mcp-url -H`, sent on to the model provider in the tool descriptions,
and kept in `send --save` / `compare --send --save` (found by an adversarial run). The listing is now read with
each such value replaced by its ``$NAME`` (ledger: import.secret_echoed); a key set in the environment that a
tool file holds is not printed by `tools` either."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from cli import run_cli
from mcp_http_stub import serving
from sdk_types import missing

pytestmark = pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")

TOKEN, XK = "supersecrettoken1234567890", "anothersecretvalue98765"


def echoed(headers: Any) -> list[dict[str, Any]]:
    auth, xk = headers.get("Authorization", ""), headers.get("X-Key", "")
    return [{"name": "echo", "description": f"auth was {auth} xkey {xk}", "inputSchema": {
        "type": "object", "properties": {"k": {"type": "string", "default": xk, "description": auth}}}}]


@pytest.fixture()
def server_url() -> Iterator[str]:
    with serving(echoed) as url:
        yield url


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
