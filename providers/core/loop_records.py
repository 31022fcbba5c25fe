"""The agent loop's records: ``StepRecord`` (one step: its translation, sample, results and notes),
``LoopRun`` (one loop on one provider: its steps, how it ended, the history it built) and
``message_json`` (a history message as a scenario file writes it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .model import HistoryCall, LedgerEntry, Message, Reply, Scenario, Translation
from .records import sent_json
from .runner import Sample


@dataclass
class StepRecord:
    """One step of one loop: the request as translated, the sample (reply + verdict), the results
    appended after it, and the loop's own ledger entries (generated ids, phantom calls...)."""

    number: int
    scenario: Scenario
    translation: Translation
    sample: Sample | None = None
    skipped: str | None = None  # refused translation or missing key: nothing was sent
    results: list[Message] = field(default_factory=list)
    notes: list[LedgerEntry] = field(default_factory=list)

    @property
    def verdict(self) -> dict[str, Any] | None:
        return self.sample.verdict if self.sample is not None else None

    @property
    def reply(self) -> Reply | None:
        return self.sample.reply if self.sample is not None else None

    def to_json(self) -> dict[str, Any]:
        t, s = self.translation, self.sample
        choice = self.scenario.tool_choice
        streamed = {"stream": s.stream} if s is not None and s.stream is not None else {}  # as send's sample shows it
        return {
            "step": self.number,
            "requested_tool_choice": choice.to_json() if choice is not None else None,
            "effective_tool_choice": t.effective_tool_choice,
            "offered_tools": list(t.offered_tools),
            **sent_json(t),  # what the step's verdict judges where providers.<id>.extra changed it, as render's
            "request": t.request.to_json() if t.request is not None else None,
            "ledger": [e.to_json() for e in (*t.ledger, *self.notes)],
            "status": s.status if s else None,
            "attempts": s.attempts if s else [],
            "latency_ms": None if s is None or s.latency_ms is None else round(s.latency_ms, 1),
            "reply": s.reply.to_json() if s else None,
            "verdict": s.verdict if s else None,
            "error": (s.error_line(t.provider) if s else self.skipped),
            "results": [_result_json(m) for m in self.results],
            **streamed,
        }


@dataclass
class LoopRun:
    """One loop on one provider: its steps so far, how it ended and the history it built."""

    provider: str
    index: int
    steps: list[StepRecord] = field(default_factory=list)
    history: list[Message] = field(default_factory=list)
    ended: str | None = None  # one of ENDINGS; None while running
    ended_step: int | None = None
    final: Any = None  # the final answer: the text, or the stop tool's arguments
    error: str | None = None

    @property
    def verdicts(self) -> list[dict[str, Any]]:
        return [s.verdict for s in self.steps if s.verdict is not None]

    def tokens(self) -> tuple[int | None, int | None]:
        ins = [s.reply.usage.input_tokens for s in self.steps if s.reply and s.reply.usage.input_tokens is not None]
        outs = [s.reply.usage.output_tokens for s in self.steps if s.reply and s.reply.usage.output_tokens is not None]
        return (sum(ins) if ins else None, sum(outs) if outs else None)

    def latency_ms(self) -> float | None:
        values = [s.sample.latency_ms for s in self.steps if s.sample and s.sample.latency_ms is not None]
        return sum(values) if values else None

    def tool_results(self) -> tuple[int, int]:
        """(tool results given, of which errors): a loop answering every call with an error is loud."""
        given = [m for s in self.steps for m in s.results]
        return len(given), sum(1 for m in given if m.is_error)

    def first_error(self) -> tuple[int, Message] | None:
        """The first error result the model read, with its step (the errors line quotes it)."""
        return next(((s.number, m) for s in self.steps for m in s.results if m.is_error), None)

    @property
    def terminated(self) -> bool:
        """The loop ended by itself (an answer without a call, or the stop tool), not by a limit or a failure."""
        return self.ended in ("no_tool_call", "stop_tool")

    def to_json(self) -> dict[str, Any]:
        tokens = self.tokens()
        latency = self.latency_ms()
        given, errors = self.tool_results()
        return {
            "provider": self.provider,
            "loop": self.index,
            "ended": {"reason": self.ended or "interrupted", "step": self.ended_step, "error": self.error},
            "terminated": self.terminated,
            "tool_results": {"total": given, "errors": errors},
            "final_answer": self.final,
            "steps_taken": len(self.steps),
            "tokens": {"input": tokens[0], "output": tokens[1]},
            "latency_ms": None if latency is None else round(latency, 1),
            "steps": [s.to_json() for s in self.steps],
            "history": [message_json(m) for m in self.history],
        }


def redact_run(run: LoopRun, redactor: Any) -> None:
    """``run``'s records with every secret (a ``redaction.Redactor``) replaced by its placeholder, in place: what
    ``jobs.run`` hands a Python caller once the loops ended, as ``run -f json`` and ``--save`` show them (a tool
    result, and so the history and the next steps' requests, may quote a key a tool printed). A sample's raw body
    stays as it arrived, as ``send``'s does."""
    if not redactor:
        return
    # one look first: the history holds every message the steps sent and got (the user's, the turns, the results)
    # and step 1's request what the scenario adds (its tools, settings, URL); without a key in them, none is in
    # any step (looking at each step's records cost ~0.3 ms a step)
    first = run.steps[0].translation if run.steps else None
    looked = (run.history, run.final, run.error, first)
    if redactor.data(looked) is looked:  # the same object back: no key anywhere in it
        return
    for step in run.steps:
        step.scenario, step.translation = redactor.data(step.scenario), redactor.data(step.translation)
        step.results, step.notes = redactor.data(step.results), redactor.data(step.notes)
        if step.sample is not None:
            step.sample.reply, step.sample.verdict = redactor.data(step.sample.reply), redactor.data(step.sample.verdict)
    run.history, run.final = redactor.data(run.history), redactor.data(run.final)
    run.error = redactor.text(run.error) if run.error else run.error


def _result_json(m: Message) -> dict[str, Any]:
    return {"tool_call_id": m.tool_call_id, "name": m.tool_name, "content": m.content, "is_error": m.is_error}


def _call_json(call: HistoryCall) -> dict[str, Any]:
    data: dict[str, Any] = {"id": call.id, "name": call.name, "arguments": call.arguments}
    if call.signature is not None:  # Gemini's thoughtSignature on the functionCall part
        data["signature"] = call.signature
    return data


def message_json(m: Message) -> dict[str, Any]:
    """A history message as a scenario file writes it (the loader reads it back unchanged)."""
    if m.role == "user":
        return {"role": "user", "content": m.content}
    if m.role == "assistant":
        data: dict[str, Any] = {"role": "assistant"}
        if m.content is not None:
            data["content"] = m.content
        if m.tool_calls:
            data["tool_calls"] = [_call_json(c) for c in m.tool_calls]
        if m.reasoning:  # thinking blocks, signatures, reasoning items: sent back where the API wants them
            data["reasoning"] = [item.to_json() for item in m.reasoning]
        return data
    data = {"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content}
    if m.is_error:
        data["is_error"] = True
    return data


def redact_runs(runs: list[LoopRun], secrets: dict[str, str]) -> None:
    """The loops' records as the caller gets them (``jobs.run``): every key replaced, once they ended."""
    from .redaction import Redactor

    redactor = Redactor(secrets)
    for r in runs:
        redact_run(r, redactor)
