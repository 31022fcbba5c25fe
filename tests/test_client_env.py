"""The environment's proxies are read once per job, not once per client (trial21k): httpx's ``trust_env``
reads ``urllib.request.getproxies()`` (two passes over all of ``os.environ``) on every client it builds, and
``plain_http_only`` read it once more. Held here against urllib's and httpx's own readings of the same
environment: the same proxies, the same routing for every URL, the same trust store; counted, not timed."""

from __future__ import annotations

import asyncio
import urllib.request

import httpx
import pytest

from toolchoice.providers.core import http_clients, transport

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy", "https_proxy",
                   "all_proxy", "no_proxy", "REQUEST_METHOD", "HTTPS_proxy", "ftp_proxy", "SSL_CERT_FILE",
                   "SSL_CERT_DIR")

ENVIRONMENTS = [
    {},
    {"HTTPS_PROXY": "http://proxy.invalid:3128"},
    {"http_proxy": "proxy.invalid:8080", "NO_PROXY": "127.0.0.1,localhost"},
    {"ALL_PROXY": "socks5://proxy.invalid:1080", "NO_PROXY": "*"},
    {"NO_PROXY": " * , example.com", "HTTP_PROXY": "http://proxy.invalid:1"},
    {"NO_PROXY": "127.0.0.1"},
    {"HTTPS_proxy": "http://upper.invalid:1", "https_proxy": "http://lower.invalid:2"},
    {"HTTP_PROXY": "http://cgi.invalid:1", "REQUEST_METHOD": "GET"},
    {"HTTP_PROXY": "http://cgi.invalid:1", "http_proxy": "http://own.invalid:2", "REQUEST_METHOD": "GET"},
    {"https_proxy": "", "HTTPS_PROXY": "http://proxy.invalid:3"},
    {"ftp_proxy": "http://ftp.invalid:21"},
]
URLS = ["http://127.0.0.1:8080/v1", "https://api.openai.com/v1", "http://localhost:11434/api",
        "https://example.com/x", "https://sub.example.com/x"]


def _set(monkeypatch, variables: dict[str, str]) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)


def _route(client: httpx.AsyncClient, url: str) -> str | None:
    """Where ``client`` sends ``url``: None for straight, else the proxy's URL (httpx's own choice)."""
    chosen = client._transport_for_url(httpx.URL(url))
    if chosen is client._transport:
        return None
    pool = getattr(chosen, "_pool", None)
    proxy = getattr(pool, "_proxy_url", None) or getattr(chosen, "proxy", None)
    return str(getattr(proxy, "url", proxy))


@pytest.mark.parametrize("variables", ENVIRONMENTS, ids=lambda v: ",".join(v) or "none")
def test_the_proxies_read_once_are_urllibs(monkeypatch, variables):
    _set(monkeypatch, variables)
    assert http_clients.environment_proxies() == urllib.request.getproxies()


@pytest.mark.parametrize("variables", ENVIRONMENTS, ids=lambda v: ",".join(v) or "none")
def test_the_clients_route_every_url_as_httpx_does_with_trust_env(monkeypatch, variables):
    _set(monkeypatch, variables)

    async def routes() -> tuple[list, list]:
        own = httpx.AsyncClient(trust_env=True)
        clients = transport.new_async_clients(transport.Timeouts(), 12, urls=URLS)
        try:
            return ([_route(own, url) for url in URLS],
                    [[_route(client, url) for url in URLS] for client in clients])
        finally:
            for client in [own, *clients]:
                await client.aclose()

    expected, got = asyncio.run(routes())
    assert got == [expected] * 3


@pytest.mark.parametrize("variables", ENVIRONMENTS, ids=lambda v: ",".join(v) or "none")
def test_plain_http_only_agrees_with_the_proxies_httpx_takes(monkeypatch, variables):
    """A plain-http URL makes no TLS connection unless httpx (its own get_environment_proxies) would route
    it through a proxy; ``NO_PROXY=*`` drops every proxy there, so none is named and no CA bundle is needed."""
    from httpx._utils import get_environment_proxies

    _set(monkeypatch, variables)
    httpx_proxies = any(value is not None for value in get_environment_proxies().values())
    assert http_clients.plain_http_only(["http://127.0.0.1:8080/v1"]) is (not httpx_proxies)


def test_a_jobs_clients_read_the_environment_once(monkeypatch):
    """Ten clients for 50 in flight (``CONNECTIONS_PER_CLIENT`` 5): one reading of the proxies, none by
    httpx, when the environment names no proxy; with one, httpx reads it per client, as before."""
    _set(monkeypatch, {"NO_PROXY": "localhost"})
    reads = {"own": 0, "httpx": 0}
    own_read, httpx_read = http_clients.environment_proxies, httpx._client.get_environment_proxies

    def counted(kind, read):
        def wrapper():
            reads[kind] += 1
            return read()
        return wrapper

    monkeypatch.setattr(http_clients, "environment_proxies", counted("own", own_read))
    monkeypatch.setattr(httpx._client, "get_environment_proxies", counted("httpx", httpx_read))

    async def build() -> int:
        clients = transport.new_async_clients(transport.Timeouts(), 50, urls=["https://api.openai.com/v1"])
        for client in clients:
            await client.aclose()
        return len(clients)

    assert asyncio.run(build()) == 10
    assert reads == {"own": 1, "httpx": 0}
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.invalid:3128")
    reads.update(own=0, httpx=0)
    assert asyncio.run(build()) == 10
    assert reads == {"own": 1, "httpx": 10}


def test_ssl_cert_file_still_chooses_the_trust_store(monkeypatch, tmp_path):
    """A client told not to read the environment still trusts $SSL_CERT_FILE's bundle, not certifi's, as
    httpx's trust_env does: a file that is no bundle fails both the same way."""
    _set(monkeypatch, {})
    bad = tmp_path / "not-a-bundle.pem"
    bad.write_text("not a certificate\n")
    monkeypatch.setenv("SSL_CERT_FILE", str(bad))
    with pytest.raises(Exception) as theirs:
        httpx.AsyncClient(trust_env=True)
    with pytest.raises(Exception) as ours:
        transport.new_async_client(transport.Timeouts(), 1)
    assert type(ours.value) is type(theirs.value)
