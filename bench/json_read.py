"""Reading a large `.json` scenario, and what its two parses cost: the standard library's decoder (``strict_json``:
is it JSON, how deep) and libyaml's composer (the nodes with their lines, which the section readers need). CPU
time (``time.process_time``), medians of ``--rounds`` rounds, interleaved, in this process on the same text:

- the whole read (``load_scenario_text(text, "catalogue.json")``);
- its parts: ``strict_json`` (the parse a one-pass reader would save) and libyaml's composing, with the collector
  running (as in a read) and paused (what of it is the collector's).

A one-pass reader (JSON's grammar composing the nodes libyaml composes, held to them node by node) was written and
measured on 2026-11-27 (branch trial13c, commit 45e94ab): as fast as libyaml's composer once the collector is left
out of both, so it saved only ``strict_json``'s share, ~4% of the read; it was not kept.

    python bench/json_read.py [--tools 3000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from typing import Any, Callable

from corpus import tool_sets
from measure import median


def catalogue(count: int) -> dict[str, Any]:
    """``count`` real tools (numbered copies once every schema is used), as bench/large_catalogue.py builds it."""
    real = [tool for _, tools in tool_sets() for tool in tools]
    tools = [{**real[i % len(real)], "name": f"{real[i % len(real)]['name']}_{i}"[:64]} for i in range(count)]
    return {"tools": tools, "tool_choice": "required", "messages": [{"role": "user", "content": "Do the task."}]}


def cpu(fn: Callable[[], Any]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from toolchoice.providers import load_scenario_text
    from toolchoice.providers.core import yaml_input

    text = json.dumps(catalogue(args.tools), ensure_ascii=False, indent=2)
    name = "catalogue.json"

    def collector_paused(fn: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            gc.disable()
            try:
                return fn()
            finally:
                gc.enable()
        return run

    def compose() -> None:
        loader, _ = yaml_input._compose_fast(text, shallow=True)
        loader.dispose()

    def read() -> None:
        load_scenario_text(text, name)

    cases = {"whole read": read,
             "strict_json (the JSON decoder's parse)": lambda: yaml_input.strict_json(text, name),
             "libyaml composing": compose,
             "libyaml composing, collector paused": collector_paused(compose)}
    times: dict[str, list[float]] = {label: [] for label in cases}
    for fn in cases.values():
        fn()  # warm
    for _ in range(args.rounds):
        for label, fn in cases.items():
            times[label].append(cpu(fn))
    whole = median(times["whole read"])
    print(f"catalogue: {args.tools} tools, {len(text.encode()) / 1e6:.1f} MB of JSON; CPU, median of {args.rounds}")
    for label, values in times.items():
        print(f"{label:40} {median(values):6.3f} s  {median(values) / whole:5.2f} of the read")


if __name__ == "__main__":
    main()
