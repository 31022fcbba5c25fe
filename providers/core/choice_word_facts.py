"""Which string words each OpenAI-compatible host's own source documents for ``tool_choice``: dated facts (read
2026-11-27), joined to ``facts.FACTS``. ``openai_chat_mock.MOCK_STRING_WORDS`` holds the same words, each with its
fact's id (tests/test_mock_api_words.py holds them to the SDKs' literals): a word a host's source does not name is passed unjudged by the mock (``mock.choice_unread``) and answered as when tool_choice is left out, never
refused, since no source says these hosts refuse it (OpenAI, Azure and Groq refuse another word: their types and
recorded 400s, ``MOCK_CHOICE_WORDS``; vLLM and llama-server: their own checks)."""

from __future__ import annotations

from .fact_record import CITE_END, Fact

_READ = "2026-11-27"
_THREE = "none, auto and required (and a named function object)"

CHOICE_WORD_FACTS: tuple[Fact, ...] = (
    Fact("mistral.tool_choice_words", ("mistral",),
         "Mistral's chat tool_choice words are auto, none, any and required (any and required alike force a call)",
         f"mistralai 3.7.0 client/models/toolchoiceenum.py{CITE_END}'ToolChoiceEnum = Union[Literal[\"auto\", \"none\", "
         "\"any\", \"required\"], UnrecognizedStr]'", _READ),
    Fact("fireworks.tool_choice_words", ("fireworks",),
         "Fireworks' chat tool_choice words are auto, none, any and required (any an alias of required)",
         f"fireworks-ai 1.2.30 types/chat/completion_create_params.py{CITE_END}'ToolChoice: TypeAlias = Union[Literal["
         "\"auto\", \"none\", \"any\", \"required\"], ToolChoiceFunctionSelection]'; docs.fireworks.ai API reference "
         "post-chatcompletions (tool_choice enum: required, alias any)", _READ),
    Fact("openrouter.tool_choice_words", ("openrouter",),
         f"OpenRouter's chat tool_choice words are {_THREE}; no other word is documented",
         f"openrouter 1.3.84 (official SDK) components/chattoolchoice.py{CITE_END}'ChatToolChoiceRequired = "
         "Literal[\"required\",]', 'ChatToolChoiceAuto = Literal[\"auto\",]', 'ChatToolChoiceNone = Literal[\"none\",]', "
         "ChatToolChoice = Union[ChatServerToolChoice, ChatNamedToolChoice, ChatToolChoiceNone, ChatToolChoiceAuto, "
         "ChatToolChoiceRequired]", _READ),
    Fact("xai.tool_choice_words", ("xai",),
         f"xAI's chat tool_choice words are {_THREE}; no other word is documented",
         "xai-org/xai-sdk-ts spec/openapi.json ('xAI's REST API', at 41e766a): ChatRequest tool_choice none / auto / "
         f"required / {{type: function, function: {{name}}}} (capability row xai); xai-sdk 1.21.0 proto/v6/chat_pb2.pyi"
         f"{CITE_END}'TOOL_MODE_AUTO: ToolMode', 'TOOL_MODE_NONE: ToolMode', 'TOOL_MODE_REQUIRED: ToolMode' (and "
         "TOOL_MODE_INVALID)", _READ),
    Fact("together.tool_choice_words", ("together",),
         f"Together's chat tool_choice words are {_THREE}; the SDK types a string as str",
         f"docs.together.ai/docs/inference/function-calling{CITE_END}tool_choice 'String values: \"auto\"(default) ... "
         "\"none\" ... \"required\"'; together 3.1.1 types/chat/completion_create_params.py 'ToolChoice: TypeAlias = "
         "Union[str, ToolChoiceParam]'", _READ),
    Fact("cerebras.tool_choice_words", ("cerebras",),
         f"Cerebras' chat tool_choice words are {_THREE}",
         f"cerebras-cloud-sdk 1.91.0 types/chat/completion_create_params.py{CITE_END}'ToolChoice: TypeAlias = "
         "Union[Literal[\"none\", \"auto\", \"required\"], ToolChoiceChoiceObject]'", _READ),
    Fact("sambanova.tool_choice_words", ("sambanova",),
         f"SambaNova's chat tool_choice words are {_THREE}",
         f"sambanova 1.13.0 types/chat/completion_create_params.py{CITE_END}'ToolChoice: TypeAlias = "
         "Union[Literal[\"none\", \"auto\", \"required\"], ToolChoiceToolChoiceObject]'", _READ),
    Fact("huggingface.tool_choice_words", ("huggingface",),
         f"Hugging Face's chat tool_choice words are {_THREE}",
         f"huggingface_hub 2.4.0 inference/_generated/types/chat_completion.py{CITE_END}"
         "'ChatCompletionInputToolChoiceEnum = Literal[\"auto\", \"none\", \"required\"]'", _READ),
    Fact("deepseek.tool_choice_words", ("deepseek",),
         "no DeepSeek source read lists its tool_choice words (its API reference is not in the stored copies, and it "
         "has no official SDK): the mock reads the Chat Completions words none, auto and required as OpenAI's types "
         "name them, and passes another word (Anthropic's and Mistral's any) unjudged",
         f"api-docs.deepseek.com guides/tool_calls and guides/thinking_mode (read for the capability row deepseek)"
         f"{CITE_END}no list of tool_choice values; openai 3.57.0 types/chat/chat_completion_tool_choice_option_param.py "
         "'Literal[\"none\", \"auto\", \"required\"]' (the family's words)", _READ),
)
