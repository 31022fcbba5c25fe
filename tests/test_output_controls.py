"""Text from outside keeps every character, written out: rich deletes BEL, BS, VT, FF and CR when it builds a
Text, so a ledger message quoting a tool file lost them silently while ESC was shown as \\u001b; and `toolchoice
tools` printed a newline of a hosted tool's type raw inside a ``#`` comment, which ended the comment and put the
rest (``[bold]x``) into the YAML meant to be pasted. Both found by an adversarial run (the tool types below)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from cli import run_cli

NASTY = "web_search\x1b[2J\x1b]8;;http://evil\x07L\x1b]8;;\x07\r\x07\b\x0b\x0c[bold]B[/bold]"


def tool_file(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([{"type": "function", "name": "f", "parameters": {"type": "object"}},
                                {"type": kind, "server_label": "dw"}]), encoding="utf-8")
    return path


def test_the_pretty_ledger_writes_out_every_control_character(tmp_path: Path) -> None:
    tool_file(tmp_path, NASTY)
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - from: tools.json\nmessages:\n  - {role: user, content: hi}\n")
    out = run_cli(["render", str(scenario), "-p", "openai"], env={"COLUMNS": "400", "OPENAI_API_KEY": "x"}).stdout
    shown = "".join(line.strip("│ ") for line in out.splitlines())
    for code in ("\\u001b", "\\u0007", "\\u000d", "\\u0008", "\\u000b", "\\u000c"):
        assert code in shown, code
    assert not any(ch in out for ch in "\x1b\x07\r\x08\x0b\x0c")
    assert "[bold]B[/bold]" in shown  # markup stays text


def test_tools_comments_stay_one_line_and_the_yaml_loads_as_written(tmp_path: Path) -> None:
    path = tool_file(tmp_path, "web_search\n[bold]x\rtools: [{name: injected}]")
    result = run_cli(["tools", str(path)])
    assert result.returncode == 0, result.stderr
    comments = [line for line in result.stdout.splitlines() if line.startswith("#")]
    body = [line for line in result.stdout.splitlines() if not line.startswith("#")]
    assert any("web_search\\n[bold]x\\rtools: [{name: injected}]" in line for line in comments), comments
    assert yaml.safe_load("\n".join(body)) == {"tools": [{"name": "f", "parameters": {"type": "object"}}]}


def test_a_command_run_in_this_process_leaves_rich_as_it_found_it(tmp_path: Path) -> None:
    """The written-out controls are the command's: ``app.run`` puts rich's ``strip_control_codes`` back when it
    returns (a caller's own rich output in the process, a library user's test, keeps rich's behaviour), and the next
    command run in the same process writes them out again."""
    import rich.control
    import rich.text

    tool_file(tmp_path, NASTY)
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - from: tools.json\nmessages:\n  - {role: user, content: hi}\n")
    for _ in range(2):
        out = run_cli(["render", str(scenario), "-p", "openai"], env={"COLUMNS": "400", "OPENAI_API_KEY": "x"}).stdout
        assert "\\u0007" in "".join(line.strip("│ ") for line in out.splitlines()) and "\x07" not in out
        assert rich.text.strip_control_codes is rich.control.strip_control_codes
        assert rich.text.Text("a\x07b").plain == "ab"  # rich's own: BEL deleted, as rich documents
