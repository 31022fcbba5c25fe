"""Adversarial round 23 (trial23b) on streams, replay, MCP import, the loop, trace import, the mock, parse and
compare. Each test is an attack; each failed before its fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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


# ---- the mock and the proxy: a body nested past what Python's JSON parser reads is said as this program's bound ----

_DEEP_ARRAYS = 5000  # levels: past the C scanner's recursion bound (RecursionError), far below mock_body_bytes


def _deep_body() -> bytes:
    # RFC 8259's grammar: an array holds values, an empty array is a value: the body is JSON at any depth
    return ('{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "metadata": '
            + "[" * _DEEP_ARRAYS + "]" * _DEEP_ARRAYS + "}").encode()


def test_the_mock_says_why_it_could_not_read_a_body_nested_past_python_s_parser() -> None:
    """A body 5,000 levels deep got the API's "We could not parse the JSON body" and a line saying nothing more: the
    API's words for a client's broken body, where the body is JSON and the bound is this program's (as a number
    past Python's digit limit is said)."""
    import httpx

    from toolchoice.providers.core.mock.server import running_mock

    with pytest.raises(RecursionError):  # the truth: what the mock reads bodies with gives up on it
        json.loads(_deep_body())
    with running_mock("openai") as mock:
        answered = httpx.post(mock.base_url + "/chat/completions", content=_deep_body(),
                              headers={"content-type": "application/json"}, timeout=30)
        [line] = mock.wait_for(1)
    assert answered.status_code == 400
    said = " ".join(f["message"] for f in line["findings"])
    assert "nests deeper than Python's JSON parser reads" in said, line["findings"]


def test_the_proxy_says_why_it_passed_a_body_nested_past_python_s_parser_on_unjudged() -> None:
    import httpx

    from servers import StandIn, Step
    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.server import Running, Server

    with StandIn("openai", Step.reply("openai")) as upstream:
        handler = ProxyHandler("openai", upstream.base_url())
        with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
            answered = httpx.post(proxy.base_url + "/chat/completions", content=_deep_body(),
                                  headers={"content-type": "application/json"}, timeout=30)
            [line] = proxy.wait_for(1)
        [received] = upstream.requests
    assert answered.status_code == 200 and received.raw == _deep_body()  # passed on byte for byte
    said = " ".join(f["message"] for f in line["findings"])
    assert "nests deeper than Python's JSON parser reads" in said and "unjudged" in said, line["findings"]


# ---- a scenario .json nested past what YAML's composer takes: JSON, refused as any text past 100 levels ------------

def test_a_scenario_json_nested_600_levels_is_not_called_invalid_json(tmp_path: Path) -> None:
    """A .json scenario whose tool schema nests 600 levels was "invalid JSON: objects and lists nest too deeply to
    read", with no word of what to do: it is JSON (Python reads it), refused as one 150 levels deep is, with the same
    words and hint (a scenario nests at most 100 levels; a deeper schema goes in a from: JSON file)."""
    from cli import refused

    deep = "[" * 600 + "]" * 600
    assert json.loads(deep)  # the truth: JSON
    text = '{"tools": [{"name": "f", "parameters": {"type": "object", "default": ' + deep + '}}]}'
    json.loads(text)
    path = tmp_path / "s.json"
    path.write_text(text, encoding="utf-8")
    line = refused(run_cli(["render", str(path), "-p", "openai"], env=_ENV))
    assert f"{path}:1:" in line and "invalid JSON" not in line
    assert "values nest more than 100 levels deep" in line and "from: JSON file" in line


# ---- mock --host 127.0.0.2: a loopback address, not "reachable from other machines" ----------------------------------

def test_mock_on_another_loopback_address_is_not_said_reachable_from_other_machines() -> None:
    """--host 127.0.0.2 (all of 127.0.0.0/8 is this machine's) was warned "the mock is reachable from other machines":
    only 127.0.0.1, localhost and ::1 were known. The truth: the standard library's ipaddress, and a client on another
    loopback address gets no answer from it."""
    import ipaddress
    import os
    import socket
    import subprocess
    import sys

    import httpx

    assert ipaddress.ip_address("127.0.0.2").is_loopback  # RFC 1122 3.2.1.3
    process = subprocess.Popen([sys.executable, "-m", "toolchoice", "mock", "-p", "openai", "--host", "127.0.0.2",
                                "--max-requests", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "COLUMNS": "80"})
    try:
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.2:"), url
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        with pytest.raises(OSError):  # bound to 127.0.0.2 alone: 127.0.0.1 holds nothing there
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
        httpx.post(url + "/chat/completions", json={"model": "m", "messages": [{"role": "user", "content": "hi"}]},
                   timeout=30)
        _, errors = process.communicate(timeout=60)
    finally:
        process.kill()
    assert "reachable from other machines" not in errors, errors


def test_a_capability_overlay_nested_past_json_depth_names_the_limit(tmp_path: Path) -> None:
    """--capabilities FILE nesting 150 levels: "the JSON nests too deeply to read", no limit named, where every
    bound's refusal names it and how to raise it (docs/limits.md)."""
    from cli import refused

    text = json.dumps({"providers": {"openai": _nested(150)}})
    assert json.loads(text)  # the truth: JSON
    overlay = tmp_path / "overlay.json"
    overlay.write_text(text, encoding="utf-8")
    scenario = _loop_scenario(tmp_path)
    line = refused(run_cli(["render", str(scenario), "-p", "openai", "--capabilities", str(overlay)], env=_ENV))
    assert str(overlay) in line and "limit json_depth" in line and "TOOLCHOICE_LIMIT_JSON_DEPTH" in line
