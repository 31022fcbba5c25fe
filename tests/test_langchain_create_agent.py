"""The `create_agent` (LangGraph) steps docs/mock.md ("LangChain's `create_agent` (LangGraph) and pydantic-ai on Claude,
step by step") and README.md give, run as written with the real langchain against ``toolchoice mock`` on 127.0.0.1:
ChatOpenAI and ChatAnthropic, ``create_agent(model, tools, middleware=[...])``, the docs' ``tool_choice`` spellings,
each through its two-to-four-step loop. What the docs say the mock reports at each step (its per-request findings,
the choice that arrived) is asserted against the mock's own records and, for what the records do not carry, the
request bodies it saved; what LangChain itself does (the error, the final text, the warning) against LangChain's
own objects.

Cheap: one mock per provider for the whole file, in this process; langchain.agents is imported once (~0.12 s CPU
with langchain-openai loaded); every loop stops within four model calls (``recursion_limit``).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any, Iterator

import pytest
from pydantic import BaseModel

from sdk_types import missing
from toolchoice.providers.core.mock.server import Running, running_mock

pytestmark = [pytest.mark.skipif(missing("langchain", "langgraph", "langchain_openai", "langchain_anthropic"),
                                 reason="the test extra's langchain, langchain-openai and langchain-anthropic"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]

KEY = "sk-create-agent-0a1b2c3d4e5f"
ASK = {"messages": [{"role": "user", "content": "Weather in Paris?"}]}
FORCED_AFTER = "pitfall.forced_after_tool_result"


class Weather(BaseModel):
    city: str
    sky: str


@pytest.fixture(scope="module")
def lc() -> Any:
    """langchain's names the docs use, imported once; two tools as `@tool` functions."""
    import langchain.agents as agents
    import langchain.agents.middleware as middleware
    from langchain_core.tools import tool

    @tool
    def get_weather(city: str) -> str:
        """Current weather for a city."""
        return "sunny"

    @tool
    def search(query: str) -> str:
        """Search the web."""
        return "nothing found"

    class Names:
        create_agent = agents.create_agent
        wrap_model_call = middleware.wrap_model_call
        dynamic_prompt = middleware.dynamic_prompt
        tools = [get_weather, search]

    return Names


@pytest.fixture(scope="module")
def mocks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Running]]:
    with pytest.MonkeyPatch.context() as patch:
        for name in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2", "LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"):
            patch.delenv(name, raising=False)  # no trace upload: the runs stay on the loopback
        with running_mock("openai", save_dir=tmp_path_factory.mktemp("openai")) as openai, \
                running_mock("anthropic") as anthropic:
            yield {"openai": openai, "anthropic": anthropic}


def _chat_openai(mock: Running) -> Any:
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(model="gpt-4o-mini", base_url=mock.base_url, api_key=KEY, max_retries=0)


def _thinking_claude(mock: Running) -> Any:
    from langchain_anthropic import ChatAnthropic

    return ChatAnthropic(model="claude-sonnet-5-5", base_url=mock.base_url, api_key=KEY, max_retries=0,
                         max_tokens=4000, thinking={"type": "adaptive"})


def _run(mock: Running, agent: Any, limit: int | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """The agent's run (its result, or what it raised) and the mock's records of its requests."""
    before = len(mock.records)
    try:
        result: Any = agent.invoke(ASK, {"recursion_limit": limit} if limit else None)
    except Exception as exc:  # noqa: BLE001 - the caller asserts which
        result = exc
    return result, mock.records[before:]


def _codes(record: dict[str, Any]) -> list[str]:
    return [finding["code"] for finding in record["findings"]]


def _body(mock: Running, record: dict[str, Any]) -> dict[str, Any]:
    assert mock.save_dir is not None
    path = Path(mock.save_dir) / f"sample-{record['n']:03d}.request.json"
    return json.loads(path.read_text(encoding="utf-8"))["body"]


def test_a_choice_bound_before_create_agent_never_arrives(lc: Any, mocks: dict[str, Running]) -> None:
    """`create_agent(model.bind_tools(tools, tool_choice="any"), tools)` sends none (`tool_choice - → -`)."""
    mock = mocks["openai"]
    model = _chat_openai(mock)
    result, steps = _run(mock, lc.create_agent(model.bind_tools(lc.tools, tool_choice="any"), lc.tools))
    assert not isinstance(result, Exception), result
    assert [(s["requested"], s["tool_choice"]) for s in steps] == [(None, None), (None, None)]
    assert [c["name"] for c in steps[0]["calls"]] == ["get_weather"] and steps[1]["calls"] == []
    assert all("tool_choice" not in _body(mock, s) for s in steps)
    assert not [s for s in steps if _codes(s)]


def test_a_middleware_forcing_every_step_loops_to_the_recursion_limit(lc: Any, mocks: dict[str, Running]) -> None:
    """`@wrap_model_call` returning `handler(request.override(tool_choice="any"))`: ChatOpenAI sends "required",
    `pitfall.forced_after_tool_result` from step 2, and `{"recursion_limit": 8}`: 4 calls, then GraphRecursionError;
    create_agent's own limit is 9,999 (README: ~5,000 calls)."""
    from langgraph.errors import GraphRecursionError

    @lc.wrap_model_call
    def force(request: Any, handler: Any) -> Any:
        return handler(request.override(tool_choice="any"))

    mock = mocks["openai"]
    agent = lc.create_agent(_chat_openai(mock), lc.tools, middleware=[force])
    assert agent.config["recursion_limit"] == 9_999
    result, steps = _run(mock, agent, limit=8)
    assert isinstance(result, GraphRecursionError)
    assert [s["requested"] for s in steps] == ["required"] * 4
    assert [FORCED_AFTER in _codes(s) for s in steps] == [False, True, True, True]
    assert all(s["calls"] for s in steps)


def test_create_react_agent_keeps_a_bound_choice_and_ends_with_text(lc: Any, mocks: dict[str, Running]) -> None:
    """The older `langgraph.prebuilt.create_react_agent` sends a choice bound before it on every step; near its limit
    it ends with "Sorry, need more steps to process this request." (`{"recursion_limit": 6}`: 3 calls)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LangGraphDeprecatedSinceV10: "create_react_agent has been moved"
        from langgraph.prebuilt import create_react_agent

        mock = mocks["openai"]
        model = _chat_openai(mock)
        result, steps = _run(mock, create_react_agent(model.bind_tools(lc.tools, tool_choice="any"), lc.tools), 6)
    assert not isinstance(result, Exception), result
    assert result["messages"][-1].content == "Sorry, need more steps to process this request."
    assert [s["requested"] for s in steps] == ["required"] * 3
    assert [FORCED_AFTER in _codes(s) for s in steps] == [False, True, True]


def test_response_format_is_provider_strategy_on_chat_openai_and_tool_strategy_forces(lc: Any,
                                                                                     mocks: dict[str, Running]) -> None:
    """`response_format=Model` on ChatOpenAI: `response_format` `json_schema`, no `tool_choice`, and the mock's JSON
    of that schema is read; `ToolStrategy` forces "any" on every step, a middleware's own choice replaced."""
    from langchain.agents.structured_output import ToolStrategy

    mock = mocks["openai"]
    model = _chat_openai(mock)
    result, steps = _run(mock, lc.create_agent(model, lc.tools, response_format=Weather))
    assert isinstance(result["structured_response"], Weather)
    assert [s["requested"] for s in steps] == [None, None]
    bodies = [_body(mock, s) for s in steps]
    assert all(b["response_format"]["type"] == "json_schema" and "tool_choice" not in b for b in bodies)

    @lc.wrap_model_call
    def never(request: Any, handler: Any) -> Any:
        return handler(request.override(tool_choice="none"))

    result, steps = _run(mock, lc.create_agent(model, lc.tools, response_format=ToolStrategy(Weather),
                                               middleware=[never]), limit=4)
    assert type(result).__name__ == "GraphRecursionError"
    assert [s["requested"] for s in steps] == ["required", "required"]
    assert [FORCED_AFTER in _codes(s) for s in steps] == [False, True]
    assert all("Weather" in s["offered_tools"] for s in steps)


def test_chat_anthropic_under_thinking_drops_a_middlewares_forcing_choice(lc: Any, mocks: dict[str, Running]) -> None:
    """ChatAnthropic with `thinking` adaptive drops a forcing choice with a UserWarning, a middleware's too: the
    line reads `tool_choice - → -` (and the loop ends, as the mock answers a tool result with text)."""
    @lc.wrap_model_call
    def force(request: Any, handler: Any) -> Any:
        return handler(request.override(tool_choice="any"))

    mock = mocks["anthropic"]
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        result, steps = _run(mock, lc.create_agent(_thinking_claude(mock), lc.tools, middleware=[force]), limit=8)
    assert not isinstance(result, Exception), result
    dropped = [w for w in said if issubclass(w.category, UserWarning)
               and str(w.message).startswith("tool_choice is forced but thinking is enabled")]
    assert len(dropped) == len(steps) == 2
    assert [(s["requested"], s["tool_choice"]) for s in steps] == [(None, None), (None, None)]
    assert not [s for s in steps if FORCED_AFTER in _codes(s)]


def test_tools_narrowed_per_step_under_thinking_are_said(lc: Any, mocks: dict[str, Running]) -> None:
    """A middleware narrowing the tools per step (`request.override(tools=...)`) on a thinking Claude 5.5 model:
    the mock says `mock.tools_changed_with_thinking` at that step; keeping the tools, it says nothing."""
    from langchain_core.messages import ToolMessage

    @lc.wrap_model_call
    def narrow(request: Any, handler: Any) -> Any:
        if any(isinstance(m, ToolMessage) for m in request.messages):
            request = request.override(tools=[t for t in request.tools if t.name == "search"])
        return handler(request)

    @lc.wrap_model_call
    def keep(request: Any, handler: Any) -> Any:
        return handler(request)

    mock = mocks["anthropic"]
    model = _thinking_claude(mock)
    _, narrowed = _run(mock, lc.create_agent(model, lc.tools, middleware=[narrow]))
    _, kept = _run(mock, lc.create_agent(model, lc.tools, middleware=[keep]))
    assert [s["offered_tools"] for s in narrowed] == [["get_weather", "search"], ["search"]]
    assert ["mock.tools_changed_with_thinking" in _codes(s) for s in narrowed] == [False, True]
    assert len(kept) == 2 and not [s for s in kept if "mock.tools_changed_with_thinking" in _codes(s)]


def test_a_per_step_system_prompt_under_thinking_is_said(lc: Any, mocks: dict[str, Running]) -> None:
    """LangChain's `@dynamic_prompt` rewriting the system prompt per model call: `mock.system_changed_with_thinking`
    at step 2, naming the request whose answer made the thinking."""
    steps_seen = []

    @lc.dynamic_prompt
    def prompt(request: Any) -> str:
        steps_seen.append(len(request.messages))
        return f"You are on step {len(steps_seen)}."

    mock = mocks["anthropic"]
    result, steps = _run(mock, lc.create_agent(_thinking_claude(mock), lc.tools, middleware=[prompt]))
    assert not isinstance(result, Exception), result
    assert ["mock.system_changed_with_thinking" in _codes(s) for s in steps] == [False, True]
    said = next(f["message"] for f in steps[1]["findings"] if f["code"] == "mock.system_changed_with_thinking")
    assert f"#{steps[0]['n']}" in said
    assert "mock.tools_changed_with_thinking" not in _codes(steps[1])
