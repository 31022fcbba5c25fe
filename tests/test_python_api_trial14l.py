"""A scenario's ``from:`` refusals in a Python caller's words (trial 14l), the command line's byte for byte as before.

``load_scenario`` of a scenario whose ``from:`` reads ``$NAME`` (an MCP server's headers, its command line) said
"pass --allow-env NAME (or set TOOLCHOICE_ALLOW_ENV=NAME)" to a Python caller, who has neither: the library allows
no variable unless the scenario is loaded under ``source_policy.policy(True, allow_env=(...))``. Its words now say
that; the record (``hint_parts``, ``names``) is the command line's, which spells the argument as its option
(cli/exits.py ``in_command_words``). So does a live source loaded under ``source_policy.policy(False)`` (a dry run's):
"pass --live-mcp" to the command line, the policy to load it under to a Python caller. The command line's lines
below are those main printed at 1604d06, captured from real in-process runs (tests/cli.py) before the change.
Nothing is started or sent: the refusal comes first."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolchoice.cli.exits import in_command_words
from toolchoice.providers import ToolchoiceError, load_scenario, load_scenario_dict
from toolchoice.providers.core import source_policy

from cli import run_cli

HEADERS = {"mcp_url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer $MY_TOKEN"}}
COMMAND = {"mcp": "server --token $MY_TOKEN"}
SAID = {"headers": "from: headers reads $MY_TOKEN from the environment and would send it to the MCP server; a "
                   "scenario file reads no variable without asking",
        "mcp": "from: mcp reads $MY_TOKEN from the environment and would hand it to the MCP server; a scenario file "
               "reads no variable without asking"}
COMMAND_LINE_HINT = "(pass --allow-env MY_TOKEN (or set TOOLCHOICE_ALLOW_ENV=MY_TOKEN) if you trust this file)"
PYTHON_HINT = '(load it inside source_policy.policy(True, allow_env=("MY_TOKEN",)) if you trust this file)'


def _scenario(tmp_path: Path, source: dict) -> Path:
    import json

    path = tmp_path / "s.yaml"  # the from: mapping in flow style (JSON is YAML): line 3, column 11, as main's run read
    path.write_text(f"messages: [{{role: user, content: hi}}]\ntools:\n  - from: {json.dumps(source)}\n"
                    "tool_choice: auto\n")
    return path


@pytest.mark.parametrize("source, where", [(HEADERS, "headers"), (COMMAND, "mcp")])
def test_a_variable_from_reads_says_the_policy_to_a_python_caller_and_the_option_to_the_command_line(
        tmp_path: Path, source: dict, where: str) -> None:
    path = _scenario(tmp_path, source)
    with pytest.raises(ToolchoiceError) as caught:
        load_scenario(path)
    at = f"{path}:3:11"
    assert str(caught.value) == caught.value.one_line() == f"{at}: {SAID[where]} {PYTHON_HINT}"
    assert "--" not in str(caught.value) and "TOOLCHOICE_ALLOW_ENV" not in str(caught.value)
    assert caught.value.names == ("allow_env",)
    assert in_command_words(caught.value) == f"{at}: {SAID[where]} {COMMAND_LINE_HINT}"
    done = run_cli(["render", str(path), "-p", "openai", "--live-mcp"], env={})
    assert done.returncode == 2 and done.stderr == f"toolchoice: error: {at}: {SAID[where]} {COMMAND_LINE_HINT}\n"


def test_the_command_lines_line_is_main_s_byte_for_byte() -> None:
    """``render s.yaml -p openai --live-mcp`` at main 1604d06, the scenario in configs' style (YAML, 3:11)."""
    text = ('messages: [{role: user, content: hi}]\ntools:\n  - from: {mcp_url: "http://127.0.0.1:9/mcp", headers: '
            '{Authorization: "Bearer $MY_TOKEN"}}\ntool_choice: auto\n')
    done = run_cli(["render", "-", "-p", "openai", "--live-mcp"], env={}, input=text)
    assert done.returncode == 2 and done.stderr == f"toolchoice: error: <stdin>:3:11: {SAID['headers']} " \
                                                   f"{COMMAND_LINE_HINT}\n"


def test_the_policy_the_python_words_name_lets_the_variable_through(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the words say to do is what allows it: under the policy the refusal is gone (the dict names a source
    nothing listens on, so reading stops at the connection, whose words name no variable)."""
    monkeypatch.setenv("MY_TOKEN", "t-unused")
    data = {"messages": [{"role": "user", "content": "hi"}], "tools": [{"from": {**HEADERS, "timeout": 0.2}}]}
    with pytest.raises(ToolchoiceError) as refused:
        load_scenario_dict(data)
    assert "source_policy.policy" in str(refused.value)
    with source_policy.policy(True, allow_env=("MY_TOKEN",)), pytest.raises(ToolchoiceError) as caught:
        load_scenario_dict(data)
    assert "MY_TOKEN" not in str(caught.value) and caught.value.names == ()


@pytest.mark.parametrize("source, which, act", [
    ({"mcp_url": "http://127.0.0.1:9/mcp"}, "mcp_url", "connect to the server"),
    ({"mcp": "server"}, "mcp", "start the server"),
])
def test_a_live_source_under_a_dry_runs_policy_says_the_policy_to_python_and_live_mcp_to_the_command_line(
        tmp_path: Path, source: dict, which: str, act: str) -> None:
    """The command line's line is main's at 1604d06 (``render s.yaml -p openai``, no --live-mcp; in-process)."""
    path = _scenario(tmp_path, source)
    hint = (f"(or save them once (toolchoice tools --{which.replace('_', '-')} ... --format json > tools.json) and use "
            "from: tools.json)")
    with source_policy.policy(False), pytest.raises(ToolchoiceError) as caught:
        load_scenario(path)
    said = f"{path}:3:11: from: {which}: a dry run does not {act}: "
    assert str(caught.value) == f"{said}load it inside source_policy.policy(True) to read its tools live {hint}"
    assert caught.value.names == ("live_mcp",)
    command_line = f"{said}pass --live-mcp to read its tools live {hint}"
    assert in_command_words(caught.value) == command_line
    done = run_cli(["render", str(path), "-p", "openai"], env={})
    assert done.returncode == 2 and done.stderr == f"toolchoice: error: {command_line}\n"
