"""Dated facts: the tool names each API's own source says it takes (``NameRule``), which the provider modules' NAME_RULE
are compiled from (``name_rule``): a name breaking one is refused (core/translation.check_names), listed with the date of
its evidence in docs/fact-audit.md (core/fact_freshness.py). Anthropic's and Gemini's stand first: core/facts.py lists
them in their old place. A host whose own source states no rule takes none from here (openai_chat_hosts: OpenAI's rule
is then only warned of).
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable

from .fact_record import CITE_END, Fact
from .name_rule import NameRule


_VERIFIED = "2026-11-28"  # the installed SDKs' types re-read this day
_OPENAI_WORDS = "'Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64.'"


def _rule(pattern: str, most: int | None) -> NameRule:
    return NameRule(pattern, "letters, digits, _ and -" + (f", at most {most}" if most else ""))


_OPENAI_RULE = _rule("[a-zA-Z0-9_-]{1,64}", 64)

TOOL_NAME_FACTS: tuple[Fact, ...] = (
    Fact("anthropic.tool_name_length", ("anthropic",),
         "the Messages API takes a tool name of letters, digits, _ and - up to 128 characters, and refuses a longer "
         "one with 400 invalid_request_error; its tool-use docs print ^[a-zA-Z0-9_-]{1,64}$",
         f"home-assistant/core#147760 (2025-06-29){CITE_END}'{{'type': 'error', 'error': {{'type': "
         "'invalid_request_error', 'message': \"tools.0.custom.name: String should match pattern "
         "'^[a-zA-Z0-9_-]{1,128}$'\"}}'; the same pattern in vybestack/llxprt-code#482 (2025-11-07) and "
         "nicobailon/pi-mcp-adapter#190 (2026-07-17); anthropics/claude-code#96152 (2026-09-22): 'tools.18.custom.name: "
         "String should have at most 128 characters'; {1,64} was the API's pattern in cyanheads/atlas-mcp-server#14 "
         "(2025-03-06) and is still the docs' ('Must match the regex ^[a-zA-Z0-9_-]{1,64}$.', tool-use guide); "
         "anthropic 2.14.0 types/tool_param.py ToolParam.name states no rule ('Name of the tool.', read 2026-11-28)",
         "2026-11-26", _rule("[a-zA-Z0-9_-]{1,128}", 128)),
    Fact("gemini.function_name_length", ("gemini",),
         "the Gemini API's recorded 400s allow function names of at most 64 characters, while google-genai's "
         "FunctionDeclaration.name states 128: a name of 65 to 128 is sent with a warning",
         f"kaitranntt/ccs#25 (2025-11-30){CITE_END}'\"The GenerateContentRequest proto is invalid:\\n  * "
         "tools[0].function_declarations[53].name: [FIELD_INVALID] Invalid function name. Must start with a letter or "
         "an underscore. Must be a-z, A-Z, 0-9, or contain underscores (_), dots (.), colons (:), or dashes (-), with "
         "a maximum length of 64.\",\"status\":\"INVALID_ARGUMENT\"'; the same words in kaitranntt/ccs#219 "
         "(2025-12-28); google-genai 3.6.1 types.py FunctionDeclaration.name: 'Must be a-z, A-Z, 0-9, or contain "
         "underscores, dots, colons and dashes, with a maximum length of 128.' (re-read 2026-11-28)", "2026-11-28",
         NameRule("[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}", "a letter or _ first, then letters, digits, _ . : -, at most 128")),
    *(Fact(f"{host}.tool_name_rule", (host,),
           f"{title} takes a function name of letters, digits, _ and -, at most 64 characters",
           f"{where}{CITE_END}{_OPENAI_WORDS}", verified, _OPENAI_RULE)
      for host, title, where, verified in (
          ("openai", "Chat Completions",
           "openai 3.57.0 types/shared_params/function_definition.py FunctionDefinition.name", _VERIFIED),
          ("azure", "Azure OpenAI's chat", "Azure/azure-rest-api-specs specification/cognitiveservices/data-plane/"
           "AzureOpenAI/inference/stable/2024-10-21/inference.yaml (at ea83a2a) FunctionObject.name", "2026-11-26"),
          ("groq", "Groq", "groq 1.7.0 types/shared_params/function_definition.py FunctionDefinition.name", _VERIFIED),
          ("fireworks", "Fireworks",
           "fireworks-ai 1.2.30 types/shared_params/chat_completion_tool.py Function.name", "2026-11-26"))),
    Fact("mistral.tool_name_rule", ("mistral",),
         "Mistral takes a function name of letters, digits, _ and -, at most 64 characters, and answers 400 to another",
         "Mistral's OpenAPI spec as mistral-rouille 1.1.4 ('customized from Mistral's official OpenAPI specification') "
         "renders it (mistralai 3.7.0's Function.name has no docstring); the API's own 400 (Kochava-Studios/witsy#164, "
         f"mistral-large-latest){CITE_END}'The name of the function to be called. Must be a-z,A-Z,0-9 or contain "
         "underscores and dashes, with a maximum length of 64.'; 'Function name was ... but must be a-z, A-Z, 0-9, or "
         "contain underscores and dashes, with a maximum length of 64.'", "2026-11-27", _OPENAI_RULE),
    Fact("sambanova.tool_name_rule", ("sambanova",),
         "SambaNova takes a function name of letters, digits, _ and - (no length bound stated)",
         f"sambanova 1.13.0 types/chat/completion_create_params.py ToolFunction.name{CITE_END}'Must be a-z, A-Z, 0-9, "
         "or contain underscores and dashes.'", _VERIFIED, _rule("[a-zA-Z0-9_-]+", None)),
    Fact("openai-responses.tool_name_rule", ("openai-responses",),
         "the Responses API's function tools are held to Chat Completions' name rule (letters, digits, _ and -, at "
         "most 64): openai-python's Responses types state none, and the Responses 400s found give the pattern "
         "'^[a-zA-Z0-9_-]+$' without a length (unsettled: docs/fact-audit.md)",
         "OpenAI's function-calling guide (platform.openai.com, not readable here), as providers/openai_responses.py "
         f"cited it{CITE_END}openai 3.57.0 types/responses/function_tool_param.py FunctionToolParam.name: 'The name of "
         "the function to call.' (read 2026-11-28)", _VERIFIED, _OPENAI_RULE),
    Fact("bedrock.tool_name_rule", ("bedrock",),
         "Bedrock's Converse takes a tool name of letters, digits, _ and -, 1 to 64 characters",
         f"botocore 1.44.8 data/bedrock-runtime/2023-09-30/service-2.json ToolSpecification.name{CITE_END}'\"name\": "
         "{\"shape\": \"ToolName\"}'; '\"ToolName\": {\"type\": \"string\", \"max\": 64, \"min\": 1, "
         "\"pattern\": \"[a-zA-Z0-9_-]+\"}'", _VERIFIED, _rule("[a-zA-Z0-9_-]{1,64}", 64)),
)

_BY_ID = {f.id: f for f in TOOL_NAME_FACTS}


@functools.lru_cache(maxsize=None)
def name_rule(fact_id: str) -> tuple[Callable[[str], Any], str]:
    """A module's NAME_RULE (a test of a name, and the words that say what it allows) from the fact stating it: the
    same object for the same rule (openai_chat_hosts compares them)."""
    rule = _BY_ID[fact_id].value
    assert isinstance(rule, NameRule), fact_id
    return _same(rule.pattern, rule.words)


@functools.lru_cache(maxsize=None)
def _same(pattern: str, words: str) -> tuple[Callable[[str], Any], str]:
    return re.compile(pattern).fullmatch, words


def source(fact_id: str) -> str:
    """The fact's source, as openai_chat_hosts.NAME_RULES carries it."""
    return _BY_ID[fact_id].source
