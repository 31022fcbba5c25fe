"""What a model rule is and how its pattern meets a model id: ``Rule`` (facts per model family) and ``EndOfLife`` (a
documented retirement), and ``search``, the one matcher both use. The rules themselves are data in
``model_rule_data``; ``model_rules`` resolves them.

No third-party imports: this module is on `render`'s start-up path (the patterns compile lazily).
"""

import functools

import re
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

_VERIFIED = "2026-11-26"  # the date a rule's or an end of life's source was checked, unless it says another


class Rule(NamedTuple):
    name: str
    providers: tuple[str, ...]
    pattern: str  # searched (re.search) in the lower-cased model id
    facts: Mapping[str, Any]
    source: str
    verified: str = _VERIFIED  # ISO date the source was last checked
    family: bool = True  # False: a rule of the whole API, not of a model family (it does not make a model known)
    # Facts the family's sources were read for and do not state (RULE_KEYS key -> what was read): the model is
    # known, this one fact is not; translators say so (model_rule.unstated) and refuse nothing on a guess.
    unstated: Mapping[str, str] = MappingProxyType({})

    @property
    def id(self) -> str:
        return self.name

    def matches(self, provider: str, model: str) -> bool:
        return provider in self.providers and search(self.pattern, model.lower())

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "providers": list(self.providers), "pattern": self.pattern,
                "facts": dict(self.facts), "source": self.source, "verified": self.verified, "family": self.family,
                "unstated": dict(self.unstated)}


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    found = _PATTERNS.get(pattern)
    if found is None:
        found = _PATTERNS[pattern] = re.compile(pattern)
    return found


_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def _literal(pattern: str, at: int) -> tuple[str, int]:
    """The literal run of ``pattern`` from ``at`` (letters, digits, _ - and escaped dots) and where it ends.
    Plain string work: compiling a regex here would cost start-up what the needles save."""
    out = []
    while at < len(pattern):
        if pattern[at] in _PLAIN:
            out.append(pattern[at])
            at += 1
        elif pattern.startswith("\\.", at):
            out.append(".")
            at += 2
        else:
            break
    return "".join(out), at


@functools.lru_cache(maxsize=None)
def _needles(pattern: str) -> tuple[str, ...]:
    """Texts one of which every match of ``pattern`` contains: its leading literal run, spread over a first group
    of plain alternatives ("claude-(?:fable|mythos)-5" -> claude-fable-5, claude-mythos-5); () when there is no
    such text. A model id holding none of them cannot match, and the pattern is then never compiled (render's
    start-up stays at the floor)."""
    if _top_level_or(pattern):
        return ()
    first, end = _literal(pattern, 1 if pattern.startswith("^") else 0)
    if pattern[end:end + 1] in ("?", "*", "{"):  # "ab?": only "a" is certain
        return (first[:-1],) if first[:-1] else ()
    alternatives: list[str] = []
    if pattern.startswith("(?:", end):
        at = end + 3
        while True:
            word, at = _literal(pattern, at)
            if not word or pattern[at:at + 1] not in ("|", ")"):
                alternatives = []
                break
            alternatives.append(word)
            at += 1
            if pattern[at - 1] == ")":
                break
        if alternatives and pattern[at:at + 1] in ("?", "*", "{"):
            alternatives = []
    if not alternatives:
        return (first,) if first else ()
    after, stop = _literal(pattern, at)
    if pattern[stop:stop + 1] in ("?", "*", "{"):
        after = after[:-1]
    return tuple(first + alternative + after for alternative in alternatives)


def spelled(pattern: str) -> tuple[str, ...]:
    """The texts ``pattern`` spells out whole (its ``_needles``): "claude-(?:fable|mythos)-5" -> claude-fable-5,
    claude-mythos-5; what a did-you-mean may offer (``model_rules.known_ids``)."""
    return _needles(pattern)


def search(pattern: str, lowered: str) -> bool:
    needles = _needles(pattern)
    if needles and not any(needle in lowered for needle in needles):
        return False
    return _compiled(pattern).search(lowered) is not None


def _top_level_or(pattern: str) -> bool:
    depth, index, in_class = 0, 0, False
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            return True
        index += 1
    return False


class EndOfLife:
    """A model's documented retirement: after ``date`` the API answers an error for it. (A plain class: a NamedTuple
    class costs render's start-up more to create.)"""

    __slots__ = ("providers", "pattern", "date", "source", "replacement", "verified", "after", "models")

    def __init__(self, providers: tuple[str, ...], pattern: str, date: str, source: str, replacement: str,
                 verified: str = _VERIFIED, after: str = "the API answers an error for it",
                 models: frozenset[str] = frozenset()) -> None:
        self.providers = providers
        self.pattern = pattern  # searched in the lower-cased model id, as Rule.pattern
        self.date = date  # ISO date of retirement (the last day it answers)
        self.source = source  # where it is documented, with the words quoted
        self.replacement = replacement  # a current model to use instead
        self.verified = verified
        self.after = after  # what the source says happens from that date
        self.models = models  # exact model ids (then ``pattern`` is only for people)

