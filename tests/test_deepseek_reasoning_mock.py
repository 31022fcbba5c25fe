"""`toolchoice mock -p deepseek` in thinking mode hands out reasoning_content and wants it back (trial15n).

Truth from outside the code: openai-python (its types read the reply and the chunks; its BadRequestError reads the
400), DeepSeek's guide (api-docs.deepseek.com/guides/thinking_mode: thinking on by default for deepseek-v4-flash / -pro,
``{"thinking": {"type": "disabled"}}`` turns it off; a tool-call turn's reasoning_content must come back, a plain
turn's need not) and the API's recorded 400 bodies (fact deepseek.reasoning_content_missing: the words, type
invalid_request_error, param null, code invalid_request_error). One mock per module on 127.0.0.1, in-process.
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterator

import pytest
import yaml

from cli import run_cli
from toolchoice.providers.core.mock.server import running_mock

openai = pytest.importorskip("openai")

TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city.", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
USER = {"role": "user", "content": "Weather in Paris?"}
V4_WORDS = "The `reasoning_content` in the thinking mode must be passed back to the API."
REASONER_WORDS = ("Missing `reasoning_content` field in the assistant message at message index {}. For more "
                  "information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls")


@pytest.fixture(scope="module")
def mock() -> Iterator[Any]:
    with running_mock("deepseek") as running:
        yield running


@pytest.fixture(scope="module")
def client(mock: Any) -> Any:
    return openai.OpenAI(base_url=mock.base_url, api_key="x", max_retries=0)


def first_step(client: Any, model: str = "deepseek-v4-flash", **extra: Any) -> Any:
    reply = client.chat.completions.create(model=model, messages=[USER], tools=TOOLS, **extra)
    assert reply.choices[0].finish_reason == "tool_calls"
    return reply.choices[0].message


def history(message: Any, with_reasoning: bool) -> list[dict[str, Any]]:
    """The loop's second request: the assistant turn as openai-python dumps it (reasoning_content kept or dropped),
    then the call's result."""
    turn = message.model_dump(exclude_none=True)
    if not with_reasoning:
        turn.pop("reasoning_content", None)
    return [USER, turn, {"role": "tool", "tool_call_id": message.tool_calls[0].id, "content": "sunny"}]


def test_thinking_mode_answer_carries_reasoning_content_and_takes_it_back(client: Any) -> None:
    message = first_step(client)  # deepseek-v4-flash: thinking on by default
    thought = (message.model_extra or {}).get("reasoning_content")
    assert isinstance(thought, str) and thought
    reply = client.chat.completions.create(model="deepseek-v4-flash", messages=history(message, True), tools=TOOLS)
    assert reply.choices[0].finish_reason == "stop" and reply.choices[0].message.content


@pytest.mark.parametrize("model,words", [("deepseek-v4-flash", V4_WORDS), ("deepseek-v4-pro", V4_WORDS),
                                         ("deepseek-reasoner", REASONER_WORDS.format(1))])
def test_a_tool_call_turn_sent_back_without_it_is_the_apis_400(client: Any, model: str, words: str) -> None:
    message = first_step(client, model)
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model=model, messages=history(message, False), tools=TOOLS)
    assert caught.value.status_code == 400
    assert caught.value.body == {"message": words, "type": "invalid_request_error", "param": None,
                                 "code": "invalid_request_error"}


def test_an_empty_reasoning_content_is_sent_and_a_later_user_turn_still_wants_it(client: Any) -> None:
    """An empty string is the field sent (librefang/librefang#4856: 'accepts it being empty'); a tool-call turn's
    reasoning_content must come back 'in all subsequent requests' (the guide), past the next user message too."""
    message = first_step(client)
    turns = history(message, False)
    later = [*turns, {"role": "assistant", "content": "Sunny."}, {"role": "user", "content": "And tomorrow?"}]
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="deepseek-v4-flash", messages=later, tools=TOOLS)
    assert caught.value.body["message"] == V4_WORDS
    later[1] = {**later[1], "reasoning_content": ""}
    reply = client.chat.completions.create(model="deepseek-v4-flash", messages=later, tools=TOOLS)
    assert reply.choices[0].finish_reason == "tool_calls"


def test_the_refusal_is_the_judged_lines_finding(mock: Any, client: Any) -> None:
    message = first_step(client)
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model="deepseek-v4-flash", messages=history(message, False), tools=TOOLS)
    line = mock.records[-1]
    assert any(f["code"] == "pitfall.deepseek_reasoning_content" and f["message"] == V4_WORDS
               for f in line.get("findings", [])), line


def test_thinking_disabled_hands_out_none_and_wants_none(client: Any) -> None:
    off = {"extra_body": {"thinking": {"type": "disabled"}}}
    message = first_step(client, **off)
    assert "reasoning_content" not in (message.model_extra or {})
    reply = client.chat.completions.create(model="deepseek-v4-flash", messages=history(message, False), tools=TOOLS,
                                           **off)
    assert reply.choices[0].finish_reason == "stop"


def test_a_plain_turns_reasoning_is_not_wanted(client: Any) -> None:
    """Between two user messages without tool calls the guide says reasoning_content is not needed (ignored)."""
    messages = [USER, {"role": "assistant", "content": "Which Paris?"}, {"role": "user", "content": "France."}]
    reply = client.chat.completions.create(model="deepseek-v4-flash", messages=messages, tools=TOOLS)
    assert reply.choices[0].finish_reason == "tool_calls"


def test_a_model_with_no_recorded_words_is_warned_not_refused(mock: Any, client: Any) -> None:
    on = {"extra_body": {"thinking": {"type": "enabled"}}}
    message = first_step(client, "deepseek-v9-test", **on)
    reply = client.chat.completions.create(model="deepseek-v9-test", messages=history(message, False), tools=TOOLS, **on)
    assert reply.choices[0].finish_reason == "stop"
    line = mock.records[-1]
    assert [f["severity"] for f in line.get("findings", []) if f["code"] == "pitfall.deepseek_reasoning_content"] \
        == ["warning"], line


def test_streamed_reasoning_content_pieces_make_the_whole_replys(client: Any) -> None:
    whole = (first_step(client).model_extra or {})["reasoning_content"]
    pieces, calls = [], []
    with client.chat.completions.create(model="deepseek-v4-flash", messages=[USER], tools=TOOLS, stream=True) as stream:
        for chunk in stream:
            for choice in chunk.choices:
                piece = (choice.delta.model_extra or {}).get("reasoning_content")
                if piece:
                    pieces.append(piece)
                calls.extend(choice.delta.tool_calls or ())
    assert len(pieces) > 1 and "".join(pieces) == whole and calls


def test_other_hosts_hand_out_no_reasoning_content() -> None:
    with running_mock("openai") as other:
        own = openai.OpenAI(base_url=other.base_url, api_key="x", max_retries=0)
        reply = own.chat.completions.create(model="o4-mini", messages=[USER], tools=TOOLS, reasoning_effort="low")
        message = reply.choices[0].message
        assert "reasoning_content" not in (message.model_extra or {})
        again = own.chat.completions.create(model="o4-mini", messages=history(message, False), tools=TOOLS,
                                            reasoning_effort="low")
        assert again.choices[0].finish_reason == "stop"


# ---- toolchoice run -p deepseek against the mock --------------------------------------------------------------

def env() -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    out.update(NO_PROXY="127.0.0.1", COLUMNS="160", NO_COLOR="1", DEEPSEEK_API_KEY="x")
    return out


@pytest.mark.parametrize("stream", [(), ("--stream",)])
def test_run_sends_the_reasoning_content_back(mock: Any, tmp_path: Any, stream: tuple[str, ...]) -> None:
    path = tmp_path / "deepseek.yaml"
    path.write_text(yaml.safe_dump({
        "tools": [{"name": "get_weather", "description": "Weather for a city.",
                   "parameters": TOOLS[0]["function"]["parameters"]}],
        "tool_choice": "auto", "messages": [USER],
        "providers": {"deepseek": {"model": "deepseek-v4-flash", "thinking": True}},
        "loop": {"max_steps": 3, "results": {"get_weather": "sunny"}}}, sort_keys=False))
    result = run_cli(["run", str(path), "-p", "deepseek", "--base-url", mock.base_url, "--gateway", "--retries", "0",
                      "-f", "json", *stream], env=env())
    assert result.returncode == 0, (result.stdout[-2000:], result.stderr[-2000:])
    steps = json.loads(result.stdout)["runs"][0]["loops"][0]["steps"]
    assert len(steps) == 2
    sent = steps[1]["request"]["body"]
    assert sent["thinking"] == {"type": "enabled"} and sent["messages"][1]["tool_calls"]
    assert sent["messages"][1]["reasoning_content"] == "toolchoice mock thinking"
