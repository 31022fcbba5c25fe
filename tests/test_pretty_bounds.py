"""What the pretty view shows of text from outside, whatever its size and characters: a huge argument in
linear work (tests/test_table_draw.py holds the drawing to rich's), zero-width characters written out as the
other invisible controls are (two tool names that differ by one would look the same), and a long file path
above a reply whole (rich's rule cut it to an ellipsis). All in-process (tests/cli.py)."""

from __future__ import annotations

import json
from pathlib import Path

from cli import run_cli

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"  # space, non-joiner, joiner, word joiner, BOM / no-break space
WRITTEN = ["\\u200b", "\\u200c", "\\u200d", "\\u2060", "\\ufeff"]


def reply_file(path: Path, calls: list[tuple[str, str]], text: str | None = None) -> Path:
    """An OpenAI chat completion (the shape of tests/data's recorded openai replies) with these calls."""
    message = {"role": "assistant", "content": text,
               "tool_calls": [{"id": f"call_{i}", "type": "function", "function": {"name": name, "arguments": args}}
                              for i, (name, args) in enumerate(calls)]}
    path.write_text(json.dumps({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
                                "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}))
    return path


def test_zero_width_characters_are_written_out_in_the_pretty_view(tmp_path: Path) -> None:
    names = ["get_weather"] + [f"get_{ch}weather" for ch in ZERO_WIDTH]
    path = reply_file(tmp_path / "reply.json", [(name, json.dumps({"city": f"Par{ch}is"}))
                                                for name, ch in zip(names, " " + ZERO_WIDTH)],
                      text="done\u200b")
    for columns in ("80", "60"):
        result = run_cli(["parse", str(path), "-p", "openai"], env={"COLUMNS": columns, "NO_COLOR": "1"})
        assert result.returncode == 0, result.stderr
        assert not [ch for ch in ZERO_WIDTH if ch in result.stdout], result.stdout
        cells = "".join(line.split("│")[2].strip() for line in result.stdout.splitlines() if line.startswith("│"))
        assert all(f"get_{written}weather" in cells for written in WRITTEN), result.stdout
        assert "done\\u200b" in result.stdout


SCENARIO = """tools:
  - name: get_weather
    description: "Weather by\\u200b city"
    parameters: {type: object}
  - name: "get\\u2060weather"
    parameters: {type: object}
tool_choice: {allowed: [get_weather, "get\\u2060weather", "get\\u2060weather"], mode: auto}
messages:
  - {role: user, content: hi}
"""


def test_zero_width_characters_are_written_out_in_markdown_and_error_lines(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(SCENARIO.replace(', "get\\u2060weather"]', "]"), encoding="utf-8")
    result = run_cli(["compare", str(scenario), "-f", "markdown"], env={"COLUMNS": "80"})
    assert not [ch for ch in ZERO_WIDTH if ch in result.stdout], result.stdout
    assert "\\u2060" in result.stdout, result.stdout
    scenario.write_text(SCENARIO, encoding="utf-8")  # a name twice in the allowed list: refused, quoted
    result = run_cli(["render", str(scenario), "-p", "openai"], env={"COLUMNS": "80"})
    assert result.returncode == 2 and result.stdout == "", result.stdout
    assert not [ch for ch in ZERO_WIDTH if ch in result.stderr], result.stderr
    assert "\\u2060" in result.stderr, result.stderr


def test_a_long_path_above_a_reply_stays_whole(tmp_path: Path) -> None:
    folder = tmp_path / ("recorded_replies_of_the_weather_agent_" * 3) / "step_01"
    folder.mkdir(parents=True)
    path = reply_file(folder / "openai.response.json", [("get_weather", '{"city": "Paris"}')])
    for columns in (80, 60):
        result = run_cli(["parse", str(path), "-p", "openai"], env={"COLUMNS": str(columns), "NO_COLOR": "1"})
        assert result.returncode == 0, result.stderr
        head = result.stdout.split("tool calls")[0]
        assert "…" not in head, head
        assert str(path) in head.replace("\n", ""), head
        assert max(len(line) for line in result.stdout.splitlines()) <= columns


def test_a_huge_argument_shows_a_bounded_head_and_json_keeps_it_whole(tmp_path: Path) -> None:
    """A 27 MB argument (well within the input bounds) made 44 MB of table: the pretty view shows the head of a
    long argument and says how much it leaves out and where it is whole; its size does not grow with the
    argument's."""
    from toolchoice.cli.sample_view import ARGUMENTS_SHOWN

    sizes = {}
    for size in (ARGUMENTS_SHOWN * 2, ARGUMENTS_SHOWN * 8):
        value = "word " * (size // 10) + "x" * (size // 2)
        path = reply_file(tmp_path / f"reply{size}.json", [("save_file", json.dumps({"content": value}))])
        result = run_cli(["parse", str(path), "-p", "openai"], env={"COLUMNS": "80", "NO_COLOR": "1"})
        assert result.returncode == 0, result.stderr
        cells = " ".join(" ".join(line.split("│")[3].split()) for line in result.stdout.splitlines()
                         if line.startswith("│"))
        total = len(json.dumps({"content": value}, indent=2))
        assert (f"… {total - ARGUMENTS_SHOWN:,} more characters of {total:,} left out here: --format json shows "
                "the arguments whole") in cells, cells[-300:]
        sizes[size] = len(result.stdout)
        document = json.loads(run_cli(["parse", str(path), "-p", "openai", "-f", "json"]).stdout)
        assert value in json.dumps(document, ensure_ascii=False)  # whole in the JSON
    assert abs(sizes[ARGUMENTS_SHOWN * 2] - sizes[ARGUMENTS_SHOWN * 8]) < 100, sizes


def test_an_argument_of_ordinary_size_is_shown_whole(tmp_path: Path) -> None:
    from toolchoice.cli.sample_view import ARGUMENTS_SHOWN

    value = "x" * (ARGUMENTS_SHOWN - len(json.dumps({"content": ""}, indent=2)))  # in its JSON: the most shown
    path = reply_file(tmp_path / "reply.json", [("save_file", json.dumps({"content": value}))])
    result = run_cli(["parse", str(path), "-p", "openai"], env={"COLUMNS": "80", "NO_COLOR": "1"})
    assert "left out" not in result.stdout
    assert "".join(line.split("│")[3].strip() for line in result.stdout.splitlines()
                   if line.startswith("│")).count("x") == len(value)


def test_a_long_reply_text_says_how_much_is_left_out_and_where_it_is_whole(tmp_path: Path) -> None:
    """The pretty view shows a reply's text up to 600 characters; past that it says what it left out (a bare
    ellipsis read as the model's own words), and --format json keeps the text whole."""
    text = "word " * 300  # 1,500 characters
    path = reply_file(tmp_path / "reply.json", [("get_weather", "{}")], text=text)
    result = run_cli(["parse", str(path), "-p", "openai"], env={"COLUMNS": "80", "NO_COLOR": "1"})
    assert result.returncode == 0, result.stderr
    flat = " ".join(result.stdout.split())
    assert "900 more characters of 1,500 left out here: --format json shows the text whole" in flat, result.stdout
    whole = run_cli(["parse", str(path), "-p", "openai", "-f", "json"], env={"COLUMNS": "80"})
    assert json.loads(whole.stdout)["reply"]["text"] == text
