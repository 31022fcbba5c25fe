"""`toolchoice compare`: one scenario across providers, side by side. A dry run unless --send."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from toolchoice.providers.core.compare_records import dry_rows, wire_diff
from toolchoice.providers.core.model import Scenario, ToolchoiceError, Translation

from . import exits

if TYPE_CHECKING:
    from toolchoice.providers.core.dialects import Dialect as DialectRow
from .compare_view import markdown, print_table
from .exits import handled
from .options import (ALLOW_ENV, LIVE_MCP, BASE_URL, CAPS, GATEWAY, CONCURRENCY, ACTIVE_TOOLS, DIALECT, DROP_PARAMS, MIN_OBEYED, MODEL,
                      NO_EMULATE, PROVIDER, REPEAT, RETRIES, SAVE_DIR, SCENARIOS, STRICT, TIMEOUT, TOOL_CHOICE, Dialect,
                      format_option)
from .output import dumps, shown_path, write, write_json
from .render_cmd import dialect_settings, render_inputs


class CompareFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    markdown = "markdown"


def dry_json(scenario_path: Path, translations: list[Translation], rows: list[dict[str, str]]) -> dict:
    """The dry run's document: the same keys as --send's, with an empty reply diff."""
    from toolchoice.providers.core.argdiff import argument_diff

    return {"scenario": str(scenario_path), "sent": False, "providers": [t.to_json() for t in translations],
            "diff": {**argument_diff({}), "wire": wire_diff(rows)}, "wall_ms": None}


@handled
def compare(
    scenario: List[Path] = SCENARIOS,
    provider: Optional[List[str]] = PROVIDER,
    tool_choice: Optional[str] = TOOL_CHOICE,
    model: Optional[List[str]] = MODEL,
    base_url: Optional[str] = BASE_URL,
    gateway: bool = GATEWAY,
    send: bool = typer.Option(False, "--send", help="Send to every provider concurrently (needs keys)."),
    repeat: int = REPEAT,
    concurrency: int = CONCURRENCY,
    timeout: float = TIMEOUT,
    retries: int = RETRIES,
    min_obeyed: Optional[float] = MIN_OBEYED,
    save: Optional[Path] = SAVE_DIR,
    format: CompareFormat = format_option(CompareFormat.pretty, "pretty, json or markdown"),
    strict: bool = STRICT,
    no_emulate: bool = NO_EMULATE,
    capabilities: Optional[Path] = CAPS,
    dialect: Dialect = DIALECT,
    stream: bool = typer.Option(False, "--stream", help="The providers' streaming forms (with --send: each reply "
                                "assembled from its events)."),
    allow_env: Optional[List[str]] = ALLOW_ENV,
    live_mcp: bool = LIVE_MCP,
    drop_params: bool = DROP_PARAMS,
    active_tools: Optional[List[str]] = ACTIVE_TOOLS,
) -> None:
    """Compare how one scenario lands on several providers (and, with --send, how each model behaved).

    Short headers, where the terminal is narrow: par. is parallel_tool_calls, host the endpoint, ms the latency, tokens (with --repeat) the mean tokens (docs/compare.md).
    """  # one line in the source: the help keeps a docstring's line breaks
    from toolchoice.providers.core import dialects

    from .inputs import options_need, refuse_provider_paths, scenario_chose, scenario_with_override

    dialect_name, settings = dialect_settings(dialect, drop_params, active_tools)
    described = dialects.dialect(dialect_name)
    if send and described is not None:
        raise ToolchoiceError(f"--dialect {dialect_name} is a dry run: it shows what {described.library} would send",
                              hint="drop --send, or send the API requests with --dialect api")
    if not send:
        given = [name for name, value in (("--repeat", repeat != 1), ("--min-obeyed", min_obeyed is not None),
                                          ("--save", save is not None)) if value]
        if given:
            raise ToolchoiceError(f"{options_need(given, '--send')} (a dry run sends nothing)",
                                  hint="add --send, or drop " + ", ".join(given))
    refuse_provider_paths(scenario)
    codes: list[tuple[Path, int]] = []
    documents: list[dict[str, Any]] = []
    many = len(scenario) > 1
    for path in scenario:
        loaded = scenario_with_override(path, tool_choice, live=live_mcp or send, allow_env=allow_env, command="compare")
        from toolchoice.providers.core import jobs

        ids, options, models, caps = render_inputs(loaded, provider, model, base_url, strict, no_emulate, capabilities,
                                                   stream, allow_env, gateway)
        translations = (jobs.translations if send else jobs.render)(  # a dry run shows them: keys redacted
            loaded, ids, options, models=models, capabilities=caps)
        if described is not None:
            from toolchoice.providers.core.dialects import rebuilder

            rebuild = rebuilder(options, models=models, capabilities=caps)  # the same options for a changed scenario
            code, document = _compare_dialect(described, settings, rebuild, path, loaded, translations, format, many,
                                              scenario_chose(provider, loaded))
            codes.append((path, code))
            if document is not None:
                documents.append(document)
            continue
        if send:
            from .compare_send import run_compare_send

            folder = save / Path(str(path)).stem if save is not None and many else save
            code, document = run_compare_send(path, loaded, translations, repeat=repeat, concurrency=concurrency,
                                              timeout=timeout, retries=retries, format=format.value,
                                              min_obeyed=min_obeyed, save=folder, many=many)
            if document is not None:
                documents.append(document)
            codes.append((path, code))
            continue
        rows = dry_rows(loaded, translations)
        if format is CompareFormat.json:
            documents.append(dry_json(path, translations, rows))
        elif format is CompareFormat.markdown:
            write((f"### {shown_path(path)}\n\n" if many else "") + markdown(rows))
        else:
            print_table(rows, f"{shown_path(path)} · dry run (nothing sent){scenario_chose(provider, loaded)}",
                        ledgers={t.provider: t.ledger for t in translations})
        codes.append((path, exits.REFUSED if any(t.refused for t in translations) else exits.OK))
    if format is CompareFormat.json and documents:
        write_json(dumps(documents if many else documents[0]))
    elif many and format is CompareFormat.pretty:  # folded to the terminal, as the tables above it are
        from .output import new_console, wrapped

        write(wrapped(exits.summary_text(codes, sent=send), new_console().width))
    code = exits.worst(c for _, c in codes)
    if code != exits.OK:
        raise typer.Exit(code)


def _compare_dialect(described: "DialectRow", settings: dict[str, Any], rebuild: Any, scenario_path: Path,
                     scenario: Scenario, translations: list[Translation], format: CompareFormat,
                     many: bool, chose: str = "") -> tuple[int, dict[str, Any] | None]:
    """One row per provider for what the dialect's library sends, with the API's tool_choice beside it.
    Returns (exit code, the JSON document when --format json)."""
    from toolchoice.providers.core.dialects import apply

    from .output import choice_text

    columns = (described.label_column, "API tool_choice")
    views = apply(described.name, translations, scenario, settings, rebuild)
    shown = [v.translation for v in views]
    rows = dry_rows(scenario, shown)
    for row, view in zip(rows, views):
        row[described.label_column] = view.label or "–"
        row["API tool_choice"] = choice_text(view.api.effective_tool_choice) if view.api.request else "REFUSED"
    document = None
    if format is CompareFormat.json:
        document = {"scenario": str(scenario_path), "dialect": described.name,
                    "providers": [v.to_json() for v in views]}
    elif format is CompareFormat.markdown:
        write((f"### {shown_path(scenario_path)}\n\n" if many else "") + markdown(rows, columns))
    else:
        print_table(rows, f"{shown_path(scenario_path)} · dry run · {described.sends} (nothing sent){chose}",
                    columns, ledgers={t.provider: t.ledger for t in shown})
    return (exits.REFUSED if any(t.refused for t in shown) else exits.OK), document
