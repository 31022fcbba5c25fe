"""`compare --send`'s tokens cells say in and out as run's tables and send say them (`in 10 / out 5`, not `10/5`
under "tokens in/out"), at every width: whole on one line under the full headers and where the short ones have room,
each half on a line of its own where that keeps the table shorter, after their label in one record a row, and in
Markdown. Every table line fits the terminal (80, 60 and wider).

Real runs: the command against `toolchoice mock` servers (openai, anthropic, gemini) on 127.0.0.1; the numbers are
the usage the servers sent, read from the raw responses `--save` kept (OpenAI's prompt_tokens / completion_tokens,
Anthropic's input_tokens / output_tokens, Gemini's usageMetadata), never from toolchoice's own reading of them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli import run_cli

FAMILIES = ("openai", "anthropic", "gemini")
# the widths: 200 full headers; 100 and 80 short headers (halves at 100 with three providers' folding cells, whole
# at 80 with two short ones); 60 one record a row (three) or the column left out (two)
WIDTHS = (200, 100, 80, 60)


def _scenario(urls: dict[str, str], providers: tuple[str, ...], wide: bool) -> str:
    """``wide``: a city required (the calls `get_weather({"city":"example"})`) and parallel calls on (Anthropic's
    wire `{"type":"any","disable_parallel_tool_use":false}`), so that other cells fold at 100 columns."""
    return ("tools:\n  - name: get_weather\n    parameters: {type: object, properties: {city: {type: string}}"
            f"{', required: [city]' if wide else ''}}}\n"
            f"tool_choice: required\n{'parallel_tool_calls: true' if wide else ''}\n"
            "messages:\n  - {role: user, content: Weather in Paris?}\nproviders:\n"
            + "".join(f"  {p}: {{base_url: '{urls[p]}'}}\n" for p in providers))


def _usage(saved: Path, provider: str) -> tuple[int, int]:
    """The tokens in and out the server's first answer to ``provider`` carried, from the raw response saved."""
    body = json.loads((saved / provider / "sample-001.response.json").read_text())
    if provider == "anthropic":
        return body["usage"]["input_tokens"], body["usage"]["output_tokens"]
    if provider == "gemini":
        return body["usageMetadata"]["promptTokenCount"], body["usageMetadata"]["candidatesTokenCount"]
    return body["usage"]["prompt_tokens"], body["usage"]["completion_tokens"]


CASES = {"three": (FAMILIES, True), "two": (("openai", "anthropic"), False)}


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int, str, int], tuple[str, dict[str, tuple[int, int]]]]:
    """(case, columns, format, repeat) -> (stdout, each provider's usage as sent)."""
    from contextlib import ExitStack

    from toolchoice.providers.core.mock.server import running_mock

    folder = tmp_path_factory.mktemp("tokens")
    out = {}
    with ExitStack() as stack:
        urls = {p: stack.enter_context(running_mock(p)).base_url for p in FAMILIES}
        for case, (providers, wide) in CASES.items():
            (folder / f"{case}.yaml").write_text(_scenario(urls, providers, wide), encoding="utf-8")
            runs = [(columns, "pretty", 1) for columns in WIDTHS] + [(80, "markdown", 1), (200, "pretty", 2),
                                                                     (60, "pretty", 2)]
            for columns, fmt, repeat in runs:
                saved = folder / f"saved-{case}-{columns}-{fmt}-{repeat}"
                env = {"COLUMNS": str(columns), "NO_COLOR": "1", "NO_PROXY": "127.0.0.1", "OPENAI_API_KEY": "unused",
                       "ANTHROPIC_API_KEY": "unused", "GEMINI_API_KEY": "unused"}
                done = run_cli(["compare", f"{case}.yaml", "--send", "--retries", "0", "-n", str(repeat), "-f", fmt,
                                "--save", str(saved)], env=env, cwd=folder)
                assert done.returncode == 0, done.stderr
                out[(case, columns, fmt, repeat)] = (done.stdout, {p: _usage(saved, p) for p in providers})
    return out


def _no_half_split(text: str) -> None:
    """No half cut from its number: a line never ends with "in" or "out" (it read "tokens (mean) in" over "10 / out
    5" in one record a row)."""
    assert not [line for line in _table(text) if re.search(r"\b(?:in|out)\s*[│┃]?\s*$", line)], text


def _table(text: str) -> list[str]:
    """The table's lines (title to bottom border, and the caption under it)."""
    lines = text.splitlines()
    end = max(i for i, line in enumerate(lines) if line.startswith(("└", "┗")))
    after = [line for line in lines[end + 1:end + 3] if not line.startswith(("env.", "argument"))]
    return lines[:end + 1] + after


def _drawn(lines: list[str], provider: str, tokens: tuple[int, int]) -> str:
    """How the provider's tokens cell is drawn: "whole" (one line), "halves" (in over out in one column), "left out"
    (the column left out, the caption says so); fails when it is none of these."""
    cell = f"in {tokens[0]} / out {tokens[1]}"
    start = next(i for i, line in enumerate(lines) if re.search(rf"\b{provider}\b", line))
    rows = lines[start:]
    stop = next((i for i, line in enumerate(rows[1:], 1) if line.startswith(("├", "└", "┗")) or
                 re.match(r"[│┃] provider ", line)), len(rows))
    rows = rows[:stop]
    if any(cell in line for line in rows):
        return "whole"
    first = f"in {tokens[0]}"
    for i, line in enumerate(rows[:-1]):
        at = line.find(f"│ {first} ")
        if at >= 0 and rows[i + 1][at:].startswith(f"│ out {tokens[1]} "):
            return "halves"
    caption = " ".join(lines[-2:])
    assert "tokens" in caption and "left out at" in caption, "\n".join(lines)
    return "left out"


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("columns", WIDTHS)
def test_the_tokens_cells_say_in_and_out_and_the_table_fits(ran, case: str, columns: int) -> None:
    text, usage = ran[(case, columns, "pretty", 1)]
    lines = _table(text)
    assert max(len(line) for line in text.splitlines()) <= columns, text
    assert not re.search(r"\b\d+/\d+\b", text), text  # no "10/5"
    assert "tokens in/out" not in text
    _no_half_split(text)
    drawn = {p: _drawn(lines, p, tokens) for p, tokens in usage.items()}
    assert len(set(drawn.values())) == 1, drawn  # one column, drawn one way
    if columns == 200:
        assert set(drawn.values()) == {"whole"} and "┃ tokens " in text
    if (case, columns) in (("three", 100), ("two", 80)):  # the column is shown at these widths
        assert set(drawn.values()) == ({"halves"} if case == "three" else {"whole"}), text
    if (case, columns) == ("three", 60):  # one record a row: each cell after its label
        assert all(f"tokens in {t[0]} / out {t[1]}" in " ".join(text.split()) for t in usage.values()), text


def test_repeated_samples_say_the_mean(ran) -> None:
    """-n 2: the column is the mean (`tokens (mean)` heads it, and labels it in one record a row)."""
    for case, (providers, _) in CASES.items():
        wide, usage = ran[(case, 200, "pretty", 2)]
        assert "tokens (mean)" in wide and max(map(len, wide.splitlines())) <= 200
        assert {_drawn(_table(wide), p, t) for p, t in usage.items()} == {"whole"}
        narrow, _ = ran[(case, 60, "pretty", 2)]
        assert max(map(len, narrow.splitlines())) <= 60, narrow
        assert not re.search(r"\b\d+/\d+ mean\b", narrow)
        _no_half_split(narrow)
        if "left out at" not in narrow:  # one record a row: the label says it is the mean
            assert all(f"tokens (mean) in {t[0]} / out {t[1]}" in " ".join(narrow.split())
                       for t in usage.values()), narrow


@pytest.mark.parametrize("case", CASES)
def test_markdown_says_in_and_out(ran, case: str) -> None:
    text, usage = ran[(case, 80, "markdown", 1)]
    header = text.splitlines()[0]
    assert header.endswith("| latency ms | tokens |"), header
    for provider, (tokens_in, tokens_out) in usage.items():
        [row] = [line for line in text.splitlines() if line.startswith(f"| {provider} |")]
        assert row.endswith(f"| in {tokens_in} / out {tokens_out} |"), row
