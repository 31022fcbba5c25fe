"""`toolchoice trace FILE`: an OTLP/JSON trace of an agent run → the scenario that reproduces it.

The reading lives in providers/core/trace_import.py and trace_scenario.py; this module parses options and
writes the scenario (YAML with the ledger notes as comments, or JSON with the notes on stderr), or the list
of runs the file holds when it holds several and no --trace-id picks one.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .exits import handled
from .output import dumps, write


class TraceFormat(str, Enum):
    yaml = "yaml"
    json = "json"


@handled
def trace(
    file: Path = typer.Argument(..., help="An OTLP/JSON trace export ({\"resourceSpans\": [...]}, or one object "
                                "per line): OpenInference or OpenTelemetry GenAI LLM spans.", show_default=False),
    format: TraceFormat = typer.Option(TraceFormat.yaml, "--format", "-f", help="yaml (with the notes as comments) "
                                       "or json (the notes on stderr)."),
    trace_id: Optional[str] = typer.Option(None, "--trace-id", help="The run to import when the file holds several "
                                           "(without it they are listed)."),
) -> None:
    """Print the scenario that reproduces a recorded agent run (tools, messages, per-step tool_choice, results)."""
    from toolchoice.providers.core import trace_scenario

    from .output import output_redactor

    redact = output_redactor().text  # a key pasted into a recorded message is not printed
    found = trace_scenario.import_trace(file, trace_id)
    if not isinstance(found[0], trace_scenario.ImportedTrace):
        runs = [trace_scenario.describe(r) for r in found]  # type: ignore[arg-type]
        if format is TraceFormat.json:
            write(redact(dumps({"file": str(file), "runs": runs})))
            return
        import yaml

        write(redact(f"# {_line(str(file))} holds {len(runs)} runs: pick one with --trace-id\n"
                     + yaml.safe_dump({"runs": runs}, sort_keys=False, allow_unicode=True, width=100)))
        return
    imported = found[0]
    if format is TraceFormat.json:
        for e in imported.notes:  # type: ignore[union-attr]
            sys.stderr.write(redact(_line(f"{e.severity} {e.code}: {e.message}")) + "\n")
        write(redact(dumps(imported.data)))  # type: ignore[union-attr]
        return
    import yaml

    notes = "".join(f"# {_line(f'{e.severity} {e.code}: {e.message}')}\n" for e in imported.notes)  # type: ignore
    write(redact(notes + yaml.safe_dump(imported.data, sort_keys=False, allow_unicode=True, width=100)))  # type: ignore


def _line(text: str) -> str:
    """One comment line: no terminal escapes, no line breaks (the text may quote the trace)."""
    from toolchoice.providers.core.redaction import printable

    return " ".join(printable(text).split())
