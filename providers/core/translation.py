"""Translation logic every provider shares: ``start`` (ledger, model, the planned choice from
``choice_plan`` and the shared lints, in a ``request_context.Context``), the choice's value from the row (``choice_value``) and its
ledger line (``mapped``), custom tools and per-tool fields, parallel calls, strict tools, name checks, the model rules, and ``finish`` (extras, headers and environment reads from
``request_parts``, --strict, the ``Translation``).

A provider module calls ``start`` (ledger + model + plan), builds its body from the plan, and
returns ``finish(...)``. Nothing here knows a provider's wire words: the module maps plan modes
to them and records each mapping with ``mapped``.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from . import model_rules  # every translator reads the model rules
from .body_limits import RULE_LIMIT_PROVIDERS, model_limits
from .capabilities import CAPABILITIES, Capability, Level
from .wire_template import WIRE_FORMS, WireTemplateError, wire_form, wire_value
from .choice_plan import lint_pitfalls, plan_choice
from .model import (Ledger, ProviderSettings, RenderOptions, Request, Scenario, Tool, Translation, compact, json_string,
                    word_or_json)
from .request_context import Context
from .host_rules import elsewhere, refuse, replaced_host
from .request_parts import check_environment, extra_env, merge_extra, with_user_headers


# Settings one provider reads (docs/scenarios.md, per-provider settings; each its row's ``marks.settings``), in the
# order ProviderSettings declares them: written under another provider they would do nothing, so the ledger says so.
ONE_PROVIDER_SETTINGS = {key: reader for key in ProviderSettings._fields for reader, cap in CAPABILITIES.items()
                         if key in cap.marks.settings}


def start(provider: str, scenario: Scenario, options: RenderOptions, cap: Capability | None = None) -> Context:
    """Create the ledger, pick the model, plan the tool_choice and run the shared lints."""
    cap = cap or CAPABILITIES[provider]
    ledger = Ledger()
    if scenario.notes:
        for note in scenario.notes:
            ledger.add(*note)
    if cap.measured:
        ledger.info("capabilities.overlay", f"capabilities for {provider} come from a probe: {cap.measured}")
    settings = scenario.settings_for(provider)
    for key, reader in ONE_PROVIDER_SETTINGS.items():
        if reader != provider and getattr(settings, key) is not None:
            ledger.warning("settings.unread", f"providers.{provider}.{key} is not read for {provider}: it is "
                           f"{reader}'s setting (move it under providers.{reader}, or remove it)")
    model = options.model or settings.model
    if not model:
        model = cap.default_model
        ledger.info("model.default", f"no model set for {provider}; using {model} (set providers.{provider}.model or --model)")
    if provider in model_rules.EOL_PROVIDERS:  # a set test; then one cached lookup per model
        retiring = model_rules.eol_warning(provider, model)
        if retiring is not None:
            ledger.warning("model.end_of_life", retiring)
    choice = scenario.tool_choice
    requested = requested_text = None
    if choice is not None:
        requested = choice.to_json()
        requested_text = choice.quoted()
    hosted = False
    if scenario.native_tools:  # MCP servers, programmatic tool calling: rendered by the modules that take them
        from .native_tools import lint as lint_native

        hosted = lint_native(cap, scenario, ledger)
    other_host = replaced_host(cap, options, settings)
    plan = plan_choice(cap, scenario, options, ledger, requested_text, hosted,
                       elsewhere(cap, other_host) if other_host else None)
    calls = reasoning = False  # what the history holds, read once for every lint that asks
    for message in scenario.messages:
        if message.tool_calls:
            calls = True
        if message.reasoning:
            reasoning = True
    lint_pitfalls(cap, scenario, plan, ledger, calls)
    special = False
    if not plan.omit_tools:
        for tool in plan.tools:
            if tool.kind != "function" or tool.fields:
                special = True
                lint_tool_kinds(cap, plan.tools, ledger)
                break
    ctx = Context(provider, cap, scenario, options, ledger, model, plan, settings, requested, requested_text,
                  special, calls, reasoning)
    ctx.other_host = other_host
    return ctx


def mapped(ctx: Context, wire: Any, note: str = "") -> None:
    """Record how the requested tool_choice appears on this provider's wire."""
    if ctx.requested is None or ctx.plan.mode == "unset":
        return
    built = ctx.built_choice
    shown = built[1] if built is not None and built[0] is wire else word_or_json(wire)
    ctx.ledger.info("tool_choice.mapped", f"tool_choice {ctx.requested_text} → {shown} ({note})" if note
                    else f"tool_choice {ctx.requested_text} → {shown}")


def choice_value(ctx: Context, feature: str = "", custom: str = "") -> Any:
    """The value to send for the plan's choice (or for ``feature``: Gemini's strict, Anthropic's auto),
    taken from the capability row's wire template and filled in with the plan's tool name or allowed
    names and allowed mode (``wire_template.wire_value``): the one place the value comes from, so the
    table and the bytes cannot disagree. The rows' forms name function tools; ``custom`` is the template
    that names a custom tool instead (alone, or as its item of an allowed list).

    None when the row says the choice is sent as no field (``wire_template.sends_no_field``), or, with an
    error entry, when the row claims a value it does not give (a note where a form should be: a wrong row
    or overlay).

    The value is the caller's to send, not to change: ``mapped`` quotes it from text the template gave
    (``wire_template.WireForm.text``), so a translator that adds a field does so with ``choice_with``."""
    plan = ctx.plan
    each = None
    if custom and ctx.special_tools and plan.mode in ("named", "allowed"):
        customs = [t.name for t in plan.tools if t.kind == "custom"]
        if plan.name in customs:
            return wire_value(custom, (plan.name,))
        if customs:
            each = lambda name: wire_value(custom, (name,)) if name in customs else None  # noqa: E731
    wire = getattr(ctx.cap, feature or plan.mode).wire
    form = WIRE_FORMS.get(wire)
    if form is None:
        try:
            form = wire_form(wire)
        except WireTemplateError:
            ctx.ledger.error("tool_choice.unsupported", f"{ctx.cap.title} has no wire form for tool_choice "
                             f"{plan.mode}: its capability row gives {feature or plan.mode} as {wire!r}, not a value "
                             "to send; the row (or overlay) claiming it is wrong")
            return None
    if form.word is not None:
        return form.word
    if plan.name is not None:
        name, names = plan.name, (plan.name,)
    else:
        name, names = plan.allowed[0] if plan.allowed else None, plan.allowed
    value = form.build(name, names, plan.allowed_mode, each)
    if form.text is not None and each is None:
        ctx.built_choice = (value, form.text(name, names, plan.allowed_mode))
    return value


def choice_with(ctx: Context, choice: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """``choice`` (from ``choice_value``) with one more field, as a new object whose text ``mapped`` still
    quotes without encoding it (Anthropic's disable_parallel_tool_use lives inside tool_choice)."""
    out = {**choice, key: value}
    built = ctx.built_choice
    if built is not None and built[0] is choice and key not in choice:
        text = built[1]
        ctx.built_choice = (out, f"{text[:-1]}{',' if choice else ''}{json_string(key)}:{compact(value)}}}")
    return out


def lint_tool_kinds(cap: Capability, tools: tuple[Tool, ...], ledger: Ledger) -> None:
    """Custom (free-text) tools are refused where the API has no such tool (never turned into function
    tools); newer per-tool fields are dropped, with an entry, where the provider's tool type lacks them.
    Each provider module declares what it takes (``CUSTOM_TOOLS``, ``TOOL_FIELDS``)."""
    from .registry import custom_tool_takers, module_for, tool_field_takers

    module = module_for(cap.provider)
    for tool in tools:
        if tool.kind == "custom" and cap.provider not in getattr(module, "CUSTOM_TOOLS", {}):
            takers = [words for _, words in custom_tool_takers()]
            ledger.error("tool.custom_unsupported", f"tool '{tool.name}' is a custom (free-text) tool and {cap.title} "
                         f"has no such tool kind (only {', '.join(takers[:-1])} and {takers[-1]} do); declare it as a "
                         "function tool with a string parameter, or leave it out for this provider")
        elif tool.fields:
            taken = _fields_taken(module, tool)
            kind = "custom tool" if tool.kind == "custom" else "tool"
            unsent = getattr(module, "TOOL_FIELDS_UNSENT", {})
            for key in tool.fields:
                if key in unsent:
                    ledger.info("tool.field_dropped", f"tool '{tool.name}': {key} is not sent (the {kind} type has it, "
                                f"the endpoint toolchoice sends to does not take it: {unsent[key]})")
                elif key not in taken:
                    takers = tool_field_takers(key, tool.kind)
                    ledger.info("tool.field_dropped", f"tool '{tool.name}': {key} is not sent ({cap.title}'s {kind} "
                                "type has no such field; " + (f"{', '.join(takers)} take it)" if takers else
                                                              "no API toolchoice sends to takes it)"))


def _fields_taken(module: Any, tool: Tool) -> tuple[str, ...]:
    """The per-tool fields the module's tool type of this tool's kind has (``TOOL_FIELDS``, ``CUSTOM_TOOL_FIELDS``)."""
    return getattr(module, "CUSTOM_TOOL_FIELDS" if tool.kind == "custom" else "TOOL_FIELDS", ())


def tool_fields(ctx: Context, tool: Tool) -> dict[str, Any]:
    """The tool's newer per-tool fields this provider takes (its module's ``TOOL_FIELDS``, or ``CUSTOM_TOOL_FIELDS``
    for a custom tool; the others were recorded as dropped)."""
    if not tool.fields:
        return {}
    from .registry import module_for

    taken = _fields_taken(module_for(ctx.provider), tool)
    return {k: v for k, v in tool.fields.items() if k in taken}


def parallel_value(ctx: Context) -> bool | None:
    """The parallel_tool_calls value to send, or None; records drops in the ledger."""
    wanted = ctx.scenario.parallel_tool_calls
    if wanted is None:
        return None
    if ctx.plan.omit_tools or not ctx.plan.tools:
        ctx.ledger.info("parallel.dropped", f"parallel_tool_calls {str(wanted).lower()} not sent: no tools in the request")
        return None
    if ctx.cap.parallel.usable:
        refused = model_facts(ctx).get("parallel_tool_calls") if (
            ctx.provider in model_rules.PARALLEL_RULED or ctx.settings.rules) else None
        if refused is not None and not refused.value:
            ctx.ledger.warning("parallel.model_refuses", f"{ctx.model} answers 400 'Unsupported parameter: "
                               f"parallel_tool_calls': parallel_tool_calls {str(wanted).lower()} is not sent"
                               + (", so the model may return several calls" if wanted is False else ""))
            rule_applied(ctx, "parallel_tool_calls", refused, "parallel_tool_calls left out")
            return None
        wire = ctx.cap.parallel.wire
        shown = "sent as is" if wire == "parallel_tool_calls" else f"→ {wire}"
        ctx.ledger.info("parallel.mapped", f"parallel_tool_calls {str(wanted).lower()} {shown}")
        return wanted
    if wanted is False:
        ctx.ledger.warning("parallel.unsupported", f"{ctx.cap.title} has no switch for parallel tool calls: "
                           "parallel_tool_calls false is not sent, so the model may return several calls")
    else:
        ctx.ledger.info("parallel.unsupported", f"{ctx.cap.title} has no switch for parallel tool calls: "
                        "parallel_tool_calls true is not sent (its default already allows several)")
    return None


def strict_wanted(ctx: Context) -> set[str]:
    """Names of the planned tools the scenario marks strict (before any provider drops strict)."""
    scenario, tools = ctx.scenario, ctx.plan.tools
    if not scenario.strict:
        for tool in tools:
            if tool.strict:
                break
        else:
            return set()  # the common case: nothing marks any tool strict
    return {t.name for t in tools if scenario.tool_is_strict(t)}


def strict_tools(ctx: Context) -> set[str]:
    """Names of tools to send as strict; records drops when the provider has no strict mode."""
    wanted = strict_wanted(ctx)
    if wanted and ctx.cap.strict.level is Level.UNSUPPORTED:
        ctx.ledger.warning("strict.unsupported", f"{ctx.cap.title} has no strict mode: strict dropped for "
                           f"{', '.join(sorted(wanted))}; arguments are not schema-constrained")
        return set()
    return wanted


def check_names(ctx: Context, rule: tuple[Callable[[str], Any], str] | None,
                unstated: tuple[Callable[[str], Any], str, str] | None = None) -> None:
    """An error for every tool name the provider rejects. ``rule``: the provider module's ``NAME_RULE``
    (a test of a name, and the words that say what it allows), or None when the provider's sources state no
    rule. ``unstated``: another API's rule (test, words, whose) a name is only warned against: never refuse a
    name on a rule the provider's own sources do not state."""
    for tool in ctx.plan.tools:
        if rule is not None and not rule[0](tool.name):
            refuse(ctx, "tool.name_invalid", f"tool name '{tool.name}' is rejected by {ctx.cap.title} "
                             f"({rule[1]}); rename the tool")
        elif unstated is not None and not unstated[0](tool.name):
            ctx.ledger.warning("tool.name_unstated", f"tool name '{tool.name}' breaks {unstated[2]} rule "
                               f"({unstated[1]}), which {ctx.cap.title} does not state: sent as written; rename "
                               "the tool if the API answers 400")


def warn_long_names(ctx: Context, rule: tuple[Callable[[str], Any], str], most: int, stated: str, fact: str) -> None:
    """A name ``rule`` takes but longer than ``most``, where another source of the API's says ``most``: a warning
    naming what ``stated`` and the dated ``fact`` say (never a refusal: the sources disagree)."""
    for tool in ctx.plan.tools:
        if len(tool.name) > most and rule[0](tool.name):
            from .facts import cited

            ctx.ledger.warning("tool.name_unstated", f"tool name '{tool.name}' has {len(tool.name)} characters: "
                               f"{stated} ({cited(fact)}): sent as written; rename the tool if the API answers 400")


def tool_names(items: Any, *path: str) -> list[str]:
    """The string at ``path`` in each object of a tools list (a provider's ``offered_tools``)."""
    names: list[str] = []
    for item in items if isinstance(items, list) else ():
        value = dig(item, path)
        if isinstance(value, str):
            names.append(value)
    return names


def dig(body: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(body, dict) or key not in body:
            return None
        body = body[key]
    return body


def check_tool_limit(ctx: Context, body: dict[str, Any]) -> None:
    """More tools than the row's ``tool_limit`` (a source says the API refuses them): an error quoting the API."""
    limit = ctx.cap.tool_limit
    assert limit is not None
    over = limit.over(body)
    if over is None:
        return
    from .facts import cited  # the dated facts: read only for a request over the limit

    count, words = over
    refuse(ctx, "tools.over_limit", f"{count} tools in one request, and {ctx.cap.title} refuses more than "
                     f"{limit.most} ('{words}', {cited(limit.fact)}); offer at most {limit.most} (loop.narrow, or "
                     "split the catalogue)")


def check_body_limits(ctx: Context, body: dict[str, Any], limits: tuple[Any, ...], model_rule: bool = False) -> None:
    """A tool's field or the strict schemas past ``limits`` (the row's ``body_limits``, or a model rule's): an error
    quoting the API where its source says it refuses (the host's rule: ``refuse``; a model rule's holds at any
    host), a warning where the source is secondary (core/body_limits.py)."""
    for limit in limits:
        over = limit.over(body)
        if over is None:
            continue
        from .facts import cited  # the dated facts: read only for a request over a limit

        index, name, count, words = over
        where = f"tool '{name}': {count} {limit.what}" if index >= 0 else f"{count} {limit.what}"
        if limit.severity == "error":
            message = (f"{where}, and {ctx.cap.title} refuses more than {limit.most} ('{words}', {cited(limit.fact)}); "
                       f"bring it to {limit.most} or fewer")
            if model_rule:
                ctx.ledger.error(limit.code, message)
            else:
                refuse(ctx, limit.code, message)
        else:
            from .fact_freshness import unverified_since

            since = unverified_since(limit.fact)
            said = f", unverified since {since} (its newest evidence)" if since else ""
            ctx.ledger.warning(limit.code, f"{where}; a source says {ctx.cap.title} takes at most {limit.most}{said}, "
                               f"and none says the API refuses more today ({cited(limit.fact)}): sent as written; the "
                               "API may refuse it")


def finish(ctx: Context, *, method: str = "POST", url: str, headers: dict[str, str], body: dict[str, Any],
           choice_path: tuple[str, ...], key_optional: bool = False,
           offered: tuple[str, ...] | None = None,
           final_lint: Callable[[Context, dict[str, Any]], None] | None = None) -> Translation:
    """Merge extras and user headers, apply --strict, and build the Translation.

    ``offered`` names the tools the body declares when that differs from the plan (Bedrock keeps
    toolConfig for a tool history even when ``none`` is emulated by leaving tools out). ``final_lint``
    checks the body after ``extra`` is merged, so a conflict written in ``extra`` is caught too."""
    settings, ledger, plan = ctx.settings, ctx.ledger, ctx.plan
    if ctx.scenario.system_role == "developer" and ctx.scenario.system is not None and not ctx.developer_sent:
        ledger.info("system.developer_as_system", f"{ctx.cap.title} has no developer role: the developer message "
                    "is sent as the system prompt")
    sent = sent_parallel = None
    if settings.extra:
        from .sent_choice import at, parallel_fields, parallel_paths, read_back, read_parallel

        before = at(body, choice_path)
        paths = parallel_paths(ctx)
        parallel_before = parallel_fields(body, paths)
        body = merge_extra(ctx, body, whole=choice_path)  # the tool choice: as written
        reads: dict[str, Any] = {}  # the family reader's reading of the merged body, for both
        # what the verdict judges, where extra wrote it: the choice, and the parallel setting
        sent = read_back(ctx, method, url, body, choice_path, before, reads)
        sent_parallel = read_parallel(ctx, method, url, body, paths, parallel_before, reads)
    if final_lint is not None:
        final_lint(ctx, body)
    if ctx.cap.tool_limit is not None:
        check_tool_limit(ctx, body)
    if ctx.cap.body_limits:
        check_body_limits(ctx, body, ctx.cap.body_limits)
    if ctx.provider in RULE_LIMIT_PROVIDERS:  # limits a model rule brings (Claude on Bedrock): the model's, any host
        check_body_limits(ctx, body, model_limits(ctx.provider, model_facts(ctx)), model_rule=True)
    if "n" in body or "generationConfig" in body:  # a count of choices (n, candidateCount): its host's rule
        from .choice_count import check as check_choices  # read only then (render's start-up)

        check_choices(ctx, body)
    if settings.headers:
        headers = with_user_headers(ctx, headers)
    if settings.headers or settings.api_key_env or settings.base_url:
        check_environment(ctx, url, headers, key_optional)
    if ctx.body_env:
        from .native_tools import check_body_env

        check_body_env(ctx, body, url)
    if settings.extra:
        ctx.body_env.extend(extra_env(ctx, body, url))
    if ctx.options.strict and ledger.warnings and not ledger.errors:
        count = ledger.warnings
        ledger.error("strict.refused", f"--strict: {count} warning{'s' if count != 1 else ''} above refuse this request")
    request = None if ledger.errors else Request(method, url, headers, body, ctx.key_env, key_optional,
                                                 ctx.options.stream, tuple(ctx.body_env))
    if offered is None:
        offered = () if plan.omit_tools else tuple([t.name for t in plan.tools])
    effective = body.get(choice_path[0]) if len(choice_path) == 1 else dig(body, choice_path)
    # The ledger's list is handed over: the translation is done with it.
    return Translation(ctx.provider, ctx.requested, effective, request, ledger.entries, offered, sent,
                       sent_parallel, choice_path)


def streamed(ctx: Context, how: str) -> None:
    """Record that the request asks for the provider's streaming form (``--stream``), and what it is."""
    ctx.ledger.info("stream.requested", f"streamed: {how}")


def model_facts(ctx: Context, model: str | None = None) -> Mapping[str, Any]:
    """The model rules for this request (model_rules.resolve), the user's providers.<id>.rules first."""
    if model and model != ctx.model:
        return model_rules.resolve(ctx.provider, model, ctx.settings.rules)
    facts = ctx.facts
    if facts is None:
        facts = ctx.facts = model_rules.resolve(ctx.provider, ctx.model, ctx.settings.rules)
        if ctx.provider in model_rules.FAMILY_PROVIDERS:
            note = model_rules.unknown_note(ctx.provider, ctx.model)
            if note is not None:
                ctx.ledger.info("model_rule.unknown", note)
            spelling = model_rules.spelling_note(ctx.provider, ctx.model)
            if spelling is not None:
                ctx.ledger.warning("model_rule.spelling", spelling)
    return facts


def rule_applied(ctx: Context, key: str, fact: Any, what: str) -> None:
    """A ledger line saying which model rule (or override) decided ``what``."""
    from .model_rules import cite

    ctx.ledger.info("rule.applied", f"{what}: {cite(key, fact, ctx.provider)}")


def thinking_unsent(ctx: Context, switch: str, effort_sent: bool = False) -> None:
    """What of ``providers.<id>.thinking`` a host's on/off ``switch`` cannot carry (a budget, adaptive, an effort
    it has no word for): a ``thinking.not_sent`` warning, never dropped in silence."""
    spec = ctx.settings.thinking_mode
    if spec is None:
        return
    lost = [f"budget {spec.budget}"] if spec.budget is not None else []
    if spec.effort is not None and not effort_sent:
        lost.append(f"effort {spec.effort}")
    if spec.mode == "adaptive":
        lost.append("adaptive")
    if lost:
        thinking_not_sent(ctx, f"providers.{ctx.provider}.thinking: {', '.join(lost)} "
                          f"{'is' if len(lost) == 1 else 'are'} not sent; only {switch} goes out")


def thinking_not_sent(ctx: Context, message: str) -> None:
    """The one ``thinking.not_sent`` entry: a thinking setting (or part of it) no field of the request carries."""
    ctx.ledger.warning("thinking.not_sent", message)
