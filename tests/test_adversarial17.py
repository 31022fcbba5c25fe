"""Adversarial round 17 (trial17b): streamed replies, `run --replay` of hand-edited saves, MCP import from a hostile
server, `trace` of saved traffic, unbounded inputs, output at 80 and 60 columns. Each test failed before its fix;
the servers are real (an MCP server process on stdio behind the relay, the mock on 127.0.0.1), the commands run
in-process (tests/cli.py) where no real process is the check, and the truth is outside the code under test (Python's
JSON reader reading the key the server wrote, RFC 8259's grammar, a saved loop as `run --save` wrote it).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from cli import refused, run_cli
from sdk_types import missing

ROOT = Path(__file__).resolve().parent.parent
LOOP = Path(__file__).parent / "data" / "loops" / "planner-loop-gemma-270m"


def _env(**more: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.endswith(("_KEY", "_TOKEN"))} | more


# ---- MCP import: a listing whose tools' key is spelled with JSON escapes ------------------------------------------

# a stdio MCP server speaking raw JSON-RPC: it lists N tools whose "inputSchema" key is written as SPELLING
RAW_SERVER = '''
import json, sys
count, spelling = int(sys.argv[1]), sys.argv[2]
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    if message["method"] == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "escaped", "version": "0"}}
        text = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result})
    elif message["method"] != "tools/list":
        text = json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "no"}})
    else:
        tools = ",".join('{"name": "t%d", %s: {"type": "object"}}' % (i, spelling) for i in range(count))
        text = '{"jsonrpc": "2.0", "id": %s, "result": {"tools": [%s]}}' % (json.dumps(message["id"]), tools)
    sys.stdout.write(text + "\\n")
    sys.stdout.flush()
'''

SPELLINGS = ['"input\\u0053chema"', '"\\u0069nputSche\\u006Da"',
             '"' + "".join(f"\\u{ord(c):04x}" for c in "inputSchema") + '"']


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_each_spelling_of_the_tool_key_is_one_key_to_a_json_reader(spelling: str) -> None:
    assert list(json.loads("{" + spelling + ": 1}")) == ["inputSchema"]  # the truth the count is held to


@pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
@pytest.mark.parametrize("spelling", SPELLINGS[::2])
def test_a_listing_whose_tool_key_is_escaped_is_counted_against_the_tools_limit(tmp_path: Path, spelling: str) -> None:
    # the relay counted the bytes "inputSchema": the same key written with a \u escape passed uncounted, and the SDK
    # parsed every tool (200,000 of them: 1.1 GB and a minute; an unescaped listing is refused at once)
    server = tmp_path / "escaped.py"
    server.write_text(RAW_SERVER, encoding="utf-8")
    command = f"{sys.executable} {server} 6 '{spelling}'"
    line = refused(run_cli(["tools", "--mcp", command, "-f", "json"], env=_env(TOOLCHOICE_LIMIT_TOOLS="5")))
    assert "the server lists more tools than a scenario takes: more than 5 items (limit tools)" in line, line
    read = run_cli(["tools", "--mcp", command, "-f", "json"], env=_env(TOOLCHOICE_LIMIT_TOOLS="6"))
    assert read.returncode == 0, read.stderr
    assert [t["name"] for t in json.loads(read.stdout)["tools"]] == [f"t{i}" for i in range(6)]


def test_an_escaped_tool_key_split_anywhere_between_two_reads_is_counted_once() -> None:
    # what the HTTP transport counts too (mcp_client._capped_transport): every spelling, split at every byte
    from toolchoice.providers.core.mcp_relay import count_tools

    text = ('{"tools": [' + ", ".join('{"name": "t", ' + s + ': {}, "description": "\\"inputSchema\\""}'
                                      for s in SPELLINGS + ['"inputSchema"']) + "]}").encode()
    assert len(json.loads(text)["tools"]) == 4
    for cut in range(1, len(text)):
        first, carry = count_tools(text[:cut], b"")
        second, _ = count_tools(text[cut:], carry)
        assert first + second == 4, cut


# ---- run --replay: a step file's own fields edited by hand --------------------------------------------------------


@pytest.fixture(scope="module")
def loop_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("loop") / "saved"
    shutil.copytree(LOOP, folder)
    return folder


def _edited(base: Path, tmp_path: Path, edit: dict[str, Any]) -> tuple[Path, Path]:
    folder = tmp_path / "edited"
    shutil.copytree(base, folder)
    (step,) = folder.glob("*/loop-001/step-01.reply.json")
    saved = json.loads(step.read_text(encoding="utf-8"))
    for key, value in edit.items():
        target = saved
        *path, last = key.split(".")
        for part in path:
            target = target[part]
        target[last] = value
    step.write_text(json.dumps(saved).replace('"1e400"', "1e400"), encoding="utf-8")  # JSON's number, a float's inf
    return folder, step


@pytest.mark.parametrize("edit, words", [
    ({"latency_ms": "slow"}, "latency_ms must be a number of 0 or more or null, not str"),
    ({"latency_ms": "1e400"}, "latency_ms must be a number of 0 or more or null, not inf"),
    ({"latency_ms": -5}, "latency_ms must be a number of 0 or more or null, not -5"),
    ({"status": "200"}, "status must be a whole number or null, not str"),
    ({"provider": ["openai"]}, "provider must be a provider id or null, not list"),
    ({"reply.error": {"status": 500, "type": ["x"], "message": "m"}}, "reply.error.type must be a string or null"),
])
@pytest.mark.parametrize("provider", ["openai", "anthropic"])  # the recorded one (its transport), and another
def test_a_step_files_own_field_of_the_wrong_kind_is_one_line(loop_copy: Path, tmp_path: Path, edit: dict[str, Any],
                                                              words: str, provider: str) -> None:
    # "latency_ms": "slow" replayed on another provider was "internal error: ValueError: Unknown format code 'f'",
    # exit 70 (-f json: TypeError); 1e400 was written as Infinity in -f json (no JSON: RFC 8259 has no Infinity), -5
    # shown as "latency -5 ms"; "status": "200" was passed on as the step's status; an error type of a list shown
    # as Python's ['x']
    folder, step = _edited(loop_copy, tmp_path, edit)
    for form in ("pretty", "json"):
        line = refused(run_cli(["run", "configs/planner-loop.yaml", "-p", provider, "--model", "gemma-3-270m",
                                "--replay", str(folder), "-f", form], env=_env(), cwd=ROOT))
        assert f"{step}: {words}" in line, line


def test_a_step_files_own_fields_as_run_save_writes_them_replay(loop_copy: Path, tmp_path: Path) -> None:
    folder, _ = _edited(loop_copy, tmp_path, {"latency_ms": 0, "status": None, "provider": None})
    done = run_cli(["run", "configs/planner-loop.yaml", "-p", "anthropic", "--model", "gemma-3-270m", "--replay",
                    str(folder), "-f", "json"], env=_env(), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    (step, *_) = json.loads(done.stdout)["runs"][0]["loops"][0]["steps"]
    assert step["latency_ms"] == 0


# ---- a history call's arguments nested past the interpreter's stack -------------------------------------------------

DEEP = {"array": "[" * 50000 + "]" * 50000, "object": '{"a":' * 50000 + "1" + "}" * 50000,
        "past the limit": '{"x": ' + "[" * 150 + "]" * 150 + "}"}


def _chat_body(arguments: str) -> dict[str, Any]:
    return {"model": "gpt-4o-mini", "tools": [{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object"}}}], "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": arguments}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"}]}


@pytest.mark.parametrize("deep", DEEP, ids=list(DEEP))
def test_trace_of_a_save_whose_call_arguments_nest_too_deeply_is_one_line(tmp_path: Path, deep: str) -> None:
    # the mock's reading of history arguments (json.loads) and trace's comparison of them were RecursionError:
    # "internal error", exit 70; 150 levels were refused in one line, as the scenario loader refuses them
    saved = tmp_path / "deep.request.json"
    saved.write_text(json.dumps({"method": "POST", "url": "/v1/chat/completions", "headers": {},
                                 "body": _chat_body(DEEP[deep])}), encoding="utf-8")
    line = refused(run_cli(["trace", str(saved), "-p", "openai"], env=_env()))
    assert f"{saved}: the saved request does not make a valid scenario" in line, line
    assert "nests too deeply: more than 100 levels (limit json_depth)" in line, line


@pytest.fixture(scope="module")
def mock_url() -> Any:
    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("openai") as mock:
        yield mock


def test_the_mock_answers_a_history_nested_past_the_stack_not_a_500(mock_url: Any) -> None:
    # the mock answered 500 "toolchoice mock: internal error: RecursionError" (mock.internal_error); arguments it
    # cannot read are {} to it, as arguments that are no JSON are
    import httpx

    for deep in DEEP.values():
        answered = httpx.post(mock_url.base_url + "/chat/completions", json=_chat_body(deep),
                              headers={"Authorization": "Bearer unused"}, timeout=30)
        assert answered.status_code == 200, answered.text
        assert answered.json()["choices"][0]["message"]["role"] == "assistant"


# ---- MCP import: a listing nested past what the SDK reads; an HTTP server without the optional GET stream ---------

DEEP_SERVER = RAW_SERVER.replace(
    "tools = \",\".join('{\"name\": \"t%d\", %s: {\"type\": \"object\"}}' % (i, spelling) for i in range(count))",
    "tools = '{\"name\": \"t\", \"inputSchema\": ' + '{\"type\": \"object\", \"properties\": {\"a\": ' * count "
    "+ '{}' + '}}' * count + '}'")


@pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
@pytest.mark.parametrize("depth", [300, 100000])
def test_a_stdio_listing_nested_past_the_sdks_reader_is_said_at_once(tmp_path: Path, depth: int) -> None:
    # the SDK logs "Failed to parse JSONRPC message" (pydantic-core: recursion limit exceeded) and waits on for an
    # answer: the listing ended at its deadline, 30 s by default (--timeout up to an hour), as "could not be read";
    # 95 levels, which the SDK reads, are refused at once by json_depth (test_mcp_import)
    server = tmp_path / "deep.py"
    server.write_text(DEEP_SERVER, encoding="utf-8")
    assert "recursion limit" in _sdk_error(depth)  # the SDK's own reader, on the same line
    line = refused(run_cli(["tools", "--mcp", f"{sys.executable} {server} {depth} unused", "--timeout", "60"],
                           env=_env()))
    assert "the tool listing nests too deeply: past what the MCP SDK reads, and more than 100 levels (limit " \
           "json_depth)" in line, line


def _sdk_error(depth: int) -> str:
    from mcp import types
    from pydantic import ValidationError

    schema = '{"type": "object", "properties": {"a": ' * depth + "{}" + "}}" * depth
    try:
        types.jsonrpc_message_adapter.validate_json('{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "t", '
                                                     f'"inputSchema": {schema}}}]}}}}', by_name=False)
    except ValidationError as exc:
        return str(exc)
    return ""


def _nested(depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


@pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
@pytest.mark.parametrize("listing, words", [
    ("nope", "the server's answer is malformed: tools: Input should be a valid list"),
    ([{"name": 5, "inputSchema": {"type": "object"}}], "the server's answer is malformed: tools.0.name:"),
    ([{"name": "t", "inputSchema": _nested(300)}], "the tool listing nests too deeply: past what the MCP SDK reads"),
])
def test_an_http_listings_fault_is_said_not_the_405_of_the_optional_get_stream(listing: Any, words: str) -> None:
    # MCP's streamable HTTP transport: a server that offers no server-to-client stream answers the client's GET with
    # 405 Method Not Allowed, which the SDK takes in its stride; toolchoice kept it as "the" error status, and every
    # fault of such a server's listing was said as "the server answered HTTP 405 Method Not Allowed"
    from mcp_http_stub import serving

    with serving(lambda headers: listing) as url:
        line = refused(run_cli(["tools", "--mcp-url", url, "-f", "json"], env=_env()))
    # the URL (its random port may hold the digits 405) is not the status said
    assert words in line and "405" not in line.replace(url, "URL"), line


# a stdio server writing its listing as raw bytes: NAME is the tool's name, its bytes as Python writes a bytes literal
BYTES_SERVER = '''
import json, sys
name = eval(sys.argv[1])
out = sys.stdout.buffer
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    if message["method"] == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "bytes", "version": "0"}}
        out.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}).encode() + b"\\n")
    elif message["method"] == "tools/list":
        out.write(b'{"jsonrpc": "2.0", "id": ' + json.dumps(message["id"]).encode()
                  + b', "result": {"tools": [{"name": "' + name + b'", "inputSchema": {"type": "object"}}]}}\\n')
    else:
        error = {"code": -32601, "message": "no"}
        out.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "error": error}).encode() + b"\\n")
    out.flush()
'''


@pytest.mark.skipif(missing("mcp"), reason="needs the MCP SDK")
def test_a_stdio_server_writing_bytes_that_are_not_utf8_is_said_at_once(tmp_path: Path) -> None:
    # MCP's stdio messages are UTF-8; the SDK's reader decodes strictly, fails, then drains the server's stdout until
    # an EOF that never comes: the listing ended at its deadline as "UnicodeDecodeError: 'utf-8' codec can't decode
    # byte 0xff in position 53". The relay now stops the server at the first byte that is not UTF-8.
    server = tmp_path / "bytes.py"
    server.write_text(BYTES_SERVER, encoding="utf-8")
    with pytest.raises(UnicodeDecodeError):
        b"t\xff\xfe".decode("utf-8")
    line = refused(run_cli(["tools", "--mcp", f"{sys.executable} {server} \"b't\\xff\\xfe'\"", "--timeout", "60"],
                           env=_env()))
    assert "the server wrote bytes that are not UTF-8 on stdout" in line and "Unicode" not in line, line
    read = run_cli(["tools", "--mcp", f"{sys.executable} {server} \"'caf\u00e9'.encode()\"", "-f", "json"], env=_env())
    assert read.returncode == 0, read.stderr
    assert json.loads(read.stdout)["tools"][0]["name"] == "caf\u00e9"


# ---- trace FILE: JSON Lines of many short lines ---------------------------------------------------------------------


class _Watched(str):
    """A text that adds up how many characters are scanned through its count() and copied by its slices."""

    scanned = 0

    def count(self, sub: str, start: Any = 0, end: Any = None) -> int:  # type: ignore[override]
        end = len(self) if end is None else end
        _Watched.scanned += max(0, end - start)
        return str.count(self, sub, start, end)

    def __getitem__(self, key: Any) -> str:  # type: ignore[override]
        got = str.__getitem__(self, key)
        _Watched.scanned += len(got)
        return got


def test_json_lines_are_read_in_one_pass_over_the_text() -> None:
    # each document's line was counted from the file's start and the rest of the file copied to strip it: a 4 MB
    # trace of 2,000,000 lines `{}` took hours (40,000 lines: 5 s, 80,000: 20 s) before its one-line refusal
    from toolchoice.providers.core.bounded import json_documents

    text = '{"resourceSpans": []}\n' * 20000 + '\n  {"resourceSpans": [1]}  \r\n'
    _Watched.scanned = 0
    found = json_documents(_Watched(text), "t.jsonl", lines=True)
    assert len(found) == 20001 and found[-1] == (20002, {"resourceSpans": [1]}) and found[1][0] == 2
    assert _Watched.scanned <= 2 * len(text), _Watched.scanned  # 22 characters a line: 4.4 billion before


def test_a_bad_line_far_down_a_json_lines_trace_is_named_by_its_line(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    trace.write_text('{"resourceSpans": []}\n' * 30000 + "{}\n", encoding="utf-8")
    line = refused(run_cli(["trace", str(trace)], env=_env()))
    assert f"{trace}:30001: not an OTLP/JSON trace export (no resourceSpans)" in line, line
