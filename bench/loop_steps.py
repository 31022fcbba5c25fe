"""toolchoice's own time per `run` step at 0 ms latency (issue 26: the loop's new keys and findings add
no measurable cost per step; goal ≤ 2 ms of toolchoice's own time per step).

Three sides, rounds alternating so machine drift hits all of them, each in a child process:

- **limit**: the same number of requests through the same ``httpx.AsyncClient`` over an
  ``httpx.MockTransport`` answering instantly, the reply body read as JSON: what any loop pays for HTTP.
- **baseline**: ``loop.run_loops`` of a commit given with ``--baseline REV`` (default: the commit before
  issue 26's work), extracted with ``git archive`` and imported from there, on the loop without new keys.
- **current**: this tree, on the same loop, and on the loop with every new key (narrow: allowed,
  after_call: auto, stop.repeated_calls) and tools without results (so the findings and error counts run).

Each loop offers three tools and forces a call on every step for 20 steps (every reply calls ``search``
with new arguments, so nothing repeats); 25 loops one after another: 500 steps per round.

    python bench/loop_steps.py [--rounds 7] [--baseline 7b764f5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STEPS, LOOPS = 20, 25

PLAIN = """
tools:
  - {name: search, parameters: {type: object, properties: {q: {type: integer}}}}
  - {name: read_file, parameters: {type: object, properties: {path: {type: string}}}}
  - {name: final_answer, parameters: {type: object, properties: {answer: {type: string}}}}
tool_choice: auto
messages: [{role: user, content: go}]
loop:
  max_steps: %d
  steps:
    - {tool_choice: required, tools: [search]}
    - {tool_choice: required, tools: [search, read_file]}
  results: {search: found, read_file: text}
""" % STEPS

NEW_KEYS = PLAIN.replace("  results: {search: found, read_file: text}\n",
                         "  narrow: allowed\n  after_call: auto\n  stop: {repeated_calls: 5}\n")

CHILD = r"""
import asyncio, json, sys, time
import httpx
mode, text, steps, loops = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

def body(n):
    return {"id": "x", "object": "chat.completion", "model": "m", "choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": None, "tool_calls": [{"id": "c%d" % n, "type": "function",
            "function": {"name": "search", "arguments": json.dumps({"q": n})}}]}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5}}

count = {"n": 0}
def answer(request):
    count["n"] += 1
    return httpx.Response(200, json=body(count["n"]))

if mode == "limit":
    async def bare():
        async with httpx.AsyncClient(transport=httpx.MockTransport(answer)) as client:
            for _ in range(steps * loops):
                r = await client.post("http://127.0.0.1/v1/chat/completions", json={"model": "m"})
                r.json()
    asyncio.run(bare())  # warm
    start = time.perf_counter()
    asyncio.run(bare())
    print(time.perf_counter() - start)
else:
    from toolchoice.providers.core import loop, runner
    from toolchoice.providers.core.model import RenderOptions
    from toolchoice.providers.core.scenario import load_scenario_text
    scenario = load_scenario_text(text, "bench.yaml")
    def once():
        runs = loop.new_runs(["openai"], loops)
        settings = runner.SendSettings(retries=0, concurrency=1, transport=httpx.MockTransport(answer))
        loop.run_loops(scenario, runs, settings, loop.LoopOptions(RenderOptions()), {}, None)
        assert sum(len(r.steps) for r in runs) == steps * loops, [r.ended for r in runs]
    once()  # warm: imports, caches
    start = time.perf_counter()
    once()
    print(time.perf_counter() - start)
"""


def baseline_tree(rev: str, into: Path) -> Path:
    """``git archive REV`` laid out as the installed package (toolchoice.cli = cli/, ...)."""
    src = into / "src"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    pkg = into / "path" / "toolchoice"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "cli").symlink_to(src / "cli")
    (pkg / "providers").symlink_to(src / "providers")
    return into / "path"


def child(mode: str, text: str, path: Path | None) -> float:
    env = dict(os.environ, OPENAI_API_KEY="sk-bench")
    if path is not None:
        env["PYTHONPATH"] = str(path)
    out = subprocess.run([sys.executable, "-c", CHILD, mode, text, str(STEPS), str(LOOPS)], env=env, check=True,
                         capture_output=True, text=True, cwd=tempfile.gettempdir())
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--baseline", default="7b764f5")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = baseline_tree(args.baseline, Path(folder))
        sides = {"limit (bare httpx, MockTransport)": ("limit", PLAIN, None),
                 f"baseline {args.baseline}, loop without new keys": ("run", PLAIN, base),
                 "current, loop without new keys": ("run", PLAIN, None),
                 "current, narrow+after_call+repeated_calls, no results": ("run", NEW_KEYS, None)}
        times: dict[str, list[float]] = {name: [] for name in sides}
        for _ in range(args.rounds):
            for name, (mode, text, path) in sides.items():
                times[name].append(child(mode, text, path))
    n = STEPS * LOOPS
    limit = statistics.median(times["limit (bare httpx, MockTransport)"]) / n * 1000
    base_ms = statistics.median(times[f"baseline {args.baseline}, loop without new keys"]) / n * 1000
    print(f"{n} steps per round, {args.rounds} rounds, medians; own time = per step minus the limit's")
    print(f"| side | ms per step | own ms per step | × baseline |")
    print("| --- | --- | --- | --- |")
    for name, values in times.items():
        ms = statistics.median(values) / n * 1000
        print(f"| {name} | {ms:.3f} | {ms - limit:.3f} | {ms / base_ms:.3f} |")
    base_times = times[f"baseline {args.baseline}, loop without new keys"]
    for name, values in times.items():  # rounds alternate: a round's ratio cancels the machine's drift
        ratios = sorted(v / b for v, b in zip(values, base_times))
        print(f"{name}: per-round ratio to the baseline, median {statistics.median(ratios):.3f} "
              f"(range {ratios[0]:.3f}-{ratios[-1]:.3f})")
    print(json.dumps({name: [round(v, 4) for v in values] for name, values in times.items()}))


if __name__ == "__main__":
    main()
