"""`run --stream --save` keeps each step's stream as `send --stream --save` keeps a sample's (found by trial6d).

Each step's stream was written as ``step-NN.response.txt`` from its bytes decoded as UTF-8 with replacement:
an AWS event stream (Bedrock's binary framing, CRC32s in it) came out corrupted, so neither ``parse --stream``
nor ``run --replay --stream`` could read it back, and the steps' stream facts (events, timings, findings such
as stream.raw_withheld) were in no output. The truth here is botocore's own event-stream parser reading the
saved file, and the bytes a stand-in on 127.0.0.1 sent (tests/streams.py frames them as the AWS encoding says).
"""

from __future__ import annotations

import json
import os

import yaml
from botocore.eventstream import EventStreamBuffer

from streams import Script, StreamServer, bedrock_event, paced

from cli import run_cli

KEY = "bedrock-run-stream-key-0123456789abcdef"

SCENARIO = {
    "tools": [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                     "required": ["city"]}}],
    "tool_choice": "auto",
    "messages": [{"role": "user", "content": "Weather in Paris?"}],
    "loop": {"max_steps": 3, "results": {"get_weather": "18 C"}},
}


def call_stream() -> bytes:
    return b"".join([
        bedrock_event("messageStart", {"role": "assistant"}),
        bedrock_event("contentBlockStart", {"contentBlockIndex": 0,
                                            "start": {"toolUse": {"toolUseId": "t1", "name": "get_weather"}}}),
        bedrock_event("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"toolUse": {"input": '{"city": '}}}),
        bedrock_event("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"toolUse": {"input": '"Paris"}'}}}),
        bedrock_event("contentBlockStop", {"contentBlockIndex": 0}),
        bedrock_event("messageStop", {"stopReason": "tool_use"}),
        bedrock_event("metadata", {"usage": {"inputTokens": 5, "outputTokens": 7, "totalTokens": 12},
                                   "metrics": {"latencyMs": 1}})])


def text_stream() -> bytes:
    return b"".join([
        bedrock_event("messageStart", {"role": "assistant"}),
        bedrock_event("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "18 C in Paris"}}),
        bedrock_event("contentBlockStop", {"contentBlockIndex": 0}),
        bedrock_event("messageStop", {"stopReason": "end_turn"}),
        bedrock_event("metadata", {"usage": {"inputTokens": 5, "outputTokens": 3, "totalTokens": 8},
                                   "metrics": {"latencyMs": 1}})])


def env() -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    out.update(AWS_BEARER_TOKEN_BEDROCK=KEY, AWS_REGION="us-east-1", NO_PROXY="127.0.0.1", COLUMNS="160",
               NO_COLOR="1")
    return out


def botocore_payloads(data: bytes) -> list[tuple[str, bytes]]:
    buffer = EventStreamBuffer()
    buffer.add_data(data)
    return [(m.headers[":event-type"], m.payload) for m in buffer]


def test_run_stream_save_keeps_an_event_stream_that_botocore_parse_and_replay_read(tmp_path):
    path = tmp_path / "loop.yaml"
    path.write_text(yaml.safe_dump(SCENARIO, sort_keys=False))
    first, second = call_stream(), text_stream()
    with StreamServer(Script(paced(first, 9, 0.0), content_type="application/vnd.amazon.eventstream"),
                      Script(paced(second, 9, 0.0), content_type="application/vnd.amazon.eventstream")) as server:
        result = run_cli(["run", str(path), "-p", "bedrock", "--base-url", server.url, "--stream", "--retries", "0",
                          "--model", "anthropic.claude-3-5-sonnet-20240620-v1:0", "-f", "json",
                          "--save", str(tmp_path / "saved")], env=env())
    assert result.returncode == 0, result.stderr
    steps = json.loads(result.stdout)["runs"][0]["loops"][0]["steps"]
    assert [s["stream"]["events"] for s in steps] == [7, 5], steps  # each step's stream facts, as send shows them
    assert all(s["stream"]["findings"] == [] for s in steps)

    loop = tmp_path / "saved" / "bedrock" / "loop-001"
    saved = loop / "step-01.response.eventstream"
    assert saved.is_file(), sorted(p.name for p in loop.iterdir())
    assert botocore_payloads(saved.read_bytes()) == botocore_payloads(first)
    assert botocore_payloads((loop / "step-02.response.eventstream").read_bytes()) == botocore_payloads(second)

    parsed = run_cli(["parse", str(saved), "-p", "bedrock", "--stream", "-f", "json"], env=env())
    assert parsed.returncode == 0, parsed.stdout + parsed.stderr
    assert [(c["name"], c["arguments"]) for c in json.loads(parsed.stdout)["reply"]["tool_calls"]] == [
        ("get_weather", {"city": "Paris"})]

    replayed = run_cli(["run", str(path), "-p", "bedrock", "--stream", "--replay", str(tmp_path / "saved"),
                        "--model", "anthropic.claude-3-5-sonnet-20240620-v1:0", "-f", "json"], env=env())
    assert replayed.returncode == 0, replayed.stdout[-2000:] + replayed.stderr
    loop_json = json.loads(replayed.stdout)["runs"][0]["loops"][0]
    assert loop_json["ended"]["reason"] == "no_tool_call" and loop_json["final_answer"] == "18 C in Paris"
    assert KEY not in result.stdout + result.stderr + replayed.stdout

    unstreamed = run_cli(["run", str(path), "-p", "bedrock", "--replay", str(tmp_path / "saved"),
                          "--model", "anthropic.claude-3-5-sonnet-20240620-v1:0"], env=env())
    # the saved event stream answers only a streamed request: said as bad input, never its bytes as an error text
    assert unstreamed.returncode == 2, unstreamed.stdout[-1500:] + unstreamed.stderr
    assert unstreamed.stderr.strip().endswith("step 1 is a saved stream: replay it with --stream"), unstreamed.stderr
    assert ":event-type" not in unstreamed.stdout + unstreamed.stderr
