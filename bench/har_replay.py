"""`toolchoice run --replay FILE.har`'s reading of one long conversation (trace_har_replay.replay_file: the scenario
and the recorded replies, before the loop runs): CPU time (``time.process_time``) in a child process per side, medians
of ``--rounds`` rounds, sides interleaved.

The HARs are one openai-python-shaped Chat Completions loop of N calls (a call to get_weather forced at each step,
its result sent back, a text answer at the last): each request holds the whole history before it, as an agent's do,
so the file grows with N². Sides:

- **reading**: ``trace_har.read_har`` of the same file, in the same child: the floor any use of the file pays (the
  JSON read, the entries sorted); each replay is given as a ratio to it;
- **baseline REV** (default: the commit before session 19's work on the replay), extracted with ``git archive`` and
  imported from there;
- **current**: this tree.

Each child also prints a digest of what the reading gave (the scenario, its notes, the recorded replies): the two
sides must agree on it (checked here), so the figures compare the same work.

A conversation is followed over the file's first 200 calls (trace_har.LISTED): a longer file replays 200 steps.

``trace FILE.har``'s listing (``trace_har.import_har``: every call imported and its reply judged, the conversations
followed) is timed the same way, in a child of its own (``--trace``), its digest the listing's JSON.

    python bench/har_replay.py [--steps 50,100,200] [--rounds 3] [--baseline 75d1602d] [--trace]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from loop_steps import baseline_tree

WEATHER = {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}},
           "required": ["city"]}
TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city",
                                           "parameters": WEATHER}},
         {"type": "function", "function": {"name": "get_time", "description": "Local time", "parameters": {
             "type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}}}]


def har(steps: int) -> dict:
    """A HAR 1.2 of one Chat Completions loop of ``steps`` calls (a made-up key in each request's header)."""
    messages = [{"role": "system", "content": "You answer weather questions. Be brief."},
                {"role": "user", "content": "What is the weather in every city?"}]
    entries = []
    for n in range(1, steps + 1):
        last = n == steps
        body = json.dumps({"model": "gpt-4o-mini", "messages": messages, "tools": TOOLS,
                           "tool_choice": "auto" if last else "required"})
        call = {"id": f"call_{n}", "type": "function",
                "function": {"name": "get_weather", "arguments": json.dumps({"city": f"city {n}"})}}
        message = {"role": "assistant", "content": "done"} if last else {"role": "assistant", "content": None,
                                                                          "tool_calls": [call]}
        text = json.dumps({"id": f"chatcmpl-{n}", "object": "chat.completion", "model": "gpt-4o-mini",
                           "choices": [{"index": 0, "message": message,
                                        "finish_reason": "stop" if last else "tool_calls"}],
                           "usage": {"prompt_tokens": 10 * n, "completion_tokens": 5, "total_tokens": 10 * n + 5}})
        entries.append({
            "startedDateTime": "2026-11-28T02:00:00.000Z", "time": 3,
            "request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                        "httpVersion": "HTTP/1.1",
                        "cookies": [], "headers": [{"name": "Authorization", "value": "Bearer not-a-key"}],
                        "queryString": [], "headersSize": -1, "bodySize": len(body),
                        "postData": {"mimeType": "application/json", "text": body}},
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
                         "content": {"size": len(text), "mimeType": "application/json", "text": text},
                         "redirectURL": "", "headersSize": -1, "bodySize": len(text)},
            "cache": {}, "timings": {"send": 0, "wait": 3, "receive": 0}})
        messages = messages + [{"role": "assistant", "tool_calls": [call]},
                               {"role": "tool", "tool_call_id": call["id"], "content": f"-{n} C, snow"}]
    return {"log": {"version": "1.2", "creator": {"name": "bench/har_replay.py", "version": "1"}, "entries": entries}}


CHILD = r"""
import hashlib, json, sys, time
from pathlib import Path
from toolchoice.providers.core import trace_har, trace_har_replay
warm, path = Path(sys.argv[1]), Path(sys.argv[2])
trace_har_replay.replay_file(warm, None, "openai")  # imports, caches
start = time.process_time()
trace_har.read_har(path, "openai")
reading = time.process_time() - start
trace_har._redactor.cache_clear()
start = time.process_time()
if sys.argv[3] == "trace":  # trace FILE.har's listing
    said = json.dumps(trace_har.import_har(path).to_json(), sort_keys=True)
    took = time.process_time() - start
else:
    scenario, replay = trace_har_replay.replay_file(path, None, "openai")
    took = time.process_time() - start
    (transcript,) = replay.transcripts
    said = repr((scenario, transcript.bodies, transcript.replies))
digest = hashlib.sha256(said.encode()).hexdigest()[:16]
print(json.dumps({"reading": reading, "replay": took, "digest": digest}))
"""


def child(warm: Path, path: Path, tree: Path | None, mode: str = "replay") -> dict:
    env = dict(os.environ, TOOLCHOICE_LIMIT_FILE_BYTES=str(256 * 1024 * 1024))
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    out = subprocess.run([sys.executable, "-c", CHILD, str(warm), str(path), mode], env=env, check=True,
                         capture_output=True, text=True, cwd=tempfile.gettempdir())
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="50,100,200")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default="75d1602d")
    parser.add_argument("--trace", action="store_true", help="also time trace FILE.har's listing")
    args = parser.parse_args()
    modes = ["replay", "trace"] if args.trace else ["replay"]
    sizes = [int(n) for n in args.steps.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        base = baseline_tree(args.baseline, Path(folder))
        files = {n: Path(folder) / f"loop-{n}.har" for n in [3, *sizes]}
        for n, path in files.items():
            path.write_text(json.dumps(har(n)), encoding="utf-8")
        megabytes = {n: path.stat().st_size / 1e6 for n, path in files.items()}
        sides = {f"baseline {args.baseline}": base, "current": None}
        runs: dict[tuple[str, str, int], list[dict]] = {(mode, side, n): [] for mode in modes for side in sides
                                                         for n in sizes}
        for _ in range(args.rounds):
            for mode in modes:
                for n in sizes:
                    for side, tree in sides.items():
                        runs[mode, side, n].append(child(files[3], files[n], tree, mode))
    for mode in modes:
        what = "run --replay FILE.har's reading" if mode == "replay" else "trace FILE.har's listing"
        print(f"{what}, CPU s in a child, median of {args.rounds} rounds; x reading: its time over read_har's in "
              "the same child")
        print(f"| steps | MB | side | reading s | {mode} s | x reading | ms per step | same output |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for n in sizes:
            digests = {r["digest"] for side in sides for r in runs[mode, side, n]}
            for side in sides:
                done = runs[mode, side, n]
                reading = statistics.median(r["reading"] for r in done)
                took = statistics.median(r["replay"] for r in done)
                print(f"| {n} | {megabytes[n]:.1f} | {side} | {reading:.3f} | {took:.3f} | "
                      f"{took / reading:.1f} | {took / n * 1000:.1f} | {'yes' if len(digests) == 1 else 'NO'} |")
        for side in sides:  # growth: a linear reading doubles with twice the steps, a quadratic one quadruples
            medians = [statistics.median(r["replay"] for r in runs[mode, side, n]) for n in sizes]
            print(f"{mode}, {side}: " + "; ".join(f"{b} steps / {a} = {mb / ma:.2f}x (the file "
                                                  f"{megabytes[b] / megabytes[a]:.2f}x)" for (a, ma), (b, mb)
                                                  in zip(zip(sizes, medians), zip(sizes[1:], medians[1:]))))

if __name__ == "__main__":
    main()
