"""Cohere v2 chat: the family behind ``toolchoice mock`` / ``proxy`` (core/mock; registry.mock_family).

How a request body of this API reads back into neutral terms (tools, tool_choice as on the wire, the
history, the thinking setting), and the reply body, stream events and error envelope in this API's shape.
Kept beside the family's translator so `render` never loads it.
"""

from __future__ import annotations

from typing import Any

from .core.model import ProviderSettings
from .cohere import PATH

MOCK_BASE_PATH = ""  # cohere-python ClientV2(base_url=...) adds /v2/chat
# The only tool_choice values read are fact cohere.tool_choice_values' (core/facts.py; core/mock/judge.py reads them).
# Another string is refused 422 in the API's recorded words (_choice_shape; fact cohere.tool_choice_shape_words),
# except REQUIRED and NONE in another case and an object: no source says what the API does with these, passed unread.
_MOCK_KNOWN = frozenset({"model", "messages", "tools", "tool_choice", "stream", "max_tokens", "temperature", "thinking",
                         "strict_tools"})


def mock_route(method: str, path: str) -> dict[str, Any] | None:
    return {} if method == "POST" and path.rstrip("/") == PATH else None


# The message fields mock_read walks (cohere-python 5.x types: ChatMessageV2's content a string or a list of parts,
# tool_calls a list of ToolCallV2 {id, function: {name, arguments: str}}, tool_call_id and tool_plan strings), checked
# before they are read (reading.misfit); "*" is each element of an array
_KINDS = {("*", "content"): "string or array", ("*", "tool_plan"): "string", ("*", "tool_call_id"): "string",
          ("*", "tool_calls"): "array", ("*", "tool_calls", "*"): "object", ("*", "tool_calls", "*", "id"): "string",
          ("*", "tool_calls", "*", "function"): "object", ("*", "tool_calls", "*", "function", "name"): "string",
          ("*", "tool_calls", "*", "function", "arguments"): "string"}


def _type_words(path: tuple[Any, ...], kind: str, value: Any) -> str:
    """A value of another type, in the envelope's "invalid request: " form (error-cohere-invalid-request.json); no
    recorded 400 quotes the API's words for this case, so the rest is toolchoice's, naming the field's path."""
    from .core.mock.reading import indexed, json_kind

    kinds = " or ".join(f"{'an' if k[0] in 'aeiou' else 'a'} {k}" for k in kind.split(" or "))
    return f"invalid request: {indexed(path)} must be {kinds}, not {json_kind(value)}"


def mock_read(body: dict[str, Any], route: dict[str, Any]) -> Any:
    """A v2 chat body → MockRead (tool_choice REQUIRED / NONE, OpenAI-like tools and messages)."""
    from .core.mock.judge import MockMalformed, MockRead
    from .core.mock.reading import chat_history, leading_system, read_tools, unjudged

    if not isinstance(body.get("model"), str):
        raise MockMalformed("invalid request: model is required")
    tools, notes = read_tools(body.get("tools"), "openai-chat")
    if body.get("strict_tools") is True:  # one flag for every tool (cohere.py)
        tools = tuple(t._replace(strict=True) for t in tools)
    thinking = body.get("thinking") if isinstance(body.get("thinking"), dict) else {}
    settings = ProviderSettings(max_tokens=body.get("max_tokens"), temperature=body.get("temperature"),
                                thinking=None if not thinking else thinking.get("type") == "enabled")
    read = chat_history(body.get("messages"), "cohere", plan_key="tool_plan", kinds=_KINDS, words=_type_words,
                        partial=MockRead(body.get("tool_choice"), tools, settings=settings, model=body["model"],
                                         notes=notes))
    return MockRead(body.get("tool_choice"), tools, tuple(read.history), settings, body.get("stream") is True,
                    body["model"], unjudged=unjudged(body, _MOCK_KNOWN), notes=notes,
                    shape=_choice_shape(body.get("tool_choice")),
                    **dict(zip(("system", "system_role"), leading_system(read.system))))


def _choice_shape(choice: Any) -> Any:
    """A string tool_choice that is not one of Cohere's options, in toolchoice's words (the 422 carries the API's,
    fact cohere.tool_choice_shape_words)."""
    from .core.model import LedgerEntry, quoted

    if not isinstance(choice, str) or choice.upper() in ("REQUIRED", "NONE"):
        return None
    return LedgerEntry("error", "tool_choice.shape", f"tool_choice {quoted(choice)} is not one of Cohere's options "
                       "(REQUIRED, NONE; cohere 7.3.1 V2ChatRequestToolChoice, the v2 chat reference): leave it out for "
                       "auto, write REQUIRED for any tool; the API answers 422")


def mock_call_id(call: Any) -> str | None:
    """The id a tool call of the mock's answer carries (what a tool message's tool_call_id answers; the line's
    calls[].id)."""
    return call.id


def _mock_message(answer: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant"}
    if answer.calls:
        message["tool_plan"] = "toolchoice mock calls a tool."
        message["tool_calls"] = [{"id": mock_call_id(c), "type": "function",
                                  "function": {"name": c.name, "arguments": c.raw}}
                                 for c in answer.calls]
    if answer.text is not None:
        message["content"] = [{"type": "text", "text": answer.text}]
    return message


_MOCK_USAGE = {"billed_units": {"input_tokens": 10, "output_tokens": 5}, "tokens": {"input_tokens": 10, "output_tokens": 5}}


def mock_reply(answer: Any, read: Any, number: int, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A V2ChatResponse (cohere-python types/v2chat_response.py)."""
    return {"id": f"mock-{number}", "finish_reason": "TOOL_CALL" if answer.calls else "COMPLETE",
            "message": _mock_message(answer), "usage": _MOCK_USAGE}


def mock_events(answer: Any, read: Any, number: int, body: dict[str, Any]) -> list[tuple[str | None, Any]]:
    """v2 chat stream events (message-start, content-*, tool-plan-delta, tool-call-*, message-end)."""
    events: list[tuple[str | None, Any]] = []

    def add(kind: str, **fields: Any) -> None:
        events.append((kind, {"type": kind, **fields}))

    add("message-start", id=f"mock-{number}", delta={"message": {"role": "assistant", "content": [], "tool_plan": "",
                                                                 "tool_calls": [], "citations": []}})
    if answer.text is not None:
        add("content-start", index=0, delta={"message": {"content": {"type": "text", "text": ""}}})
        add("content-delta", index=0, delta={"message": {"content": {"text": answer.text}}})
        add("content-end", index=0)
    if answer.calls:
        add("tool-plan-delta", delta={"message": {"tool_plan": "toolchoice mock calls a tool."}})
    for index, call in enumerate(answer.calls):
        add("tool-call-start", index=index, delta={"message": {"tool_calls": {
            "id": mock_call_id(call), "type": "function", "function": {"name": call.name, "arguments": ""}}}})
        add("tool-call-delta", index=index, delta={"message": {"tool_calls": {"function": {"arguments": call.raw}}}})
        add("tool-call-end", index=index)
    add("message-end", delta={"finish_reason": "TOOL_CALL" if answer.calls else "COMPLETE", "usage": _MOCK_USAGE})
    return events


def mock_error(status: int, message: str) -> tuple[dict[str, Any], dict[str, str]]:
    """{"message": ...} (tests/data/responses/errors/error-cohere-invalid-request.json)."""
    return {"message": message}, {}
