"""In-process translation throughput over the corpus, and the same cases through LiteLLM.

toolchoice's side runs here; LiteLLM's runs in bench/litellm_worker.py under an interpreter that has
litellm (this one, --litellm-python, or $BENCH_LITELLM_PYTHON). Rounds alternate between the two
so machine drift hits both; each side's clock covers translation only (inputs prepared before).

Warm-up: while one side works the other waits, and work that starts after a wait runs slow for its
first ~100 ms (on the 2-core VM of the README figures, toolchoice's ~25 ms pass took 1.5-1.8× as
long for the first three passes after LiteLLM's round as afterwards). Timing the first pass would
penalize whichever side's pass is shorter, so before its timed pass each side repeats its untimed
pass for at least ``WARM_UP_S`` (toolchoice ~8 passes, LiteLLM ~1): both are timed at speed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from corpus import PROVIDER_SETTINGS, cases
from litellm_worker import choice_label, lacks
from measure import BENCH, RESULTS, child_env, median
from toolchoice.providers import RenderOptions, Scenario, load_scenario_text
from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.registry import translate


WARM_UP_S = 0.2  # seconds of untimed work before each timed pass, on both sides


@dataclass
class Rounds:
    """Seconds per round, per provider, for one side."""

    calls_per_provider: int
    per_provider: dict[str, list[float]] = field(default_factory=dict)

    def add(self, seconds: dict[str, float]) -> None:
        for provider, value in seconds.items():
            self.per_provider.setdefault(provider, []).append(value)

    def rate(self, providers: list[str]) -> float:
        """Requests per second over ``providers``: median over rounds of (calls / summed seconds)."""
        rounds = len(next(iter(self.per_provider.values()), []))
        rates = [self.calls_per_provider * len(providers) / sum(self.per_provider[p][i] for p in providers)
                 for i in range(rounds)]
        return median(rates)

    def micros(self, provider: str) -> float:
        return median(self.per_provider[provider]) / self.calls_per_provider * 1e6


def scenarios() -> list[Scenario]:
    return [load_scenario_text(json.dumps(c.scenario_doc(), ensure_ascii=False), c.source) for c in cases()]


def toolchoice_round(loaded: list[Scenario], options: RenderOptions) -> dict[str, float]:
    """Seconds per provider for one timed pass over the corpus, after ``WARM_UP_S`` of untimed passes."""
    warm_until = time.perf_counter() + WARM_UP_S
    while time.perf_counter() < warm_until:
        for provider in PROVIDER_IDS:
            for scenario in loaded:
                translate(provider, scenario, options)
    seconds = {}
    for provider in PROVIDER_IDS:
        start = time.perf_counter()
        for scenario in loaded:
            translate(provider, scenario, options)
        seconds[provider] = time.perf_counter() - start
    return seconds


def toolchoice_missing(loaded: list[Scenario], options: RenderOptions) -> dict[str, dict[str, Any]]:
    """Per provider, the cases whose request lacks tools or tool_choice (as the worker reports LiteLLM's)."""
    requests = [c.openai_request() for c in cases()]
    missing: dict[str, dict[str, Any]] = {}
    for provider in PROVIDER_IDS:
        for scenario, request in zip(loaded, requests):
            translation = translate(provider, scenario, options)
            absent = lacks(translation.request.body) if translation.request else ["tools", "tool_choice"]
            if absent:
                entry = missing.setdefault(provider, {"count": 0, "lacks": {}})
                entry["count"] += 1
                for name in absent:
                    by_choice = entry["lacks"].setdefault(name, {})
                    by_choice[choice_label(request)] = by_choice.get(choice_label(request), 0) + 1
    return missing


class LiteLLM:
    """The worker process: started once, one line in per round, one JSON line out."""

    def __init__(self, python: str) -> None:
        corpus_file = RESULTS / "litellm-corpus.json"
        corpus_file.write_text(json.dumps({
            "models": {p: s["model"] for p, s in PROVIDER_SETTINGS.items()},
            "requests": [c.openai_request() for c in cases()],
        }, ensure_ascii=False), encoding="utf-8")
        self.log = open(RESULTS / "litellm-worker.log", "w", encoding="utf-8")
        self.proc = subprocess.Popen([python, str(BENCH / "litellm_worker.py"), str(corpus_file), str(WARM_UP_S)],
                                     text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, env=child_env())
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        self.ready: dict[str, Any] = json.loads(line) if line else {"ready": False, "error": "worker died"}

    def round(self) -> dict[str, Any]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write("round\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        try:
            if self.proc.stdin:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.close()
        except BrokenPipeError:  # the worker already left (no litellm)
            pass
        self.proc.wait(timeout=30)
        self.log.close()


def litellm_python(given: str | None) -> str:
    return given or os.environ.get("BENCH_LITELLM_PYTHON") or sys.executable


def measure_throughput(rounds: int, python: str) -> dict[str, Any]:
    loaded = scenarios()
    options = RenderOptions()
    toolchoice_round(loaded, options)  # warm-up: imports every translator
    refused = sum(translate(p, s, options).refused for p in PROVIDER_IDS for s in loaded)
    ours_missing = toolchoice_missing(loaded, options)
    ours = Rounds(len(loaded))
    worker = LiteLLM(python)
    theirs: Rounds | None = None
    errors = 0
    if worker.ready.get("ready"):
        theirs = Rounds(len(loaded))
        worker.round()  # warm-up
    try:
        for _ in range(rounds):
            ours.add(toolchoice_round(loaded, options))
            if theirs is not None:
                answer = worker.round()
                theirs.add(answer["per_provider"])
                errors = answer["errors"]
    finally:
        worker.close()

    result: dict[str, Any] = {
        "cases": len(loaded), "providers": len(PROVIDER_IDS), "requests_per_round": len(loaded) * len(PROVIDER_IDS),
        "refused_per_round": refused,
        "toolchoice_rps": ours.rate(list(PROVIDER_IDS)),
        "toolchoice_us_per_request": {p: round(ours.micros(p), 1) for p in PROVIDER_IDS},
    }
    if theirs is None:
        result["litellm"] = {"skipped": "litellm not installed: skipped",
                             "detail": worker.ready.get("error", ""), "python": python}
        return result
    shared = [p for p in PROVIDER_IDS if p in theirs.per_provider]
    theirs_missing = worker.ready.get("missing", {})
    # (b): like for like. A provider where either side left tools or tool_choice out of any case (or
    # LiteLLM raised) did less work there than a full translation, which flatters that side.
    full = [p for p in shared if p not in theirs_missing and p not in ours_missing
            and p not in worker.ready["failing"]]
    result["litellm"] = {
        "version": worker.ready["version"], "python": python, "providers": shared,
        "skipped_providers": worker.ready["skipped"], "failing": worker.ready["failing"],
        "errors_per_round": errors,
        "toolchoice_rps_shared": ours.rate(shared), "litellm_rps": theirs.rate(shared),
        "litellm_us_per_request": {p: round(theirs.micros(p), 1) for p in shared},
        "ratio_per_provider": {p: round(theirs.micros(p) / ours.micros(p), 2) for p in shared},
    }
    result["litellm"]["ratio"] = result["litellm"]["toolchoice_rps_shared"] / result["litellm"]["litellm_rps"]
    result["litellm"].update({
        "missing_litellm": theirs_missing, "missing_toolchoice": ours_missing,
        "full_providers": full, "excluded_providers": [p for p in shared if p not in full],
        "toolchoice_rps_full": ours.rate(full) if full else None,
        "litellm_rps_full": theirs.rate(full) if full else None,
    })
    if full:
        result["litellm"]["ratio_full"] = result["litellm"]["toolchoice_rps_full"] / result["litellm"]["litellm_rps_full"]
    return result


if __name__ == "__main__":  # a quick look: python bench/throughput.py
    RESULTS.mkdir(parents=True, exist_ok=True)
    print(json.dumps(measure_throughput(3, litellm_python(None)), indent=2))
