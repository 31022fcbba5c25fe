"""Adversarial round on sessions 13-14's new surfaces (trial14e): the proxy's --save and its summary at stop, the
keys a client sends through a gateway, the Python API's doors, the mock's --host. Each test failed before its fix;
the upstreams are real sockets on 127.0.0.1 (tests/servers.py, tests/streams.py), the proxy runs in a thread of the
test process (``Running``), the commands in-process (tests/cli.py) where no real process is the check."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from cli import run_cli
from servers import StandIn, Step
from toolchoice.providers.core.mock.proxy import ProxyHandler
from toolchoice.providers.core.mock.server import Running, Server

KEY = "sk-adversarial14-0123456789abcdef"
CHAT = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
        "tool_choice": "required"}


def proxied(provider: str, upstream: str, save_dir: Any = None) -> Running:
    handler = ProxyHandler(provider, upstream, save_dir)
    return Running(Server(handler, bad_request=handler.service.error), handler.module)


def settled(proxy: Running, count: int) -> list[dict[str, Any]]:
    """The proxy's lines once ``count`` are out (a line follows the answer's last byte)."""
    return proxy.wait_for(count)


def key_runs(text: str, key: str, piece: int = 6) -> list[str]:
    """The runs of ``piece`` or more of the key's characters in a row that ``text`` holds, once its JSON \\u escapes
    are read (what a reader of the file gets back of the key)."""
    decoded = text.encode("ascii", "backslashreplace").decode("unicode_escape", "replace")
    return [key[i:i + piece] for i in range(len(key) - piece + 1) if key[i:i + piece] in decoded]


# ---- proxy --save: what the upstream quotes back ------------------------------------------------------------------

# An upstream's 401 quoting the key with every eighth character \u-escaped (a server's JSON encoder may escape as it
# likes): the proxy's --save wrote the body through a text redaction that found no 12-character run of the key, so
# sample-001.response.json held the whole key for any JSON reader (`send --save` writes the decoded body redacted
# when that happens: redaction.safe_json_text).
def test_proxy_save_keeps_a_key_the_upstream_quoted_half_escaped_out_of_the_response_file(tmp_path):
    escaped = "".join("\\u%04x" % ord(ch) if i % 8 == 0 else ch for i, ch in enumerate(KEY))
    body = '{"error":{"message":"Incorrect API key provided: %s","type":"invalid_request_error"}}' % escaped
    with StandIn("openai", Step(status=401, body=body)) as upstream, \
            proxied("openai", upstream.base_url(), tmp_path) as proxy:
        answered = httpx.post(proxy.base_url + "/chat/completions", json=CHAT,
                              headers={"authorization": f"Bearer {KEY}"}, timeout=10)
        (line,) = settled(proxy, 1)
    assert answered.status_code == 401 and json.loads(answered.text)["error"]["message"].endswith(KEY)  # as it came
    saved = (tmp_path / "sample-001.response.json").read_text(encoding="utf-8")
    assert key_runs(saved, KEY) == [] and "$AUTHORIZATION" in json.loads(saved)["error"]["message"], saved
    assert key_runs(json.dumps(line), KEY) == []


# A gateway in front of the API takes its own key in its own header (Portkey's x-portkey-api-key, Helicone's
# Helicone-Auth, Cloudflare AI Gateway's cf-aig-authorization, a LiteLLM proxy's x-litellm-api-key): the proxy and the
# mock knew only the providers' key headers, so --save wrote these in sample-NNN.request.json as they came, and an
# upstream quoting one back had it in the line.
GATEWAY_KEYS = {"x-portkey-api-key": "pk-portkey-9f8e7d6c5b4a3210", "helicone-auth": "Bearer hk-helicone-a1b2c3d4e5f6",
                "cf-aig-authorization": "Bearer cf-aig-0a1b2c3d4e5f6789", "x-litellm-api-key": "sk-litellm-77665544332211"}


def test_a_gateway_s_key_header_is_neither_saved_nor_quoted_back_by_the_proxy(tmp_path):
    quoted = "; ".join(GATEWAY_KEYS.values())
    with StandIn("openai", Step.error("openai", 401, f"no gateway accepts {quoted}")) as upstream, \
            proxied("openai", upstream.base_url(), tmp_path) as proxy:
        httpx.post(proxy.base_url + "/chat/completions", json=CHAT, timeout=10,
                   headers={"authorization": f"Bearer {KEY}", "openai-organization": "org-kept-as-sent", **GATEWAY_KEYS})
        (line,) = settled(proxy, 1)
    assert upstream.requests[0].headers["x-portkey-api-key"] == GATEWAY_KEYS["x-portkey-api-key"]  # passed on
    request = json.loads((tmp_path / "sample-001.request.json").read_text(encoding="utf-8"))
    assert all(request["headers"][name] == "[redacted]" for name in GATEWAY_KEYS), request["headers"]
    assert request["headers"]["openai-organization"] == "org-kept-as-sent"  # not a credential: kept
    saved = "".join(p.read_text(encoding="utf-8") for p in tmp_path.iterdir())
    for value in GATEWAY_KEYS.values():
        secret = value.split(" ")[-1]
        assert secret not in saved and secret not in json.dumps(line), secret


def test_key_headers_are_named_by_their_words():
    from toolchoice.providers.core.mock.service import client_secrets, key_header

    assert all(key_header(name) for name in (*GATEWAY_KEYS, "authorization", "x-api-key", "api-key", "x-goog-api-key",
                                             "proxy-authorization", "x-amz-security-token", "cookie"))
    assert not any(key_header(name) for name in ("keep-alive", "openai-organization", "anthropic-version",
                                                 "x-stainless-arch", "content-type", "x-amz-date"))
    found = client_secrets({"authorization": "AWS4-HMAC-SHA256 Credential=AKIAADVERSARIAL14/20261127/us-east-1/"
                                             "bedrock/aws4_request, SignedHeaders=host, Signature=0ab1",
                            "x-amz-security-token": "FwoGZXIvYXdzEAdversarial14Token"}, "/")
    assert found == {"AKIAADVERSARIAL14": "$AWS_ACCESS_KEY_ID", "FwoGZXIvYXdzEAdversarial14Token": "$AWS_SESSION_TOKEN"}


# A Bedrock stream's events through the proxy with --save: the .eventstream file was written as the bytes came, never
# redacted (every other framing was), so an event quoting the client's access key id kept it in the file. It is now
# re-framed with its payloads redacted, as `send --save` writes one (stream_redaction.redact_stream), and botocore
# still reads it.
def test_proxy_save_redacts_a_bedrock_event_stream_and_botocore_still_reads_it(tmp_path):
    from botocore.eventstream import EventStreamBuffer
    from streams import Piece, Script, StreamServer

    from toolchoice.providers.core.mock.framing import eventstream

    access = "AKIAADVERSARIAL14XYZ"
    events = [("messageStart", {"role": "assistant"}),
              ("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": f"your key id is {access}"}}),
              ("contentBlockStop", {"contentBlockIndex": 0}), ("messageStop", {"stopReason": "end_turn"})]
    sent = b"".join(eventstream(events))
    body = {"messages": [{"role": "user", "content": [{"text": "hi"}]}]}
    signed = (f"AWS4-HMAC-SHA256 Credential={access}/20261127/us-east-1/bedrock/aws4_request, SignedHeaders=host, "
              "Signature=0a1b2c")
    with StreamServer(Script([Piece(sent)], content_type="application/vnd.amazon.eventstream")) as upstream, \
            proxied("bedrock", upstream.url, tmp_path) as proxy:
        answered = httpx.post(proxy.base_url + "/model/amazon.nova-pro-v1:0/converse-stream", json=body,
                              headers={"authorization": signed}, timeout=10)
        settled(proxy, 1)
    assert answered.content == sent  # the client gets the bytes as they came
    saved = (tmp_path / "sample-001.response.eventstream").read_bytes()
    assert access.encode() not in saved
    reader = EventStreamBuffer()
    reader.add_data(saved)
    payloads = [json.loads(message.payload) for message in reader]
    assert [p.get("delta", {}).get("text") for p in payloads][1] == "your key id is $AWS_ACCESS_KEY_ID"


# ---- the Python API's doors ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def scenario():
    from toolchoice.providers import load_scenario_dict

    return load_scenario_dict({"tools": [{"name": "get_weather", "parameters": {"type": "object"}}],
                               "tool_choice": "required", "messages": [{"role": "user", "content": "hi"}],
                               "loop": {"max_steps": 1}})


# LoopOptions.models / translations(models=) keyed by a misspelt provider id ({"opneai": "gpt-4o"}) ran every loop on
# the default model without a word (`run --model opneai=gpt-4o` says "unknown provider 'opneai' (did you mean
# openai?)"); a key that is no str was a TypeError from the model lookup's comparison, or nothing.
def test_a_model_for_an_unknown_provider_is_refused_not_dropped(scenario):
    from toolchoice.providers import LoopOptions, ToolchoiceError, WrongArgument
    from toolchoice.providers.core import jobs

    with pytest.raises(ToolchoiceError) as raised:
        jobs.run(scenario, ["openai"], LoopOptions(models={"opneai": "gpt-4o"}), replay=None)
    assert raised.value.one_line() == "options.models: unknown provider 'opneai' (did you mean openai?)"
    with pytest.raises(ToolchoiceError, match=r"^models: unknown provider 'OpenAI'"):
        jobs.translations(scenario, "openai", models={"OpenAI": "gpt-4o"})
    with pytest.raises(WrongArgument, match=r"^models key: give a provider id \(str\), not int"):
        jobs.translations(scenario, "openai", models={1: "gpt-4o"})
    (done,) = jobs.translations(scenario, "openai", models={"openai": "gpt-4o", "anthropic": None})  # ids: as before
    assert done.request is not None and done.request.body["model"] == "gpt-4o"


# min_obeyed as a Python caller passes it: "0.95" (a str) was a TypeError from the comparison, True passed as 1.0,
# and 10**5000 a ValueError while the refusal (OutOfRange) was written. Each is refused at the door, nothing sent.
def test_min_obeyed_of_the_wrong_type_or_past_writing_out_is_refused_at_the_door(scenario, monkeypatch):
    from toolchoice.providers import SendSettings, ToolchoiceError, WrongArgument
    from toolchoice.providers.core import jobs

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    sent: list[Any] = []
    settings = SendSettings(transport=httpx.MockTransport(lambda r: sent.append(r) or httpx.Response(500)), retries=0)
    (translation,) = jobs.render(scenario, ["openai"])
    send = lambda rate: jobs.send(scenario, translation, settings=settings, repeat=2, min_obeyed=rate)  # noqa: E731
    compare = lambda rate: jobs.compare_send(scenario, [translation], settings=settings, min_obeyed=rate)  # noqa: E731
    for job in (send, compare):
        for rate in ("0.95", True):
            with pytest.raises(WrongArgument, match=r"^min_obeyed: give a rate from 0 to 1 \(a number\) or None, not"):
                job(rate)
        for rate, shown in ((2, "2"), (float("nan"), "nan"), (10**5000, "(a number of about 5001 digits)")):
            with pytest.raises(ToolchoiceError) as raised:
                job(rate)
            assert raised.value.one_line() == f"min_obeyed {shown}: give a rate from 0 to 1 (e.g. min_obeyed=0.95)"
    assert sent == []  # (the command line's --min-obeyed keeps its own words: test_user_trial.py)


# An empty host (`--host "$MOCK_HOST"` with the variable unset, running_mock(host=os.environ.get(...,""))): bind()
# takes "" as every interface, so the mock or proxy listened on the network with no authentication and printed the
# base URL http://:PORT/v1, which no SDK can reach.
def test_an_empty_host_is_refused_before_anything_listens():
    from toolchoice.providers import ToolchoiceError, running_mock

    for host in ("", "  "):
        with pytest.raises(ToolchoiceError, match=r"^host is empty \(an unset variable\?\)"):
            running_mock("openai", host=host)
        for command in (["mock", "-p", "openai"], ["proxy", "-p", "openai", "--upstream", "http://127.0.0.1:9"]):
            done = run_cli([*command, "--host", host, "--max-requests", "1"], env={"COLUMNS": "80"})
            assert done.returncode == 2 and done.stdout == "", done.stdout
            assert done.stderr.startswith("toolchoice: error: --host is empty (an unset variable?)"), done.stderr


# ---- trace import -------------------------------------------------------------------------------------------------

def _traces():
    from pathlib import Path

    return Path(__file__).resolve().parent / "data" / "traces"


# A recorded tool call whose name (or id) an exporter wrote as a number or an object (an OpenInference intValue, a
# GenAI part's "name": 7): the name reached the scenario's tool list as it was and `toolchoice trace` ended in
# `internal error: TypeError: sequence item 0: expected str instance, int found` (or "unhashable type: 'dict'"),
# exit 70. It is now the value's JSON text, declared with an open schema and named in the trace.open_schema note.
@pytest.mark.parametrize("name, shown", [(7, "7"), ({"n": 1}, '{"n": 1}')])
def test_a_traced_call_whose_name_is_no_text_is_imported_and_said(tmp_path, name, shown):
    document = json.loads((_traces() / "openinference-langchain-0.1.80.json").read_text(encoding="utf-8"))
    for span in (s for rs in document["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]):
        for attribute in span["attributes"]:
            if attribute["key"].endswith("tool_call.function.name"):
                attribute["value"] = {"intValue": str(name)} if isinstance(name, int) else {
                    "kvlistValue": {"values": [{"key": "n", "value": {"intValue": "1"}}]}}
    (tmp_path / "oi.json").write_text(json.dumps(document), encoding="utf-8")
    genai = (_traces() / "genai-structured-no-ids.json").read_text(encoding="utf-8")
    (tmp_path / "genai.json").write_text(genai.replace('\\"name\\":\\"get_weather\\"', '\\"name\\":' + json.dumps(
        json.dumps(name))[1:-1]), encoding="utf-8")
    for file in ("oi.json", "genai.json"):
        done = run_cli(["trace", file, "-f", "json"], env={"COLUMNS": "80"}, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        scenario = json.loads(done.stdout)
        assert shown in [tool["name"] for tool in scenario["tools"]], scenario["tools"]
        assert f"no definition of {shown}" in done.stderr or f"only calls to {shown}" in done.stderr, done.stderr


# ---- the proxy's summary at stop ----------------------------------------------------------------------------------

# The summary tallies the lines by verdict; a request still on its way when the proxy stopped (Ctrl-C, or
# --max-requests reached by another) has no line, so "stopped after 2 requests proxied: 1 obeyed" left one request
# unaccounted for (and with one request cut, the summary had no tally at all). The tally now adds up.
def test_the_proxy_s_summary_counts_the_requests_the_stop_cut_short():
    import threading

    from toolchoice.providers.core.mock.proxy import serve_proxy

    urls: list[str] = []
    served: list[Any] = []
    with StandIn("openai", Step.reply("openai", delay=30), default=Step.reply("openai")) as upstream:
        thread = threading.Thread(target=lambda: served.append(serve_proxy(
            "openai", upstream.base_url(), max_requests=1, on_url=urls.append, on_record=lambda line: None)))
        thread.start()
        deadline = time.monotonic() + 10
        while not urls and time.monotonic() < deadline:
            time.sleep(0.01)

        def slow() -> None:
            try:
                httpx.post(urls[0] + "/chat/completions", json=CHAT, headers={"authorization": KEY}, timeout=20)
            except httpx.HTTPError:
                pass  # cut by the stop

        client = threading.Thread(target=slow)
        client.start()
        while not upstream.requests and time.monotonic() < deadline:  # the slow one is at the upstream
            time.sleep(0.01)
        httpx.post(urls[0] + "/chat/completions", json=CHAT, headers={"authorization": KEY}, timeout=10)
        thread.join(10)
        client.join(10)
    assert served[0].line() == "toolchoice proxy: stopped after 2 requests proxied: 1 obeyed, 1 cut short by the stop"



# `--model "$MODEL"` with the variable unset (or `--model openai=`): render, compare, send and run went on with each
# provider's default model, said only by the ledger's info line "no model set", where `providers --model ""` is
# refused as an unset variable. Refused the same way now, before anything is drawn or sent.
@pytest.mark.parametrize("argv", [["render", "s.yaml"], ["compare", "s.yaml"], ["send", "s.yaml", "--dry-run"],
                                  ["run", "s.yaml", "--dry-run"]])
@pytest.mark.parametrize("value, shown", [("", "''"), ("  ", "'  '"), ("openai=", "openai=")])
def test_an_empty_model_option_is_refused_not_the_default_model(tmp_path, argv, value, shown):
    (tmp_path / "s.yaml").write_text("tools: [{name: f, parameters: {type: object}}]\ntool_choice: required\n"
                                     "messages: [{role: user, content: hi}]\nloop: {max_steps: 1}\n", encoding="utf-8")
    done = run_cli([*argv, "-p", "openai", "--model", value], env={"COLUMNS": "80", "NO_COLOR": "1"}, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout[:200])
    assert done.stderr.startswith(f"toolchoice: error: --model {shown} names no model (an unset variable?)"), done.stderr
    kept = run_cli([*argv, "-p", "openai", "--model", "openai=gpt-4o", "-f", "json"], env={"COLUMNS": "80"},
                   cwd=tmp_path)
    assert '"gpt-4o"' in kept.stdout, kept.stderr


# ---- the mock's answers to a malformed body -----------------------------------------------------------------------

_HISTORY = [{"role": "user", "content": "hi"}]
_TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]


# A client's body with a field of the wrong JSON type where the mock iterated or hashed it: the mock answered its own
# 500 "toolchoice mock: internal error: TypeError: ..." (please report it) where the API answers a 400 for the body
# (trial14h made every such field the family's 400, reading.misfit). Found by mutating the bodies `render` writes, field by field, through MockService.
@pytest.mark.parametrize("provider, path, body, status, words", [
    ("openai", "/v1/chat/completions", {"model": "gpt-4o", "tools": _TOOLS, "messages": [
        *_HISTORY, {"role": "assistant", "content": None, "tool_calls": -1}]}, 400,
     "Invalid type for 'messages[1].tool_calls': expected an array, but got an integer instead."),
    ("cohere", "/v2/chat", {"model": "command-a-03-2025", "tools": _TOOLS, "messages": [
        *_HISTORY, {"role": "assistant", "tool_calls": 1.5}]}, 400, "messages[1].tool_calls must be an array"),
    ("deepseek", "/chat/completions", {"model": "deepseek-v4-flash", "tools": _TOOLS, "messages": _HISTORY,
                                       "thinking": {"type": {"enabled": True}}}, 400,
     "Invalid type for 'thinking.type': expected a string, but got an object instead."),
    ("gemini", "/v1beta/models/gemini-2.5-flash:generateContent", {
        "contents": [{"role": "user", "parts": [{"text": "hi"}]},
                     {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {}},
                                                  "thoughtSignature": 1180591620717411303424}]},
                     {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {}}}]}],
        "tools": [{"functionDeclarations": [{"name": "get_weather", "parameters": {"type": "object"}}]}]}, 400,
     # Google's refusal of a signature that is not base64 bytes, as earendil-works/pi#654 records it
     "Invalid value at 'contents[1].parts[0].thought_signature' (TYPE_BYTES)"),
])
def test_a_field_of_the_wrong_type_is_the_api_s_answer_not_the_mock_s_500(provider, path, body, status, words):
    from toolchoice.providers import running_mock

    with running_mock(provider) as mock:
        root = mock.base_url.split("/v1")[0] if provider != "gemini" else mock.base_url.split("/v1beta")[0]
        answered = httpx.post(root + path, json=body, headers={"authorization": "Bearer x"}, timeout=10)
        (line,) = settled(mock, 1)
    assert answered.status_code == status, answered.text
    assert "mock.internal_error" not in [f["code"] for f in line["findings"]], line
    if words is not None:
        assert words in answered.text, answered.text


# ---- -p "$PROVIDER" with the variable unset -----------------------------------------------------------------------

# `-p ""` (or `-p ,`) read as -p left out: render, compare and run went on every provider (the scenario's, else all
# twenty), `providers -p ""` printed the whole matrix, where `--model ""` is refused as an unset variable; send,
# probe and parse said "unknown provider ''". One line now, exit 2, nothing drawn.
@pytest.mark.parametrize("argv", [["render", "s.yaml"], ["compare", "s.yaml"], ["run", "s.yaml", "--dry-run"],
                                  ["providers"], ["providers", "-f", "json"], ["providers", "--model", "gpt-5"],
                                  ["send", "s.yaml", "--dry-run"], ["parse", "b"]])
@pytest.mark.parametrize("value", ["", " , "])
def test_an_empty_provider_option_is_refused_not_read_as_every_provider(tmp_path, argv, value):
    (tmp_path / "s.yaml").write_text("tools: [{name: f, parameters: {type: object}}]\ntool_choice: required\n"
                                     "messages: [{role: user, content: hi}]\nloop: {max_steps: 1}\n", encoding="utf-8")
    (tmp_path / "b").write_text("{}", encoding="utf-8")
    done = run_cli([*argv, "-p", value], env={"COLUMNS": "80", "NO_COLOR": "1"}, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout[:200])
    assert done.stderr.startswith("toolchoice: error: -p is empty (an unset variable?)"), done.stderr
    assert done.stderr.count("\n") == 1


# A running_mock entered again after its `with` block (a fixture's mock reused by each test) wrapped its own record
# keeper in a second one: every later request's line was in mock.records twice, then three times.
def test_a_mock_entered_again_keeps_each_record_once():
    from toolchoice.providers import running_mock

    mock = running_mock("openai")
    for count in (1, 2, 3):
        with mock:
            httpx.post(mock.base_url + "/chat/completions", json={"model": "gpt-4o", "messages": _HISTORY}, timeout=10)
            settled(mock, count)
    assert [line["n"] for line in mock.records] == [1, 2, 3], mock.records


# The same with save_dir: each entry prepared the folder as a new run's, removing the samples the mock had saved in
# its earlier blocks, while its numbering went on (sample-002 alone after the second block: sample-001 lost).
def test_a_mock_entered_again_keeps_the_samples_it_saved(tmp_path):
    from toolchoice.providers import running_mock

    mock = running_mock("openai", save_dir=tmp_path / "saved")
    for count in (1, 2):
        with mock:
            httpx.post(mock.base_url + "/chat/completions", json={"model": "gpt-4o", "messages": _HISTORY}, timeout=10)
            settled(mock, count)
    assert sorted(p.name for p in (tmp_path / "saved").glob("*.request.json")) == [
        "sample-001.request.json", "sample-002.request.json"]


# ---- parallel calls as the request turned them off ----------------------------------------------------------------

# Anthropic's disable_parallel_tool_use written as a string ("false", as a framework's form or a YAML file quoting it
# may send): the mock and the proxy read it by Python's truth, so "false" turned parallel calls off, the line said
# parallel_tool_calls false, and the proxy judged an answer of two calls too_many_calls. Only a boolean turns them
# off now (the OpenAI families' parallel_tool_calls was read so already); another value is not read as either.
@pytest.mark.parametrize("flag, parallel, verdict", [(True, False, "too_many_calls"), (False, True, "obeyed"),
                                                     ("false", None, "obeyed"), (1, None, "obeyed")])
def test_disable_parallel_tool_use_is_read_only_as_a_boolean(flag, parallel, verdict):
    two = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "stop_reason": "tool_use",
           "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
           "content": [{"type": "tool_use", "id": f"toolu_{i}", "name": "get_weather", "input": {}} for i in (1, 2)]}
    body = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": _HISTORY,
            "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
            "tool_choice": {"type": "auto", "disable_parallel_tool_use": flag}}
    with StandIn("anthropic", Step(body=two)) as upstream, proxied("anthropic", upstream.base_url()) as proxy:
        httpx.post(proxy.base_url + "/v1/messages", json=body, headers={"x-api-key": KEY}, timeout=10)
        (line,) = settled(proxy, 1)
    assert line.get("parallel_tool_calls") is parallel and line["verdict"] == verdict, line


# A request header whose value is not ASCII (RFC 9110's obs-text: OpenRouter's X-Title naming an app "Café", sent as
# UTF-8): the proxy handed the value to httpx as text, which encodes it as ASCII, so every such request was the
# proxy's own 500 ("internal error: UnicodeEncodeError", please report it) and never reached the upstream. It goes
# on as its bytes came, as the upstream's headers come back.
def test_a_request_header_in_utf8_reaches_the_upstream_as_its_bytes_came(tmp_path):
    import socket

    body = json.dumps({"model": "gpt-4o", "messages": _HISTORY}).encode()
    with StandIn("openai") as upstream, proxied("openai", upstream.base_url(), tmp_path) as proxy:
        port = int(proxy.base_url.rsplit(":", 1)[1].split("/")[0])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            client.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                           b"X-Title: Caf\xc3\xa9 \xe2\x98\x95\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                           % len(body) + body)
            answer = b""
            while chunk := client.recv(65536):
                answer += chunk
        (line,) = settled(proxy, 1)
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:200]
    assert "proxy.internal_error" not in [f["code"] for f in line["findings"]], line
    assert upstream.requests[0].headers["x-title"].encode("latin-1") == "Café ☕".encode()  # byte for byte
    # and --save keeps it as the client wrote it (it was read as latin-1: "CafÃ© â\x98\x95")
    saved = json.loads((tmp_path / "sample-001.request.json").read_text(encoding="utf-8"))
    assert {k.lower(): v for k, v in saved["headers"].items()}["x-title"] == "Café ☕", saved["headers"]


# A limit's value of 19 characters or more was ignored without a word: a decimal written out long
# (TOOLCHOICE_LIMIT_PATTERN_SECONDS=0.20000000000000000) fell back to the 1 s default, and a whole number past 18 digits
# was "not a positive whole number" when a refusal named it. The long decimal is read as written; a number past what a
# limit takes is said to be that.
def test_a_long_decimal_limit_is_read_and_a_number_past_18_digits_is_said_to_be_too_long(tmp_path, monkeypatch):
    from toolchoice.providers.core import limits

    monkeypatch.setenv("TOOLCHOICE_LIMIT_PATTERN_SECONDS", "0.20000000000000000")
    assert limits.get("pattern_seconds") == 0.2
    (tmp_path / "deep.json").write_text('{"type": "object", "properties": {"a": ' + "[" * 150 + "]" * 150 + "}}",
                                        encoding="utf-8")
    deep = tmp_path / "deep.yaml"
    deep.write_text("tools:\n- from: deep.json\nmessages:\n- role: user\n  content: hi\n", encoding="utf-8")
    done = run_cli(["render", str(deep), "-p", "openai"], cwd=tmp_path,
                   env={"PATH": "/usr/bin", "TOOLCHOICE_LIMIT_JSON_DEPTH": "1" + "0" * 18, "COLUMNS": "200"})
    assert done.returncode == 2, done
    assert "TOOLCHOICE_LIMIT_JSON_DEPTH='1000000000000000000' is longer than a limit takes (18 digits" in done.stderr, \
        done.stderr


# A base URL whose host is an A-label IDNA cannot read (`xn--zz`): httpx parses the URL and only decodes the host when
# it connects, so send said "internal_error: IDNAError: Invalid A-label" (exit 1, as a failed sample). It is bad
# input, refused before any connection as every other URL no client can send to.
def test_a_host_idna_cannot_read_is_refused_before_sending(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n- name: f\n  parameters: {type: object}\ntool_choice: required\nmessages:\n"
                        "- role: user\n  content: hi\n", encoding="utf-8")
    done = run_cli(["send", str(scenario), "-p", "openai", "--base-url", "http://xn--zz.com/v1", "--retries", "0"],
                   env={"OPENAI_API_KEY": "sk-adv14-idna-0123456789", "COLUMNS": "200", "PATH": "/usr/bin"})
    assert done.returncode == 2, done
    assert done.stderr.count("\n") == 1 and "cannot send to http://xn--zz.com/v1/chat/completions: the host " \
        "'xn--zz.com' is not a valid name" in done.stderr and "(check --base-url)" in done.stderr, done.stderr
    assert "internal_error" not in done.stdout + done.stderr and "sk-adv14" not in done.stdout + done.stderr
