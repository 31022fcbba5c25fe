"""`toolchoice mock` under hostile or careless clients on 127.0.0.1 (trial 7e): raw sockets speaking broken,
old or slow HTTP, a client that never reads, more connections than the server takes, keys in the headers, and
Ctrl-C / SIGTERM with a request in flight. Everything runs against a real server on a thread of this process
(``running_mock``), except the signals, which need the command's own process.

The truth is HTTP's, not the mock's: RFC 9112 (section 6.3: a Content-Length that is not a number, or two that
differ, is an unrecoverable framing error, answered 400 and the connection closed; 7.1: chunk sizes are hex
and a chunked body may end with trailer lines; 9.3: an HTTP/1.0 connection closes after the answer unless the
client asked to keep it alive; 7: a client of HTTP/1.0 cannot read chunked framing) and RFC 9110 (408, 503).
"""

from __future__ import annotations

import json
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from toolchoice.providers.core.mock.server import running_mock

KEY = "sk-hostile-client-secret-6a5b4c3d2e1f"
CHAT = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],
        "tool_choice": "required"}
BODY = json.dumps(CHAT).encode()


def _port(url: str) -> int:
    return int(url.split(":")[2].split("/")[0])


def _exchange(port: int, data: bytes, wait: float = 3.0) -> tuple[bytes, bool]:
    """Send ``data``, read until the server closes or ``wait`` passes: (bytes read, whether it closed)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(data)
        got = b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except socket.timeout:
            return got, False
        except ConnectionResetError:
            return got, True
    return got, True


def _status(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1])


def _error_message(reply: bytes) -> str:
    return json.loads(reply.split(b"\r\n\r\n", 1)[1])["error"]["message"]


@pytest.fixture(scope="module")
def mock() -> Iterator[Any]:
    with running_mock("openai") as served:
        yield served


POST = b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"


# ---- framing errors: a 400 in the API's envelope, never a silent close ------------------------------------


@pytest.mark.parametrize("head, why", [
    (POST + b"Content-Length: -1\r\n\r\n", "bad Content-Length"),
    (POST + b"Content-Length: 1e3\r\n\r\n", "bad Content-Length"),
    (POST + b"Content-Length: 5\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY,
     "conflicting Content-Length headers"),
    (POST + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n", "bad chunk size in a chunked body"),
    (POST + b"Transfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n", "bad chunk size in a chunked body"),
    (POST + b"Transfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n",
     "a chunk of a chunked body does not end where its size says"),
])
def test_broken_framing_is_answered_400_and_closed(mock: Any, head: bytes, why: str) -> None:
    reply, closed = _exchange(_port(mock.base_url), head)
    assert _status(reply) == 400 and closed
    assert _error_message(reply) == why
    assert b"connection: close" in reply.split(b"\r\n\r\n")[0].lower()


# ---- Host: RFC 9112 section 3.2 ---------------------------------------------------------------------------
# "A server MUST respond with a 400 (Bad Request) status code to any HTTP/1.1 request message that lacks a Host
# header field and to any request message that contains more than one Host header field line or a Host header
# field with an invalid field value." (https://www.rfc-editor.org/rfc/rfc9112#section-3.2, read 2026-11-28)
# Until 2026-11-28 two Host lines were joined into one value and answered 200, as was a request with none.

POST_NO_HOST = b"POST /v1/chat/completions HTTP/1.1\r\n"
WHOLE = b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY


@pytest.mark.parametrize("request_bytes, why", [
    (POST + b"Host: 127.0.0.1\r\n" + WHOLE, "2 Host header lines"),  # the same value twice is two lines still
    (POST + b"host: evil.example\r\n" + WHOLE, "2 Host header lines"),  # a field name's case does not matter
    (POST_NO_HOST + b"Host: a\r\nX: 1\r\nHOST: b\r\nHost: c\r\n" + WHOLE, "3 Host header lines"),
    (b"POST /v1/chat/completions HTTP/1.0\r\nHost: a\r\nHost: b\r\n" + WHOLE, "2 Host header lines"),  # any version
    (POST_NO_HOST + WHOLE, "an HTTP/1.1 request without a Host header"),
    (POST_NO_HOST + b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n" % (len(BODY), BODY),
     "an HTTP/1.1 request without a Host header"),
])
def test_a_request_without_one_host_line_is_answered_400_and_closed(mock: Any, request_bytes: bytes,
                                                                      why: str) -> None:
    """The 400 in the API's envelope, the connection closed (a request after it on the connection is not read),
    and no record: the request was not judged. The body was read first, so the 400 is not lost to a reset."""
    before = len(mock.records)
    reply, closed = _exchange(_port(mock.base_url), request_bytes + POST + WHOLE)
    assert _status(reply) == 400 and closed and b"HTTP/1.1 200" not in reply, reply[:300]
    assert _error_message(reply).startswith(why) and "RFC 9112 section 3.2" in _error_message(reply)
    assert b"connection: close" in reply.split(b"\r\n\r\n")[0].lower()
    assert len(mock.records) == before


def test_host_values_are_judged_by_the_field_s_grammar(mock: Any) -> None:
    """Host = uri-host [ ":" port ] (RFC 9110 7.2): a value outside it is 'an invalid field value', a 400 that
    does not quote it (a key pasted into Host stays out of the answer); an IP literal, a name with a port, an
    empty port or an empty value (a target with no authority, RFC 9112 3.2) are taken."""
    port = _port(mock.base_url)
    for value in (b"a b", b"example.com/path", b"user@example.com", b"example.com:80x", b"[::1", b"%zz",
                  b"\xc3\xa9.example", KEY.encode() + b" x"):
        reply, closed = _exchange(port, POST_NO_HOST + b"Host: " + value + b"\r\n" + WHOLE)
        assert _status(reply) == 400 and closed, value
        assert _error_message(reply).startswith("the Host header's value is not a host[:port]"), value
        assert value not in reply.split(b"\r\n\r\n", 1)[1], value
    for value in (b"127.0.0.1:%d" % port, b"[::1]:8080", b"[v1.x:y]", b"localhost", b"example.com:", b"",
                  b"xn--9ca.example", b"a%41b"):
        reply, _ = _exchange(port, POST_NO_HOST + b"Host: " + value + b"\r\nConnection: close\r\n" + WHOLE)
        assert _status(reply) == 200, value


def test_http10_may_leave_host_out(mock: Any) -> None:
    """RFC 9112 3.2 asks for Host in HTTP/1.1 messages only."""
    reply, closed = _exchange(_port(mock.base_url), b"POST /v1/chat/completions HTTP/1.0\r\n" + WHOLE)
    assert _status(reply) == 200 and closed


def test_two_host_lines_with_expect_continue_get_the_400_before_any_body(mock: Any) -> None:
    """The client holds its body back until 100 Continue: the 400 comes instead, with no 100 before it."""
    reply, closed = _exchange(_port(mock.base_url), POST + b"Host: b\r\nExpect: 100-continue\r\n"
                              b"Content-Length: %d\r\n\r\n" % len(BODY))
    assert reply.startswith(b"HTTP/1.1 400 ") and closed, reply[:200]
    assert _error_message(reply).startswith("2 Host header lines")


def test_an_http_version_it_does_not_speak_is_505(mock: Any) -> None:
    reply, closed = _exchange(_port(mock.base_url), b"POST /v1/chat/completions HTTP/2.0\r\nContent-Length: 0\r\n\r\n")
    assert _status(reply) == 505 and closed


def test_a_chunked_body_with_trailers_leaves_the_connection_usable(mock: Any) -> None:
    """RFC 9112 7.1.2: trailer lines follow the last chunk; the next request on the connection is read whole."""
    chunked = POST + b"Transfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\nX-Checksum: 1\r\nX-Other: 2\r\n\r\n" % (
        len(BODY), BODY)
    second = POST + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(BODY) + BODY
    reply, closed = _exchange(_port(mock.base_url), chunked + second)
    assert closed and reply.count(b"HTTP/1.1 200 OK") == 2, reply[-300:]


# ---- HTTP/1.0 ---------------------------------------------------------------------------------------------


def test_http10_connection_closes_after_the_answer(mock: Any) -> None:
    reply, closed = _exchange(_port(mock.base_url), b"POST /v1/chat/completions HTTP/1.0\r\nContent-Length: %d"
                              b"\r\n\r\n%s" % (len(BODY), BODY), wait=5)
    assert _status(reply) == 200 and closed  # before: kept open until the idle timeout (300 s)


def test_http10_keep_alive_is_kept_when_asked(mock: Any) -> None:
    request = (b"POST /v1/chat/completions HTTP/1.0\r\nConnection: keep-alive\r\nContent-Length: %d\r\n\r\n%s"
               % (len(BODY), BODY))
    reply, closed = _exchange(_port(mock.base_url), request, wait=1)
    assert _status(reply) == 200 and not closed
    assert b"connection: keep-alive" in reply.split(b"\r\n\r\n")[0].lower()


def test_http10_stream_has_no_chunked_framing(mock: Any) -> None:
    """An HTTP/1.0 client reads the body until the close: the SSE events as they are, no chunk sizes."""
    body = json.dumps({**CHAT, "stream": True}).encode()
    reply, closed = _exchange(_port(mock.base_url), b"POST /v1/chat/completions HTTP/1.0\r\nContent-Length: %d"
                              b"\r\n\r\n%s" % (len(body), body), wait=5)
    head, _, events = reply.partition(b"\r\n\r\n")
    assert closed and b"transfer-encoding" not in head.lower()
    assert events.startswith(b"data: {") and events.endswith(b"data: [DONE]\n\n")
    assert all(json.loads(e[6:])["object"] == "chat.completion.chunk" for e in events.split(b"\n\n")[:-2])


def test_http10_through_the_proxy_gets_the_stream_unframed() -> None:
    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server

    body = json.dumps({**CHAT, "stream": True}).encode()
    with running_mock("openai") as upstream:
        handler = ProxyHandler("openai", upstream.base_url, None)
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            reply, closed = _exchange(_port(proxy.base_url), b"POST /v1/chat/completions HTTP/1.0\r\n"
                                      b"Content-Length: %d\r\n\r\n%s" % (len(body), body), wait=5)
    head, _, events = reply.partition(b"\r\n\r\n")
    assert closed and _status(reply) == 200 and b"transfer-encoding" not in head.lower()
    assert events.startswith(b"data: {") and events.endswith(b"data: [DONE]\n\n")
    assert proxy.records[0]["verdict"] == "obeyed"


# ---- time and size bounds -----------------------------------------------------------------------------------


def test_a_byte_a_second_client_gets_408_and_an_idle_one_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLCHOICE_LIMIT_MOCK_REQUEST_SECONDS", "1")
    with running_mock("openai") as served:
        port = _port(served.base_url)
        idle = socket.create_connection(("127.0.0.1", port))
        # one byte every 0.1 s, never the end of the head: all of it would take over 60 s. Counted, not timed: the
        # mock's 1 s limit answers 408 while the client is still sending, far from its end, however loaded
        trickle = POST + b"X-Slow: " + b"a" * 600
        sent = 0
        with socket.create_connection(("127.0.0.1", port), timeout=5) as slow:
            try:
                for byte in trickle:
                    slow.sendall(bytes([byte]))
                    sent += 1
                    if select.select([slow], [], [], 0.1)[0]:  # the answer came
                        break
            except (BrokenPipeError, ConnectionResetError):
                pass
            reply = slow.recv(65536)
        assert _status(reply) == 408 and sent < len(trickle), (reply[:40], sent)
        idle.sendall(POST + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(BODY) + BODY)
        idle.settimeout(5)
        assert idle.recv(65536).startswith(b"HTTP/1.1 200 OK")  # idle for longer than a request may take
        idle.close()


def test_a_client_that_never_reads_is_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Responses mock echoes the request's tools, so a request of many tools gets an answer of megabytes;
    a client that never reads it must not hold the connection (and the answer) for ever."""
    monkeypatch.setenv("TOOLCHOICE_LIMIT_MOCK_WRITE_SECONDS", "1")
    tools = [{"type": "function", "name": f"tool_{i}", "parameters": {"type": "object"}} for i in range(8000)]
    body = json.dumps({"model": "gpt-5", "input": "hi", "tools": tools}).encode()
    with running_mock("openai-responses") as served:
        # small socket buffers on both ends (accepted sockets inherit the listener's): the answer cannot all
        # go into the kernel, as a large one cannot on any machine
        served.server._server.sockets[0].setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)  # noqa: SLF001
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", _port(served.base_url)))
        sock.sendall(b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        deadline = time.monotonic() + 10
        while not served.records and time.monotonic() < deadline:
            time.sleep(0.02)
        while served.server._writers and time.monotonic() < deadline:  # noqa: SLF001 - the server's own state
            time.sleep(0.05)
        assert served.records and not served.server._writers  # noqa: SLF001 - cut off: no connection left open
        sock.settimeout(5)
        got = b""
        try:
            while chunk := sock.recv(1 << 20):
                got += chunk
        except ConnectionResetError:
            pass
        sock.close()
        length = int(got.split(b"content-length: ")[1].split(b"\r\n")[0])
        assert len(got.split(b"\r\n\r\n", 1)[1]) < length  # the answer was cut, not written whole


def test_connections_past_the_limit_get_503_and_the_server_stays_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLCHOICE_LIMIT_MOCK_CONNECTIONS", "4")
    with running_mock("openai") as served:
        port = _port(served.base_url)
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
        time.sleep(0.2)
        reply, closed = _exchange(port, POST + b"Content-Length: 0\r\n\r\n")
        assert _status(reply) == 503 and closed
        assert "connections are open" in _error_message(reply)
        held.pop().close()
        time.sleep(0.2)
        reply, _ = _exchange(port, POST + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(BODY) + BODY)
        assert _status(reply) == 200
        for sock in held:
            sock.close()


# ---- keys and text from the client ----------------------------------------------------------------------


def test_a_key_in_the_headers_is_never_echoed(mock: Any) -> None:
    """Whatever the request (answered, refused, unknown path, unreadable head), the key sent in Authorization
    is in no answer and no record."""
    auth = b"Authorization: Bearer %s\r\n" % KEY.encode()
    port = _port(mock.base_url)
    before = len(mock.records)
    requests = [
        POST + auth + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(BODY) + BODY,
        POST + auth + b"Content-Length: 7\r\nConnection: close\r\n\r\nnot json",
        b"POST /v1/%s/chat HTTP/1.1\r\nHost: x\r\n" % KEY.encode()[:6] + auth + b"Connection: close\r\n\r\n",
        POST + auth + b"Content-Length: -3\r\n\r\n",
        POST + auth + b"X: " + b"a" * 70000 + b"\r\n\r\n",
    ]
    for request in requests:
        reply, _ = _exchange(port, request)
        assert reply and KEY.encode() not in reply
    assert len(mock.records) > before and KEY not in json.dumps(mock.records)


# ---- Ctrl-C and SIGTERM with requests in flight -------------------------------------------------------------


def test_stopping_with_a_request_in_flight_logs_nothing(caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    """The block ends while a scripted delay holds an answer: the connection is cut and its task ends quietly
    (before, its task was left pending on a closed loop: "Task was destroyed but it is pending!" once collected;
    in the command, asyncio's stream callback logged the CancelledError's traceback)."""
    import gc

    from toolchoice.providers.core.mock.script import load_script

    script = tmp_path / "slow.yaml"
    script.write_text("replies:\n  - {delay_ms: 5000, text: slow}\n")
    with running_mock("openai", script=load_script(script)) as served:
        sock = socket.create_connection(("127.0.0.1", _port(served.base_url)))
        sock.sendall(POST + b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY)
        deadline = time.monotonic() + 5
        while not served.records and time.monotonic() < deadline:
            time.sleep(0.02)
    sock.close()
    gc.collect()
    assert served.records and [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")] == []


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_with_a_request_in_flight_exits_0_without_traceback(sig: signal.Signals, tmp_path: Path) -> None:
    script = tmp_path / "slow.yaml"
    script.write_text("replies:\n  - {delay_ms: 5000, text: slow}\n")
    proc = subprocess.Popen([sys.executable, "-m", "toolchoice.cli", "mock", "-p", "openai", "--script", str(script)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().strip()  # type: ignore[union-attr]
        sock = socket.create_connection(("127.0.0.1", _port(url)))
        sock.sendall(POST + b"Authorization: Bearer %s\r\nContent-Length: %d\r\n\r\n" % (KEY.encode(), len(BODY))
                     + BODY)
        line = proc.stdout.readline()  # type: ignore[union-attr]  # the record is out: the answer is in flight
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
        sock.close()
    finally:
        proc.kill()
    assert line.startswith("#1  /v1/chat/completions")
    assert proc.returncode == 0
    assert err == "toolchoice mock: stopped after 1 request, 0 refused\n"  # no traceback, no asyncio log
    assert KEY not in out + err + line


def test_many_requests_at_once_are_all_answered(mock: Any) -> None:
    """64 clients at once, each on its own connection, all answered 200 (the bench measures the speed)."""
    port = _port(mock.base_url)
    replies: list[bytes] = []

    def one() -> None:
        replies.append(_exchange(port, POST + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(BODY)
                                 + BODY)[0])

    threads = [threading.Thread(target=one) for _ in range(64)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(replies) == 64 and all(r.startswith(b"HTTP/1.1 200 OK") for r in replies)


@pytest.mark.parametrize("format", ["pretty", "jsonl"])
def test_markup_and_escapes_in_a_request_print_as_data(mock: Any, format: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The console log of `toolchoice mock` (its printer, fed the records of real requests): Rich markup stays
    literal, terminal sequences never reach the terminal raw."""
    from toolchoice.cli.mock_cmd import MockFormat, _printer

    name = "[bold red]get_weather[/bold red]\x1b[2J\x1b]8;;http://x\x07"
    tools = [{"type": "function", "function": {"name": name, "parameters": {"type": "object"}}}]
    body = json.dumps({**CHAT, "tools": tools, "tool_choice": "auto"}).encode()
    port = _port(mock.base_url)
    before = len(mock.records)
    _exchange(port, POST + b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body)
    _exchange(port, b"POST /v1/[link=http://x]\x1b[31m HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    printer = _printer(MockFormat(format))
    capsys.readouterr()
    for record in mock.records[before:]:
        printer(record)
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    if format == "jsonl":
        assert [json.loads(line)["offered_tools"] for line in out.splitlines()][0] == [name]
    else:
        assert "[bold red]get_weather[/bold red]" in out and "/v1/[link=http://x]" in out


# ---- signals in this process (trial 8b) -------------------------------------------------------------------


def _on_term(signum: int, frame: Any) -> None:  # a handler of the caller's, which serving must leave in place
    raise KeyboardInterrupt


def test_serving_puts_back_the_signal_handlers_it_found() -> None:
    """The console script maps SIGTERM to Ctrl-C's handler; serving set the loop's and, when it stopped, left
    SIGTERM at the default action (asyncio's remove_signal_handler), so a second SIGTERM while the summary was
    written killed the command (exit -15) instead of ending it with its line. A real SIGTERM stops it here."""
    import os

    from toolchoice.providers.core.mock.server import serve_mock

    old_term = signal.signal(signal.SIGTERM, _on_term)
    old_int = signal.getsignal(signal.SIGINT)
    try:
        served = serve_mock("openai", on_url=lambda url: os.kill(os.getpid(), signal.SIGTERM), on_record=print)
        assert signal.getsignal(signal.SIGTERM) is _on_term
        assert signal.getsignal(signal.SIGINT) is old_int
    finally:
        signal.signal(signal.SIGTERM, old_term)
    assert served.url.startswith("http://127.0.0.1:") and served.line() == ("toolchoice mock: stopped after 0 "
                                                                          "requests, 0 refused")


def test_a_signal_before_the_server_listens_stops_it_with_nothing_served(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the server is still binding (before its handlers are set) was a KeyboardInterrupt out of
    ``serve_mock``: the command said "interrupted", exit 130, instead of its summary."""
    import os

    from toolchoice.providers.core.mock import server as mock_server

    start = mock_server.Server.start

    async def interrupted_start(self: Any) -> int:
        os.kill(os.getpid(), signal.SIGINT)  # asyncio.run's own SIGINT handler cancels the main task
        return await start(self)

    monkeypatch.setattr(mock_server.Server, "start", interrupted_start)
    old_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        served = mock_server.serve_mock("openai", on_url=lambda url: None, on_record=print)
    except KeyboardInterrupt:
        pytest.fail("the interrupt came out of serve_mock")
    finally:
        signal.signal(signal.SIGINT, old_int)
    assert served.line() == "toolchoice mock: stopped after 0 requests, 0 refused"
