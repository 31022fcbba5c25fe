"""A URL, a file path or a long dotted name wider than the space it has (trial14j): rich folded it at any character
(`…/userguide/claude-m` over `essages-adaptive-thinking.html`, `create-chat-completio` over `n:`); it now breaks
after a `/`, `?`, `&` or `,`, else after a `.`, `_` or `-`, and folds at the width only where no such point fits
(cli/word_breaks.py). Held here at 60 and 80 columns against the commands' own words (`-f json`, the scenario's
URLs and path): every line within the width, each long word drawn whole or in pieces that join to it, each break
inside it after a point. The sends go to a closed port on 127.0.0.1, in-process (tests/cli.py)."""

from __future__ import annotations

import json
import re
import socket

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from test_call_layout import environment

from cli import run_cli
from toolchoice.cli.word_breaks import FIRST, THEN, text_lines, word_pieces

POINTS = FIRST | THEN
WIDTHS = (60, 80)
FOLDERS = ("a_very_long_folder_name_for_projects", "another-quite-long-folder.name",
           "scenarios_for_tool_choice_testing", "deeper")
SCENARIO = """tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
tool_choice: required
messages:
  - {role: user, content: Weather in Paris?}
providers:
  openai: {base_url: "OPENAI_URL"}
  anthropic: {base_url: "ANTHROPIC_URL"}
"""


def streams(text: str) -> dict[object, list[str]]:
    """The drawn text's lines as streams of what they hold, border and padding off: the lines outside tables are
    one stream, each bordered table column another (by its place among the line's cells)."""
    out: dict[object, list[str]] = {}
    for line in text.splitlines():
        if "│" in line or "┃" in line:
            cells = re.split("[│┃]", line)
            for k, cell in enumerate(cells):
                out.setdefault((len(cells), k), []).append(cell.strip())
        elif not set(line) <= set("─━┏┓┗┛┡┩┌┐└┘├┤┼┬┴╇┳┻╋ "):
            out.setdefault("text", []).append(line.strip())
    return out


def breaks_inside(text: str, word: str) -> list[list[int]]:
    """For each place ``word`` is drawn in ``text`` (whole on a line or in pieces over lines), where its line
    breaks fall inside it."""
    found = []
    for lines in streams(text).values():
        joined, ends, at = "", [], 0
        for line in lines:
            joined += line
            at += len(line)
            ends.append(at)
        start = joined.find(word)
        while start >= 0:
            found.append([end - start for end in ends if start < end < start + len(word)])
            start = joined.find(word, start + 1)
    return found


def assert_broken_at_points(text: str, word: str, columns: int, broken: bool = False) -> None:
    """``word`` drawn, its pieces joining to it, each break inside it after a point; ``broken``: it is broken."""
    found = breaks_inside(text, word)
    assert found, (word, text)
    for cuts in found:
        assert all(word[cut - 1] in POINTS for cut in cuts), (word, cuts, text)
    if broken:
        assert any(found), (word, text)
    assert all(cell_len(line) <= columns for line in text.splitlines()), text


# the rule itself: pieces that join to the word, none wider than the line, a fold only where no point fits
ALPHABET = st.sampled_from(list("abcdefgh0123") + list("/?&,._-") + ["日", "é"])
# a URL, a path or a dotted name: parts between points (any text folds too: ALPHABET)
PART = st.tuples(st.text(st.sampled_from(list("abcdefgh0123日é")), min_size=1, max_size=14),
                 st.sampled_from(list("/?&,._-") + ["", "//"]))
NAMES = st.lists(PART, min_size=2, max_size=16).map(lambda parts: "".join(text + point for text, point in parts))
WORDS = st.one_of(st.text(ALPHABET, min_size=1, max_size=240), NAMES)


# a number with dots (an IP address, a version, a float; a port after it) the line holds: never broken inside
# (trial15e: `127.0.0.` over `1:8080` in a 17-column cell), a break before it where it does not fit beside
DOTTED = re.compile(r"(?<![\d.])\d+(?:\.\d+)+(?:[eE][-+]?\d+)?(?::\d+)?(?![\d])")


def dotted_whole(word: str, width: int) -> list[tuple[int, int]]:
    return [m.span() for m in DOTTED.finditer(word) if cell_len(m.group()) <= width]


def assert_folded_only_without_points(pieces: list[str], width: int) -> None:
    """Each piece but the last ends after a point, or is folded at the width: the next character would not fit,
    and no point a quarter of the line in or further was there; or it ends where a dotted number the line holds
    starts or ends. No break falls inside such a number, whose own dots are no points."""
    numbers = dotted_whole("".join(pieces).rstrip(), width)
    offset = 0
    for k, piece in enumerate(pieces[:-1]):
        at = offset + len(piece)
        assert not any(low < at < high for low, high in numbers), (pieces, width)
        inside = [(low - offset, high - offset) for low, high in numbers if high > offset and low <= at]
        offset = at
        if piece[-1] in POINTS or any(len(piece) in (low, high) for low, high in inside):
            continue  # after a point, or at a dotted number's start or end
        assert cell_len(piece + pieces[k + 1][0]) > width, (pieces, width)
        least = max(1, width // 4)
        points = [p for p in range(1, len(piece)) if piece[p - 1] in POINTS and piece[p] != piece[p - 1]
                  and cell_len(piece[:p]) >= least and not any(low < p < high for low, high in inside)]
        assert not points, (pieces, width)


@settings(max_examples=300, deadline=None, database=None, derandomize=True)
@given(WORDS, st.integers(1, 90), st.sampled_from(["", " ", "  "]))
def test_pieces_join_to_the_word_and_fit_the_line(word, width, trail):
    pieces = word_pieces(word + trail, width)
    assert "".join(pieces) == word + trail
    assert all(piece for piece in pieces)
    for k, piece in enumerate(pieces):
        core = piece.rstrip() if k == len(pieces) - 1 else piece
        assert cell_len(core) <= width or len(core) == 1, (pieces, width)
    assert_folded_only_without_points(pieces, width)


@settings(max_examples=200, deadline=None, database=None, derandomize=True)
@given(st.lists(st.one_of(WORDS, st.sampled_from(["see", "the", "source", "(POST", "reading"])), min_size=1, max_size=12),
       st.sampled_from([60, 80, 17, 33]))
def test_the_printer_s_wrap_draws_every_piece_within_the_width(words, width):
    """The printer's wrap of a table cell or a note (word_breaks.wrap: rich's Text.wrap with divide_line)."""
    from rich.text import Text

    from toolchoice.cli.output import new_console
    from toolchoice.cli.word_breaks import wrap

    console = new_console(width=width)
    text = " ".join(words)
    lines = [line.plain.rstrip() for line in wrap(Text(text), console, width, overflow="fold")]
    assert all(cell_len(line) <= width or len(line) == 1 for line in lines), lines
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # the drawn pieces joined: the text
    for word in words:  # a word wider than the line: in pieces that join to it, broken after points where they fit
        if cell_len(word) > width:
            found = breaks_inside("\n".join(lines), word)
            assert found, (word, lines)
            cuts = found[0]
            assert_folded_only_without_points([word[a:b] for a, b in zip([0] + cuts, cuts + [len(word)])], width)


def test_a_url_s_scheme_stays_with_its_host_and_a_path_breaks_after_its_slashes():
    assert word_pieces("https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html",
                       53) == ["https://docs.aws.amazon.com/bedrock/latest/userguide/",
                               "claude-messages-adaptive-thinking.html"]
    assert word_pieces("http://127.0.0.1:8080/v1/chat?api_version=latest&deployment=gpt-5&region=eu", 24) == [
        "http://127.0.0.1:8080/", "v1/chat?", "api_version=latest&", "deployment=gpt-5&", "region=eu"]
    assert word_pieces("providers.openai.something_very_long.more", 12) == [
        "providers.", "openai.", "something_", "very_long.", "more"]
    assert word_pieces("a" * 30, 12) == ["a" * 12, "a" * 12, "a" * 6]  # no point: rich's fold
    assert text_lines("  openai   http://127.0.0.1:9/some/very/long/gateway/path/v1", 40, subsequent_indent="  ") == [
        "  openai   http://127.0.0.1:9/some/very/", "  long/gateway/path/v1"]


# the commands: a scenario in a deep folder whose base URLs are long paths on a closed port
@pytest.fixture(scope="module")
def deep(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("long_words")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    urls = {"openai": f"http://127.0.0.1:{port}/some/very/long/gateway/path/that/goes/on/v1/openai-compatible-endpoint",
            "anthropic": f"http://127.0.0.1:{port}/another/very_long_gateway.path/that-goes/on/and/on/v1/anthropic"}
    where = folder.joinpath(*FOLDERS)
    where.mkdir(parents=True)
    scenario = where / "weather-scenario.yaml"
    scenario.write_text(SCENARIO.replace("OPENAI_URL", urls["openai"]).replace("ANTHROPIC_URL", urls["anthropic"]),
                        encoding="utf-8")
    (where / "second-scenario.yaml").write_text(scenario.read_text(encoding="utf-8"), encoding="utf-8")
    return {"scenario": scenario, "urls": urls, "folder": folder}


COMMANDS = {
    "render": ["render", "SCENARIO", "-p", "openai"],  # the ledger's endpoint.base_url message
    "summary": ["render", "SCENARIO"],  # the table's title and the hint under it
    "two": ["render", "SCENARIO", "SECOND", "-p", "openai", "--ledger-only"],  # the `══ path` headers
    "send": ["send", "SCENARIO", "-p", "openai", "--retries", "0"],
    "compare": ["compare", "SCENARIO", "-p", "openai,anthropic", "--send", "--retries", "0"],
    "run": ["run", "SCENARIO", "-p", "openai,anthropic", "--retries", "0"],
    "doctor": ["doctor", "SCENARIO"],
}


def command(deep: dict, name: str) -> list[str]:
    second = deep["scenario"].with_name("second-scenario.yaml")
    return [str(deep["scenario"]) if arg == "SCENARIO" else str(second) if arg == "SECOND" else arg
            for arg in COMMANDS[name]]


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_deep_path_and_long_base_urls_break_after_their_slashes(deep, name, columns):
    done = run_cli(command(deep, name), env=environment(columns))
    text = done.stdout + done.stderr
    assert "Traceback" not in text, text
    path = str(deep["scenario"])
    if name in ("summary", "two", "doctor"):  # the path is drawn: broken after its slashes at both widths
        assert_broken_at_points(text, path, columns, broken=True)
    if name == "two":
        assert_broken_at_points(text, str(deep["scenario"].with_name("second-scenario.yaml")), columns, broken=True)
    urls = deep["urls"].values() if name in ("compare", "run", "doctor") else [deep["urls"]["openai"]]
    if name == "summary":
        urls = []
    for url in urls:
        assert_broken_at_points(text, url, columns, broken=columns == 60)


def test_json_keeps_the_urls_whole(deep):
    """Only the drawing changes: the error a send quotes is the upstream URL whole in -f json."""
    done = run_cli(command(deep, "send") + ["-f", "json"], env=environment(60))
    error = json.loads(done.stdout)["error"]
    assert f"POST {deep['urls']['openai']}/chat/completions" in error, error


# providers -p: the sources' and notes' URLs and dotted names (the -f json words) at 60 and 80 columns
NAMED = {"deepseek": "api-docs.deepseek.com/zh-cn/api/create-chat-completion",
         "bedrock": "docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html",
         "huggingface": "huggingface.co/docs/inference-providers/tasks/chat-completion"}


def long_words(value: object) -> set[str]:
    """The words of ``value``'s strings (a -f json document) that hold a point and are longer than 20 characters,
    without the punctuation prose puts around them."""
    if isinstance(value, dict):
        return set().union(*map(long_words, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(long_words, value)) if value else set()
    if not isinstance(value, str):
        return set()
    words = {word.strip("'\"()[]{};:,`") for word in value.split()}
    return {word for word in words if len(word) > 20 and any(ch in POINTS for ch in word)}


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("provider", list(NAMED))
def test_providers_sources_break_urls_after_their_slashes(provider, columns):
    document = run_cli(["providers", "-p", provider, "-f", "json"], env=environment(80))
    done = run_cli(["providers", "-p", provider], env=environment(columns))
    assert done.returncode == document.returncode == 0, done.stderr
    words = long_words(json.loads(document.stdout))
    assert NAMED[provider] in {word.rstrip(".") for word in words}, sorted(words)
    assert_broken_at_points(done.stdout, NAMED[provider], columns, broken=columns == 60)
    drawn = [word for word in words if breaks_inside(done.stdout, word)]
    assert len(drawn) >= len(words) // 2, (sorted(set(words) - set(drawn)), done.stdout)  # most found as drawn
    for word in drawn:
        assert_broken_at_points(done.stdout, word, columns)


def test_a_ledger_message_quoting_json_and_a_calls_argument_break_a_url_after_its_slashes():
    """call_lines' own layouts (a message quoting JSON: the ledger's column; a call's indented arguments: a sent
    sample's calls table) fold a word wider than the line with the same rule."""
    from toolchoice.cli.call_lines import indented_lines, prose_lines

    url = "https://gateway.example.com/a/very/long/path/segment/that/goes/on/v1/chat/completions"
    for width in (24, 33, 40):
        lines = prose_lines(f'base URL {url} sends tool_choice {{"type":"function","function":{{"name":"x"}}}}',
                            width)
        assert lines and all(cell_len(line) <= width for line in lines), lines
        assert_broken_at_points("\n".join(lines), url, width, broken=True)
        argument = json.dumps({"endpoint": url}, indent=2)
        lines = indented_lines(argument, width)
        assert lines and all(cell_len(line) <= width for line in lines), lines
        assert_broken_at_points("\n".join(lines), url, width, broken=True)
