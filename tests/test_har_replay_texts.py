"""`run --replay FILE.har`'s passes over each call's whole body beyond its reading (trial23f, bench/README.md "run
--replay FILE.har"): counted, not timed. Each call's body and scenario data were walked in Python for lone surrogates
and copied (``whole_characters``), the scenario check wrote each call's data as JSON text three times and its
conversation a fourth (``saved_request._check``, ``saved_prefix.resumed``), and each body was decoded twice with a
Python hook per object (``unique_keys``). What the replay says is the same: bench/har_replay_same.py compares its
bytes with a baseline's, tests/test_har_family_prefix.py with the whole reading."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from har_loops import api_loop_har
from toolchoice.providers.core import bounded, saved_prefix, saved_request, trace_har_replay
from toolchoice.providers.core.yaml_input import whole_characters

CALLS = 20
KEY = "sk-proj-replayTexts0123456789abcdefABCDEF"


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, weigh: Callable[[Any], int]) -> list[int]:
    """``module.name`` wrapped for the test: ``weigh`` of its first argument added up in the list returned."""
    total, function = [0], getattr(module, name)

    def counted(first: Any, *rest: Any) -> Any:
        total[0] += weigh(first)
        return function(first, *rest)

    monkeypatch.setattr(module, name, counted)
    return total


def test_whole_characters_hands_a_clean_value_back_when_shared() -> None:
    """``shared``: a body holding no lone surrogate is read as it is (a HAR call's, by saved_request.read_request);
    without it, a copy sharing no list or mapping (YAML's dumper writes an alias for a shared one: loop_save)."""
    inner = {"role": "user", "content": "é \u2028 \U0001f600"}
    value = {"messages": [inner, inner], "n": [1, 2.5, True, None, (3, "t")]}
    halves = [0]
    assert whole_characters(value, halves, shared=True) is value
    copy = whole_characters(value, halves)
    assert copy == value and copy is not value and halves == [0]
    assert copy["messages"][0] is not copy["messages"][1]
    assert "&id" not in yaml.safe_dump(copy) and "&id" in yaml.safe_dump(value)


@pytest.mark.parametrize("shared", [False, True])
def test_whole_characters_replaces_each_lone_surrogate(shared: bool) -> None:
    """Lone surrogates in keys, values and nested strings are U+FFFD and counted, shared or not; a pair is one
    character (json.loads reads the two escapes of a character past U+FFFF as that character)."""
    value = json.loads('{"a\\ud800": ["x\\udc00y", {"k": "\\udbff\\udbff"}], "ok": "\\ud83d\\ude00"}')
    halves = [0]
    out = whole_characters(value, halves, shared=shared)
    assert out == {"a\ufffd": ["x\ufffdy", {"k": "\ufffd\ufffd"}], "ok": "\U0001f600"}
    assert halves == [4]


def test_whole_characters_a_number_whose_bytes_look_like_a_surrogate() -> None:
    """A float whose marshal bytes hold 0xED 0xA0 (as UTF-8 writes a surrogate) is no surrogate: the same value."""
    number = struct.unpack("<d", b"\x00\xed\xa0\x00\x00\x00\xf0\x3f")[0]
    halves = [0]
    assert whole_characters({"t": [number, "é"]}, halves) == {"t": [number, "é"]} and halves == [0]


def test_whole_characters_walks_what_marshal_does_not_write() -> None:
    """A subclass of str or dict (a Python caller's) is walked, as before."""

    class Text(str):
        pass

    class Mapping(dict):  # type: ignore[type-arg]
        pass

    halves = [0]
    assert whole_characters(Mapping(a=Text("b\ud800")), halves) == {"a": "b\ufffd"} and halves == [1]


def test_data_text_is_json_dumps_escaped_as_the_other_keys_change() -> None:
    """``saved_prefix.data_text``: the text ``_check`` reads is ``_escaped(json.dumps(data))`` byte for byte while a
    call's other keys change around its kept messages (extra added), in a memo or without one."""
    data = {"description": "d\x85", "tools": [{"name": "t"}], "tool_choice": "auto",
            "messages": [{"role": "user", "content": "a\u2028b \ud800 é"}, {"role": "assistant", "content": "1.0"}],
            "providers": {"openai": {"model": "m"}}}
    memo: dict[Any, Any] = {}
    for extra in (None, {"store": True}, {"store": 1.0}):
        if extra is not None:
            data["providers"] = {"openai": {"model": "m", "extra": extra}}
        want = saved_request._escaped(json.dumps(data, ensure_ascii=False))
        assert saved_prefix.data_text(data, memo, saved_request._escaped)[0] == want
        assert saved_prefix.data_text(data, None, saved_request._escaped)[0] == want


def test_data_text_lists_without_their_first_items() -> None:
    """``saved_prefix._tail``: a list's text without its first k items is json.dumps of the rest."""
    items = [{"a": [1, ", "]}, "x, y", [], 2.0]
    for k in range(len(items) + 1):
        assert saved_prefix._tail(json.dumps(items), json.dumps(items[:k])) == json.dumps(items[k:])
    assert saved_prefix._tail(json.dumps([1, 2]), json.dumps([3])) is None


def test_the_scenario_check_writes_each_calls_data_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The characters ``_check`` and ``resumed`` escaped over a 20-call replay, against the calls' scenario data as
    JSON text: each call's data once (and small parts), where it was written three times and its conversation a
    fourth (~4x)."""
    texts: list[int] = []
    check = saved_request._check

    def checked(file: Any, data: dict[str, Any], memo: Any = None) -> Any:
        texts.append(len(json.dumps(data, ensure_ascii=False)))
        return check(file, data, memo)

    escaped = _counting(monkeypatch, saved_request, "_escaped", len)
    monkeypatch.setattr(saved_request, "_check", checked)
    path = api_loop_har(tmp_path / "loop.har", "openai", CALLS, KEY)
    trace_har_replay.replay_file(path, None, "openai")
    each = sum(texts) / 3  # three checks a call, of nearly the same data
    assert escaped[0] < 1.5 * each, (escaped[0], each)


def test_each_body_decoded_once_with_the_key_hook(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The request bodies decoded with ``unique_keys`` (a Python call per object, to refuse a key named twice) over a
    20-call replay: each once; a second reading of the same text (follow's, then the import's) found none the first
    time. Was twice."""
    bodies = _counting(monkeypatch, bounded, "unique_keys", lambda pairs: any(k == "messages" for k, _ in pairs))
    path = api_loop_har(tmp_path / "loop.har", "openai", CALLS, KEY)
    trace_har_replay.replay_file(path, None, "openai")
    assert bodies[0] == CALLS



def test_result_value_kept_within_a_hars_reading() -> None:
    """``history_wire.result_value``: inside ``resuming()`` each tool result's text is read once; each reading gets
    its own copy (a rendering that changed one changes no later one), a text that is no JSON is refused each time."""
    from toolchoice.providers.core import history_wire
    from toolchoice.providers.core.mock.read_prefix import resuming

    text = '{"ok": true, "n": [1, 2.5, null], "s": "é"}'
    with resuming():
        first = history_wire.result_value(text)
        first["n"].append(3)
        assert history_wire.result_value(text) == {"ok": True, "n": [1, 2.5, None], "s": "é"}
        for _ in range(2):
            with pytest.raises(ValueError):
                history_wire.result_value('{"a": NaN}')
        assert history_wire.tool_result_object("[1]") == {"output": [1]}


def test_each_tool_result_read_once_over_a_gemini_replay(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The tool results the render-back read as JSON over a 20-call Gemini loop (19 results in the last history):
    each once, where each call's rendering read every result before it again (twice: the object and its check)."""
    from toolchoice.providers.core import history_wire

    read = _counting(monkeypatch, history_wire, "json_value", lambda text: 1)
    path = api_loop_har(tmp_path / "loop.har", "gemini", CALLS, KEY)
    trace_har_replay.replay_file(path, None, "gemini")
    assert 19 <= read[0] <= 2 * 19, read[0]
