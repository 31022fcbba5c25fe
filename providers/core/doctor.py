"""`toolchoice doctor`'s report as a library job: what this machine would send with — which provider key variables
are set (names only: a value is never read into the report), the base URLs a scenario overrides, proxy and CA
certificate variables, and the versions of toolchoice, Python and its dependencies. The command line draws it."""

from __future__ import annotations

import os
import platform
import sys
from typing import Any

from .capabilities import CAPABILITIES
from .model import Scenario

DEPENDENCIES = ("typer", "rich", "httpx", "pyyaml", "jsonschema", "orjson", "aiohttp", "httpx-aiohttp")
PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY",
                   "no_proxy")
CERTIFICATE_VARIABLES = ("SSL_CERT_FILE", "SSL_CERT_DIR")  # the CA bundle httpx trusts (trust_env), not proxies


def _version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def key_optional() -> dict[str, bool]:
    """Which providers send without a key (local servers), as their translators say."""
    from .registry import translate
    from .scenario import load_scenario_text

    probe = load_scenario_text("tools: [{name: t}]\nmessages: [{role: user, content: hi}]\n", "<doctor>")
    out = {}
    for provider in CAPABILITIES:
        request = translate(provider, probe).request
        out[provider] = bool(request is not None and request.key_optional)
    return out


def report(scenario: Scenario | None = None) -> dict[str, Any]:
    """The report as plain data (`doctor --format json` prints it as it is): per provider its key variables, those
    set, whether it sends without one and whether send would take the key set (``problem``: why not); the base URLs
    ``scenario`` overrides (a key written into one replaced by its placeholder), the proxy and CA certificate
    variables set, the versions."""
    from .key_help import key_problem

    keys = []
    optional = key_optional()
    for provider, cap in CAPABILITIES.items():
        set_names = [name for name in cap.key_env if os.environ.get(name)]
        problem = key_problem(set_names[0], os.environ[set_names[0]]) if set_names else None  # the one send reads
        row = {"provider": provider, "variables": list(cap.key_env), "set": set_names,
               "key_optional": optional[provider], "ready": problem is None and (bool(set_names) or optional[provider])}
        if problem is not None:
            row["problem"] = f"{problem[0]} ({problem[1]})"
        keys.append(row)
    overrides: list[dict[str, Any]] = []
    if scenario is not None:
        from .redaction import Redactor, environment_secrets

        names = tuple(s.api_key_env for s in scenario.providers.values() if s.api_key_env)
        redact = Redactor(environment_secrets(os.environ, names)).text
        overrides = [{"provider": pid, "base_url": redact(settings.base_url),  # a key written into it is not shown
                      "gateway": bool(settings.gateway)}  # it fronts the API's own host, whose rules hold there
                     for pid, settings in scenario.providers.items() if settings.base_url]
    return {"toolchoice": _version("toolchoice"), "python": platform.python_version(), "executable": sys.executable,
            "dependencies": {name: _version(name) for name in DEPENDENCIES},
            "keys": keys, "base_url_overrides": overrides,
            "proxy_variables_set": [name for name in PROXY_VARIABLES if os.environ.get(name)],
            "certificate_variables_set": [name for name in CERTIFICATE_VARIABLES if os.environ.get(name)]}
