"""Adversarial round on session 12's new surfaces (trial12f): what a hostile server or a careless user sends through
the calls layout (cli/call_lines.py), the cut streams kept after Ctrl-C, the vercel dialect's host routes, skip
reasons and `python -m toolchoice`. Each test failed before its fix; the servers are real sockets on 127.0.0.1
(tests/servers.py), the commands run in-process (tests/cli.py) where no real process is the check."""

from __future__ import annotations

import json

import pytest

from cli import run_cli
from servers import StandIn, Step, fixture
from streams import CITY_WEATHER_SCENARIO

KEY = "sk-adversarial12-0123456789abcdef"
SCENARIO = CITY_WEATHER_SCENARIO


def environment(columns: int) -> dict[str, str]:
    return {"OPENAI_API_KEY": KEY, "COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb", "NO_PROXY": "127.0.0.1"}


def answered_with(name: str, arguments: str) -> Step:
    """openai's recorded tool-call reply, its call's name and arguments replaced by a hostile server's."""
    body = fixture("openai", "openai-chat-single-strict")
    call = body["choices"][0]["message"]["tool_calls"][0]
    call["function"].update(name=name, arguments=arguments)
    return Step(body=body)


# A tool name the server made of `f([1,` ten thousand characters long: each repetition reads as a call's name, its
# bracket and an argument one level deeper. Before the fix the calls layout broke it recursively, a level a call:
# `internal error: RecursionError`, exit 70, in compare --send and in run's step table.
NESTED_NAME = "f([1," * 2000


@pytest.mark.parametrize("command, columns", [("compare", 60), ("run", 120)])
def test_a_tool_name_nested_thousands_deep_is_drawn_not_a_recursion_error(tmp_path, command, columns):
    (tmp_path / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    with StandIn("openai", default=answered_with(NESTED_NAME, '{"city": "Paris"}')) as server:
        argv = [command, "s.yaml", "-p", "openai", "--base-url", server.base_url("openai"), "--retries", "0"]
        done = run_cli(argv + (["--send"] if command == "compare" else []), env=environment(columns), cwd=tmp_path)
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1, 4), (done.returncode, done.stderr)  # the verdict's exit, not 70
    assert done.stdout and all(len(line) <= columns for line in done.stdout.splitlines()), done.stdout
    assert "f([1,f([1," in done.stdout  # the name is shown (folded as text), not dropped


class _Counted(str):
    """A text that counts the characters read off it one by one (the walk over its JSON structure)."""

    read = 0

    def __iter__(self):
        for ch in str.__iter__(self):
            type(self).read += 1
            yield ch


@pytest.mark.parametrize("arguments", [
    '{"a":"' + "x" * 200_000 + '"}',  # one long string
    '{"a":[' + "1," * 100_000 + "1]}",  # many elements
    '{"city":"Paris","units":"celsius","days":3,"note":"' + "x" * 100_000 + '"}',
])
def test_cutting_a_servers_huge_arguments_reads_a_bounded_part_of_them(arguments):
    """compare --send cuts each call's arguments to 80 characters (run: 40) where an argument ends; before the fix
    it walked the whole text for that, character by character in Python: 7.5 s a row for the 32 MiB a server may
    send (the body limit), in every row of compare --send -n and every step of run."""
    from toolchoice.cli.call_lines import ELLIPSIS, LINE_MOST, arguments_cut

    _Counted.read = 0
    cut = arguments_cut(_Counted(arguments), 80)
    assert _Counted.read <= LINE_MOST, _Counted.read
    assert len(cut) <= 80 and cut.endswith(ELLIPSIS) and arguments.startswith(cut[:-1])
    if arguments.startswith('{"city"'):  # cut where an argument ends, as for any text
        assert cut == '{"city":"Paris","units":"celsius","days":3,' + ELLIPSIS


def test_a_reply_holding_every_private_use_stand_in_is_drawn_one_record_a_row(tmp_path):
    """The one-record-a-row layout holds a label's spaces with two private-use characters the text does not hold.
    There were 256 of them (U+E000-U+E0FF); a server's four calls holding all 256 in their arguments (75 characters
    each, under the cell's cut) left none: `internal error: ValueError: not enough values to unpack`, exit 70, at 40,
    60 and 80 columns. Each call's argument is shown (shortened where wider than its column), and no stand-in
    is left in a space's place."""
    pua = [chr(c) for c in range(0xE000, 0xE100)]
    body = fixture("openai", "openai-chat-single-strict")
    message = body["choices"][0]["message"]
    first = message["tool_calls"][0]
    message["tool_calls"] = [{**first, "id": f"call_{i}", "function": {
        "name": f"get_weather_with_a_rather_long_name_for_this_column_{i}",
        "arguments": json.dumps({"city": "".join(pua[i * 64:(i + 1) * 64])}, ensure_ascii=False)}} for i in range(4)]
    (tmp_path / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    with StandIn("openai", default=Step(body=body)) as server:
        done = run_cli(["compare", "s.yaml", "--send", "-p", "openai", "--base-url", server.base_url("openai"),
                        "--retries", "0"], env=environment(60), cwd=tmp_path)
    assert "internal error" not in done.stderr and done.returncode == 4, (done.returncode, done.stderr)  # unknown tools
    from rich.cells import cell_len

    assert all(cell_len(line) <= 60 for line in done.stdout.splitlines()), done.stdout
    shown = set(done.stdout)
    assert all(pua[i * 64] in shown for i in range(4)), done.stdout  # each call's argument, whole or shortened
    assert not {chr(0xE100), chr(0xE101)} & set(done.stdout)  # the stand-ins taken are put back as spaces


def test_a_cut_stream_whose_call_had_no_name_yet_says_a_call_had_begun(tmp_path):
    """`send --stream -n 3`, each stream cut by Ctrl-C after a tool-call delta carrying arguments and no name (a server
    may send the name late, or never): each cut sample's line said "calls begun: none" though the document holds the
    call begun (a real process, a real SIGINT: tests/test_stream_interrupt.py's harness)."""
    from streams import Piece, Script
    from test_stream_interrupt import _chunk, interrupted

    sent = b"".join(b"data: " + json.dumps(_chunk(delta)).encode() + b"\n\n" for delta in (
        {"role": "assistant", "content": None},
        {"tool_calls": [{"index": 0, "function": {"arguments": '{"city": "Pa'}}]}))
    done = interrupted(tmp_path, "send", "-n", "3", "--concurrency", "3", bodies=3,
                       scripts=(Script([Piece(sent)], stall=60),))
    assert done.returncode == 130, done.stderr
    cut = [line for line in done.stdout.splitlines() if line.startswith("cut  sample ")]
    assert len(cut) == 3, done.stdout
    text = " ".join(done.stdout.split())
    assert "calls begun: none" not in text and text.count("calls begun: (name not arrived)") == 3, done.stdout
