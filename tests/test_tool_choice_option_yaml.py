"""``--tool-choice`` read as YAML holds to the scenario file's rules: nothing the user wrote is dropped or shown as
Python.

PyYAML's ``safe_load`` keeps the last of two equal keys (``{tool: a, tool: b}`` became ``{tool: b}`` without a
word), and reads ``2024-01-01``, ``!!binary`` and ``!!set`` as Python objects that the refusal then quoted with
``repr`` (``datetime.date(2024, 1, 1)``). The truth outside the code: YAML 1.2.2 §3.2.1.1 ("The content of a
mapping node is an unordered set of key/value node pairs, with the restriction that each of the keys is unique"),
RFC 8259 (JSON has strings, numbers, booleans, null, arrays and objects with string names; no date, bytes, set or
infinity), and what the scenario reader says for the same value in a file (the same words, tested side by side)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import refused_saying, run_cli, user_env

ROOT = Path(__file__).resolve().parent.parent
WEATHER = "configs/weather.yaml"  # declares get_weather and get_time


def _refusal(value: str) -> str:
    return refused_saying(run_cli(["render", WEATHER, "-p", "openai", "--tool-choice", value], env=user_env(),
                                  cwd=ROOT), "--tool-choice")


def test_a_key_written_twice_is_refused_not_the_first_dropped() -> None:
    line = _refusal("{tool: get_weather, tool: get_time}")
    assert "twice" in line and '"tool"' in line


def test_one_key_once_still_reads() -> None:
    done = run_cli(["render", WEATHER, "-p", "openai", "--tool-choice", "{tool: get_time}", "-f", "json"],
                   env=user_env(), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert '"get_time"' in done.stdout


@pytest.mark.parametrize(("value", "kind"), [
    ("{tool: 2024-01-01}", "date"),
    ("{tool: 2024-01-01 10:00:00}", "datetime"),
    ("{tool: !!binary aGVsbG8=}", "bytes"),
    ("{tool: !!set {a}}", "set"),
    ("{allowed: [get_weather, 2024-01-01]}", "date"),
])
def test_a_value_json_has_no_word_for_is_named_as_the_scenario_reader_names_it(value: str, kind: str,
                                                                               tmp_path: Path) -> None:
    line = _refusal(value)
    assert f"a {kind} value is not JSON data" in line and "quote it" in line
    assert "datetime." not in line and "b'" not in line and "{'" not in line  # no Python repr
    scenario = tmp_path / "s.yaml"
    scenario.write_text((ROOT / WEATHER).read_text(encoding="utf-8").replace("tool_choice: auto",
                                                                             f"tool_choice: {value}"), encoding="utf-8")
    from_file = refused_saying(run_cli(["render", str(scenario), "-p", "openai"], env=user_env(), cwd=ROOT), "s.yaml")
    # the file's reader names a !!set by its tag, before it is built
    assert (f"a {kind} value is not JSON data" if kind != "set" else "the YAML tag !!set is not allowed") in from_file


@pytest.mark.parametrize(("value", "shown"), [("{1: x}", "not 1"), ("{2024-01-01: x}", "not a date"),
                                              ("{null: x}", "not null")])
def test_a_key_that_is_not_a_string_is_refused(value: str, shown: str) -> None:
    line = _refusal(value)
    assert "keys must be strings" in line and shown in line


@pytest.mark.parametrize("value", ["{tool: .nan}", "{tool: .inf}", "[-.inf]"])
def test_a_number_that_is_not_finite_is_refused(value: str) -> None:
    assert "numbers must be finite" in _refusal(value)


def test_plain_words_that_look_like_dates_stay_words() -> None:
    """A bare word is a name, as before (only { and [ are read as YAML)."""
    line = _refusal("2024-01-01")
    assert "'2024-01-01'" in line and "not a declared tool" in line
