"""Defects a new user hit in a trial of the command line (2026-11-26), each through the real CLI entry.

A setting the user wrote that toolchoice does not send must be in the ledger (the brief: every change to
what the user wrote is in the ledger); the truth here is the scenario text and the request body."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import run_cli

SCENARIO = """tools:
  - name: get_weather
    parameters: {{type: object, properties: {{city: {{type: string}}}}, required: [city]}}
tool_choice: auto
messages:
  - {{role: user, content: Weather in Paris?}}
providers:
  {pid}: {{thinking: {thinking}}}
"""
# The OpenAI-compatible hosts of providers/openai_chat.py but DeepSeek (which has its own thinking field).
CHAT_HOSTS = ("openai", "azure", "mistral", "groq", "openrouter", "fireworks", "together", "xai", "cerebras",
              "sambanova", "vllm", "llamacpp", "huggingface")
THINKING_KEYS = {"thinking", "reasoning", "reasoning_effort", "think", "enable_thinking", "chat_template_kwargs"}


def render(tmp_path: Path, pid: str, thinking: str) -> dict:
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(pid=pid, thinking=thinking))
    done = run_cli(["render", str(path), "-p", pid, "-f", "json"])
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("pid", CHAT_HOSTS)
@pytest.mark.parametrize("thinking", ["true", "false", "adaptive", "{budget: 2048}"])
def test_a_thinking_setting_that_is_not_sent_is_in_the_ledger(tmp_path, pid, thinking):
    out = render(tmp_path, pid, thinking)
    body = out["request"]["body"]
    assert not THINKING_KEYS & set(body), body  # nothing of it went out ...
    said = [e for e in out["ledger"] if "thinking" in e["code"]]
    assert said, out["ledger"]  # ... and the ledger says so
    assert said[0]["severity"] == "warning" and f"providers.{pid}.thinking" in said[0]["message"]


@pytest.mark.parametrize("pid", ["mistral", "groq", "xai", "vllm"])
def test_an_effort_where_no_effort_is_sent_is_in_the_ledger(tmp_path, pid):
    out = render(tmp_path, pid, "{effort: high}")
    assert "reasoning_effort" not in out["request"]["body"]
    assert any(e["code"] == "thinking.not_sent" for e in out["ledger"]), out["ledger"]


def test_an_effort_that_is_sent_needs_no_such_entry(tmp_path):
    out = render(tmp_path, "openai", "{effort: none}")  # gpt-5.4-mini takes function tools with none only
    assert out["request"]["body"]["reasoning_effort"] == "none"
    assert not any(e["code"] == "thinking.not_sent" for e in out["ledger"])


def test_a_missing_choice_argument_is_one_plain_line():
    """click words a missing Choice argument over several lines, each choice after a tab: folded, the tabs
    stayed in the one error line (`toolchoice schema`)."""
    done = run_cli(["schema"])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("toolchoice: error: Missing argument 'name'. Choose from: scenario, render, send, compare, "
                           "run, mock (see toolchoice schema --help)\n")
