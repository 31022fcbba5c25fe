"""A streamed Anthropic reply holding the MCP connector's blocks (``mcp_tool_use`` + ``mcp_tool_result``, whole in
their ``content_block_start`` events) is read as the same reply as the whole message: the call the API ran on the
MCP server is a server call, and ``required`` is obeyed by it. Streamed, the call was lost and the verdict was
no_call (found by an adversarial run). The truth is the official client: anthropic 2.14.0's beta stream helper
accumulates the events into the final message, which toolchoice's whole-reply reader must agree with."""

from __future__ import annotations

import httpx
import pytest

from sdk_types import missing
from toolchoice.providers import parse_reply
from toolchoice.providers.core.mock.server import running_mock
from toolchoice.providers.core.streaming import assemble_bytes

pytestmark = pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")

KEY = "sk-ant-test-0123456789abcdef"
REQUEST = {"model": "claude-sonnet-5", "max_tokens": 512, "messages": [{"role": "user", "content": "What is React?"}],
           "tool_choice": {"type": "any"},
           "mcp_servers": [{"type": "url", "url": "https://mcp.deepwiki.com/mcp", "name": "deepwiki"}],
           "tools": [{"type": "mcp_toolset", "mcp_server_name": "deepwiki"}]}


def test_a_streamed_mcp_call_is_the_same_server_call_as_the_whole_message() -> None:
    from anthropic import Anthropic

    with running_mock("anthropic") as mock:
        raw = httpx.post(f"{mock.base_url}/v1/messages", json={**REQUEST, "stream": True}, timeout=10,
                         headers={"x-api-key": KEY, "anthropic-version": "2023-06-01",
                                  "anthropic-beta": "mcp-client-2025-11-20"}).content
        client = Anthropic(base_url=mock.base_url, api_key=KEY, max_retries=0)
        with client.beta.messages.stream(betas=["mcp-client-2025-11-20"], **REQUEST) as stream:
            final = stream.get_final_message()
    assert [b.type for b in final.content] == ["mcp_tool_use", "mcp_tool_result"]
    whole = parse_reply("anthropic", final.model_dump(mode="json"))
    streamed = assemble_bytes("anthropic", raw).reply
    assert streamed is not None
    assert [(c.kind, c.server, c.name) for c in streamed.server_calls] == [
        (c.kind, c.server, c.name) for c in whole.server_calls] == [("mcp_tool_use", "deepwiki", final.content[0].name)]
    assert streamed.tool_calls == whole.tool_calls == ()
