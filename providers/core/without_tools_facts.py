"""Dated facts: what each API's own source says it does with a tool_choice sent while no tools are declared.

The capability rows' ``without_tools`` (core/capability_types.py WithoutTools) name these facts by id; core/facts.py
lists them among FACTS.
"""

from __future__ import annotations

from .fact_record import CITE_END, Fact

WITHOUT_TOOLS_FACTS: tuple[Fact, ...] = (
    # tool_choice sent without tools: what each API's own source says. The capability rows' without_tools name these
    # facts (core/capabilities.py WithoutTools): the translators refuse or omit the choice only where one says the
    # API refuses it, and providers/openai_chat_mock.py answers the hosts' words; a provider with no fact here is
    # not known to refuse it (no source was found for groq, deepseek, fireworks, together, sambanova, huggingface,
    # cohere, ollama on 2026-11-26, searched three times again 2026-11-27: their API specs, SDK docstrings, copies of
    # their docs and recorded bodies, each read listed in docs/fact-audit.md; the ledger says it is unsettled there;
    # mistral's is its request library's rule)
    Fact("openai.tool_choice_without_tools", ("openai",),
         "a request with tool_choice and no tools is refused with 400 invalid_request_error, \"auto\" included",
         f"RageAgainstThePixel/OpenAI-DotNet#479 (the response body quoted; tests/data/responses/errors/"
         f"error-openai-tool-choice-without-tools.json){CITE_END}\"Invalid value for 'tool_choice': 'tool_choice' is "
         "only allowed when 'tools' are specified.\", param tool_choice; dapr/dapr-agents#248 (tool_choice \"auto\", "
         "no tools): \"Error code: 400 - {'error': {'message': \"Invalid value for 'tool_choice': 'tool_choice' is "
         "only allowed when 'tools' are specified.\", 'type': 'invalid_request_error', 'param': 'tool_choice', "
         "'code': None}}\"", "2026-11-26"),
    Fact("openai-responses.tool_choice_without_tools", ("openai-responses",),
         "the Responses API refuses tool_choice \"required\" without tools with 400; no source was found for auto, "
         "none, a named function or allowed_tools without tools",
         f"anomalyco/opencode#48857 (live, gpt-4.1-mini, both endpoints){CITE_END}'Chat: `'tool_choice' is only "
         "allowed when 'tools' are specified.`', 'Responses: `Tool choice 'required' must be specified with 'tools' "
         "parameter.`', 'Removing only the choice made both requests succeed.'", "2026-11-26"),
    Fact("anthropic.tool_choice_without_tools", ("anthropic",),
         "the Messages API refuses a tool_choice sent without tools with 400 (the words name no type: auto, any, tool "
         "and none alike); recorded from the Messages API as Amazon Bedrock serves Claude, none from "
         "api.anthropic.com itself was found",
         f"Claude's 400 through OpenRouter (upstream Amazon Bedrock), recorded 2026-07-02{CITE_END}a public "
         "characterization report, 'OpenRouter → anthropic/claude-3-haiku' (tool_choice forcing read_file): "
         "'upstream status 400: {\"error\":{\"message\":"
         "\"Provider returned error\",\"code\":400,\"metadata\":{\"raw\":\"{\\\"message\\\":\\\"tool_choice may only "
         "be specified while providing tools.\\\"}\",\"provider_name\":\"Amazon Bedrock\"'", "2026-11-26"),
    Fact("gemini.tool_choice_without_tools", ("gemini",),
         "the Gemini API refuses a toolConfig.functionCallingConfig sent with no functionDeclarations with 400 "
         "INVALID_ARGUMENT (the words name the config, not a mode: NONE and AUTO alike)",
         "musistudio/claude-code-router#1207 (2026-02-12, Gemini API, toolConfig without functionDeclarations); "
         "AstrBotDevs/AstrBot#7407 (2026-04-07, google_search / url_context without function declarations, the newest "
         f"recording found 2026-11-28){CITE_END}'Error "
         "from provider(gemini,undefined: 400): { \"error\": { \"code\": 400, \"message\": \"Function calling config "
         "is set without function_declarations.\", \"status\": \"INVALID_ARGUMENT\" } }'; whitespace folded; the same body from "
         "Google AI Studio in tailcallhq/forgecode#1404 (2025-08-17); 'Function calling config is set without "
         "function_declarations.' (AstrBot#7407)", "2026-11-26"),
    Fact("bedrock.tool_choice_without_tools", ("bedrock",),
         "Converse takes toolChoice only inside toolConfig, whose tools list is required and has at least one member: "
         "a toolChoice (auto, any, tool) cannot be sent without tools; none has no toolChoice (toolConfig left out)",
         f"botocore 1.44.8 data/bedrock-runtime/2023-09-30/service-2.json{CITE_END}ToolConfiguration '\"required\": "
         "[\"tools\"]' with members tools and toolChoice, ToolConfigurationToolsList '\"min\": 1'; the API's answer "
         "to an empty list in Portkey-AI/gateway#1124: 'bedrock error: 1 validation error detected: Value at "
         "'toolConfig.tools' failed to satisfy constraint: Member must have length greater than or equal to 1'",
         "2026-11-26"),
    Fact("openrouter.tool_choice_without_tools", ("openrouter",),
         "OpenRouter passes a tool_choice without tools on to the upstream; an upstream that refuses it answers 400, "
         "relayed as 'Provider returned error' with the upstream's body in metadata.raw (no source says OpenRouter "
         "itself refuses it)",
         f"tailcallhq/forgecode#1404 (through OpenRouter, upstream Google AI Studio){CITE_END}'{{\"error\":{{\"message\":"
         "\"Provider returned error\",\"code\":400,\"metadata\":{\"raw\":\"{\\n  \\\"error\\\": {\\n    \\\"code\\\": 400,"
         "\\n    \\\"message\\\": \\\"Function calling config is set without function_declarations.\\\",...\",\"provider_name\":"
         "\"Google AI Studio\"}}'", "2026-11-26"),
    Fact("azure.tool_choice_without_tools", ("azure",),
         "Azure OpenAI refuses tool_choice without tools as OpenAI does, \"none\" and \"auto\" alike",
         f"Azure/azure-sdk-for-net#45598 (Azure.AI.OpenAI 2.0.0-beta.2, ChatToolChoice.Auto and ChatToolChoice.None "
         f"without tools){CITE_END}'HTTP 400 (invalid_request_error: ) Parameter: tool_choice Invalid value for "
         "'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.'", "2026-11-26"),
    Fact("vllm.tool_choice_without_tools", ("vllm",),
         "vLLM refuses every tool_choice but \"none\" (and null) when tools is absent or null, and an empty tools "
         "list whatever the choice, with 400 {error: {message, type: BadRequestError, param, code: 400}}",
         f"vllm 0.33.0 (PyPI wheel) vllm/entrypoints/openai/chat_completion/protocol.py ChatCompletionRequest."
         f"check_tool_usage{CITE_END}'if \"tool_choice\" is \"none\" -- no validation is needed for tools', 'if \"tools\" "
         "not in data or data[\"tools\"] is None: raise VLLMValidationError(\"When using `tool_choice`, `tools` must "
         "be set.\", parameter=\"tool_choice\")', 'Reject empty tools array' (\"`tools` must not be an empty array. "
         "Either provide at least one tool or omit the field entirely.\", parameter=\"tools\"); vllm/exceptions.py "
         "VLLMValidationError.__str__ appends ' (parameter=...)'; serve/exception_handling/error_response.py "
         "create_error_response: 'err_type = \"BadRequestError\" status_code = HTTPStatus.BAD_REQUEST param = "
         "exc.parameter'; with tools, the same check refuses a word but auto / required / none ('Invalid value for "
         "`tool_choice`: ...! Only named tools, \"none\", \"auto\" or \"required\" are supported.'), an object "
         "without function.name (so the allowed_tools form) and a name no tool has ('The tool specified in "
         "`tool_choice` does not match any of the specified `tools`')", "2026-11-26"),
    Fact("xai.tool_choice_without_tools", ("xai",),
         "xAI refuses a chat request that sets tool_choice and no tools with 400 {code, error}",
         f"livekit/agents#3114 (openai.LLM.with_x_ai, grok-3-mini-fast, tool_choice \"auto\", no tools){CITE_END}'Error code: "
         "400 - {'code': 'Client specified an invalid argument', 'error': 'Invalid request content: A tool_choice was "
         "set on the request but no tools were specified.'}'; the same words for xAI's /responses in "
         "chenyme/grok2api#1042", "2026-11-26"),
    Fact("cerebras.tool_choice_without_tools", ("cerebras",),
         "Cerebras refuses a chat request that sets tool_choice and no tools with 400 wrong_api_format (the words name "
         "no value, as OpenAI's do; the recording does not say which choice was sent)",
         f"juspay/neurolink#1564 (2026-08-26, probed live against api.cerebras.ai){CITE_END}'`buildBody` emitted "
         "`tool_choice` on tools-less requests (e.g. `disableTools`), which strict OpenAI-compatible backends reject "
         "with **400 wrong_api_format**: *\"'tool_choice' is only allowed when 'tools' are specified\"* (probed live on "
         "Cerebras).'", "2026-11-27"),
    Fact("mistral.tool_choice_without_tools", ("mistral",),
         "Mistral's own request library refuses tool_choice any, required or a named function without tools "
         "(InvalidRequestException) and takes auto (no grammar) and none; no answer of api.mistral.ai itself to a "
         "choice without tools is recorded, so toolchoice sends it as written and says so",
         f"mistral-common 1.13.1 (PyPI, the newest) mistral_common/guidance/grammar_factory.py _text_grammar_spec"
         f"{CITE_END}'if tools is None: match choice: case ToolChoiceEnum.auto: return None case ToolChoiceEnum.none: "
         "mode = _GrammarMode.none case ToolChoiceEnum.any | ToolChoiceEnum.required: raise InvalidRequestException("
         "f\"No tools provided for tool choice `{choice}`\") case NamedToolChoice(): raise InvalidRequestException("
         "f\"No tools provided for tool choice `{choice.function.name}`\")'", "2026-11-27"),
)
