"""Ctrl-C in the middle of one streamed exchange keeps what had arrived of it: `send --stream` of one sample shows
the events that came (as the stream view draws them: the count, the argument deltas, the finding) and saves them
with --save, exit 130, as a repeated send and compare --send keep their finished samples.

A real process gets a real SIGINT while the stand-in (tests/streams.py's StreamServer, a real socket on 127.0.0.1)
holds its stream open after the chunks below: the expected events, names and bytes are the chunks the server wrote
(openai-python's ChatCompletionChunk shape), not anything toolchoice computed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import jsonschema
from streams import CITY_WEATHER_SCENARIO, Piece, Script, StreamServer

from servers import CLI

ROOT = Path(__file__).resolve().parents[1]
KEY = "sk-stream-interrupt-0123456789abcdef"


def _chunk(delta: dict, finish: str | None = None) -> dict:
    return {"id": "chatcmpl-cut", "object": "chat.completion.chunk", "created": 1764147600, "model": "gpt-4o",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


# Three events, then nothing: the call's name and the start of its arguments arrived, the rest never does.
CHUNKS = [_chunk({"role": "assistant", "content": None}),
          _chunk({"tool_calls": [{"index": 0, "id": "call_cut", "type": "function",
                                  "function": {"name": "get_weather", "arguments": ""}}]}),
          _chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{\"city\": \"Par"}}]})]
SENT = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in CHUNKS)


def interrupted_send(tmp_path: Path, *args: str, columns: int = 100,
                     scenario: str = CITY_WEATHER_SCENARIO) -> subprocess.CompletedProcess[str]:
    """`send --stream` (one sample) against a server that writes CHUNKS and then holds the stream open; SIGINT once
    the request arrived and the chunks went out."""
    path = tmp_path / "cut.yaml"
    path.write_text(scenario, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(OPENAI_API_KEY=KEY, NO_PROXY="127.0.0.1", COLUMNS=str(columns), NO_COLOR="1")
    with StreamServer(Script([Piece(SENT)], stall=60)) as server:
        argv = [*CLI, "send", str(path), "-p", "openai", "--base-url", server.url + "/v1", "--gateway", "--stream",
                "--retries", "0", *args]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.monotonic() + 60
        while not server.bodies and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.5)  # the chunks are written at once; the server then writes nothing for 60 s
        assert proc.poll() is None, "the command ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def test_ctrl_c_mid_stream_of_one_sample_shows_the_events_that_arrived(tmp_path):
    result = interrupted_send(tmp_path)
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr and KEY not in result.stdout + result.stderr
    out = result.stdout
    assert "stream  3 events" in out  # the three chunks the server wrote, drawn as the stream view draws them
    assert "argument deltas 2" in out  # two of the chunks carried the call's function.arguments ("" and a start)
    assert "get_weather" in out  # the call's name had arrived
    assert "stream.interrupted" in out
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("toolchoice: error: interrupted: 0 of 1 samples finished"), last
    assert "3 events" in last and "shown above" in last and "saved" not in last


def test_ctrl_c_mid_stream_of_one_sample_saves_and_prints_the_partial_document(tmp_path):
    saved = tmp_path / "saved"
    result = interrupted_send(tmp_path, "-f", "json", "--save", str(saved))
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr and KEY not in result.stdout + result.stderr
    document = json.loads(result.stdout)
    assert document["partial"] == {"done": 0, "requested": 1}
    schema = json.loads((ROOT / "cli" / "schemas" / "send.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(document)  # the document `toolchoice schema send` publishes
    assert document["stream"]["events"] == 3 and document["stream"]["argument_deltas"] == [2]
    assert "stream.interrupted" in [f["code"] for f in document["stream"]["findings"]]
    assert document["verdict"]["category"] == "error"  # a cut stream is never judged as if the model had answered
    assert [c["name"] for c in document["reply"]["tool_calls"]] == ["get_weather"]
    assert sorted(p.name for p in saved.iterdir()) == ["sample-001.reply.json", "sample-001.request.json",
                                                        "sample-001.response.sse"]
    assert (saved / "sample-001.response.sse").read_bytes() == SENT  # every byte that arrived, as it came
    kept = json.loads((saved / "sample-001.reply.json").read_text(encoding="utf-8"))
    assert kept["stream"]["events"] == 3
    assert "and saved" in result.stderr.strip().splitlines()[-1]


def test_ctrl_c_mid_stream_at_60_columns_keeps_the_lines_whole(tmp_path):
    result = interrupted_send(tmp_path, columns=60)
    assert result.returncode == 130, result.stderr
    lines = result.stdout.splitlines()
    assert all(len(line) <= 60 for line in lines), result.stdout
    assert "stream  3 events" in result.stdout
    # a finding's further lines hang under its text, not back at the margin where they read as lines of their own
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("stream.interrupted:"))
    assert lines[at + 1].startswith("    ") and "kept" in " ".join(lines[at:at + 3]), result.stdout


def interrupted_run(tmp_path: Path, *args: str, columns: int = 100) -> subprocess.CompletedProcess[str]:
    """`run --stream` of a one-step loop against the same held stream, SIGINT once its chunks went out."""
    path = tmp_path / "loop.yaml"
    path.write_text(CITY_WEATHER_SCENARIO + "loop:\n  max_steps: 1\n  results:\n    get_weather: sunny\n",
                    encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(OPENAI_API_KEY=KEY, NO_PROXY="127.0.0.1", COLUMNS=str(columns), NO_COLOR="1")
    with StreamServer(Script([Piece(SENT)], stall=60)) as server:
        argv = [*CLI, "run", str(path), "-p", "openai", "--base-url", server.url + "/v1", "--gateway", "--stream",
                "--retries", "0", *args]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.monotonic() + 60
        while not server.bodies and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.5)
        assert proc.poll() is None, "the command ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def test_ctrl_c_mid_stream_of_a_one_step_run_keeps_the_step_cut_short(tmp_path):
    saved = tmp_path / "saved"
    result = interrupted_run(tmp_path, "-f", "json", "--save", str(saved))
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr and KEY not in result.stdout + result.stderr
    (loop,) = json.loads(result.stdout)["runs"][0]["loops"]
    assert loop["ended"]["reason"] == "interrupted" and loop["ended"]["step"] == 1
    (step,) = loop["steps"]  # what had arrived of step 1's stream: its events, the call begun, judged an error
    assert step["stream"]["events"] == 3 and step["verdict"]["category"] == "error"
    assert "stream.interrupted" in [f["code"] for f in step["stream"]["findings"]]
    folder = saved / "openai" / "loop-001"
    assert (folder / "step-01.response.sse").read_bytes() == SENT
    assert "step-01.reply.json" in {p.name for p in folder.iterdir()}


def test_ctrl_c_mid_stream_of_a_one_step_run_draws_the_step(tmp_path):
    result = interrupted_run(tmp_path)
    assert result.returncode == 130, result.stderr
    assert "get_weather" in result.stdout and "error" in result.stdout, result.stdout
    assert "ended: interrupted at step 1" in result.stdout and "stream.interrupted" in result.stdout
    assert "interrupted: 0 of 1 loops finished" in result.stderr


def test_parse_of_a_stream_cut_short_says_what_arrived_and_how_it_ends(tmp_path):
    """The saved stream of a cut send, read back: `parse --stream` assembles what arrived and says the end never
    came; without --stream (a saved .sse read as one body) it says to add --stream."""
    from cli import run_cli

    saved = tmp_path / "sample-001.response.sse"
    saved.write_bytes(SENT[:-7])  # cut inside the third event too, as a stream Ctrl-C stopped may be
    done = run_cli(["parse", str(saved), "-p", "openai", "--stream", "-f", "json"])
    assert done.returncode == 1, done.stderr  # a reply that failed: exit 1, not a traceback
    stream = json.loads(done.stdout)["stream"]
    codes = [f["code"] for f in stream["findings"]]
    assert stream["events"] == 2 and "stream.incomplete_event" in codes and "stream.no_final_event" in codes
    plain = run_cli(["parse", str(saved), "-p", "openai"])
    assert plain.returncode == 1 and "--stream" in plain.stderr, plain.stderr
