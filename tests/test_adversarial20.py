"""Adversarial round 20 (trial20f): surfaces the earlier rounds did not reach. Each test failed before its fix; the
commands run in-process (tests/cli.py: the console script's own entry) where no real process is the check.

The truth is outside the code under test: PyYAML's own reading of an option's text (aliases are references, so a
short text can stand for billions of values), and the scenario reader's bound on the same text in a file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cli import refused, run_cli, user_env

ROOT = Path(__file__).resolve().parents[1]
TRAP = str(ROOT / "configs" / "planner-trap.yaml")


# ---- unbounded input: YAML aliases in --tool-choice ------------------------------------------------------------------

def _nested_aliases(levels: int) -> str:
    """A flow mapping whose each key lists the one before nine times: 9**levels values once the aliases are expanded,
    from a text of a few hundred characters."""
    parts = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    parts += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "{" + ", ".join(parts) + "}"


@pytest.mark.parametrize(("value", "said"), [
    (_nested_aliases(7), "more than 1000000 values"),  # 4.8 million values: 4 s and 134 MB; 8 levels took 28 s
    (_nested_aliases(12), "more than 1000000 values"),  # 282 billion: never ended
    ("{allowed: [&a " + "x" * 60_000 + ", " + ", ".join(["*a"] * 300) + "]}", "more than 16 MiB (limit expanded_bytes) of text"),
], ids=["values", "billions", "text"])
@pytest.mark.parametrize("command", ["render", "run"])
def test_aliases_in_tool_choice_are_bounded_as_in_a_scenario(value: str, said: str, command: str) -> None:
    """`--tool-choice '{a0: &a0 [x, ...], a1: &a1 [*a0, *a0, ...], ...}'`: read with yaml.safe_load, whose aliases
    are references, then walked and quoted whole: 7 levels took 4 s and 134 MB before the refusal, 8 levels 28 s, and
    a 60 KB string named 3,000 times (69 KB of option) 6 s and 726 MB. The same text in a scenario file is refused at
    a million values or 16 MiB of text (yaml_input.Reader); the option is now held to the same bounds, one line."""
    args = ["--dry-run"] if command == "run" else []
    line = refused(run_cli([command, TRAP, "-p", "openai", *args, "--tool-choice", value], env=user_env()))
    assert "--tool-choice" in line and said in line and "aliases" in line, line


# ---- unbounded input: a Python caller's data reusing one list or string at many places -------------------------------

def _shared(levels: int) -> list[Any]:
    """One list of nine strings, then a list holding the one before nine times, ``levels`` times: 9**(levels + 1)
    values once each reference is written out, from levels + 1 lists."""
    value: list[Any] = ["x"] * 9
    for _ in range(levels):
        value = [value] * 9
    return value


def _with_examples(examples: Any) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"a": {"type": "string", "examples": examples}}}
    return {"tools": [{"name": "f", "description": "d", "parameters": schema}],
            "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize(("data", "said"), [
    (_with_examples(_shared(11)), "more than 1000000 values"),  # 282 billion values
    (_with_examples(["y" * 1_000_000] * 100_000), "of text"),  # 100 GB of text from 1 MB
], ids=["values", "text"])
def test_load_scenario_dict_of_shared_objects_is_refused_before_writing_them_out(data: dict[str, Any],
                                                                                  said: str) -> None:
    """load_scenario_dict writes the data out as JSON, a line a value, then reads it as a file: a list holding one
    list nine times, six levels deep (4.8 million values) was refused by the reader after 19 s and 347 MB, seven
    levels after 179 s and 2.9 GB; eleven never. The same bounds (a million values, expanded_bytes of text) are now
    counted first, each list once, and the refusal names the scenario before anything is written out."""
    from toolchoice.providers import load_scenario_dict
    from toolchoice.providers.core.model import ToolchoiceError

    with pytest.raises(ToolchoiceError) as refused_:
        load_scenario_dict(data)
    assert said in refused_.value.message and str(refused_.value).startswith("scenario"), str(refused_.value)
