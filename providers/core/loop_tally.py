"""Many finished loops reduced as they end (`run --repeat`), so memory does not grow with their number.

``LoopTally`` keeps one provider's tallies: per step a verdict ``Tally``, how loops ended, steps to
finish, tokens and latency per loop, the tool_choice asked at each step, the error lines and
disobedience reasons, and what the exit code needs. ``summary()`` gives the same document
``loop.summary`` always gave (it is computed through this class). Tallies are order-free except the
ties of the most frequent lines, which are kept in loop order (index, step), not completion order.

``LoopSpool`` keeps each finished loop's JSON text in a temporary file, not in memory, and writes the
`run --format json` document from it in loop order, byte for byte what ``json.dumps(document,
indent=2, ensure_ascii=False)`` of the whole document writes (``json_text.dumps_indented``).
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from typing import IO, Any, Callable, Iterable, Iterator, Sequence

from .json_text import dumps_indented
from .redaction import visible_json
from .verdict import Tally, percentile, wilson

ENDINGS = ("no_tool_call", "stop_tool", "repeated_call", "max_steps", "error", "interrupted")


class _Ordered:
    """A counter whose ties keep the order of their first occurrence in loop order (loop index, step),
    whatever order the loops finished in: what ``Counter`` over the loops in index order gives."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.first: dict[str, tuple[int, int]] = {}

    def add(self, key: str, where: tuple[int, int]) -> None:
        self.counts[key] = self.counts.get(key, 0) + 1
        if key not in self.first or where < self.first[key]:
            self.first[key] = where

    def merge(self, other: "_Ordered") -> None:
        for key, count in other.counts.items():
            self.counts[key] = self.counts.get(key, 0) + count
            where = other.first[key]
            if key not in self.first or where < self.first[key]:
                self.first[key] = where

    def counter(self) -> Counter[str]:
        return Counter({key: self.counts[key] for key in sorted(self.counts, key=self.first.__getitem__)})


def _choice_key(choice: Any) -> str | None:
    """What tells one step's tool_choice from another in the tallies: the choice as the ledger quotes it
    (``ToolChoice.quoted``), a text whatever the choice holds (a provider-native form such as Responses'
    ``{type: mcp, server_label}`` is a dict, which cannot key a dict itself)."""
    return None if choice is None else choice.quoted()


class LoopTally:
    """One provider's loops, each added once it has ended (``add``)."""

    def __init__(self) -> None:
        self.loops = 0
        self.steps: dict[int, Tally] = {}
        # step -> the choice's key (``_choice_key``) -> (first (loop, step) asking it, the tool_choice)
        self.choices: dict[int, dict[str | None, tuple[tuple[int, int], Any]]] = {}
        self.ended: Counter[str] = Counter()
        self.finished: list[int] = []
        self.tokens_in: list[int] = []
        self.tokens_out: list[int] = []
        self.latencies: list[float] = []
        self.tool_results = [0, 0]  # results fed back, of them errors
        self.errors = _Ordered()
        self.reasons = _Ordered()
        self.categories: set[str] = set()  # of every verdict, and "error" for a loop that ended in an error
        self.refused = False
        self.findings: tuple[tuple[str, str, str], ...] = ()  # step 1's ledger warnings, of the first loop
        self._findings_of = -1

    def add(self, run: Any) -> None:
        """A finished (or interrupted) ``loop_records.LoopRun``: everything the tallies need is read now."""
        self.loops += 1
        self.ended[run.ended or "interrupted"] += 1
        if run.terminated:
            self.finished.append(len(run.steps))
        total, errors = run.tool_results()
        self.tool_results[0] += total
        self.tool_results[1] += errors
        tokens = run.tokens()
        if tokens[0] is not None:
            self.tokens_in.append(tokens[0])
        if tokens[1] is not None:
            self.tokens_out.append(tokens[1])
        latency = run.latency_ms()
        if latency is not None:
            self.latencies.append(latency)
        if run.error:
            self.errors.add(run.error, (run.index, 0))
        if run.steps and (self._findings_of < 0 or run.index < self._findings_of):
            self._findings_of = run.index
            self.findings = tuple(dict.fromkeys((e.severity, e.code, e.message) for e in run.steps[0].notes
                                                if e.severity != "info"))
        for s in run.steps:
            choice = s.scenario.tool_choice
            key = _choice_key(choice)
            seen = self.choices.setdefault(s.number, {})
            first = seen.get(key)
            if first is None or (run.index, s.number) < first[0]:
                seen[key] = ((run.index, s.number), choice)
            if s.skipped and s.skipped.startswith("refused"):
                self.refused = True
            if s.sample is not None:
                self.steps.setdefault(s.number, Tally()).add(s.sample.to_json(run.provider))
            v = s.verdict
            if v is not None:
                self.categories.add(v["category"])
                if v["category"] not in ("obeyed", "error") and v["reasons"]:
                    self.reasons.add(f"step {s.number}: {v['reasons'][0]}", (run.index, s.number))
        if run.ended == "error" and not (run.steps and (run.steps[-1].skipped or "").startswith("refused")):
            self.categories.add("error")  # a loop that ended in an error failed, whatever its earlier steps

    def merge(self, other: "LoopTally") -> None:
        """Add the loops another tally of the same provider saw (a shard of the run, ``loop_shards``): the
        same tallies as had this one seen every loop, order-free fields and ties in loop order alike."""
        self.loops += other.loops
        for number, tally in other.steps.items():
            self.steps.setdefault(number, Tally()).merge(tally)
        for number, seen in other.choices.items():
            mine = self.choices.setdefault(number, {})
            for key, (where, choice) in seen.items():
                if key not in mine or where < mine[key][0]:
                    mine[key] = (where, choice)
        self.ended.update(other.ended)
        self.finished += other.finished
        self.tokens_in += other.tokens_in
        self.tokens_out += other.tokens_out
        self.latencies += other.latencies
        self.tool_results = [a + b for a, b in zip(self.tool_results, other.tool_results)]
        self.errors.merge(other.errors)
        self.reasons.merge(other.reasons)
        self.categories |= other.categories
        self.refused = self.refused or other.refused
        if other._findings_of >= 0 and (self._findings_of < 0 or other._findings_of < self._findings_of):
            self._findings_of, self.findings = other._findings_of, other.findings

    def step_choices(self, number: int) -> list[Any]:
        """The tool_choice values step ``number`` asked for, in loop order."""
        seen = self.choices.get(number, {})
        return [choice for _, choice in sorted(seen.values(), key=lambda item: item[0])]

    def error_lines(self) -> Counter[str]:
        return self.errors.counter()

    def reason_lines(self) -> Counter[str]:
        return self.reasons.counter()

    def summary(self) -> dict[str, Any]:
        """Per step (obey rate with 95% Wilson interval, categories, latency, tokens) and per loop (how
        loops ended, how many ended by themselves with a Wilson interval, steps to finish p50/p95, tool
        results and their errors, tokens and latency)."""
        n = self.loops
        steps = []
        for number in sorted(self.steps):
            data = self.steps[number].summary()
            steps.append({"step": number, "reached": data["samples"], "obeyed": data["counts"]["obeyed"],
                          "obey_rate": data["rates"]["obeyed"],
                          **{k: data[k] for k in ("counts", "latency_ms", "tokens")}})
        ended = {}
        for reason in ENDINGS:
            count = self.ended.get(reason, 0)
            low, high = wilson(count, n)
            ended[reason] = {"count": count, "rate": count / n if n else 0.0, "low": low, "high": high}
        finished, tokens_in, tokens_out, latencies = self.finished, self.tokens_in, self.tokens_out, self.latencies
        low, high = wilson(len(finished), n)
        return {
            "loops": n,
            "steps": steps,
            "ended": ended,
            "terminated": {"count": len(finished), "loops": n, "rate": len(finished) / n if n else 0.0, "low": low,
                           "high": high},
            "steps_to_finish": {"p50": percentile(finished, 50), "p95": percentile(finished, 95), "n": len(finished)},
            "tool_results": {"total": self.tool_results[0], "errors": self.tool_results[1]},
            "tokens": {"input_total": sum(tokens_in), "output_total": sum(tokens_out),
                       "input_mean": sum(tokens_in) / len(tokens_in) if tokens_in else None,
                       "output_mean": sum(tokens_out) / len(tokens_out) if tokens_out else None},
            "latency_ms": {"p50": percentile(latencies, 50), "p95": percentile(latencies, 95), "n": len(latencies)},
        }


def tally_of(runs: Iterable[Any]) -> LoopTally:
    tally = LoopTally()
    for run in runs:
        tally.add(run)
    return tally


def summary(runs: Iterable[Any]) -> dict[str, Any]:
    """The planner story's table of ``loop_records.LoopRun`` records held whole (``LoopTally.summary``)."""
    return tally_of(runs).summary()


def run_document(scenario_path: str, runs: list[Any], providers: Sequence[str], repeat: int,
                 replayed: bool) -> dict[str, Any]:
    """The stable JSON document of loops held whole (``run --format json``; a reduced run's is written by
    ``LoopSpool.pieces``, both through ``run_document_pieces``): per provider its loops (every step's request, reply, ledger, verdict and
    results) and their summary."""
    out = []
    for provider in providers:
        mine = [r for r in runs if r.provider == provider]
        out.append({"provider": provider, "loops": [r.to_json() for r in mine], "summary": summary(mine)})
    return {"scenario": scenario_path, "replay": replayed, "repeat": repeat, "runs": out}


def run_document_pieces(head: dict[str, Any], providers: Sequence[str], runs: list[Any], reduced: Any,
                        shown: Callable[[Any], Any]) -> Iterator[bytes]:
    """The bytes `run --format json` prints, as UTF-8 pieces: loops held whole as one document (``shown``
    redacts it), a reduced run's (``reduced``: its ``LoopReduction``) a loop at a time from its spool."""
    if reduced is None:
        document = shown(run_document(head["scenario"], runs, providers, head["repeat"], head["replay"]))
        yield (visible_json(dumps_indented(document)) + "\n").encode("utf-8")
        return
    entries = [(p, [r.index for r in runs if r.provider == p], reduced.tallies[p].summary()) for p in providers]
    yield from reduced.spool.pieces(head, entries)


_ITEM_INDENT = " " * 8  # a loop's place in the document: {"runs": [{"loops": [ <here> ]}]} at indent=2


def new_spool_file() -> IO[bytes]:
    return tempfile.TemporaryFile("w+b")  # unlinked at once, mode 0600; UTF-8 text


class LoopSpool:
    """Each finished loop's JSON (``LoopRun.to_json``), laid out as the document lays it out, kept in a
    temporary file (UTF-8) by (provider, loop index) until ``write_document`` reads them back in order.
    What is spooled is already what is shown: redacted, and visible (``redaction.visible_json``) as every
    output is, so writing the document is copying bytes: the look at every character (~20 ms for the
    7.7 MB of `run --repeat 200`) is done as each loop ends, while others wait for replies, not after the
    last, and the bytes need no decoding and encoding again (another ~8 ms)."""

    def __init__(self, redact: Callable[[str], str] = str, shows: bool = False) -> None:
        """``redact``: applied to each loop's text before it is written (the files never hold a key); ``shows``: it
        makes the text visible too (``LineRedaction(visible=True)``), which the spool then does not again."""
        self.redact = redact
        self.shows = shows
        self.detach()

    def detach(self, file: IO[bytes] | None = None) -> None:
        """Spool into ``file`` (else a new temporary file), forgetting every loop spooled so far: a forked
        shard (``loop_shards``) must not write into its parent's file (one offset for both processes); the
        parent makes the file before forking and reads it back after (``adopt``)."""
        self.files: list[IO[bytes]] = [file or new_spool_file()]  # [0]: where ``add`` writes
        self.where: dict[tuple[str, int], tuple[int, int, int]] = {}  # (provider, index) -> (file, offset, bytes)

    def add(self, run: Any) -> None:
        text = dumps_indented(run.to_json())
        data = self._shown(_ITEM_INDENT + text.replace("\n", "\n" + _ITEM_INDENT)).encode("utf-8")
        file = self.files[0]
        file.seek(0, 2)
        self.where[(run.provider, run.index)] = (0, file.tell(), len(data))
        file.write(data)

    def _shown(self, text: str) -> str:
        shown = self.redact(text)
        return shown if self.shows else visible_json(shown)

    def flush(self) -> None:
        self.files[0].flush()

    def adopt(self, file: IO[bytes], where: dict[tuple[str, int], tuple[int, int, int]]) -> None:
        """The loops a shard spooled into ``file`` (``where``: its own ``where``), read from there."""
        number = len(self.files)
        self.files.append(file)
        for key, (_, offset, size) in where.items():
            self.where[key] = (number, offset, size)

    def _read(self, key: tuple[str, int]) -> bytes:
        number, offset, size = self.where[key]
        file = self.files[number]
        file.seek(offset)
        return file.read(size)

    def write_document(self, head: dict[str, Any], entries: list[tuple[str, list[int], dict[str, Any]]],
                       out: Callable[[bytes], None]) -> None:
        """``pieces`` written through ``out``."""
        for piece in self.pieces(head, entries):
            out(piece)

    def pieces(self, head: dict[str, Any], entries: list[tuple[str, list[int], dict[str, Any]]]) -> Iterator[bytes]:
        """``head`` (scenario, replay, repeat) and per provider its loop indices and summary, as UTF-8 pieces
        (each a whole loop or the text around the loops; one loop in memory at a time), each shown as every
        output is: the text around the loops is redacted and made visible here, each loop's text was when
        it was spooled."""
        marker = "\u0000loops\u0000"
        document = {**head, "runs": [{"provider": p, "loops": [marker] if indices else [], "summary": summary}
                                     for p, indices, summary in entries]}
        text = dumps_indented(document)
        quoted = _ITEM_INDENT + json.dumps(marker)
        parts = text.split(quoted)
        with_loops = [(p, indices) for p, indices, _ in entries if indices]
        assert len(parts) == len(with_loops) + 1
        for piece, (provider, indices) in zip(parts, with_loops):
            yield self._shown(piece).encode("utf-8")
            for n, index in enumerate(indices):
                if n:
                    yield b",\n"
                yield self._read((provider, index))
        yield (self._shown(parts[-1]) + "\n").encode("utf-8")

    def close(self) -> None:
        for file in self.files:
            file.close()


class LoopReduction:
    """``run --repeat``: each loop, once it has ended, reduced to its provider's ``LoopTally`` (and, for a
    JSON document, its JSON kept in a ``LoopSpool``), its steps and history then dropped unless
    ``keep_steps`` (a trace export reads them): memory does not grow with the number of loops."""

    def __init__(self, providers: Iterable[str], spool: bool, redact: Callable[[str], str],
                 keep_steps: bool = False, shows: bool = False) -> None:
        self.tallies = {p: LoopTally() for p in providers}
        self.spool = LoopSpool(redact, shows) if spool else None
        self.keep_steps = keep_steps
        self.done: set[tuple[str, int]] = set()

    def add(self, run: Any) -> None:
        if (run.provider, run.index) in self.done:
            return
        self.done.add((run.provider, run.index))
        self.tallies[run.provider].add(run)
        if self.spool is not None:
            self.spool.add(run)
        if not self.keep_steps:
            run.steps, run.history = [], []

    def detach(self, spool_file: IO[str] | None = None) -> None:
        """In a forked shard: fresh tallies, and the JSON spooled into ``spool_file`` (``loop_shards``)."""
        self.tallies = {p: LoopTally() for p in self.tallies}
        self.done = set()
        if self.spool is not None:
            self.spool.detach(spool_file)

    def export(self) -> tuple[dict[str, LoopTally], dict[tuple[str, int], tuple[int, int, int]] | None,
                              set[tuple[str, int]]]:
        """What a shard reduced: the tallies, where each loop's JSON is in its spool file, the loops done."""
        if self.spool is not None:
            self.spool.flush()
        return self.tallies, None if self.spool is None else self.spool.where, self.done

    def absorb(self, exported: tuple[dict[str, LoopTally], dict[tuple[str, int], tuple[int, int, int]] | None,
                                     set[tuple[str, int]]], spool_file: IO[str] | None) -> None:
        """A shard's ``export`` (and the file its JSON was spooled into), as if its loops had been added here."""
        tallies, where, done = exported
        for provider, tally in tallies.items():
            self.tallies[provider].merge(tally)
        if self.spool is not None and where is not None and spool_file is not None:
            self.spool.adopt(spool_file, where)
        self.done |= done

    def outcome_inputs(self) -> tuple[list[dict[str, str]], bool]:
        """(the verdict categories seen, as verdicts; whether a step was refused): what the exit code needs."""
        verdicts = [{"category": c} for t in self.tallies.values() for c in t.categories]
        return verdicts, any(t.refused for t in self.tallies.values())

    def close(self) -> None:
        if self.spool is not None:
            self.spool.close()

