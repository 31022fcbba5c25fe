"""Did a range of commits cost speed? The hot paths of this tree against ``--baseline REV``, same run.

Both trees are laid out as the installed package (``loop_steps.baseline_tree``: ``git archive REV`` for the
baseline, links to this worktree for the head), compiled with ``compileall``, and imported through
``PYTHONPATH`` by child processes; every round runs each case once on each side, the order alternating, and
each figure is **CPU (user + sys)**, the child's rusage or ``time.process_time``, not wall, so that other
work on the machine weighs less. Ratios are head ÷ baseline: the median of the per-round ratios.

- ``render json``: ``render configs/weather.yaml -p openai -f json``, a cold process, against the floor
  ``python -c "import typer, yaml, json"`` (also timed each round).
- ``translate``: the throughput corpus (bench/corpus.py) × the providers both trees have, µs per request
  after 0.2 s of warm-up, in one child per side per round.
- ``send --repeat``: ``send SCENARIO -p openai --repeat 150 -k 10 -f json`` against the stand-in on
  127.0.0.1 (0 ms), marginal CPU per request = (CPU(150) − CPU(1)) / 149.
- ``run --repeat``: ``run`` of a 4-step loop, ``--repeat 40 -k 10`` against the stand-in, marginal CPU per
  step = (CPU(40 loops) − CPU(1 loop)) / (39 × 4). Below 200 requests: no aiohttp import on either side.
- ``stream``: ``assemble_bytes`` of bench/stream_assembly.py's small stream per family, µs per event.
- ``mock handle``: ``MockService("openai").handle`` of one chat request with tools, µs per request.

    python bench/range_cost.py [--baseline 16a97e7] [--rounds 7]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from concurrency import fake_keys, load_stand_in, write_scenario  # noqa: E402
from loop_steps import baseline_tree  # noqa: E402
from measure import BENCH, ROOT  # noqa: E402
from send_scale import LOOP_SECTION, LOOP_STEPS  # noqa: E402

SEND_N, LOOP_N, K = 150, 40, 10

CHILD = r"""
import gc, json, sys, time
sys.path.insert(1, sys.argv[2])  # bench/ (after the tree on PYTHONPATH)
kind = sys.argv[1]
out = {}
if kind == "translate":
    from corpus import cases
    from toolchoice.providers import RenderOptions, load_scenario_text
    from toolchoice.providers.core.capabilities import PROVIDER_IDS
    from toolchoice.providers.core.registry import translate
    loaded = [load_scenario_text(json.dumps(c.scenario_doc(), ensure_ascii=False), c.source) for c in cases()]
    options = RenderOptions()
    until = time.perf_counter() + 0.2
    while time.perf_counter() < until:
        for p in PROVIDER_IDS:
            for s in loaded:
                translate(p, s, options)
    for p in PROVIDER_IDS:
        start = time.process_time()
        for _ in range(3):
            for s in loaded:
                translate(p, s, options)
        out[p] = (time.process_time() - start) / (3 * len(loaded)) * 1e6
elif kind == "stream":
    import stream_assembly as sa
    from toolchoice.providers.core.stream_framing import saved_events
    from toolchoice.providers.core.streaming import assemble_bytes
    calls = [("search", sa.arguments(200, 0))]
    for provider, family in sa.FAMILIES.items():
        stream, _ = family(calls)
        events, _ = saved_events(sa.FRAMING.get(provider, "sse"), stream)
        for _ in range(50):
            assemble_bytes(provider, stream)
        gc.collect()
        start = time.process_time()
        for _ in range(400):
            assemble_bytes(provider, stream)
        out[provider] = (time.process_time() - start) / 400 / len(events) * 1e6
elif kind == "mock":
    from toolchoice.providers.core.mock.service import MockService
    service = MockService("openai")
    from corpus import MOCK_CHAT_BODY as body
    headers = {"content-type": "application/json"}
    for _ in range(200):
        service.handle("POST", "/v1/chat/completions", headers, body)
    start = time.process_time()
    for _ in range(3000):
        service.handle("POST", "/v1/chat/completions", headers, body)
    out["openai"] = (time.process_time() - start) / 3000 * 1e6
print(json.dumps(out))
"""

ENTRY = "from toolchoice.cli.app import main; main()"


def head_tree(into: Path) -> Path:
    """This worktree (its files as they are now) laid out as the installed package."""
    pkg = into / "toolchoice"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "cli").symlink_to(ROOT / "cli")
    (pkg / "providers").symlink_to(ROOT / "providers")
    return into


def cpu_of(argv: list[str], env: dict[str, str]) -> tuple[float, int, str]:
    """User + sys seconds of one child (the stand-in runs on a thread of this process, not a child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), proc.returncode, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="16a97e7")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only", help="comma-separated cases: render,translate,send,run,stream,mock")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else {"render", "translate", "send", "run", "stream", "mock"}
    print(f"load average {os.getloadavg()[0]:.2f}; baseline {args.baseline}; rounds {args.rounds}")
    (BENCH / "results").mkdir(exist_ok=True)
    stand_in = load_stand_in()
    server = stand_in.StandIn("openai", default=stand_in.Step.reply("openai", delay=0.0))
    server.start()
    results: dict[str, dict[str, list[float]]] = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "base").mkdir()
            trees = {"base": baseline_tree(args.baseline, Path(folder) / "base"),
                     "head": head_tree(Path(folder) / "head")}
            for path in (Path(folder) / "base" / "src", ROOT / "cli", ROOT / "providers"):
                subprocess.run([sys.executable, "-m", "compileall", "-q", str(path)], check=True)
            url = server.base_url("openai")
            send_scenario = str(write_scenario({"openai": server}))
            loop_scenario = str(write_scenario({"openai": server}, LOOP_SECTION))
            keys = fake_keys()

            def env(side: str) -> dict[str, str]:
                e = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
                return {**e, **keys, "PYTHONPATH": str(trees[side])}

            cli = [sys.executable, "-c", ENTRY]
            commands = {
                "render": lambda n: [*cli, "render", str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "-f", "json"],
                "send": lambda n: [*cli, "send", send_scenario, "-p", "openai", "--repeat", str(n), "--concurrency",
                                   str(K), "--format", "json", "--retries", "0"],
                "run": lambda n: [*cli, "run", loop_scenario, "-p", "openai", "--base-url", url, "--repeat", str(n),
                                  "--concurrency", str(K), "--format", "json", "--retries", "0"],
            }
            # check once per side that each command does its work
            for side in ("base", "head"):
                for name, n, want in (("send", 2, 2), ("run", 2, 2 * LOOP_STEPS)):
                    if name not in only:
                        continue
                    server.requests.clear()
                    _, code, _ = cpu_of(commands[name](n), env(side))
                    if code not in (0, 4) or len(server.requests) != want:
                        raise SystemExit(f"{side} {name}: exit {code}, {len(server.requests)}/{want} requests")
            floor = [sys.executable, "-c", "import typer, yaml, json"]
            for i in range(args.rounds):
                sides = ("base", "head") if i % 2 == 0 else ("head", "base")
                if "render" in only:
                    results.setdefault("floor", {}).setdefault("floor", []).append(cpu_of(floor, env("head"))[0] * 1e3)
                for side in sides:
                    row = results.setdefault(side, {})
                    if "render" in only:
                        row.setdefault("render json ms", []).append(cpu_of(commands["render"](0), env(side))[0] * 1e3)
                    if "send" in only:
                        one, many = cpu_of(commands["send"](1), env(side))[0], cpu_of(commands["send"](SEND_N), env(side))[0]
                        row.setdefault("send ms/request", []).append((many - one) / (SEND_N - 1) * 1e3)
                    if "run" in only:
                        one, many = cpu_of(commands["run"](1), env(side))[0], cpu_of(commands["run"](LOOP_N), env(side))[0]
                        row.setdefault("run ms/step", []).append((many - one) / ((LOOP_N - 1) * LOOP_STEPS) * 1e3)
                    for kind in ("translate", "stream", "mock"):
                        if kind not in only:
                            continue
                        _, code, out = cpu_of([sys.executable, "-c", CHILD, kind, str(BENCH)], env(side))
                        if code:
                            raise SystemExit(f"{side} {kind}: exit {code}")
                        for key, value in json.loads(out).items():
                            row.setdefault(f"{kind} {key}", []).append(value)
    finally:
        server.stop()
    report(results)


def report(results: dict[str, dict[str, list[float]]]) -> None:
    base, head = results.get("base", {}), results.get("head", {})
    keys = [k for k in head if k in base]
    translate = [k for k in keys if k.startswith("translate ")]
    if translate:  # one line over every provider both trees have: µs per request, summed per round
        rounds = len(base[translate[0]])
        for row in (base, head):
            row["translate µs/request (mean over providers)"] = [
                sum(row[k][i] for k in translate) / len(translate) for i in range(rounds)]
        keys = ["translate µs/request (mean over providers)"] + [k for k in keys if k not in translate] + translate
    if "floor" in results:
        floor = statistics.median(results["floor"]["floor"])
        print(f"floor `import typer, yaml, json`: {floor:.1f} ms CPU")
        for side, row in (("base", base), ("head", head)):
            print(f"  render json ÷ floor ({side}): {statistics.median(row['render json ms']) / floor:.3f}")
    print(f"| {'case':46s} | baseline | head | head ÷ baseline (median per round; range) |")
    for key in keys:
        ratios = [h / b for h, b in zip(head[key], base[key]) if b]
        print(f"| {key:46s} | {statistics.median(base[key]):8.3f} | {statistics.median(head[key]):8.3f} | "
              f"{statistics.median(ratios):.3f} ({min(ratios):.2f}-{max(ratios):.2f}) |")
    (BENCH / "results").mkdir(exist_ok=True)
    (BENCH / "results" / "range_cost.json").write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
