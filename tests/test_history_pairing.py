"""A history whose tool call has no result after it: refused before sending, and answered by the mock, in the API's
own words and envelope where a recorded 400 says the API refuses it (OpenAI Chat Completions and Azure, Responses,
Gemini; facts openai.history_unanswered_call, openai.history_result_without_call,
openai-responses.history_unanswered_call, gemini.history_response_parts), unchanged where none does. The expected
words and fields are the recorded bodies' (the issues the facts cite), written out here. All in-process."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from toolchoice.providers.core.mock.script import Script, ScriptCall, Step
from toolchoice.providers.core.mock.server import running_mock
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario_text

KEY = "sk-test-history-pairing-0123456789"
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
TOOLS = [{"name": "get_weather", "parameters": WEATHER}, {"name": "get_time", "parameters": WEATHER}]
TWO_CALLS = {"role": "assistant", "tool_calls": [{"id": "call_a", "name": "get_weather", "arguments": {"city": "Paris"}},
                                                 {"id": "call_b", "name": "get_time", "arguments": {"city": "Paris"}}]}
RESULT_A = {"role": "tool", "tool_call_id": "call_a", "content": "sunny"}
RESULT_B = {"role": "tool", "tool_call_id": "call_b", "content": "noon"}
USER = {"role": "user", "content": "Weather and time in Paris?"}
NEXT = {"role": "user", "content": "And tomorrow?"}
CHAT_WORDS = ("An assistant message with 'tool_calls' must be followed by tool messages responding to each "
              "'tool_call_id'. The following tool_call_ids did not have response messages: ")
GEMINI_WORDS = ("Please ensure that the number of function response parts is equal to the number of function call "
                "parts of the function call turn.")


def _render(provider: str, messages: list[dict[str, Any]], **top: Any) -> Any:
    data = {"tools": TOOLS, "messages": messages, **top}
    return translate(provider, load_scenario_text(json.dumps(data), "pairing.yaml"))


def _entries(translation: Any, code: str) -> list[Any]:
    return [e for e in translation.ledger if e.code == code]


# ---- render: refused before sending, the API's words quoted --------------------------------------------------------


@pytest.mark.parametrize("provider", ["openai", "azure"])
def test_chat_refuses_a_call_without_its_result_in_the_api_words(provider: str) -> None:
    t = _render(provider, [USER, TWO_CALLS, RESULT_A, NEXT], system="Be brief.")
    assert t.refused
    (entry,) = _entries(t, "history.missing_tool_result")
    assert entry.severity == "error"
    assert CHAT_WORDS + "call_b" in entry.message
    assert "messages.[4].role" in entry.message  # the system message is messages[0] on the wire


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "gemini"])
def test_a_history_that_pairs_or_ends_with_the_calls_is_sent(provider: str) -> None:
    for messages in ([USER, TWO_CALLS, RESULT_A, RESULT_B, NEXT], [USER, TWO_CALLS]):
        t = _render(provider, messages)
        assert not t.refused and not _entries(t, "history.missing_tool_result")


@pytest.mark.parametrize("provider", ["groq", "vllm", "llamacpp", "ollama", "cohere"])
def test_hosts_with_no_recorded_refusal_are_unchanged(provider: str) -> None:
    t = _render(provider, [USER, TWO_CALLS, RESULT_A, NEXT])
    assert not _entries(t, "history.missing_tool_result")


def test_mistral_refuses_a_call_without_its_result_in_its_own_words() -> None:
    t = _render("mistral", [USER, TWO_CALLS, RESULT_A, NEXT])
    assert t.refused
    (entry,) = _entries(t, "history.missing_tool_result")
    assert "\"Not the same number of function calls and responses\"" in entry.message


def test_responses_refuses_a_call_without_its_output_in_the_api_words() -> None:
    t = _render("openai-responses", [USER, TWO_CALLS, RESULT_A, NEXT])
    assert t.refused
    (entry,) = _entries(t, "history.missing_tool_result")
    assert "No tool output found for function call call_b." in entry.message and "param input" in entry.message


def test_gemini_refuses_a_turn_with_fewer_responses_than_calls_in_the_api_words() -> None:
    t = _render("gemini", [USER, TWO_CALLS, RESULT_A, NEXT])
    assert t.refused
    (entry,) = _entries(t, "history.missing_tool_result")
    assert GEMINI_WORDS in entry.message and "INVALID_ARGUMENT" in entry.message


# ---- the mock: the same words in the API's envelope -----------------------------------------------------------------

CHAT_TOOLS = [{"type": "function", "function": {"name": t["name"], "parameters": WEATHER}} for t in TOOLS]
WIRE_CALLS = {"role": "assistant", "content": None, "tool_calls": [
    {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
    {"id": "call_b", "type": "function", "function": {"name": "get_time", "arguments": "{\"city\": \"Paris\"}"}}]}


def _codes(line: dict[str, Any]) -> list[str]:
    return [f["code"] for f in line["findings"]]


def test_the_chat_mock_answers_the_recorded_400_and_does_not_also_say_dropped() -> None:
    script = Script(replies=(Step(calls=(ScriptCall("get_weather"), ScriptCall("get_time"))),))
    with running_mock("openai", script=script) as mock:
        url = mock.base_url + "/chat/completions"
        made = httpx.post(url, json={"model": "gpt-5.4-mini", "messages": [USER], "tools": CHAT_TOOLS},
                          headers={"authorization": f"Bearer {KEY}"}).json()["choices"][0]["message"]
        first, second = made["tool_calls"]
        messages = [USER, made, {"role": "tool", "tool_call_id": first["id"], "content": "sunny"}, NEXT]
        answer = httpx.post(url, json={"model": "gpt-5.4-mini", "messages": messages, "tools": CHAT_TOOLS},
                            headers={"authorization": f"Bearer {KEY}"})
    assert answer.status_code == 400
    assert answer.json() == {"error": {"message": CHAT_WORDS + second["id"], "type": "invalid_request_error",
                                       "param": "messages.[3].role", "code": None}}
    line = mock.records[1]
    assert "history.missing_tool_result" in _codes(line) and "mock.result_dropped" not in _codes(line)


def test_the_chat_mock_answers_a_tool_message_without_its_call_as_recorded() -> None:
    with running_mock("azure") as mock:
        answer = httpx.post(mock.base_url + "/chat/completions", json={"messages": [
            USER, {"role": "tool", "tool_call_id": "call_x", "content": "sunny"}]}, headers={"api-key": KEY})
    assert answer.status_code == 400
    assert answer.json() == {"error": {
        "message": "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
                   "'tool_calls'.", "type": "invalid_request_error", "param": "messages.[1].role", "code": None}}


@pytest.mark.parametrize("provider, refusal", [
    # Mistral's recorded 400 (camel-ai/camel#1467, mistralai/client-ts#106)
    ("mistral", {"object": "error", "message": "Not the same number of function calls and responses",
                 "type": "invalid_request_error", "param": None, "code": None}),
    ("groq", None),  # no recorded refusal: answered as before
])
def test_other_chat_hosts_answer_a_dropped_result_as_recorded_or_as_before(provider: str, refusal: Any) -> None:
    with running_mock(provider) as mock:
        answer = httpx.post(mock.base_url + "/chat/completions", json={
            "model": "some-model", "messages": [USER, WIRE_CALLS, NEXT], "tools": CHAT_TOOLS},
            headers={"authorization": f"Bearer {KEY}"})
    assert answer.status_code == (400 if refusal else 200)
    if refusal:
        assert answer.json() == refusal


@pytest.mark.parametrize("items, words", [
    ([USER, {"type": "function_call", "call_id": "call_a", "name": "get_weather", "arguments": "{}"}, NEXT],
     "No tool output found for function call call_a."),
    ([USER, {"type": "function_call_output", "call_id": "call_z", "output": "sunny"}],
     "No tool call found for function call output with call_id call_z."),
])
def test_the_responses_mock_answers_the_recorded_400(items: list[Any], words: str) -> None:
    with running_mock("openai-responses") as mock:
        answer = httpx.post(mock.base_url + "/responses", json={"model": "gpt-5.4-mini", "input": items},
                            headers={"authorization": f"Bearer {KEY}"})
    assert answer.status_code == 400
    assert answer.json() == {"error": {"message": words, "type": "invalid_request_error", "param": "input",
                                       "code": None}}


def test_the_responses_mock_takes_an_output_for_a_call_of_the_previous_response() -> None:
    with running_mock("openai-responses") as mock:
        answer = httpx.post(mock.base_url + "/responses", json={
            "model": "gpt-5.4-mini", "previous_response_id": "resp_1",
            "input": [{"type": "function_call_output", "call_id": "call_z", "output": "sunny"}]},
            headers={"authorization": f"Bearer {KEY}"})
    assert answer.status_code == 200


def test_the_responses_mock_takes_an_input_that_ends_with_a_function_and_a_custom_tool_call() -> None:
    """Calls the input ends with are the next turn's to answer (the fact's 'when other input follows it'): a custom
    tool call (openai 3.57.0 response_custom_tool_call_param.py) made beside a function call is one of them."""
    with running_mock("openai-responses") as mock:
        answer = httpx.post(mock.base_url + "/responses", json={"model": "gpt-5.4-mini", "input": [
            USER, {"type": "function_call", "call_id": "call_a", "name": "get_weather", "arguments": "{}"},
            {"type": "custom_tool_call", "call_id": "call_b", "name": "grep", "input": "x"}]},
            headers={"authorization": f"Bearer {KEY}"})
    assert answer.status_code == 200


@pytest.mark.parametrize("reference", [
    {"type": "item_reference", "id": "fc_1"},  # openai 3.57.0 response_input_param.py ItemReference
    {"id": "fc_1"},  # its type is Optional there: an id alone is a reference too
])
def test_the_responses_mock_takes_an_output_for_a_call_held_by_an_item_reference(reference: dict[str, Any]) -> None:
    """An item_reference names a stored item (here the function_call) the mock cannot see: the API has the call, so
    neither of its pairing 400s may be answered."""
    with running_mock("openai-responses") as mock:
        answer = httpx.post(mock.base_url + "/responses", json={
            "model": "gpt-5.4-mini",
            "input": [USER, reference, {"type": "function_call_output", "call_id": "call_z", "output": "sunny"}]},
            headers={"authorization": f"Bearer {KEY}"})
    assert answer.status_code == 200


def test_the_gemini_mock_answers_the_recorded_400_for_one_response_to_two_calls() -> None:
    tools = [{"functionDeclarations": [{"name": t["name"], "parameters": WEATHER} for t in TOOLS]}]
    script = Script(replies=(Step(calls=(ScriptCall("get_weather"), ScriptCall("get_time"))),))
    with running_mock("gemini", script=script) as mock:
        url = mock.base_url + "/v1beta/models/gemini-2.5-flash:generateContent"
        user = {"role": "user", "parts": [{"text": "hi"}]}
        made = httpx.post(url, json={"contents": [user], "tools": tools}, headers={"x-goog-api-key": KEY}).json()
        turn = made["candidates"][0]["content"]
        answered = {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {}}}]}
        answer = httpx.post(url, json={"contents": [user, turn, answered], "tools": tools},
                            headers={"x-goog-api-key": KEY})
    assert answer.status_code == 400
    assert answer.json() == {"error": {"code": 400, "message": GEMINI_WORDS, "status": "INVALID_ARGUMENT"}}
    line = mock.records[1]
    assert "history.missing_tool_result" in _codes(line) and "mock.result_dropped" not in _codes(line)


# ---- DeepSeek: a tool message with no assistant tool_calls before it (fact deepseek.history_result_without_call) ----
# The recorded body (itmisx/deepx-code#94, the raw JSON; the same fields in FoundationAgents/OpenManus#23 and
# agentscope-ai/agentscope-go#7)
DEEPSEEK_WORDS = "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'"
# its words for calls not all answered right after them (TurixAI/TuriX-CUA#15's raw JSON; fact
# deepseek.history_unanswered_call, tested below)
DEEPSEEK_UNANSWERED = ("An assistant message with 'tool_calls' must be followed by tool messages responding to each "
                       "'tool_call_id'. (insufficient tool messages following tool_calls message)")
ONE_CALL = {"role": "assistant", "tool_calls": [{"id": "call_a", "name": "get_weather", "arguments": {"city": "Paris"}}]}


def _ask_deepseek_mock(messages: list[Any]) -> httpx.Response:
    with running_mock("deepseek") as mock:
        return httpx.post(mock.base_url + "/chat/completions", json={  # thinking off: the calls carry no
            "model": "deepseek-v4-flash", "messages": messages, "tools": CHAT_TOOLS,  # reasoning_content to send back
            "thinking": {"type": "disabled"}},
            headers={"authorization": f"Bearer {KEY}"})


# A scenario holds a tool message after no tool_calls only with another message between it and its call (a second
# result for one call is refused as input), so render meets it only with both faults: the test below, by the calls.


def test_deepseek_sends_a_paired_history() -> None:
    t = _render("deepseek", [USER, TWO_CALLS, RESULT_A, RESULT_B, NEXT])
    assert not t.refused and not _entries(t, "history.result_without_call")


@pytest.mark.parametrize("messages, words", [
    ([USER, {"role": "tool", "tool_call_id": "call_x", "content": "sunny"}], DEEPSEEK_WORDS),
    ([USER, WIRE_CALLS, {"role": "tool", "tool_call_id": "call_a", "content": "sunny"},
      {"role": "tool", "tool_call_id": "call_b", "content": "noon"}, NEXT,
      {"role": "tool", "tool_call_id": "call_b", "content": "noon"}], DEEPSEEK_WORDS),
    ([USER, WIRE_CALLS, {"role": "tool", "tool_call_id": "call_a", "content": "sunny"}, NEXT], DEEPSEEK_UNANSWERED),
    ([USER, WIRE_CALLS, {"role": "tool", "tool_call_id": "call_a", "content": "sunny"}, NEXT,
      {"role": "tool", "tool_call_id": "call_b", "content": "noon"}], DEEPSEEK_UNANSWERED),  # both faults: the calls'
])
def test_the_deepseek_mock_answers_its_two_history_refusals_as_recorded(messages: list[Any], words: str) -> None:
    answer = _ask_deepseek_mock(messages)
    assert answer.status_code == 400
    assert answer.json() == {"error": {"message": words, "type": "invalid_request_error", "param": None,
                                       "code": "invalid_request_error"}}


def test_the_deepseek_mock_answers_a_paired_history() -> None:
    messages = [USER, WIRE_CALLS, {"role": "tool", "tool_call_id": "call_a", "content": "sunny"},
                {"role": "tool", "tool_call_id": "call_b", "content": "noon"}, NEXT]
    answer = _ask_deepseek_mock(messages)
    assert answer.status_code == 200


# ---- Gemini: responses named and ordered otherwise than the calls --------------------------------------------------
# No recorded API 400 for a functionResponse in another order than the calls (router-for-me/CLIProxyAPI#5199: the
# "does not match functionCall.id" 400 was the proxy's own check, not Google's), so the history is sent as written.
# A functionResponse whose name matches no call cannot be written in a scenario (its name is the call's tool's).


def test_gemini_sends_responses_in_another_order_than_the_calls() -> None:
    t = _render("gemini", [USER, TWO_CALLS, RESULT_B, RESULT_A, NEXT])
    assert not t.refused and not _entries(t, "history.missing_tool_result")


def test_the_gemini_mock_answers_responses_in_another_order_than_the_calls() -> None:
    tools = [{"functionDeclarations": [{"name": t["name"], "parameters": WEATHER} for t in TOOLS]}]
    user = {"role": "user", "parts": [{"text": "hi"}]}
    calls = {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
                                        {"functionCall": {"name": "get_time", "args": {"city": "Paris"}}}]}
    answered = {"role": "user", "parts": [{"functionResponse": {"name": "get_time", "response": {"output": "noon"}}},
                                          {"functionResponse": {"name": "get_weather", "response": {"output": "sun"}}}]}
    with running_mock("gemini") as mock:
        answer = httpx.post(mock.base_url + "/v1beta/models/gemini-2.5-flash:generateContent",
                            json={"contents": [user, calls, answered], "tools": tools}, headers={"x-goog-api-key": KEY})
    assert answer.status_code == 200


# ---- DeepSeek: calls not all answered by the tool messages right after them (deepseek.history_unanswered_call) ------
# The recorded body (TurixAI/TuriX-CUA#15, the raw JSON; the same in 0xPlaygrounds/rig#856, bytedance/deer-flow#2706).
# A history with both faults (calls, another message, then their results) gets this refusal, not the one above: the
# shape gptme/gptme#3421 records (assistant tool_calls, a system message, the tool message) drew these words.


@pytest.mark.parametrize("messages", [
    [USER, TWO_CALLS, RESULT_A, NEXT],
    [USER, ONE_CALL, NEXT, RESULT_A],  # both faults: the calls' refusal
])
def test_deepseek_refuses_calls_not_all_answered_right_after_in_its_words(messages: list[Any]) -> None:
    t = _render("deepseek", messages, system="Be brief.")
    assert t.refused
    (entry,) = [e for e in t.ledger if e.severity == "error"]
    assert entry.code == "history.missing_tool_result"
    assert f"\"{DEEPSEEK_UNANSWERED}\"" in entry.message and "invalid_request_error" in entry.message


def test_deepseek_sends_a_history_that_ends_with_the_calls() -> None:
    for messages in ([USER, TWO_CALLS], [USER, TWO_CALLS, RESULT_A]):
        t = _render("deepseek", messages)
        assert not t.refused and not _entries(t, "history.missing_tool_result")


def test_the_deepseek_mock_answers_a_history_that_ends_with_the_calls() -> None:
    answer = _ask_deepseek_mock([USER, WIRE_CALLS, {"role": "tool", "tool_call_id": "call_a", "content": "sunny"}])
    assert answer.status_code == 200


# Every recorded DeepSeek 400 body carries code "invalid_request_error": olimorris/codecompanion.nvim#1378 (raw JSON),
# ConardLi/easy-dataset#9, JohnnyZ93/oai-compatible-copilot#202, gptme/gptme#918, qwersyk/Newelle#404.
@pytest.mark.parametrize("words", [
    "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    "Model Not Exist",
])
def test_the_deepseek_mock_envelope_carries_code_invalid_request_error_for_every_400(words: str) -> None:
    from toolchoice.providers.openai_chat_mock import mock_error

    body, _ = mock_error(400, words, "deepseek")
    assert body == {"error": {"message": words, "type": "invalid_request_error", "param": None,
                              "code": "invalid_request_error"}}


def test_send_refuses_the_deepseek_history_before_sending_with_strict_at_the_mocks_base_url(tmp_path: Any) -> None:
    """At a base URL that replaces api.deepseek.com the refusal is a warning (core/host_rules.py): the mock, which
    stands in for DeepSeek, answers the same 400; --strict refuses it before sending."""
    import os

    from cli import run_cli  # tests/cli.py: the command in-process

    path = tmp_path / "pairing.json"
    path.write_text(json.dumps({"tools": TOOLS, "messages": [USER, TWO_CALLS, RESULT_A, NEXT]}), encoding="utf-8")
    with running_mock("deepseek") as mock:
        result = run_cli(["send", str(path), "-p", "deepseek", "--base-url", mock.base_url, "-f", "json", "--strict"],
                         env={**os.environ, "DEEPSEEK_API_KEY": KEY})
        assert mock.records == []
        data = json.loads(result.stdout)
        assert data["request"] is None and "history.missing_tool_result" in [e["code"] for e in data["ledger"]]
        assert DEEPSEEK_UNANSWERED in result.stdout and KEY not in result.stdout + result.stderr
        sent = run_cli(["send", str(path), "-p", "deepseek", "--base-url", mock.base_url, "-f", "json"],
                       env={**os.environ, "DEEPSEEK_API_KEY": KEY})
        assert len(mock.records) == 1 and mock.records[0]["status"] == 400
    data = json.loads(sent.stdout)
    [warned] = [e for e in data["ledger"] if e["code"] == "history.missing_tool_result"]
    assert warned["severity"] == "warning" and DEEPSEEK_UNANSWERED in warned["message"]
    assert data["status"] == 400 and DEEPSEEK_UNANSWERED in json.dumps(data["error"])
    assert KEY not in sent.stdout + sent.stderr
