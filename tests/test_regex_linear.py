"""Patterns rewritten so that a text is read once, not from each of its places to its end (ReDoS audit, session 20):
each reads every text as the pattern it replaced, written here as the truth (every text over the characters that
matter up to a length, and seeded random ones), and answers a long adversarial text: the old patterns took about
n^2 steps on these (8,000 characters: 38-424 ms; 1,000,000: hours), the new ones read it once (a structure
argument, not a clock: a regression hangs, and the suite's hang watchdog names it)."""

from __future__ import annotations

import itertools
import random
import re

LONG = 1_000_000


def _texts(alphabet: list[str], most: int, random_count: int, seed: int, random_most: int = 40) -> list[str]:
    """Every text of up to ``most`` pieces of ``alphabet``, then ``random_count`` seeded random ones."""
    texts = ["".join(p) for size in range(most + 1) for p in itertools.product(alphabet, repeat=size)]
    rng = random.Random(seed)
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, random_most))) for _ in range(random_count)]
    return texts


def test_rich_words_read_as_rich_reads_them_and_a_text_of_spaces_once() -> None:
    """word_breaks._WORD: rich's \\s*\\S+\\s* tried each place of a text of spaces alone up to its end."""
    from toolchoice.cli.word_breaks import _WORD

    old = re.compile(r"\s*\S+\s*")
    for text in _texts([" ", "\n", "a"], 8, 2000, 20):
        assert [m.span() for m in _WORD.finditer(text)] == [m.span() for m in old.finditer(text)], repr(text)
    assert list(_WORD.finditer(" " * LONG)) == []
    assert [m.span() for m in _WORD.finditer(" " * LONG + "a ")] == [(0, LONG + 2)]


def test_version_numbers_are_read_as_before_and_a_run_of_digits_once() -> None:
    """model_rules.VERSION_NUMBERS: \\d+[.-]\\d+ tried each digit of a long run up to its end."""
    from toolchoice.providers.core.model_rules import VERSION_NUMBERS

    old = re.compile(r"\d+[.-]\d+")
    for text in _texts(["1", ".", "-", "a"], 6, 2000, 21):
        assert [m.span() for m in VERSION_NUMBERS.finditer(text)] == [m.span() for m in old.finditer(text)], text
    assert VERSION_NUMBERS.findall("9" * LONG) == []
    assert VERSION_NUMBERS.findall("claude-" + "9" * LONG + ".5") == ["9" * LONG + ".5"]


def test_click_line_breaks_are_joined_as_before_and_a_run_of_spaces_read_once() -> None:
    """app.LINE_BREAK: [ \\t]*\\n[ \\t]* tried each place of a long run of spaces up to its end."""
    from toolchoice.cli.app import LINE_BREAK

    old = re.compile(r"[ \t]*\n[ \t]*")
    for text in _texts([" ", "\t", "\n", "a"], 6, 2000, 22):
        assert re.sub(LINE_BREAK, " ", text) == old.sub(" ", text), repr(text)
        assert [m.span() for m in re.finditer(LINE_BREAK, text)] == [m.span() for m in old.finditer(text)], repr(text)
    assert re.sub(LINE_BREAK, " ", " \t" * (LONG // 2)) == " \t" * (LONG // 2)
    assert re.sub(LINE_BREAK, " ", "a" + " " * LONG + "\n b") == "a b"


def test_an_html_pages_tags_and_title_are_read_as_before_and_unclosed_ones_once() -> None:
    """reply._untagged and reply._title: <[^>]+> and <title[^>]*>(.*?)</title> (re.I, re.S) tried each "<" or
    "<title" of a server's page up to its end where no ">" or "</title>" followed."""
    from toolchoice.providers.core.reply import _title, _untagged

    tags = re.compile(r"<[^>]+>")
    title = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
    pieces = ["<title", "<TiTle", "</title>", "</TITLE>", "<", ">", "x", "\n", "/"]
    for text in _texts(pieces, 4, 3000, 23, random_most=12) + _texts(["<", ">", "a"], 7, 0, 0):
        assert _untagged(text) == tags.sub(" ", text), repr(text)
        found = title.search(text)
        assert _title(text) == (None if found is None else found.group(1)), repr(text)
    assert _untagged("<" * LONG) == "<" * LONG
    assert _untagged("<a>" + "<" * LONG) == " " + "<" * LONG
    assert _title("<title>" * (LONG // 7)) is None
    assert _title("<title " * (LONG // 7)) is None


def _old_shape_spans(text: str, json_text: bool, examples: bool) -> list[tuple[int, int, int]]:
    """key_looks._shape_spans as it was (2026-11-28): each prefix tried with the rows' pattern to its end."""
    from toolchoice.providers.core import key_looks as k

    spans: list[tuple[int, int, int]] = []
    at = 0
    while (found := k._PREFIXES.search(text, at)) is not None:
        start = found.start()
        if start == 0 or text[start - 1] not in k._KEY_CHARS or (json_text and k._after_escape(text, start)):
            whole = k._SHAPE_AT.match(text, start)
            if whole is not None and (examples or not k._DOCUMENTED.fullmatch(whole.group())) and (
                    k._read_as_key(whole.lastgroup, whole.group())):
                spans.append((start, whole.end(), int(whole.lastgroup[1:])))
                at = whole.end()
                continue
        at = start + 1
    return spans


def test_key_spans_are_found_as_before_and_a_dotted_token_of_many_ya29_read_once() -> None:
    """key_looks._shape_spans: a ya29. token whose tail read as words was read again from each ya29. after a dot in
    it, to its end (ya29. + 30 letters + . repeated: 16,000 characters 98 ms, a MB minutes, in the redaction of any
    text); each is now read from a table made once. A later ya29. may still begin a key (its tail's pieces shorter)."""
    from toolchoice.providers.core.key_looks import _shape_spans

    pieces = ["ya29.", ".", "a" * 30, "A1" * 15, "Ab3x", "-", " ", "sk-", "AKIA", "\\n", "ya29"]
    for k, text in enumerate(_texts(pieces, 4, 3000, 24, random_most=14)):
        json_text = k % 2 == 0  # each kind of text read both ways: JSON (a key after an escape) or not
        assert _shape_spans(text, json_text, not json_text) == _old_shape_spans(text, json_text, not json_text), text
    later = "x ya29." + "a" * 1000 + ".ya29." + "A1" * 15
    assert _shape_spans(later) == _old_shape_spans(later, True, False) == [(1008, len(later), 13)]
    # at the edges: a first piece of 29 or 30, pieces of 4 characters on average or a little less, a key inside
    tails = ["a" * 30, "A1" * 14 + "A", "Abcd" * 8, "Abcd" * 8 + "A", "A1" * 15, "sk-" + "Ab3x" * 6, "ya29", "", "-"]
    for one, two in itertools.product(tails, repeat=2):
        text = f"x ya29.{'a' * 400}.ya29.{one}.ya29.{two}.{'a' * 8}"
        assert _shape_spans(text) == _old_shape_spans(text, True, False), text
    assert _shape_spans("x " + ("ya29." + "a" * 30 + ".") * (LONG // 36)) == []


def test_numbers_with_their_units_are_found_as_before_and_a_run_of_digits_and_commas_once() -> None:
    """hanging.UNITS: the pattern, tried at each digit after a comma of "1,1,1,..." up to its end, took n^2 steps
    (8,000 characters: 98 ms); its matches are now found from each run's first place a number may begin."""
    from toolchoice.cli.hanging import UNITS

    old = re.compile(r"95% CI \S+|(?<![\w.])\d[\d.,]* (?:ms|s|µs|%|[kMG]i?B|°C|km/h)(?![\w/])")
    pieces = ["1", ",", ".", " ", "a", " ms", " %", "95% CI ", "/", "x9"]
    overlapping = ["95% CI x95% CI 95% CI y", "95% CI 95% CI 1 ms", "1,95% CI 2 ms", "a1.5 s,2 ms,x3 %"]
    for text in _texts(pieces, 4, 3000, 25, random_most=16) + overlapping:
        assert [m.span() for m in UNITS.finditer(text)] == [m.span() for m in old.finditer(text)], repr(text)
        assert UNITS.sub(lambda m: m.group().upper() + "|", text) == old.sub(lambda m: m.group().upper() + "|", text)
    assert UNITS.findall(overlapping[0]) == old.findall(overlapping[0])
    assert UNITS.search(overlapping[-1]).span() == old.search(overlapping[-1]).span()  # type: ignore[union-attr]
    assert UNITS.findall("1," * (LONG // 2)) == []
    assert UNITS.findall("a," + "1," * (LONG // 2) + "5 ms") == ["1," * (LONG // 2) + "5 ms"]


def test_the_line_of_an_integer_past_the_digit_limit_is_found_as_before_from_each_runs_first_digit() -> None:
    r"""bounded.digits_line: \d{limit+1,} read each digit of a shorter run up to limit + 1 further (a MB of
    4,300-digit runs: 11.9 s); it is now tried at each run's first digit (at the lowest limit Python takes, 640)."""
    import sys

    from toolchoice.providers.core.bounded import digits_line

    def old(text: str) -> int | None:
        found = re.search(r"\d{%d,}" % (sys.get_int_max_str_digits() + 1), text)
        return text.count("\n", 0, found.start()) + 1 if found else None

    was = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        for text in _texts(["1" * 320, "2" * 320, "1", "\n"], 3, 100, 26, random_most=6):
            assert digits_line(text) == old(text), text
        assert digits_line(("1" * 640 + "\n") * (LONG // 641) + "7" * 641) == LONG // 641 + 1
    finally:
        sys.set_int_max_str_digits(was)
