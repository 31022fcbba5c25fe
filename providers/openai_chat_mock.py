"""OpenAI Chat Completions (and every host that speaks it): the family behind ``toolchoice mock`` / ``proxy`` (core/mock; registry.mock_family).

How a request body of this API reads back into neutral terms (tools, tool_choice as on the wire, the
history, the thinking setting), and the reply body, stream events and error envelope in this API's shape.
Kept beside the family's translator so `render` never loads it.
"""

from __future__ import annotations

import re
from typing import Any

from .core.capabilities import CAPABILITIES, WithoutTools
from .core.facts import choice_words
from .openai_history import RESPONSES_WORDS, chat_refusal
from .core.model import (HistoryCall, LedgerEntry, Message, ProviderSettings, ReasoningItem, ThinkingSetting,
                         quoted)


MOCK_BASE_PATH = "/v1"  # the base URL openai-python takes (OpenAI(base_url=...)) ends in /v1
# The string tool_choice words each host's source states are its dated fact's (core/facts.choice_words): the
# mock's judge reads them (core/mock/judge.py); vLLM and llama-server check them themselves (below).
_MOCK_KNOWN = frozenset({"model", "messages", "tools", "tool_choice", "parallel_tool_calls", "stream", "stream_options",
                         "max_tokens", "max_completion_tokens", "temperature", "reasoning_effort", "thinking"})
_MOCK_KNOWN_N = _MOCK_KNOWN | {"n"}  # n read: a whole number of choices up to the limit (core/choices.py)


def mock_route(method: str, path: str) -> dict[str, Any] | None:
    """A Chat Completions request: POST .../chat/completions (any prefix: hosts put it under /v1, /openai/v1 ...)."""
    return {} if method == "POST" and path.rstrip("/").endswith("/chat/completions") else None


# A host's own refusal of ``tool_choice`` sent without ``tools``: the capability row's (core/capabilities.py
# WithoutTools, its dated fact quoting the host's source), the same the translator plans with, so the two agree.
# Only the hosts whose own source says they refuse it; the others answer as without tools (never a guess).
WITHOUT_TOOLS: dict[str, WithoutTools] = {p: row.without_tools for p, row in CAPABILITIES.items()
                                          if row.module == "openai_chat" and row.without_tools is not None
                                          and row.without_tools.refused}
# vllm 0.33.0 chat_completion/protocol.py check_tool_usage: 'Reject empty tools array, matching OpenAI API behavior'
_VLLM_EMPTY_TOOLS = ("`tools` must not be an empty array. Either provide at least one tool or omit the field entirely. "
                     "(parameter=tools)")


_VLLM_USAGE = 'Correct usage: `{"type": "function", "function": {"name": "my_function"}}`'


def _vllm_choice(choice: Any, tools: Any) -> str | None:
    """vllm 0.33.0 chat_completion/protocol.py check_tool_usage, with tools: its words, ' (parameter=...)' appended
    as VLLMValidationError's str() does (fact vllm.tool_choice_without_tools)."""
    if choice in (None, "none", "auto", "required"):
        return None
    if not isinstance(choice, dict):
        return (f"Invalid value for `tool_choice`: {choice}! Only named tools, \"none\", \"auto\" or \"required\" are "
                "supported. (parameter=tool_choice)")
    function = choice.get("function")
    if not isinstance(function, dict):
        return f"Invalid value for `function`: `{function}` in `tool_choice`! {_VLLM_USAGE} (parameter=tool_choice.function)"
    if "name" not in function:
        return f"Expected field `name` in `function` in `tool_choice`! {_VLLM_USAGE} (parameter=tool_choice.function.name)"
    name = function["name"]
    if not isinstance(name, str) or not name:
        return f"Invalid `name` in `function`: `{name}` in `tool_choice`! {_VLLM_USAGE} (parameter=tool_choice.function.name)"
    if not any(isinstance(t, dict) and isinstance(t.get("function"), dict) and t["function"].get("name") == name
               for t in tools):
        return "The tool specified in `tool_choice` does not match any of the specified `tools` (parameter=tool_choice)"
    return None


# llama.cpp common/chat.cpp common_chat_tool_choice_parse_oaicompat: the three words it parses (fact
# llamacpp.tool_choice_words); another throws std::invalid_argument("Invalid tool_choice: " + tool_choice), a 400
# (tools/server/server.cpp ex_wrapper)
_LLAMACPP_WORDS = choice_words("llamacpp")[1].words  # type: ignore[index]


def _refusal(body: dict[str, Any], provider: str) -> str | None:
    """The host's own refusal of the tool list and tool_choice it was sent, where its source states one."""
    tools = body.get("tools")
    choice = body.get("tool_choice")
    if provider == "vllm" and tools == []:
        return _VLLM_EMPTY_TOOLS
    if provider == "vllm" and isinstance(tools, list):
        return _vllm_choice(choice, tools)
    if provider == "llamacpp" and isinstance(choice, str) and choice not in _LLAMACPP_WORDS:
        return f"Invalid tool_choice: {choice}"
    rule = WITHOUT_TOOLS.get(provider)
    if rule is None or choice is None or tools is not None or _wire_mode(choice) not in rule.refused:
        return None
    return rule.words


# The object tool_choice each host's SDK types take (read 2026-11-27): (the type, whether it requires the named
# function's ``function`` object, the other object tags it takes). Another shape (Anthropic's {type: any}, {type: tool,
# name}, Bedrock's {any: {}}, Gemini's {mode: ANY}) is refused: ``_choice_shape``, in the API's own words where
# recorded (core/choice_shape_words.py: OpenAI's, xAI's 422). DeepSeek, xAI and OpenRouter have no official Python SDK
# types: their API references' (facts deepseek.tool_choice_shape, xai.tool_choice_words, openrouter.tool_choice_shape).
# Hosts not here (vLLM and llama-server: their own checks above) are not refused so.
_NAMED = "openai 3.57.0 types/chat/chat_completion_tool_choice_option_param.py ChatCompletionToolChoiceOptionParam"
_CHOICE_OBJECTS: dict[str, tuple[str, bool, tuple[str, ...]]] = {
    "openai": (_NAMED, True, ("allowed_tools", "custom")),
    "azure": (_NAMED + " (AzureOpenAI's request types)", True, ("allowed_tools", "custom")),
    "groq": ("groq 1.7.0 types/chat/chat_completion_named_tool_choice_param.py ChatCompletionNamedToolChoiceParam: "
             "function Required", True, ()),
    "mistral": ("mistralai 3.7.0 client/models/toolchoice.py ToolChoice: function required", True, ()),
    "fireworks": ("fireworks-ai 1.2.30 types/chat/completion_create_params.py ToolChoiceFunctionSelection: "
                  "type Required[Literal['function']]", False, ()),
    "together": ("together 3.1.1 types/tool_choice_param.py ToolChoiceParam: function Required", True, ()),
    "cerebras": ("cerebras-cloud-sdk 1.91.0 types/chat/completion_create_params.py ToolChoiceChoiceObject: function "
                 "Required", True, ()),
    "sambanova": ("sambanova 1.13.0 types/chat/completion_create_params.py ToolChoiceToolChoiceObject: function "
                  "Required", True, ()),
    "huggingface": ("huggingface_hub 2.4.0 inference/_generated/types/chat_completion.py "
                    "ChatCompletionInputToolChoiceClass: function", True, ()),
    "deepseek": ("DeepSeek's API reference, create-chat-completion: ChatCompletionNamedToolChoice, type and function "
                 "required", True, ()),
    "xai": ("xAI's REST API spec, xai-org/xai-sdk-ts spec/openapi.json ChatRequest tool_choice: the named function",
            True, ()),
    # an object with a type string is ChatServerToolChoice (a server tool named by its type): only an untagged object
    # fits neither member; one tagged with a word no server tool has is read in _choice_read
    "openrouter": ("OpenRouter's openapi.yaml ChatNamedToolChoice or ChatServerToolChoice {type}", True, ()),
}
# the hosts whose named function requires type "function" beside it (openai 3.57.0 and groq 1.7.0
# ChatCompletionNamedToolChoiceParam: type Required[Literal['function']]; DeepSeek's reference: both required)
_TYPE_REQUIRED = frozenset({"openai", "azure", "groq", "deepseek"})
# the hosts whose words for such a shape no recording gives: the 400 says so (xAI's 422 is recorded)
_WORDS_UNRECORDED = frozenset({"deepseek", "openrouter"})


def _choice_shape(choice: Any, provider: str) -> LedgerEntry | None:
    """An object tool_choice of a shape the host's types leave out (``_CHOICE_OBJECTS``), in toolchoice's words."""
    known = _CHOICE_OBJECTS.get(provider)
    if known is None or not isinstance(choice, dict):
        return None
    source, needs_function, others = known
    kind = choice.get("type")
    if provider == "openrouter" and isinstance(kind, str):  # a server tool's type (ChatServerToolChoice)
        return None
    if (kind in others or isinstance(choice.get("function"), dict) and (kind == "function" or provider not in
                                                                          _TYPE_REQUIRED)) \
            if needs_function else kind == "function":
        return None
    besides = f", or {{\"type\": {' / '.join(others)}, ...}}" if others else ""
    if provider == "openrouter":
        besides = ", or a server tool {\"type\": \"openrouter:web_search\"}"
    status = "422" if provider == "xai" else "400"
    from .core.refusal_words import UNRECORDED

    unrecorded = UNRECORDED if provider in _WORDS_UNRECORDED else ""
    return LedgerEntry("error", "tool_choice.shape", f"tool_choice {quoted(choice)} is not a shape "
                       f"{CAPABILITIES[provider].title}'s API takes ({source}): an object tool_choice is the named "
                       f"function {{\"type\": \"function\", \"function\": {{\"name\": NAME}}}}{besides}; this is "
                       f"another API's form (write \"required\" or the named function): the API answers {status}"
                       + unrecorded)


# A host whose API refuses tool-call ids not of its form (openai_chat_hosts.HOSTS id_rule; fact mistral.tool_call_id): its
# 400 words, and the recorded envelope's type and code (tests/data/responses/errors/error-mistral-400-tool-call-id.json)
_ID_WORDS = "Tool call id was {} but must be a-z, A-Z, 0-9, with a length of 9."
_ID_REFUSAL = re.compile(r"Tool call id was .* but must be a-z, A-Z, 0-9, with a length of 9\.", re.DOTALL)
_ALNUM9 = re.compile(r"[a-zA-Z0-9]{9}")


def _ids_checked(provider: str) -> bool:
    """Whether the host's API refuses tool-call ids not of its form (openai_chat_hosts.HOSTS id_rule)."""
    from .openai_chat_hosts import HOSTS

    host = HOSTS.get(provider)
    return host is not None and host.id_rule == "alnum9"


def _wrong_id(raw: Any) -> str | None:
    """The first tool-call id of one message (an assistant turn's calls, a tool message's tool_call_id) not of the
    form the host's API requires; the translator rewrites such ids before sending (history.ids_rewritten)."""
    if not isinstance(raw, dict):
        return None
    ids = [c.get("id") for c in raw.get("tool_calls") or () if isinstance(c, dict)] \
        if raw.get("role") == "assistant" and isinstance(raw.get("tool_calls"), list) else \
        [raw.get("tool_call_id")] if raw.get("role") == "tool" else []
    return next((value for value in ids if isinstance(value, str) and not _ALNUM9.fullmatch(value)), None)


def _wire_mode(choice: Any) -> str:
    """The plan mode a Chat Completions tool_choice on the wire stands for (core/choice_plan.py); a value of no known
    form counts as forcing a call."""
    if choice in ("auto", "none", "required"):
        return str(choice)
    if isinstance(choice, dict) and choice.get("type") == "allowed_tools":
        return "allowed"
    return "named" if isinstance(choice, dict) else "required"


def _choice_read(body: dict[str, Any], provider: str) -> tuple[Any, tuple[LedgerEntry, ...]]:
    """What the host reads the wire's tool_choice as, when it is not what is written (``MockRead.choice_value``)."""
    choice = body.get("tool_choice")
    if provider == "llamacpp" and choice is not None and not isinstance(choice, str):
        # server-common.cpp: 'auto tool_choice = json_value(body, "tool_choice", std::string("auto"))': a value
        # that is not a string falls back to the default (capability row llamacpp)
        return "auto", (LedgerEntry("info", "mock.choice_unread", f"tool_choice {quoted(choice)} is not a string, "
                                    "which llama-server reads as its default \"auto\" (json_value): answered as auto"),)
    if provider == "openrouter" and isinstance(choice, dict) and isinstance(choice.get("type"), str) \
            and choice["type"] != "function" and not isinstance(choice.get("function"), dict):
        # OpenRouter's ChatServerToolChoice names a server tool by its type; what the API does with a type that is
        # another API's word ({type: any}) is not recorded (fact openrouter.tool_choice_shape): neither read nor refused
        return "auto", (LedgerEntry("info", "mock.choice_unread", f"tool_choice {quoted(choice)} is read by "
                                    "OpenRouter's types as a server tool named by its type (ChatServerToolChoice; fact "
                                    "openrouter.tool_choice_shape), and no source says what the API does with this "
                                    "one: passed unjudged, answered as auto"),)
    return None, ()


# The kinds of the fields mock_read walks (openai 3.57.0 types/chat/chat_completion_*_message_param.py,
# chat_completion_message_function_tool_call_param.py; DeepSeek's thinking {type}), checked before they are read
# (reading.misfit): content a string or an array of parts, tool_calls an array of objects whose function is an object
# with a string name (arguments are read as text or an object: clients of the compatible hosts send both)
_KINDS = {("messages", "*", "content"): "string or array",
          ("messages", "*", "tool_calls"): "array", ("messages", "*", "tool_calls", "*"): "object",
          ("messages", "*", "tool_calls", "*", "id"): "string", ("messages", "*", "tool_calls", "*", "function"): "object",
          ("messages", "*", "tool_calls", "*", "function", "name"): "string",
          ("messages", "*", "tool_call_id"): "string", ("messages", "*", "reasoning_content"): "string",
          ("thinking", "type"): "string"}


# DeepSeek's thinking mode (api-docs.deepseek.com/guides/thinking_mode): on by the model's rule (deepseek-flash,
# deepseek-v4-flash / -pro by default, deepseek-reasoner always; model_rule_data) unless the body's
# {"thinking": {"type": "disabled"}} turns it off, or by {"type": "enabled"} / a reasoning_effort. In it the answer
# carries reasoning_content, and an assistant message with tool_calls sent back without its reasoning_content is
# refused in the API's recorded words (fact deepseek.reasoning_content_missing, its rows named by model rule); another
# model in thinking mode is answered, the translator's warning its line's finding (no words recorded: no refusal).
_MOCK_THOUGHT_CUT = 2  # a streamed answer's reasoning_content in this many pieces


def _deepseek_thinking(body: dict[str, Any], wanted: bool | None) -> bool:
    """Whether a DeepSeek request is in thinking mode (the rules' thinking_default / thinking_always_on)."""
    from .core.model_rules import rule_facts

    model = body.get("model")
    facts = rule_facts("deepseek", model) if isinstance(model, str) else {}
    always, default = facts.get("thinking_always_on"), facts.get("thinking_default")
    if always is not None and always.value:
        return True
    if wanted is not None:
        return wanted
    return bool(default is not None and default.value) or isinstance(body.get("reasoning_effort"), str)


def _reasoning_unsent(index: int | None, model: Any) -> LedgerEntry | None:
    """The API's refusal of the first assistant message with tool_calls and no reasoning_content (absent or null; an
    empty string is sent: ``index``, _ChatRead.unsent), where its words are recorded for the model; None else (the
    translator's warning pitfall.deepseek_reasoning_content stays the judged line's finding: no refusal without a
    source)."""
    from .core.refusal_words import api_refusal

    row = api_refusal("deepseek", "pitfall.deepseek_reasoning_content", model if isinstance(model, str) else None,
                      None, message_index=index) if index is not None else None
    return LedgerEntry("error", row.code, row.words) if row is not None else None


class _ChatRead:
    """What ``mock_read`` carries from message to message (the history, the calls' names, the pairing of results with
    calls, the first id of another form, the first turn without its reasoning, the system messages), read on from a
    copy where a later request's messages start with an earlier one's (core/mock/read_prefix.py)."""

    __slots__ = ("history", "names", "pairing", "ids", "wrong_id", "unsent", "system")

    def __init__(self, provider: str) -> None:
        from .openai_history import CHAT_HOSTS, ChatPairing

        self.history: list[Message] = []
        self.names: dict[str, str] = {}
        self.pairing = ChatPairing(provider == "mistral") if provider in CHAT_HOSTS or provider == "mistral" else None
        self.ids = _ids_checked(provider)
        self.wrong_id: str | None = None
        self.unsent: int | None = None
        self.system: list[Any] = []  # the system / developer messages, for leading_system

    def copy(self) -> _ChatRead:
        other = _ChatRead.__new__(_ChatRead)
        other.history, other.names, other.system = list(self.history), dict(self.names), list(self.system)
        other.pairing = self.pairing.copy() if self.pairing is not None else None
        other.ids, other.wrong_id, other.unsent = self.ids, self.wrong_id, self.unsent
        return other

    def read(self, messages: list[Any], start: int) -> None:
        from .core.mock.reading import arguments_object, calls_message, chat_roles, text_of, tool_message

        names, history = self.names, self.history
        for i, raw, role in chat_roles(messages, start, "Invalid value for 'messages[{}]': expected a message with a "
                                                        "known role."):
            if self.pairing is not None:
                self.pairing.step(i, raw)
            if self.ids and self.wrong_id is None:
                self.wrong_id = _wrong_id(raw)
            if self.unsent is None and role == "assistant" and raw.get("tool_calls") \
                    and raw.get("reasoning_content") is None:
                self.unsent = i
            if role in ("system", "developer"):
                self.system.append(raw)
            elif role == "user":
                history.append(Message("user", text_of(raw.get("content")) or ""))
            elif role == "tool":
                history.append(tool_message(str(raw.get("tool_call_id")), names, text_of(raw.get("content")) or ""))
            else:
                listed = raw.get("tool_calls") or []  # an array (misfit said another type as the API's 400)
                calls = [HistoryCall(str(c.get("id")), str(c["function"].get("name")),
                                     arguments_object(c["function"].get("arguments")))
                         for c in listed if isinstance(c, dict) and isinstance(c.get("function"), dict)]
                thought = raw.get("reasoning_content")
                reasoning = (ReasoningItem("openai-chat", text=thought),) if isinstance(thought, str) else ()
                history.append(calls_message(calls, names, text_of(raw.get("content")), reasoning))


def mock_read(body: dict[str, Any], route: dict[str, Any], provider: str = "openai") -> Any:
    """A Chat Completions body → MockRead: tools, tool_choice, the history (calls, results, reasoning_content);
    ``provider``: the host served (its own refusals, ``WITHOUT_TOOLS``)."""
    from .core.mock.judge import MockMalformed, MockRead
    from .core.mock.read_prefix import read_on
    from .core.mock.reading import leading_system, misfit, openai_type_words, read_tools, unjudged

    messages = body.get("messages")
    if not isinstance(messages, list):
        raise MockMalformed("Missing required parameter: 'messages'.")
    tools, notes = read_tools(body.get("tools"), "openai-chat")

    def read(state: _ChatRead, messages: list[Any], start: int) -> None:
        wrong = misfit(body, _KINDS, (), start)  # the messages before start were read with none
        if wrong is not None:  # a field this reader walks, of another type: the API's 400 naming it, not the mock's 500
            raise MockMalformed(openai_type_words(*wrong), MockRead(
                body.get("tool_choice"), tools, model=body.get("model") if isinstance(body.get("model"), str) else None,
                choice_value=_choice_read(body, provider)[0], notes=notes))
        state.read(messages, start)

    state = read_on(("openai_chat", provider), messages, lambda: _ChatRead(provider), read)
    history = state.history
    effort = body.get("reasoning_effort")
    switch = body.get("thinking") if isinstance(body.get("thinking"), dict) else {}  # DeepSeek {type: enabled|disabled}
    wanted = {"enabled": True, "disabled": False}.get(switch.get("type")) if isinstance(switch.get("type"), str) else None
    spec = ThinkingSetting("on", effort=effort) if isinstance(effort, str) else \
        None if wanted is None else ThinkingSetting("on" if wanted else "off")
    settings = ProviderSettings(
        max_tokens=body.get("max_completion_tokens") or body.get("max_tokens"),
        temperature=body.get("temperature"), thinking_mode=spec,
        thinking=wanted if wanted is not None else True if isinstance(effort, str) else None)
    value, read_as = _choice_read(body, provider)
    refusal = _refusal(body, provider)
    param = WITHOUT_TOOLS[provider].param if refusal is not None and provider in WITHOUT_TOOLS \
        and refusal == WITHOUT_TOOLS[provider].words else None  # the recorded 400's param (OpenAI's, Azure's)
    paired = None if refusal is not None else chat_refusal(messages, provider) if provider == "deepseek" else \
        state.pairing.found if state.pairing is not None else None
    if paired is not None:  # a call without its result, a result without its call: the API's words (openai_history)
        refusal, param = paired[1], paired[2]
        read_as = (*read_as, LedgerEntry("error", paired[0], paired[1]))
    wrong_id = state.wrong_id if refusal is None else None
    if wrong_id is not None:  # after the pairing, as mistral-common validates a list's structure before its content
        refusal = _ID_WORDS.format(wrong_id)
    thinking = isinstance(effort, str)
    if provider == "deepseek":  # thinking mode by the model's rule and the body's switch; its reasoning checked
        thinking = _deepseek_thinking(body, wanted)
        unsent = _reasoning_unsent(state.unsent, body.get("model")) if thinking and refusal is None else None
        if unsent is not None:
            refusal, read_as = unsent.message, (*read_as, unsent)
    from .core.choices import max_choices

    n = body.get("n")  # How many chat completion choices to generate (openai 3.57.0 completion_create_params.py)
    count = n if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= max_choices() else 1
    known = _MOCK_KNOWN_N if n is None or n == count else _MOCK_KNOWN  # else named: passed unjudged
    schema = _text_schema(body.get("response_format"))
    known = known | {"response_format"} if schema is not None else known  # read: the text answer follows it
    return MockRead(body.get("tool_choice"), tools, tuple(history), settings, body.get("stream") is True,
                    body.get("model") if isinstance(body.get("model"), str) else None, choice_value=value,
                    parallel=body.get("parallel_tool_calls") if isinstance(body.get("parallel_tool_calls"), bool) else None,
                    unjudged=unjudged(body, known), refusal=refusal, refusal_param=param, notes=(*notes, *read_as),
                    thinking=thinking, decided=_DECIDED, choices=count, text_schema=schema,
                    shape=_choice_shape(body.get("tool_choice"), provider),
                    **dict(zip(("system", "system_role"), leading_system(state.system))))


def _text_schema(value: Any) -> dict[str, Any] | None:
    """The schema a text answer follows under ``response_format`` (openai 3.57.0
    ``shared_params/response_format_json_schema.py``: ``{type: json_schema, json_schema: {name, schema, strict}}``;
    ``{type: json_object}``: any object), so LangChain's ``response_format`` (ProviderStrategy) parses the mock's answer;
    None for text or a value of another shape (then ``response_format`` stays ``mock.unjudged``)."""
    if not isinstance(value, dict):
        return None
    if value.get("type") == "json_object":
        return {"type": "object"}
    spec = value.get("json_schema")
    if value.get("type") == "json_schema" and isinstance(spec, dict) and isinstance(spec.get("schema"), dict):
        return spec["schema"]
    return None


_DECIDED = frozenset({"tool_choice.without_tools"})  # WITHOUT_TOOLS decides it per host


def mock_call_id(call: Any, provider: str = "openai") -> str | None:
    """The id a tool call of the mock's answer carries (what a tool message's tool_call_id answers; the line's
    calls[].id): the mock's own (``call_mock_<n>_<i>``), in the host's form where its API requires one (Mistral:
    9 of [a-zA-Z0-9], openai_chat_hosts.HOSTS id_rule, as the translator rewrites a history's ids)."""
    from .openai_chat_hosts import HOSTS

    host = HOSTS.get(provider)
    if host is None or host.id_rule != "alnum9":
        return call.id
    number, index = (int(part) for part in _MOCK_ID.fullmatch(call.id).groups())  # judge.plan_answer's ids
    return "m" + _base36(number).rjust(6, "0")[-6:] + _base36(index).rjust(2, "0")[-2:]


_MOCK_ID = re.compile(r"call_mock_(\d+)_(\d+)")


def _base36(value: int) -> str:
    digits = ""
    while True:
        value, digit = divmod(value, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
        if not value:
            return digits


def _mock_message(answer: Any, provider: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer.text, "refusal": None}
    if provider == "deepseek" and answer.thinking is not None:  # thinking mode: beside content, as DeepSeek's reply
        message["reasoning_content"] = answer.thinking  # (tests/data/responses/reasoning/deepseek-reasoner-tool-call.json)
    if answer.calls:
        message["tool_calls"] = [{"id": mock_call_id(c, provider), "type": "function",
                                  "function": {"name": c.name, "arguments": c.raw}}
                                 for c in answer.calls]
    return message


def _mock_usage() -> dict[str, int]:
    return {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


# cerebras-cloud-sdk types/chat/chat_completion.py declares ``system_fingerprint: str`` required in both the
# whole reply and the chunk (openai-python: Optional[str]), and ``type: Literal["function"]`` required on every
# tool-call delta (openai-python: Optional); without them the SDK mistypes stream chunks as whole replies.
_FINGERPRINT = "fp_toolchoice_mock"


# What a host's whole reply carries beyond openai-python's fields, where a client reads it: every recorded Groq reply
# has service_tier (tests/data/responses/groq/groq-tool-call-empty-arguments.json: "on_demand"; groq-python
# types/chat/chat_completion.py), and LiteLLM 1.110.2's GroqChatConfig.transform_response reads it with
# getattr(model_response, "service_tier") and no default, raising without it. Its stream chunks have none.
# OpenRouter's reply names the upstream that answered (Host.router): pydantic-ai-slim 2.68.0
# models/openrouter.py _OpenRouterChatCompletion declares `provider: str` "The downstream provider that was used by
# OpenRouter." with no default (its OpenRouterModel raises UnexpectedModelBehavior without it), as the openrouter
# 0.2.0 crate's completions/response.rs `pub provider: Provider` (deny_unknown_fields in its tests) does.
_REPLY_EXTRA: dict[str, dict[str, Any]] = {"groq": {"service_tier": "on_demand"},
                                           "openrouter": {"provider": "toolchoice mock"}}


def mock_reply(answer: Any, read: Any, number: int, body: dict[str, Any] | None = None,
               provider: str = "openai") -> dict[str, Any]:
    """A whole chat.completion body (openai-python types/chat/chat_completion.py)."""
    return {"id": f"chatcmpl-mock{number}", "object": "chat.completion", "created": 1764147600,
            "model": read.model or "mock", "choices": [{"index": index, "message": _mock_message(each, provider),
                                                        "logprobs": None,
                                                        "finish_reason": "tool_calls" if each.calls else "stop"}
                                                       for index, each in enumerate((answer, *answer.others))],
            "usage": _mock_usage(), "system_fingerprint": _FINGERPRINT, **_REPLY_EXTRA.get(provider, {})}


# Hosts whose stream carries each tool call whole in one delta: mistralai client/models/toolcall.py and
# functioncall.py type a delta's call as ToolCall(function=FunctionCall(name: str, arguments)), name required;
# api.x.ai sends id, name and all the arguments in one delta (its recorded streams: charmbracelet/fantasy
# providertests/testdata/TestOpenAICompatibleCommon/xai-grok-code-fast/tool_streaming.yaml, 2026-03), and
# @ai-sdk/xai 3.0.138's xaiChatChunkSchema requires each delta's id, name and arguments (tests/test_vercel_wire.py).
_WHOLE_CALL_HOSTS = frozenset({"mistral", "xai"})
MOCK_PER_HOST = True  # core/mock passes the provider id to mock_read, mock_reply, mock_events, mock_error, mock_call_id


def mock_events(answer: Any, read: Any, number: int, body: dict[str, Any],
                provider: str = "openai") -> list[tuple[str | None, Any]]:
    """chat.completion.chunk events (types/chat/chat_completion_chunk.py), then ``data: [DONE]``; each call in
    pieces (name first, then the arguments in parts), or whole for the hosts whose SDK types want it so."""
    head = {"id": f"chatcmpl-mock{number}", "object": "chat.completion.chunk", "created": 1764147600,
            "model": read.model or "mock", "system_fingerprint": _FINGERPRINT}

    events: list[tuple[str | None, Any]] = []
    for choice, each in enumerate((answer, *answer.others)):  # n > 1: each choice's chunks carry its index

        def chunk(delta: dict[str, Any], finish: str | None = None, choice: int = choice) -> tuple[None, dict[str, Any]]:
            return None, {**head, "choices": [{"index": choice, "delta": delta, "logprobs": None,
                                               "finish_reason": finish}]}

        thought = each.thinking if provider == "deepseek" else None
        if thought is not None:  # DeepSeek thinking mode: delta.reasoning_content pieces before the answer
            # (api-docs.deepseek.com/api_samples/thinking_mode_api_example_streaming)
            events.append(chunk({"role": "assistant", "content": None, "reasoning_content": ""}))
            cut = -(-len(thought) // _MOCK_THOUGHT_CUT)
            events.extend(chunk({"content": None, "reasoning_content": thought[i:i + cut]})
                          for i in range(0, len(thought), cut))
            events.append(chunk({"content": "" if each.calls else None, "reasoning_content": None}))
        else:
            events.append(chunk({"role": "assistant", "content": "" if each.calls else None, "refusal": None}))
        if each.text is not None:
            events.append(chunk({"content": each.text}))
        for index, call in enumerate(each.calls):
            if provider in _WHOLE_CALL_HOSTS:
                events.append(chunk({"tool_calls": [{"index": index, "id": mock_call_id(call, provider),
                                                     "type": "function",
                                                     "function": {"name": call.name, "arguments": call.raw}}]}))
                continue
            events.append(chunk({"tool_calls": [{"index": index, "id": mock_call_id(call, provider), "type": "function",
                                                 "function": {"name": call.name, "arguments": ""}}]}))
            half = len(call.raw) // 2
            for piece in (call.raw[:half], call.raw[half:]):
                if piece:
                    events.append(chunk({"tool_calls": [{"index": index, "type": "function",
                                                         "function": {"arguments": piece}}]}))
        events.append(chunk({}, "tool_calls" if each.calls else "stop"))
    options = body.get("stream_options")
    if isinstance(options, dict) and options.get("include_usage"):
        events.append((None, {**head, "choices": [], "usage": _mock_usage()}))
    events.append((None, "[DONE]"))
    return events


_MOCK_ERROR_TYPES = {400: "invalid_request_error", 401: "invalid_request_error", 404: "invalid_request_error",
                     413: "invalid_request_error", 429: "requests", 500: "server_error", 503: "server_error"}


# vllm 0.33.0 entrypoints/serve/exception_handling/error_response.py create_error_response: err_type per status
_VLLM_ERROR_TYPES = {400: "BadRequestError", 404: "NotFoundError", 422: "UnprocessableEntityError",
                     500: "InternalServerError", 501: "NotImplementedError", 503: "ServiceUnavailableError"}
_LLAMACPP_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                         404: "not_found_error", 500: "server_error", 501: "not_supported_error", 503: "unavailable_error"}
_VLLM_PARAM = re.compile(r" \(parameter=([^,)]+)[,)]")


# OpenAI's words for an array or a string over its bound name the parameter and the code (facts openai.tool_limit:
# param tools, array_above_max_length; openai.description_limit and azure.description_limit: param
# tools[i].function.description, string_above_max_length)
_TOO_LONG = re.compile(r"Invalid '([^']+)': (array|string) too long\. ")
# api.openai.com's 400 for a value of the wrong type names its path as the param and the code invalid_type (recorded
# bodies: "Invalid type for 'messages': expected an array of objects, but got a string instead." with 'param':
# 'messages', 'code': 'invalid_type'; the Assistants' 'tool_outputs[0].output' and the Responses API's
# 'input[1].content' the same; found by the code index, read 2026-11-27). Azure's is recorded as words only
# (danny-avila/LibreChat#3111): its param and code stay null
_WRONG_TYPE = re.compile(r"Invalid type for '([^']+)': expected ")


# api.openai.com's 400 for a body that is not JSON, whole (type invalid_request_error, param and code null):
# ChatGPTNextWeb/NextChat#4064 (2024-02-18) and kdalanon/ChatGPT-AutoHotkey-Utility#14 (2024-09-19) quote the body; the
# other hosts' words are not recorded (they keep the first sentence)
_OPENAI_UNPARSED = ("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your "
                    "HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid "
                    "JSON. If you have trouble figuring out how to fix this, please contact us through our help center "
                    "at help.openai.com.)")


def mock_unparsed(exc: Exception, provider: str = "openai") -> str | None:
    """The host's recorded words for a body that is not JSON; None where none are recorded."""
    return _OPENAI_UNPARSED if provider == "openai" else None


def mock_error(status: int, message: str, provider: str = "openai", param: str | None = None,
               fields: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """OpenAI's error envelope {error: {message, type, param, code}} (the recorded 400 in tests/data/responses/errors;
    429 code rate_limit_exceeded, 500 server_error as openai-python's error types name them). Mistral's is the same
    fields at the top level with "object": "error" (its 400 as quoted in Mobile-Artificial-Intelligence/maid#672); its
    tool-call id refusal has type invalid_function_call, code "3280" and raw_status_code (zed-industries/zed#53034).
    vLLM's: {error: {message, type, param, code: the status}} (vllm 0.33.0 serve/engine/protocol.py ErrorInfo; the
    param is the VLLMValidationError's, which its message names). xAI's 400: {code, error} (livekit/agents#3114), its
    422: {error} (router-for-me/CLIProxyAPI#4718).
    llama-server's: {error: {code: the status, message, type}} (tools/server/server-common.cpp format_error_response).
    Cerebras's 400: {message, type, param, code: "wrong_api_format"} at the top level (livekit/agents#2403, the
    llama-stack recording of fact cerebras.choice_count; juspay/neurolink#1564 names the code for tool_choice).
    DeepSeek's 400 has code invalid_request_error, as every recorded DeepSeek 400 body has: its history refusals
    (itmisx/deepx-code#94, TurixAI/TuriX-CUA#15) and others (olimorris/codecompanion.nvim#1378, ConardLi/easy-dataset#9,
    JohnnyZ93/oai-compatible-copilot#202, gptme/gptme#918, qwersyk/Newelle#404). Groq's recorded 400s carry no
    ``param``, and a ``code`` only where they have one: {error: {message, type}} (tests/data/responses/errors:
    error-groq-requested-tool-does-not-exist.json, BerriAI/litellm#11001; error-groq-tool-choice-null.json,
    brianpetro/obsidian-smart-connections#942; the 'n' 400 of fact groq.choice_count), {error: {message, type, code:
    tool_use_failed, failed_generation}} (error-groq-tool-use-failed.json). ``fields``: the recorded body's other fields
    for the API's own words (RefusalWords.envelope, core/refusal_words.py: OpenAI's param reasoning_effort, Mistral's
    type, code and raw_status_code), written over the envelope's defaults."""
    if provider == "vllm":
        param = _VLLM_PARAM.search(message)
        return {"error": {"message": message, "type": _VLLM_ERROR_TYPES.get(status, "BadRequestError"),
                          "param": param.group(1) if param else None, "code": status}}, {}
    if provider == "xai" and status == 400:
        return {"code": "Client specified an invalid argument", "error": message}, {}
    if provider == "xai" and status == 422:  # its deserializer's refusal: {error} alone (fact xai.tool_choice_shape_words)
        return {"error": message}, {}
    if provider == "cerebras" and status == 400:
        return {"message": message, "type": "invalid_request_error", "param": param, "code": "wrong_api_format"}, {}
    if provider == "llamacpp":  # tools/server/server-common.cpp format_error_response, under "error" (server.cpp)
        return {"error": {"code": status, "message": message, "type": _LLAMACPP_ERROR_TYPES.get(status, "server_error")}}, {}
    code = "rate_limit_exceeded" if status == 429 else None
    if message.startswith(RESPONSES_WORDS):  # the recorded envelopes (openai_history): param input
        param = "input"
    too_long = _TOO_LONG.match(message) if provider in ("openai", "azure") else None
    if too_long is not None:  # the recorded envelope of a value over its bound (the facts above)
        param, code = too_long.group(1), f"{too_long.group(2)}_above_max_length"
    wrong_type = _WRONG_TYPE.match(message) if provider == "openai" and status == 400 else None
    if wrong_type is not None:  # the recorded envelope of a value of the wrong type (above)
        param, code = wrong_type.group(1), "invalid_type"
    if provider == "deepseek" and status == 400:  # every recorded DeepSeek 400 body (the docstring's sources)
        code = "invalid_request_error"
    error = {"message": message, "type": _MOCK_ERROR_TYPES.get(status, "invalid_request_error"), "param": param,
             "code": code, **(fields or {})}
    if provider == "groq" and status == 400:  # {message, type}, as recorded (the docstring's sources)
        error = {key: value for key, value in error.items() if key in ("message", "type") or value is not None}
    if provider == "mistral" and status == 400 and _ID_REFUSAL.fullmatch(message):
        # its tool-call id refusal as recorded (zed-industries/zed#53034, 2026-04-03; fact mistral.tool_call_id)
        return {"object": "error", "message": message, "type": "invalid_function_call", "param": None, "code": "3280",
                "raw_status_code": status}, {}
    return ({"object": "error", **error} if provider == "mistral" else {"error": error}), {}
