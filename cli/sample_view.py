"""What a sent sample looks like drawn (its JSON documents are in ``core/records.py``): the pretty drawing (the request line, the calls, the verdict, the ledger, the stream facts, the rates).
`send` draws with these; `parse`, `compare --send`, `probe` and `run` share the pieces they need. Every
text written goes through the redaction of the run's secrets (``emit``, ``emit_pretty``)."""

from __future__ import annotations

import sys
from typing import Any

from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.model import Reply, Translation
from toolchoice.providers.core.outcome import rate_cells
from toolchoice.providers.core.runner import Sample

from .hanging import hanging, packed
from .output import dumps, json_view, write


def _console(secrets: dict[str, str] | None = None) -> Any:
    from .output import new_console, output_redactor

    return new_console(output_redactor(secrets=secrets))


def print_ledger(console: Any, ledger: list[Any]) -> None:
    from .ledger_view import ledger_table

    if not ledger:
        return
    table = ledger_table(ledger, console.width)
    table.title, table.title_justify = "ledger", "left"
    console.print(table)


def _calls_table(console: Any, rows: list[list[Any]], width: int | None = None) -> Any:
    """The calls table: a name shown whole (folded, never cut to an ellipsis), the arguments as indented JSON broken
    at the width their column gets (``call_lines.indented_lines``: after a key, at a string's spaces, a number and
    its unit together), not folded by rich at any character."""
    from rich.table import Table

    from .call_lines import cell_len, indented_lines
    from .table_draw import inner_widths

    table = Table(show_header=True, header_style="bold", expand=False, title="tool calls", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("name", overflow="fold")
    # the arguments before the name (folded whole either way): as wide as their widest line, up to half the line
    widest = max((cell_len(line) for row in rows if isinstance(row[2], str) for line in row[2].split("\n")), default=0)
    table.add_column("arguments", overflow="fold", width=width, min_width=min(widest, console.width // 2 - 4) or None)
    table.add_column("schema")
    for row in rows:
        table.add_row(*row)
    if width is not None:
        return table
    widths = inner_widths(table, console.width)
    if widths is None:
        return table
    broken = [indented_lines(row[2], widths[2]) if isinstance(row[2], str) else None for row in rows]
    if not any(broken):
        return table
    return _calls_table(console, [[*row[:2], "\n".join(lines) if lines else row[2], *row[3:]]
                                  for row, lines in zip(rows, broken)], widths[2])


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


def print_reply(console: Any, provider: str, reply: Reply, v: dict[str, Any] | None, verdict_line: bool = True) -> None:
    """The calls table, text, finish reason, tokens and the verdict with its reasons."""
    from rich.text import Text

    if reply.choices:  # n > 1: each choice drawn with its own verdict, then the whole reply's
        return _print_choices(console, provider, reply, v)
    if reply.error is not None:
        console.print(Text(reply.error.one_line(provider), style="red"))
    checks = (v or {}).get("calls") or []
    if reply.tool_calls:
        rows = []
        for i, call in enumerate(reply.tool_calls[:CALLS_SHOWN]):
            args = (shown_head(dumps(call.arguments)) if call.arguments is not None
                    else f"{shown_head(call.raw_arguments or '')}\n({call.arguments_error})")
            check = checks[i] if i < len(checks) else {}
            valid = check.get("valid")
            mark = {True: Text("✔", style="green"), False: Text("✘", style="red")}.get(valid, Text("–", style="dim"))
            if check.get("offered") is False:
                mark = Text("not offered", style="red")
            rows.append([str(i + 1), call.name, args, mark])
        console.print(_calls_table(console, rows))
        if len(reply.tool_calls) > CALLS_SHOWN:
            console.print(Text(f"… and {len(reply.tool_calls) - CALLS_SHOWN:,} more calls (-f json shows all)",
                               style="dim"))
    elif reply.error is None:
        console.print(Text("no tool calls", style="dim"))
    if reply.server_calls:  # what the provider ran itself: MCP calls, programs, tool searches
        console.print(hanging(console, Text("run by the provider  ", style="bold"),
                              "; ".join(server_call_text(c) for c in reply.server_calls)))
    if reply.text:
        # its lines under the text, not under the label at the line's start (as run's final answer)
        console.print(hanging(console, Text("text  ", style="bold"), shown_head(reply.text, REPLY_TEXT_SHOWN, "text")))
    facts = []
    if reply.finish_reason:
        facts.append(f"finish_reason {reply.finish_reason}")
    if reply.usage.input_tokens is not None or reply.usage.output_tokens is not None:
        facts.append(f"tokens in {reply.usage.input_tokens} / out {reply.usage.output_tokens}")
    if reply.stop_details:
        facts.append("stop_details " + ", ".join(f"{k} {w}" for k, w in reply.stop_details.items() if w is not None))
    if facts:
        console.print(Text("  ·  ".join(facts), style="dim"))
    if not verdict_line:
        return
    console.print(Text.assemble(("verdict  ", "bold"), verdict_text(v)))
    if v is not None and v["category"] != "error":  # an error's one reason is the line printed above
        for reason in v["reasons"][:CALLS_SHOWN]:  # a reason a call at most, and a few of the reply's
            console.print(hanging(console, "  - ", reason))
        if len(v["reasons"]) > CALLS_SHOWN:
            console.print(Text(f"  … and {len(v['reasons']) - CALLS_SHOWN:,} more reasons (-f json shows all)",
                               style="dim"))


def _print_choices(console: Any, provider: str, reply: Reply, v: dict[str, Any] | None) -> None:
    """A reply of several choices (core/choices.py): under each choice's heading its calls, text, finish reason and
    verdict with its reasons; then the tokens (the whole reply's) and the reply's verdict with the count."""
    from rich.text import Text

    if reply.error is not None:
        console.print(Text(reply.error.one_line(provider), style="red"))
    judged = (v or {}).get("choices") or []
    for index, choice in enumerate(reply.choices):
        console.print(Text(f"choice {index}", style="bold underline"))
        one = judged[index] if index < len(judged) else None
        print_reply(console, provider, choice, one, verdict_line=one is not None)  # no scenario: no verdict each
    if reply.usage.input_tokens is not None or reply.usage.output_tokens is not None:
        console.print(Text(f"tokens in {reply.usage.input_tokens} / out {reply.usage.output_tokens}", style="dim"))
    console.print(Text.assemble(("verdict  ", "bold"), verdict_text(v)))
    if v is not None and v["category"] != "error" and v["reasons"]:
        console.print(hanging(console, "  - ", v["reasons"][0]))


# The most of one call's arguments the calls table shows (~1,200 lines at 80 columns): past it, a terminal's
# scrollback holds no more, and a table of a 27 MB argument was 44 MB of text (JSON output keeps it all).
ARGUMENTS_SHOWN = 64 * 1024
# The calls the calls table draws, and the verdict's reasons (one a call at most, and a few): a reply of 30,000 calls
# took ~15 s to draw (send, parse), past a terminal's scrollback; a line says how many more (--format json: all)
CALLS_SHOWN = 200
REPLY_TEXT_SHOWN = 600  # characters of a reply's text in the pretty view; past them a note says what is left out


def shown_head(text: str, most: int = ARGUMENTS_SHOWN, what: str = "arguments") -> str:
    """``text``, or its first ``most`` characters and a line saying how much is left out and where the ``what`` is
    shown whole."""
    if len(text) <= most:
        return text
    return (f"{text[:most]}\n… {len(text) - most:,} more characters of {len(text):,} left out here: --format json "
            f"shows the {what} whole")


def server_call_text(call: Any) -> str:
    """One ServerCall as the reply view shows it: ``mcp_call dmcp/web_search_exa``, ``tool_search
    tool_search_tool_regex loaded get_temp_data``, ``program call_O2…``."""
    if call.kind == "tool_search":
        what = f"failed ({call.error})" if call.error else "loaded " + (", ".join(call.loaded) or "no tool")
        return f"tool_search {call.name or ''} {what}".replace("  ", " ")
    target = f"{call.server}/{call.name}" if call.server is not None else (call.name or call.id or "")
    return f"{call.kind} {target}" + (f" failed: {call.error}" if call.error else "")


def print_raw(console: Any, sample_raw_json: Any, raw_text: str) -> None:
    from rich.text import Text

    console.print(Text("raw response", style="bold"))
    if sample_raw_json is not None:
        console.print(json_view(console, sample_raw_json), soft_wrap=True)
    else:
        console.print(Text(raw_text or "(no body)"))


def print_sample(console: Any, provider: str, translation: Translation, sample: Sample, raw: bool) -> None:
    from rich.text import Text

    title = CAPABILITIES[provider].title if provider in CAPABILITIES else provider
    console.rule(Text.assemble((provider, "bold"), f" · {title}"))
    request = translation.request
    assert request is not None
    parts = [Text.assemble((f"{request.method} ", "bold"), request.url)]
    if sample.status is not None:
        parts.append(Text(f"→  {sample.status}", style="green" if 200 <= sample.status < 300 else "red"))
    if sample.latency_ms is not None:
        parts.append(Text(f"{sample.latency_ms:.0f} ms", style="dim"))
    console.print(packed(parts, "  ", console.width))  # at 60 columns: never "200  134" over "ms"
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

    facts = [f"stream  {stream['events']} events", f"first byte {ms(t['first_byte_ms'])}",
             f"first tool delta {ms(t['first_tool_delta_ms'])}", f"last event {ms(t['last_event_ms'])}",
             f"argument deltas {', '.join(map(str, stream['argument_deltas'])) or '–'}"]
    console.print(packed([Text(fact, style="dim") for fact in facts], " · ", console.width))
    for finding in stream["findings"]:  # a long message's further lines under its text, not at the margin
        console.print(hanging(console, f"  {finding['code']}: ", finding["message"], style="yellow"))


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
        table.add_row(Text(category, style=style), str(count), *rate_cells(rate))
    console.print(table)
    lat = data["latency_ms"]
    if lat["p50"] is not None:
        console.print(f"latency  p50 {lat['p50']:.0f} ms  ·  p95 {lat['p95']:.0f} ms")
    tokens = data["tokens"]
    if tokens["input_mean"] is not None or tokens["output_mean"] is not None:
        console.print(f"tokens   in {tokens['input_total']} (mean {_num(tokens['input_mean'])})  ·  "
                      f"out {tokens['output_total']} (mean {_num(tokens['output_mean'])})")
    for line, count in collected.errors.most_common(5):
        console.print(hanging(console, f"{count}× ", line, style="red"))
    for line, count in collected.reasons.most_common(5):
        console.print(hanging(console, f"{count}× ", line, style="yellow"))
    for result in collected.cut:  # Ctrl-C mid-stream: kept, not tallied
        console.print(hanging(console, "cut  ", cut_line(result), style="yellow"))
    if collected.unenforced:
        console.print(Text("the provider could not enforce this tool_choice: judged against the request's intent",
                           style="yellow"))
    print_ledger(console, translation.ledger)
    if raw:
        for index, raw_json, raw_text in sorted(collected.raws, key=lambda item: item[0]):
            console.print(Text(f"sample {index}", style="bold"))
            print_raw(console, raw_json, raw_text)


def cut_line(result: dict[str, Any]) -> str:
    """One sample Ctrl-C cut mid-stream (its result): what had arrived, said as not counted among the finished."""
    events = (result.get("stream") or {}).get("events", 0)
    # a call whose name had not arrived (a delta of arguments alone) is a call begun all the same
    calls = ", ".join(c.get("name") or "(name not arrived)" for c in (result["reply"] or {}).get("tool_calls") or [])
    calls = calls or "none"
    return (f"sample {result['sample']}: Ctrl-C after {events} event{'s' if events != 1 else ''} of its stream "
            f"(stream.interrupted); calls begun: {calls}; not counted above")


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"


def emit(text: str, secrets: dict[str, str]) -> None:
    """Write to stdout with every resolved key value replaced by its placeholder."""
    from toolchoice.providers.core.transport import redact

    write(redact(text, secrets))


def emit_pretty(draw: Any, secrets: dict[str, str]) -> None:
    console = _console(secrets)
    with console.capture() as captured:
        draw(console)
    from toolchoice.providers.core.transport import redact

    sys.stdout.write(redact(captured.get(), secrets))


# ---- the command ---------------------------------------------------------------------------
