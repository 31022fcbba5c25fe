"""Which answer made each tool call, so that a proxy line can say where the results a request carries come from.

An agent loop sends step N's call back in step N+1 as a tool result under the call's id: the proxy notes the id
of every call an answer carried (``made``) and, for each request, reads the results after the history's last
assistant turn (the ones this step adds) and names the request whose answer made each (``results``). A call
without an id (Gemini's functionCall may have none: the API pairs a functionResponse with it by name) is found by
its name: the latest answer that called that name without an id. A call no answer through this proxy made (a
history written by hand, an id the framework changed) has ``from: null``.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..model import Message

MAX_IDS = 10_000  # the ids remembered; the oldest are forgotten first (a long-running proxy stays bounded)


class CallOrigins:
    def __init__(self, limit: int = MAX_IDS) -> None:
        self._made: dict[str, int] = {}
        self._unnamed: dict[str, int] = {}  # tool name -> the latest request whose answer called it without an id
        self._limit = limit

    def made(self, number: int, calls: Iterable[tuple[str | None, str]]) -> None:
        """Request ``number``'s answer carried these calls (id, name)."""
        for call_id, name in calls:
            if not call_id:
                self._unnamed.pop(name, None)
                self._unnamed[name] = number
                if len(self._unnamed) > self._limit:
                    del self._unnamed[next(iter(self._unnamed))]
            else:
                self._made.pop(call_id, None)
                self._made[call_id] = number
                if len(self._made) > self._limit:
                    del self._made[next(iter(self._made))]

    def results(self, messages: tuple[Message, ...]) -> list[dict[str, Any]]:
        """The tool results after the last assistant turn (a user's text may follow them): ``{id, name, from}``."""
        start = len(messages)
        while start and messages[start - 1].role != "assistant":
            start -= 1
        return [{"id": m.tool_call_id, "name": m.tool_name,
                 "from": self._made.get(m.tool_call_id or "", self._unnamed.get(m.tool_name or ""))}
                for m in messages[start:] if m.role == "tool"]
