"""Which answer made each tool call, so that a mock or proxy line can say where the results a request carries
come from, and which calls an answer made never got theirs.

An agent loop sends step N's call back in step N+1 as a tool result under the call's id: the server notes the id
of every call an answer carried (``made``) and, for each request, reads the results after the history's last
assistant turn (the ones this step adds) and names the request whose answer made each (``results``). A call
without an id (Gemini's functionCall and Ollama's tool call may have none: the API pairs a result with it by name)
is found by its name: the latest answer that called that name without an id. A call no answer through this server
made (a history written by hand, an id the framework changed) has ``from: null``.

``dropped``: the calls this server made that a request's history carries without a result after them (the family
reader has paired results with calls as the API pairs them), each said once: the conversation that carries the call
is the one that dropped its result, whatever other loops share the server, and a retry of an earlier step carries
no such call.

``tools_changed``: the requests whose answer made thinking the history carries back (a turn with reasoning state and
calls this server made) and that offered other tools than this request: on a model whose rule says it runs Anthropic's
preserved-thinking prefix check (``thinking_prefix_check``), that thinking no longer passes it — what a framework's
per-step tool filter does to a thinking model.

``system_changed``: the same for the system prompt: the requests whose answer made thinking the history carries back
and that came under another system prompt than this request (a framework's per-step prompt: LangChain's
``dynamic_prompt`` middleware, pydantic-ai's dynamic ``instructions``). Anthropic's docs:
platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks 'A prefix check fails if system,
tools, or an earlier message changed after Claude produced a block' (model rule ``claude-preserved-thinking``,
verified 2026-11-26), and platform.claude.com/docs/en/agents-and-tools/tool-use/tool-use-with-prompt-caching 'The cache follows a prefix
hierarchy (tools → system → messages), so a change at one level invalidates that level …' (read
2026-11-27; the excerpt read ends there).

``loop_findings``: the line's ``results`` and its findings, worded for the mock's line or the proxy's (one rule for
both: a proxy in front of the real API sees the same breakages between steps).
"""

from __future__ import annotations

import threading
from typing import Any, Iterable, NamedTuple

from ..model import Message

MAX_IDS = 10_000  # the ids remembered; the oldest are forgotten first (a long-running server stays bounded)


class Dropped(NamedTuple):
    id: str
    name: str
    origin: int  # the request whose answer made the call


class CallOrigins:
    def __init__(self, limit: int = MAX_IDS) -> None:
        self._made: dict[str, int] = {}
        self._unnamed: dict[str, int] = {}  # tool name -> the latest request whose answer called it without an id
        self._said: dict[tuple[str, int], None] = {}  # dropped calls already said (an ordered, bounded set)
        self._offered: dict[int, tuple[str, ...]] = {}  # request number -> the tools it offered (answers with calls)
        self._system: dict[int, str | None] = {}  # request number -> the system prompt it came under (the same)
        self._limit = limit
        self._lock = threading.Lock()  # requests are judged in worker threads too (server.Judges)

    def _remember(self, table: dict[Any, Any], key: Any, value: Any) -> None:
        table.pop(key, None)
        table[key] = value
        if len(table) > self._limit:
            del table[next(iter(table))]

    def made(self, number: int, calls: Iterable[tuple[str | None, str]], offered: tuple[str, ...] = (),
             system: str | None = None) -> None:
        """Request ``number``'s answer carried these calls (id, name); the request offered the tools ``offered`` and
        came under the system prompt ``system``."""
        calls = list(calls)
        with self._lock:
            if calls:
                self._remember(self._offered, number, tuple(offered))
                self._remember(self._system, number, system)
            for call_id, name in calls:
                if not call_id:
                    self._remember(self._unnamed, name, number)
                else:
                    self._remember(self._made, call_id, number)

    def _origin(self, call_id: str | None, name: str | None) -> int | None:
        return self._made.get(call_id or "", self._unnamed.get(name or ""))

    def results(self, messages: tuple[Message, ...]) -> list[dict[str, Any]]:
        """The tool results after the last assistant turn (a user's text may follow them): ``{id, name, from}``."""
        start = len(messages)
        while start and messages[start - 1].role != "assistant":
            start -= 1
        with self._lock:
            return [{"id": m.tool_call_id, "name": m.tool_name, "from": self._origin(m.tool_call_id, m.tool_name)}
                    for m in messages[start:] if m.role == "tool"]

    def dropped(self, messages: tuple[Message, ...]) -> list[Dropped]:
        """The calls this server made that the history carries with no result after them, not said before."""
        answered = {m.tool_call_id for m in messages if m.role == "tool"}
        found: list[Dropped] = []
        with self._lock:
            for message in messages:
                for call in message.tool_calls:
                    origin = self._origin(call.id, call.name)
                    if origin is None or call.id in answered or (call.id, origin) in self._said:
                        continue
                    self._remember(self._said, (call.id, origin), None)
                    found.append(Dropped(call.id, call.name, origin))
        return found


    def _thinking_origins(self, messages: tuple[Message, ...]) -> list[int]:
        """The requests whose answer made thinking the history carries (an assistant turn with reasoning state and a
        call that answer made); the caller holds the lock."""
        found: list[int] = []
        for message in messages:
            if message.role != "assistant" or not message.reasoning:
                continue
            for call in message.tool_calls:
                origin = self._origin(call.id, call.name)
                if origin is not None and origin not in found:
                    found.append(origin)
        return found

    def tools_changed(self, messages: tuple[Message, ...], offered: tuple[str, ...]) -> list[tuple[int, tuple[str, ...]]]:
        """(request, the tools it offered) for each answer of this server whose thinking the history carries where
        that request offered other tools."""
        with self._lock:
            found = {origin: self._offered[origin] for origin in self._thinking_origins(messages)
                     if origin in self._offered and self._offered[origin] != tuple(offered)}
        return sorted(found.items())

    def system_changed(self, messages: tuple[Message, ...], system: str | None) -> list[int]:
        """The requests whose answer made thinking the history carries and that came under another system prompt
        than ``system`` (none and an empty one are the same: no system prompt)."""
        with self._lock:
            return sorted(origin for origin in self._thinking_origins(messages)
                          if origin in self._system and (self._system[origin] or None) != (system or None))


def _changed_with_thinking(origins: CallOrigins, messages: tuple[Message, ...], offered: tuple[str, ...],
                           provider: str, model: str | None, server: str,
                           system: str | None = None) -> list[dict[str, Any]]:
    """``<server>.tools_changed_with_thinking`` and ``<server>.system_changed_with_thinking`` where the model's rule
    says it runs the prefix check (the findings ``run`` gives a loop's steps as loop.tools_changed_with_thinking,
    core/loop_lint.py)."""
    if not model:
        return []
    from ..model_rules import cite, rule_facts

    fact = rule_facts(provider, model).get("thinking_prefix_check")
    if fact is None or fact.value is not True:
        return []
    found = []
    changed = origins.tools_changed(messages, offered)
    if changed:
        found.append(_tools_finding(changed[-1], offered, model, server, cite('thinking_prefix_check', fact, provider)))
    prompts = origins.system_changed(messages, system)
    if prompts:
        found.append({
            "severity": "warning",
            "code": "proxy.system_changed_with_thinking" if server == "proxy" else "mock.system_changed_with_thinking",
            "message": f"the history carries thinking from #{prompts[-1]}'s answer, made under another system prompt "
            f"than this request's ({'none' if not system else f'{len(system)} characters'} now): on {model} a "
            f"changed system prompt fails the preserved-thinking prefix check (a 400, or the thinking dropped) — "
            f"{cite('thinking_prefix_check', fact, provider)}. Way out: the same system prompt on every step of a "
            "tool loop (a per-step prompt in the framework — a dynamic prompt or instructions — changes it); put "
            "what changes per step in the user turn or the tool result"})
    return found


def _tools_finding(changed: tuple[int, tuple[str, ...]], offered: tuple[str, ...], model: str, server: str,
                   cited: str) -> dict[str, Any]:
    number, before = changed
    return {"severity": "warning",
            "code": "proxy.tools_changed_with_thinking" if server == "proxy" else "mock.tools_changed_with_thinking",
            "message": f"the history carries thinking from #{number}'s answer, made when the request offered "
            f"{', '.join(before) or 'no tools'}; this request offers {', '.join(offered) or 'no tools'}: on {model} "
            f"a changed tool list fails the preserved-thinking prefix check (a 400, or the thinking dropped) — "
            f"{cited}. Way out: the same tools on every step, steering with "
            "tool_choice (a per-step tool filter in the framework changes them)"}


def loop_findings(origins: CallOrigins, messages: tuple[Message, ...], findings: list[dict[str, Any]],
                  server: str, offered: tuple[str, ...] = (), provider: str = "",
                  model: str | None = None, system: str | None = None) -> list[dict[str, Any]]:
    """The results this request adds (``results``), with the ``server``'s ("mock" or "proxy") findings appended to
    ``findings``: ``<server>.result_unknown_call`` for a result of a call in the history that no answer through this
    server made, and ``<server>.result_dropped`` for a call an earlier answer made that the history carries without
    its result (said once); and ``<server>.tools_changed_with_thinking`` where ``offered`` (this request's tools) is
    not what the request whose thinking the history carries offered, and ``<server>.system_changed_with_thinking``
    where ``system`` (this request's system prompt) is not the one that request came under, on a ``model`` of
    ``provider`` that runs the prefix check."""
    proxy = server == "proxy"
    results = origins.results(messages)
    in_history = {call.id for message in messages for call in message.tool_calls}
    # a result whose call is nowhere in the history is history.result_without_call's already (judge._pairing)
    unknown = [r for r in results if r["from"] is None and r["id"] in in_history]
    if unknown:
        findings.append({
            "severity": "warning", "code": "proxy.result_unknown_call" if proxy else "mock.result_unknown_call",
            "message": "tool result" + ("s" if len(unknown) > 1 else "") + " for "
            + listed([f"{r['id']} ({r['name']})" for r in unknown]) + ", a call no answer "
            + ("through this proxy" if proxy else "of this mock") + " made (an id the framework invented or rewrote, or a history replayed from elsewhere)"})
    dropped = origins.dropped(messages)
    # where the family's own rule refuses it (Anthropic, Bedrock, ...), that refusal says it
    if dropped and not any(f["code"] == "history.missing_tool_result" for f in findings):
        findings.append({
            "severity": "warning", "code": "proxy.result_dropped" if proxy else "mock.result_dropped",
            "message": "no tool result came back for " + listed([f"{d.id} ({d.name}, made by #{d.origin})"
                                                                 for d in dropped])
            + ": the history carries the call without its result (said once)"})
    findings += _changed_with_thinking(origins, messages, offered, provider, model, server, system)
    return results


def listed(names: list[str], most: int = 5) -> str:
    """Names for a finding's words, the first ``most`` and how many more (a replayed history may hold thousands)."""
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")
