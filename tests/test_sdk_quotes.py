"""Every dated fact that quotes a file of an SDK the test extra installs is held to that file.

A fact's source names the SDK and its version, the file, and the words read there (core/facts.py, the hosted-tool
facts, the capability rows' sources, the model rules and the end-of-life table, openai_chat_hosts' NAME_RULES). QUOTES
below lists, for each such source, (where the source is, the SDK's import name, the file inside the package, the
words). The test asks three things of each: the version the source names is the installed one (pinned or bounded by
pyproject's test extra, the newest on PyPI on 2026-11-26), the words are in the source, and the words are in that
file of the installed SDK. Whitespace is folded on both sides; a quote's "..." (an elision) splits it into fragments,
each looked for on its own. The files are read as text through importlib's package locations (no SDK is imported):
the whole table takes a few hundred milliseconds.

``test_every_sdk_source_is_listed`` holds the table complete: a new source naming an installed SDK must add its
words here (or say in UNQUOTED why it quotes none)."""

from __future__ import annotations

import functools
import gzip
import importlib.metadata
import re
from importlib.util import find_spec
from pathlib import Path
from typing import Callable, NamedTuple

import pytest

from sdk_types import missing


class Quote(NamedTuple):
    where: str  # "fact:ID", "rule:NAME", "capability:PROVIDER", "eol:PROVIDER/MODEL"
    package: str  # the import name
    path: str  # the file inside the package (a botocore service-2.json is read from its .json.gz)
    words: tuple[str, ...]  # each fragment must be in the source and in the file


# import name -> the distribution the source names, as pyproject's test extra spells it
DISTRIBUTIONS = {"openai": "openai", "anthropic": "anthropic", "google.genai": "google-genai", "botocore": "botocore",
                 "mistralai": "mistralai", "cohere": "cohere", "groq": "groq", "together": "together",
                 "fireworks": "fireworks-ai", "cerebras.cloud.sdk": "cerebras-cloud-sdk",
                 "huggingface_hub": "huggingface_hub", "ollama": "ollama", "sambanova": "sambanova"}

_BEDROCK = "data/bedrock-runtime/2023-09-30/service-2.json"
_TOOL_PARAM = "types/responses/tool_param.py"

QUOTES: tuple[Quote, ...] = (
    # ---- core/facts.py
    Quote("fact:together.endpoint", "together", "resources/chat/completions.py",
          ('"/v1/chat/completions"', 'else "https://api-inference.together.ai/v1/chat/completions"')),
    Quote("fact:together.no_strict", "together", "types/tools_param.py", ("description", "name", "parameters")),
    Quote("fact:together.named_choice_type", "together", "types/chat/completion_create_params.py",
          ("ToolChoice: TypeAlias = Union[str, ToolChoiceParam]",)),
    Quote("fact:together.named_choice_type", "together", "types/tool_choice_param.py",
          ("id", "function", "arguments", "name", "index", "type")),
    Quote("fact:openai.custom_tool.chat", "openai", "types/chat/chat_completion_custom_tool_param.py",
          ("Custom", "name", "description", "format")),
    Quote("fact:openai.custom_tool.chat", "openai", "types/chat/chat_completion_named_tool_choice_custom_param.py", ()),
    Quote("fact:openai.custom_tool.chat", "openai", "types/chat/chat_completion_message_custom_tool_call.py", ()),
    Quote("fact:openai.custom_tool.responses", "openai", "types/shared_params/custom_tool_input_format.py", ()),
    Quote("fact:openai.custom_tool.responses", "openai", "types/responses/tool_choice_custom_param.py", ()),
    Quote("fact:openai.custom_tool.responses", "openai", "types/responses/response_custom_tool_call.py", ()),
    Quote("fact:openai.custom_tool.responses", "openai", "types/responses/custom_tool_param.py",
          ("class CustomToolParam(_CustomToolParamReservedKeywords, total=False):", "name: Required[str]",
           'type: Required[Literal["custom"]]',
           'allowed_callers: Optional[List[Literal["direct", "programmatic"]]]', "defer_loading: bool",
           "description: str", "format: CustomToolInputFormat")),
    Quote("fact:anthropic.strict_schema", "anthropic", "lib/_parse/_transform.py",
          ("SupportedStringFormats", "'date-time'", "'time'", "'date'", "'duration'", "'email'", "'hostname'",
           "'uri'", "'ipv4'", "'ipv6'", "'uuid'", "minItems")),
    Quote("fact:anthropic.tool_fields", "anthropic", "types/tool_param.py",
          ("ToolParam", "allowed_callers", "cache_control", "defer_loading", "eager_input_streaming",
           "input_examples", "strict", "type")),
    # the Responses-only ids the Chat Completions family rules leave out (tenth audit pass, 2026-11-27); the members they
    # keep are ChatModel's (test_model_drift.py holds both)
    Quote("rule:gpt-5.6-tools-effort-none", "openai", "types/shared/responses_model.py", ("'gpt-5.6-cyber'",)),
    Quote("rule:gpt-5.2-5.5-tools-effort", "openai", "types/shared/responses_model.py",
          ("'gpt-5.5-pro'", "'gpt-5.5-pro-2026-04-23'")),
    # the API version the SDK sends (tenth audit pass, 2026-11-27): a newer one fails here until its migration guide is read
    Quote("fact:anthropic.api_version", "anthropic", "_constants.py", ('ANTHROPIC_API_VERSION = "2026-10-21"',)),
    Quote("fact:anthropic.default_model_eol", "anthropic", "_data/deprecated_models.py",
          ("DEPRECATED_MODELS", "'claude-sonnet-4-5'", "'November 30th, 2026'")),
    Quote("fact:anthropic.default_model_eol", "anthropic", "types/model_param.py", ()),
    Quote("fact:together.endpoint", "together", "_client.py", ("base_url",)),
    Quote("fact:openai.default_model_eol", "openai", "types/shared/chat_model.py",
          ("ChatModel", "Deprecated values:", "Announced shutdown date: 2027-01-14")),
    Quote("fact:fireworks.strict_and_parallel", "fireworks", "types/chat/completion_create_params.py",
          ("parallel_tool_calls", "Enable parallel function calling.")),
    Quote("fact:fireworks.strict_and_parallel", "fireworks", "types/shared_params/chat_completion_tool.py",
          ("Function", "strict: Optional[bool]")),
    Quote("fact:openai-responses.tool_fields", "openai", "types/responses/function_tool_param.py",
          ("FunctionToolParam", 'allowed_callers: Optional[List[Literal["direct", "programmatic"]]]',
           "defer_loading: bool", "output_schema: Optional[Dict[str, object]]", "_FunctionToolParamReservedKeywords",
           '"async": bool')),
    Quote("fact:gemini.tool_fields", "google.genai", "types.py",
          ("FunctionDeclaration", "Describes the output from this function in JSON Schema format.",
           "This field is mutually exclusive with `response`.", "Specifies the function Behavior.",
           "This field is currently only supported by the BidiGenerateContent method.", "responseJsonSchema",
           "response", "behavior")),
    Quote("fact:gemini.parameters_json_schema", "google.genai", "types.py",
          ("parameters_json_schema", "This field is mutually exclusive with `parameters`.")),
    Quote("fact:gemini.sdk_default_version", "google.genai", "_api_client.py",
          ("GOOGLE_AI_API_DEFAULT_VERSION = 'v1'",)),
    Quote("fact:gemini.sdk_default_version", "google.genai", "types.py",
          ("FunctionCallingConfigMode", "AUTO", "ANY", "NONE", "VALIDATED")),
    Quote("fact:bedrock.tool_choice_without_tools", "botocore", _BEDROCK,
          ('"required": ["tools"]', '"min": 1')),
    Quote("fact:groq.tool_limit", "groq", "types/chat/completion_create_params.py",
          ("A max of 128 functions are supported.",)),
    Quote("fact:gemini.tool_limit", "google.genai", "types.py", ("Maximum 512 function declarations can be provided.",)),
    # which hosts take several choices (core/choice_facts.py), read 2026-11-27
    Quote("fact:groq.choice_count", "groq", "types/chat/completion_create_params.py",
          ("Note that the current moment, only n=1 is supported. Other values will result in a 400 response.",)),
    Quote("fact:huggingface.choice_count", "huggingface_hub", "inference/_generated/types/chat_completion.py",
          ("n: int | None = None", "UNUSED How many chat completion choices to generate for each input message.")),
    Quote("fact:fireworks.choice_count", "fireworks", "types/chat/completion_create_params.py",
          ("How many completions to generate for each prompt.", "Required range: `1 <= x <= 128`")),
    Quote("fact:cerebras.choice_count", "cerebras.cloud.sdk", "types/chat/completion_create_params.py",
          ("How many chat completion choices to generate for each input message.",)),
    Quote("fact:together.choice_count", "together", "types/chat/completion_create_params.py",
          ("The number of completions to generate for each prompt.",)),
    Quote("fact:gemini.candidate_count", "google.genai", "types.py", ("Number of response variations to return.",)),
    Quote("fact:openai.choice_count", "openai", "types/chat/completion_create_params.py",
          ("How many chat completion choices to generate for each input message. Note that you will be charged based "
           "on the number of generated tokens across all of the choices. Keep `n` as `1` to minimize costs.",)),
    Quote("fact:mistral.choice_count", "mistralai", "client/models/chatcompletionrequest.py",
          ("Number of completions to return for each request, input tokens are only billed once.",)),
    Quote("fact:sambanova.choice_count", "sambanova", "types/chat/completion_create_params.py",
          ("How many completions to generate for each prompt. **Note:** Because this parameter generates many "
           "completions, it can quickly consume your token quota.",)),
    # audit 2026-11-27 (docs/fact-audit.md): the SDK's description field, with no maximum stated
    Quote("fact:openai.description_limit", "openai", "types/shared_params/function_definition.py",
          ("description: str", "A description of what the function does, used by the model to choose when and how to "
           "call the function.")),
    Quote("fact:huggingface.api_reference", "huggingface_hub", "inference/_generated/types/chat_completion.py",
          ('ChatCompletionInputToolChoiceEnum = Literal["auto", "none", "required"]',
           "class ChatCompletionInputToolChoiceClass(BaseInferenceType): function: ChatCompletionInputFunctionName",
           "class ChatCompletionInputFunctionDefinition(BaseInferenceType): name: str parameters: Any description: "
           "str | None = None")),
    Quote("fact:gemini.function_name_length", "google.genai", "types.py",
          ("Must be a-z, A-Z, 0-9, or contain underscores, dots, colons and dashes, with a maximum length of 128.",)),
    Quote("fact:gemini.no_parameters_any", "google.genai", "types.py",
          ("For function with no parameters, this can be left unset.",)),
    Quote("fact:cohere.tool_choice_values", "cohere", "v2/types/v2chat_request_tool_choice.py",
          ('V2ChatRequestToolChoice = typing.Union[typing.Literal["REQUIRED", "NONE"], typing.Any]',)),
    Quote("fact:cohere.tool_choice_values", "cohere", "v2/client.py",
          ("When `REQUIRED` is specified, the model will be forced to use at least one of the user-defined tools",
           "When `NONE` is specified", "If tool_choice isn't specified, then the model is free to choose")),
    # ---- core/choice_word_facts.py
    Quote("fact:openai.tool_choice_words", "openai", "types/chat/chat_completion_tool_choice_option_param.py",
          ('ChatCompletionToolChoiceOptionParam: TypeAlias = Union[ Literal["none", "auto", "required"], '
           "ChatCompletionAllowedToolChoiceParam, ChatCompletionNamedToolChoiceParam, "
           "ChatCompletionNamedToolChoiceCustomParam, ]",)),
    Quote("fact:openai-responses.tool_choice_words", "openai", "types/responses/tool_choice_options.py",
          ('ToolChoiceOptions: TypeAlias = Literal["none", "auto", "required"]',)),
    # ---- core/choice_shape_words.py (trial15l): the types that leave another API's tool_choice shape out
    # (trial19h: and the string words whose refusal OpenAI's recorded 400 words, on both APIs)
    Quote("fact:openai.tool_choice_value_words", "openai", "types/chat/chat_completion_tool_choice_option_param.py",
          ('Literal["none", "auto", "required"]',)),
    Quote("fact:openai.tool_choice_value_words", "openai", "types/responses/tool_choice_options.py",
          ('Literal["none", "auto", "required"]',)),
    Quote("fact:openai.tool_choice_shape_words", "openai", "types/chat/chat_completion_named_tool_choice_param.py",
          ("function: Required[Function]",)),
    Quote("fact:openai-responses.tool_choice_shape_words", "openai", "types/responses/tool_choice_function_param.py",
          ("name: Required[str]", 'type: Required[Literal["function"]]')),
    Quote("fact:anthropic.tool_choice_shape_words", "anthropic", "types/tool_choice_param.py",
          ("ToolChoiceParam: TypeAlias = Union[ToolChoiceAutoParam, ToolChoiceAnyParam, ToolChoiceToolParam, "
           "ToolChoiceNoneParam]",)),
    # the GenerateContentRequest fields google-genai sends to the Developer API beside the proto's (trial16d)
    Quote("fact:gemini.unknown_field_words", "google.genai", "models.py", ("setv(parent_object, ['serviceTier']",)),
    # a thinking effort on Groq and Mistral (core/effort_facts.py), read 2026-11-27
    Quote("fact:groq.reasoning_effort", "groq", "types/chat/completion_create_params.py",
          ('reasoning_effort: Optional[Literal["none", "default", "low", "medium", "high"]]',
           "qwen3 models support `none` to disable reasoning and `default` or null to use the model default.",
           "qwen/qwen3.8-27b additionally supports `low`, `medium`, and `high`.",
           "openai/gpt-oss-20b and openai/gpt-oss-120b support 'low', 'medium', or 'high'.")),
    Quote("fact:mistral.reasoning_effort", "mistralai", "client/models/reasoningeffort.py",
          ('"none", "minimal", "low", "medium", "high", "xhigh", "max"', "UnrecognizedStr")),
    Quote("fact:mistral.reasoning_effort", "mistralai", "client/models/chatcompletionrequest.py",
          ("reasoning_effort",)),
    Quote("fact:groq.tool_choice_words", "groq", "types/chat/chat_completion_tool_choice_option_param.py",
          ('ChatCompletionToolChoiceOptionParam: TypeAlias = Union[ Literal["none", "auto", "required"], '
           "ChatCompletionNamedToolChoiceParam ]",)),
    Quote("fact:mistral.tool_choice_words", "mistralai", "client/models/toolchoiceenum.py",
          ("ToolChoiceEnum = Union[", '"auto", "none", "any", "required"', "UnrecognizedStr")),
    Quote("fact:fireworks.tool_choice_words", "fireworks", "types/chat/completion_create_params.py",
          ('ToolChoice: TypeAlias = Union[Literal["auto", "none", "any", "required"], ToolChoiceFunctionSelection]',)),
    Quote("fact:together.tool_choice_words", "together", "types/chat/completion_create_params.py",
          ("ToolChoice: TypeAlias = Union[str, ToolChoiceParam]",)),
    Quote("fact:cerebras.tool_choice_words", "cerebras.cloud.sdk", "types/chat/completion_create_params.py",
          ('ToolChoice: TypeAlias = Union[Literal["none", "auto", "required"], ToolChoiceChoiceObject]',)),
    Quote("fact:sambanova.tool_choice_words", "sambanova", "types/chat/completion_create_params.py",
          ('ToolChoice: TypeAlias = Union[Literal["none", "auto", "required"], ToolChoiceToolChoiceObject]',)),
    Quote("fact:huggingface.tool_choice_words", "huggingface_hub", "inference/_generated/types/chat_completion.py",
          ('ChatCompletionInputToolChoiceEnum = Literal["auto", "none", "required"]',)),
    Quote("fact:deepseek.tool_choice_words", "openai", "types/chat/chat_completion_tool_choice_option_param.py",
          ('Literal["none", "auto", "required"]',)),
    # ---- core/hosted_tool_facts.py
    Quote("fact:openai-responses.native.mcp", "openai", _TOOL_PARAM,
          ("class Mcp(TypedDict, total=False):", "Give the model access to additional tools via remote Model Context "
           "Protocol (MCP) servers.", "server_label: Required[str]", 'type: Required[Literal["mcp"]]',
           "One of `server_url`, `connector_id`, or `tunnel_id` must be provided.",
           "Optional HTTP headers to send to the MCP server.",
           "An OAuth access token that can be used with a remote MCP server")),
    Quote("fact:openai-responses.native.programmatic_tool_calling", "openai", _TOOL_PARAM,
          ('class ProgrammaticToolCalling(TypedDict, total=False): '
           'type: Required[Literal["programmatic_tool_calling"]] '
           '"""The type of the tool. Always `programmatic_tool_calling`."""',)),
    Quote("fact:openai-responses.tools_type", "openai", _TOOL_PARAM,
          ("ToolParam: TypeAlias = Union[FunctionToolParam, FileSearchToolParam, ComputerToolParam, "
           "ComputerUsePreviewToolParam, WebSearchToolParam, Mcp, CodeInterpreter, ProgrammaticToolCalling, "
           "ImageGeneration, LocalShell, FunctionShellToolParam, CustomToolParam, NamespaceToolParam, "
           "ToolSearchToolParam, WebSearchPreviewToolParam, ApplyPatchToolParam]",)),
    Quote("fact:anthropic.native.mcp", "anthropic", "types/beta/beta_mcp_toolset_param.py",
          ('class BetaMCPToolsetParam(TypedDict, total=False): """Configuration for a group of tools from an MCP '
           'server.', 'mcp_server_name: Required[str] """Name of the MCP server to configure tools for""" type: '
           'Required[Literal["mcp_toolset"]]', 'configs: Optional[Dict[str, BetaMCPToolConfigParam]] '
           '"""Configuration overrides for specific tools, keyed by tool name"""')),
    Quote("fact:anthropic.native.mcp", "anthropic", "types/beta/beta_tool_union_param.py",
          ("BetaToolUnionParam", "BetaMCPToolsetParam")),
    Quote("fact:anthropic.native.mcp", "anthropic", "types/beta/beta_request_mcp_server_url_definition_param.py",
          ("BetaRequestMCPServerURLDefinitionParam",)),
    # ---- core/tool_change_facts.py
    Quote("fact:anthropic.tool_changes", "anthropic", "types/beta/beta_system_message_param.py",
          ('role: Required[Literal["system"]]', "ContentBlock: TypeAlias = Union[BetaTextBlockParam, "
           "BetaRequestToolAdditionBlockParam, BetaRequestToolRemovalBlockParam]")),
    Quote("fact:anthropic.tool_changes", "anthropic", "types/beta/beta_request_tool_removal_block_param.py",
          ('"""Mid-conversation directive to withdraw a tool.', "It is no longer offered to the model from this point "
           "in the conversation onward.", 'type: Required[Literal["tool_removal"]]')),
    Quote("fact:anthropic.tool_changes", "anthropic", "types/beta/beta_request_tool_addition_block_param.py",
          ('"""Mid-conversation directive to make a tool available.', 'type: Required[Literal["tool_addition"]]')),
    Quote("fact:anthropic.tool_changes", "anthropic", "types/beta/beta_tool_change_tool_reference_param.py",
          ("name: Required[str]", 'type: Required[Literal["tool_reference"]]')),
    Quote("fact:anthropic.tool_changes", "anthropic", "types/anthropic_beta_param.py",
          ('"mid-conversation-tool-changes-2026-07-01",',)),
    Quote("fact:anthropic.tool_changes", "anthropic", "lib/tools/_beta_runner.py",
          ("Removal is only a hint to the model, which can still emit a `tool_use` for a withdrawn tool",)),
    Quote("fact:bedrock.tool_changes", "botocore", _BEDROCK,
          ("A content block for removing a tool from the available tool set mid-conversation. Each block references "
           "a single tool via its tool field. Use within a system role message to remove a "
           "tool without re-sending the full tool configuration.", '"enum": ["user", "assistant", "system"]',
           "The type of tool reference.")),
    Quote("fact:anthropic.native.mcp_beta", "anthropic", "types/anthropic_beta_param.py",
          ('"mcp-client-2025-11-20"',)),
    Quote("fact:anthropic.native.mcp_server", "anthropic", "types/beta/beta_request_mcp_server_url_definition_param.py",
          ("class BetaRequestMCPServerURLDefinitionParam(TypedDict, total=False): name: Required[str] type: "
           'Required[Literal["url"]] url: Required[str] authorization_token: Optional[str] tool_configuration: '
           "Optional[BetaRequestMCPServerToolConfigurationParam]",)),
    Quote("fact:anthropic.native.mcp_tool_config", "anthropic", "types/beta/beta_mcp_tool_config_param.py",
          ('class BetaMCPToolConfigParam(TypedDict, total=False): """Configuration for a specific tool in an MCP '
           'toolset.""" defer_loading: bool enabled: bool',)),
    *(Quote(f"fact:anthropic.native.code_execution_{v}", "anthropic", f"types/code_execution_tool_{v}_param.py",
            (f"class CodeExecutionTool{v}Param(TypedDict, total=False):", 'name: Required[Literal["code_execution"]]',
             f'type: Required[Literal["code_execution_{v}"]] allowed_callers: List[Literal["direct", '
             '"code_execution_20250825", "code_execution_20260120", "code_execution_20260521"]]'))
      for v in ("20250825", "20260120", "20260521")),
    *(Quote(f"fact:anthropic.native.code_execution_{v}", "anthropic", "types/tool_union_param.py",
            ("ToolUnionParam", f"CodeExecutionTool{v}Param")) for v in ("20250825", "20260120", "20260521")),
    Quote("fact:anthropic.tools_type", "anthropic", "types/tool_union_param.py",
          ("ToolUnionParam: TypeAlias = Union[ToolParam, ToolBash20250124Param, CodeExecutionTool20250522Param, "
           "CodeExecutionTool20250825Param, CodeExecutionTool20260120Param, CodeExecutionTool20260521Param,",
           "ToolSearchToolRegex20251119Param]")),
    Quote("fact:anthropic.tools_type", "anthropic", "types/beta/beta_tool_union_param.py",
          ("BetaToolUnionParam: TypeAlias = Union[BetaToolParam,", "BetaMCPToolsetParam]")),
    Quote("fact:gemini.native.mcp", "google.genai", "types.py",
          ('mcp_servers: Optional[list[McpServer]] = Field(default=None, description="""Optional. MCP Servers to '
           'connect to. This field is not supported in Vertex AI.""")',
           "A transport that can stream HTTP requests and responses.",
           "Optional: Fields for authentication headers, timeouts, etc., if needed.", "sse_read_timeout",
           "terminate_on_close")),
    Quote("fact:gemini.native.mcp", "google.genai", "models.py", ("setv(to_object, ['mcpServers'],",)),
    Quote("fact:gemini.tools_type", "google.genai", "types.py",
          ("class Tool(_common.BaseModel)", "retrieval", "computer_use", "file_search", "google_search",
           "google_maps", "code_execution", "Optional[ToolCodeExecution]", "enterprise_web_search",
           "function_declarations", "google_search_retrieval", "parallel_ai_search", "url_context", "mcp_servers",
           "exa_ai_search")),
    Quote("fact:openai.tools_type", "openai", "types/chat/chat_completion_tool_union_param.py",
          ("ChatCompletionToolUnionParam: TypeAlias = Union[ChatCompletionFunctionToolParam, "
           "ChatCompletionCustomToolParam]",)),
    Quote("fact:mistral.tools_type", "mistralai", "client/models/chatcompletionrequest.py",
          ("ChatCompletionRequestTool = Union[Tool, ImageGenerationTool, DocumentLibraryTool, CustomConnector]",)),
    Quote("fact:mistral.tools_type", "mistralai", "client/models/customconnector.py",
          ("CustomConnector", "connector_id: str", "authorization", "tool_configuration")),
    Quote("fact:mistral.tools_type", "mistralai", "client/models/connector.py",
          ("Union[HTTPConnector, MCPConnector, UnknownConnector]",)),
    Quote("fact:mistral.tools_type", "mistralai", "client/models/createconnectorrequest.py",
          ("The URL of the connector server.",)),
    Quote("fact:cohere.tools_type", "cohere", "types/tool_v2.py",
          ('class ToolV2(UncheckedBaseModel): type: typing.Literal["function"] = "function" function: '
           "typing.Optional[ToolV2Function]",)),
    Quote("fact:bedrock.strict_models", "botocore", _BEDROCK,
          ("Flag to enable structured output enforcement on a tool usage response.",)),
    Quote("fact:bedrock.tools_type", "botocore", _BEDROCK,
          ("toolSpec", "systemTool", "cachePoint", "Specifies a system-defined tool for the model to use. "
           "System-defined tools are tools that are created and provided by the model provider.")),
    Quote("fact:ollama.tools_type", "ollama", "_types.py",
          ("class Tool(SubscriptableBaseModel): type: Optional[str] = 'function' class "
           "Function(SubscriptableBaseModel): name: Optional[str] = None description: Optional[str] = None",
           "parameters: Optional[Parameters] = None")),
    # ---- core/capabilities.py rows' sources
    # a source that names files and quotes no words: the files must be there
    Quote("capability:openai", "openai", "types/chat/chat_completion_tool_choice_option_param.py", ()),
    Quote("capability:openai", "openai", "types/chat/chat_completion_allowed_tools_param.py", ()),
    Quote("capability:openai-responses", "openai", "types/responses/tool_choice_function_param.py", ()),
    Quote("capability:openai-responses", "openai", "types/responses/tool_choice_allowed_param.py", ()),
    Quote("capability:openai-responses", "openai", "types/responses/function_tool_param.py", ()),
    Quote("capability:anthropic", "anthropic", "types/tool_choice_tool_param.py", ()),
    Quote("capability:anthropic", "anthropic", "types/tool_param.py", ()),
    Quote("capability:gemini", "google.genai", "types.py",
          ("FunctionCallingConfig", "FunctionCallingConfigMode", "Schema")),
    Quote("capability:mistral", "mistralai", "client/models/toolchoiceenum.py",
          ("ToolChoiceEnum = Union[Literal[\"auto\", \"none\", \"any\", \"required\"], UnrecognizedStr]",)),
    Quote("capability:mistral", "mistralai", "client/models/chatcompletionrequest.py",
          ("parallel_tool_calls: Optional[bool]",)),
    Quote("capability:mistral", "mistralai", "client/models/function.py", ("strict: Optional[bool]",)),
    Quote("capability:groq", "groq", "types/chat/chat_completion_tool_choice_option_param.py", ()),
    Quote("capability:ollama", "ollama", "_types.py", ("ChatRequest", "tools", "format", "think")),
    Quote("capability:bedrock", "botocore", _BEDROCK,
          ("ToolConfiguration", "ToolChoice", "ToolSpecification")),
    Quote("capability:cohere", "cohere", "v2/types/v2chat_request_tool_choice.py",
          ('V2ChatRequestToolChoice = typing.Union[typing.Literal["REQUIRED", "NONE"], typing.Any]',)),
    Quote("capability:cohere", "cohere", "v2/client.py", ("strict_tools: typing.Optional[bool]",)),
    Quote("capability:azure", "openai", "lib/azure.py",
          ("base_url = f\"{azure_endpoint.rstrip('/')}/openai/deployments/{azure_deployment}\"",
           'default_query = {"api-version": api_version}', "`api_key` from `AZURE_OPENAI_API_KEY`")),
    Quote("capability:fireworks", "fireworks", "types/chat/completion_create_params.py",
          ("Enable parallel function calling.",)),
    Quote("capability:together", "together", "types/tools_param.py", ("Function", "description", "name", "parameters")),
    Quote("capability:together", "together", "resources/chat/completions.py", ()),
    Quote("capability:together", "together", "types/chat/completion_create_params.py", ()),
    Quote("capability:mistral", "mistralai", "client/models/toolchoice.py", ()),
    Quote("capability:groq", "groq", "types/chat/completion_create_params.py", ()),
    Quote("capability:fireworks", "fireworks", "types/shared_params/chat_completion_tool.py", ("strict",)),
    Quote("capability:cerebras", "cerebras.cloud.sdk", "types/chat/chat_completion.py", ("arguments",)),
    Quote("capability:cerebras", "cerebras.cloud.sdk", "types/chat/completion_create_params.py",
          ("parallel_tool_calls", "strict")),
    Quote("capability:cerebras", "cerebras.cloud.sdk", "_client.py", ("https://api.cerebras.ai", "CEREBRAS_API_KEY")),
    Quote("capability:cerebras", "cerebras.cloud.sdk", "resources/chat/completions.py", ("/v1/chat/completions",)),
    Quote("capability:sambanova", "sambanova", "types/chat/completion_create_params.py",
          ('ToolChoice: TypeAlias = Union[Literal["none", "auto", "required"], ToolChoiceToolChoiceObject]',
           "`required` means the model must call one or more tools. Specifying a particular tool via "
           '`{"type": "function", "function": {"name": "my_function"}}` forces the model to call that tool',
           "parallel_tool_calls: Optional[bool]", "Whether to enable parallel function calling during tool use",
           "ToolFunction")),
    Quote("capability:sambanova", "sambanova", "_client.py", ("https://api.sambanova.ai/v1", "SAMBANOVA_API_KEY")),
    Quote("capability:sambanova", "sambanova", "resources/chat/completions.py", ("/chat/completions",)),
    Quote("capability:sambanova", "sambanova", "types/chat/chat_completion_response.py",
          ("arguments: Optional[str]",)),
    Quote("capability:huggingface", "huggingface_hub", "inference/_generated/types/chat_completion.py",
          ("ChatCompletionInputFunctionDefinition",)),
    # ---- core/model_rules.py
    Quote("rule:claude-sonnet-5.5", "anthropic", "types/thinking_config_between_tools_param.py",
          ('"between_tools"',)),
    # fifteenth audit pass (2026-11-28): the SDK warns of, and still sends, manual thinking on these two
    Quote("rule:claude-4.6-both", "anthropic", "_data/models_to_warn_with_thinking_enabled.py",
          ("['claude-opus-4-6', 'claude-mythos-preview']",)),
    Quote("rule:claude-4.6-both", "anthropic", "resources/messages/messages.py",
          ("'thinking.type=enabled' is deprecated. Use 'thinking.type=adaptive' instead",)),
    Quote("rule:claude-mythos-preview", "anthropic", "_data/models_to_warn_with_thinking_enabled.py",
          ("['claude-opus-4-6', 'claude-mythos-preview']",)),
    Quote("rule:claude-mythos-preview", "anthropic", "resources/messages/messages.py",
          ("'thinking.type=enabled' is deprecated. Use 'thinking.type=adaptive' instead",)),
    Quote("rule:bedrock-named-choice", "botocore", _BEDROCK,
          ("The Model must request the specified tool. Only supported by Anthropic Claude 3 and Amazon Nova models.",)),
    Quote("rule:bedrock-named-choice-other", "botocore", _BEDROCK,
          ("Only supported by Anthropic Claude 3 and Amazon Nova models.",)),
    Quote("rule:cohere-r7b-and-newer", "cohere", "v2/client.py",
          ("This parameter is only compatible with models [Command-r7b](https://docs.cohere.com/v2/docs/command-r7b) "
           "and newer.",)),
    Quote("rule:cohere-pre-r7b", "cohere", "v2/client.py",
          ("This parameter is only compatible with models [Command-r7b](https://docs.cohere.com/v2/docs/command-r7b) "
           "and newer.",)),
    Quote("eol:anthropic/claude-sonnet-4-5", "anthropic", "_data/deprecated_models.py",
          ("'claude-sonnet-4-5': 'November 30th, 2026'",)),
    Quote("eol:anthropic/claude-opus-4-5", "anthropic", "_data/deprecated_models.py",
          ("'claude-opus-4-5': 'January 22nd, 2027'",)),
    Quote("eol:anthropic/claude-mythos-preview", "anthropic", "_data/deprecated_models.py",
          ("'claude-mythos-preview': 'June 30th, 2026'",)),
    # the openai entries: ChatModel's 'Deprecated values' docstring (test_sdk_claims.py maps each model to its date)
    *(Quote(f"eol:openai/{model}", "openai", "types/shared/chat_model.py",
            ("Deprecated values", model, f"Announced shutdown date: {date}"))
      for model, date in (("chatgpt-4o-latest", "2026-02-17"), ("codex-mini-latest", "2026-02-12"),
                          ("gpt-3.5-turbo-1106", "2026-09-28"), ("gpt-3.5-turbo-16k", "2024-09-13"),
                          ("gpt-4-0125-preview", "2026-03-26"), ("gpt-4-32k", "2025-06-06"),
                          ("gpt-4-vision-preview", "2024-12-06"), ("gpt-4.1", "2027-01-14"),
                          ("gpt-4.1-nano", "2026-10-23"), ("gpt-4o-audio-preview", "2026-05-07"),
                          ("gpt-4o-audio-preview-2024-10-01", "2025-10-10"), ("gpt-5", "2026-12-11"),
                          ("gpt-5.1-codex", "2026-07-23"), ("gpt-5.3-chat-latest", "2026-08-10"),
                          ("gpt-5.4-nano", "2027-04-01"), ("gpt-audio-mini", "2027-01-20"), ("o1-mini", "2025-10-27"),
                          ("o1-preview", "2025-07-28"))),
    # ---- core/name_rule_facts.py (a tool name refused on the API's own words; openai_chat_hosts.NAME_RULES)
    *(Quote(f"fact:{host}.tool_name_rule", package, path,
            ("Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64.",))
      for host, package, path in (("openai", "openai", "types/shared_params/function_definition.py"),
                                  ("groq", "groq", "types/shared_params/function_definition.py"),
                                  ("fireworks", "fireworks", "types/shared_params/chat_completion_tool.py"))),
    Quote("fact:sambanova.tool_name_rule", "sambanova", "types/chat/completion_create_params.py",
          ("Must be a-z, A-Z, 0-9, or contain underscores and dashes.",)),
    Quote("fact:bedrock.tool_name_rule", "botocore", _BEDROCK,
          ('"ToolName": {"type": "string", "max": 64, "min": 1, "pattern": "[a-zA-Z0-9_-]+"}',)),
    Quote("fact:anthropic.tool_name_length", "anthropic", "types/tool_param.py", ("Name of the tool.",)),
    Quote("fact:openai-responses.tool_name_rule", "openai", "types/responses/function_tool_param.py",
          ("The name of the function to call.",)),
)

# Sources naming an installed SDK whose words are not a file's text, each with why (checked 2026-11-26).
UNQUOTED: dict[str, str] = {
    "fact:mistral.tool_name_rule": "quotes Mistral's OpenAPI spec; says only that mistralai 3.7.0's Function.name has no "
                         "docstring (test_sdk_claims.py's NAME_EXCEPTIONS asserts the SDK does not state the rule)",
}


# ---- reading ------------------------------------------------------------------------------------------------------

def fold(text: str) -> str:
    """Whitespace folded (runs become one space, none is kept next to punctuation), a comma before a closing bracket
    dropped (a type's one-member-a-line form) and ' read as " (a source's quote marks are its own)."""
    text = re.sub(r"\s+", " ", text.replace("'", '"'))
    text = re.sub(r" ?([\[\]{}(),:;.]) ?", r"\1", text)
    return re.sub(r",([\]})])", r"\1", text).strip()


def fragments(words: str) -> list[str]:
    """A quote split at its elisions ('...')."""
    return [fold(part) for part in re.split(r"\s*\.\.\.\s*", words) if part.strip()]


@functools.cache
def sdk_text(package: str, path: str) -> str:
    """A file of an installed SDK, folded, found through the package's location without importing it."""
    spec = find_spec(package)
    assert spec is not None and spec.submodule_search_locations, f"{package} is not installed"
    file = Path(list(spec.submodule_search_locations)[0]) / path
    if not file.exists() and file.with_name(file.name + ".gz").exists():  # botocore ships its models gzipped
        text = gzip.decompress(file.with_name(file.name + ".gz").read_bytes()).decode("utf-8")
    else:
        text = file.read_text(encoding="utf-8")
    if path.endswith(".json"):  # a service model's documentation is HTML: the words are its text
        text = re.sub(r"<[^>]+>", "", text)
    return fold(text)


def source_of(where: str) -> str:
    kind, _, key = where.partition(":")
    if kind == "fact":
        from toolchoice.providers.core.facts import fact

        return fact(key).source
    if kind == "rule":
        from toolchoice.providers.core.model_rules import RULES

        (rule,) = [r for r in RULES if r.name == key]
        return rule.source
    if kind == "capability":
        from toolchoice.providers.core.capabilities import CAPABILITIES

        return " ".join(CAPABILITIES[key].sources)
    if kind == "eol":
        from toolchoice.providers.core.model_rules import retiring

        entry = retiring(*key.split("/", 1))
        assert entry is not None, where
        return entry.source
    raise KeyError(where)


def problems(quote: Quote, source: Callable[[str], str] = source_of,
             version: Callable[[str], str] = importlib.metadata.version) -> list[str]:
    """What is wrong with one quote: its version, its words in the source, its words in the file."""
    found: list[str] = []
    dist = DISTRIBUTIONS[quote.package]
    cited = fold(source(quote.where))
    named = re.findall(re.escape(dist) + r" (\d+(?:\.\d+)+)", cited)
    installed = version(dist)
    if named != [installed] * len(named) or not named:
        found.append(f"{quote.where}: the source names {dist} {named or 'without a version'}, installed {installed}")
    try:
        text = sdk_text(quote.package, quote.path)
    except FileNotFoundError:
        return [*found, f"{quote.where}: {dist} {installed} has no {quote.path}"]
    for words in quote.words:
        for part in fragments(words):
            if part not in cited:
                found.append(f"{quote.where}: the source does not quote {part!r}")
            if part not in text:
                found.append(f"{quote.where}: {dist} {installed} {quote.path} does not say {part!r}")
    return found


# ---- the checks ---------------------------------------------------------------------------------------------------

_NEEDED = sorted({q.package for q in QUOTES})


@pytest.mark.skipif(any(missing(p) for p in _NEEDED), reason="needs the test extra's SDKs")
def test_every_quote_is_in_the_installed_sdk_file() -> None:
    found = [p for quote in QUOTES for p in problems(quote)]
    assert not found, "\n".join(found)


_SDK_NAMED = re.compile(r"\b(" + "|".join(re.escape(d) for d in DISTRIBUTIONS.values()) + r") \d+\.\d+")


def _sources() -> dict[str, str]:
    """Every source in the tables, by the key QUOTES uses."""
    from toolchoice.providers.core.capabilities import CAPABILITIES
    from toolchoice.providers.core.facts import FACTS
    from toolchoice.providers.core.model_rules import END_OF_LIFE, RULES

    out = {f"fact:{f.id}": f.source for f in FACTS}
    out.update({f"rule:{r.name}": r.source for r in RULES})
    out.update({f"capability:{p}": " ".join(row.sources) for p, row in CAPABILITIES.items()})
    for entry in END_OF_LIFE:
        for provider in entry.providers[:1]:
            models = re.findall(r"[\w.-]+", entry.pattern.split("(?!")[0].strip("^$()?:"))
            out[f"eol:{provider}/{models[0] if models else entry.pattern}"] = entry.source
    return out


def unlisted(sources: dict[str, str]) -> list[str]:
    """The sources naming an SDK the test extra installs that neither QUOTES nor UNQUOTED covers."""
    named = {where for where, text in sources.items() if _SDK_NAMED.search(text)}
    return sorted(named - {q.where for q in QUOTES} - set(UNQUOTED))


def test_every_sdk_source_is_listed() -> None:
    """A source naming an SDK the test extra installs has its words in QUOTES, or says in UNQUOTED why not; and
    every entry of QUOTES and UNQUOTED is such a source."""
    sources = _sources()
    assert unlisted(sources) == []
    named = {where for where, text in sources.items() if _SDK_NAMED.search(text)}
    assert {q.where for q in QUOTES} | set(UNQUOTED) <= named


def test_a_new_sdk_source_without_its_quote_fails() -> None:
    sources = {**_sources(), "fact:groq.new": "groq 1.7.0 types/chat/completion_create_params.py: 'new words'",
               "fact:web.new": "docs.example.com/page: 'words'"}
    assert unlisted(sources) == ["fact:groq.new"]


# ---- the checks can fail ------------------------------------------------------------------------------------------

def test_the_fold_and_the_elisions() -> None:
    folded = 'x:Union[Literal["a"]]'
    assert fold('x: Union[\n    Literal[\n        "a",\n    ],\n]') == fold("x: Union[Literal['a']]") == folded
    assert fold("A  max of\n   128 functions") == "A max of 128 functions"
    assert fragments("'When `NONE` is specified ... If tool_choice'") == ['"When `NONE` is specified',
                                                                          'If tool_choice"']


@pytest.mark.skipif(missing("groq"), reason="needs groq")
def test_a_changed_quote_fails() -> None:
    """The groq 128-tool limit quoted as 256, cited at an older groq, and a fact that stops quoting its words: each
    is a problem (the file and the installed version are the truth, not the table)."""
    (groq,) = [q for q in QUOTES if q.where == "fact:groq.tool_limit"]
    assert problems(groq) == []
    wrong = groq._replace(words=("A max of 256 functions are supported.",))
    assert any("does not say 'A max of 256" in p for p in problems(wrong))
    older = problems(groq, source=lambda where: source_of(where).replace("groq 1.7.0", "groq 1.6.0"))
    assert any("the source names groq ['1.6.0']" in p for p in older), older
    unquoted = problems(groq, source=lambda where: source_of(where).replace("A max of 128", "At most 128"))
    assert any("the source does not quote" in p for p in unquoted), unquoted
    newer = problems(groq, version=lambda dist: "1.8.0")
    assert any("installed 1.8.0" in p for p in newer), newer
    gone = problems(groq._replace(path="types/chat/completion_create_params_v2.py"))
    assert gone == ["fact:groq.tool_limit: groq 1.7.0 has no types/chat/completion_create_params_v2.py"], gone
