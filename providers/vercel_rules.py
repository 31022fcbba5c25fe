"""The rules of ``--dialect vercel``: for each ``@ai-sdk/*`` provider package, what ``generateText({model, tools,
toolChoice, activeTools, providerOptions})`` (npm ``ai`` ``VERSIONS['ai']``) puts in the provider request's tool
fields. Data read off the packages' ``dist/index.js`` at the pinned versions (tests/recorders/vercel/package.json;
a host package that hands the request to a package it bundles at its own pin, ``BUNDLED``, is read in that one), each
rule with its ``Source`` (the package, the line, the code quoted), and held to what the real SDK sent through
``toolchoice mock`` (tests/data/peers/vercel/, tests/test_vercel_dialect.py). No node at run or test time.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, NamedTuple

READ = "2026-11-27"  # the packages read and recorded on this date
VERSIONS: dict[str, str] = {
    "ai": "6.0.326", "@ai-sdk/openai": "3.0.141", "@ai-sdk/anthropic": "3.0.140", "@ai-sdk/google": "3.0.141",
    "@ai-sdk/mistral": "3.0.69", "@ai-sdk/groq": "3.0.71", "@ai-sdk/cohere": "3.0.63", "@ai-sdk/deepseek": "2.0.69",
    "@ai-sdk/xai": "3.0.138", "@ai-sdk/openai-compatible": "2.0.92", "@ai-sdk/amazon-bedrock": "4.0.186",
    "@ai-sdk/azure": "3.0.128", "@ai-sdk/togetherai": "2.0.84", "@ai-sdk/fireworks": "2.0.90",
    "@ai-sdk/cerebras": "2.0.82", "@ai-sdk/huggingface": "1.0.77",
}
# host package -> (the package it builds its chat model from, the version its package.json pins; package-lock.json)
BUNDLED: dict[str, tuple[str, str]] = {
    "@ai-sdk/azure": ("@ai-sdk/openai", "3.0.120"), "@ai-sdk/togetherai": ("@ai-sdk/openai-compatible", "2.0.78"),
    "@ai-sdk/fireworks": ("@ai-sdk/openai-compatible", "2.0.80"),
    "@ai-sdk/cerebras": ("@ai-sdk/openai-compatible", "2.0.76"),
}


class Source(NamedTuple):
    package: str  # npm package; the file is its dist/index.js (``file``)
    line: int
    words: str  # the code, quoted
    file: str = "dist/index.js"

    def __str__(self) -> str:
        inner = BUNDLED.get(self.package)
        if inner is not None:  # the host package's pin of the package that holds the code
            return (f"{self.package}@{VERSIONS[self.package]} -> {inner[0]}@{inner[1]} {self.file}:{self.line}: "
                    f"{self.words}")
        return f"{self.package}@{VERSIONS[self.package]} {self.file}:{self.line}: {self.words}"


# ai's prepareToolsAndToolChoice: what every package is handed
UNSET_AS_AUTO = Source("ai", 2102, 'toolChoice: toolChoice == null ? { type: "auto" } : typeof toolChoice === "string" '
                                   '? { type: toolChoice } : { type: "tool", toolName: toolChoice.toolName }')
NO_TOOLS_GIVEN = Source("ai", 2059, 'if (!isNonEmptyObject(tools)) { return { tools: void 0, toolChoice: '
                                    'toolChoice === "none" ? { type: "none" } : void 0 } }')
ACTIVE_TOOLS = Source("ai", 2067, "Object.entries(tools).filter(([name23]) => activeTools.includes(name23))")

DROPPED = "(not sent)"  # the package leaves the field out
ALL, NAMED, NO_TOOLS = "all", "named", "none"  # which tools a rule sends: all given, the named one, none at all


class Rule(NamedTuple):
    """What a package sends for one of ai's tool choices (auto, none, required, tool): the wire value (``"{name}"``
    in it is the named tool) or DROPPED, which tools go with it, and the API's own reading where it parts from
    the choice given."""

    sends: Any
    source: Source
    tools: str = ALL
    api_says: str | None = None


class Parallel(NamedTuple):
    """How a package takes parallel tool calls: the providerOptions key the user sets, and where it lands."""

    option: str  # "providerOptions.openai.parallelToolCalls"
    kind: str  # "copied": body parallel_tool_calls = P; "anthropic": tool_choice.disable_parallel_tool_use = not P;
    # "bedrock": additionalModelRequestFields.tool_choice (Anthropic models, P false only)
    source: Source


class Package(NamedTuple):
    provider: str  # toolchoice's provider id
    package: str  # the npm package
    model: str  # how the model is made: "openai.chat(MODEL)"
    choice_path: str | None  # where the choice sits in the body
    choices: Mapping[str, Rule]  # keys: auto, none, required, tool
    parallel: Parallel | None  # None: the package has no option for it
    tools_path: str = "tools"
    tools_note: str | None = None  # how the package writes tool declarations where the API request differs
    tools_warning: bool = False  # the API reads the package's declarations otherwise (a warning, not a note)
    route: str | None = None  # why this package describes the host (another package a user may meet; its API)


def _same(package: str, line: int, words: str, named: Any) -> dict[str, Rule]:
    rule = Source(package, line, words)
    return {"auto": Rule("auto", rule), "none": Rule("none", rule), "required": Rule("required", rule),
            "tool": Rule(named, rule)}


_CHAT_NAMED = {"type": "function", "function": {"name": "{name}"}}
_CHAT_WORDS = ('case "auto": case "none": case "required": return { tools: ..., toolChoice: type, ... }; case "tool": '
               '... { type: "function", function: { name: toolChoice.toolName } }')


def _chat(provider: str, package: str, model: str, line: int, parallel: Parallel | None, file: str = "dist/index.js",
          route: str | None = None) -> Package:
    rules = {k: r._replace(source=r.source._replace(file=file)) for k, r in _same(package, line, _CHAT_WORDS,
                                                                                   _CHAT_NAMED).items()}
    return Package(provider, package, model, "tool_choice", rules, parallel, route=route)


_COMPATIBLE = "@ai-sdk/openai-compatible"
_COMPATIBLE_LINE = 411  # 2.0.92's prepareTools 'case "auto":' (2.0.76-2.0.80, as the host packages bundle it: 397)
# getArgs: the keys of providerOptions[name] the package does not know go into the body as given (2.0.92: line 561;
# 2.0.76-2.0.80: 547)
_PASSTHROUGH_WORDS = ("...Object.fromEntries(Object.entries({ ...providerOptions == null ? void 0 : providerOptions["
                      "this.providerOptionsName], ... }).filter(([key]) => !Object.keys(openaiCompatibleLanguageModel"
                      "ChatOptions.shape).includes(key)))")
COMPATIBLE_PASSTHROUGH = Source(_COMPATIBLE, 561, _PASSTHROUGH_WORDS)


def _compatible(provider: str, package: str, model: str = "", route: str | None = None) -> Package:
    """A host on @ai-sdk/openai-compatible's OpenAICompatibleChatLanguageModel: its own package (which bundles one) or
    createOpenAICompatible({name: provider}). The name (a host package's own: 'togetherai.chat' before the dot, its
    providerOptionsName) is the providerOptions key whose other keys go into the body: parallel_tool_calls so."""
    own = package != _COMPATIBLE
    name = package.split("/")[1] if own else provider
    parallel = Parallel(f"providerOptions.{name}.parallel_tool_calls", "copied",
                        Source(package, 547 if own else 561, _PASSTHROUGH_WORDS))
    return _chat(provider, package, model or f"createOpenAICompatible({{name: '{name}', baseURL}})(MODEL)",
                 397 if own else _COMPATIBLE_LINE, parallel, route=route)


def _through_compatible(host: str, name: str, own: str | None) -> str:
    return (f"{host} has no @ai-sdk package for chat completions{own or ''}: described as "
            f"createOpenAICompatible({{name: '{name}', baseURL}}) ({_COMPATIBLE}, which does not depend on the host)")


RESPONSES_STRICT_SOURCE = Source("@ai-sdk/openai", 6133, "...tool.strict != null ? { strict: tool.strict } : {} "
                                                        "(prepareFunctionTool)")
_MISTRAL = "@ai-sdk/mistral"
_COHERE = "@ai-sdk/cohere"
_GOOGLE = "@ai-sdk/google"
_ANTHROPIC = "@ai-sdk/anthropic"
_BEDROCK = "@ai-sdk/amazon-bedrock"
_GOOGLE_WORDS = ('case "auto": ... { mode: hasStrictTools ? "VALIDATED" : "AUTO" }; case "none": { mode: "NONE" }; '
                 'case "required": { mode: "ANY" }; case "tool": { mode: "ANY", allowedFunctionNames: '
                 '[toolChoice.toolName] }')
_BEDROCK_CHOICE = Source(_BEDROCK, 392, 'case "auto": bedrockToolChoice = { auto: {} }; case "required": { any: {} }; '
                                        'case "tool": { tool: { name: toolChoice.toolName } }')
_ANTHROPIC_CHOICE = Source(_ANTHROPIC, 2002, 'case "auto": { type: "auto", disable_parallel_tool_use }; case '
                                             '"required": { type: "any", ... }; case "none": { type: "none" }; case '
                                             '"tool": { type: "tool", name: toolChoice.toolName, ... }')
_MISTRAL_NAMED_SAYS = ("Mistral takes a named choice ({type: function, function: {name}}, mistralai 3.7.0 ToolChoice: "
                       "\"forces the model to call that tool\"); 'any' over the named tool alone forces a call of it "
                       "with the other tools out of the model's sight; @ai-sdk/mistral 4.0.80 (ai 7) sends that "
                       "named form over all the tools (4.0.87 dist/index.js:298: 'toolChoice: { type: \"function\", "
                       "function: { name: toolChoice.toolName } }')")

PACKAGES: dict[str, Package] = {
    "openai": _chat("openai", "@ai-sdk/openai", "openai.chat(MODEL)", 1030, Parallel(
        "providerOptions.openai.parallelToolCalls", "copied",
        Source("@ai-sdk/openai", 1121, "parallel_tool_calls: openaiOptions.parallelToolCalls"))),
    "openai-responses": Package("openai-responses", "@ai-sdk/openai", "openai(MODEL)", "tool_choice", _same(
        "@ai-sdk/openai", 6056, 'case "auto": case "none": case "required": return { ..., toolChoice: type }; case '
        '"tool": ... { type: "function", name: resolvedToolName }', {"type": "function", "name": "{name}"}),
        Parallel("providerOptions.openai.parallelToolCalls", "copied",
                 Source("@ai-sdk/openai", 6446, "parallel_tool_calls: openaiOptions == null ? void 0 : "
                                                "openaiOptions.parallelToolCalls")),
        tools_note=f"leaves strict out of a tool that does not set it ({RESPONSES_STRICT_SOURCE}), and the "
                   "Responses API treats an omitted strict as true (function_tool_param.py: \"Default `true`\"): "
                   "the schema is normalized into strict mode, optional fields made mandatory",
        tools_warning=True),
    "groq": _chat("groq", "@ai-sdk/groq", "groq(MODEL)", 332, Parallel(
        "providerOptions.groq.parallelToolCalls", "copied",
        Source("@ai-sdk/groq", 432, "parallel_tool_calls: groqOptions == null ? void 0 : "
                                    "groqOptions.parallelToolCalls"))),
    "deepseek": _chat("deepseek", "@ai-sdk/deepseek", "deepseek(MODEL)", 611, None),
    "xai": _chat("xai", "@ai-sdk/xai", "xai(MODEL)", 393, None),
    # the OpenAI-compatible servers (recorded: vllm); the package does not depend on the host
    "vllm": _compatible("vllm", _COMPATIBLE),
    "llamacpp": _compatible("llamacpp", _COMPATIBLE),
    # the hosts' own packages, each building OpenAICompatibleChatLanguageModel (recorded: togetherai, fireworks,
    # cerebras): 'const provider = (modelId) => createChatModel(modelId)'
    "together": _compatible("together", "@ai-sdk/togetherai", "togetherai(MODEL)"),
    "fireworks": _compatible("fireworks", "@ai-sdk/fireworks", "fireworks(MODEL)"),
    "cerebras": _compatible("cerebras", "@ai-sdk/cerebras", "cerebras(MODEL)"),
    # recorded: openai-compatible-openrouter, -sambanova, -huggingface
    "openrouter": _compatible("openrouter", _COMPATIBLE, route=_through_compatible(
        "OpenRouter", "openrouter", "; its own provider is the community package @openrouter/ai-sdk-provider (2.9.1 "
                                    "is its line for ai 6), not read here")),
    "sambanova": _compatible("sambanova", _COMPATIBLE, route=_through_compatible(
        "SambaNova", "sambanova", "; the community package sambanova-ai-provider (1.2.2) is built for ai 5 "
                                  "(@ai-sdk/provider 2.0.0), not read here")),
    "huggingface": _compatible("huggingface", _COMPATIBLE, route=(
        f"@ai-sdk/huggingface {VERSIONS['@ai-sdk/huggingface']} speaks only the Responses API ('const provider = "
        "(modelId) => createResponsesModel(modelId)', dist/index.js:958; path: \"/responses\"), not the chat "
        "completions toolchoice builds: described as createOpenAICompatible({name: 'huggingface', baseURL: "
        "'https://router.huggingface.co/v1'})")),
    # @ai-sdk/azure: azure(id) is the Responses model ('return createResponsesModel(deploymentId)', dist/index.js:370);
    # toolchoice's azure row is chat completions on a deployment URL: azure.chat (OpenAIChatLanguageModel of the
    # @ai-sdk/openai it pins) with useDeploymentBasedUrls
    "azure": _chat("azure", "@ai-sdk/azure", "azure.chat(MODEL)", 923, Parallel(
        "providerOptions.openai.parallelToolCalls", "copied",
        Source("@ai-sdk/azure", 1014, "parallel_tool_calls: openaiOptions.parallelToolCalls",
               "dist/internal/index.js")),
        "dist/internal/index.js", "azure(MODEL) is @ai-sdk/azure's Responses model ('return createResponsesModel("
        "deploymentId)', dist/index.js:370); toolchoice's azure row is chat completions on a deployment URL: "
        "described as azure.chat(MODEL) ('provider.chat = createChatModel', dist/index.js:374) of createAzure({"
        "resourceName, useDeploymentBasedUrls: true}), which posts to /deployments/{deployment}/chat/completions"),
    "mistral": Package("mistral", _MISTRAL, "mistral(MODEL)", "tool_choice", {
        "auto": Rule("auto", Source(_MISTRAL, 354, 'case "auto": case "none": return { tools: mistralTools, '
                                                   'toolChoice: type, toolWarnings }')),
        "none": Rule("none", Source(_MISTRAL, 355, 'case "auto": case "none": return { tools: mistralTools, '
                                                   'toolChoice: type, toolWarnings }')),
        "required": Rule("any", Source(_MISTRAL, 357, 'case "required": return { tools: mistralTools, toolChoice: '
                                                      '"any", toolWarnings }')),
        "tool": Rule("any", Source(_MISTRAL, 361, "// mistral does not support tool mode directly, so we filter the "
                                                  "tools and force the tool choice through 'any'"), NAMED,
                     _MISTRAL_NAMED_SAYS),
    }, Parallel("providerOptions.mistral.parallelToolCalls", "copied",
                Source(_MISTRAL, 469, "...mistralTools != null && options.parallelToolCalls !== void 0 ? { "
                                      "parallel_tool_calls: options.parallelToolCalls } : {}"))),
    "cohere": Package("cohere", _COHERE, "cohere(MODEL)", "tool_choice", {
        "auto": Rule(DROPPED, Source(_COHERE, 107, 'case "auto": return { tools: cohereTools, toolChoice: void 0, '
                                                   'toolWarnings }')),
        "none": Rule("NONE", Source(_COHERE, 109, 'case "none": return { tools: cohereTools, toolChoice: "NONE", '
                                                  '... }')),
        "required": Rule("REQUIRED", Source(_COHERE, 111, 'case "required": return { tools: cohereTools, toolChoice: '
                                                          '"REQUIRED", ... }')),
        "tool": Rule("REQUIRED", Source(_COHERE, 113, 'case "tool": return { tools: cohereTools.filter((tool) => '
                                                      'tool.function.name === toolChoice.toolName), toolChoice: '
                                                      '"REQUIRED", ... }'), NAMED),
    }, None),
    "gemini": Package("gemini", _GOOGLE, "google(MODEL)", "toolConfig.functionCallingConfig", {
        "auto": Rule({"mode": "AUTO"}, Source(_GOOGLE, 1844, _GOOGLE_WORDS)),
        "none": Rule({"mode": "NONE"}, Source(_GOOGLE, 1854, _GOOGLE_WORDS)),
        "required": Rule({"mode": "ANY"}, Source(_GOOGLE, 1860, _GOOGLE_WORDS)),
        "tool": Rule({"mode": "ANY", "allowedFunctionNames": ["{name}"]}, Source(_GOOGLE, 1870, _GOOGLE_WORDS)),
    }, None, tools_note="writes each tool's JSON Schema as an OpenAPI schema (convertJSONSchemaToOpenAPISchema: "
                        "$schema and additionalProperties left out)"),
    "anthropic": Package("anthropic", _ANTHROPIC, "anthropic(MODEL)", "tool_choice", {
        "auto": Rule({"type": "auto"}, _ANTHROPIC_CHOICE),
        "none": Rule({"type": "none"}, _ANTHROPIC_CHOICE),
        "required": Rule({"type": "any"}, _ANTHROPIC_CHOICE),
        "tool": Rule({"type": "tool", "name": "{name}"}, _ANTHROPIC_CHOICE),
    }, Parallel("providerOptions.anthropic.disableParallelToolUse", "anthropic",
                Source(_ANTHROPIC, 2007, "disable_parallel_tool_use: disableParallelToolUse (beside every choice but "
                                         "none)"))),
    "bedrock": Package("bedrock", _BEDROCK, "bedrock(MODEL)", "toolConfig.toolChoice", {
        "auto": Rule({"auto": {}}, _BEDROCK_CHOICE),
        "required": Rule({"any": {}}, _BEDROCK_CHOICE),
        "tool": Rule({"tool": {"name": "{name}"}}, Source(
            _BEDROCK, 358, 'const filteredFunctionTools = toolChoice.type === "tool" ? functionTools.filter((t) => '
                           't.name === toolChoice.toolName) : functionTools'), NAMED),
        "none": Rule(DROPPED, Source(_BEDROCK, 398, 'case "none": bedrockTools.length = 0; bedrockToolChoice = void 0; '
                                                    '... toolConfig = bedrockTools.length > 0 ? { tools: bedrockTools, '
                                                    'toolChoice: bedrockToolChoice } : {}'), NO_TOOLS),
    }, Parallel("providerOptions.anthropic.disableParallelToolUse", "bedrock",
                Source(_BEDROCK, 379, "if (isAnthropicModel2 && ... disableParallelToolUse && bedrockTools.length > 0 "
                                      '&& toolChoice.type !== "none") { additionalTools = { tool_choice: ... { type: '
                                      '"auto", disable_parallel_tool_use: true } }')),
        tools_path="toolConfig.tools"),
}

# The hosts no @ai-sdk package describes: the package a user would take instead (dialect.no_route)
NO_PACKAGE: dict[str, str] = {
    "ollama": "no @ai-sdk package speaks Ollama's native /api/chat, which toolchoice's ollama row builds; the "
              "community package ollama-ai-provider-v2 (3.6.0 is its line for ai 5 and 6) does, not read here "
              "(Ollama's OpenAI-compatible /v1/chat/completions would be @ai-sdk/openai-compatible)",
}

# Anthropic: a forcing choice becomes auto (the named tool sent alone) with a warning when the model's capabilities
# say rejectsForcedToolUse or thinking is {type: "enabled"} (budget thinking); adaptive thinking, which takes a
# forcing choice (model rule claude-thinking-forced-choice), is sent as written (recorded: anthropic-adaptive).
ANTHROPIC_REJECTS_FORCED = re.compile(r"claude-(?:sonnet-5-5|opus-5-5|fable-5-1)")
ANTHROPIC_REJECTS_SOURCE = Source(_ANTHROPIC, 6298, 'if (modelId.includes("claude-sonnet-5-5")) { ... '
                                                    'rejectsForcedToolUse: true } (also claude-opus-5-5, '
                                                    'claude-fable-5-1)')
ANTHROPIC_FORCED_AUTO = Source(_ANTHROPIC, 4664, 'rejectsForcedToolUse: rejectsForcedToolUse || thinkingType === '
                                                 '"enabled"')
ANTHROPIC_FORCED_WARNING = Source(_ANTHROPIC, 2013, "if (rejectsForcedToolUse) { toolWarnings.push({ ... details: "
                                                    "\"toolChoice 'required' is not supported with this model or "
                                                    "thinking configuration. Using 'auto' instead.\" }) ... "
                                                    "toolChoice: { type: \"auto\", ... }")
# DeepSeek: thinking stays on for deepseek-v4-* unless providerOptions.deepseek.thinking says disabled
DEEPSEEK_THINKING = Source("@ai-sdk/deepseek", 774, 'isThinkingEnabled = ... (thinking == null ? void 0 : '
                                                    'thinking.type) !== "disabled" && (thinking != null || '
                                                    'this.modelId === "deepseek-reasoner" || '
                                                    "isDeepSeekV4Model(this.modelId))")
# The provider APIs' answers where the SDK's request parts from the one toolchoice builds
API_ANSWERS: dict[str, str] = {
    "thinking.forced_choice": "Anthropic answers 400 \"Thinking may not be enabled when tool_choice forces tool use.\"",
    "thinking.disabled_for_choice": "DeepSeek's thinking mode (on by default for deepseek-v4-*) answers 400 "
                                    "\"Thinking mode does not support this tool_choice\" (api-docs.deepseek.com "
                                    "guides/thinking_mode)",
}
# @ai-sdk/openai's Responses model: providerOptions.openai.allowedTools overrides toolChoice and keeps every tool
RESPONSES_ALLOWED = Source("@ai-sdk/openai", 6041, 'if (allowedTools != null) { ... return { tools: openaiTools2, '
                                                   'toolChoice: { type: "allowed_tools", mode: (_e = '
                                                   'allowedTools.mode) != null ? _e : "auto", tools: '
                                                   'allowedToolEntries } }')
# @ai-sdk/anthropic streaming: each function tool declared with eager_input_streaming unless toolStreaming: false
ANTHROPIC_EAGER = Source(_ANTHROPIC, 4251, "const defaultEagerInputStreaming = stream && "
                                           "(anthropicOptions?.toolStreaming ?? true) ... (line 1702) "
                                           "...eagerInputStreaming ? { eager_input_streaming: true } : {}")
