"""The effort and thinking words toolchoice sends, held to the official SDKs' types (fifth fact-audit pass,
2026-11-27).

A thinking effort goes out as each provider's own word: OpenAI's ``reasoning_effort`` / Responses'
``reasoning.effort``, Claude's ``output_config.effort`` (Messages, and Bedrock's additionalModelRequestFields),
Gemini's ``thinkingConfig.thinkingLevel``. Until this pass no test held those vocabularies to the SDKs, so an SDK
release adding or dropping a level went unseen. The truth is the SDK files, read as text (no SDK import):
- openai 3.57.0 types/shared/reasoning_effort.py ``ReasoningEffort``;
- anthropic 2.14.0 types/output_config_param.py ``effort`` and types/thinking_config_param.py's union members;
- google-genai 3.6.1 types.py ``class ThinkingLevel``;
- botocore 1.44.8 bedrock-runtime ``OutputConfig.effort`` ("Supported values are low, medium, high, xhigh, and max").
"""

from __future__ import annotations

import importlib
import re
from importlib.util import find_spec
from pathlib import Path

import pytest

from sdk_types import missing
from toolchoice.providers import claude_thinking, openai_responses
from toolchoice.providers.core import scenario


def _sdk_file(package: str, relative: str) -> str:
    spec = find_spec(package)
    assert spec is not None and spec.submodule_search_locations, package
    return (Path(list(spec.submodule_search_locations)[0]) / relative).read_text(encoding="utf-8")


def _literal_after(source: str, anchor: str) -> tuple[str, ...]:
    """The string literals of the first Literal[...] after ``anchor``."""
    start = source.index("Literal[", source.index(anchor))
    return tuple(re.findall(r'"([^"]+)"', source[start:source.index("]", start)]))


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_openai_effort_words_are_the_sdks() -> None:
    words = _literal_after(_sdk_file("openai", "types/shared/reasoning_effort.py"), "ReasoningEffort: TypeAlias")
    assert words == ("none", "minimal", "low", "medium", "high", "xhigh", "max")  # as read 2026-11-27
    assert openai_responses._EFFORTS == words
    assert scenario.EFFORTS == words  # the neutral efforts a scenario may write are OpenAI's, the widest set


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_claude_effort_words_are_the_sdks() -> None:
    words = _literal_after(_sdk_file("anthropic", "types/output_config_param.py"), "effort:")
    assert claude_thinking._EFFORTS == words == ("low", "medium", "high", "xhigh", "max")


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_claude_thinking_types_are_the_sdks_and_each_renders() -> None:
    """ThinkingConfigParam's members, each one's ``type`` literal: the forms toolchoice writes are among them."""
    union = _sdk_file("anthropic", "types/thinking_config_param.py")
    members = re.findall(r"from \.(thinking_config_\w+_param) import", union)
    types = {_literal_after(_sdk_file("anthropic", f"types/{m}.py"), "type: Required")[0] for m in members}
    assert types == {"enabled", "disabled", "adaptive", "between_tools"}
    from toolchoice.providers import load_scenario_text, translate

    cases = {"claude-sonnet-4-5": [True, False, {"budget": 2048}], "claude-opus-4-7": ["adaptive"],
             "claude-sonnet-5-5": [False]}
    sent = set()
    for model, settings in cases.items():
        for thinking in settings:
            text = ("tools:\n  - name: x\ntool_choice: auto\nmessages: [{role: user, content: hi}]\n"
                    f"providers:\n  anthropic: {{model: {model}, max_tokens: 8192, thinking: {thinking!r}}}\n")
            body = translate("anthropic", load_scenario_text(text.replace("'", '"'), "t.yaml")).request.body
            if "thinking" in body:
                sent.add(body["thinking"]["type"])
    assert sent and sent <= types, sent


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_a_thinking_type_that_is_not_a_string_is_outside_every_sdk_member() -> None:
    """What the SDK types allow of ``thinking.type`` (twelfth fact-audit pass): each ThinkingConfigParam member's tag
    is ``Required[Literal["<one word>"]]`` and nothing else, so a number, boolean or object tag matches no member.
    The mock refuses such a tag as a field of the wrong kind ('thinking.type' read as a string, anthropic_mock._KINDS);
    the API's own words for it are not recorded, only for a string that names no form (fact-audit.md)."""
    union = _sdk_file("anthropic", "types/thinking_config_param.py")
    members = re.findall(r"from \.(thinking_config_\w+_param) import", union)
    assert len(members) == 4
    for member in members:
        source = _sdk_file("anthropic", f"types/{member}.py")
        [tag] = re.findall(r"^    type: (.+)$", source, re.M)
        assert re.fullmatch(r'Required\[Literal\["[a-z_]+"\]\]', tag), (member, tag)
    from toolchoice.providers import anthropic_mock

    assert anthropic_mock._KINDS[("thinking", "type")] == "string"


@pytest.mark.skipif(missing("google.genai"), reason="needs google-genai")
def test_gemini_thinking_levels_are_the_sdks() -> None:
    source = _sdk_file("google.genai", "types.py")
    block = source[source.index("class ThinkingLevel("):]
    block = block[:block.index("\nclass ", 1)]
    levels = set(re.findall(r"^  ([A-Z_]+) = '", block, re.M)) - {"THINKING_LEVEL_UNSPECIFIED"}
    assert levels == {"MINIMAL", "LOW", "MEDIUM", "HIGH", "XHIGH"}
    gemini_translate = importlib.import_module("toolchoice.providers.gemini.translate")
    assert set(gemini_translate._LEVELS.values()) == levels


@pytest.mark.skipif(missing("botocore"), reason="needs botocore")
def test_bedrock_converse_effort_words_are_claudes() -> None:
    """botocore's Converse OutputConfig.effort names the same five levels toolchoice sends Claude on Bedrock (through
    additionalModelRequestFields.output_config, Messages' own field)."""
    from sdk_types import converse_input_shape

    doc = converse_input_shape().members["outputConfig"].members["effort"].documentation
    listed = re.search(r"Supported values are (.*?)\.</p>", doc)
    assert listed is not None, doc
    words = tuple(re.findall(r"<code>(\w+)</code>", listed.group(1)))
    assert words == claude_thinking._EFFORTS
