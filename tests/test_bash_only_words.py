"""A name that ends in a newline is a $'...' word in the commands to paste (no one-line word of dash 0.5.12's, Debian
12's and Ubuntu 24.04's /bin/sh, or of fish, ends in one: a command substitution drops it): the line that prints
one says the shells that read it; a line without one says nothing more."""

from __future__ import annotations

import os
from pathlib import Path

from cli import run_cli
from toolchoice.providers.core import har_replays
from toolchoice.providers.core.shell_word import shell_path

SAVED = Path(__file__).parent / "data" / "saved" / "openai-chat-proxy"


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}


def test_the_replay_listing_says_bash_or_zsh_for_a_har_name_ending_in_a_newline():
    plain = har_replays.Replay(1, "openai-chat", 2, har_replays.command(Path("s.har"), 1, "openai-chat"))
    ending = plain._replace(command=har_replays.command(Path("s.har\n"), 1, "openai-chat"))
    assert "$'s.har\\n'" in ending.command
    assert har_replays.replay_lines((ending,))[0][0] == (
        "to replay a conversation offline as run's loop (in bash or zsh: a name in it ends in a newline, which dash "
        "and fish write on no one line):")
    assert har_replays.replay_lines((plain,))[0][0] == "to replay a conversation offline as run's loop:"
    assert "bash or zsh" in har_replays.call_lines((ending,))[0][0]
    assert "bash or zsh" not in har_replays.call_lines((plain,))[0][0]


def test_trace_scenario_out_says_the_shell_of_its_try_line(tmp_path: Path):
    name = "s.yaml\n"
    done = run_cli(["trace", str(SAVED), "--sample", "1", "--scenario-out", name], env=_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / name).exists()
    assert f"try `toolchoice render {shell_path(name)}" in done.stdout
    assert done.stdout.rstrip("\n").endswith("` (in bash or zsh: a name in it ends in a newline, which dash and fish "
                                             "write on no one line)")
    plain = run_cli(["trace", str(SAVED), "--sample", "1", "--scenario-out", "p.yaml"], env=_env(), cwd=tmp_path)
    assert plain.stdout.rstrip("\n").endswith("try `toolchoice render p.yaml -p openai`")
