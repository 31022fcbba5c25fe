"""The support table: what each provider can do with tool_choice, as data.

Translators consult these rows to decide between sending a value natively, emulating it or
refusing it, and take the value they send from the row's wire template (``wire_value``);
`toolchoice providers` prints the same templates; the README's matrix is generated from them.
A test checks that every translator behaves as its row says.

A choice's ``wire`` is one of:
- a JSON value with placeholders, the value sent: ``N`` the tool's name, ``M`` the allowed mode
  (auto | required), a list whose one item holds ``N`` has that item once per allowed tool, and
  ``"A"|"B"`` is the provider's word for the allowed mode, A for required and B for auto;
- text in parentheses, such as ``(default; no field)``: the choice is expressed by sending no field;
- any other text: a note for people about an emulated or unsupported choice (never sent).
"""

from __future__ import annotations

import json
import re
from enum import Enum
from typing import Any, Callable, NamedTuple, Sequence

from .model import compact, json_string


class Level(str, Enum):
    NATIVE = "native"  # the provider has this, under the same name
    RENAMED = "renamed"  # same meaning, the provider's own word (e.g. required -> "any")
    EMULATED = "emulated"  # approximated (filtered tools, dropped field, other mode); lossy
    UNSUPPORTED = "unsupported"  # cannot be expressed; sent without it (warning) or refused

    @property
    def mark(self) -> str:
        return {"native": "✔", "renamed": "→", "emulated": "≈", "unsupported": "✘"}[self.value]


class Support(NamedTuple):
    level: Level
    wire: str = ""  # the wire template (see the module's docstring): what translators send and people read
    note: str = ""

    @property
    def usable(self) -> bool:
        return self.level in (Level.NATIVE, Level.RENAMED)


def _n(wire: str, note: str = "") -> Support:
    return Support(Level.NATIVE, wire, note)


def _r(wire: str, note: str = "") -> Support:
    return Support(Level.RENAMED, wire, note)


def _e(wire: str, note: str = "") -> Support:
    return Support(Level.EMULATED, wire, note)


def _u(wire: str = "", note: str = "") -> Support:
    return Support(Level.UNSUPPORTED, wire, note)


FEATURES: tuple[str, ...] = ("auto", "none", "required", "any", "named", "allowed", "parallel", "strict")


class Capability(NamedTuple):
    provider: str
    title: str
    endpoint: str  # default URL (may contain {model} / {deployment} / {region})
    key_env: tuple[str, ...]  # env vars for the key, first wins; () = no key
    default_model: str
    auto: Support
    none: Support
    required: Support
    any: Support
    named: Support
    allowed: Support
    parallel: Support
    strict: Support
    arguments: str  # how replies encode tool-call arguments: "string" (JSON text) or "object"
    sources: tuple[str, ...]
    verified: str = ""  # ISO date the row was last checked against its sources (tests require one)
    measured: str = ""  # set when a probe overlay replaced built-in facts: where and when
    measured_endpoint: str = ""  # the URL the overlay was measured at; it applies to that endpoint only
    module: str = "openai_chat"  # the provider's module in toolchoice.providers: everything else it needs is there
    named_single_call: bool = False  # a named tool_choice yields exactly one call (no parallel extras)

    def feature(self, name: str) -> Support:
        return getattr(self, name)

    def with_feature(self, name: str, support: Support) -> "Capability":
        return self._replace(**{name: support})


_OPENAI_SOURCES = (
    "openai-python 3.54.0 types/chat (chat_completion_tool_choice_option_param.py, chat_completion_allowed_tools_param.py)",
    "platform.openai.com function-calling guide (strict mode, 2026-03-31)",
)

_OPENAI_LIKE = dict(
    auto=_n('"auto"'),
    none=_n('"none"'),
    required=_n('"required"'),
    any=_r('"required"', "'any' is not an OpenAI word"),
    named=_n('{"type":"function","function":{"name":N}}'),
    arguments="string",
)


CAPABILITIES: dict[str, Capability] = {
    "openai": Capability(
        provider="openai", title="OpenAI Chat Completions",
        endpoint="https://api.openai.com/v1/chat/completions", key_env=("OPENAI_API_KEY",),
        default_model="gpt-5.4-mini",  # openai 3.57.0 ChatModel; gpt-4o-mini shuts down 2027-01-14 (model_rules)
        allowed=_n('{"type":"allowed_tools","allowed_tools":{"mode":M,"tools":[{"type":"function","function":{"name":N}}]}}'),
        parallel=_n("parallel_tool_calls"),
        strict=_n("function.strict", "off unless sent"),
        verified="2026-11-23",
        sources=_OPENAI_SOURCES, **_OPENAI_LIKE,
    ),
    "openai-responses": Capability(
        provider="openai-responses", module="openai_responses", title="OpenAI Responses",
        endpoint="https://api.openai.com/v1/responses", key_env=("OPENAI_API_KEY",),
        default_model="gpt-5.4-mini",
        auto=_n('"auto"'), none=_n('"none"'), required=_n('"required"'),
        any=_r('"required"', "'any' is not an OpenAI word"),
        named=_n('{"type":"function","name":N}'),
        allowed=_n('{"type":"allowed_tools","mode":M,"tools":[{"type":"function","name":N}]}'),
        parallel=_n("parallel_tool_calls"),
        strict=_n("tool.strict", "strict by default when omitted: always sent explicitly"),
        arguments="string",
        verified="2026-11-23",
        sources=("openai-python 3.54.0 types/responses (tool_choice_function_param.py, tool_choice_allowed_param.py, function_tool_param.py)",
                 "platform.openai.com function-calling guide (Responses strict default, 2026-03-31)"),
    ),
    "anthropic": Capability(
        provider="anthropic", module="anthropic", named_single_call=True, title="Anthropic Messages",
        endpoint="https://api.anthropic.com/v1/messages", key_env=("ANTHROPIC_API_KEY",),
        default_model="claude-sonnet-5",  # anthropic 2.14.0 types/model_param.py; not in _data/deprecated_models.py
        auto=_n('{"type":"auto"}'), none=_n('{"type":"none"}'),
        required=_r('{"type":"any"}'), any=_n('{"type":"any"}'),
        named=_n('{"type":"tool","name":N}'),
        allowed=_e("only the allowed tools are sent", "no allowed-subset form"),
        parallel=_n("tool_choice.disable_parallel_tool_use"),
        strict=_n("tool.strict"),
        arguments="object",
        verified="2026-11-23",
        sources=("anthropic 2.12.0 types/tool_choice_*_param.py, tool_param.py",
                 "docs.anthropic.com tool use: implement-tool-use, strict-tool-use"),
    ),
    "gemini": Capability(
        provider="gemini", module="gemini", named_single_call=True, title="Google Gemini API (generateContent)",
        endpoint="https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent",
        key_env=("GEMINI_API_KEY", "GOOGLE_API_KEY"), default_model="gemini-3.5-flash",  # GA, no shutdown date announced
        auto=_n('{"mode":"AUTO"}'), none=_n('{"mode":"NONE"}'),
        required=_r('{"mode":"ANY"}'), any=_r('{"mode":"ANY"}'),
        named=_n('{"mode":"ANY","allowedFunctionNames":[N]}'),
        allowed=_n('{"mode":"ANY"|"VALIDATED","allowedFunctionNames":[N]}',
                   "mode required → ANY; mode auto → VALIDATED (which also validates calls)"),
        parallel=_u("", "no switch for parallel calls"),
        strict=_e('{"mode":"VALIDATED"}', "auto/unset only: a forced call (ANY) cannot also be VALIDATED"),
        arguments="object",
        verified="2026-11-23",
        sources=("google-genai 3.4.0 types.py (FunctionCallingConfig, FunctionCallingConfigMode, Schema)",
                 "ai.google.dev/api/caching (FunctionCallingConfig, Mode, Schema; 2026-09-11)",
                 "ai.google.dev/gemini-api/docs/deprecations (gemini-3.5-flash, May 19, 2026: 'No shutdown date "
                 "announced'; the default model, 2026-11-26)"),
    ),
    "mistral": Capability(
        provider="mistral", title="Mistral La Plateforme",
        endpoint="https://api.mistral.ai/v1/chat/completions", key_env=("MISTRAL_API_KEY",),
        default_model="mistral-small-latest",
        auto=_n('"auto"'), none=_n('"none"'), required=_r('"any"', '"required" is accepted too'),
        any=_n('"any"'), named=_n('{"type":"function","function":{"name":N}}'),
        allowed=_e("only the allowed tools are sent", "no allowed-subset form"),
        parallel=_n("parallel_tool_calls"), strict=_n("function.strict"),
        arguments="string",
        verified="2026-11-26",
        sources=("mistralai 3.7.0 client/models (toolchoice.py, toolchoiceenum.py: ToolChoiceEnum = Literal['auto', "
                 "'none', 'any', 'required']; chatcompletionrequest.py: parallel_tool_calls: Optional[bool]; "
                 "function.py: strict: Optional[bool])",
                 "docs.mistral.ai function calling; docs.mistral.ai models overview (mistral-small-latest: an alias "
                 "Mistral points at its current Small model; the default model, 2026-11-26)"),
    ),
    "groq": Capability(
        provider="groq", title="Groq", endpoint="https://api.groq.com/openai/v1/chat/completions",
        key_env=("GROQ_API_KEY",), default_model="openai/gpt-oss-120b",  # llama-3.3-70b-versatile shut down 2026-08-16
        allowed=_e("only the allowed tools are sent", "no allowed_tools form"),
        parallel=_n("parallel_tool_calls"),
        strict=_n("function.strict", "in the SDK types; LangChain drops it"),
        verified="2026-11-26",
        sources=("groq 1.7.0 types/chat (chat_completion_tool_choice_option_param.py, completion_create_params.py)",
                 "console.groq.com docs tool use",
                 "console.groq.com/docs/deprecations (the default model, 2026-11-26; the stored copy's llama-3.3-70b-"
                 "versatile entry was not readable: secondary github.com/papi-ai/groq release v0.15.2 'Both Llama models "
                 "are decommissioned on 16 August 2026' and recommends gpt-oss-120b)"), **_OPENAI_LIKE,
    ),
    "deepseek": Capability(
        provider="deepseek", title="DeepSeek", endpoint="https://api.deepseek.com/chat/completions",
        key_env=("DEEPSEEK_API_KEY",), default_model="deepseek-v4-flash",
        allowed=_e("only the allowed tools are sent", "no allowed_tools form"),
        parallel=_u("", "no documented parallel_tool_calls"),
        strict=_n("function.strict", "beta: needs base URL https://api.deepseek.com/beta"),
        verified="2026-11-21",  # strict re-read 2026-11-26; parallel_tool_calls not found at a primary source
        sources=("api-docs.deepseek.com guides/thinking_mode (thinking on by default; forced tool_choice rejected), "
                 "guides/tool_calls",
                 "api-docs.deepseek.com/zh-cn/guides/tool_calls (re-read 2026-11-26): 'strict 模式(Beta)', '在 strict 模式下,"
                 "模型在输出 Function 调用时会严格遵循 Function 的 JSON Schema 的格式要求' (strict holds; parallel_tool_calls "
                 "was not found documented or refused at a primary source, so the row's date stays)",
                 "vercel/ai packages/deepseek (deepseek-prepare-tools.ts)",
                 "api-docs.deepseek.com Your First API Call (model: 'deepseek-v4-flash deepseek-v4-pro deepseek-chat (to "
                 "be deprecated on 2026/07/24)'; the default model, 2026-11-26)"), **_OPENAI_LIKE,
    ),
    "ollama": Capability(
        provider="ollama", module="ollama", title="Ollama (native /api/chat)", endpoint="http://localhost:11434/api/chat",
        key_env=("OLLAMA_API_KEY",), default_model="llama3.1",
        auto=_n("(default; no field)"), none=_e("tools omitted", "no tool_choice field"),
        required=_u("", "no tool_choice field: cannot be enforced"),
        any=_u("", "no tool_choice field: cannot be enforced"),
        named=_e("only that tool is sent (not enforced)", "no tool_choice field"),
        allowed=_e("only the allowed tools are sent"),
        parallel=_u("", "no switch"), strict=_u("", "no switch"),
        arguments="object",
        verified="2026-11-26",
        sources=("ollama/ollama api/types.go ChatRequest (no tool_choice), docs/api.md",
                 "ollama 0.6.3 _types.py (ChatRequest: tools, format, think; no tool_choice, parallel or strict field)"),
    ),
    "bedrock": Capability(
        provider="bedrock", module="bedrock", named_single_call=True, title="AWS Bedrock Converse",
        endpoint="https://bedrock-runtime.{region}.amazonaws.com/model/{model}/converse",
        key_env=("AWS_BEARER_TOKEN_BEDROCK",), default_model="anthropic.claude-sonnet-4-6",
        auto=_n('{"auto":{}}'),
        none=_e("toolConfig omitted", "no none; toolConfig must stay when history has tool blocks"),
        required=_r('{"any":{}}'), any=_n('{"any":{}}'),
        named=_n('{"tool":{"name":N}}', "Claude 3+ and Amazon Nova (botocore ToolChoice.tool)"),
        allowed=_e("only the allowed tools are sent"),
        parallel=_u("", "no switch in Converse"),
        strict=_n("toolSpec.strict", "some models"),
        arguments="object",
        verified="2026-11-23",
        sources=("botocore 1.44.5 bedrock-runtime service-2.json (ToolConfiguration, ToolChoice, ToolSpecification)",
                 "docs.aws.amazon.com Bedrock API reference ToolChoice",
                 "docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html (model ID "
                 "table: Claude Sonnet 4.6 anthropic.claude-sonnet-4-6; the default model, 2026-11-26)"),
    ),
    "cohere": Capability(
        provider="cohere", module="cohere", title="Cohere Chat v2", endpoint="https://api.cohere.com/v2/chat",
        key_env=("CO_API_KEY", "COHERE_API_KEY"), default_model="command-a-03-2025",
        auto=_n("(default; omitted)"), none=_n('"NONE"'),
        required=_r('"REQUIRED"'), any=_r('"REQUIRED"'),
        named=_e('only that tool is sent + "REQUIRED"', "no named form"),
        allowed=_e("only the allowed tools are sent"),
        parallel=_u("", "no switch"),
        strict=_n("strict_tools (top level, all tools)"),
        arguments="string",
        verified="2026-11-26",
        sources=("cohere 7.3.1 v2/types/v2chat_request_tool_choice.py (V2ChatRequestToolChoice = Literal['REQUIRED', "
                 "'NONE']), v2/client.py (strict_tools: Optional[bool]; no parallel switch)",
                 "docs.cohere.com v2 chat reference",
                 "docs.cohere.com/changelog/2025-09-15-major-command-deprecations (recommends 'command-a-03-2025 (which is "
                 "the strongest-performing model across domains)'); docs.cohere.com/docs/deprecations does not list it "
                 "(the default model, 2026-11-26)"),
    ),
    "azure": Capability(
        provider="azure", title="Azure OpenAI (deployments)",
        endpoint="{endpoint}/openai/deployments/{deployment}/chat/completions?api-version={api_version}",
        key_env=("AZURE_OPENAI_API_KEY",), default_model="(deployment)",
        allowed=_n('{"type":"allowed_tools","allowed_tools":{"mode":M,"tools":[{"type":"function","function":{"name":N}}]}}',
                   "depends on api-version and model"),
        parallel=_n("parallel_tool_calls"), strict=_n("function.strict", "depends on api-version"),
        verified="2026-11-21",
        sources=("openai-python 3.54.0 lib/azure.py", "learn.microsoft.com Azure OpenAI REST reference"),
        **_OPENAI_LIKE,
    ),
    "fireworks": Capability(
        provider="fireworks", title="Fireworks AI",
        endpoint="https://api.fireworks.ai/inference/v1/chat/completions",
        key_env=("FIREWORKS_API_KEY",), default_model="accounts/fireworks/models/llama-v3p1-70b-instruct",
        auto=_n('"auto"'), none=_n('"none"'), required=_n('"required"', 'alias "any"'),
        any=_n('"required"', '"any" is an accepted alias'),
        named=_n('{"type":"function","function":{"name":N}}'),
        allowed=_e("only the allowed tools are sent"),
        parallel=_n("parallel_tool_calls"),
        strict=_n("function.strict"),
        arguments="string",
        verified="2026-11-26",
        sources=("docs.fireworks.ai API reference post-chatcompletions (tool_choice enum: required, alias any)",
                 "fireworks-ai 1.2.30 types/chat/completion_create_params.py (parallel_tool_calls: 'Enable parallel "
                 "function calling.'; ToolChoice: auto|none|any|required|{type: function, function: {name}}), "
                 "types/shared_params/chat_completion_tool.py (Function.strict)"),
    ),
    "together": Capability(
        provider="together", title="Together AI", endpoint="https://api-inference.together.ai/v1/chat/completions",
        key_env=("TOGETHER_API_KEY",), default_model="meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo",
        allowed=_e("only the allowed tools are sent"),
        parallel=_u("", "not in the API's request parameters"),
        strict=_u("", "not in the SDK's tool type (function: name, description, parameters)"),
        verified="2026-11-23",
        sources=("together 3.1.1 resources/chat/completions.py (default URL https://api-inference.together.ai/v1/"
                 "chat/completions), types/tools_param.py (Function: description, name, parameters; no strict), "
                 "types/chat/completion_create_params.py (no parallel_tool_calls; re-read 2026-11-26)",
                 "docs.together.ai docs/inference/function-calling"),
        **_OPENAI_LIKE,
    ),
    "openrouter": Capability(
        provider="openrouter", title="OpenRouter", endpoint="https://openrouter.ai/api/v1/chat/completions",
        key_env=("OPENROUTER_API_KEY",), default_model="openai/gpt-5.4-mini",  # gpt-4o-mini: OpenAI shuts it down 2027-01-14
        allowed=_e("only the allowed tools are sent"),
        parallel=_n("parallel_tool_calls", "default true; enforced by the upstream model"),
        strict=_n("function.strict", "forwarded upstream; some upstreams reject it"),
        verified="2026-11-26",
        sources=("openrouter.ai docs tool calling, API reference",
                 "openrouter 1.3.84 (official SDK, read 2026-11-26) components/chattoolchoice.py (ChatToolChoice: "
                 "ChatServerToolChoice | ChatNamedToolChoice | 'none' | 'auto' | 'required'; no allowed_tools form in chat, "
                 "which toolchoiceallowed.py has only for Responses), chatnamedtoolchoice.py (type 'function', function.name), "
                 "chatrequest.py ('parallel_tool_calls: ... Whether to enable parallel function calling during tool use'), "
                 "chatfunctiontool.py ('strict: ... Enable strict schema adherence')",
                 "openrouter.ai/openai/gpt-5.4-mini/api ('openai/gpt-5.4-mini', released Mar 17, 2026; the default model "
                 "replacing openai/gpt-4o-mini, which OpenAI shuts down on 2027-01-14 (model_rules END_OF_LIFE), "
                 "2026-11-26)"), **_OPENAI_LIKE,
    ),
    "xai": Capability(
        provider="xai", title="xAI", endpoint="https://api.x.ai/v1/chat/completions",
        key_env=("XAI_API_KEY",), default_model="grok-4.3",  # grok-4-0709 retired 2026-05-15
        allowed=_e("only the allowed tools are sent"),
        parallel=_n("parallel_tool_calls", "named so in xai-sdk's gRPC request; no REST reference page was read"),
        strict=_n("function.strict"),
        verified="2026-11-26",
        sources=("docs.x.ai function calling",
                 "xai-sdk 1.21.0 proto/v6/chat_pb2.pyi (read 2026-11-26): GetCompletionsRequest has 'tool_choice: ToolChoice' "
                 "and 'parallel_tool_calls: bool'; ToolChoice ('mode', 'function_name'); ToolMode TOOL_MODE_AUTO, "
                 "TOOL_MODE_NONE, TOOL_MODE_REQUIRED; Function ('name', 'description', 'strict', 'parameters')", "vercel/ai packages/xai (xai-prepare-tools.ts)",
                 "docs.x.ai/developers/migration/may-15-retirement ('Effective May 15, 2026 at 12:00pm PT ... grok-4-0709"
                 "'; recommended replacement 'grok-4.3'; the default model, 2026-11-26)"), **_OPENAI_LIKE,
    ),
    "cerebras": Capability(
        provider="cerebras", title="Cerebras Inference", endpoint="https://api.cerebras.ai/v1/chat/completions",
        key_env=("CEREBRAS_API_KEY",), default_model="gpt-oss-120b",  # llama-3.3-70b deprecated 2026-02-16
        allowed=_e("only the allowed tools are sent", "no allowed_tools form in the SDK's ToolChoice"),
        parallel=_n("parallel_tool_calls"),
        strict=_n("function.strict"),
        verified="2026-11-26",
        sources=("cerebras-cloud-sdk 1.91.0 (re-read 2026-11-26; first read at the 2026-01-06 source) "
                 "types/chat/completion_create_params.py: tool_choice "
                 "none|auto|required|{type, function: {name}}, parallel_tool_calls, tools[].function.strict; "
                 "_client.py: base URL https://api.cerebras.ai, CEREBRAS_API_KEY; resources/chat/completions.py: "
                 "POST /v1/chat/completions; types/chat/chat_completion.py: arguments is a string",
                 "inference-docs.cerebras.ai api-reference chat-completions (parallel_tool_calls, default true)",
                 "inference-docs.cerebras.ai/support/deprecation (2026-02-16: 'Deprecated qwen-3-32b and llama-3.3-70b. "
                 "We recommend migrating to GPT OSS 120B'; the default model, 2026-11-26)"),
        **_OPENAI_LIKE,
    ),
    "sambanova": Capability(
        provider="sambanova", title="SambaNova Cloud", endpoint="https://api.sambanova.ai/v1/chat/completions",
        key_env=("SAMBANOVA_API_KEY",), default_model="Meta-Llama-3.3-70B-Instruct",
        allowed=_e("only the allowed tools are sent", "no allowed_tools form in the SDK's ToolChoice"),
        parallel=_n("parallel_tool_calls", "the default is not stated in the SDK or the docs read: unknown"),
        strict=_u("", "not in the SDK's tool type (ToolFunction: name, description, parameters)"),
        verified="2026-11-26",
        sources=("sambanova 1.13.0 (official SDK, read 2026-11-26) types/chat/completion_create_params.py: 'ToolChoice: "
                 "TypeAlias = Union[Literal[\"none\", \"auto\", \"required\"], ToolChoiceToolChoiceObject]' ('`required` "
                 "means the model must call one or more tools. Specifying a particular tool via `{\"type\": \"function\", "
                 "\"function\": {\"name\": \"my_function\"}}` forces the model to call that tool'); 'parallel_tool_calls: "
                 "Optional[bool]' ('Whether to enable parallel function calling during tool use'); ToolFunction: name, "
                 "description, parameters (no strict); _client.py: base URL 'https://api.sambanova.ai/v1', the key from "
                 "SAMBANOVA_API_KEY; resources/chat/completions.py: POST /chat/completions; types/chat/"
                 "chat_completion_response.py: 'arguments: Optional[str]' (JSON text)",
                 "docs.sambanova.ai/docs/en/features/function-calling (read 2026-11-26): supported models "
                 "'Meta-Llama-3.3-70B-Instruct', 'Llama-4-Maverick-17B-128E-Instruct', 'Qwen3-235B', 'gpt-oss-120b', "
                 "'DeepSeek-V3.1', 'DeepSeek-V3.2', 'MiniMax-M2.7' (the default model is the first)"),
        **_OPENAI_LIKE,
    ),
    "vllm": Capability(
        provider="vllm", title="vLLM (OpenAI-compatible server)",
        endpoint="http://localhost:8000/v1/chat/completions", key_env=("VLLM_API_KEY",),
        default_model="(served model)",
        allowed=_e("only the allowed tools are sent"),
        parallel=_n("parallel_tool_calls", "false honored since vllm#26233 (extra calls dropped)"),
        strict=_n("function.strict"),
        verified="2026-11-26",
        sources=("vllm-project/vllm docs/features/tool_calling.md (stored copy at 0064cc9, re-read 2026-11-26): 'named "
                 "function calling, as well as the auto, required ... and none options for the tool_choice field'; 'The "
                 "strict field is supported across all three API surfaces'",
                 "vllm-project/vllm#26233 (merged): 'if a user sets parallel_tool_calls to False then we'll only return a "
                 "single tool call'; 'simply drops any tool calls after the first'"), **_OPENAI_LIKE,
    ),
    "llamacpp": Capability(
        provider="llamacpp", title="llama.cpp llama-server",
        endpoint="http://localhost:8080/v1/chat/completions", key_env=("LLAMA_API_KEY",),
        default_model="(loaded model)",
        auto=_n('"auto"'), none=_n('"none"'), required=_n('"required"'),
        any=_r('"required"'),
        named=_e('only that tool is sent + "required"', "the object form is silently read as auto"),
        allowed=_e("only the allowed tools are sent"),
        parallel=_n("parallel_tool_calls", "defaults to false"),
        strict=_u("", "no strict switch"),
        arguments="string",
        verified="2026-11-26",
        sources=("ggml-org/llama.cpp docs/function-calling.md", "llama.cpp common/chat.cpp common_chat_tool_choice_parse_oaicompat",
                 "ggml-org/llama.cpp tools/server/server-common.cpp (stored copy at 006639c, re-read 2026-11-26): "
                 "'auto tool_choice = json_value(body, \"tool_choice\", std::string(\"auto\"))' (an object falls back to "
                 "auto), 'inputs.parallel_tool_calls = json_value(body, \"parallel_tool_calls\", false)'; "
                 "common_chat_tools_parse_oaicompat reads name, description, parameters (no strict)"),
    ),
    "huggingface": Capability(
        provider="huggingface", title="Hugging Face Inference Providers / TGI",
        endpoint="https://router.huggingface.co/v1/chat/completions", key_env=("HF_TOKEN",),
        default_model="meta-llama/Llama-3.1-8B-Instruct",
        allowed=_e("only the allowed tools are sent"),
        parallel=_u("", "not in the chat-completion input types"),
        strict=_u("", "not in the chat-completion input types"),
        verified="2026-11-21",
        sources=("huggingface_hub 2.4.0 inference/_generated/types/chat_completion.py (tool_choice: auto|none|required|"
                 "{function: {name}}; ChatCompletionInputFunctionDefinition: name, parameters, description, no strict; "
                 "no parallel_tool_calls; re-read 2026-11-26)", "huggingface/text-generation-inference docs",
                 "huggingface.co/docs/inference-providers/guides/function-calling (read 2026-11-26): 'base_url=\"https://"
                 "router.huggingface.co/v1\"' (the endpoint; the default model was not found at a primary source)"),
        auto=_n('"auto"'), none=_n('"none"'), required=_n('"required"'),
        any=_r('"required"', "'any' is not a TGI word"),
        named=_n('{"function":{"name":N}}', "no type key in the hub's types"),
        arguments="string",
    ),
}

PROVIDER_IDS: tuple[str, ...] = tuple(CAPABILITIES)

# ---- wire templates -----------------------------------------------------------------------

# Builders take (name, names, mode, each): the one tool's name (or a list item's), every allowed name,
# the allowed mode, and an optional per-name replacement for list items (None keeps the template's item).
Builder = Callable[[Any, Sequence[str], str, Any], Any]
# A text builder takes (name, names, mode) and gives what the builder builds (without ``each``) as compact
# JSON text (``model.compact``), the way the ledger quotes it, without encoding the value.
TextBuilder = Callable[[Any, Sequence[str], str], str]


class WireForm:
    """A wire template, read once (``wire_form``): translators fill it per request, with no parsing then.
    (A plain class: a NamedTuple class costs render's start-up more to create.)"""

    __slots__ = ("build", "word", "text")

    def __init__(self, build: Builder, word: str | None = None, text: TextBuilder | None = None) -> None:
        self.build = build
        self.word = word  # the template is one constant word ('"required"'): the value, the same every time
        self.text = text  # for a template of an object or a list: its text, built without encoding


WIRE_FORMS: dict[str, WireForm] = {}  # template -> its form (wire_form)
_STRING = r'"(?:[^"\\]|\\.)*"'
_TOKENS = re.compile(rf"{_STRING}(?:\|{_STRING})+|{_STRING}|\bN\b|\bM\b")
_SLOT = "\x00"  # marks a placeholder inside the parsed template (no JSON template holds this character)


class WireTemplateError(ValueError):
    """A row's wire is not a value to send (a note where a translator needs a value)."""


def is_value_template(wire: str) -> bool:
    """True when ``wire`` is a value to send (a JSON form), not a note."""
    return wire[:1] in ('"', "{", "[")


def sends_no_field(wire: str) -> bool:
    """True when ``wire`` says the choice is expressed by sending no field, e.g. ``(default; omitted)``."""
    return wire.startswith("(") and wire.endswith(")")


def wire_value(wire: str, names: Sequence[str] = (), mode: str = "auto", each: Any = None) -> Any:
    """The value a row's wire template stands for: ``N`` filled with ``names[0]`` (in a list's item,
    with each name in turn), ``M`` with ``mode``, ``"A"|"B"`` with A when mode is required, else B.
    ``each(name)`` may give a list item of its own (None: the template's item). A ``(...)`` template
    gives None (no field); a note raises ``WireTemplateError``. Each call builds fresh containers, so
    a translator may add keys to what it gets."""
    return wire_form(wire).build(names[0] if names else None, names, mode, each)


def wire_form(wire: str) -> WireForm:
    """The template's builders, read once and kept in ``WIRE_FORMS``; a note raises ``WireTemplateError``."""
    form = WIRE_FORMS.get(wire)
    if form is None:
        form = WIRE_FORMS[wire] = _compile(wire)
    return form


def _compile(wire: str) -> WireForm:
    if sends_no_field(wire):
        return WireForm(lambda name, names, mode, each: None)
    parsed, alternatives = _parse(wire)
    build = _builder(parsed, alternatives)
    if isinstance(parsed, (dict, list)):
        return WireForm(build, text=_text_builder(parsed, alternatives))
    return WireForm(build, word=parsed if isinstance(parsed, str) and _constant(parsed) else None)


def _parse(wire: str) -> tuple[Any, list[tuple[str, str]]]:
    """A value template as JSON with its placeholders marked (N, M and alternative i as ``_SLOT`` strings),
    and the alternatives' words."""
    if not is_value_template(wire):
        raise WireTemplateError(f"{wire!r} is a note, not a value to send")
    alternatives: list[tuple[str, str]] = []

    def token(match: re.Match[str]) -> str:
        text = match.group(0)
        if text in ("N", "M"):
            return json.dumps(_SLOT + text)
        words = re.findall(_STRING, text)
        if len(words) == 1:
            return text
        if len(words) != 2:
            raise WireTemplateError(f'{wire!r}: "A"|"B" takes two words, for allowed mode required and for auto')
        alternatives.append((json.loads(words[0]), json.loads(words[1])))
        return json.dumps(f"{_SLOT}|{len(alternatives) - 1}")

    text = _TOKENS.sub(token, wire)
    try:
        return json.loads(text), alternatives
    except ValueError as exc:
        raise WireTemplateError(f"{wire!r} is not a JSON form: {exc}") from None


def _holds_name(node: Any) -> bool:
    if isinstance(node, dict):
        return any(_holds_name(v) for v in node.values())
    if isinstance(node, list):
        return any(_holds_name(v) for v in node)
    return node == _SLOT + "N"


def _constant(node: Any) -> bool:
    return node is None or isinstance(node, (bool, int, float)) or (isinstance(node, str) and not node.startswith(_SLOT))


def _builder(node: Any, alternatives: list[tuple[str, str]]) -> Builder:
    if isinstance(node, dict):
        # A copy of the constants with every key in the template's order; N and the built values (a call
        # each) are then put in their places.
        base: dict[str, Any] = {}
        name_keys: list[str] = []
        built: list[tuple[str, Builder]] = []
        for key, value in node.items():
            base[key] = value if _constant(value) else None
            if value == _SLOT + "N":
                name_keys.append(key)
            elif not _constant(value):
                built.append((key, _builder(value, alternatives)))
        if not built and not name_keys:
            return lambda name, names, mode, each: base.copy()
        if not built and len(name_keys) == 1:
            only = name_keys[0]

            def named(name: Any, names: Sequence[str], mode: str, each: Any) -> dict[str, Any]:
                out = base.copy()
                out[only] = name
                return out
            return named

        def build(name: Any, names: Sequence[str], mode: str, each: Any) -> dict[str, Any]:
            out = base.copy()
            for key in name_keys:
                out[key] = name
            for key, what in built:
                out[key] = what(name, names, mode, each)
            return out
        return build
    if isinstance(node, list):
        if len(node) == 1 and _holds_name(node[0]):  # one item per name
            item = _builder(node[0], alternatives)
            bare = node[0] == _SLOT + "N"  # [N]: the names themselves

            def repeat(name: Any, names: Sequence[str], mode: str, each: Any) -> list[Any]:
                if each is None:
                    return list(names) if bare else [item(n, names, mode, None) for n in names]
                out = []
                for n in names:
                    own = each(n)
                    out.append(item(n, names, mode, None) if own is None else own)
                return out
            return repeat
        parts = [_builder(value, alternatives) for value in node]
        return lambda name, names, mode, each: [b(name, names, mode, each) for b in parts]
    if node == _SLOT + "N":
        return lambda name, names, mode, each: name
    if node == _SLOT + "M":
        return lambda name, names, mode, each: mode
    if isinstance(node, str) and node.startswith(_SLOT + "|"):
        required, auto = alternatives[int(node[2:])]
        return lambda name, names, mode, each: required if mode == "required" else auto
    return lambda name, names, mode, each: node  # a constant: str, number, bool or null


def _text_builder(node: Any, alternatives: list[tuple[str, str]]) -> TextBuilder:
    parts = _text_parts(node, alternatives)
    if len(parts) == 1 and isinstance(parts[0], str):
        constant = parts[0]
        return lambda name, names, mode: constant
    if len(parts) == 3 and parts[1] is _name_text:  # one N between two texts: most named forms
        before, after = parts[0], parts[2]
        return lambda name, names, mode: before + compact(name) + after
    return lambda name, names, mode: "".join([p if type(p) is str else p(name, names, mode) for p in parts])


def _text_parts(node: Any, alternatives: list[tuple[str, str]]) -> list[Any]:
    """The template's text as a list of texts and slots (``slot(name, names, mode)`` gives a text),
    neighbouring texts joined."""
    parts: list[Any] = []

    def add(part: Any) -> None:
        if type(part) is str and parts and type(parts[-1]) is str:
            parts[-1] += part
        else:
            parts.append(part)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            add("{")
            for index, (key, value) in enumerate(node.items()):
                add(("," if index else "") + compact(key) + ":")
                walk(value)
            add("}")
        elif isinstance(node, list) and len(node) == 1 and _holds_name(node[0]):  # one item per name
            item = _text_builder(node[0], alternatives)
            add(lambda name, names, mode: "[" + ",".join([item(n, names, mode) for n in names]) + "]")
        elif isinstance(node, list):
            add("[")
            for index, value in enumerate(node):
                if index:
                    add(",")
                walk(value)
            add("]")
        elif node == _SLOT + "N":
            add(_name_text)
        elif node == _SLOT + "M":
            add(lambda name, names, mode: json_string(mode))
        elif isinstance(node, str) and node.startswith(_SLOT + "|"):
            required, auto = (compact(word) for word in alternatives[int(node[2:])])
            add(lambda name, names, mode: required if mode == "required" else auto)
        else:
            add(compact(node))  # a constant: str, number, bool or null

    walk(node)
    return parts


def _name_text(name: Any, names: Sequence[str], mode: str) -> str:
    return compact(name)
