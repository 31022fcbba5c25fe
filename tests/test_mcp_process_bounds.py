"""Stdio MCP servers and the bounds around them (found by an adversarial run): SIGTERM to toolchoice left the
server running (it starts in its own session), a server flooding stderr filled the disk (stderr went to a file
with no bound), `tools --timeout` took inf/nan/99999, and a bad `from:` header failed later in the HTTP
library's words, without its line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli import run_cli
from sdk_types import missing

pytestmark = pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
ROOT = Path(__file__).resolve().parent.parent


def test_sigterm_stops_the_stdio_server_it_started(tmp_path: Path) -> None:
    pid_file = tmp_path / "server.pid"
    server = f"{sys.executable} -c \"import os, time; open('{pid_file}', 'w').write(str(os.getpid())); time.sleep(600)\""
    proc = subprocess.Popen([sys.executable, "-m", "toolchoice.cli", "tools", "--mcp", server, "--timeout", "120"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        pid = int(pid_file.read_text())
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "Traceback" not in err, err
    deadline = time.monotonic() + 15
    while _alive(pid):
        assert time.monotonic() < deadline, f"the MCP server {pid} outlived toolchoice"
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    """Running, not a zombie: a server stopped after toolchoice ended waits for PID 1 to reap it, and some PID 1s
    (a container's, a VM's init) never do; os.kill(pid, 0) still succeeds on a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state not in ("Z", "X")


def test_a_stderr_flood_keeps_only_its_tail() -> None:
    from toolchoice.providers.core.limits import get
    from toolchoice.providers.core.mcp_client import _StderrTail

    tail = _StderrTail()
    for i in range(3000):
        tail.file.write("x" * 1000 + f" line {i}\n")
    tail.file.write("the last words\n")
    tail.close()
    assert tail.last_line() == "the last words"
    assert len(tail.tail) <= get("stderr_bytes")


@pytest.mark.parametrize("value", ["inf", "nan", "1e308", "99999", "0", "-1"])
def test_tools_timeout_is_bounded(value: str) -> None:
    result = run_cli(["tools", "--mcp", "true", "--timeout", value])
    assert result.returncode == 2 and "at most 3600" in result.stderr, result.stderr


@pytest.mark.parametrize("entry, words", [
    ('{mcp: "python3 x.py", timeout: 99999}', "from: timeout must be a number of seconds above 0, at most 3600"),
    ('{mcp_url: "http://127.0.0.1:9/mcp", headers: {"Bad Name:": v}}', "is not a header name with a one-line value"),
    ('{mcp_url: "http://127.0.0.1:9/mcp", headers: {Authorization: "Bearer x\\r\\nEvil: 1"}}',
     "is not a header name with a one-line value"),
])
def test_bad_from_settings_are_one_line_at_their_line(tmp_path: Path, entry: str, words: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(f"tools:\n  - from: {entry}\nmessages:\n  - {{role: user, content: hi}}\n")
    result = run_cli(["render", str(path), "-p", "openai", "--live-mcp"])
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"toolchoice: error: {path}:2:") and words in line


def test_a_listing_stands_when_only_closing_the_session_hangs() -> None:
    """A server that answers tools/list but never the DELETE that closes the session: the listing was thrown away
    at the deadline ("no tool listing within ..."); the tools listed before it are kept."""
    import json
    import threading

    from mcp_http_stub import serving

    release = threading.Event()
    with serving(lambda headers: [{"name": "get_weather", "inputSchema": {"type": "object"}}],
                 on_close=lambda: release.wait(30)) as url:
        try:
            result = run_cli(["tools", "--mcp-url", url, "--timeout", "2", "-f", "json"])
        finally:
            release.set()
    assert result.returncode == 0, result.stderr
    assert [t["name"] for t in json.loads(result.stdout)["tools"]] == ["get_weather"]
