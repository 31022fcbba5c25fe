"""The OpenAI-style APIs' refusals of a history whose tool calls and results do not pair, in each API's words: Chat
Completions on OpenAI and Azure (facts openai.history_unanswered_call, openai.history_result_without_call) and on
Mistral (fact mistral.history_unanswered_call), on DeepSeek (facts deepseek.history_unanswered_call,
deepseek.history_result_without_call), and Responses (fact openai-responses.history_unanswered_call). The
translators refuse a call without its result before sending (``check_chat``,
``check_responses``; a result without its call cannot be written in a scenario alone); the mocks answer both in the
same words (``chat_refusal``, ``responses_refusal``) with the recorded envelope's param. A chat host with no recorded
refusal is left as it was. ``history_ids``: Mistral's 9-alphanumeric call ids (fact mistral.tool_call_id)."""

from __future__ import annotations

import re
from typing import Any

from .core.history_pairing import unanswered
from .core.host_rules import change, refuse
from .core.request_context import Context

# The hosts whose own recorded 400 says it (the facts' sources); param messages.[i].role, code null
CHAT_HOSTS = ("openai", "azure")
CHAT_UNANSWERED = ("An assistant message with 'tool_calls' must be followed by tool messages responding to each "
                   "'tool_call_id'. The following tool_call_ids did not have response messages: {ids}")
CHAT_WITHOUT_CALL = ("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with "
                     "'tool_calls'.")
# Mistral's words for the same history, param null (fact mistral.history_unanswered_call)
MISTRAL_UNANSWERED = "Not the same number of function calls and responses"
# DeepSeek's words for a tool message with no assistant message with tool_calls before it: param null, code
# invalid_request_error (fact deepseek.history_result_without_call)
DEEPSEEK_WITHOUT_CALL = "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'"
# DeepSeek's words for calls not all answered by the tool messages right after them, the same envelope (fact
# deepseek.history_unanswered_call); a history with both faults draws these (gptme/gptme#3421's shape)
DEEPSEEK_UNANSWERED = ("An assistant message with 'tool_calls' must be followed by tool messages responding to each "
                       "'tool_call_id'. (insufficient tool messages following tool_calls message)")
# Responses: param input, code null
RESPONSES_UNANSWERED = "No tool output found for function call {id}."
RESPONSES_WITHOUT_CALL = "No tool call found for function call output with call_id {id}."
RESPONSES_WORDS = ("No tool output found for function call ", "No tool call found for function call output ")


def check_chat(ctx: Context, provider: str) -> None:
    """Chat Completions: each call answered by the tool messages right after its assistant message, when more input
    follows. On DeepSeek a tool message after no tool_calls (its other refusal) comes in a scenario only after other
    messages parted it from its call, a history with both faults, which draws this refusal (gptme/gptme#3421); the
    mock answers either. An empty history: OpenAI's recorded 400 (fact openai.messages_empty; no other host's)."""
    if not ctx.scenario.messages and provider == "openai":
        refuse(ctx, "messages.empty", "the scenario has no messages: OpenAI answers 400 \"[] is too short - "
                                      "'messages'\" (fact openai.messages_empty); add a user message")
    if provider not in CHAT_HOSTS and provider not in ("mistral", "deepseek"):
        return
    offset = 1 if ctx.scenario.system is not None else 0  # the wire's messages start with the system message
    for gap in unanswered(ctx.scenario.messages):
        if gap.after is None:  # the history ends with the calls: no source says the API refuses that
            continue
        ids = ", ".join(gap.ids)
        if provider == "deepseek":
            answer = f"400 invalid_request_error: \"{DEEPSEEK_UNANSWERED}\""
        elif provider == "mistral":
            answer = f"400: \"{MISTRAL_UNANSWERED}\""
        else:
            answer = f"400 (param messages.[{gap.after + offset}].role): \"{CHAT_UNANSWERED.format(ids=ids)}\""
        refuse(ctx, "history.missing_tool_result", f"tool calls {ids} have no result right after the assistant "
                         f"message; {ctx.cap.title} answers {answer}; add role: tool messages with these ids right "
                         "after it")
        return


def _after_no_calls(messages: Any) -> int | None:
    """The place of the first tool message whose run of tool messages follows no assistant message with tool_calls
    (a scenario's Messages or a wire body's dicts), else None."""
    called = False  # the last message that is not a tool message is an assistant message with tool_calls
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else getattr(message, "role", None)
        if role == "tool":
            if not called:
                return index
            continue
        calls = message.get("tool_calls") if isinstance(message, dict) else getattr(message, "tool_calls", None)
        called = role == "assistant" and bool(calls)
    return None


def _short_of_results(messages: list[Any]) -> int | None:
    """The place of the first wire assistant message whose calls the tool messages right after it do not all answer,
    with a message other than a tool message after them (none: the history ends with the calls), else None."""
    for index, raw in enumerate(messages):
        calls = raw.get("tool_calls") if isinstance(raw, dict) and raw.get("role") == "assistant" else None
        if not isinstance(calls, list) or not calls:
            continue
        after, answered = index + 1, set()
        while after < len(messages) and isinstance(messages[after], dict) and messages[after].get("role") == "tool":
            answered.add(str(messages[after].get("tool_call_id")))
            after += 1
        if after < len(messages) and any(str(c.get("id")) not in answered for c in calls if isinstance(c, dict)):
            return index
    return None


def check_responses(ctx: Context) -> None:
    """Responses: each function_call answered by a function_call_output after it, each output after its call."""
    messages = ctx.scenario.messages
    for gap in unanswered(messages, anywhere_later=True):
        if gap.after is None:  # the history ends with the calls: no source says the API refuses that
            continue
        words = RESPONSES_UNANSWERED.format(id=gap.ids[0])
        refuse(ctx, "history.missing_tool_result", f"tool call{'s' if len(gap.ids) > 1 else ''} "
                         f"{', '.join(gap.ids)} {'have' if len(gap.ids) > 1 else 'has'} no result in the input; "
                         f"{ctx.cap.title} answers 400 (param input): \"{words}\"; add role: tool messages with these "
                         "ids after the assistant message")
        return


# ---- the mocks: the same rules read on the wire body -------------------------------------------------------


def chat_refusal(messages: list[Any], provider: str) -> tuple[str, str, str | None] | None:
    """(ledger code, the API's words, param) for a Chat Completions body's messages that break the rule, else None.
    Mistral: a call without its response only, in its words (no source for its answer to a result without call)."""
    if provider == "deepseek":  # its two recorded 400s, param null. Both faults: the first in the messages answers
        # (gptme/gptme#3421's calls, system message, result drew the calls' words; no source for other orders)
        short, orphan = _short_of_results(messages), _after_no_calls(messages)
        if short is not None and (orphan is None or short < orphan):
            return "history.missing_tool_result", DEEPSEEK_UNANSWERED, None
        return None if orphan is None else ("history.result_without_call", DEEPSEEK_WITHOUT_CALL, None)
    mistral = provider == "mistral"
    if provider not in CHAT_HOSTS and not mistral:
        return None
    pairing = ChatPairing(mistral)
    for index, raw in enumerate(messages):
        if pairing.step(index, raw) is not None:
            break
    return pairing.found


class ChatPairing:
    """``chat_refusal``'s walk for a chat host or Mistral, one message at a time (``step``), so that a reading of a
    longer list resumes from a copy of the state a shorter one left (mock/read_prefix.py)."""

    __slots__ = ("mistral", "open_ids", "made", "found")

    def __init__(self, mistral: bool) -> None:
        self.mistral = mistral
        self.open_ids: list[str] = []  # the calls of the last assistant message not yet answered
        self.made: set[str] = set()
        self.found: tuple[str, str, str | None] | None = None

    def copy(self) -> ChatPairing:
        other = ChatPairing(self.mistral)
        other.open_ids, other.made, other.found = list(self.open_ids), set(self.made), self.found
        return other

    def step(self, index: int, raw: Any) -> tuple[str, str, str | None] | None:
        """Message ``index`` read; the first refusal of the list so far."""
        if self.found is not None:
            return self.found
        role = raw.get("role") if isinstance(raw, dict) else None
        if role == "tool":
            call_id = str(raw.get("tool_call_id"))
            if call_id not in self.made and not self.mistral:
                self.found = "history.result_without_call", CHAT_WITHOUT_CALL, f"messages.[{index}].role"
            elif call_id in self.open_ids:
                self.open_ids.remove(call_id)
            return self.found
        if self.open_ids and self.mistral:
            self.found = "history.missing_tool_result", MISTRAL_UNANSWERED, None
        elif self.open_ids:
            self.found = ("history.missing_tool_result", CHAT_UNANSWERED.format(ids=", ".join(self.open_ids)),
                          f"messages.[{index}].role")
        else:
            calls = raw.get("tool_calls") if role == "assistant" else None
            self.open_ids = [str(c.get("id")) for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []
            self.made = set(self.open_ids)
        return self.found


def responses_refusal(items: list[Any], chained: bool = False) -> tuple[str, str] | None:
    """(ledger code, the API's words) for a Responses input whose function_call has no output after it (when something follows
    it) or whose function_call_output has no call before it (unless ``chained``: previous_response_id or
    conversation holds the calls), else None. An input with an item_reference is not judged: the stored item it names
    may be the call or the output."""
    pairing = ResponsesPairing()
    for index, item in enumerate(items):
        pairing.step(index, item)
    return pairing.result(chained)


class ResponsesPairing:
    """``responses_refusal``'s walk, one item at a time (``step``), so that a reading of a longer input resumes from a
    copy of the state a shorter one left (mock/read_prefix.py); ``result`` says the refusal."""

    __slots__ = ("reference", "calls", "answered", "orphan", "last")

    def __init__(self) -> None:
        self.reference = False  # an item_reference: a stored item the body does not show may hold a call or output
        self.calls: dict[str, int] = {}  # call_id → place
        self.answered: set[str] = set()
        self.orphan: str | None = None  # the first output with no call before it
        self.last = -1  # the place of the last item that is not a call, an output or reasoning (_LOOSE)

    def copy(self) -> ResponsesPairing:
        other = ResponsesPairing()
        other.reference, other.calls, other.answered = self.reference, dict(self.calls), set(self.answered)
        other.orphan, other.last = self.orphan, self.last
        return other

    def step(self, index: int, item: Any) -> None:
        self.reference = self.reference or _reference(item)
        kind = item.get("type") if isinstance(item, dict) else None
        if kind == "function_call":
            self.calls.setdefault(str(item.get("call_id")), index)
        elif kind == "function_call_output":
            call_id = str(item.get("call_id"))
            if call_id not in self.calls and self.orphan is None:
                self.orphan = call_id
            self.answered.add(call_id)
        if not isinstance(item, dict) or item.get("type") not in _LOOSE:
            self.last = index

    def result(self, chained: bool) -> tuple[str, str] | None:
        """An output without its call (unless ``chained``: previous_response_id or conversation holds the calls)
        first, then a call with something after it (not only calls, outputs and reasoning) and no output."""
        if self.reference:
            return None
        if self.orphan is not None and not chained:
            return "history.result_without_call", RESPONSES_WITHOUT_CALL.format(id=self.orphan)
        for call_id, index in self.calls.items():
            # a call the input ends with (only calls, outputs and reasoning after it) is the next turn's to answer
            if call_id not in self.answered and self.last > index:
                return "history.missing_tool_result", RESPONSES_UNANSWERED.format(id=call_id)
        return None


# the items of a turn that makes calls and of its results: a call followed only by these is not yet answerable
_LOOSE = ("function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output", "reasoning")


def _reference(item: Any) -> bool:
    """An item_reference (openai 3.57.0 response_input_param.py ItemReference: id required, type Optional)."""
    return isinstance(item, dict) and (item.get("type") == "item_reference"
                                       or ("type" not in item and "role" not in item and "id" in item))


def history_ids(ctx: Context, id_rule: str) -> dict[str, str]:
    """History call ids as the host needs them (Mistral: 9 of [a-zA-Z0-9]; elsewhere as written, host_rules)."""
    if not ctx.history_calls:
        return {}
    ids = {c.id: c.id for m in ctx.scenario.messages for c in m.tool_calls}
    if id_rule != "alnum9":
        return ids
    import hashlib  # only Mistral needs it; keep it off render's start-up path

    used: set[str] = {i for i in ids if re.fullmatch(r"[a-zA-Z0-9]{9}", i)}
    rewritten: dict[str, str] = {}
    for original in ids:
        if original in used:
            continue
        digest = hashlib.sha256(original.encode()).hexdigest()
        candidate, n = digest[:9], 0
        while candidate in used:
            n += 1
            candidate = hashlib.sha256(f"{original}#{n}".encode()).hexdigest()[:9]
        used.add(candidate)
        rewritten[original] = candidate
    needs, pairs = f"{ctx.cap.title} needs 9-character alphanumeric tool-call ids", rewritten.items()
    if rewritten and change(ctx, "history.ids_rewritten", f"{needs}: {', '.join(f'{a}→{b}' for a, b in pairs)}",
                            f"{needs} (mistral-common's V3 validator too, for models before tokenizer v13), and the "
                            f"history holds {', '.join(rewritten)}"):
        ids.update(rewritten)
    return ids
