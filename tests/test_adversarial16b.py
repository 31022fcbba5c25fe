"""Adversarial round on the code that landed in session 16 (trial16l): `--dialect openai-agents` and `--dialect
pydantic-ai`, Anthropic's mid-conversation tool changes, the one-pass redaction of saves and the `sk-` rule, the
escaping of tag characters and variation selectors, the Gemini mock's unknown fields. Each test failed before its fix;
the truth is outside the code under test (the installed SDKs' own classes, the real library's output, PyYAML and
json reading what was written), and everything runs in-process.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sdk_types import missing
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario_text

needs_agents = pytest.mark.skipif(missing("agents"), reason="the test extra's openai-agents")


def _scenario(tools: list[dict[str, Any]], choice: Any = "auto", **more: Any) -> Any:
    doc = {"tools": tools, "tool_choice": choice, "messages": [{"role": "user", "content": "hi"}], **more}
    return load_scenario_text(json.dumps(doc), "s.json")


# ---- --dialect openai-agents: a strict tool's schema at its root --------------------------------------------------

ROOTS = {
    "empty": {},  # FunctionTool makes it the closed empty object; the dialect sent {} as written
    "one_of": {"oneOf": [{"type": "object", "properties": {"x": {"type": "string"}}}]},  # an anyOf by the root check
}


@needs_agents
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("provider, root", [(p, r) for p in ("openai", "openai-responses", "anthropic") for r in ROOTS
                                            if (p, r) != ("anthropic", "one_of")])  # a root oneOf: the API's 400
def test_a_strict_tools_root_is_what_function_tool_makes_of_it(provider: str, root: str) -> None:
    # openai-agents' FunctionTool(strict_json_schema=True) runs ensure_strict_json_schema when it is made: {} is not
    # walked but replaced by the closed empty object, and the root is checked after the walk (a root oneOf is an anyOf
    # by then: UserError). The dialect showed {} as written, and a request where the SDK raises for a root oneOf; on
    # LitellmModel's routes (anthropic) it handed LiteLLM the schema as written, and its request for both.
    from agents import FunctionTool
    from agents.exceptions import UserError

    from toolchoice.providers.openai_agents_dialect import apply

    scenario = _scenario([{"name": "pick", "strict": True, "parameters": ROOTS[root]}])
    view = apply(translate(provider, scenario), scenario)

    async def invoke(_context: Any, _arguments: str) -> str:
        return ""

    try:
        made = FunctionTool(name="pick", description="", params_json_schema=scenario.tools[0].schema(),
                            on_invoke_tool=invoke, strict_json_schema=True)
    except UserError as raised:
        (refused,) = [e.message for e in view.translation.ledger if e.code == "dialect.refused"]
        assert view.translation.request is None and f"UserError: {raised}" in refused
        return
    assert [e for e in view.translation.ledger if e.code in ("dialect.refused", "dialect.unchecked")] == []
    (tool,) = view.translation.request.body["tools"]
    sent = tool["input_schema"] if provider == "anthropic" else tool.get("function", tool)["parameters"]
    assert sent == made.params_json_schema


# ---- output: tag characters and variation selectors in a JSON document on stdout ---------------------------------

# "hi" in tag characters, a variation selector past U+FFFF, a zero-width space: text that shows as nothing
HIDDEN = "".join(chr(0xE0000 + ord(c)) for c in "hi") + "\U000e0100\u200b"


def test_trace_of_a_saved_request_as_json_is_json_with_its_hidden_characters_escaped(tmp_path: Any) -> None:
    # `trace SAVED -f json` wrote the scenario's JSON text through `write`, whose escape past U+FFFF is YAML's
    # \U000e0068: the document on stdout was no JSON ("Invalid \escape"); write_json gives JSON's surrogate pair
    from cli import run_cli

    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hello" + HIDDEN}],
            "tools": [{"type": "function", "function": {"name": "pick", "description": "d" + HIDDEN,
                                                        "parameters": {"type": "object", "properties": {}}}}]}
    saved = tmp_path / "hand.request.json"
    saved.write_text(json.dumps({"method": "POST", "url": "/v1/chat/completions", "headers": {}, "body": body}),
                     encoding="utf-8")
    result = run_cli(["trace", str(saved), "-p", "openai", "-f", "json"])
    assert result.returncode == 0, result.stderr
    assert not any(0xE0000 <= ord(c) <= 0xE01EF or c == "\u200b" for c in result.stdout)  # none printed raw
    scenario = json.loads(result.stdout)
    assert scenario["messages"][0]["content"] == "hello" + HIDDEN
    assert scenario["tools"][0]["description"] == "d" + HIDDEN


# ---- redaction: a key's digits in a number ------------------------------------------------------------------------


def test_a_keys_digits_in_a_number_are_redacted_and_the_save_is_still_json() -> None:
    # a key whose spelling is made of what JSON writes outside strings takes the text pass over the whole document
    # (Redactor.document, as the two passes did): it replaced the digits inside the number, and the saved document
    # read `"n": $NUM_KEY` — no JSON (trace SAVED, and any reader of the save, refused it). The number is now
    # redacted in the data pass, as a string.
    from toolchoice.providers.core.json_text import dumps_indented
    from toolchoice.providers.core.redaction import Redactor

    key, pin = "98765432109876543210", "31415926"
    redactor = Redactor({key: "$NUM_KEY", pin: "$PIN_TOKEN"})
    document = {"n": int(key), "f": float(key), "list": [int(pin), True, 2.5], "text": f"id {key}"}
    for written in (redactor.document(document), redactor.text(dumps_indented(redactor.data(document)))):
        read = json.loads(written)  # the text a save writes, and the text `-f json` writes (emit_json)
        assert key[:12] not in written and pin not in written
        assert read["n"] == "$NUM_KEY" and read["list"] == ["$PIN_TOKEN", True, 2.5] and read["text"] == "id $NUM_KEY"


# ---- --dialect pydantic-ai: a choice without tools ----------------------------------------------------------------


@pytest.mark.skipif(missing("pydantic_ai", "cohere"), reason="the test extra's pydantic-ai-slim[cohere]")
@pytest.mark.parametrize("choice", ["none", "unset", "auto"])
def test_cohere_model_sends_none_without_tools(tmp_path: Any, choice: str) -> None:
    # CohereModel._get_tool_choice has no `if not tools: return tools, None`: tool_choice='none' without tools still
    # sends "NONE" (the real Agent against the mock on 127.0.0.1, test_pydantic_ai_wire's harness); the dialect left
    # the choice out for every model class without tools
    from test_pydantic_ai_wire import Agents, hold, render, run

    with Agents(tmp_path) as agents:
        hold("cohere", render("cohere", choice, tools=False), run(agents, "cohere", choice, tools=False))
    assert agents.outside == []


# ---- the sk- rule: a name in capitalized words -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sk-LinearRegression2024", "sk-GradientBoosting2025Model", "sk-Tokenizer2025Config12"])
def test_an_sk_name_in_capitalized_words_is_sent_and_shown_as_written(name: str) -> None:
    # one run of letters and digits after sk- was read as a key whatever it spelled (the legacy and DeepSeek forms):
    # a model or tool named in CamelCase with a year was refused in providers.<id>.model / headers / extra and shown
    # as [redacted]; the forms of test_literal_keys.OPENAI_KINDS are still refused there
    from toolchoice.providers.core.redaction import Redactor, key_shapes

    text = ("tools:\n  - {name: get_weather, parameters: {type: object}}\nmessages:\n  - {role: user, content: hi}\n"
            f"providers:\n  openai:\n    model: {name}\n    headers: {{X-Model: {name}}}\n"
            f"    extra:\n      metadata: {{note: 'use {name}'}}\n")
    scenario = load_scenario_text(text, "s.yaml")
    assert scenario.providers["openai"].model == name and key_shapes(name) == []
    assert Redactor({}).text(f"model {name} here") == f"model {name} here"


@pytest.mark.skipif(missing("pydantic_ai", "mistralai"), reason="the test extra's pydantic-ai-slim[mistral]")
@pytest.mark.parametrize("choice, parallel, tools", [("auto", False, False), ("unset", True, False), ("none", True, True)])
def test_mistral_model_sends_parallel_tool_calls_without_tools(tmp_path: Any, choice: str, parallel: bool,
                                                               tools: bool) -> None:
    # MistralModel passes parallel_tool_calls=model_settings.get('parallel_tool_calls') whether or not it sends tools
    # (models/mistral.py:371; 'none' drops the tools): the dialect wrote it only with tools, as OpenAI's and Groq's do
    from test_pydantic_ai_wire import Agents, hold, render, run

    with Agents(tmp_path) as agents:
        hold("mistral", render("mistral", choice, parallel=parallel, tools=tools),
             run(agents, "mistral", choice, parallel=parallel, tools=tools))
    assert agents.outside == []
