"""The Anthropic mock hands out redacted thinking where the script or the model gives it (trial16d): it streamed and
answered only ``thinking`` blocks, so a client's redacted_thinking path could not be tried against it.

Truth from outside the code: anthropic-python 2.14.0 on 127.0.0.1 — its stream events (``RawContentBlockStartEvent``
whose ``content_block`` is a ``RedactedThinkingBlock {data, type}``, no delta for it), its MessageStream's final
message and ``messages.create``'s content — and the prompt Anthropic's extended thinking guide documents for testing
("If you need to test redacted thinking handling in your application, you can use this special test string as your
prompt"). The block sent back is followed to the answer that handed it out, as a signature is (``reasoning_from``).
"""

from __future__ import annotations

from typing import Any

import pytest

from sdk_types import missing
from toolchoice.providers.core.mock.script import Script, Step, load_script
from toolchoice.providers.core.mock.server import running_mock

pytestmark = pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")

KEY = "sk-ant-test-redacted-0123456789abcdef"
MODEL = "claude-sonnet-4-6"
THINKING = {"type": "enabled", "budget_tokens": 1024}
TRIGGER = "ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E52CC2876CB"
WEATHER = {"name": "get_weather", "description": "Weather for a city",
           "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}


def _client(mock: Any) -> Any:
    from anthropic import Anthropic

    return Anthropic(base_url=mock.base_url, api_key=KEY, max_retries=0)


def test_the_documented_prompt_streams_a_redacted_block_whole_in_its_start_event() -> None:
    from anthropic.types import RawContentBlockDeltaEvent, RawContentBlockStartEvent, RedactedThinkingBlock

    with running_mock("anthropic") as mock:
        client = _client(mock)
        asked = [{"role": "user", "content": TRIGGER}]
        with client.messages.stream(model=MODEL, max_tokens=2048, thinking=THINKING, messages=asked) as stream:
            events = list(stream)
            final = stream.get_final_message()
        starts = [e.content_block for e in events if isinstance(e, RawContentBlockStartEvent)]
        assert isinstance(starts[0], RedactedThinkingBlock) and starts[0].data
        assert not [e for e in events if isinstance(e, RawContentBlockDeltaEvent) and e.index == 0]  # no delta
        assert isinstance(final.content[0], RedactedThinkingBlock) and final.content[0].data == starts[0].data
        assert [block.type for block in final.content] == ["redacted_thinking", "text"]
        # sent back as the SDK dumps it: followed to the answer that handed it out
        history = [*asked, {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in final.content]},
                   {"role": "user", "content": "And tomorrow?"}]
        client.messages.create(model=MODEL, max_tokens=2048, thinking=THINKING, messages=history)
    one, two = mock.records
    assert two["status"] == 200 and two["reasoning_from"] == [1]
    assert "reasoning.signature_foreign" not in [f["code"] for f in two["findings"]]


def test_a_scripted_redacted_answer_whole_then_its_tool_result() -> None:
    """The script's ``redacted_thinking: true`` on a tool call answer: the whole message carries the redacted block
    first; sent back with the call's result, the API's thinking-with-tool-history rule is met and the line follows it."""
    from anthropic.types import RedactedThinkingBlock, ToolUseBlock

    with running_mock("anthropic", script=Script((Step(redacted_thinking=True),))) as mock:
        client = _client(mock)
        asked = [{"role": "user", "content": "Weather in Paris?"}]
        answer = client.messages.create(model=MODEL, max_tokens=2048, thinking=THINKING, messages=asked,
                                        tools=[WEATHER])
        assert isinstance(answer.content[0], RedactedThinkingBlock) and isinstance(answer.content[1], ToolUseBlock)
        call = answer.content[1]
        history = [*asked, {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in answer.content]},
                   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": "sunny"}]}]
        second = client.messages.create(model=MODEL, max_tokens=2048, thinking=THINKING, messages=history,
                                        tools=[WEATHER])
        assert second.content[0].type == "thinking"  # the script's one reply is spent: thinking as before
    one, two = mock.records
    assert two["status"] == 200 and two["reasoning_from"] == [1] and two["results"][0]["from"] == 1


def test_without_thinking_or_the_prompt_nothing_is_redacted() -> None:
    with running_mock("anthropic", script=Script((Step(redacted_thinking=True),))) as mock:
        client = _client(mock)
        plain = client.messages.create(model=MODEL, max_tokens=256, messages=[{"role": "user", "content": "hi"}])
        thought = client.messages.create(model=MODEL, max_tokens=2048, thinking=THINKING,
                                         messages=[{"role": "user", "content": "hi"}])
    assert [b.type for b in plain.content] == ["text"]  # no thinking asked: the script's step has nothing to redact
    assert [b.type for b in thought.content] == ["thinking", "text"]


def test_the_script_key_is_a_boolean(tmp_path: Any) -> None:
    from toolchoice.providers.core.model import ToolchoiceError

    good = tmp_path / "good.yaml"
    good.write_text("replies:\n  - {redacted_thinking: true, text: hi}\n", encoding="utf-8")
    assert load_script(good).replies[0].redacted_thinking is True
    bad = tmp_path / "bad.yaml"
    bad.write_text("replies:\n  - {redacted_thinking: yes please}\n", encoding="utf-8")
    with pytest.raises(ToolchoiceError) as raised:
        load_script(bad)
    assert "redacted_thinking must be true or false" in str(raised.value) and raised.value.line == 2
