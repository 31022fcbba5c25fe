"""`toolchoice run --replay FILE.har`: a conversation of a browser's or a proxy's saved traffic replayed offline through
the loop and its verdicts (providers/core/trace_har_replay.py; docs/run.md, docs/traces.md "HAR").

Truth from outside the code: openai-python and anthropic-python run agent loops at their own hosts, answered by
`toolchoice mock` on 127.0.0.1 through an httpx transport that keeps each exchange (tests/har_recorder.py), with
real-looking keys in their headers and a cookie; the HAR holds the bodies the SDKs sent and the answers they read.
The replay must send, step by step, the requests the SDK sent (the recorded results fed back), judge the replies
the SDK parsed, and say through the real CLI entry what a user sees. tests/data/har/sdk-session.har (its sources in
tests/data/har/SOURCES.md) holds calls to four APIs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator, NamedTuple

import pytest

from cli import refuse_sockets, refused, run_cli
from har_recorder import gemini_answer_as_stream_array, OPENAI_TOOLS, QUESTION, RESULT, SYSTEM, ANTHROPIC_TOOLS, Exchange, Forward, har, httpx
from toolchoice.providers import running_mock

ROOT = Path(__file__).resolve().parents[1]
SESSION = ROOT / "tests" / "data" / "har" / "sdk-session.har"
KEY = "sk-proj-replayHarKey0123456789abcdefABCDEF"
CLAUDE_KEY = "sk-ant-api03-replayHarKey0123456789abcdef"
COOKIE = "session=replay-har-cookie-0123456789"


class Recorded(NamedTuple):
    path: Path
    loops: list[str]  # per provider call, in the file's order: "gpt" or "claude"
    choices: list[Any]  # per call, the tool_choice the SDK was given
    called: list[list[str]]  # per call, the tools the SDK parsed from its reply
    bodies: list[dict[str, Any]]  # per call, the request body the SDK sent


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Recorded]:
    """A GPT loop (required, then get_time forced after the result, then auto: a text answer) interleaved with a
    Claude loop (a forced call, then auto after its result), as the SDKs sent and read them."""
    import anthropic
    import openai

    exchanges: list[Exchange] = []
    loops: list[str] = []
    choices: list[Any] = []
    called: list[list[str]] = []
    with running_mock("openai") as gpt, running_mock("anthropic") as claude:
        def client(base: str) -> httpx.Client:
            root = httpx.URL(base)
            return httpx.Client(transport=Forward(f"{root.scheme}://{root.host}:{root.port}", exchanges),
                                headers={"Cookie": COOKIE})

        chat = openai.OpenAI(api_key=KEY, max_retries=0, http_client=client(gpt.base_url))
        messages = anthropic.Anthropic(api_key=CLAUDE_KEY, max_retries=0, http_client=client(claude.base_url))

        def ask_gpt(history: list[Any], choice: Any, shown: Any) -> Any:
            reply = chat.chat.completions.create(model="gpt-4o-mini", messages=history, tools=OPENAI_TOOLS,
                                                 tool_choice=choice)
            loops.append("gpt")
            choices.append(shown)
            called.append([c.function.name for c in reply.choices[0].message.tool_calls or ()])
            message = reply.choices[0].message
            return [*history, message.model_dump(exclude_none=True),
                    *({"role": "tool", "tool_call_id": c.id, "content": f"{RESULT} ({c.function.name})"}
                      for c in message.tool_calls or ())]

        def ask_claude(history: list[Any], choice: Any, shown: Any) -> Any:
            reply = messages.messages.create(model="claude-sonnet-5", max_tokens=300, system=SYSTEM,
                                             messages=history, tools=ANTHROPIC_TOOLS, tool_choice=choice)
            loops.append("claude")
            choices.append(shown)
            called.append([b.name for b in reply.content if b.type == "tool_use"])
            results = [{"type": "tool_result", "tool_use_id": b.id, "content": RESULT}
                       for b in reply.content if b.type == "tool_use"]
            return [*history, {"role": "assistant", "content": [b.model_dump(exclude_none=True)
                                                                 for b in reply.content]},
                    {"role": "user", "content": results}]

        g = ask_gpt([{"role": "system", "content": SYSTEM}, {"role": "user", "content": QUESTION}], "required",
                    "required")
        c = ask_claude([{"role": "user", "content": QUESTION}], {"type": "tool", "name": "get_weather"},
                       {"tool": "get_weather"})
        g = ask_gpt(g, {"type": "function", "function": {"name": "get_time"}}, {"tool": "get_time"})
        ask_claude(c, {"type": "auto"}, "auto")
        ask_gpt(g, "auto", "auto")
    bodies = [json.loads(e.body) for e in exchanges]
    path = tmp_path_factory.mktemp("har") / "agent.har"
    path.write_text(json.dumps(har(exchanges)), encoding="utf-8")
    yield Recorded(path, loops, choices, called, bodies)


def _clean(shown: Any) -> None:
    """Nothing of the HAR's keys in what a user sees, and no traceback."""
    for text in (shown.stdout, shown.stderr):
        assert KEY not in text and CLAUDE_KEY not in text and "replay-har-cookie" not in text
        assert "replayHarKey" not in text and "Traceback" not in text


def _conversations(path: Path) -> dict[int, list[int]]:
    """``trace FILE.har``'s own grouping: conversation -> its samples."""
    listed = run_cli(["trace", str(path), "-f", "json"])
    assert listed.returncode == 0, listed.stderr
    found: dict[int, list[int]] = {}
    for row in json.loads(listed.stdout)["samples"]:
        found.setdefault(row["conversation"], []).append(row["sample"])
    return found


def _replayed_on_openai(recorded: Any, name: str) -> tuple[list[int], int, dict[str, Any]]:
    """(the recorded calls of loop ``name``, its conversation's number, the loop `run --replay -p openai` made)."""
    calls = [i for i, loop in enumerate(recorded.loops) if loop == name]
    number = next(n for n, samples in _conversations(recorded.path).items() if samples == [i + 1 for i in calls])
    shown = run_cli(["run", "--replay", str(recorded.path), "-p", "openai", "--trace-id", str(number), "-f", "json"])
    assert shown.returncode == 0, shown.stderr
    _clean(shown)
    return calls, number, json.loads(shown.stdout)["runs"][0]["loops"][0]


def _said(messages: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Chat Completions messages as the API reads them: an empty content as none, arguments as the JSON they spell
    (the loop writes its assistant turn as toolchoice renders one, the SDK as it dumps one)."""
    return [(m["role"], m.get("content") or None, m.get("tool_call_id"),
             [(c["id"], c["function"]["name"], json.loads(c["function"]["arguments"])) for c in m.get("tool_calls", ())])
            for m in messages]


def test_the_gpt_loop_replays_its_recorded_requests_and_the_replies_the_sdk_read(recorded: Recorded) -> None:
    """Each replayed step sends the body openai-python sent at that step (the recorded results fed back), asks the
    tool_choice the SDK was given, and is judged on the reply the SDK parsed; the loop ends as the recording did."""
    gpt, number, loop = _replayed_on_openai(recorded, "gpt")
    assert len(loop["steps"]) == len(gpt) == 3
    for step, i in zip(loop["steps"], gpt):
        sent = recorded.bodies[i]
        assert _said(step["request"]["body"]["messages"]) == _said(sent["messages"]), step["step"]
        assert step["request"]["body"]["tool_choice"] == sent["tool_choice"]
        assert step["requested_tool_choice"] == recorded.choices[i]
        assert [c["name"] for c in step["reply"]["tool_calls"]] == recorded.called[i]
        assert step["verdict"]["obeyed"] is True
    assert loop["ended"]["reason"] == "no_tool_call" and loop["ended"]["step"] == 3
    pretty = run_cli(["run", "--replay", str(recorded.path), "-p", "openai", "--trace-id", str(number)],
                     env={"COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb", "PATH": ""})
    assert pretty.returncode == 0, pretty.stderr
    _clean(pretty)
    assert "loop 1 · replayed" in pretty.stdout and "ended: no_tool_call at step 3" in pretty.stdout
    assert pretty.stdout.count("✔ obeyed") == 3


def test_the_claude_loop_replays_on_another_provider_judged_there(recorded: Recorded) -> None:
    """Replayed on OpenAI, the Claude loop's steps are rendered for OpenAI (the recorded tool_use answered by a tool
    message) and each recorded reply judged against that request."""
    claude, _, loop = _replayed_on_openai(recorded, "claude")
    assert [s["requested_tool_choice"] for s in loop["steps"]] == [recorded.choices[i] for i in claude]
    assert [[c["name"] for c in s["reply"]["tool_calls"]] for s in loop["steps"]] == [recorded.called[i]
                                                                                      for i in claude]
    second = loop["steps"][1]["request"]["body"]["messages"]
    assert second[-1]["role"] == "tool" and second[-1]["content"] == RESULT  # the result Claude's SDK sent back
    assert second[-2]["tool_calls"][0]["id"] == recorded.bodies[claude[1]]["messages"][1]["content"][0]["id"]


def test_a_file_of_several_conversations_needs_trace_id_and_names_those_it_holds(recorded: Recorded) -> None:
    """Without --trace-id (or with one it does not hold): one line naming the file, the conversations (as `trace
    FILE.har` numbers them) and their APIs, exit 2; a HAR of calls to several APIs says one -p per API."""
    held = _conversations(recorded.path)
    for extra in ([], ["--trace-id", "7"], ["--trace-id", "x"]):
        shown = run_cli(["run", "--replay", str(recorded.path), "-p", "openai", *extra])
        assert shown.returncode == 2 and shown.stdout == ""
        _clean(shown)
        assert len(shown.stderr.strip().splitlines()) == 1 and str(recorded.path) in shown.stderr
        if not extra:
            assert "2 APIs" in shown.stderr and "one -p per API" in shown.stderr
        else:
            assert all(f"{n} ({len(s)} calls to " in shown.stderr for n, s in held.items())
    session = run_cli(["run", "--replay", str(SESSION), "-p", "openai"])
    assert session.returncode == 2 and "4 APIs" in session.stderr and "one -p per API" in session.stderr


def test_a_recorded_stream_replays_with_stream(recorded: Recorded) -> None:
    """sdk-session.har's streamed Anthropic call (conversation 4, SOURCES.md) replays only with --stream, as a
    saved stream does; with it, the stream is assembled and judged."""
    number = next(n for n, samples in _conversations(SESSION).items() if samples == [5])
    without = run_cli(["run", "--replay", str(SESSION), "-p", "anthropic", "--trace-id", str(number)])
    assert without.returncode == 2 and "replay it with --stream" in without.stderr
    shown = run_cli(["run", "--replay", str(SESSION), "-p", "anthropic", "--trace-id", str(number), "--stream",
                     "-f", "json"])
    assert shown.returncode == 0, shown.stderr
    step = json.loads(shown.stdout)["runs"][0]["loops"][0]["steps"][0]
    assert step["requested_tool_choice"] == {"tool": "get_time"} and step["verdict"]["obeyed"] is True
    assert [c["name"] for c in step["reply"]["tool_calls"]] == ["get_time"]


def test_replay_and_dry_run_open_no_socket(recorded: Recorded, monkeypatch: pytest.MonkeyPatch) -> None:
    tried = refuse_sockets(monkeypatch)
    number = next(n for n, s in _conversations(recorded.path).items() if len(s) == 3)
    for extra in ([], ["--dry-run"]):
        shown = run_cli(["run", "--replay", str(recorded.path), "-p", "openai", "--trace-id", str(number), *extra])
        assert shown.returncode == 0, shown.stderr
        _clean(shown)
    assert tried == []


def _entry_broken(path: Path, out: Path, index: int, change: Any) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data["log"]["entries"][index])
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def test_bad_input_is_one_line_naming_the_file_and_entry(recorded: Recorded, tmp_path: Path) -> None:
    def unreadable(entry: dict[str, Any]) -> None:
        entry["request"]["postData"]["text"] = "{not json"

    def no_url(entry: dict[str, Any]) -> None:
        del entry["request"]["url"]

    cases = [(_entry_broken(recorded.path, tmp_path / "a.har", 2, unreadable), "log.entries[2]: request.postData"),
             (_entry_broken(recorded.path, tmp_path / "b.har", 1, no_url), "log.entries[1]: not a HAR entry")]
    cases.append((tmp_path / "c.har", "not an HTTP Archive"))
    (tmp_path / "c.har").write_text('{"log": {}}', encoding="utf-8")
    for path, said in cases:
        shown = run_cli(["run", "--replay", str(path), "-p", "openai", "--trace-id", "1"])
        assert shown.returncode == 2 and shown.stdout == "", (path, shown.stdout)
        _clean(shown)
        assert len(shown.stderr.strip().splitlines()) == 1 and f"{path}" in shown.stderr and said in shown.stderr


def _session_copy(tmp_path: Path, change: Any) -> Path:
    data = json.loads(SESSION.read_text(encoding="utf-8"))
    change(data["log"]["entries"])
    out = tmp_path / "session.har"
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def test_a_gemini_stream_recorded_as_a_json_array_replays_as_its_events(tmp_path: Path) -> None:
    """streamGenerateContent without alt=sse answers a JSON array of its responses (sdk-session.har's
    generateContent answer made two chunks): the replay streams them and judges the call google-genai read."""
    path = _session_copy(tmp_path, gemini_answer_as_stream_array)
    number = next(n for n, samples in _conversations(path).items() if samples == [6])
    shown = run_cli(["run", "--replay", str(path), "-p", "gemini", "--trace-id", str(number), "--stream", "-f", "json"])
    assert shown.returncode == 0, shown.stderr
    step = json.loads(shown.stdout)["runs"][0]["loops"][0]["steps"][0]
    assert step["verdict"]["obeyed"] is True and [c["name"] for c in step["reply"]["tool_calls"]] == ["get_weather"]


def test_p_names_the_api_of_a_host_toolchoice_does_not_know(recorded: Recorded, tmp_path: Path) -> None:
    """Recorded through a gateway (its host unknown to toolchoice): -p openai reads its Chat Completions calls, the
    Claude calls at api.anthropic.com stay Anthropic's, and the GPT loop replays as from the API's own host."""
    data = json.loads(recorded.path.read_text(encoding="utf-8"))
    for entry in data["log"]["entries"]:
        entry["request"]["url"] = entry["request"]["url"].replace("https://api.openai.com", "https://llm-gw.example")
    path = tmp_path / "gateway.har"
    path.write_text(json.dumps(data), encoding="utf-8")
    claude = run_cli(["run", "--replay", str(path), "-p", "anthropic", "-f", "json"])  # the gateway's calls are not
    assert claude.returncode == 0, claude.stderr  # read as Anthropic's: the Claude loop is the one conversation
    assert [s["requested_tool_choice"] for s in json.loads(claude.stdout)["runs"][0]["loops"][0]["steps"]] == [
        c for c, loop_ in zip(recorded.choices, recorded.loops) if loop_ == "claude"]
    number = next(n for n, s in _conversations(recorded.path).items() if len(s) == 3)
    shown = run_cli(["run", "--replay", str(path), "-p", "openai", "--trace-id", str(number), "-f", "json"])
    assert shown.returncode == 0, shown.stderr
    _clean(shown)
    loop = json.loads(shown.stdout)["runs"][0]["loops"][0]
    assert [s["requested_tool_choice"] for s in loop["steps"]] == [c for c, loop_ in zip(recorded.choices,
                                                                                         recorded.loops) if loop_ == "gpt"]


def test_a_key_in_a_request_body_stays_out_and_replays_once_allowed(recorded: Recorded, tmp_path: Path) -> None:
    """A key the agent put in its request bodies (a gateway's api_key field) is read as the saved-request reader
    writes it, a $NAME the scenario reads; the replay refuses it until --allow-env names it, then replays offline
    with a stand-in (the variable unset), and the key is in no output."""
    body_key = "sk-proj-BodyKeyAbcdefghijklmnop0123456789"
    data = json.loads(recorded.path.read_text(encoding="utf-8"))
    for entry in data["log"]["entries"]:
        if "api.openai.com" in entry["request"]["url"]:
            body = json.loads(entry["request"]["postData"]["text"])
            entry["request"]["postData"]["text"] = json.dumps({**body, "api_key": body_key})
    path = tmp_path / "body-key.har"
    path.write_text(json.dumps(data), encoding="utf-8")
    number = next(n for n, s in _conversations(recorded.path).items() if len(s) == 3)
    env = {"NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "80", "PATH": ""}
    refused = run_cli(["run", "--replay", str(path), "-p", "openai", "--trace-id", str(number)], env=env)
    assert refused.returncode == 3 and "--allow-env API_KEY" in refused.stdout
    for fmt in ("pretty", "json"):
        shown = run_cli(["run", "--replay", str(path), "-p", "openai", "--trace-id", str(number), "--allow-env",
                         "API_KEY", "-f", fmt], env=env)
        assert shown.returncode == 0, shown.stdout + shown.stderr
        for text in (refused.stdout, refused.stderr, shown.stdout, shown.stderr):
            assert "BodyKey" not in text and "Traceback" not in text
    steps = json.loads(shown.stdout)["runs"][0]["loops"][0]["steps"]
    assert [s["verdict"]["obeyed"] for s in steps] == [True, True, True]


def _responses_entry(body: dict[str, Any], reply: dict[str, Any]) -> dict[str, Any]:
    return {"startedDateTime": "2026-11-28T02:00:00.000Z", "time": 2,
            "request": {"method": "POST", "url": "https://api.openai.com/v1/responses", "httpVersion": "HTTP/1.1",
                        "cookies": [], "headers": [], "queryString": [], "headersSize": -1, "bodySize": -1,
                        "postData": {"mimeType": "application/json", "text": json.dumps(body)}},
            "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
                         "content": {"size": -1, "mimeType": "application/json", "text": json.dumps(reply)},
                         "redirectURL": "", "headersSize": -1, "bodySize": -1},
            "cache": {}, "timings": {"send": 0, "wait": 2, "receive": 0}}


def test_a_step_offering_fewer_tools_beside_a_hosted_tool_offers_its_own(tmp_path: Path) -> None:
    """Two Responses calls offering an MCP server (a hosted tool: no name, openai-python's types/responses/tool_param.py
    Mcp: type, server_label, server_url, require_approval) beside function tools; the second offers get_time alone of
    them. Its step offers get_time (it offered every declared tool, get_weather too, where a tool had no name); the
    step's tools: send no hosted tool, which the loop says at that step (loop.step_tools)."""
    from toolchoice.providers.core.trace_har_replay import replay_file

    def function(name: str, field: str) -> dict[str, Any]:
        return {"type": "function", "name": name, "strict": False, "parameters": {
            "type": "object", "properties": {field: {"type": "string"}}, "required": [field]}}

    mcp = {"type": "mcp", "server_label": "dw", "server_url": "https://mcp.example.com/mcp",
           "require_approval": "never"}
    call = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
            "arguments": '{"city":"Oslo"}', "status": "completed"}
    asked = [{"role": "user", "content": QUESTION}]
    usage = {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}
    text = {"type": "message", "id": "msg_2", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": "Cold.", "annotations": []}]}
    entries = [_responses_entry({"model": "gpt-4o-mini", "input": asked, "tool_choice": "required",
                                 "tools": [function("get_weather", "city"), function("get_time", "tz"), mcp]},
                                {"id": "resp_1", "object": "response", "status": "completed", "model": "gpt-4o-mini",
                                 "output": [call], "usage": usage}),
               _responses_entry({"model": "gpt-4o-mini", "tool_choice": "auto",
                                 "tools": [function("get_time", "tz"), mcp],
                                 "input": [*asked, call, {"type": "function_call_output", "call_id": "call_1",
                                                          "output": RESULT}]},
                                {"id": "resp_2", "object": "response", "status": "completed", "model": "gpt-4o-mini",
                                 "output": [text], "usage": usage})]
    path = tmp_path / "hosted.har"
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"},
                                        "entries": entries}}), encoding="utf-8")
    scenario, _ = replay_file(path, None, "openai-responses")
    assert [t.name for t in scenario.tools] == ["get_weather", "get_time"]
    assert [t.kind for t in scenario.native_tools] == ["mcp"]
    assert [step.tools for step in scenario.loop.steps] == [None, ("get_time",)]
    shown = run_cli(["run", "--replay", str(path), "-p", "openai-responses", "--format", "json"], cwd=ROOT)
    second = json.loads(shown.stdout)["runs"][0]["loops"][0]["steps"][1]
    assert any(e["code"] == "loop.step_tools" and "step 2 offers get_time" in e["message"] for e in second["ledger"])


def test_many_conversations_are_said_as_ranges(tmp_path: Path) -> None:
    """A HAR of 200 one-call Gemini conversations (tests/data/har/SOURCES.md: entry 7 is google-genai's
    generateContent, copied): the refusals listed each conversation alone, ~1.9 KB of one line; now the runs of
    those alike. `trace FILE.har` lists the same numbers (the truth: the file's own conversations)."""
    session = json.loads(SESSION.read_text(encoding="utf-8"))
    entries = session["log"]["entries"]
    path = tmp_path / "many.har"
    path.write_text(json.dumps({"log": {**session["log"], "entries": [entries[7]] * 200}}), encoding="utf-8")
    listed = json.loads(run_cli(["trace", str(path), "-f", "json"]).stdout)["replay"]
    assert [r["conversation"] for r in listed] == list(range(1, 201))
    line = refused(run_cli(["run", "--replay", str(path), "-p", "gemini"]))
    assert f"{path}: holds 200 conversations: 1-200 (each 1 call to gemini) (pick one with --trace-id N" in line, line
    line = refused(run_cli(["run", "--replay", str(path), "-p", "gemini", "--trace-id", "201"]))
    assert f'{path}: no conversation "201"; it holds 1-200 (each 1 call to gemini) (give --trace-id' in line, line
    # two APIs: the numbers of each, as runs (entry 5 is a Responses call)
    mixed = tmp_path / "mixed.har"
    calls = [entries[7]] * 3 + [entries[5]] + [entries[7]] * 2
    mixed.write_text(json.dumps({"log": {**session["log"], "entries": calls}}), encoding="utf-8")
    listed = json.loads(run_cli(["trace", str(mixed), "-f", "json"]).stdout)["replay"]
    assert [(r["conversation"], r["provider"]) for r in listed] == [(1, "gemini"), (2, "gemini"), (3, "gemini"),
                                                                    (4, "openai-responses"), (5, "gemini"), (6, "gemini")]
    line = refused(run_cli(["run", "--replay", str(mixed), "-p", "gemini"]))
    assert "its calls go to 2 APIs (gemini: conversations 1-3, 5-6; openai-responses: conversation 4)" in line, line
    line = refused(run_cli(["run", "--replay", str(mixed), "-p", "gemini", "--trace-id", "9"]))
    assert "it holds 1-3, 5-6 (each 1 call to gemini); 4 (1 call to openai-responses) (give --trace-id" in line, line
