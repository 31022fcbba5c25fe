"""Did a range of commits cost instructions? callgrind counts of the hot paths, a baseline tree against this one.

Each side is a Python that imports its own tree (two worktrees, each with its own venv: ``git worktree add
--detach /tmp/base REV`` then ``pip install -e .`` there). Every figure is ``valgrind --tool=callgrind`` instructions
(``PYTHONHASHSEED=0``, garbage collection off in process), which load on a shared machine does not move: a
workload is run N1 and N2 times in one process and the two counts subtracted, so imports and warm-up cancel out.
Cold commands (``render``, ``--help``) are counted whole. Ratios are head ÷ base.

    python bench/range_instructions.py --base-python /tmp/base/.venv/bin/python [--only translate,stream,...]

Cases: ``translate`` (bench/corpus.py × every provider, per pass), ``stream`` (bench/stream_assembly.py's small
stream per family), ``mock`` (``MockService.handle``), ``render`` (cold ``render -f json``, pretty, ``--help``,
``send --help``, the floor), ``send`` / ``run`` (``--repeat`` against the stand-in, -k 1, per request / step),
``draw`` (compare of configs/*.yaml pretty and markdown, providers, send and render pretty at 80 and 60 columns, in process), ``tables``
(``run --replay`` of a 300-step loop at 60 and 80 columns; ``parse`` of 3,000 calls; a 300-tool ``render -p all``);
``providers`` and ``parse`` (those lines of draw and tables alone, at 80 columns; parse pretty and -f json).
Every module of both trees is compiled first (``compileall``), so no count holds a compile.
Takes 20-40 minutes on the 2-core VM. Writes ``bench/results/range_instructions.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent


def work(kind: str, n: int, args: list[str]) -> None:
    """The child: one workload, ``n`` times after one untimed pass."""
    sys.path.insert(0, str(BENCH))
    gc.disable()
    if kind == "translate":
        from corpus import cases

        from toolchoice.providers import RenderOptions, load_scenario_text
        from toolchoice.providers.core.capabilities import PROVIDER_IDS
        from toolchoice.providers.core.registry import translate
        loaded = [load_scenario_text(json.dumps(c.scenario_doc(), ensure_ascii=False), c.source) for c in cases()]
        options = RenderOptions()
        for _ in range(n + 1):
            for p in PROVIDER_IDS:
                for s in loaded:
                    translate(p, s, options)
    elif kind.startswith("stream:"):
        import stream_assembly as sa

        from toolchoice.providers.core.streaming import assemble_bytes
        provider = kind.split(":", 1)[1]
        stream, _ = sa.FAMILIES[provider]([("search", sa.arguments(200, 0))])
        for _ in range(n + 1):
            assemble_bytes(provider, stream)
    elif kind == "mock":
        from toolchoice.providers.core.mock.service import MockService
        service = MockService("openai")
        from corpus import MOCK_CHAT_BODY as body
        for _ in range(n + 1):
            service.handle("POST", "/v1/chat/completions", {"content-type": "application/json"}, body)
    elif kind == "cli":  # a command in process (stdout a StringIO; COLUMNS sets the width)
        from toolchoice.cli.app import run
        for _ in range(n + 1):
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                try:
                    run(args)
                except SystemExit:
                    pass


def instructions(python: str, argv: list[str], env: dict[str, str] | None = None) -> int:
    fd, out = tempfile.mkstemp(prefix="callgrind.")
    os.close(fd)
    full = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    full.update(PYTHONHASHSEED="0", **(env or {}))
    try:
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, *argv],
                       capture_output=True, env=full, cwd=ROOT, check=False)
        for line in Path(out).read_text().splitlines():
            if line.startswith(("totals:", "summary:")):
                return int(line.split()[1])
        raise SystemExit(f"no callgrind total for {argv}")
    finally:
        os.unlink(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-python", required=True, help="the baseline tree's interpreter")
    parser.add_argument("--head-python", default=sys.executable)
    parser.add_argument("--only", help="comma-separated: translate,stream,mock,render,send,run,draw,tables,providers,parse")
    parser.add_argument("--out", default="range_instructions.json", help="file name under bench/results/")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    sides = {"base": args.base_python, "head": args.head_python}
    for python in sides.values():  # bytecode of every module written before anything is counted: a module first
        # imported in the N2 run would be compiled there and not in the N1 run, and the compile counted as work
        tree = subprocess.run([python, "-c", "import pathlib, toolchoice.providers as p; "
                               "print(pathlib.Path(p.__file__).resolve().parents[1])"],
                              capture_output=True, text=True, check=True).stdout.strip()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([python, "-m", "compileall", "-q", f"{tree}/cli", f"{tree}/providers", str(BENCH),
                        str(ROOT / "tests" / "servers.py")], check=True, env=env, stdout=subprocess.DEVNULL)
    sys.path.insert(0, str(BENCH))
    from concurrency import fake_keys, load_stand_in, write_scenario
    from long_tables import LOOP, reply_with_calls, replies
    from large_catalogue import catalogue
    from send_scale import LOOP_SECTION, LOOP_STEPS

    me = [str(Path(__file__).resolve()), "--child"]
    entry = ["-c", "from toolchoice.cli.app import main; main()"]
    results: dict[str, dict[str, float]] = {}

    def record(name: str, base: float, head: float) -> None:
        results[name] = {"base": base, "head": head, "ratio": head / base}
        print(f"| {name} | {base:,.0f} | {head:,.0f} | {head / base:.4f} |", flush=True)

    def marginal(name: str, kind: str, n1: int, n2: int, extra: list[str] = (), env: dict[str, str] | None = None,
                 per: float = 1) -> None:
        counts = {side: (instructions(py, [*me, kind, str(n2), *extra], env)
                         - instructions(py, [*me, kind, str(n1), *extra], env)) / (n2 - n1) / per
                  for side, py in sides.items()}
        record(name, counts["base"], counts["head"])

    def want(case: str) -> bool:
        return only is None or case in only

    stand_in = load_stand_in()
    server = stand_in.StandIn("openai", default=stand_in.Step.reply("openai", delay=0.0)).start()
    print("| case | base | head | head ÷ base |\n|---|---|---|---|")
    try:
        with tempfile.TemporaryDirectory() as name:
            folder = Path(name)
            weather = str(ROOT / "configs" / "weather.yaml")
            configs = sorted(str(p) for p in (ROOT / "configs").glob("*.yaml"))
            send_scenario = str(write_scenario({"openai": server}))
            loop_scenario = str(write_scenario({"openai": server}, LOOP_SECTION))
            keys = fake_keys()
            if want("translate"):
                marginal("translate, per pass of 91 cases × every provider", "translate", 1, 3)
            if want("stream"):
                for family in ("openai", "openai-responses", "anthropic", "cohere", "bedrock", "gemini", "ollama"):
                    marginal(f"stream {family}, per small stream", f"stream:{family}", 10, 60)
            if want("mock"):
                marginal("MockService.handle, per request", "mock", 5, 45)
            if want("render"):
                for label, argv in (("render -p openai -f json", ["render", weather, "-p", "openai", "-f", "json"]),
                                    ("render -p openai (pretty)", ["render", weather, "-p", "openai"]),
                                    ("--help", ["--help"]), ("send --help", ["send", "--help"])):
                    record(f"{label}, cold", *(instructions(py, [*entry, *argv], {"COLUMNS": "80"})
                                               for py in sides.values()))
                record("floor: import typer, yaml, json", *(instructions(py, ["-c", "import typer, yaml, json"])
                                                            for py in sides.values()))
            for case, argv, n1, n2, per in (
                    ("send", ["send", send_scenario, "-p", "openai"], 4, 36, 32),
                    ("run", ["run", loop_scenario, "-p", "openai", "--base-url", server.base_url("openai")], 1, 9,
                     8 * LOOP_STEPS)):
                if want(case):
                    tail = ["-k", "1", "-f", "json", "--retries", "0", "--repeat"]
                    counts = [(instructions(py, [*entry, *argv, *tail, str(n2)], keys)
                               - instructions(py, [*entry, *argv, *tail, str(n1)], keys)) / per
                              for py in sides.values()]
                    record(f"{case} --repeat, per {'request' if case == 'send' else 'step'}", *counts)
            if want("draw"):
                for cols in ("80", "60"):
                    env = {"COLUMNS": cols}
                    marginal(f"compare configs/*.yaml -p all, pretty @{cols}", "cli", 1, 3,
                             ["compare", *configs, "-p", "all"], env)
                    marginal(f"compare configs/*.yaml -p all, markdown @{cols}", "cli", 1, 3,
                             ["compare", *configs, "-p", "all", "-f", "markdown"], env)
                    marginal(f"providers, pretty @{cols}", "cli", 1, 3, ["providers"], env)
                    marginal(f"providers --model claude-opus-5 @{cols}", "cli", 1, 3,
                             ["providers", "--model", "claude-opus-5"], env)
                    marginal(f"send, pretty @{cols}", "cli", 2, 10, ["send", send_scenario, "-p", "openai",
                                                                     "--retries", "0"], {**env, **keys})
                    marginal(f"render -p all, pretty @{cols}", "cli", 1, 3, ["render", weather, "-p", "all"], env)
            if want("providers"):  # the draw case's providers lines alone, at 80 columns
                marginal("providers, pretty @80", "cli", 1, 2, ["providers"], {"COLUMNS": "80"})
                marginal("providers --model claude-opus-5 @80", "cli", 1, 3, ["providers", "--model", "claude-opus-5"],
                         {"COLUMNS": "80"})
            if want("parse"):  # the tables case's parse line alone, and its JSON document
                (folder / "reply.json").write_text(json.dumps(reply_with_calls(3000)))
                for form in ("pretty", "json"):
                    marginal(f"parse, 3,000 calls, {form} @80", "cli", 1, 2,
                             ["parse", str(folder / "reply.json"), "-p", "openai", "-f", form], {"COLUMNS": "80"})
            if want("tables"):
                (folder / "loop.yaml").write_text(LOOP % 300)
                replies(folder / "replies", 300)
                (folder / "reply.json").write_text(json.dumps(reply_with_calls(3000)))
                (folder / "catalogue.json").write_text(json.dumps(catalogue(300)))
                for cols in ("60", "80"):
                    marginal(f"run --replay, 300 steps, pretty @{cols}", "cli", 1, 2,
                             ["run", str(folder / "loop.yaml"), "-p", "openai", "--replay", str(folder / "replies")],
                             {"COLUMNS": cols})
                marginal("parse, 3,000 calls, pretty @80", "cli", 1, 2,
                         ["parse", str(folder / "reply.json"), "-p", "openai"], {"COLUMNS": "80"})
                marginal("render -p all, 300 tools, pretty @80", "cli", 1, 2,
                         ["render", str(folder / "catalogue.json"), "-p", "all"], {"COLUMNS": "80"})
    finally:
        server.stop()
    (BENCH / "results").mkdir(exist_ok=True)
    (BENCH / "results" / args.out).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        work(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
    else:
        main()
