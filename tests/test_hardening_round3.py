"""Issue 29 (hardening, round three): the reproductions of each class, over real sockets where a socket is
what matters (tests/streams.py's stand-in writes scripted bytes in pieces of any size)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from streams import Piece, Script, StreamServer, bedrock_event, fixture_lines, framed, paced, sse

from cli import run_cli

SCENARIO = """
tools:
  - name: weather
    parameters: {type: object, properties: {location: {type: string}}}
tool_choice: required
messages: [{role: user, content: What is the weather in San Francisco?}]
"""
KEY = "gsk-r3-secret-key-0123456789abcdefXYZ"
AWS_KEY = "bedrock-r3-token-ABCDEFGHIJKLMNOP0123456789"


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if "proxy" not in k.lower() and not k.startswith("TOOLCHOICE_")}
    out.update(GROQ_API_KEY=KEY, AWS_BEARER_TOKEN_BEDROCK=AWS_KEY, NO_PROXY="127.0.0.1", COLUMNS="160", NO_COLOR="1")
    out.update(extra)
    return out


def scenario(tmp_path: Path, text: str = SCENARIO) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path


def echo_stream(provider: str, secret: str) -> bytes:
    """The recorded stream with a text delta that quotes the key (a server echoing what it was sent)."""
    lines = fixture_lines(provider, "groq-tool-call.chunks.txt" if provider == "groq" else
                          "amazon-bedrock-tool-call.1.chunks.txt")
    if provider == "groq":
        echo = {"id": "x", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content":
                f"your key is {secret}"}, "finish_reason": None}]}
        return framed("groq", [lines[0], json.dumps(echo), *lines[1:]], done=True)
    echo = bedrock_event("contentBlockDelta", {"contentBlockIndex": 9, "delta": {"text": f"your key is {secret}"}})
    return echo + framed("bedrock", lines)


# ---- keys: one redaction pass over whole streams ----------------------------------------------------

@pytest.mark.parametrize("size", [1, 3, 7, 64])
@pytest.mark.parametrize("columns", ["20", "160"])
def test_a_key_in_small_stream_pieces_is_redacted_in_saves_and_output(tmp_path, size, columns):
    data = echo_stream("groq", KEY)
    with StreamServer(Script(paced(data, size, 0.0))) as server:
        result = run_cli(["send", str(scenario(tmp_path)), "-p", "groq", "--base-url", server.url + "/openai/v1",
                          "--stream", "--raw", "--save", str(tmp_path / "saved")], env=env(COLUMNS=columns))
    saved = (tmp_path / "saved" / "sample-001.response.sse").read_bytes()
    assert b"$GROQ_API_KEY" in saved
    shown = result.stdout + result.stderr
    for piece in range(0, len(KEY) - 12):
        assert KEY[piece:piece + 12] not in shown and KEY[piece:piece + 12].encode() not in saved
    # laid out in a narrow column, the key must not be readable top to bottom either
    assert KEY[:12] not in "".join(result.stdout.split())


def test_bedrock_event_stream_saves_are_redacted_and_still_decode(tmp_path):
    data = echo_stream("bedrock", AWS_KEY)
    with StreamServer(Script(paced(data, 5, 0.0), content_type="application/vnd.amazon.eventstream")) as server:
        result = run_cli(["send", str(scenario(tmp_path)), "-p", "bedrock", "--base-url", server.url, "--stream",
                          "-f", "json", "--save", str(tmp_path / "saved")], env=env())
    saved = (tmp_path / "saved" / "sample-001.response.eventstream").read_bytes()
    assert AWS_KEY.encode() not in saved and AWS_KEY[:14].encode() not in saved
    assert AWS_KEY not in result.stdout + result.stderr
    parsed = run_cli(["parse", str(tmp_path / "saved" / "sample-001.response.eventstream"), "-p", "bedrock",
                      "--stream", "-f", "json"], env=env())
    document = json.loads(parsed.stdout)
    assert not [f for f in document["stream"]["findings"] if f["code"] == "stream.framing"], document["stream"]


# ---- wrong results: a failed stream is never "obeyed" -------------------------------------------------

def _send_stream(tmp_path: Path, script: Script) -> tuple[int, dict]:
    with StreamServer(script) as server:
        result = run_cli(["send", str(scenario(tmp_path)), "-p", "groq", "--base-url", server.url + "/openai/v1",
                          "--stream", "-f", "json", "--retries", "0", "--timeout", "5"], env=env())
    return result.returncode, json.loads(result.stdout)


def test_a_500_whose_body_is_cut_is_an_error(tmp_path):
    code, data = _send_stream(tmp_path, Script([Piece(b'{"error": {"message": "overl')], status=500,
                                               content_type="application/json", drop=True))
    assert data["verdict"]["category"] != "obeyed" and code != 0


def test_a_200_that_sends_no_byte_is_an_error(tmp_path):
    code, data = _send_stream(tmp_path, Script([]))
    assert data["verdict"]["category"] != "obeyed" and code != 0
    assert "stream.empty" in [f["code"] for f in data["stream"]["findings"]]


def test_an_assembler_fault_is_a_finding_not_a_crash_nor_obeyed(tmp_path):
    lines = fixture_lines("groq", "groq-tool-call.chunks.txt")
    bad = json.loads(lines[1])
    bad["choices"][0]["delta"]["tool_calls"][0]["index"] = {"not": "an index"}
    code, data = _send_stream(tmp_path, Script([Piece(framed("groq", [lines[0], json.dumps(bad), *lines[2:]],
                                                                    done=True))]))
    assert data["verdict"]["category"] != "obeyed" and code not in (0, 70), data


def test_events_after_done_are_not_assembled(tmp_path):
    lines = fixture_lines("groq", "groq-tool-call.chunks.txt")
    extra = json.loads(lines[1])
    extra["choices"][0]["delta"]["tool_calls"][0].update(index=1, id="late")
    data = framed("groq", lines, done=True) + sse([extra])
    path = tmp_path / "s.sse"
    path.write_bytes(data)
    result = run_cli(["parse", str(path), "-p", "groq", "--stream", "-f", "json"], env=env())
    document = json.loads(result.stdout)
    assert [c["name"] for c in document["reply"]["tool_calls"]] == ["weather"]


@pytest.mark.parametrize("bad", [{"tool_calls": True}, {"tool_calls": [{"index": 0, "id": {"x": 1}, "function": []}]},
                                 {"tool_calls": [{"index": [0], "function": {"arguments": 5}}]}])
@pytest.mark.parametrize("provider", ["groq", "openai", "mistral", "deepseek"])
def test_wrong_field_types_in_events_are_findings(provider, bad):
    from toolchoice.providers.core.streaming import assemble_bytes

    chunk = {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": bad}]}
    result = assemble_bytes(provider, sse([chunk], done=True))
    assert result.reply.error is not None
    assert result.findings


def test_deep_json_in_a_stream_event_is_a_finding():
    from toolchoice.providers.core.streaming import assemble_bytes

    result = assemble_bytes("groq", b"data: " + b"[" * 100000 + b"\n\ndata: [DONE]\n\n")
    assert result.reply.error is not None


def test_a_stream_past_its_size_limit_stops_with_a_finding(monkeypatch):
    from toolchoice.providers.core.streaming import EventDecoder

    monkeypatch.setenv("TOOLCHOICE_LIMIT_STREAM_BYTES", "1000")
    decoder = EventDecoder("sse")
    for _ in range(100):
        decoder.feed(b": keepalive\n" * 10)
    assert [f.code for f in decoder.findings] == ["stream.too_large"]
    assert "TOOLCHOICE_LIMIT_STREAM_BYTES" in decoder.findings[0].message


def test_one_long_sse_line_is_bounded_and_read_in_linear_pieces(monkeypatch):
    from toolchoice.providers.core.streaming import SSEDecoder, StreamFault

    decoder = SSEDecoder(max_line=10_000)
    with pytest.raises(StreamFault, match="stream_line_bytes"):
        for _ in range(20_000):
            decoder.feed(b"x")
    decoder = SSEDecoder(max_line=None)
    for _ in range(50_000):
        assert decoder.feed(b"y") == []
    assert decoder._buffer == "" and len(decoder._pending) == 50_000  # pieces kept, not re-scanned
    assert decoder.feed(b"\n\n") == []
