"""Reading a large `.json` scenario: composed once with JSON's grammar (``json_nodes.compose``) against the old
two parses (the standard library's decoder for "is it JSON, how deep", then libyaml's composer for the nodes),
which is what ``yaml_input.composed`` still does when ``compose`` answers None, so both run in this process on the
same text, interleaved over ``--rounds`` rounds (medians of CPU time, ``time.process_time``).

- whole read: ``load_scenario_text(text, "catalogue.json")`` (composing, the reader's walk, the tools' checks);
- composing alone: the nodes only (``json_nodes.compose`` against ``strict_json`` + ``_compose_fast``).

    python bench/json_read.py [--tools 3000] [--rounds 5]
"""

from __future__ import annotations

import argparse
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
    from toolchoice.providers.core import json_nodes, yaml_input

    text = json.dumps(catalogue(args.tools), ensure_ascii=False, indent=2)
    compose = json_nodes.compose

    def once() -> None:
        load_scenario_text(text, "catalogue.json")

    def twice() -> None:
        json_nodes.compose = lambda text, depth: None  # yaml_input.composed then reads it as before
        try:
            load_scenario_text(text, "catalogue.json")
        finally:
            json_nodes.compose = compose

    def nodes_once() -> None:
        assert compose(text, yaml_input.MAX_DEPTH) is not None

    def nodes_twice() -> None:
        shallow = yaml_input.strict_json(text, "catalogue.json")
        loader, _ = yaml_input._compose_fast(text, shallow=shallow)
        loader.dispose()

    print(f"catalogue: {args.tools} tools, {len(text.encode()) / 1e6:.1f} MB of JSON; CPU seconds, median of {args.rounds}")
    for label, new, old in (("whole read", once, twice), ("composing alone", nodes_once, nodes_twice)):
        new(), old()  # warm
        times: dict[str, list[float]] = {"once": [], "twice": []}
        for _ in range(args.rounds):
            times["once"].append(cpu(new))
            times["twice"].append(cpu(old))
        a, b = median(times["once"]), median(times["twice"])
        print(f"{label}: parsed once {a:.3f} s, twice (before) {b:.3f} s: {b / a:.2f}x")


if __name__ == "__main__":
    main()
