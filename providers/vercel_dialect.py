"""`--dialect vercel`: what the Vercel AI SDK's ``generateText`` (npm ``ai`` with the ``@ai-sdk/*`` provider package,
``vercel_rules.VERSIONS``) puts on each provider's wire for the scenario's tools, tool_choice, parallel_tool_calls and
thinking, next to the API request toolchoice builds.

The user is assumed to call ``generateText({model: <package>(MODEL), tools: {every scenario tool, jsonSchema(its
parameters)}, toolChoice: X, activeTools: A, providerOptions: P, prompt})``: X is the scenario's tool_choice in the
SDK's spelling (``sdk_choice``; an unset choice is left out, which ai sends as ``auto``), A the ``--active-tools``
setting and an allowed-tools choice's list, P the scenario's parallel_tool_calls and thinking as the package's
providerOptions take them. Only the tool fields of the API request change (the tools, the choice's field,
``parallel_tool_calls``, Bedrock's ``additionalModelRequestFields.tool_choice``) and the thinking toolchoice turns off
for a forcing choice where the package does not (DeepSeek V4); each field that differs is a ``dialect.differs`` entry
with the package's source and, where known, the API's answer. The rules are data (``vercel_rules``); node is never
run. Imported only with ``--dialect vercel``.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, NamedTuple, Sequence

from .core.model import LedgerEntry, Scenario, ToolChoice, Translation
from .dialect_fields import (ABSENT, Rebuild, api_json, filled, get_path, model_of, rebuilt_base,
                             set_path, shown, translated)
from .vercel_rules import (ACTIVE_TOOLS, ANTHROPIC_EAGER, ANTHROPIC_FORCED_AUTO, ANTHROPIC_FORCED_WARNING,
                           ANTHROPIC_REJECTS_FORCED, ANTHROPIC_REJECTS_SOURCE, API_ANSWERS, COMPATIBLE_PASSTHROUGH,
                           DEEPSEEK_THINKING, DROPPED, NAMED, NO_PACKAGE, NO_TOOLS, NO_TOOLS_GIVEN, PACKAGES, READ,
                           RESPONSES_ALLOWED, UNSET_AS_AUTO, VERSIONS, Package, Rule, Source)

_EXTRA = "additionalModelRequestFields"


class VercelView(NamedTuple):
    """One provider under --dialect vercel: the AI SDK's request (``translation``) and the API one."""

    translation: Translation  # request: what the AI SDK sends; ledger: API + dialect
    api: Translation
    model: str | None  # the package's model ("@ai-sdk/openai openai.chat('gpt-5.4-mini')")
    call: str | None  # the generateText call described
    active_tools: tuple[str, ...] | None

    @property
    def label(self) -> str | None:
        return self.model

    def to_json(self) -> dict[str, Any]:
        data = self.translation.to_json()
        data["dialect"] = "vercel"
        data["package"] = self.model
        data["generate_text"] = self.call
        data["active_tools"] = list(self.active_tools) if self.active_tools is not None else None
        data["api"] = api_json(self.api)
        return data


class SdkChoice(NamedTuple):
    """The scenario's tool_choice as generateText is given it."""

    given: Any  # toolChoice (None: left out)
    kind: str  # what ai hands the package: auto, none, required, tool
    active: tuple[str, ...] | None  # activeTools from an allowed-tools choice
    note: str | None  # how a spelling with no SDK form was read


def sdk_choice(choice: ToolChoice | None, provider: str = "") -> SdkChoice:
    """The toolChoice a Vercel AI SDK user writes for the scenario's tool_choice (an allowed-tools choice: activeTools,
    or on the Responses model its own providerOptions.openai.allowedTools, kind "allowed")."""
    if choice is None:
        return SdkChoice(None, "auto", None, None)
    if choice.mode == "named" and choice.name:
        return SdkChoice({"type": "tool", "toolName": choice.name}, "tool", None, None)
    if choice.mode == "allowed" and provider == "openai-responses":
        return SdkChoice(choice.allowed_mode, "allowed", None, f"the allowed tools {list(choice.allowed)} as "
                         "providerOptions.openai.allowedTools")
    if choice.mode == "allowed":
        return SdkChoice(choice.allowed_mode, choice.allowed_mode, tuple(choice.allowed),
                         f"the allowed tools {list(choice.allowed)} as activeTools")
    mode = choice.mode if choice.mode in ("auto", "none", "required") else "required"
    spelled = choice.spelling
    return SdkChoice(mode, mode, None, None if spelled in ("", mode) else f"{spelled} written as {mode!r}")


def _tool_name(tool: Any) -> Any:
    if not isinstance(tool, dict):
        return None
    return tool.get("name") or (tool.get("function") or tool.get("toolSpec") or {}).get("name")


def _declared(package: Package, api: Translation, scenario: Scenario, rebuild: Rebuild | None) -> Any:
    """Every scenario tool in the wire form (the API request's, or that of the same scenario with choice auto where
    the API request sends fewer)."""
    assert api.request is not None
    tools = get_path(api.request.body, package.tools_path)
    if set(api.offered_tools) != set(scenario.tool_names) or tools is ABSENT:
        auto = scenario._replace(tool_choice=ToolChoice("auto", spelling="auto"), parallel_tool_calls=None)
        full = translated(rebuild, auto, api.provider)
        tools = get_path(full.request.body, package.tools_path) if full.request else ABSENT
    return ABSENT if tools is ABSENT else json.loads(json.dumps(tools))


def _only(tools: Any, names: Sequence[str]) -> Any:
    """The declarations of ``names`` alone, in the scenario's order (Gemini's inside its functionDeclarations)."""
    if not isinstance(tools, list):
        return tools
    kept = []
    for tool in tools:
        if isinstance(tool, dict) and isinstance(tool.get("functionDeclarations"), list):
            inner = [d for d in tool["functionDeclarations"] if _tool_name(d) in names]
            if inner:
                kept.append({**tool, "functionDeclarations": inner})
        elif _tool_name(tool) in names:
            kept.append(tool)
    return kept


def _as_package_writes(package: Package, tools: Any, stream: bool) -> Any:
    """The declarations as the package writes them where it parts from the API request's: Gemini's JSON Schema as
    given in parametersJsonSchema, Anthropic's eager_input_streaming on a stream."""
    if package.provider == "anthropic" and stream and isinstance(tools, list):
        return [{**t, "eager_input_streaming": True} if isinstance(t, dict) and "input_schema" in t else t
                for t in tools]
    if package.provider != "gemini" or not isinstance(tools, list):
        return tools
    out = []
    for tool in tools:
        declarations = tool.get("functionDeclarations") if isinstance(tool, dict) else None
        if not isinstance(declarations, list):
            out.append(tool)
            continue
        rewritten = []
        for d in declarations:
            schema = d.get("parametersJsonSchema", d.get("parameters"))
            d = {k: v for k, v in d.items() if k not in ("parametersJsonSchema", "parameters")}
            rewritten.append({**d, "parametersJsonSchema": schema} if schema is not None else d)
        out.append({**tool, "functionDeclarations": rewritten})
    return out


def _active(settings: Mapping[str, Any], scenario: Scenario, chosen: SdkChoice) -> tuple[str, ...] | None:
    """activeTools: --active-tools and an allowed-tools choice's list (both: the tools in both). A name the scenario
    does not declare is bad input (activeTools is typed Array<keyof TOOLS>)."""
    from .core.errors import named

    given = settings.get("active_tools")
    # a Python caller's one name as a str is a list of one (not read letter by letter)
    names = ((given,) if isinstance(given, str) else tuple(given)) if given is not None else None
    for name in names or ():
        if name not in scenario.tool_names:  # the command line's --active-tools, a Python caller's settings key
            raise named(("", f" {name!r}: not a tool of {scenario.path}"),
                        "one of " + ", ".join(scenario.tool_names) if scenario.tool_names else
                        "the scenario declares no tools", names=("active_tools",),
                        spelling={"active_tools": "settings['active_tools']"})
    if chosen.active is None:
        return names
    return chosen.active if names is None else tuple(n for n in chosen.active if n in names)


def _options(package: Package, parallel: bool | None, thinking: Any) -> dict[str, Any]:
    """providerOptions for the scenario's parallel_tool_calls and thinking, as the package takes them."""
    options: dict[str, Any] = {}
    if parallel is not None and package.parallel is not None:
        *_, space, key = package.parallel.option.split(".")
        value = (not parallel) if key == "disableParallelToolUse" else parallel
        options.setdefault(space, {})[key] = value
    if isinstance(thinking, dict) and package.provider in ("anthropic", "deepseek", "bedrock"):
        kind = thinking.get("type")
        asked = {"type": kind, **({"budgetTokens": thinking["budget_tokens"]} if "budget_tokens" in thinking else {})}
        if kind is not None:  # Bedrock's: providerOptions.bedrock.reasoningConfig (dist/index.js:1392)
            space, key = ("bedrock", "reasoningConfig") if package.provider == "bedrock" else (package.provider,
                                                                                              "thinking")
            options.setdefault(space, {})[key] = asked
    return options


def _call(package: Package, model: str, scenario: Scenario, chosen: SdkChoice, active: tuple[str, ...] | None,
          options: dict[str, Any]) -> str:
    made = package.model.replace("MODEL", repr(model))
    parts = [f"model: {made}"] + (["tools"] if scenario.tools else []) + (
        [f"toolChoice: {json.dumps(chosen.given)}"] if chosen.given is not None else []) + (
        [f"activeTools: {json.dumps(list(active))}"] if active is not None else []) + (
        [f"providerOptions: {json.dumps(options)}"] if options else [])
    return "generateText({" + ", ".join(parts) + "})"


class _Sent(NamedTuple):
    """What the package puts in the tool fields: the rule applied, the tools sent, the choice and Bedrock's
    additionalModelRequestFields.tool_choice (or ABSENT), and why each field is so."""

    rule: Rule | None
    tools: list[str]
    choice: Any
    extra: Any
    why: dict[str, Source | Rule]
    forced_to_auto: bool


def _sent(package: Package, chosen: SdkChoice, scenario: Scenario, active: tuple[str, ...] | None, model: str,
          thinking: Any) -> _Sent:
    kind = chosen.kind
    name = scenario.tool_choice.name if scenario.tool_choice is not None else None
    given = [n for n in scenario.tool_names if active is None or n in active]
    rule = package.choices.get(kind)
    if kind == "allowed" and scenario.tool_choice is not None:
        rule = Rule({"type": "allowed_tools", "mode": chosen.given, "tools": [
            {"type": "function", "name": n} for n in scenario.tool_choice.allowed]}, RESPONSES_ALLOWED)
    forced_to_auto = False
    if rule is not None and package.provider == "anthropic" and kind in ("required", "tool"):
        budget = isinstance(thinking, dict) and thinking.get("type") == "enabled"
        if budget or ANTHROPIC_REJECTS_FORCED.search(model):
            forced_to_auto = True
            rule = Rule({"type": "auto"}, ANTHROPIC_FORCED_AUTO if budget else ANTHROPIC_REJECTS_SOURCE,
                        NAMED if kind == "tool" else rule.tools)
    if not given:  # ai's prepareToolsAndToolChoice: no tools, no toolChoice
        return _Sent(None, [], ABSENT, ABSENT, {}, False)
    tools = [n for n in given if n == name] if rule is not None and rule.tools == NAMED else (
        [] if rule is not None and rule.tools == NO_TOOLS else given)
    choice = filled(rule.sends, name) if rule is not None and rule.sends != DROPPED else ABSENT
    why: dict[str, Source | Rule] = {package.choice_path or "tool_choice": rule} if rule is not None else {}
    extra: Any = ABSENT
    parallel, wanted = package.parallel, scenario.parallel_tool_calls
    if parallel is not None and wanted is not None and tools:
        if parallel.kind == "anthropic" and isinstance(choice, dict) and choice.get("type") != "none":
            choice = {**choice, "disable_parallel_tool_use": not wanted}
        elif parallel.kind == "bedrock" and not wanted and "anthropic" in model and kind != "none":
            inner = {"required": {"type": "any"}, "tool": {"type": "tool", "name": name}}.get(kind, {"type": "auto"})
            extra = {"tool_choice": {**inner, "disable_parallel_tool_use": True}}
            choice = ABSENT  # bedrockToolChoice is left unset beside additionalTools.tool_choice
        why["parallel_tool_calls"] = why[_EXTRA] = parallel.source
    return _Sent(rule, tools, choice, extra, why, forced_to_auto)


def _write(package: Package, body: dict[str, Any], sent: _Sent, parallel: bool | None, declared: Any) -> None:
    """The package's tool fields written into the (copied) API body."""
    stream = body.get("stream") is True
    tools = _as_package_writes(package, _only(declared, sent.tools), stream) if sent.tools else ABSENT
    if stream and package.provider == "anthropic" and sent.tools:
        sent.why[package.tools_path] = ANTHROPIC_EAGER
    set_path(body, package.tools_path, tools)
    if package.choice_path is not None:
        set_path(body, package.choice_path, sent.choice)
    copied = package.parallel is not None and package.parallel.kind == "copied"
    set_path(body, "parallel_tool_calls", parallel if copied and parallel is not None and sent.tools else ABSENT)
    if package.provider == "bedrock":
        merged = body.get(_EXTRA) if isinstance(body.get(_EXTRA), dict) else {}
        merged = {k: v for k, v in merged.items() if k != "tool_choice"}
        if sent.extra is not ABSENT:
            merged.update(sent.extra)
        set_path(body, _EXTRA, merged if merged else ABSENT)
    if package.provider in ("bedrock", "gemini") and not get_path(body, "toolConfig"):
        body.pop("toolConfig", None)


def apply(api: Translation, scenario: Scenario, settings: Mapping[str, Any] | None = None,
          rebuild: Rebuild | None = None) -> VercelView:
    """The API translation for one provider, redone as the AI SDK's generateText would send it (``settings``:
    active_tools; ``rebuild``: how to translate a changed scenario with the command line's options)."""
    package = PACKAGES.get(api.provider)
    ledger = list(api.ledger)
    chosen = sdk_choice(scenario.tool_choice, api.provider)
    active = _active(settings or {}, scenario, chosen)

    def keep(code: str, message: str, severity: str = "info") -> VercelView:
        ledger.append(LedgerEntry(severity, code, message))  # type: ignore[arg-type]
        return VercelView(api._replace(ledger=ledger), api, None, None, active)

    if package is None:
        why = NO_PACKAGE.get(api.provider, f"no @ai-sdk provider package is described for {api.provider}")
        return keep("dialect.no_route", f"{why}; the API request is shown")
    if scenario.tool_choice is not None and scenario.tool_choice.native is not None:
        return keep("dialect.no_spelling", "a provider-native tool_choice has no toolChoice form: the AI SDK's "
                                           "request is not described; the API request is shown", "warning")
    base = rebuilt_base(api, scenario, rebuild)
    if base.request is None:
        return keep("dialect.api_refused", "toolchoice refuses the API request, so the AI SDK's is not described")
    model = model_of(base)
    body = json.loads(json.dumps(base.request.body))  # a deep copy; JSON data only
    thinking = body.get("thinking")
    user_thinking = scenario.settings_for(api.provider).thinking
    if package.provider == "bedrock":
        thinking = get_path(body, f"{_EXTRA}.thinking")
    options = _options(package, scenario.parallel_tool_calls,
                       thinking if package.provider in ("anthropic", "bedrock") or user_thinking is False else None)
    if chosen.kind == "allowed" and scenario.tool_choice is not None:
        options["openai"] = {**options.get("openai", {}), "allowedTools": {
            "toolNames": list(scenario.tool_choice.allowed), "mode": chosen.given}}
    label = f"{package.package} {package.model.replace('MODEL', repr(model))}"
    call = _call(package, model, scenario, chosen, active, options)
    tools_as = ", tools as jsonSchema(parameters)" if scenario.tools else ""
    ledger.append(LedgerEntry("info", "dialect.call", f"described: {call}{tools_as} (ai {VERSIONS['ai']}, "
                              f"{package.package} {VERSIONS[package.package]}; read {READ})"
                              + (f"; {chosen.note}" if chosen.note else "")))
    if package.route is not None:
        ledger.append(LedgerEntry("info", "dialect.route", package.route))
    if chosen.given is None and scenario.tools:
        ledger.append(LedgerEntry("info", "dialect.differs", f"toolChoice left out: ai hands the package "
                                                             f"{{type: 'auto'}} ({UNSET_AS_AUTO})"))
    if any(scenario.tool_is_strict(t) for t in scenario.tools):
        ledger.append(LedgerEntry("info", "dialect.unchecked", "strict tools: described as the API request declares "
                                  "them; what the package does with a strict tool is not described here"))
    if scenario.parallel_tool_calls is not None and package.parallel is None:
        ledger.append(LedgerEntry("info", "dialect.unchecked", f"parallel_tool_calls: {package.package} has no "
                                  "providerOptions for it: not sent"))
    sent = _sent(package, chosen, scenario, active, model, thinking)
    if sent.forced_to_auto:
        ledger.append(LedgerEntry("warning", "dialect.differs", f"tool_choice: the package sends auto for the "
                                  f"forcing choice, with a warning in result.warnings ({ANTHROPIC_FORCED_WARNING})"))
    _write(package, body, sent, scenario.parallel_tool_calls,
           _declared(package, base, scenario, rebuild) if sent.tools else ABSENT)
    disabled = any(e.code == "thinking.disabled_for_choice" for e in api.ledger)
    if disabled and package.provider == "deepseek" and user_thinking is not False \
            and isinstance(thinking, dict) and thinking.get("type") == "disabled":
        body.pop("thinking", None)
        ledger.append(LedgerEntry("warning", "dialect.differs", "thinking: the package keeps thinking on for the "
                                  f"forcing choice ({DEEPSEEK_THINKING}): "
                                  f"{API_ANSWERS['thinking.disabled_for_choice']}; set providerOptions.deepseek."
                                  "thinking: {type: 'disabled'} (thinking: false in the scenario)"))
    routing = body.get("provider") if package.provider == "openrouter" else None
    if isinstance(routing, dict) and "require_parameters" in routing:
        rest = {k: v for k, v in routing.items() if k != "require_parameters"}
        set_path(body, "provider", rest if rest else ABSENT)
        ledger.append(LedgerEntry("warning", "dialect.differs", "provider.require_parameters: the AI SDK sends none, "
                                  "so OpenRouter may route the forcing choice to an upstream that ignores tool_choice; "
                                  "to send it: providerOptions: {openrouter: {provider: {require_parameters: true}}} "
                                  f"({COMPATIBLE_PASSTHROUGH})"))
    for path in (package.tools_path, package.choice_path or "tool_choice", "parallel_tool_calls", _EXTRA):
        ours = get_path(api.request.body, path) if api.request is not None else ABSENT
        theirs = get_path(body, path)
        if ours != theirs and api.request is not None:  # a refused request: _sent_anyway says what is sent
            ledger.append(_difference(package, path, ours, theirs, sent.why))
    if base is not api:
        ledger.append(_sent_anyway(package, api, body, sent, chosen.kind))
    if active is not None:
        ledger.append(LedgerEntry("info", "dialect.active_tools", f"activeTools {list(active)}: only these tools are "
                                  f"sent ({ACTIVE_TOOLS})"))
    effective = get_path(body, package.choice_path) if package.choice_path else ABSENT
    translation = base._replace(requested_tool_choice=api.requested_tool_choice,
                                effective_tool_choice=None if effective is ABSENT else effective,
                                request=base.request._replace(body=body), ledger=ledger,
                                offered_tools=tuple(sent.tools))
    return VercelView(translation, api, label, call, active)


def _sent_anyway(package: Package, api: Translation, body: dict[str, Any], sent: _Sent, kind: str) -> LedgerEntry:
    """Where toolchoice refuses the API request and the AI SDK sends one: what it sends and, for a forcing choice,
    the API's answer."""
    faults = ", ".join(sorted({e.code for e in api.ledger if e.severity == "error"}))
    choice = get_path(body, package.choice_path or "tool_choice")
    forcing = kind in ("required", "tool") and not sent.forced_to_auto and bool(sent.tools)
    answers = "; ".join(API_ANSWERS.get(e.code, e.message) for e in api.ledger if e.severity == "error")
    sends = (f"with tool_choice {shown(choice)}" if choice is not ABSENT else "without tool_choice"
             + ("" if sent.tools else f" or tools ({NO_TOOLS_GIVEN})"))
    return LedgerEntry("warning" if forcing else "info", "dialect.differs",
                       f"toolchoice refuses the API request ({faults}); the AI SDK sends its request {sends}"
                       + (f": {answers}" if forcing else ""))


def _difference(package: Package, path: str, ours: Any, theirs: Any, why: Mapping[str, Source | Rule]) -> LedgerEntry:
    """One dialect.differs entry: where the AI SDK parts from the API request, the package's source and the API's
    answer."""
    if path == package.tools_path:
        def names(tools: Any) -> list[Any]:
            if not isinstance(tools, list):
                return []
            found: list[Any] = []
            for tool in tools:
                inner = tool.get("functionDeclarations") if isinstance(tool, dict) else None
                found += [_tool_name(d) for d in inner] if isinstance(inner, list) else [_tool_name(tool)]
            return found

        if names(ours) == names(theirs):
            eager = why.get(path)
            note = (f"declares each tool with eager_input_streaming: true on a stream ({eager})"
                    if isinstance(eager, Source) else package.tools_note or "writes the declarations otherwise")
            return LedgerEntry("info", "dialect.differs",
                               f"{path}: {package.package} {note}")
        rule = why.get(package.choice_path or "")
        said = f": {rule.api_says}" if isinstance(rule, Rule) and rule.api_says else ""
        source = f" ({rule.source})" if isinstance(rule, Rule) and rule.tools != "all" else ""
        return LedgerEntry("warning" if said else "info", "dialect.differs",
                           f"{path}: the AI SDK sends {names(theirs) or 'no tools'}; the API request sends "
                           f"{names(ours) or 'no tools'}{source}{said}")
    rule = why.get(path)
    source = rule.source if isinstance(rule, Rule) else rule
    said = rule.api_says if isinstance(rule, Rule) else None
    message = f"{path}: the AI SDK sends {shown(theirs)}; the API request sends {shown(ours)}"
    if source is not None:
        message += f" ({source})"
    if said:
        message += f": {said}"
    return LedgerEntry("warning" if said else "info", "dialect.differs", message)


# ---- providers.<id>.extra's tool choice (core/dialects.extra_choice) ------------------------------------------


def extra_route(view: VercelView) -> tuple[bool | None, str]:
    """(whether extra replaces the tool choice the AI SDK builds, how): the AI SDK has no setting that writes a body
    field as given, so extra reaches the wire only through a fetch of the user's that merges it into the body."""
    return None, ("the AI SDK has no setting that sends a body field as written (providerOptions take each package's "
                  "own keys): a fetch given to the provider (createOpenAI({fetch})) that merges extra into the body "
                  "sends it so")
