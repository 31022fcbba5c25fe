"""Adversarial round 23 (trial23b) on streams, replay, MCP import, the loop, trace import, the mock, parse and
compare. Each test is an attack; each failed before its fix."""

from __future__ import annotations

import json
from pathlib import Path

from cli import run_cli

_ENV = {"PATH": "/usr/bin:/bin", "COLUMNS": "80"}


def _nested(depth: int) -> dict:
    value: dict = {"x": 1}
    for _ in range(depth):
        value = {"x": value}
    return value


# ---- a stream's event nested past json_depth is JSON this program does not read, named with its limit --------------

def test_a_stream_event_nested_past_json_depth_names_the_limit_not_not_json(tmp_path: Path) -> None:
    """An event 150 levels deep was "an event's data is not JSON", where a whole reply as deep names json_depth and
    how to raise it (a limit's refusal names it: docs/limits.md)."""
    event = {"id": "c", "object": "chat.completion.chunk", "choices": [
        {"index": 0, "delta": {"content": "hi"}, "finish_reason": None}], "extra": _nested(150)}
    text = json.dumps(event)
    assert json.loads(text)["choices"][0]["delta"]["content"] == "hi"  # the truth: it is JSON, Python reads it
    path = tmp_path / "deep.sse"
    path.write_text(f"data: {text}\n\ndata: [DONE]\n\n", encoding="utf-8")
    result = run_cli(["parse", str(path), "-p", "openai", "--stream", "-f", "json"], env=_ENV)
    shown = json.dumps(json.loads(result.stdout))
    assert "is not JSON" not in shown and "limit json_depth" in shown and "TOOLCHOICE_LIMIT_JSON_DEPTH" in shown


# ---- trace: a JSON text attribute nested past json_depth is said at its step, with its limit --------------------

_TRACES = Path(__file__).parent / "data" / "traces"


def test_a_trace_attribute_nested_past_json_depth_is_said_with_its_limit(tmp_path: Path) -> None:
    """A gen_ai.output.messages string 150 levels deep ended trace in "an attribute: nests deeper than 100 levels
    (not a trace export)": no file named, no limit, and the file is a trace export; now the step says it cannot be
    read, naming json_depth and how to raise it, as any attribute it cannot read."""
    trace = json.loads((_TRACES / "genai-structured-no-ids.json").read_text(encoding="utf-8"))
    span = trace["resourceSpans"][0]["scopeSpans"][0]["spans"][1]
    [attribute] = [a for a in span["attributes"] if a["key"] == "gen_ai.output.messages"]
    messages = json.loads(attribute["value"]["stringValue"])
    messages[0]["parts"].append({"type": "text", "content": "z", "extra": _nested(150)})
    attribute["value"]["stringValue"] = json.dumps(messages)
    assert json.loads(attribute["value"]["stringValue"])[0]["parts"][-1]["content"] == "z"  # the truth: JSON
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    result = run_cli(["trace", str(path)], env=_ENV)
    assert result.returncode == 0, result.stderr
    assert "not a trace export" not in result.stderr + result.stdout
    [note] = [line for line in result.stdout.splitlines() if "gen_ai.output.messages" in line]
    assert "limit json_depth" in note and "TOOLCHOICE_LIMIT_JSON_DEPTH" in note


# ---- a scenario's tool call arguments written as a JSON string nested past json_depth -------------------------------

def test_scenario_call_arguments_nested_past_json_depth_name_the_limit(tmp_path: Path) -> None:
    """A history call's arguments string 150 levels deep was refused as "arguments is a string but not JSON (write
    a mapping)": it is JSON, and a mapping as deep is refused too; the line names json_depth and how to raise it."""
    from cli import refused

    arguments = '{"a":' * 150 + "1" + "}" * 150
    assert json.loads(arguments)  # the truth: JSON
    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\nmessages:\n"
                    "  - {role: user, content: hi}\n  - role: assistant\n    tool_calls:\n"
                    f"      - {{id: c1, name: f, arguments: {json.dumps(arguments)}}}\n"
                    "  - {role: tool, tool_call_id: c1, content: ok}\nproviders: {openai: {model: gpt-4o}}\n",
                    encoding="utf-8")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=_ENV))
    assert f"{path}:8:" in line and "not JSON" not in line and "limit json_depth" in line


def _loop_scenario(tmp_path: Path) -> Path:
    path = tmp_path / "loop.yaml"
    path.write_text("tools:\n  - {name: f, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: hi}\nproviders: {openai: {model: gpt-4o}}\n", encoding="utf-8")
    return path


def test_a_replayed_reply_file_nested_past_json_depth_is_not_called_not_json(tmp_path: Path) -> None:
    """run --replay of a folder whose step-01.reply.json nests 150 levels said "... is not JSON: the JSON nests too
    deeply ..."; it is JSON (Python reads it), past the bound this program reads."""
    from cli import refused
    from servers import Step, StandIn

    scenario = _loop_scenario(tmp_path)
    with StandIn("openai", Step.reply("openai")) as server:
        saved = run_cli(["run", str(scenario), "-p", "openai", "--base-url", server.base_url(), "--retries", "0",
                         "--save", str(tmp_path / "runs")], env={**_ENV, "OPENAI_API_KEY": "sk-test-key-0123456789"})
    assert saved.returncode in (0, 4), saved.stdout + saved.stderr  # 4: the recorded reply's verdict
    [reply] = (tmp_path / "runs").rglob("step-01.reply.json")
    document = json.loads(reply.read_text(encoding="utf-8"))
    document["extra"] = _nested(150)
    reply.write_text(json.dumps(document), encoding="utf-8")
    assert json.loads(reply.read_text(encoding="utf-8"))["extra"]  # the truth: JSON
    line = refused(run_cli(["run", str(scenario), "-p", "openai", "--replay", str(reply.parent)], env=_ENV))
    assert "not JSON" not in line and "limit json_depth" in line and str(reply) in line
