"""bounded.cut: the one end-cut of a quoted text (a key, a server's stderr line, a stream's unfinished event, a
repeated call), its length the bound and its last character the mark."""

from __future__ import annotations

import json

from toolchoice.providers.core import bounded


def test_a_text_within_the_bound_is_whole():
    assert bounded.cut("", 5) == ""
    assert bounded.cut("abcde", 5) == "abcde"


def test_a_longer_text_keeps_its_start_and_ends_in_the_mark():
    assert bounded.cut("abcdef", 5) == "abcd…"
    assert bounded.cut("x" * 300, 200) == "x" * 199 + "…"


def test_key_shown_cuts_as_before():
    """A 121-character key: 119 of its characters and the mark, as JSON text (the form the duplicate-key warnings
    print)."""
    assert bounded.key_shown("k" * 121) == json.dumps("k" * 119 + "…", ensure_ascii=False)
    assert bounded.key_shown("k" * 120) == '"' + "k" * 120 + '"'
