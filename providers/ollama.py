"""Ollama's native chat API (``POST http://localhost:11434/api/chat``).

Facts this module relies on (ollama/ollama ``api/types.go``, ``docs/api.md``; ollama 0.6.3 wheel):
- ``ChatRequest`` has no tool_choice (nor parallel or strict) field: every tool_choice other than
  auto is emulated by the shared planner (tools filtered or left out) or cannot be enforced.
- ``stream`` defaults to true (NDJSON chunks); ``stream: false`` gets one JSON object.
- sampling settings live in ``options`` (``num_predict``, ``temperature``); ``think`` is top level.
- history: assistant ``tool_calls[].function.arguments`` is an object, calls may carry ``id``;
  tool results are ``{role: tool, content, tool_name, tool_call_id}``.
- the server reads tool schemas into fixed structs (``ToolFunctionParameters``, ``ToolProperty``):
  keywords outside them never reach the model's prompt.
- replies: arguments are objects, ids may be absent, ``done_reason`` stays ``stop`` when tools are
  called, usage is ``prompt_eval_count`` / ``eval_count``.
- with ``OLLAMA_API_KEY`` set the SDK sends ``Authorization: Bearer``; locally no key is needed.
"""

from __future__ import annotations

from typing import Any

from .core.capabilities import Capability
from .core.wire_template import sends_no_field
from .core.error_envelope import ErrorEnvelope
from .core.translation import (tool_names, choice_value, Context, finish, mapped, parallel_value, start, streamed,
                               thinking_unsent,
                               strict_tools)
from .core.history_wire import chat_messages, reasoning_for
from .core.request_parts import bearer, endpoint
from .core.model import Message, ReasoningItem, RenderOptions, Reply, Scenario, Translation, Usage
from .core.parsing import (StreamAssembler, bad_body, expect_dict, int_or_none,
                           message_function_calls)

BASE_URL = "http://localhost:11434"
PATH = "/api/chat"

# JSON Schema keys the server keeps (api/types.go): the parameters object, then each property.
_PARAMETER_KEYS = frozenset({"type", "$defs", "items", "required", "properties"})
_PROPERTY_KEYS = frozenset({"anyOf", "type", "items", "description", "enum", "properties"})
_PLAIN_PROPERTY_KEYS = _PROPERTY_KEYS - {"anyOf", "properties"}  # a property with only these: nothing to look into
_SHOWN = 8  # ignored keywords listed per tool before "and N more"

# The SDK type its tools are, named when a scenario's hosted tool (core/native_tools.py) is left out.
TOOLS_TYPE = "ollama.tools_type"  # the fact (core/facts.py) naming the SDK type its tools are

# What `parse` calls a body of this family's reply shape, and the -p to suggest for it (core/sniff.py).
REPLY_KIND = ("an Ollama /api/chat reply", "ollama")


def looks_like_reply(body: dict[str, Any]) -> bool:
    """/api/chat's documented success shape: ``{message: {...}, done, created_at}``."""
    return isinstance(body.get("message"), dict) and "done" in body


# How its error bodies look (core/error_envelope.py): {"error": "..."} (ollama docs/api/errors.mdx, 'Error messages':
# error-ollama-native.json).
ERROR_ENVELOPES = (ErrorEnvelope("ollama docs/api/errors.mdx, 'Error messages': {\"error\": \"...\"}", text_key="error",
                                 reply_keys=("done",)),)


# The family name its reasoning items carry (a signature or encrypted content is valid only there)
# (``message.thinking``, ollama-python ``Message.thinking``; text only).
REASONING_FAMILY = "ollama"


LEDGER_CODES: dict[str, str] = {
    "stream.disabled": "stream: false is sent so the reply is one JSON object (Ollama streams by default)",
    "max_tokens.mapped": "max_tokens sent as options.num_predict",
    "temperature.mapped": "temperature sent as options.temperature",
    "thinking.mapped": "the thinking setting sent as think",
    "schema.empty_parameters": "a tool without parameters is sent with an empty object schema",
    "schema.keywords_ignored": "schema keywords Ollama's tool structs do not read, so the model never sees them",
}


def translate(provider: str, scenario: Scenario, options: RenderOptions, cap: Capability) -> Translation:
    ctx = start(provider, scenario, options, cap)
    body: dict[str, Any] = {"model": ctx.model, "messages": _messages(ctx)}
    _tools(ctx, body)
    body["stream"] = options.stream
    if options.stream:
        streamed(ctx, "stream: true, newline-delimited JSON chunks ending with one that has done: true")
    else:
        ctx.ledger.info("stream.disabled", "stream: false sent so the reply is one JSON object "
                        "(Ollama streams NDJSON chunks by default)")
    settings = ctx.settings
    model_options: dict[str, Any] = {}
    if settings.max_tokens is not None:
        model_options["num_predict"] = settings.max_tokens
        ctx.ledger.info("max_tokens.mapped", "max_tokens sent as options.num_predict")
    if settings.temperature is not None:
        model_options["temperature"] = settings.temperature
        ctx.ledger.info("temperature.mapped", "temperature sent as options.temperature")
    if model_options:
        body["options"] = model_options
    effort = settings.thinking_mode.effort if settings.thinking_mode is not None else None
    if effort in ("low", "medium", "high"):  # ollama-python ChatRequest.think: bool | 'low' | 'medium' | 'high'
        body["think"] = effort
        ctx.ledger.info("thinking.mapped", f"thinking effort {effort} → think: {effort}")
    elif settings.thinking is not None:
        body["think"] = settings.thinking
        ctx.ledger.info("thinking.mapped", f"thinking {str(settings.thinking).lower()} → think: "
                        f"{str(settings.thinking).lower()}")
    if "think" in body:
        thinking_unsent(ctx, f"think: {str(body['think']).lower()}", effort_sent=isinstance(body["think"], str))
    url = endpoint(ctx, BASE_URL, PATH)
    # The placeholder header stays: the key is sent only when OLLAMA_API_KEY is set (ollama.com, proxies).
    return finish(ctx, url=url, headers=bearer(ctx), body=body, choice_path=("tool_choice",), key_optional=True)


def _tools(ctx: Context, body: dict[str, Any]) -> None:
    plan = ctx.plan
    if plan.tools and not plan.omit_tools:
        tools = []
        for tool in plan.tools:
            function: dict[str, Any] = {"name": tool.name}
            if tool.description is not None:
                function["description"] = tool.description
            if tool.parameters is None:
                ctx.ledger.info("schema.empty_parameters", f"tool '{tool.name}' has no parameters: sent with an "
                                "empty object schema")
            function["parameters"] = schema = tool.schema()
            _lint_schema(ctx, tool.name, schema)
            tools.append({"type": "function", "function": function})
        body["tools"] = tools
        strict_tools(ctx)  # no strict mode: records the drop
    parallel_value(ctx)  # no parallel switch: records the drop
    if plan.mode == "none" and plan.omit_tools:
        mapped(ctx, "(no field)", "the tools are left out instead")
    elif plan.mode != "unset":
        # The row's value: auto is "(default; no field)"; every other choice is emulated, and a row claiming
        # one natively without a value is refused there. Ollama has no tool_choice field, so a row giving
        # a value would be wrong, but its value is what goes out: the row is the one source.
        value = choice_value(ctx)
        if value is not None:
            body["tool_choice"] = value
            mapped(ctx, value)
        elif sends_no_field(ctx.cap.feature(plan.mode).wire):
            mapped(ctx, "(no field)", "Ollama has no tool_choice field; auto is its only behaviour")


def _lint_schema(ctx: Context, name: str, schema: dict[str, Any]) -> None:
    ignored = [f"parameters.{key}" for key in _ignored_keys(schema, _PARAMETER_KEYS)]
    if ignored:
        shown = ", ".join(ignored[:_SHOWN]) + (f" and {len(ignored) - _SHOWN} more" if len(ignored) > _SHOWN else "")
        ctx.ledger.info("schema.keywords_ignored", f"tool '{name}': Ollama's tool structs do not read {shown}; "
                        "the model never sees these constraints, so validate the arguments yourself")


def _ignored_keys(schema: Any, allowed: frozenset[str]) -> list[str]:
    """Schema keys the server drops when it reads ``schema`` into its structs, as dotted paths
    relative to ``schema`` (built only for what is found)."""
    if not isinstance(schema, dict):
        return []
    found = [] if schema.keys() <= allowed else [key for key in schema if key not in allowed]
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            if isinstance(sub, dict) and sub.keys() <= _PLAIN_PROPERTY_KEYS:  # most properties
                continue
            inner = _ignored_keys(sub, _PROPERTY_KEYS)
            if inner:
                found.extend(f"properties.{name}.{key}" for key in inner)
    if allowed is _PROPERTY_KEYS:
        for i, sub in enumerate(schema.get("anyOf") or []):
            inner = _ignored_keys(sub, _PROPERTY_KEYS)
            if inner:
                found.extend(f"anyOf[{i}].{key}" for key in inner)
    return found


def _messages(ctx: Context) -> list[dict[str, Any]]:
    reasoning_for(ctx, REASONING_FAMILY)

    def assistant(m: Message) -> dict[str, Any]:
        msg: dict[str, Any] = {"role": "assistant"}
        if m.content is not None:
            msg["content"] = m.content
        thought = [i.text for i in m.reasoning if i.family == "ollama" and i.text is not None]
        if thought:  # ollama-python Message.thinking: the turn's thinking, sent back as it came
            msg["thinking"] = "".join(thought)
        if m.tool_calls:  # Ollama takes arguments as objects
            msg["tool_calls"] = [{"id": c.id, "function": {"name": c.name, "arguments": c.arguments}}
                                 for c in m.tool_calls]
        return msg

    return chat_messages(ctx, assistant, lambda m: {"role": "tool", "content": m.content, "tool_name": m.tool_name,
                                                    "tool_call_id": m.tool_call_id})


# ---- replies -----------------------------------------------------------------------------


def offered_tools(body: dict[str, Any]) -> list[str]:
    """The tool names a request body declares (``tools[].function.name``)."""
    return tool_names(body.get("tools"), "function", "name")


def parse_reply(provider: str, body: Any) -> Reply:
    """An /api/chat body (stream: false) → Reply. Content is kept as sent, even when empty."""
    body = expect_dict(provider, body, "the body")
    message = expect_dict(provider, body.get("message"), "message")
    calls = message_function_calls(provider, message)
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise bad_body(provider, f"message.content is {type(content).__name__}, expected a string")
    done_reason = body.get("done_reason")
    if done_reason is not None and not isinstance(done_reason, str):
        raise bad_body(provider, f"done_reason is {type(done_reason).__name__}, expected a string")
    usage = Usage(int_or_none(body.get("prompt_eval_count")), int_or_none(body.get("eval_count")))
    thinking = message.get("thinking")
    reasoning = (ReasoningItem("ollama", text=thinking),) if isinstance(thinking, str) and thinking else ()
    return Reply(tool_calls=calls, text=content, finish_reason=done_reason, usage=usage, reasoning=reasoning)


# ---- streamed replies ------------------------------------------------------------------------

STREAM_FRAMING = "ndjson"


class OllamaStreamAssembler(StreamAssembler):
    """``/api/chat`` NDJSON chunks (stream: true) → the Reply ``parse_reply`` makes of the body.

    Each line is a ChatResponse (ollama ``api/types.go``): ``message.content`` pieces, whole
    ``message.tool_calls`` (arguments as objects, ids optional), ``message.thinking`` pieces; the last
    line has ``done: true`` with ``done_reason`` and the counts. A line ``{"error": ...}`` is the
    reply's error. Content is kept as sent, even when empty, as ``parse_reply`` keeps it; the thinking pieces joined
    are the reply's one reasoning item, as ``parse_reply`` makes of the whole message's."""

    final_event = "a line with done: true"

    def __init__(self, provider: str) -> None:
        super().__init__(provider)
        self.saw_content = False
        self.thought: list[str] = []  # message.thinking pieces

    def finish(self) -> Any:
        thinking = "".join(self.thought)
        if thinking:  # parse_reply's one item of the message's thinking (ollama-python Message.thinking)
            self.reasoning.append(ReasoningItem("ollama", text=thinking))
        return super().finish()

    def feed(self, event: Any) -> bool:
        data = event.data
        if not isinstance(data, dict):
            return False
        if "error" in data and "message" not in data:
            from .core.reply import provider_error

            self.fail(provider_error(self.provider, None, data))
            return False
        message = data.get("message") if isinstance(data.get("message"), dict) else {}
        if isinstance(message.get("content"), str):
            self.saw_content = True
            self.text.append(message["content"])
        self.count("reasoning_chars", message.get("thinking"))
        if isinstance(message.get("thinking"), str):
            self.thought.append(message["thinking"])
        called = False
        for raw in message.get("tool_calls") or ():
            if isinstance(raw, dict):
                function = raw.get("function") if isinstance(raw.get("function"), dict) else {}
                call = self.calls.open(len(self.calls.by_key), raw.get("id"), function.get("name"))
                call.whole, call.deltas, called = function.get("arguments"), 1, True
        if data.get("done") is True:
            self.done = True
            if isinstance(data.get("done_reason"), str):
                self.finish_reason = data["done_reason"]
            self.usage = Usage(int_or_none(data.get("prompt_eval_count")), int_or_none(data.get("eval_count")))
        return called

    def reply_text(self) -> str | None:
        return "".join(self.text) if self.saw_content else None


def stream_assembler(provider: str) -> OllamaStreamAssembler:
    return OllamaStreamAssembler(provider)
