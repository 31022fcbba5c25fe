"""A Responses API stream read by `send --stream`, judged against what openai-python's own stream helper
(``client.responses.stream(...).get_final_response()``) assembles from the same bytes, served over a real
socket on 127.0.0.1 (tests/streams.py). Found by trial6d:

- a custom (free-text) tool call streams as ``response.output_item.added`` (item ``custom_tool_call``),
  ``response.custom_tool_call_input.delta`` pieces and ``...input.done`` (openai-python
  ``types/responses/response_custom_tool_call_input_delta_event.py`` and ``..._done_event.py``); the
  assembler read none of it, so the model's call was judged "answered without a tool call";
- ``response.completed`` carries the final response object, which the SDK returns as the reply; when
  the deltas said something else, toolchoice judged the deltas and said nothing.
"""

from __future__ import annotations

import json
import os

import pytest

from streams import Script, StreamServer, paced

from cli import run_cli
from sdk_types import missing

KEY = "sk-responses-stream-final-0123456789"

CUSTOM_SCENARIO = """
tools:
  - {type: custom, name: run_sql, description: Run one SQL statement., format: {type: text}}
tool_choice: required
messages: [{role: user, content: How many rows?}]
"""

WEATHER_SCENARIO = """
tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
  - name: get_time
    parameters: {type: object, properties: {timezone: {type: string}}, required: [timezone]}
tool_choice: required
messages: [{role: user, content: Weather in Paris?}]
"""


def response(status: str, output: list) -> dict:
    usage = {"input_tokens": 5, "output_tokens": 7, "total_tokens": 12, "input_tokens_details": {"cached_tokens": 0},
             "output_tokens_details": {"reasoning_tokens": 0}}
    return {"id": "resp_1", "object": "response", "created_at": 1, "status": status, "model": "m", "output": output,
            "parallel_tool_calls": True, "tool_choice": "required", "tools": [], "error": None,
            "incomplete_details": None, "instructions": None, "metadata": {}, "temperature": 1, "top_p": 1,
            "text": {"format": {"type": "text"}}, "truncation": "disabled",
            "usage": usage if status == "completed" else None}


def sse(events: list[dict]) -> bytes:
    out = []
    for number, event in enumerate(events):
        event = {**event, "sequence_number": number}
        out.append(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n")
    return "".join(out).encode()


def custom_stream() -> bytes:
    def item(status: str, text: str) -> dict:
        return {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_c", "name": "run_sql", "input": text,
                "status": status}

    text = "SELECT count(*) FROM t;"
    events = [{"type": "response.created", "response": response("in_progress", [])},
              {"type": "response.output_item.added", "output_index": 0, "item": item("in_progress", "")}]
    events += [{"type": "response.custom_tool_call_input.delta", "item_id": "ctc_1", "output_index": 0, "delta": c}
               for c in text]
    events += [{"type": "response.custom_tool_call_input.done", "item_id": "ctc_1", "output_index": 0, "input": text},
               {"type": "response.output_item.done", "output_index": 0, "item": item("completed", text)},
               {"type": "response.completed", "response": response("completed", [item("completed", text)])}]
    return sse(events)


def differing_stream() -> bytes:
    """Deltas that make get_weather(Paris), then a response.completed that lists get_time(UTC) instead."""
    def call(name: str, arguments: str, status: str) -> dict:
        return {"type": "function_call", "id": "fc_a", "call_id": "call_a", "name": name, "arguments": arguments,
                "status": status}

    arguments = '{"city": "Paris"}'
    events = [{"type": "response.created", "response": response("in_progress", [])},
              {"type": "response.output_item.added", "output_index": 0, "item": call("get_weather", "", "in_progress")},
              {"type": "response.function_call_arguments.delta", "item_id": "fc_a", "output_index": 0,
               "delta": arguments},
              {"type": "response.completed",
               "response": response("completed", [call("get_time", '{"timezone": "UTC"}', "completed")])}]
    return sse(events)


def env() -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    out.update(OPENAI_API_KEY=KEY, NO_PROXY="127.0.0.1", COLUMNS="160", NO_COLOR="1")
    return out


def sdk_final(data: bytes) -> list[tuple]:
    """What openai-python's stream helper returns as the final response's tool calls, from these bytes."""
    import openai

    with StreamServer(Script(paced(data, 7, 0.0))) as server:
        client = openai.OpenAI(base_url=server.url + "/v1", api_key="x", max_retries=0)
        with client.responses.stream(model="m", input="hi") as stream:
            for _ in stream:
                pass
            final = stream.get_final_response()
    out = []
    for item in final.output:
        if item.type == "custom_tool_call":
            out.append((item.call_id, item.name, item.input))
        elif item.type == "function_call":
            out.append((item.call_id, item.name, json.loads(item.arguments)))
    return out


def send(tmp_path, scenario: str, data: bytes) -> dict:
    path = tmp_path / "s.yaml"
    path.write_text(scenario)
    with StreamServer(Script(paced(data, 7, 0.0))) as server:
        result = run_cli(["send", str(path), "-p", "openai-responses", "--base-url", server.url + "/v1", "--stream",
                          "-f", "json", "--model", "gpt-5.1", "--retries", "0"], env=env())
    assert result.stdout, result.stderr
    return json.loads(result.stdout)


def calls_of(reply: dict) -> list[tuple]:
    return [(c["id"], c["name"], c["input"] if c.get("kind") == "custom" else c["arguments"])
            for c in reply["tool_calls"]]


@pytest.mark.skipif(missing("openai"), reason="openai-python is not installed")
def test_a_streamed_custom_tool_call_is_the_call_the_sdk_assembles(tmp_path):
    data = custom_stream()
    truth = sdk_final(data)
    assert truth == [("call_c", "run_sql", "SELECT count(*) FROM t;")]
    out = send(tmp_path, CUSTOM_SCENARIO, data)
    assert calls_of(out["reply"]) == truth, out["reply"]
    assert out["stream"]["findings"] == [], out["stream"]
    assert out["verdict"]["category"] == "obeyed", out["verdict"]


@pytest.mark.skipif(missing("openai"), reason="openai-python is not installed")
def test_a_final_response_that_differs_from_the_deltas_is_kept_and_said(tmp_path):
    data = differing_stream()
    truth = sdk_final(data)
    assert truth == [("call_a", "get_time", {"timezone": "UTC"})]
    out = send(tmp_path, WEATHER_SCENARIO, data)
    assert calls_of(out["reply"]) == truth, out["reply"]
    codes = [f["code"] for f in out["stream"]["findings"]]
    assert codes == ["stream.final_mismatch"], out["stream"]
    assert out["verdict"]["category"] == "error"  # a stream at odds with itself is never judged obeyed
