"""An httpx client whose connections are aiohttp's, for sending many requests (`send --repeat`, `run --repeat`).

httpx's API stays (the client, its timeouts, limits, proxies from the environment, TLS context, requests and
streamed responses), so ``transport.send_async`` and its retries, redaction and body bound run unchanged:
only the connection pool and HTTP/1.1 parsing are aiohttp's, which costs about 0.4 ms of CPU a request
where httpcore's costs about 0.9 (bench/README.md, "Sending at scale"). Built on ``httpx_aiohttp`` (the
transport openai-python ships as ``DefaultAioHttpClient``) with two differences the fault tests hold:
aiohttp's errors become the httpx errors httpx itself raises for the same fault (httpx_aiohttp reports a
refused or dropped connection as a connect timeout), and the URL goes out exactly as httpx encoded it
(aiohttp re-quotes paths: Bedrock's ``v1%3A0`` would leave as ``v1:0``).

A whole (not streamed) request goes out on the client's aiohttp session directly (``Client.fetch``): the same
session, headers (the client's defaults merged as ``build_request`` merges them), timeouts, proxy, body bound
and errors, without building httpx's request and response objects around it (~15% of a loop step's CPU).
A compressed body is read through httpx's decoders as before. Streams keep httpx's API (``client.stream``).

Imported only when aiohttp and httpx-aiohttp are installed and many requests are to be sent
(``transport.aiohttp_wanted``).
"""

from __future__ import annotations

import asyncio
import codecs
from typing import Any, AsyncIterator, Mapping

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
    """``httpx.AsyncClient`` on ``Transport``, for direct and proxied (``trust_env``) connections alike; a whole
    request goes out through ``fetch`` (``transport._fetch`` asks ``direct_fetch``)."""

    direct_fetch = True

    def _init_transport(self, *args: Any, transport: Any = None, **kwargs: Any) -> Any:
        return transport if transport is not None else Transport(*args, **kwargs)

    def _init_proxy_transport(self, proxy: httpx.Proxy, *args: Any, **kwargs: Any) -> Any:
        return Transport(*args, proxy=proxy, **kwargs)


class Answer:
    """What ``transport.send_async`` reads of a response: status, headers (as httpx would give them: names
    lower-cased, repeated ones joined with ", ") and the body's text encoding."""

    __slots__ = ("status_code", "headers", "encoding")

    def __init__(self, status_code: int, headers: dict[str, str], encoding: str) -> None:
        self.status_code, self.headers, self.encoding = status_code, headers, encoding

    async def aclose(self) -> None:
        return None


def headers_as_httpx(raw: Any) -> dict[str, str]:
    """Raw header pairs as ``httpx.Headers`` reads them: ASCII, else UTF-8, else Latin-1 for all of them,
    names lower-cased, a repeated name's values joined with ", " (``Headers.items()``)."""
    lowered = [(k.lower(), v) for k, v in raw]  # bytes.lower(): ASCII letters only, as httpx lowers names
    for encoding in ("ascii", "utf-8"):
        try:
            pairs = [(k.decode(encoding), v.decode(encoding)) for k, v in lowered]
            break
        except UnicodeDecodeError:
            continue
    else:
        pairs = [(k.decode("iso-8859-1"), v.decode("iso-8859-1")) for k, v in lowered]
    merged: dict[str, str] = {}
    for name, value in pairs:
        merged[name] = f"{merged[name]}, {value}" if name in merged else value
    return merged


def encoding_as_httpx(headers: Mapping[str, str]) -> str:
    """``httpx.Response.encoding`` for a client without a default encoding: the Content-Type's charset when
    Python knows the codec, else UTF-8."""
    content_type = headers.get("content-type")
    if content_type is None or "charset" not in content_type.lower():
        return "utf-8"
    import email.message

    message = email.message.Message()
    message["content-type"] = content_type
    charset = message.get_content_charset(failobj=None)
    if charset is None:
        return "utf-8"
    try:
        codecs.lookup(charset)
    except (LookupError, ValueError):  # ValueError: a NUL in the name (httpx itself raises there)
        return "utf-8"
    return charset


def _uncompressed(headers: Mapping[str, str]) -> bool:
    return headers.get("content-encoding", "identity").strip().lower() in ("", "identity")


async def _fetch(client: "Client", url: httpx.URL, method: str, headers: Mapping[str, str], content: bytes,
                 max_bytes: int) -> tuple[Any, bytes | None]:
    transport = client._transport_for_url(url)  # the proxy's transport when the environment names one
    if not isinstance(transport, Transport):  # pragma: no cover - Client mounts only Transport
        raise TypeError(f"not an aiohttp transport: {type(transport).__name__}")
    if not isinstance(transport.client, aiohttp.ClientSession):
        transport.client = transport.get_client()
    merged = httpx.Headers(client.headers)  # build_request's merge: the client's defaults, then the request's
    merged.update(headers)
    timeout, proxy = client.timeout, transport.proxy
    try:
        async with transport.client.request(
                method, yarl.URL(str(url), encoded=True), headers=merged, data=content or None,
                allow_redirects=False, auto_decompress=False, compress=False,
                timeout=aiohttp.ClientTimeout(sock_connect=timeout.connect, sock_read=timeout.read, connect=timeout.pool),
                proxy=str(proxy.url) if proxy else None,
                proxy_auth=aiohttp.BasicAuth(*proxy.auth) if proxy and proxy.auth else None,
                proxy_headers=proxy.headers if proxy else None) as response:
            got = headers_as_httpx(response.raw_headers)
            answer = Answer(response.status, got, encoding_as_httpx(got))
            # a compressed body is decoded by httpx's decoders; the bound counts decoded bytes, as transport._fetch
            pieces = (response.content.iter_chunked(64 * 1024) if _uncompressed(got) else
                      httpx.Response(response.status, headers=response.raw_headers, stream=_Body(response)).aiter_bytes())
            chunks, size = [], 0
            async for chunk in pieces:
                size += len(chunk)
                if size > max_bytes:
                    return answer, None
                chunks.append(chunk)
            return answer, b"".join(chunks)
    except _AIOHTTP_ERRORS as exc:
        raise _httpx_error(exc) from exc


async def fetch(client: "Client", prepared: Any, max_bytes: int) -> tuple[Any, bytes | None]:
    """``transport._fetch`` for a whole request on ``Client``: the answer and its (decoded) body, or None for
    the body once it passes ``max_bytes``. Raises httpx's errors, as a request through httpx would."""
    return await _fetch(client, prepared.httpx_url, prepared.method, prepared.headers, prepared.content, max_bytes)
