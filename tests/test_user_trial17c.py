"""What a new user's trial (session 17, trial17c) met and got changed: an agent that loops under `required`, run
against the mock; saved traffic given to `trace`; a provider named wrong."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from cli import refused, run_cli
from toolchoice.providers import running_mock

ROOT = Path(__file__).resolve().parent.parent
SAVED = ROOT / "tests/data/saved/openai-chat-proxy/sample-001.request.json"  # what openai-python sent, recorded


@pytest.fixture(scope="module")
def mock() -> Iterator[Any]:
    with running_mock("openai") as running:
        yield running


# ---- a loop that repeats one call: the line's setting ends it at the first repeat --------------------------------

LOOPING = """tools:
  - {name: get_weather, parameters: {type: object, properties: {city: {type: string}}, required: [city]}}
tool_choice: required
messages: [{role: user, content: Weather in Paris?}]
loop:
  max_steps: 6
  results: {get_weather: sunny}
"""


def test_a_run_of_repeats_says_the_setting_that_ends_the_loop_at_the_first_repeat(tmp_path: Path, mock: Any) -> None:
    """The one line for steps 2-6 said "set loop.stop.repeated_calls: 6 to end the loop here": set so, the loop
    still ran to step 6, where max_steps ends it anyway. It names the setting that ends it at step 2, and the loop
    the mock answers does end there with it."""
    path = tmp_path / "looping.yaml"
    path.write_text(LOOPING)
    env = {"OPENAI_API_KEY": "unused", "COLUMNS": "200"}
    args = ["-p", "openai", "--base-url", mock.base_url]
    shown = run_cli(["run", str(path), *args], env=env)
    [line] = [line for line in shown.stdout.splitlines() if "loop.repeated_call" in line]
    assert line.startswith("  steps 2-6 warning loop.repeated_call:") and "(6 in a row)" in line, line
    setting = re.search(r"set loop\.stop\.repeated_calls: (\d+) to end the loop at step (\d+)", line)
    assert setting is not None, line
    path.write_text(LOOPING + f"  stop: {{repeated_calls: {setting.group(1)}}}\n")
    ended = json.loads(run_cli(["run", str(path), *args, "-f", "json"], env=env).stdout)["runs"][0]["loops"][0]["ended"]
    assert (ended["reason"], ended["step"]) == ("repeated_call", int(setting.group(2))) == ("repeated_call", 2)


# ---- saved traffic in another form: said, with the way to read it --------------------------------------------------

def _har(request: dict[str, Any]) -> dict[str, Any]:
    """An HTTP Archive 1.2 (w3c-webperformance HAR spec: log.entries[].request with postData.text) of one request."""
    body = json.dumps(request["body"])
    return {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [{
        "startedDateTime": "2026-11-27T10:00:00.000Z", "time": 5, "cache": {}, "timings": {"send": 0, "wait": 5,
                                                                                          "receive": 0},
        "request": {"method": "POST", "url": "https://api.openai.com" + request["url"], "httpVersion": "HTTP/1.1",
                    "headers": [{"name": "Authorization", "value": "Bearer sk-proj-har0123456789abcdefghijklmn"}],
                    "queryString": [], "cookies": [], "headersSize": -1, "bodySize": len(body),
                    "postData": {"mimeType": "application/json", "text": body}},
        "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [],
                     "content": {"size": 2, "mimeType": "application/json", "text": "{}"}, "redirectURL": "",
                     "headersSize": -1, "bodySize": 2}}]}}


def test_a_har_file_is_read_as_its_entry_made_a_saved_request_reads(tmp_path: Path) -> None:
    """A HAR was "not an OTLP/JSON trace export (no resourceSpans)", told to export OTLP; then it was named and told
    to cut its entry out by hand. It is read now (trace_har, tests/test_trace_har.py): its one entry gives the
    scenario the entry's url and postData.text, made a saved request, give; its key is not shown."""
    recorded = json.loads(SAVED.read_text())
    har = tmp_path / "session.har"
    har.write_text(json.dumps(_har(recorded)))
    entry = json.loads(har.read_text())["log"]["entries"][0]["request"]
    made = tmp_path / "request.json"
    made.write_text(json.dumps({"url": entry["url"], "body": json.loads(entry["postData"]["text"])}))
    got = run_cli(["trace", str(har), "-f", "json"])
    want = run_cli(["trace", str(made), "-p", "openai", "-f", "json"])
    assert got.returncode == want.returncode == 0, got.stderr + want.stderr
    assert "sk-proj-har0123456789abcdefghijklmn"[-12:] not in got.stdout + got.stderr
    scenario, recorded_scenario = json.loads(got.stdout), json.loads(want.stdout)
    scenario.pop("description"), recorded_scenario.pop("description")
    assert scenario == recorded_scenario
    hidden = tmp_path / "session.json"  # "log" not first: not known as a HAR by its start, said with how to read it
    hidden.write_text(json.dumps({"comment": "x", **_har(recorded)}))
    line = refused(run_cli(["trace", str(hidden)]), "sk-proj-har0123456789abcdefghijklmn")
    assert f"{hidden}: an HTTP Archive (HAR); not " in line and "name the file *.har" in line, line


def test_a_request_body_alone_is_said_with_the_wrapping_that_reads(tmp_path: Path) -> None:
    """A framework's log of the body it sent: "not an OTLP/JSON trace export", and with -p "not a saved request".
    Named, and wrapped as the line says (the path it was sent to and the body), it reads."""
    recorded = json.loads(SAVED.read_text())
    body = tmp_path / "body.json"
    body.write_text(json.dumps(recorded["body"]))
    for extra in ([], ["-p", "openai"]):
        line = refused(run_cli(["trace", str(body), *extra]))
        assert f"{body}: a request body alone (no url); not " in line and '"body": this object' in line, line
    body.write_text(json.dumps({"url": recorded["url"], "body": recorded["body"]}))
    assert run_cli(["trace", str(body), "-p", "openai"]).returncode == 0


def test_a_saved_request_of_another_name_without_p_is_said(tmp_path: Path) -> None:
    """A saved request named otherwise (an OpenAI Batch API input line is one: custom_id, method, url, body) was
    "not an OTLP/JSON trace export (no resourceSpans)": the line says to add -p, with which it reads."""
    recorded = json.loads(SAVED.read_text())
    batch = tmp_path / "batch-line.json"
    batch.write_text(json.dumps({"custom_id": "r1", "method": "POST", "url": recorded["url"], "body": recorded["body"]}))
    line = refused(run_cli(["trace", str(batch)]))
    assert f"{batch}: a saved request, not a trace (add -p PROVIDER" in line, line
    assert run_cli(["trace", str(batch), "-p", "openai"]).returncode == 0


def test_other_json_keeps_its_line() -> None:
    from toolchoice.providers.core.input_forms import other_form

    assert other_form({"data": []}) is None and other_form([1]) is None and other_form({"log": "x"}) is None
    assert other_form({"url": "/v1/chat/completions", "messages": []}) is None  # a saved request's own shape


# ---- a provider named by its framework, a model, or another spelling -------------------------------------------------

@pytest.mark.parametrize("given,dialect", [("langchain", "langchain"), ("LiteLLM", "litellm"),
                                           ("pydantic_ai", "pydantic-ai"), ("openai-agents", "openai-agents"),
                                           ("ai-sdk", "vercel")])
def test_a_framework_given_as_the_provider_names_its_dialect(given: str, dialect: str) -> None:
    """`-p langchain` listed the twenty ids (`-p litellm` too): the user's framework is not an API. The line says
    so and names the --dialect, which render takes with the provider."""
    scenario = str(ROOT / "configs/planner-trap.yaml")
    line = refused(run_cli(["render", scenario, "-p", given]))
    assert f"{given} is a framework, not a provider's API" in line and f"--dialect {dialect}" in line, line
    assert run_cli(["render", scenario, "-p", "openai", "--dialect", dialect, "-f", "json"]).returncode == 0


def test_a_model_or_another_spelling_given_as_the_provider() -> None:
    scenario = str(ROOT / "configs/planner-trap.yaml")
    assert refused(run_cli(["render", scenario, "-p", "azure-openai"])).endswith("(did you mean azure?)\n")  # was openai
    line = refused(run_cli(["render", scenario, "-p", "gpt-4o"]))  # listed the twenty ids
    assert line.endswith("(gpt-4o looks like a model: -p openai -m gpt-4o)\n"), line
    assert run_cli(["render", scenario, "-p", "openai", "-m", "gpt-4o", "-f", "json"]).returncode == 0
    line = refused(run_cli(["render", scenario, "-p", "claude-sonnet-5"]))
    assert line.endswith("-p anthropic -m claude-sonnet-5)\n"), line


# ---- a base URL given with the /v1 the client adds -----------------------------------------------------------------

def test_a_base_url_ending_in_the_path_the_client_adds_is_said_on_the_404() -> None:
    """`-p anthropic --base-url http://127.0.0.1:PORT/v1` (OpenAI's habit) posted to /v1/v1/messages: "404
    not_found_error: Invalid URL (POST /v1/v1/messages)", the mock's own line saying no more. The error says what to
    give; given so, the same mock answers 200. A 404 at a path that does not repeat is left as the API said it."""
    scenario = str(ROOT / "configs/planner-trap.yaml")
    env = {"ANTHROPIC_API_KEY": "unused", "OPENAI_API_KEY": "unused", "COLUMNS": "200"}
    with running_mock("anthropic") as mock:
        for stream in ([], ["--stream"]):  # a whole answer and a stream asked for
            doubled = run_cli(["send", scenario, "-p", "anthropic", "--base-url", mock.base_url + "/v1", "-f", "json",
                               *stream], env=env)
            error = json.loads(doubled.stdout)["reply"]["error"]
            assert (doubled.returncode, error["status"]) == (1, 404), doubled.stdout
            assert error["message"].endswith("(the URL's path repeats /v1: give the base URL without its /v1)"), error
        fixed = run_cli(["send", scenario, "-p", "anthropic", "--base-url", mock.base_url, "-f", "json"], env=env)
        assert fixed.returncode == 0 and json.loads(fixed.stdout)["reply"]["error"] is None, fixed.stdout
        other = run_cli(["send", scenario, "-p", "openai", "--base-url", mock.base_url + "/v1", "-f", "json"], env=env)
        error = json.loads(other.stdout)["reply"]["error"]
        assert error["status"] == 404 and "repeats" not in error["message"], error  # /v1/chat/completions: not ours


# ---- a model id no rule knows ----------------------------------------------------------------------------------------

def test_a_model_no_rule_knows_names_the_api_wide_rules_that_still_refuse() -> None:
    """`-p anthropic -m claude-opus-9` with thinking and `required`: the ledger said "nothing is refused or changed on
    a guess" and, three lines down, refused it by rule claude-thinking-forced-choice (a rule of the whole API). The
    note names the rules that still hold; each rule the ledger applies is among them."""
    from toolchoice.providers import load_scenario_text
    from toolchoice.providers.core import jobs

    scenario = load_scenario_text("tools: [{name: a, parameters: {type: object}}]\ntool_choice: required\n"
                                  "messages: [{role: user, content: hi}]\n"
                                  "providers: {anthropic: {model: claude-opus-9, max_tokens: 4096, thinking: true}}\n")
    [t] = jobs.render(scenario, "anthropic")
    assert t.request is None and "thinking.forced_choice" in [e.code for e in t.ledger if e.severity == "error"]
    [note] = [e.message for e in t.ledger if e.code == "model_rule.unknown"]
    assert "so nothing is refused or changed on a guess beyond the rules of the whole API (" in note, note
    applied = [re.search(r"model rule ([\w.-]+):", e.message) for e in t.ledger if e.code == "rule.applied"]
    assert applied and all(m is not None and m.group(1) in note for m in applied), (note, applied)
    [openai] = jobs.render(load_scenario_text("tools: [{name: a, parameters: {type: object}}]\nmessages: [{role: user, "
                                              "content: hi}]\nproviders: {openai: {model: gpt-9}}\n"), "openai")
    [plain] = [e.message for e in openai.ledger if e.code == "model_rule.unknown"]
    assert "on a guess (set them" in plain  # no rule of the whole API: as before


def test_a_replayed_trace_s_notes_are_the_trace_s_not_its_steps() -> None:
    """`run --replay TRACE` printed "steps 1-2 warning trace.tool_choice_not_recorded: the trace records no
    tool_choice for step 2": the trace's note, which every step's ledger carries, read as one of step 1 too."""
    trace = str(ROOT / "tests/data/traces/openinference-langchain-0.1.80.json")  # LangChain's own spans
    shown = run_cli(["run", "--replay", trace, "-p", "anthropic"], env={"COLUMNS": "200"})
    assert shown.returncode == 0, shown.stderr
    [line] = [line for line in shown.stdout.splitlines() if "trace.tool_choice_not_recorded" in line]
    assert line.startswith("  trace warning trace.tool_choice_not_recorded: the trace records no tool_choice for "
                           "step 2"), line
    steps = json.loads(run_cli(["run", "--replay", trace, "-p", "anthropic", "-f", "json"]).stdout)
    ledgers = [[e["code"] for e in s["ledger"]] for s in steps["runs"][0]["loops"][0]["steps"]]
    assert len(ledgers) == 2 and all("trace.tool_choice_not_recorded" in codes for codes in ledgers)  # kept per step
