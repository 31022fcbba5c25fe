"""The library's jobs hold the bounds the command line holds (cli/options.py REPEAT, send's --repeat): a Python
caller's repeat=0 is an error with a message, as `send --repeat 0` is (exit 2), never a result that says the model
obeyed (exit code 0) when nothing was sent. The requests go through httpx.MockTransport and are counted."""

from __future__ import annotations

import os
from typing import Any

import httpx
import pytest

from cli import run_cli
from toolchoice.providers import load_scenario_text
from toolchoice.providers.core import jobs, loop, runner
from toolchoice.providers.core.model import ToolchoiceError

SCENARIO = """\
tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
tool_choice: {tool: get_weather}
messages:
  - {role: user, content: "Weather in Paris?"}
loop:
  max_steps: 1
  results: {get_weather: "18"}
"""

# openai-python types/chat/chat_completion.py: one tool call
REPLY = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-5.4-mini",
         "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
             "role": "assistant", "content": None, "tool_calls": [
                 {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city": "P"}'}}]}}]}


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")
    count: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        count.append(1)
        return httpx.Response(200, json=REPLY)
    return count, runner.SendSettings(transport=httpx.MockTransport(handler))


def _jobs(settings: Any, repeat: Any) -> dict[str, Any]:
    scenario = load_scenario_text(SCENARIO)
    return {
        "send": lambda: jobs.send(scenario, jobs.translations(scenario, ["openai"])[0], repeat=repeat, settings=settings),
        "compare_send": lambda: jobs.compare_send(scenario, jobs.translations(scenario, ["openai"]), repeat=repeat,
                                                  settings=settings),
        "probe": lambda: jobs.probe("openai", repeat=repeat, settings=settings),
        "run": lambda: jobs.run(scenario, ["openai"], loop.LoopOptions(), repeat=repeat, settings=settings),
    }


@pytest.mark.parametrize("job", ["send", "compare_send", "probe", "run"])
@pytest.mark.parametrize("repeat", [0, -1, 2.5, True, "3"])
def test_a_repeat_the_cli_refuses_is_an_error(sent: Any, job: str, repeat: Any) -> None:
    count, settings = sent
    with pytest.raises(ToolchoiceError, match=r"repeat .*: give a whole number from 1 to"):
        _jobs(settings, repeat)[job]()
    assert not count  # nothing was sent


@pytest.mark.parametrize("job, most", [("send", 1_000_000), ("compare_send", 1000), ("probe", 1000), ("run", 1000)])
def test_a_repeat_over_the_clis_bound_is_an_error(sent: Any, job: str, most: int) -> None:
    count, settings = sent
    with pytest.raises(ToolchoiceError, match=f"from 1 to {most:,}"):
        _jobs(settings, most + 1)[job]()
    assert not count


def test_run_with_no_provider_is_an_error(sent: Any) -> None:
    count, settings = sent
    with pytest.raises(ToolchoiceError, match="no provider"):
        jobs.run(load_scenario_text(SCENARIO), [], loop.LoopOptions(), settings=settings)
    assert not count


@pytest.mark.parametrize("command, most", [("send", 1_000_000), ("compare", 1000), ("probe", 1000), ("run", 1000)])
def test_the_cli_bounds_are_the_librarys(tmp_path: Any, command: str, most: int) -> None:
    """The command line refuses exactly what the library refuses (one more than its bound), with exit 2."""
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    args = {"send": ["send", str(path), "-p", "openai"], "compare": ["compare", str(path), "-p", "openai", "--send"],
            "probe": ["probe", "-p", "openai"], "run": ["run", str(path), "-p", "openai"]}[command]
    result = run_cli(args + ["--repeat", str(most + 1)], env={"OPENAI_API_KEY": "sk-test-0123456789abcdef"})
    assert result.returncode == 2, result.stderr


def test_one_sample_still_goes(sent: Any) -> None:
    count, settings = sent
    scenario = load_scenario_text(SCENARIO)
    result = jobs.send(scenario, jobs.translations(scenario, ["openai"])[0], repeat=1, settings=settings)
    assert result.code == 0 and len(count) == 1
    assert os.environ["OPENAI_API_KEY"] not in str(result.document())


# ---- probe with the caller's own tools: a scenario without any is bad input, not an internal error ------------------

@pytest.mark.parametrize("text", ["messages:\n  - {role: user, content: hi}\n",
                                  "tools: []\nmessages:\n  - {role: user, content: hi}\n"])
def test_probe_with_a_scenario_without_tools_is_an_error(sent: Any, text: str) -> None:
    count, settings = sent
    with pytest.raises(ToolchoiceError, match="declares no tools"):
        jobs.probe("openai", load_scenario_text(text), repeat=1, settings=settings)
    assert not count


def test_the_probe_command_says_so_in_one_line(tmp_path: Any) -> None:
    path = tmp_path / "notools.yaml"
    path.write_text("messages:\n  - {role: user, content: hi}\n")
    result = run_cli(["probe", str(path), "-p", "openai", "-n", "1", "--base-url", "http://127.0.0.1:9/v1"],
                     env={"OPENAI_API_KEY": "sk-test-0123456789abcdef"})
    assert result.returncode == 2, result.stderr
    assert "declares no tools" in result.stderr and "internal error" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# ---- loop.max_steps is bounded, as every input is (docs/limits.md) ---------------------------------------------------

LOOPED = "tools:\n  - {name: a}\nmessages:\n  - {role: user, content: hi}\nloop:\n  max_steps: %s\n"


def test_a_loop_of_a_million_steps_is_refused_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario's loop.max_steps was unbounded: 1,000,000 steps ran on (each request resending the growing
    history) until killed. It is refused when the scenario is read, with the line and how to raise the limit."""
    monkeypatch.delenv("TOOLCHOICE_LIMIT_LOOP_STEPS", raising=False)
    with pytest.raises(ToolchoiceError, match=r"loop.max_steps 1000000: more than 1000 steps \(limit loop_steps\)") as e:
        load_scenario_text(LOOPED % 1_000_000, "big.yaml")
    assert "big.yaml:6" in str(e.value) and "TOOLCHOICE_LIMIT_LOOP_STEPS" in str(e.value)
    assert load_scenario_text(LOOPED % 1000).loop.max_steps == 1000
    monkeypatch.setenv("TOOLCHOICE_LIMIT_LOOP_STEPS", "5000")
    assert load_scenario_text(LOOPED % 5000).loop.max_steps == 5000


# ---- a provider named twice: the library does what the command line does ------------------------------------------

def test_a_provider_named_twice_is_one_provider_as_on_the_command_line(sent: Any, tmp_path: Any) -> None:
    """`render s.yaml -p openai,openai` renders one request (cli/inputs.py selected_providers keeps the first of
    each); jobs.render / translations / run did the work twice, and compare_send with save= failed with 'another
    toolchoice run is saving into this folder'."""
    count, settings = sent
    scenario = load_scenario_text(SCENARIO)
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO)
    cli = run_cli(["render", str(path), "-p", "openai,openai", "--format", "json"], env={})
    import json

    shown = json.loads(cli.stdout)
    assert isinstance(shown, dict) and shown["provider"] == "openai"  # one request
    assert [t.provider for t in jobs.render(scenario, ["openai", "openai"])] == ["openai"]
    assert [t.provider for t in jobs.translations(scenario, ["openai", "groq", "openai"])] == ["openai", "groq"]
    ran = jobs.run(scenario, ["openai", "openai"], loop.LoopOptions(), settings=settings)
    assert [r.provider for r in ran.runs] == ["openai"] and len(count) == 1


def test_compare_send_refuses_two_translations_for_one_provider(sent: Any, tmp_path: Any) -> None:
    count, settings = sent
    scenario = load_scenario_text(SCENARIO)
    [one] = jobs.translations(scenario, ["openai"])
    with pytest.raises(ToolchoiceError, match="openai is given twice"):
        jobs.compare_send(scenario, [one, one], settings=settings, save=tmp_path / "out")
    assert not count
