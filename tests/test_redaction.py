"""Redaction never splits an escape sequence: a key's spelling (or a long piece of it) can match from
inside an escape in JSON text, and replacing from there would leave a backslash to escape the
placeholder (``\\$``, not JSON) or half a ``\\uXXXX``. Found by test_hardening_redaction_property (a random
run: ``parse -f json`` printed a document that no longer decoded). Expected texts are written out by hand;
each is also checked to be JSON (RFC 8259 section 7: the escapes a string may hold)."""

from __future__ import annotations

import json

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
