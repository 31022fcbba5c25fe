"""stream_reply against stand-in servers on 127.0.0.1 that stream each protocol over real sockets
with real pauses: paced streams, a stall, an early end, interleaved parallel calls, stream faults.
Every case must end within its bound, say what happened as findings, never raise, and keep what
arrived."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest

from streams import (Piece, Script, StreamServer, bedrock_event, bedrock_exception, fixture_lines, framed, ndjson,
                     paced, sse)
from toolchoice.providers.core.model import Request
from toolchoice.providers.core.streaming import stream_reply
from toolchoice.providers.core.transport import prepare

FIXTURES = {
    "openai": ("deepseek", "deepseek-tool-call.chunks.txt"),  # an OpenAI-style stream with split arguments
    "openai-responses": ("openai-responses", "azure-tool-call.1.chunks.txt"),
    "anthropic": ("anthropic", "anthropic-tool-no-args.chunks.txt"),
    "gemini": ("gemini", "google-tool-call.chunks.txt"),
    "cohere": ("cohere", "cohere-tool-call.chunks.txt"),
    "ollama": ("ollama", "ollama-docs-streaming-with-tools.ndjson"),
    "bedrock": ("bedrock", "amazon-bedrock-tool-call.1.chunks.txt"),
}


def recorded(provider: str) -> bytes:
    folder, name = FIXTURES[provider]
    return framed(provider, fixture_lines(folder, name), done=provider == "openai")


def run(server: StreamServer, provider: str, *, deadline: float = 10.0, idle: float = 5.0, secret: str = ""):
    request = Request("POST", server.url + "/stream", {"Authorization": "Bearer $SECRET_KEY"}, {"stream": True},
                      key_env=("SECRET_KEY",), stream=True)
    prepared = prepare(request, provider, {"SECRET_KEY": secret or "sk-test-0000"})

    async def go():
        async with httpx.AsyncClient(timeout=httpx.Timeout(30.0)) as client:
            return await stream_reply(client, prepared, provider, deadline, idle=idle)

    started = time.monotonic()
    result = asyncio.run(go())
    return result, time.monotonic() - started


def content_type(provider: str) -> str:
    return {"ollama": "application/x-ndjson", "bedrock": "application/vnd.amazon.eventstream"}.get(
        provider, "text/event-stream")


@pytest.mark.parametrize("provider", sorted(FIXTURES))
def test_paced_recorded_stream_assembles_and_is_timed(provider):
    data = recorded(provider)
    pieces = paced(data, max(1, len(data) // 6), 0.015)
    with StreamServer(Script(pieces, content_type=content_type(provider))) as server:
        result, took = run(server, provider)
    assert result.status == 200
    assert result.findings == ()
    assert result.reply.tool_calls and result.reply.error is None
    assert result.raw == data  # every byte that arrived is kept
    t = result.timings
    assert t.headers_ms <= t.first_byte_ms <= t.first_tool_delta_ms <= t.last_event_ms <= t.total_ms
    assert t.last_event_ms - t.first_byte_ms >= 0.015 * 1000 * 4  # the pauses were real
    assert t.longest_gap_ms >= 12
    assert took < 5


def interleaved_openai() -> bytes:
    """Two calls whose argument pieces alternate by index, as parallel calls arrive."""
    def chunk(**delta):
        return {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}

    def piece(index, **fields):
        return chunk(tool_calls=[{"index": index, **fields}])

    events = [
        piece(0, id="call_a", type="function", function={"name": "get_weather", "arguments": ""}),
        piece(1, id="call_b", type="function", function={"name": "get_time", "arguments": ""}),
        piece(0, function={"arguments": '{"ci'}), piece(1, function={"arguments": '{"tz": "Eu'}),
        piece(0, function={"arguments": 'ty": "Par'}), piece(1, function={"arguments": 'rope/Paris"}'}),
        piece(0, function={"arguments": 'is"}'}),
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
        {"choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 30}},
    ]
    return sse(events, done=True)


def test_interleaved_parallel_calls_are_kept_apart():
    with StreamServer(Script(paced(interleaved_openai(), 40, 0.01))) as server:
        result, _ = run(server, "openai")
    calls = result.reply.tool_calls
    assert [(c.id, c.name, c.arguments) for c in calls] == [
        ("call_a", "get_weather", {"city": "Paris"}), ("call_b", "get_time", {"tz": "Europe/Paris"})]
    assert result.deltas == (4, 3)
    assert result.reply.finish_reason == "tool_calls"
    assert result.reply.usage.input_tokens == 12 and result.reply.usage.output_tokens == 30
    assert result.findings == ()


def interleaved_anthropic() -> bytes:
    events = [
        {"type": "message_start", "message": {"usage": {"input_tokens": 20, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "toolu_1",
                                                                        "name": "a", "input": {}}},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_2",
                                                                        "name": "b", "input": {}}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": '{"y":'}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": '{"x":'}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": " 1}"}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": " 2}"}},
        {"type": "content_block_stop", "index": 0}, {"type": "content_block_stop", "index": 1},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 40}},
        {"type": "message_stop"},
    ]
    return sse(events, named=True)


def test_interleaved_anthropic_blocks():
    with StreamServer(Script(paced(interleaved_anthropic(), 50, 0.01))) as server:
        result, _ = run(server, "anthropic")
    assert [(c.id, c.arguments) for c in result.reply.tool_calls] == [("toolu_1", {"x": 1}), ("toolu_2", {"y": 2})]
    assert result.reply.usage.input_tokens == 20 and result.reply.usage.output_tokens == 40
    assert result.findings == ()


def test_a_stream_that_stalls_stops_at_the_idle_limit_and_keeps_what_came():
    data = interleaved_openai()
    cut = data.rindex(b"data: ", 0, data.index(b'"arguments": "is\\"}"'))  # call_a's last piece never comes
    with StreamServer(Script([Piece(data[:cut])], stall=30.0)) as server:
        result, took = run(server, "openai", idle=0.25)
    assert took < 3
    codes = [f.code for f in result.findings]
    assert codes[0] == "stream.stalled"
    assert "stream.arguments_invalid" in codes and "stream.no_final_event" in codes
    first, second = result.reply.tool_calls
    assert first.arguments is None and first.raw_arguments == '{"city": "Par'  # kept, not lost
    assert second.arguments == {"tz": "Europe/Paris"}


def test_the_whole_stream_is_bounded_by_its_deadline():
    data = interleaved_openai()
    pieces = paced(data, 20, 0.1)  # a trickle of 6 s: each pause is far under the idle limit
    with StreamServer(Script(pieces)) as server:
        result, took = run(server, "openai", deadline=0.3, idle=5.0)
    assert took < 2.5
    assert [f.code for f in result.findings][:1] == ["stream.deadline"]
    assert result.raw and result.raw == data[:len(result.raw)]


@pytest.mark.parametrize("provider", sorted(FIXTURES))
def test_a_stream_that_ends_early_says_so(provider):
    data = recorded(provider)
    with StreamServer(Script([Piece(data[:len(data) * 2 // 3])], content_type=content_type(provider),
                             drop=True)) as server:
        result, took = run(server, provider)
    codes = [f.code for f in result.findings]
    assert "stream.transport" in codes  # the chunked body was never finished
    assert "stream.no_final_event" in codes
    assert result.raw == data[:len(result.raw)] and len(result.raw) == len(data) * 2 // 3
    assert took < 5


def test_unknown_index_and_changed_id_are_findings():
    def piece(index, **fields):
        return {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index, **fields}]}}]}

    events = [piece(0, id="call_1", function={"name": "f", "arguments": '{"a": 1}'}),
              piece(3, function={"arguments": '{"b": 2}'}),
              piece(0, id="call_2", function={"arguments": ""}),
              {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}]
    with StreamServer(Script([Piece(sse(events, done=True))])) as server:
        result, _ = run(server, "openai")
    codes = [f.code for f in result.findings]
    assert codes == ["stream.unknown_index", "stream.id_changed"]
    assert [c.arguments for c in result.reply.tool_calls] == [{"a": 1}, {"b": 2}]
    assert result.reply.tool_calls[0].id == "call_1"


def test_error_status_is_read_whole_as_the_reply_error():
    body = json.dumps({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}).encode()
    with StreamServer(Script([Piece(body)], status=529, content_type="application/json")) as server:
        result, _ = run(server, "anthropic")
    assert result.status == 529
    assert result.reply.error.type == "overloaded_error"
    assert result.events == 0


def test_error_event_inside_the_stream():
    events = [{"type": "message_start", "message": {"usage": {"input_tokens": 3}}},
              {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}]
    with StreamServer(Script([Piece(sse(events, named=True))])) as server:
        result, _ = run(server, "anthropic")
    assert result.reply.error.type == "overloaded_error"
    assert [f.code for f in result.findings] == ["stream.error_event"]


def test_bedrock_exception_inside_the_stream():
    data = bedrock_event("messageStart", {"role": "assistant"}) + bedrock_exception("throttlingException", "slow")
    with StreamServer(Script([Piece(data)], content_type="application/vnd.amazon.eventstream")) as server:
        result, _ = run(server, "bedrock")
    assert result.reply.error.type == "throttlingException"
    assert result.reply.error.message == "slow"


def test_a_plain_json_answer_is_read_as_one_body():
    body = fixture_lines("deepseek", "deepseek-tool-call.json")  # pretty JSON: join the lines back
    text = "\n".join(body).encode()
    with StreamServer(Script([Piece(text)], content_type="application/json")) as server:
        result, _ = run(server, "deepseek")
    assert [f.code for f in result.findings] == ["stream.not_streamed"]
    assert result.reply.tool_calls[0].arguments == {"location": "San Francisco"}


def test_nothing_listening_is_a_finding_and_an_error_not_a_traceback():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    request = Request("POST", f"http://127.0.0.1:{port}/x", {}, {"stream": True}, stream=True)
    prepared = prepare(request, "openai", {})

    async def go():
        async with httpx.AsyncClient() as client:
            return await stream_reply(client, prepared, "openai", 3.0)

    result = asyncio.run(go())
    assert result.status is None
    assert [f.code for f in result.findings] == ["stream.transport"]
    assert result.reply.error is not None


def test_the_key_never_appears_in_what_is_kept():
    secret = "sk-live-SECRET-123456"
    events = [{"choices": [{"index": 0, "delta": {"content": f"your key is {secret}"}}]},
              {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}]
    with StreamServer(Script([Piece(sse(events, done=True))])) as server:
        result, _ = run(server, "openai", secret=secret)
    assert secret.encode() not in result.raw
    assert secret not in (result.reply.text or "")
    assert "$SECRET_KEY" in result.reply.text
    assert all(secret not in e.text for e in result.event_log)


def test_ollama_ndjson_paced_line_by_line():
    lines = [{"message": {"role": "assistant", "content": "Let me check. "}, "done": False},
             {"message": {"role": "assistant", "content": "",
                          "tool_calls": [{"function": {"name": "a", "arguments": {"x": 1}}},
                                         {"function": {"name": "b", "arguments": {}}}]}, "done": False},
             {"message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop",
              "prompt_eval_count": 5, "eval_count": 9}]
    with StreamServer(Script([Piece(ndjson([line]), 0.02) for line in lines],
                             content_type="application/x-ndjson")) as server:
        result, _ = run(server, "ollama")
    assert [(c.name, c.arguments) for c in result.reply.tool_calls] == [("a", {"x": 1}), ("b", {})]
    assert result.reply.text == "Let me check. "
    assert result.reply.usage.output_tokens == 9
    assert result.events == 3 and result.findings == ()


def test_the_clients_read_timeout_is_a_stall_too():
    data = interleaved_openai()
    with StreamServer(Script([Piece(data[:200])], stall=30.0)) as server:
        request = Request("POST", server.url + "/s", {}, {"stream": True}, stream=True)
        prepared = prepare(request, "openai", {})

        async def go():
            async with httpx.AsyncClient(timeout=httpx.Timeout(0.2)) as client:
                return await stream_reply(client, prepared, "openai", 10.0, idle=5.0)

        started = time.monotonic()
        result = asyncio.run(go())
    assert time.monotonic() - started < 3
    assert [f.code for f in result.findings][0] == "stream.stalled"
    assert result.raw == data[:200]
