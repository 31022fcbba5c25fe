"""Anthropic Messages: exact wire JSON per neutral tool_choice, history, thinking, ledger, parser.

Expected wire values come from anthropics/anthropic-sdk-python and Anthropic's docs, not from our output:
- ``types/tool_choice_auto_param.py`` / ``_any_param`` / ``_tool_param`` / ``_none_param``:
  ``{"type": "auto"|"any"|"none"}``, ``{"type": "tool", "name": N}``; ``disable_parallel_tool_use``
  exists in auto/any/tool only.
- ``types/tool_param.py``: ``{name, description?, input_schema: {type: "object", ...}}``; the
  ``strict`` flag per tool (Anthropic "Strict tool use" docs; Ruby SDK ``Anthropic::Models::Tool#strict``).
- ``types/thinking_config_enabled_param.py``: ``{type: "enabled", budget_tokens}``, "Must be ≥1024
  and less than max_tokens".
- ``types/tool_result_block_param.py``: ``{type: "tool_result", tool_use_id, content, is_error?}``;
  ``types/tool_use_block.py``: ``{type: "tool_use", id, name, input: object}``.
- headers ``x-api-key``, ``anthropic-version: 2023-06-01``, ``content-type: application/json`` and
  URL ``https://api.anthropic.com/v1/messages``: the documented curl examples (strict-tool-use page).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolchoice.providers import anthropic
from toolchoice.providers.core.capabilities import CAPABILITIES, Level, Support
from toolchoice.providers.core.model import RenderOptions, ToolchoiceError
from toolchoice.providers.core.scenario import load_scenario_text

DATA = Path(__file__).parent / "data" / "responses" / "anthropic"
CAP = CAPABILITIES["anthropic"]
MODEL = "claude-sonnet-4-5"

TOOLS = [
    {"name": "get_weather", "description": "Current weather for a city.",
     "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    {"name": "get_time", "description": "Current local time.",
     "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}},
]
WEATHER = {"name": "get_weather", "description": "Current weather for a city.",
           "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
TIME = {"name": "get_time", "description": "Current local time.",
        "input_schema": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}}
USER = {"role": "user", "content": "Weather in Paris?"}
ABSENT = object()


def scenario(choice: Any = ABSENT, *, tools: Any = TOOLS, messages: Any = None, settings: dict[str, Any] | None = None,
             **top: Any):
    """A scenario written as YAML (JSON is YAML), as a user would write it."""
    data: dict[str, Any] = {}
    if tools is not None:
        data["tools"] = tools
    if choice is not ABSENT:
        data["tool_choice"] = choice
    data.update(top)
    data["messages"] = messages if messages is not None else [{"role": "user", "content": "Weather in Paris?"}]
    data["providers"] = {"anthropic": {"model": MODEL, "max_tokens": 512, **(settings or {})}}
    return load_scenario_text(json.dumps(data), "test.yaml")


def render(choice: Any = ABSENT, options: RenderOptions = RenderOptions(), cap=CAP, **kw):
    return anthropic.translate("anthropic", scenario(choice, **kw), options, cap)


def codes(translation) -> list[str]:
    return [e.code for e in translation.ledger]


def entry(translation, code: str):
    found = [e for e in translation.ledger if e.code == code]
    assert found, f"{code} not in {codes(translation)}"
    return found[0]


def body(*tools: dict[str, Any], choice: Any = ABSENT, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"model": MODEL, "max_tokens": 512, "messages": [USER]}
    if tools:
        out["tools"] = list(tools)
    if choice is not ABSENT:
        out["tool_choice"] = choice
    out.update(fields)
    return out


# ---- tool_choice on the wire --------------------------------------------------------------

CHOICES = [
    # (scenario tool_choice, expected tools, expected tool_choice)
    ("auto", (WEATHER, TIME), {"type": "auto"}),
    ("none", (WEATHER, TIME), {"type": "none"}),
    ("required", (WEATHER, TIME), {"type": "any"}),
    ("any", (WEATHER, TIME), {"type": "any"}),
    (True, (WEATHER, TIME), {"type": "any"}),
    (False, (WEATHER, TIME), ABSENT),  # false = not specified: the field is left out
    (None, (WEATHER, TIME), ABSENT),
    ("get_weather", (WEATHER, TIME), {"type": "tool", "name": "get_weather"}),
    ({"tool": "get_time"}, (WEATHER, TIME), {"type": "tool", "name": "get_time"}),
    # no allowed-subset form: only the allowed tools are sent, with auto / any
    ({"allowed": ["get_weather"], "mode": "auto"}, (WEATHER,), {"type": "auto"}),
    ({"allowed": ["get_weather"], "mode": "required"}, (WEATHER,), {"type": "any"}),
]


@pytest.mark.parametrize(("choice", "tools", "wire"), CHOICES, ids=[json.dumps(c[0]) for c in CHOICES])
def test_tool_choice_wire(choice, tools, wire):
    t = render(choice)
    assert t.request is not None
    assert t.request.body == body(*tools, choice=wire)
    assert t.effective_tool_choice == (None if wire is ABSENT else wire)


def test_allowed_subset_is_emulated_with_a_warning():
    t = render({"allowed": ["get_weather"], "mode": "required"})
    assert entry(t, "tool_choice.emulated").severity == "warning"
    assert "get_time" in entry(t, "tools.filtered").message


def test_mapping_is_recorded():
    t = render("required")
    assert entry(t, "tool_choice.mapped").message == 'tool_choice required → {"type":"any"}'


PARALLEL = [
    # (tool_choice, parallel_tool_calls, expected tool_choice, module code expected)
    ("auto", False, {"type": "auto", "disable_parallel_tool_use": True}, None),
    ("required", False, {"type": "any", "disable_parallel_tool_use": True}, None),
    ("get_weather", False, {"type": "tool", "name": "get_weather", "disable_parallel_tool_use": True}, None),
    (ABSENT, False, {"type": "auto", "disable_parallel_tool_use": True}, "parallel.auto_added"),
    ("none", False, {"type": "none"}, "parallel.not_with_none"),
    ("auto", True, {"type": "auto", "disable_parallel_tool_use": False}, None),
    (ABSENT, True, ABSENT, "parallel.default"),
]


@pytest.mark.parametrize(("choice", "parallel", "wire", "code"), PARALLEL)
def test_parallel_false_goes_inside_tool_choice(choice, parallel, wire, code):
    t = render(choice, parallel_tool_calls=parallel)
    assert t.request is not None
    assert t.request.body == body(WEATHER, TIME, choice=wire)
    if code:
        assert entry(t, code).severity == "info"


def test_parallel_without_tools_is_dropped():
    t = render(tools=None, parallel_tool_calls=False)
    assert "tools" not in t.request.body and "tool_choice" not in t.request.body
    assert "parallel.dropped" in codes(t)


def test_allowed_overlay_has_no_wire_form():
    cap = CAP.with_feature("allowed", Support(Level.NATIVE, "?"))
    t = render({"allowed": ["get_weather"], "mode": "auto"}, cap=cap)
    assert t.refused
    assert entry(t, "tool_choice.unsupported").severity == "error"


# ---- URL, headers, settings ---------------------------------------------------------------


def test_url_and_headers():
    t = render("auto")
    assert t.request.method == "POST"
    assert t.request.url == "https://api.anthropic.com/v1/messages"
    assert t.request.headers == {"content-type": "application/json", "x-api-key": "$ANTHROPIC_API_KEY",
                                 "anthropic-version": "2023-06-01"}
    assert t.request.key_env == ("ANTHROPIC_API_KEY",)


def test_base_url_key_env_and_header_overrides():
    t = render("auto", settings={"base_url": "https://proxy.example/anthropic/", "api_key_env": "MY_KEY",
                                 "headers": {"anthropic-version": "2024-01-01"}},
               options=RenderOptions(allow_env=("MY_KEY",)))  # another variable than the provider's own
    assert t.request.url == "https://proxy.example/anthropic/v1/messages"
    assert t.request.headers == {"content-type": "application/json", "x-api-key": "$MY_KEY",
                                 "anthropic-version": "2024-01-01"}
    assert {"endpoint.base_url", "headers.user"} <= set(codes(t))


def test_max_tokens_default_is_recorded():
    sc = load_scenario_text(json.dumps({"tools": TOOLS, "messages": [{"role": "user", "content": "hi"}]}), "t.yaml")
    t = anthropic.translate("anthropic", sc, RenderOptions(model=MODEL), CAP)
    assert t.request.body["max_tokens"] == 1024  # required by the API; the default we send
    assert "1024" in entry(t, "max_tokens.default").message


def test_system_temperature_and_strict():
    tools = [dict(TOOLS[0], strict=True), {"name": "ping"}]
    t = render("auto", tools=tools, system="Be brief.", settings={"temperature": 0.2})
    assert t.request.body == {
        "model": MODEL, "max_tokens": 512, "system": "Be brief.", "messages": [USER],
        "tools": [dict(WEATHER, strict=True),
                  {"name": "ping", "input_schema": {"type": "object", "properties": {}}}],  # no parameters
        "tool_choice": {"type": "auto"}, "temperature": 0.2}


def test_invalid_tool_name_refused():
    t = render("auto", tools=[{"name": "get.weather"}])
    assert t.refused and "tool.name_invalid" in codes(t)


# ---- schemas ------------------------------------------------------------------------------


def test_top_level_any_of_is_refused_naming_the_tool():
    schema = {"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
              "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}
    t = render("auto", tools=[{"name": "pick", "parameters": schema}])
    assert t.refused
    e = entry(t, "schema.rejected")
    assert e.severity == "error" and "'pick'" in e.message and "anyOf" in e.message


def test_missing_schema_type_is_added():
    t = render("auto", tools=[{"name": "lookup", "parameters": {"properties": {"q": {"type": "string"}}}}])
    assert t.request.body["tools"] == [
        {"name": "lookup", "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}}}]
    assert entry(t, "schema.type_added").severity == "info"


# ---- thinking -----------------------------------------------------------------------------

THINKING = {"type": "enabled", "budget_tokens": 1024}


@pytest.mark.parametrize("choice", ["auto", "none", ABSENT])
def test_thinking_with_unforced_choice(choice):
    t = render(choice, settings={"thinking": True, "max_tokens": 4096})
    assert t.request.body["thinking"] == THINKING
    assert t.request.body["max_tokens"] == 4096
    assert "thinking.budget" in codes(t)


def test_thinking_default_max_tokens_leaves_room_for_the_budget():
    sc = load_scenario_text(json.dumps({"tools": TOOLS, "tool_choice": "auto",
                                        "messages": [{"role": "user", "content": "hi"}],
                                        "providers": {"anthropic": {"model": MODEL, "thinking": True}}}), "t.yaml")
    t = anthropic.translate("anthropic", sc, RenderOptions(), CAP)
    assert t.request.body["max_tokens"] == 2048 > THINKING["budget_tokens"]
    assert "max_tokens.default" in codes(t)


@pytest.mark.parametrize("choice", ["required", "any", True, "get_weather",
                                    {"allowed": ["get_weather"], "mode": "required"}])
def test_thinking_with_forced_choice_is_refused(choice):
    t = render(choice, settings={"thinking": True, "max_tokens": 4096})
    assert t.refused
    e = entry(t, "thinking.forced_choice")
    assert e.severity == "error"
    assert "thinking: false" in e.message and "tool_choice auto" in e.message


@pytest.mark.parametrize("model", ["claude-3-5-sonnet-20241022", "claude-3-haiku-20240307"])
def test_thinking_not_sent_for_models_without_it(model):
    t = render("auto", settings={"thinking": True, "model": model})
    assert "thinking" not in t.request.body and t.request.body["max_tokens"] == 512
    assert entry(t, "thinking.unsupported_model").severity == "warning"


def test_thinking_on_claude_3_7():
    t = render("auto", settings={"thinking": True, "model": "claude-3-7-sonnet-20250219", "max_tokens": 4096})
    assert t.request.body["thinking"] == THINKING


def test_thinking_false_sends_nothing():
    t = render("required", settings={"thinking": False})
    assert "thinking" not in t.request.body and not t.refused


def test_thinking_with_temperature():
    assert entry(render("auto", settings={"thinking": True, "max_tokens": 4096, "temperature": 0.3}),
                 "thinking.temperature").severity == "error"
    assert not render("auto", settings={"thinking": True, "max_tokens": 4096, "temperature": 1}).refused


def test_thinking_with_too_small_max_tokens():
    t = render("auto", settings={"thinking": True, "max_tokens": 1024})
    assert t.refused and entry(t, "thinking.max_tokens").severity == "error"


def test_thinking_with_pending_tool_loop_is_refused():
    messages = [{"role": "user", "content": "Weather in Paris?"},
                {"role": "assistant", "tool_calls": [{"id": "toolu_1", "name": "get_weather",
                                                      "arguments": {"city": "Paris"}}]},
                {"role": "tool", "tool_call_id": "toolu_1", "content": "18C"}]
    t = render("auto", messages=messages, settings={"thinking": True, "max_tokens": 4096})
    assert t.refused and entry(t, "thinking.tool_history").severity == "error"


# ---- history ------------------------------------------------------------------------------

HISTORY = [
    {"role": "user", "content": "Weather in Paris and Tokyo?"},
    {"role": "assistant", "content": "Checking both.",
     "tool_calls": [{"id": "toolu_1", "name": "get_weather", "arguments": {"city": "Paris"}},
                    {"id": "toolu_2", "name": "get_weather", "arguments": {"city": "Tokyo"}}]},
    {"role": "tool", "tool_call_id": "toolu_1", "content": "18C"},
    {"role": "tool", "tool_call_id": "toolu_2", "content": "timeout", "is_error": True},
    {"role": "user", "content": "And the time there?"},
]


def test_history_encoding():
    t = render("auto", messages=HISTORY)
    assert t.request.body["messages"] == [
        {"role": "user", "content": "Weather in Paris and Tokyo?"},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Checking both."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "Tokyo"}}]},
        # every result in the next user message, first; the user's text after them
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_1", "content": "18C"},
            {"type": "tool_result", "tool_use_id": "toolu_2", "content": "timeout", "is_error": True},
            {"type": "text", "text": "And the time there?"}]},
    ]
    merged = entry(t, "history.merged")
    assert merged.severity == "info"
    assert "consecutive tool results" in merged.message and "user text after the tool results" in merged.message


def test_missing_tool_result_is_refused():
    messages = HISTORY[:3] + HISTORY[4:]  # toolu_2 has no result
    t = render("auto", messages=messages)
    assert t.refused
    e = entry(t, "history.missing_tool_result")
    assert e.severity == "error" and "toolu_2" in e.message


def test_history_ending_in_calls_is_a_warning():
    t = render("auto", messages=HISTORY[:2])
    assert not t.refused
    assert entry(t, "history.missing_tool_result").severity == "warning"


def test_blank_texts():
    t = render("auto", messages=[{"role": "user", "content": "  "}])
    assert t.refused and entry(t, "history.blank_text").severity == "error"
    messages = [HISTORY[0], dict(HISTORY[1], content=""), *HISTORY[2:]]
    t = render("auto", messages=messages)
    assert not t.refused
    assert t.request.body["messages"][1]["content"][0]["type"] == "tool_use"
    assert entry(t, "history.blank_text_dropped").severity == "info"


def test_history_without_declared_tools_warns():
    t = render(tools=None, messages=HISTORY)
    assert "tools" not in t.request.body
    assert entry(t, "history.tools_undeclared").severity == "warning"


def test_no_messages():
    """The API's recorded 400 'messages: at least one message is required' (devoxx/DevoxxGenieIDEAPlugin#567; fact
    anthropic.messages_empty): refused (it was a warning)."""
    t = render("auto", messages=[])
    assert entry(t, "messages.empty").severity == "error"


# ---- every module ledger code is emitted by some scenario ----------------------------------

TRIGGERS: dict[str, dict[str, Any]] = {
    "strict.mapped": {"tools": [{"name": "x", "parameters": {"type": "object"}, "strict": True}]},
    "max_tokens.default": {"settings": {"max_tokens": None}},
    "thinking.budget": {"settings": {"thinking": True, "max_tokens": 4096}},
    "thinking.forced_choice": {"choice": "required", "settings": {"thinking": True, "max_tokens": 4096}},
    "model_rule.unstated": {"choice": "required", "settings": {"model": "claude-fable-5-2"}},
    "thinking.temperature": {"settings": {"thinking": True, "max_tokens": 4096, "temperature": 0}},
    "api_version.removed_field": {"settings": {"temperature": 0.5, "headers": {"anthropic-version": "2026-10-21"}}},
    "api_version.unknown": {"settings": {"headers": {"anthropic-version": "2023-10-01"}}},
    "thinking.max_tokens": {"settings": {"thinking": True, "max_tokens": 1000}},
    "thinking.tool_history": {"messages": HISTORY[:3], "settings": {"thinking": True, "max_tokens": 4096}},
    "thinking.unsupported_model": {"settings": {"thinking": True, "model": "claude-3-opus-20240229"}},
    "schema.rejected": {"tools": [{"name": "x", "parameters": {"type": "object", "oneOf": [{}]}}]},
    "schema.type_added": {"tools": [{"name": "x", "parameters": {"properties": {}}}]},
    "schema.strict_invalid": {"tools": [{"name": "x", "strict": True, "parameters": {"type": "object", "properties": {}}}]},
    "parallel.auto_added": {"parallel_tool_calls": False},
    "parallel.not_with_none": {"choice": "none", "parallel_tool_calls": False},
    "parallel.default": {"parallel_tool_calls": True},
    "history.merged": {"messages": HISTORY},
    "history.missing_tool_result": {"messages": HISTORY[:2]},
    "history.blank_text": {"messages": [{"role": "user", "content": ""}]},
    "history.blank_text_dropped": {"messages": [HISTORY[0], dict(HISTORY[1], content=" "), *HISTORY[2:]]},
    "history.tools_undeclared": {"tools": None, "messages": HISTORY},
    "messages.empty": {"messages": []},
    "thinking.adaptive": {"settings": {"thinking": True, "model": "claude-opus-4-7"}},
    "thinking.effort": {"settings": {"thinking": {"effort": "high"}, "model": "claude-opus-4-7"}},
    "thinking.form": {"settings": {"thinking": "adaptive"}},
    "thinking.always_on": {"settings": {"thinking": False, "model": "claude-fable-5"}},
    "thinking.disabled_for_choice": {"choice": "required", "settings": {
        "model": "claude-sonnet-5", "rules": {"forced_choice_with_adaptive": False}}},
    "thinking.between_tools": {"settings": {"thinking": False, "model": "claude-sonnet-5-5"}},
    "thinking.disabled_effort": {"settings": {"thinking": {"type": "disabled", "effort": "max"}, "model": "claude-opus-5"}},
    "tool.native": {"tools": [{"type": "code_execution_20250825"}]},
    "tool.native_beta": {"tools": [{"type": "mcp", "server_label": "docs", "server_url": "https://d.example/mcp"}]},
    "tool.native_field_dropped": {"tools": [{"type": "mcp", "server_label": "docs", "server_url": "https://d.example/mcp",
                                             "server_description": "the docs"}]},
    "tool.native_name_clash": {"tools": [{"type": "code_execution_20250825"}, {"type": "code_execution_20260521"}]},
}


def test_trigger_table_covers_ledger_codes():
    assert set(TRIGGERS) == set(anthropic.LEDGER_CODES)


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_ledger_code_emitted(code):
    kw = dict(TRIGGERS[code])
    choice = kw.pop("choice", ABSENT)
    settings = kw.pop("settings", {})
    t = render(choice, settings={k: v for k, v in settings.items()}, **kw)
    assert code in codes(t)


# ---- parser -------------------------------------------------------------------------------


def _expect(path: Path) -> dict[str, Any]:
    return json.loads(path.with_name(path.stem + ".expect.json").read_text())


def _fixtures(kind: str) -> list[Path]:
    """Recorded bodies: ``reply`` for success bodies, ``error`` for those whose expect file says is_error."""
    bodies = [p for p in DATA.glob("*.json") if not p.name.endswith(".expect.json")]
    return sorted(p for p in bodies if _expect(p).get("is_error", False) == (kind == "error"))


@pytest.mark.parametrize("path", _fixtures("reply"), ids=lambda p: p.stem)
def test_parse_recorded_replies(path: Path):
    expect = _expect(path)
    raw = json.loads(path.read_text())
    reply = anthropic.parse_reply("anthropic", raw)
    assert [c.to_json() for c in reply.tool_calls] == expect["calls"]
    assert reply.text == expect["text"]
    assert reply.finish_reason == expect["finish_reason"]
    assert reply.usage.input_tokens == raw["usage"]["input_tokens"]
    assert reply.usage.output_tokens == raw["usage"]["output_tokens"]
    assert reply.error is None


@pytest.mark.parametrize("path", _fixtures("error"), ids=lambda p: p.stem)
def test_parse_recorded_errors(path: Path):
    expect = _expect(path)
    reply = anthropic.parse_reply("anthropic", json.loads(path.read_text()))
    assert reply.error is not None
    assert reply.error.type == expect["error_type"]
    assert reply.error.message == expect["error_message"]
    assert list(reply.tool_calls) == expect["calls"]


def test_parse_fixtures_exist():
    assert len(_fixtures("reply")) == 4 and len(_fixtures("error")) == 1


def test_parse_ignores_thinking_blocks():
    reply = anthropic.parse_reply("anthropic", {"content": [
        {"type": "thinking", "thinking": "hmm", "signature": "x"}, {"type": "redacted_thinking", "data": "y"},
        {"type": "text", "text": "Hi"}], "stop_reason": "end_turn"})
    assert reply.text == "Hi" and reply.tool_calls == () and reply.usage.input_tokens is None


@pytest.mark.parametrize("bad", [[], "x", {}, {"content": "x"}, {"content": [1]},
                                 {"content": [], "stop_reason": 3}, {"content": [], "usage": []},
                                 {"type": "error", "error": "boom"}])
def test_parse_malformed_bodies_raise_toolchoice_error(bad):
    with pytest.raises(ToolchoiceError):
        anthropic.parse_reply("anthropic", bad)
