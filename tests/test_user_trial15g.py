"""What a new user's trial (session 15, trial15g) met and got changed; the command-line lines it changed are in
tests/test_bad_input.py and tests/data/bad/ (one line, file:line, exit 2)."""

from __future__ import annotations

from toolchoice.providers import load_scenario_text
from toolchoice.providers.core import jobs

TOOLS = """
tools:
  - {name: search_docs, parameters: {type: object, properties: {query: {type: string}}, required: [query]}}
messages: [{role: user, content: How do I rotate an API key?}]
"""


def test_python_none_written_as_the_choice_is_read_as_none_and_said_as_a_warning():
    """`tool_choice: None` (Python's "not set") is YAML's string None, read case-blind as the word none: the model
    must not call a tool. It was an info entry ("tool_choice None read as none") a user skims past."""
    [t] = jobs.render(load_scenario_text("tool_choice: None\n" + TOOLS), "openai")
    assert t.request is not None and t.request.body["tool_choice"] == "none"
    [said] = [e for e in t.ledger if e.code == "tool_choice.spelling"]
    assert said.severity == "warning" and "write null or leave tool_choice out" in said.message
    [unset] = jobs.render(load_scenario_text("tool_choice: null\n" + TOOLS), "openai")
    assert "tool_choice" not in unset.request.body  # null: not specified, the field left out
    [lower] = jobs.render(load_scenario_text("tool_choice: NONE\n" + TOOLS), "openai")  # a provider's word: as before
    assert [e.severity for e in lower.ledger if e.code == "tool_choice.spelling"] == ["info"]


def test_a_bfcl_tuple_is_said_to_widen_not_to_narrow():
    """The warning said "BFCL's own mapping narrows it: tuple an array of any length": a tuple read as an array of
    any length widens it, and the verb was missing."""
    from toolchoice.providers.core.tool_import_schemas import bfcl_tool_schema

    notes: list = []  # what `tools FILE` and `from: FILE` print for a BFCL file
    schema = bfcl_tool_schema("move", {"type": "dict", "properties": {"to": {"type": "tuple"}, "how": {"type": "any"}}},
                              notes)
    assert schema["properties"] == {"to": {"type": "array"}, "how": {"type": "string"}}
    [note] = [n for n in notes if n.code == "import.bfcl_lossy"]
    assert note.message.endswith("BFCL's own mapping stands in: any becomes string (a value of another type fails "
                                 "the schema); tuple becomes an array of any length (a fixed length is not held)")


def test_trace_of_what_run_save_wrote(tmp_path, monkeypatch):
    """`toolchoice trace runs/` (a `run --save` folder, as a user tries after "trace a saved folder") said only "no
    sample-NNN.request.json in the folder", and a step's request file was "not an OTLP/JSON trace export", though it
    is the saved-request form `trace` reads. The folder now points at the loop's scenario.yaml and a step's file; the
    step file reads as a saved request, its provider from its step-NN.reply.json."""
    import os

    from cli import run_cli
    from toolchoice.providers import LoopOptions, RenderOptions, running_mock

    scenario = load_scenario_text("tool_choice: required\n" + TOOLS + """
loop:
  max_steps: 2
  results: {search_docs: "3 pages"}
""")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789abcdef")  # the mock checks no key
    with running_mock("openai") as mock:
        ran = jobs.run(scenario, ["openai"], LoopOptions(render=RenderOptions(base_url=mock.base_url)),
                       save=tmp_path / "runs")
    assert ran.code == 0 and (tmp_path / "runs/openai/loop-001/step-02.request.json").is_file()
    env = {"PATH": os.environ.get("PATH", ""), "NO_COLOR": "1"}
    folder = run_cli(["trace", "runs"], env=env, cwd=tmp_path)
    assert (folder.returncode, folder.stdout) == (2, "")
    assert folder.stderr == ("toolchoice: error: runs: no sample-NNN.request.json in the folder (a run --save folder: "
                             "runs/openai/loop-001/scenario.yaml is that loop's scenario with its whole history, which "
                             "render, send and run take; or one step's request: toolchoice trace "
                             "runs/openai/loop-001/step-01.request.json)\n")
    step = run_cli(["trace", "runs/openai/loop-001/step-02.request.json"], env=env, cwd=tmp_path)
    assert step.returncode == 0, step.stderr
    assert step.stdout.startswith("# info saved.imported: runs/openai/loop-001/step-02.request.json: POST "
                                  "/v1/chat/completions read as openai's request\n")
    again = load_scenario_text(step.stdout)  # the step's request as a scenario: the call of step 1 and its result
    assert [m.role for m in again.messages] == ["user", "assistant", "tool"] and again.tool_choice.mode == "required"
    saved = run_cli(["render", "runs/openai/loop-001/scenario.yaml", "-p", "anthropic", "-f", "json"], env=env,
                    cwd=tmp_path)
    assert saved.returncode == 0, saved.stderr


def test_mock_md_s_openai_python_loop_runs_as_the_page_shows():
    """docs/mock.md "From Python" showed `client = anthropic.Anthropic(...)` and then `...`: no loop a user could run
    with an official SDK against the mock. The page's block, run as written: openai-python's own requests, the
    mock's records."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "mock.md").read_text(encoding="utf-8")
    [block] = [b.split("\n", 1)[1] for b in page.split("```")[1::2]
               if b.startswith("python\n") and "openai.OpenAI(base_url=mock.base_url" in b]
    namespace: dict = {}
    exec(compile(block, "docs/mock.md", "exec"), namespace)  # the asserts are the page's
    assert len(namespace["mock"].records) == 2 and namespace["messages"][-1]["role"] == "assistant"
