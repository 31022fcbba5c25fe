"""OpenAI custom (free-text) tools and the newer per-tool fields, checked against the official SDK types.

Expected shapes come from openai-python 3.54.0 (types/chat/chat_completion_custom_tool_param.py,
chat_completion_named_tool_choice_custom_param.py, chat_completion_message_custom_tool_call.py,
types/responses/custom_tool_param.py, shared_params/custom_tool_input_format.py, tool_choice_custom_param.py,
response_custom_tool_call.py) and anthropic 2.12.0 types/tool_param.py; bodies are validated with the SDK's
TypedDicts (tests/sdk_types.py) and sent through the real openai client to a mock transport.
"""

from __future__ import annotations

import json

import httpx
import pytest

from sdk_types import check, missing
from toolchoice.providers import openai_chat, openai_responses
from toolchoice.providers.core import registry
from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.model import ToolchoiceError
from toolchoice.providers.core.scenario import load_scenario_text
from toolchoice.providers.core.verdict import verdict

pytestmark = pytest.mark.skipif(missing("openai", "anthropic"), reason="openai and anthropic (in [test]) are not installed")


def sdk_type(name: str) -> object:
    """An SDK request type, imported when a test runs rather than at collection (openai and anthropic take
    ~1.4 s to import together)."""
    if name == "chat":
        from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming as chat
        return chat
    if name == "responses":
        from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming as responses
        return responses
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming as messages
    return messages


REGEX = r"\d{4}-\d{2}-\d{2}"
SCENARIO = f"""
tools:
  - type: custom
    name: pick_date
    description: Answer with a date.
    format: {{type: grammar, syntax: regex, definition: '{REGEX}'}}
  - {{type: custom, name: shell}}
  - name: get_weather
    parameters: {{type: object, properties: {{city: {{type: string}}}}, required: [city]}}
tool_choice: pick_date
messages: [{{role: user, content: When?}}]
"""


def render(provider: str, text: str = SCENARIO):
    return registry.translate(provider, load_scenario_text(text))


def test_chat_renders_the_wrapped_form_with_a_nested_grammar():
    t = render("openai")
    assert t.request is not None
    body = t.request.body
    # chat_completion_custom_tool_param.py: {type: custom, custom: {name, description, format}}; the grammar
    # format is {type: grammar, grammar: {definition, syntax}}
    assert body["tools"][0] == {"type": "custom", "custom": {
        "name": "pick_date", "description": "Answer with a date.",
        "format": {"type": "grammar", "grammar": {"syntax": "regex", "definition": REGEX}}}}
    assert body["tools"][1] == {"type": "custom", "custom": {"name": "shell"}}
    # chat_completion_named_tool_choice_custom_param.py: {type: custom, custom: {name}}
    assert body["tool_choice"] == {"type": "custom", "custom": {"name": "pick_date"}}
    assert check(body, sdk_type("chat")) == []


def test_responses_renders_the_flat_form():
    t = render("openai-responses")
    assert t.request is not None
    body = t.request.body
    # custom_tool_param.py + custom_tool_input_format.py Grammar: {type: grammar, syntax, definition}
    assert body["tools"][0] == {"type": "custom", "name": "pick_date", "description": "Answer with a date.",
                                "format": {"type": "grammar", "syntax": "regex", "definition": REGEX}}
    assert body["tool_choice"] == {"type": "custom", "name": "pick_date"}  # tool_choice_custom_param.py
    assert "strict" not in body["tools"][0]
    assert check(body, sdk_type("responses")) == []


def test_allowed_tools_name_custom_tools_in_their_own_form():
    text = SCENARIO.replace("tool_choice: pick_date", "tool_choice: {allowed: [pick_date, get_weather], mode: required}")
    chat = render("openai", text).request.body["tool_choice"]["allowed_tools"]["tools"]
    assert chat == [{"type": "custom", "custom": {"name": "pick_date"}},
                    {"type": "function", "function": {"name": "get_weather"}}]
    responses = render("openai-responses", text).request.body["tool_choice"]["tools"]
    assert responses == [{"type": "custom", "name": "pick_date"}, {"type": "function", "name": "get_weather"}]


@pytest.mark.parametrize("provider", [p for p in PROVIDER_IDS if p not in ("openai", "azure", "openai-responses")])
def test_other_providers_refuse_a_custom_tool_and_never_convert_it(provider: str):
    t = render(provider)
    assert t.request is None
    errors = [e for e in t.ledger if e.code == "tool.custom_unsupported"]
    assert errors and all(e.severity == "error" for e in errors)
    # every custom tool the request would declare is named (a named choice emulated by sending only that
    # tool leaves shell out)
    declared = {"pick_date", "shell"} & set(t.offered_tools)
    assert "pick_date" in declared
    assert {m for e in errors for m in ("pick_date", "shell") if f"'{m}'" in e.message} == declared


def test_a_custom_tool_left_out_by_the_choice_does_not_refuse():
    text = SCENARIO.replace("tool_choice: pick_date", "tool_choice: {allowed: [get_weather], mode: auto}")
    t = render("anthropic", text)  # the allowed subset is emulated by sending only get_weather
    assert t.request is not None and [x["name"] for x in t.request.body["tools"]] == ["get_weather"]


def test_the_real_openai_client_sends_the_same_custom_tool_body():
    import openai

    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"id": "x", "object": "chat.completion", "created": 0, "model": "m",
                                         "choices": [{"index": 0, "finish_reason": "stop",
                                                      "message": {"role": "assistant", "content": "ok"}}]})

    body = render("openai").request.body
    client = openai.OpenAI(api_key="sk-test", base_url="http://127.0.0.1:9/v1",
                           http_client=httpx.Client(transport=httpx.MockTransport(handler)))
    client.chat.completions.create(**body)
    assert json.loads(seen[0].content) == body and seen[0].url.path == "/v1/chat/completions"


# ---- replies and the verdict ---------------------------------------------------------------------

CHAT_REPLY = {"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": None,
              "tool_calls": [{"id": "call_1", "type": "custom", "custom": {"name": "pick_date", "input": "2026-11-23"}}]}}]}
RESPONSES_REPLY = {"status": "completed", "output": [
    {"type": "custom_tool_call", "id": "ctc_1", "call_id": "call_9", "name": "pick_date", "input": "next tuesday"}]}


def test_custom_calls_are_parsed_with_their_input():
    chat = openai_chat.parse_reply("openai", CHAT_REPLY).tool_calls[0]
    assert (chat.id, chat.name, chat.arguments, chat.input) == ("call_1", "pick_date", None, "2026-11-23")
    assert chat.to_json() == {"id": "call_1", "name": "pick_date", "kind": "custom", "input": "2026-11-23"}
    responses = openai_responses.parse_reply("openai-responses", RESPONSES_REPLY).tool_calls[0]
    assert (responses.id, responses.name, responses.input) == ("call_9", "pick_date", "next tuesday")


def test_the_verdict_checks_a_regex_grammar_with_python_re():
    scenario = load_scenario_text(SCENARIO)
    good = verdict(scenario, openai_chat.parse_reply("openai", CHAT_REPLY), render("openai"))
    assert good["category"] == "obeyed" and good["calls"][0]["valid"] is True
    bad = verdict(scenario, openai_responses.parse_reply("openai-responses", RESPONSES_REPLY),
                  render("openai-responses"))
    assert bad["category"] == "invalid_arguments"
    assert "does not match" in bad["calls"][0]["errors"][0]


def test_a_lark_grammar_or_a_python_incompatible_regex_is_not_checked():
    lark = SCENARIO.replace(f"syntax: regex, definition: '{REGEX}'", "syntax: lark, definition: 'start: NUMBER'")
    reply = openai_chat.parse_reply("openai", CHAT_REPLY)
    v = verdict(load_scenario_text(lark), reply, render("openai", lark))
    assert v["category"] == "obeyed" and v["calls"][0]["errors"][0].startswith("schema:")
    rust_only = SCENARIO.replace(REGEX, r"\p{Greek}+")  # a Rust regex class Python's re rejects
    v = verdict(load_scenario_text(rust_only), reply, render("openai", rust_only))
    assert v["category"] == "obeyed" and "does not compile" in v["calls"][0]["errors"][0]


def test_a_custom_call_to_a_function_tool_is_invalid():
    reply = openai_chat.parse_reply("openai", {"choices": [{"message": {"tool_calls": [
        {"id": "c", "type": "custom", "custom": {"name": "get_weather", "input": "Paris"}}]}}]})
    text = SCENARIO.replace("tool_choice: pick_date", "tool_choice: get_weather")
    v = verdict(load_scenario_text(text), reply, render("openai", text))
    assert v["category"] == "invalid_arguments"


@pytest.mark.parametrize("tool, message", [
    ("{type: custom, name: x, format: {type: grammar, syntax: pcre, definition: a}}", "must be lark or regex"),
    ("{type: custom, name: x, format: {type: grammar, syntax: regex}}", "needs a definition"),
    ("{type: custom, name: x, format: {type: json}}", "must be {type: text}"),
    ("{type: custom, name: x, parameters_json: {}}", "unknown key 'parameters_json' in a custom tool"),
])
def test_bad_custom_tools_are_one_line_errors(tool: str, message: str):
    with pytest.raises(ToolchoiceError) as info:
        load_scenario_text(f"tools:\n  - {tool}\n", "s.yaml")
    assert message in info.value.message and info.value.one_line().startswith("s.yaml:2:")


# ---- newer per-tool fields -----------------------------------------------------------------------

FIELDS = """
tools:
  - name: get_weather
    input_examples: [{city: Paris}]
    defer_loading: true
    output_schema: {type: object}
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
tool_choice: auto
messages: [{role: user, content: hi}]
"""


def test_tool_fields_are_sent_where_the_sdk_type_has_them():
    anthropic = render("anthropic", FIELDS).request.body
    # anthropic types/tool_param.py ToolParam: input_examples, defer_loading (no output_schema)
    assert anthropic["tools"][0]["input_examples"] == [{"city": "Paris"}]
    assert anthropic["tools"][0]["defer_loading"] is True and "output_schema" not in anthropic["tools"][0]
    assert check(anthropic, sdk_type("messages")) == []
    responses = render("openai-responses", FIELDS).request.body
    # openai types/responses/function_tool_param.py: defer_loading, output_schema (no input_examples)
    assert responses["tools"][0]["defer_loading"] is True and responses["tools"][0]["output_schema"] == {"type": "object"}
    assert "input_examples" not in responses["tools"][0]
    assert check(responses, sdk_type("responses")) == []


@pytest.mark.parametrize("provider", PROVIDER_IDS)
def test_tool_fields_are_dropped_with_an_entry_elsewhere(provider: str):
    t = render(provider, FIELDS)
    dropped = {f for e in t.ledger if e.code == "tool.field_dropped"
               for f in ("input_examples", "defer_loading", "output_schema") if f + " is not sent" in e.message}
    kept = {"anthropic": {"input_examples", "defer_loading"}, "openai-responses": {"defer_loading", "output_schema"}}
    assert dropped == {"input_examples", "defer_loading", "output_schema"} - kept.get(provider, set())
    if t.request is not None:
        assert "input_examples" not in json.dumps(t.request.body) or provider == "anthropic"


# ---- per-tool fields on custom tools and the 2026-11-26 SDK fields (openai 3.57.0, google-genai 3.6.1) -------------

CUSTOM_FIELDS = """
tools:
  - type: custom
    name: run_sql
    description: Run one SQL statement
    allowed_callers: [programmatic]
    defer_loading: true
    async: true
  - name: get_weather
    async: true
    allowed_callers: [direct]
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
tool_choice: auto
messages: [{role: user, content: hi}]
"""


def test_a_responses_custom_tool_carries_the_fields_its_sdk_type_has():
    """openai 3.57.0 types/responses/custom_tool_param.py CustomToolParam: allowed_callers, defer_loading and
    (_CustomToolParamReservedKeywords) async; function_tool_param.py FunctionToolParam likewise has async."""
    t = render("openai-responses", CUSTOM_FIELDS)
    body = t.request.body
    assert body["tools"][0] == {"type": "custom", "name": "run_sql", "description": "Run one SQL statement",
                                "allowed_callers": ["programmatic"], "defer_loading": True, "async": True}
    assert body["tools"][1]["async"] is True and body["tools"][1]["allowed_callers"] == ["direct"]
    assert "tool.field_dropped" not in {e.code for e in t.ledger}
    assert check(body, sdk_type("responses")) == []


def test_chat_custom_tools_have_no_such_fields_so_they_are_dropped_with_an_entry():
    """openai 3.57.0 types/chat/chat_completion_custom_tool_param.py Custom: name, description, format only."""
    t = render("openai", CUSTOM_FIELDS)
    assert t.request.body["tools"][0] == {"type": "custom", "custom": {"name": "run_sql",
                                                                       "description": "Run one SQL statement"}}
    dropped = [e.message for e in t.ledger if e.code == "tool.field_dropped" and "'run_sql'" in e.message]
    assert len(dropped) == 3 and all("openai-responses take it" in m for m in dropped), dropped
    assert check(t.request.body, sdk_type("chat")) == []


def test_a_custom_tool_field_no_custom_tool_type_has_is_refused_with_its_line():
    with pytest.raises(ToolchoiceError) as info:
        load_scenario_text("tools:\n  - type: custom\n    name: x\n    output_schema: {type: object}\n", "s.yaml")
    assert info.value.one_line().startswith("s.yaml:4:") and "unknown key 'output_schema'" in info.value.message


def test_async_must_be_a_boolean():
    with pytest.raises(ToolchoiceError) as info:
        load_scenario_text("tools:\n  - type: custom\n    name: x\n    async: later\n", "s.yaml")
    assert info.value.one_line().startswith("s.yaml:4:")


GEMINI_FIELDS = """
tools:
  - name: get_weather
    behavior: NON_BLOCKING
    response_json_schema: {type: object, properties: {temp: {type: number}}}
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
tool_choice: auto
messages: [{role: user, content: hi}]
"""


def test_gemini_function_declarations_carry_the_response_schema_and_say_why_behavior_is_not_sent():
    """google-genai 3.6.1 types.py FunctionDeclaration: response_json_schema (JSON Schema of the function's output),
    sent in the REST API's camelCase; behavior 'is currently only supported by the BidiGenerateContent method', and
    toolchoice sends generateContent: read, and dropped with that reason."""
    from google.genai import types

    t = render("gemini", GEMINI_FIELDS)
    [declaration] = t.request.body["tools"][0]["functionDeclarations"]
    assert declaration["responseJsonSchema"] == {"type": "object", "properties": {"temp": {"type": "number"}}}
    assert "behavior" not in declaration
    parsed = types.FunctionDeclaration.model_validate(declaration)  # the SDK reads the wire form back
    assert parsed.response_json_schema == declaration["responseJsonSchema"]
    [dropped] = [e.message for e in t.ledger if e.code == "tool.field_dropped"]
    assert "behavior" in dropped and "BidiGenerateContent" in dropped
    other = render("anthropic", GEMINI_FIELDS)
    dropped = [e.message for e in other.ledger if e.code == "tool.field_dropped"]
    assert len(dropped) == 2 and any("gemini take it" in m for m in dropped)
    assert any("behavior" in m and "no API toolchoice sends to takes it" in m for m in dropped)
    assert "behavior" not in json.dumps(other.request.body)
