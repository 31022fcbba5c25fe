"""OpenAI Responses: the family behind ``toolchoice mock`` / ``proxy`` (core/mock; registry.mock_family).

How a request body of this API reads back into neutral terms (tools, tool_choice as on the wire, the
history, the thinking setting), and the reply body, stream events and error envelope in this API's shape.
Kept beside the family's translator so `render` never loads it.
"""

from __future__ import annotations

from typing import Any

from .core.mock.judge import MockMalformed
from .core.mock.reading import json_kind, misfit, openai_type_words, wrong_field
from .core.model import HistoryCall, LedgerEntry, Message, ProviderSettings, ReasoningItem, ThinkingSetting
from .openai_history import ResponsesPairing


MOCK_BASE_PATH = "/v1"  # openai-python's base URL
# Where a body carries what the client hands an MCP server (types/responses/tool_param.py Mcp: "headers:
# Optional[Dict[str, str]] ... Use for authentication", "authorization: str ... An OAuth access token"): never
# kept nor echoed (core/mock/body_secrets.py)
MOCK_SECRETS = (("tools", "*", "headers", "*"), ("tools", "*", "authorization"), ("tools", "*", "server_url", "@url"))
# trace SAVED (core/saved_request.py): an input item's members the neutral history has no place for, by (body field,
# item type, member, value; None: any value), and what sending the scenario again without them does, with the source
_FC_PARAM = "openai 3.57.0 types/responses/response_function_tool_call_param.py ResponseFunctionToolCallParam"
SAVED_ITEM_MEMBERS = {
    ("input", "function_call", "id", None): (
        "warning", f"the item id ({_FC_PARAM}.id, optional: 'The unique ID of the function tool call.') is what the "
        "API pairs with the reasoning item before the call, not the call_id a function_call_output answers; the "
        "scenario keeps the call_id only, so the request sent again is paired otherwise: an fc_ id the API made "
        "with reasoning, sent without that reasoning item, is a 400 'Item 'fc_...' of type 'function_call' was "
        "provided without its required 'reasoning' item' (laravel/ai#1052, omnigent-ai/omnigent#5066), one with its "
        "reasoning item and no id may be refused as a reasoning item 'without its required following item' "
        "(langchain-ai/langchainjs#9082)"),
    ("input", "function_call", "status", "completed"): (
        "info", f"the API's echo of its own output item ({_FC_PARAM}.status: 'Populated when items are returned via "
        "API.', optional on input); the scenario's call is a completed call, sent without it"),
}
_MOCK_KNOWN = frozenset({"model", "input", "instructions", "tools", "tool_choice", "parallel_tool_calls", "stream",
                         "reasoning", "include", "max_output_tokens", "temperature", "store"})


def mock_route(method: str, path: str) -> dict[str, Any] | None:
    return {} if method == "POST" and path.rstrip("/").endswith("/responses") else None


# The kinds of the input items' fields mock_read walks (openai 3.57.0 types/responses/response_input_item_param.py:
# a message's content a string or an array of parts; a function_call's call_id, name and arguments strings; a
# function_call_output's output a string or an array (a computer_call_output's an object); a reasoning item's summary
# an array of {text} objects), checked before they are read (reading.misfit); "*" is each item
_ITEM_KINDS = {("*", "type"): "string", ("*", "role"): "string", ("*", "content"): "string or array",
               ("*", "call_id"): "string", ("*", "name"): "string", ("*", "arguments"): "string",
               ("*", "output"): "string or array or object", ("*", "summary"): "array", ("*", "summary", "*"): "object",
               ("*", "encrypted_content"): "string"}


def mock_read(body: dict[str, Any], route: dict[str, Any]) -> Any:
    """A Responses body → MockRead: function tools, tool_choice, input items (calls, outputs, reasoning items)."""
    from .core.mock.judge import MockRead
    from .core.mock.read_prefix import read_on
    from .core.mock.reading import leading_system, read_tools, unjudged

    raw_input = body.get("input")
    if raw_input is None and body.get("previous_response_id") is None:
        raise MockMalformed("Missing required parameter: 'input'.")
    items = [{"role": "user", "content": raw_input}] if isinstance(raw_input, str) else raw_input or []
    if not isinstance(items, list):
        raise MockMalformed("Invalid type for 'input': expected a string or an array of input items.")
    tools, notes = read_tools(body.get("tools"), "openai-responses")
    choice = body.get("tool_choice")
    hosted: tuple[Any, ...] = ()

    def read(state: _InputRead, items: list[Any], start: int) -> None:
        nonlocal hosted
        wrong = misfit(items, _ITEM_KINDS, ("input",), start) if isinstance(raw_input, list) else None
        if wrong is not None:  # a field this reader walks, of another type: the API's 400 naming it, not the mock's 500
            raise MockMalformed(openai_type_words(*wrong), MockRead(body.get("tool_choice"), tools, notes=notes,
                                                                    model=body.get("model") if isinstance(
                                                                        body.get("model"), str) else None))
        hosted = _hosted(body.get("tools"))  # checked after the items' kinds and before the items, as ever
        if isinstance(choice, dict) and choice.get("type") == "mcp":  # tool_choice_mcp_param.py ToolChoiceMcpParam
            _required_string(choice, "server_label", "tool_choice")
            wrong = wrong_field(choice, {"server_label": "string", "name": "string"})
            if wrong is not None:
                _malformed_type(f"tool_choice.{wrong[0]}", wrong[1], wrong[2])
        state.read(items, start)

    state = read_on("openai_responses", items, _InputRead, read)
    history, other = state.history, state.other
    effort = (body.get("reasoning") or {}).get("effort") if isinstance(body.get("reasoning"), dict) else None
    settings = ProviderSettings(max_tokens=body.get("max_output_tokens"), temperature=body.get("temperature"),
                                thinking_mode=ThinkingSetting("on", effort=effort) if isinstance(effort, str) else None,
                                thinking=True if isinstance(effort, str) else None)
    include = body.get("include") if isinstance(body.get("include"), list) else []
    # a call without its output, an output without its call: the API's words (openai_history)
    paired = state.pairing.result(chained=bool(body.get("previous_response_id") or body.get("conversation")))
    if paired is not None:
        notes = (*notes, LedgerEntry("error", paired[0], paired[1]))
    schema = _text_schema(body.get("text"))
    return MockRead(body.get("tool_choice"), tools, tuple(history), settings, body.get("stream") is True,
                    body.get("model") if isinstance(body.get("model"), str) else None,
                    parallel=body.get("parallel_tool_calls") if isinstance(body.get("parallel_tool_calls"), bool) else None,
                    unjudged=unjudged(body, _MOCK_KNOWN | {"text"} if schema is not None else _MOCK_KNOWN)
                    + tuple(sorted(other)), notes=notes,
                    thinking=isinstance(effort, str) and effort != "none" or "reasoning.encrypted_content" in include,
                    native_tools=hosted, refusal=paired[1] if paired else None, text_schema=schema,
                    shape=_choice_shape(choice),
                    **dict(zip(("system", "system_role"), (body["instructions"], "system") if isinstance(
                        body.get("instructions"), str) and body["instructions"] else leading_system(state.system))))


class _InputRead:
    """What ``mock_read`` carries from item to item (the history, the calls' names, the reasoning items waiting for
    their turn, the item types it does not read, the pairing of outputs with calls, the system messages), read on from
    a copy where a later request's input starts with an earlier one's (core/mock/read_prefix.py)."""

    __slots__ = ("history", "names", "reasoning", "other", "pairing", "system")

    def __init__(self) -> None:
        self.history: list[Message] = []
        self.names: dict[str, str] = {}
        self.reasoning: list[ReasoningItem] = []
        self.other: set[str] = set()
        self.pairing = ResponsesPairing()
        self.system: list[Any] = []  # the system / developer messages, for leading_system

    def copy(self) -> _InputRead:
        other = _InputRead()
        other.history, other.names, other.reasoning = list(self.history), dict(self.names), list(self.reasoning)
        other.other, other.pairing, other.system = set(self.other), self.pairing.copy(), list(self.system)
        return other

    def read(self, items: list[Any], start: int) -> None:
        from .core.mock.reading import arguments_object, text_of, tool_message

        names, history = self.names, self.history
        for index in range(start, len(items)):
            item = items[index]
            if not isinstance(item, dict):
                raise MockMalformed("Invalid value for 'input': every item must be an object.")
            self.pairing.step(index, item)
            if item.get("role") in ("system", "developer"):
                self.system.append(item)
            kind = item.get("type", "message")
            if kind == "message":
                role = item.get("role")
                if role == "user":
                    history.append(Message("user", text_of(item.get("content")) or ""))
                elif role == "assistant":
                    history.append(Message("assistant", text_of(item.get("content")), reasoning=tuple(self.reasoning)))
                    self.reasoning = []
            elif kind == "reasoning":
                self.reasoning.append(ReasoningItem("openai-responses", id=item.get("id"),
                                                    summary=tuple(s.get("text", "") for s in item.get("summary") or []
                                                                  if isinstance(s, dict)),
                                                    encrypted=item.get("encrypted_content")))
            elif kind == "function_call":
                call = HistoryCall(str(item.get("call_id")), str(item.get("name")),
                                   arguments_object(item.get("arguments")))
                names[call.id] = call.name
                last = history[-1] if history and history[-1].role == "assistant" else None  # the turn it belongs to
                if last is not None and (last.tool_calls or last.content):  # the assistant text before it too
                    history[-1] = last._replace(tool_calls=last.tool_calls + (call,),
                                                reasoning=last.reasoning + tuple(
                                                    r._replace(position=len(last.tool_calls)) for r in self.reasoning))
                else:
                    history.append(Message("assistant", None, tool_calls=(call,), reasoning=tuple(self.reasoning)))
                self.reasoning = []
            elif kind == "function_call_output":
                history.append(tool_message(str(item.get("call_id")), names, item.get("output")))
            else:
                self.other.add(f"input item type {kind}")


# Other APIs' tool_choice tags that no member of the Responses ToolChoice union has (openai 3.57.0
# types/responses/response_create_params.py ToolChoice: ToolChoiceOptions, ToolChoiceAllowedParam,
# ToolChoiceTypesParam, ToolChoiceFunctionParam, ToolChoiceMcpParam, ToolChoiceCustomParam, programmatic tool calling,
# ToolChoiceApplyPatchParam, ToolChoiceShellParam: every member an object with a type tag)
_FOREIGN_TAGS = frozenset({"any", "tool", "auto", "none", "required"})


def _choice_shape(choice: Any) -> LedgerEntry | None:
    """A tool_choice object of another API's shape, in toolchoice's words (the 400 carries the API's own where
    recorded: core/choice_shape_words.py): Chat Completions' nested named form, Anthropic's tags, an untagged object."""
    from .core.model import quoted

    if not isinstance(choice, dict):
        return None
    nested = "function" in choice
    if not nested and isinstance(choice.get("type"), str) and choice["type"] not in _FOREIGN_TAGS:
        return None
    words = ("Chat Completions' named form; the Responses API's is flat: {\"type\": \"function\", \"name\": NAME}"
             if nested else "another API's form (for required write \"required\", for a named tool {\"type\": "
             "\"function\", \"name\": NAME})")
    return LedgerEntry("error", "tool_choice.nested_function" if nested else "tool_choice.shape",
                       f"tool_choice {quoted(choice)} is not a shape the Responses API takes (openai 3.57.0 "
                       f"types/responses/response_create_params.py ToolChoice): this is {words}: the API answers 400")


def _text_schema(text: Any) -> dict[str, Any] | None:
    """``text.format``'s schema, which the answer's output text follows (openai 3.57.0
    ``types/responses/response_format_text_json_schema_config_param.py``: ``{type: json_schema, name, schema,
    strict}``; ``{type: json_object}``: any object): openai-agents' ``output_type`` is sent so."""
    spec = text.get("format") if isinstance(text, dict) else None
    if not isinstance(spec, dict):
        return None
    if spec.get("type") == "json_object":
        return {"type": "object"}
    return spec["schema"] if spec.get("type") == "json_schema" and isinstance(spec.get("schema"), dict) else None


# What a NativeTool keeps of a body's hosted tool (types/responses/tool_param.py Mcp): enough to judge the request
# and answer it; a header or token the client sent is never kept.
_MCP_KEPT = ("type", "server_label", "server_url", "connector_id", "tunnel_id", "allowed_tools", "require_approval")


# The kinds of an Mcp tool's fields (types/responses/tool_param.py), checked so that a value of another type is the
# API's 400, never a fault of the mock's (reading.wrong_field)
_MCP_KINDS = {"server_label": "string", "server_url": "string", "connector_id": "string", "tunnel_id": "string",
              "server_description": "string", "authorization": "string", "headers": "object of strings",
              "allowed_callers": "array of strings", "defer_loading": "boolean"}
_FILTER_KINDS = {"read_only": "boolean", "tool_names": "array of strings"}  # McpAllowedToolsMcpToolFilter


def _hosted(entries: Any) -> tuple[Any, ...]:
    """The body's MCP servers and programmatic tool-calling tool as NativeTools (core/native_tools.py)."""
    from .core.model import NativeTool

    out = []
    for index, entry in enumerate(entries if isinstance(entries, list) else ()):
        if not isinstance(entry, dict):
            continue
        if entry.get("type") == "mcp":
            _check_mcp(entry, f"tools[{index}]")
            out.append(NativeTool("mcp", {k: v for k, v in entry.items() if k in _MCP_KEPT}))
        elif entry.get("type") == "programmatic_tool_calling":
            out.append(NativeTool("programmatic_tool_calling"))
    return tuple(out)


def _check_mcp(entry: dict[str, Any], where: str) -> None:
    """An Mcp tool's fields of the wrong type, as the API words it; values are never quoted (they may be secrets)."""
    _required_string(entry, "server_label", where)
    wrong = wrong_field(entry, _MCP_KINDS)
    allowed, approval = entry.get("allowed_tools"), entry.get("require_approval")
    if wrong is None and isinstance(allowed, dict):
        wrong = _inside("allowed_tools", wrong_field(allowed, _FILTER_KINDS))
    elif wrong is None and allowed is not None:
        wrong = wrong_field(entry, {"allowed_tools": "array of strings"}) if isinstance(allowed, list) else \
            ("allowed_tools", "array of strings or an object", allowed)
    if wrong is None and isinstance(approval, dict):  # McpRequireApprovalMcpToolApprovalFilter
        for key in ("always", "never"):
            inner = approval.get(key)
            if wrong is None and inner is not None:
                wrong = _inside(f"require_approval.{key}", wrong_field(inner, _FILTER_KINDS)) \
                    if isinstance(inner, dict) else (f"require_approval.{key}", "object", inner)
    elif wrong is None and approval is not None and approval not in ("always", "never"):
        wrong = ("require_approval", "'always', 'never' or an object", approval)
    if wrong is not None:
        _malformed_type(f"{where}.{wrong[0]}", wrong[1], wrong[2])


def _inside(prefix: str, wrong: tuple[str, str, Any] | None) -> tuple[str, str, Any] | None:
    return None if wrong is None else (f"{prefix}.{wrong[0]}", wrong[1], wrong[2])


def _malformed_type(where: str, kind: str, value: Any) -> None:
    article = "" if kind.startswith("'") else "an " if kind[0] in "aeiou" else "a "
    raise MockMalformed(f"Invalid type for '{where}': expected {article}{kind}, but got {json_kind(value)} instead.")


def _required_string(entry: dict[str, Any], key: str, where: str) -> None:
    """The API's words for a missing one, as a client quotes them (wandb/wandb-mcp-server#5, 2026-02-01:
    "Missing required parameter: 'tools[0].server_label'.")."""
    if key not in entry:
        raise MockMalformed(f"Missing required parameter: '{where}.{key}'.")
    if not isinstance(entry[key], str):
        _malformed_type(f"{where}.{key}", "string", entry[key])


def _native_items(answer: Any, number: int) -> list[dict[str, Any]]:
    """The items a native choice is obeyed with (types/responses/response_output_item.py): an ``mcp_call``
    (McpCall: id, server_label, name, arguments, output, status), or the ``program`` (Program: id, call_id, code,
    fingerprint) whose function calls carry ``caller: {type: program, caller_id}`` (response_function_tool_call.py)."""
    native = answer.native
    if native.get("type") == "mcp":
        return [{"type": "mcp_call", "id": f"mcp_mock{number}", "server_label": native["server_label"],
                 "name": native["name"], "arguments": native["arguments"], "output": "toolchoice mock: MCP tool output",
                 "error": None, "status": "completed"}]
    code = "".join(f"await tools.{call.name}({call.raw});\n" for call in answer.calls) or "// toolchoice mock\n"
    return [{"type": "program", "id": f"prog_mock{number}", "call_id": f"call_prog_mock{number}", "code": code,
             "fingerprint": f"toolchoice-mock-{number}"}]


def mock_call_id(call: Any) -> str | None:
    """The call_id a function_call item of the mock's answer carries (what a function_call_output answers, not the
    item's id; the line's calls[].id)."""
    return call.id


def _mock_output(answer: Any, number: int) -> list[dict[str, Any]]:
    output: list[dict[str, Any]] = []
    if answer.signature is not None:
        output.append({"type": "reasoning", "id": f"rs_mock{number}", "summary": [],
                       "encrypted_content": answer.signature})
    if answer.text is not None:
        output.append({"type": "message", "id": f"msg_mock{number}", "role": "assistant", "status": "completed",
                       "content": [{"type": "output_text", "text": answer.text, "annotations": [], "logprobs": []}]})
    caller = None
    if answer.native is not None:
        output.extend(_native_items(answer, number))
        if answer.native.get("type") == "programmatic_tool_calling":
            caller = {"type": "program", "caller_id": f"call_prog_mock{number}"}
    for call in answer.calls:
        item = {"type": "function_call", "id": f"fc_{call.id}", "call_id": mock_call_id(call), "name": call.name,
                "arguments": call.raw, "status": "completed"}
        if caller is not None:
            item["caller"] = caller
        output.append(item)
    return output


def _mock_response(answer: Any, read: Any, number: int, body: dict[str, Any], status: str,
                   output: list[dict[str, Any]]) -> dict[str, Any]:
    """A response object (openai-python types/responses/response.py)."""
    return {"id": f"resp_mock{number}", "object": "response", "created_at": 1764147600, "status": status,
            "error": None, "incomplete_details": None, "instructions": body.get("instructions"),
            "max_output_tokens": body.get("max_output_tokens"), "model": read.model or "mock", "output": output,
            "parallel_tool_calls": body.get("parallel_tool_calls", True),
            "temperature": body.get("temperature"), "tool_choice": body.get("tool_choice", "auto"),
            "tools": body.get("tools") or [], "top_p": None, "metadata": {}, "text": {"format": {"type": "text"}},
            "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                      "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
            if status == "completed" else None}


def mock_reply(answer: Any, read: Any, number: int, body: dict[str, Any] | None = None) -> dict[str, Any]:
    return _mock_response(answer, read, number, body or {}, "completed", _mock_output(answer, number))


def mock_events(answer: Any, read: Any, number: int, body: dict[str, Any]) -> list[tuple[str | None, Any]]:
    """Responses stream events (types/responses/response_stream_event.py), named by their type."""
    events: list[tuple[str | None, Any]] = []

    def add(kind: str, **fields: Any) -> None:
        events.append((kind, {"type": kind, "sequence_number": len(events), **fields}))

    add("response.created", response=_mock_response(answer, read, number, body, "in_progress", []))
    add("response.in_progress", response=_mock_response(answer, read, number, body, "in_progress", []))
    output = _mock_output(answer, number)
    for index, item in enumerate(output):
        if item["type"] == "function_call":
            add("response.output_item.added", output_index=index, item={**item, "arguments": "", "status": "in_progress"})
            add("response.function_call_arguments.delta", item_id=item["id"], output_index=index, delta=item["arguments"])
            add("response.function_call_arguments.done", item_id=item["id"], output_index=index,
                arguments=item["arguments"])
        elif item["type"] == "message":
            text = item["content"][0]["text"]
            add("response.output_item.added", output_index=index, item={**item, "content": [], "status": "in_progress"})
            part = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
            add("response.content_part.added", item_id=item["id"], output_index=index, content_index=0, part=part)
            add("response.output_text.delta", item_id=item["id"], output_index=index, content_index=0, delta=text,
                logprobs=[])
            add("response.output_text.done", item_id=item["id"], output_index=index, content_index=0, text=text,
                logprobs=[])
            add("response.content_part.done", item_id=item["id"], output_index=index, content_index=0,
                part={**part, "text": text})
        else:
            add("response.output_item.added", output_index=index, item=item)
        add("response.output_item.done", output_index=index, item=item)
    add("response.completed", response=_mock_response(answer, read, number, body, "completed", output))
    return events


def mock_error(status: int, message: str, param: str | None = None,
               fields: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """The same envelope as Chat Completions ({error: {message, type, param, code}}; param input for a call and its
    output that do not pair, as recorded: openai_history); ``fields``: the recorded body's other fields for the API's
    own words (RefusalWords.envelope: param tool_choice, code invalid_value for a string it does not take)."""
    from .openai_chat_mock import mock_error as chat_error

    return chat_error(status, message, param=param, fields=fields)
