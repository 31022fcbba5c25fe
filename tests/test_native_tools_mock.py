"""`toolchoice mock` (openai-responses) and the Responses-only tool_choice forms, with the real openai client
(openai 3.57.0) over 127.0.0.1: a request forcing ``{type: mcp, server_label, name?}`` or
``{type: programmatic_tool_calling}`` is judged as the API would take it (no 400 when its tool is declared)
and answered with the items types/responses/response_output_item.py defines, which the SDK parses: an
``mcp_call`` (McpCall), or a ``program`` item (Program) and function calls whose ``caller`` is
``{type: program, caller_id}`` (response_function_tool_call.py CallerProgram)."""

from __future__ import annotations

import pytest

from sdk_types import missing
from toolchoice.providers import parse_reply
from toolchoice.providers.core.mock.server import running_mock

pytestmark = pytest.mark.skipif(missing("openai"), reason="needs openai")

KEY = "sk-test-mock-0123456789abcdef"
FUNCTION = {"type": "function", "name": "get_time", "strict": False,
            "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}}
MCP = {"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp",
       "require_approval": "never", "allowed_tools": ["read_wiki_structure", "ask_question"],
       "headers": {"Authorization": "Bearer sk-mcp-secret-0123456789"}}


def _client(mock: object) -> object:
    from openai import OpenAI

    return OpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)  # type: ignore[attr-defined]


def test_an_mcp_choice_is_answered_with_an_mcp_call_the_sdk_reads() -> None:
    from openai.types.responses.response_output_item import McpCall

    with running_mock("openai-responses") as mock:
        client = _client(mock)
        named = client.responses.create(model="gpt-5.4-mini", input="What is React?", tools=[FUNCTION, MCP],
                                        tool_choice={"type": "mcp", "server_label": "deepwiki", "name": "ask_question"})
        unnamed = client.responses.create(model="gpt-5.4-mini", input="What is React?", tools=[MCP],
                                          tool_choice={"type": "mcp", "server_label": "deepwiki"})
        with client.responses.stream(model="gpt-5.4-mini", input="What is React?", tools=[MCP],
                                     tool_choice={"type": "mcp", "server_label": "deepwiki", "name": "ask_question"}
                                     ) as stream:
            streamed = stream.get_final_response()
    for response, name in ((named, "ask_question"), (unnamed, "read_wiki_structure"), (streamed, "ask_question")):
        (item,) = response.output
        assert isinstance(item, McpCall) and item.server_label == "deepwiki" and item.name == name
        reply = parse_reply("openai-responses", response.model_dump(mode="json"))
        assert [(c.kind, c.server, c.name) for c in reply.server_calls] == [("mcp_call", "deepwiki", name)]
    first, second, third = mock.records
    assert [first["status"], second["status"], third["status"]] == [200] * 3  # MCP-only tools, forced: no 400
    assert first["requested"] == {"type": "mcp", "server_label": "deepwiki", "name": "ask_question"}
    assert "sk-mcp-secret" not in repr(mock.records)


def test_a_programmatic_choice_is_answered_by_a_program_and_its_calls() -> None:
    from openai.types.responses.response_function_tool_call import CallerProgram, ResponseFunctionToolCall
    from openai.types.responses.response_output_item import Program

    with running_mock("openai-responses") as mock:
        client = _client(mock)
        response = client.responses.create(model="gpt-5.4-mini", input="Time in Paris?",
                                           tools=[dict(FUNCTION, allowed_callers=["programmatic"]),
                                                  {"type": "programmatic_tool_calling"}],
                                           tool_choice={"type": "programmatic_tool_calling"})
        with client.responses.stream(model="gpt-5.4-mini", input="Time in Paris?",
                                     tools=[FUNCTION, {"type": "programmatic_tool_calling"}],
                                     tool_choice={"type": "programmatic_tool_calling"}) as stream:
            streamed = stream.get_final_response()
    for done in (response, streamed):
        program, call = done.output
        assert isinstance(program, Program) and isinstance(call, ResponseFunctionToolCall)
        assert isinstance(call.caller, CallerProgram) and call.caller.caller_id == program.call_id
        assert call.name == "get_time"
        reply = parse_reply("openai-responses", done.model_dump(mode="json"))
        assert [c.kind for c in reply.server_calls] == ["program"]
        assert reply.tool_calls[0].caller is not None
    assert [r["status"] for r in mock.records] == [200, 200]


def test_a_forced_mcp_server_the_request_lacks_is_still_judged_not_refused() -> None:
    """The API decides what an undeclared server means; the mock notes it (tool_choice.native_target) and
    answers with no 400 of its own making."""
    with running_mock("openai-responses") as mock:
        _client(mock).responses.create(model="gpt-5.4-mini", input="hi", tools=[FUNCTION],
                                       tool_choice={"type": "mcp", "server_label": "other"})
    (record,) = mock.records
    assert record["status"] == 200
    assert "tool_choice.native_target" in [f["code"] for f in record["findings"]]


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_the_anthropic_mock_takes_a_request_whose_only_tools_are_an_mcp_toolset() -> None:
    """tool_choice any with only the MCP connector's tools: the API takes it (the toolset's tools are tools), so
    the mock answers 200, with the beta client of anthropic 2.14.0."""
    from anthropic import Anthropic

    with running_mock("anthropic") as mock:
        client = Anthropic(base_url=mock.base_url, api_key=KEY, max_retries=0)
        message = client.beta.messages.create(
            model="claude-sonnet-5", max_tokens=512, messages=[{"role": "user", "content": "What is React?"}],
            betas=["mcp-client-2025-11-20"], tool_choice={"type": "any"},
            mcp_servers=[{"type": "url", "url": "https://mcp.deepwiki.com/mcp", "name": "deepwiki",
                          "authorization_token": "tok-secret-0123456789"}],
            tools=[{"type": "mcp_toolset", "mcp_server_name": "deepwiki"}])
        with client.beta.messages.stream(
                model="claude-sonnet-5", max_tokens=512, messages=[{"role": "user", "content": "What is React?"}],
                betas=["mcp-client-2025-11-20"], tool_choice={"type": "any"},
                mcp_servers=[{"type": "url", "url": "https://mcp.deepwiki.com/mcp", "name": "deepwiki"}],
                tools=[{"type": "mcp_toolset", "mcp_server_name": "deepwiki"}]) as stream:
            streamed = stream.get_final_message()
    for done in (message, streamed):  # answered with an MCP call, as BetaMCPToolUseBlock has it
        use, result = done.content
        assert (use.type, use.server_name, use.name) == ("mcp_tool_use", "deepwiki", "mock_tool")
        assert result.type == "mcp_tool_result" and result.tool_use_id == use.id
        reply = parse_reply("anthropic", done.model_dump(mode="json"))
        assert [(c.kind, c.server) for c in reply.server_calls] == [("mcp_tool_use", "deepwiki")]
    assert [r["status"] for r in mock.records] == [200, 200], mock.records[0]["findings"]
    assert "tok-secret" not in repr(mock.records)


def test_required_with_only_an_mcp_server_is_answered_with_its_call() -> None:
    from openai.types.responses.response_output_item import McpCall

    with running_mock("openai-responses") as mock:
        response = _client(mock).responses.create(model="gpt-5.4-mini", input="What is React?", tools=[MCP],
                                                  tool_choice="required")
    (item,) = response.output
    assert isinstance(item, McpCall) and (item.server_label, item.name) == ("deepwiki", "read_wiki_structure")
    assert mock.records[0]["status"] == 200


@pytest.mark.skipif(missing("google.genai"), reason="needs google-genai")
def test_the_gemini_mock_reads_mcp_servers_and_says_why_it_answers_mode_any_with_text() -> None:
    """mode ANY with only ``tools[].mcpServers`` (google-genai 3.6.1 types.McpServer), sent by the real client:
    the servers are tools, so the mock no longer answers the 400 "no tools are declared" (it did before); and
    since no reply shape for a call the API ran on an MCP server is known (types.ToolType, the server-side calls
    a GenerateContentResponse holds, names none), it answers with text and a finding that says so. The header
    the client sent is never kept."""
    from google import genai
    from google.genai import types

    from toolchoice.providers.gemini_mock import SERVER_TOOL_TYPES

    server = types.McpServer(name="deepwiki", streamable_http_transport=types.StreamableHttpTransport(
        url="https://mcp.deepwiki.com/mcp", headers={"Authorization": "Bearer sk-mcp-secret-0123456789"}))
    config = types.GenerateContentConfig(tools=[types.Tool(mcp_servers=[server])], tool_config=types.ToolConfig(
        function_calling_config=types.FunctionCallingConfig(mode=types.FunctionCallingConfigMode.ANY)))
    with running_mock("gemini") as mock:
        client = genai.Client(api_key=KEY, http_options=types.HttpOptions(base_url=mock.base_url))
        response = client.models.generate_content(model="gemini-3.5-flash", contents="What is React?", config=config)
        auto = client.models.generate_content(model="gemini-3.5-flash", contents="What is React?",
                                              config=types.GenerateContentConfig(tools=[types.Tool(mcp_servers=[server])]))
    assert response.text and not response.function_calls and auto.text
    forced, unforced = mock.records
    assert [forced["status"], unforced["status"]] == [200, 200], forced["findings"]
    codes = {f["code"]: f["message"] for f in forced["findings"]}
    assert "'deepwiki'" in codes["mock.native_unanswered"]
    assert "mock.native_unanswered" not in {f["code"] for f in unforced["findings"]}
    assert not any("mcpServers" in str(f) for f in forced["findings"] if f["code"] == "mock.unjudged")
    assert "sk-mcp-secret" not in repr(mock.records)
    # the claim the finding rests on, read from the installed SDK: the server-side call types, none of them MCP
    assert tuple(t.value for t in types.ToolType if t.value != "TOOL_TYPE_UNSPECIFIED") == SERVER_TOOL_TYPES
