"""``loop.narrow: allowed`` on Anthropic Messages with mid-conversation tool changes (beta).

Anthropic's tool_choice has no allowed-subset form, so a narrowed step is otherwise sent with only its tools
(``tool_choice.emulated``), and ``tools`` changes from step to step. When the scenario opts in with the beta, the
header ``anthropic-beta`` of ``providers.anthropic.headers`` naming ``mid-conversation-tool-changes-2026-07-01``
(among other betas, comma-separated, as the API takes them), every tool stays in ``tools`` on every step and the
changes between steps go in the conversation as the SDK types put them (fact ``anthropic.tool_changes``): a
``{"role": "system", "content": [{"type": "tool_removal" | "tool_addition", "tool": {"type": "tool_reference",
"name": N}}, ...]}`` message at the point each step's request ended, after that step's user message (the tool
results), never after an assistant turn (fact ``anthropic.tool_changes_thinking``: "In a tool loop, place it
after the `tool_result` user message"). Each request is the one before it with messages appended, so ``tools``,
``system`` and the earlier messages stay byte for byte the same: the thinking already in the history keeps its
prefix, and the prompt cache its prefix. The step's choice is then the plain mode of its allowed list (auto, or
any for a forcing step); a named tool and none are sent as they are.

The steps so far come from ``Scenario.tool_steps`` (core/loop_policy.py). Without the opt-in nothing here runs.
"""

from __future__ import annotations

from typing import Any

from .core.model import Message, Scenario, ToolChoice

BETA = "mid-conversation-tool-changes-2026-07-01"  # fact anthropic.tool_changes
BETA_HEADER = "anthropic-beta"
FACT = "anthropic.tool_changes"
PLACEMENT_FACT = "anthropic.tool_changes_thinking"
# the way out loop_lint's loop.tools_changed_with_thinking names for this API (anthropic.py's TOOL_CHANGES_WAY)
WAY_OUT = (f"on Anthropic loop.narrow: allowed with the header {BETA_HEADER}: {BETA} in providers.anthropic.headers "
           "(the changes go in the conversation, docs/loop.md)")

# its ledger code, loop.tool_changes (info), is the loop's: docs/loop.md lists it


def user_betas(settings: Any) -> tuple[str, str] | None:
    """(the header's name as written, its value) of providers.<id>.headers' anthropic-beta; None when not set."""
    for name, value in settings.headers.items():
        if name.lower() == BETA_HEADER and isinstance(value, str):
            return name, value
    return None


def unread_betas(settings: Any) -> str | None:
    """The anthropic-beta header's value where it holds a ``$NAME`` read from the environment only when sent: the
    translation cannot see whether it names the beta, so a narrowed step is sent by removal. None otherwise."""
    from .core.request_parts import ENV_PLACEHOLDER

    written = user_betas(settings)
    if written is None or BETA in written[1] or not ENV_PLACEHOLDER.search(written[1]):
        return None
    return written[1]


def narrows(scenario: Scenario) -> bool:
    """Some step so far offers fewer tools than the scenario declares (what the beta would say as blocks)."""
    names = set(scenario.tool_names)
    return any(set(offered) != names for _, offered in scenario.tool_steps)


def opted_in(settings: Any) -> bool:
    """The scenario's headers name the beta in anthropic-beta (a comma-separated list, as the API takes it)."""
    written = user_betas(settings)
    return written is not None and BETA in (part.strip() for part in written[1].split(","))


class Plan:
    """What the request says between its messages: ``groups`` are (how many scenario messages come before,
    the blocks), in order."""

    __slots__ = ("scenario", "groups", "offered")

    def __init__(self, scenario: Scenario, groups: list[tuple[int, list[dict[str, Any]]]],
                 offered: tuple[str, ...]) -> None:
        self.scenario = scenario  # the step with its choice in Anthropic's own terms (every tool sent)
        self.groups = groups
        self.offered = offered  # the tools this step offers


def plan(scenario: Scenario, settings: Any) -> Plan | None:
    """The tool changes this step's request carries, or None: no ``narrow: allowed`` loop step, no opt-in, a
    choice restricted to other tools than the step offers (its own allowed list on --tool-choice: sent the usual
    way), or a change that would follow an assistant turn (a history ending with the assistant's prefill), where
    the API answers 400."""
    steps = scenario.tool_steps
    if not steps or not opted_in(settings):
        return None
    offered = steps[-1][1]
    choice = scenario.tool_choice
    if choice is not None and choice.mode == "allowed":
        if set(choice.allowed) != set(offered):
            return None
        choice = ToolChoice(choice.allowed_mode, spelling=choice.allowed_mode)
    groups = _groups(steps, scenario.tool_names)
    if any(not _placeable(scenario.messages, at) for at, _ in groups):
        return None
    return Plan(scenario._replace(tool_choice=choice), groups, offered)


def _groups(steps: tuple[tuple[int, tuple[str, ...]], ...], names: tuple[str, ...]) -> list[tuple[int, list[dict[str, Any]]]]:
    """The blocks at each place: from every tool (what ``tools`` offers) to step 1's tools, then from each step's
    to the next's; steps placed at one point (a request rendered without its history) say the change once."""
    state = set(names)
    out: list[tuple[int, list[dict[str, Any]]]] = []
    index = 0
    while index < len(steps):
        at = steps[index][0]
        while index + 1 < len(steps) and steps[index + 1][0] == at:
            index += 1
        wanted = set(steps[index][1])
        blocks = [_block("tool_removal", n) for n in names if n in state and n not in wanted]
        blocks += [_block("tool_addition", n) for n in names if n in wanted and n not in state]
        if blocks:
            out.append((at, blocks))
        state = wanted
        index += 1
    return out


def _block(kind: str, name: str) -> dict[str, Any]:
    return {"type": kind, "tool": {"type": "tool_reference", "name": name}}


def _placeable(messages: tuple[Message, ...], at: int) -> bool:
    """A system message with tool blocks goes after a user message (tool results count), not after Claude's turn
    and not first."""
    return 0 < at <= len(messages) and messages[at - 1].role != "assistant"


def insert(wire: list[dict[str, Any]], messages: tuple[Message, ...], groups: list[tuple[int, list[dict[str, Any]]]]) -> int:
    """Put each group's system message into ``wire`` (the request's messages, one per turn: anthropic.group_turns
    merges neighbouring messages of one role) after the turn that holds scenario message ``at - 1``. Returns how
    many were put in."""
    turn_after: dict[int, int] = {}  # scenario messages before -> wire turns before
    wanted = {at for at, _ in groups}
    turns, role = 0, None
    for count, message in enumerate(messages, 1):
        now = "assistant" if message.role == "assistant" else "user"
        if now != role:
            turns, role = turns + 1, now
        if count in wanted:
            turn_after[count] = turns
    for at, blocks in reversed(groups):
        wire.insert(turn_after[at], {"role": "system", "content": blocks})
    return len(groups)


def note_unread(ctx: Any, value: str) -> None:
    """A narrowed step sent by removal although the beta header may name the tool changes beta when it is read."""
    ctx.ledger.warning("loop.tool_changes_unread", f"anthropic-beta is {value!r}, read from the environment only "
                       f"when the request is sent, so this step cannot know whether it names {BETA}: it is sent "
                       "with only its tools (tool_choice.emulated), as without the beta. To send every tool and "
                       f"the changes as tool_removal / tool_addition blocks, write {BETA} in "
                       f"providers.{ctx.provider}.headers.anthropic-beta itself (it is no secret)")


def note(ctx: Any, step: Plan, sent: int) -> None:
    from .core.facts import cited

    names = ", ".join(step.offered) or "no tools"
    said = (f"{sent} role: system message{'s' if sent != 1 else ''} of tool_removal / tool_addition blocks say the "
            "changes between steps" if sent else "no step so far changed them")
    ctx.ledger.info("loop.tool_changes", f"this step offers {names} (loop.narrow: allowed): every tool stays in "
                    f"tools and {said}, at the point each step was sent (anthropic-beta: {BETA}; {cited(FACT)}), so "
                    "tools and the earlier messages stay the same from step to step (the thinking in the history "
                    f"keeps its prefix: {cited(PLACEMENT_FACT)}); removal is a hint, a call to a removed tool gets "
                    "the loop's error result")
