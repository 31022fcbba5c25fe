"""A reply with several choices (OpenAI Chat Completions' ``n``, and every host that speaks it): each choice is
judged as a reply of its own, and the reply obeys only when every choice does.

The rule, and why: a request with ``n: 3`` asks the model three times, and a client may use any of the three
(haystack's ``OpenAIChatGenerator`` returns them all; openai-python's users read ``choices[0]``). One disobeying
choice is a disobeying reply (exit 4), as one disobeying sample of ``send --repeat`` is; the tally of a run still
counts replies (one request, one sample), and the verdict says each choice's category and how many obeyed
(``choices_obeyed``). The reply itself is choice 0 (``Reply.choices[0]``): the loop carries that one forward.
"""

from __future__ import annotations

from typing import Any, Callable

from .model import Reply, Scenario, Translation


def judged(scenario: Scenario, reply: Reply, translation: Translation | None,
           judge: Callable[[Scenario, Reply, Translation | None], dict[str, Any]],
           order: tuple[str, ...]) -> dict[str, Any]:
    """The verdict of a reply with several choices: ``judge`` (verdict.verdict) run on each, then one verdict.
    ``category`` is the most fundamental of the disobeying choices' categories (first in ``order``: the verdict's
    own), else obeyed; ``reasons`` first say the count, then each choice's own reasons; ``calls`` are choice 0's
    checks."""
    verdicts = [judge(scenario, choice, translation) for choice in reply.choices]
    if reply.error is not None:  # a stream that failed after its choices began: the reply's error decides
        whole = judge(scenario, reply._replace(choices=()), translation)
        if not whole["obeyed"]:
            return whole
    bad = [v["category"] for v in verdicts if not v["obeyed"]]
    category = min(bad, key=lambda c: order.index(c) if c in order else len(order)) if bad else "obeyed"
    good, total = len(verdicts) - len(bad), len(verdicts)
    head = (f"every one of the {total} choices obeyed" if not bad else
            f"{good} of {total} choices obeyed: a reply with several choices obeys only when every one does")
    reasons = [head] + [f"choice {i}: {reason}" for i, v in enumerate(verdicts) for reason in v["reasons"]]
    result = {"obeyed": not bad, "category": category, "reasons": reasons,
              "enforced": all(v["enforced"] for v in verdicts), "calls": verdicts[0]["calls"],
              "choices_obeyed": [good, total],
              "choices": [{"index": i, "obeyed": v["obeyed"], "category": v["category"], "reasons": v["reasons"],
                           "calls": v["calls"]} for i, v in enumerate(verdicts)]}
    if reply.server_calls:
        result["server_calls"] = [call.to_json() for call in reply.server_calls]
    return result


def max_choices() -> int:
    """The most choices a stream is assembled for and the mock answers (limit ``choices``, docs/limits.md)."""
    from .limits import get

    return get("choices")


def other_choice(owner: Any, index: int) -> Any:
    """The assembler of a stream's choice ``index`` (> 0) beside ``owner`` (choice 0's), made on its first chunk
    (``owner._others``); None past the ``choices`` limit, said once as a ``stream.too_large`` finding."""
    other = owner._others.get(index)
    if other is None:
        if index >= max_choices():
            if not any(f.code == "stream.too_large" and "limit choices" in f.message for f in owner.findings):
                from .limits import refusal
                from .stream_assembly import Finding

                owner.findings.append(Finding("stream.too_large", refusal(f"the reply's choices (index {index})",
                                                                          "choices") + "; those past it are not read"))
            return None
        other = owner._others[index] = type(owner)(owner.provider)
    return other


def fed_by_index(owner: Any, items: list[Any], index_of: Callable[[Any, int], Any],
                 feed: Callable[[Any, Any], bool]) -> bool:
    """A chunk's choices (or candidates) each fed to the assembler of its index: 0 to ``owner`` itself, the others
    to theirs (``other_choice``); an item without an integer index of 0 or more is not read. ``index_of(item,
    position)``: the family's index; ``feed(assembler, item)``: whether it added a piece."""
    fed = False
    for position, item in enumerate(items):
        index = index_of(item, position)
        if index == 0:
            fed = feed(owner, item) or fed
        elif isinstance(index, int) and not isinstance(index, bool) and index > 0:
            other = other_choice(owner, index)
            fed = (other is not None and feed(other, item)) or fed
        else:  # '1', 1.0, true, -1, no object: openai-python reads some of them (as 1, or as the last choice)
            _unread(owner, f"a choice whose index is {_shown(index, item)}, not a whole number of 0 or more, is not "
                    "read: the reply's choices are not all known")
    return fed


def _shown(index: Any, item: Any) -> str:
    if not isinstance(item, dict):
        return f"missing (the choice is {type(item).__name__}, not an object)"
    return repr(index)[:40]


def _unread(owner: Any, message: str) -> None:
    """One ``stream.malformed_event`` finding (the first such choice), which fails the stream: a choice left unread
    may be the one that disobeyed."""
    if not any(f.code == "stream.malformed_event" and f.message == message for f in owner.findings):
        from .stream_assembly import Finding

        if len(owner.findings) < 20:
            owner.findings.append(Finding("stream.malformed_event", message))


def assembled(assembly: Any, others: dict[int, Any], first_carried: bool = True) -> Any:
    """A stream's ``Assembly`` (choice 0's, by the family's assembler) with the choices ``others`` assembled beside it
    (index → that choice's assembler): ``Reply.choices`` in index order, their findings added. An index below the
    highest that no chunk carried (``first_carried``: whether one carried choice 0) is no answer of the model's: a
    ``stream.malformed_event`` finding, so the reply is not judged (openai-python's stream state cannot assemble such
    a stream: an IndexError), and an empty reply in its place."""
    mine = assembly.reply
    replies = {0: Reply(mine.tool_calls, mine.text, mine.finish_reason, reasoning=mine.reasoning)}
    findings = list(assembly.findings)
    for index, other in sorted(others.items()):
        calls, _ = other.calls.build()
        replies[index] = Reply(calls, other.reply_text(), other.finish_reason)
        findings += other.findings
    top = max(replies)
    missing = [i for i in range(top + 1) if i not in others and (i or not first_carried)]
    if missing:
        from .stream_assembly import Finding

        listed = ", ".join(map(str, missing[:10])) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
        findings.append(Finding("stream.malformed_event", f"no chunk carried choice {listed}, below the highest index "
                                f"{top}: the reply's choices are not all known, so it is not judged"))
    choices = tuple(replies.get(i, Reply()) for i in range(top + 1))
    return assembly._replace(reply=mine._replace(choices=choices), findings=tuple(findings))
