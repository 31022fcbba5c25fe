"""Where the thinking a request sends back came from, for every answer that handed some out — a final text answer the
user goes on from as well as a tool call — and what the preserved-thinking prefix check makes of a history that
changed before it.

Truth from outside the code: the official SDKs (anthropic-python, openai-python's Responses API) read the mock's
answers on 127.0.0.1 and send them back as their types dump them; the line's ``reasoning_from`` names the request
whose answer handed out each turn's reasoning state, and on a model whose rule runs Anthropic's prefix check
(platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks: "A prefix check fails if system,
tools, or an earlier message changed after Claude produced a block") a continued conversation under other tools, another
system prompt or other earlier messages is said (``mock.tools_changed_with_thinking``,
``mock.system_changed_with_thinking``, ``mock.history_changed_with_thinking``; the proxy's the same), an append-only
one and a model without the rule are not. One mock per test, in-process (``running_mock``).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from toolchoice.providers.core.mock.server import running_mock

KEY = "sk-test-thinking-origins-0123456789"
SCHEMA: dict[str, Any] = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
WEATHER = {"name": "get_weather", "description": "Weather for a city", "input_schema": SCHEMA}
SEARCH = {"name": "search", "description": "Search the web", "input_schema": SCHEMA}


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": text}


class Chat:
    """An anthropic-python client on a base URL, each answer sent back as the SDK dumps it."""

    def __init__(self, base_url: str, model: str) -> None:
        from anthropic import Anthropic

        self.client = Anthropic(base_url=base_url, api_key=KEY, max_retries=0)
        self.model = model

    def ask(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None,
            system: str | None = None, choice: dict[str, Any] | None = None) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.model, "max_tokens": 4000, "messages": messages,
                                  "thinking": {"type": "adaptive"}}
        if tools is not None:
            kwargs["tools"] = tools
            kwargs["tool_choice"] = choice or {"type": "none"}  # a text answer, the tools still offered
        if system is not None:
            kwargs["system"] = system
        reply = self.client.messages.create(**kwargs)
        assert reply.content[0].type == "thinking" and reply.content[0].signature  # the thinking to send back
        return {"role": "assistant", "content": [block.model_dump(exclude_none=True) for block in reply.content]}


def _said(line: dict[str, Any], prefix: str = "mock") -> dict[str, str]:
    return {f["code"]: f["message"] for f in line["findings"] if f["code"].startswith(prefix + ".")
            and f["code"].endswith("_changed_with_thinking")}


def _valid(lines: list[dict[str, Any]]) -> None:
    import jsonschema

    schema = json.loads(resources.files("toolchoice.cli").joinpath("schemas", "mock.schema.json").read_text())
    for line in lines:
        jsonschema.validate(line, schema)


# ---- a continued conversation: the thinking of a text answer is followed by its signature ---------------------


@pytest.mark.parametrize("change,code", [
    ("tools", "mock.tools_changed_with_thinking"),     # a tool connected between the user's turns
    ("system", "mock.system_changed_with_thinking"),   # the date written into the system prompt
    (None, None),                                      # append-only: nothing to say
])
def test_a_text_answers_thinking_is_followed_into_the_users_next_turn(change: str | None, code: str | None) -> None:
    system = "You answer weather questions."
    with running_mock("anthropic") as mock:
        chat = Chat(mock.base_url, "claude-sonnet-5-5")
        first = [_user("Weather in Paris?")]
        answer = chat.ask(first, [WEATHER], system)
        assert [block["type"] for block in answer["content"]] == ["thinking", "text"]  # no call to follow it by
        chat.ask(first + [answer, _user("And tomorrow?")], [WEATHER, SEARCH] if change == "tools" else [WEATHER],
                 system + " Today is Friday." if change == "system" else system)
    one, two = mock.records
    _valid([one, two])
    assert "reasoning_from" not in one and two["reasoning_from"] == [1]
    said = _said(two)
    assert list(said) == ([code] if code else [])
    if code:
        assert "from #1's answer" in said[code] and "claude-preserved-thinking" in said[code]


def _three_turns(chat: Chat, third: Any) -> None:
    """Two text answers with thinking, then a third request whose history ``third`` makes of the first two turns."""
    u1, u2, u3 = _user("Weather in Paris?"), _user("And in Rome?"), _user("Which is warmer?")
    a1 = chat.ask([u1])
    a2 = chat.ask([u1, a1, u2])
    chat.ask(third(u1, a1, u2, a2, u3))


def _without_thinking(turn: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": [block for block in turn["content"] if block["type"] != "thinking"]}


@pytest.mark.parametrize("model,third,origin,how,shown", [
    # append-only: every thinking block after the messages its answer was made for
    ("claude-sonnet-5-5", lambda u1, a1, u2, a2, u3: [u1, a1, u2, a2, u3], None, None, [1, 2]),
    # the first question edited: both blocks' prefixes changed; the earliest is named
    ("claude-sonnet-5-5", lambda u1, a1, u2, a2, u3: [_user("Weather in Paris, France?"), a1, u2, a2, u3], 1,
     "(1 then, 1 now: an earlier message changed)", [1, 2]),
    # the finished turn's thinking stripped (the advice older models allowed): the later block's prefix changed
    ("claude-sonnet-5-5", lambda u1, a1, u2, a2, u3: [u1, _without_thinking(a1), u2, a2, u3], 2,
     "(3 then, 3 now: an earlier message changed)", [2]),
    # the oldest exchange trimmed to fit the context
    ("claude-sonnet-5-5", lambda u1, a1, u2, a2, u3: [u2, a2, u3], 2, "(3 then, 1 now: earlier messages left out)",
     [2]),
    # a reminder put in before the last answer
    ("claude-sonnet-5-5", lambda u1, a1, u2, a2, u3: [u1, a1, u2, _user("(be brief)"), a2, u3], 2,
     "(3 then, 4 now: messages put in before it)", [1, 2]),
    # no rule says this model runs the prefix check: the same edit passes unsaid
    ("claude-sonnet-5", lambda u1, a1, u2, a2, u3: [_user("Weather in Paris, France?"), a1, u2, a2, u3], None, None,
     [1, 2]),
])
def test_a_history_changed_before_the_thinking_is_said_where_the_prefix_check_runs(
        model: str, third: Any, origin: int | None, how: str | None, shown: list[int], capsys: Any) -> None:
    from toolchoice.cli.mock_cmd import MockFormat, _printer

    with running_mock("anthropic") as mock:
        _three_turns(Chat(mock.base_url, model), third)
    lines = mock.records
    _valid(lines)
    assert lines[1]["reasoning_from"] == [1] and not _said(lines[1])  # step 2 sent step 1's answer back as it was
    said = _said(lines[2])
    if origin is None:
        assert not said
    else:
        assert list(said) == ["mock.history_changed_with_thinking"]
        words = said["mock.history_changed_with_thinking"]
        assert f"from #{origin}'s answer" in words and str(how) in words and "append-only" in words
        assert "claude-preserved-thinking" in words and "Weather in Paris" not in words  # counts, never the text
    assert lines[2]["reasoning_from"] == shown
    _printer(MockFormat.pretty)(lines[2])
    assert "  reasoning " + ", ".join(f"←#{n}" for n in shown) in capsys.readouterr().out


def test_a_tool_loops_first_question_rewritten_is_said_at_the_step_that_sends_it() -> None:
    """A framework that rewrites the user's question between the steps of one tool loop (a prompt template filled
    again): the thinking of step 1's tool call comes back after another question."""
    with running_mock("anthropic") as mock:
        chat = Chat(mock.base_url, "claude-opus-5-5")
        question = _user("Weather in Paris?")
        step = chat.ask([question], [WEATHER], choice={"type": "auto"})
        call = next(block for block in step["content"] if block["type"] == "tool_use")
        result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call["id"], "content": "sunny"}]}
        chat.ask([_user("Weather in Paris? (step 2)"), step, result], [WEATHER])
    one, two = mock.records
    assert one["calls"] and two["results"][0]["from"] == 1 and two["reasoning_from"] == [1]
    assert list(_said(two)) == ["mock.history_changed_with_thinking"]


def test_the_proxy_follows_the_thinking_of_the_answers_that_passed_through_it() -> None:
    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server

    with running_mock("anthropic") as upstream:
        handler = ProxyHandler("anthropic", upstream.base_url)
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            chat = Chat(proxy.base_url, "claude-haiku-5-5")
            u1 = _user("Weather in Paris?")
            a1 = chat.ask([u1], [WEATHER])
            chat.ask([u1, a1, _user("And tomorrow?")], [WEATHER, SEARCH])           # a tool added: said
            chat.ask([_user("Weather in Paris, France?"), a1, _user("And tomorrow?")], [WEATHER])  # edited: said
            chat.ask([u1, a1, _user("And tomorrow?")], [WEATHER])                   # as it was: nothing
            proxy.wait_for(4)  # a proxy line follows the answer's last byte
    lines = proxy.records
    _valid(lines)
    assert [_said(line, "proxy").keys() for line in lines] == [
        set(), {"proxy.tools_changed_with_thinking"}, {"proxy.history_changed_with_thinking"}, set()]
    assert [line.get("reasoning_from") for line in lines] == [None, [1], [1], [1]]
    # the mock behind it handed the answers out and says the same of the same requests
    assert [set(_said(line)) for line in upstream.records] == [
        set(), {"mock.tools_changed_with_thinking"}, {"mock.history_changed_with_thinking"}, set()]


def test_bedrock_converse_follows_a_text_answers_reasoning_and_says_an_edited_history() -> None:
    """Bedrock runs the same check for Claude (the page lists Amazon Bedrock and bedrock-runtime): botocore's
    converse, thinking through additionalModelRequestFields, the reasoningContent block sent back as botocore read
    it."""
    import botocore.session

    model = "anthropic.claude-sonnet-5-5-v1:0"
    extra = {"thinking": {"type": "adaptive"}}
    user = {"role": "user", "content": [{"text": "Weather in Paris?"}]}
    more = {"role": "user", "content": [{"text": "And tomorrow?"}]}
    with running_mock("bedrock") as mock:
        client = botocore.session.get_session().create_client(
            "bedrock-runtime", region_name="us-east-1", endpoint_url=mock.base_url,
            aws_access_key_id="AKIAMOCKEXAMPLE0001", aws_secret_access_key="mock-secret-0123456789")
        said = client.converse(modelId=model, messages=[user], additionalModelRequestFields=extra)["output"]["message"]
        assert "reasoningContent" in said["content"][0] and not any("toolUse" in block for block in said["content"])
        client.converse(modelId=model, messages=[user, said, more], additionalModelRequestFields=extra)
        edited = {"role": "user", "content": [{"text": "Weather in Rome?"}]}
        client.converse(modelId=model, messages=[edited, said, more], additionalModelRequestFields=extra)
    one, two, three = mock.records
    _valid([one, two, three])
    assert two["reasoning_from"] == three["reasoning_from"] == [1]
    assert not _said(two) and list(_said(three)) == ["mock.history_changed_with_thinking"]


# ---- the Responses API: its reasoning items followed; no rule there runs a prefix check ------------------------


def test_responses_reasoning_items_are_followed_and_no_prefix_check_is_said() -> None:
    from openai import OpenAI

    tools = [{"type": "function", "name": "get_weather", "parameters": SCHEMA}]
    with running_mock("openai-responses") as mock:
        client = OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
        first = client.responses.create(model="gpt-5.2", input="Weather in Paris?", tools=tools, tool_choice="none",
                                         reasoning={"effort": "low"}, include=["reasoning.encrypted_content"],
                                         store=False)
        kinds = [item.type for item in first.output]
        assert kinds[0] == "reasoning" and first.output[0].encrypted_content and "function_call" not in kinds
        history = [{"role": "user", "content": "Weather in Paris?"},
                   *[item.model_dump(exclude_none=True) for item in first.output],
                   {"role": "user", "content": "And tomorrow?"}]
        # another tool list and instructions: the rule that says so is Anthropic's, not this API's
        client.responses.create(model="gpt-5.2", input=history, tools=tools + [{"type": "function", "name": "search",
                                                                                "parameters": SCHEMA}],
                                instructions="Be brief.", reasoning={"effort": "low"}, store=False)
        history[0] = {"role": "user", "content": "Weather in Rome?"}
        client.responses.create(model="gpt-5.2", input=history, tools=tools, reasoning={"effort": "low"}, store=False)
    one, two, three = mock.records
    _valid([one, two, three])
    assert "reasoning_from" not in one and two["reasoning_from"] == three["reasoning_from"] == [1]
    assert not any(_said(line) for line in (one, two, three))


def test_gemini_thought_signatures_are_followed_on_a_call_and_on_a_text_answer() -> None:
    """google-genai: Gemini 3's thoughtSignature rides on the first functionCall part, or on the text part of a text
    answer; sent back in the content google-genai read, each is traced to the answer that signed it."""
    from google import genai
    from google.genai import types

    def config(mode: str) -> Any:
        return types.GenerateContentConfig(
            tools=[types.Tool(function_declarations=[types.FunctionDeclaration(
                name="get_weather", parameters_json_schema=SCHEMA)])],
            tool_config=types.ToolConfig(function_calling_config=types.FunctionCallingConfig(mode=mode)),
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))

    ask = types.Content(role="user", parts=[types.Part(text="Weather in Paris?")])
    with running_mock("gemini") as mock:
        client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=mock.base_url))
        called = client.models.generate_content(model="gemini-3-flash", contents=[ask], config=config("ANY"))
        step = called.candidates[0].content
        assert step.parts[0].function_call and step.parts[0].thought_signature
        answered = client.models.generate_content(model="gemini-3-flash", config=config("NONE"), contents=[
            ask, step, types.Content(role="user", parts=[types.Part.from_function_response(
                name="get_weather", response={"output": "sunny"})])])
        text = answered.candidates[0].content
        assert text.parts[0].text and text.parts[0].thought_signature and not answered.function_calls
        client.models.generate_content(model="gemini-3-flash", config=config("AUTO"), contents=[
            ask, step, types.Content(role="user", parts=[types.Part.from_function_response(
                name="get_weather", response={"output": "sunny"})]), text,
            types.Content(role="user", parts=[types.Part(text="And tomorrow?")])])
    one, two, three = mock.records
    _valid([one, two, three])
    assert two["reasoning_from"] == [1] and three["reasoning_from"] == [1, 2]
    assert not any(_said(line) for line in (one, two, three))  # no rule runs a prefix check on Gemini


def test_a_signature_no_answer_handed_out_is_followed_to_no_request() -> None:
    with running_mock("anthropic") as mock:
        chat = Chat(mock.base_url, "claude-sonnet-5-5")
        u1 = _user("Weather in Paris?")
        answer = chat.ask([u1])
        answer["content"][0]["signature"] = "c2lnbmVkIGVsc2V3aGVyZQ=="  # another session's block
        chat.ask([u1, answer, _user("And tomorrow?")], system="Another prompt.")
    two = mock.records[1]
    assert two["reasoning_from"] == [None] and not _said(two)  # nothing known of it: nothing claimed
    assert "reasoning.signature_foreign" in {f["code"] for f in two["findings"]}


def test_memory_stays_bounded_and_the_oldest_answers_are_forgotten_first() -> None:
    from toolchoice.providers.core.mock.call_origins import CallOrigins, Sent
    from toolchoice.providers.core.model import Message, ReasoningItem

    origins = CallOrigins(limit=3)
    for number in range(1, 6):
        origins.made(number, [], ("get_weather",), None, [f"signature-{number}"], Sent(()))
    turns = tuple(Message("assistant", "ok", reasoning=(ReasoningItem("anthropic", "t", f"signature-{n}"),))
                  for n in range(1, 6))
    assert origins.reasoning_from(Sent(turns)) == [None, None, 3, 4, 5]
    assert len(origins._answers) == len(origins._reasoning) == 3
