"""Layout leftovers (trial15e), each against a layout written out by hand from the rule (cli/word_breaks.py: a word
wider than its line breaks after a `/`, `?`, `&` or `,`, else after a `.`, `_` or `-`, else at the width; its first
piece beside the words before it only where it ends after a `/`, `?`, `&` or `,`):

- a ledger message quoting JSON (call_lines.prose_lines) started a long word on a new line even where its first
  piece fitted beside the words before it; so did a call's indented arguments (indented_lines);
- an IP address, a host and its port, a version or a float that a line holds whole was broken at its dots
  (`http://10.200.30.` over `40:8443/v1` in a 17-column cell);
- `--help` broke a long word by the rule only where a command's printer had been built before in the process;
- the rule no longer replaces rich's private ``divide_line`` in rich.text (a hasattr-guarded patch of the whole
  process): the printer draws each Text through ``word_breaks.wrap``, rich's Text.wrap made of Text's public
  methods, held here to rich's own Text.wrap wherever no word is wider than its line.
"""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from toolchoice.cli import word_breaks
from toolchoice.cli.call_lines import indented_lines, prose_lines
from toolchoice.cli.word_breaks import word_pieces

DOTTED = re.compile(r"(?<![\d.])\d+(?:\.\d+)+(?:[eE][-+]?\d+)?(?::\d+)?(?!\d)")  # an IP address, a version, a float; a port after it


def drawn(renderable, width: int) -> str:
    from toolchoice.cli.output import new_console

    console = new_console(width=width)
    with console.capture() as captured:
        console.print(renderable)
    return captured.get()


# 1. a long word in a line quoting JSON: its first piece beside the words before it where it ends after a `/`

MESSAGE = 'base https://gw.example.com/a/very/long/path/segment/v1/chat/completions/and/more/and/more sends {"type":"any"}'


def test_a_ledger_message_quoting_json_keeps_a_url_s_first_piece_beside_the_words_before_it():
    from toolchoice.cli.output import ledger_table
    from toolchoice.providers.core.model import LedgerEntry

    table = ledger_table([LedgerEntry("info", "tool_choice.mapped", MESSAGE)], 80)
    assert drawn(table, 80) == """\
┏━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ severity ┃ code               ┃ what changed / what to know                  ┃
┡━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ info     │ tool_choice.mapped │ base https://gw.example.com/a/very/long/     │
│          │                    │ path/segment/v1/chat/completions/and/more/   │
│          │                    │ and/more sends {"type":"any"}                │
└──────────┴────────────────────┴──────────────────────────────────────────────┘
"""
    # at 60 the column is 24 wide: after "base " no piece ending after a `/` fits 19 cells (`https://gw.example.`
    # ends after a `.`), so the URL starts the next line, as rich starts it
    table = ledger_table([LedgerEntry("info", "tool_choice.mapped", MESSAGE)], 60)
    assert drawn(table, 60) == """\
┏━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃          ┃                    ┃ what changed / what to   ┃
┃ severity ┃ code               ┃ know                     ┃
┡━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ info     │ tool_choice.mapped │ base                     │
│          │                    │ https://gw.example.com/  │
│          │                    │ a/very/long/path/        │
│          │                    │ segment/v1/chat/         │
│          │                    │ completions/and/more/    │
│          │                    │ and/more sends           │
│          │                    │ {"type":"any"}           │
└──────────┴────────────────────┴──────────────────────────┘
"""


def test_prose_and_indented_arguments_break_a_long_word_beside_the_words_before_it():
    url = "https://gateway.example.com/a/very/long/path/segment/that/goes/on/v1/chat/completions"
    line = f'base URL {url} sends tool_choice {{"type":"function","function":{{"name":"x"}}}}'
    assert prose_lines(line, 40) == [
        "base URL https://gateway.example.com/a/",
        "very/long/path/segment/that/goes/on/v1/",
        "chat/completions sends tool_choice",
        '{"type":"function",',
        '"function":{"name":"x"}}']
    assert indented_lines(json.dumps({"endpoint": f"see {url}"}, indent=2), 40) == [
        "{",
        '  "endpoint":',
        '    "see https://gateway.example.com/a/',
        "    very/long/path/segment/that/goes/on/",
        '    v1/chat/completions"',
        "}"]


WORD = st.one_of(st.text(st.sampled_from(list("abcdefgh0123/?&,._-")), min_size=1, max_size=70),
                st.lists(st.text(st.sampled_from(list("abcdefgh.")), min_size=1, max_size=9), min_size=2,
                         max_size=12).map("/".join))  # a path: its first piece may go beside the words before it


@settings(max_examples=60, deadline=None, database=None, derandomize=True)
@given(st.lists(st.one_of(WORD, st.sampled_from(["see", "the", "base", "URL"])), min_size=1, max_size=8),
       st.sampled_from([17, 24, 33, 44]))
def test_a_line_quoting_json_breaks_its_words_as_the_printer_wraps_them(words, width):
    """A line of words and a short JSON object at its end: the lines prose_lines makes are the lines the printer's
    wrap makes of the same text (the JSON fits a line: one word to rich)."""
    from rich.text import Text

    from toolchoice.cli.output import new_console

    line = " ".join(words) + ' {"a":1}'
    lines = prose_lines(line, width)
    console = new_console(width=width)
    wrapped = [piece.plain.rstrip(" ") for piece in word_breaks.wrap(Text(line), console, width, overflow="fold")]
    assert lines is None and all(cell_len(piece) <= width for piece in wrapped) or lines == wrapped, (lines, wrapped)


LONG_NAME = "lookup_the_current_weather_for_a_city_by_its_name_and_units_ok"  # 62: a call's name and bracket, 63


def test_a_call_s_name_wider_than_its_line_is_broken_by_the_rule_not_shortened():
    """A tool's name and its bracket wider than the column (compare --send's calls at 60): shortened, it read
    `lookup_the_current_weather_for_a_city_by_its_na…` over the arguments, its end and its bracket lost."""
    from toolchoice.cli.call_lines import call_lines

    line = LONG_NAME + '({"city":"example","units":"celsius"})'
    assert call_lines(line, 30) == ["lookup_the_current_weather_", "for_a_city_by_its_name_and_",
                                    'units_ok({"city":"example",', '"units":"celsius"})']
    assert call_lines(line, 56) == ["lookup_the_current_weather_for_a_city_by_its_name_and_",
                                    'units_ok({"city":"example","units":"celsius"})']


@pytest.mark.parametrize("columns", (60, 80))
def test_compare_send_shows_a_long_tool_name_whole(tmp_path, columns):
    from test_call_layout import environment

    from cli import run_cli
    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("openai") as openai:
        (tmp_path / "s.yaml").write_text(
            f"tools:\n  - name: {LONG_NAME}\n    parameters: {{type: object, properties: {{city: {{type: string}}}}}}\n"
            "tool_choice: required\nmessages:\n  - {role: user, content: Weather in Paris?}\n"
            f"providers:\n  openai: {{base_url: '{openai.base_url}'}}\n", encoding="utf-8")
        done = run_cli(["compare", "s.yaml", "--send", "--retries", "0"], env=environment(columns), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(cell_len(line) <= columns for line in lines), done.stdout
    record = "".join(line.strip("│ ") for line in lines if line.startswith("│")).replace("\xa0", " ")
    assert f"calls {LONG_NAME}({{" in record and "…" not in record, done.stdout


# 3. a number with dots, a host and its port: whole where the line holds it

def test_an_address_a_version_and_a_float_stay_whole_where_they_fit():
    assert word_pieces("http://127.0.0.1:8080/v1/chat", 17) == ["http://", "127.0.0.1:8080/", "v1/chat"]
    assert word_pieces("10.200.30.40:8443/v1/chat", 17) == ["10.200.30.40:8443", "/v1/chat"]
    assert word_pieces("foo.bar.baz-3.57.0", 14) == ["foo.bar.baz-", "3.57.0"]
    assert word_pieces("temperature=0.123456789", 17) == ["temperature=", "0.123456789"]
    assert word_pieces("http://api.example.com:443/v1/chat/completions", 20) == [
        "http://", "api.example.com:443/", "v1/chat/completions"]
    # longer than the line: broken at its dots as any dotted name
    assert word_pieces("10.200.300.400:65535", 17) == ["10.200.300.", "400:65535"]


def test_a_17_column_cell_keeps_an_address_and_a_version_whole():
    from rich.table import Table

    table = Table()
    table.add_column("endpoint", width=17, overflow="fold")
    table.add_column("note", overflow="fold")
    table.add_row("http://10.200.30.40:8443/v1 v3.57.0 build-1.2345e-07", "api.example.com:443/v1/chat/completions")
    assert drawn(table, 40) == """\
┏━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━┓
┃ endpoint          ┃ note             ┃
┡━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━┩
│ http://           │ api.example.     │
│ 10.200.30.40:8443 │ com:443/v1/chat/ │
│ /v1 v3.57.0       │ completions      │
│ build-1.2345e-07  │                  │
└───────────────────┴──────────────────┘
"""


NUMBER = st.builds(lambda parts, port: ".".join(map(str, parts)) + (f":{port}" if port is not None else ""),
                   st.lists(st.integers(0, 65535), min_size=2, max_size=4), st.none() | st.integers(1, 65535))
PARTS = st.lists(st.one_of(NUMBER, st.text(st.sampled_from(list("abcxyz/?&,._-:=")), min_size=1, max_size=12)),
                 min_size=2, max_size=8)


@settings(max_examples=120, deadline=None, database=None, derandomize=True)
@given(PARTS, st.integers(8, 40))
def test_a_number_with_dots_is_broken_only_where_it_is_wider_than_the_line(parts, width):
    word = "".join(parts)
    pieces = word_pieces(word, width)
    assert "".join(pieces) == word
    assert all(cell_len(piece) <= width for piece in pieces), (pieces, width)
    ends = [sum(map(len, pieces[:k + 1])) for k in range(len(pieces) - 1)]
    for found in DOTTED.finditer(word):
        if len(found.group()) <= width:
            assert not [at for at in ends if found.start() < at < found.end()], (found.group(), pieces, width)


# 2. --help: the rule whether or not a command's printer was built in the process

URL = "https://docs.example.com/reference/tool_choice/providers/openai-compatible/options.html#base-url"
HELP = {
    60: """\
│ --endpoint-base-url-for-the-gateway <str>                │
│     Where requests go (see https://docs.example.com/     │
│     reference/tool_choice/providers/openai-compatible/   │
│     options.html#base-url), e.g.                         │
│     http://10.200.30.40:8443/v1.                         │""",
    80: """\
│ --endpoint-base-url-for-the-gateway <str>                                    │
│     Where requests go (see https://docs.example.com/reference/tool_choice/   │
│     providers/openai-compatible/options.html#base-url), e.g.                 │
│     http://10.200.30.40:8443/v1.                                             │""",
}


@pytest.fixture
def rich_s_own_wrap():
    """rich's own divide_line in rich.text before the test and after it: nothing here patches rich."""
    import rich._wrap
    import rich.text

    assert rich.text.divide_line is rich._wrap.divide_line
    yield
    assert rich.text.divide_line is rich._wrap.divide_line


@pytest.mark.parametrize("columns", (60, 80))
def test_help_breaks_a_long_word_by_the_rule_with_no_printer_built(rich_s_own_wrap, monkeypatch, columns):
    import typer

    from toolchoice.cli.app import _fold_help_cells

    app = typer.Typer()

    @app.command()
    def main(endpoint: str = typer.Option("", "--endpoint-base-url-for-the-gateway",
                                          help=f"Where requests go (see {URL}), e.g. http://10.200.30.40:8443/v1.")
             ) -> None:
        """Try."""

    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    _fold_help_cells()  # what `toolchoice ... --help` does first (cli/app.py)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        typer.main.get_command(app).main(["--help"], prog_name="x", standalone_mode=False)
    lines = [line.rstrip() for line in out.getvalue().splitlines()]
    assert HELP[columns] in "\n".join(lines), out.getvalue()
    assert all(cell_len(line) <= columns for line in lines)


@pytest.mark.parametrize("columns", (60, 80))
def test_the_commands_help_stays_within_the_width(rich_s_own_wrap, columns):
    from test_call_layout import environment

    from cli import run_cli

    for command in ("render", "run", "providers"):
        done = run_cli([command, "--help"], env=environment(columns))
        assert done.returncode == 0, done.stderr
        assert all(cell_len(line) <= columns for line in done.stdout.splitlines()), done.stdout


# 4. rich's Text.wrap, through Text's public methods with the rule's divide_line: where no word is wider than its line,
# the lines (text and styles) rich's own Text.wrap makes, on the installed rich

STYLED = st.lists(st.tuples(st.text(st.sampled_from(list("ab c\t日é-/.")), min_size=1, max_size=12),
                            st.sampled_from(["", "bold", "red", "dim italic"])), min_size=1, max_size=8)


@settings(max_examples=120, deadline=None, database=None, derandomize=True)
@given(STYLED, st.integers(1, 30), st.sampled_from([None, "left", "right", "center", "full"]),
       st.sampled_from([None, "fold", "crop", "ellipsis", "ignore"]), st.sampled_from([None, False, True]),
       st.sampled_from(["\n", ""]))
def test_the_printer_s_wrap_is_rich_s_where_every_word_fits(parts, width, justify, overflow, no_wrap, newline):
    from rich.text import Text

    from toolchoice.cli.output import new_console

    text = Text(newline.join(["", ""]))
    for words, style in parts:
        text.append(words + newline, style=style)
    text.expand_tabs(4)  # tabs expanded as wrap expands them: a word's width is then its width in the line
    if any(cell_len(word) > width for word in re.findall(r"\s*\S+", text.plain)):  # rich's words, spaces before
        return                                                                       # them counted: none too wide
    console = new_console(width=width)
    ours = word_breaks.wrap(text, console, width, justify=justify, overflow=overflow, no_wrap=no_wrap)
    rich_s = text.wrap(console, width, justify=justify, overflow=overflow, no_wrap=no_wrap)
    assert [(line.plain, line.spans) for line in ours] == [(line.plain, line.spans) for line in rich_s]


def test_a_drawn_text_goes_through_the_rule_and_rich_is_left_as_it_is(rich_s_own_wrap):
    from rich.text import Text

    line = "see the source at https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html now"
    expected = ("see the source at https://docs.aws.amazon.com/bedrock/\n"
                "latest/userguide/claude-messages-adaptive-thinking.html now\n")
    assert drawn(line, 60) == drawn(Text(line, style="bold"), 60) == expected
    from rich.console import Console

    plain = Console(width=60, file=io.StringIO(), color_system=None)  # another console in the process: rich's fold
    with plain.capture() as captured:
        plain.print(Text(line))
    assert [line.rstrip() for line in captured.get().splitlines()] == [
        "see the source at", "https://docs.aws.amazon.com/bedrock/latest/userguide/claude-",
        "messages-adaptive-thinking.html now"]
