"""A large tool catalogue: reading it, and `render` of it for every provider, against what the work needs.

An agent that mounts several MCP servers offers hundreds of tools. The catalogue here is every real tool
schema of tests/data/schemas (BFCL's and github-mcp-server's, corpus.tool_sets) repeated under numbered
names up to ``--tools`` tools, written as YAML and as JSON. Measured, interleaved over ``--rounds`` rounds
(medians):

- reading it (``load_scenario_text``, in process) against PyYAML's own C loader reading the same text
  (``yaml.load`` with CSafeLoader: composing and constructing, none of the checks) and, for the JSON text,
  ``json.loads``: the physical floor of reading it at all;
- ``render -p all`` as pretty tables (stdout a file: no colours), as pretty tables on a colour terminal
  (FORCE_COLOR) and as ``--format json``, each against the import floor (``import typer, yaml, json``)
  plus the JSON render: the same translations, laid out as text instead of serialised.

    python bench/large_catalogue.py [--tools 300] [--rounds 5]

Past 128 tools OpenAI chat and Groq refuse the request (the rows' ``tool_limit``, since 2026-11-26): ``render``
then prints their refusal, not a body, so runs with more than 128 tools before and after that date differ there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

import yaml

from corpus import tool_sets
from measure import RESULTS, Command, child_env, entry_argv, interleaved, median, median_seconds


def catalogue(count: int) -> dict[str, Any]:
    """``count`` real tools (numbered copies once every schema is used), tool_choice required."""
    real = [tool for _, tools in tool_sets() for tool in tools]
    tools = [{**real[i % len(real)], "name": f"{real[i % len(real)]['name']}_{i}"[:64]} for i in range(count)]
    return {"tools": tools, "tool_choice": "required", "messages": [{"role": "user", "content": "Do the task."}]}


def best_of(fn: Callable[[], Any], rounds: int) -> float:
    """Median seconds of ``rounds`` calls (after one untimed call)."""
    fn()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from toolchoice.providers import load_scenario_text

    RESULTS.mkdir(exist_ok=True)
    doc = catalogue(args.tools)
    texts = {"yaml": yaml.safe_dump(doc, sort_keys=False, allow_unicode=True),
             "json": json.dumps(doc, ensure_ascii=False)}
    print(f"catalogue: {args.tools} tools; YAML {len(texts['yaml']) / 1e3:.0f} kB, JSON {len(texts['json']) / 1e3:.0f} kB")
    for kind, text in texts.items():
        ours = best_of(lambda: load_scenario_text(text, f"catalogue.{kind}"), args.rounds)
        c_loader = best_of(lambda: yaml.load(text, Loader=yaml.CSafeLoader), args.rounds)
        line = f"read {kind}: {ours * 1e3:.0f} ms; libyaml alone {c_loader * 1e3:.0f} ms ({ours / c_loader:.2f}x)"
        if kind == "json":
            floor = best_of(lambda: json.loads(text), args.rounds)
            line += f"; json.loads {floor * 1e3:.1f} ms ({ours / floor:.0f}x)"
        print(line)

    path = RESULTS / "catalogue.yaml"
    path.write_text(texts["yaml"], encoding="utf-8")
    render = (*entry_argv(), "render", str(path), "-p", "all")
    colour = {k: v for k, v in child_env(FORCE_COLOR="1", TERM="xterm-256color").items() if k != "NO_COLOR"}
    commands = [Command("floor", (sys.executable, "-c", "import typer, yaml, json"), child_env()),
                Command("json", (*render, "-f", "json"), child_env()),
                Command("pretty", render, child_env()),
                Command("pretty, colour terminal", render, colour)]
    runs = interleaved(commands, args.rounds)
    failed = {name: [r.returncode for r in rs] for name, rs in runs.items() if any(r.returncode for r in rs)}
    if failed:
        sys.exit(f"a command failed: {failed}")
    seconds = {name: median_seconds(rs) for name, rs in runs.items()}
    for name in ("json", "pretty", "pretty, colour terminal"):
        print(f"render -p all, {name}: {seconds[name]:.2f} s = {seconds[name] / seconds['json']:.2f}x the JSON "
              f"render, {seconds[name] / seconds['floor']:.1f}x the import floor ({seconds['floor']:.2f} s)")


if __name__ == "__main__":
    main()
