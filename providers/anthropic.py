"""Anthropic Messages (``POST https://api.anthropic.com/v1/messages``).

Facts this module relies on:
- tool_choice is ``{"type": "auto"|"any"|"none"}`` or ``{"type": "tool", "name": N}``; inside
  auto/any/tool (not none) ``disable_parallel_tool_use: true`` means at most one call (auto) or
  exactly one (any/tool) (anthropic-sdk-python ``types/tool_choice_*_param.py``).
- tools are ``{name, description, input_schema, strict?}``; names match ``^[a-zA-Z0-9_-]{1,64}$``;
  ``input_schema.type`` is ``"object"`` (``types/tool_param.py``); the API answers 400
  "input_schema does not support oneOf, allOf, or anyOf at the top level" (anthropics/claude-code#5319).
- ``max_tokens`` is required; ``thinking: {type: enabled, budget_tokens}`` needs a budget of at
  least 1024 and below max_tokens (``types/thinking_config_enabled_param.py``). Thinking is
  rejected with a forcing tool_choice ("Thinking may not be enabled when tool_choice forces tool
  use.", mastra-ai/mastra#7507), with a temperature other than 1, and when the last assistant turn
  holds tool_use blocks without the thinking block that preceded them (Kilo-Org/kilocode#5219).
- history: tool_use blocks in the assistant turn; every result as a tool_result block at the start
  of the very next user message (anthropic-sdk-typescript#653); text blocks must not be blank
  ("text content blocks must be non-empty", anthropics/claude-code#53473).
- replies: ``content[]`` blocks, ``tool_use.input`` is an object, ``stop_reason``,
  ``usage.input_tokens/output_tokens``; errors are ``{"type":"error","error":{type,message}}``.

``group_turns`` is shared with the Bedrock translator: Converse enforces the same turn rules.
"""

from __future__ import annotations

import re
from typing import Any

from .core.capabilities import Capability
from .core.translation import tool_names, Context, check_names, compact, endpoint, finish, mapped, parallel_value, start, \
    strict_tools, anthropic_strict_problems, tool_fields
from .core.model import (HistoryCall, Ledger, Message, ProviderError, RenderOptions, Reply, Scenario, Tool, Translation,
                    Usage)
from .core.parsing import bad_body, expect_dict, expect_list, int_or_none, join_text, make_call

BASE_URL = "https://api.anthropic.com"  # the SDK's base URL: no /v1
PATH = "/v1/messages"
API_VERSION = "2023-06-01"  # the documented, wire-stable version; override with providers.anthropic.headers
DEFAULT_MAX_TOKENS = 1024
THINKING_BUDGET = 1024  # the documented minimum budget_tokens
DEFAULT_MAX_TOKENS_THINKING = 2048  # leaves room above the budget (budget_tokens < max_tokens)
COMPOSITION_KEYS = ("anyOf", "oneOf", "allOf")
# Claude models before 3.7 have no extended thinking (Claude 3 / 3.5, 2.x, instant).
_NO_THINKING = re.compile(r"claude-(?:3-(?!7)|2|v1|v2|instant)")

LEDGER_CODES: dict[str, str] = {
    "schema.strict_invalid": "a strict tool's schema breaks Anthropic's strict rules (its SDK's transform_schema)",
    "max_tokens.default": "max_tokens is required and was not set: a default is sent",
    "thinking.budget": "thinking: true sent as thinking {type: enabled, budget_tokens: 1024}",
    "thinking.forced_choice": "a forcing tool_choice with thinking on is rejected by the API: request refused",
    "thinking.temperature": "thinking on with a temperature other than 1 is rejected by the API: request refused",
    "thinking.max_tokens": "max_tokens leaves no room for the minimum thinking budget: request refused",
    "thinking.tool_history": "thinking on while the last assistant turn holds tool calls without thinking blocks: "
                             "request refused",
    "thinking.unsupported_model": "thinking: true for a Claude model without extended thinking: not sent",
    "schema.rejected": "a tool's input_schema has top-level anyOf/oneOf/allOf, which the API rejects: request refused",
    "schema.type_added": "an input_schema without type gets type: object, which the API requires",
    "parallel.auto_added": "parallel_tool_calls false with no tool_choice: sent as {type: auto, "
                           "disable_parallel_tool_use: true}",
    "parallel.not_with_none": "parallel_tool_calls not sent: tool_choice none has no disable_parallel_tool_use",
    "parallel.default": "parallel_tool_calls true is the default and needs no field",
    "history.merged": "messages merged into one turn (tool results first, then the user's text)",
    "history.missing_tool_result": "a tool call has no result in the next message, which the API rejects",
    "history.blank_text": "a message with blank text, which the API rejects: request refused",
    "history.blank_text_dropped": "a blank text block next to other content is left out",
    "history.tools_undeclared": "the history holds tool calls but no tools are declared",
    "messages.empty": "no messages: the API needs at least one",
}


# ---- turns: shared with bedrock ----------------------------------------------------------


class Turn:
    """One wire message: neighbouring scenario messages of the same wire role, merged. Filled in
    place while grouping (a plain class: no dataclass machinery on `render`'s start-up path)."""

    __slots__ = ("role", "texts", "calls", "results")

    def __init__(self, role: str) -> None:
        self.role = role  # "user" or "assistant"
        self.texts: list[str] = []
        self.calls: list[HistoryCall] = []
        self.results: list[Message] = []

    def __repr__(self) -> str:
        return f"Turn({self.role!r}, texts={self.texts!r}, calls={self.calls!r}, results={self.results!r})"


def group_turns(messages: tuple[Message, ...], ledger: Ledger, title: str) -> list[Turn]:
    """Merge the scenario's messages into alternating user/assistant turns.

    Tool results join the user turn (first), a user text right after them follows in that same
    turn; neighbouring messages of one role merge. Blank texts and unanswered calls are recorded."""
    _check_results(messages, ledger, title)
    turns: list[Turn] = []
    merged: list[str] = []
    for message in messages:
        role = "assistant" if message.role == "assistant" else "user"
        if turns and turns[-1].role == role:
            turn = turns[-1]
            if message.role == "tool":
                merged.append("consecutive tool results in one user message")
            elif message.role == "user" and turn.results:
                merged.append("user text after the tool results, in the same user message")
            else:
                merged.append(f"consecutive {role} messages")
        else:
            turn = Turn(role)
            turns.append(turn)
        if message.role == "tool":
            turn.results.append(message)
        else:
            if message.content is not None:
                turn.texts.append(message.content)
            turn.calls.extend(message.tool_calls)
    if merged:
        kinds = list(dict.fromkeys(merged))
        ledger.info("history.merged", f"{title} takes one message per turn: merged {'; '.join(kinds)} "
                    "(tool results first, then text)")
    for index, turn in enumerate(turns):
        blank = [t for t in turn.texts if not t.strip()]
        if not blank:
            continue
        turn.texts = [t for t in turn.texts if t.strip()]
        if turn.texts or turn.calls or turn.results:
            ledger.info("history.blank_text_dropped", f"blank text in {turn.role} message {index + 1} left out "
                        f"({title} rejects blank text blocks)")
        else:
            ledger.error("history.blank_text", f"{turn.role} message {index + 1} has only blank text, which "
                         f"{title} rejects (text content blocks must be non-empty); write some text")
    return turns


def _check_results(messages: tuple[Message, ...], ledger: Ledger, title: str) -> None:
    """Every call must be answered by the tool messages right after its assistant message."""
    for index, message in enumerate(messages):
        if not message.tool_calls:
            continue
        answered = set()
        after = index + 1
        while after < len(messages) and messages[after].role == "tool":
            answered.add(messages[after].tool_call_id)
            after += 1
        missing = [c.id for c in message.tool_calls if c.id not in answered]
        if not missing:
            continue
        if after == len(messages) and after == index + 1:
            ledger.warning("history.missing_tool_result",
                           f"the history ends with tool calls without results ({', '.join(missing)}); {title} "
                           "expects each call answered in the next user message")
        else:
            ledger.error("history.missing_tool_result",
                         f"tool calls {', '.join(missing)} have no result right after the assistant message; "
                         f"{title} rejects this (each tool call needs its result in the next message); add "
                         "role: tool messages with these ids right after it")


def supports_thinking(model: str) -> bool:
    """Extended thinking exists from Claude 3.7 Sonnet on; older Claude models reject it."""
    return not _NO_THINKING.search(model)


def last_assistant_has_calls(messages: tuple[Message, ...]) -> bool:
    for message in reversed(messages):
        if message.role == "assistant":
            return bool(message.tool_calls)
    return False


# ---- translate --------------------------------------------------------------------------


def translate(provider: str, scenario: Scenario, options: RenderOptions, cap: Capability) -> Translation:
    ctx = start(provider, scenario, options, cap)
    check_names(ctx, "anthropic")
    settings = ctx.settings
    thinking = bool(settings.thinking)
    if thinking and not supports_thinking(ctx.model):
        thinking = False
        ctx.ledger.warning("thinking.unsupported_model", f"{ctx.model} has no extended thinking (Claude 3.7 Sonnet "
                           "and newer have it): thinking is not sent")
    max_tokens = settings.max_tokens
    if max_tokens is None:
        max_tokens = DEFAULT_MAX_TOKENS_THINKING if thinking else DEFAULT_MAX_TOKENS
        ctx.ledger.info("max_tokens.default", f"max_tokens is required by {cap.title} and not set: sent "
                        f"{max_tokens} (set providers.{provider}.max_tokens)")
    body: dict[str, Any] = {"model": ctx.model, "max_tokens": max_tokens}
    if scenario.system is not None:
        body["system"] = scenario.system
    body["messages"] = _messages(ctx)
    _tools_and_choice(ctx, body)
    if thinking:
        _thinking(ctx, body, max_tokens)
    if settings.temperature is not None:
        body["temperature"] = settings.temperature
    headers = {"content-type": "application/json", "x-api-key": f"${ctx.key_env[0]}",
               "anthropic-version": API_VERSION}
    url = endpoint(ctx, BASE_URL, PATH)
    return finish(ctx, url=url, headers=headers, body=body, choice_path=("tool_choice",))


def _messages(ctx: Context) -> list[dict[str, Any]]:
    scenario = ctx.scenario
    if not scenario.messages:
        ctx.ledger.warning("messages.empty", f"the scenario has no messages; {ctx.cap.title} answers 400 without "
                           "at least one (add a user message)")
        return []
    if scenario.has_tool_history and not scenario.tools:
        ctx.ledger.warning("history.tools_undeclared", "the history holds tool calls but no tools are declared; "
                           "the API has answered 400 'Requests which include tool_use or tool_result blocks must "
                           "define tools' (anthropic-sdk-python#494); declare the tools")
    wire = []
    for turn in group_turns(scenario.messages, ctx.ledger, ctx.cap.title):
        blocks: list[dict[str, Any]] = []
        for result in turn.results:
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": result.tool_call_id,
                                     "content": result.content or ""}
            if result.is_error:
                block["is_error"] = True
            blocks.append(block)
        blocks.extend({"type": "text", "text": text} for text in turn.texts)
        blocks.extend({"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments} for c in turn.calls)
        if len(turn.texts) == 1 and len(blocks) == 1:
            wire.append({"role": turn.role, "content": turn.texts[0]})  # plain string content, as documented
        else:
            wire.append({"role": turn.role, "content": blocks})
    return wire


def _tool(ctx: Context, tool: Tool, strict: set[str]) -> dict[str, Any]:
    schema = dict(tool.schema())
    composed = [k for k in COMPOSITION_KEYS if k in schema]
    if composed:
        ctx.ledger.error("schema.rejected", f"tool '{tool.name}': input_schema has top-level {'/'.join(composed)}; "
                         f"{ctx.cap.title} answers 400 'input_schema does not support oneOf, allOf, or anyOf at the "
                         "top level'; move the alternatives into a property or split the tool")
    if "type" not in schema:
        schema = {"type": "object", **schema}
        ctx.ledger.info("schema.type_added", f"tool '{tool.name}': input_schema has no type; sent with type: object "
                        f"({ctx.cap.title} requires it)")
    wire: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        wire["description"] = tool.description
    wire["input_schema"] = schema
    wire.update(tool_fields(ctx, tool))
    if tool.name in strict:
        wire["strict"] = True
        for problem in anthropic_strict_problems(schema):
            ctx.ledger.warning("schema.strict_invalid", f"tool '{tool.name}' is strict but {problem}; "
                               f"{ctx.cap.title}'s strict mode may reject the tool or not enforce that keyword")
    return wire


def _tools_and_choice(ctx: Context, body: dict[str, Any]) -> None:
    plan = ctx.plan
    if plan.omit_tools or not plan.tools:
        parallel_value(ctx)  # records that parallel_tool_calls is not sent
        return
    strict = strict_tools(ctx)
    body["tools"] = [_tool(ctx, tool, strict) for tool in plan.tools]
    choice: dict[str, Any] | None = None
    if plan.mode == "auto":
        choice = {"type": "auto"}
    elif plan.mode == "none":
        choice = {"type": "none"}
    elif plan.mode == "required":
        choice = {"type": "any"}
    elif plan.mode == "named":
        choice = {"type": "tool", "name": plan.name}
    elif plan.mode == "allowed":  # only with a capability overlay claiming a native form; there is none
        ctx.ledger.error("tool_choice.unsupported", f"{ctx.cap.title} has no allowed-subset tool_choice; "
                         "remove the capability overlay for 'allowed'")
    parallel = parallel_value(ctx)
    if parallel is False:
        if choice is None:
            choice = {"type": "auto"}
            ctx.ledger.info("parallel.auto_added", "parallel_tool_calls false with no tool_choice: sent as "
                            '{"type":"auto","disable_parallel_tool_use":true} (the flag lives inside tool_choice)')
        if choice["type"] == "none":
            ctx.ledger.info("parallel.not_with_none", "parallel_tool_calls false not sent: tool_choice none has no "
                            "disable_parallel_tool_use field (and calls no tools)")
        else:
            choice["disable_parallel_tool_use"] = True
    elif parallel is True:
        if choice is not None and choice["type"] != "none":
            choice["disable_parallel_tool_use"] = False
        else:
            ctx.ledger.info("parallel.default", "parallel_tool_calls true is Anthropic's default: nothing to send")
    if choice is not None:
        body["tool_choice"] = choice
        mapped(ctx, choice)


def _thinking(ctx: Context, body: dict[str, Any], max_tokens: int) -> None:
    """thinking: true → an enabled thinking block, refusing the combinations the API rejects."""
    title = ctx.cap.title
    if ctx.plan.forces_call and "tools" in body:
        ctx.ledger.error("thinking.forced_choice", f"{title} answers 400 'Thinking may not be enabled when "
                         f"tool_choice forces tool use.' for tool_choice {compact(body.get('tool_choice'))}; set "
                         f"providers.{ctx.provider}.thinking: false, or use tool_choice auto")
    temperature = ctx.settings.temperature
    if temperature is not None and temperature != 1:
        ctx.ledger.error("thinking.temperature", f"{title} accepts only temperature 1 with thinking on (here "
                         f"{temperature}); drop temperature or set thinking: false")
    if max_tokens <= THINKING_BUDGET:
        ctx.ledger.error("thinking.max_tokens", f"thinking needs budget_tokens ≥ {THINKING_BUDGET} and below "
                         f"max_tokens, but max_tokens is {max_tokens}; raise max_tokens above {THINKING_BUDGET}")
    if last_assistant_has_calls(ctx.scenario.messages):
        ctx.ledger.error("thinking.tool_history", f"with thinking on, {title} requires the last assistant turn to "
                         "start with the thinking block that preceded its tool calls, which a scenario cannot "
                         "carry (400 'Expected thinking or redacted_thinking, but found tool_use'); set "
                         "thinking: false for this history")
    body["thinking"] = {"type": "enabled", "budget_tokens": THINKING_BUDGET}
    ctx.ledger.info("thinking.budget", f"thinking: true → budget_tokens {THINKING_BUDGET} (the documented minimum; "
                    "it must stay below max_tokens); set providers."
                    f"{ctx.provider}.extra.thinking to choose another budget")


# ---- parse ------------------------------------------------------------------------------


def offered_tools(body: dict[str, Any]) -> list[str]:
    """The tool names a request body declares (``tools[].name``)."""
    return tool_names(body.get("tools"), "name")


def parse_reply(provider: str, body: Any) -> Reply:
    """A Messages response body → Reply; an error envelope becomes ``Reply.error``."""
    body = expect_dict(provider, body, "the body")
    if body.get("type") == "error":
        error = expect_dict(provider, body.get("error"), "error")
        kind, message = error.get("type"), error.get("message")
        return Reply(error=ProviderError(None, kind if isinstance(kind, str) else None,
                                         message if isinstance(message, str) else ""))
    if "content" not in body:
        raise bad_body(provider, "no content")
    calls, texts = [], []
    for i, block in enumerate(expect_list(provider, body.get("content"), "content")):
        block = expect_dict(provider, block, f"content[{i}]")
        kind = block.get("type")
        if kind == "text":
            texts.append(block.get("text"))
        elif kind == "tool_use":
            calls.append(make_call(block.get("id"), block.get("name"), block.get("input")))
        # thinking / redacted_thinking / server tool blocks are not the answer
    stop = body.get("stop_reason")
    if stop is not None and not isinstance(stop, str):
        raise bad_body(provider, f"stop_reason is {type(stop).__name__}, expected a string")
    usage = body.get("usage")
    usage = expect_dict(provider, usage, "usage") if usage is not None else {}
    return Reply(tool_calls=tuple(calls), text=join_text(texts), finish_reason=stop,
                 usage=Usage(int_or_none(usage.get("input_tokens")), int_or_none(usage.get("output_tokens"))))
