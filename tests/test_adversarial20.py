"""Adversarial round 20 (trial20f): surfaces the earlier rounds did not reach. Each test failed before its fix; the
commands run in-process (tests/cli.py: the console script's own entry) where no real process is the check.

The truth is outside the code under test: PyYAML's own reading of an option's text (aliases are references, so a
short text can stand for billions of values), and the scenario reader's bound on the same text in a file."""

from __future__ import annotations

import json
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


@pytest.mark.parametrize(("text", "limit"), [
    ("tools: []\n# " + "x" * (9 << 20), None),  # 9 MiB of ASCII: over the 8 MiB default by its length alone
    ("tools: []\n# " + "\u00e9" * 60, "100"),  # 60 characters, 132 bytes in UTF-8: over 100 bytes by its encoding
], ids=["characters", "utf-8 bytes"])
def test_load_scenario_text_is_bounded_as_a_file_before_it_is_read(text: str, limit: str | None,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """load_scenario_text composed a 50 MB text whole (~14 s) before expanded_bytes refused it, where the same
    text as a file, or on stdin, was refused at file_bytes before a line was read."""
    from toolchoice.providers import load_scenario_text
    from toolchoice.providers.core.model import ToolchoiceError

    if limit:
        monkeypatch.setenv("TOOLCHOICE_LIMIT_FILE_BYTES", limit)
    with pytest.raises(ToolchoiceError) as refused_:
        load_scenario_text(text, "big.yaml")
    shown = "100 bytes" if limit else "8 MiB"
    assert str(refused_.value).startswith(f"big.yaml: more than {shown} (limit file_bytes)"), str(refused_.value)
    assert refused_.value.hint.startswith("raise it with TOOLCHOICE_LIMIT_FILE_BYTES=N")


# ---- unbounded input: a pattern whose repeats the regex package writes out --------------------------------------------

HUGE_REPEATS = ["^a{3000000}$", "^(?:x|(b{1000}){1000})$", "^a{100000000}$"]


def _weather_reply(city: str) -> str:
    return json.dumps({"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [{
        "index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": None, "tool_calls": [{
            "id": "call_1", "type": "function", "function": {"name": "get_weather",
                                                             "arguments": json.dumps({"city": city})}}]}}]})


@pytest.mark.parametrize("pattern", HUGE_REPEATS)
def test_a_pattern_whose_repeats_would_fill_memory_is_not_checked_and_said(tmp_path: Path, pattern: str) -> None:
    """The regex package compiles a repeat {m} as m copies of what it repeats, ~270 bytes each, before any timeout
    can count: '^a{3000000}$' took 2 s and 815 MB to compile, '^a{10000000}$' 11 s and 2.7 GB, '^a{100000000}$' never
    finished (Python's re reads the same counts without writing them out). A tool's pattern, the user's or an MCP
    server's, is matched against a model's arguments when the verdict checks them: such a pattern is now not compiled,
    and the call is said "not checked" as for a pattern past pattern_seconds, one line naming it."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - name: get_weather\n    description: W\n    parameters:\n      type: object\n"
                        f"      properties: {{city: {{type: string, pattern: {json.dumps(pattern)}}}}}\n"
                        "      required: [city]\ntool_choice: required\nmessages:\n  - {role: user, content: hi}\n",
                        encoding="utf-8")
    reply = tmp_path / "reply.json"
    reply.write_text(_weather_reply("aaa"), encoding="utf-8")
    done = run_cli(["parse", str(reply), "-p", "openai", "-s", str(scenario), "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stdout + done.stderr
    errors = json.loads(done.stdout)["verdict"]["calls"][0]["errors"]
    said = [e for e in errors if pattern in e]
    assert said and "not checked" in said[0] and "repeat" in said[0], errors


@pytest.mark.parametrize("pattern", ["^b{3000000}$", "^(b{1000}){1000}$", "^b{100000000}$"])  # not compiled
def test_the_mock_makes_arguments_for_a_huge_repeat_without_compiling_it(monkeypatch: pytest.MonkeyPatch,
                                                                          pattern: str) -> None:
    """The mock tries a few strings against a tool's pattern to make its arguments: a client's request holding
    '^a{100000000}$' (a 300-byte body) had it compile that pattern, and the mock was killed by the system, its
    memory gone; '^(a{1000}){1000}$' cut the connection after 28 s. The pattern is no longer handed to the regex
    package, and the mock answers (the string it makes does not fit the pattern: the tries are a few plain words)."""
    import httpx
    import regex

    from toolchoice.providers.core.mock.server import running_mock

    compiled: list[str] = []
    real = regex.compile
    monkeypatch.setattr(regex, "compile", lambda p, *a, **k: (compiled.append(p), real(p, *a, **k))[1])
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tool_choice": "required",
            "tools": [{"type": "function", "function": {"name": "tag", "parameters": {
                "type": "object", "properties": {"t": {"type": "string", "pattern": pattern}}, "required": ["t"]}}}]}
    with running_mock("openai") as mock:
        answer = httpx.post(f"{mock.base_url}/chat/completions", json=body, headers={"Authorization": "Bearer x"},
                            timeout=30)
    assert answer.status_code == 200, answer.text
    assert answer.json()["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "tag"
    assert pattern not in compiled


def test_a_call_whose_arguments_were_not_checked_is_not_called_valid(tmp_path: Path) -> None:
    """A call whose arguments could not be checked (a pattern past its bounds, a $ref to nowhere) kept its "schema:
    ... arguments not checked" line in `-f json`'s calls[].errors alone: the verdict's reason said "called get_weather
    with valid arguments" and the pretty output, which draws the reasons, never showed the line docs/limits.md
    promises ("a `schema:` line says which pattern took too long"). The reason now says the arguments were not all
    checked, and the line follows it."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - name: get_weather\n    description: W\n    parameters:\n      type: object\n"
                        "      properties: {city: {type: string, pattern: '^c{3000000}$'}}\n      required: [city]\n"
                        "tool_choice: required\nmessages:\n  - {role: user, content: hi}\n", encoding="utf-8")
    reply = tmp_path / "reply.json"
    reply.write_text(_weather_reply("ccc"), encoding="utf-8")
    done = run_cli(["parse", str(reply), "-p", "openai", "-s", str(scenario)], env=user_env(columns=200))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "valid arguments" not in done.stdout and "arguments not all checked" in done.stdout, done.stdout
    assert "schema: the pattern '^c{3000000}$'" in done.stdout, done.stdout
