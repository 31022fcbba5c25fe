"""Every spelling of tool_choice → the neutral ToolChoice (providers/choice.py).

The provider-native shapes below are copied from the providers' SDK types, cited per case:
[OAI-SDK] openai-python src/openai/types/chat/chat_completion_named_tool_choice_param.py and
chat_completion_allowed_tools_param.py (mode + tools nested under "allowed_tools");
[OAI-RESP-SDK] openai-python src/openai/types/responses/tool_choice_function_param.py and
tool_choice_allowed_param.py (flat: type, mode, tools);
[ANT-SDK] anthropic-sdk-python src/anthropic/types/tool_choice_{tool,any,auto,none}_param.py;
[GG-SDK] googleapis/python-genai types.py FunctionCallingConfig (mode AUTO|ANY|NONE|VALIDATED,
allowed_function_names; REST camelCase allowedFunctionNames);
[BOTO] botocore data/bedrock-runtime/2023-09-30/service-2.json shape ToolChoice (a union of
auto {}, any {}, tool {name});
[HF-HUB] huggingface_hub inference/_generated/types/chat_completion.py
ChatCompletionInputToolChoiceClass (function: {name}, no type key).
"""

from __future__ import annotations

import pytest

from toolchoice.providers.core.choice import did_you_mean, parse_cli_value, parse_tool_choice
from toolchoice.providers.core.model import ToolChoice, ToolchoiceError

TOOLS = ("get_weather", "get_time", "auto")  # a tool literally named "auto" on purpose


def parse(value, tools=TOOLS):
    return parse_tool_choice(value, tools)


def named(name, spelling):
    return ToolChoice("named", name=name, spelling=spelling)


def allowed(names, mode, spelling):
    return ToolChoice("allowed", allowed=tuple(names), allowed_mode=mode, spelling=spelling)


# ---- words --------------------------------------------------------------------------------

@pytest.mark.parametrize("word, mode", [
    ("auto", "auto"),
    ("none", "none"),
    ("required", "required"),
    ("any", "required"),  # Anthropic/Mistral/Bedrock "any" = at least one call = required
    ("AUTO", "auto"),  # Gemini / Cohere upper-case words
    ("NONE", "none"),
    ("REQUIRED", "required"),
    ("ANY", "required"),
])
def test_keywords(word, mode):
    assert parse(word) == ToolChoice(mode, spelling=word)


def test_bare_keyword_wins_over_a_tool_with_that_name():
    # The tool "auto" is declared, yet a bare `auto` still means the keyword.
    assert parse("auto") == ToolChoice("auto", spelling="auto")


def test_surrounding_space_is_ignored():
    assert parse("  required ") == ToolChoice("required", spelling='"  required "')  # the ledger shows the spaces


def test_mixed_case_keyword_unless_a_tool_has_exactly_that_name():
    assert parse("Auto") == ToolChoice("auto", spelling="Auto")
    assert parse("None", ("None",)) == named("None", "None")


def test_true_means_required():
    assert parse(True) == ToolChoice("required", spelling="true")


@pytest.mark.parametrize("value", [None, False])
def test_false_and_null_mean_not_specified(value):
    assert parse(value) is None


def test_tool_name():
    assert parse("get_weather") == named("get_weather", "get_weather")


# ---- neutral objects ----------------------------------------------------------------------

def test_tool_object():
    assert parse({"tool": "get_time"}) == named("get_time", '{"tool":"get_time"}')


def test_tool_object_reaches_a_tool_named_auto():
    assert parse({"tool": "auto"}) == named("auto", '{"tool":"auto"}')


def test_tool_object_for_a_keyword_that_is_not_declared_is_an_error():
    with pytest.raises(ToolchoiceError, match=r"names 'none', which is not a declared tool"):
        parse({"tool": "none"})


@pytest.mark.parametrize("mode", ["auto", "required"])
def test_allowed_subset(mode):
    value = {"allowed": ["get_weather", "get_time"], "mode": mode}
    assert parse(value) == allowed(["get_weather", "get_time"], mode,
                                   f'{{"allowed":["get_weather","get_time"],"mode":"{mode}"}}')


def test_allowed_subset_defaults_to_auto():
    assert parse({"allowed": ["get_time"]}) == allowed(["get_time"], "auto", '{"allowed":["get_time"]}')


# ---- provider-native objects --------------------------------------------------------------

def test_openai_chat_named():
    # [OAI-SDK] ChatCompletionNamedToolChoiceParam: {"type": "function", "function": {"name": ...}}
    value = {"type": "function", "function": {"name": "get_weather"}}
    assert parse(value) == named("get_weather", '{"type":"function","function":{"name":"get_weather"}}')


def test_openai_responses_named_flat():
    # [OAI-RESP-SDK] ToolChoiceFunctionParam: {"type": "function", "name": ...}
    value = {"type": "function", "name": "get_time"}
    assert parse(value) == named("get_time", '{"type":"function","name":"get_time"}')


def test_openai_chat_allowed_tools_nested():
    # [OAI-SDK] ChatCompletionAllowedToolChoiceParam: mode and tools live inside "allowed_tools".
    value = {"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": [
        {"type": "function", "function": {"name": "get_weather"}},
        {"type": "function", "function": {"name": "get_time"}}]}}
    choice = parse(value)
    assert (choice.mode, choice.allowed, choice.allowed_mode) == ("allowed", ("get_weather", "get_time"), "required")


def test_openai_responses_allowed_tools_flat():
    # [OAI-RESP-SDK] ToolChoiceAllowedParam: {"type": "allowed_tools", "mode", "tools": [{"type","name"}]}
    value = {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "get_time"}]}
    choice = parse(value)
    assert (choice.mode, choice.allowed, choice.allowed_mode) == ("allowed", ("get_time",), "auto")


def test_allowed_tools_without_mode_defaults_to_auto():
    value = {"type": "allowed_tools", "tools": [{"type": "function", "name": "get_time"}]}
    assert parse(value).allowed_mode == "auto"


def test_anthropic_tool():
    # [ANT-SDK] ToolChoiceToolParam: {"type": "tool", "name": ...}
    assert parse({"type": "tool", "name": "get_weather"}) == named("get_weather", '{"type":"tool","name":"get_weather"}')


@pytest.mark.parametrize("kind, mode", [("any", "required"), ("auto", "auto"), ("none", "none")])
def test_anthropic_words(kind, mode):
    # [ANT-SDK] ToolChoiceAnyParam / ToolChoiceAutoParam / ToolChoiceNoneParam: {"type": ...}
    assert parse({"type": kind}) == ToolChoice(mode, spelling=f'{{"type":"{kind}"}}')


def test_gemini_any_with_one_name_is_named():
    # [GG-SDK] FunctionCallingConfig: mode ANY + allowedFunctionNames [one] forces that function.
    value = {"mode": "ANY", "allowedFunctionNames": ["get_time"]}
    assert parse(value) == named("get_time", '{"mode":"ANY","allowedFunctionNames":["get_time"]}')


def test_gemini_any_with_several_names_is_required_subset():
    value = {"mode": "ANY", "allowedFunctionNames": ["get_weather", "get_time"]}
    choice = parse(value)
    assert (choice.mode, choice.allowed, choice.allowed_mode) == ("allowed", ("get_weather", "get_time"), "required")


def test_gemini_auto_with_names_is_auto_subset():
    choice = parse({"mode": "AUTO", "allowed_function_names": ["get_time"]})  # snake_case SDK spelling
    assert (choice.mode, choice.allowed, choice.allowed_mode) == ("allowed", ("get_time",), "auto")


@pytest.mark.parametrize("wrapper", ["functionCallingConfig", "function_calling_config"])
def test_gemini_wrapped_in_function_calling_config(wrapper):
    value = {wrapper: {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}}
    assert parse(value).mode == "named" and parse(value).name == "get_weather"


def test_gemini_wrapped_in_tool_config():
    value = {"toolConfig": {"functionCallingConfig": {"mode": "NONE"}}}
    assert parse(value) == ToolChoice("none", spelling='{"toolConfig":{"functionCallingConfig":{"mode":"NONE"}}}')


@pytest.mark.parametrize("mode, neutral", [("AUTO", "auto"), ("ANY", "required"), ("NONE", "none")])
def test_gemini_modes_alone(mode, neutral):
    assert parse({"mode": mode}).mode == neutral


@pytest.mark.parametrize("value, mode", [({"auto": {}}, "auto"), ({"any": {}}, "required")])
def test_bedrock_words(value, mode):
    # [BOTO] ToolChoice union members AutoToolChoice / AnyToolChoice are empty structures.
    assert parse(value).mode == mode


def test_bedrock_tool():
    # [BOTO] SpecificToolChoice: {"tool": {"name": ...}}
    assert parse({"tool": {"name": "get_time"}}) == named("get_time", '{"tool":{"name":"get_time"}}')


def test_huggingface_function():
    # [HF-HUB] ChatCompletionInputToolChoiceClass: {"function": {"name": ...}} with no "type".
    assert parse({"function": {"name": "get_weather"}}) == named("get_weather", '{"function":{"name":"get_weather"}}')


# ---- errors -------------------------------------------------------------------------------

def error(value, tools=TOOLS) -> ToolchoiceError:
    with pytest.raises(ToolchoiceError) as info:
        parse_tool_choice(value, tools)
    return info.value


def test_unknown_tool_lists_declared_tools_and_suggests_a_near_name():
    exc = error("get_wether")
    assert exc.message == "tool_choice names 'get_wether', which is not a declared tool (declared: get_weather, get_time, auto)"
    assert exc.hint == "did you mean get_weather?"


def test_unknown_tool_with_nothing_near():
    exc = error("zzz")
    assert "declared: get_weather, get_time, auto" in exc.message
    assert exc.hint == "declare it under tools:, or use auto, none, required or {tool: NAME}"


def test_unknown_tool_when_no_tools_are_declared():
    assert "(declared: none)" in error("get_weather", ()).message


@pytest.mark.parametrize("value", [
    {"type": "function", "function": {"name": "nope"}},
    {"type": "function", "name": "nope"},
    {"type": "tool", "name": "nope"},
    {"tool": {"name": "nope"}},
    {"function": {"name": "nope"}},
    {"allowed": ["get_time", "nope"]},
    {"mode": "ANY", "allowedFunctionNames": ["nope"]},
    {"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "nope"}]},
])
def test_every_named_form_checks_the_name(value):
    assert "names 'nope', which is not a declared tool" in error(value).message


@pytest.mark.parametrize("value", [
    {"type": "tool", "name": "get_time", "disable_parallel_tool_use": True},
    {"type": "auto", "disable_parallel_tool_use": False},
    {"type": "any", "disable_parallel_tool_use": True},
])
def test_disable_parallel_tool_use_inside_is_refused(value):
    exc = error(value)
    assert exc.message == "disable_parallel_tool_use inside tool_choice is Anthropic's wire form"
    assert exc.hint == "write parallel_tool_calls: false at the top level instead"


@pytest.mark.parametrize("value", [{"mode": "VALIDATED"}, {"functionCallingConfig": {"mode": "VALIDATED"}},
                                   {"mode": "VALIDATED", "allowedFunctionNames": ["get_time"]}])
def test_gemini_validated_has_no_neutral_equivalent(value):
    exc = error(value)
    assert exc.message == "Gemini mode VALIDATED has no neutral equivalent"
    assert "strict: true" in exc.hint


@pytest.mark.parametrize("value, message", [
    ({}, 'tool_choice object {} is not a form toolchoice knows'),
    ({"type": "required"}, 'tool_choice object {"type":"required"} is not a form toolchoice knows'),
    ({"none": {}}, 'tool_choice object {"none":{}} is not a form toolchoice knows'),  # Bedrock has no none
    ({"auto": {"x": 1}}, 'tool_choice object {"auto":{"x":1}} is not a form toolchoice knows'),
    ({"function": "get_time"}, 'tool_choice object {"function":"get_time"} is not a form toolchoice knows'),
    ({"type": "function", "function": {"name": "get_time", "x": 1}},
     'tool_choice object {"type":"function","function":{"name":"get_time","x":1}} is not a form toolchoice knows'),
    ({"type": "function", "function": {"name": "get_time"}, "name": "get_time"},
     'tool_choice object {"type":"function","function":{"name":"get_time"},"name":"get_time"} is not a form toolchoice knows'),
    ({"tool": ["get_time"]}, 'tool_choice object {"tool":["get_time"]} is not a form toolchoice knows'),
    ({"type": "tool"}, 'tool_choice {"type":"tool"} names no tool'),
    ({"allowed": []}, "the allowed list must be a non-empty list of tool names"),
    ({"allowed": "get_time"}, "the allowed list must be a non-empty list of tool names"),
    ({"allowed": ["get_time", "get_time"]}, "the allowed list names 'get_time' twice"),
    ({"allowed": ["get_time"], "mode": "none"}, 'allowed mode must be auto or required, not "none"'),
    ({"allowed": [1]}, "tool_choice names a tool with 1, which is not a tool name"),
    ({"mode": "sometimes"}, 'Gemini mode must be AUTO, ANY or NONE, not "sometimes"'),
    ({"mode": "NONE", "allowedFunctionNames": ["get_time"]}, "allowedFunctionNames makes no sense with mode NONE"),
    ({"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": []}},
     "the allowed list must be a non-empty list of tool names"),
    ({"type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "get_time"}], "junk": 1},
     'tool_choice object {"type":"allowed_tools","mode":"auto","tools":[{"type":"function","name":"get_time"}],'
     '"junk":1} has unknown keys: junk'),
    ({"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": [], "x": 1}},
     "has unknown keys: x"),
    ("", 'tool_choice names a tool with "", which is not a tool name'),
    (3, "tool_choice must be a word, a tool name or an object, not int 3"),
    (["get_time"], 'tool_choice must be a word, a tool name or an object, not list ["get_time"]'),
])
def test_malformed_values(value, message):
    assert message in error(value).message


def test_fail_callback_builds_the_error():
    """The loader passes its own fail() so errors carry the file and line; it gets message and hint."""
    seen = []

    def fail(message, hint=None):
        seen.append((message, hint))
        return ToolchoiceError("wrapped: " + message, path="x.yaml", line=7)

    with pytest.raises(ToolchoiceError) as info:
        parse_tool_choice("get_wether", TOOLS, fail)
    assert info.value.one_line().startswith("x.yaml:7: wrapped: tool_choice names 'get_wether'")
    assert seen[0][1] == "did you mean get_weather?"


def test_did_you_mean():
    assert did_you_mean("tool_chioce", ("tools", "tool_choice")) == "did you mean tool_choice?"
    assert did_you_mean("xyz", ("tools", "tool_choice")) is None


def test_to_json_round_trips_through_the_parser():
    for value in ("auto", "none", "required", {"tool": "get_time"}, {"allowed": ["get_time"], "mode": "required"}):
        choice = parse(value)
        assert parse(choice.to_json()).to_json() == choice.to_json()


def test_forces_call():
    assert parse("required").forces_call and parse("get_time").forces_call
    assert parse({"allowed": ["get_time"], "mode": "required"}).forces_call
    assert not parse({"allowed": ["get_time"]}).forces_call
    assert not parse("auto").forces_call and not parse("none").forces_call


# ---- --tool-choice VALUE -------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("{tool: get_weather}", {"tool": "get_weather"}),
    ('{"type":"function","function":{"name":"get_time"}}', {"type": "function", "function": {"name": "get_time"}}),
    ("{allowed: [a, b], mode: required}", {"allowed": ["a", "b"], "mode": "required"}),
    ("[a, b]", ["a", "b"]),
    ("true", True), ("True", True), ("false", False), ("FALSE", False),
    ("null", None), ("Null", None), ("~", None),
    ("no", "no"), ("off", "off"), ("yes", "yes"), ("on", "on"),  # YAML 1.1 booleans stay words here
    ("auto", "auto"), ("  required  ", "required"), ("get_weather", "get_weather"),
    ("1", "1"),  # a plain word is never a number
])
def test_parse_cli_value(text, value):
    assert parse_cli_value(text) == value


def test_cli_words_go_through_the_same_parser():
    assert parse(parse_cli_value("no"), ("no",)) == named("no", "no")
    assert parse(parse_cli_value("{tool: auto}")) == named("auto", '{"tool":"auto"}')
    assert parse(parse_cli_value("false")) is None


_QUOTE = "quote it for the shell, e.g. --tool-choice '{tool: get_weather}'"
_CLOSE = "close every { and [ it opens, e.g. --tool-choice '{tool: get_weather}'"


@pytest.mark.parametrize("text, reason, hint", [
    # quoted whole (it holds a space the shell would have split at): a bracket is missing, not quotes
    ("{tool: get_weather", "expected ',' or '}', but got '<stream end>'", _CLOSE),
    ("[a, b", "expected ',' or ']', but got '<stream end>'", _CLOSE),
    # what the shell leaves of an unquoted --tool-choice {tool: get_weather}: the first word
    ("{tool:", "expected the node content, but found '<stream end>'", _QUOTE),
    ("[a", "expected ',' or ']', but got '<stream end>'", _QUOTE),
    ("{a: !!python/object/apply:os.system [echo]}", "could not determine a constructor for the tag", _QUOTE),
    pytest.param("[" * 3000, "it nests too deeply", _QUOTE, id="deep"),
])
def test_parse_cli_value_bad_yaml(text, reason, hint):
    with pytest.raises(ToolchoiceError) as info:
        parse_cli_value(text)
    exc = info.value
    assert exc.message.startswith("--tool-choice '")
    assert "is not valid YAML/JSON: " + reason in exc.message
    assert exc.hint == hint
    assert len(exc.one_line()) < 300 and "\n" not in exc.one_line()
