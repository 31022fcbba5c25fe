"""A secret on an MCP server's command line that starts with "-" (`--token -Zq...`) cannot be told from a flag by
its place: where it is a secret the job knows (an environment variable whose name says secret, a value of the
server's env), it is hidden wherever it stands; an ordinary flag never is."""

from __future__ import annotations

import pytest

from toolchoice.providers.core import command_shown, mcp_client
from toolchoice.providers.core.model import ToolchoiceError

SECRET = "-Zq9xT3kLm2Pw8Rv"


def test_a_known_secret_starting_with_a_dash_is_hidden(monkeypatch):
    monkeypatch.setenv("MY_SERVICE_TOKEN", SECRET)
    line = f"server --token {SECRET} --verbose -v --depth=-3 --api-key={SECRET}"
    assert command_shown.shown_command(line) == "server --token [redacted] --verbose -v --depth=-3 --api-key=[redacted]"
    assert command_shown.command_secrets(line.split()) == [SECRET]


def test_a_value_of_a_variable_not_named_secret_is_not_hidden(monkeypatch):
    monkeypatch.setenv("MY_SERVICE_MODE", "--fast-mode-on")
    monkeypatch.delenv("MY_SERVICE_TOKEN", raising=False)
    assert command_shown.shown_command("server --fast-mode-on -x") == "server --fast-mode-on -x"


def test_the_servers_env_value_is_hidden_in_its_error_line(monkeypatch):
    monkeypatch.delenv("MY_SERVICE_TOKEN", raising=False)
    with pytest.raises(ToolchoiceError) as caught:
        mcp_client.list_tools_stdio(f"no-such-program-t22h --token {SECRET} -v", timeout=5,
                                    env={"API_TOKEN": SECRET})
    assert SECRET not in caught.value.message
    assert "no-such-program-t22h --token [redacted] -v" in caught.value.message
