"""`toolchoice doctor`: what this machine would send with — which provider key variables are set
(names only: a value is never read into the output), base-URL overrides in a scenario, proxy
variables, and the versions of toolchoice, Python and its dependencies."""

from __future__ import annotations

import os
import platform
import sys
from enum import Enum
from pathlib import Path
from typing import Any, Optional

import typer

from toolchoice.providers.core.capabilities import CAPABILITIES

from .exits import handled
from .output import dumps, shown_path, terminal_width, write, write_json

DEPENDENCIES = ("typer", "rich", "httpx", "pyyaml", "jsonschema", "orjson", "aiohttp", "httpx-aiohttp")
PROXY_VARIABLES = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY",
                   "no_proxy")
CERTIFICATE_VARIABLES = ("SSL_CERT_FILE", "SSL_CERT_DIR")  # the CA bundle httpx trusts (trust_env), not proxies


class DoctorFormat(str, Enum):
    pretty = "pretty"
    json = "json"


def _version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def _key_optional() -> dict[str, bool]:
    """Which providers send without a key (local servers), as their translators say."""
    from toolchoice.providers.core.registry import translate
    from toolchoice.providers.core.scenario import load_scenario_text

    probe = load_scenario_text("tools: [{name: t}]\nmessages: [{role: user, content: hi}]\n", "<doctor>")
    out = {}
    for provider in CAPABILITIES:
        request = translate(provider, probe).request
        out[provider] = bool(request is not None and request.key_optional)
    return out


def report(scenario: Optional[Path]) -> dict[str, Any]:
    keys = []
    optional = _key_optional()
    from toolchoice.providers.core.transport import key_problem

    for provider, cap in CAPABILITIES.items():
        set_names = [name for name in cap.key_env if os.environ.get(name)]
        problem = key_problem(set_names[0], os.environ[set_names[0]]) if set_names else None  # the one send reads
        row = {"provider": provider, "variables": list(cap.key_env), "set": set_names,
               "key_optional": optional[provider], "ready": problem is None and (bool(set_names) or optional[provider])}
        if problem is not None:
            row["problem"] = f"{problem[0]} ({problem[1]})"
        keys.append(row)
    overrides: list[dict[str, str]] = []
    if scenario is not None:
        from .inputs import load_path

        from .output import output_redactor

        loaded = load_path(scenario)
        redact = output_redactor([s.api_key_env for s in loaded.providers.values() if s.api_key_env]).text
        overrides = [{"provider": pid, "base_url": redact(settings.base_url),  # a key written into it is not shown
                      "gateway": bool(settings.gateway)}  # it fronts the API's own host, whose rules hold there
                     for pid, settings in loaded.providers.items() if settings.base_url]
    return {"toolchoice": _version("toolchoice"), "python": platform.python_version(), "executable": sys.executable,
            "dependencies": {name: _version(name) for name in DEPENDENCIES},
            "keys": keys, "base_url_overrides": overrides,
            "proxy_variables_set": [name for name in PROXY_VARIABLES if os.environ.get(name)],
            "certificate_variables_set": [name for name in CERTIFICATE_VARIABLES if os.environ.get(name)]}


@handled
def doctor(
    scenario: Optional[Path] = typer.Argument(None, help="Also list the base URLs this scenario overrides.",
                                              show_default=False),
    format: DoctorFormat = typer.Option(DoctorFormat.pretty, "--format", "-f", help="pretty or json."),
) -> None:
    """Check the set-up: key variables set (names only), base-URL overrides, proxy and CA certificate variables, versions."""
    data = report(scenario)
    if format is DoctorFormat.json:
        write_json(dumps(data))
        return
    from .word_breaks import text_lines

    deps = ", ".join(f"{k} {v or 'missing'}" for k, v in data["dependencies"].items())
    lines = [f"toolchoice {data['toolchoice']} · Python {data['python']} ({data['executable']})", f"  {deps}", "",
             "keys (names only; values are never shown):"]
    for row in data["keys"]:
        if row.get("problem"):
            state = f"{' / '.join(row['set'])} set, but send refuses it: {row['problem']}"
        elif row["set"]:
            state = f"{' / '.join(row['set'])} set"
        elif row["key_optional"]:
            state = f"local server, no key needed ({row['variables'][0]} if it asks)"
        else:
            state = f"missing: export {row['variables'][0]}"
        lines.append(f"  {'✔' if row['ready'] else '✘'} {row['provider']:<17} {state}")
    if scenario is not None:
        lines += ["", f"base URLs overridden in {shown_path(scenario)}:"]
        fronts = " (gateway: the API's own rules hold there)"
        lines += [f"  {o['provider']:<17} {o['base_url']}{fronts if o['gateway'] else ''}"
                  for o in data["base_url_overrides"]] or ["  (none)"]
    lines += ["", "proxy variables set: " + (", ".join(data["proxy_variables_set"]) or "(none)"),
              "CA certificate variables set: " + (", ".join(data["certificate_variables_set"]) or "(none)"),
              "--base-url on the command line overrides a scenario's base URL for one run."]
    width = terminal_width()
    folded = []  # every line within the terminal's width, a key line's rest under its state (a trial at 60)
    for line in lines:
        indent = " " * (24 if line.startswith(("  ✔ ", "  ✘ ")) else len(line) - len(line.lstrip()))
        folded += text_lines(line, width, subsequent_indent=indent) or [""]  # a URL broken after a `/`
    write("\n".join(folded))
