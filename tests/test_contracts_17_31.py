"""The interfaces issues 17, 18 and 25-31 spelled out, held to those spellings on today's code.

Each test names the issue whose text gives the spelling (a command, a flag, a config key, a ledger code, an exit
code, a JSON key or a file layout) and checks it by running it: the CLI in-process (``tests/cli.py run_cli``),
the library's jobs, and ``toolchoice mock`` / ``proxy`` on 127.0.0.1 as the stand-in to send to (one real process
only where the process's own stdout is the contract: the mock's first line). Nothing reaches the internet.

Where a later primary source corrected an issue's fact (docs/fact-audit.md), the source's value is what is held,
and the test says so; where a later issue renamed something on purpose, the later spelling is held beside it.
"""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KEY = "sk-contract-canary-0123456789abcdefXYZ"
TRACES = ROOT / "tests" / "data" / "traces"

TOOLS = """tools:
  - name: search
    parameters: {type: object, properties: {q: {type: string}}, required: [q]}
  - name: read_file
    parameters: {type: object, properties: {path: {type: string}}, required: [path]}
  - name: done
    parameters: {type: object, properties: {answer: {type: string}}, required: [answer]}
messages:
  - {role: user, content: find it}
"""


def env(**extra: str) -> dict[str, str]:
    """The test's environment without any real key, every provider key the canary."""
    clean = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN")) and not k.startswith("AWS_")}
    return clean | {"OPENAI_API_KEY": KEY, "ANTHROPIC_API_KEY": KEY, "GEMINI_API_KEY": KEY, "COLUMNS": "120"} | extra


def toolchoice(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    result = run_cli(list(args), env=env(**extra))
    assert KEY not in result.stdout + result.stderr
    return result


def codes(document: Any) -> list[str]:
    """Every ledger code anywhere in a JSON document."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("code"), str) and "severity" in value:
                found.append(value["code"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(document)
    return found


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def options_of(command: str) -> set[str]:
    """The option spellings the command line takes for ``command`` (click's own parameter table)."""
    import typer

    from toolchoice.cli.app import build

    click_command = typer.main.get_command(build([command]))
    params = click_command.params if not hasattr(click_command, "commands") else click_command.commands[command].params
    return {spelling for p in params for spelling in (*p.opts, *p.secondary_opts)}


@pytest.fixture(scope="module")
def mock() -> Iterator[Any]:
    """One OpenAI mock for the module's sends (each test reads the records it added)."""
    from toolchoice.providers.core.mock.server import running_mock

    with running_mock("openai") as running:
        yield running


# ---- the spellings every issue gives, as the command line takes them ----------------------------------------

SPELLINGS = {
    # issue 17: sending at scale
    "send": {"--repeat", "--concurrency", "-k", "--save", "--format", "--all-results", "--stream", "--trace-out",
             "--live-mcp", "--allow-env"},
    "compare": {"--send", "--providers", "-p", "--repeat", "--concurrency", "--save", "--format", "--live-mcp"},
    # issue 26/29/30/31: the loop, its dry run, its processes, its traces
    "run": {"--dry-run", "--repeat", "--concurrency", "--processes", "--results-from", "--replay", "--trace-id",
            "--trace-out", "--save", "--format", "--live-mcp", "--allow-env", "-p"},
    # issue 27
    "mock": {"--provider", "-p", "--port", "--host", "--script", "--format", "--save", "--max-requests"},
    "proxy": {"--provider", "-p", "--upstream", "--port", "--host", "--format", "--save", "--max-requests"},
    # issue 31
    "trace": {"--format", "--trace-id"},
    # issue 25 / 18
    "providers": {"--model", "--format", "-p"},
    # issue 29: the dry runs' opt-in
    "render": {"--live-mcp", "--allow-env"},
    "parse": {"--live-mcp"},
}


@pytest.mark.parametrize("command", sorted(SPELLINGS))
def test_each_issues_options_exist_with_their_spelling(command: str) -> None:
    """Issues 17 (send --repeat/--concurrency/--save/--format, compare --send --providers all), 26 and 30 (run
    --repeat/--concurrency/--processes/--results-from), 27 (mock/proxy --provider --port --host --script --format
    --save --max-requests, proxy --upstream), 29 (--live-mcp on every dry-run command: render, compare, send,
    parse and run --dry-run), 31 (trace --format --trace-id, run --replay/--trace-out, send --trace-out) and 25
    (providers --model): each spelling is an option of its command."""
    assert SPELLINGS[command] <= options_of(command), SPELLINGS[command] - options_of(command)


# ---- issue 17: sending at scale -----------------------------------------------------------------------------


def test_send_format_jsonl_writes_a_line_per_sample_then_the_tally(mock: Any) -> None:
    """Issue 17: "each sample is judged, written (`--save`, JSONL for `--format jsonl`) and reduced into the running
    statistics as it completes". `send --repeat 4 --concurrency 2 --format jsonl`: one JSON object per sample (its
    result, as `--format json`'s `results` hold it), then one line with the tally; stdout is nothing else, and no
    progress line reaches a pipe."""
    before = len(mock.records)
    result = toolchoice("send", str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "--base-url", mock.base_url,
                        "--repeat", "4", "--concurrency", "2", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # not a terminal: no progress line
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    samples, last = lines[:-1], lines[-1]
    assert sorted(line["sample"] for line in samples) == [1, 2, 3, 4]
    for line in samples:
        assert line["provider"] == "openai" and line["verdict"]["category"] == "obeyed" and line["status"] == 200
    assert last["samples"] == 4 and last["counts"]["obeyed"] == 4 and "results" not in last
    assert set(last) >= {"provider", "requested_tool_choice", "effective_tool_choice", "counts", "rates",
                         "latency_percentiles_ms", "tokens"}
    assert len(mock.records) - before == 4


def test_send_format_jsonl_one_sample_is_its_json_document_on_a_line(mock: Any) -> None:
    """Issue 17's `--format jsonl` without --repeat: the one sample's `--format json` document, on one line."""
    shown = toolchoice("send", str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "--base-url", mock.base_url,
                       "-f", "jsonl")
    whole = toolchoice("send", str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "--base-url", mock.base_url,
                       "-f", "json")
    assert shown.returncode == whole.returncode == 0
    [line] = shown.stdout.splitlines()
    assert set(json.loads(line)) == set(json.loads(whole.stdout))


def test_jobs_send_on_result_gets_each_sample_redacted(mock: Any) -> None:
    """Issue 17 through the library (issue 28: the library owns the job): ``jobs.send(..., on_result=)`` is
    called with each sample's result as it completes, a key the reply echoes redacted as ``document()`` is."""
    from toolchoice.providers import RenderOptions, load_scenario
    from toolchoice.providers.core import jobs

    scenario = load_scenario(ROOT / "configs" / "weather.yaml")
    [translation] = jobs.render(scenario, ["openai"], RenderOptions(base_url=mock.base_url))
    got: list[dict[str, Any]] = []
    saved = dict(os.environ)
    os.environ["OPENAI_API_KEY"] = KEY
    try:
        result = jobs.send(scenario, translation, repeat=3, on_result=got.append, keep=0)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    assert sorted(r["sample"] for r in got) == [1, 2, 3] and result.collected.tally.n == 3
    assert KEY not in json.dumps(got)
    with pytest.raises(Exception, match="on_result"):
        jobs.send(scenario, translation, on_result=5)  # type: ignore[arg-type]


def test_compare_providers_all_is_every_provider() -> None:
    """Issue 17 spells `compare --send --providers all`: `--providers all` names every provider (here the dry run,
    which sends nothing)."""
    from toolchoice.providers.core.capabilities import PROVIDER_IDS

    result = toolchoice("compare", str(ROOT / "configs" / "weather.yaml"), "--providers", "all", "-f", "json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    rows = document if isinstance(document, list) else document.get("providers", document.get("translations"))
    named = {row["provider"] for row in rows}
    assert named == set(PROVIDER_IDS)


# ---- issue 18 (and 28): the layout ----------------------------------------------------------------------------


def test_providers_json_rows_carry_module_and_ledger_codes() -> None:
    """Issue 18's closing note: "`toolchoice providers --format json` gives each row its module and `ledger_codes`
    (code → meaning)"; the top level is the card's (`cli/`, `providers/`, `configs/`, `tests/`), the core apart."""
    result = toolchoice("providers", "--format", "json")
    rows = json.loads(result.stdout)
    assert result.returncode == 0 and rows
    for row in rows:
        assert isinstance(row["module"], str) and row["module"]
        assert isinstance(row["ledger_codes"], dict) and all(isinstance(v, str) for v in row["ledger_codes"].values())
    for folder in ("cli", "providers", "providers/core", "configs", "tests"):
        assert (ROOT / folder).is_dir()
    assert (ROOT / "ARCHITECTURE.md").is_file()


# ---- issue 25: exact as the APIs move -------------------------------------------------------------------------


def test_providers_model_prints_the_rule_and_its_source() -> None:
    """Issue 25: "`providers --model ID` prints the rule and its source"; a model no family rule knows is said
    unknown (its closing note: `known`)."""
    known = toolchoice("providers", "--model", "claude-opus-5-5", "-p", "anthropic", "--format", "json")
    [row] = json.loads(known.stdout)
    assert row["known"] is True and row["facts"]
    assert all(fact["rule"] and fact["source"] and fact["verified"] for fact in row["facts"])
    unknown = toolchoice("providers", "--model", "made-up-model-x", "-p", "openai", "--format", "json")
    assert json.loads(unknown.stdout)[0]["known"] is False


SCENARIO_25 = """tools:
  - {name: get_weather, strict: true, parameters: {type: object, properties: {city: {type: string}},
     required: [city], additionalProperties: false}}
tool_choice: %s
parallel_tool_calls: false
messages: [{role: user, content: "Weather?"}]
providers:
  anthropic: {model: %s, thinking: {type: adaptive}}
"""


def render_25(choice: str, provider: str, model: str) -> Any:
    from toolchoice.providers import RenderOptions, load_scenario_text
    from toolchoice.providers.core import jobs

    scenario = load_scenario_text(SCENARIO_25 % (choice, model))
    return jobs.render(scenario, [provider], RenderOptions(model=model))[0]


@pytest.mark.parametrize("model", ["claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-7", "claude-opus-5"])
def test_adaptive_thinking_takes_a_forced_choice(model: str) -> None:
    """Issue 25: adaptive thinking "supports forced tool use" (thinking-tool-workflows; fact-audit 2026-11-27:
    holds): `required` and a named tool with `thinking: adaptive` are sent, not refused, and no `disabled` added."""
    for choice in ("required", "get_weather"):
        t = render_25(choice, "anthropic", model)
        assert t.request is not None and t.request.body["thinking"] == {"type": "adaptive"}


@pytest.mark.parametrize("model", ["claude-opus-5-5", "claude-sonnet-5-5"])
def test_models_that_refuse_forced_tool_use_are_refused_not_sent_with_thinking_disabled(model: str) -> None:
    """Issue 25: Opus 5.5 and Sonnet 5.5 "refuse forced tool use outright" and `thinking: {type: disabled}` is itself
    a 400 there (fact-audit 2026-11-27: rules `claude-opus-5.5`, `claude-sonnet-5.5` hold): refused, never sent with
    disabled added."""
    t = render_25("required", "anthropic", model)
    assert t.request is None and "thinking.forced_choice" in [e.code for e in t.ledger if e.severity == "error"]


def test_issue_25_ledger_codes_as_spelled() -> None:
    """Issue 25's codes: `model.end_of_life` for a retired model (DeepSeek's `deepseek-chat`), `model_rule.unknown`
    for a model no family rule knows, `parallel.model_refuses` for o3-mini (fact-audit: the rule holds; the model
    retired, so `model.end_of_life` too); Fireworks' `strict` and `parallel_tool_calls` sent natively."""
    deepseek = [e.code for e in render_25("required", "deepseek", "deepseek-chat").ledger]
    assert "model.end_of_life" in deepseek and "model_rule.unknown" in deepseek
    o3 = render_25("required", "openai", "o3-mini")
    assert "parallel.model_refuses" in [e.code for e in o3.ledger] and "parallel_tool_calls" not in o3.request.body
    fireworks = render_25("required", "fireworks", "accounts/fireworks/models/x")
    assert fireworks.request.body["parallel_tool_calls"] is False
    assert fireworks.request.body["tools"][0]["function"]["strict"] is True


def test_native_mcp_choice_is_sent_on_responses_and_refused_elsewhere() -> None:
    """Issue 25 §4: `tool_choice: {type: mcp, server_label, name}` is sent exactly on openai-responses and refused
    elsewhere with `tool_choice.unsupported`."""
    from toolchoice.providers import load_scenario_text
    from toolchoice.providers.core import jobs

    scenario = load_scenario_text(TOOLS + "tool_choice: {type: mcp, server_label: dw, name: ask}\n")
    responses, openai = jobs.render(scenario, ["openai-responses", "openai"])
    assert responses.request.body["tool_choice"] == {"type": "mcp", "server_label": "dw", "name": "ask"}
    assert "tool_choice.unsupported" in [e.code for e in openai.ledger]


# ---- issue 26: the loop where agents break ----------------------------------------------------------------------

TRAP = TOOLS + """tool_choice: required
loop:
  max_steps: 3
  steps:
    - {tool_choice: required}
  stop: {when: no_tool_call}
"""


def test_loop_cannot_end_in_run_dry_run_render_and_compare(tmp_path: Path) -> None:
    """Issue 26 §1: `loop.cannot_end` (a warning) "shown by `run --dry-run`, `run`, and `render`/`compare` of a
    scenario with `loop:`"; §6: `loop.no_results` for each offered tool without results, before the run."""
    path = str(write(tmp_path, "trap.yaml", TRAP))
    dry = toolchoice("run", path, "-p", "openai", "--dry-run", "-f", "json")
    assert dry.returncode == 0 and "loop.cannot_end" in codes(json.loads(dry.stdout))
    assert codes(json.loads(dry.stdout)).count("loop.no_results") == 3
    for command in ("render", "compare"):
        shown = toolchoice(command, path, "-p", "openai", "-f", "json")
        assert "loop.cannot_end" in codes(json.loads(shown.stdout)), command


POLICY = TOOLS + """tool_choice: required
loop:
  max_steps: 5
  narrow: allowed
  after_call: auto
  steps:
    - {tool_choice: required, tools: [search]}
  stop: {tool: done, repeated_calls: 3}
  results: {search: "3 hits", read_file: text}
"""


def test_narrow_after_call_and_repeated_calls_on_the_wire(tmp_path: Path) -> None:
    """Issue 26 §2, §4, §5 checked on the wire (what the stand-in receives at each step): `loop.narrow: allowed`
    sends every tool with OpenAI's `{"type": "allowed_tools", "allowed_tools": {"mode", "tools": [{"type":
    "function", "function": {"name"}}]}}`; `loop.after_call: auto` turns the forcing step into mode auto after a
    call, with `loop.choice_reset`; `loop.stop.repeated_calls: 3` ends it with `ended.reason` "repeated_call";
    `--format json` carries `terminated` and `tool_results: {total, errors}`."""
    from toolchoice.providers.core.mock.script import load_script
    from toolchoice.providers.core.mock.server import running_mock

    script = write(tmp_path, "script.yaml", "replies:\n" + "  - {call: search, arguments: {q: x}}\n" * 5)
    path = write(tmp_path, "policy.yaml", POLICY)
    with running_mock("openai", script=load_script(script)) as served:
        result = toolchoice("run", str(path), "-p", "openai", "--base-url", served.base_url, "-f", "json")
        sent = [(r["requested"], r["offered_tools"]) for r in served.records]
    assert result.returncode == 0, result.stderr
    allowed = [{"type": "function", "function": {"name": "search"}}]
    assert sent == [({"type": "allowed_tools", "allowed_tools": {"mode": mode, "tools": allowed}},
                     ["search", "read_file", "done"]) for mode in ("required", "auto", "auto")]
    loop = json.loads(result.stdout)["runs"][0]["loops"][0]
    assert loop["ended"]["reason"] == "repeated_call" and loop["ended"]["step"] == 3
    assert loop["terminated"] is False and loop["tool_results"] == {"total": 3, "errors": 0}
    assert "loop.choice_reset" in codes(loop["steps"][1]) and "loop.narrowed" in codes(loop["steps"][0])
    gemini = json.loads(toolchoice("run", str(path), "-p", "gemini", "--dry-run", "-f", "json").stdout)
    [step_one] = gemini["translations"]
    body = step_one["request"]["body"]  # Gemini: `functionCallingConfig {mode: ANY, allowedFunctionNames: [...]}`
    assert body["toolConfig"]["functionCallingConfig"] == {"mode": "ANY", "allowedFunctionNames": ["search"]}
    assert [d["name"] for d in body["tools"][0]["functionDeclarations"]] == ["search", "read_file", "done"]


def test_all_error_results_are_loud_and_repeat_says_how_often_loops_end(tmp_path: Path, mock: Any) -> None:
    """Issue 26 §6: the summary line "N of M tool results were errors"; §7: `run --repeat` says per loop whether it
    ended by itself, with a Wilson interval ("ended by itself X of N loops"; JSON `terminated: {count, loops, rate,
    low, high}`) and steps to finish p50/p95; §5: without `repeated_calls` each repeat is `loop.repeated_call`."""
    path = str(write(tmp_path, "trap.yaml", TRAP))
    one = toolchoice("run", path, "-p", "openai", "--base-url", mock.base_url)
    assert re.search(r"\b3 of 3 tool results were errors", one.stdout) and "loop.repeated_call" in one.stdout
    many = toolchoice("run", path, "-p", "openai", "--base-url", mock.base_url, "--repeat", "2")
    assert "ended by itself  0 of 2 loops" in many.stdout and "95% CI" in many.stdout
    ends = write(tmp_path, "ends.yaml", TOOLS + "tool_choice: auto\nloop:\n  max_steps: 3\n  results: {search: x, "
                 "read_file: y, done: z}\n")
    document = json.loads(toolchoice("run", str(ends), "-p", "openai", "--base-url", mock.base_url, "--repeat", "2",
                                     "-f", "json").stdout)
    summary = document["runs"][0]["summary"]
    assert set(summary["terminated"]) == {"count", "loops", "rate", "low", "high"}
    assert set(summary["steps_to_finish"]) >= {"p50", "p95"} and set(summary["tool_results"]) >= {"total", "errors"}


@pytest.mark.parametrize("line, bad", [("  narrow: allowed", "  narrow: sometimes"),
                                       ("  after_call: auto", "  after_call: never"),
                                       ("repeated_calls: 3", "repeated_calls: 1")])
def test_bad_values_of_the_new_loop_keys_are_one_line_with_file_and_line(tmp_path: Path, line: str, bad: str) -> None:
    """Issue 26, must hold: "Bad values of the new keys: one line with file:line, exit 2"."""
    path = write(tmp_path, "bad.yaml", POLICY.replace(line, bad))
    result = toolchoice("run", str(path), "-p", "openai", "--dry-run")
    assert result.returncode == 2 and result.stdout == ""
    [said] = result.stderr.splitlines()
    assert re.match(r"toolchoice: error: .*bad\.yaml:\d+:\d+: loop\.", said)


def test_tools_changed_with_thinking(tmp_path: Path) -> None:
    """Issue 26 §3: `loop.tools_changed_with_thinking`, a step whose tools differ from the previous one on a model
    that runs the preserved-thinking prefix check (Opus 5.5)."""
    path = write(tmp_path, "think.yaml", TOOLS + """tool_choice: auto
providers:
  anthropic: {model: claude-opus-5-5, thinking: {type: adaptive}}
loop:
  max_steps: 3
  steps:
    - {tool_choice: auto, tools: [search]}
    - {tool_choice: auto}
  results: {search: x, read_file: y, done: z}
""")
    result = toolchoice("run", str(path), "-p", "anthropic", "--dry-run", "-f", "json")
    assert "loop.tools_changed_with_thinking" in codes(json.loads(result.stdout))


# ---- issue 27: toolchoice mock and toolchoice proxy ----------------------------------------------------------

LINE_FIELDS = {"n", "provider", "path", "stream", "requested", "tool_choice", "offered_tools", "status", "calls",
               "findings"}
FUNCTION = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


def test_mock_command_first_line_is_the_base_url_then_jsonl(tmp_path: Path) -> None:
    """Issue 27: "The first line on stdout is the base URL exactly as the provider's official SDK takes it"
    (`http://127.0.0.1:PORT/v1` for OpenAI-style hosts); `--format jsonl` prints one JSON object per request with
    at least n, provider, path, stream, requested, tool_choice, offered_tools, status, calls ({name, arguments})
    and findings; `--max-requests N` exits 0 after N requests (refused ones count), the summary on stderr. The
    process is the point here (its stdout), so this one is a real process."""
    process = subprocess.Popen([sys.executable, "-m", "toolchoice.cli", "mock", "-p", "openai", "--format", "jsonl",
                                "--max-requests", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env())
    try:
        url = process.stdout.readline().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/v1", url), url
        tools = [{"type": "function", "function": {"name": "search", "parameters": FUNCTION}}]
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "tools": tools}
        auth = {"authorization": f"Bearer {KEY}"}
        ok = httpx.post(url + "/chat/completions", json=body | {"tool_choice": "required"}, headers=auth)
        refused = httpx.post(url + "/chat/completions", headers=auth,
                             json=body | {"tool_choice": {"type": "function", "function": {"name": "nope"}}})
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0 and ok.status_code == 200 and refused.status_code == 400
    first, second = (json.loads(line) for line in out.splitlines())
    assert LINE_FIELDS <= set(first) and LINE_FIELDS <= set(second)
    assert first["n"] == 1 and first["requested"] == "required" and first["tool_choice"] == "required"
    assert [set(call) >= {"name", "arguments"} for call in first["calls"]] == [True]
    assert second["n"] == 2 and second["status"] == 400 and second["tool_choice"] == {"tool": "nope"}
    assert second["offered_tools"] == ["search"] and second["requested"]["function"]["name"] == "nope"
    assert "2 requests" in err and KEY not in out + err


def test_mock_reads_gemini_any_and_takes_the_sdks_paths_and_versions() -> None:
    """Issue 27: "Gemini's ANY with one allowed name reads {"tool": NAME}, with several {"allowed": [...], "mode":
    "required"}"; google-genai 3.x's `/v1/models/...` and anthropic's `anthropic-version: 2026-10-21` are answered;
    a tool_choice naming a tool not offered gets Anthropic's own `{"type":"error","error":{...}}` 400."""
    from toolchoice.providers.core.mock.server import running_mock

    declarations = [{"name": "search", "parameters": FUNCTION}, {"name": "read", "parameters": FUNCTION}]
    with running_mock("gemini") as gemini:
        read = []
        for path in ("/v1beta/models/gemini-3.5-flash:generateContent", "/v1/models/gemini-3.5-flash:generateContent"):
            for names in (["search"], ["search", "read"]):
                body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}],
                        "tools": [{"functionDeclarations": declarations}],
                        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": names}}}
                assert httpx.post(gemini.base_url + path, json=body, headers={"x-goog-api-key": KEY}).status_code == 200
                read.append(gemini.records[-1]["tool_choice"])
    one, several = {"tool": "search"}, {"allowed": ["search", "read"], "mode": "required"}
    assert read == [one, several, one, several]
    with running_mock("anthropic") as anthropic:
        body = {"model": "claude-sonnet-5", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}],
                "tools": [{"name": "search", "input_schema": FUNCTION}], "tool_choice": {"type": "tool", "name": "nope"}}
        headers = {"x-api-key": KEY, "anthropic-version": "2026-10-21"}
        refused = httpx.post(anthropic.base_url + "/v1/messages", json=body, headers=headers)
        called = httpx.post(anthropic.base_url + "/v1/messages", headers=headers,
                            json=body | {"tool_choice": {"type": "tool", "name": "search"}})
    assert refused.status_code == 400 and refused.json()["type"] == "error" and "error" in refused.json()
    assert called.status_code == 200 and called.json()["content"][0]["type"] == "tool_use"


def test_mock_script_faults(tmp_path: Path) -> None:
    """Issue 27: `--script FILE` faults `{status: 429, retry_after: 2}` (a Retry-After header), `{status: 500}` and
    `{delay_ms: N}`."""
    from toolchoice.providers.core.mock.server import running_mock

    script = write(tmp_path, "faults.yaml", "replies:\n  - {status: 429, retry_after: 2}\n  - {status: 500}\n"
                                            "  - {delay_ms: 30, text: slow}\n")
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    with running_mock("openai", script=str(script)) as served:
        answers = [httpx.post(served.base_url + "/chat/completions", json=body, headers={"authorization": "Bearer k"})
                   for _ in range(3)]
    assert [a.status_code for a in answers] == [429, 500, 200]
    assert answers[0].headers["retry-after"] == "2" and answers[2].json()["choices"][0]["message"]["content"] == "slow"


def test_proxy_judges_in_front_of_the_mock_and_never_keeps_the_key() -> None:
    """Issue 27: `toolchoice proxy --provider ID --upstream URL`: "the same judging in front of the real provider",
    replies judged (obeyed / disobeyed / phantom) and streamed back; the client's key passes through and is never
    printed or saved. Tested against `toolchoice mock` as the upstream, as the issue says."""
    from toolchoice.providers.core.mock.proxy import serve_proxy
    from toolchoice.providers.core.mock.server import running_mock

    tools = [{"type": "function", "function": {"name": "search", "parameters": FUNCTION}}]
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "tools": tools, "tool_choice": "required"}
    with running_mock("openai") as upstream:
        urls: queue.Queue[str] = queue.Queue()
        lines: list[dict[str, Any]] = []
        thread = threading.Thread(target=serve_proxy, args=("openai", upstream.base_url), daemon=True,
                                  kwargs={"max_requests": 2, "on_url": urls.put, "on_record": lines.append})
        thread.start()
        url = urls.get(timeout=10)
        whole = httpx.post(url + "/chat/completions", json=body, headers={"authorization": f"Bearer {KEY}"})
        with httpx.stream("POST", url + "/chat/completions", json=body | {"stream": True},
                          headers={"authorization": f"Bearer {KEY}"}) as streamed:
            events = [line for line in streamed.iter_lines() if line.startswith("data:")]
        thread.join(10)
    assert whole.status_code == 200 and events[-1] == "data: [DONE]"
    assert [(line["stream"], line["verdict"]) for line in lines] == [(False, "obeyed"), (True, "obeyed")]
    assert all(LINE_FIELDS <= set(line) for line in lines) and KEY not in json.dumps(lines)


def test_schema_mock_prints_the_line_schema() -> None:
    """Issue 27's closing note: `toolchoice schema mock` prints the jsonl line's schema, requiring the issue's
    fields."""
    schema = json.loads(toolchoice("schema", "mock").stdout)
    assert LINE_FIELDS <= set(schema["required"])


# ---- issue 28: the library the CLI draws ------------------------------------------------------------------------


def test_one_library_entry_per_job_and_the_documented_names() -> None:
    """Issue 28 §1: "One library entry per job — `render`, `send`, `compare`, `probe`, `run`" with a documented
    Python API (`docs/python.md`, whose examples `tests/test_python_docs.py` runs): `compare --send` is
    `jobs.compare_send` (the dry-run compare is `jobs.render` over several providers), as docs/python.md says."""
    import toolchoice.providers as api
    from toolchoice.providers.core import jobs

    for name in ("render", "translations", "send", "compare_send", "probe", "run"):
        assert callable(getattr(jobs, name)), name
    for name in ("RenderOptions", "load_scenario", "load_scenario_text", "load_scenario_dict", "Translation",
                 "LedgerEntry", "Reply", "ToolchoiceError", "MissingKey", "NothingToSend", "OutOfRange",
                 "ArgumentError", "BadReply", "WrongArgument", "SendSettings", "LoopOptions", "running_mock"):
        assert hasattr(api, name), name
    page = (ROOT / "docs" / "python.md").read_text()
    for call in ("jobs.render(", "jobs.send(", "jobs.compare_send(", "jobs.probe(", "jobs.run("):
        assert call in page, call


# ---- issue 29: hardening, round three -----------------------------------------------------------------------


def test_a_dry_run_reaches_no_mcp_server_and_run_takes_the_opt_in(tmp_path: Path) -> None:
    """Issue 29: "make live MCP sources an explicit opt-in on dry-run commands"; its closing note: `--live-mcp` on
    render, compare, `send --dry-run`, parse and `run --dry-run`. Without it the dry run refuses in one line naming
    `--live-mcp`, exit 2; `run --dry-run --live-mcp` is taken (the server is then started: here it fails, which
    shows it was reached)."""
    path = str(write(tmp_path, "mcp.yaml", "tools:\n  - from: {mcp: \"python3 -c 'print(1)'\"}\n"
                                           "tool_choice: auto\nmessages: [{role: user, content: hi}]\n"
                                           "loop:\n  max_steps: 2\n"))
    for args in (("render", path), ("run", path, "--dry-run"), ("compare", path), ("send", path, "--dry-run")):
        result = toolchoice(*args, "-p", "openai")
        assert result.returncode == 2 and "--live-mcp" in result.stderr, args
    live = toolchoice("run", path, "-p", "openai", "--dry-run", "--live-mcp")
    assert "No such option" not in live.stderr and "a dry run does not start the server" not in live.stderr


def test_limits_are_raised_by_toolchoice_limit_variables(tmp_path: Path) -> None:
    """Issue 29 §3: limits as data, each refusal one line naming the limit and how to raise it
    (`TOOLCHOICE_LIMIT_<NAME>`, docs/limits.md)."""
    path = str(write(tmp_path, "s.yaml", TOOLS + "tool_choice: auto\n"))
    small = toolchoice("render", path, "-p", "openai", TOOLCHOICE_LIMIT_FILE_BYTES="100")
    assert small.returncode == 2 and "TOOLCHOICE_LIMIT_FILE_BYTES" in small.stderr and "file_bytes" in small.stderr
    assert toolchoice("render", path, "-p", "openai", TOOLCHOICE_LIMIT_FILE_BYTES="100000").returncode == 0


def test_a_keyword_typo_gets_did_you_mean(tmp_path: Path) -> None:
    """Issue 29: "keyword typos (`requried`) get no "did you mean"" — now they do."""
    path = str(write(tmp_path, "typo.yaml", TOOLS.replace("required: [q]", "requried: [q]") + "tool_choice: auto\n"))
    result = toolchoice("render", path, "-p", "openai", "-f", "json")
    assert "did you mean 'required'" in result.stdout + result.stderr


# ---- issue 30: loops at the network's limit -------------------------------------------------------------------


def test_toolchoice_http_client_picks_the_client(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30's closing note: `TOOLCHOICE_HTTP_CLIENT=httpx|aiohttp` forces one client whatever the number of
    requests."""
    import importlib.util

    from toolchoice.providers.core import http_clients

    monkeypatch.setenv("TOOLCHOICE_HTTP_CLIENT", "httpx")
    assert http_clients.aiohttp_wanted(100_000) is False
    monkeypatch.setenv("TOOLCHOICE_HTTP_CLIENT", "aiohttp")
    installed = all(importlib.util.find_spec(n) is not None for n in ("aiohttp", "httpx_aiohttp"))
    assert http_clients.aiohttp_wanted(1) is installed


# ---- issue 31: traces in, traces out --------------------------------------------------------------------------

LOOP_31 = TOOLS + """tool_choice: required
loop:
  max_steps: 3
  steps:
    - {tool_choice: {tool: search}}
    - {tool_choice: auto}
  stop: {tool: done}
  results: {search: "3 hits", read_file: text}
"""


def attributes(span: dict[str, Any]) -> dict[str, Any]:
    return {a["key"]: next(iter(a["value"].values())) for a in span["attributes"]}


def test_trace_out_is_otlp_json_and_reads_back_to_the_same_choices(tmp_path: Path, mock: Any) -> None:
    """Issue 31 §3: `run --trace-out FILE`: OTLP/JSON, one span per step, `gen_ai.operation.name` "chat",
    `gen_ai.provider.name`, `gen_ai.request.model`, `toolchoice.tool_choice.requested` / `.effective`,
    `toolchoice.verdict`, hex ids and integer enums, no key; §1: `toolchoice trace FILE [--format yaml|json]` reads
    it back to the same per-step tool_choice; §2: `run --replay TRACE_FILE -p PROVIDER` replays it offline on
    another provider."""
    path = write(tmp_path, "loop.yaml", LOOP_31)
    out = tmp_path / "trace.json"
    ran = toolchoice("run", str(path), "-p", "openai", "--base-url", mock.base_url, "--trace-out", str(out))
    assert ran.returncode == 0, ran.stderr
    text = out.read_text()
    assert KEY not in text
    spans = [s for rs in json.loads(text)["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]
    assert len(spans) >= 2
    for span in spans:
        assert re.fullmatch(r"[0-9a-f]{32}", span["traceId"]) and re.fullmatch(r"[0-9a-f]{16}", span["spanId"])
        assert isinstance(span["kind"], int)
        a = attributes(span)
        assert a["gen_ai.operation.name"] == "chat" and a["gen_ai.provider.name"] == "openai"
        assert a["gen_ai.request.model"] and a["toolchoice.verdict"] == "obeyed"
        assert {"toolchoice.tool_choice.requested", "toolchoice.tool_choice.effective"} <= set(a)
    assert json.loads(attributes(spans[0])["toolchoice.tool_choice.requested"]) == {"tool": "search"}
    back = toolchoice("trace", str(out), "--format", "json")
    assert back.returncode == 0
    steps = json.loads(back.stdout)["loop"]["steps"]
    assert [s["tool_choice"] for s in steps[:2]] == [{"tool": "search"}, "auto"]
    assert "openai" in json.loads(back.stdout)["providers"]
    assert toolchoice("trace", str(out)).stdout.startswith("#")  # yaml, its notes as comments
    replayed = toolchoice("run", "--replay", str(out), "-p", "anthropic", "-f", "json")
    assert replayed.returncode == 0 and json.loads(replayed.stdout)["runs"][0]["provider"] == "anthropic"


def test_send_trace_out_and_content_capture_off(tmp_path: Path, mock: Any) -> None:
    """Issue 31: `send --trace-out` writes the samples' spans; with content capture off
    (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=false`) the trace holds no messages, and `toolchoice trace`
    says so in one line, exit 2 ("a trace without content: one line saying so, exit 2")."""
    out = tmp_path / "send.json"
    sent = toolchoice("send", str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "--base-url", mock.base_url,
                      "--trace-out", str(out), OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT="false")
    assert sent.returncode == 0 and json.loads(out.read_text())["resourceSpans"]
    read = toolchoice("trace", str(out))
    assert read.returncode == 2 and len(read.stderr.splitlines()) == 1 and str(out.name) in read.stderr


def test_trace_import_of_both_conventions_and_its_notes() -> None:
    """Issue 31 §1: OTel GenAI has no tool_choice attribute ("not recorded", `trace.tool_choice_not_recorded`),
    no tool definitions there get an open schema (`trace.open_schema`), `gcp.gemini` maps to toolchoice's gemini
    (`trace.provider_mapped`) into `providers: {gemini: {model}}`; OpenInference's tool_choice is read from
    `llm.invocation_parameters` in the provider's form; several runs are listed, `--trace-id` picks one, an unknown
    id is one line, exit 2."""
    genai = toolchoice("trace", str(TRACES / "genai-structured-no-ids.json"), "-f", "json")
    assert genai.returncode == 0
    for code in ("trace.tool_choice_not_recorded", "trace.open_schema", "trace.provider_mapped"):
        assert code in genai.stderr, code
    document = json.loads(genai.stdout)
    assert document["providers"] == {"gemini": {"model": "gemini-2.5-flash"}}
    assert document["tools"][0]["parameters"] == {"type": "object"}
    oi = json.loads(toolchoice("trace", str(TRACES / "instrumented" / "oi-openai.json"), "-f", "json").stdout)
    assert [s["tool_choice"] for s in oi["loop"]["steps"]] == [{"tool": "get_weather"}, "auto"]
    two = TRACES / "instrumented" / "oi-two-runs.json"
    listed = toolchoice("trace", str(two))
    ids = re.findall(r"trace_id: ([0-9a-f]{32})", listed.stdout)
    assert listed.returncode == 0 and len(ids) == 2
    assert toolchoice("trace", str(two), "--trace-id", ids[1], "-f", "json").returncode == 0
    wrong = toolchoice("trace", str(two), "--trace-id", "0" * 32)
    assert wrong.returncode == 2 and len(wrong.stderr.splitlines()) == 1


@pytest.mark.parametrize("text", ['{"resourceSpans": 5}', "nope\n"])
def test_a_bad_trace_file_is_one_line_naming_it(tmp_path: Path, text: str) -> None:
    """Issue 31, must hold: "Bad trace files: one line naming the file and what is wrong, exit 2"."""
    path = write(tmp_path, "bad.json", text)
    result = toolchoice("trace", str(path))
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1 and "bad.json" in result.stderr
