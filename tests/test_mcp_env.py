"""``$NAME`` in an MCP source (trial 8b): a stdio server's command line and ``env:``, and an ``mcp_url`` whose path
holds a key. Before, ``from: {mcp: "server --key $KEY"}`` handed the server the text ``$KEY`` (no scenario key
could give a stdio server a variable: the SDK starts it with HOME, PATH, ... only), and a key written into a URL's
path could not be told from the path, so it was in every ledger note, error and saved file. Now each ``$NAME``
there is read through the allow-list that guards ``from: headers`` (``--allow-env``, ``TOOLCHOICE_ALLOW_ENV``),
and the value read is known, so it is redacted wherever it would show. The servers are real: a raw JSON-RPC
stdio server (tests/mcp_server.py ``argv``: its tool's description says what it was started with) and the
in-process streamable-HTTP stub (tests/mcp_http_stub.py)."""

from __future__ import annotations

import json
import shlex
import socket
import sys
from pathlib import Path

import pytest
import yaml

from cli import run_cli
from mcp_http_stub import serving
from sdk_types import missing

pytestmark = pytest.mark.skipif(missing("mcp"), reason="the [mcp] extra (in [test]) is not installed")

SERVER = Path(__file__).resolve().parent / "mcp_server.py"
ARG_KEY = "sk-proj-argkey-3b9c1d7e5f2a4068"
ENV_KEY = "env-secret-value-7d41c9a2e6b8"
PATH_KEY = "sk-proj-pathkey-91c3e7a5d2b4f680"
ENV = {"MCP_ARG_KEY": ARG_KEY, "MCP_SECRET": ENV_KEY, "MCP_PATH_KEY": PATH_KEY}


def _scenario(tmp_path: Path, source: dict) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump({"tools": [{"from": source}], "tool_choice": "auto",
                                    "messages": [{"role": "user", "content": "hi"}]}, sort_keys=False))
    return path


def _argv_server(*args: str) -> str:
    return shlex.join([sys.executable, str(SERVER), "argv"]) + " " + " ".join(args)


def _everything(tmp_path: Path, *outputs: str) -> str:
    """What the command printed and every file it left under tmp_path."""
    files = [p.read_text(errors="replace") for p in tmp_path.rglob("*") if p.is_file()]
    return "\n".join([*outputs, *files])


def test_a_stdio_command_and_env_read_variables_only_when_allowed(tmp_path: Path) -> None:
    source = {"mcp": _argv_server("--key", "$MCP_ARG_KEY", "'${MCP_ARG_KEY} two'"),
              "env": {"MCP_ENV_KEY": "$MCP_SECRET"}, "timeout": 30}
    path = _scenario(tmp_path, source)
    refused = run_cli(["render", path.name, "-p", "openai", "--live-mcp"], cwd=tmp_path, env=ENV)
    assert refused.returncode == 2, refused.stderr
    assert "from: mcp reads $MCP_ARG_KEY" in refused.stderr and "--allow-env MCP_ARG_KEY" in refused.stderr

    half = run_cli(["render", path.name, "-p", "openai", "--live-mcp", "--allow-env", "MCP_ARG_KEY"], cwd=tmp_path,
                   env=ENV)
    assert half.returncode == 2 and "from: env reads $MCP_SECRET" in half.stderr, half.stderr

    snapshots = tmp_path / "snap"
    allowed = run_cli(["render", path.name, "-p", "openai", "--live-mcp", "-f", "json", "--snapshot", str(snapshots), "--update"],
                      cwd=tmp_path, env={**ENV, "TOOLCHOICE_ALLOW_ENV": "MCP_ARG_KEY,MCP_SECRET"})
    assert allowed.returncode == 0, allowed.stderr
    seen = "".join(f.read_text() for f in snapshots.rglob("*") if f.is_file())  # the rendered request and its ledger
    # the server was handed the values (each $NAME one argument, spaces and all) and wrote them back: shown as $NAME
    assert '"args": ["--key", "$MCP_ARG_KEY", "$MCP_ARG_KEY two"]' in seen.replace('\\"', '"'), seen
    assert '"env": "$MCP_SECRET"' in seen.replace('\\"', '"')
    assert "import.secret_echoed" in seen
    everything = _everything(tmp_path, allowed.stdout, allowed.stderr)
    assert ARG_KEY not in everything and ENV_KEY not in everything and ARG_KEY[:14] not in everything


def test_a_failing_stdio_server_that_prints_what_it_read_shows_names_only(tmp_path: Path) -> None:
    result = run_cli(["tools", "--mcp", _argv_server("--crash", "$MCP_ARG_KEY")], env=ENV)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "$MCP_ARG_KEY" in result.stderr and ARG_KEY not in result.stderr + result.stdout, result.stderr
    passed = run_cli(["tools", "--mcp", _argv_server("plain"), "--env", "MCP_ENV_KEY=$MCP_SECRET", "-f", "json"],
                     env=ENV)
    assert passed.returncode == 0, passed.stderr
    assert json.loads(passed.stdout)["tools"][0]["description"] == 'started with {"args": ["plain"], "env": "$MCP_SECRET"}'
    assert ENV_KEY not in passed.stdout + passed.stderr
    unset = run_cli(["tools", "--mcp", _argv_server("$MCP_UNSET_VAR_Q")], env=ENV)
    assert unset.returncode == 2 and "needs MCP_UNSET_VAR_Q, which is not set" in unset.stderr, unset.stderr


def _listed_at(paths: list[str]) -> list[dict]:
    def tools(headers: object) -> list[dict]:
        return [{"name": "where", "description": f"served at {paths[-1]}", "inputSchema": {"type": "object"}}]
    return tools  # type: ignore[return-value]


def test_a_key_in_the_url_path_is_a_variable_read_when_allowed_and_never_shown(tmp_path: Path) -> None:
    paths: list[str] = []
    with serving(_listed_at(paths), paths=paths) as url:
        keyed = url.replace("/mcp", "/$MCP_PATH_KEY/mcp")
        tools = run_cli(["tools", "--mcp-url", keyed, "-f", "json"], env=ENV)
        assert tools.returncode == 0, tools.stderr
        assert paths and paths[-1] == f"/{PATH_KEY}/mcp"  # the server was reached at the key's path
        assert json.loads(tools.stdout)["tools"][0]["description"] == "served at /$MCP_PATH_KEY/mcp"

        path = _scenario(tmp_path, {"mcp_url": keyed, "timeout": 30})
        count = len(paths)
        refused = run_cli(["render", path.name, "-p", "openai", "--live-mcp"], cwd=tmp_path, env=ENV)
        assert refused.returncode == 2 and "from: mcp_url reads $MCP_PATH_KEY" in refused.stderr, refused.stderr
        assert count == len(paths)  # refused before any connection
        saved = tmp_path / "snap"
        allowed = run_cli(["render", path.name, "-p", "anthropic", "--live-mcp", "--allow-env", "MCP_PATH_KEY",
                           "-f", "json", "--snapshot", str(saved), "--update"], cwd=tmp_path, env=ENV)
        assert allowed.returncode == 0, allowed.stderr
        saved_text = "".join(f.read_text() for f in saved.rglob("*") if f.is_file())
        assert "mcp_url: " + keyed in saved_text  # the ledger names the source as written
    everything = _everything(tmp_path, tools.stdout, tools.stderr, refused.stderr, allowed.stdout, allowed.stderr)
    assert PATH_KEY not in everything and PATH_KEY[:14] not in everything


def test_an_unreachable_url_with_a_key_in_its_path_says_so_with_the_name(tmp_path: Path) -> None:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]  # closed again: nothing listens there
    result = run_cli(["tools", "--mcp-url", f"http://127.0.0.1:{port}/${{MCP_PATH_KEY}}/mcp", "--timeout", "10"],
                     env=ENV)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "${MCP_PATH_KEY}" in result.stderr and PATH_KEY not in result.stderr + result.stdout, result.stderr
    question = run_cli(["tools", "--mcp-url", "http://127.0.0.1:9/mcp?key=$MCP_PATH_KEY"], env=ENV)
    assert question.returncode == 2 and "query string" in question.stderr and PATH_KEY not in question.stderr


def test_a_server_error_of_a_page_of_text_is_one_bounded_line() -> None:
    """Hunt (trial 8b, held, no defect): a tools/list error of 100,000 characters with markup and an escape is
    one line, its middle left out (exits.error_line), the markup shown as text."""
    result = run_cli(["tools", "--mcp", shlex.join([sys.executable, str(SERVER), "error-long"])])
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr[:300]
    assert "the server failed: [bold]boom[/bold]" in result.stderr and "\x1b" not in result.stderr
    assert len(result.stderr) < 2500 and "characters left out" in result.stderr, len(result.stderr)
