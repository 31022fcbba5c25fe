"""`compare --send`: every selected provider at once on one event loop and one shared httpx pool.

Wall time tracks the slowest provider, not the sum. A provider without a key is skipped with the
variable to set; one that fails (refused connection, timeout, HTTP error, bad body) shows its error
in its own row and never sinks the others. All output is redacted with every resolved key.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolchoice.providers.core.translation import compact
from toolchoice.providers.core.model import Reply, Scenario, ToolchoiceError, Translation

from . import exits
from .output import choice_text
from .send_cmd import JudgingHeadStart, Sample, _failed_sample, emit, emit_pretty, judge, sending


@dataclass
class ProviderRun:
    provider: str
    translation: Translation
    prepared: Any = None
    skipped: str | None = None  # why nothing was sent (refused, no key, unusable URL)
    samples: list[Sample] = field(default_factory=list)

    @property
    def first(self) -> Sample | None:
        return self.samples[0] if self.samples else None


def _prepare(runs: list[ProviderRun]) -> dict[str, str]:
    """Resolve keys before any connection; collect every secret for redaction."""
    from toolchoice.providers.core import transport

    secrets: dict[str, str] = {}
    for run in runs:
        t = run.translation
        if t.request is None:
            errors = "; ".join(e.message for e in t.ledger if e.severity == "error")
            run.skipped = f"refused: {errors}"
            continue
        try:
            run.prepared = transport.prepare(t.request, run.provider)
        except ToolchoiceError as exc:
            run.skipped = f"skipped: {exc.message}"
            continue
        secrets.update(run.prepared.secrets)
    return secrets


async def _send_everything(scenario: Scenario, runs: list[ProviderRun], repeat: int, concurrency: int,
                           timeout: float, retries: int) -> None:
    import asyncio

    from toolchoice.providers.core import transport

    timeouts = transport.Timeouts.from_total(timeout)
    policy = transport.RetryPolicy(retries=retries)
    gate = asyncio.Semaphore(concurrency)

    async def one(run: ProviderRun, index: int, client: Any,
                  head_start: JudgingHeadStart) -> tuple[ProviderRun, Sample]:
        async with gate:
            try:
                response = await transport.send_async(run.translation.request, provider=run.provider,
                                                      prepared=run.prepared, policy=policy, client=client,
                                                      on_waiting=head_start.waiting)
                head_start.wait()
                return run, judge(run.provider, scenario, run.translation, index, response)
            except Exception as exc:  # noqa: BLE001 - one provider's failure never sinks the others
                head_start.wait()
                return run, _failed_sample(run.provider, scenario, run.translation, index, exc)

    live = [run for run in runs if run.prepared is not None]
    async with sending(scenario, [run.translation for run in live], [run.prepared.url for run in live],
                       samples=len(live) * repeat, concurrency=concurrency, timeouts=timeouts) as (client, head_start):
        done = await asyncio.gather(*(one(run, i + 1, client, head_start) for run in live for i in range(repeat)))
    for run, sample in done:
        run.samples.append(sample)
    for run in live:
        run.samples.sort(key=lambda s: s.index)


def _calls_text(reply: Reply) -> str:
    if reply.error is not None:
        return ""
    if not reply.tool_calls:
        return f"(text) {reply.text[:60]}" if reply.text else "(no call, no text)"
    parts = []
    for call in reply.tool_calls:
        args = compact(call.arguments) if call.arguments is not None else f"<{call.arguments_error}>"
        parts.append(f"{call.name}({args[:80]})")
    return "\n".join(parts)


def _summary(run: ProviderRun) -> dict[str, Any] | None:
    from toolchoice.providers.core.verdict import aggregate

    if not run.samples:
        return None
    return aggregate([s.to_json(run.provider) for s in run.samples])


def _row(run: ProviderRun, repeat: int) -> dict[str, str]:
    t = run.translation
    wire = choice_text(t.effective_tool_choice)
    if run.skipped:
        return {"provider": run.provider, "tool_choice on the wire": "REFUSED" if t.request is None else wire,
                "calls": run.skipped, "verdict": "refused" if t.request is None else "skipped",
                "latency ms": "–", "tokens in/out": "–"}
    sample = run.first
    assert sample is not None
    row = {"provider": run.provider, "tool_choice on the wire": wire}
    if sample.reply.error is not None:
        row["calls"] = sample.reply.error.one_line(run.provider)
    else:
        row["calls"] = _calls_text(sample.reply)
    usage = sample.reply.usage
    if repeat == 1:
        v = sample.verdict
        row["verdict"] = v["category"] + ("" if v.get("enforced", True) else " (not enforced)")
        row["latency ms"] = "–" if sample.latency_ms is None else f"{sample.latency_ms:.0f}"
        row["tokens in/out"] = f"{usage.input_tokens or '–'}/{usage.output_tokens or '–'}"
    else:
        s = _summary(run)
        assert s is not None
        shown = [f"{c} {n}/{s['samples']} ({s['rates'][c]['rate']:.0%}, 95% CI {s['rates'][c]['low']:.0%}–"
                 f"{s['rates'][c]['high']:.0%})" for c, n in s["counts"].items() if n]
        row["verdict"] = "\n".join(shown)
        lat = s["latency_ms"]
        row["latency ms"] = f"p50 {lat['p50']:.0f} / p95 {lat['p95']:.0f}" if lat["p50"] is not None else "–"
        tok = s["tokens"]
        row["tokens in/out"] = (f"{tok['input_mean']:.0f}/{tok['output_mean']:.0f} mean"
                                if tok["input_mean"] is not None and tok["output_mean"] is not None else "–")
    return row


def _verdict_style(text: str) -> str:
    if text.startswith("obeyed"):
        return "bold green"
    if text.startswith(("skipped", "refused")):
        return "yellow"
    return "bold red"


def _diff(runs: list[ProviderRun]) -> dict[str, Any]:
    from toolchoice.providers.core.argdiff import argument_diff

    return argument_diff({r.provider: r.first.reply for r in runs if r.first is not None})


def _json(scenario_path: Path, runs: list[ProviderRun], repeat: int, wall_ms: float) -> dict[str, Any]:
    providers = []
    for run in runs:
        t = run.translation
        entry: dict[str, Any] = {"provider": run.provider,
                                 "request": t.request.to_json() if t.request else None,
                                 "ledger": [e.to_json() for e in t.ledger]}
        if run.skipped:
            entry["error"] = run.skipped
        elif repeat == 1 and run.first is not None:
            s = run.first
            entry.update({"reply": s.reply.to_json(), "verdict": s.verdict,
                          "error": s.error_line(run.provider), "latency_ms": s.to_json(run.provider)["latency_ms"],
                          "status": s.status, "attempts": s.attempts})
        else:
            entry.update({"summary": _summary(run), "results": [s.to_json(run.provider) for s in run.samples]})
        providers.append(entry)
    return {"scenario": str(scenario_path), "providers": providers, "diff": _diff(runs), "wall_ms": round(wall_ms, 1)}


def _diff_lines(diff: dict[str, Any]) -> list[str]:
    if len(diff["tools"]) < 2:
        return []
    lines = []
    if diff["same_tools"]:
        names = next(iter(diff["tools"].values()))
        lines.append(f"every provider that answered chose the same tools: {', '.join(names) or '(none)'}")
    else:
        lines.append("tools chosen: " + "; ".join(f"{p}: {', '.join(n) or '(none)'}" for p, n in diff["tools"].items()))
    for d in diff["arguments"]:
        values = ", ".join(f"{p}={compact(v) if v != '<missing>' else v}" for p, v in d["values"].items())
        lines.append(f"{d['tool']}.{d['path']} {d['kind']}: {values}")
    if diff["tools"] and not diff["arguments"] and diff["same_tools"]:
        lines.append("no argument differences")
    return lines


def run_compare_send(scenario_path: Path, scenario: Scenario, translations: list[Translation], *, repeat: int,
                     concurrency: int, timeout: float, retries: int, format: str) -> int:
    import asyncio

    runs = [ProviderRun(t.provider, t) for t in translations]
    secrets = _prepare(runs)
    if not any(r.prepared for r in runs):
        reasons = "; ".join(f"{r.provider}: {r.skipped}" for r in runs)
        raise ToolchoiceError(f"nothing to send: {reasons}")
    started = time.perf_counter()
    asyncio.run(_send_everything(scenario, runs, repeat, concurrency, timeout, retries))
    wall_ms = (time.perf_counter() - started) * 1000.0
    rows = [_row(r, repeat) for r in runs]
    if format == "json":
        emit(json.dumps(_json(scenario_path, runs, repeat, wall_ms), indent=2, ensure_ascii=False), secrets)
    elif format == "markdown":
        emit(_markdown(rows, _diff_lines(_diff(runs))), secrets)
    else:
        emit_pretty(lambda console: _pretty(console, scenario_path, rows, _diff_lines(_diff(runs)), wall_ms,
                                            repeat), secrets)
    return _exit(runs)


def _exit(runs: list[ProviderRun]) -> int:
    verdicts = [s.verdict for r in runs for s in r.samples]
    if any(v["category"] == "error" for v in verdicts):
        return exits.FAILED
    if any(r.translation.request is None for r in runs):
        return exits.REFUSED
    if any(v["category"] != "obeyed" for v in verdicts):
        return exits.DISOBEYED
    return exits.OK


COLUMNS = ("provider", "tool_choice on the wire", "calls", "verdict", "latency ms", "tokens in/out")


def _markdown(rows: list[dict[str, str]], diff_lines: list[str]) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", "<br>")

    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cell(r[c]) for c in COLUMNS) + " |" for r in rows]
    if diff_lines:
        lines += ["", "**Argument diff**", ""] + [f"- {line}" for line in diff_lines]
    return "\n".join(lines)


def _pretty(console: Any, scenario_path: Path, rows: list[dict[str, str]], diff_lines: list[str], wall_ms: float,
            repeat: int) -> None:
    from rich.table import Table
    from rich.text import Text

    title = f"{scenario_path} · sent{f' × {repeat}' if repeat > 1 else ''} · wall {wall_ms / 1000:.2f} s"
    table = Table(title=title, title_justify="left", show_lines=True)
    for column in COLUMNS:
        table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(Text(row[c], style=_verdict_style(row[c]) if c == "verdict" else "") for c in COLUMNS))
    console.print(table)
    if diff_lines:
        console.print(Text("argument diff", style="bold"))
        for line in diff_lines:
            console.print(Text("  " + line))
