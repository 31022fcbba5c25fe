"""Every capability row's claim about the wire, checked against what its translator renders.

`toolchoice providers`, the README's support matrix and the translators all read the rows in
providers/core/capabilities.py. A row's ``wire`` is the value the provider gets for a neutral choice,
written as a template: ``N`` the tool's name, ``M`` the allowed mode, ``[...]`` any list, ``,...`` any
further keys, ``"A"|"B"`` either value. For every usable (native or renamed) choice, the template must
match the tool_choice the translator actually put in the body, so the table and the bytes cannot
drift apart; a row whose wire is a note (no tool_choice field) must render no tool_choice at all."""

from __future__ import annotations

import json
import re

import pytest

from toolchoice.providers import load_scenario_text, translate
from toolchoice.providers.core.capabilities import CAPABILITIES

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
    """The row's wire template as a regex over compact JSON (json.dumps with no spaces)."""
    pattern = re.escape(wire)
    pattern = pattern.replace(re.escape("[...]"), r"\[.*\]").replace(re.escape(",..."), r",.*")
    pattern = re.sub(r'("[^"]*")\\\|("[^"]*")', r"(?:\1|\2)", pattern)
    pattern = re.sub(r'(?<![\w"])N(?![\w"])', '"get_time"', pattern)
    pattern = re.sub(r'(?<![\w"])M(?![\w"])', '"required"', pattern)
    return re.compile(pattern)


def test_the_template_reader_reads_the_forms_the_table_uses():
    assert template_regex('{"type":"tool","name":N}').fullmatch('{"type":"tool","name":"get_time"}')
    assert not template_regex('{"type":"tool","name":N}').fullmatch('{"type":"tool","name":"other"}')
    assert template_regex('{"mode":"ANY"|"VALIDATED","allowedFunctionNames":[...]}').fullmatch(
        '{"mode":"VALIDATED","allowedFunctionNames":["a","b"]}')
    assert template_regex('"NONE"').fullmatch('"NONE"') and not template_regex('"NONE"').fullmatch('"none"')


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
