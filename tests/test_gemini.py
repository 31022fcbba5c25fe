"""Gemini API generateContent: exact wire JSON per neutral tool_choice, schema conversion, history,
ledger, parser.

Expected wire values come from Google's references and SDK, not from our output:
- ai.google.dev/api/caching (v1beta REST reference, updated 2026-09-11): ``FunctionCallingConfig``
  ``{mode, allowedFunctionNames}``; Mode AUTO | ANY | NONE | VALIDATED; allowedFunctionNames "should
  only be set when the Mode is ANY or VALIDATED"; VALIDATED "decides to predict either a function call or a
  natural language response, but will validate function calls with constrained decoding".
- the same reference, ``Schema``: type, format, title, description, nullable, enum (strings), maxItems,
  minItems, properties, required, minProperties, maxProperties, minLength, maxLength, pattern, example,
  anyOf, propertyOrdering, default, items, minimum, maximum, and nothing else.
- googleapis/python-genai ``types.py`` (``FunctionCallingConfigMode`` with VALIDATED, ``FunctionResponse``:
  'Use "output" key to specify function output and "error" key to specify error details'),
  ``_api_client.py`` (``x-goog-api-key``), ``_transformers.py`` (additionalProperties refused for the
  Gemini API).
- ai.google.dev/gemini-api/docs/thought-signatures: Gemini 3 answers 4xx when history function calls lack
  signatures; vercel/ai ``convert-to-google-messages.ts`` quotes the documented placeholder
  ``skip_thought_signature_validator``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolchoice.providers import gemini
from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.model import Message, ProviderSettings, RenderOptions, Scenario, Tool, ToolchoiceError
from toolchoice.providers.core.scenario import load_scenario_text

DATA = Path(__file__).parent / "data" / "responses" / "gemini"
CAP = CAPABILITIES["gemini"]
MODEL = "gemini-2.5-flash"
URL = f"https://generativelanguage.googleapis.com/v1beta/models/{MODEL}:generateContent"
ABSENT = object()

TOOLS = [
    {"name": "get_weather", "description": "Current weather for a city.",
     "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    {"name": "get_time", "description": "Current local time.",
     "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}},
]
# The declarations above are already inside Gemini's Schema subset: they go on the wire unchanged.
DECLARATIONS = [{"functionDeclarations": TOOLS}]
USER = {"role": "user", "parts": [{"text": "Weather in Paris?"}]}


def render(choice: Any = ABSENT, *, tools: Any = TOOLS, messages: Any = None, model: str | None = MODEL,
           options: RenderOptions = RenderOptions(), settings: dict[str, Any] | None = None, **top: Any):
    doc: dict[str, Any] = {}
    if tools is not None:
        doc["tools"] = tools
    if choice is not ABSENT:
        doc["tool_choice"] = choice
    doc.update(top)
    doc["messages"] = [{"role": "user", "content": "Weather in Paris?"}] if messages is None else messages
    # These tests exercise the conversion to Gemini's Schema subset, which schema_form: parameters forces;
    # the default (auto) sends a lossy schema as parametersJsonSchema instead (tests at the end of this file).
    provider = {"schema_form": "parameters", **(settings or {})}
    if model is not None:
        provider["model"] = model
    doc["providers"] = {"gemini": provider}
    scenario = load_scenario_text(json.dumps(doc), "test.yaml")
    return gemini.translate("gemini", scenario, options, CAP)


def render_tools(*tools: dict[str, Any], choice: Any = ABSENT, strict: bool | None = None):
    """Render tools that the YAML loader would refuse (BFCL's root type "dict") by building the Scenario."""
    scenario = Scenario(path="t", tools=tuple(Tool(t["name"], t.get("description"), t.get("parameters"),
                                                   t.get("strict")) for t in tools),
                        strict=strict, messages=(Message("user", "hi"),),
                        providers={"gemini": ProviderSettings(schema_form="parameters")})
    return gemini.translate("gemini", scenario, RenderOptions(model=MODEL), CAP)


def codes(t) -> list[str]:
    return [e.code for e in t.ledger]


def entries(t, code: str):
    return [e for e in t.ledger if e.code == code]


def entry(t, code: str):
    found = entries(t, code)
    assert len(found) == 1, f"{code}: {found} in {codes(t)}"
    return found[0]


def parameters(t, index: int = 0) -> dict[str, Any]:
    return t.request.body["tools"][0]["functionDeclarations"][index].get("parameters")


# ---- tool_choice: one exact body per neutral value ----------------------------------------

CHOICES = [
    # (scenario tool_choice, extra scenario keys, expected functionCallingConfig or None)
    ("auto", {}, {"mode": "AUTO"}),
    ("none", {}, {"mode": "NONE"}),
    ("required", {}, {"mode": "ANY"}),
    ("any", {}, {"mode": "ANY"}),
    (True, {}, {"mode": "ANY"}),
    (False, {}, None),
    (None, {}, None),
    ("get_weather", {}, {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}),
    ({"tool": "get_time"}, {}, {"mode": "ANY", "allowedFunctionNames": ["get_time"]}),
    ({"allowed": ["get_weather"], "mode": "auto"}, {}, {"mode": "VALIDATED", "allowedFunctionNames": ["get_weather"]}),
    ({"allowed": ["get_weather"], "mode": "required"}, {}, {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}),
    ("auto", {"parallel_tool_calls": False}, {"mode": "AUTO"}),
]


@pytest.mark.parametrize("choice,top,config", CHOICES, ids=[json.dumps(c[0]) + str(c[1]) for c in CHOICES])
def test_tool_choice_wire(choice, top, config):
    t = render(choice, **top)
    expected: dict[str, Any] = {"contents": [USER], "tools": DECLARATIONS}
    if config is not None:
        expected["toolConfig"] = {"functionCallingConfig": config}
    assert t.request.body == expected
    assert t.effective_tool_choice == config


def test_mapping_is_recorded():
    t = render("required")
    assert entry(t, "tool_choice.mapped").message == 'tool_choice required → {"mode":"ANY"}'
    allowed = render({"allowed": ["get_weather"], "mode": "auto"})
    assert "VALIDATED" in entry(allowed, "tool_choice.mapped").message
    assert "ANY or VALIDATED" in entry(allowed, "tool_choice.mapped").message


def test_allowed_subset_keeps_every_tool_declared():
    # allowedFunctionNames restricts the calls, not the declarations: nothing is filtered.
    t = render({"allowed": ["get_weather"], "mode": "required"})
    assert t.request.body["tools"] == DECLARATIONS
    assert "tools.filtered" not in codes(t)
    assert t.offered_tools == ("get_weather", "get_time")


def test_parallel_has_no_switch():
    t = render("auto", parallel_tool_calls=False)
    assert "parallel_tool_calls" not in json.dumps(t.request.body)
    assert entry(t, "parallel.unsupported").severity == "warning"


def test_no_tools_sends_no_tool_fields():
    t = render("auto", tools=None)
    assert t.request.body == {"contents": [USER]}


# ---- strict → VALIDATED ----------------------------------------------------------------------


@pytest.mark.parametrize("choice", [ABSENT, "auto"])
def test_strict_tools_use_validated_mode(choice):
    t = render(choice, strict=True)
    assert t.request.body["toolConfig"] == {"functionCallingConfig": {"mode": "VALIDATED"}}
    assert "strict" not in json.dumps(t.request.body["tools"])  # Gemini has no per-tool strict flag
    assert entry(t, "strict.validated").severity == "info"


def test_partly_strict_tools_say_the_mode_covers_all():
    tools = [dict(TOOLS[0], strict=True), TOOLS[1]]
    t = render("auto", tools=tools)
    assert t.request.body["toolConfig"] == {"functionCallingConfig": {"mode": "VALIDATED"}}
    assert "also get_time" in entry(t, "strict.validated").message


@pytest.mark.parametrize("choice,config", [
    ("required", {"mode": "ANY"}),
    ("get_weather", {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}),
    ({"allowed": ["get_weather"], "mode": "required"}, {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}),
])
def test_strict_with_forced_call_keeps_any_and_warns(choice, config):
    t = render(choice, strict=True)
    assert t.request.body["toolConfig"] == {"functionCallingConfig": config}
    assert entry(t, "strict.not_validated").severity == "warning"


def test_strict_with_allowed_auto_is_validated():
    t = render({"allowed": ["get_time"], "mode": "auto"}, strict=True)
    assert t.request.body["toolConfig"] == {"functionCallingConfig": {"mode": "VALIDATED",
                                                                      "allowedFunctionNames": ["get_time"]}}
    assert codes(t).count("strict.validated") == 1


def test_strict_with_none_says_nothing_about_strict():
    t = render("none", strict=True)
    assert t.request.body["toolConfig"] == {"functionCallingConfig": {"mode": "NONE"}}
    assert not [c for c in codes(t) if c.startswith("strict.")]


# ---- URL, headers, settings ------------------------------------------------------------------


def test_url_and_headers():
    t = render("auto")
    assert t.request.method == "POST"
    assert t.request.url == URL
    assert t.request.headers == {"Content-Type": "application/json", "x-goog-api-key": "$GEMINI_API_KEY"}
    assert t.request.key_env == ("GEMINI_API_KEY", "GOOGLE_API_KEY")


def test_base_url_and_key_env_overrides():
    t = render("auto", settings={"base_url": "https://proxy.example/", "api_key_env": "MY_KEY"},
               options=RenderOptions(model=MODEL, allow_env=("MY_KEY",)))
    assert t.request.url == f"https://proxy.example/v1beta/models/{MODEL}:generateContent"
    assert t.request.headers["x-goog-api-key"] == "$MY_KEY"
    assert "endpoint.base_url" in codes(t)


def test_default_model_and_models_prefix():
    t = render("auto", model=None)
    default = CAPABILITIES["gemini"].default_model
    assert t.request.url == URL.replace(MODEL, default) and default == "gemini-3.5-flash"
    assert "model.default" in codes(t)
    prefixed = render("auto", model="models/gemini-2.5-pro")
    assert prefixed.request.url.endswith("/v1beta/models/gemini-2.5-pro:generateContent")
    assert entry(prefixed, "model.normalized").severity == "info"


def test_system_max_tokens_temperature():
    t = render("auto", system="Be brief.", settings={"max_tokens": 256, "temperature": 0.2})
    assert t.request.body["systemInstruction"] == {"parts": [{"text": "Be brief."}]}
    assert t.request.body["generationConfig"] == {"maxOutputTokens": 256, "temperature": 0.2}


def test_unused_settings_are_warned():
    t = render("auto", settings={"thinking": True, "region": "eu"})
    # issue 11: thinking now maps to generationConfig.thinkingConfig; only region is left unused
    assert [e.message.split(" =")[0] for e in entries(t, "settings.ignored")] == ["providers.gemini.region"]


def test_invalid_tool_name_refused():
    t = render("auto", tools=[{"name": "9lives", "parameters": {"type": "object",
                                                                "properties": {"x": {"type": "string"}}}}])
    assert t.request is None and "tool.name_invalid" in codes(t)


def test_dotted_names_are_valid_on_gemini():
    # BFCL's dotted names ('weather.get_by_city_date') pass Gemini's rule (letters, digits, _ . : -).
    t = render("auto", tools=[{"name": "weather.get_by_city_date",
                               "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}])
    assert t.request is not None and "tool.name_invalid" not in codes(t)


def test_no_messages_is_refused():
    t = render("auto", messages=[])
    assert t.request is None
    assert entry(t, "messages.empty").severity == "error"


def test_strict_option_refuses_warnings():
    t = render("auto", parallel_tool_calls=False, options=RenderOptions(strict=True))
    assert t.request is None and "strict.refused" in codes(t)


# ---- history ---------------------------------------------------------------------------------

HISTORY = [
    {"role": "user", "content": "Weather and time in Paris?"},
    {"role": "assistant", "content": "Checking.", "tool_calls": [
        {"id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}},
        {"id": "call_2", "name": "get_time", "arguments": {"timezone": "Europe/Paris"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": {"temp_c": 18}},
    {"role": "tool", "tool_call_id": "call_2", "content": "10:00"},
    {"role": "user", "content": "Thanks. And Tokyo?"},
]


def test_history_encoding():
    t = render("auto", messages=HISTORY)
    assert t.request.body["contents"] == [
        {"role": "user", "parts": [{"text": "Weather and time in Paris?"}]},
        {"role": "model", "parts": [
            {"text": "Checking."},
            {"functionCall": {"id": "call_1", "name": "get_weather", "args": {"city": "Paris"}}},
            {"functionCall": {"id": "call_2", "name": "get_time", "args": {"timezone": "Europe/Paris"}}}]},
        # parallel results travel together in one user turn; an object result is sent as it is
        {"role": "user", "parts": [
            {"functionResponse": {"id": "call_1", "name": "get_weather", "response": {"temp_c": 18}}},
            {"functionResponse": {"id": "call_2", "name": "get_time", "response": {"output": "10:00"}}}]},
        {"role": "user", "parts": [{"text": "Thanks. And Tokyo?"}]},
    ]
    wrapped = entry(t, "history.tool_result_wrapped")
    assert wrapped.severity == "info" and "call_2" in wrapped.message and "call_1" not in wrapped.message
    assert "history.thought_signature" not in codes(t)  # Gemini 2.5 does not require signatures


def test_failed_tool_result_uses_the_error_key():
    messages = HISTORY[:2] + [dict(HISTORY[2], is_error=True), dict(HISTORY[3], is_error=True)]
    t = render("auto", messages=messages)
    assert t.request.body["contents"][-1]["parts"] == [
        {"functionResponse": {"id": "call_1", "name": "get_weather", "response": {"error": {"temp_c": 18}}}},
        {"functionResponse": {"id": "call_2", "name": "get_time", "response": {"error": "10:00"}}}]
    assert '"error"' in entry(t, "history.tool_result_wrapped").message


@pytest.mark.parametrize("model", ["gemini-3-pro-preview", "gemini-3-flash-preview"])
def test_gemini_3_history_calls_get_the_documented_placeholder_signature(model):
    t = render("auto", messages=HISTORY, model=model)
    model_turn = t.request.body["contents"][1]["parts"]
    assert model_turn[0] == {"text": "Checking."}
    assert [p["thoughtSignature"] for p in model_turn[1:]] == ["skip_thought_signature_validator"] * 2
    assert "2 calls" in entry(t, "history.thought_signature").message


# ---- schema conversion -----------------------------------------------------------------------

# Real schemas from /work/shared/data/schemas (tools[] of each file, unchanged).
# openai/openai-python sdist 3.54.0 tests/lib/test_pydantic.py::test_most_types (Apache-2.0)
QUERY_TOOL = json.loads(r'''{"name": "Query", "parameters": {"$defs": {"Column": {"enum": ["id", "status", "expected_delivery_date", "delivered_at", "shipped_at", "ordered_at", "canceled_at"], "title": "Column", "type": "string"}, "Condition": {"properties": {"column": {"title": "Column", "type": "string"}, "operator": {"$ref": "#/$defs/Operator"}, "value": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"$ref": "#/$defs/DynamicValue"}], "title": "Value"}}, "required": ["column", "operator", "value"], "title": "Condition", "type": "object", "additionalProperties": false}, "DynamicValue": {"properties": {"column_name": {"title": "Column Name", "type": "string"}}, "required": ["column_name"], "title": "DynamicValue", "type": "object", "additionalProperties": false}, "Operator": {"enum": ["=", ">", "<", "<=", ">=", "!="], "title": "Operator", "type": "string"}, "OrderBy": {"enum": ["asc", "desc"], "title": "OrderBy", "type": "string"}, "Table": {"enum": ["orders", "customers", "products"], "title": "Table", "type": "string"}}, "properties": {"name": {"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Name"}, "table_name": {"$ref": "#/$defs/Table"}, "columns": {"items": {"$ref": "#/$defs/Column"}, "title": "Columns", "type": "array"}, "conditions": {"items": {"$ref": "#/$defs/Condition"}, "title": "Conditions", "type": "array"}, "order_by": {"$ref": "#/$defs/OrderBy"}}, "required": ["name", "table_name", "columns", "conditions", "order_by"], "title": "Query", "type": "object", "additionalProperties": false}}''')  # noqa: E501

# github/github-mcp-server@64a49f34 pkg/github/__toolsnaps__/issue_write.snap (MIT)
ISSUE_WRITE_TOOL = json.loads(r'''{"name": "issue_write", "description": "Create a new or update an existing issue in a GitHub repository.", "parameters": {"properties": {"assignees": {"description": "Usernames to assign to this issue", "items": {"type": "string"}, "type": "array"}, "body": {"description": "Issue body content", "type": "string"}, "duplicate_of": {"description": "Issue number that this issue is a duplicate of. Required when state_reason is 'duplicate'.", "type": "number"}, "issue_fields": {"description": "Issue field values to set or clear. Each item requires 'field_name' and exactly one of 'value', 'field_option_name', or 'delete: true'.", "items": {"additionalProperties": false, "properties": {"delete": {"description": "Set to true to clear this field's current value on the issue. When false or omitted, this property is ignored. Cannot be true when 'value' or 'field_option_name' is provided.", "type": "boolean"}, "field_name": {"description": "Issue field name (case-insensitive). Must match a field returned by list_issue_fields for this repository or its organization.", "type": "string"}, "field_option_name": {"description": "Option name for single-select fields. Validated against the field's options before the API call. Cannot be combined with 'value' or 'delete: true'.", "type": "string"}, "value": {"description": "Value to set. Use for text, number, and date fields (date as YYYY-MM-DD). For single-select fields, prefer 'field_option_name' so the option is validated before the API call. Cannot be combined with 'field_option_name' or 'delete: true'.", "type": ["string", "number", "boolean"]}}, "required": ["field_name"], "type": "object"}, "type": "array"}, "issue_number": {"description": "Issue number to update", "type": "number"}, "labels": {"description": "Labels to apply to this issue", "items": {"type": "string"}, "type": "array"}, "method": {"description": "Write operation to perform on a single issue.\nOptions are:\n- 'create' - creates a new issue.\n- 'update' - updates an existing issue.\n", "enum": ["create", "update"], "type": "string"}, "milestone": {"description": "Milestone number", "type": "number"}, "owner": {"description": "Repository owner", "type": "string"}, "repo": {"description": "Repository name", "type": "string"}, "state": {"description": "New state", "enum": ["open", "closed"], "type": "string"}, "state_reason": {"description": "Reason for the state change. Ignored unless state is changed.", "enum": ["completed", "not_planned", "duplicate"], "type": "string"}, "title": {"description": "Issue title", "type": "string"}, "type": {"anyOf": [{"minLength": 1, "type": "string"}, {"type": "null"}], "description": "Type of this issue. For updates, pass null to remove the current type. Only use if issue types are enabled for this repository. Use list_issue_types to get valid type values for this repository or its owner organization. If the repository doesn't support issue types, omit this parameter."}}, "required": ["method", "owner", "repo"], "type": "object"}}''')  # noqa: E501

# github/github-mcp-server@64a49f34 pkg/github/__toolsnaps__/update_issue_labels.snap (MIT)
UPDATE_LABELS_TOOL = json.loads(r'''{"name": "update_issue_labels", "description": "Update the labels of an existing issue. This replaces the current labels with the provided list. When setting values, include a confidence level (LOW, MEDIUM, or HIGH) reflecting how certain you are about the choice.", "parameters": {"properties": {"issue_number": {"description": "The issue number to update", "minimum": 1, "type": "number"}, "labels": {"description": "Labels to apply to this issue.", "items": {"oneOf": [{"description": "Label name", "type": "string"}, {"properties": {"confidence": {"description": "How confident you are in this choice. Use 'HIGH' for clear signal or explicit user request, 'MEDIUM' for reasonable inference with some ambiguity, 'LOW' for best guess with limited signal.", "enum": ["LOW", "MEDIUM", "HIGH"], "type": "string"}, "is_suggestion": {"description": "If true, this label is sent to the API as a suggestion (suggest:true) rather than an applied label. Whether the label is applied or recorded as a proposal is determined by the API.", "type": "boolean"}, "name": {"description": "Label name", "type": "string"}, "rationale": {"description": "One concise sentence explaining what specifically about the issue led you to choose this label. State the concrete signal (e.g. 'Reports a crash when saving' → bug).", "maxLength": 280, "type": "string"}}, "required": ["name"], "type": "object"}]}, "type": "array"}, "owner": {"description": "Repository owner (username or organization)", "type": "string"}, "repo": {"description": "Repository name", "type": "string"}}, "required": ["owner", "repo", "issue_number", "labels"], "type": "object"}}''')  # noqa: E501

# ShishirPatil/gorilla@6ea57973 BFCL_v4_irrelevance.json id=irrelevance_30 (Apache-2.0)
BLOODCELL_TOOL = json.loads(r'''{"name": "bloodcell_classification", "description": "Identify and categorize different types of blood cells based on given attributes.", "parameters": {"type": "dict", "properties": {"cell_shape": {"type": "string", "description": "The shape of the cell, e.g. round, oval."}, "cell_size": {"type": "string", "description": "The size of the cell, e.g. large, medium, small."}, "cell_function": {"type": "string", "description": "The function of the cell, e.g. carrying oxygen, fighting infection. Default: 'carry oxygen'.", "optional": true}}, "required": ["cell_shape", "cell_size"]}}''')  # noqa: E501


def test_query_refs_are_inlined_and_additional_properties_removed():
    t = render_tools(QUERY_TOOL)
    p = parameters(t)
    assert "$defs" not in json.dumps(p) and "$ref" not in json.dumps(p) and "additionalProperties" not in json.dumps(p)
    # anyOf [string, null] is Gemini's nullable string (Schema.nullable)
    assert p["properties"]["name"] == {"nullable": True, "type": "string", "title": "Name"}
    assert p["properties"]["table_name"] == {"enum": ["orders", "customers", "products"], "title": "Table",
                                             "type": "string"}
    condition = p["properties"]["conditions"]["items"]
    assert condition["properties"]["operator"]["enum"] == ["=", ">", "<", "<=", ">=", "!="]
    assert condition["properties"]["value"]["anyOf"] == [
        {"type": "string"}, {"type": "integer"},
        {"properties": {"column_name": {"title": "Column Name", "type": "string"}}, "required": ["column_name"],
         "title": "DynamicValue", "type": "object"}]
    _assert_only_schema_fields(p)
    removed = entry(t, "schema.keyword_removed")
    assert removed.severity == "warning"
    assert "additionalProperties removed at parameters.conditions[].value.anyOf[2], parameters.conditions[], " \
           "parameters" in removed.message
    refs = [e.message for e in entries(t, "schema.converted") if "$ref" in e.message]
    assert len(refs) == 6
    assert any("$ref #/$defs/Operator inlined at parameters.conditions[].operator" in m for m in refs)
    assert t.request is not None


def _assert_only_schema_fields(schema: Any, path: str = "parameters") -> None:
    if isinstance(schema, dict):
        assert set(schema) <= gemini.SCHEMA_FIELDS, f"{path}: {set(schema) - gemini.SCHEMA_FIELDS}"
        for name, sub in schema.get("properties", {}).items():
            _assert_only_schema_fields(sub, f"{path}.{name}")
        if "items" in schema:
            _assert_only_schema_fields(schema["items"], f"{path}[]")
        for i, sub in enumerate(schema.get("anyOf", [])):
            _assert_only_schema_fields(sub, f"{path}.anyOf[{i}]")


def test_issue_write_type_list_and_nullable_any_of():
    t = render_tools(ISSUE_WRITE_TOOL)
    p = parameters(t)
    _assert_only_schema_fields(p)
    value = p["properties"]["issue_fields"]["items"]["properties"]["value"]
    assert value["anyOf"] == [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]
    assert "type" not in value
    description = ISSUE_WRITE_TOOL["parameters"]["properties"]["type"]["description"]
    assert p["properties"]["type"] == {"nullable": True, "minLength": 1, "type": "string", "description": description}
    messages = [e.message for e in entries(t, "schema.converted")]
    assert any('type ["string","number","boolean"] → anyOf at parameters.issue_fields[].value' in m for m in messages)
    assert any("anyOf [schema, null] → schema + nullable at parameters.type" in m for m in messages)
    assert "parameters.issue_fields[]" in entry(t, "schema.keyword_removed").message


def test_update_labels_one_of_of_distinct_types_becomes_any_of():
    t = render_tools(UPDATE_LABELS_TOOL)
    p = parameters(t)
    _assert_only_schema_fields(p)
    branches = p["properties"]["labels"]["items"]["anyOf"]
    assert branches[0] == {"description": "Label name", "type": "string"}
    assert branches[1]["properties"]["rationale"]["maxLength"] == 280
    assert p["properties"]["issue_number"]["minimum"] == 1  # kept: a Gemini field
    # a label is a string or an object, never both: oneOf and anyOf accept the same values
    info = entry(t, "schema.converted")
    assert info.severity == "info" and "oneOf sent as anyOf at parameters.labels[]" in info.message
    assert "schema.keyword_removed" not in codes(t)


def test_one_of_with_overlapping_branches_warns():
    t = render_tools({"name": "f", "parameters": {"type": "object", "properties": {"x": {"oneOf": [
        {"type": "string", "maxLength": 3}, {"type": "string", "pattern": "^a"}]}}}})
    assert parameters(t)["properties"]["x"] == {"anyOf": [{"type": "string", "maxLength": 3},
                                                          {"type": "string", "pattern": "^a"}]}
    warning = entry(t, "schema.keyword_removed")
    assert warning.severity == "warning" and "'exactly one branch' becomes 'at least one'" in warning.message


def test_bfcl_dict_type_is_refused_and_unknown_keys_removed():
    t = render_tools(BLOODCELL_TOOL)
    assert t.request is None
    error = entry(t, "schema.type_unsupported")
    assert error.severity == "error" and 'type "dict" at parameters' in error.message
    assert "optional removed at parameters.cell_function" in entry(t, "schema.keyword_removed").message


@pytest.mark.parametrize("kind", [None, "STRING", ["string", "null"]])
def test_a_property_is_copied_as_it_is_only_with_one_known_type(kind):
    """{"type": null} is refused, upper case is a known type sent as written, a type list is converted:
    only the middle one may skip the schema walk."""
    t = render_tools({"name": "f", "parameters": {"type": "object", "properties": {
        "x": {"type": kind, "description": "d"}, "y": {"type": "string"}}}})
    if kind is None:
        assert t.request is None and "type null at parameters.x" in entry(t, "schema.type_unsupported").message
    elif kind == "STRING":
        assert parameters(t)["properties"] == {"x": {"type": "STRING", "description": "d"}, "y": {"type": "string"}}
        assert "schema.type_unsupported" not in codes(t)
    else:
        assert parameters(t)["properties"]["x"] == {"type": "string", "nullable": True, "description": "d"}


@pytest.mark.parametrize("schema,expected,code,severity", [
    # JSON Schema 2020-12 const → Gemini enum of one string (the Schema has no const)
    ({"properties": {"kind": {"type": "string", "const": "issue"}}},
     {"properties": {"kind": {"type": "string", "enum": ["issue"]}}}, "schema.converted", "info"),
    ({"properties": {"n": {"type": "integer", "const": 3}}},
     {"properties": {"n": {"type": "integer"}}}, "schema.keyword_removed", "warning"),
    # enum holds strings only: a numeric enum cannot be sent
    ({"properties": {"n": {"type": "integer", "enum": [1, 2, 3]}}},
     {"properties": {"n": {"type": "integer"}}}, "schema.keyword_removed", "warning"),
    ({"properties": {"u": {"type": "string", "enum": ["c", "f", None]}}},
     {"properties": {"u": {"type": "string", "nullable": True, "enum": ["c", "f"]}}}, "schema.converted", "info"),
    ({"properties": {"u": {"type": ["string", "null"]}}},
     {"properties": {"u": {"type": "string", "nullable": True}}}, "schema.converted", "info"),
    ({"properties": {"u": {"type": ["array", "string", "null"], "items": {"type": "string"}, "maxLength": 3}}},
     {"properties": {"u": {"nullable": True, "anyOf": [{"type": "array", "items": {"type": "string"}},
                                                       {"type": "string", "maxLength": 3}]}}},
     "schema.converted", "info"),
    ({"properties": {"u": {"allOf": [{"type": "string"}], "description": "d"}}},
     {"properties": {"u": {"type": "string", "description": "d"}}}, "schema.converted", "info"),
    ({"properties": {"u": {"allOf": [{"type": "string"}, {"minLength": 1}]}}},
     {"properties": {"u": {}}}, "schema.keyword_removed", "warning"),
    ({"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"x": {"type": "string"}}},
     {"properties": {"x": {"type": "string"}}}, "schema.converted", "info"),
    ({"properties": {"x": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 2}}},
     {"properties": {"x": {"type": "number"}}}, "schema.keyword_removed", "warning"),
])
def test_schema_conversions(schema, expected, code, severity):
    t = render_tools({"name": "f", "parameters": {"type": "object", **schema}})
    assert parameters(t) == {"type": "object", **expected}
    assert {(e.code, e.severity) for e in t.ledger if e.code.startswith("schema.")} == {(code, severity)}


def test_tuple_items_removed_leave_an_array_the_api_refuses():
    """Gemini's items is one schema: the tuple form is removed, and the ARRAY left without items is what the API
    refuses ('items: missing field.', AstrBotDevs/AstrBot#6029), said as such (under schema_form auto the lossy
    conversion is not used: parametersJsonSchema is sent)."""
    t = render_tools({"name": "f", "parameters": {"type": "object", "properties": {
        "x": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]}}}})
    assert parameters(t) == {"type": "object", "properties": {"x": {"type": "array"}}}
    assert {(e.code, e.severity) for e in t.ledger if e.code.startswith("schema.")} == {
        ("schema.keyword_removed", "warning"), ("schema.api_refuses", "warning")}
    assert '"missing field." at parameters.properties[x].items (AstrBotDevs/AstrBot#6029' in entry(
        t, "schema.api_refuses").message


def test_recursive_and_remote_refs_are_refused():
    recursive = {"type": "object", "properties": {"node": {"$ref": "#/$defs/Node"}},
                 "$defs": {"Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}}}
    t = render_tools({"name": "tree", "parameters": recursive})
    assert t.request is None
    assert "refers back to itself" in entry(t, "schema.ref_unresolved").message
    remote = render_tools({"name": "r", "parameters": {"type": "object", "properties": {
        "x": {"$ref": "https://example.com/x.json"}}}})
    assert remote.request is None and "only local" in entry(remote, "schema.ref_unresolved").message


def test_parameters_without_type_get_object():
    t = render_tools({"name": "f", "parameters": {"properties": {"x": {"type": "string"}}}})
    assert parameters(t) == {"type": "object", "properties": {"x": {"type": "string"}}}
    assert entry(t, "schema.type_added").severity == "info"


def test_empty_object_parameters_are_sent_as_written():
    """An OBJECT with no properties is sent, as the recorded exchange sent it and the API answered 200 (fact
    gemini.schema_empty_object; tests/data/exchanges/): until 2026-11-28 it was left out, a declaration without
    parameters, which the API refused under mode ANY (googleapis/python-genai#981)."""
    recorded = json.loads((Path(__file__).parent / "data" / "exchanges" / "gemini-empty-object-parameters-any.json")
                          .read_text(encoding="utf-8"))
    sent = recorded["request"]["tools"][0]["functionDeclarations"][0]["parameters"]
    t = render("required", tools=[{"name": "ping", "description": "Ping.",
                                   "parameters": {"type": "object", "properties": {}, "required": []}},
                                  {"name": "noop"}])
    declared = t.request.body["tools"][0]["functionDeclarations"]
    assert declared == [{"name": "ping", "description": "Ping.",
                         "parameters": {"type": "object", "properties": {}, "required": []}}, {"name": "noop"}]
    # the same message as the recorded one: the type in another case, an empty list no value to the proto
    assert declared[0]["parameters"]["type"].upper() == sent["type"] and declared[0]["parameters"]["properties"] == {}
    assert t.request.body["toolConfig"]["functionCallingConfig"]["mode"] == "ANY"
    assert not [e for e in t.ledger if e.code in ("schema.converted", "schema.api_refuses")]


def test_a_tool_without_parameters_under_mode_any_is_sent_as_written_and_warned():
    """A declaration with no parameters at all under mode ANY: the API's one recorded answer is a 400
    (googleapis/python-genai#981, 2025-06-16), google-genai's own FunctionDeclaration says the field may be left
    unset (fact gemini.no_parameters_any): sent as written with a warning, never refused, never rewritten."""
    import google.genai.types as genai_types

    sdk_words = "For function with no parameters, this can be left unset."
    assert sdk_words in genai_types.FunctionDeclaration.model_fields["parameters"].description
    noop = {"name": "noop", "description": "Do nothing."}
    for choice, mode in (("required", "ANY"), ({"tool": "noop"}, "ANY"), ({"tool": "get_weather"}, "ANY")):
        t = render(choice, tools=[*TOOLS, noop])
        config = t.request.body["toolConfig"]["functionCallingConfig"]
        assert config["mode"] == mode
        google = genai_types.GenerateContentConfig(tools=t.request.body["tools"],
                                                   tool_config=t.request.body["toolConfig"])
        assert google.tools[0].function_declarations[2].parameters is None  # the SDK takes it as sent
        assert t.request.body["tools"][0]["functionDeclarations"][2] == noop
        (warned,) = entries(t, "tool.no_parameters_forced")
        assert warned.severity == "warning" and "'noop'" in warned.message and "get_weather" not in warned.message
        assert "'Request contains an invalid argument.'" in warned.message and sdk_words in warned.message
    # not under AUTO, NONE or no choice; not for parameters written as an empty object (a recorded 200 under ANY)
    for choice in ("auto", "none", ABSENT):
        assert "tool.no_parameters_forced" not in codes(render(choice, tools=[*TOOLS, noop]))
    empty = dict(noop, parameters={"type": "object", "properties": {}})
    assert "tool.no_parameters_forced" not in codes(render("required", tools=[*TOOLS, empty]))
    assert "tool.no_parameters_forced" not in codes(render("required"))


def test_non_ascii_names_and_descriptions_pass_through():
    tool = {"name": "cotizar", "parameters": {"type": "object", "properties": {
        "año_vehiculo": {"type": "integer", "description": "Año del vehículo"}}}}
    t = render("auto", tools=[tool])
    assert parameters(t) == tool["parameters"]
    assert not [c for c in codes(t) if c.startswith("schema.")]


# ---- every module ledger code is emitted by some scenario -----------------------------------

MCP_SERVER = {"type": "mcp", "server_label": "docs", "server_url": "https://docs.example/mcp"}

TRIGGERS: dict[str, Any] = {
    "history.missing_tool_result": lambda: render("auto", messages=HISTORY[:3] + HISTORY[4:]),  # call_2's dropped
    "schema.converted": lambda: render_tools({"name": "f", "parameters": {"type": "object", "properties": {
        "x": {"type": ["string", "null"]}}}}),
    "schema.keyword_removed": lambda: render_tools(QUERY_TOOL),
    "schema.type_added": lambda: render_tools({"name": "f", "parameters": {"properties": {"x": {"type": "string"}}}}),
    "schema.type_unsupported": lambda: render_tools(BLOODCELL_TOOL),
    "schema.ref_unresolved": lambda: render_tools({"name": "f", "parameters": {"type": "object", "properties": {
        "x": {"$ref": "#/$defs/missing"}}}}),
    "schema.json_schema": lambda: render("auto", tools=[QUERY_TOOL], settings={"schema_form": "auto"}),
    "schema.api_refuses": lambda: render_tools({"name": "f", "parameters": {"type": "object", "properties": {
        "l": {"type": "array"}}}}),
    "strict.validated": lambda: render("auto", strict=True),
    "strict.not_validated": lambda: render("required", strict=True),
    "history.tool_result_wrapped": lambda: render("auto", messages=HISTORY),
    "history.thought_signature": lambda: render("auto", messages=HISTORY, model="gemini-3-pro-preview"),
    "model_rule.unstated": lambda: render("auto", messages=HISTORY, model="gemini-2.5-flash"),
    "messages.empty": lambda: render("auto", messages=[]),
    "model.normalized": lambda: render("auto", model="models/gemini-2.5-flash"),
    "settings.ignored": lambda: render("auto", settings={"region": "eu"}),
    "tool.no_parameters_forced": lambda: render("required", tools=[*TOOLS, {"name": "noop"}]),
    "history.signature_kept": lambda: render("auto", model="gemini-3-pro-preview", messages=[
        HISTORY[0], dict(HISTORY[1], tool_calls=[dict(HISTORY[1]["tool_calls"][0], signature="c2ln")])]),
    "thinking.mapped": lambda: render("auto", settings={"thinking": {"budget": 512}}),
    "thinking.unsupported": lambda: render("auto", settings={"thinking": {"effort": "max"}}),
    "tool.native": lambda: render("auto", tools=[*TOOLS, MCP_SERVER]),
    "tool.native_header_conflict": lambda: render("auto", tools=[*TOOLS, dict(MCP_SERVER, authorization="$B_TOK",
                                                                           headers={"authorization": "Token $A_TOK"})],
                                                 options=RenderOptions(allow_env=("A_TOK", "B_TOK"))),
    "tool.native_field_dropped": lambda: render("auto", tools=[*TOOLS, dict(MCP_SERVER, allowed_tools=["ask"])]),
}


def test_trigger_table_covers_ledger_codes():
    assert set(TRIGGERS) == set(gemini.LEDGER_CODES)


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_ledger_code_emitted(code):
    assert code in codes(TRIGGERS[code]())


# ---- parser -------------------------------------------------------------------------------


def _fixtures(kind: str) -> list[Path]:
    return sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".expect.json")
                  and json.loads(p.with_name(p.stem + ".expect.json").read_text()).get("is_error", False)
                  == (kind == "error"))


def test_parse_fixtures_exist():
    assert len(_fixtures("reply")) == 1 and len(_fixtures("error")) == 1


@pytest.mark.parametrize("path", _fixtures("reply"), ids=lambda p: p.stem)
def test_parse_recorded_replies(path: Path):
    expect = json.loads(path.with_name(path.stem + ".expect.json").read_text())
    raw = json.loads(path.read_text())
    reply = gemini.parse_reply("gemini", raw)
    assert [c.to_json() for c in reply.tool_calls] == expect["calls"]
    assert reply.text == expect["text"]
    assert reply.finish_reason == expect["finish_reason"]  # STOP even though the model called a function
    assert reply.usage.input_tokens == raw["usageMetadata"]["promptTokenCount"]
    assert reply.usage.output_tokens == raw["usageMetadata"]["candidatesTokenCount"]
    assert reply.error is None


@pytest.mark.parametrize("path", _fixtures("error"), ids=lambda p: p.stem)
def test_parse_recorded_errors(path: Path):
    expect = json.loads(path.with_name(path.stem + ".expect.json").read_text())
    reply = gemini.parse_reply("gemini", json.loads(path.read_text()))
    assert reply.error is not None
    assert reply.error.status == expect["http_status"]
    assert reply.error.type == expect["error_type"]
    assert reply.error.message == " ".join(expect["error_message"].split())  # one line
    assert list(reply.tool_calls) == expect["calls"]


def test_parse_text_call_ids_and_thoughts():
    reply = gemini.parse_reply("gemini", {"candidates": [{"content": {"role": "model", "parts": [
        {"text": "thinking about it", "thought": True},
        {"text": "Let me check. "},
        {"functionCall": {"id": "abc", "name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": "x"},
        {"functionCall": {"name": "get_time"}},
        {"text": "Done."}]}, "finishReason": "STOP"}]})
    assert reply.text == "Let me check. Done."
    # issue 11: the thoughtSignature stays on its call, the thought part is reasoning state, not text
    assert [c.to_json() for c in reply.tool_calls] == [
        {"id": "abc", "name": "get_weather", "arguments": {"city": "Paris"}, "signature": "x"},
        {"id": None, "name": "get_time", "arguments": {}}]
    assert [r.to_json() for r in reply.reasoning] == [{"family": "gemini", "text": "thinking about it"}]


def test_parse_blocked_prompt_and_empty_candidate():
    blocked = gemini.parse_reply("gemini", {"promptFeedback": {"blockReason": "SAFETY"},
                                            "usageMetadata": {"promptTokenCount": 7}})
    assert blocked.finish_reason == "SAFETY" and blocked.tool_calls == () and blocked.usage.input_tokens == 7
    malformed = gemini.parse_reply("gemini", {"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL"}]})
    assert malformed.finish_reason == "MALFORMED_FUNCTION_CALL" and malformed.text is None


def test_parse_non_object_args_are_kept_raw():
    reply = gemini.parse_reply("gemini", {"candidates": [{"content": {"parts": [
        {"functionCall": {"name": "f", "args": [1, 2]}}]}}]})
    call = reply.tool_calls[0]
    assert call.arguments is None and call.raw_arguments == "[1, 2]"


@pytest.mark.parametrize("bad", [[], "x", {"candidates": "x"}, {"candidates": [1]},
                                 {"candidates": [{"content": "x"}]}, {"candidates": [{"content": {"parts": {}}}]},
                                 {"candidates": [{"content": {"parts": [3]}}]},
                                 {"candidates": [{"content": {"parts": [{"functionCall": "f"}]}}]},
                                 {"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]}])
def test_parse_malformed_bodies_raise_toolchoice_error(bad):
    with pytest.raises(ToolchoiceError):
        gemini.parse_reply("gemini", bad)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "candidates": st.lists(st.fixed_dictionaries({}, optional={
        "content": st.fixed_dictionaries({}, optional={"parts": st.lists(
            st.fixed_dictionaries({}, optional={"text": JSON, "functionCall": JSON, "thought": JSON}), max_size=3)
            | JSON}) | JSON,
        "finishReason": JSON}) | JSON, max_size=2) | JSON,
    "usageMetadata": JSON, "promptFeedback": JSON, "error": JSON}))
def test_parse_never_raises_anything_but_toolchoice_error(body):
    try:
        gemini.parse_reply("gemini", body)
    except ToolchoiceError:
        pass


# ---- parametersJsonSchema -----------------------------------------------------------------------
# google-genai 3.4.0 types.py FunctionDeclaration: parameters_json_schema "Describes the parameters to the
# function in JSON Schema format ... This field is mutually exclusive with `parameters`." (alias
# parametersJsonSchema; the SDK's models forbid unknown keys, so a wrong name fails validation).


def _declarations(t) -> list[dict[str, Any]]:
    return t.request.body["tools"][0]["functionDeclarations"]


def _sdk_valid(declaration: dict[str, Any]) -> None:
    genai_types = pytest.importorskip("google.genai.types")
    genai_types.FunctionDeclaration.model_validate(declaration)
    assert not ("parameters" in declaration and "parametersJsonSchema" in declaration)


def test_auto_sends_a_lossy_schema_whole_as_parameters_json_schema():
    t = render("auto", tools=[QUERY_TOOL, TOOLS[0]], settings={"schema_form": "auto"})
    query, weather = _declarations(t)
    assert query == {"name": "Query", "parametersJsonSchema": QUERY_TOOL["parameters"]}
    assert weather == TOOLS[0]  # already inside the subset: converted (unchanged) as before
    assert "schema.keyword_removed" not in codes(t)
    assert "additionalProperties" in entry(t, "schema.json_schema").message
    for declaration in (query, weather):
        _sdk_valid(declaration)


def test_auto_is_the_default():
    doc = {"tools": [QUERY_TOOL], "messages": [{"role": "user", "content": "hi"}]}
    t = gemini.translate("gemini", load_scenario_text(json.dumps(doc), "t.json"), RenderOptions(model=MODEL), CAP)
    assert "parametersJsonSchema" in _declarations(t)[0]


def test_schema_form_forces_either_form():
    forced = render("auto", tools=TOOLS[:1], settings={"schema_form": "parametersJsonSchema"})
    assert _declarations(forced)[0] == {"name": "get_weather", "description": "Current weather for a city.",
                                        "parametersJsonSchema": TOOLS[0]["parameters"]}
    _sdk_valid(_declarations(forced)[0])
    converted = render("auto", tools=[QUERY_TOOL], settings={"schema_form": "parameters"})
    assert "parameters" in _declarations(converted)[0] and "schema.keyword_removed" in codes(converted)


def test_schema_form_values_are_checked():
    with pytest.raises(ToolchoiceError) as info:
        render("auto", settings={"schema_form": "json"})
    assert "schema_form must be one of auto, parameters, parametersJsonSchema" in info.value.message


def test_an_error_event_in_a_stream_is_the_reply_s_error():
    """Gemini streams an error as an SSE event ``{"error": {code, message, status}}`` (the REST error envelope,
    ai.google.dev/api/rest troubleshooting; what the python-genai SDK raises from): the reply carries it."""
    from toolchoice.providers.core import streaming

    body = (b'data: {"error": {"code": 429, "message": "Resource has been exhausted", '
            b'"status": "RESOURCE_EXHAUSTED"}}\r\n\r\n')
    result = streaming.assemble_bytes("gemini", body)
    assert result.reply.error is not None
    assert result.reply.error.status == 429 and "exhausted" in result.reply.error.message


# ---- the model id in the URL path: as google-genai takes it ------------------------------------------------------

# google-genai _transformers.py t_model: "if '..' in model or '?' in model or '&' in model: raise
# ValueError('invalid model parameter.')"; any other id becomes the path's models/{model}.
MODEL_IDS = ["gemini-3.5-flash", "models/gemini-3.5-flash", "a/../../x", "gemini-3.5-flash?alt=sse", "x&key=1",
             "gemini#frag", "gemini 3", "gemini-2.5-flash-preview-09-2025", "tunedModels/my-tuned-model-42"]


@pytest.mark.parametrize("model", MODEL_IDS)
def test_the_model_id_reaches_the_path_as_the_sdk_sends_it(model: str) -> None:
    from sdk_types import missing

    if missing("google.genai"):
        pytest.skip("needs google-genai")
    from urllib.parse import unquote

    import httpx
    from google.genai import _transformers

    class GeminiApi:  # what t_model reads of a client: the Gemini Developer API, not Vertex AI
        vertexai = False

    try:
        sdk_path = _transformers.t_model(GeminiApi(), model)  # type: ignore[arg-type]
    except ValueError:
        with pytest.raises(ToolchoiceError, match="google-genai refuses"):
            render(model=model)
        return
    t = render(model=model)
    url = httpx.URL(t.request.url)  # as httpx will send it: nothing of the id may become a query or a fragment
    assert not url.query and not url.fragment, t.request.url
    assert unquote(url.path) == f"/v1beta/{sdk_path}:generateContent"
    assert str(url) == t.request.url  # the URL shown is the URL sent
