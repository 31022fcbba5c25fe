"""`toolchoice probe`: measure what an endpoint does with each tool_choice value.

Each question (auto, none, required, the word "any", named in each form the translator can produce,
allowed subset, parallel_tool_calls false) is sent ``--repeat`` times with `send`'s machinery and
classified: honored, ignored, rejected or inconclusive. ``--save FILE`` writes a capability
overlay that `render`/`compare --capabilities FILE` apply for that endpoint.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import Any, List, Optional

import typer

from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.model import RenderOptions

from .exits import handled
from .options import (ALLOW_ENV, BASE_URL, CONCURRENCY, MODEL, REPEAT_MAX, REPEAT_MIN, PROVIDER_ONE, RETRIES, TIMEOUT,
                      TOOL_CHOICE, format_option)


class ProbeFormat(str, Enum):
    pretty = "pretty"
    json = "json"


EVIDENCE_ERROR_CHARS = 800  # of a provider's error message in the evidence (table, overlay, ledger notes)


def _evidence(samples: list[Any], provider: str) -> tuple[str, float | None]:
    from toolchoice.providers.core.verdict import percentile

    statuses = sorted({str(s.status) if s.status is not None else "no response" for s in samples})
    parts = [f"status {', '.join(statuses)}"]
    errors = [s.error_line(provider) for s in samples if s.reply.error is not None]
    if errors:  # clipped: validation errors run to kilobytes; sample_details keeps each line whole
        parts.append(errors[0] if len(errors[0]) <= EVIDENCE_ERROR_CHARS else errors[0][:EVIDENCE_ERROR_CHARS] + "…")
    calls = [",".join(c.name for c in s.reply.tool_calls) or ("(text)" if s.reply.text else "(empty text)")
             for s in samples if s.reply.error is None]
    finishes = sorted({s.reply.finish_reason for s in samples if s.reply.error is None and s.reply.finish_reason})
    broken = sum(1 for s in samples for c in s.reply.tool_calls if c.arguments_error)
    if calls:
        parts.append("calls: " + "; ".join(calls[:5]) + (" …" if len(calls) > 5 else ""))
    if finishes:
        parts.append(f"finish {', '.join(finishes)}")
    if broken:
        parts.append(f"{broken} call(s) with undecodable arguments")
    categories: dict[str, int] = {}
    for s in samples:
        categories[s.verdict["category"]] = categories.get(s.verdict["category"], 0) + 1
    if len(categories) > 1 or (categories and "obeyed" not in categories):
        parts.append(", ".join(f"{c} {n}/{len(samples)}" for c, n in categories.items()))
    latencies = [s.latency_ms for s in samples if s.latency_ms is not None]
    return "; ".join(parts), percentile(latencies, 50)


def _detail(sample: Any, provider: str) -> dict[str, Any]:
    """One sample's evidence for machines: what came back, without the argument values."""
    reply = sample.reply
    return {"status": sample.status, "calls": [c.name for c in reply.tool_calls],
            "invalid_arguments": sum(1 for c in reply.tool_calls if c.arguments_error),
            "text": reply.text is not None, "finish_reason": reply.finish_reason,
            "error": sample.error_line(provider),
            "latency_ms": None if sample.latency_ms is None else round(sample.latency_ms, 1)}


def run_probe(provider: str, scenario_path: Optional[Path], base_url: Optional[str], model: Optional[str],
              repeat: int, concurrency: int, timeout: float, retries: int,
              tool_choice: Optional[str] = None,
              allow_env: tuple[str, ...] = (), stream: bool = False) -> tuple[dict[str, Any], dict[str, str]]:
    from toolchoice.providers.core.probe import (adapt, classify, overlay_document, probe_scenario, question_translation,
                                            questions_for, questions_for_choice, settings_with_model)
    from toolchoice.providers.core import runner

    from .inputs import load_path, with_tool_choice

    cap = CAPABILITIES[provider]
    scenario = load_path(scenario_path, live=True, allow_env=allow_env) if scenario_path else probe_scenario()
    scenario = settings_with_model(scenario, provider, model)
    questions = questions_for(provider, cap, scenario)
    if tool_choice is not None:
        questions = questions_for_choice(questions, with_tool_choice(scenario, tool_choice).tool_choice)
    options = RenderOptions(base_url=base_url, allow_env=allow_env, stream=stream)
    outcomes: list[dict[str, Any]] = []
    secrets: dict[str, str] = {}
    endpoint, used_model = "", model or ""
    results: dict[str, str] = {}  # feature -> result so far, so later questions avoid a known rejection
    for planned in questions:
        question, skipped = adapt(planned, results)
        if question is None:
            outcomes.append({"question": planned.id, "feature": planned.feature, "wire": None, "result": "not asked",
                             "evidence": skipped, "samples": 0, "latency_ms_p50": None})
            continue
        asked, t = question_translation(question, provider, scenario, options, cap)
        wire = t.effective_tool_choice
        outcome: dict[str, Any] = {"question": question.id, "feature": question.feature, "wire": wire}
        if t.request is None:
            reasons = "; ".join(e.message for e in t.ledger if e.severity == "error")
            outcomes.append(outcome | {"result": "not asked", "evidence": f"refused: {reasons}", "samples": 0,
                                       "latency_ms_p50": None})
            continue
        endpoint = t.request.url
        used_model = str(t.request.body.get("model", used_model))
        jobs, found = runner.prepare_jobs(asked, [t], missing_key_fails=True)
        secrets.update(found)
        runner.run(jobs, repeat, runner.SendSettings(timeout=timeout, retries=retries, concurrency=concurrency))
        samples = jobs[0].samples
        evidence, p50 = _evidence(samples, provider)
        result = classify([s.verdict for s in samples], [s.status for s in samples])
        results[question.feature] = result
        outcomes.append(outcome | {"result": result, "evidence": evidence,
                                   "samples": len(samples), "latency_ms_p50": p50,
                                   "verdicts": [s.verdict["category"] for s in samples],
                                   "sample_details": [_detail(s, provider) for s in samples]})
    when = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    document = overlay_document(provider, endpoint, used_model, repeat, when, outcomes)
    return {"provider": provider, "endpoint": endpoint, "model": used_model, "measured_at": when,
            "samples_per_question": repeat, "questions": outcomes, "overlay": document}, secrets


TABLE_EVIDENCE_CHARS = 200  # in the pretty table; --format json and the overlay keep the full evidence


def _clip(text: str) -> str:
    return text if len(text) <= TABLE_EVIDENCE_CHARS else text[:TABLE_EVIDENCE_CHARS] + "… (--format json: all)"


_STYLE = {"honored": "bold green", "ignored": "bold yellow", "rejected": "bold red", "inconclusive": "magenta",
          "did not arrive": "magenta", "not asked": "dim"}


def _print(console: Any, result: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    title = (f"probe {result['provider']} · {result['endpoint']} · {result['model'] or 'default model'} · "
             f"{result['samples_per_question']} sample(s) per question")
    table = Table(title=title, title_justify="left", show_lines=True)
    for column in ("question", "on the wire", "result", "evidence", "p50 ms"):
        table.add_column(column, overflow="fold")
    for q in result["questions"]:
        wire = q["wire"] if isinstance(q["wire"], str) or q["wire"] is None else json.dumps(q["wire"])
        p50 = "–" if q["latency_ms_p50"] is None else f"{q['latency_ms_p50']:.0f}"
        table.add_row(Text(q["question"]), Text(str(wire) if wire is not None else "(not sent)"),
                      Text(q["result"], style=_STYLE[q["result"]]), Text(_clip(q["evidence"])), p50)
    console.print(table)


@handled
def probe(
    scenario: Optional[Path] = typer.Argument(None, help="Probe with your own tools (default: a built-in two-tool "
                                              "scenario); - reads it from stdin.", show_default=False),
    provider: str = PROVIDER_ONE,
    tool_choice: Optional[str] = TOOL_CHOICE,
    base_url: Optional[str] = BASE_URL,
    model: Optional[List[str]] = MODEL,
    repeat: int = typer.Option(3, "--repeat", "-n", min=REPEAT_MIN, max=REPEAT_MAX, help="Samples per question."),
    concurrency: int = CONCURRENCY,
    timeout: float = TIMEOUT,
    retries: int = RETRIES,
    format: ProbeFormat = format_option(ProbeFormat.pretty, "pretty or json"),
    save: Optional[Path] = typer.Option(None, "--save", help="Write the capability overlay here: the measured "
                                        "answers as facts, the others marked with their evidence (exit 1 then)."),
    allow_env: Optional[List[str]] = ALLOW_ENV,
    stream: bool = typer.Option(False, "--stream", help="Ask each question in the provider's streaming form "
                                "(what a streaming agent sees)."),
) -> None:
    """Measure which tool_choice values an endpoint honors, ignores or rejects."""
    from .sample_view import emit, emit_pretty

    from .inputs import models_for, one_provider

    provider = one_provider(provider, "probe", "probe one endpoint at a time")
    from toolchoice.providers.core.probe import conclusive, measured_any

    from . import exits
    from .options import allowed_env

    result, secrets = run_probe(provider, scenario, base_url, models_for(model, [provider])[provider], repeat,
                                concurrency, timeout, retries, tool_choice, allowed_env(allow_env), stream)
    complete = conclusive(result["questions"])
    measured = measured_any(result["questions"])
    if save is not None and measured:
        from toolchoice.providers.core.save import write_atomic

        write_atomic(save, json.dumps(result["overlay"], indent=2, ensure_ascii=False) + "\n")
    if format is ProbeFormat.json:
        emit(json.dumps(result, indent=2, ensure_ascii=False), secrets)
    else:
        emit_pretty(lambda console: _print(console, result), secrets)
        if save is not None and measured:
            emit(f"capability overlay written to {save}: use it with render/compare --capabilities {save}", secrets)
    if not complete:  # a failure to answer is not a fact about the endpoint: kept as evidence only, exit 1
        unclear = [f"{q['question']}: {q['result']}" for q in result["questions"]
                   if q["result"] in ("inconclusive", "did not arrive")]
        if save is None:
            where = "see the evidence column"
        elif measured:
            where = f"{save} holds the measured answers; these are marked with their evidence, not stated as facts"
        else:
            where = f"nothing was measured: no overlay written to {save}"
        exits.error_line(f"{len(unclear)} question(s) not measured ({'; '.join(unclear)}): {where}")
        raise typer.Exit(exits.FAILED)
