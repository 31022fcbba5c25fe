"""The bounded validator (providers/core/schema_patterns.py) against jsonschema's own, the outside truth: draft
2019-09's ``$recursiveRef`` and 2020-12's ``$dynamicRef`` (the branches of ``_evaluated_names`` that follow them for
``unevaluatedProperties``), with trees that extend a base, an anchor the dynamic scope overrides, reference cycles
and instances nested to the argument reader's depth bound; and the walk held to jsonschema's own
``find_evaluated_property_keys_by_schema`` name for name over many shapes, so that a jsonschema whose internals
moved fails here, saying so, rather than judging calls differently without a word."""

from __future__ import annotations

import importlib
import importlib.metadata
from typing import Any

import pytest
from jsonschema import validators

from toolchoice.providers.core import schema_patterns
from toolchoice.providers.core.model import Tool, ToolCall
from toolchoice.providers.core.verdict import _offline_registry, argument_errors

D19 = "https://json-schema.org/draft/2019-09/schema"
D20 = "https://json-schema.org/draft/2020-12/schema"


def _tree(draft: str) -> dict[str, Any]:
    """The test suite's strict-tree: a tree whose children are (dynamically) the strict tree extending it."""
    if draft == D19:
        anchor, ref = {"$recursiveAnchor": True}, {"$recursiveRef": "#"}
    else:
        anchor, ref = {"$dynamicAnchor": "node"}, {"$dynamicRef": "#node"}
    return {"$schema": draft, "$id": "https://example.test/strict-tree", **anchor, "$ref": "tree",
            "unevaluatedProperties": False,
            "$defs": {"tree": {"$id": "https://example.test/tree", **anchor, "type": "object",
                               "properties": {"data": True, "children": {"type": "array", "items": ref}}}}}


def _nested(levels: int, leaf: dict[str, Any]) -> dict[str, Any]:
    value = leaf
    for _ in range(levels):
        value = {"children": [value]}
    return value


# the reference followed at the level of unevaluatedProperties itself: the walk follows it there
_OVERRIDDEN_20 = {"$schema": D20, "$id": "https://example.test/root", "$ref": "list",
                  "$defs": {"meta": {"$dynamicAnchor": "item", "properties": {"x": True}},
                            "list": {"$id": "https://example.test/list",
                                     "$defs": {"default": {"$dynamicAnchor": "item", "properties": {"y": True}}},
                                     "$dynamicRef": "#item", "unevaluatedProperties": False}}}
_PLAIN_ANCHOR_20 = {"$schema": D20, "$dynamicRef": "#/$defs/base", "unevaluatedProperties": False,
                    "$defs": {"base": {"properties": {"a": True}, "patternProperties": {"^x": {"type": "integer"}}}}}
_RECURSIVE_19 = {"$schema": D19, "$id": "https://example.test/root", "$recursiveAnchor": True, "$ref": "list",
                 "properties": {"x": True},
                 "$defs": {"list": {"$id": "https://example.test/list", "$recursiveAnchor": True,
                                    "properties": {"y": True, "deeper": {"$recursiveRef": "#"}},
                                    "anyOf": [{"required": ["y"]}, {"required": ["deeper"]}],
                                    "unevaluatedProperties": False}}}
_NO_ANCHOR_19 = {"$schema": D19, "allOf": [{"$ref": "#/$defs/base"}], "properties": {"n": {"$recursiveRef": "#"}},
                 "unevaluatedProperties": {"type": "integer"}, "$defs": {"base": {"properties": {"a": True}}}}
_BESIDE_19 = {"$schema": D19, "$ref": "https://example.test/leaf#/$defs/user",
              "$defs": {"leaf": {"$id": "https://example.test/leaf", "properties": {"w": True},
                                 "$defs": {"user": {"$recursiveRef": "#", "unevaluatedProperties": False}}}}}
_INSTANCES = [{}, {"x": 1}, {"y": 1}, {"z": 1}, {"a": 1}, {"x1": "s"}, {"a": 1, "x2": 2, "zz": "s"},
              {"deeper": {"x": 1}}, {"deeper": {"q": 1}, "y": 2}, {"data": 1, "extra": 2},
              {"children": [{"data": 1}, {"daat": 1}]}, _nested(4, {"bad": 1}), 7,
              {"n": {"a": "s", "z": 1}}, {"n": {"n": {"z": "s"}}}, {"w": 1}, {"w": 1, "v": 2}]

SHAPES = {"strict tree 2019-09": _tree(D19), "strict tree 2020-12": _tree(D20),
          "dynamic anchor overridden 2020-12": _OVERRIDDEN_20, "dynamicRef to a pointer 2020-12": _PLAIN_ANCHOR_20,
          "recursiveRef beside unevaluatedProperties 2019-09": _RECURSIVE_19,
          "recursiveRef without an anchor 2019-09": _NO_ANCHOR_19,
          "recursiveRef at unevaluatedProperties 2019-09": _BESIDE_19}


def _said(validator: Any, instance: Any) -> Any:
    try:
        return sorted((e.message, list(e.absolute_path), e.validator) for e in validator.iter_errors(instance))
    except RecursionError:
        return "RecursionError"


def _pair(schema: dict[str, Any]) -> tuple[Any, Any]:
    cls = validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, registry=_offline_registry()), schema_patterns.bounded(cls)(schema, registry=_offline_registry())


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_recursive_and_dynamic_refs_say_what_jsonschema_says(name: str) -> None:
    theirs, ours = _pair(SHAPES[name])
    answers = set()
    for instance in _INSTANCES:
        said = _said(theirs, instance)
        assert said != "RecursionError" and _said(ours, instance) == said, (name, instance)
        answers.add(bool(said))
    assert answers == {True, False}, name  # each shape both passes and fails some instance


@pytest.mark.parametrize("draft", [D19, D20])
def test_a_tree_nested_to_the_argument_depth_bound_says_what_jsonschema_says(draft: str) -> None:
    """Arguments nest at most json_depth (100) levels: a tree of 49 (98 JSON levels) is judged, not given up on."""
    theirs, ours = _pair(_tree(draft))
    for leaf in ({"data": 1}, {"bad": 1}):
        instance = _nested(49, leaf)
        said = _said(theirs, instance)
        assert said != "RecursionError"
        assert _said(ours, instance) == said
    assert _said(ours, _nested(49, {"bad": 1}))[0][1] == ["children", 0] * 49


CYCLES = {
    "recursiveRef to itself": {"$schema": D19, "$recursiveAnchor": True, "$recursiveRef": "#",
                               "unevaluatedProperties": False},
    "recursiveRef through anyOf": {"$schema": D19, "$recursiveAnchor": True, "anyOf": [{"$recursiveRef": "#"}],
                                   "unevaluatedProperties": False},
    "dynamicRef to itself": {"$schema": D20, "$dynamicAnchor": "x", "$dynamicRef": "#x", "unevaluatedProperties": False},
    "dynamicRef through a base that refers back": {
        "$schema": D20, "$id": "https://example.test/a", "$dynamicAnchor": "meta", "$ref": "b",
        "$defs": {"b": {"$id": "https://example.test/b", "$dynamicAnchor": "meta", "$dynamicRef": "#meta",
                        "unevaluatedProperties": False}}},
}


@pytest.mark.parametrize("name", sorted(CYCLES))
def test_a_reference_cycle_is_one_line_as_jsonschema_cannot_end_it_either(name: str) -> None:
    theirs, ours = _pair(CYCLES[name])
    assert _said(theirs, {"a": 1}) == _said(ours, {"a": 1}) == "RecursionError"
    tool = Tool(name="t", parameters={"type": "object", **CYCLES[name]})
    said = argument_errors(tool, ToolCall("c1", "t", {"a": 1}))
    assert said == ["schema: its $refs loop without end; arguments not checked"]


# ---- the walk against jsonschema's own ------------------------------------------------------------------------------

# schema_patterns._evaluated_names follows these functions of this jsonschema; another version may have moved them
FOLLOWED = "4.26"
_INTERNALS = {D20: ("jsonschema._utils", "find_evaluated_property_keys_by_schema"),
              D19: ("jsonschema._legacy_keywords", "find_evaluated_property_keys_by_schema")}


def _theirs(draft: str) -> Any:
    module, name = _INTERNALS[draft]
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        pytest.fail(f"jsonschema {importlib.metadata.version('jsonschema')} has no {module}.{name}, which "
                    f"schema_patterns._evaluated_names follows (written against {FOLLOWED}): read its "
                    "unevaluatedProperties again and update the walk", pytrace=False)


def test_the_jsonschema_the_walk_follows_is_the_one_installed() -> None:
    installed = importlib.metadata.version("jsonschema")
    assert installed.startswith(FOLLOWED + "."), (
        f"jsonschema {installed} is installed; schema_patterns._evaluated_names follows {FOLLOWED}'s "
        "find_evaluated_property_keys_by_schema (_utils, _legacy_keywords): compare them, then update FOLLOWED here")
    from referencing.jsonschema import lookup_recursive_ref  # noqa: F401 - the 2019-09 branch imports it


def _walk_shapes() -> list[dict[str, Any]]:
    """Every keyword the walk reads, alone and together (the shapes of tests/test_debts12.py and more)."""
    return [
        {"properties": {"a": {}, "b": False}}, {"additionalProperties": {"type": "integer"}},
        {"additionalProperties": True}, {"additionalProperties": False}, {"unevaluatedProperties": {"type": "string"}},
        {"unevaluatedProperties": True}, {"patternProperties": {"^x": {}, "z$": {"type": "string"}}},
        {"dependentSchemas": {"a": {"properties": {"b": {}}}, "q": {"patternProperties": {"^x": {}}}}},
        {"allOf": [{"properties": {"a": {}}}, {"patternProperties": {"^x": {}}}]},
        {"anyOf": [{"properties": {"a": {}}, "required": ["a"]}, {"properties": {"b": {}}, "required": ["b"]}]},
        {"oneOf": [{"properties": {"zz": {}}}, {"required": ["q"]}]},
        {"if": {"required": ["a"]}, "then": {"properties": {"b": {}}}, "else": {"properties": {"c": {}}}},
        {"if": {"required": ["a"]}, "then": {"properties": {"b": {}}}},
        {"if": {"required": ["a"]}, "else": {"properties": {"c": {}}}},
        {"$ref": "#/$defs/base", "$defs": {"base": {"properties": {"b": {}}, "allOf": [{"properties": {"c": {}}}]}}},
        {"not": {"properties": {"a": {}}}, "properties": {"c": {}}},
        {"items": {"properties": {"a": {}}}, "properties": {"a": {"properties": {"b": {}}}}},
        True, False,
    ]


@pytest.mark.parametrize("draft", [D19, D20])
def test_the_walk_evaluates_the_names_jsonschema_s_own_walk_does(draft: str) -> None:
    """Name for name, for every shape above and the recursive/dynamic ones, on instances each shape splits."""
    theirs = _theirs(draft)
    instances = [{}, {"a": 1}, {"b": "s"}, {"c": 1}, {"q": 1, "x1": 2}, {"a": 1, "b": 2, "c": 3, "zz": "s"},
                 {"xz": "s", "a": "t"}, {"y": 1, "deeper": {"x": 1}}, {"data": 1, "children": []}, {"w": 1, "x": 2}]
    shapes = [s if isinstance(s, bool) else {"$schema": draft, **s} for s in _walk_shapes()]
    shapes += [s for s in SHAPES.values() if s["$schema"] == draft]
    compared = 0
    for shape in shapes:
        cls = validators.validator_for(shape if isinstance(shape, dict) else {"$schema": draft})
        validator = cls(shape, registry=_offline_registry())
        for instance in instances:
            ours = schema_patterns._evaluated_names(validator, instance, shape, draft == D19)
            assert ours == set(theirs(validator, instance, shape)), (shape, instance)
            compared += bool(ours)
    assert compared > 40  # many pairs evaluate some name: the comparison is not of empty sets
