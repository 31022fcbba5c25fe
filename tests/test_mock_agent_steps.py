"""What a framework's agent loop meets at the mock between its steps, with the official SDKs as the clients.

Truth from outside the code: the SDKs' own structured-output parsers (openai ``chat.completions.parse`` with a
pydantic ``response_format``, ``responses.parse`` with ``text_format``, anthropic ``messages.parse`` with
``output_format``) must read the mock's text answer into the model. LangChain's ``create_agent(response_format=...)``
on ChatOpenAI, openai-agents' ``output_type`` and pydantic-ai's ``output_type`` on Claude 5.x send these fields, and
the plain text answer broke each (StructuredOutputValidationError, ModelBehaviorError, "Exceeded maximum output
retries"). And a history whose thinking came with an answer made under other tools — a framework's per-step tool
filter — or under another system prompt — a per-step (dynamic) prompt — is said on a model whose rule runs the
preserved-thinking prefix check, through the mock and through the proxy in front of it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from toolchoice.providers.core.mock.server import running_mock

KEY = "sk-test-agent-steps-0123456789"


class Weather(BaseModel):
    city: str
    sky: str
    days: list[int]


def test_a_json_schema_response_format_is_answered_with_json_the_openai_parser_reads() -> None:
    from openai import OpenAI

    with running_mock("openai") as mock:
        client = OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        parsed = client.chat.completions.parse(model="gpt-5.2", messages=[{"role": "user", "content": "Paris?"}],
                                               response_format=Weather)
        loose = client.chat.completions.create(model="gpt-5.2", messages=[{"role": "user", "content": "Paris?"}],
                                               response_format={"type": "json_object"})
        plain = client.chat.completions.create(model="gpt-5.2", messages=[{"role": "user", "content": "Paris?"}])
    assert isinstance(parsed.choices[0].message.parsed, Weather)
    assert isinstance(json.loads(loose.choices[0].message.content), dict)
    assert plain.choices[0].message.content == "toolchoice mock: a text answer (no tool call)."
    first, second, _ = mock.records
    assert not [f for f in first["findings"] + second["findings"] if f["code"] == "mock.unjudged"]  # read, not passed


def test_a_text_format_is_answered_with_json_the_openai_responses_parser_reads() -> None:
    """openai-agents' ``output_type`` on the Responses API goes as ``text.format`` (ModelBehaviorError "Invalid JSON
    when parsing model output" against the plain text answer)."""
    from openai import OpenAI

    with running_mock("openai-responses") as mock:
        client = OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        reply = client.responses.parse(model="gpt-5.2", input="Paris?", text_format=Weather)
    assert isinstance(reply.output_parsed, Weather)
    assert not [f for f in mock.records[0]["findings"] if f["code"] == "mock.unjudged"]


def test_an_output_config_format_is_answered_with_json_the_anthropic_parser_reads() -> None:
    from anthropic import Anthropic

    with running_mock("anthropic") as mock:
        client = Anthropic(base_url=mock.base_url, api_key=KEY, max_retries=0)
        reply = client.messages.parse(model="claude-sonnet-5-5", max_tokens=1024, output_format=Weather,
                                      messages=[{"role": "user", "content": "Paris?"}])
    assert isinstance(reply.parsed_output, Weather)


WEATHER_TOOL = {"name": "get_weather", "description": "Weather.", "input_schema": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
SEARCH_TOOL = {"name": "search", "description": "Search.", "input_schema": {
    "type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}


def _loop(base_url: str, model: str, second_tools: list[dict[str, Any]], systems: tuple[Any, Any] = (None, None),
          thinking: bool = True) -> None:
    """Step 1 with both tools and adaptive thinking; step 2 sends the reply (thinking block first) back with its
    tool result, offering ``second_tools``: what a per-step tool filter (LangChain's wrap_model_call
    ``request.override(tools=...)``, pydantic-ai's ``PrepareTools``) sends; ``systems``: each step's system prompt
    (a per-step prompt: LangChain's ``dynamic_prompt``, pydantic-ai's dynamic ``instructions``)."""
    from anthropic import NOT_GIVEN, Anthropic

    client = Anthropic(base_url=base_url, api_key=KEY, max_retries=0)
    user = {"role": "user", "content": "Weather in Paris?"}
    think: Any = {"type": "adaptive"} if thinking else NOT_GIVEN
    first = client.messages.create(model=model, max_tokens=4000, thinking=think, system=systems[0] or NOT_GIVEN,
                                   tools=[WEATHER_TOOL, SEARCH_TOOL], messages=[user])
    call = next(block for block in first.content if block.type == "tool_use")
    assert (first.content[0].type == "thinking") is thinking
    client.messages.create(model=model, max_tokens=4000, thinking=think, system=systems[1] or NOT_GIVEN,
                           tools=second_tools, messages=[
        user, {"role": "assistant", "content": [block.model_dump(exclude_none=True) for block in first.content]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": "sunny"}]}])


def _changed(line: dict[str, Any], server: str) -> list[str]:
    return [f["message"] for f in line["findings"] if f["code"] == f"{server}.tools_changed_with_thinking"]


@pytest.mark.parametrize("model,second,said", [
    ("claude-sonnet-5-5", [SEARCH_TOOL], True),                 # narrowed on a prefix-check model
    ("claude-sonnet-5-5", [WEATHER_TOOL, SEARCH_TOOL], False),  # the same tools: the thinking holds
    ("claude-sonnet-5", [SEARCH_TOOL], False),                  # no rule says this model checks the prefix
])
def test_tools_narrowed_under_thinking_are_said_where_the_prefix_check_runs(model: str, second: Any, said: bool,
                                                                            capsys: Any) -> None:
    import jsonschema

    from toolchoice.cli.mock_cmd import MockFormat, _printer

    with running_mock("anthropic") as mock:
        _loop(mock.base_url, model, second)
    first, step_two = mock.records
    schema = json.loads((Path(__file__).parents[1] / "cli" / "schemas" / "mock.schema.json").read_text(encoding="utf-8"))
    for line in mock.records:
        jsonschema.validate(line, schema)
    assert first["thinking"] == step_two["thinking"] == "adaptive"  # each step shows the thinking it asked for
    _printer(MockFormat.pretty)(step_two)
    assert f"tools [{', '.join(t['name'] for t in second)}]  thinking adaptive  200" in capsys.readouterr().out
    assert not _changed(first, "mock")
    words = _changed(step_two, "mock")
    assert bool(words) is said
    if said:
        assert "#1's answer" in words[0] and "get_weather, search" in words[0] and "offers search:" in words[0]
        assert "claude-preserved-thinking" in words[0]


PROMPT = "You answer weather questions."


def _system_changed(line: dict[str, Any], server: str) -> list[str]:
    return [f["message"] for f in line["findings"] if f["code"] == f"{server}.system_changed_with_thinking"]


@pytest.mark.parametrize("model,systems,thinking,said", [
    ("claude-sonnet-5-5", (PROMPT, PROMPT + " Step 2."), True, True),    # a per-step prompt on a prefix-check model
    ("claude-sonnet-5-5", (None, PROMPT), True, True),                    # a prompt added after step 1
    ("claude-sonnet-5-5", ([{"type": "text", "text": PROMPT}], PROMPT), True, False),  # blocks or a string: same text
    ("claude-sonnet-5-5", (PROMPT, PROMPT + " Step 2."), False, False),  # no thinking in the history to break
    ("claude-sonnet-5", (PROMPT, PROMPT + " Step 2."), True, False),     # no rule says this model checks the prefix
])
def test_a_system_prompt_changed_under_thinking_is_said_where_the_prefix_check_runs(
        model: str, systems: Any, thinking: bool, said: bool, capsys: Any) -> None:
    import jsonschema

    from toolchoice.cli.mock_cmd import MockFormat, _printer, _summary

    with running_mock("anthropic") as mock:
        _loop(mock.base_url, model, [WEATHER_TOOL, SEARCH_TOOL], systems, thinking)
    first, step_two = mock.records
    schema = json.loads((Path(__file__).parents[1] / "cli" / "schemas" / "mock.schema.json").read_text(encoding="utf-8"))
    for line in mock.records:
        jsonschema.validate(line, schema)
    assert not _system_changed(first, "mock") and not _changed(step_two, "mock")  # the tools stayed the same
    words = _system_changed(step_two, "mock")
    assert bool(words) is said
    if said:
        assert "#1's answer" in words[0] and "system prompt" in words[0] and "claude-preserved-thinking" in words[0]
        assert "Way out: the same system prompt on every step" in words[0]
        assert PROMPT not in words[0]  # the prompt's text stays out of the line (its length only)
        printer = _printer(MockFormat.pretty)
        for line in mock.records:
            printer(line)
        _summary("toolchoice mock: stopped after 2 requests, 0 refused", printer)
        err = capsys.readouterr().err
        assert err.count("mock.system_changed_with_thinking") == 1 and f"(#2): {words[0]}" in err


def test_the_proxy_says_it_of_the_answers_that_passed_through_it() -> None:
    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server

    with running_mock("anthropic") as upstream:
        handler = ProxyHandler("anthropic", upstream.base_url)
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            _loop(proxy.base_url, "claude-sonnet-5-5", [SEARCH_TOOL], (PROMPT, PROMPT + " Step 2."))
            proxy.wait_for(2)  # a proxy line follows the answer's last byte
    assert _changed(proxy.records[1], "proxy") and not _changed(proxy.records[0], "proxy")
    assert _system_changed(proxy.records[1], "proxy") and not _system_changed(proxy.records[0], "proxy")
    assert _changed(upstream.records[1], "mock")  # the mock behind it made the same answers: the same rule
    assert _system_changed(upstream.records[1], "mock")


def test_the_pretty_summary_says_once_what_each_pitfall_the_lines_showed_means(capsys: Any) -> None:
    """A forced choice after every tool result (what a framework's middleware forcing "any" sends): the pretty lines
    show only the code; the summary after them says it once, with its words and the requests it was on."""
    from openai import OpenAI

    from toolchoice.cli.mock_cmd import _printer, _summary, MockFormat

    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER_TOOL["input_schema"]}}]
    with running_mock("openai") as mock:
        client = OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        messages: list[dict[str, Any]] = [{"role": "user", "content": "Weather in Paris?"}]
        for _ in range(3):
            reply = client.chat.completions.create(model="gpt-5.2", messages=messages, tools=tools,
                                                   tool_choice="required", response_format={"type": "text"})
            call = reply.choices[0].message.tool_calls[0]
            messages += [reply.choices[0].message.model_dump(exclude_none=True),
                         {"role": "tool", "tool_call_id": call.id, "content": "sunny"}]
    printer = _printer(MockFormat.pretty)
    for line in mock.records:
        printer(line)
    _summary("toolchoice mock: stopped after 3 requests, 0 refused", printer)
    out, err = capsys.readouterr()
    assert out.count("pitfall.forced_after_tool_result") == 2  # lines #2 and #3 show the code
    words = next(f["message"] for f in mock.records[1]["findings"] if f["code"] == "pitfall.forced_after_tool_result")
    assert err.splitlines() == ["toolchoice mock: stopped after 3 requests, 0 refused",
                                f"  pitfall.forced_after_tool_result (from #2, 2 requests): {words}"]


def test_the_summary_does_not_repeat_the_words_a_refused_line_carried(capsys: Any) -> None:
    import httpx

    from toolchoice.cli.mock_cmd import MockFormat, _printer, _summary

    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": WEATHER_TOOL["input_schema"]}}]
    with running_mock("openai") as mock:
        refused = httpx.post(f"{mock.base_url}/chat/completions", timeout=10, json={
            "model": "gpt-5.2", "messages": [{"role": "user", "content": "hi"}], "tools": tools,
            "tool_choice": {"type": "function", "function": {"name": "nope"}}})
    assert refused.status_code == 400  # a named tool not offered: the ledger's error, its words on the line
    printer = _printer(MockFormat.pretty)
    printer(mock.records[0])
    _summary("toolchoice mock: stopped after 1 request, 1 refused", printer)
    out, err = capsys.readouterr()
    words = refused.json()["error"]["message"]
    assert words in out and words not in err

