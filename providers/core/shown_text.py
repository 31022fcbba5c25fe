"""Text from outside (tool names, replies, servers, files) as it may be shown on a terminal: data, never escape
sequences or characters that reorder, break or hide what is shown (``visible``, ``visible_json``, ``printable``).
Kept apart from ``redaction``, which re-exports them, where most callers import them."""

from __future__ import annotations

import re

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|[\x00-\x08\x0b-\x1f\x7f-\x9f]")


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0 (but tab, newline), DEL and C1


# C0 but tab and newline, DEL, C1; the Unicode line and paragraph separators (a terminal or rich breaks the line
# there: a table row would split); the bidirectional overrides, isolates and marks (they reorder what is shown:
# Unicode's Bidi_Control set); the zero-width space, non-joiner, joiner, word joiner, soft hyphen, Mongolian vowel
# separator and U+FEFF (they show as nothing: two tool names that differ by one would look the same); the tag
# characters U+E0000-E007F and the variation selectors U+E0100-E01EF, past U+FFFF: they show as nothing either, and
# text spelled in them ("ASCII smuggling": a tool description's hidden instruction to the model) would pass unseen.
SHOWN_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029"
                            "\u202a-\u202e\u2060\u2066-\u2069\ufeff\ud800-\udfff\U000e0000-\U000e007f"
                            "\U000e0100-\U000e01ef]")


def visible(text: str, json_escapes: bool = False) -> str:
    """``text`` with every control character but tab and newline written out visibly as ``\\u001b``
    (ESC, BEL, CR, DEL, the C1 range, U+2028/2029, the bidi controls, the zero-width characters, a lone
    surrogate a JSON \\ud800 escape decodes to, which no UTF-8 output can hold), and a tag character or a
    variation selector past U+FFFF as ``\\U000e0041``: text from outside (tool names, replies, servers) is data,
    and a terminal must not act on it. In a YAML double-quoted text these are YAML's own escapes (``\\U``: eight
    digits): the value stays the same. JSON has no ``\\U``: text that holds JSON (a curl command's body) takes
    ``json_escapes``, a surrogate pair past U+FFFF, and JSON text alone ``visible_json``."""
    if not SHOWN_CONTROL.search(text):
        return text
    return SHOWN_CONTROL.sub(_escaped_json if json_escapes else _escaped, text)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def _escaped_json(match: re.Match[str]) -> str:
    """JSON's escape: past U+FFFF a surrogate pair (RFC 8259 section 7)."""
    code = ord(match.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def visible_json(text: str) -> str:
    """``visible`` for JSON text (``json.dumps``' or ``json_text``'s, or a piece of it): its encoder escaped
    every C0 control already, so an ASCII text can hold only DEL raw, which one scan finds; anything else
    takes ``visible``'s look, which costs ~2.5 ns a character (20 ms for the 7.7 MB document of
    `run --repeat 200 --format json`)."""
    if text.isascii() and "\x7f" not in text:
        return text
    return visible(text, json_escapes=True)


def printable(text: str) -> str:
    """``text`` without terminal escape sequences and control characters (tabs and newlines stay):
    what a server writes into an error message must not move the cursor or recolour the terminal. What no escape
    sequence holds (a bidi control that reorders the line, U+2028 that breaks it) is written out (``visible``)."""
    text = _ANSI.sub("", text) if _CONTROL.search(text) else text  # C-speed look first: bodies can be large
    return visible(text) if not text.isascii() else text
