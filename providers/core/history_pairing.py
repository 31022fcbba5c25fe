"""How a history's tool calls and tool results pair, family-neutral: the calls an assistant message made that no
result answers. The families whose API refuses such a history (a recorded 400
in a dated fact) word the refusal in their own module; where no source says the API refuses, nothing here refuses.
No I/O, no third-party imports (`render` reaches it)."""

from __future__ import annotations

from typing import NamedTuple

from .model import Message


class Unanswered(NamedTuple):
    position: int  # the assistant message's place in the scenario's messages
    ids: tuple[str, ...]  # its calls that no result answers, in its order
    after: int | None  # the place of the first message after its run of results; None: the history ends there


def unanswered(messages: tuple[Message, ...], *, anywhere_later: bool = False) -> list[Unanswered]:
    """Each assistant message whose calls are not all answered by the tool messages right after it (or, with
    ``anywhere_later``, by a tool message anywhere after it)."""
    out: list[Unanswered] = []
    for index, message in enumerate(messages):
        if not message.tool_calls:
            continue
        after = index + 1
        answered: set[str | None] = set()
        while after < len(messages) and messages[after].role == "tool":
            answered.add(messages[after].tool_call_id)
            after += 1
        if anywhere_later:
            answered.update(m.tool_call_id for m in messages[after:] if m.role == "tool")
        missing = tuple(c.id for c in message.tool_calls if c.id not in answered)
        if missing:
            out.append(Unanswered(index, missing, after if after < len(messages) else None))
    return out

