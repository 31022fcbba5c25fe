"""A reply may hold a JSON escape of a lone surrogate (``"a\\ud800b"``): valid JSON, a Python str no UTF-8 output
can hold. parse, send (its output, --save, -f json) and run --save crashed with exit 70 (UnicodeEncodeError),
and the replies of a live run were lost; a trace holding one crashed too (found by an adversarial run). Now
the text is shown and saved with the escape written out (the same value: JSON reads it back), and a trace whose
recorded tools hold one is one line, exit 2."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from cli import run_cli
from servers import StandIn, Step, fixture

ROOT = Path(__file__).resolve().parent.parent
BODY = copy.deepcopy(fixture("openai", "openai-chat-single-strict"))
BODY["choices"][0]["message"]["content"] = "a\ud800b"  # json.dumps writes it as the escape "a\ud800b"


def test_parse_shows_the_escape_whole_and_streamed(tmp_path: Path) -> None:
    whole = tmp_path / "reply.json"
    whole.write_text(json.dumps(BODY), encoding="ascii")
    shown = run_cli(["parse", str(whole), "-p", "openai"])
    assert shown.returncode == 0, shown.stderr
    assert "a\\ud800b" in shown.stdout
    document = run_cli(["parse", str(whole), "-p", "openai", "-f", "json"])
    assert json.loads(document.stdout)["reply"]["text"] == "a\ud800b"  # the same value, read back
    stream = tmp_path / "reply.sse"
    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
             "choices": [{"index": 0, "delta": {"role": "assistant", "content": "a\ud800b"}, "finish_reason": "stop"}]}
    stream.write_text(f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n", encoding="ascii")
    streamed = run_cli(["parse", str(stream), "-p", "openai", "--stream"])
    assert streamed.returncode == 0 and "a\\ud800b" in streamed.stdout, streamed.stderr


def test_send_and_run_keep_the_reply_in_every_output_and_file(tmp_path: Path) -> None:
    env = {"OPENAI_API_KEY": "sk-test-0123456789abcdef"}
    with StandIn("openai", default=Step(body=json.dumps(BODY))) as server:  # the escape as sent: ASCII
        url = server.base_url("openai")
        sent = run_cli(["send", "configs/weather.yaml", "-p", "openai", "--base-url", url, "--save",
                        str(tmp_path / "s"), "-f", "json"], env=env, cwd=ROOT)
        ran = run_cli(["run", "configs/weather.yaml", "-p", "openai", "--base-url", url, "--save",
                       str(tmp_path / "r")], env=env, cwd=ROOT)
    assert sent.returncode in (0, 4) and ran.returncode in (0, 4), sent.stderr + ran.stderr
    assert json.loads(sent.stdout)["reply"]["text"] == "a\ud800b"
    saved = json.loads((tmp_path / "s" / "sample-001.reply.json").read_text(encoding="utf-8"))
    assert saved["reply"]["text"] == "a\ud800b"
    assert list((tmp_path / "r").rglob("step-01.response.json"))


def test_a_trace_whose_tools_hold_one_is_one_line(tmp_path: Path) -> None:
    span = {"traceId": "0" * 31 + "1", "spanId": "0" * 15 + "1", "name": "chat m", "kind": 3,
            "startTimeUnixNano": "1", "endTimeUnixNano": "2", "attributes": [
                {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                {"key": "gen_ai.provider.name", "value": {"stringValue": "openai"}},
                {"key": "gen_ai.input.messages", "value": {"stringValue": json.dumps(
                    [{"role": "user", "parts": [{"type": "text", "content": "hi"}]}])}},
                {"key": "gen_ai.tool.definitions", "value": {"stringValue": json.dumps(
                    [{"type": "function", "name": "get_time", "description": "x\ud800",
                      "parameters": {"type": "object"}}])}}]}
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}), encoding="ascii")
    result = run_cli(["trace", str(trace)])
    assert result.returncode == 2, (result.returncode, result.stderr)
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"toolchoice: error: {trace}") and "U+D800" in line and "Traceback" not in result.stderr
