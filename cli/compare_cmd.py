"""`toolchoice compare`: one scenario across providers, side by side. A dry run unless --send."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from toolchoice.providers.core.model import Scenario, ToolchoiceError, Translation

from . import exits
from .compare_view import markdown, print_table, row_cells
from .exits import handled
from .output import write
from .render_cmd import (BASE_URL, CAPS, DIALECT, MODEL, NO_EMULATE, SCENARIO, STRICT, TOOL_CHOICE, Dialect,
                         build_translations)


class CompareFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    markdown = "markdown"


def dry_rows(scenario: Scenario, translations: list[Translation]) -> list[dict[str, str]]:
    strict_set = bool(scenario.strict) or any(t.strict for t in scenario.tools)
    return [row_cells(t, len(scenario.tools), scenario.parallel_tool_calls is not None, strict_set)
            for t in translations]


def dry_json(scenario_path: Path, translations: list[Translation]) -> dict:
    return {"scenario": str(scenario_path), "providers": [t.to_json() for t in translations]}


@handled
def compare(
    scenario: Path = SCENARIO,
    providers: Optional[str] = typer.Option(None, "--providers", help="Comma list of provider ids, or 'all'. "
                                            "Default: the scenario's providers, else all 18."),
    tool_choice: Optional[str] = TOOL_CHOICE,
    model: Optional[str] = MODEL,
    base_url: Optional[str] = BASE_URL,
    send: bool = typer.Option(False, "--send", help="Send to every provider concurrently (needs keys)."),
    repeat: int = typer.Option(1, "--repeat", min=1, max=1000, help="With --send: samples per provider."),
    concurrency: int = typer.Option(8, "--concurrency", min=1, max=64, help="With --send: requests in flight per "
                                    "provider (every provider is sent at once, at most 64 requests in all)."),
    timeout: float = typer.Option(60.0, "--timeout", min=0.1, help="With --send: read timeout in seconds."),
    retries: int = typer.Option(2, "--retries", min=0, max=10, help="With --send: retries per request."),
    format: CompareFormat = typer.Option(CompareFormat.pretty, "--format", "-f", help="pretty, json or markdown."),
    strict: bool = STRICT,
    no_emulate: bool = NO_EMULATE,
    capabilities: Optional[Path] = CAPS,
    dialect: Dialect = DIALECT,
) -> None:
    """Compare how one scenario lands on several providers (and, with --send, how each model behaved)."""
    from .inputs import scenario_with_override

    if send and dialect is Dialect.langchain:
        raise ToolchoiceError("--dialect langchain is a dry run: it shows what LangChain would send",
                              hint="drop --send, or send the API requests with --dialect api")
    loaded = scenario_with_override(scenario, tool_choice)
    translations = build_translations(loaded, [providers] if providers else None, model, base_url, strict,
                                      no_emulate, capabilities)
    if dialect is Dialect.langchain:
        return _compare_langchain(scenario, loaded, translations, format)
    if send:
        from .compare_send import run_compare_send

        code = run_compare_send(scenario, loaded, translations, repeat=repeat, concurrency=concurrency,
                                timeout=timeout, retries=retries, format=format.value)
        raise typer.Exit(code)
    rows = dry_rows(loaded, translations)
    if format is CompareFormat.json:
        write(json.dumps(dry_json(scenario, translations), indent=2, ensure_ascii=False))
    elif format is CompareFormat.markdown:
        write(markdown(rows))
    else:
        print_table(rows, f"{scenario} · dry run (nothing sent)",
                    ledgers={t.provider: t.ledger for t in translations})
    if any(t.refused for t in translations):
        raise typer.Exit(exits.REFUSED)


LANGCHAIN_COLUMNS = ("langchain wrapper", "API tool_choice")


def _compare_langchain(scenario_path: Path, scenario: Scenario, translations: list[Translation],
                       format: CompareFormat) -> None:
    """One row per provider for what LangChain's wrapper sends, with the API's tool_choice beside it."""
    from toolchoice.providers.langchain_dialect import apply

    from .output import choice_text

    views = [apply(t, scenario) for t in translations]
    shown = [v.translation for v in views]
    rows = dry_rows(scenario, shown)
    for row, view in zip(rows, views):
        row["langchain wrapper"] = view.wrapper or "–"
        row["API tool_choice"] = choice_text(view.api.effective_tool_choice) if view.api.request else "REFUSED"
    if format is CompareFormat.json:
        document = {"scenario": str(scenario_path), "dialect": "langchain", "providers": [v.to_json() for v in views]}
        write(json.dumps(document, indent=2, ensure_ascii=False))
    elif format is CompareFormat.markdown:
        write(markdown(rows, LANGCHAIN_COLUMNS))
    else:
        print_table(rows, f"{scenario_path} · dry run · as LangChain's bind_tools sends it (nothing sent)",
                    LANGCHAIN_COLUMNS, ledgers={t.provider: t.ledger for t in shown})
    if any(t.refused for t in shown):
        raise typer.Exit(exits.REFUSED)
