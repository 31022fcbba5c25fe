"""AWS Bedrock Converse: exact wire JSON per neutral tool_choice, none and the history rule, URL,
thinking, ledger, parser.

Expected wire values come from botocore's ``data/bedrock-runtime/2023-09-30/service-2.json`` and
AWS's docs, not from our output:
- operation Converse: ``POST /model/{modelId}/converse``; metadata auth ``aws.auth#sigv4`` and
  ``smithy.api#httpBearerAuth`` (Bedrock API keys: ``Authorization: Bearer``).
- ``ToolConfiguration {tools (required), toolChoice}``; ``ToolChoice`` union ``auto {}`` | ``any {}``
  | ``tool {name}`` — no none; ``tool`` "Only supported by Anthropic Claude 3 and Amazon Nova models".
- ``Tool {toolSpec}``, ``ToolSpecification {name, description (NonEmptyString), inputSchema {json},
  strict}``; ``ToolInputSchema``: "The top level schema type must be object".
- ``ToolUseBlock {toolUseId, name, input}``; ``ToolResultBlock {toolUseId, content, status}`` with
  status ``success|error`` "only supported by Amazon Nova and Anthropic Claude 3 and 4 models";
  ``ToolResultContentBlock`` union ``json | text | ...``.
- ``SystemContentBlock {text}``, ``InferenceConfiguration {maxTokens, temperature}``,
  ``additionalModelRequestFields`` (Document).
- the toolConfig-with-history rule: 400 "The toolConfig field must be defined when using toolUse
  and toolResult content blocks." (langgenius/dify#17545, elastic/kibana#246943).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolchoice.providers import bedrock
from toolchoice.providers.core.capabilities import CAPABILITIES, Level, Support
from toolchoice.providers.core.model import RenderOptions, ToolchoiceError
from toolchoice.providers.core.scenario import load_scenario_text

DATA = Path(__file__).parent / "data" / "responses" / "bedrock"
CAP = CAPABILITIES["bedrock"]
CLAUDE = "anthropic.claude-3-5-sonnet-20240620-v1:0"
MISTRAL = "mistral.mistral-large-2402-v1:0"
SONNET4 = "us.anthropic.claude-sonnet-4-20250514-v1:0"  # extended thinking exists from Claude 3.7 on

TOOLS = [
    {"name": "get_weather", "description": "Current weather for a city.",
     "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    {"name": "get_time", "description": "Current local time.",
     "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}},
]
WEATHER = {"toolSpec": {"name": "get_weather", "description": "Current weather for a city.", "inputSchema": {
    "json": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}}
TIME = {"toolSpec": {"name": "get_time", "description": "Current local time.", "inputSchema": {
    "json": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}}}}
USER = {"role": "user", "content": [{"text": "Weather in Paris?"}]}
ABSENT = object()

HISTORY = [
    {"role": "user", "content": "Weather in Paris and Tokyo?"},
    {"role": "assistant", "content": "Checking both.",
     "tool_calls": [{"id": "tooluse_1", "name": "get_weather", "arguments": {"city": "Paris"}},
                    {"id": "tooluse_2", "name": "get_weather", "arguments": {"city": "Tokyo"}}]},
    {"role": "tool", "tool_call_id": "tooluse_1", "content": {"temp_c": 18}},
    {"role": "tool", "tool_call_id": "tooluse_2", "content": "timeout", "is_error": True},
    {"role": "user", "content": "Summarize."},
]


def scenario(choice: Any = ABSENT, *, tools: Any = TOOLS, messages: Any = None, settings: dict[str, Any] | None = None,
             model: str = CLAUDE, **top: Any):
    data: dict[str, Any] = {}
    if tools is not None:
        data["tools"] = tools
    if choice is not ABSENT:
        data["tool_choice"] = choice
    data.update(top)
    data["messages"] = messages if messages is not None else [{"role": "user", "content": "Weather in Paris?"}]
    data["providers"] = {"bedrock": {"model": model, "region": "us-west-2", **(settings or {})}}
    return load_scenario_text(json.dumps(data), "test.yaml")


def render(choice: Any = ABSENT, options: RenderOptions = RenderOptions(), cap=CAP, **kw):
    return bedrock.translate("bedrock", scenario(choice, **kw), options, cap)


def codes(translation) -> list[str]:
    return [e.code for e in translation.ledger]


def entry(translation, code: str):
    found = [e for e in translation.ledger if e.code == code]
    assert found, f"{code} not in {codes(translation)}"
    return found[0]


# ---- toolChoice on the wire ----------------------------------------------------------------

CHOICES = [
    # (scenario tool_choice, expected toolConfig or ABSENT)
    ("auto", {"tools": [WEATHER, TIME], "toolChoice": {"auto": {}}}),
    ("none", ABSENT),  # no none in the ToolChoice union: the tools are left out
    ("required", {"tools": [WEATHER, TIME], "toolChoice": {"any": {}}}),
    ("any", {"tools": [WEATHER, TIME], "toolChoice": {"any": {}}}),
    (True, {"tools": [WEATHER, TIME], "toolChoice": {"any": {}}}),
    (False, {"tools": [WEATHER, TIME]}),  # not specified: no toolChoice, Bedrock's default (auto)
    (None, {"tools": [WEATHER, TIME]}),
    ("get_weather", {"tools": [WEATHER, TIME], "toolChoice": {"tool": {"name": "get_weather"}}}),
    ({"allowed": ["get_weather"], "mode": "auto"}, {"tools": [WEATHER], "toolChoice": {"auto": {}}}),
    ({"allowed": ["get_weather"], "mode": "required"}, {"tools": [WEATHER], "toolChoice": {"any": {}}}),
]


@pytest.mark.parametrize(("choice", "config"), CHOICES, ids=[json.dumps(c[0]) for c in CHOICES])
def test_tool_choice_wire(choice, config):
    t = render(choice)
    assert t.request is not None
    expected: dict[str, Any] = {"messages": [USER]}
    if config is not ABSENT:
        expected["toolConfig"] = config
    assert t.request.body == expected
    assert t.effective_tool_choice == (None if config is ABSENT else config.get("toolChoice"))


def test_none_without_history_leaves_tools_out_with_a_warning():
    t = render("none")
    assert entry(t, "tool_choice.emulated").severity == "warning"
    assert entry(t, "tool_choice.mapped").message == "tool_choice none → toolConfig omitted"
    assert t.offered_tools == ()


def test_none_with_tool_history_keeps_tool_config_without_tool_choice():
    t = render("none", messages=HISTORY)
    assert t.request.body["toolConfig"] == {"tools": [WEATHER, TIME]}
    e = entry(t, "tool_choice.none_unenforced")
    assert e.severity == "warning" and "toolConfig field must be defined" in e.message
    assert t.offered_tools == ("get_weather", "get_time")


def test_none_with_tool_history_and_no_emulation_is_refused():
    t = render("none", messages=HISTORY, options=RenderOptions(emulate=False))
    assert t.refused and "tool_choice.unsupported" in codes(t)


def test_tool_history_without_tools_is_refused():
    t = render(tools=None, messages=HISTORY)
    assert t.refused
    assert entry(t, "history.tool_config_required").severity == "error"


def test_parallel_false_cannot_be_sent():
    t = render("auto", parallel_tool_calls=False)
    assert t.request.body == {"messages": [USER], "toolConfig": {"tools": [WEATHER, TIME], "toolChoice": {"auto": {}}}}
    assert entry(t, "parallel.unsupported").severity == "warning"


@pytest.mark.parametrize(("model", "warned"), [
    (CLAUDE, False), ("us.anthropic.claude-sonnet-4-20250514-v1:0", False), ("amazon.nova-pro-v1:0", False),
    (MISTRAL, True), ("meta.llama3-1-70b-instruct-v1:0", True)])
def test_named_choice_model_support(model, warned):
    t = render("get_weather", model=model)
    assert t.request.body["toolConfig"]["toolChoice"] == {"tool": {"name": "get_weather"}}
    assert ("tool_choice.model_support" in codes(t)) == warned


@pytest.mark.parametrize("model", ["some.unknown-model-v1", MISTRAL])
def test_named_choice_on_an_unknown_model_says_unknown_and_no_rule_applied(model):
    """No family rule knows the model: the ledger says so once, and the "other families" rule, which refuses and
    changes nothing, is not reported as applied (it was: model_rule.unknown beside rule.applied for the same model).
    The documented limit stays a warning (botocore ToolChoice.tool: 'only supported by Anthropic Claude 3 and Amazon
    Nova models'), and the request keeps the named choice."""
    t = render("get_weather", model=model)
    assert t.request.body["toolConfig"]["toolChoice"] == {"tool": {"name": "get_weather"}}
    assert "model_rule.unknown" in codes(t)
    assert "rule.applied" not in codes(t)
    warning = entry(t, "tool_choice.model_support")
    assert warning.severity == "warning" and model in warning.message and "Claude 3" in warning.message


def test_named_choice_override_is_reported_as_applied():
    """The user's own rule decides: that one is cited as applied."""
    t = render("get_weather", model="some.unknown-model-v1", settings={"rules": {"named_tool_choice": False}})
    assert "your override" in entry(t, "rule.applied").message
    assert entry(t, "tool_choice.model_support").severity == "warning"


def test_allowed_overlay_has_no_wire_form():
    cap = CAP.with_feature("allowed", Support(Level.NATIVE, "?"))
    t = render({"allowed": ["get_weather"], "mode": "auto"}, cap=cap)
    assert t.refused and entry(t, "tool_choice.unsupported").severity == "error"


# ---- URL, headers, settings ----------------------------------------------------------------


def test_url_and_headers():
    t = render("auto")
    assert t.request.method == "POST"
    # modelId URL-encoded: ':' → %3A
    assert t.request.url == ("https://bedrock-runtime.us-west-2.amazonaws.com/model/"
                             "anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse")
    assert t.request.headers == {"Content-Type": "application/json",
                                 "Authorization": "Bearer $AWS_BEARER_TOKEN_BEDROCK"}
    assert t.request.key_env == ("AWS_BEARER_TOKEN_BEDROCK",)
    assert "region.default" not in codes(t)


def test_default_region_and_arn_model():
    arn = "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-7-sonnet-20250219-v1:0"
    sc = load_scenario_text(json.dumps({"tools": TOOLS, "messages": [{"role": "user", "content": "hi"}],
                                        "providers": {"bedrock": {"model": arn}}}), "t.yaml")
    t = bedrock.translate("bedrock", sc, RenderOptions(), CAP)
    assert t.request.url == ("https://bedrock-runtime.us-east-1.amazonaws.com/model/arn%3Aaws%3Abedrock%3Aus-east-1"
                             "%3A123456789012%3Ainference-profile%2Fus.anthropic.claude-3-7-sonnet-20250219-v1%3A0"
                             "/converse")
    assert entry(t, "region.default").severity == "info"


@settings(max_examples=300, deadline=None)
@given(st.from_regex(r"[A-Za-z0-9_.~:-]*", fullmatch=True) | st.text())
def test_model_path_is_one_fully_quoted_path_segment(model: str) -> None:
    """The fast path for usual model ids gives exactly what urllib's quote(model, safe="") gives."""
    assert bedrock._model_path(model) == quote(model, safe="")


def test_base_url_override():
    t = render("auto", settings={"base_url": "http://localhost:4566"})
    assert t.request.url == "http://localhost:4566/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse"


def test_system_inference_strict_and_empty_parameters():
    tools = [dict(TOOLS[0], strict=True), {"name": "ping"}]
    t = render("auto", tools=tools, system="Be brief.", settings={"max_tokens": 300, "temperature": 0.2})
    assert t.request.body == {
        "messages": [USER],
        "system": [{"text": "Be brief."}],
        "inferenceConfig": {"maxTokens": 300, "temperature": 0.2},
        "toolConfig": {"tools": [{"toolSpec": dict(WEATHER["toolSpec"], strict=True)},
                                 {"toolSpec": {"name": "ping", "inputSchema": {"json": {"type": "object",
                                                                                         "properties": {}}}}}],
                       "toolChoice": {"auto": {}}}}


def test_blank_system_and_description_are_left_out():
    t = render("auto", tools=[{"name": "ping", "description": ""}], system=" ")
    assert "system" not in t.request.body
    assert t.request.body["toolConfig"]["tools"] == [
        {"toolSpec": {"name": "ping", "inputSchema": {"json": {"type": "object", "properties": {}}}}}]
    assert {"system.empty_dropped", "tool.description_dropped"} <= set(codes(t))


def test_missing_schema_type_is_added():
    t = render("auto", tools=[{"name": "q", "parameters": {"properties": {"s": {"type": "string"}}}}])
    assert t.request.body["toolConfig"]["tools"][0]["toolSpec"]["inputSchema"] == {
        "json": {"type": "object", "properties": {"s": {"type": "string"}}}}
    assert "schema.type_added" in codes(t)


def test_invalid_tool_name_refused():
    t = render("auto", tools=[{"name": "get weather"}])
    assert t.refused and "tool.name_invalid" in codes(t)


# ---- history -------------------------------------------------------------------------------


def test_history_encoding_claude():
    t = render("auto", messages=HISTORY)
    assert t.request.body["messages"] == [
        {"role": "user", "content": [{"text": "Weather in Paris and Tokyo?"}]},
        {"role": "assistant", "content": [
            {"text": "Checking both."},
            {"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather", "input": {"city": "Paris"}}},
            {"toolUse": {"toolUseId": "tooluse_2", "name": "get_weather", "input": {"city": "Tokyo"}}}]},
        {"role": "user", "content": [
            {"toolResult": {"toolUseId": "tooluse_1", "content": [{"json": {"temp_c": 18}}], "status": "success"}},
            {"toolResult": {"toolUseId": "tooluse_2", "content": [{"text": "timeout"}], "status": "error"}},
            {"text": "Summarize."}]},
    ]
    assert entry(t, "history.merged").severity == "info"
    assert "{json}" in entry(t, "history.tool_result_format").message


def test_history_status_only_for_claude_and_nova():
    t = render("auto", messages=HISTORY, model=MISTRAL)
    results = [b["toolResult"] for b in t.request.body["messages"][2]["content"] if "toolResult" in b]
    assert all("status" not in r for r in results)
    e = entry(t, "history.status_dropped")
    assert e.severity == "warning" and "tooluse_2" in e.message


def test_non_object_json_result_goes_as_text():
    messages = [HISTORY[0], dict(HISTORY[1], tool_calls=HISTORY[1]["tool_calls"][:1]),
                {"role": "tool", "tool_call_id": "tooluse_1", "content": [1, 2]}]
    t = render("auto", messages=messages)
    assert t.request.body["messages"][2]["content"] == [
        {"toolResult": {"toolUseId": "tooluse_1", "content": [{"text": "[1, 2]"}], "status": "success"}}]


def test_missing_tool_result_is_refused():
    t = render("auto", messages=HISTORY[:3] + HISTORY[4:])
    assert t.refused and "tooluse_2" in entry(t, "history.missing_tool_result").message


def test_blank_texts():
    t = render("auto", messages=[{"role": "user", "content": ""}])
    assert t.refused and entry(t, "history.blank_text").severity == "error"
    t = render("auto", messages=[HISTORY[0], dict(HISTORY[1], content=" "), *HISTORY[2:]])
    assert t.request.body["messages"][1]["content"][0] == {
        "toolUse": {"toolUseId": "tooluse_1", "name": "get_weather", "input": {"city": "Paris"}}}
    assert "history.blank_text_dropped" in codes(t)


# ---- thinking ------------------------------------------------------------------------------


def test_thinking_for_claude():
    t = render("auto", model=SONNET4, settings={"thinking": True})
    assert t.request.body["additionalModelRequestFields"] == {"thinking": {"type": "enabled", "budget_tokens": 1024}}
    assert t.request.body["inferenceConfig"] == {"maxTokens": 2048}
    assert {"thinking.budget", "max_tokens.default"} <= set(codes(t))


@pytest.mark.parametrize("choice", ["required", True, "get_weather", {"allowed": ["get_weather"], "mode": "required"}])
def test_thinking_with_forced_choice_is_refused(choice):
    t = render(choice, model=SONNET4, settings={"thinking": True})
    assert t.refused
    e = entry(t, "thinking.forced_choice")
    assert e.severity == "error" and "thinking: false" in e.message


def test_thinking_other_rules():
    assert "thinking.temperature" in codes(render("auto", model=SONNET4, settings={"thinking": True,
                                                                                   "temperature": 0.5}))
    assert "thinking.max_tokens" in codes(render("auto", model=SONNET4, settings={"thinking": True, "max_tokens": 800}))
    assert "thinking.tool_history" in codes(render("auto", model=SONNET4, messages=HISTORY[:4],
                                                   settings={"thinking": True}))


@pytest.mark.parametrize("model", [MISTRAL, CLAUDE, "amazon.nova-pro-v1:0"])
def test_thinking_not_sent_for_other_models(model):
    t = render("required", model=model, settings={"thinking": True})
    assert not t.refused and "additionalModelRequestFields" not in t.request.body
    assert "inferenceConfig" not in t.request.body
    assert entry(t, "thinking.unsupported_model").severity == "warning"


# ---- every module ledger code is emitted by some scenario ----------------------------------

TRIGGERS: dict[str, dict[str, Any]] = {
    "strict.mapped": {"tools": [{"name": "x", "parameters": {"type": "object"}, "strict": True}]},
    "strict.model_refused": {"tools": [{"name": "x", "parameters": {"type": "object"}, "strict": True}],
                       "model": "us.anthropic.claude-sonnet-5"},
    "tool_choice.model_refused": {"choice": "any", "model": "anthropic.claude-fable-5"},
    "region.default": {"settings": {"region": None}},
    "tool_choice.none_unenforced": {"choice": "none", "messages": HISTORY},
    "tool_choice.model_support": {"choice": "get_weather", "model": MISTRAL},
    "history.tool_config_required": {"tools": None, "messages": HISTORY},
    "history.merged": {"messages": HISTORY},
    "history.missing_tool_result": {"messages": HISTORY[:2]},
    "history.blank_text": {"messages": [{"role": "user", "content": "\n"}]},
    "history.blank_text_dropped": {"messages": [HISTORY[0], dict(HISTORY[1], content=""), *HISTORY[2:]]},
    "history.tool_result_format": {"messages": HISTORY},
    "history.status_dropped": {"messages": HISTORY, "model": MISTRAL},
    "thinking.adaptive": {"model": "anthropic.claude-opus-4-7", "settings": {"thinking": True}},
    "thinking.effort": {"model": "anthropic.claude-opus-4-7", "settings": {"thinking": {"effort": "high"}}},
    "thinking.form": {"model": SONNET4, "settings": {"thinking": "adaptive"}},
    "thinking.always_on": {"model": "anthropic.claude-fable-5", "settings": {"thinking": False}},
    "thinking.disabled_for_choice": {"model": "anthropic.claude-sonnet-5", "choice": "any",
                                     "settings": {"rules": {"forced_choice_with_adaptive": False}}},
    "thinking.between_tools": {"model": "anthropic.claude-sonnet-5-5", "settings": {"thinking": False}},
    "thinking.disabled_effort": {"model": "anthropic.claude-opus-5", "settings": {"thinking": {"type": "disabled",
                                                                                              "effort": "xhigh"}}},
    "thinking.budget": {"model": SONNET4, "settings": {"thinking": True}},
    "thinking.forced_choice": {"model": SONNET4, "choice": "any", "settings": {"thinking": True}},
    "model_rule.unstated": {"model": "anthropic.claude-mythos-5-2-v1:0", "choice": "any"},
    "thinking.temperature": {"model": SONNET4, "settings": {"thinking": True, "temperature": 0}},
    "thinking.max_tokens": {"model": SONNET4, "settings": {"thinking": True, "max_tokens": 1024}},
    "thinking.tool_history": {"model": SONNET4, "messages": HISTORY[:4], "settings": {"thinking": True}},
    "thinking.unsupported_model": {"model": "amazon.nova-pro-v1:0", "settings": {"thinking": True}},
    "max_tokens.default": {"model": SONNET4, "settings": {"thinking": True}},
    "schema.type_added": {"tools": [{"name": "x", "parameters": {"properties": {}}}]},
    "tool.description_dropped": {"tools": [{"name": "x", "description": ""}]},
    "system.empty_dropped": {"system": ""},
    "messages.empty": {"messages": []},
}


def test_trigger_table_covers_ledger_codes():
    assert set(TRIGGERS) == set(bedrock.LEDGER_CODES)


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_ledger_code_emitted(code):
    kw = dict(TRIGGERS[code])
    choice = kw.pop("choice", ABSENT)
    t = render(choice, **kw)
    assert code in codes(t)


# ---- parser --------------------------------------------------------------------------------


def _expect(path: Path) -> dict[str, Any]:
    return json.loads(path.with_name(path.stem + ".expect.json").read_text())


def _fixtures(kind: str) -> list[Path]:
    """Recorded bodies: ``reply`` for success bodies, ``error`` for those whose expect file says is_error."""
    bodies = [p for p in DATA.glob("*.json") if not p.name.endswith(".expect.json")]
    return sorted(p for p in bodies if _expect(p).get("is_error", False) == (kind == "error"))


@pytest.mark.parametrize("path", _fixtures("reply"), ids=lambda p: p.stem)
def test_parse_recorded_replies(path: Path):
    expect = _expect(path)
    raw = json.loads(path.read_text())
    reply = bedrock.parse_reply("bedrock", raw)
    assert [c.to_json() for c in reply.tool_calls] == expect["calls"]
    assert reply.text == expect["text"]
    assert reply.finish_reason == expect["finish_reason"]
    assert reply.usage.input_tokens == raw["usage"]["inputTokens"]
    assert reply.usage.output_tokens == raw["usage"]["outputTokens"]
    assert reply.error is None


@pytest.mark.parametrize("path", _fixtures("error"), ids=lambda p: p.stem)
def test_parse_recorded_errors(path: Path):
    expect = _expect(path)
    reply = bedrock.parse_reply("bedrock", json.loads(path.read_text()))
    assert reply.error is not None
    assert reply.error.message == expect["error_message"]
    assert reply.error.type is None  # ValidationException travels in the x-amzn-ErrorType header
    assert list(reply.tool_calls) == expect["calls"]


def test_parse_fixtures_exist():
    assert len(_fixtures("reply")) == 3 and len(_fixtures("error")) == 1


def test_parse_ignores_reasoning_blocks():
    reply = bedrock.parse_reply("bedrock", {"output": {"message": {"role": "assistant", "content": [
        {"reasoningContent": {"reasoningText": {"text": "hmm"}}}, {"text": "Hi"}]}}, "stopReason": "end_turn"})
    assert reply.text == "Hi" and reply.tool_calls == () and reply.finish_reason == "end_turn"


@pytest.mark.parametrize("bad", [[], "x", {}, {"output": []}, {"output": {"message": "x"}},
                                 {"output": {"message": {"content": {}}}},
                                 {"output": {"message": {"content": [1]}}},
                                 {"output": {"message": {"content": [{"toolUse": "x"}]}}},
                                 {"output": {"message": {"content": []}}, "stopReason": 1},
                                 {"output": {"message": {"content": []}}, "usage": 5}])
def test_parse_malformed_bodies_raise_toolchoice_error(bad):
    with pytest.raises(ToolchoiceError):
        bedrock.parse_reply("bedrock", bad)


# ---- the region is a host label, as botocore requires ----------------------------------------------------------

# botocore utils.py validate_region_name: "Provided region_name must be a valid host label." —
# re.compile(r'^(?![0-9]+$)(?!-)[a-zA-Z0-9-]{,63}(?<!-)$'), else InvalidRegionError.
REGIONS = ["us-west-2", "eu-central-1", "evil.example.com#", "x/y", "us-east-1.evil.com?", "123", "-us", "a" * 64]


@pytest.mark.parametrize("region", REGIONS)
def test_the_region_is_one_host_label_as_botocore_validates_it(region: str) -> None:
    from sdk_types import missing

    if missing("botocore"):
        pytest.skip("needs botocore")
    import httpx
    from botocore.exceptions import InvalidRegionError
    from botocore.utils import validate_region_name

    try:
        validate_region_name(region)
    except InvalidRegionError:
        with pytest.raises(ToolchoiceError, match="not a region"):
            render("auto", settings={"region": region})
        return
    t = render("auto", settings={"region": region})
    assert httpx.URL(t.request.url).host == f"bedrock-runtime.{region}.amazonaws.com"


# ---- toolSpec.strict per model: what AWS says, and nothing more (fact bedrock.strict_models) ---------------------

# docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-structured-outputs.html (read 2026-11-27): "You can use
# structured outputs with Claude Sonnet 4.5, Claude Haiku 4.5, Claude Opus 4.5, and Claude Opus 4.6 through the
# Converse API". userguide/structured-output.html names no other model ("To see which models support structured
# outputs, please go to models at a glance"), and no AWS source says Converse refuses or ignores strict elsewhere.
AWS_NAMED = {"anthropic.claude-sonnet-4-5-20250929-v1:0": "claude-sonnet-4-5",
             "us.anthropic.claude-haiku-4-5-20251001-v1:0": "claude-haiku-4-5",
             "anthropic.claude-opus-4-5-20251101-v1:0": "claude-opus-4-5",
             "global.anthropic.claude-opus-4-6-v1": "claude-opus-4-6"}
NOT_NAMED = ["amazon.nova-pro-v1:0", "us.meta.llama4-maverick-17b-instruct-v1:0", MISTRAL,
             "anthropic.claude-sonnet-4-6", "global.anthropic.claude-opus-5", "anthropic.claude-sonnet-5-5",
             "anthropic.claude-fable-5"]
# Converse's 400 for toolSpec.strict is recorded on these (fact bedrock.strict_refused, eleventh audit pass)
# InvokeModel's 400 (not Converse's) is recorded on these (fact bedrock.strict_invoke_refused, twelfth audit pass);
# the same recording shows Fable 5 and Opus 5 taking strict there (anthropic.claude-fable-5 stays in NOT_NAMED)
INVOKE_RECORDED = ["global.anthropic.claude-opus-5-5", "us.anthropic.claude-fable-5-1", "anthropic.claude-fable-5-1-v1:0"]
RECORDED_REFUSED = ["anthropic.claude-opus-4-7", "us.anthropic.claude-opus-4-8", "us.anthropic.claude-sonnet-5",
                    "eu.anthropic.claude-sonnet-5-20260601-v1:0"]


def _strict_render(model: str):
    return render("auto", tools=[dict(TOOLS[0], strict=True)], model=model)


def test_botocore_takes_strict_on_every_model_and_names_none() -> None:
    """The service model's ToolSpecification has strict with no model named: the request is valid on every id."""
    from sdk_types import missing

    if missing("botocore"):
        pytest.skip("needs botocore")
    from botocore.validate import ParamValidator

    from sdk_types import converse_input_shape

    spec = converse_input_shape().members["toolConfig"].members["tools"].member.members["toolSpec"]
    assert spec.members["strict"].documentation == ("<p>Flag to enable structured output enforcement on a tool usage "
                                                    "response.</p>")
    for model in [*AWS_NAMED, *NOT_NAMED]:
        body = _strict_render(model).request.body
        assert body["toolConfig"]["tools"][0]["toolSpec"]["strict"] is True
        assert ParamValidator().validate({**body, "modelId": model}, converse_input_shape()).generate_report() == ""


@pytest.mark.parametrize("model", sorted(AWS_NAMED))
def test_strict_on_a_model_aws_names_says_so(model: str) -> None:
    t = _strict_render(model)
    message = entry(t, "strict.mapped").message
    assert f"AWS names {AWS_NAMED[model]}" in message and "unsettled" not in message
    assert "claude-messages-structured-outputs" in message


@pytest.mark.parametrize("model", RECORDED_REFUSED)
def test_strict_on_a_model_whose_converse_400_is_recorded_is_warned_of_in_its_words(model: str) -> None:
    """litellm#31582 (Opus 4.7, 4.8) and #33193 (Sonnet 5, a live Converse test) record Converse's own words; the
    same recordings show Sonnet 4.6 and Opus 5 taking strict, which stay said unsettled (NOT_NAMED). Recorded 400s,
    no AWS reference read whole: a warning, and the request goes out as written (as DeepSeek's n)."""
    t = _strict_render(model)
    assert not t.refused and t.request.body["toolConfig"]["tools"][0]["toolSpec"]["strict"] is True
    assert "strict.mapped" not in codes(t)
    [said] = [e for e in t.ledger if e.code == "strict.model_refused"]
    assert said.severity == "warning"
    assert "'The model returned the following errors: tools.0.custom.strict: Extra inputs are not permitted'" in \
        said.message and "BerriAI/litellm#31582" in said.message
    assert "strict.model_refused" not in codes(render("auto", model=model))  # no strict tool: nothing said
    assert render("auto", tools=[dict(TOOLS[0], strict=True)], model=model,
                  options=RenderOptions(strict=True)).refused  # --strict refuses on the warning


@pytest.mark.parametrize("model", [*NOT_NAMED, *INVOKE_RECORDED])
def test_strict_on_another_model_is_sent_and_said_unsettled_never_dropped_or_refused(model: str) -> None:
    t = _strict_render(model)
    assert t.request.body["toolConfig"]["tools"][0]["toolSpec"]["strict"] is True
    [mapped] = [e for e in t.ledger if e.code == "strict.mapped"]
    assert mapped.severity == "info" and f"whether {model} enforces it is unsettled" in mapped.message
    assert not t.refused and not [e for e in t.ledger if e.severity == "error"]
    # InvokeModel's recorded 400 is named only for the models it was recorded on (fact bedrock.strict_invoke_refused)
    assert ("InvokeModel's 400 for it is recorded" in mapped.message) is (model in INVOKE_RECORDED)


@pytest.mark.parametrize("model", INVOKE_RECORDED)
def test_strict_where_only_invokemodels_400_is_recorded_stays_unsettled_on_converse_and_names_it(model: str) -> None:
    """lobehub/lobehub#19876 records 'tools.0.custom.strict: Extra inputs are not permitted' for Opus 5.5 and Fable
    5.1 through LobeHub's Bedrock runtime, whose source sends InvokeModel (a Messages body), not Converse: toolchoice
    sends Converse, so no warning is drawn from another API's answer; the info line names it beside the unsettled."""
    t = _strict_render(model)
    assert "strict.model_refused" not in codes(t)
    [mapped] = [e for e in t.ledger if e.code == "strict.mapped"]
    assert mapped.message.endswith("InvokeModel's 400 for it is recorded ('tools.0.custom.strict: Extra inputs are "
                                   "not permitted', lobehub/lobehub#19876 (2026-09-23, LobeHub's Bedrock runtime, "
                                   "which sends InvokeModel)), Converse's is not")
    assert not render("auto", tools=[dict(TOOLS[0], strict=True)], model=model,
                      options=RenderOptions(strict=True)).refused  # an info line: --strict sends it too
