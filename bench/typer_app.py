"""A do-nothing Typer app with render's parameter shapes: the floor of *running* a Typer command.

`python -c "import typer, yaml, json"` only imports; parsing a command line costs more on Typer
versions that coerce each parameter through pydantic at run time. This app reads no file and
translates nothing, so ``render`` minus this app is what toolchoice itself adds.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer
import yaml  # noqa: F401 - same imports as the stack floor

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)


class Format(str, Enum):
    pretty = "pretty"
    json = "json"
    curl = "curl"


@app.command()
def render(
    scenario: Path = typer.Argument(...),
    provider: Optional[List[str]] = typer.Option(None, "--provider", "-p"),
    tool_choice: Optional[str] = typer.Option(None, "--tool-choice"),
    model: Optional[str] = typer.Option(None, "--model"),
    base_url: Optional[str] = typer.Option(None, "--base-url"),
    format: Format = typer.Option(Format.pretty, "--format", "-f"),
    strict: bool = typer.Option(False, "--strict"),
    no_emulate: bool = typer.Option(False, "--no-emulate"),
    capabilities: Optional[Path] = typer.Option(None, "--capabilities"),
) -> None:
    print(json.dumps({"scenario": str(scenario), "provider": provider, "format": format.value}))


@app.command()
def other() -> None:
    """A second command, so Typer builds a group as it does for toolchoice."""


if __name__ == "__main__":
    app()
