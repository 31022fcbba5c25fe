"""How much time `toolchoice mock` adds to a request, against the raw socket floor (issue 27).

    python bench/mock_latency.py                 # 1000 requests, K = 50 connections, 5 rounds
    python bench/mock_latency.py --requests 2000 --concurrency 50 --rounds 7 --provider anthropic

Two servers, each its own process, both on asyncio streams, both answering the same request (an
OpenAI chat request with two tools and tool_choice required) with the same reply bytes:

- the floor: reads the request head and body and writes a canned reply (what any asyncio HTTP
  server must do at the least);
- the mock: `toolchoice mock -p PROVIDER --format jsonl` (the real command; its stdout is read and
  dropped), which parses, judges through the translator, plans the answer and encodes it.

The client (this process) keeps K keep-alive connections on raw sockets and sends N requests in
all, as fast as the answers come. Rounds alternate floor and mock. Reported, medians over the rounds:
wall time per request for each, the mock's **own time per request** ((mock wall - floor wall) / N:
with K in flight the server is never idle, so the difference is its extra work per request), the
ratio of the two, the CPU time each server process spent per request (Linux /proc/PID/stat: the own time
without the scheduling noise of a loaded machine), and the median / p99 latency each client saw. Target:
own time ≤ 1 ms at the median.
In-process, ``MockService.handle`` alone is timed too (no sockets): the median of N calls.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

REQUESTS = {
    "openai": ("/v1/chat/completions", {
        "model": "gpt-4o-mini", "messages": [{"role": "system", "content": "Be brief."},
                                             {"role": "user", "content": "Weather in Paris and the time in Tokyo?"}],
        "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city.",
                                                    "parameters": {"type": "object", "properties": {
                                                        "city": {"type": "string"},
                                                        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
                                                        "required": ["city", "unit"]}}},
                  {"type": "function", "function": {"name": "get_time", "parameters": {
                      "type": "object", "properties": {"tz": {"type": "string", "format": "date-time"}},
                      "required": ["tz"]}}}],
        "tool_choice": "required"}),
    "anthropic": ("/v1/messages", {
        "model": "claude-sonnet-4-5", "max_tokens": 1024,
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
        "tools": [{"name": "get_weather", "description": "Weather for a city.", "input_schema": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}],
        "tool_choice": {"type": "any"}}),
}

FLOOR = r'''
import asyncio, sys
REPLY = sys.stdin.buffer.read()
async def serve(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            await reader.readexactly(length)
            writer.write(REPLY)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        writer.close()
async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    print(f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}", flush=True)
    await server.serve_forever()
asyncio.run(main())
'''


def request_bytes(path: str, body: dict) -> bytes:
    data = json.dumps(body).encode()
    head = (f"POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            f"authorization: Bearer sk-bench-0000000000\r\nx-api-key: sk-bench-0000000000\r\n"
            f"anthropic-version: 2023-06-01\r\ncontent-length: {len(data)}\r\n\r\n")
    return head.encode() + data


async def read_response(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    return head + await reader.readexactly(length)


async def load(port: int, raw: bytes, total: int, concurrency: int) -> tuple[float, list[float]]:
    """Send ``total`` requests over ``concurrency`` keep-alive connections; (wall seconds, latencies)."""
    latencies: list[float] = []
    left = [total]

    async def worker() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        while left[0] > 0:
            left[0] -= 1
            started = time.perf_counter()
            writer.write(raw)
            await read_response(reader)
            latencies.append(time.perf_counter() - started)
        writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return time.perf_counter() - started, latencies


def start(argv: list[str], stdin: bytes | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """Start a server; its stdout goes to a file (as ``toolchoice mock -f jsonl > requests.jsonl`` would), read
    for the URL line."""
    import tempfile

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    out = tempfile.TemporaryFile()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=out, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        out.seek(0)
        line = out.readline()
        if line.endswith(b"\n"):
            return proc, int(line.decode().strip().split(":")[2].split("/")[0])
        time.sleep(0.02)
    proc.kill()
    raise SystemExit(f"{argv[:4]} printed no URL line in 30 s")


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def in_process_handle(provider: str, path: str, body: dict, n: int) -> float:
    from toolchoice.providers.core.mock.service import MockService

    service = MockService(provider)
    data = json.dumps(body).encode()
    headers = {"content-type": "application/json"}
    for _ in range(50):
        service.handle("POST", path, headers, data)
    times = []
    for _ in range(n):
        started = time.perf_counter()
        service.handle("POST", path, headers, data)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--provider", default="openai", choices=sorted(REQUESTS))
    args = parser.parse_args()
    path, body = REQUESTS[args.provider]
    raw = request_bytes(path, body)

    mock, mock_port = start([sys.executable, "-m", "toolchoice.cli", "mock", "-p", args.provider, "-f", "jsonl"])
    try:
        async def one() -> bytes:
            reader, writer = await asyncio.open_connection("127.0.0.1", mock_port)
            writer.write(raw)
            reply = await read_response(reader)
            writer.close()
            return reply

        reply = asyncio.run(one())
        assert b" 200 " in reply.split(b"\r\n", 1)[0], reply[:200]
        floor, floor_port = start([sys.executable, "-c", FLOOR], stdin=reply)
        try:
            walls: dict[str, list[float]] = {"floor": [], "mock": []}
            lat: dict[str, list[float]] = {"floor": [], "mock": []}
            asyncio.run(load(floor_port, raw, 200, args.concurrency))  # warm both
            asyncio.run(load(mock_port, raw, 200, args.concurrency))
            cpu: dict[str, list[float]] = {"floor": [], "mock": []}
            for _ in range(args.rounds):
                for name, port, pid in (("floor", floor_port, floor.pid), ("mock", mock_port, mock.pid)):
                    before = cpu_seconds(pid)
                    wall, latencies = asyncio.run(load(port, raw, args.requests, args.concurrency))
                    cpu[name].append((cpu_seconds(pid) - before) / args.requests)
                    walls[name].append(wall)
                    lat[name].extend(latencies)
        finally:
            floor.kill()
            floor.wait()
    finally:
        mock.terminate()
        mock.wait()
    handle = in_process_handle(args.provider, path, body, args.requests)
    n = args.requests
    floor_wall, mock_wall = statistics.median(walls["floor"]), statistics.median(walls["mock"])
    own = [(m - f) / n for f, m in zip(walls["floor"], walls["mock"])]

    def p(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    rows = [
        ("wall per request, floor", f"{floor_wall / n * 1e3:.3f} ms", ""),
        ("wall per request, mock", f"{mock_wall / n * 1e3:.3f} ms", f"{mock_wall / floor_wall:.2f}x floor"),
        ("mock own time per request (median of rounds)", f"{statistics.median(own) * 1e3:.3f} ms",
         "target <= 1 ms: " + ("met" if statistics.median(own) <= 1e-3 else "NOT met")),
        ("server CPU per request, floor / mock", f"{statistics.median(cpu['floor']) * 1e3:.3f} / "
         f"{statistics.median(cpu['mock']) * 1e3:.3f} ms",
         f"mock - floor {(statistics.median(cpu['mock']) - statistics.median(cpu['floor'])) * 1e3:.3f} ms"),
        ("MockService.handle in-process (median)", f"{handle * 1e3:.3f} ms", ""),
        ("client latency p50 floor / mock", f"{p(lat['floor'], .5) * 1e3:.2f} / {p(lat['mock'], .5) * 1e3:.2f} ms",
         f"{p(lat['mock'], .5) / p(lat['floor'], .5):.2f}x"),
        ("client latency p99 floor / mock", f"{p(lat['floor'], .99) * 1e3:.2f} / {p(lat['mock'], .99) * 1e3:.2f} ms",
         f"{p(lat['mock'], .99) / p(lat['floor'], .99):.2f}x"),
    ]
    print(f"toolchoice mock -p {args.provider}: {n} requests, K = {args.concurrency}, {args.rounds} rounds "
          f"(load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores)")
    for name, value, note in rows:
        print(f"  {name:<46} {value:>20}  {note}")


if __name__ == "__main__":
    main()
