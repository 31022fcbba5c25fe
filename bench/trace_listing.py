"""`toolchoice trace FILE` listing the runs of an OTLP/JSON trace of many runs (one LLM span each, OpenInference):
CPU time (``time.process_time``) of its parts, in this process, medians of ``--rounds`` rounds, interleaved:

- the reading (``trace_scenario.import_trace`` and ``describe`` of each run): the baseline;
- the listing written by PyYAML's emitter (``yaml_text({"runs": runs})``, as before 2026-11-27);
- the listing written by ``yaml_list`` (libyaml's emitter for the runs it writes as PyYAML's does; the same bytes,
  tests/test_trace_listing.py), checked equal here too;
- both redacted as the command redacts its output.

Each line is given as a ratio to the reading, measured in the same run.

    python bench/trace_listing.py [--runs 10000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from measure import median


def trace(runs: int) -> dict[str, Any]:
    """An OTLP/JSON export of ``runs`` agent runs, one LLM span each, each its own trace and opening."""
    def attr(key: str, value: str) -> dict[str, Any]:
        return {"key": key, "value": {"stringValue": value}}

    spans = [{"traceId": f"{i + 1:032x}", "spanId": f"{i + 1:016x}", "name": "ChatCompletion",
              "startTimeUnixNano": str(1_700_000_000_000_000_000 + i), "endTimeUnixNano": str(1_700_000_000_000_000_001 + i),
              "attributes": [attr("openinference.span.kind", "LLM"), attr("llm.provider", "openai"),
                             attr("llm.model_name", "gpt-4o-mini"),
                             attr("llm.input_messages.0.message.role", "user"),
                             attr("llm.input_messages.0.message.content", f"What is the weather in Oslo? (run {i})"),
                             attr("llm.output_messages.0.message.role", "assistant"),
                             attr("llm.output_messages.0.message.content", "Cold.")]}
             for i in range(runs)]
    return {"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {"name": "bench"}, "spans": spans}]}]}


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    value = fn()
    return time.process_time() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from toolchoice.cli.output import output_redactor, yaml_list, yaml_text
    from toolchoice.providers.core import trace_scenario

    redact = output_redactor().text
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trace.json"
        path.write_text(json.dumps(trace(args.runs)), encoding="utf-8")
        times: dict[str, list[float]] = {"reading": [], "PyYAML emitter": [], "yaml_list": []}
        for _ in range(args.rounds):
            took, found = cpu(lambda: [trace_scenario.describe(r) for r in trace_scenario.import_trace(path, None)])
            times["reading"].append(took)
            assert len(found) == args.runs, len(found)
            took, before = cpu(lambda: redact(yaml_text({"runs": found})))
            times["PyYAML emitter"].append(took)
            took, after = cpu(lambda: redact(yaml_list("runs", found)))
            times["yaml_list"].append(took)
            assert before == after
    base = median(times["reading"])
    print(f"trace FILE listing {args.runs} runs, CPU s (median of {args.rounds}), ratio to the reading")
    for name, values in times.items():
        print(f"  {name:16} {median(values):7.3f} s  {median(values) / base:5.2f}x")
    old, new = base + median(times["PyYAML emitter"]), base + median(times["yaml_list"])
    print(f"  {'whole, before':16} {old:7.3f} s  {old / base:5.2f}x")
    print(f"  {'whole, after':16} {new:7.3f} s  {new / base:5.2f}x  ({old / new:.2f}x sooner)")


if __name__ == "__main__":
    main()
