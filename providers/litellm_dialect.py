"""`--dialect litellm`: what ``litellm.completion`` (LiteLLM ``litellm_rules.VERSION``) puts on each provider's
wire for the scenario's tools, tool_choice and parallel_tool_calls, with ``drop_params`` as the command line gives it
(``--drop-params``), next to the API-correct request toolchoice builds.

The user is assumed to call ``litellm.completion(model="<route>/<model>", messages=..., tools=[every scenario tool
as an OpenAI chat tool], tool_choice=X, parallel_tool_calls=P[, drop_params=True])``, X being the scenario's
tool_choice in OpenAI's spelling (``completion_value``). Only the tool fields of the API request change (the tools,
the choice's field, ``parallel_tool_calls``, Bedrock's ``additionalModelRequestFields.tool_choice``), and what
toolchoice itself adds for a choice LiteLLM does not (DeepSeek's ``thinking`` disabled); each field that differs is
a ``dialect.differs`` warning with LiteLLM's source and, where known, the API's answer; what LiteLLM raises instead
of sending is a ``dialect.refused`` error with its words. The rules are data (``litellm_rules``); litellm is never
imported. Imported only with ``--dialect litellm``.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping, NamedTuple
from urllib.parse import unquote

from .core.model import LedgerEntry, Scenario, ToolChoice, Translation, compact
from .dialect_fields import (ABSENT, Rebuild, api_json, filled, get_path, model_of, rebuilt_base,
                             set_path, shown, translated)
from .litellm_rules import (ANTHROPIC_FORCED, ANTHROPIC_FORCED_ERROR, ANTHROPIC_NO_FORCED_TOOL_USE, API_ANSWERS,
                            AZURE_OLD_CHOICE, AZURE_OLD_CHOICE_ERROR, AZURE_OLD_REQUIRED, AZURE_OLD_REQUIRED_ERROR,
                            BEDROCK_NO_STRICT, BEDROCK_PARALLEL_CONFIG, BEDROCK_STRICT, BEDROCK_STRICT_FLAGGED_OFF,
                            COPIED, DROPPED, FLATTENED, PARAMS_ERROR, READ, ROUTES, VERSION, ChoiceRule, Raise,
                            Route, Source, StrictRule)

_ANY_SPELLINGS = {"any", "ANY"}
_EXTRA = "additionalModelRequestFields"


class LiteLLMView(NamedTuple):
    """One provider under --dialect litellm: LiteLLM's request (``translation``) and the API one."""

    translation: Translation  # request: what LiteLLM sends (None where it raises); ledger: API + dialect
    api: Translation
    route: str | None  # the model string LiteLLM is given ("anthropic/claude-sonnet-5")
    call: str | None  # the litellm.completion call described
    drop_params: bool

    @property
    def label(self) -> str | None:
        return self.route

    def to_json(self) -> dict[str, Any]:
        data = self.translation.to_json()
        data["dialect"] = "litellm"
        data["route"] = self.route
        data["completion"] = self.call
        data["drop_params"] = self.drop_params
        data["api"] = api_json(self.api)
        return data


def completion_value(choice: ToolChoice | None) -> tuple[str | None, Any, str | None]:
    """(the rule's key: auto, none, required, any, named or allowed; the tool_choice argument in OpenAI's spelling; a
    note when the scenario's spelling has no OpenAI form and a neighbour was assumed). An allowed subset is OpenAI
    chat's ``{"type": "allowed_tools", "allowed_tools": {"mode": ..., "tools": [...]}}``."""
    if choice is None:
        return None, None, None
    spelled = choice.spelling
    if choice.mode == "allowed":
        tools = [{"type": "function", "function": {"name": n}} for n in choice.allowed]
        inner = {"mode": choice.allowed_mode, "tools": tools}
        return "allowed", {"type": "allowed_tools", "allowed_tools": inner}, None
    if choice.mode == "named":
        return "named", {"type": "function", "function": {"name": choice.name}}, None
    if choice.mode == "required" and spelled in _ANY_SPELLINGS:
        return "any", "any", None if spelled == "any" else f"{spelled} written as 'any'"
    return choice.mode, choice.mode, None if spelled == choice.mode else f"{spelled} written as {choice.mode!r}"


def _azure_version_refusal(api: Translation, word: str | None, drop: bool) -> tuple[str | None, Source | None]:
    """AzureOpenAIConfig.map_openai_params by the URL's api-version: (LiteLLM's error, or None where drop_params
    drops the choice; the source), or (None, None) where the version takes the choice."""
    assert api.request is not None
    found = re.search(r"[?&]api-version=(\d{4})-(\d{2})-(\d{2})", api.request.url)
    if word is None or found is None:
        return None, None
    year, month, day = found.groups()
    version = unquote(api.request.url.split("api-version=", 1)[1].split("&", 1)[0])
    if year < "2023" or (year == "2023" and (month < "12" or (month == "12" and day < "01"))):
        refused = not drop or word == "allowed"  # drop_params never drops an allowed_tools choice there
        return (AZURE_OLD_CHOICE_ERROR.format(api_version=version) if refused else None), AZURE_OLD_CHOICE
    if word == "required" and year == "2024" and month <= "05":
        return (None if drop else AZURE_OLD_REQUIRED_ERROR.format(api_version=version)), AZURE_OLD_REQUIRED
    return None, None


def _strict_rule(route: Route, model: str) -> StrictRule | None:
    """What the route does with a strict tool for this model (Bedrock: by LiteLLM's model map)."""
    if route.provider == "bedrock" and (not BEDROCK_STRICT.search(model) or BEDROCK_STRICT_FLAGGED_OFF.search(model)):
        return BEDROCK_NO_STRICT
    return route.strict


def _tools(route: Route, api: Translation, scenario: Scenario, rebuild: Rebuild | None,
           rule: StrictRule | None) -> list[dict[str, Any]]:
    """Every scenario tool in the route's wire form: LiteLLM sends all it is given, whatever the choice."""
    assert api.request is not None
    tools = get_path(api.request.body, route.tools_path)
    if set(api.offered_tools) != set(scenario.tool_names) or tools is ABSENT:
        auto = scenario._replace(tool_choice=ToolChoice("auto", spelling="auto"), parallel_tool_calls=None)
        full = translated(rebuild, auto, api.provider)
        tools = get_path(full.request.body, route.tools_path) if full.request else ABSENT
    tools = [] if tools is ABSENT else json.loads(json.dumps(tools))
    strict = {t.name for t in scenario.tools if scenario.tool_is_strict(t)}
    does = rule.does if rule is not None else None
    if route.provider == "anthropic":
        tools = [{**t, "type": "custom"} if "input_schema" in t else t for t in tools]
    if route.provider == "openai-responses":
        tools = [{**t, "strict": True if t.get("name") in strict else None} if t.get("type") == "function" else t
                 for t in tools]
    elif does == "kept":  # an OpenAI chat tool as the user gives it: "strict": true where the scenario says strict
        tools = [{**t, "function": {**t["function"], "strict": True}}
                 if t.get("type") == "function" and t.get("function", {}).get("name") in strict else t for t in tools]
    elif does == "dropped":
        tools = [{k: v for k, v in t.items() if k != "strict"} if "input_schema" in t else
                 {**t, "function": {k: v for k, v in t["function"].items() if k != "strict"}} if "function" in t else
                 {**t, "toolSpec": _spec_without_strict(t["toolSpec"], rule)} if "toolSpec" in t else t
                 for t in tools]
    if route.provider == "gemini":
        tools = [{("function_declarations" if k == "functionDeclarations" else k): v for k, v in t.items()}
                 for t in tools]
        if does == "stripped":  # the schema as parameters, additionalProperties: false removed
            tools = [{**t, "function_declarations": [
                {("parameters" if k == "parametersJsonSchema" else k): v for k, v in d.items()}
                for d in t["function_declarations"]]} if "function_declarations" in t else t for t in tools]
    if does == "stripped":
        tools = _without_strict(tools)
    return tools


def _spec_without_strict(spec: dict[str, Any], rule: StrictRule | None) -> dict[str, Any]:
    """A Bedrock toolSpec without strict (and, where the rule says, its schema's top-level additionalProperties)."""
    spec = {k: v for k, v in spec.items() if k != "strict"}
    schema = spec.get("inputSchema", {}).get("json")
    if rule is not None and not rule.top_level_closed and isinstance(schema, dict):
        spec["inputSchema"] = {**spec["inputSchema"],
                               "json": {k: v for k, v in schema.items() if k != "additionalProperties"}}
    return spec


def _without_strict(node: Any) -> Any:
    """A ``stripped`` route's tools (HostedVLLMChatConfig.map_openai_params, litellm_rules.VLLM_TOOLS; Gemini's
    remove_additional_properties and remove_strict_from_schema): every "strict" key and every
    "additionalProperties": false removed, at any depth."""
    if isinstance(node, list):
        return [_without_strict(v) for v in node]
    if isinstance(node, dict):
        return {k: _without_strict(v) for k, v in node.items()
                if k != "strict" and not (k == "additionalProperties" and v is False)}
    return node


def _flattened(value: dict[str, Any]) -> dict[str, Any]:
    """OpenAI chat's allowed_tools choice in the Responses layout (responses_allowed_tools_tool_choice)."""
    inner = value["allowed_tools"]
    return {"type": "allowed_tools", "mode": inner["mode"],
            "tools": [{"type": "function", "name": t["function"]["name"]} for t in inner["tools"]]}


class _Outcome(NamedTuple):
    fields: dict[str, Any]  # body path -> value (or ABSENT)
    refused: tuple[str, Source] | None = None  # (LiteLLM's words, where)
    notes: tuple[tuple[str, ChoiceRule | Source], ...] = ()  # (path, the rule that set it)


def _outcome(route: Route, word: str | None, value: Any, parallel: bool | None, drop: bool, model: str,
             name: str | None, has_tools: bool, extra: Any) -> _Outcome:
    """The tool fields LiteLLM sends for the call, or what it raises (in LiteLLM's order: an unsupported parameter
    in get_optional_params, then the config's map_openai_params)."""
    fields: dict[str, Any] = {}
    notes: list[tuple[str, Any]] = []
    first = route.choices.get(word) if word == "allowed" else None  # main.py's check, before any parameter's
    if first is not None and isinstance(first.sends, Raise):
        return _Outcome({}, (first.sends.error.format(model=model), first.sends.source))
    given = [p for p, on in (("tools", has_tools), ("tool_choice", word is not None),
                             ("parallel_tool_calls", parallel is not None)) if on]
    refused: dict[str, Source] = {p: route.parallel_source for p in given
                                  if p == "parallel_tool_calls" and route.parallel == "refused"}
    for rule_set in route.model_params:
        if rule_set.refuses(model):
            refused.update({p: rule_set.source for p in given if p in rule_set.params})
    if refused and not drop:  # utils.py get_optional_params lists them in the order they were passed
        params = str([p for p in given if p in refused])
        return _Outcome({}, (PARAMS_ERROR.format(route=route.prefix.rstrip("/"), params=params, model=model),
                             next(iter(refused.values()))))
    for param, source in refused.items():
        notes.append((param if param != "tools" else route.tools_path, source))
    if "tools" in refused:
        fields[route.tools_path] = ABSENT
        has_tools = False
    if "parallel_tool_calls" in refused:
        parallel = None
    choice: Any = ABSENT
    rule = route.choices.get(word) if word and "tool_choice" not in refused else None
    if "tool_choice" in refused:
        rule = ChoiceRule(DROPPED, refused["tool_choice"])
        word = None
    if rule is not None:
        sends = rule.sends
        if isinstance(sends, Raise):
            if not (drop and sends.dropped_with_drop_params):
                return _Outcome({}, (sends.error.format(model=model), sends.source))
            sends = DROPPED
        choice = (value if sends == COPIED else ABSENT if sends == DROPPED else _flattened(value)
                  if sends == FLATTENED else filled(sends, name))
    if route.parallel == "anthropic" and parallel is not None and word != "none":
        choice = {"type": "auto"} if choice is ABSENT else dict(choice)
        choice["disable_parallel_tool_use"] = not parallel
    if (route.provider == "anthropic" and isinstance(choice, dict) and choice.get("type") in ("any", "tool")
            and ANTHROPIC_NO_FORCED_TOOL_USE.search(model)):
        if not drop:
            return _Outcome({}, (ANTHROPIC_FORCED_ERROR.format(model=model), ANTHROPIC_FORCED))
        choice = {k: v for k, v in {**choice, "type": "auto"}.items() if k != "name"}
        notes.append((route.choice_path or "", ANTHROPIC_FORCED))
    if not has_tools and route.no_tools is not None and choice is not ABSENT:
        choice, rule = ABSENT, ChoiceRule(DROPPED, route.no_tools)
    if rule is not None:
        notes.append(("choice", rule))
    if route.choice_path is not None:
        fields[route.choice_path] = choice
        if rule is not None:
            notes.append((route.choice_path, rule))
    if route.parallel == "copied":
        fields["parallel_tool_calls"] = ABSENT if parallel is None else parallel
        notes.append(("parallel_tool_calls", route.parallel_source))
    if route.parallel == "bedrock":
        merged = dict(extra) if isinstance(extra, dict) else {}
        merged.pop("tool_choice", None)
        if parallel is not None and BEDROCK_PARALLEL_CONFIG.search(model):
            inner = {"type": "auto", "disable_parallel_tool_use": not parallel}
            merged["tool_choice"] = {k: v for k, v in inner.items() if not (k == "type" and choice is not ABSENT)}
            notes.append((f"{_EXTRA}", route.parallel_source))
        fields[_EXTRA] = merged if merged else ABSENT
    if parallel is not None and route.parallel == "dropped":
        notes.append(("parallel_tool_calls", route.parallel_source))
    return _Outcome(fields, None, tuple(notes))


def apply(api: Translation, scenario: Scenario, settings: Mapping[str, Any] | None = None,
          rebuild: Rebuild | None = None) -> LiteLLMView:
    """The API translation for one provider, redone as litellm.completion would send it (``settings``:
    drop_params; ``rebuild``: how to translate a changed scenario with the command line's options)."""
    drop = bool((settings or {}).get("drop_params"))
    route = ROUTES.get(api.provider)
    ledger = list(api.ledger)

    def keep(code: str, message: str, severity: str = "info") -> LiteLLMView:
        ledger.append(LedgerEntry(severity, code, message))  # type: ignore[arg-type]
        return LiteLLMView(api._replace(ledger=ledger), api, None, None, drop)

    if route is None:
        return keep("dialect.no_route", f"no LiteLLM route is described for {api.provider}; the API request is shown")
    base = rebuilt_base(api, scenario, rebuild)
    if base.request is None:
        return keep("dialect.api_refused", "toolchoice refuses the API request, so LiteLLM's is not described")
    word, value, note = completion_value(scenario.tool_choice)
    model = model_of(base)
    routed = route.prefix + model
    body = json.loads(json.dumps(base.request.body))  # a deep copy; JSON data only
    extra = scenario.settings_for(api.provider).extra
    nested = EXTRA_NESTED.get(route.provider) if extra else None
    if nested is not None:  # LiteLLM does not merge extra_body there: the body without extra, extra nested below
        _unmerge(body, extra, scenario, api.provider, rebuild)
    thinking = body.get("thinking")
    arguments = [f"model={routed!r}", "messages"] + (["tools"] if scenario.tools else []) + (
        [f"tool_choice={json.dumps(value) if isinstance(value, dict) else repr(value)}"] if word else []) + (
        [f"parallel_tool_calls={scenario.parallel_tool_calls}"] if scenario.parallel_tool_calls is not None else []) + (
        [f"thinking={compact(thinking)}"] if isinstance(thinking, dict) and thinking.get("type") != "disabled"
        else []) + (["drop_params=True"] if drop else [])
    call = f"litellm.completion({', '.join(arguments)})"
    tools_given = (f"the scenario's {len(scenario.tools)} tool(s) as OpenAI chat tools" if scenario.tools
                   else "no tools")
    ledger.append(LedgerEntry("info", "dialect.call", f"described: {call} with {tools_given} (litellm {VERSION}, "
                              f"{route.config}; read {READ})"
                              + (f"; {note}" if note else "")))
    tool_rule = _strict_rule(route, model)  # LiteLLM's rewrite applies to every tool; strict decides what it says
    strict = tool_rule if any(scenario.tool_is_strict(t) for t in scenario.tools) else None
    explains = strict or (tool_rule if tool_rule is not None and (tool_rule.does == "stripped"
                                                                  or not tool_rule.top_level_closed) else None)
    if tool_rule is None and any(scenario.tool_is_strict(t) for t in scenario.tools):
        ledger.append(LedgerEntry("info", "dialect.unchecked", "strict tools: described as the API request declares "
                                  "them; what LiteLLM does with a strict tool is not described here"))
    name = scenario.tool_choice.name if scenario.tool_choice is not None else None
    outcome = _outcome(route, word, value, scenario.parallel_tool_calls, drop, model, name,
                       bool(scenario.tools), body.get(_EXTRA))
    if route.provider == "azure" and outcome.refused is None:
        error, source = _azure_version_refusal(base, word, drop)
        if error is not None and source is not None:
            outcome = _Outcome({}, (error, source))
        elif source is not None:
            outcome = outcome._replace(fields={**outcome.fields, "tool_choice": ABSENT},
                                       notes=(*outcome.notes, ("tool_choice", source)))
    if outcome.refused is not None:
        error, source = outcome.refused
        dropped = not drop and _outcome(route, word, value, scenario.parallel_tool_calls, True, model, name,
                                        bool(scenario.tools), body.get(_EXTRA)).refused is None and (
            route.provider != "azure" or _azure_version_refusal(base, word, True)[0] is None)
        parallel = scenario.parallel_tool_calls
        unpassed = parallel is not None and _outcome(route, word, value, None, drop, model, name, bool(scenario.tools),
                                                     body.get(_EXTRA)).refused is None
        ledger.append(LedgerEntry("error", "dialect.refused", f"LiteLLM raises before sending, nothing is sent: "
                                                              f"{error} ({source})"
                                  + ("; --drop-params shows what drop_params=True sends instead" if dropped else "")
                                  + (f"; the scenario's parallel_tool_calls is passed as litellm.completion(..., "
                                     f"parallel_tool_calls={parallel}): where your call does not pass it, leave it "
                                     "out of the scenario and the request is sent" if unpassed else "")))
        refused = Translation(api.provider, api.requested_tool_choice, None, None, ledger, ())
        return LiteLLMView(refused, api, routed, call, drop)
    compared = [route.tools_path, *outcome.fields]
    for path in (route.choice_path, "parallel_tool_calls"):
        if path is not None:
            set_path(body, path, ABSENT)
    if scenario.tools:
        set_path(body, route.tools_path, _tools(route, base, scenario, rebuild, tool_rule))
    for path in strict.body_fields if strict is not None else ():
        set_path(body, path, ABSENT)
        compared.append(path)
    for path, field in outcome.fields.items():
        set_path(body, path, field)
    if route.provider == "gemini" and get_path(body, "toolConfig") == {}:
        body.pop("toolConfig")
    disabled = [e for e in api.ledger if e.code == "thinking.disabled_for_choice"]
    if disabled and isinstance(thinking, dict) and thinking.get("type") == "disabled":
        body.pop("thinking")
        compared.append("thinking")
    why = {path: rule for path, rule in outcome.notes}
    api_body = api.request.body if api.request is not None else None
    for path in dict.fromkeys(compared):
        if nested is not None and path.split(".")[0] in extra and path not in (route.choice_path, route.tools_path):
            continue  # the API request has extra's there; LiteLLM nests extra whole (dialect.extra_fields says so)
        ours = get_path(api_body, path) if api_body is not None else ABSENT
        theirs = get_path(body, path)
        if ours == theirs:
            continue
        rule = why.get("choice") if path == route.tools_path and theirs is not ABSENT else why.get(path)
        if explains is not None and (path in explains.body_fields or path == route.tools_path and theirs is not ABSENT
                                     and len(theirs) == (0 if ours is ABSENT else len(ours))):
            note = (f"; it also {route.tools_note}" if route.tools_note and path == route.tools_path
                    and route.provider != "openai-responses" else "")
            says = explains.says if path == route.tools_path else f"sends no {path} for strict tools"
            ledger.append(LedgerEntry("warning", "dialect.differs",
                                      f"{path}: LiteLLM {says} ({explains.source}){note}"))
            continue
        if strict is not None and path == route.choice_path and rule is None:
            rule = strict.source
        ledger.append(_difference(route, path, ours, theirs, rule, base is api))
    if base is not api:
        faults = ", ".join(sorted({e.code for e in api.ledger if e.severity == "error"}))
        sent = get_path(body, route.choice_path or "")
        if sent is ABSENT:  # LiteLLM left the choice out: the API has nothing to refuse
            source = why.get("choice")
            ledger.append(LedgerEntry("info", "dialect.differs", f"toolchoice refuses the API request ({faults}); "
                                      "LiteLLM sends its request without tool_choice"
                                      + (f" ({source.source})" if isinstance(source, ChoiceRule) else "")))
        else:
            answers = "; ".join(API_ANSWERS.get(e.code, e.message) for e in api.ledger if e.severity == "error")
            ledger.append(LedgerEntry("warning", "dialect.differs", f"toolchoice refuses the API request ({faults}); "
                                      f"LiteLLM sends its request anyway, with tool_choice {shown(sent)}: {answers}"))
    if disabled and "thinking" not in body:
        ledger.append(LedgerEntry("warning", "dialect.differs", "thinking: LiteLLM sends the forcing tool_choice without "
                                  "thinking disabled (DeepSeekChatConfig.map_openai_params maps only what it is "
                                  f"given): {API_ANSWERS['thinking.disabled_for_choice']}"))
    if nested is not None:
        set_path(body, nested[0], json.loads(json.dumps(dict(extra))))
        ledger.append(LedgerEntry("warning", "dialect.extra_fields", f"providers.{api.provider}.extra: {nested[1]}"))
    effective = get_path(body, route.choice_path) if route.choice_path else ABSENT
    translation = base._replace(requested_tool_choice=api.requested_tool_choice,
                                effective_tool_choice=None if effective is ABSENT else effective,
                                request=base.request._replace(body=body), ledger=ledger,
                                offered_tools=scenario.tool_names)
    if nested is not None:  # extra's fields are nested, none at the top: the parallel setting is LiteLLM's own
        translation = translation._replace(sent_parallel=None)
    return LiteLLMView(translation, api, routed, call, drop)


def _difference(route: Route, path: str, ours: Any, theirs: Any, why: ChoiceRule | Source | None,
                compared_to_api: bool) -> LedgerEntry:
    """One dialect.differs entry: where LiteLLM parts from the API request, LiteLLM's source and the API's answer."""
    if path == route.tools_path and theirs is ABSENT:
        source = why.source if isinstance(why, ChoiceRule) else why
        return LedgerEntry("warning", "dialect.differs", f"{path}: LiteLLM sends no tools (drop_params drops the "
                                                         f"parameters its model map does not give the model: {source}); "
                                                         "the API request sends "
                                                         f"{0 if ours is ABSENT else len(ours)}")
    if path == route.tools_path:
        names = lambda tools: [t.get("name") or (t.get("function") or t.get("toolSpec") or {}).get("name")  # noqa: E731
                               for t in tools] if isinstance(tools, list) else []
        if route.tools_note and (ours is ABSENT or len(names(ours)) == len(names(theirs))):
            return LedgerEntry("info", "dialect.differs", f"{path}: LiteLLM {route.tools_note}")
        said = f": {why.api_says}" if isinstance(why, ChoiceRule) and why.api_says else ""
        return LedgerEntry("warning", "dialect.differs", f"{path}: LiteLLM sends every tool it is given "
                                                         f"({len(theirs)}); the API request sends "
                                                         f"{0 if ours is ABSENT else len(ours)}{said}")
    source = why.source if isinstance(why, ChoiceRule) else why
    said = why.api_says if isinstance(why, ChoiceRule) else None
    if path == "thinking":
        return LedgerEntry("info", "dialect.differs", "thinking: LiteLLM sends no thinking field; the API request "
                                                      f"sends {shown(ours)}")
    message = f"{path}: LiteLLM sends {shown(theirs)}; the API request sends {shown(ours)}"
    if source is not None:
        message += f" ({source})"
    if said:
        message += f": {said}"
    return LedgerEntry("warning" if compared_to_api else "info", "dialect.differs", message)


# ---- providers.<id>.extra's tool choice (core/dialects.extra_choice) ------------------------------------------

# provider -> (whether litellm.completion(..., extra_body=extra) sends extra's choice field over LiteLLM's own, what
# it does): each run with litellm 1.110.2 through the mock (tests/test_dialect_extra_choice.py)
_MERGED = "litellm.completion(..., extra_body=extra) sends extra's fields over the body LiteLLM builds"
EXTRA_BODY: dict[str, tuple[bool, str]] = {
    **{p: (True, _MERGED) for p in ("openai", "groq", "deepseek", "xai", "openrouter", "mistral", "gemini", "cohere",
                                    "ollama")},
    "anthropic": (False, "litellm.completion(..., extra_body=extra) on the anthropic/ route sends it as a body field "
                         "named \"extra_body\", which the Messages API does not read"),
    "bedrock": (False, "litellm.completion(..., extra_body=extra) on the bedrock/converse/ route sends it under "
                       "additionalModelRequestFields.extra_body, not toolConfig"),
}


# provider -> (where litellm.completion(..., extra_body=extra) puts extra whole, what the ledger says), where LiteLLM
# does not merge extra_body into the body it builds: each run with litellm 1.110.2 through the mock
# (tests/test_dialect_extra_choice.py), with extra_body and with the same fields as keyword arguments
EXTRA_NESTED: dict[str, tuple[str, str]] = {
    "anthropic": ("extra_body", "litellm.completion(..., extra_body=extra) on the anthropic/ route sends extra whole "
                                "as one body field named \"extra_body\" (which the Messages API does not read), not "
                                "its fields at the body's top level; passed as keyword arguments instead "
                                "(litellm.completion(..., top_k=3)), each field is sent at the top level (LiteLLM "
                                "passes a parameter it does not know on in optional_params, \"which becomes the JSON body via "
                                "{**optional_params}\": litellm 1.110.2 llms/anthropic/chat/transformation.py:2453, "
                                "transform_request)"),
    "bedrock": (f"{_EXTRA}.extra_body", "litellm.completion(..., extra_body=extra) on the bedrock/converse/ route "
                                        "sends extra whole under additionalModelRequestFields.extra_body; passed as "
                                        "keyword arguments instead, each field goes into "
                                        "additionalModelRequestFields (\"set all model-specific params in "
                                        "'additional_request_params'\": litellm 1.110.2 llms/bedrock/chat/"
                                        "converse_transformation.py:1890, _prepare_request_params); neither way "
                                        "sets a top-level Converse field"),
}


def _unmerge(body: dict[str, Any], extra: Mapping[str, Any], scenario: Scenario, provider: str,
             rebuild: Rebuild | None) -> None:
    """``body``'s top-level fields that ``extra`` wrote, set back to the API request's without extra (ABSENT where
    that has none)."""
    bare = scenario._replace(providers={**scenario.providers, provider: scenario.settings_for(provider)._replace(extra={})})
    plain = rebuilt_base(translated(rebuild, bare, provider), bare, rebuild)
    plain_body = plain.request.body if plain.request is not None else {}
    for key in extra:
        if key in plain_body:
            body[key] = json.loads(json.dumps(plain_body[key]))
        else:
            body.pop(key, None)


def extra_route(view: LiteLLMView) -> tuple[bool | None, str]:
    """(whether LiteLLM's extra_body replaces the tool choice it builds, how), by the provider's route."""
    return EXTRA_BODY.get(view.api.provider, (None, f"{_MERGED} on the routes run; this one was not"))
