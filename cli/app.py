"""The `toolchoice` command: wiring only.

Each command lives in its own module and imports what it needs (httpx, jsonschema, rich) inside the
function. ``main`` builds only the command being run, so `toolchoice render` neither imports the other
commands' modules nor pays typer for their parameters; help and unknown commands get the full app.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import typer

# name -> (module, function), in the order `toolchoice --help` lists them
COMMANDS: dict[str, tuple[str, str]] = {
    "render": ("render_cmd", "render"),
    "send": ("send_cmd", "send"),
    "parse": ("parse_cmd", "parse"),
    "compare": ("compare_cmd", "compare"),
    "probe": ("probe_cmd", "probe"),
    "providers": ("providers_cmd", "providers"),
}


def build(names: list[str] | None = None) -> typer.Typer:
    """The Typer app with the named commands (all when None)."""
    app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False)

    @app.callback()
    def toolchoice() -> None:
        """What does your tool_choice become on each provider's wire, and did the model obey it?"""

    for name, (module_name, function) in COMMANDS.items():
        if names is None or name in names:
            module = importlib.import_module(f".{module_name}", __package__)
            app.command(name)(getattr(module, function))
    return app


def __getattr__(name: str) -> Any:  # `from toolchoice.cli.app import app`: the full app
    if name == "app":
        return build()
    raise AttributeError(name)


def main() -> None:
    first = sys.argv[1] if len(sys.argv) > 1 else ""
    build([first] if first in COMMANDS else None)()
