"""The records `compare` is drawn from, as data (the command line draws them: cli/compare_view.py,
cli/compare_send.py; a Python caller reads them).

One row of cells per provider (``row_cells``: the endpoint, the tool_choice on the wire, the tools sent, parallel,
strict and the ledger's headline), the cells that differ between providers (``wire_diff``, ``differing``), and
``compare --send``'s JSON document (``send_document``: each provider's request, ledger, first reply and verdict,
the tallies of many samples, the argument and wire diffs)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .model import LedgerEntry, Scenario, Translation, word_or_json


def choice_text(value: Any) -> str:
    """A tool_choice for people: a bare word as is, an object as compact JSON, "(not sent)" for None."""
    if value is None:
        return "(not sent)"
    if value in _MARKERS:  # extra's tool_choice: "REFUSED" is sent, as its JSON: no row reads as refused that was not
        import json

        return json.dumps(value)
    return word_or_json(value)


_MARKERS = ("REFUSED", "(not sent)")  # what the cell says where nothing (no choice) is sent


COLUMNS = ("provider", "endpoint", "tool_choice on the wire", "tools", "parallel", "strict", "ledger")
COMPARED = ("tool_choice on the wire", "tools", "parallel", "strict")  # cells highlighted when they differ
_NOISE = {"model.default", "tool_choice.spelling", "tool_choice.mapped", "parallel.mapped", "strict.mapped",
          "endpoint.base_url", "dialect.call"}


def headline(ledger: list[LedgerEntry]) -> LedgerEntry | None:
    """The entry worth showing in one cell: the first error, else warning, else telling info."""
    for severity in ("error", "warning", "info"):
        for entry in ledger:
            if entry.severity == severity and (severity != "info" or entry.code not in _NOISE):
                return entry
    return None


def _feature_cell(t: Translation, prefix: str, wanted: bool) -> str:
    codes = {e.code: e for e in t.ledger if e.code.startswith(prefix)}
    if not wanted:
        return "–"
    if f"{prefix}.mapped" in codes or f"{prefix}.validated" in codes:  # Gemini's strict: mode VALIDATED
        return "sent"
    if f"{prefix}.unsupported" in codes:
        return "dropped"
    if f"{prefix}.dropped" in codes or f"{prefix}.not_validated" in codes:  # Gemini: a forced call is not validated
        return "not sent"
    return "–"


def _parallel_cell(t: Translation, wanted: bool) -> str:
    """The parallel cell; where ``providers.<id>.extra`` changes the field that holds the setting, what is sent as
    the verdict judges it (``parallel.from_extra``: ``extra false``, ``extra true``, ``extra default`` for a field
    left out) or ``extra ?`` where it cannot be read back (``parallel.extra_unread``)."""
    if t.sent_parallel is not None:
        flag = t.sent_parallel.parallel
        return "extra " + ("default" if flag is None else "true" if flag else "false")
    if any(e.code == "parallel.extra_unread" for e in t.ledger):
        return "extra ?"
    return _feature_cell(t, "parallel", wanted)


def row_cells(t: Translation, declared: int, parallel_set: bool, strict_set: bool) -> dict[str, str]:
    counts = Counter(e.severity for e in t.ledger)
    top = headline(t.ledger)
    if t.request is None:
        endpoint, wire = "—", "REFUSED"
    else:
        from urllib.parse import urlsplit

        parts = urlsplit(t.request.url)
        endpoint = parts.netloc
        wire = choice_text(t.effective_tool_choice)
    offered = len(t.offered_tools)
    tools = f"{offered} sent" if offered == declared else f"{offered} of {declared} sent"
    if t.request is None:  # refused: nothing is sent
        tools = "–"
    summary = " ".join(f"{counts[s]}{s[0].upper()}" for s in ("error", "warning", "info") if counts[s])
    return {
        "provider": t.provider,
        "endpoint": endpoint,
        "tool_choice on the wire": wire,
        "tools": tools,
        "parallel": _parallel_cell(t, parallel_set) if t.request is not None else "–",
        "strict": "invalid schema" if any(e.code == "schema.strict_invalid" for e in t.ledger)
        else _feature_cell(t, "strict", strict_set),
        "ledger": f"{summary} {top.code}" if top else summary,
        "_severity": top.severity if top else "info",
        "_headline": top.message if top else "",
        "_counts": summary,
    }


def differing_values(rows: list[dict[str, str]], column: str) -> bool:
    return len({r[column] for r in rows}) > 1


def dry_rows(scenario: Scenario, translations: list[Translation]) -> list[dict[str, str]]:
    strict_set = bool(scenario.strict) or any(t.strict for t in scenario.tools)
    return [row_cells(t, len(scenario.tools), scenario.parallel_tool_calls is not None, strict_set)
            for t in translations]


def wire_diff(rows: list[dict[str, str]]) -> list[dict[str, object]]:
    """The compared cells that differ between providers: [{field, values: {provider: cell}}]."""
    return [{"field": column, "values": {r["provider"]: r[column] for r in rows}}
            for column in COMPARED if differing_values(rows, column)]


def differing(rows: list[dict[str, str]]) -> set[tuple[int, str]]:
    """Cells (row index, column) that differ from the value most providers share: marked only in a column
    where one value holds more than half the rows, so the marked cells are always the few. (Marking against
    a mere plurality starred the many: a 4-4 split starred one half by the providers' order, and 2 of 8
    alike starred the other 6.) Refused rows (nothing sent: REFUSED in red, their other cells "–") are left out
    of the count and never marked: one provider that sends beside two that refuse is no odd one out (trial18e:
    Gemini's `{"mode":"ANY"}*` and `2 sent*` beside Anthropic's and Bedrock's refusals)."""
    marks: set[tuple[int, str]] = set()
    sent = [(i, r) for i, r in enumerate(rows) if r.get("tool_choice on the wire") != "REFUSED"]
    for column in COMPARED:
        values = Counter(r[column] for _, r in sent)
        if len(values) < 2:
            continue
        common, count = values.most_common(1)[0]
        if count * 2 <= len(sent):
            continue
        marks.update((i, column) for i, r in sent if r[column] != common)
    return marks


# ---- compare --send -----------------------------------------------------------------------------------------


def summary(job: Any) -> dict[str, Any] | None:
    """The tallies of a provider's samples (``verdict.aggregate``), None when it has none."""
    from .verdict import aggregate

    if not job.samples:
        return None
    return aggregate([s.to_json(job.provider) for s in job.samples])


def summary_json(job: Any) -> dict[str, Any] | None:
    from .records import renamed_latency

    tallied = summary(job)
    return renamed_latency(tallied) if tallied is not None else None


def send_diff(jobs: list[Any]) -> dict[str, Any]:
    """How the providers' first replies differ (``argdiff.argument_diff``) and the wire cells that differ."""
    from .argdiff import argument_diff

    rows = dry_rows(jobs[0].scenario, [j.translation for j in jobs]) if jobs else []
    return {**argument_diff({j.provider: j.first.reply for j in jobs if j.first is not None}), "wire": wire_diff(rows)}


def send_document(scenario_path: str, jobs: list[Any], repeat: int, wall_ms: float) -> dict[str, Any]:
    """--send's document (``runner.Job`` each). Every provider entry has the same keys whatever ``repeat`` is:
    latency_ms is the first sample's (a number or null), the tallies are in summary (null for one sample);
    sent_choice / sent_parallel as render's (``records.choices_json``)."""
    from .records import choices_json

    providers = []
    for job in jobs:
        t = job.translation
        entry: dict[str, Any] = {"provider": job.provider, **choices_json(t),
                                 "request": t.request.to_json() if t.request else None,
                                 "ledger": [e.to_json() for e in t.ledger],
                                 "reply": None, "verdict": None, "error": job.skipped, "latency_ms": None,
                                 "status": None, "attempts": [], "summary": None, "results": []}
        if not job.skipped and job.first is not None:
            s = job.first
            entry.update({"reply": s.reply.to_json(), "verdict": s.verdict,
                          "error": s.error_line(job.provider), "latency_ms": s.to_json(job.provider)["latency_ms"],
                          "status": s.status, "attempts": s.attempts,
                          "summary": summary_json(job) if repeat > 1 else None,
                          "results": [x.to_json(job.provider) for x in job.samples] if repeat > 1 else []})
        if job.cuts:  # Ctrl-C cut these streams short: what had arrived of each, never in the summary
            entry["cut"] = [x.to_json(job.provider) for x in job.cuts]
        providers.append(entry)
    return {"scenario": scenario_path, "sent": True, "providers": providers, "diff": send_diff(jobs),
            "wall_ms": round(wall_ms, 1)}
