"""The dated facts of the hosted tools a scenario's tools: may declare (core/native_tools.py): which provider
modules render them and the SDK type each module's tools are. A module's NATIVE_TOOLS and TOOLS_TYPE name these facts
by id and its ledger messages cite them (core/facts.py ``cited``, which holds them with the other facts)."""

from __future__ import annotations

from .capabilities import CAPABILITIES
from .fact_record import CITE_END, Fact

# The hosted tools a scenario's tools: may declare (core/native_tools.py): which provider modules render them
# and the SDK type each module's tools are (their NATIVE_TOOLS and TOOLS_TYPE name these facts by id).
# the hosts translated by openai_chat (their capability rows) that have no tools_type fact of their own (Mistral's
# tools differ: mistral.tools_type below): a new OpenAI-compatible host's row is enough
_OWN_TOOLS_TYPE = ("mistral",)
_CHAT_TOOL_HOSTS = tuple(p for p, row in CAPABILITIES.items() if row.module == "openai_chat" and p not in _OWN_TOOLS_TYPE)
_ANTHROPIC_MCP_PAGE = "platform.claude.com/docs/en/agents-and-tools/mcp-connector"


def _code_execution(version: str) -> Fact:
    return Fact(f"anthropic.native.code_execution_{version}", ("anthropic",),
                f"the code execution tool version {version} is {{type: code_execution_{version}, name: code_execution}} "
                "in tools; a tool whose allowed_callers lists that version is called from the code it runs",
                f"anthropic 2.14.0 types/code_execution_tool_{version}_param.py{CITE_END}'class "
                f"CodeExecutionTool{version}Param(TypedDict, total=False): name: Required[Literal[\"code_execution\"]] "
                f"... type: Required[Literal[\"code_execution_{version}\"]] allowed_callers: List[Literal[\"direct\", "
                "\"code_execution_20250825\", \"code_execution_20260120\", \"code_execution_20260521\"]]'; a member of "
                "types/tool_union_param.py ToolUnionParam", "2026-11-26")


HOSTED_TOOL_FACTS: tuple[Fact, ...] = (
    Fact("openai-responses.native.mcp", ("openai-responses",),
         "a remote MCP server is a tools entry {type: mcp, server_label, one of server_url | connector_id | tunnel_id, "
         "allowed_tools, require_approval, headers, authorization, server_description, defer_loading}: a scenario's "
         "mcp tool has the API's keys and is sent as written",
         f"openai 3.57.0 types/responses/tool_param.py Mcp{CITE_END}'class Mcp(TypedDict, total=False): \"\"\"Give the "
         "model access to additional tools via remote Model Context Protocol (MCP) servers.\"\"\" server_label: "
         "Required[str] type: Required[Literal[\"mcp\"]]'; server_url: 'One of `server_url`, `connector_id`, or "
         "`tunnel_id` must be provided.'; headers: 'Optional HTTP headers to send to the MCP server.'; authorization: "
         "'An OAuth access token that can be used with a remote MCP server'", "2026-11-26"),
    Fact("openai-responses.native.programmatic_tool_calling", ("openai-responses",),
         "the programmatic tool-calling tool is {type: programmatic_tool_calling} with no other field",
         f"openai 3.57.0 types/responses/tool_param.py ProgrammaticToolCalling{CITE_END}'class "
         "ProgrammaticToolCalling(TypedDict, total=False): type: Required[Literal[\"programmatic_tool_calling\"]] "
         "\"\"\"The type of the tool. Always `programmatic_tool_calling`.\"\"\"'; a member of ToolParam",
         "2026-11-26"),
    Fact("openai-responses.tools_type", ("openai-responses",),
         "a Responses tool is one of ToolParam's 16 types, mcp and programmatic_tool_calling among them; none is "
         "Anthropic's code_execution_20250825 / _20260120 / _20260521 (OpenAI's code tool is code_interpreter, another "
         "shape), so those are left out",
         f"openai 3.57.0 types/responses/tool_param.py ToolParam{CITE_END}'ToolParam: TypeAlias = "
         "Union[FunctionToolParam, FileSearchToolParam, ComputerToolParam, ComputerUsePreviewToolParam, "
         "WebSearchToolParam, Mcp, CodeInterpreter, ProgrammaticToolCalling, ImageGeneration, LocalShell, "
         "FunctionShellToolParam, CustomToolParam, NamespaceToolParam, ToolSearchToolParam, WebSearchPreviewToolParam, "
         "ApplyPatchToolParam]'", "2026-11-26"),
    Fact("anthropic.native.mcp", ("anthropic",),
         "a remote MCP server goes through the MCP connector (beta): the server in mcp_servers and an mcp_toolset tool "
         "naming it (mcp_server_name) in tools, sent with the header anthropic-beta: mcp-client-2025-11-20 (fact "
         "anthropic.native.mcp_beta); an allowlist is default_config {enabled: false} with configs {NAME: {enabled: "
         "true}}",
         "anthropic 2.14.0 types/beta/beta_request_mcp_server_url_definition_param.py "
         "BetaRequestMCPServerURLDefinitionParam in mcp_servers, with a types/beta/beta_mcp_toolset_param.py "
         f"BetaMCPToolsetParam tool (anthropic-beta: mcp-client-2025-11-20){CITE_END}'class "
         "BetaMCPToolsetParam(TypedDict, total=False): \"\"\"Configuration for a group of tools from an MCP "
         "server.\"\"\" mcp_server_name: Required[str] \"\"\"Name of the MCP server to configure tools for\"\"\" type: "
         "Required[Literal[\"mcp_toolset\"]] ... configs: Optional[Dict[str, BetaMCPToolConfigParam]] "
         "\"\"\"Configuration overrides for specific tools, keyed by tool name\"\"\"'; types/beta/"
         f"beta_tool_union_param.py BetaToolUnionParam lists BetaMCPToolsetParam; {_ANTHROPIC_MCP_PAGE} (Allowlist): "
         "'Set `enabled: false` as the default, then explicitly enable specific tools'", "2026-11-26"),
    Fact("anthropic.native.mcp_beta", ("anthropic",),
         "the MCP connector (mcp_servers, mcp_toolset) is sent with anthropic-beta: mcp-client-2025-11-20; "
         "mcp-client-2025-04-04 is deprecated, and mcp-client-2026-09-15 adds only a pinned tools list on a toolset, "
         "which toolchoice does not send",
         f"{_ANTHROPIC_MCP_PAGE}: 'This feature requires the beta header: \"anthropic-beta\": "
         f"\"mcp-client-2025-11-20\"'{CITE_END}the page as stored on 2026-09-26 heads it 'Beta header "
         "mcp-client-2025-11-20', sends betas=[\"mcp-client-2025-11-20\"] in its Python example and says 'The previous "
         "version of this feature (`mcp-client-2025-04-04`) is deprecated.' and 'With the `mcp-client-2026-09-15` beta "
         "header, an MCPToolset also accepts `tools`, a pinned copy of the server's tool list.'; anthropic 2.14.0 "
         "types/anthropic_beta_param.py lists \"mcp-client-2025-11-20\"", "2026-11-26"),
    Fact("anthropic.native.mcp_server", ("anthropic",),
         "an MCP server definition has only type url, url, name, authorization_token and tool_configuration: no "
         "headers, description or approval field and no connector or tunnel in place of a URL (a scenario's mcp tool "
         "loses those keys with a ledger entry)",
         "anthropic 2.14.0 types/beta/beta_request_mcp_server_url_definition_param.py "
         f"BetaRequestMCPServerURLDefinitionParam{CITE_END}'class BetaRequestMCPServerURLDefinitionParam(TypedDict, "
         "total=False): name: Required[str] type: Required[Literal[\"url\"]] url: Required[str] authorization_token: "
         f"Optional[str] tool_configuration: Optional[BetaRequestMCPServerToolConfigurationParam]'; {_ANTHROPIC_MCP_PAGE}"
         ": '`type` ... Currently only \"url\" is supported.'", "2026-11-26"),
    Fact("anthropic.native.mcp_tool_config", ("anthropic",),
         "an MCP toolset's tool configuration has only enabled and defer_loading: no read-only filter",
         f"types/beta/beta_mcp_tool_config_param.py BetaMCPToolConfigParam{CITE_END}anthropic 2.14.0: 'class "
         "BetaMCPToolConfigParam(TypedDict, total=False): \"\"\"Configuration for a specific tool in an MCP "
         f"toolset.\"\"\" defer_loading: bool enabled: bool'; {_ANTHROPIC_MCP_PAGE} (Tool configuration options): "
         "`enabled`, `defer_loading`", "2026-11-26"),
    *(_code_execution(version) for version in ("20250825", "20260120", "20260521")),
    Fact("anthropic.tools_type", ("anthropic",),
         "a Messages tool is one of ToolUnionParam's types (BetaToolUnionParam adds the beta mcp_toolset): custom "
         "tools and Anthropic's server tools; none is OpenAI's programmatic_tool_calling tool (code calls a tool here "
         "through the tool's allowed_callers naming a code_execution version)",
         f"anthropic 2.14.0 types/tool_union_param.py ToolUnionParam; types/beta/beta_tool_union_param.py{CITE_END}"
         "'ToolUnionParam: TypeAlias = Union[ToolParam, ToolBash20250124Param, CodeExecutionTool20250522Param, "
         "CodeExecutionTool20250825Param, CodeExecutionTool20260120Param, CodeExecutionTool20260521Param, ... "
         "ToolSearchToolRegex20251119Param]'; 'BetaToolUnionParam: TypeAlias = Union[BetaToolParam, ... "
         "BetaMCPToolsetParam]'", "2026-11-26"),
    Fact("gemini.native.mcp", ("gemini",),
         "a remote MCP server goes in a tools entry {mcpServers: [{name, streamableHttpTransport: {url, headers}}]} on "
         "the Gemini Developer API (not Vertex AI); McpServer has no token, allowed-tools, approval, description or "
         "deferred-loading field and no connector or tunnel in place of a URL",
         f"google-genai 3.6.1 types.Tool.mcp_servers (McpServer: name, streamable_http_transport {{url, headers}})"
         f"{CITE_END}types.py Tool: 'mcp_servers: Optional[list[McpServer]] = Field(default=None, "
         "description=\"\"\"Optional. MCP Servers to connect to. This field is not supported in Vertex AI.\"\"\")'; "
         "McpServer: name, streamable_http_transport ('A transport that can stream HTTP requests and responses.'); "
         "StreamableHttpTransport: headers ('Optional: Fields for authentication headers, timeouts, etc., if needed.'), "
         "sse_read_timeout, terminate_on_close, timeout, url; models.py _Tool_to_mldev: "
         "\"setv(to_object, ['mcpServers'], ...)\"", "2026-11-26"),
    Fact("gemini.tools_type", ("gemini",),
         "a Gemini Tool has function_declarations, mcp_servers and Google's own tools (its code_execution is "
         "ToolCodeExecution, Gemini's code tool): no programmatic_tool_calling and no Anthropic code_execution_YYYYMMDD "
         "tool",
         f"google-genai 3.6.1 types.Tool{CITE_END}types.py 'class Tool(_common.BaseModel)': retrieval, computer_use, "
         "file_search, google_search, google_maps, code_execution (Optional[ToolCodeExecution]), enterprise_web_search, "
         "function_declarations, google_search_retrieval, parallel_ai_search, url_context, mcp_servers, exa_ai_search",
         "2026-11-26"),
    Fact("openai.tools_type", _CHAT_TOOL_HOSTS,
         "the Chat Completions tool this translator sends for OpenAI and the OpenAI-compatible hosts is a function or "
         "a custom tool: it has no hosted tool (mcp, programmatic_tool_calling, code_execution_*), so a scenario's "
         "hosted tools are left out",
         "openai 3.57.0 types/chat/chat_completion_tool_union_param.py ChatCompletionToolUnionParam: function and "
         f"custom tools, the Chat Completions form this translator sends{CITE_END}'ChatCompletionToolUnionParam: "
         "TypeAlias = Union[ChatCompletionFunctionToolParam, ChatCompletionCustomToolParam]'", "2026-11-26"),
    Fact("mistral.tools_type", ("mistral",),
         "a Mistral chat tool is a function, image_generation, document_library or a connector by connector_id; a "
         "remote MCP server is reached only as a connector registered beforehand (the connectors API takes its URL), "
         "so a scenario's hosted tools are left out",
         "mistralai 3.7.0 models/chatcompletionrequest.py ChatCompletionRequestTool: function, image_generation, "
         f"document_library and connector (an MCP server only as a connector registered beforehand by id){CITE_END}"
         "mistralai/client/models/chatcompletionrequest.py: 'ChatCompletionRequestTool = Union[Tool, "
         "ImageGenerationTool, DocumentLibraryTool, CustomConnector]'; customconnector.py CustomConnector: "
         "'connector_id: str', type connector, authorization, tool_configuration; connector.py 'Union[HTTPConnector, "
         "MCPConnector, UnknownConnector]'; createconnectorrequest.py server: 'The URL of the connector server.'",
         "2026-11-26"),
    Fact("cohere.tools_type", ("cohere",),
         "a Cohere v2 tool is a function only: no hosted tool",
         f"cohere 7.3.1 types.ToolV2: type function only{CITE_END}types/tool_v2.py: 'class "
         "ToolV2(UncheckedBaseModel): type: typing.Literal[\"function\"] = \"function\" function: "
         "typing.Optional[ToolV2Function]'", "2026-11-26"),
    Fact("bedrock.tools_type", ("bedrock",),
         "a Converse tool is a toolSpec (a function), a systemTool (a tool the model provider defines, named only) or "
         "a cachePoint: no MCP server, programmatic tool-calling or code-execution field, and toolchoice does not "
         "guess a systemTool name to stand in",
         "botocore 1.44.8 bedrock-runtime Tool: toolSpec, systemTool (a model provider's tool by name), cachePoint"
         f"{CITE_END}data/bedrock-runtime/2023-09-30/service-2.json: Tool members toolSpec, systemTool, cachePoint; "
         "SystemTool: name, 'Specifies a system-defined tool for the model to use. System-defined tools are tools that "
         "are created and provided by the model provider.'", "2026-11-26"),
    Fact("ollama.tools_type", ("ollama",),
         "an Ollama tool is a function declaration (type, default function, and function): no server or hosted-tool "
         "field",
         "ollama 0.6.3 _types.Tool: type (default function) and function, a function's declaration; no server field"
         f"{CITE_END}_types.py: 'class Tool(SubscriptableBaseModel): type: Optional[str] = 'function' class "
         "Function(SubscriptableBaseModel): name: Optional[str] = None description: Optional[str] = None ... "
         "parameters: Optional[Parameters] = None'", "2026-11-26"),
)
