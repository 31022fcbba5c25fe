"""Anthropic Messages (``POST https://api.anthropic.com/v1/messages``).

Facts this module relies on:
- tool_choice is ``{"type": "auto"|"any"|"none"}`` or ``{"type": "tool", "name": N}``; inside
  auto/any/tool (not none) ``disable_parallel_tool_use: true`` means at most one call (auto) or
  exactly one (any/tool) (anthropic-sdk-python ``types/tool_choice_*_param.py``).
- tools are ``{name, description, input_schema, strict?}``; names match ``^[a-zA-Z0-9_-]{1,128}$`` (the API's 400);
  ``input_schema.type`` is ``"object"`` (``types/tool_param.py``); the API answers 400
  "input_schema does not support oneOf, allOf, or anyOf at the top level" (anthropics/claude-code#5319).
- ``max_tokens`` is required; ``thinking: {type: enabled, budget_tokens}`` needs a budget of at
  least 1024 and below max_tokens (``types/thinking_config_enabled_param.py``). Manual thinking is
  rejected with a forcing tool_choice ("Thinking may not be enabled when tool_choice forces tool
  use.", mastra-ai/mastra#7507); adaptive thinking takes one, except on the models whose rule says
  otherwise (core/model_rules.py). Thinking is rejected with a temperature other than 1, and when the last assistant turn
  holds tool_use blocks without the thinking block that preceded them (Kilo-Org/kilocode#5219).
- history: tool_use blocks in the assistant turn; every result as a tool_result block at the start
  of the very next user message (anthropic-sdk-typescript#653); text blocks must not be blank
  ("text content blocks must be non-empty", anthropics/claude-code#53473).
- replies: ``content[]`` blocks, ``tool_use.input`` is an object, ``stop_reason``,
  ``usage.input_tokens/output_tokens``; errors are ``{"type":"error","error":{type,message}}``. Tool search
  (anthropic 2.14.0): a ``server_tool_use`` block named ``tool_search_tool_regex|bm25``
  (``types/server_tool_use_block.py``) answered by a ``tool_search_tool_result`` block whose content is
  ``{type: tool_search_tool_search_result, tool_references: [{type: tool_reference, tool_name}]}`` or
  ``{type: tool_search_tool_result_error, error_code}`` (``types/tool_search_tool_result_block.py``); kept as
  server calls. ``stop_details`` (``types/message.py``, and ``message_delta``'s delta) is
  ``RefusalStopDetails {type: refusal, category, explanation}`` or null.

``group_turns`` is shared with the Bedrock translator (Converse enforces the same turn rules), and so is
everything about Claude's thinking (``claude_thinking.py``: ``thinking_plan``, ``thinking_fields``,
``thinking_lint``): a ``ThinkingWire`` says where each API keeps it.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .core.capabilities import Capability
from .core.name_rule_facts import name_rule
from .core.error_envelope import ErrorEnvelope
from .core.tool_file import ToolFile
from .anthropic_strict import anthropic_strict_problems
from .core.translation import (tool_names, choice_value, choice_with, Context, check_names, compact, finish, mapped,
                               warn_long_names,
                               parallel_value, model_facts, start, streamed, strict_tools, tool_fields)
from .core.history_pairing import unanswered
from .core.host_rules import change, refuse
from .core.history_wire import placed, reasoning_for
from .core.request_parts import endpoint
from .core.model import (HistoryCall, Message, ProviderError, ReasoningItem, RenderOptions, Reply, Scenario, Tool,
                         Translation, Usage)
from .core.parsing import bad_body, caller_of, expect_dict, expect_list, int_or_none, join_text, make_call
from .anthropic_server_blocks import ToolSearches, stop_details
from .anthropic_hosted import NATIVE_TOOLS, beta_header, hosted_tools  # noqa: F401 (NATIVE_TOOLS: the interface)
from .anthropic_hosted import LEDGER_CODES as _HOSTED_CODES
from .anthropic_tool_changes import WAY_OUT as TOOL_CHANGES_WAY  # noqa: F401 (the interface: registry.tool_change_ways)
from .claude_thinking import ThinkingWire, thinking_fields, thinking_lint, thinking_lint_needed, thinking_plan

MESSAGES_THINKING = ThinkingWire("anthropic", (), ("tool_choice",))

BASE_URL = "https://api.anthropic.com"  # the SDK's base URL: no /v1
PATH = "/v1/messages"
API_VERSION = "2023-06-01"  # the documented, wire-stable version; override with providers.anthropic.headers
DEFAULT_MAX_TOKENS = 1024
DEFAULT_MAX_TOKENS_THINKING = 2048  # leaves room above the budget (budget_tokens < max_tokens)
COMPOSITION_KEYS = ("anyOf", "oneOf", "allOf")

# Tool names: ^[a-zA-Z0-9_-]{1,128}$, the pattern the API's own 400 names (fact anthropic.tool_name_length); the
# tool-use docs still print {1,64}: a longer name is sent with a warning (DOCS_NAME_BOUND)
NAME_RULE = name_rule("anthropic.tool_name_length")
DOCS_NAME_BOUND = 64

# The newer per-tool fields its tool type has (fact anthropic.tool_fields); no custom tool kind.
TOOL_FIELDS: tuple[str, ...] = ("input_examples", "allowed_callers", "defer_loading", "eager_input_streaming",
                                 "cache_control")

# The hosted tools of a scenario's tools: it renders (core/native_tools.py; anthropic_hosted.py), and the SDK type
# its tools are (named when another hosted tool is left out).
TOOLS_TYPE = "anthropic.tools_type"  # the fact (core/facts.py) naming the SDK type its tools are

# What `parse` calls a body of this family's reply shape, and the -p to suggest for it (core/sniff.py).
REPLY_KIND = ("an Anthropic Messages reply", "anthropic")


def looks_like_reply(body: dict[str, Any]) -> bool:
    """The Messages API's documented success shape: ``{type: "message", content: [...], stop_reason}``."""
    return body.get("type") == "message" and isinstance(body.get("content"), list)


# How its error bodies look (core/error_envelope.py): anthropic-sdk-python types/shared/error_response.py
# ErrorResponse {error: ErrorObject, request_id, type: Literal["error"]} (error-anthropic-*.json).
ERROR_ENVELOPES = (ErrorEnvelope("anthropic-sdk-python types/shared/error_response.py: ErrorResponse {error, request_id, "
                                 "type: 'error'}", object_key="error", kind_keys=("type",), marker=("type", "error"),
                                 reply_keys=("content", "stop_reason", "usage")),)


# A tool file in its format (core/tool_file.py): anthropic ToolParam (input_schema, cache_control, type: custom).
TOOL_FILE = ToolFile("anthropic", "Anthropic tools", "anthropic-sdk-python types/tool_param.py ToolParam {name, "
                     "input_schema, description, cache_control, strict, type: 'custom', ...}",
                     marks=lambda entry: "input_schema" in entry, short="Anthropic", schema_keys=("input_schema",),
                     schema_required=True, strict=True, tool_fields=True)


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
    "thinking.forced_choice": "a forcing tool_choice the API rejects for this model and thinking setting (model rules "
                              "forced_tool_choice, forced_choice_with_thinking, forced_choice_with_adaptive): "
                              "request refused",
    "model_rule.unstated": "a forcing tool_choice on a known model whose pages do not say whether it takes one (a "
                           "rule's unstated forced_tool_choice): sent as written, the ledger says the fact is unknown",
    "thinking.disabled_effort": "thinking {type: disabled} with an effort above the highest the model takes it with "
                                "(model rule disabled_effort_max: Claude Opus 5, high): request refused",
    "thinking.between_tools": "thinking: false sent as {type: between_tools}, the lowest setting of a model that "
                              "refuses disabled (model rule thinking_off)",
    "thinking.temperature": "thinking on with a temperature other than 1 is rejected by the API: request refused",
    "api_version.removed_field": "the anthropic-version the headers set removes a field the body sends (fact "
                                 "anthropic.api_version: 2026-10-21 removes temperature, top_p and top_k): request "
                                 "refused",
    "api_version.unknown": "the anthropic-version the headers set is none of the API's versions (fact "
                           "anthropic.version_words): the API answers 400 to any request under it; sent as written",
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
    "history.blank_text_dropped": "a blank text block next to other content is left out (kept at a replaced host)",
    "history.tools_undeclared": "the history holds tool calls but no tools are declared",
    "messages.empty": "no messages: the API needs at least one",
    **_HOSTED_CODES,
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


def group_turns(ctx: Context) -> list[Turn]:
    """Merge the scenario's messages into alternating user/assistant turns.

    Tool results join the user turn (first), a user text right after them follows in that same
    turn; neighbouring messages of one role merge. Blank texts and unanswered calls are recorded."""
    messages, ledger, title = ctx.scenario.messages, ctx.ledger, ctx.cap.title
    _check_results(ctx)
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
        kept = [t for t in turn.texts if t.strip()]
        if kept or turn.calls or turn.results or turn.reasoning:
            if change(ctx, "history.blank_text_dropped", f"blank text in {turn.role} message {index + 1} left out "
                      f"({title} rejects blank text blocks)", f"{turn.role} message {index + 1} holds a blank text "
                      f"block beside other content, and {title} rejects blank text blocks"):
                turn.texts = kept
        else:  # refused at the API's host; elsewhere sent as written
            refuse(ctx, "history.blank_text", f"{turn.role} message {index + 1} has only blank text, which "
                         f"{title} rejects (text content blocks must be non-empty); write some text")
    return turns


def _check_results(ctx: Context) -> None:
    """Every call must be answered by the tool messages right after its assistant message."""
    messages, ledger, title = ctx.scenario.messages, ctx.ledger, ctx.cap.title
    for gap in unanswered(messages):
        missing = ", ".join(gap.ids)
        if gap.position == len(messages) - 1:  # the history ends with the calls, no result after them
            ledger.warning("history.missing_tool_result",
                           f"the history ends with tool calls without results ({missing}); {title} "
                           "expects each call answered in the next user message")
        else:
            refuse(ctx, "history.missing_tool_result",
                   f"tool calls {missing} have no result right after the assistant message; "
                         f"{title} rejects this (each tool call needs its result in the next message); add "
                         "role: tool messages with these ids right after it")


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
    changes = None
    if scenario.tool_steps:  # a loop.narrow: allowed step: the tool changes beta, where the scenario opts in
        from . import anthropic_tool_changes

        changes = anthropic_tool_changes.plan(scenario, scenario.settings_for(provider))
    ctx = start(provider, scenario if changes is None else changes.scenario, options, cap)
    asked = scenario.tool_choice
    if changes is not None and asked is not None:  # the step's choice as requested; sent as its plain mode
        ctx.requested, ctx.requested_text = asked.to_json(), asked.quoted()
    check_names(ctx, NAME_RULE)
    warn_long_names(ctx, NAME_RULE, DOCS_NAME_BOUND, f"{cap.title}'s tool-use docs print at most {DOCS_NAME_BOUND}, "
                    "its own validator takes 128", "anthropic.tool_name_length")
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
    if changes is not None:
        from .anthropic_tool_changes import insert, note

        note(ctx, changes, insert(body["messages"], ctx.scenario.messages, changes.groups))
    elif scenario.tool_steps:
        from .anthropic_tool_changes import narrows, note_unread, unread_betas

        if (unread := unread_betas(ctx.settings)) is not None and narrows(scenario):
            note_unread(ctx, unread)
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
    beta_header(ctx, body, headers)
    url = endpoint(ctx, BASE_URL, PATH)
    lint = _MESSAGES_LINT if thinking_lint_needed(ctx, plan, facts) else None
    if _version_asked(ctx) is not None:  # the user's headers name an API version: its removed fields, after extra
        lint = _version_lint if lint is None else _both(lint, _version_lint)
    return finish(ctx, url=url, headers=headers, body=body, choice_path=("tool_choice",), final_lint=lint)


def _version_asked(ctx: Context) -> str | None:
    """The anthropic-version the providers.<id>.headers set (the last, names matched without case), else None."""
    asked = [value for name, value in ctx.settings.headers.items() if name.lower() == "anthropic-version"]
    return asked[-1] if asked else None


def _version_lint(ctx: Context, body: dict[str, Any]) -> None:
    """Fact anthropic.api_version: a request sent under an API version that removes a field the final body sends
    (temperature from the scenario, or any of them through extra) is refused, in Anthropic's words."""
    from .core.fact_values import VersionRemoves
    from .core.facts import cited, fact  # the dated facts: read only when the headers name a version

    said = fact("anthropic.api_version")
    assert isinstance(said.value, VersionRemoves)
    version = _version_asked(ctx) or API_VERSION
    _unknown_version(ctx, version)
    removed = said.value.removed({said.value.header: version}, body)
    if removed:
        ctx.ledger.error("api_version.removed_field", f"anthropic-version {version} (providers.{ctx.provider}.headers) "
                         f"removes {', '.join(removed)}, which this request sends: '{said.value.words}' "
                         f"({cited(said.id)}); drop {'it' if len(removed) == 1 else 'them'}, or send anthropic-version "
                         f"{API_VERSION}, toolchoice's own")


def _unknown_version(ctx: Context, version: str) -> None:
    """Fact anthropic.version_words: a version the API does not have is refused, whatever the body (the mock answers
    those words). Said, not refused: the headers may be meant for a server at another base_url."""
    from .core.choice_shape_words import ANTHROPIC_VERSION_WORDS, ANTHROPIC_VERSIONS
    from .core.facts import cited
    from .core.model import quoted

    if version not in ANTHROPIC_VERSIONS:
        ctx.ledger.warning("api_version.unknown", f"anthropic-version {quoted(version)} (providers.{ctx.provider}."
                           f"headers) is none of the API's versions ({', '.join(ANTHROPIC_VERSIONS)}): Anthropic "
                           f"answers 400 '{ANTHROPIC_VERSION_WORDS.format(version=version)}' to any request under it "
                           f"({cited('anthropic.version_words')}); send one of them (toolchoice's own: {API_VERSION}); "
                           "the request is sent as written")


def _both(first: Callable[[Context, dict[str, Any]], None],
          second: Callable[[Context, dict[str, Any]], None]) -> Callable[[Context, dict[str, Any]], None]:
    def lint(ctx: Context, body: dict[str, Any]) -> None:
        first(ctx, body)
        second(ctx, body)
    return lint


def _messages(ctx: Context) -> list[dict[str, Any]]:
    scenario = ctx.scenario
    if not scenario.messages:
        refuse(ctx, "messages.empty", f"the scenario has no messages: {ctx.cap.title} answers 400 'messages: at least "
                                      "one message is required' (fact anthropic.messages_empty); add a user message")
        return []
    if not scenario.tools and scenario.has_tool_history:
        ctx.ledger.warning("history.tools_undeclared", "the history holds tool calls but no tools are declared; "
                           "the API has answered 400 'Requests which include tool_use or tool_result blocks must "
                           "define tools' (anthropic-sdk-python#494); declare the tools")
    reasoning_for(ctx, REASONING_FAMILY)
    wire = []
    for turn in group_turns(ctx):
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
        refuse(ctx, "schema.rejected", f"tool '{tool.name}': input_schema has top-level {'/'.join(composed)}; "
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
    hosted = hosted_tools(ctx, body, len(plan.tools)) if ctx.scenario.native_tools else []
    if plan.omit_tools or not (plan.tools or hosted):
        parallel_value(ctx)  # records that parallel_tool_calls is not sent
        return
    strict = strict_tools(ctx)
    body["tools"] = [_tool(ctx, tool, strict) for tool in plan.tools] + hosted
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


_MESSAGES_LINT = thinking_lint(MESSAGES_THINKING)


# ---- parse ------------------------------------------------------------------------------


def limits_body(tools: Sequence[Tool]) -> dict[str, Any]:
    """The body the rows' ``body_limits`` measure an imported catalogue on (``tool_import_limits``): these tools as
    Messages' tools, their input_schema and strict as written."""
    return {"tools": [{"name": t.name, "input_schema": t.parameters, **({"strict": t.strict} if t.strict else {})}
                      for t in tools]}


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
    searches = ToolSearches()
    for i, block in enumerate(expect_list(provider, body.get("content"), "content")):
        block = expect_dict(provider, block, f"content[{i}]")
        kind = block.get("type")
        if kind == "text":
            texts.append(block.get("text"))
        elif kind == "tool_use":
            call = make_call(block.get("id"), block.get("name"), block.get("input"))
            caller = caller_of(block.get("caller"))  # anthropic types/tool_use_block.py caller
            calls.append(call._replace(caller=caller) if caller is not None else call)
        elif kind in ("thinking", "redacted_thinking"):  # kept whole: they go back first and unchanged
            reasoning.append(thinking_item(provider, block, f"content[{i}]", len(calls)))
        else:  # a tool search is kept as a server call; other server tool blocks are not the answer
            searches.add(block)
    stop = body.get("stop_reason")
    if stop is not None and not isinstance(stop, str):
        raise bad_body(provider, f"stop_reason is {type(stop).__name__}, expected a string")
    usage = body.get("usage")
    usage = expect_dict(provider, usage, "usage") if usage is not None else {}
    return Reply(tool_calls=tuple(calls), text=join_text(texts), finish_reason=stop,
                 usage=Usage(int_or_none(usage.get("input_tokens")), int_or_none(usage.get("output_tokens"))),
                 reasoning=tuple(reasoning), server_calls=searches.calls(), stop_details=stop_details(body))


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


def stream_assembler(provider: str) -> Any:
    """Messages stream events → the Reply ``parse_reply`` makes of the whole message (``anthropic_stream``)."""
    from .anthropic_stream import MessagesStreamAssembler

    return MessagesStreamAssembler(provider)
