"""`toolchoice doctor`: what this machine would send with — which provider key variables are set
(names only: a value is never read into the output), base-URL overrides in a scenario, proxy
variables, and the versions of toolchoice, Python and its dependencies: the library's report
(``core/doctor.report``), drawn here."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .exits import handled
from .output import dumps, shown_path, terminal_width, write, write_json


class DoctorFormat(str, Enum):
    pretty = "pretty"
    json = "json"


@handled
def doctor(
    scenario: Optional[Path] = typer.Argument(None, help="Also list the base URLs this scenario overrides.",
                                              show_default=False),
    format: DoctorFormat = typer.Option(DoctorFormat.pretty, "--format", "-f", help="pretty or json."),
) -> None:
    """Check the set-up: key variables set (names only), base-URL overrides, proxy and CA certificate variables, versions."""
    from toolchoice.providers.core.doctor import report

    loaded = None
    if scenario is not None:
        from .inputs import load_path

        loaded = load_path(scenario)
    data = report(loaded)
    if format is DoctorFormat.json:
        write_json(dumps(data))
        return
    from .word_breaks import text_lines

    deps = ", ".join(f"{k} {v or 'missing'}" for k, v in data["dependencies"].items())
    lines = [f"toolchoice {data['toolchoice']} · Python {data['python']} ({data['executable']})", f"  {deps}", "",
             "keys (names only; values are never shown):"]
    for row in data["keys"]:
        if row.get("problem"):
            state = f"{' / '.join(row['set'])} set, but send refuses it: {row['problem']}"
        elif row["set"]:
            state = f"{' / '.join(row['set'])} set"
        elif row["key_optional"]:
            state = f"local server, no key needed ({row['variables'][0]} if it asks)"
        else:
            state = f"missing: export {row['variables'][0]}"
        lines.append(f"  {'✔' if row['ready'] else '✘'} {row['provider']:<17} {state}")
    if scenario is not None:
        lines += ["", f"base URLs overridden in {shown_path(scenario)}:"]
        fronts = " (gateway: the API's own rules hold there)"
        lines += [f"  {o['provider']:<17} {o['base_url']}{fronts if o['gateway'] else ''}"
                  for o in data["base_url_overrides"]] or ["  (none)"]
    lines += ["", "proxy variables set: " + (", ".join(data["proxy_variables_set"]) or "(none)"),
              "CA certificate variables set: " + (", ".join(data["certificate_variables_set"]) or "(none)"),
              "--base-url on the command line overrides a scenario's base URL for one run."]
    width = terminal_width()
    folded = []  # every line within the terminal's width, a key line's rest under its state (a trial at 60)
    for line in lines:
        indent = " " * (24 if line.startswith(("  ✔ ", "  ✘ ")) else len(line) - len(line.lstrip()))
        folded += text_lines(line, width, subsequent_indent=indent) or [""]  # a URL broken after a `/`
    write("\n".join(folded))
