"""Adversarial round on session 12's new surfaces (trial12f): what a hostile server or a careless user sends through
the calls layout (cli/call_lines.py), the cut streams kept after Ctrl-C, the vercel dialect's host routes, skip
reasons and `python -m toolchoice`. Each test failed before its fix; the servers are real sockets on 127.0.0.1
(tests/servers.py), the commands run in-process (tests/cli.py) where no real process is the check."""

from __future__ import annotations

import json

import pytest

from cli import run_cli
from servers import StandIn, Step, fixture

KEY = "sk-adversarial12-0123456789abcdef"
SCENARIO = """\
tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
tool_choice: required
messages:
  - {role: user, content: Weather in Paris?}
"""


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
