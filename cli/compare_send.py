"""`compare --send`: every selected provider at once on one event loop and one shared httpx pool.

Wall time tracks the slowest provider, not the sum. A provider without a key is skipped with the
variable to set; one that fails (refused connection, timeout, HTTP error, bad body) shows its error
in its own row and never sinks the others. All output is redacted with every resolved key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolchoice.providers.core.compare_records import send_diff, summary
from toolchoice.providers.core.model import Reply, Scenario, Translation
from toolchoice.providers.core.runner import Job as ProviderRun
from toolchoice.providers.core.translation import compact

from . import exits, heap
from .output import choice_text, shown_path, write_json
from .sample_view import emit, emit_pretty
from toolchoice.providers.core.json_text import dumps_indented


def _calls_text(reply: Reply) -> str:
    if reply.error is not None:
        return ""
    if reply.choices:  # n > 1: each choice's calls (core/choices.py)
        return "\n".join(f"choice {i}: {_calls_text(choice)}" for i, choice in enumerate(reply.choices))
    if not reply.tool_calls:
        return f"(text) {_text_cut(reply.text)}" if reply.text else "(no call, no text)"
    return _call_parts(reply)


TEXT_SHOWN = 60  # characters of a text answer in the calls cell (the whole is in -f json)


def _text_cut(text: str) -> str:
    """A text answer on one line, cut after a word with "…" past ``TEXT_SHOWN`` (it was cut at the 60th character
    with no mark: `refund of 42.00` read as the whole answer)."""
    from .hanging import one_spaced

    text = one_spaced(text)
    if len(text) <= TEXT_SHOWN:
        return text
    kept = text[:TEXT_SHOWN - 1]  # and "…"
    if text[len(kept)] != " ":  # inside a word: after the last whole one
        kept = kept.rsplit(" ", 1)[0] if " " in kept else kept
    return kept.rstrip() + "…"


def _call_parts(reply: Reply, begun: bool = False) -> str:
    """Each call as name(arguments); ``begun``: calls a cut stream had begun, their arguments as far as they came
    (a call whose name had not arrived, a delta of arguments alone, is said so)."""
    from .call_lines import arguments_cut

    parts = []
    for call in reply.tool_calls:
        if call.arguments is not None:
            args = compact(call.arguments)
        else:
            args = (call.raw_arguments or "") if begun else f"<{call.arguments_error}>"
        name = call.name or ("(name not arrived) " if begun else "")
        parts.append(f"{name}({arguments_cut(args, 80)})")  # cut where an argument ends, with "…"
    return "\n".join(parts)


CUTS_SHOWN = 5  # the cut samples whose calls begun a row lists (-f json: every one, in the provider's "cut")


def _cut_lines(run: ProviderRun) -> list[str]:
    """What each stream Ctrl-C cut short had begun (``Job.cuts``, the document's ``cut``), a line a call, marked as
    cut, up to ``CUTS_SHOWN`` samples: a provider whose every sample was cut showed none of them, nor did a row
    that shows its first finished sample."""
    lines = []
    for sample in run.cuts[:CUTS_SHOWN]:
        calls = _call_parts(sample.reply, begun=True).split("\n") if sample.reply.tool_calls else ["no call begun"]
        lines += [f"sample {sample.index} cut: {call}" for call in calls]
    if len(run.cuts) > CUTS_SHOWN:
        lines.append(f"{len(run.cuts) - CUTS_SHOWN} more cut (-f json: cut)")
    return lines


def _row(run: ProviderRun, repeat: int) -> dict[str, str]:
    t = run.translation
    wire = choice_text(t.effective_tool_choice)
    if run.skipped:
        # names no provider: its row does; Ctrl-C before any sample finished: the calls its cut streams had begun
        said, missing = run.skipped, run.skipped_for
        if getattr(missing, "local", False) and getattr(missing, "of", None) == "key":  # the mock, a local server
            variable = missing.variables[0]  # type: ignore[union-attr]
            said += f" (a server on this machine takes any value: {variable}=unused)"
        return {"provider": run.provider, "tool_choice on the wire": "REFUSED" if t.request is None else wire,
                "calls": "\n".join([said, *_cut_lines(run)]),
                "verdict": "refused" if t.request is None else
                (f"cut {len(run.cuts)}" if run.cuts else "skipped"),
                "latency ms": "–", tokens_header(repeat): "–"}
    sample = run.first
    assert sample is not None
    row = {"provider": run.provider, "tool_choice on the wire": wire}
    if sample.reply.error is not None:
        row["calls"] = sample.reply.error.said()  # the row names its provider: the cell says the error once
        if sample.reply.error.type == "stream.interrupted" and sample.reply.tool_calls:  # what had arrived of them
            row["calls"] += "\ncalls begun: " + _call_parts(sample.reply, begun=True)
    else:
        row["calls"] = _calls_text(sample.reply)
    if run.cuts and not any(cut is sample for cut in run.cuts):  # some samples finished, Ctrl-C cut the others
        # (-n 1: the one cut is the sample above, its calls begun said): what those had begun, as an all-cut row
        row["calls"] = "\n".join([row["calls"], *_cut_lines(run)])
    usage = sample.reply.usage
    if repeat == 1:
        v = sample.verdict
        # an error is an error: whether the choice could be enforced says nothing about a reply that never came
        row["verdict"] = v["category"] + ("" if v.get("enforced", True) or v["category"] == "error"
                                          else " (not enforced)")
        row["latency ms"] = "–" if sample.latency_ms is None else f"{sample.latency_ms:.0f}"
        row["tokens"] = _tokens(usage.input_tokens, usage.output_tokens)
    else:
        s = summary(run)
        assert s is not None
        from toolchoice.providers.core.outcome import percent

        shown = [f"{c} {n}/{s['samples']} ({percent(s['rates'][c]['rate'])}, 95% CI "
                 f"{percent(s['rates'][c]['low'])}–{percent(s['rates'][c]['high'])})"
                 for c, n in s["counts"].items() if n]
        if run.cuts:  # Ctrl-C cut these streams short: kept (the document's cut), not in the counts above
            shown.append(f"cut {len(run.cuts)} (Ctrl-C mid-stream, not counted)")
        row["verdict"] = "\n".join(shown)
        lat = s["latency_ms"]
        row["latency ms"] = f"p50 {lat['p50']:.0f} / p95 {lat['p95']:.0f}" if lat["p50"] is not None else "–"
        tok = s["tokens"]
        mean = [None if value is None else round(value) for value in (tok["input_mean"], tok["output_mean"])]
        row["tokens (mean)"] = _tokens(*mean)
    return row


def tokens_header(repeat: int) -> str:
    """The tokens column's header: one sample's, or the mean over the samples (as run's per-step table heads it)."""
    return "tokens" if repeat == 1 else "tokens (mean)"


def _tokens(input_tokens: Any, output_tokens: Any) -> str:
    """``in 10 / out 5`` as run's tables and send say it (output.tokens_cell); "–" where neither is known."""
    from .output import tokens_cell

    return "–" if input_tokens is None and output_tokens is None else tokens_cell(input_tokens, output_tokens)


def _verdict_style(text: str) -> str:
    if text.startswith("obeyed"):
        return "bold green"
    if text.startswith(("skipped", "refused", "cut ")):
        return "yellow"
    return "bold red"


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
                     concurrency: int, timeout: float, retries: int, format: str, min_obeyed: float | None = None,
                     save: Path | None = None, many: bool = False) -> tuple[int, dict[str, Any] | None]:
    """Send (``jobs.compare_send``), draw (pretty, markdown) and return (exit code, the redacted JSON
    document for --format json). ``many``: one of several scenarios (the --min-obeyed lines name it)."""
    from toolchoice.providers.core import jobs

    from .inputs import send_settings

    heap.settle()
    result = jobs.compare_send(scenario, translations, repeat=repeat, save=save, min_obeyed=min_obeyed,
                               settings=send_settings(timeout, retries, concurrency))
    runs, secrets = result.jobs, result.secrets
    rows = [_row(r, repeat) for r in runs]
    document = None
    if format == "json":
        document = result.document(str(scenario_path))
        if result.interrupted:
            document["partial"] = True
            write_json(dumps_indented(document))
    elif format == "markdown":
        emit(_markdown(rows, _diff_lines(send_diff(runs)), columns(repeat)), secrets)
    else:
        emit_pretty(lambda console: _pretty(console, scenario_path, rows, _diff_lines(send_diff(runs)), result.wall_ms,
                                            repeat, runs), secrets)
    return exits.concluded(result, scenario_path if many else None), document


def columns(repeat: int) -> tuple[str, ...]:
    """The rows' columns, the tokens one headed as ``tokens_header`` says."""
    return ("provider", "tool_choice on the wire", "calls", "verdict", "latency ms", tokens_header(repeat))


def _markdown(rows: list[dict[str, str]], diff_lines: list[str], shown: tuple[str, ...]) -> str:
    from . import markdown_text as md

    lines = ["| " + " | ".join(shown) + " |", "|" + "---|" * len(shown)]
    lines += ["| " + " | ".join(md.cell(r[c]) for c in shown) + " |" for r in rows]
    if diff_lines:
        lines += ["", "**Argument diff**", ""] + [f"- {md.cell(line, newline=' ')}" for line in diff_lines]
    return "\n".join(lines)


def retry_lines(runs: list[ProviderRun]) -> list[str]:
    """One line per provider whose requests were retried: how many attempts, and why."""
    lines = []
    for run in runs:
        retried = [s for s in run.samples if len(s.attempts) > 1]
        if not retried:
            continue
        causes = dict.fromkeys(str(a.get("status") or a.get("error") or "no answer")
                               for s in retried for a in s.attempts[:-1])
        attempts = sum(len(s.attempts) for s in retried)
        lines.append(f"{run.provider}: {len(retried)} of {len(run.samples)} requests retried ({attempts} attempts; "
                     f"after {', '.join(list(causes)[:5])})")
    return lines


def _pretty(console: Any, scenario_path: Path, rows: list[dict[str, str]], diff_lines: list[str], wall_ms: float,
            repeat: int, runs: list[ProviderRun] = ()) -> None:  # type: ignore[assignment]
    from rich.text import Text

    from .compare_view import SEVERITY_STYLE_TEXT, fit_table, grouped_findings, providers_named

    title = f"{shown_path(scenario_path)} · sent{f' × {repeat}' if repeat > 1 else ''} · wall {wall_ms / 1000:.2f} s"
    shown = columns(repeat)
    cells = [[Text(row[c], style=_verdict_style(row[c]) if c == "verdict" else "") for c in shown] for row in rows]
    console.print(fit_table(console, title, shown, cells, show_lines=True, pairs=(shown[-1],)))
    # what the dry run shows too: the ledgers' warnings and errors, and what the transport retried
    # (a provider skipped for want of its key sent nothing: its key is not said to go anywhere)
    ledgers = {r.provider: [e for e in r.translation.ledger if not (r.skipped and e.code == "env.key_destination")]
               for r in runs}
    for severity, code, providers, message in grouped_findings(ledgers):
        from .hanging import prose_broken, redacted

        line = Text(f"{code} ", style=SEVERITY_STYLE_TEXT[severity])
        line.append(f"({providers_named(providers, list(ledgers))}): ", style="bold")
        line.append(redacted(console, message))  # the keys out before a line quoting JSON is broken
        console.print(prose_broken(console, line))  # quoted JSON broken between members, as the dry run's lines
    for line in retry_lines(list(runs)):
        console.print(Text("retried  " + line, style="yellow"))
    if diff_lines:
        console.print(Text("argument diff", style="bold"))
        from .hanging import hanging

        for line in diff_lines:  # a line's further lines under its first word, not back at the margin
            console.print(hanging(console, "  ", line))
