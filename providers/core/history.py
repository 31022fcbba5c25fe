"""Turn a parsed reply into the assistant message that goes back into the history.

This is what an agent loop appends after each reply: the text, the tool calls (with Gemini's
thoughtSignature on each call) and the reasoning state (Anthropic thinking blocks, Responses reasoning
items, reasoning_content, ...) exactly as the API returned them, so the next request can send them back
in the position the API requires. No I/O, no third-party imports.
"""

from __future__ import annotations

from .model import HistoryCall, Message, Reply, ToolchoiceError


def assistant_message(reply: Reply, provider: str) -> Message:
    """The assistant ``Message`` for ``reply`` (from ``provider``'s ``parse_reply``).

    A call without an id (Gemini may omit it) gets ``call_<n>`` (n from 1, its place in the reply) so
    tool results can answer it; undecodable arguments become ``{}``. Raises ToolchoiceError for an
    error reply or a reply with neither text, calls nor reasoning."""
    if reply.error is not None:
        raise ToolchoiceError(f"{provider} answered with an error, which is not an assistant turn: "
                              f"{reply.error.one_line(provider)}")
    calls = tuple(HistoryCall(id=call.id or f"call_{index}", name=call.name,
                              arguments=call.arguments if call.arguments is not None else {},
                              signature=call.signature)
                  for index, call in enumerate(reply.tool_calls, 1))
    if reply.text is None and not calls and not reply.reasoning:
        raise ToolchoiceError(f"the {provider} reply has no text, tool call or reasoning to append")
    return Message("assistant", content=reply.text, tool_calls=calls, reasoning=reply.reasoning)

