"""Issue 29 (hardening, round three): the reproductions of each class, over real sockets where a socket is
what matters (tests/streams.py's stand-in writes scripted bytes in pieces of any size)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from streams import WEATHER_SCENARIO as SCENARIO, Piece, Script, StreamServer, bedrock_event, fixture_lines, framed, \
    paced, sse

from cli import run_cli

KEY = "gsk-r3-secret-key-0123456789abcdefXYZ"
AWS_KEY = "bedrock-r3-token-ABCDEFGHIJKLMNOP0123456789"


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if "proxy" not in k.lower() and not k.startswith("TOOLCHOICE_")}
    out.update(GROQ_API_KEY=KEY, AWS_BEARER_TOKEN_BEDROCK=AWS_KEY, NO_PROXY="127.0.0.1", COLUMNS="160", NO_COLOR="1")
    out.update(extra)
    return out


def scenario(tmp_path: Path, text: str = SCENARIO) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return path


def echo_stream(provider: str, secret: str) -> bytes:
    """The recorded stream with a text delta that quotes the key (a server echoing what it was sent)."""
    lines = fixture_lines(provider, "groq-tool-call.chunks.txt" if provider == "groq" else
                          "amazon-bedrock-tool-call.1.chunks.txt")
    if provider == "groq":
        echo = {"id": "x", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content":
                f"your key is {secret}"}, "finish_reason": None}]}
        return framed("groq", [lines[0], json.dumps(echo), *lines[1:]], done=True)
    echo = bedrock_event("contentBlockDelta", {"contentBlockIndex": 9, "delta": {"text": f"your key is {secret}"}})
    return echo + framed("bedrock", lines)


# ---- keys: one redaction pass over whole streams ----------------------------------------------------

@pytest.mark.parametrize("size", [1, 3, 7, 64])
@pytest.mark.parametrize("columns", ["20", "160"])
def test_a_key_in_small_stream_pieces_is_redacted_in_saves_and_output(tmp_path, size, columns):
    data = echo_stream("groq", KEY)
    with StreamServer(Script(paced(data, size, 0.0))) as server:
        result = run_cli(["send", str(scenario(tmp_path)), "-p", "groq", "--base-url", server.url + "/openai/v1",
                          "--stream", "--raw", "--save", str(tmp_path / "saved")], env=env(COLUMNS=columns))
    saved = (tmp_path / "saved" / "sample-001.response.sse").read_bytes()
    assert b"$GROQ_API_KEY" in saved
    shown = result.stdout + result.stderr
    for piece in range(0, len(KEY) - 12):
        assert KEY[piece:piece + 12] not in shown and KEY[piece:piece + 12].encode() not in saved
    # laid out in a narrow column, the key must not be readable top to bottom either
    assert KEY[:12] not in "".join(result.stdout.split())


def test_bedrock_event_stream_saves_are_redacted_and_still_decode(tmp_path):
    data = echo_stream("bedrock", AWS_KEY)
    with StreamServer(Script(paced(data, 5, 0.0), content_type="application/vnd.amazon.eventstream")) as server:
        result = run_cli(["send", str(scenario(tmp_path)), "-p", "bedrock", "--base-url", server.url, "--stream",
                          "-f", "json", "--save", str(tmp_path / "saved")], env=env())
    saved = (tmp_path / "saved" / "sample-001.response.eventstream").read_bytes()
    assert AWS_KEY.encode() not in saved and AWS_KEY[:14].encode() not in saved
    assert AWS_KEY not in result.stdout + result.stderr
    parsed = run_cli(["parse", str(tmp_path / "saved" / "sample-001.response.eventstream"), "-p", "bedrock",
                      "--stream", "-f", "json"], env=env())
    document = json.loads(parsed.stdout)
    assert not [f for f in document["stream"]["findings"] if f["code"] == "stream.framing"], document["stream"]


# ---- wrong results: a failed stream is never "obeyed" -------------------------------------------------

def _send_stream(tmp_path: Path, script: Script) -> tuple[int, dict]:
    with StreamServer(script) as server:
        result = run_cli(["send", str(scenario(tmp_path)), "-p", "groq", "--base-url", server.url + "/openai/v1",
                          "--stream", "-f", "json", "--retries", "0", "--timeout", "5"], env=env())
    return result.returncode, json.loads(result.stdout)


@pytest.mark.parametrize("kind", ["application/json", "text/event-stream"])
def test_a_500_whose_body_is_cut_is_an_error(tmp_path, kind):
    auto = SCENARIO.replace("tool_choice: required", "tool_choice: auto")  # where no call at all is obeyed
    with StreamServer(Script([Piece(b'{"error": {"message": "overl')], status=500, content_type=kind,
                             drop=True)) as server:
        result = run_cli(["send", str(scenario(tmp_path, auto)), "-p", "groq", "--base-url",
                          server.url + "/openai/v1", "--stream", "-f", "json", "--retries", "0", "--timeout", "5"],
                         env=env())
    data = json.loads(result.stdout)
    assert data["verdict"]["category"] != "obeyed" and result.returncode != 0


def test_a_200_that_sends_no_byte_is_an_error(tmp_path):
    code, data = _send_stream(tmp_path, Script([]))
    auto = SCENARIO.replace("tool_choice: required", "tool_choice: auto")
    with StreamServer(Script([])) as server:
        result = run_cli(["send", str(scenario(tmp_path, auto)), "-p", "groq", "--base-url",
                          server.url + "/openai/v1", "--stream", "-f", "json", "--retries", "0"], env=env())
    assert json.loads(result.stdout)["verdict"]["category"] != "obeyed" and result.returncode != 0
    assert data["verdict"]["category"] != "obeyed" and code != 0
    assert "stream.empty" in [f["code"] for f in data["stream"]["findings"]]


def test_an_assembler_fault_is_a_finding_not_a_crash_nor_obeyed(tmp_path):
    lines = fixture_lines("groq", "groq-tool-call.chunks.txt")
    bad = json.loads(lines[1])
    bad["choices"][0]["delta"]["tool_calls"][0]["index"] = {"not": "an index"}
    code, data = _send_stream(tmp_path, Script([Piece(framed("groq", [lines[0], json.dumps(bad), *lines[2:]],
                                                                    done=True))]))
    assert data["verdict"]["category"] != "obeyed" and code not in (0, 70), data


def test_events_after_done_are_not_assembled(tmp_path):
    lines = fixture_lines("groq", "groq-tool-call.chunks.txt")
    extra = json.loads(lines[1])
    extra["choices"][0]["delta"]["tool_calls"][0].update(index=1, id="late")
    data = framed("groq", lines, done=True) + sse([extra])
    path = tmp_path / "s.sse"
    path.write_bytes(data)
    result = run_cli(["parse", str(path), "-p", "groq", "--stream", "-f", "json"], env=env())
    document = json.loads(result.stdout)
    assert [c["name"] for c in document["reply"]["tool_calls"]] == ["weather"]


@pytest.mark.parametrize("bad", [{"tool_calls": True}, {"tool_calls": [{"index": 0, "id": {"x": 1}, "function": []}]},
                                 {"tool_calls": [{"index": [0], "function": {"arguments": 5}}]}])
@pytest.mark.parametrize("provider", ["groq", "openai", "mistral", "deepseek"])
def test_wrong_field_types_in_events_are_findings(provider, bad):
    from toolchoice.providers.core.streaming import assemble_bytes

    chunk = {"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": bad}]}
    result = assemble_bytes(provider, sse([chunk], done=True))
    assert result.reply.error is not None
    assert result.findings


def test_deep_json_in_a_stream_event_is_a_finding():
    from toolchoice.providers.core.streaming import assemble_bytes

    result = assemble_bytes("groq", b"data: " + b"[" * 100000 + b"\n\ndata: [DONE]\n\n")
    assert result.reply.error is not None


def test_a_stream_past_its_size_limit_stops_with_a_finding(monkeypatch):
    from toolchoice.providers.core.stream_framing import EventDecoder

    monkeypatch.setenv("TOOLCHOICE_LIMIT_STREAM_BYTES", "1000")
    decoder = EventDecoder("sse")
    for _ in range(100):
        decoder.feed(b": keepalive\n" * 10)
    assert [f.code for f in decoder.findings] == ["stream.too_large"]
    assert "TOOLCHOICE_LIMIT_STREAM_BYTES" in decoder.findings[0].message


def test_one_long_sse_line_is_bounded_and_read_in_linear_pieces(monkeypatch):
    from toolchoice.providers.core.stream_framing import SSEDecoder, StreamFault

    decoder = SSEDecoder(max_line=10_000)
    with pytest.raises(StreamFault, match="stream_line_bytes"):
        for _ in range(20_000):
            decoder.feed(b"x")
    decoder = SSEDecoder(max_line=None)
    for _ in range(50_000):
        assert decoder.feed(b"y") == []
    assert decoder._buffer == "" and len(decoder._pending) == 50_000  # pieces kept, not re-scanned
    assert decoder.feed(b"\n\n") == []


# ---- replay: bounded, redacted, one line for a bad transcript, a failed step is not exit 0 ---------------

PLANNER = """
tools:
  - {name: plan, description: plan it, parameters: {type: object}}
tool_choice: auto
messages: [{role: user, content: plan}]
loop:
  max_steps: 2
  results: {plan: "planned"}
"""


def _openai_body(text: str | None = None, calls: list[tuple[str, str, dict]] = ()) -> dict:
    message: dict = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [{"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
                                 for i, n, a in calls]
    return {"id": "x", "object": "chat.completion", "model": "gpt", "choices": [{"index": 0, "message": message,
            "finish_reason": "tool_calls" if calls else "stop"}]}


def test_replay_save_redacts_the_recorded_bodies(tmp_path):
    key = "sk-replay-leak-0123456789abcdefABCDEF"
    folder = tmp_path / "bodies"
    folder.mkdir()
    (folder / "step-1.json").write_text(json.dumps(_openai_body(f"the key is {key}")))
    out = tmp_path / "out"
    result = run_cli(["run", str(scenario(tmp_path, PLANNER)), "-p", "openai", "--replay", str(folder), "--save",
                      str(out)], env=env(OPENAI_API_KEY=key))
    assert result.returncode == 0, result.stderr
    written = "".join(p.read_text() for p in out.rglob("*") if p.is_file())
    assert key not in written and key[:14] not in written and "$OPENAI_API_KEY" in written
    assert key not in result.stdout + result.stderr


@pytest.mark.parametrize("content", ["[1, 2]", '"text"', '{"reply": "not an object"}', "[" * 50000])
def test_a_replay_transcript_that_is_not_a_reply_object_is_one_line(tmp_path, content):
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "step-01.response.json").write_text(json.dumps(_openai_body("hi")))
    (folder / "step-01.reply.json").write_text(content)
    result = run_cli(["run", str(scenario(tmp_path, PLANNER)), "-p", "openai", "--replay", str(folder)], env=env())
    assert result.returncode == 2, result.stdout + result.stderr
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


def test_run_over_a_transcript_whose_step_failed_is_not_exit_0(tmp_path):
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "step-01.response.json").write_text(json.dumps(_openai_body(calls=[("c1", "plan", {})])))
    (folder / "step-01.reply.json").write_text(json.dumps({"provider": "openai", "status": 200}))
    (folder / "step-02.response.txt").write_text("upstream connect error")
    (folder / "step-02.reply.json").write_text(json.dumps({"provider": "openai", "status": 502}))
    result = run_cli(["run", str(scenario(tmp_path, PLANNER)), "-p", "openai", "--replay", str(folder)], env=env())
    assert result.returncode not in (0, 70), result.stdout + result.stderr


# ---- files: never outside the folder, never through a link, never a predictable name, one run per folder ----

def test_a_scenario_named_dots_writes_snapshots_inside_the_folder(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "...yaml").write_text(SCENARIO)
    snaps = work / "snaps"
    result = run_cli(["render", "...yaml", "-p", "openai", "--snapshot", "snaps", "--update"], env=env(), cwd=work)
    assert result.returncode == 0, result.stderr
    outside = [p for p in tmp_path.rglob("*.json") if snaps not in p.parents]
    assert outside == [] and list(snaps.rglob("openai.json"))


def test_snapshot_update_does_not_follow_a_symlinked_subfolder(tmp_path):
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "openai.json").write_text("precious")
    (victim / "keep.json").write_text("precious")
    snaps = tmp_path / "snaps"
    snaps.mkdir()
    (snaps / "s").symlink_to(victim)
    path = scenario(tmp_path)
    result = run_cli(["render", str(path), "-p", "openai", "--snapshot", str(snaps), "--update"], env=env())
    assert (victim / "openai.json").read_text() == "precious" and (victim / "keep.json").read_text() == "precious"
    assert result.returncode == 2 and "symbolic link" in result.stderr, result.stderr


def test_save_never_writes_through_a_planted_temporary_name(tmp_path):
    from toolchoice.providers.core.save import write_atomic

    target = tmp_path / "victim.txt"
    target.write_text("precious")
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / ".sample-001.request.json.partial").symlink_to(target)
    write_atomic(folder / "sample-001.request.json", "new")
    assert target.read_text() == "precious" and (folder / "sample-001.request.json").read_text() == "new"


def test_two_runs_saving_into_one_folder_at_once_are_refused(tmp_path):
    from toolchoice.providers.core import save
    from toolchoice.providers.core.model import ToolchoiceError

    folder = tmp_path / "saved"
    save.prepare_save_dir(folder)
    try:
        with pytest.raises(ToolchoiceError, match="another toolchoice run"):
            save.prepare_save_dir(folder)
    finally:
        save.release_locks()
    save.prepare_save_dir(folder)  # free again once the first run ended
    save.release_locks()


def test_a_fifo_in_from_is_refused_without_waiting(tmp_path):
    import time

    os.mkfifo(tmp_path / "tools.json")
    path = scenario(tmp_path, "tools: [{from: tools.json}]\nmessages: [{role: user, content: hi}]\n")
    started = time.monotonic()
    result = run_cli(["render", str(path), "-p", "openai"], env=env())
    assert time.monotonic() - started < 10
    assert result.returncode == 2 and "FIFO" in result.stderr, result.stderr


def test_run_over_a_hand_edited_transcript_whose_step_failed_is_not_exit_0(tmp_path):
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "step-01.response.json").write_text(json.dumps(_openai_body(calls=[("c1", "plan", {})])))
    (folder / "step-01.reply.json").write_text(json.dumps({"provider": "openai", "status": 200, "reply": {
        "tool_calls": [{"id": "c1", "name": "plan", "arguments": {}}]}}))
    (folder / "step-02.response.json").write_text(json.dumps(_openai_body("done")))
    (folder / "step-02.reply.json").write_text(json.dumps({"provider": "openai", "status": 200,
                                                           "reply": {"tool_calls": "hand-edited"}}))
    result = run_cli(["run", str(scenario(tmp_path, PLANNER)), "-p", "anthropic", "--replay", str(folder)], env=env())
    assert result.returncode not in (0, 70), result.stdout + result.stderr


# ---- output: text from outside is data: no markup, no terminal escapes -------------------------------

HOSTILE = "read file[/b]\x1b]0;owned\x07\x1b[2J"


def _hostile_scenario(tmp_path: Path) -> Path:
    return scenario(tmp_path, json.dumps({
        "tools": [{"name": "t\x1b[31mx\x07", "description": "escape in the name"},
                  {"name": "read_file", "description": f"reads [schema, null] {HOSTILE}",
                   "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}},
                  {"name": "x", "description": "[bold red]x[/]"}],
        "tool_choice": {"type": "function", "function": {"name": "read_file"}},
        "messages": [{"role": "user", "content": f"hi {HOSTILE}"}]}))


@pytest.mark.parametrize("args", [["render", "-p", "openai"], ["render", "-p", "anthropic", "-f", "curl"],
                                  ["render", "-p", "gemini", "--ledger-only"], ["compare"], ["compare", "-f", "markdown"],
                                  ["render", "-p", "openai", "-f", "json"]])
def test_no_outside_control_byte_reaches_the_terminal(tmp_path, args):
    path = _hostile_scenario(tmp_path)
    result = run_cli([args[0], str(path), *args[1:]], env=env(COLUMNS="100"))
    assert result.returncode in (0, 3), result.stderr
    out = result.stdout + result.stderr
    assert "\x1b" not in out and "\x07" not in out, repr(out[:400])


@pytest.mark.parametrize("args", [[], ["-f", "json"]])
def test_no_control_byte_of_a_reply_reaches_the_terminal(tmp_path, args):
    body = _openai_body(f"hi {HOSTILE}", calls=[("c1", "get\x1b[31mred", {"a": "\x1b[5m"})])
    (tmp_path / "r.json").write_text(json.dumps(body))
    result = run_cli(["parse", str(tmp_path / "r.json"), "-p", "openai", *args], env=env())
    out = result.stdout + result.stderr
    assert "\x1b" not in out and "\x07" not in out, repr(out[:400])


def test_markup_in_ledger_text_is_shown_as_text():
    from rich.console import Console  # noqa: F401 - the printer is rich's

    from toolchoice.cli.output import ledger_table, new_console
    from toolchoice.providers.core.model import LedgerEntry

    console = new_console(width=100)
    with console.capture() as captured:
        console.print(ledger_table([LedgerEntry("warning", "x.y", "type [schema, null] and read file[/b] stay")]))
    text = captured.get()
    assert "[schema, null]" in text and "read file[/b]" in text


def test_a_tool_named_like_closing_markup_does_not_crash_render(tmp_path):
    path = scenario(tmp_path, "tools:\n  - {name: 'read file[/b]', parameters: {type: object}}\n"
                              "messages: [{role: user, content: hi}]\n")
    for args in (["-p", "openai"], ["-p", "anthropic", "--ledger-only"], []):
        result = run_cli(["render", str(path), *args], env=env())
        assert result.returncode != 70 and "Traceback" not in result.stderr, result.stderr


# ---- compare --send: an HTTP 500 is an error; warnings and retries are shown ------------------------------

def test_compare_send_calls_a_500_an_error_and_shows_warnings_and_retries(tmp_path, monkeypatch):
    from servers import StandIn, Step

    from cli import record_retry_waits

    waits = record_retry_waits(monkeypatch)
    text = ("tools:\n  - {name: weather, parameters: {type: object, properties: {city: {type: string}}}}\n"
            "tool_choice: required\nmessages: [{role: user, content: weather in Paris?}]\nproviders:\n")
    failing = StandIn("ollama", default=Step.error("ollama", 500, "boom")).start()
    flaky = StandIn("openai", Step.error("openai", 429, "slow down", retry_after="0"), default=Step.reply("openai")).start()
    try:
        text += (f"  ollama: {{model: m, base_url: \"{failing.base_url('ollama')}\"}}\n"
                 f"  openai: {{model: m, base_url: \"{flaky.base_url('openai')}\"}}\n")
        path = scenario(tmp_path, text)
        result = run_cli(["compare", str(path), "--send", "--retries", "1"],
                         env=env(OPENAI_API_KEY="sk-test-compare-0123456789", COLUMNS="200"))
    finally:
        failing.stop()
        flaky.stop()
    out = result.stdout
    row = next(line for line in out.splitlines() if "│ ollama" in line)
    assert "error" in row and "not enforced" not in row, out
    assert "retried" in out and "429" in out, out
    assert waits


# ---- unbounded inputs ------------------------------------------------------------------------------------

def test_an_alias_bomb_is_counted_in_bytes_not_values():
    from toolchoice.providers.core.model import ToolchoiceError
    from toolchoice.providers.core.scenario import load_scenario_text

    parts = ["x-a: &a [" + ",".join(['"' + "x" * 2000 + '"'] * 10) + "]"]
    for i in range(1, 6):
        parts.append(f"x-b{i}: &b{i} [" + ",".join([f"*{'a' if i == 1 else f'b{i - 1}'}"] * 10) + "]")
    text = ("tools: [{name: t, parameters: {type: object, " + ", ".join(parts) + "}}]\n"
            "messages: [{role: user, content: hi}]\n")
    assert len(text) < 25_000  # 100,000 copies of 2,000 characters: 200 MB once expanded, 111,111 values
    with pytest.raises(ToolchoiceError, match="expanded_bytes"):
        load_scenario_text(text)


def test_results_from_output_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("TOOLCHOICE_LIMIT_RESULT_BYTES", "1000")
    import asyncio

    from toolchoice.providers.core.loop_results import ToolResults
    from toolchoice.providers.core.model import HistoryCall, LoopSpec, ToolCall

    results = ToolResults(LoopSpec(), "yes | head -c 100000000", 20)
    call = ToolCall("c1", "t", {})
    message = asyncio.run(results.answer(call, HistoryCall("c1", "t", {}), ("t",), {}))
    assert message.is_error and "result_bytes" in message.content


def test_a_tool_catalogue_past_the_tools_limit_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("TOOLCHOICE_LIMIT_TOOLS", "50")
    tools = [{"type": "function", "function": {"name": f"t{i}", "parameters": {"type": "object"}}} for i in range(60)]
    (tmp_path / "tools.json").write_text(json.dumps(tools))
    path = scenario(tmp_path, "tools: [{from: tools.json}]\nmessages: [{role: user, content: hi}]\n")
    result = run_cli(["compare", str(path)], env=env(TOOLCHOICE_LIMIT_TOOLS="50"))
    assert result.returncode == 2 and "TOOLCHOICE_LIMIT_TOOLS" in result.stderr, result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_pretty_render_never_breaks_a_json_string_in_the_middle(tmp_path):
    long = "a long description " * 12
    path = scenario(tmp_path, f"tools:\n  - {{name: t, description: '{long.strip()}', parameters: {{type: object}}}}\n"
                              "messages: [{role: user, content: hi}]\n")
    result = run_cli(["render", str(path), "-p", "openai"], env=env(COLUMNS="60"))
    assert f'"description": "{long.strip()}"' in result.stdout


# ---- JSON from outside: depth, NaN, exponents -------------------------------------------------------------

def test_deep_json_in_a_from_tool_file_is_one_line(tmp_path):
    (tmp_path / "tools.json").write_text("[" * 100_000 + "]" * 100_000)
    path = scenario(tmp_path, "tools: [{from: tools.json}]\nmessages: [{role: user, content: hi}]\n")
    result = run_cli(["render", str(path), "-p", "openai"], env=env())
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


def test_deep_json_in_arguments_is_an_invalid_call_not_a_crash():
    from toolchoice.providers.core.parsing import make_call

    call = make_call("c", "t", "[" * 100_000)
    assert call.arguments is None and call.arguments_error


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_nan_arguments_are_invalid_and_never_printed_bare(tmp_path, word):
    body = _openai_body(calls=[("c1", "weather", {})])
    body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = '{"location": ' + word + '}'
    (tmp_path / "reply.json").write_text(json.dumps(body))
    result = run_cli(["parse", str(tmp_path / "reply.json"), "-p", "openai", "--scenario", str(scenario(tmp_path)),
                      "-f", "json"], env=env())
    document = json.loads(result.stdout)  # strict JSON: a bare NaN would not parse
    assert document["verdict"]["category"] != "obeyed"
    assert document["reply"]["tool_calls"][0]["arguments"] is None


def test_a_json_scenario_sends_exponent_numbers_as_numbers(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"tools": [{"name": "t", "parameters": {"type": "object", "properties": {"x": {"type": "number",'
                    ' "minimum": 1e-5}}}}], "messages": [{"role": "user", "content": "hi"}]}')
    (tmp_path / "tools.json").write_text('[{"type": "function", "function": {"name": "u", "parameters": '
                                         '{"type": "object", "properties": {"y": {"type": "number", "maximum": 2E+3}}}}}]')
    result = run_cli(["render", str(path), "-p", "openai", "-f", "json"], env=env())
    body = json.loads(result.stdout)["request"]["body"]
    assert body["tools"][0]["function"]["parameters"]["properties"]["x"]["minimum"] == 1e-5
    with_file = scenario(tmp_path, "tools: [{from: tools.json}]\nmessages: [{role: user, content: hi}]\n")
    result = run_cli(["render", str(with_file), "-p", "openai", "-f", "json"], env=env())
    body = json.loads(result.stdout)["request"]["body"]
    assert body["tools"][0]["function"]["parameters"]["properties"]["y"]["maximum"] == 2000


def test_parse_reads_a_file_only_up_to_its_limit(tmp_path):
    (tmp_path / "big.sse").write_bytes(b": keepalive\n" * 2000)
    result = run_cli(["parse", str(tmp_path / "big.sse"), "-p", "groq", "--stream"],
                     env=env(TOOLCHOICE_LIMIT_STREAM_BYTES="1000"))
    assert result.returncode == 2 and "TOOLCHOICE_LIMIT_STREAM_BYTES" in result.stderr, result.stderr


def test_run_save_writes_the_whole_history_once_per_loop_not_every_step(tmp_path, monkeypatch):
    from toolchoice.providers.core import save

    written: list[str] = []
    real = save.write_atomic

    def counting(path, text):
        written.append(Path(path).name)
        real(path, text)

    monkeypatch.setattr(save, "write_atomic", counting)
    folder = tmp_path / "bodies"
    folder.mkdir()
    steps = 6
    for n in range(1, steps):
        (folder / f"step-{n}.json").write_text(json.dumps(_openai_body(calls=[(f"c{n}", "plan", {})])))
    (folder / f"step-{steps}.json").write_text(json.dumps(_openai_body("done")))
    text = PLANNER.replace("max_steps: 2", f"max_steps: {steps}")
    result = run_cli(["run", str(scenario(tmp_path, text)), "-p", "openai", "--replay", str(folder), "--save",
                      str(tmp_path / "out")], env=env())
    assert result.returncode == 0, result.stderr
    assert written.count("scenario.yaml") == 1 and written.count("loop.json") == 1
    assert written.count("step-06.reply.json") == 1
    saved = tmp_path / "out" / "openai" / "loop-001"
    assert (saved / "scenario.yaml").is_file() and json.loads((saved / "loop.json").read_text())


def test_a_live_stream_ends_at_done_even_when_the_server_keeps_the_connection_open(tmp_path):
    import time

    lines = fixture_lines("groq", "groq-tool-call.chunks.txt")
    started = time.monotonic()
    code, data = _send_stream(tmp_path, Script([Piece(framed("groq", lines, done=True))], stall=20))
    assert time.monotonic() - started < 10
    assert code == 0 and data["verdict"]["category"] == "obeyed", data["stream"]
