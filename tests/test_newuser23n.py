"""Trial 23n, three leftovers of a new user's first hour: a mistyped model got no "did you mean", compare's `par.`
header was explained nowhere, and run --help's replay example with `-p anthropic` said nothing of what it shows.

Each test runs the real command-line entry (tests/cli.py) and holds what it says to truth from outside the code:
the model ids the providers' SDKs list (anthropic 2.14.0 types/model_param.py: claude-sonnet-5; openai 3.57.0
types/shared/chat_model.py: gpt-4.1-mini), the scenario file's own key (`parallel_tool_calls`), the columns."""

from __future__ import annotations

import json
import shlex
from urllib.parse import unquote
from pathlib import Path

import pytest

from cli import run_cli, user_env

ROOT = Path(__file__).resolve().parent.parent
WEATHER = str(ROOT / "configs" / "weather.yaml")  # writes parallel_tool_calls: true


def _unknown_note(ledger: list[dict]) -> dict:
    notes = [entry for entry in ledger if entry["code"] == "model_rule.unknown"]
    assert len(notes) == 1, ledger
    return notes[0]


# ---- 1. a mistyped model: called unknown, with no "did you mean" -------------------------------------------------

TYPOS = [("anthropic", "claude-sonet-5", "claude-sonnet-5"),  # anthropic SDK's ModelParam
         ("openai", "gpt-4.1-mnii", "gpt-4.1-mini"),  # openai SDK's ChatModel
         ("bedrock", "us.anthropic.claude-sonet-5-v1:0", "us.anthropic.claude-sonnet-5-v1:0")]  # prefix, suffix kept


@pytest.mark.parametrize("provider,typed,meant", TYPOS)
def test_render_json_says_did_you_mean_and_sends_the_model_as_written(provider: str, typed: str, meant: str) -> None:
    done = run_cli(["render", WEATHER, "-p", provider, "-m", typed, "-f", "json", "--strict"], env=user_env())
    assert done.returncode == 0, done.stderr  # a suggestion: --strict (which refuses a warning) still renders
    document = json.loads(done.stdout)
    note = _unknown_note(document["ledger"])
    assert note["severity"] == "info"
    assert f"no model rule knows {typed} (did you mean {meant}?)" in note["message"], note
    request = document["request"]  # never a change to what is sent: Bedrock's model is in the path, quoted
    sent = request["body"]["model"] if "model" in request["body"] else unquote(request["url"].split("/model/")[1])
    assert sent.startswith(typed), request["url"]


def test_compare_json_says_it_per_provider() -> None:
    done = run_cli(["compare", WEATHER, "-p", "openai,anthropic", "-m", "openai=gpt-4.1-mnii",
                    "-m", "anthropic=claude-sonet-5", "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stderr
    providers = {p["provider"]: p for p in json.loads(done.stdout)["providers"]}
    assert "(did you mean gpt-4.1-mini?)" in _unknown_note(providers["openai"]["ledger"])["message"]
    assert "(did you mean claude-sonnet-5?)" in _unknown_note(providers["anthropic"]["ledger"])["message"]
    assert providers["openai"]["request"]["body"]["model"] == "gpt-4.1-mnii"
    assert providers["anthropic"]["request"]["body"]["model"] == "claude-sonet-5"


@pytest.mark.parametrize("columns", [80, 60])
def test_render_pretty_says_it_whole_at_80_and_60_columns(columns: int) -> None:
    done = run_cli(["render", WEATHER, "-p", "anthropic", "-m", "claude-sonet-5", "--ledger-only"],
                   env=user_env(columns=columns))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= columns for line in lines), [line for line in lines if len(line) > columns]
    said = " ".join(line.strip("│ ") for line in lines)  # the note's cell, its lines read as one
    assert "claude-sonet-5 (did you" in said and "mean claude-sonnet-5?)" in " ".join(said.split()), said
    assert any("claude-sonnet-5?)" in line for line in lines), done.stdout  # the id never broken over two lines


def _note(provider: str, model: str) -> str:
    done = run_cli(["render", WEATHER, "-p", provider, "-m", model, "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["request"]["body"]["model"] == model
    return _unknown_note(document["ledger"])["message"]


def test_a_guess_only_where_a_typo_is_likely_and_bounded() -> None:
    """claude-opus-6 is another number, another (newer) model, not a slip of the keys; gpt-4.1-mini is an id the
    SDK lists that no family rule knows (nothing else is meant); a 200,000-character id is answered (bounded.nearest)
    without a guess. The typo beside them is guessed."""
    assert "(did you mean claude-opus-5?)" in _note("anthropic", "claude-opsu-5")
    # gpt-6.2-sol, gpt-6.1-terra (openai 3.57.0 ChatModel): real ids no rule knows (docs/fact-audit.md), each a
    # neighbour of a known one (gpt-6.1-sol) by a digit or a word
    for provider, model in (("anthropic", "claude-opus-6"), ("openai", "gpt-4.1-mini"), ("openai", "my-finetune"),
                            ("openai", "gpt-6.2-sol"), ("openai", "gpt-6.1-terra"),
                            ("anthropic", "claude-sonet-5" + "x" * 200_000)):
        assert "did you mean" not in _note(provider, model), model[:40]
    assert "(did you mean claude-sonnet-5?)" in _note("anthropic", "claude-sonet\n-5")  # was an internal error


# ---- 2. compare's `par.` header, explained nowhere -----------------------------------------------------------

def _compare(columns: int) -> list[str]:
    done = run_cli(["compare", WEATHER], env=user_env(columns=columns))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= columns for line in lines), [line for line in lines if len(line) > columns]
    return lines


def test_the_key_under_compare_says_what_par_is_where_it_is_drawn_at_no_extra_line() -> None:
    lines = _compare(80)
    header = next(line for line in lines if "provider" in line and "┃" in line)
    assert "par." in header.split("┃")[3], header  # the weather scenario's table at 80: par. beside the wire form
    key = [i for i, line in enumerate(lines) if "ledger: E errors" in line]
    assert key and "par.: parallel_tool_calls" in lines[key[0]], lines
    # the key's two lines at 80 columns as before (its command whole on the second): the legend costs none
    assert lines[key[0] + 1].strip() == "`toolchoice render SCENARIO -p ID` shows every entry", lines
    narrow = _compare(60)  # at 60 the parallel column is left out (the caption says so): no legend of it
    assert not any("par." in line for line in narrow), narrow
    assert any("left out at 60 columns" in line for line in narrow)
    assert sum("parallel_tool_calls" in line for line in narrow) == 0, narrow


@pytest.mark.parametrize("columns", [80, 60])
def test_compare_help_lists_the_short_headers(columns: int) -> None:
    done = run_cli(["compare", "--help"], env=user_env(columns=columns))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= columns for line in lines)
    said = " ".join(" ".join(lines).split())
    assert "par. is parallel_tool_calls" in said, said[:600]
    assert "ms the latency" in said


def test_docs_compare_says_what_par_is() -> None:
    text = " ".join((ROOT / "docs" / "compare.md").read_text().split())
    assert "`par.` for `parallel_tool_calls`" in text


# ---- 3. run --help's replay example with -p anthropic said nothing of what it shows ---------------------------

def test_run_help_says_what_the_replay_as_anthropic_shows_whole_at_60_columns() -> None:
    done = run_cli(["run", "--help"], env=user_env(columns=60))
    assert done.returncode == 0, done.stderr
    lines = [line.strip() for line in done.stdout.partition("Examples:")[2].splitlines() if line.strip()]
    replay = next(i for i, line in enumerate(lines) if "--replay" in line and "-p anthropic" in line)
    recorded = next(line for line in lines if "--save runs" in line or "--save" in line)
    assert "-p openai" in " ".join(lines[:replay]) and recorded  # the recording is the OpenAI run's
    comment = lines[replay - 1]
    assert "toolchoice " not in comment and not comment.startswith("export ")  # a line that is no command
    assert "OpenAI" in comment and "Anthropic" in comment, comment
    assert len(comment) <= 58  # whole inside the help's margins at 60 columns: one line
    shlex.split(lines[replay])  # the example itself still reads as one command
