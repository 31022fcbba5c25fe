"""A `.json` scenario or tool file is read as JSON (RFC 8259), never leniently as YAML: single quotes, comments, a
comma after the last item, unquoted keys and NaN are YAML's flow style or Python's json extensions, not JSON. Each
is one line naming the file, the line and column where Python's JSON decoder stops (``json.loads``, the standard
library, run on the same text in the test), and what to do; exit 2. The same text in a `.yaml` file is YAML and
reads; a JSON file YAML cannot compose still reads; the size, depth and digit bounds hold as before."""

from __future__ import annotations

import json
import re

import pytest

from cli import run_cli

GOOD = {"tools": [{"name": "get_weather", "parameters": {"type": "object",
                                                          "properties": {"city": {"type": "string"}}}}],
        "tool_choice": "required", "messages": [{"role": "user", "content": "Weather in Paris?"}]}

# Each text is valid YAML (flow style), not JSON; (line, column) is where the JSON decoder stops, by hand.
CASES = {
    "single quotes": ('{\n  "tools": [],\n  "tool_choice": \'required\',\n  "messages": []\n}\n', (3, 18)),
    "a comment": ('{\n  # the tools\n  "tools": [],\n  "tool_choice": "required",\n  "messages": []\n}\n', (2, 3)),
    "a trailing comma": ('{\n  "tools": [],\n  "tool_choice": "required",\n  "messages": [],\n}\n', (5, 1)),
    "an unquoted key": ('{\n  tools: [],\n  "tool_choice": "required",\n  "messages": []\n}\n', (2, 3)),
}


def scenario_text(case: str) -> str:
    """The case's defect inside a scenario that reads as YAML: tools and messages filled in."""
    text, _ = CASES[case]
    tools, messages = json.dumps(GOOD["tools"]), json.dumps(GOOD["messages"])
    return text.replace('"tools": []', f'"tools": {tools}').replace("tools: []", f"tools: {tools}").replace(
        '"messages": []', f'"messages": {messages}')


def decoder_stops_at(text: str) -> tuple[int, int]:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.lineno, exc.colno
    raise AssertionError("the text reads as JSON")


def one_error_line(stderr: str, name: str, line: int, column: int) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    where = f"{re.escape(name)}:{line}:{column}"
    assert re.match(rf"toolchoice: error: {where}: invalid JSON: .+ \(.+\)$", lines[0]), stderr
    return lines[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_json_scenario_that_is_only_yaml_is_refused_where_json_stops(tmp_path, case):
    text = scenario_text(case)
    (tmp_path / "s.json").write_text(text, encoding="utf-8")
    (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
    assert decoder_stops_at(text) == CASES[case][1]
    done = run_cli(["render", "s.json", "-p", "openai"], cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", done
    line = one_error_line(done.stderr, "s.json", *CASES[case][1])
    assert "YAML would take it, JSON does not: name the file .yaml" in line  # what to do when YAML was meant
    assert run_cli(["render", "s.yaml", "-p", "openai"], cwd=tmp_path).returncode == 0  # the same text as YAML


def test_nan_in_a_json_scenario_is_not_json(tmp_path):
    data = json.loads(json.dumps(GOOD))
    data["tools"][0]["parameters"]["properties"]["city"]["default"] = float("nan")
    text = json.dumps(data, indent=2)  # Python writes NaN; YAML read it as the string "NaN"
    assert "NaN" in text
    (tmp_path / "s.json").write_text(text, encoding="utf-8")
    done = run_cli(["render", "s.json", "-p", "openai"], cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", done
    row = next(n for n, line in enumerate(text.splitlines(), 1) if "NaN" in line)
    column = text.splitlines()[row - 1].index("NaN") + 1
    assert "NaN" in one_error_line(done.stderr, "s.json", row, column)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_json_tool_file_that_is_only_yaml_is_refused(tmp_path, case):
    # a tool file: OpenAI chat tools, the defect in the same places
    text = CASES[case][0].replace('"tools": []', '"tools": [{"type": "function", "function": {"name": "a"}}]')
    text = text.replace("tools: []", 'tools: [{"type": "function", "function": {"name": "a"}}]')
    (tmp_path / "t.json").write_text(text, encoding="utf-8")
    (tmp_path / "s.yaml").write_text("tools:\n  - from: t.json\ntool_choice: required\n"
                                     "messages: [{role: user, content: hi}]\n", encoding="utf-8")
    at = decoder_stops_at(text)
    done = run_cli(["tools", "t.json"], cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", done
    one_error_line(done.stderr, "t.json", *at)
    done = run_cli(["render", "s.yaml", "-p", "openai"], cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", done
    assert "t.json" in done.stderr and "invalid JSON" in done.stderr and len(done.stderr.splitlines()) == 1


def test_json_files_that_read_still_read(tmp_path):
    # tabs for indentation and a big tool catalogue: JSON that reads (and YAML may or may not compose)
    tools = [{"name": f"tool_{i}", "description": "d" * 200,
              "parameters": {"type": "object", "properties": {"x": {"type": "number", "default": 1e-5},
                                                              "y": {"type": "string",
                                                                    "enum": [f"v{n:05}" for n in range(3000)]}}}}
             for i in range(100)]  # OpenAI takes at most 128 tools
    big = dict(GOOD, tools=tools)
    (tmp_path / "big.json").write_text(json.dumps(big, indent="\t"), encoding="utf-8")
    done = run_cli(["render", "big.json", "-p", "openai", "-f", "json"], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    sent = json.loads(done.stdout)["request"]["body"]["tools"]
    assert (tmp_path / "big.json").stat().st_size > 2_000_000
    assert len(sent) == 100 and sent[0]["function"]["parameters"]["properties"]["x"]["default"] == 1e-5


def test_the_bounds_hold_for_a_json_file(tmp_path):
    deep = '{"tools": [], "messages": [], "x": ' + "[" * 150 + "]" * 150 + "}"
    (tmp_path / "deep.json").write_text(deep, encoding="utf-8")
    done = run_cli(["render", "deep.json", "-p", "openai"], cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "deep" in done.stderr, done
    assert "Traceback" not in done.stderr
    digits = json.dumps(GOOD)[:-1] + ', "x": ' + "9" * 5000 + "}"
    (tmp_path / "digits.json").write_text(digits, encoding="utf-8")
    done = run_cli(["render", "digits.json", "-p", "openai"], cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "digits.json" in done.stderr, done


def test_a_yaml_scenario_named_json_is_said_so(tmp_path):
    text = "\n# weather\ntools:\n  - name: get_weather\ntool_choice: required\nmessages: [{role: user, content: hi}]\n"
    (tmp_path / "s.json").write_text(text, encoding="utf-8")
    done = run_cli(["render", "s.json", "-p", "openai"], cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", done
    assert decoder_stops_at(text) == (2, 1)
    assert "this .json file is YAML, not JSON: name it .yaml" in one_error_line(done.stderr, "s.json", 2, 1)
