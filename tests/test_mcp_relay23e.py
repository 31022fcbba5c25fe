"""The stdio MCP relay's keys named twice (trial23e): the keys went through a file in /tmp (``--twice=FILE``), which
held a key echoing a secret the server was handed and was left behind when toolchoice was SIGKILLed; the HTTP
watch read answers past the depth a tool file is held to; the relay kept its own copy of ``bounded.read_last``.
Now the relay writes into a FIFO it removes (with its folder) before the server starts, drained by toolchoice
(``mcp_twice.Channel``), a dead run's folder is swept by the next, a tools/list answer nested past json_depth is
refused over stdio and HTTP alike (as a file holding it is), and both read with one module (``json_last``), which
the relay, a script run ``-I -S``, loads by its path. Real servers: raw JSON-RPC stdio scripts written here, the
HTTP stub on 127.0.0.1 (tests/mcp_http_stub.py), real processes and a real SIGKILL; the truth outside the code is
the MCP SDK's own reader (pydantic) and the keys each listing writes twice by construction."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from cli import run_cli, user_env
from sdk_types import missing
from test_mcp_duplicate_keys import RESULT, _stdio

pytestmark = [pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK"),
              pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/proc/self/fd").is_dir(),
                                 reason="FIFOs and /proc (Linux)")]
ROOT = Path(__file__).resolve().parent.parent
SECRET = "hunter2-verysecret-value-42"  # not a key's look: only its variable makes it a secret

SERVER = r'''
import json, os, sys, time
mode, args = sys.argv[1], sys.argv[2:]
secret = json.dumps(os.environ.get("MCP_ENV_KEY", "none"))
LISTING = '{"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {%s: {"type": "string"}, %s: {"type": "integer"}}}}]}' % (secret, secret)

def inspect(report, tmp):
    """What the relay (this server's parent) holds open and what lies under tmp: regular files, and whether any
    holds the secret (a FIFO is not opened: its reader would take what it carries)."""
    import stat
    secret_bytes, seen, held = os.environ["MCP_ENV_KEY"].encode(), [], []
    places = [os.path.join(f"/proc/{os.getppid()}/fd", n) for n in os.listdir(f"/proc/{os.getppid()}/fd")]
    places += [os.path.join(d, n) for d, _, names in os.walk(tmp) for n in names]
    for place in places:
        try:
            if stat.S_ISREG(os.stat(place).st_mode):
                seen.append(place)
                if secret_bytes in open(place, "rb").read():
                    held.append(os.readlink(place) if place.startswith("/proc/") else place)
        except OSError:
            pass
    with open(report, "w") as out:
        json.dump({"places": len(places), "held": held}, out)

INITIALIZED = '{"protocolVersion": %s, "capabilities": {"tools": {}}, "serverInfo": {"name": "echo", "version": "0"}}'
for line in sys.stdin:
    message = json.loads(line)
    method, ident = message.get("method"), message.get("id")
    if ident is None:  # a notification
        continue
    if method == "tools/list" and mode == "hang":  # an answer to no request, then never the answer
        sys.stdout.write('{"jsonrpc": "2.0", "id": 9999, "result": %s}\n' % LISTING)
        sys.stdout.flush()
        with open(args[0] + ".part", "w") as mark:
            mark.write(f"{os.getpid()} {os.getppid()}")
        os.rename(args[0] + ".part", args[0])
        time.sleep(600)
    answers = {"initialize": lambda: INITIALIZED % json.dumps(message["params"]["protocolVersion"]),
               "tools/list": lambda: LISTING}
    sys.stdout.write('{"jsonrpc": "2.0", "id": %s, "result": %s}\n' % (json.dumps(ident), answers.get(method, dict)()))
    sys.stdout.flush()
if mode == "echo":  # stdin closed: the SDK has the listing, the relay has done with it and is still there
    inspect(*args)
'''


def _server(tmp_path: Path, *args: object) -> str:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    return " ".join([sys.executable, str(script), *map(str, args)])


def _said(document: dict) -> list[str]:
    return [e["message"] for e in document["ledger"] if e["code"] == "mcp.duplicate_key"]


@pytest.fixture()
def tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own temporary folder, where toolchoice makes its channel (the suite runs in parallel)."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


# ---- 1. a key echoing a secret: in no file, never shown ----------------------------------------------------------

def test_a_key_echoing_a_secret_is_in_no_file_and_never_shown(tmp_path: Path, tmp: Path) -> None:
    """The server is handed $MCP_SECRET (``--env``) and writes it as a schema property's name, twice. Before, the
    relay wrote it into its file under /tmp (the server, looking at what its parent held open when its stdin
    closed, found it there); now it passes through a FIFO no file backs. Shown, it is the variable's name, as the
    rest of the listing shows it."""
    report = tmp_path / "report.json"
    command = _server(tmp_path, "echo", report, tmp)
    env = user_env(MCP_SECRET=SECRET)
    done = run_cli(["tools", "--mcp", command, "--env", "MCP_ENV_KEY=$MCP_SECRET", "--timeout", "60", "-f", "json"],
                   env=env)
    assert done.returncode == 0, done.stderr
    assert SECRET not in done.stdout + done.stderr
    document = json.loads(done.stdout)
    [said] = _said(document)
    assert 'names the key "$MCP_SECRET" twice in one object' in said, said
    assert list(document["tools"][0]["parameters"]["properties"]) == ["$MCP_SECRET"]
    found = json.loads(report.read_text())
    assert found["places"] >= 3 and found["held"] == [], found  # the relay's stdin, stdout, stderr at least
    shown = run_cli(["tools", "--mcp", command, "--env", "MCP_ENV_KEY=$MCP_SECRET", "--timeout", "60"], env=env)
    assert shown.returncode == 0 and SECRET not in shown.stdout + shown.stderr, shown.stderr
    assert '"$MCP_SECRET" twice' in shown.stdout
    assert json.loads(report.read_text())["held"] == []
    assert list(tmp.iterdir()) == []


# ---- 2. nothing left behind a SIGKILL ------------------------------------------------------------------------------

def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_a_sigkilled_run_leaves_nothing_in_the_temporary_folder(tmp_path: Path) -> None:
    """toolchoice (a real process) lists a server that answers with a key echoing its secret, twice, then hangs;
    toolchoice is SIGKILLed. Its temporary folder holds nothing of the listing's: before, the relay's folder and
    file (with the secret in it) stayed there for good."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    mark = tmp_path / "mark"
    env = {**user_env(MCP_SECRET=SECRET), "TMPDIR": str(tmp)}
    proc = subprocess.Popen([sys.executable, "-m", "toolchoice.cli", "tools", "--mcp", _server(tmp_path, "hang", mark),
                             "--env", "MCP_ENV_KEY=$MCP_SECRET", "--timeout", "120"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    relay = server = 0
    try:
        deadline = time.monotonic() + 60
        while not mark.exists():
            assert time.monotonic() < deadline and proc.poll() is None, "the server was never asked for its tools"
            time.sleep(0.05)
        server, relay = map(int, mark.read_text().split())
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        left = [p for p in tmp.rglob("*")]
        assert left == [], left  # while the relay and the server still run
    finally:
        proc.kill()
        proc.wait(timeout=30)
        for pid in (relay, server):  # this test's own: toolchoice's relay (its group) and the server
            if pid:
                try:
                    if pid == relay:
                        os.killpg(pid, signal.SIGKILL)
                    else:
                        os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
    deadline = time.monotonic() + 30
    while _alive(server) or _alive(relay):
        assert time.monotonic() < deadline, "the relay or the server outlived the test"
        time.sleep(0.05)
    assert list(tmp.rglob("*")) == []


def test_a_folder_a_dead_run_left_is_swept_by_the_next(tmp_path: Path, tmp: Path) -> None:
    """A run killed after making its channel's folder and before its relay removed it (a few milliseconds) left the
    folder with its FIFO: the next stdio listing removes it. A folder of a run still going is not touched."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        dead = tmp / f"toolchoice-mcp-{ended.pid}-x1y2z3"
        live = tmp / f"toolchoice-mcp-{running.pid}-a1b2c3"
        for folder in (dead, live):
            folder.mkdir(mode=0o700)
            os.mkfifo(folder / "twice", 0o600)
        done = run_cli(["tools", "--mcp", _stdio(tmp_path, RESULT), "--timeout", "60", "-f", "json"], env=user_env())
        assert done.returncode == 0, done.stderr
        assert sorted(p.name for p in tmp.iterdir()) == [live.name]
        assert (live / "twice").exists()
    finally:
        running.kill()
        running.wait()


# ---- 3. a tools/list answer nested past json_depth: refused over stdio and HTTP alike ------------------------------

def _result(depth: int) -> bytes:
    """A tools/list result nesting exactly ``depth`` levels (the result 1, its _meta 2, then arrays), the tools
    themselves shallow: the SDK reads it (its own reader stops near 200 levels)."""
    inner = depth - 2
    return (b'{"tools": [{"name": "t", "inputSchema": {"type": "object"}}], "_meta": {"x": '
            + b"[" * inner + b"]" * inner + b"}}")


def _list(transport: str, tmp_path: Path, result: bytes, env: dict[str, str]) -> tuple[int, str, str]:
    if transport == "stdio":  # the duplicate-keys tests' raw server, answering tools/list with the result as written
        done = run_cli(["tools", "--mcp", _stdio(tmp_path, result), "--timeout", "60", "-f", "json"], env=env)
        return done.returncode, done.stdout, done.stderr.split(": the tool listing", 1)[-1]
    from mcp_http_stub import serving

    def wire(body: bytes) -> bytes:
        return body[:body.index(b'"result": ') + len(b'"result": ')] + result + b"}"

    with serving(lambda headers: [], wire=wire, sse=transport == "http-sse") as url:
        done = run_cli(["tools", "--mcp-url", url, "--timeout", "60", "-f", "json"], env=env)
    return done.returncode, done.stdout, done.stderr.split(": the tool listing", 1)[-1]


@pytest.mark.parametrize("transport", ["stdio", "http-json", "http-sse"])
def test_an_answer_nested_past_json_depth_is_refused_as_a_file_holding_it_is(transport: str, tmp_path: Path,
                                                                            tmp: Path) -> None:
    """json_depth is 100 levels (docs/limits.md): a tool file holding the result at 101 is refused. The same
    result answered live was imported over both transports (the HTTP watch read it with no depth check, the relay
    too); now refused over each in the same words, and imported at 100, or at 101 with the limit raised."""
    from mcp import types

    for depth in (100, 101):  # the SDK reads both: what toolchoice does with them is its own bound
        message = b'{"jsonrpc": "2.0", "id": 2, "result": ' + _result(depth) + b"}"
        assert types.jsonrpc_message_adapter.validate_json(message, by_name=False).result["_meta"]
    code, out, said = _list(transport, tmp_path, _result(100), user_env())
    assert code == 0 and [t["name"] for t in json.loads(out)["tools"]] == ["t"], said
    code, out, said = _list(transport, tmp_path, _result(101), user_env())
    assert code == 2 and out == "", out
    assert said == (" nests too deeply: more than 100 levels (limit json_depth); raise it with "
                    "TOOLCHOICE_LIMIT_JSON_DEPTH=N (levels) if you trust the input\n"), said
    (tmp_path / "file.json").write_bytes(_result(101))
    as_file = run_cli(["tools", str(tmp_path / "file.json")], env=user_env())
    assert as_file.returncode == 2 and "nests too deeply: more than 100 levels" in as_file.stderr
    code, out, said = _list(transport, tmp_path, _result(101), user_env(TOOLCHOICE_LIMIT_JSON_DEPTH="101"))
    assert code == 0 and [t["name"] for t in json.loads(out)["tools"]] == ["t"], said


# ---- 4. one reader for the relay and the HTTP watch ----------------------------------------------------------------

LISTING = b'{"jsonrpc": "2.0", "id": 2, "result": {"tools": [%s]%s}}'
TOOL = b'{"name": "t", "inputSchema": {"type": "object", "properties": {%s}}}'
# (line, whether the MCP SDK reads it as a message, the keys it writes twice by construction, too deep)
CORPUS = [
    (LISTING % (TOOL % b'"city": {}, "city": {"type": "string"}', b""), True, ["city"], False),
    (LISTING % (TOOL % b'"a": {}, "a": {}, "b": {}, "b": {}', b', "name": 1, "name": 2'), True, ["a", "b", "name"],
     False),
    # NaN and Infinity: pydantic-core reads them (the relay's json.loads did, the HTTP watch's read_last refused)
    (LISTING % (TOOL % b'"a": {"default": NaN}, "a": {}', b', "x": -Infinity'), True, ["a"], False),
    # a byte order mark: the SDK refuses the line (the relay's json.loads of bytes read it and said its keys)
    (b"\xef\xbb\xbf" + LISTING % (TOOL % b'"a": {}, "a": {}', b""), False, [], False),
    # the keys in escapes: the same keys to any JSON reader
    (LISTING.replace(b'"tools"', b'"tool\\u0073"') % (TOOL % b'"c\\u0069ty": {}, "city": {}', b""), True, ["city"],
     False),
    # another message's keys change no tool: an initialize result, a notification
    (b'{"jsonrpc": "2.0", "id": 1, "result": {"capabilities": {"tools": {}}, "serverInfo": 1, "serverInfo": 2}}', True,
     [], False),
    (b'{"jsonrpc": "2.0", "method": "notifications/message", "params": {"tools": [], "a": 1, "a": 2}}', True, [],
     False),
    # nested past json_depth (result 101 levels): refused, as a file holding it is
    (b'{"jsonrpc": "2.0", "id": 2, "result": ' + _result(101)[:-1] + b', "k": 1, "k": 2}}', True, ["k"], True),
]


def _relay_reads(tmp_path: Path, line: bytes) -> tuple[tuple[str, ...], int, bool]:
    """What the real relay, run as the SDK runs it (``python -I -S``, in the server's folder, with its environment),
    writes into its channel for ``line``: a folder whose json_last.py and json.py would say so if the relay
    imported them."""
    from toolchoice.providers.core import mcp_relay
    from toolchoice.providers.core.mcp_twice import Channel

    planted = tmp_path / "planted"
    planted.mkdir(exist_ok=True)
    for name in ("json_last", "json", "re"):
        (planted / f"{name}.py").write_text(f"open({str(tmp_path / 'imported')!r}, 'a').write({name!r})\n")
    (tmp_path / "line").write_bytes(line + b"\n")
    printer = f"import sys; sys.stdout.buffer.write(open({str(tmp_path / 'line')!r}, 'rb').read())"
    channel = Channel(1 << 20)
    try:
        assert channel.path
        done = subprocess.run([sys.executable, "-I", "-S", mcp_relay.__file__, mcp_relay.TWICE + channel.path,
                               mcp_relay.DEPTH + "100", str(1 << 20), "100", "60", sys.executable, "-I", "-c", printer],
                              stdin=subprocess.DEVNULL, capture_output=True, cwd=planted, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(planted)})
        assert done.returncode == 0 and done.stdout == line + b"\n", done.stderr
        keys = channel.keys()
    finally:
        channel.close()
    return keys.first, keys.total, keys.deep


def test_the_relay_and_the_http_watch_give_one_answer(tmp_path: Path) -> None:
    """The relay (a script that cannot import toolchoice: ``-I -S``) read each stdio line with its own copy of
    bounded.read_last's check, and the two disagreed (before: NaN said by the relay only, a line with a byte order
    mark, which the SDK refuses, said by the relay; the depth checked by neither). Now both call
    json_last.listing_twice, the relay loading the file by its path (no module the server's folder or PYTHONPATH
    holds is imported in its place); over the corpus they give the same answer, the one the SDK's reading and the
    keys written twice by construction call for."""
    from mcp import types

    from toolchoice.providers.core import bounded, json_last, mcp_relay
    from toolchoice.providers.core.mcp_twice import Watch, keys_of

    assert mcp_relay.json_last is json_last and bounded.read_last is json_last.read_last  # one implementation
    wrong = []
    for at, (line, sdk_reads, twice, deep) in enumerate(CORPUS):
        try:
            types.jsonrpc_message_adapter.validate_json(line, by_name=False)
            read = True
        except ValueError:
            read = False
        assert read is sdk_reads, at
        watch = Watch(100)
        watch.message(line.decode("utf-8"))
        http = keys_of(watch.found, watch.deep)
        (tmp_path / str(at)).mkdir()
        relay = _relay_reads(tmp_path / str(at), line)
        expected = (twice, len(twice), deep)
        if (list(http.first), http.total, http.deep) != expected or (list(relay[0]), *relay[1:]) != expected:
            wrong.append((at, http, relay, expected))
        assert not (tmp_path / str(at) / "imported").exists(), at
    assert wrong == []
