"""The rules of ``--dialect langchain``: for each LangChain chat-model wrapper, what its ``bind_tools`` and request
building put in the tool fields for a ``Bound`` call, or the ``Refusal`` it raises instead, and how its tool
declarations carry ``bind_tools(strict=...)``. Data read off the versions ``langchain_dialect.VERSIONS`` names, held
by the recordings in ``tests/data/langchain/``; ``langchain_dialect`` applies them to the API request.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, NamedTuple

from .dialect_fields import ABSENT, get_path, set_path

class Refusal(NamedTuple):
    """What a wrapper raises instead of sending: in ``bind_tools`` or while building the request."""

    step: str  # "bind_tools" | "invoke"
    error: str  # "ExceptionType: message", as the wrapper raises it
    warned: str | None = None  # what the wrapper warned before it raised


class Bound(NamedTuple):
    """What ``bind_tools(tools, tool_choice=value, parallel_tool_calls=parallel)`` is asked for."""

    value: Any  # the tool_choice argument (None: not passed)
    names: tuple[str, ...]  # the tools bound, in order
    parallel: bool | None
    model: str  # the model id the request names (Bedrock's support table reads it)
    first_tool: dict[str, Any]  # the first tool as an OpenAI chat tool (ChatHuggingFace sends it for True)
    thinking: bool = False  # the request turns Claude's thinking on (enabled or adaptive)
    model_fields: dict[str, Any] = {}  # Bedrock's additionalModelRequestFields (ChatBedrockConverse's thinking)
    strict: bool | None = None  # bind_tools(strict=...) (None: not passed)


_WARNS = "#warns"  # in a rule's Fields: what the wrapper warns while it changes the request (not a body path)
# langchain-anthropic 1.7.10 (and 1.7.7) chat_models.py ChatAnthropic.bind_tools, with thinking of type enabled or
# adaptive and a tool_choice of type any or tool: `warnings.warn(...)` this text, then `del kwargs["tool_choice"]`.
ANTHROPIC_THINKING_DROP = ("tool_choice is forced but thinking is enabled. The Anthropic API does not support forced "
                           "tool use with thinking. Dropping tool_choice to avoid an API error. Tool calls are not "
                           "guaranteed. Consider disabling thinking or adjusting your prompt to ensure the tool is "
                           "called.")
Fields = dict[str, Any]  # dotted body path -> value (or ABSENT)


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
        return ABSENT
    if isinstance(value, bool):
        return "required"
    if isinstance(value, str):
        return _named(value) if value in b.names else "required" if value == "any" else value
    return value


def _parallel_field(b: Bound) -> Any:
    return ABSENT if b.parallel is None else b.parallel


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
    choice: Any = ABSENT
    fields: Fields = {}
    if isinstance(value, dict):
        choice = dict(value)
    elif isinstance(value, str) and value:
        choice = {"type": value} if value in ("any", "auto") else {"type": "tool", "name": value}
    if b.thinking and isinstance(choice, dict) and choice.get("type") in ("any", "tool"):
        choice, fields[_WARNS] = ABSENT, ANTHROPIC_THINKING_DROP
    if b.parallel is not None:
        choice = {"type": "auto"} if choice is ABSENT else choice
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
            choice: Any = ABSENT
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
        choice: Any = ABSENT
    elif isinstance(value, str) and value in b.names:
        choice = _named(value)
    else:
        choice = value
    # strict is not a bind_tools parameter here: it rides **kwargs into the body, top level
    return {"tool_choice": choice, "parallel_tool_calls": _parallel_field(b),
            "strict": ABSENT if b.strict is None else b.strict}


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
    choice: Any = ABSENT
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
    for argument, given in (("parallel_tool_calls", b.parallel), ("strict", b.strict)):
        if given is not None:
            return _type_error("InferenceClient.chat_completion", argument)
    return {"tool_choice": choice}


def gemini(b: Bound) -> Fields | Refusal:
    """ChatGoogleGenerativeAI (_tool_choice_to_tool_config): "auto" -> AUTO, "none" -> NONE, "any",
    "required" and True -> ANY over every bound tool, a name -> ANY over that tool; an OpenAI-style
    dict is refused; parallel_tool_calls fails google-genai's GenerateContentConfig validation."""
    value = b.value
    config: Any = ABSENT
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
# prefix removed), first match wins; langchain-aws 1.9.1 ChatBedrockConverse.validate_environment.
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
# With thinking on, the same method lets only auto through for these (langchain-aws 1.9.1 utils.py
# thinking_forced_tool_use_unsupported: 'claude-opus-4-8' excepted, then any of these substrings; recorded
# 2026-11-26: ChatBedrockConverse-thinking.json, -adaptive.json, -opus-4-8-adaptive.json).
BEDROCK_THINKING_AUTO_ONLY = re.compile(r"^(?!.*claude-opus-4-8).*(claude-3-7-|claude-sonnet-4|claude-opus-4"
                                        r"|claude-haiku-4|deepseek\.v3)")
_BEDROCK_REGIONS = ("eu.", "us.", "us-gov.", "apac.", "sa.", "amer.", "global.", "jp.", "au.")
# ChatBedrockConverse._resolve_tool_choice: a type the model does not take, with thinking on and auto taken,
# becomes {"auto": {}} after `warnings.warn(...)` this text (the tool_choice argument's Python repr in it)
BEDROCK_THINKING_DOWNGRADE = ("tool_choice={value} is not supported when thinking is enabled. Downgrading to "
                              "tool_choice='auto'. The model will decide whether to call tools.")


def _bedrock_base(model: str) -> str:
    return model.partition(".")[2] if model.startswith(_BEDROCK_REGIONS) else model


def bedrock_thinking(model: str, fields: dict[str, Any]) -> bool:
    """langchain-aws utils.py thinking_enabled_in_params: DeepSeek V3's reasoning_effort above medium, else
    additional_model_request_fields' thinking of type enabled or adaptive."""
    if "deepseek.v3" in model:
        effort = fields.get("reasoning_effort")
        return bool(effort) and str(effort).lower() not in ("none", "low", "medium")
    thinking = fields.get("thinking")
    return isinstance(thinking, dict) and thinking.get("type") in ("enabled", "adaptive")


def bedrock_choice_support(model: str, fields: dict[str, Any] | None = None) -> tuple[str, ...]:
    """With thinking on: Claude models BEDROCK_THINKING_AUTO_ONLY names, and every DeepSeek id but R1's (whatever
    its version: validate_environment asks only thinking_enabled_in_params), take auto only (recorded for
    us.deepseek.v3-v1:0: ChatBedrockConverse-deepseek-v3-effort-*.json)."""
    base = _bedrock_base(model)
    if bedrock_thinking(base, fields or {}) and (("claude" in base and BEDROCK_THINKING_AUTO_ONLY.search(base))
                                                 or ("deepseek" in base and "r1-v1" not in base)):
        return ("auto",)
    return next((types for pattern, types in BEDROCK_CHOICE_SUPPORT if re.search(pattern, base)), ())


def bedrock(b: Bound) -> Fields | Refusal:
    """ChatBedrockConverse: "auto"/"any" -> {X: {}}, every other value -> {"tool": {"name": X}} (so
    "none" and "required" name tools, and True fails botocore's validation), a dict as is; a type the
    model id is not listed for is downgraded to auto with a warning when thinking is on, else refused;
    parallel_tool_calls reaches _converse_params()."""
    value = b.value
    choice: Any = ABSENT
    warned: str | None = None
    if value:
        if isinstance(value, dict):
            choice = value
        else:
            choice = {value: {}} if value in ("auto", "any") else {"tool": {"name": value}}
        kind = next(iter(choice))
        supported = bedrock_choice_support(b.model, b.model_fields)
        base = _bedrock_base(b.model)
        if kind not in supported and "auto" in supported and bedrock_thinking(base, b.model_fields):
            choice, warned = {"auto": {}}, BEDROCK_THINKING_DOWNGRADE.format(value=repr(value))
        elif kind not in supported:
            why = (f"Model {base} does not currently support tool_choice of type {kind}. The following tool_choice "
                   f"types are supported: {supported!r}." if supported
                   else f"Model {base} does not currently support tool_choice.")
            return Refusal("bind_tools", f"ValueError: {why} Please see https://docs.aws.amazon.com/bedrock/latest/"
                                         "APIReference/API_runtime_ToolChoice.html for the latest documentation on "
                                         "models that support tool choice.")
    if b.parallel is not None:
        return _type_error("ChatBedrockConverse._converse_params", "parallelToolCalls")._replace(warned=warned)
    if choice == {"tool": {"name": True}}:
        return Refusal("invoke", "ParamValidationError: Parameter validation failed:\nInvalid type for parameter "
                                 "toolConfig.toolChoice.tool.name, value: True, type: <class 'bool'>, valid types: "
                                 "<class 'str'>")
    return {"toolConfig.toolChoice": choice, **({_WARNS: warned} if warned else {})}


def _strict_key_omitted(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """langchain-openai builds Responses tools from chat tools and adds strict only when bind_tools
    was given strict: a non-strict tool goes without the key (the Responses API reads that as true)."""
    return [{k: v for k, v in t.items() if not (k == "strict" and v is False)} for t in tools]


def langchain_strict_schema(node: Any) -> Any:
    """The parameters schema bind_tools(strict=True) sends (langchain-core 1.8.4 function_calling.py
    _recursive_set_additional_properties_false): every object with properties lists them all in required;
    additionalProperties false where required is set, properties is empty, or additionalProperties is given;
    then anyOf, allOf, properties, items and $defs/definitions likewise. Optional properties are not made
    nullable (recorded: get_weather's unit becomes required)."""
    if not isinstance(node, dict):
        return node
    schema = dict(node)
    properties = schema.get("properties")
    if isinstance(properties, dict) and properties:
        schema["required"] = list(properties)
    if "required" in schema or schema.get("properties") == {} or "additionalProperties" in schema:
        schema["additionalProperties"] = False
    for key in ("anyOf", "allOf"):
        if isinstance(schema.get(key), list):
            schema[key] = [langchain_strict_schema(item) for item in schema[key]]
    for key in ("properties", "$defs", "definitions"):
        if isinstance(schema.get(key), dict):
            schema[key] = {name: langchain_strict_schema(item) for name, item in schema[key].items()}
    if "items" in schema:
        schema["items"] = langchain_strict_schema(schema["items"])
    return schema


def _strict_at(path: str, schema_path: str) -> Callable[[list[dict[str, Any]], bool], list[dict[str, Any]]]:
    """A strict spelling: ``strict`` set at ``path`` of each tool, the schema at ``schema_path`` made strict when
    True (dotted paths inside one tool)."""

    def spell(tools: list[dict[str, Any]], strict: bool) -> list[dict[str, Any]]:
        out = json.loads(json.dumps(tools))
        for tool in out:
            set_path(tool, path, strict)
            schema = get_path(tool, schema_path)
            if strict and schema is not ABSENT:
                set_path(tool, schema_path, langchain_strict_schema(schema))
        return out

    return spell


def _genai_schema(node: Any) -> Any:
    """google-genai's Schema sends type names upper-case (OBJECT, STRING), and langchain-google-genai writes anyOf
    under the Schema field's Python name, any_of (recorded: the nested tool of tests/dialect/nested.yaml)."""
    if isinstance(node, list):
        return [_genai_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "type" and isinstance(value, str):
            out[key] = value.upper()
        elif key == "properties" and isinstance(value, dict):  # property names stay as written
            out[key] = {name: _genai_schema(schema) for name, schema in value.items()}
        else:
            out["any_of" if key == "anyOf" else key] = _genai_schema(value)
    return out


def _gemini_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**t, "functionDeclarations": [{**d, "parameters": _genai_schema(d["parameters"])}
                                           if "parameters" in d else d for d in t["functionDeclarations"]]}
            if "functionDeclarations" in t else t for t in tools]


# ollama 0.6.3 _types.py Tool.Function.Parameters (type, $defs, items, required, properties) and its Property
# (type, items, description, enum): ChatOllama sends the tools through that model, so other keys are dropped
_OLLAMA_PARAMETERS = ("type", "$defs", "items", "required", "properties")
_OLLAMA_PROPERTY = ("type", "items", "description", "enum")


def _ollama_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for tool in tools:
        parameters = get_path(tool, "function.parameters")
        if isinstance(parameters, dict):
            kept = {"type": parameters.get("type", "object"),
                    **{k: parameters[k] for k in _OLLAMA_PARAMETERS[1:] if parameters.get(k) is not None}}
            if isinstance(kept.get("properties"), dict):
                kept["properties"] = {name: {k: prop[k] for k in _OLLAMA_PROPERTY if prop.get(k) is not None}
                                      if isinstance(prop, dict) else prop for name, prop in kept["properties"].items()}
            tool = {**tool, "function": {**tool["function"], "parameters": kept}}
        out.append(tool)
    return out

