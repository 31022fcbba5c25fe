"""A stream whose later event names another tool for a call already open: the name changed without a word
(only a changed id was a finding; an adversarial run renamed get_weather to delete_everything in a Responses
stream). It is now the finding stream.name_changed, the first name kept, and the stream is not judged as if the
model had answered (every finding but the benign ones fails the exchange, as stream.id_changed does)."""

from __future__ import annotations

import json

from toolchoice.providers.core.streaming import assemble_bytes


def chunk(tool_call: dict) -> str:
    data = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": {"tool_calls": [tool_call]}, "finish_reason": None}]}
    return f"data: {json.dumps(data)}\n\n"


def test_a_renamed_call_is_a_finding_and_keeps_its_first_name() -> None:
    stream = (chunk({"index": 0, "id": "call_1", "type": "function",
                     "function": {"name": "get_weather", "arguments": "{\"city\":"}})
              + chunk({"index": 0, "function": {"name": "delete_everything", "arguments": "\"Oslo\"}"}})
              + "data: [DONE]\n\n")
    result = assemble_bytes("openai", stream.encode())
    codes = [f.code for f in result.findings]
    assert "stream.name_changed" in codes
    assert result.reply.tool_calls[0].name == "get_weather"
    assert result.reply.error is not None and result.reply.error.type == "stream.name_changed"


def test_the_same_name_again_is_no_finding() -> None:
    stream = (chunk({"index": 0, "id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": ""}})
              + chunk({"index": 0, "function": {"name": "get_weather", "arguments": "{}"}}) + "data: [DONE]\n\n")
    result = assemble_bytes("openai", stream.encode())
    assert "stream.name_changed" not in [f.code for f in result.findings] and result.reply.error is None
