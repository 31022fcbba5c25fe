"""`toolchoice mock -p mistral` refuses a history whose tool-call ids are not 9 of [a-zA-Z0-9], as the API does.

Truth from outside the code: the API's 400 as recorded in tests/data/responses/errors/error-mistral-400-tool-call-id.json
(zed-industries/zed#53034, 2026-04-03: {"object": "error", "message": "Tool call id was ... but must be a-z, A-Z, 0-9,
with a length of 9.", "type": "invalid_function_call", "param": null, "code": "3280", "raw_status_code": 400}; the same
words in langchain-ai/langchain#24668), read by the official mistralai SDK on 127.0.0.1; openai-python against the
OpenAI mock, a host with no id rule, gets the same history answered. All in-process (`running_mock`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolchoice.providers.core.mock.server import running_mock

KEY = "sk-test-mistral-ids-0123456789"
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER}}]
RECORDED = json.loads((Path(__file__).parent / "data" / "responses" / "errors" / "error-mistral-400-tool-call-id.json")
                      .read_text(encoding="utf-8"))
RECORDED_ID = "toolu_01VpEm654HvfMoRcrE3Hgdc6"  # the id the recorded body names


def _history(call_id: str, result_id: str | None = None) -> list[dict[str, Any]]:
    return [{"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": "", "tool_calls": [
                {"id": call_id, "type": "function",
                 "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}}]},
            {"role": "tool", "name": "get_weather", "tool_call_id": result_id or call_id, "content": "sunny"}]


def _mistral_error(messages: list[dict[str, Any]]) -> tuple[Any, list[dict[str, Any]]]:
    from mistralai.client import Mistral
    from mistralai.client.errors import SDKError

    with running_mock("mistral") as mock:
        client = Mistral(api_key=KEY, server_url=mock.base_url.removesuffix("/v1"))
        with pytest.raises(SDKError) as caught:
            client.chat.complete(model="mistral-large-latest", messages=messages, tools=TOOLS)
    return caught.value, mock.records


@pytest.mark.parametrize("call_id", [RECORDED_ID, "call_abc123", "abc12345", "abc1234567", "abc-12345"])
def test_mistral_mock_refuses_a_call_id_not_of_nine_alphanumerics_with_the_recorded_400(call_id: str) -> None:
    pytest.importorskip("mistralai")
    error, records = _mistral_error(_history(call_id))
    assert error.status_code == 400
    body = json.loads(error.body)
    assert body == {**RECORDED, "message": RECORDED["message"].replace(RECORDED_ID, call_id)}, body
    (line,) = records
    assert line["status"] == 400
    refused = [f for f in line["findings"] if f["code"] == "mock.refused"]
    assert [f["message"] for f in refused] == [body["message"]]


def test_render_still_rewrites_such_ids_before_sending() -> None:
    """The translator's fix stays: what toolchoice sends to Mistral carries 9-alphanumeric ids, said in the ledger."""
    from toolchoice.providers.core.model import RenderOptions
    from toolchoice.providers.core.registry import translate
    from toolchoice.providers.core.scenario_dict import load_scenario_dict

    scenario = load_scenario_dict({"tools": [{"name": "get_weather", "parameters": WEATHER}], "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant",
         "tool_calls": [{"id": RECORDED_ID, "name": "get_weather", "arguments": {"city": "Paris"}}]},
        {"role": "tool", "tool_call_id": RECORDED_ID, "content": "sunny"}]})
    translation = translate("mistral", scenario, RenderOptions(model="mistral-large-latest"))
    sent = [m for m in translation.request.body["messages"] if m["role"] in ("assistant", "tool")]
    assert "history.ids_rewritten" in [e.code for e in translation.ledger]
    assert all(len(i) == 9 and i.isalnum() and i.isascii() for i in
               [m["tool_calls"][0]["id"] if m["role"] == "assistant" else m["tool_call_id"] for m in sent])


def test_the_first_wrong_id_in_message_order_is_named_a_tool_result_s_too() -> None:
    """A tool message's tool_call_id is held to the same rule (mistral-common 1.13.1 protocol/instruct/validator.py
    MistralRequestValidatorV3._validate_tool_message_id: the same words); the API checks the messages in order."""
    pytest.importorskip("mistralai")
    error, _ = _mistral_error(_history("Abc123xyz", result_id="call_result_1"))
    assert error.status_code == 400
    assert json.loads(error.body)["message"] == ("Tool call id was call_result_1 but must be a-z, A-Z, 0-9, with a "
                                                 "length of 9.")


def test_mistral_mock_answers_a_history_of_nine_alphanumerics() -> None:
    pytest.importorskip("mistralai")
    from mistralai.client import Mistral

    with running_mock("mistral") as mock:
        client = Mistral(api_key=KEY, server_url=mock.base_url.removesuffix("/v1"))
        reply = client.chat.complete(model="mistral-large-latest", messages=_history("Abc123xyz"), tools=TOOLS)
    assert reply.choices[0].message is not None
    (line,) = mock.records
    assert line["status"] == 200 and "history.ids_rewritten" not in [f["code"] for f in line["findings"]]


def test_a_host_without_an_id_rule_answers_the_same_history() -> None:
    """openai_chat_hosts.HOSTS: only Mistral has an id rule; OpenAI's ids are its own 'call_...' form."""
    from openai import OpenAI

    with running_mock("openai") as mock:
        client = OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        reply = client.chat.completions.create(model="gpt-4o-mini", messages=_history(RECORDED_ID), tools=TOOLS)
    assert reply.choices[0].message is not None
    (line,) = mock.records
    assert line["status"] == 200


def test_an_unanswered_call_is_refused_before_its_id_is_read() -> None:
    """mistral-common 1.13.1 validate_messages: the list's structure ('Not the same number of function calls and
    responses', the recorded 400 in tests/test_history_pairing.py) before each message's content (the id)."""
    pytest.importorskip("mistralai")
    error, _ = _mistral_error(_history("call_abc123")[:2] + [{"role": "user", "content": "And Rome?"}])
    assert json.loads(error.body)["message"] == "Not the same number of function calls and responses"
