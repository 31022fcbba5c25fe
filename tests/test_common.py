"""Shared translation logic on its own: plan_choice, lint_pitfalls, start, check_names,
openai_strict_problems on real schemas, and a consistency check of every translator against its
capability row.

plan_choice/lint_pitfalls are provider-agnostic; they are driven here with real capability rows that
cover each shape: openai (everything native), llamacpp (named emulated, required native), cohere
(named emulated), ollama (required unsupported, none emulated, named emulated).

Strict-schema rules checked by openai_strict_problems come from platform.openai.com's Structured
Outputs guide ("Supported schemas": additionalProperties: false must be set on every object; all
fields must be required, optional ones emulated with a null union).
"""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from toolchoice.providers.core import registry
from toolchoice.providers.core.capabilities import CAPABILITIES, FEATURES, Level
from toolchoice.providers.core.registry import module_for
from toolchoice.providers.core.choice_plan import ChoicePlan, lint_pitfalls, plan_choice
from toolchoice.providers.core.translation import check_names, start
from toolchoice.providers.openai_strict import openai_strict_problems
from toolchoice.providers.core.model import Ledger, RenderOptions, Scenario, Translation
from toolchoice.providers.core.scenario import load_scenario_text

# Real tool schemas (BFCL, github-mcp-server, openai-python; see SOURCES.md there): a repo copy if one
# exists, else the shared data folder; the schema tests skip when neither is present.
SCHEMAS = next((p for p in (Path(__file__).parent / "data" / "schemas", Path("/work/shared/data/schemas"))
                if p.is_dir()), None)
needs_schemas = pytest.mark.skipif(SCHEMAS is None, reason="no real schema folder (tests/data/schemas)")

TOOLS = """\
tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}, required: [city], additionalProperties: false}
  - name: get_time
    parameters: {type: object, properties: {tz: {type: string}}, required: [tz], additionalProperties: false}
"""
USER = "messages:\n  - {role: user, content: hi}\n"

# The history calls `search` (never declared now) and get_time.
STALE_HISTORY = """\
messages:
  - {role: user, content: "find flights"}
  - role: assistant
    tool_calls:
      - {id: c1, name: search, arguments: {q: flights}}
  - {role: tool, tool_call_id: c1, content: "3 results"}
  - {role: user, content: "and the weather there?"}
"""
HISTORY_ENDING_WITH_RESULT = """\
messages:
  - {role: user, content: "weather?"}
  - role: assistant
    tool_calls:
      - {id: c1, name: get_weather, arguments: {city: Paris}}
  - {role: tool, tool_call_id: c1, content: "18C"}
"""


def scenario(text: str) -> Scenario:
    return load_scenario_text(text, "test.yaml")


def plan(provider: str, text: str, options: RenderOptions = RenderOptions()) -> tuple[ChoicePlan, Ledger]:
    ledger = Ledger()
    cap = CAPABILITIES[provider]
    s = scenario(text)
    p = plan_choice(cap, s, options, ledger)
    lint_pitfalls(cap, s, p, ledger)
    return p, ledger


def names(p: ChoicePlan) -> list[str]:
    return [t.name for t in p.tools]


def find(ledger: Ledger, code: str):
    return [e for e in ledger.entries if e.code == code]


# ---- plan_choice ------------------------------------------------------------------------------

@pytest.mark.parametrize("choice, mode", [("auto", "auto"), ("none", "none"), ("required", "required"),
                                          ("any", "required"), ("\"true\"", "named"), ("true", "required")])
def test_native_modes_keep_every_tool(choice: str, mode: str) -> None:
    tools = TOOLS + "  - name: \"true\"\n" if choice == "\"true\"" else TOOLS
    p, ledger = plan("openai", tools + f"tool_choice: {choice}\n" + USER)
    assert p.mode == mode and not p.emulated and not p.omit_tools
    assert "get_weather" in names(p) and "get_time" in names(p)
    assert ledger.warnings == 0 and ledger.errors == 0


@pytest.mark.parametrize("value", ["false", "null"])
def test_false_and_null_mean_unset(value: str) -> None:
    p, ledger = plan("openai", TOOLS + f"tool_choice: {value}\n" + USER)
    assert p.mode == "unset"
    assert [e.code for e in ledger.entries] == ["tool_choice.unset"]


def test_named_native() -> None:
    p, ledger = plan("openai", TOOLS + "tool_choice: {tool: get_time}\n" + USER)
    assert (p.mode, p.name, names(p), p.emulated) == ("named", "get_time", ["get_weather", "get_time"], False)


def test_named_emulated_by_required_filters_tools() -> None:
    p, ledger = plan("llamacpp", TOOLS + "tool_choice: get_time\n" + USER)
    assert (p.mode, names(p), p.emulated) == ("required", ["get_time"], True)
    assert [e.severity for e in find(ledger, "tool_choice.emulated")] == ["warning"]
    assert "get_weather" in find(ledger, "tools.filtered")[0].message


def test_named_without_required_is_ignored_but_steered() -> None:
    p, ledger = plan("ollama", TOOLS + "tool_choice: get_time\n" + USER)
    assert (p.mode, names(p), p.emulated) == ("unset", ["get_time"], True)
    assert find(ledger, "tool_choice.ignored") and find(ledger, "tools.filtered")


def test_required_unsupported_is_ignored() -> None:
    p, ledger = plan("ollama", TOOLS + "tool_choice: required\n" + USER)
    assert (p.mode, names(p)) == ("unset", ["get_weather", "get_time"])
    assert find(ledger, "tool_choice.ignored")[0].severity == "warning"


def test_none_emulated_by_omitting_tools() -> None:
    p, ledger = plan("ollama", TOOLS + "tool_choice: none\n" + USER)
    assert p.omit_tools and p.tools == () and p.emulated
    assert find(ledger, "tool_choice.emulated")


@pytest.mark.parametrize("provider, choice", [("llamacpp", "get_time"), ("ollama", "required"), ("ollama", "none"),
                                              ("cohere", "get_time"), ("groq", "{allowed: [get_time]}")])
def test_no_emulate_turns_emulation_into_an_error(provider: str, choice: str) -> None:
    p, ledger = plan(provider, TOOLS + f"tool_choice: {choice}\n" + USER, RenderOptions(emulate=False))
    assert [e.severity for e in find(ledger, "tool_choice.unsupported")] == ["error"]
    assert not find(ledger, "tools.filtered")
    assert not find(ledger, "tool_choice.emulated") and not find(ledger, "tool_choice.ignored")


def test_allowed_native_keeps_every_tool() -> None:
    p, ledger = plan("openai", TOOLS + "tool_choice: {allowed: [get_time], mode: required}\n" + USER)
    assert (p.mode, p.allowed, names(p)) == ("allowed", ("get_time",), ["get_weather", "get_time"])
    assert ledger.warnings == 0


@pytest.mark.parametrize("mode, wire", [("auto", "auto"), ("required", "required")])
def test_allowed_subset_emulated_by_filtering(mode: str, wire: str) -> None:
    p, ledger = plan("groq", TOOLS + f"tool_choice: {{allowed: [get_time], mode: {mode}}}\n" + USER)
    assert (p.mode, names(p), p.emulated) == (wire, ["get_time"], True)
    assert find(ledger, "tool_choice.emulated") and find(ledger, "tools.filtered")


def test_allowed_every_tool_is_a_plain_mode() -> None:
    p, ledger = plan("groq", TOOLS + "tool_choice: {allowed: [get_weather, get_time], mode: required}\n" + USER)
    assert (p.mode, names(p), p.emulated) == ("required", ["get_weather", "get_time"], False)
    assert ledger.warnings == 0
    assert any("every declared tool" in e.message for e in find(ledger, "tool_choice.mapped"))


def test_allowed_every_tool_required_on_a_provider_without_required_is_not_silent() -> None:
    p, ledger = plan("ollama", TOOLS + "tool_choice: {allowed: [get_weather, get_time], mode: required}\n" + USER)
    assert p.mode == "unset"
    assert find(ledger, "tool_choice.ignored")
    assert not any("sent as required" in e.message for e in ledger.entries)


# ---- tool_choice.without_tools / spelling ---------------------------------------------------

@pytest.mark.parametrize("choice", ["required", "any", "true", "{tool: x}", "{allowed: [x], mode: required}"])
def test_forcing_without_tools_is_an_error(choice: str) -> None:
    text = f"tool_choice: {choice}\n" + USER if choice in ("required", "any", "true") else None
    if text is None:  # a named/allowed choice needs the tool declared to load; plan against no tools
        s = scenario("tools:\n  - name: x\n" + f"tool_choice: {choice}\n" + USER)
        s = Scenario(path=s.path, tools=(), tool_choice=s.tool_choice, messages=s.messages)
    else:
        s = scenario(f"tool_choice: {choice}\n" + USER)
    ledger = Ledger()
    plan_choice(CAPABILITIES["openai"], s, RenderOptions(), ledger)
    assert [e.severity for e in find(ledger, "tool_choice.without_tools")] == ["error"]


@pytest.mark.parametrize("choice", ["auto", "none", "{allowed: [x], mode: auto}"])
def test_non_forcing_choice_without_tools_is_omitted_with_info(choice: str) -> None:
    s = scenario("tools:\n  - name: x\n" + f"tool_choice: {choice}\n" + USER)
    s = Scenario(path=s.path, tools=(), tool_choice=s.tool_choice, messages=s.messages)
    ledger = Ledger()
    p = plan_choice(CAPABILITIES["openai"], s, RenderOptions(), ledger)
    assert p.mode == "unset"
    assert [e.severity for e in find(ledger, "tool_choice.without_tools")] == ["info"]


def test_empty_tools_list_is_a_pitfall_and_omits_choice() -> None:
    p, ledger = plan("openai", "tools: []\ntool_choice: auto\n" + USER)
    assert p.mode == "unset"
    assert find(ledger, "pitfall.empty_tools") and find(ledger, "tool_choice.without_tools")
    _, plain = plan("openai", "tool_choice: auto\n" + USER)
    assert not find(plain, "pitfall.empty_tools")


@pytest.mark.parametrize("choice, shown", [
    ("any", "tool_choice any read as required"),
    ("true", "tool_choice true read as required"),
    ("ANY", "tool_choice ANY read as required"),
    ("{type: function, function: {name: get_time}}",
     'tool_choice {"type":"function","function":{"name":"get_time"}} read as {"tool":"get_time"}'),
    ("{mode: ANY, allowedFunctionNames: [get_time, get_weather]}",
     'read as {"allowed":["get_time","get_weather"],"mode":"required"}'),
])
def test_spelling_is_recorded(choice: str, shown: str) -> None:
    _, ledger = plan("openai", TOOLS + f"tool_choice: {choice}\n" + USER)
    spelled = find(ledger, "tool_choice.spelling")
    assert len(spelled) == 1 and shown in spelled[0].message and spelled[0].severity == "info"


@pytest.mark.parametrize("choice", ["auto", "required", "get_time", "{tool: get_time}",
                                    "{allowed: [get_time], mode: auto}"])
def test_neutral_spellings_are_not_recorded(choice: str) -> None:
    _, ledger = plan("openai", TOOLS + f"tool_choice: {choice}\n" + USER)
    assert not find(ledger, "tool_choice.spelling")


# ---- lint_pitfalls ------------------------------------------------------------------------------

def test_required_trap_when_forced_and_history_tool_not_offered() -> None:
    _, ledger = plan("openai", TOOLS + "tool_choice: required\n" + STALE_HISTORY)
    trap = find(ledger, "pitfall.required_trap")
    assert len(trap) == 1 and trap[0].severity == "warning"
    assert "search" in trap[0].message and "tool_choice: NAME" in trap[0].message


def test_required_trap_suggests_the_only_tool_by_name() -> None:
    one = "tools:\n  - name: get_time\n"
    _, ledger = plan("openai", one + "tool_choice: required\n" + STALE_HISTORY)
    assert "tool_choice: get_time" in find(ledger, "pitfall.required_trap")[0].message


def test_no_required_trap_for_native_named() -> None:
    _, ledger = plan("openai", TOOLS + "tool_choice: get_time\n" + STALE_HISTORY)
    assert not find(ledger, "pitfall.required_trap")
    assert not find(ledger, "pitfall.history_tools_not_offered")


def test_emulated_named_trap_has_its_own_wording() -> None:
    # llama.cpp: naming get_time is emulated by offering only get_time + required; the history's
    # get_weather call is then a tool the model no longer sees but may still call.
    history = HISTORY_ENDING_WITH_RESULT + "  - {role: user, content: \"and the time?\"}\n"
    _, ledger = plan("llamacpp", TOOLS + "tool_choice: get_time\n" + history)
    trap = find(ledger, "pitfall.required_trap")
    assert len(trap) == 1 and "get_weather" in trap[0].message
    assert "cannot force 'get_time' natively" in trap[0].message


def test_no_trap_when_history_tools_are_offered() -> None:
    history = HISTORY_ENDING_WITH_RESULT + "  - {role: user, content: \"again\"}\n"
    _, ledger = plan("openai", TOOLS + "tool_choice: required\n" + history)
    assert not find(ledger, "pitfall.required_trap")


def test_required_trap_for_native_allowed_required() -> None:
    _, ledger = plan("openai", TOOLS + "tool_choice: {allowed: [get_time], mode: required}\n" + STALE_HISTORY)
    assert find(ledger, "pitfall.required_trap")


@pytest.mark.parametrize("choice", ["auto", "{allowed: [get_time], mode: auto}", None])
def test_history_tools_not_offered_is_info(choice: str | None) -> None:
    line = f"tool_choice: {choice}\n" if choice else ""
    _, ledger = plan("openai", TOOLS + line + STALE_HISTORY)
    found = find(ledger, "pitfall.history_tools_not_offered")
    assert len(found) == 1 and found[0].severity == "info" and "search" in found[0].message
    assert not find(ledger, "pitfall.required_trap")


def test_none_with_history() -> None:
    _, ledger = plan("openai", TOOLS + "tool_choice: none\n" + STALE_HISTORY)
    assert [e.severity for e in find(ledger, "pitfall.none_with_history")] == ["warning"]
    assert not find(ledger, "pitfall.history_tools_not_offered")
    _, plain = plan("openai", TOOLS + "tool_choice: none\n" + USER)
    assert not find(plain, "pitfall.none_with_history")


@pytest.mark.parametrize("choice, expected", [("required", True), ("get_time", True), ("auto", False),
                                              ("{allowed: [get_time], mode: required}", True)])
def test_forced_after_tool_result(choice: str, expected: bool) -> None:
    _, ledger = plan("openai", TOOLS + f"tool_choice: {choice}\n" + HISTORY_ENDING_WITH_RESULT)
    assert bool(find(ledger, "pitfall.forced_after_tool_result")) is expected


def test_forced_after_a_user_turn_is_fine() -> None:
    _, ledger = plan("openai", TOOLS + "tool_choice: required\n" + STALE_HISTORY)
    assert not find(ledger, "pitfall.forced_after_tool_result")


@pytest.mark.parametrize("provider, parallel, expected", [
    ("openai", "", True), ("openai", "parallel_tool_calls: true\n", True),
    ("openai", "parallel_tool_calls: false\n", False),
    ("huggingface", "", False),  # no parallel switch there: nothing to set
    # anthropic types/tool_choice_tool_param.py: disable_parallel_tool_use 'Defaults to `false`. If set to `true`, the
    # model will output exactly one tool use.': a named choice without it may return more than one
    ("anthropic", "", True), ("anthropic", "parallel_tool_calls: false\n", False),
    ("llamacpp", "", False),  # named is emulated by required
])
def test_named_parallel(provider: str, parallel: str, expected: bool) -> None:
    _, ledger = plan(provider, TOOLS + "tool_choice: get_time\n" + parallel + USER)
    assert bool(find(ledger, "pitfall.named_parallel")) is expected


# ---- start: model, overlay ---------------------------------------------------------------------

def test_model_default_is_recorded_only_when_nothing_is_set() -> None:
    s = scenario(TOOLS + USER)
    ctx = start("groq", s, RenderOptions())
    assert ctx.model == CAPABILITIES["groq"].default_model
    assert "model.default" in [e.code for e in ctx.ledger.entries]
    assert "model.default" not in [e.code for e in start("groq", s, RenderOptions(model="m")).ledger.entries]
    with_setting = scenario(TOOLS + USER + "providers:\n  groq: {model: llama-3.1-8b-instant}\n")
    ctx = start("groq", with_setting, RenderOptions())
    assert ctx.model == "llama-3.1-8b-instant" and "model.default" not in [e.code for e in ctx.ledger.entries]
    assert start("groq", with_setting, RenderOptions(model="m")).model == "m"


def test_measured_capabilities_are_recorded() -> None:
    cap = CAPABILITIES["vllm"]._replace(measured="probe on gpu-box, 2026-01-02")
    ctx = start("vllm", scenario(TOOLS + USER), RenderOptions(), cap)
    assert any(e.code == "capabilities.overlay" and "gpu-box" in e.message for e in ctx.ledger.entries)


# ---- check_names on real tool names -----------------------------------------------------------

def schema_file(name: str) -> dict[str, Any]:
    if SCHEMAS is None:
        pytest.skip("no real schema folder (tests/data/schemas)")
    return json.loads((SCHEMAS / name).read_text())


def scenario_from_tools(tools: list[dict[str, Any]]) -> Scenario:
    text = json.dumps({"tools": [{"name": t["name"], "parameters": None} for t in tools],
                       "messages": [{"role": "user", "content": "hi"}]})
    return scenario(text)


@pytest.mark.parametrize("provider", ["openai", "gemini"])
def test_check_names_on_bfcl_dotted_names(provider: str) -> None:
    tools = schema_file("bfcl-live-parallel-multiple-2-2-0-korean-enum-default.json")["tools"]
    ctx = start(provider, scenario_from_tools(tools), RenderOptions())
    check_names(ctx, module_for(provider).NAME_RULE)
    rejected = {e.message.split("'")[1] for e in ctx.ledger.entries if e.code == "tool.name_invalid"}
    dotted = {t["name"] for t in tools if "." in t["name"]}
    assert dotted  # OpenWeatherMap.get_current_weather, ControlAppliance.execute, ...
    # OpenAI: ^[a-zA-Z0-9_-]{1,64}$, Anthropic: {1,128} ; Gemini FunctionDeclaration.name allows '.', ':' and '-'
    assert rejected == (dotted if provider == "openai" else set())
    assert all(e.severity == "error" for e in ctx.ledger.entries if e.code == "tool.name_invalid")


def test_check_names_accepts_shell_like_names() -> None:
    tools = schema_file("bfcl-multi-turn-gorilla-file-system.json")["tools"]
    ctx = start("openai", scenario_from_tools(tools), RenderOptions())
    check_names(ctx, module_for("openai").NAME_RULE)
    assert "tool.name_invalid" not in [e.code for e in ctx.ledger.entries]


# ---- openai_strict_problems on real schemas ----------------------------------------------------

def params(name: str, index: int = 0) -> dict[str, Any]:
    return copy.deepcopy(schema_file(name)["tools"][index]["parameters"])


def test_strict_valid_real_schema_has_no_problems() -> None:
    # openai-python's own pydantic_function_tool(Query) output, sent with strict: true in its tests.
    assert openai_strict_problems(params("openai-python-query-defs-ref.json")) == []


def test_strict_problem_inside_defs_is_found() -> None:
    schema = params("openai-python-query-defs-ref.json")
    del schema["$defs"]["Condition"]["additionalProperties"]
    schema["required"].remove("order_by")
    assert openai_strict_problems(schema) == [
        "parameters must list every property in required (missing: order_by; make optional ones nullable)",
        "parameters.$defs.Condition needs additionalProperties: false",
    ]


def test_strict_problems_root_only_when_items_are_closed() -> None:
    # github-mcp push_files: files[] items already have additionalProperties: false and required [path, content].
    assert openai_strict_problems(params("github-mcp-push-files.json")) == [
        "parameters needs additionalProperties: false"]


def test_strict_problems_inside_oneof_items() -> None:
    problems = openai_strict_problems(params("github-mcp-update-issue-labels.json"))
    assert problems == [
        "parameters needs additionalProperties: false",
        "parameters.labels[].oneOf[1] needs additionalProperties: false",
        "parameters.labels[].oneOf[1] must list every property in required (missing: confidence, is_suggestion, "
        "rationale; make optional ones nullable)",
    ]


def test_strict_problems_on_bfcl_dict_types() -> None:
    # BFCL writes "dict" for object; a schema with properties is still checked as an object.
    problems = openai_strict_problems(params("bfcl-irrelevance-196-nested-dict-array-of-dict.json"))
    assert "parameters.player_actions[] needs additionalProperties: false" in problems
    assert any(p.startswith("parameters.player_actions[] must list every property") and "property_id" in p
               for p in problems)
    assert "parameters.initial_scores needs additionalProperties: false" in problems
    assert not any(p.startswith("parameters.initial_scores must list") for p in problems)  # both required


def test_strict_problems_empty_properties() -> None:
    schema = params("bfcl-live-multiple-93-41-0-empty-properties.json")  # default_function: properties {}
    assert openai_strict_problems(schema) == ["parameters needs additionalProperties: false"]
    schema["additionalProperties"] = False
    assert openai_strict_problems(schema) == []


@needs_schemas
@pytest.mark.parametrize("path", sorted(p.name for p in SCHEMAS.glob("*.json")) if SCHEMAS else ["(none)"])
def test_strict_problems_never_crash_on_real_schemas(path: str) -> None:
    for tool in schema_file(path)["tools"]:
        result = openai_strict_problems(tool.get("parameters") or {})
        assert isinstance(result, list) and all(isinstance(p, str) for p in result)


# ---- every translator agrees with its capability row ------------------------------------------

CHOICE_FEATURES = {
    "auto": "tool_choice: auto\n",
    "none": "tool_choice: none\n",
    "required": "tool_choice: required\n",
    "any": "tool_choice: any\n",
    "named": "tool_choice: get_time\n",
    "allowed": "tool_choice: {allowed: [get_time], mode: auto}\n",
}
OTHER_FEATURES = {
    "parallel": "tool_choice: auto\nparallel_tool_calls: false\n",
    "strict": "tool_choice: auto\nstrict: true\n",
}
assert set(CHOICE_FEATURES) | set(OTHER_FEATURES) == set(FEATURES)
FLAGS = {"tool_choice.emulated", "tool_choice.ignored"}
PAIRS = [(p, f) for p in CAPABILITIES for f in FEATURES]


def render_feature(provider: str, text: str, options: RenderOptions = RenderOptions()) -> Translation:
    return registry.translate(provider, scenario(TOOLS + text + USER), options)


def codes_of(t: Translation) -> set[str]:
    return {e.code for e in t.ledger}


@pytest.mark.parametrize("provider, feature", PAIRS, ids=[f"{p}-{f}" for p, f in PAIRS])
def test_translator_agrees_with_capability_row(provider: str, feature: str) -> None:
    support = CAPABILITIES[provider].feature(feature)
    if feature in CHOICE_FEATURES:
        t = render_feature(provider, CHOICE_FEATURES[feature])
        strict_t = render_feature(provider, CHOICE_FEATURES[feature], RenderOptions(emulate=False))
        if support.usable:
            assert not FLAGS & codes_of(t), f"{feature} is {support.level.value} but the translator emulated it"
            assert t.request is not None
            assert "tool_choice.unsupported" not in codes_of(strict_t)
        else:
            assert FLAGS & codes_of(t), f"{feature} is {support.level.value} but nothing says so in the ledger"
            assert "tool_choice.unsupported" in codes_of(strict_t) and strict_t.request is None
        return
    t = render_feature(provider, OTHER_FEATURES[feature])
    flagged = [e for e in t.ledger if e.code == f"{feature}.unsupported"]
    if support.usable:
        assert not flagged
        if feature == "parallel":
            assert "parallel.mapped" in codes_of(t)
    elif support.level is Level.UNSUPPORTED:
        assert [e.severity for e in flagged] == ["warning"]
    else:  # emulated strict (Gemini VALIDATED): the ledger says what replaced it
        assert not flagged
        assert any(c.startswith(f"{feature}.") for c in codes_of(t))


def test_any_and_required_rows_agree() -> None:
    # The scenario reads `any` as required, so a row cannot make them differ in usability.
    for cap in CAPABILITIES.values():
        assert cap.any.usable == cap.required.usable, cap.provider


def test_ledger_counts_warnings_and_errors_as_they_are_added() -> None:
    ledger = Ledger()
    assert (ledger.warnings, ledger.errors) == (0, 0)
    ledger.info("a", "x")
    ledger.warning("b", "y")
    ledger.add("warning", "c", "z")
    ledger.error("d", "w")
    assert (ledger.warnings, ledger.errors) == (2, 1)
    assert [e.code for e in ledger.entries] == ["a", "b", "c", "d"]
