"""`send --format markdown`: what `send` draws (sample_view.py) as Markdown to paste into an issue or a CI summary,
as `compare` and `run` write theirs: the request line, the tool calls, the text, the verdict with its reasons and the
ledger of one sample; with --repeat the rates table, latency and tokens, the most frequent reasons and the ledger.

Every text from outside (a call's name and arguments, the reply's text, a URL, a ledger message quoting them) goes
through ``markdown_text``: it reads as written once rendered, never as markup or HTML, never ends its table cell, and
a line break in it never starts a block (each is ``<br>``, and every paragraph starts with toolchoice's own label).
"""

from __future__ import annotations

import json
from typing import Any

from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.outcome import rate_cells

from . import markdown_text as md


def _document(lines: list[str]) -> str:
    """The lines as one text ending in a blank line, so the next scenario's heading or the summary never continues
    the table before it."""
    while lines and lines[-1] == "":
        lines = lines[:-1]
    return "\n".join(lines) + "\n\n"


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    """A table whose cells are already escaped (``md.cell`` / ``md.code``)."""
    return [_row(headers), _row(["---"] * len(headers)), *(_row(r) for r in rows), ""]


def _heading(provider: str, what: str = "") -> list[str]:
    title = CAPABILITIES[provider].title if provider in CAPABILITIES else provider
    return [f"### {md.cell(provider)} · {md.cell(title)}{what}", ""]


def _ledger(ledger: list[Any]) -> list[str]:
    if not ledger:
        return []
    return ["**ledger**", "", *_table(["severity", "code", "what changed / what to know"],
                                      [[e.severity, md.cell(e.code), md.cell(e.message)] for e in ledger])]


def _verdict(v: dict[str, Any] | None) -> str:
    if v is None:
        return "no verdict (give --scenario to judge the reply)"
    word = "✔ obeyed" if v["obeyed"] else "✘ error" if v["category"] == "error" else f"✘ disobeyed: {v['category']}"
    return md.cell(word) + ("" if v.get("enforced", True) else " (not enforced by the provider)")


def _reply(reply: Any, v: dict[str, Any] | None, provider: str, verdict_line: bool = True) -> list[str]:
    """The calls, the text, finish reason and tokens, and the verdict with its reasons (``print_reply``'s)."""
    from .sample_view import server_call_text, shown_head

    out: list[str] = []
    if reply.choices:  # n > 1: each choice with its own verdict, then the reply's
        judged = (v or {}).get("choices") or []
        for index, choice in enumerate(reply.choices):
            one = judged[index] if index < len(judged) else None
            out += [f"**choice {index}**", "", *_reply(choice, one, provider, verdict_line=one is not None)]
        out += [_tokens(reply), ""] if _tokens(reply) else []
        out += [f"**verdict** {_verdict(v)}", ""]
        reasons = v["reasons"][:1] if v is not None and v["category"] != "error" else []
        return out + [f"- {md.line(reason)}" for reason in reasons] + ([""] if reasons else [])
    if reply.error is not None:
        out += [f"**error** {md.cell(reply.error.one_line(provider))}", ""]
    checks = (v or {}).get("calls") or []
    if reply.tool_calls:
        rows = []
        for i, call in enumerate(reply.tool_calls):
            args = (shown_head(json.dumps(call.arguments, ensure_ascii=False)) if call.arguments is not None
                    else shown_head(call.raw_arguments or ""))
            check = checks[i] if i < len(checks) else {}
            mark = "not offered" if check.get("offered") is False else {True: "✔", False: "✘"}.get(check.get("valid"), "–")
            cell = md.code(args) if args else ""
            if call.arguments is None:  # the arguments as they came, and why they do not read
                cell += " " + md.cell(f"({call.arguments_error})")
            rows.append([str(i + 1), md.cell(call.name), cell, mark])
        out += ["**tool calls**", "", *_table(["#", "name", "arguments", "schema"], rows)]
    elif reply.error is None:
        out += ["no tool calls", ""]
    if reply.server_calls:
        out += ["**run by the provider** " + md.cell("; ".join(server_call_text(c) for c in reply.server_calls)), ""]
    if reply.text:
        from .sample_view import REPLY_TEXT_SHOWN

        out += ["**text** " + md.cell(shown_head(reply.text, REPLY_TEXT_SHOWN, "text")), ""]
    facts = [f"finish_reason {reply.finish_reason}"] if reply.finish_reason else []
    facts += [_tokens(reply)] if _tokens(reply) else []
    if reply.stop_details:
        facts.append("stop_details " + ", ".join(f"{k} {w}" for k, w in reply.stop_details.items() if w is not None))
    out += [md.cell(" · ".join(facts)), ""] if facts else []
    if not verdict_line:
        return out
    out += [f"**verdict** {_verdict(v)}", ""]
    reasons = v["reasons"] if v is not None and v["category"] != "error" else []
    return out + [f"- {md.line(reason)}" for reason in reasons] + ([""] if reasons else [])


def _tokens(reply: Any) -> str:
    usage = reply.usage
    if usage.input_tokens is None and usage.output_tokens is None:
        return ""
    return f"tokens in {usage.input_tokens} / out {usage.output_tokens}"


def _raw(raw_json: Any, raw_text: str, label: str = "raw response") -> list[str]:
    """The body in a fenced block longer than any run of backticks it holds: nothing in it is read as markup."""
    text = json.dumps(raw_json, indent=2, ensure_ascii=False) if raw_json is not None else (raw_text or "(no body)")
    return [f"**{label}**", "", *md.fenced(text), ""]


def sample(provider: str, translation: Any, sample: Any, raw: bool) -> str:
    """One sent sample (``sample_view.print_sample``)."""
    request = translation.request
    line = f"{request.method} {request.url}"
    if sample.status is not None:
        line += f" → {sample.status}"
    if sample.latency_ms is not None:
        line += f" · {sample.latency_ms:.0f} ms"
    out = [*_heading(provider), f"**request** {md.cell(line)}", ""]
    if len(sample.attempts) > 1:
        tries = ", ".join(f"{a['status'] or a['error'].split(':')[0]} (waited {a['wait_s']}s, {a['wait_source']})"
                          for a in sample.attempts[:-1])
        out += [f"**retried** {md.cell(tries)}", ""]
    if sample.stream is not None:
        out += _stream(sample.stream)
    out += _reply(sample.reply, sample.verdict, provider)
    out += _ledger(translation.ledger)
    if raw:
        out += _raw(sample.raw_json, sample.raw_text)
    return _document(out)


def _stream(stream: dict[str, Any]) -> list[str]:
    t = stream["timings"]

    def ms(value: float | None) -> str:
        return "–" if value is None else f"{value:.0f} ms"

    facts = (f"stream {stream['events']} events · first byte {ms(t['first_byte_ms'])} · first tool delta "
             f"{ms(t['first_tool_delta_ms'])} · last event {ms(t['last_event_ms'])} · argument deltas "
             f"{', '.join(map(str, stream['argument_deltas'])) or '–'}")
    return [md.cell(facts), "", *(f"- {md.line(f['code'] + ': ' + f['message'])}" for f in stream["findings"]),
            *([""] if stream["findings"] else [])]


def repeat(provider: str, translation: Any, collected: Any, raw: bool) -> str:
    """Many samples (``sample_view.print_repeat``): the rates with their Wilson intervals, latency, tokens, the
    most frequent errors and reasons, what Ctrl-C cut, and the ledger."""
    from .sample_view import cut_line

    data = collected.tally.summary()
    out = _heading(provider, f" · {data['samples']} samples")
    rows = [[md.cell(category), str(count), *rate_cells(data["rates"][category])]
            for category, count in data["counts"].items() if count or category == "obeyed"]
    out += _table(["category", "count", "%", "95% CI (Wilson)"], rows)
    lat, tokens = data["latency_ms"], data["tokens"]
    if lat["p50"] is not None:
        out += [f"latency p50 {lat['p50']:.0f} ms · p95 {lat['p95']:.0f} ms", ""]
    if tokens["input_mean"] is not None or tokens["output_mean"] is not None:
        out += [f"tokens in {tokens['input_total']} (mean {_num(tokens['input_mean'])}) · out "
                f"{tokens['output_total']} (mean {_num(tokens['output_mean'])})", ""]
    said = [f"- {count}× {md.cell(line)}" for counter in (collected.errors, collected.reasons)
            for line, count in counter.most_common(5)]
    said += [f"- cut {md.cell(cut_line(result))}" for result in collected.cut]
    out += [*said, ""] if said else []
    if collected.unenforced:
        out += ["the provider could not enforce this tool_choice: judged against the request's intent", ""]
    out += _ledger(translation.ledger)
    if raw:
        for index, raw_json, raw_text in sorted(collected.raws, key=lambda item: item[0]):
            out += _raw(raw_json, raw_text, f"sample {index}")
    return _document(out)


def refused(provider: str, translation: Any) -> str:
    """A request refused before sending: its ledger says why."""
    return _document([*_heading(provider, " · refused, nothing sent"), *_ledger(translation.ledger)])


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"


def summary(codes: list[tuple[Any, int]]) -> str:
    """Several scenarios sent: each one's exit code and what it means (``exits.summary_text``'s), as a table."""
    from .exits import EXIT_CODES, OK
    from .output import shown_path

    meaning = {**dict(EXIT_CODES), OK: "sent and obeyed (warnings allowed)"}
    rows = [[str(code), md.cell(shown_path(path)), md.cell(meaning.get(code, f"exit {code}"))] for path, code in codes]
    return _document([f"**{len(codes)} scenarios**", "", *_table(["exit", "scenario", "meaning"], rows)])
