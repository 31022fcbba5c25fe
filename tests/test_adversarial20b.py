"""Adversarial round on session 20's merges (trial 20m): inputs aimed at what landed on 2026-11-28.

The truth is from outside the code: RFC 9112 and RFC 9110 for the mock's HTTP (a real server on 127.0.0.1, raw
sockets), the real shells for shell words.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any, Iterator

import pytest

from toolchoice.providers.core.mock.server import running_mock

KEY = b"sk-proj-AdversarialTwentyB0123456789abcdefghijklmnopqrstuvwx"
CHAT = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],
        "tool_choice": "required"}
BODY = json.dumps(CHAT).encode()
WHOLE = b"Content-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY
POST_NO_HOST = b"POST /v1/chat/completions HTTP/1.1\r\n"


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with running_mock("openai") as served:
        yield int(served.base_url.split(":")[2].split("/")[0])


def _exchange(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(data)
        got = b""
        try:
            while chunk := sock.recv(65536):
                got += chunk
        except (socket.timeout, ConnectionResetError):
            pass
    return got


def _status(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1])


# ---- the mock's header lines: RFC 9112 5.1, 5.2 and RFC 9110 5.6.3 -------------------------------------------
# 5.1: "No whitespace is allowed between the field name and colon. [...] A server MUST reject, with a response
# status code of 400 (Bad Request), any received request message that contains whitespace between a header field
# name and colon." 5.2: a server receiving obs-fold "MUST either reject the message by sending a 400 (Bad Request)
# [...] or replace each received obs-fold with one or more SP octets prior to interpreting the field value" (here
# unfolded, `Host: a b`, an invalid Host either way). OWS is "*( SP / HTAB )" (RFC 9110 5.6.3): a no-break space
# or a vertical tab around a Host value is part of it, and no uri-host holds one.
# Until trial 20m each of these was answered as if its Host were `a` (the first two: 200).

@pytest.mark.parametrize("head", [
    POST_NO_HOST + b"Host: a\r\n " + KEY + b"\r\n",  # obs-fold: the Host is `a <key>`
    POST_NO_HOST + b"Host: a\r\n\tb\r\n",
    POST_NO_HOST + b"Host : a\r\n",  # whitespace between the name and the colon
    POST_NO_HOST + b"Host\t: a\r\n",
    POST_NO_HOST + b" Host: a\r\n",  # a first field line that starts with a space
    POST_NO_HOST + b"Host: a\r\n" + KEY + b"\r\n",  # a line with no colon (a key pasted on its own line)
    POST_NO_HOST + b"Host: \xa0a\xa0\r\n",
    POST_NO_HOST + b"Host: \x0ba\x0c\r\n",
])
def test_a_header_line_outside_the_grammar_is_a_400_that_quotes_nothing(port: int, head: bytes) -> None:
    reply = _exchange(port, head + WHOLE)
    assert _status(reply) == 400, reply[:300]
    assert KEY not in reply and b"\xa0" not in reply


@pytest.mark.parametrize("host", [b"[::1]:8080", b"localhost.:8080", b"LOCALHOST", b"a:65536", b"",
                                  b"127.0.0.1:0"])
def test_odd_but_grammatical_hosts_and_tab_ows_are_still_served(port: int, host: bytes) -> None:
    """uri-host [":" port] with port = *DIGIT (RFC 3986 3.2.3: no range), reg-name may be empty or end in a dot."""
    reply = _exchange(port, POST_NO_HOST + b"Host:\t" + host + b" \t\r\nX-Other:\tv\t\r\n" + WHOLE)
    assert _status(reply) == 200, reply[:300]


# ---- schema_patterns.pieces: what the regex package reads as no piece ----------------------------------------
# The regex package builds a repeat {m} as m copies before any timeout counts (schema_patterns' MAX_PIECES note).
# Each pattern below is the regex package's (measured 2026-11-28 with regex.compile and ru_maxrss, at a smaller
# count): `(a{1000}) {1000}` under (?x) and `(a{1000})(?#c){1000}` built 1000 * 1000 pieces (278 MB), and
# `(?x)#[` + newline + `a{3000000}` 3,000,000 (800 MB), while pieces() counted 2,001, 3,000 and 3: a verbose
# pattern's blanks and `#` comments and a `(?#...)` comment are nothing the repeat after them applies to (the
# repeat is the atom's before them), and a `[` in a verbose comment opens no class.
@pytest.mark.parametrize("pattern, built", [
    ("(?x)(a{1000}) {1000}", 1000 * 1000),
    ("(?x)(a{1000})\t#c\n{1000}", 1000 * 1000),
    ("(a{1000})(?#c){1000}", 1000 * 1000),
    ("(?x)#[\na{3000000}", 3_000_000),
    ("(?x: #[\n)a{3000000}", 3_000_000),
    # a repeat's braces: (?x) reads `{3000 000}`, `{ 3000000 }` and `{3#c\n000000}` as {3000000} (blanks and comments
    # skipped inside them too); `{3,b` is no repeat, so the `}` that ends a later one does not end it
    ("(?x)a{3000 000}", 3_000_000),
    ("(?x)a{ 3000000 }", 3_000_000),
    ("(?x)a{3#c\n000000}", 3_000_000),
    ("a{3,b{3000000}", 3_000_000),
])
def test_pieces_counts_what_comments_and_verbose_blanks_hide(pattern: str, built: int) -> None:
    from toolchoice.providers.core.schema_patterns import MAX_PIECES, SlowPattern, matcher, pieces

    assert pieces(pattern) > MAX_PIECES < built
    with pytest.raises(SlowPattern):  # refused before compiling (compiling is what takes the memory)
        matcher(pattern)


@pytest.mark.parametrize("pattern", [
    "#a{3000000}",  # not verbose: `#` and what follows are pattern text
    "(?x)[#]{1000000}",  # in a class `#` is a character, verbose or not
    r"(?x)\#a{1000000}",
])
def test_pieces_still_counts_what_is_not_a_comment(pattern: str) -> None:
    from toolchoice.providers.core.schema_patterns import MAX_PIECES, pieces

    assert pieces(pattern) > MAX_PIECES


def test_small_verbose_and_commented_patterns_are_still_compiled() -> None:
    from toolchoice.providers.core.schema_patterns import matcher

    assert matcher("(?x) ^ [a-z]{2,5} \\d{3}  # a code\n $")("abc123")
    assert matcher("^(\\d{3})(?#area) {2}x$")("123  x")


# ---- send's trace_out ----------------------------------------------------------------------------------------
# `send --trace-out /dev/stdout` (a link to /proc/self/fd/1) was written as every file is, a temporary file beside
# it renamed over it: run as root, the rename replaced the link /dev/stdout itself with a regular file holding the
# trace (seen on this machine 2026-11-28, and put back); as another user, a "cannot write" after the requests
# were sent. A folder, or a file in a folder that is not there, was said only after every request was sent.

def test_a_trace_through_a_link_to_a_device_or_a_pipe_is_written_through_and_the_link_stays(tmp_path: Path) -> None:
    import threading

    from toolchoice.providers.core.trace_export import write_document

    link = tmp_path / "null"
    link.symlink_to(os.devnull)
    write_document(link, {"resourceSpans": []}, {})
    assert link.is_symlink() and os.readlink(link) == os.devnull
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write_document(fifo, {"resourceSpans": [], "sk": KEY.decode()}, {"OPENAI_API_KEY": KEY.decode()})
    reader.join(5)
    assert len(got) == 1 and json.loads(got[0])["resourceSpans"] == [] and KEY not in got[0]
    assert fifo.is_fifo() and sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "null"]  # no file left


def test_a_trace_out_that_is_a_folder_or_in_no_folder_is_refused_before_a_request(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from toolchoice.providers import RenderOptions, load_scenario
    from toolchoice.providers.core import jobs, runner
    from toolchoice.providers.core.errors import ArgumentError

    monkeypatch.setenv("OPENAI_API_KEY", KEY.decode())
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - name: get_weather\n    parameters: {type: object, properties: {city: {type: string}}}"
                    "\ntool_choice: required\nmessages:\n  - {role: user, content: Weather in Paris?}\n",
                    encoding="utf-8")
    scenario = load_scenario(path)
    with running_mock("openai") as mock:
        [translation] = jobs.translations(scenario, ["openai"], RenderOptions(base_url=mock.base_url))
        for out in (tmp_path, tmp_path / "missing" / "trace.json"):
            with pytest.raises(ArgumentError) as caught:
                jobs.send(scenario, translation, settings=runner.SendSettings(retries=0), trace_out=out)
            assert caught.value.argument == "trace_out", caught.value
        assert mock.records == []


# ---- scenario_dict / bounded.expanded_size: every Mapping the writer writes out is counted -----------------------
# load_scenario_dict writes out any Mapping (scenario_dict._emit: isinstance(value, Mapping)), but expanded_size
# counted only dicts: seven levels of a MappingProxyType used nine times were counted as 4 values, then written out
# as 9**7 (six levels: 20.7 s before the unknown-key refusal, measured 2026-11-28).

def test_a_shared_mapping_that_is_not_a_dict_is_counted_at_each_place() -> None:
    from types import MappingProxyType

    from toolchoice.providers.core.bounded import MAX_VALUES, expanded_size
    from toolchoice.providers.core.errors import ToolchoiceError
    from toolchoice.providers.core.scenario_dict import load_scenario_dict

    shared: Any = "v"
    for _ in range(7):
        shared = MappingProxyType({"k": [shared] * 9})
    assert expanded_size(shared)[0] > 9 ** 7 > MAX_VALUES
    with pytest.raises(ToolchoiceError, match="expands to more than"):
        load_scenario_dict({"tools": [{"name": "f", "parameters": {"type": "object", "properties": {}}}],
                            "messages": [{"role": "user", "content": "hi", "x": shared}]})


# ---- the verdict: a call whose arguments were not checked is not marked valid ------------------------------------
# trial 20f made the reason say "arguments not all checked", but the call's own check still said valid: true in
# JSON (calls[].valid) and a green ✔ in pretty's and markdown's schema column, beside that reason. Unchecked is
# neither valid nor invalid: None, as for a tool the scenario does not know ("–").

def test_a_call_whose_arguments_were_not_checked_is_neither_valid_nor_invalid(tmp_path: Path) -> None:
    from toolchoice.providers import load_scenario, parse_reply
    from toolchoice.providers.core.verdict import verdict

    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - name: get_weather\n    parameters:\n      type: object\n"
                    "      properties: {city: {type: string, pattern: '^c{3000000}$'}}\n      required: [city]\n"
                    "tool_choice: required\nmessages:\n  - {role: user, content: hi}\n", encoding="utf-8")
    reply = parse_reply("openai", {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "get_weather", "arguments": json.dumps({"city": "ccc"})}}]}}]})
    judged = verdict(load_scenario(path), reply)
    [check] = judged["calls"]
    assert judged["category"] == "obeyed" and "arguments not all checked" in judged["reasons"][0]
    assert check["valid"] is None and check["errors"][0].startswith("schema: the pattern")


# ---- the request target: origin-form or absolute-form only (RFC 9112 3.2) ----------------------------------------
# The proxy sends a request on to its upstream at upstream + the target's path (proxy._upstream_url), and the mock
# and the proxy route Chat Completions by the path's end: a target "@evil.example/v1/chat/completions", in none of
# RFC 9112 3.2's forms, was routed and, through a proxy whose --upstream has no path (http://127.0.0.1:8000, a local
# server), sent on to "http://127.0.0.1:8000@evil.example/v1/chat/completions": httpx's host evil.example, with the
# client's headers. Such a target is now the 400 a malformed request line gets, before it is judged or sent on.

@pytest.mark.parametrize("target", [b"@evil.example/v1/chat/completions", b".evil.example/v1/chat/completions",
                                    b"v1/chat/completions", b"*evil/v1/chat/completions"])
def test_a_target_that_is_neither_a_path_nor_a_url_is_a_400(port: int, target: bytes) -> None:
    reply = _exchange(port, b"POST " + target + b" HTTP/1.1\r\nHost: a\r\n" + WHOLE)
    assert _status(reply) == 400 and b"malformed request line" in reply, reply[:300]


@pytest.mark.parametrize("target", [b"/v1/chat/completions", b"http://a/v1/chat/completions",
                                    b"HTTPS://a/v1/chat/completions"])
def test_origin_and_absolute_form_targets_are_served(port: int, target: bytes) -> None:
    assert _status(_exchange(port, b"POST " + target + b" HTTP/1.1\r\nHost: a\r\n" + WHOLE)) == 200
