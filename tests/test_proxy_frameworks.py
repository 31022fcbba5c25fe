"""More agent frameworks as real clients of `toolchoice proxy` in front of `toolchoice mock`, on 127.0.0.1: the
tool_choice each sends per step (in OpenAI's spelling), the tools it offers, the call ids it carries back with
results, and the proxy's reading of them (tests/test_proxy_wire.py has openai-agents, pydantic-ai, LangChain).

smolagents, haystack-ai and agno are imported only here, so one worker pays for them (~0.23, ~0.28 and ~0.27 s of
CPU with openai already loaded, `python -X importtime`, 2026-11-27); the module-level `openai` import keeps this file
with the SDK tests (tests/conftest.py). Neither haystack nor agno reports telemetry from here (both are turned off;
a run of this file under an audit hook connected to nothing but 127.0.0.1)."""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import openai  # noqa: F401  (the frameworks' own client; see the docstring)
import pytest

from tests.test_proxy_wire import KEY, _settled, _valid
from toolchoice.providers.core.mock.proxy import ProxyHandler
from toolchoice.providers.core.mock.script import load_script
from toolchoice.providers.core.mock.server import Running, Server, running_mock

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
NAMED = {"type": "function", "function": {"name": "get_weather"}}


@contextmanager
def saving_proxy(upstream: str, folder: Path) -> Iterator[Running]:
    """The proxy with `--save`: the request bodies as the framework sent them, to read the history on the wire."""
    handler = ProxyHandler("openai", upstream, folder)
    with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
        yield proxy


def _script(folder: Path, text: str) -> Any:
    path = folder / "steps.yaml"
    path.write_text(text, encoding="utf-8")
    return load_script(path)


def _sent(folder: Path, n: int) -> dict[str, Any]:
    body: dict[str, Any] = json.loads((folder / f"sample-{n:03d}.request.json").read_text(encoding="utf-8"))["body"]
    return body


def _codes(line: dict[str, Any]) -> list[str]:
    return [f["code"] for f in line["findings"]]


# ---- smolagents ------------------------------------------------------------------------------------------------


def _smolagents_weather() -> Any:
    pytest.importorskip("smolagents", reason="the test extra's smolagents[openai]")
    from smolagents import tool

    @tool
    def get_weather(city: str) -> str:
        """The weather in a city.

        Args:
            city: the city's name
        """
        return "sunny"

    return get_weather


@pytest.mark.parametrize("stream", [False, True])
def test_a_smolagents_tool_calling_agent_sends_required_at_every_step_and_its_calls_back_as_text(
        stream: bool, tmp_path: Path) -> None:
    """smolagents' ToolCallingAgent offers its tools plus `final_answer` and sends tool_choice "required" on every
    step (models.py `_prepare_completion_kwargs`, `tool_choice ... = "required"`). It carries the calls back as an
    assistant text ("Calling tools: [...]") and their results as a user text ("Observation: ..."), not as
    tool_calls and tool messages: the wire holds no result for the proxy to pair, and its line has no `results`."""
    from smolagents import OpenAIModel, ToolCallingAgent

    weather = _smolagents_weather()
    steered = _script(tmp_path, "replies:\n  - calls: [{name: get_weather}, {name: get_weather}]\n"
                                "  - {call: final_answer}\n")
    saved = tmp_path / "saved"
    saved.mkdir()
    with running_mock("openai", script=steered) as upstream, saving_proxy(upstream.base_url, saved) as proxy:
        model = OpenAIModel("gpt-4o-mini", api_base=proxy.base_url, api_key=KEY, client_kwargs={"max_retries": 0})
        agent = ToolCallingAgent(tools=[weather], model=model, max_steps=3, verbosity_level=0, stream_outputs=stream)
        answer = agent.run("Weather in Paris?")
        first, second = _settled(proxy, 2)
    assert answer == "example"  # the mock's final_answer argument, made from its schema
    assert [line["requested"] for line in (first, second)] == ["required", "required"]
    assert [line["stream"] for line in (first, second)] == [stream, stream]
    assert first["offered_tools"] == second["offered_tools"] == ["get_weather", "final_answer"]
    ids = [call["id"] for call in first["calls"]]
    assert [call["name"] for call in first["calls"]] == ["get_weather", "get_weather"] and len(set(ids)) == 2
    assert second["calls"][0]["name"] == "final_answer"
    assert [line["verdict"] for line in (first, second)] == ["obeyed", "obeyed"]
    assert "results" not in second, second
    history = _sent(saved, 2)["messages"]
    assert not [m for m in history if m["role"] == "tool" or m.get("tool_calls")], history
    flattened = json.dumps([m for m in history if m["role"] == "assistant"])
    assert "Calling tools:" in flattened and all(i in flattened for i in ids)
    assert _sent(saved, 1)["stop"] == ["Observation:", "Calling tools:"]  # sent, passed unjudged and named
    assert "mock.unjudged" in _codes(first)
    assert KEY not in json.dumps([first, second])
    _valid([first, second])


def test_a_smolagents_model_level_tool_choice_is_also_sent_on_its_toolless_final_request(tmp_path: Path) -> None:
    """A tool_choice given to the model (`OpenAIModel(..., tool_choice=...)`, its **kwargs) overrides the agent's
    "required" on every step, and also goes on the final-answer request smolagents sends without tools once
    max_steps is reached (self.kwargs is applied after the `if tools_to_call_from:` guard): OpenAI refuses that
    ("'tool_choice' is only allowed when 'tools' are specified"); the proxy says so before the API does."""
    from smolagents import OpenAIModel, ToolCallingAgent

    weather = _smolagents_weather()
    with running_mock("openai") as upstream, saving_proxy(upstream.base_url, tmp_path) as proxy:
        model = OpenAIModel("gpt-4o-mini", api_base=proxy.base_url, api_key=KEY, client_kwargs={"max_retries": 0},
                            tool_choice=NAMED, parallel_tool_calls=False)
        agent = ToolCallingAgent(tools=[weather], model=model, max_steps=1, verbosity_level=0)
        answer = agent.run("Weather in Paris?")
        forced, final = _settled(proxy, 2)
    assert forced["requested"] == NAMED and forced["tool_choice"] == {"tool": "get_weather"}
    assert forced["verdict"] == "obeyed" and [c["name"] for c in forced["calls"]] == ["get_weather"]
    assert final["requested"] == NAMED and final["offered_tools"] == [] and "tools" not in _sent(tmp_path, 2)
    assert final["status"] == 400 and "verdict" not in final
    (refused,) = [f for f in final["findings"] if f["code"] == "mock.refused"]
    assert refused["severity"] == "warning" and "only allowed when 'tools' are specified" in refused["message"]
    assert "400" in str(answer)  # smolagents returns the API's error as its final answer
    _valid([forced, final])


# ---- haystack-ai -----------------------------------------------------------------------------------------------


def _haystack() -> Any:
    """haystack's Agent and OpenAIChatGenerator, with its telemetry off: haystack posts usage events to PostHog
    unless $HAYSTACK_TELEMETRY_ENABLED is false when it is imported (haystack/telemetry/_telemetry.py)."""
    os.environ["HAYSTACK_TELEMETRY_ENABLED"] = "False"
    pytest.importorskip("haystack", reason="the test extra's haystack-ai")
    from haystack.telemetry import _telemetry

    assert _telemetry.telemetry is None, "haystack was imported with its telemetry on"
    from haystack.components.agents import Agent
    from haystack.components.generators.chat import OpenAIChatGenerator
    from haystack.dataclasses import ChatMessage
    from haystack.tools import create_tool_from_function
    from haystack.utils import Secret

    def get_weather(city: str) -> str:
        """The weather in a city."""
        return "sunny"

    def agent(base_url: str, choice: Any, *, strict: bool = False, stream: bool = False, steps: int = 3) -> Any:
        generator = OpenAIChatGenerator(api_key=Secret.from_token(KEY), model="gpt-4o-mini", api_base_url=base_url,
                                        generation_kwargs={} if choice is None else {"tool_choice": choice},
                                        tools_strict=strict, max_retries=0)
        return Agent(chat_generator=generator, tools=[create_tool_from_function(get_weather)], max_agent_steps=steps,
                     streaming_callback=(lambda chunk: None) if stream else None)

    return agent, ChatMessage


@pytest.mark.parametrize("choice", [None, "auto"])
def test_a_haystack_agent_answers_parallel_calls_with_each_id_and_stops_on_text(
        choice: str | None, tmp_path: Path) -> None:
    """haystack's Agent sends no tool_choice of its own (only what `generation_kwargs` holds, on every step), and
    each result as a tool message with its call's id: both of two parallel calls are traced to step 1."""
    agent, message = _haystack()
    steered = _script(tmp_path, "replies:\n  - calls: [{name: get_weather}, {name: get_weather}]\n")
    with running_mock("openai", script=steered) as upstream, saving_proxy(upstream.base_url, tmp_path) as proxy:
        result = agent(proxy.base_url, choice).run(messages=[message.from_user("Weather in Paris?")])
        first, second = _settled(proxy, 2)
    assert result["messages"][-1].text.startswith("toolchoice mock")
    assert [line["requested"] for line in (first, second)] == [choice, choice]
    assert [line["offered_tools"] for line in (first, second)] == [["get_weather"], ["get_weather"]]
    ids = [call["id"] for call in first["calls"]]
    assert len(set(ids)) == 2 and second["calls"] == [] and second["verdict"] == "obeyed"
    assert second["results"] == [{"id": i, "name": "get_weather", "from": 1} for i in ids]
    assert _sent(tmp_path, 1)["n"] == 1 and "mock.unjudged" not in _codes(first)  # haystack always sends n: read
    _valid([first, second])


def test_a_haystack_agent_resends_a_forced_named_choice_after_results_until_its_step_limit(tmp_path: Path) -> None:
    """A named tool_choice in generation_kwargs is sent as written on every step, streamed or not, with the strict
    schemas of `tools_strict=True`: the loop calls the tool until max_agent_steps, and the proxy names the pitfall
    at each step that follows a result (pitfall.forced_after_tool_result)."""
    agent, message = _haystack()
    with running_mock("openai") as upstream, saving_proxy(upstream.base_url, tmp_path) as proxy:
        result = agent(proxy.base_url, NAMED, strict=True, stream=True, steps=3).run(
            messages=[message.from_user("Weather in Paris?")])
        lines = _settled(proxy, 3)
    assert [m.role.value for m in result["messages"]][-1] == "tool"  # stopped by the step limit, not by text
    assert [line["requested"] for line in lines] == [NAMED] * 3 and all(line["stream"] for line in lines)
    assert [line["verdict"] for line in lines] == ["obeyed"] * 3
    assert [[r["from"] for r in line.get("results", [])] for line in lines] == [[], [1], [2]]
    assert [r["id"] for r in lines[1]["results"]] == [c["id"] for c in lines[0]["calls"]]
    assert ["pitfall.forced_after_tool_result" in _codes(line) for line in lines] == [False, True, True]
    (tool,) = _sent(tmp_path, 1)["tools"]
    assert tool["function"]["strict"] is True and tool["function"]["parameters"]["additionalProperties"] is False
    _valid(lines)


# ---- agno ------------------------------------------------------------------------------------------------------


def _agno(monkeypatch: pytest.MonkeyPatch) -> Any:
    """agno's Agent on its OpenAIChat model, with its telemetry off: an Agent posts its runs to agno's API unless
    `telemetry=False`, and $AGNO_TELEMETRY overrides that argument (agno/agent/_init.py `set_telemetry`)."""
    monkeypatch.setenv("AGNO_TELEMETRY", "false")
    pytest.importorskip("agno", reason="the test extra's agno")
    from agno.agent import Agent
    from agno.models.openai import OpenAIChat

    def get_weather(city: str) -> str:
        """The weather in a city.

        Args:
            city: the city's name
        """
        return "sunny"

    def agent(base_url: str, choice: Any, **settings: Any) -> Any:
        model = OpenAIChat(id="gpt-4o-mini", base_url=base_url, api_key=KEY, max_retries=0)
        return Agent(model=model, tools=[get_weather], tool_choice=choice, telemetry=False, instructions="Answer.",
                     **settings)

    return agent


def test_an_agno_agent_sends_its_tool_choice_and_each_result_with_its_calls_id(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    steered = _script(tmp_path, "replies:\n  - calls: [{name: get_weather}, {name: get_weather}]\n")
    with running_mock("openai", script=steered) as upstream, saving_proxy(upstream.base_url, tmp_path) as proxy:
        ran = _agno(monkeypatch)(proxy.base_url, "auto")
        answer = ran.run("Weather in Paris?")
        first, second = _settled(proxy, 2)
    assert ran.telemetry is False and answer.content.startswith("toolchoice mock")
    assert [line["requested"] for line in (first, second)] == ["auto", "auto"]
    ids = [call["id"] for call in first["calls"]]
    assert len(set(ids)) == 2 and second["results"] == [{"id": i, "name": "get_weather", "from": 1} for i in ids]
    assert second["verdict"] == "obeyed" and second["calls"] == []
    assert _sent(tmp_path, 1)["messages"][0]["role"] == "developer"  # agno's OpenAIChat maps system to developer
    _valid([first, second])


def test_an_agno_agent_resends_required_after_its_tool_call_limit_until_the_model_answers_text(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """agno sends the Agent's tool_choice at every step of its loop (agno/models/base.py: `tool_choice=tool_choice
    or self._tool_choice`); `tool_call_limit` only answers the calls past it with an error result ("Tool call
    limit reached. ..."), the choice stays "required": only a model that disobeys ends the loop (here step 4,
    scripted; the mock obeys otherwise, and the loop would go on). The proxy names the pitfall at each step."""
    steered = _script(tmp_path, "replies:\n  - calls: [{name: get_weather}, {name: get_weather}]\n"
                                "steps:\n  4: {disobey: true}\n")
    with running_mock("openai", script=steered) as upstream, saving_proxy(upstream.base_url, tmp_path) as proxy:
        events = list(_agno(monkeypatch)(proxy.base_url, "required", tool_call_limit=2).run(
            "Weather in Paris?", stream=True))
        lines = _settled(proxy, 4)
    assert events and len(lines) == 4 and all(line["stream"] for line in lines)
    assert [line["requested"] for line in lines] == ["required"] * 4
    assert [line["verdict"] for line in lines] == ["obeyed", "obeyed", "obeyed", "no_call"]
    assert [[r["from"] for r in line.get("results", [])] for line in lines] == [[], [1, 1], [2], [3]]
    assert ["pitfall.forced_after_tool_result" in _codes(line) for line in lines] == [False, True, True, True]
    limited = [m for m in _sent(tmp_path, 4)["messages"] if m["role"] == "tool"][-1]
    assert limited["tool_call_id"] == lines[2]["calls"][0]["id"] and "Tool call limit reached" in limited["content"]
    _valid(lines)
