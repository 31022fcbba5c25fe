"""Ollama native /api/chat: exact wire JSON per neutral tool_choice, history, settings, ledger, parser.

Expected wire values come from Ollama's own sources, not from our output:
- ollama/ollama ``api/types.go``: ``ChatRequest`` {model, messages, stream (default true), format,
  keep_alive, tools, options, think, ...} has no tool_choice, parallel or strict field; ``Message``
  {role, content, thinking, images, tool_calls, tool_name, tool_call_id}; ``ToolCall`` {id
  (omitempty), function {index, name, arguments: object}}; ``Options.NumPredict`` is
  ``num_predict``; ``ToolFunctionParameters`` {type, $defs, items, required, properties} and
  ``ToolProperty`` {anyOf, type, items, description, enum, properties} are all the schema the
  server reads; ``ChatResponse`` {message, done, done_reason, prompt_eval_count, eval_count}.
- ollama/ollama ``docs/api.md``: POST /api/chat on http://localhost:11434, ``"stream": false``
  for a single response object, tool results ``{role: tool, content, tool_name}``.
- ollama 0.6.3 wheel ``_client.py``: ``authorization: Bearer`` from OLLAMA_API_KEY only when set.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolchoice.providers import ollama
from toolchoice.providers.core.capabilities import CAPABILITIES, Level, Support
from toolchoice.providers.core.model import RenderOptions, ToolchoiceError
from toolchoice.providers.core.scenario import load_scenario_text

DATA = Path(__file__).parent / "data" / "responses" / "ollama"
CAP = CAPABILITIES["ollama"]

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
ONE_USER = "messages:\n  - {role: user, content: \"Weather in Paris?\"}\n"


def scenario(extra: str = "", tools: str = TOOLS_YAML, messages: str = ONE_USER,
             settings_yaml: str = "{model: llama3.1}"):
    return load_scenario_text(tools + extra + messages + f"providers:\n  ollama: {settings_yaml}\n", "test.yaml")


def render(extra: str = "", options: RenderOptions = RenderOptions(), cap=CAP, **kw):
    return ollama.translate("ollama", scenario(extra, **kw), options, cap)


def codes(translation) -> list[str]:
    return [e.code for e in translation.ledger]


def body(*tools: dict[str, Any], **fields: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"model": "llama3.1", "messages": [USER]}
    if tools:
        out["tools"] = list(tools)
    out["stream"] = False
    out.update(fields)
    return out


IGNORED_HINT = "system prompt"  # the workaround the ledger must suggest when a choice cannot be enforced

# neutral tool_choice (YAML) -> (exact body, ledger codes that must appear)
CHOICES = [
    ("tool_choice: auto\n", body(WEATHER, TIME), ["tool_choice.mapped"]),
    ("tool_choice: none\n", body(), ["tool_choice.emulated", "tool_choice.mapped"]),
    ("tool_choice: required\n", body(WEATHER, TIME), ["tool_choice.ignored"]),
    ("tool_choice: any\n", body(WEATHER, TIME), ["tool_choice.spelling", "tool_choice.ignored"]),
    ("tool_choice: true\n", body(WEATHER, TIME), ["tool_choice.spelling", "tool_choice.ignored"]),
    ("tool_choice: false\n", body(WEATHER, TIME), ["tool_choice.unset"]),
    ("tool_choice: null\n", body(WEATHER, TIME), ["tool_choice.unset"]),
    ("", body(WEATHER, TIME), ["tool_choice.unset"]),
    ("tool_choice: get_weather\n", body(WEATHER), ["tools.filtered", "tool_choice.ignored"]),
    ("tool_choice: {allowed: [get_time], mode: auto}\n", body(TIME),
     ["tool_choice.emulated", "tools.filtered", "tool_choice.mapped"]),
    ("tool_choice: {allowed: [get_time], mode: required}\n", body(TIME),
     ["tool_choice.emulated", "tools.filtered", "tool_choice.ignored"]),
]


@pytest.mark.parametrize("yaml_choice, expected, expected_codes", CHOICES,
                         ids=[c[0].strip() or "(absent)" for c in CHOICES])
def test_tool_choice_wire(yaml_choice: str, expected: dict, expected_codes: list[str]) -> None:
    t = render(yaml_choice)
    assert t.request is not None
    assert t.request.body == expected
    assert "tool_choice" not in json.dumps(t.request.body)  # ChatRequest has no such field
    assert t.effective_tool_choice is None
    for code in expected_codes:
        assert code in codes(t)
    assert "stream.disabled" in codes(t)
    for entry in t.ledger:
        if entry.code == "tool_choice.ignored":
            assert entry.severity == "warning" and IGNORED_HINT in entry.message


def test_once_the_tools_are_narrowed_the_advice_is_only_the_system_prompt() -> None:
    """A named choice (or an allowed subset under required) is steered by offering only those tools; the warning
    then no longer tells the user to "offer only the tool it must call" nor says the model may call "any offered
    tool" (a new user read the two entries as contradicting each other)."""
    for choice, offered in (("tool_choice: get_weather\n", "only 'get_weather' offered"),
                            ("tool_choice: {allowed: [get_weather], mode: required}\n", "only the allowed tools offered")):
        t = render(choice)
        (entry,) = [e for e in t.ledger if e.code == "tool_choice.ignored"]
        assert f"with {offered} the model may still answer in text" in entry.message, entry.message
        assert "offer only the tool it must call" not in entry.message and "any offered tool" not in entry.message
        assert "tools.filtered" in codes(t)
    (unnarrowed,) = [e for e in render("tool_choice: required\n").ledger if e.code == "tool_choice.ignored"]
    assert "offer only the tool it must call" in unnarrowed.message  # nothing was narrowed: that advice still holds


def test_none_says_tools_are_left_out() -> None:
    t = render("tool_choice: none\n")
    entry = next(e for e in t.ledger if e.code == "tool_choice.emulated")
    assert entry.severity == "warning" and "left out" in entry.message


def test_url_headers_and_optional_key() -> None:
    t = render()
    assert t.request.method == "POST"
    assert t.request.url == "http://localhost:11434/api/chat"
    assert t.request.headers == {"Content-Type": "application/json", "Authorization": "Bearer $OLLAMA_API_KEY"}
    assert t.request.key_env == ("OLLAMA_API_KEY",)
    assert t.request.key_optional is True


def test_base_url_override() -> None:
    t = render(settings_yaml="{model: qwen3, base_url: 'http://gpu-box:11434/'}")
    assert t.request.url == "http://gpu-box:11434/api/chat"
    assert t.request.body["model"] == "qwen3"
    assert "endpoint.base_url" in codes(t)


def test_parallel_false_and_strict_are_dropped_with_warnings() -> None:
    t = render("tool_choice: auto\nparallel_tool_calls: false\nstrict: true\n")
    assert t.request.body == body(WEATHER, TIME)
    severities = {e.code: e.severity for e in t.ledger}
    assert severities["parallel.unsupported"] == "warning"
    assert severities["strict.unsupported"] == "warning"


def test_no_emulate_refuses_required() -> None:
    t = render("tool_choice: required\n", RenderOptions(emulate=False))
    assert t.request is None
    assert "tool_choice.unsupported" in codes(t)


def test_overlay_claiming_required_is_an_error_not_silence() -> None:
    cap = CAP.with_feature("required", Support(Level.NATIVE, "x"))
    t = render("tool_choice: required\n", cap=cap)
    assert t.request is None
    assert "tool_choice.unsupported" in codes(t)


def test_settings_go_to_options_and_think() -> None:
    t = render("tool_choice: auto\n",
               settings_yaml="{model: llama3.1, max_tokens: 200, temperature: 0, thinking: true}")
    assert t.request.body == body(WEATHER, TIME, options={"num_predict": 200, "temperature": 0}, think=True)
    for code in ("max_tokens.mapped", "temperature.mapped", "thinking.mapped"):
        assert code in codes(t)


def test_tool_without_parameters_gets_an_empty_object_schema() -> None:
    t = render(tools="tools:\n  - name: current_time\n")
    assert t.request.body["tools"] == [{"type": "function", "function": {
        "name": "current_time", "parameters": {"type": "object", "properties": {}}}}]
    assert "schema.empty_parameters" in codes(t)


SCHEMA_TOOLS = """\
tools:
  - name: book
    parameters:
      type: object
      additionalProperties: false
      properties:
        when: {type: string, format: date-time, description: ISO time}
        seats: {type: integer, minimum: 1}
        guest:
          type: object
          properties:
            name: {type: string}
          required: [name]
        room:
          anyOf:
            - {type: string, const: suite}
            - {type: "null"}
      required: [when]
"""


def test_schema_keywords_the_server_does_not_read_are_listed() -> None:
    t = render(tools=SCHEMA_TOOLS)
    # sent unchanged: the loss happens when the server reads the body into its structs
    assert t.request.body["tools"][0]["function"]["parameters"]["additionalProperties"] is False
    entry = next(e for e in t.ledger if e.code == "schema.keywords_ignored")
    assert entry.severity == "info"
    for path in ("parameters.additionalProperties", "parameters.properties.when.format",
                 "parameters.properties.seats.minimum", "parameters.properties.guest.required",
                 "parameters.properties.room.anyOf[0].const"):
        assert path in entry.message
    for kept in ("when.description", "when.type", "room.anyOf[1]"):
        assert kept not in entry.message


def test_plain_schema_has_no_ignored_keywords() -> None:
    assert "schema.keywords_ignored" not in codes(render())


HISTORY = """\
system: Be brief.
messages:
  - {role: user, content: "Weather in Paris?"}
  - role: assistant
    content: Looking.
    tool_calls:
      - {id: call_1, name: get_weather, arguments: {city: Paris}}
  - {role: tool, tool_call_id: call_1, content: "18 C"}
  - role: assistant
    tool_calls:
      - {id: call_2, name: get_time, arguments: {timezone: Europe/Paris}}
  - {role: tool, tool_call_id: call_2, content: timeout, is_error: true}
  - {role: user, content: Thanks}
"""


def test_history_encoding() -> None:
    t = render("tool_choice: auto\n", messages=HISTORY)
    assert t.request.body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": "Looking.", "tool_calls": [
            {"id": "call_1", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]},
        {"role": "tool", "content": "18 C", "tool_name": "get_weather", "tool_call_id": "call_1"},
        {"role": "assistant", "tool_calls": [
            {"id": "call_2", "function": {"name": "get_time", "arguments": {"timezone": "Europe/Paris"}}}]},
        {"role": "tool", "content": "timeout", "tool_name": "get_time", "tool_call_id": "call_2"},
        {"role": "user", "content": "Thanks"},
    ]
    dropped = next(e for e in t.ledger if e.code == "history.is_error_dropped")
    assert "call_2" in dropped.message


def test_every_ledger_code_is_emitted_by_some_scenario() -> None:
    seen: set[str] = set()
    seen.update(codes(render("tool_choice: auto\n", messages=HISTORY)))
    seen.update(codes(render(tools=SCHEMA_TOOLS)))
    seen.update(codes(render(tools="tools:\n  - name: current_time\n")))
    seen.update(codes(render(settings_yaml="{max_tokens: 5, temperature: 1, thinking: false}")))
    assert set(ollama.LEDGER_CODES) <= seen


# ---- parser ------------------------------------------------------------------------------

FIXTURES = sorted(p.name[:-len(".expect.json")] for p in DATA.glob("*.expect.json"))


@pytest.mark.parametrize("name", FIXTURES)
def test_parse_recorded_bodies(name: str) -> None:
    recorded = json.loads((DATA / f"{name}.json").read_text())
    expect = json.loads((DATA / f"{name}.expect.json").read_text())
    reply = ollama.parse_reply("ollama", recorded)
    assert [c.to_json() for c in reply.tool_calls] == expect["calls"]
    assert reply.finish_reason == expect["finish_reason"]  # "stop" even though a tool was called
    assert reply.text == expect["text"]
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (recorded["prompt_eval_count"],
                                                                     recorded["eval_count"])


def test_parse_ids_index_and_thinking_of_current_servers() -> None:
    # Shape of api/types.go ToolCall {id, function {index, name, arguments}}; values made up.
    reply = ollama.parse_reply("ollama", {
        "model": "qwen3", "done": True, "done_reason": "stop",
        "message": {"role": "assistant", "content": "", "thinking": "Paris first.", "tool_calls": [
            {"id": "call_a1", "function": {"index": 0, "name": "get_weather", "arguments": {"city": "Paris"}}},
            {"id": "call_b2", "function": {"index": 1, "name": "get_time", "arguments": {}}}]}})
    assert [c.to_json() for c in reply.tool_calls] == [
        {"id": "call_a1", "name": "get_weather", "arguments": {"city": "Paris"}},
        {"id": "call_b2", "name": "get_time", "arguments": {}}]
    assert reply.text == ""
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (None, None)


def test_parse_string_arguments_are_decoded_or_kept_raw() -> None:
    reply = ollama.parse_reply("ollama", {"message": {"tool_calls": [
        {"function": {"name": "a", "arguments": '{"x": 1}'}}, {"function": {"name": "b", "arguments": "[1]"}}]}})
    assert reply.tool_calls[0].arguments == {"x": 1}
    assert reply.tool_calls[1].arguments is None and reply.tool_calls[1].raw_arguments == "[1]"


@pytest.mark.parametrize("bad", [
    None, [], "text", {}, {"error": "model 'llama9' not found"}, {"message": "hi"},
    {"message": {"tool_calls": {"function": {}}}},
    {"message": {"tool_calls": [1]}},
    {"message": {"tool_calls": [{"function": "f"}]}},
    {"message": {"tool_calls": [{}]}},
    {"message": {"content": ["a"]}},
    {"message": {}, "done_reason": 1},
])
def test_malformed_bodies_raise_toolchoice_error(bad: Any) -> None:
    with pytest.raises(ToolchoiceError):
        ollama.parse_reply("ollama", bad)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from(["message", "tool_calls", "function", "content", "arguments", "name", "id",
                                         "done_reason", "prompt_eval_count", "eval_count", "error"]),
                        inner, max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_parser_raises_only_toolchoice_error(value: Any) -> None:
    try:
        ollama.parse_reply("ollama", value)
    except ToolchoiceError:
        pass
