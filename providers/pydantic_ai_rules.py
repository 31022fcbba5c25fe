"""The rules of ``--dialect pydantic-ai``: how pydantic-ai (``pydantic-ai-slim`` ``VERSION``) turns an Agent's
``ModelSettings(tool_choice=...)`` into each provider model class's tool fields. Data read off the wheel's source (each
rule's ``Source``: the file under ``pydantic_ai/``, the line, the code quoted) and held to what the real Agent sends
through ``toolchoice mock`` (tests/test_pydantic_ai_wire.py); ``pydantic_ai_dialect`` applies them to the API request.
pydantic-ai is never imported here or there: the rules are data.

Two steps, as pydantic-ai takes them: ``resolve_tool_choice`` (models/_tool_choice.py) reads the setting against the
request's tools into ``auto`` / ``none`` / ``required`` or a restriction ``(mode, names)``; each model class then writes
that into its API's fields (``Model.wire``).
"""

from __future__ import annotations

import re
from typing import Any, Callable, NamedTuple

VERSION = "2.68.0"
READ = "2026-11-27"  # the wheel read and run on this date


class Source(NamedTuple):
    file: str  # under pydantic_ai/ in the pydantic-ai-slim wheel
    line: int
    words: str  # the code or message, quoted

    def __str__(self) -> str:
        return f"pydantic-ai-slim {VERSION} pydantic_ai/{self.file}:{self.line}: {self.words}"


# ---- the setting, and resolve_tool_choice ------------------------------------------------------------------------

SETTING = Source("settings.py", 434, "tool_choice: ToolChoice; line 90: ToolChoice = ToolChoiceScalar | list[str] | "
                                     "ToolOrOutput | None; line 72: ToolChoiceScalar = Literal['none', 'required', "
                                     "'auto']")
RESOLVE_AUTO = Source("models/_tool_choice.py", 105, "if function_tool_choice in (None, 'auto'): return 'auto' if "
                                                     "allow_direct_output else 'required'")
RESOLVE_LIST = Source("models/_tool_choice.py", 156, "if chosen_set == known_tool_names: return 'required'; return "
                                                     "('required', chosen_set)")
RESOLVE_TOOL_OR_OUTPUT = Source("models/_tool_choice.py", 182, "if allowed_tools == known_tool_names: return mode; "
                                                               "return (mode, allowed_tools)")
REQUIRED_WITHOUT_TOOLS = ("UserError: `tool_choice` was set to \"required\", but no function tools are defined. Please "
                          "define function tools or change `tool_choice` to \"auto\" or \"none\".")
REQUIRED_WITHOUT_TOOLS_SOURCE = Source("models/_tool_choice.py", 132, REQUIRED_WITHOUT_TOOLS.split(": ", 1)[1][:60])
# A forcing choice given statically (Agent(model_settings=...) or run(model_settings={...})) raises before any request:
# the dialect describes it given per step (a callable), as the error's words advise
STATIC_FORCING = Source("agent/__init__.py", 1921, "if tool_choice == 'required': raise exceptions.UserError(f'`tool_choice"
                                                   "={tool_choice!r}` prevents the agent from producing a final response "
                                                   "because output tools are excluded. ... return a callable from a "
                                                   "capability's `get_model_settings()` to vary `tool_choice` per step')")
STATIC_LIST = Source("agent/__init__.py", 1931, "if output_tool_names.isdisjoint(tool_choice): raise exceptions.UserError("
                                                "f'`tool_choice={tool_choice!r}` names no output tool, ...')")
# what pydantic-ai does where the scenario says nothing: with a structured output_type and no text output the default
# resolves to 'required' over its output tool (final_result)
OUTPUT_TOOL_NOTE = (f"with a structured output_type delivered through a tool (ToolOutput, the default for a BaseModel) "
                    f"and no text output, pydantic-ai adds its final_result tool and an unset or 'auto' tool_choice "
                    f"resolves to 'required' on every step ({RESOLVE_AUTO}); described here: text output "
                    f"(output_type=str, the default)")

Resolved = Any  # 'auto' | 'none' | 'required' | (mode, frozenset of names)


class Sent(NamedTuple):
    """What a model class writes: the choice (``None``: left out), the tools it declares (None: the scenario's all;
    a tuple: only these), whether the tool config is left out whole, and the source."""

    choice: Any
    tools: tuple[str, ...] | None
    source: Source
    no_tools: bool = False  # no tools and no choice at all (Mistral's and Bedrock's 'none')


def _one(resolved: Resolved) -> str | None:
    """The one tool a ('required', {name}) restriction forces, else None."""
    if isinstance(resolved, tuple) and resolved[0] == "required" and len(resolved[1]) == 1:
        return next(iter(resolved[1]))
    return None


def _filtered(names: tuple[str, ...], resolved: Resolved) -> tuple[str, ...]:
    return tuple(n for n in names if n in resolved[1])


# ---- each model class: resolved -> its API's fields --------------------------------------------------------------

_CHAT = Source("models/openai/_chat_model.py", 822, "if resolved_tool_choice in ('auto', 'none'): tool_choice = "
                                                   "resolved_tool_choice; elif resolved_tool_choice == 'required': "
                                                   "tool_choice = 'required' if supports else 'auto'")
_CHAT_NAMED = Source("models/openai/_chat_model.py", 831, "if tool_choice_mode == 'required' and len(tool_names) == 1 "
                                                         "and supports: tool_choice = {'type': 'function', 'function': "
                                                         "{'name': next(iter(tool_names))}}")
_CHAT_ALLOWED = Source("models/openai/_chat_model.py", 833, "elif self.profile.get('openai_chat_supports_allowed_tools', "
                                                           "False): tool_choice = {'type': 'allowed_tools', "
                                                           "'allowed_tools': {'mode': effective_mode, 'tools': [...]}} "
                                                           "(OpenAIProvider: openai_chat_supports_allowed_tools=True, "
                                                           "providers/openai.py:156)")


def _openai_chat(resolved: Resolved, names: tuple[str, ...]) -> Sent:
    one = _one(resolved)
    if one is not None:
        return Sent({"type": "function", "function": {"name": one}}, None, _CHAT_NAMED)
    if isinstance(resolved, tuple):
        mode, chosen = resolved
        return Sent({"type": "allowed_tools", "allowed_tools": {"mode": mode, "tools": [
            {"type": "function", "function": {"name": n}} for n in names if n in chosen]}}, None, _CHAT_ALLOWED)
    return Sent(resolved, None, _CHAT)


_RESPONSES = Source("models/openai/_responses_model.py", 2137, "if resolved_tool_choice in ('auto', 'none'): "
                                                              "tool_choice = resolved_tool_choice; elif ... == "
                                                              "'required': tool_choice = 'required' if supports else "
                                                              "'auto'")
_RESPONSES_RESTRICTED = Source("models/openai/_responses_model.py", 2182, "if tool_choice_mode == 'required' and "
                                                                          "len(tool_names) == 1 and supports: return "
                                                                          "ToolChoiceFunctionParam(type='function', "
                                                                          "name=...); return ToolChoiceAllowedParam("
                                                                          "type='allowed_tools', mode=effective_mode, "
                                                                          "tools=[{'type': 'function', 'name': n} ...])")


def _openai_responses(resolved: Resolved, names: tuple[str, ...]) -> Sent:
    one = _one(resolved)
    if one is not None:
        return Sent({"type": "function", "name": one}, None, _RESPONSES_RESTRICTED)
    if isinstance(resolved, tuple):
        mode, chosen = resolved
        return Sent({"type": "allowed_tools", "mode": mode, "tools": [
            {"type": "function", "name": n} for n in names if n in chosen]}, None, _RESPONSES_RESTRICTED)
    return Sent(resolved, None, _RESPONSES)


_ANTHROPIC = Source("models/anthropic/__init__.py", 2785, "case 'auto': tool_choice = {'type': 'auto'}; case 'none': "
                                                         "tool_choice = {'type': 'none'}; case 'required': ... "
                                                         "tool_choice = {'type': 'any'} if supports else {'type': "
                                                         "'auto'}")
_ANTHROPIC_RESTRICTED = Source("models/anthropic/__init__.py", 2798, "if tool_choice_mode == 'required' and "
                                                                     "len(tool_names) == 1 and supports: {'type': "
                                                                     "'tool', 'name': ...}; else: tool_defs = {k: v ... "
                                                                     "if k in tool_names}; {'type': 'auto'} if "
                                                                     "tool_choice_mode == 'auto' ... else {'type': "
                                                                     "'any'}  # Breaks caching, but Anthropic doesn't "
                                                                     "support limiting tools via API arg")


def _anthropic(resolved: Resolved, names: tuple[str, ...]) -> Sent:
    one = _one(resolved)
    if one is not None:
        return Sent({"type": "tool", "name": one}, None, _ANTHROPIC_RESTRICTED)
    if isinstance(resolved, tuple):
        return Sent({"type": "auto" if resolved[0] == "auto" else "any"}, _filtered(names, resolved),
                    _ANTHROPIC_RESTRICTED)
    return Sent({"type": {"required": "any"}.get(resolved, resolved)}, None, _ANTHROPIC)


_GEMINI_MODES = Source("models/google.py", 1144, "function_calling_config_modes: dict[ToolChoiceScalar, "
                                                 "FunctionCallingConfigMode] = {'auto': FunctionCallingConfigMode.AUTO,"
                                                 " 'none': FunctionCallingConfigMode.NONE, 'required': "
                                                 "FunctionCallingConfigMode.ANY, }")
GEMINI_VALIDATED = Source("models/google.py", 1155, "if (mode == FunctionCallingConfigMode.AUTO and self.profile.get("
                                                    "'google_supports_strict_tool_definition', False) and not any("
                                                    "tool_def.strict is False ...): mode = FunctionCallingConfigMode."
                                                    "VALIDATED (profiles/google.py:276: supports_strict_tool_definition"
                                                    " = supports_thinking and not is_image_model)")
_GEMINI_RESTRICTED = Source("models/google.py", 2056, "if tool_choice_mode == 'auto': # Breaks caching, but Google "
                                                      "doesn't support AUTO mode with allowed_function_names return "
                                                      "{k: v for k, v in tool_defs.items() if k in tool_names}, "
                                                      "tool_choice_mode, []; ... return tool_defs, tool_choice_mode, "
                                                      "[name for name in tool_defs if name in tool_names]")
# profiles/google.py:246-276: thinking on Gemini 2.5 and later, not on Gemma, Gemini 1.x / 2.0 or the image models
_GEMINI_THINKS = re.compile(r"^(?!.*(gemma|image|gemini-1|gemini-2\.(?!5)))(?!gemini-pro$)")


def gemini_validated(model: str) -> bool:
    """Whether pydantic-ai upgrades AUTO to VALIDATED for this Gemini model (its profile's
    google_supports_strict_tool_definition)."""
    return bool(_GEMINI_THINKS.search(model))


def _gemini(resolved: Resolved, names: tuple[str, ...]) -> Sent:
    if isinstance(resolved, tuple):
        mode, chosen = resolved
        if mode == "auto":
            return Sent({"mode": "AUTO"}, _filtered(names, resolved), _GEMINI_RESTRICTED)
        return Sent({"mode": "ANY", "allowedFunctionNames": [n for n in names if n in chosen]}, None,
                    _GEMINI_RESTRICTED)
    return Sent({"mode": {"auto": "AUTO", "none": "NONE", "required": "ANY"}[resolved]}, None, _GEMINI_MODES)


_MISTRAL = Source("models/mistral.py", 452, "case 'auto': tool_choice = 'auto' case 'required': tool_choice = 'any' "
                                            "case 'none': # Mistral returns garbled responses when tool_choice='none' "
                                            "with tools present. # Don't send tools at all. return None, None")
_MISTRAL_RESTRICTED = Source("models/mistral.py", 460, "case ('required', tool_names) if len(tool_names) == 1: # Name "
                                                       "the single forced tool natively and keep all tools, so the tools "
                                                       "prefix stays cacheable. (tool_name,) = tool_names tool_choice = "
                                                       "MistralToolChoice(function=MistralFunctionName(name=tool_name)); "
                                                       "case (tool_choice_mode, tool_names): # Breaks caching, but "
                                                       "Mistral doesn't support limiting tools to a subset via API arg "
                                                       "... tool_choice = 'auto' if tool_choice_mode == 'auto' else "
                                                       "'any'")


def _mistral(resolved: Resolved, names: tuple[str, ...]) -> Sent:
    one = _one(resolved)
    if one is not None:
        return Sent({"type": "function", "function": {"name": one}}, None, _MISTRAL_RESTRICTED)
    if isinstance(resolved, tuple):
        return Sent("auto" if resolved[0] == "auto" else "any", _filtered(names, resolved), _MISTRAL_RESTRICTED)
    if resolved == "none":
        return Sent(None, (), _MISTRAL, no_tools=True)
    return Sent({"required": "any"}.get(resolved, resolved), None, _MISTRAL)


_GROQ = Source("models/groq.py", 611, "if resolved_tool_choice in ('auto', 'required', 'none'): # Use native 'none' "
                                      "mode to keep tool definitions cached while disabling tool calls tool_choice = "
                                      "resolved_tool_choice")
_GROQ_RESTRICTED = Source("models/groq.py", 616, "if tool_choice_mode == 'required' and len(tool_names) == 1: "
                                                 "ChatCompletionNamedToolChoiceParam(type='function', function={'name':"
                                                 " ...}); else: tool_defs = {... if k in tool_names}; tool_choice = "
                                                 "tool_choice_mode  # Breaks caching, but Groq doesn't support limiting "
                                                 "tools via API arg")


def _groq(resolved: Resolved, names: tuple[str, ...]) -> Sent:
    one = _one(resolved)
    if one is not None:
        return Sent({"type": "function", "function": {"name": one}}, None, _GROQ_RESTRICTED)
    if isinstance(resolved, tuple):
        return Sent(resolved[0], _filtered(names, resolved), _GROQ_RESTRICTED)
    return Sent(resolved, None, _GROQ)


_COHERE = Source("models/cohere.py", 396, "if mode == 'none': ... tool_choice = 'NONE' elif mode == 'required': "
                                          "tool_choice = 'REQUIRED' elif mode == 'auto': tool_choice = OMIT")
_COHERE_RESTRICTED = Source("models/cohere.py", 387, "if isinstance(resolved, tuple): # Cohere can't target a tool by "
                                                     "name, so restrict the tools to the chosen subset ... tool_defs = "
                                                     "{name: tool_def for name, tool_def in tool_defs.items() if name "
                                                     "in tool_names}")


def _cohere(resolved: Resolved, names: tuple[str, ...]) -> Sent:
    mode = resolved[0] if isinstance(resolved, tuple) else resolved
    choice = {"none": "NONE", "required": "REQUIRED"}.get(mode)
    if isinstance(resolved, tuple):
        return Sent(choice, _filtered(names, resolved), _COHERE_RESTRICTED)
    return Sent(choice, None, _COHERE)


_BEDROCK = Source("models/bedrock.py", 1677, "case 'auto': tool_choice = {'auto': {}} case 'required': tool_choice = "
                                             "{'any': {}} if supports else {'auto': {}} case 'none': return None")
_BEDROCK_NONE = Source("models/bedrock.py", 1635, "if not _has_tool_blocks(bedrock_messages): return None; the comment "
                                                  "above: # Converse's `toolChoice` has no 'none' mode ..., so the "
                                                  "tools are dropped")
_BEDROCK_RESTRICTED = Source("models/bedrock.py", 1683, "case ('required', tool_names) if len(tool_names) == 1 and "
                                                        "supports: {'tool': {'name': ...}}; case (tool_choice_mode, "
                                                        "tool_names): tool_defs = {... if k in tool_names}; {'auto': {}} "
                                                        "if tool_choice_mode == 'auto' or not supports else {'any': {}}")
BEDROCK_CHOICE_GATE = Source("models/bedrock.py", 1657, "if tool_choice and profile.get('bedrock_supports_tool_choice', "
                                                        "False): tool_config['toolChoice'] = tool_choice (set by the "
                                                        "anthropic, amazon nova, zai, moonshot and xai profiles, "
                                                        "providers/bedrock.py)")
# providers/bedrock.py model_profile: the model id's provider prefix (after a region prefix) picks the profile; these set
# bedrock_supports_tool_choice=True (bedrock_amazon_model_profile: only `if 'nova' in model_name`)
_BEDROCK_TAKES_CHOICE = re.compile(r"^(?:[a-z-]+\.)?(anthropic\.|amazon\.nova|zai\.|moonshot(ai)?\.|xai\.)")


BEDROCK_FORCING_GATE = Source("models/bedrock.py", 2857, "if profile.get('bedrock_supports_tool_choice', False): "
                                                         "unavailable_reason = tool_forcing_unavailable_reason(...) "
                                                         "else: unavailable_reason = FORCING_UNSUPPORTED_REASON")


def bedrock_sends_choice(model: str) -> bool:
    return bool(_BEDROCK_TAKES_CHOICE.search(model))


def _bedrock(resolved: Resolved, names: tuple[str, ...]) -> Sent:
    one = _one(resolved)
    if one is not None:
        return Sent({"tool": {"name": one}}, None, _BEDROCK_RESTRICTED)
    if isinstance(resolved, tuple):
        return Sent({"auto": {}} if resolved[0] == "auto" else {"any": {}}, _filtered(names, resolved),
                    _BEDROCK_RESTRICTED)
    if resolved == "none":
        return Sent(None, (), _BEDROCK_NONE, no_tools=True)
    return Sent({"auto": {}} if resolved == "auto" else {"any": {}}, None, _BEDROCK)


# ---- parallel_tool_calls, and what refuses a forcing choice -------------------------------------------------------

COPIED, ANTHROPIC, IGNORED = "copied", "anthropic", "ignored"
_IGNORED_WORDS = ("unsupported_settings = frozenset({... 'parallel_tool_calls', ...}): the model warns "
                  "(UnsupportedSettingWarning) and does not send it")


class Parallel(NamedTuple):
    kind: str  # COPIED: the body's parallel_tool_calls (with tools); ANTHROPIC: disable_parallel_tool_use inside
    # tool_choice (not with none); IGNORED: not sent, with UnsupportedSettingWarning
    source: Source


# Anthropic's models that refuse any forced tool_choice (profiles/anthropic.py, supports_forced_tool_choice)
ANTHROPIC_NO_FORCING = re.compile(r"claude-(fable-5-1|fable-5-2|mythos-5-1|mythos-5-2|opus-5-5|sonnet-5-5)")
NO_FORCING_SOURCE = Source("profiles/anthropic.py", 547, "supports_forced_tool_choice = not model_name.startswith(("
                                                         "'claude-fable-5-1', 'claude-fable-5-2', 'claude-mythos-5-1', "
                                                         "'claude-mythos-5-2', 'claude-opus-5-5', 'claude-sonnet-5-5'))")
NO_FORCING_ERROR = ("UserError: tool_choice={choice!r} is not supported by model {model!r}. This model does not "
                    "support forcing tool use. Use `tool_choice='auto'` instead.")
THINKING_SOURCE = Source("models/anthropic/__init__.py", 4288, "if unavailable_reason is None and thinking_type == "
                                                               "'enabled': unavailable_reason = \"Extended thinking "
                                                               "doesn't support forcing tool use. ...\" (then "
                                                               "models/_tool_choice.py support_tool_forcing: an "
                                                               "explicit forcing tool_choice raises UserError)")
THINKING_ERROR = ("UserError: tool_choice={choice!r} is not supported by model {model!r}. Extended thinking doesn't "
                  "support forcing tool use. Disable thinking or use `tool_choice='auto'`.")
# ... and on a model that takes adaptive thinking (profiles/anthropic.py:390 supports_adaptive; Bedrock's profile reads
# the same, providers/bedrock.py:371), " Alternatively, `SETTING` supports forcing." (models/anthropic/__init__.py:4293;
# models/bedrock.py:2874 with _ADAPTIVE_THINKING_SETTING)
ADAPTIVE_MODELS = re.compile(r"(^|\.)claude-(fable-5|mythos-5|mythos-preview|sonnet-4-6|sonnet-5|opus-4-6|opus-4-7"
                             r"|opus-4-8|opus-5|haiku-5-5)")
ADAPTIVE_SETTING = {"anthropic": "anthropic_thinking={'type': 'adaptive'}",
                    "bedrock": "bedrock_additional_model_requests_fields={'thinking': {'type': 'adaptive'}}"}


class Model(NamedTuple):
    provider: str  # toolchoice's provider id
    cls: str  # the model class
    module: str  # where it is imported from
    made: str  # how the model is made ("OpenAIChatModel(MODEL, provider=OpenAIProvider(...))")
    choice_path: str | None  # where the choice sits in the body
    tools_path: str
    wire: Callable[[Resolved, tuple[str, ...]], Sent]
    parallel: Parallel
    claude: bool = False  # Anthropic's forcing rules apply (AnthropicModel; BedrockConverseModel on a Claude id)
    choice_without_tools: bool = False  # the choice is sent with no tools too (CohereModel's _get_tool_choice: 'NONE')
    parallel_without_tools: bool = False  # a copied parallel_tool_calls goes with no tools too (no `if tools` there)


_OPENAI_PARALLEL = Parallel(COPIED, Source("models/openai/_chat_model.py", 518, "parallel_tool_calls=model_settings."
                                                                                "get('parallel_tool_calls', OMIT) if "
                                                                                "tools else OMIT"))
MODELS: dict[str, Model] = {
    "openai": Model("openai", "OpenAIChatModel", "pydantic_ai.models.openai", "OpenAIChatModel(MODEL)", "tool_choice",
                    "tools", _openai_chat, _OPENAI_PARALLEL),
    "openai-responses": Model("openai-responses", "OpenAIResponsesModel", "pydantic_ai.models.openai",
                              "OpenAIResponsesModel(MODEL)", "tool_choice", "tools", _openai_responses, Parallel(
                                  COPIED, Source("models/openai/_responses_model.py", 1513, "if tools and "
                                                 "'parallel_tool_calls' not in unsupported_settings: parallel_tool_calls"
                                                 " = model_settings.get('parallel_tool_calls', OMIT)"))),
    "anthropic": Model("anthropic", "AnthropicModel", "pydantic_ai.models.anthropic", "AnthropicModel(MODEL)",
                       "tool_choice", "tools", _anthropic, Parallel(ANTHROPIC, Source(
                           "models/anthropic/__init__.py", 2864, "if 'parallel_tool_calls' in model_settings and "
                           "tool_choice['type'] != 'none': tool_choice['disable_parallel_tool_use'] = not "
                           "model_settings['parallel_tool_calls']")), claude=True),
    "gemini": Model("gemini", "GoogleModel", "pydantic_ai.models.google", "GoogleModel(MODEL)",
                    "toolConfig.functionCallingConfig", "tools", _gemini,
                    Parallel(IGNORED, Source("models/google.py", 673, _IGNORED_WORDS))),
    "mistral": Model("mistral", "MistralModel", "pydantic_ai.models.mistral", "MistralModel(MODEL)", "tool_choice",
                     "tools", _mistral, Parallel(COPIED, Source("models/mistral.py", 371, "parallel_tool_calls="
                                                                "model_settings.get('parallel_tool_calls')")),
                     parallel_without_tools=True),
    "groq": Model("groq", "GroqModel", "pydantic_ai.models.groq", "GroqModel(MODEL)", "tool_choice", "tools", _groq,
                  Parallel(COPIED, Source("models/groq.py", 483, "parallel_tool_calls=model_settings.get("
                                                                 "'parallel_tool_calls', NOT_GIVEN) if tools else "
                                                                 "NOT_GIVEN"))),
    "cohere": Model("cohere", "CohereModel", "pydantic_ai.models.cohere", "CohereModel(MODEL)", "tool_choice", "tools",
                    _cohere, Parallel(IGNORED, Source("models/cohere.py", 198, _IGNORED_WORDS)),
                    choice_without_tools=True),
    "bedrock": Model("bedrock", "BedrockConverseModel", "pydantic_ai.models.bedrock", "BedrockConverseModel(MODEL)",
                     "toolConfig.toolChoice", "toolConfig.tools", _bedrock,
                     Parallel(IGNORED, Source("models/bedrock.py", 869, _IGNORED_WORDS))),
}


# ---- the OpenAI-compatible hosts: OpenAIChatModel (or a subclass) with the host's provider class and profile ----
# infer_model('<host>:MODEL') picks the model class (models/__init__.py:3666-3750); the provider class's
# model_profile(MODEL) the profile. No host's provider sets openai_chat_supports_allowed_tools (only OpenAIProvider
# does, providers/openai.py:156), so a restriction to a subset filters the tools and sends the mode.

_COMPAT_RESTRICTED = Source("models/openai/_chat_model.py", 846, "# Breaks caching, but this API isn't known to support "
                                                                "`allowed_tools`. tool_defs = {k: v for k, v in "
                                                                "tool_defs.items() if k in tool_names}; tool_choice = "
                                                                "effective_mode")


def _openai_compatible(resolved: Resolved, names: tuple[str, ...]) -> Sent:
    one = _one(resolved)
    if one is not None:
        return Sent({"type": "function", "function": {"name": one}}, None, _CHAT_NAMED)
    if isinstance(resolved, tuple):
        return Sent(resolved[0], _filtered(names, resolved), _COMPAT_RESTRICTED)
    return Sent(resolved, None, _CHAT)


_HF = Source("models/huggingface.py", 408, "if resolved_tool_choice in ('auto', 'required'): tool_choice = "
                                           "resolved_tool_choice; elif resolved_tool_choice == 'none': tool_choice = "
                                           "'none' (no forcing check: HuggingFaceModel never calls "
                                           "support_tool_forcing)")
_HF_RESTRICTED = Source("models/huggingface.py", 415, "if tool_choice_mode == 'required' and len(tool_names) == 1: "
                                                      "tool_choice = ChatCompletionInputToolChoiceClass(function="
                                                      "ChatCompletionInputFunctionName(name=...)) (huggingface_hub "
                                                      "writes {\"function\": {\"name\": ...}}, no \"type\"); else: "
                                                      "tool_defs = {... if k in tool_names}; tool_choice = "
                                                      "tool_choice_mode")


def _huggingface(resolved: Resolved, names: tuple[str, ...]) -> Sent:
    one = _one(resolved)
    if one is not None:
        return Sent({"function": {"name": one}}, None, _HF_RESTRICTED)
    if isinstance(resolved, tuple):
        return Sent(resolved[0], _filtered(names, resolved), _HF_RESTRICTED)
    return Sent(resolved, None, _HF)


class Forcing(NamedTuple):
    """Which model ids a host's profile refuses a forcing tool_choice for (``supports_forced_tool_choice=False``:
    an explicit forcing choice raises UserError with FORCING_UNSUPPORTED_REASON, models/_tool_choice.py:226), matched
    on the lower-cased id; and which refuse it only while thinking, which they do by default
    (``supports_forced_tool_choice_with_thinking=False``)."""

    refuses: re.Pattern[str] | None
    source: Source | None = None
    thinking: re.Pattern[str] | None = None
    thinking_source: Source | None = None
    also: tuple[tuple[re.Pattern[str], Source], ...] = ()  # more ids refused outright, for another reason


class Route(NamedTuple):
    """How pydantic-ai reaches a toolchoice host: the provider class (with how the test makes it) and its profile."""

    provider_class: str  # "DeepSeekProvider" (pydantic_ai.providers.deepseek)
    profile: Source  # the provider class's model_profile
    picked: Source  # infer_model's line that picks the model class for '<host>:MODEL'
    forcing: Forcing


FORCING_SOURCE = Source("models/_tool_choice.py", 226, "if unavailable_reason is not None: if explicit_forcing: raise "
                                                       "UserError(f'tool_choice={explicit_choice!r} is not supported "
                                                       "by model {model_name!r}. {unavailable_reason}')")
THINKING_FORCING_ERROR = ("UserError: tool_choice={choice!r} is not supported by model {model!r}. This model does not "
                          "support forcing tool use while thinking is enabled. Disable thinking with `thinking=False` "
                          "or `openai_reasoning_effort='none'`, or use `tool_choice='auto'`.")
_CLAUDE_NO_FORCING = ANTHROPIC_NO_FORCING.pattern
# OpenRouterModel's openrouter_reasoning: sent as "reasoning"; a thinking one refuses forcing on an Anthropic upstream
OPENROUTER_REASONING_SENT = Source("models/openrouter.py", 806, "if reasoning := model_settings.get('openrouter_"
                                                                "reasoning'): extra_body['reasoning'] = reasoning")
OPENROUTER_THINKS = Source("models/openrouter.py", 1252, "if 'openrouter_reasoning' in openrouter_model_settings: ... "
                                                         "return (bool(openrouter_reasoning) and openrouter_reasoning"
                                                         ".get('enabled', True) and openrouter_reasoning.get('effort') "
                                                         "!= 'none')")
OPENROUTER_FORCING = Source("models/openrouter.py", 1267, "def _supports_tool_forcing( ... thinking_remedy=("
                                                          "'OpenRouter would silently drop reasoning. ...')")
OPENROUTER_THINKING_ERROR = ("UserError: tool_choice={choice!r} is not supported by model {model!r}. This model does "
                             "not support forcing tool use while thinking is enabled. OpenRouter would silently drop "
                             "reasoning. Disable thinking with `thinking=False` or `openrouter_reasoning={{'enabled': "
                             "False}}`, or use `tool_choice='auto'`.")
_HARMONY = Source("profiles/harmony.py", 14, "OpenAIModelProfile(supports_forced_tool_choice=False, "
                                             "ignore_streamed_leading_whitespace=True) (gpt-oss, the Harmony format)")
_QWEN_CODER = Source("profiles/qwen.py", 13, "if model_name.startswith('qwen-3-coder'): return OpenAIModelProfile(... "
                                             "supports_forced_tool_choice=False, ...)")
_CHAT_PICKED = Source("models/__init__.py", 3705, "elif model_kind in ('openai-chat', *get_args("
                                                  "OpenAIChatCompatibleProvider.__value__)): ... return "
                                                  "OpenAIChatModel(model_name, provider=provider)")
_VENDOR_FAMILY = Source("profiles/_family.py", 70, "if '/' not in model_name: return None; vendor, family_model_name = "
                                                   "model_name.lower().split('/', 1) (alibaba, qwen: "
                                                   "qwen_model_profile; openai: gpt-oss -> harmony_model_profile; "
                                                   "anthropic: anthropic_model_profile)")


def _family(*extra: str) -> re.Pattern[str]:
    """The vendor/model ids whose family profile refuses forcing (profiles/_family.py)."""
    return re.compile(r"^(" + "|".join((*extra, r"(qwen|alibaba)/qwen-3-coder", r"anthropic/" + _CLAUDE_NO_FORCING))
                      + ")")


ROUTES: dict[str, Route] = {
    "deepseek": Route("DeepSeekProvider", Source("providers/deepseek.py", 48, "def model_profile(model_name: str) -> "
                                                 "ModelProfile | None: profile = deepseek_model_profile(model_name)"),
                      _CHAT_PICKED, Forcing(
                          re.compile(r"^deepseek-reasoner$"),
                          Source("providers/deepseek.py", 80, "supports_forced_tool_choice=model_name != "
                                                              "'deepseek-reasoner',"),
                          re.compile(r"^(deepseek-flash$|deepseek-v4-)"),
                          Source("providers/deepseek.py", 81, "supports_forced_tool_choice_with_thinking=not "
                                                              "is_flash_or_v4, (line 50: is_flash_or_v4 = model_name "
                                                              "== 'deepseek-flash' or model_name.startswith("
                                                              "'deepseek-v4-'); thinking_enabled_by_default for them)"))),
    "azure": Route("AzureProvider", Source("providers/azure.py", 121, "def model_profile(model_name: str) -> "
                                                                      "ModelProfile | None: model_name = "
                                                                      "model_name.lower()"),
                   _CHAT_PICKED, Forcing(None)),
    "fireworks": Route("FireworksProvider", Source("providers/fireworks.py", 51, "def model_profile(model_name: str) -> "
                                                                                "ModelProfile | None: model_name = "
                                                                                "model_name.lower()"),
                       _CHAT_PICKED, Forcing(re.compile(r"^accounts/fireworks/models/qwen-3-coder"), _QWEN_CODER)),
    "together": Route("TogetherProvider", Source("providers/together.py", 49, "def model_profile(model_name: str) -> "
                                                                              "ModelProfile | None: profile = "
                                                                              "vendor_family_model_profile(model_name, "
                                                                              "overrides={'openai': "
                                                                              "_gpt_oss_only_profile})"),
                      _CHAT_PICKED, Forcing(re.compile(r"^deepseek-ai/deepseek-v4-"), Source(
                          "providers/together.py", 51, "if model_name.lower().startswith('deepseek-ai/deepseek-v4-'): "
                                                       "... profile = merge_profile(profile, OpenAIModelProfile("
                                                       "supports_forced_tool_choice=False))"), also=(
                          (_family(r"openai/gpt-oss"), Source("providers/together.py", 30, "return "
                                                              "harmony_model_profile(model_name) if model_name."
                                                              "startswith('gpt-oss') else None ... (profiles/harmony.py:"
                                                              "14: supports_forced_tool_choice=False; qwen-3-coder: "
                                                              "profiles/qwen.py:13)")),))),
    "sambanova": Route("SambaNovaProvider", Source("providers/sambanova.py", 64, "prefix_to_profile = {'deepseek-': "
                                                                                "deepseek_model_profile, ..."),
                       _CHAT_PICKED, Forcing(re.compile(r"^qwen-3-coder"), _QWEN_CODER)),
    "vllm": Route("VLLMProvider", Source("providers/vllm.py", 50, "def model_profile(model_name: str) -> ModelProfile "
                                                                  "| None: prefix_to_profile = {'llama': "
                                                                  "meta_model_profile,"),
                  _CHAT_PICKED, Forcing(re.compile(r"^(?:[^/]*/)?(gpt-oss|qwen-3-coder)"), Source(
                      "providers/vllm.py", 60, "'gpt-oss': harmony_model_profile, ... (line 112: # The gpt-oss family "
                                               "opt-out for `supports_forced_tool_choice` survives the merge because "
                                               "vLLM ignores `tool_choice='required'` for gpt-oss.)"))),
    "llamacpp": Route("OpenAICompatibleProvider", Source("providers/openai_compatible.py", 61, "profile = "
                                                         "vendor_family_model_profile(model_name, overrides="
                                                         "_OPENAI_COMPATIBLE_VENDOR_PROFILES)"),
                      Source("providers/openai_compatible.py", 71, "class OpenAICompatibleProvider("
                                                                   "_OpenAISDKProvider): \"\"\"Provider for a service "
                                                                   "with an OpenAI-compatible API that doesn't have a "
                                                                   "provider of its own."),
                      Forcing(_family(r"openai/gpt-oss"), _VENDOR_FAMILY)),
    "cerebras": Route("CerebrasProvider", Source("providers/cerebras.py", 48, "prefix_to_profile: dict[str, "
                                                                              "Callable[[str], ModelProfile | None]] = "
                                                                              "{"),
                      Source("models/__init__.py", 3670, "elif model_kind == 'cerebras': from .cerebras import "
                                                         "CerebrasModel"),
                      Forcing(re.compile(r"^(gpt-oss|qwen-3-coder)"), Source(
                          "providers/cerebras.py", 50, "'qwen': qwen_model_profile, 'gpt-oss': "
                                                       "harmony_model_profile,"))),
    "openrouter": Route("OpenRouterProvider", Source("providers/openrouter.py", 272, "def model_profile(model_name: "
                                                                                    "str) -> ModelProfile | None:"),
                        Source("models/__init__.py", 3666, "if model_kind == 'openrouter': from .openrouter import "
                                                           "OpenRouterModel"),
                        Forcing(re.compile(r"^~?((qwen|alibaba)/qwen-3-coder|anthropic/" + _CLAUDE_NO_FORCING + ")"),
                                Source("providers/openrouter.py", 299, "provider, model_name = model_name.removeprefix("
                                                                       "'~').split('/', 1) (the upstream's profile: "
                                                                       "anthropic's, profiles/anthropic.py:547; "
                                                                       "qwen's, profiles/qwen.py:13)"))),
    "huggingface": Route("HuggingFaceProvider", Source("providers/huggingface.py", 67, "def model_profile(model_name: "
                                                                                      "str) -> ModelProfile | None:"),
                         Source("models/__init__.py", 3746, "elif model_kind == 'huggingface': from .huggingface "
                                                            "import HuggingFaceModel"), Forcing(None)),
    "ollama": Route("OllamaProvider", Source("providers/ollama.py", 49, "def model_profile(model_name: str) -> "
                                                                        "ModelProfile | None:"),
                    Source("models/__init__.py", 3682, "elif model_kind == 'ollama': from .ollama import OllamaModel"),
                    Forcing(re.compile(r"^(gpt-oss|qwen-3-coder)"), Source(
                        "providers/ollama.py", 53, "'qwen': qwen_model_profile, ... 'gpt-oss': "
                                                   "harmony_model_profile,"))),
    "xai": Route("XaiProvider", Source("providers/xai.py", 98, "def model_profile(model_name: str) -> ModelProfile | "
                                                               "None: return grok_model_profile(model_name)"),
                 Source("models/__init__.py", 3750, "elif model_kind == 'xai': from .xai import XaiModel"),
                 Forcing(None)),
}


# thinking=False on DeepSeek: its profile has neither openai_chat_thinking_false_body nor openai_reasoning_efforts, so
# pydantic-ai sends reasoning_effort 'none', where DeepSeek's guide turns thinking off with thinking {type: disabled}
# (reasoning_effort: low/high/max; model rule deepseek-v4-thinking): the forced choice then meets thinking mode
THINKING_FALSE_SOURCE = Source("models/openai/_reasoning.py", 40, "return OPENAI_REASONING_EFFORT_MAP[thinking] ... "
                                                                  "(profiles/openai.py:43: False: 'none')")


def refuses_forcing(provider: str, model: str, thinking_off: bool) -> tuple[str, Source] | None:
    """Why the host's profile refuses an explicit forcing choice for ``model`` (the reason's words and source)."""
    route = ROUTES.get(provider)
    if route is None:
        return None
    forcing, lowered = route.forcing, model.lower()
    for pattern, source in ((forcing.refuses, forcing.source), *forcing.also):
        if pattern is not None and pattern.search(lowered):
            assert source is not None
            return NO_FORCING_ERROR, source
    if forcing.thinking is not None and forcing.thinking.search(lowered) and not thinking_off:
        assert forcing.thinking_source is not None
        return THINKING_FORCING_ERROR, forcing.thinking_source
    return None


def _compat(provider: str, cls: str, module: str,
            wire: Callable[[Resolved, tuple[str, ...]], Sent] = _openai_compatible,
            parallel: Parallel = _OPENAI_PARALLEL) -> Model:
    route = ROUTES[provider]
    return Model(provider, cls, module, f"{cls}(MODEL, provider={route.provider_class}(...))", "tool_choice", "tools",
                 wire, parallel)


for _host in ("deepseek", "azure", "fireworks", "together", "sambanova", "vllm", "llamacpp"):
    MODELS[_host] = _compat(_host, "OpenAIChatModel", "pydantic_ai.models.openai")
MODELS["cerebras"] = _compat("cerebras", "CerebrasModel", "pydantic_ai.models.cerebras")
MODELS["openrouter"] = _compat("openrouter", "OpenRouterModel", "pydantic_ai.models.openrouter")
MODELS["huggingface"] = _compat("huggingface", "HuggingFaceModel", "pydantic_ai.models.huggingface", _huggingface,
                                Parallel(IGNORED, Source("models/huggingface.py", 193, _IGNORED_WORDS)))

# Reached by pydantic-ai, but not on the wire toolchoice builds for the host: described in the ledger, the API
# request shown (dialect.other_wire)
OTHER_WIRE: dict[str, tuple[str, str, str, Source]] = {
    "xai": ("XaiModel", "pydantic_ai.models.xai", "xAI's gRPC API through xai-sdk (XaiProvider wraps "
            "xai_sdk.AsyncClient, providers/xai.py:53), not the OpenAI-compatible /v1/chat/completions toolchoice "
            "builds for xai; its chat.create(tools=..., tool_choice=..., parallel_tool_calls=...) is a protobuf "
            "message", Source("models/xai.py", 897, "match resolved_tool_choice: case 'auto' | 'none': tool_choice = "
                                                    "resolved_tool_choice")),
    "ollama": ("OllamaModel", "pydantic_ai.models.ollama", "Ollama's OpenAI-compatible /v1/chat/completions (OllamaModel "
               "is OpenAIChatModel with the provider's profile), not the native /api/chat toolchoice builds for "
               "ollama; what it sends there is OpenAIChatModel's (as for vllm)",
               Source("models/ollama.py", 47, "class OllamaModel(OpenAIChatModel): \"\"\"A model that uses Ollama's "
                                              "OpenAI-compatible Chat Completions API.")),
}
_XAI_RESTRICTED = Source("models/xai.py", 902, "case ('required', tool_names) if len(tool_names) == 1 and "
                                               "supports_forcing: tool_choice = required_tool(next(iter(tool_names))); "
                                               "case (tool_choice_mode, tool_names): ... tool_defs = {k: v for k, v in "
                                               "tool_defs.items() if k in tool_names}")


def xai_sends(resolved: Resolved, names: tuple[str, ...]) -> tuple[str, tuple[str, ...], Source]:
    """XaiModel's chat.create tool_choice (as written in Python) and the tools it passes."""
    one = _one(resolved)
    if one is not None:
        return f"required_tool({one!r})", names, _XAI_RESTRICTED
    if isinstance(resolved, tuple):
        return repr(resolved[0]), _filtered(names, resolved), _XAI_RESTRICTED
    return repr(resolved), names, OTHER_WIRE["xai"][3]


def openai_compatible_sends(resolved: Resolved, names: tuple[str, ...]) -> tuple[str, tuple[str, ...], Source]:
    """OpenAIChatModel's tool_choice on a host (as JSON) and the tools it declares."""
    import json

    sent = _openai_compatible(resolved, names)
    return json.dumps(sent.choice), names if sent.tools is None else sent.tools, sent.source


def route_note(provider: str, cls: str) -> str:
    """The dialect.route entry: the model class and provider class pydantic-ai reaches the host with, the profile."""
    route = ROUTES[provider]
    module = "pydantic_ai.providers." + route.profile.file.rsplit("/", 1)[-1].removesuffix(".py")
    picked = (f"what infer_model('{provider}:MODEL') makes ({route.picked})" if provider != "llamacpp" else
              f"pydantic-ai has no llama.cpp provider: its provider for an OpenAI-compatible service without one "
              f"({route.picked})")
    flags = ("a profile refuses forcing for some models (see dialect.refused)" if route.forcing.refuses is not None
             or route.forcing.thinking is not None else "no profile flag changes the choice")
    subset = ("" if cls in ("XaiModel", "HuggingFaceModel") else
              f"; openai_chat_supports_allowed_tools is unset, so a restriction to a subset filters the tools "
              f"({_COMPAT_RESTRICTED})")
    return (f"{cls} with {route.provider_class} ({module}): {picked}; profile: {route.provider_class}.model_profile "
            f"({route.profile}); {flags}{subset}")
