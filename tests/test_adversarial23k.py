"""Adversarial round 23k on the day's merges (trial23k). Each test failed on main before its fix; real processes,
real FIFOs and real temporary folders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli import user_env
from sdk_types import missing
from test_mcp_duplicate_keys import RESULT, _stdio

ROOT = Path(__file__).resolve().parent.parent


# ---- 1. the channel's sweep and folders anyone may name in a shared /tmp -------------------------------------------

@pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
@pytest.mark.parametrize("pid", ["99999999999999999999", "\u00b2"])
def test_a_folder_named_for_no_pid_leaves_the_listing_whole(tmp_path: Path, pid: str) -> None:
    """``mcp_twice.sweep`` reads the pid in each ``toolchoice-mcp-*`` folder's name of the temporary folder, which
    any user may make. A 20-digit pid (os.kill: OverflowError) or a digit int() refuses ("²": str.isdigit says yes)
    was not caught: ``tools --mcp`` ended in "internal error" (exit 70) before the server started. Now such a
    folder is no run's: left as it is, the listing made, and a dead run's folder beside it still swept."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    odd = tmp / f"toolchoice-mcp-{pid}-abc"
    odd.mkdir()
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    dead = tmp / f"toolchoice-mcp-{ended.pid}-x1y2z3"
    dead.mkdir(mode=0o700)
    os.mkfifo(dead / "twice", 0o600)
    done = subprocess.run([sys.executable, "-m", "toolchoice.cli", "tools", "--mcp", _stdio(tmp_path, RESULT),
                           "--timeout", "60", "-f", "json"], capture_output=True, text=True, cwd=ROOT,
                          env={**user_env(), "TMPDIR": str(tmp)}, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tools"]
    assert sorted(p.name for p in tmp.iterdir()) == [odd.name]


# ---- 2. a tool call's arguments past a bound: not "invalid JSON" -------------------------------------------------

def _reply_with_arguments(arguments: str) -> str:
    """An OpenAI chat completion (the shape openai-python's ChatCompletion reads) with one call of ``arguments``."""
    return json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": "gpt-4o", "choices": [
        {"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": arguments}}]}}]})


@pytest.mark.parametrize(("arguments", "bound"), [
    ('{"a": ' + "[" * 5000 + "]" * 5000 + "}", "json_depth"),
    ('{"a": ' + "[" * 100 + "]" * 100 + "}", "json_depth"),  # 101 levels with the object
    ('{"a": ' + "7" * 5000 + "}", "4,300"),
])
def test_arguments_past_a_bound_are_said_with_it_not_called_invalid(tmp_path: Path, arguments: str,
                                                                    bound: str) -> None:
    """Arguments nested past json_depth, or holding an integer past Python's digit limit, are valid JSON (RFC 8259
    sets neither bound; json.loads reads them with the limits lifted). ``parse`` said "invalid JSON: the JSON nests
    too deeply ...", the words the day's merge (trial23b) took off seven other surfaces; now "cannot be read", with
    the limit. Text that is not JSON keeps "invalid JSON"; 99 levels are read."""
    saved = sys.getrecursionlimit(), sys.get_int_max_str_digits()
    sys.setrecursionlimit(max(saved[0], 20000))  # the truth: the stdlib reader, its bounds lifted (this test only:
    sys.set_int_max_str_digits(0)                # another test's deep YAML relies on the usual recursion limit)
    try:
        assert isinstance(json.loads(arguments), dict)
    finally:
        sys.setrecursionlimit(saved[0])
        sys.set_int_max_str_digits(saved[1])
    body = tmp_path / "reply.json"
    body.write_text(_reply_with_arguments(arguments))
    shallow = tmp_path / "shallow.json"
    shallow.write_text(_reply_with_arguments('{"a": ' + "[" * 98 + "]" * 98 + '}'))
    broken = tmp_path / "broken.json"
    broken.write_text(_reply_with_arguments('{"a": '))
    said = []
    for path in (body, shallow, broken):
        done = subprocess.run([sys.executable, "-m", "toolchoice.cli", "parse", str(path), "-p", "openai", "-f",
                               "json"], capture_output=True, text=True, cwd=ROOT, env=user_env(), timeout=120)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        said.append(json.loads(done.stdout)["reply"]["tool_calls"][0].get("arguments_error"))
    assert said[0].startswith("cannot be read: ") and bound in said[0], said[0]
    assert "invalid" not in said[0]
    assert said[1] is None
    assert said[2].startswith("invalid JSON: "), said[2]


# ---- 3. a flood of keys named twice, each wider escaped than written -----------------------------------------------

@pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_every_key_a_listing_names_twice_is_counted_within_the_reply_cap(tmp_path: Path) -> None:
    """The relay wrote each key into the channel ASCII-escaped (``json.dumps``): an emoji the server wrote in 4 bytes
    took 12, and the channel keeps at most mcp_reply_bytes, the cap on the server's own bytes. A listing within that
    cap naming 2,000 emoji keys twice was said as ~1,440 (the rest cut at the channel's cap). Now a key's line is no
    longer than the server wrote it: every key counted. The truth is the listing's construction: 2,000 distinct keys,
    each written twice in one object."""
    from test_mcp_duplicate_keys import SERVER

    count, emoji = 2000, "\U0001F600" * 40
    keys = [f"{emoji}{i}" for i in range(count)]
    properties = ", ".join(f'"{key}": {{}}, "{key}": {{}}' for key in keys)
    result = ('{"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {' + properties
              + "}}}]}").encode()
    (tmp_path / "result.json").write_bytes(result)
    (tmp_path / "server.py").write_text(SERVER)
    cap = len(result) + 20000  # the listing and the rest of the session's answers pass the cap
    done = subprocess.run([sys.executable, "-m", "toolchoice.cli", "tools", "--mcp",
                           f"{sys.executable} {tmp_path / 'server.py'} {tmp_path / 'result.json'}",
                           "--timeout", "60", "-f", "json"], capture_output=True, text=True, cwd=ROOT,
                          env={**user_env(), "TOOLCHOICE_LIMIT_MCP_REPLY_BYTES": str(cap)}, timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    said = [e["message"] for e in json.loads(done.stdout)["ledger"] if e["code"] == "mcp.duplicate_key"]
    named = [m for m in said if "names the key" in m]
    assert len(named) == 20 and f'"{emoji}0"' in named[0], named[:1]
    assert f"and {len(keys) - len(named):,} more keys" in said[-1], said[-1]

    # a key written "\\ud800x" twice (json.loads reads half a character; the SDK refuses the line itself, pydantic:
    # "unexpected end of hex escape"): the relay's line for it is that escape again, read back as the same key
    from test_mcp_relay23e import _relay_reads

    line = (b'{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "t", "inputSchema": '
            b'{"\\ud800x": 1, "\\ud800x": 2}}]}}')
    assert _relay_reads(tmp_path, line) == (("\ud800x",), 1, False)


# ---- 4. an HTTP answer whose content type the SDK reads as JSON and the watch did not ----------------------------

def _listed_over_http(kind: str, result: bytes) -> subprocess.CompletedProcess[str]:
    """``tools --mcp-url`` against the streamable-HTTP stub on 127.0.0.1 whose JSON answers say ``Content-Type:
    kind``, its tools/list result ``result`` as written."""
    from mcp_http_stub import serving

    def wire(body: bytes) -> bytes:
        return body[:body.index(b'"result": ') + len(b'"result": ')] + result + b"}"

    with serving(lambda headers: [], wire=wire, json_kind=kind) as url:
        return subprocess.run([sys.executable, "-m", "toolchoice.cli", "tools", "--mcp-url", url, "--timeout", "60",
                               "-f", "json"], capture_output=True, text=True, cwd=ROOT, env=user_env(), timeout=120)


@pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
@pytest.mark.parametrize("kind", ["application/json charset=utf-8", "application/jsonx"])
def test_an_answer_the_sdk_reads_as_json_is_watched_whatever_its_content_type_says_after(kind: str) -> None:
    """The MCP SDK's HTTP client reads an answer as JSON when its lowered content type starts with
    "application/json" (mcp 2.3.0 streamable_http.py); ``mcp_twice.Watch`` took only what is exactly that before a
    ``;``. A server answering ``application/json charset=utf-8`` (no ``;``) had its listing imported with neither
    check: a key named twice unsaid, and an answer nested past json_depth imported. Now both hold there too."""
    from mcp import types

    from test_mcp_relay23e import _result

    twice = (b'{"tools": [{"name": "t", "inputSchema": {"type": "object", "properties": {"city": {}, '
             b'"city": {"type": "string"}}}}]}')
    assert types.jsonrpc_message_adapter.validate_json(b'{"jsonrpc": "2.0", "id": 2, "result": ' + twice + b"}",
                                                       by_name=False).result["tools"][0]["inputSchema"]
    done = _listed_over_http(kind, twice)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    said = [e["message"] for e in document["ledger"] if e["code"] == "mcp.duplicate_key"]
    assert len(said) == 1 and 'the key "city" twice' in said[0], said
    done = _listed_over_http(kind, _result(101))
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert "nests too deeply: more than 100 levels (limit json_depth)" in done.stderr, done.stderr
