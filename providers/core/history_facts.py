"""Dated facts: the histories an API refuses (tool calls and results that do not pair, DeepSeek's thinking-mode
turns sent back without their reasoning_content), with the API's recorded words; core/facts.py lists them among FACTS.
"""

from __future__ import annotations

from .fact_record import CITE_END, Fact
from .fact_values import RefusalWords

CHAT_HOSTS = ("openai", "azure")  # the hosts that answer OpenAI's history words

HISTORY_FACTS: tuple[Fact, ...] = (
    # A history whose tool calls and results do not pair (providers/openai_history.py, gemini/translate.py
    # RESPONSE_PARTS): the translators refuse it with these words, the mock answers them (2026-11-26: none found for
    # groq, vllm, llamacpp, cohere, ollama and the other chat hosts, which stay unrefused)
    Fact("openai.history_unanswered_call", CHAT_HOSTS,
         "Chat Completions refuses an assistant message with tool_calls followed by a message other than the tool "
         "messages answering each call, with 400 invalid_request_error, param messages.[i].role (the recorded body "
         "does not show which message i names: toolchoice names the first message after the results), code null; a "
         "history that ends with the calls is sent (no source says it is refused)",
         f"router-for-me/CLIProxyAPI#2798 (2026-04-15, the response body quoted){CITE_END}'{{\"error\":{{\"message\":"
         "\"An assistant message with 'tool_calls' must be followed by tool messages responding to each "
         "'tool_call_id'. The following tool_call_ids did not have response messages: call_RTlWVuE5MqEb3WZJgTIl7Rsb\","
         "\"type\":\"invalid_request_error\",\"param\":\"messages.[6].role\",\"code\":null}}'; the same words "
         "from OpenAI in aliasrobotics/cai#111 and BerriAI/litellm#10083; on Azure OpenAI, vercel/ai#1844 (a 400 "
         "with these words, shown as a screenshot)", "2026-11-26"),
    Fact("openai.history_result_without_call", CHAT_HOSTS,
         "Chat Completions refuses a tool message that does not follow an assistant message with tool_calls (the "
         "mock answers it: a scenario cannot hold one), with 400 invalid_request_error, param messages.[i].role naming "
         "the tool message, code null",
         f"run-llama/llama_index#10493 (OpenAI){CITE_END}'{{'error': {{'message': \"Invalid parameter: messages with role "
         "'tool' must be a response to a preceding message with 'tool_calls'.\", 'type': 'invalid_request_error', "
         "'param': 'messages.[0].role', 'code': None}}'; the API's spelling 'preceeding' in smarter-sh/smarter#264 "
         "(gpt-4-turbo, 'param': 'messages.[4].role') and miurla/morphic#136; Azure OpenAI: "
         "Nikunj2003/LLaMa-MCP-Streamlit#1 ('Invalid parameter: messages with role 'tool' must be a response to a "
         "preceeding message with 'tool_calls'.', 'param': 'messages.[2].role', 'code': None)", "2026-11-26"),
    Fact("mistral.history_unanswered_call", ("mistral",),
         "Mistral's chat completions refuse an assistant message with tool_calls followed by a message other than "
         "the tool messages answering each call, with 400 invalid_request_error, param null, code null; a history "
         "that ends with the calls is sent (no source says it is refused)",
         f"camel-ai/camel#1467 (mistral-large, 2025-01-19){CITE_END}'{{\"object\":\"error\",\"message\":\"Not the "
         "same number of function calls and responses\",\"type\":\"invalid_request_error\",\"param\":null,"
         "\"code\":null}}'; the same body in mistralai/client-ts#106 (mistral-large-latest, 2025-06-01)", "2026-11-26"),
    Fact("openai-responses.history_unanswered_call", ("openai-responses",),
         "the Responses API refuses an input whose function_call has no function_call_output (when other input "
         "follows it), and a function_call_output whose call is not in the input (the mock: unless "
         "previous_response_id or conversation holds it), with 400 invalid_request_error, param input, code null",
         f"router-for-me/CLIProxyAPI#2368 (gpt-5, 2026-03-27){CITE_END}'\"message\": \"No tool output found for "
         "function call call_uK3eDRSXx9p45csFRjvXDNPq.\", \"type\": \"invalid_request_error\", \"param\": \"input\", "
         "\"code\": null'; microsoft/vscode#320060 (2026-06-05): '\"message\": \"No tool call found for function "
         "call output with call_id call_TnakLSVsqtVt5cJssAhRwMoe.\", \"type\": \"invalid_request_error\", "
         "\"param\": \"input\", \"code\": null'; continuedev/continue#10092 (the same envelope)", "2026-11-26"),
    Fact("gemini.history_response_parts", ("gemini",),
         "the Gemini API refuses a model turn with function calls followed by a turn with another number of function "
         "response parts, with 400 INVALID_ARGUMENT; a history that ends with the calls is sent",
         f"google-gemini/gemini-cli#16415 (2026-01-12){CITE_END}'\"code\": 400, \"message\": \"Please ensure that "
         "the number of function response parts is equal to the number of function call parts of the function call "
         "turn.\", ... \"status\": \"INVALID_ARGUMENT\"'; the same in google-gemini/gemini-cli#7410, #5443, #4504",
         "2026-11-26"),
    # No recorded 400 for a Gemini functionResponse in another order than the turn's calls, nor for one whose name
    # matches no call (2026-11-26): router-for-me/CLIProxyAPI#5199's "functionResponse.id does not match
    # functionCall.id" 400 was the proxy's own check; aaif-goose/goose#6293 (a wrong name) got empty replies, not a
    # 400. Such histories are sent as written.
    Fact("deepseek.history_result_without_call", ("deepseek",),
         "DeepSeek refuses a tool message that does not follow an assistant message with tool_calls, with 400 "
         "invalid_request_error, param null, code invalid_request_error",
         f"FoundationAgents/OpenManus#23 (deepseek-chat, 2025-03-07){CITE_END}'Error code: 400 - {{'error': "
         "{'message': \"Messages with role 'tool' must be a response to a preceding message with 'tool_calls'\", "
         "'type': 'invalid_request_error', 'param': None, 'code': 'invalid_request_error'}}'; the raw body in "
         "itmisx/deepx-code#94 (2026-06-10): '{\"error\":{\"message\":\"Messages with role 'tool' must be a response "
         "to a preceding message with 'tool_calls'\",\"type\":\"invalid_request_error\",\"param\":null,"
         "\"code\":\"invalid_request_error\"}}'; the same in agentscope-ai/agentscope-go#7 (2026-09-16) and "
         "qwersyk/Newelle#425 (deepseek v4 flash, official API, 2026-08-28)", "2026-11-26"),
    Fact("deepseek.history_unanswered_call", ("deepseek",),
         "DeepSeek refuses an assistant message with tool_calls that the tool messages after it do not all answer, "
         "with 400 invalid_request_error, param null, code invalid_request_error; a history with both faults (calls, "
         "another message, their results) drew this refusal, not deepseek.history_result_without_call's",
         f"TurixAI/TuriX-CUA#15 (deepseek-chat, 2026-03-03){CITE_END}'{{\"error\":{{\"message\":\"An assistant "
         "message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. "
         "(insufficient tool messages following tool_calls message)\",\"type\":\"invalid_request_error\","
         "\"param\":null,\"code\":\"invalid_request_error\"}}'; the same body in 0xPlaygrounds/rig#856 and "
         "bytedance/deer-flow#2706; gptme/gptme#3421 (through a router, the raw body's message and type) got these "
         "words for an assistant message with tool_calls, then a system message, then the tool message", "2026-11-26"),
    Fact("deepseek.reasoning_content_missing", ("deepseek",),
         "DeepSeek in thinking mode refuses an assistant message with tool_calls sent back without its "
         "reasoning_content, with 400 invalid_request_error, param null, code invalid_request_error: deepseek-flash "
         "(V4.1 Flash, which also serves the old name deepseek-v4-flash) and deepseek-v4-pro 'The `reasoning_content` "
         "in the thinking mode must be passed back to the API.', the retired "
         "deepseek-reasoner 'Missing `reasoning_content` field in the assistant message at message index N. ...'; the "
         "reasoning_content of a turn without tool calls is not needed and, sent, is ignored (the guide)",
         "api-docs.deepseek.com/guides/thinking_mode (read 2026-11-27: 'For turns that do perform tool calls, the "
         "reasoning_content must be fully passed back to the API in all subsequent requests. If your code does not "
         "correctly pass back reasoning_content, the API will return a 400 error.', as quoted in anomalyco/opencode#24722; "
         "the zh-cn page: between two user messages without tool calls it 'will be ignored'); v4: "
         "ChenyuHeee/deepseek-copilot#2 (2026-05-01, deepseek-v4-flash, whole body), MoonshotAI/kimi-cli#2141 "
         "(2026-05-01, deepseek-v4-pro), openclaw/openclaw#73417 (2026-04-28), a post-mortem's HTTP log (2026-08-07, "
         "deepseek-v4-flash, found by the code index); V4.1 Flash: ad-naan/Adnify#193 (2026-09-15, titled "
         "'deepseek-4.1-flash', read 2026-11-28); the guide's example model is deepseek-flash (model rule "
         "deepseek-flash-thinking, read 2026-11-28); the alias: hotovo/aider-desk#529 (2025-12-08), "
         f"liyupi/yu-ai-code-mother#5 (2025-12-29), CherryHQ/cherry-studio#11751{CITE_END}'{{\"error\": {{\"message\": "
         "\"The `reasoning_content` in the thinking mode must be passed back to the API.\", \"type\": "
         "\"invalid_request_error\", \"param\": null, \"code\": \"invalid_request_error\"}}' (the post-mortem; "
         "deepseek-copilot#2 quotes the same body with the backticks left out, kimi-cli#2141 and openclaw#73417 keep "
         "them); '{\"error\":{\"message\":\"Missing `reasoning_content` field in the assistant message at message "
         "index 2. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls\","
         "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_request_error\"}}' (aider-desk#529, "
         "deepseek-reasoner); 'API 调用失败: The `reasoning_content` in the thinking mode must be passed back to the API. "
         "[trace_id=...]' (Adnify#193)", "2026-11-28",
         # the mock's 400 for the first such message, per model rule (the rules' patterns: one source of truth)
         (RefusalWords("pitfall.deepseek_reasoning_content", ("deepseek",),
                       "The `reasoning_content` in the thinking mode must be passed back to the API.",
                       rules=("deepseek-v4-thinking", "deepseek-flash-thinking")),
          RefusalWords("pitfall.deepseek_reasoning_content", ("deepseek",),
                       "Missing `reasoning_content` field in the assistant message at message index {message_index}. "
                       "For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#"
                       "tool-calls", rules=("deepseek-reasoner",)))),
)
