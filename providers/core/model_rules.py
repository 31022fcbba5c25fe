"""Facts that hold per model family, not per provider: rules matched on the model id.

Each rule names the providers it applies to, a regular expression searched in the model id, the
facts it sets, the primary source and the date the source was checked. Translators ask
``resolve(provider, model, overrides)`` and record in the ledger which rule applied; a scenario
overrides a fact per provider with ``providers.<id>.rules: {KEY: value}`` when a user knows better.
The facts a rule can set are ``RULE_KEYS``; the rules and the documented retirements are data in
``model_rule_data``; what a rule is and how it matches a model id, ``model_rule_match``.

No third-party imports: this module is on `render`'s start-up path (the patterns compile lazily).
"""

import functools
import re

from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

from .model_rule_data import END_OF_LIFE, RULES
from .model_rule_match import EndOfLife, Rule
from .model_rule_match import search as _search

# The facts a rule can set, with the values each takes and what it means.
RULE_KEYS: dict[str, tuple[tuple[Any, ...], str]] = {
    "thinking_form": (("enabled", "adaptive", "both", "none"),
                      "which thinking config the model takes: manual {type: enabled, budget_tokens} (enabled), "
                      "{type: adaptive} (adaptive), either (both), or none at all; the other form is answered 400"),
    "thinking_default": ((True, False), "thinking is on when the request does not say"),
    "thinking_always_on": ((True, False), "thinking cannot be turned off: {type: disabled} is answered 400"),
    "disabled_effort_max": (("low", "medium", "high", "xhigh"),
                            "the highest effort (output_config.effort) thinking {type: disabled} is taken with: a "
                            "higher effort sent with disabled is answered 400"),
    "thinking_off": (("disabled", "between_tools"),
                     "the lowest thinking setting the model takes: {type: disabled}, or {type: between_tools} where "
                     "disabled is refused"),
    "forced_tool_choice": ((True, False), "the model takes a forcing tool_choice (any / required / one named tool) "
                                          "at all, whatever the thinking setting"),
    "forced_choice_with_thinking": ((True, False), "a forcing tool_choice is accepted with manual thinking on "
                                                   "({type: enabled}; DeepSeek: thinking mode)"),
    "forced_choice_with_adaptive": ((True, False), "a forcing tool_choice is accepted with adaptive thinking (sent, "
                                                   "or on by default)"),
    "tool_choice_with_thinking": ((True, False), "a tool_choice of any value, auto and none too, is accepted in "
                                                 "thinking mode (DeepSeek; false: auto and none are sent and warned)"),
    "effort_default": (("low", "medium", "high", "xhigh", "max"), "the effort used when the request sets none"),
    "parallel_tool_calls": ((True, False), "the model takes the parallel_tool_calls parameter at all"),
    "tools_reasoning_effort": (("none", "absent-or-none", "other-refused", "absent-unstated", "none-unstated", "never",
                                "any"),
                               "Chat Completions with function tools: reasoning_effort must be 'none' (none), "
                               "absent or 'none' (absent-or-none), not another value, 'none' and absent unstated "
                               "(other-refused), 'none' and not another value, absent unstated (absent-unstated), not "
                               "absent nor another value, 'none' unstated (none-unstated), no "
                               "value and not absent either (never), or anything (any)"),
    "tool_choice": ((True, False), "the model takes a tool_choice at all"),
    "named_tool_choice": ((True, False), "the model takes a tool_choice naming one tool"),
    "signatures_required": ((True, False), "history function calls must carry the thought signature the model "
                                           "returned (a stand-in is needed for calls it did not write)"),
    "reasoning_replay": ((True, False), "reasoning of earlier tool-call turns must be sent back, else HTTP 400"),
    "thinking_prefix_check": ((True, False), "thinking blocks sent back are checked against their prefix: a change "
                                             "of tools, system or an earlier message since the block was made "
                                             "invalidates it"),
    "strict_schema_limits": ((True, False), "the model's strict tools are held to Anthropic's schema complexity limits "
                                            "(20 strict tools, 24 optional and 16 union-typed parameters)"),
    "thinking_fixed_per_turn": ((True, False), "one thinking configuration per assistant turn: a tool loop is one "
                                               "turn, so thinking changes only between turns"),
}

EOL_WARNING_DAYS = 30  # warn this many days before a documented end of life, and after it
EOL_PROVIDERS: frozenset[str] = frozenset(p for entry in END_OF_LIFE for p in entry.providers)  # a cheap first test


@functools.lru_cache(maxsize=4096)
def retiring(provider: str, model: str) -> EndOfLife | None:
    """The END_OF_LIFE entry for this provider and model, matched once per process."""
    lowered = model.lower()
    for entry in END_OF_LIFE:
        if provider in entry.providers and (lowered in entry.models if entry.models else _search(entry.pattern,
                                                                                                   lowered)):
            return entry
    return None


@functools.lru_cache(maxsize=4096)
def eol_warning(provider: str, model: str) -> str | None:
    """``end_of_life`` for today (read once per process), cached per model: what ``start`` asks per request."""
    return end_of_life(provider, model)


def end_of_life(provider: str, model: str, today: str | None = None) -> str | None:
    """A warning when the model is past, or within EOL_WARNING_DAYS of, its documented end of life; else None.
    ``today`` is an ISO date (default: the local date, read once per process)."""
    if retiring(provider, model) is None:
        return None
    return _eol_text(provider, model, today or _today())


@functools.lru_cache(maxsize=1)
def _today() -> str:
    import datetime  # only for a model with a documented end of life

    return datetime.date.today().isoformat()


@functools.lru_cache(maxsize=1024)
def _eol_text(provider: str, model: str, today: str) -> str | None:
    import datetime

    entry = retiring(provider, model)
    assert entry is not None
    day = datetime.date.fromisoformat(today)
    left = (datetime.date.fromisoformat(entry.date) - day).days
    if left > EOL_WARNING_DAYS:
        return None
    when = (f"retired on {entry.date}" if left < 0 else
            f"reaches end of life on {entry.date} ({left} day{'s' if left != 1 else ''} from now)")
    after = entry.after if left < 0 else entry.after.replace("answers", "will answer")
    return (f"{model} {when}: {after}; use "
            f"{entry.replacement} or another current model ({entry.source}; verified {entry.verified})")


# Providers with rules per model family: only they can call a model unknown.
FAMILY_PROVIDERS: frozenset[str] = frozenset(p for rule in RULES if rule.family for p in rule.providers)
# Providers with a rule on parallel_tool_calls (the parallel lint asks the rules only for them), or an override.
PARALLEL_RULED: frozenset[str] = frozenset(p for rule in RULES if "parallel_tool_calls" in rule.facts
                                           for p in rule.providers)


class Fact(NamedTuple):
    value: Any
    rule: Rule | None  # None: the user's override


def resolve(provider: str, model: str, overrides: Mapping[str, Any] | None = None) -> Mapping[str, Fact]:
    """Every fact known for this provider and model: the user's overrides, then the first matching rule.
    Read-only: without overrides it is the rules' own mapping for the pair, shared by every caller."""
    facts = rule_facts(provider, model)
    if not overrides:
        return facts
    mine: dict[str, Fact] = {key: Fact(value, None) for key, value in overrides.items()}
    for key, fact in facts.items():
        mine.setdefault(key, fact)
    return mine


@functools.lru_cache(maxsize=4096)
def rule_facts(provider: str, model: str) -> Mapping[str, Fact]:
    """The rules' facts for a provider and model (``resolve`` without overrides), first matching rule first
    (RULES never changes, so each pair is matched against every rule once per process, not once per
    translation). Read-only: every caller shares it."""
    facts: dict[str, Fact] = {}
    for rule in RULES:
        if rule.matches(provider, model):
            for key, value in rule.facts.items():
                facts.setdefault(key, Fact(value, rule))
    return MappingProxyType(facts)


def matching(provider: str, model: str) -> list[Rule]:
    return [rule for rule in RULES if rule.matches(provider, model)]


@functools.lru_cache(maxsize=4096)
def unknown(provider: str, model: str) -> bool:
    """The provider has rules per model family and none knows this model: its limits are unknown (say so,
    refuse nothing on a guess). API-wide rules (``family=False``) do not make a model known."""
    families = [rule for rule in RULES if rule.family and provider in rule.providers]
    return bool(families) and not any(rule.matches(provider, model) for rule in families)


@functools.lru_cache(maxsize=4096)
def unknown_note(provider: str, model: str) -> str | None:
    """The ledger note for a model no family rule knows (``unknown``), or None; "(deployment)" is no model id."""
    if model.startswith("(") or not unknown(provider, model):
        return None
    # the API-wide rules still hold (a forcing choice with Claude's manual thinking is refused): "nothing is refused"
    # beside their refusal read as a contradiction
    held = [rule.name for rule in RULES if not rule.family and rule.matches(provider, model)]
    beyond = f" beyond the rules of the whole API ({', '.join(held)})" if held else ""
    near = nearest_known(provider, model)
    mean = f" (did you mean {near}?)" if near else ""
    return (f"no model rule knows {model}{mean}: its thinking and tool_choice limits are unknown here, so nothing is "
            f"refused or changed on a guess{beyond} (set them with providers.{provider}.rules; `toolchoice providers "
            "--model ID` lists the rules)")


@functools.lru_cache(maxsize=64)
def known_ids(provider: str) -> frozenset[str]:
    """The model ids the data names for ``provider``: its row's default model, the ids its documented retirements
    list, and those its family rules spell out whole and match (claude-sonnet-5; not a prefix such as gpt-5.)."""
    from .capabilities import CAPABILITIES
    from .model_rule_match import spelled

    ids = {entry_id for entry in END_OF_LIFE if provider in entry.providers
           for entry_id in (entry.models or spelled(entry.pattern))}
    ids.update(text for rule in RULES if rule.family and provider in rule.providers
               for text in spelled(rule.pattern) if rule.matches(provider, text))
    row = CAPABILITIES.get(provider)
    if row is not None and not row.default_model.startswith("("):
        ids.add(row.default_model.lower())
    return frozenset(i for i in ids if i and not i.endswith(("-", ".")))


# a model id's parts a did-you-mean keeps as written: a Bedrock-style prefix ("us.anthropic.", "models/") before it,
# and a date or a Bedrock version after it ("-20250929", "-2025-04-14", "-v1:0")
_ID_PARTS = re.compile(r"((?:[a-z]+[./])*)(.*?)((?:-\d{8}|-\d{4}-\d{2}-\d{2})?(?:-v\d+(?::\d+)?)?)",
                       re.DOTALL)  # any id, a line break in it too (-m $'a\nb' was an internal error)


def nearest_known(provider: str, model: str) -> str | None:
    """The known id (``known_ids``) a mistyped ``model`` most likely meant, with its prefix and date kept, or None: a
    suggestion only (the model is sent as written). Only an id with the same digits in the same order: another
    number is another model (claude-opus-6 is no typo for claude-opus-5), not a slip of the keys. Bounded
    (``bounded.nearest``)."""
    from .bounded import nearest

    lowered = model.lower()
    ids = known_ids(provider)
    if lowered in ids:  # a documented id the rules do not know (gpt-4.1-mini): no other id is meant
        return None
    head, core, tail = _ID_PARTS.fullmatch(lowered).groups()  # type: ignore[union-attr]  # it matches any id
    digits = re.sub(r"\D", "", core)
    cores = {_ID_PARTS.fullmatch(i).group(2) for i in ids}  # type: ignore[union-attr]
    near = nearest(core, sorted(c for c in cores if c != core and re.sub(r"\D", "", c) == digits), cutoff=0.8)
    if near is None:
        return None
    meant = head + near + tail
    return meant if meant in ids or not unknown(provider, meant) else None


# a version number in a model id (5.5, 4-6): read from a run's first digit only, as \d+[.-]\d+ reads it (the same
# matches: a later start in a run fails where its first did; tests/test_regex_linear.py); that pattern read a long
# run of digits from each of its places to its end (8,000 digits: 394 ms)
VERSION_NUMBERS = re.compile(r"(?<!\d)\d+[.-]\d+")


@functools.lru_cache(maxsize=4096)
def spelling_note(provider: str, model: str) -> str | None:
    """The ledger note for a model id whose version is spelled with the other separator than the rules know
    (``claude-opus-5.5`` where Anthropic writes ``claude-opus-5-5``; ``gpt-5-5`` for ``gpt-5.5``): the other
    spelling matches family rules this one does not, which a typo would otherwise miss silently. None otherwise."""
    other = re.sub(r"(?<=\d)[.-](?=\d)", lambda m: "-" if m.group() == "." else ".", model)
    if other == model:
        return None
    # only a rule that spells the version as the other spelling does (its pattern holds "5-5", or "5\.5"): a family
    # rule matching "claude-opus-5.5" as a claude-opus-5 with something after it says nothing of the spelling
    versions = VERSION_NUMBERS.findall(other)
    spelled = versions + [v.replace(".", "\\.") for v in versions if "." in v]
    mine = {rule.name for rule in RULES if rule.family and rule.matches(provider, model)}
    missed = [rule.name for rule in RULES if rule.family and rule.name not in mine and rule.matches(provider, other)
              and any(v in rule.pattern for v in spelled)]
    if not missed:
        return None
    return (f"model {model} is not spelled as the rules know it: {other} matches model rule(s) {', '.join(missed)}, "
            f"which {model} does not (a typo for {other}? the API takes only its own spelling)")


@functools.lru_cache(maxsize=4096)
def unstated(provider: str, model: str, key: str) -> Rule | None:
    """The family rule that knows this model and whose sources leave ``key`` unstated, or None (the fact is set by
    a matching rule, or no rule knows the model: then ``unknown_note`` speaks)."""
    if key in rule_facts(provider, model):
        return None
    return next((rule for rule in RULES if rule.family and key in rule.unstated and rule.matches(provider, model)),
                None)


def unstated_note(provider: str, model: str, key: str, what: str, elsewhere: str = "") -> str | None:
    """The ledger note (model_rule.unstated) for a known model whose sources do not state ``key``: ``what`` was
    sent as written; ``elsewhere`` may name where the fact is stated for a neighbour. None when the fact is known."""
    rule = unstated(provider, model.lower(), key)
    if rule is None:
        return None
    return (f"{what}: no source states whether {model} {RULE_KEYS[key][1].removeprefix('the model ')}, so it is sent "
            f"as written{elsewhere} (model rule {rule.name} knows the model and leaves {key} unset: "
            f"{rule.unstated[key]}; verified {rule.verified}); set providers.{provider}.rules.{key} when you know")


def cite(key: str, fact: Fact, provider: str) -> str:
    """How the ledger names the origin of a fact."""
    if fact.rule is None:
        return f"providers.{provider}.rules.{key} = {_show(fact.value)} (your override)"
    return f"model rule {fact.rule.name}: {key} = {_show(fact.value)} ({fact.rule.source}; verified {fact.rule.verified})"


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def check_override(key: str, value: Any) -> str | None:
    """Why an override is not valid, or None."""
    if key not in RULE_KEYS:
        return f"unknown rule '{key}'"
    allowed = RULE_KEYS[key][0]
    if not any(value is a or (not isinstance(a, bool) and value == a) for a in allowed):
        return f"rules.{key} must be one of {', '.join(_show(a) for a in allowed)}"
    return None
