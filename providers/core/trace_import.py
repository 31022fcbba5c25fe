"""OTLP/JSON trace files → the LLM calls they record, in neutral terms (``toolchoice trace``, ``run --replay FILE``).

A file is the protobuf JSON mapping of ``ExportTraceServiceRequest`` (``{"resourceSpans": [...]}``, as the
collector's file exporter and OTLP/HTTP JSON write it), or one such object per line. Two conventions are read:

- OpenInference (Arize Phoenix; ``openinference-instrumentation-openai``, ``-anthropic``...): flattened
  ``llm.input_messages.N.message.*`` / ``llm.output_messages.*`` attributes, ``llm.tools.N.tool.json_schema``,
  ``llm.invocation_parameters`` (the request's own tool_choice, in the provider's form);
- OpenTelemetry GenAI (``opentelemetry-instrumentation-openai-v2``, ``-anthropic``, and toolchoice's own
  ``--trace-out``): ``gen_ai.input.messages`` / ``gen_ai.output.messages`` (JSON text or structured values),
  ``gen_ai.system_instructions``, ``gen_ai.tool.definitions``, the older per-message span events, and the
  older flattened ``gen_ai.prompt.N.*`` / ``gen_ai.completion.N.*``. It has no tool_choice attribute.

Each LLM span becomes an ``LlmCall`` (messages in, the assistant turn out, tools, tool_choice as recorded);
``trace_scenario`` turns a run of them into a scenario and recorded replies. Bounded like every input.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

# the file and its spans (trace_otlp), re-exported: trace_scenario, trace_tool_spans and tests import them from here
from .trace_otlp import MAX_SPANS, Span, any_value, attributes, read_spans  # noqa: F401


class LlmCall(NamedTuple):
    """One LLM call as recorded. ``messages`` and ``output`` are in the scenario file's own message form
    (``role``, ``content``, ``tool_calls`` [{id, name, arguments}], ``tool_call_id``, ``reasoning``);
    ``tools`` is the recorded definitions (None: not recorded); ``choice`` the recorded tool_choice value
    (``choice_recorded`` False: the trace has none)."""

    span: Span
    convention: str  # "openinference" | "genai" | "toolchoice"
    provider: str | None  # as recorded (llm.provider / gen_ai.provider.name ...)
    model: str | None  # the requested model, else the answering one
    system: str | None
    messages: list[dict[str, Any]]
    output: dict[str, Any] | None
    tools: list[Any] | None
    choice: Any = None
    choice_recorded: bool = False
    parallel_tool_calls: bool | None = None
    usage: tuple[int | None, int | None] = (None, None)
    finish_reason: str | None = None
    toolchoice_provider: str | None = None  # our own spans: the exact toolchoice provider id
    untravelled: tuple[str, ...] = ()  # what the recorded reply held that no replay carries


# Recorded provider names → toolchoice ids: OTel GenAI's gen_ai.provider.name (and the older gen_ai.system)
# values, OpenInference's llm.provider / llm.system values. Facts: the OTel GenAI registry
# (https://opentelemetry.io/docs/specs/semconv/registry/attributes/gen-ai/, gen_ai.provider.name well-known
# values) and openinference-semantic-conventions 0.1.42 (OpenInferenceLLMProviderValues / SystemValues).
PROVIDER_NAMES: dict[str, str] = {
    "openai": "openai", "azure.ai.openai": "azure", "azure": "azure", "az.ai.openai": "azure",
    "anthropic": "anthropic", "aws.bedrock": "bedrock", "aws": "bedrock", "bedrock": "bedrock",
    "gcp.gemini": "gemini", "gcp.vertex_ai": "gemini", "gcp.gen_ai": "gemini", "google": "gemini",
    "gemini": "gemini", "vertexai": "gemini", "vertex_ai": "gemini",
    "mistral_ai": "mistral", "mistralai": "mistral", "mistral": "mistral", "groq": "groq", "deepseek": "deepseek",
    "cohere": "cohere", "x_ai": "xai", "xai": "xai", "ollama": "ollama", "together": "together",
    "togetherai": "together", "fireworks": "fireworks", "openrouter": "openrouter", "cerebras": "cerebras",
    "huggingface": "huggingface",
}


# The provider whose message format the older GenAI events' JSON text is in, as the format says (a provider name
# in its own words, read as PROVIDER_NAMES are): semantic-conventions v1.26.0 docs/gen-ai/llm-spans.md, events
# gen_ai.content.prompt and gen_ai.content.completion: "It's RECOMMENDED to format prompts as JSON string matching
# [OpenAI messages format](https://platform.openai.com/docs/guides/text-generation)" (completions the same).
EVENT_MESSAGES_FORMAT = "openai"


def family_of(provider: str | None) -> str | None:
    """Whose reasoning state a toolchoice provider's replies hold: its module's ``REASONING_FAMILY``; None for a
    provider toolchoice has no row for (no API's: ``trace_scenario`` leaves such state out and says so)."""
    from .capabilities import CAPABILITIES
    from .registry import module_for

    if provider not in CAPABILITIES:
        return None
    family: str = module_for(provider).REASONING_FAMILY
    return family


def provider_id(recorded: Any) -> str | None:
    from .capabilities import PROVIDER_IDS

    if not isinstance(recorded, str):
        return None
    word = recorded.strip().lower()
    return word if word in PROVIDER_IDS else PROVIDER_NAMES.get(word)


def traced_as(provider: str | None, request: Any, output: Any) -> str | None:
    """The row a call filed under ``provider`` is by its shape where another row's API is traced under that name (a
    row's ``marks.traced``: OpenAI's Responses calls are openai's to OpenInference), or None."""
    from .capabilities import CAPABILITIES

    for cap in CAPABILITIES.values():
        shape = cap.marks.traced
        if shape is not None and provider == shape.recorded_as and (
                isinstance(request, dict) and shape.request_key in request and shape.not_key not in request
                or _path(output, "object") == shape.reply_object):
            return cap.provider
    return None


CHOICE_KEYS = ("tool_choice", "toolChoice", "tool_config", "toolConfig")  # OpenAI/Anthropic, Gemini


def reasoning_family(recorded: Any) -> str | None:
    """Whose reasoning state a recorded provider writes (``ReasoningItem.family``); None: a provider no row is."""
    return family_of(provider_id(recorded))


# ---- the spans -----------------------------------------------------------------------------------

_NOT_CHAT = ("embeddings", "execute_tool", "invoke_agent", "create_agent", "retrieval")


def llm_calls(spans: list[Span]) -> list[LlmCall]:
    """The LLM spans of both conventions, oldest first."""
    calls = []
    for span in sorted(spans, key=lambda s: s.start):
        a = span.attributes
        if a.get("openinference.span.kind") == "LLM":
            calls.append(_openinference(span))
        elif "toolchoice.tool_choice.requested" in a or (
                ("gen_ai.operation.name" in a or "gen_ai.system" in a or "gen_ai.provider.name" in a)
                and a.get("gen_ai.operation.name") not in _NOT_CHAT):
            calls.append(_genai(span))
    return calls


def _json(value: Any) -> Any:
    """A JSON text attribute read (structured values pass as they are); undecodable text stays text, and so does
    an object naming one key twice (json.loads kept the last and dropped the first unsaid): ``_unreadable`` says so."""
    if isinstance(value, str):
        from .bounded import json_loads, unique_keys

        try:  # held to json_depth as it is read: text nested deeper stays text, and _unreadable names the limit
            return json_loads(value, object_pairs_hook=unique_keys)
        except (ValueError, RecursionError):
            return value
    return value


def unflatten(attrs: dict[str, Any], prefix: str) -> Any:
    """``prefix.0.message.role`` ... → nested dicts keyed by segment (numbers as ints)."""
    root: dict[Any, Any] = {}
    start = prefix + "."
    for key, value in attrs.items():
        if not key.startswith(start):
            continue
        node = root
        parts = [int(p) if p.isascii() and p.isdigit() and len(p) < 19 else p for p in key[len(start):].split(".")]
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = node[part] = {}
            node = child
        node[parts[-1]] = value
    return root


def _indexed(node: Any) -> list[Any]:
    if not isinstance(node, dict):
        return []
    return [node[k] for k in sorted(k for k in node if isinstance(k, int))]


def _path(node: Any, *keys: Any) -> Any:
    for k in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(k)
    return node


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# ---- OpenInference -------------------------------------------------------------------------------


def _openinference(span: Span) -> LlmCall:
    a = span.attributes
    params = _json(a.get("llm.invocation_parameters"))
    params = params if isinstance(params, dict) else {}
    provider = a.get("llm.provider") or a.get("llm.system")
    family = reasoning_family(provider)
    system_parts: list[str] = []
    messages = []
    for item in _indexed(unflatten(a, "llm.input_messages")):
        m = _oi_message(_path(item, "message") or {}, family)
        if m is None:
            continue
        if m["role"] in ("system", "developer"):
            if m.get("content"):
                system_parts.append(m["content"])
            continue
        messages.append(m)
    outputs = _indexed(unflatten(a, "llm.output_messages"))
    output = _oi_message(_path(outputs[0], "message") or {}, family) if outputs else None
    tools_node = _indexed(unflatten(a, "llm.tools"))
    tools = [_json(_path(t, "tool", "json_schema")) for t in tools_node] if tools_node else None
    if tools is None and isinstance(params.get("tools"), list):
        tools = params["tools"]
    request = _json(a.get("input.value"))
    choice_key = next((k for k in CHOICE_KEYS if k in params), None)
    choice = params.get(choice_key) if choice_key else None
    if choice_key is None and isinstance(request, dict):  # google-genai records no invocation parameters
        choice_key = next((k for k in CHOICE_KEYS if k in request), None)
        choice = request.get(choice_key) if choice_key else None
    model = params.get("model") or a.get("llm.request.model_name") or a.get("llm.model_name")
    parallel = params.get("parallel_tool_calls")
    output_value = _json(a.get("output.value"))
    exact = traced_as(provider_id(provider), request, output_value)
    return LlmCall(span, "openinference", provider, model if isinstance(model, str) else None,
                   "\n\n".join(system_parts) or None, messages, output, tools,
                   choice, choice_key is not None,
                   parallel if isinstance(parallel, bool) else None,
                   (_int(a.get("llm.token_count.prompt")), _int(a.get("llm.token_count.completion"))),
                   a.get("llm.finish_reason") if isinstance(a.get("llm.finish_reason"), str) else None,
                   toolchoice_provider=exact, untravelled=_untravelled(output_value))


_ROLES = {"model": "assistant", "human": "user", "ai": "assistant", "function": "tool"}  # Gemini's, LangChain's


def _oi_message(node: dict[str, Any], family: str | None) -> dict[str, Any] | None:
    role = node.get("role")
    if not isinstance(role, str):
        return None
    role = _ROLES.get(role, role)
    texts: list[str] = []
    reasoning: list[dict[str, Any]] = []
    calls = [_oi_call(_path(c, "tool_call") or {}) for c in _indexed(node.get("tool_calls"))]
    calls_before = 0
    for part in _indexed(node.get("contents")):
        content = _path(part, "message_content") or {}
        if content.get("type") == "tool_use":
            calls_before += 1
        kind = content.get("type")
        if kind == "text" and isinstance(content.get("text"), str):
            texts.append(content["text"])
        elif kind == "reasoning":
            item: dict[str, Any] = {"family": family}
            if isinstance(content.get("text"), str):
                item["text"] = content["text"]
            if isinstance(content.get("signature"), str):
                item["signature"] = content["signature"]
            if isinstance(content.get("data"), str):
                item.update(encrypted=content["data"], redacted=True)
            if isinstance(content.get("id"), str):
                item["id"] = content["id"]
            if isinstance(content.get("encrypted_content"), str):
                item["encrypted"] = content["encrypted_content"]
            if calls_before:
                item["position"] = calls_before
            reasoning.append(item)
    content_text = node.get("content") if isinstance(node.get("content"), str) else None
    if content_text is None and texts:
        content_text = "".join(texts)
    message: dict[str, Any] = {"role": role}
    if role == "tool" or node.get("tool_call_id"):
        return {"role": "tool", "tool_call_id": str(node.get("tool_call_id") or ""), "content": content_text or ""}
    if content_text is not None:
        message["content"] = content_text
    if calls:
        message["tool_calls"] = calls
    if reasoning:
        message["reasoning"] = reasoning
    return message


def _oi_call(node: dict[str, Any]) -> dict[str, Any]:
    call: dict[str, Any] = {"id": _word(node.get("id")), "name": _word(_path(node, "function", "name")) or "",
                            "arguments": _arguments(_path(node, "function", "arguments"))}
    if isinstance(node.get("reasoning_signature"), str):
        call["signature"] = node["reasoning_signature"]
    return call


def _word(value: Any) -> str | None:
    """A call's name or id as text: an attribute may hold a number or an object there (an intValue, a GenAI part's
    "name": 7), written as its JSON text, so the call keeps it and trace.open_schema names it (it reached the
    scenario as it was: internal error: TypeError, exit 70); None stays None."""
    return value if value is None or isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _arguments(value: Any) -> Any:
    if value is None or value == "":
        return {}
    decoded = _json(value)
    return decoded


def _untravelled(output: Any) -> tuple[str, ...]:
    """What a recorded raw reply holds that a replay cannot carry to another request."""
    found: list[str] = []
    blocks = output.get("content") if isinstance(output, dict) else None
    items = output.get("output") if isinstance(output, dict) else None
    for block in (blocks if isinstance(blocks, list) else []) + (items if isinstance(items, list) else []):
        if not isinstance(block, dict):
            continue
        caller = block.get("caller")
        if isinstance(caller, dict) and caller.get("type") not in (None, "direct"):
            found.append(f"the call {block.get('name') or block.get('id')} came with a caller "
                         f"({json.dumps(block['caller'])[:80]}): programmatic tool calling is not replayed")
        if block.get("type") == "tool_reference" or "tool_reference" in json.dumps(block.get("content", ""))[:20000]:
            found.append("the reply holds tool_reference blocks (tool search): they are not replayed")
    return tuple(dict.fromkeys(found))


# ---- OpenTelemetry GenAI ---------------------------------------------------------------------


def _genai(span: Span) -> LlmCall:
    a = span.attributes
    system = _system_text(_json(a.get("gen_ai.system_instructions")))
    family = reasoning_family(a.get("gen_ai.provider.name") or a.get("gen_ai.system"))
    messages = _genai_messages(_json(a.get("gen_ai.input.messages")), family)
    outputs = _genai_messages(_json(a.get("gen_ai.output.messages")), family)
    if messages is None:
        messages, outputs = _older(span)
    system_parts = [system] if system else []
    kept = []
    for m in messages or []:
        if m["role"] in ("system", "developer"):
            if m.get("content"):
                system_parts.append(m["content"])
        else:
            kept.append(m)
    tools = _json(a.get("gen_ai.tool.definitions"))
    if not isinstance(tools, list):
        functions = _indexed(unflatten(a, "llm.request.functions"))
        tools = [{"name": f.get("name"), "description": f.get("description"),
                  "parameters": _json(f.get("parameters"))} for f in functions if isinstance(f, dict)] or None
    requested = a.get("toolchoice.tool_choice.requested")
    choice, recorded = None, False
    if isinstance(requested, str):
        recorded = True
        choice = None if requested == "unset" else _json(requested)
    elif "gen_ai.request.tool_choice" in a:
        choice, recorded = _json(a["gen_ai.request.tool_choice"]), True
    reasons = a.get("gen_ai.response.finish_reasons")
    parallel = a.get("toolchoice.parallel_tool_calls")
    return LlmCall(span, "toolchoice" if "toolchoice.tool_choice.requested" in a else "genai",
                   a.get("gen_ai.provider.name") or a.get("gen_ai.system"),
                   a.get("gen_ai.request.model") or a.get("gen_ai.response.model"),
                   "\n\n".join(system_parts) or None, kept, outputs[0] if outputs else None,
                   tools if isinstance(tools, list) else None, choice, recorded,
                   parallel if isinstance(parallel, bool) else None, usage=(_int(a.get("gen_ai.usage.input_tokens")), _int(a.get("gen_ai.usage.output_tokens"))),
                   finish_reason=reasons[0] if isinstance(reasons, list) and reasons else None,
                   toolchoice_provider=a.get("toolchoice.provider"), untravelled=_unreadable(span))


# Where OTel GenAI keeps JSON text: span attributes, and keys of the (older) per-message events.
_JSON_ATTRIBUTES = ("gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions",
                    "gen_ai.tool.definitions")
_JSON_EVENT_KEYS = ("message", "tool_calls", "gen_ai.event.content", "body", "gen_ai.prompt", "gen_ai.completion")


def _unreadable(span: Span) -> tuple[str, ...]:
    """JSON text that does not parse (an exporter's attribute length limit cuts values): said, instead of a
    step that lost its messages or calls in silence."""
    found: list[str] = []
    places = [(key, span.attributes.get(key)) for key in _JSON_ATTRIBUTES]
    places += [(f"{name} {key}", attrs.get(key)) for name, attrs in span.events for key in _JSON_EVENT_KEYS]
    for where, value in places:
        if isinstance(value, str) and value.lstrip()[:1] in ("[", "{") and not isinstance(_json(value), (dict, list)):
            from .bounded import DuplicateKey, Unreadable, json_loads, key_shown, unique_keys

            try:
                json_loads(value, object_pairs_hook=unique_keys)
            except Unreadable as exc:  # JSON past a bound (json_depth, Python's digits): said with it, not "not JSON"
                found.append(f"the recorded {where} cannot be read: {exc}: it is not read")
                continue
            except DuplicateKey as exc:  # the exporter wrote one object with a name twice: which one counts is not said
                found.append(f"the recorded {where} is JSON whose object at its line {exc.line} names the key "
                             f"{key_shown(exc.key)} twice (RFC 8259: names should be unique; "
                             "readers keep different ones): it is not read")
                continue
            except (ValueError, RecursionError):
                pass
            found.append(f"the recorded {where} is not JSON ({len(value)} characters; an exporter's attribute "
                         "length limit may have cut it): it is not read")
    return tuple(found)


def _system_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts = [p["content"] for p in value if isinstance(p, dict) and isinstance(p.get("content"), str)]
        return "\n\n".join(texts) or None
    return None


def _genai_messages(value: Any, family: str | None) -> list[dict[str, Any]] | None:
    """``gen_ai.input.messages`` / ``gen_ai.output.messages`` (role + parts) → scenario messages; ``family``: whose
    reasoning state they hold (None: a provider no row is)."""
    if not isinstance(value, list):
        return None
    out: list[dict[str, Any]] = []
    for m in value:
        if isinstance(m, dict):
            out.extend(_genai_message(m, family))
    return out


def _genai_message(m: dict[str, Any], family: str | None) -> list[dict[str, Any]]:
    role = str(m.get("role") or "user")
    role = _ROLES.get(role, role)
    parts = m.get("parts")
    if not isinstance(parts, list):  # older shape: {role, content, tool_calls}
        return [_plain_message(m, role)]
    texts, calls, reasoning, results = [], [], [], []
    for p in parts:
        if not isinstance(p, dict):
            continue
        kind = p.get("type")
        if kind == "text" and p.get("content") is not None:
            texts.append(p["content"] if isinstance(p["content"], str) else json.dumps(p["content"]))
        elif kind == "tool_call":
            calls.append({"id": _word(p.get("id")), "name": _word(p.get("name")) or "", "arguments": _arguments(p.get("arguments"))})
        elif kind == "tool_call_response":
            response = p.get("response", p.get("result"))
            results.append({"role": "tool", "tool_call_id": str(p.get("id") or ""),
                            "content": response if isinstance(response, str) else json.dumps(response)})
        elif kind == "reasoning" and isinstance(p.get("content"), str):
            reasoning.append({"family": family, "text": p["content"]})
    if results:
        return results
    message: dict[str, Any] = {"role": role}
    if texts or role != "assistant":
        message["content"] = "".join(texts)
    if calls:
        message["tool_calls"] = calls
    if reasoning:
        message["reasoning"] = reasoning
    return [message]


def _plain_message(m: dict[str, Any], role: str) -> dict[str, Any]:
    content = m.get("content")
    if content is not None and not isinstance(content, str):
        content = json.dumps(content)
    if role == "tool":
        return {"role": "tool", "tool_call_id": str(m.get("id") or m.get("tool_call_id") or ""), "content": content or ""}
    message: dict[str, Any] = {"role": role}
    if content is not None or role != "assistant":
        message["content"] = content or ""
    calls = _json(m.get("tool_calls"))
    if isinstance(calls, list) and calls:
        message["tool_calls"] = [{"id": _word(c.get("id")), "name": _word(_path(c, "function", "name") or c.get("name")) or "",
                                  "arguments": _arguments(_path(c, "function", "arguments") or c.get("arguments"))}
                                 for c in calls if isinstance(c, dict)]
    return message


_EVENT_ROLES = {"gen_ai.system.message": "system", "gen_ai.user.message": "user",
                "gen_ai.assistant.message": "assistant", "gen_ai.tool.message": "tool"}


def _older(span: Span) -> tuple[list[dict[str, Any]] | None, list[dict[str, Any]] | None]:
    """The older forms: per-message span events, ``gen_ai.content.prompt`` events, flattened ``gen_ai.prompt.N``."""
    messages: list[dict[str, Any]] = []
    outputs: list[dict[str, Any]] = []
    family = family_of(EVENT_MESSAGES_FORMAT)  # the format's, whoever answered
    for name, attrs in span.events:
        body = _json(attrs.get("gen_ai.event.content") or attrs.get("body"))
        fields = body if isinstance(body, dict) else attrs
        if name in _EVENT_ROLES:
            messages.append(_plain_message(fields, _EVENT_ROLES[name]))
        elif name == "gen_ai.choice":
            inner = _json(fields.get("message"))
            outputs.append(_plain_message(inner if isinstance(inner, dict) else fields, "assistant"))
        elif name == "gen_ai.content.prompt":
            messages.extend(_genai_messages(_json(attrs.get("gen_ai.prompt")), family) or [])
        elif name == "gen_ai.content.completion":
            outputs.extend(_genai_messages(_json(attrs.get("gen_ai.completion")), family) or [])
    if not messages:
        for item in _indexed(unflatten(span.attributes, "gen_ai.prompt")):
            if isinstance(item, dict):
                item = {**item, "tool_calls": _indexed(item.get("tool_calls")) or None}
                messages.append(_plain_message(item, str(item.get("role") or "user")))
        for item in _indexed(unflatten(span.attributes, "gen_ai.completion"))[:1]:
            if isinstance(item, dict):
                item = {**item, "tool_calls": _indexed(item.get("tool_calls")) or None}
                outputs.append(_plain_message(item, "assistant"))
    return (messages or None), (outputs or None)
