"""Cohere Chat v2 (``POST https://api.cohere.com/v2/chat``).

Facts this module relies on (cohere 7.3.1 wheel; docs.cohere.com):
- tool_choice takes only ``"REQUIRED"`` or ``"NONE"``; leaving it out means auto; it works only on
  Command R7B and newer models (``v2/types/v2chat_request_tool_choice.py``, ``v2/client.py``).
- strictness is one top-level ``strict_tools`` flag for every tool; a per-tool ``strict`` key is
  rejected with 422 (OpenRouterTeam/openrouter-examples#71).
- an assistant message may not carry text ``content`` next to ``tool_calls``; such text goes in
  ``tool_plan`` (vercel/ai#5794 quotes the API's error).
- replies: ``message.tool_calls[].function.arguments`` is JSON text (``"null"`` for no arguments),
  ``message.content`` a list of ``{type: text|thinking}`` blocks, ``message.tool_plan`` the model's
  plan (not its answer), ``finish_reason`` upper case, usage in ``usage.tokens``.
"""

from __future__ import annotations

from typing import Any, Sequence

from .core.capabilities import Capability
from .core.wire_template import sends_no_field
from .core.error_envelope import ErrorEnvelope
from .core.translation import (tool_names, choice_value, Context, compact, finish, mapped, parallel_value, model_facts,
                               thinking_unsent,
                               rule_applied, start, streamed, strict_tools)
from .core.host_rules import change
from .core.history_wire import chat_messages, history_arguments_json, reasoning_for
from .core.request_parts import bearer, endpoint
from .core.model import Message, ProviderError, ReasoningItem, RenderOptions, Reply, Scenario, Tool, Translation, Usage
from .core.parsing import (StreamAssembler, bad_body, expect_dict, expect_list, join_text,
                           message_function_calls)

BASE_URL = "https://api.cohere.com"
PATH = "/v2/chat"

# Probe questions (providers/core/probe.py) not asked here: the OpenAI word "any" (Cohere's tool_choice
# is an upper-case enum, so the word can only be rejected) and the max_tokens truncation question.
PROBE_SKIPS = ("any", "truncation")

# Models older than Command R7B, which the SDK says cannot take tool_choice: model rule cohere-pre-r7b.

# The SDK type its tools are, named when a scenario's hosted tool (core/native_tools.py) is left out.
TOOLS_TYPE = "cohere.tools_type"  # the fact (core/facts.py) naming the SDK type its tools are

# What `parse` calls a body of this family's reply shape, and the -p to suggest for it (core/sniff.py).
REPLY_KIND = ("a Cohere v2 chat reply", "cohere")


def looks_like_reply(body: dict[str, Any]) -> bool:
    """Chat v2's documented success shape: ``{id, message: {...}, finish_reason}`` (an Ollama body, which also has
    ``done``, is Ollama's)."""
    return isinstance(body.get("message"), dict) and "finish_reason" in body and "done" not in body


# How its error bodies look (core/error_envelope.py): {"message": ...} (error-cohere-invalid-request.json); a reply
# has finish_reason (cohere v2 V2ChatResponse) or, in the v1 form, tool_calls (NonStreamedChatResponse).
ERROR_ENVELOPES = (ErrorEnvelope("recorded: {\"message\": ...} (kwaroran/Risuai issue #504)", message_keys=("message",),
                                 reply_keys=("finish_reason", "tool_calls", "usage")),)


# The family name its reasoning items carry (a signature or encrypted content is valid only there)
# (a ``thinking`` content item, cohere-python ``ThinkingAssistantMessageV2ContentOneItem``).
REASONING_FAMILY = "cohere"


LEDGER_CODES: dict[str, str] = {
    "pitfall.tool_choice_model": "tool_choice sent to a Cohere model older than Command R7B, which lacks it",
    "history.thinking_dropped": "thinking of a tool-call turn left out: Cohere takes no content beside tool_calls",
    "strict.mapped": "strict tools sent as the top-level strict_tools: true",
    "strict.widened": "strict_tools applies to every tool, so tools not marked strict become strict too",
    "history.text_as_tool_plan": "assistant text next to tool calls sent as tool_plan (Cohere rejects content there)",
    "schema.empty_parameters": "a tool without parameters is sent with an empty object schema",
    "thinking.mapped": "the thinking setting sent as thinking {type: enabled|disabled}",
}


def translate(provider: str, scenario: Scenario, options: RenderOptions, cap: Capability) -> Translation:
    ctx = start(provider, scenario, options, cap)
    body: dict[str, Any] = {"model": ctx.model, "messages": _messages(ctx)}
    choice = _tools(ctx, body)
    settings = ctx.settings
    if settings.max_tokens is not None:
        body["max_tokens"] = settings.max_tokens
    if settings.temperature is not None:
        body["temperature"] = settings.temperature
    if choice is not None:
        body["tool_choice"] = choice  # keys in the SDK's order: tool_choice after the sampling settings
    if settings.thinking is not None:
        body["thinking"] = {"type": "enabled" if settings.thinking else "disabled"}
        ctx.ledger.info("thinking.mapped", f"thinking {str(settings.thinking).lower()} → {compact(body['thinking'])}")
        thinking_unsent(ctx, f"thinking {compact(body['thinking'])}")
    body["stream"] = options.stream  # False as the SDK's non-streaming chat sends it; True as chat_stream does
    if options.stream:
        streamed(ctx, "stream: true, server-sent events (message-start, tool-call-start/delta/end, message-end)")
    url = endpoint(ctx, BASE_URL, PATH)
    return finish(ctx, url=url, headers=bearer(ctx), body=body, choice_path=("tool_choice",))


def _tools(ctx: Context, body: dict[str, Any]) -> str | None:
    """Put tools and strict_tools in the body; return the tool_choice word to send, if any."""
    plan = ctx.plan
    parallel_value(ctx)  # no parallel switch on Cohere: records the drop
    if plan.omit_tools:
        return None
    if not plan.tools:  # no tools declared: a choice the planner kept is sent as written
        return _choice_word(ctx)
    tools = []
    for tool in plan.tools:
        function: dict[str, Any] = {"name": tool.name}
        if tool.description is not None:
            function["description"] = tool.description
        if tool.parameters is None:
            ctx.ledger.info("schema.empty_parameters", f"tool '{tool.name}' has no parameters: sent with an empty "
                            "object schema (Cohere requires parameters)")
        function["parameters"] = tool.schema()
        tools.append({"type": "function", "function": function})
    body["tools"] = tools
    strict = strict_tools(ctx)
    if strict:
        loose = [t.name for t in plan.tools if t.name not in strict]
        if loose:
            ctx.ledger.warning("strict.widened", f"Cohere's strict_tools covers every tool: {', '.join(loose)} "
                               f"become{'s' if len(loose) == 1 else ''} strict too (only "
                               f"{', '.join(sorted(strict))} asked for it)")
        body["strict_tools"] = True
        ctx.ledger.info("strict.mapped", f"strict tools: {', '.join(sorted(strict))} → strict_tools: true "
                        "(top level; a per-tool strict key is rejected with 422)")
    return _choice_word(ctx)


def _choice_word(ctx: Context) -> str | None:
    plan = ctx.plan
    if plan.mode == "unset":
        return None
    word = choice_value(ctx)  # the row's value (named/allowed are emulated: a row claiming them is refused there)
    if word is None:
        if sends_no_field(ctx.cap.feature(plan.mode).wire):  # auto: "(default; omitted)"
            mapped(ctx, "(omitted)", f"Cohere has no {plan.mode.upper()} value: leaving tool_choice out means "
                   f"{plan.mode}")
        return None
    offered = ", ".join(t.name for t in plan.tools)
    mapped(ctx, word, f"only {offered} offered" if plan.emulated and offered else "")
    fact = model_facts(ctx).get("tool_choice")
    if fact is not None and not fact.value:
        ctx.ledger.warning("pitfall.tool_choice_model",
                           f"{ctx.model} predates Command R7B; Cohere supports tool_choice only on Command R7B and "
                           f"newer, so {word} may be rejected or ignored (use e.g. command-a-03-2025 or "
                           f"command-r7b-12-2024)")
        rule_applied(ctx, "tool_choice", fact, "tool_choice on this model")
    return word


def _messages(ctx: Context) -> list[dict[str, Any]]:
    reasoning_for(ctx, REASONING_FAMILY)

    def assistant(m: Message) -> dict[str, Any]:
        msg: dict[str, Any] = {"role": "assistant"}
        thinking = [{"type": "thinking", "thinking": i.text} for i in m.reasoning
                    if i.family == "cohere" and i.text is not None]
        if not m.tool_calls:
            # cohere-python AssistantMessageV2ContentOneItem: text | thinking items
            msg["content"] = thinking + [{"type": "text", "text": m.content or ""}] if thinking else m.content
            return msg
        calls, refused = ", ".join(c.id for c in m.tool_calls), ("Cohere answers 'text content is not allowed when "
                                                                  "tool_calls are provided' (vercel/ai#5794)")
        if thinking and change(ctx, "history.thinking_dropped", f"thinking of the turn with calls {calls} left out: "
                               "Cohere takes no content next to tool_calls (only tool_plan)",
                               f"the assistant turn with calls {calls} holds thinking content, and {refused}"):
            thinking = []
        text = m.content
        if text and change(ctx, "history.text_as_tool_plan", f"assistant text before calls {calls} sent as "
                           "tool_plan: Cohere rejects text content next to tool_calls",
                           f"the assistant turn with calls {calls} holds text content, and {refused}"):
            msg["tool_plan"], text = m.content, None
        if thinking or text:  # where a base URL replaces api.cohere.com: as written, as a turn without calls
            msg["content"] = thinking + ([{"type": "text", "text": text}] if text else []) if thinking else text
        msg["tool_calls"] = [{"id": c.id, "type": "function",
                              "function": {"name": c.name, "arguments": history_arguments_json(c.arguments)}}
                             for c in m.tool_calls]
        return msg

    return chat_messages(ctx, assistant, lambda m: {"role": "tool", "tool_call_id": m.tool_call_id,
                                                    "content": m.content})


# ---- replies -----------------------------------------------------------------------------


def _count(value: Any) -> int | None:
    """Token counts are typed float in the SDK; accept integral floats, nothing else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _usage(provider: str, body: dict[str, Any]) -> Usage:
    """``usage.tokens`` (what the model read and wrote), else ``usage.billed_units``."""
    usage = body.get("usage")
    if usage is None:
        return Usage()
    usage = expect_dict(provider, usage, "usage")
    for key in ("tokens", "billed_units"):
        part = usage.get(key)
        if isinstance(part, dict):
            found = Usage(_count(part.get("input_tokens")), _count(part.get("output_tokens")))
            if found != Usage():
                return found
    return Usage()


def limits_body(tools: Sequence[Tool]) -> dict[str, Any]:
    """The body the rows' ``body_limits`` measure an imported catalogue on (``tool_import_limits``): Chat v2's
    function tools as ``_tools`` writes them (no per-tool strict: a 422), and strict_tools, one flag for every tool,
    set when any tool is strict (``strict.widened``)."""
    functions = [{"name": t.name, **({"description": t.description} if t.description is not None else {}),
                  "parameters": t.schema()} for t in tools]
    return {"tools": [{"type": "function", "function": f} for f in functions],
            **({"strict_tools": True} if any(t.strict for t in tools) else {})}


def offered_tools(body: dict[str, Any]) -> list[str]:
    """The tool names a request body declares (``tools[].function.name``)."""
    return tool_names(body.get("tools"), "function", "name")


def parse_reply(provider: str, body: Any) -> Reply:
    """A Cohere v2 chat body → Reply. ``tool_plan`` is not the answer and is not returned as text."""
    body = expect_dict(provider, body, "the body")
    message = expect_dict(provider, body.get("message"), "message")
    calls = message_function_calls(provider, message)
    content = message.get("content")
    reasoning: list[ReasoningItem] = []
    if isinstance(content, str):
        text = content or None
    else:
        parts = []
        for i, block in enumerate(expect_list(provider, content, "message.content")):
            block = expect_dict(provider, block, f"message.content[{i}]")
            if block.get("type") == "text":
                parts.append(block.get("text"))
            elif block.get("type") == "thinking" and isinstance(block.get("thinking"), str):
                reasoning.append(ReasoningItem("cohere", text=block["thinking"]))
        text = join_text(parts)
    finish_reason = body.get("finish_reason")
    if finish_reason is not None and not isinstance(finish_reason, str):
        raise bad_body(provider, f"finish_reason is {type(finish_reason).__name__}, expected a string")
    return Reply(tool_calls=calls, text=text, finish_reason=finish_reason, usage=_usage(provider, body),
                 reasoning=tuple(reasoning))


# ---- streamed replies ------------------------------------------------------------------------

STREAM_FRAMING = "sse"


class CohereStreamAssembler(StreamAssembler):
    """Chat v2 stream events → the Reply ``parse_reply`` makes of the whole body.

    ``tool-call-start`` (``index``, ``delta.message.tool_calls`` with id and name) opens a call,
    ``tool-call-delta`` adds ``function.arguments`` pieces, ``content-delta`` adds text (thinking
    content is counted, and each thinking content's pieces are one reasoning item, as ``parse_reply`` reads a whole
    ``thinking`` block), ``tool-plan-delta`` is the plan (not the answer), and
    ``message-end`` carries ``finish_reason`` and usage and ends the stream (cohere-python
    ``v2/types/streamed_chat_response2.py``)."""

    final_event = "message-end"
    done_marker = "exact"  # cohere 7.3.1 v2/raw_client.py chat_stream: 'if _sse.data == "[DONE]": return'

    def __init__(self, provider: str) -> None:
        super().__init__(provider)
        self.kinds: dict[Any, Any] = {}  # content index -> text | thinking
        self.thought: dict[Any, list[str]] = {}  # thinking content index -> its pieces

    def finish(self) -> Any:
        self.reasoning += [ReasoningItem("cohere", text="".join(pieces)) for pieces in self.thought.values()]
        return super().finish()

    def feed(self, event: Any) -> bool:
        data = event.data
        if not isinstance(data, dict):
            if event.text.startswith("[DONE]") and event.text != "[DONE]":  # (exactly [DONE] ends the stream)
                from .core.stream_assembly import done_skipped

                self.findings.append(done_skipped(event.text, "cohere 7.3.1 (v2/raw_client.py chat_stream) logs "
                                                  "'Skipping SSE event with invalid JSON' and reads on"))
            return False
        kind = data.get("type", event.name)
        delta = data.get("delta") if isinstance(data.get("delta"), dict) else {}
        message = delta.get("message") if isinstance(delta.get("message"), dict) else {}
        if kind in ("tool-call-delta", "tool-call-start"):
            calls = message.get("tool_calls") if isinstance(message.get("tool_calls"), dict) else {}
            function = calls.get("function") if isinstance(calls.get("function"), dict) else {}
            if kind == "tool-call-delta":
                self.calls.delta(data.get("index"), function.get("arguments"))
            else:
                call = self.calls.open(data.get("index"), calls.get("id"), function.get("name"))
                if isinstance(function.get("arguments"), str) and function["arguments"]:
                    call.parts.append(function["arguments"])
            return True
        content = message.get("content") if isinstance(message.get("content"), dict) else {}
        if kind == "content-delta":
            if self.kinds.get(data.get("index"), "text") == "thinking" or "thinking" in content:
                self.count("reasoning_chars", content.get("thinking") or content.get("text"))
                piece = content.get("thinking", content.get("text"))
                if isinstance(piece, str):
                    self.thought.setdefault(data.get("index"), []).append(piece)
            elif isinstance(content.get("text"), str):
                self.text.append(content["text"])
        elif kind == "content-start":
            self.kinds[data.get("index")] = content.get("type", "text")
            if content.get("type") == "thinking":  # parse_reply's item of a whole thinking block
                start = content.get("thinking")
                self.thought.setdefault(data.get("index"), []).extend([start] if isinstance(start, str) else [])
            if content.get("type", "text") == "text" and isinstance(content.get("text"), str):
                self.text.append(content["text"])
        elif kind == "tool-plan-delta":
            self.count("tool_plan_chars", message.get("tool_plan"))
        elif kind == "message-end":
            self.done = True
            if isinstance(delta.get("finish_reason"), str):
                self.finish_reason = delta["finish_reason"]
            if delta.get("error"):
                self.fail(ProviderError(None, None, str(delta["error"])))
            if isinstance(delta.get("usage"), dict):
                self.usage = _usage(self.provider, {"usage": delta["usage"]})
        return False


def stream_assembler(provider: str) -> CohereStreamAssembler:
    return CohereStreamAssembler(provider)
