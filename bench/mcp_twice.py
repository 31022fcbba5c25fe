"""What finding the keys an MCP tools/list answer names twice costs (``mcp_twice``): CPU time
(``time.process_time``, best of three) of the stdio relay's check (``mcp_relay.Twice``, fed the answer in the
relay's 64 KiB chunks) and of the HTTP one (``mcp_twice.Watch``, fed as the SDK's client receives a JSON answer),
each as a ratio of the MCP SDK's own read of the same bytes (``jsonrpc_message_adapter.validate_json``, what its
stdio and HTTP clients parse each message with); and, at twice and four times the listing, each check's time as a
ratio of the first (linear: ~2 and ~4). The listing: ``--megabytes`` MB of tools whose schemas name one property
twice each (``--distinct``: a new key each time, the worst case for what is kept).

    python bench/mcp_twice.py [--megabytes 10] [--distinct]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent


def listing(megabytes: float, distinct: bool) -> bytes:
    tools, size, i = [], 0, 0
    while size < megabytes * 1_000_000:
        key = f"p{i}" if distinct else "p0"
        tool = (f'{{"name": "tool_{i}", "description": "Tool {i}. {"d" * 200}", "inputSchema": {{"type": "object", '
                f'"properties": {{"{key}": {{"type": "string"}}, "{key}": {{"type": "integer"}}, '
                + ", ".join(f'"q{j}": {{"type": "string", "description": "{"x" * 30}"}}' for j in range(12)) + "}}}")
        tools.append(tool)
        size += len(tool)
        i += 1
    return ('{"jsonrpc": "2.0", "id": 2, "result": {"tools": [' + ", ".join(tools) + "]}}\n").encode()


def best(run: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        started = time.process_time()
        run()
        times.append(time.process_time() - started)
    return min(times)


def checks(line: bytes) -> tuple[float, float, float]:
    sys.path.insert(0, str(ROOT / "providers" / "core"))  # the relay runs as a script: its own imports
    import mcp_relay
    from mcp import types

    from toolchoice.providers.core.mcp_twice import Watch

    def relay() -> None:  # what it writes goes to a file here (the FIFO's reader is toolchoice's thread)
        with tempfile.TemporaryDirectory() as folder:
            out = os.open(os.path.join(folder, "twice"), os.O_WRONLY | os.O_CREAT, 0o600)
            twice = mcp_relay.Twice(out, 100)
            for at in range(0, len(line), mcp_relay.CHUNK):
                twice.feed(line[at:at + mcp_relay.CHUNK])
            os.close(out)

    def http() -> None:
        answer = Watch(100).answer("application/json")
        for at in range(0, len(line), 65536):
            answer.feed(line[at:at + 65536])
        answer.end()

    sdk = best(lambda: types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    return best(relay), best(http), sdk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=10.0)
    parser.add_argument("--distinct", action="store_true")
    args = parser.parse_args()
    first = None
    for times in (1, 2, 4):
        line = listing(args.megabytes * times, args.distinct)
        relay, http, sdk = checks(line)
        first = first or (relay, http)
        print(f"{len(line) / 1e6:5.1f} MB: relay {relay / sdk:.2f}x the SDK's read, HTTP {http / sdk:.2f}x; "
              f"relay {relay / first[0]:.2f}x, HTTP {http / first[1]:.2f}x the first listing's")


if __name__ == "__main__":
    main()
