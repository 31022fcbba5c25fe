"""What `toolchoice tools` (YAML, its default) costs to lay out a listing with one long description (an MCP server's
tool of 20 MB took ~54 s end to end, ~30 s of it PyYAML's Python emitter, profiled with ``python -m cProfile``):
``output.yaml_list`` (what the command writes with since session 23: libyaml's emitter where it writes PyYAML's
bytes) against ``output.yaml_text`` (what it wrote with before), as a ratio, and that the two give the same bytes.

    python bench/tools_yaml.py                 # 1, 4 and 20 MB descriptions, 3 rounds each
    python bench/tools_yaml.py --mb 1 --rounds 5

Timed in process, rounds interleaved, medians. Not a test: nothing asserts a time. The listing as ``tools_cmd``
builds it (name, description, parameters), the description plain prose ("Reads the weather. " repeated).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toolchoice.cli.output import yaml_list, yaml_text  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, nargs="*", default=[1, 4, 20])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for mb in args.mb:
        n = int(mb * 1_000_000)
        tools = [{"name": "get_weather", "description": ("Reads the weather. " * (n // 19 + 1))[:n],
                  "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]
        before: list[float] = []
        after: list[float] = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            old = yaml_text({"tools": tools})
            before.append(time.perf_counter() - start)
            start = time.perf_counter()
            new = yaml_list("tools", tools)
            after.append(time.perf_counter() - start)
            assert new == old
        b, a = statistics.median(before), statistics.median(after)
        print(f"{mb:g} MB description: yaml_text {b:.2f} s, yaml_list {a:.2f} s: {b / a:.1f}x sooner "
              f"({b / n * 1e6:.2f} vs {a / n * 1e6:.3f} us a character), same bytes")


if __name__ == "__main__":
    main()
