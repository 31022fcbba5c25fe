"""`--dialect langchain`: what LangChain's partner packages put on the wire for the same tools,
tool_choice and parallel_tool_calls, next to the API-correct request toolchoice builds.

Everything here is data read off one set of package versions (``VERSIONS``) by running the wrappers
offline with their HTTP sends intercepted (``tests/dialect/record_langchain.py``; the recordings,
``tests/data/langchain/*.json``, are what the tests hold this module to) and by reading each
wrapper's ``bind_tools`` and request building. The user is assumed to call
``Chat...(...).bind_tools(tools, tool_choice=X[, parallel_tool_calls=P])`` with the scenario's tools
as OpenAI-format dicts; X is the scenario's tool_choice in LangChain's spelling (``bind_tools_value``).

Only the tool fields of the API request change (``tools``, ``tool_choice``, ``parallel_tool_calls``,
Gemini's ``toolConfig``, Bedrock's ``toolConfig``), and the URL where the wrapper's default endpoint is
not the API request's (``WrapperUrl``); everything else in the body stays as the API request has it. Each field that differs is a ``dialect.differs`` warning; what a wrapper raises
instead of sending is a ``dialect.refused`` error with the wrapper's own message, and no request.
Imported only with ``--dialect langchain``.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Mapping, NamedTuple
from urllib.parse import unquote

from .core.model import LedgerEntry, Scenario, ToolChoice, Translation, compact
from .dialect_fields import ABSENT, get_path, set_path
from .langchain_rules import (_WARNS, Bound, Fields, Refusal, _gemini_tools, _named, _ollama_tools, _strict_at,
                              _strict_key_omitted, anthropic, bedrock, fireworks, gemini, groq, huggingface, mistral,
                              ollama, openai_chat, openai_responses)

# The versions the recordings and the rules describe (recorded 2026-11-26, the newest the package registry served
# that day; langchain-core 1.8.4 installed over langchain-protocol 0.0.20, as it asks for >=0.0.22, which the registry
# does not serve; its recording matched the 1.8.3 one in every case).
# The recording of 2026-11-23 (langchain-core 1.7.2, langchain-openai 1.7.3, langchain-anthropic 1.7.7,
# langchain-google-genai 4.4.2, the others as below) sent and refused the same tool fields in all 702 cases.
VERSIONS: dict[str, str] = {
    "langchain-core": "1.8.4", "langchain-openai": "1.7.4", "langchain-anthropic": "1.7.10",
    "langchain-groq": "1.1.3", "langchain-mistralai": "1.1.6", "langchain-fireworks": "1.7.1",
    "langchain-ollama": "1.1.0", "langchain-huggingface": "1.2.3", "langchain-google-genai": "4.4.3",
    "langchain-deepseek": "1.1.1", "langchain-aws": "1.9.1",
}
RECORDED = "2026-11-26"


class Wrapper(NamedTuple):
    name: str
    distribution: str
    rule: Callable[[Bound], "Fields | Refusal"]
    tools_path: str  # where the tool list sits in the body
    choice_path: str | None  # where tool_choice sits (None: the wire has none)
    fields: tuple[str, ...]  # the body paths compared with the API request
    tools: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] = list  # API tools -> LangChain's
    tools_note: tuple[str, str] | None = None  # (severity, what the tools transform changes)
    url: "WrapperUrl | None" = None  # where the wrapper posts when the API request goes to the default endpoint
    thinking_drops_forced: bool = False  # may send without a forced choice the API refuses with thinking on
    # bind_tools(strict=S) on {name, description, parameters} dicts: how the declarations carry it (None: they do
    # not; langchain-core's convert_to_openai_tool or the wrapper's own conversion leaves strict out)
    strict: "Callable[[list[dict[str, Any]], bool], list[dict[str, Any]]] | None" = None
    strict_url: "WrapperUrl | None" = None  # where the wrapper posts with strict=True, from its default endpoint


class WrapperUrl(NamedTuple):
    """The wrapper's default endpoint where it is not the API request's: a URL that starts with ``api``
    (toolchoice's default, no base URL set) starts with ``langchain`` in the wrapper's request."""

    api: str
    langchain: str
    severity: str
    why: str  # the source: which package sets it, and what it means


_CHAT = ("tools", "tool_choice", "parallel_tool_calls")
_CHAT_STRICT = _strict_at("function.strict", "function.parameters")

# toolchoice provider id -> the LangChain chat model that talks to it
WRAPPERS: dict[str, Wrapper] = {
    "openai": Wrapper("ChatOpenAI", "langchain-openai", openai_chat, "tools", "tool_choice", _CHAT,
                      strict=_CHAT_STRICT),
    "openai-responses": Wrapper("ChatOpenAI(use_responses_api=True)", "langchain-openai", openai_responses,
                                "tools", "tool_choice", _CHAT, _strict_key_omitted,
                                ("warning", "leaves out \"strict\": false, so the Responses API reads the tools as "
                                            "strict (an omitted strict means true); the API request opts out"),
                                strict=_strict_at("strict", "parameters")),
    "anthropic": Wrapper("ChatAnthropic", "langchain-anthropic", anthropic, "tools", "tool_choice",
                         ("tools", "tool_choice"), thinking_drops_forced=True,
                         strict=_strict_at("strict", "input_schema")),
    "groq": Wrapper("ChatGroq", "langchain-groq", groq, "tools", "tool_choice", _CHAT),
    "mistral": Wrapper("ChatMistralAI", "langchain-mistralai", mistral, "tools", "tool_choice", _CHAT + ("strict",)),
    "fireworks": Wrapper("ChatFireworks", "langchain-fireworks", fireworks, "tools", "tool_choice", _CHAT,
                         strict=_CHAT_STRICT),
    "ollama": Wrapper("ChatOllama", "langchain-ollama", ollama, "tools", None, ("tools",), _ollama_tools,
                      ("warning", "sends the tools through ollama-python's Tool model (0.6.3 _types.py: a property "
                                  "keeps only type, items, description and enum), so its other schema keywords "
                                  "(anyOf, format, default, ...) are dropped"),
                      url=WrapperUrl("http://localhost:11434/", "http://127.0.0.1:11434/", "info",
                                     "ChatOllama without base_url takes ollama-python's default host (ollama 0.6.3 "
                                     "_client.py _parse_host: 'http://127.0.0.1:11434')")),
    "huggingface": Wrapper("ChatHuggingFace", "langchain-huggingface", huggingface, "tools", "tool_choice", _CHAT),
    "gemini": Wrapper("ChatGoogleGenerativeAI", "langchain-google-genai", gemini, "tools",
                      "toolConfig.functionCallingConfig", ("tools", "toolConfig"), _gemini_tools,
                      ("info", "writes schema type names upper-case (google-genai's Schema enum: OBJECT, STRING) "
                               "and anyOf as any_of, the API request JSON Schema's spelling; other schema keywords "
                               "go through langchain-google-genai's own conversion, which is not described here"),
                      WrapperUrl("https://generativelanguage.googleapis.com/v1beta/",
                                 "https://generativelanguage.googleapis.com/v1/", "warning",
                                 "google-genai 3.0 and later default the Gemini API to v1 (_api_client.py: "
                                 "GOOGLE_AI_API_DEFAULT_VERSION = 'v1'; 2.x sent v1beta) and ChatGoogleGenerativeAI "
                                 "passes api_version=None unless it is set; the API request posts to v1beta, where "
                                 "ai.google.dev documents the tool-calling fields")),
    "deepseek": Wrapper("ChatDeepSeek", "langchain-deepseek", openai_chat, "tools", "tool_choice", _CHAT,
                        url=WrapperUrl("https://api.deepseek.com/chat/", "https://api.deepseek.com/v1/chat/", "info",
                                       "langchain-deepseek chat_models.py: DEFAULT_API_BASE = "
                                       "'https://api.deepseek.com/v1'"),
                        strict=_CHAT_STRICT,
                        strict_url=WrapperUrl("https://api.deepseek.com/v1/", "https://api.deepseek.com/beta/", "info",
                                              "langchain-deepseek ChatDeepSeek.bind_tools: strict=True switches to "
                                              "the beta endpoint, where DeepSeek serves strict tools")),
    "bedrock": Wrapper("ChatBedrockConverse", "langchain-aws", bedrock, "toolConfig.tools",
                       "toolConfig.toolChoice", ("toolConfig.tools", "toolConfig.toolChoice"),
                       thinking_drops_forced=True, strict=_strict_at("toolSpec.strict", "toolSpec.inputSchema.json")),
}


# ---- the scenario in LangChain's spelling ------------------------------------------------------------

_ANY_SPELLINGS = {"any", "ANY", '{"type":"any"}', '{"any":{}}'}


def bind_tools_value(choice: ToolChoice | None) -> tuple[Any, str | None]:
    """The tool_choice argument a LangChain user writes for the scenario's choice, and a note when
    the scenario's spelling has no LangChain equivalent and a neighbour was assumed. An allowed-tools
    subset has no bind_tools spelling: (None, note) with ``choice.mode == "allowed"``."""
    if choice is None:
        return None, None
    spelled = choice.spelling
    if choice.mode == "allowed":
        return None, "an allowed-tools subset has no bind_tools tool_choice spelling"
    if choice.mode == "required":
        if spelled == "true":
            return True, None
        value = "any" if spelled in _ANY_SPELLINGS else "required"
        return value, None if spelled in ("any", "required") else f"{spelled} written as {value!r}"
    if choice.mode == "named":
        if spelled == choice.name:
            return choice.name, None
        openai_dict = _named(choice.name)
        if spelled == json.dumps(openai_dict, separators=(",", ":")):
            return openai_dict, None
        return choice.name, f"{spelled} written as the tool name {choice.name!r}"
    return choice.mode, None if spelled == choice.mode else f"{spelled} written as {choice.mode!r}"


def _python(value: Any) -> str:
    return repr(value) if not isinstance(value, dict) else json.dumps(value, separators=(", ", ": "))


def _shown(value: Any) -> str:
    return "(not sent)" if value is ABSENT else compact(value)


def _tool_names(tools: Any) -> list[str]:
    names: list[str] = []
    for tool in tools if isinstance(tools, list) else []:
        inner = tool.get("function") or tool.get("toolSpec") or tool
        declared = tool.get("functionDeclarations", [inner])
        names += [d.get("name") for d in declared]
    return names


_FUNCTION_DICTS = ("{name, description, parameters} dicts (with strict given: langchain-core's convert_to_openai_tool "
                   "returns an OpenAI-format {type: function} dict unchanged, so strict would not reach it)")


def _forced_name(choice: Any) -> str | None:
    """The tool a wire tool_choice forces by name (Anthropic's {type: tool, name}, Bedrock's {tool: {name}}, the
    OpenAI form's {type: function, function: {name}}), else None."""
    if not isinstance(choice, dict):
        return None
    inner = choice.get("function") if choice.get("type") == "function" else choice.get("tool")
    name = choice.get("name") if choice.get("type") == "tool" else inner.get("name") if isinstance(inner, dict) else None
    return name if isinstance(name, str) else None


def _difference(wrapper: Wrapper, path: str, ours: Any, theirs: Any, strict: bool | None = None,
                offered: tuple[str, ...] = ()) -> LedgerEntry:
    """One dialect.differs entry; tool lists are named, not dumped. ``offered``: the tools the wrapper's request
    declares (ChatAnthropic's tool_choice='required' forces a tool called required, which none is)."""
    if path != wrapper.tools_path:
        named = _forced_name(theirs) if path == wrapper.choice_path else None
        undeclared = (f": a tool called '{named}', which the request does not declare"
                      if named is not None and named not in offered else "")
        return LedgerEntry("warning", "dialect.differs", f"{path}: {wrapper.name} sends {_shown(theirs)}{undeclared}; "
                                                         f"the API request sends {_shown(ours)}")
    sent, api_sent = _tool_names(theirs), _tool_names(ours)
    if sent != api_sent:
        return LedgerEntry("warning", "dialect.differs",
                           f"{path}: {wrapper.name} sends {', '.join(sent) or 'no tools'}; the API request sends "
                           f"{', '.join(api_sent) or 'no tools'} (LangChain binds every tool whatever the choice)")
    if strict is not None and wrapper.strict is None:
        return LedgerEntry("warning", "dialect.differs", f"{path}: {wrapper.name}.bind_tools(strict={strict}) leaves "
                                                         "strict out of the declarations; the API request sends them "
                                                         "as asked")
    if strict:
        return LedgerEntry("warning", "dialect.differs", f"{path}: {wrapper.name} sends strict: true with LangChain's "
                                                         "strict schema (every property required, additionalProperties "
                                                         "false; optional ones are not made nullable); the API request "
                                                         "keeps the schema as written")
    severity, note = wrapper.tools_note or ("warning", "writes the tool declarations differently")
    return LedgerEntry(severity, "dialect.differs", f"{path}: {wrapper.name} {note}")  # type: ignore[arg-type]


class DialectView(NamedTuple):
    """One provider under --dialect langchain: LangChain's request (``translation``) and the API one."""

    translation: Translation  # request: what the wrapper sends (None when it refuses); ledger: API + dialect
    api: Translation
    wrapper: str | None
    call: str | None  # the bind_tools call described

    @property
    def label(self) -> str | None:
        return self.wrapper

    def to_json(self) -> dict[str, Any]:
        data = self.translation.to_json()
        data["dialect"] = "langchain"
        data["wrapper"] = self.wrapper
        data["bind_tools"] = self.call
        data["api"] = {"effective_tool_choice": self.api.effective_tool_choice,
                       "request": self.api.request.to_json() if self.api.request else None,
                       "offered_tools": list(self.api.offered_tools)}
        return data


def _model_of(api: Translation) -> str:
    """The model id the API request names (Bedrock: in the path; others: the body's model)."""
    assert api.request is not None
    match = re.search(r"/model/([^/]+)/", api.request.url)
    return unquote(match.group(1)) if match else str(api.request.body.get("model", ""))


def bind_tools_strict(scenario: Scenario) -> tuple[bool | None, str | None]:
    """The strict argument for the scenario: the top-level ``strict``, or the one value every function tool
    sets; (None, note) when the tools differ (bind_tools(strict=...) applies to every tool), (None, None) when
    nothing is set."""
    functions = [t for t in scenario.tools if t.kind == "function"]
    own = {t.strict for t in functions if t.strict is not None}
    if not own:
        return scenario.strict, None
    values = {scenario.tool_is_strict(t) for t in functions}
    if len(values) > 1:
        return None, "tools that differ in strict have no bind_tools spelling (strict=... applies to every tool)"
    return values.pop(), None


def _without_strict(scenario: Scenario) -> Scenario:
    return scenario._replace(strict=None, tools=tuple(t._replace(strict=None) for t in scenario.tools))


def _all_tools(api: Translation, scenario: Scenario, wrapper: Wrapper, strict: bool | None) -> list[dict[str, Any]]:
    """Every scenario tool in the provider's API format: LangChain binds them all, whatever the choice; with
    strict given, as declared without it (the wrapper's own strict spelling goes on top)."""
    assert api.request is not None
    tools = get_path(api.request.body, wrapper.tools_path)
    if set(api.offered_tools) != set(scenario.tool_names) or tools is ABSENT or strict is not None:
        from .core.registry import translate

        auto = scenario._replace(tool_choice=ToolChoice("auto", spelling="auto"), parallel_tool_calls=None)
        full = translate(api.provider, auto if strict is None else _without_strict(auto))
        tools = get_path(full.request.body, wrapper.tools_path) if full.request else ABSENT
    return [] if tools is ABSENT else list(tools)


def _langchain_base(api: Translation, scenario: Scenario, wrapper: Wrapper, strict: bool | None) -> Translation:
    """A refused API translation whose only faults the wrapper does not carry, rebuilt without them: a forced
    choice with Claude's thinking, for a wrapper that drops or downgrades it (built for tool_choice auto); a schema
    the API refuses as strict, when bind_tools(strict=...) gives the wrapper's own strict schema (built without
    strict). The scenario's settings and model are used; a --model or --base-url given on the command line is not
    seen here. Else ``api``."""
    errors = {e.code for e in api.ledger if e.severity == "error"}
    carried = ({"thinking.forced_choice"} if wrapper.thinking_drops_forced else set()) | (
        {"schema.strict_invalid"} if strict is not None else set())
    if api.request is not None or not errors or not errors <= carried:
        return api
    from .core.registry import translate

    rebuilt = scenario
    if "thinking.forced_choice" in errors:
        rebuilt = rebuilt._replace(tool_choice=ToolChoice("auto", spelling="auto"))
    if "schema.strict_invalid" in errors:
        rebuilt = _without_strict(rebuilt)
    base = translate(api.provider, rebuilt)
    return base if base.request is not None else api


def apply(api: Translation, scenario: Scenario, settings: Mapping[str, Any] | None = None,
          rebuild: Any = None) -> DialectView:
    """The API translation for one provider, redone as LangChain's wrapper would send it (``settings``: none are
    taken, core/dialects.py checks that none is given; ``rebuild`` is not used: a rebuilt request takes the
    scenario's settings, as docs/langchain.md says)."""
    wrapper = WRAPPERS.get(api.provider)
    ledger = list(api.ledger)

    def keep(code: str, message: str, severity: str = "info") -> DialectView:
        ledger.append(LedgerEntry(severity, code, message))  # type: ignore[arg-type]
        return DialectView(api._replace(ledger=ledger), api, wrapper.name if wrapper else None, None)

    if wrapper is None:
        return keep("dialect.no_wrapper", f"no LangChain wrapper is described for {api.provider}; "
                                          "the API request is shown")
    strict, strict_note = bind_tools_strict(scenario)
    base = _langchain_base(api, scenario, wrapper, strict)
    if base.request is None:
        return keep("dialect.api_refused", f"toolchoice refuses the API request, so {wrapper.name}'s is not "
                                           "described")
    value, note = bind_tools_value(scenario.tool_choice)
    if scenario.tool_choice is not None and scenario.tool_choice.mode == "allowed":
        return keep("dialect.no_spelling", f"{note}: {wrapper.name}'s request is not described; the API "
                                           "request is shown (bind_tools narrows by the tools it is passed: to see "
                                           "its request, list only the allowed tools and use tool_choice: required)",
                    "warning")
    if strict_note is not None:
        return keep("dialect.no_spelling", f"{strict_note}: {wrapper.name}'s request is not described; the API "
                                           "request is shown (to see it, give every tool the same strict:)",
                    "warning")
    if not scenario.tools:
        return keep("dialect.no_tools", f"no tools, so no {wrapper.name}.bind_tools call: the API request is shown")
    tools = _all_tools(base, scenario, wrapper, strict)
    chat_tools = [{"type": "function", "function": {"name": t.name, **({"description": t.description}
                   if t.description is not None else {}), "parameters": t.schema()}} for t in scenario.tools]
    thinking = get_path(base.request.body, "thinking.type") in ("enabled", "adaptive")
    model_fields = get_path(base.request.body, "additionalModelRequestFields")
    bound = Bound(value, scenario.tool_names, scenario.parallel_tool_calls, _model_of(base),
                  chat_tools[0] if chat_tools else {}, thinking, model_fields if isinstance(model_fields, dict) else {},
                  strict)
    arguments = ["tools"] + ([f"tool_choice={_python(value)}"] if value is not None else []) + (
        [f"parallel_tool_calls={bound.parallel}"] if bound.parallel is not None else []) + (
        [f"strict={strict}"] if strict is not None else [])
    call = f"{wrapper.name}.bind_tools({', '.join(arguments)})"
    versions = f"{wrapper.distribution} {VERSIONS[wrapper.distribution]}"
    ledger.append(LedgerEntry("info", "dialect.call", f"described: {call} with the scenario's "
                              f"{len(scenario.tools)} tool(s) as " + (_FUNCTION_DICTS if strict is not None else
                                                                      "OpenAI-format dicts")
                              + f" ({versions}, langchain-core {VERSIONS['langchain-core']})"
                              + (f"; {note}" if note else "")))
    outcome = wrapper.rule(bound)
    warned = outcome.warned if isinstance(outcome, Refusal) else outcome.pop(_WARNS, None)
    if warned is not None:
        ledger.append(LedgerEntry("warning", "dialect.warns", f"{wrapper.name}.bind_tools(tool_choice="
                                  f"{_python(value)}) warns and changes the choice: {warned}"))
    if isinstance(outcome, Refusal):
        error = " ".join(outcome.error.split())
        # the scenario's parallel_tool_calls alone refused (a call that does not pass it is sent): said, as the
        # way out, since the scenario's key is the bind_tools argument
        alone = bound.parallel is not None and not isinstance(wrapper.rule(bound._replace(parallel=None)), Refusal)
        way_out = (f" (the scenario's parallel_tool_calls is passed as bind_tools(..., parallel_tool_calls="
                   f"{bound.parallel}): where your call does not pass it, leave it out of the scenario and the request "
                   "is sent)" if alone else "")
        ledger.append(LedgerEntry("error", "dialect.refused",
                                  f"{wrapper.name} raises in {outcome.step}, nothing is sent{way_out}: {error}"))
        refused = Translation(api.provider, api.requested_tool_choice, None, None, ledger, ())
        return DialectView(refused, api, wrapper.name, call)
    body = json.loads(json.dumps(base.request.body))  # a deep copy; JSON data only
    for path in wrapper.fields:
        set_path(body, path, ABSENT)
    if tools:
        declared = wrapper.tools(tools)
        set_path(body, wrapper.tools_path, wrapper.strict(declared, strict) if wrapper.strict and strict is not None
             else declared)
    for path, field in outcome.items():
        set_path(body, path, field)
    for path in wrapper.fields:
        ours, theirs = get_path(base.request.body, path), get_path(body, path)
        if ours != theirs and (base is api or path == wrapper.tools_path):
            ledger.append(_difference(wrapper, path, ours, theirs, strict,
                                      tuple(_tool_names(get_path(body, wrapper.tools_path)))))
    if base is not api:
        faults = ", ".join(sorted({e.code for e in api.ledger if e.severity == "error"}))
        ledger.append(LedgerEntry("warning", "dialect.differs", f"toolchoice refuses the API request ({faults}); "
                                  f"{wrapper.name} sends its request anyway, with tool_choice "
                                  f"{_shown(get_path(body, wrapper.choice_path or ''))}"))
    if wrapper.choice_path is None and value not in (None, "auto"):  # no choice on the wire means auto
        ledger.append(LedgerEntry("warning", "dialect.differs",
                                  f"tool_choice: {wrapper.name}.bind_tools takes tool_choice={_python(value)} and "
                                  "drops it; nothing in its request asks for (or rules out) a tool call"))
    url = base.request.url
    if wrapper.url is not None and url.startswith(wrapper.url.api):
        url = wrapper.url.langchain + url[len(wrapper.url.api):]
        ledger.append(LedgerEntry(wrapper.url.severity, "dialect.differs",  # type: ignore[arg-type]
                                  f"url: {wrapper.name} posts to {url}; the API request to {base.request.url} "
                                  f"({wrapper.url.why})"))
    moved = wrapper.strict_url
    if strict and moved is not None and url.startswith(moved.api):
        url = moved.langchain + url[len(moved.api):]
        ledger.append(LedgerEntry(moved.severity, "dialect.differs",  # type: ignore[arg-type]
                                  f"url: {wrapper.name} with strict=True posts to {url} ({moved.why})"))
    effective = get_path(body, wrapper.choice_path) if wrapper.choice_path else ABSENT
    translation = base._replace(requested_tool_choice=api.requested_tool_choice,
                                effective_tool_choice=None if effective is ABSENT else effective,
                                request=base.request._replace(body=body, url=url), ledger=ledger,
                               offered_tools=scenario.tool_names if tools else ())
    return DialectView(translation, api, wrapper.name, call)


# ---- providers.<id>.extra's tool choice (core/dialects.extra_choice) ------------------------------------------

_OPENAI_MERGE = ("the openai client merges extra_body over the body the wrapper builds (openai 3.57.0 _base_client.py:"
                 "618 json_data = _merge_mappings(json_data, options.extra_json))")
# provider -> how a LangChain user passes extra so that it reaches the wire as written: run with the real wrapper on
# the mock (tests/test_dialect_extra_choice.py) for ChatOpenAI on OpenAI Chat and ChatAnthropic
EXTRA_BODY: dict[str, str] = {
    "openai": f"ChatOpenAI(extra_body=extra): {_OPENAI_MERGE}",
    "openai-responses": f"ChatOpenAI(use_responses_api=True, extra_body=extra): {_OPENAI_MERGE}",
    "deepseek": f"ChatDeepSeek(extra_body=extra): {_OPENAI_MERGE}",
    "anthropic": "ChatAnthropic(model_kwargs={'extra_body': extra}): the anthropic client merges extra_body over the "
                 "body the wrapper builds (anthropic 2.14.0 _base_client.py, as openai's)",
}


def extra_route(view: DialectView) -> tuple[bool | None, str]:
    """(whether the wrapper's way of passing ``providers.<id>.extra`` replaces the tool choice it builds, how)."""
    provider = view.api.provider
    if provider in EXTRA_BODY:
        return True, EXTRA_BODY[provider]
    return None, f"{view.wrapper or 'the wrapper'}'s way of passing extra is not described"
