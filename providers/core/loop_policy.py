"""What happens between the steps of a loop: ``loop.narrow`` (a step's ``tools:`` are the tools sent,
or every tool is sent and the step's subset becomes the provider's own restriction of the choice),
``loop.after_call`` (after a step that called a tool, a forcing choice is sent as ``auto``, what
openai-agents' ``reset_tool_choice`` does: openai/openai-agents-python#191) and
``loop.stop.repeated_calls`` (the same call, same tool and arguments, K steps in a row ends the loop).

The restriction is the neutral ``{allowed: [...], mode: ...}`` choice, so each provider's row in
core/capabilities.py decides its wire form (OpenAI Chat and Responses ``allowed_tools``, Gemini
``allowedFunctionNames``) and, where a provider has none, what is sent instead (only the allowed
tools: removal), with its ledger entry.
"""

from __future__ import annotations

import json
from typing import Any

from .bounded import cut
from .model import LedgerEntry, LoopSpec, Message, Reply, Scenario, ToolChoice

NARROW = ("remove", "allowed")
AFTER_CALL = ("keep", "auto")
MAX_REPEATED = 1000  # a bound for stop.repeated_calls (max_steps has no larger use)
AUTO = ToolChoice("auto", spelling="auto")
NONE = ToolChoice("none", spelling="none")
NO_LOOP = LoopSpec()  # a scenario without `loop:`: every step uses its tools and tool_choice, 10 steps


# ---- reading the keys (the scenario loader's reader, so errors carry file:line) ------------------


def read_word(r: Any, node: Any, key: str, words: tuple[str, ...]) -> str:
    value = r.value(node)
    if value not in words:
        shown = "nothing" if value is None else f"{type(value).__name__} {value!r}"
        raise r.loc(node).fail(f"loop.{key} must be {' or '.join(words)}, not {shown}",
                               f"write loop.{key}: {words[0]} (the default) or {words[1]}")
    return value


def read_repeated(r: Any, node: Any) -> int:
    value = r.value(node)
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= MAX_REPEATED:
        shown = "nothing" if value is None else f"{type(value).__name__} {value!r}"
        raise r.loc(node).fail(f"loop.stop.repeated_calls must be a whole number from 2 to {MAX_REPEATED}, not {shown}",
                               "K ends the loop when the model makes the same call in K consecutive steps")
    return value


# ---- the step's choice and tools -------------------------------------------------------------


def step_scenario(scenario: Scenario, number: int, history: list[Message] | tuple[Message, ...],
                  override: Any = None, called: bool = False, notes: list[LedgerEntry] | None = None) -> Scenario:
    """The scenario step ``number`` sends: the step's tools and tool_choice (``override``, a parsed
    ToolChoice from --tool-choice, replaces step 1's), with the history so far. ``called``: an earlier
    step's reply called a tool (for after_call: auto). What narrow / after_call changed goes to ``notes``."""
    spec = scenario.loop or NO_LOOP
    entry = spec.step(number)
    tools = scenario.tools
    native = scenario.native_tools
    if entry.tools is not None:
        tools = tuple(t for name in entry.tools for t in scenario.tools if t.name == name)
    choice = entry.tool_choice if entry.has_choice else scenario.tool_choice
    if entry.tools is not None and native and not (choice is not None and choice.native is not None):
        # a step's tools: are the tools sent (docs/loop.md): its hosted tools stay out, unless its tool_choice is a
        # provider-native form, which targets them
        if notes is not None:
            notes.append(LedgerEntry("info", "loop.step_tools", f"step {number} offers "
                                     f"{', '.join(t.name for t in tools) or 'no tool'} (its tools:): the scenario's "
                                     f"hosted tools ({', '.join(t.label for t in native)}) are not sent at this step"))
        native = ()
    if number == 1 and override is not None:
        choice = override
    if called and spec.after_call == "auto" and choice is not None and choice.forces_call:
        before, choice = choice, reset(choice)
        if notes is not None:
            notes.append(reset_note(number, before, choice))
    steps: tuple[tuple[int, tuple[str, ...]], ...] = ()
    if spec.narrow == "allowed":
        steps = tool_steps(scenario, spec, number, history)
    if spec.narrow == "allowed" and len(tools) != len(scenario.tools):
        subset = tuple(t.name for t in tools)
        choice = restricted(choice, subset) if subset else NONE
        tools = scenario.tools
        if notes is not None:
            notes.append(narrow_note(number, subset, choice))
    return scenario._replace(tools=tools, tool_choice=choice, messages=tuple(history), native_tools=native,
                             tools_written_empty=scenario.tools_written_empty and not tools, tool_steps=steps)


def tool_steps(scenario: Scenario, spec: LoopSpec, number: int,
               history: list[Message] | tuple[Message, ...]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """``narrow: allowed``: steps 1..``number`` as (how many messages of ``history`` its request carried, the tools
    it offered), for a provider that says the changes between steps in the conversation (Scenario.tool_steps).
    Step 1 was sent with the scenario's own messages; step k > 1 with the history up to its reply, the k-th
    assistant turn after them; a step the history has no reply of yet (this one, or every step of a request
    rendered without its history: --dry-run, render) is placed at the history's end."""
    names = scenario.tool_names
    start, end = min(len(scenario.messages), len(history)), len(history)
    replies = [i for i in range(start, end) if history[i].role == "assistant"]
    out = []
    for k in range(1, number + 1):
        entry = spec.step(k)
        offered = names if entry.tools is None else tuple(n for n in names if n in entry.tools)
        if entry.has_choice and entry.tool_choice is not None and entry.tool_choice.mode == "allowed":
            offered = tuple(n for n in offered if n in entry.tool_choice.allowed)  # its own allowed list
        at = start if k == 1 else replies[k - 1] if k - 1 < len(replies) else end
        out.append((min(at, end) if k < number else end, offered))
    return tuple(out)


def forces(choice: ToolChoice | None) -> bool:
    """The choice makes a call mandatory: required / any, a named tool, or an allowed list in mode required."""
    return choice is not None and choice.forces_call


def reset(choice: ToolChoice | None) -> ToolChoice | None:
    """``after_call: auto``: a forcing choice becomes auto (an allowed list keeps its tools, in mode auto)."""
    if choice is not None and choice.mode == "allowed":
        return choice._replace(allowed_mode="auto", spelling="")
    return AUTO


def restricted(choice: ToolChoice | None, subset: tuple[str, ...]) -> ToolChoice | None:
    """``narrow: allowed``: the step's subset as a restriction of the choice, with every tool sent. A named
    tool or an allowed list is already inside the subset (the loader checks it); none stays none."""
    if choice is not None and choice.mode in ("named", "none", "allowed"):
        return choice
    mode = "required" if choice is not None and choice.mode == "required" else "auto"
    return ToolChoice("allowed", allowed=subset, allowed_mode=mode, spelling="")  # type: ignore[arg-type]


_NARROWED = "(loop.narrow: allowed): "


def narrow_note(number: int, subset: tuple[str, ...], choice: ToolChoice | None) -> LedgerEntry:
    sent = "unset" if choice is None else choice.quoted()
    return LedgerEntry("info", "loop.narrowed", f"step {number} offers {', '.join(subset) or 'no tools'} {_NARROWED}"
                       f"every tool is sent and the step's subset restricts the choice, {sent}, so the "
                       "tools stay the same from step to step (where the provider has no restriction form, only the "
                       "subset is sent: see tool_choice.emulated; on Anthropic with its mid-conversation tool changes "
                       "beta, loop.tool_changes)")


def narrowed_as_sent(notes: list[LedgerEntry], scenario: Scenario, translation: Any) -> None:
    """The step's ``loop.narrowed`` note, where ``providers.<id>.extra`` writes the tool_choice the request sends
    (``tool_choice.from_extra``, or ``tool_choice.extra_unread``: core/sent_choice.py): what was sent instead of the
    subset's restriction, and which tools, in place of the words the step's own choice would have made true."""
    at = next((i for i, e in enumerate(notes) if e.code == "loop.narrowed"), None)
    if at is None:
        return
    from .model import quoted

    sent = translation.sent_choice
    if sent is not None:
        code, wire = "tool_choice.from_extra", "no tool_choice" if sent.choice is None else sent.choice.quoted()
    elif any(e.code == "tool_choice.extra_unread" for e in translation.ledger):
        value = translation.effective_tool_choice
        code, wire = "tool_choice.extra_unread", "no tool_choice" if value is None else quoted(value)[:160]
    else:
        return
    message = notes[at].message
    head = message[:message.index(_NARROWED) + len(_NARROWED)]
    offered = translation.offered_tools
    restricted = "unset" if scenario.tool_choice is None else scenario.tool_choice.quoted()
    extra = (f"providers.{translation.provider}.extra sends the tool_choice {wire} in place of the subset's "
             f"restriction, {restricted} ({code})")
    if set(scenario.tool_names) <= set(offered):
        said = (f"every tool is sent and {extra}, so nothing on the wire holds the model to the subset; a call "
                "outside it still gets an error result (loop.phantom_call)")
    else:  # no restriction form: the subset's tools alone are sent (tool_choice.emulated), with extra's choice
        said = f"only {', '.join(offered) or 'no tool'} {'is' if len(offered) == 1 else 'are'} sent, and {extra}"
    notes[at] = notes[at]._replace(message=head + said)


def reset_note(number: int, before: ToolChoice, after: ToolChoice | None) -> LedgerEntry:
    return LedgerEntry("info", "loop.choice_reset",
                       f"step {number}: tool_choice {before.quoted()} sent as {after.quoted() if after else 'auto'} "
                       "because an earlier step's reply called a tool (loop.after_call: auto, as openai-agents' "
                       "reset_tool_choice)")


# ---- repeated identical calls ---------------------------------------------------------------


def _canonical(value: Any) -> Any:
    """``value`` as JSON compares it: true is not 1 (Python's True == 1 is), 2.0 is 2 (RFC 8785's numbers)."""
    if isinstance(value, dict):
        return {str(k): _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_canonical(v) for v in value]
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        return int(value)
    return value


def call_key(reply: Reply) -> tuple[tuple[str, str], ...]:
    """The step's calls as (name, the arguments as canonical JSON text): equal keys are the same call (keys sorted,
    true apart from 1; a call without decoded arguments by its text as received, a custom tool's by its input).
    Parallel calls are a set (docs/loop.md): put in a canonical order, so the same calls in another order are the
    same step (a model alternating their order never ended by repeated_calls: an adversarial run)."""
    key = tuple((c.name, json.dumps(_canonical(c.arguments), sort_keys=True, ensure_ascii=False, default=str)
                 if c.arguments is not None else json.dumps(c.input if c.input is not None else c.raw_arguments,
                                                             ensure_ascii=False)) for c in reply.tool_calls)
    return key if len(key) < 2 else tuple(sorted(key))


class Repeats:
    """How many consecutive steps made the same call(s); a note from the second in a row on."""

    def __init__(self) -> None:
        self.last: tuple[tuple[str, str], ...] = ()
        self.count = 0

    def see(self, number: int, reply: Reply, limit: int | None) -> LedgerEntry | None:
        key = call_key(reply)
        self.count = self.count + 1 if key and key == self.last else (1 if key else 0)
        self.last = key
        if self.count < 2:
            return None
        shown = cut(", ".join(f"{name}({args})" for name, args in key), 200)
        ends = (f"; loop.stop.repeated_calls {limit} ends the loop" if limit is not None and self.count >= limit
                else "" if limit is not None
                else f"; set loop.stop.repeated_calls: {self.count} to end the loop here")
        return LedgerEntry("warning", "loop.repeated_call",
                           f"step {number} makes the same call as the step before ({self.count} in a row): {shown}{ends}")
