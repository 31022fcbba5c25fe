"""Tools from a live MCP server: a real server written with the official SDK (tests/mcp_server.py) over
stdio and over streamable HTTP on 127.0.0.1, rendered for every provider; servers that hang, crash
or answer with a malformed listing end in one line within a bounded time."""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario

import mcp_forkserver
from cli import run_cli
from sdk_types import missing

# found without importing it (mcp takes ~0.6 s to import; the servers and toolchoice import it when they run)
pytestmark = pytest.mark.skipif(missing("mcp"), reason="the [mcp] extra (in [test]) is not installed")

SERVER = Path(__file__).resolve().parent / "mcp_server.py"
TOKEN = "mcp-test-token-5e1d77"


# The SDK's servers (these modes import mcp) are forked from one process that imported it once for the module
# (tests/mcp_forkserver.py: the same server code on the same descriptors, ~0.7 s of CPU less per server); the raw
# JSON-RPC servers start as they are, and the SIGTERM, process-tree and memory checks of test_mcp_process_bounds
# start tests/mcp_server.py itself.
SDK_MODES = ("stdio", "pages-forever", "deep")  # and "http", the module's streamable-HTTP server
_forkserver: dict[str, object] = {}


def server_command(mode: str, *args: str) -> str:
    if mode in SDK_MODES and "path" in _forkserver:
        return shlex.join(mcp_forkserver.command(str(_forkserver["path"]), mode, *args))
    return shlex.join([sys.executable, str(SERVER), mode, *args])


@pytest.fixture(scope="module", autouse=True)
def forkserver(tmp_path_factory: pytest.TempPathFactory):
    path = str(tmp_path_factory.mktemp("mcp-fork") / "s")
    process = mcp_forkserver.start(path)
    _forkserver["path"] = path
    try:
        yield path
    finally:
        _forkserver.clear()
        assert process.stdin is not None
        process.stdin.close()
        assert process.wait(timeout=30) == 0


def toolchoice(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`toolchoice ARGS` in-process (tests/cli.py: the console script's entry and exit code); the MCP servers
    themselves are real processes either way."""
    full = {k: v for k, v in os.environ.items() if k != "TOOLCHOICE_DEBUG"} | (env or {})
    return run_cli(args, cwd=cwd, env=full)


def write_scenario(tmp_path: Path, source: dict, tool_choice: object = "auto") -> Path:
    doc = {"tools": [{"from": source}], "tool_choice": tool_choice, "messages": [{"role": "user", "content": "hi"}]}
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def check_server_tools(scenario) -> None:
    assert [t.name for t in scenario.tools] == ["get_weather", "add"]
    weather = scenario.tool("get_weather")
    assert weather.description == "Current weather for a city."
    assert weather.parameters["required"] == ["city"]
    assert weather.parameters["properties"]["unit"]["enum"] == ["celsius", "fahrenheit"]
    dropped = next(n.message for n in scenario.notes if n.code == "import.dropped")
    assert dropped == "tool 'get_weather': title, outputSchema, annotations not imported (a function tool has no field for them)"
    for pid in PROVIDER_IDS:
        t = translate(pid, scenario, RenderOptions())
        assert t.request is not None, (pid, t.ledger)
        body = json.dumps(t.request.body)
        assert '"get_weather"' in body and '"add"' in body and '"celsius"' in body, pid
        assert t.ledger[0].code == "import.format", pid


@pytest.fixture(scope="module")
def http_server(forkserver: str):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    process = subprocess.Popen(mcp_forkserver.command(forkserver, "http", str(port)), stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            pytest.fail("the MCP test server did not start")
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_stdio_server_tools_render_for_every_provider(tmp_path):
    scenario = load_scenario(write_scenario(tmp_path, {"mcp": server_command("stdio"), "timeout": 90}))
    check_server_tools(scenario)
    assert scenario.notes[0].message.endswith(": 2 tools read as an MCP tools/list result")


def test_http_server_with_an_env_header(tmp_path, http_server, monkeypatch):
    monkeypatch.setenv("MCP_TEST_TOKEN", TOKEN)
    source = {"mcp_url": http_server, "headers": {"Authorization": "Bearer $MCP_TEST_TOKEN"}, "timeout": 60}
    from toolchoice.providers.core import source_policy

    with source_policy.policy(True, ("MCP_TEST_TOKEN",)):
        scenario = load_scenario(write_scenario(tmp_path, source))
    check_server_tools(scenario)
    assert TOKEN not in json.dumps([n._asdict() for n in scenario.notes])


def test_tools_command_reads_both_transports(http_server):
    stdio = toolchoice("tools", "--mcp", server_command("stdio"), "--timeout", "90")
    assert stdio.returncode == 0, stdio.stderr
    http = toolchoice("tools", "--mcp-url", http_server, "-H", "Authorization: Bearer $MCP_TEST_TOKEN",
                      "--timeout", "60", env={"MCP_TEST_TOKEN": TOKEN})
    assert http.returncode == 0, http.stderr
    tools = yaml.safe_load(stdio.stdout)["tools"]
    assert [t["name"] for t in tools] == ["get_weather", "add"]
    assert yaml.safe_load(http.stdout)["tools"] == tools
    assert TOKEN not in http.stdout + http.stderr


def test_header_variable_not_set_is_bad_input(http_server, tmp_path):
    result = toolchoice("tools", "--mcp-url", http_server, "-H", "Authorization: Bearer $MCP_UNSET_VAR_X")
    assert result.returncode == 2
    assert result.stderr.strip() == (f"toolchoice: error: mcp_url: {http_server}: a header needs MCP_UNSET_VAR_X, "
                                     "which is not set in the environment (export it, or remove it from headers)")


def run_bad(tmp_path: Path, source: dict) -> tuple[str, float]:
    path = write_scenario(tmp_path, source)
    started = time.monotonic()
    result = toolchoice("render", path.name, "-p", "openai", "-f", "json", "--live-mcp", cwd=tmp_path)
    elapsed = time.monotonic() - started
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0], elapsed


def test_a_hanging_server_times_out_and_is_stopped(tmp_path, monkeypatch):
    # The SDK stops a stdio server by closing its stdin, waiting PROCESS_TERMINATION_TIMEOUT (2 s) for it
    # to exit, then killing its process tree (mcp/client/stdio.py). This server ignores the closed stdin,
    # so it is killed whatever that grace is: 0.2 s here, the same path without 1.8 s of waiting.
    monkeypatch.setattr("mcp.client.stdio.PROCESS_TERMINATION_TIMEOUT", 0.2)
    pidfile = tmp_path / "pid"
    # half a second: the hanging server writes its pid file as it starts (~30 ms), then never answers
    line, elapsed = run_bad(tmp_path, {"mcp": server_command("hang", str(pidfile)), "timeout": 0.5})
    assert line.startswith("toolchoice: error: scenario.yaml:3: mcp: ") and \
        "no tool listing within 0.5 s (the server hangs, or is slow to start)" in line, line
    assert elapsed < 0.5 + 20, elapsed  # the deadline, the SDK's stop (stdin closed, the grace, then the kill), start-up
    pid = int(pidfile.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the server process is gone


def test_a_crashing_server_says_why(tmp_path):
    line, elapsed = run_bad(tmp_path, {"mcp": server_command("crash"), "timeout": 30})
    assert "the server failed: Connection closed" in line
    assert line.endswith("the server's last stderr line: boom: the server could not open its database"), line
    assert elapsed < 30


def test_a_malformed_listing_is_refused(tmp_path):
    line, elapsed = run_bad(tmp_path, {"mcp": server_command("malformed"), "timeout": 30})
    assert line.endswith("the server's answer is malformed: tools: Input should be a valid list"), line
    line, _ = run_bad(tmp_path, {"mcp": server_command("string-schema"), "timeout": 30})
    assert "malformed: tools.0.inputSchema.type" in line, line
    assert elapsed < 30


def test_nothing_listening_at_the_url(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    line, elapsed = run_bad(tmp_path, {"mcp_url": f"http://127.0.0.1:{port}/mcp", "timeout": 10})
    assert line.startswith(f"toolchoice: error: scenario.yaml:3: mcp_url: http://127.0.0.1:{port}/mcp: cannot connect"), line
    assert elapsed < 30


# ---- issue 29: a dry run reaches no MCP server without --live-mcp; MCP headers read only allowed variables ----

class _Listener:
    """A socket on 127.0.0.1 that counts the connections it accepts (render must make none)."""

    def __init__(self) -> None:
        import threading

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.accepted = 0
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/mcp"

    def _serve(self) -> None:
        while not self.stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self.stop = True
        self.thread.join()
        self.sock.close()


@pytest.mark.parametrize("command", [["render"], ["render", "-f", "curl"], ["compare"], ["send", "--dry-run", "-p", "openai"]])
def test_a_dry_run_opens_no_socket_to_an_mcp_url(tmp_path, command):
    listener = _Listener()
    try:
        path = write_scenario(tmp_path, {"mcp_url": listener.url, "headers": {"Authorization": "Bearer $OPENAI_API_KEY"}})
        result = toolchoice(*command, path.name, cwd=tmp_path, env={"OPENAI_API_KEY": "sk-live-secret-1234567890"})
        time.sleep(0.3)
        assert listener.accepted == 0
        assert result.returncode == 2, result.stdout + result.stderr
        assert "--live-mcp" in result.stderr and len(result.stderr.splitlines()) == 1, result.stderr
        assert "sk-live-secret" not in result.stdout + result.stderr
    finally:
        listener.close()


def test_a_dry_run_starts_no_mcp_server(tmp_path):
    marker = tmp_path / "started"
    path = write_scenario(tmp_path, {"mcp": f"touch {marker}"})
    result = toolchoice("render", path.name, cwd=tmp_path)
    assert result.returncode == 2 and "--live-mcp" in result.stderr
    assert not marker.exists()


def test_mcp_headers_need_the_allow_list_even_when_live(tmp_path):
    listener = _Listener()
    try:
        path = write_scenario(tmp_path, {"mcp_url": listener.url, "headers": {"Authorization": "Bearer $OPENAI_API_KEY"}})
        result = toolchoice("render", path.name, "--live-mcp", cwd=tmp_path, env={"OPENAI_API_KEY": "sk-live-secret-1234567890"})
        time.sleep(0.3)
        assert listener.accepted == 0
        assert result.returncode == 2 and "--allow-env OPENAI_API_KEY" in result.stderr, result.stderr
    finally:
        listener.close()


def test_mcp_error_lines_redact_a_quoted_piece_of_the_token():
    from toolchoice.providers.core import mcp_client
    from toolchoice.providers.core.model import ToolchoiceError

    token = "tok-9f8e7d6c5b4a39281706f5e4d3c2b1a0"

    async def fails() -> dict:
        raise RuntimeError(f"401: bad token '{token[:20]}...'")

    with pytest.raises(ToolchoiceError) as caught:
        mcp_client._run(fails, "mcp_url: http://x", 5, {token: "$MCP_TOKEN"})
    assert token[:14] not in caught.value.message and "$MCP_TOKEN" in caught.value.message, caught.value.message


def test_a_server_printing_non_json_is_one_line_without_sdk_tracebacks(tmp_path, monkeypatch):
    monkeypatch.setattr("mcp.client.stdio.PROCESS_TERMINATION_TIMEOUT", 0.2)
    line, _ = run_bad(tmp_path, {"mcp": server_command("noise"), "timeout": 3})
    assert "could not be read" in line and "hangs" not in line, line
    assert "\x1b" not in line


def test_a_listing_that_pages_forever_is_refused_not_cut_silently(tmp_path):
    """trial6d: an SDK server answering every tools/list page with a next cursor was cut at 100 pages and its
    first 100 tools imported as if that were the whole listing (no note). A bound says so, in one line."""
    line, elapsed = run_bad(tmp_path, {"mcp": server_command("pages-forever"), "timeout": 30})
    assert "did not end after 100 pages" in line and "next cursor" in line, line
    assert elapsed < 30


def test_a_listing_nested_past_json_depth_is_refused_as_a_tool_file_is(tmp_path):
    """trial6d: the same 95-object schema is refused from a tool file (json_depth 100) but was imported
    from a live server; a listing is JSON from outside and is held to the same bound."""
    schema: dict = {"type": "string"}
    for _ in range(95):
        schema = {"type": "object", "properties": {"a": schema}}
    (tmp_path / "deep.json").write_text(json.dumps({"tools": [{"name": "deep", "inputSchema": schema}]}))
    from_file = toolchoice("tools", str(tmp_path / "deep.json"))
    assert from_file.returncode == 2 and "limit json_depth" in from_file.stderr, from_file.stderr
    line, _ = run_bad(tmp_path, {"mcp": server_command("deep", "95"), "timeout": 30})
    assert "nests too deeply" in line and "limit json_depth" in line, line
    shallow = toolchoice("tools", "--mcp", server_command("deep", "5"), "--format", "json")
    assert shallow.returncode == 0 and json.loads(shallow.stdout)["tools"][0]["name"] == "deep", shallow.stderr


@pytest.mark.parametrize("secret_url", ["http://user:mcp-pass-9f3e1c@{host}/mcp", "http://{host}/mcp?token=mcp-pass-9f3e1c"])
def test_an_mcp_url_with_a_password_or_query_is_refused_without_showing_it(http_server, tmp_path, secret_url):
    """trial6d: a hosted MCP tool's server_url with user info or a query string is refused (a key would be in the
    file and every output); from: mcp_url and tools --mcp-url took it, connected, and printed it whole in the
    ledger note and in errors. The server here would answer: only the refusal keeps the secret out."""
    url = secret_url.format(host=http_server.split("//")[1].split("/")[0])
    shown = toolchoice("tools", "--mcp-url", url, "--timeout", "60")
    assert shown.returncode == 2 and len(shown.stderr.strip().splitlines()) == 1, shown.stdout + shown.stderr
    assert "mcp-pass-9f3e1c" not in shown.stdout + shown.stderr
    line, _ = run_bad(tmp_path, {"mcp_url": url, "timeout": 60})
    assert "mcp-pass-9f3e1c" not in line and "scenario.yaml" in line, line


@pytest.mark.parametrize("status", [401, 403])
def test_an_http_mcp_server_that_refuses_the_credential_is_named_by_its_status(tmp_path, status):
    """An MCP server behind authorization answers 401 (MCP specification, "Authorization": 'HTTP 401
    Unauthorized' with WWW-Authenticate) or 403 to the first request. The MCP SDK's client turns any non-2xx
    answer that is not a JSON-RPC error into "Server returned an error response" (mcp 2.3.0
    client/streamable_http.py), which says neither the status nor what to do: the line names the status and
    the hint the header that carries a credential."""
    import http.server
    import threading

    class Refusing(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the standard library's spelling
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            body = b'{"error": "invalid_token"}'
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("WWW-Authenticate", 'Bearer error="invalid_token"')
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Refusing)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/mcp"
        result = toolchoice("tools", "--mcp-url", url, "-H", "Authorization: Bearer $MCP_TEST_TOKEN",
                            "--timeout", "30", env={"MCP_TEST_TOKEN": TOKEN})
    finally:
        server.shutdown()
        server.server_close()
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.strip().splitlines()
    said, hint = line.split(f"HTTP {status} ", 1)  # the status, then what to do
    assert said.startswith(f"toolchoice: error: mcp_url: {url}: the server answered"), line
    assert "-H 'Authorization: Bearer $TOKEN'" in hint, line
    assert TOKEN not in result.stdout + result.stderr


def test_a_server_from_the_fork_server_is_what_python_mcp_server_py_starts(forkserver: str, tmp_path: Path) -> None:
    """tests/mcp_forkserver.py stands in for `python tests/mcp_server.py ARGS` above: the same answer on stdout, the
    same stderr and exit code, the same arguments and environment, in the caller's directory, and a SIGTERM sent
    to the command ends the server with it (the exit code says the signal)."""
    initialize = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "x"}})
    listing = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    env = {**os.environ, "MCP_ENV_KEY": "fork-env-7c1"}
    for args in (["argv", "a b", "--flag"], ["argv", "x", "--crash"], ["crash"], ["string-schema"]):
        direct, forked = (subprocess.run(argv, input=f"{initialize}\n{listing}\n", capture_output=True, text=True,
                                         env=env, cwd=tmp_path, timeout=60)
                          for argv in ([sys.executable, str(SERVER), *args], mcp_forkserver.command(forkserver, *args)))
        assert (forked.returncode, forked.stdout, forked.stderr) == (direct.returncode, direct.stdout, direct.stderr)
        assert direct.stdout or direct.stderr, args  # each said something to compare
    hanging = subprocess.Popen(mcp_forkserver.command(forkserver, "hang", str(tmp_path / "pid")), cwd=tmp_path,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (tmp_path / "pid").exists() or not (tmp_path / "pid").read_text():
        assert time.monotonic() < deadline
        time.sleep(0.02)
    server = int((tmp_path / "pid").read_text())
    assert server != hanging.pid and Path(f"/proc/{server}/cwd").resolve() == tmp_path.resolve()
    hanging.terminate()
    assert hanging.wait(timeout=30) == -15  # SIGTERM: the server's end, passed on as its own
    hanging.stdin.close()  # (the server no longer reads it)
    hanging.stdout.close()
    deadline = time.monotonic() + 30
    while Path(f"/proc/{server}").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not Path(f"/proc/{server}").exists()
