"""`--dialect langchain` held to what LangChain's own code sent or raised, recorded offline with the
partner packages (tests/data/langchain/, SOURCES.md there; recorder: tests/dialect/record_langchain.py).
Every recorded case (11 wrappers and two more Bedrock model ids, 9 tool_choice spellings, 1 and 2
tools, parallel_tool_calls unset/false/true) is rendered by toolchoice and compared field by field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolchoice.providers.core.choice import parse_tool_choice
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario
from toolchoice.providers.langchain_dialect import VERSIONS, WRAPPERS, apply

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests/data/langchain"
SCENARIO = ROOT / "tests/dialect/weather.yaml"
RECORDINGS = {path.stem: json.loads(path.read_text()) for path in sorted(DATA.glob("*.json"))}
# the body fields each wire family carries tools, tool_choice and parallel_tool_calls in
FIELDS = {"openai": ("tools", "tool_choice", "parallel_tool_calls"), "anthropic": ("tools", "tool_choice"),
          "gemini": ("tools", "toolConfig"), "bedrock": ("toolConfig",), "ollama": ("tools", "tool_choice")}


def cases() -> list[Any]:
    out = []
    for stem, recording in RECORDINGS.items():
        for case in recording["cases"]:
            label = f"{stem}-{case['tools']}tools-{json.dumps(case['tool_choice'])}-parallel={case['parallel_tool_calls']}"
            out.append(pytest.param(stem, case, id=label))
    return out


def render(provider: str, model: str, case: dict[str, Any]):
    base = load_scenario(SCENARIO)
    scenario = base._replace(tools=base.tools[:case["tools"]], parallel_tool_calls=case["parallel_tool_calls"])
    names = scenario.tool_names
    scenario = scenario._replace(tool_choice=parse_tool_choice(case["tool_choice"], names))
    api = translate(provider, scenario, RenderOptions(model=model))
    return apply(api, scenario)


@pytest.mark.parametrize("stem, case", cases())
def test_dialect_matches_what_langchain_sent_or_raised(stem: str, case: dict[str, Any]) -> None:
    recording = RECORDINGS[stem]
    view = render(recording["provider"], recording["model"], case)
    codes = [e.code for e in view.translation.ledger]
    if case["outcome"] == "refused":
        assert view.translation.request is None
        refusals = [e.message for e in view.translation.ledger if e.code == "dialect.refused"]
        assert len(refusals) == 1
        assert refusals[0].endswith(" ".join(case["error"].split()))
        assert f"raises in {case['step']}" in refusals[0]
        return
    assert case["outcome"] == "sent"
    assert "dialect.refused" not in codes
    body = view.translation.request.body
    family = {"openai-responses": "openai", "groq": "openai", "mistral": "openai", "fireworks": "openai",
              "deepseek": "openai", "huggingface": "openai"}.get(recording["provider"], recording["provider"])
    for field in FIELDS[family]:
        assert body.get(field) == case["body"].get(field), field


def test_every_wrapper_the_issue_names_is_recorded_and_described() -> None:
    recorded = {(r["wrapper"], r["provider"]) for r in RECORDINGS.values()}
    assert {p for _, p in recorded} == set(WRAPPERS)
    assert {w for w, _ in recorded} >= {"ChatOpenAI", "ChatAnthropic", "ChatGroq", "ChatMistralAI", "ChatFireworks",
                                       "ChatOllama", "ChatHuggingFace", "ChatGoogleGenerativeAI", "ChatDeepSeek",
                                       "ChatBedrockConverse"}
    assert any(r["use_responses_api"] for r in RECORDINGS.values())


def test_the_versions_the_module_describes_are_the_recorded_ones() -> None:
    for recording in RECORDINGS.values():
        for distribution, version in recording["versions"].items():
            assert VERSIONS[distribution] == version, distribution
