"""`toolchoice parse`: saved bodies read offline exactly as `send` reads live ones (installed command)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
RESPONSES = ROOT / "tests" / "data" / "responses"
ERRORS = RESPONSES / "errors"
TRAP_YAML = ROOT / "configs" / "planner-trap.yaml"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    result = run_cli(args, input=stdin, env={**__import__("os").environ, "COLUMNS": "160", "NO_COLOR": "1"})
    assert "Traceback" not in result.stderr
    return result


def parse_json(path: Path, provider: str, *args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    result = run("parse", str(path), "-p", provider, "-f", "json", *args)
    return result, json.loads(result.stdout)


def _recorded():
    """(provider, body, expect) for every recorded success body with an expectation file."""
    for expect_path in sorted(RESPONSES.glob("*/*.expect.json")):
        provider = expect_path.parent.name
        if provider == "errors" or expect_path.name.startswith("error-"):
            continue
        yield pytest.param(provider, expect_path.with_name(expect_path.name.replace(".expect.json", ".json")),
                           expect_path, id=expect_path.name.removesuffix(".expect.json"))


@pytest.mark.parametrize("provider, body, expect_path", list(_recorded()))
def test_recorded_replies_parse_to_their_expected_calls(provider, body, expect_path):
    expect = json.loads(expect_path.read_text())
    result, data = parse_json(body, provider)
    assert result.returncode == 0, result.stdout
    calls = [{k: c[k] for k in ("id", "name", "arguments")} for c in data["reply"]["tool_calls"]]
    assert [c["name"] for c in calls] == [c["name"] for c in expect["calls"]]
    assert [c["arguments"] for c in calls] == [c["arguments"] for c in expect["calls"]]
    assert data["verdict"] is None and data["error"] is None


def test_required_trap_reply_judged_with_the_scenario(tmp_path):
    body = json.loads((RESPONSES / "openai" / "openai-chat-single-strict.json").read_text())
    # the recorded body with its call renamed to the history tool of the trap (a derived body)
    body["choices"][0]["message"]["tool_calls"][0]["function"] = {"name": "read_file", "arguments": '{"path": "x"}'}
    path = tmp_path / "trap.json"
    path.write_text(json.dumps(body))
    result, data = parse_json(path, "openai", "--scenario", str(TRAP_YAML))
    assert result.returncode == 4
    assert data["verdict"]["category"] == "phantom_tool"
    assert "pitfall.required_trap" in [e["code"] for e in data["ledger"]]


def test_tool_choice_override_changes_the_verdict(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n"
                        "  - {name: get_weather, parameters: {type: object, properties: {city: {type: string}}}}\n"
                        "  - {name: get_time}\n"
                        "tool_choice: get_weather\n")
    body = RESPONSES / "openai" / "openai-chat-single-strict.json"
    obeyed, data = parse_json(body, "openai", "--scenario", str(scenario))
    assert obeyed.returncode == 0 and data["verdict"]["category"] == "obeyed"
    wrong, data = parse_json(body, "openai", "--scenario", str(scenario), "--tool-choice", "get_time")
    assert wrong.returncode == 4 and data["verdict"]["category"] == "wrong_tool"
    none, data = parse_json(body, "openai", "--scenario", str(scenario), "--tool-choice", "none")
    assert none.returncode == 4 and data["verdict"]["category"] == "unwanted_call"


@pytest.mark.parametrize("provider, stem, line", [
    ("anthropic", "error-anthropic-invalid-input-schema",
     "anthropic: invalid_request_error: tools.17.custom.input_schema: JSON schema is invalid."),
    ("gemini", "error-gemini-invalid-function-name", "gemini: INVALID_ARGUMENT: The GenerateContentRequest proto is"),
    ("mistral", "error-mistral-422-extra-forbidden",
     "mistral: invalid_request_error: Extra inputs are not permitted (body.tools.0.function.required)"),
    ("groq", "error-groq-tool-use-failed", "groq: invalid_request_error: Failed to call a function."),
    ("ollama", "error-ollama-native", "ollama: the model failed to generate a response"),
    ("cohere", "error-cohere-invalid-request", "cohere: invalid request: message must be at least 1 token long"),
    ("bedrock", "error-bedrock-toolchoice-not-supported", "bedrock: This model doesn't support the toolConfig"),
])
def test_error_bodies_are_read_as_errors(provider, stem, line):
    result, data = parse_json(ERRORS / f"{stem}.json", provider)
    assert result.returncode == 1
    assert data["error"].startswith(line)
    assert data["reply"]["tool_calls"] == []


def test_html_file_is_a_non_json_error():
    result, data = parse_json(ERRORS / "error-html-502-nginx.html", "openai")
    assert result.returncode == 1
    assert data["error"] == ('openai: non-JSON response (HTML page "502 Bad Gateway"): '
                             "502 Bad Gateway 502 Bad Gateway nginx")


def test_a_body_the_parser_cannot_read_is_an_error_not_a_crash(tmp_path):
    path = tmp_path / "odd.json"
    path.write_text('{"choices": "nope"}')
    result, data = parse_json(path, "openai")
    assert result.returncode == 1
    assert data["error"].startswith("openai: unreadable_reply: response body is not a reply in openai's format")


def test_stdin():
    body = (RESPONSES / "openai" / "openai-chat-parallel.json").read_text()
    result = run("parse", "-", "-p", "openai", "-f", "json", stdin=body)
    assert result.returncode == 0
    calls = json.loads(result.stdout)["reply"]["tool_calls"]
    assert [c["name"] for c in calls] == ["GetWeatherArgs", "get_stock_price"]


@pytest.mark.parametrize("args, message", [
    (["missing.json", "-p", "openai"], "missing.json: no such file"),
    ([str(RESPONSES / "openai" / "openai-chat-parallel.json"), "-p", "opneai"], "unknown provider 'opneai'"),
    ([str(RESPONSES / "openai" / "openai-chat-parallel.json"), "-p", "openai", "--tool-choice", "auto"],
     "--tool-choice needs --scenario"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    result = run("parse", *args)
    assert result.returncode == 2
    assert result.stderr.startswith("toolchoice: error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


def test_pretty_output(tmp_path):
    result = run("parse", str(RESPONSES / "anthropic" / "anthropic-text-and-tool-use-empty-input.json"),
                 "-p", "anthropic")
    assert result.returncode == 0
    assert "tool calls" in result.stdout and "no verdict" in result.stdout
    scenario = tmp_path / "s.yaml"
    scenario.write_text("tools:\n  - {name: nope}\ntool_choice: required\n")
    judged = run("parse", str(RESPONSES / "anthropic" / "anthropic-text-and-tool-use-empty-input.json"),
                 "-p", "anthropic", "--scenario", str(scenario))
    assert judged.returncode == 4 and "disobeyed: phantom_tool" in judged.stdout and "not offered" in judged.stdout
