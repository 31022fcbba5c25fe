"""`toolchoice render`: the exact request for each provider, and the ledger. A dry run: no socket."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Any, List, Optional, Sequence

import typer

from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.model import RenderOptions, Scenario, ToolchoiceError, Translation

from . import exits
from .exits import handled
from .inputs import (capabilities_from, check_base_url, models_for, scenario_with_override, selected_providers,
                     warn_shared_base_url)
from .options import (ALLOW_ENV, BASE_URL, CAPS, ACTIVE_TOOLS, DIALECT, DROP_PARAMS, GATEWAY, LIVE_MCP_FLAG, MODEL, NO_EMULATE, PROVIDER,
                      SCENARIOS, STRICT, TOOL_CHOICE, Dialect, allowed_env, format_option)
from .output import (dumps, new_console, print_ledgers, print_pretty, shown_path, translations_curl, wrapped, write,
                     write_json)


class RenderFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    curl = "curl"


SNAPSHOT = typer.Option("--snapshot", help="Check the wire snapshots in this folder (one file per scenario x "
                        "provider); exit 5 with a diff when any changed, is missing or is extra.")
UPDATE = typer.Option("--update", help="With --snapshot: write the snapshots instead of checking them.")
STREAM = typer.Option("--stream", help="The provider's streaming form (SSE, NDJSON or AWS event stream).")


def build_translations(scenario: Scenario, providers: Optional[Sequence[str]], model: Sequence[str] | str | None,
                       base_url: Optional[str], strict: bool, no_emulate: bool,
                       capabilities: Optional[Path], stream: bool = False,
                       allow_env: Optional[List[str]] = None, shown: bool = False,
                       gateway: bool = False) -> list[Translation]:
    """The command line's options → ``jobs.translations`` (``shown``: ``jobs.render``, redacted for
    display): the loaded scenario translated for each selected provider. ``allow_env``: the --allow-env
    values as given ($TOOLCHOICE_ALLOW_ENV is added here). ``gateway``: --gateway."""
    from toolchoice.providers.core import jobs

    ids, options, models, caps = render_inputs(scenario, providers, model, base_url, strict, no_emulate, capabilities,
                                               stream, allow_env, gateway)
    return (jobs.render if shown else jobs.translations)(scenario, ids, options, models=models, capabilities=caps)


def render_inputs(scenario: Scenario, providers: Optional[Sequence[str]], model: Sequence[str] | str | None,
                  base_url: Optional[str], strict: bool, no_emulate: bool, capabilities: Optional[Path],
                  stream: bool = False, allow_env: Optional[List[str]] = None,
                  gateway: bool = False) -> tuple[list[str], RenderOptions, dict[str, str | None], Any]:
    """The command line's options as the render jobs take them: (the provider ids, ``RenderOptions``, each provider's
    model, the capability overlay or None); a --base-url no client can send to refused, and one given to several
    providers said."""
    check_base_url(base_url)
    ids = selected_providers(providers, scenario)
    warn_shared_base_url(base_url, ids)
    options = RenderOptions(strict=strict, emulate=not no_emulate, base_url=base_url, stream=stream,
                            allow_env=allowed_env(allow_env), gateway=gateway)
    return ids, options, models_for(model, ids), capabilities_from(capabilities)


def dialect_settings(dialect: Any, drop_params: bool,
                     active_tools: Optional[List[str]] = None) -> tuple[str, dict[str, Any]]:
    """--dialect and the library settings given on the command line (checked against the dialect's row)."""
    from toolchoice.providers.core.dialects import check_settings

    name = str(getattr(dialect, "value", dialect))
    settings: dict[str, Any] = {"drop_params": True} if drop_params is True else {}
    if active_tools:
        settings["active_tools"] = tuple(dict.fromkeys(n.strip() for v in active_tools for n in v.split(",")
                                                       if n.strip()))
    check_settings(name, settings)
    return name, settings


def _summary(path: Path, translations: list[Translation], loaded: Scenario) -> None:
    from toolchoice.providers.core.compare_records import dry_rows

    from .compare_view import print_table

    print_table(dry_rows(loaded, translations), f"{shown_path(path)} · {len(translations)} providers · dry run (nothing sent)",
                ledgers={t.provider: t.ledger for t in translations}, whole="-f json")  # render has no markdown
    write(wrapped(f"`toolchoice render {'-' if str(path) == '-' else shown_path(path)} -p ID` shows one provider's exact request (-p all: every one; "
                  "--ledger-only: the ledgers)", new_console().width))


@handled
def render(
    scenario: List[Path] = SCENARIOS,
    provider: Optional[List[str]] = PROVIDER,
    tool_choice: Optional[str] = TOOL_CHOICE,
    model: Optional[List[str]] = MODEL,
    base_url: Optional[str] = BASE_URL,
    gateway: bool = GATEWAY,
    format: RenderFormat = format_option(RenderFormat.pretty, "pretty, json or curl"),
    strict: bool = STRICT,
    no_emulate: bool = NO_EMULATE,
    capabilities: Optional[Path] = CAPS,
    ledger_only: bool = typer.Option(False, "--ledger-only", help="Pretty view: only each provider's ledger."),
    allow_env: Optional[List[str]] = ALLOW_ENV,
    dialect: Dialect = DIALECT,
    snapshot: Annotated[Optional[Path], SNAPSHOT] = None,
    update: Annotated[bool, UPDATE] = False,
    stream: Annotated[bool, STREAM] = False,
    live_mcp: Annotated[bool, LIVE_MCP_FLAG] = False,
    drop_params: bool = DROP_PARAMS,
    active_tools: Optional[List[str]] = ACTIVE_TOOLS,
) -> None:
    """Show each provider's exact HTTP request for the scenario and what changed on the way."""
    draw(scenario, provider, tool_choice, model, base_url, format, strict, no_emulate, capabilities, ledger_only,
         allow_env, dialect, snapshot, update, stream, live_mcp, gateway=gateway, drop_params=drop_params,
         active_tools=active_tools)


def draw(scenario: List[Path], provider: Optional[List[str]], tool_choice: Optional[str], model: Optional[List[str]],
         base_url: Optional[str], format: RenderFormat, strict: bool, no_emulate: bool, capabilities: Optional[Path],
         ledger_only: bool = False, allow_env: Optional[List[str]] = None, dialect: Dialect = Dialect.api,
         snapshot: Optional[Path] = None, update: bool = False, stream: bool = False, live_mcp: bool = False,
         command: str = "render", gateway: bool = False, drop_params: bool = False,
         active_tools: Optional[List[str]] = None) -> None:
    """`render`'s work once the options are parsed (also `send --dry-run`'s, as ``command``). ``live_mcp``:
    the command line opted in to live MCP sources (a dry run reaches none otherwise). ``dialect``: api, or a
    dialect of core/dialects.py (``drop_params``, ``active_tools``: its --drop-params, --active-tools)."""
    from toolchoice.providers.core import dialects

    dialect_name, settings = dialect_settings(dialect, drop_params, active_tools)
    described = dialects.dialect(dialect_name)
    if update and snapshot is None:
        raise ToolchoiceError("--update goes with --snapshot DIR")
    if ledger_only and format is not RenderFormat.pretty:
        raise ToolchoiceError("--ledger-only is a pretty view", hint="--format json has each ledger in 'ledger'" + (
            "; -f curl writes the warnings as # comments above each command" if format is RenderFormat.curl else ""))
    def job(loaded: Scenario, shown: bool) -> tuple[list[Translation], Any]:
        """The library's render of one scenario (``dialects.rendered``), from the command line's options."""
        ids, options, models, caps = render_inputs(loaded, provider, model, base_url, strict, no_emulate, capabilities,
                                                   stream, allow_env, gateway)
        return dialects.rendered(dialect_name, loaded, ids, options, models=models, capabilities=caps,
                                 settings=settings, shown=shown)

    if snapshot is not None:
        rendered = []
        for path in scenario:
            loaded = scenario_with_override(path, tool_choice, live=live_mcp, allow_env=allow_env, command=command)
            rendered.append((str(path), job(loaded, shown=False)[0]))
        _snapshots(snapshot, rendered, update)
        return
    documents: list[tuple[Path, list[Translation], list[dict] | None]] = []
    refused = False
    for path in scenario:
        loaded = scenario_with_override(path, tool_choice, live=live_mcp, allow_env=allow_env, command=command)
        translations, views = job(loaded, shown=True)
        refused = refused or any(t.refused for t in translations)
        if format is RenderFormat.json:
            documents.append((path, translations, [v.to_json() for v in views] if views is not None else None))
            continue
        if len(scenario) > 1:
            # a path wider than the line breaks after a `/` (curl's line is a comment to paste: it stays whole)
            write(f"# scenario {shown_path(path)}" if format is RenderFormat.curl
                  else wrapped(f"══ {shown_path(path)}", new_console().width))
        if format is RenderFormat.curl:
            write(translations_curl(translations), json_escapes=True)  # the body in the command stays JSON
        elif ledger_only:
            print_ledgers(translations, {p: c.title for p, c in CAPABILITIES.items()})
        elif not provider and len(translations) > 1:
            _summary(path, translations, loaded)
        elif views is not None and described is not None:
            print_pretty(translations, {v.api.provider: f"{CAPABILITIES[v.api.provider].title} · {described.library} "
                                        f"{v.label or described.missing_label}" for v in views})
        else:
            print_pretty(translations, {p: c.title for p, c in CAPABILITIES.items()})
    if format is RenderFormat.json:
        def shown(ts: list[Translation], views: list[dict] | None) -> list[dict]:
            return views if views is not None else [t.to_json() for t in ts]

        if len(documents) == 1:
            data = shown(documents[0][1], documents[0][2])
            write_json(dumps(data[0] if len(data) == 1 else data))
        else:
            write_json(dumps([{"scenario": str(path), "providers": shown(ts, views)} for path, ts, views in documents]))
    if refused:
        raise typer.Exit(exits.REFUSED)


def _snapshots(directory: Path, rendered: list[tuple[str, list[Translation]]], update: bool) -> None:
    """Write (--update) or check the snapshot files; a refused translation is a snapshot like any other."""
    from toolchoice.providers.core import snapshot

    expected = snapshot.snapshot_files(rendered)
    if update:
        changed = snapshot.update(directory, expected)
        counts = {kind: sum(d.kind == kind for d in changed) for kind in ("missing", "changed", "extra")}
        write(f"{shown_path(directory)}: {len(expected)} snapshot files; wrote {counts['missing']} new, updated "
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
    from toolchoice.providers.core.shell_word import bash_only, shell_path  # the hint is a command to paste: one word

    word = shell_path(directory)
    summary = (f"{shown_path(directory)}: {len(expected)} snapshot files match" if not drifts else
               f"{shown_path(directory)}: {len(drifts)} of {len(set(expected) | {d.path for d in drifts})} snapshot files "
               f"differ (toolchoice render ... --snapshot {word} --update accepts them{bash_only(word)})")
    write("\n".join([*out, summary]))
    if drifts:
        raise typer.Exit(exits.DRIFT)
