"""`compare --send` keeps what reads wrong split whole at 60 and 80 columns, pretty and markdown: the verdict's
"95% CI" with its interval (it read "95% CI 57%–100" over "%)", or "95%" over "CI"), and a tool name of 48
characters in the calls column (it read "get_the_" over "current_" over ...).

Real runs: the command against two `toolchoice mock` servers (openai, anthropic) on 127.0.0.1. The interval is
Wilson's for 5 of 5 at z = 1.96, worked by hand: low = n / (n + z²) = 5 / 8.8416 = 0.5655 → 57%, high 100%."""

from __future__ import annotations

import re

import pytest

from cli import run_cli

LONG = "get_the_current_weather_for_a_city_in_celsius_48"  # 48 characters (tool names may have 64)
NAMES = (LONG, "get_weather")  # one row a record at 60 and 80 columns; a table whose verdict column folds
INTERVAL = "95% CI 57%–100%"


def environment(columns: int) -> dict[str, str]:
    return {"COLUMNS": str(columns), "NO_COLOR": "1", "NO_PROXY": "127.0.0.1", "OPENAI_API_KEY": "unused",
            "ANTHROPIC_API_KEY": "unused"}


@pytest.fixture(scope="module")
def ran(tmp_path_factory) -> dict[tuple[str, int, str], str]:
    """What `compare --send -n 5` printed, per (tool name, columns, format)."""
    from toolchoice.providers.core.mock.server import running_mock

    folder = tmp_path_factory.mktemp("units")
    out = {}
    with running_mock("openai") as openai, running_mock("anthropic") as anthropic:
        for name in NAMES:
            (folder / "two.yaml").write_text(
                f"tools:\n  - name: {name}\n    parameters: {{type: object, properties: {{city: {{type: string}}}}}}\n"
                "tool_choice: required\nmessages:\n  - {role: user, content: Weather in Paris?}\nproviders:\n"
                f"  openai: {{base_url: '{openai.base_url}'}}\n  anthropic: {{base_url: '{anthropic.base_url}'}}\n",
                encoding="utf-8")
            for columns in (60, 80):
                for fmt in ("pretty", "markdown"):
                    done = run_cli(["compare", "two.yaml", "--send", "--retries", "0", "-n", "5", "-f", fmt],
                                   env=environment(columns), cwd=folder)
                    assert done.returncode == 0, done.stderr
                    out[(name, columns, fmt)] = done.stdout
    return out


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("fmt", ["pretty", "markdown"])
def test_the_interval_and_the_tool_name_stay_whole(ran, name, columns, fmt):
    text = ran[(name, columns, fmt)]
    lines = text.splitlines()
    if fmt == "pretty":
        assert max(len(line) for line in lines) <= columns, text
    # each provider's verdict: the interval on one line, "95% CI" never split from it
    assert sum(line.count(INTERVAL) for line in lines) == 2, text
    assert not [line for line in lines if re.search(r"95%\s*$|^\W*CI\b|95% CI\s*$", line)], text
    # the tool name whole on a line, in both providers' calls
    assert sum(len(re.findall(rf"(?<!\w){name}(?!\w)", line)) for line in lines) >= 2, text


@pytest.mark.parametrize("width", [40, 60])
def test_one_record_a_row_keeps_the_interval_whole_wherever_it_falls(width):
    """record_rows' layout (the one compare falls back to) at every position the interval can take on a line."""
    import io

    from rich.console import Console

    from toolchoice.cli.record_rows import record_table

    for pad in range(1, width):
        value = "x" * pad + " obeyed 5/5 (100%, " + INTERVAL + ")"
        console = Console(width=width, file=io.StringIO(), color_system=None)
        console.print(record_table(width, ["verdict"], [[value]], short=None, title=None))
        drawn = console.file.getvalue()  # type: ignore[attr-defined]
        assert drawn.count(INTERVAL) == 1, (pad, drawn)
