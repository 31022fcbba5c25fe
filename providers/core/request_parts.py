"""What a request gets beyond the translator's body: the URL (``endpoint``, with ``url_problem`` and
``redact_url`` for base URLs), ``providers.<id>.extra`` merged in, the user's headers, the bearer
header, and which environment variables the request reads at send time (``check_environment``)."""

from __future__ import annotations

import re
from typing import Any

from .model import ProviderSettings, RenderOptions, ToolchoiceError, compact
from .request_context import Context


def url_problem(url: str, base: bool = True) -> str | None:
    """Why a base URL cannot be used as one, or None. A user name or password in it would make
    httpx send Basic auth instead of the provider's key header (and the password travels); a
    query string or fragment would have the endpoint path appended after it. ``base=False``: a URL
    sent as is (an MCP server's), where a query string is refused as a place a key could be written."""
    from urllib.parse import urlsplit

    if "@" in _lenient_authority(url):  # before parsing: a password may hold '#', '?', '/' or '['
        return "it holds a user name or password (user:pass@host); keys are read from the environment"
    try:
        parts = urlsplit(url)
    except ValueError:
        return None  # reported by the caller's own check
    if parts.query or url.rstrip().endswith("?"):
        return ("it holds a query string (?...), after which the endpoint path would be appended" if base else
                "it holds a query string (?...), where a key would be in the file and every output")
    if parts.fragment or "#" in url:
        return "it holds a fragment (#...)"
    return None


def http_url_fault(url: str, base: bool = True) -> tuple[str, bool] | None:
    """Why ``url`` cannot be sent to, or None: the words that follow the place's name ("--base-url", a scenario
    key, ...) and whether the fault is in its parts (user info, query, fragment: ``url_problem``) rather than in
    its form (a hint then shows the form). url_problem first: it reads a password holding '#', '?', '/' or '['
    as urllib would not. The parser's own words are never shown: they may quote a password read as a port."""
    from urllib.parse import urlsplit

    problem = url_problem(url, base)
    if problem:
        return f"{redact_url(url)}: {problem}", True
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError when out of range
    except ValueError as exc:
        why = "its port is not a number from 0 to 65535" if "port" in str(exc).lower() else "it does not parse"
        return f"is not a URL ({why})", False
    if parts.scheme not in ("http", "https") or not parts.hostname or any(ch.isspace() or ord(ch) < 32 for ch in url):
        return f"must be an http(s) URL with a host, not {redact_url(url)!r}", False
    return None


def redact_url(url: str) -> str:
    """``url`` with any user info and query values left out, for messages."""
    from urllib.parse import urlsplit

    if "@" in url and "://" not in url:  # no authority for urllib ('http:/user:pass@host'): all before '@' may be it
        scheme, sep, _ = url.partition(":")
        return f"{scheme + ':' if sep and scheme.lower() in ('http', 'https') else ''}…@{url.rsplit('@', 1)[1]}"

    authority = _lenient_authority(url)
    if "@" in authority:  # whatever urllib would make of it (a password holding '#' reads as a fragment)
        scheme, _, rest = url.partition("://")
        url = f"{scheme}://…@{authority.rsplit('@', 1)[1]}{rest[len(authority):]}"
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc.rsplit("@", 1)[-1]
    if "@" in parts.netloc:
        netloc = "…@" + netloc
    return parts._replace(netloc=netloc, query="…" if parts.query else "", fragment="").geturl()


def _lenient_authority(url: str) -> str:
    """The host part as a user who pasted ``user:pass@host`` meant it: urllib ends it at the first '?', '#' or '/',
    so a password holding one was read as a query, a fragment or a path (and its start as a host and port)."""
    import re

    rest = url.partition("://")[2]
    head = rest.partition("/")[0]
    if "@" in head or "@" not in rest or re.fullmatch(r"(\[[^\]]*\]|[^:\[\]]*)(:\d*)?", head):
        return head
    at = rest.rindex("@")  # 'user:pa/ss@host/path': what precedes the first '/' is no host[:port]
    end = rest.find("/", at)
    return rest if end < 0 else rest[:end]


# the first character no URL path takes as written: \s is str.isspace's set (both are Py_UNICODE_ISSPACE)
_PATH_ENDS = re.compile(r"[\s\x00-\x1f?#]").search


def endpoint(ctx: Context, default_base: str, path: str) -> str:
    """``base + path``, where base is --base-url, providers.<id>.base_url or the default.

    Base URLs follow each official SDK: OpenAI-style ones include /v1, Anthropic's does not."""
    override = ctx.options.base_url or ctx.settings.base_url
    written = path if override else default_base.split("://", 1)[-1] + path  # a model id or deployment is in it
    found = _PATH_ENDS(written)
    bad = found[0] if found is not None else None
    if bad is not None:
        what = "a space or a control character" if bad not in "?#" else f"'{bad}', which ends a URL's path"
        ctx.ledger.error("endpoint.path_invalid", f"the URL path {written!r} holds {what}: the model id or deployment "
                         "as written cannot be sent; write it as the provider lists it")
    if override:
        dash = override.startswith("-")  # the option's name follows: "write the URL right after --base-url"
        problem = url_problem(override) if not dash else \
            f"{override!r} is an option's name, taken as the URL; write the URL right after "
        if problem:
            said, hint = f" {redact_url(override)}: {problem}", "give scheme://host[:port]/path only"
            if ctx.options.base_url:  # RenderOptions(base_url=...): the jobs' door's words, the command line's option
                from .errors import named

                parts = ("", said, "") if dash else ("", said)
                raise named(parts, hint, names=("base_url",) * (len(parts) - 1),
                            spelling={"base_url": "options.base_url"})
            raise ToolchoiceError(f"providers.{ctx.provider}.base_url{said}{'--base-url' if dash else ''}", hint=hint)
        # a base made from a setting left unset (Azure's resource, providers.azure.endpoint) is a path alone
        own = default_base if "://" in default_base else f"providers.{ctx.provider}.endpoint + {default_base}"
        if fronted(ctx.options, ctx.settings):  # core/host_rules.py: the host's rules hold at the base URL
            said = "--gateway" if ctx.options.gateway else f"providers.{ctx.provider}.gateway"
            ctx.ledger.info("endpoint.base_url", f"base URL {override} stands in front of {own} ({said}): "
                            "that host's rules hold there")
        else:
            ctx.ledger.info("endpoint.base_url", f"base URL {override} replaces {own}")
        return override.rstrip("/") + path
    if ctx.options.gateway or ctx.settings.gateway:
        said = "--gateway" if ctx.options.gateway else f"providers.{ctx.provider}.gateway"
        ctx.ledger.info("endpoint.gateway", f"{said} changes nothing: no base URL is set, so the request goes to "
                        f"{default_base} itself")
    return default_base + path


def fronted(options: RenderOptions, settings: ProviderSettings) -> bool:
    """The base URL stands in front of the API's own host, whose rules then hold there (core/host_rules.py):
    ``--gateway`` (for ``--base-url`` or the scenario's base URLs), or ``providers.<id>.gateway: true`` for
    ``providers.<id>.base_url`` (a ``--base-url`` on the command line replaces that URL and the file's word about
    it, so it needs its own ``--gateway``)."""
    if options.base_url:
        return options.gateway
    return bool(options.gateway or settings.gateway)


def merge_extra(ctx: Context, body: dict[str, Any], whole: tuple[str, ...] = ()) -> dict[str, Any]:
    """Merge providers.<id>.extra into the body last; overrides are warnings, additions info. An object that only
    adds members to the translated object under the same key (``generationConfig: {topK: 40}`` beside the
    translated temperature) is merged into it, member by member at every depth; any other value replaces the
    translated one whole. ``whole`` is the tool choice's path, whose last field is sent as written (a
    ``tool_choice`` object written as it should go replaces the translated one whole); a field that holds the
    choice among other members (Gemini's and Bedrock's ``toolConfig``) takes extra's members as the body does:
    Gemini's ``retrievalConfig`` goes in beside the translated functionCallingConfig."""
    return _merged_into(ctx, body, ctx.settings.extra, "extra", whole, top=True)


def _merged_into(ctx: Context, into: dict[str, Any], extra: dict[str, Any], where: str, whole: tuple[str, ...],
                 top: bool = False) -> dict[str, Any]:
    """``extra``'s members put into ``into`` (the body, or a field on the tool choice's path that holds it); a
    member equal to the translated one is said only at the top, where extra's every member is."""
    for key, value in extra.items():
        path = f"{where}.{key}"
        if key in into and into[key] != value:
            if len(whole) > 1 and key == whole[0] and isinstance(into[key], dict) and isinstance(value, dict) and value:
                into[key] = _merged_into(ctx, dict(into[key]), value, path, whole[1:])
                continue
            if key not in whole[:1] and adds_only(into[key], value):
                for added_path, added in _additions(into[key], value, path):
                    ctx.ledger.info("extra.merged", f"{added_path} = {compact(added)[:120]} added to the body")
                into[key] = merged(into[key], value)
                continue
            ctx.ledger.warning("extra.overrides", f"{path} replaces the translated value "
                               f"{compact(into[key])[:120]} with {compact(value)[:120]}")
        elif key in into and not top:
            continue
        else:
            ctx.ledger.info("extra.merged", f"{path} = {compact(value)[:120]} added to the body")
        into[key] = value
    return into


def adds_only(translated: Any, extra: Any) -> bool:
    """Whether ``extra`` is an object that only adds members to the object ``translated`` (at any depth): each of
    its members is absent there, equal there, or an object that only adds to the object there. An empty object adds
    nothing: it replaces (``generationConfig: {}`` sends an empty one, as before)."""
    if not isinstance(translated, dict) or not isinstance(extra, dict) or not extra:
        return False
    return all(k not in translated or translated[k] == v or adds_only(translated[k], v) for k, v in extra.items())


def merged(translated: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``translated`` with ``extra``'s members added (``adds_only`` holds), in the translated order first."""
    out = dict(translated)
    for k, v in extra.items():
        out[k] = merged(out[k], v) if isinstance(out.get(k), dict) and isinstance(v, dict) else v
    return out


def _additions(translated: dict[str, Any], extra: dict[str, Any], where: str) -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for k, v in extra.items():
        if k not in translated:
            found.append((f"{where}.{k}", v))
        elif translated[k] != v:
            found.extend(_additions(translated[k], v, f"{where}.{k}"))
    return found


def extra_env(ctx: Context, body: dict[str, Any], url: str) -> list[tuple[Any, ...]]:
    """Where ``providers.<id>.extra`` holds a ``$NAME`` (alone or after one scheme word, as a key header takes it):
    the paths the transport resolves when sending (``Request.body_env``), each variable read only when the user
    allowed it, as a header's (``env_read``). A key written there as text is refused when the file is read
    (core/literal_keys.py)."""
    from urllib.parse import urlsplit

    paths: list[tuple[Any, ...]] = []

    def walk(value: Any, path: tuple[Any, ...]) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, path + (key,))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, path + (index,))
        elif isinstance(value, str) and "$" in value and SCHEMED_PLACEHOLDER.fullmatch(value):
            paths.append(path)
            match = ENV_PLACEHOLDER.search(value)
            where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")
            env_read(ctx, match.group(1) or match.group(2), f"body field {where} to {urlsplit(url).netloc or url}",
                     f"providers.{ctx.provider}.extra")

    for key, value in ctx.settings.extra.items():  # extra's own values: merged ones keep their paths in the body
        if key in body:
            walk(value, (key,))
    return paths


def with_user_headers(ctx: Context, headers: dict[str, str]) -> dict[str, str]:
    for name, value in ctx.settings.headers.items():
        verb = "replaces" if name.lower() in {h.lower() for h in headers} else "adds"
        ctx.ledger.info("headers.user", f"providers.{ctx.provider}.headers {verb} header {name}")
        headers = {k: v for k, v in headers.items() if k.lower() != name.lower()}
        headers[name] = value
    return headers


# A ``$NAME`` / ``${NAME}`` placeholder: the name is group 1 or 2. The transport resolves these at send time;
# the checks below and core/native_tools.py read the same ones.
ENV_PLACEHOLDER = re.compile(r"\$(?:\{([A-Z_][A-Z0-9_]*)\}|([A-Z_][A-Z0-9_]*))(?![A-Za-z0-9_])")
# A header value that holds a secret: the reference alone, or after one auth scheme word (RFC 9110 §11.4
# credentials = auth-scheme [ 1*SP token68 ]): "Bearer $T", "Basic $T", "Token $T". Letters only, so that no
# literal key (digits, -, _) can stand before the reference as its "scheme". An MCP tool's headers
# (core/native_tools.py) and a key header of providers.<id>.headers (core/scenario.py) take only this.
SCHEME = r"(?:[A-Za-z]{1,20} )?"
SCHEMED_PLACEHOLDER = re.compile(SCHEME + ENV_PLACEHOLDER.pattern)
HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an HTTP header name: RFC 9110 §5.6.2 token
HEADER_BREAK = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # a control but tab: RFC 9110 5.5, no field value holds one
FRAMING_HEADERS = ("content-length", "transfer-encoding")  # RFC 9112 section 6: the client writes them from the body


def env_read(ctx: Context, var: str, where: str, reader: str, allowed_then: str = "", refused_then: str = "") -> None:
    """A variable a scenario file names, sent in ``where``: a warning when the user allowed it (``--allow-env``,
    ``TOOLCHOICE_ALLOW_ENV``), an error naming ``reader`` and how to allow it otherwise. ``allowed_then`` /
    ``refused_then``: what each message says after ``where``."""
    if var in ctx.options.allow_env:
        ctx.ledger.warning("env.allowed", f"${var} (allowed by --allow-env) is read from the environment and sent "
                           f"in {where}{allowed_then}")
    else:
        ctx.ledger.error("env.not_allowed", f"{reader} reads ${var} from the environment and would send it in "
                         f"{where}{refused_then}: pass --allow-env {var} (or set TOOLCHOICE_ALLOW_ENV={var}) if you "
                         "trust this file")


def check_environment(ctx: Context, url: str, headers: dict[str, str], key_optional: bool = False) -> None:
    """Which environment variables the request reads at send time, and where each one goes.

    A provider's own key variables (the capability table's ``key_env``) are read without asking, to
    the provider's own host. Anything else a scenario file names (``$NAME`` in a header,
    ``api_key_env``) is read only when the user allowed it (``--allow-env NAME``, or
    ``TOOLCHOICE_ALLOW_ENV``): a scenario someone else wrote must not mail ``$GITHUB_TOKEN`` to a
    server of its choosing. Allowed ones are warnings naming the header and host (so --strict
    refuses them), others errors; so is the provider's own key sent to a base URL the scenario
    file chose.

    ``finish`` calls it only when the scenario sets headers, api_key_env or base_url: without them the
    request reads only what the translator wrote, the provider's own key (``$KEY_ENV[0]``), sent to the
    provider's own host, and there is nothing to say."""
    # The provider's own key to the provider's own host needs no entry: such reads are skipped as they
    # are found (and a header or URL without "$" reads nothing).
    own = ctx.cap.key_env if not (ctx.settings.base_url and not ctx.options.base_url) else ()
    reads: dict[str, list[str]] = {}
    for name, value in headers.items():
        if "$" in value:
            for match in ENV_PLACEHOLDER.finditer(value):
                var = match.group(1) or match.group(2)
                if var not in own:
                    reads.setdefault(var, []).append(f"header {name}")
    if "$" in url:
        for match in ENV_PLACEHOLDER.finditer(url):
            var = match.group(1) or match.group(2)
            if var in ctx.key_env and var not in own:  # the only placeholders a URL resolves (Gemini's ?key=)
                reads.setdefault(var, []).append("the URL")
    for var, places in reads.items():
        from urllib.parse import urlsplit

        where = f"{' and '.join(dict.fromkeys(places))} to {urlsplit(url).netloc or url}"
        source = (f"providers.{ctx.provider}.api_key_env" if var == ctx.settings.api_key_env
                  else f"providers.{ctx.provider}.headers")
        if var in ctx.cap.key_env:
            if ctx.settings.base_url and not ctx.options.base_url:
                when = " (when set: this server needs no key)" if key_optional else ""
                ctx.ledger.warning("env.key_destination", f"${var}{when} is sent in {where}, a base URL the scenario "
                                   f"file sets (providers.{ctx.provider}.base_url)")
            continue
        env_read(ctx, var, where, source,
                 refused_then=f"; only {' / '.join(ctx.cap.key_env) or 'no variable'} is read without asking")


def bearer(ctx: Context) -> dict[str, str]:
    """Content-Type plus ``Authorization: Bearer $KEY`` (the placeholder, never the value)."""
    env = ctx.key_env
    headers = {"Content-Type": "application/json"}
    if env:
        headers["Authorization"] = f"Bearer ${env[0]}"
    return headers
