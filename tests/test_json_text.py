"""json_text.dumps_indented writes exactly what the standard library's ``json.dumps(value, indent=2,
ensure_ascii=False)`` writes (the truth here is the standard library, not toolchoice), and takes the
fast path for the documents toolchoice writes."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolchoice.providers.core import json_text


def python(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


floats = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [1e-5, 6.1e-05, 1e-7, 2.5e-9, 1e-10, 5e-324, 1e16, 1e22, -0.0, 1e-4, 0.00012, 123456789012345.6])
ints = st.integers() | st.sampled_from([2**63, -2**63 - 1, 2**64, 10**30])
texts = st.text() | st.sampled_from(["\ud800", "a\udfffb", "\x7f\u2028\u2029\x1b[31m", "0.00001", "x: 0.00001",
                                     "1e-7", "\x00\b\f\n\r\t\"\\/"])
scalars = st.none() | st.booleans() | ints | floats | texts
keys = texts | st.integers() | st.booleans() | st.none() | st.floats(allow_nan=False)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
                      max_leaves=25)


@settings(max_examples=400, deadline=None, database=None, derandomize=True)
@given(values)
def test_same_text_as_the_standard_library(value: object) -> None:
    assert json_text.dumps_indented(value) == python(value)


@pytest.mark.parametrize("value", [
    float("nan"), [float("inf")], {"a": -math.inf}, {1: "int key"}, {"big": 2**64}, "\ud800", [1e-05, 0.5],
    {"x": [2.5e-07]}, {"deep": [[[[["x"]]]]]},
    ("a", "tuple"), [], {}, {"": ""}, "é😀\u2028",
])
def test_edges(value: object) -> None:
    assert json_text.dumps_indented(value) == python(value)


def test_deeper_than_orjson_goes() -> None:
    value: list = []
    for _ in range(300):  # orjson stops at 255 levels; Python's encoder goes on
        value = [value]
    assert json_text.dumps_indented(value) == python(value)


def test_what_python_refuses_is_refused_the_same_way() -> None:
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        json_text.dumps_indented(loop)
    with pytest.raises(TypeError, match="not JSON serializable"):
        json_text.dumps_indented({"a": object()})
    import dataclasses
    import datetime
    import enum

    @dataclasses.dataclass
    class Point:
        x: int

    class Colour(enum.Enum):
        RED = "red"

    for orjson_writes_these in (Point(1), datetime.date(2026, 11, 26), Colour.RED, {"when": datetime.datetime(2026, 1, 1)}):
        with pytest.raises(TypeError, match="not JSON serializable"):
            json_text.dumps_indented(orjson_writes_these)


def test_what_python_writes_its_own_way_is_written_by_python() -> None:
    import enum

    class Size(enum.IntEnum):
        BIG = 2

    class Word(str, enum.Enum):
        YES = "yes"

    for value in ({"n": Size.BIG, "w": Word.YES}, {"t": ("a", 1)}, [float("nan"), None], {"x": 1e-7}):
        assert json_text.dumps_indented(value) == python(value)


def test_a_loop_document_takes_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step as `run --format json` writes it (recorded shape) never reaches Python's indenting encoder."""
    step = {"step": 1, "requested_tool_choice": "auto", "latency_ms": 500.9, "offered_tools": ["get_weather"],
            "request": {"method": "POST", "url": "http://127.0.0.1:1/v1/chat/completions",
                        "headers": {"Authorization": "Bearer $OPENAI_API_KEY"},
                        "body": {"model": "gpt-4o-mini", "temperature": 0.2, "messages": [{"role": "user", "content": "hé"}]}},
            "verdict": {"category": "obeyed", "calls": [{"name": "get_weather", "arguments": {"city": "Paris", "n": 3}}]},
            "tokens": {"input": 192, "output": 76}, "error": None, "text": None}
    expected = python(step)
    indented: list[object] = []
    real = json.dumps

    def spy(value: object, **kwargs: object) -> str:
        if kwargs.get("indent") is not None:
            indented.append(value)
        return real(value, **kwargs)

    monkeypatch.setattr(json_text.json, "dumps", spy)
    assert json_text.dumps_indented(step) == expected
    assert indented == []


@pytest.mark.parametrize("value", [
    {"reply": {"tool_calls": [{"arguments": {"city": "é\"\\\n" * (json_text.LONG_STRING // 4 + 1)}}]}},
    [("k" * json_text.LONG_STRING, 1e-05)], {"x" * json_text.LONG_STRING: None}])
def test_a_document_holding_a_long_string_is_the_same_text(value: object) -> None:
    """Such a document is written by Python's encoder (orjson reserves several times the string); same text."""
    assert json_text._holds_long_string(value)
    assert json_text.dumps_indented(value) == python(value)
