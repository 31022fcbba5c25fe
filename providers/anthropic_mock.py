"""Anthropic Messages: the family behind ``toolchoice mock`` / ``proxy`` (core/mock; registry.mock_family).

How a request body of this API reads back into neutral terms (tools, tool_choice as on the wire, the
history, the thinking setting), and the reply body, stream events and error envelope in this API's shape.
Kept beside the family's translator so `render` never loads it.
"""

from __future__ import annotations

import re
from typing import Any

from .core.mock.judge import MockMalformed
from .core.mock.reading import dotted, misfit, wrong_field
from .core.model import HistoryCall, Message, ProviderSettings, ReasoningItem, ThinkingSetting
from .anthropic import PATH

MOCK_BASE_PATH = ""  # anthropic-sdk-python's base URL has no /v1
# The token the client hands an MCP server (beta/beta_request_mcp_server_url_definition_param.py
# "authorization_token: Optional[str]"): never kept (core/mock/body_secrets.py)
MOCK_SECRETS = (("mcp_servers", "*", "authorization_token"), ("mcp_servers", "*", "url", "@url"))
_MOCK_KNOWN = frozenset({"model", "messages", "system", "tools", "tool_choice", "max_tokens", "thinking", "temperature",
                         "stream", "output_config", "mcp_servers"})
# _DUPLICATE_ID: two tool_use blocks with one id anywhere in the history are a 400 invalid_request_error, as the API
# answered it (recorded in anthropics/claude-code#20901 and #21083, 2026-01-26: "messages.1.content.1: `tool_use` ids
# must be unique"; checked 2026-11-26)
# Anthropic's documented prompt that makes the model's thinking come back redacted ("If you need to test redacted
# thinking handling in your application, you can use this special test string as your prompt", the extended thinking
# guide, platform.claude.com/docs/en/build-with-claude/extended-thinking, read 2026-11-27 through its source in the
# code index): with thinking on, a latest user text holding it is answered with a redacted_thinking block
_REDACTED_PROMPT = ("ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E5"
                    "2CC2876CB")
_MOCK_ERRORS = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                404: "not_found_error", 413: "request_too_large", 429: "rate_limit_error", 500: "api_error",
                529: "overloaded_error"}


def mock_route(method: str, path: str) -> dict[str, Any] | None:
    return {} if method == "POST" and path.rstrip("/") == PATH else None


# The kinds of the fields mock_read reads beyond the messages' own checks (anthropic 2.14.0 types/message_create_params.py:
# thinking a ThinkingConfigParam object whose ``type`` tag is a string), checked first (reading.misfit)
_KINDS = {("thinking",): "object", ("thinking", "type"): "string"}


def mock_read(body: dict[str, Any], route: dict[str, Any]) -> Any:
    """A Messages body → MockRead: tools, tool_choice (disable_parallel_tool_use read apart), the turns
    (tool_use, tool_result, thinking blocks) and the thinking setting."""
    from .core.mock.judge import MockMalformed, MockRead
    from .core.mock.read_prefix import read_on
    from .core.mock.reading import blocks_text, read_tools, unjudged

    messages = body.get("messages")
    if not isinstance(messages, list):
        raise MockMalformed("messages: Field required")
    if not isinstance(body.get("max_tokens"), int):
        raise MockMalformed("max_tokens: Field required")
    tools, notes = read_tools(body.get("tools"), "anthropic")
    state = read_on("anthropic", messages, _MessagesRead, _MessagesRead.read)
    history, refusal, removed = state.history, state.refusal, state.removed
    declared = None
    if removed:  # offered: the tools still in effect; the prefix (the thinking's check) holds every declared one
        declared = tuple(t.name for t in tools)
        tools = tuple(t for t in tools if t.name not in removed)
    choice = body.get("tool_choice")
    value, parallel = choice, None
    if isinstance(choice, dict) and "disable_parallel_tool_use" in choice:
        value = {k: v for k, v in choice.items() if k != "disable_parallel_tool_use"}
        flag = choice["disable_parallel_tool_use"]  # a boolean only: "false" read by Python's truth turned them off
        parallel = not flag if isinstance(flag, bool) else None
    model = body.get("model") if isinstance(body.get("model"), str) else None
    wrong = misfit(body, _KINDS)
    if wrong is not None:  # a field this reader reads, of another type: the API's 400 naming it, never the mock's 500
        raise MockMalformed(_pydantic_words(dotted(wrong[0]), wrong[1]), MockRead(
            choice, tools, tuple(history), model=model, choice_value=value, parallel=parallel, notes=notes))
    thinking = body.get("thinking") if isinstance(body.get("thinking"), dict) else {}
    effort = (body.get("output_config") or {}).get("effort") if isinstance(body.get("output_config"), dict) else None
    kind = thinking.get("type")
    spec = {"enabled": ThinkingSetting("on", budget=thinking.get("budget_tokens"), effort=effort),
            "adaptive": ThinkingSetting("adaptive", effort=effort),
            "disabled": ThinkingSetting("off", effort=effort)}.get(kind)
    settings = ProviderSettings(max_tokens=body["max_tokens"], temperature=body.get("temperature"),
                                thinking=None if spec is None else kind != "disabled", thinking_mode=spec)
    refusal = _name_refusal(body.get("tools")) or refusal  # the request is validated before it is read
    return MockRead(choice, tools, tuple(history), settings, body.get("stream") is True,
                    body.get("model") if isinstance(body.get("model"), str) else None, choice_value=value,
                    parallel=parallel, unjudged=unjudged(body, _MOCK_KNOWN), notes=notes,
                    thinking=kind in ("enabled", "adaptive"), native_tools=_hosted(body), refusal=refusal,
                    system=blocks_text(body.get("system")), shape=_choice_shape(choice),
                    text_schema=_text_schema(body.get("output_config")), declared=declared,
                    redacted=_asks_redacted(history))


class _MessagesRead:
    """What ``mock_read`` carries from message to message (the history, the calls' names, the first duplicate id,
    the tools removed), read on from a copy where a later request's messages start with an earlier one's
    (core/mock/read_prefix.py)."""

    __slots__ = ("history", "names", "refusal", "removed")

    def __init__(self) -> None:
        self.history: list[Message] = []
        self.names: dict[str, str] = {}
        self.refusal: str | None = None
        self.removed: dict[str, None] = {}  # mid-conversation tool changes (role: system messages), folded in order

    def copy(self) -> _MessagesRead:
        other = _MessagesRead()
        other.history, other.names, other.removed = list(self.history), dict(self.names), dict(self.removed)
        other.refusal = self.refusal
        return other

    def read(self, messages: list[Any], start: int) -> None:
        from .core.mock.reading import text_of, tool_message

        names, history, removed = self.names, self.history, self.removed
        for i in range(start, len(messages)):
            raw = messages[i]
            if not isinstance(raw, dict) or raw.get("role") not in ("user", "assistant", "system"):
                raise MockMalformed(f"messages.{i}.role: Input should be 'user', 'assistant' or 'system'")
            content = raw.get("content")
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
            if not isinstance(blocks, list):
                raise MockMalformed(f"messages.{i}.content: Input should be a valid list")
            if raw["role"] == "system":
                _tool_changes(blocks, removed)
                continue
            if raw["role"] == "user":
                texts = []
                for block in blocks:
                    if isinstance(block, dict) and block.get("type") == "tool_result":
                        history.append(tool_message(str(block.get("tool_use_id")), names,
                                                    text_of(block.get("content")) or block.get("content") or "",
                                                    bool(block.get("is_error"))))
                    elif isinstance(block, dict) and isinstance(block.get("text"), str):
                        texts.append(block["text"])
                if texts or not blocks:
                    history.append(Message("user", "\n".join(texts)))
                continue
            calls, texts, reasoning = [], [], []
            for j, block in enumerate(blocks):
                kind = block.get("type") if isinstance(block, dict) else None
                if kind == "tool_use":
                    call = HistoryCall(str(block.get("id")), str(block.get("name")),
                                       block.get("input") if isinstance(block.get("input"), dict) else {})
                    if call.id in names and self.refusal is None:
                        self.refusal = f"messages.{i}.content.{j}: `tool_use` ids must be unique"  # _DUPLICATE_ID
                    names[call.id] = call.name
                    calls.append(call)
                elif kind == "text" and isinstance(block.get("text"), str):
                    texts.append(block["text"])
                elif kind in ("thinking", "redacted_thinking"):
                    reasoning.append(ReasoningItem("anthropic", text=block.get("thinking"),
                                                   signature=block.get("signature"), encrypted=block.get("data"),
                                                   redacted=kind == "redacted_thinking", position=len(calls)))
            history.append(Message("assistant", "\n".join(texts) or None, tool_calls=tuple(calls),
                                   reasoning=tuple(reasoning)))


def mock_header_refusal(headers: dict[str, str], body: dict[str, Any]) -> Any:
    """The refusal the request's anthropic-version header brings. A value that is not one of the API's versions
    (fact anthropic.version_words: the versions page's history) is refused 400 in the API's recorded words
    (api_version.unknown), whatever the body. Fact anthropic.api_version: a version that removes body fields
    (2026-10-21: temperature, top_p, top_k) with a body that sends one is refused 400, as Anthropic's versions page
    says; its words are the fact's, quoted; the API's own error text for it is not recorded, so the 400 says so
    (UNRECORDED). No header (or an empty one), and a known version removing nothing the body sends: no refusal.
    The words and fields are read from the facts' values, as the translator reads them (providers/anthropic.py
    _version_lint)."""
    from .core.choice_shape_words import ANTHROPIC_VERSIONS
    from .core.fact_values import VersionRemoves
    from .core.facts import cited, fact
    from .core.model import LedgerEntry, quoted
    from .core.refusal_words import UNRECORDED

    said = fact("anthropic.api_version")
    assert isinstance(said.value, VersionRemoves)
    sent = next((value.strip() for name, value in headers.items() if name.lower() == said.value.header), "")
    if sent and sent not in ANTHROPIC_VERSIONS:
        return LedgerEntry("error", "api_version.unknown", f"{said.value.header} {quoted(sent)} is not one of the "
                           f"API's versions ({', '.join(ANTHROPIC_VERSIONS)}; fact anthropic.version_words): the API "
                           "refuses every request under it; send one of them, or leave the header to the SDK")
    removed = said.value.removed(headers, body)
    if not removed:
        return None
    source = cited(said.id).split("; ")[0]  # the versions page, the citation's first
    return LedgerEntry("error", "api_version.removed_field", f"{', '.join(removed)}: {said.value.header} "
                       f"{said.value.version} removes {'this field' if len(removed) == 1 else 'these fields'}: "
                       f"'{said.value.words}' ({source}, fact {said.id}){UNRECORDED}")


def _tool_changes(blocks: list[Any], removed: dict[str, None]) -> None:
    """A role: system message's tool_removal / tool_addition blocks (anthropic 2.14.0
    types/beta/beta_system_message_param.py; fact anthropic.tool_changes), folded over the tools as the SDK's tool
    runner folds them (lib/tools/_tool_dispatch.py available_tool_names): a removed tool is not offered from there
    on, an added one again. Its text is an instruction the mock does not read."""
    for block in blocks:
        tool = block.get("tool") if isinstance(block, dict) else None
        name = tool.get("name") if isinstance(tool, dict) and tool.get("type") == "tool_reference" else None
        if not isinstance(name, str):
            continue
        if block.get("type") == "tool_removal":
            removed[name] = None
        elif block.get("type") == "tool_addition":
            removed.pop(name, None)


def _asks_redacted(history: list[Message]) -> bool:
    """Whether the latest user text holds Anthropic's documented test prompt for redacted thinking."""
    latest = next((m.content for m in reversed(history) if m.role == "user" and m.content), None)
    return isinstance(latest, str) and _REDACTED_PROMPT in latest


_TAGS = ("auto", "any", "tool", "none")  # anthropic 2.14.0 types/tool_choice_param.py ToolChoiceParam's members' type


def _choice_shape(choice: Any) -> Any:
    """A tool_choice of a shape ToolChoiceParam leaves out (a string, another API's object), in toolchoice's words:
    the 400 carries the API's own where recorded (core/choice_shape_words.py)."""
    from .core.model import LedgerEntry, quoted

    if choice is None or isinstance(choice, dict) and choice.get("type") in _TAGS:
        return None
    tagged = isinstance(choice, dict) and isinstance(choice.get("type"), str)
    return LedgerEntry("error", "tool_choice.not_object" if not isinstance(choice, dict) else "tool_choice.shape"
                       if tagged else "tool_choice.untagged", f"tool_choice {quoted(choice)} is not a shape Anthropic's API takes (anthropic "
                       "2.14.0 types/tool_choice_param.py ToolChoiceParam): an object whose type is auto, any, tool "
                       "(with name) or none; this is another API's form (for required write {\"type\": \"any\"}, for "
                       "a named tool {\"type\": \"tool\", \"name\": NAME}): the API answers 400")


def _text_schema(config: Any) -> dict[str, Any] | None:
    """``output_config.format``'s schema (anthropic 2.14.0 ``types/json_output_format_param.py``: ``{type:
    json_schema, schema}``), which a text answer follows: pydantic-ai's ``output_type`` on Claude 5.x is sent so."""
    spec = config.get("format") if isinstance(config, dict) else None
    if isinstance(spec, dict) and spec.get("type") == "json_schema" and isinstance(spec.get("schema"), dict):
        return spec["schema"]
    return None


def _hosted(body: dict[str, Any]) -> tuple[Any, ...]:
    """The body's MCP servers (an mcp_toolset tool naming an mcp_servers entry) and code_execution tools as
    NativeTools (core/native_tools.py), so a request whose only tools are these is judged as the API takes it;
    an authorization_token the client sent is never kept. A field of the wrong type is the API's 400."""
    from .core.model import NativeTool
    from .core.native_tools import CODE_EXECUTION

    listed = body.get("mcp_servers")
    if listed is not None and not isinstance(listed, list):
        _malformed("mcp_servers", "list")
    servers: dict[str, str] = {}
    for index, server in enumerate(listed or ()):
        _check(server, f"mcp_servers.{index}", ("name", "url"), _SERVER_KINDS)
        if server.get("tool_configuration"):
            _check(server["tool_configuration"], f"mcp_servers.{index}.tool_configuration", (), _SERVER_CONFIG_KINDS)
        servers[server["name"]] = server["url"]
    out = []
    for index, tool in enumerate(body.get("tools") if isinstance(body.get("tools"), list) else ()):
        if not isinstance(tool, dict):
            continue
        if tool.get("type") == "mcp_toolset":
            where = f"tools.{index}"
            _check(tool, where, ("mcp_server_name",), _TOOLSET_KINDS)
            for name, config in (tool.get("configs") or {}).items():
                _check(config, f"{where}.configs.{name}", (), _TOOL_CONFIG_KINDS)
            if tool.get("default_config"):
                _check(tool["default_config"], f"{where}.default_config", (), _TOOL_CONFIG_KINDS)
            url = servers.get(tool["mcp_server_name"])
            if url is not None:
                out.append(NativeTool("mcp", {"type": "mcp", "server_label": tool["mcp_server_name"], "server_url": url}))
        elif tool.get("type") in CODE_EXECUTION:
            out.append(NativeTool(tool["type"]))
    return tuple(out)


# The kinds of the MCP connector's fields (beta/beta_request_mcp_server_url_definition_param.py,
# beta_request_mcp_server_tool_configuration_param.py, beta_mcp_toolset_param.py, beta_mcp_tool_config_param.py,
# beta_mcp_tool_default_config_param.py), checked so that a value of another type is the API's 400
_SERVER_KINDS = {"name": "string", "url": "string", "type": "string", "authorization_token": "string",
                 "tool_configuration": "object"}
_SERVER_CONFIG_KINDS = {"allowed_tools": "array of strings", "enabled": "boolean"}
_TOOLSET_KINDS = {"mcp_server_name": "string", "configs": "object of objects", "default_config": "object",
                  "cache_control": "object", "tools": "array"}
_TOOL_CONFIG_KINDS = {"defer_loading": "boolean", "enabled": "boolean"}
_WORDS = {"string": "a valid string", "boolean": "a valid boolean", "object": "a valid dictionary",
          "array": "a valid list", "list": "a valid list"}


def _check(entry: Any, where: str, required: tuple[str, ...], kinds: dict[str, str]) -> None:
    """A field missing or of the wrong type, in the API's (pydantic's) words; values are never quoted."""
    if not isinstance(entry, dict):
        _malformed(where, "object")
    for key in required:
        if key not in entry:
            raise MockMalformed(f"{where}.{key}: Field required")
        if entry[key] is None:
            _malformed(f"{where}.{key}", kinds[key])
    wrong = wrong_field(entry, kinds)
    if wrong is not None:
        field = re.sub(r"\[(\d+)\]", r".\1", wrong[0])  # pydantic's locations: list indexes as .N
        _malformed(f"{where}.{field}", wrong[1].partition(" of ")[0])


def _malformed(where: str, kind: str) -> None:
    raise MockMalformed(_pydantic_words(where, kind))


def _pydantic_words(where: str, kind: str) -> str:
    return f"{where}: Input should be {_WORDS[kind]}"


def _name_refusal(tools: Any) -> str | None:
    """The API's own 400 for a custom tool's name (fact anthropic.tool_name_length): past 128 characters,
    'tools.18.custom.name: String should have at most 128 characters' (anthropics/claude-code#96152); another
    character, "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"
    (home-assistant/core#147760)."""
    for index, tool in enumerate(tools if isinstance(tools, list) else []):
        name = tool.get("name") if isinstance(tool, dict) and tool.get("type") in (None, "custom") else None
        if not isinstance(name, str):
            continue
        if len(name) > 128:
            return f"tools.{index}.custom.name: String should have at most 128 characters"
        if not re.fullmatch(r"[a-zA-Z0-9_-]{1,128}", name):
            return f"tools.{index}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,128}}$'"
    return None


def mock_call_id(call: Any) -> str | None:
    """The id a tool_use block of the mock's answer carries (what a tool_result's tool_use_id answers; the line's
    calls[].id)."""
    return f"toolu_{call.id}"


def _mock_blocks(answer: Any) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    if answer.signature is not None and answer.redacted:  # types/redacted_thinking_block.py: the opaque data only
        blocks.append({"type": "redacted_thinking", "data": answer.signature})
    elif answer.signature is not None:
        blocks.append({"type": "thinking", "thinking": answer.thinking or "", "signature": answer.signature})
    if answer.text is not None:
        blocks.append({"type": "text", "text": answer.text})
    for call in answer.calls:
        blocks.append({"type": "tool_use", "id": mock_call_id(call), "name": call.name,
                       "input": call.arguments if call.arguments is not None else call.raw})
    native = answer.native
    if native is not None and native.get("type") == "mcp":  # beta/beta_mcp_tool_use_block.py, ..._result_block.py
        ident = f"mcptoolu_mock_{native['server_label']}"
        blocks += [{"type": "mcp_tool_use", "id": ident, "name": native["name"], "server_name": native["server_label"],
                    "input": {}},
                   {"type": "mcp_tool_result", "tool_use_id": ident, "is_error": False,
                    "content": [{"type": "text", "text": "toolchoice mock: MCP tool output"}]}]
    return blocks


def _mock_message(read: Any, number: int, content: list[dict[str, Any]], stop: str | None) -> dict[str, Any]:
    """A message object (anthropic-sdk-python types/message.py)."""
    return {"id": f"msg_mock{number}", "type": "message", "role": "assistant", "model": read.model or "mock",
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5 if stop else 1}}


def mock_reply(answer: Any, read: Any, number: int, body: dict[str, Any] | None = None) -> dict[str, Any]:
    return _mock_message(read, number, _mock_blocks(answer), "tool_use" if answer.calls else "end_turn")


def mock_events(answer: Any, read: Any, number: int, body: dict[str, Any]) -> list[tuple[str | None, Any]]:
    """Messages stream events, named by type (types/raw_message_stream_event.py)."""
    events: list[tuple[str | None, Any]] = []

    def add(kind: str, **fields: Any) -> None:
        events.append((kind, {"type": kind, **fields}))

    add("message_start", message=_mock_message(read, number, [], None))
    for index, block in enumerate(_mock_blocks(answer)):
        kind = block["type"]
        if kind == "thinking":
            add("content_block_start", index=index, content_block={"type": "thinking", "thinking": "", "signature": ""})
            add("content_block_delta", index=index, delta={"type": "thinking_delta", "thinking": block["thinking"]})
            add("content_block_delta", index=index, delta={"type": "signature_delta", "signature": block["signature"]})
        elif kind == "text":
            add("content_block_start", index=index, content_block={"type": "text", "text": ""})
            add("content_block_delta", index=index, delta={"type": "text_delta", "text": block["text"]})
        elif kind in ("redacted_thinking", "mcp_tool_use", "mcp_tool_result"):  # whole in their start event
            # (types/raw_content_block_start_event.py: content_block a RedactedThinkingBlock; no delta carries it)
            add("content_block_start", index=index, content_block=block)
        else:
            raw = next(c.raw for c in answer.calls if mock_call_id(c) == block["id"])
            add("content_block_start", index=index, content_block={**block, "input": {}})
            add("content_block_delta", index=index, delta={"type": "input_json_delta", "partial_json": raw})
        add("content_block_stop", index=index)
    add("message_delta", delta={"stop_reason": "tool_use" if answer.calls else "end_turn", "stop_sequence": None},
        usage={"output_tokens": 5})
    add("message_stop")
    return events


def mock_unparsed(exc: Exception) -> str:
    """The Messages API's 400 for a body that is not JSON names the parser's complaint after 'The request body is not
    valid JSON: ' (invalid_request_error; anthropics/claude-code#8272, 2025-09-27, and #6464: '... no low surrogate in
    string: line 1 column 37589 (char 37588)'; promptfoo/promptfoo#4489, 2025-06-14: '... unexpected character: line 8
    column 316 (char 466)'). The complaint after the colon is Python's json parser's, not the API's parser's words."""
    return f"The request body is not valid JSON: {exc}"


def mock_error(status: int, message: str) -> tuple[dict[str, Any], dict[str, str]]:
    """{"type":"error","error":{type,message},"request_id"} (tests/data/responses/errors/error-anthropic-*.json)."""
    return ({"type": "error", "error": {"type": _MOCK_ERRORS.get(status, "api_error"), "message": message},
             "request_id": "req_toolchoice_mock"}, {"request-id": "req_toolchoice_mock"})
