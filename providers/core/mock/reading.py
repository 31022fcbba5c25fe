"""Helpers the family modules share when they read a request body back (``mock_read``)."""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Iterator

from ..model import HistoryCall, LedgerEntry, Message, Tool
from .judge import MockMalformed


def read_tools(entries: Any, expect: str | None = None) -> tuple[tuple[Tool, ...], tuple[LedgerEntry, ...]]:
    """A body's tool list as neutral tools (core/tool_import_entries); hosted tools are left out and named."""
    from ..tool_import_entries import convert
    from ..tool_import_formats import ImportProblem, entry_format

    if entries is None:
        return (), ()
    if not isinstance(entries, list):
        raise MockMalformed(f"tools must be an array, not {type(entries).__name__}")
    if not entries:
        return (), ()
    try:
        imported = convert(entries, "tools", expect=expect)
    except ImportProblem as problem:
        if "no function tools" in problem.message:
            return (), (LedgerEntry("info", "mock.unjudged", "tools that are not functions, passed unjudged: "
                                    + counted(str(e.get("type")) for e in entries if isinstance(e, dict))),)
        where = ".".join(str(w) for w in problem.where)
        raise MockMalformed(f"tools{'.' + where if where else ''}: {problem.message}") from None
    # the entries convert left out, by its own test: a tool typed otherwise but in a family's form is read (Anthropic's
    # {"type": "custom", "input_schema": ...}, anthropic's ToolParam, as LiteLLM writes every tool) and judged
    hosted = [str(e.get("type")) for i, e in enumerate(entries)
              if isinstance(e, dict) and e.get("type") not in (None, "function") and entry_format(e, (i,)) == "skip"]
    notes = tuple(n for n in imported.notes if not n.code.startswith("import."))
    if hosted:
        notes += (LedgerEntry("info", "mock.unjudged", f"tools that are not functions, passed unjudged: "
                              f"{counted(hosted)}"),)
    return imported.tools, notes


def counted(names: Iterable[str]) -> str:
    """Names once each, in the order first seen, with how many there are when more than one
    (``mcp_toolset (3), web_search``): 40,000 MCP toolsets make one short line."""
    from collections import Counter

    counts = Counter(names)
    return ", ".join(f"{name} ({count})" if count > 1 else name for name, count in counts.items())


def arguments_object(value: Any) -> dict[str, Any]:
    """History call arguments (JSON text or an object) as an object; unreadable ones as {}, and so are ones nested
    past json_depth (a client's 50,000 brackets were the mock's 500, and `trace SAVED`'s exit 70: RecursionError)."""
    from ..bounded import json_loads

    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        try:
            parsed = json_loads(value) if value.strip() else {}
        except ValueError:
            return {}
        return parsed if isinstance(parsed, dict) else {}
    return {}


def text_of(content: Any) -> str | None:
    """A message's text: a string, or the text of its parts ({type: text|input_text|output_text, text})."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p.get("text") for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)]
        return "\n".join(texts) if texts else None
    return None


def leading_system(messages: Any) -> tuple[str | None, str]:
    """The text of a message list's system / developer messages (OpenAI-like lists: Chat, Responses input, Cohere,
    Ollama), joined by blank lines, and the role of the first (``system`` when none)."""
    found = [m for m in messages if isinstance(m, dict) and m.get("role") in ("system", "developer")] \
        if isinstance(messages, list) else []
    texts = [t for t in (text_of(m.get("content")) for m in found) if t]
    return ("\n\n".join(texts) or None), (str(found[0]["role"]) if found else "system")


def blocks_text(value: Any) -> str | None:
    """A system prompt given as a string or as text blocks ({text: ...}: Anthropic, Bedrock, Gemini parts)."""
    if isinstance(value, dict):
        value = value.get("parts")
    return text_of(value)


def tool_message(call_id: str, names: dict[str, str], content: Any, is_error: bool = False) -> Message:
    text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
    return Message("tool", text, tool_call_id=call_id, tool_name=names.get(call_id, "unknown"), is_error=is_error)


def calls_message(calls: Iterable[HistoryCall], names: dict[str, str], text: str | None = None,
                  reasoning: tuple[Any, ...] = ()) -> Message:
    made = tuple(calls)
    for call in made:
        names[call.id] = call.name
    return Message("assistant", text, tool_calls=made, reasoning=reasoning)


def unjudged(body: dict[str, Any], known: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(key for key in body if key not in known))


def chat_history(messages: Any, family: str, reasoning_key: str | None = None,
                 arguments_key: str = "arguments", plan_key: str | None = None, *,
                 kinds: dict[tuple[Any, ...], str], words: Callable[[tuple[Any, ...], str, Any], str],
                 partial: Any = None) -> ChatRead:
    """OpenAI-chat-like messages (Cohere v2, Ollama) as neutral messages (``.history``) and their system / developer
    messages (``.system``, for ``leading_system``). Calls without ids (Ollama) get ``call_N`` ids, and their results
    are paired with them in order. ``plan_key``: where the family puts the text that goes with calls (Cohere's
    ``tool_plan``), read as the turn's text when it has no content. ``kinds``: the places of the list's fields the
    family's types give a kind (``misfit``), a value of another kind refused in the family's ``words`` (its path, the
    kind, the value), with what the family read before (``partial``, a MockRead: MockMalformed.partial). Read on
    from the previous list's reading under ``family`` inside a HAR's reading (read_prefix.read_on)."""
    from .read_prefix import read_on

    if not isinstance(messages, list):
        raise MockMalformed("messages must be an array")

    def read(state: ChatRead, messages: list[Any], start: int) -> None:
        wrong = misfit(messages, kinds, ("messages",), start)  # the messages before start: read before, none misfit
        if wrong is not None:
            raise MockMalformed(words(*wrong), partial)
        state.read(messages, start, family, reasoning_key, arguments_key, plan_key)

    return read_on(("chat_history", family, reasoning_key, arguments_key, plan_key), messages, ChatRead, read)


def chat_roles(messages: list[Any], start: int, refused: str) -> Iterator[tuple[int, dict[str, Any], str]]:
    """Each message of an OpenAI-chat-like list from ``start``, with its place and role; one that is not an object
    with a role of system, developer, user, assistant or tool refused in the family's words (``refused``, its
    place in ``{}``)."""
    for i in range(start, len(messages)):
        raw = messages[i]
        if not isinstance(raw, dict) or raw.get("role") not in ("system", "developer", "user", "assistant", "tool"):
            raise MockMalformed(refused.format(i))
        yield i, raw, raw["role"]


class ChatRead:
    """What ``chat_history`` carries from message to message: the history, the calls' names, the ids of the last
    turn's calls not answered yet, the calls made (Ollama's ``call_N``), the system / developer messages."""

    __slots__ = ("history", "names", "waiting", "made", "system")

    def __init__(self) -> None:
        self.history: list[Message] = []
        self.names: dict[str, str] = {}
        self.waiting: list[str] = []  # ids of the last assistant turn's calls without an answer yet
        self.made = 0
        self.system: list[Any] = []

    def copy(self) -> ChatRead:
        other = ChatRead()
        other.history, other.names, other.waiting = list(self.history), dict(self.names), list(self.waiting)
        other.made, other.system = self.made, list(self.system)
        return other

    def read(self, messages: list[Any], start: int, family: str, reasoning_key: str | None, arguments_key: str,
             plan_key: str | None) -> None:
        from ..model import ReasoningItem

        names, history = self.names, self.history
        for i, raw, role in chat_roles(messages, start, "messages[{}]: a message needs a role of system, user, "
                                                        "assistant or tool"):
            if role in ("system", "developer"):
                self.system.append(raw)
            elif role == "user":
                history.append(Message("user", text_of(raw.get("content")) or ""))
            elif role == "tool":
                call_id = raw.get("tool_call_id")
                if not isinstance(call_id, str):
                    call_id = self.waiting[0] if self.waiting else f"call_{self.made + 1}"
                if call_id in self.waiting:
                    self.waiting.remove(call_id)
                history.append(tool_message(call_id, names, text_of(raw.get("content")) or raw.get("content") or ""))
            else:
                calls = []
                for call in raw.get("tool_calls") or []:  # an array: misfit said another kind (kinds' *.tool_calls)
                    if not isinstance(call, dict):
                        continue
                    function = call.get("function") if isinstance(call.get("function"), dict) else {}
                    self.made += 1
                    call_id = call.get("id") if isinstance(call.get("id"), str) else f"call_{self.made}"
                    calls.append(HistoryCall(call_id, str(function.get("name")),
                                             arguments_object(function.get(arguments_key))))
                self.waiting = [c.id for c in calls]
                thought = raw.get(reasoning_key) if reasoning_key else None
                reasoning = (ReasoningItem(family, text=thought),) if isinstance(thought, str) and thought else ()  # type: ignore[arg-type]
                text = text_of(raw.get("content"))
                if text is None and plan_key and isinstance(raw.get(plan_key), str):
                    text = raw[plan_key]
                history.append(calls_message(calls, names, text, reasoning))


# The kinds of JSON value a hosted tool's fields take (the SDK types), for ``wrong_field``: the kind an element
# of an "array of X" / a value of an "object of X" takes is X
_ONE = {"string": str, "boolean": bool, "object": dict, "array": list, "strings": str, "objects": dict}


def wrong_field(entry: dict[str, Any], kinds: dict[str, str]) -> tuple[str, str, Any] | None:
    """The first field of ``entry`` named in ``kinds`` whose value is not null and not of its kind, as (where: the
    field, or ``field[i]`` / ``field.key`` for an element, the kind expected there, the value found there); None
    when all fit. The value is for its type only: never quote it (it may be a secret)."""
    for field, value in entry.items():
        kind = kinds.get(field)
        if kind is None or value is None:
            continue
        outer, _, inner = kind.partition(" of ")
        if not isinstance(value, _ONE[outer]):
            return field, kind, value
        if inner:
            items = enumerate(value) if isinstance(value, list) else value.items()
            for at, item in items:
                if not isinstance(item, _ONE[inner]):
                    where = f"{field}[{at}]" if isinstance(value, list) else f"{field}.{at}"
                    return where, inner[:-1], item
    return None


def json_kind(value: Any) -> str:
    """A JSON value's kind with its article, as OpenAI's errors name it ("but got an integer instead")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a decimal"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


_KINDS: dict[str, type | tuple[type, ...]] = {"string": str, "array": list, "object": dict, "boolean": bool,
                                              "integer": int, "number": (int, float)}


def misfit(value: Any, kinds: dict[tuple[Any, ...], str],
           at: tuple[Any, ...] = (), start: int = 0) -> tuple[tuple[Any, ...], str, Any] | None:
    """The first value at a place ``kinds`` names whose kind is not the place's, as (its path from ``at``, the kind,
    the value); None when all fit. A place is a path of keys, ``"*"`` standing for each element of an array; a kind is
    ``string``, ``array``, ``object``, ``boolean``, ``integer``, ``number`` or several joined by `` or ``. Null and
    an absent field fit (optional fields); a place under a value of another kind is not looked at (list the outer
    place first). What a family's reader walks (a message's tool calls) is checked so, before it is read: a
    wrong-typed field is the API's 400 naming its path, never a fault of the mock's. The value is for its kind only:
    never quote it (it may be a secret). ``start``: the elements before it of the list each place's first ``"*"``
    walks are not looked at (read before, where none misfit: ``read_prefix``)."""
    for place, kind in kinds.items():
        for where, found in _places(value, place, at, start):
            if found is not None and not _fits(found, kind):
                return where, kind, found
    return None


def _places(value: Any, place: tuple[Any, ...], at: tuple[Any, ...],
            start: int = 0) -> Iterable[tuple[tuple[Any, ...], Any]]:
    if not place:
        yield at, value
        return
    key, rest = place[0], place[1:]
    if key == "*":
        items = value if isinstance(value, list) else ()
        for index in range(start, len(items)):
            yield from _places(items[index], rest, (*at, index))
    elif isinstance(value, dict) and key in value:
        yield from _places(value[key], rest, (*at, key), start)


def _fits(value: Any, kind: str) -> bool:
    return any(isinstance(value, _KINDS[each]) and not (isinstance(value, bool) and each in ("integer", "number"))
               for each in kind.split(" or "))


def indexed(path: tuple[Any, ...]) -> str:
    """A path as OpenAI's and Google's errors write it: ``messages[0].tool_calls``."""
    return "".join(f"[{key}]" if isinstance(key, int) else f".{key}" if i else str(key) for i, key in enumerate(path))


def dotted(path: tuple[Any, ...]) -> str:
    """A path as pydantic's locations write it (Anthropic's errors): ``messages.0.content``."""
    return ".".join(str(key) for key in path)


def openai_type_words(path: tuple[Any, ...], kind: str, value: Any) -> str:
    """OpenAI's words for a value of the wrong type (danny-avila/LibreChat#3111, Azure OpenAI, 2024-06-19: "Invalid
    type for 'messages[0].content': expected a string, but got an array instead"; the Responses mock's
    ``_malformed_type`` the same)."""
    kinds = [f"{'an' if k[0] in 'aeiou' else 'a'} {k}" for k in kind.split(" or ")]
    expected = kinds[0] if len(kinds) == 1 else "one of " + " or ".join(kinds)
    return f"Invalid type for '{indexed(path)}': expected {expected}, but got {json_kind(value)} instead."
