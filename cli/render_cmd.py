"""`toolchoice render`: the exact request for each provider, and the ledger. A dry run: no socket."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.model import RenderOptions, Scenario, Translation
from toolchoice.providers.core.registry import translate

from . import exits
from .exits import handled
from .inputs import capabilities_from, scenario_with_override, selected_providers
from .output import output_redactor, print_pretty, translations_curl, translations_json, write


class RenderFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    curl = "curl"


SCENARIO = typer.Argument(..., help="Scenario file (YAML or JSON).", show_default=False)
PROVIDER = typer.Option(None, "--provider", "-p", help="Provider id (repeatable, comma lists, or 'all'). "
                        "Default: the scenario's providers, else all.")
TOOL_CHOICE = typer.Option(None, "--tool-choice", help="Override the scenario's tool_choice (same spellings: "
                           "auto, none, required, any, NAME, '{tool: NAME}', '{allowed: [a, b], mode: auto}', ...).")
MODEL = typer.Option(None, "--model", help="Model for every selected provider.")
BASE_URL = typer.Option(None, "--base-url", help="Base URL (each SDK's convention: OpenAI-style ones include /v1).")
STRICT = typer.Option(False, "--strict", help="Refuse any request whose ledger has a warning.")
NO_EMULATE = typer.Option(False, "--no-emulate", help="Send only what the provider supports natively; refuse emulations.")
CAPS = typer.Option(None, "--capabilities", help="Capability overlay measured by `toolchoice probe --save`.")
ALLOW_ENV = typer.Option(None, "--allow-env", metavar="NAME",
                         help="Let the scenario read this environment variable (repeatable, comma lists) beyond the "
                              "provider's own key: for $NAME in providers.<id>.headers or providers.<id>.api_key_env. "
                              "Also read from $TOOLCHOICE_ALLOW_ENV.")
ALLOW_ENV_SETTING = "TOOLCHOICE_ALLOW_ENV"  # the user-level setting: names, comma- or space-separated


def allowed_env(names: Optional[List[str]]) -> tuple[str, ...]:
    """--allow-env NAME values (repeatable, comma lists) and the names in $TOOLCHOICE_ALLOW_ENV."""
    import os
    import re

    found: list[str] = []
    if not isinstance(names, (list, tuple)):  # render() called as a function (send --dry-run): the default
        names = None
    for item in [*(names or []), os.environ.get(ALLOW_ENV_SETTING, "")]:
        for name in re.split(r"[,\s]+", item.strip()):
            if not name:
                continue
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                from toolchoice.providers.core.model import ToolchoiceError

                raise ToolchoiceError(f"--allow-env {name!r}: not an environment variable name",
                                      hint="give the name without $, e.g. --allow-env MY_TOKEN")
            found.append(name)
    return tuple(dict.fromkeys(found))


def build_translations(scenario: Scenario, providers: Optional[List[str]], model: Optional[str],
                       base_url: Optional[str], strict: bool, no_emulate: bool,
                       capabilities: Optional[Path], allow_env: Optional[List[str]] = None) -> list[Translation]:
    """The loaded scenario translated for each selected provider, with the command line's options.
    ``allow_env``: the --allow-env values as given ($TOOLCHOICE_ALLOW_ENV is added here)."""
    ids = selected_providers(providers, scenario)
    options = RenderOptions(strict=strict, emulate=not no_emulate, model=model, base_url=base_url,
                            allow_env=allowed_env(allow_env))
    caps = capabilities_from(capabilities)
    return [translate(pid, scenario, options, caps) for pid in ids]


@handled
def render(
    scenario: Path = SCENARIO,
    provider: Optional[List[str]] = PROVIDER,
    tool_choice: Optional[str] = TOOL_CHOICE,
    model: Optional[str] = MODEL,
    base_url: Optional[str] = BASE_URL,
    format: RenderFormat = typer.Option(RenderFormat.pretty, "--format", "-f", help="pretty, json or curl."),
    strict: bool = STRICT,
    no_emulate: bool = NO_EMULATE,
    capabilities: Optional[Path] = CAPS,
    allow_env: Optional[List[str]] = ALLOW_ENV,
) -> None:
    """Show each provider's exact HTTP request for the scenario and what changed on the way."""
    translations = build_translations(scenario_with_override(scenario, tool_choice), provider, model, base_url,
                                      strict, no_emulate, capabilities, allow_env)
    redactor = output_redactor()  # a key the shell expanded into --base-url, or written into the file
    translations = [redactor.data(t) for t in translations]
    if format is RenderFormat.json:
        write(translations_json(translations))
    elif format is RenderFormat.curl:
        write(translations_curl(translations))
    else:
        print_pretty(translations, {p: c.title for p, c in CAPABILITIES.items()})
    if any(t.refused for t in translations):
        raise typer.Exit(exits.REFUSED)
