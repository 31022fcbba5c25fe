"""Every command's `--help` at 60 and 80 columns keeps every word whole and loses nothing (a new user's trial:
typer's option table cut `anthropic=claude-sonnet-5` into `anthropic=clau` / `de-sonnet-5`, `docs/render.md`
into `docs/render.m` / `d`, and the ranges `[0.1<=x<=3600.0]` in two, because the type column took the room).

The truth is the source: the options as the commands declare them (their names, help text, ranges, defaults,
whether required, read from the click parameters typer builds), not the drawing code. Each line is measured
with rich's own `cell_len`; a word is whole when it is one whitespace-separated token of the output."""

from __future__ import annotations

import functools
import os
from typing import Any

import pytest
import typer
from rich.cells import cell_len
from rich.markup import render as markup

from typer.core import TyperArgument

from toolchoice.cli.app import COMMANDS, build

from cli import run_cli

BORDERS = "│╭╮╰╯─"


@functools.cache  # the two tests below read the same 28 helps (command × width): drawn once each, read by both
def help_of(command: str | None, columns: int) -> str:
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    done = run_cli([*([command] if command else []), "--help"],
                   env=environ | {"COLUMNS": str(columns), "TERM": "dumb", "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def tokens(text: str) -> list[str]:
    """The output's words: what stands between spaces once the panels' borders are taken away."""
    return text.translate({ord(c): " " for c in BORDERS}).split()


def row_start(out: str, names: list[str]) -> int | None:
    """Where an option's row starts among the output's words: the line that begins with one of its names
    (after the required mark `*`), not a mention of the option in another option's help."""
    seen = 0
    for line in out.splitlines():
        words = tokens(line)
        lead = words[1:2] if words[:1] == ["*"] else words[:1]
        if lead and any(name in names for name in lead[0].split(",")):  # typer joins the long names with ","
            return seen + (1 if words[:1] == ["*"] else 0)
        seen += len(words)
    return None


def declared(command: str) -> list[Any]:
    group = typer.main.get_command(build([command]))
    return [p for p in group.commands[command].params if not getattr(p, "hidden", False)]  # type: ignore[attr-defined]


def in_order(words: list[str], out: list[str], start: int = 0) -> list[str]:
    """The words not found whole, in order, from ``start`` on (other columns' words may stand between)."""
    missing, at = [], start
    for word in words:
        try:
            at = out.index(word, at) + 1
        except ValueError:
            missing.append(word)
    return missing


def expected_words(param: Any) -> list[str]:
    """What a reader must find for one option, from its declaration: the help in typer's rich markup (the
    commands write `\\[` for a bracket) read as markup."""
    return markup((getattr(param, "help", None) or "").replace("\n", " ")).plain.split()


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_option_s_words_stay_whole(command, columns):
    out = help_of(command, columns)
    lines = out.splitlines()
    assert max(cell_len(line) for line in lines) <= columns, [line for line in lines if cell_len(line) > columns]
    words = tokens(out)
    assert "…" not in out
    for param in declared(command):
        names = [*param.opts, *param.secondary_opts]
        if isinstance(param, TyperArgument):
            names = [param.metavar or param.name]
        first = row_start(out, names)
        assert first is not None, (command, names)
        missing = in_order(expected_words(param), words, first)
        assert not missing, (command, param.name, missing)
        kind = param.type
        if hasattr(kind, "min") and hasattr(kind, "max"):  # click's IntRange / FloatRange
            bound = f"{kind.min}<=x<={kind.max}" if kind.max is not None else f"x>={kind.min}"
            assert any(bound in w for w in words[first:]), (command, param.name, bound)
        if hasattr(kind, "choices"):  # click's Choice
            choices = [str(c) for c in kind.choices]
            assert any(all(c in w for c in choices) for w in words[first:]), (command, param.name, choices)
        if param.required:
            assert "[required]" in words[first:], (command, param.name)
        default = param.default
        if (getattr(param, "show_default", False) and not isinstance(default, bool) and default is not None
                and default != [] and default != ()):
            value = getattr(default, "value", default)
            at = in_order(["[default:"], words, first)
            assert not at, (command, param.name)
            after = words[words.index("[default:", first) + 1]
            assert after.rstrip("]") == str(value), (command, param.name, after, value)


@pytest.mark.parametrize("columns", [60, 80])
def test_the_command_list_keeps_its_words_whole(columns):
    out = help_of(None, columns)
    assert max(cell_len(line) for line in out.splitlines()) <= columns
    words = tokens(out)
    group = typer.main.get_command(build())
    for name in COMMANDS:
        first = words.index(name)
        summary = (group.commands[name].help or "").split("\n\n")[0]  # type: ignore[attr-defined]
        missing = in_order(markup(" ".join(summary.split())).plain.split(), words, first)
        assert not missing, (name, missing)


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("command", list(COMMANDS))
def test_each_command_s_usage_and_description_keep_their_words_whole(command, columns):
    """The usage line too: `schema`'s argument was `{name}:<scenario|render|send|...>`, cut at 80 and 60."""
    words = tokens(help_of(command, columns))
    group = typer.main.get_command(build([command]))
    sub = group.commands[command]  # type: ignore[attr-defined]
    ctx = sub.make_context(command, [], resilient_parsing=True)
    usage = ["Usage:", "toolchoice", command, *" ".join(sub.collect_usage_pieces(ctx)).split()]
    assert not in_order(usage, words), usage
    text = (sub.help or "").partition("\f")[0]
    assert not in_order(markup(" ".join(text.split())).plain.split(), words)
