"""The README's example commands still run and print what it shows, at COLUMNS=100 without colour.

Every ``$ toolchoice ...`` line in a plain fenced block is run in-process (tests/cli.py) and its
output (stdout, then stderr) compared with the lines under it; ``$ echo $?`` compares the exit code.
Examples whose output is shortened (a line ``...``) are not compared. Commands that send (``send``, ``probe``, ``compare --send``) were recorded against the real local model
of "Try it against a real local model" and are checked by the realmodel tests instead. Refresh on
purpose with TOOLCHOICE_UPDATE_README=1."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from toolchoice.providers.core.capabilities import CAPABILITIES

from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
KEY_VARS = {env for cap in CAPABILITIES.values() for env in cap.key_env}


def plain_blocks(text: str) -> list[list[str]]:
    """The lines of each fenced block opened by a bare ``` (no language), fences paired in order."""
    blocks, current, inside = [], None, False
    for line in text.splitlines():
        if line.startswith("```"):
            if inside:
                if current is not None:
                    blocks.append(current)
                current, inside = None, False
            else:
                current, inside = ([] if line == "```" else None), True
        elif current is not None:
            current.append(line)
    return blocks


def offline(command: str) -> bool:
    words = shlex.split(command)
    # doctor's output is this machine's (keys set, versions): shown in the README, not compared; `run`
    # sends unless it replays a saved transcript or only renders step 1
    if words[1:2] == ["run"] and not {"--replay", "--dry-run"} & set(words):
        return False
    return words[:1] == ["toolchoice"] and words[1] not in ("send", "probe", "doctor") and "--send" not in words


def examples(text: str) -> list[tuple[str, str, str | None]]:
    """(command, shown output, shown exit code or None) for each offline example."""
    out = []
    for lines in plain_blocks(text):
        i = 0
        while i < len(lines):
            if lines[i].startswith("$ toolchoice "):
                command = lines[i][2:]
                j = i + 1
                while j < len(lines) and not lines[j].startswith("$ "):
                    j += 1
                code = lines[j + 1] if j < len(lines) and lines[j] == "$ echo $?" else None
                elided = any(line.strip() == "..." for line in lines[i + 1:j])  # a shortened example
                if offline(command) and not elided:
                    out.append((command, "\n".join(lines[i + 1:j]), code))
                i = j
            else:
                i += 1
    return out


def run_example(command: str) -> tuple[str, int]:
    env = {k: v for k, v in os.environ.items() if k not in KEY_VARS}
    env.update({"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"})
    result = run_cli(shlex.split(command)[1:], env=env, cwd=ROOT)
    text = (result.stdout + result.stderr).replace(str(ROOT), ".")  # paths as they read from the checkout
    return "\n".join(line.rstrip() for line in text.rstrip("\n").splitlines()), result.returncode


def test_the_readme_shows_every_command():
    text = README.read_text()
    shown = {shlex.split(c)[1] for c, _, _ in examples(text)}
    assert {"render", "compare", "parse", "providers", "schema", "init"} <= shown, shown
    for command in ("send", "probe", "doctor"):
        assert f"$ toolchoice {command} " in text, command


def keys_markdown() -> str:
    """The README's key list, from the capability rows: each key variable (or its alternatives) with the
    providers that read it, then the local servers that send without one."""
    import textwrap

    from toolchoice.cli.doctor_cmd import _key_optional

    optional = _key_optional()
    needed: dict[tuple[str, ...], list[str]] = {}
    local = []
    for provider, cap in CAPABILITIES.items():
        if optional[provider]:
            local.append(f"{provider} (`{cap.key_env[0]}` if yours wants one)")
        else:
            needed.setdefault(cap.key_env, []).append(provider)
    parts = [" or ".join(f"`{v}`" for v in names) + f" ({', '.join(ids)})" for names, ids in needed.items()]
    text = ", ".join(parts) + "; local servers need none: " + ", ".join(local) + "."
    return "\n".join(textwrap.wrap(text, 115, break_long_words=False, break_on_hyphens=False))


def matrix_markdown() -> str:
    from toolchoice.cli.providers_cmd import matrix_markdown

    return matrix_markdown()


# Blocks of the README generated from the capability rows, between these markers
GENERATED = {"support matrix": matrix_markdown, "key variables": keys_markdown}


def generated_block(text: str, name: str) -> tuple[int, int]:
    """Where the generated block ``name`` sits in ``text``: (start, end) of the lines between its markers."""
    begin = f"<!-- generated: {name} (tests/test_readme.py; TOOLCHOICE_UPDATE_README=1 rewrites it) -->\n"
    start = text.index(begin) + len(begin)
    return start, text.index(f"<!-- end generated: {name} -->", start)


if os.environ.get("TOOLCHOICE_UPDATE_README"):
    text = README.read_text()
    for name, make in GENERATED.items():
        start, end = generated_block(text, name)
        text = text[:start] + make() + "\n" + text[end:]
    for command, shown, _ in examples(text):
        fresh, _ = run_example(command)
        old = f"$ {command}\n{shown}\n" if shown else f"$ {command}\n"
        text = text.replace(old, f"$ {command}\n{fresh}\n", 1)
    README.write_text(text)


@pytest.mark.parametrize("command, shown, code", examples(README.read_text()), ids=lambda v: str(v)[:60])
def test_readme_example_prints_what_the_readme_shows(command, shown, code):
    fresh, returncode = run_example(command)
    assert fresh == "\n".join(line.rstrip() for line in shown.splitlines())
    if code is not None:
        assert str(returncode) == code


def test_the_set_up_is_two_lines_in_a_virtual_environment_and_ci_runs_them_as_written():
    block = re.search(r"^## Set-up.*?^```bash\n(.*?)^```$", README.read_text(), re.M | re.S)
    assert block is not None
    lines = block.group(1).splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("python3 -m venv .venv && . .venv/bin/activate && pip install -e . && toolchoice ")
    ci = (ROOT / ".ci" / "run").read_text()
    assert "sed -n '/^## Set-up/,/^## /p' README.md" in ci and 'eval "${SETUP[0]}"' in ci and 'eval "${SETUP[1]}"' in ci


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_the_generated_blocks_are_what_the_rows_say(name):
    text = README.read_text()
    start, end = generated_block(text, name)
    assert text[start:end] == GENERATED[name]() + "\n", f"regenerate with TOOLCHOICE_UPDATE_README=1 ({name})"
