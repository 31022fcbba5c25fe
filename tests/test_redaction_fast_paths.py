"""The fast paths of redaction (trial 22f) skip no key: ``Redactor.data``'s look at a value's JSON text before its walk
(``key_looks.may_hold_look``), the look before ``redact_patterns`` (``key_looks.may_look``), and ``run --repeat``'s
line-by-line redaction of each loop's text (``line_redaction.LineRedaction``). Literal keys, literal expected texts:
each case is one a fast path that skipped it would leave a key in."""

from __future__ import annotations

from typing import Any

import pytest

from toolchoice.providers.core import redaction
from toolchoice.providers.core.line_redaction import LineRedaction
from toolchoice.providers.core.redaction import Redactor

GIVEN = {"abcdefgh12345678": "$MY_KEY"}  # a key given by value

# (value, what Redactor(GIVEN).data gives): each key found only by one look, in a string where the value's JSON text
# writes it otherwise than the string does (a quote as \", a tab as \t, a backslash as \\, a control as \u0001)
DATA_CASES: list[tuple[Any, Any]] = [
    # a key of a known prefix in a list's string
    (["see sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx here"], ["see [redacted] here"]),
    # a credential member of JSON text inside a string (a tool call's raw arguments)
    ({"raw": '{"api_key": "abcd1234efgh"}'}, {"raw": '{"api_key": "[redacted]"}'}),
    # the same escaped once more, a tab after the colon
    ({"raw": '{\\"password\\":\t\\"hunter2hunter2\\"}'}, {"raw": '{\\"password\\":\t\\"[redacted]\\"}'}),
    # a URL's ?key= in a record's (tuple's) string
    (("GET https://example.test/v1?key=AbCdEfGh12345",), ("GET https://example.test/v1?key=[redacted]",)),
    # a member named for a credential, its value no known shape: camel case, capitals, a scheme word before it
    ({"clientSecret": "zyxw9876vuts"}, {"clientSecret": "[redacted]"}),
    ({"X-API-KEY": ["Bearer zyxw9876vuts"]}, {"X-API-KEY": ["Bearer [redacted]"]}),
    # the name's rest after its word written otherwise in JSON text: a control character (\u0001) and a quote (\")
    ({'apiKey\x01"': "zyxw9876vuts"}, {'apiKey\x01"': "[redacted]"}),
    # more words of credential names than the look reads before the member named with one
    ({"text": "key key key key key key key key key", "password": "zyxw9876vuts"},
     {"text": "key key key key key key key key key", "password": "[redacted]"}),
    # no look at all: the key given by value, and the part of its base64 only the key makes
    ({"x": ["the abcdefgh12345678 here", 1, None]}, {"x": ["the $MY_KEY here", 1, None]}),
    ({"x": ["YWJjZGVmZ2gxMjM0NTY3OA== base64"]}, {"x": ["$MY_KEYOA== base64"]}),
]


@pytest.mark.parametrize(("value", "shown"), DATA_CASES)
def test_data_finds_each_key_the_walk_finds(value: Any, shown: Any) -> None:
    assert Redactor(GIVEN).data(value) == shown


def test_data_of_a_value_json_cannot_write_is_walked() -> None:
    """A member named by a tuple (json.dumps refuses it) and a list holding itself: the walk, as before."""
    tuple_named = {("a", "b"): "see sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx"}
    assert Redactor({}).data(tuple_named) == {("a", "b"): "see [redacted]"}
    looped: list[Any] = ["sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx"]
    looped.append(looped)
    assert Redactor({}).data(looped) == "[redacted]"


def test_data_without_a_look_is_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A verdict holding no key's look is given back as it is without its strings read one by one in Python."""
    def walked(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("walked")

    monkeypatch.setattr(redaction, "_pattern_data", walked)
    verdict = {"obeyed": True, "category": "obeyed", "enforced": True,
               "reasons": ["tool_choice auto: called get_weather with valid arguments"],
               "calls": [{"name": "get_weather", "offered": True, "valid": True, "errors": []}]}
    assert Redactor(GIVEN).data(verdict) is verdict


LOOP_TEXT = ('        {\n          "url": "https://example.test/v1?key=AbCdEfGh12345",\n'
             '          "auth": "Bearer abcdefgh12345678",\n          "note": "piece bcdefgh1234567 here",\n'
             '          "text": "see sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx",\n'
             '          "b64": "YWJjZGVmZ2gxMjM0NTY3OA==",\n          "latency_ms": 12.5\n        }')
LOOP_SHOWN = ('        {\n          "url": "https://example.test/v1?key=[redacted]",\n'
              '          "auth": "Bearer $MY_KEY",\n          "note": "piece $MY_KEY here",\n'
              '          "text": "see [redacted]",\n          "b64": "$MY_KEYOA==",\n          "latency_ms": 12.5\n'
              '        }')


def test_lines_are_redacted_as_the_whole_text_and_each_once(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    text = Redactor.text

    def counted(self: Redactor, value: str) -> str:
        read.append(value)
        return text(self, value)

    monkeypatch.setattr(Redactor, "text", counted)
    lines = LineRedaction(dict(GIVEN))
    assert lines(LOOP_TEXT) == LOOP_SHOWN
    again = LOOP_TEXT.replace("12.5", "13.0")
    assert lines(again) == LOOP_SHOWN.replace("12.5", "13.0")
    assert read[1:] == ['          "latency_ms": 13.0']  # the second loop: only the line the first did not hold


def test_an_aws_secret_a_line_away_from_its_key_id() -> None:
    """The 40 characters of an AWS secret are taken where the text holds an access key id anywhere."""
    text = '  "id": "AKIAZ7XQ4PLM2N8R5T3W",\n  "n": 1,\n  "blob": "Zq8rT2vX9kLm4NpB7wYc3Fh6Jd1Gs5Ae0UiOyRtE"'
    lines = LineRedaction({})
    lines('  "blob": "Zq8rT2vX9kLm4NpB7wYc3Fh6Jd1Gs5Ae0UiOyRtE"')  # kept as it is: alone it is no key
    assert lines(text) == '  "id": "[redacted]",\n  "n": 1,\n  "blob": "[redacted]"'


def test_a_key_ending_in_a_backslash_before_a_newline() -> None:
    """The escape the key's backslash begins is taken whole: the newline after it too (each line seen before)."""
    lines = LineRedaction({"abcdefgh12\\": "$K"})
    assert (lines("  abcdefgh12\\"), lines("next")) == ("  $K", "next")
    assert lines('  "x": 1,\n  abcdefgh12\\\nnext') == '  "x": 1,\n  $Knext'


def test_a_key_holding_a_newline() -> None:
    """Its two lines seen before, each alone holding no key."""
    lines = LineRedaction({"line1abc\nline2def": "$K"})
    assert (lines('  "a": "x line1abc'), lines('line2def y",')) == ('  "a": "x line1abc', 'line2def y",')
    assert lines('  "a": "x line1abc\nline2def y",\n  "b": 2') == '  "a": "x $K y",\n  "b": 2'


def test_a_key_resolved_later_is_redacted_from_lines_kept_before() -> None:
    """A loop resolves a key at a later step (loop.live_prepare adds it to the job's secrets)."""
    secrets: dict[str, str] = {}
    lines = LineRedaction(secrets)
    text = '  "tool": "zyxw9876vutsrq",\n  "n": 1'
    assert lines(text) == text
    secrets["zyxw9876vutsrq"] = "$NEW"
    assert lines(text) == '  "tool": "$NEW",\n  "n": 1'


def test_the_lines_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past KEPT_CHARACTERS the lines of earlier texts are forgotten: those of the last text alone are kept."""
    from toolchoice.providers.core import line_redaction

    monkeypatch.setattr(line_redaction, "KEPT_CHARACTERS", 40)
    lines = LineRedaction(dict(GIVEN))
    assert lines('  "a": 1,\n  "b": "abcdefgh12345678"') == '  "a": 1,\n  "b": "$MY_KEY"'
    assert lines('  "c": 3,\n  "d": "x abcdefgh12345678"') == '  "c": 3,\n  "d": "x $MY_KEY"'
    assert sorted(lines._kept) == ['  "c": 3,', '  "d": "x abcdefgh12345678"']


def test_a_credential_name_across_the_pieces_the_look_lowers() -> None:
    """The look lowers a long JSON text 65,536 characters at a time: "password" begins 4 characters before the
    second piece ({"a": " is 7 characters, ", " 4)."""
    value = {"a": "x" * 65521, "password": "zyxw9876vuts"}
    assert Redactor(GIVEN).data(value) == {"a": "x" * 65521, "password": "[redacted]"}
