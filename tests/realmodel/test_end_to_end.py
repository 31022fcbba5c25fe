"""The `toolchoice` console script end to end against a real model server: send, probe, render with a
measured overlay, compare --send next to a stand-in.

The server is llama-cpp-python 0.3.36's OpenAI-compatible server with the base Gemma 3 270M (see
llama_server.py and test_server_facts.py for what it does on the raw wire). The model is not
instruction-tuned, so these tests assert exit codes, verdicts, statuses, tool names and that arguments
validate against the schema, never what the arguments or the text say. Facts this server shows and the
tests rely on (measured, see test_server_facts.py): a named tool_choice (object form) always yields one
grammar-constrained call; "required" is a 500 with an empty message; an assistant turn with
`content: null` is a 500 validation error; tool definitions reach the prompt only with a system message;
a tiny max_tokens cuts named arguments while finish_reason still says tool_calls.

Latency varies from 0.4 s to about a minute per request on a busy 2-core machine: every command gets
--timeout 300 and repeat counts stay small.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/servers.py, the local stand-in
from servers import StandIn  # noqa: E402

pytestmark = pytest.mark.realmodel

MODEL = "gemma-3-270m"  # echoed by the server, which serves its one loaded GGUF whatever the name
TIMEOUT = "300"  # per request, seconds
RUN_TIMEOUT_S = 1800  # per command: a probe sends about 30 requests
FAKE_KEY = "sk-realmodel-not-a-key"

TOOLS_YAML = """
tools:
  - name: get_weather
    description: Current weather for a city.
    parameters:
      type: object
      properties:
        city: {type: string, description: "City name, e.g. Paris"}
      required: [city]
  - name: get_time
    description: Current local time in an IANA time zone.
    parameters:
      type: object
      properties:
        timezone: {type: string, description: "e.g. Asia/Tokyo"}
      required: [timezone]
"""
SCHEMAS = {
    "get_weather": {"type": "object", "properties": {"city": {"type": "string", "description": "City name, e.g. Paris"}},
                    "required": ["city"]},
    "get_time": {"type": "object",
                 "properties": {"timezone": {"type": "string", "description": "e.g. Asia/Tokyo"}},
                 "required": ["timezone"]},
}
# The server's answer to tool_choice "required" (an AssertionError in its chat handler, as a 500).
REQUIRED_500 = "500 internal_server_error: (empty message)"
# pydantic's complaint about an assistant turn whose content is null.
CONTENT_NULL = ("'loc': ('body', 'messages', 2, 'ChatCompletionRequestAssistantMessage', 'content'), "
                "'msg': 'Input should be a valid string', 'input': None")


def env() -> dict[str, str]:
    """No real key ever leaves this machine: keys from the environment are dropped, fake ones set."""
    clean = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN"))}
    return clean | {"OPENAI_API_KEY": FAKE_KEY, "ANTHROPIC_API_KEY": FAKE_KEY, "COLUMNS": "200"}


def toolchoice(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("toolchoice")
    assert exe, "the toolchoice console script is not installed (pip install -e .)"
    result = subprocess.run([exe, *args], capture_output=True, text=True, env=env(), timeout=RUN_TIMEOUT_S,
                            check=False)
    assert FAKE_KEY not in result.stdout + result.stderr
    return result


def scenario_file(tmp_path: Path, tool_choice: str = "get_time", providers: str = "") -> Path:
    """Two tools, a system message (without one this server never puts the tools in the prompt), greedy."""
    text = (TOOLS_YAML + f"tool_choice: {tool_choice}\n"
            "system: You are a helpful assistant. Use the tools when they help.\n"
            "messages:\n  - {role: user, content: \"What time is it in Tokyo?\"}\n"
            "providers:\n" + (providers or f"  openai: {{model: {MODEL}, max_tokens: 64, temperature: 0}}\n"))
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def assert_schema_valid_calls(reply: dict[str, Any], name: str) -> None:
    [call] = reply["tool_calls"]
    assert call["name"] == name
    assert isinstance(call["arguments"], dict), call  # decoded from the JSON string
    jsonschema.validate(call["arguments"], SCHEMAS[name])


# ---- send ----------------------------------------------------------------------------------


def test_send_named_choice_is_obeyed_with_schema_valid_arguments(llama_server: str, tmp_path: Path) -> None:
    result = toolchoice("send", str(scenario_file(tmp_path)), "--provider", "openai", "--base-url", llama_server,
                        "--timeout", TIMEOUT, "--format", "json")
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads(result.stdout)
    assert data["request"]["url"] == f"{llama_server}/chat/completions"
    assert data["request"]["body"]["tool_choice"] == {"type": "function", "function": {"name": "get_time"}}
    assert data["request"]["headers"]["Authorization"] == "Bearer $OPENAI_API_KEY"
    assert data["status"] == 200 and data["error"] is None
    assert data["verdict"]["obeyed"] is True and data["verdict"]["category"] == "obeyed"
    assert data["verdict"]["calls"] == [{"name": "get_time", "offered": True, "valid": True, "errors": []}]
    assert data["reply"]["finish_reason"] == "tool_calls"
    assert data["reply"]["text"] is None
    assert_schema_valid_calls(data["reply"], "get_time")
    assert data["reply"]["usage"]["input_tokens"] > 0 and data["reply"]["usage"]["output_tokens"] > 0
    assert "endpoint.base_url" in {e["code"] for e in data["ledger"]}


def test_what_api_openai_com_refuses_is_sent_to_this_server_which_takes_it(llama_server: str, tmp_path: Path) -> None:
    """A function name with a dot: api.openai.com refuses it (openai 3.57.0 `FunctionDefinition.name`: "Must be a-z,
    A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64."), this server takes it. With the base
    URL replacing OpenAI's host the refusal is a warning and the named call comes back; --strict refuses it, and
    --gateway (the URL said to front api.openai.com) keeps the host's refusal. (A description over 1,024 characters
    was the example until the fact was found lifted, docs/fact-audit.md.)"""
    path = scenario_file(tmp_path, tool_choice="get.time")
    path.write_text(path.read_text(encoding="utf-8").replace("- name: get_time", "- name: get.time"), encoding="utf-8")
    result = toolchoice("send", str(path), "--provider", "openai", "--base-url", llama_server, "--timeout", TIMEOUT,
                        "--format", "json")
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads(result.stdout)
    [name] = [e for e in data["ledger"] if e["code"] == "tool.name_invalid"]
    assert name["severity"] == "warning" and llama_server in name["message"]
    assert data["status"] == 200 and data["verdict"]["obeyed"] is True
    [call] = data["reply"]["tool_calls"]
    assert call["name"] == "get.time"
    jsonschema.validate(call["arguments"], SCHEMAS["get_time"])
    for flag in ("--strict", "--gateway"):
        refused = toolchoice("send", str(path), "--provider", "openai", "--base-url", llama_server, flag,
                             "--format", "json")
        assert refused.returncode == 3, (flag, refused.stdout + refused.stderr)


def test_send_required_shows_the_servers_500_on_one_line_and_exits_1(llama_server: str, tmp_path: Path) -> None:
    path = scenario_file(tmp_path)
    pretty = toolchoice("send", str(path), "--provider", "openai", "--base-url", llama_server, "--timeout", TIMEOUT,
                        "--tool-choice", "required")
    assert pretty.returncode == 1, pretty.stdout + pretty.stderr
    error_lines = [line.strip() for line in pretty.stdout.splitlines() if "internal_server_error" in line]
    assert error_lines == [f"openai: {REQUIRED_500}"]
    assert "✘ error" in pretty.stdout
    assert pretty.stderr == ""

    as_json = toolchoice("send", str(path), "--provider", "openai", "--base-url", llama_server, "--timeout", TIMEOUT,
                         "--tool-choice", "required", "--retries", "0", "--format", "json")
    assert as_json.returncode == 1
    data = json.loads(as_json.stdout)
    assert data["request"]["body"]["tool_choice"] == "required"
    assert data["status"] == 500
    assert data["error"] == f"openai: {REQUIRED_500}"
    assert data["reply"]["error"] == {"status": 500, "type": "internal_server_error", "message": "(empty message)"}
    assert data["verdict"]["category"] == "error"
    assert [a["status"] for a in data["attempts"]] == [500]


def test_send_repeat_5_counts_add_up(llama_server: str, tmp_path: Path) -> None:
    result = toolchoice("send", str(scenario_file(tmp_path)), "--provider", "openai", "--base-url", llama_server,
                        "--timeout", TIMEOUT, "--repeat", "5", "--format", "json")
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads(result.stdout)
    assert data["samples"] == 5
    assert sum(data["counts"].values()) == 5
    assert data["counts"]["obeyed"] == 5  # grammar-constrained: 60/60 named calls were valid when measured
    assert len(data["results"]) == 5
    assert sorted(r["sample"] for r in data["results"]) == [1, 2, 3, 4, 5]
    for sample in data["results"]:
        assert sample["status"] == 200 and sample["error"] is None
        assert_schema_valid_calls(sample["reply"], "get_time")
    assert data["rates"]["obeyed"]["rate"] == 1.0
    assert data["latency_percentiles_ms"]["n"] == 5 and data["latency_percentiles_ms"]["p50"] > 0
    assert data["tokens"]["input_total"] == 5 * data["results"][0]["reply"]["usage"]["input_tokens"]


def test_send_through_the_llamacpp_translator_emulates_named_and_this_server_rejects_it(
        llama_server: str, tmp_path: Path) -> None:
    """llama.cpp's llama-server reads the object form as auto, so the llamacpp translator sends only the named
    tool + "required"; llama-cpp-python's server answers "required" with a 500."""
    result = toolchoice("send", str(scenario_file(tmp_path)), "--provider", "llamacpp", "--base-url", llama_server,
                        "--timeout", TIMEOUT, "--retries", "0", "--format", "json")
    assert result.returncode == 1, result.stdout + result.stderr
    data = json.loads(result.stdout)
    body = data["request"]["body"]
    assert body["tool_choice"] == "required"
    assert [t["function"]["name"] for t in body["tools"]] == ["get_time"]
    codes = {e["code"]: e["severity"] for e in data["ledger"]}
    assert codes["tool_choice.emulated"] == "warning" and codes["tools.filtered"] == "warning"
    assert data["error"] == f"llamacpp: {REQUIRED_500}"


# ---- probe ---------------------------------------------------------------------------------


def by_feature(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {q["feature"]: q for q in result["questions"]}


def details(question: dict[str, Any]) -> list[dict[str, Any]]:
    samples: list[dict[str, Any]] = question["sample_details"]
    assert len(samples) == question["samples"]
    return samples


@pytest.fixture(scope="module")
def openai_probe(llama_server: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """One probe of the server as `--provider openai` (built-in scenario, 3 samples per question)."""
    overlay = tmp_path_factory.mktemp("probe") / "llama-cpp-python.caps.json"
    result = toolchoice("probe", "--provider", "openai", "--base-url", llama_server, "--model", MODEL,
                        "--repeat", "3", "--timeout", TIMEOUT, "--format", "json", "--save", str(overlay))
    data = json.loads(result.stdout)
    # the questions the tests below allow to be inconclusive (the base model's free arguments, a cut that may
    # still decode): one that is makes the probe exit 1 (jobs.probe_code); the overlay is written either way
    unmeasured = {q["feature"] for q in data["questions"] if q["result"] == "inconclusive"}
    assert unmeasured <= {"auto", "parallel", "truncation"}, result.stdout
    assert result.returncode == (1 if unmeasured else 0), result.stdout + result.stderr
    return data, overlay


def test_probe_openai_finds_named_and_none_honored_and_required_rejected(
        llama_server: str, openai_probe: tuple[dict[str, Any], Path]) -> None:
    result, _ = openai_probe
    assert result["endpoint"] == f"{llama_server}/chat/completions"
    assert result["model"] == MODEL and result["samples_per_question"] == 3
    q = by_feature(result)
    assert list(q) == ["unset", "auto", "none", "required", "any", "named", "named_emulated", "allowed", "parallel",
                       "history", "truncation"]

    assert q["named"]["result"] == "honored"
    assert q["named"]["wire"] == {"type": "function", "function": {"name": "get_time"}}
    for sample in details(q["named"]):
        assert (sample["status"], sample["calls"], sample["invalid_arguments"], sample["finish_reason"]) == \
            (200, ["get_time"], 0, "tool_calls")

    assert q["none"]["result"] == "honored" and q["none"]["wire"] == "none"
    for sample in details(q["none"]):
        assert (sample["status"], sample["calls"], sample["finish_reason"]) == (200, [], "stop")

    assert q["required"]["result"] == "rejected" and q["required"]["wire"] == "required"
    assert f"openai: {REQUIRED_500}" in q["required"]["evidence"]
    assert {s["status"] for s in details(q["required"])} == {500}


def test_probe_openai_records_what_else_this_server_does(openai_probe: tuple[dict[str, Any], Path]) -> None:
    q = by_feature(openai_probe[0])

    # tool_choice omitted: this server renders no tools at all (OpenAI would mean auto): text only
    assert q["unset"]["result"] == "honored" and q["unset"]["wire"] is None
    for sample in details(q["unset"]):
        assert (sample["status"], sample["calls"], sample["finish_reason"]) == (200, [], "stop")

    # auto with the tools in the prompt (the probe has a system message) calls a tool; auto arguments are
    # grammar-constrained but were invalid JSON once in 30 samples, so a mixed result is possible
    assert q["auto"]["result"] in ("honored", "inconclusive")
    for sample in details(q["auto"]):
        assert sample["status"] == 200 and len(sample["calls"]) == 1 and sample["finish_reason"] == "tool_calls"

    # the literal word "any", the emulated named form (only it + "required") and allowed_tools: all 500s
    assert q["any"]["result"] == "rejected" and q["any"]["wire"] == "any"
    assert "Input should be 'none', 'auto' or 'required'" in q["any"]["evidence"]
    assert q["named_emulated"]["result"] == "rejected" and q["named_emulated"]["wire"] == "required"
    assert REQUIRED_500 in q["named_emulated"]["evidence"]
    assert q["allowed"]["result"] == "rejected" and q["allowed"]["wire"]["type"] == "allowed_tools"
    assert "3 validation errors" in q["allowed"]["evidence"]

    # parallel_tool_calls false is asked with auto because required is rejected here; the server accepts the
    # field (it does not read it) and made one call per sample
    assert q["parallel"]["wire"] == "auto"
    assert q["parallel"]["question"] == "parallel_tool_calls false (with auto: required is rejected)"
    assert q["parallel"]["result"] in ("honored", "inconclusive")
    assert all(s["status"] == 200 and len(s["calls"]) <= 1 for s in details(q["parallel"]))

    # an earlier assistant turn with only tool calls goes out with content null, which this server refuses
    assert q["history"]["result"] == "rejected"
    assert q["history"]["wire"] == {"type": "function", "function": {"name": "get_time"}}
    assert all(CONTENT_NULL in s["error"] for s in details(q["history"]))
    assert CONTENT_NULL in q["history"]["evidence"]
    # the evidence clips the server's kilobyte of pydantic text; sample_details keep it whole
    assert len(q["allowed"]["evidence"]) < 900 < len(details(q["allowed"])[0]["error"])

    # max_tokens 8 cuts the named call's arguments, and finish_reason still says tool_calls (not "length").
    # 3 of 20 greedy-ish calls fit in 8 tokens when measured, so one sample in three may come back whole.
    truncation = details(q["truncation"])
    assert all(s["status"] == 200 and s["calls"] == ["get_time"] for s in truncation)
    assert all(s["finish_reason"] == "tool_calls" for s in truncation)
    assert sum(s["invalid_arguments"] for s in truncation) >= 1
    assert q["truncation"]["result"] in ("ignored", "inconclusive")


def test_probe_overlay_file_says_where_and_when(llama_server: str, openai_probe: tuple[dict[str, Any], Path]) -> None:
    result, path = openai_probe
    overlay = json.loads(path.read_text(encoding="utf-8"))
    assert overlay["toolchoice_capabilities"] == 1 and overlay["provider"] == "openai"
    assert overlay["endpoint"] == f"{llama_server}/chat/completions"
    assert overlay["model"] == MODEL and overlay["measured_at"] == result["measured_at"]
    assert overlay["samples_per_question"] == 3
    assert {f: m["result"] for f, m in overlay["features"].items()} == \
        {q["feature"]: q["result"] for q in result["questions"]}


def test_render_and_send_with_the_measured_overlay(llama_server: str, tmp_path: Path,
                                                  openai_probe: tuple[dict[str, Any], Path]) -> None:
    _, overlay = openai_probe
    endpoint = f"{llama_server}/chat/completions"
    path = scenario_file(tmp_path)
    common = ["--provider", "openai", "--base-url", llama_server, "--capabilities", str(overlay)]

    rendered = toolchoice("render", str(path), *common, "--tool-choice", "required", "--format", "json")
    assert rendered.returncode == 0, rendered.stderr
    data = json.loads(rendered.stdout)
    ledger = {e["code"]: e for e in data["ledger"]}
    assert ledger["capabilities.overlay"]["severity"] == "info"
    assert endpoint in ledger["capabilities.overlay"]["message"] and MODEL in ledger["capabilities.overlay"]["message"]
    assert ledger["tool_choice.ignored"]["severity"] == "warning"
    assert f"rejected by {endpoint}" in ledger["tool_choice.ignored"]["message"]
    assert REQUIRED_500 in ledger["tool_choice.ignored"]["message"]
    assert data["effective_tool_choice"] is None and "tool_choice" not in data["request"]["body"]

    # a named choice was measured honored: still sent in the object form, no warning
    named = json.loads(toolchoice("render", str(path), *common, "--format", "json").stdout)
    assert named["effective_tool_choice"] == {"type": "function", "function": {"name": "get_time"}}
    assert not [e for e in named["ledger"] if e["severity"] != "info"]

    # sent without tool_choice, this server renders no tools: the reply is text, judged against the intent
    sent = toolchoice("send", str(path), *common, "--tool-choice", "required", "--timeout", TIMEOUT,
                      "--format", "json")
    assert sent.returncode == 4, sent.stdout + sent.stderr
    reply = json.loads(sent.stdout)
    assert reply["status"] == 200 and reply["reply"]["tool_calls"] == []
    assert reply["verdict"]["category"] == "no_call" and reply["verdict"]["enforced"] is False


def test_overlay_is_not_applied_to_another_endpoint(tmp_path: Path, openai_probe: tuple[dict[str, Any], Path]) -> None:
    _, overlay = openai_probe
    rendered = toolchoice("render", str(scenario_file(tmp_path)), "--provider", "openai", "--capabilities",
                          str(overlay), "--tool-choice", "required", "--format", "json")
    data = json.loads(rendered.stdout)
    assert data["request"]["url"] == "https://api.openai.com/v1/chat/completions"
    # the local server's 500 on "required" says nothing about api.openai.com, which accepts it
    assert data["effective_tool_choice"] == "required"
    assert "tool_choice.ignored" not in {e["code"] for e in data["ledger"]}
    assert "capabilities.overlay_skipped" in {e["code"] for e in data["ledger"]}


def test_probe_through_the_llamacpp_translator(llama_server: str) -> None:
    """What the llamacpp translator's forms (made for llama.cpp's llama-server) meet on llama-cpp-python."""
    result = toolchoice("probe", "--provider", "llamacpp", "--base-url", llama_server, "--model", MODEL,
                        "--repeat", "2", "--timeout", TIMEOUT, "--format", "json")
    data = json.loads(result.stdout)
    # auto and parallel leave the base model's arguments free: a sample may not decode (CI, 2026-11-27: invalid
    # arguments 1 of 2), and a mixed answer is inconclusive, which makes the probe exit 1 (jobs.probe_code)
    unmeasured = {q["feature"] for q in data["questions"] if q["result"] == "inconclusive"}
    assert unmeasured <= {"auto", "parallel"}, result.stdout
    assert result.returncode == (1 if unmeasured else 0), result.stdout + result.stderr
    assert data["endpoint"] == f"{llama_server}/chat/completions"
    q = by_feature(data)
    # no native named form and no allowed_tools: neither the emulated-vs-native pair nor allowed is asked
    assert list(q) == ["unset", "auto", "none", "required", "any", "named", "parallel", "history", "truncation"]

    # named is emulated as only that tool + "required", which this server rejects like required itself
    assert q["named"]["question"] == "named get_time (emulated form)"
    assert q["named"]["wire"] == "required" and q["named"]["result"] == "rejected"
    assert f"llamacpp: {REQUIRED_500}" in q["named"]["evidence"]
    assert q["required"]["result"] == "rejected" and q["any"]["result"] == "rejected"

    assert q["none"]["result"] == "honored" and q["unset"]["result"] == "honored"
    assert all(s["calls"] == [] for s in details(q["none"]) + details(q["unset"]))
    assert q["auto"]["result"] in ("honored", "inconclusive")

    # questions that would only repeat a rejection are asked another way, or not at all
    assert q["parallel"]["wire"] == "auto" and q["parallel"]["result"] in ("honored", "inconclusive")
    assert q["history"]["wire"] == "auto" and q["history"]["result"] == "rejected"
    assert all(CONTENT_NULL in s["error"] for s in details(q["history"]))
    assert q["truncation"]["result"] == "not asked" and q["truncation"]["samples"] == 0
    assert "rejected" in q["truncation"]["evidence"]


# ---- compare --send ------------------------------------------------------------------------


def test_compare_send_real_server_next_to_a_stand_in(llama_server: str, tmp_path: Path) -> None:
    """The stand-in answers with a recorded real Anthropic reply that calls `weather`, so the scenario names it."""
    with StandIn("anthropic") as anthropic:
        providers = (f"  openai: {{model: {MODEL}, base_url: \"{llama_server}\", max_tokens: 64, temperature: 0}}\n"
                     f"  anthropic: {{model: claude-haiku-4-5, base_url: \"{anthropic.base_url('anthropic')}\", "
                     "max_tokens: 256}\n")
        path = scenario_file(tmp_path, tool_choice="weather", providers=providers)
        text = path.read_text(encoding="utf-8").replace("- name: get_weather", "- name: weather", 1)
        path.write_text(text.replace("city: {type: string", "location: {type: string", 1)
                        .replace("required: [city]", "required: [location]", 1), encoding="utf-8")
        result = toolchoice("compare", str(path), "--send", "--timeout", TIMEOUT, "--format", "json")
        # other suites on this machine may hit a recycled port: count only this test's request
        ours = [r for r in anthropic.requests if r.path == "/v1/messages" and r.json.get("model") == "claude-haiku-4-5"]
        assert len(ours) == 1
    assert result.returncode == 0, result.stdout + result.stderr
    data = json.loads(result.stdout)
    rows = {row["provider"]: row for row in data["providers"]}
    assert list(rows) == ["openai", "anthropic"]

    real = rows["openai"]
    assert real["request"]["url"] == f"{llama_server}/chat/completions"
    assert real["request"]["body"]["tool_choice"] == {"type": "function", "function": {"name": "weather"}}
    assert real["status"] == 200 and real["error"] is None
    assert real["verdict"]["category"] == "obeyed"
    [call] = real["reply"]["tool_calls"]
    assert call["name"] == "weather"
    jsonschema.validate(call["arguments"], {"type": "object", "properties": {"location": {"type": "string"}},
                                            "required": ["location"]})

    stand_in = rows["anthropic"]
    assert stand_in["request"]["body"]["tool_choice"] == {"type": "tool", "name": "weather"}
    assert stand_in["verdict"]["category"] == "obeyed"
    assert data["diff"]["tools"] == {"openai": ["weather"], "anthropic": ["weather"]}
