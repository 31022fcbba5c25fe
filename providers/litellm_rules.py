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


class ChoiceRule(NamedTuple):
    """What a route sends for one of LiteLLM's tool_choice inputs: a wire value (``"{name}"`` in it is the named
    tool), DROPPED, COPIED or a Raise; and the provider API's own answer where LiteLLM's value parts from it."""

    sends: Any
    source: Source
    api_says: str | None = None  # what the provider's API does with what LiteLLM sends (its words, its source)


class Route(NamedTuple):
    provider: str  # toolchoice's provider id
    prefix: str  # LiteLLM's model prefix (the route)
    config: str  # LiteLLM's config class
    choice_path: str | None  # where the choice sits in the body (None: the wire has no field)
    choices: Mapping[str, ChoiceRule]  # keys: auto, none, required, any, named
    parallel: str  # "copied" | "dropped" | "anthropic" (inside tool_choice) | "bedrock" (model map) | "refused"
    parallel_source: Source
    tools_path: str = "tools"
    tools_note: str | None = None  # how LiteLLM writes the tool declarations where the API request differs
    no_tools: Source | None = None  # where a tool_choice without tools is left out (None: sent as mapped)


_OPENAI_FILE = "llms/openai/chat/gpt_transformation.py"
_COPY = Source(_OPENAI_FILE, 307, "if param in supported_openai_params: optional_params[param] = value")
_OPENAI_400 = ("OpenAI answers 400 \"Invalid value for 'tool_choice': 'any' is not one of 'none', 'auto', 'required' "
               "(or a tool_choice object)\" (openai 3.57.0 ChatCompletionToolChoiceOptionParam has no 'any'), which "
               "LiteLLM raises as BadRequestError")
_GROQ_400 = _OPENAI_400.replace("OpenAI answers", "Groq answers").replace("openai 3.57.0", "groq 1.7.0")
# OpenAIGPTConfig.transform_request, which each OpenAI-compatible route's config inherits or calls
_NO_TOOLS = Source(_OPENAI_FILE, 682, 'if not optional_params.get("tools") and not optional_params.get("functions"): '
                                      'optional_params.pop("tool_choice", None)')
_UNDOCUMENTED = "{host} documents no 'any' (facts {id}.tool_choice_words): what it answers is not recorded"


def _openai_like(provider: str, prefix: str, config: str, any_says: str | None,
                 source: Source = _COPY) -> Route:
    rule = ChoiceRule(COPIED, source)
    return Route(provider, prefix, config, "tool_choice",
                 {"auto": rule, "none": rule, "required": rule, "named": rule, "any": rule._replace(api_says=any_says)},
                 "copied", source, no_tools=_NO_TOOLS)


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
}

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
# The provider APIs' answers to what LiteLLM sends where toolchoice refuses or changes the request
API_ANSWERS: dict[str, str] = {
    "thinking.forced_choice": "Anthropic answers 400 \"Thinking may not be enabled when tool_choice forces tool use.\"",
    "thinking.disabled_for_choice": "DeepSeek's thinking mode (on by default) answers 400 \"Thinking mode does not "
                                    "support this tool_choice\" (api-docs.deepseek.com guides/thinking_mode)",
}
