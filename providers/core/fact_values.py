"""The typed values dated facts state (``Fact.value``): what the mock's tables and the translators' rules read,
so that a fact's words are written once, beside its source (core/facts.py and the modules joined to it).

- ``ChoiceWords``: the string ``tool_choice`` words a host's own source names, and what it says of another word;
  the mock judges a request's word against them (core/mock/judge.py).
- ``RefusalWords``: the API's own words for a refusal toolchoice's ledger names in its own words, in the case they
  were recorded for, with the other fields of the recorded error body (``envelope``: OpenAI's ``param`` and ``code``,
  Mistral's ``type``, ...); the mock's 400 carries them (core/refusal_words.api_refusal). A fact may hold several.
- ``ChoiceCount``: how many choices (``n``, ``candidateCount``) a host's source says it takes, and whether it refuses
  more (core/choice_count.py: render, send and the mock).
- ``NamedModels``: the models a provider's source names for a feature, as fragments of their model ids; for any
  other model the source says nothing, and the ledger says so (Bedrock's toolSpec.strict: providers/bedrock.py).
- ``VersionRemoves``: the body fields an API version removes, which a request sent under that version (a header's
  value) is refused for, in the provider's own words (Anthropic's 2026-10-21: providers/anthropic.py).
"""

from __future__ import annotations

from typing import Any, Literal, Mapping, NamedTuple, Union

from .name_rule import NameRule  # its own leaf module: render reads the name-rule facts, never this one


class ChoiceWords(NamedTuple):
    """The string tool_choice words a host's source names, in the source's order. ``others``: "refused", the
    API refuses another word (its closed types, a recorded 400), or "unread", no source says what it does with
    one (the mock passes it unjudged, never refused). ``forms``: the source also names object forms (a named
    function); False where it names these values only (Cohere), so any other value is unread. ``refusal``: the
    API's recorded words refusing another string (Groq's), else None and the mock says it in OpenAI's style."""

    words: tuple[str, ...]
    others: Literal["refused", "unread"]
    forms: bool = True
    refusal: str | None = None


class RefusalWords(NamedTuple):
    """The API's words for the refusal a ledger ``code`` stands for, on ``providers``, in the case they were recorded
    for: a model id the ``model`` pattern is searched in (None: any), or one of the model rules named in ``rules``
    matches (core/model_rule_data.py: the rules' own patterns, no second one), a body field at ``field`` (a path) equal to
    ``value`` (None: any body). ``words`` may hold ``{model}``, the request's model id as the API echoes it, and
    ``{tool_index}``, the index of the tool whose schema the API refuses, ``{message_index}``, the index of the message
    the API refuses (core/refusal_words.py).
    ``envelope``: the recorded error body's other fields beside its message, as (name, value) pairs (a recorded null is
    None), each written into the family's error object by its ``mock_error(fields=...)``; () where no recording
    shows them, and the family's envelope keeps its defaults. ``status``: the recorded answer's HTTP status. The fact
    holding the row names the recordings."""

    code: str
    providers: tuple[str, ...]
    words: str
    model: str | None = None
    field: tuple[str, ...] = ()
    value: Any = None
    envelope: tuple[tuple[str, Any], ...] = ()
    status: int = 400  # the recorded answer's HTTP status (xAI's deserializer refusals are 422)
    rules: tuple[str, ...] = ()  # model rule names: the words hold for a model one of them matches (() : any model)


class ChoiceCount(NamedTuple):
    """How many choices a host's source says one request may ask. ``severity`` "error": the API refuses more (its
    own source says so); "warning": a source says more are ignored, capped or were refused, and the request is
    sent."""

    severity: Literal["error", "warning"]
    most: int  # the most choices the source says the host takes
    words: str  # what the source says, quoted in the ledger (the API's 400 message for an error)
    stream_only: bool = False  # the source speaks of streamed requests only
    # the source's words when it says a count below 1 is refused too (Groq: "must be equal to 1"); else a count
    # below 1 is no source's subject here and is left to the API
    below: str = ""


class NamedModels(NamedTuple):
    """The models a source names for a feature (``names``: fragments searched in the lower-cased model id, each the
    source's model written as the provider's id writes it, e.g. claude-opus-4-6 for "Claude Opus 4.6"), and the
    source's own words for the list (``words``). A model none of them is found in is not known either way."""

    names: tuple[str, ...]
    words: str

    def named(self, model: str) -> str | None:
        """The fragment naming ``model``, else None. A fragment ends the model's version, as a model rule's pattern
        does (model_rules._V): no digit after it and no further short version number, so claude-opus-4-5 names
        claude-opus-4-5-20251101-v1:0 but not claude-opus-4-50 or claude-opus-4-5-1, which the source does not name."""
        import re

        lowered = model.lower()
        return next((name for name in self.names if re.search(re.escape(name) + r"(?!\d)(?!-\d{1,7}(?!\d))", lowered)),
                    None)


class VersionRemoves(NamedTuple):
    """Top-level body ``fields`` that API ``version`` (the value of request header ``header``, matched without
    case) removes, and the provider's own words saying a request under that version that sends one is refused
    (``words``). Under another version the fields are the API's as before."""

    header: str
    version: str
    fields: tuple[str, ...]
    words: str

    def removed(self, headers: Mapping[str, str], body: Mapping[str, Any]) -> tuple[str, ...]:
        """The removed fields ``body`` sends, when ``headers`` carry this version; () otherwise."""
        sent = next((value for name, value in headers.items() if name.lower() == self.header.lower()), None)
        if sent is None or sent.strip() != self.version:
            return ()
        return tuple(field for field in self.fields if field in body)


FactValue = Union[ChoiceWords, ChoiceCount, NamedModels, VersionRemoves, NameRule, tuple[RefusalWords, ...]]


def refusals(value: FactValue | None) -> tuple[RefusalWords, ...]:
    """The RefusalWords a fact's value holds (none for another kind of value: ChoiceWords and ChoiceCount are
    tuples too)."""
    if type(value) is tuple and all(isinstance(row, RefusalWords) for row in value):
        return value
    return ()
