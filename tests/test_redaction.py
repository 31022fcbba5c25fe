"""Redaction never splits an escape sequence: a key's spelling (or a long piece of it) can match from
inside an escape in JSON text, and replacing from there would leave a backslash to escape the
placeholder (``\\$``, not JSON) or half a ``\\uXXXX``. Found by test_hardening_redaction_property (a random
run: ``parse -f json`` printed a document that no longer decoded). Expected texts are written out by hand;
each is also checked to be JSON (RFC 8259 section 7: the escapes a string may hold)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolchoice.providers.core.redaction import Redactor

CASES = [
    # the key piece "nKEYVALUE1234567" begins at the letter of the \n escape before it
    ("XnKEYVALUE1234567", r'{"m":"line\nKEYVALUE1234567"}', r'{"m":"line$K"}'),
    # the key ends with a backslash: its JSON-escaped spelling holds both halves of the escaped "\\" (whole
    # already; the widening must not take the "0" after it)
    ("ABCDEFGHIJKL\\", r'{"m":"ABCDEFGHIJKL\\0"}', r'{"m":"$K0"}'),
    # a piece starting at the last hex digit of \u00e9
    ("9ABCDEFGHIJKLMN", r'{"m":"\u00e9ABCDEFGHIJKLMN"}', r'{"m":"$K"}'),
    # a piece ending inside \u00e9 (at its "00")
    ("ABCDEFGHIJKL\\u00", r'{"m":"ABCDEFGHIJKL\u00e9!"}', r'{"m":"$K!"}'),
    # an escaped backslash right before the key is whole: nothing to widen
    ("KEYVALUE1234567", r'{"m":"a\\KEYVALUE1234567"}', r'{"m":"a\\$K"}'),
]


@pytest.mark.parametrize("key, text, expected", CASES)
def test_a_span_holds_whole_escapes(key: str, text: str, expected: str):
    json.loads(text)
    shown = Redactor({key: "$K"}).text(text)
    assert shown == expected
    json.loads(shown)


def test_the_longest_match_still_names_a_span_in_a_text_with_escapes():
    """Two keys matching at one place: the longer names the placeholder, with or without a backslash near."""
    redactor = Redactor({"ABCDEFGHIJKLMNOP": "$LONG", "ABCDEFGHIJKLM": "$SHORT"})
    assert redactor.text("a ABCDEFGHIJKLMNOP") == "a $LONG"
    assert redactor.text(r'"a\\ABCDEFGHIJKLMNOP"') == r'"a\\$LONG"'


# ---- many keys: the window look (one pass over the text whatever the number of keys) -----------------------

import base64  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from toolchoice.providers.core import redaction  # noqa: E402

ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_/+="
keys = st.lists(st.text(ALPHABET, min_size=8, max_size=60), min_size=1, max_size=6, unique=True)
FILLER = st.text("xyz {}\":,.\n\\é", max_size=30)


def spelled(key: str) -> list[str]:
    """Spellings a server may echo, written here from their definitions (not by the code under test); of the
    base64 text, the whole 3-byte groups (the last group mixes in padding, as it would the bytes after the key)."""
    raw = key.encode()
    return [key, json.dumps(key)[1:-1], key.replace("/", "\\/"), base64.b64encode(raw).decode()[:len(raw) // 3 * 4]]


@settings(max_examples=250, deadline=None, database=None, derandomize=True)
@given(keys, st.data())
def test_a_text_keeps_no_key_piece_whichever_look_finds_them(secret_keys: list[str], data) -> None:
    """Pieces of many keys (whole or runs of PIECE characters or more, in the spellings above) put anywhere in
    text: none is left, whichever look (a find per needle, or windows) the number of keys chooses, and both
    give the same text."""
    secrets = {k: f"$K{i}" for i, k in enumerate(secret_keys)}
    parts = []
    # each strategy built once per example, not once per draw (the same strategies, drawn in the same order)
    which_key, forms = st.sampled_from(secret_keys), {key: st.sampled_from(spelled(key)) for key in secret_keys}
    for _ in range(data.draw(st.integers(1, 8))):
        parts.append(data.draw(FILLER))
        key = data.draw(which_key)
        form = data.draw(forms[key])
        if len(key) >= redaction.PIECE and data.draw(st.booleans()) and len(form) > redaction.PIECE:
            start = data.draw(st.integers(0, len(form) - redaction.PIECE))
            form = form[start:start + data.draw(st.integers(redaction.PIECE, len(form) - start))]
        parts.append(form)
    text = "".join(parts)
    shown = redaction.Redactor(secrets).text(text)
    for key in secret_keys:
        for form in spelled(key):
            if len(key) < redaction.PIECE:
                assert key not in shown
            else:
                runs = {form[i:i + redaction.PIECE] for i in range(len(form) - redaction.PIECE + 1)}
                assert not [run for run in runs if run in shown and len(run) == redaction.PIECE and
                            any(run in f for f in spelled(key))], (key, shown)
    few, many = redaction._WINDOWS_FROM, 10**9
    try:
        redaction._WINDOWS_FROM = many
        redaction._search_plan.cache_clear()
        by_finds = redaction.Redactor(secrets).text(text)
    finally:
        redaction._WINDOWS_FROM = few
        redaction._search_plan.cache_clear()
    assert shown == by_finds


def test_many_keys_take_the_window_look() -> None:
    keys = ["sk-proj-4fQ9xL2mZt7Rw1Kc8Vb3Np6Hd5Gs0Ja9Ue2Yo7Ti4", "sk-ant-api03-Mx8Lq2Wz5Rt1Pc9Vb7Nk3Hd6Gs4Ja0Ue8Yo2T",
            "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY0"]
    redactor = redaction.Redactor({key: f"$K{i}" for i, key in enumerate(keys)})
    assert redactor._plain_look.index is not None  # three real-length keys: more needles than _WINDOWS_FROM
    text = '{"echo": "Bearer ' + keys[1] + '", "cut": "..' + keys[0][5:19] + '..", "short": "' + keys[2][:11] + '"}'
    assert redactor.text(text) == '{"echo": "Bearer $K1", "cut": "..$K0..", "short": "AIzaSyD-9tS"}'


def test_the_window_look_compiles_no_pattern_of_every_needle(monkeypatch: pytest.MonkeyPatch) -> None:
    """From _WINDOWS_FROM needles on, the look is the window index: an alternation of every needle would never
    be used, and compiling it costs more than the index (one 51-character key: 83 needles, ~0.8 ms; 20 keys:
    ~10 ms; 200 keys of 200 characters: ~1.2 s), paid by every command that shows anything."""
    import re

    compiled: list[str] = []
    real = re.compile

    def counting(pattern: Any, *args: Any, **kwargs: Any) -> Any:
        compiled.append(pattern)
        return real(pattern, *args, **kwargs)

    keys = ["sk-proj-4fQ9xL2mZt7Rw1Kc8Vb3Np6Hd5Gs0Ja9Ue2Yo7Ti4", "sk-ant-api03-Mx8Lq2Wz5Rt1Pc9Vb7Nk3Hd6Gs4Ja0Ue8Yo2T"]
    redaction._search_plan.cache_clear()
    monkeypatch.setattr(re, "compile", counting)
    redactor = redaction.Redactor({key: f"$K{i}" for i, key in enumerate(keys)})
    monkeypatch.undo()
    redaction._search_plan.cache_clear()
    assert redactor._look.index is not None and redactor._plain_look.index is not None
    assert compiled == []  # neither look compiles an alternation
    assert redactor.text("echo " + keys[1] + " and " + keys[0][3:20]) == "echo $K1 and $K0"


# ---- visible_json: the JSON fast path of visible ----------------------------------------------------------

_ANY_CHARACTER = st.characters(codec=None, exclude_categories=())  # C0, DEL, C1, U+2028, bidi, lone surrogates
_JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(_ANY_CHARACTER, max_size=12),
                            lambda inner: st.lists(inner, max_size=4)
                            | st.dictionaries(st.text(_ANY_CHARACTER, max_size=6), inner, max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(_JSON_VALUES, st.integers(0, 10_000), st.integers(0, 10_000))
def test_visible_json_shows_a_json_text_and_any_piece_of_it_as_visible_does(value, start, stop):
    """The JSON encoder (json.dumps with ensure_ascii=False, as json_text lays it out) escapes every C0 control
    itself; what it leaves raw (DEL, C1, U+2028/2029, bidi controls, lone surrogates) visible_json escapes
    as visible does, in the whole text and in any piece of it (the spool writes a document in pieces)."""
    from toolchoice.providers.core.json_text import dumps_indented

    text = dumps_indented(value)
    assert text == json.dumps(value, indent=2, ensure_ascii=False)
    piece = text[min(start, stop):max(start, stop)]
    for shown in (text, piece):
        assert redaction.visible_json(shown) == redaction.visible(shown)


def test_visible_json_escapes_what_json_leaves_raw():
    raw = json.dumps({"k": "a\x7fb\x9bc\u2028d\u202ee\ud800"}, ensure_ascii=False)
    assert redaction.visible_json(raw) == '{"k": "a\\u007fb\\u009bc\\u2028d\\u202ee\\ud800"}'
    assert redaction.visible_json('{"k": "plain"}') == '{"k": "plain"}'


def test_a_real_length_key_is_looked_up_in_wider_windows_and_no_run_at_any_place_escapes() -> None:
    """Every form of a key of real length is at least PIECE characters long, so every match is too and the window
    look cuts the text into wider pieces (a third fewer); a run of exactly PIECE characters from anywhere in any
    spelling, at any alignment in the text, is still found."""
    key = "sk-proj-4fQ9xL2mZt7Rw1Kc8Vb3Np6Hd5Gs0Ja9Ue2Yo7Ti4Mx8Lq2Wz5Rt1Pc9Vb7Nk3Hd6Gs4Ja0Ue8Yo2Tr5Lm1"
    redactor = redaction.Redactor({key: "$K"})
    look = redactor._plain_look
    assert look.index is not None and look.cut.pattern == ".{%d}" % redaction._WIDE_WINDOW
    assert redaction.PIECE >= 2 * redaction._WIDE_WINDOW - 1
    for form in spelled(key):
        for start in range(len(form) - redaction.PIECE + 1):
            run = form[start:start + redaction.PIECE]
            for pad in range(redaction._WIDE_WINDOW):
                shown = redactor.text("é" * pad + run + " tail")
                assert run not in shown and "$K" in shown, (form, start, pad)
