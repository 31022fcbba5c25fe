"""Whether `toolchoice run --replay FILE.har` says the same bytes under two trees: a baseline commit (``git archive``)
and this tree, each case a `python -m toolchoice run --replay ...` child (COLUMNS=80), its exit status, stdout and
stderr compared whole. For a change to the replay's reading (trace_har*.py, har_*.py, saved_request.py) that must
keep every warning on its step, the ledger and the verdicts. A step answered through the mock transport (the
recorded provider's own bytes) is timed live, so the JSON's measured ``*_ms`` numbers are masked before comparing.

Cases: tests/data/har/sdk-session.har (no --trace-id: the error; each conversation on its API and on others;
--stream where it recorded one; a conversation it does not hold), and har_replay.py's ``plain`` and ``agent`` loops
of ``--steps`` calls on openai and, at the second size, rendered for anthropic, gemini and openai-responses; its
``api-*`` loops (tests/har_loops.py: recorded on openai-responses, anthropic, gemini, bedrock, cohere and ollama) on
openai and on their own API; each pretty and ``--format json``. Prints a line per case and the cases that differ; exit 1 when one does.

    python bench/har_replay_same.py [--baseline REV] [--steps 10,50] [--only TEXT]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from har_replay import SHAPES
from loop_steps import baseline_tree

ROOT = Path(__file__).resolve().parents[1]
SESSION = ROOT / "tests" / "data" / "har" / "sdk-session.har"
_MEASURED = re.compile(r'("[a-z_]*_ms": )[0-9.e+-]+')  # a live step's latency_ms, total_ms...


def cases(folder: Path, sizes: list[int]) -> list[tuple[str, list[str]]]:
    out = []
    for fmt in ("pretty", "json"):
        f = [] if fmt == "pretty" else ["--format", "json"]
        out.append((f"sdk-none-{fmt}", [str(SESSION), "-p", "openai", *f]))
        for tid, providers in {"1": ["openai", "anthropic", "gemini", "openai-responses"], "2": ["openai", "anthropic"],
                               "3": ["openai-responses", "openai"], "4": ["anthropic", "openai", "bedrock"],
                               "5": ["gemini", "openai"], "9": ["openai"]}.items():
            out += [(f"sdk-{tid}-{p}-{fmt}", [str(SESSION), "-p", p, "--trace-id", tid, *f]) for p in providers]
        out += [(f"sdk-{tid}-{p}-stream-{fmt}", [str(SESSION), "-p", p, "--trace-id", tid, "--stream", *f])
                for tid, p in (("2", "openai"), ("4", "anthropic"), ("5", "gemini"))]
        for shape in SHAPES:
            out += [(f"{shape}-{n}-openai-{fmt}", [str(folder / f"{shape}-{n}.har"), "-p", "openai", *f])
                    for n in sizes]
            if not shape.startswith("api-"):
                out += [(f"{shape}-{sizes[-1]}-{p}-{fmt}", [str(folder / f"{shape}-{sizes[-1]}.har"), "-p", p, *f])
                        for p in ("anthropic", "gemini", "openai-responses")]
            elif shape != "api-openai":  # a loop on an API's own wire: replayed on it too
                out += [(f"{shape}-{n}-own-{fmt}", [str(folder / f"{shape}-{n}.har"), "-p", shape[4:], *f])
                        for n in sizes]
    return out


def said(tree: Path | None, args: list[str]) -> str:
    env = dict(os.environ, COLUMNS="80", TOOLCHOICE_LIMIT_FILE_BYTES=str(512 * 1024 * 1024))
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    done = subprocess.run([sys.executable, "-m", "toolchoice", "run", "--replay", *args], env=env, text=True,
                          capture_output=True, cwd=tempfile.gettempdir())
    return _MEASURED.sub(r"\1#", f"exit {done.returncode}\n--stdout\n{done.stdout}--stderr\n{done.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="HEAD")
    parser.add_argument("--steps", default="10,50")
    parser.add_argument("--only", default="", help="the cases whose name holds this text")
    args = parser.parse_args()
    sizes = [int(n) for n in args.steps.split(",")]
    differ = []
    with tempfile.TemporaryDirectory() as folder:
        base = baseline_tree(args.baseline, Path(folder))
        for shape, make in SHAPES.items():
            for n in sizes:
                (Path(folder) / f"{shape}-{n}.har").write_text(json.dumps(make(n)), encoding="utf-8")
        for name, argv in cases(Path(folder), sizes):
            if args.only not in name:
                continue
            before, after = said(base, argv), said(None, argv)
            same = before == after
            print(f"{name}: {before.split(chr(10), 1)[0]}, {'same' if same else 'DIFFERS'}", flush=True)
            if not same:
                differ.append(name)
    print(f"{len(differ)} case(s) differ{': ' + ', '.join(differ) if differ else ''}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
