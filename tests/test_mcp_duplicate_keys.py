"""A live MCP server's tools/list answer naming a key twice in one object (a tool's "name", a schema property) is
imported as the MCP SDK reads it and said: ``mcp.duplicate_key`` in the import's notes (``tools --mcp`` /
``--mcp-url``'s ledger, a scenario's ``from:``), as ``reply.duplicate_key`` says a reply's. The truth outside the
code: the SDK's own reader (``mcp.types.jsonrpc_message_adapter.validate_json``, which its stdio and HTTP clients
read each message with) run on the very bytes the servers write, and the keys those bytes write twice by
construction. Real servers: a raw stdio script the test writes (the SDK's server cannot write a key twice), and
tests/mcp_http_stub.py on 127.0.0.1, answering JSON or an event stream."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from cli import run_cli, user_env
from sdk_types import missing

pytestmark = pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")

# a tools/list result written by hand: the tool's "name" twice (get_time, then get_weather) and its schema's
# property "city" twice (string, then integer)
RESULT = (b'{"tools": [{"name": "get_time", "description": "DESCRIPTION", "name": "get_weather", "inputSchema": '
          b'{"type": "object", "properties": {"city": {"type": "string"}, "city": {"type": "integer"}}}}]}')

SERVER = '''
import json, os, sys
RESULT = sys.argv[1]
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    if message["method"] == "initialize":
        result = json.dumps({"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                             "serverInfo": {"name": "twice", "version": "0"}})
    elif message["method"] == "tools/list":
        seen = sorted(k for k in os.environ if k.startswith("TOOLCHOICE"))  # what the server was handed
        result = open(RESULT).read().replace("DESCRIPTION", " ".join(seen) or "none")
    else:
        result = "{}"
    sys.stdout.write('{"jsonrpc": "2.0", "id": %s, "result": %s}\\n' % (json.dumps(message["id"]), result))
    sys.stdout.flush()
'''


def _sdk_reads(result: bytes) -> dict:
    """The tools/list result as the MCP SDK's clients read the message's bytes."""
    from mcp import types

    message = types.jsonrpc_message_adapter.validate_json(b'{"jsonrpc": "2.0", "id": 2, "result": ' + result + b"}",
                                                           by_name=False)
    return types.ListToolsResult.model_validate(message.result).model_dump(mode="json", by_alias=True,
                                                                            exclude_none=True)


def _stdio(tmp_path: Path, result: bytes) -> str:
    (tmp_path / "result.json").write_bytes(result)
    (tmp_path / "server.py").write_text(SERVER)
    return f"{sys.executable} {tmp_path / 'server.py'} {tmp_path / 'result.json'}"


def _said(ledger: list[dict]) -> list[str]:
    return [e["message"] for e in ledger if e["code"] == "mcp.duplicate_key"]


def _check(document: dict, result: bytes = RESULT) -> None:
    sdk = _sdk_reads(result)["tools"][0]
    assert sdk["name"] == "get_weather" and sdk["inputSchema"]["properties"]["city"] == {"type": "integer"}
    [tool] = document["tools"]
    assert tool["name"] == sdk["name"]  # imported as the SDK read it: the last of the two
    assert tool["parameters"]["properties"]["city"] == {"type": "integer"}
    said = _said(document["ledger"])
    assert len(said) == 2
    assert {e["severity"] for e in document["ledger"] if e["code"] == "mcp.duplicate_key"} == {"warning"}
    # in the order their objects close, as reply.duplicate_key says a reply's keys (the schema's first)
    assert 'names the key "city" twice in one object' in said[0] and "the last of the two" in said[0], said
    assert 'names the key "name" twice in one object' in said[1], said


def test_a_stdio_listing_naming_keys_twice_is_imported_as_the_sdk_reads_it_and_said(tmp_path: Path,
                                                                                     monkeypatch) -> None:
    import tempfile

    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))  # this test's own (the suite runs in parallel)
    done = run_cli(["tools", "--mcp", _stdio(tmp_path, RESULT), "--timeout", "60", "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    _check(document)
    assert document["tools"][0]["description"] == "none"  # the relay's variable was not handed on to the server
    shown = run_cli(["tools", "--mcp", _stdio(tmp_path, RESULT), "--timeout", "60"], env=user_env())
    assert shown.returncode == 0 and '# warning mcp.duplicate_key: mcp: ' in shown.stdout, shown.stdout
    assert list((tmp_path / "tmp").iterdir()) == []  # the relay's file and its folder removed
    once = RESULT.replace(b'"name": "get_time", ', b"").replace(b'"city": {"type": "string"}, ', b"")
    done = run_cli(["tools", "--mcp", _stdio(tmp_path, once), "--timeout", "60", "-f", "json"], env=user_env())
    assert done.returncode == 0 and _said(json.loads(done.stdout)["ledger"]) == [], done.stderr  # each key once


def test_a_scenarios_from_mcp_says_it_in_the_ledger(tmp_path: Path) -> None:
    command = _stdio(tmp_path, RESULT)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"tools: [{{from: {{mcp: {json.dumps(command)}}}}}]\nmessages: [{{role: user, content: hi}}]\n")
    done = run_cli(["render", str(scenario), "-p", "openai", "--live-mcp", "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    said = _said(document["ledger"])
    assert len(said) == 2 and '"city" twice' in said[0] and '"name" twice' in said[1], said
    assert document["request"]["body"]["tools"][0]["function"]["name"] == "get_weather"


@pytest.mark.parametrize("sse", [False, True])
def test_an_http_listing_naming_keys_twice_is_imported_as_the_sdk_reads_it_and_said(sse: bool) -> None:
    from mcp_http_stub import serving

    def wire(body: bytes) -> bytes:  # the server's own bytes: its result written by hand
        start = body.index(b'"result": ') + len(b'"result": ')
        return body[:start] + RESULT.replace(b"DESCRIPTION", b"none") + b"}"

    with serving(lambda headers: [], wire=wire, sse=sse) as url:
        done = run_cli(["tools", "--mcp-url", url, "--timeout", "60", "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stderr
    _check(json.loads(done.stdout))


def test_past_twenty_keys_one_line_says_how_many_more(tmp_path: Path) -> None:
    """Each key once, the first 20 one by one (bounded.TWICE_SAID, as a reply's and a stream's), then one line."""
    properties = ", ".join(f'"p{i}": {{"type": "string"}}, "p{i}": {{"type": "integer"}}' for i in range(25))
    result = (b'{"tools": [{"name": "t", "description": "DESCRIPTION", "inputSchema": {"type": "object", '
              b'"properties": {' + properties.encode() + b"}}}]}")
    done = run_cli(["tools", "--mcp", _stdio(tmp_path, result), "--timeout", "60", "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    said = _said(document["ledger"])
    assert len(said) == 21 and all('"p%d" twice' % i in said[i] for i in range(20)), said
    assert "and 5 more keys" in said[20], said[20]
    assert document["tools"][0]["parameters"]["properties"]["p3"] == {"type": "integer"}
