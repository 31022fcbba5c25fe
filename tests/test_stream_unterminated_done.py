"""An OpenAI-style stream whose ``data: [DONE]`` has no blank line after it (the stream ends right after it).

The truth is the official SDK's own decoder on the same bytes: openai 3.57.0 ``openai/_streaming.py``
``SSEDecoder.iter_bytes`` hands the last line (``_SSELineDecoder.finish``) to ``decode``, which only appends it
to the data buffer; an event is dispatched at a blank line, and none follows, so no ``[DONE]`` event comes out
(as the SSE spec says: "If the file ends in the middle of an event, before the final empty line, the
incomplete event is not dispatched"). ``Stream.__stream__`` then ends with the bytes, without an error, and the
chat stream helper returns the completion of every chunk before it. toolchoice reads the same events and the same
reply, whole (the marker's bytes did arrive: nothing was cut), and says so with ``stream.unterminated_event``.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from openai._streaming import SSEDecoder as OpenAIDecoder
from streams import Piece, Script, StreamServer, fixture_lines
from test_stream_sdk_differential import FORMS, base_events, pieces, sdk_openai_chat, toolchoice, write

from toolchoice.providers.core.model import Request
from toolchoice.providers.core.stream_framing import EventDecoder, decode_bytes
from toolchoice.providers.core.streaming import assemble_bytes, stream_reply
from toolchoice.providers.core.transport import prepare

HEAD = b'data: {"a":1}\n\n'


def openai_events(chunks: list[bytes]) -> list[tuple[str, str]]:
    return [(sse.event or "message", sse.data) for sse in OpenAIDecoder().iter_bytes(iter(chunks))]


def our_events(chunks: list[bytes]) -> tuple[list[tuple[str, str]], list[str]]:
    decoder = EventDecoder("sse")
    events = [e for chunk in chunks for e in decoder.feed(chunk)] + decoder.close()
    return [(e.name or "message", e.text) for e in events], [f.code for f in decoder.findings]


@pytest.mark.parametrize("tail", [b"data: [DONE]", b"data: [DONE]\n", b"data: [DONE]\r\n", b"data: [DONE]\r",
                                  b"data:[DONE]", b"event: done\ndata: [DONE]"])
@pytest.mark.parametrize("chunk", [0, 1])
def test_the_events_are_the_openai_decoder_s(tail: bytes, chunk: int):
    chunks = pieces(HEAD + tail, chunk)
    events, codes = our_events(chunks)
    assert events == openai_events(chunks) == [("message", '{"a":1}')]
    assert codes == ["stream.unterminated_event"]


def test_a_terminated_done_is_an_event_and_no_finding():
    chunks = [HEAD + b"data: [DONE]\n\n"]
    events, codes = our_events(chunks)
    assert events == openai_events(chunks) == [("message", '{"a":1}'), ("message", "[DONE]")]
    assert codes == []


def test_the_finding_says_what_the_sdk_does():
    events, findings = decode_bytes("sse", HEAD + b"data: [DONE]")
    (finding,) = findings
    assert finding.code == "stream.unterminated_event"
    assert "[DONE]" in finding.message and "openai" in finding.message


# the recorded OpenAI-style streams the differential test compares with the openai SDK (groq, deepseek, xai)
OPENAI_STYLE = [("groq", "groq-tool-call.chunks.txt"), ("deepseek", "deepseek-tool-call.chunks.txt"),
                ("xai", "xai-tool-call.chunks.txt")]
ENDS = {"eol": "end-without-blank-line", "none": "end-inside-last-line"}


@pytest.mark.parametrize("provider, name", OPENAI_STYLE)
@pytest.mark.parametrize("end", sorted(ENDS))
@pytest.mark.parametrize("chunk", [0, 7])
def test_a_recorded_stream_ending_so_reads_as_the_sdk_reads_it(provider: str, name: str, end: str, chunk: int):
    events = base_events(provider, name, False, True)
    assert events[-1] == (None, "[DONE]")
    chunks = pieces(write(events, FORMS[ENDS[end]]), chunk)
    ours, _, codes = toolchoice(provider, chunks)
    assert ours == sdk_openai_chat(chunks)  # the same calls, text and finish reason
    assert ours.error is None
    assert codes == ["stream.unterminated_event"]  # not stream.no_final_event: nothing was cut
    decoded, _ = our_events(chunks)
    assert decoded == openai_events(chunks) and ("message", "[DONE]") not in decoded
    # offline (parse --stream): the same reading
    result = assemble_bytes(provider, b"".join(chunks))
    assert result.reply.error is None and [f.code for f in result.findings] == ["stream.unterminated_event"]
    assert result.events == len(decoded)


def test_a_stream_without_done_still_says_it_may_be_cut():
    events = base_events("groq", "groq-tool-call.chunks.txt", False, False)
    result = assemble_bytes("groq", write(events, FORMS["plain"]))
    assert [f.code for f in result.findings] == ["stream.no_final_event"] and result.reply.error is not None


def test_live_the_reply_is_whole_and_the_finding_said():
    """Over a real socket (stream_reply): the bytes end right after data: [DONE]."""
    events = base_events("deepseek", "deepseek-tool-call.chunks.txt", False, True)
    data = write(events, FORMS["end-inside-last-line"])
    assert data.endswith(b"data: [DONE]")
    with StreamServer(Script([Piece(data)], content_type="text/event-stream")) as server:
        request = Request("POST", server.url + "/stream", {"Authorization": "Bearer $SECRET_KEY"}, {"stream": True},
                          key_env=("SECRET_KEY",), stream=True)
        prepared = prepare(request, "deepseek", {"SECRET_KEY": "sk-test-0000"})

        async def go():  # noqa: ANN202
            async with httpx.AsyncClient(timeout=httpx.Timeout(30.0)) as client:
                return await stream_reply(client, prepared, "deepseek", 10.0, idle=5.0)

        result = asyncio.run(go())
    assert result.status == 200 and result.reply.error is None and result.reply.tool_calls
    assert [f.code for f in result.findings] == ["stream.unterminated_event"]
    assert result.events == len(openai_events([data]))
    assert json.loads(json.dumps([c.arguments for c in result.reply.tool_calls]))  # whole arguments


def test_after_a_terminated_done_an_unterminated_one_is_after_done():
    """A second [DONE] after the first (terminated) one: what follows [DONE] is not read (stream.after_done)."""
    events, findings = decode_bytes("sse", HEAD + b"data: [DONE]\n\ndata: [DONE]")
    assert [e.text for e in events] == ['{"a":1}', "[DONE]"]
    assert [f.code for f in findings] == ["stream.after_done"]


def test_fixture_lines_are_what_the_differential_test_reads():
    assert fixture_lines("groq", "groq-tool-call.chunks.txt")  # the recorded stream exists (SOURCES.md)


def test_through_the_proxy_the_line_says_no_fault():
    """`toolchoice mock --upstream` (the proxy) passes the bytes unchanged and judges the stream as `send` does:
    the reply whole, no stream.no_final_event among its findings."""
    from test_proxy_wire import CHAT, streamed_through

    chunk = (b'data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,'
             b'"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather",'
             b'"arguments":"{\\"city\\":\\"Paris\\"}"}}]},"finish_reason":"tool_calls"}]}\n\n')
    data = chunk + b"data: [DONE]"
    received, line = streamed_through("openai", data, "/chat/completions", {**CHAT, "stream": True}, "/v1")
    assert received == data
    codes = [f["code"] for f in line["findings"]]
    assert "stream.no_final_event" not in codes and "proxy.error" not in codes, line
    assert line["verdict"] == "obeyed", line


# ---- a stream whose own end is another event: an unterminated data: [DONE] does not stand for it ----------------

def _cut_before(provider: str, name: str, end: str) -> bytes:
    """The recorded stream cut before its own end event (``end`` and what follows), then ``data: [DONE]`` with no
    blank line after it: a gateway that ends every stream with the chat API's marker."""
    events = base_events(provider, name, True, False)
    events = events[:[e[0] for e in events].index(end)] + [(None, "[DONE]")]
    data = write(events, FORMS["end-inside-last-line"])
    assert data.endswith(b"data: [DONE]")
    return data


def _live(provider: str, data: bytes):  # noqa: ANN202
    with StreamServer(Script([Piece(data)], content_type="text/event-stream")) as server:
        request = Request("POST", server.url + "/stream", {"Authorization": "Bearer $SECRET_KEY"}, {"stream": True},
                          key_env=("SECRET_KEY",), stream=True)
        prepared = prepare(request, provider, {"SECRET_KEY": "sk-test-0000"})

        async def go():  # noqa: ANN202
            async with httpx.AsyncClient(timeout=httpx.Timeout(30.0)) as client:
                return await stream_reply(client, prepared, provider, 10.0, idle=5.0)

        return asyncio.run(go())


def test_a_responses_stream_cut_before_response_completed_stays_cut():
    """openai 3.57.0 lib/streaming/responses/_responses.py: the stream helper's get_final_response raises
    "Didn't receive a `response.completed` event." when the stream ends without it, [DONE] or not (Stream breaks
    at a [DONE] event; an unterminated one is no event). The real SDK over a socket, then toolchoice on the bytes."""
    import openai

    data = _cut_before("openai-responses", "azure-tool-call.1.chunks.txt", "response.completed")
    with StreamServer(Script([Piece(data)], content_type="text/event-stream")) as server:
        client = openai.OpenAI(api_key="sk-test", base_url=server.url + "/v1", max_retries=0)
        with pytest.raises(RuntimeError, match="response.completed"):
            with client.responses.stream(model="m", input="hi") as stream:
                stream.get_final_response()
    live = _live("openai-responses", data)
    offline = assemble_bytes("openai-responses", data)
    for result in (live, offline):
        assert result.reply.error is not None, result.findings
        assert "stream.no_final_event" in [f.code for f in result.findings]


def test_an_anthropic_stream_cut_before_message_stop_stays_cut():
    """Anthropic's streaming docs: every stream ends with "A final message_stop event"; anthropic 2.14.0
    _streaming.py Stream.__stream__ skips an event without an event name ('if sse.event is None: continue'), so
    ``data: [DONE]`` says nothing to it: the reading is the one without that line, a stream that may be cut."""
    data = _cut_before("anthropic", "anthropic-tool-no-args.chunks.txt", "message_stop")
    without = data[:-len(b"data: [DONE]")]
    for result in (_live("anthropic", data), assemble_bytes("anthropic", data)):
        assert result.reply.error is not None, result.findings
        assert "stream.no_final_event" in [f.code for f in result.findings]
    assert assemble_bytes("anthropic", without).reply.error is not None


@pytest.mark.parametrize("tail", [b"data: [DONE]", b"data: [DONE]\r\n", b"data: [DONE]\r"])
def test_through_the_proxy_the_openai_sdk_reads_the_call(tail: bytes):
    """A real openai client behind `toolchoice proxy`: the SDK's chat stream helper gets the upstream's bytes and
    returns the call, as it does straight from the upstream; the proxy's line judges the reply whole."""
    import openai
    from test_proxy_wire import _settled, proxied

    chunk = (b'data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,'
             b'"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather",'
             b'"arguments":"{\\"city\\":\\"Paris\\"}"}}]},"finish_reason":"tool_calls"}]}\n\n')
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}}}}]
    with StreamServer(Script([Piece(chunk + tail)], content_type="text/event-stream")) as upstream, \
            proxied("openai", upstream.url + "/v1") as proxy:
        client = openai.OpenAI(api_key="sk-test", base_url=proxy.base_url, max_retries=0)
        with client.chat.completions.stream(model="m", messages=[{"role": "user", "content": "hi"}],
                                            tools=tools) as stream:
            completion = stream.get_final_completion()
        (line,) = _settled(proxy, 1)
    (call,) = completion.choices[0].message.tool_calls
    assert (call.id, call.function.name, json.loads(call.function.arguments)) == ("call_1", "get_weather",
                                                                                  {"city": "Paris"})
    assert line["verdict"] == "obeyed" and "stream.no_final_event" not in [f["code"] for f in line["findings"]]


def test_through_the_proxy_an_anthropic_stream_cut_before_message_stop_is_said_cut():
    """`toolchoice proxy -p anthropic`: the same cut stream, then an unterminated data: [DONE]; the line keeps
    stream.no_final_event (its reading is send's, above)."""
    from test_proxy_wire import streamed_through

    data = _cut_before("anthropic", "anthropic-tool-no-args.chunks.txt", "message_stop")
    body = {"model": "claude", "max_tokens": 64, "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    received, line = streamed_through("anthropic", data, "/v1/messages", body)
    assert received == data
    assert "stream.no_final_event" in [f["code"] for f in line["findings"]], line


# data that starts with [DONE] but is not exactly it: openai 3.57.0 openai/_streaming.py ends the stream there
# (`if sse.data.startswith("[DONE]"): break`), and never reads what follows
@pytest.mark.parametrize("marker", ["[DONE] ", "[DONE]\t", "[DONE]done"])
@pytest.mark.parametrize("provider, name", OPENAI_STYLE)
def test_a_marker_that_starts_with_done_ends_the_stream_as_the_sdk_ends_it(marker: str, provider: str, name: str):
    events = base_events(provider, name, False, True)
    assert events[-1] == (None, "[DONE]")
    chunks = pieces(write([*events[:-1], (None, marker)], FORMS["plain"]), 0)
    ours, _, codes = toolchoice(provider, chunks)
    assert ours == sdk_openai_chat(chunks) and ours.error is None
    assert codes == ["stream.inexact_done"]  # said, and benign: not stream.no_final_event nor stream.framing
    result = assemble_bytes(provider, b"".join(chunks))
    assert result.reply.error is None and [f.code for f in result.findings] == ["stream.inexact_done"]
    # unterminated, the same marker is no event, as the decoder dispatches none: the stream was not cut either
    chunks = pieces(write([*events[:-1], (None, marker)], FORMS["end-inside-last-line"]), 0)
    ours, _, codes = toolchoice(provider, chunks)
    assert ours == sdk_openai_chat(chunks) and ours.error is None and codes == ["stream.unterminated_event"]


def test_what_follows_a_loose_marker_is_not_read_as_the_sdk_does_not_read_it():
    events = base_events("groq", "groq-tool-call.chunks.txt", False, True)
    late = {**events[0][1], "choices": [{"index": 0, "delta": {"content": "after the marker"}, "finish_reason": None}]}
    chunks = [write([*events[:-1], (None, "[DONE] "), (None, late)], FORMS["plain"])]
    ours, _, codes = toolchoice("groq", chunks)
    sdk = sdk_openai_chat(chunks)
    assert (ours.calls, ours.text) == (sdk.calls, sdk.text) and "after the marker" not in str(sdk)
    assert codes[:2] == ["stream.inexact_done", "stream.after_done"]
