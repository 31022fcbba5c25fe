"""`toolchoice providers`: the support matrix, straight from the capability table."""

from __future__ import annotations

import json
from enum import Enum

import typer

from toolchoice.providers.core.capabilities import CAPABILITIES, FEATURES, matrix_rows

from .exits import handled
from .output import write


class MatrixFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    markdown = "markdown"


def matrix_markdown() -> str:
    """The README's support matrix (regenerate with `toolchoice providers --format markdown`)."""
    head = "| provider | " + " | ".join(FEATURES) + " | arguments | verified |"
    lines = [head, "|" + "---|" * (len(FEATURES) + 3)]
    for cap in CAPABILITIES.values():
        cells = []
        for feature in FEATURES:
            s = cap.feature(feature)
            wire = f" `{s.wire}`" if s.wire else ""
            cells.append(f"{s.level.mark}{wire}".replace("|", "\\|"))
        lines.append(f"| `{cap.provider}` | " + " | ".join(cells) + f" | {cap.arguments} | {cap.verified} |")
    lines.append("")
    lines.append("✔ native · → same meaning, the provider's own word · ≈ emulated (lossy, in the ledger) · "
                 "✘ unsupported (dropped with a warning, or refused under --no-emulate)")
    return "\n".join(lines)


@handled
def providers(format: MatrixFormat = typer.Option(MatrixFormat.pretty, "--format", "-f",
                                                 help="pretty, json or markdown.")) -> None:
    """Print the support matrix (auto/none/required/any/named/allowed/parallel/strict per provider) and the
    dated facts, each with its source and the date it was verified."""
    if format is MatrixFormat.json:
        write(json.dumps(matrix_rows(), indent=2, ensure_ascii=False))
        return
    if format is MatrixFormat.markdown:
        write(matrix_markdown())
        return
    from rich.console import Console
    from rich.table import Table

    style = {"native": "green", "renamed": "green", "emulated": "yellow", "unsupported": "red"}
    table = Table(title="tool_choice support (✔ native  → renamed  ≈ emulated  ✘ unsupported)", show_lines=False)
    table.add_column("provider", style="bold", no_wrap=True)
    for feature in FEATURES:
        table.add_column(feature, overflow="fold")
    table.add_column("args")
    table.add_column("verified", no_wrap=True)
    for cap in CAPABILITIES.values():
        cells = []
        for feature in FEATURES:
            s = cap.feature(feature)
            wire = s.wire if len(s.wire) <= 12 else ""
            cells.append(f"[{style[s.level.value]}]{s.level.mark}[/] {wire}".rstrip())
        table.add_row(cap.provider, *cells, cap.arguments, cap.verified)
    console = Console()
    console.print(table)
    from toolchoice.providers.core.facts import FACTS

    facts = Table(title="dated facts (beyond the table)", show_lines=False)
    for column in ("fact", "providers", "verified", "source"):
        facts.add_column(column, overflow="fold")
    for fact in FACTS:
        facts.add_row(fact.id, ", ".join(fact.providers), fact.verified, fact.source)
    console.print(facts)
    console.print("The exact wire forms and each row's sources: toolchoice providers --format json (or markdown).",
                  style="dim")
