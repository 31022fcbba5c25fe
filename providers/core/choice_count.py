"""How many choices a request asks (OpenAI Chat's ``n``, Gemini's ``generationConfig.candidateCount``, written through
``providers.<id>.extra``), held to what each host's source says (``core/choice_facts.py``).

``severity`` "error": the API's own source says it refuses the count (Groq: n must be 1), so render and send refuse
it with ``choices.unsupported`` quoting those words (``host_rules.refuse``: a warning where a base URL replaces the
API's host) and the mock answers it with a 400 in the API's words. "warning": a source says the count is ignored,
capped, or was refused (a recorded error the host's own source does not state): the request is sent. Both are the
value of the host's fact (``ChoiceCount``, core/fact_values.py). A host whose fact has no such value takes ``n``, and
one with no fact has no source: nothing is said."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .choice_facts import CHOICE_FACTS
from .fact_values import ChoiceCount

if TYPE_CHECKING:
    from .request_context import Context


# provider → (the fact's id, its ChoiceCount): the facts (core/choice_facts.py) saying how many choices a host takes
# and that more are refused or warned of
RULES: dict[str, tuple[str, ChoiceCount]] = {p: (f.id, f.value) for f in CHOICE_FACTS
                                             if isinstance(f.value, ChoiceCount) for p in f.providers}


_COUNT_FIELDS = (("n",),)  # OpenAI Chat's ``n``: where a family's module declares no CHOICE_COUNT_FIELDS


def requested(provider: str, body: Any) -> tuple[str, int] | None:
    """(the field as written, the count) when the body asks for a count of choices; else None. Where the count is
    written is the family's (its module's ``CHOICE_COUNT_FIELDS``: paths into the body, the first that holds an
    integer read; Gemini's ``generationConfig.candidateCount``)."""
    if not isinstance(body, dict):
        return None
    for path in _count_fields(provider):
        node: Any = body
        for key in path[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
        value = node.get(path[-1]) if isinstance(node, dict) else None
        if isinstance(value, int) and not isinstance(value, bool):
            return ".".join(path), value
    return None


def _count_fields(provider: str) -> tuple[tuple[str, ...], ...]:
    from .capabilities import CAPABILITIES
    from .registry import module_for

    return getattr(module_for(provider), "CHOICE_COUNT_FIELDS", _COUNT_FIELDS) if provider in CAPABILITIES \
        else _COUNT_FIELDS


def _past(rule: ChoiceCount, count: int) -> bool:
    # more than the source takes, or fewer than 1 where the source says so (``below``)
    return count > rule.most or (bool(rule.below) and count < 1)


def _words(rule: ChoiceCount, count: int) -> str:
    return rule.below if count < 1 and rule.below else rule.words


def check(ctx: Context, body: dict[str, Any]) -> None:
    """The count of choices the body asks, held to the row's rule (translation.finish, after ``extra`` is merged)."""
    ruled = RULES.get(ctx.provider)
    asked = requested(ctx.provider, body) if ruled is not None else None
    if ruled is None or asked is None or not _past(ruled[1], asked[1]):
        return
    fact_id, rule = ruled
    if rule.stream_only and not body.get("stream"):
        return
    from .facts import cited
    from .host_rules import refuse

    field, count = asked
    if rule.severity == "error":
        refuse(ctx, "choices.unsupported", f"{field}: {count}, and {ctx.cap.title} takes only {rule.most} "
               f"(\"{_words(rule, count)}\", "
               f"{cited(fact_id)}); leave {field} out or set it to {rule.most}, and send the request again for "
               "another sample (send --repeat)")
    else:
        streamed = " with stream" if rule.stream_only else ""
        ctx.ledger.warning("choices.unsupported", f"{field}: {count}{streamed}; a source says {ctx.cap.title} takes at "
                           f"most {rule.most} (\"{rule.words}\", {cited(fact_id)}); sent as written, and fewer choices "
                           "than asked may come back, or the API may refuse it")


def mock_refusal(provider: str, body: Any) -> str | None:
    """The API's 400 message for a count its own source says it refuses (the mock answers it); else None."""
    ruled = RULES.get(provider)
    if ruled is None or ruled[1].severity != "error":
        return None
    rule = ruled[1]
    asked = requested(provider, body)
    return _words(rule, asked[1]) if asked is not None and _past(rule, asked[1]) else None
