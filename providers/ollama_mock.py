"""Ollama /api/chat: the family behind ``toolchoice mock`` / ``proxy`` (core/mock; registry.mock_family).

How a request body of this API reads back into neutral terms (tools, tool_choice as on the wire, the
history, the thinking setting), and the reply body, stream events and error envelope in this API's shape.
Kept beside the family's translator so `render` never loads it.
"""

from __future__ import annotations

from typing import Any

from .core.model import ProviderSettings, ThinkingSetting
from .ollama import PATH

MOCK_BASE_PATH = ""  # ollama-python Client(host=...)
_MOCK_KNOWN = frozenset({"model", "messages", "tools", "stream", "options", "think"})


def mock_route(method: str, path: str) -> dict[str, Any] | None:
    return {} if method == "POST" and path.rstrip("/") == PATH else None


# The message fields mock_read walks and the Go types ollama's server decodes them into (api/types.go: Message's
# content, thinking and tool_name strings, tool_calls []ToolCall, each {function: ToolCallFunction{name, arguments}}),
# checked before they are read (reading.misfit); "*" is each element of an array
_KINDS = {("*", "content"): "string", ("*", "thinking"): "string", ("*", "tool_name"): "string",
          ("*", "tool_calls"): "array", ("*", "tool_calls", "*"): "object", ("*", "tool_calls", "*", "function"): "object",
          ("*", "tool_calls", "*", "function", "name"): "string",
          ("*", "tool_calls", "*", "function", "arguments"): "object"}
_GO_TYPES = {"content": "string", "thinking": "string", "tool_name": "string", "tool_calls": "[]api.ToolCall",
             "function": "api.ToolCallFunction", "name": "string", "arguments": "api.ToolCallFunctionArguments"}
_GO_VALUES = {"boolean": "bool", "integer": "number", "decimal": "number"}


def _go_words(path: tuple[Any, ...], kind: str, value: Any) -> str:
    """The server's 400 for a value of another type: Go's encoding/json UnmarshalTypeError as ``ShouldBindJSON``
    returns it ("json: cannot unmarshal bool into Go struct field ChatRequest.messages.tool_calls of type
    []api.ToolCall"): the field's path without indexes, the value's JSON kind, the Go type."""
    from .core.mock.reading import json_kind

    found = json_kind(value).split()[-1]
    where = ".".join(key for key in path if isinstance(key, str))
    go_type = "api.ToolCall" if isinstance(path[-1], int) else _GO_TYPES[path[-1]]  # an element: of tool_calls
    return (f"json: cannot unmarshal {_GO_VALUES.get(found, found)} into Go struct field ChatRequest.{where} of type "
            f"{go_type}")


def mock_read(body: dict[str, Any], route: dict[str, Any]) -> Any:
    """An /api/chat body → MockRead: no tool_choice field exists (always null); streams unless stream: false."""
    from .core.mock.judge import MockMalformed, MockRead
    from .core.mock.reading import chat_history, leading_system, read_tools, unjudged

    if not isinstance(body.get("model"), str) or not body["model"]:
        raise MockMalformed("model is required")
    tools, notes = read_tools(body.get("tools"), "openai-chat")
    options = body.get("options") if isinstance(body.get("options"), dict) else {}
    think = body.get("think")
    # ollama-python ChatRequest.think: bool | 'low' | 'medium' | 'high' (a level turns thinking on, as ollama.py sends)
    level = think if think in ("low", "medium", "high") else None
    settings = ProviderSettings(max_tokens=options.get("num_predict"), temperature=options.get("temperature"),
                                thinking=True if level else think if isinstance(think, bool) else None,
                                thinking_mode=ThinkingSetting("on", effort=level) if level else None)
    read = chat_history(body.get("messages"), "ollama", "thinking", kinds=_KINDS, words=_go_words,
                        partial=MockRead(None, tools, settings=settings, model=body["model"], notes=notes))
    return MockRead(None, tools, tuple(read.history), settings,
                    body.get("stream") is not False, body["model"], unjudged=unjudged(body, _MOCK_KNOWN), notes=notes,
                    thinking=think is True or level is not None,
                    **dict(zip(("system", "system_role"), leading_system(read.system))))


def mock_call_id(call: Any) -> str | None:
    """None: the mock's tool calls carry no id (ollama-python's ToolCall has none; a tool message names its tool_name),
    so the line's calls[].id is null."""
    return None


def _mock_message(answer: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.text or ""}
    if answer.thinking is not None:
        message["thinking"] = answer.thinking
    if answer.calls:
        message["tool_calls"] = [{"function": {"name": c.name, "arguments": c.arguments if c.arguments is not None
                                               else c.raw}} for c in answer.calls]
    return message


def mock_reply(answer: Any, read: Any, number: int, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A ChatResponse (ollama-python _types.py; docs/api.md /api/chat)."""
    return {"model": read.model, "created_at": "2026-11-26T09:00:00Z", "message": _mock_message(answer), "done": True,
            "done_reason": "stop", "total_duration": 1000, "prompt_eval_count": 10, "eval_count": 5}


def mock_events(answer: Any, read: Any, number: int, body: dict[str, Any]) -> list[tuple[str | None, Any]]:
    """NDJSON: the message (with its tool calls whole), then the done line with the counts."""
    head = {"model": read.model, "created_at": "2026-11-26T09:00:00Z"}
    return [(None, {**head, "message": _mock_message(answer), "done": False}),
            (None, {**head, "message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop",
                    "total_duration": 1000, "prompt_eval_count": 10, "eval_count": 5})]


def mock_error(status: int, message: str) -> tuple[dict[str, Any], dict[str, str]]:
    """{"error": "..."} (ollama docs/api/errors.mdx; tests/data/responses/errors/error-ollama-native.json)."""
    return {"error": message}, {}
