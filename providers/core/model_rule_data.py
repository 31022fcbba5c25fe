"""The model rules as data: per model family, the facts its sources state, with the source, the words quoted and the
date read (``RULES``), and the documented retirements (``END_OF_LIFE``). What a rule is and how it matches:
``model_rule_match``; how the facts resolve for a request, and what the ledger says of them: ``model_rules``.

No third-party imports: this module is on `render`'s start-up path.
"""

from .model_rule_match import EndOfLife, Rule

_DOCS = "platform.claude.com/docs/en/"
_ANTHROPIC_TABLE = (_DOCS + "build-with-claude/thinking-troubleshooting, table 'Thinking support, defaults, and "
                    "rejected configurations by model'")
# The Thinking page's "Tool choice limitation (manual mode)" says the same ("Adaptive thinking, including on models
# where thinking is on by default, supports forced tool use."); it replaced the older extended-thinking sentence
# "Thinking isn't compatible with ... forced tool use" (anthropics/claude-code#19414) that toolchoice followed until
# 2026-11-26. The newer primary source wins.
_ANTHROPIC_FORCED = (_DOCS + "build-with-claude/thinking-tool-workflows: 'tool_choice options that force tool use "
                     "return an error with manual extended thinking (thinking: {type: \"enabled\"}); adaptive thinking "
                     "supports forced tool use'")
_CLAUDE_PROVIDERS = ("anthropic", "bedrock")
# The SDK warns, and still sends, manual thinking on these two (fifteenth audit pass, 2026-11-28): deprecated, not a
# 400 (Sonnet 4.6, deprecated by the table, is not in the SDK's list)
_SDK_WARNS = ("anthropic 2.14.0 _data/models_to_warn_with_thinking_enabled.py (read 2026-11-28): "
              "MODELS_TO_WARN_WITH_THINKING_ENABLED = ['claude-opus-4-6', 'claude-mythos-preview'], on which "
              "resources/messages/messages.py warns and sends: 'Using Claude with {model} and "
              "'thinking.type=enabled' is deprecated. Use 'thinking.type=adaptive' instead'")
# DeepSeek's integration guide says thinking mode refuses tool_choice of every value; its API reference says only
# required and named choices are refused there, as the recorded 400s show: the API reference wins, so auto and none
# go out as written with nothing said (seventeenth pass, 2026-11-28; the sixteenth had warned of them on the guide's word)
_DEEPSEEK_GUIDE = ("api-docs.deepseek.com/quick_start/agent_integrations/oh_my_pi (DeepSeek's integration guide; its "
                   "source deepseek-ai/awesome-deepseek-agent docs/oh-my-pi.md, re-read 2026-11-28 at 9ae3920, "
                   "2026-06-17): '`supportsToolChoice: false` | DeepSeek V4 thinking mode rejects the `tool_choice` "
                   "parameter.'")
# DeepSeek's API reference (api-docs.deepseek.com/api/create-chat-completion) is not in the stored copies; its words as
# quoted, the same in each, by public readers found by the code index (read 2026-11-28): a DeepSeek client's notes
# (read 2026-09-20), two agents' DeepSeek findings marked 'type: official', a tool's DeepSeek wire notes and a Go
# client's comments ("Disable thinking mode first.")
_DEEPSEEK_REFERENCE = ("api-docs.deepseek.com/api/create-chat-completion (DeepSeek's API reference, as quoted by public "
                       "readers found by the code index, read 2026-11-28; the page is not in the stored copies): "
                       "'`required` and named tool choices are not supported in thinking mode; the API returns a `400` "
                       "error. Disable thinking mode first to use them.'; reasoning_effort: 'Possible values: [none, low, "
                       "high, max]. Controls the thinking mode toggle and the thinking effort. none disables thinking "
                       "mode; low/high/max enable thinking mode.' — the API reference wins over the guide: auto and none "
                       "are taken in thinking mode; the guide's words: ")
_EARLIER = "2026-11-23"  # rules not re-checked on 2026-11-26 keep the date their source was last read
_AUDITED = "2026-11-27"  # re-read at the source in the drift audit (docs/fact-audit.md)
# After a model's version: no further short version number ("claude-opus-5" is not "claude-opus-5-5"), while a
# date ("-20250929"), a Bedrock suffix ("-v1:0") or the end may follow. Rules match model families, not prefixes.
_V = r"(?!-\d{1,7}(?!\d))"


# Most specific first: for each fact the first matching rule wins.
RULES: tuple[Rule, ...] = (
    # ---- Claude (Anthropic Messages; Bedrock model ids carry the same names after "anthropic.") ----
    Rule("claude-5.1-no-forced-choice", _CLAUDE_PROVIDERS, r"claude-(?:fable|mythos)-5-1" + _V,
         {"thinking_form": "adaptive", "thinking_default": True, "thinking_always_on": True,
          "forced_tool_choice": False},
         _DOCS + "models/fable-5-1/migration-guide (claude-fable-5-1 and claude-mythos-5-1): 'Both thinking: {type: "
         "\"disabled\"} and manual extended thinking (thinking: {type: \"enabled\", budget_tokens: N}) return a 400 "
         "error.' '{type: \"auto\"} (the default) and {type: \"none\"} are supported. Forcing a tool call with {type: "
         "\"any\"} or {type: \"tool\", name: \"...\"} returns a 400 error.'; re-read 2026-11-27 at models/opus-5-5/whats-new-opus-5-5: 'Forced tool use returns an error.' ... 'The first "
         "three also apply on Claude Fable 5.1.'", verified=_AUDITED),
    # Fable / Mythos 5.2: the thinking facts only; a forcing tool_choice is unstated (sent and said, never refused)
    Rule("claude-5.2-always-adaptive", _CLAUDE_PROVIDERS, r"claude-(?:fable|mythos)-5-2" + _V,
         {"thinking_form": "adaptive", "thinking_default": True, "thinking_always_on": True},
         _DOCS + "models/fable-5-2/whats-new-fable-5-2 (claude-fable-5-2 and claude-mythos-5-2): 'Claude Fable 5.2 and "
         "Claude Mythos 5.2 share these specs: ... Thinking: adaptive thinking is always on' ('Use the effort parameter "
         "to control thinking depth'); models/fable-5-2/migration-guide: adaptive thinking is always on, as on Claude "
         "Fable 5.1 (re-read 2026-11-27: the same four breaking changes, none about tool_choice); " + _ANTHROPIC_TABLE + ": 'Claude 4.7 and later models do not support it [extended thinking] and "
         "reject requests that use it, returning a 400 error'; forced tool_choice: not stated (not refused)",
         unstated={"forced_tool_choice": (
             _DOCS + "models/fable-5-2/whats-new-fable-5-2 lists 'Four changes from Claude Fable 5.1 can break your "
             "code': 'The prefix check applies to every account.', 'Only Claude Fable 5.2 and Claude Mythos 5.2 read "
             "Claude Fable 5.2 thinking blocks.', 'The earlier computer_20251124 computer use tool returns an error "
             "on every platform except Amazon Bedrock.', 'With the advisor tool, a Claude Fable 5.2 executor needs a "
             "Claude Fable 5.2 or Claude Mythos 5.2 advisor.' — none about tool_choice; in what was read of it and of "
             "models/fable-5-2/migration-guide (the stored copies; their feature-support sections could not be read "
             "whole) nothing says that 5.1's 'Forcing a tool call with {type: \"any\"} "
             "or {type: \"tool\", name: \"...\"} returns a 400 error' (rule claude-5.1-no-forced-choice) carries over "
             "or was lifted; build-with-claude/thinking's 'adaptive thinking supports forced tool use' is about the "
             "thinking setting, and models that refuse forcing outright (Fable 5.1, Opus 5.5) fall under it too")}, verified=_AUDITED),
    Rule("claude-opus-5.5", _CLAUDE_PROVIDERS, r"claude-opus-5-5" + _V,
         {"thinking_form": "adaptive", "thinking_default": True, "thinking_always_on": True,
          "forced_tool_choice": False, "effort_default": "medium"},
         _DOCS + "models/opus-5-5/whats-new-opus-5-5: breaking changes 'Thinking can't be disabled.' (disabled and "
         "enabled answered 400 invalid_request_error) and 'Forced tool use returns an error.'; 'Adaptive thinking is "
         "always on ... its default on this model is medium'", verified=_AUDITED),
    Rule("claude-sonnet-5.5", _CLAUDE_PROVIDERS, r"claude-sonnet-5-5" + _V,
         {"thinking_form": "adaptive", "thinking_default": True, "thinking_always_on": True,
          "thinking_off": "between_tools", "forced_tool_choice": False, "effort_default": "high"},
         _DOCS + "models/sonnet-5-5/whats-new-sonnet-5-5: breaking changes 'Turn off up-front thinking with "
         "between_tools.' and 'Forced tool use returns an error.'; 'Adaptive thinking is on by default ... Its default "
         "on the Claude API is high.'; " + _ANTHROPIC_TABLE + ": 'Only Claude Sonnet 5.5 accepts \"between_tools\", and "
         "it uses it in place of \"disabled\".'; anthropic 2.14.0 types/thinking_config_between_tools_param.py", verified=_AUDITED),
    Rule("claude-haiku-5.5", _CLAUDE_PROVIDERS, r"claude-haiku-5-5" + _V,
         {"thinking_form": "adaptive"},
         _DOCS + "models/haiku-5-5/whats-new-haiku-5-5: 'It supports adaptive thinking with the effort parameter'; "
         "breaking change 'Manual extended thinking returns an error' (its default and disabled are not stated there; "
         "re-read 2026-11-27: the summary table's breaking row 'Manual extended thinking returns an error', action "
         "'replace budget_tokens with adaptive thinking')", verified=_AUDITED),
    Rule("claude-5-always-adaptive", _CLAUDE_PROVIDERS, r"claude-(?:fable|mythos)-5" + _V,
         {"thinking_form": "adaptive", "thinking_default": True, "thinking_always_on": True},
         _DOCS + "models/fable-5/migration-guide (claude-fable-5 and claude-mythos-5): 'Both thinking: {type: "
         "\"disabled\"} and manual extended thinking ... return a 400 error.'; adaptive thinking is always on", verified=_AUDITED),
    Rule("claude-mythos-preview", _CLAUDE_PROVIDERS, r"claude-mythos-preview",
         {"thinking_form": "both", "thinking_default": True, "thinking_always_on": True},
         _ANTHROPIC_TABLE + ": Mythos Preview adaptive and extended ('Claude Mythos Preview supports both modes'), "
         "always on, rejects disabled (re-read 2026-11-27: 'Claude Mythos Preview supports both modes.'); " + _SDK_WARNS,
         verified=_AUDITED),
    Rule("claude-5-adaptive-on", _CLAUDE_PROVIDERS, r"claude-(?:opus|sonnet)-5" + _V,
         {"thinking_form": "adaptive", "thinking_default": True},
         _ANTHROPIC_TABLE + ": 'Claude Opus 4.7, Claude Opus 4.8, Claude Sonnet 5, Claude Fable 5, and Claude Mythos 5 "
         "do not support it' (extended thinking); " + _DOCS + "models/opus-5-5/whats-new-opus-5-5: 'On Claude Opus 5, "
         "thinking is on by default and thinking: {\"type\": \"disabled\"} is accepted at effort high or below.' (re-read "
         "2026-11-27: the table's Opus 5 row rejects 'enabled' and, per its footnote, 'disabled' only with effort "
         "xhigh or max: rule claude-opus-5-disabled-effort; Sonnet 5 rejects 'enabled')", verified=_AUDITED),
    # Opus 5 only (Sonnet 5's row has no such footnote): thinking disabled is refused at effort xhigh or max. One fact
    # beside Opus 5's family rule (claude-5-adaptive-on, which makes the model known): family=False
    Rule("claude-opus-5-disabled-effort", _CLAUDE_PROVIDERS, r"claude-opus-5" + _V,
         {"disabled_effort_max": "high"},
         _ANTHROPIC_TABLE + ": Opus 5's row rejects 'disabled' per its footnote only with effort xhigh or max; "
         + _DOCS + "models/opus-5-5/whats-new-opus-5-5: 'On Claude Opus 5, thinking is on by default and thinking: "
         "{\"type\": \"disabled\"} is accepted at effort high or below.' (read 2026-11-27)", verified=_AUDITED,
         family=False),
    Rule("claude-4.7-adaptive", _CLAUDE_PROVIDERS, r"claude-opus-4-[78]" + _V,
         {"thinking_form": "adaptive", "thinking_default": False},
         _ANTHROPIC_TABLE + ": Opus 4.7 / 4.8 adaptive only ('do not support it and reject requests that use it'), "
         "off by default", verified=_AUDITED),
    Rule("claude-4.6-both", _CLAUDE_PROVIDERS, r"claude-(?:opus|sonnet)-4-6" + _V,
         {"thinking_form": "both", "thinking_default": False},
         _ANTHROPIC_TABLE + ": 'Extended thinking ... is deprecated on Claude Opus 4.6 and Claude Sonnet 4.6 (it still "
         "works there)'; off by default (re-read 2026-11-27); " + _SDK_WARNS, verified=_AUDITED),
    Rule("claude-extended-only", _CLAUDE_PROVIDERS,
         r"claude-(?:(?:opus|sonnet|haiku)-4(?:-[015])?|3-7-sonnet)" + _V,
         {"thinking_form": "enabled", "thinking_default": False},
         _ANTHROPIC_TABLE + ": 'On earlier models, including Claude Sonnet 4.5, Claude Opus 4.5, and Claude Haiku 4.5, "
         "extended thinking is the only thinking mode' (Opus 4 / 4.1, Sonnet 4, Claude 3.7 Sonnet likewise; re-read "
         "2026-11-27)", verified=_AUDITED),
    Rule("claude-no-thinking", _CLAUDE_PROVIDERS, r"claude-(?:3-(?!7)|2|v1|v2|instant)",
         {"thinking_form": "none"},
         _DOCS + "build-with-claude/extended-thinking (supported models: Claude 3.7 Sonnet and newer; re-read "
         "2026-11-27 at docs.claude.com/en/docs/about-claude/models/extended-thinking-models: 'Extended thinking is "
         "supported in the following models: - Claude Sonnet 4.5 ... - Claude Sonnet 3.7 (claude-3-7-sonnet-20250219) "
         "... - Claude Opus 4 (claude-opus-4-20250514)', no Claude 3 / 3.5 model among them)", verified=_AUDITED),
    Rule("bedrock-sonnet-5-forced-choice", ("bedrock",), r"claude-sonnet-5" + _V, {"forced_choice_with_adaptive": False},
         "anthropics/skills skills/claude-api/shared/model-migration.md (at 9d2f1ae, 2026-07-01) 'Breaking changes (will 400 on "
         "Claude Sonnet 5)': '3. Bedrock only: forced `tool_choice` requires `thinking: {type: \"disabled\"}`. ... The "
         "Claude API and Vertex AI do not require this.' (docs/fact-audit.md)", verified=_AUDITED, family=False),
    Rule("claude-thinking-forced-choice", _CLAUDE_PROVIDERS, r"claude-",
         {"forced_choice_with_thinking": False, "forced_choice_with_adaptive": True},
         _ANTHROPIC_FORCED + " (re-read 2026-11-27: 'Limit tool choice to auto or none in manual mode')", family=False,
         verified=_AUDITED),
    Rule("claude-preserved-thinking", _CLAUDE_PROVIDERS,
         r"claude-(fable|mythos)-5-[1-9](?!\d)|claude-(opus|sonnet|haiku)-5-5(?!\d)",
         {"thinking_prefix_check": True},
         "platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks (models: Fable and Mythos "
         "5.1, 5.2, Opus / Sonnet / Haiku 5.5; Claude API, Bedrock, other platforms): 'A prefix check fails if system, "
         "tools, or an earlier message changed after Claude produced a block'; re-read 2026-11-27 with "
         "platform.claude.com/docs/build-with-claude/preserved-thinking: 'The top-level system prompt, tools, and "
         "messages before the block are its prefix. If the prefix differs from what you sent when the block was "
         "produced, that block and every later thinking block are invalid'", verified=_AUDITED, family=False),
    Rule("claude-thinking-per-turn", _CLAUDE_PROVIDERS, r"claude", {"thinking_fixed_per_turn": True},
         "platform.claude.com/docs/build-with-claude/thinking-tool-workflows ('Keep one thinking configuration per "
         "assistant turn: a tool-use loop is one assistant turn, so change the configuration only between turns'; "
         "re-read 2026-11-27)", verified=_AUDITED, family=False),
    Rule("bedrock-named-choice", ("bedrock",), r"anthropic\.claude-(?!v1|v2|instant)|amazon\.nova-",
         {"named_tool_choice": True},
         "botocore 1.44.8 data/bedrock-runtime/2023-09-30/service-2.json ToolChoice.tool: 'The Model must request the "
         "specified tool. Only supported by Anthropic Claude 3 and Amazon Nova models.'", family=False, verified=_AUDITED),
    Rule("bedrock-named-choice-other", ("bedrock",), r".",
         {"named_tool_choice": False},
         "botocore 1.44.8 data/bedrock-runtime/2023-09-30/service-2.json ToolChoice.tool: 'Only supported by Anthropic "
         "Claude 3 and Amazon Nova models.' (other families: answered 400 'This model doesn't support the "
         "toolConfig.toolChoice.tool field', vercel/ai#4396)", family=False, verified=_AUDITED),
    Rule("bedrock-claude-strict-limits", ("bedrock",), r"anthropic\.claude-(?!v1|v2|instant)",
         {"strict_schema_limits": True},
         "platform.claude.com/docs/en/build-with-claude/structured-outputs (Schema complexity limits; Amazon Bedrock "
         "among its platforms); Bedrock's 400 for a Claude model: 'The model returned the following errors: Too many "
         "strict tools (28). The maximum number of strict tools supported is 20.' (usestrix/strix#1050; fact "
         "bedrock.claude_strict_limits)", family=False),
    # ---- Gemini ----
    Rule("gemini-3-signatures", ("gemini",), r"^gemini-3(?:[.-]|$)",
         {"signatures_required": True, "thinking_default": True},
         "ai.google.dev/gemini-api/docs/thought-signatures (re-read 2026-11-27: 'When using Gemini 3 models, you must "
         "pass back thought signatures during function calling, otherwise you will get a validation error (4xx status "
         "code). This includes when using the minimal thinking level setting for Gemini 3 Flash.'; stand-in "
         "'skip_thought_signature_validator' for calls the model did not write)", verified=_AUDITED),
    # sixteenth pass (2026-11-28): Google's page requires signatures of Gemini 3 only, while the API's 400 for an
    # unsigned call is recorded on gemini-2.5-flash: whether 2.5 refuses them is unstated (sent as written, said)
    Rule("gemini-2.5-thinking", ("gemini",), r"^gemini-2\.5-(pro|flash)(?!-lite)",
         {"thinking_default": True},
         "ai.google.dev/gemini-api/docs/thinking (2.5 Pro and Flash think by default)",
         unstated={"signatures_required": (
             "ai.google.dev/gemini-api/docs/thought-signatures (read 2026-11-28): 'When using thinking models (such as "
             "the Gemini 3 and 2.5 series), the API may return a thoughtSignature field' ... 'When using Gemini 3 "
             "models, you must pass back thought signatures during function calling, otherwise you will get a "
             "validation error (4xx status code).' ... 'Refer to the model behavior section for discrepancies with "
             "2.5.' (that section not in the stored copy); the API's 400 recorded on 2.5: rowboatlabs/rowboat#694 "
             "(2026-07-07, gemini 2.5 flash): 'Function call is missing a thought_signature in functionCall parts. "
             "This is required for tools to work correctly, and missing thought_signature may lead to degraded model "
             "performance.', the maintainer: 'Gemini 2.5 models attach an opaque thought_signature to each functionCall "
             "and require it to be echoed back verbatim'; Gitlawb/openclaude#583 (gemini-2.5-flash via AI Studio, the "
             "same words); until 2026-11-28 this rule said 'returned but not validated' without the page's words")},
         verified="2026-11-28"),
    # ---- OpenAI Chat Completions (openai, azure; gpt-5.6's fact for openai only) ----
    # gpt-5.6 on Azure: every source says an effort other than 'none' is the 400 with function tools (refused); on
    # 'none' and on leaving it out they disagree, so those are sent as written and said (audit 2026-11-27, ninth pass)
    # gpt-5.6-cyber (a Responses-only id in the SDK's ResponsesModel, not in ChatModel) is no Chat Completions member
    # of the family: no source covers it there, so it is said unknown (tenth audit pass, 2026-11-27)
    Rule("azure-gpt-5.6-tools-effort", ("azure",), r"gpt-5\.6(?!\d)(?!-cyber)", {"tools_reasoning_effort": "other-refused"},
         "an effort with function tools on Azure's Chat Completions: anomalyco/opencode#40257 (2026-08-03, opencode "
         "sends reasoningEffort 'medium', 'especially with Azure/OpenAI-compatible gateways'): 'Bad Request: Error code: "
         "400 - Function tools with reasoning_effort are not supported for gpt-5.6-sol in /v1/chat/completions. Please "
         "use /v1/responses instead.'; Gitlawb/openclaude#1957 (Azure endpoint https://[resource].openai.azure.com/"
         "openai/v1): 'This affects Azure OpenAI deployments of gpt-5.6-sol, gpt-5.6-terra, and gpt-5.6-luna — all three "
         "fail the same way.'; agentgateway/agentgateway#2894 (Azure Foundry, gpt-5.6-luna, 2026-08-06): 'By sending "
         "reasoning_effort in the request even if it is none, at least for azure foundry, returns this error ... "
         "\"Function tools with reasoning_effort are not supported for gpt-5.6-luna in /v1/chat/completions. Please use "
         "/v1/responses instead.\"' and 'By omitting reasoning_effort it fixes this situation.'; maximhq/bifrost#7275 "
         "(2026-09-17, Azure Foundry, gpt-6-astra 'and now gpt-5.6-luna as well'): 'Chat + tools + `medium` (or "
         "omitted effort) → Azure 400' and 'Chat + tools + `none` → Azure 400'; Microsoft's reasoning "
         "page as two third-party copies quote it (learn.microsoft.com azure/foundry/openai/how-to/reasoning, not in "
         "the stored copies): 'With GPT-5.6 models on the Chat Completions API, `none` is the only value you can "
         "combine with function tools.' 'none' and leaving it out: the sources disagree (agentgateway#2894 and "
         "bifrost#7275 against Microsoft's page; on leaving it out agentgateway#2894 against bifrost#7275), both sent "
         "as written and said", verified=_AUDITED),
    Rule("gpt-5.6-tools-effort-none", ("openai",), r"gpt-5\.6(?!\d)(?!-cyber)",
         {"tools_reasoning_effort": "none"},
         "API error 'Function tools with reasoning_effort are not supported for gpt-5.6 in /v1/chat/completions. "
         "To use function tools, use /v1/responses or set reasoning_effort to 'none'.' (BerriAI/litellm#34569: "
         "tools only → 400, tools + none → 200); the model's default effort is not none. The family's members in openai "
         "3.57.0 ChatModel (gpt-5.6-sol, gpt-5.6-terra, gpt-5.6-luna) answer the same: 'Function tools with "
         "reasoning_effort are not supported for gpt-5.6-sol in /v1/chat/completions. To use function tools, use "
         "/v1/responses or set reasoning_effort to 'none'.' (github/app#2133; -terra GoogleChromeLabs/webmcp-tools#417, "
         "-luna livekit/agents#7169: 'omitting the parameter also 400s'; re-read 2026-11-27: the same words for "
         "gpt-5.6-luna in ItzCrazyKns/Vane#1173, no newer word either way); not gpt-5.6-cyber, which openai 3.57.0 "
         "lists in ResponsesModel only ('gpt-5.6-cyber', not a ChatModel member): no source covers it on Chat "
         "Completions, so it is said unknown and sent as written (tenth audit pass, 2026-11-27)", verified=_AUDITED),
    # GPT-6 (openai 3.57.0 ChatModel): the members the API's words are recorded for on api.openai.com (gpt-6-astra,
    # gpt-6-sol; gpt-6.1-sol and gpt-6-luna since the eighth pass), and gpt-6-astra on Azure (the sources disagree
    # only on 'none'); the others (gpt-6.2-astra, gpt-6.2-sol, gpt-6.1-terra) stay unknown (audit 2026-11-27)
    Rule("azure-gpt-6-astra-tools-effort", ("azure",), r"gpt-6-astra(?:-\d{4}-\d{2}-\d{2})?$",
         {"tools_reasoning_effort": "none-unstated"},
         "the API's 400s on Azure Chat Completions with a function tool: no effort, can1357/oh-my-pi#11052 "
         "(2026-09-06, azure/gpt-6-astra, 'omp sends tools with no reasoning_effort on the wire'): '400 Function "
         "tools with reasoning_effort are not supported for gpt-6-astra in /v1/chat/completions. To use function "
         "tools, use /v1/responses or set reasoning_effort to 'none'.'; microsoft/simplechat docs/explanation/fixes/"
         "GPT6_ASTRA_MODEL_CATALOG_FIX.md (Azure rejections observed 2026-10-01, model version 2026-09-03): 'Not "
         "set (model default)' 'Rejected: \"Function tools with reasoning_effort are not supported for gpt-6-astra "
         "in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.\"', "
         "'low' 'Rejected with the same error'; maximhq/bifrost#7275 (2026-09-17, Azure Foundry): 'Chat + tools + "
         "`medium` (or omitted effort) → Azure 400'; danny-avila/LibreChat#15844 (2026-09-11, effort low): 'HTTP "
         "400: function tools are not supported for Astra on Chat Completions'. Microsoft's reasoning page "
         "(learn.microsoft.com azure/foundry/openai/how-to/reasoning, updated 2026-09-22, read in a stored copy) "
         "lists 'Chat Completions API' and 'Functions/tools' for gpt-6-astra each on its own, with no note on the "
         "two together (gpt-5.6 has one), and says 'Use the Responses API when you combine reasoning with function "
         "or custom tools.' 'none' with tools: unstated, its sources disagree: Microsoft's table marks "
         "gpt-6-astra's 'Reasoning effort' '(including `none`)' and Foundry's azure_ai route lists it ('Supported "
         "values are: 'none', 'low', 'medium', 'high', and 'xhigh'.', BerriAI/litellm#39983) and took it without tools "
         "('the same request sent straight to Foundry returns 200', BerriAI/litellm#39827), but bifrost#7275 "
         "records '`reasoning_effort` does not support `none`. Supported values are: `low`, `medium`, `high`, "
         "`xhigh`.' and simplechat ''reasoning_effort' does not support 'none' with this model'; no recording shows "
         "'none' taken with tools", verified=_AUDITED),
    Rule("gpt-6-astra-no-chat-tools", ("openai",), r"gpt-6-astra(?:-\d{4}-\d{2}-\d{2})?$",
         {"tools_reasoning_effort": "never"},
         "the API's 400s on /v1/chat/completions with a function tool: genkit-ai/genkit#6303 (2026-09-08, a live run): "
         "'400 Function tools with reasoning_effort are not supported for gpt-6-astra in /v1/chat/completions. To use "
         "function tools, use /v1/responses or set reasoning_effort to 'none'.' ... 'The same error came back at low and "
         "xhigh, and reasoning_effort: 'none' was itself rejected (Supported values are: 'low', 'medium', 'high', and "
         "'xhigh'). So no value lets tools through on this endpoint.'; left out, BerriAI/litellm#39631 (2026-09-03): 'a "
         "get_weather function tool and no reasoning_effort and get a 400 from OpenAI saying function tools with "
         "reasoning_effort are not supported in /v1/chat/completions'; 'none' on Responses too, Wei-Shaw/sub2api#6622 "
         "(2026-09-05): 'Unsupported value: 'none' is not supported with the 'gpt-6-astra' model. Supported values are: "
         "'low', 'medium', 'high', 'xhigh', and 'max'.' (UKGovernmentBEIS/inspect_ai#5254, 2026-09-04, likewise); "
         "bolna-ai/bolna#1019 (2026-09-05): 'function tools on chat completions, at every effort level'. The 400's "
         "advice 'set reasoning_effort to 'none'' does not hold on this model", verified=_AUDITED),
    Rule("gpt-6-sol-tools-effort", ("openai",), r"gpt-6-sol(?:-\d{4}-\d{2}-\d{2})?$",
         {"tools_reasoning_effort": "other-refused"},
         "API error through LiteLLM's OpenAI route, onyx-dot-app/onyx#15008 (2026-09-23, 'Model: gpt-6-sol (openai)'): "
         "'litellm.BadRequestError: OpenAIException - Function tools with reasoning_effort are not supported for "
         "gpt-6-sol in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to "
         "'none'.'; what that request carried is not recorded, so whether leaving reasoning_effort out is taken is not "
         "stated, and no recording shows 'none' taken with tools (on gpt-6-astra the same advice is itself answered "
         "400: rule gpt-6-astra-no-chat-tools): both are sent as written and said", verified=_AUDITED),
    # eighth pass (2026-11-27): two more members recorded on api.openai.com
    Rule("gpt-6.1-sol-no-chat-tools", ("openai",), r"gpt-6\.1-sol(?:-\d{4}-\d{2}-\d{2})?$",
         {"tools_reasoning_effort": "never"},
         "the API's words recorded live on api.openai.com, in a public client's OpenAI provider (found by the code "
         "index, read 2026-11-27; the request there sends no reasoning_effort unless the caller adds one): "
         "'reasoning-tier model (gpt-6.1-sol, confirmed on this key) refuses them outright -- \"Function tools with "
         "reasoning_effort are not supported for gpt-6.1-sol in /v1/chat/completions. To use function tools, use "
         "/v1/responses or set reasoning_effort to 'none'\" -- and 'none' is itself rejected for that model "
         "(\"Supported values are: 'low', 'medium', 'high', and 'xhigh'\"), so there is no reasoning_effort value that "
         "makes tool calling work for it here'; blakeblackshear/frigate discussion #24555 as quoted in a research note "
         "(fetched 2026-10-05, found by the code index): \"Unsupported value: 'reasoning_effort' does not support "
         "'none' with this model. Supported values are: 'low', 'medium', 'high', and 'xhigh'.\" and then \"Function "
         "tools with reasoning_effort are not supported for gpt-6.1-sol in /v1/chat/completions.\"; the same note "
         "quotes OpenAI's model page developers.openai.com/api/docs/models/gpt-6.1-sol (not in the stored copies): "
         "'Use the Responses API for tool calling. Chat Completions is supported without tool calling.' and 'The "
         "`none` and `minimal` reasoning efforts are not supported.'", verified=_AUDITED),
    Rule("gpt-6-luna-tools-effort", ("openai",), r"gpt-6-luna(?:-\d{4}-\d{2}-\d{2})?$",
         {"tools_reasoning_effort": "absent-unstated"},
         "the API's 400 for an effort with function tools on /v1/chat/completions: 'Function tools with "
         "reasoning_effort are not supported for gpt-6-luna in /v1/chat/completions. To use function tools, use "
         "/v1/responses or set reasoning_effort to 'none'.' (moltis-org/moltis#1298, 2026-10-10, the built-in openai "
         "provider, as quoted in a project digest; a public client's test holds the LiteLLM-wrapped 400 for "
         "reasoning_effort 'high': 'litellm.BadRequestError: OpenAIException - Function tools with reasoning_effort "
         "are not supported for gpt-6-luna in /v1/chat/completions. To use function tools, use /v1/responses or set "
         "reasoning_effort to 'none'.'; a public app's run notes, 2026-09-30: the 400 came when 'the effort came from "
         "something that was set'); 'none' taken with tools, a public app's verification record (2026-10-02, live "
         "against api.openai.com, found by the code index): 'First live call, before the fix | **Failed.** "
         "`gpt-6-luna` answered HTTP 400' ... 'The OpenAI adapter now sends `reasoning_effort: \"none\"`' ... 'Live "
         "agent loop, `gpt-6-luna`, after the fix | `POST /api/ask` × 3, all HTTP 200, 2 model steps each' (tool "
         "calls made); reasoning_effort left out: what that first call carried is not recorded, so it is sent as "
         "written and said", verified=_AUDITED),
    # gpt-5.5 on api.openai.com (tenth audit pass): an effort with tools is the recorded 400 as for the family, but the
    # one recording of leaving it out there is a 400 too, and none records 'none' taken: both sent as written and said
    Rule("gpt-5.5-tools-effort", ("openai",), r"gpt-5\.5(?!\d)(?!-pro)", {"tools_reasoning_effort": "other-refused"},
         "an effort with function tools on /v1/chat/completions: 'Function tools with reasoning_effort are not "
         "supported for gpt-5.5 in /v1/chat/completions. Please use /v1/responses instead.' (charmbracelet/crush#2913, "
         "Science-Discovery/Aether#1026, 2026-06-06: 'requests with function tools and `reasoning_effort` are routed to "
         "`/v1/chat/completions`, causing this error'); reasoning_effort left out, jeffdafoe/llm-memory-api#178 "
         "(2026-04-29, api.openai.com): 'gpt-5.5 + function tools is rejected on /v1/chat/completions with: `Function "
         "tools with reasoning_effort are not supported for gpt-5.5 in /v1/chat/completions. Please use /v1/responses "
         "instead.` Direct probe today confirmed it's unconditional — gpt-5.x has implicit reasoning enabled and the "
         "constraint trips even when reasoning_effort isn't in the request body.'; the family's 'sent without "
         "reasoning_effort the default (none) is accepted' rests on gpt-5.2 and gpt-5.4 (livekit/agents#5088: "
         "'applies to gpt 5.2 and 5.4'), and no recording on api.openai.com shows gpt-5.5 taking tools with "
         "reasoning_effort left out or 'none' (Azure's gpt-5.5 took it left out: rule gpt-5.2-5.5-tools-effort). "
         "Another effort is refused; 'none' and left out are sent as written and said (not refused on one recording)",
         verified=_AUDITED),
    Rule("gpt-5.2-5.5-tools-effort", ("openai", "azure"), r"gpt-5\.(?:[2-4]|5(?!-pro))(?!\d)",
         {"tools_reasoning_effort": "absent-or-none"},
         "API error 'Function tools with reasoning_effort are not supported for gpt-5.4 in /v1/chat/completions. "
         "Please use /v1/responses instead.' (pipecat-ai/pipecat#4043, openai/openai-openapi#541); sent without "
         "reasoning_effort the default (none) is accepted (livekit/agents#5088, #7169); gpt-5.5 answers the same "
         "(charmbracelet/crush#2913, Science-Discovery/Aether#1026: 'Function tools with reasoning_effort are not "
         "supported for gpt-5.5 in /v1/chat/completions. Please use /v1/responses instead.'; re-read 2026-11-27; on "
         "api.openai.com gpt-5.5 has its own rule since the tenth pass, gpt-5.5-tools-effort: leaving the effort out "
         "is recorded answered 400 there); on Azure, gpt-5.5: anomalyco/opencode#20287 (2026-05-06, @ai-sdk/azure on Chat "
         "Completions): 'Function tools with reasoning_effort are not supported for gpt-5.5 in /v1/chat/completions. "
         "Please use /v1/responses instead.' ... 'Removing `reasoning_effort` from fetch body does solve this problem'; "
         "openclaw/openclaw#90574 (2026-06-12, azure-openai/gpt-5.5, the effort left out): '\"httpStatus\":200' ... "
         "'instead of the Azure 400 caused by sending unsupported `reasoning_effort` with tools' (gpt-5.2 to 5.4 on "
         "Azure: no Azure recording); gpt-5.4-mini answers the same, dotnet/extensions#7407 (2026-03-19, 'API "
         "Response'): 'Function tools with reasoning_effort are not supported for gpt-5.4-mini in "
         "/v1/chat/completions. Please use /v1/responses instead.'; not gpt-5.5-pro, which openai 3.57.0 lists in "
         "ResponsesModel only ('gpt-5.5-pro', 'gpt-5.5-pro-2026-04-23', not ChatModel members): no source covers it "
         "on Chat Completions, so it is said unknown and sent as written (tenth audit pass, 2026-11-27)",
         verified=_AUDITED),
    Rule("o-series-no-parallel", ("openai", "azure"),  # seen on Chat Completions (Azure: langchain#29704 too)
         r"^(?:o1|o3-mini|o4-mini)(?:-\d{4}-\d{2}-\d{2})?$",
         {"parallel_tool_calls": False},
         "API error 400 \"Unsupported parameter: 'parallel_tool_calls' is not supported with this model.\" "
         "(code unsupported_parameter): o3-mini langchain-ai/langchain#29704, browser-use/web-ui#648; o4-mini "
         "evalstate/fast-agent#279, tensorzero/tensorzero#2805; o1 inngest/agent-kit#86"),
    # ---- DeepSeek ----
    Rule("deepseek-reasoner", ("deepseek",), r"^deepseek-reasoner$",
         {"thinking_default": True, "thinking_always_on": True, "forced_choice_with_thinking": False,
          "reasoning_replay": True},
         "api-docs.deepseek.com/guides/thinking_mode (thinking mode; tool-call turns' reasoning_content 'must be "
         "fully passed back to the API in all subsequent requests', else 400); retired 2026-07-24 (fact "
         "deepseek.legacy_names_retired); re-read 2026-11-27: the API's words for a forcing tool_choice on the alias, "
         "'deepseek-reasoner does not support this tool_choice' (i-am-bee/beeai-framework#1441, can1357/oh-my-pi#945, "
         "2026-05-08; the same words in a whole 400 body from api.deepseek.com/anthropic for a named choice, in DeepSeek's "
         "own repository: deepseek-ai/awesome-deepseek-integration#598, 2026-04-29, '{\"error\":{\"message\":"
         "\"deepseek-reasoner does not support this tool_choice\",\"type\":\"invalid_request_error\"'); no "
         "api-docs.deepseek.com page "
         "names the alias's tool_choice words (thinking_mode, the zh-cn reasoning_model page, the agent-integration "
         "guides read 2026-11-27)", verified=_AUDITED),
    Rule("deepseek-v4-thinking", ("deepseek",), r"^deepseek-v4-(?:flash|pro)$",
         {"thinking_default": True, "forced_choice_with_thinking": False, "reasoning_replay": True,
          "tool_choice_with_thinking": True},
         "api-docs.deepseek.com/guides/thinking_mode (re-read 2026-11-27: 'Thinking mode is enabled by default, with "
         "the default effort being high'; '{\"thinking\": {\"type\": \"enabled/disabled\"}}', '{\"reasoning_effort\": "
         "\"low/high/max\"}'; reasoning_content of tool-call turns must be sent back, else 400; the guide names no "
         "tool_choice limit); forcing tool_choice in thinking mode is answered 400 'Thinking mode does not support this "
         "tool_choice' (the API's words: cloudwego/eino#994, curl to api.deepseek.com, deepseek-v4-flash, 2026-04-24; "
         "tickernelz/opencode-mem#253, 2026-08-15; deepseek-ai/DeepSeek-V3#1376, 2026-08-21, curl to "
         "api.deepseek.com/chat/completions, deepseek-v4-flash: '400 — Thinking mode does not support this tool_choice' "
         "for tool_choice 'required' and a named function, '200 — returns tool_calls' with the same body plus "
         "'\"thinking\":{\"type\":\"disabled\"}'); " + _DEEPSEEK_REFERENCE + _DEEPSEEK_GUIDE,
         verified="2026-11-28"),
    # fifteenth audit pass (2026-11-28): DeepSeek's new id for V4.1 Flash, named by its pricing page; the 400 for a
    # forcing tool_choice in thinking mode recorded for this id on 2026-09-10
    Rule("deepseek-flash-thinking", ("deepseek",), r"^deepseek-flash$",
         {"thinking_default": True, "forced_choice_with_thinking": False, "reasoning_replay": True,
          "tool_choice_with_thinking": True},
         "api-docs.deepseek.com/zh-cn/quick_start/pricing (read 2026-11-28): model 'deepseek-flash' (version "
         "'DeepSeek-V4.1-Flash-1017'), '思考模式 | 支持非思考与思考模式(默认)' (non-thinking and thinking, thinking the "
         "default), 'Tool Calls | 支持'; '(1) 模型名请使用 deepseek-flash。旧模型名 deepseek-v4-flash、"
         "deepseek-v4-flash-vision-exp 仍可调用,但对应模型已下线,请求将由 DeepSeek-V4.1-Flash-1017 模型提供服务' (use "
         "deepseek-flash; the old names still answer, served by V4.1 Flash); api-docs.deepseek.com/guides/thinking_mode "
         "(read 2026-11-28, its example's model is deepseek-flash): 'Thinking mode is enabled by default, with the default "
         "effort being high', tool-call turns' reasoning_content must be sent back, else 400; the API's 400 for a forcing "
         "tool_choice in thinking mode on this id, can1357/oh-my-pi#11505 (2026-09-10, the built-in deepseek provider, "
         "deepseek-flash, thinking enabled and tool_choice 'required'): '400 \"Thinking mode does not support this "
         "tool_choice\" — deepseek-flash misses the tool-choice guard that deepseek-v4-flash has'; " + _DEEPSEEK_REFERENCE
         + _DEEPSEEK_GUIDE, verified="2026-11-28"),
    # ---- Cohere ----
    Rule("cohere-r7b-and-newer", ("cohere",), r"^command-(?:r7b|a)(?:-|$)",
         {"tool_choice": True},
         "cohere 7.3.1 v2/client.py chat(tool_choice=...) docstring: 'This parameter is only compatible with "
         "models [Command-r7b](https://docs.cohere.com/v2/docs/command-r7b) and newer.' (Command A, 2025-03, is newer)", verified=_AUDITED),
    Rule("cohere-pre-r7b", ("cohere",), r"^(command(-light)?(-nightly)?|command-r(-plus)?(-\d{2}-\d{4}|-v01)?)$",
         {"tool_choice": False},
         "cohere 7.3.1 v2/client.py chat(tool_choice=...) docstring: 'This parameter is only compatible with "
         "models [Command-r7b](https://docs.cohere.com/v2/docs/command-r7b) and newer.'", verified=_AUDITED),
)


_SDK_DEPRECATED = "anthropic 2.14.0 _data/deprecated_models.py (DEPRECATED_MODELS, the SDK warns on every call)"
# OpenAI's own API (Azure retires on its own schedule); the SDK names no replacement, its docstring points to the page
_OPENAI_PROVIDERS = ("openai", "openai-responses")
_OPENAI_DEPRECATED = ("openai 3.57.0 types/shared/chat_model.py ('Deprecated values'; developers.openai.com/api/docs/"
                      "deprecations)")
_OPENAI_REPLACEMENT = "the replacement developers.openai.com/api/docs/deprecations recommends"


_XAI_RETIRED = ("grok-4-0709", "grok-4-1-fast-reasoning", "grok-4-1-fast-non-reasoning", "grok-4-fast-reasoning",
                "grok-4-fast-non-reasoning", "grok-code-fast-1", "grok-3")


def _exact(ids: tuple[str, ...]) -> str:
    """The ids as one pattern, for people reading the table (matching uses the set)."""
    return "^(?:" + "|".join(ids) + ")$"

END_OF_LIFE: tuple[EndOfLife, ...] = (
    EndOfLife(_CLAUDE_PROVIDERS, r"claude-sonnet-4-5" + _V, "2026-11-30",
              _SDK_DEPRECATED + ": 'claude-sonnet-4-5': 'November 30th, 2026'", "claude-sonnet-5"),
    EndOfLife(_CLAUDE_PROVIDERS, r"claude-opus-4-5" + _V, "2027-01-22",
              _SDK_DEPRECATED + ": 'claude-opus-4-5': 'January 22nd, 2027'", "claude-opus-5"),
    EndOfLife(_CLAUDE_PROVIDERS, r"claude-mythos-preview", "2026-06-30",
              _SDK_DEPRECATED + ": 'claude-mythos-preview': 'June 30th, 2026'", "claude-mythos-5"),
    EndOfLife(("deepseek",), r"^deepseek-(?:chat|reasoner)$", "2026-07-24",
              "api-docs.deepseek.com/news (DeepSeek V4 preview, 2026-04-24): deepseek-chat and deepseek-reasoner "
              "'will be fully retired and inaccessible after Jul 24th, 2026, 15:59 (UTC Time)'; the replacement: "
              "api-docs.deepseek.com/zh-cn/quick_start/pricing (read 2026-11-28): '模型名请使用 deepseek-flash' (use the "
              "model name deepseek-flash)", "deepseek-flash"),
    EndOfLife(("xai",), _exact(_XAI_RETIRED), "2026-05-15",
              "docs.x.ai/developers/migration/may-15-retirement: 'Effective May 15, 2026 at 12:00pm PT, the following "
              "models will be retired from the xAI API' (grok-4-0709, grok-4-1-fast-*, grok-4-fast-*, grok-code-fast-1, "
              "grok-3); 'requests to the models listed above will no longer work'", "grok-4.3",
              verified="2026-11-26", models=frozenset(_XAI_RETIRED)),
    EndOfLife(("cerebras",), r"^(?:llama-3\.3-70b|qwen-3-32b)$", "2026-02-16",
              "inference-docs.cerebras.ai/support/deprecation (2026-02-16): 'Deprecated qwen-3-32b and llama-3.3-70b'; "
              "'We recommend migrating to GPT OSS 120B'", "gpt-oss-120b", verified="2026-11-26",
              after="Cerebras's deprecations page lists it as deprecated from that date"),
    EndOfLife(("cerebras",), r"^(?:llama3\.1-8b|qwen-3-235b-a22b-instruct-2507)$", "2026-05-27",
              "inference-docs.cerebras.ai/support/deprecation (2026-04-22): 'Deprecating llama3.1-8b and "
              "qwen-3-235b-a22b-instruct-2507. Both models will be fully deprecated on May 27, 2026'", "gpt-oss-120b",
              verified="2026-11-26", after="Cerebras says it is 'fully deprecated' from then on"),
    EndOfLife(("groq",), r"^(?:llama-3\.3-70b-versatile|llama-3\.1-8b-instant)$", "2026-08-16",
              "unverified at the primary source (2026-11-26): console.groq.com/docs/deprecations has no readable entry "
              "in the stored copies; secondary, two agreeing: github.com/papi-ai/groq release v0.15.2 'Both Llama "
              "models are decommissioned on 16 August 2026' (llama-3.3-70b-versatile, llama-3.1-8b-instant), "
              "github.com/codedaily04/commit-craft#1 'According to Groq's announcement, the model will be "
              "decommissioned on August 16, 2026'", "openai/gpt-oss-120b", verified="2026-11-26"),
    EndOfLife(("gemini",), r"^(?:models/)?gemini-2\.5-(?:flash|pro)$", "2026-06-17",
              "ai.google.dev/gemini-api/docs/deprecations: 'gemini-2.5-flash June 17, 2025 June 17, 2026' (gemini-2.5-pro "
              "likewise); 'The shutdown dates listed in the table indicate the earliest possible dates on which a model "
              "might be retired'", "gemini-3.5-flash",
              after="Google may shut it down, or answer with another model, from then on"),
    *(EndOfLife(_OPENAI_PROVIDERS, _exact(ids), date, _OPENAI_DEPRECATED + f": {', '.join(ids[:3])}, ...: "
                f"'Announced shutdown date: {date}'", _OPENAI_REPLACEMENT, models=frozenset(ids)) for date, ids in (
        # the SDK's earlier dates too (all of them since 2026-11-26: a retired id is told, not left unknown)
        ("2024-09-13", ("gpt-3.5-turbo-16k", "gpt-3.5-turbo-0301", "gpt-3.5-turbo-0613", "gpt-3.5-turbo-16k-0613")),
        ("2024-12-06", ("gpt-4-vision-preview",)),
        ("2025-06-06", ("gpt-4-32k", "gpt-4-32k-0314", "gpt-4-32k-0613")),
        ("2025-07-28", ("o1-preview", "o1-preview-2024-09-12")),
        ("2025-10-10", ("gpt-4o-audio-preview-2024-10-01",)),
        ("2025-10-27", ("o1-mini", "o1-mini-2024-09-12")),
        ("2026-02-12", ("codex-mini-latest",)),
        ("2026-02-17", ("chatgpt-4o-latest",)),
        ("2026-03-26", ("gpt-4-0125-preview", "gpt-4-turbo-preview", "gpt-4-0314")),
        ("2026-05-07", ("gpt-4o-audio-preview", "gpt-4o-audio-preview-2024-12-17", "gpt-4o-audio-preview-2025-06-03",
                        "gpt-4o-mini-audio-preview", "gpt-4o-mini-audio-preview-2024-12-17")),
        ("2026-07-23", ("gpt-5.1-codex", "gpt-5.1-chat-latest", "gpt-5-chat-latest", "gpt-4o-search-preview",
                        "gpt-4o-mini-search-preview", "gpt-4o-search-preview-2025-03-11",
                        "gpt-4o-mini-search-preview-2025-03-11")),
        ("2026-08-10", ("gpt-5.3-chat-latest", "gpt-5.2-chat-latest")),
        ("2026-09-28", ("gpt-3.5-turbo-1106",)),
        ("2026-10-23", ("gpt-4.1-nano", "gpt-4.1-nano-2025-04-14", "o4-mini", "o4-mini-2025-04-16", "o3-mini",
                        "o3-mini-2025-01-31", "o1", "o1-2024-12-17", "gpt-4o-2024-05-13", "gpt-4-turbo",
                        "gpt-4-turbo-2024-04-09", "gpt-4-1106-preview", "gpt-4", "gpt-4-0613", "gpt-3.5-turbo",
                        "gpt-3.5-turbo-0125")),
        ("2026-12-11", ("gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5-2025-08-07", "gpt-5-mini-2025-08-07",
                        "gpt-5-nano-2025-08-07", "o3", "o3-2025-04-16")),
        ("2027-01-14", ("gpt-4.1", "gpt-4.1-mini", "gpt-4.1-2025-04-14", "gpt-4.1-mini-2025-04-14", "gpt-4o",
                        "gpt-4o-2024-11-20", "gpt-4o-2024-08-06", "gpt-4o-mini", "gpt-4o-mini-2024-07-18")),
        ("2027-01-20", ("gpt-audio-mini", "gpt-audio-mini-2025-12-15")),
        ("2027-04-01", ("gpt-5.4-nano", "gpt-5.4-nano-2026-03-17", "gpt-5.1", "gpt-5.1-2025-11-13")),
    )),
)
