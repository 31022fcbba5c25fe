"""`render --stream` and `parse --stream`, run in-process as the console script runs them (tests/cli.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cli import run_cli
from streams import STREAMS, bedrock_stream, fixture_lines, sse

ROOT = Path(__file__).resolve().parents[1]
WEATHER = ROOT / "configs" / "weather.yaml"


def run(*args: str, stdin: str | None = None):
    result = run_cli(list(args), env={**os.environ, "COLUMNS": "160", "NO_COLOR": "1"}, input=stdin)
    assert "Traceback" not in result.stderr
    return result


def rendered(provider: str, *extra: str) -> dict:
    result = run("render", str(WEATHER), "-p", provider, "-f", "json", *extra)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


# The streaming forms, each from its provider's own reference:
# openai-python chat/completion_create_params.py (stream, stream_options.include_usage),
# responses/response_create_params.py (stream), anthropic-sdk-python message_create_params.py (stream),
# ai.google.dev/api (streamGenerateContent sends server-sent events with alt=sse), cohere v2 chat_stream (stream: true),
# ollama api/types.go ChatRequest.Stream, botocore bedrock-runtime ConverseStream (/converse-stream).
STREAM_FORMS = {
    "openai": ("/chat/completions", {"stream": True, "stream_options": {"include_usage": True}}),
    "groq": ("/chat/completions", {"stream": True, "stream_options": {"include_usage": True}}),
    "mistral": ("/chat/completions", {"stream": True}),
    "openai-responses": ("/responses", {"stream": True}),
    "anthropic": ("/v1/messages", {"stream": True}),
    "gemini": (":streamGenerateContent?alt=sse", {}),
    "cohere": ("/v2/chat", {"stream": True}),
    "ollama": ("/api/chat", {"stream": True}),
    "bedrock": ("/converse-stream", {}),
}


@pytest.mark.parametrize("provider", sorted(STREAM_FORMS))
def test_render_stream_shows_the_streaming_form(provider):
    plain, streamed = rendered(provider), rendered(provider, "--stream")
    suffix, fields = STREAM_FORMS[provider]
    assert streamed["request"]["url"].endswith(suffix)
    body = streamed["request"]["body"]
    for key, value in fields.items():
        assert body[key] == value
    if provider == "mistral":
        assert "stream_options" not in body  # Mistral's stream request has no such field
    # everything else is the non-streamed request
    rest = {k: v for k, v in body.items() if k not in ("stream", "stream_options")}
    assert rest == {k: v for k, v in plain["request"]["body"].items() if k != "stream"}
    assert "stream.requested" in [e["code"] for e in streamed["ledger"]]
    assert "stream.requested" not in [e["code"] for e in plain["ledger"]]


def test_curl_export_streams_with_n_only_when_streaming():
    streamed = run("render", str(WEATHER), "-p", "anthropic", "--stream", "-f", "curl").stdout
    plain = run("render", str(WEATHER), "-p", "anthropic", "-f", "curl").stdout
    assert "curl -sS -N -X POST" in streamed
    assert " -N " not in plain and "curl -sS -X POST" in plain


def test_parse_stream_reads_a_saved_sse_stream_and_judges_it():
    data = sse(fixture_lines("deepseek", "deepseek-tool-call.chunks.txt"), done=True)
    result = run("parse", "-", "-p", "deepseek", "--stream", "-f", "json", stdin=data.decode())
    doc = json.loads(result.stdout)
    assert doc["reply"]["tool_calls"][0]["arguments"] == {"location": "San Francisco"}
    assert doc["stream"]["findings"] == []
    assert doc["stream"]["events"] == len(fixture_lines("deepseek", "deepseek-tool-call.chunks.txt")) + 1


def test_parse_stream_reads_bedrock_event_stream_bytes(tmp_path):
    path = tmp_path / "bedrock.stream"
    path.write_bytes(bedrock_stream(fixture_lines("bedrock", "amazon-bedrock-tool-no-args.chunks.txt")))
    doc = json.loads(run("parse", str(path), "-p", "bedrock", "--stream", "-f", "json").stdout)
    assert doc["reply"]["tool_calls"] == [{"id": "tool-use-id", "name": "updateIssueList", "arguments": {}}]
    assert doc["reply"]["finish_reason"] == "tool_use"


def test_parse_stream_reads_a_chunk_file_and_reports_the_missing_end():
    path = STREAMS / "groq" / "groq-tool-call.chunks.txt"
    result = run("parse", str(path), "-p", "groq", "--stream")
    assert result.returncode == 0
    assert "weather" in result.stdout
    assert "stream.no_final_event" in result.stdout


def test_parse_stream_missing_file_is_one_line():
    result = run("parse", "nope.stream", "-p", "openai", "--stream")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "no such file" in result.stderr


def test_parse_without_stream_is_unchanged_by_the_option():
    body = ROOT / "tests" / "data" / "responses" / "groq" / "groq-tool-call-empty-arguments.json"
    doc = json.loads(run("parse", str(body), "-p", "groq", "-f", "json").stdout)
    assert "stream" not in doc
