"""Helpers every response parser shares: decoding arguments, reading usage, checking shapes.

Parsers raise only BadReply (``bad_body``) for bodies they cannot read; a model's broken
arguments are data (kept raw and reported), never an exception."""

from __future__ import annotations

from typing import Any

from .calls import make_call  # noqa: F401 - the parsers take it from here
from .model import BadReply, ToolCall


def bad_body(provider: str, what: str) -> BadReply:
    return BadReply(f"{provider}: response body is not a reply in {provider}'s format: {what}")


def expect_dict(provider: str, value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad_body(provider, f"{what} is {type(value).__name__}, expected an object")
    return value


def expect_list(provider: str, value: Any, what: str, limit: str | None = None) -> list[Any]:
    """``value`` as a list (None: empty); ``limit``: the name of the limit its length is held to (docs/limits.md),
    checked before any item is read (a whole body's choices: ``choices``, as a stream's)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise bad_body(provider, f"{what} is {type(value).__name__}, expected a list")
    if limit is not None and len(value) > 1:
        from .limits import get, refusal

        if len(value) > get(limit):
            raise bad_body(provider, refusal(f"its {len(value)} {what}", limit))
    return value


def caller_of(value: Any) -> str | None:
    """A reply's ``caller`` object as ToolCall.caller: ``{"type": "direct"}`` → "direct"; a program or server tool
    → "<type>:<its id>" (openai-python responses/response_function_tool_call.py Caller, anthropic
    types/tool_use_caller.py); anything else → None."""
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        return None
    kind = value["type"]
    ident = value.get("caller_id", value.get("tool_id"))
    return kind if kind == "direct" or not isinstance(ident, str) else f"{kind}:{ident}"


def message_function_calls(provider: str, message: dict[str, Any]) -> tuple[ToolCall, ...]:
    """``message.tool_calls`` as ``[{id, function: {name, arguments}}]``, the form Cohere v2 and Ollama
    share, without a name check: a call with no name is kept (named "") for the verdict to judge."""
    calls = []
    for i, call in enumerate(expect_list(provider, message.get("tool_calls"), "message.tool_calls")):
        call = expect_dict(provider, call, f"message.tool_calls[{i}]")
        function = expect_dict(provider, call.get("function"), f"message.tool_calls[{i}].function")
        calls.append(make_call(call.get("id"), function.get("name"), function.get("arguments")))
    return tuple(calls)


def int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def join_text(parts: list[str]) -> str | None:
    text = "".join(p for p in parts if isinstance(p, str))
    return text if text else None


def custom_display(text: Any) -> dict[str, Any]:
    """raw_arguments/arguments_error for a custom (free-text) call, so that views written for JSON
    arguments show its input and say why there are no arguments."""
    return {"raw_arguments": text if isinstance(text, str) else "",
            "arguments_error": "custom tool call: free-text input, not JSON arguments"}


class StreamAssembler:
    """What every provider's stream assembler keeps, and the Reply it folds into; each provider module
    subclasses it (``stream_assembler``) and writes only its own ``feed``. Defined here, on every
    provider module's import path, but it imports stream_assembly.py only when an instance is made.

    ``final_event`` names the event that ends the provider's stream (for the finding when it never
    came); a subclass sets ``done`` when it arrives. ``extras`` counts what the Reply has no field
    for (reasoning characters, signatures, tool-plan characters); zero counts are left out. ``reasoning`` gathers the
    reply's reasoning items, the ones the family's ``parse_reply`` makes of the whole reply, so a streamed tool loop
    sends back what a non-streamed one does (and the proxy follows the thinking by them: ``Assembly.handed``)."""

    final_event = "its final event"
    done_marker: str | None = None  # how the family's SDK ends an SSE stream at data: [DONE] (stream_framing.DoneMarker)

    def __init__(self, provider: str) -> None:
        from .model import Usage
        from .stream_assembly import Calls

        self.provider = provider
        self.findings: list[Any] = []
        self.calls = Calls(self.findings)
        self.text: list[str] = []
        self.finish_reason: str | None = None
        self.usage = Usage()
        self.error: Any = None
        self.done = False
        self.upstream: str | None = None  # a router's stream: which upstream answered
        self.extras: dict[str, int] = {}
        self.reasoning: list[Any] = []  # the reply's ReasoningItems, as the family's parse_reply fills Reply.reasoning

    def count(self, what: str, text: Any) -> None:
        """Add the length of ``text`` (when a string) to the ``what`` extra."""
        if isinstance(text, str):
            self.extras[what] = self.extras.get(what, 0) + len(text)

    def fail(self, error: Any) -> None:
        """The provider sent an error inside the stream: it is the reply's error, and a finding."""
        from .stream_assembly import error_event

        self.error = error
        self.findings.append(error_event(self.provider, error))

    def reply_text(self) -> str | None:
        return join_text(self.text)

    def finish(self) -> Any:
        from .model import Reply
        from .stream_assembly import Assembly, missing_final

        calls, deltas = self.calls.build()
        if not self.done and self.error is None:
            self.findings.append(missing_final(self.final_event))
        reply = Reply(tool_calls=calls, text=self.reply_text(), finish_reason=self.finish_reason, usage=self.usage,
                      error=self.error, upstream=self.upstream, reasoning=tuple(self.reasoning))
        return Assembly(reply, deltas, tuple(self.findings), {k: v for k, v in self.extras.items() if v})
