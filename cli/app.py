"""The `toolchoice` command: wiring only. Each command lives in its own module and imports what it
needs (httpx, jsonschema, rich) inside the function, so `render --format json` stays fast."""

from __future__ import annotations

import typer

from . import compare_cmd, parse_cmd, probe_cmd, providers_cmd, render_cmd, send_cmd

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="What does your tool_choice become on each provider's wire, and did the model obey it?",
)

app.command("render")(render_cmd.render)
app.command("send")(send_cmd.send)
app.command("parse")(parse_cmd.parse)
app.command("compare")(compare_cmd.compare)
app.command("probe")(probe_cmd.probe)
app.command("providers")(providers_cmd.providers)


def main() -> None:
    app()
