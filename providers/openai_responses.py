"""OpenAI Responses API (``POST /v1/responses``): translate a scenario, parse a reply.

Wire facts, with their sources (openai-python ``src/openai/types/responses/``):

- Function tools are flat: ``{"type": "function", "name", "description", "parameters", "strict"}``
  (``function_tool_param.py``), and ``strict`` is documented "Default `true`": when it is omitted the
  Responses API normalizes the schema into strict mode, which makes optional fields mandatory; "To opt out
  ... explicitly set `strict: false`" (OpenAI function-calling guide, change of 2026-03-31). So strict is
  always sent explicitly here.
- ``tool_choice``: ``"none" | "auto" | "required"`` (``tool_choice_options.py``),
  ``{"type": "function", "name"}`` (``tool_choice_function_param.py``) and
  ``{"type": "allowed_tools", "mode": "auto" | "required", "tools": [{"type": "function", "name"}]}``
  (``tool_choice_allowed_param.py``, flat, unlike Chat Completions); and two forms only this API has, taken
  as written (``NATIVE_CHOICES``; openai 3.57.0): ``{"type": "mcp", "server_label", "name"?}``
  (``tool_choice_mcp_param.py``) and ``{"type": "programmatic_tool_calling"}`` (``response_create_params.py``
  ``ToolChoiceSpecificProgrammaticToolCallingParam``; the tool it forces is ``tool_param.py``
  ``ProgrammaticToolCalling``).
- History items: messages ``{"role", "content"}``, calls ``{"type": "function_call", "call_id", "name",
  "arguments": <JSON text>}`` (``response_function_tool_call_param.py``) and results
  ``{"type": "function_call_output", "call_id", "output"}`` (``response_input_param.py`` FunctionCallOutput).
- Replies have no finish_reason: ``status`` (and ``incomplete_details.reason``) stand in for it; calls are
  ``output[]`` items of type ``function_call`` whose ``call_id`` answers the result, not the item ``id``.
  Calls the API runs itself are server calls (``response_output_item.py``): ``mcp_call`` {id, name,
  server_label, arguments, error?}, ``mcp_approval_request`` {id, name, server_label, arguments}, ``program``
  {id, call_id, code}.
"""

from __future__ import annotations

from typing import Any, Sequence

from .core import history_wire, native_tools, request_parts, translation
from .core.capabilities import Capability
from .core.name_rule_facts import name_rule
from .core.error_envelope import ErrorEnvelope
from .core.tool_file import ToolFile
from .core.translation import Context
from .core.host_rules import refuse
from .core.model import ReasoningItem, RenderOptions, Scenario, Tool, Translation
from .openai_responses_reply import SERVER_CALLS, parse_reply  # noqa: F401 - the family's reply reader and its server calls

DEFAULT_BASE = "https://api.openai.com/v1"
_IGNORED_SETTINGS = ("deployment", "endpoint", "api_version", "region")
_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")  # openai-python shared/reasoning_effort.py

# Function names: ^[a-zA-Z0-9_-]{1,64}$, as in Chat Completions (fact openai-responses.tool_name_rule)
NAME_RULE = name_rule("openai-responses.tool_name_rule")

# Custom (free-text) tools (fact openai.custom_tool.responses) and the newer per-tool fields its tools have
# (fact openai-responses.tool_fields).
CUSTOM_TOOLS: dict[str, str] = {"openai-responses": "Responses"}
TOOL_FIELDS: tuple[str, ...] = ("allowed_callers", "defer_loading", "output_schema", "async")
CUSTOM_TOOL_FIELDS: tuple[str, ...] = ("allowed_callers", "defer_loading", "async")  # custom_tool_param.py
# The provider-native tool_choice forms this API takes as written (core/choice.py NATIVE_FORMS).
NATIVE_CHOICES: tuple[str, ...] = ("mcp", "programmatic_tool_calling")
# The hosted tools a scenario's tools: may declare that this API takes (core/native_tools.py): kind -> the id of
# the fact (core/facts.py) naming its type; TOOLS_TYPE is the fact naming the type this API's tools are.
NATIVE_TOOLS: dict[str, str] = {
    "mcp": "openai-responses.native.mcp",
    "programmatic_tool_calling": "openai-responses.native.programmatic_tool_calling",
}
TOOLS_TYPE = "openai-responses.tools_type"

# What `parse` calls a body of this family's reply shape, and the -p to suggest for it (core/sniff.py).
REPLY_KIND = ("an OpenAI Responses reply", "openai-responses")


def looks_like_reply(body: dict[str, Any]) -> bool:
    """The Responses API's documented success shape: ``{object: "response", output: [...]}``."""
    return body.get("object") == "response" and isinstance(body.get("output"), list)


# How its error bodies look (core/error_envelope.py): OpenAI's error object (openai-python ErrorObject).
ERROR_ENVELOPES = (ErrorEnvelope("openai-python types/shared/error_object.py: ErrorObject {code, message, param, type}",
                                 object_key="error", kind_keys=("type",), reply_keys=("output", "usage")),)


# A tool file in its format (core/tool_file.py): openai-python Responses FunctionToolParam, flat
# {type: function, name, parameters, strict}.
TOOL_FILE = ToolFile("openai-responses", "OpenAI Responses tools", "openai-python types/responses/function_tool_param.py "
                     "FunctionToolParam {name, parameters, strict, type: 'function', description}",
                     marks=lambda entry: entry.get("type") == "function" and "function" not in entry,
                     short="OpenAI Responses", strict=True, tool_fields=True)


# The family name its reasoning items carry (a signature or encrypted content is valid only there).
REASONING_FAMILY = "openai-responses"


def reasoning_item(block: Any) -> ReasoningItem | None:
    """A reasoning item pasted as the Responses API returns it (id, summary texts, content text,
    encrypted_content); None for any other shape."""
    value = block.value
    if value.get("type") != "reasoning":
        return None
    block.only(("type", "id", "summary", "content", "encrypted_content", "status"), "a Responses reasoning item")
    summary = tuple(text or "" for text in _part_texts(block, "summary"))
    parts = _part_texts(block, "content")
    return ReasoningItem("openai-responses", id=block.text("id"), summary=summary,
                         text="".join(t for t in parts if isinstance(t, str)) if parts else None,
                         encrypted=block.text("encrypted_content"))


def _part_texts(block: Any, key: str) -> list[str | None]:
    """The texts of a pasted reasoning item's ``summary`` or ``content``: a list of parts ``{type, text}``
    (openai-python ``ResponseReasoningItem``: ``Summary {text, type: 'summary_text'}``, ``Content {text, type:
    'reasoning_text'}``); any other value is one line naming it (a number was an internal error)."""
    parts = block.value.get(key)
    if parts is None:
        return []
    if not isinstance(parts, list) or not all(isinstance(part, dict) for part in parts):
        raise block.fail(f"{key} of a Responses reasoning item must be a list of parts {{type, text}}, as the API "
                         "returns it")
    return [block.text("text", part) for part in parts]


LEDGER_CODES: dict[str, str] = {
    "strict.explicit_false": "non-strict tools are sent with strict: false, because the Responses API treats an "
                             "omitted strict as true",
    "strict.mapped": "strict tools sent with strict: true",
    "schema.strict_invalid": "a strict tool's schema breaks OpenAI's strict rules, which the API rejects: "
                             "request refused",
    "schema.empty_parameters": "a tool without parameters is sent with an empty object schema",
    "history.is_error_dropped": "a tool result's is_error has no field in function_call_output; the content "
                                "carries the error",
    "settings.ignored": "a providers.openai-responses setting this translator does not use",
    "reasoning.replayed": "reasoning items sent back before the items that followed them (with encrypted_content "
                          "when the reply had it)",
    "reasoning.incomplete": "a reasoning item without the id the API requires on input",
    "thinking.mapped": "the thinking setting sent as reasoning.effort",
    "history.output_parts": "a tool result given as content parts is sent as a list output",
    "tool_choice.native_target": "a Responses-only tool_choice ({type: mcp} or {type: programmatic_tool_calling}) "
                                 "whose tool the request does not declare",
    "tool.native": "an MCP server or the programmatic tool-calling tool from the scenario's tools:, sent as written",
    "tool.native_header_conflict": "an mcp tool with authorization and its own Authorization header: both sent, the "
                                   "server gets one",
    "history.missing_tool_result": "a call without its output after it: refused in the API's words (openai_history)",
}


# ---- translation ----------------------------------------------------------------------------


def translate(provider: str, scenario: Scenario, options: RenderOptions, cap: Capability) -> Translation:
    ctx = translation.start(provider, scenario, options, cap)
    _ignored_settings(ctx)
    translation.check_names(ctx, NAME_RULE)

    body: dict[str, Any] = {"model": ctx.model}
    if scenario.system is not None:
        body["instructions"] = scenario.system  # "a system (or developer) message": either role fits
        ctx.developer_sent = True
    body["input"] = _input(ctx)
    from .openai_history import check_responses  # a call without its output: the API's 400 (openai_history)
    check_responses(ctx)
    tools = () if ctx.plan.omit_tools else ctx.plan.tools
    hosted = native_tools.kept(ctx)
    if tools or hosted:
        body["tools"] = _tools(ctx, tools) + _hosted(ctx, hosted, len(tools))
    if tools or hosted or not ctx.plan.omit_tools:  # no tools: a choice the planner kept is sent as written
        choice = _choice(ctx)
        if choice is not None:
            body["tool_choice"] = choice
    parallel = translation.parallel_value(ctx)
    if parallel is not None:
        body["parallel_tool_calls"] = parallel
    reasoning = _reasoning_setting(ctx)
    if reasoning is not None:
        body["reasoning"] = reasoning
    if ctx.settings.max_tokens is not None:
        body["max_output_tokens"] = ctx.settings.max_tokens
    if ctx.settings.temperature is not None:
        body["temperature"] = ctx.settings.temperature
    if options.stream:
        body["stream"] = True
        translation.streamed(ctx, "stream: true, typed server-sent events (response.output_item.added, "
                        "response.function_call_arguments.delta, ...) ending with response.completed")

    url = request_parts.endpoint(ctx, DEFAULT_BASE, "/responses")
    return translation.finish(ctx, url=url, headers=request_parts.bearer(ctx), body=body, choice_path=("tool_choice",))


def _ignored_settings(ctx: Context) -> None:
    for key in _IGNORED_SETTINGS:
        value = getattr(ctx.settings, key)
        if value is not None:
            ctx.ledger.warning("settings.ignored", f"providers.{ctx.provider}.{key} = {translation.compact(value)} is not "
                               "used by the Responses translator; set the field through providers."
                               f"{ctx.provider}.extra")


def _tools(ctx: Context, tools: tuple[Tool, ...]) -> list[dict[str, Any]]:
    strict = translation.strict_tools(ctx)
    out = []
    for tool in tools:
        if tool.kind == "custom":
            # openai-python types/responses/custom_tool_param.py: flat {type, name, description, format}
            custom: dict[str, Any] = {"type": "custom", "name": tool.name}
            if tool.description is not None:
                custom["description"] = tool.description
            if tool.format is not None:
                custom["format"] = dict(tool.format)
            if tool.fields:
                custom.update(translation.tool_fields(ctx, tool))
            out.append(custom)
            continue
        is_strict = tool.name in strict
        entry: dict[str, Any] = {"type": "function", "name": tool.name}
        if tool.description is not None:
            entry["description"] = tool.description
        if tool.parameters is None:
            # Nothing was written: the empty object schema, closed when strict so the strict rules hold.
            parameters: dict[str, Any] = {"type": "object", "properties": {}}
            if is_strict:
                parameters["additionalProperties"] = False
            ctx.ledger.info("schema.empty_parameters", f"tool '{tool.name}' has no parameters: sent with "
                            f"{translation.compact(parameters)}")
        else:
            parameters = tool.parameters
        entry["parameters"] = parameters
        entry["strict"] = is_strict
        if tool.fields:
            entry.update(translation.tool_fields(ctx, tool))
        if is_strict:
            from .openai_strict import openai_strict_problems  # loaded only for a strict tool

            for problem in openai_strict_problems(parameters):
                refuse(ctx, "schema.strict_invalid",
                                 f"tool '{tool.name}' is strict but {problem}: OpenAI rejects a strict schema that "
                                 "breaks its rules; fix the schema or set strict: false")
        out.append(entry)
    if strict:
        ctx.ledger.info("strict.mapped", f"strict tools: {', '.join(sorted(strict))} → strict: true")
    loose = [t.name for t in tools if t.name not in strict and t.kind == "function"]
    if loose:
        ctx.ledger.info("strict.explicit_false",
                        f"{', '.join(loose)} sent with strict: false: the Responses API treats an omitted strict as "
                        "true and would make every field required (OpenAI function-calling guide)")
    return out


def _hosted(ctx: Context, hosted: tuple[Any, ...], first: int) -> list[dict[str, Any]]:
    """The scenario's MCP servers and programmatic tool-calling tool, as ``tool_param.py`` ``Mcp`` and
    ``ProgrammaticToolCalling`` (the scenario's keys are the API's); the headers' ``$ENV`` placeholders are
    resolved at send time."""
    if not hosted:
        return []
    from .core.facts import cited  # read only when a scenario has hosted tools

    out = []
    for index, tool in enumerate(hosted, first):
        entry = dict(tool.fields) if tool.kind == "mcp" else {"type": tool.kind}
        for key in ("headers", "authorization", "server_url"):  # server_url: a key in its path as $NAME
            if key in entry:
                value = entry[key]
                ctx.body_env.extend(("tools", index) + path for path in native_tools.env_paths({key: value}, ()))
        out.append(entry)
        ctx.ledger.info("tool.native", f"tool {tool.label} sent as written ({cited(NATIVE_TOOLS[tool.kind])})")
        own = native_tools.own_authorization(entry) if tool.kind == "mcp" else None
        if own is not None:  # Mcp has both fields; the docs do not say which one the server's header carries
            ctx.ledger.warning("tool.native_header_conflict", f"tool {tool.label}: authorization and headers.{own} "
                               "are both sent (Mcp has both fields), and the MCP server gets one Authorization "
                               "header: OpenAI's API reference does not say which of the two it is")
    return out


# A custom tool in a named choice or an allowed list (openai-python types/responses/tool_choice_custom_param.py:
# {type: custom, name}); the row's forms name function tools.
CUSTOM_NAMED = '{"type":"custom","name":N}'


def _choice(ctx: Context) -> Any:
    plan = ctx.plan
    if plan.mode == "unset":
        return None
    choice = ctx.scenario.tool_choice
    if choice is not None and choice.native is not None:
        _native_target(ctx, choice.native)
        wire = dict(choice.native)
        translation.mapped(ctx, wire, "the Responses API's own form, sent as written")
        return wire
    wire = translation.choice_value(ctx, custom=CUSTOM_NAMED)
    if wire is not None:
        translation.mapped(ctx, wire)
    return wire


def _native_target(ctx: Context, native: dict[str, Any]) -> None:
    """The forced tool of a native choice is a hosted tool the scenario cannot declare: it must come from
    ``providers.openai-responses.extra.tools`` ({type: mcp, server_label} / {type: programmatic_tool_calling})."""
    tools = ctx.settings.extra.get("tools")
    declared = list(tools) if isinstance(tools, list) else []
    if not isinstance(tools, list):  # extra.tools replaces the translated list; else the scenario's count
        declared.extend(dict(t.fields) if t.kind == "mcp" else {"type": t.kind} for t in native_tools.kept(ctx))
    kind = native["type"]
    label = native.get("server_label")
    if any(isinstance(t, dict) and t.get("type") == kind and (kind != "mcp" or t.get("server_label") == label)
           for t in declared):
        return
    wanted = f'{{"type":"mcp","server_label":{translation.compact(label)},...}}' if kind == "mcp" \
        else '{"type":"programmatic_tool_calling"}'
    ctx.ledger.warning("tool_choice.native_target", f"tool_choice {ctx.requested_text} forces a tool the request does "
                       f"not declare: add {wanted.replace(',...', '')} (with a server_url) to the scenario's tools: (or to "
                       f"providers.{ctx.provider}.extra.tools, with the function tools), or the API cannot honour it")


def _reasoning_setting(ctx: Context) -> dict[str, Any] | None:
    """The neutral thinking setting → ``reasoning: {effort}`` (openai-python ``shared_params/reasoning.py``)."""
    settings = ctx.settings
    spec = settings.thinking_mode
    if spec is not None and spec.effort is not None:
        effort = spec.effort
    elif spec is not None and spec.mode == "off" or spec is None and settings.thinking is False:
        effort = "none"
    else:
        if settings.thinking is not None:
            ctx.ledger.info("thinking.mapped", f"thinking {translation.compact(spec.to_json() if spec else True)}: "
                            "reasoning models reason by default; no reasoning field sent (write {effort: ...} to set one)")
        return None
    ctx.ledger.info("thinking.mapped", f"thinking → reasoning {{effort: {effort}}}")
    return {"effort": effort}


def _reasoning_wire(item: Any) -> dict[str, Any]:
    """A reasoning item as the API returned it (``response_reasoning_item_param.py``: id and summary required)."""
    wire: dict[str, Any] = {"type": "reasoning"}
    if item.id is not None:
        wire["id"] = item.id
    wire["summary"] = [{"type": "summary_text", "text": text} for text in item.summary]
    if item.text is not None:
        wire["content"] = [{"type": "reasoning_text", "text": item.text}]
    if item.encrypted is not None:
        wire["encrypted_content"] = item.encrypted
    return wire


def _input(ctx: Context) -> list[dict[str, Any]]:
    history_wire.reasoning_for(ctx, REASONING_FAMILY)
    items: list[dict[str, Any]] = []
    replayed = 0
    for message in ctx.scenario.messages:
        if message.role == "user":
            items.append({"role": "user", "content": message.content or ""})
        elif message.role == "assistant":
            own = [i for i in message.reasoning if i.family == "openai-responses"]
            for item in own:
                if item.id is None:
                    ctx.ledger.warning("reasoning.incomplete", "a reasoning item without id: the Responses API "
                                       "requires the id it returned (response_reasoning_item_param.py)")
            replayed += len(own)
            slots = history_wire.placed(own, len(message.tool_calls))
            items.extend(_reasoning_wire(i) for i in slots[0])  # reasoning precedes what followed it
            if message.content:
                items.append({"role": "assistant", "content": message.content})
            for index, call in enumerate(message.tool_calls):
                if index:
                    items.extend(_reasoning_wire(i) for i in slots[index])
                items.append({"type": "function_call", "call_id": call.id, "name": call.name,
                              "arguments": history_wire.history_arguments_json(call.arguments)})
            if message.tool_calls:
                items.extend(_reasoning_wire(i) for i in slots[-1])
        else:
            output: Any = message.content or ""
            if message.parts is not None:
                output = list(message.parts)
                ctx.ledger.info("history.output_parts", f"tool result {message.tool_call_id} is a list of content "
                                "parts: sent as function_call_output.output list (string or parts, "
                                "response_input_param.py FunctionCallOutput)")
            items.append({"type": "function_call_output", "call_id": message.tool_call_id, "output": output})
            if message.is_error:
                ctx.ledger.info("history.is_error_dropped",
                                f"tool result {message.tool_call_id} is_error: true has no field in "
                                "function_call_output; the content carries the error")
    if replayed:
        ctx.ledger.info("reasoning.replayed", f"{replayed} reasoning item{'s' if replayed > 1 else ''} sent back before "
                        "the items that followed them, unchanged (a function_call needs its reasoning item: "
                        "'provided without its required reasoning item')")
    return items


# ---- replies --------------------------------------------------------------------------------


def limits_body(tools: Sequence[Tool]) -> dict[str, Any]:
    """The body the rows' ``body_limits`` measure an imported catalogue on (``tool_import_limits``): these tools in
    Responses' flat function form, their description, parameters and strict as written."""
    out = []
    for tool in tools:
        entry: dict[str, Any] = {"type": "function", "name": tool.name, "parameters": tool.parameters}
        if tool.description is not None:
            entry["description"] = tool.description
        if tool.strict is not None:
            entry["strict"] = tool.strict
        out.append(entry)
    return {"tools": out}


def offered_tools(body: dict[str, Any]) -> list[str]:
    """The tool names a request body declares (``tools[].name``)."""
    return translation.tool_names(body.get("tools"), "name")


STREAM_FRAMING = "sse"


def stream_assembler(provider: str) -> Any:
    """Responses API events → the Reply ``parse_reply`` makes of the final response (``openai_responses_stream``)."""
    from .openai_responses_stream import ResponsesStreamAssembler

    return ResponsesStreamAssembler(provider)
