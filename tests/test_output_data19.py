"""Output is data, round 19. An error line quoting a file name wrote it through ``printable``, which deletes escape
sequences and control characters: `a\\x1b[31mred.yaml` was shown as `ared.yaml`, `b\\x07.yaml` as `b.yaml`, a newline
as a space, so a user whose file name held one could not tell which file was meant. They are written out now as every
table writes them (``\\u001b``), never raw."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from cli import refused, run_cli, user_env

BROKEN_YAML = "tools: [\nbroken"  # line 2 names the file: `NAME:2:7: invalid YAML ...`


def written_out(text: str) -> str:
    """``text`` as a user must see it, worked out from Unicode's own categories, not from the product: a control
    character (Cc: ESC, BEL, CR, newline) or a format character (Cf: the bidi override U+202E) or a lone surrogate
    (Cs) written as its code point, ``\\u001b``; every other character as it is."""
    return "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Cf", "Cs") else ch for ch in text)


RAW = [chr(c) for c in (*range(0x00, 0x09), *range(0x0a, 0x20), *range(0x7f, 0xa0))] + ["\u202e"]


@pytest.mark.parametrize("name", [
    "a\x1b[31mred\x1b[0m.yaml",  # an escape sequence: it was deleted whole, `ared.yaml`
    "b\x07bell.yaml",
    "c\rcarriage.yaml",
    "d\nnewline.yaml",  # was a space
    "e\u202eevil.yaml",  # a bidi override: it reorders what the terminal shows
])
def test_an_error_line_writes_out_every_control_character_of_a_file_name(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(BROKEN_YAML, encoding="utf-8")
    (tmp_path / written_out(name).replace("\\", "_")).write_text(BROKEN_YAML, encoding="utf-8")  # a near namesake
    line = refused(run_cli(["render", name, "-p", "openai"], env=user_env(), cwd=tmp_path))
    assert not any(ch in line[:-1] for ch in RAW), repr(line)  # one line, nothing raw for the terminal to act on
    assert line.startswith(f"toolchoice: error: {written_out(name)}:2:7: invalid YAML"), line


def test_two_names_that_differ_by_an_escape_get_two_lines(tmp_path: Path) -> None:
    """`ared.yaml` and `a\\x1b[31mred.yaml` both exist: their error lines were the same line."""
    lines = set()
    for name in ("ared.yaml", "a\x1b[31mred.yaml"):
        (tmp_path / name).write_text(BROKEN_YAML, encoding="utf-8")
        lines.add(refused(run_cli(["render", name, "-p", "openai"], env=user_env(), cwd=tmp_path)))
    assert len(lines) == 2, lines


def test_a_bytes_file_name_no_encoding_decodes_is_written_out(tmp_path: Path) -> None:
    """A real process (the bytes of argv, the bytes of stderr): a name that is not UTF-8 reaches Python as a lone
    surrogate (PEP 383), which no UTF-8 stderr can write raw; it is written out as its code point, and a file that
    does not exist is named the same way."""
    name = b"f\xff\x1b[2Jbad.yaml"
    (tmp_path / os.fsdecode(name)).write_bytes(BROKEN_YAML.encode())
    env = {**user_env(), "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"}
    for argument, said in ((name, ":2:7: invalid YAML"), (b"gone\xfe\x07.yaml", ": no such file")):
        result = subprocess.run([sys.executable, "-m", "toolchoice", "render", argument, "-p", "openai"],
                                capture_output=True, cwd=tmp_path, env=env)
        assert result.returncode == 2 and result.stdout == b"", result
        line = result.stderr.decode("utf-8")
        assert line.count("\n") == 1 and not any(ch in line[:-1] for ch in RAW), line
        assert line.startswith(f"toolchoice: error: {written_out(os.fsdecode(argument))}{said}"), line


def test_a_warning_line_writes_out_what_it_quotes(tmp_path: Path) -> None:
    """`--model` given to several providers is quoted in a warning, which wrote it raw (an ESC reached the
    terminal): written out as the error line writes it."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools: [{name: f, parameters: {type: object}}]\ntool_choice: auto\n"
                        "messages: [{role: user, content: hi}]\n", encoding="utf-8")
    model = "m\x1b[2J\x07\u202ex"
    result = run_cli(["compare", str(scenario), "-p", "openai,anthropic", "--model", model], env=user_env())
    assert result.returncode == 0, result.stderr
    [warning] = [line for line in result.stderr.splitlines() if line.startswith("toolchoice: warning: --model")]
    assert warning.startswith(f"toolchoice: warning: --model {written_out(model)} goes to 2 providers"), warning
    assert not any(ch in result.stderr.replace("\n", "") for ch in RAW)
