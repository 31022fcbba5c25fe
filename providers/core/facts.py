"""Dated facts about the providers' wires that are not a tool_choice feature of the support table.

Each fact names the providers it concerns, the primary source it was read at and the date it was
last checked there. Translators keep their own code paths; this table is what `toolchoice
providers` prints beside each row and what `bench/stale_facts.py` lists when a fact grows old.
The hosted-tool facts (HOSTED_TOOL_FACTS, kept in core/hosted_tool_facts.py) are also read by the translators:
a module's NATIVE_TOOLS and TOOLS_TYPE name them by id and its ledger messages cite them (``cited``). `render`
imports this module only where a ledger message cites a fact (hosted tools, a limit, a choice without tools).
Capability rows (capabilities.py) carry their own ``sources`` and ``verified`` date.
"""

from __future__ import annotations

from .choice_facts import CHOICE_FACTS
from .choice_shape_words import CHOICE_SHAPE_FACTS
from .choice_word_facts import CHOICE_WORD_FACTS
from .effort_facts import EFFORT_FACTS
from .fact_record import CITE_END, Fact
from .fact_values import ChoiceWords, NamedModels, VersionRemoves
from .history_facts import CHAT_HOSTS as _CHAT_HOSTS
from .history_facts import HISTORY_FACTS
from .hosted_tool_facts import HOSTED_TOOL_FACTS
from .name_rule_facts import TOOL_NAME_FACTS
from .refusal_words import REFUSAL_FACTS
from .tool_change_facts import TOOL_CHANGE_FACTS
from .without_tools_facts import WITHOUT_TOOLS_FACTS

__all__ = ["CITE_END", "FACTS", "HOSTED_TOOL_FACTS", "Fact", "choice_words", "cited", "fact", "facts_for"]



FACTS: tuple[Fact, ...] = (
    Fact("together.endpoint", ("together",),
         "chat completions go to https://api-inference.together.ai/v1/chat/completions when no base URL is set",
         "together 3.1.1 (the newest release on 2026-11-26) together/resources/chat/completions.py (create: "
         "'\"/v1/chat/completions\" ... else \"https://api-inference.together.ai/v1/chat/completions\"') and _client.py "
         "(base_url)", "2026-11-26"),
    Fact("together.no_strict", ("together",),
         "the tool type has no strict field (function: description, name, parameters)",
         "together 3.1.1 together/types/tools_param.py; togethercomputer/openapi openapi.yaml (HEAD 090263a, "
         "2026-04-28) ToolsPart.function: description, name, parameters", "2026-11-26"),
    Fact("together.named_choice_type", ("together",),
         "the SDK types tool_choice as str | ToolChoiceParam, and ToolChoiceParam is a tool-call shape (id, index, "
         "function.arguments): the OpenAI named form is not in the SDK's types",
         "together 3.1.1 together/types/chat/completion_create_params.py ('ToolChoice: TypeAlias = Union[str, "
         "ToolChoiceParam]'), together/types/tool_choice_param.py (id, function: {arguments, name}, index, type); "
         "togethercomputer/openapi openapi.yaml (HEAD 090263a) ChatCompletionRequest.tool_choice 'oneOf: type: string "
         "... $ref ToolChoice' with ToolChoice 'required: [id, type, function, index]'", "2026-11-26"),
    Fact("together.default_model", ("together",),
         "meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo (the together row's default until 2026-11-26) is gone from "
         "Together's serverless examples 'due to deprecation'; the default is now zai-org/GLM-5.1, which Together's "
         "function-calling guide names its recommended function-calling model",
         "togethercomputer/openapi commit 08c075d (2026-03-17) 'chore: Remove meta-llama from serverless examples due "
         "to deprecation (#228)', which drops meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo from ChatCompletionRequest's "
         "model enum; docs.together.ai/docs/inference/function-calling/best-practices: 'Examples use GLM-5.1 "
         "(zai-org/GLM-5.1), the recommended function-calling model'", "2026-11-26"),
    Fact("azure.tool_choice_forms", ("azure",),
         "Azure OpenAI's chat tool_choice is none | auto | required | {type: function, function: {name}} in every "
         "spec read (2024-10-21, v1, v1 preview): no allowed_tools form, so an allowed subset is emulated by sending "
         "only the allowed tools (until 2026-11-26 the row sent OpenAI's allowed_tools form, which openai-python types "
         "for OpenAI's own API); parallel_tool_calls (default true) and function.strict are in all three",
         "Azure/azure-rest-api-specs specification/cognitiveservices/data-plane/AzureOpenAI/inference/stable/"
         "2024-10-21/inference.yaml: chatCompletionToolChoiceOption 'oneOf: type: string ... enum: none, auto, "
         "required' or chatCompletionNamedToolChoice; 'ParallelToolCalls: description: Whether to enable parallel "
         "function calling during tool use. ... default: true'; FunctionObject 'strict: ... Whether to enable strict "
         "schema adherence when generating the function call'. specification/ai/data-plane/OpenAI.v1/"
         "azure-v1-v1-generated.yaml (stored copy at 31c65e1): AzureCreateChatCompletionRequest 'tool_choice: $ref: "
         "OpenAI.ChatCompletionToolChoiceOption' ('anyOf: type: string enum: none, auto, required' or "
         "OpenAI.ChatCompletionNamedToolChoice), 'parallel_tool_calls: ... default: true', OpenAI.FunctionObject "
         "'strict'; azure-v1-preview-generated.yaml (at 0723d85): the same OpenAI.ChatCompletionToolChoiceOption",
         "2026-11-26", ChoiceWords(("none", "auto", "required"), "refused")),
    Fact("xai.strict_not_supported", ("xai",),
         "xAI's chat API takes function.strict only for compatibility and does not enforce it (nor the parameters "
         "schema): strict is dropped with a warning (until 2026-11-26 the row sent it as native); parallel_tool_calls "
         "is the REST key ('If set to false, the model can perform maximum one tool call.', default true)",
         "xai-org/xai-sdk-ts spec/openapi.json ('xAI's REST API'): FunctionDefinition.strict 'Not supported. Only "
         "maintained for compatibility reasons.'; parameters 'The model _should_ follow the schema, however, this is "
         "not enforced at the moment.'; ChatRequest.parallel_tool_calls", "2026-11-26"),
    Fact("openai.custom_tool.chat", _CHAT_HOSTS,
         'Chat custom tools are {"type":"custom","custom":{"name","description","format"}}, format '
         '{"type":"text"} or {"type":"grammar","grammar":{"syntax":"lark"|"regex","definition"}}; a named choice is '
         '{"type":"custom","custom":{"name"}}; a reply call is {"id","type":"custom","custom":{"name","input"}}',
         "openai 3.57.0 types/chat/chat_completion_custom_tool_param.py (Custom: name, description, format), "
         "chat_completion_named_tool_choice_custom_param.py, chat_completion_message_custom_tool_call.py",
         "2026-11-26"),
    Fact("openai.custom_tool.responses", ("openai-responses",),
         'Responses custom tools are flat: {"type":"custom","name","description","format"}, format {"type":"text"} or '
         '{"type":"grammar","syntax":"lark"|"regex","definition"}; a named choice is {"type":"custom","name"}; a reply '
         'item is {"type":"custom_tool_call","call_id","name","input"}. openai 3.57.0 adds allowed_callers, '
         "defer_loading and an undocumented async to a Responses custom tool: a scenario's custom tool takes them and "
         "toolchoice sends them on Responses (CUSTOM_TOOL_FIELDS), and drops them with a tool.field_dropped entry on "
         "Chat, whose Custom has name, description and format only (until 2026-11-26 this fact, read at 3.54.0, named "
         "the four keys only, and then for a while said toolchoice refused the three as unknown keys)",
         "openai 3.57.0 types/responses/custom_tool_param.py ('class CustomToolParam(_CustomToolParamReservedKeywords, "
         "total=False): name: Required[str] type: Required[Literal[\"custom\"]] allowed_callers: "
         "Optional[List[Literal[\"direct\", \"programmatic\"]]] defer_loading: bool description: str format: "
         "CustomToolInputFormat'), shared_params/custom_tool_input_format.py, tool_choice_custom_param.py, "
         "response_custom_tool_call.py", "2026-11-26"),
    Fact("anthropic.strict_schema", ("anthropic",),
         "strict tools take a JSON Schema subset: every object has additionalProperties false; enum/const of "
         "primitives; oneOf becomes anyOf; string formats date-time, time, date, duration, email, hostname, uri, ipv4, "
         "ipv6, uuid; minItems only 0 or 1; other keywords (minimum, maximum, pattern, minLength, ...) are unsupported "
         "(the SDK moves them into the description); unlike OpenAI, optional properties may stay out of required",
         "anthropic 2.14.0 lib/_parse/_transform.py (transform_schema: SupportedStringFormats 'date-time', 'time', "
         "'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid'; minItems kept only when 0 or 1); "
         "platform.claude.com strict-tool-use, structured-outputs JSON Schema limitations", "2026-11-26"),
    Fact("anthropic.tool_fields", ("anthropic",),
         "a tool may carry input_examples, allowed_callers, defer_loading, eager_input_streaming, cache_control, "
         "strict and type custom",
         "anthropic 2.14.0 types/tool_param.py (ToolParam: allowed_callers, cache_control, defer_loading, "
         "eager_input_streaming, input_examples, strict, type)", "2026-11-26"),
    # tenth and eleventh audit passes: the SDK speaks a newer API version, whose Versions page refuses sampling fields
    Fact("anthropic.api_version", ("anthropic",),
         "toolchoice sends anthropic-version 2023-06-01 (providers/anthropic.py API_VERSION), the SDK from 2.0.0 on "
         "2026-10-21, which removes temperature, top_p and top_k (a request sending one is answered 400): with "
         "providers.anthropic.headers setting 2026-10-21, a body sending one (extra too) is refused "
         "(api_version.removed_field). Its other Messages changes (document blocks in assistant messages, citations on "
         "user text blocks) name no tool, tool_choice or thinking field: the SDK's tool_choice union and thinking "
         "types, which the tests read, are what toolchoice writes under either version",
         "platform.claude.com/docs/en/api/versioning; platform.claude.com/docs/en/api/migration-2026-10-21; anthropic "
         f"2.14.0 _constants.py{CITE_END}'ANTHROPIC_API_VERSION = \"2026-10-21\"' (no temperature, top_p or top_k in "
         "its message_create_params.py); Versions (stored copy of ?version=2026-10-21), 'Messages API:': 'The "
         "temperature, top_p, and top_k request parameters are removed. A request that sends any of them returns a "
         "400'; 'A request that places a document block directly in an assistant message returns a 400 error.'; "
         "'On Amazon Bedrock, it's available for Claude 4.7 and later models.'; the migration guide: 'If you use an "
         "SDK, your requests use the API version that was current when your SDK's major version was released.'",
         "2026-11-27",
         VersionRemoves("anthropic-version", "2026-10-21", ("temperature", "top_p", "top_k"), "The temperature, top_p, "
                        "and top_k request parameters are removed. A request that sends any of them returns a 400")),
    Fact("anthropic.default_model_eol", ("anthropic", "bedrock"),
         "claude-sonnet-4-5 (the anthropic row's default_model until 2026-11-26) reaches end-of-life on 2026-11-30, "
         "claude-opus-4-5 on 2027-01-22, claude-mythos-preview retired on 2026-06-30; the default is now "
         "claude-sonnet-5, which the SDK lists and does not deprecate; a scenario naming a model within 30 days of "
         "(or past) its end of life gets the warning model.end_of_life (model_rules.END_OF_LIFE)",
         "anthropic 2.14.0 _data/deprecated_models.py (DEPRECATED_MODELS: 'claude-sonnet-4-5': 'November 30th, "
         "2026'), types/model_param.py", "2026-11-26"),
    Fact("openai.default_model_eol", ("openai", "openai-responses"),
         "gpt-4o-mini (the openai rows' default until 2026-11-26) shuts down on 2027-01-14 (gpt-4o, gpt-4.1 and "
         "gpt-4.1-mini too; gpt-5 / gpt-5-mini / gpt-5-nano / o3 on 2026-12-11; o1, o3-mini, o4-mini on 2026-10-23); "
         "the default is now gpt-5.4-mini, which ChatModel lists and does not deprecate; model.end_of_life warns "
         "within 30 days",
         "openai 3.57.0 types/shared/chat_model.py (ChatModel; 'Deprecated values: ... Announced shutdown date: "
         "2027-01-14'); developers.openai.com/api/docs/deprecations", "2026-11-26"),
    Fact("gemini.default_model", ("gemini",),
         "gemini-2.5-flash (the gemini row's default until 2026-11-26) and gemini-2.5-pro are past the earliest "
         "shutdown date Google lists (2026-06-17); the default is now gemini-3.5-flash (GA 2026-05-19, no shutdown "
         "date announced), a Gemini 3 model: history calls need thought signatures (model rule gemini-3-signatures)",
         "ai.google.dev/gemini-api/docs/deprecations ('The shutdown dates listed in the table indicate the earliest "
         "possible dates on which a model might be retired')", "2026-11-26"),
    Fact("deepseek.legacy_names_retired", ("deepseek",),
         "deepseek-chat and deepseek-reasoner were retired on 2026-07-24 (they routed to deepseek-v4-flash "
         "non-thinking / thinking until then); use deepseek-flash (DeepSeek's id for V4.1 Flash, which also serves the "
         "old name deepseek-v4-flash since 2026-09-10) or deepseek-v4-pro (thinking on by default)",
         "api-docs.deepseek.com/news (DeepSeek V4 preview, 2026-04-24): 'will be fully retired and inaccessible after "
         "Jul 24th, 2026, 15:59 (UTC Time)'; api-docs.deepseek.com/zh-cn/quick_start/pricing (read 2026-11-28): '(1) "
         "模型名请使用 deepseek-flash。旧模型名 deepseek-v4-flash、deepseek-v4-flash-vision-exp 仍可调用,但对应模型已下线,"
         "请求将由 DeepSeek-V4.1-Flash-1017 模型提供服务' (use deepseek-flash; the old names still answer, served by "
         "V4.1 Flash)", "2026-11-28"),
    Fact("fireworks.strict_and_parallel", ("fireworks",),
         "the chat request takes parallel_tool_calls ('Enable parallel function calling.') and a function tool takes "
         "strict; tool_choice is auto|none|any|required or {type: function, function: {name}}",
         "fireworks-ai 1.2.30 types/chat/completion_create_params.py (parallel_tool_calls: 'Enable parallel function "
         "calling.'), types/shared_params/chat_completion_tool.py (Function: 'strict: Optional[bool]'); "
         "the Vercel AI SDK sends strict to Fireworks too", "2026-11-26"),
    Fact("anthropic.thinking_forced_choice", ("anthropic", "bedrock"),
         "a forcing tool_choice (any / tool) errors only with manual thinking {type: enabled}; adaptive thinking, "
         "including on models where thinking is on by default, takes it; Opus 5.5, Sonnet 5.5, Fable 5.1 and "
         "Mythos 5.1 refuse forced tool use whatever the thinking (model rules)",
         "platform.claude.com/docs/en/build-with-claude/thinking-tool-workflows (re-read 2026-11-27: 'tool_choice "
         "options that force tool use return an error with manual extended thinking (thinking: {type: \"enabled\"}); "
         "adaptive thinking supports forced tool use'); models/opus-5-5/whats-new-opus-5-5, "
         "models/sonnet-5-5/whats-new-sonnet-5-5, models/fable-5-1/migration-guide", "2026-11-27"),
    Fact("openai-responses.tool_fields", ("openai-responses",),
         "a function tool may carry allowed_callers, defer_loading, output_schema and async (added in openai 3.57.0, "
         "a bool the SDK does not document), all four sent as the scenario writes them (until 2026-11-26 this fact, "
         "read at 3.54.0, named the three only, and then for a while said async was refused as an unknown key)",
         "openai 3.57.0 types/responses/function_tool_param.py (FunctionToolParam: 'allowed_callers: "
         "Optional[List[Literal[\"direct\", \"programmatic\"]]]', 'defer_loading: bool', 'output_schema: "
         "Optional[Dict[str, object]]', and _FunctionToolParamReservedKeywords '\"async\": bool' with no docstring)",
         "2026-11-26"),
    Fact("gemini.tool_fields", ("gemini",),
         "a FunctionDeclaration may carry response (an OpenAPI Schema of the function's output), response_json_schema "
         "(the same in JSON Schema; 'mutually exclusive with `response`') and behavior (BLOCKING / NON_BLOCKING); "
         "toolchoice sends response and responseJsonSchema as written, and drops behavior with a tool.field_dropped "
         "entry, since it is 'currently only supported by the BidiGenerateContent method' (toolchoice sends "
         "generateContent)",
         "google-genai 3.6.1 types.py FunctionDeclaration (response_json_schema: 'Describes the output from this "
         "function in JSON Schema format. ... This field is mutually exclusive with `response`.'; behavior: "
         "'Specifies the function Behavior. ... This field is currently only supported by the BidiGenerateContent "
         "method.'; aliases responseJsonSchema, response, behavior)", "2026-11-26"),
    Fact("gemini.parameters_json_schema", ("gemini",),
         "FunctionDeclaration takes parametersJsonSchema (plain JSON Schema), mutually exclusive with parameters "
         "(the OpenAPI-subset Schema); responseJsonSchema likewise with response",
         "google-genai 3.6.1 types.py (FunctionDeclaration.parameters_json_schema: 'This field is mutually exclusive "
         "with `parameters`.')", "2026-11-26"),
    Fact("gemini.sdk_default_version", ("gemini",),
         "google-genai defaults the Gemini API to version v1 (GOOGLE_AI_API_DEFAULT_VERSION); toolchoice posts to "
         "v1beta, where ai.google.dev documents FunctionCallingConfig (VALIDATED) and parametersJsonSchema",
         "google-genai 3.6.1 _api_client.py (\"GOOGLE_AI_API_DEFAULT_VERSION = 'v1'\"; FunctionCallingConfigMode "
         "AUTO, ANY, NONE, VALIDATED in types.py); ai.google.dev/api/caching (FunctionCallingConfig)", "2026-11-26"),
    Fact("openrouter.parallel_default", ("openrouter",),
         "parallel_tool_calls defaults to true; false makes the model call functions one at a time (the upstream "
         "model enforces it)",
         "openrouter.ai/docs/api-reference/parameters (OpenRouterTeam/docs api_reference/parameters.mdx at 4b8fe09, "
         "2026-08-08): 'Key: `parallel_tool_calls` ... Optional, **boolean** ... Default: **true** ... If false, "
         "functions will be called sequentially. Only applies when tools are provided.'; guides/features/"
         "tool-calling.mdx: '(default is true for most models)'", "2026-11-26"),
    Fact("huggingface.api_reference", ("huggingface",),
         "the router's chat API reference types tool_choice as auto | none | required | {function: {name}} and a "
         "tool's function as name, description, parameters: no strict and no parallel_tool_calls; the function-calling "
         "guide's OpenAI-client examples also send {type: function, ...} and function.strict ('Strict mode is not "
         "supported by all providers'): the newer reference wins, so strict and parallel stay unsupported; the default "
         "model is the reference's tool-calling recommendation openai/gpt-oss-120b (meta-llama/Llama-3.1-8B-Instruct "
         "until 2026-11-26, which the reference does not recommend)",
         "huggingface.co/docs/inference-providers/tasks/chat-completion (huggingface/hub-docs docs/inference-providers/"
         "tasks/chat-completion.md at 78344c8, 2026-08-21): 'tool_choice ... (#1) auto (#2) none (#3) required (#4) "
         "object: function*: name*'; 'openai/gpt-oss-120b: Great text generation model with top-notch tool calling "
         "capabilities.'; guides/function-calling.md (at a3b3d1f, 2026-06-29); the same types in huggingface_hub 2.4.0 "
         "inference/_generated/types/chat_completion.py: 'ChatCompletionInputToolChoiceEnum = Literal[\"auto\", "
         "\"none\", \"required\"]', 'class ChatCompletionInputToolChoiceClass(BaseInferenceType): function: "
         "ChatCompletionInputFunctionName', 'class ChatCompletionInputFunctionDefinition(BaseInferenceType): name: str "
         "parameters: Any description: str | None = None' (no strict; ChatCompletionInput has no parallel_tool_calls)",
         "2026-11-26"),
    Fact("openrouter.require_parameters", ("openrouter",),
         "provider.require_parameters (default false): only route to upstreams that support every parameter in "
         "the request",
         "openrouter.ai/docs/features/provider-routing (provider object fields); openrouter 1.3.84 (PyPI) "
         "components/providerpreferences.py (re-read 2026-11-27: 'require_parameters: OptionalNullable[bool]', "
         "'Whether to filter providers to only those that support the parameters you've provided. If this setting is "
         "omitted or set to false, then providers will receive only the parameters they support, and ignore the "
         "rest.')", "2026-11-27"),
    Fact("openrouter.reply_provider", ("openrouter",),
         "a reply names the upstream that served it: real replies carry a top-level provider field (seen in "
         "third-party clients' reply types, not in the official SDK's ChatResult); the official SDK types "
         "openrouter_metadata.attempts[].provider",
         "openrouter 1.3.84 (PyPI) components/chatresult.py, openroutermetadata.py, routerattempt.py (re-read "
         "2026-11-27: ChatResult has 'openrouter_metadata: Optional[OpenRouterMetadata]' and no provider field; "
         "RouterAttempt 'provider: str')", "2026-11-27"),
)

# a tool_choice without tools, the tool limits, the histories refused (their own modules), then the rest in order
FACTS += WITHOUT_TOOLS_FACTS + (
    # How many tools one request may declare: the capability rows' tool_limit name these facts (core/capabilities.py
    # ToolLimit); render and send refuse a request over it and the mock answers the API's words. No source states a
    # limit for the other APIs on 2026-11-26 (none found for openai-responses, azure, anthropic, bedrock — botocore's
    # ToolConfigurationToolsList has "min": 1 and no max —, mistral, cohere, vllm, llamacpp, ollama and the others)
    Fact("openai.tool_limit", ("openai",),
         "Chat Completions refuses more than 128 tools with 400 invalid_request_error, param tools, code "
         "array_above_max_length",
         f"vishalmysore/Tools4AI#16 (the response body quoted){CITE_END}'\"message\": \"Invalid 'tools': array too "
         "long. Expected an array with maximum length 128, but got an array with length 325 instead.\", \"type\": "
         "\"invalid_request_error\", \"param\": \"tools\", \"code\": \"array_above_max_length\"'; julep-ai/julep#330 "
         "(length 383, the same envelope), 0x4m4/hexstrike-ai#29 (length 150)", "2026-11-26"),
)
FACTS += HISTORY_FACTS + (
    Fact("gemini.tool_limit", ("gemini",),
         "the Gemini API refuses more than 512 function declarations in one tool with 400 INVALID_ARGUMENT",
         f"google-gemini/gemini-cli#19083 (2026-02-14, many MCP tools); google-gemini/gemini-cli#25440 (2026-04-15, "
         f"gemini-3-flash-preview, the newest recording found 2026-11-28){CITE_END}'\"code\": 400, \"message\": \"The "
         "GenerateContentRequest proto is invalid:\\n  * tools[0].function_declarations: [FIELD_INVALID] At most 512 "
         "function declarations can be specified.\", \"status\": \"INVALID_ARGUMENT\"'; the same words in "
         "google-gemini/gemini-cli#25440; google-genai 3.6.1 types.py Tool.function_declarations: 'Maximum 512 "
         "function declarations can be provided.' (re-read 2026-11-28)", "2026-11-28"),
    Fact("groq.tool_limit", ("groq",),
         "Groq refuses more than 128 tools with 400 invalid_request_error",
         "HunorLaczko/ha-groq-cloud-api#25 (2026-04-16); gsd-build/gsd-2#4376 (2026-04-17); duolahypercho/codex-router"
         f"#449 (2026-08-26, groq/openai/gpt-oss-120b, the newest recording found 2026-11-28){CITE_END}'Error code: 400 - "
         "{'error': {'message': \"'tools' : maximum "
         "number of items is 128\", 'type': 'invalid_request_error'}}'; the same words in gsd-2#4376; '(HTTP 400: 'tools' : "
         "maximum number of items is 128)' (codex-router#449); groq 1.7.0 types/chat/completion_create_params.py tools: "
         "'A max of 128 functions are supported.' (re-read 2026-11-28)", "2026-11-28"),
    # What one tool's fields and the strict schemas may hold: the rows' body_limits name these facts
    # (core/body_limits.py). No source states a description limit for openai-responses, groq, mistral, cohere,
    # gemini or the other hosts on 2026-11-26; botocore 1.44.8 bedrock-runtime ToolSpecification.description is
    # NonEmptyString {"min": 1} with no max (the empty one is already left out: tool.description_dropped)
    Fact("openai.description_limit", ("openai",),
         "Chat Completions was recorded refusing a function description over 1024 characters (400 "
         "invalid_request_error, param tools[i].function.description, code string_above_max_length) until 2025-04; a "
         "later test found a longer one taken, and no OpenAI source states the limit (openai 3.57.0 "
         "FunctionDefinition.description has no maximum): a warning since 2026-11-27, the request sent",
         "run-llama/llama_index#18784 (merged 2025-05-19, gpt-4.1-mini) against getsentry/sentry-mcp#106 (2025-04-25, "
         f"gpt-4o, the newest recorded 400){CITE_END}llama_index#18784: 'It seems openai has removed this length "
         "limit.' (tested with a description of 'test tool' * 4000, 36,000 characters); openai 3.57.0 "
         "types/shared_params/function_definition.py: 'description: str', documented 'A description of what the function "
         "does, used by the model to choose when and how to call the function.' (no maximum); sentry-mcp#106: '\"message\": "
         "\"Invalid 'tools[13].function.description': string too long. Expected a string with maximum length 1024, but "
         "got a string with length 1103 instead.\", \"type\": \"invalid_request_error\", \"param\": "
         "\"tools[13].function.description\", \"code\": \"string_above_max_length\"'; the same words in "
         "microsoft/genaiscript#1381 (length 2780) and janwilmake/openapi-mcp-server#23 (length 3542)", "2026-11-27"),
    Fact("azure.description_limit", ("azure",),
         "Azure OpenAI was recorded refusing a function description over 1024 characters (OpenAI's words and envelope) "
         "until 2025-04-23; no Azure source states the limit: a warning since 2026-11-28 (unverified since), sent",
         f"langchain-ai/open_deep_research#80 (azure_openai:o3-mini, 2025-04-23){CITE_END}'Error code: 400 - {{'error': "
         "{'message': \"Invalid 'tools[1].function.description': string too long. Expected a string with maximum "
         "length 1024, but got a string with length 2121 instead.\", 'type': 'invalid_request_error', 'param': "
         "'tools[1].function.description', 'code': 'string_above_max_length'}}'; none newer found 2026-11-28; no maximum "
         "in Azure's docs (azure-ai-docs how-to/function-calling.md, ms.date 02/10/2026) nor in SAP/ai-sdk-js's client "
         "generated from Azure's inference spec (FunctionObject 'description?: string')", "2026-11-28"),
    Fact("anthropic.strict_tool_limit", ("anthropic",),
         "the Messages API refuses more than 20 strict tools in one request with 400 invalid_request_error",
         "platform.claude.com/docs/en/build-with-claude/structured-outputs (Schema complexity limits: 'the API "
         f"enforces several complexity limits'); the 400's words: datarobot-oss/datarobot-genai#547{CITE_END}'Strict "
         "tools per request | 20 | Maximum number of tools with `strict: true`. Non-strict tools don't count toward "
         "this limit.'; 'Too many strict tools (N). The maximum number of strict tools supported is 20' (its last "
         "sentence, 'Try reducing the number of tools marked as strict.', as public client code quotes it); "
         "camel-ai/camel#4171 ('rejected before inference with `Too many strict tools`')", "2026-11-26"),
    Fact("anthropic.strict_optional_limit", ("anthropic",),
         "the Messages API refuses more than 24 optional parameters across one request's strict schemas with 400 "
         "invalid_request_error",
         "platform.claude.com/docs/en/build-with-claude/structured-outputs (Schema complexity limits); the 400's "
         f"words: elie222/inbox-zero#2662{CITE_END}'Optional parameters | 24 | Total optional parameters across all "
         "strict tool schemas and JSON output schemas. Each parameter not listed in `required` counts toward this "
         "limit.'; 'Schemas contains too many optional parameters (87), which would make grammar compilation "
         "inefficient. Reduce the number of optional parameters in your tool schemas (limit: 24).'", "2026-11-26"),
    Fact("anthropic.strict_union_limit", ("anthropic",),
         "the Messages API refuses more than 16 parameters with union types across one request's strict schemas "
         "with 400 invalid_request_error",
         "platform.claude.com/docs/en/build-with-claude/structured-outputs (Schema complexity limits); the 400's "
         f"words as public client tests record them{CITE_END}'Parameters with union types | 16 | Total parameters "
         "that use `anyOf` or type arrays (for example, `\"type\": [\"string\", \"null\"]`) across all strict "
         "schemas.'; 'Schemas contains too many parameters with union types (17 parameters with type arrays or "
         "anyOf). This causes exponential compilation cost. Reduce the number of nullable or union-typed parameters "
         "(limit: 16 parameters with unions).'", "2026-11-26"),
    Fact("bedrock.claude_strict_limits", ("bedrock",),
         "Claude models on Bedrock (model rule bedrock-claude-strict-limits) refuse more than 20 strict tools, 24 "
         "optional and 16 union-typed parameters across the strict schemas with 400 ValidationException, {message: "
         "'The model returned the following errors: ' and Anthropic's words}; other Bedrock models: no source",
         "platform.claude.com/docs/en/build-with-claude/structured-outputs (Schema complexity limits; Amazon Bedrock "
         f"among its platforms); Bedrock's body: usestrix/strix#1050 (a Bedrock Claude route, litellm){CITE_END}"
         "'BedrockException - {\"message\":\"The model returned the following errors: Too many strict tools (28). The "
         "maximum number of strict tools supported is 20. Try reducing the number of tools marked as strict.\"}'; "
         "pydantic/pydantic-ai#5579 (Bedrock Claude): 'ValidationException: Too many strict tools (73). The maximum "
         "number of strict tools supported is 20.'; datarobot-oss/datarobot-genai#547 (bedrock/claude); for 24 "
         "optional and 16 union-typed parameters no Bedrock body is recorded (strands-agents/harness-sdk#2664, "
         "us.anthropic.claude-haiku-4-5: a ValidationException past 24 optional parameters, words not quoted): the "
         "mock answers Anthropic's words with the same prefix in Bedrock's envelope", "2026-11-26"),
    # Bedrock's toolSpec.strict: AWS names the models that take it per model; for the others no AWS source says what
    # Converse does (refuses, ignores), so toolchoice sends it and says which (providers/bedrock.py; fifth audit pass)
    Fact("bedrock.strict_models", ("bedrock",),
         "Converse takes toolSpec.strict on every model id (botocore's ToolSpecification); AWS names the models that "
         "take structured outputs per model card, and its Claude page names Claude Sonnet 4.5, Haiku 4.5, Opus 4.5 and "
         "Opus 4.6; for Claude Opus 4.7, 4.8 and Sonnet 5 Converse's 400 is recorded (fact bedrock.strict_refused: "
         "warned of since the eleventh audit pass); no source says what Converse does with strict on another model "
         "(Nova, Llama, Mistral, the other newer Claude models): unsettled, so toolchoice sends it as written and says "
         "so, never drops or refuses it (LiteLLM drops it where its own map marks a model unable, a map no AWS page "
         "backs)",
         f"docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-structured-outputs.html{CITE_END}'You can use "
         "structured outputs with Claude Sonnet 4.5, Claude Haiku 4.5, Claude Opus 4.5, and Claude Opus 4.6 through "
         "the Converse API (Converse or ConverseStream) or the InvokeModel API'; userguide/structured-output.html "
         "'Supported models': 'To see which models support structured outputs, please go to models at a glance and "
         "select the model you are interested in.' and 'Add the strict: true flag to tool definitions to enable schema "
         "validation on tool names and inputs.'; botocore 1.44.8 data/bedrock-runtime/2023-09-30/service-2.json "
         "ToolSpecification.strict 'Flag to enable structured output enforcement on a tool usage response.' (no "
         "model named); Amazon Nova's user guide (nova/latest/userguide, structured output): 'Constrained decoding is "
         "leveraged every time that a tool configuration is passed.'", "2026-11-27",
         NamedModels(("claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-5", "claude-opus-4-6"),
                     "Claude Sonnet 4.5, Claude Haiku 4.5, Claude Opus 4.5, and Claude Opus 4.6")),
    *TOOL_NAME_FACTS[:2],  # Anthropic's and Gemini's tool names (core/name_rule_facts.py), in their place here
    Fact("openai.strict_schema_limits", ("openai", "openai-responses"),
         "a strict schema takes at most 5000 object properties, 10 levels of nesting, 1000 enum values, 120,000 "
         "characters of property names, definition names, enum and const values, and 15,000 characters in one string "
         "enum of more than 250 values (secondary copies of OpenAI's page: a warning, as no OpenAI source read ties a "
         "refusal to these numbers: the page's 'you will receive an error' is said of an unsupported schema, beside the "
         "keyword list, and no 400 for a size limit is recorded; docs/fact-audit.md, 2026-11-27)",
         f"platform.openai.com/docs/guides/structured-outputs#supported-schemas, not readable here; its words as "
         f"copied by jsonschemaprofiles.unitvectorylabs.com/schemas/openai (February 2026){CITE_END}'Up to 5,000 "
         "object properties total', 'Up to 10 nested object levels', 'Total string length across property names, "
         "definition names, enum values, and const values <= 120,000 characters', 'Up to 1,000 enum values across "
         "the schema', 'If one string enum has more than 250 values, combined enum string length must be <= 15,000 "
         "characters'; the same numbers in artifactize-core 0.14.2 structured/limits.rs (docs.rs); the page's older "
         "words were 'up to 100 object properties total, with up to 5 levels of nesting' "
         "(community.openai.com/t/918388); re-read 2026-11-27 in fuller copies of the page (developers.openai.com/api/"
         "docs/guides/structured-outputs#supported-schemas, found by the code index): 'A schema may have up to 5000 "
         "object properties total, with up to 10 levels of nesting.', '... cannot exceed 120,000 characters.', and, "
         "after 'Some type-specific keywords are not yet supported' and the fine-tuned models' list, 'If you turn on "
         "Structured Outputs by supplying strict: true and call the API with an unsupported JSON Schema, you will "
         "receive an error.'; openai/openai-java JsonSchemaValidator.kt (stored copy at 2496464) still checks the "
         "older numbers (MAX_OBJECT_PROPERTIES = 100, MAX_NESTING_DEPTH = 5) 'so that it can be determined to be "
         "likely to be accepted'", "2026-11-27"),
    Fact("cohere.strict_field_limit", ("cohere",),
         "with strict_tools true, Cohere's docs allow at most 200 fields across all tools of one call (no recorded "
         "refusal: a warning)",
         f"docs.cohere.com/v2/docs/tool-use-parameter-types{CITE_END}'When the strict_tools parameter is set to True, "
         "you can define a maximum of 200 fields across all tools being passed to an API call.'", "2026-11-26"),
    Fact("llamacpp.tool_choice_words", ("llamacpp",),
         "llama-server parses a string tool_choice as auto, none or required and refuses another word with 400 "
         "{error: {code: 400, message: 'Invalid tool_choice: WORD', type: invalid_request_error}}; a tool_choice that "
         "is not a string is read as its default \"auto\"",
         "ggml-org/llama.cpp common/chat.cpp (at 0083bb1) common_chat_tool_choice_parse_oaicompat: 'throw "
         "std::invalid_argument(\"Invalid tool_choice: \" + tool_choice);'; tools/server/server.cpp (at 00dd081) "
         "ex_wrapper: 'catch (const std::invalid_argument & e) { // treat invalid_argument as invalid request (400)' "
         "and 'res->data = safe_json_to_str({{ \"error\", error_data }});'; tools/server/server-common.cpp (at 006639c) "
         "format_error_response ('invalid_request_error', code 400) and 'auto tool_choice = json_value(body, "
         "\"tool_choice\", std::string(\"auto\"));'", "2026-11-26",
         ChoiceWords(("auto", "none", "required"), "refused")),
    Fact("llamacpp.tool_choice_without_tools", ("llamacpp",),
         "llama-server takes tool_choice without tools: an absent tools list is no tools, and no tool grammar or "
         "parser is built for it (the answer is text)",
         f"ggml-org/llama.cpp tools/server/server-common.cpp (stored copy at 006639c) oaicompat_chat_params_parse"
         f"{CITE_END}'auto tools = json_value(body, \"tools\", json()); auto has_tools = tools.is_array() && !tools.empty();' "
         "and no check of tool_choice against it; common/chat.cpp (at 0083bb1): 'if (!has_tools || inputs.tool_choice "
         "== COMMON_CHAT_TOOL_CHOICE_NONE) { ... return reasoning + p.content(p.rest()) + end;'", "2026-11-26"),
    Fact("cohere.tool_choice_values", ("cohere",),
         "v2 chat documents tool_choice as REQUIRED or NONE only (no AUTO, no lowercase); the SDK lets any other "
         "value through untyped; the API answers another string (AUTO, any) with a 422 (fact "
         "cohere.tool_choice_shape_words), and no source says what it does with REQUIRED or NONE in another case or "
         "with an object",
         "cohere 7.3.1 v2/types/v2chat_request_tool_choice.py: 'V2ChatRequestToolChoice = typing.Union["
         "typing.Literal[\"REQUIRED\", \"NONE\"], typing.Any]'; v2/client.py chat: 'When `REQUIRED` is specified, the "
         "model will be forced to use at least one of the user-defined tools ... When `NONE` is specified ... If "
         "tool_choice isn't specified, then the model is free to choose'", "2026-11-26",
         ChoiceWords(("REQUIRED", "NONE"), "unread", forms=False)),
    Fact("mistral.tool_call_id", ("mistral",),
         "Mistral's chat API answers 400 to a history whose tool-call id (an assistant call's id; a tool message's "
         "tool_call_id too, as mistral-common's validator checks it) is not exactly 9 of [a-zA-Z0-9]: the translator "
         "rewrites such ids (history.ids_rewritten) and the mock refuses them in the API's words and envelope. "
         "mistral-common 1.13.1 holds open-weight models of tokenizer v13 or newer only to a non-empty id other than "
         "'null'; no recorded body says the API relaxed it",
         "zed-industries/zed issue #53034 (2026-04-03, mistral-medium-latest, 'Failed to connect to Mistral API: 400 Bad "
         "Request'); the same words in editor-code-assistant/eca #233 (2025-12-13), karthink/gptel #1203 (2026-01-07, "
         "content-length 167 from api.mistral.ai), nearai/ironclaw#1241 (2026-03-16, mistral-large-latest, the same "
         "body: 'Tool call id was turn1_0 but must be a-z, A-Z, 0-9, with a length of 9.', code '3280', "
         "raw_status_code 400) and as invalid_request_error with code null in 2024 "
         "(langchain-ai/langchain#24668, jackmpcollins/magentic#276); mistral-common 1.13.1 "
         f"protocol/instruct/validator.py MistralRequestValidatorV3 and V13{CITE_END}'{{\"object\":\"error\","
         "\"message\":\"Tool call id was toolu_01VpEm654HvfMoRcrE3Hgdc6 but must be a-z, A-Z, 0-9, with a length of "
         "9.\",\"type\":\"invalid_function_call\",\"param\":null,\"code\":\"3280\",\"raw_status_code\":400}'; "
         "mistral-common 1.13.1 (the newest release, re-read 2026-11-27): '_TOOL_CALL_ID_REGEX = "
         "re.compile(r\"^[a-zA-Z0-9]{9}$\")' (V3 to V11), V13: 'if not tool_call.id or tool_call.id == "
         "_NULL_TOOL_CALL_ID:'", "2026-11-27"),
)


FACTS += (HOSTED_TOOL_FACTS + CHOICE_FACTS + CHOICE_WORD_FACTS + REFUSAL_FACTS + EFFORT_FACTS
          + CHOICE_SHAPE_FACTS + TOOL_CHANGE_FACTS + TOOL_NAME_FACTS[2:])
_BY_ID = {f.id: f for f in FACTS}


def facts_for(provider: str) -> list[Fact]:
    return [f for f in FACTS if provider in f.providers]


def fact(fact_id: str) -> Fact:
    """The fact with this id (a KeyError names an id no fact has)."""
    return _BY_ID[fact_id]


def cited(fact_id: str) -> str:
    """How a ledger message names the fact's source: the citation before CITE_END."""
    return _BY_ID[fact_id].source.partition(CITE_END)[0]


_CHOICE_WORDS = {p: (f.id, f.value) for f in FACTS if isinstance(f.value, ChoiceWords) for p in f.providers}


def choice_words(provider: str) -> tuple[str, ChoiceWords] | None:
    """(the fact's id, its words) for the fact stating the provider's string tool_choice words; None: no fact does."""
    return _CHOICE_WORDS.get(provider)
