"""The API's own words for a refusal toolchoice's ledger names in its own words (with its advice): data with sources.

``toolchoice mock`` answers a request the real API refuses with a 400. Its message was the translator's ledger line,
which names toolchoice's scenario keys ("set providers.deepseek.thinking: false"), meaningless to a client of the
mock (LiteLLM, the Vercel AI SDK, an official SDK). Where the API's own words are recorded with a source, the 400
carries those words in the family's envelope (``mock_error``), and the ledger line stays in the mock's judged line as
a finding. Where no words are recorded, the 400 keeps the ledger line (docs/mock.md). Read 2026-11-27.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from .choice_shape_words import CHOICE_SHAPE_FACTS
from .effort_facts import EFFORT_FACTS
from .fact_record import CITE_END, Fact
from .fact_values import NamedModels, RefusalWords, refusals
from .history_facts import HISTORY_FACTS

_VERIFIED = "2026-11-27"
# how a mock's 400 in toolchoice's words ends where no recording gives the API's own for the case (DeepSeek's and
# OpenRouter's tool_choice shapes, Anthropic's fields an API version removes)
UNRECORDED = " (its words for this are not recorded)"
_MANUAL = "enabled"  # Claude's manual thinking {type: enabled}: the case the forced-choice words were recorded for
_FORCED = "Thinking may not be enabled when tool_choice forces tool use."
# Claude Fable 5.1's words for a forcing tool_choice (fact claude.fable_5_1_forced_choice_words); Bedrock prefixes them
_FABLE_5_1_WORDS = 'tool_choice: type "tool" and "any" are not supported for this model.'
_FABLE_5_1 = r"claude-fable-5-1(?!\d)(?!-\d{1,7}(?!\d))"
# the recorded body of OpenAI's (and Azure's) tools-with-effort 400 beside its message (fact openai.tools_effort_words)
_EFFORT_PARAM = (("type", "invalid_request_error"), ("param", "reasoning_effort"), ("code", None))

REFUSAL_FACTS: tuple[Fact, ...] = (
    Fact("deepseek.forced_choice_words", ("deepseek",),
         "DeepSeek's 400 for a forcing tool_choice in thinking mode says 'Thinking mode does not support this "
         "tool_choice' (deepseek-v4-flash / -pro, and deepseek-flash, DeepSeek's id for V4.1 Flash since 2026-09-10), "
         "and 'deepseek-reasoner does not support this tool_choice' on the retired alias: the mock answers in these "
         "words (model rules deepseek-v4-thinking, deepseek-flash-thinking, deepseek-reasoner)",
         "the API's recorded 400s: deepseek-ai/DeepSeek-V3#1376 (2026-08-21, curl to api.deepseek.com/chat/completions, "
         "deepseek-v4-flash), tickernelz/opencode-mem#253 (2026-08-27, deepseek-v4-flash and -pro), BerriAI/litellm#37470 "
         "(2026-08-19); deepseek-flash: can1357/oh-my-pi#11505 (2026-09-10, read 2026-11-28); the alias: "
         "i-am-bee/beeai-framework#1441, can1357/oh-my-pi#945 (2026-05-08)"
         f"{CITE_END}'❌ 400 — Thinking mode does not support this tool_choice' (DeepSeek-V3#1376); 'rejects it with "
         "`400 \"Thinking mode does not support this tool_choice\"`' (opencode-mem#253); '400 \"Thinking mode does "
         "not support this tool_choice\" — deepseek-flash misses the tool-choice guard that deepseek-v4-flash has' "
         "(oh-my-pi#11505); 'deepseek-reasoner does not support this tool_choice'", "2026-11-28",
         (RefusalWords("thinking.forced_choice", ("deepseek",), "Thinking mode does not support this tool_choice",
                       rules=("deepseek-v4-thinking", "deepseek-flash-thinking")),
          RefusalWords("thinking.forced_choice", ("deepseek",), "deepseek-reasoner does not support this tool_choice",
                       rules=("deepseek-reasoner",)))),
    Fact("anthropic.forced_choice_words", ("anthropic", "bedrock"),
         "Claude's 400 for a forcing tool_choice with manual thinking {type: enabled} says 'Thinking may not be enabled "
         "when tool_choice forces tool use.'; Bedrock's ValidationException carries the same words after 'The model "
         "returned the following errors: ' (fact anthropic.thinking_forced_choice). No words are recorded for the "
         "models that refuse forced use whatever the thinking (Opus 5.5, Sonnet 5.5, Mythos 5.1); Fable 5.1's are (fact "
         "claude.fable_5_1_forced_choice_words)",
         "mastra-ai/mastra#7507 (2025-09-05, AI_APICallError from https://api.anthropic.com/v1/messages, "
         "claude-4-sonnet-20250514); usestrix/strix#503 (2026-05-27, claude-opus-4-6, 400 from api.anthropic.com); "
         "can1357/oh-my-pi#341 (2026-03-09, amazon-bedrock us.anthropic.claude-sonnet-4-6)"
         f"{CITE_END}'Error creating stream APICallError [AI_APICallError]: Thinking may not be enabled when tool_choice "
         "forces tool use.' (mastra#7507); 'Error: The model returned the following errors: Thinking may not be "
         "enabled when tool_choice forces tool use.' (oh-my-pi#341, Bedrock)", _VERIFIED,
         (RefusalWords("thinking.forced_choice", ("anthropic",), _FORCED, field=("thinking", "type"), value=_MANUAL),
          RefusalWords("thinking.forced_choice", ("bedrock",), "The model returned the following errors: " + _FORCED,
                       field=("additionalModelRequestFields", "thinking", "type"), value=_MANUAL))),
    # trial 18j (2026-11-28): the words for a forcing tool_choice on Fable 5.1, which its model rule refuses on
    # Anthropic's own words (claude-5.1-no-forced-choice); Mythos 5.1's are not recorded (its 400 keeps the ledger's)
    Fact("claude.fable_5_1_forced_choice_words", ("anthropic", "bedrock"),
         "Claude Fable 5.1's 400 for a forcing tool_choice (any, or one named tool), whatever the thinking, says "
         "'tool_choice: type \"tool\" and \"any\" are not supported for this model.' (invalid_request_error) on the "
         "Claude API; Bedrock's Converse carries the same words after 'The model returned the following errors: '. "
         "The refusal itself is Anthropic's (model rule claude-5.1-no-forced-choice); the mock answers in these words",
         "anthropics/claude-cookbooks#854 (2026-09-02, the Claude API, claude-fable-5-1: 'HTTP 400, "
         "`invalid_request_error`, quoted verbatim from recorded responses — 25/25 runs'); langchain-ai/langchain-aws"
         "#1273 (2026-09-10, ChatBedrockConverse, anthropic.claude-fable-5-1), fixed by #1274 (2026-09-10: 'restrict "
         "Claude Fable 5.1 to `auto` mode only', 'Manually validated build against "
         "`global.anthropic.claude-fable-5-1`.'), the fix as released in langchain-aws 1.9.1 (PyPI, the newest on "
         "2026-11-28) langchain_aws/utils.py forced_tool_choice_unsupported: 'x in model for x in "
         f"(\"claude-fable-5-1\", \"claude-opus-5-5\", \"claude-sonnet-5-5\")'{CITE_END}'tool_choice: type "
         "\"tool\" and \"any\" are not supported for this model.' (claude-cookbooks#854); '400: \"The model "
         "returned the following errors: tool_choice: type "
         "\\\"tool\\\" and \\\"any\\\" are not supported for this model.\"' (langchain-aws#1273)", "2026-11-28",
         (RefusalWords("thinking.forced_choice", ("anthropic",), _FABLE_5_1_WORDS, model=_FABLE_5_1),
          RefusalWords("thinking.forced_choice", ("bedrock",), "The model returned the following errors: "
                       + _FABLE_5_1_WORDS, model=_FABLE_5_1))),
    # trial 18j (2026-11-28): the same Converse words recorded for Fable 5 by the reporter alone; Anthropic's pages
    # say the refusal is new with 5.1. A recording against the provider's docs: warned of and sent (bedrock.py)
    Fact("bedrock.fable_5_forced_choice_recorded", ("bedrock",),
         "One report records Converse answering a forcing toolChoice on anthropic.claude-fable-5 (Fable 5, not 5.1) "
         "with 'The model returned the following errors: tool_choice: type \"tool\" and \"any\" are not supported for "
         "this model.', with no thinking in the request; the maintainers' fix restricts Fable 5.1 only, and "
         "Anthropic's what's-new-fable-5-1 lists 'forced tool use returns an error' among the changes that break "
         "'if you already call Claude Fable 5' (the Claude API takes it on Fable 5: claude-cookbooks#854). No AWS "
         "page read says Converse refuses it on Fable 5 (its model card: adaptive thinking always on). A reporter's "
         "recording against the provider's own docs: a forcing choice for Fable 5 on Bedrock is sent and warned of "
         "(tool_choice.model_refused), never refused; the mock answers it and says the warning",
         "langchain-ai/langchain-aws#1273 (2026-09-10, awg66, ChatBedrockConverse); langchain-ai/langchain-aws#1274 "
         "(2026-09-10, the fix: Fable 5.1 only; its code as released in langchain-aws 1.9.1, PyPI, read 2026-11-28: "
         "langchain_aws/utils.py forced_tool_choice_unsupported names 'claude-fable-5-1', 'claude-opus-5-5', "
         "'claude-sonnet-5-5' and not claude-fable-5, which chat_models/bedrock_converse.py leaves at "
         "supports_tool_choice_values = (\"auto\", \"any\", \"tool\")); "
         "platform.claude.com/docs/models/fable-5-1/whats-new-fable-5-1 (read 2026-11-28); anthropics/claude-cookbooks#854 (2026-09-02); docs.aws.amazon.com/bedrock/latest/userguide/"
         f"model-card-anthropic-claude-fable-5.html (ja_jp copy, read 2026-11-28){CITE_END}'Reproduced for both "
         "`anthropic.claude-fable-5` and `anthropic.claude-fable-5-1`, with no thinking config present in the request "
         "at all' ... '400: \"The model returned the following errors: tool_choice: type \\\"tool\\\" and "
         "\\\"any\\\" are not supported for this model.\"' (#1273); 'Updates ChatBedrockConverse to restrict Claude "
         "Fable 5.1 to `auto` mode only, as the forced tool modes are not supported on this model' (#1274); 'If you "
         "already call Claude Fable 5, three changes are breaking: forced tool use returns an error, earlier models "
         "can't read its thinking blocks, and editing earlier turns invalidates thinking blocks.' (whats-new-fable-5-1);"
         " 'The same requests succeed 25/25 on `claude-fable-5`.' (claude-cookbooks#854)", "2026-11-28",
         (RefusalWords("tool_choice.model_refused", ("bedrock",), "The model returned the following errors: "
                       + _FABLE_5_1_WORDS, model=r"claude-fable-5(?!-\d{1,7}(?!\d))"),)),
    Fact("openai.tools_effort_words", ("openai", "azure"),
         "OpenAI's 400 for function tools with a reasoning_effort the model refuses on Chat Completions names the "
         "model: gpt-5.6, gpt-6-sol and gpt-6-luna 'Function tools with reasoning_effort are not supported for MODEL in "
         "/v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.'; gpt-5.2 "
         "to 5.5 '... Please use /v1/responses instead.' (Azure Foundry answers the latter form: model rules "
         "gpt-5.6-tools-effort-none, gpt-6-sol-tools-effort, gpt-5.2-5.5-tools-effort, azure-gpt-5.6-tools-effort). "
         "gpt-6-astra answers the first form too, but 'none' with other words not recorded whole: its 400 keeps the "
         "ledger's line; on Azure its first form is recorded whole with no effort and with 'low' (model rule "
         "azure-gpt-6-astra-tools-effort), the other refused efforts keep the ledger's line",
         "BerriAI/litellm#34569, github/app#2133, livekit/agents#7169 (gpt-5.6); onyx-dot-app/onyx#15008 (gpt-6-sol, "
         "2026-09-23); gpt-6-luna (read 2026-11-27): moltis-org/moltis#1298 (2026-10-10, as quoted in a project "
         "digest) and a public client's recorded LiteLLM error for reasoning_effort 'high' (found by the code index); "
         "pipecat-ai/pipecat#4043, "
         "openai/openai-openapi#541, charmbracelet/crush#2913 (gpt-5.4, gpt-5.5); agentgateway/agentgateway#2894 "
         "(Azure Foundry), anomalyco/opencode#40257 (2026-08-03, gpt-5.6-sol, 'Azure/OpenAI-compatible gateways'); gpt-6-astra on Azure: can1357/oh-my-pi#11052 (2026-09-06, no reasoning_effort), "
         "microsoft/simplechat docs/explanation/fixes/GPT6_ASTRA_MODEL_CATALOG_FIX.md (observed 2026-10-01: not set, "
         "and 'low' 'Rejected with the same error'), microsoft/foundry-dev-tools#779 (2026-09-13). The error body's "
         "other fields, param reasoning_effort and code null (the envelope the mock answers): pipecat-ai/pipecat#4043 "
         "(2026-03-16, gpt-5.4, openai-python from api.openai.com), GoogleChromeLabs/webmcp-tools#417 (2026-09-03, "
         "gpt-5.6-terra), ItzCrazyKns/Vane#1173 (2026-07-20, gpt-5.6-luna), foundry-dev-tools#779 (Azure, "
         "gpt-6-astra); oh-my-pi#11052 '(type=invalid_request_error param=reasoning_effort)'. No body is recorded "
         "for gpt-6-sol or for Azure's gpt-5.5 form: they carry the same words on the same endpoint, and no recording "
         f"of these words carries another param{CITE_END}'Function tools with reasoning_effort are not supported "
         "for gpt-6-astra in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to "
         "'none'.' (oh-my-pi#11052, simplechat); 'Function tools with reasoning_effort are not supported for "
         "gpt-5.6-sol in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to "
         "'none'.'; "
         "'Function tools with reasoning_effort are not supported for gpt-6-sol in /v1/chat/completions. To use "
         "function tools, use /v1/responses or set reasoning_effort to 'none'.' (onyx#15008); "
         "'Function tools with reasoning_effort are not supported for gpt-6-luna in /v1/chat/completions. To use "
         "function tools, use /v1/responses or set reasoning_effort to 'none'.' (moltis#1298); "
         "'Function tools with reasoning_effort are not supported for gpt-5.4 in /v1/chat/completions. Please use "
         "/v1/responses instead.'; 'Function tools with reasoning_effort are not supported for gpt-5.6-sol in "
         "/v1/chat/completions. Please use /v1/responses instead.' (opencode#40257, Azure); \"{'error': {'message': 'Function tools with reasoning_effort are not supported for "
         "gpt-5.4 in /v1/chat/completions. Please use /v1/responses instead.', 'type': 'invalid_request_error', "
         "'param': 'reasoning_effort', 'code': None}}\" (pipecat#4043); \"type: 'invalid_request_error', param: "
         "'reasoning_effort', code: null\" (webmcp-tools#417, gpt-5.6-terra); '\"type\": \"invalid_request_error\", "
         "\"param\": \"reasoning_effort\", \"code\": null' (foundry-dev-tools#779, gpt-6-astra)", _VERIFIED,
         (RefusalWords("thinking.effort_for_tools", ("openai",), "Function tools with reasoning_effort are not "
                       "supported for {model} in /v1/chat/completions. To use function tools, use /v1/responses or set "
                       "reasoning_effort to 'none'.", model=r"gpt-5\.6(?!\d)|gpt-6-(?:sol|luna)(?:-\d{4}-\d{2}-\d{2})?$",
                       envelope=_EFFORT_PARAM),
          RefusalWords("thinking.effort_for_tools", ("openai", "azure"), "Function tools with reasoning_effort are not "
                       "supported for {model} in /v1/chat/completions. Please use /v1/responses instead.",
                       model=r"gpt-5\.[2-5](?!\d)", envelope=_EFFORT_PARAM),
          # gpt-5.6 on Azure answers the latter form (agentgateway#2894, gpt-5.6-luna; anomalyco/opencode#40257,
          # gpt-5.6-sol, reasoning effort 'medium')
          RefusalWords("thinking.effort_for_tools", ("azure",), "Function tools with reasoning_effort are not "
                       "supported for {model} in /v1/chat/completions. Please use /v1/responses instead.",
                       model=r"gpt-5\.6(?!\d)", envelope=_EFFORT_PARAM),
          *(RefusalWords("thinking.effort_for_tools", ("azure",), "Function tools with reasoning_effort are not "
                         "supported for {model} in /v1/chat/completions. To use function tools, use /v1/responses or "
                         "set reasoning_effort to 'none'.", model=r"gpt-6-astra(?:-\d{4}-\d{2}-\d{2})?$",
                         field=("reasoning_effort",), value=effort, envelope=_EFFORT_PARAM)
                         for effort in (None, "low")))),
    Fact("anthropic.schema_composition_words", ("anthropic",),
         "Claude's 400 for a tool whose input_schema has a top-level anyOf, oneOf or allOf names the tool by its "
         "index: 'tools.N.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level' "
         "(invalid_request_error); the mock answers it for the first such tool (schema.rejected)",
         "the API's recorded 400s: anthropics/claude-code#44788 (2026-04-07, with its request_id), #5973 (2025-08-17, "
         "'Platform: Anthropic API'), #710 (2025-04-04); ProfSynapse/nexus#6 (2025-06-27)"
         f"{CITE_END}'{{\"type\":\"error\",\"error\":{{\"type\":\"invalid_request_error\",\"message\":"
         "\"tools.12.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level\"},"
         "\"request_id\":"
         "\"req_011CZpoE4trUStrdcwQQmawA\"}' (claude-code#44788)", _VERIFIED,
         (RefusalWords("schema.rejected", ("anthropic",), "tools.{tool_index}.custom.input_schema: input_schema does "
                       "not support oneOf, allOf, or anyOf at the top level"),)),
    Fact("groq.undeclared_tool_words", ("groq",),
         "Groq's 400 for a tool_choice naming a tool the request does not declare says 'requested tool does not exist' "
         "(invalid_request_error)",
         "tests/data/responses/errors/error-groq-requested-tool-does-not-exist.json (BerriAI/litellm#11001, "
         f"'GroqException - {{...}}'){CITE_END}'{{\"error\":{{\"message\":\"requested tool does not exist\",\"type\":"
         "\"invalid_request_error\"}}'", _VERIFIED,
         (RefusalWords("tool_choice.undeclared", ("groq",), "requested tool does not exist"),)),
    Fact("openai.messages_empty", ("openai",),
         "OpenAI's Chat Completions answers 400 invalid_request_error \"[] is too short - 'messages'\" (param null) to "
         "an empty messages list: render and send refuse it (messages.empty), the mock answers those words. No source "
         "read says the same of Azure or the other chat hosts (openai-python's types mark the list Required, with no "
         "length): there it is sent and answered",
         "the API's recorded 400s: run-llama/llama_index#9373 (2023-12-07, openai-python BadRequestError from "
         "api.openai.com), sashabaranov/go-openai#605 (2023-11-23)"
         f"{CITE_END}\"openai.BadRequestError: Error code: 400 - {{'error': {{'message': \\\"[] is too short - "
         "'messages'\\\", 'type': 'invalid_request_error', 'param': None, 'code': None}}\" (llama_index#9373); "
         "'status code: 400, message: [] is too short - 'messages'' (go-openai#605)", _VERIFIED,
         (RefusalWords("messages.empty", ("openai",), "[] is too short - 'messages'"),)),
    Fact("anthropic.messages_empty", ("anthropic",),
         "Anthropic's Messages API answers 400 invalid_request_error 'messages: at least one message is required' to "
         "an empty messages list: render and send refuse it (messages.empty; until 2026-11-27 a warning), the mock "
         "answers those words. Bedrock's Converse: no source read states it (botocore's Messages shape has no min), so "
         "it stays a warning",
         "the API's recorded 400: devoxx/DevoxxGenieIDEAPlugin#567 (2025-03-22); Helicone/helicone#5257 (2025-11-17: "
         "'the confusing Anthropic API error \"messages must have at least one element\" when users send only system "
         f"messages'){CITE_END}'{{\"type\":\"error\",\"error\":{{\"type\":\"invalid_request_error\",\"message\":"
         "\"messages: at least one message is required\"}}' (DevoxxGenieIDEAPlugin#567)", _VERIFIED,
         (RefusalWords("messages.empty", ("anthropic",), "messages: at least one message is required"),)),
    # eleventh audit pass: Converse's recorded 400 for toolSpec.strict on Claude models AWS does not name (the
    # translator warns of these and sends them); on the other unnamed models strict stays unsettled
    Fact("bedrock.strict_refused", ("bedrock",),
         "Converse answers 400 'The model returned the following errors: tools.0.custom.strict: Extra inputs are not "
         "permitted' to a tool with toolSpec.strict on Claude Opus 4.7, Claude Opus 4.8 and Claude Sonnet 5 (each "
         "recorded; AWS's own count-tokens page, as quoted, says the same of Opus 4.7): a strict tool for these "
         "models is sent and warned of (strict.model_refused, a warning: recorded 400s, no AWS reference read "
         "whole); the same recordings show it taken on Claude Sonnet 4.5 and 4.6 and "
         "Claude Opus 5, so no family or version rule is drawn from them, and every other model AWS does not name "
         "stays unsettled (fact bedrock.strict_models)",
         "BerriAI/litellm#31582 (2026-06-29, Bedrock Converse, Opus 4.7 and 4.8; and #31923, 2026-07-02, "
         "bedrock/us.anthropic.claude-opus-4-7); BerriAI/litellm#33193 (2026-07-27, a live Converse test forwarding "
         "toolSpec.strict on each model); vercel/ai#16121 (2026-06-15) quoting docs.aws.amazon.com/bedrock/latest/"
         f"userguide/count-tokens.html (stored since, but returned by its opening only: its strict sentence not read){CITE_END}'Sending a tool with `strict: true` to Claude "
         "Opus 4.7 or Opus 4.8 on Bedrock fails with a 400: litellm.BadRequestError: BedrockException - "
         "{\"message\":\"The model returned the following errors: tools.0.custom.strict: Extra inputs are not "
         "permitted\"}' ... 'The same request works on direct Anthropic and on other Bedrock Claude models (for "
         "example Sonnet 4.5), so this is specific to Opus 4.7 and 4.8 on Bedrock Converse.' (litellm#31582); "
         "'Tested against live Bedrock today (2026-07-27), forwarding `toolSpec.strict` explicitly on each model: - "
         "`us.anthropic.claude-sonnet-5` (us-east-1): **still rejects** — `tools.0.custom.strict: Extra inputs are not "
         "permitted` ... - `eu.anthropic.claude-sonnet-4-6`: **accepts** `strict` ... - `eu.anthropic.claude-opus-5`: "
         "**accepts** `strict`' (litellm#33193); AWS, as vercel/ai#16121 quotes it: 'Claude Opus 4.7 does not accept "
         "strict: true on tools[] and returns tools.0.custom.strict: Extra inputs are not permitted'", _VERIFIED,
         (RefusalWords("strict.model_refused", ("bedrock",), "The model returned the following errors: tools.0.custom.strict: "
                       "Extra inputs are not permitted",
                       model=r"claude-(?:opus-4-[78]|sonnet-5)(?!\d)(?!-\d{1,7}(?!\d))"),)),
    # twelfth audit pass: the same words recorded from InvokeModel (the Messages body on bedrock-runtime), not
    # Converse, for two more models; toolchoice sends Converse, so these stay unsettled there and the line says so
    Fact("bedrock.strict_invoke_refused", ("bedrock",),
         "Bedrock's InvokeModel (a Messages body on bedrock-runtime) answers 400 'tools.0.custom.strict: Extra inputs "
         "are not permitted' to a strict tool on Claude Opus 5.5 and Claude Fable 5.1 (recorded; Claude Fable 5 and "
         "Opus 5 took it in the same test); what Converse, which toolchoice sends, answers for these two is not "
         "recorded: strict stays sent and said unsettled there (fact bedrock.strict_models), and the line names "
         "InvokeModel's recording beside it. Not a refusal and not a warning: another API's answer",
         f"lobehub/lobehub#19876 (2026-09-23, LobeHub's Bedrock runtime, which sends InvokeModel){CITE_END}"
         "'`generateObject` with a schema fails on Bedrock for Opus 5.5: the builder adds `strict: true` to the schema "
         "tool, and on Bedrock Opus 5.5 rejects that field.' ... '| `generateObject({ schema })` | ✅ "
         "`{\"name\":\"Alice\",\"age\":30}` | ❌ 400 `tools.0.custom.strict: Extra inputs are not permitted` |' (the "
         "Opus 5 and Opus 5.5 columns; '`LobeBedrockAI` on canary, us-east-1') ... 'Fable 5.1 fails the same way; "
         "Fable 5 works.'; which API: lobehub/lobehub packages/model-runtime/src/providers/bedrock/index.ts (the "
         "stored version at 20174560), whose generateObject builds the Anthropic request with 'schemaToolStrict: "
         "true' and sends it as 'new InvokeModelCommand({ accept: 'application/json', body: JSON.stringify({ "
         "anthropic_version: 'bedrock-2023-05-31', ...bedrockRequestParams, }),' (the file imports no Converse "
         "command)", _VERIFIED,
         NamedModels(("claude-opus-5-5", "claude-fable-5-1"), "tools.0.custom.strict: Extra inputs are not permitted")),
    Fact("gemini.empty_contents_words", ("gemini",),
         "Gemini's 400 for a request without contents names the field: '* GenerateContentRequest.contents: contents is "
         "not specified' (INVALID_ARGUMENT); an empty contents list is answered as an absent one",
         "vercel/ai#3775 (2025-03-25, generativelanguage.googleapis.com: 'even if pass an empty array as messages, this "
         "still fails'); BerriAI/litellm#8467 (2025-02-11, a request of only a system message, so no contents); "
         f"langchain-ai/langchain-google#1393 (2025-11-29){CITE_END}'Error [AI_APICallError]: * GenerateContentRequest."
         "contents: contents is not specified' (vercel/ai#3775); '{\"error\": {\"code\": 400, \"message\": \"* "
         "GenerateContentRequest.contents: contents is not specified\\n\", \"status\": \"INVALID_ARGUMENT\"}}' "
         "(litellm#8467; the mock leaves out the trailing newline)", _VERIFIED,
         (RefusalWords("messages.empty", ("gemini",),
                       "* GenerateContentRequest.contents: contents is not specified"),)),
)


_PLACES = re.compile(r"\{(model|type|choice|version|tool_index|message_index)\}")


def api_refusal(provider: str, code: str, model: str | None, body: Any,
                headers: Mapping[str, str] | None = None, message_index: int | None = None) -> RefusalWords | None:
    """The recorded refusal ``code`` stands for on ``provider``, where recorded for this case (the model, the body):
    its words (``{model}`` filled in; ``{version}``, the request's anthropic-version header as it arrived, from
    ``headers``, their names lower-cased; ``{message_index}``, ``message_index``) and its envelope's other fields;
    else None."""
    facts = REFUSAL_FACTS + EFFORT_FACTS + CHOICE_SHAPE_FACTS + HISTORY_FACTS
    for row in (row for fact in facts for row in refusals(fact.value)):
        if row.code != code or provider not in row.providers:
            continue
        if row.model is not None and not (isinstance(model, str) and re.search(row.model, model.lower())):
            continue
        if row.rules and not (isinstance(model, str) and _ruled(provider, model, row.rules)):
            continue
        if row.field and _at(body, row.field) != row.value:
            continue
        index = _composed_tool(body) if "{tool_index}" in row.words else None
        if "{tool_index}" in row.words and index is None:  # the first tool whose schema the API refuses: none
            continue
        filled: dict[str, Any] = {"model": lambda: model or "",
                                  # the tag of a tool_choice of another API's shape (core/choice_shape_words.py)
                                  "type": lambda: str(_at(body, ("tool_choice", "type"))),
                                  # a string tool_choice the API does not take, as sent (Cohere's, OpenAI's)
                                  "choice": lambda: str(_at(body, ("tool_choice",))),
                                  # the API version header a refusal of it names (anthropic.version_words)
                                  "version": lambda: (headers or {}).get("anthropic-version", ""),
                                  "tool_index": lambda: str(index),  # schema.rejected
                                  "message_index": lambda: str(message_index)}  # the refused message's (its caller's)
        # one pass over the recorded words: a value filled in is data, never searched for another's place ('any{x}')
        words = _PLACES.sub(lambda m: filled[m.group(1)](), row.words)
        return row._replace(words=words)
    if code == "tool_choice.without_tools":  # a choice without tools: the row's words where recorded from this API
        from .capabilities import CAPABILITIES

        rule = CAPABILITIES[provider].without_tools if provider in CAPABILITIES else None
        if rule is not None and rule.recorded and rule.words:
            return RefusalWords(code, (provider,), rule.words, envelope=(("param", rule.param),) if rule.param else ())
    return None


def _ruled(provider: str, model: str, names: tuple[str, ...]) -> bool:
    """A model rule named in ``names`` matches this provider and model (core/model_rule_data.py)."""
    from .model_rules import matching

    return any(rule.name in names for rule in matching(provider, model))


def api_words(provider: str, code: str, model: str | None, body: Any) -> str | None:
    """The API's own words for the refusal ``code`` stands for, where recorded for this case; else None."""
    row = api_refusal(provider, code, model, body)
    return row.words if row is not None else None


def _composed_tool(body: Any) -> int | None:
    """The index of the first tool whose input_schema (Anthropic's wire) has a top-level anyOf, oneOf or allOf."""
    tools = body.get("tools") if isinstance(body, dict) else None
    for index, tool in enumerate(tools if isinstance(tools, list) else ()):
        schema = tool.get("input_schema") if isinstance(tool, dict) else None
        if isinstance(schema, dict) and any(key in schema for key in ("anyOf", "oneOf", "allOf")):
            return index
    return None


def _at(body: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        body = body.get(key) if isinstance(body, dict) else None
    return body
