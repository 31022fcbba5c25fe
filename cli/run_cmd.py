"""`toolchoice run`: the whole agent loop, step by step, with a tool_choice and a verdict per step.

The loop itself lives in providers/core/loop.py; this module parses options and draws (pretty via
rich, JSON, markdown). Every text written goes through the transport's redaction.
"""

from __future__ import annotations

import json
import re
import sys
from enum import Enum
from pathlib import Path
from typing import Any, List, Optional

import typer

from toolchoice.providers.core.bounded import cut
from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.outcome import rate_cells

from . import exits, heap
from .exits import handled
from .hanging import hanging, one_spaced, prose_broken, redacted
from .options import (ALLOW_ENV, BASE_URL, CAPS, GATEWAY, CONCURRENCY, LIVE_MCP, LOOP_REPEAT, MODEL, NO_EMULATE, RETRIES,
                      STRICT, TIMEOUT, allowed_env)
from toolchoice.providers.core.json_text import dumps_indented


class RunFormat(str, Enum):
    pretty = "pretty"
    json = "json"
    markdown = "markdown"


SCENARIO = typer.Argument(None, help="Scenario file (YAML or JSON); its loop: section, if any, says the steps "
                          "(without one: a step per reply, at most 10). With --replay TRACE_FILE or FILE.har it is "
                          "optional: the recording's own scenario by default.", show_default=False)
PROVIDERS = typer.Option(..., "--provider", "-p", help="Provider id; repeat it (or a comma list) to run the loop on "
                         "several providers side by side.", show_default=False)


# ---- drawing -------------------------------------------------------------------------------


def _choice(value: Any) -> str:
    if value is None:
        return "unset"
    from toolchoice.providers.core.model import word_or_json

    return word_or_json(value)


# a text answer's preview in the calls cell: `(no call) TEXT`, TEXT cut to 30 characters (markdown), or to
# PREVIEW_MOST for the tables, which cut it again to the lines its cell has room for (table_fit.preview_cut)
TEXT_SHOWN, PREVIEW_MOST = 30, 300
NO_CALL = re.compile(r"(?:choice \d+: )?\(no call\) ")  # the lines of a calls cell that are such a preview


def _calls(record: Any, text_most: int = TEXT_SHOWN) -> str:
    """The reply's calls, one a line: each function call with its arguments, then each call the provider ran
    itself (an MCP call, a program, a tool search: ``sample_view.server_call_text``, as send shows them)."""
    reply = record.reply
    if reply is None:
        return "–"
    if reply.choices:  # n > 1: each choice's calls, as compare --send's cell (core/choices.py)
        return "\n".join(f"choice {i}: {_reply_calls(choice, text_most)}" for i, choice in enumerate(reply.choices))
    return _reply_calls(reply, text_most)


def _reply_calls(reply: Any, text_most: int) -> str:
    from .call_lines import arguments_cut
    from .sample_view import CALLS_SHOWN  # the pretty reply view's cap: a step of 30,000 calls, one cell a line

    parts = []
    for call in reply.tool_calls[:CALLS_SHOWN]:
        args = json.dumps(call.arguments, ensure_ascii=False) if call.arguments is not None else call.raw_arguments
        parts.append(f"{call.name}({arguments_cut(one_spaced(args or ''), 40)})")  # cut where an argument ends
    if len(reply.tool_calls) > CALLS_SHOWN:
        parts.append(f"… and {len(reply.tool_calls) - CALLS_SHOWN:,} more calls (-f json shows all)")
    if reply.server_calls:
        from .sample_view import server_call_text

        parts.extend(_short(server_call_text(call), 60) for call in reply.server_calls)
    if not parts:
        return "(no call)" + (f" {_short(reply.text, text_most)}" if reply.text else "")
    return "\n".join(parts)


def _short(text: str, n: int) -> str:
    return cut(one_spaced(text), n)


def _verdict(record: Any) -> str:
    v = record.verdict
    if v is None:
        return "✘ " + (record.skipped or "error")
    if v["obeyed"]:
        return "✔ obeyed" + ("" if v.get("enforced", True) else " (not enforced)")
    return "✘ " + v["category"]


def _tokens(record: Any) -> str:
    from .output import tokens_cell

    reply = record.reply
    if reply is None or (reply.usage.input_tokens is None and reply.usage.output_tokens is None):
        return "–"
    return tokens_cell(reply.usage.input_tokens, reply.usage.output_tokens)


def _latency(record: Any) -> str:
    s = record.sample
    return "–" if s is None or s.latency_ms is None else f"{s.latency_ms:.0f} ms"


def _ended(run: Any) -> str:
    reason = run.ended or "interrupted"
    where = f" at step {run.ended_step}" if run.ended_step else ""
    text = f"ended: {reason}{where}"
    if run.error:
        text += f" ({run.error})"
    return text


def _final(run: Any) -> str | None:
    if run.final is None:
        return None
    return run.final if isinstance(run.final, str) else json.dumps(run.final, ensure_ascii=False)


def _requested(choice: Any) -> str:
    """The neutral tool_choice as a scenario spells it: auto, {tool: NAME}, {allowed: [a, b], mode: auto}, and a
    provider-native form as written ({type: mcp, server_label: dw})."""
    if choice is None:
        return "unset"
    if choice.native is not None:
        from toolchoice.providers.core.model import word_or_json

        return "{" + ", ".join(f"{key}: {word_or_json(value)}" for key, value in choice.native.items()) + "}"
    if choice.mode == "named":
        return f"{{tool: {choice.name}}}"
    if choice.mode == "allowed":
        return f"{{allowed: [{', '.join(choice.allowed)}], mode: {choice.allowed_mode}}}"
    return choice.mode


def step_rows(run: Any, text_most: int = TEXT_SHOWN) -> list[list[str]]:
    return [[str(r.number), _requested(r.scenario.tool_choice),
             _choice(r.translation.effective_tool_choice), _calls(r, text_most), _verdict(r), _latency(r), _tokens(r)]
            for r in run.steps]


STEP_HEADERS = ["step", "tool_choice", "on the wire", "calls", "verdict", "latency", "tokens"]
# the requested choice's words whole (a tool name: 64 at most, in `{tool: NAME}`); the wire form is JSON, broken
# between its members (call_lines.json_lines): its widest key or value decides the layout up to 24 cells, as in
# compare (a named tool's `"plan_tool_call"}}` whole: at 80 columns the steps are then one record a row, where a
# column of 12 read `"plan_tool_…`); a call's argument (`"steps": [`, `"city": "Paris",`) decides it up to 14 (the
# default cap: with 15 the 80-column layout is one record a row), shortened with "…" past the calls column's width
STEP_CAPS = {"tool_choice": 66, "on the wire": 24}


def notes(run: Any) -> list[tuple[int, str, str, str]]:
    """Per step: ledger warnings/errors (the pitfall lint) and the loop's own notes."""
    out = []
    for r in run.steps:
        for e in (*r.translation.ledger, *r.notes):
            if e.severity != "info":
                out.append((r.number, e.severity, e.code, exits.note_words(e.message)))
    return out


def _repeats_merged(found: Any) -> list[tuple[Any, str, str, str]]:
    """The step notes, a run of loop.repeated_call on consecutive steps shown as one line (the last step's, which
    counts them all): a loop repeating one call to max_steps printed the same warning on every step."""
    out: list[tuple[Any, str, str, str]] = []
    # the line of the run of repeats, and the steps it covers: another step note between two repeats (the required
    # trap's pitfall, on every step of a forced loop) does not end the run, which is one streak of the same call
    at = first = last = None
    for number, severity, code, message in found:
        if code != "loop.repeated_call" or not isinstance(number, int):
            out.append((number, severity, code, message))
            continue
        if at is not None and first is not None and number == last + 1:
            # the last step's count ("10 in a row"), but the setting that ends the loop at the first repeat: "set
            # ...: 10 to end the loop here" ended it where max_steps did
            message = re.sub(r"set loop\.stop\.repeated_calls: (\d+) to end the loop here",
                             lambda m: (f"set loop.stop.repeated_calls: {int(m.group(1)) - (number - first)} to end the "
                                        f"loop at step {first}"), message)
            out[at] = (f"{first}-{number}", severity, code, re.sub(r"^step \d+ makes", "each makes", message))
            last = number
            continue
        at, first, last = len(out), number, number
        out.append((number, severity, code, message))
    return out


def _same_merged(found: Any) -> list[tuple[Any, str, str, str]]:
    """A note in the same words on consecutive steps (a key sent to the scenario's base URL, a lint every step
    repeats) as one line with its steps: a ten-step loop printed it ten times."""
    spans: dict[tuple[str, str, str], list[list[int]]] = {}  # each note's runs of steps: [first, last, its line]
    out: list[tuple[Any, str, str, str]] = []
    for number, severity, code, message in found:
        runs = spans.setdefault((severity, code, message), [])
        if isinstance(number, int) and runs and runs[-1][1] == number - 1:
            runs[-1][1] = number
            out[runs[-1][2]] = (f"{runs[-1][0]}-{number}", severity, code, message)
            continue
        if isinstance(number, int):
            runs.append([number, number, len(out)])
        out.append((number, severity, code, message))
    return out


def one_line(message: str) -> str:
    """A note on one line: a line break it quotes (a name from a trace or a tool file) is written out, as `tools`
    writes it, so what follows cannot pass for a line of toolchoice's own."""
    return message.replace("\n", "\\n")


def print_loop(console: Any, run: Any, replayed: bool = False) -> None:
    """One loop's steps; ``replayed``: answered from a recording (--replay), said in the rule, as a dry run says
    nothing was sent: the same table a live run draws, its latencies the recorded ones."""
    from rich.text import Text

    from .output import SEVERITY_STYLE
    from .table_fit import fitted_table

    title = CAPABILITIES[run.provider].title if run.provider in CAPABILITIES else run.provider
    console.rule(Text.assemble((run.provider, "bold"), f" · {title} · loop {run.index}"
                               + (" · replayed" if replayed else "")))
    rows = []
    for row, record in zip(step_rows(run, PREVIEW_MOST), run.steps):
        style = "green" if record.verdict and record.verdict["obeyed"] else "red"
        rows.append([*row[:4], Text(row[4], style=style), *row[5:]])
    console.print(fitted_table(console.width, STEP_HEADERS, rows, right=("step", "latency"), caps=STEP_CAPS, calls=("calls",),
                               jsons=("on the wire",), prose=("verdict",),  # a refusal quoting JSON
                               short={"tool_choice": "choice", "on the wire": "wire"}, pairs=("tokens",),
                               preview=NO_CALL))  # a text answer takes the lines its cell has room for
    for number, severity, code, message in _same_merged(_repeats_merged(notes(run))):
        label = f"  steps {number} " if "-" in str(number) else f"  step {number} "
        if code.startswith(("trace.", "har.", "saved.")):  # an imported trace's (a HAR's) note, on every step's
            label = "  trace "  # ledger: "steps 1-2 ... no tool_choice for step 2" read as a note of step 1 too
        console.print(hanging(console, Text.assemble((label, "bold"), (f"{severity} {code}", SEVERITY_STYLE[severity]),
                                                     ": "), one_line(message)))
    console.print(prose_broken(console, Text(redacted(console, _ended(run)), style="bold")))  # a refusal quoting JSON
    first = run.first_error()  # what the first error result said: a --results-from typo said only "1 of 1"
    _errors_line(console, *run.tool_results(), first=None if first is None else
                 f"step {first[0]} {first[1].tool_name or '?'}: {_short(first[1].content or '', 160)}")
    if run.final is not None:  # the model's text, or the stop tool's arguments: JSON broken between its members
        from .call_lines import arguments_cut

        text = (_short(run.final, 600) if isinstance(run.final, str)
                else arguments_cut(json.dumps(run.final, ensure_ascii=False), 600))  # cut after a member: "…"
        console.print(hanging(console, Text("final answer  ", style="bold"), text, json=not isinstance(run.final, str)))


def print_side_by_side(console: Any, runs: list[Any], providers: list[str]) -> None:
    """Each provider's verdict and calls per step, and how its loop ended: a verdict or an end quoting JSON (a
    refusal quoting the tool_choice it would send) and a call broken as the step table breaks them, never folded
    inside a key or a value (fitted_table: whole at the console's width, else one record a row)."""
    from .table_fit import fitted_table

    by = {r.provider: r for r in runs}
    depth = max(len(r.steps) for r in runs)
    rows = []
    for n in range(depth):
        cells = []
        for p in providers:
            run = by[p]
            cells.append(f"{_verdict(run.steps[n])}\n{_calls(run.steps[n], PREVIEW_MOST)}" if n < len(run.steps)
                         else "–")  # ended before
        rows.append([str(n + 1), *cells])
    rows.append(["end", *[_ended(by[p]).removeprefix("ended: ") for p in providers]])
    console.print(fitted_table(console.width, ["step", *providers], rows, right=("step",), title="per-step verdicts",
                               calls=tuple(providers), prose=tuple(providers), preview=NO_CALL))


def print_summary(console: Any, provider: str, runs: list[Any], tally: Any = None) -> None:
    """The tallies of one provider's loops: ``tally`` (loop_tally.LoopTally) when the loops were reduced
    as they ended, else made from ``runs``."""
    from rich.table import Table
    from rich.text import Text

    from toolchoice.providers.core.loop_tally import tally_of

    from .output import tokens_cell
    from .table_fit import fitted_table

    tally = tally or tally_of(runs)
    data = tally.summary()
    title = CAPABILITIES[provider].title if provider in CAPABILITIES else provider
    console.rule(Text.assemble((provider, "bold"), f" · {title} · {data['loops']} loops"))
    headers = ["step", "tool_choice", "reached", "obeyed", "%", "95% CI (Wilson)", "other verdicts", "latency p50",
               "tokens (mean)"]
    rows = []
    for s in data["steps"]:
        rate, ci = rate_cells(s["obey_rate"])
        other = ", ".join(f"{c} {k}" for k, c in s["counts"].items() if c and k != "obeyed") or "–"
        choices = dict.fromkeys(_requested(choice) for choice in tally.step_choices(s["step"]))
        lat = s["latency_ms"]["p50"]
        tok = s["tokens"]
        rows.append([str(s["step"]), ", ".join(choices), str(s["reached"]), str(s["obeyed"]), rate, ci, other,
                     "–" if lat is None else f"{lat:.0f} ms", tokens_cell(_num(tok['input_mean']), _num(tok['output_mean']))])
    console.print(fitted_table(console.width, headers, rows, title="per step",
                               right=tuple(h for h in headers if h not in ("tool_choice", "other verdicts")),
                               short={"tool_choice": "choice", "95% CI (Wilson)": "95% CI", "other verdicts": "other",
                                      "latency p50": "p50", "tokens (mean)": "tokens"}, pairs=("tokens (mean)",)))
    ended = Table(show_header=True, header_style="bold", expand=False, title="how loops ended", title_justify="left")
    for h in ("ended", "count", "%", "95% CI (Wilson)"):
        ended.add_column(h, justify="left" if h == "ended" else "right")
    for reason, e in data["ended"].items():
        if e["count"]:
            rate, ci = rate_cells(e)
            ended.add_row(reason, str(e["count"]), rate, ci)
    console.print(ended)
    console.print(hanging(console, "ended by itself  ", _by_itself(data["terminated"])))
    fin = data["steps_to_finish"]
    if fin["n"]:
        console.print(f"steps to finish  p50 {fin['p50']:g}  ·  p95 {fin['p95']:g}  (n={fin['n']})")
    _errors_line(console, data["tool_results"]["total"], data["tool_results"]["errors"])
    for severity, code, message in tally.findings:
        # the loop's findings
        console.print(hanging(console, Text.assemble((f"step 1 {severity} {code}", "yellow"), ": "), one_line(message)))
    lat = data["latency_ms"]
    if lat["p50"] is not None:
        console.print(f"loop latency     p50 {lat['p50']:.0f} ms  ·  p95 {lat['p95']:.0f} ms")
    tok = data["tokens"]
    if tok["input_mean"] is not None:
        console.print(f"loop tokens      in {tok['input_total']} (mean {_num(tok['input_mean'])})  ·  "
                      f"out {tok['output_total']} (mean {_num(tok['output_mean'])})")
    for line, count in tally.error_lines().most_common(5):
        console.print(hanging(console, f"{count}× ", line, style="red"))
    for line, count in tally.reason_lines().most_common(5):
        console.print(hanging(console, f"{count}× ", line, style="yellow"))


def _by_itself(t: dict[str, Any]) -> str:
    """How many loops ended by themselves (not at max_steps, not by a failure), with the Wilson interval."""
    rate, ci = rate_cells(t)
    return f"{t['count']} of {t['loops']} loops ({rate}, 95% CI {ci}; the rest hit max_steps, repeated_call or failed)"


def _errors_line(console: Any, total: int, errors: int, first: str | None = None) -> None:
    if errors:
        from rich.text import Text

        from .hanging import prose_broken, redacted

        said = f"{errors} of {total} tool results were errors"
        if first is not None:  # what a result said, redacted before it is broken (a command may print a key)
            said += f"; the first, {one_line(redacted(console, first))}"
        console.print(prose_broken(console, Text(said, style="yellow")))


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"


def markdown(runs: list[Any], providers: list[str], repeat: int, tallies: dict[str, Any] | None = None) -> str:
    from toolchoice.providers.core.loop import summary

    from . import markdown_text as md

    def row(cells: list[str]) -> str:
        return "| " + " | ".join(md.cell(c) for c in cells) + " |"

    lines: list[str] = []
    for provider in providers:
        mine = [r for r in runs if r.provider == provider]
        if repeat == 1:
            for run in mine:
                lines += [f"### {provider} · loop {run.index}", "", row(STEP_HEADERS),
                          row(["---"] * len(STEP_HEADERS))]
                lines += [row(cells) for cells in step_rows(run)]
                lines += ["", md.escaped(f"{_ended(run)}" + (f" — final answer: {_short(_final(run) or '', 300)}"
                                                             if run.final is not None else "")), ""]
                total, errors = run.tool_results()
                lines += [f"{errors} of {total} tool results were errors", ""] if errors else []
            continue
        data = tallies[provider].summary() if tallies is not None else summary(mine)
        lines += [f"### {provider} · {data['loops']} loops", "",
                  row(["step", "reached", "obeyed", "%", "95% CI (Wilson)"]), row(["---"] * 5)]
        for s in data["steps"]:
            lines.append(row([str(s["step"]), str(s["reached"]), str(s["obeyed"]),
                              *rate_cells(s["obey_rate"])]))
        lines += ["", row(["ended", "count", "%", "95% CI (Wilson)"]), row(["---"] * 4)]
        lines += [row([k, str(e["count"]), *rate_cells(e)]) for k, e in data["ended"].items() if e["count"]]
        lines += ["", f"ended by itself: {_by_itself(data['terminated'])}"]
        fin = data["steps_to_finish"]
        if fin["n"]:
            lines += ["", f"steps to finish: p50 {fin['p50']:g}, p95 {fin['p95']:g} (n={fin['n']})"]
        if data["tool_results"]["errors"]:
            lines += ["", f"{data['tool_results']['errors']} of {data['tool_results']['total']} tool results were errors"]
        lines.append("")
    return "\n".join(lines)


# ---- the command ---------------------------------------------------------------------------


@handled
def run(
    scenario: Optional[Path] = SCENARIO,
    provider: List[str] = PROVIDERS,
    tool_choice: Optional[str] = typer.Option(None, "--tool-choice", help="Override step 1's tool_choice (same "
                                              "spellings as --tool-choice elsewhere)."),
    model: Optional[List[str]] = MODEL,
    base_url: Optional[str] = BASE_URL,
    gateway: bool = GATEWAY,
    timeout: float = TIMEOUT,
    retries: int = RETRIES,
    repeat: int = LOOP_REPEAT,
    concurrency: int = CONCURRENCY,
    processes: Optional[int] = typer.Option(None, "--processes", min=1, max=64, help="Processes that may share the "
                                            "loops of --repeat, at most one per CPU (the default; used from 200 "
                                            "requests a process on, Linux only). --concurrency stays the total."),
    format: RunFormat = typer.Option(RunFormat.pretty, "--format", "-f", help="pretty, json or markdown."),
    save: Optional[Path] = typer.Option(None, "--save", help="Write each loop's transcript (requests, replies as "
                                        "received, verdicts, and a scenario with the full history) into this folder."),
    replay: Optional[Path] = typer.Option(None, "--replay", help="Run offline from a folder --save wrote (or "
                                          "step-01.response.json, step-02... files), from an OTLP/JSON trace "
                                          "file or from a HAR file (their recorded replies): no network, "
                                          "deterministic."),
    trace_id: Optional[str] = typer.Option(None, "--trace-id", help="With --replay TRACE_FILE or FILE.har: the run "
                                           "(a HAR's conversation number) to replay when the file holds several."),
    trace_out: Optional[Path] = typer.Option(None, "--trace-out", help="Write the loops as OTLP/JSON (one span "
                                             "per step, OTel GenAI conventions) to this file."),
    results_from: Optional[str] = typer.Option(None, "--results-from", help="Run this shell command per tool call "
                                               "(the call as JSON on stdin, the result on stdout) instead of "
                                               "loop.results."),
    results_timeout: float = typer.Option(30.0, "--results-timeout", min=0.1, max=3600.0,
                                          help="Seconds --results-from may take per call."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Render step 1 and say what later steps depend on."),
    stream: bool = typer.Option(False, "--stream", help="Send each step in the provider's streaming form and "
                                "assemble its reply from the events."),
    strict: bool = STRICT,
    no_emulate: bool = NO_EMULATE,
    capabilities: Optional[Path] = CAPS,
    allow_env: Optional[List[str]] = ALLOW_ENV,
    live_mcp: bool = LIVE_MCP,  # issue 29: the dry run's opt-in, as render's, compare's, send's and parse's
) -> None:
    """Run the agent loop: a tool_choice per step, tool results fed back, a verdict per step."""
    from toolchoice.providers.core import jobs, loop
    from toolchoice.providers.core.choice import parse_cli_value, parse_tool_choice
    from toolchoice.providers.core.model import RenderOptions, ToolchoiceError

    from .inputs import capabilities_from, check_base_url, selected_providers, send_settings, warn_shared_base_url

    from toolchoice.providers.core.transport import check_seconds

    check_seconds(results_timeout, "results_timeout")  # nan passes the option's range (it compares false)
    check_base_url(base_url)
    allowed = allowed_env(allow_env)  # --allow-env and $TOOLCHOICE_ALLOW_ENV, as send reads them
    offline = (dry_run or replay is not None) and not live_mcp  # a replay sends nothing: no MCP server started either
    loaded, traced = _scenario_or_trace(scenario, replay, trace_id, provider, offline, allowed)
    providers = selected_providers(provider, loaded)
    warn_shared_base_url(base_url, providers)
    override = None
    if tool_choice is not None:
        def fail(message: str, hint: str | None = None) -> ToolchoiceError:
            return ToolchoiceError(f"--tool-choice: {message}", hint=hint)

        override = parse_tool_choice(parse_cli_value(tool_choice), loop.step_scenario(loaded, 1, ()).tool_names, fail)
    from .inputs import models_for

    options = loop.LoopOptions(RenderOptions(strict=strict, emulate=not no_emulate, base_url=base_url, stream=stream,
                                             allow_env=allowed, gateway=gateway),
                               capabilities_from(capabilities), override, results_from, results_timeout,
                               models=models_for(model, providers))
    if dry_run:
        _dry_run(loaded, providers, options, format)
        return
    if trace_out is not None and capabilities is not None:  # the overlay a probe measured, which the library (given
        from toolchoice.providers.core.call_args import not_an_input  # it read) cannot name: never written over

        not_an_input(trace_out, "trace_out", capabilities)
    replayed = traced if traced is not None else (loop.load_replay(replay, providers[0]) if replay is not None
                                                  else None)
    if replayed is not None and len(providers) > 1:
        raise ToolchoiceError("--replay takes one --provider", hint="replay the transcript once per provider")
    count = len(replayed.transcripts) if replayed is not None and repeat == 1 else repeat
    heap.settle()
    if processes is None:  # forking is the command's to decide only in a process of its own (heap.OWNED)
        from toolchoice.providers.core.loop_shards import cpus

        processes = cpus() if heap.OWNED else 1
    result = jobs.run(loaded, providers, options, repeat=repeat, save=save, replay=replayed, trace_out=trace_out,
                      settings=send_settings(timeout, retries, concurrency),
                      spool_json=format is RunFormat.json, processes=processes)
    try:
        _draw(loaded, result, providers, count, format, replayed is not None)
    finally:
        result.close()
    if result.interrupted:
        exits.error_line(result.interrupted.line())
    if result.code != exits.OK:
        raise typer.Exit(result.code)


def _scenario_or_trace(scenario: Optional[Path], replay: Optional[Path], trace_id: Optional[str],
                       provider: List[str], dry_run: bool = False,
                       allow_env: tuple[str, ...] = ()) -> tuple[Any, Any]:
    """The scenario to run and, for ``--replay TRACE_FILE``, the trace's replies (a ``loop.Replay``): the
    trace's own scenario unless SCENARIO is given (then the trace's notes open its ledgers too). A dry run
    reaches no live MCP source; ``allow_env``: the variables a ``from:``'s headers may read."""
    from toolchoice.providers.core.model import Scenario, ToolchoiceError

    from .inputs import selected_providers

    def load_scenario(path: Path) -> Any:
        from .inputs import load_path

        return load_path(path, live=not dry_run, allow_env=allow_env, command="run")

    if replay is None or replay.is_dir() or not _named(replay):  # a FIFO, a link's loop: the recording's reader says
        if trace_id is not None:
            raise ToolchoiceError("--trace-id goes with --replay TRACE_FILE")
        if scenario is None:
            if replay is not None and not replay.exists():
                raise ToolchoiceError(f"--replay {replay}: no such file or folder",
                                      hint="give an OTLP/JSON trace file, a HAR file, or a SCENARIO and the folder "
                                           "--save wrote")
            raise ToolchoiceError("give a SCENARIO file" + (" (a --replay folder replays a saved run of it)" if replay
                                                            is not None else " (or --replay TRACE_FILE or FILE.har)"),
                                  hint=_started_hint(replay, provider) or "see toolchoice run --help")
        if scenario is not None and replay is not None and replay.is_dir() and _inside(scenario, replay):
            from toolchoice.providers.core.loop_save import is_recording, transcript_of

            started = transcript_of(scenario)
            if started is not None:  # the run's whole history as step 1: every recorded step answers the wrong one
                flags = "".join(f" -p {p}" for p in provider)
                recorded = is_recording(started)  # a run --replay FILE.har or TRACE_FILE saved: no scenario file
                raise ToolchoiceError(f"{scenario} is the transcript --save wrote in {replay} (the run's whole "
                                      "history), not the scenario the run started from",
                                      hint=f"that run replayed {started}: replay it again: toolchoice run --replay "
                                           f"{started}{flags} (and --trace-id N where it holds several)"
                                           if recorded else
                                           f"replay with that one: toolchoice run {started} --replay {replay}{flags}")
        return load_scenario(scenario), None
    from toolchoice.providers.core.trace_har_replay import replay_file

    target = selected_providers(provider, Scenario("-"))[0]  # what cannot travel depends on where it goes
    traced, replies = replay_file(replay, trace_id, target)  # a HAR's conversation or a trace's run
    if scenario is None:
        return traced, replies
    loaded = load_scenario(scenario)
    return loaded._replace(notes=(*traced.notes, *loaded.notes)), replies


def _started_hint(replay: Path | None, provider: list[str]) -> str | None:
    """`run -p openai --replay DIR` without SCENARIO: the command that replays the run saved in DIR."""
    from toolchoice.providers.core.loop_save import saved_start
    from toolchoice.providers.core.shell_word import bash_only, shell_path

    found = saved_start(replay) if replay is not None and replay.is_dir() else None
    if replay is None or found is None:
        return None
    flags = "".join(f" -p {p}" for p in provider or [found[1]])
    words = shell_path(found[0]), shell_path(replay)
    return (f"the run saved there started from {found[0]}: toolchoice run {words[0]} --replay {words[1]}{flags}"
            + bash_only(*words))


def _named(path: Path) -> bool:
    """Whether something is there by that name, a link that leads nowhere included (``--replay`` given a FIFO, a
    device or a link's loop: the recording's reader names what it is, not "no such folder")."""
    import os

    return os.path.lexists(path)


def _inside(path: Path, folder: Path) -> bool:
    try:
        return folder.resolve() in path.resolve().parents
    except (OSError, RuntimeError):  # a symlink loop
        return False


def _draw(scenario: Any, result: Any, providers: list[str], repeat: int, format: RunFormat, replayed: bool) -> None:
    """``result``: the ``jobs.RunResult`` (its ``reduced``: a ``loop_tally.LoopReduction`` when the loops were
    reduced as they ended)."""
    from .sample_view import emit, emit_pretty

    runs, secrets, reduced = result.runs, result.secrets, result.reduced

    if format is RunFormat.json:
        from .output import shown_utf8_writer

        # the library's document (redacted, made visible as output.write shows every output), piece by piece
        result.write_json(shown_utf8_writer())
        return
    if format is RunFormat.markdown:
        emit(markdown(runs, providers, repeat, reduced.tallies if reduced is not None else None), secrets)
        return

    def draw(console: Any) -> None:
        if repeat == 1:
            for r in runs:
                print_loop(console, r, replayed)
            if len(providers) > 1:
                print_side_by_side(console, runs, providers)
        else:
            for p in providers:
                print_summary(console, p, [r for r in runs if r.provider == p],
                              reduced.tallies[p] if reduced is not None else None)

    emit_pretty(draw, secrets)


def _dry_run(scenario: Any, providers: list[str], options: Any, format: RunFormat) -> None:
    from toolchoice.providers.core import loop
    from toolchoice.providers.core.loop_lint import dry_run

    from .output import output_redactor, print_pretty, translations_json, write, write_json

    redactor = output_redactor(options.render.allow_env)  # a key the scenario quotes (render redacts it too)
    translations = [redactor.data(t) for t in dry_run(scenario, providers, options)]  # step 1, then the loop's findings
    later = redactor.data(loop.later_steps(scenario, options.override))
    if format is RunFormat.json:
        write_json(dumps_indented({"step": 1, "translations": [t.to_json() for t in translations], "later_steps": later}))
    else:
        if format is RunFormat.pretty:
            print_pretty(translations, {p: c.title for p, c in CAPABILITIES.items()})
        else:
            write_json(translations_json(translations))
        from .output import terminal_width
        from .word_breaks import text_lines

        width = terminal_width()  # whole at the terminal's width (a trial at 60 and 80)
        write("\n".join(["later steps depend on the replies:", *(wrapped for line in later for wrapped in text_lines(
            line, width, initial_indent="  ", subsequent_indent="    "))]))
    if any(t.refused for t in translations):
        raise typer.Exit(exits.REFUSED)
    sys.stdout.flush()
