"""`toolchoice send`: send the rendered request, read the reply, judge it against tool_choice.

The body sent is exactly the one `render` prints (``wire_json``). Keys are resolved from the
environment at send time and never printed or saved: every text this command writes goes through
the transport's redaction. httpx, rich and jsonschema are imported inside the functions.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Any, List, Optional

import typer

from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.model import ToolchoiceError
from toolchoice.providers.core.runner import Sample

from . import exits
from .exits import handled
from .options import (ALLOW_ENV, LIVE_MCP, BASE_URL, CAPS, CONCURRENCY, MIN_OBEYED, MODEL, NO_EMULATE, PROVIDER_ONE, RAW, RETRIES,
                      SAVE_DIR, SCENARIOS, STRICT, TIMEOUT, TOOL_CHOICE, format_option)
from .output import write
from .render_cmd import RenderFormat, build_translations, render
from .sample_view import emit_pretty, print_repeat, print_sample, refused_json, repeat_json, sample_json


class OutputFormat(str, Enum):
    pretty = "pretty"
    json = "json"


class SendFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    curl = "curl"  # with --dry-run only: `send --dry-run` is exactly `render`


FORMAT = format_option(OutputFormat.pretty, "pretty or json")


@handled
def send(
    scenario: List[Path] = SCENARIOS,
    provider: str = PROVIDER_ONE,
    tool_choice: Optional[str] = TOOL_CHOICE,
    model: Optional[List[str]] = MODEL,
    base_url: Optional[str] = BASE_URL,
    timeout: float = TIMEOUT,
    retries: int = RETRIES,
    repeat: int = typer.Option(1, "--repeat", "-n", min=1, max=1_000_000,
                               help="Send N samples and tally the verdicts (at most 1,000,000)."),
    all_results: bool = typer.Option(False, "--all-results", help="With --repeat and --format json: keep every "
                                     "sample's result in the document (default: the first 100 to finish; the "
                                     "summary always counts every sample)."),
    concurrency: int = CONCURRENCY,
    min_obeyed: Optional[float] = MIN_OBEYED,
    format: SendFormat = format_option(SendFormat.pretty, "pretty or json (curl with --dry-run)"),
    save: Optional[Path] = SAVE_DIR,
    raw: bool = RAW,
    dry_run: bool = typer.Option(False, "--dry-run", help="Print what would be sent (exactly `render`) and stop."),
    stream: bool = typer.Option(False, "--stream", help="Send the provider's streaming form and assemble the reply "
                                "from its events (timings, deltas and stream faults are reported)."),
    allow_env: Optional[List[str]] = ALLOW_ENV,
    strict: bool = STRICT,
    no_emulate: bool = NO_EMULATE,
    capabilities: Optional[Path] = CAPS,
    live_mcp: bool = LIVE_MCP,
) -> None:
    """Send the scenario to one provider, show the tool calls, and judge them against tool_choice."""
    from .inputs import one_provider

    provider = one_provider(provider, "send")
    if dry_run:
        render(scenario=scenario, provider=[provider], tool_choice=tool_choice, model=model, base_url=base_url,
               format=RenderFormat(format.value), strict=strict, no_emulate=no_emulate, capabilities=capabilities,
               ledger_only=False, stream=stream, allow_env=allow_env, live_mcp=live_mcp)
        return
    if format is SendFormat.curl:
        raise ToolchoiceError("--format curl prints the request without sending it", hint="add --dry-run")
    codes = []
    documents = []
    many = len(scenario) > 1
    for path in scenario:
        folder = save / Path(str(path)).stem if save is not None and many else save
        code, document = _send_one(path, provider, tool_choice, model, base_url, timeout, retries, repeat,
                                   concurrency, min_obeyed, OutputFormat(format.value), folder, raw, strict,
                                   no_emulate, capabilities, print_json=not many,
                                   all_results=all_results, stream=stream, allow_env=allow_env)
        codes.append((path, code))
        if document is not None:
            documents.append({"scenario": str(path), **document})
    if many and format is SendFormat.json:
        write(json.dumps(documents, indent=2, ensure_ascii=False))
    elif many:
        write(exits.summary_text(codes))
    code = exits.worst(c for _, c in codes)
    if code != exits.OK:
        raise typer.Exit(code)


def _send_one(scenario: Path, provider: str, tool_choice: Optional[str], model: Optional[List[str]],
              base_url: Optional[str], timeout: float, retries: int, repeat: int, concurrency: int,
              min_obeyed: Optional[float], format: OutputFormat, save: Optional[Path], raw: bool, strict: bool,
              no_emulate: bool, capabilities: Optional[Path], print_json: bool,
              all_results: bool = False, stream: bool = False,
              allow_env: Optional[List[str]] = None) -> tuple[int, dict[str, Any] | None]:
    """One scenario sent: draw it (JSON only when ``print_json``), return (exit code, JSON document)."""
    from toolchoice.providers.core import runner

    from .inputs import scenario_with_override

    loaded = scenario_with_override(scenario, tool_choice, live=True, allow_env=allow_env, command="send")
    translation = build_translations(loaded, [provider], model, base_url, strict, no_emulate, capabilities,
                                     stream, allow_env)[0]

    def out(document: dict[str, Any], secrets: dict[str, str]) -> dict[str, Any] | None:
        from toolchoice.providers.core.transport import redact

        text = redact(json.dumps(document, indent=2, ensure_ascii=False), secrets)
        if print_json:
            write(text)
            return None
        return json.loads(text)

    if translation.refused:
        document = None
        if format is OutputFormat.json:
            document = out(refused_json(provider, translation), {})
        else:
            from .output import print_pretty

            print_pretty([translation], {p: c.title for p, c in CAPABILITIES.items()})
        return exits.REFUSED, document
    jobs, secrets = runner.prepare_jobs(loaded, [translation], missing_key_fails=True)
    folder = None
    if save is not None:
        from toolchoice.providers.core.save import prepare_save_dir, save_sample

        folder = prepare_save_dir(save)
    settings = runner.SendSettings(timeout=timeout, retries=retries, concurrency=concurrency, keep=repeat == 1)
    collected = runner.Collector(provider, None if all_results else runner.RESULTS_KEPT, raw)
    categories: set[str] = set()
    progress = _Progress(repeat, f"{provider} × {repeat}") if repeat > 1 and sys.stderr.isatty() else None

    def on_sample(job: runner.Job, sample: Sample) -> None:
        if folder is not None:
            save_sample(folder, provider, translation, sample, secrets)
        categories.add(sample.verdict["category"])
        if repeat > 1:
            collected.add(sample)
        if progress is not None:
            progress.advance(sample.verdict["category"] == "obeyed")

    interrupted = False
    try:
        if progress is not None:
            with progress:
                runner.run(jobs, repeat, settings, on_sample)
        else:
            runner.run(jobs, repeat, settings, on_sample)
    except KeyboardInterrupt:
        interrupted = True
    done = len(jobs[0].samples) if repeat == 1 else collected.done
    if interrupted and not done:
        raise
    document = None
    if repeat == 1:
        sample = jobs[0].samples[0]
        if format is OutputFormat.json:
            document = out(sample_json(provider, translation, sample, raw), secrets)
        else:
            emit_pretty(lambda c: print_sample(c, provider, translation, sample, raw), secrets)
    elif format is OutputFormat.json:
        data = repeat_json(provider, translation, collected)
        if interrupted:
            data["partial"] = {"done": done, "requested": repeat}
        document = out(data, secrets)
    else:
        emit_pretty(lambda c: print_repeat(c, provider, translation, collected, raw), secrets)
    if interrupted:
        from .exits import error_line

        error_line(f"interrupted: {done} of {repeat} samples finished (shown above"
                   f"{' and saved' if folder is not None else ''})")
        raise typer.Exit(130)
    if repeat == 1:
        tallied = [sample.verdict["category"] for sample in jobs[0].samples]
        obeyed, total = tallied.count("obeyed"), len(tallied)
    else:
        summary = collected.tally.summary()
        obeyed, total = summary["counts"].get("obeyed", 0), summary["samples"]
    if min_obeyed is not None:
        return exits.threshold_outcome({provider: (obeyed, total)}, min_obeyed), document
    return exits.outcome({"category": c} for c in categories), document


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
