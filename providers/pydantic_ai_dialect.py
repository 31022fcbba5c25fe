"""`--dialect pydantic-ai`: what a pydantic-ai Agent (``pydantic-ai-slim`` ``pydantic_ai_rules.VERSION``) puts on each
provider's wire in its first request for the scenario's tools, tool_choice and parallel_tool_calls, next to the API
request toolchoice builds.

The user is assumed to run ``Agent(<ModelClass>(MODEL), tools=[Tool.from_schema(...) for every scenario tool])`` with
text output (``output_type=str``, the default) and ``ModelSettings(tool_choice=X, parallel_tool_calls=P)``, X being
the scenario's tool_choice in pydantic-ai's spelling (``setting``): unset -> no setting, ``auto`` -> ``'auto'``,
``none`` -> ``'none'``, ``required`` -> ``'required'``, a named tool -> ``['NAME']``, an allowed subset -> the list
(mode required) or ``ToolOrOutput(function_tools=[...])`` (mode auto). A forcing X is given per step (a callable),
as a static one raises before any request. Only the tool fields of the API request change (the tools, the choice's
field, ``parallel_tool_calls``); each field that differs is a ``dialect.differs`` entry with pydantic-ai's source;
what it raises instead of sending is a ``dialect.refused`` error with its words. The rules are data
(``pydantic_ai_rules``); pydantic-ai is never imported. Imported only with ``--dialect pydantic-ai``.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping, NamedTuple

from .core.model import LedgerEntry, Scenario, ToolChoice, Translation
from .dialect_fields import ABSENT, Rebuild, api_json, get_path, model_of, rebuilt_base, set_path, shown, translated
from .pydantic_ai_rules import (OPENROUTER_FORCING, OPENROUTER_REASONING_SENT, OPENROUTER_THINKING_ERROR,
                                OPENROUTER_THINKS, RESOLVE_AUTO, ADAPTIVE_MODELS, ADAPTIVE_SETTING, ANTHROPIC, ANTHROPIC_NO_FORCING, BEDROCK_CHOICE_GATE,
                                BEDROCK_FORCING_GATE, COPIED, FORCING_SOURCE, GEMINI_VALIDATED, MODELS,
                                NO_FORCING_ERROR, NO_FORCING_SOURCE, OTHER_WIRE, OUTPUT_TOOL_NOTE, READ, REQUIRED_WITHOUT_TOOLS,
                                REQUIRED_WITHOUT_TOOLS_SOURCE, RESOLVE_LIST, RESOLVE_TOOL_OR_OUTPUT, ROUTES, SETTING,
                                THINKING_FALSE_SOURCE,
                                STATIC_FORCING, STATIC_LIST, THINKING_ERROR, THINKING_SOURCE, VERSION, Model, Sent,
                                bedrock_sends_choice, gemini_validated, openai_compatible_sends, refuses_forcing,
                                route_note, xai_sends)


class PydanticAIView(NamedTuple):
    """One provider under --dialect pydantic-ai: the Agent's first request (``translation``) and the API one."""

    translation: Translation  # request: what pydantic-ai sends (None where it raises); ledger: API + dialect
    api: Translation
    model: str | None  # the model class ("OpenAIChatModel('gpt-4o-mini')")
    call: str | None  # the Agent run described
    setting: str | None  # ModelSettings.tool_choice as written (None: not set)

    @property
    def label(self) -> str | None:
        return self.model

    def to_json(self) -> dict[str, Any]:
        data = self.translation.to_json()
        data["dialect"] = "pydantic-ai"
        data["model_class"] = self.model
        data["agent_run"] = self.call
        data["tool_choice_setting"] = self.setting
        data["api"] = api_json(self.api)
        return data


class Setting(NamedTuple):
    """The scenario's tool_choice as ModelSettings.tool_choice: as written (None: not set) and as pydantic-ai quotes
    it in its errors (``tool_choice={value!r}``), whether it forces (given per step: a static one raises), and what
    resolve_tool_choice makes of it over the scenario's tools, with the source where that is not the value itself."""

    written: str | None
    value: Any  # 'auto' | 'none' | 'required' | [names] (a ToolOrOutput: its written form)
    forcing: bool
    resolved: Any  # 'auto' | 'none' | 'required' | (mode, frozenset)
    why: Any = None


def setting(choice: ToolChoice | None, names: tuple[str, ...]) -> Setting | None:
    """ModelSettings.tool_choice for the scenario's choice, resolved as ``resolve_tool_choice`` does for text output
    (models/_tool_choice.py); None where pydantic-ai has no spelling (a provider-native choice)."""
    if choice is None:
        return Setting(None, None, False, "auto")
    if choice.native is not None:
        return None
    if choice.mode in ("auto", "none", "required"):
        return Setting(repr(choice.mode), choice.mode, choice.mode == "required", choice.mode)
    chosen = frozenset([choice.name] if choice.mode == "named" else choice.allowed)
    if choice.mode == "named" or choice.allowed_mode == "required":
        listed = [n for n in (names if choice.mode == "allowed" else ()) if n in chosen] or [choice.name]
        resolved = "required" if chosen == set(names) else ("required", chosen)
        return Setting(repr(listed), listed, True, resolved, RESOLVE_LIST)
    resolved = "auto" if chosen == set(names) else ("auto", chosen)
    written = f"ToolOrOutput(function_tools={[n for n in names if n in chosen]!r})"
    return Setting(written, written, False, resolved, RESOLVE_TOOL_OR_OUTPUT)


def _tool_name(tool: Any) -> Any:
    if not isinstance(tool, dict):
        return None
    return tool.get("name") or (tool.get("function") or tool.get("toolSpec") or {}).get("name")


def _names(tools: Any) -> list[Any]:
    found: list[Any] = []
    for tool in tools if isinstance(tools, list) else []:
        inner = tool.get("functionDeclarations") if isinstance(tool, dict) else None
        found += [_tool_name(d) for d in inner] if isinstance(inner, list) else [_tool_name(tool)]
    return found


def _declared(model: Model, api: Translation, scenario: Scenario, rebuild: Rebuild | None) -> Any:
    """Every scenario tool in the API's wire form (the API request's, or the same scenario's with choice auto where
    the API request sends fewer)."""
    assert api.request is not None
    tools = get_path(api.request.body, model.tools_path)
    if set(api.offered_tools) != set(scenario.tool_names) or tools is ABSENT:
        auto = scenario._replace(tool_choice=ToolChoice("auto", spelling="auto"), parallel_tool_calls=None)
        full = translated(rebuild, auto, api.provider)
        tools = get_path(full.request.body, model.tools_path) if full.request else ABSENT
    return [] if tools is ABSENT else json.loads(json.dumps(tools))


def _only(model: Model, tools: list[Any], names: tuple[str, ...]) -> list[Any]:
    """The declarations of ``names`` in the scenario's order (Gemini's in one functionDeclarations entry, as the
    request pydantic-ai's GoogleModel makes through google-genai 3.6.1 has them)."""
    if model.provider == "gemini":
        declared = {_tool_name(d): d for t in tools if isinstance(t, dict)
                    for d in t.get("functionDeclarations") or []}
        return [{"functionDeclarations": [declared[n] for n in names if n in declared]}]
    by_name = {_tool_name(t): t for t in tools}
    return [by_name[n] for n in names if n in by_name]


def openrouter_thinks(reasoning: Any) -> bool:
    """Whether OpenRouterModel reads ``openrouter_reasoning`` (the body's ``reasoning``) as thinking (OPENROUTER_THINKS)."""
    return (isinstance(reasoning, dict) and bool(reasoning) and reasoning.get("enabled", True) is not False
            and reasoning.get("effort") != "none")


def _refusal(model: Model, chosen: Setting, model_id: str, thinking: Any, thinking_off: bool = False,
             reasoning: Any = None) -> tuple[str, Any] | None:
    """What pydantic-ai raises instead of sending a forcing choice: on Bedrock, a model whose profile gives it no
    toolChoice; on Claude (Anthropic's API or Bedrock), a model that refuses forcing outright, or extended (budget)
    thinking (adaptive thinking takes a forcing choice the user gave); on an OpenAI-compatible host, a model its
    provider's profile refuses forcing for (outright, or while it thinks); on OpenRouter, an Anthropic upstream with
    thinking asked for by ``openrouter_reasoning`` (``reasoning``: the body's field, which it sends)."""
    if not chosen.forcing:
        return None
    choice = chosen.value
    if model.provider in ROUTES:
        found = refuses_forcing(model.provider, model_id, thinking_off)
        if found is None and model.provider == "openrouter" and openrouter_thinks(reasoning) \
                and re.match(r"~?anthropic/", model_id):
            return (OPENROUTER_THINKING_ERROR.format(choice=choice, model=model_id),
                    f"{OPENROUTER_THINKS}; {OPENROUTER_FORCING}")
        if found is None:
            return None
        error, source = found
        return error.format(choice=choice, model=model_id), f"{source}; then {FORCING_SOURCE}"
    if model.provider not in ("anthropic", "bedrock"):
        return None
    if model.provider == "bedrock" and not bedrock_sends_choice(model_id):
        return NO_FORCING_ERROR.format(choice=choice, model=model_id), BEDROCK_FORCING_GATE
    if ANTHROPIC_NO_FORCING.search(model_id):
        return NO_FORCING_ERROR.format(choice=choice, model=model_id), NO_FORCING_SOURCE
    if isinstance(thinking, dict) and thinking.get("type") == "enabled":
        error = THINKING_ERROR.format(choice=choice, model=model_id)
        if ADAPTIVE_MODELS.search(model_id):
            error += f" Alternatively, `{ADAPTIVE_SETTING[model.provider]}` supports forcing."
        return error, THINKING_SOURCE
    return None


def _resolved(resolved: Any) -> str:
    """resolve_tool_choice's result as pydantic-ai writes it: 'auto', or ('required', {'get_time'})."""
    if isinstance(resolved, tuple):
        return f"({resolved[0]!r}, {{{', '.join(repr(n) for n in sorted(resolved[1]))}}})"
    return repr(resolved)


def _call(model: Model, model_id: str, scenario: Scenario, chosen: Setting, thinking: Any,
          thinking_off: bool = False) -> str:
    """The Agent run described; Claude's thinking as the request has it (anthropic_thinking, or Bedrock's
    bedrock_additional_model_requests_fields); thinking off where the scenario says so on a host whose profile
    weighs it (``'thinking': False``)."""
    rest = ([f"'parallel_tool_calls': {scenario.parallel_tool_calls}"] if scenario.parallel_tool_calls is not None
            else []) + (["'thinking': False"] if thinking_off else [])
    if isinstance(thinking, dict) and model.claude:
        rest.append(f"'anthropic_thinking': {json.dumps(thinking)}")
    elif isinstance(thinking, dict) and model.provider == "bedrock":
        rest.append(f"'bedrock_additional_model_requests_fields': {{'thinking': {json.dumps(thinking)}}}")
    settings = ([f"'tool_choice': {chosen.written}"] if chosen.written is not None else []) + rest
    given = "{" + ", ".join(settings) + "}"
    if chosen.forcing:
        given = f"lambda ctx: {given} if ctx.run_step == 1 else {{{', '.join(rest)}}}"
    tools = f"tools=[Tool.from_schema(...) x{len(scenario.tools)}]" if scenario.tools else "no tools"
    return (f"Agent({model.made.replace('MODEL', repr(model_id))}, {tools}).run(prompt"
            + (f", model_settings={given}" if settings else "") + ")")


def apply(api: Translation, scenario: Scenario, settings: Mapping[str, Any] | None = None,
          rebuild: Rebuild | None = None) -> PydanticAIView:
    """The API translation for one provider, redone as a pydantic-ai Agent's first request would send it
    (``rebuild``: how to translate a changed scenario with the command line's options)."""
    model = MODELS.get(api.provider)
    ledger = list(api.ledger)

    def keep(code: str, message: str, severity: str = "info") -> PydanticAIView:
        ledger.append(LedgerEntry(severity, code, message))  # type: ignore[arg-type]
        return PydanticAIView(api._replace(ledger=ledger), api, None, None, None)

    if model is None and api.provider in OTHER_WIRE:
        return _elsewhere(api, scenario, rebuild)
    if model is None:
        return keep("dialect.no_route", f"no pydantic-ai model class is described for {api.provider}; the API "
                                        "request is shown")
    chosen = setting(scenario.tool_choice, scenario.tool_names)
    if chosen is None:
        return keep("dialect.no_spelling", "a provider-native tool_choice has no ModelSettings.tool_choice form "
                                           f"({SETTING}): pydantic-ai's request is not described; the API request is "
                                           "shown", "warning")
    base = rebuilt_base(api, scenario, rebuild)
    if base.request is None:
        return keep("dialect.api_refused", "toolchoice refuses the API request, so pydantic-ai's is not described")
    model_id = model_of(base)
    body = json.loads(json.dumps(base.request.body))  # a deep copy; JSON data only
    thinking = get_path(body, "additionalModelRequestFields.thinking" if model.provider == "bedrock" else "thinking")
    label = model.made.replace("MODEL", repr(model_id))
    thinking_off = _thinking_off(api.provider, model_id, scenario)
    call = _call(model, model_id, scenario, chosen, thinking, thinking_off)
    ledger.append(LedgerEntry("info", "dialect.call", f"described: {call} ({model.cls} from {model.module}; "
                              f"pydantic-ai-slim {VERSION}, read {READ}); ModelSettings.tool_choice "
                              f"{chosen.written or 'not set'}, resolved to {_resolved(chosen.resolved)}"
                              + (f" ({chosen.why})" if chosen.why is not None else "") + (
                                  f", given per step: a static forcing choice raises "
                                  f"({STATIC_FORCING if chosen.value == 'required' else STATIC_LIST})"
                                  if chosen.forcing else "")))
    if api.provider in ROUTES:
        ledger.append(LedgerEntry("info", "dialect.route", route_note(api.provider, model.cls)))
    ledger.append(LedgerEntry("info", "dialect.output", OUTPUT_TOOL_NOTE))
    if any(t.kind != "function" for t in scenario.tools):
        ledger.append(LedgerEntry("info", "dialect.unchecked", "free-text (custom) tools: described as the API request "
                                  "declares them; Tool.from_schema makes function tools, and how pydantic-ai would "
                                  "declare these is not described here"))
    if any(scenario.tool_is_strict(t) for t in scenario.tools):
        ledger.append(LedgerEntry("info", "dialect.unchecked", "strict tools: described as the API request declares "
                                  "them; Tool.from_schema takes no strict, and what pydantic-ai's schema transformer "
                                  "writes for a strict tool is not described here"))

    def refused(error: str, source: Any) -> PydanticAIView:
        ledger.append(LedgerEntry("error", "dialect.refused", f"pydantic-ai raises before sending, nothing is sent: "
                                                              f"{error} ({source})"))
        return PydanticAIView(Translation(api.provider, api.requested_tool_choice, None, None, ledger, ()), api,
                              label, call, chosen.written)

    if not scenario.tools and chosen.resolved == "required":
        return refused(REQUIRED_WITHOUT_TOOLS, REQUIRED_WITHOUT_TOOLS_SOURCE)
    reasoning = get_path(body, "reasoning") if api.provider == "openrouter" else ABSENT
    if reasoning is not ABSENT:
        ledger.append(LedgerEntry("info", "dialect.reasoning", f"the body's reasoning {shown(reasoning)} is "
                                  f"ModelSettings(openrouter_reasoning={shown(reasoning)}), which OpenRouterModel sends "
                                  f"as is ({OPENROUTER_REASONING_SENT}) and reads as thinking "
                                  f"{'on' if openrouter_thinks(reasoning) else 'off'} ({OPENROUTER_THINKS})"))
    refusal = _refusal(model, chosen, model_id, thinking, thinking_off, reasoning)
    if refusal is not None:
        return refused(*refusal)
    if thinking_off and chosen.forcing and scenario.tools:
        ledger.append(LedgerEntry("warning", "dialect.differs", "reasoning_effort: pydantic-ai sends thinking=False as "
                                  f"reasoning_effort 'none' ({THINKING_FALSE_SOURCE}), not {api.provider}'s thinking "
                                  "{type: disabled}: the model keeps thinking and answers the forced tool_choice 400 "
                                  "'Thinking mode does not support this tool_choice' (model rule "
                                  "deepseek-v4-thinking)"))
    sent: Sent = model.wire(chosen.resolved, scenario.tool_names)
    names = scenario.tool_names if sent.tools is None else sent.tools
    choice = ABSENT if sent.choice is None else sent.choice
    why: dict[str, Any] = {}
    if model.provider == "gemini" and choice == {"mode": "AUTO"} and gemini_validated(model_id):
        choice, why["validated"] = {"mode": "VALIDATED"}, GEMINI_VALIDATED
    if model.provider == "bedrock" and choice is not ABSENT and not bedrock_sends_choice(model_id):
        choice, why["gate"] = ABSENT, BEDROCK_CHOICE_GATE
    parallel = scenario.parallel_tool_calls
    if parallel is not None and model.parallel.kind == ANTHROPIC and isinstance(choice, dict) \
            and choice.get("type") != "none" and names:
        choice = {**choice, "disable_parallel_tool_use": not parallel}
    if not names and not model.choice_without_tools:  # no tools: no choice (`if not tools: return tools, None`)
        choice = ABSENT
    tools = _only(model, _declared(model, base, scenario, rebuild), names) if names else ABSENT
    set_path(body, model.tools_path, tools)
    if model.choice_path is not None:
        set_path(body, model.choice_path, choice)
    sent_with = names or model.parallel_without_tools
    copied = parallel if model.parallel.kind == COPIED and parallel is not None and sent_with else ABSENT
    set_path(body, "parallel_tool_calls", copied)
    for path in ("toolConfig",):
        if get_path(body, path) in ({}, ABSENT):
            body.pop(path, None)
    if parallel is not None and model.parallel.kind not in (COPIED, ANTHROPIC):
        ledger.append(LedgerEntry("warning", "dialect.differs", f"parallel_tool_calls: {model.cls} does not send it "
                                  f"({model.parallel.source})"))
    if why and choice_unchanged(api, model, body):  # the API request has the same choice: say it here, once
        source = why.get("validated") or why.get("gate")
        ledger.append(LedgerEntry("info", "dialect.differs", f"{model.choice_path}: {_reason(model, model_id, why)} "
                                  f"({source})"))
    api_body = api.request.body if api.request is not None else None
    for path in (model.tools_path, model.choice_path or "tool_choice", "parallel_tool_calls"):
        ours = get_path(api_body, path) if api_body is not None else ABSENT
        theirs = get_path(body, path)
        if ours != theirs and api_body is not None:
            ledger.append(_difference(model, path, ours, theirs, sent, why))
    if base is not api:
        faults = ", ".join(sorted({e.code for e in api.ledger if e.severity == "error"}))
        ledger.append(LedgerEntry("warning", "dialect.differs", f"toolchoice refuses the API request ({faults}); "
                                  f"pydantic-ai sends its request anyway, with tool_choice "
                                  f"{shown(get_path(body, model.choice_path or 'tool_choice'))}"))
    effective = get_path(body, model.choice_path) if model.choice_path else ABSENT
    if names:
        ledger.append(_later_steps(api, scenario, settings, rebuild, model, chosen, effective))
    translation = base._replace(requested_tool_choice=api.requested_tool_choice,
                                effective_tool_choice=None if effective is ABSENT else effective,
                                request=base.request._replace(body=body), ledger=ledger, offered_tools=tuple(names))
    return PydanticAIView(translation, api, label, call, chosen.written)


def _later_steps(api: Translation, scenario: Scenario, settings: Mapping[str, Any] | None, rebuild: Rebuild | None,
                 model: Model, chosen: Setting, first: Any) -> LedgerEntry:
    """What the requests after a tool call send (dialect.later_steps): the setting described holds on every step of
    the run, except a forcing one, given for run_step 1 only; its later steps send the unset setting's choice, as this
    dialect describes it for the scenario without a tool_choice (held to the real Agent's second request,
    tests/test_pydantic_ai_wire.py)."""
    where = model.choice_path or "tool_choice"
    if not chosen.forcing:
        return LedgerEntry("info", "dialect.later_steps", f"after a tool call the run's later requests send the same "
                           f"tools and {where} {shown(first)}: ModelSettings.tool_choice "
                           f"{chosen.written or 'not set'} holds on every step; with a structured output_type "
                           "final_result is added and 'required' sent on every step (dialect.output)")
    unset = scenario._replace(tool_choice=None)
    later = apply(translated(rebuild, unset, api.provider), unset, settings, rebuild).translation
    value = ABSENT if later.request is None else get_path(later.request.body, where)
    return LedgerEntry("info", "dialect.later_steps", f"after the tool call the run's later requests send the same "
                       f"tools and {where} {shown(value)}: the setting gives tool_choice for run_step 1 only, so "
                       f"later steps take pydantic-ai's default ({RESOLVE_AUTO}), as this view without a tool_choice "
                       "shows; with a structured output_type 'required' and final_result on every step "
                       "(dialect.output)")


def _difference(model: Model, path: str, ours: Any, theirs: Any, sent: Sent, why: Mapping[str, Any]) -> LedgerEntry:
    """One dialect.differs entry: where pydantic-ai parts from the API request, with its source."""
    if path == model.tools_path:
        if _names(ours) == _names(theirs):
            return LedgerEntry("info", "dialect.differs", f"{path}: {model.cls} writes the declarations otherwise; "
                                                          "their schemas go through pydantic-ai's own transformer, "
                                                          "not described")
        return LedgerEntry("warning", "dialect.differs", f"{path}: {model.cls} sends {_names(theirs) or 'no tools'}; "
                                                         f"the API request sends {_names(ours) or 'no tools'} "
                                                         f"({sent.source})")
    if path == "parallel_tool_calls":
        source = model.parallel.source
    else:
        source = why.get("validated") or why.get("gate") or sent.source
    message = f"{path}: {model.cls} sends {shown(theirs)}; the API request sends {shown(ours)}"
    if why and path == model.choice_path:  # VALIDATED for AUTO, or Bedrock's toolChoice left out for auto
        return LedgerEntry("info", "dialect.differs", f"{message}: {_reason(model, '', why)} ({source})")
    return LedgerEntry("warning", "dialect.differs", f"{message} ({source})")


def _reason(model: Model, model_id: str, why: Mapping[str, Any]) -> str:
    on = f" on {model_id}" if model_id else ""
    if "validated" in why:
        return f"{model.cls} upgrades AUTO to VALIDATED{on} (AUTO, with the API holding each call to its schema)"
    return f"{model.cls} sends no toolChoice{on}; Converse's default is auto"


def choice_unchanged(api: Translation, model: Model, body: dict[str, Any]) -> bool:
    """Whether the API request's choice is the one pydantic-ai sends (a refused API request: compared with none)."""
    if api.request is None or model.choice_path is None:
        return True
    return get_path(api.request.body, model.choice_path) == get_path(body, model.choice_path)


def _thinking_off(provider: str, model_id: str, scenario: Scenario) -> bool:
    """Whether the described Agent turns thinking off (``'thinking': False``): the scenario says thinking false for a
    host whose profile refuses forcing only while the model thinks."""
    route = ROUTES.get(provider)
    return (route is not None and route.forcing.thinking is not None
            and bool(route.forcing.thinking.search(model_id.lower()))
            and scenario.settings_for(provider).thinking is False)


def _elsewhere(api: Translation, scenario: Scenario, rebuild: Rebuild | None) -> PydanticAIView:
    """A host pydantic-ai reaches on another wire than the one toolchoice builds for it (xAI's gRPC, Ollama's
    OpenAI-compatible endpoint): what its model class would send, in the ledger; the API request shown. What it
    raises instead of sending is a ``dialect.refused`` error, as for the other model classes."""
    cls, module, wire, source = OTHER_WIRE[api.provider]
    route = ROUTES[api.provider]
    ledger = list(api.ledger)
    chosen = setting(scenario.tool_choice, scenario.tool_names)
    base = rebuilt_base(api, scenario, rebuild) if chosen is not None else api
    if chosen is None or base.request is None:
        code, why = (("dialect.no_spelling", "a provider-native tool_choice has no ModelSettings.tool_choice form")
                     if chosen is None else ("dialect.api_refused", "toolchoice refuses the API request"))
        ledger.append(LedgerEntry("warning" if chosen is None else "info", code, f"{why}: pydantic-ai's request is not "
                                  "described; the API request is shown"))
        return PydanticAIView(api._replace(ledger=ledger), api, None, None, None)
    model_id = model_of(base)
    made = f"{cls}(MODEL, provider={route.provider_class}(...))"
    label = made.replace("MODEL", repr(model_id))
    model = Model(api.provider, cls, module, made, None, "tools", lambda *_: Sent(None, None, source),
                  MODELS["openai"].parallel)
    call = _call(model, model_id, scenario, chosen, None)
    ledger.append(LedgerEntry("info", "dialect.call", f"described: {call} ({cls} from {module}; pydantic-ai-slim "
                              f"{VERSION}, read {READ}); ModelSettings.tool_choice {chosen.written or 'not set'}, "
                              f"resolved to {_resolved(chosen.resolved)}"))
    ledger.append(LedgerEntry("info", "dialect.route", route_note(api.provider, cls)))
    refusal = None
    if not scenario.tools and chosen.resolved == "required":
        refusal = REQUIRED_WITHOUT_TOOLS, REQUIRED_WITHOUT_TOOLS_SOURCE
    elif chosen.forcing:
        refusal = _refusal(model, chosen, model_id, None)
    if refusal is not None:
        ledger.append(LedgerEntry("error", "dialect.refused", f"pydantic-ai raises before sending, nothing is sent: "
                                                              f"{refusal[0]} ({refusal[1]})"))
        return PydanticAIView(Translation(api.provider, api.requested_tool_choice, None, None, ledger, ()), api,
                              label, call, chosen.written)
    names = scenario.tool_names
    if api.provider == "xai":
        choice, names, why = xai_sends(chosen.resolved, names)
        parallel = "parallel_tool_calls" if scenario.parallel_tool_calls is not None else ""
    else:
        choice, names, why = openai_compatible_sends(chosen.resolved, names)
        parallel = "parallel_tool_calls" if scenario.parallel_tool_calls is not None and names else ""
    sends = (f"tools {list(names)}, tool_choice {choice}" if names else "no tools and no tool_choice") + (
        f", {parallel}={scenario.parallel_tool_calls}" if parallel else "")
    ledger.append(LedgerEntry("warning", "dialect.other_wire", f"{cls} speaks {wire}: it sends {sends} ({why}); not "
                                                               "shown as a body: the API request is shown"))
    return PydanticAIView(api._replace(ledger=ledger), api, label, call, chosen.written)


# ---- providers.<id>.extra's tool choice (core/dialects.extra_choice) ------------------------------------------

_IGNORED = ("its unsupported_settings holds 'extra_body': pydantic-ai ignores ModelSettings(extra_body=extra) with an "
            "UnsupportedSettingWarning")
# the model class -> (whether ModelSettings(extra_body=extra) replaces the choice it builds, how): each run through
# the mock with pydantic-ai-slim VERSION (tests/test_dialect_extra_choice.py)
EXTRA_BODY: dict[str, tuple[bool, str]] = {
    **{made: (True, f"ModelSettings(extra_body=extra): {made} hands it to the {client} client, which merges it over "
                    "the body pydantic-ai builds")
       for made, client in (("OpenAIChatModel", "openai"), ("OpenAIResponsesModel", "openai"),
                            ("AnthropicModel", "anthropic"), ("GroqModel", "groq"))},
    "GoogleModel": (False, f"GoogleModel: {_IGNORED} (pydantic_ai/models/google.py:673)"),
    "BedrockConverseModel": (False, f"BedrockConverseModel: {_IGNORED} (pydantic_ai/models/bedrock.py:869)"),
    "CohereModel": (False, f"CohereModel: {_IGNORED} (pydantic_ai/models/cohere.py:198)"),
    "MistralModel": (False, f"MistralModel: {_IGNORED} (pydantic_ai/models/mistral.py:243)"),
}


def extra_route(view: PydanticAIView) -> tuple[bool | None, str]:
    """(whether ModelSettings(extra_body=extra) replaces the tool choice the model class builds, how)."""
    made = (view.model or "").split("(")[0]
    return EXTRA_BODY.get(made, (None, f"ModelSettings(extra_body=extra) through {made or 'this model class'}"))
