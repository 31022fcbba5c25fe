"""A live MCP server listing more tools than a scenario takes (limit ``tools``) is refused before the SDK parses the
listing: the SDK makes ~9 KB of objects of each tool it reads (100,000 small tools, 13 MB of JSON: ~860 MB), well
under mcp_reply_bytes. mcp_relay (stdio) and the HTTP transport count the tools as their bytes pass, one line
naming the server and the limit, exit 2. Real servers: tests/mcp_server.py's ``many`` over stdio, and
tests/mcp_http_stub.py over streamable HTTP."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli import run_cli
from sdk_types import missing

pytestmark = pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
ROOT = Path(__file__).resolve().parent.parent
SERVER = Path(__file__).resolve().parent / "mcp_server.py"


def _listing(count: int, page: int = 0, limit: int = 50) -> subprocess.CompletedProcess[str]:
    command = f"{sys.executable} {SERVER} many {count}" + (f" {page}" if page else "")
    return run_cli(["tools", "--mcp", command, "--timeout", "60", "-f", "json"],
                   env={**os.environ, "TOOLCHOICE_LIMIT_TOOLS": str(limit)})


def _refused(done: subprocess.CompletedProcess[str], limit: int = 50) -> None:
    assert done.returncode == 2 and done.stdout == "", done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "Traceback" not in line and f"{SERVER} many" in line, line
    assert f"the server lists more tools than a scenario takes: more than {limit} items (limit tools)" in line, line
    assert "TOOLCHOICE_LIMIT_TOOLS" in line, line


def test_a_stdio_listing_of_as_many_tools_as_the_limit_reads() -> None:
    done = _listing(50)
    assert done.returncode == 0, done.stderr
    assert '"tool_49"' in done.stdout


@pytest.mark.parametrize("page", [0, 7])
def test_a_stdio_listing_past_the_tools_limit_is_one_line(page: int) -> None:
    _refused(_listing(51, page))


def test_the_refusal_comes_before_the_sdk_parses_the_listing(tmp_path: Path) -> None:
    """30,000 small tools in one page (~4 MB, under mcp_reply_bytes): toolchoice's peak memory stays near its
    start-up (read whole, the SDK's parse took ~260 MB more)."""
    probe = ("import resource, subprocess, sys\n"
             "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
             "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)\n"
             "print(done.stderr.strip())\n")
    command = [sys.executable, "-m", "toolchoice.cli", "tools", "--mcp", f"{sys.executable} {SERVER} many 30000",
               "--timeout", "120"]
    # the server runs under toolchoice, which runs under the probe: the probe's children are toolchoice alone
    done = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "TOOLCHOICE_LIMIT_TOOLS": "10000"}, timeout=180)
    code, peak_mib = done.stdout.splitlines()[0].split()
    assert code == "2" and "more than 10000 items (limit tools)" in done.stdout, done.stdout + done.stderr
    assert int(peak_mib) < 150, peak_mib


def test_an_http_listing_past_the_tools_limit_is_one_line() -> None:
    from mcp_http_stub import serving

    def tools(headers: object) -> list[dict[str, object]]:
        return [{"name": f"tool_{i}", "inputSchema": {"type": "object"}} for i in range(51)]

    with serving(tools) as url:
        done = run_cli(["tools", "--mcp-url", url, "-f", "json"], env={**os.environ, "TOOLCHOICE_LIMIT_TOOLS": "50"})
        read = run_cli(["tools", "--mcp-url", url, "-f", "json"], env={**os.environ, "TOOLCHOICE_LIMIT_TOOLS": "51"})
    assert done.returncode == 2 and done.stdout == "", done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert f"mcp_url: {url}" in line and "more than 50 items (limit tools)" in line, line
    assert read.returncode == 0 and '"tool_50"' in read.stdout, read.stderr


def test_a_tool_key_split_between_two_reads_is_counted_once() -> None:
    from toolchoice.providers.core.mcp_relay import TOOL_KEY, count_tools

    text = (b'{"tools": [' + b", ".join(b'{"name": "t", ' + TOOL_KEY + b': {}, "description": "say \\"inputSchema\\""}'
                                       for _ in range(5)) + b"]}")
    for cut in range(1, len(text)):
        first, carry = count_tools(text[:cut], b"")
        second, _ = count_tools(text[cut:], carry)
        assert first + second == 5, cut
