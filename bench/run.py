"""toolchoice benchmarks: startup, throughput and concurrency, as ratios measured in one run.

    python bench/run.py            # full run (a few minutes)
    python bench/run.py --quick    # fewer rounds
    python bench/run.py --rounds 31 --send-rounds 9 --litellm-python /path/to/venv/bin/python
    python bench/send_scale.py     # sending at scale (N=1000, K=10/50, 0/50 ms; RSS at N=200/3000), its own run

Prints a table (measurement, value, baseline, ratio, target, result) with the machine it ran on and
writes everything to bench/results/latest.json. Medians over the rounds; peak RSS is the maximum.
See bench/README.md for what each line measures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import RESULTS, ROOT, median, median_seconds  # noqa: E402

if TYPE_CHECKING:
    from concurrency import SendResult
    from startup import Startup

RSS_LIMIT_MIB = 40.0


@dataclass
class Row:
    measurement: str
    value: str
    baseline: str = ""
    ratio: str = ""
    target: str = ""
    result: str = ""  # pass | FAIL | info | skipped | pending


def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()

    def ver(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "-"

    return {"cpu": cpu, "cores": os.cpu_count(), "usable_cores": usable, "load_average_at_start": load_average(),
            "python": platform.python_version(), "implementation": platform.python_implementation(),
            "os": platform.platform(), "executable": sys.executable,
            "packages": {n: ver(n) for n in ("toolchoice", "typer", "pydantic", "rich", "httpx", "PyYAML")}}


def load_average() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def verdict(ok: bool) -> str:
    return "pass" if ok else "FAIL"


def startup_rows(startup: Startup, imports: dict[str, Any]) -> list[Row]:
    t = {name: median_seconds(r) for name, r in startup.runs.items()}
    rss = startup.rss_mib
    render, floor = t["render json"], t["stack floor"]
    rows = [
        Row("render --format json, cold", ms(render), f"{ms(floor)} import typer, yaml, json",
            f"{render / floor:.2f}×", "≤ 1.1×", verdict(render / floor <= 1.1)),
        Row("  same, vs python -c pass", ms(render), ms(t["python -c pass"]), f"{render / t['python -c pass']:.2f}×",
            "", "info"),
        Row("  same, vs a do-nothing Typer app", ms(render), f"{ms(t['typer app floor'])} bench/typer_app.py",
            f"{render / t['typer app floor']:.2f}×", "", "info"),
        Row("  same, no bytecode cache", ms(t["render json, no bytecode cache"]), ms(render),
            f"{t['render json, no bytecode cache'] / render:.2f}×", "", "info"),
        Row("render (pretty), cold", ms(t["render pretty"]), f"{ms(render)} render json",
            f"{t['render pretty'] / render:.2f}×", "adds rich + own drawing only",
            verdict(not imports["pretty_extra_not_rich"])),
        Row("render json: lazy imports", f"{len(imports['render_json_not_lazy'])} unneeded", "", "",
            "0", verdict(not imports["render_json_not_lazy"])),
        Row("peak RSS, render json", f"{rss['render json']:.1f} MiB", f"{rss['stack floor']:.1f} MiB floor",
            f"{rss['render json'] / rss['stack floor']:.2f}×", f"≤ {RSS_LIMIT_MIB:.0f} MiB",
            verdict(rss["render json"] <= RSS_LIMIT_MIB)),
        Row("peak RSS, render pretty / compare", f"{rss['render pretty']:.1f} / {rss['compare json']:.1f} MiB",
            f"{rss['typer app floor']:.1f} MiB Typer app", "", f"≤ {RSS_LIMIT_MIB:.0f} MiB",
            verdict(max(rss["render pretty"], rss["compare json"]) <= RSS_LIMIT_MIB)),
        Row("compare --providers all json", ms(t["compare json"]), f"{ms(render)} render json",
            f"{t['compare json'] / render:.2f}×", "≤ 1.3×", verdict(t["compare json"] / render <= 1.3)),
    ]
    for name, problem in startup.problems.items():
        rows.append(Row(f"check: {name}", problem, result="FAIL"))
    return rows


def throughput_rows(result: dict[str, Any]) -> list[Row]:
    rows = [Row(f"translate, {result['cases']} cases × {result['providers']} providers",
                f"{result['toolchoice_rps']:,.0f} req/s", f"{result['refused_per_round']} refused", "", "", "info")]
    lite = result["litellm"]
    if "skipped" in lite:
        rows.append(Row("translate vs LiteLLM", lite["skipped"], "", "", "≥ 10×", "skipped"))
        return rows
    rows.append(Row(f"translate vs LiteLLM {lite['version']} (a) all {len(lite['providers'])} providers",
                    f"{lite['toolchoice_rps_shared']:,.0f} req/s", f"{lite['litellm_rps']:,.0f} req/s",
                    f"{lite['ratio']:.1f}×", "≥ 10×", verdict(lite["ratio"] >= 10)))
    if lite.get("ratio_full") is not None:
        rows.append(Row(f"  (b) {len(lite['full_providers'])} providers, tools + tool_choice in every case",
                        f"{lite['toolchoice_rps_full']:,.0f} req/s", f"{lite['litellm_rps_full']:,.0f} req/s",
                        f"{lite['ratio_full']:.1f}×", "", "info"))
    return rows


def concurrency_rows(results: dict[str, SendResult]) -> list[Row]:
    from concurrency import COMPARE_DELAY, COMPARE_PROVIDERS, CONCURRENCY, REPEAT, REPEAT_DELAY

    send, compare, repeat = results["send"], results["compare_send"], results["repeat"]
    rows = []
    if send.status == "ok":
        rows.append(Row(f"send, 1 request, server {COMPARE_DELAY * 1000:.0f} ms", ms(send.median_s), "", "", "",
                        "info"))
    else:
        rows.append(Row("send, 1 request", send.detail, result=send.status))
    name = f"compare --send, {len(COMPARE_PROVIDERS)} providers × {COMPARE_DELAY * 1000:.0f} ms"
    if compare.status == "ok" and send.status == "ok":
        ratio = compare.median_s / send.median_s
        rows.append(Row(name, ms(compare.median_s), f"{ms(send.median_s)} one send", f"{ratio:.2f}×", "≤ 1.2×",
                        verdict(ratio <= 1.2)))
    else:
        rows.append(Row(name, compare.detail or "needs a working send", target="≤ 1.2×",
                        result=compare.status if compare.status != "ok" else "pending"))
    name = f"send --repeat {REPEAT} --concurrency {CONCURRENCY} × {REPEAT_DELAY * 1000:.0f} ms"
    ideal = REPEAT / CONCURRENCY * REPEAT_DELAY
    if repeat.status == "ok":
        rows.append(Row(name, f"{repeat.median_s:.2f} s", f"{ideal:.2f} s ideal", f"{repeat.median_s / ideal:.2f}×",
                        "≤ 1.5 s", verdict(repeat.median_s <= 1.5)))
    else:
        rows.append(Row(name, repeat.detail, target="≤ 1.5 s", result=repeat.status))
    return rows


def print_table(rows: list[Row], info: dict[str, Any]) -> None:
    print(f"machine: {info['cpu']} · {info['usable_cores']}/{info['cores']} cores · {info['implementation']} "
          f"{info['python']} · {info['os']}")
    load = max(info["load_average_at_start"] or 0, info.get("load_average_at_end") or 0)
    busy = load > (info["usable_cores"] or 1)  # the bench itself keeps about one core busy
    print(f"load average (1 min): {info['load_average_at_start']} at start, {info.get('load_average_at_end')} at end"
          + ("  (a busy machine: expect noise)" if busy else ""))
    print("versions: " + ", ".join(f"{k} {v}" for k, v in info["packages"].items()))
    headers = ("measurement", "value", "baseline", "ratio", "target", "result")
    table = [headers] + [(r.measurement, r.value, r.baseline, r.ratio, r.target, r.result) for r in rows]
    widths = [min(max(len(row[i]) for row in table), 60) for i in range(len(headers))]
    for n, row in enumerate(table):
        print("  ".join(cell[:60].ljust(w) for cell, w in zip(row, widths)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))


def print_details(startup: Startup, imports: dict[str, Any], throughput: dict[str, Any],
                  sends: dict[str, SendResult]) -> None:
    fastest = {name: min(r.seconds for r in runs) for name, runs in startup.runs.items()}
    print(f"\nfastest runs: render json {ms(fastest['render json'])}, floor {ms(fastest['stack floor'])} "
          f"({fastest['render json'] / fastest['stack floor']:.2f}×), Typer app {ms(fastest['typer app floor'])}, "
          f"compare {ms(fastest['compare json'])} ({fastest['compare json'] / fastest['render json']:.2f}× render)")
    print("render json imports beyond `import typer, yaml, json` (self ms under -X importtime, inflated):")
    via = imports["imported_via"]
    print("  " + ", ".join(f"{p} {v}" + (f" (via {via[p]})" if p in via else "")
                           for p, v in imports["beyond_floor_by_package_ms"].items()))
    print("  toolchoice's own modules, top: " + ", ".join(f"{n.removeprefix('toolchoice.')} {v}"
                                                          for n, v in list(imports["own_modules_self_ms"].items())[:6]))
    if imports["render_json_not_lazy"]:
        print("  should be lazy: " + ", ".join(imports["render_json_not_lazy"]))
    if imports["pretty_extra_not_rich"]:
        print("  pretty imports beyond rich: " + ", ".join(imports["pretty_extra_not_rich"]))
    us = throughput["toolchoice_us_per_request"]
    slow = sorted(us, key=lambda p: -us[p])[:4]
    print("\ntranslate µs/request, slowest: " + ", ".join(f"{p} {us[p]}" for p in slow))
    lite = throughput["litellm"]
    if "ratio_per_provider" in lite:
        print("LiteLLM µs / toolchoice µs per provider: " + ", ".join(
            f"{p} {r}" for p, r in sorted(lite["ratio_per_provider"].items(), key=lambda x: x[1])))
        if lite.get("excluded_providers"):
            def said(entry: dict[str, Any]) -> str:
                return "; ".join(f"no {k} for {', '.join(f'{c} ×{n}' for c, n in v.items())}"
                                 for k, v in entry["lacks"].items())
            print("left out of (b): " + " | ".join(
                f"{p}: " + ("LiteLLM " + said(lite["missing_litellm"][p]) if p in lite["missing_litellm"] else "")
                + (" toolchoice " + said(lite["missing_toolchoice"][p]) if p in lite["missing_toolchoice"] else "")
                + (" LiteLLM raised" if p in lite["failing"] else "")
                for p in lite["excluded_providers"]))
        if lite["failing"]:
            print("LiteLLM raised for: " + "; ".join(f"{p} ×{v['count']} ({v['first'][:90]})"
                                                       for p, v in lite["failing"].items()))
    from concurrency import COMPARE_DELAY, REPEAT_DELAY

    for name, result in sends.items():
        if result.status == "ok" and result.first_request_s:
            first, last = median(result.first_request_s), median(result.last_request_s)
            delay = REPEAT_DELAY if name == "repeat" else COMPARE_DELAY
            print(f"{name}: first request {first * 1000:.0f} ms after spawn, last request {last * 1000:.0f} ms, "
                  f"exit {result.median_s * 1000:.0f} ms ({(result.median_s - last - delay) * 1000:.0f} ms after "
                  f"the last reply)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds (5 startup/throughput, 2 send)")
    parser.add_argument("--rounds", type=int, help="rounds for startup and throughput (default 21)")
    parser.add_argument("--send-rounds", type=int, help="rounds for the concurrency runs (default 7)")
    parser.add_argument("--scenario", type=Path, default=ROOT / "configs" / "weather.yaml")
    parser.add_argument("--litellm-python", help="an interpreter with litellm installed "
                        "(default: $BENCH_LITELLM_PYTHON, else this one)")
    args = parser.parse_args()
    rounds = args.rounds or (5 if args.quick else 21)
    send_rounds = args.send_rounds or (2 if args.quick else 7)
    RESULTS.mkdir(parents=True, exist_ok=True)

    from concurrency import measure_concurrency
    from startup import analyse_imports, measure_startup
    from throughput import litellm_python, measure_throughput

    info = machine()
    print(f"startup: {rounds} rounds ...", file=sys.stderr)
    startup = measure_startup(args.scenario.resolve(), rounds, 1 if args.quick else 3)
    imports = analyse_imports(args.scenario.resolve(), 1 if args.quick else 3)
    print(f"throughput: {rounds} rounds ...", file=sys.stderr)
    throughput = measure_throughput(rounds, litellm_python(args.litellm_python))
    print(f"concurrency: {send_rounds} rounds ...", file=sys.stderr)
    sends = measure_concurrency(send_rounds)

    info["load_average_at_end"] = load_average()
    rows = startup_rows(startup, imports) + throughput_rows(throughput) + concurrency_rows(sends)
    print_table(rows, info)
    print_details(startup, imports, throughput, sends)
    report = {
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"), "machine": info,
        "settings": {"rounds": rounds, "send_rounds": send_rounds, "scenario": str(args.scenario)},
        "rows": [asdict(r) for r in rows],
        "startup": {name: {"median_ms": round(median_seconds(r) * 1000, 1),
                           "min_ms": round(min(x.seconds for x in r) * 1000, 1),
                           "peak_rss_mib": round(startup.rss_mib[name], 1),
                           "runs_ms": [round(x.seconds * 1000, 1) for x in r]} for name, r in startup.runs.items()},
        "imports": imports, "throughput": throughput,
        "concurrency": {name: {"status": s.status, "detail": s.detail, "median_s": s.median_s if s.runs else None,
                               "runs_s": [round(r.seconds, 3) for r in s.runs],
                               "first_request_s": s.first_request_s, "last_request_s": s.last_request_s}
                        for name, s in sends.items()},
    }
    out = RESULTS / "latest.json"
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    print(f"\nwritten: {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
