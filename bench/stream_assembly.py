"""What assembling a streamed reply costs, against parsing the same reply non-streamed.

For each wire family a reply with tool calls is written twice from the same content: as the stream
its provider sends (argument text cut into ~4-character deltas, the size of one token, as models
stream them; SSE, NDJSON or AWS event-stream bytes) and as the one JSON body of the non-streamed
answer. Three timings per family, in interleaved rounds, medians:

- ``assemble``: decoded events fed to the provider's assembler (per event);
- ``bytes``: the whole offline path, raw bytes → framing → events → Reply (``assemble_bytes``),
  per event and per megabyte of stream;
- ``body``: ``json.loads`` + ``parse_reply`` of the non-streamed body (the baseline), and the ratio
  bytes / body measured in the same run.

    python bench/stream_assembly.py            # 15 rounds, two sizes
    python bench/stream_assembly.py --quick    # 5 rounds

Not a test: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import struct
import sys
import time
import zlib
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from toolchoice.providers.core.registry import parse_reply  # noqa: E402
from toolchoice.providers.core.stream_framing import saved_events  # noqa: E402
from toolchoice.providers.core.streaming import assemble_bytes, assemble_events  # noqa: E402

PIECE = 4  # characters per argument delta


def arguments(size: int, seed: int) -> str:
    """JSON arguments of about ``size`` characters."""
    words = [f"item-{seed}-{i}" for i in range(max(1, size // 14))]
    return json.dumps({"query": " ".join(words[: len(words) // 2]), "tags": words[len(words) // 2:], "limit": 10})


def pieces(text: str) -> list[str]:
    return [text[i:i + PIECE] for i in range(0, len(text), PIECE)]


def sse(payloads: list[Any], done: bool = False, named: bool = False) -> bytes:
    """``named``: each event with its ``event:`` line, as the API sends it (Anthropic's; anthropic-python skips an
    event without one, and toolchoice says so)."""
    text = "".join((f"event: {p['type']}\n" if named else "") + f"data: {json.dumps(p)}\n\n" for p in payloads)
    return (text + ("data: [DONE]\n\n" if done else "")).encode()


def eventstream(events: list[tuple[str, Any]]) -> bytes:
    out = []
    for name, payload in events:
        head = b""
        for key, value in ((":event-type", name), (":content-type", "application/json"), (":message-type", "event")):
            head += bytes([len(key)]) + key.encode() + b"\x07" + struct.pack(">H", len(value)) + value.encode()
        body = json.dumps(payload).encode()
        prelude = struct.pack(">II", 12 + len(head) + len(body) + 4, len(head))
        prelude += struct.pack(">I", zlib.crc32(prelude))
        message = prelude + head + body
        out.append(message + struct.pack(">I", zlib.crc32(message)))
    return b"".join(out)


def openai(calls: list[tuple[str, str]]) -> tuple[bytes, Any]:
    chunks = []
    for i, (name, args) in enumerate(calls):
        chunks.append({"choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": i, "id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": ""}}]}}]})
        chunks += [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": i, "function": {"arguments": p}}]}}]}
                   for p in pieces(args)]
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    chunks.append({"choices": [], "usage": {"prompt_tokens": 10, "completion_tokens": 20}})
    body = {"choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": [
        {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
        for i, (n, a) in enumerate(calls)]}, "finish_reason": "tool_calls"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 20}}
    return sse(chunks, done=True), body


def responses(calls: list[tuple[str, str]]) -> tuple[bytes, Any]:
    events: list[Any] = []
    output = []
    for i, (name, args) in enumerate(calls):
        item = {"type": "function_call", "id": f"fc_{i}", "call_id": f"call_{i}", "name": name, "arguments": ""}
        events.append({"type": "response.output_item.added", "output_index": i, "item": item})
        events += [{"type": "response.function_call_arguments.delta", "item_id": f"fc_{i}", "output_index": i,
                    "delta": p} for p in pieces(args)]
        events.append({"type": "response.function_call_arguments.done", "item_id": f"fc_{i}", "output_index": i,
                       "arguments": args})
        output.append(dict(item, arguments=args, status="completed"))
    final = {"status": "completed", "output": output, "usage": {"input_tokens": 10, "output_tokens": 20}}
    events.append({"type": "response.completed", "response": final})
    return sse(events), final


def anthropic(calls: list[tuple[str, str]]) -> tuple[bytes, Any]:
    events: list[Any] = [{"type": "message_start", "message": {"usage": {"input_tokens": 10, "output_tokens": 1}}}]
    for i, (name, args) in enumerate(calls):
        events.append({"type": "content_block_start", "index": i,
                       "content_block": {"type": "tool_use", "id": f"toolu_{i}", "name": name, "input": {}}})
        events += [{"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta",
                                                                          "partial_json": p}} for p in pieces(args)]
        events.append({"type": "content_block_stop", "index": i})
    events += [{"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 20}},
               {"type": "message_stop"}]
    body = {"content": [{"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": json.loads(a)}
                        for i, (n, a) in enumerate(calls)], "stop_reason": "tool_use",
            "usage": {"input_tokens": 10, "output_tokens": 20}}
    return sse(events, named=True), body


def cohere(calls: list[tuple[str, str]]) -> tuple[bytes, Any]:
    events: list[Any] = [{"type": "message-start", "delta": {"message": {"role": "assistant"}}}]
    for i, (name, args) in enumerate(calls):
        events.append({"type": "tool-call-start", "index": i, "delta": {"message": {"tool_calls": {
            "id": f"{name}_{i}", "type": "function", "function": {"name": name, "arguments": ""}}}}})
        events += [{"type": "tool-call-delta", "index": i, "delta": {"message": {"tool_calls": {
            "function": {"arguments": p}}}}} for p in pieces(args)]
        events.append({"type": "tool-call-end", "index": i})
    usage = {"tokens": {"input_tokens": 10, "output_tokens": 20}}
    events.append({"type": "message-end", "delta": {"finish_reason": "TOOL_CALL", "usage": usage}})
    body = {"message": {"role": "assistant", "tool_calls": [
        {"id": f"{n}_{i}", "type": "function", "function": {"name": n, "arguments": a}}
        for i, (n, a) in enumerate(calls)]}, "finish_reason": "TOOL_CALL", "usage": usage}
    return sse(events), body


def bedrock(calls: list[tuple[str, str]]) -> tuple[bytes, Any]:
    events: list[tuple[str, Any]] = [("messageStart", {"role": "assistant"})]
    for i, (name, args) in enumerate(calls):
        events.append(("contentBlockStart", {"contentBlockIndex": i, "start": {"toolUse": {"toolUseId": f"t{i}",
                                                                                            "name": name}}}))
        events += [("contentBlockDelta", {"contentBlockIndex": i, "delta": {"toolUse": {"input": p}}})
                   for p in pieces(args)]
        events.append(("contentBlockStop", {"contentBlockIndex": i}))
    events += [("messageStop", {"stopReason": "tool_use"}),
               ("metadata", {"usage": {"inputTokens": 10, "outputTokens": 20}})]
    body = {"output": {"message": {"role": "assistant", "content": [
        {"toolUse": {"toolUseId": f"t{i}", "name": n, "input": json.loads(a)}} for i, (n, a) in enumerate(calls)]}},
        "stopReason": "tool_use", "usage": {"inputTokens": 10, "outputTokens": 20}}
    return eventstream(events), body


def gemini(calls: list[tuple[str, str]]) -> tuple[bytes, Any]:
    """Gemini sends each call whole: text deltas first, then one chunk per call."""
    text = " ".join(a for _, a in calls)
    chunks: list[Any] = [{"candidates": [{"content": {"role": "model", "parts": [{"text": p}]}}]}
                         for p in pieces(text)]
    chunks += [{"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": n, "args": json.loads(a)}}]}}]} for n, a in calls]
    chunks.append({"candidates": [{"content": {"role": "model", "parts": [{"text": ""}]}, "finishReason": "STOP"}],
                   "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 20}})
    body = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}] + [
        {"functionCall": {"name": n, "args": json.loads(a)}} for n, a in calls]}, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 20}}
    return sse(chunks), body


def ollama(calls: list[tuple[str, str]]) -> tuple[bytes, Any]:
    text = " ".join(a for _, a in calls)
    lines: list[Any] = [{"message": {"role": "assistant", "content": p}, "done": False} for p in pieces(text)]
    lines.append({"message": {"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": n, "arguments": json.loads(a)}} for n, a in calls]}, "done": False})
    lines.append({"message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop",
                  "prompt_eval_count": 10, "eval_count": 20})
    body = {"message": {"role": "assistant", "content": text, "tool_calls": lines[-2]["message"]["tool_calls"]},
            "done": True, "done_reason": "stop", "prompt_eval_count": 10, "eval_count": 20}
    return "".join(json.dumps(line) + "\n" for line in lines).encode(), body


FAMILIES: dict[str, Callable[[list[tuple[str, str]]], tuple[bytes, Any]]] = {
    "openai": openai, "openai-responses": responses, "anthropic": anthropic, "cohere": cohere,
    "bedrock": bedrock, "gemini": gemini, "ollama": ollama,
}
FRAMING = {"bedrock": "eventstream", "ollama": "ndjson"}


def timed(fn: Callable[[], Any], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def measure(provider: str, calls: list[tuple[str, str]], rounds: int) -> dict[str, Any]:
    stream, body = FAMILIES[provider](calls)
    body_text = json.dumps(body)
    events, _ = saved_events(FRAMING.get(provider, "sse"), stream)  # type: ignore[arg-type]
    check = assemble_bytes(provider, stream)
    expected = parse_reply(provider, body)
    assert check.findings == (), check.findings
    assert [(c.name, c.arguments) for c in check.reply.tool_calls] == [(c.name, c.arguments)
                                                                        for c in expected.tool_calls]
    repeat = max(1, int(2_000_000 / max(1, len(stream))))  # ~a few ms per timing
    # The inputs (tens of thousands of decoded events) are not part of the work: keep the garbage
    # collector from walking them during every timing.
    gc.collect()
    gc.freeze()
    samples: dict[str, list[float]] = {"assemble": [], "bytes": [], "body": []}
    for _ in range(rounds):  # interleaved, so drift hits all three alike
        samples["assemble"].append(timed(lambda: assemble_events(provider, events), repeat))
        samples["bytes"].append(timed(lambda: assemble_bytes(provider, stream), repeat))
        samples["body"].append(timed(lambda: parse_reply(provider, json.loads(body_text)), repeat))
    gc.unfreeze()
    med = {k: statistics.median(v) for k, v in samples.items()}
    return {
        "provider": provider, "events": len(events), "stream_bytes": len(stream), "body_bytes": len(body_text),
        "assemble_us_per_event": med["assemble"] / len(events) * 1e6,
        "bytes_us_per_event": med["bytes"] / len(events) * 1e6,
        "bytes_ms_per_mb": med["bytes"] / (len(stream) / 1e6) * 1e3,
        "body_ms_per_mb": med["body"] / (len(body_text) / 1e6) * 1e3,
        "stream_ms": med["bytes"] * 1e3, "body_ms": med["body"] * 1e3,
        "ratio": med["bytes"] / med["body"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    rounds = args.rounds or (5 if args.quick else 15)
    sizes = {"small (1 call, ~200 B of arguments)": [("search", arguments(200, 0))],
             "large (3 calls, ~100 kB of arguments)": [(f"tool_{k}", arguments(33_000, k)) for k in range(3)]}
    print(f"python {sys.version.split()[0]}, {rounds} rounds, medians; argument deltas of {PIECE} characters")
    results = []
    for label, calls in sizes.items():
        print(f"\n{label}")
        print(f"{'family':<17}{'events':>7}{'stream B':>10}{'body B':>9}{'µs/event':>10}{'µs/event':>10}"
              f"{'ms/MB':>8}{'ms/MB':>8}{'stream ms':>10}{'body ms':>9}{'ratio':>7}")
        print(f"{'':<17}{'':>7}{'':>10}{'':>9}{'assemble':>10}{'bytes':>10}{'stream':>8}{'body':>8}{'':>10}{'':>9}"
              f"{'':>7}")
        for provider in FAMILIES:
            r = measure(provider, calls, rounds)
            r["size"] = label
            results.append(r)
            print(f"{provider:<17}{r['events']:>7}{r['stream_bytes']:>10}{r['body_bytes']:>9}"
                  f"{r['assemble_us_per_event']:>10.2f}{r['bytes_us_per_event']:>10.2f}{r['bytes_ms_per_mb']:>8.1f}"
                  f"{r['body_ms_per_mb']:>8.1f}{r['stream_ms']:>10.3f}{r['body_ms']:>9.3f}{r['ratio']:>6.1f}x")
    print("\nratio = (bytes → framing → events → Reply) / (json.loads + parse_reply of the non-streamed body), "
          "same content, same run")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
