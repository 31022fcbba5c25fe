"""Framing decoders against their specifications: SSE per the WHATWG event-stream interpretation
rules (html.spec.whatwg.org/multipage/server-sent-events.html), NDJSON, and AWS event-stream checked
against botocore's own parser (botocore.eventstream.EventStreamBuffer) on the same bytes."""

from __future__ import annotations

import json
import struct
import zlib

import pytest
from botocore.eventstream import ChecksumMismatch, EventStreamBuffer
from hypothesis import given, settings
from hypothesis import strategies as st

from streams import bedrock_event, bedrock_exception, bedrock_stream, eventstream_message, fixture_lines
from toolchoice.providers.core.stream_framing import (EventDecoder, EventStreamDecoder, SSEDecoder, decode_bytes,
                                                      iter_chunks)


def sse_events(data: bytes, size: int | None = None) -> tuple[list[tuple[str, str]], str]:
    decoder = SSEDecoder()
    events = []
    for chunk in iter_chunks(data, size or max(1, len(data))):
        events += decoder.feed(chunk)
    rest, pending = decoder.close()
    return events + rest, pending


# The examples of the WHATWG section "Event stream interpretation" / "Authoring notes".
def test_spec_example_three_data_lines_join_with_newlines():
    events, _ = sse_events(b"data: YHOO\ndata: +2\ndata: 10\n\n")
    assert events == [("message", "YHOO\n+2\n10")]


def test_spec_example_comment_id_and_empty_data():
    stream = b": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n"
    events, pending = sse_events(stream)
    # the third block has no blank line after it: the spec does not dispatch it
    assert events == [("message", "first event"), ("message", "second event")]
    assert pending == " third event"


def test_spec_example_empty_data_fields():
    events, _ = sse_events(b"data\n\ndata\ndata\n\ndata:\n")
    assert events == [("message", ""), ("message", "\n")]


def test_spec_example_one_space_after_colon_is_dropped():
    events, _ = sse_events(b"data:test\n\ndata: test\n\n")
    assert events == [("message", "test"), ("message", "test")]


def test_event_field_names_the_event_and_resets():
    events, _ = sse_events(b"event: message_start\ndata: {}\n\ndata: {}\n\n")
    assert events == [("message_start", "{}"), ("message", "{}")]


def test_event_without_data_is_not_dispatched():
    events, _ = sse_events(b"event: ping\n\n: keepalive\n\n")
    assert events == []


@pytest.mark.parametrize("ending", [b"\r\n", b"\r", b"\n"])
def test_every_line_ending(ending):
    stream = b"data: a" + ending + b"data: b" + ending + ending
    for size in (1, 2, 3, len(stream)):
        assert sse_events(stream, size)[0] == [("message", "a\nb")]


def test_bom_is_dropped_once_and_utf8_split_across_chunks():
    stream = "\ufeffdata: żółw\n\n".encode()
    assert sse_events(stream, 1)[0] == [("message", "żółw")]
    assert sse_events("\ufeff\ufeffdata: x\n\n".encode())[0] == []  # a second BOM is part of a field name


def test_unknown_fields_and_retry():
    decoder = SSEDecoder()
    events = decoder.feed(b"foo: bar\nretry: 1500\nretry: 1x\nid: 7\ndata: x\n\n")
    assert events == [("message", "x")]
    assert decoder.retry == 1500 and decoder.last_event_id == "7"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"),
                        max_size=20), min_size=1, max_size=6), st.integers(min_value=1, max_value=9))
def test_any_split_gives_the_same_events(payloads, size):
    stream = "".join(f"data: {p}\n\n" for p in payloads).encode()
    whole = sse_events(stream)[0]
    assert sse_events(stream, size)[0] == whole
    assert [d for _, d in whole] == [p for p in payloads]


def test_done_sentinel_is_an_event_without_json():
    events, findings = decode_bytes("sse", b'data: {"a":1}\n\ndata: [DONE]\n\n')
    assert [(e.data, e.text) for e in events] == [({"a": 1}, '{"a":1}'), (None, "[DONE]")]
    assert findings == []


def test_sse_cut_inside_an_event_is_a_finding_not_a_loss():
    events, findings = decode_bytes("sse", b'data: {"a":1}\n\ndata: {"b":')
    assert [e.data for e in events] == [{"a": 1}]
    assert [f.code for f in findings] == ["stream.incomplete_event"]
    assert '{"b":' in findings[0].message


def test_ndjson_lines_in_any_split():
    data = b'{"a": 1}\r\n\n{"b": 2}\n{"c": 3}'
    for size in (1, 4, len(data)):
        decoder = EventDecoder("ndjson")
        events = [e for chunk in iter_chunks(data, size) for e in decoder.feed(chunk)] + decoder.close()
        assert [e.data for e in events] == [{"a": 1}, {"b": 2}, {"c": 3}]
    events, findings = decode_bytes("ndjson", b'{"a": 1}\nnot json\n')
    assert [f.code for f in findings] == ["stream.framing"]


# ---- AWS event-stream against botocore ---------------------------------------------------------


def botocore_messages(data: bytes) -> list[tuple[dict, bytes]]:
    buffer = EventStreamBuffer()
    buffer.add_data(data)
    return [(m.headers, m.payload) for m in buffer]


def ours(data: bytes, size: int | None = None) -> list[tuple[dict, bytes]]:
    decoder = EventStreamDecoder()
    out = []
    for chunk in iter_chunks(data, size or len(data)):
        out += decoder.feed(chunk)
    return [(m.headers, m.payload) for m in out]


def test_recorded_bedrock_stream_decodes_as_botocore_decodes_it():
    data = bedrock_stream(fixture_lines("bedrock", "amazon-bedrock-tool-no-args.chunks.txt"))
    theirs = botocore_messages(data)
    assert len(theirs) == 8
    for size in (1, 7, 64, len(data)):
        assert ours(data, size) == theirs


def typed_header(name: str, kind: int, raw: bytes) -> bytes:
    return bytes([len(name)]) + name.encode() + bytes([kind]) + raw


def test_every_header_type_reads_as_botocore_reads_it():
    headers = b"".join([
        typed_header("t", 0, b""), typed_header("f", 1, b""), typed_header("b", 2, b"\xff"),
        typed_header("s", 3, struct.pack(">h", -2)), typed_header("i", 4, struct.pack(">i", 70000)),
        typed_header("l", 5, struct.pack(">q", -(2 ** 40))), typed_header("y", 6, struct.pack(">H", 3) + b"\x00\x01\x02"),
        typed_header(":event-type", 7, struct.pack(">H", 8) + b"metadata"),
        typed_header("ts", 8, struct.pack(">q", 1700000000123)), typed_header("u", 9, bytes(range(16))),
    ])
    payload = b'{"usage":{}}'
    total = 12 + len(headers) + len(payload) + 4
    prelude = struct.pack(">II", total, len(headers))
    prelude += struct.pack(">I", zlib.crc32(prelude))
    body = prelude + headers + payload
    data = body + struct.pack(">I", zlib.crc32(body))
    ((their_headers, their_payload),) = botocore_messages(data)
    ((our_headers, our_payload),) = ours(data)
    assert our_payload == their_payload
    assert set(our_headers) == set(their_headers)
    assert our_headers == their_headers


@pytest.mark.parametrize("where", ["prelude", "message"])
def test_a_bad_crc_is_refused_by_both(where):
    good = bedrock_event("messageStop", {"stopReason": "tool_use"})
    bad = bytearray(good)
    if where == "prelude":
        bad[8] ^= 0xFF  # the prelude CRC itself
    else:
        bad[-6] ^= 0x01  # a payload byte: the message CRC no longer matches
    with pytest.raises(ChecksumMismatch):
        botocore_messages(bytes(bad))
    decoder = EventDecoder("eventstream")
    assert decoder.feed(bytes(bad)) == []
    assert [f.code for f in decoder.findings] == ["stream.framing"]
    assert "CRC" in decoder.findings[0].message
    assert decoder.feed(good) == []  # nothing after a broken frame is trusted


def test_exception_message_becomes_a_named_event():
    data = bedrock_event("messageStart", {"role": "assistant"}) + bedrock_exception("throttlingException", "slow down")
    events, findings = decode_bytes("eventstream", data)
    assert [e.name for e in events] == ["messageStart", ":exception:throttlingException"]
    assert events[1].data == {"message": "slow down"}
    assert findings == []


def test_message_cut_short_is_a_finding():
    data = bedrock_event("messageStart", {"role": "assistant"}) + bedrock_event("messageStop", {})[:20]
    events, findings = decode_bytes("eventstream", data)
    assert [e.name for e in events] == ["messageStart"]
    assert [f.code for f in findings] == ["stream.incomplete_event"]


def test_impossible_length_is_refused():
    prelude = struct.pack(">II", 10, 0)  # shorter than a prelude and CRC
    data = prelude + struct.pack(">I", zlib.crc32(prelude)) + b"\x00" * 4
    _, findings = decode_bytes("eventstream", data)
    assert [f.code for f in findings] == ["stream.framing"]


def test_eventstream_message_helper_matches_botocore_layout():
    data = eventstream_message({":event-type": "x"}, json.dumps({"a": 1}).encode())
    assert botocore_messages(data) == [({":event-type": "x"}, b'{"a": 1}')]
