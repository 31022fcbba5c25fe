"""The mock server's bounds as the project gives every bound (providers/core/limits.py, ``TOOLCHOICE_LIMIT_<NAME>``,
docs/limits.md), ``Expect: 100-continue`` answered after the size check, and a large body judged without stalling
the other clients. Real sockets on 127.0.0.1 against a server on a thread of this process (``running_mock``).

The truth is HTTP's: RFC 9110 section 10.1.1 — a server that receives ``Expect: 100-continue`` may answer with a
final status code instead of 100 (Continue) when it will not accept the body, and 413 (section 15.5.14) says the
content is larger than the server is willing to process.
"""

from __future__ import annotations

import json
import socket
import threading
from typing import Any

import pytest

from toolchoice.providers.core import limits
from toolchoice.providers.core.mock import service as mock_service
from toolchoice.providers.core.mock.server import running_mock

CHAT = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}
BODY = json.dumps(CHAT).encode()


def _port(url: str) -> int:
    return int(url.split(":")[2].split("/")[0])


def _head_of(sock: socket.socket) -> bytes:
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = sock.recv(65536)
        if not chunk:
            break
        got += chunk
    return got


def test_expect_100_continue_with_a_body_over_the_cap_gets_413_not_100() -> None:
    cap = limits.get("mock_body_bytes")
    with running_mock("openai") as served, socket.create_connection(("127.0.0.1", _port(served.base_url)),
                                                                     timeout=5) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
                     b"Content-Length: %d\r\n\r\n" % (cap + 1))
        reply = _head_of(sock)
    assert reply.startswith(b"HTTP/1.1 413 "), reply[:60]
    assert b"100 Continue" not in reply


def test_expect_100_continue_within_the_cap_gets_100_then_the_answer() -> None:
    with running_mock("openai") as served, socket.create_connection(("127.0.0.1", _port(served.base_url)),
                                                                     timeout=5) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n"
                     b"Content-Length: %d\r\n\r\n" % len(BODY))
        assert _head_of(sock).startswith(b"HTTP/1.1 100 Continue\r\n\r\n")
        sock.sendall(BODY)
        rest = b""
        while chunk := sock.recv(65536):
            rest += chunk
    assert b"HTTP/1.1 200 OK" in rest


def test_the_body_cap_is_a_limit_raised_or_lowered_by_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    assert {"mock_body_bytes", "mock_header_bytes", "mock_connections", "mock_request_seconds", "mock_idle_seconds",
            "mock_write_seconds"} <= set(limits.LIMITS)
    monkeypatch.setenv("TOOLCHOICE_LIMIT_MOCK_BODY_BYTES", str(len(BODY) - 1))
    with running_mock("openai") as served, socket.create_connection(("127.0.0.1", _port(served.base_url)),
                                                                     timeout=5) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(BODY), BODY))
        assert _head_of(sock).startswith(b"HTTP/1.1 413 ")


def test_the_head_cap_is_a_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLCHOICE_LIMIT_MOCK_HEADER_BYTES", "1024")
    with running_mock("openai") as served, socket.create_connection(("127.0.0.1", _port(served.base_url)),
                                                                     timeout=5) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 2048 + b"\r\n\r\n")
        assert _head_of(sock).startswith(b"HTTP/1.1 431 ")


def test_every_limit_is_in_docs_limits_md() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "limits.md").read_text(encoding="utf-8")
    missing = [name for name in limits.LIMITS if f"`{name}`" not in text]
    assert not missing


class Held:
    """A judging of a large body held until the small request was answered (or 10 s): the order the two came in."""

    def __init__(self) -> None:
        self.started, self.small_answered = threading.Event(), threading.Event()
        self.order: list[str] = []

    def hold(self, size: int) -> None:
        if size > 100_000:
            self.started.set()
            self.small_answered.wait(10)
            self.order.append("large judged")

    def exchange(self, port: int) -> None:
        """A large request on one connection; once its judging began, a small one on another."""
        large = json.dumps({**CHAT, "messages": [{"role": "user", "content": "x" * 200_000}]}).encode()
        with socket.create_connection(("127.0.0.1", port), timeout=15) as big:
            big.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                        % (len(large), large))
            assert self.started.wait(10)
            with socket.create_connection(("127.0.0.1", port), timeout=15) as small:
                small.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nConnection: close\r\n"
                              b"\r\n%s" % (len(BODY), BODY))
                assert _head_of(small).startswith(b"HTTP/1.1 200 ")
            self.order.append("small answered")
            self.small_answered.set()
            assert _head_of(big).startswith(b"HTTP/1.1 200 ")
        assert self.order == ["small answered", "large judged"]


def test_a_small_request_is_answered_while_a_large_one_is_being_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    """The large body's judging waits (in whatever thread it runs) until the small request was answered, or 10 s:
    if judging ran on the event loop, the small one could not be answered before it ended (order, not timing)."""
    held, handle = Held(), mock_service.MockService.handle

    def holding(self: Any, method: str, target: str, headers: dict[str, str], raw: bytes) -> Any:
        held.hold(len(raw))
        return handle(self, method, target, headers, raw)

    monkeypatch.setattr(mock_service.MockService, "handle", holding)
    with running_mock("openai") as served:
        held.exchange(_port(served.base_url))


def test_the_proxy_answers_a_small_request_while_a_large_one_is_being_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolchoice.providers.core.mock import proxy
    from toolchoice.providers.core.mock.server import Running, Server

    held, judge = Held(), proxy.judge

    def holding(provider: str, module: Any, body: Any, route: Any, *headers: Any) -> Any:
        held.hold(len(json.dumps(body)))
        return judge(provider, module, body, route, *headers)

    monkeypatch.setattr(proxy, "judge", holding)
    with running_mock("openai") as upstream:
        handler = proxy.ProxyHandler("openai", upstream.base_url, None)
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as served:
            held.exchange(_port(served.base_url))
