"""Traces in, traces out (issue 31).

In: the REAL instrumentations (openinference-instrumentation-openai / -anthropic, opentelemetry-instrumentation-
openai-v2, opentelemetry-instrumentation-anthropic) record an agent run of the official SDK against a stand-in on
127.0.0.1 (tests/trace_recorder.py, one process per environment and SDK); the OTLP/JSON they make is read by `toolchoice
trace` and replayed with `run --replay FILE` on several providers. The expected values are what the agent
script sent and what the stand-in answered (tests/trace_recorder.py), not what the code computes.
Out: `run --trace-out` / `send --trace-out` parse as ExportTraceServiceRequest with the OTLP protobuf types and
with the official OTLP/JSON codec (opentelemetry-proto-json), round-trip, and read back to the same tool_choice.
"""

from __future__ import annotations

import base64
import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cli import run_cli
from servers import StandIn, Step, fixture

RECORDER = Path(__file__).parent / "trace_recorder.py"
NEEDS = {"openinference-openai": "openinference.instrumentation.openai",
         "openinference-anthropic": "openinference.instrumentation.anthropic",
         "openinference-openai-responses": "openinference.instrumentation.openai",
         "openinference-anthropic-history": "openinference.instrumentation.anthropic",
         "openinference-anthropic-thinking": "openinference.instrumentation.anthropic",
         "otel-openai-v2": "opentelemetry.instrumentation.openai_v2",
         "otel-anthropic": "opentelemetry.instrumentation.anthropic",
         "otel-openai": "opentelemetry.instrumentation.openai",
         "openinference-google-genai": "openinference.instrumentation.google_genai"}
# name -> (kind, runs, parent span, extra environment)
RECORDINGS = {
    "oi-openai": ("openinference-openai", 1, False, {}),
    "oi-responses": ("openinference-openai-responses", 1, False, {}),
    "oi-history": ("openinference-anthropic-history", 1, False, {}),
    "oi-anthropic": ("openinference-anthropic", 1, False, {}),
    "oi-thinking": ("openinference-anthropic-thinking", 1, True, {}),
    "oi-two-runs": ("openinference-openai", 2, True, {}),
    "v2-content": ("otel-openai-v2", 1, True, {"OTEL_SEMCONV_STABILITY_OPT_IN": "gen_ai_latest_experimental",
                                               "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "SPAN_ONLY"}),
    "v2-no-content": ("otel-openai-v2", 1, False, {"OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "NO_CONTENT"}),
    "otel-anthropic": ("otel-anthropic", 1, False, {"TRACELOOP_TRACE_CONTENT": "true"}),
    "otel-openai": ("otel-openai", 1, True, {"TRACELOOP_TRACE_CONTENT": "true"}),
    "oi-gemini": ("openinference-google-genai", 1, True, {}),
}


# Read by OpenLLMetry's instrumentations alone (opentelemetry-instrumentation-openai / -anthropic: no other installed
# package names a TRACELOOP_ variable), so recordings that differ only in these share a process: an OpenInference
# recording beside an OpenLLMetry one saves a second import of its SDK (anthropic ~1.1 s CPU, openai ~0.4 s).
OPENLLMETRY_ONLY = {"TRACELOOP_TRACE_CONTENT"}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


# The recordings the real instrumentations made, kept with the versions of every package that takes part
# (INSTRUMENTED/versions.json): while those are the installed ones, the same packages given the same agent script
# record the same spans (ids, times and ports aside, which no test reads as truth), so the suite reads them rather
# than making them again (~7 s of CPU in nine processes each run). Any other version installed, or
# TOOLCHOICE_RECORD_TRACES=1, and they are made live as before (=1 also writes them here).
INSTRUMENTED = Path(__file__).parent / "data/traces/instrumented"
TAKING_PART = ("openai", "anthropic", "google-genai", "httpx", "opentelemetry-api", "opentelemetry-sdk")


def _taking_part() -> dict[str, str]:
    from importlib.metadata import distributions

    names = {d.metadata["Name"].lower().replace("_", "-"): d.version for d in distributions()}
    return {n: v for n, v in sorted(names.items())
            if n in TAKING_PART or n.startswith(("opentelemetry-instrumentation", "openinference-",
                                                 "opentelemetry-semantic-conventions", "opentelemetry-util-genai"))}


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    """The recordings (see INSTRUMENTED): read from tests/data where they were made by the installed packages, made
    live otherwise."""
    import os
    import shutil

    record = os.environ.get("TOOLCHOICE_RECORD_TRACES") == "1"
    versions = INSTRUMENTED / "versions.json"
    kept = json.loads(versions.read_text(encoding="utf-8")) if versions.exists() else None
    if not record and kept == _taking_part():
        return {name: INSTRUMENTED / f"{name}.json" for name in RECORDINGS if (INSTRUMENTED / f"{name}.json").exists()}
    made = _recorded_live(tmp_path_factory)
    if record:
        if INSTRUMENTED.exists():
            shutil.rmtree(INSTRUMENTED)
        INSTRUMENTED.mkdir(parents=True)
        for name, path in made.items():
            shutil.copyfile(path, INSTRUMENTED / f"{name}.json")
        versions.write_text(json.dumps(_taking_part(), indent=1) + "\n", encoding="utf-8")
    return made


def test_the_kept_recordings_are_of_the_installed_instrumentations(traces):
    """Every recording is kept, made by the packages installed here; else they were made live this run and this
    says to keep them again (TOOLCHOICE_RECORD_TRACES=1)."""
    versions = INSTRUMENTED / "versions.json"
    assert versions.exists() and json.loads(versions.read_text(encoding="utf-8")) == _taking_part(), (
        "the kept trace recordings are of other versions: made live this run; TOOLCHOICE_RECORD_TRACES=1 keeps them")
    installed = {name for name, (kind, *_) in RECORDINGS.items() if _installed(NEEDS[kind])}
    assert {p.stem for p in INSTRUMENTED.glob("*.json")} - {"versions"} == installed


def _recorded_live(tmp_path_factory):
    """Every recording, made at once: one process per environment (OpenLLMetry's own variables aside) and SDK
    (tests/trace_recorder.py `many`), each recording instrumenting, running and uninstrumenting in turn; the
    recordings of one process share its environment (some instrumentations read it once per process)."""
    import os

    folder = tmp_path_factory.mktemp("traces")
    groups: dict[tuple[tuple[tuple[str, str], ...], bool], list[list[object]]] = {}
    environments: dict[tuple[tuple[tuple[str, str], ...], bool], dict[str, str]] = {}
    for name, (kind, runs, parent, env) in RECORDINGS.items():
        if _installed(NEEDS[kind]):
            key = (tuple(sorted((k, v) for k, v in env.items() if k not in OPENLLMETRY_ONLY)), "anthropic" in kind)
            groups.setdefault(key, []).append([kind, str(folder / f"{name}.json"), runs, parent])
            shared = environments.setdefault(key, {})
            assert all(shared.get(k, v) == v for k, v in env.items()), (name, shared)
            shared.update(env)
    made: dict[str, Path] = {}
    running: list[tuple[list[list[object]], subprocess.Popen[str]]] = []

    def finish(group: list[list[object]], process: subprocess.Popen[str]) -> None:
        _, err = process.communicate(timeout=120)
        names = [Path(str(out)).stem for _, out, _, _ in group]
        assert process.returncode == 0, f"{names}: {err[-2000:]}"
        made.update((Path(str(out)).stem, Path(str(out))) for _, out, _, _ in group)

    for key, group in groups.items():
        if len(running) == 3:  # three at a time: the machine is shared
            finish(*running.pop(0))
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "TRACELOOP_"))}
        environ.update(environments[key])
        args = [sys.executable, str(RECORDER), "many", json.dumps(group)]
        running.append((group, subprocess.Popen(args, env=environ, stdout=subprocess.PIPE,
                                                stderr=subprocess.PIPE, text=True)))
    for item in running:
        finish(*item)
    return made


def trace_of(traces, name):
    if name not in traces:
        pytest.skip(f"the instrumentation for {name} is not installed")
    return traces[name]


def imported(path, *args):
    result = run_cli(["trace", str(path), "--format", "json", *args])
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), result.stderr


# ---- in: what each convention records becomes the scenario ---------------------------------------

OPENAI_TOOL = {"name": "get_weather", "description": "Weather in a city",
               "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "state": {"type": "string"}},
                              "required": ["city"]}}
ANTHROPIC_TOOL = {"name": "weather", "description": "Weather at a location",
                  "parameters": {"type": "object", "properties": {"location": {"type": "string"}},
                                 "required": ["location"]}}
SYSTEM = "You answer weather questions with the tool."
FIRST = [{"role": "user", "content": "Weather in San Francisco?"}]


def test_openinference_openai_reads_tools_messages_each_steps_tool_choice_and_results(traces):
    scenario, notes = imported(trace_of(traces, "oi-openai"))
    assert scenario["tools"] == [OPENAI_TOOL]
    assert scenario["system"] == SYSTEM and scenario["messages"] == FIRST
    # the agent sent {"type":"function","function":{"name":"get_weather"}} then "auto"
    assert scenario["loop"]["steps"] == [{"tool_choice": {"tool": "get_weather"}}, {"tool_choice": "auto"}]
    assert scenario["loop"]["results"] == {"get_weather": ["18 C, sunny"]}
    assert scenario["loop"]["max_steps"] == 2
    # llm.model_name is the answering model (gpt-4o-2024-08-06); the requested one was gpt-4o
    assert scenario["providers"] == {"openai": {"model": "gpt-4o"}}
    assert "trace.tool_choice_not_recorded" not in notes


def test_openinference_anthropic_reads_its_native_tool_choice_and_tool_role_results(traces):
    scenario, _ = imported(trace_of(traces, "oi-anthropic"))
    assert scenario["tools"] == [ANTHROPIC_TOOL]
    assert scenario["system"] == SYSTEM and scenario["messages"] == FIRST
    # {"type": "any"} then {"type": "auto"}
    assert scenario["loop"]["steps"] == [{"tool_choice": "required"}, {"tool_choice": "auto"}]
    assert scenario["loop"]["results"] == {"weather": ["18 C, sunny"]}
    assert scenario["providers"] == {"anthropic": {"model": "claude-haiku-4-5"}}


def test_openinference_anthropic_history_keeps_parallel_calls_their_results_and_the_parallel_switch(traces):
    scenario, _ = imported(trace_of(traces, "oi-history"))
    assert scenario["messages"] == [
        {"role": "user", "content": "Weather in SF and NYC?"},
        {"role": "assistant", "content": "Checking both.", "tool_calls": [
            {"id": "t1", "name": "weather", "arguments": {"location": "SF"}},
            {"id": "t2", "name": "weather", "arguments": {"location": "NYC"}}]},
        {"role": "tool", "tool_call_id": "t1", "content": "18 C"},
        {"role": "tool", "tool_call_id": "t2", "content": json.dumps([{"type": "text", "text": "5 C"}])},
        {"role": "user", "content": "Thanks"}]
    # {"type": "auto", "disable_parallel_tool_use": true}
    assert scenario["loop"]["steps"] == [{"tool_choice": "auto"}] and scenario["parallel_tool_calls"] is False
    result = run_cli(["run", "--replay", str(trace_of(traces, "oi-history")), "-p", "openai", "-f", "json"])
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)["runs"][0]["loops"][0]["steps"][0]["request"]["body"]
    assert body["parallel_tool_calls"] is False
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "tool", "tool", "user"]


def test_openinference_google_genai_keeps_the_thought_signature_and_reads_tool_config(traces):
    path = trace_of(traces, "oi-gemini")
    scenario, notes = imported(path)
    # google-genai records no invocation parameters: tool_config {function_calling_config: {mode: ANY}} then AUTO
    assert scenario["loop"]["steps"] == [{"tool_choice": "required"}, {"tool_choice": "auto"}]
    assert scenario["providers"] == {"gemini": {"model": "gemini-3-pro-preview"}}  # llm.provider "google"
    assert scenario["tools"] == [ANTHROPIC_TOOL] and scenario["system"] == SYSTEM
    assert scenario["loop"]["results"] == {"weather": [json.dumps({"result": "18 C, sunny"})]}
    recorded = fixture("gemini", "gemini-function-call-thought-signature")["candidates"][0]["content"]["parts"][0]
    result = run_cli(["run", "--replay", str(path), "-p", "gemini", "-f", "json"])
    assert result.returncode == 0, result.stderr
    second = json.loads(result.stdout)["runs"][0]["loops"][0]["steps"][1]["request"]["body"]
    turn = second["contents"][1]
    assert turn["role"] == "model" and turn["parts"][0]["thoughtSignature"] == recorded["thoughtSignature"]
    assert turn["parts"][0]["functionCall"]["args"] == recorded["functionCall"]["args"]
    kept = json.loads(result.stdout)["runs"][0]["loops"][0]["steps"][0]["ledger"]
    assert not any(e["code"] == "trace.reasoning_not_carried" for e in kept)  # Gemini's own signatures go back to it
    elsewhere = run_cli(["run", "--replay", str(path), "-p", "anthropic", "-f", "json"])
    ledger = json.loads(elsewhere.stdout)["runs"][0]["loops"][0]["steps"][0]["ledger"]
    assert [e["message"] for e in ledger if e["code"] == "trace.reasoning_not_carried"] == [
        "the recorded calls carry thought signatures (Gemini): anthropic does not get them"]


def test_openinference_responses_calls_are_the_responses_api(traces):
    path = trace_of(traces, "oi-responses")
    scenario, _ = imported(path)
    # the request had input (not messages) and tool_choice {"type": "function", "name": "get_weather"}
    assert scenario["providers"] == {"openai-responses": {"model": "gpt-4.1"}}
    assert scenario["loop"]["steps"][0]["tool_choice"] == {"tool": "get_weather"}
    assert scenario["system"] == SYSTEM and scenario["messages"] == [{"role": "user", "content": "Weather?"}]
    recorded = next(i for i in fixture("openai-responses", "openai-responses-function-call")["output"]
                    if i["type"] == "function_call")
    for provider in ("openai-responses", "anthropic"):
        result = run_cli(["run", "--replay", str(path), "-p", provider, "-f", "json"])
        assert result.returncode == 0, result.stderr
        (step,) = json.loads(result.stdout)["runs"][0]["loops"][0]["steps"]
        assert [(c["name"], c["arguments"]) for c in step["reply"]["tool_calls"]] == [
            (recorded["name"], json.loads(recorded["arguments"]))]
        assert step["verdict"]["category"] == "obeyed"


def test_otel_genai_anthropic_has_no_tool_choice_so_it_is_said_and_left_unspecified(traces):
    scenario, notes = imported(trace_of(traces, "otel-anthropic"))
    assert scenario["tools"] == [ANTHROPIC_TOOL]
    assert scenario["system"] == SYSTEM and scenario["messages"] == FIRST
    assert "steps" not in scenario["loop"] and "tool_choice" not in scenario
    assert scenario["loop"]["results"] == {"weather": ["18 C, sunny"]}
    assert "trace.tool_choice_not_recorded" in notes and "not recorded" in notes
    # no step records one: "for any step" (it said "no tool_choice for every step", which reads as "some step has one")
    assert "records no tool_choice for any step (" in notes and "every step" not in notes


def test_otel_genai_openai_reads_its_tool_definitions_and_says_tool_choice_is_not_recorded(traces):
    scenario, notes = imported(trace_of(traces, "otel-openai"))
    assert scenario["tools"] == [OPENAI_TOOL]
    assert scenario["system"] == SYSTEM and scenario["messages"] == FIRST
    assert "steps" not in scenario["loop"] and scenario["loop"]["results"] == {"get_weather": ["18 C, sunny"]}
    assert scenario["providers"] == {"openai": {"model": "gpt-4o"}}
    assert "trace.tool_choice_not_recorded" in notes


def test_openai_v2_records_no_tool_definitions_so_the_called_tool_gets_an_open_schema_and_a_note(traces):
    scenario, notes = imported(trace_of(traces, "v2-content"))
    assert scenario["tools"] == [{"name": "get_weather", "parameters": {"type": "object"}}]
    assert scenario["system"] == SYSTEM and scenario["messages"] == FIRST
    assert scenario["loop"]["results"] == {"get_weather": ["18 C, sunny"]}
    assert scenario["providers"] == {"openai": {"model": "gpt-4o"}}
    assert "trace.open_schema" in notes and "trace.tool_choice_not_recorded" in notes


def test_a_trace_without_content_is_one_line_and_exit_2(traces):
    path = trace_of(traces, "v2-no-content")
    result = run_cli(["trace", str(path)])
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert str(path) in result.stderr and "content was not captured" in result.stderr
    replayed = run_cli(["run", "--replay", str(path), "-p", "openai"])
    assert replayed.returncode == 2 and "content was not captured" in replayed.stderr


def test_yaml_output_is_a_scenario_the_loader_reads_with_the_notes_as_comments(traces, tmp_path):
    result = run_cli(["trace", str(trace_of(traces, "v2-content"))])
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# info trace.imported")
    assert "# warning trace.open_schema" in result.stdout
    saved = tmp_path / "imported.yaml"
    saved.write_text(result.stdout)
    assert yaml.safe_load(result.stdout)["loop"]["max_steps"] == 2
    dry = run_cli(["run", str(saved), "-p", "anthropic", "--dry-run", "-f", "json"])
    assert dry.returncode == 0, dry.stderr


def test_several_runs_are_listed_and_trace_id_picks_one(traces):
    path = trace_of(traces, "oi-two-runs")
    listing = run_cli(["trace", str(path), "-f", "json"])
    assert listing.returncode == 0, listing.stderr
    runs = json.loads(listing.stdout)["runs"]
    assert len(runs) == 2 and all(r["llm_calls"] == 2 for r in runs)
    spans = [s for r in json.loads(path.read_text())["resourceSpans"] for ss in r["scopeSpans"] for s in ss["spans"]]
    recorded_ids = {s["traceId"] for s in spans}
    assert {r["trace_id"] for r in runs} == recorded_ids
    scenario, _ = imported(path, "--trace-id", runs[1]["trace_id"])
    assert scenario["loop"]["steps"] == [{"tool_choice": {"tool": "get_weather"}}, {"tool_choice": "auto"}]
    no_pick = run_cli(["run", "--replay", str(path), "-p", "openai"])
    assert no_pick.returncode == 2 and "--trace-id" in no_pick.stderr
    wrong = run_cli(["trace", str(path), "--trace-id", "0" * 32])
    assert wrong.returncode == 2 and "no run with trace id" in wrong.stderr


def test_reasoning_signatures_are_kept(traces):
    scenario, _ = imported(trace_of(traces, "oi-thinking"))
    assert scenario["loop"]["steps"] == [{"tool_choice": "auto"}, {"tool_choice": "auto"}]
    recorded = fixture("reasoning", "anthropic-thinking-tool-use")["content"][0]
    result = run_cli(["run", "--replay", str(trace_of(traces, "oi-thinking")), "-p", "anthropic", "-f", "json"])
    assert result.returncode == 0, result.stderr
    steps = json.loads(result.stdout)["runs"][0]["loops"][0]["steps"]
    turn = steps[1]["request"]["body"]["messages"][1]
    assert turn["role"] == "assistant"
    assert turn["content"][0] == {"type": "thinking", "thinking": recorded["thinking"],
                                  "signature": recorded["signature"]}
    elsewhere = run_cli(["run", "--replay", str(trace_of(traces, "oi-thinking")), "-p", "openai", "-f", "json"])
    ledger = json.loads(elsewhere.stdout)["runs"][0]["loops"][0]["steps"][1]["ledger"]
    assert any(e["code"] == "trace.reasoning_not_carried" for e in ledger)


# ---- replay: the recorded trajectory on every provider ---------------------------------------

REPLAYED = ["openai", "anthropic", "gemini", "bedrock", "openai-responses", "mistral", "cohere"]


@pytest.mark.parametrize("name,call,arguments,choices", [
    ("oi-openai", "get_weather", {"city": "San Francisco", "state": "CA"}, [{"tool": "get_weather"}, "auto"]),
    ("oi-anthropic", "weather", {"location": "San Francisco"}, ["required", "auto"]),
    ("otel-anthropic", "weather", {"location": "San Francisco"}, [None, None]),
    ("v2-content", "get_weather", {"city": "San Francisco", "state": "CA"}, [None, None]),
    ("otel-openai", "get_weather", {"city": "San Francisco", "state": "CA"}, [None, None]),
    ("oi-gemini", "weather", {"location": "San Francisco"}, ["required", "auto"]),
])
@pytest.mark.parametrize("provider", REPLAYED)
def test_replay_renders_and_judges_the_recorded_trajectory_on_each_provider(traces, name, call, arguments, choices,
                                                                            provider):
    result = run_cli(["run", "--replay", str(trace_of(traces, name)), "-p", provider, "-f", "json"],
                     env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"})
    assert result.returncode == 0, result.stderr
    loop = json.loads(result.stdout)["runs"][0]["loops"][0]
    assert loop["ended"]["reason"] == "no_tool_call" and loop["final_answer"] == "It is 18 C and sunny."
    first, second = loop["steps"]
    assert [s["requested_tool_choice"] for s in loop["steps"]] == choices
    assert [(c["name"], c["arguments"]) for c in first["reply"]["tool_calls"]] == [(call, arguments)]
    assert first["verdict"]["category"] == "obeyed" and second["verdict"]["category"] == "obeyed"
    assert first["request"]["body"] and second["request"]["body"]
    # step 2 carries the recorded call and its recorded result, in this provider's form
    body = json.dumps(second["request"]["body"])
    assert "18 C, sunny" in body and "San Francisco" in body
    # what the agent sent back: google-genai's function response is an object
    assert first["results"][0]["content"] == (json.dumps({"result": "18 C, sunny"}) if name == "oi-gemini"
                                              else "18 C, sunny")


def test_a_given_scenario_replays_with_the_traces_replies(traces, tmp_path):
    """`run SCENARIO --replay TRACE`: the scenario edited (step 1 now `none`), the replies recorded."""
    scenario, _ = imported(trace_of(traces, "oi-openai"))
    scenario["loop"]["steps"][0] = {"tool_choice": "none"}
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(scenario))
    result = run_cli(["run", str(path), "--replay", str(trace_of(traces, "oi-openai")), "-p", "openai", "-f", "json"])
    assert result.returncode == 4, result.stderr  # DISOBEYED: the recorded call now disobeys `none`
    step = json.loads(result.stdout)["runs"][0]["loops"][0]["steps"][0]
    assert step["requested_tool_choice"] == "none" and step["verdict"]["category"] != "obeyed"


# ---- bad trace files -----------------------------------------------------------------------------

@pytest.mark.parametrize("content,words", [
    (b"", "empty"),
    (b"{not json", "not JSON"),
    (b'{"resourceSpans": "x"}', "not an OTLP/JSON trace export"),
    (b'{"data": []}', "no resourceSpans"),
    (b'{"resourceSpans": []}', "no LLM spans"),
    (b"\xff\xfe\x00", "not UTF-8"),
    (b"[" * 5000 + b"]" * 5000, "nests deeper than 100 levels (raise it with TOOLCHOICE_LIMIT_JSON_DEPTH"),
    (b'{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "!!", "spanId": "x"}]}]}]}', "neither hex nor base64"),
])
def test_bad_trace_files_are_one_line_naming_the_file_exit_2(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    for args in (["trace", str(path)], ["run", "--replay", str(path), "-p", "openai"]):
        result = run_cli(args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and str(path) in lines[0] and words in lines[0], lines
        assert "Traceback" not in result.stderr


def test_a_deep_trace_is_refused_by_depth(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"resourceSpans": [' + "[" * 150 + "]" * 150 + "]}")
    result = run_cli(["trace", str(path)])
    assert result.returncode == 2 and "deeper than 100 levels" in result.stderr


def test_a_huge_trace_is_refused_by_size(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(8 * 1024 * 1024 + 10)
    result = run_cli(["trace", str(path)])
    assert result.returncode == 2 and "larger than 8 MB" in result.stderr


def test_missing_file_and_trace_id_without_trace(tmp_path):
    result = run_cli(["trace", str(tmp_path / "nope.json")])
    assert result.returncode == 2 and "no such file" in result.stderr
    result = run_cli(["run", "configs/weather.yaml", "-p", "openai", "--trace-id", "ab", "--dry-run"],
                     cwd=Path(__file__).parent.parent)
    assert result.returncode == 2 and "--trace-id goes with --replay TRACE_FILE" in result.stderr


# ---- out: OTLP/JSON that OTLP readers take ---------------------------------------------------------

def _ids(document, convert):
    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = convert(span[key])
    return document


def assert_otlp_round_trip(document):
    """Parses as ExportTraceServiceRequest (the OTLP protobuf types; ids given to protobuf as the bytes the hex
    says) and with the official OTLP/JSON codec, and both write it back unchanged."""
    json_format = pytest.importorskip("google.protobuf.json_format")
    service = pytest.importorskip("opentelemetry.proto.collector.trace.v1.trace_service_pb2")
    ExportTraceServiceRequest = service.ExportTraceServiceRequest

    as_base64 = _ids(copy.deepcopy(document), lambda h: base64.b64encode(bytes.fromhex(h)).decode())
    message = json_format.Parse(json.dumps(as_base64), ExportTraceServiceRequest())
    for span in message.resource_spans[0].scope_spans[0].spans:
        assert len(span.trace_id) == 16 and len(span.span_id) == 8
        assert span.kind == span.SPAN_KIND_CLIENT
    back = json_format.MessageToDict(message, use_integers_for_enums=True)
    assert _ids(back, lambda b: base64.b64decode(b).hex()) == document
    if _installed("opentelemetry.proto_json"):
        from opentelemetry.proto_json.collector.trace.v1.trace_service import ExportTraceServiceRequest as Codec

        assert Codec.from_dict(document).to_dict() == document
    return message


def spans_of(document):
    return [s for r in document["resourceSpans"] for ss in r["scopeSpans"] for s in ss["spans"]]


def attrs(span):
    from toolchoice.providers.core.trace_import import attributes

    return attributes(span["attributes"])


def test_run_trace_out_is_one_span_per_step_and_reads_back_to_the_same_tool_choice(traces, tmp_path):
    out = tmp_path / "out.json"
    result = run_cli(["run", "--replay", str(trace_of(traces, "oi-openai")), "-p", "anthropic", "-f", "json",
                      "--trace-out", str(out)])
    assert result.returncode == 0, result.stderr
    document = json.loads(out.read_text())
    assert_otlp_round_trip(document)
    spans = spans_of(document)
    assert len(spans) == 2 and len({s["traceId"] for s in spans}) == 1
    first, second = (attrs(s) for s in spans)
    assert first["gen_ai.operation.name"] == "chat" and first["gen_ai.provider.name"] == "anthropic"
    assert first["toolchoice.tool_choice.requested"] == '{"tool":"get_weather"}'
    assert json.loads(first["toolchoice.tool_choice.effective"]) == {"type": "tool", "name": "get_weather"}
    assert second["toolchoice.tool_choice.requested"] == "auto"
    assert first["toolchoice.verdict"] == "obeyed" and second["toolchoice.verdict"] == "obeyed"
    assert json.loads(second["gen_ai.input.messages"])[-1]["parts"][0]["response"] == "18 C, sunny"
    assert first["gen_ai.request.model"] == json.loads(result.stdout)["runs"][0]["loops"][0]["steps"][0][
        "request"]["body"]["model"]
    scenario, _ = imported(out)
    assert scenario["loop"]["steps"] == [{"tool_choice": {"tool": "get_weather"}}, {"tool_choice": "auto"}]
    assert "parallel_tool_calls" not in scenario  # the recorded run did not set it
    assert scenario["providers"] == {"anthropic": {"model": first["gen_ai.request.model"]}}
    assert scenario["tools"] == [OPENAI_TOOL]


def test_content_capture_can_be_switched_off(traces, tmp_path):
    import os

    out = tmp_path / "out.json"
    env = {**os.environ, "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT": "false"}
    result = run_cli(["run", "--replay", str(trace_of(traces, "oi-openai")), "-p", "openai", "-f", "json",
                      "--trace-out", str(out)], env=env)
    assert result.returncode == 0, result.stderr
    document = json.loads(out.read_text())
    assert_otlp_round_trip(document)
    for span in spans_of(document):
        assert not [k for k in attrs(span) if k.startswith(("gen_ai.input", "gen_ai.output", "gen_ai.tool",
                                                             "gen_ai.system_instructions"))]
        assert attrs(span)["toolchoice.tool_choice.requested"]


KEY = "sk-trace-test-0123456789abcdefghijklmnop"


def test_send_trace_out_against_a_stand_in_has_no_key(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(yaml.safe_dump({
        "tools": [OPENAI_TOOL], "tool_choice": {"tool": "get_weather"},
        "messages": [{"role": "user", "content": f"Weather in San Francisco? my key is {KEY}"}]}))
    out = tmp_path / "send.json"
    with StandIn("openai", Step(body=fixture("openai", "openai-chat-single-strict"))) as server:
        result = run_cli(["send", str(scenario), "-p", "openai", "--base-url", server.base_url("openai"),
                          "-f", "json", "--trace-out", str(out)],
                         env={"OPENAI_API_KEY": KEY, "PATH": "/usr/bin:/bin", "HOME": "/nonexistent"})
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert KEY not in text and KEY[:20] not in text
    document = json.loads(text)
    assert_otlp_round_trip(document)
    (span,) = spans_of(document)
    values = attrs(span)
    assert values["toolchoice.tool_choice.requested"] == '{"tool":"get_weather"}'
    assert values["toolchoice.verdict"] == "obeyed"
    assert values["gen_ai.usage.input_tokens"] == 48 and values["gen_ai.usage.output_tokens"] == 19
    assert json.loads(values["gen_ai.output.messages"])[0]["parts"][0]["name"] == "get_weather"


def test_a_strict_tool_survives_the_trace_round_trip(tmp_path):
    """strict: true written into gen_ai.tool.definitions (as a Responses function tool carries it) and read back
    by `toolchoice trace` (a new user's round trip lost it without a note)."""
    scenario = tmp_path / "s.yaml"
    strict_tool = {"name": "get_weather", "strict": True, "parameters": {  # what OpenAI's strict mode takes
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": False}}
    scenario.write_text(yaml.safe_dump({"tools": [strict_tool, {"name": "other", "strict": False}],
                                        "tool_choice": {"tool": "get_weather"},
                                        "messages": [{"role": "user", "content": "Weather in San Francisco?"}]}))
    out = tmp_path / "send.json"
    with StandIn("openai", Step(body=fixture("openai", "openai-chat-single-strict"))) as server:
        result = run_cli(["send", str(scenario), "-p", "openai", "--base-url", server.base_url("openai"),
                          "-f", "json", "--trace-out", str(out)], env={"OPENAI_API_KEY": KEY, "PATH": "/usr/bin:/bin"})
    assert result.returncode in (0, 4), result.stderr  # 4: the recorded reply's arguments break the strict schema
    (span,) = spans_of(json.loads(out.read_text()))
    assert [t.get("strict") for t in json.loads(attrs(span)["gen_ai.tool.definitions"])] == [True, False]
    back, _ = imported(out)
    assert [t.get("strict") for t in back["tools"]] == [True, False]


def test_render_and_send_start_up_import_no_trace_module():
    code = ("import sys\nsys.argv = ['toolchoice'] + sys.argv[1:]\nfrom toolchoice.cli.app import run\n"
            "run(sys.argv[1:])\n"
            "print(sorted(m for m in sys.modules if 'opentelemetry' in m or 'google.protobuf' in m "
            "or m.startswith('toolchoice.providers.core.trace') or m == 'toolchoice.cli.trace_cmd'))\n")
    root = Path(__file__).parent.parent
    for args in (["render", "configs/weather.yaml", "-p", "openai"],
                 ["send", "configs/weather.yaml", "-p", "openai", "--dry-run"]):
        result = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60,
                                cwd=root)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip().splitlines()[-1] == "[]"


# ---- forms no installed instrumentation writes (hand-written from the specifications; data/traces/SOURCES.md) --

DATA = Path(__file__).parent / "data" / "traces"


def test_older_per_message_span_events_are_read():
    scenario, notes = imported(DATA / "genai-span-events.json")
    assert scenario["system"] == "Be brief." and scenario["messages"] == [{"role": "user", "content": "Weather in Oslo?"}]
    assert scenario["loop"]["results"] == {"get_weather": ["-3 C, snow"]}
    assert scenario["providers"] == {"openai": {"model": "gpt-4o-mini"}}
    assert "trace.tool_choice_not_recorded" in notes
    result = run_cli(["run", "--replay", str(DATA / "genai-span-events.json"), "-p", "anthropic", "-f", "json"])
    loop = json.loads(result.stdout)["runs"][0]["loops"][0]
    assert loop["steps"][0]["reply"]["tool_calls"] == [{"id": "call_1", "name": "get_weather",
                                                        "arguments": {"city": "Oslo"}}]
    assert loop["final_answer"] == "-3 C and snowing."


def test_structured_message_values_and_calls_without_ids_are_read():
    scenario, _ = imported(DATA / "genai-structured-no-ids.json")
    assert scenario["messages"] == [{"role": "user", "content": "Weather in Paris?"}]
    assert scenario["providers"] == {"gemini": {"model": "gemini-2.5-flash"}}  # gcp.gemini
    assert scenario["loop"]["results"] == {"get_weather": ['{"temp": 21}']}  # matched by position
    result = run_cli(["run", "--replay", str(DATA / "genai-structured-no-ids.json"), "-p", "bedrock", "-f", "json"])
    assert result.returncode == 0, result.stderr
    loop = json.loads(result.stdout)["runs"][0]["loops"][0]
    assert loop["final_answer"] == "21 C" and loop["steps"][0]["results"][0]["content"] == '{"temp": 21}'


@pytest.mark.parametrize("recorded,expected", [("aws.bedrock", "bedrock"), ("gcp.vertex_ai", "gemini"),
                                               ("azure.ai.openai", "azure"), ("mistral_ai", "mistral"),
                                               ("x_ai", "xai"), ("anthropic", "anthropic")])
def test_recorded_provider_names_map_to_toolchoice_ids(tmp_path, recorded, expected):
    text = (DATA / "genai-structured-no-ids.json").read_text().replace('"gcp.gemini"', json.dumps(recorded))
    path = tmp_path / "t.json"
    path.write_text(text)
    scenario, _ = imported(path)
    assert list(scenario["providers"]) == [expected]


def test_an_unknown_provider_is_said_and_p_decides(tmp_path):
    text = (DATA / "genai-structured-no-ids.json").read_text().replace('"gcp.gemini"', '"acme.llm"')
    path = tmp_path / "t.json"
    path.write_text(text)
    scenario, notes = imported(path)
    assert "providers" not in scenario and "trace.provider_unknown" in notes and "acme.llm" in notes
    result = run_cli(["run", "--replay", str(path), "-p", "cohere", "-f", "json"])
    assert result.returncode == 0 and json.loads(result.stdout)["runs"][0]["provider"] == "cohere"


def test_one_export_per_line_reads_as_the_whole_file(traces, tmp_path):
    document = json.loads(trace_of(traces, "oi-openai").read_text())
    lines = []
    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                lines.append(json.dumps({"resourceSpans": [{**resource, "scopeSpans": [{**scope, "spans": [span]}]}]}))
    assert len(lines) == 2
    path = tmp_path / "lines.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert imported(path)[0] == imported(trace_of(traces, "oi-openai"))[0] | {
        "description": imported(path)[0]["description"]}


def test_a_key_in_a_recorded_message_is_not_printed(tmp_path):
    import os

    text = (DATA / "genai-span-events.json").read_text().replace("Weather in Oslo?", f"Weather in Oslo? {KEY}")
    path = tmp_path / "t.json"
    path.write_text(text)
    for fmt in ("yaml", "json"):
        result = run_cli(["trace", str(path), "-f", fmt], env={**os.environ, "OPENAI_API_KEY": KEY})
        assert result.returncode == 0, result.stderr
        assert "Weather in Oslo?" in result.stdout and KEY not in result.stdout + result.stderr


def test_a_live_run_against_a_stand_in_exports_and_reads_back(tmp_path):
    """`run SCENARIO --trace-out`: sent to a stand-in, every step a span with its real latency, and the file
    reads back to the scenario's tool_choice, parallel_tool_calls, tools and messages."""
    from trace_recorder import OPENAI_TEXT

    root = Path(__file__).parent.parent
    out = tmp_path / "live.json"
    with StandIn("openai", Step(body=fixture("openai", "openai-chat-single-strict")), Step(body=OPENAI_TEXT)) as server:
        result = run_cli(["run", str(root / "configs" / "weather.yaml"), "-p", "openai", "--base-url",
                          server.base_url("openai"), "-f", "json", "--trace-out", str(out)],
                         env={"OPENAI_API_KEY": KEY, "PATH": "/usr/bin:/bin", "HOME": "/nonexistent"})
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert KEY not in text
    document = json.loads(text)
    assert_otlp_round_trip(document)
    spans = spans_of(document)
    assert len(spans) == 2 and all(int(s["endTimeUnixNano"]) > int(s["startTimeUnixNano"]) for s in spans)
    written = yaml.safe_load((root / "configs" / "weather.yaml").read_text())
    scenario, _ = imported(out)
    assert scenario["parallel_tool_calls"] == written["parallel_tool_calls"]
    assert [t["name"] for t in scenario["tools"]] == [t["name"] for t in written["tools"]]
    assert scenario["loop"]["steps"] == [{"tool_choice": written["tool_choice"]}] * 2
    assert scenario["messages"] == written["messages"]


def test_unreadable_tool_definitions_are_said_and_the_called_tools_get_open_schemas(traces, tmp_path):
    document = json.loads(trace_of(traces, "oi-openai").read_text())
    for span in spans_of(document):
        for attribute in span["attributes"]:
            if attribute["key"] == "llm.tools.0.tool.json_schema":
                attribute["value"] = {"stringValue": json.dumps({"type": "web_search"})}
    path = tmp_path / "hosted.json"
    path.write_text(json.dumps(document))
    scenario, notes = imported(path)
    assert scenario["tools"] == [{"name": "get_weather", "parameters": {"type": "object"}}]
    assert "trace.tools_unreadable" in notes and "trace.open_schema" in notes
    assert scenario["loop"]["steps"] == [{"tool_choice": {"tool": "get_weather"}}, {"tool_choice": "auto"}]


def test_older_openai_v2_events_in_the_logs_export_are_read(tmp_path):
    """openai-v2 2.1b0 (recorded: data/traces/SOURCES.md) writes messages as log events, not on the span."""
    path = DATA / "openai-v2-2.1b0-events.jsonl"
    scenario, notes = imported(path)
    assert scenario["system"] == SYSTEM and scenario["messages"] == FIRST
    assert scenario["tools"] == [{"name": "get_weather", "parameters": {"type": "object"}}]
    assert scenario["loop"]["results"] == {"get_weather": ["18 C, sunny"]}
    assert scenario["providers"] == {"openai": {"model": "gpt-4o"}}
    assert "trace.tool_choice_not_recorded" in notes and "trace.open_schema" in notes
    result = run_cli(["run", "--replay", str(path), "-p", "gemini", "-f", "json"])
    loop = json.loads(result.stdout)["runs"][0]["loops"][0]
    assert [(c["name"], c["arguments"]) for c in loop["steps"][0]["reply"]["tool_calls"]] == [
        ("get_weather", {"city": "San Francisco", "state": "CA"})]
    assert loop["final_answer"] == "It is 18 C and sunny."
    spans_only = tmp_path / "spans.json"
    spans_only.write_text(path.read_text().splitlines()[0])
    result = run_cli(["trace", str(spans_only)])
    assert result.returncode == 2 and "content was not captured" in result.stderr and "logs export" in result.stderr


@pytest.mark.parametrize("provider", ["gemini", "bedrock", "azure"])
def test_the_requested_model_of_a_url_keyed_provider_is_on_the_span(tmp_path, provider):
    """Gemini and Bedrock name the model in the URL, Azure the deployment: the span says the one requested."""
    from urllib.parse import quote

    out = tmp_path / "out.json"
    result = run_cli(["run", "--replay", str(DATA / "genai-span-events.json"), "-p", provider, "-f", "json",
                      "--trace-out", str(out)])
    assert result.returncode == 0, result.stderr
    url = json.loads(result.stdout)["runs"][0]["loops"][0]["steps"][0]["request"]["url"]
    model = attrs(spans_of(json.loads(out.read_text()))[0])["gen_ai.request.model"]
    assert f"/{quote(model, safe='')}" in url or f"/{model}" in url
    assert attrs(spans_of(json.loads(out.read_text()))[0])["gen_ai.provider.name"] == {
        "gemini": "gcp.gemini", "bedrock": "aws.bedrock", "azure": "azure.ai.openai"}[provider]


def test_a_trace_over_the_file_limit_names_the_limit_and_how_to_raise_it(tmp_path):
    """A trace is an input file: its bound is file_bytes, named in the refusal with its variable, and raising it
    lets the file be read (it was a fixed 8 MB whose line named neither; an adversarial run)."""
    import os

    big = tmp_path / "big.json"
    big.write_text(json.dumps({"resourceSpans": []}) + " " * 2048)
    small = {**os.environ, "TOOLCHOICE_LIMIT_FILE_BYTES": "1024"}
    refused = run_cli(["trace", str(big)], env=small)
    assert refused.returncode == 2
    assert "(limit file_bytes)" in refused.stderr and "TOOLCHOICE_LIMIT_FILE_BYTES=N" in refused.stderr
    raised = run_cli(["trace", str(big)], env={**os.environ, "TOOLCHOICE_LIMIT_FILE_BYTES": "100000"})
    assert raised.returncode == 2 and "no LLM spans" in raised.stderr  # read: the limit was the only bar


def test_hosted_tools_go_into_the_trace_and_their_loss_on_import_is_said(tmp_path):
    """`run --trace-out` left a scenario's hosted tools out of gen_ai.tool.definitions, so `toolchoice trace` lost
    them without a word (a trial): they are written as the scenario wrote them ($NAME references, no value), and an
    import that cannot take them names them."""
    from toolchoice.providers.core.mock.server import running_mock

    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - {name: get_time, parameters: {type: object, properties: {}}}\n  - type: mcp\n"
                        "    server_label: dw\n    server_url: https://mcp.example/mcp\n"
                        "    headers: {X-Key: $DOCS_TOKEN}\ntool_choice: get_time\n"
                        "messages:\n  - {role: user, content: hi}\nloop:\n  max_steps: 1\n")
    out = tmp_path / "trace.json"
    env = {"OPENAI_API_KEY": "sk-test-0123456789abcdef", "DOCS_TOKEN": "docs-secret-0123456789"}
    with running_mock("openai-responses") as mock:
        result = run_cli(["run", str(scenario), "-p", "openai-responses", "--base-url", mock.base_url, "--allow-env",
                          "DOCS_TOKEN", "--trace-out", str(out)], env=env)
    assert result.returncode in (0, 4), result.stderr
    text = out.read_text()
    assert "docs-secret" not in text
    (span,) = spans_of(json.loads(text))
    definitions = json.loads(attrs(span)["gen_ai.tool.definitions"])
    assert definitions[1] == {"type": "mcp", "server_label": "dw", "server_url": "https://mcp.example/mcp",
                              "headers": {"X-Key": "$DOCS_TOKEN"}}
    _, notes = imported(out)
    assert "import.skipped" in notes and "mcp server 'dw'" in notes


AGENT = '''from langchain_core.messages import HumanMessage, ToolMessage
from langchain_openai import ChatOpenAI

def run_my_agent():
    import os
    weather = {"type": "function", "function": {"name": "get_weather", "description": "Weather in a city.",
               "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
    model = ChatOpenAI(model="gpt-4o-mini", base_url=os.environ["MOCK_URL"], api_key="sk-doc-trace-1f2e3d4c",
                       max_retries=0)
    history = [HumanMessage("Weather in Oslo?")]
    called = model.bind_tools([weather], tool_choice="any").invoke(history)
    history += [called, ToolMessage("-3 C, snow", tool_call_id=called.tool_calls[0]["id"])]
    model.bind_tools([weather]).invoke(history)
'''


def test_the_pages_recording_snippet_writes_a_trace_that_trace_reads_step_by_step(tmp_path) -> None:
    """docs/traces.md "Recording one from your own app", run as written (a LangChain agent in place of
    ``run_my_agent()``, against the mock on 127.0.0.1, in a process of its own: an instrumentation patches the SDK
    for the whole process): its file is read, base64 ids and all, with step 1's tool_choice as the openai client
    was given it (LangChain's "any" → "required") and the result the agent sent back."""
    import os
    import re

    from toolchoice.providers.core.mock.server import running_mock

    page = (Path(__file__).resolve().parent.parent / "docs" / "traces.md").read_text()
    (code,) = re.findall(r"^### Recording one from your own app\n.*?^```python\n(.*?)^```$", page, re.M | re.S)
    assert "run_my_agent()  # your agent, as it runs\n" in code
    (tmp_path / "record.py").write_text(code.replace("run_my_agent()  # your agent", AGENT + "run_my_agent()  #"))
    with running_mock("openai") as mock:
        done = subprocess.run([sys.executable, "record.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "MOCK_URL": mock.base_url})
        assert done.returncode == 0, done.stderr
        sent = [r["requested"] for r in mock.records]
    assert sent == ["required", None]
    result = run_cli(["trace", str(tmp_path / "trace.json"), "--format", "json"])
    assert result.returncode == 0, result.stdout + result.stderr
    scenario = json.loads(result.stdout)
    assert scenario["loop"]["steps"][0]["tool_choice"] == "required" and scenario["loop"]["max_steps"] == 2
    assert scenario["loop"]["results"] == {"get_weather": ["-3 C, snow"]}
    assert "sk-doc-trace" not in result.stdout + result.stderr
