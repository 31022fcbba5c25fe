"""providers/transport.py: key resolution, retry decisions and real HTTP against the stand-in.

Retry facts under test come from openai-python's ``_base_client.py`` (retried statuses 408, 409,
429, >=500; ``retry-after-ms`` preferred over ``retry-after``, which is seconds or an HTTP date;
``x-should-retry`` overrides) and ``_constants.py`` (INITIAL_RETRY_DELAY 0.5, MAX_RETRY_DELAY 8.0,
jitter ``1 - 0.25 * random()``); 529 is Anthropic's overloaded_error.
"""

from __future__ import annotations

import asyncio
import email.utils
import functools
import importlib.util
import json
import os
import socket
import subprocess
import sys
import time

import pytest

from toolchoice.providers.core import retry_policy, transport
from toolchoice.providers.core.model import Request, ToolchoiceError, wire_json
from toolchoice.providers.core.transport import RetryPolicy, Timeouts

from servers import StandIn, Step, send_blocking

KEY = "sk-canary-TRANSPORT-0123456789"
BODY = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Grüße — ✓"}], "tool_choice": "auto"}


def openai_request(url: str, **kw) -> Request:
    return Request("POST", url + "/chat/completions", {"Content-Type": "application/json",
                                                         "Authorization": "Bearer $OPENAI_API_KEY"},
                   BODY, key_env=("OPENAI_API_KEY",), **kw)


ENV = {"OPENAI_API_KEY": KEY}


class FakeSleep:
    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


# ---- prepare: keys -------------------------------------------------------------------------


def test_key_placeholder_resolved_and_redaction_map_built():
    p = transport.prepare(openai_request("http://x/v1"), "openai", ENV)
    assert p.headers["Authorization"] == f"Bearer {KEY}"
    assert p.secrets == {KEY: "$OPENAI_API_KEY"}
    assert p.content == wire_json(BODY).encode("utf-8")
    assert KEY not in repr(p)
    assert p.display_url == "http://x/v1/chat/completions"


def test_first_set_variable_wins_and_placeholder_names_the_first():
    req = Request("POST", "http://x/v1beta/models/m:generateContent", {"x-goog-api-key": "$GEMINI_API_KEY"}, {},
                  key_env=("GEMINI_API_KEY", "GOOGLE_API_KEY"))
    only_google = transport.prepare(req, "gemini", {"GOOGLE_API_KEY": "g-key-1"})
    assert only_google.headers["x-goog-api-key"] == "g-key-1"
    assert only_google.secrets == {"g-key-1": "$GEMINI_API_KEY"}
    both = transport.prepare(req, "gemini", {"GOOGLE_API_KEY": "g-key-1", "GEMINI_API_KEY": "gm-key-2"})
    assert both.headers["x-goog-api-key"] == "gm-key-2"
    empty_first = transport.prepare(req, "gemini", {"GEMINI_API_KEY": "", "GOOGLE_API_KEY": "g-key-1"})
    assert empty_first.headers["x-goog-api-key"] == "g-key-1"


def test_missing_key_names_every_variable_and_is_bad_input():
    req = Request("POST", "http://x", {"x-goog-api-key": "$GEMINI_API_KEY"}, {},
                  key_env=("GEMINI_API_KEY", "GOOGLE_API_KEY"))
    with pytest.raises(ToolchoiceError) as info:
        transport.prepare(req, "gemini", {})
    assert "gemini: no API key: set GEMINI_API_KEY or GOOGLE_API_KEY" in str(info.value)
    assert info.value.exit_code == 2
    assert "e.g. export" not in str(info.value)  # a remote host: no local-server advice


def test_missing_key_fails_before_any_connection():
    with StandIn("openai") as server:
        with pytest.raises(ToolchoiceError, match="OPENAI_API_KEY"):
            send_blocking(openai_request(server.base_url()), provider="openai", environ={})
        assert server.requests == []


def test_optional_key_drops_the_auth_header_when_unset():
    req = Request("POST", "http://localhost:11434/api/chat",
                  {"Content-Type": "application/json", "Authorization": "Bearer $OLLAMA_API_KEY"}, {},
                  key_env=("OLLAMA_API_KEY",), key_optional=True)
    p = transport.prepare(req, "ollama", {})
    assert "Authorization" not in p.headers and p.secrets == {}
    with_key = transport.prepare(req, "ollama", {"OLLAMA_API_KEY": "ol-key"})
    assert with_key.headers["Authorization"] == "Bearer ol-key"


def test_user_header_placeholders_are_resolved_as_secrets_or_named_when_missing():
    req = Request("POST", "http://x", {"Authorization": "Bearer ${OPENAI_API_KEY}", "OpenAI-Organization": "$ORG_ID",
                                        "X-Price": "$5"}, {}, key_env=("OPENAI_API_KEY",))
    p = transport.prepare(req, "openai", {"OPENAI_API_KEY": KEY, "ORG_ID": "org-secret"})
    assert p.headers["Authorization"] == f"Bearer {KEY}"
    assert p.headers["OpenAI-Organization"] == "org-secret"
    assert p.headers["X-Price"] == "$5"  # not a placeholder
    assert p.secrets["org-secret"] == "$ORG_ID"
    with pytest.raises(ToolchoiceError, match="ORG_ID"):
        transport.prepare(req, "openai", {"OPENAI_API_KEY": KEY})


def test_key_placeholder_in_url_is_resolved_but_shown_as_placeholder():
    req = Request("POST", "http://x/v1beta/models/m:generateContent?key=$GEMINI_API_KEY", {}, {},
                  key_env=("GEMINI_API_KEY",))
    p = transport.prepare(req, "gemini", {"GEMINI_API_KEY": "gm-url-key"})
    assert p.url.endswith("?key=gm-url-key")
    assert p.display_url.endswith("?key=$GEMINI_API_KEY")


def test_redact_replaces_every_occurrence_longest_first():
    secrets = {"abcdefgh": "$SHORT", "abcdefghijk": "$LONG"}
    assert transport.redact("x abcdefghijk y abcdefgh", secrets) == "x $LONG y $SHORT"
    assert transport.redact_data({"k abcdefgh": ["abcdefghijk", 1]}, secrets) == {"k $SHORT": ["$LONG", 1]}


# ---- retry decisions -----------------------------------------------------------------------


def test_retry_after_ms_wins_then_seconds_then_http_date():
    assert retry_policy.retry_after({"retry-after-ms": "250", "retry-after": "9"}) == (0.25, "retry-after-ms")
    assert retry_policy.retry_after({"Retry-After": "2"}) == (2.0, "retry-after")
    assert retry_policy.retry_after({"Retry-After": "1.5"}) == (1.5, "retry-after")
    now = 1_700_000_000.0
    date = email.utils.formatdate(now + 30, usegmt=True)
    assert retry_policy.retry_after({"Retry-After": date}, now=now) == (30.0, "retry-after")
    past = email.utils.formatdate(now - 30, usegmt=True)
    assert retry_policy.retry_after({"Retry-After": past}, now=now) == (0.0, "retry-after")
    assert retry_policy.retry_after({"Retry-After": "soon"}) is None
    assert retry_policy.retry_after({"retry-after-ms": "-5"}) is None
    assert retry_policy.retry_after({}) is None


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504, 529])
def test_retried_statuses(status):
    assert retry_policy.should_retry(status, {})


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_client_errors_are_not_retried(status):
    assert not retry_policy.should_retry(status, {})


def test_x_should_retry_overrides_the_status():
    assert not retry_policy.should_retry(503, {"x-should-retry": "false"})
    assert retry_policy.should_retry(400, {"X-Should-Retry": "true"})


def test_backoff_doubles_from_half_a_second_to_eight_with_at_most_25_percent_jitter():
    policy = RetryPolicy(retries=10)
    assert [retry_policy.backoff(n, policy, rng=lambda: 0.0) for n in range(6)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    assert [retry_policy.backoff(n, policy, rng=lambda: 1.0) for n in range(3)] == [0.375, 0.75, 1.5]


def test_next_wait_is_bounded_by_count_server_wait_and_total_budget():
    policy = RetryPolicy(retries=2, max_server_wait=60, total_budget=10)
    zero = lambda: 0.0  # noqa: E731
    assert retry_policy.next_wait(0, 429, {}, 0.0, policy, zero) == (0.5, "backoff")
    assert retry_policy.next_wait(2, 429, {}, 0.0, policy, zero) is None  # retries used up
    assert retry_policy.next_wait(0, 429, {"retry-after": "3"}, 0.0, policy, zero) == (3.0, "retry-after")
    assert retry_policy.next_wait(0, 429, {"retry-after": "61"}, 0.0, policy, zero) is None  # too long to wait
    assert retry_policy.next_wait(0, 429, {"retry-after": "3"}, 8.0, policy, zero) is None  # budget 10 s
    assert retry_policy.next_wait(0, 400, {}, 0.0, policy, zero) is None
    assert retry_policy.next_wait(0, None, {}, 0.0, policy, zero) == (0.5, "backoff")  # connection error


# ---- real HTTP -----------------------------------------------------------------------------


def test_body_bytes_headers_and_key_arrive_as_prepared():
    with StandIn("openai") as server:
        response = send_blocking(openai_request(server.base_url()), provider="openai", environ=ENV)
        assert response.ok and response.status == 200
        got = server.requests[0]
        assert got.method == "POST" and got.path == "/v1/chat/completions"
        assert got.raw == wire_json(BODY).encode("utf-8")
        assert got.headers["authorization"] == f"Bearer {KEY}"
        assert got.headers["content-type"] == "application/json"
        assert got.headers["user-agent"].startswith("toolchoice/")
        assert response.body["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "get_weather"
        assert len(response.attempts) == 1 and response.waits == []
        assert response.latency_ms > 0


def test_retry_after_ms_is_waited_for_real():
    with StandIn("openai") as server:
        server.script(Step.error("openai", 429, "rate limited", retry_after_ms="150"))
        response = send_blocking(openai_request(server.base_url()), provider="openai", environ=ENV)
        assert response.status == 200
        assert [a.status for a in response.attempts] == [429, 200]
        assert response.waits == [0.15]
        assert response.attempts[0].wait_source == "retry-after-ms"
        first, second = server.requests
        assert second.at - first.at >= 0.15


def test_retry_after_seconds_and_http_date_are_honoured():
    sleep = FakeSleep()
    date = email.utils.formatdate(time.time() + 5, usegmt=True)
    with StandIn("anthropic") as server:
        server.script(Step.error("anthropic", 529, "Overloaded", retry_after="2"),
                      Step.error("anthropic", 429, retry_after=date))
        req = Request("POST", server.base_url() + "/v1/messages", {"x-api-key": "$ANTHROPIC_API_KEY"}, {},
                      key_env=("ANTHROPIC_API_KEY",))
        response = send_blocking(req, provider="anthropic", environ={"ANTHROPIC_API_KEY": "a"}, sleep=sleep)
    assert [a.status for a in response.attempts] == [529, 429, 200]
    assert sleep.waits[0] == 2.0
    assert 3.0 <= sleep.waits[1] <= 5.0  # the date is whole seconds, minus the time spent so far
    assert [a.wait_source for a in response.attempts] == ["retry-after", "retry-after", None]


def test_exponential_backoff_until_retries_run_out():
    sleep = FakeSleep()
    with StandIn("openai") as server:
        server.script(*[Step.error("openai", 503, "unavailable") for _ in range(5)])
        response = send_blocking(openai_request(server.base_url()), provider="openai", environ=ENV,
                                  policy=RetryPolicy(retries=3), sleep=sleep, rng=lambda: 0.0)
        assert len(server.requests) == 4
    assert response.status == 503 and not response.ok
    assert sleep.waits == [0.5, 1.0, 2.0]
    assert response.body["error"]["message"] == "unavailable"


@pytest.mark.parametrize("status", [400, 401, 404, 422])
def test_client_errors_are_final_at_once(status):
    sleep = FakeSleep()
    with StandIn("openai") as server:
        server.script(Step.error("openai", status))
        response = send_blocking(openai_request(server.base_url()), provider="openai", environ=ENV, sleep=sleep)
        assert len(server.requests) == 1
    assert response.status == status and sleep.waits == []


def test_a_server_wait_beyond_the_limit_is_not_waited_for():
    sleep = FakeSleep()
    with StandIn("openai") as server:
        server.script(Step.error("openai", 429, retry_after="3600"))
        response = send_blocking(openai_request(server.base_url()), provider="openai", environ=ENV, sleep=sleep)
    assert response.status == 429 and sleep.waits == [] and len(response.attempts) == 1


def test_total_budget_stops_retrying():
    sleep = FakeSleep()
    with StandIn("openai") as server:
        server.script(Step.error("openai", 429, retry_after="2"))
        response = send_blocking(openai_request(server.base_url()), provider="openai", environ=ENV, sleep=sleep,
                                  policy=RetryPolicy(total_budget=1.0))
    assert response.status == 429 and sleep.waits == []


def test_dropped_connection_is_retried():
    with StandIn("openai") as server:
        server.script(Step.dropped())
        response = send_blocking(openai_request(server.base_url()), provider="openai", environ=ENV,
                                  sleep=FakeSleep())
        assert len(server.requests) == 2
    assert response.status == 200
    assert response.attempts[0].status is None
    assert response.attempts[0].error.startswith("connection dropped")
    assert response.attempts[0].wait_source == "backoff"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_connection_refused_after_all_retries_comes_back_as_a_transport_error():
    sleep = FakeSleep()
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    response = send_blocking(openai_request(url), provider="openai", environ=ENV, sleep=sleep, rng=lambda: 0.0)
    assert response.status is None and not response.ok
    assert len(response.attempts) == 3 and sleep.waits == [0.5, 1.0]
    assert response.transport_error.startswith("connection failed")
    assert "/v1/chat/completions" in response.transport_error


def test_read_timeout_is_reported_and_bounded():
    with StandIn("openai") as server:
        # the server stalls 60 s per request; two 0.2 s read timeouts end the send far sooner: the bound is on the
        # server's side (not waited out), half of one stall, so load cannot reach it
        server.script(Step(delay=60.0, body={}), Step(delay=60.0, body={}))
        started = time.monotonic()
        response = send_blocking(openai_request(server.base_url()), provider="openai", environ=ENV,
                                  timeouts=Timeouts(connect=1.0, read=0.2), policy=RetryPolicy(retries=1),
                                  sleep=FakeSleep())
    assert response.status is None
    assert [a.error.startswith("read timeout") for a in response.attempts] == [True, True]
    assert time.monotonic() - started < 30


def test_malformed_json_and_html_bodies_come_back_as_text():
    with StandIn("openai") as server:
        server.script(Step.malformed(), Step.html(404))
        bad = send_blocking(openai_request(server.base_url()), provider="openai", environ=ENV)
        html = send_blocking(openai_request(server.base_url()), provider="openai", environ=ENV)
    assert bad.status == 200 and bad.body is None and bad.json_error.startswith("not JSON")
    assert bad.text.startswith('{"id": "chatcmpl-1"')
    assert html.status == 404 and html.body is None and "<title>502 Bad Gateway</title>" in html.text


def test_an_echoed_key_is_redacted_from_body_text_and_headers():
    echo = {"error": {"message": f"Incorrect API key provided: {KEY}.", "type": "invalid_request_error"}}
    with StandIn("openai") as server:
        server.script(Step(status=401, body=echo, headers={"X-Debug": KEY}))
        response = send_blocking(openai_request(server.base_url()), provider="openai", environ=ENV)
    # the body is kept as received for parsing (issue 16, finding 5); what is shown is redacted
    assert response.body["error"]["message"] == f"Incorrect API key provided: {KEY}."
    assert KEY not in response.shown_text() and KEY not in json.dumps(response.shown_body())
    assert KEY not in str(response.headers)
    assert response.shown_body()["error"]["message"] == "Incorrect API key provided: $OPENAI_API_KEY."


def test_an_escaped_echo_of_the_key_is_redacted_too():
    key = "sk-with/slash-0123456789"
    with StandIn("openai") as server:
        server.script(Step(status=401, body='{"error": {"message": "bad key sk-with\\/slash-0123456789"}}'))
        response = send_blocking(openai_request(server.base_url()), provider="openai",
                                  environ={"OPENAI_API_KEY": key})
    assert response.shown_body()["error"]["message"] == "bad key $OPENAI_API_KEY"
    assert "$OPENAI_API_KEY" in response.shown_text() and "0123456789" not in response.shown_text()


def test_a_bad_url_is_bad_input_not_a_crash():
    with pytest.raises(ToolchoiceError, match="cannot send to"):
        send_blocking(openai_request("ftp://127.0.0.1:1/v1"), provider="openai", environ=ENV)


def test_async_send_retries_like_the_blocking_one():
    waits: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        waits.append(seconds)

    async def main(url: str):
        async with transport.new_async_client(Timeouts(), 2) as client:
            return await asyncio.gather(*(transport.send_async(openai_request(url), provider="openai", environ=ENV,
                                                               sleep=fake_sleep, client=client, rng=lambda: 0.0)
                                          for _ in range(2)))

    with StandIn("openai") as server:
        server.script(Step.error("openai", 500))  # whichever request comes first gets it
        first, second = asyncio.run(main(server.base_url()))
        assert len(server.requests) == 3
    assert first.status == second.status == 200
    assert sorted(len(r.attempts) for r in (first, second)) == [1, 2]
    assert waits == [0.5]


def test_transport_is_not_imported_by_the_core_package():
    code = "import sys, toolchoice.providers, toolchoice.providers.core.registry; print('httpx' in sys.modules)"
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---- TLS: verification always ----------------------------------------------------------------


@pytest.fixture(scope="module")
def tls_server(tmp_path_factory):
    """An HTTPS server on 127.0.0.1 with a fresh self-signed certificate (for that IP only) that no
    trust store holds; yields (base URL, certificate file)."""
    import shutil
    import ssl
    import subprocess
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make a certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=toolchoice test",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    body = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"},
                                    "finish_reason": "stop"}]}).encode()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            self.rfile.read(int(self.headers.get("content-length", 0)))
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        def handle_error(self, request: object, client_address: object) -> None:
            pass  # a client refusing the certificate is what some tests want

    server = Server(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    # polled every 20 ms (the default 0.5 s is what shutdown() waits at the end)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
    yield f"https://127.0.0.1:{server.server_address[1]}/v1", cert
    server.shutdown()
    server.server_close()


def _send_with_client(made: str, url: str, urls: list[str] | None = None) -> transport.Response:
    async def main() -> transport.Response:
        timeouts = Timeouts(connect=5.0, read=5.0)
        # one client with httpx's own context, or the runner's clients sharing one context (in flight 6: 2 clients),
        # made for ``urls`` when given
        clients = [transport.new_async_client(timeouts, 1)] if made == "one" else \
            transport.new_async_clients(timeouts, 6, urls=urls)
        try:
            return await transport.send_async(openai_request(url), provider="openai", environ=ENV, client=clients[-1],
                                              policy=RetryPolicy(retries=0))
        finally:
            for client in clients:
                await client.aclose()

    return asyncio.run(main())


@pytest.mark.parametrize("made", ["one", "shared-context"])
def test_tls_is_verified_however_the_clients_were_made(tls_server, monkeypatch, made):
    """A lone client and the runner's clients that share one TLS context verify alike, with the trust
    store httpx's default context uses ($SSL_CERT_FILE here, else certifi): an unknown certificate and
    a host name the certificate does not name are refused."""
    url, cert = tls_server
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    unknown = _send_with_client(made, url)
    assert unknown.status is None and "CERTIFICATE_VERIFY_FAILED" in unknown.transport_error
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    trusted = _send_with_client(made, url)
    assert trusted.status == 200 and trusted.body["choices"][0]["message"]["content"] == "hi"
    wrong_name = _send_with_client(made, url.replace("127.0.0.1", "localhost"))
    assert wrong_name.status is None and "CERTIFICATE_VERIFY_FAILED" in wrong_name.transport_error
    assert "127.0.0.1" in wrong_name.transport_error or "match" in wrong_name.transport_error


OWN_PROCESS_TLS = """
import asyncio, ssl, sys
from toolchoice.providers.core import http_clients, transport
from toolchoice.providers.core.model import Request
url, own = sys.argv[1], sys.argv[2] == "own"
http_clients.OWN_PROCESS = own
http_clients.load_aio_transport()
import aiohttp

async def main():
    client = transport.new_async_client(transport.Timeouts(connect=5.0, read=5.0), 1, aio=True)
    request = Request("POST", url + "/chat/completions", {"Content-Type": "application/json"}, {"model": "m"})
    try:
        ours = await transport.send_async(request, provider="openai", client=client,
                                          policy=transport.RetryPolicy(retries=0))
    finally:
        await client.aclose()
    async with aiohttp.ClientSession() as session:  # aiohttp's own module-wide default contexts
        try:
            async with session.post(url + "/chat/completions", json={"model": "m"}) as response:
                theirs = str(response.status)
        except aiohttp.ClientConnectorCertificateError:
            theirs = "refused"
        async with session.post(url + "/chat/completions", json={"model": "m"}, ssl=False) as response:
            unverified = str(response.status)  # CERT_NONE: verifies nothing, with or without default paths
    standard = ssl.create_default_context
    restored = (standard.__module__ == "ssl" and standard.__qualname__ == "create_default_context"
                and "set_default_verify_paths" not in vars(ssl.SSLContext))  # _ssl._SSLContext's, inherited
    # what the CERT_NONE default loaded: the trust store $SSL_CERT_FILE names, unless nothing was read
    loaded = aiohttp.connector._SSL_CONTEXT_UNVERIFIED.cert_store_stats()["x509_ca"]
    print(restored, ours.status, theirs, unverified, loaded)

asyncio.run(main())
"""


@pytest.mark.skipif(importlib.util.find_spec("aiohttp") is None, reason="aiohttp is not installed")
def test_a_process_of_its_own_imports_aiohttp_without_a_ca_read_and_still_verifies_tls(tls_server, monkeypatch):
    """In the command's own process aiohttp's import-time default contexts (two reads of the CA bundle
    toolchoice never uses) read nothing: the verified one trusts nothing, the CERT_NONE one (``ssl=False``)
    still verifies nothing; toolchoice's connections still verify against the trust store the environment
    names, and `ssl` is the standard module again. Elsewhere (a library caller) aiohttp is imported as it is."""
    url, cert = tls_server
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    seen = {}
    for mode in ("own", "library"):
        result = subprocess.run([sys.executable, "-c", OWN_PROCESS_TLS, url, mode], capture_output=True, text=True,
                                timeout=60, env=dict(os.environ))
        assert result.returncode == 0, result.stderr
        seen[mode] = result.stdout.split()
    assert seen["own"] == ["True", "200", "refused", "200", "0"]
    assert seen["library"] == ["True", "200", "200", "200", "1"]


PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY",
                   "NO_PROXY")


def _without_proxies(monkeypatch) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)


def test_clients_for_plain_http_read_no_ca_bundle_and_never_let_tls_through(tls_server, monkeypatch):
    """Clients made for plain http URLs (no proxy set) send to them as ever; should such a client meet
    TLS after all, it refuses even a certificate the trust store accepts, where the runner's usual
    clients (made for an https URL) take it."""
    _without_proxies(monkeypatch)
    https_url, cert = tls_server
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    with StandIn("openai") as server:
        plain = _send_with_client("shared", server.base_url(), [server.base_url()])
    assert plain.status == 200 and len(server.requests) == 1
    assert _send_with_client("shared", https_url, [https_url]).status == 200
    refused = _send_with_client("shared", https_url, ["http://127.0.0.1:1/v1"])
    assert refused.status is None and "CERTIFICATE_VERIFY_FAILED" in refused.transport_error


@pytest.mark.parametrize("variable", ["HTTP_PROXY", "https_proxy", "ALL_PROXY", "NO_PROXY", None])
def test_plain_http_only_sees_the_proxies_httpx_takes_from_the_environment(monkeypatch, variable):
    """Any proxy httpx would take from the environment (its own get_environment_proxies: a value that
    is not None) may be https, so the CA bundle is needed; NO_PROXY alone names none."""
    from httpx._utils import get_environment_proxies

    _without_proxies(monkeypatch)
    if variable:
        monkeypatch.setenv(variable, "https://proxy.invalid:3128" if variable != "NO_PROXY" else "127.0.0.1")
    httpx_proxies = any(value is not None for value in get_environment_proxies().values())
    assert transport.plain_http_only(["http://127.0.0.1:8080/v1"]) is (not httpx_proxies)
    assert httpx_proxies is (variable not in (None, "NO_PROXY"))
    assert transport.plain_http_only(["http://127.0.0.1:8080/v1", "https://api.openai.com/v1"]) is False


def test_an_attempt_is_bounded_as_a_whole_when_the_body_trickles():
    """Each piece of the body arrives within the read timeout, the whole never does: the attempt ends
    after connect + read timeout (0.6 s here), not after the 60 s the server would take."""
    import threading

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    stop = threading.Event()

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1200\r\n\r\n")
            for _ in range(1200):  # a byte each 0.05 s: the whole body would take 60 s
                if stop.wait(0.05):
                    return
                try:
                    connection.sendall(b" ")
                except OSError:
                    return

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    started = time.monotonic()
    try:
        response = send_blocking(openai_request(f"http://127.0.0.1:{listener.getsockname()[1]}/v1"), provider="openai",
                                 environ=ENV, timeouts=Timeouts(connect=0.2, read=0.4), policy=RetryPolicy(retries=0))
    finally:
        stop.set()
        listener.close()
    took = time.monotonic() - started
    assert response.status is None
    assert response.transport_error.startswith("read timeout: the response as a whole took longer than the timeout")
    assert 0.5 < took < 30  # not before the timeout; far before the 60 s trickle ends (one-sided: load lengthens)


# ---- bodies as sent: compressed, bombs, other charsets — on httpx's connections and on aiohttp's ---------

def _send_with(aio: bool, request: Request, **kw) -> transport.Response:
    async def go() -> transport.Response:
        async with transport.new_async_client(Timeouts.from_total(30), 2, aio=aio) as client:
            return await transport.send_async(request, provider="openai", environ=ENV, client=client, **kw)

    return asyncio.run(go())


@pytest.mark.parametrize("aio", [False, True], ids=["httpx", "aiohttp"])
@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_a_compressed_reply_is_read_decoded(aio, encoding):
    import gzip
    import zlib

    reply = {"id": "x", "choices": [{"message": {"role": "assistant", "content": "café " * 200}}]}
    raw = json.dumps(reply).encode("utf-8")
    packed = gzip.compress(raw) if encoding == "gzip" else zlib.compress(raw)
    with StandIn("openai", default=Step(body=packed, headers={"Content-Encoding": encoding})) as server:
        response = _send_with(aio, openai_request(server.url))
    assert response.status == 200 and response.body == reply and response.headers["content-encoding"] == encoding


@functools.cache  # the same bytes for both clients: ~0.1 s of CPU a compression
def _gzip_bomb_of_32_mib() -> bytes:
    import gzip

    return gzip.compress(b"\0" * (32 * 1024 * 1024), compresslevel=9)


@pytest.mark.parametrize("aio", [False, True], ids=["httpx", "aiohttp"])
def test_a_gzip_bomb_stops_at_the_size_cap_on_either_client(aio):
    bomb = _gzip_bomb_of_32_mib()
    with StandIn("openai", default=Step(body=bomb, headers={"Content-Encoding": "gzip"})) as server:
        response = _send_with(aio, openai_request(server.url), limits=transport.SendLimits(max_body_bytes=1024 * 1024))
    assert response.status is None and "larger than 1 MiB once decoded" in response.transport_error
    assert response.text == ""


@pytest.mark.parametrize("aio", [False, True], ids=["httpx", "aiohttp"])
def test_a_reply_in_another_charset_is_read_in_it(aio):
    text = '{"error": {"message": "caf\u00e9 ferm\u00e9"}}'
    step = Step(status=400, body=text.encode("latin-1"), content_type="application/json; charset=ISO-8859-1")
    with StandIn("openai", default=step) as server:
        response = _send_with(aio, openai_request(server.url), policy=RetryPolicy(retries=0))
    assert response.status == 400 and response.body == {"error": {"message": "caf\u00e9 ferm\u00e9"}}


@pytest.mark.parametrize("aio", [False, True], ids=["httpx", "aiohttp"])
def test_a_proxy_from_the_environment_carries_the_request_on_either_client(monkeypatch, aio):
    """HTTP_PROXY names a forwarding proxy on 127.0.0.1: the request goes to it in absolute form, with the key,
    and the answer comes back through it, through httpx's connections and aiohttp's (aio_transport.fetch)."""
    import http.client
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import urlsplit

    seen: list[tuple[str, str | None]] = []

    class Forward(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            return

        def do_POST(self) -> None:  # noqa: N802
            seen.append((self.path, self.headers.get("Authorization")))
            target = urlsplit(self.path)  # a proxy is sent the absolute URL
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("proxy-connection", "connection")}
            upstream.request("POST", target.path, body=body, headers=headers)
            reply = upstream.getresponse()
            data = reply.read()
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.getheader("Content-Type") or "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            upstream.close()

    proxy = ThreadingHTTPServer(("127.0.0.1", 0), Forward)
    proxy.daemon_threads = True
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    try:
        _without_proxies(monkeypatch)
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy.server_address[1]}")
        with StandIn("openai") as server:
            url = server.url
            response = _send_with(aio, openai_request(url))
            assert response.status == 200 and len(server.requests) == 1
    finally:
        proxy.shutdown()
        proxy.server_close()
    assert [path for path, _ in seen] == [url + "/chat/completions"]
    assert seen[0][1] == f"Bearer {KEY}"
