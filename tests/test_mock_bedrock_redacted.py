"""The Bedrock Converse mock hands out redacted thinking as the Anthropic mock does (trial16m): where the script says
``redacted_thinking: true`` or, thinking on, a Claude model AWS says redacts (Claude 3.7 Sonnet; trial17f: not any
Claude id) is asked with Anthropic's documented test prompt.

Truth from outside the code: boto3 1.44.8's bedrock-runtime client on 127.0.0.1 — its service model's
``ReasoningContentBlock`` (a union of ``reasoningText {text, signature}`` and ``redactedContent``, a Blob botocore
hands over as bytes) and, in ConverseStream, ``ContentBlockDelta.reasoningContent`` (``ReasoningContentBlockDelta
{text, redactedContent, signature}``). The block sent back as boto3 gave it is followed to the answer that handed it
out (``reasoning_from``), as a signature is.
"""

from __future__ import annotations

from typing import Any

import pytest

from sdk_types import missing
from toolchoice.providers.core.mock.script import Script, Step
from toolchoice.providers.core.mock.server import running_mock

pytestmark = pytest.mark.skipif(missing("boto3"), reason="needs boto3")

MODEL = "anthropic.claude-3-7-sonnet-20250219-v1:0"
THINKING = {"thinking": {"type": "enabled", "budget_tokens": 1024}}
TRIGGER = "ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E52CC2876CB"
TOOLS = {"tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}}]}


def _client(mock: Any) -> Any:
    import boto3

    return boto3.client("bedrock-runtime", region_name="us-east-1", endpoint_url=mock.base_url,
                        aws_access_key_id="AKIAMOCKEXAMPLE0001", aws_secret_access_key="mock-secret-0123456789")


def test_the_documented_prompt_streams_redacted_content_then_it_is_followed_back() -> None:
    asked = [{"role": "user", "content": [{"text": TRIGGER}]}]
    with running_mock("bedrock") as mock:
        client = _client(mock)
        events = list(client.converse_stream(modelId=MODEL, messages=asked,
                                             additionalModelRequestFields=THINKING)["stream"])
        deltas = [e["contentBlockDelta"] for e in events if "contentBlockDelta" in e]
        reasoning = [d["delta"]["reasoningContent"] for d in deltas if "reasoningContent" in d["delta"]]
        (only,) = reasoning  # one delta, the opaque state whole: no text, no signature
        assert list(only) == ["redactedContent"] and isinstance(only["redactedContent"], bytes)
        assert not [e for e in events if "contentBlockStart" in e]  # ContentBlockStart has no reasoning member
        block = {"reasoningContent": {"redactedContent": only["redactedContent"]}}
        said = {"role": "assistant", "content": [block, {"text": deltas[-1]["delta"]["text"]}]}
        more = {"role": "user", "content": [{"text": "And tomorrow?"}]}
        client.converse(modelId=MODEL, messages=[*asked, said, more], additionalModelRequestFields=THINKING)
    one, two = mock.records
    assert one["status"] == two["status"] == 200 and two["reasoning_from"] == [1]
    assert "reasoning.signature_foreign" not in [f["code"] for f in two["findings"]]


def test_a_scripted_redacted_answer_whole_then_its_tool_result() -> None:
    asked = [{"role": "user", "content": [{"text": "Weather in Paris?"}]}]
    with running_mock("bedrock", script=Script((Step(redacted_thinking=True),))) as mock:
        client = _client(mock)
        said = client.converse(modelId=MODEL, messages=asked, toolConfig=TOOLS,
                               additionalModelRequestFields=THINKING)["output"]["message"]
        first, call = said["content"]
        assert list(first["reasoningContent"]) == ["redactedContent"] and first["reasoningContent"]["redactedContent"]
        result = {"role": "user", "content": [{"toolResult": {"toolUseId": call["toolUse"]["toolUseId"],
                                                              "content": [{"text": "sunny"}]}}]}
        again = client.converse(modelId=MODEL, messages=[*asked, said, result], toolConfig=TOOLS,
                                additionalModelRequestFields=THINKING)["output"]["message"]
        assert "reasoningText" in again["content"][0]["reasoningContent"]  # the script's one reply is spent
    one, two = mock.records
    assert two["status"] == 200 and two["reasoning_from"] == [1] and two["results"][0]["from"] == 1


def test_without_thinking_or_on_another_model_nothing_is_redacted() -> None:
    asked = [{"role": "user", "content": [{"text": TRIGGER}]}]
    with running_mock("bedrock") as mock:
        client = _client(mock)
        plain = client.converse(modelId=MODEL, messages=asked)["output"]["message"]["content"]
        other = client.converse(modelId="deepseek.r1-v1:0", messages=asked,
                                additionalModelRequestFields=THINKING)["output"]["message"]["content"]
    assert [list(b) for b in plain] == [["text"]]
    assert "reasoningText" in other[0]["reasoningContent"]  # the test prompt is Anthropic's, for Claude


@pytest.mark.parametrize("model", ["us.anthropic.claude-sonnet-4-20250514-v1:0",
                                   "anthropic.claude-opus-4-1-20250805-v1:0", "global.anthropic.claude-sonnet-4-6",
                                   "anthropic.claude-haiku-4-5-20251001-v1:0"])
def test_a_claude_model_aws_says_does_not_redact_gets_its_reasoning_text(model: str) -> None:
    """docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-thinking-encryption.html (fact
    bedrock.redacted_thinking_models): 'The following information applies specifically to Claude 3.7 Sonnet. Claude 4
    models handle thinking differently and do not produce redacted thinking blocks.' Every Claude id was answered with
    redactedContent; AWS names only Claude 3.7 Sonnet."""
    asked = [{"role": "user", "content": [{"text": TRIGGER}]}]
    with running_mock("bedrock") as mock:
        content = _client(mock).converse(modelId=model, messages=asked,
                                         additionalModelRequestFields=THINKING)["output"]["message"]["content"]
    reasoning = content[0]["reasoningContent"]
    assert list(reasoning) == ["reasoningText"] and reasoning["reasoningText"]["signature"]


def test_the_models_that_redact_are_the_aws_guides() -> None:
    from toolchoice.providers.core.facts import fact

    named = fact("bedrock.redacted_thinking_models")
    assert "Claude 4 models handle thinking differently and do not produce redacted thinking blocks" in named.source
    for model in (MODEL, "us.anthropic.claude-3-7-sonnet-20250219-v1:0"):
        assert named.value.named(model) == "claude-3-7-sonnet"  # type: ignore[union-attr]
    for model in ("anthropic.claude-sonnet-4-20250514-v1:0", "anthropic.claude-3-5-sonnet-20241022-v2:0"):
        assert named.value.named(model) is None  # type: ignore[union-attr]


def test_the_proxy_follows_a_streamed_redacted_block_that_passed_through_it() -> None:
    """The proxy reads the streamed answer's redactedContent as its stream assembler joins it (bedrock.py), so the
    block sent back names the request whose answer carried it."""

    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server

    asked = [{"role": "user", "content": [{"text": TRIGGER}]}]
    with running_mock("bedrock") as upstream:
        handler = ProxyHandler("bedrock", upstream.base_url)
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            client = _client(proxy)
            events = list(client.converse_stream(modelId=MODEL, messages=asked,
                                                 additionalModelRequestFields=THINKING)["stream"])
            (opaque,) = [e["contentBlockDelta"]["delta"]["reasoningContent"]["redactedContent"] for e in events
                         if "reasoningContent" in e.get("contentBlockDelta", {}).get("delta", {})]
            said = {"role": "assistant", "content": [{"reasoningContent": {"redactedContent": opaque}},
                                                     {"text": "ok"}]}
            client.converse(modelId=MODEL, messages=[*asked, said, {"role": "user", "content": [{"text": "More?"}]}],
                            additionalModelRequestFields=THINKING)
            proxy.wait_for(2)  # a proxy line follows the answer's last byte
    assert [line.get("reasoning_from") for line in proxy.records] == [None, [1]]
