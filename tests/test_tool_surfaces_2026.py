"""Tool-calling surfaces added in 2025–26, held to the SDKs' types (checked 2026-11-26).

- Programmatic tool calling: a call's ``caller`` (openai 3.57.0 ``types/responses/response_function_tool_call.py``
  ``Caller = CallerDirect {type: direct} | CallerProgram {type: program, caller_id}``; anthropic 2.14.0
  ``types/tool_use_block.py`` ``caller: DirectCaller {type: direct} | ServerToolCaller {type:
  code_execution_20250825, tool_id}``), and a tool's ``allowed_callers`` (openai ``function_tool_param.py``
  ``List[Literal["direct", "programmatic"]]``, anthropic ``tool_param.py``).
- Gemini's finish reason ``TOO_MANY_TOOL_CALLS`` (google-genai 3.6.1 ``types.FinishReason``: "The model made too
  many tool calls in a single request, so the server-side tool loop stopped before the model returned a final
  answer.").
The reply bodies below are written from those types, field for field.
"""

from __future__ import annotations

import pytest

from sdk_types import missing
from toolchoice.providers import load_scenario_text, parse_reply, translate
from toolchoice.providers.core.verdict import verdict

SCENARIO = """
tools:
  - name: get_time
    parameters: {type: object, properties: {tz: {type: string}}}
    allowed_callers: [direct, programmatic]
messages: [{role: user, content: What time is it?}]
tool_choice: required
"""

RESPONSES_BODY = {"id": "resp_1", "object": "response", "status": "completed", "output": [
    {"type": "function_call", "call_id": "call_a", "name": "get_time", "arguments": "{\"tz\": \"UTC\"}",
     "caller": {"type": "direct"}},
    {"type": "function_call", "call_id": "call_b", "name": "get_time", "arguments": "{\"tz\": \"CET\"}",
     "caller": {"type": "program", "caller_id": "prog_1"}}]}
ANTHROPIC_BODY = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-5",
                  "stop_reason": "tool_use", "content": [
                      {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {"tz": "UTC"},
                       "caller": {"type": "code_execution_20250825", "tool_id": "srvtoolu_9"}}]}


def test_responses_calls_say_who_made_them():
    calls = parse_reply("openai-responses", RESPONSES_BODY).tool_calls
    assert [c.caller for c in calls] == ["direct", "program:prog_1"]
    assert calls[1].to_json()["caller"] == "program:prog_1"


def test_anthropic_calls_say_who_made_them():
    (call,) = parse_reply("anthropic", ANTHROPIC_BODY).tool_calls
    assert call.caller == "code_execution_20250825:srvtoolu_9"


def test_the_verdict_tells_a_direct_call_from_one_the_code_made():
    scenario = load_scenario_text(SCENARIO, "s.yaml")
    t = translate("openai-responses", scenario)
    result = verdict(scenario, parse_reply("openai-responses", RESPONSES_BODY), t)
    assert [c.get("caller") for c in result["calls"]] == ["direct", "program:prog_1"]
    assert any("made by the model's code, not directly: get_time (program:prog_1)" in r for r in result["reasons"])


def test_a_reply_without_caller_is_unchanged():
    body = {"output": [{"type": "function_call", "call_id": "c", "name": "get_time", "arguments": "{}"}]}
    (call,) = parse_reply("openai-responses", body).tool_calls
    assert call.caller is None and "caller" not in call.to_json()


@pytest.mark.parametrize("provider", ["anthropic", "openai-responses"])
def test_allowed_callers_is_sent_where_the_tool_type_has_it(provider):
    t = translate(provider, load_scenario_text(SCENARIO, "s.yaml"))
    assert t.request.body["tools"][0]["allowed_callers"] == ["direct", "programmatic"]


def test_allowed_callers_is_dropped_elsewhere():
    t = translate("openai", load_scenario_text(SCENARIO, "s.yaml"))
    assert "allowed_callers" not in t.request.body["tools"][0]["function"]


@pytest.mark.skipif(missing("openai", "anthropic"), reason="needs the SDKs")
def test_the_sdk_types_have_these_fields():
    import typing

    from openai.types.responses.function_tool_param import FunctionToolParam
    from anthropic.types.tool_param import ToolParam
    from openai.types.responses.response_function_tool_call import ResponseFunctionToolCall
    from anthropic.types.tool_use_block import ToolUseBlock

    assert "allowed_callers" in typing.get_type_hints(FunctionToolParam)
    assert "allowed_callers" in typing.get_type_hints(ToolParam)
    assert "caller" in ResponseFunctionToolCall.model_fields and "caller" in ToolUseBlock.model_fields


@pytest.mark.skipif(missing("google.genai"), reason="needs google-genai")
def test_too_many_tool_calls_is_explained():
    from google.genai import types

    assert types.FinishReason.TOO_MANY_TOOL_CALLS.value == "TOO_MANY_TOOL_CALLS"
    scenario = load_scenario_text(SCENARIO, "s.yaml")
    body = {"candidates": [{"content": {"role": "model", "parts": [{"text": "partial"}]},
                            "finishReason": "TOO_MANY_TOOL_CALLS"}]}
    result = verdict(scenario, parse_reply("gemini", body), translate("gemini", scenario))
    assert result["category"] == "no_call"
    assert any("server-side tool loop stopped" in r for r in result["reasons"])
