"""Leftovers of the seventeenth facts pass (trial23m).

Truth from outside the code: DeepSeek's recorded 400 words (fact deepseek.reasoning_content_missing: ad-naan/Adnify#193
for V4.1 Flash, the old v4 recordings) and its pricing page (deepseek-flash is V4.1 Flash, the old deepseek-v4-flash
served by it), answered by the real mock on 127.0.0.1 to openai-python; the recordings' dates as the issues index
shows them (read 2026-11-28); the installed SDKs' types (openai, botocore, google-genai) for the tool-name rules.
"""

from __future__ import annotations

import ast
import gzip
import importlib.util
import pathlib
import re
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
V4_WORDS = "The `reasoning_content` in the thinking mode must be passed back to the API."
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]
USER = {"role": "user", "content": "Weather in Paris?"}


# ---- 1. the mock's DeepSeek 400 follows the model rules (deepseek-flash is the row's default model)

def test_the_mock_refuses_a_history_without_reasoning_on_every_ruled_model_and_answers_an_unknown_one() -> None:
    openai = pytest.importorskip("openai")
    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("deepseek") as mock:
        client = openai.OpenAI(base_url=mock.base_url, api_key="x", max_retries=0)
        for model, thinking in (("deepseek-flash", None), ("deepseek-v4-pro", None), ("deepseek-v4-flash", None),
                                ("deepseek-v5-nova", {"type": "enabled"})):
            extra = {"extra_body": {"thinking": thinking}} if thinking else {}
            first = client.chat.completions.create(model=model, messages=[USER], tools=TOOLS, **extra)
            turn = first.choices[0].message.model_dump(exclude_none=True)
            turn.pop("reasoning_content", None)
            history = [USER, turn, {"role": "tool", "tool_call_id": turn["tool_calls"][0]["id"], "content": "sunny"}]
            if model == "deepseek-v5-nova":  # no rule knows it: answered, the translator's warning its finding
                reply = client.chat.completions.create(model=model, messages=history, tools=TOOLS, **extra)
                assert reply.choices[0].finish_reason == "stop"
                assert [f["severity"] for f in mock.records[-1]["findings"]
                        if f["code"] == "pitfall.deepseek_reasoning_content"] == ["warning"]
                continue
            with pytest.raises(openai.BadRequestError) as caught:
                client.chat.completions.create(model=model, messages=history, tools=TOOLS, **extra)
            assert caught.value.status_code == 400, model
            assert caught.value.body == {"message": V4_WORDS, "type": "invalid_request_error", "param": None,
                                         "code": "invalid_request_error"}, model


def test_an_unknown_deepseek_id_is_said_unknown() -> None:
    from cli import run_cli

    result = run_cli(["providers", "--model", "deepseek-v5-nova", "-p", "deepseek"])
    said = " ".join((result.stdout + result.stderr).split())
    assert result.returncode == 0 and "knows deepseek-v5-nova" in said and "limits are unknown" in said, said
    # and the rows the mock answers in DeepSeek's words name model rules, never a second pattern of model ids
    from toolchoice.providers.core.fact_values import refusals
    from toolchoice.providers.core.facts import FACTS
    from toolchoice.providers.core.model_rules import RULES

    names = {rule.name for rule in RULES}
    rows = [row for fact in FACTS for row in refusals(fact.value) if "deepseek" in row.providers]
    codes = {row.code for row in rows}
    assert {"thinking.forced_choice", "pitfall.deepseek_reasoning_content"} <= codes
    for row in rows:
        if row.code in ("thinking.forced_choice", "pitfall.deepseek_reasoning_content"):
            assert row.model is None and row.rules and set(row.rules) <= names, row
    mock_source = (ROOT / "providers" / "openai_chat_mock.py").read_text()
    assert not re.search(r"re\.compile\(r\"\^deepseek", mock_source)


# ---- 2. the recordings' dates (issues index, 2026-11-28)

@pytest.mark.parametrize("fact_id,newest", [
    ("gemini.tool_choice_without_tools", "2026-04-07"),  # AstrBotDevs/AstrBot#7407
    ("groq.tool_choice_words", "2026-02-19"),  # plmbr/notebook-intelligence#115
    ("anthropic.tool_name_length", "2026-09-22"),  # anthropics/claude-code#96152
])
def test_the_newest_recording_dates_the_evidence(fact_id: str, newest: str) -> None:
    from toolchoice.providers.core.fact_freshness import entries

    found = {e.evidence for e in entries() if e.ref == f"fact:{fact_id}"}
    assert found == {newest}


@pytest.mark.parametrize("fact_id,dates", [
    ("gemini.tool_limit", ("2026-02-14", "2026-04-15")),  # google-gemini/gemini-cli#19083, #25440
    ("groq.tool_limit", ("2026-04-16", "2026-04-17", "2026-08-26")),  # ha-groq-cloud-api#25, gsd-2#4376, codex-router#449
])
def test_the_tool_limits_recordings_are_dated_and_their_sdk_reread(fact_id: str, dates: tuple[str, ...]) -> None:
    from toolchoice.providers.core.facts import fact

    item = fact(fact_id)
    for date in dates:
        assert date in item.source, (fact_id, date)
    assert item.verified == "2026-11-28"  # the SDK's own words re-read (google-genai 3.6.1, groq 1.7.0)


# ---- 3. the tool-name rules are dated facts, listed, and what the SDKs' types say

def _site(package: str) -> pathlib.Path:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin is not None
    return pathlib.Path(spec.origin).parent


def test_every_name_rule_is_a_listed_fact() -> None:
    from toolchoice.providers import anthropic, bedrock, openai_chat_hosts, openai_responses
    from toolchoice.providers.core.fact_freshness import entries
    from toolchoice.providers.gemini import translate

    listed = {e.ref for e in entries() if e.action == "refuses" and "tool name" in e.what}
    for module, ref in ((anthropic, "fact:anthropic.tool_name_length"), (bedrock, "fact:bedrock.tool_name_rule"),
                        (translate, "fact:gemini.function_name_length"),
                        (openai_responses, "fact:openai-responses.tool_name_rule")):
        assert ref in listed, ref
    for host in openai_chat_hosts.NAME_RULES:
        assert f"fact:{host}.tool_name_rule" in listed, host


def test_the_name_rule_facts_hold_what_the_sdk_types_say() -> None:
    pytest.importorskip("openai")
    pytest.importorskip("botocore")
    from toolchoice.providers import bedrock, openai_chat_hosts
    from toolchoice.providers.core.facts import fact

    for fact_id, module_rule in (("openai.tool_name_rule", openai_chat_hosts.NAME_RULES["openai"][0]),
                                 ("bedrock.tool_name_rule", bedrock.NAME_RULE)):
        stated = fact(fact_id)
        assert stated.verified == "2026-11-28" and module_rule[1] == stated.value.words, fact_id

    words = re.sub(r"\s+", " ", (_site("openai") / "types" / "shared_params" / "function_definition.py").read_text())
    assert "Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64." in words
    test = openai_chat_hosts.NAME_RULES["openai"][0][0]
    assert test("a" * 64) and not test("a" * 65) and not test("get.weather") and test("get_weather-2")
    service = gzip.open(next((_site("botocore") / "data" / "bedrock-runtime").glob("*/service-2.json.gz"))).read()
    import json

    shape = json.loads(service)["shapes"]["ToolName"]
    assert (shape["min"], shape["max"], shape["pattern"]) == (1, 64, "[a-zA-Z0-9_-]+")
    assert bedrock.NAME_RULE[0]("b" * 64) and not bedrock.NAME_RULE[0]("b" * 65) and not bedrock.NAME_RULE[0]("")


# ---- 4. facts.py and capabilities.py split along a concern, room for the next fact, no import circle

def _imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}


def test_the_two_tables_have_room_and_their_parts_import_only_down() -> None:
    core = ROOT / "providers" / "core"
    for name in ("facts.py", "capabilities.py"):
        assert len((core / name).read_text().splitlines()) <= 550, name  # 100 lines for the next facts
    for part in ("capability_types.py", "history_facts.py", "without_tools_facts.py", "name_rule_facts.py"):
        assert not {"facts", "capabilities"} & _imports(core / part), part
