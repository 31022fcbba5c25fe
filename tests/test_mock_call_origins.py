"""`toolchoice mock` follows an agent loop call by call, as `proxy` does: each call's `id` as the family's answer
carried it, and a request that sends results back gets `results` [{id, name, from}]. Truth from outside the code:
the official SDKs (and agent frameworks) read the mock's answers on 127.0.0.1, and the id they send back with the
result is the one they read; a result the mock never asked for (`mock.result_unknown_call`) and a call whose result
a later history drops (`mock.result_dropped`) are in the line, each said once. All in-process (`running_mock`)."""

from __future__ import annotations

import asyncio
import functools
import json
import re
import warnings
from importlib import resources
from typing import Any

import pytest

from toolchoice.providers.core.mock.script import Script, ScriptCall, Step
from toolchoice.providers.core.mock.server import running_mock

KEY = "sk-test-call-origins-0123456789"
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
CHAT_TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER}},
              {"type": "function", "function": {"name": "get_time", "parameters": WEATHER}}]
USER = [{"role": "user", "content": "Weather in Paris?"}]
TWO_CALLS = Script(replies=(Step(calls=(ScriptCall("get_weather"), ScriptCall("get_time"))),))


@functools.cache
def _mock_validator() -> Any:
    """The shipped schema, checked against its meta-schema once (``jsonschema.validate`` did it for every line)."""
    import jsonschema

    schema = json.loads(resources.files("toolchoice.cli").joinpath("schemas", "mock.schema.json").read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _valid(lines: list[dict[str, Any]]) -> None:
    for line in lines:
        _mock_validator().validate(line)


def _codes(line: dict[str, Any]) -> list[str]:
    return [f["code"] for f in line["findings"]]


def _finding(line: dict[str, Any], code: str) -> dict[str, Any]:
    (found,) = [f for f in line["findings"] if f["code"] == code]
    return found


# ---- every family: the id the SDK read is the line's, and the result it sends back is traced to its step ---------


@pytest.mark.parametrize("stream", [False, True])
def test_openai_chat_sdk_loop(stream: bool) -> None:
    from openai import OpenAI

    with running_mock("openai") as mock:
        client = OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        if stream:
            with client.chat.completions.stream(model="gpt-4o-mini", messages=USER, tools=CHAT_TOOLS,
                                                tool_choice="required") as events:
                message = events.get_final_completion().choices[0].message
        else:
            message = client.chat.completions.create(model="gpt-4o-mini", messages=USER, tools=CHAT_TOOLS,
                                                     tool_choice="required").choices[0].message
        (call,) = message.tool_calls
        history = USER + [message.model_dump(exclude_none=True),
                          {"role": "tool", "tool_call_id": call.id, "content": "sunny"}]
        client.chat.completions.create(model="gpt-4o-mini", messages=history, tools=CHAT_TOOLS)
    first, second = mock.records
    assert first["calls"][0]["id"] == call.id and "results" not in first
    assert second["results"] == [{"id": call.id, "name": "get_weather", "from": 1}]
    assert not {"mock.result_unknown_call", "mock.result_dropped"} & set(_codes(second))
    _valid([first, second])


def test_openai_responses_sdk_loop_pairs_by_call_id_not_item_id() -> None:
    from openai import OpenAI

    tools = [{"type": "function", "name": "get_weather", "parameters": WEATHER}]
    with running_mock("openai-responses") as mock:
        client = OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        first_reply = client.responses.create(model="gpt-4o-mini", input="Weather?", tools=tools,
                                              tool_choice="required")
        (item,) = first_reply.output
        assert item.id != item.call_id  # the item's id is not what a result answers
        client.responses.create(model="gpt-4o-mini", tools=tools, input=[
            {"role": "user", "content": "Weather?"}, item.model_dump(exclude_none=True),
            {"type": "function_call_output", "call_id": item.call_id, "output": "sunny"}])
    first, second = mock.records
    assert first["calls"][0]["id"] == item.call_id
    assert second["results"] == [{"id": item.call_id, "name": "get_weather", "from": 1}]
    _valid([first, second])


def test_anthropic_sdk_streamed_loop() -> None:
    import anthropic

    tools = [{"name": "get_weather", "input_schema": WEATHER}]
    with warnings.catch_warnings(), running_mock("anthropic") as mock:
        warnings.simplefilter("ignore", DeprecationWarning)
        client = anthropic.Anthropic(base_url=mock.base_url, api_key=KEY, max_retries=0)
        with client.messages.stream(model="claude-sonnet-4-5", max_tokens=1024, messages=USER, tools=tools,
                                    tool_choice={"type": "any"}) as events:
            reply = events.get_final_message()
        (use,) = [b for b in reply.content if b.type == "tool_use"]
        client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=USER + [
            {"role": "assistant", "content": reply.content},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "sunny"}]}])
    first, second = mock.records
    assert first["calls"][0]["id"] == use.id and use.id.startswith("toolu_")
    assert second["results"] == [{"id": use.id, "name": "get_weather", "from": 1}]
    _valid([first, second])


def test_botocore_converse_loop() -> None:
    import botocore.session

    config = {"tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": WEATHER}}}],
              "toolChoice": {"any": {}}}
    messages: list[dict[str, Any]] = [{"role": "user", "content": [{"text": "Weather?"}]}]
    with running_mock("bedrock") as mock:
        client = botocore.session.get_session().create_client(
            "bedrock-runtime", region_name="us-east-1", endpoint_url=mock.base_url,
            aws_access_key_id="AKIAMOCKEXAMPLE0001", aws_secret_access_key="mock-secret-0123456789")
        reply = client.converse(modelId="anthropic.claude-sonnet-4-5-20250929-v1:0", messages=messages,
                                toolConfig=config)
        said = reply["output"]["message"]
        use = said["content"][0]["toolUse"]
        messages += [said, {"role": "user", "content": [{"toolResult": {"toolUseId": use["toolUseId"],
                                                                        "content": [{"text": "sunny"}]}}]}]
        client.converse(modelId="anthropic.claude-sonnet-4-5-20250929-v1:0", messages=messages,
                        toolConfig={"tools": config["tools"]})
    first, second = mock.records
    assert first["calls"][0]["id"] == use["toolUseId"]
    assert second["results"] == [{"id": use["toolUseId"], "name": "get_weather", "from": 1}]
    _valid([first, second])


def test_cohere_and_mistral_sdk_loops() -> None:
    import cohere
    from mistralai.client import Mistral

    with running_mock("cohere") as mock:
        client = cohere.ClientV2(api_key=KEY, base_url=mock.base_url)
        reply = client.chat(model="command-a-03-2025", messages=USER, tools=CHAT_TOOLS, tool_choice="REQUIRED")
        (call,) = reply.message.tool_calls
        client.chat(model="command-a-03-2025", tools=CHAT_TOOLS, messages=USER + [
            {"role": "assistant", "tool_calls": [call.model_dump(exclude_none=True)]},
            {"role": "tool", "tool_call_id": call.id, "content": "sunny"}])
    first, second = mock.records
    assert first["calls"][0]["id"] == call.id
    assert second["results"] == [{"id": call.id, "name": "get_weather", "from": 1}]
    with running_mock("mistral") as mock:
        client = Mistral(api_key=KEY, server_url=mock.base_url.removesuffix("/v1"))
        reply = client.chat.complete(model="mistral-large-latest", messages=USER, tools=CHAT_TOOLS, tool_choice="any")
        message = reply.choices[0].message
        (call,) = message.tool_calls
        client.chat.complete(model="mistral-large-latest", tools=CHAT_TOOLS, messages=USER + [
            message.model_dump(exclude_none=True), {"role": "tool", "tool_call_id": call.id, "content": "sunny"}])
    first, second = mock.records
    # Mistral's ids: "Tool call id was ... but must be a-z, A-Z, 0-9, with a length of 9." (the API's 400 as quoted in
    # langchain-ai/langchain#24668; openai_chat_hosts.HOSTS id_rule alnum9): its answers carry none of another form
    assert re.fullmatch(r"[a-zA-Z0-9]{9}", call.id) and first["calls"][0]["id"] == call.id
    assert second["results"] == [{"id": call.id, "name": "get_weather", "from": 1}]
    _valid([first, second])


@pytest.mark.parametrize("provider", ["mistral", "gemini", "ollama"])
def test_toolchoice_run_against_the_mock_reads_as_its_own_loop(provider: str, tmp_path: Any) -> None:
    """toolchoice's own agent loop is a client that rewrites ids where a host requires (Mistral) and writes ids for
    calls that had none (Gemini, Ollama): every result it sends back is traced to the mock's step 1, none unknown."""
    from tests.cli import run_cli

    scenario = tmp_path / "loop.yaml"
    scenario.write_text("tools:\n  - name: get_weather\n"
                        "    parameters: {type: object, properties: {city: {type: string}}}\n"
                        "tool_choice: required\nmessages:\n  - {role: user, content: Weather?}\n"
                        "loop: {max_steps: 2, after_call: auto, results: {get_weather: sunny}}\n", encoding="utf-8")
    keys = {"MISTRAL_API_KEY": KEY, "GEMINI_API_KEY": KEY}
    with running_mock(provider) as mock:
        done = run_cli(["run", str(scenario), "-p", provider, "--base-url", mock.base_url, "--format", "json"],
                       env=keys)
    assert done.returncode == 0, done.stderr
    first, second = mock.records
    assert [(r["name"], r["from"]) for r in second["results"]] == [("get_weather", 1)]
    assert not {"mock.result_unknown_call", "mock.result_dropped", "history.ids_rewritten"} & set(_codes(second))


def test_gemini_and_ollama_calls_carry_no_id_and_their_results_are_traced_by_name() -> None:
    """google-genai's FunctionCall.id and ollama's ToolCall carry none from the mock: the line says null, and the
    result is paired by name as those APIs pair it."""
    import ollama
    from google import genai
    from google.genai import types

    with running_mock("gemini") as mock:
        client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=mock.base_url))
        config = types.GenerateContentConfig(
            tools=[types.Tool(function_declarations=[types.FunctionDeclaration(
                name="get_weather", parameters_json_schema=WEATHER)])],
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
        reply = client.models.generate_content(model="gemini-2.5-flash", contents="Weather?", config=config)
        (call,) = reply.function_calls
        client.models.generate_content(model="gemini-2.5-flash", config=config, contents=[
            types.Content(role="user", parts=[types.Part(text="Weather?")]), reply.candidates[0].content,
            types.Content(role="user", parts=[types.Part.from_function_response(name="get_weather",
                                                                              response={"output": "sunny"})])])
    first, second = mock.records
    assert call.id is None and first["calls"][0]["id"] is None
    (result,) = second["results"]
    assert (result["name"], result["from"]) == ("get_weather", 1)
    assert "mock.result_unknown_call" not in _codes(second)
    with running_mock("ollama") as mock:
        client = ollama.Client(host=mock.base_url)
        message = client.chat(model="llama3.2", messages=USER, tools=CHAT_TOOLS).message
        client.chat(model="llama3.2", tools=CHAT_TOOLS, messages=USER + [
            message, {"role": "tool", "content": "sunny", "tool_name": "get_weather"}])
    first_o, second_o = mock.records
    assert first_o["calls"][0]["id"] is None
    (result,) = second_o["results"]
    assert (result["name"], result["from"]) == ("get_weather", 1)
    _valid([first, second, first_o, second_o])


# ---- agent frameworks as the client -------------------------------------------------------------------------


@pytest.mark.parametrize("api", ["openai", "openai-responses"])
def test_an_openai_agents_loop_is_followed_step_by_step(api: str) -> None:
    from agents import (Agent, ModelSettings, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner, function_tool,
                        set_tracing_disabled)
    from openai import AsyncOpenAI

    set_tracing_disabled(True)

    @function_tool
    def get_weather(city: str) -> str:
        """The weather in a city."""
        return "sunny"

    with running_mock(api) as mock:
        client = AsyncOpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        kind = OpenAIResponsesModel if api == "openai-responses" else OpenAIChatCompletionsModel
        agent = Agent(name="weather", instructions="Answer.", tools=[get_weather], model=kind("gpt-4o-mini", client),
                      model_settings=ModelSettings(tool_choice="required"))
        result = asyncio.run(Runner.run(agent, "Weather in Paris?", max_turns=4))
    (sent,) = [item for item in result.new_items if item.type == "tool_call_item"]
    first, second = mock.records
    assert first["calls"][0]["id"] == sent.raw_item.call_id
    assert second["results"] == [{"id": sent.raw_item.call_id, "name": "get_weather", "from": 1}]
    assert not {"mock.result_unknown_call", "mock.result_dropped"} & set(_codes(second))
    _valid([first, second])


def test_two_agent_loops_sharing_the_mock_each_trace_their_own_calls() -> None:
    """Two openai-agents runs at once: their steps interleave on the mock, and each result is traced to the step of
    its own loop, with no result taken for unknown and no call for dropped."""
    from agents import (Agent, ModelSettings, OpenAIChatCompletionsModel, Runner, function_tool,
                        set_tracing_disabled)
    from openai import AsyncOpenAI

    set_tracing_disabled(True)

    @function_tool
    def get_weather(city: str) -> str:
        """The weather in a city."""
        return "sunny"

    async def both(agent: Any) -> None:
        await asyncio.gather(Runner.run(agent, "Weather in Paris?"), Runner.run(agent, "Weather in Oslo?"))

    with running_mock("openai") as mock:
        client = AsyncOpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        agent = Agent(name="weather", instructions="Answer.", tools=[get_weather],
                      model=OpenAIChatCompletionsModel("gpt-4o-mini", client),
                      model_settings=ModelSettings(tool_choice="required"))
        asyncio.run(both(agent))
    lines = mock.records
    made = {call["id"]: line["n"] for line in lines for call in line["calls"]}
    traced = [result for line in lines for result in line.get("results", [])]
    # two step 1s (calls) and two step 2s (results), in whatever order the two loops reach the mock (a step 1 answered
    # before the other loop's step 1 arrives sends its step 2 first: the order is the event loop's, not the check)
    assert sorted(bool(line["calls"]) for line in lines) == [False, False, True, True]
    assert len(made) == 2 and len(traced) == 2
    assert all(result["from"] == made[result["id"]] for result in traced)
    assert all(made[r["id"]] < line["n"] for line in lines for r in line.get("results", []))  # after its call
    assert not [code for line in lines for code in _codes(line) if code.startswith("mock.result_")]


def test_a_langchain_anthropic_loop_with_parallel_calls_traces_both_results() -> None:
    from langchain_anthropic import ChatAnthropic
    from langchain_core.messages import HumanMessage, ToolMessage

    tools = [{"name": "get_weather", "input_schema": WEATHER}, {"name": "get_time", "input_schema": WEATHER}]
    with warnings.catch_warnings(), running_mock("anthropic", script=TWO_CALLS) as mock:
        warnings.simplefilter("ignore", DeprecationWarning)
        model = ChatAnthropic(model="claude-sonnet-4-5", base_url=mock.base_url, api_key=KEY, max_retries=0)
        history: list[Any] = [HumanMessage("Weather and time in Paris?")]
        called = model.bind_tools(tools).invoke(history)
        history += [called] + [ToolMessage("ok", tool_call_id=c["id"]) for c in called.tool_calls]
        model.bind_tools(tools).invoke(history)
    first, second = mock.records
    ids = [c["id"] for c in called.tool_calls]
    assert [c["id"] for c in first["calls"]] == ids
    assert second["results"] == [{"id": ids[0], "name": "get_weather", "from": 1},
                                 {"id": ids[1], "name": "get_time", "from": 1}]


# ---- a result no call of the mock asked for ---------------------------------------------------------------------


def rewriting_loop(base_url: str) -> None:
    """Two steps of an openai SDK loop at ``base_url`` that send the first answer's call back under another id."""
    from openai import OpenAI

    client = OpenAI(base_url=base_url, api_key=KEY, max_retries=0)
    message = client.chat.completions.create(model="gpt-4o-mini", messages=USER, tools=CHAT_TOOLS,
                                             tool_choice="required").choices[0].message
    turn = message.model_dump(exclude_none=True)
    turn["tool_calls"][0]["id"] = "call_rewritten_by_the_framework"  # a framework that mangles ids
    client.chat.completions.create(model="gpt-4o-mini", tools=CHAT_TOOLS, messages=USER + [
        turn, {"role": "tool", "tool_call_id": "call_rewritten_by_the_framework", "content": "sunny"}])


def test_a_rewritten_id_and_a_replayed_history_are_results_of_no_call_the_mock_made() -> None:
    with running_mock("openai") as mock:
        rewriting_loop(mock.base_url)
    first, second = mock.records
    assert second["results"] == [{"id": "call_rewritten_by_the_framework", "name": "get_weather", "from": None}]
    unknown = _finding(second, "mock.result_unknown_call")
    assert unknown["severity"] == "warning" and "call_rewritten_by_the_framework" in unknown["message"]
    assert "history.result_without_call" not in _codes(second)  # its call is in the history: only this mock's
    _valid([first, second])


def test_a_gemini_result_for_a_function_the_mock_never_called_is_unknown() -> None:
    import httpx

    body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]},
                         {"role": "model", "parts": [{"functionCall": {"name": "get_time", "args": {}}}]},
                         {"role": "user", "parts": [{"functionResponse": {"name": "get_time", "response": {}}}]}],
            "tools": [{"functionDeclarations": [{"name": "get_time", "parameters": WEATHER}]}]}
    with running_mock("gemini") as mock:
        httpx.post(mock.base_url + "/v1beta/models/gemini-2.5-flash:generateContent", json=body,
                   headers={"x-goog-api-key": KEY}, timeout=10)
    (line,) = mock.records
    assert [(r["name"], r["from"]) for r in line["results"]] == [("get_time", None)]
    assert "mock.result_unknown_call" in _codes(line)


# ---- a call the mock made whose result a later history drops: said once ----------------------------------------


def dropping_loop(base_url: str) -> tuple[Any, Any]:
    """Three steps of an openai SDK loop at ``base_url``: two calls answered, the second's result left out of the
    second request, then the loop going on; the two calls as the SDK read them."""
    from openai import OpenAI

    client = OpenAI(base_url=base_url, api_key=KEY, max_retries=0)
    message = client.chat.completions.create(model="gpt-4o-mini", messages=USER, tools=CHAT_TOOLS,
                                             tool_choice="required").choices[0].message
    weather, time_call = message.tool_calls
    history = USER + [message.model_dump(exclude_none=True),
                      {"role": "tool", "tool_call_id": weather.id, "content": "sunny"}]  # get_time's is dropped
    answer = client.chat.completions.create(model="gpt-4o-mini", messages=history, tools=CHAT_TOOLS)
    history += [answer.choices[0].message.model_dump(exclude_none=True), {"role": "user", "content": "And?"}]
    client.chat.completions.create(model="gpt-4o-mini", messages=history, tools=CHAT_TOOLS)
    return weather, time_call


def test_a_dropped_result_is_said_once_and_the_next_steps_do_not_repeat_it(capsys: Any) -> None:
    from toolchoice.cli.mock_cmd import _pretty

    # groq: no recorded 400 for a dropped result (OpenAI's and Azure's own refuse the third request:
    # tests/test_history_pairing.py)
    with running_mock("groq", script=TWO_CALLS) as mock:
        weather, time_call = dropping_loop(mock.base_url)
    first, second, third = mock.records
    assert second["results"] == [{"id": weather.id, "name": "get_weather", "from": 1}]
    dropped = _finding(second, "mock.result_dropped")
    assert dropped["severity"] == "warning"
    assert time_call.id in dropped["message"] and "get_time" in dropped["message"] and "#1" in dropped["message"]
    assert weather.id not in dropped["message"]
    assert "mock.result_dropped" not in _codes(third)  # said once
    _valid([first, second, third])
    _pretty(second)  # `toolchoice mock`'s pretty line, as the proxy's
    (printed,) = capsys.readouterr().out.splitlines()
    assert f"results {weather.id}←#1  findings: " in printed and printed.endswith("warning mock.result_dropped")


# A Gemini turn with two calls answered by one functionResponse is the API's 400 (fact gemini.history_response_parts):
# tests/test_history_pairing.py holds it, with mock.result_dropped left out as for Anthropic


def test_anthropic_refuses_a_dropped_result_and_the_mock_does_not_say_it_twice() -> None:
    """Anthropic's own rule (history.missing_tool_result, the translator's) refuses it: that refusal says it."""
    import anthropic

    tools = [{"name": "get_weather", "input_schema": WEATHER}, {"name": "get_time", "input_schema": WEATHER}]
    with warnings.catch_warnings(), running_mock("anthropic", script=TWO_CALLS) as mock:
        warnings.simplefilter("ignore", DeprecationWarning)
        client = anthropic.Anthropic(base_url=mock.base_url, api_key=KEY, max_retries=0)
        reply = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=USER, tools=tools)
        first_use = reply.content[0]
        with pytest.raises(anthropic.BadRequestError):
            client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, tools=tools, messages=USER + [
                {"role": "assistant", "content": reply.content},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": first_use.id, "content": "ok"},
                                             {"type": "text", "text": "go on"}]}])
    _, second = mock.records
    assert second["status"] == 400 and "history.missing_tool_result" in _codes(second)
    assert "mock.result_dropped" not in _codes(second)
    assert second["results"] == [{"id": first_use.id, "name": "get_weather", "from": 1}]


def test_a_replayed_history_of_many_unknown_results_is_one_short_finding() -> None:
    import httpx

    calls = [{"id": f"call_elsewhere_{i}", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
             for i in range(40)]
    history = USER + [{"role": "assistant", "content": None, "tool_calls": calls}] + [
        {"role": "tool", "tool_call_id": call["id"], "content": "ok"} for call in calls]
    with running_mock("openai") as mock:
        httpx.post(mock.base_url + "/chat/completions", json={"model": "m", "messages": history, "tools": CHAT_TOOLS},
                   timeout=10)
    (line,) = mock.records
    assert [r["from"] for r in line["results"]] == [None] * 40
    unknown = _finding(line, "mock.result_unknown_call")["message"]
    assert "call_elsewhere_4 " in unknown and "call_elsewhere_5 " not in unknown and "and 35 more" in unknown
