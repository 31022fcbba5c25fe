"""`--dialect openai-agents` on the command line and in its ledger: what tests/test_openai_agents_wire.py does not
reach by running the SDK (the view's JSON and compare's column, the spellings ModelSettings has none for, what
toolchoice adds for a forcing choice and the SDK does not, bad input, what render imports). In-process but for the
import check; the SDK's own behaviour is held in the wire test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli import run_cli
from test_render_imports import command_in_child
from toolchoice.providers.core.choice import parse_tool_choice
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario
from toolchoice.providers.openai_agents_dialect import apply

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "dialect" / "litellm.yaml"


def view(provider: str, choice: Any, **changes: Any) -> Any:
    scenario = load_scenario(SCENARIO)
    scenario = scenario._replace(tool_choice=parse_tool_choice(choice, scenario.tool_names) if choice else None,
                                 **changes)
    return apply(translate(provider, scenario), scenario)


def entries(seen: Any, code: str) -> list[Any]:
    return [e for e in seen.translation.ledger if e.code == code]


def test_render_and_compare_through_the_cli() -> None:
    result = run_cli(["render", str(SCENARIO), "-p", "mistral", "--tool-choice", "any", "--dialect", "openai-agents",
                      "-f", "json"], cwd=ROOT)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["dialect"] == "openai-agents" and data["litellm_route"] is None
    assert data["model_class"].startswith("OpenAIChatCompletionsModel(model='mistral-large-latest'")
    assert "tool_choice='required'" in data["agent"]
    assert data["request"]["body"]["tool_choice"] == "required" and data["api"]["effective_tool_choice"] == "any"
    (call,) = [e for e in data["ledger"] if e["code"] == "dialect.call"]
    assert "any written as 'required'" in call["message"] and "openai-agents 0.24.0" in call["message"]
    table = run_cli(["compare", str(SCENARIO), "-p", "openai,anthropic", "--tool-choice", "get_time", "--dialect",
                     "openai-agents", "-f", "markdown"], cwd=ROOT)
    assert table.returncode == 0 and "openai-agents model" in table.stdout.splitlines()[0]
    assert "LitellmModel(model='anthropic/claude-sonnet-4-5')" in table.stdout


def test_a_setting_of_another_dialect_is_one_line_exit_2() -> None:
    for args, words in ((("--drop-params",), "--drop-params"), (("--active-tools", "get_time"), "--active-tools")):
        result = run_cli(["render", str(SCENARIO), "--dialect", "openai-agents", *args], cwd=ROOT)
        assert result.returncode == 2 and result.stdout == "", args
        assert len(result.stderr.strip().splitlines()) == 1 and words in result.stderr, result.stderr


def test_what_model_settings_cannot_spell_keeps_the_api_request() -> None:
    allowed = view("openai", {"allowed": ["get_weather"], "mode": "required"})
    (why,) = entries(allowed, "dialect.no_spelling")
    assert why.severity == "warning" and "allowed-tools subset" in why.message
    assert allowed.translation.request == allowed.api.request


def test_a_forcing_choice_carries_the_reset_note_and_auto_does_not() -> None:
    (reset,) = entries(view("openai-responses", "get_weather"), "dialect.reset")
    assert "agents/run_internal/tool_execution.py:568" in reset.message and "loop.after_call: auto" in reset.message
    assert entries(view("openai-responses", "auto"), "dialect.reset") == []


def test_what_toolchoice_adds_for_a_forcing_choice_and_the_sdk_does_not() -> None:
    scenario = load_scenario(SCENARIO)
    settings = scenario.settings_for("deepseek")._replace(model="deepseek-v4-flash")
    scenario = scenario._replace(tool_choice=parse_tool_choice("required", scenario.tool_names),
                                 providers={**scenario.providers, "deepseek": settings})
    deepseek = apply(translate("deepseek", scenario), scenario)
    assert deepseek.api.request.body["thinking"] == {"type": "disabled"}
    assert "thinking" not in deepseek.translation.request.body
    assert any(e.severity == "warning" and e.message.startswith("thinking: openai-agents sends the forcing")
               for e in entries(deepseek, "dialect.differs"))
    router = view("openrouter", "required")
    assert router.api.request.body["provider"] == {"require_parameters": True}
    assert "provider" not in router.translation.request.body
    assert any(e.message.startswith("provider.require_parameters: openai-agents sends none")
               for e in entries(router, "dialect.differs"))


def test_a_litellm_refusal_names_the_agents_way_to_drop_params() -> None:
    cohere = view("cohere", "auto", parallel_tool_calls=False)
    (refused,) = entries(cohere, "dialect.refused")
    assert cohere.translation.request is None and "UnsupportedParamsError" in refused.message
    assert "ModelSettings(extra_args={'drop_params': True})" in refused.message
    assert "--drop-params shows what" not in refused.message  # --drop-params is refused with this dialect


def test_render_imports_the_dialect_only_when_asked() -> None:
    ours = ("toolchoice.providers.openai_agents_dialect", "toolchoice.providers.openai_agents_rules")
    plain = command_in_child("render", str(SCENARIO), "-p", "openai", "-f", "json")["modules"]
    asked = command_in_child("render", str(SCENARIO), "-p", "openai", "--dialect", "openai-agents", "-f",
                             "json")["modules"]
    assert not set(ours) & set(plain)
    assert set(ours) <= set(asked)
    for module in ("agents", "litellm", "toolchoice.providers.litellm_dialect", "httpx"):
        assert module not in asked, module  # LiteLLM's rules only for a LitellmModel route; the SDK never
