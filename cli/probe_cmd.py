"""`toolchoice probe`: measure what an endpoint does with each tool_choice value.

Each question (auto, none, required, the word "any", named in each form the translator can produce,
allowed subset, parallel_tool_calls false) is sent ``--repeat`` times with `send`'s machinery and
classified: honored, ignored, rejected or inconclusive. ``--save FILE`` writes a capability
overlay that `render`/`compare --capabilities FILE` apply for that endpoint.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Any, List, Optional

import typer

from toolchoice.providers.core.json_text import dumps_indented


from .exits import handled
from .options import (ALLOW_ENV, BASE_URL, CONCURRENCY, GATEWAY, MODEL, REPEAT_MAX, REPEAT_MIN, PROVIDER_ONE, RETRIES, TIMEOUT,
                      PROBE_TOOL_CHOICE, format_option)


class ProbeFormat(str, Enum):
    pretty = "pretty"
    json = "json"


TABLE_EVIDENCE_CHARS = 200  # in the pretty table; --format json and the overlay keep the full evidence


def _clip(text: str) -> str:
    return text if len(text) <= TABLE_EVIDENCE_CHARS else text[:TABLE_EVIDENCE_CHARS] + "… (--format json: all)"


_STYLE = {"honored": "bold green", "ignored": "bold yellow", "rejected": "bold red", "inconclusive": "magenta",
          "did not arrive": "magenta", "not asked": "dim"}


NEXT_STEP = ("to use these answers, add `--save FILE` to this command, then give `--capabilities FILE` to render, "
             "compare, send or run at the same base URL")


def _print(console: Any, result: dict[str, Any], hint: bool = False) -> None:
    from rich.text import Text

    from .table_fit import fitted_table

    # every question refused before sending (a host's rule at --gateway): no request, so no endpoint was built
    title = (f"probe {result['provider']} · {result['endpoint'] or '(nothing sent)'} · "
             f"{result['model'] or 'default model'} · "
             f"{result['samples_per_question']} sample(s) per question")
    rows = []
    for q in result["questions"]:
        wire = q["wire"] if isinstance(q["wire"], str) or q["wire"] is None else json.dumps(q["wire"])
        p50 = "–" if q["latency_ms_p50"] is None else f"{q['latency_ms_p50']:.0f}"
        rows.append([Text(q["question"]), Text(str(wire) if wire is not None else "(not sent)"),
                     Text(q["result"], style=_STYLE[q["result"]]), Text(_clip(q["evidence"])), p50])
    # a word that fits a line (the width less a record's border and padding) is never folded inside itself: a
    # server's "invalid_request_error:" or a result decides the layout, as fitted_table keeps every word it weighs
    console.print(fitted_table(console.width, ["question", "on the wire", "result", "evidence", "p50 ms"], rows,
                               title=title, lines=True, word_cap=console.width - 4,
                               short={"on the wire": "wire"}))
    if hint:  # the next step: what the answers are for
        console.print(Text(NEXT_STEP))


@handled
def probe(
    scenario: Optional[Path] = typer.Argument(None, help="Probe with your own tools (default: a built-in two-tool "
                                              "scenario); - reads it from stdin.", show_default=False),
    provider: str = PROVIDER_ONE,
    tool_choice: Optional[str] = PROBE_TOOL_CHOICE,
    base_url: Optional[str] = BASE_URL,
    gateway: bool = GATEWAY,
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
    from toolchoice.providers.core import jobs
    from toolchoice.providers.core.model import RenderOptions
    from toolchoice.providers.core.probe import UNANSWERED, probe_scenario, save_overlay

    from . import exits
    from .inputs import check_base_url, load_path, models_for, one_provider, send_settings, with_tool_choice
    from .options import allowed_env
    from .output import write, write_json
    from .sample_view import emit_pretty

    provider = one_provider(provider, "probe", "probe one endpoint at a time")
    check_base_url(base_url)
    from toolchoice.providers.core.call_args import not_an_input

    # the overlay written over the scenario probed: gone (probe reads no overlay: --save over an earlier one
    # measures it again, as docs/probe.md's --save writes the answers of this probe alone)
    not_an_input(save, "save", *([scenario] if scenario is not None else []))
    loaded = load_path(scenario, live=True, allow_env=allow_env, command="probe") if scenario else None
    choice = (with_tool_choice(loaded or probe_scenario(), tool_choice).tool_choice
              if tool_choice is not None else None)
    result = jobs.probe(provider, loaded, model=models_for(model, [provider])[provider],
                        options=RenderOptions(base_url=base_url, allow_env=allowed_env(allow_env), stream=stream,
                                              gateway=gateway),
                        repeat=repeat, settings=send_settings(timeout, retries, concurrency),
                        tool_choice=choice)
    code = jobs.probe_code(result)
    # what was measured is kept even when a question was not: an overlay states only the measured answers
    measured = save_overlay(result, save)
    if format is ProbeFormat.json:
        write_json(dumps_indented(result))
    else:
        emit_pretty(lambda console: _print(console, result, hint=save is None and measured), {})
        if save is not None and measured:
            from .output import new_console, shown_path, wrapped

            shown = shown_path(save)  # a newline in the name written out, as a title writes it
            said = ("stdout, above: save it into a file and give --capabilities FILE" if str(save) == "-" else
                    f"{shown}: give --capabilities {shown}")  # `--save -`: stdout, as every `-` written is
            write(wrapped(f"capability overlay written to {said} to render, compare, send or run at the same base URL",
                          new_console().width))
    if code == exits.INTERRUPTED:  # nothing saved: the overlay would lack the questions not asked
        partial = result["partial"]
        exits.error_line(f"interrupted: {partial['done']} of {partial['requested']} questions answered (shown above"
                         f"{f'; no overlay written to {save}' if save is not None else ''})")
        raise typer.Exit(code)
    if code != exits.OK:  # a failure to answer is not a fact about the endpoint: kept as evidence only, exit 1
        unclear = [f"{q['question']}: {q['result']}" for q in result["questions"]
                   if q["result"] in ("inconclusive", "did not arrive")]
        unasked = sum(1 for q in result["questions"] if q["evidence"] in UNANSWERED)
        count = len(unclear) + unasked
        if unasked:
            unclear.append(f"{unasked} more not sent: the endpoint answered nothing")
        if save is None:
            where = "see the evidence column"
        elif measured:
            where = f"{save} holds the measured answers; these are marked with their evidence, not stated as facts"
        else:
            where = f"nothing was measured: no overlay written to {save}"
        exits.error_line(f"{count} question(s) not measured ({'; '.join(unclear)}): {where}")
        raise typer.Exit(exits.FAILED)
