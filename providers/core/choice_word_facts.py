"""Which string words each host's own source documents for ``tool_choice``: dated facts (read 2026-11-27), joined to
``facts.FACTS``, each with its words as a typed value (``ChoiceWords``) that the mock judges a request's word against
(core/mock/judge.py; tests/test_fact_values.py holds them to the SDKs' literals). On OpenAI's two APIs and Groq
(their closed types; Groq's recorded 400) another word is refused; on the other hosts here a word the host's source
does not name is passed unjudged by the mock (``mock.choice_unread``) and answered as when tool_choice is left out,
never refused, since no source says these hosts refuse it. Azure's words are fact azure.tool_choice_forms', Cohere's
cohere.tool_choice_values' and llama-server's llamacpp.tool_choice_words' (core/facts.py); vLLM checks them itself."""

from __future__ import annotations

from .fact_record import CITE_END, Fact
from .fact_values import ChoiceWords

_READ = "2026-11-27"
_THREE = "none, auto and required (and a named function object)"
_WORDS = ("none", "auto", "required")  # in OpenAI's order (the mock's lines list them so)
_UNREAD = ChoiceWords(_WORDS, "unread")
_REFUSED = ChoiceWords(_WORDS, "refused")

CHOICE_WORD_FACTS: tuple[Fact, ...] = (
    Fact("openai.tool_choice_words", ("openai",),
         "OpenAI's Chat Completions types a string tool_choice as none, auto or required (beside the named function, "
         "custom and allowed_tools objects), a closed Literal: the mock refuses another word (Anthropic's and "
         "Mistral's any)",
         f"openai 3.57.0 types/chat/chat_completion_tool_choice_option_param.py{CITE_END}"
         "'ChatCompletionToolChoiceOptionParam: TypeAlias = Union[ Literal[\"none\", \"auto\", \"required\"], "
         "ChatCompletionAllowedToolChoiceParam, "
         "ChatCompletionNamedToolChoiceParam, ChatCompletionNamedToolChoiceCustomParam, ]'", _READ, _REFUSED),
    Fact("openai-responses.tool_choice_words", ("openai-responses",),
         "OpenAI's Responses API types a string tool_choice as none, auto or required, a closed Literal: the mock "
         "refuses another word",
         f"openai 3.57.0 types/responses/tool_choice_options.py{CITE_END}'ToolChoiceOptions: TypeAlias = "
         "Literal[\"none\", \"auto\", \"required\"]'", _READ, _REFUSED),
    Fact("groq.tool_choice_words", ("groq",),
         "Groq's chat tool_choice words are none, auto and required (and a named function object); its recorded 400 "
         "(for a null tool_choice) says only these strings are allowed, so the mock refuses another word in those "
         "words",
         f"groq 1.7.0 types/chat/chat_completion_tool_choice_option_param.py; the API's recorded 400: "
         f"tests/data/responses/errors/error-groq-tool-choice-null.json (brianpetro/obsidian-smart-connections#942, "
         "2024-12-28); plmbr/notebook-intelligence#115 (2026-02-19, api.groq.com, the newest recording found "
         f"2026-11-28){CITE_END}'ChatCompletionToolChoiceOptionParam: TypeAlias = Union[ Literal[\"none\", \"auto\", "
         "\"required\"], ChatCompletionNamedToolChoiceParam ]'; '{\"error\": {\"message\": \"Only allowed string "
         "values for 'tool_choice' are none, auto, and required\", \"type\": \"invalid_request_error\"}}'; 'Error code: "
         "400 - {'error': {'message': \"code=400, message=Only allowed string values for 'tool_choice' are [none, auto, "
         "required], type=invalid_request_error\", 'type': 'invalid_request_error'}}' (notebook-intelligence#115)", _READ,
         _REFUSED._replace(refusal="Only allowed string values for 'tool_choice' are none, auto, and required")),
    Fact("mistral.tool_choice_words", ("mistral",),
         "Mistral's chat tool_choice words are auto, none, any and required (any and required alike force a call)",
         f"mistralai 3.7.0 client/models/toolchoiceenum.py{CITE_END}'ToolChoiceEnum = Union[Literal[\"auto\", \"none\", "
         "\"any\", \"required\"], UnrecognizedStr]'", _READ,
         ChoiceWords(("auto", "none", "any", "required"), "unread")),
    Fact("fireworks.tool_choice_words", ("fireworks",),
         "Fireworks' chat tool_choice words are auto, none, any and required (any an alias of required)",
         f"fireworks-ai 1.2.30 types/chat/completion_create_params.py{CITE_END}'ToolChoice: TypeAlias = Union[Literal["
         "\"auto\", \"none\", \"any\", \"required\"], ToolChoiceFunctionSelection]'; docs.fireworks.ai API reference "
         "post-chatcompletions (tool_choice enum: required, alias any)", _READ,
         ChoiceWords(("auto", "none", "any", "required"), "unread")),
    Fact("openrouter.tool_choice_words", ("openrouter",),
         f"OpenRouter's chat tool_choice words are {_THREE}; no other word is documented",
         f"openrouter 1.3.84 (official SDK) components/chattoolchoice.py{CITE_END}'ChatToolChoiceRequired = "
         "Literal[\"required\",]', 'ChatToolChoiceAuto = Literal[\"auto\",]', 'ChatToolChoiceNone = Literal[\"none\",]', "
         "ChatToolChoice = Union[ChatServerToolChoice, ChatNamedToolChoice, ChatToolChoiceNone, ChatToolChoiceAuto, "
         "ChatToolChoiceRequired]", _READ, _UNREAD),
    Fact("xai.tool_choice_words", ("xai",),
         f"xAI's chat tool_choice words are {_THREE}; no other word is documented",
         "xai-org/xai-sdk-ts spec/openapi.json ('xAI's REST API', at 41e766a): ChatRequest tool_choice none / auto / "
         f"required / {{type: function, function: {{name}}}} (capability row xai); xai-sdk 1.21.0 proto/v6/chat_pb2.pyi"
         f"{CITE_END}'TOOL_MODE_AUTO: ToolMode', 'TOOL_MODE_NONE: ToolMode', 'TOOL_MODE_REQUIRED: ToolMode' (and "
         "TOOL_MODE_INVALID)", _READ, _UNREAD),
    Fact("together.tool_choice_words", ("together",),
         f"Together's chat tool_choice words are {_THREE}; the SDK types a string as str",
         f"docs.together.ai/docs/inference/function-calling{CITE_END}tool_choice 'String values: \"auto\"(default) ... "
         "\"none\" ... \"required\"'; together 3.1.1 types/chat/completion_create_params.py 'ToolChoice: TypeAlias = "
         "Union[str, ToolChoiceParam]'", _READ, _UNREAD),
    Fact("cerebras.tool_choice_words", ("cerebras",),
         f"Cerebras' chat tool_choice words are {_THREE}",
         f"cerebras-cloud-sdk 1.91.0 types/chat/completion_create_params.py{CITE_END}'ToolChoice: TypeAlias = "
         "Union[Literal[\"none\", \"auto\", \"required\"], ToolChoiceChoiceObject]'", _READ, _UNREAD),
    Fact("sambanova.tool_choice_words", ("sambanova",),
         f"SambaNova's chat tool_choice words are {_THREE}",
         f"sambanova 1.13.0 types/chat/completion_create_params.py{CITE_END}'ToolChoice: TypeAlias = "
         "Union[Literal[\"none\", \"auto\", \"required\"], ToolChoiceToolChoiceObject]'", _READ, _UNREAD),
    Fact("huggingface.tool_choice_words", ("huggingface",),
         f"Hugging Face's chat tool_choice words are {_THREE}",
         f"huggingface_hub 2.4.0 inference/_generated/types/chat_completion.py{CITE_END}"
         "'ChatCompletionInputToolChoiceEnum = Literal[\"auto\", \"none\", \"required\"]'", _READ, _UNREAD),
    Fact("deepseek.tool_choice_words", ("deepseek",),
         "no DeepSeek source read lists its tool_choice words (its API reference is not in the stored copies, and it "
         "has no official SDK): the mock reads the Chat Completions words none, auto and required as OpenAI's types "
         "name them, and passes another word (Anthropic's and Mistral's any) unjudged",
         f"api-docs.deepseek.com guides/tool_calls and guides/thinking_mode (read for the capability row deepseek)"
         f"{CITE_END}no list of tool_choice values; openai 3.57.0 types/chat/chat_completion_tool_choice_option_param.py "
         "'Literal[\"none\", \"auto\", \"required\"]' (the family's words)", _READ, _UNREAD),
)
