"""`toolchoice schema NAME`: the JSON Schema of the scenario file or of a command's --format json
output, shipped in the package (cli/schemas/NAME.schema.json). Editors that speak the YAML language
server autocomplete scenarios with ``# yaml-language-server: $schema=PATH``."""

from __future__ import annotations

from enum import Enum
from importlib import resources

import typer

from .exits import handled
from .output import write


class SchemaName(str, Enum):
    scenario = "scenario"
    render = "render"
    send = "send"
    compare = "compare"
    run = "run"
    parse = "parse"
    probe = "probe"
    mock = "mock"


def schema_text(name: str) -> str:
    return resources.files("toolchoice.cli").joinpath("schemas", f"{name}.schema.json").read_text(encoding="utf-8")


@handled
def schema(
    name: SchemaName = typer.Argument(..., help="scenario, or the command whose --format json output to describe: "
                                      "render, send, compare, run, parse, probe; mock for a mock / proxy --format jsonl "
                                      "line.",
                                      show_default=False, metavar="name"),
    path: bool = typer.Option(False, "--path", help="Print where the schema file is instead (for $schema=...)."),
) -> None:
    """Print the JSON Schema of a scenario file or of a command's --format json output."""
    if path:
        write(str(resources.files("toolchoice.cli").joinpath("schemas", f"{name.value}.schema.json")))
        return
    write(schema_text(name.value))
