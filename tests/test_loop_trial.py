"""An adversarial trial of the agent loop between its steps (`toolchoice run`), each test a defect found
driving `run` against `toolchoice mock` and recorded-shape bodies on 127.0.0.1, failing before its fix."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402
from servers import StandIn, Step  # noqa: E402

from toolchoice.providers.core.mock.server import running_mock  # noqa: E402
from toolchoice.providers.core.scenario import load_scenario_text  # noqa: E402

KEY = "sk-trial-canary-0123456789abcdef"
KEYS = {name: KEY for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "AWS_BEARER_TOKEN_BEDROCK")}

TOOLS = """tools:
  - {name: search, description: Search., parameters: {type: object, properties: {query: {type: string}}, required: [query]}}
  - {name: read_file, description: Read., parameters: {type: object, properties: {path: {type: string}}, required: [path]}}
tool_choice: auto
messages:
  - {role: user, content: Find it.}
"""


def toolchoice(*args: str) -> object:
    result = run_cli(args, env=KEYS | {"COLUMNS": "200"})
    assert KEY not in result.stdout + result.stderr
    return result


def test_save_keeps_a_thinking_budget_the_scenario_wrote(tmp_path: Path) -> None:
    """`run --save` of a scenario with `thinking: {budget: 2048}` ended in "internal error: RepresenterError"
    (exit 70): the transcript scenario dumped the loader's ThinkingSetting record. The transcript now writes
    the setting as the scenario did, and reads back to the same setting."""
    path = tmp_path / "think.yaml"
    path.write_text(TOOLS + "providers:\n"
                    "  anthropic: {model: claude-sonnet-4-6, max_tokens: 4096, thinking: {budget: 2048}}\n"
                    "  gemini: {model: gemini-3-pro-preview, thinking: {type: adaptive, effort: high}}\n"
                    "loop:\n  max_steps: 3\n  results: {search: hits, read_file: text}\n")
    original = load_scenario_text(path.read_text(), "think.yaml")
    saved = tmp_path / "saved"
    with running_mock("anthropic") as mock:
        result = toolchoice("run", str(path), "-p", "anthropic", "--base-url", mock.base_url, "--save", str(saved))
    assert result.returncode == 0, result.stderr
    transcript = saved / "anthropic" / "loop-001" / "scenario.yaml"
    again = load_scenario_text(transcript.read_text(), str(transcript))
    for pid in ("anthropic", "gemini"):
        assert again.settings_for(pid).thinking_mode == original.settings_for(pid).thinking_mode
        assert again.settings_for(pid).thinking is True
    # the transcript's history holds the mock's thinking block before its call, as Anthropic wants it back
    assistant = next(m for m in again.messages if m.role == "assistant" and m.tool_calls)
    assert assistant.reasoning and assistant.reasoning[0].signature
    assert (saved / "anthropic" / "loop-001" / "loop.json").is_file()


def _openai_body(calls: list[tuple[str | None, str, dict]] | None = None, text: str | None = None) -> dict:
    """The recorded OpenAI reply (openai-chat-single-strict) with its calls (an id of None: no id) or text."""
    from servers import fixture

    body = fixture("openai", "openai-chat-single-strict")
    message = body["choices"][0]["message"]
    if calls:
        template = {k: v for k, v in message["tool_calls"][0].items() if k != "id"}
        message["tool_calls"] = [{**template, **({"id": i} if i is not None else {}),
                                  "function": {"name": n, "arguments": json.dumps(a)}} for i, n, a in calls]
    else:
        message.pop("tool_calls", None)
        message["content"] = text
        body["choices"][0]["finish_reason"] = "stop"
    return body


def test_ids_the_loop_gives_never_collide_with_ids_the_model_gave(tmp_path: Path) -> None:
    """settle_turn made ids unique by a rule (``call_s<step>_<n>`` for a call without an id, ``<id>_s<step>`` for
    an id used before) but never checked the new id: a model id ``call_s2_1`` at step 1 and an id-less call at
    step 2, or ``call_1_s2`` and ``call_1`` in one turn, sent two calls with one id, and two results answering it.
    Each tool message must answer one call of the turn before it (openai-python
    chat_completion_tool_message_param.py ``tool_call_id``: "Tool call that this message is responding to")."""
    path = tmp_path / "loop.yaml"
    path.write_text(TOOLS + "loop:\n  max_steps: 4\n  results: {search: hits, read_file: text}\n")
    with StandIn("openai") as server:
        server.script(
            Step(body=_openai_body([("call_s2_1", "search", {"query": "a"}), ("call_1", "search", {"query": "b"})])),
            Step(body=_openai_body([(None, "read_file", {"path": "x"}), ("call_1_s2", "search", {"query": "q"}),
                                    ("call_1", "search", {"query": "z"})])),
            Step(body=_openai_body(text="done")))
        result = toolchoice("run", str(path), "-p", "openai", "--base-url", server.base_url("openai"),
                            "--format", "json")
        sent = server.requests[2].json["messages"]
    assert result.returncode == 0, result.stderr
    ids = [c["id"] for m in sent if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    answered = [m["tool_call_id"] for m in sent if m["role"] == "tool"]
    assert len(ids) == 5 and len(set(ids)) == 5, ids
    assert answered == ids  # one result per call, in order, each answering its own call
    codes = [e["code"] for s in json.loads(result.stdout)["runs"][0]["loops"][0]["steps"] for e in s["ledger"]]
    assert codes.count("loop.call_id_generated") == 1 and codes.count("loop.call_id_reused") == 1


def saved_openai_run(tmp_path: Path) -> tuple[Path, Path]:
    """A three-step loop run against the OpenAI mock with --save: (the scenario, the save folder)."""
    path = tmp_path / "loop.yaml"
    path.write_text(TOOLS + "loop:\n  max_steps: 3\n  results: {search: hits, read_file: text}\n")
    saved = tmp_path / "saved"
    with running_mock("openai") as mock:
        assert toolchoice("run", str(path), "-p", "openai", "--base-url", mock.base_url, "--save",
                          str(saved)).returncode == 0
    return path, saved


def test_a_hand_edited_transcript_is_one_line_naming_the_file(tmp_path: Path) -> None:
    """A saved step's reply edited by hand (a call written as a string, a reasoning item without its family)
    ended the replayed loop in "AttributeError: 'str' object has no attribute 'get'" or "TypeError:
    ReasoningItem.__new__() missing 1 required positional argument". It is bad input: one line naming the
    file and the key, exit 2."""
    path, saved = saved_openai_run(tmp_path)
    reply_file = saved / "openai" / "loop-001" / "step-01.reply.json"
    recorded = json.loads(reply_file.read_text())
    assert recorded["reply"]["tool_calls"]  # the mock's auto answer: a call to the first tool
    for edit, words in ((lambda r: r.update(tool_calls=["search"]), "reply.tool_calls[0] must be an object"),
                        (lambda r: r.update(reasoning=[{"text": "t"}]), "reply.reasoning[0] has no 'family'"),
                        (lambda r: r.update(usage="many"), "reply.usage must be an object")):
        doc = json.loads(json.dumps(recorded))
        edit(doc["reply"])
        reply_file.write_text(json.dumps(doc))
        result = toolchoice("run", str(path), "-p", "anthropic", "--replay", str(saved))
        assert result.returncode == 2 and result.stdout == "", (result.stdout, result.stderr)
        [line] = result.stderr.splitlines()
        assert line.startswith(f"toolchoice: error: --replay: {reply_file}: {words}"), line
    reply_file.write_text(json.dumps(recorded))  # as saved, it replays for another provider
    again = toolchoice("run", str(path), "-p", "anthropic", "--replay", str(saved))
    assert again.returncode == 0 and "ended: no_tool_call at step 2" in again.stdout, again.stdout


def test_cannot_end_is_not_said_where_the_provider_cannot_force_a_call(tmp_path: Path) -> None:
    """Ollama's /api/chat has no tool_choice (ollama-python ``Client.chat`` takes none): `required` is sent
    without it (tool_choice.ignored: "the model may answer in text"), yet step 1's ledger also said
    loop.cannot_end, "the loop can only end at max_steps". Against the ollama mock scripted to answer in text
    at step 2, the loop ends there by itself; on OpenAI, where required is sent, the warning stays."""
    from toolchoice.providers.core.mock.script import load_script

    path = tmp_path / "loop.yaml"
    path.write_text(TOOLS.replace("tool_choice: auto", "tool_choice: required")
                    + "loop:\n  max_steps: 5\n  results: {search: hits, read_file: text}\n")
    script = tmp_path / "script.yaml"
    script.write_text("replies:\n  - call: search\n  - text: Found it.\n")
    with running_mock("ollama", script=load_script(script)) as mock:
        result = toolchoice("run", str(path), "-p", "ollama", "--base-url", mock.base_url, "--format", "json")
        sent = [r.get("requested") for r in mock.records]
    assert result.returncode == 4, result.stderr  # step 2's text is judged against required, which was not sent
    [doc] = json.loads(result.stdout)["runs"][0]["loops"]
    assert sent == [None, None]  # nothing forced a call on the wire
    assert doc["ended"]["reason"] == "no_tool_call" and doc["ended"]["step"] == 2
    codes = [e["code"] for e in doc["steps"][0]["ledger"]]
    assert "tool_choice.ignored" in codes and "loop.cannot_end" not in codes
    dry = toolchoice("run", str(path), "-p", "openai", "-p", "ollama", "--dry-run", "--format", "json")
    found = {t["provider"]: [e["code"] for e in t["ledger"]] for t in json.loads(dry.stdout)["translations"]}
    assert "loop.cannot_end" in found["openai"] and "loop.cannot_end" not in found["ollama"], found


def test_a_later_step_the_provider_refuses_is_said_before_the_run(tmp_path: Path) -> None:
    """Step 3 forces the stop tool while Claude's manual thinking is on, which Anthropic refuses ('Thinking may
    not be enabled when tool_choice forces tool use.', platform.claude.com extended-thinking docs). The run ended
    at step 3 in that error, but `run --dry-run` (and render) listed step 3 as any other: nothing said the loop
    as written cannot get past it. The steps as written now carry loop.step_refused."""
    from toolchoice.providers.core.mock.script import load_script

    path = tmp_path / "think.yaml"
    path.write_text(TOOLS.replace("tool_choice: auto", "  - {name: final_answer, description: Answer., "
                                  "parameters: {type: object}}\ntool_choice: auto")
                    + "providers:\n  anthropic: {model: claude-sonnet-4-6, max_tokens: 4096, thinking: {budget: 2048}}\n"
                    "loop:\n  max_steps: 5\n  steps:\n    - {tool_choice: auto}\n    - {tool_choice: auto}\n"
                    "    - {tool_choice: final_answer}\n  stop: {tool: final_answer}\n"
                    "  results: {search: hits, read_file: text}\n")
    script = tmp_path / "script.yaml"
    script.write_text("replies:\n  - call: search\n  - call: read_file\n")
    with running_mock("anthropic", script=load_script(script)) as mock:
        live = toolchoice("run", str(path), "-p", "anthropic", "--base-url", mock.base_url, "--format", "json")
        assert len(mock.records) == 2  # step 3 never left the machine
    [doc] = json.loads(live.stdout)["runs"][0]["loops"]
    assert live.returncode == 3 and doc["ended"]["reason"] == "error" and doc["ended"]["step"] == 3
    assert "Thinking may not be enabled when tool_choice forces tool use." in doc["ended"]["error"]
    dry = toolchoice("run", str(path), "-p", "anthropic", "--dry-run", "--format", "json")
    [translation] = json.loads(dry.stdout)["translations"]
    [found] = [e for e in translation["ledger"] if e["code"] == "loop.step_refused"]
    assert found["message"].startswith("step 3 (and every later step) is refused") and \
        "thinking.forced_choice" in found["message"], found
    rendered = toolchoice("render", str(path), "-p", "anthropic", "--format", "json")
    assert "loop.step_refused" in rendered.stdout


def test_bare_step_bodies_of_another_provider_name_the_provider_that_reads_them(tmp_path: Path) -> None:
    """`--replay DIR` takes bodies named by step (step-1.json ...) and replays them as the -p provider's replies.
    The OpenAI mock's bodies replayed with -p anthropic ended the loop in "response body is not a anthropic reply:
    no content", which says nothing of what to do. Now one line naming the file and the -p that reads it."""
    path, saved = saved_openai_run(tmp_path)
    bare = tmp_path / "bare"
    bare.mkdir()
    for step in (1, 2):
        body = (saved / "openai" / "loop-001" / f"step-0{step}.response.json").read_text()
        assert json.loads(body)["object"] == "chat.completion"  # the Chat Completions reply the mock sent
        (bare / f"step-{step}.json").write_text(body)
    result = toolchoice("run", str(path), "-p", "anthropic", "--replay", str(bare))
    assert result.returncode == 2 and result.stdout == "", result.stdout
    [line] = result.stderr.splitlines()
    assert line.startswith(f"toolchoice: error: --replay: {bare / 'step-1.json'} looks like an OpenAI Chat "
                           "Completions reply, not a reply in anthropic's format") and "replay it with -p openai" in line
    same = toolchoice("run", str(path), "-p", "openai", "--replay", str(bare))
    assert same.returncode == 0 and "ended: no_tool_call at step 2" in same.stdout, same.stdout


def test_the_anthropic_mock_refuses_duplicate_tool_use_ids_as_the_api_does() -> None:
    """Two tool_use blocks with one id: the Messages API answers 400 invalid_request_error "messages.1.content.1:
    `tool_use` ids must be unique" (recorded in anthropics/claude-code#20901, #21083). The mock answered 200, so a
    loop or client that duplicates ids (as settle_turn did, test above) passed against it."""
    import anthropic
    import pytest

    tools = [{"name": "search", "description": "s", "input_schema": {"type": "object"}}]
    history = [{"role": "user", "content": "hi"},
               {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "search", "input": {}},
                                                 {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {}}]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a"}]}]
    with running_mock("anthropic") as mock:
        client = anthropic.Anthropic(base_url=mock.base_url, api_key="unused", max_retries=0)
        with pytest.raises(anthropic.BadRequestError) as caught:
            client.messages.create(model="claude-sonnet-4-6", max_tokens=256, tools=tools, messages=history)
        history[1]["content"][1]["id"] = "toolu_2"
        history[2]["content"].append({"type": "tool_result", "tool_use_id": "toolu_2", "content": "b"})
        reply = client.messages.create(model="claude-sonnet-4-6", max_tokens=256, tools=tools, messages=history)
    assert caught.value.status_code == 400
    assert caught.value.body["type"] == "error" and caught.value.body["error"] == {
        "type": "invalid_request_error", "message": "messages.1.content.1: `tool_use` ids must be unique"}
    assert reply.stop_reason == "end_turn"  # unique ids: answered, with text after the results


def test_the_same_parallel_calls_in_another_order_are_a_repeat(tmp_path: Path) -> None:
    """loop.stop.repeated_calls compares "for parallel calls the whole set" (docs/loop.md), but the key kept the
    reply's order: a model making the same two calls each step, in alternating order, was never a repeat and ran
    to max_steps. Against the mock scripted so, the loop now ends by repeated_call at step 3."""
    from toolchoice.providers.core.mock.script import load_script

    path = tmp_path / "loop.yaml"
    path.write_text(TOOLS + "loop:\n  max_steps: 6\n  stop: {repeated_calls: 3}\n"
                    "  results: {search: hits, read_file: text}\n")
    one = "{name: search, arguments: {query: a}}, {name: read_file, arguments: {path: x}}"
    other = "{name: read_file, arguments: {path: x}}, {name: search, arguments: {query: a}}"
    script = tmp_path / "script.yaml"
    script.write_text("replies:\n" + "".join(f"  - calls: [{one if n % 2 else other}]\n" for n in range(1, 7)))
    with running_mock("openai", script=load_script(script)) as mock:
        result = toolchoice("run", str(path), "-p", "openai", "--base-url", mock.base_url, "--format", "json")
        orders = [[c["name"] for c in r["calls"]] for r in mock.records]
    assert orders == [["search", "read_file"], ["read_file", "search"], ["search", "read_file"]]
    [doc] = json.loads(result.stdout)["runs"][0]["loops"]
    assert (doc["ended"]["reason"], doc["ended"]["step"]) == ("repeated_call", 3), doc["ended"]


def test_ctrl_c_while_results_from_runs_stops_the_command(tmp_path: Path) -> None:
    """--results-from runs the command in a session of its own (so a timeout kills everything it started), which
    also keeps the terminal's Ctrl-C from it: after Ctrl-C the run exited 130 and the command ran on, orphaned.
    Now Ctrl-C stops it and what it started, as a timeout does."""
    import os
    import signal
    import subprocess
    import time

    path = tmp_path / "loop.yaml"
    path.write_text(TOOLS + "loop:\n  max_steps: 3\n")
    pids = tmp_path / "pids"
    command = f"echo $$ >> {pids}; sleep 300 & echo $! >> {pids}; wait"
    exe = str(Path(sys.executable).with_name("toolchoice"))
    with running_mock("openai") as mock:
        process = subprocess.Popen([exe, "run", str(path), "-p", "openai", "--base-url", mock.base_url,
                                    "--results-from", command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=dict(os.environ) | KEYS)
        deadline = time.monotonic() + 60
        while (not pids.exists() or len(pids.read_text().split()) < 2) and time.monotonic() < deadline:
            time.sleep(0.05)
        started = [int(p) for p in pids.read_text().split()]
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "interrupted" in err, (out, err)
    assert "is closed" not in err  # no asyncio warning of a child left unwatched
    time.sleep(0.2)
    alive = []
    for pid in started:  # the shell and the sleep it started: gone (or a zombie no one waits for)
        try:
            if Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z":
                alive.append(pid)
                os.kill(pid, signal.SIGKILL)  # never leave them running, whatever the assertion says
        except (ProcessLookupError, FileNotFoundError):
            pass
    assert not alive, f"{alive} still ran after Ctrl-C"


def test_save_never_clears_files_through_a_link(tmp_path: Path) -> None:
    """`run --save DIR` clears an earlier run's transcripts from DIR/<provider>/loop-NNN/ file by file: with
    loop-001 a symbolic link, it removed the step and loop files wherever the link pointed, outside DIR. A link
    there is now one line naming it, exit 2, and the files it points at stay."""
    path = tmp_path / "loop.yaml"
    path.write_text(TOOLS + "loop:\n  max_steps: 2\n  results: {search: hits, read_file: text}\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for name in ("step-01.reply.json", "loop.json", "scenario.yaml"):
        (elsewhere / name).write_text("precious")
    for link in (tmp_path / "a" / "openai" / "loop-001", tmp_path / "b" / "openai"):
        link.parent.mkdir(parents=True)
        link.symlink_to(elsewhere, target_is_directory=True)
        folder = tmp_path / link.relative_to(tmp_path).parts[0]
        with running_mock("openai") as mock:
            result = toolchoice("run", str(path), "-p", "openai", "--base-url", mock.base_url, "--save", str(folder))
            assert mock.records == []  # refused before any request
        assert result.returncode == 2, result.stdout
        assert result.stderr == (f"toolchoice: error: --save {folder}: {link} is a symbolic link, not a folder an "
                                 "earlier run saved (remove the link, or save into another folder)\n")
        assert sorted(p.name for p in elsewhere.iterdir()) == ["loop.json", "scenario.yaml", "step-01.reply.json"]
        assert {p.read_text() for p in elsewhere.iterdir()} == {"precious"}


def test_ctrl_c_while_the_results_command_starts_neither_hangs_nor_leaves_it_running(tmp_path: Path) -> None:
    """The race behind a Ctrl-C test that hung 1 time in 10 on a loaded machine: the cancel arrived while asyncio
    was still connecting the command's pipes. asyncio's own clean-up there kills the shell alone and then waits for
    its pipes, which the `sleep` it started keeps open: the run hung until the sleep ended. The event loop is held
    here (a blocking wait) until the shell and its child both run, so the cancel lands exactly there."""
    import asyncio
    import os
    import signal
    import time

    import pytest

    from toolchoice.providers.core.loop_results import ToolResults
    from toolchoice.providers.core.model import HistoryCall, LoopSpec, ToolCall

    pids = tmp_path / "pids"
    results = ToolResults(LoopSpec(), f"echo $$ >> {pids}; sleep 300 & echo $! >> {pids}; wait", 60)

    async def cancelled_while_starting() -> float:
        task = asyncio.ensure_future(results.answer(ToolCall("c1", "t", {}), HistoryCall("c1", "t", {}), ("t",), {}))
        for _ in range(3):  # the shell is started; its pipes are being connected
            await asyncio.sleep(0)
        deadline = time.monotonic() + 30
        while (not pids.exists() or len(pids.read_text().split()) < 2) and time.monotonic() < deadline:
            time.sleep(0.01)  # blocking: the loop cannot finish connecting the pipes meanwhile
        task.cancel()
        started = time.monotonic()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 20)
        return time.monotonic() - started

    try:
        assert asyncio.run(cancelled_while_starting()) < 10
        time.sleep(0.2)
        for pid in [int(p) for p in pids.read_text().split()]:
            stat = Path(f"/proc/{pid}/stat")
            assert not stat.exists() or stat.read_text().split()[2] == "Z", f"{pid} still runs"
    finally:
        for pid in [int(p) for p in pids.read_text().split()] if pids.exists() else []:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
