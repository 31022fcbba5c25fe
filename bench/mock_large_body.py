"""Does one large request stall `toolchoice mock` for every other client? (trial 7i)

    python bench/mock_large_body.py                  # a ~31 MiB body, 3 rounds
    python bench/mock_large_body.py --mib 8 --rounds 5

A mock (``running_mock("openai")``, on a thread of this process) gets one large chat request — ~250,000 short
messages, the shape that costs the most to read and judge — on one connection, and, while it is being judged,
small requests one after another on another connection. Two modes, alternating in each round:

- ``loop``: every body judged on the event loop (as before trial 7i: ``JUDGE_INLINE_BYTES`` set past any body);
- ``thread``: a body of 64 KiB or more judged in a worker thread (the server as it is).

Reported, medians over the rounds: the large request's own time (sent → answered: the physical floor of
what it costs), the small requests' latency alone (no large request in flight: their floor), and their
worst and median latency while the large one is judged, as ratios: **worst small latency / large time**
(≈ 1 when the small one waits for the whole judging; the target is ≪ 1) and **median small latency during /
alone** (how much a large neighbour slows the others down; the GIL is shared, so not 1).
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from toolchoice.providers.core.mock import server as mock_server  # noqa: E402
from toolchoice.providers.core.mock.server import running_mock  # noqa: E402

SMALL = json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]}).encode()


def large_body(mib: float) -> bytes:
    one = {"role": "user", "content": "hello world " * 8}
    count = int(mib * 1024 * 1024 / len(json.dumps(one)))
    return json.dumps({"model": "gpt-4o-mini", "messages": [one] * count}).encode()


def request(body: bytes) -> bytes:
    return b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)


def read_answer(sock: socket.socket) -> bytes:
    """One whole answer (Content-Length framing) on a keep-alive connection."""
    got = b""
    while b"\r\n\r\n" not in got:
        got += sock.recv(65536)
    head, _, rest = got.partition(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    while len(rest) < length:
        rest += sock.recv(65536)
    return head


def small_latency(sock: socket.socket) -> float:
    started = time.perf_counter()
    sock.sendall(request(SMALL))
    read_answer(sock)
    return time.perf_counter() - started


def one_round(port: int, big: bytes, alone: int) -> dict[str, float]:
    with socket.create_connection(("127.0.0.1", port)) as small, socket.create_connection(("127.0.0.1", port)) as large:
        for _ in range(5):  # warm
            small_latency(small)
        floor = statistics.median(small_latency(small) for _ in range(alone))
        done = threading.Event()
        took: list[float] = []

        def send_large() -> None:
            started = time.perf_counter()
            large.sendall(request(big))
            read_answer(large)
            took.append(time.perf_counter() - started)
            done.set()

        thread = threading.Thread(target=send_large)
        thread.start()
        during: list[float] = []
        while not done.is_set():
            during.append(small_latency(small))
        thread.join()
    return {"large": took[0], "alone": floor, "worst": max(during), "median": statistics.median(during),
            "count": len(during)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mib", type=float, default=31.0, help="size of the large body (MiB, under the 32 MiB limit)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--alone", type=int, default=50, help="small requests timed with no large one in flight")
    args = parser.parse_args()
    big = large_body(args.mib)
    print(f"large body: {len(big) / 2**20:.1f} MiB; {args.rounds} rounds, modes alternating")
    inline = mock_server.JUDGE_INLINE_BYTES
    results: dict[str, list[dict[str, float]]] = {"loop": [], "thread": []}
    for _ in range(args.rounds):
        for mode in ("loop", "thread"):
            mock_server.JUDGE_INLINE_BYTES = 1 << 62 if mode == "loop" else inline
            with running_mock("openai") as served:
                port = int(served.base_url.split(":")[2].split("/")[0])
                results[mode].append(one_round(port, big, args.alone))
    mock_server.JUDGE_INLINE_BYTES = inline
    for mode, rounds in results.items():
        med = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
        print(f"{mode:>6}: large {med['large'] * 1000:8.1f} ms | small alone {med['alone'] * 1000:6.2f} ms | "
              f"during: worst {med['worst'] * 1000:8.1f} ms, median {med['median'] * 1000:7.2f} ms "
              f"({med['count']:.0f} answered) | worst/large {med['worst'] / med['large']:.3f} | "
              f"median during/alone {med['median'] / med['alone']:.1f}x")


if __name__ == "__main__":
    main()
