"""Where a stream ends, per family: ``data: [DONE]`` in the middle of a stream, and chunk files of usage alone.

Truth is each family's official SDK as a real client of a real socket on 127.0.0.1 (tests/streams.py's
StreamServer), reading the same bytes toolchoice reads, offline (``assemble_bytes``, what ``parse --stream`` does) and
live (``stream_reply``, what ``send --stream`` does):
- openai 3.57.0 ``_streaming.py`` ``Stream.__stream__``: ``if sse.data.startswith("[DONE]"): break`` (chat and
  Responses streams alike): it reads nothing after it; the chat helper returns the chunks before it, the Responses
  helper raises without ``response.completed``.
- anthropic 2.14.0 ``_streaming.py``: no ``[DONE]`` test; an event without its ``event:`` line is skipped (``if
  sse.event is None: continue``) and reading goes on; a named event's data is parsed as JSON (``sse.json()``).
- cohere 7.3.1 ``v2/raw_client.py`` ``chat_stream``: ``if _sse.data == "[DONE]": return``; other data that is not JSON
  is skipped with a logged warning.
- mistralai 3.7.0 ``client/utils/eventstreaming.py``: ends at data equal to the sentinel ``[DONE]``; other data is
  read as the event's data and fails the chunk's validation.
- google-genai 3.6.1 ``_api_client.py``: every ``data: `` is parsed as JSON; ``[DONE]`` raises.
- openai 3.57.0 ``ChatCompletionStreamState`` (lib/streaming/chat/_completions.py) on chunks of usage alone: a
  completion with no choice, so ``choices[0]``, what a client reads, is not there.
Bedrock (AWS event stream, botocore) and Ollama (NDJSON) frame no ``[DONE]``: nothing to end there.
"""

from __future__ import annotations

import asyncio
import subprocess
import json
import logging
from typing import Callable

import httpx
import pytest
from streams import CITY_WEATHER_SCENARIO, Piece, Script, StreamServer
from test_stream_sdk_differential import FORMS, base_events, write

from toolchoice.providers.core.model import Request
from toolchoice.providers.core.streaming import StreamResult, assemble_bytes, stream_reply
from toolchoice.providers.core.transport import prepare

WHOLE, STOPS, RAISES = "reads the whole reply", "stops at it", "raises"


def _anthropic(url: str) -> list[str]:
    import anthropic

    client = anthropic.Anthropic(api_key="sk-ant-ends", base_url=url, max_retries=0)
    with client.messages.stream(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}]) as stream:
        message = stream.get_final_message()
    return [block.name for block in message.content if block.type == "tool_use"]


def _openai_chat(url: str) -> list[str]:
    import openai

    client = openai.OpenAI(api_key="sk-ends", base_url=url + "/v1", max_retries=0)
    with client.chat.completions.stream(model="m", messages=[{"role": "user", "content": "hi"}]) as stream:
        choice = stream.get_final_completion().choices[0]
    names = [call.function.name for call in choice.message.tool_calls or []]
    return names if choice.finish_reason else names + ["(stopped before finish_reason)"]


def _openai_responses(url: str) -> list[str]:
    import openai

    client = openai.OpenAI(api_key="sk-ends", base_url=url + "/v1", max_retries=0)
    with client.responses.stream(model="m", input="hi") as stream:
        response = stream.get_final_response()
    return [item.name for item in response.output if item.type == "function_call"]


def _cohere(url: str) -> list[str]:
    import cohere

    events = list(cohere.ClientV2(api_key="ends", base_url=url).chat_stream(
        model="m", messages=[{"role": "user", "content": "hi"}]))
    if events[-1].type != "message-end":
        return ["(stopped before message-end)"]
    return [e.delta.message.tool_calls.function.name for e in events if e.type == "tool-call-start"]


def _mistral(url: str) -> list[str]:
    from mistralai.client import Mistral

    events = list(Mistral(api_key="ends", server_url=url).chat.stream(
        model="m", messages=[{"role": "user", "content": "hi"}]))
    names = [call.function.name for event in events for choice in event.data.choices
             for call in choice.delta.tool_calls or [] if call.function.name]
    return names if events[-1].data.choices[0].finish_reason else names + ["(stopped before finish_reason)"]


def _gemini(url: str) -> list[str]:
    from google import genai

    client = genai.Client(api_key="ends", http_options={"base_url": url})
    chunks = list(client.models.generate_content_stream(model="gemini-2.5-flash", contents="hi"))
    return [part.function_call.name for chunk in chunks for part in chunk.candidates[0].content.parts
            if part.function_call]


# provider, recorded stream, written with event: lines, ends with [DONE], the SDK client
FAMILIES: dict[str, tuple[str, bool, bool, Callable[[str], list[str]]]] = {
    "anthropic": ("anthropic-tool-no-args.chunks.txt", True, False, _anthropic),
    "groq": ("groq-tool-call.chunks.txt", False, True, _openai_chat),
    "openai-responses": ("azure-tool-call.1.chunks.txt", True, False, _openai_responses),
    "cohere": ("cohere-tool-call.chunks.txt", True, False, _cohere),
    "mistral": ("mistral-tool-call.chunks.txt", False, True, _mistral),
    "gemini": ("google-tool-call.chunks.txt", False, False, _gemini),
}

# (provider, the data put in the middle, the event: line it comes with) -> what the SDK does, as read from its source
# above and held below by running it
CASES: dict[tuple[str, str, str | None], str] = {
    ("anthropic", "[DONE]", None): WHOLE,  # the failing case of the adversarial trial: toolchoice stopped there
    ("anthropic", "[DONE] ", None): WHOLE,
    ("anthropic", "[DONE]", "content_block_delta"): RAISES,  # sse.json(): JSONDecodeError
    ("groq", "[DONE]", None): STOPS,
    ("groq", "[DONE] ", None): STOPS,  # startswith
    ("openai-responses", "[DONE]", None): RAISES,  # Didn't receive a `response.completed` event.
    ("cohere", "[DONE]", None): STOPS,
    ("cohere", "[DONE] ", None): WHOLE,  # not exactly [DONE]: skipped as invalid JSON, read on
    ("mistral", "[DONE]", None): STOPS,
    ("mistral", "[DONE] ", None): RAISES,  # not the sentinel: ResponseValidationError
    ("gemini", "[DONE]", None): RAISES,  # UnknownApiResponseError
}


def _with_marker(provider: str, marker: str, name: str | None) -> bytes:
    fixture, named, done, _ = FAMILIES[provider]
    events = base_events(provider, fixture, named, done)
    middle = len(events) // 2
    return write(events[:middle] + [(name, marker)] + events[middle:], FORMS["plain"])


def _sdk(provider: str, data: bytes) -> tuple[str, list[str]]:
    client = FAMILIES[provider][3]
    logging.disable(logging.WARNING)  # cohere logs the event it skips
    try:
        with StreamServer(Script([Piece(data)])) as server:
            names = client(server.url)
    except Exception:  # noqa: BLE001 - the SDK cannot read the stream: that is the truth here
        return RAISES, []
    finally:
        logging.disable(logging.NOTSET)
    stopped = any(name.startswith("(stopped") for name in names)
    return (STOPS if stopped else WHOLE), [n for n in names if not n.startswith("(stopped")]


def _live(provider: str, data: bytes) -> StreamResult:
    """toolchoice's live reading of the same bytes over a real socket (send --stream)."""
    with StreamServer(Script([Piece(data[:len(data) // 3]), Piece(data[len(data) // 3:], 0.02)])) as server:
        request = Request("POST", server.url + "/stream", {"Authorization": "Bearer $ENDS_KEY"}, {"stream": True},
                          key_env=("ENDS_KEY",), stream=True)
        prepared = prepare(request, provider, {"ENDS_KEY": "sk-ends-0000"})

        async def go() -> StreamResult:
            async with httpx.AsyncClient(timeout=httpx.Timeout(30.0)) as client:
                return await stream_reply(client, prepared, provider, 20.0, idle=10.0)

        return asyncio.run(go())


@pytest.mark.parametrize("provider, marker, name", sorted(CASES, key=str), ids=lambda v: repr(v))
def test_data_done_mid_stream_is_read_as_the_family_sdk_reads_it(provider: str, marker: str, name: str | None):
    data = _with_marker(provider, marker, name)
    expected = CASES[(provider, marker, name)]
    sdk, sdk_names = _sdk(provider, data)
    assert sdk == expected
    for result in (assemble_bytes(provider, data), _live(provider, data)):
        codes = [f.code for f in result.findings]
        if sdk == WHOLE:  # read on, the reply whole and judged, the skipped marker said
            assert result.reply.error is None, codes
            assert [c.name for c in result.reply.tool_calls] == sdk_names
            assert codes == ["stream.done_skipped"]
        elif sdk == STOPS:  # nothing after it is read, as the SDK reads nothing; the rest is said left out
            assert "stream.after_done" in codes and result.reply.error is not None
        else:  # the SDK's user has no reply: neither is one judged here
            assert result.reply.error is not None
            assert "stream.done_skipped" not in codes


@pytest.mark.parametrize("provider", ["anthropic", "cohere"])
def test_a_family_that_reads_on_also_reads_a_done_at_the_end(provider: str):
    """A gateway that ends every SSE stream with data: [DONE]: the family's own end came first."""
    fixture, named, done, client = FAMILIES[provider]
    data = write(base_events(provider, fixture, named, done) + [(None, "[DONE]")], FORMS["plain"])
    with StreamServer(Script([Piece(data)])) as server:
        names = client(server.url)
    result = assemble_bytes(provider, data)
    assert result.reply.error is None and [c.name for c in result.reply.tool_calls] == names
    assert [f.code for f in result.findings] == (["stream.done_skipped"] if provider == "anthropic" else [])


def test_the_families_declare_their_end():
    """The rule lives in each family's stream code (its assembler, reached through the registry)."""
    from toolchoice.providers.core.streaming import assembler_for, done_marker

    rules = {provider: done_marker(assembler_for(provider)[1])
             for provider in ("openai", "groq", "mistral", "openai-responses", "anthropic", "cohere", "gemini")}
    assert rules == {"openai": "prefix", "groq": "prefix", "mistral": "exact", "openai-responses": "prefix",
                     "anthropic": None, "cohere": "exact", "gemini": None}


# ---- 2. chunk files of usage chunks alone ----------------------------------------------------------------------

USAGE_ONLY = {"id": "chatcmpl-u", "object": "chat.completion.chunk", "created": 1764147600, "model": "gpt-4o",
              "choices": [], "usage": {"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15}}


def test_a_chunk_file_of_usage_alone_is_empty_as_openai_python_reads_it(tmp_path):
    from openai.lib.streaming.chat._completions import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    from cli import run_cli

    lines = [json.dumps(USAGE_ONLY), json.dumps({**USAGE_ONLY, "usage": None})]
    state = ChatCompletionStreamState()
    for line in lines:
        state.handle_chunk(ChatCompletionChunk.model_validate_json(line))
    assert state.get_final_completion().choices == []  # no choices[0]: no answer to judge
    path = tmp_path / "usage.chunks.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = assemble_bytes("openai", path.read_bytes())
    assert result.reply.error is not None and result.reply.error.type == "stream.empty"
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - name: f\n    parameters: {type: object}\ntool_choice: required\nmessages:\n"
                        "  - {role: user, content: hi}\n", encoding="utf-8")
    shown = run_cli(["parse", str(path), "-p", "openai", "--stream", "--scenario", str(scenario), "-f", "json"])
    document = json.loads(shown.stdout)
    assert document["verdict"]["category"] == "error"
    assert "stream.empty" in [f["code"] for f in document["stream"]["findings"]]


def test_a_chunk_file_with_a_choice_is_not_empty():
    lines = [json.dumps({**USAGE_ONLY, "usage": None, "choices": [
        {"index": 0, "delta": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}), json.dumps(USAGE_ONLY)]
    result = assemble_bytes("openai", "\n".join(lines).encode())
    assert result.reply.error is None and result.reply.text == "hi"
    assert "stream.empty" not in [f.code for f in result.findings]


# ---- 3. a 5,000-digit integer: JSON Python will not convert, never "non-JSON" --------------------------------------

BIG = "9" * 5000
BIG_REPLY = ('{"id":"chatcmpl-big","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,'
             '"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":'
             + BIG + ',"completion_tokens":1,"total_tokens":2}}')


def _python_limit() -> str:
    """The truth is the interpreter's: the text is JSON (it parses once the limit is lifted), and Python's json refuses
    it only past its integer-digit limit (CPython 3.11+: sys.get_int_max_str_digits, 4,300 by default)."""
    import sys

    with pytest.raises(ValueError):
        json.loads(BIG_REPLY)
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        assert json.loads(BIG_REPLY)["usage"]["prompt_tokens"] == int(BIG)
    finally:
        sys.set_int_max_str_digits(limit)
    return f"{limit:,}"


def test_parse_of_a_body_past_the_digit_limit_is_bad_input_in_one_line(tmp_path):
    from cli import run_cli

    limit = _python_limit()
    path = tmp_path / "reply.json"
    path.write_text('{"note": 1,\n' + BIG_REPLY[1:], encoding="utf-8")
    result = run_cli(["parse", str(path), "-p", "openai"])
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"toolchoice: error: {path}:2: ") and "5,000 digits" in line and limit in line
    assert "non-JSON" not in line and "Traceback" not in result.stderr


def test_a_reply_past_the_digit_limit_over_a_socket_is_said_not_non_json(tmp_path):
    from cli import run_cli
    from servers import StandIn, Step

    limit = _python_limit()
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - name: f\n    parameters: {type: object}\ntool_choice: required\nmessages:\n"
                        "  - {role: user, content: hi}\n", encoding="utf-8")
    with StandIn("openai", Step(body=BIG_REPLY.encode())) as server:
        result = run_cli(["send", str(scenario), "-p", "openai", "--base-url", server.base_url(), "--gateway",
                          "--retries", "0", "-f", "json"], env={"OPENAI_API_KEY": "sk-digits"})
    error = json.loads(result.stdout)["reply"]["error"]
    assert result.returncode == 1 and error["type"] == "unreadable_reply"
    assert "5,000 digits" in error["message"] and limit in error["message"] and "non-JSON" not in error["message"]


@pytest.mark.parametrize("provider, data", [
    ("openai", b"data: " + BIG_REPLY.replace('"chat.completion"', '"chat.completion.chunk"').encode()
     + b"\n\ndata: [DONE]\n\n"),
    ("openai", BIG_REPLY.encode() + b"\n"),  # an SDK chunk file's line
    ("ollama", b'{"model":"m","message":{"role":"assistant","content":"hi"},"done":true,"eval_count":'
     + BIG.encode() + b"}\n"),
])
def test_a_stream_event_past_the_digit_limit_is_a_bounded_finding(provider: str, data: bytes):
    limit = _python_limit()
    result = assemble_bytes(provider, data)
    (finding,) = [f for f in result.findings if f.code == "stream.too_large"]
    assert "5,000 digits" in finding.message and limit in finding.message
    assert not any(f.code == "stream.framing" for f in result.findings) and result.reply.error is not None


def test_trace_import_past_the_digit_limit_is_one_line(tmp_path):
    from cli import run_cli

    path = tmp_path / "trace.jsonl"
    path.write_text('{"resourceSpans": []}\n{"resourceSpans": [{"n": ' + BIG + "}]}\n", encoding="utf-8")
    result = run_cli(["trace", str(path)])
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"toolchoice: error: {path}:2: ") and "5,000 digits" in line and "not JSON" not in line


def test_the_mock_and_the_proxy_say_the_digit_limit():
    from servers import StandIn, Step
    from test_proxy_wire import proxied

    from toolchoice.providers.core.mock.server import running_mock

    request = '{"model": "gpt-4o", "max_tokens": ' + BIG + ', "messages": [{"role": "user", "content": "hi"}]}'
    headers = {"content-type": "application/json", "authorization": "Bearer sk-digits"}
    with running_mock("openai") as mock:
        answer = httpx.post(mock.base_url.rstrip("/") + "/chat/completions", content=request, headers=headers,
                            timeout=10)
        assert answer.status_code == 400  # the API's words for a body it cannot parse
        lines = _lines(mock, 1)
    assert any("5,000 digits" in f["message"] for f in lines[0]["findings"])
    with StandIn("openai", Step(body=BIG_REPLY.encode())) as server, proxied("openai", server.base_url()) as proxy:
        assert httpx.post(proxy.base_url.rstrip("/") + "/chat/completions", content=request, headers=headers,
                          timeout=10).status_code == 200
        (line,) = _lines(proxy, 1)
    said = {f["code"]: f["message"] for f in line["findings"]}
    assert "5,000 digits" in said["mock.unjudged"] and "5,000 digits" in said["proxy.error"]
    assert "non-JSON" not in said["proxy.error"]


def _lines(server: object, count: int) -> list[dict]:
    import time

    deadline = time.monotonic() + 5
    while len(server.records) < count and time.monotonic() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.01)
    return list(server.records)  # type: ignore[attr-defined]


# ---- 4. Ctrl-C mid-stream: several choices (n: 3), and run over a stream --------------------------------------------
# A real process gets a real SIGINT (as tests/test_interrupt_and_save.py sends it) while the stand-in holds a stream
# open after its first chunks (Script.stall): the signal lands mid-stream, never between two exchanges.

N3_SCENARIO = CITY_WEATHER_SCENARIO + """\
loop:
  max_steps: 3
  results:
    get_weather: sunny
providers:
  openai: {extra: {n: 3}}
"""
CTRL_C_KEY = "sk-ctrl-c-stream-0123456789abcdef"


def _n3_stream(end: bool) -> bytes:
    """Three choices, each calling get_weather (openai-python ChatCompletionChunk's shape), then data: [DONE] or not."""
    chunks = [{"id": "chatcmpl-n3", "object": "chat.completion.chunk", "created": 1764147600, "model": "gpt-4o",
               "choices": [{"index": i, "finish_reason": "tool_calls", "delta": {"role": "assistant", "tool_calls": [
                   {"index": 0, "id": f"call_{i}", "type": "function",
                    "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}]} for i in range(3)]
    data = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)
    return data + b"data: [DONE]\n\n" if end else data[:len(data) // 2]


def _interrupted(tmp_path, args: list[str], finished: int) -> tuple[subprocess.CompletedProcess, StreamServer]:
    """The command against a server whose first ``finished`` streams end and whose next one is held open; SIGINT once
    that one's request arrived and its first bytes went out."""
    import os
    import signal
    import time

    from servers import CLI

    scenario = tmp_path / "n3.yaml"
    scenario.write_text(N3_SCENARIO, encoding="utf-8")
    scripts = [Script([Piece(_n3_stream(True))]) for _ in range(finished)] + [Script([Piece(_n3_stream(False))],
                                                                                     stall=60)]
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(OPENAI_API_KEY=CTRL_C_KEY, NO_PROXY="127.0.0.1", COLUMNS="100", NO_COLOR="1")
    with StreamServer(*scripts) as server:
        argv = [*CLI, *args[:1], str(scenario), "-p", "openai", "--base-url", server.url + "/v1", "--gateway",
                "--stream", "--retries", "0", *args[1:]]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        deadline = time.monotonic() + 60
        while len(server.bodies) < finished + 1 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)  # the held stream's first bytes are written at once; the server then writes nothing for 60 s
        assert proc.poll() is None, "the command ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err), server


def test_ctrl_c_mid_stream_of_a_repeated_send_with_three_choices(tmp_path):
    saved = tmp_path / "saved"
    result, _ = _interrupted(tmp_path, ["send", "--repeat", "3", "--concurrency", "1", "-f", "json", "--save",
                                        str(saved)], finished=1)
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr and CTRL_C_KEY not in result.stdout + result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("toolchoice: error: interrupted: 1 of 3 samples")
    document = json.loads(result.stdout)
    partial = document["partial"]
    assert (partial["done"], partial["requested"]) == (1, 3) and document["samples"] == 1
    # the held one is kept apart from the tally with what had arrived of it (test_stream_interrupt.py)
    assert [(c["sample"], c["verdict"]["category"]) for c in partial["cut"]] == [(2, "error")]
    assert sorted(p.name for p in saved.iterdir()) == [f"sample-00{n}.{part}" for n in (1, 2)
                                                       for part in ("reply.json", "request.json", "response.sse")]
    assert (saved / "sample-002.response.sse").read_bytes() == _n3_stream(False)
    kept = json.loads((saved / "sample-001.reply.json").read_text(encoding="utf-8"))
    assert [[c["name"] for c in choice["tool_calls"]] for choice in kept["reply"]["choices"]] == [["get_weather"]] * 3


def test_ctrl_c_mid_stream_of_a_single_send_keeps_what_arrived(tmp_path):
    # the held stream is the first half of the three chunks: the first chunk whole (its choice's call), the second cut
    result, _ = _interrupted(tmp_path, ["send", "-f", "json"], finished=0)
    assert result.returncode == 130 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("toolchoice: error: interrupted: 0 of 1 samples finished")
    document = json.loads(result.stdout)  # tests/test_stream_interrupt.py holds the rest (pretty, --save, 60 columns)
    assert document["partial"] == {"done": 0, "requested": 1} and document["stream"]["events"] == 1
    assert document["verdict"]["category"] == "error"


def test_ctrl_c_mid_stream_of_a_run_keeps_the_finished_step(tmp_path):
    saved = tmp_path / "saved"
    result, server = _interrupted(tmp_path, ["run", "-f", "json", "--save", str(saved)], finished=1)
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr and CTRL_C_KEY not in result.stdout + result.stderr
    assert "interrupted: 0 of 1 loops finished" in result.stderr
    (loop,) = json.loads(result.stdout)["runs"][0]["loops"]
    assert loop["ended"]["reason"] == "interrupted"
    step, cut = loop["steps"]  # step 1 whole (its three choices judged); step 2 cut by the signal: what had arrived
    assert step["verdict"]["category"] == "obeyed" and len(step["reply"]["choices"]) == 3
    assert cut["verdict"]["category"] == "error" and cut["stream"]["events"] == 1  # the held half: one chunk whole
    assert "stream.interrupted" in [f["code"] for f in cut["stream"]["findings"]]
    assert loop["ended"]["step"] == 2
    files = sorted(p.name for p in (saved / "openai" / "loop-001").iterdir())
    assert files == ["loop.json", "scenario.yaml", "step-01.reply.json", "step-01.request.json",
                     "step-01.response.sse", "step-02.reply.json", "step-02.request.json", "step-02.response.sse"]
    assert len(server.bodies) == 2  # step 2 was sent: the signal landed in its stream
