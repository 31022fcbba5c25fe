"""OpenAI Responses API: exact wire JSON per neutral tool_choice, strict handling, history, ledger, parser.

Expected wire values come from openai/openai-python ``src/openai/types/responses/`` and OpenAI's guide,
not from our output:
- ``tool_choice_options.py``: ``"none" | "auto" | "required"``; ``tool_choice_function_param.py``:
  ``{"type": "function", "name"}``; ``tool_choice_allowed_param.py``: ``{"type": "allowed_tools",
  "mode": "auto"|"required", "tools": [{"type": "function", "name"}]}`` (flat, no nested object).
- ``function_tool_param.py``: ``{type: "function", name, parameters, strict, description?}``; strict is
  "Default `true`". The function-calling guide (2026-03-31): an omitted strict makes Responses normalize the
  schema into strict mode; "explicitly set `strict: false`" to opt out; a strict schema that breaks the
  rules is rejected.
- ``response_function_tool_call_param.py``: history calls ``{type: "function_call", call_id, name,
  arguments: str}``; ``response_input_param.py`` FunctionCallOutput: ``{type: "function_call_output",
  call_id, output}``.
- ``response_create_params.py``: ``instructions``, ``input``, ``parallel_tool_calls``,
  ``max_output_tokens``, ``temperature``; URL ``https://api.openai.com/v1/responses`` with
  ``Authorization: Bearer $OPENAI_API_KEY`` (``_client.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolchoice.providers import openai_responses
from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.model import RenderOptions, ToolchoiceError
from toolchoice.providers.core.scenario import load_scenario_text

DATA = Path(__file__).parent / "data" / "responses" / "openai-responses"
CAP = CAPABILITIES["openai-responses"]
MODEL = "gpt-4.1-mini"
ABSENT = object()

TOOLS = [
    {"name": "get_weather", "description": "Current weather for a city.",
     "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    {"name": "get_time", "description": "Current local time.",
     "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}},
]
# Flat function tools, strict sent explicitly as false (the API's default would be true).
WIRE_TOOLS = [dict(t, type="function", strict=False) for t in TOOLS]
USER = {"role": "user", "content": "Weather in Paris?"}

# The real strict-ready schema from openai/openai-python sdist 3.54.0
# tests/lib/test_pydantic.py::test_most_types (Apache-2.0), as in /work/shared/data/schemas.
QUERY_TOOL = json.loads(r'''{"name": "Query", "parameters": {"$defs": {"Column": {"enum": ["id", "status", "expected_delivery_date", "delivered_at", "shipped_at", "ordered_at", "canceled_at"], "title": "Column", "type": "string"}, "Condition": {"properties": {"column": {"title": "Column", "type": "string"}, "operator": {"$ref": "#/$defs/Operator"}, "value": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"$ref": "#/$defs/DynamicValue"}], "title": "Value"}}, "required": ["column", "operator", "value"], "title": "Condition", "type": "object", "additionalProperties": false}, "DynamicValue": {"properties": {"column_name": {"title": "Column Name", "type": "string"}}, "required": ["column_name"], "title": "DynamicValue", "type": "object", "additionalProperties": false}, "Operator": {"enum": ["=", ">", "<", "<=", ">=", "!="], "title": "Operator", "type": "string"}, "OrderBy": {"enum": ["asc", "desc"], "title": "OrderBy", "type": "string"}, "Table": {"enum": ["orders", "customers", "products"], "title": "Table", "type": "string"}}, "properties": {"name": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Name"}, "table_name": {"$ref": "#/$defs/Table"}, "columns": {"items": {"$ref": "#/$defs/Column"}, "title": "Columns", "type": "array"}, "conditions": {"items": {"$ref": "#/$defs/Condition"}, "title": "Conditions", "type": "array"}, "order_by": {"$ref": "#/$defs/OrderBy"}}, "required": ["name", "table_name", "columns", "conditions", "order_by"], "title": "Query", "type": "object", "additionalProperties": false}}''')  # noqa: E501

# github/github-mcp-server@64a49f34 pkg/github/__toolsnaps__/push_files.snap (MIT): every property is
# required and the items are closed, but the root object lacks additionalProperties: false.
PUSH_FILES_TOOL = json.loads(r'''{"name": "push_files", "description": "Push multiple files to a GitHub repository in a single commit", "parameters": {"properties": {"branch": {"description": "Branch to push to", "type": "string"}, "files": {"description": "Array of file objects to push, each object with path (string) and content (string)", "items": {"additionalProperties": false, "properties": {"content": {"description": "file content", "type": "string"}, "path": {"description": "path to the file", "type": "string"}}, "required": ["path", "content"], "type": "object"}, "type": "array"}, "message": {"description": "Commit message", "type": "string"}, "owner": {"description": "Repository owner", "type": "string"}, "repo": {"description": "Repository name", "type": "string"}}, "required": ["owner", "repo", "branch", "files", "message"], "type": "object"}}''')  # noqa: E501


def render(choice: Any = ABSENT, *, tools: Any = TOOLS, messages: Any = None, model: str | None = MODEL,
           options: RenderOptions = RenderOptions(), settings: dict[str, Any] | None = None, **top: Any):
    doc: dict[str, Any] = {}
    if tools is not None:
        doc["tools"] = tools
    if choice is not ABSENT:
        doc["tool_choice"] = choice
    doc.update(top)
    doc["messages"] = [{"role": "user", "content": "Weather in Paris?"}] if messages is None else messages
    provider = dict(settings or {})
    if model is not None:
        provider["model"] = model
    doc["providers"] = {"openai-responses": provider}
    scenario = load_scenario_text(json.dumps(doc), "test.yaml")
    return openai_responses.translate("openai-responses", scenario, options, CAP)


def codes(t) -> list[str]:
    return [e.code for e in t.ledger]


def entries(t, code: str):
    return [e for e in t.ledger if e.code == code]


def entry(t, code: str):
    found = entries(t, code)
    assert len(found) == 1, f"{code}: {found} in {codes(t)}"
    return found[0]


# ---- tool_choice: one exact body per neutral value ----------------------------------------

CHOICES = [
    # (scenario tool_choice, extra scenario keys, expected tool_choice (ABSENT: field omitted), extra body)
    ("auto", {}, "auto", {}),
    ("none", {}, "none", {}),
    ("required", {}, "required", {}),
    ("any", {}, "required", {}),
    (True, {}, "required", {}),
    (False, {}, ABSENT, {}),
    (None, {}, ABSENT, {}),
    ("get_weather", {}, {"type": "function", "name": "get_weather"}, {}),
    ({"tool": "get_time"}, {}, {"type": "function", "name": "get_time"}, {}),
    ({"allowed": ["get_weather"], "mode": "auto"}, {},
     {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "get_weather"}]}, {}),
    ({"allowed": ["get_weather"], "mode": "required"}, {},
     {"type": "allowed_tools", "mode": "required", "tools": [{"type": "function", "name": "get_weather"}]}, {}),
    ("auto", {"parallel_tool_calls": False}, "auto", {"parallel_tool_calls": False}),
]


@pytest.mark.parametrize("choice,top,wire,extra", CHOICES, ids=[json.dumps(c[0]) + str(c[1]) for c in CHOICES])
def test_tool_choice_wire(choice, top, wire, extra):
    t = render(choice, **top)
    expected: dict[str, Any] = {"model": MODEL, "input": [USER], "tools": WIRE_TOOLS, **extra}
    if wire is not ABSENT:
        expected["tool_choice"] = wire
    assert t.request.body == expected
    assert t.effective_tool_choice == (None if wire is ABSENT else wire)


def test_mapping_is_recorded():
    t = render("any")
    assert entry(t, "tool_choice.mapped").message == "tool_choice required → required"
    assert "tool_choice.spelling" in codes(t)  # 'any' read as required


def test_allowed_subset_keeps_every_tool_declared():
    t = render({"allowed": ["get_time"], "mode": "auto"})
    assert [tool["name"] for tool in t.request.body["tools"]] == ["get_weather", "get_time"]
    assert "tools.filtered" not in codes(t)


def test_parallel_true_and_no_tools():
    assert render("auto", parallel_tool_calls=True).request.body["parallel_tool_calls"] is True
    t = render("auto", tools=None, parallel_tool_calls=False)
    assert t.request.body == {"model": MODEL, "input": [USER], "tool_choice": "auto"}  # no source refuses auto
    assert "parallel.dropped" in codes(t)


# ---- strict --------------------------------------------------------------------------------


def test_non_strict_tools_send_strict_false_explicitly():
    t = render("auto")
    assert [tool["strict"] for tool in t.request.body["tools"]] == [False, False]
    info = entry(t, "strict.explicit_false")
    assert info.severity == "info" and info.message.startswith("get_weather, get_time sent with strict: false")


def test_strict_ready_schema_is_sent_strict():
    t = render("auto", tools=[QUERY_TOOL], strict=True)
    assert t.request.body["tools"] == [{"type": "function", "name": "Query", "parameters": QUERY_TOOL["parameters"],
                                        "strict": True}]
    assert "schema.strict_invalid" not in codes(t)
    assert entry(t, "strict.mapped").message == "strict tools: Query → strict: true"
    assert "strict.explicit_false" not in codes(t)


def test_strict_schema_that_breaks_the_rules_is_refused():
    t = render("auto", tools=[dict(PUSH_FILES_TOOL, strict=True)])
    assert t.request is None
    problems = entries(t, "schema.strict_invalid")
    assert [e.severity for e in problems] == ["error"]
    assert "parameters needs additionalProperties: false" in problems[0].message


def test_optional_fields_break_strict():
    tool = {"name": "f", "strict": True, "parameters": {"type": "object", "additionalProperties": False,
                                                        "properties": {"a": {"type": "string"},
                                                                       "b": {"type": ["string", "null"]}},
                                                        "required": ["a"]}}
    t = render("auto", tools=[tool])
    assert t.request is None
    assert "missing: b" in entry(t, "schema.strict_invalid").message


def test_mixed_strict_tools():
    tools = [dict(TOOLS[0], strict=True, parameters=dict(TOOLS[0]["parameters"], additionalProperties=False)),
             TOOLS[1]]
    t = render("auto", tools=tools)
    assert [tool["strict"] for tool in t.request.body["tools"]] == [True, False]
    assert entry(t, "strict.explicit_false").message.startswith("get_time sent")


def test_tool_without_parameters():
    t = render("auto", tools=[{"name": "ping"}, {"name": "pong", "strict": True}])
    assert t.request.body["tools"] == [
        {"type": "function", "name": "ping", "parameters": {"type": "object", "properties": {}}, "strict": False},
        # nothing was written: a closed empty object, so strict's rules hold
        {"type": "function", "name": "pong", "parameters": {"type": "object", "properties": {},
                                                            "additionalProperties": False}, "strict": True}]
    assert len(entries(t, "schema.empty_parameters")) == 2
    assert "schema.strict_invalid" not in codes(t)


# ---- URL, headers, settings ------------------------------------------------------------------


def test_url_and_headers():
    t = render("auto")
    assert t.request.method == "POST"
    assert t.request.url == "https://api.openai.com/v1/responses"
    assert t.request.headers == {"Content-Type": "application/json", "Authorization": "Bearer $OPENAI_API_KEY"}
    assert t.request.key_env == ("OPENAI_API_KEY",)


def test_base_url_includes_v1():
    t = render("auto", settings={"base_url": "http://localhost:8000/v1"})
    assert t.request.url == "http://localhost:8000/v1/responses"


def test_system_max_tokens_temperature():
    t = render("auto", system="Be brief.", settings={"max_tokens": 300, "temperature": 0.5})
    body = t.request.body
    assert body["instructions"] == "Be brief."
    assert body["max_output_tokens"] == 300 and body["temperature"] == 0.5
    assert "max_tokens" not in body


def test_unused_settings_are_warned():
    t = render("auto", settings={"region": "eu"})  # issue 11: thinking now maps to reasoning.effort
    assert entry(t, "settings.ignored").severity == "warning"


def test_invalid_tool_name_refused():
    t = render("auto", tools=[{"name": "weather.get"}])
    assert t.request is None and "tool.name_invalid" in codes(t)


def test_tool_choice_auto_without_tools_is_sent_and_required_refused():
    # anomalyco/opencode#48857 records the Responses API's 400 for "required" without tools ('Tool choice
    # 'required' must be specified with 'tools' parameter.'); no source says it refuses "auto"
    t = render("auto", tools=None)
    assert t.request.body["tool_choice"] == "auto"
    refused = render("required", tools=None)
    assert refused.request is None
    assert "Tool choice 'required' must be specified with 'tools' parameter." in \
        next(e.message for e in refused.ledger if e.code == "tool_choice.without_tools")


# ---- history ---------------------------------------------------------------------------------

HISTORY = [
    {"role": "user", "content": "Weather and time in Paris?"},
    {"role": "assistant", "content": "Checking.", "tool_calls": [
        {"id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}},
        {"id": "call_2", "name": "get_time", "arguments": {"timezone": "Europe/Paris"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": {"temp_c": 18}},
    {"role": "tool", "tool_call_id": "call_2", "content": "10:00", "is_error": True},
    {"role": "user", "content": "Thanks."},
]


def test_history_encoding():
    t = render("auto", messages=HISTORY)
    assert t.request.body["input"] == [
        {"role": "user", "content": "Weather and time in Paris?"},
        {"role": "assistant", "content": "Checking."},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city": "Paris"}'},
        {"type": "function_call", "call_id": "call_2", "name": "get_time", "arguments": '{"timezone": "Europe/Paris"}'},
        {"type": "function_call_output", "call_id": "call_1", "output": '{"temp_c": 18}'},
        {"type": "function_call_output", "call_id": "call_2", "output": "10:00"},
        {"role": "user", "content": "Thanks."},
    ]
    assert "call_2" in entry(t, "history.is_error_dropped").message


def test_assistant_without_text_sends_only_calls():
    messages = [HISTORY[0], {"role": "assistant", "tool_calls": [HISTORY[1]["tool_calls"][0]]}]
    t = render("auto", messages=messages)
    assert [item.get("type", item.get("role")) for item in t.request.body["input"]] == ["user", "function_call"]


# ---- every module ledger code is emitted by some scenario -----------------------------------

_MCP_SERVER = {"type": "mcp", "server_label": "docs", "server_url": "https://docs.example/mcp"}

TRIGGERS: dict[str, Any] = {
    "strict.explicit_false": lambda: render("auto"),
    "strict.mapped": lambda: render("auto", tools=[QUERY_TOOL], strict=True),
    "schema.strict_invalid": lambda: render("auto", tools=[dict(PUSH_FILES_TOOL, strict=True)]),
    "schema.empty_parameters": lambda: render("auto", tools=[{"name": "ping"}]),
    "history.is_error_dropped": lambda: render("auto", messages=HISTORY),
    "history.missing_tool_result": lambda: render("auto", messages=HISTORY[:3] + HISTORY[4:]),  # call_2's dropped
    "settings.ignored": lambda: render("auto", settings={"region": "eu"}),
    "reasoning.replayed": lambda: render("auto", messages=[HISTORY[0], dict(HISTORY[1], reasoning=[
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"}])]),
    "reasoning.incomplete": lambda: render("auto", messages=[HISTORY[0], dict(HISTORY[1], reasoning=[
        {"family": "openai-responses", "encrypted": "gAAA"}])]),
    "thinking.mapped": lambda: render("auto", settings={"thinking": {"effort": "low"}}),
    "history.output_parts": lambda: render("auto", messages=[*HISTORY[:2], dict(HISTORY[2], content=[
        {"type": "input_text", "text": "18 C"}])]),
    "tool_choice.native_target": lambda: render({"type": "mcp", "server_label": "deepwiki"}),
    "tool.native": lambda: render("auto", tools=[*TOOLS, {"type": "programmatic_tool_calling"}]),
    "tool.native_header_conflict": lambda: render("auto", tools=[*TOOLS, dict(_MCP_SERVER, authorization="$B_TOK",
                                                                           headers={"authorization": "Token $A_TOK"})],
                                                 options=RenderOptions(allow_env=("A_TOK", "B_TOK"))),
}


def test_trigger_table_covers_ledger_codes():
    assert set(TRIGGERS) == set(openai_responses.LEDGER_CODES)


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_ledger_code_emitted(code):
    assert code in codes(TRIGGERS[code]())


# ---- parser -------------------------------------------------------------------------------


def _fixtures(kind: str) -> list[Path]:
    return sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".expect.json")
                  and json.loads(p.with_name(p.stem + ".expect.json").read_text()).get("is_error", False)
                  == (kind == "error"))


def test_parse_fixtures_exist():
    assert len(_fixtures("reply")) == 4 and len(_fixtures("error")) == 1


@pytest.mark.parametrize("path", _fixtures("reply"), ids=lambda p: p.stem)
def test_parse_recorded_replies(path: Path):
    expect = json.loads(path.with_name(path.stem + ".expect.json").read_text())
    raw = json.loads(path.read_text())
    reply = openai_responses.parse_reply("openai-responses", raw)
    assert [c.to_json() for c in reply.tool_calls] == expect["calls"]  # call_id, not the fc_ item id
    assert reply.text == expect["text"]
    assert reply.finish_reason == expect["finish_reason"]
    assert reply.usage.input_tokens == raw["usage"]["input_tokens"]
    assert reply.usage.output_tokens == raw["usage"]["output_tokens"]
    assert reply.error is None


@pytest.mark.parametrize("path", _fixtures("error"), ids=lambda p: p.stem)
def test_parse_recorded_errors(path: Path):
    expect = json.loads(path.with_name(path.stem + ".expect.json").read_text())
    reply = openai_responses.parse_reply("openai-responses", json.loads(path.read_text()))
    assert reply.error is not None
    assert reply.error.type == expect["error_type"]
    assert reply.error.message == expect["error_message"]
    assert list(reply.tool_calls) == expect["calls"]


def test_parse_message_text_reasoning_and_incomplete():
    reply = openai_responses.parse_reply("openai-responses", {
        "status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {"type": "message", "role": "assistant", "content": [
                {"type": "output_text", "text": "Hello ", "annotations": []},
                {"type": "refusal", "refusal": "no."}]},
            {"type": "function_call", "id": "fc_1", "call_id": "call_9", "name": "f", "arguments": "{\"a\": "}],
        "usage": {"input_tokens": 3, "output_tokens": 4}})
    assert reply.text == "Hello no."
    assert reply.finish_reason == "incomplete:max_output_tokens"
    call = reply.tool_calls[0]
    assert call.id == "call_9" and call.arguments is None and call.raw_arguments == "{\"a\": "


def test_parse_failed_response_carries_the_error():
    reply = openai_responses.parse_reply("openai-responses", {
        "status": "failed", "output": [], "error": {"code": "server_error", "message": "boom"}})
    assert reply.finish_reason == "failed"
    assert reply.error is not None and reply.error.type == "server_error" and reply.error.message == "boom"


@pytest.mark.parametrize("bad", [[], "x", {"output": "x"}, {"output": [1]},
                                 {"output": [{"type": "function_call", "arguments": "{}"}]},
                                 {"output": [{"type": "message", "content": "hi"}]},
                                 {"output": [{"type": "message", "content": [2]}]}])
def test_parse_malformed_bodies_raise_toolchoice_error(bad):
    with pytest.raises(ToolchoiceError):
        openai_responses.parse_reply("openai-responses", bad)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "output": st.lists(st.fixed_dictionaries({"type": st.sampled_from(["message", "function_call", "reasoning"])},
                                             optional={"content": JSON, "name": JSON, "arguments": JSON,
                                                       "call_id": JSON}) | JSON, max_size=3) | JSON,
    "status": JSON, "incomplete_details": JSON, "usage": JSON, "error": JSON}))
def test_parse_never_raises_anything_but_toolchoice_error(body):
    try:
        openai_responses.parse_reply("openai-responses", body)
    except ToolchoiceError:
        pass
