"""The aiohttp-backed client (providers/core/aio_transport.py, used for 400+ requests) held to every fault
and transport test: the tests of test_hardening_faults.py, test_transport.py and test_send_cli.py run here
a second time with $TOOLCHOICE_HTTP_CLIENT=aiohttp, so each request goes out on aiohttp's connections
(the same stand-in servers and sockets on 127.0.0.1, the same expectations). Plus the choice itself."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_hardening_faults import *  # noqa: E402,F401,F403 - collected again, through aiohttp
from test_send_cli import *  # noqa: E402,F401,F403
from test_transport import *  # noqa: E402,F401,F403

from toolchoice.providers.core import transport  # noqa: E402


@pytest.fixture(autouse=True)
def through_aiohttp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(transport.HTTP_CLIENT_ENV, "aiohttp")


def test_the_client_is_aiohttps_only_where_many_requests_go_out(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolchoice.providers.core.aio_transport import Client

    timeouts = transport.Timeouts.from_total(30)
    [forced] = transport.new_async_clients(timeouts, 50, urls=["http://127.0.0.1:9/v1"], requests=1)
    assert isinstance(forced, Client)
    monkeypatch.delenv(transport.HTTP_CLIENT_ENV)
    few = transport.new_async_clients(timeouts, 50, urls=["http://127.0.0.1:9/v1"],
                                      requests=transport.AIOHTTP_MIN_REQUESTS - 1)
    assert len(few) == 10 and not any(isinstance(c, Client) for c in few)  # httpx: clients of 5 connections
    [many] = transport.new_async_clients(timeouts, 50, urls=["http://127.0.0.1:9/v1"],
                                         requests=transport.AIOHTTP_MIN_REQUESTS)
    assert isinstance(many, Client)
    monkeypatch.setenv(transport.HTTP_CLIENT_ENV, "httpx")
    assert not transport.aiohttp_wanted(10_000)
    monkeypatch.setenv(transport.HTTP_CLIENT_ENV, "aiohttp")
    assert not transport.aiohttp_wanted(10_000, transport=object())  # an injected transport is always used


def test_proxies_from_the_environment_go_through_aiohttp_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolchoice.providers.core.aio_transport import Transport

    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:3128")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    client = transport.new_async_client(transport.Timeouts.from_total(30), 5, aio=True)
    proxied = [t for pattern, t in client._mounts.items() if t is not None]
    assert proxied and all(isinstance(t, Transport) and str(t.proxy.url) == "http://127.0.0.1:3128" for t in proxied)
