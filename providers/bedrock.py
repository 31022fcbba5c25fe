"""AWS Bedrock Converse (``POST https://bedrock-runtime.{region}.amazonaws.com/model/{modelId}/converse``).

Auth is a Bedrock API key sent as ``Authorization: Bearer $AWS_BEARER_TOKEN_BEDROCK`` (the service
model lists ``smithy.api#httpBearerAuth`` next to SigV4). SigV4 signing (AWS access keys) is not
supported: it signs the exact bytes at send time, which a rendered request cannot show.

Facts this module relies on (botocore ``data/bedrock-runtime/2023-09-30/service-2.json``):
- ``toolConfig {tools: [{toolSpec: {name, description, inputSchema: {json}, strict}}], toolChoice}``;
  toolChoice is a union ``{auto: {}} | {any: {}} | {tool: {name}}``; there is no none; ``tool``
  is "only supported by Anthropic Claude 3 and Amazon Nova models"; ``tools`` is required.
- a history holding toolUse/toolResult blocks needs toolConfig, or 400 "The toolConfig field must
  be defined when using toolUse and toolResult content blocks." (langgenius/dify#17545).
- toolResult ``{toolUseId, content: [{json: object} | {text}], status: success|error}``; status
  is for Claude and Nova only (strands-agents/sdk-python#686); ``json`` must be an object
  (sigoden/aichat#1550); all results of one turn go in one user message (agno-agi/agno#6694);
  a blank message text block is rejected.
- ``system: [{text}]``, ``inferenceConfig {maxTokens, temperature}``; Claude's thinking goes in
  ``additionalModelRequestFields`` and carries Anthropic's rules (can1357/oh-my-pi#341).
- replies: ``output.message.content[]`` with ``{text}`` / ``{toolUse: {toolUseId, name, input}}``,
  ``stopReason``, ``usage.inputTokens/outputTokens``; errors are ``{"message": ...}`` with the
  type in the ``x-amzn-ErrorType`` header.
"""

from __future__ import annotations

import functools
import re
from typing import Any
from urllib.parse import quote

from .core.bounded import json_value
from .anthropic import DEFAULT_MAX_TOKENS_THINKING, group_turns, ordered_blocks
from .claude_thinking import THINKING_BUDGET, THINKING_NOT_SENT, ThinkingWire, thinking_fields, thinking_lint, \
    thinking_lint_needed, thinking_plan
from .core.capabilities import Capability
from .core.name_rule_facts import name_rule
from .core.error_envelope import ErrorEnvelope
from .core.translation import (tool_names, choice_value, Context, check_names, compact, finish, mapped, model_facts,
                               parallel_value, rule_applied, start, streamed, strict_tools)
from .core.history_wire import reasoning_for
from .core.host_rules import refuse
from .core.request_parts import bearer, endpoint
from .core.model import (HistoryCall, Message, ProviderError, ReasoningItem, RenderOptions, Reply, Scenario, Tool,
                         ToolchoiceError, Translation, Usage)
from .core.parsing import StreamAssembler, bad_body, expect_dict, expect_list, int_or_none, join_text, make_call

DEFAULT_REGION = "us-east-1"

# Model ids may carry a cross-region prefix (us., eu., global.) or be ARNs; match the family inside.
_CLAUDE = re.compile(r"anthropic\.claude-(?!v1|v2|instant)")
_NOVA = re.compile(r"amazon\.nova-")

# Tool names: [a-zA-Z0-9_-]+, at most 64 (Bedrock Converse ToolSpecification.name; fact bedrock.tool_name_rule)
NAME_RULE = name_rule("bedrock.tool_name_rule")

# The SDK type its tools are, named when a scenario's hosted tool (core/native_tools.py) is left out.
TOOLS_TYPE = "bedrock.tools_type"  # the fact (core/facts.py) naming the SDK type its tools are

# What `parse` calls a body of this family's reply shape, and the -p to suggest for it (core/sniff.py).
REPLY_KIND = ("a Bedrock Converse reply", "bedrock")


def looks_like_reply(body: dict[str, Any]) -> bool:
    """Converse's documented success shape: ``{output: {message}, stopReason}``."""
    return isinstance(body.get("output"), dict) and "stopReason" in body


def _aws_kind(headers: Any, body: dict[str, Any]) -> str | None:
    """AWS's error type: the x-amzn-ErrorType header (``Name:uri``), else a body ``__type`` (``ns#Name``), cleaned
    as botocore's parsers do (first of a comma list, before ':', after '#')."""
    header = next((value for key, value in headers.items() if key.lower() == "x-amzn-errortype"), None) if headers \
        else None
    kind = body.get("__type")
    raw = header or (None if kind is None or kind == "" else str(kind))
    return raw.split(",", 1)[0].split(":", 1)[0].rsplit("#", 1)[-1] if raw else None


# How its error bodies look (core/error_envelope.py): {"message": ...} with the type in the x-amzn-ErrorType header
# (botocore/parsers.py: "The error message can either come in the 'message' or 'Message' key"; RestJSONParser
# reads 'x-amzn-errortype'; error-bedrock-toolchoice-not-supported.json).
ERROR_ENVELOPES = (ErrorEnvelope("botocore/parsers.py _do_error_parse: \"The error message can either come in the "
                                 "'message' or 'Message' key\"; the code from the x-amzn-errortype header or '__type'",
                                 message_keys=("message", "Message"), kind_of=_aws_kind,
                                 reply_keys=("output", "usage")),)


# What someone without the key variable does, said in the error a send raises when it is unset (registry.key_help,
# transport.no_key): SigV4 is not signed here, so an account on IAM credentials makes a short-term API key from them.
# docs.aws.amazon.com/bedrock/latest/userguide/api-keys.md (read 2026-11-28): "Short-term – Lasts up to 12 hours (or
# the duration of your session, whichever is shorter). Inherits permissions from the IAM principal used to generate
# it. Recommended for production use."; "pip install aws-bedrock-token-generator"; "from aws_bedrock_token_generator
# import provide_token"; console: "In the Short-term API keys tab, choose Generate short-term API keys." (docs/keys.md)
KEY_HELP = {"AWS_BEARER_TOKEN_BEDROCK": "on IAM credentials (SigV4 is not signed here), make a short-term key from "
            "them: `pip install aws-bedrock-token-generator` and its provide_token(), or the Bedrock console's API "
            "keys page (docs/keys.md)"}


# The family name its reasoning items carry (a signature or encrypted content is valid only there).
REASONING_FAMILY = "bedrock"


def reasoning_item(block: Any) -> ReasoningItem | None:
    """A ``reasoningContent`` block pasted as Converse returns it (reasoningText text + signature, or
    redactedContent = encrypted); None for any other shape."""
    value = block.value
    if "reasoningContent" not in value:
        return None
    content = value["reasoningContent"]
    inner = content.get("reasoningText") if isinstance(content, dict) else None
    if isinstance(inner, dict):
        return ReasoningItem("bedrock", text=block.text("text", inner) or "", signature=block.text("signature", inner))
    if isinstance(content, dict) and isinstance(content.get("redactedContent"), str):
        return ReasoningItem("bedrock", encrypted=content["redactedContent"], redacted=True)
    raise block.fail("reasoningContent needs reasoningText {text, signature} or redactedContent")


LEDGER_CODES: dict[str, str] = {
    "strict.mapped": "strict tools sent with toolSpec.strict true; what AWS says of the model (named, or unsettled)",
    "tool_choice.model_refused": "a forcing toolChoice for a model whose Converse 400 for it one report records "
                                 "against Anthropic's pages (fact bedrock.fable_5_forced_choice_recorded: Claude Fable "
                                 "5): sent as written, warned",
    "strict.model_refused": "strict tools for a model whose Converse 400 for toolSpec.strict is recorded (fact "
                            "bedrock.strict_refused: Claude Opus 4.7, 4.8, Sonnet 5): sent as written, warned",
    "thinking.adaptive": "thinking sent as {type: adaptive}",
    "thinking.effort": "a thinking effort sent as additionalModelRequestFields.output_config.effort (or refused when not one of Claude's levels)",
    "thinking.disabled_effort": "thinking {type: disabled} with an effort above the highest the model takes it with "
                                "(model rule disabled_effort_max: Claude Opus 5, high): request refused",
    "thinking.between_tools": "thinking: false sent as {type: between_tools}, the lowest setting of a model that "
                              "refuses disabled (model rule thinking_off)",
    "thinking.form": "the thinking form asked for is one this model rejects (model rule thinking_form): refused",
    "thinking.always_on": "the model always thinks: thinking: false cannot turn it off",
    "thinking.disabled_for_choice": "a model thinking by default is sent thinking disabled so a forcing choice works",
    "region.default": "no region set: us-east-1 is used",
    "tool_choice.none_unenforced": "tool_choice none cannot be enforced: the history needs toolConfig, so the tools "
                                   "are sent without a toolChoice",
    "tool_choice.model_support": "a named toolChoice sent to a model family Bedrock does not document it for",
    "history.tool_config_required": "the history holds tool blocks but no tools are declared: request refused",
    "history.merged": "messages merged into one turn (tool results first, then the user's text)",
    "history.missing_tool_result": "a tool call has no result in the next message, which Bedrock rejects",
    "history.blank_text": "a message with blank text, which Bedrock rejects: request refused",
    "history.blank_text_dropped": "a blank text block next to other content is left out (kept at a replaced host)",
    "history.tool_result_format": "how tool results are sent: a JSON object as {json}, anything else as {text}",
    "history.status_dropped": "a failed tool result's status is not sent: the model family does not take status",
    "thinking.budget": "thinking: true sent as additionalModelRequestFields.thinking with budget_tokens 1024",
    "model_rule.unstated": "a forcing toolChoice on a known Claude model whose pages do not say whether it takes "
                           "one (a rule's unstated forced_tool_choice): sent as written, the fact said unknown",
    "thinking.forced_choice": "a forcing toolChoice the API rejects for this Claude model and thinking setting (model "
                              "rules forced_tool_choice, forced_choice_with_thinking, forced_choice_with_adaptive): "
                              "request refused",
    "thinking.temperature": "Claude thinking with a temperature other than 1 is rejected: request refused",
    "thinking.max_tokens": "maxTokens leaves no room for the minimum thinking budget: request refused",
    "thinking.tool_history": "Claude thinking while the last assistant turn holds tool calls: request refused",
    "thinking.unsupported_model": "thinking: true for a model this translator cannot enable thinking on: not sent",
    "max_tokens.default": "thinking needs maxTokens above the budget: a default is sent",
    "schema.type_added": "an input schema without type gets type: object, which Bedrock requires",
    "tool.description_dropped": "an empty tool description is left out (Bedrock needs a non-empty one or none)",
    "system.empty_dropped": "an empty system prompt is left out (Bedrock rejects blank text)",
    "messages.empty": "no messages: Converse needs at least one",
}


# Claude's thinking and output_config go in additionalModelRequestFields, under Messages' rules.
CONVERSE_THINKING = ThinkingWire("bedrock", ("additionalModelRequestFields",), ("toolConfig", "toolChoice"))
_CONVERSE_LINT = thinking_lint(CONVERSE_THINKING)


@functools.lru_cache(maxsize=256)  # per model id: asked on every request
def _is_claude(model: str) -> bool:
    return bool(_CLAUDE.search(model))


@functools.lru_cache(maxsize=256)
def _takes_status(model: str) -> bool:
    return _is_claude(model) or bool(_NOVA.search(model))


def translate(provider: str, scenario: Scenario, options: RenderOptions, cap: Capability) -> Translation:
    ctx = start(provider, scenario, options, cap)
    _keep_tools_for_history(ctx)
    check_names(ctx, NAME_RULE)
    settings = ctx.settings
    body: dict[str, Any] = {"messages": _messages(ctx)}
    if scenario.system is not None:
        if scenario.system.strip():
            body["system"] = [{"text": scenario.system}]
        else:
            ctx.ledger.info("system.empty_dropped", "the system prompt is blank: left out (Bedrock rejects blank text)")
    inference: dict[str, Any] = {}
    max_tokens = settings.max_tokens
    facts = model_facts(ctx)
    claude = _is_claude(ctx.model)
    thinking = thinking_plan(ctx, facts) if claude else THINKING_NOT_SENT
    if thinking.budget is not None and max_tokens is None:
        max_tokens = DEFAULT_MAX_TOKENS_THINKING
        ctx.ledger.info("max_tokens.default", f"thinking needs maxTokens above budget_tokens {THINKING_BUDGET}: sent "
                        f"{max_tokens} (set providers.{provider}.max_tokens)")
    if max_tokens is not None:
        inference["maxTokens"] = max_tokens
    if settings.temperature is not None:
        inference["temperature"] = settings.temperature
    if inference:
        body["inferenceConfig"] = inference
    _tool_config(ctx, body)
    if claude:
        fields = thinking_fields(ctx, thinking, facts, max_tokens, "toolConfig" in body, CONVERSE_THINKING)
        if fields:
            body["additionalModelRequestFields"] = fields
    elif settings.thinking:
        ctx.ledger.warning("thinking.unsupported_model", "thinking: true is sent only for Anthropic Claude models with "
                           f"extended thinking (3.7 Sonnet and newer); {ctx.model} gets no thinking field (use "
                           f"providers.{ctx.provider}.extra.additionalModelRequestFields for a model's own switch)")
    region = settings.region
    if not region:
        region = DEFAULT_REGION
        if not (options.base_url or settings.base_url):
            ctx.ledger.info("region.default", f"no region set: {DEFAULT_REGION} (set providers.{provider}.region)")
    elif not _HOST_LABEL(region):
        raise ToolchoiceError(f"providers.{provider}.region {region!r} is not a region: botocore takes only a valid host "
                              "label (utils.py validate_region_name), and this one would send the request, and its "
                              "key, to another host", hint="for example us-east-1")
    base = f"https://bedrock-runtime.{region}.amazonaws.com"
    url = endpoint(ctx, base, f"/model/{_model_path(ctx.model)}/converse{'-stream' if options.stream else ''}")
    if options.stream:
        streamed(ctx, "ConverseStream (/converse-stream): AWS event-stream binary frames (messageStart, "
                 "contentBlockStart/Delta/Stop, messageStop, metadata)")
    return finish(ctx, url=url, headers=bearer(ctx), body=body, choice_path=("toolConfig", "toolChoice"),
                  final_lint=_CONVERSE_LINT if claude and thinking_lint_needed(ctx, thinking, facts) else None)


# botocore utils.py validate_region_name: "Provided region_name must be a valid host label."
_HOST_LABEL = re.compile(r"(?![0-9]+$)(?!-)[a-zA-Z0-9-]{,63}(?<!-)").fullmatch
_UNRESERVED_OR_COLON = re.compile(r"[A-Za-z0-9_.~:-]*").fullmatch


def _model_path(model: str) -> str:
    """The model id as one URL path segment: ``quote(model, safe='')``, with a fast path for the
    usual ids (``anthropic.claude-...-v1:0``), where only the colon needs escaping."""
    return model.replace(":", "%3A") if _UNRESERVED_OR_COLON(model) else quote(model, safe="")


# ---- history ----------------------------------------------------------------------------


def _messages(ctx: Context) -> list[dict[str, Any]]:
    scenario = ctx.scenario
    if not scenario.messages:
        ctx.ledger.warning("messages.empty", f"the scenario has no messages; {ctx.cap.title} needs at least one "
                           "(add a user message)")
        return []
    takes_status = _takes_status(ctx.model)
    formats: set[str] = set()
    reasoning_for(ctx, REASONING_FAMILY)
    wire = []
    for turn in group_turns(ctx):
        content: list[dict[str, Any]] = []
        for result in turn.results:
            content.append({"toolResult": _tool_result(ctx, result, takes_status, formats)})
        # reasoningContent blocks unchanged (botocore ReasoningTextBlock.signature: "include the text and its
        # signature unmodified"), where Claude wants them
        content.extend(ordered_blocks(turn, "bedrock", _reasoning_block, _text_block, _tool_use_block))
        wire.append({"role": turn.role, "content": content})
    if formats:
        ctx.ledger.info("history.tool_result_format", "tool results sent as " + " and ".join(sorted(formats)) +
                        " (Converse takes {json} only for JSON objects)")
    return wire


def _text_block(text: str) -> dict[str, Any]:
    return {"text": text}


def _tool_use_block(call: HistoryCall) -> dict[str, Any]:
    return {"toolUse": {"toolUseId": call.id, "name": call.name, "input": call.arguments}}


def _reasoning_block(item: ReasoningItem) -> dict[str, Any]:
    if item.redacted:
        return {"reasoningContent": {"redactedContent": item.encrypted}}
    text: dict[str, Any] = {"text": item.text or ""}
    if item.signature is not None:
        text["signature"] = item.signature
    return {"reasoningContent": {"reasoningText": text}}


def _tool_result(ctx: Context, result: Message, takes_status: bool, formats: set[str]) -> dict[str, Any]:
    text = result.content or ""
    try:
        value = json_value(text)
    except ValueError:
        value = None
    if isinstance(value, dict):
        block: dict[str, Any] = {"json": value}
        formats.add("{json} (JSON object content)")
    else:
        block = {"text": text}
        formats.add("{text} (other content, verbatim)")
    wire: dict[str, Any] = {"toolUseId": result.tool_call_id, "content": [block]}
    if takes_status:
        wire["status"] = "error" if result.is_error else "success"
    elif result.is_error:
        ctx.ledger.warning("history.status_dropped", f"tool result {result.tool_call_id} failed, but {ctx.model} does "
                           "not take toolResult.status (Claude and Nova only): status: error is not sent; say so in "
                           "the content")
    return wire


# ---- tools and toolChoice -----------------------------------------------------------------


def _spec(ctx: Context, tool: Tool, strict: set[str]) -> dict[str, Any]:
    schema = tool.schema()
    if "type" not in schema:
        schema = {"type": "object", **schema}
        ctx.ledger.info("schema.type_added", f"tool '{tool.name}': input schema has no type; sent with type: object "
                        "(Bedrock requires an object at the top level)")
    spec: dict[str, Any] = {"name": tool.name}
    if tool.description:
        spec["description"] = tool.description
    elif tool.description is not None:
        ctx.ledger.info("tool.description_dropped", f"tool '{tool.name}': empty description left out (Bedrock "
                        "rejects an empty one)")
    spec["inputSchema"] = {"json": schema}
    if tool.name in strict:
        spec["strict"] = True
    return {"toolSpec": spec}


def _strict_refused(model: str) -> str | None:
    """Converse's recorded words refusing toolSpec.strict on this model (fact bedrock.strict_refused), else None."""
    from .core.refusal_words import api_words  # the dated facts: read only when strict tools are sent

    return api_words("bedrock", "strict.model_refused", model, None)


def _cited(fact_id: str) -> str:
    from .core.facts import cited

    return cited(fact_id)


def _strict_models_said(model: str) -> str:
    """What AWS says of toolSpec.strict on this model (fact bedrock.strict_models): named, or unsettled. Either way
    strict goes out as written: no source says Converse refuses or ignores it on this model (the models whose 400 is
    recorded are warned of instead: _strict_refused)."""
    from .core.fact_values import NamedModels
    from .core.facts import cited, fact  # the dated facts: read only when strict tools are sent

    said = fact("bedrock.strict_models")
    assert isinstance(said.value, NamedModels)
    named = said.value.named(model)
    if named is not None:
        return f"AWS names {named} among the models that take it ('{said.value.words}', {cited(said.id)})"
    invoke = fact("bedrock.strict_invoke_refused")  # another API's recorded answer for this model, said beside
    assert isinstance(invoke.value, NamedModels)
    beside = (f"; InvokeModel's 400 for it is recorded ('{invoke.value.words}', {cited(invoke.id)}), Converse's is "
              "not" if invoke.value.named(model) is not None else "")
    return (f"whether {model} enforces it is unsettled: AWS names the models that take structured outputs per "
            f"model card and its Claude page names '{said.value.words}' only; no source says what Converse does "
            f"with strict on this model, so it is sent as written ({cited(said.id)}){beside}")


def _keep_tools_for_history(ctx: Context) -> None:
    """none is planned as 'leave the tools out', but a history with tool blocks needs toolConfig:
    then the tools go back in, without a toolChoice."""
    plan, scenario = ctx.plan, ctx.scenario
    if not (plan.omit_tools and scenario.has_tool_history and scenario.tools):
        return
    ctx.plan = plan._replace(tools=scenario.tools, omit_tools=False)
    ctx.ledger.warning("tool_choice.none_unenforced", "Bedrock has no tool_choice none, and the history holds "
                       "toolUse/toolResult blocks, so toolConfig must stay (400 'The toolConfig field must be defined "
                       "when using toolUse and toolResult content blocks.'): the tools are sent without a toolChoice "
                       "instead of left out, and the model may still call them; ask for an answer without tools in "
                       "the prompt")


def _tool_config(ctx: Context, body: dict[str, Any]) -> None:
    plan = ctx.plan
    parallel_value(ctx)  # Converse has no parallel switch: records what is not sent
    if plan.omit_tools or not plan.tools:
        if ctx.scenario.has_tool_history:
            refuse(ctx, "history.tool_config_required", "the history holds toolUse/toolResult blocks but no "
                             "tools are sent; Bedrock answers 400 'The toolConfig field must be defined when using "
                             "toolUse and toolResult content blocks.'; declare the tools the history calls")
        elif plan.mode == "none" and plan.omit_tools:
            mapped(ctx, "toolConfig omitted")
        return
    strict = strict_tools(ctx)
    config: dict[str, Any] = {"tools": [_spec(ctx, tool, strict) for tool in plan.tools]}
    if strict:
        refused = _strict_refused(ctx.model)
        if refused is not None:  # recorded 400s, no AWS reference: warned and sent, as DeepSeek's n (choice_count)
            ctx.ledger.warning("strict.model_refused", f"strict tools: {', '.join(sorted(strict))} → toolSpec.strict: "
                               f"true; Converse's 400 for {ctx.model} is recorded: '{refused}' "
                               f"({_cited('bedrock.strict_refused')}); sent as written, the API will likely refuse "
                               "it: drop strict from these tools")
        else:
            ctx.ledger.info("strict.mapped", f"strict tools: {', '.join(sorted(strict))} → toolSpec.strict: true; "
                            + _strict_models_said(ctx.model))
    choice: dict[str, Any] | None = None
    if plan.mode == "none" and plan.emulated:  # none has no form: the tools stay for the history (above)
        mapped(ctx, "toolConfig without toolChoice", "tools kept for the history; none is not enforced")
    elif plan.mode != "unset":  # the value is the row's (allowed is emulated: a row claiming it is refused there)
        choice = choice_value(ctx)
    if plan.mode == "named":
        fact = model_facts(ctx).get("named_tool_choice")
        if fact is not None and not fact.value:
            ctx.ledger.warning("tool_choice.model_support", "Bedrock documents toolChoice.tool only for Anthropic "
                               f"Claude 3+ and Amazon Nova; {ctx.model} may answer 400 'This model doesn't support "
                               "the toolConfig.toolChoice.tool field'; use tool_choice required with only that tool")
            if fact.rule is None:  # the user's own rule decided; the "other families" rule only warns about a
                # model no family rule knows (model_rule.unknown says so): it changes nothing, so it is no rule applied
                rule_applied(ctx, "named_tool_choice", fact, "named toolChoice on this model")
    if choice is not None:
        config["toolChoice"] = choice
        mapped(ctx, choice)
        if plan.forces_call:
            _forced_choice_recorded(ctx, choice)
    body["toolConfig"] = config


@functools.lru_cache(maxsize=64)
def _forced_words(model: str) -> str | None:
    """The recorded words by model id: api_words reads constant facts and no body here, and scans every refusal fact
    for them (about a fifth of a forced Claude translation). The dated facts are read only for a forcing choice on
    Claude."""
    from .core.refusal_words import api_words

    return api_words("bedrock", "tool_choice.model_refused", model, None)


def _forced_choice_recorded(ctx: Context, choice: dict[str, Any]) -> None:
    """A forcing toolChoice for a model whose Converse 400 for it one reporter records against the provider's own
    pages (fact bedrock.fable_5_forced_choice_recorded: Claude Fable 5): warned of and sent, never refused."""
    if not _is_claude(ctx.model):
        return
    words = _forced_words(ctx.model)
    if words is not None:
        ctx.ledger.warning("tool_choice.model_refused", f"toolChoice {compact(choice)} for {ctx.model}: one report "
                           f"records Converse answering 400 '{words}' ({_cited('bedrock.fable_5_forced_choice_recorded')}"
                           "), while Anthropic says forced tool use errors only from Fable 5.1 on: sent as written; if "
                           "it is refused, use tool_choice auto (declare only the tool you want)")


# ---- parse ------------------------------------------------------------------------------


def offered_tools(body: dict[str, Any]) -> list[str]:
    """The tool names a request body declares (``toolConfig.tools[].toolSpec.name``)."""
    config = body.get("toolConfig")
    return tool_names(config.get("tools") if isinstance(config, dict) else None, "toolSpec", "name")


def parse_reply(provider: str, body: Any) -> Reply:
    """A Converse response body → Reply; a ``{"message": ...}`` error body becomes ``Reply.error``
    (its type, e.g. ValidationException, travels in the x-amzn-ErrorType header, not the body)."""
    body = expect_dict(provider, body, "the body")
    if "output" not in body:
        if isinstance(body.get("message"), str):
            return Reply(error=ProviderError(None, None, body["message"]))
        raise bad_body(provider, "no output")
    output = expect_dict(provider, body["output"], "output")
    message = expect_dict(provider, output.get("message"), "output.message")
    calls, texts, reasoning = [], [], []
    for i, block in enumerate(expect_list(provider, message.get("content"), "output.message.content")):
        block = expect_dict(provider, block, f"output.message.content[{i}]")
        if "toolUse" in block:
            use = expect_dict(provider, block["toolUse"], f"output.message.content[{i}].toolUse")
            calls.append(make_call(use.get("toolUseId"), use.get("name"), use.get("input")))
        elif isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif "reasoningContent" in block:
            reasoning.append(_reasoning_item(provider, block["reasoningContent"], i, len(calls)))
        # other blocks are not the answer
    stop = body.get("stopReason")
    if stop is not None and not isinstance(stop, str):
        raise bad_body(provider, f"stopReason is {type(stop).__name__}, expected a string")
    usage = body.get("usage")
    usage = expect_dict(provider, usage, "usage") if usage is not None else {}
    return Reply(tool_calls=tuple(calls), text=join_text(texts), finish_reason=stop,
                 usage=Usage(int_or_none(usage.get("inputTokens")), int_or_none(usage.get("outputTokens"))),
                 reasoning=tuple(reasoning))


def _reasoning_item(provider: str, block: Any, index: int, position: int) -> ReasoningItem:
    """botocore ReasoningContentBlock: ``{reasoningText: {text, signature}}`` or ``{redactedContent: blob}``
    (a blob is base64 text in the JSON body)."""
    where = f"output.message.content[{index}].reasoningContent"
    block = expect_dict(provider, block, where)
    inner = block.get("reasoningText")
    if isinstance(inner, dict) and isinstance(inner.get("text"), str):
        signature = inner.get("signature")
        return ReasoningItem("bedrock", text=inner["text"], signature=signature if isinstance(signature, str) else None,
                             position=position)
    if isinstance(block.get("redactedContent"), str):
        return ReasoningItem("bedrock", encrypted=block["redactedContent"], redacted=True, position=position)
    raise bad_body(provider, f"{where} has neither reasoningText nor redactedContent")


# ---- streamed replies ------------------------------------------------------------------------

STREAM_FRAMING = "eventstream"


class ConverseStreamAssembler(StreamAssembler):
    """ConverseStream events (AWS event-stream messages named by ``:event-type``) → the Reply
    ``parse_reply`` makes of a Converse body (botocore ``bedrock-runtime`` service-2.json
    ``ConverseStreamOutput``): ``contentBlockStart`` with ``start.toolUse`` (toolUseId, name) opens a
    call at ``contentBlockIndex``, ``contentBlockDelta`` adds ``delta.text`` or ``delta.toolUse.input``
    pieces (``reasoningContent`` is counted), ``messageStop`` carries ``stopReason`` and ends the
    message, ``metadata`` brings usage. Exception messages (``:message-type`` exception, e.g.
    ``throttlingException``) are the reply's error.

    The reasoning state is kept in the reply's reasoning items (the proxy follows it there: ``Assembly.handed``):
    ``ReasoningContentBlockDelta`` is a
    union of ``text``, ``redactedContent`` (a Blob: base64 text in the event's JSON) and ``signature`` ("If you pass
    a reasoning block back to the API in a multi-turn conversation, include the text and its signature
    unmodified"); each block's signature pieces are joined, as its text pieces are, and its redacted pieces joined
    as bytes and written as the one base64 blob a client sends back. The reply carries each block as ``parse_reply``
    does (``Reply.reasoning``: text + signature, or the redacted blob), in block order with the calls before it."""

    final_event = "messageStop"

    def __init__(self, provider: str) -> None:
        super().__init__(provider)
        self.signed: dict[Any, list[str]] = {}  # contentBlockIndex -> its signature pieces
        self.redacted: dict[Any, list[str]] = {}  # contentBlockIndex -> its redactedContent pieces (base64)
        self.thought: dict[Any, tuple[list[str], int]] = {}  # contentBlockIndex -> (its text pieces, calls before)

    def finish(self) -> Any:
        for index, (texts, position) in self.thought.items():  # as _reasoning_item reads a whole block
            if index in self.redacted:
                self.reasoning.append(ReasoningItem("bedrock", encrypted=_joined_blob(self.redacted[index]),
                                                    redacted=True, position=position))
            else:
                signed = self.signed.get(index)
                self.reasoning.append(ReasoningItem("bedrock", text="".join(texts), signature="".join(signed)
                                                    if signed is not None else None, position=position))
        return super().finish()

    def feed(self, event: Any) -> bool:
        name, data = event.name, event.data
        if not isinstance(data, dict):
            return False
        if name == "contentBlockDelta":
            delta = data.get("delta") if isinstance(data.get("delta"), dict) else {}
            if isinstance(delta.get("toolUse"), dict):
                self.calls.delta(data.get("contentBlockIndex"), delta["toolUse"].get("input"))
                return True
            if isinstance(delta.get("text"), str):
                self.text.append(delta["text"])
            elif isinstance(delta.get("reasoningContent"), dict):
                reasoning, index = delta["reasoningContent"], data.get("contentBlockIndex")
                self.count("reasoning_chars", reasoning.get("text"))
                texts = self.thought.setdefault(index, ([], len(self.calls.by_key)))[0]
                if isinstance(reasoning.get("text"), str):
                    texts.append(reasoning["text"])
                if isinstance(reasoning.get("signature"), str):
                    self.signed.setdefault(index, []).append(reasoning["signature"])
                if isinstance(reasoning.get("redactedContent"), str):
                    self.redacted.setdefault(index, []).append(reasoning["redactedContent"])
        elif name == "contentBlockStart":
            start = data.get("start") if isinstance(data.get("start"), dict) else {}
            if isinstance(start.get("toolUse"), dict):
                use = start["toolUse"]
                self.calls.open(data.get("contentBlockIndex"), use.get("toolUseId"), use.get("name"))
                return True
        elif name == "messageStop":
            self.done = True
            if isinstance(data.get("stopReason"), str):
                self.finish_reason = data["stopReason"]
        elif name == "metadata":
            usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
            self.usage = Usage(int_or_none(usage.get("inputTokens")), int_or_none(usage.get("outputTokens")))
        elif isinstance(name, str) and name.startswith(":"):
            message = data.get("message", data.get("Message"))
            self.fail(ProviderError(None, name.rsplit(":", 1)[-1] or None,
                                    message if isinstance(message, str) else compact(data)))
        return False


def _joined_blob(pieces: list[str]) -> str:
    """Blob pieces (base64 each) as one blob's base64; a piece that is not base64 leaves them joined as text."""
    if len(pieces) == 1:
        return pieces[0]
    import base64
    import binascii

    try:
        return base64.b64encode(b"".join(base64.b64decode(piece, validate=True) for piece in pieces)).decode("ascii")
    except (binascii.Error, ValueError):
        return "".join(pieces)


def stream_assembler(provider: str) -> ConverseStreamAssembler:
    return ConverseStreamAssembler(provider)
