"""Scenario → a ``generateContent`` request: the body, the calling mode, thinking, and the history
(``contents``), with every change in the ledger. The wire facts and their sources are in ``__init__``."""

from __future__ import annotations

import re
from typing import Any, Sequence

from .hosted import hosted_tools
from ..core import history_wire, request_parts, translation
from ..core.history_pairing import unanswered
from ..core.host_rules import refuse
from ..core.bounded import json_value
from ..core.capabilities import Capability
from ..core.name_rule_facts import name_rule
from ..core.translation import Context
from ..core.model import Message, RenderOptions, Scenario, Tool, ToolchoiceError, Translation
from .parse import REASONING_FAMILY
from .schema import convert, judge

DEFAULT_BASE = "https://generativelanguage.googleapis.com"
THOUGHT_SIGNATURE_SENTINEL = "skip_thought_signature_validator"
_IGNORED_SETTINGS = ("deployment", "endpoint", "api_version", "region")
# google-genai types.ThinkingLevel values (MINIMAL, LOW, MEDIUM, HIGH, XHIGH); neutral effort → thinkingLevel.
_LEVELS = {"minimal": "MINIMAL", "low": "LOW", "medium": "MEDIUM", "high": "HIGH", "xhigh": "XHIGH"}

# Function names: a letter or _ first, then letters, digits, _ . : -, at most 128 (FunctionDeclaration.name)
NAME_RULE = name_rule("gemini.function_name_length")
# The API's 400 when the turn after a model turn with function calls has another number of function responses (fact
# gemini.history_response_parts): INVALID_ARGUMENT, these words
RESPONSE_PARTS = ("Please ensure that the number of function response parts is equal to the number of function call "
                  "parts of the function call turn.")
# the API's recorded 400s say at most 64 (fact gemini.function_name_length): a longer name is sent with a warning
API_NAME_BOUND = 64
# Where a body asks for more than one choice (core/choice_count.py reads it; OpenAI Chat's ``n`` where a family names
# none): generationConfig.candidateCount, in either spelling, as google-genai 3.6.1 takes both
CHOICE_COUNT_FIELDS = (("generationConfig", "candidateCount"), ("generationConfig", "candidate_count"))


def translate(provider: str, scenario: Scenario, options: RenderOptions, cap: Capability) -> Translation:
    ctx = translation.start(provider, scenario, options, cap)
    model = _model_name(ctx)
    _ignored_settings(ctx)
    translation.check_names(ctx, NAME_RULE)
    translation.warn_long_names(ctx, NAME_RULE, API_NAME_BOUND, f"{cap.title}'s recorded 400s say at most "
                                f"{API_NAME_BOUND}, google-genai's FunctionDeclaration.name 128",
                                "gemini.function_name_length")

    body: dict[str, Any] = {"contents": _contents(ctx, model)}
    if scenario.system is not None:
        body["systemInstruction"] = {"parts": [{"text": scenario.system}]}
    tools = () if ctx.plan.omit_tools else ctx.plan.tools
    hosted = hosted_tools(ctx, 1 if tools else 0) if scenario.native_tools else []
    if tools or hosted:
        body["tools"] = ([{"functionDeclarations": [_declaration(ctx, tool) for tool in tools]}] if tools else []) + hosted
        calling = _calling_config(ctx)
        if calling is not None:
            body["toolConfig"] = {"functionCallingConfig": calling}
            if calling.get("mode") == "ANY":
                _no_parameters_forced(ctx, tools)
    translation.parallel_value(ctx)  # no switch on Gemini: records the drop
    generation: dict[str, Any] = {}
    if ctx.settings.max_tokens is not None:
        generation["maxOutputTokens"] = ctx.settings.max_tokens
    if ctx.settings.temperature is not None:
        generation["temperature"] = ctx.settings.temperature
    thinking = _thinking_config(ctx, model)
    if thinking is not None:
        generation["thinkingConfig"] = thinking
    if generation:
        body["generationConfig"] = generation

    if options.stream:
        path = f"/v1beta/{_in_path(model)}:streamGenerateContent"
        url = request_parts.endpoint(ctx, DEFAULT_BASE, path) + "?alt=sse"
        translation.streamed(ctx, "streamGenerateContent?alt=sse: server-sent events, each a GenerateContentResponse "
                        "chunk; the last carries finishReason")
    else:
        url = request_parts.endpoint(ctx, DEFAULT_BASE, f"/v1beta/{_in_path(model)}:generateContent")
    headers = {"Content-Type": "application/json"}
    env = ctx.key_env
    if env:
        headers["x-goog-api-key"] = f"${env[0]}"
    return translation.finish(ctx, url=url, headers=headers, body=body,
                              choice_path=("toolConfig", "functionCallingConfig"), final_lint=_judge_sent)


def _judge_sent(ctx: Context, body: dict[str, Any]) -> None:
    """The function declarations as sent, after ``extra`` is merged (a tools list written there too), judged by what
    the API refuses in them (gemini/schema.py judge)."""
    tools = body.get("tools")
    if isinstance(tools, list) and any(isinstance(group, dict) and ("functionDeclarations" in group
                                                                    or "function_declarations" in group)
                                       for group in tools):
        judge(ctx, tools)


# The model id goes into the URL path as models/{model}. google-genai refuses ids that would change the path or add a
# query (_transformers.py t_model: "if '..' in model or '?' in model or '&' in model: raise ValueError('invalid model
# parameter.')"); any other character outside a path segment's own ('#', a space) is percent-encoded, so the URL
# shown is the URL sent and names the same model.
_SDK_REFUSED_IN_MODEL = ("..", "?", "&")
_PATH_SAFE = re.compile(r"[A-Za-z0-9/._~:@!$'()*+,;=-]*").fullmatch


def _model_name(ctx: Context) -> str:
    model = ctx.model
    if any(part in model for part in _SDK_REFUSED_IN_MODEL):
        raise ToolchoiceError(f"model {model!r}: google-genai refuses a Gemini model id holding '..', '?' or '&' "
                              "('invalid model parameter.'): in the URL path it would name another resource",
                              hint="give the model id alone, for example gemini-3.5-flash")
    if model.startswith("models/"):
        ctx.ledger.info("model.normalized", f"model {model} → {model[len('models/'):]} (the URL path adds 'models/')")
        model = model[len("models/"):]
    return model


def _in_path(model: str) -> str:
    """The resource the path names, as google-genai's t_model makes it: models/{model}, or a tuned model's own
    tunedModels/{id} as given."""
    resource = model if model.startswith("tunedModels/") else f"models/{model}"
    if _PATH_SAFE(resource):
        return resource
    from urllib.parse import quote

    return quote(resource, safe="/:@!$'()*+,;=")


def _thinking_config(ctx: Context, model: str) -> dict[str, Any] | None:
    """The neutral thinking setting → ``thinkingConfig`` (google-genai ``types.ThinkingConfig``: thinkingBudget,
    thinkingLevel, includeThoughts). Budget -1 is dynamic, 0 turns thinking off (ai.google.dev/gemini-api/docs/thinking)."""
    settings = ctx.settings
    spec = settings.thinking_mode
    if spec is None:
        if settings.thinking is None:
            return None
        config: dict[str, Any] = {"thinkingBudget": -1 if settings.thinking else 0}
    elif spec.effort is not None and spec.effort != "none":
        level = _LEVELS.get(spec.effort)
        if level is None:
            ctx.ledger.warning("thinking.unsupported", f"effort {spec.effort} has no thinkingLevel (levels: "
                               f"{', '.join(_LEVELS)}): thinking is not sent")
            return None
        config = {"thinkingLevel": level}
    elif spec.mode == "off":
        config = {"thinkingBudget": 0}
    elif spec.budget is not None:
        config = {"thinkingBudget": spec.budget}
    else:  # on / adaptive: the model decides how much
        config = {"thinkingBudget": -1}
    ctx.ledger.info("thinking.mapped", f"thinking {translation.compact(spec.to_json() if spec else settings.thinking)} → "
                    f"generationConfig.thinkingConfig {translation.compact(config)}")
    return config


def _ignored_settings(ctx: Context) -> None:
    for key in _IGNORED_SETTINGS:
        value = getattr(ctx.settings, key)
        if value is not None:
            ctx.ledger.warning("settings.ignored", f"providers.{ctx.provider}.{key} = {translation.compact(value)} is not "
                               "used by the Gemini translator; set the field through providers.gemini.extra")


def _calling_config(ctx: Context) -> dict[str, Any] | None:
    """``functionCallingConfig`` for the plan, or None to leave the API default (AUTO). The value is the row's
    (for an allowed subset, mode ANY when the allowed mode is required, else VALIDATED, the only modes that take
    allowedFunctionNames); strict tools under auto or no choice send the strict row's value instead (VALIDATED:
    Gemini has no per-tool strict flag, and a forced call cannot also be VALIDATED)."""
    plan = ctx.plan
    if plan.mode == "none":
        config: dict[str, Any] = translation.choice_value(ctx)
        translation.mapped(ctx, config)
        return config
    strict = translation.strict_tools(ctx)
    if plan.mode in ("unset", "auto"):
        if strict:  # the strict row's value (VALIDATED) stands in for auto
            config = translation.choice_value(ctx, "strict")
            _strict_validated(ctx, strict)
        elif plan.mode == "unset":
            return None
        else:
            config = translation.choice_value(ctx)
        if plan.mode == "auto":
            translation.mapped(ctx, config)
        return config
    config = translation.choice_value(ctx)
    if plan.mode == "allowed" and plan.allowed_mode != "required":
        translation.mapped(ctx, config, "allowedFunctionNames is accepted with ANY or VALIDATED only; VALIDATED "
                      "lets the model answer in text and also validates its calls against the schemas")
        if strict:
            _strict_validated(ctx, strict)
        return config
    translation.mapped(ctx, config)
    if strict:
        ctx.ledger.warning("strict.not_validated",
                           f"strict tools ({', '.join(sorted(strict))}) with a forced call: Gemini's schema-validated "
                           "mode is VALIDATED, which cannot also force a call, so mode ANY is sent and the arguments "
                           "are not validated by VALIDATED; use tool_choice auto to get validated calls")
    return config


def _strict_validated(ctx: Context, strict: set[str]) -> None:
    others = [t.name for t in ctx.plan.tools if t.name not in strict]
    also = f"; the mode covers every declared tool, so also {', '.join(others)}" if others else ""
    ctx.ledger.info("strict.validated",
                    f"strict tools ({', '.join(sorted(strict))}) → mode VALIDATED: Gemini has no per-tool strict "
                    f"flag; VALIDATED validates function calls with constrained decoding{also}")


# The per-tool fields a FunctionDeclaration has beyond name, description and parameters (fact gemini.tool_fields):
# scenario key (google-genai's field name) -> the REST API's spelling; and the one generateContent does not take.
_WIRE_NAMES = {"response": "response", "response_json_schema": "responseJsonSchema"}
TOOL_FIELDS: tuple[str, ...] = tuple(_WIRE_NAMES)
TOOL_FIELDS_UNSENT: dict[str, str] = {
    "behavior": "google-genai 3.6.1 types.py FunctionDeclaration.behavior: 'This field is currently only supported by "
                "the BidiGenerateContent method.' (the Live API; toolchoice sends generateContent)"}


def _declaration(ctx: Context, tool: Tool) -> dict[str, Any]:
    declaration = _declared(ctx, tool)
    for key, value in translation.tool_fields(ctx, tool).items():
        declaration[_WIRE_NAMES[key]] = value
    return declaration


def _declared(ctx: Context, tool: Tool) -> dict[str, Any]:
    declaration: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        declaration["description"] = tool.description
    if tool.parameters is not None:
        form = ctx.settings.schema_form or "auto"
        if form == "parametersJsonSchema":
            declaration["parametersJsonSchema"] = tool.parameters
            ctx.ledger.info("schema.json_schema", f"tool '{tool.name}': parameters sent whole as parametersJsonSchema "
                            "(providers.gemini.schema_form)")
            return declaration
        converter, parameters = convert(tool.name, tool.parameters)
        lossy = [what for (severity, code, what, _), _ in converter.notes.items()
                 if severity != "info" and code != "schema.converted"] if converter.notes else None
        if form == "auto" and lossy:
            declaration["parametersJsonSchema"] = tool.parameters
            ctx.ledger.info("schema.json_schema", f"tool '{tool.name}': converting to Gemini's OpenAPI Schema subset "
                            f"would lose something ({'; '.join(dict.fromkeys(lossy))}): sent whole as "
                            "parametersJsonSchema instead (set providers.gemini.schema_form: parameters to convert)")
            return declaration
        converter.flush(ctx)
        declaration["parameters"] = parameters
    return declaration


def _no_parameters_forced(ctx: Context, tools: Sequence[Tool]) -> None:
    """Declarations with no parameters at all under mode ANY: the API's one recorded answer to that is a 400, the
    SDK's reference says the field may be left unset (fact gemini.no_parameters_any): sent as written, warned."""
    bare = [tool.name for tool in tools if tool.parameters is None]
    if bare:
        from ..core.facts import cited

        ctx.ledger.warning("tool.no_parameters_forced",
                           f"tool{'s' if len(bare) > 1 else ''} {', '.join(repr(name) for name in bare)} declared "
                           "without parameters under mode ANY: the API answered this 400 'Request contains an invalid "
                           f"argument.' on 2025-06-16, and google-genai's FunctionDeclaration says 'For function with "
                           f"no parameters, this can be left unset.' ({cited('gemini.no_parameters_any')}); no later "
                           "recording either way: sent as written; if the API answers 400, give the tool parameters "
                           "{type: object, properties: {}} (taken under mode ANY: fact gemini.schema_empty_object)")


# ---- history --------------------------------------------------------------------------------


def _contents(ctx: Context, model: str) -> list[dict[str, Any]]:
    messages = ctx.scenario.messages
    if not messages:
        refuse(ctx, "messages.empty", "the scenario has no messages: Gemini answers 400 'contents is not "
                         "specified' (langchain-ai/langchain-google#1393); add a user message")
        return []
    signed = ctx.history_calls and _signatures_required(ctx, model)  # only history calls carry signatures
    history_wire.reasoning_for(ctx, REASONING_FAMILY, takes_call_signatures=True)
    contents: list[dict[str, Any]] = []
    wrapped: list[str] = []
    errors: list[str] = []
    signatures = 0
    kept = 0
    bare = 0  # history calls sent without a thoughtSignature where the model's rule leaves the need unstated
    results: list[dict[str, Any]] | None = None  # the parts of the current run of tool results
    for message in messages:
        if message.role == "tool":
            if results is None:
                results = []
                contents.append({"role": "user", "parts": results})
            results.append(_function_response(message, wrapped, errors))
            continue
        results = None
        if message.role == "user":
            contents.append({"role": "user", "parts": [{"text": message.content or ""}]})
            continue
        items = [i for i in message.reasoning if i.family == "gemini"]
        slots = history_wire.placed([i for i in items if i.text is not None], len(message.tool_calls))
        loose = [i.signature for i in items if i.text is None and i.signature is not None]
        parts: list[dict[str, Any]] = [_thought_part(i) for i in slots[0]]
        first = len(parts)
        if message.content:
            parts.append({"text": message.content})
        # the model signs only the first call of a parallel turn: unsigned calls next to a signed one stay so
        written_by_model = any(c.signature is not None for c in message.tool_calls) or bool(items)
        for index, call in enumerate(message.tool_calls):
            if index:
                parts.extend(_thought_part(i) for i in slots[index])
            part: dict[str, Any] = {"functionCall": {"id": call.id, "name": call.name, "args": call.arguments}}
            if call.signature is not None:
                part["thoughtSignature"] = call.signature
                kept += 1
            elif signed and not written_by_model:
                part["thoughtSignature"] = THOUGHT_SIGNATURE_SENTINEL
                signatures += 1
            elif not signed and not written_by_model:
                bare += 1
            parts.append(part)
        if message.tool_calls:
            parts.extend(_thought_part(i) for i in slots[-1])
        if loose and len(parts) > first and "thoughtSignature" not in parts[first]:
            parts[first]["thoughtSignature"] = loose[0]  # a signed answer: the signature sits on its first part
            kept += 1
        contents.append({"role": "model", "parts": parts})
    if kept:
        ctx.ledger.info("history.signature_kept", f"{kept} thoughtSignature{'s' if kept > 1 else ''} the model returned "
                        "sent back unchanged on the parts that carried them")
    if wrapped:
        ctx.ledger.info("history.tool_result_wrapped",
                        f"tool result{'s' if len(wrapped) > 1 else ''} for {', '.join(wrapped)} "
                        f"{'are' if len(wrapped) > 1 else 'is'} not a JSON object: sent as "
                        '{"output": ...} (functionResponse.response must be an object; "output" is the documented key)')
    if errors:
        ctx.ledger.info("history.tool_result_wrapped",
                        f"failed tool result{'s' if len(errors) > 1 else ''} for {', '.join(errors)}: sent as "
                        '{"error": ...} ("error" is the documented key for error details)')
    for gap in unanswered(messages):  # a history that ends with the calls is sent: no source says it is refused
        if gap.after is not None:
            refuse(ctx, "history.missing_tool_result", f"tool calls {', '.join(gap.ids)} have no "
                             f"functionResponse in the turn after the model turn that made them; {ctx.cap.title} "
                             f"answers 400 INVALID_ARGUMENT: \"{RESPONSE_PARTS}\"; add role: tool messages with these "
                             "ids right after the assistant message")
            break
    if bare:
        from ..core.model_rules import unstated_note

        note = unstated_note(ctx.provider, model, "signatures_required", f"{bare} history function call"
                             f"{'s' if bare > 1 else ''} without a thoughtSignature",
                             " (Gemini 3 does: model rule gemini-3-signatures)")
        if note is not None:
            ctx.ledger.info("model_rule.unstated", note)
    if signatures:
        ctx.ledger.info("history.thought_signature",
                        f"{model} refuses history function calls without a thoughtSignature: "
                        f"{signatures} call{'s' if signatures > 1 else ''} it did not write (by hand or another model) got "
                        f'"{THOUGHT_SIGNATURE_SENTINEL}", the placeholder Google documents for calls the model did '
                        "not produce (ai.google.dev/gemini-api/docs/thought-signatures)")
    return contents


def _thought_part(item: Any) -> dict[str, Any]:
    part: dict[str, Any] = {"text": item.text, "thought": True}
    if item.signature is not None:
        part["thoughtSignature"] = item.signature
    return part


def _signatures_required(ctx: Context, model: str) -> bool:
    """Whether history calls need a thoughtSignature: model rule signatures_required, or the user's override."""
    fact = translation.model_facts(ctx, model).get("signatures_required")
    if fact is None or not fact.value:
        return False
    if ctx.history_calls:
        translation.rule_applied(ctx, "signatures_required", fact, f"{model} needs thought signatures on history calls")
    return True


def _function_response(message: Message, wrapped: list[str], errors: list[str]) -> dict[str, Any]:
    content = message.content or ""
    call_id = message.tool_call_id or ""
    if message.is_error:
        try:
            detail: Any = json_value(content)
        except ValueError:
            detail = content
        response: dict[str, Any] = {"error": detail}
        errors.append(call_id)
    else:
        response = history_wire.tool_result_object(content)
        if not _is_json_object(content):
            wrapped.append(call_id)
    return {"functionResponse": {"id": message.tool_call_id, "name": message.tool_name, "response": response}}


def _is_json_object(text: str) -> bool:
    try:
        return isinstance(history_wire.result_value(text), dict)  # kept within a HAR's reading
    except ValueError:
        return False
