"""The pretty output as a hostile reply or tool file would test it: text from outside is shown as written, at
80 and 60 columns, with and without colours. In-process (tests/cli.py): what is tested is the drawing."""

from __future__ import annotations

import json
from pathlib import Path

from cli import run_cli


def reply_file(tmp_path: Path, name: str, arguments: dict, text: str | None = None) -> Path:
    """An OpenAI chat completion (the shape of tests/data's recorded openai replies) with one call."""
    message = {"role": "assistant", "content": text,
               "tool_calls": [{"id": "call_1", "type": "function",
                               "function": {"name": name, "arguments": json.dumps(arguments)}}]}
    path = tmp_path / "reply.json"
    path.write_text(json.dumps({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
                                "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}))
    return path


def test_emoji_codes_from_a_reply_are_shown_as_written(tmp_path: Path) -> None:
    """rich replaces :smile: and the like with emoji in every string it is given unless told not to."""
    path = reply_file(tmp_path, "get_weather", {"note": ":thumbs_up: :smile:"}, text="done :smile:")
    for columns in ("80", "60"):
        result = run_cli(["parse", str(path), "-p", "openai"], env={"COLUMNS": columns, "NO_COLOR": "1"})
        assert result.returncode == 0, result.stderr
        assert ":thumbs_up:" in result.stdout and "done :smile:" in result.stdout, result.stdout
        assert "😄" not in result.stdout and "👍" not in result.stdout


def test_a_long_tool_name_is_folded_whole_not_cut_at_60_columns(tmp_path: Path) -> None:
    """The calls table folds a name that does not fit its column; an ellipsis would hide the rest of it (here
    the bidi control written out, and what follows it)."""
    name = "get_weather_for_city\u202ebackwards_and_more_words"
    path = reply_file(tmp_path, name, {"city": "東京都の天気予報を教えてください東京都の天気予報"})
    result = run_cli(["parse", str(path), "-p", "openai"], env={"COLUMNS": "60", "NO_COLOR": "1"})
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert not any("…" in row for row in rows), result.stdout
    cells = "".join(row.split("│")[2].strip() for row in rows)
    assert "get_weather_for_city\\u202ebackwards_and_more_words" in cells, result.stdout
