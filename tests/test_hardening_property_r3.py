"""Issue 29: property-based tests for the classes of round three. Each property is stated over any input
Hypothesis can make (any key, any chunking, any width, any stream mutation, any file name, any outside
text); the truth each checks comes from outside the code: the key's own characters, the recorded streams'
end markers as their providers document them, the folder a file must stay in, the C0/C1 control ranges, the
console width.

What each found when first run (before the fixes) is in the issue-29 report; the reproductions it
shrank to are in tests/test_hardening_round3.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import string
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from streams import STREAMS, bedrock_event, fixture_lines, framed

from toolchoice.providers.core import streaming
from toolchoice.providers.core.model import LedgerEntry

KEYS = st.text(string.ascii_letters + string.digits + "-_", min_size=24, max_size=48).map(lambda k: "sk-" + k)
PIECE = 12
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def pieces(key: str) -> list[str]:
    return [key[i:i + PIECE] for i in range(len(key) - PIECE + 1)]


def leaks(key: str, text: str) -> list[str]:
    return [p for p in pieces(key) if p in text]


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in zip(points, points[1:]) if b > a]


async def _stream(provider: str, chunks: list[bytes], key: str) -> streaming.StreamResult:
    """stream_reply over an httpx.MockTransport that yields the body in exactly these chunks."""

    class Body(httpx.AsyncByteStream):
        async def __aiter__(self):  # type: ignore[override]
            for chunk in chunks:
                yield chunk

    kind = "application/vnd.amazon.eventstream" if provider == "bedrock" else "text/event-stream"

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": kind}, stream=Body())

    class Prepared:
        method, url, headers, content = "POST", "http://127.0.0.1:9/x", {}, b"{}"
        secrets = {key: "$KEY"}

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        return await streaming.stream_reply(client, Prepared(), provider, deadline=10)


def _echo(provider: str, key: str) -> bytes:
    if provider == "bedrock":
        lines = fixture_lines("bedrock", "amazon-bedrock-tool-call.1.chunks.txt")
        return (bedrock_event("contentBlockDelta", {"contentBlockIndex": 5, "delta": {"text": f"key {key}"}})
                + framed("bedrock", lines))
    lines = fixture_lines("groq", "groq-tool-call.chunks.txt")
    echo = {"id": "x", "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": {"content": f"key {key}"}, "finish_reason": None}]}
    call = json.loads(lines[1])
    call["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"] = json.dumps({"q": key})
    return framed("groq", [lines[0], json.dumps(echo), json.dumps(call), *lines[2:]], done=True)


# ---- keys through every output path: streams with any chunking, drawn at any width ----------------------

@settings(max_examples=60, deadline=None)
@given(key=KEYS, cuts=st.lists(st.integers(0, 10_000), max_size=40), provider=st.sampled_from(["groq", "bedrock"]),
       width=st.sampled_from([20, 37, 60, 80, 100]))
def test_a_key_never_leaves_a_stream_whatever_the_chunking_and_width(key, cuts, provider, width):
    from toolchoice.cli.output import new_console
    from toolchoice.cli.sample_view import print_reply, print_stream_facts
    from toolchoice.providers.core.redaction import Redactor

    data = _echo(provider, key)
    result = asyncio.run(_stream(provider, chunked(data, cuts), key))
    saved = result.raw.decode("utf-8", errors="replace")
    assert not leaks(key, saved), "saved stream"
    assert not leaks(key, json.dumps([result.reply.to_json(), result.to_json(with_events=True)]))
    console = new_console(Redactor({key: "$KEY"}), width=width)
    with console.capture() as captured:
        print_reply(console, provider, result.reply, None)
        print_stream_facts(console, result.to_json())
    drawn = captured.get()
    assert not leaks(key, drawn) and not leaks(key, "".join(drawn.split())), "drawn"


@settings(max_examples=40, deadline=None)
@given(key=KEYS, body=st.text(max_size=200), at=st.integers(0, 200))
def test_a_key_never_reaches_a_saved_transcript_or_sample(tmp_path_factory, key, body, at):
    from toolchoice.providers.core.redaction import safe_json_text
    from toolchoice.providers.core.save import save_redactor

    text = body[:at] + key + body[at:]
    os.environ["HYPOTHESIS_R3_KEY"] = key
    os.environ["TOOLCHOICE_ALLOW_ENV"] = "HYPOTHESIS_R3_KEY"
    try:
        redactor = save_redactor({})  # a replay resolved no key: the environment's are redacted all the same
        shown = safe_json_text(text, None, redactor)
    finally:
        del os.environ["HYPOTHESIS_R3_KEY"], os.environ["TOOLCHOICE_ALLOW_ENV"]
    assert not leaks(key, shown)


@settings(max_examples=40, deadline=None)
@given(key=KEYS, prefix=st.integers(PIECE, 40), noise=st.text(max_size=40))
def test_mcp_error_lines_never_quote_a_header_secret(key, prefix, noise):
    from toolchoice.providers.core import mcp_client
    from toolchoice.providers.core.model import ToolchoiceError

    async def fails() -> dict:
        raise RuntimeError(f"{noise} token {key[:prefix]}{noise}")

    with pytest.raises(ToolchoiceError) as caught:
        mcp_client._run(fails, "mcp_url: http://x", 5, {key: "$T"})
    assert not leaks(key, caught.value.message)
    assert not CONTROL.search(caught.value.message)


# ---- any stream mutation: a finding, never a crash and never a clean reply ----------------------------------

RECORDED = {
    "groq": ("groq-tool-call.chunks.txt", True), "openai": ("groq-tool-call.chunks.txt", True),
    "mistral": ("mistral-tool-call.chunks.txt", True), "deepseek": ("deepseek-tool-call.chunks.txt", True),
    "anthropic": ("anthropic-tool-no-args.chunks.txt", False), "bedrock": ("amazon-bedrock-tool-call.1.chunks.txt", False),
    "openai-responses": ("azure-tool-call.1.chunks.txt", False), "cohere": ("cohere-tool-call.chunks.txt", False),
}


def _recorded(provider: str) -> bytes:
    name, done = RECORDED[provider]
    folder = "groq" if provider == "openai" else provider
    return framed(provider, fixture_lines(folder, name), done=done)


@settings(max_examples=80, deadline=None)
@given(provider=st.sampled_from(sorted(RECORDED)), data=st.data())
def test_a_cut_stream_is_a_failed_exchange(provider, data):
    whole = _recorded(provider)
    cut = data.draw(st.integers(1, len(whole) - 1))
    prefix = whole[:cut]
    assume(prefix.rstrip() != whole.rstrip())
    result = streaming.assemble_bytes(provider, prefix)
    assert result.findings, (provider, cut)
    assert result.reply.error is not None


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                       max_size=3), max_leaves=8)


def _mutate(value, path: list[int], replacement):
    """``value`` with the node reached by ``path`` (indices taken modulo each container's size) replaced."""
    if not path or not isinstance(value, (dict, list)) or not value:
        return replacement
    if isinstance(value, dict):
        keys = list(value)
        key = keys[path[0] % len(keys)]
        return {**value, key: _mutate(value[key], path[1:], replacement)}
    i = path[0] % len(value)
    return [*value[:i], _mutate(value[i], path[1:], replacement), *value[i + 1:]]


@settings(max_examples=150, deadline=None)
@given(provider=st.sampled_from(sorted(RECORDED)), data=st.data())
def test_any_field_of_any_event_with_any_type_never_crashes(provider, data):
    name, done = RECORDED[provider]
    lines = [json.loads(line) for line in fixture_lines("groq" if provider == "openai" else provider, name)]
    which = data.draw(st.integers(0, len(lines) - 1))
    path = data.draw(st.lists(st.integers(0, 20), min_size=1, max_size=6))
    lines[which] = _mutate(lines[which], path, data.draw(JSON_VALUES))
    result = streaming.assemble_bytes(provider, framed(provider, [json.dumps(line) for line in lines], done=done))
    assert result.reply is not None  # reached: no exception escaped the assembler


@settings(max_examples=80, deadline=None)
@given(provider=st.sampled_from(sorted(RECORDED)), junk=st.binary(min_size=1, max_size=64), data=st.data())
def test_bytes_spliced_into_a_stream_never_crash(provider, junk, data):
    whole = _recorded(provider)
    at = data.draw(st.integers(0, len(whole)))
    result = streaming.assemble_bytes(provider, whole[:at] + junk + whole[at:])
    assert result.reply is not None


# ---- no write outside the target folder, for any name --------------------------------------------------------

def _translation():
    from toolchoice.providers.core.registry import translate
    from toolchoice.providers.core.scenario import load_scenario_text

    return translate("openai", load_scenario_text("tools: [{name: t}]\nmessages: [{role: user, content: hi}]\n"))


_TRANSLATION = _translation()

NAMES = st.text(st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=20) | st.sampled_from(
    ["..", ".", "...", "../x", "a/../../b", "/etc/passwd", "..\\..", "\x00", "~", ".git"])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES, provider=NAMES)
def test_snapshot_files_stay_in_their_folder_for_any_name(tmp_path, name, provider):
    from toolchoice.providers.core import snapshot
    from toolchoice.providers.core.save import safe_component, write_inside

    root = tmp_path / "case"
    folder = root / "snaps"
    folder.mkdir(parents=True, exist_ok=True)
    # the way render --snapshot names files: the scenario file's stem, each translation's provider
    translation = _TRANSLATION._replace(provider=provider)
    scenario_path = name.replace("\0", "") + ".yaml"  # a command line cannot hold NUL (execve's strings end there)
    expected = snapshot.snapshot_files([(scenario_path, [translation])])
    snapshot.update(folder, expected)
    write_inside(folder, f"{safe_component(name)}/{safe_component(provider)}.txt", "x")  # the writer, any name
    written = [p for p in root.rglob("*") if p.is_file()]
    assert len(written) == 2 and all(folder in p.parents for p in written), written
    for p in written:
        p.unlink()


# ---- no outside byte reaches the terminal unescaped; every table fits with its border ----------------------------

OUTSIDE = st.text(st.characters(blacklist_categories=("Cs",)), max_size=120)


@settings(max_examples=80, deadline=None)
@given(texts=st.lists(OUTSIDE, min_size=1, max_size=6), width=st.sampled_from([60, 80, 100]))
@example(texts=["0\u2028"], width=60)  # found by this test: a line separator split a table row
@example(texts=["a\u202eb"], width=80)  # a bidi override would reorder what the terminal shows
def test_outside_text_is_printed_escaped_and_tables_keep_their_border(texts, width):
    from rich.cells import cell_len  # terminal cells (a combining mark takes none), as the console counts them
    from rich.text import Text

    from toolchoice.cli.compare_view import fit_table
    from toolchoice.cli.output import ledger_table, new_console

    console = new_console(width=width)
    ledger = [LedgerEntry("warning", f"code.{i}", t) for i, t in enumerate(texts)]
    columns = ("provider", "tool_choice on the wire", "calls", "verdict", "latency ms")
    cells = [[Text(t[:30] or "x"), Text(t), Text(t + " " + t), Text("obeyed"), Text("12")] for t in texts]
    with console.capture() as captured:
        console.print(ledger_table(ledger))
        console.print(fit_table(console, "title " + texts[0], columns, cells))
        console.print(texts[-1])
    out = captured.get()
    assert not CONTROL.search(out), repr(out)
    lines = [line for line in out.splitlines() if line]
    assert all(cell_len(line) <= width for line in lines), max(cell_len(line) for line in lines)
    body = [line for line in lines if line[:1] in "│┃"]
    assert all(line.rstrip()[-1:] in "│┃" for line in body), [line for line in body if line.rstrip()[-1:] not in "│┃"]


@settings(max_examples=40, deadline=None)
@given(text=OUTSIDE)
def test_plain_writes_escape_every_control_character(text):
    import contextlib
    import io

    from toolchoice.cli.output import write

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):  # a JSON document is written with JSON's escapes (cli/output.write_json)
        write(json.dumps({"t": text}, ensure_ascii=False), json_escapes=True)
    out = buffer.getvalue()
    assert not CONTROL.search(out)
    assert json.loads(out)["t"] == text  # the escape is JSON's own: the value is the same
