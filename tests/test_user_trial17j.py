"""A new user's trial of `run` and `send` output (session 17, trial17j):

1. `loop.cannot_end` said "tool_choice auto on a step from 1 on (step 2's tool_choice is also every later step's)" of
   a scenario with no `loop:` at all; it now says the edits in the scenario's own terms (`add loop: {after_call:
   auto} to the scenario`). Each edit is applied to the scenario file as written in the message and held to what
   the loop does after it: `run --dry-run` no longer warns, and `run` against the mock (docs/mock.md: `auto` after
   tool results answers in text) ends before max_steps.
2. `run`'s step tables said "tokens 10/5"; the cells now say in and out as `send` does, at every width, the tables
   whole at 120, 100, 80 and 60 columns; the numbers are the reply's usage as `-f json` carries it.
3. `send -f markdown`: what pretty shows, with text from a reply read as written by cmark-gfm (GitHub's renderer).
4. `trace`'s hint spoke Python on the command line ("(import_saved's sample=N)"): each caller reads only its own.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from cli import run_cli

KEY = "sk-trial17j-canary-0123456789abcdef"
FORCED = ("tools:\n  - {name: search, parameters: {type: object, properties: {query: {type: string}}, "
          "required: [query]}}\ntool_choice: required\nmessages: [{role: user, content: Find the capital of France}]\n")


def _env(**more: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN"))} | {"OPENAI_API_KEY": KEY,
                                                                                            **more}


@pytest.fixture(scope="module")
def mock() -> object:
    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("openai") as server:
        yield server


def _dry_warning(path: Path) -> str | None:
    result = run_cli(["run", str(path), "-p", "openai", "--dry-run", "-f", "json"], env=_env())
    assert result.returncode == 0, result.stderr
    found = [e["message"] for t in json.loads(result.stdout)["translations"] for e in t["ledger"]
             if e["code"] == "loop.cannot_end"]
    assert len(found) <= 1  # one entry
    return found[0] if found else None


def _ran(path: Path, mock: object) -> dict:
    result = run_cli(["run", str(path), "-p", "openai", "--base-url", mock.base_url, "--retries", "0", "-f", "json"],
                     env=_env())
    assert result.returncode in (0, 4), result.stdout + result.stderr
    assert KEY not in result.stdout + result.stderr
    [loop] = json.loads(result.stdout)["runs"][0]["loops"]
    return loop


# ---- 1. loop.cannot_end says the edit, in the scenario's terms -----------------------------------------------------


def test_a_scenario_without_loop_is_told_the_loop_section_to_add_and_it_ends_the_loop(tmp_path: Path, mock) -> None:
    path = tmp_path / "forced.yaml"
    path.write_text(FORCED)
    said = _dry_warning(path)
    assert said is not None and "step 2's tool_choice" not in said and "from 1 on" not in said, said
    before = _ran(path, mock)
    assert before["ended"]["reason"] == "max_steps" and len(before["steps"]) == 10  # what the warning says
    [section] = re.findall(r"add (loop: \{after_call: auto\}) to the scenario", said)
    path.write_text(FORCED + section + "\n")  # the edit, as the message writes it
    assert _dry_warning(path) is None
    after = _ran(path, mock)
    assert after["ended"] == {"reason": "no_tool_call", "step": 2, "error": None}
    assert after["terminated"] is True
    assert not [e for e in after["steps"][0]["ledger"] if e["code"] == "loop.cannot_end"]


def test_a_tool_without_results_in_a_scenario_without_loop_is_told_the_section_to_add(tmp_path: Path, mock) -> None:
    path = tmp_path / "auto.yaml"
    written = FORCED.replace("tool_choice: required", "tool_choice: auto")
    path.write_text(written)
    result = run_cli(["run", str(path), "-p", "openai", "--dry-run", "-f", "json"], env=_env())
    [said] = [e["message"] for t in json.loads(result.stdout)["translations"] for e in t["ledger"]
              if e["code"] == "loop.no_results"]
    [section] = re.findall(r"add (loop: \{results: \{search: RESULT\}\}) to the scenario", said)
    assert _ran(path, mock)["tool_results"] == {"total": 1, "errors": 1}
    path.write_text(written + section.replace("RESULT", "Paris") + "\n")
    assert _ran(path, mock)["tool_results"] == {"total": 1, "errors": 0}


def test_the_other_ways_out_of_a_scenario_without_loop_end_it_too(tmp_path: Path, mock) -> None:
    path = tmp_path / "forced.yaml"
    path.write_text(FORCED)
    said = _dry_warning(path)
    # tool_choice auto where every step takes it from: the top level
    assert "write tool_choice: auto at the top level" in said
    path.write_text(FORCED.replace("tool_choice: required", "tool_choice: auto"))
    assert _dry_warning(path) is None
    assert _ran(path, mock)["ended"]["reason"] == "no_tool_call"
    # a stop tool: the tool to offer is the user's, named where the message says NAME
    [stop] = re.findall(r"offer a tool the model calls when it is done, and add (loop: \{stop: \{tool: NAME\}\}) to "
                        "the scenario", said)
    path.write_text(FORCED.replace("tools:\n", "tools:\n  - {name: final_answer, parameters: {type: object}}\n")
                    + stop.replace("NAME", "final_answer") + "\n")
    assert _dry_warning(path) is None
    ended = _ran(path, mock)["ended"]  # the mock answers required with the first offered tool: the stop tool
    assert ended == {"reason": "stop_tool", "step": 1, "error": None}


def test_a_loop_section_is_told_its_own_keys_and_each_edit_silences_the_warning(tmp_path: Path) -> None:
    import yaml

    doc = yaml.safe_load(FORCED)
    doc["tools"].append({"name": "plan", "parameters": {"type": "object"}})
    doc["loop"] = {"max_steps": 6, "steps": [{"tool_choice": "plan", "tools": ["plan"]}, {"tool_choice": "required"}],
                   "results": {"search": "Paris", "plan": "ok"}}
    path = tmp_path / "loop.yaml"
    path.write_text(yaml.safe_dump(doc))
    said = _dry_warning(path)
    assert "set loop.after_call: auto" in said and "add loop:" not in said, said
    assert "write tool_choice: auto in loop.steps' last entry (step 2, which every later step repeats)" in said
    assert "(step 1: {\"tool\":\"plan\"}; step 2 and later: required)" in said
    for edit in ({"after_call": "auto"}, {"steps": [doc["loop"]["steps"][0], {"tool_choice": "auto"}]}):
        path.write_text(yaml.safe_dump({**doc, "loop": {**doc["loop"], **edit}}))
        assert _dry_warning(path) is None, edit


def test_a_choice_extra_sends_is_told_to_come_out_of_extra(tmp_path: Path) -> None:
    path = tmp_path / "extra.yaml"
    written = FORCED.replace("tool_choice: required", "tool_choice: auto")
    path.write_text(written + "providers: {openai: {extra: {tool_choice: required}}}\n")
    said = _dry_warning(path)
    assert "take tool_choice out of providers.openai.extra" in said
    assert "after_call" not in said.split("To let it end:")[1].replace("over loop.after_call too", "")  # no help
    path.write_text(written + "providers: {openai: {extra: {temperature: 0}}}\n")
    assert _dry_warning(path) is None


@pytest.mark.parametrize("loop", ["", "loop: {max_steps: 6}\n"])
def test_extra_sending_the_steps_own_choice_is_told_to_come_out_with_after_call_auto(tmp_path: Path, mock,
                                                                                  loop: str) -> None:
    """trial17v: extra sending the same forcing choice as the steps was offered only a stop tool, though taking the
    choice out of extra and setting loop.after_call: auto frees the loop. That combined edit is offered, applied to
    the file as the message words it: the dry run no longer warns and the run against the mock ends before
    max_steps. Either half alone is not offered (each leaves the loop forced: checked too)."""
    import yaml

    path = tmp_path / "same.yaml"
    path.write_text(FORCED + "providers: {openai: {extra: {tool_choice: required, temperature: 0}}}\n" + loop)
    said = _dry_warning(path)
    assert said is not None, "no warning"
    edits = said.split("To let it end: ")[1].split("; or ")
    [combined] = [e for e in edits if e.startswith("take tool_choice out of providers.openai.extra and ")]
    assert not [e for e in edits if e.startswith(("set loop.after_call", "add loop: {after_call"))], edits
    assert not [e for e in edits if e.startswith("take tool_choice out") and e != combined], edits
    assert (" and set loop.after_call: auto" if loop else " and add loop: {after_call: auto} to the scenario") \
        in combined
    before = _ran(path, mock)
    assert before["ended"]["reason"] == "max_steps"
    doc = yaml.safe_load(path.read_text())
    doc["providers"]["openai"]["extra"].pop("tool_choice")  # the edit, as the message says it
    doc["loop"] = {**doc.get("loop", {}), "after_call": "auto"}
    path.write_text(yaml.safe_dump(doc))
    assert _dry_warning(path) is None
    after = _ran(path, mock)
    assert after["ended"] == {"reason": "no_tool_call", "step": 2, "error": None}
    for half in ({**doc, "loop": {**doc["loop"], "after_call": "keep"}},  # extra out, after_call as it was
                 {**doc, "providers": {"openai": {"extra": {"tool_choice": "required", "temperature": 0}}}}):
        path.write_text(yaml.safe_dump(half))
        assert _dry_warning(path) is not None, half


# ---- 2. run's tokens say in and out at every width -----------------------------------------------------------------


@pytest.mark.parametrize("columns", [120, 100, 80, 60])
def test_the_step_table_says_tokens_in_and_out_whole_at_every_width(tmp_path: Path, mock, columns: int) -> None:
    path = tmp_path / "planner.yaml"
    path.write_text((Path(__file__).parents[1] / "configs" / "planner-loop.yaml").read_text())
    doc = run_cli(["run", str(path), "-p", "openai", "--base-url", mock.base_url, "-f", "json"], env=_env())
    usage = [s["reply"]["usage"] for s in json.loads(doc.stdout)["runs"][0]["loops"][0]["steps"]]
    shown = run_cli(["run", str(path), "-p", "openai", "--base-url", mock.base_url], env=_env(COLUMNS=str(columns)))
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert all(len(line) <= columns for line in lines), shown.stdout
    text = shown.stdout.replace("\u00a0", " ")  # one record a row: a no-break space after each label
    assert not re.search(r"\b\d+/\d+\b", text), text  # no bare "10/5"
    for u in usage:  # each step's own numbers, labelled
        assert re.search(rf"\bin {u['input_tokens']}\b", text) and re.search(rf"\bout {u['output_tokens']}\b", text)
    if columns <= 80:  # one record a row: the label and both halves on one line, as send says them
        assert text.count(f"tokens in {usage[0]['input_tokens']} / out {usage[0]['output_tokens']}") == len(usage)


@pytest.mark.parametrize("columns", [100, 80, 60])
def test_the_repeat_table_says_mean_tokens_in_and_out(tmp_path: Path, mock, columns: int) -> None:
    path = tmp_path / "planner.yaml"
    path.write_text((Path(__file__).parents[1] / "configs" / "planner-loop.yaml").read_text())
    shown = run_cli(["run", str(path), "-p", "openai", "--base-url", mock.base_url, "-n", "2", "-k", "1"],
                    env=_env(COLUMNS=str(columns)))
    assert shown.returncode == 0, shown.stderr
    assert all(len(line) <= columns for line in shown.stdout.splitlines()), shown.stdout
    per_step = shown.stdout.split("how loops ended")[0]
    assert re.search(r"\bin 10\b", per_step) and re.search(r"\bout 5\b", per_step), per_step  # the mock's usage
    assert not re.search(r"\b\d+/\d+\b", per_step), per_step


# ---- 3. send -f markdown -------------------------------------------------------------------------------------------


HOSTILE_ARG = "a|b `c` ``d`` <script>alert(1)</script>\n# h\n| x | y |"
HOSTILE_NAME = "evil|`name`<script>"
HOSTILE_TEXT = "| cell | `code` <script>alert(2)</script>\n# heading\n- item\n1. one\n=== *em* www.e.example a@b.example"


def _gfm(markdown: str) -> str:
    import cmarkgfm
    from cmarkgfm.cmark import Options

    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)


def _shown(page: str) -> str:
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", page))


def test_send_markdown_reads_a_hostile_reply_as_written(tmp_path: Path) -> None:
    from toolchoice.providers.core.mock.script import load_script
    from toolchoice.providers.core.mock.server import running_mock

    script = tmp_path / "script.yaml"
    script.write_text(json.dumps({"replies": [
        {"calls": [{"name": "search", "arguments": {"query": HOSTILE_ARG}}, {"name": HOSTILE_NAME}]},
        {"text": HOSTILE_TEXT}]}))
    path = tmp_path / "s.yaml"
    path.write_text(FORCED.replace("tool_choice: required", "tool_choice: auto"))
    with running_mock("openai", script=load_script(str(script))) as server:
        calls, text = (run_cli(["send", str(path), "-p", "openai", "--base-url", server.base_url, "-f", "markdown",
                                "--retries", "0"], env=_env()) for _ in range(2))
    assert calls.returncode == 4 and text.returncode == 0, calls.stderr + text.stderr  # a phantom call: disobeyed
    page = _gfm(calls.stdout)
    assert "<script" not in page and "<h1>" not in page and "<a " not in page, page
    calls_table, ledger_table, _ = page.split("</table>")
    assert calls_table.count("<tr>") == 1 + 2 and "<th>schema</th>" in calls_table  # the header and a row a call
    assert "<th>what changed / what to know</th>" in ledger_table and "tool_choice.mapped" in ledger_table
    shown = _shown(page)
    assert HOSTILE_NAME in shown and json.dumps(HOSTILE_ARG, ensure_ascii=False) in shown, shown
    assert "disobeyed: phantom_tool" in shown and f"called '{HOSTILE_NAME}', which was not offered" in shown
    page = _gfm(text.stdout)
    for tag in ("<script", "<h1>", "<ol>", "<em>", "<a ", "<code>"):
        assert tag not in page, (tag, page)
    assert page.count("<li>") == 1  # the verdict's one reason; the text's "- item" is no list item
    assert _shown(page.replace("<br>", "\n")).count(HOSTILE_TEXT) == 1, page
    assert KEY not in calls.stdout + text.stdout


def test_send_markdown_with_repeat_is_the_rates_table(tmp_path: Path, mock) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(FORCED)
    result = run_cli(["send", str(path), "-p", "openai", "--base-url", mock.base_url, "-f", "markdown", "-n", "3"],
                     env=_env())
    assert result.returncode == 0, result.stderr
    page = _gfm(result.stdout)
    assert "<th>95% CI (Wilson)</th>" in page and "<td>obeyed</td>\n<td>3</td>\n<td>100%</td>" in page, page
    assert "tokens in 30 (mean 10) · out 15 (mean 5)" in _shown(page)
    dry = run_cli(["send", str(path), "-p", "openai", "--dry-run", "-f", "markdown"], env=_env())
    assert dry.returncode == 2 and len(dry.stderr.splitlines()) == 1 and "--format markdown" in dry.stderr
    two = run_cli(["send", str(path), str(path), "-p", "openai", "--base-url", mock.base_url, "-f", "markdown"],
                  env=_env())
    assert two.returncode == 0 and _gfm(two.stdout).count("<table>") == 2 * 2 + 1, two.stdout  # + the exits table


# ---- 4. trace: each caller's words ---------------------------------------------------------------------------------


def test_a_saved_requests_hint_is_the_callers_own(tmp_path: Path) -> None:
    from toolchoice.providers.core import saved_request
    from toolchoice.providers.core.model import ToolchoiceError

    folder = tmp_path / "empty"
    folder.mkdir()
    (tmp_path / "sample-001.request.json").write_text("{\"a\": 1}")
    for target in (folder, tmp_path / "sample-001.request.json"):
        line = run_cli(["trace", str(target)]).stderr
        assert "their folder with --sample N" in line and "proxy, mock or send --save" in line, line
        assert "sample=" not in line and "import_saved" not in line and "running_mock" not in line, line
        with pytest.raises(ToolchoiceError) as caught:
            saved_request.import_saved(target)
        said = str(caught.value)
        assert "their folder with sample=N" in said and "jobs.send(save=...)" in said, said
        assert "--sample" not in said and "send --save" not in said, said
