"""A saved document is redacted in one pass (``Redactor.document``) where it was redacted twice, as data and then as
the text of the data (``Redactor.text(dumps_indented(Redactor.data(value)))``, what the mock's and the proxy's
``--save`` wrote): the text pass is kept only for the strings it can still change. The truth is the double pass
itself: on generated documents holding keys whole, in pieces, after escapes, beside placeholders, under credential
fields and in JSON inside strings, the one pass writes the same text, so it hides the same keys."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import example, given, settings, strategies as st

from toolchoice.providers.core.json_text import dumps_indented
from toolchoice.providers.core.redaction import Redactor, pattern_keys

ENV_KEY = "sk-proj-envEK4Rt8Yp2Kw6Qz0Xm3Vb7Nc1Jf5Lh9G"  # given by value, as a client's header key is
MCP_TOKEN = "mcpTok.Zx8Wv6Ut4Sr2Qp0On"  # an MCP secret of the body (no shape: found by value only)
SHAPED = "sk-proj-bdyBK7Mq1Zs5Hx9Tc3Wn2Lp6Rd0Gf4Jv8Y"  # found by its look in the body
PLAIN = "plainFieldSecret-0a1b2c3d"  # a credential field's value
_PARTS = [ENV_KEY, MCP_TOKEN, SHAPED, PLAIN, ENV_KEY[5:19], ENV_KEY[-13:], MCP_TOKEN[2:15], SHAPED[9:23],
          PLAIN[:12], "\n" + ENV_KEY[10:21], "\t" + ENV_KEY[16:27], "\n" + SHAPED[26:37],  # an escape's letter: a run
          "\n", "\t", "\r", '"', "\\", "\x1b", "\\n", "\\u001b",
          "[redacted]", "$OPENAI_API_KEY", "Bearer ", "?key=", "&access_token=", '{"api_key": "', '"}', " ", "x",
          "é", "sk-", "AIza", "0123456789", ": ", ", ",
          # an AWS secret access key is found beside an access key id in the same text (key_looks._aws_secret_spans)
          "AKIA" + "Q3ZB7XK2M9TR4WPL", "Zk3pQ8rT/2vXw+9LmN4bYc7HdJ1sFgA6eU0oWiKq", "=", "u001b",
          "AQ.Ab8" + "xY3_kL9mP2-qR7sT4vW1zB5nC8dF0gH6jK2lM4pQ7rS9tU",
          # the shapes of key_looks' later rows, and names that begin as they do (shown as written)
          "pplx-" + "Tq4Wz8Kd2Ns6Hv0Lm3Pc7Xb1" * 2, "csk-" + "x7d2kq9m4v8t1p6w3n5c0r2h" * 2,
          "tgp_v1_" + "Hy7_Rk2-Mq9Lp4Vr1Zt6Wn3Hc8Jf5Gy0Ds2Kb4Nx6Pe", "fw_" + "Zr8Kq2Wm5Tn9Vb3Xc7Ld1Hf6", "ya29." + "a0AfH6" * 8,
          "fw_version", "csk-config", "pplx-api-docs", "ya29.example", "."]
TEXTS = st.lists(st.sampled_from(_PARTS), max_size=8).map("".join)
NAMES = st.sampled_from(["content", "api_key", "apiKey", "my api key", "token", "key", "password", "text", "args"])
SCALARS = st.one_of(TEXTS, st.integers(-10**20, 10**20), st.floats(allow_nan=False), st.booleans(), st.none())
DOCUMENTS = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(NAMES, TEXTS), inner, max_size=4)), max_leaves=12)


def _both(redactor: Redactor, value: Any) -> tuple[str, str]:
    return redactor.document(value), redactor.text(dumps_indented(redactor.data(value)))


@settings(max_examples=300, deadline=None, database=None)
@given(DOCUMENTS)
# found by CI's run (2026-11-27): two object keys that redact alike (the key whole, a piece after an escape's letter)
# were one key in the one pass's re-dumped object, two in the text pass's document
@example({ENV_KEY: None, "\n" + ENV_KEY[10:21]: None})
# and a name holding a key: redacted, it reads as a credential's name ($OPENAI_API_KEY), whose value the text pass takes
@example({"content": None, "": {ENV_KEY: PLAIN}})
@example({"content": "\n" + ENV_KEY[10:21], "n": 12345678})
# and an AWS access key id that a redacted key borders only after the data pass, in one string, with its secret in another:
# the document's text pairs them (found by a 20,000-example shake, 2026-11-27)
@example([MCP_TOKEN + "AKIA" + "Q3ZB7XK2M9TR4WPL", {"content": "Zk3pQ8rT/2vXw+9LmN4bYc7HdJ1sFgA6eU0oWiKq"}])
def test_one_pass_writes_what_the_data_and_text_passes_wrote_in_a_save_and_in_format_json(value: Any) -> None:
    """Two properties over one strategy and one example count (one generation serves both: generating was most of
    their CPU), each with its own redactor, as when they were two tests. A save: ``Redactor.document`` writes what
    the data and text passes wrote. `--format json` (parse, providers --model, trace, tools:
    ``cli.output.json_document``) printed ``text(dumps(data(document)))``; it now takes ``Redactor.document`` with its
    own ``dumps`` (the standard library's indented text below 32 kB), and prints the same text."""
    from toolchoice.cli.output import dumps, json_document

    secrets = {ENV_KEY: "$OPENAI_API_KEY", MCP_TOKEN: "[redacted]"}
    one, two = _both(Redactor(secrets, found=pattern_keys(value)), value)
    assert one == two
    assert json.loads(one) is not None or one.strip() == "null"

    redactor = Redactor(secrets, found=pattern_keys(value))
    assert json_document(value, redactor) == redactor.text(dumps(redactor.data(value)))


def test_the_cases_the_text_pass_still_changes() -> None:
    """Each is a string the data pass leaves holding what the text pass then hides: the one pass must redo them."""
    redactor = Redactor({ENV_KEY: "$OPENAI_API_KEY"}, found={PLAIN: "[redacted]"})
    cases = [
        "\n" + ENV_KEY[10:21],  # \n's letter and the 11 characters after an n of the key: 12 of it in the JSON text
        PLAIN + SHAPED,  # a shape glued to a found key: after the first pass a placeholder borders it
        f"x\x1b{SHAPED}",  # a shape after a character written as \u001b
    ]
    for text in cases:
        one, two = _both(redactor, {"content": text, "n": 12345678})
        assert one == two
    assert _both(redactor, {"content": "\n" + ENV_KEY[10:21]})[0] != dumps_indented(redactor.data(
        {"content": "\n" + ENV_KEY[10:21]}))  # the first case is one the data pass alone gets otherwise


def test_a_key_that_could_match_outside_a_string_takes_both_passes() -> None:
    """A key of digits (or one holding a quote) can match in the document's numbers or across its strings: the text
    pass runs over the whole document, as before."""
    from toolchoice.providers.core.redaction import _text_again

    digits = "9876543210123456"
    redactor = Redactor({digits: "$NUMERIC_KEY"})
    assert _text_again(redactor) is None
    one, two = _both(redactor, {"id": int(digits), "note": "x"})
    assert one == two and digits not in one
    assert _text_again(Redactor({'quo"ted-secret-value': "$Q"})) is None
    assert _text_again(Redactor({ENV_KEY: "$OPENAI_API_KEY"}, found={PLAIN: "[redacted]"})) is not None


def test_format_json_falls_back_to_both_passes_as_a_save_does() -> None:
    """A key of digits could match in the document's numbers: the text pass runs over the whole JSON text, so the
    number holding it is hidden in `--format json` as in a save."""
    from toolchoice.cli.output import json_document

    digits = "9876543210123456"
    redactor = Redactor({digits: "$NUMERIC_KEY"})
    shown = json_document({"id": int(digits), "note": "x"}, redactor)
    assert digits not in shown and "$NUMERIC_KEY" in shown
