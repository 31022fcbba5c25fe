"""What a framework user's trial (session 17, trial17l) met and got changed: an agent loop's requests saved by
`toolchoice mock --save`, then given to `trace DIR`. The client is openai-python, sending what LangChain's
`ChatOpenAI` + `bind_tools(tool_choice="any")` sent in the trial (`"stream": false` in every body, `"required"` after
each tool result), and openai-agents' default route (`/v1/responses`) to a mock started with `-p openai`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
import yaml

from cli import run_cli
from toolchoice.providers import running_mock

TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city.",
                                           "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                          "required": ["city"]}}}]


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four requests: `required`, `required` after the tool result, no tool_choice after the next; then a Responses
    call to the Chat Completions mock (404)."""
    folder = tmp_path_factory.mktemp("save")
    with running_mock("openai", save_dir=folder) as mock:
        client = openai.OpenAI(base_url=mock.base_url, api_key="unused", max_retries=0)
        messages: list[dict[str, Any]] = [{"role": "user", "content": "Weather in Paris?"}]
        for choice in ("required", "required", None):
            extra = {"tool_choice": choice} if choice else {}
            reply = client.chat.completions.create(model="gpt-5.4-mini", messages=messages, tools=TOOLS,
                                                   stream=False, **extra)
            message = reply.choices[0].message
            messages.append(message.model_dump(exclude_none=True))
            for call in message.tool_calls or []:
                messages.append({"role": "tool", "tool_call_id": call.id, "content": "18 C"})
        answered = httpx.post(f"{mock.base_url}/responses", json={"model": "gpt-5.4-mini", "input": "Weather?"})
        assert answered.status_code == 404
    return folder


def test_the_listing_says_what_each_step_got_and_what_was_found_between_steps(saved: Path) -> None:
    """The listing showed what each request asked only: not the answer, not the findings the mock wrote in the
    same reply file (`pitfall.forced_after_tool_result` from step 2), not which step's call each result answers; a
    request with no tool_choice had no `requested` at all, and the 404 one claimed `offered_tools: []`."""
    result = run_cli(["trace", str(saved)])
    assert result.returncode == 0, result.stderr
    rows = yaml.safe_load(result.stdout)["samples"]
    assert [(r["requested"], r["status"], r["answered"]) for r in rows[:3]] == [
        ("required", 200, ["get_weather"]), ("required", 200, ["get_weather"]), ("(none sent)", 200, "text")]
    assert "findings" not in rows[0]
    assert rows[1]["findings"] == ["info pitfall.forced_after_tool_result"]
    assert rows[1]["results"] == ["call_mock_1_1←#1"] and rows[2]["results"] == ["call_mock_2_1←#2"]
    unread = rows[3]
    assert unread["status"] == 404 and "requested" not in unread and "offered_tools" not in unread
    assert unread["findings"][0].startswith("error mock.unknown_path: POST /v1/responses is not an endpoint")


def test_stream_false_is_not_said_to_have_streamed(saved: Path) -> None:
    """`"stream": false` (LangChain's ChatOpenAI sends it) was a warning "stream: false is not carried (the request
    streamed: send with --stream)": the request did not stream, and the scenario sent without --stream asks none."""
    result = run_cli(["trace", str(saved), "--sample", "2"])
    assert result.returncode == 0, result.stderr
    assert "stream" not in result.stdout.split("description:")[0]
    assert '"stream": false' in (saved / "sample-002.request.json").read_text()  # it was in the body


def test_a_responses_request_saved_by_a_chat_mock_names_the_provider_to_read_it_with(saved: Path) -> None:
    """openai-agents posts to /v1/responses; saved by a `-p openai` mock, `trace --sample 4` said only "name the
    provider the request went to with -p", though the mock's own line had named it."""
    result = run_cli(["trace", str(saved), "--sample", "4"])
    assert result.returncode == 2
    assert "is not a request of openai's API but of openai-responses's" in result.stderr
    assert "(read it as one with -p 'openai-responses')" in result.stderr
    assert run_cli(["trace", str(saved), "--sample", "4", "-p", "openai-responses"]).returncode == 0


def test_the_listing_says_the_thinking_and_where_the_reasoning_came_from(tmp_path: Path) -> None:
    """A per-step tool filter on a thinking Claude 5.5 (pydantic-ai's `PrepareTools` in the trial): the listing
    showed neither the model, the thinking, nor which answer the sent-back thinking came from, beside the line's
    `mock.tools_changed_with_thinking`."""
    import anthropic

    tools = [{"name": n, "input_schema": {"type": "object", "properties": {"x": {"type": "string"}}}}
             for n in ("get_weather", "get_time")]
    with running_mock("anthropic", save_dir=tmp_path) as mock:
        client = anthropic.Anthropic(base_url=mock.base_url, api_key="unused", max_retries=0)
        messages: list[dict[str, Any]] = [{"role": "user", "content": "Weather in Paris?"}]
        first = client.messages.create(model="claude-sonnet-5-5", max_tokens=1024, messages=messages,
                                       tools=tools, thinking={"type": "adaptive"})
        call = next(b for b in first.content if b.type == "tool_use")
        messages += [{"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": "18 C"}]}]
        client.messages.create(model="claude-sonnet-5-5", max_tokens=1024, messages=messages, tools=tools[1:],
                               thinking={"type": "adaptive"})
    result = run_cli(["trace", str(tmp_path)])
    assert result.returncode == 0, result.stderr
    second = yaml.safe_load(result.stdout)["samples"][1]
    assert (second["model"], second["thinking"], second["offered_tools"]) == ("claude-sonnet-5-5", "adaptive",
                                                                             ["get_time"])
    assert second["reasoning"] == ["←#1"] and second["results"] == [f"{call.id}←#1"]
    assert "warning mock.tools_changed_with_thinking" in second["findings"]


def test_a_loop_forced_beside_its_output_tool_is_told_what_ends_it() -> None:
    """pydantic-ai with a structured `output_type` sends `"required"` on every step with its `final_result` tool
    offered last; against the mock it ran to `UsageLimitExceeded` (50 requests), each line saying "switch to auto
    once results arrive", which pydantic-ai's user cannot do. The finding names the output tool and the script
    reply that ends the loop; a choice naming another tool keeps the old advice (final_result cannot be called)."""
    output = {"type": "function", "function": {"name": "final_result", "parameters": {
        "type": "object", "properties": {"temp": {"type": "string"}}, "required": ["temp"]}}}
    history: list[dict[str, Any]] = [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
                                              "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "18 C"}]
    named = {"type": "function", "function": {"name": "get_weather"}}
    with running_mock("openai") as mock:
        client = openai.OpenAI(base_url=mock.base_url, api_key="unused", max_retries=0)
        for choice in ("required", named):
            client.chat.completions.create(model="gpt-5.4-mini", messages=history, tools=[*TOOLS, output],
                                           tool_choice=choice)
    said = [next(f["message"] for f in r["findings"] if f["code"] == "pitfall.forced_after_tool_result")
            for r in mock.records]
    assert "final_result is offered, the output tool pydantic-ai offers" in said[0]
    assert "a --script reply {call: final_result} ends it" in said[0]
    assert said[1].endswith("call tools forever; switch to auto once results arrive")


def test_the_404_a_framework_gets_at_another_api_s_path_says_which_mock_serves_it() -> None:
    """openai-agents' default model posts to /v1/responses; at a `-p openai` mock its exception read only
    "Error code: 404 - Invalid URL (POST /v1/responses)": the `-p` to use was on the mock's line alone. A path no
    API has keeps the API's words."""
    with running_mock("openai") as mock:
        client = openai.OpenAI(base_url=mock.base_url, api_key="unused", max_retries=0)
        with pytest.raises(openai.NotFoundError) as caught:
            client.responses.create(model="gpt-5.4-mini", input="Weather in Paris?")
        nowhere = httpx.post(f"{mock.base_url}/nowhere", json={})
    assert "Invalid URL (POST /v1/responses); toolchoice mock: " in str(caught.value)
    assert "start the mock with -p openai-responses to serve it" in str(caught.value)
    assert nowhere.json()["error"]["message"] == "Invalid URL (POST /v1/nowhere)"
