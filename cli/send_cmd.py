"""`toolchoice send`: send the rendered request, read the reply, judge it against tool_choice.

The body sent is exactly the one `render` prints (``wire_json``). Keys are resolved from the
environment at send time and never printed or saved: every text this command writes goes through
the transport's redaction. httpx, rich and jsonschema are imported inside the functions.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, List, Optional

import typer

from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.model import ToolchoiceError

from . import exits, heap
from .exits import handled
from .options import (ALLOW_ENV, LIVE_MCP, BASE_URL, CAPS, GATEWAY, CONCURRENCY, MIN_OBEYED, MODEL, NO_EMULATE, PROVIDER_ONE, RAW, RETRIES,
                      SAVE_DIR, SCENARIOS, STRICT, TIMEOUT, TOOL_CHOICE, format_option)
from .output import write, write_json
from .render_cmd import RenderFormat, build_translations, draw
from .sample_view import emit, emit_pretty, print_repeat, print_sample
from toolchoice.providers.core.json_text import dumps_indented

if TYPE_CHECKING:
    from toolchoice.providers.core.trace_export import SampleTrace


class OutputFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    jsonl = "jsonl"
    markdown = "markdown"


class SendFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    jsonl = "jsonl"  # issue 17: a line per sample as it completes, then (with --repeat) the tally's line
    markdown = "markdown"  # what pretty draws, for an issue or a CI summary (sample_markdown.py)
    curl = "curl"  # with --dry-run only: `send --dry-run` is exactly `render`


FORMAT = format_option(OutputFormat.pretty, "pretty or json")


@handled
def send(
    scenario: List[Path] = SCENARIOS,
    provider: str = PROVIDER_ONE,
    tool_choice: Optional[str] = TOOL_CHOICE,
    model: Optional[List[str]] = MODEL,
    base_url: Optional[str] = BASE_URL,
    gateway: bool = GATEWAY,
    timeout: float = TIMEOUT,
    retries: int = RETRIES,
    repeat: int = typer.Option(1, "--repeat", "-n", min=1, max=1_000_000,
                               help="Send N samples and tally the verdicts (at most 1,000,000)."),
    all_results: bool = typer.Option(False, "--all-results", help="With --repeat and --format json: keep every "
                                     "sample's result in the document (default: the first 100 to finish; the "
                                     "summary always counts every sample)."),
    concurrency: int = CONCURRENCY,
    min_obeyed: Optional[float] = MIN_OBEYED,
    format: SendFormat = format_option(SendFormat.pretty, "pretty, json, jsonl (a line per sample as it completes) "
                                       "or markdown; curl with --dry-run"),
    save: Optional[Path] = SAVE_DIR,
    raw: bool = RAW,
    dry_run: bool = typer.Option(False, "--dry-run", help="Print what would be sent (exactly `render`) and stop."),
    stream: bool = typer.Option(False, "--stream", help="Send the provider's streaming form and assemble the reply "
                                "from its events (timings, deltas and stream faults are reported)."),
    allow_env: Optional[List[str]] = ALLOW_ENV,
    strict: bool = STRICT,
    no_emulate: bool = NO_EMULATE,
    capabilities: Optional[Path] = CAPS,
    trace_out: Optional[Path] = typer.Option(None, "--trace-out", help="Write the samples as OTLP/JSON (one span "
                                             "each, OTel GenAI conventions; the first 100) to this file."),
    live_mcp: bool = LIVE_MCP,
) -> None:
    """Send the scenario to one provider, show the tool calls, and judge them against tool_choice."""
    from .inputs import one_provider, refuse_provider_paths

    provider = one_provider(provider, "send")
    if dry_run:
        if format in (SendFormat.jsonl, SendFormat.markdown):
            raise ToolchoiceError(f"--format {format.value} writes the samples sent",
                                  hint="with --dry-run: pretty, json or curl")
        draw(scenario, [provider], tool_choice, model, base_url, RenderFormat(format.value), strict, no_emulate,
             capabilities, stream=stream, allow_env=allow_env, live_mcp=live_mcp,
             command="send --dry-run", gateway=gateway)
        return
    if format is SendFormat.curl:
        raise ToolchoiceError("--format curl prints the request without sending it", hint="add --dry-run")
    refuse_provider_paths(scenario)
    codes = []
    documents = []
    many = len(scenario) > 1
    traced = None
    if trace_out is not None:  # one trace of every scenario's samples, none of which it may be (said before a send),
        from toolchoice.providers.core.call_args import sample_trace  # nor the probe's --capabilities overlay
        from toolchoice.providers.core.trace_export import SampleTrace

        traced = sample_trace(trace_out, SampleTrace, *scenario, *filter(None, [capabilities]))
    for path in scenario:
        folder = save / Path(str(path)).stem if save is not None and many else save
        code, document = _send_one(path, provider, tool_choice, model, base_url, timeout, retries, repeat,
                                   concurrency, min_obeyed, OutputFormat(format.value), folder, raw, strict,
                                   no_emulate, capabilities, print_json=not many,
                                   all_results=all_results, stream=stream, allow_env=allow_env, traced=traced,
                                   gateway=gateway)
        codes.append((path, code))
        if document is not None:
            documents.append({"scenario": str(path), **document})
    if traced is not None:
        traced.write()
    if many and format is SendFormat.json:
        write_json(dumps_indented(documents))
    elif many and format is SendFormat.jsonl:
        pass  # every line went out as it came, each naming its scenario
    elif many and format is SendFormat.markdown:
        from .sample_markdown import summary

        write(summary(codes))
    elif many:  # folded to the terminal, as compare's is
        from .output import new_console, wrapped

        write(wrapped(exits.summary_text(codes), new_console().width))
    code = exits.worst(c for _, c in codes)
    if code != exits.OK:
        raise typer.Exit(code)


def _send_one(scenario: Path, provider: str, tool_choice: Optional[str], model: Optional[List[str]],
              base_url: Optional[str], timeout: float, retries: int, repeat: int, concurrency: int,
              min_obeyed: Optional[float], format: OutputFormat, save: Optional[Path], raw: bool, strict: bool,
              no_emulate: bool, capabilities: Optional[Path], print_json: bool,
              all_results: bool = False, stream: bool = False,
              allow_env: Optional[List[str]] = None,
              traced: SampleTrace | None = None, gateway: bool = False) -> tuple[int, dict[str, Any] | None]:
    """One scenario sent (``jobs.send``) and drawn (JSON only when ``print_json``); returns (exit code,
    the JSON document). ``traced``: --trace-out's ``trace_export.SampleTrace``, which every scenario's send adds to."""
    from toolchoice.providers.core import jobs, runner

    from .inputs import scenario_with_override, send_settings

    loaded = scenario_with_override(scenario, tool_choice, live=True, allow_env=allow_env, command="send")
    translation = build_translations(loaded, [provider], model, base_url, strict, no_emulate, capabilities,
                                     stream, allow_env, gateway=gateway)[0]
    progress = (_Progress(repeat, f"{provider} × {repeat}")
                if repeat > 1 and not translation.refused and sys.stderr.isatty() else None)
    settings = send_settings(timeout, retries, concurrency)

    def on_sample(sample: Any) -> None:
        if progress is not None:
            progress.advance(sample.verdict["category"] == "obeyed")

    lines = format is OutputFormat.jsonl and repeat > 1  # a line per sample as it completes (issue 17)
    named = {} if print_json else {"scenario": str(scenario)}  # several scenarios: each line names its own

    def on_result(record: dict[str, Any]) -> None:
        _write_line({**named, "provider": provider, **record})

    def send() -> jobs.SendResult:
        heap.settle()
        return jobs.send(loaded, translation, repeat=repeat, settings=settings, save=save,
                         keep=0 if lines else None if all_results else runner.RESULTS_KEPT, raw=raw,
                         min_obeyed=min_obeyed, on_result=on_result if lines else None,
                         on_sample=on_sample if progress is not None else None, trace_out=traced)

    if progress is not None:
        with progress:
            result = send()
    else:
        result = send()
    document = None
    if format is OutputFormat.jsonl:  # one sample: its document; many: the tally's, every result already a line
        last = result.document(raw)
        for key in ("results", "results_kept") if lines else ():
            last.pop(key, None)
        _write_line({**named, **last})
    elif format is OutputFormat.json:
        document = result.document(raw)
        if print_json:
            write_json(dumps_indented(document))
            document = None
    elif format is OutputFormat.markdown:
        from . import sample_markdown

        emit(sample_markdown.refused(provider, translation) if result.translation.refused else
             sample_markdown.sample(provider, translation, result.samples[0], raw) if result.collected is None else
             sample_markdown.repeat(provider, translation, result.collected, raw), result.secrets)
    elif result.translation.refused:  # drawn once the job returned: it says a bad argument (--trace-out) first
        from .output import print_pretty

        print_pretty([translation], {p: c.title for p, c in CAPABILITIES.items()})
    elif result.collected is None:
        emit_pretty(lambda c: print_sample(c, provider, translation, result.samples[0], raw), result.secrets)
    else:
        emit_pretty(lambda c: print_repeat(c, provider, translation, result.collected, raw), result.secrets)
    return exits.concluded(result, None if print_json else scenario), document


def _write_line(record: dict[str, Any]) -> None:
    """One JSON line on stdout, escaped as every output is, flushed: a reader sees each sample as it completes."""
    import json

    write_json(json.dumps(record, ensure_ascii=False))
    sys.stdout.flush()


class _Progress:
    """A rich progress bar on stderr while samples run (only on a terminal, only for --repeat)."""

    def __init__(self, total: int, label: str) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        self.bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[obeyed]} obeyed"), TimeElapsedColumn(), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True)
        self.task = self.bar.add_task(label, total=total, obeyed=0)
        self.obeyed = 0

    def __enter__(self) -> "_Progress":
        self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.stop()

    def advance(self, obeyed: bool) -> None:
        self.obeyed += obeyed
        self.bar.update(self.task, advance=1, obeyed=self.obeyed)
