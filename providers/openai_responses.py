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

import re
from typing import Any

from .core import history_wire, native_tools, request_parts, translation
from .core.capabilities import Capability
from .core.error_envelope import ErrorEnvelope
from .core.tool_file import ToolFile
from .core.translation import Context
from .core.host_rules import refuse
from .core.reply import looks_like_error, provider_error
from .core.model import ProviderError, ReasoningItem, RenderOptions, Reply, Scenario, ServerCall, Tool, ToolCall, \
    Translation, Usage
from .core.parsing import StreamAssembler, bad_body, caller_of, custom_display, expect_dict, expect_list, int_or_none, join_text, \
    make_call

DEFAULT_BASE = "https://api.openai.com/v1"
_IGNORED_SETTINGS = ("deployment", "endpoint", "api_version", "region")
_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")  # openai-python shared/reasoning_effort.py

# Function names: ^[a-zA-Z0-9_-]{1,64}$, as in Chat Completions (OpenAI's function-calling guide)
NAME_RULE = (re.compile(r"[a-zA-Z0-9_-]{1,64}").fullmatch, "letters, digits, _ and -, at most 64")

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
    summary = tuple(p.get("text", "") for p in value.get("summary") or [] if isinstance(p, dict))
    parts = [p.get("text") for p in value.get("content") or [] if isinstance(p, dict)]
    return ReasoningItem("openai-responses", id=block.text("id"), summary=summary,
                         text="".join(t for t in parts if isinstance(t, str)) if parts else None,
                         encrypted=block.text("encrypted_content"))


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
            for problem in translation.openai_strict_problems(parameters):
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


def offered_tools(body: dict[str, Any]) -> list[str]:
    """The tool names a request body declares (``tools[].name``)."""
    return translation.tool_names(body.get("tools"), "name")


def parse_reply(provider: str, body: Any) -> Reply:
    """A Responses body → Reply: ``function_call`` items (``call_id`` as the id), ``output_text`` and
    ``refusal`` text of ``message`` items, ``status`` as the finish reason, ``reasoning`` items kept as
    reasoning state. ``mcp_call``, ``mcp_approval_request`` and ``program`` items become server calls; other
    hosted-tool items are skipped. An error envelope becomes ``Reply.error``."""
    data = expect_dict(provider, body, "the body")
    if "output" not in data and looks_like_error(data):
        return Reply(error=provider_error(provider, None, data))
    calls = []
    texts: list[str] = []
    reasoning: list[ReasoningItem] = []
    server: list[ServerCall] = []
    for i, raw in enumerate(expect_list(provider, data.get("output"), "output")):
        item = expect_dict(provider, raw, f"output[{i}]")
        kind = item.get("type")
        if kind == "reasoning":
            reasoning.append(_reasoning_item(item, len(calls)))
        elif kind == "function_call":
            if not isinstance(item.get("name"), str):
                raise bad_body(provider, f"output[{i}] is a function_call without a name")
            call_id = item.get("call_id", item.get("id"))
            call = make_call(call_id, item["name"], item.get("arguments"))
            caller = caller_of(item.get("caller"))  # programmatic tool calling: {type: program, caller_id}
            calls.append(call._replace(caller=caller) if caller is not None else call)
        elif kind == "custom_tool_call":
            # openai-python types/responses/response_custom_tool_call.py: {type, call_id, name, input}
            if not isinstance(item.get("name"), str):
                raise bad_body(provider, f"output[{i}] is a custom_tool_call without a name")
            text = item.get("input")
            calls.append(ToolCall(item.get("call_id", item.get("id")), item["name"], None,
                                  input=text if isinstance(text, str) else "", **custom_display(text)))
        elif kind in SERVER_CALLS:
            server.append(server_call(item))
        elif kind == "message":
            for j, part in enumerate(expect_list(provider, item.get("content"), f"output[{i}].content")):
                part = expect_dict(provider, part, f"output[{i}].content[{j}]")
                if part.get("type") == "output_text" and isinstance(part.get("text"), str):
                    texts.append(part["text"])
                elif part.get("type") == "refusal" and isinstance(part.get("refusal"), str):
                    texts.append(part["refusal"])
    return Reply(tool_calls=tuple(calls), text=join_text(texts), finish_reason=_finish(data),
                 usage=_usage(data.get("usage")), error=_failure(data.get("error")), reasoning=tuple(reasoning),
                 server_calls=tuple(server))


# Output items the API ran itself (openai 3.57.0 types/responses/response_output_item.py McpCall,
# McpApprovalRequest, Program): judged against a native tool_choice, never as calls to declared tools.
SERVER_CALLS = ("mcp_call", "mcp_approval_request", "program")


def server_call(item: dict[str, Any]) -> ServerCall:
    """One ``mcp_call`` / ``mcp_approval_request`` / ``program`` output item as a ServerCall."""
    def text(key: str) -> str | None:
        value = item.get(key)
        return value if isinstance(value, str) else None

    error = item.get("error")
    if isinstance(error, dict):  # McpToolCallError: {type, message} or {type, content} (mcp_tool_call_error.py)
        error = error.get("message") or error.get("type")
    kind = item["type"]
    return ServerCall(kind, id=text("call_id") if kind == "program" else text("id"), name=text("name"),
                      server=text("server_label"), error=error if isinstance(error, str) else None)


def _list(value: Any) -> list[Any]:
    """A field that should hold a list; anything else (a fuzzed or broken body) holds nothing to read."""
    return value if isinstance(value, list) else []


def _reasoning_item(item: dict[str, Any], position: int) -> ReasoningItem:
    """A ``reasoning`` output item (openai-python ``types/responses/response_reasoning_item.py``): id,
    summary[] of summary_text, content[] of reasoning_text, encrypted_content."""
    summary = tuple(p["text"] for p in _list(item.get("summary")) if isinstance(p, dict) and isinstance(p.get("text"), str))
    content = [p["text"] for p in _list(item.get("content")) if isinstance(p, dict) and isinstance(p.get("text"), str)]
    encrypted = item.get("encrypted_content")
    item_id = item.get("id")
    return ReasoningItem("openai-responses", id=item_id if isinstance(item_id, str) else None, summary=summary,
                         text="".join(content) if content else None,
                         encrypted=encrypted if isinstance(encrypted, str) else None, position=position)


def _finish(data: dict[str, Any]) -> str | None:
    status = data.get("status")
    if not isinstance(status, str):
        return None
    details = data.get("incomplete_details")
    reason = details.get("reason") if isinstance(details, dict) else None
    return f"{status}:{reason}" if status == "incomplete" and isinstance(reason, str) else status


def _failure(error: Any) -> ProviderError | None:
    """A response that failed on the server carries ``error: {code, message}`` with status ``failed``."""
    if not isinstance(error, dict):
        return None
    code = error.get("code")
    message = error.get("message")
    return ProviderError(status=None, type=code if isinstance(code, str) else None,
                         message=message if isinstance(message, str) else translation.compact(error))


def _usage(usage: Any) -> Usage:
    if not isinstance(usage, dict):
        return Usage()
    return Usage(int_or_none(usage.get("input_tokens")), int_or_none(usage.get("output_tokens")))


# ---- streamed replies ------------------------------------------------------------------------

STREAM_FRAMING = "sse"
_FINAL_EVENTS = ("response.completed", "response.incomplete", "response.failed")


class ResponsesStreamAssembler(StreamAssembler):
    """Responses API events → the Reply ``parse_reply`` makes of the final response object.

    A call opens with ``response.output_item.added`` (item type ``function_call``: ``call_id``,
    ``name``), its arguments come as ``response.function_call_arguments.delta`` pieces (matched by
    ``item_id``, else ``output_index``), and ``...arguments.done`` / ``output_item.done`` carry the
    whole text; the concatenated pieces are what is decoded, and a differing ``done`` text is a
    finding. Text is ``response.output_text.delta`` and ``response.refusal.delta``; finish reason,
    usage and a failure come from the final ``response.completed|incomplete|failed`` event
    (openai-python ``types/responses/response_stream_event.py``). Its reasoning items' ids and encrypted content
    (``ResponseReasoningItem``) are kept for the proxy (``Assembly.handed``)."""

    final_event = "response.completed (or response.incomplete/failed)"
    done_marker = "prefix"  # openai 3.57.0 _streaming.py Stream.__stream__: 'if sse.data.startswith("[DONE]")'

    def __init__(self, provider: str) -> None:
        super().__init__(provider)
        self._items: dict[str, Any] = {}  # item id -> call key
        self.server: list[ServerCall] = []  # mcp_call / mcp_approval_request / program items, when done
        self._custom: dict[Any, list[Any]] = {}  # custom_tool_call key -> [call id, name, input pieces, deltas]
        self._final: list[Any] = []  # the final event's response.output (what the SDK returns as the reply)

    def finish(self) -> Any:
        self.handed += [item.get(key) for item in self._final if isinstance(item, dict) and item.get("type") ==
                        "reasoning" for key in ("id", "encrypted_content")]  # the final response's (the SDK's)
        assembly = super().finish()
        calls, deltas, findings = list(assembly.reply.tool_calls), list(assembly.deltas), assembly.findings
        if self._custom:  # in output order with the function calls (keys are output_index when the events give it)
            keys = [*self.calls.by_key, *self._custom]
            calls += [ToolCall(cid, name or "", None, input="".join(parts), **custom_display("".join(parts)))
                      for cid, name, parts, _ in self._custom.values()]
            deltas += [count for *_, count in self._custom.values()]
            order = sorted(range(len(keys)), key=lambda i: (not isinstance(keys[i], int), keys[i]
                                                            if isinstance(keys[i], int) else 0, i))
            calls, deltas = [calls[i] for i in order], [deltas[i] for i in order]
        final = self._final_calls()
        if final and _shown(final) != _shown(calls):
            if calls:  # openai-python's get_final_response() returns the final object: its calls are the reply
                from .core.stream_assembly import Finding

                findings += (Finding("stream.final_mismatch", f"the deltas made {repr(_shown(calls))[:160]} but the "
                                     f"final response lists {repr(_shown(final))[:160]}; the final response is kept"),)
            calls, deltas = final, [0] * len(final)
        reply = assembly.reply._replace(tool_calls=tuple(calls))
        if self.server:
            reply = reply._replace(server_calls=tuple(self.server))
        return assembly._replace(reply=reply, deltas=tuple(deltas), findings=findings)

    def _final_calls(self) -> list[ToolCall]:
        try:
            return list(parse_reply(self.provider, {"output": self._final}).tool_calls) if self._final else []
        except Exception:  # noqa: BLE001 - a final object that cannot be read leaves the deltas as the reply
            return []

    def _key(self, data: dict[str, Any]) -> Any:
        item_id = data.get("item_id")
        if isinstance(item_id, str) and item_id in self._items:
            return self._items[item_id]
        return data.get("output_index", item_id)

    def feed(self, event: Any) -> bool:
        data = event.data
        if not isinstance(data, dict):
            return False
        kind = data.get("type", event.name)
        if kind == "response.function_call_arguments.delta":
            self.calls.delta(self._key(data), data.get("delta"))
            return True
        if kind in ("response.output_text.delta", "response.refusal.delta"):
            if isinstance(data.get("delta"), str):
                self.text.append(data["delta"])
        elif kind == "response.output_item.added":
            item = data.get("item")
            if isinstance(item, dict) and item.get("type") == "custom_tool_call":
                key = data.get("output_index", item.get("id"))
                if isinstance(item.get("id"), str):
                    self._items[item["id"]] = key
                self._custom[key] = [item.get("call_id", item.get("id")), item.get("name"), [], 0]
                return True
            if isinstance(item, dict) and item.get("type") == "function_call":
                key = data.get("output_index", item.get("id"))
                if isinstance(item.get("id"), str):
                    self._items[item["id"]] = key
                call = self.calls.open(key, item.get("call_id"), item.get("name"))
                call.caller = caller_of(item.get("caller"))
                if isinstance(item.get("arguments"), str) and item["arguments"]:
                    call.parts.append(item["arguments"])
                return True
        elif kind == "response.custom_tool_call_input.delta":
            return self._custom_piece(self._key(data), data.get("delta"))
        elif kind in ("response.function_call_arguments.done", "response.output_item.done",
                      "response.custom_tool_call_input.done"):
            self._done(kind, data)
        elif kind in ("response.reasoning_summary_text.delta", "response.reasoning_text.delta"):
            self.count("reasoning_chars", data.get("delta"))
        elif kind in _FINAL_EVENTS:
            final = data.get("response") if isinstance(data.get("response"), dict) else {}
            self._final = final.get("output") if isinstance(final.get("output"), list) else []
            self.done = True
            self.finish_reason, self.usage = _finish(final), _usage(final.get("usage"))
            self.error = _failure(final.get("error")) or self.error
        elif kind == "error":
            code, message = data.get("code"), data.get("message")
            self.fail(ProviderError(None, code if isinstance(code, str) else None,
                                    message if isinstance(message, str) else translation.compact(data)))
        return False

    def _custom_piece(self, key: Any, text: Any) -> bool:
        """A custom tool call's input delta (its call opened by output_item.added, else a finding)."""
        if key not in self._custom:
            from .core.stream_assembly import Finding

            self.findings.append(Finding("stream.unknown_index", f"an input delta for call {key}, which no start event "
                                         "opened; kept as its own call"))
            self._custom[key] = [None, None, [], 0]
        call = self._custom[key]
        if isinstance(text, str):
            call[2].append(text)
        call[3] += 1
        return True

    def _done(self, kind: str, data: dict[str, Any]) -> None:
        item = data.get("item")
        custom = self._custom.get(self._key(data) if kind.startswith("response.custom") else
                                  data.get("output_index", item.get("id") if isinstance(item, dict) else None))
        if custom is not None:  # a custom tool call's whole input: kept when no piece came
            whole = data.get("input") if kind.startswith("response.custom") else (item or {}).get("input")
            if isinstance(whole, str) and not custom[2]:
                custom[2].append(whole)
            return
        if kind == "response.output_item.done":
            if isinstance(item, dict) and item.get("type") in SERVER_CALLS:
                self.server.append(server_call(item))  # the done event carries the whole item
                return
            if not isinstance(item, dict) or item.get("type") != "function_call":
                return
            key = data.get("output_index", item.get("id"))
            call = self.calls.open(key, item.get("call_id"), item.get("name"))
            whole = item.get("arguments")
        else:
            call = self.calls.by_key.get(self._key(data))
            whole = data.get("arguments")
        if call is None or not isinstance(whole, str):
            return
        if not call.parts:
            call.parts.append(whole)
        elif "".join(call.parts) != whole:
            from .core.stream_assembly import Finding

            self.findings.append(Finding("stream.arguments_mismatch", f"call {call.key}: the argument deltas join "
                                         f"to {''.join(call.parts)[:80]!r} but {kind} says {whole[:80]!r}; the "
                                         "deltas are kept"))


def _shown(calls: Any) -> list[tuple[Any, ...]]:
    """Calls as (id, name, arguments or input) to compare the deltas' calls with the final response's."""
    return [(c.id, c.name, c.input if c.is_custom else (c.arguments if c.arguments is not None else c.raw_arguments))
            for c in calls]


def stream_assembler(provider: str) -> ResponsesStreamAssembler:
    return ResponsesStreamAssembler(provider)
