"""A new user's trial at 60 columns: a verdict reason (`  - reason`, `3× reason`) and a loop note that wrap went on
at the left margin, under the label, and `run --repeat`'s summary could end a line with `95%` and start the next
with `CI 6–79%`. Each wrapped line now hangs under its text, words whole; a confidence interval stays on one line.

The replies come from `toolchoice mock` (a script of disobeying replies) on 127.0.0.1; the reasons the pretty view
must show are read from the same command's JSON document, never from the drawing code."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from rich.cells import cell_len

from toolchoice.providers.core.mock.server import running_mock

from cli import run_cli
from servers import fixture

ROOT = Path(__file__).resolve().parents[1]
LONG_TOOL = "delete_everything_in_the_production_database_now"
SCENARIO = """tools:
  - {name: search, description: Search., parameters: {type: object, properties: {query: {type: string}}, required: [query]}}
tool_choice: required
messages:
  - {role: user, content: Find it.}
loop:
  max_steps: 3
  results: {search: hits}
"""
SCRIPT = f"""replies:
  - phantom: {LONG_TOOL}
  - disobey: true
  - phantom: read_file
"""


def toolchoice(*args: str, columns: int = 60) -> str:
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    done = run_cli(args, env=environ | {"OPENAI_API_KEY": "sk-hanging-test", "COLUMNS": str(columns),
                                        "NO_COLOR": "1", "TERM": "dumb"}, cwd=ROOT)
    assert done.returncode in (0, 4), done.stderr
    if "json" not in args:
        assert max(cell_len(line) for line in done.stdout.splitlines()) <= columns
    return done.stdout


@pytest.fixture()
def files(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "loop.yaml").write_text(SCENARIO)
    (tmp_path / "script.yaml").write_text(SCRIPT)
    return tmp_path / "loop.yaml", tmp_path / "script.yaml"


def blocks(out: str, label: str, indent: int) -> list[list[str]]:
    """Each line that starts with ``label``, with the lines after it that start with ``indent`` spaces."""
    lines, found = out.splitlines(), []
    for at, line in enumerate(lines):
        if line.startswith(label):
            end = next((j for j in range(at + 1, len(lines)) if not lines[j].startswith(" " * indent)), len(lines))
            found.append(lines[at:end])
    return found


def assert_hangs(out: str, label: str, text: str, indent: int) -> int:
    """``label`` + ``text`` in ``out``, its words whole and in order, every further line ``indent`` spaces in and
    then a word (not at the margin, not under the label). Returns how many lines it took."""
    shown = [b for b in blocks(out, label, indent) if " ".join(b)[len(label):].split() == text.split()]
    assert shown, (label, text, out)
    for line in shown[0][1:]:
        assert not line[indent].isspace(), shown[0]
    return len(shown[0])


def test_parse_s_reason_hangs_under_its_text():
    reply = fixture("openai", "openai-chat-single-strict")
    call = reply["choices"][0]["message"]["tool_calls"][0]
    call["function"] = {"name": "read_file", "arguments": json.dumps({"path": "config.py"})}
    path = ROOT / "tests" / "data" / "_hanging_reply.json"
    try:
        path.write_text(json.dumps(reply))
        args = ("parse", str(path), "-p", "openai", "--scenario", "configs/planner-trap.yaml")
        reasons = json.loads(toolchoice(*args, "-f", "json"))["verdict"]["reasons"]
        out = toolchoice(*args)
    finally:
        path.unlink()
    assert reasons
    assert all(assert_hangs(out, "  - ", reason, 4) > 1 for reason in reasons)  # each wraps at 60


def test_send_repeat_s_reason_counts_hang_under_their_text(files):
    scenario, script = files
    with running_mock("openai", script=script) as mock:
        args = ("send", str(scenario), "-p", "openai", "--base-url", mock.base_url, "-n", "3", "-k", "1")
        document = json.loads(toolchoice(*args, "-f", "json", "--all-results"))
    reasons = [r for result in document["results"] for r in result["verdict"]["reasons"]]
    assert any(LONG_TOOL in r for r in reasons)
    with running_mock("openai", script=script) as mock:
        out = toolchoice("send", str(scenario), "-p", "openai", "--base-url", mock.base_url, "-n", "3", "-k", "1")
    assert all(assert_hangs(out, "1× ", reason, 3) > 1 for reason in reasons)  # each wraps at 60


def test_run_s_step_notes_go_on_indented_not_at_the_margin(files):
    scenario, script = files
    with running_mock("openai", script=script) as mock:
        out = toolchoice("run", str(scenario), "-p", "openai", "--base-url", mock.base_url)
    with running_mock("openai", script=script) as mock:
        document = json.loads(toolchoice("run", str(scenario), "-p", "openai", "--base-url", mock.base_url,
                                         "-f", "json"))
    steps = document["runs"][0]["loops"][0]["steps"]
    notes = [(s["step"], e) for s in steps for e in [*s["ledger"], *s.get("notes", [])] if e["severity"] != "info"]
    phantom = next(e for _, e in notes if e["code"] == "loop.phantom_call")
    label = f"  step 1 warning {phantom['code']}: "
    # the label is wider than a third of 60 columns: the text goes on 4 columns in, not under the label
    assert assert_hangs(out, label, phantom["message"], 4) > 1


@pytest.mark.parametrize("first, last", [(40, 60), (61, 80)], ids=["60", "80"])
def test_run_repeat_keeps_each_interval_with_its_95_percent(files, first, last):
    """Every width from 40 to 80, in two halves (each width run once; the 80 case ran 40 to 60 again): no line
    ends in `95%` or `95% CI` with the interval on the next."""
    scenario, script = files
    with running_mock("openai", script=script) as mock:
        for width in range(first, last + 1):
            out = toolchoice("run", str(scenario), "-p", "openai", "--base-url", mock.base_url, "-n", "3",
                             columns=width)
            said = out.count("95% CI ")
            assert said >= 1, out
            for line, after in zip(out.splitlines(), out.splitlines()[1:]):
                line = line.rstrip(" │")
                assert not line.endswith("95%"), (width, line, after)
                assert not (line.endswith("95% CI") and re.match(r"[\s│]*\d", after)), (width, line, after)
            ended = next(b for b in blocks(out, "ended by itself  ", 4))
            assert len(ended) > 1 or width > 70, (width, ended)
            assert all(line.startswith("    ") for line in ended[1:]), (width, ended)  # not at the margin


def test_a_key_in_a_wrapped_error_line_is_redacted_before_it_is_folded():
    """A server's error echoing the key, longer than the line, in a folded `2× ...` line: no piece of the key is
    printed, on one line or across the fold (the job redacts the record; the folding takes keys out again before
    it wraps, as the printer does before it lays a text out)."""
    import re as regex

    from servers import StandIn, Step

    key = "sk-hanging-" + "0123456789abcdef" * 5
    environ = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    error = Step.error("openai", 400, f"the key {key} is not valid for this model")
    with StandIn("openai", default=error) as server:
        done = run_cli(["send", "configs/weather.yaml", "-p", "openai", "--base-url", server.base_url("openai"), "-n", "2",
                        "--retries", "0"],
                       env=environ | {"OPENAI_API_KEY": key, "COLUMNS": "60", "NO_COLOR": "1", "TERM": "dumb"},
                       cwd=ROOT)
    out = done.stdout + done.stderr
    assert "2× " in out, out
    joined = regex.sub(r"\s*\n\s*", "", out)
    for piece in (key, key[:24], key[-24:]):
        assert piece not in out and piece not in joined, out
