"""The Responses-only tool_choice forms, OpenAI's server calls and Anthropic's tool search, held to the SDKs
(openai 3.57.0, anthropic 2.14.0; checked 2026-11-26).

- ``{type: mcp, server_label, name?}``: openai ``types/responses/tool_choice_mcp_param.py`` ToolChoiceMcpParam
  ("Use this option to force the model to call a specific tool on a remote MCP server").
- ``{type: programmatic_tool_calling}``: openai ``types/responses/response_create_params.py``
  ToolChoiceSpecificProgrammaticToolCallingParam; the tool it forces is ``tool_param.py`` ProgrammaticToolCalling.
- Reply items ``mcp_call``, ``mcp_approval_request``, ``program``: openai ``types/responses/response_output_item.py``.
- Anthropic tool search: ``types/server_tool_use_block.py`` (names tool_search_tool_regex|bm25),
  ``types/tool_search_tool_result_block.py``, ``types/tool_search_tool_search_result_block.py``,
  ``types/tool_reference_block.py``; ``stop_details``: ``types/message.py`` and ``raw_message_delta_event.py``
  (RefusalStopDetails: type refusal, category, explanation).

Every reply body and event below is written from those types and validated by the SDK's own models before use.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sdk_types import check, missing
from test_sdk_claims import SDKS, _load, _members, annotation, fields, literals
from toolchoice.providers import load_scenario_text, parse_reply, translate
from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.model import ToolchoiceError
from toolchoice.providers.core.streaming import assemble_bytes
from toolchoice.providers.core.verdict import verdict

needs_sdks = pytest.mark.skipif(missing("openai", "anthropic"), reason="needs the SDKs")

MCP_TOOL = {"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp",
            "require_approval": "never"}
FUNCTION_TOOL = {"type": "function", "name": "get_time", "parameters": {"type": "object", "properties": {}},
                 "strict": False}


def scenario(choice: str, extra_tools: list[dict[str, Any]] | None = None) -> Any:
    text = f"""
tools:
  - name: get_time
    parameters: {{type: object, properties: {{tz: {{type: string}}}}}}
    allowed_callers: [direct, programmatic]
messages: [{{role: user, content: What time is it?}}]
tool_choice: {choice}
"""
    if extra_tools is not None:
        text += "providers:\n  openai-responses:\n    extra:\n      tools: " + json.dumps(extra_tools) + "\n"
    return load_scenario_text(text, "s.yaml")


MCP_CHOICE = "{type: mcp, server_label: deepwiki, name: ask_question}"
PTC_CHOICE = "{type: programmatic_tool_calling}"


# ---- reading and rendering ------------------------------------------------------------------------


def test_the_mcp_form_is_kept_as_written():
    choice = scenario(MCP_CHOICE).tool_choice
    assert choice.native == {"type": "mcp", "server_label": "deepwiki", "name": "ask_question"}
    assert choice.forces_call
    assert scenario("{type: mcp, server_label: deepwiki}").tool_choice.native == {"type": "mcp",
                                                                                 "server_label": "deepwiki"}


@pytest.mark.parametrize("bad, words", [
    ("{type: mcp}", "needs server_label"),
    ("{type: mcp, server_label: ''}", "needs server_label"),
    ("{type: mcp, server_label: d, name: 3}", "name must be the MCP tool's name"),
    ("{type: mcp, server_label: d, tools: [a]}", "unknown keys: tools"),
    ("{type: programmatic_tool_calling, name: x}", "unknown keys: name"),
])
def test_a_broken_native_form_is_refused_with_its_line(bad, words):
    with pytest.raises(ToolchoiceError) as caught:
        scenario(bad)
    assert words in str(caught.value) and "s.yaml" in str(caught.value)


@needs_sdks
@pytest.mark.parametrize("choice", [MCP_CHOICE, "{type: mcp, server_label: deepwiki}", PTC_CHOICE])
def test_rendered_on_responses_exactly_and_valid_for_the_sdk(choice):
    from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

    extra = [FUNCTION_TOOL, MCP_TOOL if "mcp" in choice else {"type": "programmatic_tool_calling"}]
    s = scenario(choice, extra)
    t = translate("openai-responses", s)
    assert not t.refused
    assert t.request.body["tool_choice"] == s.tool_choice.native
    assert check(t.request.body, ResponseCreateParamsNonStreaming) == []
    codes = [e.code for e in t.ledger]
    assert "tool_choice.native_target" not in codes and "tool_choice.mapped" in codes


def test_responses_warns_when_the_forced_tool_is_not_declared():
    t = translate("openai-responses", scenario(MCP_CHOICE))
    assert not t.refused
    (entry,) = [e for e in t.ledger if e.code == "tool_choice.native_target"]
    assert entry.severity == "warning" and '"server_label":"deepwiki"' in entry.message


@pytest.mark.parametrize("provider", [p for p in PROVIDER_IDS if p != "openai-responses"])
@pytest.mark.parametrize("choice", [MCP_CHOICE, PTC_CHOICE])
def test_every_other_provider_refuses_with_the_source(provider, choice):
    t = translate(provider, scenario(choice))
    assert t.refused and t.effective_tool_choice is None
    errors = [e for e in t.ledger if e.severity == "error"]
    assert [e.code for e in errors] == ["tool_choice.unsupported"]
    assert "openai 3.57.0 types/responses/" in errors[0].message
    assert not any(e.code == "tool_choice.mapped" for e in t.ledger)


# ---- no other SDK has these forms --------------------------------------------------------------


def _choice_type(provider: str) -> Any:
    """The tool_choice type of the provider's SDK (as tests/test_sdk_claims.py reads it)."""
    if provider == "anthropic":
        return _load("anthropic.types.tool_choice_param:ToolChoiceParam")
    if provider == "gemini":
        return _load("google.genai.types:FunctionCallingConfig")
    if provider == "cohere":
        import typing

        return typing.get_type_hints(_load("cohere.v2.client:V2Client").chat)["tool_choice"]
    if provider == "ollama":
        return _load("ollama._types:ChatRequest")
    request = SDKS[provider][1].request  # the request type tests/test_sdk_claims.py reads (its typed())
    return annotation(_load(request), "tool_choice")


def _all_words(tp: Any, depth: int = 0) -> set[str]:
    """Every string literal in a type, its object members' field types included (two levels down)."""
    words = set(literals(tp))
    if depth > 2:
        return words
    for leaf in _members(tp):
        try:
            names = fields(leaf)
        except TypeError:
            continue
        for name in names:
            try:
                words |= _all_words(annotation(leaf, name), depth + 1)
            except (KeyError, TypeError, NameError):
                continue
    return words


@pytest.mark.parametrize("provider", sorted(SDKS))
def test_only_the_responses_sdk_has_these_tool_choice_forms(provider):
    package = SDKS[provider][0]
    if missing(package):
        pytest.skip(f"needs {package}")
    if provider == "bedrock":
        from sdk_types import botocore_session

        words = set(botocore_session().get_service_model("bedrock-runtime").shape_for("ToolChoice").members)
    else:
        words = _all_words(_choice_type(provider))
    assert words, provider  # the reader found the type
    has = {"mcp" in words, "programmatic_tool_calling" in words}
    assert has == {provider == "openai-responses"}, (provider, sorted(words))


# ---- replies and the verdict ------------------------------------------------------------------

MCP_CALL = {"type": "mcp_call", "id": "mcp_1", "name": "ask_question", "server_label": "deepwiki",
            "arguments": "{\"q\": \"x\"}", "output": "answer", "status": "completed"}
MCP_OTHER = {**MCP_CALL, "id": "mcp_2", "name": "read_wiki"}
MCP_APPROVAL = {"type": "mcp_approval_request", "id": "mcpr_1", "name": "ask_question", "server_label": "deepwiki",
                "arguments": "{}"}
PROGRAM = {"type": "program", "id": "prog_item_1", "call_id": "prog_1", "code": "await tools.get_time({})",
           "fingerprint": "fp"}
CODE_CALL = {"type": "function_call", "call_id": "call_b", "name": "get_time", "arguments": "{\"tz\": \"CET\"}",
             "caller": {"type": "program", "caller_id": "prog_1"}}
DIRECT_CALL = {"type": "function_call", "call_id": "call_a", "name": "get_time", "arguments": "{}",
               "caller": {"type": "direct"}}
TEXT = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
        "content": [{"type": "output_text", "text": "It is noon.", "annotations": []}]}


def responses_body(*items: dict[str, Any]) -> dict[str, Any]:
    return {"id": "resp_1", "object": "response", "status": "completed", "output": list(items)}


@needs_sdks
def test_the_reply_items_are_the_sdks():
    from pydantic import TypeAdapter
    from openai.types.responses.response_output_item import ResponseOutputItem

    adapter = TypeAdapter(ResponseOutputItem)
    for item in (MCP_CALL, MCP_OTHER, MCP_APPROVAL, PROGRAM, CODE_CALL, DIRECT_CALL, TEXT):
        assert adapter.validate_python(item).type == item["type"]


def test_server_calls_are_parsed_apart_from_function_calls():
    reply = parse_reply("openai-responses", responses_body(MCP_CALL, MCP_APPROVAL, PROGRAM, CODE_CALL))
    assert [c.name for c in reply.tool_calls] == ["get_time"]
    assert [(c.kind, c.id, c.server, c.name) for c in reply.server_calls] == [
        ("mcp_call", "mcp_1", "deepwiki", "ask_question"), ("mcp_approval_request", "mcpr_1", "deepwiki", "ask_question"),
        ("program", "prog_1", None, None)]
    assert reply.to_json()["server_calls"][0] == {"kind": "mcp_call", "id": "mcp_1", "name": "ask_question",
                                                  "server": "deepwiki"}


def test_an_mcp_error_is_kept():
    item = {**MCP_CALL, "error": {"type": "mcp_protocol_error", "code": -32000, "message": "server down"}}
    (call,) = parse_reply("openai-responses", responses_body(item)).server_calls
    assert call.error == "server down"


@pytest.mark.parametrize("items, category, words", [
    ((MCP_CALL,), "obeyed", "called deepwiki/ask_question"),
    ((MCP_APPROVAL,), "obeyed", "awaiting approval"),
    ((MCP_OTHER,), "wrong_tool", "'deepwiki/read_wiki'"),
    ((MCP_CALL, DIRECT_CALL), "wrong_tool", "'get_time'"),
    ((TEXT,), "no_call", "requires a call to MCP server 'deepwiki' tool 'ask_question'"),
])
def test_the_verdict_judges_mcp_calls_against_the_choice(items, category, words):
    s = scenario(MCP_CHOICE, [FUNCTION_TOOL, MCP_TOOL])
    result = verdict(s, parse_reply("openai-responses", responses_body(*items)), translate("openai-responses", s))
    assert result["category"] == category
    assert words in result["reasons"][0]
    assert ("server_calls" in result) == any(item["type"].startswith("mcp") for item in items)


def test_any_tool_of_the_server_obeys_an_unnamed_mcp_choice():
    s = scenario("{type: mcp, server_label: deepwiki}", [FUNCTION_TOOL, MCP_TOOL])
    assert verdict(s, parse_reply("openai-responses", responses_body(MCP_OTHER)))["category"] == "obeyed"


@pytest.mark.parametrize("items, category, words", [
    ((PROGRAM,), "obeyed", "ran program prog_1"),
    ((PROGRAM, CODE_CALL), "obeyed", "called get_time with valid arguments"),
    ((DIRECT_CALL,), "wrong_tool", "'get_time' directly"),
    ((TEXT,), "no_call", "requires a program"),
])
def test_the_verdict_judges_programmatic_tool_calling(items, category, words):
    s = scenario(PTC_CHOICE, [FUNCTION_TOOL, {"type": "programmatic_tool_calling"}])
    result = verdict(s, parse_reply("openai-responses", responses_body(*items)), translate("openai-responses", s))
    assert result["category"] == category
    assert words in result["reasons"][0]


def _sse(events: list[dict[str, Any]]) -> bytes:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


@needs_sdks
def test_a_streamed_mcp_call_is_the_same_server_call():
    from pydantic import TypeAdapter
    from openai.types.responses.response_stream_event import ResponseStreamEvent

    final = {"id": "resp_1", "object": "response", "status": "completed", "output": [MCP_CALL]}
    events = [{"type": "response.output_item.added", "output_index": 0, "sequence_number": 1,
               "item": {**MCP_CALL, "status": "in_progress", "output": None}},
              {"type": "response.output_item.done", "output_index": 0, "sequence_number": 2, "item": MCP_CALL},
              {"type": "response.completed", "sequence_number": 3, "response": final}]
    adapter = TypeAdapter(ResponseStreamEvent)
    for event in events[:2]:
        adapter.validate_python(event)
    streamed = assemble_bytes("openai-responses", _sse(events)).reply
    assert streamed.server_calls == parse_reply("openai-responses", final).server_calls
    assert streamed.server_calls[0].name == "ask_question"


# ---- Anthropic tool search and stop_details ---------------------------------------------------

SEARCH_USE = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "tool_search_tool_regex",
              "input": {"query": "time"}}
SEARCH_RESULT = {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_1",
                 "content": {"type": "tool_search_tool_search_result",
                             "tool_references": [{"type": "tool_reference", "tool_name": "get_time"}]}}
SEARCH_ERROR = {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_1",
                "content": {"type": "tool_search_tool_result_error", "error_code": "unavailable"}}
TOOL_USE = {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {"tz": "UTC"}}
USAGE = {"input_tokens": 10, "output_tokens": 5}


def message(*blocks: dict[str, Any], stop: str = "tool_use", details: Any = None) -> dict[str, Any]:
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-5", "content": list(blocks),
            "stop_reason": stop, "stop_sequence": None, "stop_details": details, "usage": USAGE}


REFUSAL = {"type": "refusal", "category": "cyber", "explanation": "exploit development"}
DEFERRED = """
tools:
  - name: get_time
    parameters: {type: object, properties: {tz: {type: string}}}
    defer_loading: true
messages: [{role: user, content: What time is it?}]
tool_choice: required
"""


@needs_sdks
def test_the_anthropic_bodies_are_the_sdks():
    from anthropic.types import Message

    for body in (message(SEARCH_USE, SEARCH_RESULT, TOOL_USE), message(SEARCH_USE, SEARCH_ERROR, stop="end_turn"),
                 message({"type": "text", "text": "No."}, stop="refusal", details=REFUSAL)):
        assert Message.model_validate(body).type == "message"


def test_a_tool_search_is_parsed_with_the_tools_it_loaded():
    reply = parse_reply("anthropic", message(SEARCH_USE, SEARCH_RESULT, TOOL_USE))
    assert [c.name for c in reply.tool_calls] == ["get_time"]
    (search,) = reply.server_calls
    assert (search.kind, search.id, search.name, search.loaded) == ("tool_search", "srvtoolu_1",
                                                                     "tool_search_tool_regex", ("get_time",))
    failed = parse_reply("anthropic", message(SEARCH_USE, SEARCH_ERROR, stop="end_turn")).server_calls[0]
    assert failed.error == "unavailable" and failed.loaded == ()


def test_the_verdict_says_what_the_tool_search_did():
    s = load_scenario_text(DEFERRED, "s.yaml")
    t = translate("anthropic", s)
    assert t.request.body["tools"][0]["defer_loading"] is True
    obeyed = verdict(s, parse_reply("anthropic", message(SEARCH_USE, SEARCH_RESULT, TOOL_USE)), t)
    assert obeyed["category"] == "obeyed"
    assert "tool search tool_search_tool_regex (srvtoolu_1): loaded get_time" in obeyed["reasons"]
    failed = verdict(s, parse_reply("anthropic", message(SEARCH_USE, SEARCH_ERROR, stop="end_turn")), t)
    assert failed["category"] == "no_call"
    assert any("failed (unavailable)" in r for r in failed["reasons"])


def test_stop_details_is_kept_and_explains_the_stop():
    s = load_scenario_text(DEFERRED, "s.yaml")
    reply = parse_reply("anthropic", message({"type": "text", "text": "No."}, stop="refusal", details=REFUSAL))
    assert reply.stop_details == REFUSAL and reply.to_json()["stop_details"] == REFUSAL
    result = verdict(s, reply, translate("anthropic", s))
    assert result["category"] == "no_call"
    assert "stop_details refusal: category cyber, explanation exploit development (stop_reason refusal)" \
        in result["reasons"]
    assert "stop_details" not in parse_reply("anthropic", message(TOOL_USE)).to_json()


@needs_sdks
def test_streamed_tool_search_and_stop_details_match_the_whole_reply():
    from pydantic import TypeAdapter
    from anthropic.types import RawMessageStreamEvent

    start = {**message(), "content": [], "stop_reason": None}
    events = [{"type": "message_start", "message": start},
              {"type": "content_block_start", "index": 0, "content_block": {**SEARCH_USE, "input": {}}},
              {"type": "content_block_delta", "index": 0,
               "delta": {"type": "input_json_delta", "partial_json": "{\"query\": \"time\"}"}},
              {"type": "content_block_stop", "index": 0},
              {"type": "content_block_start", "index": 1, "content_block": SEARCH_RESULT},
              {"type": "content_block_stop", "index": 1},
              {"type": "message_delta", "delta": {"stop_reason": "refusal", "stop_sequence": None,
                                                  "stop_details": REFUSAL}, "usage": {"output_tokens": 5}},
              {"type": "message_stop"}]
    adapter = TypeAdapter(RawMessageStreamEvent)
    for event in events:
        adapter.validate_python(event)
    streamed = assemble_bytes("anthropic", _sse(events)).reply
    whole = parse_reply("anthropic", message(SEARCH_USE, SEARCH_RESULT, stop="refusal", details=REFUSAL))
    assert streamed.tool_calls == () and streamed.server_calls == whole.server_calls
    assert streamed.stop_details == whole.stop_details == REFUSAL


def test_a_saved_reply_reads_back_whole():
    from toolchoice.providers.core.loop_replay import reply_from_json

    for reply in (parse_reply("openai-responses", responses_body(MCP_CALL, PROGRAM, CODE_CALL)),
                  parse_reply("anthropic", message(SEARCH_USE, SEARCH_RESULT, stop="refusal", details=REFUSAL))):
        assert reply_from_json(json.loads(json.dumps(reply.to_json()))) == reply


# ---- recorded replies (tests/data/responses/*/SOURCES.md, tests/data/streams/SOURCES.md) ------------

DATA = __import__("pathlib").Path(__file__).parent / "data"


def recorded(provider: str, name: str) -> Any:
    return json.loads((DATA / "responses" / provider / name).read_text(encoding="utf-8"))


def test_a_recorded_mcp_call_is_judged_against_an_mcp_choice():
    body = recorded("openai-responses", "openai-responses-mcp-call.json")
    reply = parse_reply("openai-responses", body)
    assert [(c.kind, c.server, c.name) for c in reply.server_calls] == [("mcp_call", "dmcp", "web_search_exa")]
    s = scenario("{type: mcp, server_label: dmcp, name: web_search_exa}")
    assert verdict(s, reply)["category"] == "obeyed"
    other = scenario("{type: mcp, server_label: dmcp, name: get_code_context_exa}")
    assert verdict(other, reply)["category"] == "wrong_tool"


def test_a_recorded_program_obeys_programmatic_tool_calling():
    text = """
tools:
  - name: getInventory
    parameters: {type: object, properties: {sku: {type: string}}, required: [sku]}
    allowed_callers: [programmatic]
messages: [{role: user, content: Enough stock?}]
tool_choice: {type: programmatic_tool_calling}
"""
    s = load_scenario_text(text, "s.yaml")
    reply = parse_reply("openai-responses", recorded("openai-responses", "openai-responses-programmatic-tool-calling.json"))
    assert [(c.kind, c.id) for c in reply.server_calls] == [("program", "call_O2IvSLQcJ0bwIvJZ2ovGV69M")]
    result = verdict(s, reply)
    assert result["category"] == "obeyed"
    assert any("made by the model's code" in r for r in result["reasons"])


def test_a_recorded_tool_search_whole_and_streamed():
    whole = parse_reply("anthropic", recorded("anthropic", "anthropic-tool-search-regex.json"))
    assert [(c.kind, c.name, c.loaded) for c in whole.server_calls] == [
        ("tool_search", "tool_search_tool_regex", ("get_temp_data",))]
    streamed = assemble_bytes("anthropic", (DATA / "streams" / "anthropic" /
                                            "anthropic-tool-search-regex.1.chunks.txt").read_bytes())
    assert [(c.kind, c.id, c.loaded) for c in streamed.reply.server_calls] == [
        ("tool_search", "srvtoolu_01TFsKhwiJYqVMitK2XGtH87", ("get_temp_data",))]
    assert [(c.name, c.caller) for c in streamed.reply.tool_calls] == [("get_temp_data", "direct")]


def test_a_recorded_refusal_keeps_its_stop_details():
    reply = parse_reply("anthropic", recorded("anthropic", "anthropic-refusal-stop-details.json"))
    assert reply.stop_details["category"] == "cyber" and reply.stop_details["recommended_model"] == "claude-fable-5"
    result = verdict(load_scenario_text(DEFERRED, "s.yaml"), reply)
    assert result["category"] == "no_call"
    assert any(r.startswith("stop_details refusal: category cyber") for r in result["reasons"])


@pytest.mark.parametrize("provider, name, line", [
    ("openai-responses", "openai-responses-mcp-call.json", "run by the provider  mcp_call dmcp/web_search_exa"),
    ("openai-responses", "openai-responses-programmatic-tool-calling.json",
     "run by the provider  program call_O2IvSLQcJ0bwIvJZ2ovGV69M"),
    ("anthropic", "anthropic-tool-search-regex.json",
     "run by the provider  tool_search tool_search_tool_regex loaded get_temp_data"),
])
def test_parse_shows_what_the_provider_ran(provider, name, line):
    from cli import run_cli

    path = DATA / "responses" / provider / name
    result = run_cli(["parse", str(path), "-p", provider], env={**__import__("os").environ, "COLUMNS": "200"})
    assert result.returncode == 0, result.stderr
    assert line in result.stdout.splitlines()


def test_parse_shows_stop_details():
    from cli import run_cli

    path = DATA / "responses" / "anthropic" / "anthropic-refusal-stop-details.json"
    result = run_cli(["parse", str(path), "-p", "anthropic"], env={**__import__("os").environ, "COLUMNS": "400"})
    assert "stop_details type refusal, category cyber, explanation This request triggered" in result.stdout
