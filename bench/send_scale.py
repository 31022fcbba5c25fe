"""Sending at scale, against the physical limit and a bare httpx loop, in the same run.

For N samples, K in flight and a stand-in (tests/servers.py) answering after L seconds, the ideal
wall time is N/K × L: no client can do better. Each case times
- `toolchoice send --repeat N --concurrency K --format json` (the whole command: start-up, sending,
  parsing, judging, output), and
- a bare ``httpx.AsyncClient`` loop sending the same body N times, K at once, reading each JSON
  reply, twice: with the best pool settings this bench found (what toolchoice uses: ceil(K/5)
  clients of at most 5 connections, keep-alive = connections; httpcore scans its whole pool on
  every request, so small pools win) and, for reference, naively (one client of K connections),
and reports them against the ideal, plus toolchoice ÷ best bare. Memory: peak RSS of
`send --repeat` at N = 200 and N = 3000 (flat memory: the second within 15% of the first).

Targets (issue 17): N=1000, K=50, 50 ms: ≤ 1.5× the ideal and ≤ 1.3× the best bare loop;
RSS at N=3000 ≤ 1.15× N=200.

Run: python bench/send_scale.py [--rounds R] (writes bench/results/send_scale.json).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from concurrency import fake_keys, load_stand_in, write_scenario
from toolchoice.providers.core.transport import CONNECTIONS_PER_CLIENT
from measure import RESULTS, Command, child_env, entry_argv, median, peak_rss_kib, run_once

CASES = [(1000, 10, 0.0), (1000, 50, 0.0), (1000, 10, 0.05), (1000, 50, 0.05)]
MEMORY_N = (200, 3000)
GOAL_CASE = (1000, 50, 0.05)

BARE = """
import asyncio, json, sys, time
import httpx
url, n, k, body, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].encode(), int(sys.argv[5])
headers = {"authorization": "Bearer bench-not-a-key", "content-type": "application/json"}

async def main():
    count = -(-k // per)
    size = -(-k // count)
    limits = httpx.Limits(max_connections=size, max_keepalive_connections=size)
    clients = [httpx.AsyncClient(limits=limits, timeout=60) for _ in range(count)]
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    load_at_start = round(os.getloadavg()[0], 2)
    stand_in = load_stand_in()
    entry = entry_argv()
    env = child_env(**fake_keys())
    report: dict[str, object] = {"cases": [], "memory": {}, "goals": {}}
    for n, k, latency in CASES:
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
            commands = (ours, bare, naive) if k > CONNECTIONS_PER_CLIENT else (ours, bare)
            times: dict[str, list[float]] = {c.name: [] for c in commands}
            for _ in range(args.rounds):
                for command in commands:
                    server.requests.clear()
                    run, _, _ = run_once(command, timeout=600)
                    if run.returncode not in (0, 4) or len(server.requests) != n:
                        raise SystemExit(f"{command.name}: exit {run.returncode}, {len(server.requests)}/{n} requests")
                    times[command.name].append(run.seconds)
        finally:
            server.stop()
        ideal = n / k * latency
        t_ours, t_bare = median(times["toolchoice"]), median(times["bare httpx"])
        t_naive = median(times["bare httpx, one client"]) if "bare httpx, one client" in times else None
        case = {"n": n, "k": k, "latency_ms": latency * 1000, "ideal_s": ideal, "toolchoice_s": round(t_ours, 3),
                "runs_s": {name: [round(t, 3) for t in ts] for name, ts in times.items()},
                "bare_httpx_s": round(t_bare, 3), "toolchoice_vs_bare": round(t_ours / t_bare, 2),
                "bare_one_client_s": round(t_naive, 3) if t_naive else None,
                "toolchoice_vs_ideal": round(t_ours / ideal, 2) if ideal else None,
                "bare_vs_ideal": round(t_bare / ideal, 2) if ideal else None}
        report["cases"].append(case)  # type: ignore[union-attr]
        print(f"N={n} K={k} L={latency * 1000:.0f} ms: toolchoice {t_ours:.2f} s, bare httpx {t_bare:.2f} s "
              f"(×{t_ours / t_bare:.2f}), ideal {ideal:.2f} s"
              + (f" (toolchoice ×{t_ours / ideal:.2f}, bare ×{t_bare / ideal:.2f})" if ideal else "")
              + (f"; bare httpx, one client of {k}: {t_naive:.2f} s" if t_naive else ""))
        if (n, k, latency) == GOAL_CASE:
            goals = {"vs_ideal": (t_ours / ideal, 1.5), "vs_bare": (t_ours / t_bare, 1.3)}
            report["goals"].update(goals)  # type: ignore[union-attr]
            print("  goal: " + ", ".join(f"{name} {got:.2f}× (≤ {limit}×: {'pass' if got <= limit else 'FAIL'})"
                                         for name, (got, limit) in goals.items()))
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


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    main()
