"""Translation logic every provider shares: planning the tool_choice against a capability row,
the pitfall lint, schema and name checks, URLs, extras and the final refusal rule.

A provider module calls ``start`` (ledger + model + plan), builds its body from the plan, and
returns ``finish(...)``. Nothing here knows a provider's wire words: the module maps plan modes
to them and records each mapping with ``mapped``.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Literal, Mapping, NamedTuple

from .bounded import json_value
from . import model_rules  # every translator reads the model rules
from .capabilities import CAPABILITIES, WIRE_FORMS, Capability, Level, WireTemplateError, wire_form, wire_value
from .model import (Ledger, Message, ProviderSettings, RenderOptions, Request, Scenario, Tool, ToolchoiceError,
                    Translation, compact, json_string, word_or_json)

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


class Context:
    """Everything a provider module needs while it builds one request. Mutable: a module may
    replace ``plan`` (Bedrock keeps the tools declared for a tool history)."""

    __slots__ = ("provider", "cap", "scenario", "options", "ledger", "model", "plan", "settings", "requested",
                 "key_env", "developer_sent", "requested_text", "special_tools", "history_calls", "history_reasoning",
                 "built_choice", "facts")

    def __init__(self, provider: str, cap: Capability, scenario: Scenario, options: RenderOptions, ledger: Ledger,
                 model: str, plan: ChoicePlan, settings: ProviderSettings, requested: Any = None,
                 requested_text: str | None = None, special_tools: bool = True, history_calls: bool = True,
                 history_reasoning: bool = True) -> None:
        self.provider = provider
        self.cap = cap
        self.scenario = scenario
        self.options = options
        self.ledger = ledger
        self.model = model
        self.plan = plan
        self.settings = settings  # providers.<id> of the scenario
        self.requested = requested  # the neutral tool_choice as JSON (ToolChoice.to_json), None when unset
        # the variables that can hold the key, first wins: providers.<id>.api_key_env, else the provider's own
        self.key_env: tuple[str, ...] = (settings.api_key_env,) if settings.api_key_env else cap.key_env
        # a developer prompt went out as the API's developer role (else finish() records it became system)
        self.developer_sent = False
        # requested as ledger messages quote it (a word as is, an object as compact JSON); start() makes it
        self.requested_text = requested_text
        # some planned tool is custom or carries newer per-tool fields (False: all are plain function tools)
        self.special_tools = special_tools
        # some history message makes tool calls / carries reasoning items (False: the lints have nothing to look at)
        self.history_calls = history_calls
        self.history_reasoning = history_reasoning
        # the last value choice_value built from a template, with its compact text (mapped quotes it)
        self.built_choice: tuple[Any, str] | None = None
        self.facts: Mapping[str, Any] | None = None  # model_facts(ctx), read once


def _names(tools: tuple[Tool, ...] | tuple[str, ...]) -> str:
    return ", ".join(t if isinstance(t, str) else t.name for t in tools) or "(none)"


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
    plan = plan_choice(cap, scenario, options, ledger, requested_text)
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
    return Context(provider, cap, scenario, options, ledger, model, plan, settings, requested, requested_text,
                   special, calls, reasoning)


def plan_choice(cap: Capability, scenario: Scenario, options: RenderOptions, ledger: Ledger,
                neutral: str | None = None) -> ChoicePlan:
    """``neutral``: the tool_choice as the ledger quotes it (``ToolChoice.quoted``), when the caller has it."""
    choice = scenario.tool_choice
    tools = scenario.tools
    if choice is None:
        ledger.info("tool_choice.unset", "tool_choice not specified: the field is omitted and the provider's "
                    "default applies (auto when tools are declared)")
        return ChoicePlan("unset", tools)
    if neutral is None:
        neutral = choice.quoted()
    spelling = choice.spelling
    if spelling and spelling != neutral and spelling != choice.name:
        ledger.info("tool_choice.spelling", f"tool_choice {spelling} read as {neutral}")
    mode = choice.mode  # the records are tuples: each field read is a lookup, so read once
    if not tools:
        if choice.forces_call:
            ledger.error("tool_choice.without_tools",
                         f"tool_choice {neutral} forces a tool call but no tools are declared; declare the tools")
            return ChoicePlan(mode if mode != "allowed" else "required", tools)
        ledger.info("tool_choice.without_tools",
                    f"tool_choice {neutral} with no tools declared: the field is omitted (OpenAI-style APIs "
                    f"reject tool_choice without tools, and without tools no call is possible)")
        return ChoicePlan("unset", tools)

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
        _ignored(cap, "required", ledger, options, _measured(cap, "required"))
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
        _ignored(cap, f"naming '{choice.name}'", ledger, options, _measured(cap, "named"))
        return ChoicePlan("unset", kept, emulated=True)
    # allowed subset
    subset = tuple(t for t in tools if t.name in choice.allowed)
    if cap.allowed.usable:
        return ChoicePlan("allowed", tools, allowed=choice.allowed, allowed_mode=choice.allowed_mode)
    want = "required" if choice.allowed_mode == "required" else "auto"
    if len(subset) == len(tools):
        if want == "required" and not cap.required.usable:
            _ignored(cap, "required (allowed subset of every tool)", ledger, options)
            return ChoicePlan("unset", tools, emulated=True)
        ledger.info("tool_choice.mapped", f"the allowed subset is every declared tool: sent as {want}")
        return ChoicePlan(want, tools)
    if _unsupported(cap, options, ledger, f"allowed subset [{_names(choice.allowed)}]",
                    "only the allowed tools are offered", "allowed"):
        _filtered(tools, subset, ledger, "to emulate the allowed subset")
    if want == "required" and not cap.required.usable:
        _ignored(cap, "required (allowed subset)", ledger, options)
        return ChoicePlan("unset", subset, emulated=True)
    return ChoicePlan(want, subset, emulated=True)


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


def _ignored(cap: Capability, what: str, ledger: Ledger, options: RenderOptions, measured: str = "") -> None:
    why = f" (measured: {measured})" if measured else ""
    if not options.emulate:
        ledger.error("tool_choice.unsupported",
                     f"{cap.title} has no way to enforce tool_choice {what}{why} and --no-emulate is set")
        return
    ledger.warning("tool_choice.ignored",
                   f"{cap.title} cannot enforce tool_choice {what}{why}: sent without it, so the model may answer in "
                   f"text or call any offered tool; state the requirement in the system prompt, or offer only that tool")


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
    names and allowed mode (``capabilities.wire_value``): the one place the value comes from, so the
    table and the bytes cannot disagree. The rows' forms name function tools; ``custom`` is the template
    that names a custom tool instead (alone, or as its item of an allowed list).

    None when the row says the choice is sent as no field (``capabilities.sends_no_field``), or, with an
    error entry, when the row claims a value it does not give (a note where a form should be: a wrong row
    or overlay).

    The value is the caller's to send, not to change: ``mapped`` quotes it from text the template gave
    (``capabilities.WireForm.text``), so a translator that adds a field does so with ``choice_with``."""
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
        for key in tool.fields:
            if key not in getattr(module, "TOOL_FIELDS", ()):
                ledger.info("tool.field_dropped", f"tool '{tool.name}': {key} is not sent ({cap.title}'s tool type has "
                            f"no such field; {', '.join(tool_field_takers(key))} take it)")


def tool_fields(ctx: Context, tool: Tool) -> dict[str, Any]:
    """The tool's newer per-tool fields this provider takes (its module's ``TOOL_FIELDS``; the others
    were recorded as dropped)."""
    if not tool.fields:
        return {}
    from .registry import module_for

    taken = module_for(ctx.provider).TOOL_FIELDS
    return {k: v for k, v in tool.fields.items() if k in taken}


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
        ledger.info("pitfall.empty_tools", "tools: [] is written explicitly: no tools are sent (an empty tools "
                    "array is rejected by OpenAI-style APIs), exactly as if tools were left out")
    if messages and messages[-1].role == "tool" and choice is not None and choice.forces_call:
        ledger.info("pitfall.forced_after_tool_result",
                    "a forced tool_choice right after a tool result makes an agent loop call tools forever; "
                    "switch to auto once results arrive")
    if (plan.mode == "named" and cap.parallel.usable and scenario.parallel_tool_calls is not False
            and not cap.named_single_call):
        ledger.info("pitfall.named_parallel", "a named tool_choice with parallel calls allowed can still return "
                    "extra calls; set parallel_tool_calls: false to get exactly one")


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


def check_names(ctx: Context, rule: tuple[Callable[[str], Any], str]) -> None:
    """An error for every tool name the provider rejects. ``rule``: the provider module's ``NAME_RULE``
    (a test of a name, and the words that say what it allows)."""
    valid, words = rule
    for tool in ctx.plan.tools:
        if not valid(tool.name):
            ctx.ledger.error("tool.name_invalid", f"tool name '{tool.name}' is rejected by {ctx.cap.title} "
                             f"({words}); rename the tool")


def openai_strict_problems(schema: dict[str, Any], path: str = "parameters") -> list[str]:
    """Where a schema breaks OpenAI's strict rules: additionalProperties false on every object,
    every property required."""
    problems: list[str] = []
    if not isinstance(schema, dict):
        return problems
    if schema.get("type") == "object" or "properties" in schema:
        if schema.get("additionalProperties") is not False:
            problems.append(f"{path} needs additionalProperties: false")
        props = schema.get("properties") or {}
        missing = [k for k in props if k not in (schema.get("required") or [])]
        if missing:
            problems.append(f"{path} must list every property in required (missing: {', '.join(missing)}; "
                            "make optional ones nullable)")
        for key, sub in props.items():
            problems.extend(openai_strict_problems(sub, f"{path}.{key}"))
    for key in ("items",):
        if isinstance(schema.get(key), dict):
            problems.extend(openai_strict_problems(schema[key], f"{path}[]"))
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key) or []):
            problems.extend(openai_strict_problems(sub, f"{path}.{key}[{i}]"))
    for key in ("$defs", "definitions"):
        for name, sub in (schema.get(key) or {}).items():
            problems.extend(openai_strict_problems(sub, f"{path}.{key}.{name}"))
    return problems


def url_problem(url: str) -> str | None:
    """Why a base URL cannot be used as one, or None. A user name or password in it would make
    httpx send Basic auth instead of the provider's key header (and the password travels); a
    query string or fragment would have the endpoint path appended after it."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return None  # reported by the caller's own check
    if "@" in parts.netloc:
        return "it holds a user name or password (user:pass@host); keys are read from the environment"
    if parts.query or url.rstrip().endswith("?"):
        return "it holds a query string (?...), after which the endpoint path would be appended"
    if parts.fragment or "#" in url:
        return "it holds a fragment (#...)"
    return None


def redact_url(url: str) -> str:
    """``url`` with any user info and query values left out, for messages."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc.rsplit("@", 1)[-1]
    if "@" in parts.netloc:
        netloc = "…@" + netloc
    return parts._replace(netloc=netloc, query="…" if parts.query else "", fragment="").geturl()


def endpoint(ctx: Context, default_base: str, path: str) -> str:
    """``base + path``, where base is --base-url, providers.<id>.base_url or the default.

    Base URLs follow each official SDK: OpenAI-style ones include /v1, Anthropic's does not."""
    override = ctx.options.base_url or ctx.settings.base_url
    if override:
        problem = url_problem(override)
        if problem:
            where = "--base-url" if ctx.options.base_url else f"providers.{ctx.provider}.base_url"
            raise ToolchoiceError(f"{where} {redact_url(override)}: {problem}",
                                  hint="give scheme://host[:port]/path only")
        ctx.ledger.info("endpoint.base_url", f"base URL {override} replaces {default_base}")
        return override.rstrip("/") + path
    return default_base + path


def merge_extra(ctx: Context, body: dict[str, Any]) -> dict[str, Any]:
    """Merge providers.<id>.extra into the body last; overrides are warnings, additions info."""
    for key, value in ctx.settings.extra.items():
        if key in body and body[key] != value:
            ctx.ledger.warning("extra.overrides", f"extra.{key} replaces the translated value "
                               f"{compact(body[key])[:120]} with {compact(value)[:120]}")
        else:
            ctx.ledger.info("extra.merged", f"extra.{key} = {compact(value)[:120]} added to the body")
        body[key] = value
    return body


def with_user_headers(ctx: Context, headers: dict[str, str]) -> dict[str, str]:
    for name, value in ctx.settings.headers.items():
        verb = "replaces" if name.lower() in {h.lower() for h in headers} else "adds"
        ctx.ledger.info("headers.user", f"providers.{ctx.provider}.headers {verb} header {name}")
        headers = {k: v for k, v in headers.items() if k.lower() != name.lower()}
        headers[name] = value
    return headers


_ENV_NAME = re.compile(r"\$(?:\{([A-Z_][A-Z0-9_]*)\}|([A-Z_][A-Z0-9_]*))(?![A-Za-z0-9_])")  # as the transport resolves


def check_environment(ctx: Context, url: str, headers: dict[str, str]) -> None:
    """Which environment variables the request reads at send time, and where each one goes.

    A provider's own key variables (the capability table's ``key_env``) are read without asking, to
    the provider's own host. Anything else a scenario file names (``$NAME`` in a header,
    ``api_key_env``) is read only when the user allowed it (``--allow-env NAME``, or
    ``TOOLCHOICE_ALLOW_ENV``): a scenario someone else wrote must not mail ``$GITHUB_TOKEN`` to a
    server of its choosing. Allowed ones are warnings naming the header and host (so --strict
    refuses them), others errors; so is the provider's own key sent to a base URL the scenario
    file chose.

    ``finish`` calls it only when the scenario sets headers, api_key_env or base_url: without them the
    request reads only what the translator wrote, the provider's own key (``$KEY_ENV[0]``), sent to the
    provider's own host, and there is nothing to say."""
    # The provider's own key to the provider's own host needs no entry: such reads are skipped as they
    # are found (and a header or URL without "$" reads nothing).
    own = ctx.cap.key_env if not (ctx.settings.base_url and not ctx.options.base_url) else ()
    reads: dict[str, list[str]] = {}
    for name, value in headers.items():
        if "$" in value:
            for match in _ENV_NAME.finditer(value):
                var = match.group(1) or match.group(2)
                if var not in own:
                    reads.setdefault(var, []).append(f"header {name}")
    if "$" in url:
        for match in _ENV_NAME.finditer(url):
            var = match.group(1) or match.group(2)
            if var in ctx.key_env and var not in own:  # the only placeholders a URL resolves (Gemini's ?key=)
                reads.setdefault(var, []).append("the URL")
    for var, places in reads.items():
        from urllib.parse import urlsplit

        where = f"{' and '.join(dict.fromkeys(places))} to {urlsplit(url).netloc or url}"
        source = (f"providers.{ctx.provider}.api_key_env" if var == ctx.settings.api_key_env
                  else f"providers.{ctx.provider}.headers")
        if var in ctx.cap.key_env:
            if ctx.settings.base_url and not ctx.options.base_url:
                ctx.ledger.warning("env.key_destination", f"${var} is sent in {where}, a base URL the scenario "
                                   f"file sets (providers.{ctx.provider}.base_url)")
            continue
        if var in ctx.options.allow_env:
            ctx.ledger.warning("env.allowed", f"${var} (allowed by --allow-env) is read from the environment "
                               f"and sent in {where}")
        else:
            ctx.ledger.error("env.not_allowed", f"{source} reads ${var} from the environment and would send it "
                             f"in {where}; only {' / '.join(ctx.cap.key_env) or 'no variable'} is read without "
                             f"asking: pass --allow-env {var} (or set TOOLCHOICE_ALLOW_ENV={var}) if you trust "
                             "this file")


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
    if settings.extra:
        body = merge_extra(ctx, body)
    if final_lint is not None:
        final_lint(ctx, body)
    if settings.headers:
        headers = with_user_headers(ctx, headers)
    if settings.headers or settings.api_key_env or settings.base_url:
        check_environment(ctx, url, headers)
    if ctx.options.strict and ledger.warnings and not ledger.errors:
        count = ledger.warnings
        ledger.error("strict.refused", f"--strict: {count} warning{'s' if count != 1 else ''} above refuse this request")
    request = None if ledger.errors else Request(method, url, headers, body, ctx.key_env, key_optional,
                                                 ctx.options.stream)
    if offered is None:
        offered = () if plan.omit_tools else tuple([t.name for t in plan.tools])
    effective = body.get(choice_path[0]) if len(choice_path) == 1 else dig(body, choice_path)
    # The ledger's list is handed over: the translation is done with it.
    return Translation(ctx.provider, ctx.requested, effective, request, ledger.entries, offered)


def bearer(ctx: Context) -> dict[str, str]:
    """Content-Type plus ``Authorization: Bearer $KEY`` (the placeholder, never the value)."""
    env = ctx.key_env
    headers = {"Content-Type": "application/json"}
    if env:
        headers["Authorization"] = f"Bearer ${env[0]}"
    return headers


def streamed(ctx: Context, how: str) -> None:
    """Record that the request asks for the provider's streaming form (``--stream``), and what it is."""
    ctx.ledger.info("stream.requested", f"streamed: {how}")


def history_arguments_json(arguments: dict[str, Any]) -> str:
    """Tool-call arguments as the JSON text OpenAI-style histories carry."""
    return json.dumps(arguments, ensure_ascii=False)


def chat_messages(ctx: Context, assistant: Callable[[Message], dict[str, Any]],
                  tool: Callable[[Message], dict[str, Any]], developer_role: bool = False) -> list[dict[str, Any]]:
    """The role-per-message history most chat APIs take: system first, users as they are, assistant
    turns and tool results in the provider's own encoding. A tool result's is_error, which these APIs
    have no field for, is recorded in the ledger."""
    out: list[dict[str, Any]] = []
    if ctx.scenario.system is not None:
        developer = developer_role and ctx.scenario.system_role == "developer"
        ctx.developer_sent = developer
        out.append({"role": "developer" if developer else "system", "content": ctx.scenario.system})
    for m in ctx.scenario.messages:
        if m.role == "user":
            out.append({"role": "user", "content": m.content})
        elif m.role == "assistant":
            out.append(assistant(m))
        else:
            out.append(tool(m))
            if m.is_error:
                ctx.ledger.info("history.is_error_dropped", f"tool result {m.tool_call_id} is_error: true has no "
                                f"field in {ctx.cap.title}; the content carries the error")
    return out


def tool_result_object(content: str) -> dict[str, Any]:
    """A tool result as a JSON object for APIs that want one (Gemini, Bedrock): a JSON object is
    used as is, anything else is wrapped as {"output": ...}."""
    try:
        value = json_value(content)
    except ValueError:
        return {"output": content}
    return value if isinstance(value, dict) else {"output": value}


def reasoning_for(ctx: Context, family: str, title: str | None = None, *, takes_call_signatures: bool = False) -> bool:
    """Record the history's reasoning state this API cannot take: items another API family wrote (their
    signatures and encrypted content are valid only there) and call signatures (Gemini's), unless
    ``takes_call_signatures``. The translator renders only ``family``'s items; this says, once per
    family, what was left out and why.

    True when some message carries reasoning items (of any family)."""
    count_signed = not takes_call_signatures
    if not ctx.history_reasoning and not (count_signed and ctx.history_calls):
        return False
    foreign: dict[str, int] = {}
    signed = 0
    reasoning = False
    for message in ctx.scenario.messages:
        if message.reasoning:
            reasoning = True
            for item in message.reasoning:
                if item.family != family:
                    foreign[item.family] = foreign.get(item.family, 0) + 1
        if count_signed and message.tool_calls:
            for call in message.tool_calls:
                if call.signature is not None:
                    signed += 1
    if not foreign and not signed:
        return reasoning
    title = title or ctx.cap.title
    for other, count in foreign.items():
        ctx.ledger.info("reasoning.dropped", f"{count} reasoning item{'s' if count > 1 else ''} written by {other} "
                        f"left out: {title} takes only reasoning state its own API returned (signatures and "
                        "encrypted reasoning do not carry across APIs)")
    if signed:
        ctx.ledger.info("reasoning.dropped", f"{signed} Gemini thoughtSignature{'s' if signed > 1 else ''} on history "
                        f"tool calls left out: {title} has no field for them")
    return reasoning


def placed(items: Any, calls: int) -> list[list[Any]]:
    """Reasoning items grouped by where they go: ``[before call 0, before call 1, ..., after the last call]``
    (an item's ``position`` is how many of the turn's calls came before it)."""
    slots: list[list[Any]] = [[] for _ in range(calls + 1)]
    for item in items:
        slots[min(item.position, calls)].append(item)
    return slots


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
    return facts


def rule_applied(ctx: Context, key: str, fact: Any, what: str) -> None:
    """A ledger line saying which model rule (or override) decided ``what``."""
    from .model_rules import cite

    ctx.ledger.info("rule.applied", f"{what}: {cite(key, fact, ctx.provider)}")
