"""The JSON documents `parse -f json` and `send -f json` write for a large reply (written in pieces by
core/json_text.py, shown through ``output.write_json``): the standard library's text of the same value, with
only the characters a terminal acts on written out as JSON escapes, and nothing else changed."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

from cli import run_cli
from servers import StandIn, Step, fixture
from toolchoice.providers.core import json_text

ROOT = Path(__file__).resolve().parent.parent
# What a terminal acts on or shows as nothing (ECMA-48 C0 but tab and newline, DEL, C1; Unicode line and paragraph
# separators, bidi embeddings/overrides/isolates, zero-width characters, BOM) and lone surrogates (no UTF-8 holds them)
ACTED_ON = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200d\u2028\u2029\u202a-\u202e\u2060\u2066-\u2069"
                      "\ufeff\ud800-\udfff]")
# (no "0.00001" among them: such a text is left to Python's encoder, json_text._float_spelled_otherwise)
TRICKY = ["\x1b[31mred\x1b[0m", "del\x7f", "c1\x9b2J", "line\u2028sep", "bidi\u202eevil", "lone\ud800",
          "é😀 \"q\" \\", "tab\tnewline\n"]


def large_body() -> dict:
    """The recorded OpenAI reply with one call whose arguments hold 6,000 lines (over json_text's piece threshold)."""
    body = copy.deepcopy(fixture("openai", "openai-chat-single-strict"))
    call = body["choices"][0]["message"]["tool_calls"][0]
    lines = [f"{n}: {TRICKY[n % len(TRICKY)]}" for n in range(6_000)]
    call["function"]["arguments"] = json.dumps({"lines": lines, "count": 6_000, "ratio": 0.25})
    return body


def the_standard_library_shown(document: object) -> str:
    text = json.dumps(document, indent=2, ensure_ascii=False)
    return ACTED_ON.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def test_parse_json_of_a_large_reply_is_the_standard_library_text_escaped(tmp_path: Path) -> None:
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps(large_body()), encoding="ascii")  # as a server sends it: escapes, ASCII
    shown = run_cli(["parse", str(reply), "-p", "openai", "-f", "json"], env={})
    assert shown.returncode == 0, shown.stderr
    document = json.loads(shown.stdout)
    assert document["reply"]["tool_calls"][0]["arguments"]["lines"][:len(TRICKY)] == [
        f"{n}: {t}" for n, t in enumerate(TRICKY)]
    assert json_text._shape(document) == json_text._LARGE  # written in pieces
    assert not ACTED_ON.search(shown.stdout)
    assert shown.stdout == the_standard_library_shown(document)


def test_send_json_of_a_large_reply_is_the_standard_library_text_escaped(tmp_path: Path) -> None:
    env = {"OPENAI_API_KEY": "sk-test-0123456789abcdef"}
    with StandIn("openai", default=Step(body=json.dumps(large_body()))) as server:
        sent = run_cli(["send", "configs/weather.yaml", "-p", "openai", "--base-url", server.base_url("openai"),
                        "-f", "json"], env=env, cwd=ROOT)
    assert sent.returncode in (0, 4), sent.stderr
    document = json.loads(sent.stdout)
    assert "sk-test-0123456789abcdef" not in sent.stdout and '"5999: ' in sent.stdout
    assert json_text._shape(document) == json_text._LARGE
    assert not ACTED_ON.search(sent.stdout)
    assert sent.stdout == the_standard_library_shown(document)
