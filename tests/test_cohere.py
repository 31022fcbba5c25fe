"""Cohere Chat v2: exact wire JSON per neutral tool_choice, history, settings, ledger, and the parser.

Expected wire values come from the cohere 7.3.1 wheel and docs.cohere.com, not from our output:
- ``cohere/v2/types/v2chat_request_tool_choice.py``: ``Literal["REQUIRED", "NONE"]``; the chat
  docstring (``cohere/v2/client.py``): "If tool_choice isn't specified, then the model is free to
  choose" (auto = omitted), and tool_choice needs Command R7B or newer.
- ``cohere/types/tool_v2.py`` / ``tool_v2function.py``: ``{type: function, function: {name,
  description?, parameters}}``; ``v2/client.py`` chat(): top-level ``strict_tools``.
- ``cohere/v2/raw_client.py``: POST ``v2/chat`` with ``"stream": False``; ``environment.py``:
  ``https://api.cohere.com``; ``core/client_wrapper.py``: ``Authorization: Bearer``; ``client.py``:
  CO_API_KEY, then COHERE_API_KEY.
- ``cohere/types/tool_call_v2*.py``: history calls ``{id, type: function, function: {name,
  arguments: str}}``; ``tool_message_v2.py``: ``{role: tool, tool_call_id, content}``.
- vercel/ai packages/cohere/src/cohere-prepare-tools.ts: a named tool becomes "only that tool +
  REQUIRED"; vercel/ai#5794: text content next to tool_calls is rejected, tool_plan carries it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolchoice.providers import cohere
from toolchoice.providers.core.capabilities import CAPABILITIES, Level, Support
from toolchoice.providers.core.model import RenderOptions, ToolchoiceError
from toolchoice.providers.core.scenario import load_scenario_text

DATA = Path(__file__).parent / "data" / "responses" / "cohere"
CAP = CAPABILITIES["cohere"]

TOOLS_YAML = """\
tools:
  - name: get_weather
    description: Current weather for a city.
    parameters:
      type: object
      properties:
        city: {type: string}
      required: [city]
  - name: get_time
    description: Current local time.
    parameters:
      type: object
      properties:
        timezone: {type: string}
      required: [timezone]
"""

WEATHER = {"type": "function", "function": {
    "name": "get_weather", "description": "Current weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
TIME = {"type": "function", "function": {
    "name": "get_time", "description": "Current local time.",
    "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}}}
USER = {"role": "user", "content": "Weather in Paris?"}


def scenario(extra: str = "", model: str = "command-a-03-2025", tools: str = TOOLS_YAML,
             messages: str = "messages:\n  - {role: user, content: \"Weather in Paris?\"}\n"):
    text = tools + extra + messages + f"providers:\n  cohere: {{model: {model}}}\n"
    return load_scenario_text(text, "test.yaml")


def render(extra: str = "", options: RenderOptions = RenderOptions(), cap=CAP, **kw):
    return cohere.translate("cohere", scenario(extra, **kw), options, cap)


def codes(translation) -> list[str]:
    return [e.code for e in translation.ledger]


def body(*tools: dict[str, Any], choice: str | None = None, **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"model": "command-a-03-2025", "messages": [USER]}
    if tools:
        out["tools"] = list(tools)
    out.update(fields)
    if choice is not None:
        out["tool_choice"] = choice
    out["stream"] = False
    return out


# neutral tool_choice (YAML) -> (exact body, ledger codes that must appear, effective tool_choice)
CHOICES = [
    ("tool_choice: auto\n", body(WEATHER, TIME), ["tool_choice.mapped"], None),
    ("tool_choice: none\n", body(WEATHER, TIME, choice="NONE"), ["tool_choice.mapped"], "NONE"),
    ("tool_choice: required\n", body(WEATHER, TIME, choice="REQUIRED"), ["tool_choice.mapped"], "REQUIRED"),
    ("tool_choice: any\n", body(WEATHER, TIME, choice="REQUIRED"), ["tool_choice.spelling", "tool_choice.mapped"],
     "REQUIRED"),
    ("tool_choice: true\n", body(WEATHER, TIME, choice="REQUIRED"), ["tool_choice.spelling", "tool_choice.mapped"],
     "REQUIRED"),
    ("tool_choice: false\n", body(WEATHER, TIME), ["tool_choice.unset"], None),
    ("tool_choice: null\n", body(WEATHER, TIME), ["tool_choice.unset"], None),
    ("", body(WEATHER, TIME), ["tool_choice.unset"], None),
    ("tool_choice: get_weather\n", body(WEATHER, choice="REQUIRED"),
     ["tool_choice.emulated", "tools.filtered", "tool_choice.mapped"], "REQUIRED"),
    ("tool_choice: {allowed: [get_time], mode: auto}\n", body(TIME),
     ["tool_choice.emulated", "tools.filtered", "tool_choice.mapped"], None),
    ("tool_choice: {allowed: [get_time], mode: required}\n", body(TIME, choice="REQUIRED"),
     ["tool_choice.emulated", "tools.filtered", "tool_choice.mapped"], "REQUIRED"),
    ("tool_choice: {allowed: [get_weather, get_time], mode: required}\n", body(WEATHER, TIME, choice="REQUIRED"),
     ["tool_choice.mapped"], "REQUIRED"),
]


@pytest.mark.parametrize("yaml_choice, expected, expected_codes, effective", CHOICES,
                         ids=[c[0].strip() or "(absent)" for c in CHOICES])
def test_tool_choice_wire(yaml_choice: str, expected: dict, expected_codes: list[str], effective: Any) -> None:
    t = render(yaml_choice)
    assert t.request is not None
    assert t.request.body == expected
    assert t.effective_tool_choice == effective
    for code in expected_codes:
        assert code in codes(t)
    assert "pitfall.tool_choice_model" not in codes(t)


def test_auto_ledger_says_the_field_is_omitted() -> None:
    t = render("tool_choice: auto\n")
    entry = next(e for e in t.ledger if e.code == "tool_choice.mapped")
    assert "(omitted)" in entry.message and "AUTO" in entry.message


def test_named_tool_ledger_names_the_removed_tool() -> None:
    t = render("tool_choice: {tool: get_time}\n")
    assert t.request.body["tools"] == [TIME]
    filtered = next(e for e in t.ledger if e.code == "tools.filtered")
    assert filtered.severity == "warning" and "get_weather" in filtered.message


def test_url_headers_and_key() -> None:
    t = render()
    assert t.request.method == "POST"
    assert t.request.url == "https://api.cohere.com/v2/chat"
    assert t.request.headers == {"Content-Type": "application/json", "Authorization": "Bearer $CO_API_KEY"}
    assert t.request.key_env == ("CO_API_KEY", "COHERE_API_KEY")
    assert t.request.key_optional is False


def test_base_url_and_key_env_overrides() -> None:
    s = load_scenario_text(TOOLS_YAML + "messages:\n  - {role: user, content: hi}\nproviders:\n  cohere:\n"
                           "    model: command-a-03-2025\n    base_url: https://proxy.example/\n"
                           "    api_key_env: MY_CO_KEY\n")
    t = cohere.translate("cohere", s, RenderOptions(allow_env=("MY_CO_KEY",)), CAP)
    assert t.request.url == "https://proxy.example/v2/chat"
    assert t.request.headers["Authorization"] == "Bearer $MY_CO_KEY"
    assert t.request.key_env == ("MY_CO_KEY",)
    assert "endpoint.base_url" in codes(t)


def test_parallel_false_is_not_sent_and_warned() -> None:
    t = render("tool_choice: auto\nparallel_tool_calls: false\n")
    assert t.request.body == body(WEATHER, TIME)
    entry = next(e for e in t.ledger if e.code == "parallel.unsupported")
    assert entry.severity == "warning"


def test_strict_all_tools_sends_top_level_strict_tools() -> None:
    t = render("strict: true\ntool_choice: required\n")
    assert t.request.body == body(WEATHER, TIME, strict_tools=True, choice="REQUIRED")
    assert "strict" not in json.dumps(t.request.body["tools"])  # never per tool: Cohere answers 422
    assert "strict.mapped" in codes(t)
    assert "strict.widened" not in codes(t)


def test_strict_some_tools_widens_to_all_with_a_warning() -> None:
    tools = TOOLS_YAML.replace("  - name: get_time\n", "  - name: get_time\n    strict: true\n")
    t = render("tool_choice: auto\n", tools=tools)
    assert t.request.body == body(WEATHER, TIME, strict_tools=True)
    widened = next(e for e in t.ledger if e.code == "strict.widened")
    assert widened.severity == "warning" and "get_weather" in widened.message


@pytest.mark.parametrize("model, warned", [
    ("command-r-plus-08-2024", True), ("command-r-08-2024", True), ("command-r", True), ("command-r-plus", True),
    ("command", True), ("command-light", True),
    ("command-r7b-12-2024", False), ("command-a-03-2025", False), ("command-a-reasoning-08-2025", False),
])
def test_tool_choice_on_models_before_r7b_is_a_pitfall(model: str, warned: bool) -> None:
    t = render("tool_choice: required\n", model=model)
    assert t.request.body["tool_choice"] == "REQUIRED"
    assert ("pitfall.tool_choice_model" in codes(t)) is warned


def test_no_model_pitfall_when_nothing_is_sent() -> None:
    t = render("tool_choice: auto\n", model="command-r-plus-08-2024")
    assert "pitfall.tool_choice_model" not in codes(t)


def test_no_emulate_refuses_a_named_tool() -> None:
    t = render("tool_choice: get_weather\n", RenderOptions(emulate=False))
    assert t.request is None
    assert "tool_choice.unsupported" in codes(t)


def test_strict_option_refuses_on_warnings() -> None:
    t = render("tool_choice: get_weather\n", RenderOptions(strict=True))
    assert t.request is None
    assert "strict.refused" in codes(t)


def test_overlay_claiming_a_named_form_is_an_error_not_silence() -> None:
    cap = CAP.with_feature("named", Support(Level.NATIVE, "x"))
    t = render("tool_choice: get_weather\n", cap=cap)
    assert t.request is None
    assert "tool_choice.unsupported" in codes(t)


def test_settings_max_tokens_temperature_thinking() -> None:
    s = load_scenario_text(TOOLS_YAML + "tool_choice: none\n"
                           "messages:\n  - {role: user, content: \"Weather in Paris?\"}\n"
                           "providers:\n  cohere: {model: command-a-03-2025, max_tokens: 300, temperature: 0.2, "
                           "thinking: false}\n")
    t = cohere.translate("cohere", s, RenderOptions(), CAP)
    # cohere/types/thinking.py: {type: enabled|disabled, token_budget?}
    assert t.request.body == body(WEATHER, TIME, max_tokens=300, temperature=0.2, choice="NONE",
                                  thinking={"type": "disabled"})
    assert "thinking.mapped" in codes(t)


def test_tool_without_parameters_gets_an_empty_object_schema() -> None:
    tools = "tools:\n  - name: current_time\n"
    t = render("tool_choice: required\n", tools=tools)
    # ToolV2Function.parameters is required: Dict[str, Any]
    assert t.request.body["tools"] == [{"type": "function", "function": {
        "name": "current_time", "parameters": {"type": "object", "properties": {}}}}]
    assert "schema.empty_parameters" in codes(t)


HISTORY = """\
system: Be brief.
messages:
  - {role: user, content: \"Weather in Paris?\"}
  - role: assistant
    content: I will look it up.
    tool_calls:
      - {id: call_1, name: get_weather, arguments: {city: Paris}}
  - {role: tool, tool_call_id: call_1, content: "{\\"temp_c\\": 18}"}
  - role: assistant
    tool_calls:
      - {id: call_2, name: get_time, arguments: {}}
  - {role: tool, tool_call_id: call_2, content: timeout, is_error: true}
  - {role: assistant, content: It is 18 degrees.}
  - {role: user, content: Thanks}
"""


def test_history_encoding() -> None:
    t = render("tool_choice: auto\n", messages=HISTORY)
    assert t.request.body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "tool_plan": "I will look it up.", "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": '{"temp_c": 18}'},
        {"role": "assistant", "tool_calls": [
            {"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_2", "content": "timeout"},
        {"role": "assistant", "content": "It is 18 degrees."},
        {"role": "user", "content": "Thanks"},
    ]
    plan = next(e for e in t.ledger if e.code == "history.text_as_tool_plan")
    assert "call_1" in plan.message
    dropped = next(e for e in t.ledger if e.code == "history.is_error_dropped")
    assert "call_2" in dropped.message


def test_every_ledger_code_is_emitted_by_some_scenario() -> None:
    seen: set[str] = set()
    for extra, kw in [("tool_choice: required\n", {"model": "command-r-plus-08-2024"}),
                      ("tool_choice: auto\n", {"messages": HISTORY}),
                      ("tool_choice: auto\n", {"tools": TOOLS_YAML.replace("  - name: get_time\n",
                                                                           "  - name: get_time\n    strict: true\n")}),
                      ("tool_choice: auto\n", {"tools": "tools:\n  - name: current_time\n"})]:
        seen.update(codes(render(extra, **kw)))
    s = load_scenario_text(TOOLS_YAML + "messages:\n  - {role: user, content: hi}\n"
                           "providers:\n  cohere: {thinking: true}\n")
    seen.update(codes(cohere.translate("cohere", s, RenderOptions(), CAP)))
    thought = load_scenario_text(TOOLS_YAML + "messages:\n  - {role: user, content: hi}\n  - role: assistant\n"
                                 "    reasoning: [{family: cohere, text: hmm}]\n    tool_calls: [{id: c1, name: get_time}]\n"
                                 "  - {role: tool, tool_call_id: c1, content: '10:00'}\n")
    seen.update(codes(cohere.translate("cohere", thought, RenderOptions(), CAP)))
    assert set(cohere.LEDGER_CODES) <= seen


# ---- parser ------------------------------------------------------------------------------

FIXTURES = sorted(p.name[:-len(".expect.json")] for p in DATA.glob("*.expect.json"))


@pytest.mark.parametrize("name", FIXTURES)
def test_parse_recorded_bodies(name: str) -> None:
    recorded = json.loads((DATA / f"{name}.json").read_text())
    expect = json.loads((DATA / f"{name}.expect.json").read_text())
    reply = cohere.parse_reply("cohere", recorded)
    assert [c.to_json() for c in reply.tool_calls] == expect["calls"]
    assert reply.finish_reason == expect["finish_reason"]
    assert reply.text == expect["text"]  # tool_plan is the model's plan, not its answer
    tokens = recorded["usage"]["tokens"]
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (tokens["input_tokens"], tokens["output_tokens"])


def test_parse_text_blocks_skip_thinking_and_fall_back_to_billed_units() -> None:
    reply = cohere.parse_reply("cohere", {
        "id": "x", "finish_reason": "COMPLETE",
        "message": {"role": "assistant", "content": [{"type": "thinking", "thinking": "hmm"},
                                                     {"type": "text", "text": "It is "},
                                                     {"type": "text", "text": "18 C."}]},
        "usage": {"billed_units": {"input_tokens": 12.0, "output_tokens": 5}}})
    assert reply.tool_calls == ()
    assert reply.text == "It is 18 C."
    assert reply.finish_reason == "COMPLETE"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (12, 5)


def test_parse_invalid_arguments_are_kept_raw() -> None:
    reply = cohere.parse_reply("cohere", {"finish_reason": "TOOL_CALL", "message": {"tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{oops"}}]}})
    call = reply.tool_calls[0]
    assert call.arguments is None and call.raw_arguments == "{oops" and "invalid JSON" in call.arguments_error


@pytest.mark.parametrize("bad", [
    None, [], "text", {}, {"message": "hi"},
    {"message": {"tool_calls": {"id": "a"}}},
    {"message": {"tool_calls": ["a"]}},
    {"message": {"tool_calls": [{"id": "a", "function": "f"}]}},
    {"message": {"tool_calls": [{"id": "a"}]}},
    {"message": {"content": [1]}},
    {"message": {"content": 5}},
    {"message": {}, "finish_reason": 3},
    {"message": {}, "usage": []},
])
def test_malformed_bodies_raise_toolchoice_error(bad: Any) -> None:
    with pytest.raises(ToolchoiceError):
        cohere.parse_reply("cohere", bad)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from(["message", "tool_calls", "function", "content", "type", "text", "usage",
                                         "tokens", "input_tokens", "finish_reason", "arguments", "name", "id"]),
                        inner, max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_parser_raises_only_toolchoice_error(value: Any) -> None:
    try:
        cohere.parse_reply("cohere", value)
    except ToolchoiceError:
        pass
