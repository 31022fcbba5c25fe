"""Fuzzing with hypothesis: whatever comes in, the only exception is ToolchoiceError.

- the tool_choice reader (``parse_tool_choice``, ``parse_cli_value`` and the two chained, as
  ``--tool-choice`` runs them) on arbitrary values, including what ``yaml.safe_load`` can build
  (dates, bytes, sets, NaN);
- the scenario loader on arbitrary text, YAML-looking token soup and structured documents built
  from the scenario's own keys with random (often wrong) values;
- every provider's ``parse_reply`` (all 18 ids through ``registry.parse_reply``) on arbitrary JSON and
  on recorded real bodies with random subtrees replaced or removed; ``errors.provider_error`` and
  ``errors.read_reply`` (documented never to raise) on anything; and the verdict on what parsed;
- ``translate`` for all 18 providers over random *valid* scenarios (random tools and schemas, every
  tool_choice spelling, histories, settings, options): it never raises and always yields a request
  or an error in the ledger, and a request is plain JSON.

Runs are derandomized (the same examples every run, no example database written into the tree) so
CI is reproducible; ``TOOLCHOICE_FUZZ_SCALE=10`` multiplies the examples for a deeper local run.
"""

from __future__ import annotations

import datetime
import gc
import json
import math
import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolchoice.providers.core import registry
from toolchoice.providers.core import reply as reply_reader
from toolchoice.providers.core.capabilities import PROVIDER_IDS
from toolchoice.providers.core.choice import parse_cli_value, parse_tool_choice
from toolchoice.providers.core.model import (SETTINGS_KEYS, ProviderError, RenderOptions, Reply, ToolchoiceError,
                                        Translation, wire_json)
from toolchoice.providers.core.scenario import load_scenario_text
from toolchoice.providers.core.verdict import verdict

RESPONSES = Path(__file__).resolve().parent / "data" / "responses"
SCALE = int(os.environ.get("TOOLCHOICE_FUZZ_SCALE", "1"))


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples * SCALE, deadline=None, database=None, derandomize=SCALE == 1,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


@pytest.fixture(autouse=True, scope="module")
def fewer_collector_passes():
    """Generating examples allocates millions of short-lived objects, and at CPython's default threshold
    (a young-generation pass every 700 net allocations) the cyclic collector cost 10-15% of this module's CPU.
    A larger young generation for this module only; the previous thresholds come back after it. Which
    objects are collected, and every check, are unchanged: only how often the collector runs."""
    before = gc.get_threshold()
    gc.set_threshold(10_000, *before[1:])
    yield
    gc.set_threshold(*before)


# ---- value strategies --------------------------------------------------------------------------

WORDS = ["auto", "none", "required", "any", "ANY", "AUTO", "NONE", "REQUIRED", "VALIDATED", "true", "false", "null",
         "function", "tool", "allowed_tools", "custom", "get_weather", "get_time", "", " ", "Auto", "nOnE"]
CHOICE_KEYS = ["tool", "allowed", "mode", "type", "function", "name", "functionCallingConfig",
               "function_calling_config", "toolConfig", "tool_config", "allowedFunctionNames",
               "allowed_function_names", "auto", "any", "none", "disable_parallel_tool_use", "allowed_tools", "tools"]

json_scalars = (st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
                | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12) | st.sampled_from(WORDS))
json_values = st.recursive(
    json_scalars,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8) | st.sampled_from(CHOICE_KEYS),
                                                              kids, max_size=4),
    max_leaves=24)

# what yaml.safe_load can hand back besides JSON: dates, bytes (!!binary), sets (!!set), NaN/inf
yaml_scalars = (json_scalars | st.dates() | st.datetimes() | st.binary(max_size=8)
                | st.sampled_from([math.nan, math.inf, -math.inf]))
yaml_keys = st.text(max_size=8) | st.sampled_from(CHOICE_KEYS) | st.integers() | st.booleans() | st.none() | st.dates()
yaml_values = st.recursive(
    yaml_scalars,
    lambda kids: (st.lists(kids, max_size=4) | st.dictionaries(yaml_keys, kids, max_size=4)
                  | st.frozensets(st.text(max_size=5) | st.integers(), max_size=3)),
    max_leaves=24)

tool_name_pool = st.sampled_from(["get_weather", "get_time", "auto", "none", "search", "a", "x" * 70, "read.file",
                                  "has space", "名前", "tool-1", "$weird", "required"])
tool_names = st.lists(tool_name_pool | st.text(max_size=10), max_size=5, unique=True).map(tuple)


def choice_objects(name: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Shapes close to the tool_choice forms the reader knows, with random holes; ``name`` draws a tool name."""
    anything = name | json_values
    return st.one_of(
        st.fixed_dictionaries({"tool": anything}),
        st.fixed_dictionaries({"allowed": st.lists(anything, max_size=4) | anything},
                              optional={"mode": st.sampled_from(WORDS) | anything}),
        st.fixed_dictionaries({"type": st.sampled_from(["function", "tool", "any", "auto", "none", "allowed_tools"])},
                              optional={"function": st.fixed_dictionaries({}, optional={"name": anything}) | anything,
                                        "name": anything, "disable_parallel_tool_use": json_scalars,
                                        "mode": anything, "tools": st.lists(anything | st.fixed_dictionaries(
                                            {"type": st.just("function"), "function": st.fixed_dictionaries(
                                                {"name": name})}), max_size=3),
                                        "allowed_tools": json_values}),
        st.fixed_dictionaries({"mode": st.sampled_from(WORDS) | anything},
                              optional={"allowedFunctionNames": st.lists(anything, max_size=3) | anything}),
        st.fixed_dictionaries({"functionCallingConfig": json_values}),
        st.dictionaries(st.sampled_from(CHOICE_KEYS), anything, max_size=3),
    )


# One test case's tool names: every draw of ``case_names`` in a test case returns the same tuple, so the
# strategies that pick from those names are built once here rather than anew for every example (building
# and validating a strategy tree per draw cost more than drawing from it).
case_names = st.shared(tool_names, key="fuzz.case_names")


@st.composite
def case_name(draw: st.DrawFn) -> str:
    """One of this test case's tool names; text when it has none."""
    names = draw(case_names)
    return draw(st.sampled_from(names) if names else st.text(max_size=6))


@st.composite
def case_word(draw: st.DrawFn) -> str:
    """A tool_choice word or one of this test case's tool names."""
    names = draw(case_names)
    return draw(st.sampled_from(WORDS + list(names) if names else WORDS))


choice_values = st.one_of(yaml_values, case_word(), choice_objects(case_name()))


@st.composite
def choice_inputs(draw: st.DrawFn) -> tuple[Any, tuple[str, ...]]:
    names = draw(case_names)
    return draw(choice_values), names


# ---- 1. the tool_choice reader ---------------------------------------------------------------------


@fuzz(500)
@given(choice_inputs())
def test_parse_tool_choice_raises_only_toolchoice_error(case):
    value, names = case
    try:
        choice = parse_tool_choice(value, names)
    except ToolchoiceError as exc:
        assert exc.one_line()
        return
    if choice is not None:
        assert choice.mode in ("auto", "none", "required", "named", "allowed")
        if choice.mode == "named":
            assert choice.name in names
        if choice.mode == "allowed":
            assert choice.allowed and set(choice.allowed) <= set(names)
        json.dumps(choice.to_json())


BAD_TAG = re.compile(r"!!(timestamp|int|float|bool)\b")  # see test_bad_values_under_explicit_core_tags_are_bad_input

YAMLISH = ["{", "}", "[", "]", ":", ", ", "tool", "allowed", "mode", "auto", "required", "get_weather", "'", '"',
           "!!binary aGk=", "!!python/object/apply:os.system ['true']", "!!set {a}", "&a ", "*a", "<<: ", "? ",
           "- ", "\n", "  ", "~", "null", ".nan", "2001-12-14", "0x1f", "1e5", "#", "|", ">", "%YAML 1.1", "\\"]


@fuzz(500)
@given(st.one_of(st.text(max_size=40), st.lists(st.sampled_from(YAMLISH), max_size=14).map("".join)), tool_names)
def test_cli_tool_choice_value_raises_only_toolchoice_error(text, names):
    """``--tool-choice TEXT``: parse_cli_value then parse_tool_choice, as inputs.scenario_with_override runs them."""
    assume(not BAD_TAG.search(text))  # the known crash, tested by the xfail below
    try:
        parse_tool_choice(parse_cli_value(text), names)
    except ToolchoiceError as exc:
        assert exc.one_line()


# ---- 2. the scenario loader ------------------------------------------------------------------------

SCENARIO_TOKENS = YAMLISH + ["tools:", "tool_choice:", "messages:", "providers:", "name:", "parameters:",
                             "role: user", "role: tool", "role: assistant", "tool_calls:", "tool_call_id:", "id:",
                             "content:", "openai:", "gemini:", "type: object", "properties:", "strict: true",
                             "parallel_tool_calls:", "system:", "- name: a", "max_tokens: 0", "headers:", "extra:",
                             "\t", "\x00", "\ufeff", "\x85", "\u2028", "&x [*x]", "!!timestamp 2001-01-01 "]
# Explicit core tags on a value they cannot read (!!timestamp 2001-01-01x, !!int abc, !!float abc,
# !!bool maybe) crash the loader and --tool-choice today: see the xfail test at the end. Tokens that
# glue such a tag to a bad value stay out of the soups above until that is fixed.


@fuzz(400)
@given(st.one_of(st.text(max_size=200), st.lists(st.sampled_from(SCENARIO_TOKENS), max_size=30).map("".join)))
def test_loader_on_arbitrary_text_raises_only_toolchoice_error(text):
    assume(not BAD_TAG.search(text))  # the known crash, tested by the xfail below
    try:
        load_scenario_text(text, "fuzz.yaml")
    except ToolchoiceError as exc:
        assert exc.path == "fuzz.yaml"


def maybe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Usually the plausible value, sometimes anything at all."""
    return st.one_of(strategy, strategy, strategy, yaml_values)


loose_tool = st.fixed_dictionaries({"name": maybe(tool_name_pool)}, optional={
    "description": maybe(st.text(max_size=20)),
    "parameters": maybe(st.fixed_dictionaries({"type": st.sampled_from(["object", "array", "string"])},
                                              optional={"properties": json_values, "required": json_values})),
    "strict": maybe(st.booleans()), "type": maybe(st.sampled_from(["function", "custom", "web_search"])),
    "function": json_values, "input_schema": json_values, "extra_key": json_values})
loose_message = st.fixed_dictionaries({"role": maybe(st.sampled_from(["user", "assistant", "tool", "system"]))},
                                      optional={"content": maybe(st.text(max_size=20)),
                                                "tool_calls": maybe(st.lists(st.fixed_dictionaries(
                                                    {"id": maybe(st.sampled_from(["c1", "c2"])),
                                                     "name": maybe(tool_name_pool)},
                                                    optional={"arguments": json_values}), max_size=3)),
                                                "tool_call_id": maybe(st.sampled_from(["c1", "c2", "c3"])),
                                                "name": maybe(tool_name_pool), "is_error": maybe(st.booleans())})
loose_settings = st.dictionaries(st.sampled_from(list(SETTINGS_KEYS) + ["modle", "key"]), yaml_values, max_size=4)
loose_document = st.fixed_dictionaries({}, optional={
    "tools": maybe(st.lists(loose_tool, max_size=4)),
    "tool_choice": st.one_of(yaml_values, st.sampled_from(WORDS + ["yes", "off", "get_weather"]),
                             choice_objects(st.sampled_from(("get_weather", "get_time")))),
    "messages": maybe(st.lists(loose_message, max_size=5)),
    "providers": maybe(st.dictionaries(st.sampled_from(list(PROVIDER_IDS) + ["opneai"]), maybe(loose_settings),
                                       max_size=3)),
    "parallel_tool_calls": maybe(st.booleans()), "strict": maybe(st.booleans()),
    "system": maybe(st.text(max_size=20)), "name": yaml_values, "description": yaml_values,
    "tool_chioce": json_values})


def dump(document: Any) -> str:
    try:
        return yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
    except yaml.representer.RepresenterError:  # frozensets: not representable by safe_dump
        return yaml.dump(document, sort_keys=False, allow_unicode=True)


@fuzz(400)
@given(loose_document)
def test_loader_on_structured_documents_raises_only_toolchoice_error(document):
    try:
        scenario = load_scenario_text(dump(document), "fuzz.yaml")
    except ToolchoiceError as exc:
        assert exc.path == "fuzz.yaml" and exc.message
        return
    for pid in PROVIDER_IDS[:3]:  # what loads must translate
        registry.translate(pid, scenario, RenderOptions())


# ---- 3. reading replies ----------------------------------------------------------------------------


def recorded_bodies() -> list[Any]:
    bodies = []
    for path in sorted(RESPONSES.glob("*/*.json")):
        if not path.name.endswith(".expect.json"):
            bodies.append(json.loads(path.read_text(encoding="utf-8")))
    return bodies


RECORDED = recorded_bodies()


def paths_in(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths_in(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += paths_in(item, prefix + (i,))
    return out


def mutate(body: Any, path: tuple[Any, ...], action: str, new: Any) -> Any:
    """``body`` with the value at ``path`` replaced / removed / wrapped."""
    if not path:
        return new if action != "wrap" else [body]
    parent = body
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if action == "delete":
        del parent[last]
    elif action == "wrap":
        parent[last] = [parent[last]]
    elif action == "stringify":
        parent[last] = json.dumps(parent[last])
    else:
        parent[last] = new
    return body


recorded_bodies_drawn = st.sampled_from(RECORDED)
mutations = st.sampled_from(["replace", "replace", "delete", "wrap", "stringify", "null"])


@st.composite
def mutated_bodies(draw: st.DrawFn) -> Any:
    body = json.loads(json.dumps(draw(recorded_bodies_drawn)))
    for _ in range(draw(st.integers(1, 4))):
        paths = paths_in(body)
        path = paths[draw(st.integers(0, len(paths) - 1))]
        action = draw(mutations)
        new = None if action == "null" else draw(json_values)
        body = mutate(body, path, action, new)
    return body


def reply_is_plain_data(reply: Reply) -> None:
    assert isinstance(reply, Reply)
    json.dumps(reply.to_json(), ensure_ascii=False)
    for call in reply.tool_calls:
        assert isinstance(call.name, str)
        assert (call.arguments is None) == (call.arguments_error is not None)


def parse_every_provider(body: Any) -> None:
    for pid in PROVIDER_IDS:
        try:
            reply = registry.parse_reply(pid, body)
        except ToolchoiceError as exc:
            assert exc.message.startswith(f"{pid}: ")
            continue
        reply_is_plain_data(reply)


@fuzz(300)
@given(json_values)
def test_every_parse_reply_on_arbitrary_json_raises_only_toolchoice_error(body):
    parse_every_provider(body)


JUDGE = load_scenario_text("""
tools:
  - {name: get_weather, parameters: {type: object, properties: {city: {type: string}, state: {type: string}},
                                     required: [city], additionalProperties: false}}
  - {name: weather, parameters: {type: object, properties: {location: {type: string}}}}
  - {name: GetWeatherArgs, strict: true, parameters: {type: object, properties: {city: {type: string}}}}
  - {name: get_stock_price, parameters: {type: object, properties: {ticker: {type: string, pattern: "^[A-Z]+$"}}}}
  - {name: cityAttractions, parameters: {type: object, properties: {city: {type: string, enum: [Paris]}}}}
  - {name: no_params}
tool_choice: required
parallel_tool_calls: false
""", "judge.yaml")
JUDGED = {pid: registry.translate(pid, JUDGE, RenderOptions()) for pid in PROVIDER_IDS}


@fuzz(300)
@given(mutated_bodies())
def test_every_parse_reply_and_the_verdict_on_damaged_real_bodies(body):
    for pid in PROVIDER_IDS:
        try:
            reply = registry.parse_reply(pid, body)
        except ToolchoiceError as exc:
            assert exc.message.startswith(f"{pid}: ")
            continue
        reply_is_plain_data(reply)
        judged = verdict(JUDGE, reply, JUDGED[pid])
        json.dumps(judged, ensure_ascii=False)


statuses = st.one_of(st.none(), st.sampled_from([200, 201, 204, 301, 400, 401, 403, 404, 408, 422, 429, 500, 502,
                                                 503, 529]), st.integers(-5, 1000))
header_maps = st.one_of(st.none(), st.dictionaries(
    st.sampled_from(["x-amzn-ErrorType", "X-Amzn-Errortype", "content-type", "retry-after"]) | st.text(max_size=6),
    st.text(max_size=30) | st.sampled_from(["ValidationException:http://internal.amazon.com/coral/", ",", ":", "#"]),
    max_size=3))
error_like = st.one_of(json_values, mutated_bodies(), st.text(max_size=80), st.binary(max_size=40),
                       st.sampled_from(["<html><title>x</title>", "<html><head><title></title>", "<body>", "",
                                        '{"error": ', '[{"error": {"code": 429}}]']),
                       yaml_values)


@fuzz(400)
@given(st.sampled_from(PROVIDER_IDS), statuses, error_like, header_maps)
def test_provider_error_never_raises(provider, status, body, headers):
    err = reply_reader.provider_error(provider, status, body, headers=headers)
    assert isinstance(err, ProviderError)
    line = err.one_line(provider)
    assert line.startswith(f"{provider}:") and "\n" not in line


@fuzz(400)
@given(st.sampled_from(PROVIDER_IDS), statuses, st.one_of(st.none(), json_values, mutated_bodies()),
       st.text(max_size=60), header_maps)
def test_read_reply_never_raises(provider, status, body, text, headers):
    reply = reply_reader.read_reply(provider, status, body, text, headers=headers)
    reply_is_plain_data(reply)
    if status is not None and not 200 <= status < 300:
        assert reply.error is not None
    if reply.error is not None:
        assert "\n" not in reply.error.one_line(provider)


# ---- 4. translate over random valid scenarios --------------------------------------------------------

VALID_NAMES = ["get_weather", "get_time", "search_web", "read_file", "a", "Tool_2", "x" * 64, "x" * 65, "read.file",
               "has space", "名前", "tool-3", "auto", "none"]

leaf_schemas = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["string", "integer", "number", "boolean", "null"])},
                          optional={"description": st.text(max_size=15), "enum": st.lists(json_scalars, max_size=3),
                                    "format": st.sampled_from(["date-time", "email", "uri", "uuid", "weird"]),
                                    "pattern": st.sampled_from(["^[a-z]+$", "(", ".*"]),
                                    "minimum": st.integers(-5, 5), "maxLength": st.integers(0, 9),
                                    "default": json_scalars, "nullable": st.booleans(), "examples": json_values,
                                    "title": st.text(max_size=8), "const": json_scalars}),
    st.fixed_dictionaries({"type": st.lists(st.sampled_from(["string", "null", "integer", "object"]), min_size=1,
                                            max_size=3, unique=True)}),
    st.fixed_dictionaries({"$ref": st.sampled_from(["#/$defs/Item", "#/$defs/Node", "#/definitions/Old",
                                                    "#/$defs/missing", "#", "https://example.com/s.json",
                                                    "#/properties/a"])}),
    st.just({}), st.just(True), st.just(False),
)


def object_of(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(
        lambda props, required, extra, add: {
            "type": "object", "properties": props,
            **({"required": [k for k in props if k in required]} if required else {}),
            **({"additionalProperties": add} if extra else {})},
        st.dictionaries(st.sampled_from(["a", "b", "city", "unit", "items", "type", "properties", "$ref", "名"]),
                        children, max_size=4),
        st.lists(st.sampled_from(["a", "b", "city", "unit", "items", "missing"]), max_size=3),
        st.booleans(), st.one_of(st.booleans(), children))


schemas = st.recursive(
    leaf_schemas,
    lambda kids: st.one_of(
        object_of(kids),
        st.fixed_dictionaries({"type": st.just("array"), "items": kids},
                              optional={"minItems": st.integers(0, 3), "uniqueItems": st.booleans()}),
        st.builds(lambda key, items: {key: items}, st.sampled_from(["anyOf", "oneOf", "allOf"]),
                  st.lists(kids, min_size=1, max_size=3)),
        st.fixed_dictionaries({"not": kids}),
        st.fixed_dictionaries({"type": st.just("object"), "patternProperties": st.fixed_dictionaries({"^x": kids})}),
    ),
    max_leaves=12)

parameters = st.one_of(
    st.none(),
    object_of(schemas),
    st.builds(lambda base, defs: {**base, "$defs": defs}, object_of(schemas),
              st.fixed_dictionaries({"Item": schemas}, optional={"Node": st.just(
                  {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}})})),
    st.builds(lambda base, old: {**base, "definitions": {"Old": old}}, object_of(schemas), schemas),
    st.just({"type": "object"}), st.just({}),
)


# Strategies the scenario builder draws from, built once (a strategy built inside a composite is built and
# validated again for every example).
valid_name_lists = st.lists(st.sampled_from(VALID_NAMES), max_size=5, unique=True)
allowed_modes = st.sampled_from(["auto", "required", "any", "ANY", "AUTO", "REQUIRED"])
auto_or_required = st.sampled_from(["auto", "required"])
any_or_auto = st.sampled_from(["ANY", "AUTO"])
history_steps = st.lists(st.sampled_from(["user", "assistant", "calls", "results"]), max_size=6)
call_arguments = st.dictionaries(st.text(max_size=5), json_values, max_size=3)
result_contents = st.text(max_size=20) | json_values
provider_id_lists = st.lists(st.sampled_from(PROVIDER_IDS), max_size=4, unique=True)
option_models = st.none() | st.sampled_from(["m", "gpt-4o", "claude-3-5-sonnet-20240620", "claude-sonnet-4-5",
                                             "deepseek-reasoner", "o3-mini", "gemini-2.0-flash"])
option_base_urls = st.none() | st.sampled_from(["http://127.0.0.1:8000/v1", "http://x/", "not a url",
                                                "http://h/$OPENAI_API_KEY"])
provider_settings = st.fixed_dictionaries({}, optional={
    "model": st.sampled_from(["m", "gpt-4o-mini", "claude-3-haiku-20240307", "claude-sonnet-4-5",
                              "deepseek-reasoner", "gemini-2.5-flash", "command-r", "llama3.1"]),
    "base_url": st.sampled_from(["http://127.0.0.1:9/v1", "https://proxy.example/openai/"]),
    "max_tokens": st.integers(1, 300_000), "temperature": st.floats(0, 2), "thinking": st.booleans(),
    "deployment": st.sampled_from(["dep", "gpt 4o"]), "endpoint": st.sampled_from(["https://r.openai.azure.com"]),
    "api_version": st.sampled_from(["2024-10-21", "preview"]), "region": st.sampled_from(["us-east-1", "eu"]),
    "api_key_env": st.sampled_from(["MY_KEY", "OTHER_KEY"]),
    "headers": st.dictionaries(st.sampled_from(["X-A", "Authorization", "anthropic-beta", "x-api-key"]),
                               # under 8 characters: a longer literal in a key header (x-api-key) is refused
                               st.sampled_from(["v", "$MY_TOKEN", "Bearer ${X}", "tools-1"]), max_size=2),
    "extra": st.dictionaries(st.sampled_from(["tool_choice", "tools", "seed", "top_k", "stream", "x"]),
                             json_values, max_size=2),
})


@st.composite
def valid_scenarios(draw: st.DrawFn) -> tuple[dict[str, Any], RenderOptions]:
    names = draw(valid_name_lists)
    document: dict[str, Any] = {}
    if names or draw(st.booleans()):
        document["tools"] = []
        for name in names:
            tool: dict[str, Any] = {"name": name}
            if draw(st.booleans()):
                tool["description"] = draw(st.text(max_size=30))
            params = draw(parameters)
            if params is not None:
                tool["parameters"] = params
            if draw(st.booleans()):
                tool["strict"] = draw(st.booleans())
            document["tools"].append(tool)
    # every spelling the reader takes
    spellings: list[Any] = ["auto", "none", "required", "any", True, False, None, "AUTO", "ANY", "NONE",
                            {"type": "auto"}, {"type": "any"}, {"type": "none"}, {"auto": {}}, {"any": {}},
                            {"mode": "AUTO"}, {"mode": "ANY"}, {"mode": "NONE"}, {"functionCallingConfig": {"mode": "ANY"}}]
    for name in names:
        spellings += [{"tool": name}, {"type": "function", "function": {"name": name}}, {"type": "function", "name": name},
                      {"type": "tool", "name": name}, {"tool": {"name": name}}, {"function": {"name": name}},
                      {"mode": "ANY", "allowedFunctionNames": [name]}]
        if name.lower() not in ("auto", "none", "required", "any"):
            spellings.append(name)
    if names:
        subset = draw(st.lists(st.sampled_from(names), min_size=1, max_size=len(names), unique=True))
        mode = draw(allowed_modes)
        spellings += [{"allowed": subset}, {"allowed": subset, "mode": mode},
                      {"type": "allowed_tools", "mode": draw(auto_or_required),
                       "tools": [{"type": "function", "name": n} for n in subset]},
                      {"type": "allowed_tools", "allowed_tools": {"mode": "required", "tools": [
                          {"type": "function", "function": {"name": n}} for n in subset]}},
                      {"mode": draw(any_or_auto), "allowedFunctionNames": subset}]
    if draw(st.integers(0, 9)):
        document["tool_choice"] = draw(st.sampled_from(spellings))
    for key in ("parallel_tool_calls", "strict"):
        if draw(st.booleans()):
            document[key] = draw(st.booleans())
    if draw(st.booleans()):
        document["system"] = draw(st.text(max_size=30))
    document["messages"] = draw(histories(names))
    if not document["messages"]:
        del document["messages"]
    providers = draw(provider_id_lists)
    if providers:
        document["providers"] = {pid: draw(provider_settings) for pid in providers}
    options = RenderOptions(strict=draw(st.booleans()), emulate=draw(st.booleans()),
                            model=draw(option_models), base_url=draw(option_base_urls))
    return document, options


@st.composite
def histories(draw: st.DrawFn, names: list[str]) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    open_calls: list[str] = []
    counter = 0
    for step in draw(history_steps):
        if step == "user":
            messages.append({"role": "user", "content": draw(st.text(max_size=20))})
        elif step == "assistant":
            messages.append({"role": "assistant", "content": draw(st.text(max_size=20))})
        elif step == "calls":
            calls = []
            for _ in range(draw(st.integers(1, 3))):
                counter += 1
                call_id = f"call_{counter}"
                calls.append({"id": call_id, "name": draw(st.sampled_from(names + ["old_tool", "get_weather"])),
                              "arguments": draw(call_arguments)})
                open_calls.append(call_id)
            message: dict[str, Any] = {"role": "assistant", "tool_calls": calls}
            if draw(st.booleans()):
                message["content"] = draw(st.text(max_size=10))
            messages.append(message)
        elif open_calls:
            for call_id in draw(st.lists(st.sampled_from(open_calls), min_size=1, unique=True)):
                open_calls.remove(call_id)
                result: dict[str, Any] = {"role": "tool", "tool_call_id": call_id,
                                          "content": draw(result_contents)}
                if draw(st.booleans()):
                    result["is_error"] = draw(st.booleans())
                messages.append(result)
    return messages




@fuzz(150)
@given(valid_scenarios())
def test_translate_every_provider_over_random_valid_scenarios(case):
    document, options = case
    scenario = load_scenario_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), "fuzz.yaml")
    for pid in PROVIDER_IDS:
        t = registry.translate(pid, scenario, options)
        assert isinstance(t, Translation) and t.provider == pid
        if t.request is None:
            assert any(e.severity == "error" for e in t.ledger), (pid, t.ledger)
        else:
            assert not any(e.severity == "error" for e in t.ledger), (pid, t.ledger)
            assert isinstance(t.request.body, dict) and t.request.url.startswith(("http", "not a url"))
            wire_json(t.request.body)
            assert all(isinstance(k, str) and isinstance(v, str) for k, v in t.request.headers.items())
            if options.strict:
                assert not any(e.severity == "warning" for e in t.ledger), pid
        json.dumps(t.to_json(), ensure_ascii=False)
        assert all(e.code and "." in e.code and e.message for e in t.ledger), (pid, t.ledger)


# ---- product bugs found here (strict xfail: they fail today; fix, then drop the mark) ------------------


@pytest.mark.parametrize("ref", ["#/$defs/missing", "https://example.com/schema.json"])
def test_verdict_survives_a_ref_it_cannot_resolve(ref):
    from toolchoice.providers.core.model import ToolCall

    scenario = load_scenario_text(
        "tools:\n  - name: t\n    parameters: {type: object, properties: {a: {$ref: '" + ref + "'}}}\n"
        "tool_choice: required\nmessages: [{role: user, content: hi}]\n", "ref.yaml")  # OpenAI refuses no messages
    translation = registry.translate("openai", scenario, RenderOptions())
    assert translation.request is not None  # the request itself goes out
    judged = verdict(scenario, Reply(tool_calls=(ToolCall("call_1", "t", {"a": 1}),)), translation)
    assert judged["category"] in ("obeyed", "invalid_arguments")


def test_yaml_scalars_in_tool_choice_are_refused_cleanly():
    """Concrete cases the fuzzer covers, kept as plain tests: what yaml.safe_load builds is not JSON."""
    for value in ({"tool": b"hi"}, {datetime.date(2001, 1, 1): "x"}, {"allowed": frozenset({"a"})}, math.nan):
        with pytest.raises(ToolchoiceError):
            parse_tool_choice(value, ("a",))


BAD_TAGGED = ["!!timestamp 2001-01-01x", "!!int abc", "!!float abc", "!!bool maybe"]


@pytest.mark.parametrize("tagged", BAD_TAGGED)
def test_bad_values_under_explicit_core_tags_are_bad_input(tagged):
    with pytest.raises(ToolchoiceError) as loaded:
        load_scenario_text(f"tools:\n  - name: a\nsystem: {tagged}\n", "tags.yaml")
    assert loaded.value.line == 3
    with pytest.raises(ToolchoiceError):
        parse_tool_choice(parse_cli_value(f"{{tool: {tagged}}}"), ("a",))
