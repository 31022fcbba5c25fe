"""The history in wire form, shared by the translators: the role-per-message list of chat APIs,
tool-call arguments as JSON text, a tool result as a JSON object, and the reasoning items (placed
around a turn's calls; those from another API family left out, with the ledger saying so)."""

from __future__ import annotations

import json
import marshal
from typing import Any, Callable

from .bounded import json_value
from .mock.read_prefix import memo  # light: contextvars only
from .model import Message
from .request_context import Context


def history_arguments_json(arguments: dict[str, Any]) -> str:
    """Tool-call arguments as the JSON text OpenAI-style histories carry. Inside a HAR's reading (read_prefix.memo)
    each call's history is rendered back with the same arguments objects as the previous call's: their text kept."""
    kept = memo()
    if kept is None:
        return json.dumps(arguments, ensure_ascii=False)
    texts = kept.setdefault("history_arguments_json", {})
    found = texts.get(id(arguments))
    if found is None or found[0] is not arguments:
        found = texts[id(arguments)] = (arguments, json.dumps(arguments, ensure_ascii=False))  # held: its id its own
    return found[1]


def chat_messages(ctx: Context, assistant: Callable[[Message], dict[str, Any]],
                  tool: Callable[[Message], dict[str, Any]], developer_role: bool = False) -> list[dict[str, Any]]:
    """The role-per-message history most chat APIs take: system first, users as they are, assistant
    turns and tool results in the provider's own encoding. A tool result's is_error, which these APIs
    have no field for, is recorded in the ledger."""
    out: list[dict[str, Any]] = []
    if ctx.scenario.system is not None:
        developer = developer_role and ctx.scenario.system_role == "developer"
        ctx.developer_sent = developer
        out.append({"role": "developer" if developer else "system", "content": ctx.scenario.system})
    for m in ctx.scenario.messages:
        if m.role == "user":
            out.append({"role": "user", "content": m.content})
        elif m.role == "assistant":
            out.append(assistant(m))
        else:
            out.append(tool(m))
            if m.is_error:
                ctx.ledger.info("history.is_error_dropped", f"tool result {m.tool_call_id} is_error: true has no "
                                f"field in {ctx.cap.title}; the content carries the error")
    return out


def tool_result_object(content: str) -> dict[str, Any]:
    """A tool result as a JSON object for APIs that want one (Gemini, Bedrock): a JSON object is
    used as is, anything else is wrapped as {"output": ...}."""
    try:
        value = result_value(content)
    except ValueError:
        return {"output": content}
    return value if isinstance(value, dict) else {"output": value}


_UNREAD = b""  # a text json_value refused (no value marshals to no bytes)


def result_value(content: str) -> Any:
    """``json_value(content)``. Inside a HAR's reading (read_prefix.memo) each call's history is rendered back with
    the previous call's tool results: each text's value is kept as marshal's bytes (C; each rendering gets its own
    copy, as a new reading gave), where each was read again a call, a Python pass over every result ~N²/2 times."""
    kept = memo()
    if kept is None:
        return json_value(content)
    values = kept.setdefault("result_value", {})
    packed = values.get(content)
    if packed is None:
        try:
            value = json_value(content)
        except ValueError:
            values[content] = _UNREAD
            raise
        try:
            values[content] = marshal.dumps(value, 2)
        except ValueError:  # nested past marshal's bound: read each time
            pass
        return value
    if not packed:
        raise ValueError("not JSON (read before)")
    return marshal.loads(packed)


def reasoning_for(ctx: Context, family: str, title: str | None = None, *, takes_call_signatures: bool = False) -> bool:
    """Record the history's reasoning state this API cannot take: items another API family wrote (their
    signatures and encrypted content are valid only there) and call signatures (Gemini's), unless
    ``takes_call_signatures``. The translator renders only ``family``'s items; this says, once per
    family, what was left out and why.

    True when some message carries reasoning items (of any family)."""
    count_signed = not takes_call_signatures
    if not ctx.history_reasoning and not (count_signed and ctx.history_calls):
        return False
    foreign: dict[str, int] = {}
    signed = 0
    reasoning = False
    for message in ctx.scenario.messages:
        if message.reasoning:
            reasoning = True
            for item in message.reasoning:
                if item.family != family:
                    foreign[item.family] = foreign.get(item.family, 0) + 1
        if count_signed and message.tool_calls:
            for call in message.tool_calls:
                if call.signature is not None:
                    signed += 1
    if not foreign and not signed:
        return reasoning
    title = title or ctx.cap.title
    for other, count in foreign.items():
        ctx.ledger.info("reasoning.dropped", f"{count} reasoning item{'s' if count > 1 else ''} written by {other} "
                        f"left out: {title} takes only reasoning state its own API returned (signatures and "
                        "encrypted reasoning do not carry across APIs)")
    if signed:
        ctx.ledger.info("reasoning.dropped", f"{signed} Gemini thoughtSignature{'s' if signed > 1 else ''} on history "
                        f"tool calls left out: {title} has no field for them")
    return reasoning


def placed(items: Any, calls: int) -> list[list[Any]]:
    """Reasoning items grouped by where they go: ``[before call 0, before call 1, ..., after the last call]``
    (an item's ``position`` is how many of the turn's calls came before it)."""
    slots: list[list[Any]] = [[] for _ in range(calls + 1)]
    for item in items:
        slots[min(item.position, calls)].append(item)
    return slots
