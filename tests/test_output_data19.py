"""Output is data, round 19. An error line quoting a file name wrote it through ``printable``, which deletes escape
sequences and control characters: `a\\x1b[31mred.yaml` was shown as `ared.yaml`, `b\\x07.yaml` as `b.yaml`, a newline
as a space, so a user whose file name held one could not tell which file was meant. They are written out now as every
table writes them (``\\u001b``), never raw. And probe's title, broken by rich at any space, read `... · 1` over
`sample(s) per question` at 80 columns: a title of parts is broken only between two of them now."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Iterator

import pytest
from servers import StandIn

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


def test_a_trace_comment_names_the_file_with_its_newline_written_out(tmp_path: Path) -> None:
    """`trace FILE` names the file in its first comment; a newline in the name was a space there (`t x.json` for
    `t<newline>x.json`), so the note named another file: written out as the error line writes it."""
    name = "t\nrole: x\x1b[2J.json"
    (tmp_path / name).write_bytes((Path(__file__).parent / "data" / "traces" / "genai-span-events.json").read_bytes())
    result = run_cli(["trace", name], env=user_env(), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"# info trace.imported: {written_out(name)}: 2 LLM calls"), first
    assert not any(ch in result.stdout.replace("\n", "") for ch in RAW)


def test_a_path_in_a_line_a_command_writes_keeps_it_one_line(tmp_path: Path) -> None:
    """`init NAME` and `render --snapshot DIR --update` say the path they wrote: a newline in it was written raw,
    which split the line (and init's command to paste) in two. init's starter names itself in its comments: an ESC
    there made a scenario its own reader refused (`control character U+001B is not allowed`). The command to paste
    names the file as a $'...' word (written out as `'i n\\u001b...'`, it named another file): bash, reading it as
    printed, gives the file's own name; the starter's comments name it so too."""
    name = "i n\x1b[2J\nit.yaml"
    result = run_cli(["init", name], env=user_env(), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / name).is_file()
    line = result.stdout.removesuffix("\n")
    assert line.startswith(f"wrote {written_out(name)}: try `toolchoice compare ") and line.endswith("`")
    assert not any(ch in line for ch in RAW)
    pasted = line.removeprefix(f"wrote {written_out(name)}: try `").removesuffix("`")
    read = subprocess.run(["bash", "-c", "printf '%s\\0' " + pasted], capture_output=True, check=True).stdout
    assert read.split(b"\0")[:-1] == [b"toolchoice", b"compare", os.fsencode(name)]
    assert f"# Try it:   {pasted}  " in (tmp_path / name).read_text(encoding="utf-8")
    folder = "snap\nshots"
    result = run_cli(["render", name, "-p", "openai", "--snapshot", folder, "--update"], env=user_env(), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{written_out(folder)}: 1 snapshot files; wrote 1 new, updated 0, removed 0\n"


# ---- probe's title: broken only between its parts --------------------------------------------------------------

@pytest.fixture(scope="module")
def server() -> Iterator[StandIn]:
    with StandIn("openai") as running:
        yield running


def title_lines(stdout: str) -> list[str]:
    """The lines above the table: its top border, or its headers where it has no side borders."""
    lines = stdout.splitlines()
    return lines[:next(i for i, line in enumerate(lines) if line.startswith(("┌", "┏", "question ")))]


@pytest.mark.parametrize("columns", [60, 80])
def test_probe_title_keeps_each_part_whole(server: StandIn, columns: int) -> None:
    """The model id's length is chosen so that a break at any space falls between `1` and `sample(s)`: on the
    title's first line where the endpoint leaves room for it (80 columns), else on the next (60)."""
    head = f"probe openai · {server.base_url()}/chat/completions · "
    room = columns - len(head) - len(" · 1") if len(head) + len("m · 1") <= columns else columns - len(" · 1")
    model = "m" * room
    result = run_cli(["probe", "-p", "openai", "--base-url", server.base_url(), "--model", model, "--repeat", "1",
                      "--retries", "0", "--tool-choice", "none"],
                     env=user_env(columns, OPENAI_API_KEY="sk-probe-title"))
    assert result.returncode in (0, 1), result.stderr
    title = title_lines(result.stdout)
    assert all(len(line) <= columns for line in result.stdout.splitlines()), result.stdout
    assert "1 sample(s) per question" in title[-1], title  # whole, on a line of the title
    # nothing lost: the lines are the title's parts, broken only after a separator's `·`
    assert " ".join(title) == f"{head}{model} · 1 sample(s) per question", title
    assert all(line.endswith(" ·") for line in title[:-1]), title
    assert len(title) >= 2  # it did have to break


# ---- other titles of parts: render's and compare's dry run, the support matrix's legend ---------------------------

def before_table(stdout: str) -> list[str]:
    lines = stdout.splitlines()
    return lines[:next(i for i, line in enumerate(lines) if line[:1] in "┌┏" or line.startswith("provider"))]


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("length", [20, 28, 36])
def test_a_dry_run_title_is_broken_between_its_parts(tmp_path: Path, columns: int, length: int) -> None:
    """`NAME · 20 providers · dry run (nothing sent)`: `dry` over `run (nothing sent)` at 60 columns before."""
    name = ("s" * length)[:length - 5] + ".yaml"
    (tmp_path / name).write_text("tools: [{name: f, parameters: {type: object}}]\ntool_choice: auto\n"
                                 "messages: [{role: user, content: hi}]\n", encoding="utf-8")
    result = run_cli(["render", name], env=user_env(columns), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    title = before_table(result.stdout)
    assert " ".join(title) == f"{name} · 20 providers · dry run (nothing sent)", title
    assert all(line.endswith(" ·") for line in title[:-1]), title


@pytest.mark.parametrize("columns", [60, 80])
def test_the_support_matrix_legend_keeps_each_mark_beside_its_word(columns: int) -> None:
    """`✘` ended the legend's first line and `unsupported)` began the next at 60 columns."""
    result = run_cli(["providers"], env=user_env(columns))
    assert result.returncode == 0, result.stderr
    legend = [line.strip() for line in before_table(result.stdout)]
    assert "  ".join(legend) == "tool_choice support (✔ native  → renamed  ≈ emulated  ✘ unsupported)", legend
    assert all(len(line) <= columns for line in result.stdout.splitlines())
