"""Every capability row's claim about the wire, checked against what its translator renders.

`toolchoice providers`, the support matrices (README.md, docs/providers.md) and the translators all read the rows in
providers/core/capabilities.py: a row's ``wire`` is the value the provider gets for a neutral choice,
written as a template: ``N`` the tool's name, ``M`` the allowed mode, a list whose one item holds ``N``
that item once per allowed tool, ``"A"|"B"`` either value. The translators fill the template in
(``translation.choice_value``), so the second half of this file changes rows and checks that the bytes
follow; whether a row is TRUE is checked by each provider's own tests, whose expected bodies come from
the providers' SDK types and docs. For every usable (native or renamed) choice the template must match
the tool_choice actually put in the body; a row whose wire is a note (no tool_choice field) must render
no tool_choice at all."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from toolchoice.providers import RenderOptions, load_scenario_text, translate
from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.wire_template import WireTemplateError, wire_form, wire_value
from toolchoice.providers.core.model import ToolChoice
from toolchoice.providers.core.translation import choice_value, choice_with, mapped, start

TOOLS = """
tools:
  - name: get_time
    parameters: {type: object, properties: {tz: {type: string}}}
  - name: get_date
    parameters: {type: object, properties: {}}
messages: [{role: user, content: What time is it?}]
"""
CHOICES = {"auto": "auto", "none": "none", "required": "required", "any": "any", "named": "get_time",
           "allowed": "{allowed: [get_time], mode: required}"}
CASES = [(p, f) for p, cap in CAPABILITIES.items() for f in CHOICES if cap.feature(f).usable]


def template_regex(wire: str) -> re.Pattern[str]:
    """The row's wire template as a regex over compact JSON (json.dumps with no spaces), read here
    independently of the code; the choices rendered name one tool, so a list holding N has one item."""
    pattern = re.escape(wire)
    pattern = re.sub(r'("[^"]*")\\\|("[^"]*")', r"(?:\1|\2)", pattern)
    pattern = re.sub(r'(?<![\w"])N(?![\w"])', '"get_time"', pattern)
    pattern = re.sub(r'(?<![\w"])M(?![\w"])', '"required"', pattern)
    return re.compile(pattern)


def test_the_template_reader_reads_the_forms_the_table_uses():
    assert template_regex('{"type":"tool","name":N}').fullmatch('{"type":"tool","name":"get_time"}')
    assert not template_regex('{"type":"tool","name":N}').fullmatch('{"type":"tool","name":"other"}')
    assert template_regex('{"mode":"ANY"|"VALIDATED","allowedFunctionNames":[N]}').fullmatch(
        '{"mode":"VALIDATED","allowedFunctionNames":["get_time"]}')
    assert template_regex('{"mode":M,"tools":[{"type":"function","name":N}]}').fullmatch(
        '{"mode":"required","tools":[{"type":"function","name":"get_time"}]}')
    assert template_regex('"NONE"').fullmatch('"NONE"') and not template_regex('"NONE"').fullmatch('"none"')


def test_every_usable_choice_is_a_whole_value_or_no_field():
    """A translator sends the row's template: it must be complete (no "..." for people to fill in)."""
    for provider, feature in CASES:
        wire = CAPABILITIES[provider].feature(feature).wire
        assert "..." not in wire, (provider, feature, wire)
        assert wire.startswith(("{", '"')) or (wire.startswith("(") and wire.endswith(")")), (provider, feature, wire)


@pytest.mark.parametrize("provider, feature", CASES, ids=[f"{p}-{f}" for p, f in CASES])
def test_the_rows_wire_is_what_the_translator_sends(provider: str, feature: str) -> None:
    wire = CAPABILITIES[provider].feature(feature).wire
    scenario = load_scenario_text(TOOLS + f"tool_choice: {CHOICES[feature]}\n", "claims.yaml")
    translation = translate(provider, scenario)
    assert translation.request is not None, translation.ledger
    sent = translation.effective_tool_choice
    if not wire.startswith(("{", '"')):  # a note such as "(default; no field)": nothing is sent
        assert sent is None, (wire, sent)
        return
    shown = json.dumps(sent, separators=(",", ":"), ensure_ascii=False)
    assert template_regex(wire).fullmatch(shown), f"row says {wire}, the body has {shown}"


# ---- the row is the one source: change it and the bytes change -------------------------------------------

def test_wire_value_fills_the_template_in():
    assert wire_value('"auto"') == "auto"
    assert wire_value('{"type":"tool","name":N}', ("get_time",)) == {"type": "tool", "name": "get_time"}
    allowed = '{"type":"allowed_tools","mode":M,"tools":[{"type":"function","name":N}]}'
    assert wire_value(allowed, ("a", "b"), "required") == {"type": "allowed_tools", "mode": "required", "tools": [
        {"type": "function", "name": "a"}, {"type": "function", "name": "b"}]}
    assert wire_value(allowed, ("a", "b"), "auto", lambda n: {"type": "custom", "name": n} if n == "b" else None) == {
        "type": "allowed_tools", "mode": "auto", "tools": [{"type": "function", "name": "a"}, {"type": "custom", "name": "b"}]}
    gemini = '{"mode":"ANY"|"VALIDATED","allowedFunctionNames":[N]}'
    assert wire_value(gemini, ("a", "b"), "required") == {"mode": "ANY", "allowedFunctionNames": ["a", "b"]}
    assert wire_value(gemini, ("a",), "auto") == {"mode": "VALIDATED", "allowedFunctionNames": ["a"]}
    assert wire_value('{"any":{}}') == {"any": {}} and wire_value('"a|b"') == "a|b"
    assert wire_value("(default; no field)") is None
    first = wire_value('{"type":"auto"}')
    first["disable_parallel_tool_use"] = True  # a translator may add to what it gets
    assert wire_value('{"type":"auto"}') == {"type": "auto"}
    for note in ("only the allowed tools are sent", '{"name":X}', '"a"|"b"|"c"'):
        with pytest.raises(WireTemplateError):
            wire_value(note)


def compact_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# Tool names as the loader lets them through and as JSON must escape them (quotes, backslashes, control
# characters, non-ASCII), so the text builders' quoting is checked against json.dumps, not against itself.
NAMES = [("get_time",), ("get_time", "get_date"), ("a.b-c:d",), ("wetter_für_heute", "Ω"), ('say "hi"', "back\\slash"),
         ("tab\tand\nline", "\u2028"), ("12", "_"), ("x",) * 3]
TEMPLATES = sorted({cap.feature(f).wire for cap in CAPABILITIES.values() for f in ("auto", "none", "required", "named",
                                                                                    "allowed", "strict")
                    if cap.feature(f).wire.startswith(("{", "["))} | {
    '{"type":"custom","custom":{"name":N}}', '{"type":"custom","name":N}',  # the translators' custom forms
    '[N]', '{"a":[1,2.5,true,null,"x"],"b":{"c":{}},"n":N,"m":M}', '{"mode":"ANY"|"VALIDATED","names":[N],"k":"N"}',
    '{"list":[{"t":"f","f":{"name":N,"mode":M}}]}', '{"é":"ü","q":"\\"","e":{}}'})


@pytest.mark.parametrize("wire", TEMPLATES)
def test_a_templates_text_is_its_values_compact_json(wire: str) -> None:
    """The ledger quotes a built choice from text the template gives (no encoding per request): that text must
    be what json.dumps writes for the value, for every row's template and names JSON has to escape."""
    form = wire_form(wire)
    assert form.text is not None and form.word is None
    for names in NAMES:
        for mode in ("auto", "required"):
            value = form.build(names[0], names, mode, None)
            assert form.text(names[0], names, mode) == compact_json(value), (wire, names, mode)


@pytest.mark.parametrize("choice", ["auto", "none", "required", "any", "get_time", "'wetter_für_heute'",
                                    "{allowed: [get_time], mode: required}",
                                    "{allowed: [get_time, wetter_für_heute], mode: auto}"])
@pytest.mark.parametrize("parallel", ["", "parallel_tool_calls: false\n", "parallel_tool_calls: true\n"])
def test_the_mapped_line_quotes_what_is_sent(choice: str, parallel: str) -> None:
    """``tool_choice.mapped`` says "tool_choice REQUESTED → SENT": REQUESTED is the neutral choice and SENT the
    body's tool_choice, a word as it is and anything else as compact JSON, for every provider (Anthropic adds
    its parallel flag to the row's value: the line must show it). Refused requests (a name a provider
    rejects) still say what the body would hold."""
    tools = TOOLS.replace("messages:", "  - name: wetter_für_heute\n    parameters: {type: object}\nmessages:")
    scenario = load_scenario_text(tools + f"tool_choice: {choice}\n" + parallel, "claims.yaml")
    assert scenario.tool_choice is not None
    requested = scenario.tool_choice.to_json()
    quoted = requested if isinstance(requested, str) else compact_json(requested)
    checked = 0
    for provider in CAPABILITIES:
        translation = translate(provider, scenario)
        lines = [e.message for e in translation.ledger if e.code == "tool_choice.mapped"]
        sent = translation.effective_tool_choice
        if sent is None or not lines:  # sent as no field: the line names the emulation instead
            continue
        shown = sent if isinstance(sent, str) else compact_json(sent)
        assert lines[-1] == f"tool_choice {quoted} → {shown}" or lines[-1].startswith(f"tool_choice {quoted} → {shown} ("), \
            (provider, lines, shown)
        checked += 1
    assert checked >= 10, checked


@pytest.mark.parametrize("names", NAMES)
def test_a_requested_choice_is_quoted_as_its_json(names: tuple[str, ...]) -> None:
    """Ledger lines quote the neutral choice (``ToolChoice.quoted``, written without encoding): a word as it is,
    an object as json.dumps writes its ``to_json``."""
    choices = [ToolChoice("named", name=names[0]), ToolChoice("allowed", allowed=names, allowed_mode="required"),
               ToolChoice("allowed", allowed=names), ToolChoice("auto"), ToolChoice("none"), ToolChoice("required")]
    for choice in choices:
        value = choice.to_json()
        assert choice.quoted() == (value if isinstance(value, str) else compact_json(value))


def test_mapped_quotes_the_object_it_is_given():
    """The template's text stands for the object choice_value built, not for another one (a copy with a field
    more, which ``choice_with`` would have kept in step)."""
    scenario = load_scenario_text(TOOLS + "tool_choice: get_time\n", "claims.yaml")
    ctx = start("openai", scenario, RenderOptions())
    built = choice_value(ctx)
    other = {**built, "extra": True}
    mapped(ctx, other)
    mapped(ctx, built)
    added = choice_with(ctx, built, "flag", False)
    mapped(ctx, added)
    assert [e.message for e in ctx.ledger.entries if e.code == "tool_choice.mapped"] == [
        f'tool_choice {{"tool":"get_time"}} → {compact_json(value)}' for value in (other, built, added)]
    assert list(added) == ["type", "function", "flag"] and "flag" not in built


def sent(provider: str, choice: str, path: tuple[str, ...] = ("tool_choice",), extra: str = "") -> Any:
    scenario = load_scenario_text(TOOLS + f"tool_choice: {choice}\n" + extra, "claims.yaml")
    translation = translate(provider, scenario)
    assert translation.request is not None, translation.ledger
    value: Any = translation.request.body
    for key in path:
        if key not in value:
            return ABSENT
        value = value[key]
    return value


ABSENT = "(absent)"
GEMINI = ("toolConfig", "functionCallingConfig")
BEDROCK = ("toolConfig", "toolChoice")
# (module, provider, feature, the row's new wire, choice, where the value is, what the body must then hold)
CHANGED_ROWS = [
    ("openai_chat", "openai", "named", '{"function":{"name":N}}', "get_time", ("tool_choice",),
     {"function": {"name": "get_time"}}),
    ("openai_chat", "huggingface", "named", '{"type":"function","function":{"name":N}}', "get_time", ("tool_choice",),
     {"type": "function", "function": {"name": "get_time"}}),
    ("openai_chat", "mistral", "required", '"required"', "required", ("tool_choice",), "required"),
    ("openai_chat", "openai", "allowed", '{"type":"allowed_tools","mode":M,"tools":[{"name":N}]}',
     "{allowed: [get_time, get_date], mode: required}", ("tool_choice",),
     {"type": "allowed_tools", "mode": "required", "tools": [{"name": "get_time"}, {"name": "get_date"}]}),
    ("openai_chat", "groq", "auto", '"AUTO"', "auto", ("tool_choice",), "AUTO"),
    ("openai_responses", "openai-responses", "named", '{"type":"function","function":{"name":N}}', "get_time",
     ("tool_choice",), {"type": "function", "function": {"name": "get_time"}}),
    ("openai_responses", "openai-responses", "allowed", '{"type":"allowed_tools","mode":M,"tools":[N]}',
     "{allowed: [get_time], mode: auto}", ("tool_choice",), {"type": "allowed_tools", "mode": "auto", "tools": ["get_time"]}),
    ("anthropic", "anthropic", "required", '{"type":"required"}', "required", ("tool_choice",), {"type": "required"}),
    ("anthropic", "anthropic", "named", '{"type":"function","function":{"name":N}}', "get_time", ("tool_choice",),
     {"type": "function", "function": {"name": "get_time"}}),
    ("gemini", "gemini", "allowed", '{"mode":"ANY"|"AUTO","allowedFunctionNames":[N]}',
     "{allowed: [get_time, get_date], mode: auto}", GEMINI, {"mode": "AUTO", "allowedFunctionNames": ["get_time", "get_date"]}),
    ("gemini", "gemini", "named", '{"mode":"ANY","allowedFunctionNames":[N],"x":1}', "get_time", GEMINI,
     {"mode": "ANY", "allowedFunctionNames": ["get_time"], "x": 1}),
    ("bedrock", "bedrock", "named", '{"tool":{"toolName":N}}', "get_time", BEDROCK, {"tool": {"toolName": "get_time"}}),
    ("bedrock", "bedrock", "required", '{"required":{}}', "required", BEDROCK, {"required": {}}),
    ("cohere", "cohere", "none", '"NONE_X"', "none", ("tool_choice",), "NONE_X"),
    ("cohere", "cohere", "auto", '"AUTO"', "auto", ("tool_choice",), "AUTO"),
    ("ollama", "ollama", "auto", '"auto"', "auto", ("tool_choice",), "auto"),
]


@pytest.mark.parametrize("module, provider, feature, wire, choice, path, expected", CHANGED_ROWS,
                         ids=[f"{r[1]}-{r[2]}" for r in CHANGED_ROWS])
def test_changing_a_row_changes_the_bytes(monkeypatch, module, provider, feature, wire, choice, path, expected):
    cap = CAPABILITIES[provider]
    assert cap.module == module
    before = sent(provider, choice, path)
    assert before != expected
    monkeypatch.setitem(CAPABILITIES, provider, cap.with_feature(feature, cap.feature(feature)._replace(wire=wire)))
    assert sent(provider, choice, path) == expected


def test_every_module_is_held_to_its_rows():
    assert {r[0] for r in CHANGED_ROWS} == {cap.module for cap in CAPABILITIES.values()}


def test_gemini_strict_under_auto_sends_the_strict_rows_value(monkeypatch):
    strict = "  - name: get_day\n    strict: true\n    parameters: {type: object, properties: {}, additionalProperties: false}\n"
    scenario = TOOLS.replace("messages:", strict + "messages:")
    cap = CAPABILITIES["gemini"]
    monkeypatch.setitem(CAPABILITIES, "gemini", cap.with_feature("strict", cap.strict._replace(wire='{"mode":"STRICT"}')))
    body = translate("gemini", load_scenario_text(scenario + "tool_choice: auto\n", "claims.yaml")).request.body
    assert body["toolConfig"] == {"functionCallingConfig": {"mode": "STRICT"}}


def test_anthropic_adds_its_parallel_flag_to_the_rows_value(monkeypatch):
    """disable_parallel_tool_use lives inside tool_choice (anthropic types/tool_choice_*_param.py): the
    translator adds it to whatever the row gives."""
    cap = CAPABILITIES["anthropic"]
    monkeypatch.setitem(CAPABILITIES, "anthropic", cap.with_feature("auto", cap.auto._replace(wire='{"type":"AUTO"}')))
    assert sent("anthropic", "auto", extra="parallel_tool_calls: false\n") == {"type": "AUTO",
                                                                               "disable_parallel_tool_use": True}
    unset = load_scenario_text(TOOLS + "parallel_tool_calls: false\n", "claims.yaml")
    assert translate("anthropic", unset).request.body["tool_choice"] == {"type": "AUTO", "disable_parallel_tool_use": True}


def test_a_row_claiming_a_choice_without_a_value_refuses(monkeypatch):
    cap = CAPABILITIES["openai"]
    monkeypatch.setitem(CAPABILITIES, "openai", cap.with_feature("named", cap.named._replace(wire="only that tool")))
    translation = translate("openai", load_scenario_text(TOOLS + "tool_choice: get_time\n", "claims.yaml"))
    assert translation.refused
    assert [e.code for e in translation.ledger if e.severity == "error"] == ["tool_choice.unsupported"]
