"""Bedrock's missing key says what an account on IAM credentials does (trial 18j): toolchoice sends a Bedrock API key
as a bearer token and does not sign SigV4, so a production user on IAM credentials makes a short-term key from them.
The words are the provider module's (``providers/bedrock.py`` ``KEY_HELP``), reached through its row
(``core/key_help.py``), not a special case in core or cli; docs/keys.md says the same.

The truth from outside the code: AWS's "API keys" page for Bedrock, read 2026-11-28
(docs.aws.amazon.com/bedrock/latest/userguide/api-keys.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from toolchoice.providers import MissingKey, RenderOptions, load_scenario_dict
from toolchoice.providers.core import jobs

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
WEATHER = str(ROOT / "configs" / "weather.yaml")
# AWS's page, as read: "Short-term – Lasts up to 12 hours (or the duration of your session, whichever is shorter).
# Inherits permissions from the IAM principal used to generate it. Recommended for production use."; its Python tab:
# "pip install aws-bedrock-token-generator" ... "from aws_bedrock_token_generator import provide_token"; its console
# tab: "In the left navigation pane, select API keys." ... "choose Generate short-term API keys."
AWS_PACKAGE, AWS_FUNCTION, AWS_CONSOLE = "aws-bedrock-token-generator", "provide_token", "API keys"
SCENARIO = {"tools": [{"name": "get_weather", "parameters": {"type": "object"}}], "tool_choice": "get_weather",
            "messages": [{"role": "user", "content": "Weather in Paris?"}]}
BARE = {"PATH": os.environ.get("PATH", "")}  # no key, no AWS credentials: a fresh user's shell


def _says_what_aws_says(words: str) -> None:
    assert "IAM credentials" in words and "short-term key" in words, words
    assert f"`pip install {AWS_PACKAGE}`" in words and f"{AWS_FUNCTION}()" in words, words
    assert f"console's {AWS_CONSOLE} page" in words and "docs/keys.md" in words, words


def test_the_send_without_the_variable_is_one_line_with_the_iam_words_exit_2_no_traceback() -> None:
    """The real entry (python -m toolchoice, a process of its own): one line on stderr, exit 2, nothing on stdout."""
    done = subprocess.run([sys.executable, "-m", "toolchoice", "send", WEATHER, "-p", "bedrock"], capture_output=True,
                          text=True, env=BARE, cwd=ROOT, timeout=60)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("toolchoice: error: bedrock: no API key: set AWS_BEARER_TOKEN_BEDROCK; on IAM credentials")
    _says_what_aws_says(line)
    assert "Traceback" not in done.stderr
    # the way to try without a key is still said after it (the mock)
    assert line.endswith("`toolchoice mock -p bedrock`, then this command with `--base-url URL` and "
                         "`AWS_BEARER_TOKEN_BEDROCK=unused` (docs/mock.md))")


def test_the_dry_run_needs_no_key_and_says_nothing_of_it() -> None:
    done = run_cli(["send", WEATHER, "-p", "bedrock", "--dry-run"], env=BARE)
    assert done.returncode == 0 and "$AWS_BEARER_TOKEN_BEDROCK" in done.stdout, done.stderr
    assert AWS_PACKAGE not in done.stdout + done.stderr


def test_a_local_server_needs_no_short_term_key() -> None:
    """To 127.0.0.1 (the mock) any value does: the IAM words would send the user the wrong way."""
    done = run_cli(["send", WEATHER, "-p", "bedrock", "--base-url", "http://127.0.0.1:9"], env=BARE)
    assert (done.returncode, done.stderr) == (2, "toolchoice: error: bedrock: no API key: set AWS_BEARER_TOKEN_BEDROCK "
                                                 "(a local server that checks no key takes any value, e.g. export "
                                                 "AWS_BEARER_TOKEN_BEDROCK=local)\n")


def test_a_python_caller_reads_the_same_words_in_the_record(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AWS_BEARER_TOKEN_BEDROCK", raising=False)
    scenario = load_scenario_dict(SCENARIO)
    with pytest.raises(MissingKey) as caught:
        jobs.send(scenario, jobs.translations(scenario, "bedrock")[0])
    problem = caught.value
    assert (problem.provider, problem.variables, problem.local) == ("bedrock", ("AWS_BEARER_TOKEN_BEDROCK",), False)
    _says_what_aws_says(problem.key_help)
    assert str(problem).startswith(f"bedrock: no API key: set AWS_BEARER_TOKEN_BEDROCK; {problem.key_help} (")
    assert "this command" not in str(problem)  # the Python caller's words for the rest, as before
    # another provider's module declares nothing: its record and words as before
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(MissingKey) as other:
        jobs.send(scenario, jobs.translations(scenario, "openai")[0])
    assert other.value.key_help == "" and str(other.value).startswith("openai: no API key: set OPENAI_API_KEY (")
    with pytest.raises(MissingKey) as local:
        jobs.send(scenario, jobs.translations(scenario, "bedrock", RenderOptions(base_url="http://127.0.0.1:9"))[0])
    assert local.value.local and local.value.key_help == ""


def test_the_words_live_in_the_provider_module_and_agree_with_docs_keys() -> None:
    from toolchoice.providers import bedrock
    from toolchoice.providers.core.key_help import key_help

    assert key_help("bedrock", "AWS_BEARER_TOKEN_BEDROCK") == bedrock.KEY_HELP["AWS_BEARER_TOKEN_BEDROCK"]
    assert key_help("openai", "OPENAI_API_KEY") == "" and key_help("no-such-provider", "X") == ""
    keys = (ROOT / "docs" / "keys.md").read_text(encoding="utf-8")
    assert f"pip install {AWS_PACKAGE}" in keys and f"import {AWS_FUNCTION}" in keys and f"*{AWS_CONSOLE}* page" in keys
    assert "api-keys.html" in keys and "short-term key" in keys
