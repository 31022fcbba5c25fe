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


ENDLESS_LINE = "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n    sys.stdout.flush()\n"


def test_a_server_writing_one_endless_line_is_cut_at_mcp_reply_bytes(tmp_path: Path) -> None:
    """The SDK keeps a stdio server's stdout until a newline: one endless line grew toolchoice's memory until
    the deadline. Behind mcp_relay, past mcp_reply_bytes the server is stopped and the listing refused in one
    line, long before the deadline, with toolchoice's peak memory far under what the server wrote."""
    import resource

    script = tmp_path / "endless.py"
    script.write_text(ENDLESS_LINE)
    cap = 4 * 1024 * 1024
    env = {**os.environ, "TOOLCHOICE_LIMIT_MCP_REPLY_BYTES": str(cap)}
    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    proc = subprocess.run([sys.executable, "-m", "toolchoice.cli", "tools", "--mcp", f"{sys.executable} {script}",
                           "--timeout", "60"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    took = time.monotonic() - started
    assert proc.returncode == 2, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert "more than 4 MiB (limit mcp_reply_bytes)" in proc.stderr and "TOOLCHOICE_LIMIT_MCP_REPLY_BYTES" in proc.stderr
    assert took < 30  # the deadline was 60 s
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert peak_mib < 200 or before / 1024 >= 200, peak_mib  # toolchoice, the relay and the server: none grew


def test_the_relay_passes_a_server_through_whole_under_the_cap(tmp_path: Path) -> None:
    """What a server writes (UTF-8 of one to four bytes a character, no newline at the end, exit code) reaches the
    SDK unchanged (a byte that is not UTF-8 stops it: test_adversarial17)."""
    from toolchoice.providers.core import mcp_relay

    said = "a\u00e9\u20ac\U0001f600".encode() * 25600  # 256,000 bytes
    script = tmp_path / "say.py"
    script.write_text(f"import sys\nsys.stdout.buffer.write({said[:10]!r} * 25600)\nsys.exit(5)\n")
    proc = subprocess.run([sys.executable, "-I", "-S", mcp_relay.__file__, "256000", "10", "60", sys.executable, str(script)],
                          capture_output=True, timeout=60)
    assert proc.returncode == 5 and proc.stdout == said and proc.stderr == b""
    over = subprocess.run([sys.executable, "-I", "-S", mcp_relay.__file__, "255999", "10", "60", sys.executable, str(script)],
                          capture_output=True, timeout=60)
    assert over.returncode == 3 and len(over.stdout) <= 255999
    assert over.stderr.decode().strip() == mcp_relay.OVER


LEAVES_A_WORKER = """
import runpy, subprocess, sys
worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # holds none of the server's pipes
open(sys.argv[1], "w").write(str(worker.pid))
sys.argv = [sys.argv[2], "stdio"]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def test_what_a_server_leaves_running_ends_with_it(tmp_path: Path) -> None:
    """A server that started a worker and exits by itself once its stdin closes: the SDK stops the process
    group only when the server does not exit, so the worker outlived the listing. It ends with the server."""
    script, pid_file = tmp_path / "leaves.py", tmp_path / "worker.pid"
    script.write_text(LEAVES_A_WORKER)
    server = Path(__file__).resolve().parent / "mcp_server.py"
    proc = run_cli(["tools", "--mcp", f"{sys.executable} {script} {pid_file} {server}", "--format", "json",
                    "--timeout", "60"], cwd=ROOT)  # in-process (tests/cli.py); the server and its worker are real
    assert proc.returncode == 0, proc.stderr
    assert "get_weather" in proc.stdout
    worker = int(pid_file.read_text())
    deadline = time.monotonic() + 15
    while _alive(worker):
        assert time.monotonic() < deadline, f"the worker {worker} outlived its server"
        time.sleep(0.05)



FLOODS_WITH_A_WORKER = """
import subprocess, sys
worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], stdin=subprocess.DEVNULL,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # holds none of the server's pipes
open(sys.argv[1], "w").write(str(worker.pid))
while True:
    sys.stdout.write("x" * 65536)
    sys.stdout.flush()
"""


def test_what_a_server_stopped_past_the_cap_left_running_ends_with_it(tmp_path: Path) -> None:
    """Past mcp_reply_bytes the relay stopped the server and left; the SDK, seeing the relay gone, stopped
    nothing more, so a worker the server had started outlived the refused listing (an adversarial run)."""
    script, pid_file = tmp_path / "floods.py", tmp_path / "worker.pid"
    script.write_text(FLOODS_WITH_A_WORKER)
    env = {**os.environ, "TOOLCHOICE_LIMIT_MCP_REPLY_BYTES": str(1024 * 1024)}
    proc = run_cli(["tools", "--mcp", f"{sys.executable} {script} {pid_file}", "--timeout", "60"], cwd=ROOT,
                   env=env)  # in-process (tests/cli.py); the relay, the server and its worker are real processes
    assert proc.returncode == 2 and "limit mcp_reply_bytes" in proc.stderr, proc.stderr
    worker = int(pid_file.read_text())
    deadline = time.monotonic() + 15
    while _alive(worker):
        assert time.monotonic() < deadline, f"the worker {worker} outlived its server"
        time.sleep(0.05)


def test_a_server_that_closes_its_stdout_ends_the_listing_then_not_at_the_deadline(tmp_path: Path) -> None:
    """A server that closed its stdout and kept running: the SDK saw the answers end at once ("Connection
    closed") until the relay came between them, which kept its own stdout open while it waited for the server,
    so the listing waited for the deadline instead (an adversarial run)."""
    script = tmp_path / "closes.py"
    script.write_text("import os, time\nos.close(1)\ntime.sleep(600)\n")
    proc = run_cli(["tools", "--mcp", f"{sys.executable} {script}", "--timeout", "60"],
                   cwd=ROOT)  # in-process (tests/cli.py); the relay and the server are real processes
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert "Connection closed" in proc.stderr and "no tool listing within" not in proc.stderr, proc.stderr


def test_a_hanging_server_ends_with_the_deadline_and_is_gone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that never answers and ignores SIGTERM, `tools --timeout 1`: past toolchoice's deadline the SDK's
    own stop waited 2 s for it to exit once its stdin was closed, 2 s more after SIGTERM, then killed it (`tools
    --mcp "sleep 100" --timeout 2` ended after ~8-10 s). The relay stops the server's process group itself at the
    deadline: the command ends soon after it, and the server is gone. The SDK's grace is made 30 s here, so that its
    path (30 s and more) and the relay's (about 1 s) lie far apart: the bound, 15 s, is one-sided and load cannot
    reach it."""
    monkeypatch.setattr("mcp.client.stdio.PROCESS_TERMINATION_TIMEOUT", 30.0)
    pid_file = tmp_path / "server.pid"
    script = tmp_path / "hangs.py"
    script.write_text("import os, signal, sys, time\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                      "open(sys.argv[1], 'w').write(str(os.getpid()))\ntime.sleep(600)\n")
    started = time.monotonic()
    proc = run_cli(["tools", "--mcp", f"{sys.executable} {script} {pid_file}", "--timeout", "1"], cwd=ROOT)
    took = time.monotonic() - started
    assert proc.returncode == 2 and "no tool listing within 1 s" in proc.stderr, proc.stderr
    assert took < 15, took
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while _alive(pid):
        assert time.monotonic() < deadline, f"the MCP server {pid} outlived the listing"
        time.sleep(0.05)
