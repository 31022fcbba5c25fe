"""The helpers that cut toolchoice's own CPU per `send --repeat` sample and `run --repeat` step (trial 23h) give what
the work they stand for gives: a response header's value read once per prepared request (``ShownValues``), each
line of a spooled loop made visible once (``LineRedaction(visible=True)``), a key's fast look (``key_problem``).
Expected values are literal texts; the stand-in is real HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio

import pytest

from toolchoice.providers.core import header_values, transport
from toolchoice.providers.core.header_values import ShownValues
from toolchoice.providers.core.key_help import key_problem
from toolchoice.providers.core.line_redaction import LineRedaction
from toolchoice.providers.core.model import Request
from toolchoice.providers.core.redaction import Redactor

from servers import StandIn, Step

KEY = "sk-bench-0123456789abcdefghijklmnop"
GIVEN = {KEY: "$OPENAI_API_KEY"}
LOOKED = "sk-proj-Zq8rT2vX9kLm4NpB7wYc3Fh6Jd1Gs5Ae0UiOyRtE7777"  # a key by its look, given to no one


class Counted(Redactor):
    def __init__(self, secrets: dict[str, str]) -> None:
        super().__init__(secrets)
        self.read: list[str] = []

    def text(self, text: str) -> str:
        self.read.append(text)
        return super().text(text)


def test_a_header_value_is_read_once_and_a_changed_value_on_its_own() -> None:
    redactor = Counted(GIVEN)
    shown = ShownValues(redactor)
    assert shown("application/json") == "application/json"
    assert shown("application/json") == "application/json"
    assert shown("req-1") == "req-1"
    assert shown(f"req-2 {LOOKED}") == "req-2 [redacted]"  # the same header, a new value holding a key
    assert shown(f"Bearer {KEY}") == "Bearer $OPENAI_API_KEY"
    assert shown("req-1") == "req-1"
    assert shown("a\x1b[31mb\u202ec") == "ab\\u202ec"  # printable: the escape sequence out, the bidi control shown
    assert redactor.read == ["application/json", "req-1", f"req-2 {LOOKED}", f"Bearer {KEY}", "ab\\u202ec"]


def test_the_values_kept_are_bounded_and_a_long_value_is_read_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(header_values, "KEPT_VALUES", 2)
    monkeypatch.setattr(header_values, "KEPT_CHARACTERS", 12)
    redactor = Counted(GIVEN)
    shown = ShownValues(redactor)
    assert [shown(v) for v in ("one", "two", "three", "one")] == ["one", "two", "three", "one"]
    assert len(shown.kept) <= 2
    long = f"x {KEY}"
    assert (shown(long), shown(long)) == ("x $OPENAI_API_KEY", "x $OPENAI_API_KEY")
    assert redactor.read == ["one", "two", "three", "one", long, long]


def test_each_answer_of_a_prepared_request_has_its_own_headers_shown() -> None:
    """Three answers to one prepared request, the same x-request-id twice, then one holding a key by its look, then
    the sent key itself: each Response holds its own answer's value redacted, the repeated value read once."""
    steps = [Step.reply("openai", headers={"x-request-id": value})
             for value in ("r-1", "r-1", f"r-2 {LOOKED}", f"r-3 {KEY}")]
    with StandIn("openai", *steps) as server:
        request = Request("POST", server.base_url() + "/chat/completions",
                          {"Authorization": "Bearer $OPENAI_API_KEY"}, {"model": "m", "messages": []},
                          key_env=("OPENAI_API_KEY",))
        prepared = transport.prepare(request, "openai", {"OPENAI_API_KEY": KEY})
        read: list[str] = []
        text = prepared.redactor.text

        def counted(value: str) -> str:
            read.append(value)
            return text(value)

        prepared.redactor.text = counted  # type: ignore[method-assign]

        async def send_all() -> list[transport.Response]:
            return [await transport.send_async(request, provider="openai", prepared=prepared) for _ in steps]

        responses = asyncio.run(send_all())
    assert [r.headers["x-request-id"] for r in responses] == ["r-1", "r-1", "r-2 [redacted]", "r-3 $OPENAI_API_KEY"]
    assert read.count("r-1") == 1


GIVEN_LINES = {"abcdefgh12345678": "$MY_KEY"}
LOOP = '        {\n          "tool": "del\x7fhere",\n          "key": "x abcdefgh12345678",\n          "n": 1\n        }'
LOOP_SHOWN = ('        {\n          "tool": "del\\u007fhere",\n          "key": "x $MY_KEY",\n          "n": 1\n'
              '        }')


def test_lines_are_made_visible_after_redaction_and_kept_so() -> None:
    lines = LineRedaction(dict(GIVEN_LINES), visible=True)
    assert lines(LOOP) == LOOP_SHOWN
    again = LOOP.replace('"n": 1', '"n": "\u2028 abcdefgh12345678"')  # a new line: its own look
    assert lines(again) == LOOP_SHOWN.replace('"n": 1', '"n": "\\u2028 $MY_KEY"')
    assert lines(LOOP) == LOOP_SHOWN  # every line kept as shown
    aws = LOOP + '\n  "id": "AKIAZ7XQ4PLM2N8R5T3W"'  # the whole text read at once: shown too
    assert lines(aws) == LOOP_SHOWN + '\n  "id": "[redacted]"'
    assert LineRedaction(dict(GIVEN_LINES))(LOOP) == LOOP_SHOWN.replace("\\u007f", "\x7f")  # not asked: as redacted


@pytest.mark.parametrize(("value", "problem"), [
    ("sk-abc123", None),
    ("", None),
    ("sk-abc\n", "$K holds a control character (a line ending from a .env file?)"),
    ("sk-\x7fabc", "$K holds a control character (a line ending from a .env file?)"),
    ("\tsk-abc", "$K holds a control character (a line ending from a .env file?)"),
    (" sk-abc", "$K has a space at its start, which no HTTP header can carry"),
    ("sk-abc ", "$K has a space at its end, which no HTTP header can carry"),
    ("sk-\u00a0abc", "$K holds a non-ASCII character (character 4 of 7), which no HTTP header can carry"),
    ("sk-ab\u2014c", "$K holds a non-ASCII character (character 6 of 7), which no HTTP header can carry"),
    ("sk-\x85abc", "$K holds a non-ASCII character (character 4 of 7), which no HTTP header can carry"),
])
def test_a_keys_problem_is_found_past_the_fast_look(value: str, problem: str | None) -> None:
    found = key_problem("K", value)
    assert (found[0] if found else None) == problem
