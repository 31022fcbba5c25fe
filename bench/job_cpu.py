"""toolchoice's own CPU per job, per `send --repeat` sample and per `run --repeat` step, in process, and
what building a job's HTTP clients costs (``transport.new_async_clients``).

    python bench/job_cpu.py [--rounds 5] [--against /path/to/other/checkout] [--per-request]

Each measurement is a child interpreter that runs the installed click command in process, as the test
suite's runner processes do (tests/runner_pool.py), once untimed and then N times, and prints its CPU
(user + sys, getrusage) per job; every request goes to one `toolchoice mock -p openai` on 127.0.0.1,
started here, which counts them (its jsonl log). The environment of the child is this one plus
PAD_VARIABLES unrelated variables (a test runner's environment holds ~280), or not padded: the
"plain" rows are the baseline of the "padded" ones. With ``--against``, the same children run
another checkout's code too (imported through a ``toolchoice`` link ahead of the installed one on
``sys.path``), rounds interleaved, as the baseline of this one. The floor row is the physical limit of a
request's client CPU on this stack: a bare aiohttp loop, K = 10, the weather request (``/ floor``: each
per-sample and per-step row over it, same environment); ``--per-request`` runs only those rows. Nothing here is
a test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from send_scale import AIOHTTP  # noqa: E402

FLOOR_BODY = json.dumps({"model": "gpt-5.4-mini", "messages": [{"role": "user", "content": "What is the weather?"}],
                         "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {
                             "type": "object", "properties": {"city": {"type": "string"}}}}}]})
PAD_VARIABLES = 240
CHILD = r"""
import contextlib, io, os, resource, sys
import typer
from toolchoice.cli.app import app
command = typer.main.get_command(app)
jobs, argv = int(sys.argv[1]), sys.argv[2:]
def job():
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            command.main(args=argv, prog_name="toolchoice", standalone_mode=True)
        except SystemExit as exc:
            assert exc.code in (0, 4, None), exc.code
job()
before = resource.getrusage(resource.RUSAGE_SELF)
for _ in range(jobs):
    job()
after = resource.getrusage(resource.RUSAGE_SELF)
print((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / jobs)
"""
# a job's clients alone (transport.new_async_clients for K in flight to a plain-http URL), built and closed
CLIENTS = r"""
import asyncio, resource, sys
from toolchoice.providers.core import transport
jobs, in_flight = int(sys.argv[1]), int(sys.argv[2])
async def build(times):
    for _ in range(times):
        for client in transport.new_async_clients(transport.Timeouts(), in_flight, urls=["http://127.0.0.1:1/v1"]):
            await client.aclose()
asyncio.run(build(20))
before = resource.getrusage(resource.RUSAGE_SELF)
asyncio.run(build(jobs))
after = resource.getrusage(resource.RUSAGE_SELF)
print((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / jobs)
"""

# the physical limit of a request's client CPU on this stack: send_scale's bare aiohttp loop (one session, K in
# flight, a chat body), no translation, judging nor redaction; run once untimed, then JOBS times
FLOOR = r"""
import resource, sys
jobs, loop = int(sys.argv[1]), sys.argv[2]
sys.argv = ["floor", *sys.argv[3:]]
exec(loop)
before = resource.getrusage(resource.RUSAGE_SELF)
for _ in range(jobs):
    exec(loop)
after = resource.getrusage(resource.RUSAGE_SELF)
print((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / jobs)
"""
FLOOR_CASE = "floor: bare aiohttp loop, k 10 (per request)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", help="another checkout of toolchoice, run as the baseline")
    parser.add_argument("--per-request", action="store_true",
                        help="only the per-sample and per-step rows, beside the floor (a bare aiohttp loop)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="toolchoice-job-cpu-"))
    codes = {"this": None}
    if args.against:
        (work / "against").mkdir()
        (work / "against" / "toolchoice").symlink_to(Path(args.against).resolve())
        codes = {"against": str(work / "against"), "this": None}
    log = (work / "mock.jsonl").open("w+")
    mock = subprocess.Popen([str(Path(sys.executable).parent / "toolchoice"), "mock", "-p", "openai", "--port", "0",
                             "--format", "jsonl"], stdout=log, stderr=subprocess.STDOUT, cwd=work)
    try:
        url = ""
        for _ in range(100):
            time.sleep(0.05)
            url = Path(log.name).read_text().split("\n", 1)[0].strip()
            if url.startswith("http://"):
                break
        common = ["-p", "openai", "--base-url", url, "--format", "json"]
        cases = [("a job's clients, K = 1 (per job)", 300, ["CLIENTS", "1"]),
                 ("a job's clients, K = 50 (per job)", 300, ["CLIENTS", "50"]),
                 ("send, one sample (per job)", 100, ["send", str(ROOT / "configs/weather.yaml"), *common]),
                 ("send --repeat 400 -k 10 (per sample)", 2,
                  ["send", str(ROOT / "configs/weather.yaml"), *common, "--repeat", "400", "--concurrency", "10"]),
                 ("run --repeat 100 -k 10 (per step)", 2,
                  ["run", str(ROOT / "configs/planner-loop.yaml"), *common, "--repeat", "100", "--concurrency", "10",
                   "--processes", "1"]),
                 (FLOOR_CASE, 2, ["FLOOR", AIOHTTP, f"{url}/chat/completions", "400", "10", FLOOR_BODY])]
        if args.per_request:
            cases = [case for case in cases if "per job" not in case[0]]
        env = dict(os.environ, OPENAI_API_KEY="sk-bench-0123456789abcdefghijklmnop")
        results: dict[tuple[str, str, str], list[float]] = {}
        for _ in range(args.rounds):
            for name, jobs, argv in cases:
                for padded in (False, True):
                    for code, path in codes.items():
                        if name == FLOOR_CASE and code != "this":  # no toolchoice code in it
                            continue
                        child_env = dict(env)
                        if path:
                            child_env["PYTHONPATH"] = path
                        if padded:
                            child_env.update({f"BENCH_PAD_{i}": "x" * 40 for i in range(PAD_VARIABLES)})
                        seen = len(Path(log.name).read_text().splitlines())
                        script, rest = {"CLIENTS": (CLIENTS, argv[1:]), "FLOOR": (FLOOR, argv[1:])}.get(
                            argv[0], (CHILD, argv))
                        out = subprocess.run([sys.executable, "-c", script, str(jobs), *rest], env=child_env,
                                             capture_output=True, text=True, cwd=work, check=True)
                        sent = max(1, len(Path(log.name).read_text().splitlines()) - seen)
                        per_job = float(out.stdout)
                        per_request = per_job * (jobs + 1) / sent  # the untimed job sent as many
                        unit = per_job if "per job" in name else per_request
                        results.setdefault((name, "padded" if padded else "plain", code), []).append(unit * 1000)
        print(f"{'case':46} {'env':7} {'code':8} {'ms CPU':>8}  ratio  / floor")
        for name, _, _ in cases:
            for env_kind in ("plain", "padded"):
                base = median(results[(name, "plain", "this")])
                if args.against and name != FLOOR_CASE:
                    base = median(results[(name, env_kind, "against")])
                floor = median(results[(FLOOR_CASE, env_kind, "this")])
                for code in codes if name != FLOOR_CASE else ("this",):
                    value = median(results[(name, env_kind, code)])
                    over = f"{value / floor:7.2f}" if "per job" not in name else ""
                    print(f"{name:46} {env_kind:7} {code:8} {value:8.3f}  {value / base:5.2f} {over}")
    finally:
        mock.terminate()
        mock.wait()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
