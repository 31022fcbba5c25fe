"""Sending one Request over HTTP: key resolution, timeouts, retries, redaction.

The only module that imports httpx (inside the functions that need it), so `render` never loads it.
Keys live in the environment: a Request carries ``$ENV_VAR`` placeholders, resolved here at send
time and never returned. A Response keeps the body exactly as received (``text``, ``body``) so that
parsing never depends on redaction (a short key such as ``a`` must not rewrite ``false``); what is
shown or saved goes through ``Response.shown_text`` / ``shown_body`` / ``redactor``. Error texts and
headers are redacted here already.

Bounds: a body is read up to ``SendLimits.max_body_bytes`` after decoding (a gzip bomb stops
there; by default the ``reply_bytes`` limit, which ``TOOLCHOICE_LIMIT_REPLY_BYTES`` raises); retries are
at most ``retry_policy.MAX_RETRIES``; timeouts must be finite and positive.
When to retry and how long to wait are ``retry_policy``'s (pure decisions, the SDKs' rules).
"""

from __future__ import annotations

import asyncio
import functools
import math
import os
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping, Sequence

from . import limits
from .bounded import Unreadable, json_loads_twice
from .errors import named, out_of_range
from .header_values import ShownValues
from .model import MissingKey, Request, ToolchoiceError, wire_json
from .version import __version__
# the clients, re-exported: callers (runner, loop, bench, tests) reach them as transport.*
from .http_clients import (AIOHTTP_MIN_REQUESTS, CONNECTIONS_PER_CLIENT, HTTP_CLIENT_ENV, _client_kwargs,  # noqa: F401
                           aiohttp_wanted, new_async_client, new_async_clients, plain_http_only)
# $NAME or ${NAME} in upper case, as `render -f curl` leaves them for the shell ("$home", "$5" are text)
from .request_parts import ENV_PLACEHOLDER as _PLACEHOLDER
from .key_help import key_help, key_problem
from .loopback import is_loopback, nothing_listens
from .retry_policy import RetryPolicy, next_wait, paused, retry_after, should_retry
from .redaction import Redactor, printable, redact, redact_data, safe_json_text  # noqa: F401 - tests reach redact_data

DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024  # decoded response bytes read before giving up (limits' reply_bytes)


def _reply_cap() -> int:
    """``reply_bytes`` as this run sets it (TOOLCHOICE_LIMIT_REPLY_BYTES): issue 16's "an option to raise it"."""
    return limits.get("reply_bytes")


@functools.lru_cache(maxsize=None)
def user_agent() -> str:
    """Once per process: `compare --send` prepares a request per provider."""
    return f"toolchoice/{__version__}"



@dataclass(frozen=True)
class Timeouts:
    """Seconds to wait for the TCP/TLS connection and for each read of the response."""

    connect: float = 10.0
    read: float = 120.0

    def __post_init__(self) -> None:
        check_seconds(self.connect, "connect")
        check_seconds(self.read, "read")

    @classmethod
    def from_total(cls, seconds: float) -> "Timeouts":
        """``--timeout S``: S for reads, at most 10 s (and at most S) to connect."""
        check_seconds(seconds)
        return cls(connect=min(10.0, seconds), read=seconds)


MAX_TIMEOUT = 3600.0


def check_seconds(seconds: float, argument: str = "timeout") -> float:
    """A timeout must be a finite number of seconds, > 0 and at most an hour: ``nan`` compares false
    with everything and would turn every read into an instant timeout; ``inf`` never ends. Else ``OutOfRange`` of
    ``argument`` (``timeout nan: ...``; the command line names its option: ``--timeout nan: ...``)."""
    if not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or not 0 < seconds <= MAX_TIMEOUT:
        raise out_of_range(argument, str(seconds), f"a number of seconds greater than 0 and at most {MAX_TIMEOUT:.0f}",
                           "60", lead="for example")
    return float(seconds)


@dataclass(frozen=True)
class SendLimits:
    """How much of a response is read. ``max_body_bytes`` counts decoded bytes (after gzip/deflate),
    so a small compressed body that expands without end stops at the cap too. Its default is the
    ``reply_bytes`` limit when the SendLimits is made (``TOOLCHOICE_LIMIT_REPLY_BYTES`` raises or lowers it);
    ``from_limits`` says that a cap came from there, so its refusal names the variable."""

    max_body_bytes: int = field(default_factory=_reply_cap)
    from_limits: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        floor = 1 if self.from_limits else 1024  # the variable takes any positive whole number (limits.get)
        if isinstance(self.max_body_bytes, bool) or not isinstance(self.max_body_bytes, int) \
                or self.max_body_bytes < floor:
            raise ToolchoiceError(f"the response size cap must be a whole number of bytes >= {floor}, "
                                  f"not {self.max_body_bytes!r}")

    @classmethod
    def configured(cls) -> "SendLimits":
        """The limits this run's environment sets (``TOOLCHOICE_LIMIT_REPLY_BYTES``), read now."""
        return cls(_reply_cap(), from_limits=True)


@dataclass(frozen=True)
class Attempt:
    """One try: what came back and how long we waited afterwards (0 for the last)."""

    status: int | None
    error: str | None  # transport error text (redacted), None when a response arrived
    latency_ms: float
    wait: float = 0.0  # seconds slept before the next attempt
    wait_source: str | None = None  # "retry-after-ms" | "retry-after" | "backoff" | None

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "error": self.error, "latency_ms": round(self.latency_ms, 1),
                "wait_s": round(self.wait, 3), "wait_source": self.wait_source}


@dataclass
class Response:
    """The final outcome of a send. ``status`` is None when no HTTP response arrived.

    ``raw`` (its ``text``) and ``body`` are the body as received (NOT redacted): parse them, never print or
    save them; show ``shown_text()`` / ``shown_body()`` and pass anything else derived from them through
    ``redactor``. ``headers``, ``json_error``, ``transport_error``, ``stopped`` and the attempts'
    errors are redacted already."""

    status: int | None
    headers: dict[str, str]  # lower-case names, redacted
    raw: bytes  # the body's bytes as received: for parsing only (``text`` decodes them when asked)
    body: Any  # parsed JSON of the body as received, or None when it is not JSON: for parsing only
    json_error: str | None  # why the body is not JSON, when it is not
    latency_ms: float  # of the final attempt
    elapsed_ms: float  # all attempts and waits
    attempts: list[Attempt] = field(default_factory=list)
    transport_error: str | None = None
    stopped: str | None = None  # why no retry followed a retryable answer (a Retry-After too long, ...)
    redactor: Redactor = field(default_factory=lambda: Redactor({}), repr=False)
    encoding: str | None = None  # the charset the server named, if any
    twice: tuple[str, ...] = ()  # keys the body's JSON names twice in one object (read as the SDKs do: the last)

    @property
    def text(self) -> str:
        """The body text as received (for parsing only), decoded when asked: a body kept as text beside its
        bytes and its parsed JSON was a third copy of it (a ``str`` holding one emoji takes 4 bytes a character)."""
        return decode_body(self.raw, self.encoding)

    def shown_text(self) -> str:
        """The body text safe to show or save (every secret spelling replaced, also when the server
        escaped it character by character)."""
        return safe_json_text(self.text, self.body, self.redactor)

    def shown_body(self) -> Any:
        """The parsed body with every secret replaced in every string."""
        return self.redactor.data(self.body)

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    @property
    def waits(self) -> list[float]:
        return [a.wait for a in self.attempts[:-1]]


@dataclass(frozen=True)
class Prepared:
    """A Request with its placeholders resolved. ``secrets`` maps each resolved value to the
    placeholder it replaced, for redaction. Never print or save this object."""

    method: str
    url: str
    display_url: str  # with placeholders, safe to show
    headers: dict[str, str]
    content: bytes
    secrets: dict[str, str]

    def __repr__(self) -> str:  # never show resolved values, even by accident
        return f"Prepared({self.method} {self.display_url})"

    # Built once per prepared request, not once per sample (a frozen dataclass still takes a
    # cached_property: it writes the instance's __dict__, not through __setattr__).
    @functools.cached_property
    def redactor(self) -> Redactor:
        """The redactor of ``secrets`` (computing every spelling of a key costs ~40 µs a response)."""
        return Redactor(self.secrets)

    @functools.cached_property
    def shown_header(self) -> ShownValues:
        """A response header's value as a Response holds it: printable, redacted, each value read once."""
        return ShownValues(self.redactor)

    def shown(self) -> "Prepared":
        """This request as it may be kept in a caller's records once sent: the URL with placeholders, every
        resolved key in the headers and body replaced by its placeholder, no secrets held."""
        redactor = self.redactor
        body = self.content.decode("utf-8", "replace")
        content = redactor.text(body).encode() if redactor.contains(body) else self.content
        return Prepared(self.method, self.display_url, self.display_url,
                        {name: redactor.text(value) for name, value in self.headers.items()}, content, {})

    @functools.cached_property
    def httpx_url(self) -> Any:
        """``url`` parsed by httpx once (parsing it again for every sample cost ~50 µs each), and once
        for every step of every loop, which prepares a request per step to the same URL; raises
        httpx.InvalidURL each time it is asked for while the URL is unusable."""
        return _httpx_url(self.url)


@functools.lru_cache(maxsize=64)
def _httpx_url(url: str) -> Any:
    """An ``httpx.URL`` (immutable: requests share it) per URL text; a failure is not cached."""
    import httpx

    return httpx.URL(url)


def _key_value(request: Request, environ: Mapping[str, str]) -> str | None:
    """The value of the first non-empty variable in ``key_env``."""
    return next((environ[name] for name in request.key_env if environ.get(name)), None)


def prepare(request: Request, provider: str = "", environ: Mapping[str, str] | None = None) -> Prepared:
    """Resolve ``$ENV_VAR`` placeholders. Raises ToolchoiceError (exit 2) naming the variables when
    the key is missing, before anything touches the network.

    The key placeholder (any name in ``key_env``; translators write ``key_env[0]``) takes the first
    set variable. Other ``$NAME`` placeholders in header values (user headers) are read from the
    environment by name and are treated as secrets too. With ``key_optional`` and no key set, a
    header that needs the key is left out."""
    env = os.environ if environ is None else environ
    who = f"{provider}: " if provider else ""
    key = _key_value(request, env)
    secrets: dict[str, str] = {}
    missing: list[str] = []

    def usable(name: str, value: str) -> str:
        problem = key_problem(name, value)
        if problem is not None:
            raise ToolchoiceError(f"{who}{problem[0]}", hint=problem[1])
        return value

    def resolve(match: re.Match[str], *, in_header: bool) -> str:
        name = match.group(1) or match.group(2)
        if name in request.key_env:
            if key is None:
                missing.append(name)
                return match.group(0)
            secrets[key] = f"${request.key_env[0]}"
            source = next(n for n in request.key_env if env.get(n) == key)
            return usable(source, key)
        if not in_header:
            return match.group(0)  # a URL may hold a literal '$'; only key placeholders are ours
        value = env.get(name)
        if not value:
            missing.append(name)
            return match.group(0)
        secrets[value] = f"${name}"
        return usable(name, value)

    headers: dict[str, str] = {}
    for name, value in request.headers.items():
        before = len(missing)
        resolved = _PLACEHOLDER.sub(lambda m: resolve(m, in_header=True), value)
        if request.key_optional and any(n in request.key_env for n in missing[before:]):
            del missing[before:]
            continue  # a local server and no key set: the auth header is left out
        headers[name] = resolved
    url = _PLACEHOLDER.sub(lambda m: resolve(m, in_header=False), request.url)
    _check_url(url, request.url, who)
    body = request.body
    if request.body_env:  # an MCP server's headers in the body: read by name, secrets as the headers' are
        before = len(missing)
        body = _resolved_body(body, request.body_env, lambda text: _PLACEHOLDER.sub(
            lambda m: resolve(m, in_header=True), text))
        if len(missing) > before and not any(n in request.key_env for n in missing):
            names = tuple(dict.fromkeys(missing[before:]))
            error = MissingKey(f"{who}an mcp tool's server_url, headers or authorization need {', '.join(names)}, "
                               "which is not set in the environment",
                               hint="set it in the environment, or remove it from the mcp tool")
            raise _missing(error, provider, "mcp tool", names, is_loopback(request.url))
    if any(n in request.key_env for n in missing):
        raise no_key(provider, request.key_env, is_loopback(request.url))
    if missing:
        names = tuple(dict.fromkeys(missing))
        error = MissingKey(f"{who}a header needs {', '.join(names)}, which is not set in the environment",
                           hint=f"set it in the environment, or remove it from providers.{provider or '<id>'}.headers")
        raise _missing(error, provider, "header", names, is_loopback(request.url))
    lowered = {h.lower() for h in headers}
    if "content-type" not in lowered:
        headers["Content-Type"] = "application/json"
    if "user-agent" not in lowered:
        headers["User-Agent"] = user_agent()
    # a lone surrogate (a reply's "\ud800" escape, carried back in the history) has no UTF-8 form: it goes out as
    # that escape again, the same JSON value
    return Prepared(request.method, url, request.url, headers, wire_json(body).encode("utf-8", "backslashreplace"),
                    secrets)


def no_key(provider: str, variables: Sequence[str], local: bool) -> MissingKey:
    """The missing key as a Python caller reads it: the variables to set, and, for a provider's own API, how to try
    without a key (a server on 127.0.0.1 that checks none, whose base URL the request then takes). The record
    (``MissingKey``'s fields) is what the command line draws its own words from (cli/exits.py)."""
    first, pid = variables[0], provider or "ID"
    hint = (f'a local server that checks no key takes any value, e.g. os.environ["{first}"] = "local"' if local else
            "the key is read from the environment at send time and never printed; to try without one, send to a "
            f'server on 127.0.0.1 that checks none (running_mock("{pid}"), docs/python.md): its base URL as '
            f"RenderOptions(base_url=...) or the scenario's providers.{pid}.base_url, and {first} set to any value")
    said = "" if local else key_help(provider, first)  # the module's words for this variable (Bedrock's IAM users)
    error = MissingKey(f"{provider + ': ' if provider else ''}no API key: set {' or '.join(variables)}"
                       + (f"; {said}" if said else ""), hint=hint)
    error.key_help = said
    return _missing(error, provider, "key", tuple(variables), local)


def _missing(error: MissingKey, provider: str, of: str, variables: tuple[str, ...], local: bool) -> MissingKey:
    """``error`` with its record: what is missing (``of``: "key", "header" or "mcp tool"), for whom, and whether the
    request goes to this machine."""
    error.provider, error.of, error.variables, error.local = provider, of, variables, local
    return error


def _resolved_body(body: dict[str, Any], paths: tuple[tuple[Any, ...], ...], resolve: Callable[[str], str]
                   ) -> dict[str, Any]:
    """``body`` with the strings at ``paths`` resolved, each container on the way copied (the request keeps
    its placeholders)."""
    out: Any = dict(body)
    for path in paths:
        node = out
        for key in path[:-1]:
            child = node[key]
            node[key] = copied = dict(child) if isinstance(child, dict) else list(child)
            node = copied
        if isinstance(node[path[-1]], str):
            node[path[-1]] = resolve(node[path[-1]])
    return out


def _check_url(url: str, shown: str, who: str) -> None:
    """Refuse a URL no client can send to, as bad input (exit 2), before any connection."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError when out of range
    except ValueError as exc:
        reason = str(exc)
        raise named(f"{who}cannot send to {shown}: {reason[:1].lower()}{reason[1:]}", "check ", "",
                    names=_BASE_URL) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise named(f"{who}cannot send to {shown}: not an http(s) URL", "check ", "", names=_BASE_URL) from None
    if "@" in parts.netloc:  # endpoint() refuses it in a base URL; a request built another way too
        from .request_parts import redact_url, url_problem

        raise named(f"{who}cannot send to {redact_url(shown)}: {url_problem(shown)}", "check ", "", names=_BASE_URL)
    host = parts.hostname
    if host.startswith("xn--"):  # httpx decodes such a name when it connects: one IDNA cannot read (xn--zz) was the
        import idna  # runner's internal_error. (idna, not httpx: httpx's import is the runner's, load_http_stack)

        try:
            idna.decode(host)
        except idna.IDNAError as exc:
            raise named(f"{who}cannot send to {shown}: the host {host!r} is not a valid name "
                        f"(IDNAError: {str(exc)[:80]})", "check ", "", names=_BASE_URL) from None


# a URL no client can send to: "check RenderOptions(base_url=...)" (the command line's "check --base-url")
_BASE_URL = ("base_url",)


# ---- sending -----------------------------------------------------------------------------


def _retryable_exception(exc: Exception) -> bool:
    import httpx

    return isinstance(exc, (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError))


def _describe(exc: Exception, prepared: Prepared) -> str:
    import errno

    import httpx

    if _os_errno(exc) in (errno.EMFILE, errno.ENFILE):
        return redact(f"this machine ran out of file descriptors (too many open files) before the request "
                      f"could be sent; lower --concurrency or raise `ulimit -n` ({prepared.method} "
                      f"{prepared.display_url})", prepared.secrets)

    kind = {
        httpx.ConnectTimeout: "connect timeout",
        httpx.ReadTimeout: "read timeout",
        httpx.WriteTimeout: "write timeout",
        httpx.PoolTimeout: "connection pool timeout",
        httpx.ConnectError: "connection failed",
        httpx.RemoteProtocolError: "connection dropped",
        httpx.ReadError: "connection broken while reading",
        httpx.WriteError: "connection broken while sending",
        httpx.UnsupportedProtocol: "unsupported URL",
    }
    label = next((text for cls, text in kind.items() if isinstance(exc, cls)), type(exc).__name__)
    detail = printable(str(exc)).strip()
    text = f"{label}: {detail}" if detail else label
    local = ""
    if _os_errno(exc) == errno.ECONNREFUSED and is_loopback(prepared.url):  # a local model server not started
        local = nothing_listens(prepared.display_url)
    return redact(f"{text} ({prepared.method} {prepared.display_url}){local}", prepared.secrets)


def _os_errno(exc: BaseException) -> int | None:
    """The errno of the OSError behind an httpx/httpcore exception, if any."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, OSError) and exc.errno is not None:
            return exc.errno
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
        seen += 1
    return None


def decode_body(raw: bytes, encoding: str | None) -> str:
    """A body's text: in the charset the server named, else (or when that fails) UTF-8, a byte it cannot
    decode replaced."""
    try:
        return raw.decode(encoding or "utf-8")
    except (LookupError, UnicodeDecodeError):
        return raw.decode("utf-8", errors="replace")


def parse_body(raw: bytes, encoding: str | None) -> Any:
    """A body's JSON as ``_decode`` reads it, or None (a ``runner.Sample``'s ``raw_json``, parsed when asked)."""
    return _decode(raw, encoding)[1]


def _decode(raw: bytes, encoding: str | None) -> tuple[str, Any, str | None, tuple[str, ...]]:
    """The body as received: its text, its JSON (or None), why it is not JSON, and the keys it names twice in
    one object (``bounded.json_loads_twice``: the last kept, as the SDKs read it). Never redacted: parsing reads
    the real bytes."""
    text = decode_body(raw, encoding)
    if not text.strip():
        return text, None, "empty body", ()
    try:
        body, twice = json_loads_twice(text)
        return text, body, None, twice
    except Unreadable as exc:
        return text, None, f"not JSON this program can read: {exc}", ()
    except ValueError as exc:
        return text, None, f"not JSON: {exc}", ()


class _Attempts:
    """The retry loop's bookkeeping, shared by the blocking and the asyncio sender."""

    def __init__(self, prepared: Prepared, provider: str, policy: RetryPolicy, rng: Callable[[], float]) -> None:
        self.prepared = prepared
        self.provider = provider
        self.policy = policy
        self.rng = rng
        self.started = time.perf_counter()
        self.t0 = self.started
        self.attempts: list[Attempt] = []
        self.response: Response | None = None

    def begin(self) -> None:
        self.t0 = time.perf_counter()

    def _record(self, status: int | None, error: str | None, wait: tuple[float, str] | None) -> None:
        latency = (time.perf_counter() - self.t0) * 1000.0
        self.attempts.append(Attempt(status, error, latency, *(wait or (0.0, None))))

    def failed(self, exc: Exception) -> float | None:
        """A transport exception: the wait before the next try, or None (``self.response`` set)."""
        import httpx

        if isinstance(exc, (httpx.InvalidURL, httpx.UnsupportedProtocol)):
            who = f"{self.provider}: " if self.provider else ""
            raise named(f"{who}cannot send to {self.prepared.display_url}: {redact(str(exc), self.prepared.secrets)}",
                        "check ", " / providers.<id>.base_url", names=_BASE_URL) from None
        error = _describe(exc, self.prepared)
        wait = None
        if _retryable_exception(exc):
            wait = next_wait(len(self.attempts), None, {}, time.perf_counter() - self.started, self.policy, self.rng)
        self._record(None, error, wait)
        if wait is None:
            self.response = self._final(None, {}, b"", None, error)
            return None
        return wait[0]

    def answered(self, status: int, headers: Mapping[str, str], raw: bytes, encoding: str | None) -> float | None:
        """An HTTP response: the wait before the next try, or None (``self.response`` set)."""
        wait = None
        if status >= 300:
            wait = next_wait(len(self.attempts), status, headers, time.perf_counter() - self.started,
                             self.policy, self.rng)
        self._record(status, None, wait)
        if wait is None:
            self.response = self._final(status, headers, raw, encoding, None)
            return None
        return wait[0]

    def too_large(self, limits: "SendLimits", status: int | None = None) -> None:
        """The body passed the size cap: the attempt is final, nothing of it is kept. Its attempt keeps the
        status that did arrive (an answer, not silence: probe tells the two apart)."""
        mib = limits.max_body_bytes / (1024 * 1024)
        from . import limits as limit_data

        raise_it = f" (limit reply_bytes: {limit_data.raise_hint('reply_bytes')})" if limits.from_limits else ""
        amount = f"{mib:g} MiB" if mib >= 1 else f"{limits.max_body_bytes} bytes"
        error = (f"response body larger than {amount} once decoded; reading stopped there{raise_it} "
                 f"({self.prepared.method} {self.prepared.display_url})")
        self._record(status, error, None)
        self.response = self._final(None, {}, b"", None, error)

    def _final(self, status: int | None, headers: Mapping[str, str], raw: bytes, encoding: str | None,
               error: str | None) -> Response:
        redactor = self.prepared.redactor
        body, json_error, twice = (None, None, ()) if status is None else _decode(raw, encoding)[1:]
        return Response(
            status=status,
            headers={k.lower(): self.prepared.shown_header(v) for k, v in headers.items()},
            raw=raw if status is not None else b"", encoding=encoding, body=body,
            json_error=redactor.text(json_error) if json_error else None,
            latency_ms=self.attempts[-1].latency_ms if self.attempts else 0.0,
            elapsed_ms=(time.perf_counter() - self.started) * 1000.0,
            attempts=self.attempts, transport_error=error, stopped=self._stopped(status, headers),
            redactor=redactor, twice=twice,
        )

    def _stopped(self, status: int | None, headers: Mapping[str, str]) -> str | None:
        """Why a retryable answer was not retried, when that was not just running out of retries."""
        if status is None or status < 300 or not should_retry(status, headers):
            return None
        if len(self.attempts) > self.policy.retries:
            return None
        server = retry_after(headers)
        if server is not None and server[0] > self.policy.max_server_wait:
            return (f"not retried: the server asked to wait {server[0]:g} s ({server[1]}), longer than the "
                    f"{self.policy.max_server_wait:g} s this program waits")
        return (f"not retried: another attempt would pass the {self.policy.total_budget:g} s "
                "budget for all attempts and waits")


async def send_async(request: Request, *, provider: str = "", timeouts: Timeouts = Timeouts(),
                     policy: RetryPolicy = RetryPolicy(), environ: Mapping[str, str] | None = None,
                     prepared: Prepared | None = None,
                     sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                     rng: Callable[[], float] = random.random, client: Any = None,
                     limits: SendLimits | None = None) -> Response:
    """Send ``request``, retrying per ``policy``; pass a shared client (``new_async_client``) to run
    samples concurrently. HTTP and network failures come back in the Response; ToolchoiceError is
    raised only for a missing key or an unusable URL."""
    import httpx

    limits = limits if limits is not None else SendLimits.configured()
    prepared = prepared or prepare(request, provider, environ)
    own = client is None
    client = client or httpx.AsyncClient(**_client_kwargs(timeouts))
    loop = _Attempts(prepared, provider, policy, rng)
    try:
        while True:
            loop.begin()
            try:
                try:
                    r, raw = await _within(_fetch(client, prepared, limits), _attempt_limit(client))
                except asyncio.TimeoutError:
                    raise _too_slow(httpx) from None
                if raw is None:
                    loop.too_large(limits, r.status_code)
                    return loop.response  # type: ignore[return-value]
                wait = loop.answered(r.status_code, r.headers, raw, r.encoding)
            except httpx.HTTPError as exc:
                wait = loop.failed(exc)
            except httpx.InvalidURL as exc:
                wait = loop.failed(exc)
            if wait is None:
                assert loop.response is not None
                return loop.response
            await paused(sleep, wait)
    finally:
        if own:
            await client.aclose()


async def _within(work: Awaitable[Any], seconds: float) -> Any:
    """``await work``, cancelled after ``seconds`` (asyncio.TimeoutError). On Python 3.11+ the
    attempt runs in the caller's task under ``asyncio.timeout``; ``wait_for`` (3.10) wraps it in a
    task of its own, one more task and a few more loop turns for every request."""
    timeout = getattr(asyncio, "timeout", None)
    if timeout is None:
        return await asyncio.wait_for(work, seconds)
    async with timeout(seconds):
        return await work


def _attempt_limit(client: Any) -> float:
    """One attempt, as a whole (connect + every read), may take connect + read timeout: a body that
    trickles in, each piece under the read timeout, still ends."""
    timeout = client.timeout
    return (timeout.connect or 10.0) + (timeout.read or 120.0)


def _too_slow(httpx: Any) -> Exception:
    return httpx.ReadTimeout("the response as a whole took longer than the timeout allows")


async def _fetch(client: Any, prepared: Prepared, limits: SendLimits) -> tuple[Any, bytes | None]:
    """The response and its decoded body, or None for the body once it passes ``limits``. On aiohttp's
    connections (``aio_transport.Client``) without httpx's request and response objects."""
    if getattr(client, "direct_fetch", False):
        from .aio_transport import fetch

        return await fetch(client, prepared, limits.max_body_bytes)
    request = client.build_request(prepared.method, prepared.httpx_url, headers=prepared.headers,
                                   content=prepared.content)
    r = await client.send(request, stream=True)
    try:
        chunks, size = [], 0
        async for chunk in r.aiter_bytes():
            size += len(chunk)
            if size > limits.max_body_bytes:
                return r, None
            chunks.append(chunk)
        return r, b"".join(chunks)
    finally:
        await r.aclose()
