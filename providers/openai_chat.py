"""OpenAI Chat Completions and every host that speaks it.

One translator serves every capability row with ``module="openai_chat"``; what differs between them is data
in ``openai_chat_hosts.HOSTS`` (endpoint, auth header, id rules, notes, name rules) and in their capability rows
(which words they use, what they can do natively).
"""

from typing import Any, Sequence

from .core.capabilities import Capability
from .core.error_envelope import ErrorEnvelope, message_text
from .core.tool_file import ToolFile
from .core.translation import (tool_names, choice_value, Context, check_names, compact, finish, mapped, model_facts,
                               parallel_value, rule_applied, start, streamed, strict_tools, strict_wanted,
                               thinking_not_sent, thinking_unsent)
from .core.history_wire import chat_messages, history_arguments_json, reasoning_for
from .core.request_parts import bearer, endpoint, fronted
from .core.host_rules import refuse, sent_elsewhere
from .core.model_rules import unstated  # loaded with translation (model_facts): no import per request
from .core.model import Message, ReasoningItem, RenderOptions, Reply, Scenario, Tool, ToolCall, Translation, Usage
from .core.parsing import bad_body, custom_display, expect_dict, expect_list, int_or_none, join_text, make_call
from .openai_chat_hosts import HOST_EFFORTS, HOSTS, Host, host_for, host_notes, name_rules, send_effort
from .openai_chat_hosts import NAME_RULE  # noqa: F401  the family's name rule, as the provider interface asks of it

# Custom (free-text) tools: provider id -> how the ledger names it (fact openai.custom_tool.chat: OpenAI's
# Chat Completions and Azure OpenAI take {type: custom}; the other hosts do not).
CUSTOM_TOOLS: dict[str, str] = {"openai": "OpenAI Chat", "azure": "Azure OpenAI"}
# Newer per-tool fields its function tools have: none.
TOOL_FIELDS: tuple[str, ...] = ()
CUSTOM_TOOL_FIELDS: tuple[str, ...] = ()  # chat_completion_custom_tool_param.py Custom: name, description, format

# The fact (core/facts.py) naming the SDK type its tools are, per provider ("": the others), named when a
# scenario's hosted tool (core/native_tools.py) is left out.
TOOLS_TYPE: dict[str, str] = {"": "openai.tools_type", "mistral": "mistral.tools_type"}

# What `parse` calls a body of this family's reply shape, and the -p to suggest for it (core/sniff.py).
REPLY_KIND = ("an OpenAI Chat Completions reply", "openai (or any OpenAI-compatible id)")


def looks_like_reply(body: dict[str, Any]) -> bool:
    """Chat Completions' documented success shape: ``{object: "chat.completion", choices: [...]}``."""
    return isinstance(body.get("choices"), list) or body.get("object") == "chat.completion"


def _error_notes(err: dict[str, Any]) -> list[str]:
    """What an error object carries beyond OpenAI's fields: Azure's ``innererror`` code, Groq's ``failed_generation``."""
    notes = []
    inner = err.get("innererror")
    if isinstance(inner, dict) and inner.get("code"):
        notes.append(f"innererror {inner['code']}")
    if err.get("failed_generation"):
        notes.append(f"failed_generation: {message_text(err['failed_generation'])}")
    return notes


# How its error bodies look (core/error_envelope.py; recorded bodies in tests/data/responses/errors/SOURCES.md).
ERROR_ENVELOPES = (
    ErrorEnvelope("openai-python types/shared/error_object.py: ErrorObject {code, message, param, type} (the body's "
                  "'error'); Azure adds 'innererror', Groq 'failed_generation' (error-groq-tool-use-failed.json)",
                  object_key="error", kind_keys=("type",), notes=_error_notes, reply_keys=("choices", "usage")),
    ErrorEnvelope("Mistral: {object: 'error', message, type, param, code}, the message may hold a detail list "
                  "(error-mistral-422-extra-forbidden.json, from mistralai/client-python issue #91)",
                  message_keys=("message",), type_keys=("type",), marker=("object", "error")),
    ErrorEnvelope("FastAPI's validation errors {detail: [{loc, msg, type}]}: Mistral's 422, vLLM and "
                  "llama-cpp-python on a bad request", detail_key="detail"),
    ErrorEnvelope("xAI: the message as text under 'error', its 422 {error} (error-xai-422-tool-choice.json, "
                  "router-for-me/CLIProxyAPI#4718) and its 400 {code, error} (livekit/agents#3114)", text_key="error"),
)


# An assistant turn with tool calls and no text goes back in the loop's history with content "" (the reply's was
# null), and the ledger says so: OpenAI accepts either beside tool_calls; llama-cpp-python's server rejects null
# (measured in tests/realmodel/test_server_facts.py).
EMPTY_TURN_CONTENT = ("", "the assistant turn goes back with content \"\" (the reply's was null): OpenAI accepts either "
                          "beside tool_calls; llama-cpp-python's server rejects null")


# A tool file in its format (core/tool_file.py): openai-python ChatCompletionFunctionToolParam,
# {type: function, function: FunctionDefinition}.
TOOL_FILE = ToolFile("openai-chat", "OpenAI chat tools", "openai-python types/chat/chat_completion_function_tool_param.py "
                     "ChatCompletionFunctionToolParam {type: 'function', function: FunctionDefinition}",
                     marks=lambda entry: "function" in entry, short="OpenAI chat", wrapper="function", strict=True)


# The family name its reasoning items carry (a signature or encrypted content is valid only there)
# (``reasoning_content``: DeepSeek, vLLM, llama.cpp; text only).
REASONING_FAMILY = "openai-chat"
# The assistant-message key that reasoning text comes back under: a scenario may write it as the reply carried it.
REASONING_TEXT_KEYS = ("reasoning_content",)


LEDGER_CODES: dict[str, str] = {
    "history.ids_rewritten": "tool-call ids rewritten to Mistral's 9 alphanumerics (kept at a replaced host)",
    "thinking.forced_choice": "a forcing tool_choice with thinking/reasoning on is rejected: request refused",
    "thinking.mapped": "the thinking setting sent in the host's field",
    "thinking.disabled_for_choice": "thinking (on by default) sent disabled so a forcing tool_choice is accepted",
    "thinking.always_on": "the model always thinks; thinking: false cannot turn it off",
    "thinking.choice_documented": "tool_choice auto or none in DeepSeek's thinking mode where rules."
                                  "tool_choice_with_thinking is false (your override: its API reference takes "
                                  "them): sent as written",
    "pitfall.deepseek_reasoning_content": "DeepSeek thinking mode needs reasoning_content replayed after tool calls",
    "reasoning.replayed": "assistant turns' reasoning_content sent back as the reply carried it",
    "reasoning.not_taken": "reasoning_content in the history left out: the host takes no reasoning back",
    "thinking.effort": "a thinking effort sent as reasoning_effort",
    "thinking.effort_refused": "a reasoning_effort the model answers 400 for (Groq qwen/qwen3-32b, Mistral Small: "
                               "the API's words recorded): refused",
    "thinking.effort_unstated": "a reasoning_effort the host's sources do not name for this model: sent as written",
    "thinking.effort_unknown": "reasoning_effort on a model no source names among the host's reasoning models: sent "
                               "as written",
    "model_rule.unstated": "function tools with reasoning_effort on a known model whose sources disagree on what it "
                           "takes (gpt-5.6 on Azure), or do not say (gpt-6-sol with 'none' or without reasoning_effort): sent as "
                           "written, the ledger says the fact is unknown",
    "thinking.effort_for_tools": "function tools need reasoning_effort none (model rule): sent, or refused if another "
                                 "(or refused whatever the effort, where the model takes none)",
    "max_tokens.mapped": "max_tokens sent under the host's field name",
    "schema.strict_invalid": "a strict tool's schema breaks OpenAI's strict rules",
    "schema.empty_parameters": "a tool without parameters is sent with an empty object schema",
    "strict.mapped": "strict tools sent with function.strict true",
    "strict.beta_endpoint": "strict tools moved the request to the host's beta endpoint",
    "endpoint.placeholder": "the endpoint has a placeholder the user must fill in",
    "parallel.default_false": "the host's parallel default is false",
    "pitfall.strict_best_effort": "strict is accepted but its enforcement is undocumented",
    "pitfall.upstream_dependent": "support depends on the upstream model",
    "routing.require_parameters": "OpenRouter: provider.require_parameters true (default when tool_choice forces a call)",
    "routing.any_upstream": "OpenRouter: require_parameters turned off while tool_choice forces a call",
    "pitfall.vllm_auto_flags": "vLLM auto needs server flags",
    "pitfall.vllm_required_version": "vLLM accepts required from 0.8.3",
    "pitfall.vllm_none_prompt": "vLLM keeps tools in the prompt under none",
    "pitfall.langchain_hf_one_tool": "LangChain's HuggingFace wrapper differs from the API",
    "history.missing_tool_result": "a call without its result after it: refused in the API's words (openai_history)",
    "messages.empty": "no messages, which OpenAI refuses (fact openai.messages_empty; openai_history): refused",
}


def translate(provider: str, scenario: Scenario, options: RenderOptions, cap: Capability) -> Translation:
    host = host_for(provider, cap)
    ctx = start(provider, scenario, options, cap)
    check_names(ctx, *name_rules(provider))
    body: dict[str, Any] = {"model": ctx.model}
    from .openai_history import check_chat, history_ids  # a call without its result: the API's 400 where recorded
    ids = history_ids(ctx, host.id_rule)
    body["messages"] = _messages(ctx, host, ids)
    check_chat(ctx, provider)
    _tools_and_choice(ctx, host, body)
    _thinking(ctx, host, body)
    if host.router:
        _require_parameters(ctx, body)
    settings = ctx.settings
    if settings.max_tokens is not None:
        body[host.max_tokens_field] = settings.max_tokens
        if host.max_tokens_field != "max_tokens":
            ctx.ledger.info("max_tokens.mapped", f"max_tokens sent as {host.max_tokens_field}")
    if settings.temperature is not None:
        body["temperature"] = settings.temperature
    if options.stream:
        _stream(ctx, host, body)
    host_notes(ctx, host)
    url = _url(ctx, host, body)
    headers = bearer(ctx)
    if host.auth == "api-key":
        headers = {"Content-Type": "application/json", "api-key": f"${ctx.key_env[0]}"}
    if provider == "azure":
        body.pop("model")  # the deployment in the URL picks the model
    return finish(ctx, url=url, headers=headers, body=body, choice_path=("tool_choice",),
                  key_optional=host.key_optional, final_lint=_effort_lint if host.reasoning_effort else None)


# A custom (free-text) tool in a named choice or an allowed list: openai-python types/chat
# chat_completion_named_tool_choice_custom_param.py {type: custom, custom: {name}}. The rows' forms are for
# function tools; only OpenAI and Azure take custom tools (CUSTOM_TOOLS; elsewhere the tool is
# refused), so this one form serves every host.
CUSTOM_NAMED = '{"type":"custom","custom":{"name":N}}'


def _tools_and_choice(ctx: Context, host: Host, body: dict[str, Any]) -> None:
    plan, cap = ctx.plan, ctx.cap
    if plan.omit_tools or not plan.tools:
        parallel_value(ctx)  # records that parallel_tool_calls is not sent
        if not plan.omit_tools:  # no tools declared: a choice the planner kept is sent as written
            _choice(ctx, body)
        return
    wanted = strict_wanted(ctx)  # at a replaced host, sent even where the host's row has no strict (host_rules)
    strict = wanted if wanted and sent_elsewhere(ctx, "strict", f"strict: {', '.join(sorted(wanted))}") \
        else strict_tools(ctx)
    tools = []
    for tool in plan.tools:
        if tool.kind == "custom":
            tools.append(_custom_tool(tool))
            continue
        function: dict[str, Any] = {"name": tool.name}
        if tool.description is not None:
            function["description"] = tool.description
        schema = tool.parameters
        if schema is None:  # tool.schema(), or for strict a closed object even when there is nothing in it
            schema = ({"type": "object", "properties": {}, "additionalProperties": False} if tool.name in strict
                      else tool.schema())
            ctx.ledger.info("schema.empty_parameters", f"tool '{tool.name}' has no parameters: sent with an empty "
                            "object schema")
        function["parameters"] = schema
        if tool.name in strict:
            function["strict"] = True
            from .openai_strict import openai_strict_problems  # loaded only for a strict tool

            for problem in openai_strict_problems(schema):
                if host.strict_errors:
                    refuse(ctx, "schema.strict_invalid", f"tool '{tool.name}' is strict but {problem}; "
                                     f"{cap.title} rejects such schemas")
                else:
                    ctx.ledger.warning("schema.strict_invalid", f"tool '{tool.name}' is strict but {problem}; "
                                       f"{cap.title} may reject it or not enforce strictness")
        tools.append({"type": "function", "function": function})
    body["tools"] = tools
    if strict:
        ctx.ledger.info("strict.mapped", f"strict tools: {', '.join(sorted(strict))} → function.strict true")
    _choice(ctx, body)
    parallel = ctx.scenario.parallel_tool_calls
    if parallel is None or not sent_elsewhere(ctx, "parallel", f"parallel_tool_calls {str(parallel).lower()}"):
        parallel = parallel_value(ctx)
    if parallel is not None:
        body["parallel_tool_calls"] = parallel


def _choice(ctx: Context, body: dict[str, Any]) -> None:
    choice = choice_value(ctx, custom=CUSTOM_NAMED) if ctx.plan.mode != "unset" else None
    if choice is not None:
        body["tool_choice"] = choice
        mapped(ctx, choice)


def _stream(ctx: Context, host: Host, body: dict[str, Any]) -> None:
    body["stream"] = True
    if host.stream_usage == "stream_options":
        body["stream_options"] = {"include_usage": True}
        streamed(ctx, "stream: true, server-sent events ending with data: [DONE]; stream_options.include_usage "
                 "asks for usage in a last chunk")
    else:
        streamed(ctx, f"stream: true, server-sent events ending with data: [DONE]; {ctx.cap.title} sends usage in "
                 "its final chunk and takes no stream_options")


def _require_parameters(ctx: Context, body: dict[str, Any]) -> None:
    """OpenRouter routes to any upstream serving the model, and an upstream that lacks a parameter gets
    the request without it: a forcing tool_choice can silently become auto. provider.require_parameters
    true routes only to upstreams that take every parameter; on by default when the choice forces a call."""
    wanted = ctx.settings.require_parameters
    forced = ctx.plan.forces_call and "tool_choice" in body
    if wanted is None:
        if not forced:
            return
        body["provider"] = {"require_parameters": True}
        ctx.ledger.info("routing.require_parameters", "the tool_choice forces a call: provider.require_parameters "
                        "true is sent so OpenRouter routes only to upstreams that honour tool_choice (set "
                        "providers.openrouter.require_parameters: false to route freely)")
    elif wanted:
        body["provider"] = {"require_parameters": True}
        ctx.ledger.info("routing.require_parameters", "providers.openrouter.require_parameters true → "
                        "provider.require_parameters true")
    elif forced:
        ctx.ledger.warning("routing.any_upstream", "providers.openrouter.require_parameters is false: an upstream "
                           "without tool_choice support may receive the request without it and answer as if auto")


def _upstream(body: dict[str, Any]) -> str | None:
    """Which upstream answered an OpenRouter reply: the top-level provider field real replies carry, else the
    last attempt in openrouter_metadata (openrouter 1.3.84 components/openroutermetadata.py, routerattempt.py)."""
    if isinstance(body.get("provider"), str):
        return body["provider"]
    meta = body.get("openrouter_metadata")
    attempts = meta.get("attempts") if isinstance(meta, dict) else None
    if isinstance(attempts, list) and attempts and isinstance(attempts[-1], dict):
        name = attempts[-1].get("provider")
        return name if isinstance(name, str) else None
    return None


def _custom_tool(tool: Tool) -> dict[str, Any]:
    """A custom tool in Chat's wrapped form; a grammar format nests {syntax, definition} under grammar
    (openai-python types/chat/chat_completion_custom_tool_param.py)."""
    custom: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        custom["description"] = tool.description
    if tool.format is not None:
        form = tool.format
        custom["format"] = ({"type": "grammar", "grammar": {"syntax": form["syntax"], "definition": form["definition"]}}
                            if form["type"] == "grammar" else {"type": "text"})
    return {"type": "custom", "custom": custom}


def _thinking(ctx: Context, host: Host, body: dict[str, Any]) -> None:
    """DeepSeek: thinking is on by default (V4) and then rejects a forcing tool_choice (model rules)."""
    spec = ctx.settings.thinking_mode
    said = False  # the effort went to a host with its own words (HOST_EFFORTS): sent, or said why not
    if host.reasoning_effort and spec is not None and spec.effort is not None:
        body["reasoning_effort"] = spec.effort
        ctx.ledger.info("thinking.effort", f"thinking effort {spec.effort} → reasoning_effort {spec.effort}")
    elif ctx.provider in HOST_EFFORTS and spec is not None and spec.effort is not None:
        said = not send_effort(ctx, body, spec.effort)
    if host.thinking != "deepseek":
        if "reasoning_effort" in body:
            thinking_unsent(ctx, f"reasoning_effort {body['reasoning_effort']}", effort_sent=True)
        elif not said and (spec is not None or ctx.settings.thinking is not None):
            _thinking_not_sent(ctx, host, spec.to_json() if spec is not None else ctx.settings.thinking)
        return
    facts = model_facts(ctx)
    wanted = ctx.settings.thinking
    always_fact = facts.get("thinking_always_on")
    always = bool(always_fact and always_fact.value)
    default = facts.get("thinking_default")
    on = True if always else (wanted if wanted is not None else bool(default.value) if default else True)
    if always and wanted is False:
        ctx.ledger.warning("thinking.always_on", f"{ctx.model} always thinks: thinking: false has no effect "
                           "(use deepseek-flash with thinking: false)")
        wanted = None
    allowed = facts.get("forced_choice_with_thinking")
    # only where a rule (or the user) says thinking mode refuses a forcing choice: an unknown model is not guessed at
    forced = ctx.plan.forces_call and "tools" in body and allowed is not None and not allowed.value
    if forced and on:
        if wanted is None and not always and ctx.options.emulate:
            body["thinking"] = {"type": "disabled"}
            ctx.ledger.warning("thinking.disabled_for_choice", f"DeepSeek thinking mode (on by default for {ctx.model}) "
                               "rejects a forcing tool_choice, so thinking is sent disabled; set "
                               "providers.deepseek.thinking to decide yourself")
            on = False
        else:
            from .core.refusal_words import api_words  # the API's recorded words for this model (a refusal only)

            words = api_words(ctx.provider, "thinking.forced_choice", ctx.model, body)
            answer = f"400 '{words}'" if words else "a 400; no words are recorded for this model"
            advice = ("use tool_choice auto, or deepseek-flash with providers.deepseek.thinking: false" if always else
                      "set providers.deepseek.thinking: false or use tool_choice auto")
            ctx.ledger.error("thinking.forced_choice", f"DeepSeek in thinking mode ({ctx.model}) rejects a forcing "
                             f"tool_choice ({answer}); {advice}")
    elif wanted is not None:
        body["thinking"] = {"type": "enabled" if wanted else "disabled"}
        ctx.ledger.info("thinking.mapped", f"thinking {str(wanted).lower()} → {compact(body['thinking'])}")
        thinking_unsent(ctx, f"thinking {compact(body['thinking'])}", effort_sent="reasoning_effort" in body)
    replay = facts.get("reasoning_replay")
    missing = ([m for m in ctx.scenario.messages if m.tool_calls and not any(i.family == "openai-chat" for i in m.reasoning)]
               if ctx.history_calls else [])
    if on and missing and (replay is None or replay.value):
        calls = sum(1 for m in ctx.scenario.messages if m.tool_calls)
        which = "the scenario's history has none" if len(missing) == calls else f"{len(missing)} of {calls} have none"
        ctx.ledger.warning("pitfall.deepseek_reasoning_content", "DeepSeek thinking mode needs each earlier "
                           f"assistant tool-call turn's reasoning_content sent back; {which}, so the API may answer "
                           "400 ('The `reasoning_content` in the thinking mode must be passed back to the API.')" +
                           ("" if len(missing) == calls else " (add reasoning_content: as the reply carried it)"))
    every = facts.get("tool_choice_with_thinking")
    if on and not forced and "tools" in body and isinstance(body.get("tool_choice"), str) and every is not None \
            and not every.value:
        _choice_documented(ctx, body["tool_choice"], every)


def _choice_documented(ctx: Context, choice: str, fact: Any) -> None:
    """DeepSeek's guide says thinking mode rejects tool_choice of every value; the API's recorded 400s are of forcing
    values only (model rule tool_choice_with_thinking): auto and none are sent as written and warned, never refused."""
    origin = (f"model rule {fact.rule.name}, verified {fact.rule.verified}" if fact.rule is not None else
              f"providers.{ctx.provider}.rules.tool_choice_with_thinking = false, your override")
    ctx.ledger.warning("thinking.choice_documented", f"tool_choice {choice} is sent as written, with thinking mode on "
                       f"for {ctx.model}: DeepSeek's integration guide says 'DeepSeek V4 thinking mode rejects the "
                       "`tool_choice` parameter.', while the API's recorded 400s ('Thinking mode does not support this "
                       f"tool_choice') are for forcing values only ({origin}); if it answers 400, leave tool_choice "
                       f"out or set providers.{ctx.provider}.thinking: false")


def _thinking_not_sent(ctx: Context, host: Host, written: Any) -> None:
    """A thinking setting this host's request has no field for here: said, never dropped in silence."""
    own = HOST_EFFORTS.get(ctx.provider)
    words = "|".join(w for w in own.words if w != "default") if own else "low|medium|high"
    how = (f"only an effort goes out here, as reasoning_effort: write thinking: {{effort: {words}}}"
           if host.reasoning_effort or own else f"this translator has no thinking field for {ctx.cap.title}; a "
           f"field the host takes goes in providers.{ctx.provider}.extra")
    thinking_not_sent(ctx, f"providers.{ctx.provider}.thinking {compact(written)} is not sent: {how}")


def _effort_lint(ctx: Context, body: dict[str, Any]) -> None:
    """On the final body (after extra): GPT-5.x and GPT-6 on Chat Completions refuse function tools with
    reasoning_effort (model rule tools_reasoning_effort)."""
    if not body.get("tools"):
        return
    fact = model_facts(ctx).get("tools_reasoning_effort")
    if fact is None:
        # a known model whose sources disagree (gpt-5.6 on Azure): said, not guessed
        rule = unstated(ctx.provider, ctx.model.lower(), "tools_reasoning_effort")
        if rule is not None:
            sent = compact(body["reasoning_effort"]) if "reasoning_effort" in body else "left out"
            ctx.ledger.info("model_rule.unstated", f"reasoning_effort {sent} with function tools is sent as written: "
                            f"no source states what {ctx.cap.title} takes "
                            f"for {ctx.model} ({rule.unstated['tools_reasoning_effort']}; model rule {rule.name}, "
                            f"verified {rule.verified}); set providers.{ctx.provider}.rules.tools_reasoning_effort "
                            "when you know")
        return
    if fact.value == "any":
        return
    effort = body.get("reasoning_effort")
    if fact.value == "never":  # gpt-6-astra: every effort, 'none' and none given are each answered 400
        sent = compact(effort) if effort is not None else "left out"
        ctx.ledger.error("thinking.effort_for_tools", f"{ctx.model} takes no function tools on Chat Completions "
                         f"(reasoning_effort {sent}): it answers 400 'Function tools with reasoning_effort are not "
                         "supported' to every effort and to none given, and 'none' is not a value it takes; use the "
                         "openai-responses provider")
    elif fact.value == "other-refused" and effort in (None, "none"):  # gpt-6-sol, gpt-5.6 on Azure
        sent = compact(effort) if effort is not None else "left out"
        ctx.ledger.info("model_rule.unstated", f"reasoning_effort {sent} with function tools is sent as written: no "
                        f"recording settles whether {ctx.model} takes it on {ctx.cap.title} (another value is "
                        "answered 400; what its sources say of 'none': "
                        f"model rule {fact.rule.name if fact.rule else 'yours'}); set "
                        f"providers.{ctx.provider}.rules.tools_reasoning_effort when you know")
    elif fact.value == "absent-unstated" and effort is None:  # gpt-6-luna: an effort is the 400, 'none' is taken
        ctx.ledger.info("model_rule.unstated", "reasoning_effort left out with function tools is sent as written: no "
                        f"source states whether {ctx.model} takes that on {ctx.cap.title} (an effort is answered 400 "
                        "and 'none' is recorded taken); set thinking: {effort: none} to send 'none', or "
                        f"providers.{ctx.provider}.rules.tools_reasoning_effort when you know")
    elif fact.value == "none-unstated" and effort == "none":  # gpt-6-astra on Azure: its sources disagree on 'none'
        ctx.ledger.info("model_rule.unstated", f"reasoning_effort 'none' with function tools is sent as written: the "
                        f"sources disagree whether {ctx.model} takes 'none' on {ctx.cap.title} (some list it, some "
                        "record it answered 400; none records it taken with tools: see the rule below); set "
                        f"providers.{ctx.provider}.rules.tools_reasoning_effort when you know")
    elif effort == "none" or (effort is None and fact.value == "absent-or-none"):
        return
    elif effort is None and ctx.options.emulate and fact.value == "none":
        body["reasoning_effort"] = "none"
        ctx.ledger.warning("thinking.effort_for_tools", f"{ctx.model} refuses function tools on Chat Completions unless "
                           "reasoning_effort is 'none' (its default effort is not), so reasoning_effort: none is sent; "
                           "use openai-responses to reason with tools")
    else:
        advice = {"other-refused": "the openai-responses provider (no recording shows 'none' taken)",
                  "none-unstated": "the Responses API (the openai-responses provider, base_url your resource's "
                                   "/openai/v1): whether 'none' is taken with tools, its sources disagree"}.get(
            fact.value, "thinking: {effort: none}, or the openai-responses provider")
        ctx.ledger.error("thinking.effort_for_tools", f"{ctx.model} answers 400 'Function tools with reasoning_effort are "
                         f"not supported' for reasoning_effort {compact(effort) if effort is not None else 'left out'} "
                         "with tools on Chat Completions; use "
                         f"{advice}")
    rule_applied(ctx, "tools_reasoning_effort", fact, "function tools with reasoning_effort")



def _path_segment(deployment: str, quote: Any) -> str:
    """The deployment as one URL path segment, as openai's AzureOpenAI puts a per-request model there (lib/azure.py
    path_template("/deployments/{model}", ...): RFC 3986 pchar kept, the rest percent-encoded; a dot-segment refused)."""
    if deployment in (".", ".."):
        from .core.model import ToolchoiceError

        raise ToolchoiceError(f"deployment {deployment!r} is a dot-segment: the URL path would climb out of "
                              "/openai/deployments/ (openai's path_template refuses it)", hint="give the deployment's name")
    return quote(deployment, safe="!$&'()*+,;=:@")


def _url(ctx: Context, host: Host, body: dict[str, Any]) -> str:
    base = host.base
    if ctx.provider == "azure":
        settings = ctx.settings
        ep = (settings.endpoint or "").rstrip("/")
        if not ep and not (ctx.options.base_url or settings.base_url):
            ep = "https://YOUR-RESOURCE.openai.azure.com"
            ctx.ledger.warning("endpoint.placeholder", "providers.azure.endpoint is not set: the URL shows "
                               "YOUR-RESOURCE; set it to https://<resource>.openai.azure.com")
        deployment = settings.deployment or (ctx.options.model or settings.model)
        if not deployment:
            deployment = "YOUR-DEPLOYMENT"
            if not (ctx.options.base_url or settings.base_url):  # a base URL replaces the deployment's path: the
                # URL showed no YOUR-DEPLOYMENT, which this said it did (a mock's URL, as openai's base_url takes)
                ctx.ledger.warning("endpoint.placeholder", "providers.azure.deployment is not set: the URL shows "
                                   "YOUR-DEPLOYMENT; set it (or model) to your deployment's name")
        from urllib.parse import quote  # Azure only: render's start-up does not import it

        base = base.format(endpoint=ep, deployment=_path_segment(deployment, quote))
        version = settings.api_version or "2024-10-21"
        return endpoint(ctx, base, host.path) + f"?api-version={quote(version, safe='')}"
    if host.strict_base and _sends_strict(body) and ctx.other_host is None:  # no base URL, the host, or a gateway
        if not fronted(ctx.options, ctx.settings):
            ctx.ledger.info("strict.beta_endpoint", f"strict tools need {host.strict_base}: the request goes there")
            return host.strict_base + host.path
        ctx.ledger.warning("strict.beta_endpoint", f"strict tools need {host.strict_base}: the gateway's base URL is "
                           "used as written (point it at that path)")  # no source says where a gateway maps it
    return endpoint(ctx, base, host.path)


def _sends_strict(body: dict[str, Any]) -> bool:
    """Some function tool in the body is sent with strict: true."""
    for tool in body.get("tools", ()):
        if tool.get("function", {}).get("strict"):
            return True
    return False


def _messages(ctx: Context, host: Host, ids: dict[str, str]) -> list[dict[str, Any]]:
    with_reasoning = reasoning_for(ctx, REASONING_FAMILY)

    def assistant(m: Message) -> dict[str, Any]:
        msg: dict[str, Any] = {"role": "assistant", "content": m.content}
        if m.reasoning and host.reasoning_replay:
            thought = _thought(m)
            if thought:
                msg["reasoning_content"] = "".join(thought)  # as the reply carried it, beside content
        if m.tool_calls:
            msg["tool_calls"] = [{"id": ids[c.id], "type": "function",
                                  "function": {"name": c.name, "arguments": history_arguments_json(c.arguments)}}
                                 for c in m.tool_calls]
        return msg

    def tool(m: Message) -> dict[str, Any]:
        msg = {"role": "tool", "tool_call_id": ids.get(m.tool_call_id or "", m.tool_call_id), "content": m.content}
        if host.tool_message_name:
            msg["name"] = m.tool_name
        return msg

    out = chat_messages(ctx, assistant, tool, developer_role=host.developer_role)
    if with_reasoning:
        turns = sum(1 for m in ctx.scenario.messages if m.role == "assistant" and _thought(m))
        if turns and host.reasoning_replay:
            ctx.ledger.info("reasoning.replayed", f"reasoning_content of {turns} assistant turn{'s' if turns > 1 else ''} "
                            "sent back unchanged")
        elif turns:
            ctx.ledger.info("reasoning.not_taken", f"reasoning_content of {turns} assistant turn{'s' if turns > 1 else ''} "
                            f"left out: {ctx.cap.title} takes no reasoning back in the history")
    return out


def _thought(message: Message) -> list[str]:
    """The reasoning_content texts an assistant message carries (its openai-chat reasoning items)."""
    return [i.text for i in message.reasoning if i.family == "openai-chat" and i.text is not None]


def limits_body(tools: Sequence[Tool]) -> dict[str, Any]:
    """The body the rows' ``body_limits`` measure an imported catalogue on (``tool_import_limits``): these tools as
    Chat Completions' function tools, their description, parameters and strict as written."""
    out = []
    for tool in tools:
        function: dict[str, Any] = {"name": tool.name, "parameters": tool.parameters}
        if tool.description is not None:
            function["description"] = tool.description
        if tool.strict is not None:
            function["strict"] = tool.strict
        out.append({"type": "function", "function": function})
    return {"tools": out}


def offered_tools(body: dict[str, Any]) -> list[str]:
    """The tool names a request body declares (``tools[].function.name``, custom tools' ``tools[].custom.name``)."""
    tools = body.get("tools")
    return tool_names(tools, "function", "name") + tool_names(tools, "custom", "name")


def parse_reply(provider: str, body: Any) -> Reply:
    body = expect_dict(provider, body, "the body")
    choices = expect_list(provider, body.get("choices"), "choices", "choices")  # n: at most the choices limit
    if not choices:
        raise bad_body(provider, "no choices")
    first = _reply_choice(provider, choices[0], 0)
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    reply = first._replace(usage=Usage(int_or_none(usage.get("prompt_tokens")), int_or_none(usage.get("completion_tokens"))),
                           upstream=_upstream(body) if provider in HOSTS and HOSTS[provider].router else None)
    if len(choices) > 1:  # n > 1: every choice read, each judged (core/choices.py); the reply itself is choices[0]
        reply = reply._replace(choices=(first, *(_reply_choice(provider, c, i) for i, c in enumerate(choices[1:], 1))))
    return reply


def _reply_choice(provider: str, choice: Any, i: int) -> Reply:
    """One of ``choices``: its calls, text, finish reason and reasoning."""
    choice = expect_dict(provider, choice, f"choices[{i}]")
    message = expect_dict(provider, choice.get("message", {}) if choice.get("message") is not None else {},
                          f"choices[{i}].message")
    calls: list[ToolCall] = []
    for raw in expect_list(provider, message.get("tool_calls"), "message.tool_calls"):
        raw = expect_dict(provider, raw, "a tool call")
        if raw.get("type") == "custom" and isinstance(raw.get("custom"), dict):
            # openai-python types/chat/chat_completion_message_custom_tool_call.py: {id, type, custom: {name, input}}
            custom = raw["custom"]
            if not isinstance(custom.get("name"), str) or not custom["name"]:
                raise bad_body(provider, "a custom tool call without a name")
            text = custom.get("input")
            calls.append(ToolCall(raw.get("id"), custom["name"], None, input=text if isinstance(text, str) else "",
                                  **custom_display(text)))
            continue
        function = expect_dict(provider, raw.get("function"), "tool_call.function")
        if not isinstance(function.get("name"), str) or not function["name"]:
            raise bad_body(provider, "a tool call without a function name")
        calls.append(make_call(raw.get("id"), function.get("name"), function.get("arguments")))
    content = message.get("content")
    if isinstance(content, list):  # content parts
        content = join_text([p.get("text") for p in content if isinstance(p, dict)])
    # a refusal is the model's answer too (openai-python ChatCompletionMessage.refusal: "The refusal message generated
    # by the model."), as the Responses API's refusal parts are (openai_responses.parse_reply)
    text = join_text([content if isinstance(content, str) else None, message.get("refusal")])
    finish_reason = choice.get("finish_reason")
    # DeepSeek, vLLM (before 0.10: reasoning_content; since: reasoning) and llama.cpp put the chain of thought
    # beside content; DeepSeek requires it back on tool-call turns.
    thought = next((t for t in (message.get("reasoning_content"), message.get("reasoning")) if isinstance(t, str)), None)
    return Reply(tool_calls=tuple(calls), text=text, finish_reason=finish_reason if isinstance(finish_reason, str) else None,
                 reasoning=(ReasoningItem("openai-chat", text=thought),) if thought is not None else ())


# ---- streamed replies ------------------------------------------------------------------------

STREAM_FRAMING = "sse"


def stream_assembler(provider: str) -> Any:
    """Chat Completions chunks → the Reply ``parse_reply`` makes of the whole body (``openai_chat_stream``)."""
    from .openai_chat_stream import ChatStreamAssembler

    return ChatStreamAssembler(provider, _upstream if provider in HOSTS and HOSTS[provider].router else None)
