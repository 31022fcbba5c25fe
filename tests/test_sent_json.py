"""`Translation.sent_choice` / `sent_parallel` in `to_json()` (and so in `render` / dry `compare --format json`): where
`providers.<id>.extra` changes the field that holds the tool choice or the parallel setting, the JSON says what is
sent, at which body path, and whether extra wrote a value there or left none.

The truth is outside the code: each `at` is walked in the official SDK's request type (openai's and anthropic's
TypedDicts, google-genai's pydantic models with the REST body's camelCase names, botocore's Converse shape) and the
value the body holds there checks against that field's type; the neutral forms expected are the scenario language's
own (docs/scenarios.md: a forced tool is `{tool: NAME}`), written here, not computed. In-process translations only."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402
from sdk_types import converse_input_shape, held_by_sdk, missing, sdk_field  # noqa: E402

from toolchoice.providers.core.model import RenderOptions, Translation  # noqa: E402
from toolchoice.providers.core.registry import translate  # noqa: E402
from toolchoice.providers.core.scenario_dict import load_scenario_dict  # noqa: E402

TOOLS = [{"name": name, "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
         for name in ("f", "g")]
NEUTRAL_G = {"tool": "g"}  # the scenario language's forced tool g (docs/scenarios.md)


def translated(provider: str, extra: dict[str, Any], choice: Any = "f", parallel: bool | None = None) -> Translation:
    data: dict[str, Any] = {"tools": TOOLS, "messages": [{"role": "user", "content": "weather in Paris"}],
                            "providers": {provider: {"extra": extra}}}
    if choice is not None:
        data["tool_choice"] = choice
    if parallel is not None:
        data["parallel_tool_calls"] = parallel
    t = translate(provider, load_scenario_dict(data), RenderOptions())
    assert t.request is not None, [e.message for e in t.ledger if e.severity == "error"]
    return t


def body_at(body: dict[str, Any], path: list[str]) -> Any:
    for key in path:
        body = body[key]
    return body


# ---- the tool choice ----------------------------------------------------------------------------------------------


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_openai_chat_sent_choice_is_where_the_sdk_holds_tool_choice() -> None:
    from openai.types.chat.completion_create_params import CompletionCreateParamsBase

    named_g = {"type": "function", "function": {"name": "g"}}
    t = translated("openai", {"tool_choice": named_g})
    sent = t.to_json()["sent_choice"]
    assert sent == {"tool_choice": NEUTRAL_G, "at": ["tool_choice"], "source": "extra"}
    assert body_at(t.request.body, sent["at"]) == named_g  # what extra wrote is what the body holds there
    held_by_sdk(CompletionCreateParamsBase, sent["at"], named_g)
    assert t.to_json()["sent_parallel"] is None  # extra left the parallel setting alone


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_anthropic_sent_choice_and_parallel_inside_tool_choice() -> None:
    from anthropic.types.message_create_params import MessageCreateParamsBase

    # the scenario forbids parallel calls (disable_parallel_tool_use true inside tool_choice); extra forces g and
    # allows them: both read from the one field
    written = {"type": "tool", "name": "g", "disable_parallel_tool_use": False}
    t = translated("anthropic", {"tool_choice": written}, parallel=False)
    data = t.to_json()
    assert data["sent_choice"] == {"tool_choice": NEUTRAL_G, "at": ["tool_choice"], "source": "extra"}
    assert data["sent_parallel"] == {"parallel_tool_calls": True, "at": ["tool_choice", "disable_parallel_tool_use"],
                                     "source": "extra"}
    for key in ("sent_choice", "sent_parallel"):
        at = data[key]["at"]
        held_by_sdk(MessageCreateParamsBase, at, body_at(t.request.body, at))
    assert body_at(t.request.body, data["sent_parallel"]["at"]) is False  # disable false: parallel calls allowed


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_anthropic_parallel_absent_where_extra_writes_tool_choice_without_it() -> None:
    from anthropic.types.message_create_params import MessageCreateParamsBase

    t = translated("anthropic", {"tool_choice": {"type": "auto"}}, choice="auto", parallel=False)
    data = t.to_json()
    at = ["tool_choice", "disable_parallel_tool_use"]
    assert data["sent_parallel"] == {"parallel_tool_calls": None, "at": at, "source": "absent"}
    assert "disable_parallel_tool_use" not in t.request.body["tool_choice"]
    assert sdk_field(MessageCreateParamsBase, at)  # a field the API has, left out: its default holds
    assert data["sent_choice"] is None  # auto as the scenario asks: nothing changes for the verdict


@pytest.mark.skipif(missing("google.genai", "pydantic"), reason="needs google-genai")
def test_gemini_sent_choice_at_function_calling_config() -> None:
    from google.genai import types

    from sdk_types import gemini_body_problems

    written = {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["g"]}}
    t = translated("gemini", {"toolConfig": written})
    sent = t.to_json()["sent_choice"]
    assert sent == {"tool_choice": NEUTRAL_G, "at": ["toolConfig", "functionCallingConfig"], "source": "extra"}
    assert gemini_body_problems(t.request.body) == []
    # the REST body's toolConfig is google-genai's ToolConfig (sdk_types: GenerateContentRequest's fields); the
    # path's second key is its function_calling_config, as the REST body spells it
    config = types.ToolConfig.model_validate({sent["at"][1]: body_at(t.request.body, sent["at"])})
    assert config.function_calling_config is not None
    assert config.function_calling_config.allowed_function_names == ["g"]


@pytest.mark.skipif(missing("google.genai", "pydantic"), reason="needs google-genai")
def test_gemini_sent_choice_absent_where_extra_empties_tool_config() -> None:
    from google.genai import types

    t = translated("gemini", {"toolConfig": {}})
    sent = t.to_json()["sent_choice"]
    assert sent == {"tool_choice": None, "at": ["toolConfig", "functionCallingConfig"], "source": "absent"}
    assert t.request.body["toolConfig"] == {}
    assert types.ToolConfig.model_validate({}).function_calling_config is None  # none sent: the API's default


@pytest.mark.skipif(missing("botocore"), reason="needs botocore")
def test_bedrock_sent_choice_at_tool_config_tool_choice() -> None:
    written = {"tool": {"name": "g"}}
    t = translated("bedrock", {"toolConfig": {"toolChoice": written}})
    sent = t.to_json()["sent_choice"]
    assert sent == {"tool_choice": NEUTRAL_G, "at": ["toolConfig", "toolChoice"], "source": "extra"}
    shape = converse_input_shape()
    for key in sent["at"]:  # each key of the path is a member of botocore's Converse input shape
        assert key in shape.members, (key, list(shape.members))
        shape = shape.members[key]
    assert body_at(t.request.body, sent["at"]) == written
    assert "tool" in shape.members and "name" in shape.members["tool"].members


# ---- the parallel setting -----------------------------------------------------------------------------------------


@pytest.mark.skipif(missing("openai"), reason="needs openai")
@pytest.mark.parametrize(("provider", "params"), [
    ("openai", "openai.types.chat.completion_create_params:CompletionCreateParamsBase"),
    ("openai-responses", "openai.types.responses.response_create_params:ResponseCreateParamsBase")])
def test_openai_sent_parallel_is_where_the_sdk_holds_parallel_tool_calls(provider: str, params: str) -> None:
    import importlib

    module, name = params.split(":")
    root = getattr(importlib.import_module(module), name)
    t = translated(provider, {"parallel_tool_calls": True}, parallel=False)
    sent = t.to_json()["sent_parallel"]
    assert sent == {"parallel_tool_calls": True, "at": ["parallel_tool_calls"], "source": "extra"}
    held_by_sdk(root, sent["at"], body_at(t.request.body, sent["at"]))
    assert t.to_json()["sent_choice"] is None


# ---- where nothing changes, and the shipped schemas ---------------------------------------------------------------


def test_without_extra_both_keys_are_null() -> None:
    t = translated("openai", {}, parallel=False)
    data = t.to_json()
    assert data["sent_choice"] is None and data["sent_parallel"] is None
    assert t.request is not None and t.request.body["parallel_tool_calls"] is False  # the scenario's, as asked


@pytest.fixture(scope="module")
def validators() -> dict[str, Any]:
    import jsonschema

    return {name: jsonschema.Draft202012Validator(json.loads(run_cli(["schema", name]).stdout))
            for name in ("render", "compare")}


def test_render_and_compare_json_carry_the_keys_and_fit_their_schemas(tmp_path: Path, validators: dict[str, Any]):
    path = tmp_path / "extra.json"
    path.write_text(json.dumps({"tools": TOOLS, "tool_choice": "f", "parallel_tool_calls": False,
                                "messages": [{"role": "user", "content": "weather in Paris"}],
                                "providers": {"anthropic": {"extra": {"tool_choice": {"type": "auto"}}}}}),
                    encoding="utf-8")
    rendered = run_cli(["render", str(path), "-p", "anthropic", "-p", "openai", "-f", "json"], cwd=tmp_path)
    assert rendered.returncode == 0, rendered.stderr
    on_anthropic, on_openai = json.loads(rendered.stdout)
    assert on_anthropic["sent_choice"] == {"tool_choice": "auto", "at": ["tool_choice"], "source": "extra"}
    assert on_anthropic["sent_parallel"] == {"parallel_tool_calls": None,
                                             "at": ["tool_choice", "disable_parallel_tool_use"], "source": "absent"}
    assert on_openai["sent_choice"] is None and on_openai["sent_parallel"] is None
    assert list(validators["render"].iter_errors(json.loads(rendered.stdout))) == []
    compared = run_cli(["compare", str(path), "-p", "anthropic", "-p", "openai", "-f", "json"], cwd=tmp_path)
    document = json.loads(compared.stdout)
    assert [p["sent_parallel"] for p in document["providers"]] == [on_anthropic["sent_parallel"], None]
    assert list(validators["compare"].iter_errors(document)) == []
    wrong = {**on_anthropic, "sent_choice": {**on_anthropic["sent_choice"], "source": "scenario"}}
    assert list(validators["render"].iter_errors(wrong))  # the schema holds the source to its two words
