"""A sent sample's JSON documents (one sample, a repeated run, a refusal): what `send --format json`
prints and what `jobs.SendResult.document` returns, before redaction."""

from __future__ import annotations

from typing import Any

from .model import Translation
from .runner import Sample


def choices_json(translation: Translation) -> dict[str, Any]:
    """What was asked and what went on the wire: in every document that names a request (send's, compare --send's),
    with what the verdict judges where ``providers.<id>.extra`` changed it (``sent_json``)."""
    return {"requested_tool_choice": translation.requested_tool_choice,
            "effective_tool_choice": translation.effective_tool_choice, **sent_json(translation)}


def sent_json(translation: Translation) -> dict[str, Any]:
    """``"sent_choice"`` and ``"sent_parallel"`` as ``Translation.to_json`` spells them (render's and a dry compare's
    documents): null where the scenario's holds, else what extra makes the verdict judge (``SentChoice.to_json``,
    ``SentParallel.to_json``). Send, compare --send and run's steps carry them beside the translation's other fields."""
    sent, parallel = translation.sent_choice, translation.sent_parallel
    return {"sent_choice": None if sent is None else sent.to_json(),
            "sent_parallel": None if parallel is None else parallel.to_json()}


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
