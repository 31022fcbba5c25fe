"""How old the evidence is behind each thing toolchoice refuses, drops, changes or warns of on a provider's behalf.

A fact's or rule's ``verified`` date is the day its source was last read. Where that source is a provider's document
or its SDK's types, reading it is the evidence, and it is as new as that day. Where the only source is the API's own
error words recorded in public reports, the evidence is as old as the newest recording, however often it is re-read:
``RECORDED`` names those recordings and their dates (data with its source, as the facts are). ``entries()`` lists,
from the rows (capabilities.py), the dated facts (facts.py) and the model rules (model_rule_data.py), every refusal,
drop, change and limit warning with the date of its newest evidence; docs/fact-audit.md's table is generated from it
(``markdown()``, through tests/test_readme.py).

A refusal resting on evidence more than ``STALE_DAYS`` older than its last check is no refusal (the project's rule:
never refuse without a primary source that says the API refuses it): it is a warning that says since when the limit
is unverified (``unverified_since``; core/translation.check_body_limits), and tests/test_fact_freshness23i.py holds
every refusal to that.
"""

from __future__ import annotations

import datetime
from typing import Any, NamedTuple

STALE_DAYS = 365  # about a year: older evidence than this, not confirmed at the last check, no longer refuses


class Recorded(NamedTuple):
    """The newest recording of the API's own words a fact or rule rests on (no document of the provider states it)."""

    date: str  # ISO date of the newest recording found
    where: str  # the recording


# fact or rule id -> its newest recording, where the API's recorded words are all the evidence (read 2026-11-28 in
# the facts' own citations and by the issues index: no newer recording was found for any of them)
RECORDED: dict[str, Recorded] = {
    # Azure: the newest Azure recording of the 400 is of 2025-04-23; Azure's docs (MicrosoftDocs/azure-ai-docs
    # articles/ai-foundry/openai/how-to/function-calling.md, ms.date 02/10/2026) and the clients generated from its
    # inference spec (SAP/ai-sdk-js azure-openai FunctionObject: 'description?: string') state no maximum
    "azure.description_limit": Recorded("2025-04-23", "langchain-ai/open_deep_research#80 (azure_openai:o3-mini)"),
    "openai.description_limit": Recorded("2025-04-25", "getsentry/sentry-mcp#106 (gpt-4o)"),
    "openai.tool_limit": Recorded("2026-03-26", "code-yeongyu/oh-my-openagent#2848 (GPT-5.2)"),
    # a tool_choice with no tools: the newest recordings (the facts cite older ones of the same words)
    "openai.tool_choice_without_tools": Recorded("2026-04-20", "vllm-project/vllm#40311 (a script against OpenAI's API)"),
    "azure.tool_choice_without_tools": Recorded("2026-09-18", "BerriAI/litellm#41781 (azure/gpt-5.6-luna, 'AzureException "
                                                "BadRequestError - Invalid value for 'tool_choice': 'tool_choice' is "
                                                "only allowed when 'tools' are specified.')"),
    "xai.tool_choice_without_tools": Recorded("2026-09-05", "V1ki/dsh-plugin-subscriptions#66 (a live test, "
                                              "grok-4.20-0309-non-reasoning: HTTP 400 invalid-argument)"),
    "anthropic.tool_choice_without_tools": Recorded("2026-07-02", "the fact's recording (through OpenRouter)"),
    "cerebras.tool_choice_without_tools": Recorded("2026-08-26", "juspay/neurolink#1564 (probed live)"),
    "deepseek.choice_count": Recorded("2026-09", "deepseek-v4-pro's 400 words in public code (the fact's source)"),
    "deepseek-v4-thinking": Recorded("2026-08-21", "deepseek-ai/DeepSeek-V3#1376 (curl to api.deepseek.com)"),
    "deepseek-flash-thinking": Recorded("2026-09-10", "can1357/oh-my-pi#11505 (deepseek-flash)"),
    "deepseek-reasoner": Recorded("2026-05-08", "i-am-bee/beeai-framework#1441, can1357/oh-my-pi#945"),
    # 2026-11-28 (trial23m): the recordings the facts quoted undated, dated from the issues index
    "gemini.tool_choice_without_tools": Recorded("2026-04-07", "AstrBotDevs/AstrBot#7407 ('Function calling config is "
                                                 "set without function_declarations.'; claude-code-router#1207 "
                                                 "2026-02-12, forgecode#1404 2025-08-17)"),
    "groq.tool_choice_words": Recorded("2026-02-19", "plmbr/notebook-intelligence#115 (api.groq.com: 'Only allowed "
                                       "string values for 'tool_choice' are [none, auto, required]'; "
                                       "obsidian-smart-connections#942 2024-12-28)"),
    # Anthropic's types and its docs state no 128 (the docs print 64): the API's 400s are the evidence
    "anthropic.tool_name_length": Recorded("2026-09-22", "anthropics/claude-code#96152 ('tools.18.custom.name: String "
                                           "should have at most 128 characters')"),
    "o-series-no-parallel": Recorded("2025-06", "evalstate/fast-agent#279, tensorzero/tensorzero#2805 (o4-mini)"),
}

# A model rule's fact values that make toolchoice refuse, drop, change or warn (model_rules.RULE_KEYS says what each
# key means); the other values, and the keys not named here, restrict nothing.
_RULE_ACTS: dict[str, tuple[tuple[Any, ...] | None, str]] = {
    "thinking_form": (("enabled", "adaptive", "none"), "refuses"),
    "thinking_always_on": ((True,), "refuses"),
    "disabled_effort_max": (None, "refuses"),
    "thinking_off": (("between_tools",), "refuses"),
    "forced_tool_choice": ((False,), "refuses"),
    "forced_choice_with_thinking": ((False,), "refuses or changes"),
    "forced_choice_with_adaptive": ((False,), "refuses"),
    "tool_choice_with_thinking": ((False,), "warns"),
    "parallel_tool_calls": ((False,), "drops"),
    "tools_reasoning_effort": (("none", "absent-or-none", "other-refused", "absent-unstated", "none-unstated", "never"),
                               "refuses or changes"),
    "tool_choice": ((False,), "drops"),
    "named_tool_choice": ((False,), "refuses or changes"),
    "signatures_required": ((True,), "changes"),
    "strict_schema_limits": ((True,), "refuses"),
}

_FORCING = ("required", "named", "allowed")


class Entry(NamedTuple):
    action: str  # refuses, drops, changes, warns (or two of them: the rule or row says which case does which)
    providers: tuple[str, ...]
    what: str
    ref: str  # fact:<id>, rule:<name> or row:<provider>
    evidence: str  # ISO date (or month) of the newest evidence
    verified: str  # ISO date the source was last read

    @property
    def stale(self) -> bool:
        """The newest evidence is more than STALE_DAYS older than the last check."""
        return _days(self.evidence, self.verified) > STALE_DAYS


def _day(date: str) -> datetime.date:
    """An ISO date, or a month (its first day)."""
    return datetime.date.fromisoformat(date if len(date) == 10 else date + "-01")


def _days(older: str, newer: str) -> int:
    return (_day(newer) - _day(older)).days


def evidence(ref_id: str, verified: str) -> str:
    """The date of the newest evidence behind a fact or rule: its newest recording, else the day its source was read."""
    recorded = RECORDED.get(ref_id)
    return recorded.date if recorded is not None else verified


def unverified_since(fact_id: str) -> str | None:
    """The date since which a fact resting on recordings alone is unverified, when that is more than STALE_DAYS before
    its last check; else None."""
    from .facts import fact

    recorded = RECORDED.get(fact_id)
    if recorded is None:
        return None
    return recorded.date if _days(recorded.date, fact(fact_id).verified) > STALE_DAYS else None


def entries() -> list[Entry]:
    """Every refusal, drop, change and limit warning the rows, the dated facts and the model rules hold."""
    from .capabilities import CAPABILITIES, Level
    from .fact_values import ChoiceCount, ChoiceWords, NameRule, VersionRemoves
    from .facts import FACTS, fact
    from .model_rules import RULES

    out: list[Entry] = []

    def from_fact(action: str, providers: tuple[str, ...], what: str, fact_id: str) -> None:
        verified = fact(fact_id).verified
        out.append(Entry(action, providers, what, f"fact:{fact_id}", evidence(fact_id, verified), verified))

    for cap in CAPABILITIES.values():
        row = (cap.provider,)
        if cap.tool_limit is not None:
            from_fact("refuses", row, f"more than {cap.tool_limit.most} tools in one request", cap.tool_limit.fact)
        for limit in cap.body_limits:
            from_fact("refuses" if limit.severity == "error" else "warns", row, f"more than {limit.most} {limit.what}",
                      limit.fact)
        rule = cap.without_tools
        if rule is not None and rule.refused:
            forcing = sorted(m for m in rule.refused if m in _FORCING)
            other = sorted(m for m in rule.refused if m not in _FORCING)
            if forcing:
                from_fact("refuses", row, f"tool_choice {', '.join(forcing)} with no tools declared", rule.fact)
            if other:
                from_fact("drops", row, f"tool_choice {', '.join(other)} with no tools declared", rule.fact)
        for feature in ("auto", "none", "required", "any", "named", "allowed", "parallel", "strict"):
            support = cap.feature(feature)
            if support.level in (Level.EMULATED, Level.UNSUPPORTED):
                action = "changes" if support.level is Level.EMULATED else "drops"
                note = f": {support.wire or support.note}" if (support.wire or support.note) else ""
                out.append(Entry(action, row, f"{feature}{note}", f"row:{cap.provider}",
                                 evidence(cap.provider, cap.verified), cap.verified))
    for item in FACTS:
        value = item.value
        if isinstance(value, ChoiceWords) and value.others == "refused":
            from_fact("refuses", item.providers, "a string tool_choice other than " + ", ".join(value.words), item.id)
        elif isinstance(value, ChoiceCount):
            from_fact("refuses" if value.severity == "error" else "warns", item.providers,
                      f"more than {value.most} choices" + (" (streamed)" if value.stream_only else ""), item.id)
        elif isinstance(value, NameRule):  # core/name_rule_facts.py: the modules' NAME_RULE
            from_fact("refuses", item.providers, f"a tool name other than {value.words} ({value.pattern})", item.id)
        elif isinstance(value, VersionRemoves):
            from_fact("refuses", item.providers, f"{', '.join(value.fields)} under {value.header} {value.version}",
                      item.id)
    for rule in RULES:
        for key, value in rule.facts.items():
            values, action = _RULE_ACTS.get(key, ((), ""))
            if action and (values is None or value in values):
                out.append(Entry(action, rule.providers, f"{key}: {value} ({rule.pattern})", f"rule:{rule.name}",
                                 evidence(rule.name, rule.verified), rule.verified))
    return out


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("<", "\\<").replace("*", "\\*")


def markdown() -> str:
    """The table docs/fact-audit.md shows: oldest evidence first, a stale one marked."""
    rows = sorted(entries(), key=lambda e: (_day(e.evidence), e.ref, e.what))
    lines = ["| newest evidence | last read | does | providers | what | where |", "|---|---|---|---|---|---|"]
    for e in rows:
        mark = f"**{e.evidence}** (over a year before its last read)" if e.stale else e.evidence
        lines.append(f"| {mark} | {e.verified} | {e.action} | {', '.join(e.providers)} | {_cell(e.what)} | `{e.ref}` |")
    return "\n".join(lines)
