"""toolchoice's stream reading against the official SDKs' own stream decoders, on the same bytes.

The recorded streams (tests/data/streams, SOURCES.md) are framed again in the ways the WHATWG HTML
"server-sent events" section allows (html.spec.whatwg.org/multipage/server-sent-events.html,
"9.2.6 Interpreting an event stream") or that real servers send: CRLF and lone CR line ends, ``data:``
without the space, comment lines, ``event``/``id``/``retry`` fields, multi-line ``data``, a leading BOM,
keep-alive blank lines and comment-only blocks, non-ASCII text (with U+2028, which ``str.splitlines``
breaks at and SSE does not), and chunk boundaries anywhere (1-byte chunks cut every UTF-8 character and
every CRLF). The same bytes go to toolchoice and to the provider's official SDK (the versions the test
extra installs: openai 3.57.0, anthropic 2.14.0, google-genai 3.6.1, mistralai 3.7.0, cohere 7.3.1,
ollama 0.6.3, botocore 1.44.x), each SDK reached through its own client over an ``httpx.MockTransport``
(no socket) or its own decoder, and what each assembles is compared: tool calls (id, name, arguments),
text and finish reason; or, where the SDK has no accumulator, the decoded event payloads.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, replace
from typing import Any, Callable

import httpx
import pytest

from streams import bedrock_stream, fixture_lines
from toolchoice.providers.core.stream_framing import EventDecoder
from toolchoice.providers.core.streaming import assembler_for

# ---- the recorded streams as (event name, data) pairs ------------------------------------------

# provider, fixture, framed with event: names (the API names its events), ends with data: [DONE]
SSE_STREAMS = [
    ("groq", "groq-tool-call.chunks.txt", False, True),
    ("deepseek", "deepseek-tool-call.chunks.txt", False, True),
    ("xai", "xai-tool-call.chunks.txt", False, True),
    ("openai-responses", "azure-tool-call.1.chunks.txt", True, False),
    ("anthropic", "anthropic-tool-no-args.chunks.txt", True, False),
    ("anthropic", "anthropic-json-tool.1.chunks.txt", True, False),
    ("anthropic", "anthropic-tool-search-regex.1.chunks.txt", True, False),
    ("gemini", "google-tool-call.chunks.txt", False, False),
    ("gemini", "google-stream-tool-call-arguments.chunks.txt", False, False),
    ("mistral", "mistral-tool-call.chunks.txt", False, True),
    ("mistral", "mistral-incremental-tool-call.chunks.txt", False, True),
    ("cohere", "cohere-tool-call.chunks.txt", True, False),
    ("cohere", "cohere-empty-tool-call.chunks.txt", True, False),
]

_ODD = "é€😀\u2028x"  # 2-, 3- and 4-byte UTF-8, and U+2028 (a line end to str.splitlines, not to SSE)


def _with_odd_text(value: Any) -> Any:
    """Every non-empty text/content string gets non-ASCII characters appended (both sides read them)."""
    if isinstance(value, dict):
        return {k: (v + _ODD if k in ("text", "content", "thinking") and isinstance(v, str) and v
                    else _with_odd_text(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_with_odd_text(v) for v in value]
    return value


def base_events(provider: str, name: str, named: bool, done: bool) -> list[tuple[str | None, Any]]:
    events: list[tuple[str | None, Any]] = []
    for line in fixture_lines(provider, name):
        payload = json.loads(line)
        if events and payload.get("type") == "message_start":
            break  # vercel's tool-search file replays two API responses; one HTTP stream carries one message
        events.append((payload.get("type") if named else None, payload))
    if done:
        events.append((None, "[DONE]"))
    return events


@dataclass(frozen=True)
class Form:
    """How the events are written on the wire (every choice is SSE the spec reads the same way)."""

    eol: str = "\n"
    space: bool = True  # "data: x" or "data:x" (spec: one leading space is dropped)
    comments: bool = False  # ": ping" lines inside events and comment-only blocks between them
    fields: bool = False  # id: and retry: lines in every event
    multiline: bool = False  # the JSON written pretty over several data: lines (joined with LF)
    bom: bool = False  # a U+FEFF first (spec: ignored)
    keepalive: bool = False  # extra blank lines between events (spec: no data, nothing dispatched)
    odd_text: bool = False  # non-ASCII text, written unescaped
    chunk: int = 0  # split the bytes into pieces of this size (0: one piece)
    end: str = "blank"  # the last event ends with a blank line ("blank"), one line end ("eol"), or none ("none")


FORMS: dict[str, Form] = {
    "plain": Form(),
    "crlf": Form(eol="\r\n"),
    "cr": Form(eol="\r"),
    "no-space": Form(space=False),
    "comments": Form(comments=True),
    "id-retry": Form(fields=True),
    "multiline-data": Form(multiline=True),
    "bom": Form(bom=True),
    "keepalive": Form(keepalive=True),
    "utf8": Form(odd_text=True),
    "crlf-utf8-1byte": Form(eol="\r\n", odd_text=True, chunk=1),  # cuts every CRLF and every UTF-8 character
    "cr-1byte": Form(eol="\r", chunk=1),
    "bom-1byte": Form(bom=True, chunk=1),
    "id-keepalive": Form(fields=True, keepalive=True),
    "end-without-blank-line": Form(end="eol"),
    "end-inside-last-line": Form(end="none"),
    "all-7byte": Form(eol="\r\n", space=False, comments=True, fields=True, multiline=True, keepalive=True,
                      odd_text=True, chunk=7),
}


def write(events: list[tuple[str | None, Any]], form: Form) -> bytes:
    eol, sep = form.eol, (" " if form.space else "")
    out = ["\ufeff"] if form.bom else []
    for number, (name, payload) in enumerate(events):
        if form.odd_text:
            payload = _with_odd_text(payload)
        text = payload if isinstance(payload, str) else json.dumps(payload, ensure_ascii=not form.odd_text,
                                                                   indent=2 if form.multiline else None)
        if form.keepalive:
            out.append(eol + eol)
        if form.comments:
            out.append(f": ping{eol}{eol}:{eol}")
        if form.fields:
            out.append(f"id:{sep}{number}{eol}retry:{sep}3000{eol}")
        if name is not None:
            out.append(f"event:{sep}{name}{eol}")
        for line in text.split("\n"):
            out.append(f"data:{sep}{line}{eol}")
            if form.comments:
                out.append(f": keep-alive{eol}")
        out.append(eol)
    text = "".join(out)
    cut = {"blank": 0, "eol": 1, "none": 2}[form.end] * len(eol)
    return text[:len(text) - cut].encode("utf-8")


def pieces(data: bytes, size: int) -> list[bytes]:
    return [data] if not size else [data[i:i + size] for i in range(0, len(data), size)]


# ---- toolchoice's side ------------------------------------------------------------------------


@dataclass(frozen=True)
class Got:
    calls: list[tuple[str | None, str, Any]]  # id, name, arguments
    text: str | None
    finish: str | None
    error: str | None = None


def toolchoice(provider: str, chunks: list[bytes]) -> tuple[Got, list[Any], list[str]]:
    from toolchoice.providers.core.streaming import failed, settled

    framing, assembler = assembler_for(provider)
    decoder = EventDecoder(framing)
    events = [event for chunk in chunks for event in decoder.feed(chunk)] + decoder.close()
    for event in events:
        assembler.feed(event)
    assembly = assembler.finish()
    findings = settled([*decoder.findings, *assembly.findings])
    reply = failed(findings, assembly.reply)
    got = Got([(c.id, c.name, c.arguments) for c in reply.tool_calls], reply.text or None, reply.finish_reason,
              reply.error.type if reply.error else None)
    payloads = [e.data if e.data is not None else e.text for e in events]
    return got, payloads, [f.code for f in findings]


# ---- the SDKs' side ---------------------------------------------------------------------------


def _transport(chunks: list[bytes], content_type: str = "text/event-stream") -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": content_type}, content=iter(chunks))

    return httpx.MockTransport(handler)


def sdk_openai_chat(chunks: list[bytes]) -> Got:
    import openai

    client = openai.OpenAI(api_key="sk-test", base_url="http://127.0.0.1:9/v1",
                           http_client=httpx.Client(transport=_transport(chunks)), max_retries=0)
    with client.chat.completions.stream(model="m", messages=[{"role": "user", "content": "hi"}]) as stream:
        completion = stream.get_final_completion()
    choice = completion.choices[0]
    calls = [(c.id, c.function.name, json.loads(c.function.arguments or "{}")) for c in choice.message.tool_calls or []]
    return Got(calls, choice.message.content or None, choice.finish_reason)


def sdk_openai_responses(chunks: list[bytes]) -> Got:
    import openai

    client = openai.OpenAI(api_key="sk-test", base_url="http://127.0.0.1:9/v1",
                           http_client=httpx.Client(transport=_transport(chunks)), max_retries=0)
    with client.responses.stream(model="m", input="hi") as stream:
        response = stream.get_final_response()
    calls = [(item.call_id, item.name, json.loads(item.arguments or "{}")) for item in response.output
             if item.type == "function_call"]
    return Got(calls, response.output_text or None, None)


def sdk_anthropic(chunks: list[bytes]) -> Got:
    import anthropic
    import httpx2  # anthropic 2.x runs on httpx2 (its http_client must be an httpx2.Client)

    def handler(request: Any) -> Any:
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=iter(chunks))

    client = anthropic.Anthropic(api_key="sk-ant-test", base_url="http://127.0.0.1:9",
                                 http_client=httpx2.Client(transport=httpx2.MockTransport(handler)), max_retries=0)
    with client.messages.stream(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}]) as stream:
        message = stream.get_final_message()
    calls = [(b.id, b.name, b.input) for b in message.content if b.type == "tool_use"]
    text = "".join(b.text for b in message.content if b.type == "text")
    return Got(calls, text or None, message.stop_reason)


def sdk_genai_payloads(chunks: list[bytes]) -> list[Any]:
    from google.genai._api_client import HttpResponse

    response = httpx.Client(transport=_transport(chunks)).send(httpx.Request("POST", "http://127.0.0.1:9/x"),
                                                               stream=True)
    return list(HttpResponse(headers={}, response_stream=response).segments())


def sdk_mistral_payloads(chunks: list[bytes]) -> list[Any]:
    from mistralai.client.utils.eventstreaming import stream_events

    response = httpx.Client(transport=_transport(chunks)).send(httpx.Request("POST", "http://127.0.0.1:9/x"),
                                                               stream=True)
    # mistralai's chat.stream passes sentinel="[DONE]" (client/chat.py); its decoder is handed
    # json.dumps({"data": ..., "event": ..., "id": ...}) (utils/eventstreaming.py _parse_event)
    return list(stream_events(response, lambda text: json.loads(text)["data"], sentinel="[DONE]"))


def sdk_cohere_payloads(chunks: list[bytes]) -> list[Any]:
    from cohere.core.http_sse._api import EventSource

    response = httpx.Client(transport=_transport(chunks)).send(httpx.Request("POST", "http://127.0.0.1:9/x"),
                                                               stream=True)
    # cohere/v2/raw_client.py chat_stream: every sse's data but "[DONE]" is parsed as JSON
    return [json.loads(sse.data) for sse in EventSource(response).iter_sse() if sse.data != "[DONE]"]


ASSEMBLING: dict[str, Callable[[list[bytes]], Got]] = {
    "groq": sdk_openai_chat, "deepseek": sdk_openai_chat, "xai": sdk_openai_chat,
    "openai-responses": sdk_openai_responses, "anthropic": sdk_anthropic,
}
DECODING: dict[str, Callable[[list[bytes]], list[Any]]] = {
    "gemini": sdk_genai_payloads, "mistral": sdk_mistral_payloads, "cohere": sdk_cohere_payloads,
}
SDK = {"groq": "openai", "deepseek": "openai", "xai": "openai", "openai-responses": "openai-responses",
       "anthropic": "anthropic", "gemini": "google-genai", "mistral": "mistralai", "cohere": "cohere"}

_GENAI = ("google-genai 3.6.1 google/genai/_api_client.py _iter_response_stream reads only lines that start "
          "'data: ' (with the space) as data; any other line goes to a brace-balancing JSON buffer meant for error "
          "bodies, so it raises on (or loses the event after) ")
_KEEPALIVE_AFTER_ID = ("decode() dispatches at a blank line whenever the last event id is set, and never resets it, "
                       "so a keep-alive blank line after an id: field becomes an event with data '' that it then "
                       "parses as JSON (spec 9.2.6: 'If the data buffer is an empty string, set the data buffer and "
                       "the event type buffer to the empty string and return')")
_SPEC_END = ("follows the spec at the end of the stream ('If the file ends in the middle of an event, before the final "
             "empty line, the incomplete event is not dispatched'); toolchoice reads the final event as google-genai "
             "3.6.1 (_iter_response_stream: 'if data_buffer: yield') and mistralai 3.7.0 (stream_events: the last "
             "_parse_event(buffer)) do, with the finding stream.unterminated_event")

# Where an SDK departs from the spec (or from the other SDKs) and toolchoice does not follow it: (SDK, form) -> why.
# There toolchoice must read what the SDK reads from the plain form, and the SDK must really read the form otherwise
# (both asserted below, so a fixed SDK shows up here as a failure to remove its row).
DEVIATIONS: dict[tuple[str, str], str] = {
    **{(sdk, form): "openai 3.57.0 openai/_streaming.py SSEDecoder " + _KEEPALIVE_AFTER_ID
       for sdk in ("openai", "openai-responses") for form in ("id-keepalive", "all-7byte")},
    ("cohere", "id-keepalive"): "cohere 7.3.1 cohere/core/http_sse/_decoders.py SSEDecoder " + _KEEPALIVE_AFTER_ID,
    ("cohere", "all-7byte"): "cohere 7.3.1 cohere/core/http_sse/_decoders.py SSEDecoder " + _KEEPALIVE_AFTER_ID,
    **{("anthropic", form): "anthropic 2.14.0 anthropic/_streaming.py SSEDecoder keeps a leading BOM in the first "
       "field name, so message_start is lost (spec 9.2.6: 'One leading U+FEFF BYTE ORDER MARK character must be "
       "ignored if any are present')" for form in ("bom", "bom-1byte")},
    ("mistralai", "bom-1byte"): "mistralai 3.7.0 client/utils/eventstreaming.py stream_events drops the BOM only "
    "when the first chunk starts with all three of its bytes",
    **{("google-genai", form): _GENAI + why for form, why in [
        ("no-space", "'data:' without the space"), ("comments", "a comment line"), ("id-retry", "an id: line"),
        ("id-keepalive", "an id: line"), ("bom", "a BOM"), ("bom-1byte", "a BOM"), ("all-7byte", "a comment line")]},
    **{("openai-responses", form): "openai 3.57.0 lib/streaming/responses: get_final_response() raises when "
       "response.completed is missing; the Stream " + _SPEC_END
       for form in ("end-without-blank-line", "end-inside-last-line")},
    **{("cohere", form): "cohere 7.3.1 core/http_sse " + _SPEC_END
       for form in ("end-without-blank-line", "end-inside-last-line")},
}


def _comparable(provider: str, got: Got) -> Got:
    if provider == "openai-responses":
        got = replace(got, finish=None)  # the final response has a status, not a finish reason
    if provider == "anthropic":  # server tool calls (tool search) are not tool_use blocks in the SDK
        got = replace(got, calls=[c for c in got.calls if c[1] != "tool_search_tool_regex"])
    return got


def sdk_reading(provider: str, chunks: list[bytes]) -> Any:
    """What the SDK makes of the bytes: its assembled reply, its decoded payloads, or the exception it raises."""
    try:
        if provider in ASSEMBLING:
            return ASSEMBLING[provider](chunks)
        return DECODING[provider](chunks)
    except Exception as exc:  # noqa: BLE001 - an SDK that cannot read the bytes is a result here
        return type(exc).__name__


def toolchoice_reading(provider: str, chunks: list[bytes]) -> Any:
    ours, payloads, findings = toolchoice(provider, chunks)
    assert ours.error is None, findings
    if provider in ASSEMBLING:
        assert ours.calls  # every recorded stream holds a call
        return _comparable(provider, ours)
    return [p for p in payloads if p != "[DONE]"]


@functools.lru_cache(maxsize=None)
def plain_sdk_reading(provider: str, name: str, named: bool, done: bool) -> Any:
    """The SDK's reading of a stream's plain form (one chunk, no oddity): the same bytes for every form of that
    stream the SDK departs on, so read once per stream (a pure function of the bytes; nothing changes the result)."""
    return sdk_reading(provider, pieces(write(base_events(provider, name, named, done), Form()), 0))


CASES = [(provider, name, named, done, form) for provider, name, named, done in SSE_STREAMS for form in FORMS]


@pytest.mark.parametrize("provider,name,named,done,form", CASES,
                         ids=[f"{c[1].split('.')[0]}-{c[4]}" for c in CASES])
def test_toolchoice_reads_what_the_sdk_reads(provider, name, named, done, form):
    events = base_events(provider, name, named, done)
    chunks = pieces(write(events, FORMS[form]), FORMS[form].chunk)
    ours = toolchoice_reading(provider, chunks)
    why = DEVIATIONS.get((SDK[provider], form))
    if why is None:
        assert ours == sdk_reading(provider, chunks)
    else:  # the SDK reads this form otherwise than the plain one (why); toolchoice reads it as the plain one
        plain = plain_sdk_reading(provider, name, named, done)
        assert sdk_reading(provider, chunks) != plain, why
        assert ours == plain, why


@pytest.mark.parametrize("sdk", ["openai", "anthropic"])
@pytest.mark.parametrize("form", [f for f in FORMS if not f.startswith("end-")])
def test_sse_events_match_the_sdk_decoder(sdk, form):
    """Event by event, against the SDK's own SSEDecoder (openai 3.57.0 openai/_streaming.py, anthropic 2.14.0
    anthropic/_streaming.py): the same event names and data in the same order, for every recorded SSE stream.
    Both decoders depart from the spec in two places (see DEVIATIONS): a leading BOM costs them the first event
    (or its name), and after an id: field every blank line dispatches an event with empty data."""
    decoder_type = __import__(f"{sdk}._streaming", fromlist=["SSEDecoder"]).SSEDecoder
    compared = 0
    for provider, name, named, done in SSE_STREAMS:
        chunks = pieces(write(base_events(provider, name, named, done), FORMS[form]), FORMS[form].chunk)
        decoder = EventDecoder("sse")
        ours = [(e.name, e.text) for chunk in chunks for e in decoder.feed(chunk)]
        ours += [(e.name, e.text) for e in decoder.close()]
        theirs = [(sse.event or "message", sse.data) for sse in decoder_type().iter_bytes(iter(chunks))]
        if form.startswith("bom"):  # the first line's field name is "\ufeffdata" or "\ufeffevent": ignored
            lost = ours[1:] if not named else [("message", ours[0][1]), *ours[1:]]
            assert theirs == lost != ours, (provider, name)
        elif FORMS[form].fields and (FORMS[form].keepalive or FORMS[form].comments):
            assert [e for e in theirs if e[1]] == ours != theirs, (provider, name)
        else:
            assert theirs == ours, (provider, name)
        compared += len(ours)
    assert compared > 200


# ---- the end of the stream ---------------------------------------------------------------------


@pytest.mark.parametrize("tail,read,code", [
    (b'data: {"b":2}\n', [{"a": 1}, {"b": 2}], ["stream.unterminated_event"]),  # no blank line after it
    (b'data: {"b":2}', [{"a": 1}, {"b": 2}], ["stream.unterminated_event"]),  # no line end either
    # the end marker without its blank line: not an event, as openai's decoder reads it (test_stream_unterminated_done)
    (b"data: [DONE]", [{"a": 1}], ["stream.unterminated_event"]),
    (b": ping", [{"a": 1}], []),  # a comment is no event (openai's decoder reads it so)
    (b'data: {"b":', [{"a": 1}], ["stream.incomplete_event"]),  # cut inside the JSON: not read, said
    (b"da", [{"a": 1}], ["stream.incomplete_event"]),  # cut inside a field name: a cut, said
    (b"event: message_st", [{"a": 1}], ["stream.incomplete_event"]),
])
def test_a_last_event_without_its_blank_line(tail, read, code):
    from toolchoice.providers.core.stream_framing import decode_bytes

    events, findings = decode_bytes("sse", b'data: {"a":1}\n\n' + tail)
    assert [e.data for e in events] == read
    assert [f.code for f in findings] == code


# ---- NDJSON (Ollama) against the ollama client ------------------------------------------------

_ODD_JSON = "é€😀"  # Ollama's server (Go encoding/json) escapes U+2028, so raw it is a deviation case below

NDJSON_FORMS: dict[str, dict[str, Any]] = {
    "plain": {}, "crlf": {"eol": "\r\n"}, "no-final-newline": {"final": False}, "1byte": {"chunk": 1},
    "utf8": {"odd": _ODD_JSON}, "utf8-1byte": {"odd": _ODD_JSON, "chunk": 1}, "crlf-3byte": {"eol": "\r\n", "chunk": 3},
    # ollama 0.6.3 _client.py _stream: json.loads(line) for every line httpx's iter_lines gives: a blank line (which
    # ndjson.org's spec lets a parser skip) raises there, and httpx's LineDecoder also breaks lines at U+2028
    # (str.splitlines), which JSON allows raw inside a string (RFC 8259 section 7)
    "blank-lines": {"blank": True}, "raw-u2028": {"odd": "a\u2028b"},
}
NDJSON_DEVIATIONS = {"blank-lines", "raw-u2028"}


def write_ndjson(form: dict[str, Any]) -> list[bytes]:
    eol = form.get("eol", "\n")
    lines = [json.loads(line) for line in fixture_lines("ollama", "ollama-docs-streaming-with-tools.ndjson")]
    if "odd" in form:
        lines[0]["message"]["content"] += form["odd"]
    text = "".join((eol if form.get("blank") else "") + json.dumps(line, ensure_ascii=False) + eol for line in lines)
    if form.get("final", True) is False:
        text = text[:-len(eol)]
    return pieces(text.encode("utf-8"), form.get("chunk", 0))


def sdk_ollama(chunks: list[bytes]) -> Any:
    import ollama

    client = ollama.Client(host="http://127.0.0.1:9", transport=_transport(chunks, "application/x-ndjson"))
    try:
        parts = list(client.chat(model="llama3.2", messages=[{"role": "user", "content": "hi"}], stream=True))
    except Exception as exc:  # noqa: BLE001 - an SDK that cannot read the bytes is a result here
        return type(exc).__name__
    calls = [(None, c.function.name, dict(c.function.arguments)) for p in parts for c in p.message.tool_calls or []]
    return Got(calls, "".join(p.message.content or "" for p in parts) or None, parts[-1].done_reason)


@pytest.mark.parametrize("form", NDJSON_FORMS)
def test_ndjson_reads_what_the_ollama_client_reads(form):
    chunks = write_ndjson(NDJSON_FORMS[form])
    ours, _, findings = toolchoice("ollama", chunks)
    assert ours.error is None and findings == []
    ours = replace(ours, calls=[(None, name, args) for _, name, args in ours.calls])  # Ollama sends no call id
    if form in NDJSON_DEVIATIONS:
        plain = sdk_ollama(write_ndjson({"odd": NDJSON_FORMS[form]["odd"]} if "odd" in NDJSON_FORMS[form] else {}))
        assert sdk_ollama(chunks) == "JSONDecodeError"
        if form == "raw-u2028":
            assert ours.text == "a\u2028b"
        else:
            assert ours == plain
    else:
        assert ours == sdk_ollama(chunks)
        assert ours.calls == [(None, "get_weather", {"city": "Tokyo"})]


# ---- AWS event stream (Bedrock) against botocore's ConverseStream reader ----------------------


def sdk_bedrock(chunks: list[bytes]) -> Got:
    """botocore's own EventStream over the bedrock-runtime ConverseStream output shape (what boto3's
    converse_stream() iterates), its events put together as the Converse API documents them."""
    import botocore.session
    from botocore.eventstream import EventStream
    from botocore.parsers import EventStreamJSONParser

    operation = botocore.session.get_session().get_service_model("bedrock-runtime").operation_model("ConverseStream")

    class Raw:
        def stream(self) -> Any:
            return iter(chunks)

    calls: dict[int, list[Any]] = {}
    text, finish = [], None
    shape = operation.output_shape.members["stream"]
    for event in EventStream(Raw(), shape, EventStreamJSONParser(), "ConverseStream"):
        if "contentBlockStart" in event and "toolUse" in event["contentBlockStart"]["start"]:
            use = event["contentBlockStart"]["start"]["toolUse"]
            calls[event["contentBlockStart"]["contentBlockIndex"]] = [use["toolUseId"], use["name"], ""]
        elif "contentBlockDelta" in event:
            delta = event["contentBlockDelta"]["delta"]
            if "toolUse" in delta:
                calls[event["contentBlockDelta"]["contentBlockIndex"]][2] += delta["toolUse"]["input"]
            text.append(delta.get("text", ""))
        elif "messageStop" in event:
            finish = event["messageStop"]["stopReason"]
    return Got([(i, n, json.loads(a or "{}")) for i, n, a in calls.values()], "".join(text) or None, finish)


# amazon-bedrock-tool-no-args.chunks.txt is left out: its text block starts with "start": {}, which botocore's
# parser refuses ("ContentBlockStart must have one and only one member set"; SOURCES.md: written by hand).
@pytest.mark.parametrize("size", [0, 1, 5, 13])
def test_eventstream_reads_what_botocore_reads(size):
    chunks = pieces(bedrock_stream(fixture_lines("bedrock", "amazon-bedrock-tool-call.1.chunks.txt")), size)
    ours, _, findings = toolchoice("bedrock", chunks)
    assert findings == [] and ours.calls
    assert ours == sdk_bedrock(chunks)


# ---- bounds: one huge event, a line without end (limits scaled down: the sizes are the limits') ----


@pytest.mark.parametrize("provider,data", [
    ("groq", b'data: {"choices":[{"index":0,"delta":{"content":"' + b"x" * 5000 + b'"}}]}\n\ndata: [DONE]\n\n'),
    ("groq", b"data: " + b"x" * 5000),  # a line that never ends
    ("groq", b'data: {"choices":[]}\n\n' + b"data: " + "é".encode() * 3000),  # ends inside a long UTF-8 line
    ("ollama", b'{"message":{"content":"' + b"x" * 5000),
    ("bedrock", b"\x00\x00\x13\x88" + b"\x00" * 5000),  # a prelude announcing 5000 bytes, never sent whole
])
def test_a_huge_or_endless_line_is_one_finding_not_a_traceback(tmp_path, provider, data):
    from cli import run_cli

    path = tmp_path / "stream.raw"
    path.write_bytes(data)
    env = {"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "COLUMNS": "100", "TOOLCHOICE_LIMIT_STREAM_LINE_BYTES": "1000"}
    result = run_cli(["parse", str(path), "-p", provider, "--stream", "-f", "json"], env=env)
    assert "Traceback" not in result.stderr + result.stdout
    codes = [f["code"] for f in json.loads(result.stdout)["stream"]["findings"]]
    assert codes and codes[0] in ("stream.too_large", "stream.framing", "stream.incomplete_event"), codes
    assert result.returncode == 1


# ---- SDK chunk files: one payload a line, split at LF only ------------------------------------


def test_a_chunk_file_line_may_hold_raw_line_separators():
    """vercel/ai reads its chunk files with ``.split('\\n')`` (packages/*/src/*.test.ts
    prepareChunksFixtureResponse); JSON strings may hold U+2028 and U+0085 raw (RFC 8259 section 7), which
    ``str.splitlines`` would break at. The same payloads as SSE, read by openai's client, are the truth."""
    from toolchoice.providers.core.streaming import assemble_bytes

    lines = [json.loads(line) for line in fixture_lines("xai", "xai-tool-call.chunks.txt")]
    lines[1]["choices"][0]["delta"]["content"] = "a\u2028b\x85c"
    chunk_file = "\r\n".join(json.dumps(line, ensure_ascii=False) for line in lines).encode()
    result = assemble_bytes("xai", chunk_file)
    assert [f.code for f in result.findings] == ["stream.no_final_event"]  # chunk files keep no [DONE]
    events = [(None, line) for line in lines] + [(None, "[DONE]")]
    assert sdk_openai_chat([write(events, Form())]) == Got(
        [(c.id, c.name, c.arguments) for c in result.reply.tool_calls], result.reply.text, result.reply.finish_reason)
    assert result.reply.text == "a\u2028b\x85c"
