"""The ``messages:`` of a scenario: the conversation so far (user, assistant with its tool calls and
reasoning items, tool results), and the system/developer messages it may start with.

A reasoning item pasted as an API returned it is read by that family's provider module
(``reasoning_item``), reached through the registry.
"""

from __future__ import annotations

import functools
import json
from typing import Any, NamedTuple

import yaml

from .bounded import Unreadable, json_value
from .choice import did_you_mean
from .model import HistoryCall, Message, ReasoningItem, ToolchoiceError
from .yaml_input import Loc as _Loc, Reader as _Reader, key_node as _key_node, only_keys, show as _show

ROLES = ("user", "assistant", "tool")
LEADING_ROLES = ("system", "developer")  # accepted at the start of messages: they become the system prompt
# roles frameworks write, and the neutral role each is: (role, whose word); the APIs' own are their rows' (_pasted)
_FRAMEWORK_ROLES = {"human": ("user", "LangChain"), "ai": ("assistant", "LangChain")}
# a list where a message's text goes: content blocks pasted as an API takes them (Anthropic's, OpenAI's parts)
_BLOCKS_HINT = ("write the text as content: \"...\", a tool_use as the assistant message's tool_calls: "
                "[{id: call_1, name: NAME, arguments: {...}}], a tool_result as {role: tool, tool_call_id: call_1, "
                "content: ...}; or convert a request your agent sent: toolchoice trace REQUEST.json -p PROVIDER "
                "(docs/traces.md, \"A saved request as a scenario\")")


class _Pasted(NamedTuple):
    """The APIs' own forms a scenario may have pasted, as their rows declare them (``marks.pasted``), with the
    provider id whose ``trace`` converts a request in that form: the system prompt's forms ("parts", "blocks") and
    top-level keys, the message form with ``parts`` (its contents'), and role words."""
    system_forms: dict[str, tuple[str, str]]  # form → (whose, provider id)
    system_keys: tuple[tuple[str, str, str], ...]  # (key, whose, provider id)
    message_parts: tuple[str, str] | None  # (whose, provider id)
    roles: dict[str, tuple[str, str]]  # role → (ours, whose)
    call_wrappers: tuple[tuple[str, str, str], ...]  # (key, whose, the call's shape)


@functools.lru_cache(maxsize=None)
def _pasted() -> _Pasted:
    from .capabilities import CAPABILITIES

    rows = [(pid, cap.marks.pasted) for pid, cap in CAPABILITIES.items() if cap.marks.pasted is not None]
    return _Pasted({p.system_form: (p.name, pid) for pid, p in rows if p.system_form},
                   tuple((key, p.name, pid) for pid, p in rows for key in p.system_keys),
                   next(((p.name, pid) for pid, p in rows if p.message_parts), None),
                   {**_FRAMEWORK_ROLES, **{role[0]: (role[1], role[2] if len(role) > 2 else p.name)
                                           for pid, p in rows for role in p.roles}},
                   tuple((p.call_wrapper, p.name, p.call_form) for pid, p in rows if p.call_wrapper))


def _system_hint(provider: str, message: bool) -> str:
    written = ('content: "..." or as the top-level system: "..."' if message else
               'system: "..." or as a first message {role: system, content: "..."}')
    return (f"write the text as {written}; or convert a request your agent sent: toolchoice trace REQUEST.json "
            f"-p {provider} (docs/traces.md, \"A saved request as a scenario\")")


def refuse_foreign_system_key(r: _Reader, root: yaml.Node) -> None:
    """An API's own top-level key for the system prompt (its row's ``marks.pasted.system_keys``: Gemini's
    ``systemInstruction:``) at a scenario's top: said as the scenario's ``system:``."""
    for key, whose, provider in _pasted().system_keys:
        if (node := _key_node(root, key)) is not None:
            raise r.loc(node).fail(f"unknown key '{key}' in the scenario ({whose}'s system instruction)",
                                   _system_hint(provider, message=False))


def read_system(r: _Reader, node: yaml.Node) -> str:
    """The top-level ``system:`` text; an API's own form there (``{parts: [...]}``, a list of text blocks: its row's
    ``marks.pasted.system_form``) is said as what it is, with the way to write it."""
    value = r.value(node)
    form = ("parts" if isinstance(value, dict) and "parts" in value else
            "blocks" if isinstance(value, list) and any(isinstance(b, dict) for b in value) else None)
    if form is not None and form in _pasted().system_forms:
        title, provider = _pasted().system_forms[form]
        shape = "{parts: [...]}" if form == "parts" else "a list of content blocks"
        raise r.loc(node).fail(f"system is text, not {shape} ({title}'s form)", _system_hint(provider, message=False))
    return r.string(node, "system", empty_ok=True)


def _text(r: _Reader, node: yaml.Node, role: str) -> str:
    """A message's text; a list there (content blocks as an API takes them) is said as what it is."""
    value = r.value(node)
    if isinstance(value, list) and any(isinstance(b, dict) for b in value):  # `[redacted]`: quoting it is the fix
        kinds = sorted({str(b["type"]) for b in value if isinstance(b, dict) and isinstance(b.get("type"), str)})
        raise r.loc(node).fail(f"{'an' if role == 'assistant' else 'a'} {role} message's content is text, not a list "
                               "of content blocks"
                               + (f" ({', '.join(kinds)})" if kinds else ""), _BLOCKS_HINT)
    return r.string(node, "content", empty_ok=True)


class Reading:
    """``read_messages``' state after a list's messages: the messages read, the system/developer messages they start
    with, the calls made so far (id -> (tool name, line)) and those answered. Given to ``read_messages``, it is carried
    on: a list that starts with the messages it read is read from where they end (saved_prefix: a recorded agent's
    calls, each the previous one's messages and more)."""

    __slots__ = ("messages", "leading", "calls", "answered")

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.leading: list[tuple[str, str, _Loc]] = []
        self.calls: dict[str, tuple[str, int]] = {}
        self.answered: set[str] = set()

    def copy(self) -> Reading:
        other = Reading()
        other.messages, other.leading = list(self.messages), list(self.leading)
        other.calls, other.answered = dict(self.calls), set(self.answered)
        return other


def read_messages(r: _Reader, node: yaml.Node | None, reading: Reading | None = None
                  ) -> tuple[tuple[Message, ...], list[tuple[str, str, _Loc]]]:
    """The conversation, and the system/developer messages it starts with (role, content, where). ``reading``: the
    state of the messages before ``node``'s, carried on (it gets those read here)."""
    reading = Reading() if reading is None else reading
    if node is None or (isinstance(node, yaml.ScalarNode) and r.value(node) is None):
        return tuple(reading.messages), reading.leading
    messages = reading.messages
    leading = reading.leading  # system/developer messages before the conversation
    calls = reading.calls  # id -> (tool name, line)
    answered = reading.answered
    for item in r.sequence(node, "messages", "write each message as a list item: - {role: user, content: ...}"):
        loc = r.loc(item)
        fields = r.mapping(item, "a message")
        if "role" not in fields:
            typo = next(((key, hint) for key in fields if (hint := did_you_mean(str(key), ("role",)))), None)
            if typo is not None:  # `rol: user`: the key named, where it is
                raise r.loc(_key_node(item, typo[0]) or fields[typo[0]]).fail(
                    f"a message needs a role: '{typo[0]}' is not a message key", typo[1])
            raise loc.fail("a message needs a role", "role: user, assistant or tool")
        role = r.value(fields["role"])
        if role in LEADING_ROLES:
            if messages:
                raise r.loc(fields["role"]).fail(f"a {role} message after the conversation started",
                                                 f"put {role} messages first, or use the top-level system: key")
            parts = _pasted().message_parts  # an API's {parts: [{text}]} (Gemini's systemInstruction)
            if parts is not None and "parts" in fields and "content" not in fields:
                raise r.loc(_key_node(item, "parts") or fields["parts"]).fail(
                    f"a {role} message with parts ({parts[0]}'s form)", _system_hint(parts[1], message=True))
            only_keys(r, item, ("role", "content"), f"a {role} message")
            if "content" not in fields:
                raise loc.fail(f"a {role} message needs content", None)
            leading.append((role, _text(r, fields["content"], role), loc))
            continue
        if role not in ROLES:
            other = _pasted().roles
            hint = (f"{other[role][1]}'s {role} is {other[role][0]} here: role: {other[role][0]}"
                    if isinstance(role, str) and role in other else None)
            hint = hint or did_you_mean(str(role), ROLES + LEADING_ROLES) or "role: user, assistant or tool"
            raise r.loc(fields["role"]).fail(f"unknown message role {role!r}", hint)
        parts = _pasted().message_parts  # an API's contents[] pasted: {role, parts: [{text}]} (Gemini's)
        if parts is not None and "parts" in fields and "content" not in fields:
            raise r.loc(_key_node(item, "parts") or fields["parts"]).fail(
                f"a {role} message with parts ({parts[0]}'s form)", _BLOCKS_HINT)
        if role == "user":
            only_keys(r, item, ("role", "content"), "a user message")
            if "content" not in fields:
                raise loc.fail("a user message needs content", None)
            messages.append(Message("user", content=_text(r, fields["content"], "user")))
        elif role == "assistant":
            messages.append(_assistant(r, fields, loc, calls))
        else:
            messages.append(_tool_result(r, fields, loc, calls, answered))
    return tuple(messages), leading


# An assistant message's neutral keys; a family's module may add keys its reasoning text comes back under
# (``REASONING_TEXT_KEYS``: openai-chat's reasoning_content), asked only when a message has another key.
ASSISTANT_KEYS = ("role", "content", "tool_calls", "reasoning")
CALL_KEYS = ("id", "name", "arguments", "signature", "thought_signature", "thoughtSignature")
REASONING_KEYS = ("family", "text", "signature", "encrypted", "redacted", "id", "summary", "position")
_SIGNATURE_KEYS = ("signature", "thought_signature", "thoughtSignature")


def _assistant(r: _Reader, fields: dict[str, yaml.Node], loc: _Loc, calls: dict[str, tuple[str, int]]) -> Message:
    family_keys = _reasoning_text_keys() if any(key not in ASSISTANT_KEYS for key in fields) else {}
    only_keys(r, loc.node, ASSISTANT_KEYS + tuple(family_keys), "an assistant message")
    content = None
    if "content" in fields and r.value(fields["content"]) is not None:
        content = _text(r, fields["content"], "assistant")
    history: list[HistoryCall] = []
    if "tool_calls" in fields:
        for call_node in r.sequence(fields["tool_calls"], "tool_calls"):
            call_loc = r.loc(call_node)
            for key, whose, form in _pasted().call_wrappers:  # an API's nested call ({type, function: {...}})
                wrapped = r.mapping(call_node, "a tool call").get(key)
                if wrapped is not None and isinstance(r.value(wrapped), dict):
                    raise r.loc(_key_node(call_node, key) or wrapped).fail(
                        f"a tool call in {whose}'s form ({form})",
                        "write it flat: {id: call_1, name: NAME, arguments: {...}} (arguments as a mapping or JSON text)")
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
                    except Unreadable as exc:  # JSON past a bound (json_depth, the digit limit): said with it
                        raise r.loc(call["arguments"]).fail(f"arguments cannot be read: {exc}") from None
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
    reasoning = _reasoning(r, fields, len(history), family_keys)
    if content is None and not history:
        raise loc.fail("an assistant message needs content or tool_calls", None)
    return Message("assistant", content=content, tool_calls=tuple(history), reasoning=reasoning)


def _reasoning_text_keys() -> dict[str, str]:
    from .registry import reasoning_text_keys

    return reasoning_text_keys()


def _reasoning(r: _Reader, fields: dict[str, yaml.Node], calls: int,
               family_keys: dict[str, str]) -> tuple[ReasoningItem, ...]:
    """``reasoning:`` items (neutral, or as an API returned them), then a family's reasoning text under its own
    key (``family_keys``: key → family, e.g. ``reasoning_content:``)."""
    items: list[ReasoningItem] = []
    if "reasoning" in fields and r.value(fields["reasoning"]) is not None:
        for node in r.sequence(fields["reasoning"], "reasoning"):
            items.append(_reasoning_item(r, node, calls))
    for key, family in family_keys.items():
        if key in fields and r.value(fields[key]) is not None:
            items.append(ReasoningItem(family, text=r.string(fields[key], key, empty_ok=True)))
    return tuple(items)


class _ReasoningBlock:
    """A reasoning item as written, for the provider module that knows its native spelling
    (``reasoning_item(block)``): its value, and checks that fail at its line."""

    def __init__(self, r: _Reader, node: yaml.Node) -> None:
        self.r, self.node, self.loc = r, node, r.loc(node)
        self.value: dict[str, Any] = r.value(node)

    def only(self, allowed: tuple[str, ...], what: str) -> None:
        only_keys(self.r, self.node, allowed, what)

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
    only_keys(r, node, REASONING_KEYS, "a reasoning item")
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
    if "id" in fields and "tool_call_id" not in fields:  # the call's own key, where the result names the call it answers
        given = r.value(fields["id"])
        given = given if isinstance(given, str) and 0 < len(given) <= 64 and given.isprintable() else "ID"
        raise r.loc(_key_node(loc.node, "id") or fields["id"]).fail(
            "unknown key 'id' in a tool message", f"write tool_call_id: {given}, the id of the call it answers")
    only_keys(r, loc.node, ("role", "tool_call_id", "content", "name", "is_error"), "a tool message")
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
