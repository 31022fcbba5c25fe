"""Hardening leftovers of adversarial round 17 (trial17q): every input bounded in size, count and time. Each test
failed before its fix. The MCP servers are real (a stdio server process behind the relay, an HTTP server on
127.0.0.1); work is counted, never timed; the truth is outside the code under test (Python's strict JSON reader on
the line the server wrote, the file system's own word on what a path is, the bodies the tests write).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from cli import refused, run_cli
from sdk_types import missing


def _env(**more: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.endswith(("_KEY", "_TOKEN"))} | more


# ---- MCP over stdio: a line that is a broken JSON-RPC message, not a banner ----------------------------------------

# a stdio MCP server that prints two start-up lines that are not JSON (a banner; a log line cut short), then answers
# in raw JSON-RPC; MODE "raw-list" writes the listing with a raw control character in a tool's name, "raw-init" the
# initialize answer with one in the server's name (its "id" key first, "jsonrpc" after it), "clean" neither
SERVER = '''
import json, sys
mode = sys.argv[1]
sys.stdout.write("starting the weather server {pid 4242}\\n")
sys.stdout.write('{"level": "info", "msg": "ready\\n')
sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    key = json.dumps(message["id"])
    if message["method"] == "initialize":
        name = "w\\x01" if mode == "raw-init" else "w"
        text = ('{"id": %s, "jsonrpc": "2.0", "result": {"protocolVersion": %s, "capabilities": {"tools": {}}, '
                '"serverInfo": {"name": "%s", "version": "0"}}}' % (key, json.dumps(message["params"]["protocolVersion"]), name))
    elif message["method"] == "tools/list":
        name = "get\\x01weather" if mode == "raw-list" else "get_weather"
        text = '{"jsonrpc": "2.0", "id": %s, "result": {"tools": [{"name": "%s", "inputSchema": {"type": "object"}}]}}' % (key, name)
    else:
        text = json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "no"}})
    sys.stdout.write(text + "\\n")
    sys.stdout.flush()
'''


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mcp") / "server.py"
    path.write_text(SERVER, encoding="utf-8")
    return path


@pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
def test_start_up_lines_that_are_not_json_are_passed_over(server: Path) -> None:
    for banner in ("starting the weather server {pid 4242}", '{"level": "info", "msg": "ready'):
        with pytest.raises(json.JSONDecodeError):
            json.loads(banner)  # they fail the parse a broken message fails: the rule must tell them apart
    done = run_cli(["tools", "--mcp", f"{sys.executable} {server} clean", "-f", "json"], env=_env())
    assert done.returncode == 0, done.stderr
    assert [t["name"] for t in json.loads(done.stdout)["tools"]] == ["get_weather"]


@pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
@pytest.mark.parametrize("mode", ["raw-list", "raw-init"])
def test_a_json_rpc_message_that_is_not_json_is_said_at_once(server: Path, mode: str) -> None:
    # the SDK logged "Failed to parse JSONRPC message from server" and waited on for an answer: the listing ended at
    # its deadline (30 s by default) as "no tool listing within" / "could not be read"; a deadline of 120 s here
    with pytest.raises(json.JSONDecodeError, match="Invalid control character"):
        json.loads('{"jsonrpc": "2.0", "id": 1, "result": {"name": "get\x01weather"}}')
    line = refused(run_cli(["tools", "--mcp", f"{sys.executable} {server} {mode}", "--timeout", "120"], env=_env()))
    assert ": the server wrote a JSON-RPC message that is not JSON (control character (\\u0000-\\u001F) found while " \
           "parsing a string at line 1 column" in line, line
    assert "within" not in line and "could not be read" not in line, line


# ---- MCP over HTTP: an answer that is not JSON, or not JSON-RPC -----------------------------------------------------

@pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
@pytest.mark.parametrize("wire, words", [
    (lambda body: body.replace(b'"get_weather"', b'"get\x01weather"'),
     "the server's answer is not JSON (control character (\\u0000-\\u001F) found while parsing a string at line 1"),
    (lambda body: body.replace(b'"jsonrpc": "2.0", ', b""), "the server's answer is not a JSON-RPC message ("),
])
def test_an_http_answer_that_is_not_json_rpc_is_worded_as_over_stdio(wire: Any, words: str) -> None:
    # it read "the server failed: Failed to parse JSON response: 1 validation error for union[JSONRPCRequest,..."
    from mcp_http_stub import serving

    with serving(lambda headers: [{"name": "get_weather", "inputSchema": {"type": "object"}}], wire=wire) as url:
        line = refused(run_cli(["tools", "--mcp-url", url], env=_env()))
    assert words in line and "the server failed" not in line and "validation error" not in line, line


# ---- files that are not files: refused at once, not read to a limit --------------------------------------------------

@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "sample-001.request.json"  # what trace reads as a saved request
    os.mkfifo(path)
    return path


@pytest.mark.skipif(not os.path.exists("/dev/zero") or not hasattr(os, "mkfifo"), reason="needs /dev/zero, FIFOs")
@pytest.mark.parametrize("args, kind", [
    (["parse", "/dev/zero", "-p", "openai"], "a device"),
    (["parse", "FIFO", "-p", "openai"], "a FIFO"),
    (["parse", "/dev/zero", "-p", "openai", "--stream"], "a device"),
    (["trace", "/dev/zero"], "a device"),
    (["trace", "FIFO"], "a FIFO"),
    (["trace", "FIFO", "-p", "openai"], "a FIFO"),
    (["mock", "-p", "openai", "--script", "/dev/zero"], "a device"),
    (["tools", "/dev/zero"], "a device"),
])
def test_a_device_or_fifo_named_as_a_file_is_refused_before_any_read(fifo: Path, args: list[str], kind: str) -> None:
    # parse read /dev/zero to the 32 MB stream limit ("larger than 32 MB"), mock --script to 8 MB; a FIFO no one
    # writes read as an empty file
    args = [str(fifo) if a == "FIFO" else a for a in args]
    named = next(a for a in args if a.startswith("/"))
    assert stat.S_ISCHR(os.stat(named).st_mode) if kind == "a device" else stat.S_ISFIFO(os.stat(named).st_mode)
    line = refused(run_cli(args, env=_env()))
    assert f"{named}: is {kind}, not a regular " in line and "larger than" not in line, line
    if args[0] == "parse":
        assert "give -" in line, line


# ---- JSON Lines traces: the reading stops at the first bad document, and at one too many --------------------------

class _Counted(json.JSONDecoder):
    decoded = 0

    def raw_decode(self, s: str, idx: int = 0) -> Any:  # type: ignore[override]
        _Counted.decoded += 1
        return super().raw_decode(s, idx)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> type[_Counted]:
    from toolchoice.providers.core import bounded

    monkeypatch.setattr(bounded.json, "JSONDecoder", _Counted)
    _Counted.decoded = 0
    return _Counted


def test_a_json_lines_trace_stops_at_its_first_bad_document(tmp_path: Path, counted: type[_Counted]) -> None:
    # every line was decoded before the first was refused: 8 MB of `{}` lines is 2.8 million documents, ~40 s
    from toolchoice.providers.core.model import ToolchoiceError
    from toolchoice.providers.core.trace_otlp import read_spans

    trace = tmp_path / "t.jsonl"
    trace.write_text('{"resourceSpans": []}\n' * 3 + "{}\n" * 50000, encoding="utf-8")
    with pytest.raises(ToolchoiceError, match=r"t\.jsonl:4: not an OTLP/JSON trace export \(no resourceSpans\)"):
        read_spans(trace)
    assert counted.decoded == 4


def test_a_json_lines_trace_of_more_documents_than_spans_is_refused_at_the_one_past(
        tmp_path: Path, counted: type[_Counted], monkeypatch: pytest.MonkeyPatch) -> None:
    # 8 MB of `{"resourceSpans": []}` lines (380,000 documents, no span) were all read; each export holds a span
    from toolchoice.providers.core import trace_otlp
    from toolchoice.providers.core.model import ToolchoiceError

    monkeypatch.setattr(trace_otlp, "MAX_SPANS", 1000)
    trace = tmp_path / "t.jsonl"
    trace.write_text('{"resourceSpans": []}\n' * 5000, encoding="utf-8")
    with pytest.raises(ToolchoiceError, match=r"t\.jsonl:1001: more than 1000 trace exports"):
        trace_otlp.read_spans(trace)
    assert counted.decoded == 1001


# ---- drawing a reply of many calls ------------------------------------------------------------------------------------

def test_the_pretty_view_draws_the_first_calls_and_says_how_many_more(tmp_path: Path) -> None:
    # a reply of 30,000 calls took ~15 s to draw; --format json keeps every call
    calls = [{"id": f"call_{i}", "type": "function", "function": {"name": f"tool_{i}", "arguments": "{}"}}
             for i in range(1000)]
    body = tmp_path / "reply.json"
    body.write_text(json.dumps({"id": "x", "object": "chat.completion", "model": "gpt-4o-mini", "choices": [
        {"index": 0, "finish_reason": "tool_calls",
         "message": {"role": "assistant", "content": None, "tool_calls": calls}}]}), encoding="utf-8")
    drawn = run_cli(["parse", str(body), "-p", "openai"], env=_env(COLUMNS="80"))
    assert drawn.returncode == 0, drawn.stderr
    assert "tool_199" in drawn.stdout and "tool_200" not in drawn.stdout, drawn.stdout[-2000:]
    assert "… and 800 more calls (-f json shows all)" in drawn.stdout, drawn.stdout[-2000:]
    whole = run_cli(["parse", str(body), "-p", "openai", "-f", "json"], env=_env())
    assert whole.returncode == 0, whole.stderr
    assert [c["name"] for c in json.loads(whole.stdout)["reply"]["tool_calls"]] == [f"tool_{i}" for i in range(1000)]
    # judged against a scenario that offers tool_0 alone: a reason for each of the 999 others
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - name: tool_0\n    description: d\n    parameters: {type: object}\n"
                        "tool_choice: required\nmessages:\n  - {role: user, content: hi}\n", encoding="utf-8")
    judged = run_cli(["parse", str(body), "-p", "openai", "-s", str(scenario), "-f", "json"], env=_env())
    reasons = json.loads(judged.stdout)["verdict"]["reasons"]
    assert len(reasons) >= 999 and "'tool_999', which was not offered" in reasons[998], reasons[:3]
    drawn = run_cli(["parse", str(body), "-p", "openai", "-s", str(scenario)], env=_env(COLUMNS="80"))
    assert "'tool_200', which" in drawn.stdout and "'tool_201', which" not in drawn.stdout, drawn.stdout[-2000:]
    assert f"… and {len(reasons) - 200:,} more reasons (-f json shows all)" in drawn.stdout, drawn.stdout[-2000:]
