"""`--dialect openai-agents`: what the OpenAI Agents SDK (``openai-agents`` ``openai_agents_rules.VERSION``) puts on
each provider's wire for the scenario's tools, tool_choice and parallel_tool_calls, next to the API request toolchoice
builds.

The user is assumed to run ``Runner.run(Agent(tools=[a FunctionTool per scenario tool: its name, description (or
""), parameters as params_json_schema, strict_json_schema as the scenario says], model=M,
model_settings=ModelSettings(tool_choice=X, parallel_tool_calls=P)), ...)``: X is the scenario's tool_choice as
ModelSettings takes it (``settings_value``), M the model class that reaches the provider (``openai_agents_rules.
ROUTES``: OpenAIChatCompletionsModel for OpenAI Chat and the OpenAI-compatible hosts, OpenAIResponsesModel for the
Responses API, LitellmModel for the other APIs, whose request is then LiteLLM's: ``litellm_dialect``). Only the tool
fields of the API request change (and what toolchoice adds for a choice the SDK does not: DeepSeek's ``thinking``
disabled, OpenRouter's ``provider.require_parameters``); each field that differs is a ``dialect.differs`` entry with
the SDK's source; what it raises instead of sending is a ``dialect.refused`` error with its words. The request
described is the Runner's first; ``dialect.reset`` says what its later ones send. The rules are data
(``openai_agents_rules``); openai-agents is never imported. Imported only with ``--dialect openai-agents``.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, NamedTuple

from .core.model import LedgerEntry, Scenario, ToolChoice, Translation, compact
from .dialect_fields import (ABSENT, SENT_ANYWAY, Rebuild, api_json, get_path, model_of, rebuilt_base, set_path,
                             shown, translated)
from .openai_agents_rules import (CHAT_MCP, CHAT_MCP_ERROR, CHAT_NAMED, CHAT_NO_TOOLS, CHAT_PARALLEL,
                                  CHAT_PROGRAMMATIC, CHAT_PROGRAMMATIC_ERROR, CHAT_TOOLS, CHAT_WORDS, LITELLM_CALL,
                                  LITELLM_CHOICE, LITELLM_PARALLEL, READ, RESET, RESPONSES_HOSTED,
                                  RESPONSES_HOSTED_WORDS, RESPONSES_MCP, RESPONSES_NAMED, RESPONSES_NO_TOOLS,
                                  RESPONSES_PARALLEL, RESPONSES_TOOLS, RESPONSES_WORDS, ROUTES, SETTINGS_TYPE,
                                  STRICT_EMPTY_SCHEMA, STRICT_OPEN_ERROR, STRICT_ROOT_ANY_OF_ERROR,
                                  STRICT_ROOT_NULLABLE_ERROR, STRICT_SCHEMA, TOOL_USE_BEHAVIOR, VERSION,
                                  Route, Source)

_WORDS = ("auto", "none", "required")


class AgentsView(NamedTuple):
    """One provider under --dialect openai-agents: the SDK's first request (``translation``) and the API one."""

    translation: Translation  # request: what the Runner sends first (None where the SDK raises); ledger: API + dialect
    api: Translation
    model: str | None  # the model object described ("OpenAIChatCompletionsModel(model='gpt-4o-mini', ...)")
    call: str | None  # the Agent described
    route: str | None  # LitellmModel's LiteLLM route ("anthropic/claude-sonnet-5"), else None

    @property
    def label(self) -> str | None:
        return self.model

    def to_json(self) -> dict[str, Any]:
        data = self.translation.to_json()
        data["dialect"] = "openai-agents"
        data["model_class"] = self.model
        data["agent"] = self.call
        data["litellm_route"] = self.route
        data["api"] = api_json(self.api)
        return data


class Setting(NamedTuple):
    """The scenario's tool_choice as ModelSettings.tool_choice takes it."""

    value: Any  # a word, a name, ("mcp", server_label, name) for MCPToolChoice, or None (not set)
    spelled: str  # as the Agent call is written
    note: str | None  # how a spelling with no ModelSettings form was read


def settings_value(choice: ToolChoice | None) -> Setting | str:
    """ModelSettings.tool_choice for the scenario's choice, or why it has none (a str)."""
    if choice is None:
        return Setting(None, "None", None)
    native = choice.native
    if native is not None and native.get("type") == "mcp":
        if not native.get("name"):
            return "an MCP choice without a tool name has no ModelSettings spelling (MCPToolChoice takes server_label and name)"
        label, name = native.get("server_label"), native["name"]
        return Setting(("mcp", label, name), f"MCPToolChoice(server_label={label!r}, name={name!r})", None)
    if native is not None and native.get("type") == "programmatic_tool_calling":
        return Setting("programmatic_tool_calling", "'programmatic_tool_calling'", None)
    if native is not None:
        return f"the provider-native choice {compact(native)} has no ModelSettings spelling"
    if choice.mode == "allowed":
        return "an allowed-tools subset has no ModelSettings.tool_choice spelling (a word, a tool name or MCPToolChoice)"
    if choice.mode == "named":
        return Setting(choice.name, repr(choice.name), None)
    spelled = choice.spelling
    return Setting(choice.mode, repr(choice.mode), None if spelled in ("", choice.mode) else
                   f"{spelled} written as {choice.mode!r} (a word ModelSettings does not know is read as a tool name)")


def _wire_choice(kind: str, value: Any) -> tuple[Any, Source, str | None]:
    """(what the model class sends for ModelSettings.tool_choice, the source, or the error it raises instead)."""
    if value is None:
        return ABSENT, SETTINGS_TYPE, None
    if kind == "responses":
        if isinstance(value, tuple):
            return {"server_label": value[1], "type": "mcp", "name": value[2]}, RESPONSES_MCP, None
        if value in _WORDS:
            return value, RESPONSES_WORDS, None
        if value in RESPONSES_HOSTED_WORDS:
            return {"type": value}, RESPONSES_HOSTED, None
        return {"type": "function", "name": value}, RESPONSES_NAMED, None
    if isinstance(value, tuple):
        return ABSENT, CHAT_MCP, CHAT_MCP_ERROR
    if value in _WORDS:
        return value, CHAT_WORDS, None
    if value == "programmatic_tool_calling":
        return ABSENT, CHAT_PROGRAMMATIC, CHAT_PROGRAMMATIC_ERROR
    return {"type": "function", "function": {"name": value}}, CHAT_NAMED, None


class Unported(Exception):
    """A schema keyword strict_schema.py resolves in ways not ported here ($ref, a one-entry allOf, a type list)."""


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``ensure_strict_json_schema`` on a plain schema (openai-agents strict_schema.py, STRICT_SCHEMA): every object
    closed and every property required, oneOf read as anyOf, a None default dropped; ``{}`` the closed empty object
    (STRICT_EMPTY); the root checked last (STRICT_ROOT). Raises ``ValueError`` with the
    SDK's UserError words where it raises, ``Unported`` where this port stops."""
    root = json.loads(json.dumps(schema))
    if root == {}:  # STRICT_EMPTY: not walked
        return json.loads(json.dumps(STRICT_EMPTY_SCHEMA))
    root = _strict_node(root)
    if isinstance(root.get("anyOf"), list):  # STRICT_ROOT: after the walk, so a root oneOf (an anyOf by then) too
        raise ValueError(STRICT_ROOT_ANY_OF_ERROR)
    kind = root.get("type")
    if isinstance(kind, list) and "object" in kind:
        if kind != ["object"]:
            raise ValueError(STRICT_ROOT_NULLABLE_ERROR.format(kind=kind))
        root["type"] = "object"
    return root


def _strict_node(node: Any) -> Any:
    if not isinstance(node, dict):
        raise Unported("a schema that is not an object")
    if "$ref" in node or (isinstance(node.get("allOf"), list) and len(node["allOf"]) == 1):
        raise Unported("$ref or a one-entry allOf")
    for key in ("$defs", "definitions"):
        if isinstance(node.get(key), dict):
            node[key] = {name: _strict_node(value) for name, value in node[key].items()}
    kind, properties = node.get("type"), node.get("properties")
    if kind is None and isinstance(properties, dict):
        kind = node["type"] = "object"
    elif kind is None and node.get("additionalProperties", False) is not False:
        raise ValueError(STRICT_OPEN_ERROR)
    if kind == "object" or (isinstance(kind, list) and "object" in kind):
        if node.setdefault("additionalProperties", False) is not False:
            raise ValueError(STRICT_OPEN_ERROR)
    if isinstance(properties, dict):
        node["required"] = list(properties)
        node["properties"] = {name: _strict_node(value) for name, value in properties.items()}
    if isinstance(node.get("items"), dict):
        node["items"] = _strict_node(node["items"])
    if isinstance(node.get("anyOf"), list):
        node["anyOf"] = [_strict_node(v) for v in node["anyOf"]]
    if isinstance(node.get("oneOf"), list):
        listed = node.get("anyOf") if isinstance(node.get("anyOf"), list) else []
        node["anyOf"] = listed + [_strict_node(v) for v in node.pop("oneOf")]
    if isinstance(node.get("allOf"), list):
        node["allOf"] = [_strict_node(v) for v in node["allOf"]]
    if "default" in node and node["default"] is None:
        node.pop("default")
    return node


def _parameters(scenario: Scenario, tool: Any) -> dict[str, Any]:
    return strict_schema(tool.schema()) if scenario.tool_is_strict(tool) else tool.schema()


def _tools(kind: str, scenario: Scenario, ported: bool = True) -> Any:
    """The scenario's tools as FunctionTools written by the model class (Responses: an empty list without tools);
    ``ported`` False: a strict tool's schema as written (its strict rewrite is not described)."""
    if not ported:
        scenario = scenario._replace(tools=tuple(t._replace(parameters=t.schema()) for t in scenario.tools))
        strict = {t.name for t in scenario.tools if scenario.tool_is_strict(t)}
        written = _tools(kind, _without_strict(scenario))
        for tool in written if isinstance(written, list) else []:
            inner = tool.get("function", tool)
            inner["strict"] = inner["name"] in strict
        return written
    if kind == "responses":
        return [{"name": t.name, "parameters": _parameters(scenario, t), "strict": scenario.tool_is_strict(t),
                 "type": "function", "description": t.description or ""} for t in scenario.tools]
    tools = [{"type": "function", "function": {"name": t.name, "description": t.description or "",
                                               "parameters": _parameters(scenario, t),
                                               "strict": scenario.tool_is_strict(t)}} for t in scenario.tools]
    return tools or ABSENT


def _strict_rewrite(scenario: Scenario) -> tuple[Scenario, str | None, str | None]:
    """The scenario with each strict tool's parameters as FunctionTool(strict_json_schema=True) makes them (the same
    object where none changes), the SDK's refusal words, or what this port does not describe (``Unported``)."""
    tools = []
    for tool in scenario.tools:
        if not scenario.tool_is_strict(tool):
            tools.append(tool)
            continue
        try:
            made = strict_schema(tool.schema())
        except ValueError as refusal:
            return scenario, str(refusal), None
        except Unported as why:
            return scenario, None, str(why)
        tools.append(tool if made == tool.schema() else tool._replace(parameters=made))
    changed = any(a is not b for a, b in zip(tools, scenario.tools))
    return (scenario._replace(tools=tuple(tools)) if changed else scenario), None, None


def _without_strict(scenario: Scenario) -> Scenario:
    return scenario._replace(strict=None, tools=tuple(t._replace(strict=None) for t in scenario.tools))


def _base(api: Translation, scenario: Scenario, rebuild: Rebuild | None) -> Translation:
    """A refused API translation whose only faults the SDK does not carry, rebuilt without them (``rebuilt_base``'s,
    and a schema the API refuses as strict, which FunctionTool's ensure_strict_json_schema rewrites). Else ``api``."""
    errors = {e.code for e in api.ledger if e.severity == "error"}
    if api.request is not None or not errors or not errors <= SENT_ANYWAY | {"schema.strict_invalid"}:
        return api
    changed = _without_strict(scenario) if "schema.strict_invalid" in errors else scenario
    if errors & SENT_ANYWAY:
        changed = changed._replace(tool_choice=ToolChoice("auto", spelling="auto") if scenario.tools else None)
    base = translated(rebuild, changed, api.provider)
    return base if base.request is not None else api


def _reading(value: Any) -> Any:
    """A wire choice read in neutral words (a named tool as ("named", name)): two values read alike mean the same."""
    if isinstance(value, str):
        return {"any": "required", "auto": "auto", "none": "none", "required": "required"}.get(value.lower(), value)
    if isinstance(value, dict):
        name = value.get("name") if value.get("type") in ("function", "tool") else None
        name = name or (value.get("function") or {}).get("name")
        return ("named", name) if name else compact(value)
    return value


def _names(tools: Any) -> list[Any]:
    return [t.get("name") or (t.get("function") or {}).get("name") for t in tools] if isinstance(tools, list) else []


def _model_text(route: Route, model: str) -> str:
    return route.model.replace("MODEL", repr(model))


def apply(api: Translation, scenario: Scenario, settings: Mapping[str, Any] | None = None,
          rebuild: Rebuild | None = None) -> AgentsView:
    """The API translation for one provider, redone as the Agents SDK's Runner would send it first (``settings``:
    none are taken, core/dialects.py checks that none is given; ``rebuild``: how to translate a changed scenario with
    the command line's options)."""
    route = ROUTES.get(api.provider)
    ledger = list(api.ledger)

    def keep(code: str, message: str, severity: str = "info", model: str | None = None) -> AgentsView:
        ledger.append(LedgerEntry(severity, code, message))  # type: ignore[arg-type]
        return AgentsView(api._replace(ledger=ledger), api, model, None, None)

    if route is None:
        return keep("dialect.no_route", f"openai-agents has no route described for {api.provider}; the API request "
                                        "is shown")
    base = rebuilt_base(api, scenario, rebuild) if route.kind == "litellm" else _base(api, scenario, rebuild)
    if base.request is None:
        return keep("dialect.api_refused", "toolchoice refuses the API request, so openai-agents' is not described")
    model = _model_text(route, model_of(base))
    setting = settings_value(scenario.tool_choice)
    others = sorted({t.kind for t in scenario.tools if t.kind != "function"} | (
        {"hosted"} if scenario.native_tools else set()))
    if isinstance(setting, str) or others:
        why = setting if isinstance(setting, str) else (f"the scenario's {', '.join(others)} tools (openai-agents "
                                                         "has its own tool classes for them) are not described")
        return keep("dialect.no_spelling", f"{why}: openai-agents' request is not described; the API request is "
                                           "shown", "warning", model)
    if route.kind == "litellm":
        return _through_litellm(api, base, scenario, rebuild, route, setting)
    parallel = scenario.parallel_tool_calls
    call = (f"Runner.run(Agent(tools=[{len(scenario.tools)} FunctionTool], model={model}, model_settings="
            f"ModelSettings(tool_choice={setting.spelled}" + (f", parallel_tool_calls={parallel}" if parallel is not None
                                                               else "") + ")), ...)")
    ledger.append(LedgerEntry("info", "dialect.call", f"described: {call}, each FunctionTool with the scenario "
                              f"tool's name, description and parameters (openai-agents {VERSION}; read {READ})"
                              + (f"; {setting.note}" if setting.note else "")))
    if route.why is not None:
        ledger.append(LedgerEntry("info", "dialect.route", route.why))
    choice, source, error = _wire_choice(route.kind, setting.value)
    try:
        tools = _tools(route.kind, scenario)
    except ValueError as refusal:
        choice, source, error = ABSENT, STRICT_SCHEMA, str(refusal)
    except Unported as why:
        tools = _tools(route.kind, scenario, ported=False)
        ledger.append(LedgerEntry("info", "dialect.unchecked", f"strict tools: strict_json_schema=True runs each "
                                  f"schema through openai-agents' ensure_strict_json_schema, and {why} is not "
                                  "described here: the schema is shown as written"))
    if error is not None:
        ledger.append(LedgerEntry("error", "dialect.refused", f"openai-agents raises before sending, nothing is sent: "
                                                              f"{error} ({source})"))
        refused = Translation(api.provider, api.requested_tool_choice, None, None, ledger, ())
        return AgentsView(refused, api, model, call, None)
    has_tools = bool(scenario.tools)
    body = json.loads(json.dumps(base.request.body))  # a deep copy; JSON data only
    set_path(body, "tools", tools)
    set_path(body, "tool_choice", choice)
    set_path(body, "parallel_tool_calls", parallel if has_tools and parallel is not None else ABSENT)
    why: dict[str, Source] = {"tools": CHAT_TOOLS if route.kind == "chat" else RESPONSES_TOOLS, "tool_choice": source,
                              "parallel_tool_calls": CHAT_PARALLEL if route.kind == "chat" else RESPONSES_PARALLEL}
    if not has_tools:
        why["tools"] = why["tool_choice"] = CHAT_NO_TOOLS if route.kind == "chat" else RESPONSES_NO_TOOLS
    _extras(api, body, ledger)
    api_body = api.request.body if api.request is not None else None
    for path in ("tools", "tool_choice", "parallel_tool_calls"):
        ours = get_path(api_body, path) if api_body is not None else ABSENT
        theirs = get_path(body, path)
        if ours != theirs and api_body is not None:
            ledger.append(_difference(path, ours, theirs, why[path], scenario, api.ledger))
    errors = {e.code for e in api.ledger if e.severity == "error"} if base is not api else set()
    if errors & SENT_ANYWAY:
        faults = ", ".join(sorted(errors & SENT_ANYWAY))
        answers = "; ".join(e.message for e in api.ledger if e.severity == "error" and e.code in SENT_ANYWAY)
        forcing = choice is not ABSENT and _reading(choice) not in ("auto", "none")
        ledger.append(LedgerEntry("warning" if forcing else "info", "dialect.differs",
                                  f"toolchoice refuses the API request ({faults}); openai-agents sends its request "
                                  f"anyway, with tool_choice {shown(choice)} and "
                                  f"{'no tools' if not has_tools else 'the tools'} ({why['tools']})"
                                  + (f": {answers}" if forcing else "")))
    if "schema.strict_invalid" in errors:
        ledger.append(LedgerEntry("warning", "dialect.differs", "toolchoice refuses the API request "
                                  "(schema.strict_invalid): a strict tool's schema breaks the API's strict rules; "
                                  "openai-agents rewrites it before sending (every object closed, every property "
                                  "required: an optional property becomes required, not nullable) and sends that "
                                  f"({STRICT_SCHEMA})"))
    if has_tools:
        _reset_note(ledger, scenario, setting.value)
    translation = base._replace(requested_tool_choice=api.requested_tool_choice,
                                effective_tool_choice=None if choice is ABSENT else choice,
                                request=base.request._replace(body=body), ledger=ledger,
                                offered_tools=scenario.tool_names)
    return AgentsView(translation, api, model, call, None)


def _extras(api: Translation, body: dict[str, Any], ledger: list[LedgerEntry]) -> None:
    """What toolchoice adds to a Chat request for a forcing choice and the SDK does not (ModelSettings.extra_body
    would): DeepSeek's thinking disabled, OpenRouter's provider.require_parameters."""
    thinking = body.get("thinking")
    if any(e.code == "thinking.disabled_for_choice" for e in api.ledger) and isinstance(thinking, dict) \
            and thinking.get("type") == "disabled":
        body.pop("thinking")
        ledger.append(LedgerEntry("warning", "dialect.differs", "thinking: openai-agents sends the forcing tool_choice "
                                  "without thinking disabled, where the model thinks by default and DeepSeek answers "
                                  "400 \"Thinking mode does not support this tool_choice\" (api-docs.deepseek.com "
                                  "guides/thinking_mode); ModelSettings(extra_body={'thinking': {'type': "
                                  "'disabled'}}) sends it"))
    routing = body.get("provider") if api.provider == "openrouter" else None
    if isinstance(routing, dict) and "require_parameters" in routing:
        rest = {k: v for k, v in routing.items() if k != "require_parameters"}
        set_path(body, "provider", rest if rest else ABSENT)
        ledger.append(LedgerEntry("warning", "dialect.differs", "provider.require_parameters: openai-agents sends "
                                  "none, so OpenRouter may route the forcing choice to an upstream that ignores "
                                  "tool_choice; ModelSettings(extra_body={'provider': {'require_parameters': True}}) "
                                  "sends it"))


def _difference(path: str, ours: Any, theirs: Any, source: Source, scenario: Scenario,
                api_ledger: list[LedgerEntry]) -> LedgerEntry:
    """One dialect.differs entry: where openai-agents parts from the API request, and its source (and where
    toolchoice left the field out for a reason of the API's, that reason)."""
    if path == "tools" and theirs == [] and ours is ABSENT:
        return LedgerEntry("info", "dialect.differs", f"tools: openai-agents sends an empty list without tools; the "
                                                      f"API request leaves the field out ({source})")
    if path == "tools":
        if _names(ours) == _names(theirs):
            strict = [t.name for t in scenario.tools if scenario.tool_is_strict(t)]
            return LedgerEntry("info", "dialect.differs", "tools: openai-agents writes each FunctionTool with its "
                               f"strict_json_schema ({'true for ' + ', '.join(strict) if strict else 'false'}"
                               f"{', false for the others' if strict and len(strict) < len(scenario.tools) else ''}) "
                               "and its description (\"\" where none is given), the API request as the host takes "
                               f"them ({source})")
        return LedgerEntry("info", "dialect.differs", f"tools: openai-agents sends {_names(theirs) or shown(theirs)}; "
                           f"the API request sends {_names(ours) or shown(ours)} ({source})")
    same = _reading(ours) == _reading(theirs) if ours is not ABSENT and theirs is not ABSENT else False
    left_out = [e.message for e in api_ledger if e.code == "tool_choice.without_tools"] if (
        path == "tool_choice" and ours is ABSENT) else []
    return LedgerEntry("info" if same or path == "parallel_tool_calls" else "warning", "dialect.differs",
                       f"{path}: openai-agents sends {shown(theirs)}; the API request sends {shown(ours)} ({source})"
                       + ("; the same choice in the host's other spelling" if same else "")
                       + ("; that is the hosted tool's choice, not the function tool of that name: rename the tool"
                          if source is RESPONSES_HOSTED else "")
                       + (f"; toolchoice's reason: {left_out[0]}" if left_out else ""))


def _reset_note(ledger: list[LedgerEntry], scenario: Scenario, value: Any) -> None:
    """What the Runner sends after the first request: a forcing ModelSettings.tool_choice dropped once the agent
    has called a tool."""
    if value in (None, "auto", "none"):
        return
    after = scenario.loop.after_call if scenario.loop is not None else None
    ledger.append(LedgerEntry("info", "dialect.reset", "after a tool call the Runner sends this agent's later requests "
                              f"without tool_choice, the API's default (auto) (Agent.reset_tool_choice, True by "
                              f"default: {RESET}); toolchoice's loop.after_call: auto sends \"auto\" there instead, and "
                              "Agent(reset_tool_choice=False) sends the choice on every step, as loop.after_call: "
                              "keep does" + (f" (this scenario's loop: after_call: {after})" if after else "")
                              + f". tool_use_behavior='stop_on_first_tool' ends the run at the first call "
                              f"({TOOL_USE_BEHAVIOR})"))


def _agents_extra_fields(entry: LedgerEntry) -> LedgerEntry:
    """--dialect litellm's dialect.extra_fields entry in the Agent's terms: LitellmModel hands ModelSettings(extra_body)
    to litellm.acompletion as extra_body and extra_args as keyword arguments (agents/extensions/models/
    litellm_model.py, tests/test_dialect_extra_choice.py)."""
    return entry._replace(message=entry.message
                          .replace("litellm.completion(..., extra_body=extra)",
                                   "ModelSettings(extra_body=extra), which LitellmModel hands to litellm.acompletion,")
                          .replace("passed as keyword arguments instead (litellm.completion(..., top_k=3))",
                                   "given as ModelSettings(extra_args={'top_k': 3}) instead (keyword arguments of "
                                   "litellm.acompletion)")
                          .replace("passed as keyword arguments instead,",
                                   "given as ModelSettings(extra_args=...) instead (keyword arguments of "
                                   "litellm.acompletion),"))


def _through_litellm(api: Translation, base: Translation, scenario: Scenario, rebuild: Rebuild | None,
                     route: Route, setting: Setting) -> AgentsView:
    """LitellmModel: the Chat converter's choice handed to litellm.acompletion, so --dialect litellm's request (no
    drop_params; parallel_tool_calls only with tools), with the Agent described before LiteLLM's entries."""
    from .litellm_dialect import apply as litellm_apply
    from .litellm_rules import ROUTES as LITELLM_ROUTES

    value = setting.value
    choice = None if value is None else (ToolChoice(value, spelling=value) if value in _WORDS else
                                         ToolChoice("named", name=value, spelling=value))
    has_tools = bool(scenario.tools)
    inner = scenario._replace(tool_choice=choice, parallel_tool_calls=scenario.parallel_tool_calls if has_tools
                              else None)
    rewritten, refusal, unported = _strict_rewrite(inner)
    given = api  # the API request LiteLLM's is built from: with each strict tool's schema as FunctionTool makes it
    if rewritten is not inner:
        again = translated(rebuild, rewritten, api.provider)
        given, inner = (again, rewritten) if again.request is not None else (api, inner)
        unported = unported if again.request is not None else "the API request of the rewritten schema"
    view = litellm_apply(given, inner, {}, rebuild)
    routed = view.route or LITELLM_ROUTES[api.provider].prefix + model_of(base)
    model = _model_text(route, routed)
    parallel = scenario.parallel_tool_calls
    call = (f"Runner.run(Agent(tools=[{len(scenario.tools)} FunctionTool], model={model}, model_settings="
            f"ModelSettings(tool_choice={setting.spelled}" + (f", parallel_tool_calls={parallel}" if parallel is not None
                                                               else "") + ")), ...)")
    ledger = list(api.ledger)
    ledger.append(LedgerEntry("info", "dialect.call", f"described: {call}, each FunctionTool with the scenario tool's "
                              f"name, description and parameters (openai-agents {VERSION}; read {READ})"
                              + (f"; {setting.note}" if setting.note else "")))
    ledger.append(LedgerEntry("info", "dialect.route", f"{route.why}: {LITELLM_CHOICE}; {LITELLM_CALL}; "
                              f"{LITELLM_PARALLEL}"))
    hint = "; --drop-params shows what drop_params=True sends instead"
    ledger += [e._replace(message=e.message.replace(hint, "; LitellmModel passes drop_params=True given as "
                                                          "ModelSettings(extra_args={'drop_params': True}), and "
                                                          "--dialect litellm --drop-params shows that request")
                          .replace("litellm.completion(..., parallel_tool_calls=", "ModelSettings(parallel_tool_calls="))
               if e.code == "dialect.refused" else _agents_extra_fields(e) if e.code == "dialect.extra_fields" else e
               for e in view.translation.ledger[len(given.ledger):]]
    translation = view.translation._replace(ledger=ledger, requested_tool_choice=api.requested_tool_choice)
    if refusal is not None:
        ledger.append(LedgerEntry("error", "dialect.refused", f"openai-agents raises before sending, nothing is sent: "
                                                              f"{refusal} ({STRICT_SCHEMA})"))
        return AgentsView(Translation(api.provider, api.requested_tool_choice, None, None, ledger, ()), api, model,
                          call, routed)
    if unported is not None:
        ledger.append(LedgerEntry("info", "dialect.unchecked", f"strict tools: strict_json_schema=True runs each "
                                  f"schema through openai-agents' ensure_strict_json_schema, and {unported} is not "
                                  "described here: the schema is shown as written"))
    elif given is not api and translation.request is not None:
        ledger.append(LedgerEntry("info", "dialect.differs", "tools: FunctionTool(strict_json_schema=True) rewrites "
                                  "each strict tool's schema before LitellmModel hands it to LiteLLM (every object "
                                  "closed, every property required: an optional property becomes required, not "
                                  f"nullable) ({STRICT_SCHEMA})"))
    rule = LITELLM_ROUTES[api.provider].strict
    if translation.request is not None and rule is not None and rule.does == "kept" and scenario.tools:
        body = json.loads(json.dumps(translation.request.body))
        tools = get_path(body, LITELLM_ROUTES[api.provider].tools_path)
        for tool in tools if isinstance(tools, list) else []:
            if isinstance(tool.get("function"), dict):
                tool["function"].setdefault("strict", False)
        translation = translation._replace(request=translation.request._replace(body=body))
        ledger.append(LedgerEntry("info", "dialect.differs", "tools: LitellmModel gives each tool the Chat converter's "
                                  f"\"strict\": false where the tool is not strict ({CHAT_TOOLS}), and LiteLLM copies "
                                  f"it ({rule.source})"))
    if translation.request is not None and has_tools:
        _reset_note(ledger, scenario, value)
    return AgentsView(translation, api, model, call, routed)


# ---- providers.<id>.extra's tool choice (core/dialects.extra_choice) ------------------------------------------


def extra_route(view: AgentsView) -> tuple[bool | None, str]:
    """(whether ModelSettings(extra_body=extra) replaces the tool choice the SDK builds, how): the OpenAI client's
    merge for the Chat and Responses models, LiteLLM's extra_body for LitellmModel (run on the mock:
    tests/test_dialect_extra_choice.py)."""
    if view.route is not None:
        from .litellm_dialect import extra_route as litellm_route

        replaces, how = litellm_route(view)  # type: ignore[arg-type]  # reads view.api.provider only
        return replaces, f"ModelSettings(extra_body=extra): LitellmModel hands it to litellm.acompletion, where {how}"
    made = "OpenAIResponsesModel" if "Responses" in (view.model or "") else "OpenAIChatCompletionsModel"
    source = ("agents/models/openai_responses.py:1050" if made == "OpenAIResponsesModel" else
              "agents/models/openai_chatcompletions.py:713")
    return True, (f"ModelSettings(extra_body=extra): {made} passes it to the openai client ({source}: \"extra_body\": "
                  "model_settings.extra_body), which merges it over the body the SDK builds")
