"""A key a client sends inside a request body, not in a key header: an OpenAI-compatible client's
``{"api_key": ...}`` (LiteLLM-style ``extra_body``), Gemini's ``?key=``, a key pasted into a prompt, a key in a tool
result, a key the answer's call arguments carry. ``toolchoice mock --save`` and ``toolchoice proxy --save`` saved and
printed them as sent (trial15j's brief). The real clients (openai-python, anthropic-python, google-genai) send them on
127.0.0.1 to the mock and through the proxy (a relay between the proxy and the mock records what the proxy forwards);
then no saved file and no byte of either process's stdout or stderr holds a key, nor any 12-character piece of one,
the proxy forwarded every key as sent, and the near-misses stay (docs/keys.md "Keys in bodies").

The documented marker is ``[redacted]`` (docs/mock.md "--save"). Each family's servers start once (module scope)."""

from __future__ import annotations

import json
import os
import signal
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
MARKER = "[redacted]"
PIECE = 12
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# one set of keys per family, none sharing a 12-character run with another or with the text around them
KEYS = {
    "openai": {"header": "sk-hdrOpenAI7Qm2Vx9Lk4Tz8Rw1Pn5Jc", "field": "sk-proj-fldOA3Gh6Ys0Ub2Ie8Wq4Dk7Mz",
               "plain": "plainSecretOA-9f8e7d6c5b4a3", "prompt": "sk-proj-prmOA5Lx1Vc7Nq3Rt9Ew2Bj6Hy",
               "result": "resultSecretOA-1a2b3c4d5e6f", "const": "sk-proj-cstOA8Zk2Pw5Tm9Qs3Xv6Fr1Lg"},
    "anthropic": {"header": "sk-ant-api03-hdrAN4Rt8Yp2Kw6Qz0Xm3Vb7Nc1Jf5Lh9Gd",
                  "field": "sk-ant-api03-fldAN7Mq1Zs5Hx9Tc3",
                  "plain": "plainSecretAN-0e1d2c3b4a59", "prompt": "sk-ant-api03-prmAN2Wd6Jk0Pv4Ny8Gs",
                  "result": "resultSecretAN-6f5e4d3c2b1a", "const": "sk-ant-api03-cstAN9Bh3Lr7Xe1Uq5Ko"},
    "gemini": {"header": "AIzaSyHdrGM4Kx8Qp2Vt6Zn0Wr3Ys7Lb1Fj5HcQ", "field": "AIzaSyFldGM9Tm3Xc7Rq1Nv5Pk0Bs4Wh8JdQz8X",
               "plain": "plainSecretGM-7c8d9e0f1a2b", "prompt": "AIzaSyPrmGM2Vb6Nk0Hx4Ld8Qs3Tw7Mc1Rz5FQz",
               "result": "resultSecretGM-3b4c5d6e7f80", "const": "AIzaSyCstGM5Qw9Ej3Tp7Yk1Ux4Sa8Dn2Gv6BQz",
               "url": "AIzaSyUrlGM1Hn5Rz9Kq3Wf7Xb2Cm6Pt0Jv4LQz"},
}
NEAR = {"model": "sk-tiny", "cache": "user-4471-cache-prefix", "doc": "AKIAIOSFODNN7EXAMPLE"}
DESCRIPTION = f"Looks up an AWS user; an access key id reads like {NEAR['doc']} (AWS's documented example)."
SCHEMA = {"type": "object", "properties": {"label": {"type": "string"}}, "required": ["label"]}


def _pieces(secret: str) -> Iterator[str]:
    return (secret[at:at + PIECE] for at in range(len(secret) - PIECE + 1))


def _leaks(data: bytes | str, secrets: Iterator[str] | list[str]) -> list[str]:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return [piece for secret in secrets for piece in _pieces(secret) if piece in text]


class _Relay(BaseHTTPRequestHandler):
    """Between the proxy and the mock: keeps each body as the proxy forwarded it, answers with the mock's answer."""

    target = ""
    bodies: list[bytes]

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        raw = self.rfile.read(int(self.headers["content-length"]))
        self.bodies.append(raw)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length", "connection")}
        answer = httpx.post(self.target + self.path, content=raw, headers=headers, timeout=30)
        self.send_response(answer.status_code)
        self.send_header("content-type", answer.headers.get("content-type", "application/json"))
        self.send_header("content-length", str(len(answer.content)))
        self.end_headers()
        self.wfile.write(answer.content)

    def log_message(self, *args: Any) -> None:
        pass


def _start(args: list[str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([*CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "100"})
    assert proc.stdout is not None
    return proc, proc.stdout.readline().strip()


def _stop(proc: subprocess.Popen[str], first: str) -> str:
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return first + "\n" + out + err


def _openai(url: str, keys: dict[str, str]) -> None:
    from openai import OpenAI

    client = OpenAI(base_url=url, api_key=keys["header"], max_retries=0)
    tools = [{"type": "function", "function": {"name": "lookup", "description": DESCRIPTION, "parameters": {
        "type": "object", "properties": {"label": {"type": "string", "const": keys["const"]}}, "required": ["label"]}}}]
    messages = [{"role": "user", "content": f"Here is my key: {keys['prompt']}\nuse it"},
                {"role": "assistant", "content": None, "tool_calls": [{"id": "call_a", "type": "function", "function": {
                    "name": "lookup", "arguments": json.dumps({"label": "x"})}}]},
                {"role": "tool", "tool_call_id": "call_a", "content": json.dumps({"api_key": keys["result"]})}]
    extra = {"api_key": keys["field"], "aws_secret_access_key": keys["plain"]}
    whole = client.chat.completions.create(model=NEAR["model"], messages=messages, tools=tools, tool_choice="required",
                                           prompt_cache_key=NEAR["cache"], extra_body=extra)
    assert json.loads(whole.choices[0].message.tool_calls[0].function.arguments) == {"label": keys["const"]}
    streamed = client.chat.completions.create(model=NEAR["model"], messages=messages, tools=tools, stream=True,
                                              tool_choice="required", prompt_cache_key=NEAR["cache"], extra_body=extra)
    arguments = "".join(c.choices[0].delta.tool_calls[0].function.arguments or "" for c in streamed
                        if c.choices and c.choices[0].delta.tool_calls)
    assert keys["const"] in arguments  # the client gets its answer as the mock made it


def _anthropic(url: str, keys: dict[str, str]) -> None:
    import anthropic

    client = anthropic.Anthropic(base_url=url, api_key=keys["header"], max_retries=0)
    tools = [{"name": "lookup", "description": DESCRIPTION, "input_schema": {
        "type": "object", "properties": {"label": {"type": "string", "const": keys["const"]}}, "required": ["label"]}}]
    messages = [{"role": "user", "content": f"my key {keys['prompt']} ok"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_a", "name": "lookup",
                                                   "input": {"label": "x"}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a",
                                              "content": json.dumps({"client_secret": keys["result"]})}]}]
    extra = {"litellm_params": {"api_key": keys["field"], "vertex_credentials": keys["plain"]}}
    whole = client.messages.create(model="claude-sonnet-4-5", max_tokens=200, messages=messages, tools=tools,
                                   tool_choice={"type": "any"}, extra_body=extra)
    assert whole.content[-1].input == {"label": keys["const"]}
    with client.messages.stream(model="claude-sonnet-4-5", max_tokens=200, messages=messages, tools=tools,
                                tool_choice={"type": "any"}, extra_body=extra) as stream:
        final = stream.get_final_message()
    assert final.content[-1].input == {"label": keys["const"]}


def _gemini(url: str, keys: dict[str, str]) -> None:
    from google import genai
    from google.genai import types

    client = genai.Client(api_key=keys["header"], http_options=types.HttpOptions(base_url=url, api_version="v1beta"))
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=[types.FunctionDeclaration(
            name="lookup", description=DESCRIPTION, parameters_json_schema={
                "type": "object", "properties": {"label": {"type": "string", "const": keys["const"]}},
                "required": ["label"]})])],
        tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="ANY")),
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
    contents = [types.Content(role="user", parts=[types.Part(text=f"key={keys['prompt']}")]),
                types.Content(role="model", parts=[types.Part(function_call=types.FunctionCall(
                    name="lookup", args={"label": "x"}))]),
                types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(
                    name="lookup", response={"password": keys["result"]}))])]
    whole = client.models.generate_content(model="gemini-2.5-flash", contents=contents, config=config)
    assert whole.function_calls[0].args == {"label": keys["const"]}
    chunks = list(client.models.generate_content_stream(model="gemini-2.5-flash", contents=contents, config=config))
    assert [c.args for chunk in chunks for c in chunk.function_calls or []] == [{"label": keys["const"]}]
    # a client that puts the key in the URL, and LiteLLM-style fields in the body, by hand
    base = url.rstrip("/")
    answer = httpx.post(f"{base}/v1beta/models/gemini-2.5-flash:generateContent?key={keys['url']}", timeout=30,
                        json={"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
                              "api_key": keys["field"], "extra_body": {"secret_key": keys["plain"]}})
    assert answer.status_code in (200, 400), answer.text


CLIENTS = {"openai": ("openai", _openai), "anthropic": ("anthropic", _anthropic), "gemini": ("google.genai", _gemini)}


@pytest.fixture(scope="module", params=list(CLIENTS))
def exchanged(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One family: its mock (--save) and a proxy (--save) in front of it through the relay; the real client sends
    every request to both. What was saved, printed and forwarded."""
    provider = request.param
    package, send = CLIENTS[provider]
    if missing(package):
        pytest.skip(f"needs {package}")
    mock_dir, proxy_dir = tmp_path_factory.mktemp("mock-save"), tmp_path_factory.mktemp("proxy-save")
    formats = ("jsonl", "pretty") if provider != "anthropic" else ("pretty", "jsonl")
    mock, mock_url = _start(["mock", "-p", provider, "-f", formats[0], "--save", str(mock_dir)])
    output = []
    try:
        origin = "/".join(mock_url.split("/")[:3])
        relay_class = type("Relay", (_Relay,), {"target": origin, "bodies": []})
        relay = ThreadingHTTPServer(("127.0.0.1", 0), relay_class)
        thread = threading.Thread(target=relay.serve_forever, daemon=True)
        thread.start()
        try:
            upstream = f"http://127.0.0.1:{relay.server_address[1]}" + mock_url[len(origin):]
            proxy, proxy_url = _start(["proxy", "-p", provider, "--upstream", upstream, "-f", formats[1],
                                       "--save", str(proxy_dir)])
            try:
                send(mock_url, KEYS[provider])
                send(proxy_url, KEYS[provider])
            finally:
                output.append(_stop(proxy, proxy_url))
        finally:
            relay.shutdown()
            relay.server_close()
            thread.join(5)
    finally:
        output.append(_stop(mock, mock_url))
    files = {path: path.read_bytes() for folder in (mock_dir, proxy_dir) for path in folder.rglob("*")
             if path.is_file()}
    return {"provider": provider, "files": files, "output": "\n".join(output), "forwarded": relay_class.bodies,
            "mock_dir": mock_dir, "proxy_dir": proxy_dir}


def test_no_key_nor_any_piece_of_one_is_saved_or_printed(exchanged: dict[str, Any]) -> None:
    keys = list(KEYS[exchanged["provider"]].values())
    suffixes = {path.name.split(".", 1)[1] for path in exchanged["files"]}
    assert {"request.json", "response.json", "reply.json"} <= suffixes and any("sse" in s for s in suffixes), suffixes
    for path, data in exchanged["files"].items():
        assert not _leaks(data, keys), (path.name, _leaks(data, keys))
    assert not _leaks(exchanged["output"], keys), _leaks(exchanged["output"], keys)
    assert MARKER in exchanged["output"]  # the calls' arguments (the tool's const) are shown, redacted


def test_the_proxy_forwards_every_key_as_the_client_sent_it(exchanged: dict[str, Any]) -> None:
    keys = KEYS[exchanged["provider"]]
    forwarded = b"\n".join(exchanged["forwarded"]).decode()
    for name, value in keys.items():
        if name not in ("header", "url"):  # the header and the URL's query are the request line's and headers'
            assert value in forwarded, name
    assert MARKER not in forwarded


def test_the_saved_request_says_where_each_key_was(exchanged: dict[str, Any]) -> None:
    provider, keys = exchanged["provider"], KEYS[exchanged["provider"]]
    saved = json.loads((exchanged["proxy_dir"] / "sample-001.request.json").read_text(encoding="utf-8"))
    body = json.dumps(saved["body"])
    assert MARKER in body and saved["headers"]  # the placeholders stand where the keys were
    if provider == "openai":
        assert saved["body"]["api_key"] == MARKER and saved["body"]["aws_secret_access_key"] == MARKER
        assert saved["body"]["messages"][0]["content"] == f"Here is my key: {MARKER}\nuse it"
        assert json.loads(saved["body"]["messages"][2]["content"]) == {"api_key": MARKER}
    if provider == "anthropic":
        assert saved["body"]["litellm_params"] == {"api_key": MARKER, "vertex_credentials": MARKER}
    if provider == "gemini":
        assert saved["body"]["contents"][0]["parts"][0]["text"] == f"key={MARKER}"
        by_url = json.loads((exchanged["mock_dir"] / "sample-003.request.json").read_text(encoding="utf-8"))
        assert by_url["url"].endswith(f"?key={MARKER}") or "$KEY" in by_url["url"], by_url["url"]
        assert by_url["body"]["api_key"] == MARKER and by_url["body"]["extra_body"] == {"secret_key": MARKER}
    assert keys["header"] not in body


def test_near_misses_are_kept_as_sent(exchanged: dict[str, Any]) -> None:
    """A model named sk-tiny (too short for an OpenAI key's shape), prompt_cache_key (named for a key, holds
    none: only a field named for a credential is hidden), and AWS's documented example key id quoted in a tool's
    description (no one's key: shown as written) stay in the saved request."""
    saved = (exchanged["mock_dir"] / "sample-001.request.json").read_text(encoding="utf-8")
    assert NEAR["doc"] in saved
    if exchanged["provider"] == "openai":
        body = json.loads(saved)["body"]
        assert body["model"] == NEAR["model"] and body["prompt_cache_key"] == NEAR["cache"]


# ---- toolchoice's own saves and prints: a key pasted into a scenario's prompt or tool result -----------------

PASTED = "sk-proj-pstTC4Hv8Lq2Zx6Nm0Rb3Wk7Jd1Yf5Gs"
RESULT = "toolResultSecret-5d4c3b2a1f0e"
SCENARIO = f"""tools:
  - name: lookup
    description: {DESCRIPTION}
    parameters: {{type: object, properties: {{label: {{type: string}}}}, required: [label]}}
tool_choice: required
messages:
  - {{role: user, content: "my key is {PASTED}, look it up"}}
  - {{role: assistant, tool_calls: [{{id: call_1, name: lookup, arguments: {{label: x}}}}]}}
  - {{role: tool, tool_call_id: call_1, content: '{{"api_key": "{RESULT}"}}'}}
providers:
  openai: {{model: gpt-5.4-mini}}
loop: {{max_steps: 2, results: {{lookup: done}}}}
"""


@pytest.fixture(scope="module")
def relayed_mock() -> Iterator[tuple[str, list[bytes]]]:
    """An in-process OpenAI mock behind a relay that keeps each body as toolchoice sent it."""
    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("openai") as mock:
        origin = "/".join(mock.base_url.split("/")[:3])
        relay_class = type("Relay", (_Relay,), {"target": origin, "bodies": []})
        relay = ThreadingHTTPServer(("127.0.0.1", 0), relay_class)
        thread = threading.Thread(target=relay.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{relay.server_address[1]}/v1", relay_class.bodies
        finally:
            relay.shutdown()
            relay.server_close()
            thread.join(5)


def test_send_run_render_and_trace_never_show_a_key_pasted_into_the_scenario(
        tmp_path: Path, relayed_mock: tuple[str, list[bytes]]) -> None:
    """The scenario's prompt holds a key, its tool result a credential field: sent as written (the relay sees them),
    shown and saved as [redacted] by send --save (whole and streamed), run --save (the transcript), render, every
    --format json document and trace SAVED."""
    from cli import run_cli

    url, forwarded = relayed_mock
    scenario = tmp_path / "pasted.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    env = {**os.environ, "OPENAI_API_KEY": "unused-local-key-0000"}
    common = [str(scenario), "-p", "openai", "--base-url", url]
    calls = [["send", *common, "--save", str(tmp_path / "send"), "-f", "json"],
             ["send", *common, "--stream", "--save", str(tmp_path / "stream")],
             ["run", *common, "--save", str(tmp_path / "run"), "-f", "json"],
             ["render", str(scenario), "-p", "openai"], ["render", str(scenario), "-p", "openai", "-f", "json"],
             ["trace", str(tmp_path / "send"), "-f", "json"]]
    printed = ""
    for args in calls:
        done = run_cli(args, env=env, cwd=ROOT)
        assert done.returncode in (0, 4), (args, done.stderr)
        printed += done.stdout + done.stderr
    assert len(forwarded) >= 3 and all(PASTED.encode() in body and RESULT.encode() in body for body in forwarded)
    saved = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file() and path != scenario}
    assert any(path.name.endswith(".sse") for path in saved) and any(path.name == "scenario.yaml" for path in saved)
    for path, data in saved.items():
        assert not _leaks(data, [PASTED, RESULT]), (path.name, _leaks(data, [PASTED, RESULT]))
    assert not _leaks(printed, [PASTED, RESULT]), _leaks(printed, [PASTED, RESULT])
    assert f"my key is {MARKER}, look it up" in printed and NEAR["doc"] in printed


# ---- the look itself: JSON text and parsed JSON agree -----------------------------------------------------------

SHAPED = "sk-proj-unitUT6Fq2Wz8Kd4Ns0Hv3Lm7Pc1Xb5"


@pytest.mark.parametrize("value, hidden", [
    ({"messages": [{"role": "user", "content": f"key:\n{SHAPED}\tend"}]}, True),  # after an escape in the JSON text
    ({"content": f"\u00e9{SHAPED}"}, True),  # after a \u-escaped character (ensure_ascii)
    ({"content": json.dumps({"result": json.dumps({"apiKey": "nestedTwice-0a1b2c3d"})})}, True),  # JSON in JSON
    ({"headers": {"Authorization": "Bearer plainBearer-99aa88bb"}}, True),
    ({"url": "https://generativelanguage.googleapis.com/v1beta/models?key=plainUrlKey-1234abcd"}, True),
    ({"content": f"\\n{SHAPED}"}, True),  # a literal backslash-n before a key: read as JSON's escape in both
    ({"model": "sk-tiny", "prompt_cache_key": "user-4471-cache-prefix", "max_tokens": 12345678}, False),
    ({"resourceSpans": [{"attributes": [{"key": "gen_ai.request.model", "value": {"stringValue": "gpt-5.4-mini"}}]}],
      "logprobs": [{"token": "internationalization", "logprob": -0.1}]}, False),
    ({"description": "AWS ids look like AKIAIOSFODNN7EXAMPLE", "bos_token": "<|begin_of_text|>"}, False),
])
def test_a_key_is_found_alike_in_json_text_and_in_parsed_json(value: Any, hidden: bool) -> None:
    from toolchoice.providers.core.redaction import Redactor, pattern_keys, redact_patterns

    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False), json.dumps(value, indent=2)):
        shown = redact_patterns(text)
        assert json.loads(shown) == Redactor({}).data(value)  # the same places, and still JSON
        assert (shown != text) is hidden, shown
    assert bool(pattern_keys(value)) is hidden


def test_a_known_key_found_by_its_look_keeps_its_name() -> None:
    """The key set in the environment is found whole by its look first: it is still shown as its variable."""
    from toolchoice.providers.core.redaction import Redactor

    other = "sk-proj-otherOT3Jx7Bq1Vn5Yd9Kw2Hs6Mf0Lr"
    shown = Redactor({SHAPED: "$OPENAI_API_KEY"}).text(f"{SHAPED} {other} {SHAPED[4:20]}")
    assert shown == f"$OPENAI_API_KEY {MARKER} $OPENAI_API_KEY"


class _SpellingUpstream(BaseHTTPRequestHandler):
    """A Chat Completions stream whose model spells out a key it was never sent, four characters a delta: no
    event holds a piece long enough to be found by value, the text put together holds the key whole."""

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers["content-length"]))
        events = [{"content": SPELLED[at:at + 4]} for at in range(0, len(SPELLED), 4)]
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()
        for number, delta in enumerate([{"role": "assistant", "content": ""}, *events, {}]):
            chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m", "choices": [
                {"index": 0, "delta": delta, "finish_reason": "stop" if number == len(events) + 1 else None}]}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")

    def log_message(self, *args: Any) -> None:
        pass


SPELLED = "sk-proj-splSP3Kq7Wx1Nd5Rv9Hb2Tm6Yc0Lf4Gj"


def test_a_key_the_upstream_spells_out_in_pieces_is_not_kept_by_the_proxy(tmp_path: Path) -> None:
    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server

    upstream = ThreadingHTTPServer(("127.0.0.1", 0), _SpellingUpstream)
    thread = threading.Thread(target=upstream.serve_forever, daemon=True)
    thread.start()
    try:
        handler = ProxyHandler("openai", f"http://127.0.0.1:{upstream.server_address[1]}/v1", save_dir=tmp_path)
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            with httpx.stream("POST", f"{proxy.base_url}/chat/completions", timeout=30, json={
                    "model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]}) as answer:
                received = b"".join(answer.iter_bytes())
            records = proxy.wait_for(1, 10)  # the line (and the files) follow the answer
    finally:
        upstream.shutdown()
        upstream.server_close()
        thread.join(5)
    assert SPELLED[:4].encode() in received and SPELLED[-4:].encode() in received  # the client gets it as sent
    assert (tmp_path / "sample-001.response.sse").read_bytes() == b""
    for path in tmp_path.rglob("*"):
        assert not _leaks(path.read_bytes(), [SPELLED]), path.name
    assert not _leaks(json.dumps(records), [SPELLED])


_PARTS = ["sk-", "sk-ant-api03-", "sk-proj-", "T3BlbkFJ", "AIza", "AQ.Ab", "AQ.", "AKIA", "ASIA", "gsk_", "xai-",
          "hf_", "ghp_", "github_pat_", "EXAMPLE", "pplx-", "csk-", "tgp_v1_", "fw_", "ya29.", ".", "Word", "x7",
          "a", "Z", "0", "9", "_", "-", " ", "\n", "\\", "é", "abcdefghij", "ABCDEFGHIJKLMNOP", "0123456789"]


def test_the_prefix_search_finds_what_the_shapes_pattern_finds() -> None:
    """key_shapes looks for the issuers' prefixes, then tries the shapes there; the shapes as one pattern with the
    edge's look-behind (as trial15c wrote them), tried everywhere, find the same keys in any text (the OpenAI-style
    row's matches then kept where key_looks._openai_style reads them as keys, in both)."""
    import re

    from hypothesis import given, settings, strategies as st

    from toolchoice.providers.core.key_looks import _openai_style, _random_token, _reads_as_words
    from toolchoice.providers.core.redaction import KEY_SHAPES, key_shapes

    edge, end = r"(?<![A-Za-z0-9_-])", r"(?![A-Za-z0-9_-])"
    names = {"sk-": "openai", "AQ.": "google_auth", "pplx-": "pplx", "csk-": "csk", "tgp_v1_": "tgp",
             "fw_": "fw", "ya29.": "ya29"}
    everywhere = re.compile("|".join(f"(?P<{names.get(prefix, f'row{i}')}>{edge}(?:{pattern}){end})"
                                     for i, (_, prefix, pattern, _) in enumerate(KEY_SHAPES)))
    read = {"openai": _openai_style, "google_auth": lambda key: _random_token(key[5:]),
            # the prefixed rows whose tail must not be a name's words (pplx-api-docs; csk-'s pieces longer)
            **{name: (lambda n, piece: lambda key: not _reads_as_words(key[n:], piece))(
                len(prefix), 8 if prefix == "csk-" else 4)
               for prefix, name in names.items() if name in ("pplx", "csk", "tgp", "fw", "ya29")}}

    def found_everywhere(text: str) -> list[str]:
        """The pattern tried at every place: a match read as no key (a ya29. token whose tail reads as words) does
        not hide a key that starts inside it ('ya29.sk-ant-api03-…': the Anthropic key after the dot)."""
        keys, at = [], 0
        while (m := everywhere.search(text, at)) is not None:
            if read.get(m.lastgroup, bool)(m.group()):
                keys.append(m.group())
                at = m.end()
            else:
                at = m.start() + 1
        return keys

    @settings(max_examples=300, deadline=None, database=None)
    @given(st.lists(st.sampled_from(_PARTS), max_size=40).map("".join))
    def check(text: str) -> None:
        wanted = found_everywhere(text) if len(text) >= 20 else []
        assert [key for key, _, _ in key_shapes(text)] == wanted

    assert key_shapes("ya29.sk-ant-api03-sk-ant-api03-abcdefghij")[0][0] == "sk-ant-api03-sk-ant-api03-abcdefghij"

    check()


def test_a_key_in_a_path_no_route_takes_is_not_in_the_line(tmp_path: Path) -> None:
    """A 404's line names the path the client asked for: a key written into it is [redacted] there (no key
    header to name it), and in the saved request's URL."""
    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("openai", save_dir=str(tmp_path)) as mock:
        answer = httpx.post(f"{mock.base_url}/k/{SHAPED}/models", json={}, timeout=10)
        records = list(mock.records)
    assert answer.status_code == 404
    assert not _leaks(json.dumps(records), [SHAPED]) and MARKER in records[0]["path"]
    for path in tmp_path.rglob("*"):
        assert not _leaks(path.read_bytes(), [SHAPED]), path.name


def test_a_piece_of_any_of_a_thousand_keys_in_one_body_is_redacted() -> None:
    """A body holding 1,000 distinct keys: a 20-character piece of the last one, quoted where no look finds it (a
    reply, a stream's event), is redacted too (the first redaction.SPELLED_FOUND in every spelling, the others as
    written); the pieces of keys past body_secrets.FOUND_AT_MOST are not searched for (docs/keys.md says so)."""
    import hashlib

    from toolchoice.providers.core.mock.body_secrets import FOUND_AT_MOST, body_keys
    from toolchoice.providers.core.redaction import SPELLED_FOUND, Redactor

    keys = ["sk-proj-" + hashlib.sha256(str(i).encode()).hexdigest()[:48] for i in range(1000)]
    found = body_keys({"messages": [{"role": "user", "content": f"key {key}"} for key in keys]})
    assert len(found) == 1000 > SPELLED_FOUND and FOUND_AT_MOST >= 1000
    redactor = Redactor({}, found=found)
    for key in (keys[0], keys[SPELLED_FOUND], keys[-1]):
        shown = redactor.text(f"the reply quotes {key[10:30]} here")
        assert key[10:30] not in shown and MARKER in shown, shown


def test_the_word_patterns_read_as_the_piece_patterns_did_and_a_long_run_does_not_backtrack() -> None:
    """key_looks' _WORDS and _CAMEL_WORDS were (?:piece)+ patterns whose pieces split a run of digits, capitals or
    lower-case letters in every way before failing: `fw_` + 40 lower-case letters + `-b`, or `sk-Abc` + 40 digits +
    `x`, took minutes in key_shapes (the redaction of any text; the suite's watchdog named it in
    test_the_prefix_search_finds_what_the_shapes_pattern_finds, 2026-11-28). The patterns as they were written are
    the truth on every text of up to 5 characters over the classes that matter; long runs now answer at once."""
    import itertools
    import re

    from toolchoice.providers.core.key_looks import _CAMEL_WORDS, _WORDS

    piece = r"[A-Z]?[a-z]{2,}|[A-Z]{1,5}|[0-9]{1,8}"
    words = re.compile(rf"(?:{piece})+(?:[-_.](?:{piece})+)*")
    camel = re.compile(r"(?:[A-Z][a-z]{2,}|[0-9]{1,8})+")
    for size in range(6):
        for letters in itertools.product("abAB01-._", repeat=size):
            text = "".join(letters)
            assert (_WORDS.fullmatch(text) is None) == (words.fullmatch(text) is None), text
            assert (_CAMEL_WORDS.fullmatch(text) is None) == (camel.fullmatch(text) is None), text
    for run in ("a" * 5000 + "-b", "1" * 5000 + "x", "A" * 5000 + "b"):
        assert _WORDS.fullmatch(run) is None
    assert _CAMEL_WORDS.fullmatch("Abc" + "1" * 5000 + "x") is None  # a lone lower-case letter ends each: no name
