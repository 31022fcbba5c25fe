"""`toolchoice proxy` follows the thinking of a *streamed* answer as it follows a whole one's: the stream's reasoning
state (Anthropic's ``signature_delta`` and ``redacted_thinking`` data, Bedrock ConverseStream's
``reasoningContent.signature`` deltas, Gemini's ``thoughtSignature`` parts, the Responses API's reasoning items) is
kept by the family's stream assembler beside its reply (``Assembly.handed``), so a streamed text answer's thinking sent
back is named in ``reasoning_from`` and, on a model whose rule runs Anthropic's prefix check, a changed tools list,
system prompt or history before it is said (``proxy.*_changed_with_thinking``).

Truth from outside the code: the official SDKs stream the mock's answers through the proxy on 127.0.0.1 and the
answer goes back as each SDK put it together — anthropic-python 2.14.0 ``messages.create(stream=True)`` folded by its
own ``accumulate_event`` (``lib/streaming/_messages.py``: ``content.signature = event.delta.signature``), botocore's
``converse_stream`` events (service-2.json ``ReasoningContentBlockDelta {text, redactedContent, signature}``),
google-genai's ``generate_content_stream`` parts, openai-python's ``responses.stream`` final response. The mock behind
the proxy handed the signatures out and says the same of the same requests. One mock and one proxy per test,
in-process.
"""

from __future__ import annotations

import json
from typing import Any

from tests.test_mock_thinking_origins import KEY, SCHEMA, SEARCH, WEATHER, _said, _user, _valid
from tests.test_proxy_wire import _settled, proxied
from toolchoice.providers.core.mock.server import running_mock

SYSTEM = "You answer weather questions."
CHANGES = [("tools", "tools_changed_with_thinking"), ("system", "system_changed_with_thinking"),
           ("history", "history_changed_with_thinking"), (None, None)]


def _streamed_message(client: Any, **kwargs: Any) -> dict[str, Any]:
    """``messages.create(stream=True)``'s events folded as the SDK's MessageStream folds them, dumped to send back."""
    from anthropic.lib.streaming._messages import accumulate_event

    snapshot, buffers = None, {}
    for event in client.messages.create(stream=True, **kwargs):
        snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=buffers)
    assert snapshot is not None
    return {"role": "assistant", "content": [block.model_dump(exclude_none=True) for block in snapshot.content]}


def _checked(proxy_lines: list[dict[str, Any]], mock_lines: list[dict[str, Any]]) -> None:
    """Line 1 handed the thinking out; lines 2-5 sent it back under CHANGES, each said (or not) as the mock says it."""
    _valid(proxy_lines)
    assert [line["stream"] for line in proxy_lines] == [True] * 5
    assert "reasoning_from" not in proxy_lines[0]
    assert [line.get("reasoning_from") for line in proxy_lines[1:]] == [[1]] * 4
    for line, upstream, (_, code) in zip(proxy_lines[1:], mock_lines[1:], CHANGES):
        said = _said(line, "proxy")
        assert list(said) == ([f"proxy.{code}"] if code else [])
        if code:
            assert "from #1's answer" in said[f"proxy.{code}"]
        assert list(_said(upstream)) == ([f"mock.{code}"] if code else [])  # the mock that handed it out agrees


def test_an_anthropic_streamed_text_answers_thinking_is_followed_and_a_changed_prefix_said() -> None:
    from anthropic import Anthropic

    with running_mock("anthropic") as upstream, proxied("anthropic", upstream.base_url) as proxy:
        client = Anthropic(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        ask = {"model": "claude-sonnet-5-5", "max_tokens": 4000, "thinking": {"type": "adaptive"},
               "tool_choice": {"type": "none"}}
        first = _user("Weather in Paris?")
        answer = _streamed_message(client, messages=[first], tools=[WEATHER], system=SYSTEM, **ask)
        assert [block["type"] for block in answer["content"]] == ["thinking", "text"]  # no call to follow it by
        assert answer["content"][0]["signature"]  # the SDK kept the signature_delta's signature
        for change, _ in CHANGES:
            history = [_user("Weather in Paris, France?") if change == "history" else first, answer,
                       _user("And tomorrow?")]
            _streamed_message(client, messages=history, tools=[WEATHER, SEARCH] if change == "tools" else [WEATHER],
                              system=SYSTEM + " Today is Friday." if change == "system" else SYSTEM, **ask)
        lines = _settled(proxy, 5)
    _checked(lines, upstream.records)


def _converse_stream(client: Any, **kwargs: Any) -> dict[str, Any]:
    """botocore's ConverseStream events put back together as a Converse message: each block's text and reasoning
    text and signature pieces joined, in contentBlockIndex order."""
    blocks: dict[int, dict[str, Any]] = {}
    for event in client.converse_stream(**kwargs)["stream"]:
        delta = event.get("contentBlockDelta")
        if delta is None:
            continue
        block = blocks.setdefault(delta["contentBlockIndex"], {})
        if "text" in delta["delta"]:
            block["text"] = block.get("text", "") + delta["delta"]["text"]
        elif "reasoningContent" in delta["delta"]:
            piece, text = delta["delta"]["reasoningContent"], block.setdefault("reasoningContent", {}).setdefault(
                "reasoningText", {"text": ""})
            for key in ("text", "signature"):
                if key in piece:
                    text[key] = text.get(key, "") + piece[key]
    return {"role": "assistant", "content": [blocks[index] for index in sorted(blocks)]}


def test_a_bedrock_converse_stream_text_answers_reasoning_is_followed_and_a_changed_prefix_said() -> None:
    import boto3

    model = "anthropic.claude-sonnet-5-5-v1:0"
    extra = {"thinking": {"type": "adaptive"}}
    spec = {"toolSpec": {"name": "get_weather", "description": "Weather for a city", "inputSchema": {"json": SCHEMA}}}
    search = {"toolSpec": {"name": "search", "description": "Search the web", "inputSchema": {"json": SCHEMA}}}
    user = {"role": "user", "content": [{"text": "Weather in Paris?"}]}
    more = {"role": "user", "content": [{"text": "And tomorrow?"}]}
    with running_mock("bedrock") as upstream, proxied("bedrock", upstream.base_url) as proxy:
        client = boto3.client("bedrock-runtime", region_name="us-east-1", endpoint_url=proxy.base_url,
                              aws_access_key_id="AKIAMOCKEXAMPLE0001", aws_secret_access_key="mock-secret-0123456789")
        # no tools: a text answer, its thinking followed by its signature alone (the tools case adds two)
        said = _converse_stream(client, modelId=model, messages=[user], system=[{"text": SYSTEM}],
                                additionalModelRequestFields=extra)
        assert "reasoningContent" in said["content"][0] and not any("toolUse" in block for block in said["content"])
        assert said["content"][0]["reasoningContent"]["reasoningText"]["signature"]
        for change, _ in CHANGES:
            first = {"role": "user", "content": [{"text": "Weather in Rome?"}]} if change == "history" else user
            tools: dict[str, Any] = {"toolConfig": {"tools": [spec, search]}} if change == "tools" else {}
            _converse_stream(client, modelId=model, messages=[first, said, more], additionalModelRequestFields=extra,
                             system=[{"text": SYSTEM + (" Today is Friday." if change == "system" else "")}], **tools)
        lines = _settled(proxy, 5)
    assert lines[0]["path"].endswith("/converse-stream")
    _checked(lines, upstream.records)


def test_a_gemini_streamed_text_answers_thought_signature_is_followed() -> None:
    from google import genai
    from google.genai import types

    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=[types.FunctionDeclaration(name="get_weather",
                                                                           parameters_json_schema=SCHEMA)])],
        tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode="NONE")),
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
    ask = types.Content(role="user", parts=[types.Part(text="Weather in Paris?")])
    with running_mock("gemini") as upstream, proxied("gemini", upstream.base_url) as proxy:
        client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=proxy.base_url))
        parts = [part for chunk in client.models.generate_content_stream(model="gemini-3-flash", contents=[ask],
                                                                          config=config)
                 for part in chunk.candidates[0].content.parts]
        assert any(part.thought_signature for part in parts) and not any(part.function_call for part in parts)
        answer = types.Content(role="model", parts=parts)
        for _ in client.models.generate_content_stream(model="gemini-3-flash", config=config, contents=[
                ask, answer, types.Content(role="user", parts=[types.Part(text="And tomorrow?")])]):
            pass
        one, two = _settled(proxy, 2)
    _valid([one, two])
    assert one["stream"] is True and "reasoning_from" not in one and two["reasoning_from"] == [1]
    assert upstream.records[1]["reasoning_from"] == [1]


def test_a_responses_streamed_answers_reasoning_item_is_followed() -> None:
    from openai import OpenAI

    tools = [{"type": "function", "name": "get_weather", "parameters": SCHEMA}]
    with running_mock("openai-responses") as upstream, proxied("openai-responses", upstream.base_url) as proxy:
        client = OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        with client.responses.stream(model="gpt-5.2", input="Weather in Paris?", tools=tools, tool_choice="none",
                                     reasoning={"effort": "low"}, include=["reasoning.encrypted_content"],
                                     store=False) as events:
            first = events.get_final_response()
        assert first.output[0].type == "reasoning" and first.output[0].encrypted_content
        history = [{"role": "user", "content": "Weather in Paris?"},
                   *[item.model_dump(exclude_none=True) for item in first.output],
                   {"role": "user", "content": "And tomorrow?"}]
        with client.responses.stream(model="gpt-5.2", input=history, tools=tools, reasoning={"effort": "low"},
                                     store=False) as events:
            events.get_final_response()
        one, two = _settled(proxy, 2)
    _valid([one, two])
    assert one["stream"] is True and "reasoning_from" not in one and two["reasoning_from"] == [1]


# ---- the assembler alone: the signatures as anthropic-python's own accumulator keeps them -----------------------


def test_the_anthropic_assembler_keeps_the_signatures_the_sdks_accumulator_keeps() -> None:
    """Events made with anthropic-python's types (a thinking block whose signature comes in two signature_delta events,
    a redacted_thinking block, a text block) folded by the SDK's ``accumulate_event`` and by the proxy's assembler:
    the assembler hands out exactly the signature and data the SDK's message holds, and the reply carries them as
    ``parse_reply`` reads the SDK's final message whole."""
    from anthropic.lib.streaming._messages import accumulate_event
    from anthropic.types import (Message, MessageDeltaUsage, RawContentBlockDeltaEvent, RawContentBlockStartEvent,
                                 RawContentBlockStopEvent, RawMessageDeltaEvent, RawMessageStartEvent,
                                 RawMessageStopEvent, RedactedThinkingBlock, SignatureDelta, TextBlock, TextDelta,
                                 ThinkingBlock, ThinkingDelta, Usage)
    from anthropic.types.raw_message_delta_event import Delta

    from toolchoice.providers.core.stream_framing import Event
    from toolchoice.providers.core.streaming import assembler_for

    events = [
        RawMessageStartEvent(type="message_start", message=Message(
            id="msg_1", type="message", role="assistant", model="claude-sonnet-5-5", content=[], stop_reason=None,
            stop_sequence=None, usage=Usage(input_tokens=5, output_tokens=1))),
        RawContentBlockStartEvent(type="content_block_start", index=0,
                                  content_block=ThinkingBlock(type="thinking", thinking="", signature="")),
        RawContentBlockDeltaEvent(type="content_block_delta", index=0,
                                  delta=ThinkingDelta(type="thinking_delta", thinking="Paris is in France.")),
        RawContentBlockDeltaEvent(type="content_block_delta", index=0,
                                  delta=SignatureDelta(type="signature_delta", signature="EqoBCkgIARAB-first")),
        RawContentBlockDeltaEvent(type="content_block_delta", index=0,
                                  delta=SignatureDelta(type="signature_delta", signature="EqoBCkgIARAB-last")),
        RawContentBlockStopEvent(type="content_block_stop", index=0),
        RawContentBlockStartEvent(type="content_block_start", index=1, content_block=RedactedThinkingBlock(
            type="redacted_thinking", data="EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP")),
        RawContentBlockStopEvent(type="content_block_stop", index=1),
        RawContentBlockStartEvent(type="content_block_start", index=2, content_block=TextBlock(type="text", text="")),
        RawContentBlockDeltaEvent(type="content_block_delta", index=2,
                                  delta=TextDelta(type="text_delta", text="Sunny.")),
        RawContentBlockStopEvent(type="content_block_stop", index=2),
        RawMessageDeltaEvent(type="message_delta", delta=Delta(stop_reason="end_turn", stop_sequence=None),
                             usage=MessageDeltaUsage(output_tokens=9)),
        RawMessageStopEvent(type="message_stop"),
    ]
    snapshot, buffers = None, {}
    assembler = assembler_for("anthropic")[1]
    for event in events:
        snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=buffers)
        data = event.model_dump(mode="json")
        assembler.feed(Event(data["type"], data, json.dumps(data)))
    assembly = assembler.finish()
    assert snapshot is not None
    kept = {block.signature if block.type == "thinking" else block.data
            for block in snapshot.content if block.type in ("thinking", "redacted_thinking")}
    assert kept == {"EqoBCkgIARAB-last", "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"}
    assert set(assembly.handed) == kept and len(assembly.handed) == 2
    assert assembly.reply.text == "Sunny." and not assembly.findings
    # the reply carries what the SDK's final message holds, as parse_reply reads that message whole (run --stream's
    # loop sends it back as run's does)
    from toolchoice.providers import anthropic

    whole = anthropic.parse_reply("anthropic", snapshot.model_dump(mode="json"))
    assert assembly.reply.reasoning == whole.reasoning and len(whole.reasoning) == 2
    assert [(item.text, item.signature, item.encrypted) for item in assembly.reply.reasoning] == [
        (block.thinking, block.signature, None) if block.type == "thinking" else (None, None, block.data)
        for block in snapshot.content if block.type in ("thinking", "redacted_thinking")]
    assert assembly.reply.to_json()["reasoning"] == whole.to_json()["reasoning"]
    assert assembly.extras == {"reasoning_chars": len("Paris is in France."), "signatures": 2}  # as before


def test_the_bedrock_assembler_keeps_what_a_botocore_client_sends_back_of_pieced_reasoning() -> None:
    """ConverseStream deltas whose signature and redactedContent come in two pieces each: botocore parses each event
    (service-2.json ``ReasoningContentBlockDelta``: redactedContent is a Blob, bytes to the client), a client joins
    the pieces, and botocore serializes the block it sends back (the Blob as base64): the assembler hands out those
    very values, and its reply carries those blocks as ``parse_reply`` reads them whole."""
    import base64

    import botocore.session
    from botocore import parsers, serialize

    from toolchoice.providers.core.stream_framing import Event
    from toolchoice.providers.core.streaming import assembler_for

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    shape, parser = model.shape_for("ContentBlockDeltaEvent"), parsers.EventStreamJSONParser()
    deltas = [(0, {"text": "Paris is in France."}), (0, {"signature": "EqoBCkgIARAB-"}), (0, {"signature": "part2"}),
              (1, {"redactedContent": base64.b64encode(b"\x01\x02\x03\x04").decode()}),
              (1, {"redactedContent": base64.b64encode(b"\x05\x06").decode()})]
    assembler = assembler_for("bedrock")[1]
    signature, redacted = "", b""
    for index, piece in deltas:
        data = {"contentBlockIndex": index, "delta": {"reasoningContent": piece}}
        assembler.feed(Event("contentBlockDelta", data, json.dumps(data)))
        parsed = parser.parse({"body": json.dumps(data).encode(), "headers": {}, "status_code": 200}, shape)
        got = parsed["delta"]["reasoningContent"]
        signature += got.get("signature", "")
        redacted += got.get("redactedContent", b"")
    assembler.feed(Event("messageStop", {"stopReason": "end_turn"}, "{}"))
    message = {"role": "assistant", "content": [
        {"reasoningContent": {"reasoningText": {"text": "Paris is in France.", "signature": signature}}},
        {"reasoningContent": {"redactedContent": redacted}}]}
    sent = json.loads(serialize.create_serializer("rest-json").serialize_to_request(
        {"modelId": "m", "messages": [message]}, model.operation_model("Converse"))["body"])["messages"][0]["content"]
    assembly = assembler.finish()
    assert set(assembly.handed) == {sent[0]["reasoningContent"]["reasoningText"]["signature"],
                                    sent[1]["reasoningContent"]["redactedContent"]}
    assert not assembly.findings
    from toolchoice.providers import bedrock  # the reply carries the blocks a botocore client sends back, as read whole

    whole = bedrock.parse_reply("bedrock", {"output": {"message": {"role": "assistant", "content": sent}},
                                            "stopReason": "end_turn"})
    assert assembly.reply.reasoning == whole.reasoning
    assert [(i.text, i.signature, i.encrypted) for i in assembly.reply.reasoning] == [
        ("Paris is in France.", signature, None), (None, None, base64.b64encode(redacted).decode())]
