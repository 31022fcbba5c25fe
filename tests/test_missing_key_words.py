"""A missing key in the words of whoever called (trial 13i, from this morning's Python-API trial): a Python caller of
``jobs.send`` read "then this command with `--base-url URL`". The library owns the fact (``MissingKey``'s record:
the provider, the variables, what is missing, whether the request goes to this machine) and says it in a Python
caller's words; the command line draws its own words from the record, byte for byte what it printed before. Each
piece of advice is followed, on a real server on 127.0.0.1, and the send obeys."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from toolchoice.providers import MissingKey, RenderOptions, load_scenario_dict
from toolchoice.providers.core import jobs
from toolchoice.providers.core.mock.server import running_mock

from cli import run_cli

WEATHER = str(Path(__file__).resolve().parents[1] / "configs" / "weather.yaml")
SCENARIO = {"tools": [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                              "required": ["city"]}}],
            "tool_choice": {"tool": "get_weather"}, "messages": [{"role": "user", "content": "Weather in Paris?"}]}
CLI_WORDS = ("this command", "--base-url", "`toolchoice", "export ")


@pytest.fixture(scope="module")
def mock():
    with running_mock("openai") as server:
        yield server


def missing(call) -> MissingKey:
    with pytest.raises(MissingKey) as caught:
        call()
    return caught.value


def test_a_python_caller_reads_python_words_and_doing_as_they_say_sends(monkeypatch: pytest.MonkeyPatch, mock) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    scenario = load_scenario_dict(SCENARIO)
    [translation] = jobs.translations(scenario, "openai")
    problem = missing(lambda: jobs.send(scenario, translation))
    words = str(problem)
    assert words.startswith("openai: no API key: set OPENAI_API_KEY (") and not any(w in words for w in CLI_WORDS), words
    assert (problem.provider, problem.variables, problem.of, problem.local) == ("openai", ("OPENAI_API_KEY",), "key",
                                                                                False)
    # the same words from every job that sends
    assert str(missing(lambda: jobs.run(scenario, "openai"))) == words
    assert str(missing(lambda: jobs.probe("openai", repeat=1))) == words
    # as it says: a server on 127.0.0.1 that checks no key (the one it names), its base URL in RenderOptions or in
    # the scenario's providers.openai.base_url, and the variable set to any value
    server = re.search(r'running_mock\("(\w+)"\)', words)
    assert server and server.group(1) == "openai" and "RenderOptions(base_url=...)" in words, words
    assert "providers.openai.base_url" in words and "set to any value" in words, words
    monkeypatch.setenv(problem.variables[0], "any value")
    [to_mock] = jobs.translations(scenario, "openai", RenderOptions(base_url=mock.base_url))
    assert jobs.send(scenario, to_mock).code == 0
    in_file = load_scenario_dict({**SCENARIO, "providers": {"openai": {"base_url": mock.base_url}}})
    assert jobs.send(in_file, jobs.translations(in_file, "openai")[0]).code == 0


def test_to_a_local_server_it_says_any_value_will_do_in_python(monkeypatch: pytest.MonkeyPatch, mock) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    scenario = load_scenario_dict(SCENARIO)
    [translation] = jobs.translations(scenario, "openai", RenderOptions(base_url=mock.base_url))
    problem = missing(lambda: jobs.send(scenario, translation))
    assert problem.local and not any(w in str(problem) for w in CLI_WORDS), str(problem)
    assignment = re.search(r'e\.g\. (os\.environ\["\w+"\] = "\w+")', str(problem))
    assert assignment, str(problem)
    exec(assignment.group(1), {"os": os})  # noqa: S102 - the advice, as written
    try:
        assert jobs.send(scenario, translation).code == 0
    finally:
        os.environ.pop("OPENAI_API_KEY", None)


def test_a_provider_with_two_variables_names_both_in_its_record(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    scenario = load_scenario_dict(SCENARIO)
    problem = missing(lambda: jobs.send(scenario, jobs.translations(scenario, "gemini")[0]))
    assert problem.variables == ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    assert str(problem).startswith("gemini: no API key: set GEMINI_API_KEY or GOOGLE_API_KEY (")


@pytest.mark.parametrize(("args", "line"), [
    (["-p", "openai"], "openai: no API key: set OPENAI_API_KEY (the key is read from the environment at send time and "
                       "never printed; to try without one: `toolchoice mock -p openai`, then this command with "
                       "`--base-url URL` and `OPENAI_API_KEY=unused` (docs/mock.md))"),
    (["-p", "gemini"], "gemini: no API key: set GEMINI_API_KEY or GOOGLE_API_KEY (the key is read from the environment "
                       "at send time and never printed; to try without one: `toolchoice mock -p gemini`, then this "
                       "command with `--base-url URL` and `GEMINI_API_KEY=unused` (docs/mock.md))"),
    (["-p", "openai", "--base-url", "http://127.0.0.1:9/v1"],
     "openai: no API key: set OPENAI_API_KEY (a local server that checks no key takes any value, e.g. export "
     "OPENAI_API_KEY=local)"),
])
def test_the_command_line_keeps_its_own_words_byte_for_byte(args: list[str], line: str) -> None:
    # the lines the command printed before the library's words changed (main at 12ff10e)
    done = run_cli(["send", WEATHER, *args], env={"PATH": os.environ.get("PATH", "")})
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"toolchoice: error: {line}\n")


def test_a_variable_a_header_or_an_mcp_tool_names_in_each_callers_words(monkeypatch: pytest.MonkeyPatch,
                                                                        tmp_path: Path) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")
    monkeypatch.delenv("TEAM_TOKEN", raising=False)
    monkeypatch.delenv("DEEPWIKI_TOKEN", raising=False)
    allowed = RenderOptions(allow_env=("TEAM_TOKEN", "DEEPWIKI_TOKEN"))
    data = {**SCENARIO, "providers": {"openai": {"headers": {"X-Team": "$TEAM_TOKEN"}}}}
    scenario = load_scenario_dict(data)
    header = missing(lambda: jobs.send(scenario, jobs.translations(scenario, "openai", allowed)[0]))
    assert (header.of, header.variables) == ("header", ("TEAM_TOKEN",))
    assert str(header) == ("openai: a header needs TEAM_TOKEN, which is not set in the environment (set it in the "
                           "environment, or remove it from providers.openai.headers)")
    mcp = {"type": "mcp", "server_label": "deepwiki", "server_url": "https://mcp.deepwiki.com/mcp",
           "require_approval": "never", "authorization": "$DEEPWIKI_TOKEN"}
    with_mcp = load_scenario_dict({**SCENARIO, "tools": [*SCENARIO["tools"], mcp]})
    tool = missing(lambda: jobs.send(with_mcp, jobs.translations(with_mcp, "openai-responses", allowed)[0]))
    assert (tool.of, tool.variables) == ("mcp tool", ("DEEPWIKI_TOKEN",)) and "export" not in str(tool)
    # the command line's words (naming providers.<id>.headers until trial15g: the provider is known)
    path = tmp_path / "header.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    done = run_cli(["send", str(path), "-p", "openai", "--allow-env", "TEAM_TOKEN"],
                   env={"PATH": os.environ.get("PATH", ""), "OPENAI_API_KEY": "sk-test-0123456789abcdef"})
    assert (done.returncode, done.stderr) == (2, "toolchoice: error: openai: a header needs TEAM_TOKEN, which is not "
                                                 "set in the environment (export it, or remove it from "
                                                 "providers.openai.headers)\n")
