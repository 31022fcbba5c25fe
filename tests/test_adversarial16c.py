"""Adversarial round 16c on `toolchoice run` with the day's new pieces: tool_choice sent by providers.<id>.extra,
loop.after_call, loop.stop.repeated_calls, Anthropic's mid-conversation tool changes, --stream, --save / --replay.

The truth for "what the loop sends" is the request body itself, read back by the family's own reader
(core/sent_choice.py, the one `toolchoice mock` uses): a loop whose every request forces a call (on the wire)
can only end at max_steps, whatever the scenario's steps say under it (docs/loop.md, `loop.cannot_end`: "on the
provider's wire").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolchoice.providers.core import loop_lint
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario_text


def _loop(extra: str, steps: list[str], after_call: str = "keep", max_steps: int = 1000) -> object:
    doc = {"providers": {"openai": {"extra": {"tool_choice": extra}}},
           "tools": [{"name": "get_weather", "parameters": {"type": "object"}}, {"name": "search"}],
           "tool_choice": "auto", "messages": [{"role": "user", "content": "weather in SF"}],
           "loop": {"max_steps": max_steps, "after_call": after_call, "steps": [{"tool_choice": s} for s in steps],
                    "results": {"get_weather": "sunny", "search": "found"}}}
    return load_scenario_text(json.dumps(doc), "s.yaml")


def test_cannot_end_judges_the_choice_extra_sends_not_the_steps_it_replaces() -> None:
    forced = _loop("required", ["auto"])
    # what is sent at every step: required (the body is the truth; the verdict reads it the same way)
    assert translate("openai", forced).request.body["tool_choice"] == "required"
    found = loop_lint.cannot_end(forced, provider="openai")
    assert found is not None and found.code == "loop.cannot_end"
    assert "providers.openai.extra" in found.message
    # after_call: auto cannot reset what extra writes over it
    assert loop_lint.cannot_end(_loop("required", ["required"], after_call="auto"), provider="openai") is not None
    # the other way round: every step asks required, but extra sends none: the model may answer, the loop can end
    freed = _loop("none", ["required"])
    assert translate("openai", freed).request.body["tool_choice"] == "none"
    assert loop_lint.cannot_end(freed, provider="openai") is None
    # without a provider (the scenario as written) the steps' own choices still count
    assert loop_lint.cannot_end(freed) is not None


# ---- narrow: allowed, a step whose choice is none or a named tool ------------------------------------------------


def _run_on_mock(provider: str, scenario: str, script: str, tmp_path: Path) -> dict:
    import os
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from cli import run_cli

    from toolchoice.providers.core.mock.script import load_script
    from toolchoice.providers.core.mock.server import running_mock

    (tmp_path / "s.yaml").write_text(scenario)
    (tmp_path / "script.yaml").write_text(script)
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN"))} | {"OPENAI_API_KEY": KEY}
    with running_mock(provider, script=load_script(str(tmp_path / "script.yaml"))) as mock:
        result = run_cli(["run", str(tmp_path / "s.yaml"), "-p", provider, "--base-url", mock.base_url,
                          "--retries", "0", "-f", "json"], env=env)
    assert result.returncode in (0, 4), result.stdout + result.stderr
    assert KEY not in result.stdout + result.stderr
    return json.loads(result.stdout)


KEY = "sk-adversarial16c-canary-0123456789"


@pytest.mark.parametrize("narrow", ["allowed", "remove"])
def test_a_narrowed_step_offering_none_or_one_named_tool_does_not_offer_the_others(tmp_path: Path,
                                                                                   narrow: str) -> None:
    """docs/loop.md: under narrow: allowed "a step naming one tool sends the named form with every tool" (and none
    stays none, with every tool), and a call outside the step's subset gets "the error result and loop.phantom_call
    ..., as where the tools are removed, so the history is the same on every provider". The stop tool called where
    the step did not offer it "gets an error result and the loop goes on" (docs/run.md)."""
    tools = "".join(f"  - {{name: {n}, description: t, parameters: {{type: object}}}}\n"
                    for n in ("get_weather", "search", "final_answer"))
    scenario = (f"tools:\n{tools}tool_choice: auto\nmessages:\n  - {{role: user, content: weather in SF}}\n"
                f"loop:\n  max_steps: 4\n  narrow: {narrow}\n  stop: {{tool: final_answer}}\n"
                "  results: {get_weather: sunny, search: found}\n  steps:\n"
                "    - {tool_choice: get_weather, tools: [get_weather]}\n    - {tool_choice: none, tools: [get_weather]}\n"
                "    - {tool_choice: auto}\n")
    script = "replies:\n  - {call: search}\n  - {call: final_answer}\n  - {text: done}\n"
    doc = _run_on_mock("openai", scenario, script, tmp_path)
    [run] = doc["runs"][0]["loops"]
    bodies = [s["request"]["body"] for s in run["steps"]]
    if narrow == "allowed":  # every tool is sent at every step: the step's own subset is what it offers
        assert [len(b["tools"]) for b in bodies] == [3, 3, 3]
        assert bodies[1]["tool_choice"] == "none"
    phantom = [[e["message"] for e in s["ledger"] if e["code"] == "loop.phantom_call"] for s in run["steps"]]
    assert ["'search'" in " ".join(p) for p in phantom[:2]] == [True, False]
    assert ["'final_answer'" in " ".join(p) for p in phantom[:2]] == [False, True]
    assert run["ended"] == {"reason": "no_tool_call", "step": 3, "error": None}
    assert run["tool_results"] == {"total": 2, "errors": 2}


# ---- loop.stop.repeated_calls: "the same call (same tool, same arguments, compared as canonical JSON)" --------------


def _calls(*calls: tuple[str, object]) -> object:
    from toolchoice.providers.core.model import Reply, ToolCall

    return Reply(tuple(ToolCall(f"c{i}", name, args if isinstance(args, dict) else None,
                                input=args if isinstance(args, str) else None) for i, (name, args) in enumerate(calls)))


def test_repeated_calls_compare_json_values_not_python_equality() -> None:
    """true and 1 are different JSON values (RFC 8259 literal vs number), as are two custom tools' free-text inputs
    (a call with `input` and no arguments: OpenAI custom tools); 1 and 1.0 are one number, in any key order."""
    from toolchoice.providers.core.loop_policy import Repeats

    def second(first: object, then: object) -> object:
        repeats = Repeats()
        assert repeats.see(1, first, 2) is None  # type: ignore[arg-type]
        return repeats.see(2, then, 2)  # type: ignore[arg-type]

    assert second(_calls(("set", {"x": True})), _calls(("set", {"x": 1}))) is None
    assert second(_calls(("set", {"x": [False]})), _calls(("set", {"x": [0]}))) is None
    assert second(_calls(("sh", "ls")), _calls(("sh", "rm -rf build"))) is None
    same = second(_calls(("sh", "ls")), _calls(("sh", "ls")))
    assert same is not None and 'sh("ls")' in same.message
    same = second(_calls(("set", {"x": 1, "y": {"b": 2.0, "a": True}})), _calls(("set", {"y": {"a": True, "b": 2}, "x": 1.0})))
    assert same is not None and same.code == "loop.repeated_call"
    # parallel calls are a set, as before
    assert second(_calls(("a", {"x": True}), ("b", {})), _calls(("b", {}), ("a", {"x": True}))) is not None
    assert second(_calls(("a", {"x": True}), ("b", {})), _calls(("b", {}), ("a", {"x": 1}))) is None
