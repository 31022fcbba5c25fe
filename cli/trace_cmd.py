"""`toolchoice trace FILE`: an OTLP/JSON trace of an agent run → the scenario that reproduces it; a request
saved by `proxy` / `mock` / `send --save` (a sample-NNN.request.json, or its folder and --sample N) → the neutral
scenario that sends it again on any provider.

The reading lives in providers/core/trace_import.py and trace_scenario.py (traces) and saved_request.py (saved
requests); this module parses options and writes the scenario (YAML with the ledger notes as comments, or JSON
with the notes on stderr), or the list of runs (samples) the file (folder) holds when it holds several and no
--trace-id (--sample) picks one.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Any, Callable, Optional

import typer

from .exits import handled
from .output import dumps, write, yaml_text


class TraceFormat(str, Enum):
    yaml = "yaml"
    json = "json"


@handled
def trace(
    file: Path = typer.Argument(..., help="An OTLP/JSON trace export ({\"resourceSpans\": [...]}, or one object "
                                "per line): OpenInference or OpenTelemetry GenAI LLM spans. Or a request proxy, mock "
                                "or send saved with --save (sample-NNN.request.json), or their folder.",
                                show_default=False),
    format: TraceFormat = typer.Option(TraceFormat.yaml, "--format", "-f", help="yaml (with the notes as comments) "
                                       "or json (the notes on stderr)."),
    trace_id: Optional[str] = typer.Option(None, "--trace-id", help="The run to import when the file holds several "
                                           "(without it they are listed)."),
    sample: Optional[int] = typer.Option(None, "--sample", min=0, help="A save folder's sample to import "
                                         "(without it a folder of several is listed)."),
    provider: Optional[str] = typer.Option(None, "--provider", "-p", help="FILE is a saved request sent to this API "
                                           "(default: the provider its .reply.json names)."),
) -> None:
    """Print the scenario that reproduces a recorded agent run (tools, messages, per-step tool_choice, results),
    or the one that sends a saved request again on any provider."""
    from toolchoice.providers.core import saved_request, trace_scenario

    from .output import output_redactor

    redact = output_redactor().text  # a key pasted into a recorded message is not printed
    if saved_request.is_saved(file) or sample is not None or provider is not None:
        _saved(file, sample, provider, format, redact)
        return
    found = trace_scenario.import_trace(file, trace_id)
    if not isinstance(found[0], trace_scenario.ImportedTrace):
        runs = [trace_scenario.describe(r) for r in found]  # type: ignore[arg-type]
        _listing("file", file, "runs", runs, "--trace-id", format, redact)
        return
    imported = found[0]
    _scenario(imported.data, imported.notes, format, redact)  # type: ignore[union-attr]


def _saved(file: Path, sample: Optional[int], provider: Optional[str], format: TraceFormat,
           redact: Callable[[str], str]) -> None:
    from toolchoice.providers.core import saved_request

    found = saved_request.import_saved(file, sample, provider)
    if isinstance(found, list):
        _listing("folder", file, "samples", found, "--sample N", format, redact)
        return
    _scenario(found.data, found.notes, format, redact)


def _listing(source_key: str, file: Path, kind: str, items: list[Any], option: str, format: TraceFormat,
             redact: Callable[[str], str]) -> None:
    """A file of several runs, or a folder of several samples: each one's line, and the option that picks one."""
    if format is TraceFormat.json:
        write(redact(dumps({source_key: str(file), kind: items})))
        return
    write(redact(f"# {_line(str(file))} holds {len(items)} {kind}: pick one with {option}\n"
                 + yaml_text({kind: items})))


def _scenario(data: Any, notes: Any, format: TraceFormat, redact: Callable[[str], str]) -> None:
    if format is TraceFormat.json:
        for e in notes:
            sys.stderr.write(redact(_line(f"{e.severity} {e.code}: {e.message}")) + "\n")
        write(redact(dumps(data)))
        return
    lines = "".join(f"# {_line(f'{e.severity} {e.code}: {e.message}')}\n" for e in notes)
    write(redact(lines + yaml_text(data)))


def _line(text: str) -> str:
    """One comment line: no terminal escapes, no line breaks (the text may quote the trace)."""
    from toolchoice.providers.core.redaction import printable

    return " ".join(printable(text).split())
