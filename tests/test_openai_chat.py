"""OpenAI Chat Completions and the 11 hosts that speak it: exact wire JSON, URL and headers per host
and per neutral tool_choice, history encoding, settings, ledger, and the reply parser.

Expected wire values come from the providers' SDK types and docs, not from our output:
- OpenAI: openai-python ``types/chat/chat_completion_tool_choice_option_param.py`` (``"none" | "auto" |
  "required"`` | named | allowed), ``chat_completion_named_tool_choice_param.py`` (``{"type": "function",
  "function": {"name"}}``), ``chat_completion_allowed_tool_choice_param.py`` + ``chat_completion_allowed_tools_param.py``
  (``{"type": "allowed_tools", "allowed_tools": {"mode": "auto"|"required", "tools": [{"type": "function",
  "function": {"name"}}]}}``), ``completion_create_params.py`` (``parallel_tool_calls: bool``,
  ``max_completion_tokens``), ``shared_params/function_definition.py`` (``strict``). History:
  ``chat_completion_assistant_message_param.py`` (content optional, ``tool_calls[{id, type: function,
  function: {name, arguments: str}}]``), ``chat_completion_tool_message_param.py`` (``{role: tool,
  tool_call_id, content}``). Base URL ``https://api.openai.com/v1`` with ``Authorization: Bearer``.
  API: ``tool_choice`` without ``tools`` → 400 "Invalid value for 'tool_choice': 'tool_choice' is only
  allowed when 'tools' are specified." (tests/data/responses/errors/error-openai-tool-choice-without-tools.json);
  ``tools: []`` → 400 (empty array).
- Azure: openai-python ``lib/azure.py``: ``{endpoint}/openai/deployments/{deployment}``, ``api-key`` header,
  ``api-version`` query (2024-10-21 is the GA version we default to).
- Mistral: mistralai client ``models/toolchoiceenum.py`` (``auto | none | any | required``),
  ``models/toolchoice.py`` (named object), ``models/toolmessage.py`` (``name``); API error "Tool call id
  was ... but must be a-z, A-Z, 0-9, with a length of 9." (langchain-ai/langchain#24668, magentic#276).
  Base ``https://api.mistral.ai/v1``.
- Groq: groq-python ``types/chat`` (OpenAI words), base ``https://api.groq.com/openai/v1``.
- DeepSeek: api-docs.deepseek.com guides/thinking_mode (``{"thinking": {"type": "enabled/disabled"}}``,
  thinking on by default; after tool calls ``reasoning_content`` must be sent back), guides/tool_calls
  (strict needs ``https://api.deepseek.com/beta``); base ``https://api.deepseek.com`` (no /v1).
- Fireworks: docs.fireworks.ai API reference post-chatcompletions (``tool_choice`` enum with
  ``required``, alias ``any``); fireworks-ai 1.2.30 ``types/chat/completion_create_params.py``
  (``parallel_tool_calls``) and ``types/shared_params/chat_completion_tool.py`` (``function.strict``).
- Together ``https://api-inference.together.ai/v1`` (together 3.1.1); OpenRouter ``https://openrouter.ai/api/v1``; xAI
  ``https://api.x.ai/v1`` (their docs' OpenAI-compatible base URLs).
- vLLM docs/features/tool_calling.md: ``auto`` needs ``--enable-auto-tool-choice``/``--tool-call-parser``,
  ``required`` from 0.8.3, ``none`` keeps tools in the prompt unless ``--exclude-tools-when-tool-choice-none``.
- llama.cpp ``common/chat.cpp::common_chat_tool_choice_parse_oaicompat`` reads only the strings auto /
  none / required (the object form never reaches it), docs/function-calling.md: parallel calls off
  unless ``parallel_tool_calls: true``.
- Hugging Face: huggingface_hub ``inference/_generated/types/chat_completion.py``
  (``ChatCompletionInputToolChoiceEnum = auto | none | required``; ``ChatCompletionInputToolChoiceClass``
  has only ``function: {name}``; no parallel/strict fields); router ``https://router.huggingface.co/v1``, ``HF_TOKEN``.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolchoice.providers import openai_chat, openai_chat_hosts
from toolchoice.providers.core import choice_plan, history_wire, request_parts, translation
from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.model import RenderOptions, Translation, ToolchoiceError
from toolchoice.providers.core.scenario import load_scenario_text

DATA = Path(__file__).parent / "data" / "responses"
HOST_IDS = tuple(p for p, c in CAPABILITIES.items() if c.module == "openai_chat")  # every row this module serves

# ---- the scenario pieces --------------------------------------------------------------------

TOOLS_YAML = """\
tools:
  - name: get_weather
    description: Current weather for a city.
    parameters:
      type: object
      properties:
        city: {type: string}
      required: [city]
      additionalProperties: false
  - name: get_time
    description: Current local time.
    parameters:
      type: object
      properties:
        timezone: {type: string}
      required: [timezone]
      additionalProperties: false
"""
USER_YAML = "messages:\n  - {role: user, content: \"Weather in Paris?\"}\n"

WEATHER_PARAMS = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
                  "additionalProperties": False}
TIME_PARAMS = {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"],
               "additionalProperties": False}
WEATHER = {"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city.",
                                            "parameters": WEATHER_PARAMS}}
TIME = {"type": "function", "function": {"name": "get_time", "description": "Current local time.",
                                         "parameters": TIME_PARAMS}}
USER = {"role": "user", "content": "Weather in Paris?"}


def strict(tool: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(tool)
    out["function"]["strict"] = True
    return out


def settings_yaml(host: str) -> str:
    if host == "azure":
        return ("providers:\n  azure: {endpoint: \"https://res.openai.azure.com/\", deployment: chat-dep, "
                "model: test-model}\n")
    return f"providers:\n  {host}: {{model: test-model}}\n"


def render(host: str, yaml: str, options: RenderOptions = RenderOptions()) -> Translation:
    return openai_chat.translate(host, load_scenario_text(yaml, "test.yaml"), options, CAPABILITIES[host])


def render_std(host: str, extra: str = "", options: RenderOptions = RenderOptions(), tools: str = TOOLS_YAML,
               messages: str = USER_YAML) -> Translation:
    return render(host, tools + extra + messages + settings_yaml(host), options)


def codes(t: Translation) -> list[str]:
    return [e.code for e in t.ledger]


def entry(t: Translation, code: str):
    return next(e for e in t.ledger if e.code == code)


def serious(t: Translation) -> set[str]:
    return {e.code for e in t.ledger if e.severity in ("warning", "error")}


# ---- per-host wire facts (see the module docstring for sources) -----------------------------

@dataclass(frozen=True)
class Wire:
    url: str
    key_env: str
    auth: str = "bearer"  # or "api-key"
    key_optional: bool = False
    required_word: str = "required"
    named_form: str = "openai"  # "openai" | "function-only" | "emulated"
    allowed_native: bool = False
    parallel: bool = True
    strict: bool = True
    router: bool = False  # OpenRouter: a forcing choice sends provider.require_parameters (provider-routing docs)
    notes: dict[str, str] = field(default_factory=dict)  # note code -> when (plan mode / situation)

    def headers(self) -> dict[str, str]:
        if self.auth == "api-key":
            return {"Content-Type": "application/json", "api-key": f"${self.key_env}"}
        return {"Content-Type": "application/json", "Authorization": f"Bearer ${self.key_env}"}


WIRE: dict[str, Wire] = {
    "openai": Wire("https://api.openai.com/v1/chat/completions", "OPENAI_API_KEY", allowed_native=True),
    # Azure/azure-rest-api-specs .../inference/stable/2024-10-21/inference.yaml chatCompletionToolChoiceOption: "enum:
    # none, auto, required" or chatCompletionNamedToolChoice, no allowed_tools form (nor in the v1 and preview specs)
    "azure": Wire("https://res.openai.azure.com/openai/deployments/chat-dep/chat/completions?api-version=2024-10-21",
                  "AZURE_OPENAI_API_KEY", auth="api-key"),
    "mistral": Wire("https://api.mistral.ai/v1/chat/completions", "MISTRAL_API_KEY", required_word="any"),
    "groq": Wire("https://api.groq.com/openai/v1/chat/completions", "GROQ_API_KEY",
                 notes={"pitfall.strict_best_effort": "strict"}),
    # test-model is no DeepSeek model: no model rule knows it, so no thinking setting is added for a forced choice
    # (deepseek-v4-flash's default thinking is tested below and in tests/test_thinking_rules.py)
    "deepseek": Wire("https://api.deepseek.com/chat/completions", "DEEPSEEK_API_KEY", parallel=False),
    "fireworks": Wire("https://api.fireworks.ai/inference/v1/chat/completions", "FIREWORKS_API_KEY"),
    # together 3.1.1 resources/chat/completions.py posts to this URL when no base URL is given; its
    # types/tools_param.py Function has description, name, parameters and no strict
    "together": Wire("https://api-inference.together.ai/v1/chat/completions", "TOGETHER_API_KEY", parallel=False,
                     strict=False),
    "openrouter": Wire("https://openrouter.ai/api/v1/chat/completions", "OPENROUTER_API_KEY", router=True,
                       notes={"pitfall.upstream_dependent": "always"}),
    # xai-org/xai-sdk-ts spec/openapi.json FunctionDefinition.strict: "Not supported. Only maintained for compatibility
    # reasons."; ChatRequest.parallel_tool_calls: "If set to false, the model can perform maximum one tool call."
    "xai": Wire("https://api.x.ai/v1/chat/completions", "XAI_API_KEY", strict=False),
    # cerebras-cloud-sdk-python: base https://api.cerebras.ai + POST /v1/chat/completions, CEREBRAS_API_KEY,
    # tool_choice none|auto|required|{type, function: {name}}, parallel_tool_calls, function.strict
    "cerebras": Wire("https://api.cerebras.ai/v1/chat/completions", "CEREBRAS_API_KEY"),
    # sambanova 1.13.0: base https://api.sambanova.ai/v1 + POST /chat/completions, SAMBANOVA_API_KEY,
    # tool_choice none|auto|required|{type, function: {name}}, parallel_tool_calls; ToolFunction has no strict
    "sambanova": Wire("https://api.sambanova.ai/v1/chat/completions", "SAMBANOVA_API_KEY", strict=False),
    "vllm": Wire("http://localhost:8000/v1/chat/completions", "VLLM_API_KEY", key_optional=True,
                 notes={"pitfall.vllm_auto_flags": "auto", "pitfall.vllm_required_version": "required",
                        "pitfall.vllm_none_prompt": "none"}),
    "llamacpp": Wire("http://localhost:8080/v1/chat/completions", "LLAMA_API_KEY", key_optional=True,
                     named_form="emulated", strict=False, notes={"parallel.default_false": "parallel_unset"}),
    "huggingface": Wire("https://router.huggingface.co/v1/chat/completions", "HF_TOKEN", named_form="function-only",
                        parallel=False, strict=False, notes={"pitfall.langchain_hf_one_tool": "named"}),
}
# every provider whose capability row names this module has its expected wire facts here
assert set(WIRE) == set(HOST_IDS) == {p for p, c in CAPABILITIES.items() if c.module == "openai_chat"}
NOTE_CODES = {code for w in WIRE.values() for code in w.notes}


@dataclass(frozen=True)
class Expect:
    body: dict[str, Any]
    serious: set[str]  # exactly the warning/error codes
    infos: set[str]  # info codes that must be present (notes are checked exactly, separately)
    plan_mode: str  # what the host effectively does: unset|auto|none|required|named|allowed


# neutral tool_choice cases: id -> scenario lines
CHOICES: dict[str, str] = {
    "auto": "tool_choice: auto\n",
    "none": "tool_choice: none\n",
    "required": "tool_choice: required\n",
    "any": "tool_choice: any\n",
    "true": "tool_choice: true\n",
    "false": "tool_choice: false\n",
    "null": "tool_choice: null\n",
    "absent": "",
    "named": "tool_choice: get_time\n",
    "allowed_auto": "tool_choice: {allowed: [get_time], mode: auto}\n",
    "allowed_required": "tool_choice: {allowed: [get_time], mode: required}\n",
    "parallel_false": "tool_choice: auto\nparallel_tool_calls: false\n",
    "strict": "tool_choice: auto\nstrict: true\n",
}
NAMED_OPENAI = {"type": "function", "function": {"name": "get_time"}}


def expected(host: str, case: str) -> Expect:
    w = WIRE[host]
    tools: list[dict[str, Any]] = [WEATHER, TIME]
    extra: dict[str, Any] = {}
    bad: set[str] = set()
    infos: set[str] = set()
    mode = "unset"
    if case in ("auto", "parallel_false", "strict"):
        extra["tool_choice"], mode = "auto", "auto"
    elif case == "none":
        extra["tool_choice"], mode = "none", "none"
    elif case in ("required", "any", "true"):
        extra["tool_choice"], mode = w.required_word, "required"
        if case != "required":
            infos.add("tool_choice.spelling")
    elif case in ("false", "null", "absent"):
        infos.add("tool_choice.unset")
    elif case == "named":
        if w.named_form == "emulated":  # llama.cpp: only that tool + "required"
            tools, extra["tool_choice"], mode = [TIME], "required", "required"
            bad |= {"tool_choice.emulated", "tools.filtered"}
        else:
            extra["tool_choice"] = {"function": {"name": "get_time"}} if w.named_form == "function-only" else NAMED_OPENAI
            mode = "named"
    elif case.startswith("allowed_"):
        allowed_mode = case.removeprefix("allowed_")
        if w.allowed_native:
            extra["tool_choice"] = {"type": "allowed_tools", "allowed_tools": {
                "mode": allowed_mode, "tools": [{"type": "function", "function": {"name": "get_time"}}]}}
            mode = "allowed"
        else:
            tools = [TIME]
            extra["tool_choice"] = "auto" if allowed_mode == "auto" else w.required_word
            mode = allowed_mode
            bad |= {"tool_choice.emulated", "tools.filtered"}
    if mode != "unset":
        infos.add("tool_choice.mapped")
    if case == "parallel_false":
        if w.parallel:
            extra["parallel_tool_calls"] = False
            infos.add("parallel.mapped")
        else:
            bad.add("parallel.unsupported")
    if case == "strict":
        if w.strict:
            tools = [strict(t) for t in tools]
            infos.add("strict.mapped")
        else:
            bad.add("strict.unsupported")
    forced = mode in ("required", "named") or (mode == "allowed" and case == "allowed_required")
    if w.router and forced:
        # openrouter.ai/docs/features/provider-routing: provider.require_parameters (default false) routes only
        # to upstreams that support every parameter in the request
        extra["provider"] = {"require_parameters": True}
        infos.add("routing.require_parameters")
    body: dict[str, Any] = {"messages": [USER], "tools": tools, **extra}
    if host != "azure":
        body["model"] = "test-model"
    return Expect(body, bad, infos, mode)


def expected_notes(host: str, case: str, mode: str) -> set[str]:
    out = set()
    for code, when in WIRE[host].notes.items():
        if (when == "always"
                or (when == "auto" and mode in ("auto", "unset"))
                or (when == mode)
                or (when == "parallel_unset" and case != "parallel_false")
                or (when == "strict" and case == "strict")):
            out.add(code)
    return out


TABLE = [(h, c) for h in HOST_IDS for c in CHOICES]


@pytest.mark.parametrize("host, case", TABLE, ids=[f"{h}-{c}" for h, c in TABLE])
def test_tool_choice_wire(host: str, case: str) -> None:
    t = render_std(host, CHOICES[case])
    exp = expected(host, case)
    assert t.request is not None, [e.to_json() for e in t.ledger]
    assert t.request.body == exp.body
    strict_beta = host == "deepseek" and case == "strict"  # DeepSeek guides/tool_calls: strict is a beta feature
    assert t.request.url == ("https://api.deepseek.com/beta/chat/completions" if strict_beta else WIRE[host].url)
    assert t.request.headers == WIRE[host].headers()
    assert t.request.key_env == (WIRE[host].key_env,)
    assert t.request.key_optional is WIRE[host].key_optional
    assert t.effective_tool_choice == exp.body.get("tool_choice")
    assert t.offered_tools == tuple(tool["function"]["name"] for tool in exp.body["tools"])
    assert serious(t) == exp.serious
    assert exp.infos <= set(codes(t))
    assert set(codes(t)) & NOTE_CODES == expected_notes(host, case, exp.plan_mode)


def test_requested_tool_choice_is_the_neutral_form() -> None:
    assert render_std("llamacpp", CHOICES["named"]).requested_tool_choice == {"tool": "get_time"}
    assert render_std("openai", CHOICES["allowed_required"]).requested_tool_choice == {
        "allowed": ["get_time"], "mode": "required"}
    assert render_std("openai", CHOICES["any"]).requested_tool_choice == "required"
    assert render_std("openai", "").requested_tool_choice is None


def test_mapped_entry_names_both_sides() -> None:
    t = render_std("mistral", CHOICES["required"])
    assert entry(t, "tool_choice.mapped").message == "tool_choice required → any"


def test_vllm_notes_are_info_and_say_what_to_do() -> None:
    auto = entry(render_std("vllm", CHOICES["auto"]), "pitfall.vllm_auto_flags")
    assert auto.severity == "info" and "--enable-auto-tool-choice" in auto.message
    assert "0.8.3" in entry(render_std("vllm", CHOICES["required"]), "pitfall.vllm_required_version").message
    assert "--exclude-tools-when-tool-choice-none" in entry(render_std("vllm", CHOICES["none"]),
                                                            "pitfall.vllm_none_prompt").message


# ---- llama.cpp named emulation ---------------------------------------------------------------

def test_llamacpp_named_with_one_tool_is_emulated_without_filtering() -> None:
    one = "tools:\n  - name: get_time\n    parameters: {type: object, properties: {}}\n"
    t = render_std("llamacpp", "tool_choice: get_time\n", tools=one)
    assert t.request.body["tool_choice"] == "required"
    assert "tool_choice.emulated" in codes(t)
    assert "tools.filtered" not in codes(t)


def test_llamacpp_filtered_warning_names_the_removed_tool() -> None:
    t = render_std("llamacpp", CHOICES["named"])
    filtered = entry(t, "tools.filtered")
    assert filtered.severity == "warning" and "get_weather" in filtered.message
    assert entry(t, "tool_choice.emulated").severity == "warning"


def test_llamacpp_parallel_default_false_only_when_unset() -> None:
    assert "parallel.default_false" in codes(render_std("llamacpp", CHOICES["auto"]))
    t = render_std("llamacpp", "tool_choice: auto\nparallel_tool_calls: true\n")
    assert t.request.body["parallel_tool_calls"] is True
    assert "parallel.default_false" not in codes(t)


# ---- DeepSeek thinking ----------------------------------------------------------------------

def deepseek(extra: str, settings: str = "{model: deepseek-v4-flash}", options: RenderOptions = RenderOptions(),
             messages: str = USER_YAML) -> Translation:
    return render("deepseek", TOOLS_YAML + extra + messages + f"providers:\n  deepseek: {settings}\n", options)


def test_deepseek_forced_with_thinking_unset_disables_thinking() -> None:
    t = deepseek("tool_choice: required\n")
    assert t.request.body["thinking"] == {"type": "disabled"}
    assert t.request.body["tool_choice"] == "required"
    assert entry(t, "thinking.disabled_for_choice").severity == "warning"


@pytest.mark.parametrize("choice", ["tool_choice: required\n", "tool_choice: get_time\n",
                                    "tool_choice: {allowed: [get_time], mode: required}\n"])
def test_deepseek_forced_with_thinking_true_is_refused(choice: str) -> None:
    t = deepseek(choice, "{model: deepseek-v4-flash, thinking: true}")
    assert t.request is None
    assert entry(t, "thinking.forced_choice").severity == "error"


def test_deepseek_reasoner_always_thinks_so_forced_is_refused() -> None:
    t = deepseek("tool_choice: get_time\n", "{model: deepseek-reasoner}")
    assert t.request is None
    assert "thinking.forced_choice" in codes(t)
    assert "thinking.disabled_for_choice" not in codes(t)


# The API's own 400 words for a forcing tool_choice in thinking mode, as recorded against api.deepseek.com (not
# toolchoice's): V4 in deepseek-ai/DeepSeek-V3#1376 ('❌ 400 — Thinking mode does not support this tool_choice',
# deepseek-v4-flash), the retired alias in deepseek-ai/awesome-deepseek-integration#598 and i-am-bee/beeai-framework#1441
# ('deepseek-reasoner does not support this tool_choice').
@pytest.mark.parametrize("model, words", [
    ("deepseek-reasoner", "deepseek-reasoner does not support this tool_choice"),
    ("deepseek-v4-flash", "Thinking mode does not support this tool_choice"),
    ("deepseek-v4-pro", "Thinking mode does not support this tool_choice"),
])
def test_deepseek_forced_choice_refusal_quotes_the_models_own_words(model: str, words: str) -> None:
    t = deepseek("tool_choice: get_time\n", f"{{model: {model}, thinking: true}}")
    message = entry(t, "thinking.forced_choice").message
    assert f"(400 '{words}')" in message
    assert ("Thinking mode does not support" in message) == model.startswith("deepseek-v4")  # not V4's words on the alias


def test_deepseek_reasoner_refusal_advises_what_turns_its_thinking_off() -> None:
    message = entry(deepseek("tool_choice: required\n", "{model: deepseek-reasoner}"), "thinking.forced_choice").message
    assert "use tool_choice auto, or deepseek-flash with providers.deepseek.thinking: false" in message


def test_deepseek_forced_refusal_of_a_model_without_recorded_words_quotes_none() -> None:
    """A model the user's own rule says refuses it: no 400 words are recorded for it, so none are quoted."""
    t = deepseek("tool_choice: required\n", "{model: deepseek-v9-test, thinking: true, "
                 "rules: {forced_choice_with_thinking: false}}")
    message = entry(t, "thinking.forced_choice").message
    assert "(a 400; no words are recorded for this model)" in message and "'" not in message


def test_deepseek_reasoner_ignores_thinking_false_and_says_so() -> None:
    t = deepseek("tool_choice: auto\n", "{model: deepseek-reasoner, thinking: false}")
    assert entry(t, "thinking.always_on").severity == "warning"
    assert t.request is not None and "thinking" not in t.request.body


def test_deepseek_no_emulate_does_not_switch_thinking_off_for_you() -> None:
    t = deepseek("tool_choice: required\n", options=RenderOptions(emulate=False))
    assert t.request is None
    assert "thinking.forced_choice" in codes(t)


@pytest.mark.parametrize("value, wire", [("false", "disabled"), ("true", "enabled")])
def test_deepseek_thinking_setting_is_sent(value: str, wire: str) -> None:
    t = deepseek("tool_choice: auto\n", f"{{model: deepseek-v4-flash, thinking: {value}}}")
    assert t.request.body["thinking"] == {"type": wire}
    assert entry(t, "thinking.mapped").severity == "info"


def test_deepseek_thinking_false_allows_forced_choice_without_warning() -> None:
    t = deepseek("tool_choice: get_time\n", "{model: deepseek-v4-flash, thinking: false}")
    assert t.request.body["tool_choice"] == NAMED_OPENAI
    assert t.request.body["thinking"] == {"type": "disabled"}
    assert "thinking.mapped" in codes(t)
    assert "thinking.disabled_for_choice" not in codes(t)


def test_deepseek_auto_leaves_thinking_to_the_default() -> None:
    """Thinking stays at the default and nothing is said of it (DeepSeek's API reference takes auto in thinking mode:
    tests/test_fact_audit17.py)."""
    t = deepseek("tool_choice: auto\n")
    assert "thinking" not in t.request.body
    assert [c for c in codes(t) if c.startswith("thinking.")] == []


DS_HISTORY = """\
messages:
  - {role: user, content: "Weather in Paris?"}
  - role: assistant
    tool_calls:
      - {id: call_00_abc, name: get_weather, arguments: {city: Paris}}
  - {role: tool, tool_call_id: call_00_abc, content: "18C"}
  - {role: user, content: "And tomorrow?"}
"""


def test_deepseek_tool_history_in_thinking_mode_warns_about_reasoning_content() -> None:
    t = deepseek("tool_choice: auto\n", messages=DS_HISTORY)
    warning = entry(t, "pitfall.deepseek_reasoning_content")
    assert warning.severity == "warning" and "reasoning_content" in warning.message
    off = deepseek("tool_choice: auto\n", "{model: deepseek-v4-flash, thinking: false}", messages=DS_HISTORY)
    assert "pitfall.deepseek_reasoning_content" not in codes(off)
    forced = deepseek("tool_choice: required\n", messages=DS_HISTORY)  # thinking switched off for the choice
    assert "pitfall.deepseek_reasoning_content" not in codes(forced)


def test_deepseek_strict_goes_to_the_beta_endpoint() -> None:
    t = deepseek("tool_choice: auto\nstrict: true\n")
    assert t.request.url == "https://api.deepseek.com/beta/chat/completions"
    assert t.request.body["tools"] == [strict(WEATHER), strict(TIME)]
    assert "strict.beta_endpoint" in codes(t)


def test_deepseek_strict_with_a_base_url_keeps_the_override() -> None:
    t = deepseek("tool_choice: auto\nstrict: true\n", "{model: deepseek-v4-flash, base_url: \"https://proxy.local/ds\"}")
    assert t.request.url == "https://proxy.local/ds/chat/completions"
    assert "strict.beta_endpoint" not in codes(t)
    assert "endpoint.base_url" in codes(t)


def test_deepseek_parallel_true_is_dropped_as_info() -> None:
    t = deepseek("tool_choice: auto\nparallel_tool_calls: true\n")
    assert "parallel_tool_calls" not in t.request.body
    assert entry(t, "parallel.unsupported").severity == "info"


# ---- history --------------------------------------------------------------------------------

HISTORY = """\
system: Be brief.
messages:
  - {role: user, content: "Weather in Paris?"}
  - role: assistant
    tool_calls:
      - {id: call_abc_1, name: get_weather, arguments: {city: Paris}}
      - {id: gSIMJiOkT, name: get_time, arguments: {timezone: Europe/Paris}}
  - {role: tool, tool_call_id: call_abc_1, content: "{\\"temp_c\\": 18}"}
  - {role: tool, tool_call_id: gSIMJiOkT, content: timeout, is_error: true}
  - {role: assistant, content: It is 18 degrees.}
  - {role: user, content: Thanks}
"""


def openai_history(ids: dict[str, str], names: bool) -> list[dict[str, Any]]:
    def tool_msg(cid: str, content: str, name: str) -> dict[str, Any]:
        msg = {"role": "tool", "tool_call_id": ids[cid], "content": content}
        if names:
            msg["name"] = name
        return msg

    return [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": ids["call_abc_1"], "type": "function",
             "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'}},
            {"id": ids["gSIMJiOkT"], "type": "function",
             "function": {"name": "get_time", "arguments": '{"timezone": "Europe/Paris"}'}}]},
        tool_msg("call_abc_1", '{"temp_c": 18}', "get_weather"),
        tool_msg("gSIMJiOkT", "timeout", "get_time"),
        {"role": "assistant", "content": "It is 18 degrees."},
        {"role": "user", "content": "Thanks"},
    ]


@pytest.mark.parametrize("host", [h for h in HOST_IDS if h != "mistral"])
def test_history_encoding_openai_style(host: str) -> None:
    t = render_std(host, "tool_choice: auto\n", messages=HISTORY)
    same = {"call_abc_1": "call_abc_1", "gSIMJiOkT": "gSIMJiOkT"}
    assert t.request.body["messages"] == openai_history(same, names=False)
    assert "history.ids_rewritten" not in codes(t)
    dropped = entry(t, "history.is_error_dropped")
    assert dropped.severity == "info" and "gSIMJiOkT" in dropped.message


def test_history_encoding_mistral_rewrites_ids_consistently_and_names_tool_results() -> None:
    t = render_std("mistral", "tool_choice: auto\n", messages=HISTORY)
    messages = t.request.body["messages"]
    new_id = messages[2]["tool_calls"][0]["id"]
    # Mistral: "Tool call id ... must be a-z, A-Z, 0-9, with a length of 9"
    assert re.fullmatch(r"[a-zA-Z0-9]{9}", new_id)
    assert messages == openai_history({"call_abc_1": new_id, "gSIMJiOkT": "gSIMJiOkT"}, names=True)
    rewritten = entry(t, "history.ids_rewritten")
    assert rewritten.severity == "info" and f"call_abc_1→{new_id}" in rewritten.message
    assert "gSIMJiOkT" not in rewritten.message  # already valid: kept


def test_mistral_id_rewrite_is_deterministic_and_distinct() -> None:
    many = "messages:\n  - {role: user, content: go}\n  - role: assistant\n    tool_calls:\n" + "".join(
        f"      - {{id: call_{i}, name: get_time, arguments: {{timezone: UTC}}}}\n" for i in range(40))
    first = render_std("mistral", "tool_choice: auto\n", messages=many)
    again = render_std("mistral", "tool_choice: auto\n", messages=many)
    ids = [c["id"] for c in first.request.body["messages"][1]["tool_calls"]]
    assert len(set(ids)) == 40 and all(re.fullmatch(r"[a-zA-Z0-9]{9}", i) for i in ids)
    assert first.request.body == again.request.body


# ---- tools: none / empty / names / schemas --------------------------------------------------

# the hosts whose own source says they refuse tool_choice "auto" without tools (facts *.tool_choice_without_tools:
# OpenAI's and Azure's recorded 400, vLLM's check_tool_usage, xAI's and Cerebras's recorded 400s: "'tool_choice' is
# only allowed when 'tools' are specified", juspay/neurolink#1564); elsewhere no source says so
REFUSE_AUTO_WITHOUT_TOOLS = ("openai", "azure", "vllm", "xai", "cerebras")


@pytest.mark.parametrize("host", HOST_IDS)
def test_no_tools_omits_auto_only_where_the_host_refuses_it(host: str) -> None:
    t = render_std(host, "tool_choice: auto\n", tools="")
    assert "tools" not in t.request.body
    assert ("tool_choice" in t.request.body) is (host not in REFUSE_AUTO_WITHOUT_TOOLS)
    assert "tool_choice.without_tools" in codes(t)


def test_forced_choice_without_tools_is_refused() -> None:
    t = render_std("openai", "tool_choice: required\n", tools="")
    assert t.request is None
    assert entry(t, "tool_choice.without_tools").severity == "error"


def test_empty_tools_list_is_not_sent() -> None:
    t = render_std("openai", "tool_choice: none\n", tools="tools: []\n")
    assert t.request.body == {"model": "test-model", "messages": [USER]}
    assert "pitfall.empty_tools" in codes(t)
    # the reason is the API's own words (continuedev/continue#3370 quotes the 400), not a family's habit
    why = next(e.message for e in t.ledger if e.code == "pitfall.empty_tools")
    assert "Invalid 'tools': empty array. Expected an array with minimum length 1" in why


def test_parallel_without_tools_is_recorded_not_silently_dropped() -> None:
    t = render_std("openai", "parallel_tool_calls: false\n", tools="")
    assert "parallel_tool_calls" not in t.request.body
    assert "parallel.dropped" in codes(t)


def test_tool_without_parameters_gets_an_empty_object_schema() -> None:
    t = render_std("groq", "tool_choice: auto\n", tools="tools:\n  - name: now\n")
    # FunctionDefinition.parameters is optional, but several hosts reject a missing schema: always send one.
    assert t.request.body["tools"] == [{"type": "function", "function": {
        "name": "now", "parameters": {"type": "object", "properties": {}}}}]
    assert "schema.empty_parameters" in codes(t)


def test_strict_tool_without_parameters_is_sent_strict_valid() -> None:
    t = render_std("openai", "tool_choice: auto\n", tools="tools:\n  - {name: now, strict: true}\n")
    assert t.request is not None
    assert t.request.body["tools"][0]["function"]["parameters"] == {
        "type": "object", "properties": {}, "additionalProperties": False}


@pytest.mark.parametrize("name", ["boardgame.calculate_score", "requests.get", "x" * 65, "get weather"])
def test_invalid_tool_name_refuses(name: str) -> None:
    # Names from BFCL (tests' shared schemas): OpenAI function names match ^[a-zA-Z0-9_-]{1,64}$.
    t = render_std("openai", "tool_choice: auto\n", tools=f"tools:\n  - name: \"{name}\"\n")
    assert t.request is None
    assert entry(t, "tool.name_invalid").severity == "error"


# vLLM's request type (vllm-project/vllm entrypoints/openai protocol.py): 'class FunctionDefinition(OpenAIBaseModel):
# name: str' (no pattern); llama.cpp reads the name as a string (common_chat_tools_parse_oaicompat); xAI's REST spec
# (xai-org/xai-sdk-ts spec/openapi.json) FunctionDefinition.name: 'The name of the function. If the model calls the
# function, this name is used in the response.' None states OpenAI's rule: a dotted BFCL name is sent, with a warning.
@pytest.mark.parametrize("host", ["vllm", "llamacpp", "xai"])
def test_a_name_no_source_rejects_is_sent_with_a_warning(host: str) -> None:
    t = render_std(host, "tool_choice: auto\n", tools="tools:\n  - name: \"requests.get\"\n")
    assert t.request is not None and t.request.body["tools"][0]["function"]["name"] == "requests.get"
    assert entry(t, "tool.name_unstated").severity == "warning"
    assert "tool.name_invalid" not in codes(t)


NON_STRICT_TOOLS = """\
tools:
  - name: get_weather
    strict: true
    parameters:
      type: object
      properties:
        city: {type: string}
        units: {type: string}
      required: [city]
"""


def test_strict_invalid_schema_is_an_error_on_openai_and_azure() -> None:
    for host in ("openai", "azure"):
        t = render_std(host, "tool_choice: auto\n", tools=NON_STRICT_TOOLS)
        assert t.request is None
        problems = [e for e in t.ledger if e.code == "schema.strict_invalid"]
        assert {e.severity for e in problems} == {"error"}
        assert any("additionalProperties" in e.message for e in problems)
        assert any("units" in e.message for e in problems)


def test_strict_invalid_schema_is_a_warning_elsewhere() -> None:
    t = render_std("groq", "tool_choice: auto\n", tools=NON_STRICT_TOOLS)
    assert t.request is not None
    assert t.request.body["tools"][0]["function"]["strict"] is True
    assert {e.severity for e in t.ledger if e.code == "schema.strict_invalid"} == {"warning"}
    assert "pitfall.strict_best_effort" in codes(t)


def test_per_tool_strict_only_marks_that_tool() -> None:
    tools = TOOLS_YAML.replace("  - name: get_time\n", "  - name: get_time\n    strict: true\n")
    t = render_std("openai", "tool_choice: auto\n", tools=tools)
    assert t.request.body["tools"] == [WEATHER, strict(TIME)]
    assert "get_time" in entry(t, "strict.mapped").message


# ---- settings, extras, headers, endpoints ---------------------------------------------------

@pytest.mark.parametrize("host, field", [("openai", "max_completion_tokens"), ("azure", "max_completion_tokens"),
                                         ("groq", "max_tokens"), ("mistral", "max_tokens")])
def test_max_tokens_field(host: str, field: str) -> None:
    yaml = TOOLS_YAML + USER_YAML + f"providers:\n  {host}: {{model: m, max_tokens: 50, temperature: 0.3, endpoint: https://r.example}}\n"
    t = render(host, yaml)
    assert t.request.body[field] == 50 and t.request.body["temperature"] == 0.3
    other = {"max_tokens", "max_completion_tokens"} - {field}
    assert not other & set(t.request.body)
    assert ("max_tokens.mapped" in codes(t)) is (field != "max_tokens")


def test_extra_adds_and_overrides_body_fields() -> None:
    yaml = TOOLS_YAML + "tool_choice: required\n" + USER_YAML + (
        "providers:\n  openai:\n    model: m\n    extra: {tool_choice: none, top_p: 0.5}\n")
    t = render("openai", yaml)
    assert t.request.body["top_p"] == 0.5
    assert t.request.body["tool_choice"] == "none"
    assert t.effective_tool_choice == "none"  # what goes on the wire, after extra
    assert entry(t, "extra.overrides").severity == "warning"
    assert entry(t, "extra.merged").severity == "info"


def test_user_headers_replace_and_add() -> None:
    yaml = TOOLS_YAML + USER_YAML + ("providers:\n  openrouter:\n    model: m\n    headers:\n"
                                     "      authorization: Bearer $MY_KEY\n      X-Title: toolchoice\n")
    t = render("openrouter", yaml, RenderOptions(allow_env=("MY_KEY",)))
    assert t.request.headers == {"Content-Type": "application/json", "authorization": "Bearer $MY_KEY",
                                 "X-Title": "toolchoice"}
    messages = [e.message for e in t.ledger if e.code == "headers.user"]
    assert any("replaces header authorization" in m for m in messages)
    assert any("adds header X-Title" in m for m in messages)


def test_api_key_env_override() -> None:
    t = render("groq", TOOLS_YAML + USER_YAML + "providers:\n  groq: {model: m, api_key_env: MY_GROQ}\n",
               RenderOptions(allow_env=("MY_GROQ",)))
    assert t.request.headers["Authorization"] == "Bearer $MY_GROQ"
    assert t.request.key_env == ("MY_GROQ",)


@pytest.mark.parametrize("host", HOST_IDS)
def test_headers_never_hold_a_key_value(host: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(WIRE[host].key_env, "sk-secret-value")
    t = render_std(host, "tool_choice: auto\n")
    assert "sk-secret-value" not in json.dumps(t.request.to_json())


@pytest.mark.parametrize("via", ["option", "setting"])
def test_base_url_override(via: str) -> None:
    if via == "option":
        t = render_std("vllm", "tool_choice: auto\n", RenderOptions(base_url="http://gpu-box:9000/v1/"))
    else:
        t = render("vllm", TOOLS_YAML + USER_YAML + "providers:\n  vllm: {model: m, base_url: \"http://gpu-box:9000/v1\"}\n")
    assert t.request.url == "http://gpu-box:9000/v1/chat/completions"
    assert "http://gpu-box:9000/v1" in entry(t, "endpoint.base_url").message


def test_model_option_beats_setting() -> None:
    t = render_std("xai", "tool_choice: auto\n", RenderOptions(model="grok-code-fast-1"))
    assert t.request.body["model"] == "grok-code-fast-1"


def test_default_model_is_recorded() -> None:
    t = render("together", TOOLS_YAML + USER_YAML)
    assert t.request.body["model"] == CAPABILITIES["together"].default_model
    assert "model.default" in codes(t)


def test_azure_missing_endpoint_shows_a_placeholder() -> None:
    t = render("azure", TOOLS_YAML + USER_YAML + "providers:\n  azure: {deployment: d1}\n")
    assert t.request.url == ("https://YOUR-RESOURCE.openai.azure.com/openai/deployments/d1/chat/completions"
                             "?api-version=2024-10-21")
    assert entry(t, "endpoint.placeholder").severity == "warning"
    assert "model" not in t.request.body


def test_azure_api_version_and_model_as_deployment() -> None:
    t = render("azure", TOOLS_YAML + USER_YAML +
               "providers:\n  azure: {endpoint: \"https://r.openai.azure.com\", model: gpt-4o, api_version: 2025-04-01-preview}\n")
    assert t.request.url == "https://r.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2025-04-01-preview"
    assert t.request.headers == {"Content-Type": "application/json", "api-key": "$AZURE_OPENAI_API_KEY"}


def test_azure_missing_deployment_is_a_placeholder_warning() -> None:
    t = render("azure", TOOLS_YAML + USER_YAML + "providers:\n  azure: {endpoint: \"https://r.openai.azure.com\"}\n")
    placeholder = [e for e in t.ledger if e.code == "endpoint.placeholder"]
    assert placeholder and placeholder[0].severity == "warning" and "deployment" in placeholder[0].message


# ---- refusals --------------------------------------------------------------------------------

@pytest.mark.parametrize("host, choice", [("llamacpp", "tool_choice: get_time\n"),
                                          ("groq", "tool_choice: {allowed: [get_time], mode: auto}\n"),
                                          ("huggingface", "tool_choice: {allowed: [get_time], mode: required}\n")])
def test_no_emulate_refuses_what_the_host_cannot_express(host: str, choice: str) -> None:
    t = render_std(host, choice, RenderOptions(emulate=False))
    assert t.request is None
    assert entry(t, "tool_choice.unsupported").severity == "error"
    assert "tools.filtered" not in codes(t)


def test_no_emulate_passes_native_values() -> None:
    t = render_std("huggingface", "tool_choice: get_time\n", RenderOptions(emulate=False))
    assert t.request is not None


def test_strict_option_refuses_on_warnings() -> None:
    t = render_std("groq", "tool_choice: {allowed: [get_time], mode: auto}\n", RenderOptions(strict=True))
    assert t.request is None
    assert "strict.refused" in codes(t)
    assert "2 warnings" in entry(t, "strict.refused").message


def test_strict_option_lets_info_only_requests_through() -> None:
    t = render_std("groq", "tool_choice: get_time\n", RenderOptions(strict=True))
    assert t.request is not None
    assert "strict.refused" not in codes(t)


# ---- every ledger code ------------------------------------------------------------------------

# Scenarios that, between them, must produce every code this module declares; each is asserted
# in the test named next to it above and re-rendered here so the check does not depend on order.
CODE_SCENARIOS: list[tuple[str, str, RenderOptions, set[str]]] = [
    ("openrouter", TOOLS_YAML + "tool_choice: required\n" + USER_YAML
     + "providers:\n  openrouter: {require_parameters: false}\n", RenderOptions(), {"routing.any_upstream"}),
    ("openrouter", TOOLS_YAML + "tool_choice: auto\n" + USER_YAML
     + "providers:\n  openrouter: {require_parameters: true}\n", RenderOptions(), {"routing.require_parameters"}),
    ("mistral", TOOLS_YAML + "tool_choice: auto\n" + HISTORY + settings_yaml("mistral"), RenderOptions(),
     {"history.ids_rewritten", "history.is_error_dropped"}),
    ("deepseek", TOOLS_YAML + "tool_choice: required\n" + USER_YAML + "providers:\n  deepseek: {thinking: true}\n",
     RenderOptions(), {"thinking.forced_choice"}),
    ("openai", TOOLS_YAML + "tool_choice: auto\nmessages: []\n", RenderOptions(), {"messages.empty"}),
    ("deepseek", TOOLS_YAML + "tool_choice: auto\n" + DS_HISTORY + "providers:\n  deepseek: {thinking: false}\n",
     RenderOptions(), {"thinking.mapped"}),
    ("deepseek", TOOLS_YAML + "tool_choice: required\nstrict: true\n" + USER_YAML, RenderOptions(),
     {"thinking.disabled_for_choice", "strict.beta_endpoint", "strict.mapped"}),
    ("deepseek", TOOLS_YAML + "tool_choice: auto\n" + DS_HISTORY, RenderOptions(), {"pitfall.deepseek_reasoning_content"}),
    ("deepseek", TOOLS_YAML + "tool_choice: none\n" + USER_YAML + "providers:\n  deepseek: {rules: "
     "{tool_choice_with_thinking: false}}\n", RenderOptions(), {"thinking.choice_documented"}),
    ("openai", TOOLS_YAML + "tool_choice: auto\n" + HISTORY.replace(
        "  - {role: tool, tool_call_id: gSIMJiOkT, content: timeout, is_error: true}\n", ""), RenderOptions(),
     {"history.missing_tool_result"}),  # gSIMJiOkT's result dropped: OpenAI's 400 (openai_history)
    ("deepseek", TOOLS_YAML + "tool_choice: auto\n" + HISTORY.replace(
        "  - {role: tool, tool_call_id: gSIMJiOkT, content: timeout, is_error: true}\n", "").replace(
        "  - {role: user, content: Thanks}\n", "  - {role: user, content: Thanks}\n"
        "  - {role: tool, tool_call_id: gSIMJiOkT, content: timeout}\n"), RenderOptions(),
     {"history.missing_tool_result"}),  # gSIMJiOkT's result after the user's: DeepSeek's 400 for the calls
    # (both faults; gptme/gptme#3421's shape drew it; openai_history)
    ("deepseek", TOOLS_YAML + "tool_choice: auto\n" + DS_HISTORY.replace(
        "  - role: assistant\n", "  - role: assistant\n    reasoning_content: Call the weather tool.\n"),
     RenderOptions(), {"reasoning.replayed"}),
    ("groq", TOOLS_YAML + "tool_choice: auto\n" + DS_HISTORY.replace(
        "  - role: assistant\n", "  - role: assistant\n    reasoning_content: Call the weather tool.\n"),
     RenderOptions(), {"reasoning.not_taken"}),
    ("openai", TOOLS_YAML + USER_YAML + "providers:\n  openai: {thinking: {effort: low}}\n", RenderOptions(),
     {"thinking.effort"}),
    ("groq", TOOLS_YAML + USER_YAML + "providers:\n  groq: {thinking: true}\n", RenderOptions(),
     {"thinking.not_sent"}),
    # Groq's and Mistral's own reasoning_effort words (tests/test_host_efforts.py holds them to the SDKs and docs)
    ("groq", TOOLS_YAML + USER_YAML + "providers:\n  groq: {model: qwen/qwen3-32b, thinking: {effort: high}}\n",
     RenderOptions(), {"thinking.effort_refused"}),
    ("mistral", TOOLS_YAML + USER_YAML + "providers:\n  mistral: {model: mistral-medium-3-5, thinking: {effort: low}}\n",
     RenderOptions(), {"thinking.effort_unstated", "thinking.effort"}),
    ("groq", TOOLS_YAML + USER_YAML + "providers:\n  groq: {model: moonshotai/kimi-k2-instruct, thinking: {effort: low}}\n",
     RenderOptions(), {"thinking.effort_unknown", "thinking.effort"}),
    ("openai", TOOLS_YAML + USER_YAML + "providers:\n  openai: {model: gpt-5.6}\n", RenderOptions(),
     {"thinking.effort_for_tools"}),
    ("azure", TOOLS_YAML + USER_YAML + "providers:\n  azure: {model: gpt-5.6-luna}\n", RenderOptions(),
     {"model_rule.unstated"}),  # gpt-5.6 on Azure: the recordings disagree (docs/fact-audit.md), sent as written
    ("deepseek", TOOLS_YAML + "tool_choice: auto\n" + USER_YAML + "providers:\n  deepseek: {model: deepseek-reasoner, thinking: false}\n",
     RenderOptions(), {"thinking.always_on"}),
    ("openai", TOOLS_YAML + USER_YAML + "providers:\n  openai: {max_tokens: 9}\n", RenderOptions(), {"max_tokens.mapped"}),
    ("openai", NON_STRICT_TOOLS + USER_YAML, RenderOptions(), {"schema.strict_invalid"}),
    ("openai", "tools:\n  - name: now\n" + USER_YAML, RenderOptions(), {"schema.empty_parameters"}),
    ("azure", TOOLS_YAML + USER_YAML, RenderOptions(), {"endpoint.placeholder"}),
    ("llamacpp", TOOLS_YAML + USER_YAML, RenderOptions(), {"parallel.default_false"}),
    ("groq", TOOLS_YAML + "strict: true\n" + USER_YAML, RenderOptions(), {"pitfall.strict_best_effort"}),
    ("openrouter", TOOLS_YAML + USER_YAML, RenderOptions(), {"pitfall.upstream_dependent"}),
    ("vllm", TOOLS_YAML + "tool_choice: auto\n" + USER_YAML, RenderOptions(), {"pitfall.vllm_auto_flags"}),
    ("vllm", TOOLS_YAML + "tool_choice: required\n" + USER_YAML, RenderOptions(), {"pitfall.vllm_required_version"}),
    ("vllm", TOOLS_YAML + "tool_choice: none\n" + USER_YAML, RenderOptions(), {"pitfall.vllm_none_prompt"}),
    ("huggingface", TOOLS_YAML + "tool_choice: get_time\n" + USER_YAML, RenderOptions(),
     {"pitfall.langchain_hf_one_tool"}),
]


@pytest.mark.parametrize("host, yaml, options, expected_codes", CODE_SCENARIOS,
                         ids=[f"{s[0]}-{sorted(s[3])[0]}" for s in CODE_SCENARIOS])
def test_code_scenario(host: str, yaml: str, options: RenderOptions, expected_codes: set[str]) -> None:
    assert expected_codes <= set(codes(render(host, yaml, options)))


def _common_codes() -> set[str]:
    source = "".join(Path(module.__file__).read_text() for module in (translation, choice_plan, request_parts, history_wire))
    return set(re.findall(r"\.(?:info|warning|error)\(\s*\"([a-z_]+\.[a-z_.]+)\"", source))


def test_every_declared_code_is_emitted_and_asserted() -> None:
    emitted: set[str] = set()
    asserted: set[str] = set()
    for host, yaml, options, expected_codes in CODE_SCENARIOS:
        emitted.update(codes(render(host, yaml, options)))
        asserted |= expected_codes
    for host, case in TABLE:
        emitted.update(codes(render_std(host, CHOICES[case])))
    assert set(openai_chat.LEDGER_CODES) <= asserted
    assert set(openai_chat.LEDGER_CODES) <= emitted


def test_every_host_note_is_declared_and_emitted() -> None:
    notes = {n.code for h in openai_chat_hosts.HOSTS.values() for n in h.notes}
    assert notes <= set(openai_chat.LEDGER_CODES)
    assert notes == NOTE_CODES  # this file's per-host table knows every note


def test_module_emits_only_declared_or_shared_codes() -> None:
    source = Path(openai_chat.__file__).read_text()
    literal = set(re.findall(r"\.(?:info|warning|error)\(\s*\"([a-z_]+\.[a-z_.]+)\"", source))
    assert literal and literal <= set(openai_chat.LEDGER_CODES)
    shared = _common_codes()
    assert not set(openai_chat.LEDGER_CODES) & shared, "a module code shadows a shared one"
    for host, yaml, options, _ in CODE_SCENARIOS:
        assert set(codes(render(host, yaml, options))) <= set(openai_chat.LEDGER_CODES) | shared


# ---- parser -----------------------------------------------------------------------------------

RECORDED = [(folder, p.name[:-len(".expect.json")]) for folder in ("openai", "groq", "mistral", "deepseek")
            for p in sorted((DATA / folder).glob("*.expect.json"))]


@pytest.mark.parametrize("folder, name", RECORDED, ids=[n for _, n in RECORDED])
def test_parse_recorded_bodies(folder: str, name: str) -> None:
    body = json.loads((DATA / folder / f"{name}.json").read_text())
    expect = json.loads((DATA / folder / f"{name}.expect.json").read_text())
    reply = openai_chat.parse_reply(expect["provider"], body)
    assert [c.to_json() for c in reply.tool_calls] == expect["calls"]
    assert reply.finish_reason == expect["finish_reason"]
    # Reply.text is None when the model wrote no text: DeepSeek's content "" and a missing content key
    # (Mistral, Groq) both mean "no text".
    assert reply.text == (expect["text"] or None)
    usage = body["usage"]
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (usage["prompt_tokens"], usage["completion_tokens"])
    assert reply.error is None


def test_recorded_set_covers_the_awkward_shapes() -> None:
    names = {n for _, n in RECORDED}
    assert {"mistral-tool-call-no-type-field", "groq-tool-call-empty-arguments",
            "deepseek-tool-call-with-reasoning", "openai-chat-parallel"} <= names


def test_deepseek_reasoning_content_is_not_the_answer() -> None:
    body = json.loads((DATA / "deepseek" / "deepseek-tool-call-with-reasoning.json").read_text())
    reply = openai_chat.parse_reply("deepseek", body)
    assert reply.text is None
    assert "San Francisco" not in json.dumps(reply.to_json()["text"])


def test_parse_text_parts_and_custom_tool_calls() -> None:
    reply = openai_chat.parse_reply("vllm", {"choices": [{"finish_reason": "stop", "message": {
        "content": [{"type": "text", "text": "It is "}, {"type": "text", "text": "18 C."}, {"type": "image_url"}],
        "tool_calls": [{"id": "c1", "type": "custom", "custom": {"name": "shell", "input": "ls -la"}}]}}]})
    assert reply.text == "It is 18 C."
    call = reply.tool_calls[0]
    # openai-python chat_completion_message_custom_tool_call.py: {id, type: custom, custom: {name, input}}
    assert (call.id, call.name, call.arguments, call.raw_arguments) == ("c1", "shell", None, "ls -la")
    assert "custom" in call.arguments_error


def test_parse_invalid_and_odd_arguments() -> None:
    reply = openai_chat.parse_reply("together", {"choices": [{"message": {"tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{oops"}},
        {"id": "b", "type": "function", "function": {"name": "g", "arguments": ""}},
        {"id": "c", "type": "function", "function": {"name": "h", "arguments": "[1]"}},
        {"id": "d", "type": "function", "function": {"name": "i", "arguments": {"x": 1}}}]}}]})
    a, b, c, d = reply.tool_calls
    assert a.arguments is None and a.raw_arguments == "{oops" and "invalid JSON" in a.arguments_error
    assert b.arguments == {}
    assert c.arguments is None and "list" in c.arguments_error
    assert d.arguments == {"x": 1}
    assert reply.finish_reason is None and reply.text is None


def test_parse_text_only_reply() -> None:
    reply = openai_chat.parse_reply("openai", {"choices": [{"finish_reason": "stop", "message": {
        "role": "assistant", "content": "Hello"}}], "usage": {"prompt_tokens": 3, "completion_tokens": 1}})
    assert (reply.tool_calls, reply.text, reply.finish_reason) == ((), "Hello", "stop")
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (3, 1)


@pytest.mark.parametrize("bad", [
    None, [], "text", 3, {}, {"choices": None}, {"choices": []}, {"choices": {}}, {"choices": ["x"]},
    {"choices": [{"message": "hi"}]},
    {"choices": [{"message": {"tool_calls": {"id": "a"}}}]},
    {"choices": [{"message": {"tool_calls": ["a"]}}]},
    {"choices": [{"message": {"tool_calls": [{"id": "a", "function": "f"}]}}]},
])
def test_malformed_bodies_raise_toolchoice_error(bad: Any) -> None:
    with pytest.raises(ToolchoiceError):
        openai_chat.parse_reply("openai", bad)


@pytest.mark.parametrize("bad", [
    {"choices": [{"message": {"tool_calls": [{"id": "a", "type": "function"}]}}]},
    {"choices": [{"message": {"tool_calls": [{"id": "a", "function": []}]}}]},
    {"choices": [{"message": []}]},
], ids=["no-function", "function-empty-list", "message-empty-list"])
def test_tool_call_without_a_function_object_is_malformed(bad: Any) -> None:
    with pytest.raises(ToolchoiceError):
        openai_chat.parse_reply("openai", bad)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                        st.sampled_from(["choices", "message", "tool_calls", "function", "content", "type", "text",
                                         "custom", "input", "usage", "prompt_tokens", "completion_tokens",
                                         "finish_reason", "arguments", "name", "id"]),
                        inner, max_size=4), max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(JSON)
def test_parser_raises_only_toolchoice_error(value: Any) -> None:
    try:
        openai_chat.parse_reply("openai", value)
    except ToolchoiceError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["id", "type", "function", "custom"]), JSON, max_size=4), max_size=3))
def test_parser_survives_odd_tool_call_items(items: list[Any]) -> None:
    try:
        openai_chat.parse_reply("openai", {"choices": [{"message": {"tool_calls": items}}]})
    except ToolchoiceError:
        pass


def test_openrouter_require_parameters_can_be_turned_off() -> None:
    t = render("openrouter", TOOLS_YAML + "tool_choice: required\n" + USER_YAML
               + "providers:\n  openrouter: {require_parameters: false}\n")
    assert t.request is not None and "provider" not in t.request.body
    assert entry(t, "routing.any_upstream").severity == "warning"
    auto = render("openrouter", TOOLS_YAML + "tool_choice: auto\n" + USER_YAML)
    assert "provider" not in auto.request.body and "routing.require_parameters" not in codes(auto)


def test_openrouter_reply_names_its_upstream() -> None:
    # A top-level "provider" string as real OpenRouter replies carry it, and the official SDK's
    # openrouter_metadata.attempts[].provider (openrouter 1.3.84 components/routerattempt.py: model, provider, status)
    base = {"choices": [{"message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}
    assert openai_chat.parse_reply("openrouter", {**base, "provider": "Together"}).upstream == "Together"
    meta = {"openrouter_metadata": {"attempts": [{"model": "m", "provider": "DeepInfra", "status": 429},
                                                  {"model": "m", "provider": "Fireworks", "status": 200}]}}
    reply = openai_chat.parse_reply("openrouter", {**base, **meta})
    assert reply.upstream == "Fireworks" and reply.to_json()["upstream"] == "Fireworks"
    plain = openai_chat.parse_reply("openai", {**base, "provider": "Together"})
    assert plain.upstream is None and "upstream" not in plain.to_json()


# ---- Azure: the deployment in the URL path, as openai's AzureOpenAI puts a per-request model there --------------

# openai lib/azure.py: 'options.url = path_template("/deployments/{model}", model=model) + options.url';
# _utils/_path.py path_template percent-encodes a placeholder as one RFC 3986 path segment and raises ValueError on a
# dot-segment ('. or ..').
DEPLOYMENTS = ["gpt-4o-prod", "my deployment", "a/b", "x?y=1", "frag#1", "..", "."]


@pytest.mark.parametrize("deployment", DEPLOYMENTS)
def test_the_azure_deployment_is_one_path_segment(deployment: str) -> None:
    from sdk_types import missing

    if missing("openai"):
        pytest.skip("needs openai")
    import httpx
    from openai._utils._path import path_template

    yaml = TOOLS_YAML + "tool_choice: auto\n" + USER_YAML + (
        "providers:\n  azure: {endpoint: 'https://r.openai.azure.com', deployment: " + json.dumps(deployment) + "}\n")
    try:
        sdk = path_template("/deployments/{model}", model=deployment)
    except ValueError:
        with pytest.raises(ToolchoiceError, match="dot-segment"):
            render("azure", yaml)
        return
    t = render("azure", yaml)
    url = httpx.URL(t.request.url)
    assert url.raw_path.decode().split("?")[0] == f"/openai{sdk}/chat/completions"
    assert dict(url.params) == {"api-version": "2024-10-21"}


REFUSAL_CHUNKS = [
    {"id": "chatcmpl-r", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-2024-08-06",
     "choices": [{"index": 0, "delta": {"role": "assistant", "content": None, "refusal": ""}, "finish_reason": None}]},
    *[{"id": "chatcmpl-r", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-2024-08-06",
       "choices": [{"index": 0, "delta": {"refusal": piece}, "finish_reason": None}]}
      for piece in ("I'm sorry, ", "I can't help ", "with that.")],
    {"id": "chatcmpl-r", "object": "chat.completion.chunk", "created": 1, "model": "gpt-4o-2024-08-06",
     "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
]


def test_a_refusal_is_the_replys_text_as_the_sdk_reads_it_whole_and_streamed() -> None:
    """A model that refuses answers in message.refusal (content null): parse and the stream assembler showed no
    text at all, while the Responses API's refusal parts are text. openai-python's own stream state is the truth
    for both the streamed and the whole reply."""
    from openai.lib.streaming.chat import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    from toolchoice.providers.core.streaming import assemble_bytes

    state = ChatCompletionStreamState()
    for chunk in REFUSAL_CHUNKS:
        state.handle_chunk(ChatCompletionChunk.model_validate(chunk))
    completion = state.get_final_completion()
    refusal = completion.choices[0].message.refusal
    assert refusal == "I'm sorry, I can't help with that."
    whole = openai_chat.parse_reply("openai", completion.model_dump(mode="json"))
    assert whole.text == refusal and whole.tool_calls == ()
    stream = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in REFUSAL_CHUNKS) + b"data: [DONE]\n\n"
    assert assemble_bytes("openai", stream).reply.text == refusal
