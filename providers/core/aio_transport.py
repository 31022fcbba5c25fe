"""An httpx client whose connections are aiohttp's, for sending many requests (`send --repeat`, `run --repeat`).

httpx's API stays (the client, its timeouts, limits, proxies from the environment, TLS context, requests and
streamed responses), so ``transport.send_async`` and its retries, redaction and body bound run unchanged:
only the connection pool and HTTP/1.1 parsing are aiohttp's, which costs about 0.4 ms of CPU a request
where httpcore's costs about 0.9 (bench/README.md, "Sending at scale"). Built on ``httpx_aiohttp`` (the
transport openai-python ships as ``DefaultAioHttpClient``) with two differences the fault tests hold:
aiohttp's errors become the httpx errors httpx itself raises for the same fault (httpx_aiohttp reports a
refused or dropped connection as a connect timeout), and the URL goes out exactly as httpx encoded it
(aiohttp re-quotes paths: Bedrock's ``v1%3A0`` would leave as ``v1:0``).

Imported only when aiohttp and httpx-aiohttp are installed and many requests are to be sent
(``transport.aiohttp_wanted``).
"""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator

import aiohttp
import httpx
import yarl
from httpx_aiohttp import AiohttpTransport, HttpxAiohttpClient


def _httpx_error(exc: BaseException) -> Exception:
    """The httpx error httpx raises for the fault behind an aiohttp error (checked most specific first)."""
    message = str(exc) or type(exc).__name__
    if isinstance(exc, (aiohttp.ClientProxyConnectionError, aiohttp.ClientHttpProxyError)):
        return httpx.ProxyError(message)
    if isinstance(exc, aiohttp.ConnectionTimeoutError):
        return httpx.ConnectTimeout(message)
    if isinstance(exc, (aiohttp.SocketTimeoutError, aiohttp.ServerTimeoutError, asyncio.TimeoutError)):
        return httpx.ReadTimeout(message)
    if isinstance(exc, aiohttp.ClientConnectorError):  # refused, DNS, TLS handshake and certificate errors
        return httpx.ConnectError(message)
    if isinstance(exc, (aiohttp.ServerDisconnectedError, aiohttp.ClientPayloadError, aiohttp.ClientResponseError)):
        return httpx.RemoteProtocolError(message)  # dropped, cut short, or not HTTP: as h11 reports it
    if isinstance(exc, (aiohttp.InvalidUrlClientError, aiohttp.NonHttpUrlClientError)):
        return httpx.UnsupportedProtocol(message)
    if isinstance(exc, (aiohttp.ClientOSError, aiohttp.ClientConnectionError, OSError)):
        return httpx.ReadError(message)
    return httpx.TransportError(message)


_AIOHTTP_ERRORS = (aiohttp.ClientError, asyncio.TimeoutError, OSError)


class _Body(httpx.AsyncByteStream):
    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self.response.content.iter_chunked(64 * 1024):
                yield chunk
        except _AIOHTTP_ERRORS as exc:
            raise _httpx_error(exc) from exc

    async def aclose(self) -> None:
        self.response.release()


class Transport(AiohttpTransport):
    """httpx_aiohttp's transport (its session: connector limits, keep-alive, TLS context, proxy) with the
    request sent as httpx encoded it and aiohttp's errors as httpx's."""

    def get_client(self) -> aiohttp.ClientSession:
        """httpx_aiohttp's session, but keeping no cookies (as transport's httpx clients keep none)."""
        limit = {} if self.limits.max_connections is None else {"limit": self.limits.max_connections}
        connector = aiohttp.TCPConnector(keepalive_timeout=self.limits.keepalive_expiry, ssl=self.ssl_context,
                                         local_addr=(self.local_address, 0) if self.local_address else None, **limit)
        return aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar())

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if not isinstance(self.client, aiohttp.ClientSession):
            self.client = self.get_client()
        timeout = request.extensions.get("timeout", {})
        proxy = self.proxy
        try:
            response = await self.client.request(
                request.method, yarl.URL(str(request.url), encoded=True), headers=request.headers,
                data=request.content or None, allow_redirects=False, auto_decompress=False, compress=False,
                timeout=aiohttp.ClientTimeout(sock_connect=timeout.get("connect"), sock_read=timeout.get("read"),
                                              connect=timeout.get("pool")),
                server_hostname=request.extensions.get("sni_hostname"),
                proxy=str(proxy.url) if proxy else None,
                proxy_auth=aiohttp.BasicAuth(*proxy.auth) if proxy and proxy.auth else None,
                proxy_headers=proxy.headers if proxy else None)
        except _AIOHTTP_ERRORS as exc:
            raise _httpx_error(exc) from exc
        extensions: dict[str, Any] = {"http_version": b"HTTP/1.1"}
        if response.reason:
            extensions["reason_phrase"] = response.reason.encode()
        return httpx.Response(response.status, headers=response.raw_headers, stream=_Body(response), request=request,
                              extensions=extensions)


class Client(HttpxAiohttpClient):
    """``httpx.AsyncClient`` on ``Transport``, for direct and proxied (``trust_env``) connections alike."""

    def _init_transport(self, *args: Any, transport: Any = None, **kwargs: Any) -> Any:
        return transport if transport is not None else Transport(*args, **kwargs)

    def _init_proxy_transport(self, proxy: httpx.Proxy, *args: Any, **kwargs: Any) -> Any:
        return Transport(*args, proxy=proxy, **kwargs)
