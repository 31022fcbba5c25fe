"""`toolchoice run --replay FILE.har`'s reading of one long conversation (trace_har_replay.replay_file: the scenario
and the recorded replies, before the loop runs): CPU time (``time.process_time``) in a child process per side, medians
of ``--rounds`` rounds, sides interleaved.

The HARs are one openai-python-shaped Chat Completions loop of N calls, each request holding the whole history
before it, as an agent's do, so the file grows with N²: ``--shape plain`` (a call to get_weather forced at each step,
its result sent back, a text answer at the last) or ``--shape agent`` (``agent()``: eight tools, a sentence and one or
two calls a reply, results of ~200 characters, tool_choice required then auto). Sides:

- **reading**: ``trace_har.read_har`` of the same file, in the same child: the floor any use of the file pays (the
  JSON read, the entries sorted); each replay is given as a ratio to it;
- **baseline REV** (default: the commit before session 19's work on the replay), extracted with ``git archive`` and
  imported from there (``--baseline none``: this tree alone);
- **current**: this tree.

Each child also prints a digest of what the reading gave (the scenario, its notes, the recorded replies): the two
sides must agree on it (checked here), so the figures compare the same work.

A conversation is followed over the file's first 200 calls (trace_har.LISTED): a longer file replays 200 steps.

Each child also counts, without timing, the messages the shared readers read (``msgs read``): the histories of the
bodies ``saved_request.read_request`` (each call's import) and ``har_conversations.follow`` (each call judged as the
mock judges it) were given, beside the messages of the conversation (``msgs``): a reading that reads each message
once has the two alike; one that reads each call's whole history has msgs read ≈ msgs × steps / 2. ``loader read``:
the messages the scenario loader read (``scenario_messages._assistant`` and ``_tool_result`` called) over the imports
(trial 21d: each call's read on from the previous call's, ``saved_prefix``: ≈ msgs).

``trace FILE.har``'s listing (``trace_har.import_har``: every call imported and its reply judged, the conversations
followed) is timed the same way, in a child of its own (``--trace``), its digest the listing's JSON.

    python bench/har_replay.py [--steps 50,100,200] [--rounds 3] [--baseline 75d1602d|none] [--trace]
                               [--shape plain|agent|api-openai|api-openai-responses|api-anthropic|api-gemini|api-bedrock|
                               api-cohere|api-ollama]
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


def entry(body: str, text: str) -> dict:
    """One HAR 1.2 entry: a Chat Completions POST of ``body`` (a made-up key in its header) answered 200 ``text``."""
    return {
        "startedDateTime": "2026-11-28T02:00:00.000Z", "time": 3,
        "request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "httpVersion": "HTTP/1.1",
                    "cookies": [], "headers": [{"name": "Authorization", "value": "Bearer not-a-key"}],
                    "queryString": [], "headersSize": -1, "bodySize": len(body),
                    "postData": {"mimeType": "application/json", "text": body}},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
                     "content": {"size": len(text), "mimeType": "application/json", "text": text},
                     "redirectURL": "", "headersSize": -1, "bodySize": len(text)},
        "cache": {}, "timings": {"send": 0, "wait": 3, "receive": 0}}


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
        entries.append(entry(body, text))
        messages = messages + [{"role": "assistant", "tool_calls": [call]},
                               {"role": "tool", "tool_call_id": call["id"], "content": f"-{n} C, snow"}]
    return {"log": {"version": "1.2", "creator": {"name": "bench/har_replay.py", "version": "1"}, "entries": entries}}


AGENT_TOOLS = [{"type": "function", "function": {
    "name": name, "description": f"{words} (an agent's tool, described as SDKs' users describe theirs)",
    "parameters": {"type": "object", "properties": {arg: {"type": "string", "description": f"the {arg}"}
                                                    for arg in args}, "required": list(args[:1])}}}
    for name, words, args in [("search_docs", "Search the documentation", ("query", "section")),
                              ("read_file", "Read a file of the repository", ("path", "encoding")),
                              ("list_dir", "List a folder", ("path",)),
                              ("run_tests", "Run the test suite", ("selector", "timeout")),
                              ("get_weather", "Current weather for a city", ("city", "units")),
                              ("send_email", "Send an email", ("to", "subject", "body")),
                              ("create_ticket", "Open a ticket", ("title", "body")),
                              ("calculator", "Evaluate an arithmetic expression", ("expression",))]]


def agent(steps: int) -> dict:
    """A HAR of one agent's Chat Completions loop of ``steps`` calls, as openai-python's users send theirs: a system
    prompt, eight tools, each reply a sentence and one or two calls (two at every third step), each result ~200
    characters of JSON text, a text answer at the last; tool_choice ``required`` at step 1, ``auto`` after."""
    messages = [{"role": "system", "content": "You are a coding agent. Use the tools to answer; say what you do "
                                              "in one sentence before each call. " * 3},
                {"role": "user", "content": "Find why the weather report test fails, fix it, and email the team."}]
    entries = []
    for n in range(1, steps + 1):
        last = n == steps
        body = json.dumps({"model": "gpt-4o-mini", "messages": messages, "tools": AGENT_TOOLS,
                           "tool_choice": "required" if n == 1 else "auto", "temperature": 0.2})
        tools = [AGENT_TOOLS[(n + i) % len(AGENT_TOOLS)]["function"] for i in range(2 if n % 3 == 0 else 1)]
        calls = [{"id": f"call_{n}_{i}", "type": "function", "function": {"name": tool["name"], "arguments": json.dumps(
            {arg: f"{arg} value {n}" for arg in tool["parameters"]["properties"]})}} for i, tool in enumerate(tools)]
        message = ({"role": "assistant", "content": f"All {n} steps done: the report test passes."} if last else
                   {"role": "assistant", "content": f"Step {n}: I call {', '.join(t['name'] for t in tools)}.",
                    "tool_calls": calls})
        text = json.dumps({"id": f"chatcmpl-{n}", "object": "chat.completion", "model": "gpt-4o-mini-2024-07-18",
                           "choices": [{"index": 0, "message": message,
                                        "finish_reason": "stop" if last else "tool_calls"}],
                           "usage": {"prompt_tokens": 120 * n, "completion_tokens": 30, "total_tokens": 120 * n + 30}})
        entries.append(entry(body, text))
        messages = messages + [message] + [
            {"role": "tool", "tool_call_id": call["id"], "content": json.dumps(
                {"ok": True, "step": n, "tool": call["function"]["name"],
                 "output": f"line {n}: " + "the output of the tool, as a tool prints it. " * 2})} for call in calls]
    return {"log": {"version": "1.2", "creator": {"name": "bench/har_replay.py", "version": "1"}, "entries": entries}}


def _api_loops() -> dict:
    """tests/har_loops.py's loop recorded on each API (``api-anthropic``, ...): a sentence and a call a reply, the
    result sent back, in the API's own shapes; replayed on openai as the other shapes are (each call read by its
    API's reader)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from har_loops import api_loop

    return {f"api-{api}": (lambda n, api=api: api_loop(api, n, "not-a-key"))
            for api in ("openai", "openai-responses", "anthropic", "gemini", "bedrock", "cohere", "ollama")}


SHAPES = {"plain": har, "agent": agent, **_api_loops()}


CHILD = r"""
import hashlib, json, sys, time
from pathlib import Path
from toolchoice.providers.core import trace_har, trace_har_replay
warm, path = Path(sys.argv[1]), Path(sys.argv[2])
trace_har_replay.replay_file(warm, None, "openai")  # imports, caches
from toolchoice.providers.core import saved_request
read = [0]
def counted(function, messages):
    def wrapper(*args, **kwargs):
        read[0] += messages(args)
        return function(*args, **kwargs)
    return wrapper
def history(body):
    if not isinstance(body, dict):
        return 0
    listed = body.get("messages", body.get("input", body.get("contents")))
    return len(listed) if isinstance(listed, list) else 0
saved_request.read_request = counted(saved_request.read_request, lambda args: history(args[3]["body"]))
exchanges = trace_har.exchanges
def exchanges_counted(*args, **kwargs):
    for exchange in exchanges(*args, **kwargs):
        read[0] += history(exchange.body)
        yield exchange
trace_har.exchanges = exchanges_counted
from toolchoice.providers.core import scenario_messages
loader = [0]  # the messages the scenario loader read (an assistant turn, a tool result), each call's check
def loaded(function):
    def wrapper(*args, **kwargs):
        loader[0] += 1
        return function(*args, **kwargs)
    return wrapper
scenario_messages._assistant = loaded(scenario_messages._assistant)
scenario_messages._tool_result = loaded(scenario_messages._tool_result)
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
print(json.dumps({"reading": reading, "replay": took, "digest": digest, "read": read[0], "loader": loader[0]}))
"""


def child(warm: Path, path: Path, tree: Path | None, mode: str = "replay") -> dict:
    env = dict(os.environ, TOOLCHOICE_LIMIT_FILE_BYTES=str(512 * 1024 * 1024))
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
    parser.add_argument("--shape", choices=sorted(SHAPES), default="plain")
    args = parser.parse_args()
    modes = ["replay", "trace"] if args.trace else ["replay"]
    sizes = [int(n) for n in args.steps.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        base = None if args.baseline == "none" else baseline_tree(args.baseline, Path(folder))
        files = {n: Path(folder) / f"loop-{n}.har" for n in [3, *sizes]}
        messages = {}
        for n, path in files.items():
            made = SHAPES[args.shape](n)
            body = json.loads(made["log"]["entries"][min(n, 200) - 1]["request"]["postData"]["text"])
            history = body.get("messages", body.get("input", body.get("contents")))
            messages[n] = len(history)  # the conversation's, up to its last replayed call
            path.write_text(json.dumps(made), encoding="utf-8")
        megabytes = {n: path.stat().st_size / 1e6 for n, path in files.items()}
        sides = {"current": None} if base is None else {f"baseline {args.baseline}": base, "current": None}
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
        print(f"| steps | MB | side | reading s | {mode} s | x reading | ms per step | msgs | msgs read | loader read "
              "| same output |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for n in sizes:
            digests = {r["digest"] for side in sides for r in runs[mode, side, n]}
            for side in sides:
                done = runs[mode, side, n]
                reading = statistics.median(r["reading"] for r in done)
                took = statistics.median(r["replay"] for r in done)
                print(f"| {n} | {megabytes[n]:.1f} | {side} | {reading:.3f} | {took:.3f} | "
                      f"{took / reading:.1f} | {took / min(n, 200) * 1000:.1f} | {messages[n]} | {done[0]['read']} | "
                      f"{done[0]['loader']} | "
                      f"{'yes' if len(digests) == 1 else 'NO'} |")
        for side in sides:  # growth: a linear reading doubles with twice the steps, a quadratic one quadruples
            medians = [statistics.median(r["replay"] for r in runs[mode, side, n]) for n in sizes]
            print(f"{mode}, {side}: " + "; ".join(f"{b} steps / {a} = {mb / ma:.2f}x (the file "
                                                  f"{megabytes[b] / megabytes[a]:.2f}x)" for (a, ma), (b, mb)
                                                  in zip(zip(sizes, medians), zip(sizes[1:], medians[1:]))))

if __name__ == "__main__":
    main()
