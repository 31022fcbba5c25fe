"""Long pretty tables: the commands that draw a row per call, step or tool, against a baseline commit and the
same command's ``--format json`` (the same reading and judging, no layout: the floor of the pretty output).

Cases (inputs made here, in a temporary folder):

- ``parse``: an OpenAI reply with ``--calls`` tool calls (a calls table of 4 columns, 4 lines a row);
- ``run``: one loop of ``--steps`` forced steps replayed from saved replies (``run --replay``: no socket; the
  step table);
- ``render``: ``render -p all`` of a catalogue of ``--tools`` real tool schemas (bench/large_catalogue.py's),
  whose ledgers are tables.

First, each case is run at 60, 80 and 120 columns by this tree and by the baseline (``--baseline``, extracted
with ``git archive`` and imported from there), and the two outputs must be byte-identical (the bench stops if
not). Then the pretty run at 80 columns of both trees and this tree's JSON run are timed in interleaved rounds
(``--rounds``), medians and per-round ratios printed. A replayed step's latency (0-20 ms under load) is the
one figure that differs between two runs: its digits are masked, same width, before the outputs are compared,
and where a latency of more digits widened its column, the outputs are compared with runs of spaces and rules
made one.

    python bench/long_tables.py [--calls 3000] [--steps 300] [--tools 300] [--rounds 5] [--baseline 93e39ac]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from large_catalogue import catalogue
from loop_steps import baseline_tree
from measure import Command, child_env, entry_argv, interleaved, median, median_seconds

WIDTHS = (60, 80, 120)


def reply_with_calls(count: int) -> dict:
    """An OpenAI chat completion carrying ``count`` tool calls."""
    calls = [{"id": f"call_{i}", "type": "function",
              "function": {"name": "get_weather", "arguments": json.dumps({"city": f"City {i}", "unit": "celsius"})}}
             for i in range(count)]
    return {"id": "chatcmpl-bench", "object": "chat.completion", "created": 1, "model": "gpt-4o",
            "choices": [{"index": 0, "finish_reason": "tool_calls",
                         "message": {"role": "assistant", "content": None, "tool_calls": calls}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}}


LOOP = """tools:
  - name: search
    parameters: {type: object, properties: {q: {type: string}}, required: [q]}
tool_choice: required
messages:
  - {role: user, content: find it}
loop:
  max_steps: %d
  results: {search: "found {q}"}
"""


def replies(folder: Path, steps: int) -> None:
    """``step-NN.response.json`` for ``run --replay``: each step a call with its own arguments."""
    folder.mkdir()
    for step in range(1, steps + 1):
        body = reply_with_calls(1)
        body["choices"][0]["message"]["tool_calls"][0]["function"] = {
            "name": "search", "arguments": json.dumps({"q": f"query {step}"})}
        (folder / f"step-{step:02d}.response.json").write_text(json.dumps(body))


def masked(output: bytes) -> bytes:
    """The output with each latency's digits masked (same width: the layout is still compared)."""
    return re.sub(rb"\d+(?=(?: |\n|\xe2\x94\x82)*ms)", lambda m: b"#" * len(m.group()), output)  # "ms" may be folded


def loose(output: bytes) -> bytes:
    """``masked`` with every run of spaces, rules and latency digits made one space."""
    return re.sub(rb"(?:[ #]|\xe2\x94[\x80\x81])+", b" ", output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--tools", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", default="93e39ac")
    parser.add_argument("--cases", default="parse,run,render")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "baseline").mkdir()
        base = baseline_tree(args.baseline, folder / "baseline")
        (folder / "reply.json").write_text(json.dumps(reply_with_calls(args.calls)))
        (folder / "loop.yaml").write_text(LOOP % args.steps)
        (folder / "catalogue.json").write_text(json.dumps(catalogue(args.tools)))
        replies(folder / "replies", args.steps)
        cases = {"parse": ["parse", str(folder / "reply.json"), "-p", "openai"],
                 "run": ["run", str(folder / "loop.yaml"), "-p", "openai", "--replay", str(folder / "replies")],
                 "render": ["render", str(folder / "catalogue.json"), "-p", "all"]}
        for case in args.cases.split(","):
            argv = cases[case]
            for width in WIDTHS:
                outputs = []
                for path in (None, base):
                    env = child_env(COLUMNS=str(width), **({"PYTHONPATH": str(path)} if path else {}))
                    done = subprocess.run([*entry_argv(), *argv], capture_output=True, env=env, cwd=folder)
                    outputs.append(masked(done.stdout))
                same = outputs[0] == outputs[1]
                # a latency of another number of digits widens its column: the rest must still match
                close = not same and case == "run" and loose(outputs[0]) == loose(outputs[1])
                print(f"{case} at {width} columns: {len(outputs[0])} bytes, " + (
                    f"identical to {args.baseline}" if same else
                    f"identical to {args.baseline} but for the width of latencies" if close else
                    f"DIFFERS from {args.baseline}"))
                if not (same or close):
                    sys.exit(1)
            commands = [
                Command(f"{case} pretty, {args.baseline}", (*entry_argv(), *argv),
                        child_env(COLUMNS="80", PYTHONPATH=str(base))),
                Command(f"{case} pretty, this tree", (*entry_argv(), *argv), child_env(COLUMNS="80")),
                Command(f"{case} --format json, this tree", (*entry_argv(), *argv, "-f", "json"), child_env(COLUMNS="80")),
            ]
            runs = interleaved(commands, args.rounds)
            base_runs, mine, limit = (runs[c.name] for c in commands)
            print(f"| {case} (median of {args.rounds}) | s | × json |")
            print("|---|---|---|")
            for command in commands:
                seconds = median_seconds(runs[command.name])
                print(f"| {command.name} | {seconds:.3f} | {seconds / median_seconds(limit):.2f} |")
            print(f"per round, this tree ÷ {args.baseline}: median "
                  f"{median([m.seconds / b.seconds for m, b in zip(mine, base_runs)]):.3f}; "
                  f"this tree ÷ json: {median([m.seconds / j.seconds for m, j in zip(mine, limit)]):.3f}\n")


if __name__ == "__main__":
    main()
