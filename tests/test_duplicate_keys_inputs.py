"""Nothing the user wrote or handed in is lost or silently changed: a key written twice in one JSON object.

Python's ``json.loads`` keeps the last of two equal names in an object and drops the first without a word
(``{"tool_choice": "auto", "tool_choice": "required"}`` became ``required``), and reads ``NaN`` as a float. The
scenario reader refuses both with one line naming file and line, and ``--tool-choice`` does since 3444d440; here
every other surface a user writes or hands in: ``tools FILE`` and ``from:`` tool files (JSON, JSON Lines), ``trace
FILE`` (a saved request, an OTLP/JSON export, a HAR), ``run --replay``'s reply files. The truth
outside the code: RFC 8259 section 4 ("The names within an object SHOULD be unique"; "the behavior of software
that receives such an object is unpredictable", some keep the first), section 6 (no NaN or Infinity), and
YAML 1.2.2 section 3.2.1.1 (each key of a mapping unique): what the scenario reader already says for the same
text, tested side by side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import refused_saying, run_cli, user_env

ROOT = Path(__file__).resolve().parent.parent
TOOL = '{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}'
# the same tool with a key written twice: at the top of the tool, and nested in its schema
TWICE_TOP = '{"name": "get_weather", "name": "get_time", "parameters": {"type": "object"}}'
TWICE_NESTED = ('{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string",\n'
                '  "type": "integer"}}}}')


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---- tools FILE and from: ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "key", "line"), [
    (f"[{TWICE_TOP}]", "name", 1),
    (f"[{TOOL},\n {TWICE_NESTED}]", "type", 2),  # the object that holds it opens on line 2
    ('{"tools": [' + TOOL + '], "tools": []}', "tools", 1),
])
def test_a_json_tool_file_with_a_key_twice_is_refused_naming_file_and_line(tmp_path: Path, text: str, key: str,
                                                                           line: int) -> None:
    path = _write(tmp_path, "tools.json", text)
    said = refused_saying(run_cli(["tools", str(path)], env=user_env()), f"tools.json:{line}:")
    assert f'the key "{key}" is written twice' in said and "keep one of them" in said


def test_a_json_lines_tool_file_names_the_line_of_the_object(tmp_path: Path) -> None:
    path = _write(tmp_path, "tools.jsonl", f"{TOOL}\n{TWICE_TOP}\n")
    said = refused_saying(run_cli(["tools", str(path)], env=user_env()), "tools.jsonl:2:")
    assert 'the key "name" is written twice' in said


def test_json_that_only_json_reads_tabs_is_refused_too(tmp_path: Path) -> None:
    """A tab before a key: YAML cannot read it, the JSON fallback did and kept the last name."""
    path = _write(tmp_path, "tools.json", '[{"name": "a",\n\t"name": "b", "parameters": {"type": "object"}}]\n')
    said = refused_saying(run_cli(["tools", str(path)], env=user_env()), "tools.json")
    assert 'the key "name" is written twice' in said


def test_a_from_file_is_refused_as_the_scenario_reader_refuses_the_same_keys(tmp_path: Path) -> None:
    _write(tmp_path, "tools.json", f"[{TWICE_TOP}]")
    inline = _write(tmp_path, "inline.yaml", f"tools: [{TWICE_TOP}]\nmessages: [{{role: user, content: hi}}]\n")
    scenario = _write(tmp_path, "s.yaml", "tools: [{from: tools.json}]\nmessages: [{role: user, content: hi}]\n")
    from_file = refused_saying(run_cli(["render", str(scenario), "-p", "openai"], env=user_env()), "tools.json:1:")
    in_scenario = refused_saying(run_cli(["render", str(inline), "-p", "openai"], env=user_env()), "inline.yaml:1:")
    assert "written twice" in from_file and "duplicate key 'name'" in in_scenario  # both refused, neither dropped


def test_one_name_once_still_reads(tmp_path: Path) -> None:
    done = run_cli(["tools", str(_write(tmp_path, "tools.json", f"[{TOOL}]")), "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["tools"][0]["name"] == "get_weather"


# ---- parse FILE ---------------------------------------------------------------------------------------------------

REPLY = ('{"id": "x", "object": "chat.completion", "model": "m", "choices": [{"index": 0, "finish_reason": '
         '"tool_calls",\n"message": {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": '
         '"function", "function": {"name": "get_weather", "name": "get_time", "arguments": "{}"}}]}}]}')


def test_a_saved_reply_is_the_servers_json_read_as_send_reads_it(tmp_path: Path) -> None:
    """A saved reply is what a server wrote, not the user: read as send reads it (the last of the two, said as
    reply.duplicate_key: tests/test_duplicate_keys_one_way.py), never refused; the rest of this file is the user's."""
    path = _write(tmp_path, "reply.json", REPLY)
    done = run_cli(["parse", str(path), "-p", "openai"], env=user_env())
    assert done.returncode == 0 and "reply.duplicate_key" in done.stderr and "get_time" in done.stdout, done.stderr


# ---- trace FILE: a saved request, an OTLP/JSON export, a HAR (bounded.json_documents reads each) --------------------

SAVED = ('{"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "headers": {},\n "body": {"model": '
         '"gpt-4o", "tool_choice": "auto", "tool_choice": "required", "messages": [{"role": "user", "content": "hi"}],'
         ' "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]}}')


@pytest.mark.parametrize(("name", "text", "args", "key", "line"), [
    ("req.json", SAVED, ["-p", "openai"], "tool_choice", 2),
    ("trace.json", '{"resourceSpans": [],\n "resourceSpans": []}', [], "resourceSpans", 1),
    ("t.jsonl", '{"resourceSpans": []}\n{"resourceSpans": [], "resourceSpans": []}\n', [], "resourceSpans", 2),
    ("run.har", '{"log": {"version": "1.2", "entries": [],\n "entries": []}}', [], "entries", 1),
])
def test_a_trace_file_with_a_key_twice_is_refused(tmp_path: Path, name: str, text: str, args: list[str], key: str,
                                                  line: int) -> None:
    path = _write(tmp_path, name, text)
    said = refused_saying(run_cli(["trace", str(path), *args], env=user_env()), f"{name}:{line}:")
    assert f'the key "{key}" is written twice' in said


def test_a_trace_holding_nan_is_refused_where_it_is_not_read_as_a_float(tmp_path: Path) -> None:
    """The trace reader's decoder took NaN (Python writes it, JSON has no such number) and read on."""
    path = _write(tmp_path, "trace.jsonl", '{"resourceSpans": []}\n{"resourceSpans": [{"x": NaN}]}\n')
    said = refused_saying(run_cli(["trace", str(path)], env=user_env()), "trace.jsonl:2:")
    assert "NaN is not a JSON value" in said


# ---- run --replay: a step's reply file --------------------------------------------------------------------------

def test_a_replayed_reply_file_with_a_key_twice_is_refused(tmp_path: Path) -> None:
    from toolchoice.providers import ToolchoiceError
    from toolchoice.providers.core import loop

    _write(tmp_path, "step-01.response.json", REPLY.replace('"name": "get_weather", ', ""))
    _write(tmp_path, "step-01.reply.json", '{"reply": {"tool_calls": []},\n "reply": {"tool_calls": []}}')
    with pytest.raises(ToolchoiceError) as caught:
        loop.load_replay(str(tmp_path), "openai")
    assert 'the key "reply" is written twice' in str(caught.value) and "step-01.reply.json:1" in str(caught.value)


# ---- the shared reader -------------------------------------------------------------------------------------------

def test_the_line_is_that_of_the_innermost_object_holding_the_key_twice() -> None:
    from toolchoice.providers.core.bounded import DuplicateKey, json_loads, unique_keys

    with pytest.raises(DuplicateKey) as caught:
        json_loads('{"a": 1,\n "b": {"c": 1,\n  "d": {"e": 1, "e": 2}}}', object_pairs_hook=unique_keys)
    assert (caught.value.key, caught.value.line) == ("e", 3)
    assert json_loads('{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}', object_pairs_hook=unique_keys) == {
        "a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}  # the same name in other objects is no duplicate


# ---- trace FILE: JSON text the exporter wrote inside a span (reported or refused, never read as its last key) -------

def _genai_trace(tmp_path: Path, messages: str, tools: str) -> Path:
    span = {"traceId": "0" * 31 + "1", "spanId": "0" * 15 + "1", "name": "chat m", "kind": 3,
            "startTimeUnixNano": "1", "endTimeUnixNano": "2", "attributes": [
                {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                {"key": "gen_ai.provider.name", "value": {"stringValue": "openai"}},
                {"key": "gen_ai.input.messages", "value": {"stringValue": messages}},
                {"key": "gen_ai.tool.definitions", "value": {"stringValue": tools}}]}
    return _write(tmp_path, "trace.json", json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}))


HI = '[{"role": "user", "parts": [{"type": "text", "content": "hi"}]}]'
GENAI_TOOL = '[{"type": "function", "name": "get_time", "parameters": {"type": "object"}}]'


def test_tool_definitions_naming_a_key_twice_are_a_finding_not_the_last_name(tmp_path: Path) -> None:
    tools = GENAI_TOOL.replace('"name": "get_time"', '"name": "get_time", "name": "get_weather"')
    done = run_cli(["trace", str(_genai_trace(tmp_path, HI, tools))], env=user_env(columns=400))
    assert done.returncode == 0, done.stderr
    assert "get_weather" not in done.stdout.split("\ndescription:")[1]  # no tool read as the last of the two names
    (said,) = [line for line in done.stdout.splitlines() if "gen_ai.tool.definitions" in line]
    assert said.startswith("# warning") and 'names the key "name" twice' in said


def test_messages_naming_a_key_twice_are_refused_saying_so_not_as_content_not_captured(tmp_path: Path) -> None:
    messages = HI.replace('"content": "hi"', '"content": "hi", "content": "bye"')
    said = refused_saying(run_cli(["trace", str(_genai_trace(tmp_path, messages, GENAI_TOOL))], env=user_env()),
                          "trace.json:")
    assert 'gen_ai.input.messages is JSON whose object at its line 1 names the key "content" twice' in said


def test_a_tool_spans_parameters_naming_a_key_twice_are_refused_naming_the_file(tmp_path: Path) -> None:
    trace = json.loads((ROOT / "tests" / "data" / "traces" / "openinference-openai-agents-2.6.0.json").read_text(
        encoding="utf-8"))
    spans = [s for r in trace["resourceSpans"] for c in r["scopeSpans"] for s in c["spans"]]
    found = [a for s in spans for a in s["attributes"] if a["key"] == "tool.parameters"]
    found[0]["value"] = {"stringValue": found[0]["value"]["stringValue"].replace(
        '"properties":', '"properties": {}, "properties":', 1)}
    path = _write(tmp_path, "trace.json", json.dumps(trace))
    said = refused_saying(run_cli(["trace", str(path)], env=user_env()), "trace.json:")
    assert 'tool.parameters: the key "properties" is written twice' in said


def test_a_har_request_body_naming_a_key_twice_is_refused_not_read_as_required(tmp_path: Path) -> None:
    """The body the program sent names tool_choice twice: which one the API read is not known, so none is chosen."""
    body = ('{"model": "gpt-4o", "tool_choice": "auto", "tool_choice": "required", "messages": [{"role": "user", '
            '"content": "hi"}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": '
            '{"type": "object"}}}]}')
    reply = REPLY.replace('"name": "get_weather", ', "")
    entry = {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
             "request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                         "httpVersion": "HTTP/1.1", "headers": [{"name": "content-type", "value": "application/json"}],
                         "queryString": [], "cookies": [], "headersSize": -1, "bodySize": len(body),
                         "postData": {"mimeType": "application/json", "text": body}},
             "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                          "headers": [{"name": "content-type", "value": "application/json"}], "cookies": [],
                          "content": {"size": len(reply), "mimeType": "application/json", "text": reply},
                          "redirectURL": "", "headersSize": -1, "bodySize": len(reply)},
             "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
    path = _write(tmp_path, "run.har", json.dumps({"log": {"version": "1.2", "creator": {"name": "t", "version": "1"},
                                                           "entries": [entry]}}))
    said = refused_saying(run_cli(["trace", str(path)], env=user_env()), "run.har log.entries[0]")
    assert 'request.postData.text: the key "tool_choice" is written twice' in said


# ---- a stream the server wrote: a finding, read as the SDKs read it -------------------------------------------------

CHUNK = ('data: {"id": "x", "object": "chat.completion.chunk", "model": "m", "choices": [{"index": 0, "delta": '
         '{"role": "assistant", "tool_calls": [{"index": 0, "id": "c1", "type": "function", "function": {"name": '
         '"get_weather", "name": "get_time", "arguments": ""}}]}, "finish_reason": null}]}\n\n'
         'data: {"id": "x", "object": "chat.completion.chunk", "model": "m", "choices": [{"index": 0, "delta": '
         '{"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}, "finish_reason": "tool_calls"}]}\n\n')


def test_a_stream_event_naming_a_key_twice_is_a_finding_once(tmp_path: Path) -> None:
    """openai-python reads each event with json.loads (the last "name": get_time); so does toolchoice, and says so."""
    second = CHUNK.replace('"c1"', '"c2"').replace('"index": 0, "id"', '"index": 1, "id"').replace(
        '[{"index": 0, "function"', '[{"index": 1, "function"')
    path = _write(tmp_path, "reply.sse", CHUNK + second + "data: [DONE]\n\n")
    done = run_cli(["parse", str(path), "-p", "openai", "--stream", "-f", "json"], env=user_env())
    assert done.returncode == 0, done.stdout  # benign: the stream was read whole, as the SDK reads it
    document = json.loads(done.stdout)
    assert [c["name"] for c in document["reply"]["tool_calls"]] == ["get_time", "get_time"]
    said = [f for f in json.dumps(document).split('"stream.duplicate_key"')[1:]]
    assert len(said) == 1 and 'names the key \\"name\\" twice' in said[0]
