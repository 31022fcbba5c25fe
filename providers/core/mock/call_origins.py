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

``tools_changed``: the requests whose answer made thinking the history carries back and that offered other tools
than this request: on a model whose rule says it runs Anthropic's preserved-thinking prefix check
(``thinking_prefix_check``), that thinking no longer passes it — what a framework's per-step tool filter does to a
thinking model. Where a thinking block came from is known by the reasoning state itself: every signature, encrypted
reasoning item and reasoning item id an answer handed out (Anthropic's and Bedrock's thinking signatures and
redacted data, Gemini's thoughtSignature, the Responses API's ``encrypted_content`` and ``rs_`` id) is remembered
with the request whose answer carried it (``made``'s ``reasoning``), so the thinking of a final text answer is
followed too when the user goes on with the conversation (the proxy reads any answer's from its reply,
``reply_reasoning``: a streamed one's as its assembler fills it, as ``parse_reply`` reads a whole one); a turn with
reasoning state none of which this server handed out is known by its calls. Plain reasoning text with no
id (DeepSeek's ``reasoning_content``, Ollama's ``thinking``) names no answer and is not followed.

``system_changed``: the same for the system prompt: the requests whose answer made thinking the history carries back
and that came under another system prompt than this request (a framework's per-step prompt: LangChain's
``dynamic_prompt`` middleware, pydantic-ai's dynamic ``instructions``).

``history_changed``: the same for the messages before a thinking block: where the history carries thinking from an
answer and the messages before that turn are not the ones its request was sent (a turn trimmed, summarized or
rewritten, a reminder put in and taken out, an earlier thinking block left out) — compared as the family reads them
(roles, texts, calls, results, reasoning state), not byte for byte. Anthropic's docs:
platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks 'A prefix check fails if system,
tools, or an earlier message changed after Claude produced a block' (model rule ``claude-preserved-thinking``,
re-read 2026-11-27), platform.claude.com/docs/build-with-claude/preserved-thinking 'The top-level system prompt,
tools, and messages before the block are its prefix. If the prefix differs from what you sent when the block was
produced, that block and every later thinking block are invalid' (read 2026-11-27), and
platform.claude.com/docs/en/agents-and-tools/tool-use/tool-use-with-prompt-caching 'The cache follows a prefix
hierarchy (tools → system → messages), so a change at one level invalidates that level …' (read 2026-11-27; the
excerpt read ends there).

Memory is bounded: each table keeps its last ``MAX_IDS`` (10,000) entries — call ids, reasoning values (kept as
16-byte digests), answers (their tools, a digest of their system prompt and of the history they were sent) — and
forgets the oldest first.

``loop_findings``: the line's ``results`` and its findings, worded for the mock's line or the proxy's (one rule for
both: a proxy in front of the real API sees the same breakages between steps).
"""

from __future__ import annotations

import hashlib
import json
import threading
from typing import Any, Iterable, NamedTuple

from ..model import Message, Reply

MAX_IDS = 10_000  # the ids remembered; the oldest are forgotten first (a long-running server stays bounded)
_STAND_IN = "skip_thought_signature_validator"  # Gemini's documented stand-in: every client's, no answer's


class _Made(NamedTuple):
    """What an answer with calls or reasoning state was made under."""

    offered: tuple[str, ...]  # the tools its request offered
    system: bytes  # a digest of its system prompt's text (none and an empty one alike)
    history: bytes | None  # a digest of the messages its request was sent (None: not kept, no prefix check runs)
    length: int  # how many messages that was


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def prefix_digests(messages: tuple[Message, ...], upto: int) -> list[bytes]:
    """The digest of ``messages[:i]`` for each i from 0 to ``upto``, each message as the family read it (a chain:
    one pass over the history)."""
    from .read_prefix import memo

    kept = memo()  # inside a HAR's reading: the previous request's messages and their digests
    before, parts = kept.get("prefix_digests", ((), [])) if kept is not None else ((), [])
    same, most = 0, min(len(before), upto)
    while same < most and messages[same] is before[same]:  # the same objects: a fold that read on (read_prefix)
        same += 1
    parts = parts[:same]
    chain = hashlib.blake2b(digest_size=16)
    found = [chain.copy().digest()]
    for index, message in enumerate(messages[:upto]):
        if index >= same:
            try:
                text = json.dumps(message, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=repr)
            except (TypeError, ValueError):  # keys of several types in a client's odd value: its repr, as read
                text = repr(message)
            parts.append(_digest(text))
        chain.update(parts[index])
        found.append(chain.copy().digest())
    if kept is not None:
        kept["prefix_digests"] = (messages[:upto], parts)
    return found


def reasoning_values(message: Message) -> list[str]:
    """The opaque reasoning state an assistant turn carries: signatures, encrypted content, reasoning item ids."""
    values = [value for item in message.reasoning for value in (item.signature, item.encrypted, item.id)]
    values += [call.signature for call in message.tool_calls]
    return [value for value in values if isinstance(value, str) and value and value != _STAND_IN]


def reply_reasoning(reply: Reply) -> list[str]:
    """The opaque reasoning state a reply handed out (every choice's), as ``reasoning_values`` reads it back."""
    values = []
    for choice in reply.choices or (reply,):
        values += reasoning_values(Message("assistant", reasoning=choice.reasoning))
        values += [c.signature for c in choice.tool_calls if isinstance(c.signature, str) and c.signature
                   and c.signature != _STAND_IN]
    return values


class Sent:
    """One request's messages as a server follows them, each thing worked out once, when first asked (the checks, the
    line's ``reasoning_from`` and the record of the answer share them): the assistant turns with reasoning state and
    the request whose answer handed each out (``CallOrigins.turns``), and the digests of the history's prefixes."""

    __slots__ = ("messages", "turns", "_digests")

    def __init__(self, messages: tuple[Message, ...]) -> None:
        self.messages = messages
        self.turns: list[tuple[int, int | None, bool]] | None = None  # (index, origin, carries opaque state)
        self._digests: list[bytes] | None = None

    def digests(self) -> list[bytes]:
        """The digest of ``messages[:i]`` for each i from 0 to ``len(messages)``."""
        if self._digests is None:
            self._digests = prefix_digests(self.messages, len(self.messages))
        return self._digests


class Dropped(NamedTuple):
    id: str
    name: str
    origin: int  # the request whose answer made the call


class CallOrigins:
    def __init__(self, limit: int = MAX_IDS) -> None:
        self._made: dict[str, int] = {}
        self._unnamed: dict[str, int] = {}  # tool name -> the latest request whose answer called it without an id
        self._said: dict[tuple[str, int], None] = {}  # dropped calls already said (an ordered, bounded set)
        self._answers: dict[int, _Made] = {}  # request number -> what its answer (with calls or reasoning) came under
        self._reasoning: dict[bytes, int] = {}  # a reasoning value's digest -> the request whose answer handed it out
        self._limit = limit
        self._lock = threading.Lock()  # requests are judged in worker threads too (server.Judges)

    def _remember(self, table: dict[Any, Any], key: Any, value: Any) -> None:
        table.pop(key, None)
        table[key] = value
        if len(table) > self._limit:
            del table[next(iter(table))]

    def made(self, number: int, calls: Iterable[tuple[str | None, str]], offered: tuple[str, ...] = (),
             system: str | None = None, reasoning: Iterable[str] = (), history: Sent | None = None) -> None:
        """Request ``number``'s answer carried these calls (id, name) and handed out this reasoning state
        (``reasoning``: signatures, encrypted content, item ids); the request offered the tools ``offered``, came
        under the system prompt ``system`` and was sent the messages ``history`` (None: not kept, where no prefix
        check runs)."""
        calls = list(calls)
        keys = [_digest(value) for value in reasoning if value and value != _STAND_IN]
        made = None
        if calls or keys:
            sent = history.digests()[-1] if history is not None else None
            made = _Made(tuple(offered), _digest(system or ""), sent, len(history.messages) if history else 0)
        with self._lock:
            if made is not None:
                self._remember(self._answers, number, made)
            for key in keys:
                self._remember(self._reasoning, key, number)
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


    def turns(self, sent: Sent) -> list[tuple[int, int | None, bool]]:
        """(index, request, whether it carries a signature, encrypted content or an item id) for each assistant turn
        with reasoning state: the request whose answer handed it out, by the state itself, else — thinking whose
        state this server never saw — by the calls that answer made (None: neither); worked out once per request."""
        if sent.turns is None:
            found: list[tuple[int, int | None, bool]] = []
            with self._lock:
                for index, message in enumerate(sent.messages):
                    if message.role != "assistant":
                        continue
                    values = reasoning_values(message)
                    if not values and not message.reasoning:
                        continue
                    origin = next((self._reasoning[key] for key in map(_digest, values) if key in self._reasoning),
                                  None)
                    if origin is None:
                        origin = next((o for o in (self._origin(c.id, c.name) for c in message.tool_calls)
                                       if o is not None), None)
                    found.append((index, origin, bool(values)))
            sent.turns = found
        return sent.turns

    def reasoning_from(self, sent: Sent) -> list[int | None]:
        """For each assistant turn whose reasoning state carries a signature, encrypted content or an item id, in
        history order: the request whose answer handed it out (None: no answer through this server did)."""
        return [origin for _, origin, opaque in self.turns(sent) if opaque]

    def _thinking(self, sent: Sent) -> list[tuple[int, int, _Made]]:
        """(index, request, what its answer was made under) for each assistant turn whose reasoning state an answer
        of this server still remembered handed out."""
        turns = self.turns(sent)
        with self._lock:
            return [(index, origin, self._answers[origin]) for index, origin, _ in turns
                    if origin is not None and origin in self._answers]

    def tools_changed(self, sent: Sent, offered: tuple[str, ...]) -> list[tuple[int, tuple[str, ...]]]:
        """(request, the tools it offered) for each answer of this server whose thinking the history carries where
        that request offered other tools."""
        found = {origin: made.offered for _, origin, made in self._thinking(sent) if made.offered != tuple(offered)}
        return sorted(found.items())

    def system_changed(self, sent: Sent, system: str | None) -> list[int]:
        """The requests whose answer made thinking the history carries and that came under another system prompt
        than ``system`` (none and an empty one are the same: no system prompt)."""
        now = _digest(system or "")
        return sorted({origin for _, origin, made in self._thinking(sent) if made.system != now})

    def history_changed(self, sent: Sent) -> list[tuple[int, int, int]]:
        """(request, how many messages it was sent, how many come before its thinking now) for each answer of this
        server whose thinking the history carries after other messages than that request was sent, in history
        order (only answers whose history was kept: ``made(history=...)``)."""
        turns = [turn for turn in self._thinking(sent) if turn[2].history is not None]
        if not turns:
            return []
        digests = sent.digests()
        found = {}
        for index, origin, made in turns:
            if digests[index] != made.history and origin not in found:
                found[origin] = (origin, made.length, index)
        return list(found.values())


def prefix_check(provider: str, model: str | None) -> Any:
    """The model rule's ``thinking_prefix_check`` fact where it says the model runs Anthropic's prefix check, else
    None (then no answer's history is kept: ``CallOrigins.made(history=...)``)."""
    if not model or not isinstance(model, str):
        return None
    from ..model_rules import rule_facts

    fact = rule_facts(provider, model).get("thinking_prefix_check")
    return fact if fact is not None and fact.value is True else None


def _changed_with_thinking(origins: CallOrigins, sent: Sent, offered: tuple[str, ...],
                           provider: str, model: str | None, server: str,
                           system: str | None = None) -> list[dict[str, Any]]:
    """``<server>.tools_changed_with_thinking``, ``<server>.system_changed_with_thinking`` and
    ``<server>.history_changed_with_thinking`` where the model's rule says it runs the prefix check (the findings
    ``run`` gives a loop's steps as loop.tools_changed_with_thinking, core/loop_lint.py)."""
    fact = prefix_check(provider, model)
    if fact is None:
        return []
    from ..model_rules import cite

    cited = cite("thinking_prefix_check", fact, provider)
    found = []
    changed = origins.tools_changed(sent, offered)
    if changed:
        found.append(_tools_finding(changed[-1], offered, str(model), server, cited))
    prompts = origins.system_changed(sent, system)
    if prompts:
        found.append({
            "severity": "warning",
            "code": "proxy.system_changed_with_thinking" if server == "proxy" else "mock.system_changed_with_thinking",
            "message": f"the history carries thinking from #{prompts[-1]}'s answer, made under another system prompt "
            f"than this request's ({'none' if not system else f'{len(system)} characters'} now): on {model} a "
            f"changed system prompt fails the preserved-thinking prefix check (a 400, or the thinking dropped) — "
            f"{cited}. Way out: the same system prompt on every step of a "
            "tool loop (a per-step prompt in the framework — a dynamic prompt or instructions — changes it); put "
            "what changes per step in the user turn or the tool result"})
    history = origins.history_changed(sent)
    if history:
        found.append(_history_finding(history[0], str(model), server, cited))
    return found


def _history_finding(changed: tuple[int, int, int], model: str, server: str, cited: str) -> dict[str, Any]:
    number, then, now = changed
    how = ("an earlier message changed" if now == then else "earlier messages left out" if now < then
           else "messages put in before it")
    return {"severity": "warning",
            "code": "proxy.history_changed_with_thinking" if server == "proxy"
            else "mock.history_changed_with_thinking",
            "message": f"the history carries thinking from #{number}'s answer, but the messages before it are not "
            f"the ones #{number} was sent ({then} then, {now} now: {how}): on {model} a history "
            f"changed before a thinking block fails the preserved-thinking prefix check, for that block and every "
            f"later one (a 400, or the thinking dropped) — {cited}. Way out: keep the history append-only: each "
            "assistant turn sent back as the API returned it (its thinking blocks too), no earlier turn trimmed, "
            "summarized or rewritten; put what changes in a new message at the end"}


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


def loop_findings(origins: CallOrigins, sent: Sent, findings: list[dict[str, Any]],
                  server: str, offered: tuple[str, ...] = (), provider: str = "",
                  model: str | None = None, system: str | None = None) -> list[dict[str, Any]]:
    """The results the request whose messages are ``sent`` adds (``results``), with the ``server``'s ("mock" or
    "proxy") findings appended to ``findings``: ``<server>.result_unknown_call`` for a result of a call in the history that no answer through this
    server made, and ``<server>.result_dropped`` for a call an earlier answer made that the history carries without
    its result (said once); and ``<server>.tools_changed_with_thinking`` where ``offered`` (this request's tools) is
    not what the request whose thinking the history carries offered, ``<server>.system_changed_with_thinking``
    where ``system`` (this request's system prompt) is not the one that request came under, and
    ``<server>.history_changed_with_thinking`` where the messages before that thinking are not the ones that request
    was sent, on a ``model`` of ``provider`` that runs the prefix check."""
    proxy = server == "proxy"
    messages = sent.messages
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
    findings += _changed_with_thinking(origins, sent, offered, provider, model, server, system)
    return results


def listed(names: list[str], most: int = 5) -> str:
    """Names for a finding's words, the first ``most`` and how many more (a replayed history may hold thousands)."""
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")
