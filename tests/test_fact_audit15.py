"""The fifteenth fact-audit pass (2026-11-28, docs/fact-audit.md): what the installed anthropic SDK decides of the
model rules that take manual thinking.

anthropic 2.14.0 `_data/models_to_warn_with_thinking_enabled.py` lists the models on which the SDK, before sending,
warns "Using Claude with {model} and 'thinking.type=enabled' is deprecated. Use 'thinking.type=adaptive' instead"
(`resources/messages/messages.py`): a deprecation the SDK still sends, not a refusal. So every model on that list
must be one whose rule takes manual thinking (thinking_form `both`), and toolchoice must send manual thinking there,
never refuse it. The list and the words are read from the installed SDK as text (no SDK import: the suite's time).
"""

from __future__ import annotations

import json
import re
from importlib.util import find_spec
from pathlib import Path

import pytest

from sdk_types import missing
from toolchoice.providers import load_scenario_text, translate
from toolchoice.providers.core import model_rules

pytestmark = pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")

TOOLS = ("tools:\n  - name: get_time\n    parameters: {type: object, properties: {tz: {type: string}}}\n"
         "messages: [{role: user, content: What time is it?}]\n")


def _sdk_text(relative: str) -> str:
    spec = find_spec("anthropic")
    assert spec is not None and spec.submodule_search_locations
    return (Path(list(spec.submodule_search_locations)[0]) / relative).read_text(encoding="utf-8")


def _warned_models() -> list[str]:
    source = _sdk_text("_data/models_to_warn_with_thinking_enabled.py")
    body = source[source.index("= [", source.index("MODELS_TO_WARN_WITH_THINKING_ENABLED")):]
    return re.findall(r'"([^"]+)"', body[:body.index("]")])


def test_the_sdk_warns_of_manual_thinking_as_deprecated_and_sends_it() -> None:
    """The SDK's own words: a warning before the request, not an error; the list the audit read."""
    messages = _sdk_text("resources/messages/messages.py")
    assert "if model in MODELS_TO_WARN_WITH_THINKING_ENABLED and thinking and thinking[\"type\"] == \"enabled\":" in messages
    assert "'thinking.type=enabled' is deprecated. Use 'thinking.type=adaptive' instead" in messages
    assert "warnings.warn(" in messages
    assert _warned_models() == ["claude-opus-4-6", "claude-mythos-preview"]


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_every_model_the_sdk_warns_of_takes_manual_thinking_in_its_rule(provider: str) -> None:
    models = _warned_models()
    assert models
    for model in models:
        wire = model if provider == "anthropic" else f"anthropic.{model}-v1:0"
        form = model_rules.resolve(provider, wire).get("thinking_form")
        assert form is not None and form.value == "both", (model, form)


@pytest.mark.parametrize("provider", ["anthropic", "bedrock"])
def test_manual_thinking_on_a_model_the_sdk_only_warns_of_is_sent(provider: str) -> None:
    for model in _warned_models():
        wire = model if provider == "anthropic" else f"anthropic.{model}-v1:0"
        settings = {"model": wire, "max_tokens": 4096, "thinking": {"budget": 2048}}
        text = TOOLS + f"tool_choice: auto\nproviders:\n  {provider}: {json.dumps(settings)}\n"
        t = translate(provider, load_scenario_text(text, "audit15.yaml"))
        assert not t.refused, (model, [(e.code, e.message) for e in t.ledger if e.severity == "error"])
        body = t.request.body if provider == "anthropic" else t.request.body["additionalModelRequestFields"]
        assert body["thinking"]["type"] == "enabled" and body["thinking"]["budget_tokens"] == 2048
        assert not [e for e in t.ledger if e.code == "thinking.form"]


# ---- DeepSeek's deepseek-flash (V4.1 Flash) ---------------------------------------------------------------------
# api-docs.deepseek.com/zh-cn/quick_start/pricing (read 2026-11-28): '(1) 模型名请使用 deepseek-flash。' (use the model
# name deepseek-flash), '思考模式 | 支持非思考与思考模式(默认)' (thinking is the default). The API's 400 for a forcing
# tool_choice in thinking mode on this id, can1357/oh-my-pi#11505 (2026-09-10): '400 "Thinking mode does not support
# this tool_choice" — deepseek-flash misses the tool-choice guard that deepseek-v4-flash has'. Until this pass the id
# was unknown to the rules: a forcing choice went out with thinking on by default and was answered 400.
FLASH_400 = "Thinking mode does not support this tool_choice"


def _deepseek(choice: str, settings: str):
    return translate("deepseek", load_scenario_text(TOOLS + f"tool_choice: {choice}\nproviders:\n  deepseek: "
                                                    f"{settings}\n", "audit15.yaml"))


def test_deepseek_flash_is_a_known_model() -> None:
    assert not model_rules.unknown("deepseek", "deepseek-flash")
    assert [r.name for r in model_rules.matching("deepseek", "deepseek-flash") if r.family] == ["deepseek-flash-thinking"]
    t = _deepseek("auto", "{model: deepseek-flash}")
    assert "model_rule.unknown" not in [e.code for e in t.ledger] and "thinking" not in t.request.body


@pytest.mark.parametrize("choice", ["required", "get_time"])
def test_deepseek_flash_forcing_choice_with_default_thinking_is_sent_with_thinking_disabled(choice: str) -> None:
    t = _deepseek(choice, "{model: deepseek-flash}")
    assert t.request.body["thinking"] == {"type": "disabled"}
    assert [e.severity for e in t.ledger if e.code == "thinking.disabled_for_choice"] == ["warning"]


def test_deepseek_flash_forcing_choice_with_thinking_on_is_refused_in_the_apis_words() -> None:
    t = _deepseek("required", "{model: deepseek-flash, thinking: true}")
    assert t.request is None
    [error] = [e for e in t.ledger if e.code == "thinking.forced_choice"]
    assert f"(400 '{FLASH_400}')" in error.message


def test_the_mock_answers_deepseek_flash_in_the_apis_words() -> None:
    from toolchoice.providers.core.mock.service import MockService

    body = {"model": "deepseek-flash", "messages": [{"role": "user", "content": "hi"}], "tool_choice": "required",
            "tools": [{"type": "function", "function": {"name": "get_time", "parameters": {"type": "object"}}}]}
    exchange = MockService("deepseek").handle("POST", "/v1/chat/completions", {}, json.dumps(body).encode())
    assert exchange.status == 400 and json.loads(exchange.body)["error"]["message"] == FLASH_400
    body["thinking"] = {"type": "disabled"}
    exchange = MockService("deepseek").handle("POST", "/v1/chat/completions", {}, json.dumps(body).encode())
    assert exchange.status == 200


@pytest.mark.parametrize("model", ["deepseek-chat", "deepseek-reasoner"])
def test_a_retired_deepseek_name_is_pointed_at_the_id_deepseek_now_names(model: str) -> None:
    """The pricing page's '(1) 模型名请使用 deepseek-flash。' (use the model name deepseek-flash): the end-of-life
    warning names it, no longer deepseek-v4-flash, whose model DeepSeek says is offline (served by V4.1 Flash)."""
    warning = model_rules.eol_warning("deepseek", model)
    assert warning is not None and "use deepseek-flash or another current model" in warning
    assert not model_rules.unknown("deepseek", "deepseek-flash")
