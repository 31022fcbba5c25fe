"""`parse --format json` prints ``json_document`` of the document built from the reply, the verdict and the
translation as they were read, without redacting them as data first: the document's one pass
(``Redactor.document``) already redacts every string of it, so the early pass changed no byte. The truth is the
command's old output itself: on generated replies (tool calls, arguments under credential names, texts, errors,
reasoning, server calls, stop details, choices), verdicts and ledgers holding keys whole, in pieces, after escapes,
beside placeholders and in numbers, the document built from the raw values is the same text as the one built from
``Redactor.data`` of them (what parse printed until 2026-11-27). A scratch run held it over 3,000 more examples (generation only, at 72 ms an example under load)."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings, strategies as st

from toolchoice.cli.output import json_document
from toolchoice.cli.parse_cmd import json_text
from toolchoice.providers.core.parse_record import parse_json
from toolchoice.providers.core.model import (LedgerEntry, ProviderError, ReasoningItem, Reply, ServerCall, ToolCall,
                                             Translation, Usage)
from toolchoice.providers.core.redaction import Redactor

ENV_KEY = "sk-proj-envEK4Rt8Yp2Kw6Qz0Xm3Vb7Nc1Jf5Lh9G"  # OPENAI_API_KEY in the environment: redacted by value
DIGITS = "9876543210123456"  # a key of digits: it can match in the document's numbers (Redactor.document's fallback)
SHAPED = "sk-ant-api03-bdyBK7Mq1Zs5Hx9Tc3Wn2Lp6Rd0Gf4Jv8YaB"  # a key no variable holds: found by its look
_PARTS = [ENV_KEY, SHAPED, ENV_KEY[5:19], ENV_KEY[-13:], SHAPED[9:23], DIGITS, DIGITS[:9], DIGITS[4:],
          "\n" + ENV_KEY[10:21], "\t" + ENV_KEY[16:27], "\n" + SHAPED[26:37], "\n", "\t", '"', "\\", "\x1b", "\\n",
          "\\u001b", "[redacted]", "$OPENAI_API_KEY", "Bearer ", "?key=", "&access_token=", '{"api_key": "', '"}',
          " ", ": ", "x", "é", "sk-", "AIza", "0123456789",
          "AKIA" + "Q3ZB7XK2M9TR4WPL", "Zk3pQ8rT/2vXw+9LmN4bYc7HdJ1sFgA6eU0oWiKq", "=",
          "AQ.Ab8" + "xY3_kL9mP2-qR7sT4vW1zB5nC8dF0gH6jK2lM4pQ7rS9tU"]
TEXTS = st.lists(st.sampled_from(_PARTS), max_size=6).map("".join)
MAYBE = st.none() | TEXTS
NAMES = st.sampled_from(["city", "api_key", "apiKey", "token", "password", "authorization", "text"]) | TEXTS
NUMBERS = st.integers(0, 10**17) | st.sampled_from([int(DIGITS), int(DIGITS[:9])])
SCALARS = st.one_of(TEXTS, NUMBERS, st.floats(allow_nan=False), st.booleans(), st.none())
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(NAMES, inner, max_size=3)), max_leaves=8)
OBJECTS = st.dictionaries(NAMES, VALUES, max_size=3)


def _made(kind: Any, *fields: Any, **named: Any) -> Any:
    """``kind(*fields, **named)`` drawn field by field (st.builds would infer the fields typed Any), in one flat tuple:
    the same values as a tuple of the fields beside ``st.fixed_dictionaries(named)``, without the shuffles of the
    keyword arguments' order that fixed_dictionaries draws (an object is the same whatever order its keywords came
    in) nor a nested draw per part."""
    names = tuple(named)
    count = len(fields)
    return st.tuples(*fields, *named.values()).map(
        lambda drawn: kind(*drawn[:count], **dict(zip(names, drawn[count:]))))


CALLS = st.one_of(
    _made(ToolCall, MAYBE, TEXTS, OBJECTS, signature=MAYBE, caller=MAYBE),
    _made(ToolCall, MAYBE, TEXTS, st.none(), raw_arguments=TEXTS, arguments_error=TEXTS),
    _made(ToolCall, MAYBE, TEXTS, st.none(), input=TEXTS))
REASONING = _made(ReasoningItem, st.sampled_from(["anthropic", "openai-responses"]), MAYBE, MAYBE, MAYBE,
                      st.booleans(), MAYBE, st.lists(TEXTS, max_size=2).map(tuple), NUMBERS)
SERVER = _made(ServerCall, st.sampled_from(["mcp_call", "tool_search"]), MAYBE, MAYBE, MAYBE,
                   st.lists(TEXTS, max_size=2).map(tuple), MAYBE)
ERRORS = st.none() | _made(ProviderError, st.none() | st.integers(100, 599), MAYBE, TEXTS)


def _reply(choices: Any) -> Any:
    return _made(Reply, st.lists(CALLS, max_size=3).map(tuple), MAYBE, MAYBE,
                     _made(Usage, st.none() | NUMBERS, st.none() | NUMBERS), ERRORS, MAYBE,
                     st.lists(REASONING, max_size=2).map(tuple), st.lists(SERVER, max_size=2).map(tuple),
                     st.none() | OBJECTS, choices)


REPLIES = _reply(st.just(()) | st.lists(_reply(st.just(())), min_size=2, max_size=3).map(tuple))
LEDGERS = st.lists(_made(LedgerEntry, st.sampled_from(["info", "warning", "error"]), TEXTS, TEXTS), max_size=3)
TRANSLATIONS = st.none() | _made(Translation, st.just("openai"), VALUES, VALUES, st.none(), LEDGERS)
VERDICTS = st.none() | OBJECTS
SECRETS = st.sampled_from([{}, {ENV_KEY: "$OPENAI_API_KEY"},
                           {ENV_KEY: "$OPENAI_API_KEY", DIGITS: "$NUMERIC_KEY"}])


def _printed(redactor: Redactor, reply: Reply, verdict: Any, translation: Any, early: bool) -> str:
    """What parse prints (``json_text``), or (``early``) what it printed until 2026-11-27: the values redacted as
    data, then the document."""
    if not early:
        return json_text("openai", reply, verdict, translation, None, redactor)
    reply, verdict, translation = redactor.data((reply, verdict, translation))
    return json_document(parse_json("openai", reply, verdict, translation), redactor)


@settings(max_examples=100, deadline=None, database=None)
@given(SECRETS, REPLIES, VERDICTS, TRANSLATIONS)
@example({ENV_KEY: "$OPENAI_API_KEY"}, Reply((ToolCall("call_1", "get_weather", {"api_key": ENV_KEY[:20]}),),
                                             "paste " + SHAPED, error=ProviderError(401, "Bearer", ENV_KEY)),
         {"reason": "\n" + ENV_KEY[10:21]}, None)
@example({DIGITS: "$NUMERIC_KEY"}, Reply(usage=Usage(int(DIGITS), 5),
                                         reasoning=(ReasoningItem("anthropic", position=int(DIGITS)),)), None, None)
def test_the_document_from_the_raw_values_is_the_text_parse_printed(secrets: dict[str, str], reply: Reply,
                                                                    verdict: Any, translation: Any) -> None:
    redactor = Redactor(secrets)  # as output_redactor builds it: the environment's keys by value, others by look
    assert _printed(redactor, reply, verdict, translation, early=False) == _printed(redactor, reply, verdict,
                                                                                    translation, early=True)


def test_where_the_whole_text_is_read_the_values_are_redacted_first() -> None:
    """Where ``Redactor.document`` reads the whole JSON text (a key of digits could match in a number; a member's name
    held a key), an AWS secret is found there beside an access key id another string holds, unless an early pass
    redacted that id first (the cases Hypothesis found): the document from the raw values differs, so parse redacts
    them first there (``document_alone`` None); elsewhere it reads each string alone and builds from the raw values."""
    from toolchoice.cli.output import dumps

    aws_id, aws_secret = "AKIA" + "Q3ZB7XK2M9TR4WPL", "Zk3pQ8rT/2vXw+9LmN4bYc7HdJ1sFgA6eU0oWiKq"
    env = Redactor({ENV_KEY: "$OPENAI_API_KEY"})
    cases = [(Redactor({ENV_KEY: "$OPENAI_API_KEY", DIGITS: "$NUMERIC_KEY"}), {}),
             (env, {ENV_KEY: None})]  # a member named by the key
    for redactor, named in cases:
        reply = Reply((ToolCall("call_1", "f", named),), server_calls=(ServerCall("mcp_call", error=aws_id + ENV_KEY),))
        translation = Translation("openai", [], aws_secret, None, [])
        raw = parse_json("openai", reply, None, translation)
        assert redactor.document_alone(raw, dump=dumps) is None
        assert redactor.document(raw, dump=dumps) != _printed(redactor, reply, None, translation, early=True)
        assert _printed(redactor, reply, None, translation, early=False) == _printed(redactor, reply, None,
                                                                                     translation, early=True)
    common = parse_json("openai", Reply((ToolCall("call_1", "f", {"api_key": ENV_KEY, "note": "\n" + ENV_KEY[10:21]}),),
                                        "pasted " + SHAPED), {"obeyed": True}, None)
    assert env.document_alone(common, dump=dumps) == env.document(common, dump=dumps)  # built from the raw values
    assert Redactor({}).document_alone(common, dump=dumps) is not None


def test_parse_prints_the_document_it_printed(tmp_path: Any) -> None:
    """The command in process on a saved OpenAI reply whose arguments and text hold keys (one set in the environment,
    one pasted): its output is the early pass's document, and neither key is in it."""
    import json

    from cli import run_cli

    from toolchoice.providers.core.reply import read_reply

    body = {"id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-5.4-mini",
            "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": "pasted " + SHAPED, "tool_calls": [{
                    "id": "call_1", "type": "function", "function": {
                        "name": "get_weather", "arguments": json.dumps({"city": "Paris\n" + ENV_KEY[10:21],
                                                                        "api_key": ENV_KEY})}}]}}],
            "usage": {"prompt_tokens": 12, "completion_tokens": 5}}
    saved = tmp_path / "sample-001.response.json"
    saved.write_text(json.dumps(body), encoding="utf-8")
    done = run_cli(["parse", str(saved), "-p", "openai", "--format", "json"], env={"OPENAI_API_KEY": ENV_KEY},
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    redactor = Redactor({ENV_KEY: "$OPENAI_API_KEY"})
    expected = _printed(redactor, read_reply("openai", None, body, json.dumps(body)), None, None, early=True)
    assert done.stdout == expected + "\n"
    assert ENV_KEY not in done.stdout and SHAPED not in done.stdout and ENV_KEY[10:21] not in done.stdout
