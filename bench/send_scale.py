"""Sending at scale, against the physical limit and a bare httpx loop, in the same run.

For N samples, K in flight and a stand-in (tests/servers.py) answering after L seconds, the ideal
wall time is N/K × L: no client can do better. Each case times
- `toolchoice send --repeat N --concurrency K --format json` (the whole command: start-up, sending,
  parsing, judging, output), and
- a bare ``httpx.AsyncClient`` loop sending the same body N times, K at once, reading each JSON
  reply, with the pool settings toolchoice uses (the best this bench found; see bench/README.md),
and reports both against the ideal, plus toolchoice ÷ bare. Memory: peak RSS of `send --repeat`
at N = 200 and N = 3000 (flat memory: the second within 15% of the first).

Run: python bench/send_scale.py [--rounds R] (writes bench/results/send_scale.json).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from concurrency import fake_keys, load_stand_in, write_scenario
from measure import RESULTS, Command, child_env, entry_argv, median, peak_rss_kib, run_once

CASES = [(1000, 10, 0.0), (1000, 50, 0.0), (1000, 10, 0.05), (1000, 50, 0.05)]
MEMORY_N = (200, 3000)

BARE = """
import asyncio, json, sys, time
import httpx
url, n, k, body = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].encode()
headers = {"authorization": "Bearer bench-not-a-key", "content-type": "application/json"}

async def main():
    limits = httpx.Limits(max_connections=k, max_keepalive_connections=k)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        numbers = iter(range(n))
        async def worker():
            for _ in numbers:
                r = await client.post(url, content=body, headers=headers)
                json.loads(await r.aread())
        await asyncio.gather(*(worker() for _ in range(k)))
asyncio.run(main())
"""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    stand_in = load_stand_in()
    entry = entry_argv()
    env = child_env(**fake_keys())
    report: dict[str, object] = {"cases": [], "memory": {}}
    for n, k, latency in CASES:
        server = stand_in.StandIn("openai", default=stand_in.Step.reply("openai", delay=latency))
        server.start()
        try:
            scenario = str(write_scenario({"openai": server}))
            url = server.base_url("openai")
            body = json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "weather?"}]})
            ours = Command("toolchoice", (*entry, "send", scenario, "-p", "openai", "--base-url", url, "--repeat", str(n),
                                          "--concurrency", str(k), "--format", "json", "--retries", "0"), env)
            bare = Command("bare httpx", (sys.executable, "-c", BARE, url + "/chat/completions", str(n), str(k), body), env)
            times: dict[str, list[float]] = {"toolchoice": [], "bare httpx": []}
            for _ in range(args.rounds):
                for command in (ours, bare):
                    server.requests.clear()
                    run, _, _ = run_once(command, timeout=600)
                    if run.returncode not in (0, 4) or len(server.requests) != n:
                        raise SystemExit(f"{command.name}: exit {run.returncode}, {len(server.requests)}/{n} requests")
                    times[command.name].append(run.seconds)
        finally:
            server.stop()
        ideal = n / k * latency
        t_ours, t_bare = median(times["toolchoice"]), median(times["bare httpx"])
        case = {"n": n, "k": k, "latency_ms": latency * 1000, "ideal_s": ideal, "toolchoice_s": round(t_ours, 3),
                "bare_httpx_s": round(t_bare, 3), "toolchoice_vs_bare": round(t_ours / t_bare, 2),
                "toolchoice_vs_ideal": round(t_ours / ideal, 2) if ideal else None,
                "bare_vs_ideal": round(t_bare / ideal, 2) if ideal else None}
        report["cases"].append(case)  # type: ignore[union-attr]
        print(f"N={n} K={k} L={latency * 1000:.0f} ms: toolchoice {t_ours:.2f} s, bare httpx {t_bare:.2f} s "
              f"(×{t_ours / t_bare:.2f}), ideal {ideal:.2f} s"
              + (f" (toolchoice ×{t_ours / ideal:.2f}, bare ×{t_bare / ideal:.2f})" if ideal else ""))
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
    print(f"peak RSS: N={MEMORY_N[0]} {small} MiB, N={MEMORY_N[1]} {large} MiB (×{large / small:.2f})")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "send_scale.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    main()
