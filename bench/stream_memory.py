"""Peak RSS of ``send --stream`` of a stream at the cap (limits.stream_bytes, 32 MiB), pretty and ``-f json``,
against a baseline commit and against the floor: the same command on a stream of one call (the interpreter,
the imports, the client), and the floor plus the stream's size (the bytes are kept whole, for --save: the
least a process holding them can need).

Two streams, served by a local HTTP server on 127.0.0.1 (chunked, 64 KiB pieces) as OpenAI Chat Completions
chunks:

- ``small deltas``: one call whose arguments arrive 4 characters an event (~151,000 events, as models stream);
- ``large deltas``: one call whose 27 MB of arguments arrive 1,000 characters an event (the pretty view of such
  a call is not measured: rich lays the cell out for minutes).

Each command runs ``--runs`` times per tree (the largest peak kept: a ceiling); the outputs of both trees must be
the same JSON documents but for latencies and timings. Peak RSS is read as bench/measure.py reads it.

    python bench/stream_memory.py [--runs 2] [--baseline 93e39ac]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from loop_steps import baseline_tree
from measure import Command, child_env, entry_argv, peak_rss_kib

CAP = 32 * 1024 * 1024
HEAD = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o"}
SCENARIO = """tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
tool_choice: required
messages:
  - {role: user, content: weather?}
"""


def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
    return "data: " + json.dumps({**HEAD, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}) + "\n\n"


def stream(piece: str, size: int) -> bytes:
    """SSE chunks of one get_weather call whose argument text grows by ``piece`` an event, up to ``size`` bytes."""
    def arguments(text: str) -> dict[str, Any]:
        return {"tool_calls": [{"index": 0, "function": {"arguments": text}}]}

    lines = [chunk({"role": "assistant", "content": None, "tool_calls": [
        {"index": 0, "id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}),
        chunk(arguments('{"city": "'))]
    end = [chunk(arguments('"}')), chunk({}, "tool_calls"), "data: [DONE]\n\n"]
    one = chunk(arguments(piece))
    total = sum(map(len, lines + end))
    count = max(0, (size - total) // len(one))
    return ("".join(lines) + one * count + "".join(end)).encode()


class Served(ThreadingHTTPServer):
    daemon_threads = True
    body = b""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        data = self.server.body  # type: ignore[attr-defined]
        for at in range(0, len(data), 65536):
            piece = data[at:at + 65536]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


def comparable(document: Any) -> Any:
    """A JSON document without what differs from run to run (latencies, timings, the server's port)."""
    if isinstance(document, dict):
        return {k: comparable(v) for k, v in document.items() if k not in ("latency_ms", "timings", "url")}
    if isinstance(document, list):
        return [comparable(v) for v in document]
    return document


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--baseline", default="93e39ac")
    args = parser.parse_args()
    streams = {"small deltas": stream("abcd", CAP - 4096), "large deltas": stream(("lorem ipsum " * 90)[:1000], CAP - 4096),
               "floor (one short call)": stream("abcd", 2048)}
    server = Served(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "baseline").mkdir()
        base = baseline_tree(args.baseline, folder / "baseline")
        (folder / "weather.yaml").write_text(SCENARIO)
        argv = (*entry_argv(), "send", str(folder / "weather.yaml"), "-p", "openai", "--stream", "--base-url", url)
        trees = {args.baseline: {"PYTHONPATH": str(base)}, "this tree": {}}
        print("| stream | format | " + " | ".join(f"{t} MiB" for t in trees) + " | this ÷ baseline | floor + stream MiB |")
        print("|---|---|---|---|---|---|")
        floors: dict[str, float] = {}
        for label in ("floor (one short call)", "small deltas", "large deltas"):
            server.body = streams[label]
            for form in ("pretty", "json"):
                if label == "large deltas" and form == "pretty":
                    continue
                peaks, documents = {}, {}
                for tree, extra in trees.items():
                    env = child_env(OPENAI_API_KEY="sk-bench", COLUMNS="80", **extra)
                    command = Command(f"{label} {form} {tree}", (*argv, "-f", form), env)
                    peaks[tree] = max(peak_rss_kib(command) for _ in range(args.runs)) / 1024
                    if form == "json":
                        out = subprocess.run(command.argv, capture_output=True, env=env, check=False).stdout
                        documents[tree] = comparable(json.loads(out))
                if form == "json" and documents[args.baseline] != documents["this tree"]:
                    print(f"{label}: the JSON documents differ", file=sys.stderr)
                    sys.exit(1)
                if label.startswith("floor"):
                    floors[form] = peaks["this tree"]
                limit = floors[form] + len(streams[label]) / 2**20
                print(f"| {label} ({len(streams[label]) / 2**20:.1f} MiB) | {form} | "
                      + " | ".join(f"{peaks[t]:.0f}" for t in trees)
                      + f" | {peaks['this tree'] / peaks[args.baseline]:.2f} | {limit:.0f} |")
    server.shutdown()


if __name__ == "__main__":
    main()
