"""The scenario check of a saved request (``saved_request._check``) resumed from the previous request's messages.

An agent's recorded calls (a HAR's conversation, a save folder's samples) each send the whole history before them:
call N's messages are call N-1's and a few more. Composing and reading each call's scenario whole read every message
once a call, so a replay of N calls read ~N²/2 messages (bench/README.md, "run --replay FILE.har"). Here the
scenario is read in two parts: the data without its conversation (tools, tool_choice, the leading system/developer
messages, the settings: composed and read by the loader as they are), and the conversation, read by
``scenario_messages.read_messages`` from the state it had after the previous call's messages
(``scenario_messages.Reading``) where this call's start with them, the same JSON text.

The same scenario: the loader reads a message from its own values and the state before it (the calls made, those
answered, whether the conversation started), never from its place in the text but for an error's line and column
(``json.dumps`` writes one line). Any error, or anything this reading does not cover (a conversation nested past
the depth bound, text that is not one line), gives None, and ``_check`` reads the whole text as before, which says
the error as it always did. A prefix is the previous messages' exact JSON text (``json.dumps``: ``1``, ``1.0`` and
``true`` are three texts), and the limits the reader applies (``TOOLCHOICE_LIMIT_*``) are part of the key."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

from .json_text import extends_list
from .model import Scenario

# the last conversation read: (key: the limits, its messages' JSON text, how many, the Reading after them, the values
# and characters reading them took from the reader's bounds)
_LAST: list[tuple[tuple[Any, ...], str, int, Any, tuple[int, int]]] = []
# messages each resumed check composed and read (tests count them: a reading that reads each call's whole history
# again is ~N²/2 over N calls, this one ~N)
READ_HOOK: list[Callable[[int], None]] = []


def resumed(path: str, data: dict[str, Any], escaped: Callable[[str], str], messages_text: str | None = None
            ) -> Scenario | None:
    """The scenario the loader reads from ``escaped(json.dumps(data, ensure_ascii=False))``, read in two parts (the
    module's docstring); None where it is not (``_check`` then reads the whole text). ``escaped``: ``_check``'s
    escapes of what YAML's reader refuses; ``messages_text``: ``data["messages"]``'s text so escaped, where known
    (``data_text``), which holds the conversation's."""
    from . import limits
    from .scenario_messages import LEADING_ROLES, Reading
    from .yaml_input import MAX_DEPTH, MAX_VALUES, _json_deeper_than

    messages = data.get("messages")
    if not isinstance(messages, list):
        return None
    start = 0  # the leading system/developer messages are read with the rest (the system prompt, its notes)
    while start < len(messages) and type(messages[start]) is dict and messages[start].get("role") in LEADING_ROLES:
        start += 1
    conversation = messages[start:]
    rest = {key: (messages[:start] if key == "messages" else value) for key, value in data.items()}
    key = _limits()
    text = _tail(messages_text, escaped(json.dumps(messages[:start], ensure_ascii=False))) if messages_text else None
    text = text or escaped(json.dumps(conversation, ensure_ascii=False))
    kept, before, used = 0, Reading(), (0, 0)
    last = _LAST[0] if _LAST else None
    if last is not None and last[0] == key and last[2] and (
            extends_list(text, last[1])):  # the previous messages, then more
        kept, before, used = last[2], last[3].copy(), last[4]
    new = conversation[kept:]
    if _json_deeper_than(rest, MAX_DEPTH) or _json_deeper_than({"messages": new}, MAX_DEPTH):
        return None  # the whole text's reading says where
    rest_text = escaped(json.dumps(rest, ensure_ascii=False))
    new_text = escaped(json.dumps({"messages": new}, ensure_ascii=False))
    if any(c in part for part in (rest_text, new_text) for c in "\n\r"):
        return None  # one line, as json.dumps writes it: a call's line (scenario_messages' state) is 1 either way
    characters = limits.get("expanded_bytes")
    try:
        scenario, taken = _rest(path, rest_text, characters)
        if new:
            read = _read(path, new_text, before, characters)
            used = (used[0] + read[0], used[1] + read[1])
    except Exception:  # noqa: BLE001 - an error (or a fault) is the whole text's reading's to say, at its place
        return None
    # the reader's bounds are the whole text's (values read, characters of text): the parts' sum within them
    if scenario.messages or taken[0] + used[0] > MAX_VALUES or taken[1] + used[1] > characters:
        return None
    for hook in READ_HOOK:
        hook(len(new))
    _LAST[:] = [(key, text, len(conversation), before, used)]
    return scenario._replace(messages=tuple(before.messages))


def _rest(path: str, text: str, characters: int) -> tuple[Scenario, tuple[int, int]]:
    """The scenario of ``text`` (its data without the conversation), and the values and characters it read."""
    from .scenario import _built
    from .yaml_input import MAX_VALUES, composed

    with composed(text, path, True) as (r, root):
        scenario = _built(r, root)
        return scenario, (MAX_VALUES - r.budget, characters - r.bytes)


def _read(path: str, text: str, reading: Any, characters: int) -> tuple[int, int]:
    """``text`` (``{"messages": [...]}``) composed and its messages read on from ``reading``; the values and
    characters read."""
    from .scenario_messages import read_messages
    from .yaml_input import MAX_VALUES, composed

    with composed(text, path, True) as (r, root):
        read_messages(r, root.value[0][1], reading)
        return MAX_VALUES - r.budget, characters - r.bytes


def _limits() -> tuple[Any, ...]:
    """What the loader's bounds read (``limits``: the environment's TOOLCHOICE_LIMIT_* variables)."""
    return tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("TOOLCHOICE_LIMIT")))


_MESSAGES = ("saved_prefix", "messages")  # a memo's key no JSON text is: the messages' text kept by data_text


def data_text(data: dict[str, Any], memo: dict[Any, Any] | None, escaped: Callable[[str], str]
              ) -> tuple[str, str | None]:
    """``escaped(json.dumps(data, ensure_ascii=False))``, and its ``"messages"`` value's text (None where not
    written apart). ``_check`` reads the same data up to three times a call (``build``, its render-back before and
    after extra), the messages list unchanged while the other keys change: within one ``memo`` (one call's) that
    list's text is written once and kept beside it (the list held, so its id is its own), the other values
    written each time and the text joined as ``json.dumps`` joins a mapping's (``", "``, ``": "``). The escapes are
    per character, so the pieces escaped are the whole escaped."""
    messages = data.get("messages")
    if memo is None or type(messages) is not list or not all(type(k) is str for k in data):
        return escaped(json.dumps(data, ensure_ascii=False)), None
    kept = memo.get(_MESSAGES)
    if kept is None or kept[0] is not messages:
        kept = memo[_MESSAGES] = (messages, escaped(json.dumps(messages, ensure_ascii=False)))
    parts = (f"{escaped(json.dumps(k, ensure_ascii=False))}: "
             f"{kept[1] if k == 'messages' else escaped(json.dumps(v, ensure_ascii=False))}" for k, v in data.items())
    return "{" + ", ".join(parts) + "}", kept[1]


def forget(memo: dict[Any, Any]) -> None:
    """``memo`` without the scenarios ``_check`` kept in it (the messages' text stays: ``data_text``)."""
    for key in [k for k in memo if k != _MESSAGES]:
        del memo[key]


def _tail(text: str, lead: str) -> str | None:
    """The text of a list's items after the first few, from the whole list's ``text`` and those first items' text
    ``lead`` (both ``json.dumps``'); None where ``text`` does not start with them."""
    if lead == "[]":
        return text
    if not (text.startswith(lead[:-1]) and text[len(lead) - 1:len(lead) + 1] in (", ", "]")):
        return None
    return "[" + text[len(lead) + 1:] if text[len(lead) - 1] == "," else "[]"
