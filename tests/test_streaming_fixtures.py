"""Recorded real streams (tests/data/streams, SOURCES.md) assemble to the calls their non-streamed
form gives (parse_reply of the paired body), or to the calls their source documents."""

from __future__ import annotations

import json

import pytest

from streams import STREAMS, fixture_lines, framed
from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.registry import parse_reply
from toolchoice.providers.core.streaming import assemble_bytes

# (provider, stream file, paired body or None, ids must match (same exchange))
PAIRED = [
    ("groq", "groq-tool-call.chunks.txt", "groq-tool-call.json", False),
    ("mistral", "mistral-tool-call.chunks.txt", "mistral-tool-call.json", True),
    ("deepseek", "deepseek-tool-call.chunks.txt", "deepseek-tool-call.json", False),
    ("xai", "xai-tool-call.chunks.txt", "xai-tool-call.json", False),
    ("openai-responses", "azure-tool-call.1.chunks.txt", "azure-tool-call.1.json", False),
    ("anthropic", "anthropic-tool-no-args.chunks.txt", "anthropic-tool-no-args.json", False),
    ("gemini", "google-tool-call.chunks.txt", "google-tool-call.json", False),
    ("cohere", "cohere-tool-call.chunks.txt", "cohere-tool-call.json", False),
    ("bedrock", "amazon-bedrock-tool-no-args.chunks.txt", "amazon-bedrock-tool-no-args.json", True),
]

# What each unpaired stream's source documents (SOURCES.md, last column).
DOCUMENTED = [
    ("mistral", "mistral-incremental-tool-call.chunks.txt", [("webSearchTool", {"query": "current Berlin weather"})]),
    ("gemini", "google-stream-tool-call-arguments.chunks.txt",
     [("getWeather", {"location": "Boston"}), ("getWeather", {"location": "San Francisco"})]),
    ("cohere", "cohere-empty-tool-call.chunks.txt", [("currentTime", {})]),
    ("anthropic", "anthropic-json-tool.1.chunks.txt",
     [("json", {"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]})]),
    ("bedrock", "amazon-bedrock-tool-call.1.chunks.txt", [("test-tool", {"value": "Sparkle Day"})]),
    ("ollama", "ollama-docs-streaming-with-tools.ndjson", [("get_weather", {"city": "Tokyo"})]),
]

OPENAI_STYLE = {p for p, c in CAPABILITIES.items() if c.module == "openai_chat"}


def assembled(provider: str, name: str):
    lines = fixture_lines(provider, name)
    # OpenAI-style streams end with data: [DONE], which the chunk files leave out (SOURCES.md)
    return assemble_bytes(provider, framed(provider, lines, done=provider in OPENAI_STYLE))


@pytest.mark.parametrize("provider,name,body,same_exchange", PAIRED, ids=[p[1] for p in PAIRED])
def test_stream_assembles_to_the_non_streamed_calls(provider, name, body, same_exchange):
    result = assembled(provider, name)
    expected = parse_reply(provider, json.loads((STREAMS / provider / body).read_text(encoding="utf-8")))
    got = result.reply
    assert got.error is None
    assert [(c.name, c.arguments) for c in got.tool_calls] == [(c.name, c.arguments) for c in expected.tool_calls]
    assert all(c.arguments_error is None for c in got.tool_calls)
    assert all(c.id for c in got.tool_calls) == all(c.id for c in expected.tool_calls)
    if same_exchange:
        assert got == expected  # ids, text, finish reason and usage too
    assert got.finish_reason == expected.finish_reason
    assert result.findings == ()
    assert result.events == len(fixture_lines(provider, name)) + (provider in OPENAI_STYLE)


@pytest.mark.parametrize("provider,name,calls", DOCUMENTED, ids=[d[1] for d in DOCUMENTED])
def test_stream_assembles_to_the_documented_calls(provider, name, calls):
    result = assembled(provider, name)
    assert [(c.name, c.arguments) for c in result.reply.tool_calls] == calls
    assert result.findings == ()


def test_split_arguments_count_their_deltas():
    # deepseek-reasoner sent {"location": "San Francisco"} in 10 argument pieces after its first delta
    result = assembled("deepseek", "deepseek-tool-call.chunks.txt")
    lines = [json.loads(line) for line in fixture_lines("deepseek", "deepseek-tool-call.chunks.txt")]
    pieces = [tc["function"].get("arguments") for line in lines for choice in line["choices"]
              for tc in choice["delta"].get("tool_calls") or []]
    assert result.deltas == (len(pieces),)
    assert result.reply.tool_calls[0].arguments == {"location": "San Francisco"}
    assert result.reply.usage.input_tokens == lines[-1]["usage"]["prompt_tokens"]
    assert result.extras["reasoning_chars"] > 0


def test_usage_in_a_last_chunk_without_choices():
    # xAI: usage arrives after finish_reason, in a chunk whose choices list is empty
    result = assembled("xai", "xai-tool-call.chunks.txt")
    last = json.loads(fixture_lines("xai", "xai-tool-call.chunks.txt")[-1])
    assert last["choices"] == []
    assert result.reply.usage.input_tokens == last["usage"]["prompt_tokens"]
    assert result.reply.usage.output_tokens == last["usage"]["completion_tokens"]


def test_cohere_parallel_calls_keep_their_ids_and_plan_is_not_text():
    result = assembled("cohere", "cohere-tool-call.chunks.txt")
    starts = [json.loads(line) for line in fixture_lines("cohere", "cohere-tool-call.chunks.txt")
              if '"tool-call-start"' in line]
    assert [c.id for c in result.reply.tool_calls] == [s["delta"]["message"]["tool_calls"]["id"] for s in starts]
    assert result.reply.text is None
    assert result.reply.finish_reason == "TOOL_CALL"
    assert result.extras["tool_plan_chars"] > 0


def test_responses_final_event_gives_status_and_usage():
    result = assembled("openai-responses", "azure-tool-call.1.chunks.txt")
    final = json.loads(fixture_lines("openai-responses", "azure-tool-call.1.chunks.txt")[-1])["response"]
    assert result.reply.finish_reason == final["status"] == "completed"
    assert result.reply.usage.input_tokens == final["usage"]["input_tokens"]
    assert result.reply.tool_calls[0].id.startswith("call_")  # call_id, as parse_reply takes it


def test_chunk_files_without_done_are_reported_as_unfinished():
    lines = fixture_lines("groq", "groq-tool-call.chunks.txt")
    result = assemble_bytes("groq", framed("groq", lines, done=False))
    assert [f.code for f in result.findings] == ["stream.no_final_event"]
    assert result.reply.tool_calls[0].name == "weather"  # what arrived is kept
