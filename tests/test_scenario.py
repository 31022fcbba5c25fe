"""Scenario files → the exact dataclasses, and every validation error with file, line, column and a fix
(providers/scenario.py)."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.model import (HistoryCall, Message, ProviderSettings, Scenario, Tool, ToolChoice,
                                        ToolchoiceError)
from toolchoice.providers.core.scenario import load_scenario, load_scenario_text
from toolchoice.providers.core.yaml_input import MAX_DEPTH

CONFIGS = Path(__file__).resolve().parent.parent / "configs"

WEATHER_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def load(text: str, path: str = "s.yaml") -> Scenario:
    return load_scenario_text(textwrap.dedent(text), path)


def error(text: str, path: str = "s.yaml") -> ToolchoiceError:
    with pytest.raises(ToolchoiceError) as info:
        load(text, path)
    return info.value


# ---- valid scenarios ---------------------------------------------------------------------

def test_full_scenario_loads_into_the_exact_dataclasses():
    scenario = load("""\
        name: planner
        description: the required trap
        tools:
          - name: get_weather
            description: Current weather.
            parameters: {type: object, properties: {city: {type: string}}, required: [city]}
            strict: true
          - name: ping
        tool_choice: required
        parallel_tool_calls: false
        strict: false
        system: You are terse.
        messages:
          - {role: user, content: "Weather in Paris?"}
          - role: assistant
            content: Checking.
            tool_calls:
              - {id: call_1, name: get_weather, arguments: {city: Paris}}
              - {id: call_2, name: read_file, arguments: '{"path": "a.py"}'}
          - {role: tool, tool_call_id: call_1, content: {temp_c: 21, sky: clear}}
          - {role: tool, tool_call_id: call_2, name: read_file, content: "no such file", is_error: true}
          - {role: user, content: ""}
        providers:
          openai: {model: gpt-4o-mini, temperature: 0, max_tokens: 100}
          anthropic:
            model: claude-sonnet-4-5
            thinking: true
            headers: {anthropic-beta: x}
            extra: {top_k: 5}
          azure: {deployment: d, endpoint: "https://e.example", api_version: "2024-10-21", api_key_env: MY_KEY}
          bedrock: {region: us-east-1, base_url: "http://127.0.0.1:9"}
          llamacpp:
        """)
    assert scenario == Scenario(
        path="s.yaml",
        tools=(Tool(name="get_weather", description="Current weather.", parameters=WEATHER_SCHEMA, strict=True),
               Tool(name="ping")),
        tools_written_empty=False,
        tool_choice=ToolChoice("required", spelling="required"),
        parallel_tool_calls=False,
        strict=False,
        system="You are terse.",
        messages=(
            Message("user", content="Weather in Paris?"),
            Message("assistant", content="Checking.", tool_calls=(
                HistoryCall(id="call_1", name="get_weather", arguments={"city": "Paris"}),
                HistoryCall(id="call_2", name="read_file", arguments={"path": "a.py"}))),
            Message("tool", content='{"temp_c": 21, "sky": "clear"}', tool_call_id="call_1", tool_name="get_weather"),
            Message("tool", content="no such file", tool_call_id="call_2", tool_name="read_file", is_error=True),
            Message("user", content=""),
        ),
        providers={
            "openai": ProviderSettings(model="gpt-4o-mini", temperature=0, max_tokens=100),
            "anthropic": ProviderSettings(model="claude-sonnet-4-5", thinking=True, headers={"anthropic-beta": "x"},
                                          extra={"top_k": 5}),
            "azure": ProviderSettings(deployment="d", endpoint="https://e.example", api_version="2024-10-21",
                                      api_key_env="MY_KEY"),
            "bedrock": ProviderSettings(region="us-east-1", base_url="http://127.0.0.1:9"),
            "llamacpp": ProviderSettings(),
        },
    )
    assert scenario.history_tool_names() == ("get_weather", "read_file")
    assert scenario.has_tool_history
    assert scenario.settings_for("gemini") == ProviderSettings()


def test_openai_wrapped_tool_and_input_schema_tool():
    scenario = load("""\
        tools:
          - type: function
            function: {name: get_weather, description: Weather., parameters: {type: object, properties: {city: {type: string}}, required: [city]}, strict: true}
          - {name: get_time, input_schema: {type: object, properties: {}}}
        """)
    assert scenario.tools == (
        Tool(name="get_weather", description="Weather.", parameters=WEATHER_SCHEMA, strict=True),
        Tool(name="get_time", parameters={"type": "object", "properties": {}}),
    )


def test_responses_flat_tool_and_anthropic_custom_tool():
    scenario = load("""\
        tools:
          - {type: function, name: get_weather, parameters: {type: object, properties: {city: {type: string}}, required: [city]}}
          - {type: custom, name: get_time, input_schema: {type: object}}
        """)
    assert scenario.tools == (Tool(name="get_weather", parameters=WEATHER_SCHEMA),
                              Tool(name="get_time", parameters={"type": "object"}))


@pytest.mark.parametrize("tool", ["{type: web_search, name: s}", "{type: custom, function: {name: s}}"])
def test_non_function_tools_are_refused(tool):
    check(error(f"tools:\n  - {tool}\n"), 2, 12, "only function and custom tools are supported", "use type: function")


def test_json_scenario_loads():
    scenario = load('{"tools": [{"name": "a"}], "tool_choice": {"type": "tool", "name": "a"}, '
                    '"messages": [{"role": "user", "content": "hi"}]}', "s.json")
    assert scenario.tool_choice == ToolChoice("named", name="a", spelling='{"type":"tool","name":"a"}')
    assert scenario.messages == (Message("user", content="hi"),)


@pytest.mark.parametrize("text, written_empty", [
    ("tools: []\n", True),
    ("messages: []\n", False),
    ("tools:\n", False),
    ("tools: null\n", False),
])
def test_tools_written_empty_versus_omitted(text, written_empty):
    scenario = load(text)
    assert scenario.tools == ()
    assert scenario.tools_written_empty is written_empty


def test_tool_choice_absent_null_and_false_are_not_specified():
    assert load("tools: [{name: a}]\n").tool_choice is None
    assert load("tools: [{name: a}]\ntool_choice: null\n").tool_choice is None
    assert load("tools: [{name: a}]\ntool_choice: false\n").tool_choice is None
    assert load("tools: [{name: a}]\ntool_choice: true\n").tool_choice == ToolChoice("required", spelling="true")


def test_quoted_yaml11_word_is_a_tool_name():
    assert load('tools: [{name: "off"}]\ntool_choice: "off"\n').tool_choice == ToolChoice("named", name="off",
                                                                                          spelling="off")


def test_tool_result_contents():
    scenario = load("""\
        messages:
          - role: assistant
            tool_calls: [{id: a, name: f}, {id: b, name: f, arguments: null}, {id: c, name: f, arguments: "null"}, {id: d, name: f}, {id: e, name: f}]
          - {role: tool, tool_call_id: a, content: [1, 2]}
          - {role: tool, tool_call_id: b, content: 42}
          - {role: tool, tool_call_id: c, content: true}
          - {role: tool, tool_call_id: d}
          - {role: tool, tool_call_id: e, content: null}
        """)
    assert [call.arguments for call in scenario.messages[0].tool_calls] == [{}, {}, {}, {}, {}]
    assert [m.content for m in scenario.messages[1:]] == ["[1, 2]", "42", "true", "", ""]
    assert all(m.tool_name == "f" for m in scenario.messages[1:])


def test_aliases_are_read_but_not_merge_keys():
    scenario = load("""\
        tools:
          - {name: a, parameters: &schema {type: object, properties: {q: {type: string}}}}
          - {name: b, parameters: *schema}
        """)
    assert scenario.tools[0].parameters == scenario.tools[1].parameters == {
        "type": "object", "properties": {"q": {"type": "string"}}}


def test_utf8_bom_and_unicode(tmp_path):
    path = tmp_path / "bom.yaml"
    path.write_bytes("\ufeffsystem: Grüß dich — 你好\n".encode("utf-8"))
    assert load_scenario(path).system == "Grüß dich — 你好"


def test_load_scenario_names_the_path(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("tools: [{name: a}]\ntool_choice: a\n", encoding="utf-8")
    scenario = load_scenario(path)
    assert scenario.path == str(path)
    assert scenario.tool_choice == ToolChoice("named", name="a", spelling="a")


@pytest.mark.parametrize("config", sorted(CONFIGS.glob("*.yaml")), ids=lambda p: p.name)
def test_every_shipped_scenario_loads(config):
    scenario = load_scenario(config)
    assert scenario.path == str(config)
    assert scenario.tools  # every shipped scenario offers tools
    assert scenario.messages and scenario.messages[0].role == "user"
    assert set(scenario.providers) <= set(PROVIDER_IDS)


def test_the_shipped_scenarios_are_the_ones_the_issue_asks_for():
    names = {p.name for p in CONFIGS.glob("*.yaml")}
    assert {"weather.yaml", "planner-trap.yaml", "think-forced.yaml", "none-with-history.yaml"} <= names


# ---- errors: each names the file, the line and column, and how to fix it -------------------

def check(exc: ToolchoiceError, line: int, column: int, message: str, hint: str | None = None) -> None:
    assert (exc.path, exc.line, exc.column) == ("s.yaml", line, column), exc.one_line()
    assert message in exc.message, exc.one_line()
    if hint is not None:
        assert exc.hint is not None and hint in exc.hint, exc.one_line()
    assert exc.one_line().startswith(f"s.yaml:{line}:{column}: ")
    assert "\n" not in exc.one_line()


def test_duplicate_tool_names():
    exc = error("""\
        tools:
          - name: a
          - name: b
          - name: a
        """)
    check(exc, 4, 5, "duplicate tool name 'a' (first declared on line 2)", "tool names must be unique")


def test_duplicate_yaml_keys():
    exc = error("""\
        tools: []
        system: a
        system: b
        """)
    check(exc, 3, 1, "duplicate key 'system' (first on line 2)", "keep one of them")


def test_duplicate_keys_in_a_nested_schema():
    exc = error("""\
        tools:
          - name: a
            parameters:
              type: object
              type: object
        """)
    check(exc, 5, 7, "duplicate key 'type' (first on line 4)")


def test_unknown_top_key_suggests_the_near_one():
    exc = error("""\
        tools: [{name: a}]
        tool_chioce: a
        """)
    check(exc, 2, 1, "unknown key 'tool_chioce' in the scenario", "did you mean tool_choice?")


def test_unknown_key_without_a_near_one_lists_the_known_keys():
    exc = error("zebra: 1\n")
    check(exc, 1, 1, "unknown key 'zebra' in the scenario", "known keys: name, description, tools, tool_choice")


@pytest.mark.parametrize("text, line, column, message, hint", [
    ("tools:\n  - {name: a, paramters: {}}\n", 2, 15, "unknown key 'paramters' in a tool", "did you mean parameters?"),
    ("tools:\n  - {type: function, function: {name: a, descripton: x}}\n", 2, 42, "unknown key 'descripton' in function",
     "did you mean description?"),
    ("messages:\n  - {role: user, content: hi, contnet: x}\n", 2, 31, "unknown key 'contnet' in a user message",
     "did you mean content?"),
    ("messages:\n  - {role: assistant, content: hi, tool_call: []}\n", 2, 36, "unknown key 'tool_call' in an assistant message",
     "did you mean tool_calls?"),
    ("messages:\n  - role: assistant\n    tool_calls: [{id: a, name: f, args: {}}]\n", 3, 35,
     "unknown key 'args' in a tool call", "did you mean arguments?"),
    ("messages:\n  - role: assistant\n    tool_calls: [{id: a, name: f}]\n  - {role: tool, tool_call_id: a, eror: true}\n",
     4, 35, "unknown key 'eror' in a tool message", "did you mean is_error?"),
])
def test_unknown_nested_keys(text, line, column, message, hint):
    check(error(text), line, column, message, hint)


@pytest.mark.parametrize("text, line, column, message", [
    ("tools: {name: a}\n", 1, 8, "tools must be a list, not a mapping"),
    ("tools: [a]\n", 1, 9, "a tool must be a mapping (key: value), not the scalar 'a'"),
    ("tools: [{description: x}]\n", 1, 9, "a tool needs a name"),
    ("tools: [{name: 3}]\n", 1, 16, "a tool's name must be a non-empty string, not int 3"),
    ("tools: [{name: ''}]\n", 1, 16, "a tool's name must be a non-empty string, not str ''"),
    ("tools: [{name: a, strict: yes please}]\n", 1, 27, "strict of tool 'a' must be true or false, not str 'yes please'"),
    ("tools: [{name: a, description: [x]}]\n", 1, 32, "description of tool 'a' must be a string, not list ['x']"),
    ("parallel_tool_calls: 1\n", 1, 22, "parallel_tool_calls must be true or false, not int 1"),
    ("strict: 'true'\n", 1, 9, "strict must be true or false, not str 'true'"),
    ("system: [a]\n", 1, 9, "system must be a string, not list ['a']"),
    ("name: 3\n", 1, 7, "name must be a string, not int 3"),
    ("messages: {role: user}\n", 1, 11, "messages must be a list, not a mapping"),
    ("messages: [hello]\n", 1, 12, "a message must be a mapping (key: value), not the scalar 'hello'"),
    ("messages: [{content: hi}]\n", 1, 12, "a message needs a role"),
    ("messages: [{role: user}]\n", 1, 12, "a user message needs content"),
    ("messages: [{role: user, content: 42}]\n", 1, 34, "content must be a string, not int 42"),
    ("messages: [{role: user, content: no}]\n", 1, 34, "content must be a string, not bool False"),
    ("messages: [{role: assistant}]\n", 1, 12, "an assistant message needs content or tool_calls"),
    ("messages: [{role: assistant, tool_calls: {id: a}}]\n", 1, 42, "tool_calls must be a list, not a mapping"),
    ("messages: [{role: assistant, tool_calls: [{name: f}]}]\n", 1, 43, "a tool call needs id"),
    ("messages: [{role: assistant, tool_calls: [{id: a}]}]\n", 1, 43, "a tool call needs name"),
    ("messages: [{role: assistant, tool_calls: [{id: a, name: f, arguments: [1]}]}]\n", 1, 71,
     "arguments must be a mapping"),
    ("messages: [{role: assistant, tool_calls: [{id: a, name: f, arguments: '{bad'}]}]\n", 1, 71,
     "arguments is a string but not JSON"),
    ("messages: [{role: tool, content: x}]\n", 1, 12, "a tool message needs tool_call_id"),
    ("providers: [openai]\n", 1, 12, "providers must be a mapping (key: value), not a list"),
    ("providers: {openai: gpt-4o}\n", 1, 21, "providers.openai must be a mapping (key: value), not the scalar 'gpt-4o'"),
    ("providers: {openai: {max_tokens: '100'}}\n", 1, 34, "providers.openai.max_tokens must be an integer, not str '100'"),
    ("providers: {openai: {max_tokens: 0}}\n", 1, 34, "providers.openai.max_tokens must be at least 1"),
    ("providers: {openai: {temperature: true}}\n", 1, 35, "providers.openai.temperature must be a number, not bool True"),
    ("providers: {anthropic: {thinking: 'on'}}\n", 1, 35, "providers.anthropic.thinking is not a thinking setting: str 'on'"),
    ("providers: {openai: {headers: {x: 1}}}\n", 1, 35, "providers.openai.headers values must be strings"),
    ("providers: {openai: {extra: [1]}}\n", 1, 29, "providers.openai.extra must be a mapping, not list [1]"),
    ("tools: [{name: a}]\ntool_choice: 7\n", 2, 14, "tool_choice must be a word, a tool name or an object, not int 7"),
    ("1: x\n", 1, 1, "keys must be strings, not 1"),
    ("- tools\n", 1, 1, "the scenario must be a mapping (key: value), not a list"),
    ("just words\n", 1, 1, "the scenario must be a mapping (key: value), not the scalar 'just words'"),
])
def test_wrong_types(text, line, column, message):
    check(error(text), line, column, message)


def test_unknown_role():
    exc = error("messages:\n  - {role: asistant, content: hi}\n")
    check(exc, 2, 12, "unknown message role 'asistant'", "did you mean assistant?")


def test_leading_system_and_developer_messages_become_the_system_prompt():
    """OpenAI-style message lists start with a system (or developer) message: it is the system prompt."""
    s = load_scenario_text("messages:\n  - {role: system, content: be terse}\n  - {role: system, content: and kind}\n"
                           "  - {role: user, content: hi}\n", "s.yaml")
    assert s.system == "be terse\n\nand kind" and s.system_role == "system"
    assert [m.role for m in s.messages] == ["user"]
    d = load_scenario_text("messages:\n  - {role: developer, content: be terse}\n  - {role: user, content: hi}\n")
    assert d.system == "be terse" and d.system_role == "developer"


def test_a_system_message_after_the_conversation_started_is_refused():
    exc = error("messages:\n  - {role: user, content: hi}\n  - {role: system, content: be terse}\n")
    check(exc, 3, 12, "a system message after the conversation started",
          "put system messages first, or use the top-level system: key")


def test_a_system_message_and_the_system_key_together_are_refused():
    exc = error("system: one\nmessages:\n  - {role: developer, content: two}\n  - {role: user, content: hi}\n")
    check(exc, 3, 5, "a developer message and the top-level system: key both set the system prompt", "keep one of them")


def test_tool_result_with_unknown_tool_call_id():
    exc = error("""\
        messages:
          - role: assistant
            tool_calls: [{id: call_1, name: f}]
          - {role: tool, tool_call_id: call_2, content: x}
        """)
    check(exc, 4, 32, "tool result answers tool_call_id 'call_2', which matches no earlier assistant tool call "
                      "(earlier ids: call_1)", "did you mean call_1?")


def test_tool_result_before_its_call():
    exc = error("""\
        messages:
          - {role: tool, tool_call_id: call_1, content: x}
          - role: assistant
            tool_calls: [{id: call_1, name: f}]
        """)
    check(exc, 2, 32, "which matches no earlier assistant tool call (earlier ids: none so far)",
          "add the assistant message with that call before it")


def test_second_result_for_one_id():
    exc = error("""\
        messages:
          - role: assistant
            tool_calls: [{id: call_1, name: f}]
          - {role: tool, tool_call_id: call_1, content: x}
          - {role: tool, tool_call_id: call_1, content: y}
        """)
    check(exc, 5, 32, "tool call 'call_1' already has a result", "remove the second result")


def test_call_id_used_twice():
    exc = error("""\
        messages:
          - role: assistant
            tool_calls:
              - {id: c, name: f}
              - {id: c, name: g}
        """)
    check(exc, 5, 14, "tool call id 'c' is used twice (first on line 4)", "give each call its own id")


def test_tool_result_name_must_match_the_call():
    exc = error("""\
        messages:
          - role: assistant
            tool_calls: [{id: c, name: f}]
          - {role: tool, tool_call_id: c, name: g, content: x}
        """)
    check(exc, 4, 41, "name 'g' differs from the call's tool 'f'", "drop name: or fix it")


def test_unknown_provider_id():
    exc = error("providers:\n  open-ai: {model: x}\n")
    check(exc, 2, 3, "unknown provider 'open-ai'", "did you mean openai?")


def test_unknown_provider_without_a_near_one_lists_the_ids():
    exc = error("providers:\n  zzzzzz: {}\n")
    check(exc, 2, 3, "unknown provider 'zzzzzz'", "providers: openai, openai-responses, anthropic")


def test_unknown_settings_key():
    exc = error("providers:\n  openai: {modle: gpt-4o}\n")
    check(exc, 2, 12, "unknown key 'modle' in providers.openai", "did you mean model?")


@pytest.mark.parametrize("parameters, message", [
    ("[a, b]", "parameters of tool 'a' must be a JSON Schema object (a mapping)"),
    ("string", "parameters of tool 'a' must be a JSON Schema object (a mapping)"),
    ("{type: string}", "parameters of tool 'a' must describe an object, not type 'string'"),
])
def test_non_object_parameters(parameters, message):
    check(error(f"tools:\n  - name: a\n    parameters: {parameters}\n"), 3, 17, message)


def test_unknown_tool_in_tool_choice():
    exc = error("""\
        tools:
          - name: get_weather
        tool_choice: get_wether
        """)
    check(exc, 3, 14, "tool_choice names 'get_wether', which is not a declared tool (declared: get_weather)",
          "did you mean get_weather?")


def test_tool_choice_object_error_points_at_the_object():
    exc = error("""\
        tools: [{name: a}]
        tool_choice:
          type: tool
          name: a
          disable_parallel_tool_use: true
        """)
    check(exc, 3, 3, "disable_parallel_tool_use inside tool_choice is Anthropic's wire form",
          "write parallel_tool_calls: false at the top level instead")


@pytest.mark.parametrize("word, value, hint", [
    ("off", "false", "none to forbid tool calls"),
    ("no", "false", 'or "no" for a tool named no'),
    ("yes", "true", "write true or required to require a tool call"),
    ("On", "true", 'or "On" for a tool named On'),
])
def test_yaml11_booleans_in_tool_choice_are_refused(word, value, hint):
    exc = error(f"tools: [{{name: a}}]\ntool_choice: {word}\n")
    check(exc, 2, 14, f"tool_choice: {word} is a YAML boolean ({value})", hint)


# ---- YAML features that are not plain data ------------------------------------------------

@pytest.mark.parametrize("value, tag", [
    ("!!python/object/apply:os.system ['touch {marker}']", "!!python/object/apply:os.system"),
    ("!!python/object/new:os.system {{args: ['touch {marker}']}}", "!!python/object/new:os.system"),
    ("!!python/object/apply:os.system\n      args: ['touch {marker}']", "!!python/object/apply:os.system"),
    ("!!python/name:os.system", "!!python/name:os.system"),
    ("!!python/tuple [a, b]", "!!python/tuple"),
    ("!!set {{a, b}}", "!!set"),
    ("!!omap [a: 1]", "!!omap"),
    ("!custom 3", "!custom"),
])
def test_yaml_object_tags_are_refused_and_never_run(tmp_path, value, tag):
    marker = tmp_path / "pwned"
    text = f"tools:\n  - name: a\n    parameters: {value.format(marker=marker)}\n"
    path = tmp_path / "tag.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ToolchoiceError) as info:
        load_scenario(path)
    exc = info.value
    assert (exc.path, exc.line, exc.column) == (str(path), 3, 17)
    assert exc.message == f"the YAML tag {tag} is not allowed"
    assert exc.hint == "scenario files hold plain data: strings, numbers, lists, mappings"
    assert not marker.exists()


def test_object_tag_on_the_whole_document_is_refused(tmp_path):
    marker = tmp_path / "pwned"
    exc = error(f"!!python/object/apply:os.system ['touch {marker}']\n")
    check(exc, 1, 1, "the YAML tag !!python/object/apply:os.system is not allowed")
    assert not marker.exists()


def test_object_tag_in_tool_choice_is_refused(tmp_path):
    marker = tmp_path / "pwned"
    exc = error(f"tools: [{{name: a}}]\ntool_choice: !!python/object/apply:os.system ['touch {marker}']\n")
    check(exc, 2, 14, "the YAML tag !!python/object/apply:os.system is not allowed")
    assert not marker.exists()


def test_merge_keys_are_refused():
    exc = error("""\
        providers:
          openai: &base {model: m}
          groq:
            <<: *base
            max_tokens: 5
        """)
    check(exc, 4, 5, "YAML merge keys (<<) are not supported", "write the keys out")


@pytest.mark.parametrize("number", [".inf", "-.inf", ".nan", ".NaN"])
def test_non_finite_numbers_are_refused(number):
    check(error(f"providers: {{openai: {{temperature: {number}}}}}\n"), 1, 35, "numbers must be finite")


def test_timestamps_and_binary_are_not_json():
    check(error("messages:\n  - role: assistant\n    tool_calls: [{id: a, name: f, arguments: {when: 2024-01-02}}]\n"),
          3, 53, "a date value is not JSON data", "quote it to make it a string")
    check(error("system: !!binary aGk=\n"), 1, 9, "a bytes value is not JSON data")


def test_alias_loop_is_refused():
    exc = error("""\
        tools:
          - name: a
            parameters: &p {type: object, properties: {x: *p}}
        """)
    check(exc, 3, 17, "a YAML alias refers to a mapping or list that contains it", "remove the alias loop")


def test_alias_bomb_is_refused_quickly():
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 9)]
    exc = error("tools:\n  - name: a\n    parameters: {type: object, x: {" + ", ".join(lines) + "}}\n")
    assert exc.line == 3
    assert exc.message == "the scenario expands to more than 1000000 values"
    assert "YAML aliases" in exc.hint


def _nested(depth: int, inner: str) -> str:
    return "[" * depth + inner + "]" * depth


# Documents with aliases, read with libyaml's composer since they no longer fall back to the pure-Python one:
# (text, whether libyaml composes it). Each is read both ways and must give the same scenario or error.
ALIAS_DOCUMENTS = [
    ("tools:\n  - {name: a, parameters: &s {type: object, properties: {q: {type: string}}}}\n"
     "  - {name: b, parameters: *s}\n", True),
    ("system: &s hello\ntools: [{name: a, description: *s}]\nmessages: [{role: user, content: *s}]\n", True),
    ("tools: [{name: &n a, parameters: {type: object, properties: {*n : {type: string}}}}]\ntool_choice: *n\n",
     True),
    ("tools:\n  - name: a\n    parameters: &p {type: object, properties: {x: *p}}\n", True),  # a loop
    ("tools:\n  - name: a\n    parameters: {type: object, x: {" + ", ".join(
        ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
        + [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 9)]) + "}}\n", True),
    ("tools:\n  - &t {name: a}\n  - {<<: *t, description: d}\n", True),  # a merge key
    ("tools: [{name: a, parameters: {type: object, x: &x 1}}]\nsystem: *x\n", True),  # a number for a text
    ("tools: [{name: a, parameters: {x: &x 1, y: &x 2}}]\nsystem: *x\n", False),  # an anchor defined twice
    ("tools: *nothing\n", False),
    # nested 60 deep where the anchor is written, 120 where the alias repeats it
    ("tools: [{name: a, parameters: {type: object, x: &d " + _nested(60, "1") + ", y: " + _nested(60, "*d")
     + "}}]\n", True),
    # an anchor written 150 deep, repeated at the top: deeper than the reader allows, either way
    ("tools: [{name: a, parameters: {type: object, x: " + _nested(150, "&d [1]") + "}}]\nsystem: *d\n", False),
    # 400 deep where it is written: more than the pure-Python composer can recurse through
    ("tools: [{name: a, parameters: {type: object, x: " + _nested(400, "&d [1]") + "}}]\nsystem: *d\n", False),
]


def _outcome(text: str) -> object:
    try:
        return load_scenario_text(text, "s.yaml")
    except ToolchoiceError as exc:
        return exc.one_line()


@pytest.mark.parametrize("text, fast", ALIAS_DOCUMENTS)
def test_documents_with_aliases_read_the_same_with_either_composer(text, fast, monkeypatch):
    """libyaml composes an alias as the node its anchor made, as the pure-Python composer does; the reader
    then refuses loops, alias bombs and nesting on either path. Both read every document alike."""
    from toolchoice.providers.core import yaml_input as loader

    assert (loader._compose_fast(text) is not None) == fast
    with_libyaml = _outcome(text)
    monkeypatch.setattr(loader, "_compose_fast", lambda text, **_: None)
    assert _outcome(text) == with_libyaml


def test_deep_nesting_is_refused_with_a_line():
    depth = MAX_DEPTH + 10
    exc = error("tools:\n  - name: a\n    parameters: " + "[" * depth + "]" * depth + "\n")
    assert (exc.line, exc.message) == (3, f"values nest more than {MAX_DEPTH} levels deep")


def test_nesting_beyond_what_the_yaml_parser_can_compose():
    exc = error("tools: " + "[" * 1500 + "]" * 1500 + "\n")  # PyYAML composes recursively: > 1000 frames
    assert exc.line == 1
    assert exc.message == "invalid YAML: mappings and lists nest too deeply to read"


def test_nesting_past_libyamls_own_bound_is_refused_where_libyaml_stops():
    """libyaml's scanner stops at 1000 flow levels ("exceeded maximum nesting depth"): the refusal names that place
    (the 1000th '[' after 'tools: ', column 1007), read from libyaml's parser events, whatever the depth behind
    it; the pure-Python scanner used to read on to where its composer overflowed (column ~1520)."""
    import yaml

    if not hasattr(yaml, "CSafeLoader"):
        pytest.skip("PyYAML built without libyaml")
    for depth in (1500, 25000):
        exc = error("tools: " + "[" * depth + "]" * depth + "\n")
        assert (exc.line, exc.column, exc.message) == (1, 1007, "invalid YAML: mappings and lists nest too deeply to read")


def _depth(value: object) -> int:
    """The deepest node of plain data, the root at 0 (a scalar in a list at the top is at 1)."""
    if isinstance(value, dict):
        return max((1 + max(_depth(k), _depth(v)) for k, v in value.items()), default=0)
    if isinstance(value, list):
        return max((1 + _depth(v) for v in value), default=0)
    return 0


def _spine(depth: int, shape: int) -> object:
    """Data ``depth`` deep, in one of four shapes: lists or mappings, scalars beside the spine or not, the
    last level a scalar or an empty collection (which adds no level)."""
    inner: object = {"end": "x"} if shape % 2 else ["x", 1]
    if shape >= 2:
        inner = {} if shape % 2 else []
        depth += 1
    for level in range(depth - 1):
        inner = {"k": inner, "s": level} if (level + shape) % 2 else [level, inner, "s"]
    return inner


@pytest.mark.parametrize("shape", range(4))
@pytest.mark.parametrize("depth", [1, 2, 5, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
def test_the_nesting_look_before_libyaml_agrees_with_the_depth_of_the_data(depth, shape):
    """``_unusual`` (whether a document goes the slow way for its nesting), with and without the alias
    bookkeeping, against the depth of the data written (counted here, on the Python value)."""
    import json

    import yaml

    from toolchoice.providers.core import yaml_input as loader

    value = _spine(depth, shape)
    for text in (json.dumps(value), yaml.safe_dump(value)):
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        real = _depth(value)
        for limit in (real - 1, real, real + 1):
            assert loader._unusual(root, limit, aliases=False) == (real > limit), (depth, shape, limit)
            assert loader._unusual(root, limit, aliases=True) == (real > limit), (depth, shape, limit)


# ---- malformed YAML and unreadable files ---------------------------------------------------

@pytest.mark.parametrize("text, line, column, message", [
    ("tools:\n  - name: a\n   description: b\n", 3, 4, "invalid YAML: "),
    ("tools: [{name: a}\n", 2, 1, "invalid YAML: expected ',' or ']', but got '<stream end>'"),
    ("tools:\n\t- name: a\n", 2, 1, "invalid YAML: a tab character, where YAML takes only spaces for indentation"),
    ("system: 'unterminated\n", 2, 1, "invalid YAML: found unexpected end of stream"),
    ("tools: []\n---\ntools: []\n", 2, 1, "invalid YAML: expected a single document in the stream, "
                                          "but found another document"),
    ("tools: *nothing\n", 1, 8, "invalid YAML: found undefined alias 'nothing'"),
    ("system: hi\x07there\n", 1, 11, "invalid YAML: control character U+0007 is not allowed"),
])
def test_malformed_yaml(text, line, column, message):
    exc = error(text)
    assert (exc.path, exc.line, exc.column) == ("s.yaml", line, column), exc.one_line()
    assert exc.message.startswith(message), exc.one_line()
    assert exc.hint


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n"])
def test_empty_scenario(text):
    exc = error(text)
    assert (exc.path, exc.line, exc.message) == ("s.yaml", 1, "the scenario is empty")
    # the way out every install has (a pip-installed copy has no configs/ beside the user's file): trial16c
    assert "`toolchoice init FILE`" in exc.hint and "configs/" not in exc.hint


def test_empty_file(tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_bytes(b"")
    with pytest.raises(ToolchoiceError) as info:
        load_scenario(path)
    assert info.value.one_line().startswith(f"{path}:1: the scenario is empty")


def test_binary_file(tmp_path):
    path = tmp_path / "image.yaml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    with pytest.raises(ToolchoiceError) as info:
        load_scenario(path)
    exc = info.value
    assert (exc.path, exc.line, exc.column) == (str(path), 3, 1)  # the first NUL byte
    assert exc.message == "this is a binary file (it holds NUL bytes), not a YAML scenario"


def test_non_utf8_file(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("tools: []\nsystem: café\n".encode("latin-1"))
    with pytest.raises(ToolchoiceError) as info:
        load_scenario(path)
    exc = info.value
    assert (exc.path, exc.line, exc.column) == (str(path), 2, 12)
    assert exc.message == "not UTF-8 text (byte 21 is 0xe9)"
    assert exc.hint == "save the file as UTF-8"


def test_utf16_file(tmp_path):
    path = tmp_path / "utf16.yaml"
    path.write_bytes("tools: []\n".encode("utf-16"))
    with pytest.raises(ToolchoiceError) as info:
        load_scenario(path)
    assert info.value.one_line() == f"{path}:1:1: not UTF-8 text (UTF-16) (save the file as UTF-8)"


def test_a_directory(tmp_path):
    with pytest.raises(ToolchoiceError) as info:
        load_scenario(tmp_path)
    assert info.value.one_line() == f"{tmp_path}: is a directory, not a scenario file (name a .yaml file)"


def test_a_missing_file(tmp_path):
    path = tmp_path / "nope.yaml"
    with pytest.raises(ToolchoiceError) as info:
        load_scenario(path)
    assert info.value.one_line() == f"{path}: no such file (check the path)"


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads every file")
def test_an_unreadable_file(tmp_path):
    path = tmp_path / "secret.yaml"
    path.write_text("tools: []\n")
    path.chmod(0)
    with pytest.raises(ToolchoiceError) as info:
        load_scenario(path)
    assert info.value.one_line() == f"{path}: cannot read: Permission denied"


def test_several_leading_messages_joined_into_one_prompt_are_said():
    """Two leading messages (system, then developer) go out as one system prompt: nothing the user wrote may change
    without a ledger entry, so the join is said; one leading message is not a join."""
    from toolchoice.providers.core import jobs

    two = load_scenario_text("tools: [{name: f, description: F., parameters: {type: object}}]\n"
                             "messages:\n  - {role: system, content: A}\n  - {role: developer, content: B}\n"
                             "  - {role: user, content: x}\n")
    assert two.system == "A\n\nB"
    for t in jobs.render(two, ["openai", "anthropic", "gemini"]):
        joined = [e for e in t.ledger if e.code == "system.messages_joined"]
        assert len(joined) == 1 and joined[0].severity == "info", t.provider
        assert "(system, developer)" in joined[0].message and "developer text goes with the system role" in joined[0].message
    one = load_scenario_text("tools: [{name: f, description: F., parameters: {type: object}}]\n"
                             "messages:\n  - {role: developer, content: B}\n  - {role: user, content: x}\n")
    assert all(e.code != "system.messages_joined" for t in jobs.render(one, ["openai"]) for e in t.ledger)
