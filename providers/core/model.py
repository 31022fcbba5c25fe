"""Plain data that flows through toolchoice: scenario in, request + ledger out, reply back.

Every record is an immutable ``NamedTuple`` (change one with ``._replace``); containers have a ``to_json`` that yields
JSON-ready data. No I/O, no third-party imports: this module is on `render`'s start-up path. NamedTuple rather than
frozen dataclasses because building the classes is what this module's import costs: 5.8 ms as frozen dataclasses, 1.5 ms
as NamedTuples (CPython 3.11), and their instances are created about twice as fast. No ``from __future__ import
annotations`` here (nor in the other modules on that path that define NamedTuples): typing.NamedTuple checks every
field's annotation, and a string one becomes a ForwardRef, compiled (~15 µs a field: half this module's import); the
forward references are quoted.
"""

from types import MappingProxyType
from typing import Any, Literal, Mapping, NamedTuple

# the errors live in errors.py; handed on here, where most of the code imports them from
from .errors import BadReply, MissingKey, ToolchoiceError, WrongArgument  # noqa: F401
from .errors import Named

Severity = Literal["info", "warning", "error"]
ChoiceMode = Literal["auto", "none", "required", "named", "allowed"]
Role = Literal["user", "assistant", "tool"]

_EMPTY: Mapping[str, Any] = MappingProxyType({})  # the shared, read-only default for mapping fields


ToolKind = Literal["function", "custom"]


# Newer per-tool fields (each provider module's TOOL_FIELDS) and the JSON type each must have
TOOL_FIELD_TYPES: dict[str, tuple[type, ...]] = {"input_examples": (list,), "defer_loading": (bool,),
                                                 "eager_input_streaming": (bool,), "cache_control": (dict,),
                                                 "output_schema": (dict,), "allowed_callers": (list,),
                                                 "async": (bool,), "behavior": (str,), "response": (dict,),
                                                 "response_json_schema": (dict,)}
# The per-tool fields some family's custom (free-text) tool type has (each module's CUSTOM_TOOL_FIELDS; a test holds
# this to their union): a scenario's custom tool takes these beside name, description and format.
CUSTOM_TOOL_FIELDS: tuple[str, ...] = ("allowed_callers", "defer_loading", "async")


class Tool(NamedTuple):
    """A tool as the user declared it. ``parameters`` None means 'takes no arguments'.

    ``kind`` "custom" is OpenAI's free-text tool: no parameters, and ``format`` (Responses' flat form:
    ``{"type": "text"}`` or ``{"type": "grammar", "syntax": "lark"|"regex", "definition": ...}``, None for
    unconstrained text) says what its input must look like. ``fields`` holds the newer per-tool fields
    some providers take (e.g. Anthropic's input_examples); translators keep or drop them (TOOL_FIELDS)."""

    name: str
    description: str | None = None
    parameters: dict[str, Any] | None = None
    strict: bool | None = None
    kind: ToolKind = "function"
    format: Mapping[str, Any] | None = None
    fields: Mapping[str, Any] = _EMPTY

    def schema(self) -> dict[str, Any]:
        """The parameters schema, with the empty object schema standing in for 'no parameters'."""
        return self.parameters if self.parameters is not None else {"type": "object", "properties": {}}


# The kinds of NativeTool (core/native_tools.py reads them): openai 3.57.0 types/responses/tool_param.py Mcp and
# programmatic tool calling; anthropic 2.14.0 types/tool_union_param.py CodeExecutionTool20250825Param and its later
# versions. Here so that reading a scenario loads native_tools only when one is declared.
NATIVE_TOOL_KINDS = ("mcp", "programmatic_tool_calling", "code_execution_20250825", "code_execution_20260120",
                     "code_execution_20260521")


class NativeTool(NamedTuple):
    """A tool the provider runs itself, declared in a scenario's ``tools:`` (core/native_tools.py): an MCP
    server (``kind`` "mcp") or a programmatic tool-calling tool (``programmatic_tool_calling``, Responses';
    ``code_execution_2025…``, Anthropic's). ``fields`` are the keys as written (``headers`` values and
    ``authorization`` are ``$ENV`` placeholders, resolved only at send time). Each provider module renders
    the kinds its API takes (``NATIVE_TOOLS``); every other provider leaves them out with a ledger entry."""

    kind: str
    fields: Mapping[str, Any] = _EMPTY

    @property
    def label(self) -> str:
        """How the ledger names it: the MCP server with its label, or the tool's type."""
        return f"mcp server '{self.fields.get('server_label')}'" if self.kind == "mcp" else self.kind


ReasoningFamily = str  # the API that wrote a reasoning item: a provider module's REASONING_FAMILY


class ReasoningItem(NamedTuple):
    """Reasoning state an assistant turn carried, in neutral terms, kept exactly as the API returned it.

    ``family`` says which API wrote it (the ``REASONING_FAMILY`` of the provider module that reads and writes it, whose
    docstrings say what each field holds there): its signature or encrypted content is valid only there."""

    family: ReasoningFamily
    text: str | None = None
    signature: str | None = None
    encrypted: str | None = None  # Responses encrypted_content, Anthropic redacted data, Bedrock redactedContent
    redacted: bool = False
    id: str | None = None  # Responses reasoning item id
    summary: tuple[str, ...] = ()  # Responses summary_text texts
    position: int = 0  # how many of the turn's tool calls came before it (interleaved thinking)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"family": self.family}
        for key in ("id", "text", "signature", "encrypted"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.redacted:
            data["redacted"] = True
        if self.summary:
            data["summary"] = list(self.summary)
        if self.position:
            data["position"] = self.position
        return data


class HistoryCall(NamedTuple):
    """A tool call an assistant made earlier in the conversation. ``signature`` is Gemini's
    thoughtSignature of that functionCall part (only Gemini signs calls)."""

    id: str
    name: str
    arguments: dict[str, Any]
    signature: str | None = None


class Message(NamedTuple):
    role: Role
    content: str | None = None
    tool_calls: tuple[HistoryCall, ...] = ()
    tool_call_id: str | None = None
    tool_name: str | None = None  # for role 'tool': the name of the call it answers (resolved on load)
    is_error: bool = False  # for role 'tool': the tool failed
    reasoning: tuple[ReasoningItem, ...] = ()  # for role 'assistant': reasoning state, in the order written
    parts: tuple[dict[str, Any], ...] | None = None  # for role 'tool': content as a list of content parts


class ToolChoice(NamedTuple):
    """The provider-neutral tool_choice.

    ``mode`` is one of auto | none | required | named | allowed. ``spelling`` keeps what the user
    wrote (``any``, ``true``, a provider-native dict) so the ledger can say how it was read.
    """

    mode: ChoiceMode
    name: str | None = None
    allowed: tuple[str, ...] = ()
    allowed_mode: Literal["auto", "required"] = "auto"
    spelling: str = ""
    # A provider-native form only one API has, kept as written and sent as is there (OpenAI Responses'
    # {type: mcp, server_label, name?} and {type: programmatic_tool_calling}); mode is then "required".
    native: dict[str, Any] | None = None

    @property
    def forces_call(self) -> bool:
        return self.mode in ("required", "named") or (self.mode == "allowed" and self.allowed_mode == "required")

    def to_json(self) -> Any:
        if self.native is not None:
            return dict(self.native)
        if self.mode == "named":
            return {"tool": self.name}
        if self.mode == "allowed":
            return {"allowed": list(self.allowed), "mode": self.allowed_mode}
        return self.mode

    def quoted(self) -> str:
        """``to_json()`` as ledger messages quote it (``word_or_json``): a word as is, an object as ``compact``
        JSON text, written here without building the object (every translation quotes the choice)."""
        mode = self.mode
        if self.native is not None:
            return compact(self.native)
        if mode == "named":
            return '{"tool":' + (json_string(self.name) if self.name is not None else "null") + "}"
        if mode == "allowed":
            names = ",".join([json_string(name) for name in self.allowed])
            return '{"allowed":[' + names + '],"mode":' + json_string(self.allowed_mode) + "}"
        return mode


class ProviderSettings(NamedTuple):
    """Per-provider settings from ``providers.<id>`` in the scenario (all optional)."""

    model: str | None = None
    base_url: str | None = None
    gateway: bool | None = None  # the base URL fronts the API's own host, whose rules hold there (core/host_rules.py)
    max_tokens: int | None = None
    temperature: float | None = None
    thinking: bool | None = None  # on/off; the richer forms are in thinking_mode
    deployment: str | None = None
    endpoint: str | None = None
    api_version: str | None = None
    region: str | None = None
    api_key_env: str | None = None
    headers: Mapping[str, str] = _EMPTY
    extra: Mapping[str, Any] = _EMPTY
    require_parameters: bool | None = None  # OpenRouter: route only to upstreams that take every parameter
    schema_form: str | None = None  # Gemini: auto | parameters | parametersJsonSchema
    rules: Mapping[str, Any] = _EMPTY  # model-rule overrides (model_rules.RULE_KEYS -> value)
    thinking_mode: "ThinkingSetting | None" = None  # filled from `thinking:` by the loader, never written


class ThinkingSetting(NamedTuple):
    """The neutral thinking setting: ``thinking: true/false`` (on/off), ``adaptive``, ``{budget: N}``,
    ``{effort: low|medium|high|...}``, or ``{type: adaptive, effort: high}``."""

    mode: Literal["off", "on", "adaptive"]
    budget: int | None = None
    effort: str | None = None

    def to_json(self) -> Any:
        if self.budget is None and self.effort is None and self.mode != "adaptive":
            return self.mode == "on"
        data: dict[str, Any] = {"mode": self.mode}
        if self.budget is not None:
            data["budget"] = self.budget
        if self.effort is not None:
            data["effort"] = self.effort
        return data


SETTINGS_KEYS: tuple[str, ...] = tuple(f for f in ProviderSettings._fields if f != "thinking_mode")
_NO_SETTINGS = ProviderSettings()  # immutable, so one shared instance serves every provider left unset


class LoopResult(NamedTuple):
    """What a tool "returns" in a loop (``loop.results``): ``kind`` literal (``value`` is the content
    text), list (``value`` a tuple of LoopResult, one per call), template (``value`` the text with
    ``{argument}`` fields) or error (``value`` the message; sent with is_error)."""

    kind: Literal["literal", "list", "template", "error"]
    value: Any


class LoopStep(NamedTuple):
    """One entry of ``loop.steps``: the tool_choice (``has_choice`` False: the scenario's) and the
    tools offered (None: every declared tool)."""

    tool_choice: ToolChoice | None = None
    has_choice: bool = False
    tools: tuple[str, ...] | None = None


class LoopSpec(NamedTuple):
    """The scenario's ``loop:`` section. The last step entry repeats; ``stop_tool`` ends the loop
    when called; ``raw`` is the section as written (saved transcripts carry it back)."""

    max_steps: int = 10
    steps: tuple[LoopStep, ...] = ()
    stop_tool: str | None = None
    results: Mapping[str, LoopResult] = _EMPTY
    raw: Any = None
    narrow: Literal["remove", "allowed"] = "remove"  # a step's tools: the tools sent, or the choice's restriction
    after_call: Literal["keep", "auto"] = "keep"  # auto: a forcing step after a tool call sends auto instead
    repeated_calls: int | None = None  # stop.repeated_calls: end after K identical calls in a row

    def step(self, number: int) -> LoopStep:
        """The entry for step ``number`` (1-based): the last entry repeats."""
        if not self.steps:
            return LoopStep()
        return self.steps[min(number, len(self.steps)) - 1]


class Scenario(NamedTuple):
    path: str
    tools: tuple[Tool, ...] = ()
    tools_written_empty: bool = False  # `tools: []` written explicitly (vs. the key omitted)
    tool_choice: ToolChoice | None = None
    parallel_tool_calls: bool | None = None
    strict: bool | None = None
    system: str | None = None
    messages: tuple[Message, ...] = ()
    providers: Mapping[str, ProviderSettings] = _EMPTY
    system_role: str = "system"  # "developer" when the prompt came from a leading developer message
    notes: "tuple[LedgerEntry, ...]" = ()  # from loading (tools imported with from:): start of every ledger
    loop: LoopSpec | None = None  # the optional `loop:` section (toolchoice run)
    native_tools: tuple[NativeTool, ...] = ()  # hosted tools in `tools:` (MCP servers, programmatic calling)
    # loop.narrow: allowed, each step so far up to this one: (how many messages its request's history held, the
    # tools it offered). Every tool is sent; a provider with mid-conversation tool changes (Anthropic's beta,
    # anthropic_tool_changes.py) renders the changes between them at those places. Empty outside such a loop.
    tool_steps: tuple[tuple[int, tuple[str, ...]], ...] = ()
    files_read: tuple[str, ...] = ()  # the files its tools' from: read (a run's --trace-out must not write over them)

    def settings_for(self, provider: str) -> ProviderSettings:
        return self.providers.get(provider, _NO_SETTINGS)

    def tool(self, name: str) -> Tool | None:
        return next((t for t in self.tools if t.name == name), None)

    @property
    def tool_names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.tools)

    def history_tool_names(self) -> tuple[str, ...]:
        """Names of tools called earlier in the conversation, in first-seen order."""
        seen: dict[str, None] = {}
        for message in self.messages:
            for call in message.tool_calls:
                seen.setdefault(call.name, None)
        return tuple(seen)

    @property
    def has_tool_history(self) -> bool:
        return any(m.tool_calls or m.role == "tool" for m in self.messages)

    def tool_is_strict(self, tool: Tool) -> bool:
        if tool.kind != "function":
            return False  # a custom tool's input is free text: strict schemas do not apply
        return tool.strict if tool.strict is not None else bool(self.strict)


class LedgerEntry(NamedTuple):
    severity: Severity
    code: str
    message: str

    def to_json(self) -> dict[str, str]:
        """As every JSON document holds it: words naming an argument (``errors.Named``) name it as the field that
        holds it (``give provider``), neither a Python caller's ``provider=...`` nor the command line's ``-p``."""
        message = self.message.as_field() if isinstance(self.message, Named) else self.message
        return {"severity": self.severity, "code": self.code, "message": message}


class Ledger:
    """What changed on the way from the scenario to the wire, in order. Entries are added only
    through ``add`` (and its severity shortcuts), which keeps the warning and error counts."""

    __slots__ = ("entries", "warnings", "errors")

    def __init__(self) -> None:
        self.entries: list[LedgerEntry] = []
        self.warnings = 0
        self.errors = 0

    def add(self, severity: Severity, code: str, message: str) -> None:
        self.entries.append(LedgerEntry(severity, code, message))
        if severity == "warning":
            self.warnings += 1
        elif severity == "error":
            self.errors += 1

    def info(self, code: str, message: str) -> None:
        self.entries.append(LedgerEntry("info", code, message))

    def warning(self, code: str, message: str) -> None:
        self.entries.append(LedgerEntry("warning", code, message))
        self.warnings += 1

    def error(self, code: str, message: str) -> None:
        self.entries.append(LedgerEntry("error", code, message))
        self.errors += 1


def _compact_encoder() -> Any:
    import json

    return json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


_encode = _compact_encoder()


def json_string(text: str) -> str:
    """A string as JSON text (as ``compact`` writes it): a plain ASCII word (letters, digits, _) has nothing
    to escape, so it is quoted as it is; anything else goes through the encoder's own string path."""
    return f'"{text}"' if text.isascii() and text.isidentifier() else _encode(text)


def _small_json(value: Any, depth: int) -> str | None:
    """JSON text for strings, ints, true/false/null and dicts (string keys) and lists of them, two levels
    deep at most: the small tool_choice values ledger messages quote. None for anything else (the encoder's
    work). Built here because the encoder sets up its C encoder on every call for a dict or list (~1.2 µs,
    several times a string's cost); the text is the same. Deeper values are left to the encoder, which is
    faster for them."""
    kind = type(value)
    if kind is dict:
        if depth > 1:
            return None
        parts = []
        for key, item in value.items():
            text = json_string(item) if type(item) is str else _small_json(item, depth + 1)
            if text is None or type(key) is not str:
                return None
            # keys are nearly always plain words: json_string inlined
            parts.append(f'"{key}":{text}' if key.isascii() and key.isidentifier() else f"{_encode(key)}:{text}")
        return "{" + ",".join(parts) + "}"
    if kind is list or kind is tuple:
        if depth > 1:
            return None
        parts = []
        for item in value:
            text = json_string(item) if type(item) is str else _small_json(item, depth + 1)
            if text is None:
                return None
            parts.append(text)
        return "[" + ",".join(parts) + "]"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if kind is int:
        return int.__repr__(value)
    return None  # a str subclass, a float, anything else: the encoder's


def compact(value: Any) -> str:
    """JSON text without spaces, as toolchoice quotes values in ledger messages
    (``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``)."""
    if type(value) is str:
        return json_string(value)
    text = _small_json(value, 0)
    return text if text is not None else _encode(value)


def word_or_json(value: Any) -> str:
    """A value as ledger messages (and tables) quote it: a word as is, anything else as ``compact`` JSON."""
    return value if isinstance(value, str) else compact(value)


def quoted(value: Any) -> str:
    """``compact``, for values read from the user or a server: whatever cannot be JSON (a loop, an
    object) is shown with ``repr`` instead of raising."""
    try:
        return compact(value)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


def wire_json(body: Any) -> str:
    """The exact bytes (as text) toolchoice sends for a body; curl output prints the same string."""
    import json

    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


class Request(NamedTuple):
    """An HTTP request as it would go on the wire, with keys as ``$ENV_VAR`` placeholders.

    ``key_env`` lists the environment variables that can supply the key, first match wins; the
    placeholder in ``headers`` (and, rarely, ``url``) always names ``key_env[0]``.
    """

    method: str
    url: str
    headers: dict[str, str]
    body: dict[str, Any]
    key_env: tuple[str, ...] = ()
    key_optional: bool = False  # local servers: send without a key when none is set
    stream: bool = False  # the reply comes as a stream (rendered with --stream)
    body_env: tuple[tuple[Any, ...], ...] = ()  # paths of body strings that are $ENV placeholders (MCP headers)

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "url": self.url, "headers": dict(self.headers), "body": self.body}


SentSource = Literal["extra", "absent"]  # extra wrote a value at the path, or the body holds nothing there


class SentChoice(NamedTuple):
    """The tool_choice a request sends where ``providers.<id>.extra`` changed the field that holds it, read back to
    the neutral form (core/sent_choice.py): what the verdict judges in place of the scenario's."""

    choice: ToolChoice | None  # None: the request sets none
    at: tuple[str, ...]  # the body path that holds it (the translation's choice_path)
    source: SentSource
    said: str  # the verdict's reason line

    def to_json(self) -> dict[str, Any]:
        return {"tool_choice": None if self.choice is None else self.choice.to_json(), "at": list(self.at),
                "source": self.source}


class SentParallel(NamedTuple):
    """The parallel setting a request sends where extra changed the field that holds it (core/sent_choice.py):
    ``parallel`` in parallel_tool_calls' sense (Anthropic's disable_parallel_tool_use read inverted), None where the
    request sets none and the API's default holds."""

    parallel: bool | None
    at: tuple[str, ...]  # the body path that holds it (parallel_tool_calls; tool_choice.disable_parallel_tool_use)
    source: SentSource
    said: str  # the verdict's reason line

    def to_json(self) -> dict[str, Any]:
        return {"parallel_tool_calls": self.parallel, "at": list(self.at), "source": self.source}


class Translation(NamedTuple):
    """The result of translating one scenario for one provider."""

    provider: str
    requested_tool_choice: Any
    effective_tool_choice: Any
    request: Request | None
    ledger: list[LedgerEntry]
    offered_tools: tuple[str, ...] = ()  # the tools the request declares (after any filtering)
    # what the verdict judges where providers.<id>.extra changed what is sent (ledger tool_choice.from_extra,
    # parallel.from_extra); None: the scenario's
    sent_choice: SentChoice | None = None
    sent_parallel: SentParallel | None = None
    choice_path: tuple[str, ...] = ("tool_choice",)  # where the request's body holds its tool choice

    @property
    def refused(self) -> bool:
        return self.request is None

    def to_json(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "requested_tool_choice": self.requested_tool_choice,
            "effective_tool_choice": self.effective_tool_choice,
            "request": self.request.to_json() if self.request else None,
            "ledger": [e.to_json() for e in self.ledger],
            "offered_tools": list(self.offered_tools),
            "sent_choice": None if self.sent_choice is None else self.sent_choice.to_json(),
            "sent_parallel": None if self.sent_parallel is None else self.sent_parallel.to_json(),
        }


class RenderOptions(NamedTuple):
    """Command-line switches that change translation."""

    strict: bool = False  # every warning refuses the request
    emulate: bool = True  # False: send only what the provider supports natively
    model: str | None = None
    base_url: str | None = None
    gateway: bool = False  # --gateway: the base URL stands in front of the API's own host, whose rules hold there
    allow_env: tuple[str, ...] = ()  # variables beyond the provider's own key a scenario may read (--allow-env)
    stream: bool = False  # render the provider's streaming form (SSE, NDJSON or AWS event stream)


# ---- replies (send / parse) -------------------------------------------------------------

class ToolCall(NamedTuple):
    """A tool call from a reply, normalized. ``arguments`` is always a dict unless undecodable,
    in which case it is None and ``raw_arguments``/``arguments_error`` say why."""

    id: str | None
    name: str
    arguments: dict[str, Any] | None
    raw_arguments: str | None = None
    arguments_error: str | None = None
    input: str | None = None  # a custom (free-text) tool call's input; arguments is then None
    signature: str | None = None  # Gemini's thoughtSignature on this functionCall part
    # who made the call: "direct" (the model), or the code that made it, e.g. "program:<call id>" (OpenAI Responses
    # programmatic tool calling) or "code_execution_20250825:<tool id>" (Anthropic); None when the reply does not say
    caller: str | None = None

    @property
    def is_custom(self) -> bool:
        return self.input is not None

    def to_json(self) -> dict[str, Any]:
        if self.is_custom:
            return {"id": self.id, "name": self.name, "kind": "custom", "input": self.input}
        data: dict[str, Any] = {"id": self.id, "name": self.name, "arguments": self.arguments}
        if self.arguments_error is not None:
            data["raw_arguments"] = self.raw_arguments
            data["arguments_error"] = self.arguments_error
        if self.signature is not None:
            data["signature"] = self.signature
        if self.caller is not None:
            data["caller"] = self.caller
        return data


class ServerCall(NamedTuple):
    """A call the provider ran itself, reported in the reply beside the function calls: an MCP call (OpenAI
    Responses ``mcp_call`` / ``mcp_approval_request``), a program (Responses ``program``), an Anthropic
    tool search (``server_tool_use`` + ``tool_search_tool_result``, whose ``tool_references`` name the
    deferred tools it loaded). It is not a call to a declared tool: the verdict judges it apart."""

    kind: str  # mcp_call | mcp_approval_request | program | tool_search | mcp_tool_use (Anthropic's MCP connector)
    id: str | None = None
    name: str | None = None  # the MCP tool's name, the server tool's name
    server: str | None = None  # the MCP server_label
    loaded: tuple[str, ...] = ()  # tool search: the tool names its tool_reference blocks load
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "id": self.id}
        for key in ("name", "server", "error"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.kind == "tool_search":
            data["loaded"] = list(self.loaded)
        return data


class Usage(NamedTuple):
    input_tokens: int | None = None
    output_tokens: int | None = None

    def to_json(self) -> dict[str, int | None]:
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens}


class ProviderError(NamedTuple):
    """An error the provider answered with (or the transport hit), as one line."""

    status: int | None
    type: str | None
    message: str

    def one_line(self, provider: str) -> str:
        return f"{provider}: {self.said()}"  # as the documents' "error" says it

    def said(self) -> str:
        """``status type: message``: the error where its provider is named already (compare's row)."""
        status = "" if self.status is None else f"{self.status}{' ' if self.type else ': '}"
        return status + (f"{self.type}: " if self.type else "") + (self.message or "(empty message)")

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "type": self.type, "message": self.message}


class Reply(NamedTuple):
    tool_calls: tuple[ToolCall, ...] = ()
    text: str | None = None
    finish_reason: str | None = None
    usage: Usage = Usage()
    error: ProviderError | None = None
    upstream: str | None = None  # a router's reply: which upstream provider answered (OpenRouter)
    reasoning: tuple[ReasoningItem, ...] = ()  # the reply's reasoning state, in reply order
    server_calls: tuple[ServerCall, ...] = ()  # calls the provider ran itself (MCP, programs, tool search)
    stop_details: dict[str, Any] | None = None  # Anthropic's structured stop (types/message.py stop_details)
    choices: tuple["Reply", ...] = ()  # n > 1: every choice's reply by index, this one choice 0's (core/choices.py)

    def to_json(self) -> dict[str, Any]:
        data = {
            "tool_calls": [c.to_json() for c in self.tool_calls],
            "text": self.text,
            "finish_reason": self.finish_reason,
            "usage": self.usage.to_json(),
            "error": self.error.to_json() if self.error else None,
        }
        if self.upstream is not None:
            data["upstream"] = self.upstream
        if self.reasoning:  # only when present: replies without reasoning keep their exact JSON
            data["reasoning"] = [item.to_json() for item in self.reasoning]
        if self.server_calls:  # likewise only when present
            data["server_calls"] = [call.to_json() for call in self.server_calls]
        if self.stop_details is not None:
            data["stop_details"] = self.stop_details
        if self.choices:  # only when a reply held several choices
            data["choices"] = [choice.to_json() for choice in self.choices]
        return data
