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

READ = "2026-11-28"  # the packages read and recorded on this date
VERSIONS: dict[str, str] = {
    "ai": "7.0.173", "@ai-sdk/openai": "4.0.118", "@ai-sdk/anthropic": "4.0.105", "@ai-sdk/google": "4.0.121",
    "@ai-sdk/mistral": "4.0.87", "@ai-sdk/groq": "4.0.84", "@ai-sdk/cohere": "4.0.52", "@ai-sdk/deepseek": "3.0.56",
    "@ai-sdk/xai": "5.0.12", "@ai-sdk/openai-compatible": "3.0.92", "@ai-sdk/amazon-bedrock": "5.0.101",
    "@ai-sdk/azure": "4.0.85", "@ai-sdk/togetherai": "3.0.54", "@ai-sdk/fireworks": "3.0.62",
    "@ai-sdk/cerebras": "3.0.59", "@ai-sdk/huggingface": "2.0.48",
}
# The ai 6 line (ai 6.0.326, @ai-sdk/* 3.x) was described until 2026-11-28; where a rule changed, its ai 6 behaviour
# is kept in the rule's words ("before @ai-sdk/mistral 4.0.80 (ai 6): ...") and in docs/vercel-ai-sdk.md.
# host package -> (the package it builds its chat model from, the version its package.json pins; package-lock.json)
BUNDLED: dict[str, tuple[str, str]] = {
    "@ai-sdk/azure": ("@ai-sdk/openai", "4.0.81"), "@ai-sdk/togetherai": ("@ai-sdk/openai-compatible", "3.0.53"),
    "@ai-sdk/fireworks": ("@ai-sdk/openai-compatible", "3.0.59"),
    "@ai-sdk/cerebras": ("@ai-sdk/openai-compatible", "3.0.59"),
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


# ai's prepareToolChoice and prepareTools: what every package is handed
UNSET_AS_AUTO = Source("ai", 2119, 'return toolChoice == null ? { type: "auto" } : typeof toolChoice === "string" ? { '
                                   'type: toolChoice } : { type: "tool", toolName: toolChoice.toolName }')
NO_TOOLS_GIVEN = Source("ai", 2132, 'if (!isNonEmptyObject(tools)) return; (prepareTools; each package then sends no '
                                    'choice: "if (tools == null) return { tools: void 0, toolChoice: void 0 }")')
ACTIVE_TOOLS = Source("ai", 3103, "Object.entries(tools).filter(([name]) => activeTools.includes(name))")

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
# prepareTools 'case "auto":' and getArgs' pass-through (the keys of providerOptions[name] the package does not know go
# into the body as given), per package: 3.0.92's own, or the host package's bundled pin (BUNDLED)
_COMPATIBLE_LINES = {_COMPATIBLE: (412, 531), "@ai-sdk/togetherai": (425, 594), "@ai-sdk/fireworks": (421, 585),
                     "@ai-sdk/cerebras": (421, 585)}
_PASSTHROUGH_WORDS = ("...Object.fromEntries(Object.entries({ ...providerOptions?.[this.providerOptionsName], ... })"
                      ".filter(([key]) => !Object.keys(openaiCompatibleLanguageModelChatOptions.shape).includes(key)))")
COMPATIBLE_PASSTHROUGH = Source(_COMPATIBLE, 531, _PASSTHROUGH_WORDS)
# togetherai's pin (3.0.53) is built to older JavaScript: the same spread, written without ?.
_PASSTHROUGH_OLD_WORDS = _PASSTHROUGH_WORDS.replace("providerOptions?.[this.providerOptionsName]",
                                                    "providerOptions == null ? void 0 : providerOptions["
                                                    "this.providerOptionsName]")


def _compatible(provider: str, package: str, model: str = "", route: str | None = None) -> Package:
    """A host on @ai-sdk/openai-compatible's OpenAICompatibleChatLanguageModel: its own package (which bundles one) or
    createOpenAICompatible({name: provider}). The name (a host package's own: 'togetherai.chat' before the dot, its
    providerOptionsName) is the providerOptions key whose other keys go into the body: parallel_tool_calls so."""
    own = package != _COMPATIBLE
    name = package.split("/")[1] if own else provider
    choice_line, passthrough_line = _COMPATIBLE_LINES[package]
    parallel = Parallel(f"providerOptions.{name}.parallel_tool_calls", "copied",
                        Source(package, passthrough_line, _PASSTHROUGH_OLD_WORDS if package == "@ai-sdk/togetherai"
                               else _PASSTHROUGH_WORDS))
    return _chat(provider, package, model or f"createOpenAICompatible({{name: '{name}', baseURL}})(MODEL)",
                 choice_line, parallel, route=route)


def _through_compatible(host: str, name: str, own: str | None) -> str:
    return (f"{host} has no @ai-sdk package for chat completions{own or ''}: described as "
            f"createOpenAICompatible({{name: '{name}', baseURL}}) ({_COMPATIBLE}, which does not depend on the host)")


RESPONSES_STRICT_SOURCE = Source("@ai-sdk/openai", 7250, "strict: tool.strict ?? false (prepareFunctionTool; before "
                                                        "@ai-sdk/openai 4.0.77 (ai 6): '...tool.strict != null ? { "
                                                        "strict: tool.strict } : {}', strict left out)")
_MISTRAL = "@ai-sdk/mistral"
_COHERE = "@ai-sdk/cohere"
_GOOGLE = "@ai-sdk/google"
_ANTHROPIC = "@ai-sdk/anthropic"
_BEDROCK = "@ai-sdk/amazon-bedrock"
GOOGLE_SCHEMA_SOURCE = Source(_GOOGLE, 1658, "parametersJsonSchema: tool.inputSchema (prepareFunctionDeclaration; "
                                             "before @ai-sdk/google 4.0.70 (ai 6): parameters, the schema converted "
                                             "by convertJSONSchemaToOpenAPISchema, $schema and additionalProperties "
                                             "left out)")
_GOOGLE_WORDS = ('case "auto": ... { mode: hasStrictTools ? "VALIDATED" : "AUTO" }; case "none": { mode: "NONE" }; '
                 'case "required": { mode: "ANY" }; case "tool": { mode: "ANY", allowedFunctionNames: '
                 '[toolChoice.toolName] }')
_BEDROCK_CHOICE = Source(_BEDROCK, 464, 'case "auto": amazonBedrockToolChoice = { auto: {} }; case "required": { any: '
                                        '{} }; case "tool": { tool: { name: preparedToolChoice.toolName } }')
_ANTHROPIC_CHOICE = Source(_ANTHROPIC, 2317, 'case "auto": { type: "auto", disable_parallel_tool_use }; case '
                                             '"required": { type: "any", ... }; case "none": { type: "none" }; case '
                                             '"tool": { type: "tool", name: toolChoice.toolName, ... }')


PACKAGES: dict[str, Package] = {
    "openai": _chat("openai", "@ai-sdk/openai", "openai.chat(MODEL)", 1992, Parallel(
        "providerOptions.openai.parallelToolCalls", "copied",
        Source("@ai-sdk/openai", 2077, "parallel_tool_calls: openaiOptions.parallelToolCalls"))),
    # a function tool without strict is sent with strict: false (RESPONSES_STRICT_SOURCE), as the API request sends
    # it; before @ai-sdk/openai 4.0.77 (ai 6) strict was left out, which the Responses API reads as true
    "openai-responses": Package("openai-responses", "@ai-sdk/openai", "openai(MODEL)", "tool_choice", _same(
        "@ai-sdk/openai", 7167, 'case "auto": case "none": case "required": return { ..., toolChoice: type }; case '
        '"tool": ... { type: "function", name: resolvedToolName }', {"type": "function", "name": "{name}"}),
        Parallel("providerOptions.openai.parallelToolCalls", "copied",
                 Source("@ai-sdk/openai", 7579, "parallel_tool_calls: openaiOptions?.parallelToolCalls"))),
    "groq": _chat("groq", "@ai-sdk/groq", "groq(MODEL)", 394, Parallel(
        "providerOptions.groq.parallelToolCalls", "copied",
        Source("@ai-sdk/groq", 560, "parallel_tool_calls: jsonResponseTool != null ? false : "
                                    "groqOptions?.parallelToolCalls"))),
    "deepseek": _chat("deepseek", "@ai-sdk/deepseek", "deepseek(MODEL)", 681, None),
    # recorded: openai-compatible-xai
    "xai": _compatible("xai", _COMPATIBLE, route=(
        f"@ai-sdk/xai {VERSIONS['@ai-sdk/xai']} speaks only the Responses API ('const provider = (modelId) => "
        "createResponsesLanguageModel(modelId)', dist/index.js:5402; no chat model), not the chat completions "
        "toolchoice's xai row builds: described as createOpenAICompatible({name: 'xai', baseURL: "
        "'https://api.x.ai/v1'}); before @ai-sdk/xai 4.0.0 (ai 6) xai(MODEL) was the chat model, which sent the same "
        "tool fields")),
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
        "OpenRouter", "openrouter", "; its own provider is the community package @openrouter/ai-sdk-provider (3.1.0 "
                                    "is its line for ai 7, peerDependencies ai ^7.0.0 on 2026-11-28), not read here")),
    "sambanova": _compatible("sambanova", _COMPATIBLE, route=_through_compatible(
        "SambaNova", "sambanova", "; the community package sambanova-ai-provider (1.2.2) is built for ai 5 "
                                  "(@ai-sdk/provider 2.0.0), not read here")),
    "huggingface": _compatible("huggingface", _COMPATIBLE, route=(
        f"@ai-sdk/huggingface {VERSIONS['@ai-sdk/huggingface']} speaks only the Responses API ('const provider = "
        "(modelId) => createResponsesModel(modelId)', dist/index.js:1004; path: \"/responses\"), not the chat "
        "completions toolchoice builds: described as createOpenAICompatible({name: 'huggingface', baseURL: "
        "'https://router.huggingface.co/v1'})")),
    # @ai-sdk/azure: azure(id) is the Responses model ('return createResponsesModel(deploymentId)', dist/index.js:391);
    # toolchoice's azure row is chat completions on a deployment URL: azure.chat (OpenAIChatLanguageModel of the
    # @ai-sdk/openai it pins) with useDeploymentBasedUrls
    "azure": _chat("azure", "@ai-sdk/azure", "azure.chat(MODEL)", 1147, Parallel(
        "providerOptions.openai.parallelToolCalls", "copied",
        Source("@ai-sdk/azure", 1251, "parallel_tool_calls: openaiOptions.parallelToolCalls",
               "dist/internal/index.js")),
        "dist/internal/index.js", "azure(MODEL) is @ai-sdk/azure's Responses model ('return createResponsesModel("
        "deploymentId)', dist/index.js:391); toolchoice's azure row is chat completions on a deployment URL: "
        "described as azure.chat(MODEL) ('provider.chat = createChatModel', dist/index.js:395) of createAzure({"
        "resourceName, useDeploymentBasedUrls: true}), which posts to /deployments/{deployment}/chat/completions"),
    "mistral": Package("mistral", _MISTRAL, "mistral(MODEL)", "tool_choice", {
        "auto": Rule("auto", Source(_MISTRAL, 287, 'case "auto": case "none": return { tools: mistralTools, '
                                                   'toolChoice: type, toolWarnings }')),
        "none": Rule("none", Source(_MISTRAL, 288, 'case "auto": case "none": return { tools: mistralTools, '
                                                   'toolChoice: type, toolWarnings }')),
        "required": Rule("any", Source(_MISTRAL, 293, 'case "required": return { tools: mistralTools, toolChoice: '
                                                      '"any", toolWarnings }')),
        "tool": Rule(_CHAT_NAMED, Source(_MISTRAL, 298, 'case "tool": return { tools: mistralTools, toolChoice: { '
                                                        'type: "function", function: { name: toolChoice.toolName } }, '
                                                        "toolWarnings } (before @ai-sdk/mistral 4.0.80 (ai 6): \"// "
                                                        "mistral does not support tool mode directly, so we filter the "
                                                        "tools and force the tool choice through 'any'\": 'any' over "
                                                        "the named tool alone)")),
    }, Parallel("providerOptions.mistral.parallelToolCalls", "copied",
                Source(_MISTRAL, 670, "...mistralTools != null && options.parallelToolCalls !== void 0 ? { "
                                      "parallel_tool_calls: options.parallelToolCalls } : {}"))),
    "cohere": Package("cohere", _COHERE, "cohere(MODEL)", "tool_choice", {
        "auto": Rule(DROPPED, Source(_COHERE, 100, 'case "auto": return { tools: cohereTools, toolChoice: void 0, '
                                                   'toolWarnings }')),
        "none": Rule("NONE", Source(_COHERE, 102, 'case "none": return { tools: cohereTools, toolChoice: "NONE", '
                                                  '... }')),
        "required": Rule("REQUIRED", Source(_COHERE, 104, 'case "required": return { tools: cohereTools, toolChoice: '
                                                          '"REQUIRED", ... }')),
        "tool": Rule("REQUIRED", Source(_COHERE, 106, 'case "tool": return { tools: cohereTools.filter((tool) => '
                                                      'tool.function.name === toolChoice.toolName), toolChoice: '
                                                      '"REQUIRED", ... }'), NAMED),
    }, None),
    "gemini": Package("gemini", _GOOGLE, "google(MODEL)", "toolConfig.functionCallingConfig", {
        "auto": Rule({"mode": "AUTO"}, Source(_GOOGLE, 1628, _GOOGLE_WORDS)),
        "none": Rule({"mode": "NONE"}, Source(_GOOGLE, 1633, _GOOGLE_WORDS)),
        "required": Rule({"mode": "ANY"}, Source(_GOOGLE, 1638, _GOOGLE_WORDS)),
        "tool": Rule({"mode": "ANY", "allowedFunctionNames": ["{name}"]}, Source(_GOOGLE, 1643, _GOOGLE_WORDS)),
    }, None, tools_note=f"writes each tool's JSON Schema as given, as parametersJsonSchema ({GOOGLE_SCHEMA_SOURCE})"),
    "anthropic": Package("anthropic", _ANTHROPIC, "anthropic(MODEL)", "tool_choice", {
        "auto": Rule({"type": "auto"}, _ANTHROPIC_CHOICE),
        "none": Rule({"type": "none"}, _ANTHROPIC_CHOICE),
        "required": Rule({"type": "any"}, _ANTHROPIC_CHOICE),
        "tool": Rule({"type": "tool", "name": "{name}"}, _ANTHROPIC_CHOICE),
    }, Parallel("providerOptions.anthropic.disableParallelToolUse", "anthropic",
                Source(_ANTHROPIC, 2321, "disable_parallel_tool_use: disableParallelToolUse (beside every choice but "
                                         "none)"))),
    "bedrock": Package("bedrock", _BEDROCK, "bedrock(MODEL)", "toolConfig.toolChoice", {
        "auto": Rule({"auto": {}}, _BEDROCK_CHOICE),
        "required": Rule({"any": {}}, _BEDROCK_CHOICE),
        "tool": Rule({"tool": {"name": "{name}"}}, Source(
            _BEDROCK, 423, 'const filteredFunctionTools = toolChoice?.type === "tool" ? functionTools.filter((t) => '
                           't.name === toolChoice.toolName) : functionTools'), NAMED),
        "none": Rule(DROPPED, Source(_BEDROCK, 470, 'case "none": amazonBedrockTools.length = 0; amazonBedrockToolChoice '
                                                    '= void 0; ... toolConfig = amazonBedrockTools.length > 0 ? { tools: '
                                                    'amazonBedrockTools, toolChoice: amazonBedrockToolChoice } : {}'),
                     NO_TOOLS),
    }, Parallel("providerOptions.anthropic.disableParallelToolUse", "bedrock",
                Source(_BEDROCK, 451, "if (isAnthropicModel2 && !usingAnthropicTools && disableParallelToolUse && "
                                      'amazonBedrockTools.length > 0 && preparedToolChoice?.type !== "none") { '
                                      'additionalTools = { tool_choice: ... { type: "auto", disable_parallel_tool_use: '
                                      'true } }')),
        tools_path="toolConfig.tools"),
}

# The hosts no @ai-sdk package describes: the package a user would take instead (dialect.no_route)
NO_PACKAGE: dict[str, str] = {
    "ollama": "no @ai-sdk package speaks Ollama's native /api/chat, which toolchoice's ollama row builds; the "
              "community package ollama-ai-provider-v2 (4.0.1 is its line for ai 7, peerDependencies ai ^7.0.0 on "
              "2026-11-28) does, not read here "
              "(Ollama's OpenAI-compatible /v1/chat/completions would be @ai-sdk/openai-compatible)",
}

# Anthropic: a forcing choice becomes auto (the named tool sent alone) with a warning when the model's capabilities
# say rejectsForcedToolUse or thinking is {type: "enabled"} (budget thinking); adaptive thinking, which takes a
# forcing choice (model rule claude-thinking-forced-choice), is sent as written (recorded: anthropic-adaptive).
ANTHROPIC_REJECTS_FORCED = re.compile(r"claude-(?:sonnet-5-5|opus-5-5|fable-5-2|fable-5-1)")
ANTHROPIC_REJECTS_SOURCE = Source(_ANTHROPIC, 210, 'matches: (modelId) => modelId.includes("claude-sonnet-5-5"), '
                                                   'definition: defineRuntime({ ... forcedToolUse: false ... }) (also '
                                                   'claude-opus-5-5, and claude-fable-5-2 || claude-fable-5-1, line '
                                                   '246; line 486: rejectsForcedToolUse: '
                                                   '!language.tools.forcedChoice; before @ai-sdk/anthropic 4 (ai 6): '
                                                   'claude-fable-5-2 not named)')
ANTHROPIC_FORCED_AUTO = Source(_ANTHROPIC, 4760, 'rejectsForcedToolUse: rejectsForcedToolUse || thinkingType === '
                                                 '"enabled"')
ANTHROPIC_FORCED_WARNING = Source(_ANTHROPIC, 2327, "if (rejectsForcedToolUse) { toolWarnings.push({ ... details: "
                                                    "\"toolChoice 'required' is not supported with this model or "
                                                    "thinking configuration. Using 'auto' instead.\" }) ... "
                                                    "toolChoice: { type: \"auto\", ... }")
# DeepSeek: thinking stays on for deepseek-v4-* unless providerOptions.deepseek.thinking says disabled
DEEPSEEK_THINKING = Source("@ai-sdk/deepseek", 903, 'isThinkingEnabled = this.config.supportsThinking !== false && '
                                                    'thinking?.type !== "disabled" && (thinking != null || '
                                                    'this.modelId === "deepseek-reasoner" || '
                                                    "isDeepSeekV4Model(this.modelId))")
# The provider APIs' answers where the SDK's request parts from the one toolchoice builds
API_ANSWERS: dict[str, str] = {
    "thinking.forced_choice": "Anthropic answers 400 \"Thinking may not be enabled when tool_choice forces tool use.\"",
    "thinking.disabled_for_choice": "DeepSeek's thinking mode (on by default for deepseek-flash, deepseek-v4-*) "
                                    "answers 400 "
                                    "\"Thinking mode does not support this tool_choice\" (api-docs.deepseek.com "
                                    "guides/thinking_mode)",
}
# @ai-sdk/openai's Responses model: providerOptions.openai.allowedTools overrides toolChoice and keeps every tool
RESPONSES_ALLOWED = Source("@ai-sdk/openai", 7106, 'if (allowedTools != null) { ... return { tools: openaiTools, '
                                                   'toolChoice: { type: "allowed_tools", mode: allowedTools.mode ?? '
                                                   '"auto", tools: allowedToolEntries } }')
# @ai-sdk/anthropic streaming: each function tool declared with eager_input_streaming unless toolStreaming: false
ANTHROPIC_EAGER = Source(_ANTHROPIC, 4443, "const defaultEagerInputStreaming = stream && "
                                           "(anthropicOptions?.toolStreaming ?? true) ... (line 2018) "
                                           "...eagerInputStreaming ? { eager_input_streaming: true } : {}")
