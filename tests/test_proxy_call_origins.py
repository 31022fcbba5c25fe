"""`toolchoice proxy` says the loop's breakages between steps as `mock` does (core/mock/call_origins.py): a result
that answers a call no answer through the proxy made (`proxy.result_unknown_call`) and a call an earlier answer made
that a later history carries without its result (`proxy.result_dropped`, said once) — but not where the upstream
itself refused that history (a 400 passed through: the API's own words say it). The openai SDK is the client, on
127.0.0.1; the upstream is `toolchoice mock` or a stand-in (tests/servers.py); the proxy runs in a thread."""

from __future__ import annotations

import pytest

from tests.servers import StandIn, Step, fixture
from tests.test_mock_call_origins import (CHAT_TOOLS, KEY, TWO_CALLS, USER, _codes, _finding, _valid, dropping_loop,
                                         rewriting_loop)
from tests.test_proxy_wire import _settled, proxied
from toolchoice.providers.core.mock.server import running_mock

LOOP_CODES = {"proxy.result_unknown_call", "proxy.result_dropped", "mock.result_unknown_call", "mock.result_dropped"}


def test_a_rewritten_id_through_the_proxy_is_a_result_of_no_call_the_proxy_saw_made() -> None:
    with running_mock("openai") as upstream, proxied("openai", upstream.base_url) as proxy:
        rewriting_loop(proxy.base_url)
        first, second = _settled(proxy, 2)
    assert second["status"] == 200  # the API took it: only the proxy can tell the loop lost the id
    assert second["results"] == [{"id": "call_rewritten_by_the_framework", "name": "get_weather", "from": None}]
    unknown = _finding(second, "proxy.result_unknown_call")
    assert unknown["severity"] == "warning"
    assert "call_rewritten_by_the_framework (get_weather)" in unknown["message"] and "proxy" in unknown["message"]
    assert not LOOP_CODES & set(_codes(first))
    assert "mock.result_unknown_call" not in _codes(second)  # the proxy's own line, in the proxy's words
    _valid([first, second])


def test_a_dropped_result_through_the_proxy_is_said_once() -> None:
    # groq: no recorded 400 for a dropped result, so the upstream answers and only the proxy says it
    with running_mock("groq", script=TWO_CALLS) as upstream, proxied("groq", upstream.base_url) as proxy:
        weather, time_call = dropping_loop(proxy.base_url)
        first, second, third = _settled(proxy, 3)
    assert second["status"] == 200 and second["results"] == [{"id": weather.id, "name": "get_weather", "from": 1}]
    dropped = _finding(second, "proxy.result_dropped")
    assert dropped["severity"] == "warning"
    assert f"{time_call.id} (get_time, made by #1)" in dropped["message"] and weather.id not in dropped["message"]
    assert "proxy.result_dropped" not in _codes(third)  # said once
    assert "proxy.result_unknown_call" not in _codes(second)
    _valid([first, second, third])


@pytest.mark.parametrize("status", [400, 422])
def test_an_upstream_that_refuses_the_history_says_it_and_the_proxy_does_not_say_it_again(status: int) -> None:
    """The API's refusal (passed through) is the finding; the call is said when a history carrying it is taken."""
    from openai import BadRequestError, OpenAI, UnprocessableEntityError

    parallel = fixture("openai", "openai-chat-parallel")  # a recorded answer with two calls, ids of the API's
    refusal = Step.error("groq", status, "stand-in: a call without its result")
    with StandIn("groq", Step(body=parallel), refusal) as upstream, \
            proxied("groq", upstream.base_url()) as proxy:
        client = OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        message = client.chat.completions.create(model="gpt-4o", messages=USER, tools=CHAT_TOOLS,
                                                 tool_choice="required").choices[0].message
        first_call, second_call = message.tool_calls
        unknown_turn = {"role": "assistant", "tool_calls": [{"id": "call_invented", "type": "function",
                                                             "function": {"name": "get_time", "arguments": "{}"}}]}
        history = USER + [message.model_dump(exclude_none=True),
                          {"role": "tool", "tool_call_id": first_call.id, "content": "sunny"},
                          unknown_turn, {"role": "tool", "tool_call_id": "call_invented", "content": "noon"}]
        with pytest.raises(BadRequestError if status == 400 else UnprocessableEntityError):
            client.chat.completions.create(model="gpt-4o", messages=history, tools=CHAT_TOOLS)
        client.chat.completions.create(model="gpt-4o", messages=history, tools=CHAT_TOOLS)  # a retry, taken
        _, refused, taken = _settled(proxy, 3)
    assert refused["status"] == status and "proxy.error" in _codes(refused)
    assert not LOOP_CODES & set(_codes(refused))
    assert taken["status"] == 200
    made = f"{second_call.id} ({second_call.function.name}, made by #1)"  # the recorded answer's second call
    assert made in _finding(taken, "proxy.result_dropped")["message"]
    assert "call_invented (get_time)" in _finding(taken, "proxy.result_unknown_call")["message"]
    _valid([refused, taken])


def test_where_the_familys_own_rule_refuses_a_dropped_result_that_finding_says_it_even_if_the_upstream_answers() -> None:
    """OpenAI's recorded 400 (fact openai.history_unanswered_call) is the translator's history.missing_tool_result,
    a warning in the proxy's line ("the API is expected to refuse this"): proxy.result_dropped does not say it again."""
    from openai import OpenAI

    with StandIn("openai", Step(body=fixture("openai", "openai-chat-parallel"))) as upstream, \
            proxied("openai", upstream.base_url()) as proxy:
        client = OpenAI(base_url=proxy.base_url, api_key=KEY, max_retries=0)
        message = client.chat.completions.create(model="gpt-4o", messages=USER, tools=CHAT_TOOLS,
                                                 tool_choice="required").choices[0].message
        first_call = message.tool_calls[0]
        client.chat.completions.create(model="gpt-4o", tools=CHAT_TOOLS, messages=USER + [
            message.model_dump(exclude_none=True), {"role": "tool", "tool_call_id": first_call.id, "content": "ok"},
            {"role": "user", "content": "go on"}])  # the loop went on past the call without its result
        _, second = _settled(proxy, 2)
    assert second["status"] == 200  # a stand-in that took it
    assert _finding(second, "history.missing_tool_result")["severity"] == "warning"
    assert not LOOP_CODES & set(_codes(second))
