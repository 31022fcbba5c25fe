"""Facts that hold per model family, not per provider: rules matched on the model id.

Each rule names the providers it applies to, a regular expression searched in the model id, the
facts it sets, the primary source and the date the source was checked. Translators ask
``resolve(provider, model, overrides)`` and record in the ledger which rule applied; a scenario
overrides a fact per provider with ``providers.<id>.rules: {KEY: value}`` when a user knows better.

No third-party imports: this module is on `render`'s start-up path (the patterns compile lazily).
"""

from __future__ import annotations

import functools

import re
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

# The facts a rule can set, with the values each takes and what it means.
RULE_KEYS: dict[str, tuple[tuple[Any, ...], str]] = {
    "thinking_form": (("enabled", "adaptive", "both", "none"),
                      "which thinking config the model takes: {type: enabled, budget_tokens} (enabled), "
                      "{type: adaptive} (adaptive), either (both), or none at all"),
    "thinking_default": ((True, False), "thinking is on when the request does not say"),
    "thinking_always_on": ((True, False), "thinking cannot be turned off (disabled is rejected or ignored)"),
    "forced_choice_with_thinking": ((True, False), "a forcing tool_choice is accepted while thinking is on"),
    "tools_reasoning_effort": (("none", "absent-or-none", "any"),
                               "Chat Completions with function tools: reasoning_effort must be 'none' (none), "
                               "absent or 'none' (absent-or-none), or anything (any)"),
    "tool_choice": ((True, False), "the model takes a tool_choice at all"),
    "named_tool_choice": ((True, False), "the model takes a tool_choice naming one tool"),
    "signatures_required": ((True, False), "history function calls must carry the thought signature the model "
                                           "returned (a stand-in is needed for calls it did not write)"),
    "reasoning_replay": ((True, False), "reasoning of earlier tool-call turns must be sent back, else HTTP 400"),
    "thinking_prefix_check": ((True, False), "thinking blocks sent back are checked against their prefix: a change "
                                             "of tools or system since the block was made invalidates it"),
    "thinking_fixed_per_turn": ((True, False), "one thinking configuration per assistant turn: a tool loop is one "
                                               "turn, so thinking changes only between turns"),
}

_ANTHROPIC_TABLE = ("platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting, table 'Thinking "
                    "support, defaults, and rejected configurations by model'")
_ANTHROPIC_FORCED = ("platform.claude.com/docs/en/build-with-claude/extended-thinking#feature-compatibility "
                     "('Thinking isn't compatible with ... forced tool use', quoted in anthropics/claude-code#19414); "
                     "API error 'Thinking may not be enabled when tool_choice forces tool use.' (mastra-ai/mastra#7507)")
_CLAUDE_PROVIDERS = ("anthropic", "bedrock")
_VERIFIED = "2026-11-23"


class Rule(NamedTuple):
    name: str
    providers: tuple[str, ...]
    pattern: str  # searched (re.search) in the lower-cased model id
    facts: Mapping[str, Any]
    source: str
    verified: str = _VERIFIED  # ISO date the source was last checked

    @property
    def id(self) -> str:
        return self.name

    def matches(self, provider: str, model: str) -> bool:
        return provider in self.providers and _compiled(self.pattern).search(model.lower()) is not None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "providers": list(self.providers), "pattern": self.pattern,
                "facts": dict(self.facts), "source": self.source, "verified": self.verified}


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    found = _PATTERNS.get(pattern)
    if found is None:
        found = _PATTERNS[pattern] = re.compile(pattern)
    return found


# Most specific first: for each fact the first matching rule wins.
RULES: tuple[Rule, ...] = (
    # ---- Claude (Anthropic Messages; Bedrock model ids carry the same names after "anthropic.") ----
    Rule("claude-5-always-adaptive", _CLAUDE_PROVIDERS, r"claude-(fable|mythos)-5",
         {"thinking_form": "adaptive", "thinking_default": True, "thinking_always_on": True},
         _ANTHROPIC_TABLE + ": Fable 5 / Mythos 5 adaptive only, always on, reject enabled and disabled"),
    Rule("claude-mythos-preview", _CLAUDE_PROVIDERS, r"claude-mythos-preview",
         {"thinking_form": "both", "thinking_default": True, "thinking_always_on": True},
         _ANTHROPIC_TABLE + ": Mythos Preview adaptive and extended, always on, rejects disabled"),
    Rule("claude-5-adaptive-on", _CLAUDE_PROVIDERS, r"claude-(opus|sonnet)-5",
         {"thinking_form": "adaptive", "thinking_default": True},
         _ANTHROPIC_TABLE + ": Opus 5 / Sonnet 5 adaptive only, on by default, reject enabled"),
    Rule("claude-4.7-adaptive", _CLAUDE_PROVIDERS, r"claude-opus-4-[78]",
         {"thinking_form": "adaptive", "thinking_default": False},
         _ANTHROPIC_TABLE + ": Opus 4.7 / 4.8 adaptive only, off by default, reject enabled"),
    Rule("claude-4.6-both", _CLAUDE_PROVIDERS, r"claude-(opus|sonnet)-4-6",
         {"thinking_form": "both", "thinking_default": False},
         _ANTHROPIC_TABLE + ": Opus 4.6 / Sonnet 4.6 adaptive or extended (deprecated), off by default"),
    Rule("claude-extended-only", _CLAUDE_PROVIDERS,
         r"claude-((opus|sonnet|haiku)-4|3-7)",
         {"thinking_form": "enabled", "thinking_default": False},
         _ANTHROPIC_TABLE + ": Opus/Sonnet/Haiku 4.5, Opus 4.1 and earlier thinking models extended only, "
         "reject adaptive; Claude 3.7 Sonnet introduced extended thinking"),
    Rule("claude-no-thinking", _CLAUDE_PROVIDERS, r"claude-(?:3-(?!7)|2|v1|v2|instant)",
         {"thinking_form": "none"},
         "platform.claude.com/docs/en/build-with-claude/extended-thinking (supported models: Claude 3.7 Sonnet "
         "and newer)"),
    Rule("claude-forced-choice", _CLAUDE_PROVIDERS, r"claude",
         {"forced_choice_with_thinking": False}, _ANTHROPIC_FORCED),
    Rule("claude-preserved-thinking", _CLAUDE_PROVIDERS,
         r"claude-(fable|mythos)-5-[1-9](?!\d)|claude-(opus|sonnet|haiku)-5-5(?!\d)",
         {"thinking_prefix_check": True},
         "platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks (models: Fable and Mythos "
         "5.1, 5.2, Opus / Sonnet / Haiku 5.5; Claude API, Bedrock, other platforms): 'A prefix check fails if system, "
         "tools, or an earlier message changed after Claude produced a block'", verified="2026-11-26"),
    Rule("claude-thinking-per-turn", _CLAUDE_PROVIDERS, r"claude", {"thinking_fixed_per_turn": True},
         "platform.claude.com/docs/build-with-claude/thinking-tool-workflows ('Keep one thinking configuration per "
         "assistant turn: a tool-use loop is one assistant turn, so change the configuration only between turns')",
         verified="2026-11-26"),
    Rule("bedrock-named-choice", ("bedrock",), r"anthropic\.claude-(?!v1|v2|instant)|amazon\.nova-",
         {"named_tool_choice": True},
         "botocore data/bedrock-runtime/2023-09-30/service-2.json ToolChoice.tool: 'only supported by Anthropic "
         "Claude 3 and Amazon Nova models'"),
    Rule("bedrock-named-choice-other", ("bedrock",), r".",
         {"named_tool_choice": False},
         "botocore data/bedrock-runtime/2023-09-30/service-2.json ToolChoice.tool (other families: answered 400 "
         "'This model doesn't support the toolConfig.toolChoice.tool field', vercel/ai#4396)"),
    # ---- Gemini ----
    Rule("gemini-3-signatures", ("gemini",), r"^gemini-3",
         {"signatures_required": True, "thinking_default": True},
         "ai.google.dev/gemini-api/docs/thought-signatures ('When using Gemini 3 models, you must pass back thought "
         "signatures during function calling, otherwise you will get a validation error'; stand-in "
         "'skip_thought_signature_validator' for calls the model did not write)"),
    Rule("gemini-2.5-thinking", ("gemini",), r"^gemini-2\.5-(pro|flash)(?!-lite)",
         {"signatures_required": False, "thinking_default": True},
         "ai.google.dev/gemini-api/docs/thinking (2.5 Pro and Flash think by default; signatures are returned "
         "but not validated)"),
    # ---- OpenAI Chat Completions (openai, azure) ----
    Rule("gpt-5.6-tools-effort-none", ("openai", "azure"), r"gpt-5\.6",
         {"tools_reasoning_effort": "none"},
         "API error 'Function tools with reasoning_effort are not supported for gpt-5.6 in /v1/chat/completions. "
         "To use function tools, use /v1/responses or set reasoning_effort to 'none'.' (BerriAI/litellm#34569: "
         "tools only → 400, tools + none → 200); the model's default effort is not none"),
    Rule("gpt-5.2-5.5-tools-effort", ("openai", "azure"), r"gpt-5\.[2-5]",
         {"tools_reasoning_effort": "absent-or-none"},
         "API error 'Function tools with reasoning_effort are not supported for gpt-5.4 in /v1/chat/completions. "
         "Please use /v1/responses instead.' (pipecat-ai/pipecat#4043, openai/openai-openapi#541); sent without "
         "reasoning_effort the default (none) is accepted (livekit/agents#5088, #7169)"),
    # ---- DeepSeek ----
    Rule("deepseek-reasoner", ("deepseek",), r"^deepseek-reasoner$",
         {"thinking_default": True, "thinking_always_on": True, "forced_choice_with_thinking": False,
          "reasoning_replay": True},
         "api-docs.deepseek.com/guides/thinking_mode (thinking mode; tool-call turns' reasoning_content 'must be "
         "fully passed back to the API in all subsequent requests', else 400)"),
    Rule("deepseek-thinking", ("deepseek",), r"^deepseek",
         {"thinking_default": True, "forced_choice_with_thinking": False, "reasoning_replay": True},
         "api-docs.deepseek.com/guides/thinking_mode (thinking is enabled by default, effort high; "
         "{thinking: {type: enabled/disabled}}, reasoning_effort low/high/max; reasoning_content of tool-call turns "
         "must be sent back, else 400)"),
    # ---- Cohere ----
    Rule("cohere-pre-r7b", ("cohere",), r"^(command(-light)?(-nightly)?|command-r(-plus)?(-\d{2}-\d{4}|-v01)?)$",
         {"tool_choice": False},
         "cohere-python src/cohere/v2/client.py chat(tool_choice=...) docstring: tool_choice is for Command R7B "
         "and newer models (as providers/cohere.py cites it)"),
)


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
