"""What redacting a whole stream costs (issue 29), against assembling the same stream.

A Chat Completions stream of a tool call whose arguments arrive in ~4-character deltas (as models stream
them), with and without a key echoed in it. Interleaved rounds, medians, per stream:

- ``assemble``: ``assemble_bytes`` (framing → events → Reply), the local work of every ``--stream`` sample;
- ``redact whole``: ``redact_stream`` over all the bytes once (what ``stream_reply`` and ``--save`` do now);
- ``redact chunks``: the old per-chunk pass over 1,400-byte TCP-sized pieces (what it replaced; it missed
  a key split between pieces);

and the ratio redact whole / assemble, measured in the same run. Keys: the one provider key of a run
(OpenAI project keys are 164 characters), then 20 keys set at once.

    python bench/stream_redaction.py [--quick]

Not a test: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from toolchoice.providers.core.redaction import Redactor  # noqa: E402
from toolchoice.providers.core.stream_redaction import redact_stream  # noqa: E402
from toolchoice.providers.core.streaming import assemble_bytes  # noqa: E402

KEY = "sk-proj-" + "A1b2C3d4E5f6" * 13  # 164 characters


def stream(events: int, echo: str = "") -> bytes:
    head = {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"role": "assistant",
            "tool_calls": [{"index": 0, "id": "call_1", "type": "function", "function": {"name": "f",
                                                                                        "arguments": ""}}]}}]}
    parts = [head]
    text = json.dumps({"q": ("lorem ipsum " * events)[:events * 4] + echo})
    for i in range(0, len(text), 4):
        parts.append({"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {
            "tool_calls": [{"index": 0, "function": {"arguments": text[i:i + 4]}}]}}]})
    parts.append({"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {},
                                                                             "finish_reason": "tool_calls"}]})
    return "".join(f"data: {json.dumps(p)}\n\n" for p in parts).encode() + b"data: [DONE]\n\n"


def timed(fn, rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    rounds = 5 if parser.parse_args().quick else 15
    many = {f"sk-key-{i:02d}-" + "x9Y8z7W6v5U4" * 4: f"$KEY_{i}" for i in range(19)} | {KEY: "$OPENAI_API_KEY"}
    for label, secrets in (("1 key", {KEY: "$OPENAI_API_KEY"}), ("20 keys", many)):
        redactor = Redactor(secrets)
        for events, echo in ((200, ""), (2000, ""), (2000, KEY)):
            data = stream(events, echo)
            pieces = [data[i:i + 1400] for i in range(0, len(data), 1400)]
            a = timed(lambda: assemble_bytes("openai", data), rounds)
            w = timed(lambda: redact_stream(data, "sse", redactor), rounds)
            c = timed(lambda: [redactor.text(p.decode("utf-8", "surrogateescape")) for p in pieces], rounds)
            print(f"{label:8} {events:5} events {len(data) / 1024:7.1f} KiB {'key echoed' if echo else 'no key':10} "
                  f"assemble {a * 1e3:7.2f} ms  redact whole {w * 1e3:6.3f} ms ({w / a:6.2%})  "
                  f"redact chunks {c * 1e3:6.3f} ms")


if __name__ == "__main__":
    main()
