"""`toolchoice mock` / `toolchoice proxy`: the command as a real process (URL line, jsonl, --max-requests,
SIGTERM, keys), scripts and their errors, every family's error envelope against the recorded ones, the
arguments made from real-world schemas (checked with jsonschema), and the proxy in front of the mock."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

from tests.cli import run_cli
from toolchoice.providers.core.mock.arguments import arguments_for
from toolchoice.providers.core.mock.proxy import ProxyHandler
from toolchoice.providers.core.mock.script import load_script
from toolchoice.providers.core.mock.server import Running, Server, running_mock
from toolchoice.providers.core.model import ToolchoiceError

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
KEY = "sk-mock-test-secret-9f8e7d6c5b4a"
CLI = [sys.executable, "-m", "toolchoice.cli"]
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # the SDKs' model deprecation notices
CHAT = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],
        "tool_choice": "required"}


# ---- arguments from schemas ------------------------------------------------------------------------


def _real_world_tools() -> list[tuple[str, dict[str, Any]]]:
    from toolchoice.providers.core.tool_import_schemas import bfcl_schema

    out = []
    for path in sorted((DATA / "schemas").glob("*.json")):
        for tool in json.loads(path.read_text(encoding="utf-8"))["tools"]:
            schema = bfcl_schema(tool["parameters"]) if path.name.startswith("bfcl-") else tool["parameters"]
            out.append((f"{path.stem}:{tool['name']}", schema))
    return out


REAL_WORLD = _real_world_tools()


def _lines_valid(lines: list[dict[str, Any]]) -> None:
    """Every jsonl line validates against the shipped schema (`toolchoice schema mock`)."""
    from importlib import resources

    schema = json.loads(resources.files("toolchoice.cli").joinpath("schemas", "mock.schema.json").read_text())
    for line in lines:
        assert _valid(schema, line) == [], line


def _valid(schema: dict[str, Any], value: Any) -> list[str]:
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    return [e.message for e in cls(schema, format_checker=cls.FORMAT_CHECKER).iter_errors(value)]


def test_real_world_schemas_get_valid_arguments() -> None:
    assert len(REAL_WORLD) >= 50
    problems = {name: errors for name, schema in REAL_WORLD if (errors := _valid(schema, arguments_for(schema)))}
    assert problems == {}


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {"when": {"type": "string", "format": "date-time"},
                                      "day": {"type": "string", "format": "date"},
                                      "mail": {"type": "string", "format": "email"},
                                      "id": {"type": "string", "format": "uuid"},
                                      "ip": {"type": "string", "format": "ipv4"}},
     "required": ["when", "day", "mail", "id", "ip"]},
    {"type": "object", "properties": {"n": {"type": "integer", "minimum": 10, "maximum": 20, "multipleOf": 3},
                                      "x": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                                      "code": {"type": "string", "pattern": "^[A-Z]{3}$"},
                                      "short": {"type": "string", "minLength": 12, "maxLength": 12},
                                      "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
                                      "kind": {"const": "fixed"},
                                      "mode": {"type": ["null", "string"], "enum": ["fast", "slow"]}},
     "required": ["n", "x", "code", "short", "tags", "kind", "mode"]},
    {"type": "object", "$defs": {"point": {"type": "object", "properties": {"x": {"type": "number"}},
                                           "required": ["x"], "additionalProperties": False}},
     "properties": {"at": {"$ref": "#/$defs/point"},
                    "path": {"type": "array", "items": {"$ref": "#/$defs/point"}, "minItems": 1},
                    "either": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 5}]},
                    "both": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                                       {"properties": {"b": {"type": "boolean"}}, "required": ["b"]}]}},
     "required": ["at", "path", "either", "both"], "additionalProperties": False},
])
def test_arguments_follow_formats_bounds_and_references(schema: dict[str, Any]) -> None:
    arguments = arguments_for(schema)
    assert set(arguments) == set(schema["required"])
    assert _valid(schema, arguments) == []


# ---- scripts -----------------------------------------------------------------------------------------


def test_script_replies_in_order_and_per_step(tmp_path: Path) -> None:
    path = tmp_path / "script.yaml"
    path.write_text("replies:\n  - call: get_weather\n    arguments: {city: Oslo}\n  - phantom: rm_rf\n"
                    "  - {call: get_weather, broken_json: true}\n  - disobey: true\nsteps:\n  6: {text: bye}\n")
    script = load_script(path)
    with running_mock("openai", script=script) as mock:
        answers = [httpx.post(f"{mock.base_url}/chat/completions", json=CHAT, timeout=10).json() for _ in range(6)]
    calls = [r["calls"] for r in mock.records]
    ids = [[c["id"] for c in answer["choices"][0]["message"].get("tool_calls") or []] for answer in answers]
    assert calls[0] == [{"name": "get_weather", "arguments": {"city": "Oslo"}, "id": ids[0][0]}]
    assert calls[1] == [{"name": "rm_rf", "arguments": {}, "id": ids[1][0]}]
    assert calls[2][0]["name"] == "get_weather" and isinstance(calls[2][0]["arguments"], str)
    with pytest.raises(ValueError):
        json.loads(calls[2][0]["arguments"])
    assert calls[3] == []  # disobeyed a forced choice: a text answer
    assert calls[4][0]["name"] == "get_weather"  # past the replies: the default answer
    assert calls[5] == []


@pytest.mark.parametrize("text,line,words", [
    ("replies:\n  - call: get_weather\n    colour: red\n", 3, "unknown key 'colour'"),
    ("replies:\n  - {status: 200}\n", 2, "status must be an HTTP error status"),
    ("replies:\n  - text: hi\n  - {retry_after: 2}\n", 3, "retry_after goes with status"),
    ("steps:\n  0: {text: hi}\n", 2, "request number"),
    ("replies:\n  - {status: 429, call: x}\n", 2, "a fault status answers no calls"),
    ("replies: [\n", 2, "invalid YAML"),
    ("replies:\n  - !!python/object:os.system {}\n", 2, "not allowed"),
    ("- phantom: read_file\n", 1, "not a list (put the list under a replies: key"),
    ("replies:\n  - phantom read_file\n", 2, "(write phantom: read_file - a colon and a space after the key)"),
])
def test_bad_scripts_are_one_line_with_file_and_line(tmp_path: Path, text: str, line: int, words: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ToolchoiceError) as raised:
        load_script(path)
    assert raised.value.line == line and words in raised.value.one_line()
    result = run_cli(["mock", "-p", "openai", "--script", str(path)])
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and f"{path}:{line}" in result.stderr and "Traceback" not in result.stderr


# ---- faults --------------------------------------------------------------------------------------------


def test_scripted_faults_reach_the_sdk(tmp_path: Path) -> None:
    import anthropic
    import openai

    path = tmp_path / "faults.yaml"
    path.write_text("replies:\n  - {status: 429, retry_after: 0.2}\n  - {delay_ms: 300}\n  - {status: 500}\n"
                    "  - {cut_after: 2}\n")
    with running_mock("openai", script=load_script(path)) as mock:
        client = openai.OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=1)
        started = time.monotonic()
        reply = client.chat.completions.create(**CHAT)  # 429, the SDK waits retry-after and retries (delayed 300 ms)
        assert time.monotonic() - started >= 0.45
        assert reply.choices[0].message.tool_calls
        with pytest.raises(openai.InternalServerError):
            openai.OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0).chat.completions.create(**CHAT)
        with pytest.raises((openai.APIError, httpx.HTTPError)):
            list(client.with_options(max_retries=0).chat.completions.create(**CHAT, stream=True))
    _lines_valid(mock.records)
    assert [r["status"] for r in mock.records] == [429, 200, 500, 200]
    assert mock.records[0]["findings"][-1]["code"] == "mock.scripted_fault"
    cut = mock.records[3]["findings"][-1]  # the SDK saw the stream end after 2 events: the line says so
    assert cut["code"] == "mock.scripted_fault" and "cut after 2 events" in cut["message"] and "script line 5:" in cut["message"]
    with running_mock("anthropic", script=load_script(path)) as mock:
        response = httpx.post(f"{mock.base_url}/v1/messages", json={"model": "m", "max_tokens": 5, "messages": []})
        assert response.status_code == 429 and response.headers["retry-after"] == "0.2"
        assert response.json()["error"]["type"] == "rate_limit_error"
        client = anthropic.Anthropic(base_url=mock.base_url, api_key=KEY, max_retries=0)
        client.messages.create(model="claude-sonnet-4-5", max_tokens=5, messages=[{"role": "user", "content": "x"}])
        with pytest.raises(anthropic.InternalServerError):
            client.messages.create(model="claude-sonnet-4-5", max_tokens=5, messages=[{"role": "user", "content": "x"}])


# ---- error envelopes against the recorded ones -------------------------------------------------------------


def _shape(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items() if k not in ("param", "code", "request_id") or k == "code"
                and not isinstance(value.get("code"), (type(None), str))}
    return type(value).__name__


@pytest.mark.parametrize("provider,recorded,path", [
    ("openai", "error-openai-tool-choice-without-tools.json", "/v1/chat/completions"),
    ("anthropic", "error-anthropic-invalid-input-schema.json", "/v1/messages"),
    ("gemini", "error-gemini-invalid-function-name.json", "/v1beta/models/gemini-2.5-flash:generateContent"),
    ("bedrock", "error-bedrock-toolchoice-not-supported.json", "/model/amazon.nova-pro-v1:0/converse"),
    ("cohere", "error-cohere-invalid-request.json", "/v2/chat"),
    ("ollama", "error-ollama-native.json", "/api/chat"),
])
def test_malformed_requests_get_the_providers_own_envelope(provider: str, recorded: str, path: str) -> None:
    """A body that is not JSON, and a JSON body without the required fields: 400 in the recorded envelope's shape,
    read as that provider's error by toolchoice's own reply reader."""
    from toolchoice.providers.core.reply import read_reply

    expected = _shape(json.loads((DATA / "responses" / "errors" / recorded).read_text(encoding="utf-8")))
    with running_mock(provider) as mock:
        root = mock.base_url.removesuffix("/v1")
        for content in (b"{not json", b"{}"):
            response = httpx.post(root + path, content=content, headers={"content-type": "application/json"})
            assert response.status_code == 400
            assert _shape(response.json()) == expected
            error = read_reply(provider, 400, response.json(), headers=response.headers).error
            assert error is not None and error.message
        missing = httpx.post(root + "/nowhere", json={})
        assert missing.status_code == 404 and _shape(missing.json()) == expected
    _lines_valid(mock.records)
    assert [r["status"] for r in mock.records] == [400, 400, 404]
    if provider == "bedrock":
        assert response.headers["x-amzn-errortype"].startswith("ValidationException")


# ---- the command as a real process -----------------------------------------------------------------------


def _start(args: list[str]) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=env)
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def test_command_url_jsonl_max_requests_and_keys(tmp_path: Path) -> None:
    proc, url = _start(["mock", "-p", "openai", "--format", "jsonl", "--max-requests", "2", "--save", str(tmp_path)])
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/v1", url)
        headers = {"authorization": f"Bearer {KEY}"}
        first = httpx.post(f"{url}/chat/completions", json=CHAT, headers=headers, timeout=10)
        refused = httpx.post(f"{url}/chat/completions", headers=headers, timeout=10,
                             json={**CHAT, "tool_choice": {"type": "function", "function": {"name": "nope"}}})
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0 and first.status_code == 200 and refused.status_code == 400
    lines = [json.loads(line) for line in out.splitlines()]
    _lines_valid(lines)
    assert [line["n"] for line in lines] == [1, 2]
    for line in lines:
        assert {"n", "provider", "path", "stream", "requested", "tool_choice", "offered_tools", "status", "calls",
                "findings"} <= set(line)
    assert lines[1]["requested"] == {"type": "function", "function": {"name": "nope"}}
    assert lines[1]["tool_choice"] == {"tool": "nope"} and lines[1]["offered_tools"] == ["get_weather"]
    assert "stopped after 2 requests, 1 refused" in err
    saved = sorted(p.name for p in tmp_path.iterdir())
    assert "sample-001.request.json" in saved and "sample-002.reply.json" in saved
    for text in [out, err] + [p.read_text(encoding="utf-8") for p in tmp_path.iterdir()]:
        assert KEY not in text and KEY[8:20] not in text


@pytest.mark.parametrize("format", ["jsonl", "pretty"])
def test_what_a_client_sends_is_printed_escaped(format: str) -> None:
    """A tool name holding a C1 control (CSI, 0x9b) and U+2028 reaches no terminal raw from either format;
    the jsonl line still reads back to the name the client sent."""
    name = "get\x9b31mweather\u2028x"
    proc, url = _start(["mock", "-p", "openai", "--format", format, "--max-requests", "1"])
    try:
        tools = [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}]
        httpx.post(f"{url}/chat/completions", timeout=10, json={**CHAT, "tools": tools})
        out, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert "\x9b" not in out and "\u2028" not in out and "\x1b" not in out
    if format == "jsonl":
        assert json.loads(out.splitlines()[0])["offered_tools"] == [name]
    else:  # the pretty line drops terminal sequences (printable) and shows the rest escaped
        assert "weather\\u2028x" in out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signals_end_the_server_cleanly(sig: signal.Signals) -> None:
    proc, url = _start(["mock", "-p", "anthropic"])
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", url)
        response = httpx.post(f"{url}/v1/messages", timeout=10, json={
            "model": "claude-sonnet-5", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]})
        assert response.json()["content"][0]["type"] == "text"
        time.sleep(0.1)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert out.splitlines()[0].split() == ["#1", "/v1/messages", "whole", "tool_choice", "-", "→", "-", "tools", "[]",
                                           "200", "text"]  # the pretty line (the URL line was read above)
    assert err.strip() == "toolchoice mock: stopped after 1 request, 0 refused"


# ---- proxy -----------------------------------------------------------------------------------------------


def test_proxy_in_front_of_the_mock_passes_streams_and_judges(tmp_path: Path) -> None:
    import openai

    script = tmp_path / "upstream.yaml"
    script.write_text("replies:\n  - {}\n  - {phantom: rm_rf}\n  - {disobey: true}\n")
    with running_mock("openai", script=load_script(script)) as upstream:
        handler = ProxyHandler("openai", upstream.base_url, tmp_path)
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            client = openai.OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
            whole = client.chat.completions.create(**CHAT)
            chunks = list(client.chat.completions.create(**CHAT, stream=True))
            client.chat.completions.create(**CHAT)
            time.sleep(0.2)
    assert whole.choices[0].message.tool_calls[0].function.name == "get_weather"
    assert any(c.choices and c.choices[0].delta.tool_calls for c in chunks)
    _lines_valid(proxy.records + upstream.records)
    assert [r["verdict"] for r in proxy.records] == ["obeyed", "phantom_tool", "no_call"]
    assert [r["requested"] for r in proxy.records] == ["required"] * 3
    assert proxy.records[1]["stream"] is True and proxy.records[1]["calls"][0]["name"] == "rm_rf"
    assert len(upstream.records) == 3  # every request reached the upstream
    for path in tmp_path.glob("sample-*"):
        assert KEY not in path.read_text(encoding="utf-8", errors="replace")
    assert KEY not in json.dumps(proxy.records)


def test_proxy_command_forwards_the_key_and_never_prints_it(tmp_path: Path) -> None:
    with running_mock("anthropic", save_dir=tmp_path) as upstream:
        proc, url = _start(["proxy", "-p", "anthropic", "--upstream", upstream.base_url, "-f", "jsonl",
                            "--max-requests", "1"])
        try:
            response = httpx.post(f"{url}/v1/messages", headers={"x-api-key": KEY}, timeout=10, json={
                "model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}],
                "tools": [{"name": "t", "input_schema": {"type": "object"}}], "tool_choice": {"type": "any"},
                "stream": True})
            out, err = proc.communicate(timeout=30)
        finally:
            proc.kill()
    assert proc.returncode == 0 and "event: message_stop" in response.text
    line = json.loads(out.splitlines()[0])
    assert line["verdict"] == "obeyed" and line["stream"] is True and line["tool_choice"] == "required"
    assert KEY not in out + err
    arrived = json.loads((tmp_path / "sample-001.request.json").read_text(encoding="utf-8"))
    assert arrived["headers"]["x-api-key"] == "[redacted]"  # the key reached the upstream, and was not saved


# ---- malformed requests never crash the mock ---------------------------------------------------------------

_SCHEMA = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
VALID = {
    "openai": ("/v1/chat/completions", {
        "model": "gpt-4o", "tools": [{"type": "function", "function": {"name": "a", "parameters": _SCHEMA}}],
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "a", "arguments": "{}"}}]},
                     {"role": "tool", "tool_call_id": "c1", "content": "x"}], "tool_choice": "required"}),
    "openai-responses": ("/v1/responses", {
        "model": "gpt-4o", "tools": [{"type": "function", "name": "a", "parameters": _SCHEMA}], "tool_choice": "required",
        "input": [{"role": "user", "content": "hi"}, {"type": "function_call", "call_id": "c1", "name": "a",
                                                       "arguments": "{}"},
                  {"type": "function_call_output", "call_id": "c1", "output": "x"}]}),
    "anthropic": ("/v1/messages", {
        "model": "claude-sonnet-4-5", "max_tokens": 2000, "tools": [{"name": "a", "input_schema": _SCHEMA}],
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "a", "input": {}}]}, {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "x"}]}], "tool_choice": {"type": "any"}}),
    "gemini": ("/v1beta/models/gemini-2.5-flash:generateContent", {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]},
                     {"role": "model", "parts": [{"functionCall": {"name": "a", "args": {}}}]},
                     {"role": "user", "parts": [{"functionResponse": {"name": "a", "response": {}}}]}],
        "tools": [{"functionDeclarations": [{"name": "a", "parameters": _SCHEMA}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}}),
    "bedrock": ("/model/amazon.nova-pro-v1:0/converse", {
        "messages": [{"role": "user", "content": [{"text": "hi"}]},
                     {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "a", "input": {}}}]},
                     {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"text": "x"}]}}]}],
        "toolConfig": {"tools": [{"toolSpec": {"name": "a", "inputSchema": {"json": _SCHEMA}}}],
                       "toolChoice": {"any": {}}}}),
    "cohere": ("/v2/chat", {"model": "command-a", "messages": [{"role": "user", "content": "hi"}],
                            "tools": [{"type": "function", "function": {"name": "a", "parameters": _SCHEMA}}],
                            "tool_choice": "REQUIRED"}),
    "ollama": ("/api/chat", {"model": "llama3.2", "messages": [{"role": "user", "content": "hi"}], "stream": False,
                             "tools": [{"type": "function", "function": {"name": "a", "parameters": _SCHEMA}}]}),
}
_ODD = [None, True, 0, -1, 1.5, "", "x", "auto", "ANY", [], {}, [None], [{}], {"type": "tool"}, [{"role": "tool"}],
        {"type": "enabled"}, {"a": {"type": {"x": 1}}}, [[{"name": 1}]], {"mode": [1]}]


@pytest.mark.parametrize("provider", sorted(VALID))
def test_mutated_requests_get_an_answer_or_the_providers_400(provider: str) -> None:
    """Seeded mutations of a valid body (a value anywhere replaced by an odd one): every answer is 200 with a body
    the family's own parser reads, or a 400 in the provider's envelope; never a fault of the mock."""
    import random

    from toolchoice.providers.core.mock.service import MockService
    from toolchoice.providers.core.reply import read_reply

    def mutate(value: Any) -> Any:
        if isinstance(value, dict) and value and rng.random() < 0.7:
            key = rng.choice(sorted(value))
            return {**value, key: mutate(value[key])}
        if isinstance(value, list) and value and rng.random() < 0.7:
            index = rng.randrange(len(value))
            return value[:index] + [mutate(value[index])] + value[index + 1:]
        return rng.choice(_ODD)

    rng = random.Random(27)
    path, body = VALID[provider]
    service = MockService(provider)
    statuses = set()
    for _ in range(300):
        mutated = body
        for _ in range(rng.randint(1, 3)):
            mutated = mutate(mutated)
        exchange = service.handle("POST", path, {}, json.dumps(mutated).encode())
        statuses.add(exchange.status)
        assert exchange.status in (200, 400, 422), exchange.record  # 422: Cohere's and xAI's recorded refusals
        if exchange.chunks is None:
            reply = read_reply(provider, exchange.status, json.loads(exchange.body or b"null"))
            assert (reply.error is None) == (exchange.status == 200), reply
    assert {200, 400} <= statuses <= {200, 400, 422}


def test_the_saved_files_are_whole_when_the_client_has_its_answer(tmp_path: Path) -> None:
    """--save / save_dir: the mock wrote a request's files after answering it, so a client (a test, a library user)
    listing the folder once it had the answer could find them missing or still under their .partial names."""
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
            "tool_choice": "required"}
    with running_mock("openai", save_dir=tmp_path / "saved") as mock, httpx.Client() as client:
        for n in range(1, 31):
            answer = client.post(f"{mock.base_url}/chat/completions", json=body,
                                 headers={"authorization": "Bearer sk-unused"})
            assert answer.status_code == 200
            names = sorted(p.name for p in (tmp_path / "saved").iterdir() if p.name.startswith(f"sample-{n:03d}"))
            assert names == [f"sample-{n:03d}.reply.json", f"sample-{n:03d}.request.json",
                             f"sample-{n:03d}.response.json"], (n, names)


def test_wait_for_returns_once_the_records_are_kept_or_those_there_at_the_deadline() -> None:
    # a proxy keeps its line after the answer's last byte: a caller holding its reply waits for the line
    import threading

    with running_mock("openai") as mock:
        late = threading.Timer(0.2, mock.server.on_record, args=({"request": 1},))
        late.start()
        assert mock.records == [] and mock.wait_for(1) == [{"request": 1}]
        started = time.monotonic()
        assert mock.wait_for(2, 0.3) == [{"request": 1}] and time.monotonic() - started >= 0.3
