"""Claude's thinking, for every API that carries it (Anthropic Messages and Bedrock Converse).

The neutral thinking setting becomes Claude's form by the model rules (core/model_rules.py): manual
``{type: enabled, budget_tokens}``, ``{type: adaptive}``, ``{type: disabled}`` or ``{type: between_tools}``;
the final lint refuses a forcing tool_choice only where a rule with its source says the API answers 400
(manual thinking on every Claude model; Opus 5.5, Sonnet 5.5, Fable 5.1 and Mythos 5.1 whatever the
thinking; adaptive thinking takes one: platform.claude.com/docs/en/build-with-claude/thinking-tool-workflows).
A ``ThinkingWire`` says where each API keeps the fields.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Mapping, NamedTuple

from .core.model import Message, ReasoningFamily, ThinkingSetting
from .core.model_rules import unstated_note
from .core.translation import Context, compact, model_facts, rule_applied

THINKING_BUDGET = 1024  # the documented minimum budget_tokens
# Claude models before 3.7 have no extended thinking (Claude 3 / 3.5, 2.x, instant).
_NO_THINKING = re.compile(r"claude-(?:3-(?!7)|2|v1|v2|instant)")


def supports_thinking(model: str) -> bool:
    """Extended thinking exists from Claude 3.7 Sonnet on; older Claude models reject it."""
    return not _NO_THINKING.search(model)


def last_assistant_has_calls(messages: tuple[Message, ...], family: str | None = None) -> bool:
    """The last assistant turn made tool calls (and, with ``family``, carries no thinking block of that family)."""
    for message in reversed(messages):
        if message.role == "assistant":
            if family is not None and any(item.family == family for item in message.reasoning):
                return False
            return bool(message.tool_calls)
    return False


class ThinkingWire(NamedTuple):
    """Where Claude's thinking lives on a wire. Messages has ``thinking`` and ``output_config`` at the top
    level; Bedrock Converse passes the same objects, under the same rules, in additionalModelRequestFields
    (can1357/oh-my-pi#341). Everything else about thinking is one piece of logic here, for both."""

    family: ReasoningFamily  # whose reasoning items the history replays (a signature is valid only there)
    fields: tuple[str, ...]  # the path to the object holding thinking and output_config (() = the body)
    choice: tuple[str, ...]  # the path to the tool choice


class ThinkingPlan(NamedTuple):
    """What to send for thinking: ``form`` enabled | adaptive | disabled | None (send nothing)."""

    form: str | None
    budget: int | None = None
    effort: str | None = None


# Said beside an unstated forced_tool_choice: the neighbours whose pages do state it.
_REFUSED_NEARBY = ("; Claude Fable 5.1 and Mythos 5.1 answer it 400 (model rule claude-5.1-no-forced-choice), Opus 5.5 "
                   "and Sonnet 5.5 too")
_EFFORTS = ("low", "medium", "high", "xhigh", "max")  # anthropic-sdk-python types/output_config_param.py
THINKING_NOT_SENT = ThinkingPlan(None)  # no thinking field: the model's default stands


def thinks_by_default(facts: Mapping[str, Any]) -> bool:
    """The model rules say the model thinks unless told not to (fact thinking_default)."""
    default = facts.get("thinking_default")
    return default is not None and bool(default.value)


def thinking_plan(ctx: Context, facts: dict[str, Any]) -> ThinkingPlan:
    """The neutral thinking setting → Claude's form, by the model rules (shared with Bedrock)."""
    settings, ledger, model = ctx.settings, ctx.ledger, ctx.model
    spec = settings.thinking_mode
    if spec is None:
        if settings.thinking is None:
            return THINKING_NOT_SENT  # nothing asked: the model's default stands
        spec = ThinkingSetting("on" if settings.thinking else "off")
    form_fact = facts.get("thinking_form")
    form = form_fact.value if form_fact else None
    if spec.mode == "off":
        default = facts.get("thinking_default")
        if default is not None and default.value:
            lowest = facts.get("thinking_off")
            if lowest is not None and lowest.value == "between_tools":
                ledger.info("thinking.between_tools", f"{model} refuses {{type: disabled}}; its lowest setting, "
                            "{type: between_tools} (no up-front thinking), is sent for thinking: false")
                rule_applied(ctx, "thinking_off", lowest, "thinking: false sent as {type: between_tools}")
                return ThinkingPlan("between_tools")
            always = facts.get("thinking_always_on")
            if always is not None and always.value:
                ledger.warning("thinking.always_on", f"{model} always thinks: thinking: false cannot turn it off "
                               "(the API rejects disabled); a lower effort ({effort: low}) thinks less")
                rule_applied(ctx, "thinking_always_on", always, "thinking stays on")
                return THINKING_NOT_SENT
            rule_applied(ctx, "thinking_default", default, "thinking: false sent as {type: disabled}")
            _disabled_effort(ctx, facts, spec.effort)
            return ThinkingPlan("disabled", effort=spec.effort if spec.effort in _EFFORTS else None)
        return THINKING_NOT_SENT
    if form == "none" or (form is None and not supports_thinking(model)):
        ledger.warning("thinking.unsupported_model", f"{model} has no extended thinking (Claude 3.7 Sonnet "
                       "and newer have it): thinking is not sent")
        return THINKING_NOT_SENT
    effort = spec.effort
    if effort is not None and effort not in _EFFORTS:
        ledger.error("thinking.effort", f"effort {effort} is not one of Claude's effort levels ({', '.join(_EFFORTS)})"
                     "; choose one of them" + ("" if _always_on(facts) else ", or thinking: false"))
        effort = None
    if spec.mode == "adaptive" or (form == "adaptive" and spec.budget is None):
        if form == "enabled":
            ledger.error("thinking.form", f"{model} takes only thinking {{type: enabled, budget_tokens}}; adaptive is "
                         "answered 400; write thinking: true or {budget: N}")
            rule_applied(ctx, "thinking_form", form_fact, "adaptive refused")
            return THINKING_NOT_SENT
        if form_fact is not None and spec.mode != "adaptive":
            rule_applied(ctx, "thinking_form", form_fact, "thinking: true sent as {type: adaptive}")
        return ThinkingPlan("adaptive", effort=effort)
    if form == "adaptive":  # a budget was asked for, the model has none
        ledger.error("thinking.form", f"{model} rejects thinking {{type: enabled, budget_tokens}} (adaptive only): "
                     f"budget {spec.budget} cannot be sent; write thinking: adaptive, or {{effort: ...}}")
        rule_applied(ctx, "thinking_form", form_fact, "budget refused")
        return THINKING_NOT_SENT
    return ThinkingPlan("enabled", budget=spec.budget if spec.budget is not None else THINKING_BUDGET, effort=effort)


def _disabled_effort(ctx: Context, facts: dict[str, Any], effort: str | None) -> None:
    """Thinking {type: disabled} with an effort above the highest the model takes it with (model rule
    disabled_effort_max: Claude Opus 5 takes disabled at effort high or below)."""
    most = facts.get("disabled_effort_max")
    if most is None or effort not in _EFFORTS or _EFFORTS.index(effort) <= _EFFORTS.index(most.value):
        return
    ctx.ledger.error("thinking.disabled_effort", f"{ctx.model} answers 400 for thinking {{type: disabled}} with effort "
                     f"{effort}: it takes disabled only at effort {most.value} or below; lower the effort to "
                     f"{most.value} or below, or leave thinking on")
    rule_applied(ctx, "disabled_effort_max", most, f"thinking disabled refused at effort {effort}")


def thinking_fields(ctx: Context, plan: ThinkingPlan, facts: dict[str, Any], max_tokens: int | None,
                    has_tools: bool, wire: ThinkingWire) -> dict[str, Any]:
    """``thinking`` and ``output_config`` (the effort) for the plan, as the object ``wire.fields`` names holds them."""
    fields: dict[str, Any] = {}
    config = _thinking_config(ctx, plan, facts, max_tokens, has_tools, wire)
    if config is not None:
        fields["thinking"] = config
    if plan.effort is not None:
        fields["output_config"] = {"effort": plan.effort}
        where = ".".join(wire.fields + ("output_config", "effort"))
        ctx.ledger.info("thinking.effort", f"thinking effort {plan.effort} → {where}")
    return fields


def _thinking_config(ctx: Context, plan: ThinkingPlan, facts: dict[str, Any], max_tokens: int | None,
                     has_tools: bool, wire: ThinkingWire) -> dict[str, Any] | None:
    """The ``thinking`` object for the plan, refusing the combinations the API rejects.
    A model that thinks by default gets {type: disabled} when the choice forces a call."""
    title = ctx.cap.title
    if plan.form is None:
        default = facts.get("thinking_default")
        if (default is not None and default.value and ctx.settings.thinking is None and ctx.plan.forces_call
                and has_tools and ctx.options.emulate):
            # Only when a rule (or the user) says this model's default thinking refuses a forcing choice and
            # thinking may be turned off: Claude's default is adaptive, which takes one (model rules).
            always = facts.get("thinking_always_on")
            allowed = facts.get("forced_choice_with_adaptive")
            forced = facts.get("forced_tool_choice")
            if (not (always is not None and always.value) and allowed is not None and not allowed.value
                    and not (forced is not None and not forced.value)):
                ctx.ledger.warning("thinking.disabled_for_choice", f"{ctx.model} thinks by default and then rejects "
                                   "a forcing tool_choice, so thinking is sent disabled; set "
                                   f"providers.{ctx.provider}.thinking to decide yourself")
                rule_applied(ctx, "forced_choice_with_adaptive", allowed, "forcing tool_choice with default thinking")
                return {"type": "disabled"}
        return None
    if plan.form == "disabled":
        return {"type": "disabled"}
    if plan.form == "between_tools":
        return {"type": "between_tools"}
    temperature = ctx.settings.temperature
    if temperature is not None and temperature != 1:
        ctx.ledger.error("thinking.temperature", f"{title} accepts only temperature 1 with thinking on (here "
                         f"{temperature}); drop temperature" + ("" if _always_on(facts) else " or set thinking: false"))
    if last_assistant_has_calls(ctx.scenario.messages, wire.family):
        ctx.ledger.error("thinking.tool_history", f"with thinking on, {title} requires the last assistant turn to "
                         "start with the thinking block that preceded its tool calls (400 'Expected thinking or "
                         "redacted_thinking, but found tool_use'), and this history's has none; add the turn's "
                         "reasoning: items as the API returned them" + (
                             "" if _always_on(facts) else ", or set thinking: false for this history"))
    if plan.form == "adaptive":
        ctx.ledger.info("thinking.adaptive", "thinking → {type: adaptive} (Claude decides when and how much to think)")
        return {"type": "adaptive"}
    budget = plan.budget if plan.budget is not None else THINKING_BUDGET
    if budget < THINKING_BUDGET or (max_tokens is not None and max_tokens <= budget):
        ctx.ledger.error("thinking.max_tokens", f"thinking needs budget_tokens ≥ {THINKING_BUDGET} and below "
                         f"max_tokens, but max_tokens is {max_tokens} and the budget {budget}; raise max_tokens "
                         f"above {max(budget, THINKING_BUDGET)}")
    if plan.budget == THINKING_BUDGET and ctx.settings.thinking_mode is None:
        ctx.ledger.info("thinking.budget", f"thinking: true → budget_tokens {THINKING_BUDGET} (the documented minimum; "
                        "it must stay below max_tokens); write thinking: {budget: N} to choose another budget")
    else:
        ctx.ledger.info("thinking.budget", f"thinking budget → budget_tokens {budget}")
    return {"type": "enabled", "budget_tokens": budget}


def thinking_lint_needed(ctx: Context, plan: ThinkingPlan, facts: Mapping[str, Any]) -> bool:
    """Whether the final body can pair thinking with a forcing tool choice (``thinking_lint``): only when the
    tool_choice plan forces a call and thinking is sent on or is the model's default, or when ``extra`` rewrites
    the body. Translators pass the lint only then."""
    if ctx.settings.extra:
        return True
    if not ctx.plan.forces_call:
        return False
    forced = facts.get("forced_tool_choice")
    return (plan.form is not None and plan.form != "disabled") or thinks_by_default(facts) or (
        forced is not None and not forced.value)


def thinking_lint(wire: ThinkingWire) -> Callable[[Context, dict[str, Any]], None]:
    """The final lint (``finish``'s final_lint) for a wire, made once: thinking on with a forcing tool choice,
    read from the final body (after extra), which the API rejects (``thinking_lint_needed`` says when)."""
    thinking_path = wire.fields + ("thinking",)

    def lint(ctx: Context, body: dict[str, Any]) -> None:
        choice: Any = body
        for key in wire.choice:
            choice = choice.get(key) if isinstance(choice, dict) else None
        if not (isinstance(choice, dict)
                and (choice.get("type") in ("any", "tool") or "any" in choice or "tool" in choice)):
            return  # the choice forces no call: nothing to refuse
        thinking: Any = body
        for key in thinking_path:
            thinking = thinking.get(key) if isinstance(thinking, dict) else None
        _forced_choice_lint(ctx, thinking, choice, wire)
    return lint


def _forced_choice_lint(ctx: Context, thinking: Any, choice: Any, wire: ThinkingWire) -> None:
    """``choice`` forces a call. Refused only where a model rule with its source says the API answers 400: a
    model that takes no forcing choice at all (forced_tool_choice), manual thinking {type: enabled}
    (forced_choice_with_thinking), adaptive thinking sent or on by default (forced_choice_with_adaptive)."""
    facts = model_facts(ctx)
    title, shown = ctx.cap.title, compact(choice)
    forced = facts.get("forced_tool_choice")
    if forced is not None and not forced.value:
        ctx.ledger.error("thinking.forced_choice", f"{ctx.model} answers 400 to every forcing tool_choice (here "
                         f"{shown}), whatever its thinking; use tool_choice auto (declare only the tool you want), "
                         "or a model that takes forced tool use")
        rule_applied(ctx, "forced_tool_choice", forced, "forcing tool_choice refused on this model")
        return
    if forced is None:
        note = unstated_note(ctx.provider, ctx.model, "forced_tool_choice", f"forcing tool_choice {shown}",
                             _REFUSED_NEARBY)
        if note is not None:  # a known model whose pages say nothing either way: said, sent, nothing cited as settled
            ctx.ledger.info("model_rule.unstated", note)
            return
    if thinking is None:
        if not thinks_by_default(facts):
            return
        kind = "adaptive"  # Claude's default thinking is adaptive (thinking-troubleshooting)
    else:
        kind = thinking.get("type") if isinstance(thinking, dict) else None
        if kind not in ("enabled", "adaptive", "between_tools"):
            return
    key = "forced_choice_with_thinking" if kind == "enabled" else "forced_choice_with_adaptive"
    allowed = facts.get(key)
    if allowed is None or allowed.value:
        if allowed is not None:
            by_default = " (the model's default: thinking not set)" if thinking is None else ""
            rule_applied(ctx, key, allowed, f"forcing tool_choice kept with {kind} thinking{by_default}")
        return
    where = ".".join(wire.fields + ("thinking",))
    sent = compact(thinking) if thinking is not None else "(adaptive, on by default)"
    if kind == "enabled":
        form = facts.get("thinking_form")
        adaptive = form is not None and form.value in ("adaptive", "both")
        advice = (("use thinking: adaptive (it takes a forcing choice), " if adaptive else "")
                  + f"set providers.{ctx.provider}.thinking: false, or use tool_choice auto")
        said = "'Thinking may not be enabled when tool_choice forces tool use.'"
    else:
        advice = "use tool_choice auto" + (f", or set providers.{ctx.provider}.thinking: false"
                                           if not _always_on(facts) else "")
        said = "400"
    ctx.ledger.error("thinking.forced_choice", f"{title} answers {said} for tool_choice {shown} with {where} "
                     f"{sent}; {advice}")
    rule_applied(ctx, key, allowed, f"forcing tool_choice refused with {kind} thinking")


def _always_on(facts: Mapping[str, Any]) -> bool:
    always = facts.get("thinking_always_on")
    return always is not None and bool(always.value)
