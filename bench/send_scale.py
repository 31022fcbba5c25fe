"""Sending at scale, against the physical limit and a bare httpx loop, in the same run.

For N samples, K in flight and a stand-in (tests/servers.py) answering after L seconds, the ideal
wall time is N/K × L: no client can do better. Each case times
- `toolchoice send --repeat N --concurrency K --format json` (the whole command: start-up, sending,
  parsing, judging, output), and
- a bare ``httpx.AsyncClient`` loop sending the same body N times, K at once, reading each JSON
  reply, twice: with the best pool settings this bench found (what toolchoice uses: ceil(K/5)
  clients of at most 5 connections, keep-alive = connections, one TLS context shared; httpcore
  scans its whole pool on every request, so small pools win) and, for reference, naively (one client of K connections),
- the same loop with aiohttp (one ``ClientSession``, ``TCPConnector(limit=K)``), the evidence for
  or against a cheaper client than httpx (aiohttp is a bench-only extra, ``pip install -e '.[bench]'``,
  never a runtime dependency; left out with a note when it is not installed),
and reports them against the ideal, plus toolchoice ÷ best bare. For every run it also reads the
client process's CPU (user + sys from ``getrusage(RUSAGE_CHILDREN)``, divided by N: on two cores
the stand-in runs on the other one, so a client's CPU per sample is what bounds its rate) and its
start-up: the time from spawning it to the stand-in receiving its first request (the ideal counts
none of that). Memory: peak RSS of `send --repeat` at N = 200 and N = 3000 (flat memory: the
second within 15% of the first).

Targets (issue 17): N=1000, K=50, 50 ms: ≤ 1.5× the ideal and ≤ 1.3× the best bare loop (issue 30: and
≤ 1.2× the aiohttp loop); "toolchoice, httpx only" is the same command with $TOOLCHOICE_HTTP_CLIENT=httpx
(N ≥ transport.AIOHTTP_MIN_REQUESTS goes out on aiohttp's connections otherwise);
RSS at N=3000 ≤ 1.15× N=200.

Loops (``--loops``, issue 30): `toolchoice run --repeat N --concurrency 50 --format json` of a 4-step
loop (the stand-in always calls the tool, ``max_steps: 4``: 4N requests) for N = 50, 200, 400 at 0 and
50 ms — as the command runs by default (its loops shared among one process per CPU from 200 requests a
process on: providers/core/loop_shards.py) and with ``--processes 1`` —, against the ideal N/K × 4 × L and the same bare httpx and aiohttp loops sending 4N requests, K at
once, in the same rounds. CPU per step is the client's user + sys ÷ 4N, and marginal: (CPU at N − CPU of
one loop) ÷ 4(N − 1), which takes the start-up out. Peak RSS of the command at each N (0 ms), for
``--format json`` (every loop in the document) and pretty (the tallies). Targets: N = 200 at 50 ms
≤ 1.5× the ideal; marginal CPU ≤ 2 ms a step at 0 ms; RSS at N = 400 ≤ 1.15× N = 50.

Run: python bench/send_scale.py [--rounds R] [--goal-only] [--loops] (writes bench/results/send_scale.json,
or loop_scale.json with --loops).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from concurrency import fake_keys, load_stand_in, write_scenario
from toolchoice.providers.core.transport import CONNECTIONS_PER_CLIENT, HTTP_CLIENT_ENV
from measure import ROOT, RESULTS, Command, child_env, entry_argv, median, peak_rss_kib

CASES = [(1000, 10, 0.0), (1000, 50, 0.0), (1000, 10, 0.05), (1000, 50, 0.05)]
MEMORY_N = (200, 3000)
GOAL_CASE = (1000, 50, 0.05)
LOOP_STEPS = 4
LOOP_CASES = [(n, 50, latency) for latency in (0.0, 0.05) for n in (50, 200, 400)]
LOOP_GOAL_CASE = (200, 50, 0.05)
# `run --repeat` at 200+ requests imports these before its first request (aiohttp from transport.AIOHTTP_MIN_REQUESTS)
IMPORT_FLOOR = "import asyncio, json, typer, yaml, httpx, jsonschema, aiohttp, httpx_aiohttp"
LOOP_SECTION = {"max_steps": LOOP_STEPS, "results": {"get_weather": {"template": "72F and sunny in {city}"}}}

BARE = """
import asyncio, json, sys, time
import httpx
url, n, k, body, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].encode(), int(sys.argv[5])
headers = {"authorization": "Bearer bench-not-a-key", "content-type": "application/json"}

async def main():
    count = -(-k // per)
    size = -(-k // count)
    limits = httpx.Limits(max_connections=size, max_keepalive_connections=size)
    verify = httpx.create_ssl_context()  # one CA bundle read for all clients (~15-25 ms each otherwise)
    clients = [httpx.AsyncClient(limits=limits, timeout=60, verify=verify) for _ in range(count)]
    numbers = iter(range(n))
    async def worker(client):
        for _ in numbers:
            r = await client.post(url, content=body, headers=headers)
            json.loads(await r.aread())
    await asyncio.gather(*(worker(clients[i % count]) for i in range(k)))
    for client in clients:
        await client.aclose()
asyncio.run(main())
"""

AIOHTTP = """
import asyncio, json, sys
import aiohttp
url, n, k, body = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].encode()
headers = {"authorization": "Bearer bench-not-a-key", "content-type": "application/json"}

async def main():
    connector = aiohttp.TCPConnector(limit=k, limit_per_host=k)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=60)) as session:
        numbers = iter(range(n))
        async def worker():
            for _ in numbers:
                async with session.post(url, data=body, headers=headers) as r:
                    json.loads(await r.read())
        await asyncio.gather(*(worker() for _ in range(k)))
asyncio.run(main())
"""


@dataclass(frozen=True)
class Timed:
    seconds: float  # wall, spawn to exit
    cpu: float  # user + sys of the child, seconds
    startup: float  # spawn to the stand-in's first arrival, seconds
    returncode: int


def run_timed(command: Command, server: object) -> Timed:
    """Run once, waiting with a blocking ``wait()`` (see measure.run_once); CPU from the children's
    rusage (only this child ends in between; the stand-in is a thread of this process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start, spawned = time.perf_counter(), time.monotonic()
    proc = subprocess.Popen(command.argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=command.env or None, cwd=ROOT)
    proc.wait()
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    arrivals = [r.at for r in server.requests]  # type: ignore[attr-defined]
    return Timed(seconds, cpu, (min(arrivals) - spawned) if arrivals else float("nan"), proc.returncode)


def spread(values: list[float], digits: int = 2) -> str:
    low, high = min(values), max(values)
    return f"{low:.{digits}f}" if round(low, digits) == round(high, digits) else f"{low:.{digits}f}-{high:.{digits}f}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--goal-only", action="store_true", help="only the goal case (N=1000, K=50, 50 ms; with --loops "
                        "N=200 at 0 and 50 ms), no memory")
    parser.add_argument("--loops", action="store_true", help="the agent loop's cases (run --repeat) instead")
    args = parser.parse_args()
    if args.loops:
        measure_loops(args.rounds, args.goal_only)
        return
    RESULTS.mkdir(exist_ok=True)
    load_at_start = round(os.getloadavg()[0], 2)
    stand_in = load_stand_in()
    entry = entry_argv()
    env = child_env(**fake_keys())
    report: dict[str, object] = {"machine": machine(), "cases": [], "memory": {}, "goals": {}}
    print(report["machine"])
    have_aiohttp = importlib.util.find_spec("aiohttp") is not None
    if not have_aiohttp:
        print("aiohttp is not installed: its baseline is left out (pip install -e '.[bench]')")
    for n, k, latency in [GOAL_CASE] if args.goal_only else CASES:
        server = stand_in.StandIn("openai", default=stand_in.Step.reply("openai", delay=latency))
        server.start()
        try:
            scenario = str(write_scenario({"openai": server}))
            url = server.base_url("openai")
            body = json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "weather?"}]})
            ours = Command("toolchoice", (*entry, "send", scenario, "-p", "openai", "--base-url", url, "--repeat", str(n),
                                          "--concurrency", str(k), "--format", "json", "--retries", "0"), env)
            bare = Command("bare httpx", (sys.executable, "-c", BARE, url + "/chat/completions", str(n), str(k), body,
                                          str(CONNECTIONS_PER_CLIENT)), env)
            naive = Command("bare httpx, one client", (sys.executable, "-c", BARE, url + "/chat/completions", str(n),
                                                       str(k), body, str(k)), env)
            aio = Command("aiohttp", (sys.executable, "-c", AIOHTTP, url + "/chat/completions", str(n), str(k), body), env)
            httpx_only = Command("toolchoice, httpx only", ours.argv, {**env, HTTP_CLIENT_ENV: "httpx"})
            commands = [ours, httpx_only, bare] + ([naive] if k > CONNECTIONS_PER_CLIENT else []) \
                + ([aio] if have_aiohttp else [])
            runs: dict[str, list[Timed]] = {c.name: [] for c in commands}
            for i in range(args.rounds):
                shift = i % len(commands)  # interleaved, the order rotated per round: drift hits all alike
                for command in commands[shift:] + commands[:shift]:
                    server.requests.clear()
                    run = run_timed(command, server)
                    if run.returncode not in (0, 4) or len(server.requests) != n:
                        raise SystemExit(f"{command.name}: exit {run.returncode}, {len(server.requests)}/{n} requests")
                    runs[command.name].append(run)
        finally:
            server.stop()
        ideal = n / k * latency
        med = {name: median([r.seconds for r in rs]) for name, rs in runs.items()}
        t_ours, t_bare = med["toolchoice"], med["bare httpx"]
        per_round = [o.seconds / b.seconds for o, b in zip(runs["toolchoice"], runs["bare httpx"])]
        case: dict[str, object] = {
            "n": n, "k": k, "latency_ms": latency * 1000, "ideal_s": ideal,
            "runs_s": {name: [round(r.seconds, 3) for r in rs] for name, rs in runs.items()},
            "cpu_ms_per_sample": {name: [round(r.cpu / n * 1000, 3) for r in rs] for name, rs in runs.items()},
            "startup_s": {name: [round(r.startup, 3) for r in rs] for name, rs in runs.items()},
            "median_s": {name: round(t, 3) for name, t in med.items()},
            "toolchoice_vs_bare": round(t_ours / t_bare, 2), "toolchoice_vs_bare_per_round": [round(x, 2) for x in per_round],
            "vs_ideal": {name: round(t / ideal, 2) for name, t in med.items()} if ideal else None,
            # kept for readers of older results
            "toolchoice_s": round(t_ours, 3), "bare_httpx_s": round(t_bare, 3),
            "toolchoice_vs_ideal": round(t_ours / ideal, 2) if ideal else None,
        }
        report["cases"].append(case)  # type: ignore[union-attr]
        print(f"N={n} K={k} L={latency * 1000:.0f} ms, ideal {ideal:.2f} s:")
        for name, rs in runs.items():
            walls = [r.seconds for r in rs]
            print(f"  {name:24s} {spread(walls)} s" + (f" (×{spread([w / ideal for w in walls])} ideal)" if ideal else "")
                  + f", start-up {spread([r.startup for r in rs], 3)} s, CPU {spread([r.cpu / n * 1000 for r in rs], 3)} ms/sample")
        print(f"  toolchoice ÷ bare httpx: {spread(per_round)} per round, ×{t_ours / t_bare:.2f} of the medians")
        if (n, k, latency) == GOAL_CASE:
            goals = {"vs_ideal": (t_ours / ideal, 1.5), "vs_bare": (t_ours / t_bare, 1.3)}
            if "aiohttp" in med:  # issue 30: ≤ 1.2× a raw aiohttp loop in the same run
                goals["vs_aiohttp"] = (t_ours / med["aiohttp"], 1.2)
            report["goals"].update(goals)  # type: ignore[union-attr]
            print("  goal: " + ", ".join(f"{name} {got:.2f}× (≤ {limit}×: {'pass' if got <= limit else 'FAIL'})"
                                         for name, (got, limit) in goals.items()))
    if args.goal_only:
        report["load_average"] = {"start": load_at_start, "end": round(os.getloadavg()[0], 2)}
        print(f"load average (1 min): {load_at_start} at start, {report['load_average']['end']} at end")
        return
    server = stand_in.StandIn("openai", default=stand_in.Step.reply("openai"))
    server.start()
    try:
        scenario = str(write_scenario({"openai": server}))
        for n in MEMORY_N:
            command = Command("rss", (*entry, "send", scenario, "-p", "openai", "--base-url", server.base_url("openai"),
                                      "--repeat", str(n), "--concurrency", "20", "--format", "json", "--retries", "0"),
                              env)
            report["memory"][str(n)] = round(peak_rss_kib(command) / 1024, 1)  # type: ignore[index]
    finally:
        server.stop()
    small, large = (report["memory"][str(n)] for n in MEMORY_N)  # type: ignore[index]
    print(f"peak RSS: N={MEMORY_N[0]} {small} MiB, N={MEMORY_N[1]} {large} MiB (×{large / small:.2f}; "
          f"≤ 1.15×: {'pass' if large / small <= 1.15 else 'FAIL'})")
    report["goals"]["rss"] = (large / small, 1.15)  # type: ignore[index]
    report["load_average"] = {"start": load_at_start, "end": round(os.getloadavg()[0], 2)}
    print(f"load average (1 min): {load_at_start} at start, {report['load_average']['end']} at end")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "send_scale.json").write_text(json.dumps(report, indent=2) + "\n")


def machine() -> str:
    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), "unknown CPU") if Path("/proc/cpuinfo").exists() else "unknown CPU"
    return f"{model}, {os.cpu_count()} cores, Python {sys.version.split()[0]}"


def measure_loops(rounds: int, goal_only: bool = False) -> None:
    """The loop cases (see the module docstring), every command once per round, the order rotated;
    ``goal_only``: the goal cases only (N = 200 at 0 and 50 ms), no memory."""
    cases = [(200, 50, 0.0), LOOP_GOAL_CASE] if goal_only else LOOP_CASES
    RESULTS.mkdir(exist_ok=True)
    load_at_start = round(os.getloadavg()[0], 2)
    stand_in = load_stand_in()
    entry = entry_argv()
    env = child_env(**fake_keys())
    have_aiohttp = importlib.util.find_spec("aiohttp") is not None
    report: dict[str, object] = {"machine": machine(), "cases": [], "memory": {}, "goals": {}}
    print(report["machine"])
    for latency in sorted({case[2] for case in cases}):
        server = stand_in.StandIn("openai", default=stand_in.Step.reply("openai", delay=latency))
        server.start()
        try:
            scenario = str(write_scenario({"openai": server}, LOOP_SECTION))
            url = server.base_url("openai")
            body = json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "weather?"}]})

            def ours(n: int, k: int, fmt: str = "json") -> Command:
                return Command("toolchoice run", (*entry, "run", scenario, "-p", "openai", "--base-url", url, "--repeat",
                                                  str(n), "--concurrency", str(k), "--format", fmt, "--retries", "0"), env)

            for n, k, _ in [c for c in cases if c[2] == latency]:
                requests = n * LOOP_STEPS
                commands = [ours(n, k), Command("toolchoice, 1 process", (*ours(n, k).argv, "--processes", "1"), env),
                            Command("toolchoice, httpx only", ours(n, k).argv, {**env, HTTP_CLIENT_ENV: "httpx"}),
                            Command("one loop", ours(1, k).argv, env),
                            Command("bare httpx", (sys.executable, "-c", BARE, url + "/chat/completions", str(requests),
                                                   str(k), body, str(CONNECTIONS_PER_CLIENT)), env)]
                if have_aiohttp:
                    commands.append(Command("aiohttp", (sys.executable, "-c", AIOHTTP, url + "/chat/completions",
                                                        str(requests), str(k), body), env))
                # what `run` cannot start faster than: importing the libraries it uses, nothing else
                commands.append(Command("import floor", (sys.executable, "-c", IMPORT_FLOOR), env))
                expected = {"one loop": LOOP_STEPS, "import floor": 0}
                runs: dict[str, list[Timed]] = {c.name: [] for c in commands}
                for i in range(rounds):
                    shift = i % len(commands)
                    for command in commands[shift:] + commands[:shift]:
                        server.requests.clear()
                        run = run_timed(command, server)
                        want = expected.get(command.name, requests)
                        if run.returncode not in (0, 4) or len(server.requests) != want:
                            raise SystemExit(f"{command.name}: exit {run.returncode}, {len(server.requests)}/{want} requests")
                        runs[command.name].append(run)
                ideal = n / k * LOOP_STEPS * latency
                med = {name: median([r.seconds for r in rs]) for name, rs in runs.items()}
                cpu = {name: median([r.cpu for r in rs]) for name, rs in runs.items()}
                marginal = (cpu["toolchoice run"] - cpu["one loop"]) / (LOOP_STEPS * (n - 1)) * 1000
                case = {"n": n, "k": k, "steps": LOOP_STEPS, "latency_ms": latency * 1000, "ideal_s": ideal,
                        "runs_s": {name: [round(r.seconds, 3) for r in rs] for name, rs in runs.items()},
                        "cpu_s": {name: [round(r.cpu, 3) for r in rs] for name, rs in runs.items()},
                        "startup_s": {name: [round(r.startup, 3) for r in rs] for name, rs in runs.items()
                                      if name != "import floor"},
                        "median_s": {name: round(t, 3) for name, t in med.items()},
                        "cpu_ms_per_step": {name: round(cpu[name] / requests * 1000, 3) for name in runs
                                            if name not in ("one loop", "import floor")},
                        "marginal_cpu_ms_per_step": round(marginal, 3),
                        "vs_ideal": {name: round(t / ideal, 2) for name, t in med.items()
                                     if name not in ("one loop", "import floor")}
                        if ideal else None,
                        "vs_bare": round(med["toolchoice run"] / med["bare httpx"], 2),
                        "vs_aiohttp": round(med["toolchoice run"] / med["aiohttp"], 2) if have_aiohttp else None,
                        # the ideal plus the import floor: what no Python client with these libraries can beat
                        "vs_ideal_plus_import_floor": round(med["toolchoice run"] / (ideal + med["import floor"]), 2)
                        if ideal else None}
                report["cases"].append(case)  # type: ignore[union-attr]
                print(f"loops N={n} × {LOOP_STEPS} steps, K={k}, L={latency * 1000:.0f} ms, ideal {ideal:.2f} s:")
                for name, rs in runs.items():
                    per = LOOP_STEPS if name == "one loop" else 1 if name == "import floor" else requests
                    print(f"  {name:22s} {spread([r.seconds for r in rs])} s"
                          + (f" (×{med[name] / ideal:.2f} ideal)" if ideal and name not in ("one loop", "import floor")
                             else "")
                          + f", CPU {spread([r.cpu / per * 1000 for r in rs], 3)} ms/request"
                          + ("" if name == "import floor" else f", first request at {spread([r.startup for r in rs], 3)} s"))
                if ideal:
                    print(f"  ideal + import floor {ideal + med['import floor']:.2f} s: toolchoice ×"
                          f"{case['vs_ideal_plus_import_floor']}")
                print(f"  toolchoice: marginal CPU {marginal:.3f} ms/step; ×{case['vs_bare']} bare httpx"
                      + (f", ×{case['vs_aiohttp']} aiohttp" if have_aiohttp else "") + " (medians)")
                if (n, k, latency) == LOOP_GOAL_CASE:
                    report["goals"]["vs_ideal"] = (med["toolchoice run"] / ideal, 1.5)  # type: ignore[index]
                if (n, k, latency) == (200, 50, 0.0):
                    report["goals"]["marginal_cpu_ms_per_step"] = (marginal, 2.0)  # type: ignore[index]
            if latency == 0.0 and not goal_only:
                # peak RSS is the largest of the command's processes (wait4: the process and the shards it
                # waited for); with --processes 1 everything is in the one process, which is what "memory
                # flat in N" is about, so both are measured and the goal takes the larger ratio
                for fmt in ("json", "pretty"):
                    for label, extra in (("", ()), (", 1 process", ("--processes", "1"))):
                        def command(n: int) -> Command:
                            base = ours(n, 50, fmt)
                            return Command(base.name, (*base.argv, *extra), base.env)

                        rss = {n: round(max(peak_rss_kib(command(n)) for _ in range(2)) / 1024, 1)
                               for n in sorted({c[0] for c in LOOP_CASES})}
                        report["memory"][fmt + label] = rss  # type: ignore[index]
                        low, high = rss[min(rss)], rss[max(rss)]
                        print(f"peak RSS, --format {fmt}{label}: " + ", ".join(f"N={n} {v} MiB" for n, v in rss.items())
                              + f" (×{high / low:.2f}; ≤ 1.15×: {'pass' if high / low <= 1.15 else 'FAIL'})")
                        key = f"rss_{fmt}"
                        worst = max(high / low, report["goals"].get(key, (0.0, 1.15))[0])  # type: ignore[union-attr]
                        report["goals"][key] = (worst, 1.15)  # type: ignore[index]
        finally:
            server.stop()
    for name, (got, limit) in report["goals"].items():  # type: ignore[union-attr]
        print(f"goal {name}: {got:.2f} (≤ {limit}: {'pass' if got <= limit else 'FAIL'})")
    report["load_average"] = {"start": load_at_start, "end": round(os.getloadavg()[0], 2)}
    print(f"load average (1 min): {load_at_start} at start, {report['load_average']['end']} at end")  # type: ignore[index]
    (RESULTS / "loop_scale.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    main()
