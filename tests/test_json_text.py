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


# ---- the cases orjson and Python's encoder could disagree on, one by one --------------------------------------

def nested(depth: int, leaf: object = "x", kind: str = "list") -> object:
    value = leaf
    for level in range(depth):
        value = [value] if kind == "list" else {f"k{level}": value}
    return value


@pytest.mark.parametrize("value", [
    {"é": "naïve café", "中文": "日本語", "emoji": "😀🇫🇷", "combining": "e\u0301"},  # UTF-8 as is
    {"lone": "\ud800", "low": "a\udfffb"}, ["\udbff\udfff"],  # lone surrogates: orjson refuses, Python writes them
    {"c0": "".join(map(chr, range(0x20))), "del_c1": "\x7f\x80\x9f", "seps": "\u2028\u2029", "bidi": "\u202e"},
    {"quote": "\"\\/\b\f\n\r\t", "slash": "</script>"},
    [1e16, -1e16, 1e22, 1e-16, -0.0, 0.0, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, 1e15, 123456789.0],
    [1e-4, 9.99e-5, 1e-5, -1e-5, 1e-7, 1e-9, 1e-10, 2.5e-08],  # Python: 1e-05, orjson: 0.00001
    [2**63 - 1, -2**63, 2**64 - 1, 2**64, -2**63 - 1, 10**40, -10**40],  # orjson stops at 64 bits
    {1: "a", 2.5: "b", True: "c", None: "d", -0.0: "e"}, {"a": 1, 7: [1, {False: None}]},  # keys that are not str
    nested(254), nested(255), nested(256), nested(400, kind="dict"), nested(255, {"deep": [1.5, None]}),
    ["x" * (json_text.LONG_STRING - 1), "é" * 1000], {"k" * (json_text.LONG_STRING + 1): ["é" * 10, 1e-5]},
    {"lines": ["x" * 60] * 50_000 + [float("nan")]},  # NaN at the end of a long list: orjson writes null
    [[[[1.0, float("-inf")]]]], {"a": {"b": [{"c": float("inf")}]}},
])
def test_edge_cases_are_the_standard_library_text(value: object) -> None:
    assert json_text.dumps_indented(value) == python(value)


def test_values_python_refuses_are_refused_the_same_way() -> None:
    """orjson writes UUIDs, plain enums and its Fragments, and refuses tuple keys: Python's refusal is the one met."""
    import enum
    import uuid

    import orjson

    class Colour(enum.Enum):
        RED = 1

    for value, error in ((uuid.UUID(int=1), TypeError), ({"a": [Colour.RED]}, TypeError),
                         ([orjson.Fragment(b"[]")], TypeError), ({(1, 2): 3}, TypeError), ([b"bytes"], TypeError)):
        with pytest.raises(error) as ours:
            json_text.dumps_indented(value)
        with pytest.raises(error) as theirs:
            python(value)
        assert str(ours.value) == str(theirs.value)


def test_subclasses_are_written_as_python_writes_them() -> None:
    """Python writes a subclass of str, int, float, dict, list, tuple through the base type (float.__repr__ for a
    float subclass, whatever its own repr); orjson would write some of them its own way or refuse them."""
    import collections
    import enum

    class Text(str):
        def __str__(self) -> str:
            return "other"

    class Number(float):
        def __repr__(self) -> str:
            return "other"

    class Flag(enum.IntFlag):
        A = 1
        B = 2

    Pair = collections.namedtuple("Pair", "a b")
    value = {"t": Text("é"), "f": Number(0.5), Text("key"): 1, "flag": Flag.A | Flag.B, "pair": Pair(1, [2]),
             "ordered": collections.OrderedDict([("b", 1), ("a", 2)]), "counter": collections.Counter("aab")}
    assert json_text.dumps_indented(value) == python(value)


# ---- differential: every recorded body of the repository, and generated JSON values ----------------------------

def recorded_bodies() -> list[object]:
    """Every JSON file and JSON line under tests/data (provider replies, traces, schemas), parsed as Python does."""
    from pathlib import Path

    root = Path(__file__).parent / "data"
    found: list[object] = []
    for path in sorted(root.rglob("*.json")) + sorted(root.rglob("*.jsonl")):
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        for chunk in [text] if path.suffix == ".json" else text.splitlines():
            try:
                found.append(json.loads(chunk))
            except ValueError:
                continue
    return found


def test_every_recorded_body_is_the_standard_library_text() -> None:
    bodies = recorded_bodies()
    assert len(bodies) > 150  # tests/data/responses alone holds ~200 recorded replies
    for body in bodies:
        assert json_text.dumps_indented(body) == python(body)
    assert json_text.dumps_indented(bodies) == python(bodies)  # all of them as one document


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70) | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=6) | st.tuples(inner, inner)
    | st.dictionaries(st.text() | st.integers() | st.floats(), inner, max_size=6), max_leaves=40)


# ---- a large document is written in pieces (runs of members, one orjson call each): the same text -------------

@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(json_values)
def test_generated_values_are_the_standard_library_text_whole_and_pieced(value: object) -> None:
    """Each generated value is written twice, each time held to the standard library's text: as usual, then with
    pieces of a few characters, where every container is cut into runs and heavy members: the seams (commas,
    brackets, indentation at each level, keys before a heavy member) are where a mistake shows. (Two properties
    over one strategy and one example count; one generation serves both: generating was most of their CPU.)"""
    expected = python(value)
    assert json_text.dumps_indented(value) == expected
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(json_text, "PIECED_FROM", 1)
        patch.setattr(json_text, "PIECE", 24)
        assert json_text.dumps_indented(value) == expected


def large_reply(lines: int) -> dict:
    return {"provider": "openai", "reply": {"calls": [{"name": "write_file", "arguments": {
        "path": "out.txt", "lines": [f"line {n}: é \"quoted\" \\ \u2028 {n * 0.5}" for n in range(lines)],
        "nested": [{"n": n, "small": 1e-5 if n == lines - 1 else 0.25, "t": ("a", None)} for n in range(lines // 4)]}}],
        "text": None}, "ledger": [], "verdict": {"category": "obeyed"}}


@pytest.mark.parametrize("mutate", [
    lambda doc: doc,
    lambda doc: doc["reply"]["calls"][0]["arguments"]["nested"].pop(),  # no small float left: orjson's text
    lambda doc: doc["reply"]["calls"][0]["arguments"]["lines"].append("x" * json_text.LONG_STRING),  # past _WALKED
    lambda doc: doc["reply"]["calls"][0]["arguments"].__setitem__(7, [1] * 30_000),  # a heavy member, int key
    lambda doc: doc["reply"]["calls"][0]["arguments"]["lines"].append(2**64),
    lambda doc: doc["reply"].__setitem__("deep", nested(300, ["y"] * 30_000)),
])
def test_a_large_document_is_the_standard_library_text(mutate) -> None:
    doc = large_reply(40_000)
    mutate(doc)
    assert json_text._shape(doc) != json_text._SMALL
    assert json_text.dumps_indented(doc) == python(doc)


def test_a_large_document_is_written_by_orjson_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """An 8 MB reply's document never reaches Python's indenting encoder, and no orjson call writes more than
    a few pieces' worth (its buffer grows to ~3.4× what it writes)."""
    import orjson

    doc = large_reply(40_000)
    doc["reply"]["calls"][0]["arguments"]["nested"].pop()
    expected = python(doc)
    written: list[int] = []
    real = orjson.dumps

    class Spy:
        OPT_INDENT_2 = orjson.OPT_INDENT_2

        @staticmethod
        def dumps(value: object, **kwargs: object) -> bytes:
            raw = real(value, **kwargs)
            written.append(len(raw))
            return raw

    monkeypatch.setattr(json_text, "_orjson", Spy)
    monkeypatch.setattr(json_text.json, "dumps", lambda *a, **k: pytest.fail("Python's encoder was used"))
    assert json_text.dumps_indented(doc) == expected
    assert len(expected.encode()) > 2_000_000 and len(written) > 20
    assert max(written) < 4 * json_text.PIECE
