"""`toolchoice mock --save DIR` (and `proxy --save`) never keep nor echo what a client hands an MCP server
(adversarial report #1: they were saved, and the Responses mock echoed them in its reply).

The places are those of the SDK types: openai 3.57.0 types/responses/tool_param.py Mcp ``headers`` ("Use for
authentication") and ``authorization`` ("An OAuth access token"); anthropic 2.14.0
beta_request_mcp_server_url_definition_param.py ``authorization_token``; google-genai 3.6.1
types.StreamableHttpTransport ``headers``. The real clients send them to the command run as a process; then no
file under DIR, no jsonl record, no byte of a reply holds a secret in any spelling (verbatim or JSON-escaped),
and the saved request holds the documented marker ``[redacted]`` (docs/mock.md) where each was."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from sdk_types import missing

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "toolchoice.cli"]
KEY = "sk-test-mock-0123456789abcdef"
MARKER = "[redacted]"  # docs/mock.md "--save"
BEARER = 'mcp-bearer/"quoted"-0a1b2c3d4e5f'  # a '/' and quotes: its JSON spelling differs from the value
HEADER = "mcp-header-secret-9f8e7d6c5b"
OAUTH = "mcp-oauth-token-77aa66bb55cc"
TOKEN = "mcp-anthropic-token-1234abcd5678"
GEMINI_HEADER = "mcp-gemini-header-abcdef012345"
SNAKE_HEADER = "mcp-gemini-snake-header-6789fedc"
SHORT = "zq7Xw"  # too short for text redaction: only its place in the body can say it is a secret
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _spellings(secret: str) -> list[bytes]:
    return [form.encode() for form in {secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1],
                                       secret.replace("/", "\\/")}]


def _holds(data: bytes | str, secret: str) -> bool:
    raw = data.encode() if isinstance(data, str) else data
    return any(form in raw for form in _spellings(secret))


def _files(folder: Path) -> Iterator[Path]:
    return (path for path in folder.rglob("*") if path.is_file())


def _start(args: list[str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def _served(provider: str, requests: int, save: Path) -> tuple[subprocess.Popen[str], str]:
    return _start(["mock", "-p", provider, "-f", "jsonl", "--max-requests", str(requests), "--save", str(save)])


def _finish(proc: subprocess.Popen[str]) -> tuple[list[dict[str, Any]], str]:
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    return [json.loads(line) for line in out.splitlines()], out + err


def _nothing_kept(save: Path, records: str, replies: list[bytes], secrets: list[str]) -> None:
    files = list(_files(save))
    assert files
    for secret in secrets:
        for path in files:
            assert not _holds(path.read_bytes(), secret), (secret, path.name)
        assert not _holds(records, secret), secret
        for reply in replies:
            assert not _holds(reply, secret), secret


MCP = {"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp",
       "require_approval": "never", "allowed_tools": ["ask_question"], "authorization": OAUTH,
       "headers": {"Authorization": f"Bearer {BEARER}", "X-Api-Key": HEADER, "X-Short": SHORT}}


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_responses_mcp_headers_and_authorization_are_never_kept_nor_echoed(tmp_path: Path) -> None:
    from openai import OpenAI
    from openai.types.responses.response_output_item import McpCall

    proc, url = _served("openai-responses", 4, tmp_path)
    try:
        client = OpenAI(base_url=url, api_key=KEY, max_retries=0)
        ask = dict(model="gpt-5.4-mini", input="What is React?", tools=[MCP],
                   tool_choice={"type": "mcp", "server_label": "deepwiki"})
        whole = client.responses.create(**ask)
        with client.responses.stream(**ask) as stream:
            streamed = stream.get_final_response()
        raw = client.responses.with_raw_response.create(**ask).http_response.content
        with client.responses.with_streaming_response.create(**ask, stream=True) as response:
            raw_stream = b"".join(response.iter_bytes())
    finally:
        records, printed = _finish(proc)
    for done in (whole, streamed):  # judged as sent: the server is declared, so the forced call is made
        assert isinstance(done.output[0], McpCall) and done.output[0].name == "ask_question"
        (echoed,) = done.tools  # the echo keeps the header names, not their values
        assert echoed.headers == {"Authorization": MARKER, "X-Api-Key": MARKER, "X-Short": MARKER}
        assert echoed.authorization == MARKER
    assert [r["status"] for r in records] == [200] * 4
    _nothing_kept(tmp_path, printed, [raw, raw_stream], [BEARER, HEADER, OAUTH, SHORT])
    saved = json.loads((tmp_path / "sample-001.request.json").read_text(encoding="utf-8"))
    assert saved["body"]["tools"][0]["headers"] == {"Authorization": MARKER, "X-Api-Key": MARKER, "X-Short": MARKER}
    assert saved["body"]["tools"][0]["authorization"] == MARKER
    assert saved["body"]["tools"][0]["server_url"] == "https://mcp.deepwiki.com/mcp"  # the rest is kept as sent


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_anthropic_authorization_token_is_never_kept(tmp_path: Path) -> None:
    from anthropic import Anthropic

    proc, url = _served("anthropic", 3, tmp_path)
    try:
        client = Anthropic(base_url=url, api_key=KEY, max_retries=0)
        ask = dict(model="claude-sonnet-5", max_tokens=512, messages=[{"role": "user", "content": "What is React?"}],
                   betas=["mcp-client-2025-11-20"], tool_choice={"type": "any"},
                   mcp_servers=[{"type": "url", "url": "https://mcp.deepwiki.com/mcp", "name": "deepwiki",
                                 "authorization_token": TOKEN},
                                {"type": "url", "url": "https://mcp.x.example/mcp", "name": "short",
                                 "authorization_token": SHORT}],
                   tools=[{"type": "mcp_toolset", "mcp_server_name": "deepwiki"}])
        message = client.beta.messages.create(**ask)
        raw = client.beta.messages.with_raw_response.create(**ask).http_response.content
        with client.beta.messages.with_streaming_response.create(**ask, stream=True) as response:
            raw_stream = b"".join(response.iter_bytes())
    finally:
        records, printed = _finish(proc)
    assert message.content[0].type == "mcp_tool_use" and message.content[0].server_name == "deepwiki"
    assert [r["status"] for r in records] == [200] * 3
    _nothing_kept(tmp_path, printed, [raw, raw_stream], [TOKEN, SHORT])
    saved = json.loads((tmp_path / "sample-001.request.json").read_text(encoding="utf-8"))
    assert [s["authorization_token"] for s in saved["body"]["mcp_servers"]] == [MARKER, MARKER]


@pytest.mark.skipif(missing("google.genai"), reason="needs google-genai")
def test_gemini_mcp_server_headers_are_never_kept_in_either_spelling(tmp_path: Path) -> None:
    """The client sends ``mcpServers`` (with ``streamable_http_transport`` inside); the proto field spelling
    throughout (``mcp_servers``, which the API reads too) is sent raw."""
    from google import genai
    from google.genai import types

    server = types.McpServer(name="deepwiki", streamable_http_transport=types.StreamableHttpTransport(
        url="https://mcp.deepwiki.com/mcp", headers={"Authorization": f"Bearer {GEMINI_HEADER}", "X-Short": SHORT}))
    config = types.GenerateContentConfig(tools=[types.Tool(mcp_servers=[server])])
    snake = {"contents": [{"role": "user", "parts": [{"text": "What is React?"}]}],
             "tools": [{"mcp_servers": [{"name": "deepwiki", "streamable_http_transport": {
                 "url": "https://mcp.deepwiki.com/mcp", "headers": {"Authorization": f"Bearer {SNAKE_HEADER}"}}}]}],
             "tool_config": {"function_calling_config": {"mode": "ANY"}}}
    proc, url = _served("gemini", 4, tmp_path)
    try:
        client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=url))
        whole = client.models.generate_content(model="gemini-3.5-flash", contents="What is React?", config=config)
        streamed = "".join(chunk.text or "" for chunk in client.models.generate_content_stream(
            model="gemini-3.5-flash", contents="What is React?", config=config))
        raw = [httpx.post(f"{url}/v1beta/models/gemini-3.5-flash:{method}", json=snake, timeout=10,
                          headers={"x-goog-api-key": KEY}).content
               for method in ("generateContent", "streamGenerateContent?alt=sse")]
    finally:
        records, printed = _finish(proc)
    assert whole.text and streamed
    assert [r["status"] for r in records] == [200] * 4
    assert "mock.native_unanswered" in {f["code"] for f in records[2]["findings"]}  # snake case read as servers
    _nothing_kept(tmp_path, printed, raw, [GEMINI_HEADER, SNAKE_HEADER, SHORT])
    first = json.loads((tmp_path / "sample-001.request.json").read_text(encoding="utf-8"))["body"]
    # google-genai 3.6.1 sends mcpServers with the transport in its proto spelling (streamable_http_transport)
    assert first["tools"][0]["mcpServers"][0]["streamable_http_transport"]["headers"] == {
        "Authorization": MARKER, "X-Short": MARKER}
    third = json.loads((tmp_path / "sample-003.request.json").read_text(encoding="utf-8"))["body"]
    assert third["tools"][0]["mcp_servers"][0]["streamable_http_transport"]["headers"] == {"Authorization": MARKER}


def test_a_body_that_is_no_json_is_saved_with_the_secrets_values_marked(tmp_path: Path) -> None:
    """A broken body is saved as text (to show the client's mistake): the values after the secret keys are
    marked there too, as far as they can be found without parsing."""
    broken = ('{"model": "gpt-5.4-mini", "input": "hi", "tools": [{"type": "mcp", "server_label": "d", '
              f'"authorization": "{OAUTH}", "headers": {{"X-Api-Key": "{HEADER}"}}}}]')
    proc, url = _served("openai-responses", 1, tmp_path)
    try:
        answer = httpx.post(f"{url}/responses", content=broken.encode(), timeout=10,
                            headers={"content-type": "application/json"})
    finally:
        records, printed = _finish(proc)
    assert answer.status_code == 400 and records[0]["status"] == 400
    _nothing_kept(tmp_path, printed, [answer.content], [OAUTH, HEADER])
    saved = json.loads((tmp_path / "sample-001.request.json").read_text(encoding="utf-8"))
    assert f'"authorization": "{MARKER}"' in saved["body"] and f'"headers": "{MARKER}"' in saved["body"]


def test_credentials_in_a_server_url_are_not_kept_either(tmp_path: Path) -> None:
    """A key in an MCP server's URL (user info, a query string): toolchoice refuses such a URL in a scenario, but a
    client may send one to the mock, which saved it whole (a trial). The URL is kept with those parts marked."""
    user, query = "SECRET_URL_user_444", "SECRET_Q_555_value"
    body = {"model": "gpt-5.4-mini", "input": "hi", "tools": [
        {"type": "mcp", "server_label": "d", "server_url": f"https://{user}@x.example/mcp?key={query}",
         "require_approval": "never"}]}
    proc, url = _served("openai-responses", 1, tmp_path)
    try:
        answer = httpx.post(f"{url}/responses", json=body, timeout=10)
    finally:
        records, printed = _finish(proc)
    assert answer.status_code == 200, answer.text
    _nothing_kept(tmp_path, printed, [answer.content], [user, query])
    saved = json.loads((tmp_path / "sample-001.request.json").read_text(encoding="utf-8"))
    assert saved["body"]["tools"][0]["server_url"] == f"https://{MARKER}@x.example/mcp?{MARKER}"


# ---- proxy ---------------------------------------------------------------------------------------------------


class _EchoingUpstream(BaseHTTPRequestHandler):
    """A Responses API that echoes the request's tools, secrets included (as an API might): what the proxy
    receives back must still not be kept by it."""

    bodies: list[dict[str, Any]] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        type(self).bodies.append(body)
        reply = json.dumps({"id": "resp_1", "object": "response", "created_at": 0, "status": "completed",
                            "model": body["model"], "output": [], "tools": body["tools"], "tool_choice": "auto",
                            "parallel_tool_calls": True, "error": None, "incomplete_details": None}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_the_proxy_forwards_the_secrets_unchanged_and_keeps_none(tmp_path: Path) -> None:
    from openai import OpenAI

    upstream = ThreadingHTTPServer(("127.0.0.1", 0), _EchoingUpstream)
    thread = threading.Thread(target=upstream.serve_forever, daemon=True)
    thread.start()
    try:
        proc, url = _start(["proxy", "-p", "openai-responses", "--upstream",
                            f"http://127.0.0.1:{upstream.server_address[1]}/v1", "-f", "jsonl", "--max-requests", "1",
                            "--save", str(tmp_path)])
        try:
            client = OpenAI(base_url=url, api_key=KEY, max_retries=0)
            done = client.responses.create(model="gpt-5.4-mini", input="What is React?", tools=[MCP])
        finally:
            records, printed = _finish(proc)
    finally:
        upstream.shutdown()
        upstream.server_close()
        thread.join(5)
    (arrived,) = _EchoingUpstream.bodies
    assert arrived["tools"][0]["headers"] == MCP["headers"] and arrived["tools"][0]["authorization"] == OAUTH
    assert done.tools[0].authorization == OAUTH  # the client gets the API's answer as it came
    assert records[0]["status"] == 200
    _nothing_kept(tmp_path, printed, [], [BEARER, HEADER, OAUTH])
    saved = json.loads((tmp_path / "sample-001.request.json").read_text(encoding="utf-8"))
    assert saved["body"]["tools"][0]["headers"]["X-Short"] == MARKER
    assert not _holds((tmp_path / "sample-001.request.json").read_bytes(), SHORT)


@pytest.mark.parametrize("fmt", ["jsonl", "pretty"])
def test_a_key_the_client_puts_in_the_path_is_not_in_the_mock_s_lines(tmp_path: Path, fmt: str) -> None:
    """A client that writes its key into the URL's path as well as its auth header (a gateway's key in the path:
    ``--base-url http://host/k/$OPENAI_API_KEY/v1``, docs/keys.md): the line names the path, and the proxy's lines
    were already redacted with the keys a client sends; the mock's were not (trial9g's report)."""
    save = tmp_path / "save"
    proc, url = _start(["mock", "-p", "openai", "-f", fmt, "--max-requests", "2", "--save", str(save)])
    origin = url.split("/v1")[0] if "/v1" in url else url.rstrip("/")
    replies = []
    try:  # the mock is stopped whatever an assertion finds
        with httpx.Client(timeout=30) as client:
            for path in (f"/k/{KEY}/v1/chat/completions", f"/v1/{KEY}/chat/completions"):
                reply = client.post(origin + path, headers={"Authorization": f"Bearer {KEY}"},
                                    json={"model": "m", "messages": [{"role": "user", "content": "hi"}]})
                assert reply.status_code in (200, 404)  # the openai mock routes by the path's end
                assert not _holds(reply.content, KEY) or reply.status_code == 404  # a 404 quotes the client's path
                replies.append(reply.content)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert not _holds(out + err, KEY), out
    assert "/k/" in out and "$AUTHORIZATION" in out  # the path is shown, its key as the header's placeholder
    for path in _files(save):
        assert not _holds(path.read_bytes(), KEY), path.name
