"""A `.json` file is composed once, with JSON's grammar (providers/core/json_nodes.py), into the nodes libyaml
composes from the same text: held to PyYAML's own C composer (the loader the old path used) for generated JSON
and the repository's JSON files, node by node (class, tag, value, style, start and end line and column). Whatever
YAML could read otherwise is left to the old path; and a bad `.json` scenario says the same line, column and words
whichever path read it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from toolchoice.providers.core import json_nodes, yaml_input
from toolchoice.providers.core.model import ToolchoiceError
from toolchoice.providers.core.scenario import load_scenario_text

DATA = Path(__file__).resolve().parent / "data"
CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def libyaml(text: str) -> yaml.Node:
    loader = yaml_input._CSafeLoader(text)  # PyYAML's C loader, with JSON's exponents as floats (the old fast path)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def shape(node: yaml.Node) -> tuple:
    """Everything of a node a reader could look at, children included."""
    where = (node.start_mark.line, node.start_mark.column, node.end_mark.line, node.end_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return ("scalar", node.tag, node.value, node.style, where)
    if isinstance(node, yaml.MappingNode):
        return ("map", node.tag, node.flow_style, where, [(shape(k), shape(v)) for k, v in node.value])
    return ("seq", node.tag, node.flow_style, where, [shape(child) for child in node.value])


def same_as_libyaml(text: str) -> None:
    ours = json_nodes.compose(text, yaml_input.MAX_DEPTH)
    assert ours is not None, text[:200]
    assert type(ours) is type(libyaml(text))
    assert shape(ours) == shape(libyaml(text))


# JSON values whose text libyaml reads as JSON does: strings with escapes and non-ASCII, numbers in each spelling
_KEYS = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=8)
_SCALARS = (st.none() | st.booleans() | st.integers(-10**30, 10**30)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
                       max_leaves=30)


@settings(max_examples=150, deadline=None)
@given(value=st.lists(_VALUES, max_size=4) | st.dictionaries(_KEYS, _VALUES, max_size=4),
       indent=st.sampled_from([None, 0, 1, 2, 4]), ascii_only=st.booleans(), compact=st.booleans())
def test_generated_json_composes_as_libyaml_composes_it(value, indent, ascii_only, compact):
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only, separators=(",", ":") if compact else None)
    if json_nodes._UNLIKE_YAML.search(text):  # a surrogate pair's escape, a tab or NEL in a string: the old path's
        assert json_nodes.compose(text, yaml_input.MAX_DEPTH) is None
        return
    same_as_libyaml(text)


@pytest.mark.parametrize("text", [
    '{"a": [1, -0, -0.5, 1e5, 2E-3, 1.5e+3, 0.0, true, false, null, "", {}, []]}',
    '  \n\n{ "é" :{"b" : "c\\n\\"\\\\\\/\\b\\f\\u00e9\\u0000"} ,"x":[ ] }\n\n',
    '[{"k": "\U0001F600 ünïcode"}, "\U0001F600", 12345678901234567890123]',
    '{"a":1,"a":2}',  # duplicate keys are kept as written: the reader refuses them at the second
    '[[[[[]]]]]',
])
def test_hand_written_json_composes_as_libyaml_composes_it(text):
    same_as_libyaml(text)


def test_the_repository_json_files_compose_as_libyaml_composes_them():
    files = sorted((DATA / "tools").glob("*.json")) + sorted((DATA / "schemas").glob("*.json"))
    assert len(files) > 15
    for path in files:
        same_as_libyaml(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("text", [
    '{\n\t"a": 1\n}',  # a tab: YAML takes it only in some places
    '{"a": 1}\r\n',  # YAML counts \r as a line break too
    '["a\u2028b"]', '["a\x85b"]', '["a\x7fb"]', '["\ufffe"]',  # YAML's line breaks and characters it refuses
    '["\\ud83d\\ude00"]',  # libyaml refuses a surrogate escape
    '{"' + "k" * 1200 + '": 1}',  # a key past YAML's simple-key reach
    '{"a"\n: 1}',  # a key a line away from its colon
    '[NaN]', '[Infinity]', '[1,]', "{'a': 1}", '{"a": 1} x', '[01]', '', '  ', '[1' + "0" * 4100 + ']',
    "[" * 102 + "]" * 102,  # past MAX_DEPTH: the old path says so
])
def test_what_yaml_may_read_otherwise_is_left_to_the_old_path(text):
    assert json_nodes.compose(text, yaml_input.MAX_DEPTH) is None


def test_depth_bound_is_the_old_one():
    assert json_nodes.compose("[" * 101 + "]" * 101, yaml_input.MAX_DEPTH) is not None
    assert json_nodes.compose("[" * 101 + "1" + "]" * 101, yaml_input.MAX_DEPTH) is None


def old_path(monkeypatch):
    monkeypatch.setattr(json_nodes, "compose", lambda text, depth: None)


def outcome(text: str, name: str):
    try:
        scenario = load_scenario_text(text, name)
    except ToolchoiceError as exc:
        return ("error", exc.message, exc.path, exc.line, exc.column, exc.hint)
    return ("read", repr(scenario))


def bad_scenarios_as_json() -> list[tuple[str, str]]:
    """Each bad YAML scenario whose data JSON can hold, written as JSON (its errors move to the JSON's lines)."""
    out = []
    for path in sorted((DATA / "bad").glob("*.yaml")):
        try:
            text = path.read_text(encoding="utf-8")
            if "&" in text:  # an anchor: an alias bomb would expand here
                continue
            data = yaml.safe_load(text)
            out.append((path.stem, json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)))
        except (yaml.YAMLError, TypeError, ValueError, UnicodeDecodeError):
            continue
    return out


def test_a_bad_json_scenario_says_the_same_line_and_words_on_either_path(monkeypatch):
    cases = bad_scenarios_as_json() + [(p.stem, json.dumps(yaml.safe_load(p.read_text(encoding="utf-8")), indent=1))
                                       for p in sorted(CONFIGS.glob("*.yaml"))]
    assert len(cases) > 40
    once = {name: outcome(text, f"{name}.json") for name, text in cases}
    assert sum(result[0] == "error" for result in once.values()) > 30
    old_path(monkeypatch)
    for name, text in cases:
        assert outcome(text, f"{name}.json") == once[name], name


@pytest.mark.parametrize("text, line, column, words", [
    ('{\n  "tools": [],\n  "tool_choice": "auto",\n  "tool_choice": "none"\n}\n', 4, 3, "duplicate key 'tool_choice'"),
    ('{\n  "tools": [\n    {"name": "a"},\n    {"name": "a"}\n  ],\n  "messages": [{"role": "user", "content": "x"}]\n}',
     4, 5, "duplicate tool name 'a'"),
    ('{"tools": [{"name": "a", "parameters": {"type": "object"}}],\n "messages": [{"role": "user", "content": "x"}],\n'
     ' "tool_choice": 1e400}', 3, 17, "numbers must be finite"),
])
def test_a_bad_json_scenario_names_its_line_and_column(text, line, column, words):
    with pytest.raises(ToolchoiceError) as caught:
        load_scenario_text(text, "s.json")
    assert (caught.value.path, caught.value.line, caught.value.column) == ("s.json", line, column)
    assert words in caught.value.message
