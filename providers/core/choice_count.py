"""How many choices a request asks (OpenAI Chat's ``n``, Gemini's ``generationConfig.candidateCount``, written through
``providers.<id>.extra``), held to what each host's source says (``core/choice_facts.py``).

``severity`` "error": the API's own source says it refuses the count (Groq: n must be 1), so render and send refuse
it with ``choices.unsupported`` quoting those words (``host_rules.refuse``: a warning where a base URL replaces the
API's host) and the mock answers it with a 400 in the API's words. "warning": a source says the count is ignored,
capped, or was refused (a recorded error the host's own source does not state): the request is sent. A host with no
rule here takes ``n`` or has no source: nothing is said."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from .request_context import Context


class ChoiceRule(NamedTuple):
    fact: str  # the dated fact (core/choice_facts.py)
    severity: str  # "error": the API refuses; "warning": the request is sent
    most: int  # the most choices the source says the host takes
    words: str  # what the source says, quoted in the ledger (the API's 400 message for an error)
    stream_only: bool = False  # the source speaks of streamed requests only
    # the source's words when it says a count below 1 is refused too (Groq: "must be equal to 1"); else a count
    # below 1 is no source's subject here and is left to the API
    below: str = ""


RULES: dict[str, ChoiceRule] = {
    "groq": ChoiceRule("groq.choice_count", "error", 1, "'n' : number must be at most 1",
                       below="If `N` is supplied, it must be equal to 1."),
    "huggingface": ChoiceRule("huggingface.choice_count", "warning", 1,
                              "UNUSED How many chat completion choices to generate for each input message."),
    "fireworks": ChoiceRule("fireworks.choice_count", "warning", 128, "Required range: `1 <= x <= 128`"),
    "azure": ChoiceRule("azure.choice_count", "warning", 128, '"n": { "type": "integer", "minimum": 1, "maximum": 128'),
    "cerebras": ChoiceRule("cerebras.choice_count", "warning", 1, '"n" > 1 is not currently supported'),
    # a warning: the API's recorded 400, no DeepSeek page (core/choice_facts.py deepseek.choice_count)
    "deepseek": ChoiceRule("deepseek.choice_count", "warning", 1, "Invalid n value (currently only n = 1 is supported)"),
    "together": ChoiceRule("together.choice_count", "warning", 1,
                           "`n` > 1 is not supported when streaming tokens. Please disable `stream`", stream_only=True),
    "gemini": ChoiceRule("gemini.candidate_count", "warning", 1,
                         "Only one candidate can be specified in the current model"),
}


def requested(provider: str, body: Any) -> tuple[str, int] | None:
    """(the field as written, the count) when the body asks for a count of choices; else None."""
    if not isinstance(body, dict):
        return None
    if provider == "gemini":
        config = body.get("generationConfig")
        if not isinstance(config, dict):
            return None
        for key in ("candidateCount", "candidate_count"):  # google-genai 3.6.1 takes both spellings
            if isinstance(config.get(key), int) and not isinstance(config.get(key), bool):
                return f"generationConfig.{key}", config[key]
        return None
    count = body.get("n")
    return ("n", count) if isinstance(count, int) and not isinstance(count, bool) else None


def _past(rule: ChoiceRule, count: int) -> bool:
    # more than the source takes, or fewer than 1 where the source says so (``below``)
    return count > rule.most or (bool(rule.below) and count < 1)


def _words(rule: ChoiceRule, count: int) -> str:
    return rule.below if count < 1 and rule.below else rule.words


def check(ctx: Context, body: dict[str, Any]) -> None:
    """The count of choices the body asks, held to the row's rule (translation.finish, after ``extra`` is merged)."""
    rule = RULES.get(ctx.provider)
    asked = requested(ctx.provider, body) if rule is not None else None
    if rule is None or asked is None or not _past(rule, asked[1]):
        return
    if rule.stream_only and not body.get("stream"):
        return
    from .facts import cited
    from .host_rules import refuse

    field, count = asked
    if rule.severity == "error":
        refuse(ctx, "choices.unsupported", f"{field}: {count}, and {ctx.cap.title} takes only {rule.most} "
               f"(\"{_words(rule, count)}\", "
               f"{cited(rule.fact)}); leave {field} out or set it to {rule.most}, and send the request again for "
               "another sample (send --repeat)")
    else:
        streamed = " with stream" if rule.stream_only else ""
        ctx.ledger.warning("choices.unsupported", f"{field}: {count}{streamed}; a source says {ctx.cap.title} takes at "
                           f"most {rule.most} (\"{rule.words}\", {cited(rule.fact)}); sent as written, and fewer choices "
                           "than asked may come back, or the API may refuse it")


def mock_refusal(provider: str, body: Any) -> str | None:
    """The API's 400 message for a count its own source says it refuses (the mock answers it); else None."""
    rule = RULES.get(provider)
    if rule is None or rule.severity != "error":
        return None
    asked = requested(provider, body)
    return _words(rule, asked[1]) if asked is not None and _past(rule, asked[1]) else None
