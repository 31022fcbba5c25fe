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

from .body_limits import ANTHROPIC_STRICT, AZURE_DESCRIPTION, COHERE_STRICT, OPENAI_DESCRIPTION, OPENAI_STRICT
# what a row is (core/capability_types.py), named here too: callers import them from this module
from .capability_types import (FEATURES, Capability, Level, Support, ToolLimit, WithoutTools, _e, _n, _r, _u)
from .family_marks import Finish, Marks, Pasted, Traced

__all__ = ["CAPABILITIES", "FEATURES", "PROVIDER_IDS", "Capability", "Level", "Support", "ToolLimit", "WithoutTools",
           "provider_hint"]


# OpenAI's recorded 400 (fact openai.tool_limit), the words its validator writes for any array over its bound
_OPENAI_TOOL_LIMIT = ToolLimit("openai.tool_limit", 128, ("tools",),
                               "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an "
                               "array with length {count} instead.")


_EVERY_CHOICE = frozenset({"auto", "none", "required", "named", "allowed"})
# OpenAI's recorded 400 (fact openai.tool_choice_without_tools); Azure answers the same words
_OPENAI_WITHOUT_TOOLS = "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified."


_OPENAI_SOURCES = (
    "openai 3.57.0 types/chat (chat_completion_tool_choice_option_param.py, chat_completion_allowed_tools_param.py)",
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
        # a tool call pasted into a scenario as chat takes it; the legacy API's function role
        marks=Marks(pasted=Pasted("OpenAI chat", roles=(("function", "tool", "OpenAI's legacy API"),),
                                  call_wrapper="function", call_form="{id, type: function, function: {name, arguments}}")),
        endpoint="https://api.openai.com/v1/chat/completions", key_env=("OPENAI_API_KEY",),
        default_model="gpt-5.4-mini",  # openai 3.57.0 ChatModel; gpt-4o-mini shuts down 2027-01-14 (model_rules)
        model_prefixes=("gpt", "o1", "o3", "o4"), other_names=("gpt", "chatgpt"),  # openai 3.57.0 types/shared/chat_model.py
        allowed=_n('{"type":"allowed_tools","allowed_tools":{"mode":M,"tools":[{"type":"function","function":{"name":N}}]}}'),
        parallel=_n("parallel_tool_calls"),
        strict=_n("function.strict", "off unless sent"),
        verified="2026-11-26",
        sources=_OPENAI_SOURCES, **_OPENAI_LIKE,
        without_tools=WithoutTools("openai.tool_choice_without_tools", _EVERY_CHOICE, _OPENAI_WITHOUT_TOOLS,
                                   param="tool_choice"),
        tool_limit=_OPENAI_TOOL_LIMIT, body_limits=(OPENAI_DESCRIPTION, *OPENAI_STRICT),
    ),
    "openai-responses": Capability(
        provider="openai-responses", module="openai_responses", title="OpenAI Responses",
        # traced as openai: input, not messages (openai-agents records the Response, "object": "response");
        # its refusal of a history without its reasoning item (cline/cline#12242)
        marks=Marks(traced=Traced("openai", "input", "messages", "response"),
                    reasoning_refusals=("required 'reasoning' item", "without its required reasoning item")),
        endpoint="https://api.openai.com/v1/responses", key_env=("OPENAI_API_KEY",),
        default_model="gpt-5.4-mini",
        auto=_n('"auto"'), none=_n('"none"'), required=_n('"required"'),
        any=_r('"required"', "'any' is not an OpenAI word"),
        named=_n('{"type":"function","name":N}'),
        allowed=_n('{"type":"allowed_tools","mode":M,"tools":[{"type":"function","name":N}]}'),
        parallel=_n("parallel_tool_calls"),
        strict=_n("tool.strict", "strict by default when omitted: always sent explicitly"),
        arguments="string",
        verified="2026-11-26",
        sources=("openai 3.57.0 types/responses (tool_choice_function_param.py, tool_choice_allowed_param.py, function_tool_param.py)",
                 "platform.openai.com function-calling guide (Responses strict default, 2026-03-31)"),
        without_tools=WithoutTools("openai-responses.tool_choice_without_tools", frozenset({"required"}),
                                   "Tool choice 'required' must be specified with 'tools' parameter.", recorded=True),
        body_limits=OPENAI_STRICT,
    ),
    "anthropic": Capability(
        provider="anthropic", module="anthropic", title="Anthropic Messages",
        # its refusal with thinking on and a bare tool_use turn; its system prompt's content blocks pasted as system:
        marks=Marks(reasoning_refusals=("expected `thinking` or `redacted_thinking`",
                                        "expected thinking or redacted_thinking"), pasted=Pasted("Anthropic", "blocks")),
        endpoint="https://api.anthropic.com/v1/messages", key_env=("ANTHROPIC_API_KEY",),
        default_model="claude-sonnet-5",  # anthropic 2.14.0 types/model_param.py; not in _data/deprecated_models.py
        model_prefixes=("claude",), other_names=("claude",),
        auto=_n('{"type":"auto"}'), none=_n('{"type":"none"}'),
        required=_r('{"type":"any"}'), any=_n('{"type":"any"}'),
        named=_n('{"type":"tool","name":N}'),
        allowed=_e("only the allowed tools are sent", "no allowed-subset form"),
        parallel=_n("tool_choice.disable_parallel_tool_use"),
        strict=_n("tool.strict"),
        arguments="object",
        verified="2026-11-26",
        sources=("anthropic 2.14.0 types/tool_choice_*_param.py, tool_param.py",
                 "docs.anthropic.com tool use: implement-tool-use, strict-tool-use"),
        without_tools=WithoutTools("anthropic.tool_choice_without_tools", _EVERY_CHOICE,
                                   "tool_choice may only be specified while providing tools."),
        body_limits=ANTHROPIC_STRICT,
    ),
    "gemini": Capability(
        provider="gemini", module="gemini", title="Google Gemini API (generateContent)",
        marks=Marks(settings=("schema_form",),
                    # Gemini 3: 'Function call is missing a thought_signature in functionCall parts'
                    reasoning_refusals=("thought_signature", "thoughtsignature", "thought signature"),
                    # google-genai 3.6.1 types.FinishReason
                    finishes=(Finish("MISSING_THOUGHT_SIGNATURE", "the request's history lacks the thought signature "
                                     "the model returned (a request problem, not the model's answer)", request_error=True),
                              Finish("TOO_MANY_TOOL_CALLS", "the server-side tool loop stopped after too many tool calls, "
                                     "before the model returned a final answer")),
                    # its systemInstruction ({parts: [{text}]}) and contents[] ({role, parts}) pasted into a scenario
                    pasted=Pasted("Gemini", "parts", ("systemInstruction", "system_instruction"), message_parts=True,
                                  roles=(("model", "assistant"),))),
        endpoint="https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent",
        key_env=("GEMINI_API_KEY", "GOOGLE_API_KEY"), default_model="gemini-3.5-flash",  # GA, no shutdown date announced
        model_prefixes=("gemini",),
        auto=_n('{"mode":"AUTO"}'), none=_n('{"mode":"NONE"}'),
        required=_r('{"mode":"ANY"}'), any=_r('{"mode":"ANY"}'),
        named=_n('{"mode":"ANY","allowedFunctionNames":[N]}'),
        allowed=_n('{"mode":"ANY"|"VALIDATED","allowedFunctionNames":[N]}',
                   "mode required → ANY; mode auto → VALIDATED (which also validates calls)"),
        parallel=_u("", "no switch for parallel calls"),
        strict=_e('{"mode":"VALIDATED"}', "auto/unset only: a forced call (ANY) cannot also be VALIDATED"),
        arguments="object",
        verified="2026-11-26",
        sources=("google-genai 3.6.1 types.py (FunctionCallingConfig, FunctionCallingConfigMode, Schema)",
                 "ai.google.dev/api/caching (FunctionCallingConfig, Mode, Schema; 2026-09-11)",
                 "ai.google.dev/gemini-api/docs/deprecations (gemini-3.5-flash, May 19, 2026: 'No shutdown date "
                 "announced'; the default model, 2026-11-26)"),
        without_tools=WithoutTools("gemini.tool_choice_without_tools", _EVERY_CHOICE,
                                   "Function calling config is set without function_declarations.", recorded=True),
        tool_limit=ToolLimit("gemini.tool_limit", 512, ("tools", "*", "functionDeclarations|function_declarations"),
                             "The GenerateContentRequest proto is invalid:\n  * tools[{index}].function_declarations: "
                             "[FIELD_INVALID] At most 512 function declarations can be specified."),
    ),
    "mistral": Capability(
        provider="mistral", title="Mistral La Plateforme",
        endpoint="https://api.mistral.ai/v1/chat/completions", key_env=("MISTRAL_API_KEY",),
        default_model="mistral-small-latest", model_prefixes=("mistral",),
        auto=_n('"auto"'), none=_n('"none"'), required=_r('"any"', '"required" is accepted too'),
        any=_n('"any"'), named=_n('{"type":"function","function":{"name":N}}'),
        allowed=_e("only the allowed tools are sent", "no allowed-subset form"),
        parallel=_n("parallel_tool_calls"), strict=_n("function.strict"),
        arguments="string",
        verified="2026-11-26",
        sources=("mistralai 3.7.0 client/models (toolchoice.py, toolchoiceenum.py: 'ToolChoiceEnum = "
                 "Union[Literal[\"auto\", \"none\", \"any\", \"required\"], UnrecognizedStr]' (an open enum: the SDK lets "
                 "another word through; until 2026-11-26 quoted as a closed Literal); chatcompletionrequest.py: "
                 "parallel_tool_calls: Optional[bool]; function.py: strict: Optional[bool])",
                 "docs.mistral.ai function calling; docs.mistral.ai models overview (mistral-small-latest: an alias "
                 "Mistral points at its current Small model; the default model, 2026-11-26)"),
        without_tools=WithoutTools("mistral.tool_choice_without_tools",
                                   takes="Mistral's own request library (mistral-common) refuses any, required and a "
                                   "named choice without tools ('No tools provided for tool choice `any`') and takes "
                                   "auto and none; no answer of api.mistral.ai itself is recorded"),
    ),
    "groq": Capability(
        provider="groq", title="Groq", endpoint="https://api.groq.com/openai/v1/chat/completions",
        key_env=("GROQ_API_KEY",), default_model="openai/gpt-oss-120b",  # llama-3.3-70b-versatile: gone 2026-08-16 (END_OF_LIFE)
        allowed=_e("only the allowed tools are sent", "no allowed_tools form"),
        parallel=_n("parallel_tool_calls"),
        strict=_n("function.strict", "in the SDK types; LangChain drops it"),
        verified="2026-11-26",
        sources=("groq 1.7.0 types/chat (chat_completion_tool_choice_option_param.py, completion_create_params.py)",
                 "console.groq.com docs tool use",
                 "the default model (2026-11-26): llama-3.3-70b-versatile's decommission on 2026-08-16 is unverified at "
                 "console.groq.com/docs/deprecations (not readable in the stored copies); two secondary sources agree "
                 "(model_rules END_OF_LIFE)"), **_OPENAI_LIKE,
        tool_limit=ToolLimit("groq.tool_limit", 128, ("tools",), "'tools' : maximum number of items is 128"),
    ),
    "deepseek": Capability(
        provider="deepseek", title="DeepSeek", endpoint="https://api.deepseek.com/chat/completions",
        # its refusal: 'The reasoning_content in the thinking mode must be passed back to the API.'
        marks=Marks(reasoning_refusals=("reasoning_content",)),
        key_env=("DEEPSEEK_API_KEY",), default_model="deepseek-flash", model_prefixes=("deepseek",),
        allowed=_e("only the allowed tools are sent", "no allowed_tools form"),
        parallel=_u("", "unverified: no parallel_tool_calls switch found documented or refused at a primary source; "
                        "the API does make parallel calls (its news, 2024-07-25; see the last source)"),
        strict=_n("function.strict", "beta: needs base URL https://api.deepseek.com/beta"),
        verified="2026-11-26",
        sources=("api-docs.deepseek.com guides/thinking_mode (thinking on by default; forced tool_choice rejected), "
                 "guides/tool_calls",
                 "api-docs.deepseek.com/zh-cn/guides/tool_calls (re-read 2026-11-26): 'strict 模式(Beta)', '在 strict 模式下,"
                 "模型在输出 Function 调用时会严格遵循 Function 的 JSON Schema 的格式要求' (strict holds)",
                 "vercel/ai packages/deepseek (deepseek-prepare-tools.ts)",
                 "the default model (2026-11-28): api-docs.deepseek.com/zh-cn/quick_start/pricing lists deepseek-flash and "
                 "deepseek-v4-pro, '模型名请使用 deepseek-flash' (deepseek-v4-flash, the default until then, is an old name)",
                 "unverified, parallel_tool_calls (2026-11-26): api-docs.deepseek.com/api/create-chat-completion is not "
                 "in the stored copies (pages, docs, code and issues corpora searched); no official SDK",
                 "parallel calls (re-read 2026-11-27): api-docs.deepseek.com/news/news0725 ('Function Calling supports "
                 "multiple functions in one call (up to 128). It supports parallel function calls.'); no switch: "
                 "deepseek-ai/DeepSeek-V3#883 (a user in DeepSeek's repository, reading api-docs.deepseek.com/zh-cn/api/"
                 "create-chat-completion: 'Can't find api to prevent' parallel calls; closed as stale, unanswered); so "
                 "parallel_tool_calls is not sent (a false has no documented effect)"), **_OPENAI_LIKE,
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
        provider="bedrock", module="bedrock", title="AWS Bedrock Converse",
        marks=Marks(settings=("region",)),
        endpoint="https://bedrock-runtime.{region}.amazonaws.com/model/{model}/converse",
        key_env=("AWS_BEARER_TOKEN_BEDROCK",), default_model="anthropic.claude-sonnet-4-6",
        auto=_n('{"auto":{}}'),
        none=_e("toolConfig omitted", "no none; toolConfig must stay when history has tool blocks"),
        required=_r('{"any":{}}'), any=_n('{"any":{}}'),
        named=_n('{"tool":{"name":N}}', "Claude 3+ and Amazon Nova (botocore ToolChoice.tool)"),
        allowed=_e("only the allowed tools are sent"),
        parallel=_u("", "no switch in Converse"),
        strict=_n("toolSpec.strict", "per model: AWS names Claude Sonnet / Haiku / Opus 4.5 and Opus 4.6, the "
                  "rest unsettled (fact bedrock.strict_models)"),
        arguments="object",
        verified="2026-11-26",
        sources=("botocore 1.44.8 bedrock-runtime service-2.json (ToolConfiguration, ToolChoice, ToolSpecification)",
                 "docs.aws.amazon.com Bedrock API reference ToolChoice",
                 "docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html (model ID "
                 "table: Claude Sonnet 4.6 anthropic.claude-sonnet-4-6; the default model, 2026-11-26)"),
        without_tools=WithoutTools("bedrock.tool_choice_without_tools", _EVERY_CHOICE - {"none"},
                                   "1 validation error detected: Value at 'toolConfig.tools' failed to satisfy "
                                   "constraint: Member must have length greater than or equal to 1")
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
        sources=("cohere 7.3.1 v2/types/v2chat_request_tool_choice.py ('V2ChatRequestToolChoice = "
                 "typing.Union[typing.Literal[\"REQUIRED\", \"NONE\"], typing.Any]': fact cohere.tool_choice_values), "
                 "v2/client.py ('strict_tools: typing.Optional[bool]'; no parallel switch)",
                 "docs.cohere.com v2 chat reference",
                 "docs.cohere.com/changelog/2025-09-15-major-command-deprecations (recommends 'command-a-03-2025 (which is "
                 "the strongest-performing model across domains)'); docs.cohere.com/docs/deprecations does not list it "
                 "(the default model, 2026-11-26)"),
        body_limits=COHERE_STRICT,
    ),
    "azure": Capability(
        provider="azure", title="Azure OpenAI (deployments)",
        marks=Marks(settings=("deployment", "endpoint", "api_version")),
        endpoint="{endpoint}/openai/deployments/{deployment}/chat/completions?api-version={api_version}",
        key_env=("AZURE_OPENAI_API_KEY",), default_model="(deployment)",
        other_names=("azureopenai",),  # -p azure-openai read "did you mean openai?"
        allowed=_e("only the allowed tools are sent",
                   "no allowed_tools form in Azure's chatCompletionToolChoiceOption (2024-10-21, v1, v1 preview specs)"),
        parallel=_n("parallel_tool_calls", "default true"),
        strict=_n("function.strict", "in the 2024-10-21 and v1 specs' FunctionObject"),
        verified="2026-11-26",
        sources=("openai 3.57.0 lib/azure.py (read 2026-11-26; 3.54.0 until then): 'base_url = "
                 "f\"{azure_endpoint.rstrip('/')}/openai/deployments/{azure_deployment}\"', 'default_query = "
                 "{\"api-version\": api_version}', '`api_key` from `AZURE_OPENAI_API_KEY`'",
                 "Azure/azure-rest-api-specs (read 2026-11-26; words quoted in fact azure.tool_choice_forms): "
                 "AzureOpenAI/inference/stable/2024-10-21/inference.yaml (toolchoice's default api-version), "
                 "ai/data-plane/OpenAI.v1/azure-v1-v1-generated.yaml (the v1 API of learn.microsoft.com's REST "
                 "reference) and azure-v1-preview-generated.yaml (api-version=preview)"),
        **_OPENAI_LIKE,
        without_tools=WithoutTools("azure.tool_choice_without_tools", _EVERY_CHOICE, _OPENAI_WITHOUT_TOOLS,
                                   param="tool_choice"),
        body_limits=(AZURE_DESCRIPTION,),
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
        key_env=("TOGETHER_API_KEY",), default_model="zai-org/GLM-5.1",  # Meta-Llama-3.1-70B: fact together.default_model
        allowed=_e("only the allowed tools are sent"),
        parallel=_u("", "not in the API's request parameters"),
        strict=_u("", "not in the SDK's tool type nor the API spec's ToolsPart (function: name, description, "
                      "parameters)"),
        verified="2026-11-26",
        sources=("together 3.1.1 (the newest release on 2026-11-26) resources/chat/completions.py, types/tools_param.py "
                 "(Function: description, name, parameters; no strict), types/chat/completion_create_params.py (no "
                 "parallel_tool_calls)",
                 "togethercomputer/openapi openapi.yaml (HEAD 090263a, 2026-04-28; read 2026-11-26): ChatCompletionRequest "
                 "has tools and tool_choice, no parallel_tool_calls; ToolsPart.function has no strict",
                 "docs.together.ai/docs/inference/function-calling (single-call: tool_choice 'String values: "
                 "\"auto\"(default) ... \"none\" ... \"required\"'; the default model: fact together.default_model)"),
        **_OPENAI_LIKE,
    ),
    "openrouter": Capability(
        provider="openrouter", title="OpenRouter", endpoint="https://openrouter.ai/api/v1/chat/completions",
        marks=Marks(settings=("require_parameters",)),
        key_env=("OPENROUTER_API_KEY",), default_model="openai/gpt-5.4-mini",  # gpt-4o-mini: OpenAI shuts it down 2027-01-14
        allowed=_e("only the allowed tools are sent"),
        parallel=_n("parallel_tool_calls", "default true; enforced by the upstream model"),
        strict=_n("function.strict", "forwarded upstream; some upstreams reject it"),
        verified="2026-11-26",
        sources=("openrouter.ai/docs/api-reference/parameters and guides/features/tool-calling (read 2026-11-26; "
                 "parallel_tool_calls 'Default: **true**': fact openrouter.parallel_default)",
                 "openrouter 1.3.84 (official SDK, read 2026-11-26) components/chattoolchoice.py (ChatToolChoice: "
                 "ChatServerToolChoice | ChatNamedToolChoice | 'none' | 'auto' | 'required'; no allowed_tools form in chat, "
                 "which toolchoiceallowed.py has only for Responses), chatnamedtoolchoice.py (type 'function', function.name), "
                 "chatrequest.py ('parallel_tool_calls: ... Whether to enable parallel function calling during tool use'), "
                 "chatfunctiontool.py ('strict: ... Enable strict schema adherence')",
                 "openrouter.ai/openai/gpt-5.4-mini/api ('openai/gpt-5.4-mini', released Mar 17, 2026; the default model "
                 "replacing openai/gpt-4o-mini, which OpenAI shuts down on 2027-01-14 (model_rules END_OF_LIFE), "
                 "2026-11-26)"), **_OPENAI_LIKE,
        without_tools=WithoutTools("openrouter.tool_choice_without_tools",
                                   takes="OpenRouter passes it on to the upstream, and an upstream that refuses it "
                                   "answers 400, relayed as 'Provider returned error' with the upstream's words")
    ),
    "xai": Capability(
        provider="xai", title="xAI", endpoint="https://api.x.ai/v1/chat/completions",
        key_env=("XAI_API_KEY",), default_model="grok-4.3",  # grok-4-0709 retired 2026-05-15
        model_prefixes=("grok",), other_names=("grok",),
        allowed=_e("only the allowed tools are sent"),
        parallel=_n("parallel_tool_calls", "default true"),
        strict=_u("", "accepted for compatibility but 'Not supported' (xAI's REST spec)"),
        verified="2026-11-26",
        sources=("docs.x.ai function calling",
                 "xai-org/xai-sdk-ts spec/openapi.json ('xAI's REST API', at 41e766a, read 2026-11-26): ChatRequest "
                 "'parallel_tool_calls': 'If set to false, the model can perform maximum one tool call.', default true; "
                 "tool_choice none / auto / required / {type: function, function: {name}}; strict: fact "
                 "xai.strict_not_supported",
                 "xai-sdk 1.21.0 proto/v6/chat_pb2.pyi (read 2026-11-26): GetCompletionsRequest has 'tool_choice: ToolChoice' "
                 "and 'parallel_tool_calls: bool'; ToolChoice ('mode', 'function_name'); ToolMode TOOL_MODE_AUTO, "
                 "TOOL_MODE_NONE, TOOL_MODE_REQUIRED; Function ('name', 'description', 'strict', 'parameters')", "vercel/ai packages/xai (xai-prepare-tools.ts)",
                 "docs.x.ai/developers/migration/may-15-retirement ('Effective May 15, 2026 at 12:00pm PT ... grok-4-0709"
                 "'; recommended replacement 'grok-4.3'; the default model, 2026-11-26)"), **_OPENAI_LIKE,
        without_tools=WithoutTools("xai.tool_choice_without_tools", _EVERY_CHOICE,
                                   "Invalid request content: A tool_choice was set on the request but no tools were "
                                   "specified.")
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
        without_tools=WithoutTools("cerebras.tool_choice_without_tools", _EVERY_CHOICE,
                                   "'tool_choice' is only allowed when 'tools' are specified"),
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
        without_tools=WithoutTools("vllm.tool_choice_without_tools", _EVERY_CHOICE - {"none"},
                                   "When using `tool_choice`, `tools` must be set. (parameter=tool_choice)")
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
        without_tools=WithoutTools("llamacpp.tool_choice_without_tools",
                                   takes="llama-server takes it and builds no tool grammar, so the model answers in text")
    ),
    "huggingface": Capability(
        provider="huggingface", title="Hugging Face Inference Providers / TGI",
        endpoint="https://router.huggingface.co/v1/chat/completions", key_env=("HF_TOKEN",),
        default_model="openai/gpt-oss-120b",  # Llama-3.1-8B-Instruct until 2026-11-26: fact huggingface.api_reference
        other_names=("hf",),
        allowed=_e("only the allowed tools are sent"),
        parallel=_u("", "not in the chat-completion input types nor the API reference"),
        strict=_u("", "not in the API reference's tool type (fact huggingface.api_reference)"),
        verified="2026-11-26",
        sources=("huggingface_hub 2.4.0 (the newest release on 2026-11-26) inference/_generated/types/chat_completion.py "
                 "(tool_choice: auto|none|required|{function: {name}}; ChatCompletionInputFunctionDefinition: name, "
                 "parameters, description, no strict; no parallel_tool_calls)", "huggingface/text-generation-inference docs",
                 "huggingface.co/docs/inference-providers tasks/chat-completion and guides/function-calling (read "
                 "2026-11-26; words quoted in fact huggingface.api_reference; the endpoint 'base_url=\"https://"
                 "router.huggingface.co/v1\"')"),
        auto=_n('"auto"'), none=_n('"none"'), required=_n('"required"'),
        any=_r('"required"', "'any' is not a TGI word"),
        named=_n('{"function":{"name":N}}', "no type key in the hub's types"),
        arguments="string",
    ),
}

PROVIDER_IDS: tuple[str, ...] = tuple(CAPABILITIES)


# each row's other names and model id families (Capability.other_names, model_prefixes): a new row brings its own
_OTHER_NAMES = {name: p for p, cap in CAPABILITIES.items() for name in cap.other_names}
_MODEL_FAMILIES = {prefix: p for p, cap in CAPABILITIES.items() for prefix in cap.model_prefixes}
# agent frameworks and clients (-p langchain): not an API; the dialect that shows what one sends, where there is one
_FRAMEWORKS = {"langchain": "langchain", "langgraph": "langchain", "litellm": "litellm", "pydanticai": "pydantic-ai",
               "openaiagents": "openai-agents", "agents": "openai-agents", "vercel": "vercel", "aisdk": "vercel",
               "smolagents": None, "haystack": None, "agno": None, "llamaindex": None, "crewai": None, "autogen": None}


def provider_hint(word: str) -> str:
    """The hint for an unknown provider id: the id it spells another way (`OpenAI`, `llama.cpp`,
    `openai_responses`), else the one row whose title names it (`google`: gemini, `aws`: bedrock), else a close id,
    else the list of ids."""
    import re

    from .choice import did_you_mean

    def letters(text: str) -> str:
        return re.sub(r"[^a-z0-9]", "", text.lower())

    parts = [part.strip() for part in word.split(",")]
    if len(parts) > 1 and all(part in CAPABILITIES for part in parts):  # a comma list where one id goes (a providers:
        # key, a Python caller's string, `mock -p`): "did you mean anthropic?" dropped the first of them
        return f"one provider id here, not a list: give {' and '.join(parts)} each its own"
    key = letters(word)
    if key in _FRAMEWORKS:  # -p langchain: the framework's name for the API it sends to
        dialect = _FRAMEWORKS[key]
        shows = (f"; render and compare show what it sends with --dialect {dialect}" if dialect
                 else "; toolchoice mock shows what it sends (docs/mock.md)")
        return f"{word} is a framework, not a provider's API: name the provider it sends to (openai, anthropic, ...){shows}"
    family = re.match(r"[a-z]+[0-9]?", word.lower())
    if family and family.group() in _MODEL_FAMILIES and re.search(r"[0-9]", word) and key not in _OTHER_NAMES \
            and letters(word) not in map(letters, PROVIDER_IDS):  # -p gpt-4o: a model id
        return f"{word} looks like a model: -p {_MODEL_FAMILIES[family.group()]} -m {word}"
    if key in _OTHER_NAMES:  # a model family's name for its maker's API (-p claude), a short name (-p hf)
        return f"did you mean {_OTHER_NAMES[key]}?"
    same = [p for p in PROVIDER_IDS if letters(p) == key]
    titled = [p for p, cap in CAPABILITIES.items() if key and key in re.findall(r"[a-z0-9]+", cap.title.lower())]
    for found in (same, titled):
        if len(found) == 1:
            return f"did you mean {found[0]}?"
    return did_you_mean(word, PROVIDER_IDS) or f"providers: {', '.join(PROVIDER_IDS)}"
