"""An MCP command line is split (shlex) once for all who ask for its words: a line near the 128 KiB bound took
~0.4 s a split, and `tools --mcp` split it for its shown form (twice: the line, then each word), for the argv, and
for the listing's name again."""

from __future__ import annotations

import shlex

import pytest

from toolchoice.providers.core import command_shown, mcp_client
from toolchoice.providers.core.model import ToolchoiceError


def test_a_long_command_line_is_split_once(monkeypatch):
    word = "a" * (command_shown.MAX_COMMAND - 200)
    command = f"no-such-program-t22h --token s3cr3t-value {word}"
    assert len(command) <= command_shown.MAX_COMMAND
    splits = []
    split = shlex.split

    def counted(text, *args, **kwargs):
        if len(text) > 100_000:
            splits.append(len(text))
        return split(text, *args, **kwargs)

    monkeypatch.setattr(shlex, "split", counted)
    if hasattr(command_shown, "split_command"):
        command_shown.split_command.cache_clear()
    with pytest.raises(ToolchoiceError) as caught:
        mcp_client.list_tools_stdio(command, timeout=5)
    assert "no such command: no-such-program-t22h" in caught.value.message
    assert "s3cr3t-value" not in caught.value.message
    command_shown.shown_command(command)  # tools_cmd names the listing with it
    assert splits == [len(command)]


@pytest.mark.parametrize("command", [
    "npx -y server --token abc", "python 'a b' \"c \\\" d\" e\\ f", "x ''  \"\"  y", "a\fb c", "a\u00a0b --key=v",
    "run \"--api-key=$KEY\" 'Authorization: Bearer zz'", "a\\\nb c", "p -H 'X-Api-Key: k1' u:p@h", "one",
    "a\tb\r\nc", "'it'\\''s' \"x\"'y'z", "a\u2003b \"c\u2003d\"",
])
def test_the_line_split_once_gives_each_words_own_split(command):
    """The shown line's words are the line's split where it has as many words as the line written has (a blank
    shlex does not split at, \\f or U+00A0, joins two): then each is that word split by shlex alone, as before."""
    raws = [m.group(0) for m in command_shown._WORD.finditer(command)]
    alone = [" ".join(shlex.split(raw)) for raw in raws]
    whole = shlex.split(command)
    assert len(whole) <= len(raws)
    if len(whole) == len(raws):
        assert whole == alone
