"""Load a scenario file (YAML, so JSON too) into a ``Scenario``, with errors that name the line.

The YAML is read by ``yaml_input`` (safe loader, no object tags, bounded) and walked by hand, so
every value keeps its position: a semantic error (an unknown tool in tool_choice, a tool result
that answers no call) points at the line that caused it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from . import limits as _limits
from .bounded import json_value
from .capabilities import PROVIDER_IDS
from .choice import did_you_mean, parse_tool_choice
from .model import (SETTINGS_KEYS, TOOL_FIELD_TYPES, HistoryCall, LedgerEntry, LoopResult, LoopSpec, LoopStep,
                    Message, ProviderSettings, ReasoningItem, Scenario, ThinkingSetting, Tool, ToolChoice,
                    ToolchoiceError)
from .yaml_input import CORE_TAG, Loc as _Loc, Reader as _Reader, composed, read_text, show as _show

TOP_KEYS = ("name", "description", "tools", "tool_choice", "parallel_tool_calls", "strict", "system",
            "messages", "providers", "loop")
TOOL_KEYS = ("name", "description", "parameters", "strict")
CUSTOM_TOOL_KEYS = ("name", "description", "format")
ROLES = ("user", "assistant", "tool")
LEADING_ROLES = ("system", "developer")  # accepted at the start of messages: they become the system prompt

def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file. Raises ToolchoiceError (one line, with file:line)."""
    return load_scenario_text(read_text(path), str(path))


def load_scenario_text(text: str, path: str = "<scenario>") -> Scenario:
    with composed(text, path) as (reader, root):
        return _built(reader, root)


def _built(r: _Reader, root: yaml.Node | None) -> Scenario:
    if root is None or (isinstance(root, yaml.ScalarNode) and root.value.strip() == ""):
        raise ToolchoiceError("the scenario is empty", path=r.path, line=1,
                              hint="start with tools:, tool_choice: and messages: (see configs/weather.yaml)")
    return _build(r, root)


def _build(r: _Reader, root: yaml.Node) -> Scenario:
    top = r.mapping(root, "the scenario", TOP_KEYS)
    tools, written_empty, notes = _tools(r, top.get("tools"))
    names = tuple(t.name for t in tools)

    choice: ToolChoice | None = None
    if "tool_choice" in top:
        _no_yaml11_word(r, top["tool_choice"])
        loc = r.loc(top["tool_choice"])
        choice = parse_tool_choice(r.value(top["tool_choice"]), names,
                                   lambda m, h=None: loc.fail(m, h))

    messages, leading = _messages(r, top.get("messages"))
    system = r.string(top["system"], "system", empty_ok=True) if "system" in top and r.value(top["system"]) is not None else None
    system_role = "system"
    if leading:
        if system is not None:
            raise leading[0][2].fail(f"a {leading[0][0]} message and the top-level system: key both set the "
                                     "system prompt", "keep one of them")
        system = "\n\n".join(content for _, content, _ in leading)
        roles = {role for role, _, _ in leading}
        system_role = "developer" if roles == {"developer"} else "system"
    parallel = r.boolean(top["parallel_tool_calls"], "parallel_tool_calls") if "parallel_tool_calls" in top else None
    strict = r.boolean(top["strict"], "strict") if "strict" in top else None
    providers = _providers(r, top.get("providers"))
    for key in ("name", "description"):
        if key in top and r.value(top[key]) is not None:
            r.string(top[key], key, empty_ok=True)
    loop = _loop(r, top["loop"], tools) if "loop" in top and r.value(top["loop"]) is not None else None
    return Scenario(path=r.path, tools=tools, tools_written_empty="tools" in top and not tools and written_empty,
                    tool_choice=choice, parallel_tool_calls=parallel, strict=strict, system=system,
                    messages=messages, providers=providers, notes=notes, loop=loop,
                    system_role=system_role)


def _no_yaml11_word(r: _Reader, node: yaml.Node) -> None:
    """``tool_choice: off`` / ``no`` / ``yes`` / ``on`` are YAML 1.1 booleans: refuse instead of guessing."""
    if not (isinstance(node, yaml.ScalarNode) and node.tag == CORE_TAG + "bool"):
        return
    word = node.value
    if word.lower() in ("true", "false"):
        return
    if r.value(node):
        hint = f'write true or required to require a tool call, or "{word}" for a tool named {word}'
    else:
        hint = f'write false to leave tool_choice unset, none to forbid tool calls, or "{word}" for a tool named {word}'
    raise r.loc(node).fail(f"tool_choice: {word} is a YAML boolean ({str(bool(r.value(node))).lower()})", hint)


def _tools(r: _Reader, node: yaml.Node | None) -> tuple[tuple[Tool, ...], bool, tuple[LedgerEntry, ...]]:
    if node is None:
        return (), False, ()
    if isinstance(node, yaml.ScalarNode) and r.value(node) is None:
        return (), False, ()
    items = r.sequence(node, "tools")
    tools: list[Tool] = []
    notes: list[LedgerEntry] = []
    first_line: dict[str, int] = {}
    for item in items:
        if _key_node(item, "from") is not None:  # tools from a file or an MCP server (imported on use)
            from .tool_import import import_tools

            imported = import_tools(r, item)
            batch, origin = imported.tools, f" (imported by from: {imported.source})"
            notes.extend(imported.notes)
        else:
            batch, origin = (_tool(r, item),), ""
        if len(tools) + len(batch) > _limits.get("tools"):
            raise r.loc(item).fail(f"more than {_limits.shown('tools')} tools in one scenario",
                                   _limits.raise_hint("tools"))
        for tool in batch:
            if tool.kind != "custom" and tool.parameters is not None:
                from .schema_check import check_tool, keyword_typos

                check_tool(tool.name, tool.parameters, path=r.path, line=r.loc(item).line)
                for where, word, meant in keyword_typos(tool.parameters):
                    notes.append(LedgerEntry("warning", "schema.keyword_typo", f"tool '{tool.name}': '{word}' (at "
                                             f"{where}) is not a JSON Schema keyword, so it is ignored; did you mean "
                                             f"'{meant}'?"))
            if tool.name in first_line:
                raise r.loc(item).fail(f"duplicate tool name '{tool.name}'{origin} (first declared on line "
                                       f"{first_line[tool.name]})", "tool names must be unique: rename or remove one")
            first_line[tool.name] = r.loc(item).line
            tools.append(tool)
    return tuple(tools), not items, tuple(notes)


def _tool(r: _Reader, node: yaml.Node) -> Tool:
    fields = r.mapping(node, "a tool")
    # Accept tools pasted in OpenAI's wrapped form, Responses' flat form (type: function beside
    # name) and Anthropic's form (input_schema, optional type: custom). OpenAI's custom (free-text)
    # tools are type: custom without input_schema/parameters, flat or wrapped in custom: {...}.
    wrapped = "function" in fields and set(fields) <= {"type", "function"}
    if ("type" in fields and r.value(fields["type"]) == "custom" and not wrapped
            and "input_schema" not in fields and "parameters" not in fields):
        return _custom_tool(r, node, fields)
    if "type" in fields and r.value(fields["type"]) not in (("function",) if wrapped else ("function", "custom")):
        raise r.loc(fields["type"]).fail("only function and custom tools are supported",
                                         "use type: function (or type: custom for a free-text tool)")
    if wrapped:
        fields = r.mapping(fields["function"], "function", TOOL_KEYS)
    elif "type" in fields:
        fields = {k: v for k, v in fields.items() if k != "type"}
    if "input_schema" in fields and "parameters" not in fields:
        fields = {("parameters" if k == "input_schema" else k): v for k, v in fields.items()}
    loc = r.loc(node)
    extras = {k: v for k, v in fields.items() if k in TOOL_FIELD_TYPES}
    fields = {k: v for k, v in fields.items() if k not in TOOL_FIELD_TYPES}
    unknown = [k for k in fields if k not in TOOL_KEYS]
    if unknown:
        known = TOOL_KEYS + tuple(TOOL_FIELD_TYPES)
        hint = did_you_mean(unknown[0], known) or f"known keys: {', '.join(known)}"
        where = _key_node(node, unknown[0]) or fields[unknown[0]]
        raise r.loc(where).fail(f"unknown key '{unknown[0]}' in a tool", hint)
    name, description = _name_and_description(r, loc, fields)
    parameters = None
    if "parameters" in fields and r.value(fields["parameters"]) is not None:
        pnode = fields["parameters"]
        parameters = r.value(pnode)
        if not isinstance(parameters, dict):
            raise r.loc(pnode).fail(f"parameters of tool '{name}' must be a JSON Schema object (a mapping)", None)
        if "type" in parameters and parameters["type"] != "object":
            raise r.loc(pnode).fail(f"parameters of tool '{name}' must describe an object, not type {parameters['type']!r}",
                                    "wrap the value in an object property")
    strict = r.boolean(fields["strict"], f"strict of tool '{name}'") if "strict" in fields else None
    return Tool(name=name, description=description, parameters=parameters, strict=strict,
                fields=_tool_fields(r, name, extras))


def _name_and_description(r: _Reader, loc: _Loc, fields: dict[str, yaml.Node]) -> tuple[str, str | None]:
    if "name" not in fields:
        raise loc.fail("a tool needs a name", "add name: my_tool")
    name = r.string(fields["name"], "a tool's name")
    description = None
    if "description" in fields and r.value(fields["description"]) is not None:
        description = r.string(fields["description"], f"description of tool '{name}'", empty_ok=True)
    return name, description


def _tool_fields(r: _Reader, name: str, extras: dict[str, yaml.Node]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, child in extras.items():
        value = _typed(r, child, TOOL_FIELD_TYPES[key], f"{key} of tool '{name}'")
        if value is None:
            continue
        if key == "input_examples" and not all(isinstance(v, dict) for v in value):
            raise r.loc(child).fail(f"input_examples of tool '{name}' must be a list of argument mappings",
                                    "write input_examples: [{city: Paris}]")
        out[key] = value
    return out


def _custom_tool(r: _Reader, node: yaml.Node, fields: dict[str, yaml.Node]) -> Tool:
    """OpenAI's custom tool: flat (Responses: name, description, format) or wrapped (Chat: custom: {...},
    whose grammar format nests {grammar: {syntax, definition}}); kept in the flat form."""
    if "custom" in fields:
        if set(fields) - {"type", "custom"}:
            extra = sorted(set(fields) - {"type", "custom"})[0]
            raise r.loc(fields[extra]).fail(f"unknown key '{extra}' beside custom in a custom tool",
                                            "put name, description and format inside custom: {...}")
        fields = r.mapping(fields["custom"], "custom", CUSTOM_TOOL_KEYS)
    else:
        fields = {k: v for k, v in fields.items() if k != "type"}
        unknown = [k for k in fields if k not in CUSTOM_TOOL_KEYS]
        if unknown:
            hint = did_you_mean(unknown[0], CUSTOM_TOOL_KEYS) or f"a custom tool takes {', '.join(CUSTOM_TOOL_KEYS)}"
            raise r.loc(_key_node(node, unknown[0]) or fields[unknown[0]]).fail(
                f"unknown key '{unknown[0]}' in a custom tool", hint)
    loc = r.loc(node)
    name, description = _name_and_description(r, loc, fields)
    form = None
    if "format" in fields and r.value(fields["format"]) is not None:
        form = _custom_format(r, name, fields["format"])
    return Tool(name=name, description=description, kind="custom", format=form)


def _custom_format(r: _Reader, name: str, node: yaml.Node) -> dict[str, Any]:
    value = r.value(node)
    fail = r.loc(node).fail
    if not isinstance(value, dict) or value.get("type") not in ("text", "grammar"):
        raise fail(f"format of custom tool '{name}' must be {{type: text}} or {{type: grammar, syntax, definition}}",
                   None)
    if value["type"] == "text":
        if set(value) != {"type"}:
            raise fail(f"format {{type: text}} of custom tool '{name}' takes no other key", None)
        return {"type": "text"}
    grammar = value.get("grammar") if isinstance(value.get("grammar"), dict) else value  # Chat nests it
    keys = set(value) - {"type"} if grammar is value else set(value) - {"type", "grammar"}
    if grammar is not value and keys:
        raise fail(f"format of custom tool '{name}': put syntax and definition inside grammar, not beside it", None)
    if grammar is value and keys - {"syntax", "definition"}:
        raise fail(f"format of custom tool '{name}' has unknown key '{sorted(keys - {'syntax', 'definition'})[0]}'",
                   "a grammar format takes syntax and definition")
    syntax, definition = grammar.get("syntax"), grammar.get("definition")
    if syntax not in ("lark", "regex"):
        raise fail(f"grammar syntax of custom tool '{name}' must be lark or regex, not {_show(syntax)}", None)
    if not isinstance(definition, str) or not definition:
        raise fail(f"grammar of custom tool '{name}' needs a definition (a non-empty string)", None)
    return {"type": "grammar", "syntax": syntax, "definition": definition}


def _messages(r: _Reader, node: yaml.Node | None) -> tuple[tuple[Message, ...], list[tuple[str, str, _Loc]]]:
    """The conversation, and the system/developer messages it starts with (role, content, where)."""
    if node is None or (isinstance(node, yaml.ScalarNode) and r.value(node) is None):
        return (), []
    messages: list[Message] = []
    leading: list[tuple[str, str, _Loc]] = []  # system/developer messages before the conversation
    calls: dict[str, tuple[str, int]] = {}  # id -> (tool name, line)
    answered: set[str] = set()
    for item in r.sequence(node, "messages"):
        loc = r.loc(item)
        fields = r.mapping(item, "a message")
        if "role" not in fields:
            raise loc.fail("a message needs a role", "role: user, assistant or tool")
        role = r.value(fields["role"])
        if role in LEADING_ROLES:
            if messages:
                raise r.loc(fields["role"]).fail(f"a {role} message after the conversation started",
                                                 f"put {role} messages first, or use the top-level system: key")
            _only(r, item, ("role", "content"), f"a {role} message")
            if "content" not in fields:
                raise loc.fail(f"a {role} message needs content", None)
            leading.append((role, r.string(fields["content"], "content", empty_ok=True), loc))
            continue
        if role not in ROLES:
            hint = did_you_mean(str(role), ROLES + LEADING_ROLES) or "role: user, assistant or tool"
            raise r.loc(fields["role"]).fail(f"unknown message role {role!r}", hint)
        if role == "user":
            _only(r, item, ("role", "content"), "a user message")
            if "content" not in fields:
                raise loc.fail("a user message needs content", None)
            messages.append(Message("user", content=r.string(fields["content"], "content", empty_ok=True)))
        elif role == "assistant":
            messages.append(_assistant(r, fields, loc, calls))
        else:
            messages.append(_tool_result(r, fields, loc, calls, answered))
    return tuple(messages), leading


def _only(r: _Reader, mapping: yaml.MappingNode, allowed: tuple[str, ...], what: str) -> None:
    """Refuse keys outside ``allowed``, pointing at the key (``mapping`` was read with r.mapping)."""
    for key_node, _ in mapping.value:
        if key_node.value not in allowed:
            hint = did_you_mean(key_node.value, allowed) or f"known keys: {', '.join(allowed)}"
            raise r.loc(key_node).fail(f"unknown key '{key_node.value}' in {what}", hint)


def _key_node(mapping: yaml.Node, key: str) -> yaml.Node | None:
    if isinstance(mapping, yaml.MappingNode):
        return next((k for k, _ in mapping.value if k.value == key), None)
    return None


ASSISTANT_KEYS = ("role", "content", "tool_calls", "reasoning", "reasoning_content")
CALL_KEYS = ("id", "name", "arguments", "signature", "thought_signature", "thoughtSignature")
REASONING_KEYS = ("family", "text", "signature", "encrypted", "redacted", "id", "summary", "position")
_SIGNATURE_KEYS = ("signature", "thought_signature", "thoughtSignature")


def _assistant(r: _Reader, fields: dict[str, yaml.Node], loc: _Loc, calls: dict[str, tuple[str, int]]) -> Message:
    _only(r, loc.node, ASSISTANT_KEYS, "an assistant message")
    content = None
    if "content" in fields and r.value(fields["content"]) is not None:
        content = r.string(fields["content"], "content", empty_ok=True)
    history: list[HistoryCall] = []
    if "tool_calls" in fields:
        for call_node in r.sequence(fields["tool_calls"], "tool_calls"):
            call_loc = r.loc(call_node)
            call = r.mapping(call_node, "a tool call", CALL_KEYS)
            for key in ("id", "name"):
                if key not in call:
                    raise call_loc.fail(f"a tool call needs {key}", "write {id: call_1, name: read_file, arguments: {...}}")
            call_id = r.string(call["id"], "a tool call id")
            name = r.string(call["name"], "a tool call name")
            if call_id in calls:
                raise r.loc(call["id"]).fail(f"tool call id '{call_id}' is used twice (first on line {calls[call_id][1]})",
                                             "give each call its own id")
            arguments: Any = {}
            if "arguments" in call:
                arguments = r.value(call["arguments"])
                if isinstance(arguments, str):
                    try:
                        arguments = json_value(arguments)
                    except ValueError:
                        raise r.loc(call["arguments"]).fail("arguments is a string but not JSON", "write a mapping") from None
                if arguments is None:
                    arguments = {}
                if not isinstance(arguments, dict):
                    raise r.loc(call["arguments"]).fail("arguments must be a mapping", None)
            calls[call_id] = (name, call_loc.line)
            written = [k for k in _SIGNATURE_KEYS if k in call]
            if len(written) > 1:
                raise r.loc(call[written[1]]).fail(f"a tool call has both {written[0]} and {written[1]}", "keep one")
            signature = r.string(call[written[0]], f"{written[0]} of a tool call") if written else None
            history.append(HistoryCall(id=call_id, name=name, arguments=arguments, signature=signature))
    reasoning = _reasoning(r, fields, len(history))
    if content is None and not history:
        raise loc.fail("an assistant message needs content or tool_calls", None)
    return Message("assistant", content=content, tool_calls=tuple(history), reasoning=reasoning)


def _reasoning(r: _Reader, fields: dict[str, yaml.Node], calls: int) -> tuple[ReasoningItem, ...]:
    """``reasoning:`` items (neutral, or as an API returned them) and ``reasoning_content:``."""
    items: list[ReasoningItem] = []
    if "reasoning" in fields and r.value(fields["reasoning"]) is not None:
        for node in r.sequence(fields["reasoning"], "reasoning"):
            items.append(_reasoning_item(r, node, calls))
    if "reasoning_content" in fields and r.value(fields["reasoning_content"]) is not None:
        node = fields["reasoning_content"]
        items.append(ReasoningItem("openai-chat", text=r.string(node, "reasoning_content", empty_ok=True)))
    return tuple(items)


class _ReasoningBlock:
    """A reasoning item as written, for the provider module that knows its native spelling
    (``reasoning_item(block)``): its value, and checks that fail at its line."""

    def __init__(self, r: _Reader, node: yaml.Node) -> None:
        self.r, self.node, self.loc = r, node, r.loc(node)
        self.value: dict[str, Any] = r.value(node)

    def only(self, allowed: tuple[str, ...], what: str) -> None:
        _only(self.r, self.node, allowed, what)

    def text(self, key: str, where: dict[str, Any] | None = None) -> str | None:
        found = (self.value if where is None else where).get(key)
        if found is not None and not isinstance(found, str):
            raise self.loc.fail(f"{key} of a reasoning item must be a string, not {_show(found)}", None)
        return found

    def fail(self, message: str) -> ToolchoiceError:
        return self.loc.fail(message, None)


def _reasoning_item(r: _Reader, node: yaml.Node, calls: int) -> ReasoningItem:
    """One reasoning item: neutral (``family:`` and the fields), or pasted as an API returned it (each
    provider module reads its own family's spelling: ``reasoning_item``)."""
    from .registry import family_modules, reasoning_families

    loc = r.loc(node)
    fields = r.mapping(node, "a reasoning item")
    block = _ReasoningBlock(r, node)
    value, text = block.value, block.text
    for module in family_modules():
        native = getattr(module, "reasoning_item", None)
        item = native(block) if native is not None else None
        if item is not None:
            return item
    _only(r, node, REASONING_KEYS, "a reasoning item")
    if "family" not in fields:
        families = reasoning_families()
        raise loc.fail("a reasoning item needs family (the API that wrote it)",
                       f"family: {' | '.join(families)}, or paste the block as the API returned it")
    family = r.value(fields["family"])
    if not any(module.REASONING_FAMILY == family for module in family_modules()):
        families = reasoning_families()
        raise r.loc(fields["family"]).fail(f"unknown reasoning family {family!r}",
                                           did_you_mean(str(family), families) or f"family: {' | '.join(families)}")
    summary = value.get("summary") or ()
    if isinstance(summary, str) or not all(isinstance(t, str) for t in summary):
        raise r.loc(fields["summary"]).fail("summary must be a list of strings", None)
    position = value.get("position", 0)
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position <= calls:
        raise r.loc(fields["position"]).fail(f"position must be a whole number from 0 to {calls} (the number of "
                                             "tool calls before this item)", None)
    redacted = r.boolean(fields["redacted"], "redacted") if "redacted" in fields else False
    item = ReasoningItem(family, text=text("text"), signature=text("signature"), encrypted=text("encrypted"),
                         redacted=bool(redacted), id=text("id"), summary=tuple(summary), position=position)
    if item.text is None and item.signature is None and item.encrypted is None:
        raise loc.fail("a reasoning item needs text, signature or encrypted", None)
    return item


def _tool_result(r: _Reader, fields: dict[str, yaml.Node], loc: _Loc, calls: dict[str, tuple[str, int]],
                 answered: set[str]) -> Message:
    _only(r, loc.node, ("role", "tool_call_id", "content", "name", "is_error"), "a tool message")
    if "tool_call_id" not in fields:
        raise loc.fail("a tool message needs tool_call_id", "name the id of the assistant's tool call it answers")
    call_id = r.string(fields["tool_call_id"], "tool_call_id")
    if call_id not in calls:
        known = ", ".join(calls) or "none so far"
        raise r.loc(fields["tool_call_id"]).fail(
            f"tool result answers tool_call_id '{call_id}', which matches no earlier assistant tool call (earlier ids: {known})",
            did_you_mean(call_id, list(calls)) or "add the assistant message with that call before it")
    if call_id in answered:
        raise r.loc(fields["tool_call_id"]).fail(f"tool call '{call_id}' already has a result", "remove the second result")
    answered.add(call_id)
    tool_name = calls[call_id][0]
    if "name" in fields:
        given = r.string(fields["name"], "name")
        if given != tool_name:
            raise r.loc(fields["name"]).fail(f"name '{given}' differs from the call's tool '{tool_name}'", "drop name: or fix it")
    content = ""
    parts = None
    if "content" in fields:
        value = r.value(fields["content"])
        if _content_parts(value):
            parts = tuple(value)  # Responses takes these as they are; others get the JSON text, as before
        if isinstance(value, (dict, list)):
            content = json.dumps(value, ensure_ascii=False)
        elif value is None:
            content = ""
        else:
            content = value if isinstance(value, str) else json.dumps(value)
    is_error = bool(r.boolean(fields["is_error"], "is_error")) if "is_error" in fields else False
    return Message("tool", content=content, tool_call_id=call_id, tool_name=tool_name, is_error=is_error,
                   parts=parts)


_PART_TYPES = ("input_text", "input_image", "input_file")


def _content_parts(value: Any) -> bool:
    """A non-empty list of Responses content parts ({type: input_text|input_image|input_file, ...})."""
    return (isinstance(value, list) and bool(value)
            and all(isinstance(p, dict) and p.get("type") in _PART_TYPES for p in value))


_SETTING_TYPES: dict[str, tuple[type, ...]] = {
    "model": (str,), "base_url": (str,), "max_tokens": (int,), "temperature": (int, float), "thinking": (bool,),
    "deployment": (str,), "endpoint": (str,), "api_version": (str,), "region": (str,), "api_key_env": (str,),
    "headers": (dict,), "extra": (dict,), "require_parameters": (bool,),
    "schema_form": (str,), "rules": (dict,),
}
_SETTING_CHOICES: dict[str, tuple[str, ...]] = {"schema_form": ("auto", "parameters", "parametersJsonSchema")}
EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
_THINKING_HINT = ("thinking: true | false | adaptive | {budget: 4096} | {effort: high} | "
                  "{type: adaptive, effort: medium}")
_WANTED = {(str,): "a string", (int,): "an integer", (int, float): "a number", (bool,): "true or false",
           (dict,): "a mapping"}


_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an HTTP header name (RFC 9110 token)


def _check_header(r: _Reader, pid: str, name_node: yaml.Node, value_node: yaml.Node) -> None:
    """A header that no HTTP client can send is bad input here, not a failure at send time."""
    name, value = r.value(name_node), r.value(value_node)
    if not _TOKEN.fullmatch(name):
        raise r.loc(name_node).fail(f"providers.{pid}.headers: {name!r} is not a valid HTTP header name",
                                    "letters, digits and - only")
    if any(ord(ch) < 32 and ch != "\t" or ord(ch) == 127 for ch in value):
        raise r.loc(value_node).fail(f"providers.{pid}.headers.{name} holds a line break or control character, "
                                     "which no HTTP header can carry", "keep the value on one line")
    if any(ord(ch) > 255 for ch in value) or value != value.strip():
        raise r.loc(value_node).fail(f"providers.{pid}.headers.{name} must be plain text without spaces at its "
                                     "ends (HTTP header values are Latin-1 bytes)", None)


def _typed(r: _Reader, node: yaml.Node, types: tuple[type, ...], what: str) -> Any:
    """The node's value (None when written null), refused in one line unless it is of ``types``."""
    value = r.value(node)
    if value is not None and (isinstance(value, bool) and bool not in types or not isinstance(value, types)):
        raise r.loc(node).fail(f"{what} must be {_WANTED[types]}, not {_show(value)}", None)
    return value


def _providers(r: _Reader, node: yaml.Node | None) -> dict[str, ProviderSettings]:
    if node is None or (isinstance(node, yaml.ScalarNode) and r.value(node) is None):
        return {}
    out: dict[str, ProviderSettings] = {}
    entries = r.mapping(node, "providers")  # a mapping with string keys, none twice
    for key_node, _ in node.value:
        pid = key_node.value
        if pid not in PROVIDER_IDS:
            hint = did_you_mean(pid, PROVIDER_IDS) or f"providers: {', '.join(PROVIDER_IDS)}"
            raise r.loc(key_node).fail(f"unknown provider '{pid}'", hint)
    for pid, value_node in entries.items():
        if isinstance(value_node, yaml.ScalarNode) and r.value(value_node) is None:
            out[pid] = ProviderSettings()
            continue
        fields = r.mapping(value_node, f"providers.{pid}", SETTINGS_KEYS)
        values: dict[str, Any] = {}
        for key, child in fields.items():
            if key == "thinking" and not isinstance(r.value(child), (bool, type(None))):
                values["thinking"], values["thinking_mode"] = _thinking(r, child, pid, r.value(child))
                continue
            value = _typed(r, child, _SETTING_TYPES[key], f"providers.{pid}.{key}")
            if value is None:
                continue
            if key == "rules":
                values["rules"] = _rules(r, child, pid)
                continue
            if key == "headers":
                for name_node, header_node in child.value:
                    if not isinstance(r.value(header_node), str):
                        hint = (f'quote it: {name_node.value}: "{header_node.value}"'
                                if isinstance(header_node, yaml.ScalarNode) else None)
                        raise r.loc(header_node).fail(f"providers.{pid}.headers values must be strings", hint)
                    _check_header(r, pid, name_node, header_node)
            if key == "api_key_env" and not re.fullmatch(r"[A-Z_][A-Z0-9_]*", value):
                raise r.loc(child).fail(f"providers.{pid}.api_key_env must name an environment variable in upper "
                                        f"case (A-Z, 0-9, _), not {_show(value)}", "e.g. api_key_env: MY_PROXY_KEY")
            if key in _SETTING_CHOICES and value not in _SETTING_CHOICES[key]:
                raise r.loc(child).fail(f"providers.{pid}.{key} must be one of {', '.join(_SETTING_CHOICES[key])}, "
                                        f"not {_show(value)}", did_you_mean(value, _SETTING_CHOICES[key]))
            if key == "max_tokens" and value < 1:
                raise r.loc(child).fail(f"providers.{pid}.max_tokens must be at least 1", None)
            values[key] = value
        out[pid] = ProviderSettings(**values)
    return out


def _thinking(r: _Reader, node: yaml.Node, pid: str, value: Any) -> tuple[bool, ThinkingSetting]:
    """The richer thinking forms; ``thinking`` keeps the on/off meaning every translator already reads."""
    where = f"providers.{pid}.thinking"
    if value == "adaptive":
        return True, ThinkingSetting("adaptive")
    if not isinstance(value, dict):
        raise r.loc(node).fail(f"{where} must be true or false, not {_show(value)}", _THINKING_HINT)
    fields = r.mapping(node, where, ("type", "budget", "effort"))
    kind = value.get("type", "on")
    kinds = {"on": "on", "enabled": "on", "adaptive": "adaptive", "off": "off", "disabled": "off"}
    if isinstance(kind, bool):
        kind = "on" if kind else "off"
    if kind not in kinds:
        raise r.loc(fields["type"]).fail(f"{where}.type must be enabled, adaptive or disabled, not {_show(kind)}", None)
    budget = value.get("budget")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 0):
        raise r.loc(fields["budget"]).fail(f"{where}.budget must be a whole number of tokens, not {_show(budget)}", None)
    effort = value.get("effort")
    if effort is not None and effort not in EFFORTS:
        raise r.loc(fields["effort"]).fail(f"{where}.effort must be one of {', '.join(EFFORTS)}, not {_show(effort)}",
                                           did_you_mean(str(effort), EFFORTS))
    mode = kinds[kind]
    if effort == "none" and "type" not in value:
        mode = "off"  # effort none is OpenAI's and DeepSeek's word for no reasoning
    if mode == "off" and budget:
        raise r.loc(fields["budget"]).fail(f"{where} is off but has a budget", "drop budget or the type")
    return mode != "off", ThinkingSetting(mode, budget, effort)  # type: ignore[arg-type]


def _rules(r: _Reader, node: yaml.Node, pid: str) -> dict[str, Any]:
    from .model_rules import RULE_KEYS, check_override

    out: dict[str, Any] = {}
    for key, child in r.mapping(node, f"providers.{pid}.rules").items():
        value = r.value(child)
        problem = check_override(key, value)
        if problem:
            where = child if key in RULE_KEYS else _key_node(node, key) or child
            raise r.loc(where).fail(f"providers.{pid}.{problem}",
                                    did_you_mean(key, tuple(RULE_KEYS)) if key not in RULE_KEYS
                                    else RULE_KEYS[key][1])
        out[key] = value
    return out


# ---- loop: (toolchoice run) ----------------------------------------------------------------

LOOP_KEYS = ("max_steps", "steps", "stop", "results", "narrow", "after_call")
STEP_KEYS = ("tool_choice", "tools")
_LOOP_EXAMPLE = "see configs/planner-loop.yaml"


def _loop(r: _Reader, node: yaml.Node, tools: tuple[Tool, ...]) -> LoopSpec:
    """The ``loop:`` section: steps (tool_choice and tools offered per step; the last repeats),
    max_steps, stop (``when: no_tool_call`` or ``tool: NAME``, ``repeated_calls: K``), results per tool,
    narrow and after_call (core/loop_policy.py)."""
    from .loop_policy import AFTER_CALL, NARROW, read_word

    fields = r.mapping(node, "loop", LOOP_KEYS)
    names = tuple(t.name for t in tools)
    max_steps = 10
    if "max_steps" in fields:
        value = r.value(fields["max_steps"])
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise r.loc(fields["max_steps"]).fail(f"loop.max_steps must be a whole number of at least 1, not {_show(value)}",
                                                  "the loop sends at least one request")
        max_steps = value
    steps: list[LoopStep] = []
    if "steps" in fields and r.value(fields["steps"]) is not None:
        items = r.sequence(fields["steps"], "loop.steps")
        if not items:
            raise r.loc(fields["steps"]).fail("loop.steps is empty", "give at least one {tool_choice: ...} or leave steps out")
        steps = [_loop_step(r, item, number, names) for number, item in enumerate(items, 1)]
    stop_tool, repeated = (_loop_stop(r, fields["stop"], names) if "stop" in fields and r.value(fields["stop"]) is not None
                           else (None, None))
    results: dict[str, LoopResult] = {}
    if "results" in fields and r.value(fields["results"]) is not None:
        entries = r.mapping(fields["results"], "loop.results")
        for key_node, value_node in fields["results"].value:
            name = key_node.value
            tool = next((t for t in tools if t.name == name), None)
            if tool is None:
                hint = did_you_mean(name, names) or (f"declared tools: {', '.join(names)}" if names else "declare it under tools:")
                raise r.loc(key_node).fail(f"loop.results has an entry for '{name}', which is not a declared tool", hint)
            results[name] = _loop_result(r, entries[name], tool, allow_list=True)
    policy = {key: read_word(r, fields[key], key, words) for key, words in (("narrow", NARROW), ("after_call", AFTER_CALL))
              if key in fields}
    return LoopSpec(max_steps=max_steps, steps=tuple(steps), stop_tool=stop_tool, results=results,
                    raw=r.value(node), repeated_calls=repeated, **policy)


def _loop_step(r: _Reader, node: yaml.Node, number: int, names: tuple[str, ...]) -> LoopStep:
    fields = r.mapping(node, f"loop.steps[{number}]", STEP_KEYS)
    offered: tuple[str, ...] | None = None
    if "tools" in fields:
        offered_list = []
        for item in r.sequence(fields["tools"], f"loop.steps[{number}].tools"):
            name = r.string(item, "a tool name")
            if name not in names:
                hint = did_you_mean(name, names) or (f"declared tools: {', '.join(names)}" if names else "declare it under tools:")
                raise r.loc(item).fail(f"loop step {number} offers '{name}', which is not a declared tool", hint)
            offered_list.append(name)
        offered = tuple(offered_list)
    choice: ToolChoice | None = None
    has_choice = "tool_choice" in fields
    if has_choice:
        _no_yaml11_word(r, fields["tool_choice"])
        loc = r.loc(fields["tool_choice"])
        choice = parse_tool_choice(r.value(fields["tool_choice"]), names,
                                   lambda m, h=None: loc.fail(f"loop step {number}: {m}", h))
        wanted = (choice.name,) if choice is not None and choice.mode == "named" else (
            choice.allowed if choice is not None and choice.mode == "allowed" else ())
        missing = [n for n in wanted if offered is not None and n not in offered]
        if missing:
            raise loc.fail(f"loop step {number}: tool_choice names '{missing[0]}', which this step's tools do not offer",
                           f"add it to tools: [{', '.join((*(offered or ()), missing[0]))}]")
    return LoopStep(tool_choice=choice, has_choice=has_choice, tools=offered)


def _loop_stop(r: _Reader, node: yaml.Node, names: tuple[str, ...]) -> tuple[str | None, int | None]:
    """(the stop tool, stop.repeated_calls), each None when not written."""
    from .loop_policy import read_repeated

    fields = r.mapping(node, "loop.stop", ("when", "tool", "repeated_calls"))
    repeated = read_repeated(r, fields.pop("repeated_calls")) if "repeated_calls" in fields else None
    if set(fields) == {"when"}:
        if r.value(fields["when"]) != "no_tool_call":
            raise r.loc(fields["when"]).fail(f"loop.stop.when must be no_tool_call, not {_show(r.value(fields['when']))}",
                                             "or write stop: {tool: NAME} to end the loop when NAME is called")
        return None, repeated
    if set(fields) == {"tool"}:
        name = r.string(fields["tool"], "loop.stop.tool")
        if name not in names:
            hint = did_you_mean(name, names) or (f"declared tools: {', '.join(names)}" if names else "declare it under tools:")
            raise r.loc(fields["tool"]).fail(f"loop.stop.tool '{name}' is not a declared tool", hint)
        return name, repeated
    if not fields and repeated is not None:
        return None, repeated
    raise r.loc(node).fail("loop.stop takes when: no_tool_call or tool: NAME (one of them), and repeated_calls: K", None)


def _loop_result(r: _Reader, node: yaml.Node, tool: Tool, *, allow_list: bool) -> LoopResult:
    if isinstance(node, yaml.SequenceNode) and allow_list:
        items = [_loop_result(r, item, tool, allow_list=False) for item in r.sequence(node, f"loop.results.{tool.name}")]
        if not items:
            raise r.loc(node).fail(f"loop.results.{tool.name} is an empty list", "give one result per expected call")
        return LoopResult("list", tuple(items))
    if isinstance(node, yaml.MappingNode) and len(node.value) == 1 and node.value[0][0].value in ("template", "error"):
        key, child = node.value[0][0].value, node.value[0][1]
        text = r.string(child, f"loop.results.{tool.name}.{key}", empty_ok=True)
        if key == "error":
            return LoopResult("error", text)
        _check_template(r, child, text, tool)
        return LoopResult("template", text)
    value = r.value(node)
    content = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return LoopResult("literal", content)


def _check_template(r: _Reader, node: yaml.Node, text: str, tool: Tool) -> None:
    """Every ``{field}`` must name an argument (a property of the tool's parameters)."""
    import string

    properties = (tool.parameters or {}).get("properties")
    known = tuple(properties) if isinstance(properties, dict) else ()
    try:
        fields = [(name, spec, conv) for _, name, spec, conv in string.Formatter().parse(text) if name is not None]
    except ValueError as exc:
        raise r.loc(node).fail(f"loop.results.{tool.name}.template is not a valid template: {exc}",
                               "write {argument} for a field, {{ and }} for literal braces") from None
    for name, spec, conv in fields:
        if not name or spec or conv or not name.isidentifier():
            raise r.loc(node).fail(f"loop.results.{tool.name}.template: {{{name}{'!' + conv if conv else ''}"
                                   f"{':' + spec if spec else ''}}} is not a plain {{argument}} field",
                                   "write {argument}; {{ and }} for literal braces")
        if name not in known:
            hint = did_you_mean(name, known) or (f"its arguments: {', '.join(known)}" if known else
                                                 f"'{tool.name}' takes no arguments")
            raise r.loc(node).fail(f"loop.results.{tool.name}.template names '{{{name}}}', which is not an argument "
                                   f"of '{tool.name}'", hint)
