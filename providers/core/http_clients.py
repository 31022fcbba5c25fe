"""The HTTP clients a run sends on: httpx's ``AsyncClient`` of a few connections each, or one on aiohttp's
connections (``aio_transport``) for many requests; the settings they share (timeouts, proxies and TLS from
the environment, no redirects, no cookies kept). ``transport`` sends on them."""

from __future__ import annotations

import os
from typing import Any, Iterable

# ``timeouts`` below: a ``transport.Timeouts`` (not imported: transport imports this module)


def _client_kwargs(timeouts: Any, verify: Any = True, proxies: dict[str, str] | None = None) -> dict[str, Any]:
    """The client settings every sender shares; ``verify`` may be one TLS context shared by clients.
    ``proxies``: the environment's proxies (``environment_proxies``), read once for all of a job's clients;
    when they name no proxy httpx would take, the client is told not to read the environment again (see
    ``_env_settings``), which is the same client."""
    import httpx

    # trust_env: proxies, and $SSL_CERT_FILE / $SSL_CERT_DIR, from the environment
    trust_env = True
    if proxies is not None and not _names_a_proxy(proxies):
        trust_env, verify = False, _verify_from_env(verify)
    return {"timeout": httpx.Timeout(timeouts.read, connect=timeouts.connect), "follow_redirects": False,
            "trust_env": trust_env, "verify": verify, "cookies": _no_cookies()}


def environment_proxies() -> dict[str, str]:
    """``urllib.request.getproxies()`` (lowercase names over uppercase, an empty one dropping the scheme, no_proxy,
    HTTP_PROXY ignored under CGI's REQUEST_METHOD; macOS and Windows: system settings too), which httpx's
    ``trust_env`` reads on every client it builds (and ``plain_http_only`` once more): read once per job instead,
    and handed to each."""
    import urllib.request

    return urllib.request.getproxies()


def _names_a_proxy(proxies: dict[str, str]) -> bool:
    """Whether httpx's ``get_environment_proxies`` would route anything through a proxy: an http, https or
    all proxy (NO_PROXY alone only exempts hosts from proxies, and ``NO_PROXY=*`` drops them all)."""
    if not any(proxies.get(scheme) for scheme in ("http", "https", "all")):
        return False
    return "*" not in (host.strip() for host in proxies.get("no", "").split(","))


def _verify_from_env(verify: Any) -> Any:
    """What a client with ``trust_env`` makes of ``verify=True`` (httpx's ``create_ssl_context``: the CA
    bundle of $SSL_CERT_FILE or $SSL_CERT_DIR, else certifi's), made here for a client told not to read
    the environment; a context or False is used as it is either way."""
    if verify is not True:
        return verify
    import httpx

    return httpx.create_ssl_context(verify=True, trust_env=True)


_KeepNoCookies: Any = None


def _no_cookies() -> Any:
    """A cookie jar that keeps nothing: each request stands alone, as the scenario wrote it (a cookie a
    reply sets, such as Cloudflare's ``__cf_bm`` on OpenAI's, is not sent with the next sample or step).
    It also spares httpx reading every reply's headers into an ``email.message.Message`` for the jar
    (~4% of a loop step's CPU). The class is made on first use: ``http.cookiejar`` comes with httpx."""
    global _KeepNoCookies
    if _KeepNoCookies is None:
        import http.cookiejar

        class KeepNoCookies(http.cookiejar.CookieJar):
            def extract_cookies(self, response: Any, request: Any) -> None:
                return None

            def set_cookie(self, cookie: Any) -> None:
                return None

        _KeepNoCookies = KeepNoCookies
    return _KeepNoCookies()


# Connections per httpx client when many requests are in flight. httpcore's pool examines every
# connection it holds on each request (has_expired() polls each idle socket), so one client with 50
# connections spends its time scanning its pool: 1000 requests, 50 at a time, against a local server
# answering after 50 ms took 13.3 s with one client of 50 connections, 4.4 s with keep-alive capped at
# 20, and 1.7 s with ten clients of 5 connections each (bench/send_scale.py; bench/README.md).
CONNECTIONS_PER_CLIENT = 5


def plain_http_only(urls: Iterable[str], proxies: dict[str, str] | None = None) -> bool:
    """Whether sending to ``urls`` never makes a TLS connection: each is ``http://`` and the
    environment names no proxy httpx would take (``_names_a_proxy``: a proxy may be https). ``proxies``:
    ``environment_proxies()`` when already read."""
    from urllib.parse import urlsplit

    proxies = environment_proxies() if proxies is None else proxies
    return all(urlsplit(url).scheme == "http" for url in urls) and not _names_a_proxy(proxies)


# Set by the console script when the process is the command's alone (cli/heap.settle): then nothing but
# toolchoice uses aiohttp in it, and ``load_aio_transport`` spares the CA bundle aiohttp reads when imported.
OWN_PROCESS = False


def load_aio_transport() -> None:
    """Import ``aio_transport`` (aiohttp, httpx-aiohttp). In a process of its own (``OWN_PROCESS``), aiohttp
    is imported without reading the system's CA bundle: aiohttp.connector builds two module-wide default
    TLS contexts at import, each reading it (``ssl.create_default_context()`` for verified connections,
    and ``set_default_verify_paths()`` on its CERT_NONE one for ``ssl=False``: ~20-50 ms each, before the
    first request could go out), which toolchoice never uses, since each of its connections gets the
    context built from the environment as httpx builds it (httpx_aiohttp's transport: ``ssl=``). While
    aiohttp loads, a default context is one that trusts no certificate (CERT_REQUIRED, host names checked,
    no CA): should anything ever connect with aiohttp's verified default, it would be refused, never let
    through; and a context loads no default paths, which a CERT_NONE context never consults."""
    import sys

    if OWN_PROCESS and "aiohttp" not in sys.modules:
        import ssl

        default = ssl.create_default_context
        own_paths = "set_default_verify_paths" in vars(ssl.SSLContext)  # else inherited from _ssl._SSLContext
        default_paths = ssl.SSLContext.set_default_verify_paths

        def trusting_nothing(*args: Any, **kwargs: Any) -> ssl.SSLContext:
            return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)

        ssl.create_default_context = trusting_nothing  # type: ignore[assignment]
        ssl.SSLContext.set_default_verify_paths = lambda self: None  # type: ignore[method-assign]
        try:
            import aiohttp  # noqa: F401
        finally:
            ssl.create_default_context = default
            if own_paths:
                ssl.SSLContext.set_default_verify_paths = default_paths  # type: ignore[method-assign]
            else:
                del ssl.SSLContext.set_default_verify_paths
    from . import aio_transport  # noqa: F401


def new_async_client(timeouts: Any, concurrency: int = 4, transport: Any = None, verify: Any = True,
                     aio: bool = False, proxies: dict[str, str] | None = None) -> Any:
    """An ``httpx.AsyncClient`` for ``send_async`` with explicit timeouts and connection limits.
    ``transport``: an ``httpx.AsyncBaseTransport`` to use instead of real sockets (tests); ``verify``:
    a TLS context several clients share (default: httpx's own); ``aio``: on aiohttp's connections
    (``aio_transport.Client``, the same settings); ``proxies``: ``environment_proxies()``, read once for
    several clients (default: read here)."""
    import httpx

    extra = {} if transport is None else {"transport": transport}
    limits = httpx.Limits(max_connections=max(1, concurrency), max_keepalive_connections=max(1, concurrency))
    if transport is None and proxies is None:
        proxies = environment_proxies()
    if aio and transport is None:
        load_aio_transport()
        from .aio_transport import Client

        return Client(limits=limits, **_client_kwargs(timeouts, verify, proxies))
    return httpx.AsyncClient(limits=limits, **_client_kwargs(timeouts, verify, proxies), **extra)


# Requests from which a run sends through aiohttp's connections (aio_transport), when installed. A whole request
# there costs ~0.5 ms less CPU than on httpcore (aio_transport.fetch: no httpx request and response objects),
# and importing aiohttp ~80 ms of CPU and ~9 MiB: at 200 requests (`run --repeat 50` of 4 steps at 50 ms) both
# took the same wall and CPU time (0.57-0.60 s, 0.43-0.50 s CPU), so from 200 on; from there on the peak memory
# of a run no longer depends on its size (bench/README.md, "Loops at scale"). Fewer go out on httpx alone.
AIOHTTP_MIN_REQUESTS = 200
HTTP_CLIENT_ENV = "TOOLCHOICE_HTTP_CLIENT"  # "httpx" or "aiohttp": one or the other whatever the number


def aiohttp_wanted(requests: int | None, transport: Any = None) -> bool:
    """Whether ``requests`` requests go through ``aio_transport``: real sockets (no injected transport),
    aiohttp and httpx-aiohttp installed, and at least AIOHTTP_MIN_REQUESTS of them — or
    $TOOLCHOICE_HTTP_CLIENT says which client to use."""
    import importlib.util

    chosen = os.environ.get(HTTP_CLIENT_ENV, "").strip().lower()
    if transport is not None or chosen == "httpx":
        return False
    if chosen != "aiohttp" and (requests is None or requests < AIOHTTP_MIN_REQUESTS):
        return False
    return all(importlib.util.find_spec(name) is not None for name in ("aiohttp", "httpx_aiohttp"))


def new_async_clients(timeouts: Any, in_flight: int, transport: Any = None,
                      urls: Iterable[str] | None = None, requests: int | None = None) -> list[Any]:
    """Enough clients of at most ``CONNECTIONS_PER_CLIENT`` connections for ``in_flight`` requests,
    sharing one verifying TLS context (built once: reading the CA bundle takes ~20 ms). ``urls``:
    where the clients will send, when known; if every one is plain http and no proxy is set in the
    environment (``plain_http_only``), TLS never happens and no CA bundle is read before the first
    request: the clients get a context that trusts no certificate, which would refuse, never let
    through, a TLS connection should one ever be made. ``requests``: how many will be sent, when
    known: from AIOHTTP_MIN_REQUESTS on, one client on aiohttp's connections (``aiohttp_wanted``),
    whose pool is not scanned on every request, holds them all."""
    import httpx

    aio = aiohttp_wanted(requests, transport)
    count = 1 if aio else max(1, -(-in_flight // CONNECTIONS_PER_CLIENT))
    verify: Any
    proxies = None if transport is not None else environment_proxies()  # once for all (new_async_client)
    if transport is not None:
        verify = True
    elif urls is not None and plain_http_only(urls, proxies):
        import ssl

        verify = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # CERT_REQUIRED, host names checked, no CA: refuses all
    else:
        verify = True if count == 1 else httpx.create_ssl_context(trust_env=True)
    size = -(-in_flight // count)
    return [new_async_client(timeouts, size, transport=transport, verify=verify, aio=aio, proxies=proxies)
            for _ in range(count)]
