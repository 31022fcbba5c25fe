"""Adversarial round 16c on `toolchoice run` with the day's new pieces: tool_choice sent by providers.<id>.extra,
loop.after_call, loop.stop.repeated_calls, Anthropic's mid-conversation tool changes, --stream, --save / --replay.

The truth for "what the loop sends" is the request body itself, read back by the family's own reader
(core/sent_choice.py, the one `toolchoice mock` uses): a loop whose every request forces a call (on the wire)
can only end at max_steps, whatever the scenario's steps say under it (docs/loop.md, `loop.cannot_end`: "on the
provider's wire").
"""

from __future__ import annotations

import json

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
