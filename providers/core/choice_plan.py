"""The tool_choice planned against a provider's capability row (``plan_choice``: native, emulated,
or refused, each decision in the ledger), and the pitfall lint of a plan against the scenario's
history (``lint_pitfalls``). No provider's wire words here: the translators map plan modes to them."""

from typing import Literal, NamedTuple

from .capabilities import Capability
from .model import Ledger, RenderOptions, Scenario, Tool


PlanMode = Literal["unset", "auto", "none", "required", "named", "allowed"]


class ChoicePlan(NamedTuple):
    """What to put on the wire, in neutral terms, after emulation decisions.

    ``tools`` are the tools to declare (possibly a filtered subset); ``omit_tools`` is set when
    ``none`` is emulated by leaving the tools out."""

    mode: PlanMode
    tools: tuple[Tool, ...]
    name: str | None = None
    allowed: tuple[str, ...] = ()
    omit_tools: bool = False
    emulated: bool = False  # the plan does not express the request natively
    allowed_mode: Literal["auto", "required"] = "auto"

    @property
    def forces_call(self) -> bool:
        return self.mode in ("required", "named") or (self.mode == "allowed" and self.allowed_mode == "required")


def _names(tools: tuple[Tool, ...] | tuple[str, ...]) -> str:
    return ", ".join(t if isinstance(t, str) else t.name for t in tools) or "(none)"


def plan_choice(cap: Capability, scenario: Scenario, options: RenderOptions, ledger: Ledger,
                neutral: str | None = None, hosted: bool = False, elsewhere: str | None = None) -> ChoicePlan:
    """``neutral``: the tool_choice as the ledger quotes it (``ToolChoice.quoted``), when the caller has it.
    ``hosted``: the request declares tools the provider runs itself (core/native_tools.py), so a choice may
    force a call with no function tools. ``elsewhere``: a base URL replaces the API's host (core/host_rules.py),
    and these words close the warning that the host's refusal becomes."""
    choice = scenario.tool_choice
    tools = scenario.tools
    if choice is None:
        ledger.info("tool_choice.unset", "tool_choice not specified: the field is omitted and the provider's "
                    "default applies (auto when tools are declared)")
        return ChoicePlan("unset", tools)
    if neutral is None:
        neutral = choice.quoted()
    spelling = choice.spelling
    if spelling == "None":  # Python's None is "not specified" (null); the word None here is none
        ledger.warning("tool_choice.spelling", "tool_choice None read as none: the model must not call a tool "
                       "(for Python's None, not specified, write null or leave tool_choice out)")
    elif spelling and spelling != neutral and spelling != choice.name:
        ledger.info("tool_choice.spelling", f"tool_choice {spelling} read as {neutral}")
    mode = choice.mode  # the records are tuples: each field read is a lookup, so read once
    if not tools and hosted and mode in ("required", "auto", "none"):
        return ChoicePlan(mode, tools)
    if not tools and _without_tools(cap, choice.forces_call, mode, neutral, ledger, elsewhere):
        return ChoicePlan(mode if mode != "allowed" else "required", tools) if choice.forces_call \
            else ChoicePlan("unset", tools)

    if mode == "auto":
        return ChoicePlan("auto", tools)
    if mode == "none":
        if cap.none.usable:
            return ChoicePlan("none", tools)
        _unsupported(cap, options, ledger, "none", "the tools are left out of the request instead", "none")
        return ChoicePlan("none", (), omit_tools=True, emulated=True)
    if mode == "required":
        if cap.required.usable:
            return ChoicePlan("required", tools)
        _ignored(cap, "required", ledger, options, _measured(cap, "required"), offered=_only(tools))
        return ChoicePlan("unset", tools, emulated=True)
    if mode == "named":
        assert choice.name is not None
        if cap.named.usable:
            return ChoicePlan("named", tools, name=choice.name)
        kept = tuple(t for t in tools if t.name == choice.name)
        if cap.required.usable:
            if _unsupported(cap, options, ledger, f"naming '{choice.name}'",
                            f"only '{choice.name}' is offered and a call is required", "named"):
                _filtered(tools, kept, ledger, f"to emulate naming '{choice.name}'")
            return ChoicePlan("required", kept, emulated=True)
        if options.emulate:
            _filtered(tools, kept, ledger, f"to steer toward '{choice.name}'")
        _ignored(cap, f"naming '{choice.name}'", ledger, options, _measured(cap, "named"),
                 offered=f"only '{choice.name}' offered" if options.emulate else "")
        return ChoicePlan("unset", kept, emulated=True)
    # allowed subset
    allowed = frozenset(choice.allowed)  # a set: 10,000 tools each looked up in the allowed tuple was 2.5 s
    subset = tuple(t for t in tools if t.name in allowed)
    if cap.allowed.usable:
        return ChoicePlan("allowed", tools, allowed=choice.allowed, allowed_mode=choice.allowed_mode)
    want = "required" if choice.allowed_mode == "required" else "auto"
    if len(subset) == len(tools) and tools:
        if want == "required" and not cap.required.usable:
            _ignored(cap, "required (allowed subset of every tool)", ledger, options, offered=_only(tools))
            return ChoicePlan("unset", tools, emulated=True)
        ledger.info("tool_choice.mapped", f"the allowed subset is every declared tool: sent as {want}")
        return ChoicePlan(want, tools)
    if _unsupported(cap, options, ledger, f"allowed subset [{_names(choice.allowed)}]",
                    "only the allowed tools are offered", "allowed"):
        _filtered(tools, subset, ledger, "to emulate the allowed subset")
    if want == "required" and not cap.required.usable:
        _ignored(cap, "required (allowed subset)", ledger, options,
                 offered="only the allowed tools offered" if options.emulate else "")
        return ChoicePlan("unset", subset, emulated=True)
    return ChoicePlan(want, subset, emulated=True)


def _without_tools(cap: Capability, forces: bool, mode: str, neutral: str, ledger: Ledger,
                   elsewhere: str | None) -> bool:
    """A tool_choice with no tools declared: True when the API's own source says it refuses it (then a forcing
    choice is an error and auto/none is omitted, each quoting that source); else the choice is planned as written,
    and the ledger says what is known of it. Where a base URL replaces the API's host (``elsewhere``), the refusal
    is a warning and the choice is planned as written."""
    rule = cap.without_tools
    source = ""
    if rule is not None:
        from .facts import cited  # the dated facts: read only for a tool_choice with no tools

        source = cited(rule.fact)
        if mode in rule.refused:
            why = f"{cap.title} refuses it without tools ('{rule.words}', {source})"
            refused = f"tool_choice {neutral} forces a tool call but no tools are declared, and {why}; declare the tools"
            if elsewhere is not None:
                ledger.warning("tool_choice.without_tools", (refused if forces else
                               f"tool_choice {neutral} with no tools declared, and {why}") + elsewhere)
                return False
            if forces:
                ledger.error("tool_choice.without_tools", refused)
            else:
                ledger.info("tool_choice.without_tools", f"tool_choice {neutral} with no tools declared: the field is "
                            f"omitted, since {why}; without tools no call is possible")
            return True
    known = f"{rule.takes} ({source})" if rule is not None and rule.takes else \
        f"it is unsettled: no source states what {cap.title} does with it (docs/fact-audit.md)"
    if forces:
        ledger.warning("tool_choice.without_tools", f"tool_choice {neutral} forces a tool call but no tools are "
                       f"declared, so the model cannot call a tool; not refused, since {known}")
    elif cap.feature(mode).usable:  # else the plan's emulation says what is sent
        ledger.info("tool_choice.without_tools", f"tool_choice {neutral} with no tools declared: sent as written "
                    f"(without tools no call is possible); {known}")
    return False


def _unsupported(cap: Capability, options: RenderOptions, ledger: Ledger, what: str, how: str, feature: str) -> bool:
    """Record that the request cannot go natively; True when emulation may go ahead."""
    measured = _measured(cap, feature)
    why = f" (measured: {measured})" if measured else ""
    if not options.emulate:
        ledger.error("tool_choice.unsupported",
                     f"{cap.title} cannot express tool_choice {what} natively{why} and --no-emulate is set")
        return False
    ledger.warning("tool_choice.emulated", f"{cap.title} has no native tool_choice {what}{why}: {how}")
    return True


def _filtered(before: tuple[Tool, ...], after: tuple[Tool, ...], ledger: Ledger, why: str) -> None:
    removed = [t.name for t in before if t not in after]
    if removed:
        ledger.warning("tools.filtered", f"tools removed from the request {why}: {', '.join(removed)} "
                       f"(the model no longer sees them)")


def _measured(cap: Capability, feature: str) -> str:
    """The probe's finding for a feature, when the row comes from a capability overlay."""
    return cap.feature(feature).note if cap.measured else ""


def _only(tools: tuple[Tool, ...]) -> str:
    """What the request offers when it is one tool already: "offer only that tool" would be no advice there."""
    return f"only '{tools[0].name}' offered" if len(tools) == 1 else ""


def _ignored(cap: Capability, what: str, ledger: Ledger, options: RenderOptions, measured: str = "",
             offered: str = "") -> None:
    """``offered``: what the request offers once the tools were already narrowed (then the only advice left is
    the system prompt: the model may still answer in text)."""
    why = f" (measured: {measured})" if measured else ""
    if not options.emulate:
        ledger.error("tool_choice.unsupported",
                     f"{cap.title} has no way to enforce tool_choice {what}{why} and --no-emulate is set")
        return
    if offered:
        ledger.warning("tool_choice.ignored",
                       f"{cap.title} cannot enforce tool_choice {what}{why}: sent without it, and with {offered} the "
                       "model may still answer in text; state the requirement in the system prompt")
        return
    ledger.warning("tool_choice.ignored",
                   f"{cap.title} cannot enforce tool_choice {what}{why}: sent without it, so the model may answer in "
                   "text or call any offered tool; state the requirement in the system prompt, or offer only the tool it "
                   "must call")


# the tools frameworks offer beside the user's, forcing a call on every step, whose call ends their loop
OUTPUT_TOOLS = {
    "final_result": "the output tool pydantic-ai offers for a structured output_type (pydantic_ai/_output.py: "
                    "DEFAULT_OUTPUT_TOOL_NAME = 'final_result')",
    "final_answer": "the tool smolagents' ToolCallingAgent offers to end its run (smolagents/default_tools.py "
                    "FinalAnswerTool: name = \"final_answer\")",
}


def lint_pitfalls(cap: Capability, scenario: Scenario, plan: ChoicePlan, ledger: Ledger, calls: bool = True) -> None:
    """``calls``: some message makes tool calls (False when the caller knows none does)."""
    # the history's tool names: empty exactly when no message calls a tool
    history: tuple[str, ...] = scenario.history_tool_names() if calls else ()
    messages = scenario.messages
    stale: list[str] = []
    if history:
        offered = {t.name for t in plan.tools} if not plan.omit_tools else set()
        stale = [n for n in history if n not in offered]
    choice = scenario.tool_choice
    if stale and choice is not None and plan.forces_call and not (plan.mode == "named" and not plan.emulated):
        only = [t.name for t in plan.tools]
        if choice.mode == "named":
            suggestion = (f"{cap.title} cannot force '{choice.name}' natively: the emulation forces any call, so "
                          "also say in the system prompt which tool to call")
        elif len(only) == 1:
            suggestion = f"name the tool instead (tool_choice: {only[0]})"
        else:
            suggestion = "name the tool you want (tool_choice: NAME)"
        ledger.warning("pitfall.required_trap",
                       f"the history calls {', '.join(stale)}, which {'is' if len(stale) == 1 else 'are'} not offered now; "
                       f"with a forced call the model may call {'it' if len(stale) == 1 else 'them'} anyway "
                       f"(a planner called a history tool 15 times in 20); {suggestion}")
    elif stale and (choice is None or choice.mode in ("auto", "allowed")) and not plan.omit_tools:
        ledger.info("pitfall.history_tools_not_offered",
                    f"the history calls {', '.join(stale)}, not offered now; the model may still try to call "
                    f"{'it' if len(stale) == 1 else 'them'}")
    if history and choice is not None and choice.mode == "none":
        ledger.warning("pitfall.none_with_history",
                       "tool_choice none while the history holds tool calls: some models imitate the earlier calls "
                       "in text, and some APIs need the tools declared to accept that history")
    if scenario.tools_written_empty:
        ledger.info("pitfall.empty_tools", "tools: [] is written explicitly: no tools are sent, exactly as if tools "
                    "were left out (OpenAI answers an empty tools array with 400 \"Invalid 'tools': empty array. "
                    "Expected an array with minimum length 1\", continuedev/continue#3370; so do vLLM, "
                    "vllm-project/vllm#39780, and DeepSeek, runebookai/tome#87)")
    if messages and messages[-1].role == "tool" and choice is not None and choice.forces_call:
        may_end = {choice.name} if choice.mode == "named" else set(choice.allowed) if choice.mode == "allowed" else None
        ends = [n for n in OUTPUT_TOOLS if n in {t.name for t in plan.tools} and (may_end is None or n in may_end)]
        if ends:  # a framework's design: it forces a call on every step and its own output tool's call ends the loop
            ledger.info("pitfall.forced_after_tool_result",
                        f"a forced tool_choice right after a tool result: {ends[0]} is offered, "
                        f"{OUTPUT_TOOLS[ends[0]]}, and its call ends the loop; a model that keeps calling the "
                        f"other tools runs it to the step limit (toolchoice mock answers a forced choice with the "
                        f"first offered tool: a --script reply {{call: {ends[0]}}} ends it)")
        else:
            ledger.info("pitfall.forced_after_tool_result",
                        "a forced tool_choice right after a tool result makes an agent loop call tools forever; "
                        "switch to auto once results arrive")
    if (plan.mode == "named" and cap.parallel.usable and scenario.parallel_tool_calls is not False
            and not cap.named_single_call):
        ledger.info("pitfall.named_parallel", "a named tool_choice with parallel calls allowed can still return "
                    "extra calls; set parallel_tool_calls: false to get exactly one")
