"""One huge cell: the pretty view of a reply with one tool call whose arguments are ``--mb`` MB (27 by default, well
within the input bounds), against the same command's ``--format json`` (the same reading, no layout: the floor)
and against a baseline commit at smaller sizes (rich's word wrap there is quadratic: 10 minutes at 27 MB).

Two kinds of argument: one unbroken string (``x``), and words (``word word ...``), each as the value of one key.
First, replies of ordinary size (a 2 kB and a 20 kB argument) are drawn at 60, 80 and 120 columns by this tree and
by the baseline, and must be byte-identical (the bench stops if not). Then, per size, the pretty run and the
JSON run of this tree and the pretty run of the baseline (sizes up to ``--baseline-mb``) are timed in interleaved
rounds; medians and the ratio to JSON printed. The pretty output's size is printed too: it must not grow with
the argument's.

    python bench/huge_cell.py [--mb 27] [--baseline-mb 1.6] [--rounds 3] [--baseline main]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from loop_steps import baseline_tree
from measure import Command, child_env, entry_argv, interleaved, median_seconds

WIDTHS = (60, 80, 120)


def reply(arguments: str) -> dict:
    """An OpenAI chat completion carrying one tool call with these arguments."""
    call = {"id": "call_1", "type": "function", "function": {"name": "save_file", "arguments": arguments}}
    return {"id": "chatcmpl-bench", "object": "chat.completion", "created": 1, "model": "gpt-4o",
            "choices": [{"index": 0, "finish_reason": "tool_calls",
                         "message": {"role": "assistant", "content": None, "tool_calls": [call]}}]}


def arguments(kind: str, size: int) -> str:
    value = "x" * size if kind == "x" else ("word " * (size // 5 + 1))[:size]
    return json.dumps({"content": value, "path": "notes/today.txt"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=27.0)
    parser.add_argument("--baseline-mb", type=float, default=1.6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default="main")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "baseline").mkdir()
        base = baseline_tree(args.baseline, folder / "baseline")
        for kind in ("x", "words"):
            for size in (2_000, 20_000):
                path = folder / f"{kind}-{size}.json"
                path.write_text(json.dumps(reply(arguments(kind, size))))
                for width in WIDTHS:
                    outputs = [subprocess.run([*entry_argv(), "parse", str(path), "-p", "openai"], capture_output=True,
                                              env=child_env(COLUMNS=str(width), **({"PYTHONPATH": str(tree)} if tree
                                                                                    else {}))).stdout
                               for tree in (None, base)]
                    same = outputs[0] == outputs[1]
                    print(f"{kind} {size:,} characters at {width} columns: {len(outputs[0])} bytes, "
                          + (f"identical to {args.baseline}" if same else f"DIFFERS from {args.baseline}"))
                    if not same:
                        sys.exit(1)
        print(f"\n| argument | pretty s | json s | pretty × json | {args.baseline} pretty s | pretty output bytes |")
        print("|---|---|---|---|---|---|")
        for kind in ("x", "words"):
            for mb in sorted({args.baseline_mb, args.mb}):
                path = folder / f"{kind}-{mb}.json"
                path.write_text(json.dumps(reply(arguments(kind, int(mb * 1_000_000)))))
                argv = (*entry_argv(), "parse", str(path), "-p", "openai")
                commands = [Command("pretty", argv, child_env(COLUMNS="80")),
                            Command("json", (*argv, "-f", "json"), child_env(COLUMNS="80"))]
                if mb <= args.baseline_mb:
                    commands.append(Command("baseline", argv, child_env(COLUMNS="80", PYTHONPATH=str(base))))
                runs = interleaved(commands, args.rounds)
                pretty, limit = median_seconds(runs["pretty"]), median_seconds(runs["json"])
                shown = len(subprocess.run(argv, capture_output=True, env=child_env(COLUMNS="80")).stdout)
                baseline = f"{median_seconds(runs['baseline']):.2f}" if "baseline" in runs else "(not run)"
                print(f"| {kind}, {mb} MB | {pretty:.2f} | {limit:.2f} | {pretty / limit:.2f} | {baseline} | {shown:,} |")


if __name__ == "__main__":
    main()
