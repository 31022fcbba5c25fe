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
from toolchoice.providers.core.model import Reply, ToolchoiceError, Translation
from toolchoice.providers.core.runner import Sample

from . import exits
from .exits import handled
from .options import (ALLOW_ENV, BASE_URL, CAPS, CONCURRENCY, MIN_OBEYED, MODEL, NO_EMULATE, PROVIDER_ONE, RAW, REPEAT, RETRIES,
                      SAVE_DIR, SCENARIOS, STRICT, TIMEOUT, TOOL_CHOICE, format_option)
from .output import write
from .render_cmd import RenderFormat, build_translations, render


class OutputFormat(str, Enum):
    pretty = "pretty"
    json = "json"


class SendFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    curl = "curl"  # with --dry-run only: `send --dry-run` is exactly `render`


# ---- output --------------------------------------------------------------------------------


def choices_json(translation: Translation) -> dict[str, Any]:
    """What was asked and what went on the wire: in every document that names a request."""
    return {"requested_tool_choice": translation.requested_tool_choice,
            "effective_tool_choice": translation.effective_tool_choice}


def renamed_latency(summary: dict[str, Any]) -> dict[str, Any]:
    """A tally's summary for a JSON document: ``latency_ms`` is a number wherever it appears (one
    sample's), so the distribution is ``latency_percentiles_ms``."""
    summary = dict(summary)
    summary["latency_percentiles_ms"] = summary.pop("latency_ms")
    return summary


def sample_json(provider: str, translation: Translation, sample: Sample, raw: bool) -> dict[str, Any]:
    """One sent sample's document: the request and its ledger, then the sample as ``Sample.to_json``
    writes it everywhere (--save, --repeat results)."""
    data = sample.to_json(provider, raw)
    del data["sample"]
    return {"provider": provider, **choices_json(translation),
            "request": translation.request.to_json() if translation.request else None,
            "ledger": [e.to_json() for e in translation.ledger], **data}


def repeat_json(provider: str, translation: Translation, collected: Any) -> dict[str, Any]:
    """The document of a repeated send: the summary over every sample, and the kept results."""
    document = {"provider": provider, **choices_json(translation),
                "request": translation.request.to_json() if translation.request else None,
                "ledger": [e.to_json() for e in translation.ledger],
                **renamed_latency(collected.tally.summary()), "results": collected.sorted_results()}
    if collected.keep is not None and collected.done > collected.keep:
        document["results_kept"] = {"kept": collected.keep, "of": collected.done,
                                    "which": "the first to finish; --all-results keeps every one"}
    return document


def refused_json(provider: str, translation: Translation) -> dict[str, Any]:
    return {"provider": provider, **choices_json(translation), "request": None, "reply": None, "verdict": None,
            "ledger": [e.to_json() for e in translation.ledger], "latency_ms": None, "status": None, "attempts": [],
            "error": "; ".join(e.message for e in translation.ledger if e.severity == "error") or None}


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False)


def print_ledger(console: Any, ledger: list[Any]) -> None:
    from .output import ledger_table

    if not ledger:
        return
    table = ledger_table(ledger)
    table.title, table.title_justify = "ledger", "left"
    console.print(table)


def verdict_text(v: dict[str, Any] | None) -> Any:
    from rich.text import Text

    if v is None:
        return Text("no verdict (give --scenario to judge the reply)", style="dim")
    if v["obeyed"]:
        line = Text("✔ obeyed", style="bold green")
    elif v["category"] == "error":
        line = Text("✘ error", style="bold red")
    else:
        line = Text(f"✘ disobeyed: {v['category']}", style="bold red")
    if not v.get("enforced", True):
        line.append("  (not enforced by the provider)", style="yellow")
    return line


def print_reply(console: Any, provider: str, reply: Reply, v: dict[str, Any] | None) -> None:
    """The calls table, text, finish reason, tokens and the verdict with its reasons."""
    from rich.table import Table
    from rich.text import Text

    if reply.error is not None:
        console.print(Text(reply.error.one_line(provider), style="red"))
    checks = (v or {}).get("calls") or []
    if reply.tool_calls:
        table = Table(show_header=True, header_style="bold", expand=False, title="tool calls", title_justify="left")
        table.add_column("#", justify="right")
        table.add_column("name")
        table.add_column("arguments", overflow="fold")
        table.add_column("schema")
        for i, call in enumerate(reply.tool_calls):
            args = (json.dumps(call.arguments, indent=2, ensure_ascii=False) if call.arguments is not None
                    else f"{call.raw_arguments}\n({call.arguments_error})")
            check = checks[i] if i < len(checks) else {}
            valid = check.get("valid")
            mark = {True: Text("✔", style="green"), False: Text("✘", style="red")}.get(valid, Text("–", style="dim"))
            if check.get("offered") is False:
                mark = Text("not offered", style="red")
            table.add_row(str(i + 1), call.name, args, mark)
        console.print(table)
    elif reply.error is None:
        console.print(Text("no tool calls", style="dim"))
    if reply.text:
        shown = reply.text if len(reply.text) <= 600 else reply.text[:600] + "…"
        console.print(Text.assemble(("text  ", "bold"), shown))
    facts = []
    if reply.finish_reason:
        facts.append(f"finish_reason {reply.finish_reason}")
    if reply.usage.input_tokens is not None or reply.usage.output_tokens is not None:
        facts.append(f"tokens in {reply.usage.input_tokens} / out {reply.usage.output_tokens}")
    if facts:
        console.print(Text("  ·  ".join(facts), style="dim"))
    console.print(Text.assemble(("verdict  ", "bold"), verdict_text(v)))
    if v is not None and v["category"] != "error":  # an error's one reason is the line printed above
        for reason in v["reasons"]:
            console.print(Text(f"  - {reason}"))


def print_raw(console: Any, sample_raw_json: Any, raw_text: str) -> None:
    from rich.json import JSON
    from rich.text import Text

    console.print(Text("raw response", style="bold"))
    if sample_raw_json is not None:
        console.print(JSON(json.dumps(sample_raw_json, ensure_ascii=False), indent=2))
    else:
        console.print(Text(raw_text or "(no body)"))


def print_sample(console: Any, provider: str, translation: Translation, sample: Sample, raw: bool) -> None:
    from rich.text import Text

    title = CAPABILITIES[provider].title if provider in CAPABILITIES else provider
    console.rule(Text.assemble((provider, "bold"), f" · {title}"))
    request = translation.request
    assert request is not None
    head = Text.assemble((f"{request.method} ", "bold"), request.url)
    if sample.status is not None:
        head.append(f"  →  {sample.status}", style="green" if 200 <= sample.status < 300 else "red")
    if sample.latency_ms is not None:
        head.append(f"  {sample.latency_ms:.0f} ms", style="dim")
    console.print(head)
    if len(sample.attempts) > 1:
        tries = ", ".join(f"{a['status'] or a['error'].split(':')[0]} (waited {a['wait_s']}s, {a['wait_source']})"
                          for a in sample.attempts[:-1])
        console.print(Text(f"retried: {tries}", style="yellow"))
    if sample.stream is not None:
        print_stream_facts(console, sample.stream)
    print_reply(console, provider, sample.reply, sample.verdict)
    print_ledger(console, translation.ledger)
    if raw:
        print_raw(console, sample.raw_json, sample.raw_text)


def print_stream_facts(console: Any, stream: dict[str, Any]) -> None:
    """A streamed reply's timings, event counts and findings (StreamResult.to_json)."""
    from rich.text import Text

    t = stream["timings"]

    def ms(value: float | None) -> str:
        return "–" if value is None else f"{value:.0f} ms"

    console.print(Text(f"stream  {stream['events']} events · first byte {ms(t['first_byte_ms'])} · first tool delta "
                       f"{ms(t['first_tool_delta_ms'])} · last event {ms(t['last_event_ms'])} · argument deltas "
                       f"{', '.join(map(str, stream['argument_deltas'])) or '–'}", style="dim"))
    for finding in stream["findings"]:
        console.print(Text(f"  {finding['code']}: {finding['message']}", style="yellow"))


def print_repeat(console: Any, provider: str, translation: Translation, collected: Any, raw: bool) -> None:
    from rich.table import Table
    from rich.text import Text

    data = collected.tally.summary()
    title = CAPABILITIES[provider].title if provider in CAPABILITIES else provider
    console.rule(Text.assemble((provider, "bold"), f" · {title} · {data['samples']} samples"))
    table = Table(show_header=True, header_style="bold", expand=False)
    table.add_column("category")
    table.add_column("count", justify="right")
    table.add_column("%", justify="right")
    table.add_column("95% CI (Wilson)", justify="right")
    for category, count in data["counts"].items():
        if count == 0 and category not in ("obeyed",):
            continue
        rate = data["rates"][category]
        style = "green" if category == "obeyed" else "red"
        table.add_row(Text(category, style=style), str(count), f"{100 * rate['rate']:.0f}%",
                      f"{100 * rate['low']:.0f}–{100 * rate['high']:.0f}%")
    console.print(table)
    lat = data["latency_ms"]
    if lat["p50"] is not None:
        console.print(f"latency  p50 {lat['p50']:.0f} ms  ·  p95 {lat['p95']:.0f} ms")
    tokens = data["tokens"]
    if tokens["input_mean"] is not None or tokens["output_mean"] is not None:
        console.print(f"tokens   in {tokens['input_total']} (mean {_num(tokens['input_mean'])})  ·  "
                      f"out {tokens['output_total']} (mean {_num(tokens['output_mean'])})")
    for line, count in collected.errors.most_common(5):
        console.print(Text(f"{count}× {line}", style="red"))
    for line, count in collected.reasons.most_common(5):
        console.print(Text(f"{count}× {line}", style="yellow"))
    if collected.unenforced:
        console.print(Text("the provider could not enforce this tool_choice: judged against the request's intent",
                           style="yellow"))
    print_ledger(console, translation.ledger)
    if raw:
        for index, raw_json, raw_text in sorted(collected.raws, key=lambda item: item[0]):
            console.print(Text(f"sample {index}", style="bold"))
            print_raw(console, raw_json, raw_text)


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"


def emit(text: str, secrets: dict[str, str]) -> None:
    """Write to stdout with every resolved key value replaced by its placeholder."""
    from toolchoice.providers.core.transport import redact

    write(redact(text, secrets))


def emit_pretty(draw: Any, secrets: dict[str, str]) -> None:
    console = _console()
    with console.capture() as captured:
        draw(console)
    from toolchoice.providers.core.transport import redact

    sys.stdout.write(redact(captured.get(), secrets))


# ---- the command ---------------------------------------------------------------------------


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
) -> None:
    """Send the scenario to one provider, show the tool calls, and judge them against tool_choice."""
    from .inputs import one_provider

    provider = one_provider(provider, "send")
    if dry_run:
        render(scenario=scenario, provider=[provider], tool_choice=tool_choice, model=model, base_url=base_url,
               format=RenderFormat(format.value), strict=strict, no_emulate=no_emulate, capabilities=capabilities,
               ledger_only=False, stream=stream, allow_env=allow_env)
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

    loaded = scenario_with_override(scenario, tool_choice)
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
