"""JSON a server writes with a key twice in one object (RFC 8259 section 4: names SHOULD be unique) is read as the
official SDKs read it (openai-python's ``response.json()`` is ``json.loads``: the last of the two) and never refused:
the server's duplicate is not the user's mistake. The verdict is judged on the last value and says so once a key
(``reply.duplicate_key``, naming it). Real local servers on 127.0.0.1 answer the bodies; the library, ``send``,
``compare --send``, ``run`` and ``probe`` read them in-process."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from servers import StandIn, Step

from cli import run_cli

KEY = "sk-test-duplicate-keys-0123456789"
ENV = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN"))} | {"OPENAI_API_KEY": KEY}

# a chat completion whose function names its tool twice (get_time first, get_weather last) and whose top-level object
# names "model" twice; the second call's function repeats "name" again: said once
BODY = (b'{"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "first", "model": "last",'
        b' "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,'
        b' "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_time",'
        b' "name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}]}}],'
        b' "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8}}')

SCENARIO = """
tools:
  - name: get_weather
    parameters: {type: object, properties: {city: {type: string}}, required: [city]}
  - name: get_time
    parameters: {type: object, properties: {tz: {type: string}}, required: [tz]}
tool_choice: {type: tool, name: get_weather}
messages: [{role: user, content: Weather in Paris?}]
providers:
  openai: {model: m, base_url: "URL"}
"""


@pytest.fixture(scope="module")
def server():
    with StandIn("openai", default=Step(body=BODY)) as stand_in:
        yield stand_in


def scenario_file(tmp_path: Path, server: StandIn) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.replace("URL", server.base_url("openai")))
    return path


def said(verdict: dict) -> list[str]:
    return [f["message"] for f in verdict.get("findings", []) if f["code"] == "reply.duplicate_key"]


def test_a_reply_naming_a_key_twice_is_judged_on_the_last_and_said_once_a_key(server, monkeypatch):
    from toolchoice.providers import load_scenario_text, translate
    from toolchoice.providers.core import runner

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    scenario = load_scenario_text(SCENARIO.replace("URL", server.base_url("openai")), "s.yaml")
    jobs, _ = runner.prepare_jobs(scenario, [translate("openai", scenario)])
    runner.run(jobs, 1, runner.SendSettings(retries=0))
    sample = jobs[0].samples[0]
    # as openai-python reads it: json.loads keeps the last "name", so the forced get_weather was called
    assert json.loads(BODY)["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "get_weather"
    assert [c.name for c in sample.reply.tool_calls] == ["get_weather"]
    assert sample.verdict["category"] == "obeyed"
    messages = said(sample.verdict)
    assert len(messages) == 2 and '"name"' in messages[0] and '"model"' in messages[1], messages
    assert all("the last of the two" in m for m in messages)
    assert {f["severity"] for f in sample.verdict["findings"]} == {"warning"}
    assert all(m in sample.verdict["reasons"] for m in messages)
    # the same reply with each key once: its verdict as before, no findings, no such reason
    server.script(Step(body=BODY.replace(b'"name": "get_time", ', b"").replace(b'"model": "first", ', b"")))
    jobs, _ = runner.prepare_jobs(scenario, [translate("openai", scenario)])
    runner.run(jobs, 1, runner.SendSettings(retries=0))
    clean = jobs[0].samples[0].verdict
    assert clean["category"] == "obeyed" and "findings" not in clean
    assert clean["reasons"] == [r for r in sample.verdict["reasons"] if r not in messages]


def test_send_says_the_key_beside_the_verdict_and_in_its_json(server, tmp_path):
    path = scenario_file(tmp_path, server)
    shown = run_cli(["send", str(path), "-p", "openai"], env=ENV | {"COLUMNS": "100"})
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "obeyed" in shown.stdout
    flat = " ".join(shown.stdout.split())
    assert 'names the key "name" twice in one object: judged on the last of the two' in flat, shown.stdout
    as_json = run_cli(["send", str(path), "-p", "openai", "-f", "json"], env=ENV)
    assert as_json.returncode == 0, as_json.stderr
    document = json.loads(as_json.stdout)
    verdicts = [v for v in _values(document, "verdict") if isinstance(v, dict)]
    assert verdicts and all(len(said(v)) == 2 for v in verdicts), verdicts


def test_compare_send_run_and_probe_judge_on_the_last_and_say_it(server, tmp_path):
    path = scenario_file(tmp_path, server)
    compared = run_cli(["compare", str(path), "-p", "openai", "--send", "-f", "json"], env=ENV)
    assert compared.returncode == 0, compared.stderr
    verdicts = [v for v in _values(json.loads(compared.stdout), "verdict") if isinstance(v, dict)]
    assert verdicts and all(v["category"] == "obeyed" and len(said(v)) == 2 for v in verdicts), verdicts
    loop = tmp_path / "loop.yaml"
    loop.write_text(path.read_text() + "loop: {max_steps: 1}\n")
    ran = run_cli(["run", str(loop), "-p", "openai", "-f", "json"], env=ENV)
    verdicts = [v for v in _values(json.loads(ran.stdout), "verdict") if isinstance(v, dict)]
    assert verdicts and all(len(said(v)) == 2 for v in verdicts), ran.stdout[:2000]
    probed = run_cli(["probe", "-p", "openai", "--base-url", server.base_url("openai"), "--model", "m",
                      "--tool-choice", "required", "-n", "1", "-f", "json"], env=ENV)
    asked = [q for q in json.loads(probed.stdout)["questions"] if q["result"] != "not asked"]
    assert asked and all("reply.duplicate_key in 1/1" in q["evidence"] for q in asked), asked


def _values(data: object, key: str) -> list[object]:
    """Every value under ``key`` at any depth of a JSON document."""
    found: list[object] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k == key:
                found.append(v)
            found += _values(v, key)
    elif isinstance(data, list):
        for v in data:
            found += _values(v, key)
    return found


def _har(tmp_path: Path) -> Path:
    """A HAR of one chat call forcing get_weather, its recorded response ``BODY`` (HAR 1.2's entry fields)."""
    body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "Weather in Paris?"}],
                       "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
                       "tools": [{"type": "function", "function": {"name": name, "parameters": {
                           "type": "object", "properties": {arg: {"type": "string"}}, "required": [arg]}}}
                           for name, arg in (("get_weather", "city"), ("get_time", "tz"))]})
    reply = BODY.decode()
    headers = [{"name": "content-type", "value": "application/json"}]
    entry = {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
             "request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "httpVersion": "HTTP/1.1",
                         "headers": headers, "queryString": [], "cookies": [], "headersSize": -1,
                         "bodySize": len(body), "postData": {"mimeType": "application/json", "text": body}},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": headers,
                          "cookies": [], "content": {"size": len(reply), "mimeType": "application/json", "text": reply},
                          "redirectURL": "", "headersSize": -1, "bodySize": len(reply)},
             "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
    path = tmp_path / "run.har"
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"},
                                        "entries": [entry]}}))
    return path


def test_a_har_response_naming_a_key_twice_is_judged_on_the_last_in_trace_and_replay(tmp_path):
    path = _har(tmp_path)
    traced = run_cli(["trace", str(path)], env=ENV | {"COLUMNS": "300"})  # the notes as comments over the scenario
    assert traced.returncode == 0, traced.stderr
    notes = [line for line in traced.stdout.splitlines() if line.startswith("# ")]
    assert any(line.startswith("# info har.reply: ") and ": obeyed: " in line for line in notes), notes
    twice = [line for line in notes if line.startswith("# warning reply.duplicate_key: ")]
    assert len(twice) == 2 and '"name" twice' in twice[0] and '"model" twice' in twice[1], notes
    replayed = run_cli(["run", "--replay", str(path), "-p", "openai", "-f", "json"], env=ENV)
    verdicts = [v for v in _values(json.loads(replayed.stdout), "verdict") if isinstance(v, dict)]
    assert verdicts and all(v["category"] == "obeyed" and len(said(v)) == 2 for v in verdicts), replayed.stdout[:2000]


def test_a_long_key_named_twice_is_quoted_cut_as_the_stream_and_trace_findings_cut_it() -> None:
    """A server's key of 200,000 characters named twice: the reply's finding quotes it cut (bounded.KEY_SHOWN, as
    stream.duplicate_key and trace's warnings quote theirs), not whole (a 200 KB reason line)."""
    from toolchoice.providers.core.bounded import json_loads_twice
    from toolchoice.providers.core.verdict import with_twice

    key = "k" * 200_000
    _, twice = json_loads_twice(json.dumps({"a": 1}).replace('"a": 1', f'"{key}": 1, "{key}": 2'))
    judged = with_twice({"obeyed": True, "category": "obeyed", "reasons": []}, twice)
    [reason] = judged["reasons"]
    assert key not in reason and "k…" in reason and len(reason) < 1_000
    [finding] = judged["findings"]
    assert finding["code"] == "reply.duplicate_key" and finding["message"] == reason
