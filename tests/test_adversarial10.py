"""A hostile server, trace or user against the newest surfaces (session 10): several choices in a stream and in a
whole body, the end of a chat stream and `data: [DONE]` in a Gemini one, a framework trace's TOOL spans. Each test is
the input that showed a defect.

Truth from outside the code:
- openai 3.57.0 (the test extra's pin): ``openai.lib.streaming.chat._completions.ChatCompletionStreamState`` is how
  openai-python assembles a chat stream per ``choices[].index``; ``ChatCompletionChunk`` (pydantic, lax) is how it
  reads a chunk. Where the SDK reads a choice we did not, or cannot assemble a stream at all, the stream is no reply
  of the model's to judge (docs/streaming.md: a failed stream is never judged as if the model had answered).
- google-genai 3.6.1 (the test extra's pin), Gemini's own client, reading a stream over a real socket.
- The stand-in server (tests/servers.py) answers over a real socket on 127.0.0.1.
- Python's own json module: a text nested 200,000 levels deep raises RecursionError, not ValueError.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openai.lib.streaming.chat._completions import ChatCompletionStreamState
from openai.types.chat import ChatCompletionChunk

from toolchoice.providers.core.scenario import load_scenario_text
from toolchoice.providers.core.streaming import assemble_bytes
from toolchoice.providers.core.verdict import verdict

from cli import run_cli
from servers import StandIn, Step
from streams import CITY_WEATHER_SCENARIO

TRACES = Path(__file__).parent / "data" / "traces"
SCENARIO = CITY_WEATHER_SCENARIO


def _chunk(choices: list[Any]) -> dict[str, Any]:
    return {"id": "chatcmpl-x", "object": "chat.completion.chunk", "created": 1764147600, "model": "gpt-4o",
            "choices": choices}


def _sse(chunks: list[dict[str, Any]]) -> bytes:
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"


OBEYING = {"index": 0, "delta": {"role": "assistant", "tool_calls": [
    {"index": 0, "id": "call_a", "type": "function",
     "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}, "finish_reason": "tool_calls"}


def _sdk_texts(raw: bytes) -> list[tuple[int, str | None]]:
    """(index, text) of each choice as openai-python's stream state assembles the stream's chunks."""
    state = ChatCompletionStreamState()
    for line in raw.decode().split("\n\n"):
        data = line.removeprefix("data: ")
        if data and data != "[DONE]":
            state.handle_chunk(ChatCompletionChunk.model_validate(json.loads(data)))
    return [(c.index, c.message.content) for c in state.get_final_completion().choices]


def _judged(raw: bytes) -> tuple[dict[str, Any], list[str]]:
    result = assemble_bytes("openai", raw)
    scenario = load_scenario_text(SCENARIO)
    return verdict(scenario, result.reply, None), [f.code for f in result.findings]


# 1. A choice whose index is not a whole number of 0 or more was dropped without a word: choice 0 obeyed, the
# disobeying choice beside it vanished, and the reply was judged obeyed.
@pytest.mark.parametrize("index", ["1", 1.0, True])
def test_a_choice_with_an_index_openai_python_reads_is_not_dropped_silently(index):
    raw = _sse([_chunk([OBEYING, {"index": index, "delta": {"content": "It is sunny."}, "finish_reason": "stop"}])])
    assert (1, "It is sunny.") in _sdk_texts(raw)  # the SDK reads it as choice 1: a choice that answered in text
    found, codes = _judged(raw)
    assert not found["obeyed"]
    assert "stream.malformed_event" in codes


def test_a_negative_index_is_said_not_dropped():
    raw = _sse([_chunk([OBEYING]), _chunk([{"index": -1, "delta": {"content": " and text"}, "finish_reason": None}])])
    assert _sdk_texts(raw) == [(0, " and text")]  # openai-python puts it on choices[-1]: choice 0 answered text too
    found, codes = _judged(raw)
    assert not found["obeyed"] and "stream.malformed_event" in codes


# 2. Choices no chunk carried were made up as empty replies of the model and judged (0 of 4 choices obeyed,
# choices 0-2 'made none') when a stream's only choice had index 3; openai-python cannot assemble that stream.
def test_choices_no_chunk_carried_are_not_judged_as_the_models():
    raw = _sse([_chunk([{"index": 3, "delta": {"content": "c"}, "finish_reason": "stop"}])])
    with pytest.raises(IndexError):
        _sdk_texts(raw)
    found, codes = _judged(raw)
    assert found["category"] == "error"
    assert "stream.malformed_event" in codes
    result = assemble_bytes("openai", raw)
    assert "0, 1, 2" in result.reply.error.message


def test_choices_out_of_order_are_still_read():  # the fix above does not refuse what only arrives late
    raw = _sse([_chunk([{"index": 1, "delta": {"content": "one"}, "finish_reason": "stop"}]), _chunk([OBEYING])])
    result = assemble_bytes("openai", raw)
    assert result.reply.error is None
    assert [c.text for c in result.reply.choices] == [None, "one"]


# 3. A stream of data: [DONE] alone (or of chunks without a choice) was judged as the model's empty answer
# (✘ disobeyed: no_call); openai-python's stream state has no completion to give for it.
@pytest.mark.parametrize("raw", [b"data: [DONE]\n\n",
                                 _sse([{**_chunk([]), "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                                                                "total_tokens": 2}}])])
def test_a_stream_without_any_choice_is_not_judged(raw):
    if raw == b"data: [DONE]\n\n":
        with pytest.raises(AssertionError):
            ChatCompletionStreamState().get_final_completion()
    else:
        assert _sdk_texts(raw) == []  # no choice: choices[0], what clients read, is not there
    found, codes = _judged(raw)
    assert found["category"] == "error"
    assert "stream.empty" in codes


def test_send_stream_of_done_alone_over_a_socket_is_an_error(tmp_path):
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    with StandIn("openai", Step(body=b"data: [DONE]\n\n", content_type="text/event-stream")) as server:
        result = run_cli(["send", str(scenario), "-p", "openai", "--base-url", server.base_url(), "--gateway",
                          "--stream", "-f", "json", "--retries", "0"], env={"OPENAI_API_KEY": "sk-adv10-done"})
    document = json.loads(result.stdout)
    assert document["verdict"]["category"] == "error", document["verdict"]
    assert result.returncode != 4  # not 'disobeyed': the model said nothing


# 4. A TOOL span's tool.parameters nested 200,000 levels deep was an internal error (RecursionError) in
# `toolchoice trace`; the LLM spans' attributes were already bounded, and a schema 80 objects deep is refused in
# the same words (the scenario it makes nests past the json_depth limit).
def _deep_object(levels: int) -> str:
    return '{"type": "object", "properties": {"a": ' * levels + '{"type": "string"}' + "}}" * levels


@pytest.mark.parametrize("deep", ["[" * 200_000 + "]" * 200_000, '{"a": ' * 20_000 + "1" + "}" * 20_000,
                                  _deep_object(80)], ids=["arrays", "objects", "schema"])
def test_a_deep_tool_parameters_attribute_is_bad_input(tmp_path, deep):
    trace = json.loads((TRACES / "openinference-openai-agents-2.6.0.json").read_text(encoding="utf-8"))
    replaced = 0
    for resource in trace["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for attribute in span["attributes"]:
                    if attribute["key"] == "tool.parameters":
                        attribute["value"] = {"stringValue": deep}
                        replaced += 1
    assert replaced
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    result = run_cli(["trace", str(path)])
    assert result.returncode == 2, result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert "levels" in result.stderr and "nest" in result.stderr and len(result.stderr.strip().splitlines()) == 1


# 5. A whole body's choices had no bound but the body's size: a server's 10,000 choices (2 MB) took 11 s to draw
# with parse, 32 MiB of them minutes. The `choices` limit (128, docs/limits.md: what a stream is assembled for and
# the mock answers; the most n the OpenAI API spec and Azure's take) now bounds a whole body's choices and Gemini's
# candidates too, as it bounds a stream's.
def _choices_body(count: int) -> dict[str, Any]:
    return {"id": "chatcmpl-x", "object": "chat.completion", "created": 1764147600, "model": "gpt-4o",
            "choices": [{"index": i, "logprobs": None, "finish_reason": "tool_calls",
                         "message": {"role": "assistant", "content": None, "refusal": None, "tool_calls": [
                             {"id": f"call_{i}", "type": "function",
                              "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}}]}}
                        for i in range(count)]}


def _candidates_body(count: int) -> dict[str, Any]:
    return {"candidates": [{"index": i, "finishReason": "STOP", "content": {"role": "model", "parts": [
        {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}} for i in range(count)]}


@pytest.mark.parametrize("provider, body", [("openai", _choices_body), ("gemini", _candidates_body)])
def test_a_whole_body_past_the_choices_limit_is_refused(tmp_path, provider, body):
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    for count, code in ((128, 0), (129, 1), (10_000, 1)):
        path = tmp_path / f"reply-{count}.json"
        path.write_text(json.dumps(body(count)), encoding="utf-8")
        result = run_cli(["parse", str(path), "-p", provider, "--scenario", str(scenario), "-f", "json"])
        assert result.returncode == code, (count, result.stderr[-300:])
        document = json.loads(result.stdout)
        if code == 0:
            assert len(document["reply"]["choices"]) == count
        else:
            assert "limit choices" in json.dumps(document)


def test_send_of_a_reply_past_the_choices_limit_is_an_error(tmp_path):
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    with StandIn("openai", Step(body=_choices_body(129))) as server:
        result = run_cli(["send", str(scenario), "-p", "openai", "--base-url", server.base_url(), "--gateway",
                          "-f", "json", "--retries", "0"], env={"OPENAI_API_KEY": "sk-adv10-many"})
    document = json.loads(result.stdout)
    assert document["verdict"]["category"] == "error"
    assert "limit choices" in json.dumps(document)


# 6. `data: [DONE]` in a Gemini stream (a gateway that ends every SSE stream with it) was read as the end of the
# stream, as openai-python reads it, and the reply judged; google-genai, Gemini's own client, raises on it
# (UnknownApiResponseError: "Failed to parse response as JSON"), so its user has no reply at all.
GEMINI_CALL = {"candidates": [{"content": {"role": "model", "parts": [
    {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}, "finishReason": "STOP", "index": 0}],
    "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5}}
GEMINI_DONE = b"data: " + json.dumps(GEMINI_CALL).encode() + b"\r\n\r\ndata: [DONE]\r\n\r\n"


def test_done_in_a_gemini_stream_is_what_google_genai_cannot_read(tmp_path):
    from google import genai
    from google.genai import errors

    with StandIn("gemini", Step(body=GEMINI_DONE, content_type="text/event-stream")) as server:
        client = genai.Client(api_key="adv10-gemini-key", http_options={"base_url": server.url})
        with pytest.raises(errors.UnknownApiResponseError):
            for _ in client.models.generate_content_stream(model="gemini-2.5-flash", contents="Weather in Paris?"):
                pass
    result = assemble_bytes("gemini", GEMINI_DONE)
    assert result.reply.error is not None
    assert "google-genai" in " ".join(f.message for f in result.findings)
    assert assemble_bytes("gemini", GEMINI_DONE.removesuffix(b"data: [DONE]\r\n\r\n")).reply.error is None


# 7. An Anthropic stream whose events came without their `event:` lines (a gateway that re-frames SSE as data only)
# was assembled from each data's "type" and judged; anthropic 2.14.0, Anthropic's own client, skips every such event
# (`if sse.event is None: continue`), and its stream helper then has no message to give (AssertionError).
def test_an_anthropic_stream_without_event_names_is_what_anthropic_python_cannot_read():
    import re

    import anthropic
    import httpx

    from toolchoice.providers.core.mock.server import running_mock

    request = {"model": "claude-sonnet-4-5", "max_tokens": 100, "stream": True, "tool_choice": {"type": "any"},
               "messages": [{"role": "user", "content": "Weather in Paris?"}],
               "tools": [{"name": "get_weather", "input_schema": {"type": "object", "properties": {
                   "city": {"type": "string"}}, "required": ["city"]}}]}
    with running_mock("anthropic") as mock:
        named = httpx.post(mock.base_url.rstrip("/") + "/v1/messages", json=request, timeout=10,
                           headers={"x-api-key": "adv10", "anthropic-version": "2023-06-01"}).content
    unnamed = re.sub(rb"(?m)^event: [^\n]*\n", b"", named)
    assert unnamed != named
    for raw, readable in ((named, True), (unnamed, False)):
        with StandIn("anthropic", Step(body=raw, content_type="text/event-stream")) as server:
            client = anthropic.Anthropic(api_key="adv10", base_url=server.url, max_retries=0)
            with client.messages.stream(model="claude-sonnet-4-5", max_tokens=100,
                                        messages=[{"role": "user", "content": "hi"}]) as stream:
                if readable:
                    assert [block.type for block in stream.get_final_message().content] == ["tool_use"]
                else:
                    with pytest.raises(AssertionError):
                        stream.get_final_message()
        result = assemble_bytes("anthropic", raw)
        assert (result.reply.error is None) is readable
        if not readable:
            assert any(f.code == "stream.framing" and "event:" in f.message for f in result.findings)
