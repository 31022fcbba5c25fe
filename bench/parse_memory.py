"""What reading a reply holds: traced memory (tracemalloc) of `send` and `parse` on large replies, and the CPU
each sample costs, against a baseline commit in the same run.

Each case runs in a child process, once for the baseline (``git archive REV``, imported from there) and once for
this tree, rounds alternating so machine drift hits both:

- ``send 1 (ascii)``, ``send 1 (emoji)``: ``jobs.send`` of one reply carrying one call with ~4 MB of arguments
  (an ``httpx.MockTransport``: no socket), ASCII only, and the same with one emoji in it (a Python ``str`` then
  takes 4 bytes a character: the body as text weighs 4× its bytes). Peak during the send, and what the result
  still holds afterwards (the sample a Python caller keeps).
- ``send --repeat 200``: 200 replies of ~200 KB, 10 in flight, tallied as they complete: the peak.
- ``send --repeat 50 --raw``: every raw body kept for the output (``Collector.raws``): what the result holds.
- ``send --stream``: one streamed reply of ~4 MB (SSE, 1,000 characters of arguments an event): peak and held.
- ``parse -f json``: the command in-process on an 8 MB saved reply (stdout to a discarding writer): the peak.
- ``parse -f json, process``: the same command without tracemalloc, the process's high-water mark (``ru_maxrss``,
  which includes making the 8 MB file in the child: ``before``, the high-water mark before the command ran), and
  the command's CPU time (``time.process_time``, its first run in the process: imports included).
- ``dumps_indented CPU / document``: ``json_text.dumps_indented`` alone (``time.process_time``, best of 5) on a
  loop step, a 4-step loop, 20, 40 and 200 loops (``run --repeat N``'s document; 200: 7 MB; 20 is below the
  size from which json_text writes in pieces, 40 above it) and the 8 MB reply's document; ``json_cpu:peak``: the
  traced peak of one call on each (the text it returns included).
- ``CPU / sample``: ``jobs.send --repeat 2000`` of the recorded small reply (tests/data/responses/openai/
  openai-chat-single-strict.json), 10 in flight, ``time.process_time`` ÷ 2000, the best of 3 in the child;
  with ``--callgrind``, the instructions a sample costs (valgrind's count for 450 samples less 50's, ÷ 400, one in
  flight and the garbage collector off, so that the order of the event loop's steps and where a collection falls
  do not move the count: runs of one tree at 10 in flight with collections differed by 3-4%),
  without and with ``--save`` (which decodes the body's text from its bytes): the machine's noise
  (±5% in CPU time on a shared 2-core box) does not reach it.

The bodies are the stand-in's own ``bytes`` (an ``httpx.MockTransport`` hands them over as they are), made before
the trace starts: what a tree holds beyond them is what is counted, in both trees alike.

The ``body`` column is one reply's size: the floor for a held reply is its bytes (a caller may save them as
received: nothing less can be kept) plus its parsed calls. Traced memory counts Python's allocations (not RSS).

    python bench/parse_memory.py [--rounds 3] [--baseline main] [--callgrind]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from loop_steps import baseline_tree

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import asyncio, contextlib, io, json, os, sys, time, tracemalloc
import httpx
case = sys.argv[1]
os.environ["OPENAI_API_KEY"] = "sk-bench-0123456789abcdef"
from toolchoice.providers.core import jobs, runner
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.scenario import load_scenario_text

SCENARIO = load_scenario_text('''
tools:
  - {name: write_file, parameters: {type: object, properties: {path: {type: string}, lines: {type: array}}}}
tool_choice: required
messages: [{role: user, content: write it}]
''', "bench.yaml")

def arguments(size, emoji=False):
    line = "x" * 60
    lines = [line] * (size // 63)
    if emoji:
        lines[len(lines) // 2] = "done \U0001F642"
    return json.dumps({"path": "out.txt", "lines": lines}, ensure_ascii=False)

def body(size, emoji=False):
    return json.dumps({"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None,
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "write_file",
        "arguments": arguments(size, emoji)}}]}}], "usage": {"prompt_tokens": 10, "completion_tokens": 5}},
        ensure_ascii=False).encode("utf-8")

def sse(size):
    def chunk(delta, finish=None):
        return "data: " + json.dumps({"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o",
                                      "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}) + "\n\n"
    text = arguments(size)
    out = [chunk({"role": "assistant", "content": None, "tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                  "function": {"name": "write_file", "arguments": ""}}]})]
    out += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": text[i:i + 1000]}}]})
            for i in range(0, len(text), 1000)]
    out += [chunk({}, "tool_calls"), "data: [DONE]\n\n"]
    return "".join(out).encode()

def settings(content, kind="application/json", concurrency=1):
    def answer(request):
        return httpx.Response(200, headers={"content-type": kind}, content=content)
    return runner.SendSettings(retries=0, concurrency=concurrency, transport=httpx.MockTransport(answer))

def traced(work):
    import gc
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    result = work()
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return result, peak, held

def send(content, repeat=1, stream=False, raw=False, concurrency=1):
    [translation] = jobs.translations(SCENARIO, ["openai"], RenderOptions(stream=stream))
    kind = "text/event-stream" if stream else "application/json"
    s = settings(content, kind, concurrency)
    jobs.send(SCENARIO, translation, settings=s)  # warm: imports, caches
    result, peak, held = traced(lambda: jobs.send(SCENARIO, translation, repeat=repeat, settings=s, raw=raw))
    assert result.code == 0, result.code
    return {"peak": peak, "held": held, "bytes": len(content)}

if case == "send1":
    print(json.dumps(send(body(4_000_000))))
elif case == "send1e":
    print(json.dumps(send(body(4_000_000, emoji=True))))
elif case == "repeat":
    print(json.dumps(send(body(200_000), repeat=200, concurrency=10)))
elif case == "raw":
    print(json.dumps(send(body(200_000), repeat=50, raw=True, concurrency=10)))
elif case == "stream":
    print(json.dumps(send(sse(4_000_000), stream=True)))
def reply_file():  # an 8 MB reply written to a file, and a stdout that keeps nothing: what `parse` reads and writes
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "reply.json")
    with open(path, "wb") as f:
        f.write(body(8_000_000))
    class Discard(io.StringIO):
        def write(self, text):
            return len(text)
    return path, Discard

if case == "parse":
    from toolchoice.cli.app import run
    path, Discard = reply_file()
    def once():
        with contextlib.redirect_stdout(Discard()):
            return run(["parse", path, "-p", "openai", "-f", "json"])
    once()
    code, peak, held = traced(once)
    assert code == 0, code
    print(json.dumps({"peak": peak, "held": held, "bytes": os.path.getsize(path)}))
elif case == "parse_rss":  # the process's high-water mark (ru_maxrss), no tracemalloc: what the machine gives
    import resource
    from toolchoice.cli.app import run
    path, Discard = reply_file()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = time.process_time()
    with contextlib.redirect_stdout(Discard()):
        assert run(["parse", path, "-p", "openai", "-f", "json"]) == 0
    cpu = time.process_time() - start
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"maxrss": after, "before": before, "parse_us": cpu * 1e6, "bytes": os.path.getsize(path)}))
elif case == "json_cpu":  # json_text.dumps_indented alone, on the documents toolchoice writes: CPU a document
    from toolchoice.providers.core.json_text import dumps_indented
    step = {"step": 1, "requested_tool_choice": "auto", "latency_ms": 500.9, "offered_tools": ["get_weather"],
            "request": {"method": "POST", "url": "http://127.0.0.1:1/v1/chat/completions",
                        "headers": {"Authorization": "Bearer $OPENAI_API_KEY"},
                        "body": {"model": "gpt-4o-mini", "temperature": 0.2,
                                 "messages": [{"role": "user", "content": "h\u00e9"}]}},
            "verdict": {"category": "obeyed", "calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]},
            "tokens": {"input": 192, "output": 76}, "error": None, "text": None}
    loop = {"runs": [json.loads(json.dumps(step)) for _ in range(4)]}
    many = {"runs": [json.loads(json.dumps(loop)) for _ in range(200)]}
    reply = {"reply": {"calls": [{"name": "write_file", "arguments": json.loads(arguments(8_000_000))}]}}
    out = {}
    docs = (("step", step, 2000), ("loop", loop, 500), ("repeat20", {"runs": many["runs"][:20]}, 50),
            ("repeat40", {"runs": many["runs"][:40]}, 25), ("repeat200", many, 3), ("reply8", reply, 3))
    if sys.argv[3:] == ["peak"]:  # traced memory of one call instead (the documents made before the trace starts)
        for name, doc, _ in docs:
            _, peak, _ = traced(lambda: dumps_indented(doc))
            out[name + "_peak"] = peak
        print(json.dumps(out))
        sys.exit(0)
    for name, doc, times in docs:
        dumps_indented(doc)
        best = None
        for _ in range(5):
            start = time.process_time()
            for _ in range(times):
                dumps_indented(doc)
            per = (time.process_time() - start) / times
            best = per if best is None else min(best, per)
        out[name + "_us"] = best * 1e6
    print(json.dumps(out))
elif case == "cpu":
    here = os.path.join(sys.argv[2], "tests", "data", "responses", "openai", "openai-chat-single-strict.json")
    content = open(here, "rb").read()
    [translation] = jobs.translations(SCENARIO, ["openai"])
    s = settings(content, concurrency=10)
    jobs.send(SCENARIO, translation, repeat=50, settings=s)
    best = None
    for _ in range(3):
        start = time.process_time()
        jobs.send(SCENARIO, translation, repeat=2000, settings=s)
        per = (time.process_time() - start) / 2000
        best = per if best is None else min(best, per)
    print(json.dumps({"cpu_us": best * 1e6}))
elif case == "ir":  # under callgrind: one send of N samples; two Ns, subtracted, give the instructions a sample costs
    import tempfile
    here = os.path.join(sys.argv[2], "tests", "data", "responses", "openai", "openai-chat-single-strict.json")
    [translation] = jobs.translations(SCENARIO, ["openai"])
    save = tempfile.mkdtemp() if sys.argv[4] == "save" else None
    import gc
    gc.disable()  # a collection falls where allocations put it: one more or less moves the count by a percent
    jobs.send(SCENARIO, translation, repeat=int(sys.argv[3]), settings=settings(open(here, "rb").read(), concurrency=1),
              save=save)
"""

CASES = {"send1": "send 1 (ascii, 4 MB)", "send1e": "send 1 (emoji, 4 MB)", "repeat": "send --repeat 200 (200 KB)",
         "raw": "send --repeat 50 --raw (200 KB)", "stream": "send --stream (4 MB)", "parse": "parse -f json (8 MB)",
         "parse_rss": "parse -f json (8 MB), process", "cpu": "CPU / sample (small reply)",
         "json_cpu": "dumps_indented CPU / document", "json_cpu:peak": "dumps_indented peak / document"}
KEYS = {"cpu": ["cpu_us"], "parse_rss": ["maxrss", "before", "parse_us"],
        "json_cpu": ["step_us", "loop_us", "repeat20_us", "repeat40_us", "repeat200_us", "reply8_us"],
        "json_cpu:peak": ["repeat20_peak", "repeat40_peak", "repeat200_peak", "reply8_peak"]}


def child(case: str, path: Path | None) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    if path is not None:
        env["PYTHONPATH"] = str(path)
    case, *extra = case.split(":")  # json_cpu:peak
    out = subprocess.run([sys.executable, "-c", CHILD, case, str(ROOT), *extra], env=env, check=True,
                         capture_output=True, text=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout)


def instructions(path: Path | None, samples: int, mode: str = "plain") -> int:
    """Instructions callgrind counts for the ``ir`` case of ``samples`` samples (start-up included; hashing fixed,
    so both trees' dicts and sets lay out alike)."""
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()} | {"PYTHONHASHSEED": "0"}
    if path is not None:
        env["PYTHONPATH"] = str(path)
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", CHILD,
                          "ir", str(ROOT), str(samples), mode], env=env, check=True, capture_output=True, text=True,
                         cwd=tempfile.gettempdir())
    return int(re.search(r"Collected : (\d+)", out.stderr).group(1))


def mib(n: float) -> str:
    return f"{n / 2**20:.1f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--callgrind", action="store_true", help="also count instructions a sample costs (valgrind)")
    args = parser.parse_args()
    cases = [case for case in args.cases.split(",") if case]
    results: dict[str, dict[str, list[dict[str, float]]]] = {c: {"baseline": [], "current": []} for c in cases}
    counted: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        base = baseline_tree(args.baseline, Path(folder))
        for _ in range(args.rounds):
            for case in cases:
                results[case]["baseline"].append(child(case, base))
                results[case]["current"].append(child(case, None))
        if args.callgrind and shutil.which("valgrind"):
            for mode in ("plain", "save"):
                for side, path in (("baseline", base), ("current", None)):
                    counted[f"{side} {mode}"] = (instructions(path, 450, mode) - instructions(path, 50, mode)) / 400
    print(f"{'case':<34} {'measure':<8} {'baseline':>12} {'current':>12} {'ratio':>7} {'body':>10}")
    for case in cases:
        sides = results[case]
        for key in KEYS.get(case, ["peak", "held"]):
            before = statistics.median(r[key] for r in sides["baseline"])
            after = statistics.median(r[key] for r in sides["current"])
            ratio = after / before if before else float("nan")
            if key.endswith("_us"):
                label = "µs" if key == "cpu_us" else key[:-3]
                print(f"{CASES[case]:<34} {label:<8} {before:>12.1f} {after:>12.1f} {ratio:>7.2f} {'':>10}")
            else:
                size = sides["current"][0].get("bytes", 0)
                label, body = key.replace("_peak", ""), mib(size) if size else ""
                print(f"{CASES[case]:<34} {label:<8} {mib(before):>12} {mib(after):>12} {ratio:>7.2f} {body:>10}")
    for mode in ("plain", "save") if counted else ():
        before, after = counted[f"baseline {mode}"], counted[f"current {mode}"]
        label = "Ir / sample" + (" (--save)" if mode == "save" else " (callgrind)")
        print(f"{label:<34} {'Ir':<8} {before:>12,.0f} {after:>12,.0f} {after / before:>7.3f}")


if __name__ == "__main__":
    main()
