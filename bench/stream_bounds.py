"""Hostile saved streams through ``toolchoice parse FILE -p openai --stream``: time and peak RSS against a
baseline commit and against the floor, and the answer's shape (exit code, stderr lines, no traceback).

Streams (written to a temporary folder):

- ``tiny-1e6``: 1,000,000 events ``data:{}`` (9 MB; every event parsed and assembled);
- ``event-30mb``: one chat chunk whose content is 30 MiB (past stream_line_bytes, 4 MiB: stream.too_large);
- ``line-30mb``: ``data: `` and 30 MiB without a line end (the same limit);
- ``file-50mb``: one 50 MiB event (past stream_bytes, 32 MiB: refused before reading, one line, exit 2).

The floor for ``tiny-1e6`` is the least any reader can do: split the bytes at blank lines and ``json.loads``
each event, in one process (interpreter start included). The floor for memory is the interpreter plus the
file's size (parse reads the file whole).

    python bench/stream_bounds.py [--runs 2] [--baseline main]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from loop_steps import baseline_tree
from measure import Command, child_env, entry_argv, peak_rss_kib, run_once

MIB = 1024 * 1024
FLOOR = ("import json, sys\n"
         "data = open(sys.argv[1], 'rb').read()\n"
         "n = sum(1 for block in data.split(b'\\n\\n') if block and json.loads(block[5:]) is not None)\n")


def streams(folder: Path) -> dict[str, Path]:
    big = "x" * (30 * MIB)
    files = {
        "tiny-1e6": b"data:{}\n\n" * 1_000_000,
        "event-30mb": ('data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"'
                       + big + '"}}]}\n\ndata: [DONE]\n\n').encode(),
        "line-30mb": ("data: " + big).encode(),
        "file-50mb": ('data: {"choices":[{"index":0,"delta":{"content":"' + "x" * (50 * MIB) + '"}}]}\n\n').encode(),
    }
    out = {}
    for name, data in files.items():
        out[name] = folder / f"{name}.sse"
        out[name].write_bytes(data)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--baseline", default="main")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "base").mkdir()
        base = baseline_tree(args.baseline, (folder / "base").resolve()) if args.baseline else None
        trees = {"this": child_env()}
        if base is not None:
            trees[args.baseline] = child_env(PYTHONPATH=str(base))
        print(f"{'stream':<11} {'tree':<8} {'best s':>7} {'peak MiB':>9} {'exit':>4} {'stderr lines':>12} traceback")
        for name, path in streams(folder).items():
            for tree, env in trees.items():
                command = Command(f"{name}-{tree}", (*entry_argv(), "parse", str(path), "-p", "openai", "--stream"),
                                  env)
                runs = [run_once(command, capture=True, timeout=600) for _ in range(args.runs)]
                best = min(r.seconds for r, _, _ in runs)
                _, _, err = runs[0]
                rss = max(peak_rss_kib(command) for _ in range(args.runs)) / 1024
                print(f"{name:<11} {tree:<8} {best:7.2f} {rss:9.1f} {runs[0][0].returncode:>4} "
                      f"{len(err.splitlines()):>12} {'YES' if 'Traceback' in err else 'no'}")
            if name == "tiny-1e6":
                floor = Command("floor", (sys.executable, "-c", FLOOR, str(path)))
                seconds = min(run_once(floor)[0].seconds for _ in range(args.runs))
                print(f"{name:<11} {'floor':<8} {seconds:7.2f} {peak_rss_kib(floor) / 1024:9.1f}")
            else:
                print(f"{name:<11} {'floor':<8} {'':>7} {path.stat().st_size / MIB:9.1f} (the file's size)")


if __name__ == "__main__":
    main()
