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

``group_turns`` is shared with the Bedrock translator (Converse enforces the same turn rules), and so is
everything about Claude's thinking (``thinking_plan``, ``thinking_fields``, ``thinking_lint``):
a ``ThinkingWire`` says where each API keeps it.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping, NamedTuple

from .core.capabilities import Capability
from .anthropic_strict import anthropic_strict_problems
from .core.translation import tool_names, choice_value, choice_with, Context, check_names, compact, endpoint, finish, mapped, parallel_value, placed, \
    model_facts, reasoning_for, rule_applied, start, streamed, strict_tools, tool_fields
from .core.model import (HistoryCall, Ledger, Message, ProviderError, ReasoningFamily, ReasoningItem, RenderOptions,
                         Reply, Scenario, ThinkingSetting, Tool, Translation, Usage)
from .core.parsing import StreamAssembler, bad_body, expect_dict, expect_list, int_or_none, join_text, make_call

BASE_URL = "https://api.anthropic.com"  # the SDK's base URL: no /v1
PATH = "/v1/messages"
API_VERSION = "2023-06-01"  # the documented, wire-stable version; override with providers.anthropic.headers
DEFAULT_MAX_TOKENS = 1024
THINKING_BUDGET = 1024  # the documented minimum budget_tokens
DEFAULT_MAX_TOKENS_THINKING = 2048  # leaves room above the budget (budget_tokens < max_tokens)
COMPOSITION_KEYS = ("anyOf", "oneOf", "allOf")
# Claude models before 3.7 have no extended thinking (Claude 3 / 3.5, 2.x, instant).
_NO_THINKING = re.compile(r"claude-(?:3-(?!7)|2|v1|v2|instant)")

# Tool names: ^[a-zA-Z0-9_-]{1,64}$ (Anthropic's tool-use docs, the tool name's pattern)
NAME_RULE = (re.compile(r"[a-zA-Z0-9_-]{1,64}").fullmatch, "letters, digits, _ and -, at most 64")

# The newer per-tool fields its tool type has (fact anthropic.tool_fields); no custom tool kind.
TOOL_FIELDS: tuple[str, ...] = ("input_examples", "defer_loading", "eager_input_streaming", "cache_control")

# What `parse` calls a body of this family's reply shape, and the -p to suggest for it (core/sniff.py).
REPLY_KIND = ("an Anthropic Messages reply", "anthropic")


def looks_like_reply(body: dict[str, Any]) -> bool:
    """The Messages API's documented success shape: ``{type: "message", content: [...], stop_reason}``."""
    return body.get("type") == "message" and isinstance(body.get("content"), list)


# The family name its reasoning items carry (a signature or encrypted content is valid only there).
REASONING_FAMILY = "anthropic"


def reasoning_item(block: Any) -> ReasoningItem | None:
    """A reasoning item pasted as Messages returns it: a ``thinking`` block (text + signature) or a
    ``redacted_thinking`` block (encrypted = data); None for any other shape."""
    kind = block.value.get("type")
    if kind == "thinking":
        block.only(("type", "thinking", "signature"), "an Anthropic thinking block")
        return ReasoningItem("anthropic", text=block.text("thinking") or "", signature=block.text("signature"))
    if kind == "redacted_thinking":
        block.only(("type", "data"), "an Anthropic redacted_thinking block")
        return ReasoningItem("anthropic", encrypted=block.text("data"), redacted=True)
    return None


LEDGER_CODES: dict[str, str] = {
    "strict.mapped": "strict tools sent with tool.strict true",
    "schema.strict_invalid": "a strict tool's schema breaks Anthropic's strict rules (its SDK's transform_schema)",
    "thinking.adaptive": "thinking sent as {type: adaptive}",
    "thinking.effort": "a thinking effort sent as output_config.effort (or refused when not one of Claude's levels)",
    "thinking.form": "the thinking form asked for is one this model rejects (model rule thinking_form): refused",
    "thinking.always_on": "the model always thinks: thinking: false cannot turn it off",
    "thinking.disabled_for_choice": "a model thinking by default is sent thinking disabled so a forcing choice works",
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

    __slots__ = ("role", "texts", "calls", "results", "reasoning")

    def __init__(self, role: str) -> None:
        self.role = role  # "user" or "assistant"
        self.texts: list[str] = []
        self.calls: list[HistoryCall] = []
        self.results: list[Message] = []
        self.reasoning: list[ReasoningItem] = []  # positions counted over the merged turn's calls

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
            if message.reasoning:
                before = len(turn.calls)
                turn.reasoning.extend(item._replace(position=item.position + before) if before else item
                                      for item in message.reasoning)
            turn.calls.extend(message.tool_calls)
    if merged:
        kinds = list(dict.fromkeys(merged))
        ledger.info("history.merged", f"{title} takes one message per turn: merged {'; '.join(kinds)} "
                    "(tool results first, then text)")
    for index, turn in enumerate(turns):
        for text in turn.texts:
            if not text.strip():
                break
        else:
            continue  # no blank text in this turn
        turn.texts = [t for t in turn.texts if t.strip()]
        if turn.texts or turn.calls or turn.results or turn.reasoning:
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


def last_assistant_has_calls(messages: tuple[Message, ...], family: str | None = None) -> bool:
    """The last assistant turn made tool calls (and, with ``family``, carries no thinking block of that family)."""
    for message in reversed(messages):
        if message.role == "assistant":
            if family is not None and any(item.family == family for item in message.reasoning):
                return False
            return bool(message.tool_calls)
    return False


def thinking_block(item: ReasoningItem) -> dict[str, Any]:
    """An anthropic-family ReasoningItem as the block the API returned (types/thinking_block_param.py,
    types/redacted_thinking_block_param.py)."""
    if item.redacted:
        return {"type": "redacted_thinking", "data": item.encrypted}
    return {"type": "thinking", "thinking": item.text or "", "signature": item.signature}


def ordered_blocks(turn: Turn, family: str, reasoning_block: Callable[[ReasoningItem], dict[str, Any]],
                   text_block: Callable[[str], dict[str, Any]],
                   call_block: Callable[[HistoryCall], dict[str, Any]]) -> list[dict[str, Any]]:
    """A turn's texts and calls as blocks, with its reasoning items of ``family`` put back where Claude's
    APIs (Messages and Bedrock Converse) want them: before the texts, and an interleaved item before the
    call that followed it, unchanged. Tool results are the caller's (they come first)."""
    items = [i for i in turn.reasoning if i.family == family] if turn.reasoning else None
    if not items:  # most turns: a plain loop (cheaper here than two comprehensions)
        blocks = []
        for text in turn.texts:
            blocks.append(text_block(text))
        for c in turn.calls:
            blocks.append(call_block(c))
        return blocks
    slots = placed(items, len(turn.calls))
    blocks = [reasoning_block(item) for item in slots[0]]
    blocks.extend(text_block(text) for text in turn.texts)
    for index, c in enumerate(turn.calls):
        if index:
            blocks.extend(reasoning_block(item) for item in slots[index])
        blocks.append(call_block(c))
    if turn.calls:
        blocks.extend(reasoning_block(item) for item in slots[-1])
    return blocks


# ---- translate --------------------------------------------------------------------------


def translate(provider: str, scenario: Scenario, options: RenderOptions, cap: Capability) -> Translation:
    ctx = start(provider, scenario, options, cap)
    check_names(ctx, NAME_RULE)
    settings = ctx.settings
    facts = model_facts(ctx)
    plan = thinking_plan(ctx, facts)
    max_tokens = settings.max_tokens
    if max_tokens is None:
        max_tokens = DEFAULT_MAX_TOKENS_THINKING if plan.budget is not None else DEFAULT_MAX_TOKENS
        ctx.ledger.info("max_tokens.default", f"max_tokens is required by {cap.title} and not set: sent "
                        f"{max_tokens} (set providers.{provider}.max_tokens)")
    body: dict[str, Any] = {"model": ctx.model, "max_tokens": max_tokens}
    if scenario.system is not None:
        body["system"] = scenario.system
    body["messages"] = _messages(ctx)
    _tools_and_choice(ctx, body)
    body.update(thinking_fields(ctx, plan, facts, max_tokens, "tools" in body, MESSAGES_THINKING))
    if settings.temperature is not None:
        body["temperature"] = settings.temperature
    if options.stream:
        body["stream"] = True
        streamed(ctx, "stream: true, server-sent events (message_start, content_block_start/delta/stop with "
                 "input_json_delta, message_delta, message_stop)")
    headers = {"content-type": "application/json", "x-api-key": f"${ctx.key_env[0]}",
               "anthropic-version": API_VERSION}
    url = endpoint(ctx, BASE_URL, PATH)
    return finish(ctx, url=url, headers=headers, body=body, choice_path=("tool_choice",),
                  final_lint=_MESSAGES_LINT if thinking_lint_needed(ctx, plan, facts) else None)


def _messages(ctx: Context) -> list[dict[str, Any]]:
    scenario = ctx.scenario
    if not scenario.messages:
        ctx.ledger.warning("messages.empty", f"the scenario has no messages; {ctx.cap.title} answers 400 without "
                           "at least one (add a user message)")
        return []
    if not scenario.tools and scenario.has_tool_history:
        ctx.ledger.warning("history.tools_undeclared", "the history holds tool calls but no tools are declared; "
                           "the API has answered 400 'Requests which include tool_use or tool_result blocks must "
                           "define tools' (anthropic-sdk-python#494); declare the tools")
    reasoning_for(ctx, REASONING_FAMILY)
    wire = []
    for turn in group_turns(scenario.messages, ctx.ledger, ctx.cap.title):
        blocks: list[dict[str, Any]] = []
        for result in turn.results:
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": result.tool_call_id,
                                     "content": result.content or ""}
            if result.is_error:
                block["is_error"] = True
            blocks.append(block)
        blocks.extend(ordered_blocks(turn, "anthropic", thinking_block, _text_block, _tool_use_block))
        if len(turn.texts) == 1 and len(blocks) == 1:
            wire.append({"role": turn.role, "content": turn.texts[0]})  # plain string content, as documented
        else:
            wire.append({"role": turn.role, "content": blocks})
    return wire


def _text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _tool_use_block(call: HistoryCall) -> dict[str, Any]:
    return {"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}


def _tool(ctx: Context, tool: Tool, strict: set[str]) -> dict[str, Any]:
    schema = dict(tool.schema())
    if "anyOf" in schema or "oneOf" in schema or "allOf" in schema:
        composed = [k for k in COMPOSITION_KEYS if k in schema]
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
    if tool.fields:
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
    if strict:
        ctx.ledger.info("strict.mapped", f"strict tools: {', '.join(sorted(strict))} → strict: true")
    choice: dict[str, Any] | None = None
    if plan.mode != "unset":  # the value is the row's (allowed is emulated: a row claiming it is refused there)
        choice = choice_value(ctx)
    # Anthropic's parallel switch lives inside tool_choice (the row's parallel: tool_choice.disable_parallel_tool_use,
    # tool_choice_*_param.py; none has no such field): the flag is added to the row's value here.
    parallel = parallel_value(ctx)
    none = plan.mode == "none"
    if parallel is False:
        if choice is None:
            choice = choice_value(ctx, "auto")
            ctx.ledger.info("parallel.auto_added", "parallel_tool_calls false with no tool_choice: sent as "
                            f"{compact({**choice, 'disable_parallel_tool_use': True})} (the flag lives inside "
                            "tool_choice)")
        if none:
            ctx.ledger.info("parallel.not_with_none", "parallel_tool_calls false not sent: tool_choice none has no "
                            "disable_parallel_tool_use field (and calls no tools)")
        else:
            choice = choice_with(ctx, choice, "disable_parallel_tool_use", True)
    elif parallel is True:
        if choice is not None and not none:
            choice = choice_with(ctx, choice, "disable_parallel_tool_use", False)
        else:
            ctx.ledger.info("parallel.default", "parallel_tool_calls true is Anthropic's default: nothing to send")
    if choice is not None:
        body["tool_choice"] = choice
        mapped(ctx, choice)


class ThinkingWire(NamedTuple):
    """Where Claude's thinking lives on a wire. Messages has ``thinking`` and ``output_config`` at the top
    level; Bedrock Converse passes the same objects, under the same rules, in additionalModelRequestFields
    (can1357/oh-my-pi#341). Everything else about thinking is one piece of logic here, for both."""

    family: ReasoningFamily  # whose reasoning items the history replays (a signature is valid only there)
    fields: tuple[str, ...]  # the path to the object holding thinking and output_config (() = the body)
    choice: tuple[str, ...]  # the path to the tool choice


MESSAGES_THINKING = ThinkingWire("anthropic", (), ("tool_choice",))


class ThinkingPlan(NamedTuple):
    """What to send for thinking: ``form`` enabled | adaptive | disabled | None (send nothing)."""

    form: str | None
    budget: int | None = None
    effort: str | None = None


_EFFORTS = ("low", "medium", "high", "xhigh", "max")  # anthropic-sdk-python types/output_config_param.py
THINKING_NOT_SENT = ThinkingPlan(None)  # no thinking field: the model's default stands


def thinks_by_default(facts: Mapping[str, Any]) -> bool:
    """The model rules say the model thinks unless told not to (fact thinking_default)."""
    default = facts.get("thinking_default")
    return default is not None and bool(default.value)


def thinking_plan(ctx: Context, facts: dict[str, Any]) -> ThinkingPlan:
    """The neutral thinking setting → Claude's form, by the model rules (shared with Bedrock)."""
    settings, ledger, model = ctx.settings, ctx.ledger, ctx.model
    spec = settings.thinking_mode
    if spec is None:
        if settings.thinking is None:
            return THINKING_NOT_SENT  # nothing asked: the model's default stands
        spec = ThinkingSetting("on" if settings.thinking else "off")
    form_fact = facts.get("thinking_form")
    form = form_fact.value if form_fact else None
    if spec.mode == "off":
        default = facts.get("thinking_default")
        if default is not None and default.value:
            always = facts.get("thinking_always_on")
            if always is not None and always.value:
                ledger.warning("thinking.always_on", f"{model} always thinks: thinking: false cannot turn it off "
                               "(the API rejects disabled)")
                rule_applied(ctx, "thinking_always_on", always, "thinking stays on")
                return THINKING_NOT_SENT
            rule_applied(ctx, "thinking_default", default, "thinking: false sent as {type: disabled}")
            return ThinkingPlan("disabled")
        return THINKING_NOT_SENT
    if form == "none" or (form is None and not supports_thinking(model)):
        ledger.warning("thinking.unsupported_model", f"{model} has no extended thinking (Claude 3.7 Sonnet "
                       "and newer have it): thinking is not sent")
        return THINKING_NOT_SENT
    effort = spec.effort
    if effort is not None and effort not in _EFFORTS:
        ledger.error("thinking.effort", f"effort {effort} is not one of Claude's effort levels ({', '.join(_EFFORTS)})"
                     "; choose one of them, or thinking: false")
        effort = None
    if spec.mode == "adaptive" or (form == "adaptive" and spec.budget is None):
        if form == "enabled":
            ledger.error("thinking.form", f"{model} takes only thinking {{type: enabled, budget_tokens}}; adaptive is "
                         "answered 400; write thinking: true or {budget: N}")
            rule_applied(ctx, "thinking_form", form_fact, "adaptive refused")
            return THINKING_NOT_SENT
        if form_fact is not None and spec.mode != "adaptive":
            rule_applied(ctx, "thinking_form", form_fact, "thinking: true sent as {type: adaptive}")
        return ThinkingPlan("adaptive", effort=effort)
    if form == "adaptive":  # a budget was asked for, the model has none
        ledger.error("thinking.form", f"{model} rejects thinking {{type: enabled, budget_tokens}} (adaptive only): "
                     f"budget {spec.budget} cannot be sent; write thinking: adaptive, or {{effort: ...}}")
        rule_applied(ctx, "thinking_form", form_fact, "budget refused")
        return THINKING_NOT_SENT
    return ThinkingPlan("enabled", budget=spec.budget if spec.budget is not None else THINKING_BUDGET, effort=effort)


def thinking_fields(ctx: Context, plan: ThinkingPlan, facts: dict[str, Any], max_tokens: int | None,
                    has_tools: bool, wire: ThinkingWire) -> dict[str, Any]:
    """``thinking`` and ``output_config`` (the effort) for the plan, as the object ``wire.fields`` names holds them."""
    fields: dict[str, Any] = {}
    config = _thinking_config(ctx, plan, facts, max_tokens, has_tools, wire)
    if config is not None:
        fields["thinking"] = config
    if plan.effort is not None:
        fields["output_config"] = {"effort": plan.effort}
        where = ".".join(wire.fields + ("output_config", "effort"))
        ctx.ledger.info("thinking.effort", f"thinking effort {plan.effort} → {where}")
    return fields


def _thinking_config(ctx: Context, plan: ThinkingPlan, facts: dict[str, Any], max_tokens: int | None,
                     has_tools: bool, wire: ThinkingWire) -> dict[str, Any] | None:
    """The ``thinking`` object for the plan, refusing the combinations the API rejects.
    A model that thinks by default gets {type: disabled} when the choice forces a call."""
    title = ctx.cap.title
    if plan.form is None:
        default = facts.get("thinking_default")
        if (default is not None and default.value and ctx.settings.thinking is None and ctx.plan.forces_call
                and has_tools and ctx.options.emulate):
            always = facts.get("thinking_always_on")
            allowed = facts.get("forced_choice_with_thinking")
            if not (always is not None and always.value) and allowed is not None and not allowed.value:
                ctx.ledger.warning("thinking.disabled_for_choice", f"{ctx.model} thinks by default and then rejects "
                                   "a forcing tool_choice, so thinking is sent disabled; set "
                                   f"providers.{ctx.provider}.thinking to decide yourself")
                rule_applied(ctx, "thinking_default", default, "thinking on by default")
                return {"type": "disabled"}
        return None
    if plan.form == "disabled":
        return {"type": "disabled"}
    temperature = ctx.settings.temperature
    if temperature is not None and temperature != 1:
        ctx.ledger.error("thinking.temperature", f"{title} accepts only temperature 1 with thinking on (here "
                         f"{temperature}); drop temperature or set thinking: false")
    if last_assistant_has_calls(ctx.scenario.messages, wire.family):
        ctx.ledger.error("thinking.tool_history", f"with thinking on, {title} requires the last assistant turn to "
                         "start with the thinking block that preceded its tool calls (400 'Expected thinking or "
                         "redacted_thinking, but found tool_use'), and this history's has none; add the turn's "
                         "reasoning: items as the API returned them, or set thinking: false for this history")
    if plan.form == "adaptive":
        ctx.ledger.info("thinking.adaptive", "thinking → {type: adaptive} (Claude decides when and how much to think)")
        return {"type": "adaptive"}
    budget = plan.budget if plan.budget is not None else THINKING_BUDGET
    if budget < THINKING_BUDGET or (max_tokens is not None and max_tokens <= budget):
        ctx.ledger.error("thinking.max_tokens", f"thinking needs budget_tokens ≥ {THINKING_BUDGET} and below "
                         f"max_tokens, but max_tokens is {max_tokens} and the budget {budget}; raise max_tokens "
                         f"above {max(budget, THINKING_BUDGET)}")
    if plan.budget == THINKING_BUDGET and ctx.settings.thinking_mode is None:
        ctx.ledger.info("thinking.budget", f"thinking: true → budget_tokens {THINKING_BUDGET} (the documented minimum; "
                        "it must stay below max_tokens); write thinking: {budget: N} to choose another budget")
    else:
        ctx.ledger.info("thinking.budget", f"thinking budget → budget_tokens {budget}")
    return {"type": "enabled", "budget_tokens": budget}


def thinking_lint_needed(ctx: Context, plan: ThinkingPlan, facts: Mapping[str, Any]) -> bool:
    """Whether the final body can pair thinking with a forcing tool choice (``thinking_lint``): only when the
    tool_choice plan forces a call and thinking is sent on or is the model's default, or when ``extra`` rewrites
    the body. Translators pass the lint only then."""
    if ctx.settings.extra:
        return True
    if not ctx.plan.forces_call:
        return False
    return plan.form == "enabled" or plan.form == "adaptive" or thinks_by_default(facts)


def thinking_lint(wire: ThinkingWire) -> Callable[[Context, dict[str, Any]], None]:
    """The final lint (``finish``'s final_lint) for a wire, made once: thinking on with a forcing tool choice,
    read from the final body (after extra), which the API rejects (``thinking_lint_needed`` says when)."""
    thinking_path = wire.fields + ("thinking",)

    def lint(ctx: Context, body: dict[str, Any]) -> None:
        choice: Any = body
        for key in wire.choice:
            choice = choice.get(key) if isinstance(choice, dict) else None
        if not (isinstance(choice, dict)
                and (choice.get("type") in ("any", "tool") or "any" in choice or "tool" in choice)):
            return  # the choice forces no call: nothing to refuse
        thinking: Any = body
        for key in thinking_path:
            thinking = thinking.get(key) if isinstance(thinking, dict) else None
        _forced_choice_lint(ctx, thinking, choice, wire)
    return lint


def _forced_choice_lint(ctx: Context, thinking: Any, choice: Any, wire: ThinkingWire) -> None:
    """``choice`` forces a call: refused when thinking is on (sent, or the model's default)."""
    facts = model_facts(ctx)
    on = thinks_by_default(facts) if thinking is None else (
        isinstance(thinking, dict) and thinking.get("type") in ("enabled", "adaptive"))
    if not on:
        return
    allowed = facts.get("forced_choice_with_thinking")
    if allowed is not None and allowed.value:
        rule_applied(ctx, "forced_choice_with_thinking", allowed, "forcing tool_choice kept with thinking on")
        return
    where = ".".join(wire.fields + ("thinking",))
    ctx.ledger.error("thinking.forced_choice", f"{ctx.cap.title} answers 400 'Thinking may not be enabled when "
                     f"tool_choice forces tool use.' for tool_choice {compact(choice)} with {where} "
                     f"{compact(thinking) if thinking is not None else '(on by default)'}; set "
                     f"providers.{ctx.provider}.thinking: false, or use tool_choice auto")
    if allowed is not None:
        rule_applied(ctx, "forced_choice_with_thinking", allowed, "forcing tool_choice refused with thinking on")


_MESSAGES_LINT = thinking_lint(MESSAGES_THINKING)


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
    calls, texts, reasoning = [], [], []
    for i, block in enumerate(expect_list(provider, body.get("content"), "content")):
        block = expect_dict(provider, block, f"content[{i}]")
        kind = block.get("type")
        if kind == "text":
            texts.append(block.get("text"))
        elif kind == "tool_use":
            calls.append(make_call(block.get("id"), block.get("name"), block.get("input")))
        elif kind in ("thinking", "redacted_thinking"):  # kept whole: they go back first and unchanged
            reasoning.append(thinking_item(provider, block, f"content[{i}]", len(calls)))
        # server tool blocks are not the answer
    stop = body.get("stop_reason")
    if stop is not None and not isinstance(stop, str):
        raise bad_body(provider, f"stop_reason is {type(stop).__name__}, expected a string")
    usage = body.get("usage")
    usage = expect_dict(provider, usage, "usage") if usage is not None else {}
    return Reply(tool_calls=tuple(calls), text=join_text(texts), finish_reason=stop,
                 usage=Usage(int_or_none(usage.get("input_tokens")), int_or_none(usage.get("output_tokens"))),
                 reasoning=tuple(reasoning))


def thinking_item(provider: str, block: dict[str, Any], where: str, position: int) -> ReasoningItem:
    """A ``thinking`` block (thinking + signature) or ``redacted_thinking`` block (data) as a ReasoningItem
    (anthropic-sdk-python ``types/thinking_block.py``, ``types/redacted_thinking_block.py``)."""
    if block.get("type") == "redacted_thinking":
        data = block.get("data")
        if not isinstance(data, str):
            raise bad_body(provider, f"{where} is redacted_thinking without data")
        return ReasoningItem("anthropic", encrypted=data, redacted=True, position=position)
    text, signature = block.get("thinking"), block.get("signature")
    if not isinstance(text, str) or not isinstance(signature, str):
        raise bad_body(provider, f"{where} is a thinking block without thinking text and signature")
    return ReasoningItem("anthropic", text=text, signature=signature, position=position)


# ---- streamed replies ------------------------------------------------------------------------

STREAM_FRAMING = "sse"


class MessagesStreamAssembler(StreamAssembler):
    """Messages stream events → the Reply ``parse_reply`` makes of the whole message.

    ``content_block_start`` opens block ``index`` (a ``tool_use`` block is a call with its id and
    name); ``content_block_delta`` adds ``text_delta`` text, ``input_json_delta`` argument pieces,
    ``thinking_delta``/``signature_delta`` reasoning; ``message_delta`` brings ``stop_reason`` and the
    output token count; ``message_stop`` ends the stream; an ``error`` event is the reply's error
    (anthropic-sdk-python ``types/raw_message_stream_event.py``). Input tokens come from
    ``message_start`` (a later ``message_delta`` count wins)."""

    final_event = "message_stop"

    def __init__(self, provider: str) -> None:
        super().__init__(provider)
        self.blocks: dict[Any, Any] = {}  # index -> block type
        self.texts: dict[Any, list[str]] = {}  # text blocks' pieces, in block order

    def feed(self, event: Any) -> bool:
        data = event.data
        if not isinstance(data, dict):
            return False
        kind = data.get("type", event.name)
        if kind == "content_block_delta":
            index, delta = data.get("index"), data.get("delta")
            if not isinstance(delta, dict):
                return False
            dtype = delta.get("type")
            if dtype == "input_json_delta":
                if self.blocks.get(index, "tool_use") == "tool_use":
                    self.calls.delta(index, delta.get("partial_json"))
                    return True
            elif dtype == "text_delta" and isinstance(delta.get("text"), str):
                self.texts.setdefault(index, []).append(delta["text"])
            elif dtype == "thinking_delta":
                self.count("reasoning_chars", delta.get("thinking"))
            elif dtype == "signature_delta":
                self.extras["signatures"] = self.extras.get("signatures", 0) + 1
        elif kind == "content_block_start":
            index, block = data.get("index"), data.get("content_block")
            if not isinstance(block, dict):
                return False
            self.blocks[index] = block.get("type")
            if block.get("type") == "tool_use":
                self.calls.open(index, block.get("id"), block.get("name")).whole = block.get("input")
                return True
            if block.get("type") == "text" and isinstance(block.get("text"), str) and block["text"]:
                self.texts.setdefault(index, []).append(block["text"])
        elif kind == "message_start":
            message = data.get("message") if isinstance(data.get("message"), dict) else {}
            self._usage(message.get("usage"))
        elif kind == "message_delta":
            delta = data.get("delta")
            if isinstance(delta, dict) and isinstance(delta.get("stop_reason"), str):
                self.finish_reason = delta["stop_reason"]
            self._usage(data.get("usage"))
        elif kind == "message_stop":
            self.done = True
        elif kind == "error":
            error = data.get("error") if isinstance(data.get("error"), dict) else {}
            etype, message = error.get("type"), error.get("message")
            self.fail(ProviderError(None, etype if isinstance(etype, str) else None,
                                    message if isinstance(message, str) else compact(data)))
        return False

    def _usage(self, usage: Any) -> None:
        """Counts present in ``usage`` replace the ones so far (output_tokens is cumulative)."""
        if isinstance(usage, dict):
            self.usage = Usage(int_or_none(usage.get("input_tokens")) if "input_tokens" in usage
                               else self.usage.input_tokens,
                               int_or_none(usage.get("output_tokens")) if "output_tokens" in usage
                               else self.usage.output_tokens)

    def reply_text(self) -> str | None:
        return join_text(["".join(parts) for index, parts in self.texts.items()
                          if self.blocks.get(index, "text") == "text"])


def stream_assembler(provider: str) -> MessagesStreamAssembler:
    return MessagesStreamAssembler(provider)
