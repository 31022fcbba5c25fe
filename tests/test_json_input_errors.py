"""A JSON file that does not read is said in JSON's words (a new user's trial: a `.json` scenario missing a comma
was "invalid YAML: expected ',' or '}' ... (check indentation and quoting)"; a tool file's broken JSON was an
internal error, exit 70). One line naming the file, the line and column where Python's own JSON decoder stops
(the truth: ``json.JSONDecodeError``, not toolchoice's reader), what to write there; exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolchoice.providers.core.model import ToolchoiceError
from toolchoice.providers.core.scenario import load_scenario_text

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
WEATHER = str(ROOT / "configs" / "weather.yaml")

BROKEN = {
    "a missing comma": '{\n  "tools": [\n    {"name": "a", "parameters": {"type": "object"}}\n  ]\n  "tool_choice": "auto"\n}\n',
    "a string not closed": '{\n  "tool_choice": "auto",\n  "system": "unterminated\n}\n',
    "a missing comma in a list": '[{"name": "a"},\n {"name": "b" "x": 1}]\n',
    "a second document": '{"tool_choice": "auto"}\n{"tools": []}\n',
    "a control character in a string": '{"tool_choice": "auto", "system": "a\x07b"}\n',
}


def decoder_stop(text: str) -> tuple[int, int]:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.lineno, exc.colno
    raise AssertionError("the case must not be JSON")


def one_json_line(done, path: Path, text: str) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    line, column = decoder_stop(text)
    assert lines[0].startswith(f"toolchoice: error: {path}:{line}:{column}: "), (lines[0], line, column)
    assert "invalid JSON: " in lines[0] and "YAML" not in lines[0] and "indentation" not in lines[0], lines[0]
    assert lines[0].endswith(")"), lines[0]  # what to do about it, in parentheses
    return lines[0]


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_json_scenario_is_said_as_json(tmp_path, case):
    path = tmp_path / "scenario.json"
    path.write_text(BROKEN[case])
    one_json_line(run_cli(["render", str(path), "-p", "openai"]), path, BROKEN[case])


def test_the_message_says_what_to_write():
    """The decoder's own words name what it expected; the hint says where that comes from."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.json"
        path.write_text(BROKEN["a missing comma"])
        said = one_json_line(run_cli(["render", str(path), "-p", "openai"]), path, BROKEN["a missing comma"])
    assert "expecting ',' delimiter" in said and "comma is missing" in said, said


def test_a_broken_json_tool_file_is_one_line_not_an_internal_error(tmp_path):
    text = '[{"type": "function", "function": {"name": "a" "parameters": {}}}]\n'
    path = tmp_path / "tools.json"
    path.write_text(text)
    one_json_line(run_cli(["tools", str(path)]), path, text)


def test_a_broken_json_lines_tool_file_names_the_line_that_is_not_json(tmp_path):
    rows = ['{"name": "a", "description": "A.", "parameters": {"type": "dict", "properties": {}}}',
            '{"name": "b", "description": "B.", "parameters": }']
    path = tmp_path / "functions.jsonl"
    path.write_text("\n".join(rows) + "\n")
    done = run_cli(["tools", str(path)])
    assert done.returncode == 2, done.stderr
    line, column = decoder_stop(rows[1])
    assert done.stderr.startswith(f"toolchoice: error: {path}:{2}:{column}: invalid JSON: "), done.stderr


def test_a_broken_json_mock_script_is_said_as_json(tmp_path):
    text = '{"replies": [{"text": "x"]}\n'
    path = tmp_path / "script.json"
    path.write_text(text)
    one_json_line(run_cli(["mock", "-p", "openai", "--script", str(path)]), path, text)


def test_a_broken_overlay_names_its_line_and_column(tmp_path):
    text = '{"toolchoice_capabilities": 1,\n "provider": "openai" "features": {}}\n'
    path = tmp_path / "overlay.json"
    path.write_text(text)
    said = one_json_line(run_cli(["render", WEATHER, "-p", "openai", "--capabilities", str(path)]), path, text)
    assert "not a capability overlay" in said and "probe --save" in said


def test_yaml_keeps_its_own_words(tmp_path):
    """A YAML file (its flow style starts with a bracket too) is still said as YAML."""
    path = tmp_path / "scenario.yaml"
    path.write_text("{tools: [\n  {name: a}\n")
    done = run_cli(["render", str(path), "-p", "openai"])
    assert done.returncode == 2 and "invalid YAML: " in done.stderr and "JSON" not in done.stderr, done.stderr


@pytest.mark.parametrize("text, line, column, words", [
    ('{\n  "tools": [],\n  "tool_choice": "auto",\n  "tool_choice": "none"\n}\n', 4, 3,
     "duplicate key 'tool_choice' (first on line 3)"),
    ('{\n  "tools": [\n    {"name": "a"},\n    {"name": "a"}\n  ],\n  "messages": [{"role": "user", "content": "x"}]\n}',
     4, 5, "duplicate tool name 'a'"),
    ('{"tools": [{"name": "a", "parameters": {"type": "object"}}],\n "messages": [{"role": "user", "content": "x"}],\n'
     ' "tool_choice": 1e400}', 3, 17, "numbers must be finite"),
    ('{"tools": [{"name": "a", "parameters": {"type": "object"}}],\n "messages": [{"role": "user", "content": "x"}],\n'
     '  "tool_choise": "auto"}', 3, 3, "unknown key 'tool_choise'"),
])
def test_a_json_scenario_that_reads_names_the_line_and_column_of_what_is_wrong(text, line, column, words):
    """JSON that reads as JSON, wrong as a scenario: the place is the JSON text's (libyaml's nodes), counted here by hand."""
    with pytest.raises(ToolchoiceError) as caught:
        load_scenario_text(text, "s.json")
    assert (caught.value.path, caught.value.line, caught.value.column) == ("s.json", line, column)
    assert words in caught.value.message
