"""Whose rules a refusal states, when a base URL replaces a hosted API's own host.

A hosted row's refusals quote that host's sources: api.openai.com refuses 129 tools, a call left without its
result, tool_choice with no tools; a server that speaks the same wire format at another address (llama-cpp-
python, vLLM, docs/real-model.md's ``-p openai --base-url``) may take the same request. No source says
what that server refuses, so there such a refusal is a warning that quotes the host's words and the request is
sent as written; ``--strict`` refuses it again. Rows for server software (vLLM, llama.cpp, Ollama: their
default endpoint is a local address) state what that software does wherever it runs: their refusals hold at
any base URL. Model rules follow the model id, not the host, and stay refusals.

A base URL that fronts the API's own host (a gateway, a proxy, ``toolchoice mock``) replaces no host: with
``--gateway`` or ``providers.<id>.gateway: true`` the host's rules hold there, refusals refuse and changes are made,
and the body is the one rendered without a base URL."""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from .request_parts import fronted, redact_url

if TYPE_CHECKING:
    from .capabilities import Capability
    from .model import ProviderSettings, RenderOptions
    from .request_context import Context

# the default endpoints of rows for server software a user runs themselves (capabilities.py)
_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})
# hosts that are the API's own beside the row's, by the domain each ends in: Azure's row names the user's resource
# (Azure's REST reference: https://{your-resource-name}.openai.azure.com); OpenAI's regional and mTLS hosts
# (openai 3.57.0 _data_residency.py: "eu": "https://eu.api.openai.com/v1" ... "jp": "https://jp.api.openai.com/v1";
# auth/_x509.py: "https://mtls-eu.api.openai.com/v1")
_OWN_DOMAINS = {"{endpoint}": ".openai.azure.com", "api.openai.com": ".api.openai.com"}
# other hosts of the same API: together 3.1.1 posts chat to api-inference.together.ai, its client's default is
# api.together.ai (_client.py) and its CLI counts ("api.together.ai", "api.together.xyz") as Together's own (jig.py).
# A placeholder stands for one DNS label, as in the rows' own hosts. Read 2026-11-27:
# - cohere 7.3.1 client.py fix_base_url: 'if "cohere.com" in base_url or "cohere.ai" in base_url: return
#   base_url.replace("/v1", "")' (the SDK takes a cohere.ai base URL as Cohere's own, as cohere.com)
# - botocore 1.44.8 data/bedrock-runtime/2023-09-30/endpoint-rule-set-1.json: "https://bedrock-runtime-fips.{Region}.
#   {PartitionResult#dnsSuffix}", "https://bedrock-runtime.{Region}.{PartitionResult#dualStackDnsSuffix}" and
#   "https://bedrock-runtime-fips.{Region}.{PartitionResult#dualStackDnsSuffix}"; data/partitions.json, partition aws:
#   'dnsSuffix': 'amazonaws.com', 'dualStackDnsSuffix': 'api.aws' (its data/endpoints.json lists no bedrock-runtime)
# - an interface VPC endpoint (AWS PrivateLink) for the runtime: Bedrock's user guide (vpc-interface-endpoints.html):
#   "Amazon Bedrock Runtime API actions | bedrock-runtime" (the endpoint suffix); AWS's PrivateLink whitepaper
#   (creating-highly-available-endpoint-services.html): "The hostname includes a unique endpoint identifier, service
#   identifier, the Region, and vpce.amazonaws.com in its name; for example: vpce-0fe5b17a0707d6abc-29p5708s.ec2.
#   us-east-1.vpce.amazonaws.com", and the zonal one "vpce-0fe5b17a0707d6abc-29p5708s-us-east-1a.ec2..." (one label)
_OWN_HOSTS = {
    "api-inference.together.ai": frozenset({"api.together.ai", "api.together.xyz"}),
    "api.cohere.com": frozenset({"api.cohere.ai"}),
    "bedrock-runtime.{region}.amazonaws.com": frozenset({
        "bedrock-runtime-fips.{region}.amazonaws.com", "bedrock-runtime.{region}.api.aws",
        "bedrock-runtime-fips.{region}.api.aws", "vpce-{endpoint}.bedrock-runtime.{region}.vpce.amazonaws.com"}),
}


def _own(own: str, written: str) -> bool:
    """Whether ``written`` (lower case) is the row's own host ``own`` or another host of the same API
    (``_OWN_HOSTS``): a placeholder in a dotted host (Bedrock's bedrock-runtime.{region}.amazonaws.com) stands for
    one DNS label, so every region's host is the API's own."""
    return _one_of(own, written) or any(_one_of(other, written) for other in _OWN_HOSTS.get(own, ()))


def _one_of(own: str, written: str) -> bool:
    if "{" not in own or own.startswith("{"):
        return written == own
    pattern = r"[a-z0-9-]+".join(re.escape(part) for part in re.split(r"\{[^}]*\}", own))
    return re.fullmatch(pattern, written) is not None


def _host(endpoint: str) -> str:
    authority = endpoint.split("://", 1)[-1].split("/", 1)[0]
    return authority if authority.startswith("[") else authority.split(":", 1)[0]


def api_of_host(host: str, port: int | None = None) -> list[str]:
    """The provider ids whose API's own host ``host`` is: the row's host, another host of the same API
    (``_OWN_HOSTS``, ``_OWN_DOMAINS``: every Azure resource, OpenAI's regional hosts, every Bedrock region); for the
    rows of server software (a local default endpoint: Ollama, vLLM, llama.cpp) the local address at the row's
    port. ``trace FILE.har`` tells a recorded entry's provider by it (with the path its module serves)."""
    from urllib.parse import urlsplit

    from .capabilities import CAPABILITIES

    written = host.lower()
    written = written[:-1] if written.endswith(".") else written
    local = written in _LOCAL_HOSTS or f"[{written}]" in _LOCAL_HOSTS
    found = []
    for provider, cap in CAPABILITIES.items():
        own = _host(cap.endpoint)
        if own in _LOCAL_HOSTS:
            if local and port == urlsplit(cap.endpoint).port:
                found.append(provider)
        elif _own(own, written) or own in _OWN_DOMAINS and written.endswith(_OWN_DOMAINS[own]):
            found.append(provider)
    return found


def replaced_host(cap: Capability, options: RenderOptions, settings: ProviderSettings) -> str | None:
    """The base URL (``--base-url``, else ``providers.<id>.base_url``) when it replaces a hosted API's own host;
    None when there is none, when it names that host itself, or when the row is server software (its default
    endpoint is a local address)."""
    override = options.base_url or settings.base_url
    if not override:  # every translation asks: most have no base URL, so no host is parsed for them
        return None
    if fronted(options, settings):  # a gateway in front of the API's own host: that host's rules hold
        return None
    own = _host(cap.endpoint)
    if own in _LOCAL_HOSTS:
        return None
    written = _host(override).lower()
    written = written[:-1] if written.endswith(".") else written  # an absolute name, the same host (RFC 1034 3.1)
    if _own(own, written) or own in _OWN_DOMAINS and written.endswith(_OWN_DOMAINS[own]):  # the API's own host
        return None
    return override


def elsewhere(cap: Capability, url: str) -> str:
    """The words that close a host's refusal turned warning: whose rule it is, and why the request is sent. They
    follow the finding, so a narrow table shows what is wrong first."""
    return _elsewhere(cap.title, cap.endpoint, url)


def _own_host(title: str, endpoint: str) -> str:
    host = _host(endpoint)
    return f"{title}'s own host" if "{" in host else host  # Azure, Bedrock: a placeholder stands in the row's


@functools.lru_cache(maxsize=64)
def _elsewhere(title: str, endpoint: str, url: str) -> str:
    # every translation with a replaced host makes these words (translation.start): a loop's steps, a run's
    # repeats, parse the same URL once
    return (f" — the rule of {_own_host(title, endpoint)}; the base URL {redact_url(url)} replaces that host and the "
            "server there may take it, so it is sent as written (--strict refuses it; --gateway if the URL fronts "
            "that host)")


def refuse(ctx: Context, code: str, message: str) -> None:
    """The API's own source says it refuses this request: an error, or where a base URL replaces the API's host,
    a warning that says whose rule it is (the request is then sent as written)."""
    if ctx.other_host is None:
        ctx.ledger.error(code, message)
    else:
        ctx.ledger.warning(code, message + elsewhere(ctx.cap, ctx.other_host))


def change(ctx: Context, code: str, done: str, rule: str) -> bool:
    """A change the API's own source makes necessary to what the user wrote (a blank text left out, an id
    rewritten): True, and an info ``done`` saying what was changed, at the API's host; where a base URL replaces
    that host, False (the caller sends it as written) and a warning that quotes the ``rule``, as ``refuse`` does."""
    if ctx.other_host is None:
        ctx.ledger.info(code, done)
        return True
    ctx.ledger.warning(code, rule + elsewhere(ctx.cap, ctx.other_host))
    return False


def sent_elsewhere(ctx: Context, feature: str, what: str) -> bool:
    """``what``, a field the provider's wire format spells (OpenAI Chat's function.strict, parallel_tool_calls),
    which the hosted API's row says that API lacks (``feature`` unsupported: at its host the field is not sent):
    where a base URL replaces that host, True and a warning (``<feature>.unsupported``), and the caller sends it
    as written; else False, and the caller goes on as at the API's host."""
    if ctx.other_host is None:  # at the API's own host (most requests): no row to read, nothing to import
        return False
    from .capabilities import Level

    row = ctx.cap.feature(feature)
    if row.level is not Level.UNSUPPORTED:
        return False
    ctx.ledger.warning(f"{feature}.unsupported", f"{what} sent as written, though {ctx.cap.title} has no such switch "
                       f"({row.note}) and at {_own_host(ctx.cap.title, ctx.cap.endpoint)} it is left out: the base URL "
                       f"{redact_url(ctx.other_host)} replaces that host (--strict refuses it; --gateway if it fronts "
                       "that host)")
    return True
