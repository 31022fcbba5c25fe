"""An OpenAI Responses reply (the whole response object, or the final one a stream ends with) → ``Reply``: its calls,
text, reasoning items and server calls (``openai_responses.parse_reply``; the stream assembler in
``openai_responses_stream`` reads its final response with it)."""

from __future__ import annotations

from typing import Any

from .core import translation
from .core.model import ProviderError, ReasoningItem, Reply, ServerCall, ToolCall, Usage
from .core.parsing import bad_body, caller_of, custom_display, expect_dict, expect_list, int_or_none, join_text, make_call
from .core.reply import looks_like_error, provider_error


def parse_reply(provider: str, body: Any) -> Reply:
    """A Responses body → Reply: ``function_call`` items (``call_id`` as the id), ``output_text`` and
    ``refusal`` text of ``message`` items, ``status`` as the finish reason, ``reasoning`` items kept as
    reasoning state. ``mcp_call``, ``mcp_approval_request`` and ``program`` items become server calls; other
    hosted-tool items are skipped. An error envelope becomes ``Reply.error``."""
    data = expect_dict(provider, body, "the body")
    if "output" not in data and looks_like_error(data):
        return Reply(error=provider_error(provider, None, data))
    calls = []
    texts: list[str] = []
    reasoning: list[ReasoningItem] = []
    server: list[ServerCall] = []
    for i, raw in enumerate(expect_list(provider, data.get("output"), "output")):
        item = expect_dict(provider, raw, f"output[{i}]")
        kind = item.get("type")
        if kind == "reasoning":
            reasoning.append(_reasoning_item(item, len(calls)))
        elif kind == "function_call":
            if not isinstance(item.get("name"), str):
                raise bad_body(provider, f"output[{i}] is a function_call without a name")
            call_id = item.get("call_id", item.get("id"))
            call = make_call(call_id, item["name"], item.get("arguments"))
            caller = caller_of(item.get("caller"))  # programmatic tool calling: {type: program, caller_id}
            calls.append(call._replace(caller=caller) if caller is not None else call)
        elif kind == "custom_tool_call":
            # openai-python types/responses/response_custom_tool_call.py: {type, call_id, name, input}
            if not isinstance(item.get("name"), str):
                raise bad_body(provider, f"output[{i}] is a custom_tool_call without a name")
            text = item.get("input")
            calls.append(ToolCall(item.get("call_id", item.get("id")), item["name"], None,
                                  input=text if isinstance(text, str) else "", **custom_display(text)))
        elif kind in SERVER_CALLS:
            server.append(server_call(item))
        elif kind == "message":
            for j, part in enumerate(expect_list(provider, item.get("content"), f"output[{i}].content")):
                part = expect_dict(provider, part, f"output[{i}].content[{j}]")
                if part.get("type") == "output_text" and isinstance(part.get("text"), str):
                    texts.append(part["text"])
                elif part.get("type") == "refusal" and isinstance(part.get("refusal"), str):
                    texts.append(part["refusal"])
    return Reply(tool_calls=tuple(calls), text=join_text(texts), finish_reason=_finish(data),
                 usage=_usage(data.get("usage")), error=_failure(data.get("error")), reasoning=tuple(reasoning),
                 server_calls=tuple(server))


# Output items the API ran itself (openai 3.57.0 types/responses/response_output_item.py McpCall,
# McpApprovalRequest, Program): judged against a native tool_choice, never as calls to declared tools.
SERVER_CALLS = ("mcp_call", "mcp_approval_request", "program")


def server_call(item: dict[str, Any]) -> ServerCall:
    """One ``mcp_call`` / ``mcp_approval_request`` / ``program`` output item as a ServerCall."""
    def text(key: str) -> str | None:
        value = item.get(key)
        return value if isinstance(value, str) else None

    error = item.get("error")
    if isinstance(error, dict):  # McpToolCallError: {type, message} or {type, content} (mcp_tool_call_error.py)
        error = error.get("message") or error.get("type")
    kind = item["type"]
    return ServerCall(kind, id=text("call_id") if kind == "program" else text("id"), name=text("name"),
                      server=text("server_label"), error=error if isinstance(error, str) else None)


def _list(value: Any) -> list[Any]:
    """A field that should hold a list; anything else (a fuzzed or broken body) holds nothing to read."""
    return value if isinstance(value, list) else []


def _reasoning_item(item: dict[str, Any], position: int) -> ReasoningItem:
    """A ``reasoning`` output item (openai-python ``types/responses/response_reasoning_item.py``): id,
    summary[] of summary_text, content[] of reasoning_text, encrypted_content."""
    summary = tuple(p["text"] for p in _list(item.get("summary")) if isinstance(p, dict) and isinstance(p.get("text"), str))
    content = [p["text"] for p in _list(item.get("content")) if isinstance(p, dict) and isinstance(p.get("text"), str)]
    encrypted = item.get("encrypted_content")
    item_id = item.get("id")
    return ReasoningItem("openai-responses", id=item_id if isinstance(item_id, str) else None, summary=summary,
                         text="".join(content) if content else None,
                         encrypted=encrypted if isinstance(encrypted, str) else None, position=position)


def _finish(data: dict[str, Any]) -> str | None:
    status = data.get("status")
    if not isinstance(status, str):
        return None
    details = data.get("incomplete_details")
    reason = details.get("reason") if isinstance(details, dict) else None
    return f"{status}:{reason}" if status == "incomplete" and isinstance(reason, str) else status


def _failure(error: Any) -> ProviderError | None:
    """A response that failed on the server carries ``error: {code, message}`` with status ``failed``."""
    if not isinstance(error, dict):
        return None
    code = error.get("code")
    message = error.get("message")
    return ProviderError(status=None, type=code if isinstance(code, str) else None,
                         message=message if isinstance(message, str) else translation.compact(error))


def _usage(usage: Any) -> Usage:
    if not isinstance(usage, dict):
        return Usage()
    return Usage(int_or_none(usage.get("input_tokens")), int_or_none(usage.get("output_tokens")))
