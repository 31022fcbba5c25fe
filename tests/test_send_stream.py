"""`send --stream` end to end: the command sends the streaming form to a stand-in that replays a
recorded stream over a real socket (tests/streams.py), assembles the reply through the runner, judges
it, reports the stream's facts, and `--save` keeps the raw stream that `parse --stream` reads back.

The recorded stream is vercel/ai's groq-tool-call.chunks.txt (tests/data/streams/SOURCES.md): one call
to `weather` with arguments `{}`, then usage and `data: [DONE]`."""

from __future__ import annotations

import json
import os

from streams import WEATHER_SCENARIO as SCENARIO, Script, StreamServer, fixture_lines, framed, paced

from cli import run_cli

KEY = "gsk-stream-test-key-0123456789abcdef"


def env() -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    out.update(GROQ_API_KEY=KEY, NO_PROXY="127.0.0.1", COLUMNS="160", NO_COLOR="1")
    return out


def test_send_stream_assembles_judges_reports_and_saves_the_raw_stream(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO)
    recorded = framed("groq", fixture_lines("groq", "groq-tool-call.chunks.txt"), done=True)
    with StreamServer(Script(paced(recorded, 200, 0.01))) as server:
        result = run_cli(["send", str(scenario), "-p", "groq", "--base-url", server.url + "/openai/v1", "--stream",
                          "-f", "json", "--save", str(tmp_path / "saved")], env=env())
        assert server.bodies[0]["stream"] is True and server.bodies[0]["stream_options"] == {"include_usage": True}
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [(c["name"], c["arguments"]) for c in data["reply"]["tool_calls"]] == [("weather", {})]
    assert data["verdict"]["category"] == "obeyed"
    saved = tmp_path / "saved"
    raw = (saved / "sample-001.response.sse").read_bytes()
    assert raw == recorded  # every byte as it came (no key in it to redact)
    parsed = run_cli(["parse", str(saved / "sample-001.response.sse"), "-p", "groq", "--stream", "-f", "json"],
                     env=env())
    assert parsed.returncode == 0, parsed.stderr
    assert [c["name"] for c in json.loads(parsed.stdout)["reply"]["tool_calls"]] == ["weather"]
    assert KEY not in result.stdout + result.stderr + parsed.stdout


def test_send_stream_pretty_shows_the_stream_facts(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO)
    recorded = framed("groq", fixture_lines("groq", "groq-tool-call.chunks.txt"), done=True)
    with StreamServer(Script(paced(recorded, 200, 0.01))) as server:
        result = run_cli(["send", str(scenario), "-p", "groq", "--base-url", server.url + "/openai/v1", "--stream"],
                         env=env())
    assert result.returncode == 0, result.stderr
    assert "stream  " in result.stdout and "first tool delta" in result.stdout and "obeyed" in result.stdout


def test_a_stream_that_ends_early_is_a_finding_and_keeps_what_arrived(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO)
    lines = fixture_lines("groq", "groq-tool-call.chunks.txt")
    cut = framed("groq", lines[:2])  # the role chunk and the call's first delta, then the socket closes
    with StreamServer(Script(paced(cut, 200, 0.01), drop=True)) as server:
        result = run_cli(["send", str(scenario), "-p", "groq", "--base-url", server.url + "/openai/v1", "--stream",
                          "-f", "json", "--retries", "0"], env=env())
    data = json.loads(result.stdout)
    codes = [f["code"] for f in data["stream"]["findings"]]
    assert "stream.no_final_event" in codes, codes
    assert data["stream"]["events"] >= 2


def test_probe_sends_the_streaming_form_too(tmp_path):
    """`probe --stream` asks every question in the streaming form, and the answers are assembled."""
    recorded = framed("groq", fixture_lines("groq", "groq-tool-call.chunks.txt"), done=True)
    with StreamServer(Script(paced(recorded, 400, 0.0))) as server:
        result = run_cli(["probe", "-p", "groq", "--base-url", server.url + "/openai/v1", "--stream", "-n", "1",
                          "-f", "json", "--retries", "0"], env=env())
        bodies = list(server.bodies)
    assert bodies and all(b["stream"] is True for b in bodies), bodies
    data = json.loads(result.stdout)
    # every answer assembled (no error): the recorded stream's call to `weather`, a tool the built-in probe scenario
    # does not offer, is seen in each (the control question fails the same way, so none of it is a fact)
    assert data["questions"] and all(q["verdicts"] == ["phantom_tool"] and "calls: weather" in q["evidence"]
                                     for q in data["questions"]), data["questions"]
