"""Trial 19g, a new user's first hour: what it found, held.

At 80 columns `run --replay` of docs/run.md's recorded loop drew step 1 as "... · verdict ✔" over "obeyed · latency",
its `--repeat` summary "other 1" over "invalid_arguments", and `compare --dialect langchain` "tools 1" over "sent":
one short value read as two. The values here come from the recordings and the scenario (the loop's saved
verdicts, the tally of the five loops, the scenario's one tool), not from the layout code."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cli import run_cli

ROOT = Path(__file__).resolve().parent.parent
NBSP = "\u00a0"
LOOPS = ROOT / "tests" / "data" / "loops"


def drawn(args: list[str], columns: int, code: int = 0) -> list[list[str]]:
    """Each bordered record's drawn lines (between "│ " and " │", no-break spaces read as spaces)."""
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    result = run_cli(args, env={**env, "COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb"}, cwd=ROOT)
    assert result.returncode == code, result.stderr
    records: list[list[str]] = []
    for line in result.stdout.splitlines():
        if line.startswith(("┌", "├")):
            records.append([])
        elif line.startswith("│") and records:
            records[-1].append(line[2:-2].replace(NBSP, " ").rstrip())
    assert records, result.stdout
    return records


def whole_on_a_line(record: list[str], piece: str) -> bool:
    return any(piece in line for line in record)


@pytest.mark.parametrize("columns", [80, 60])
def test_a_step_s_verdict_is_never_parted_from_its_mark(columns: int) -> None:
    folder = "planner-loop-gemma-270m"
    steps = json.loads((LOOPS / folder / "openai" / "loop-001" / "loop.json").read_text())["steps"]
    records = drawn(["run", "configs/planner-loop.yaml", "-p", "openai", "--model", "gemma-3-270m", "--replay",
                     f"tests/data/loops/{folder}"], columns)
    assert len(records) == len(steps) == 6
    for record, step in zip(records, steps):
        assert step["verdict"]["category"] == "obeyed"
        assert whole_on_a_line(record, "verdict ✔ obeyed"), record


@pytest.mark.parametrize("columns", [80, 60])
def test_the_repeat_summary_s_other_verdicts_stay_whole(columns: int) -> None:
    folder = "planner-loop-gemma-270m-x5"
    failed: dict[int, list[str]] = {}
    for saved in sorted((LOOPS / folder / "openai").glob("loop-*/step-*.reply.json")):  # as --save wrote them
        step = json.loads(saved.read_text())
        if step["verdict"]["category"] != "obeyed":
            failed.setdefault(step["step"], []).append(step["verdict"]["category"])
    assert failed == {1: ["invalid_arguments"], 3: ["invalid_arguments"], 6: ["invalid_arguments"]}
    args = ["run", "configs/planner-loop.yaml", "-p", "openai", "--model", "gemma-3-270m", "--replay",
            f"tests/data/loops/{folder}"]
    records = drawn(args, columns, code=4)[:6]  # the per-step records; "how loops ended" is a plain table
    for number, record in enumerate(records, 1):
        other = f"other 1 {failed[number][0]}" if number in failed else "other –"
        assert whole_on_a_line(record, other), record


def test_compare_s_tools_cell_stays_whole_in_a_record() -> None:
    from toolchoice.providers import load_scenario

    scenario = load_scenario(ROOT / "configs" / "none-with-history.yaml")
    records = drawn(["compare", "configs/none-with-history.yaml", "-p", "openai,anthropic,gemini,ollama",
                     "--dialect", "langchain", "--tool-choice", "any"], 80)
    assert len(records) == 4
    for record in records:
        assert whole_on_a_line(record, f"tools {len(scenario.tools)} sent"), record


@pytest.mark.parametrize("choice", ["auto", "create_event"])
def test_compare_s_strict_cell_on_gemini_says_what_the_request_does(choice: str) -> None:
    """Gemini's strict is its mode VALIDATED: the cell read "–" (the word for a scenario without strict tools) both
    where the request sends VALIDATED and where a forced call (mode ANY) leaves the arguments unvalidated."""
    args = ["configs/strict-schema.yaml", "-p", "gemini", "--tool-choice", choice]
    rendered = run_cli(["render", *args, "-f", "json"], cwd=ROOT)
    assert rendered.returncode == 0, rendered.stderr
    mode = json.loads(rendered.stdout)["request"]["body"]["toolConfig"]["functionCallingConfig"]["mode"]
    table = run_cli(["compare", *args, "-f", "markdown"], cwd=ROOT)
    assert table.returncode == 0, table.stderr
    header, _, row = table.stdout.splitlines()[:3]
    cells = dict(zip([c.strip() for c in header.split("|")], [c.strip() for c in row.split("|")]))
    assert (mode, cells["strict"]) == (("VALIDATED", "sent") if choice == "auto" else ("ANY", "not sent"))


def test_run_md_s_keyless_loop_against_the_mock_ends_where_the_page_says() -> None:
    """docs/run.md's first example, the page's commands with the mock in-process on a free port: step 1 calls the
    forced tool, step 2 answers in text, and the mock's second request carries step 1's call's result back."""
    import re
    import shlex

    from toolchoice.providers.core.mock.server import running_mock

    page = (ROOT / "docs" / "run.md").read_text()
    block = re.search(r"^## Examples\n.*?^```bash\n(.*?)^```$", page, re.M | re.S)
    assert block is not None
    mock_line, run_line, kill_line = block.group(1).splitlines()
    assert shlex.split(mock_line, comments=True)[:4] == ["toolchoice", "mock", "-p", "openai"] and kill_line == "kill %1"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    with running_mock("openai") as mock:
        words = shlex.split(run_line.replace("http://127.0.0.1:8765/v1", mock.base_url))
        assert words[0] == "OPENAI_API_KEY=unused" and words[1] == "toolchoice"
        result = run_cli(words[2:], env={**env, "OPENAI_API_KEY": "unused", "COLUMNS": "80", "NO_COLOR": "1"},
                         cwd=ROOT)
        records = list(mock.records)
    assert result.returncode == 0, result.stderr
    assert "ended: no_tool_call at step 2" in result.stdout, result.stdout
    first, second = records
    assert first["tool_choice"] == {"tool": "plan_tool_call"} and first["calls"][0]["name"] == "plan_tool_call"
    assert second["tool_choice"] == "auto" and second["calls"] == []
    assert second["results"] == [{"id": first["calls"][0]["id"], "name": "plan_tool_call", "from": 1}]
    assert "results call_mock_1_1←#1" in page and first["calls"][0]["id"] == "call_mock_1_1"  # the id the page quotes


def test_trace_help_s_sample_range_is_the_listing_s() -> None:
    """`trace --help` showed --sample as "[x>=0]", while a listing numbers its samples from 1 and 0 is never one."""
    import re

    help_text = run_cli(["trace", "--help"], env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}, cwd=ROOT).stdout
    [line] = [line for line in help_text.splitlines() if "--sample" in line]
    assert "x>=0" not in line
    first = int(re.search(r"from (\d+)", line).group(1))  # type: ignore[union-attr]
    for listed in ("tests/data/har/sdk-session.har", "tests/data/saved/openai-chat-proxy"):
        listing = run_cli(["trace", listed, "-f", "json"], cwd=ROOT)
        assert listing.returncode == 0, listing.stderr
        assert min(row["sample"] for row in json.loads(listing.stdout)["samples"]) == first


@pytest.mark.parametrize("columns", [80, 60, 40])
def test_providers_tip_keeps_its_command_on_one_line(columns: int) -> None:
    """`toolchoice providers` at 80 columns ended a line with "toolchoice providers" and began the next with
    "-p ID": the command a new user copies, read as two. Each command and option with its value is on one line."""
    result = run_cli(["providers"], env={**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb"},
                     cwd=ROOT)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    tip = lines[next(i for i, line in enumerate(lines) if line.startswith("One provider's wire forms")):]
    assert all(len(line) <= columns for line in tip), tip
    assert " ".join(tip).split() == ("One provider's wire forms, notes, sources, facts and rules: toolchoice providers "
                                     "-p ID (-p all: every fact and rule; --model ID: the rules for a model; "
                                     "--format json: all of it).").split()
    for piece in ("toolchoice providers -p ID", "-p all:", "--model ID:", "--format json:"):
        assert any(piece in line for line in tip), (piece, tip)
    assert "\u00a0" not in "".join(tip)  # a copied command holds plain spaces


def test_the_readme_s_har_commands_need_no_key_and_no_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    """README.md now names the HAR commands beside the keyless ones (a new user with a HAR found no word of it
    there): `trace FILE.har` and `run --replay FILE.har` as traces.md gives them, with no key set and every socket
    refused."""
    from cli import refuse_sockets, user_env

    readme = (ROOT / "README.md").read_text()
    assert "`trace FILE.har`" in readme and "`run --replay FILE.har`" in readme
    tried = refuse_sockets(monkeypatch)
    listing = run_cli(["trace", "tests/data/har/sdk-session.har", "-f", "json"], env=user_env(), cwd=ROOT)
    assert listing.returncode == 0, listing.stderr
    replayed = run_cli(["run", "--replay", "tests/data/har/sdk-session.har", "-p", "openai", "--trace-id", "1"],
                       env=user_env(), cwd=ROOT)
    assert replayed.returncode == 0, replayed.stderr
    assert "ended: no_tool_call at step 2" in replayed.stdout and tried == []


@pytest.mark.parametrize("columns", [60, 40])
def test_compare_s_key_keeps_the_render_command_on_one_line(columns: int) -> None:
    """At 60 columns compare's key under the table ended a line with "`toolchoice render" and began the next with
    "SCENARIO -p ID`" (docs/vercel-ai-sdk.md's example at 100 columns did the same with "-p ID`")."""
    result = run_cli(["compare", "configs/planner-trap.yaml", "-p", "openai,gemini"],
                     env={**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb"}, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(len(line) <= columns for line in lines), lines
    assert any("`toolchoice render SCENARIO -p ID`" in line for line in lines), lines
    # nothing of the key lost: its words in order, as the page's wider example shows them
    key = "ledger: E errors, W warnings, I info; `toolchoice render SCENARIO -p ID` shows every entry".split()
    words = " ".join(lines).split()
    start = words.index("ledger:")
    assert words[start:start + len(key)] == key
