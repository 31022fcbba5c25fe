"""The rules of ``--dialect litellm``: for each LiteLLM route, what ``litellm.completion(model=ROUTE, tools=...,
tool_choice=X, parallel_tool_calls=P, drop_params=D)`` puts in the provider request's tool fields, or what it
raises instead. Data read off LiteLLM ``VERSION`` (each rule's ``Source``: the file under ``litellm/``, the line,
the words) and held to what the real package sends through ``toolchoice mock`` (tests/test_litellm_dialect.py);
``litellm_dialect`` applies them to the API request. No LiteLLM import here or there: the rules are data.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, NamedTuple

VERSION = "1.110.2"
READ = "2026-11-27"  # the wheel read and run on this date


class Source(NamedTuple):
    file: str  # under litellm/ in the 1.110.2 wheel
    line: int
    words: str  # the code or message, quoted

    def __str__(self) -> str:
        return f"litellm {VERSION} {self.file}:{self.line}: {self.words}"


class Raise(NamedTuple):
    """What LiteLLM raises before sending (``{model}``, ``{choice}`` and ``{params}`` are filled in)."""

    error: str  # "UnsupportedParamsError: ...", LiteLLM's words
    source: Source
    dropped_with_drop_params: bool  # drop_params=True leaves the field out instead


DROPPED = "(dropped)"  # LiteLLM leaves the field out, without a word
COPIED = "(copied)"  # LiteLLM sends the value as given
FLATTENED = "(flattened)"  # an allowed_tools choice in the Responses layout: mode and tools beside type, {type, name}


class ChoiceRule(NamedTuple):
    """What a route sends for one of LiteLLM's tool_choice inputs: a wire value (``"{name}"`` in it is the named
    tool), DROPPED, COPIED or a Raise; and the provider API's own answer where LiteLLM's value parts from it."""

    sends: Any
    source: Source
    api_says: str | None = None  # what the provider's API does with what LiteLLM sends (its words, its source)


class StrictRule(NamedTuple):
    """What a route does with a strict tool the user gives as an OpenAI chat tool (``function.strict: true``, its
    schema with ``additionalProperties: false``): ``kept`` (as given, per tool), ``dropped`` (the ``strict`` key
    left out, the schema as given) or ``stripped`` (``strict`` and every ``additionalProperties: false`` removed);
    ``says``: what the ledger says, ``body_fields``: fields of the API request LiteLLM does not send for it."""

    does: str  # "kept" | "dropped" | "stripped"
    source: Source
    says: str
    body_fields: tuple[str, ...] = ()
    top_level_closed: bool = True  # False: the schema's top-level "additionalProperties" is left out too (Bedrock)


class Route(NamedTuple):
    provider: str  # toolchoice's provider id
    prefix: str  # LiteLLM's model prefix (the route)
    config: str  # LiteLLM's config class
    choice_path: str | None  # where the choice sits in the body (None: the wire has no field)
    choices: Mapping[str, ChoiceRule]  # keys: auto, none, required, any, named, allowed (an allowed_tools subset)
    parallel: str  # "copied" | "dropped" | "anthropic" (inside tool_choice) | "bedrock" (model map) | "refused"
    parallel_source: Source
    tools_path: str = "tools"
    tools_note: str | None = None  # how LiteLLM writes the tool declarations where the API request differs
    no_tools: Source | None = None  # where a tool_choice without tools is left out (None: sent as mapped)
    # LiteLLM's parameters that only models its bundled model map flags are given (others: UnsupportedParamsError,
    # or dropped with drop_params): (the parameters, the model ids without the route's prefix, the source)
    model_params: tuple["ModelParams", ...] = ()
    strict: StrictRule | None = None  # None: a strict tool is declared as the API request has it (dialect.unchecked)


class ModelParams(NamedTuple):
    """Parameters a route takes for some models only, as LiteLLM's bundled model map
    (model_prices_and_context_window_backup.json) flags them: ``models`` (ids without the route's prefix) are those
    that take them when ``listed_take`` (others: UnsupportedParamsError, or dropped with drop_params), or those that
    do not."""

    params: tuple[str, ...]
    models: frozenset[str]
    listed_take: bool
    source: Source

    def refuses(self, model: str) -> bool:
        return (model in self.models) != self.listed_take


_OPENAI_FILE = "llms/openai/chat/gpt_transformation.py"
_COPY = Source(_OPENAI_FILE, 307, "if param in supported_openai_params: optional_params[param] = value")
# the API's recorded words (fact openai.tool_choice_value_words: the Chat Completions and Responses APIs alike)
_OPENAI_400 = ("OpenAI answers 400 \"Invalid value: 'any'. Supported values are: 'none', 'auto', and 'required'.\" "
               "(param tool_choice, code invalid_value; fact openai.tool_choice_value_words; openai 3.57.0 "
               "ChatCompletionToolChoiceOptionParam has no 'any'), which LiteLLM raises as BadRequestError")
# Groq's recorded words (fact groq.tool_choice_words)
_GROQ_400 = ("Groq answers 400 \"Only allowed string values for 'tool_choice' are none, auto, and required\" (groq "
             "1.7.0 ChatCompletionToolChoiceOptionParam has no 'any'), which LiteLLM raises as BadRequestError")
# OpenAIGPTConfig.transform_request, which each OpenAI-compatible route's config inherits or calls
_NO_TOOLS = Source(_OPENAI_FILE, 682, 'if not optional_params.get("tools") and not optional_params.get("functions"): '
                                      'optional_params.pop("tool_choice", None)')
_UNDOCUMENTED = "{host} documents no 'any' (facts {id}.tool_choice_words): what it answers is not recorded"


def _openai_like(provider: str, prefix: str, config: str, any_says: str | None,
                 source: Source = _COPY, no_tools: Source | None = _NO_TOOLS, **more: Any) -> Route:
    rule = ChoiceRule(COPIED, source)
    choices = {"auto": rule, "none": rule, "required": rule, "named": rule, "any": rule._replace(api_says=any_says)}
    choices.update(more.pop("choices", {}))
    return Route(provider, prefix, config, "tool_choice", choices, more.pop("parallel", "copied"),
                 more.pop("parallel_source", source), no_tools=no_tools, **more)


_ANTHROPIC_FILE = "llms/anthropic/chat/transformation.py"
_GEMINI_FILE = "llms/vertex_ai/gemini/vertex_and_google_ai_studio_gemini.py"
_BEDROCK_FILE = "llms/bedrock/chat/converse_transformation.py"
_GEMINI_CHOICES = Source(_GEMINI_FILE, 957, "map_tool_choice_values: none -> mode NONE, required -> ANY, auto -> AUTO, "
                                            "a named function -> ANY with allowed_function_names")
_BEDROCK_CHOICES = Source(_BEDROCK_FILE, 786, "map_tool_choice_values: auto -> {auto: {}}, required -> {any: {}}, a "
                                              "named function -> {tool: {name}}")
_UNSUPPORTED_PARAMS = Source("utils.py", 5671, "{custom_llm_provider} does not support parameters: "
                                               "{list(unsupported_params.keys())}, for model={model}.")
# utils.py get_optional_params: a parameter the config does not list raises, unless drop_params pops it
_PARAMS_ERROR = ("UnsupportedParamsError: litellm.UnsupportedParamsError: {route} does not support parameters: "
                 "{params}, for model={model}. To drop these, set `litellm.drop_params=True` or for proxy: "
                 "`litellm_settings: drop_params: true` . If you want to use these params dynamically send "
                 "allowed_openai_params={params} in your request.")

_FIREWORKS_FILE = "llms/fireworks_ai/chat/transformation.py"
# The Fireworks ids LiteLLM's map lets take tool_choice (FireworksAIConfig.get_supported_openai_params: "if
# self._get_model_cost_capability_exact(model=model, capability="supports_tool_choice") or supports_tool_choice(...)"),
# under accounts/fireworks/models/, accounts/fireworks/routers/ and short; and those it marks without function calling
FIREWORKS_TOOL_CHOICE = frozenset(
    [f"accounts/fireworks/models/{m}" for m in (
        "deepseek-v3p1 deepseek-v3p1-terminus deepseek-v3p2 deepseek-v4-flash deepseek-v4-flash-0731 "
        "deepseek-v4-flash-vision-exp deepseek-v4-pro deepseek-v4-pro-0813 deepseek-v4p1-flash "
        "deepseek-v4p1-flash-1017 deepseek-v4p1-flash-1017-us ember-1 firefunction-v2 glm-4p5 glm-4p5-air glm-4p6 "
        "glm-4p7 glm-5p1 glm-5p2 glm-5p3 glm-5p3-flash gpt-oss-120b gpt-oss-20b inkling kimi-k2-instruct "
        "kimi-k2-instruct-0905 kimi-k2-thinking kimi-k2p5 kimi-k2p6 kimi-k2p7-code kimi-k3 kimi-k3p1-pro "
        "llama-v3p1-405b-instruct minimax-m2p1 minimax-m2p7 minimax-m3 minimax-m3p1-flash mixtral-8x22b-instruct-hf "
        "muse-glimmer-30b nemotron-3-ultra-nvfp4 nemotron-lightning-3p5-30b-a3b qwen3p7-plus qwen3p8-max").split()]
    + [f"accounts/fireworks/routers/{m}" for m in (
        "auto auto-instant deepseek-v4p1-flash-1017-spot deepseek-v4p1-flash-1017-ultrafast deepseek-v4p1-flash-spot "
        "deepseek-v4p1-flash-us firerouter glm-5p1-fast glm-5p2-fast glm-5p2-fast-us glm-5p3-fast glm-5p3-flash-us "
        "glm-5p3-spot glm-5p3-us kimi-k2p6-fast kimi-k2p7-code-fast kimi-k3-fast kimi-k3-spot kimi-k3-us "
        "spot-deepseek-v4-flash").split()]
    + (
        "deepseek-v4-flash deepseek-v4-flash-0731 deepseek-v4-flash-vision-exp deepseek-v4-pro-0813 "
        "deepseek-v4p1-flash deepseek-v4p1-flash-us glm-4p7 glm-5p1 glm-5p1-fast glm-5p2 glm-5p2-fast "
        "glm-5p2-fast-us glm-5p3 glm-5p3-fast glm-5p3-flash glm-5p3-flash-us glm-5p3-us gpt-oss-120b gpt-oss-20b "
        "kimi-k2p5 kimi-k2p6 kimi-k2p6-fast kimi-k2p7-code kimi-k2p7-code-fast kimi-k3 kimi-k3-fast kimi-k3-us "
        "kimi-latest minimax-latest minimax-m2p1 minimax-m3 muse-glimmer-30b nemotron-3-ultra-nvfp4 "
        "nemotron-lightning-3p5-30b-a3b qwen3p7-plus qwen3p8-max").split())
FIREWORKS_NO_TOOLS = frozenset(f"accounts/fireworks/models/{m}" for m in (
    "deepseek-coder-v2-instruct llama-v3p1-8b-instruct llama-v3p2-11b-vision-instruct llama-v3p2-1b-instruct "
    "llama-v3p2-3b-instruct qwen2-72b-instruct qwen2p5-coder-32b-instruct qwen2p5-coder-32b-instruct-128k "
    "qwen2p5-coder-32b-instruct-32k-rope qwen2p5-coder-32b-instruct-64k ultramarine-1-flash-us yi-large").split())
# The SambaNova ids LiteLLM's map flags supports_function_calling (SambanovaConfig.get_supported_openai_params)
SAMBANOVA_TOOLS = frozenset(("DeepSeek-V3.1", "DeepSeek-V3.2", "Llama-4-Maverick-17B-128E-Instruct",
                             "Meta-Llama-3.3-70B-Instruct", "MiniMax-M2.7", "gpt-oss-120b"))
_SAMBANOVA = Source("llms/sambanova/chat.py", 76, 'if supports_function_calling(model, custom_llm_provider="sambanova"): '
                                                  'params.append("tools"); params.append("tool_choice"); '
                                                  'params.append("parallel_tool_calls")')
_RESPONSES_FILE = "completion_extras/litellm_responses_transformation/transformation.py"
_RESPONSES_COPY = Source(_RESPONSES_FILE, 1193, 'elif key == "tool_choice": responses_api_request["tool_choice"] = '
                                               "self._normalize_tool_choice_for_responses_api(value)")
VLLM_TOOLS = Source("llms/hosted_vllm/chat/transformation.py", 92,
                   "_tools = remove_additional_properties(copy.deepcopy(_tools)); _tools = "
                   "remove_strict_from_schema(_tools)")
_VLLM = Source("llms/hosted_vllm/chat/transformation.py", 108,
               "return super().map_openai_params(non_default_params, optional_params, model, drop_params)")
_LLAMAFILE = Source("llms/llamafile/chat/transformation.py", 8, "class LlamafileChatConfig(OpenAIGPTConfig)")
HOST_ROUTES: dict[str, Route] = {
    "azure": _openai_like("azure", "azure/", "AzureOpenAIConfig",
                          "Azure OpenAI's tool_choice is none | auto | required | a named function in every spec read "
                          "(fact azure.tool_choice_forms: inference.yaml 2024-10-21 chatCompletionToolChoiceOption): "
                          "no 'any'; its words for it are not recorded (the mock answers a 400 in toolchoice's words)",
                          Source("llms/azure/chat/gpt_transformation.py", 276, 'else: optional_params["tool_choice"] = '
                                                                               "value"),
                          Source("llms/azure/chat/gpt_transformation.py", 322, 'if key != "tool_choice" or '
                                                                               'optional_params.get("tools") or '
                                                                               'optional_params.get("functions")'),
                          parallel_source=Source("llms/azure/chat/gpt_transformation.py", 298,
                                                 "elif param in supported_openai_params: optional_params[param] = "
                                                 "value")),
    "openai-responses": _openai_like(
        "openai-responses", "openai/responses/", "LiteLLMResponsesTransformationHandler",
        _OPENAI_400.replace("ChatCompletionToolChoiceOptionParam", "responses ToolChoiceOptions"), _RESPONSES_COPY,
        None, choices={"named": ChoiceRule({"type": "function", "name": "{name}"}, Source(
            _RESPONSES_FILE, 919, 'if isinstance(tool_choice.get("name"), str) ...: return '
                                  "_flat_responses_tool_choice(choice_type, tool_choice[\"name\"])"))},
        tools_note='writes each function tool with "strict": null (openai 3.57.0 responses FunctionToolParam: strict '
                   "Required[Optional[bool]]); the API request sends false, as the Responses API treats an omitted "
                   "strict as true; what it does with null is not recorded",
        parallel_source=Source(_RESPONSES_FILE, 1198, "elif key in ResponsesAPIOptionalRequestParams.__annotations__: "
                                                      "responses_api_request[key] = value")),
    "fireworks": _openai_like(
        "fireworks", "fireworks_ai/", "FireworksAIConfig", None, Source(_FIREWORKS_FILE, 351, "# pass through the value "
                                                                        'of tool choice optional_params["tool_choice"] '
                                                                        "= value"),
        choices={"required": ChoiceRule("any", Source(_FIREWORKS_FILE, 348, 'if value == "required": '
                                                                            'optional_params["tool_choice"] = "any"'))},
        model_params=(ModelParams(("tool_choice",), FIREWORKS_TOOL_CHOICE, True,
                                  Source(_FIREWORKS_FILE, 310, "if self._get_model_cost_capability_exact(model=model, "
                                                               'capability="supports_tool_choice") or '
                                                               "supports_tool_choice(...): "
                                                               'supported_params.append("tool_choice")')),
                      ModelParams(("tools", "parallel_tool_calls"), FIREWORKS_NO_TOOLS, False,
                                  Source(_FIREWORKS_FILE, 293, 'if supports_function_calling(model=model, '
                                                               'custom_llm_provider="fireworks_ai"): '
                                                               'supported_params.append("tools")')))),
    "together": _openai_like("together", "together_ai/", "TogetherAIChatConfig",
                             _UNDOCUMENTED.format(host="Together", id="together"),
                             Source("llms/together_ai/chat/transformation.py", 228, "mapped_openai_params = "
                                                                                    "super().map_openai_params(...)")),
    "cerebras": _openai_like("cerebras", "cerebras/", "CerebrasConfig",
                             _UNDOCUMENTED.format(host="Cerebras", id="cerebras"),
                             Source("llms/cerebras/chat.py", 93, "elif param in supported_openai_params: "
                                                                 "optional_params[param] = value"),
                             parallel="refused",
                             parallel_source=Source("llms/cerebras/chat.py", 54, "get_supported_openai_params: "
                                                                                 "tool_choice and tools, no "
                                                                                 "parallel_tool_calls")),
    "sambanova": _openai_like("sambanova", "sambanova/", "SambanovaConfig",
                              _UNDOCUMENTED.format(host="SambaNova", id="sambanova"),
                              model_params=(ModelParams(("tools", "tool_choice", "parallel_tool_calls"), SAMBANOVA_TOOLS,
                                                        True, _SAMBANOVA),)),
    "huggingface": _openai_like("huggingface", "huggingface/", "HuggingFaceChatConfig",
                                _UNDOCUMENTED.format(host="Hugging Face's router", id="huggingface"), no_tools=None),
    "vllm": _openai_like("vllm", "hosted_vllm/", "HostedVLLMChatConfig",
                         "vLLM answers 400 \"Invalid value for `tool_choice`: any! Only named tools, \"none\", \"auto\" "
                         "or \"required\" are supported. (parameter=tool_choice)\" "
                         "(vllm 0.33.0 chat_completion/protocol.py check_tool_usage)", _VLLM),
    "llamacpp": _openai_like("llamacpp", "llamafile/", "LlamafileChatConfig",
                             "llama-server answers 400 \"Invalid tool_choice: any\" (llama.cpp common/chat.cpp "
                             "common_chat_tool_choice_parse_oaicompat)", _LLAMAFILE),
}

ROUTES: dict[str, Route] = {
    "openai": _openai_like("openai", "openai/", "OpenAIGPTConfig", _OPENAI_400),
    "groq": _openai_like("groq", "groq/", "GroqChatConfig", _GROQ_400),
    "deepseek": _openai_like("deepseek", "deepseek/", "DeepSeekChatConfig",
                             _UNDOCUMENTED.format(host="DeepSeek", id="deepseek")),
    "xai": _openai_like("xai", "xai/", "XAIChatConfig", _UNDOCUMENTED.format(host="xAI", id="xai"),
                        Source("llms/xai/chat/transformation.py", 221, "elif param in supported_openai_params: if value "
                                                                      "is not None: optional_params[param] = value")),
    "openrouter": _openai_like("openrouter", "openrouter/", "OpenrouterConfig",
                               _UNDOCUMENTED.format(host="OpenRouter", id="openrouter")),
    "mistral": Route("mistral", "mistral/", "MistralConfig", "tool_choice", {
        "auto": ChoiceRule(COPIED, Source("llms/mistral/chat/transformation.py", 211,
                                          'case str(choice) if choice in ("auto", "none"): return choice')),
        "none": ChoiceRule(COPIED, Source("llms/mistral/chat/transformation.py", 211,
                                          'case str(choice) if choice in ("auto", "none"): return choice')),
        "required": ChoiceRule("any", Source("llms/mistral/chat/transformation.py", 213,
                                             'case "required" | "any": return "any"')),
        "any": ChoiceRule("any", Source("llms/mistral/chat/transformation.py", 213,
                                        'case "required" | "any": return "any"')),
        "named": ChoiceRule(COPIED, Source("llms/mistral/chat/transformation.py", 215,
                                           'case {"type": "function", "function": {"name": str(name)}} if name')),
    }, "copied", _COPY, no_tools=Source("llms/mistral/chat/transformation.py", 287,
                                        'if param == "tool_choice" and "tools" in non_default_params and '
                                        'non_default_params["tools"]:')),
    "anthropic": Route("anthropic", "anthropic/", "AnthropicConfig", "tool_choice", {
        "auto": ChoiceRule({"type": "auto"}, Source(_ANTHROPIC_FILE, 1079, 'if tool_choice == "auto": '
                                                                           '_tool_choice = ...(type="auto")')),
        "required": ChoiceRule({"type": "any"}, Source(_ANTHROPIC_FILE, 1083, 'elif tool_choice == "required": '
                                                                              '_tool_choice = ...(type="any")')),
        "none": ChoiceRule({"type": "none"}, Source(_ANTHROPIC_FILE, 1085, 'elif tool_choice == "none": '
                                                                           '_tool_choice = ...(type="none")')),
        "named": ChoiceRule({"type": "tool", "name": "{name}"},
                            Source(_ANTHROPIC_FILE, 1097, '_tool_name = tool_choice.get("function", {}).get("name") '
                                                          '... _tool_choice = ...(type="tool")')),
        "any": ChoiceRule(DROPPED, Source(_ANTHROPIC_FILE, 2026, 'the string "any" matches no branch of '
                                                                 '_map_tool_choice: "if _tool_choice is not None: '
                                                                 'optional_params["tool_choice"] = ..." sets nothing'),
                          "the API's default (auto) holds: the model may answer without a call"),
    }, "anthropic", Source(_ANTHROPIC_FILE, 1102, 'if parallel_tool_use is not None: ... if tool_choice == "none": '
                                                  'pass ... _tool_choice["disable_parallel_tool_use"] = not '
                                                  'parallel_tool_use ... else: ...(type="auto", '
                                                  'disable_parallel_tool_use=not parallel_tool_use)'),
        tools_note='adds "type": "custom" to each tool (anthropic 2.14.0 ToolParam: type Literal["custom"])'),
    "gemini": Route("gemini", "gemini/", "VertexGeminiConfig", "toolConfig.functionCallingConfig", {
        "auto": ChoiceRule({"mode": "AUTO"}, _GEMINI_CHOICES),
        "none": ChoiceRule({"mode": "NONE"}, _GEMINI_CHOICES),
        "required": ChoiceRule({"mode": "ANY"}, _GEMINI_CHOICES),
        "named": ChoiceRule({"mode": "ANY", "allowed_function_names": ["{name}"]}, _GEMINI_CHOICES,
                            "allowed_function_names is the proto field's own name, which proto3 JSON parsers accept "
                            "beside allowedFunctionNames (protobuf.dev, JSON mapping)"),
        "any": ChoiceRule(Raise("UnsupportedParamsError: litellm.UnsupportedParamsError: VertexAI doesn't support "
                                "tool_choice=any. Supported tool_choice values=['auto', 'required', json object]. To "
                                "drop it from the call, set `litellm.drop_params = True.",
                                Source(_GEMINI_FILE, 982, "else: raise litellm.utils.UnsupportedParamsError(...) (no "
                                                          "drop_params test)"), False),
                          Source(_GEMINI_FILE, 982, "VertexAI doesn't support tool_choice={tool_choice}.")),
    }, "dropped", Source(_GEMINI_FILE, 1925, "Gemini does not support parallel_tool_calls=False with multiple tools. "
                                             "Drop the param instead of failing"),
        tools_note="writes functionDeclarations as function_declarations (the proto field's own name)"),
    "cohere": Route("cohere", "cohere_chat/", "CohereV2ChatConfig", "tool_choice", {
        word: ChoiceRule(DROPPED, Source("llms/cohere/chat/v2_transformation.py", 138,
                                         "map_openai_params copies stream, temperature, max_tokens, n, top_p, the "
                                         "penalties, stop, tools and seed: no branch for tool_choice"),
                         None if word == "auto" else "the model may answer as with tool_choice left out (auto)")
        for word in ("auto", "none", "required", "any", "named")}, "refused", _UNSUPPORTED_PARAMS),
    "ollama": Route("ollama", "ollama_chat/", "OllamaChatConfig", None, {
        word: ChoiceRule(DROPPED, Source("llms/ollama/chat/transformation.py", 197,
                                         'non_default_params.pop("tool_choice", None)  # causes ollama requests to '
                                         'hang'),
                         "the tools are still sent, so the model may call one" if word == "none" else None)
        for word in ("auto", "none", "required", "any", "named")}, "refused", _UNSUPPORTED_PARAMS),
    "bedrock": Route("bedrock", "bedrock/converse/", "AmazonConverseConfig", "toolConfig.toolChoice", {
        "auto": ChoiceRule({"auto": {}}, _BEDROCK_CHOICES),
        "required": ChoiceRule({"any": {}}, _BEDROCK_CHOICES),
        "named": ChoiceRule({"tool": {"name": "{name}"}}, _BEDROCK_CHOICES),
        "none": ChoiceRule(Raise("UnsupportedParamsError: litellm.UnsupportedParamsError: Bedrock doesn't support "
                                 "tool_choice=none. To drop it from the call, set `litellm.drop_params = True.",
                                 Source(_BEDROCK_FILE, 794, 'if tool_choice == "none": if litellm.drop_params is True '
                                                            'or drop_params is True: return None else: raise'), True),
                           Source(_BEDROCK_FILE, 794, "Bedrock doesn't support tool_choice={tool_choice}."),
                           "the tools are still sent, so the model may call one"),
        "any": ChoiceRule(Raise("UnsupportedParamsError: litellm.UnsupportedParamsError: Bedrock doesn't support "
                                "tool_choice=any. Supported tool_choice values=['auto', 'required', json object]. To "
                                "drop it from the call, set `litellm.drop_params = True.",
                                Source(_BEDROCK_FILE, 813, "else: raise litellm.utils.UnsupportedParamsError(...) (no "
                                                           "drop_params test)"), False),
                          Source(_BEDROCK_FILE, 813, "Bedrock doesn't support tool_choice={tool_choice}.")),
    }, "bedrock", Source(_BEDROCK_FILE, 1896, "if parallel_tool_use_config is not None and "
                                              "bedrock_converse_supports_parallel_tool_use_config(model): ... "
                                              'additional_request_params.pop("parallel_tool_calls", None)'),
        tools_path="toolConfig.tools",
        no_tools=Source(_BEDROCK_FILE, 2238, "if len(bedrock_tools) > 0: tool_choice_values = "
                                             'inference_params.pop("tool_choice", None); bedrock_tool_config = '
                                             "ToolConfigBlock(tools=bedrock_tools, ...)")),
    **HOST_ROUTES,
}

_KEPT = "sends each strict tool's \"strict\": true and its schema as given"
_STRICT_COPY = StrictRule("kept", _COPY, _KEPT)
# What each route does with a strict tool (tests/test_litellm_dialect.py sends tests/dialect/strict.yaml's on each)
STRICT: dict[str, StrictRule] = {
    **{route: _STRICT_COPY for route in ("openai", "groq", "deepseek", "openrouter", "together", "sambanova",
                                         "huggingface", "llamacpp")},
    "azure": StrictRule("kept", ROUTES["azure"].parallel_source, _KEPT),
    "cerebras": StrictRule("kept", ROUTES["cerebras"].parallel_source, _KEPT),
    "mistral": StrictRule("kept", Source("llms/mistral/chat/transformation.py", 625,
                                         "cleaned_tools = remove_json_schema_refs(cleaned_tools, ...) (the "
                                         "docstring of _clean_tool_schema_for_mistral says it removes "
                                         "additionalProperties=False and strict; the code removes neither)"), _KEPT),
    "ollama": StrictRule("kept", Source("llms/ollama/chat/transformation.py", 192,
                                        'if param == "tools": optional_params["tools"] = value'), _KEPT),
    "cohere": StrictRule("kept", Source("llms/cohere/chat/v2_transformation.py", 164,
                                        'if param == "tools": optional_params["tools"] = value'),
                         _KEPT + ", and no top-level strict_tools: Cohere rejects a per-tool strict key with 422 "
                                 "(providers/cohere.py: OpenRouterTeam/openrouter-examples#71)", ("strict_tools",)),
    "openai-responses": StrictRule("kept", Source(_RESPONSES_FILE, 1924, 'strict=function_tool.get("strict")'),
                                   'writes each function tool\'s "strict" as given: true for a strict tool, null '
                                   "for another"),
    "xai": StrictRule("dropped", Source("llms/xai/chat/transformation.py", 212,
                                        'filter_value_from_dict(copy.deepcopy(tool), "strict")'),
                      'leaves "strict" out of every tool (its schema as given)'),
    "fireworks": StrictRule("dropped", Source(_FIREWORKS_FILE, 494, '{key: value for key, value in function.items() if '
                                                                    'key != "strict"}'),
                            'leaves "strict" out of every tool (its schema as given): not strict on the wire'),
    "anthropic": StrictRule("dropped", Source(_ANTHROPIC_FILE, 1136, 'AnthropicMessagesTool(name=tool["function"]'
                                                                     '["name"], input_schema=input_anthropic_schema, '
                                                                     'type="custom") (no strict)'),
                            'leaves "strict" out of every tool (its schema as given): not strict on the wire'),
    "gemini": StrictRule("stripped", Source(_GEMINI_FILE, 1253, "# remove 'additionalProperties' from tools ... "
                                                                "remove_additional_properties(schema_value) ... "
                                                                "remove_strict_from_schema(schema_value)"),
                         'removes every "strict" and "additionalProperties": false and writes the schema as '
                         "parameters, with no functionCallingConfig mode VALIDATED: not strict on the wire"),
    "vllm": StrictRule("stripped", VLLM_TOOLS, 'removes every "strict" and "additionalProperties": false from the '
                                               "tools: not strict on the wire"),
}
_BEDROCK_SPEC = ("types/llms/bedrock.py", 313, 'if supports_strict_tools and additional_properties is not None: '
                 'json_schema["additionalProperties"] = additional_properties ... if supports_strict_tools and strict: '
                 'tool_spec["strict"] = strict')
STRICT["bedrock"] = StrictRule("kept", Source(*_BEDROCK_SPEC), 'sends toolSpec.strict and the schema\'s '
                               "additionalProperties for this model (llms/bedrock/common_utils.py:1802 "
                               "bedrock_converse_supports_strict_tools: an Anthropic id its model map does not flag "
                               "false)")
# An allowed-tools subset, given as OpenAI chat's {"type": "allowed_tools", "allowed_tools": {"mode", "tools"}}:
# litellm.completion raises before any parameter check for a provider outside openai / azure, drop_params or not
_ALLOWED_FILE = "litellm_core_utils/allowed_tools_tool_choice.py"
ALLOWED_REFUSED = Source(_ALLOWED_FILE, 77, "if not is_allowed_tools_tool_choice(tool_choice) or "
                                            "custom_llm_provider in ALLOWED_TOOLS_TOOL_CHOICE_PROVIDERS: return ... "
                                            "raise BadRequestError(...) (main.py:5912 completion, before "
                                            "get_optional_params; drop_params is deliberately not consulted)")
ALLOWED_ERROR = ("BadRequestError: litellm.BadRequestError: tool_choice type 'allowed_tools' is only supported for "
                 "azure, litellm_proxy, openai, got custom_llm_provider={provider}. drop_params does not drop it, "
                 "since that would let the model call tools the request excluded. Send only the allowed tools in "
                 "`tools` with tool_choice='auto' or 'required' instead.")
_ALLOWED: dict[str, ChoiceRule] = {
    "openai": ChoiceRule(COPIED, _COPY),
    "azure": ChoiceRule(COPIED, ROUTES["azure"].choices["auto"].source),
    "openai-responses": ChoiceRule(FLATTENED, Source(_RESPONSES_FILE, 906,
                                                     'if choice_type == "allowed_tools": parsed = '
                                                     "parse_chat_allowed_tools_tool_choice(...); flat = "
                                                     "responses_allowed_tools_tool_choice(parsed)")),
}


def _allowed(name: str, route: Route) -> ChoiceRule:
    refusal = Raise(ALLOWED_ERROR.replace("{provider}", route.prefix.split("/")[0]), ALLOWED_REFUSED, False)
    return _ALLOWED.get(name) or ChoiceRule(refusal, ALLOWED_REFUSED)


ROUTES = {name: route._replace(strict=STRICT.get(name), choices={**route.choices, "allowed": _allowed(name, route)})
          for name, route in ROUTES.items()}
# The Bedrock ids LiteLLM gives a tool's strict (litellm_core_utils/prompt_templates/factory.py:5909
# supports_strict_tools = bool(model and bedrock_converse_supports_strict_tools(model)); common_utils.py:1802: "if not
# base.startswith("anthropic"): return False", then the model map's bedrock_converse_supports_strict_tools, default
# true): Anthropic ids but those the map flags false. For the others BEDROCK_NO_STRICT holds.
BEDROCK_STRICT = re.compile(r"^(?:(?:global|us|eu|au|apac|jp|us-gov)\.)?anthropic\.")
BEDROCK_STRICT_FLAGGED_OFF = re.compile(r"^(?:(?:global|us|eu|au|apac|jp|us-gov)\.)?anthropic\.claude-(?:"
                                        r"haiku-5-5|opus-4-[78]|opus-5(?:-5)?|sonnet-4-20250514-v1:0|sonnet-5(?:-5)?)$")
BEDROCK_NO_STRICT = StrictRule("dropped", Source(*_BEDROCK_SPEC), 'leaves toolSpec.strict and the schema\'s '
                               'top-level "additionalProperties" out for this model: not strict on the wire '
                               "(Bedrock's non-Anthropic families reject the field, LiteLLM's "
                               "common_utils.py:1806; its map flags some Claude ids "
                               "bedrock_converse_supports_strict_tools: false)",
                               top_level_closed=False)

# The Bedrock model ids LiteLLM's bundled model map (model_prices_and_context_window_backup.json) flags
# supports_parallel_tool_use_config (llms/bedrock/common_utils.py:1624 bedrock_converse_supports_parallel_tool_use_config,
# the id or its base model): parallel_tool_calls then rides additionalModelRequestFields.tool_choice (Anthropic's
# disable_parallel_tool_use; its type left out beside a toolConfig.toolChoice, converse_transformation.py:1817)
BEDROCK_PARALLEL_CONFIG = re.compile(r"^(?:(?:global|us|eu|au|apac|jp|us-gov)\.)?anthropic\.claude-(?:"
                                     r"haiku-4-5-20251001-v1:0|haiku-4-5@20251001|sonnet-4-5-20250929-v1:0|"
                                     r"opus-4-5-20251101-v1:0|opus-4-6-v1|opus-4-[78]|sonnet-4-6|"
                                     r"(?:sonnet|opus|fable|mythos)-5(?:-1|-5)?|haiku-5-5)$")
# The Anthropic models the same map flags supports_forced_tool_use: false (llms/anthropic/common_utils.py:969
# forced_tool_use_downgraded): a forcing choice raises, or with drop_params becomes auto
ANTHROPIC_NO_FORCED_TOOL_USE = re.compile(r"^claude-(?:fable-5-1|mythos-5-1|opus-5-5|sonnet-5-5|"
                                          r"(?:fable|opus|sonnet)-latest)$")
ANTHROPIC_FORCED = Source("llms/anthropic/common_utils.py", 976,
                          "if not (litellm.drop_params or drop_params): raise litellm.utils.UnsupportedParamsError("
                          "... does not support forced tool use ...)")
ANTHROPIC_FORCED_ERROR = ("UnsupportedParamsError: litellm.UnsupportedParamsError: {model} does not support forced "
                          "tool use (tool_choice='required' or a named tool). Use tool_choice='auto' and tell the model "
                          "in the prompt when to call the tool, or set `litellm.drop_params = True` to downgrade to "
                          "'auto' automatically.")
PARAMS_ERROR = _PARAMS_ERROR
# AzureOpenAIConfig.map_openai_params by the api-version in the URL: before 2023-12-01 every tool_choice raises (or is
# dropped with drop_params); "required" on 2024-01 .. 2024-05 raises (or is dropped with drop_params)
AZURE_OLD_CHOICE = Source("llms/azure/chat/gpt_transformation.py", 253,
                          'if api_version_year < "2023" or (api_version_year == "2023" and api_version_month < "12") '
                          "...: raise UnsupportedParamsError(...)")
AZURE_OLD_CHOICE_ERROR = ("UnsupportedParamsError: litellm.UnsupportedParamsError: Azure does not support "
                          "'tool_choice', for api_version={api_version}. Bump your API version to '2023-12-01-preview' "
                          "or later. This parameter requires 'api_version=\"2023-12-01-preview\"' or later. drop_params never "
                          "drops an allowed_tools tool_choice, since that would let the model call tools the request "
                          "excluded. Azure API Reference: "
                          "https://learn.microsoft.com/en-us/azure/ai-services/openai/reference#chat-completions")
AZURE_OLD_REQUIRED = Source("llms/azure/chat/gpt_transformation.py", 265,
                            'elif value == "required" and (api_version_year == "2024" and api_version_month <= "05"): '
                            "... raise UnsupportedParamsError(...)")
AZURE_OLD_REQUIRED_ERROR = ("UnsupportedParamsError: litellm.UnsupportedParamsError: Azure does not support 'required' "
                            "as a tool_choice param, for api_version={api_version}. To drop 'tool_choice=required' for "
                            "calls with this Azure API version, set `litellm.drop_params=True` or for proxy: "
                            "`litellm_settings: drop_params: true` Azure API Reference: "
                            "https://learn.microsoft.com/en-us/azure/ai-services/openai/reference#chat-completions")
# The provider APIs' answers to what LiteLLM sends where toolchoice refuses or changes the request
API_ANSWERS: dict[str, str] = {
    "thinking.forced_choice": "Anthropic answers 400 \"Thinking may not be enabled when tool_choice forces tool use.\"",
    "thinking.disabled_for_choice": "DeepSeek's thinking mode (on by default) answers 400 \"Thinking mode does not "
                                    "support this tool_choice\" (api-docs.deepseek.com guides/thinking_mode)",
}
