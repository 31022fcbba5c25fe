"""The tallies of many loops (``run --repeat``): per step and per loop, with Wilson intervals."""

from __future__ import annotations

from typing import Any

ENDINGS = ("no_tool_call", "stop_tool", "repeated_call", "max_steps", "error", "interrupted")


def summary(runs: list[Any]) -> dict[str, Any]:
    """``runs``: ``loop.LoopRun`` records (not imported: loop imports this module). Per step (obey rate with 95% Wilson interval, categories, latency, tokens) and per loop (how
    loops ended, how many ended by themselves with a Wilson interval, steps to finish p50/p95, tool results
    and their errors, tokens and latency): the planner story's table."""
    from .verdict import aggregate, percentile, wilson

    n = len(runs)
    depth = max((len(r.steps) for r in runs), default=0)
    steps = []
    for number in range(1, depth + 1):
        results = [r.steps[number - 1].sample.to_json(r.provider) for r in runs
                   if len(r.steps) >= number and r.steps[number - 1].sample is not None]
        if not results:
            continue
        data = aggregate(results)
        steps.append({"step": number, "reached": len(results), "obeyed": data["counts"]["obeyed"],
                      "obey_rate": data["rates"]["obeyed"], **{k: data[k] for k in ("counts", "latency_ms", "tokens")}})
    ended = {}
    for reason in ENDINGS:
        count = sum(1 for r in runs if (r.ended or "interrupted") == reason)
        low, high = wilson(count, n)
        ended[reason] = {"count": count, "rate": count / n if n else 0.0, "low": low, "high": high}
    finished = [len(r.steps) for r in runs if r.terminated]
    low, high = wilson(len(finished), n)
    results = [r.tool_results() for r in runs]
    tokens_in = [t for t in (r.tokens()[0] for r in runs) if t is not None]
    tokens_out = [t for t in (r.tokens()[1] for r in runs) if t is not None]
    latencies = [v for v in (r.latency_ms() for r in runs) if v is not None]
    return {
        "loops": n,
        "steps": steps,
        "ended": ended,
        "terminated": {"count": len(finished), "loops": n, "rate": len(finished) / n if n else 0.0, "low": low,
                       "high": high},
        "steps_to_finish": {"p50": percentile(finished, 50), "p95": percentile(finished, 95), "n": len(finished)},
        "tool_results": {"total": sum(t for t, _ in results), "errors": sum(e for _, e in results)},
        "tokens": {"input_total": sum(tokens_in), "output_total": sum(tokens_out),
                   "input_mean": sum(tokens_in) / len(tokens_in) if tokens_in else None,
                   "output_mean": sum(tokens_out) / len(tokens_out) if tokens_out else None},
        "latency_ms": {"p50": percentile(latencies, 50), "p95": percentile(latencies, 95), "n": len(latencies)},
    }
