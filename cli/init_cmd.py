"""`toolchoice init [FILE]`: a commented starter scenario, ready for render/compare/send."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from toolchoice.providers.core.model import ToolchoiceError

from .exits import handled
from .output import shown_path, write

STARTER = """\
# A toolchoice scenario: the tools, a neutral tool_choice, the conversation, per-provider settings.
# Try it:   toolchoice compare {name}            (dry run: no key, no network)
#           toolchoice render {name} -p openai   (the exact request and its ledger)
#           toolchoice run {name} -p openai --dry-run   (the agent loop of loop: below, step 1)
{shells}# Editors with the YAML language server autocomplete this file with the line below
# (`toolchoice schema scenario --path` prints where the schema is installed):
# yaml-language-server: $schema={schema}

tools:                           # name, description, parameters (JSON Schema of the arguments)
  - name: get_weather
    description: Current weather for a city.
    parameters:
      type: object
      properties:
        city: {{type: string, description: "City name, e.g. Paris"}}
        unit: {{type: string, enum: [celsius, fahrenheit]}}
      required: [city]
  - name: get_time
    description: Current local time for a city.
    parameters:
      type: object
      properties:
        city: {{type: string}}
      required: [city]

# auto | none | required | a tool's name | {{allowed: [get_weather, get_time], mode: required}}
tool_choice: get_weather
parallel_tool_calls: false       # optional: at most one call per turn

messages:                        # a system/developer message may come first; then user / assistant / tool
  - {{role: system, content: You answer with tools when they help.}}
  - {{role: user, content: "What's the weather in Paris?"}}

providers:                       # optional, per provider id (toolchoice providers lists them)
  openai: {{model: gpt-5.4-mini}}
  anthropic: {{model: claude-sonnet-5, max_tokens: 1024}}

loop:                            # optional, for `toolchoice run` (the agent loop; docs/run.md)
  after_call: auto               # after a step that called a tool, auto: the model may answer in text
  results:                       # what each tool "returns" to the model; no code of yours runs
    get_weather: {{template: "18 degrees C and cloudy in {{city}}"}}
    get_time: {{template: "14:05 in {{city}}"}}
"""


@handled
def init(
    file: Optional[Path] = typer.Argument(None, help="Where to write the starter scenario (default: stdout).",
                                          show_default=False),
    force: bool = typer.Option(False, "--force", help="Overwrite FILE if it exists."),
) -> None:
    """Write a commented starter scenario."""
    from importlib import resources

    from toolchoice.providers.core.shell_word import bash_only, shell_path

    schema = resources.files("toolchoice.cli").joinpath("schemas", "scenario.schema.json")
    # the name as the commands to paste say it: one shell word that runs as printed, its controls as octal escapes
    # (raw, an ESC made the file one its own reader refused, and a newline ended the comment, the rest of the name
    # read as YAML; written out as \u001b, the command named another file)
    pasted = "scenario.yaml" if file is None or str(file) == "-" else shell_path(file)
    said = bash_only(pasted)  # a $'...' word (a name ending in a newline): the shells that read it, as elsewhere
    text = STARTER.format(name=pasted, schema=schema, shells=f"#          {said}\n" if said else "")
    if file is None or str(file) == "-":
        sys.stdout.write(text)
        return
    if file.suffix.lower() == ".json":  # the same scenario as JSON (which has no comments), so JSON tools read it
        import json

        import yaml

        text = json.dumps(yaml.safe_load(text), indent=2, ensure_ascii=False) + "\n"
    if file.is_dir():  # --force cannot overwrite a folder: say what to give instead
        raise ToolchoiceError(f"{file} is a folder", hint=f"name a file in it, e.g. {file / 'scenario.yaml'}")
    if file.exists() and not force:
        raise ToolchoiceError(f"{file} exists", hint="give another name, or --force to overwrite it")
    try:
        file.write_text(text, encoding="utf-8")
    except OSError as exc:
        missing = not file.parent.exists()
        raise ToolchoiceError(f"cannot write {file}: {exc.strerror}",
                              hint=f"make the folder {file.parent} first" if missing else None) from None
    write(f"wrote {shown_path(file)}: try `toolchoice compare {pasted}`{said}")  # one line, as the name in it
