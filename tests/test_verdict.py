"""providers/verdict.py: one category per reply (first match wins, issue 3), and the tally."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolchoice.providers import load_scenario, load_scenario_text, parse_reply, translate
from toolchoice.providers.core.model import ProviderError, Reply, ToolCall, ToolchoiceError, Usage
from toolchoice.providers.core.parsing import make_call
from toolchoice.providers.core.verdict import (CATEGORIES, aggregate, argument_errors, offered_tools, percentile,
                                          verdict, wilson)

ROOT = Path(__file__).parent.parent
RESPONSES = Path(__file__).parent / "data" / "responses"

TOOLS = """
tools:
  - name: get_weather
    parameters:
      type: object
      properties:
        city: {type: string}
        state: {type: string, minLength: 2, maxLength: 2}
      required: [city, state]
      additionalProperties: false
  - name: get_stock_price
    parameters:
      type: object
      properties: {ticker: {type: string}, exchange: {type: string, enum: [NASDAQ, NYSE]}}
      required: [ticker, exchange]
messages:
  - {role: user, content: "Weather in SF?"}
"""


def scenario(extra: str = ""):
    return load_scenario_text(TOOLS + extra, "test.yaml")


def recorded(provider: str, stem: str) -> Reply:
    return parse_reply(provider, json.loads((RESPONSES / provider / f"{stem}.json").read_text()))


WEATHER = recorded("openai", "openai-chat-single-strict")  # get_weather {"city": "San Francisco", "state": "CA"}
TEXT = Reply(text="It is sunny.", finish_reason="stop", usage=Usage(9, 12))


def call(name: str, arguments) -> Reply:
    return Reply(tool_calls=(make_call("c1", name, arguments),), finish_reason="tool_calls")


def judge(extra: str, reply: Reply, provider: str | None = None):
    sc = scenario(extra)
    return verdict(sc, reply, translate(provider, sc) if provider else None)


# ---- each category ---------------------------------------------------------------------------


def test_obeyed_named_call_with_valid_arguments():
    v = judge("tool_choice: get_weather\n", WEATHER, "openai")
    assert v["category"] == "obeyed" and v["obeyed"] is True and v["enforced"] is True
    assert v["calls"] == [{"name": "get_weather", "offered": True, "valid": True, "errors": []}]


def test_error_comes_first():
    v = judge("tool_choice: required\n", Reply(error=ProviderError(429, "rate_limit_error", "slow down")), "openai")
    assert v == {"obeyed": False, "category": "error", "reasons": ["openai: 429 rate_limit_error: slow down"],
                 "enforced": True, "calls": []}


def test_phantom_tool_beats_every_other_category():
    v = judge("tool_choice: none\nparallel_tool_calls: false\n", call("delete_everything", "{}"), "openai")
    assert v["category"] == "phantom_tool"
    assert v["reasons"] == ["called 'delete_everything', which was not offered (offered: get_weather, get_stock_price)"]


def test_wrong_tool_for_a_named_choice():
    v = judge("tool_choice: get_stock_price\n", WEATHER, "openai")
    assert v["category"] == "wrong_tool"
    assert v["reasons"] == ["tool_choice {tool: get_stock_price} forces 'get_stock_price', but the reply called "
                            "'get_weather'"]


def test_wrong_tool_outside_the_allowed_subset():
    v = judge("tool_choice: {allowed: [get_stock_price], mode: required}\n", WEATHER, "openai")
    assert v["category"] == "wrong_tool"
    assert "'get_weather' is outside the allowed subset" in v["reasons"][0]
    ok = judge("tool_choice: {allowed: [get_weather], mode: auto}\n", WEATHER, "openai")
    assert ok["category"] == "obeyed"


def test_unwanted_call_with_none():
    v = judge("tool_choice: none\n", WEATHER, "openai")
    assert v["category"] == "unwanted_call"
    assert v["reasons"] == ["tool_choice none, but the reply called 'get_weather'"]


@pytest.mark.parametrize("choice", ["required", "any", "true", "get_weather",
                                    "{allowed: [get_weather], mode: required}"])
def test_no_call_when_a_call_was_forced(choice):
    v = judge(f"tool_choice: {choice}\n", TEXT, "openai")
    assert v["category"] == "no_call"
    assert "requires a tool call, but the reply made none and answered in text (12 chars); finish_reason stop" \
        in v["reasons"][0]


@pytest.mark.parametrize("choice", ["auto", "none", "{allowed: [get_weather], mode: auto}"])
def test_text_is_fine_when_no_call_was_forced(choice):
    assert judge(f"tool_choice: {choice}\n", TEXT, "openai")["category"] == "obeyed"


def test_text_is_fine_without_tool_choice():
    v = judge("", TEXT, "openai")
    assert v["category"] == "obeyed" and v["reasons"] == ["tool_choice not set: answered without a tool call"]


def test_too_many_calls_when_parallel_is_off():
    parallel = recorded("openai", "openai-chat-parallel")  # GetWeatherArgs + get_stock_price
    sc = load_scenario_text("""
tools:
  - {name: GetWeatherArgs, parameters: {type: object, properties: {city: {type: string}}}}
  - {name: get_stock_price, parameters: {type: object, properties: {ticker: {type: string}}}}
tool_choice: required
parallel_tool_calls: false
""")
    v = verdict(sc, parallel, translate("openai", sc))
    assert v["category"] == "too_many_calls"
    assert v["reasons"] == ["parallel_tool_calls false, but the reply made 2 calls (GetWeatherArgs, get_stock_price)"]
    assert verdict(sc._replace(parallel_tool_calls=True), parallel)["category"] == "obeyed"


def test_invalid_arguments_list_every_error_with_its_json_path():
    bad = call("get_weather", {"city": 7, "state": "California", "zip": "94103"})
    v = judge("tool_choice: get_weather\n", bad, "openai")
    assert v["category"] == "invalid_arguments" and not v["obeyed"]
    assert v["reasons"] == [
        "get_weather: $: Additional properties are not allowed ('zip' was unexpected)",
        "get_weather: $.city: 7 is not of type 'string'",
        "get_weather: $.state: 'California' is too long",
    ]
    assert v["calls"][0]["valid"] is False


def test_missing_required_and_enum_errors():
    reply = call("get_stock_price", '{"ticker": "AAPL", "exchange": "LSE"}')
    v = judge("tool_choice: get_stock_price\n", reply)
    assert v["reasons"] == ["get_stock_price: $.exchange: 'LSE' is not one of ['NASDAQ', 'NYSE']"]
    assert judge("", call("get_weather", {}))["reasons"] == [
        "get_weather: $: 'city' is a required property", "get_weather: $: 'state' is a required property"]


def test_undecodable_arguments_are_invalid():
    v = judge("tool_choice: required\n", call("get_weather", '{"city": "SF",'), "openai")
    assert v["category"] == "invalid_arguments"
    assert v["reasons"][0].startswith("get_weather: $: arguments could not be decoded (invalid JSON:")


def test_a_broken_tool_schema_is_reported_but_not_blamed_on_the_model():
    # a scenario file with such a schema is refused when read (issue 29); a program can still build one
    with pytest.raises(ToolchoiceError, match="not a valid JSON Schema"):
        load_scenario_text("tools:\n  - {name: t, parameters: {type: object, properties: {a: {type: 12}}}}\n")
    sc = load_scenario_text("tools:\n  - {name: t, parameters: {type: object}}\n")
    broken = sc.tools[0]._replace(parameters={"type": "object", "properties": {"a": {"type": 12}}})
    sc = sc._replace(tools=(broken,))
    v = verdict(sc, call("t", {"a": 1}))
    assert v["category"] == "obeyed"
    assert v["calls"][0]["errors"][0].startswith("schema: the tool's own schema is invalid")


def test_empty_arguments_for_a_tool_without_parameters():
    sc = load_scenario_text("tools:\n  - {name: ping}\ntool_choice: ping\n")
    assert verdict(sc, call("ping", ""), translate("openai", sc))["category"] == "obeyed"


def test_every_category_is_reachable_and_ordered():
    assert CATEGORIES == ("error", "phantom_tool", "wrong_tool", "unwanted_call", "no_call", "too_many_calls",
                          "invalid_arguments", "obeyed")


# ---- the required trap and offered tools -----------------------------------------------------


def test_required_trap_calling_the_history_tool_is_a_phantom():
    trap = load_scenario(ROOT / "configs" / "planner-trap.yaml")
    body = json.loads((RESPONSES / "openai" / "openai-chat-single-strict.json").read_text())
    # the recorded body, with the call renamed to the history tool the trap is about
    body["choices"][0]["message"]["tool_calls"][0]["function"] = {"name": "read_file",
                                                                  "arguments": '{"path": "config.py"}'}
    v = verdict(trap, parse_reply("openai", body), translate("openai", trap))
    assert v["category"] == "phantom_tool"
    assert v["reasons"] == ["called 'read_file', which was not offered (offered: plan_tool_call); "
                            "it appears in the conversation history"]


def test_a_tool_filtered_out_of_the_request_is_not_offered():
    # Cohere has no named tool_choice: only get_stock_price is sent, with REQUIRED (cohere translator)
    sc = scenario("tool_choice: get_stock_price\n")
    t = translate("cohere", sc)
    assert offered_tools(t, sc) == ("get_stock_price",)
    v = verdict(sc, WEATHER, t)
    assert v["category"] == "phantom_tool" and v["enforced"] is False
    assert v["reasons"][0] == ("called 'get_weather', which was not offered (offered: get_stock_price); "
                               "it is declared in the scenario but was left out of the request")
    assert v["reasons"][-1].startswith("the provider could not enforce this tool_choice (judged against the "
                                       "request's intent): ")


def test_unenforceable_choice_is_judged_by_intent_and_says_so():
    sc = scenario("tool_choice: required\n")
    t = translate("ollama", sc)  # no tool_choice field at all: tool_choice.ignored
    assert "tool_choice.ignored" in [e.code for e in t.ledger]
    v = verdict(sc, recorded("ollama", "ollama-native-object-arguments"), t)
    assert v["enforced"] is False
    no_call = verdict(sc, TEXT, t)
    assert no_call["category"] == "no_call" and no_call["enforced"] is False
    assert "could not enforce" in no_call["reasons"][-1]


def test_none_emulated_by_leaving_tools_out_makes_any_call_a_phantom():
    sc = scenario("tool_choice: none\n")
    t = translate("ollama", sc)
    assert offered_tools(t, sc) == ()
    assert verdict(sc, WEATHER, t)["category"] == "phantom_tool"


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "anthropic", "gemini", "bedrock", "cohere",
                                      "ollama", "mistral", "huggingface"])
def test_offered_tools_are_read_from_every_request_shape(provider):
    sc = load_scenario(ROOT / "configs" / "weather.yaml")
    assert offered_tools(translate(provider, sc), sc) == ("get_weather", "get_time")


def test_without_a_translation_the_scenario_tools_are_offered():
    sc = scenario()
    assert offered_tools(None, sc) == ("get_weather", "get_stock_price")


def test_argument_errors_for_unknown_tool_is_empty():
    assert argument_errors(None, ToolCall("1", "x", {"a": 1})) == []


# ---- the tally -----------------------------------------------------------------------------


def test_wilson_interval_matches_reference_values():
    # reference: scipy.stats.binomtest(k, n).proportion_ci(method="wilson") (scipy 1.17)
    for (k, n), (low, high) in {(15, 20): (0.5312991223812561, 0.8881382985923344),
                                (0, 10): (0.0, 0.27753279986288926),
                                (20, 20): (0.8388748419471808, 1.0),
                                (1, 3): (0.06149194472039626, 0.7923403991979523)}.items():
        got = wilson(k, n)
        assert got == pytest.approx((low, high), abs=1e-9)
    assert wilson(0, 0) == (0.0, 1.0)


def test_percentiles_interpolate_linearly():
    # reference: numpy.percentile(range(1, 11), [50, 95]) -> [5.5, 9.55]
    values = [float(v) for v in range(10, 0, -1)]
    assert percentile(values, 50) == pytest.approx(5.5)
    assert percentile(values, 95) == pytest.approx(9.55)
    assert percentile([42.0], 95) == 42.0 and percentile([], 50) is None


def test_aggregate_counts_rates_latency_and_tokens():
    def result(category, latency, tokens):
        return {"verdict": {"category": category}, "latency_ms": latency,
                "reply": {"usage": {"input_tokens": tokens[0], "output_tokens": tokens[1]}}}

    results = ([result("obeyed", 100.0 + i, (10, 5)) for i in range(15)]
               + [result("phantom_tool", 200.0, (10, 7)) for _ in range(4)]
               + [result("error", 5000.0, (None, None))])
    data = aggregate(results)
    assert data["samples"] == 20
    assert data["counts"] == {"error": 1, "phantom_tool": 4, "wrong_tool": 0, "unwanted_call": 0, "no_call": 0,
                              "too_many_calls": 0, "invalid_arguments": 0, "obeyed": 15}
    assert data["rates"]["obeyed"] == pytest.approx({"rate": 0.75, "low": 0.5312991223812561,
                                                     "high": 0.8881382985923344})
    assert data["latency_ms"]["n"] == 19  # the error's latency is not a model latency
    assert data["latency_ms"]["p50"] == pytest.approx(109.0)
    assert data["tokens"] == {"input_total": 190, "output_total": 103, "input_mean": 10.0,
                              "output_mean": pytest.approx(103 / 19)}


def test_offered_tools_join_the_translator_list_and_the_body():
    from toolchoice.providers.core.model import Request, Translation

    # an Anthropic-shaped tools list (tools[].name, anthropic ToolParam), e.g. one merged from extra
    request = Request("POST", "http://x", {}, {"tools": [{"name": "from_extra"}, {"name": "b"}]})
    t = Translation("anthropic", None, None, request, [], offered_tools=("b", "c"))
    assert offered_tools(t, scenario()) == ("b", "c", "from_extra")
    refused = Translation("x", None, None, None, [], offered_tools=("c",))
    assert offered_tools(refused, scenario()) == ("c",)


# ---- each schema checked once ------------------------------------------------------------------


@pytest.fixture
def metaschema_checks(monkeypatch):
    """Every check of a tool schema against its metaschema, counted (the cache starts empty)."""
    from jsonschema import validators

    from toolchoice.providers.core import verdict as verdict_module

    monkeypatch.setattr(verdict_module, "_CHECKED", {})
    checked: list[object] = []
    cls = validators.validator_for({})
    original = cls.check_schema.__func__

    def counting(klass, schema, *args, **kwargs):
        checked.append(schema)
        return original(klass, schema, *args, **kwargs)

    monkeypatch.setattr(cls, "check_schema", classmethod(counting))
    return checked


def test_each_schema_is_checked_once_however_many_replies_are_judged(metaschema_checks):
    sc = scenario()
    bad = call("get_weather", {"city": "San Francisco", "state": "California"})
    verdicts = [verdict(sc, WEATHER) for _ in range(5)] + [verdict(sc, bad) for _ in range(5)]
    assert [v["category"] for v in verdicts] == ["obeyed"] * 5 + ["invalid_arguments"] * 5
    assert all(v["reasons"] == ["get_weather: $.state: 'California' is too long"] for v in verdicts[5:])
    assert len(metaschema_checks) == 1
    verdict(scenario(), WEATHER)  # the same schema, loaded again into new objects
    assert len(metaschema_checks) == 1


def test_the_cache_follows_the_schema_not_the_tool_name(metaschema_checks):
    three = TOOLS.replace("minLength: 2, maxLength: 2", "minLength: 2, maxLength: 3")
    reply = call("get_weather", {"city": "Paris", "state": "IDF"})
    assert verdict(scenario(), reply)["category"] == "invalid_arguments"
    assert verdict(load_scenario_text(three, "test.yaml"), reply)["category"] == "obeyed"
    assert verdict(scenario(), reply)["category"] == "invalid_arguments"
    assert len(metaschema_checks) == 2


def test_an_invalid_schema_is_reported_on_every_call_and_checked_once(metaschema_checks):
    from toolchoice.providers.core.model import Tool

    tool = Tool("get_weather", parameters={"type": "object", "properties": {"city": {"type": 12}}})
    first, second = (argument_errors(tool, make_call("c1", "get_weather", {"city": "x"})) for _ in range(2))
    assert first == second and len(first) == 1
    assert first[0].startswith("schema: the tool's own schema is invalid (12 is not valid under any of")
    assert len(metaschema_checks) == 1


def test_prepare_tools_checks_ahead_so_judging_only_validates(metaschema_checks):
    from toolchoice.providers.core.verdict import prepare_tools

    sc = scenario()
    prepare_tools(sc.tools)
    assert len(metaschema_checks) == 2
    assert verdict(sc, WEATHER)["category"] == "obeyed"
    assert len(metaschema_checks) == 2


def test_a_schema_changed_in_place_after_judging_leaves_the_cache_right(metaschema_checks):
    from toolchoice.providers.core.model import Tool

    def schema(max_length: int) -> dict:
        return {"type": "object", "properties": {"state": {"type": "string", "maxLength": max_length}}}

    args = make_call("c1", "t", {"state": "IDF"})
    changing = schema(2)
    assert argument_errors(Tool("t", parameters=changing), args) == ["$.state: 'IDF' is too long"]
    changing["properties"]["state"]["maxLength"] = 3
    assert argument_errors(Tool("t", parameters=changing), args) == []
    assert argument_errors(Tool("t", parameters=schema(2)), args) == ["$.state: 'IDF' is too long"]
