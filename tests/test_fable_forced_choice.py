"""Claude Fable 5 and 5.1 with a forcing tool_choice (trial 18j, 2026-11-28).

Fable 5.1 refuses any forcing tool_choice on Anthropic's own word (model rule claude-5.1-no-forced-choice); its 400's
words are recorded on the Claude API and on Converse, and the mock now answers in them. Fable 5 on Converse: one
reporter records the same 400 (langchain-ai/langchain-aws#1273), the maintainers' fix covers 5.1 only (#1274), and
Anthropic's what's-new-fable-5-1 says forced tool use errors from 5.1 on: a recording against the provider's pages is
a warning with its words and source, the request sent as written, never refused; the mock answers it.

The words below are copied from the recordings (each names its source), not from the code."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sdk_types import missing
from toolchoice.providers.core.jobs import translations
from toolchoice.providers.core.mock.service import MockService
from toolchoice.providers.core.model import RenderOptions
from toolchoice.providers.core.scenario_dict import load_scenario_dict

# langchain-ai/langchain-aws#1273 (2026-09-10): '400: "The model returned the following errors: tool_choice: type
# \"tool\" and \"any\" are not supported for this model."', "Reproduced for both `anthropic.claude-fable-5` and
# `anthropic.claude-fable-5-1`, with no thinking config present in the request at all"
CONVERSE_WORDS = 'The model returned the following errors: tool_choice: type "tool" and "any" are not supported for this model.'
# anthropics/claude-cookbooks#854 (2026-09-02, claude-fable-5-1): 'tool_choice: type "tool" and "any" are not supported
# for this model.' "HTTP 400, `invalid_request_error`, quoted verbatim from recorded responses"
CLAUDE_API_WORDS = 'tool_choice: type "tool" and "any" are not supported for this model.'
FABLE_5 = ["anthropic.claude-fable-5", "us.anthropic.claude-fable-5", "global.anthropic.claude-fable-5"]
FABLE_5_1 = ["anthropic.claude-fable-5-1", "global.anthropic.claude-fable-5-1"]
FORCING = ["required", "get_weather"]
TOOL = {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
USER = [{"role": "user", "content": "Weather in Paris?"}]


def translated(provider: str, model: str, choice: Any, options: RenderOptions = RenderOptions()):
    scenario = load_scenario_dict({"tools": [TOOL], "tool_choice": choice, "messages": USER})
    [translation] = translations(scenario, provider, options._replace(model=model))
    return translation


def said(translation, code: str) -> list[Any]:
    return [e for e in translation.ledger if e.code == code]


@pytest.mark.parametrize("choice", FORCING)
@pytest.mark.parametrize("model", FABLE_5)
def test_fable_5_on_converse_forced_is_sent_as_written_and_warned_in_the_recorded_words(model: str, choice: str) -> None:
    t = translated("bedrock", model, choice)
    assert not t.refused and not [e for e in t.ledger if e.severity == "error"]
    sent = t.request.body["toolConfig"]["toolChoice"]
    assert sent in ({"any": {}}, {"tool": {"name": "get_weather"}})  # as written: not dropped, not turned to auto
    [warning] = said(t, "tool_choice.model_refused")
    assert warning.severity == "warning"
    assert f"'{CONVERSE_WORDS}'" in warning.message and "langchain-ai/langchain-aws#1273" in warning.message
    assert "Fable 5.1" in warning.message and "tool_choice auto" in warning.message
    # --strict refuses on a warning, as for every other sourced warning
    assert translated("bedrock", model, choice, RenderOptions(strict=True)).refused


def test_the_body_sent_for_fable_5_is_one_botocore_takes() -> None:
    if missing("botocore"):
        pytest.skip("needs botocore")
    from botocore.validate import ParamValidator

    from sdk_types import converse_input_shape

    body = translated("bedrock", FABLE_5[0], "required").request.body
    assert ParamValidator().validate({**body, "modelId": FABLE_5[0]}, converse_input_shape()).generate_report() == ""


@pytest.mark.parametrize(("provider", "model", "choice"), [
    ("bedrock", "anthropic.claude-fable-5", "auto"),          # no forcing choice: nothing to say
    ("bedrock", "anthropic.claude-mythos-5", "required"),     # not recorded for Mythos 5
    ("bedrock", "anthropic.claude-opus-5", "required"),
    ("anthropic", "claude-fable-5", "required"),              # the Claude API takes it (claude-cookbooks#854: 25/25)
])
def test_nothing_is_warned_where_nothing_is_recorded(provider: str, model: str, choice: str) -> None:
    t = translated(provider, model, choice)
    assert not t.refused and not said(t, "tool_choice.model_refused")


@pytest.mark.parametrize("model", FABLE_5_1)
def test_fable_5_1_stays_refused_on_anthropics_word_and_is_not_also_warned(model: str) -> None:
    t = translated("bedrock", model, "required")
    assert t.refused and said(t, "thinking.forced_choice") and not said(t, "tool_choice.model_refused")


def ask(provider: str, body: dict[str, Any], path: str) -> tuple[int, Any, dict[str, Any]]:
    exchange = MockService(provider).handle("POST", path, {}, json.dumps(body).encode())
    return exchange.status, json.loads(exchange.body) if exchange.body else None, exchange.record


def converse(choice: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": [{"text": "Weather in Paris?"}]}],
            "toolConfig": {"tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": {"type": "object"}}}}],
                           "toolChoice": choice}, "inferenceConfig": {"maxTokens": 4096}}


@pytest.mark.parametrize("choice", [{"any": {}}, {"tool": {"name": "get_weather"}}])
def test_the_mock_answers_fable_5_on_converse_and_says_the_warning(choice: dict[str, Any]) -> None:
    """The data says warned, not refused: the mock answers 200 and lists the warning among its findings."""
    status, reply, record = ask("bedrock", converse(choice), "/model/us.anthropic.claude-fable-5/converse")
    assert status == 200 and reply["output"]["message"]["content"][0]["toolUse"]["name"] == "get_weather"
    [finding] = [f for f in record["findings"] if f["code"] == "tool_choice.model_refused"]
    assert finding["severity"] == "warning" and CONVERSE_WORDS in finding["message"]


@pytest.mark.parametrize("model", FABLE_5_1)
def test_the_mock_refuses_fable_5_1_on_converse_in_converses_recorded_words(model: str) -> None:
    status, reply, record = ask("bedrock", converse({"any": {}}), f"/model/{model}/converse")
    assert (status, reply) == (400, {"message": CONVERSE_WORDS})
    advice = [f for f in record["findings"] if f["code"] == "thinking.forced_choice"]
    assert advice and "tool_choice auto" in advice[0]["message"]  # toolchoice's advice stays a finding


def test_the_mock_refuses_fable_5_1_on_the_claude_api_in_its_recorded_words() -> None:
    status, reply, _ = ask("anthropic", {"model": "claude-fable-5-1", "max_tokens": 4096, "messages": USER,
                                         "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
                                         "tool_choice": {"type": "tool", "name": "get_weather"}}, "/v1/messages")
    assert status == 400 and reply["type"] == "error"
    assert reply["error"] == {"type": "invalid_request_error", "message": CLAUDE_API_WORDS}


def test_mythos_5_1_keeps_toolchoices_words_no_recording_names_it() -> None:
    status, reply, record = ask("anthropic", {"model": "claude-mythos-5-1", "max_tokens": 4096, "messages": USER,
                                              "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
                                              "tool_choice": {"type": "any"}}, "/v1/messages")
    refusing = [f for f in record["findings"] if f["code"] == "thinking.forced_choice"]
    assert status == 400 and refusing and reply["error"]["message"] == refusing[0]["message"]
