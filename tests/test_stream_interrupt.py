"""Ctrl-C in the middle of one streamed exchange keeps what had arrived of it: `send --stream` of one sample shows
the events that came (as the stream view draws them: the count, the argument deltas, the finding) and saves them
with --save, exit 130, as a repeated send and compare --send keep their finished samples. So do compare --send (the
provider's row), a repeated send (each stream in flight, apart from the tally of the finished ones) and a run's
step, in one process or in the shards of --processes.

A real process gets a real SIGINT while the stand-in (tests/streams.py's StreamServer, a real socket on 127.0.0.1)
holds its stream open after the chunks below: the expected events, names and bytes are the chunks the server wrote
(openai-python's ChatCompletionChunk shape), not anything toolchoice computed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
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


HELD = (Script([Piece(SENT)], stall=60),)  # CHUNKS, then the stream held open


def _cpu_ticks(pid: int) -> tuple[int, ...]:
    """The CPU ticks of ``pid`` and each process it forked (Linux /proc; empty elsewhere), one number each."""
    pids = [pid]
    try:
        pids += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        return tuple(sum(map(int, Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[11:13]))
                     for p in pids)
    except (OSError, ValueError):
        return ()


def _wait_idle(pid: int, most: float = 20.0) -> None:
    """Until the command's processes spend no CPU for 0.3 s (waiting on the held stream), ``most`` seconds at most;
    0.5 s where /proc cannot say."""
    if not Path(f"/proc/{pid}/stat").exists():
        time.sleep(0.5)
        return
    deadline, quiet, last = time.monotonic() + most, 0, None
    while quiet < 6 and time.monotonic() < deadline:
        time.sleep(0.05)
        now = _cpu_ticks(pid)
        quiet = quiet + 1 if now == last else 0
        last = now


def interrupted(tmp_path: Path, command: str, *args: str, scripts: tuple[Script, ...] = HELD, bodies: int = 1,
                columns: int = 100, scenario: str = CITY_WEATHER_SCENARIO,
                seen: list[int] | None = None) -> subprocess.CompletedProcess[str]:
    """``toolchoice COMMAND scenario -p openai --stream ...`` against a server that answers each request with the next
    of ``scripts`` (the last repeats; by default CHUNKS, then the stream held open); SIGINT once ``bodies`` requests
    arrived and their chunks went out. ``seen``: the processes the command had forked by then (their ids)."""
    path = tmp_path / "cut.yaml"
    path.write_text(scenario, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(OPENAI_API_KEY=KEY, NO_PROXY="127.0.0.1", COLUMNS=str(columns), NO_COLOR="1")
    with StreamServer(*scripts) as server:
        argv = [*CLI, command, str(path), "-p", "openai", "--base-url", server.url + "/v1", "--gateway", "--stream",
                "--retries", "0", *args]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.monotonic() + 60
        while len(server.bodies) < bodies and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        # the chunks are written at once and the server then writes nothing for 60 s: interrupt once the command
        # (and its shards) have read them, i.e. sit idle; a fixed 0.5 s was too short on a loaded machine
        _wait_idle(proc.pid)
        assert proc.poll() is None, "the command ended before it could be interrupted"
        if seen is not None:
            seen.extend(int(p) for p in Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split())
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def interrupted_send(tmp_path: Path, *args: str, columns: int = 100,
                     scenario: str = CITY_WEATHER_SCENARIO) -> subprocess.CompletedProcess[str]:
    """`send --stream` (one sample) against a server that writes CHUNKS and then holds the stream open; SIGINT once
    the request arrived and the chunks went out."""
    return interrupted(tmp_path, "send", *args, columns=columns, scenario=scenario)


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
    return interrupted(tmp_path, "run", *args, columns=columns,
                       scenario=CITY_WEATHER_SCENARIO + "loop:\n  max_steps: 1\n  results:\n    get_weather: sunny\n")


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


# ---- compare --send, repeated sends and sharded runs: the same cut, on their own paths ------------------------

# A stream that ends: the call's arguments completed, its finish reason and the chat stream's end marker.
FINISHED = SENT + b"".join(b"data: " + json.dumps(c).encode() + b"\n\n"
                           for c in [_chunk({"tool_calls": [{"index": 0, "function": {"arguments": "is\"}"}}]}),
                                     _chunk({}, "tool_calls")]) + b"data: [DONE]\n\n"
# CHUNKS and then a text delta that echoes the key (as a gateway echoing the request might): what is kept of the
# cut stream must carry its placeholder, never the key
ECHOED = SENT + b"data: " + json.dumps(_chunk({"content": f"echo {KEY}"})).encode() + b"\n\n"


def validator(command: str) -> jsonschema.Draft202012Validator:
    """The document `toolchoice schema COMMAND` publishes."""
    path = ROOT / "cli" / "schemas" / f"{command}.schema.json"
    return jsonschema.Draft202012Validator(json.loads(path.read_text(encoding="utf-8")))


def keyless(folder: Path) -> dict[str, bytes]:
    """Every file saved under ``folder`` (by its path there), after checking none holds the key."""
    files = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    assert files and [name for name, data in files.items() if KEY.encode() in data] == []
    return files


def test_ctrl_c_mid_stream_of_compare_send_keeps_what_arrived_in_the_providers_row(tmp_path):
    saved = tmp_path / "saved"
    result = interrupted(tmp_path, "compare", "--send", "-f", "json", "--save", str(saved),
                         scripts=(Script([Piece(ECHOED)], stall=60),))
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr and KEY not in result.stdout + result.stderr
    document = json.loads(result.stdout)
    validator("compare").validate(document)
    assert document["partial"] is True
    (entry,) = document["providers"]
    # the one sample is the stream cut short (as send shows it), never "interrupted before it answered"
    assert entry["verdict"]["category"] == "error" and "stream.interrupted" in entry["error"]
    assert [c["name"] for c in entry["reply"]["tool_calls"]] == ["get_weather"]
    (cut,) = entry["cut"]
    assert cut["stream"]["events"] == 4 and "stream.interrupted" in [f["code"] for f in cut["stream"]["findings"]]
    files = keyless(saved)
    assert sorted(files) == ["openai/sample-001.reply.json", "openai/sample-001.request.json",
                             "openai/sample-001.response.sse"]
    # every byte that arrived, the key's echo replaced by its variable
    assert files["openai/sample-001.response.sse"] == ECHOED.replace(KEY.encode(), b"$OPENAI_API_KEY")
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("toolchoice: error: interrupted: 0 of 1 samples finished (shown above and saved"), last
    assert "1 cut short mid-stream" in last


def test_ctrl_c_mid_stream_of_compare_send_draws_the_calls_begun(tmp_path):
    result = interrupted(tmp_path, "compare", "--send", columns=80)
    assert result.returncode == 130, result.stderr
    out = result.stdout
    assert "interrupted before it answered" not in out and "stream.interrupted" in out
    # the call's name and its arguments as far as they came (the cell may break after the bracket)
    shown = " ".join(out.replace("│", " ").split())
    assert "calls begun: get_weather(" in shown and '{"city": "Par)' in shown, out
    assert all(len(line) <= 80 for line in out.splitlines())


def repeated_with_cuts(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`send --stream -n 3 --concurrency 3`: the first request to arrive is answered whole (obeyed), the other two
    get CHUNKS and a stream held open; SIGINT once all three arrived."""
    return interrupted(tmp_path, "send", "-n", "3", "--concurrency", "3", *args, bodies=3,
                       scripts=(Script([Piece(FINISHED)]), Script([Piece(ECHOED)], stall=60)))


def test_ctrl_c_mid_stream_of_a_repeated_send_keeps_the_finished_and_the_cut_apart(tmp_path):
    saved = tmp_path / "saved"
    result = repeated_with_cuts(tmp_path, "-f", "json", "--save", str(saved))
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr and KEY not in result.stdout + result.stderr
    document = json.loads(result.stdout)
    validator("send").validate(document)
    # the tally counts the one finished sample alone; the two cut short are kept apart, with what had arrived
    assert document["samples"] == 1 and document["counts"]["obeyed"] == 1 and document["counts"]["error"] == 0
    assert [r["verdict"]["category"] for r in document["results"]] == ["obeyed"]
    partial = document["partial"]
    assert (partial["done"], partial["requested"], len(partial["cut"])) == (1, 3, 2)
    finished = document["results"][0]["sample"]
    assert sorted([r["sample"] for r in partial["cut"]] + [finished]) == [1, 2, 3]
    for cut in partial["cut"]:
        assert cut["verdict"]["category"] == "error" and cut["stream"]["events"] == 4
        assert "stream.interrupted" in [f["code"] for f in cut["stream"]["findings"]]
    files = keyless(saved)
    assert len(files) == 9  # request, reply and stream of each of the three samples
    streams = {name: data for name, data in files.items() if name.endswith(".sse")}
    assert streams.pop(f"sample-{finished:03d}.response.sse") == FINISHED
    assert list(streams.values()) == [ECHOED.replace(KEY.encode(), b"$OPENAI_API_KEY")] * 2
    last = result.stderr.strip().splitlines()[-1]
    assert last == ("toolchoice: error: interrupted: 1 of 3 samples finished (shown above and saved; 2 cut short "
                    "mid-stream, kept with what had arrived, not in the tally)"), last


def test_ctrl_c_mid_stream_of_a_repeated_send_draws_the_cut_samples_under_the_tally(tmp_path):
    result = repeated_with_cuts(tmp_path)
    assert result.returncode == 130, result.stderr
    out = result.stdout
    assert "1 samples" in out.splitlines()[0]  # the tally's title counts the finished sample
    cut = [line for line in out.splitlines() if line.startswith("cut  sample ")]
    assert len(cut) == 2 and all("Ctrl-C after 4 events" in line for line in cut), out


def test_ctrl_c_mid_stream_of_compare_send_repeat_keeps_the_cut_out_of_the_providers_tally(tmp_path):
    result = interrupted(tmp_path, "compare", "--send", "-n", "3", "--concurrency", "3", "-f", "json", bodies=3,
                         scripts=(Script([Piece(FINISHED)]), Script([Piece(ECHOED)], stall=60)))
    assert result.returncode == 130, result.stderr
    assert KEY not in result.stdout + result.stderr
    document = json.loads(result.stdout)
    validator("compare").validate(document)
    (entry,) = document["providers"]
    assert entry["summary"]["samples"] == 1 and entry["summary"]["counts"]["obeyed"] == 1
    assert [r["verdict"]["category"] for r in entry["results"]] == ["obeyed"]
    assert [c["verdict"]["category"] for c in entry["cut"]] == ["error", "error"]
    assert all(c["stream"]["events"] == 4 for c in entry["cut"])
    assert "1 of 3 samples finished" in result.stderr and "2 cut short mid-stream" in result.stderr
    assert "not in the tallies" in result.stderr


SHARDED = CITY_WEATHER_SCENARIO.replace("required", "auto") + """\
loop:
  max_steps: 4
  results:
    get_weather: sunny
"""


def test_ctrl_c_mid_stream_of_a_sharded_run_keeps_each_shards_cut_step(tmp_path):
    """`run --repeat 100 --processes 2` (100 loops of 4 steps: two shards of 200 requests, loop_shards): each shard's
    one loop in flight is cut at step 1; the parent's document and saved transcripts carry that step as one process
    does (test_ctrl_c_mid_stream_of_a_one_step_run_keeps_the_step_cut_short)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("shards fork: Linux only")
    saved, forked = tmp_path / "saved", []
    result = interrupted(tmp_path, "run", "--repeat", "100", "--concurrency", "2", "--processes", "2", "-f", "json",
                         "--save", str(saved), bodies=2, scenario=SHARDED, seen=forked,
                         scripts=(Script([Piece(ECHOED)], stall=60),))
    assert result.returncode == 130, result.stderr
    assert len(forked) == 2  # the shards, seen from outside
    assert "Traceback" not in result.stderr and KEY not in result.stdout + result.stderr
    (entry,) = json.loads(result.stdout)["runs"]
    cut = [loop for loop in entry["loops"] if loop["steps"]]
    assert len(cut) == 2 and len(entry["loops"]) == 100
    for loop in cut:
        assert loop["ended"]["reason"] == "interrupted" and loop["ended"]["step"] == 1
        (step,) = loop["steps"]
        assert step["stream"]["events"] == 4 and step["verdict"]["category"] == "error"
        assert "stream.interrupted" in [f["code"] for f in step["stream"]["findings"]]
    assert entry["summary"]["ended"]["interrupted"]["count"] == 100
    files = keyless(saved)
    kept = {name.split("/")[1] for name in files if name.endswith("step-01.response.sse")}
    assert kept == {f"loop-{loop['loop']:03d}" for loop in cut}
    assert {files[f"openai/{name}/step-01.response.sse"] for name in kept} == {
        ECHOED.replace(KEY.encode(), b"$OPENAI_API_KEY")}
    assert "interrupted: 0 of 100 loops finished" in result.stderr
