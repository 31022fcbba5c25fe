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
from typing import Any, Callable, NamedTuple
from urllib.parse import unquote

from .core.model import LedgerEntry, Scenario, ToolChoice, Translation, compact

# The versions the recordings and the rules below describe (recorded 2026-11-26, the newest the package
# registry served that day; langchain-core 1.8.4 needs langchain-protocol>=0.0.22, which it did not serve).
# The recording of 2026-11-23 (langchain-core 1.7.2, langchain-openai 1.7.3, langchain-anthropic 1.7.7,
# langchain-google-genai 4.4.2, the others as below) sent and refused the same tool fields in all 702 cases.
VERSIONS: dict[str, str] = {
    "langchain-core": "1.8.3", "langchain-openai": "1.7.4", "langchain-anthropic": "1.7.10",
    "langchain-groq": "1.1.3", "langchain-mistralai": "1.1.6", "langchain-fireworks": "1.7.1",
    "langchain-ollama": "1.1.0", "langchain-huggingface": "1.2.3", "langchain-google-genai": "4.4.3",
    "langchain-deepseek": "1.1.1", "langchain-aws": "1.9.1",
}
RECORDED = "2026-11-26"


class Refusal(NamedTuple):
    """What a wrapper raises instead of sending: in ``bind_tools`` or while building the request."""

    step: str  # "bind_tools" | "invoke"
    error: str  # "ExceptionType: message", as the wrapper raises it


class Bound(NamedTuple):
    """What ``bind_tools(tools, tool_choice=value, parallel_tool_calls=parallel)`` is asked for."""

    value: Any  # the tool_choice argument (None: not passed)
    names: tuple[str, ...]  # the tools bound, in order
    parallel: bool | None
    model: str  # the model id the request names (Bedrock's support table reads it)
    first_tool: dict[str, Any]  # the first tool as an OpenAI chat tool (ChatHuggingFace sends it for True)
    thinking: bool = False  # the request turns Claude's thinking on (enabled or adaptive)


_ABSENT = object()  # a field the wrapper leaves out of the body
_WARNS = "#warns"  # in a rule's Fields: what the wrapper warns while it changes the request (not a body path)
# langchain-anthropic 1.7.10 (and 1.7.7) chat_models.py ChatAnthropic.bind_tools, with thinking of type enabled or
# adaptive and a tool_choice of type any or tool: `warnings.warn(...)` this text, then `del kwargs["tool_choice"]`.
ANTHROPIC_THINKING_DROP = ("tool_choice is forced but thinking is enabled. The Anthropic API does not support forced "
                           "tool use with thinking. Dropping tool_choice to avoid an API error. Tool calls are not "
                           "guaranteed. Consider disabling thinking or adjusting your prompt to ensure the tool is "
                           "called.")
Fields = dict[str, Any]  # dotted body path -> value (or _ABSENT)


def _named(name: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name}}


def _type_error(method: str, argument: str) -> Refusal:
    return Refusal("invoke", f"TypeError: {method}() got an unexpected keyword argument '{argument}'")


def _only_one_tool_for_true(b: Bound) -> Refusal | None:
    if b.value is True and len(b.names) > 1:
        return Refusal("bind_tools", "ValueError: tool_choice can only be True when there is one tool. "
                                     f"Received {len(b.names)} tools.")
    return None


# ---- per-wrapper rules: Bound -> the tool fields LangChain sends, or the refusal ---------------------


def _openai_choice(b: Bound) -> Any:
    """BaseChatOpenAI.bind_tools: a bound tool's name -> a named choice, "any" and True -> "required",
    other strings and dicts as given; False/None: not sent."""
    value = b.value
    if not value:
        return _ABSENT
    if isinstance(value, bool):
        return "required"
    if isinstance(value, str):
        return _named(value) if value in b.names else "required" if value == "any" else value
    return value


def _parallel_field(b: Bound) -> Any:
    return _ABSENT if b.parallel is None else b.parallel


def openai_chat(b: Bound) -> Fields | Refusal:
    return {"tool_choice": _openai_choice(b), "parallel_tool_calls": _parallel_field(b)}


def openai_responses(b: Bound) -> Fields | Refusal:
    """As chat; the payload builder flattens a named choice to {"type": "function", "name"}."""
    choice = _openai_choice(b)
    if isinstance(choice, dict) and choice.get("type") == "function" and "function" in choice:
        choice = {"type": "function", "name": choice["function"]["name"]}
    return {"tool_choice": choice, "parallel_tool_calls": _parallel_field(b)}


def anthropic(b: Bound) -> Fields | Refusal:
    """ChatAnthropic.bind_tools: "auto"/"any" -> {"type": X}; every other string is read as a tool
    name (so "none" and "required" force tools of those names); a dict is copied as is; True is
    refused. With thinking on, a choice of type any or tool is dropped with a warning (an OpenAI-style
    dict is not: its type is "function"). parallel_tool_calls becomes disable_parallel_tool_use
    inside tool_choice."""
    value = b.value
    if value is True:
        return Refusal("bind_tools", "ValueError: Unrecognized 'tool_choice' type tool_choice=True. "
                                     "Expected dict, str, or None.")
    choice: Any = _ABSENT
    fields: Fields = {}
    if isinstance(value, dict):
        choice = dict(value)
    elif isinstance(value, str) and value:
        choice = {"type": value} if value in ("any", "auto") else {"type": "tool", "name": value}
    if b.thinking and isinstance(choice, dict) and choice.get("type") in ("any", "tool"):
        choice, fields[_WARNS] = _ABSENT, ANTHROPIC_THINKING_DROP
    if b.parallel is not None:
        choice = {"type": "auto"} if choice is _ABSENT else choice
        choice["disable_parallel_tool_use"] = not b.parallel
    return {**fields, "tool_choice": choice}


def _true_names_the_one_tool(keywords: tuple[str, ...], aliases: dict[str, str]) -> Callable[[Bound], Fields | Refusal]:
    """The rule of ChatGroq's and ChatFireworks' bind_tools: aliases first, then strings other than
    ``keywords`` are tool names; True names the one tool (refused with more); parallel_tool_calls
    passes through to the body."""

    def rule(b: Bound) -> Fields | Refusal:
        refused = _only_one_tool_for_true(b)
        if refused:
            return refused
        value = b.value
        if not value:
            choice: Any = _ABSENT
        elif value is True:
            choice = _named(b.names[0])
        elif isinstance(value, str):
            value = aliases.get(value, value)
            choice = value if value in keywords else _named(value)
        else:
            choice = value
        return {"tool_choice": choice, "parallel_tool_calls": _parallel_field(b)}

    return rule


# ChatGroq: "any" -> "required". ChatFireworks: "any" as is, and "required" is read as a tool name.
groq = _true_names_the_one_tool(("auto", "none", "required"), {"any": "required"})
fireworks = _true_names_the_one_tool(("auto", "any", "none"), {})


def mistral(b: Bound) -> Fields | Refusal:
    """ChatMistralAI.bind_tools: a bound tool's name -> a named choice; anything else as given (True
    goes on the wire as true)."""
    value = b.value
    if not value:
        choice: Any = _ABSENT
    elif isinstance(value, str) and value in b.names:
        choice = _named(value)
    else:
        choice = value
    return {"tool_choice": choice, "parallel_tool_calls": _parallel_field(b)}


def ollama(b: Bound) -> Fields | Refusal:
    """ChatOllama.bind_tools accepts tool_choice and ignores it; parallel_tool_calls reaches
    ollama's Client.chat(), which does not take it."""
    if b.parallel is not None:
        return _type_error("Client.chat", "parallel_tool_calls")
    return {}


def huggingface(b: Bound) -> Fields | Refusal:
    """ChatHuggingFace.bind_tools: any tool_choice needs exactly one tool; strings other than
    auto/none/required are tool names; True sends the whole tool as tool_choice; parallel_tool_calls
    reaches InferenceClient.chat_completion(), which does not take it."""
    value = b.value
    choice: Any = _ABSENT
    if value:
        if len(b.names) != 1:
            return Refusal("bind_tools", "ValueError: When specifying `tool_choice`, you must provide exactly one "
                                         f"tool. Received {len(b.names)} tools.")
        if isinstance(value, bool):
            choice = b.first_tool
        elif isinstance(value, str):
            choice = value if value in ("auto", "none", "required") else _named(value)
        else:
            if value.get("function", {}).get("name") != b.names[0]:
                return Refusal("bind_tools", f"ValueError: Tool choice {value} was specified, but the only "
                                             f"provided tool was {b.names[0]}.")
            choice = value
    if b.parallel is not None:
        return _type_error("InferenceClient.chat_completion", "parallel_tool_calls")
    return {"tool_choice": choice}


def gemini(b: Bound) -> Fields | Refusal:
    """ChatGoogleGenerativeAI (_tool_choice_to_tool_config): "auto" -> AUTO, "none" -> NONE, "any",
    "required" and True -> ANY over every bound tool, a name -> ANY over that tool; an OpenAI-style
    dict is refused; parallel_tool_calls fails google-genai's GenerateContentConfig validation."""
    value = b.value
    config: Any = _ABSENT
    if value:
        if value is True or value in ("any", "required"):
            config = {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": list(b.names)}}
        elif value in ("auto", "none"):
            config = {"functionCallingConfig": {"mode": value.upper()}}
        elif isinstance(value, str):
            config = {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [value]}}
        else:
            return Refusal("invoke", f"ValueError: Unrecognized tool choice format:\n\ntool_choice={value!r}\n\n"
                                     "Should match Google GenerativeAI ToolConfig or FunctionCallingConfig format.")
    if b.parallel is not None:
        return Refusal("invoke", "ValidationError: 1 validation error for GenerateContentConfig\n"
                                 "parallel_tool_calls\n  Extra inputs are not permitted [type=extra_forbidden, "
                                 f"input_value={b.parallel}, input_type=bool]\n    For further information visit "
                                 "https://errors.pydantic.dev/2.14/v/extra_forbidden")
    return {"toolConfig": config}


# ChatBedrockConverse: which toolChoice types the wrapper lets through, by base model id (regional
# prefix removed), first match wins; langchain-aws 1.9.1 ChatBedrockConverse.validate_environment
# (the thinking-dependent downgrades are not described here).
_ALL = ("auto", "any", "tool")
BEDROCK_CHOICE_SUPPORT: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"claude-(fable-5-1|opus-5-5|sonnet-5-5)", ("auto",)),
    (r"claude", _ALL),
    (r"grok", _ALL),
    (r"^zai\.glm-5\.3", _ALL),
    (r"^zai\.glm-", ("auto", "any")),
    (r"^openai\.gpt-(?!.*gpt-oss)", _ALL),
    (r"llama4", ("auto",)),
    (r"llama3-[13]", ("auto",)),
    (r"llama3-2.*(11b|90b)", ("auto",)),
    (r"llama3", ()),
    (r"mistral-large", ("auto", "any")),
    (r"nova", _ALL),
    (r"^(?!.*r1-v1).*deepseek", ("auto", "any")),
)
_BEDROCK_REGIONS = ("eu.", "us.", "us-gov.", "apac.", "sa.", "amer.", "global.", "jp.", "au.")


def bedrock_choice_support(model: str) -> tuple[str, ...]:
    base = model.partition(".")[2] if model.startswith(_BEDROCK_REGIONS) else model
    return next((types for pattern, types in BEDROCK_CHOICE_SUPPORT if re.search(pattern, base)), ())


def bedrock(b: Bound) -> Fields | Refusal:
    """ChatBedrockConverse: "auto"/"any" -> {X: {}}, every other value -> {"tool": {"name": X}} (so
    "none" and "required" name tools, and True fails botocore's validation), a dict as is; a type the
    model id is not listed for is refused; parallel_tool_calls reaches _converse_params()."""
    value = b.value
    choice: Any = _ABSENT
    if value:
        if isinstance(value, dict):
            choice = value
        else:
            choice = {value: {}} if value in ("auto", "any") else {"tool": {"name": value}}
        kind = next(iter(choice))
        supported = bedrock_choice_support(b.model)
        base = b.model.partition(".")[2] if b.model.startswith(_BEDROCK_REGIONS) else b.model
        if kind not in supported:
            why = (f"Model {base} does not currently support tool_choice of type {kind}. The following tool_choice "
                   f"types are supported: {supported!r}." if supported
                   else f"Model {base} does not currently support tool_choice.")
            return Refusal("bind_tools", f"ValueError: {why} Please see https://docs.aws.amazon.com/bedrock/latest/"
                                         "APIReference/API_runtime_ToolChoice.html for the latest documentation on "
                                         "models that support tool choice.")
    if b.parallel is not None:
        return _type_error("ChatBedrockConverse._converse_params", "parallelToolCalls")
    if value is True:
        return Refusal("invoke", "ParamValidationError: Parameter validation failed:\nInvalid type for parameter "
                                 "toolConfig.toolChoice.tool.name, value: True, type: <class 'bool'>, valid types: "
                                 "<class 'str'>")
    return {"toolConfig.toolChoice": choice}


def _strict_key_omitted(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """langchain-openai builds Responses tools from chat tools and adds strict only when bind_tools
    was given strict: a non-strict tool goes without the key (the Responses API reads that as true)."""
    return [{k: v for k, v in t.items() if not (k == "strict" and v is False)} for t in tools]


def _upper_case_types(node: Any) -> Any:
    """google-genai's Schema sends type names upper-case (OBJECT, STRING)."""
    if isinstance(node, list):
        return [_upper_case_types(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {k: (v.upper() if k == "type" and isinstance(v, str) else _upper_case_types(v)) for k, v in node.items()}


def _gemini_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**t, "functionDeclarations": [{**d, "parameters": _upper_case_types(d["parameters"])}
                                           if "parameters" in d else d for d in t["functionDeclarations"]]}
            if "functionDeclarations" in t else t for t in tools]


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
    thinking_drops_forced: bool = False  # sends without a forced choice the API refuses with thinking on


class WrapperUrl(NamedTuple):
    """The wrapper's default endpoint where it is not the API request's: a URL that starts with ``api``
    (toolchoice's default, no base URL set) starts with ``langchain`` in the wrapper's request."""

    api: str
    langchain: str
    severity: str
    why: str  # the source: which package sets it, and what it means


_CHAT = ("tools", "tool_choice", "parallel_tool_calls")

# toolchoice provider id -> the LangChain chat model that talks to it
WRAPPERS: dict[str, Wrapper] = {
    "openai": Wrapper("ChatOpenAI", "langchain-openai", openai_chat, "tools", "tool_choice", _CHAT),
    "openai-responses": Wrapper("ChatOpenAI(use_responses_api=True)", "langchain-openai", openai_responses,
                                "tools", "tool_choice", _CHAT, _strict_key_omitted,
                                ("warning", "leaves out \"strict\": false, so the Responses API reads the tools as "
                                            "strict (an omitted strict means true); the API request opts out")),
    "anthropic": Wrapper("ChatAnthropic", "langchain-anthropic", anthropic, "tools", "tool_choice",
                         ("tools", "tool_choice"), thinking_drops_forced=True),
    "groq": Wrapper("ChatGroq", "langchain-groq", groq, "tools", "tool_choice", _CHAT),
    "mistral": Wrapper("ChatMistralAI", "langchain-mistralai", mistral, "tools", "tool_choice", _CHAT),
    "fireworks": Wrapper("ChatFireworks", "langchain-fireworks", fireworks, "tools", "tool_choice", _CHAT),
    "ollama": Wrapper("ChatOllama", "langchain-ollama", ollama, "tools", None, ("tools",),
                      url=WrapperUrl("http://localhost:11434/", "http://127.0.0.1:11434/", "info",
                                     "ChatOllama without base_url takes ollama-python's default host (ollama 0.6.3 "
                                     "_client.py _parse_host: 'http://127.0.0.1:11434')")),
    "huggingface": Wrapper("ChatHuggingFace", "langchain-huggingface", huggingface, "tools", "tool_choice", _CHAT),
    "gemini": Wrapper("ChatGoogleGenerativeAI", "langchain-google-genai", gemini, "tools",
                      "toolConfig.functionCallingConfig", ("tools", "toolConfig"), _gemini_tools,
                      ("info", "writes schema type names upper-case (google-genai's Schema enum: OBJECT, STRING), "
                               "the API request lower-case (JSON Schema); other schema keywords go through "
                               "langchain-google-genai's own conversion, which is not described here"),
                      WrapperUrl("https://generativelanguage.googleapis.com/v1beta/",
                                 "https://generativelanguage.googleapis.com/v1/", "warning",
                                 "google-genai 3.0 and later default the Gemini API to v1 (_api_client.py: "
                                 "GOOGLE_AI_API_DEFAULT_VERSION = 'v1'; 2.x sent v1beta) and ChatGoogleGenerativeAI "
                                 "passes api_version=None unless it is set; the API request posts to v1beta, where "
                                 "ai.google.dev documents the tool-calling fields")),
    "deepseek": Wrapper("ChatDeepSeek", "langchain-deepseek", openai_chat, "tools", "tool_choice", _CHAT,
                        url=WrapperUrl("https://api.deepseek.com/chat/", "https://api.deepseek.com/v1/chat/", "info",
                                       "langchain-deepseek chat_models.py: DEFAULT_API_BASE = "
                                       "'https://api.deepseek.com/v1'")),
    "bedrock": Wrapper("ChatBedrockConverse", "langchain-aws", bedrock, "toolConfig.tools",
                       "toolConfig.toolChoice", ("toolConfig.tools", "toolConfig.toolChoice")),
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


def _get(body: dict[str, Any], path: str) -> Any:
    node: Any = body
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return _ABSENT
        node = node[part]
    return node


def _set(body: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    node = body
    for part in parents:
        node = node.setdefault(part, {})
    if value is _ABSENT:
        node.pop(last, None)
    else:
        node[last] = value


def _shown(value: Any) -> str:
    return "(not sent)" if value is _ABSENT else compact(value)


def _tool_names(tools: Any) -> list[str]:
    names: list[str] = []
    for tool in tools if isinstance(tools, list) else []:
        inner = tool.get("function") or tool.get("toolSpec") or tool
        declared = tool.get("functionDeclarations", [inner])
        names += [d.get("name") for d in declared]
    return names


def _difference(wrapper: Wrapper, path: str, ours: Any, theirs: Any) -> LedgerEntry:
    """One dialect.differs entry; tool lists are named, not dumped."""
    if path != wrapper.tools_path:
        return LedgerEntry("warning", "dialect.differs",
                           f"{path}: {wrapper.name} sends {_shown(theirs)}; the API request sends {_shown(ours)}")
    sent, api_sent = _tool_names(theirs), _tool_names(ours)
    if sent != api_sent:
        return LedgerEntry("warning", "dialect.differs",
                           f"{path}: {wrapper.name} sends {', '.join(sent) or 'no tools'}; the API request sends "
                           f"{', '.join(api_sent) or 'no tools'} (LangChain binds every tool whatever the choice)")
    severity, note = wrapper.tools_note or ("warning", "writes the tool declarations differently")
    return LedgerEntry(severity, "dialect.differs", f"{path}: {wrapper.name} {note}")  # type: ignore[arg-type]


class DialectView(NamedTuple):
    """One provider under --dialect langchain: LangChain's request (``translation``) and the API one."""

    translation: Translation  # request: what the wrapper sends (None when it refuses); ledger: API + dialect
    api: Translation
    wrapper: str | None
    call: str | None  # the bind_tools call described

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


def _all_tools(api: Translation, scenario: Scenario, wrapper: Wrapper) -> list[dict[str, Any]]:
    """Every scenario tool in the provider's API format: LangChain binds them all, whatever the choice."""
    assert api.request is not None
    tools = _get(api.request.body, wrapper.tools_path)
    if set(api.offered_tools) != set(scenario.tool_names) or tools is _ABSENT:
        from .core.registry import translate

        auto = scenario._replace(tool_choice=ToolChoice("auto", spelling="auto"), parallel_tool_calls=None)
        full = translate(api.provider, auto)
        tools = _get(full.request.body, wrapper.tools_path) if full.request else _ABSENT
    return [] if tools is _ABSENT else list(tools)


def _unforced(api: Translation, scenario: Scenario, wrapper: Wrapper) -> Translation:
    """A refused API translation whose only fault is a forced choice with Claude's thinking, for a wrapper
    that drops that choice and sends: the request toolchoice builds for tool_choice auto (the scenario's
    settings and model; a --model or --base-url given on the command line is not seen here). Else ``api``."""
    errors = {e.code for e in api.ledger if e.severity == "error"}
    if not wrapper.thinking_drops_forced or errors != {"thinking.forced_choice"}:
        return api
    from .core.registry import translate

    unforced = translate(api.provider, scenario._replace(tool_choice=ToolChoice("auto", spelling="auto")))
    return unforced if unforced.request is not None else api


def apply(api: Translation, scenario: Scenario) -> DialectView:
    """The API translation for one provider, redone as LangChain's wrapper would send it."""
    wrapper = WRAPPERS.get(api.provider)
    ledger = list(api.ledger)

    def keep(code: str, message: str, severity: str = "info") -> DialectView:
        ledger.append(LedgerEntry(severity, code, message))  # type: ignore[arg-type]
        return DialectView(api._replace(ledger=ledger), api, wrapper.name if wrapper else None, None)

    if wrapper is None:
        return keep("dialect.no_wrapper", f"no LangChain wrapper is described for {api.provider}; "
                                          "the API request is shown")
    base = _unforced(api, scenario, wrapper) if api.request is None else api
    if base.request is None:
        return keep("dialect.api_refused", f"toolchoice refuses the API request, so {wrapper.name}'s is not "
                                           "described")
    value, note = bind_tools_value(scenario.tool_choice)
    if scenario.tool_choice is not None and scenario.tool_choice.mode == "allowed":
        return keep("dialect.no_spelling", f"{note}: {wrapper.name}'s request is not described; the API "
                                           "request is shown", "warning")
    if not scenario.tools:
        return keep("dialect.no_tools", f"no tools, so no {wrapper.name}.bind_tools call: the API request is shown")
    tools = _all_tools(base, scenario, wrapper)
    chat_tools = [{"type": "function", "function": {"name": t.name, **({"description": t.description}
                   if t.description is not None else {}), "parameters": t.schema()}} for t in scenario.tools]
    thinking = _get(base.request.body, "thinking.type") in ("enabled", "adaptive")
    bound = Bound(value, scenario.tool_names, scenario.parallel_tool_calls, _model_of(base),
                  chat_tools[0] if chat_tools else {}, thinking)
    arguments = ["tools"] + ([f"tool_choice={_python(value)}"] if value is not None else []) + (
        [f"parallel_tool_calls={bound.parallel}"] if bound.parallel is not None else [])
    call = f"{wrapper.name}.bind_tools({', '.join(arguments)})"
    versions = f"{wrapper.distribution} {VERSIONS[wrapper.distribution]}"
    ledger.append(LedgerEntry("info", "dialect.call", f"described: {call} with the scenario's "
                              f"{len(scenario.tools)} tool(s) as OpenAI-format dicts ({versions}, "
                              f"langchain-core {VERSIONS['langchain-core']})" + (f"; {note}" if note else "")
                              + ("; strict tools (bind_tools(strict=True)) are not described: their declarations "
                                 "are the API request's" if any(map(scenario.tool_is_strict, scenario.tools)) else "")))
    outcome = wrapper.rule(bound)
    if isinstance(outcome, Refusal):
        error = " ".join(outcome.error.split())
        ledger.append(LedgerEntry("error", "dialect.refused",
                                  f"{wrapper.name} raises in {outcome.step}, nothing is sent: {error}"))
        refused = Translation(api.provider, api.requested_tool_choice, None, None, ledger, ())
        return DialectView(refused, api, wrapper.name, call)
    warned = outcome.pop(_WARNS, None)
    if warned is not None:
        ledger.append(LedgerEntry("warning", "dialect.warns", f"{wrapper.name}.bind_tools warns and drops "
                                  f"tool_choice={_python(value)}: {warned}"))
    body = json.loads(json.dumps(base.request.body))  # a deep copy; JSON data only
    for path in wrapper.fields:
        _set(body, path, _ABSENT)
    if tools:
        _set(body, wrapper.tools_path, wrapper.tools(tools))
    for path, field in outcome.items():
        _set(body, path, field)
    for path in wrapper.fields:
        ours, theirs = _get(base.request.body, path), _get(body, path)
        if ours != theirs and (base is api or path == wrapper.tools_path):
            ledger.append(_difference(wrapper, path, ours, theirs))
    if base is not api:
        ledger.append(LedgerEntry("warning", "dialect.differs", f"tool_choice: toolchoice refuses the API request "
                                  f"(thinking.forced_choice); {wrapper.name} sends "
                                  f"{_shown(_get(body, wrapper.choice_path or ''))} instead"))
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
    effective = _get(body, wrapper.choice_path) if wrapper.choice_path else _ABSENT
    translation = base._replace(requested_tool_choice=api.requested_tool_choice,
                                effective_tool_choice=None if effective is _ABSENT else effective,
                                request=base.request._replace(body=body, url=url), ledger=ledger,
                               offered_tools=scenario.tool_names if tools else ())
    return DialectView(translation, api, wrapper.name, call)
