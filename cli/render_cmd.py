"""`toolchoice render`: the exact request for each provider, and the ledger. A dry run: no socket."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, List, Optional

import typer

from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.model import RenderOptions, Scenario, ToolchoiceError, Translation
from toolchoice.providers.core.registry import translate

from . import exits
from .exits import handled
from .inputs import capabilities_from, scenario_with_override, selected_providers
from .output import dumps, output_redactor, print_pretty, translations_curl, translations_json, write


class Dialect(str, Enum):
    api = "api"
    langchain = "langchain"


class RenderFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    curl = "curl"


SCENARIO = typer.Argument(..., help="Scenario file (YAML or JSON); several with --snapshot.", show_default=False)
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
DIALECT = typer.Option(Dialect.api, "--dialect", help="api: what each API accepts. langchain: what LangChain's "
                       "bind_tools would send instead (or refuse), each difference in the ledger.")
SNAPSHOT = typer.Option("--snapshot", help="Check the wire snapshots in this folder (one file per scenario x "
                        "provider); exit 5 with a diff when any changed, is missing or is extra.")
UPDATE = typer.Option("--update", help="With --snapshot: write the snapshots instead of checking them.")
STREAM = typer.Option("--stream", help="The provider's streaming form (SSE, NDJSON or AWS event stream).")


def build_translations(scenario: Scenario, providers: Optional[List[str]], model: Optional[str],
                       base_url: Optional[str], strict: bool, no_emulate: bool,
                       capabilities: Optional[Path], stream: bool = False,
                       allow_env: Optional[List[str]] = None) -> list[Translation]:
    """The loaded scenario translated for each selected provider, with the command line's options.
    ``allow_env``: the --allow-env values as given ($TOOLCHOICE_ALLOW_ENV is added here)."""
    ids = selected_providers(providers, scenario)
    options = RenderOptions(strict=strict, emulate=not no_emulate, model=model, base_url=base_url, stream=stream,
                            allow_env=allowed_env(allow_env))
    caps = capabilities_from(capabilities)
    return [translate(pid, scenario, options, caps) for pid in ids]


@handled
def render(
    scenario: List[Path] = SCENARIO,
    provider: Optional[List[str]] = PROVIDER,
    tool_choice: Optional[str] = TOOL_CHOICE,
    model: Optional[str] = MODEL,
    base_url: Optional[str] = BASE_URL,
    format: RenderFormat = typer.Option(RenderFormat.pretty, "--format", "-f", help="pretty, json or curl."),
    strict: bool = STRICT,
    no_emulate: bool = NO_EMULATE,
    capabilities: Optional[Path] = CAPS,
    allow_env: Optional[List[str]] = ALLOW_ENV,
    dialect: Dialect = DIALECT,
    snapshot: Annotated[Optional[Path], SNAPSHOT] = None,  # Annotated: a direct call (send --dry-run) gets None
    update: Annotated[bool, UPDATE] = False,
    stream: Annotated[bool, STREAM] = False,  # Annotated: a direct call (send --dry-run) gets False
) -> None:
    """Show each provider's exact HTTP request for the scenario and what changed on the way."""
    if isinstance(scenario, Path):  # `send --dry-run` calls this function with its one scenario
        scenario = [scenario]
    if update and snapshot is None:
        raise ToolchoiceError("--update goes with --snapshot DIR")
    if snapshot is not None:
        rendered = []
        for path in scenario:
            loaded = scenario_with_override(path, tool_choice)
            translations = build_translations(loaded, provider, model, base_url, strict, no_emulate, capabilities, stream,
                                              allow_env)
            if dialect is Dialect.langchain:
                from toolchoice.providers.langchain_dialect import apply

                translations = [apply(t, loaded).translation for t in translations]
            rendered.append((str(path), translations))
        _snapshots(snapshot, rendered, update)
        return
    if len(scenario) > 1:
        raise ToolchoiceError("render takes one scenario file, or several with --snapshot DIR")
    loaded = scenario_with_override(scenario[0], tool_choice)
    translations = build_translations(loaded, provider, model, base_url, strict, no_emulate, capabilities, stream,
                                      allow_env)
    redactor = output_redactor(allowed_env(allow_env))  # a key the shell expanded into --base-url, say
    translations = [redactor.data(t) for t in translations]
    if dialect is Dialect.langchain:
        return _render_langchain(loaded, translations, format)
    if format is RenderFormat.json:
        write(translations_json(translations))
    elif format is RenderFormat.curl:
        write(translations_curl(translations))
    else:
        print_pretty(translations, {p: c.title for p, c in CAPABILITIES.items()})
    if any(t.refused for t in translations):
        raise typer.Exit(exits.REFUSED)


def _render_langchain(scenario: Scenario, translations: list[Translation], format: RenderFormat) -> None:
    """The requests LangChain's wrappers would send (each with the API request beside it in JSON)."""
    from toolchoice.providers.langchain_dialect import apply

    views = [apply(t, scenario) for t in translations]
    shown = [v.translation for v in views]
    if format is RenderFormat.json:
        data = [v.to_json() for v in views]
        write(dumps(data[0] if len(data) == 1 else data))
    elif format is RenderFormat.curl:
        write(translations_curl(shown))
    else:
        titles = {v.api.provider: f"{CAPABILITIES[v.api.provider].title} · LangChain {v.wrapper or '(no wrapper)'}"
                  for v in views}
        print_pretty(shown, titles)
    if any(t.refused for t in shown):
        raise typer.Exit(exits.REFUSED)


def _snapshots(directory: Path, rendered: list[tuple[str, list[Translation]]], update: bool) -> None:
    """Write (--update) or check the snapshot files; a refused translation is a snapshot like any other."""
    from toolchoice.providers.core import snapshot

    expected = snapshot.snapshot_files(rendered)
    if update:
        changed = snapshot.update(directory, expected)
        counts = {kind: sum(d.kind == kind for d in changed) for kind in ("missing", "changed", "extra")}
        write(f"{directory}: {len(expected)} snapshot files; wrote {counts['missing']} new, updated "
              f"{counts['changed']}, removed {counts['extra']}")
        return
    drifts = snapshot.check(directory, expected)
    out = []
    for drift in drifts:
        if drift.kind == "changed":
            out.append(f"--- {drift.path}: changed\n{drift.diff}")
        elif drift.kind == "missing":
            out.append(f"--- {drift.path}: missing (render produces it; run with --update to write it)")
        else:
            out.append(f"--- {drift.path}: extra (render no longer produces it; --update removes it)")
    summary = (f"{directory}: {len(expected)} snapshot files match" if not drifts else
               f"{directory}: {len(drifts)} of {len(set(expected) | {d.path for d in drifts})} snapshot files "
               f"differ (toolchoice render ... --snapshot {directory} --update accepts them)")
    write("\n".join([*out, summary]))
    if drifts:
        raise typer.Exit(exits.DRIFT)
