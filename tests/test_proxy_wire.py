"""`toolchoice proxy` as an agent builder meets it: real framework clients (openai-agents, LangChain, the official
SDKs) on 127.0.0.1, the real API played by a 127.0.0.1 stand-in (tests/servers.py, or a raw asyncio server for
streams that never end and upstreams that never answer). The proxy runs in a thread of the test process
(`Running`); the command itself is run as a process only where signals and exit codes are what is tested."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

import httpx
import pytest

from tests.servers import StandIn, Step
from toolchoice.providers.core.mock.proxy import ProxyHandler
from toolchoice.providers.core.mock.server import Running, Server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
KEY = "sk-proxy-wire-secret-5e4d3c2b1a09"
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
CHAT = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER}}],
        "tool_choice": "required"}


@contextmanager
def proxied(provider: str, upstream: str) -> Iterator[Running]:
    handler = ProxyHandler(provider, upstream)
    with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
        yield proxy


def _settled(proxy: Running, count: int, seconds: float = 5.0) -> list[dict[str, Any]]:
    """The proxy's lines once ``count`` are out (a line follows the answer's last byte)."""
    deadline = time.monotonic() + seconds
    while len(proxy.records) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return list(proxy.records)


# ---- what the upstream answers reaches the client unchanged; the key never reaches the lines -------------------


def test_an_upstream_error_echoing_the_key_passes_through_unchanged_and_the_line_never_holds_it() -> None:
    import openai

    echoed = Step.error("openai", 401, f"Incorrect API key provided: {KEY}. Find your key at ...")
    with StandIn("openai", echoed) as upstream, proxied("openai", upstream.base_url()) as proxy:
        client = openai.OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        with pytest.raises(openai.AuthenticationError) as raised:
            client.chat.completions.create(**CHAT)
        (line,) = _settled(proxy, 1)
    assert raised.value.status_code == 401
    assert raised.value.response.content == echoed.payload()  # the API's own body, byte for byte
    assert upstream.requests[0].headers["authorization"] == f"Bearer {KEY}"  # the key went on to the API
    assert line["status"] == 401 and [f["code"] for f in line["findings"]][-1] == "proxy.error"
    assert KEY not in json.dumps(line) and KEY[-12:] not in json.dumps(line)


def test_an_upstream_redirect_to_another_host_is_not_followed_and_the_line_says_where_it_points() -> None:
    elsewhere = "http://elsewhere.invalid/v1/chat/completions"
    with StandIn("openai", Step(status=307, body={}, headers={"Location": elsewhere})) as upstream, \
            proxied("openai", upstream.base_url()) as proxy:
        answered = httpx.post(proxy.base_url + "/chat/completions", json=CHAT, headers={"authorization": KEY},
                              timeout=10)
        (line,) = _settled(proxy, 1)
    assert answered.status_code == 307 and answered.headers["location"] == elsewhere  # the client decides
    assert len(upstream.requests) == 1
    (error,) = [f for f in line["findings"] if f["code"] == "proxy.error"]
    assert f"redirects to {elsewhere}" in error["message"], error
