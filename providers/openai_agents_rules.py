"""The rules of ``--dialect openai-agents``: what the OpenAI Agents SDK (PyPI ``openai-agents`` ``VERSION``) puts in
the tool fields of a request for ``Agent(tools=[FunctionTool ...], model_settings=ModelSettings(tool_choice=X,
parallel_tool_calls=P))``, per model class, or what it raises instead. Data read off the installed package (each
rule's ``Source``: the file under ``agents/``, the line, the code quoted) and held to the bodies the real Runner sent
to ``toolchoice mock`` on 127.0.0.1 (tests/test_openai_agents_wire.py); ``openai_agents_dialect`` applies them. No
openai-agents import here or there: the rules are data.
"""

from __future__ import annotations

from typing import NamedTuple

VERSION = "0.24.0"
READ = "2026-11-27"  # the wheel read and run on this date


class Source(NamedTuple):
    file: str  # under agents/ in the 0.24.0 wheel
    line: int
    words: str  # the code, quoted

    def __str__(self) -> str:
        return f"openai-agents {VERSION} agents/{self.file}:{self.line}: {self.words}"


class Route(NamedTuple):
    """How openai-agents reaches one toolchoice provider: a model class and what the user gives it."""

    kind: str  # "chat" (OpenAIChatCompletionsModel), "responses" (OpenAIResponsesModel), "litellm" (LitellmModel)
    model: str  # the model object, MODEL for the model id: "OpenAIChatCompletionsModel(model=MODEL, ...)"
    why: str | None = None  # why this model class reaches the host (a dialect.route entry)


# ---- what each model class does with ModelSettings.tool_choice ---------------------------------------------------

SETTINGS_TYPE = Source("model_settings.py", 62, 'ToolChoice: TypeAlias = Literal["auto", "required", "none"] | str | '
                                                "MCPToolChoice | None")
_CHAT_FILE = "models/chatcmpl_converter.py"
CHAT_WORDS = Source(_CHAT_FILE, 88, 'elif tool_choice == "auto": return "auto" elif tool_choice == "required": return '
                                    '"required" elif tool_choice == "none": return "none"')
CHAT_NAMED = Source(_CHAT_FILE, 99, 'return {"type": "function", "function": {"name": tool_choice}} (any other string: '
                                    "no check that a tool of that name is given)")
CHAT_MCP = Source(_CHAT_FILE, 87, 'raise UserError("MCPToolChoice is not supported for Chat Completions models")')
CHAT_PROGRAMMATIC = Source("tool.py", 1748, 'if tool_choice == "programmatic_tool_calling": raise UserError(...) '
                                            "(ensure_tool_choice_supports_backend, from convert_tool_choice)")
CHAT_MCP_ERROR = "UserError: MCPToolChoice is not supported for Chat Completions models"
CHAT_PROGRAMMATIC_ERROR = ("UserError: tool_choice='programmatic_tool_calling' is only supported with OpenAI Responses "
                           "models and cannot be used with Chat Completions-compatible models.")
CHAT_TOOLS = Source(_CHAT_FILE, 1024, '{"type": "function", "function": {"name": tool.name, "description": '
                                      'tool.description or "", "parameters": tool.params_json_schema, "strict": '
                                      "tool.strict_json_schema}}")
_CHAT_MODEL_FILE = "models/openai_chatcompletions.py"
CHAT_PARALLEL = Source(_CHAT_MODEL_FILE, 654, "parallel_tool_calls = self._non_null_or_omit(model_settings."
                                              "parallel_tool_calls) if converted_tools else omit")
CHAT_NO_TOOLS = Source(_CHAT_MODEL_FILE, 651, 'tools_param = converted_tools if converted_tools else omit ... '
                                              '"tool_choice": tool_choice (sent whether or not there are tools)')

_RESPONSES_FILE = "models/openai_responses.py"
RESPONSES_WORDS = Source(_RESPONSES_FILE, 1849, 'elif tool_choice == "required": ... return "required" elif '
                                                'tool_choice == "auto": return "auto" elif tool_choice == "none": '
                                                'return "none"')
RESPONSES_NAMED = Source(_RESPONSES_FILE, 1913, 'return {"type": "function", "name": tool_choice} (after '
                                                "_validate_named_function_tool_choice, which checks namespaced and "
                                                "deferred tools only: an unknown name is sent)")
RESPONSES_HOSTED = Source(_RESPONSES_FILE, 1861, 'elif tool_choice == "file_search": return {"type": "file_search"} '
                                                 'elif tool_choice == "web_search": return {"type": "web_search"} ... '
                                                 '"image_generation", "code_interpreter", "computer_use_preview", '
                                                 '"web_search_preview", "programmatic_tool_calling", "mcp": each its '
                                                 "own type, before any function name is looked at")
RESPONSES_MCP = Source(_RESPONSES_FILE, 1843, 'elif isinstance(tool_choice, MCPToolChoice): return {"server_label": '
                                              'tool_choice.server_label, "type": "mcp", "name": tool_choice.name}')
RESPONSES_TOOLS = Source(_RESPONSES_FILE, 2211, '{"name": tool.name, "parameters": tool.params_json_schema, "strict": '
                                                'tool.strict_json_schema, "type": "function", "description": '
                                                "tool.description}")
RESPONSES_PARALLEL = Source(_RESPONSES_FILE, 968, "parallel_tool_calls = self._non_null_or_omit(model_settings."
                                                  "parallel_tool_calls) if prompt is not None or "
                                                  "converted_tools_payload else omit")
RESPONSES_NO_TOOLS = Source(_RESPONSES_FILE, 981, "tools_param = converted_tools_payload if not should_omit_tools "
                                                  "else omit (should_omit_tools: a prompt and no tools; without a "
                                                  "prompt an empty list is sent, and the tool_choice with it)")
# Names ModelSettings.tool_choice turns into a hosted tool's choice on the Responses model whatever tools are given
# (convert_tool_choice's branches before the named-function one); "computer", "computer_use", "shell" and
# "apply_patch" only with the SDK's own ComputerTool / ShellTool / ApplyPatchTool, which a scenario does not give.
RESPONSES_HOSTED_WORDS = frozenset({"programmatic_tool_calling", "file_search", "web_search", "web_search_preview",
                                    "computer_use_preview", "image_generation", "code_interpreter", "mcp"})

# FunctionTool(strict_json_schema=True) runs params_json_schema through ensure_strict_json_schema when it is made
STRICT_SCHEMA = Source("tool.py", 635, "if self.strict_json_schema: self.params_json_schema = ensure_strict_json_schema("
                                       "...) (strict_schema.py: every object schema gets additionalProperties: false "
                                       "and required = list(properties.keys()); oneOf becomes anyOf; None defaults "
                                       "are dropped)")
STRICT_OPEN_ERROR = ("UserError: additionalProperties should not be set for object types. This could be because "
                     "you're using an older version of Pydantic, or because you configured additional properties to "
                     "be allowed. If you really need this, update the function or output tool to not use a strict "
                     "schema.")
STRICT_ROOT_ANY_OF_ERROR = "UserError: The root of a strict JSON schema must not use `anyOf`."
# after the walk above, the root alone (strict_schema.py _ensure_strict_root): a oneOf there is an anyOf by then, so
# it is refused too; a type list holding "object" is "object" when it is ["object"], else refused
STRICT_ROOT = Source("strict_schema.py", 138, 'def _ensure_strict_root(schema): if is_list(schema.get("anyOf")): raise '
                                              'UserError(...) ... if is_list(typ) and "object" in typ: if typ == '
                                              '["object"]: schema["type"] = "object" else: raise UserError(...)')
STRICT_ROOT_NULLABLE_ERROR = ("UserError: The root of a strict JSON schema must be a non-nullable object, but its type "
                              "is {kind}. Make the root a plain object, or update the function or output tool to not "
                              "use a strict schema.")
# an empty schema ({}) is not walked: it becomes the closed empty object (strict_schema.py:11 _EMPTY_SCHEMA, :125)
STRICT_EMPTY = Source("strict_schema.py", 125, "if schema == {}: return copy.deepcopy(_EMPTY_SCHEMA) "
                                               '({"additionalProperties": False, "type": "object", "properties": {}, '
                                               '"required": []})')
STRICT_EMPTY_SCHEMA = {"additionalProperties": False, "type": "object", "properties": {}, "required": []}

# ---- the Runner between requests ----------------------------------------------------------------------------------

RESET = Source("run_internal/tool_execution.py", 568, "if agent.reset_tool_choice is True and tool_use_tracker."
                                                      "has_used_tools(agent): return dataclasses.replace("
                                                      "model_settings, tool_choice=None)")
RESET_DEFAULT = Source("agent.py", 418, 'reset_tool_choice: bool = True """Whether to reset the tool choice to the '
                                        "default value after a tool has been called. Defaults to True. This ensures "
                                        'that the agent doesn\'t enter an infinite loop of tool usage."""')
TOOL_USE_BEHAVIOR = Source("agent.py", 396, 'tool_use_behavior: (Literal["run_llm_again", "stop_on_first_tool"] | '
                                            'StopAtTools | ToolsToFinalOutputFunction) = "run_llm_again"')

# ---- LitellmModel (agents.extensions.models.litellm_model): the choice handed to litellm.acompletion -------------

_LITELLM_FILE = "extensions/models/litellm_model.py"
LITELLM_CHOICE = Source(_LITELLM_FILE, 552, "tool_choice = Converter.convert_tool_choice(model_settings.tool_choice) "
                                            "(the Chat Completions converter above)")
LITELLM_CALL = Source(_LITELLM_FILE, 631, "ret = await litellm.acompletion(model=self.model, messages=..., "
                                          "tools=converted_tools or None, ..., tool_choice=self._remove_not_given("
                                          "tool_choice), ..., parallel_tool_calls=parallel_tool_calls, ...)")
LITELLM_PARALLEL = Source(_LITELLM_FILE, 561, "parallel_tool_calls = model_settings.parallel_tool_calls if "
                                              "converted_tools else None")

_CHAT_ROUTE = "OpenAIChatCompletionsModel(model=MODEL, openai_client=AsyncOpenAI(base_url=...))"
_HOST_WHY = ("openai-agents reaches an OpenAI-compatible host through OpenAIChatCompletionsModel with an AsyncOpenAI "
             "client on the host's base URL (the request is Chat Completions, written by the converter above)")
_LITELLM_WHY = ("openai-agents has no model class of its own for this API: LitellmModel (agents.extensions.models."
                "litellm_model, the [litellm] extra) hands the choice to litellm.acompletion, so what reaches the "
                "wire is LiteLLM's route (--dialect litellm's rows)")

ROUTES: dict[str, Route] = {
    "openai": Route("chat", "OpenAIChatCompletionsModel(model=MODEL, openai_client=AsyncOpenAI())"),
    # Agent(model="gpt-...") and Agent() take the Responses model (OpenAIProvider: use_responses defaults to True)
    "openai-responses": Route("responses", "OpenAIResponsesModel(model=MODEL, openai_client=AsyncOpenAI())"),
    "azure": Route("chat", "OpenAIChatCompletionsModel(model=MODEL, openai_client=AsyncAzureOpenAI(...))", _HOST_WHY),
    **{host: Route("chat", _CHAT_ROUTE, _HOST_WHY) for host in (
        "mistral", "groq", "deepseek", "fireworks", "together", "openrouter", "xai", "cerebras", "sambanova", "vllm",
        "llamacpp", "huggingface")},
    **{api: Route("litellm", "LitellmModel(model=MODEL)", _LITELLM_WHY) for api in (
        "anthropic", "gemini", "bedrock", "cohere", "ollama")},
}
