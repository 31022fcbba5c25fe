"""`toolchoice run`: the agent loop, end to end against stand-in servers on 127.0.0.1 (tests/servers.py)
and in-process with httpx.MockTransport.

Replies are real recorded bodies (tests/data/responses/*/SOURCES.md). The step-2 wire checks encode each
provider's documented history rules (see /work/shared/reference/providers.md and the SDK types named
there), not what the translators produce: Anthropic wants every tool_result first in the one user turn
right after the tool_use turn (anthropic-sdk-python tool_result_block_param.py; anthropics/claude-code#3632),
Bedrock needs toolConfig while the history holds toolUse/toolResult blocks (botocore service-2.json;
langgenius/dify#16421), Mistral takes 9-character alphanumeric ids, Gemini's functionResponse carries the
function's name (google-genai types.FunctionResponse), Responses pairs function_call_output with the
call's call_id (openai-python response_input_param.py).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402
from servers import DEFAULT_REPLY, StandIn, Step, fixture  # noqa: E402

from toolchoice.providers.core import loop, runner  # noqa: E402
from toolchoice.providers.core.model import RenderOptions  # noqa: E402
from toolchoice.providers.core.scenario import load_scenario_text  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
KEY = "sk-loop-canary-0123456789abcdef"
KEY_ENVS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "MISTRAL_API_KEY", "GROQ_API_KEY",
            "DEEPSEEK_API_KEY", "OLLAMA_API_KEY", "AWS_BEARER_TOKEN_BEDROCK", "CO_API_KEY")
EXE = str(Path(sys.executable).with_name("toolchoice"))


def env(**extra: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN", "_BEDROCK"))}
    return clean | {name: KEY for name in KEY_ENVS} | {"COLUMNS": "200"} | extra


def toolchoice(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    """The command in-process (tests/cli.py); the Ctrl-C test below starts a real process."""
    result = run_cli(args, env=env(**extra))
    assert KEY not in result.stdout + result.stderr
    return result


def calls_of(provider: str) -> list[tuple[str | None, str]]:
    """(id, name) of the calls in the provider's default recorded reply, from its .expect.json."""
    stem = DEFAULT_REPLY[provider]
    folder = Path(__file__).parent / "data" / "responses" / provider
    expect = json.loads((folder / f"{stem}.expect.json").read_text())
    return [(c.get("id"), c["name"]) for c in expect["calls"]]


def loop_scenario(tmp_path: Path, names: list[str], step2: str = "auto", extra: str = "") -> Path:
    tools = "".join(f"  - {{name: {n}, description: tool {n}, parameters: {{type: object}}}}\n" for n in names)
    results = "".join(f"    {n}: \"result of {n}\"\n" for n in names)
    text = (f"tools:\n{tools}tool_choice: auto\nsystem: be brief\n"
            "messages:\n  - {role: user, content: What is the weather in San Francisco?}\n"
            f"loop:\n  max_steps: 2\n  steps:\n    - {{tool_choice: auto}}\n    - {{tool_choice: {step2}}}\n"
            f"  results:\n{results}{extra}")
    path = tmp_path / "loop.yaml"
    path.write_text(text)
    return path


def run_against(provider: str, tmp_path: Path, step2: str = "auto", code: int = 0) -> tuple[Any, list[Any]]:
    names = list(dict.fromkeys(name for _, name in calls_of(provider)))
    path = loop_scenario(tmp_path, names, step2)
    with StandIn(provider) as server:
        result = toolchoice("run", str(path), "--provider", provider, "--base-url", server.base_url(provider),
                            "--format", "json", "--retries", "0")
        requests = [r.json for r in server.requests]
    assert result.returncode == code, result.stdout + result.stderr
    return json.loads(result.stdout), requests


# ---- step 2 on each provider's wire ----------------------------------------------------------


def test_openai_step2_carries_the_assistant_calls_and_one_tool_message_per_call(tmp_path: Path) -> None:
    doc, requests = run_against("openai", tmp_path)
    assert len(requests) == 2
    [(call_id, name)] = calls_of("openai")
    messages = requests[1]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool"]
    assistant = messages[2]
    assert assistant["content"] == ""  # llama-cpp-python rejects null (tests/realmodel/test_server_facts.py)
    [call] = assistant["tool_calls"]
    assert call["id"] == call_id and call["type"] == "function" and call["function"]["name"] == name
    assert isinstance(call["function"]["arguments"], str)  # a JSON string, as OpenAI sends it
    assert messages[3] == {"role": "tool", "tool_call_id": call_id, "content": f"result of {name}"}
    [run] = doc["runs"][0]["loops"]
    assert run["ended"] == {"reason": "max_steps", "step": 2, "error": None}
    assert [s["verdict"]["category"] for s in run["steps"]] == ["obeyed", "obeyed"]


def test_anthropic_step2_puts_every_tool_result_first_in_one_user_turn(tmp_path: Path) -> None:
    _, requests = run_against("anthropic", tmp_path)
    [(call_id, name)] = calls_of("anthropic")
    messages = requests[1]["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    uses = [b for b in messages[1]["content"] if b["type"] == "tool_use"]
    assert [(b["id"], b["name"]) for b in uses] == [(call_id, name)]
    results = messages[2]["content"]
    assert results[0]["type"] == "tool_result" and results[0]["tool_use_id"] == call_id
    assert "result of" in json.dumps(results[0]["content"])


def test_bedrock_step2_keeps_tool_config_while_the_history_has_tool_blocks(tmp_path: Path) -> None:
    _, requests = run_against("bedrock", tmp_path, "none", code=4)  # the stand-in calls again: unwanted_call
    [(call_id, name)] = calls_of("bedrock")
    body = requests[1]
    assert "toolConfig" in body and body["toolConfig"]["tools"]
    messages = body["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    [use] = [b["toolUse"] for b in messages[1]["content"] if "toolUse" in b]
    assert use["toolUseId"] == call_id and use["name"] == name
    [result] = [b["toolResult"] for b in messages[2]["content"] if "toolResult" in b]
    assert result["toolUseId"] == call_id


def test_mistral_step2_ids_are_nine_alphanumerics_and_pair_up(tmp_path: Path) -> None:
    _, requests = run_against("mistral", tmp_path)
    messages = requests[1]["messages"]
    [assistant] = [m for m in messages if m["role"] == "assistant"]
    [tool] = [m for m in messages if m["role"] == "tool"]
    [call] = assistant["tool_calls"]
    assert re.fullmatch(r"[a-zA-Z0-9]{9}", call["id"])
    assert tool["tool_call_id"] == call["id"]
    assert tool["name"] == call["function"]["name"]


def test_gemini_step2_function_response_names_the_function(tmp_path: Path) -> None:
    doc, requests = run_against("gemini", tmp_path)
    [(_, name)] = calls_of("gemini")
    contents = requests[1]["contents"]
    assert [c["role"] for c in contents] == ["user", "model", "user"]
    [call] = [p["functionCall"] for p in contents[1]["parts"] if "functionCall" in p]
    [response] = [p["functionResponse"] for p in contents[2]["parts"] if "functionResponse" in p]
    assert call["name"] == name and response["name"] == name
    assert isinstance(response["response"], dict)
    # the recorded reply's call has no id: the loop gives it a stable one and says so
    step1 = doc["runs"][0]["loops"][0]["steps"][0]
    assert "loop.call_id_generated" in [e["code"] for e in step1["ledger"]]
    assert response["id"] == call["id"] == "call_s1_1"
    # the call's thoughtSignature goes back on its part, as the recorded reply gave it
    recorded = [p for p in fixture("gemini", DEFAULT_REPLY["gemini"])["candidates"][0]["content"]["parts"]
                if "functionCall" in p]
    [part] = [p for p in contents[1]["parts"] if "functionCall" in p]
    assert part["thoughtSignature"] == recorded[0]["thoughtSignature"]


def test_responses_step2_pairs_the_output_with_the_call_id(tmp_path: Path) -> None:
    _, requests = run_against("openai-responses", tmp_path)
    [(call_id, name)] = calls_of("openai-responses")
    items = requests[1]["input"]
    [call] = [i for i in items if i.get("type") == "function_call"]
    [output] = [i for i in items if i.get("type") == "function_call_output"]
    assert call["call_id"] == call_id and call["name"] == name
    assert output["call_id"] == call_id and output["output"] == f"result of {name}"
    assert items.index(output) == items.index(call) + 1


def test_cohere_and_ollama_step2_answer_each_call(tmp_path: Path) -> None:
    for provider in ("cohere", "ollama"):
        folder = tmp_path / provider
        folder.mkdir()
        _, requests = run_against(provider, folder)
        messages = requests[1]["messages"]
        [assistant] = [m for m in messages if m["role"] == "assistant"]
        tools = [m for m in messages if m["role"] == "tool"]
        assert len(tools) == len(assistant["tool_calls"]) == len(calls_of(provider))
        if provider == "cohere":
            assert [t["tool_call_id"] for t in tools] == [c["id"] for c in assistant["tool_calls"]]
        else:  # Ollama's native API names the tool in the result (ollama/ollama docs/api.md)
            assert [t["tool_name"] for t in tools] == [c["function"]["name"] for c in assistant["tool_calls"]]


# ---- the loop's rules, in-process ----------------------------------------------------------

PLANNER = (ROOT / "configs" / "planner-loop.yaml").read_text()


def openai_body(calls: list[tuple[str, str, dict]] | None = None, text: str | None = None) -> dict:
    """The recorded OpenAI reply (openai-chat-single-strict) with its calls or text replaced."""
    body = fixture("openai", DEFAULT_REPLY["openai"])
    message = body["choices"][0]["message"]
    if calls:
        template = message["tool_calls"][0]
        message["tool_calls"] = [{**template, "id": i, "function": {"name": n, "arguments": json.dumps(a)}}
                                 for i, n, a in calls]
    else:
        message.pop("tool_calls", None)
        message["content"] = text
        body["choices"][0]["finish_reason"] = "stop"
    return body


def run_in_process(text: str, answer: Any, repeat: int = 1, concurrency: int = 4,
                   results_from: str | None = None, on_step: Any = None) -> list[loop.LoopRun]:
    scenario = load_scenario_text(text, "loop.yaml")
    runs = loop.new_runs(["openai"], repeat)
    settings = runner.SendSettings(retries=0, concurrency=concurrency, transport=httpx.MockTransport(answer))
    options = loop.LoopOptions(RenderOptions(), results_from=results_from)
    return loop.run_loops(scenario, runs, settings, options, {}, on_step)


@pytest.fixture(autouse=True)
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)


def test_planner_loop_named_then_auto_then_answer() -> None:
    seen: list[dict] = []

    def answer(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append(body)
        step = len(seen)
        if step == 1:
            return httpx.Response(200, json=openai_body([("call_a", "plan_tool_call", {"steps": ["read", "write"]})]))
        if step == 2:
            return httpx.Response(200, json=openai_body([("call_b", "read_file", {"path": "config.py"})]))
        if step == 3:
            return httpx.Response(200, json=openai_body([("call_c", "write_file", {"path": "config.py", "content": "x"})]))
        return httpx.Response(200, json=openai_body(text="Done: the app now uses PostgreSQL."))

    [run] = run_in_process(PLANNER, answer)
    assert [s["tool_choice"] for s in seen] == [{"type": "function", "function": {"name": "plan_tool_call"}},
                                                "auto", "auto", "auto"]
    assert [[t["function"]["name"] for t in s["tools"]] for s in seen][:2] == [
        ["plan_tool_call"], ["plan_tool_call", "read_file", "write_file"]]
    assert run.ended == "no_tool_call" and run.ended_step == 4
    assert run.final == "Done: the app now uses PostgreSQL."
    assert [s.verdict["category"] for s in run.steps] == ["obeyed"] * 4
    # results: a literal, a literal with a newline, a template filled from the call's arguments
    assert [m.content for s in run.steps for m in s.results] == [
        "plan recorded", "DEBUG = True\nDATABASE_URL = 'sqlite:///app.db'", "wrote config.py"]
    tool_messages = [m for m in seen[3]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["call_a", "call_b", "call_c"]


SMALL = """
tools:
  - {name: search, parameters: {type: object, properties: {query: {type: string}}, required: [query]}}
  - {name: get_weather, parameters: {type: object, properties: {city: {type: string}}}}
  - {name: delete_file, parameters: {type: object, properties: {path: {type: string}}}}
  - {name: final_answer, parameters: {type: object, properties: {answer: {type: string}}}}
tool_choice: auto
messages: [{role: user, content: go}]
loop:
  max_steps: 5
  steps:
    - {tool_choice: required, tools: [search, get_weather, delete_file, final_answer]}
  stop: {tool: final_answer}
  results:
    search: {template: "results for {query}"}
    get_weather: [{temp: 21}, {temp: 19}]
    delete_file: {error: permission denied}
"""


def scripted(*bodies: dict) -> Any:
    count = {"n": 0}

    def answer(request: httpx.Request) -> httpx.Response:
        count["n"] += 1
        return httpx.Response(200, json=bodies[min(count["n"], len(bodies)) - 1])

    return answer


def test_results_lists_errors_phantoms_and_the_stop_tool() -> None:
    answer = scripted(
        openai_body([("c1", "get_weather", {"city": "A"}), ("c2", "get_weather", {"city": "B"}),
                     ("c3", "get_weather", {"city": "C"})]),
        openai_body([("c4", "delete_file", {"path": "x"}), ("c5", "read_file", {"path": "y"})]),
        openai_body([("c6", "search", {"query": "cats"})]),
        openai_body([("c7", "final_answer", {"answer": "42"})]),
    )
    [run] = run_in_process(SMALL, answer)
    assert run.ended == "stop_tool" and run.ended_step == 4 and run.final == {"answer": "42"}
    step1, step2, step3, _ = run.steps
    assert [(m.content, m.is_error) for m in step1.results] == [
        ('{"temp": 21}', False), ('{"temp": 19}', False),
        ("error: 'get_weather' has no result left (loop.results.get_weather lists 2; this is call 3)", True)]
    assert step2.results[0].content == "permission denied" and step2.results[0].is_error
    assert step2.results[1].is_error and "'read_file' is not available" in step2.results[1].content
    assert step2.verdict["category"] == "phantom_tool"  # the phantom call is on the step's verdict
    assert "loop.phantom_call" in [n.code for n in step2.notes]
    assert step3.results[0].content == "results for cats"
    assert [(m.content, m.is_error) for m in run.steps[3].results] == [("done", False)]
    assert "loop.stop_tool_result" in [n.code for n in run.steps[3].notes]


def test_max_steps_ends_the_loop() -> None:
    [run] = run_in_process(SMALL, scripted(openai_body([("c1", "search", {"query": "q"})])))
    assert run.ended == "max_steps" and len(run.steps) == 5
    # the reply repeats its id: each later step's history gets a unique one, with a ledger warning
    ids = [c.id for m in run.history for c in m.tool_calls]
    assert len(set(ids)) == 5
    assert "loop.call_id_reused" in [n.code for n in run.steps[1].notes]


def test_a_failing_step_keeps_the_earlier_steps() -> None:
    count = {"n": 0}

    def answer(request: httpx.Request) -> httpx.Response:
        count["n"] += 1
        if count["n"] == 3:
            return httpx.Response(400, json={"error": {"message": "bad history", "type": "invalid_request_error"}})
        return httpx.Response(200, json=openai_body([(f"c{count['n']}", "search", {"query": "q"})]))

    [run] = run_in_process(SMALL, answer)
    assert run.ended == "error" and run.ended_step == 3
    assert [s.verdict["category"] for s in run.steps] == ["obeyed", "obeyed", "error"]
    assert "400" in run.error and "bad history" in run.error


def test_repeat_never_loses_a_finished_loop_because_another_failed() -> None:
    count = {"n": 0}

    def answer(request: httpx.Request) -> httpx.Response:
        count["n"] += 1
        if count["n"] == 2:
            raise httpx.ConnectError("connection refused")
        body = json.loads(request.content)
        if any(m["role"] == "tool" for m in body["messages"]):
            return httpx.Response(200, json=openai_body(text="done"))
        return httpx.Response(200, json=openai_body([(f"c{count['n']}", "search", {"query": "q"})]))

    runs = run_in_process(SMALL, answer, repeat=4, concurrency=1)
    ended = sorted(r.ended for r in runs)
    assert ended == ["error", "no_tool_call", "no_tool_call", "no_tool_call"]
    for run in runs:
        if run.ended == "no_tool_call":
            assert len(run.steps) == 2 and run.final == "done"
    summary = loop.summary(runs)
    assert summary["ended"]["no_tool_call"]["count"] == 3
    # Wilson 95% for 3 of 4: 0.3006–0.9544 (Wilson 1927; e.g. any statistics table)
    assert summary["ended"]["no_tool_call"]["low"] == pytest.approx(0.3006, abs=1e-3)
    assert summary["ended"]["no_tool_call"]["high"] == pytest.approx(0.9544, abs=1e-3)
    assert summary["steps_to_finish"] == {"p50": 2, "p95": 2, "n": 3}


def test_results_from_runs_a_command_per_call_with_the_call_on_stdin() -> None:
    command = (f"{sys.executable} -c \"import json,sys; c=json.load(sys.stdin); "
               "print(c['name'] + ':' + c['arguments']['query'] + ':' + str(c['step']))\"")
    answer = scripted(openai_body([("c1", "search", {"query": "cats"})]), openai_body(text="ok"))
    [run] = run_in_process(SMALL, answer, results_from=command)
    assert run.steps[0].results[0].content == "search:cats:1"
    assert not run.steps[0].results[0].is_error


def test_results_from_a_failing_command_is_an_error_result() -> None:
    command = f"{sys.executable} -c \"import sys; sys.stderr.write('no such table\\n'); sys.exit(3)\""
    answer = scripted(openai_body([("c1", "search", {"query": "cats"})]), openai_body(text="ok"))
    [run] = run_in_process(SMALL, answer, results_from=command)
    result = run.steps[0].results[0]
    assert result.is_error and result.content == "error: no such table"


# ---- the command: save, replay, side by side, dry run, bad input, Ctrl-C --------------------


def planner_file(tmp_path: Path) -> Path:
    path = tmp_path / "planner.yaml"
    path.write_text(PLANNER)
    return path


def planner_server() -> StandIn:
    return StandIn("openai").script(
        Step(body=openai_body([("call_plan", "plan_tool_call", {"steps": ["read config.py"]})])),
        Step(body=openai_body([("call_read", "read_file", {"path": "config.py"})])),
        Step(body=openai_body(text="It uses SQLite.")))


def test_save_then_replay_offline_gives_the_same_verdicts(tmp_path: Path) -> None:
    path = planner_file(tmp_path)
    saved = tmp_path / "saved"
    with planner_server() as server:
        live = toolchoice("run", str(path), "-p", "openai", "--base-url", server.base_url(), "--format", "json",
                          "--save", str(saved))
    assert live.returncode == 0, live.stderr
    folder = saved / "openai" / "loop-001"
    assert sorted(p.name for p in folder.iterdir() if p.name.startswith("step-03")) == [
        "step-03.reply.json", "step-03.request.json", "step-03.response.json"]
    assert KEY not in "".join(p.read_text() for p in folder.iterdir())
    # the transcript scenario holds the full history, and render/send/run accept it as is
    transcript = load_scenario_text((folder / "scenario.yaml").read_text(), "t.yaml")
    assert [m.role for m in transcript.messages] == ["user", "assistant", "tool", "assistant", "tool", "assistant"]
    assert toolchoice("render", str(folder / "scenario.yaml"), "-p", "anthropic").returncode == 0
    # replay: the base URL points nowhere; nothing is sent
    replay = toolchoice("run", str(path), "-p", "openai", "--base-url", "http://127.0.0.1:9", "--format", "json",
                        "--replay", str(saved), **{"OPENAI_API_KEY": ""})
    assert replay.returncode == 0, replay.stderr
    steps = lambda doc: [(s["verdict"]["category"], s["reply"]["tool_calls"]) for s in doc["runs"][0]["loops"][0]["steps"]]  # noqa: E731
    assert steps(json.loads(replay.stdout)) == steps(json.loads(live.stdout))
    assert json.loads(replay.stdout)["replay"] is True
    # the same transcript rendered for Anthropic: its history in Anthropic's encoding, judged the same
    other = toolchoice("run", str(path), "-p", "anthropic", "--format", "json", "--replay", str(saved))
    assert other.returncode == 0, other.stderr
    doc = json.loads(other.stdout)["runs"][0]["loops"][0]
    last = doc["steps"][2]["request"]["body"]["messages"]
    assert [m["role"] for m in last] == ["user", "assistant", "user", "assistant", "user"]
    assert last[2]["content"][0] == {"type": "tool_result", "tool_use_id": "call_plan", "content": "plan recorded"}
    assert [s["verdict"]["category"] for s in doc["steps"]] == ["obeyed", "obeyed", "obeyed"]


def test_replay_from_bodies_named_by_step(tmp_path: Path) -> None:
    folder = tmp_path / "bodies"
    folder.mkdir()
    (folder / "step-1.json").write_text(json.dumps(openai_body([("c1", "plan_tool_call", {"steps": ["a"]})])))
    (folder / "step-2.json").write_text(json.dumps(openai_body(text="fine")))
    result = toolchoice("run", str(planner_file(tmp_path)), "-p", "openai", "--replay", str(folder))
    assert result.returncode == 0, result.stderr
    assert "ended: no_tool_call at step 2" in result.stdout and "fine" in result.stdout


def test_a_linked_transcript_file_or_loop_folder_is_refused_not_read(tmp_path: Path) -> None:
    """A run folder from elsewhere whose step file is a symbolic link to a file of this machine: replay showed that
    file's text in its error (found by an adversarial run). A link is one line, exit 2, and nothing of the target
    is shown; a linked loop folder too."""
    secret = tmp_path / "elsewhere.txt"
    secret.write_text("TOP-SECRET-CONTENT of another file")
    folder = tmp_path / "bodies"
    folder.mkdir()
    (folder / "step-1.json").symlink_to(secret)
    result = toolchoice("run", str(planner_file(tmp_path)), "-p", "openai", "--replay", str(folder))
    assert result.returncode == 2 and "TOP-SECRET" not in result.stdout + result.stderr
    assert result.stderr.strip().splitlines() == [result.stderr.strip()] and "symbolic link" in result.stderr
    saved = tmp_path / "saved" / "openai"
    saved.mkdir(parents=True)
    real = tmp_path / "real-loop"
    real.mkdir()
    (real / "step-1.json").write_text(json.dumps(openai_body(text="fine")))
    (saved / "loop-001").symlink_to(real, target_is_directory=True)
    linked = toolchoice("run", str(planner_file(tmp_path)), "-p", "openai", "--replay", str(tmp_path / "saved"))
    assert linked.returncode == 2 and "symbolic link" in linked.stderr


def test_two_files_for_one_step_are_refused_not_one_picked(tmp_path: Path) -> None:
    """step-1.json beside step-01.response.json: one answered step 1 by the directory's order, the other was
    ignored without a word (an adversarial run)."""
    folder = tmp_path / "bodies"
    folder.mkdir()
    (folder / "step-1.json").write_text(json.dumps(openai_body(text="one")))
    (folder / "step-01.response.json").write_text(json.dumps(openai_body(text="two")))
    result = toolchoice("run", str(planner_file(tmp_path)), "-p", "openai", "--replay", str(folder))
    assert result.returncode == 2 and "both answer step 1" in result.stderr, result.stderr


def test_a_loop_failing_at_step_k_keeps_earlier_steps_in_every_output_and_in_save(tmp_path: Path) -> None:
    path = planner_file(tmp_path)
    for fmt in ("json", "pretty", "markdown"):
        saved = tmp_path / f"saved-{fmt}"
        with StandIn("openai").script(Step(body=openai_body([("call_plan", "plan_tool_call", {"steps": ["a"]})])),
                                      Step.error("openai", 400, "messages are malformed")) as server:
            result = toolchoice("run", str(path), "-p", "openai", "--base-url", server.base_url(), "--retries", "0",
                                "--format", fmt, "--save", str(saved))
        assert result.returncode == 1, result.stdout + result.stderr
        if fmt == "json":
            [run] = json.loads(result.stdout)["runs"][0]["loops"]
            assert run["ended"]["reason"] == "error" and run["ended"]["step"] == 2
            assert run["steps"][0]["verdict"]["category"] == "obeyed"
            assert "messages are malformed" in run["ended"]["error"]
        else:
            assert "plan_tool_call" in result.stdout and "error at step 2" in result.stdout
        folder = saved / "openai" / "loop-001"
        assert (folder / "step-01.reply.json").is_file() and (folder / "step-02.reply.json").is_file()
        assert json.loads((folder / "loop.json").read_text())["ended"]["reason"] == "error"


def test_two_providers_side_by_side(tmp_path: Path) -> None:
    with StandIn("openai") as a, StandIn("anthropic") as b:
        text = PLANNER + (f"providers:\n  openai: {{base_url: '{a.base_url()}'}}\n"
                          f"  anthropic: {{base_url: '{b.base_url('anthropic')}'}}\n")
        path = tmp_path / "two.yaml"
        path.write_text(text)
        result = toolchoice("run", str(path), "-p", "openai", "-p", "anthropic", "--retries", "0")
    # both stand-ins answer with a call to a tool the planner does not offer: a phantom call, each step
    assert result.returncode == 4, result.stdout + result.stderr
    assert "per-step verdicts" in result.stdout
    assert result.stdout.count("✘ phantom_tool") >= 4


def test_repeat_prints_the_per_step_table(tmp_path: Path) -> None:
    with StandIn("openai", default=Step(body=openai_body(text="no plan needed"))) as server:
        result = toolchoice("run", str(planner_file(tmp_path)), "-p", "openai", "--base-url", server.base_url(),
                            "--repeat", "5", "--format", "json")
    assert result.returncode == 4  # step 1 forces plan_tool_call: a text answer disobeys
    summary = json.loads(result.stdout)["runs"][0]["summary"]
    assert summary["loops"] == 5
    [step1] = summary["steps"]
    assert step1["reached"] == 5 and step1["counts"]["no_call"] == 5
    # Wilson 95% for 0 of 5: 0–0.4345
    assert step1["obey_rate"]["high"] == pytest.approx(0.4345, abs=1e-3)
    assert summary["ended"]["no_tool_call"]["count"] == 5


def test_dry_run_renders_step_1_and_says_what_later_steps_depend_on(tmp_path: Path) -> None:
    result = toolchoice("run", str(planner_file(tmp_path)), "-p", "anthropic", "--dry-run", "--format", "json")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    body = doc["translations"][0]["request"]["body"]
    assert body["tool_choice"] == {"type": "tool", "name": "plan_tool_call", "disable_parallel_tool_use": True}
    assert [t["name"] for t in body["tools"]] == ["plan_tool_call"]
    assert any("step 2" in line and '"auto"' in line for line in doc["later_steps"])


def test_tool_choice_overrides_step_1_only(tmp_path: Path) -> None:
    result = toolchoice("run", str(planner_file(tmp_path)), "-p", "openai", "--dry-run", "--format", "json",
                        "--tool-choice", "required")
    doc = json.loads(result.stdout)
    assert doc["translations"][0]["request"]["body"]["tool_choice"] == "required"
    assert any('"auto"' in line for line in doc["later_steps"])


@pytest.mark.parametrize("change, message", [
    ("max_steps: 6", "max_steps: 0"),
    ("tools: [plan_tool_call]}", "tools: [plan_tool]}"),
    ('    read_file: "DEBUG', '    read_files: "DEBUG'),
    ('{template: "wrote {path}"}', '{template: "wrote {file}"}'),
])
def test_bad_loop_sections_are_one_line_with_file_and_line(tmp_path: Path, change: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    text = PLANNER.replace(change, message)
    assert text != PLANNER
    path.write_text(text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if message in l)
    for command in ("run", "render"):
        result = toolchoice(command, str(path), "-p", "openai")
        assert result.returncode == 2
        assert result.stdout == ""
        [error] = result.stderr.splitlines()
        assert error.startswith(f"toolchoice: error: {path}:{line}:")


def test_a_scenario_without_loop_runs_as_a_loop_of_its_own_tool_choice(tmp_path: Path) -> None:
    with StandIn("openai", default=Step(body=openai_body(text="hello"))) as server:
        result = toolchoice("run", str(ROOT / "configs" / "weather.yaml"), "-p", "openai", "--base-url",
                            server.base_url(), "--format", "json")
    run = json.loads(result.stdout)["runs"][0]["loops"][0]
    assert run["ended"]["reason"] == "no_tool_call" and run["final_answer"] == "hello"


def test_ctrl_c_keeps_the_finished_steps_and_exits_130(tmp_path: Path) -> None:
    saved = tmp_path / "saved"
    with StandIn("openai").script(Step(body=openai_body([("call_plan", "plan_tool_call", {"steps": ["a"]})])),
                                  Step(body=openai_body(text="late"), delay=30)) as server:
        process = subprocess.Popen([EXE, "run", str(planner_file(tmp_path)), "-p", "openai", "--base-url",
                                    server.base_url(), "--format", "json", "--save", str(saved)],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
        marker = saved / "openai" / "loop-001" / "step-01.reply.json"
        deadline = time.monotonic() + 60
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        while len(server.requests) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 130, out + err
    [run] = json.loads(out)["runs"][0]["loops"]
    assert run["ended"] == {"reason": "interrupted", "step": 2, "error": None}  # step 2's request was under way
    assert [s["verdict"]["category"] for s in run["steps"]] == ["obeyed"]
    assert "interrupted" in err
    assert json.loads((saved / "openai" / "loop-001" / "loop.json").read_text())["ended"] == run["ended"]


@pytest.mark.parametrize("answered", [0, 1])
def test_ctrl_c_before_any_byte_of_a_step_ends_the_loop_at_that_step(answered: int) -> None:
    """Cancelled while step k's request waits for its first byte (k = 1, or 2 after one answer): the loop ended at
    step k, as a step Ctrl-C cuts short mid-stream does; the record keeps the k - 1 steps that finished."""
    import asyncio

    async def cut() -> list[loop.LoopRun]:
        arrived: list[httpx.Request] = []
        waiting = asyncio.Event()

        async def answer(request: httpx.Request) -> httpx.Response:
            arrived.append(request)
            if len(arrived) <= answered:
                return httpx.Response(200, json=openai_body([("call_plan", "plan_tool_call", {"steps": ["a"]})]))
            waiting.set()
            await asyncio.Event().wait()  # no byte of this answer ever comes
            raise AssertionError("unreachable")

        runs = loop.new_runs(["openai"], 1)
        settings = runner.SendSettings(retries=0, transport=httpx.MockTransport(answer))
        task = asyncio.ensure_future(loop.run_loops_async(load_scenario_text(PLANNER, "loop.yaml"), runs, settings,
                                                          loop.LoopOptions(RenderOptions()), {}))
        await waiting.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert len(arrived) == answered + 1
        return runs

    [run] = asyncio.run(cut())
    record = run.to_json()
    assert record["ended"] == {"reason": "interrupted", "step": answered + 1, "error": None}
    assert record["steps_taken"] == answered


def test_save_into_a_folder_of_an_earlier_run_drops_its_loops(tmp_path: Path) -> None:
    saved = tmp_path / "saved"
    stale = saved / "openai" / "loop-002"
    stale.mkdir(parents=True)
    (stale / "step-01.response.json").write_text("{}")
    (stale / "notes.txt").write_text("mine")  # not a file run writes: kept
    with planner_server() as server:
        result = toolchoice("run", str(planner_file(tmp_path)), "-p", "openai", "--base-url", server.base_url(),
                            "--save", str(saved))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in stale.iterdir()) == ["notes.txt"]
    assert (saved / "openai" / "loop-001" / "step-03.reply.json").is_file()


RECORDED = Path(__file__).parent / "data" / "loops" / "planner-loop-gemma-270m"


def test_a_real_recorded_loop_replays_offline(tmp_path: Path) -> None:
    """The transcript of the real local model (tests/data/loops/SOURCES.md), judged from its raw bodies."""
    folder = RECORDED / "openai" / "loop-001"
    raw = [json.loads((folder / f"step-{n:02d}.response.json").read_text()) for n in range(1, 7)]
    recorded_calls = [[(c["id"], c["function"]["name"]) for c in body["choices"][0]["message"]["tool_calls"]]
                      for body in raw]
    result = toolchoice("run", str(ROOT / "configs" / "planner-loop.yaml"), "-p", "openai", "--replay", str(RECORDED),
                        "--model", "gemma-3-270m", "--format", "json", **{"OPENAI_API_KEY": ""})
    assert result.returncode == 0, result.stderr
    [run] = json.loads(result.stdout)["runs"][0]["loops"]
    assert run["ended"] == {"reason": "max_steps", "step": 6, "error": None}
    assert [[(c["id"], c["name"]) for c in s["reply"]["tool_calls"]] for s in run["steps"]] == recorded_calls
    assert [s["verdict"]["category"] for s in run["steps"]] == ["obeyed"] * 6
    assert [s["latency_ms"] for s in run["steps"]] == [
        json.loads((folder / f"step-{n:02d}.reply.json").read_text())["latency_ms"] for n in range(1, 7)]
    # each replayed request body is the recorded one (the URL differs: the recording had --base-url)
    for n, step in enumerate(run["steps"], 1):
        assert step["request"]["body"] == json.loads((folder / f"step-{n:02d}.request.json").read_text())["body"]


def test_five_real_recorded_loops_replay_to_their_table() -> None:
    folder = RECORDED.with_name("planner-loop-gemma-270m-x5")
    bodies = sorted(folder.glob("openai/loop-*/step-*.response.json"))
    assert len(bodies) == 30
    undecodable = 0
    for path in bodies:  # judged here from the raw bodies: arguments that are not JSON
        for call in json.loads(path.read_text())["choices"][0]["message"]["tool_calls"]:
            try:
                json.loads(call["function"]["arguments"])
            except ValueError:
                undecodable += 1
    result = toolchoice("run", str(ROOT / "configs" / "planner-loop.yaml"), "-p", "openai", "--model", "gemma-3-270m",
                        "--replay", str(folder), "--format", "json")
    assert result.returncode == 4, result.stderr
    summary = json.loads(result.stdout)["runs"][0]["summary"]
    assert summary["loops"] == 5 and summary["ended"]["max_steps"]["count"] == 5
    assert sum(s["counts"]["invalid_arguments"] for s in summary["steps"]) == undecodable == 3
    assert [s["reached"] for s in summary["steps"]] == [5] * 6


def test_anthropic_thinking_goes_back_first_with_its_signature(tmp_path: Path) -> None:
    """A recorded Claude thinking + tool_use reply (tests/data/responses/reasoning/SOURCES.md): step 2 sends the
    thinking block back unchanged before the tool_use, as Anthropic requires with thinking on."""
    body = json.loads((Path(__file__).parent / "data" / "responses" / "reasoning" /
                       "anthropic-thinking-tool-use.json").read_text())
    path = tmp_path / "think.yaml"
    path.write_text("tools:\n  - {name: checkSandboxErrors, parameters: {type: object}}\ntool_choice: auto\n"
                    "messages:\n  - {role: user, content: Check the sandbox.}\n"
                    "providers:\n  anthropic: {model: claude-sonnet-4-6, thinking: true, max_tokens: 4096}\n"
                    "loop:\n  max_steps: 2\n  results:\n    checkSandboxErrors: no errors\n")
    with StandIn("anthropic", default=Step(body=body)) as server:
        result = toolchoice("run", str(path), "-p", "anthropic", "--base-url", server.base_url("anthropic"),
                            "--format", "json")
        step2 = server.requests[1].json
    assert result.returncode == 0, result.stdout + result.stderr
    assistant = step2["messages"][1]
    assert assistant["role"] == "assistant"
    assert assistant["content"][0] == {k: body["content"][0][k] for k in ("type", "thinking", "signature")}
    assert assistant["content"][1]["type"] == "tool_use" and assistant["content"][1]["id"] == body["content"][1]["id"]
    assert step2["messages"][2]["content"][0]["tool_use_id"] == body["content"][1]["id"]


@pytest.mark.parametrize("width", [120, 100, 80, 60])
def test_run_tables_keep_every_word_whole_at_every_width(tmp_path, width):
    """One loop's steps and the tallies of three: no line wider than the terminal, and no header or value
    word broken across lines (bordered where that fits, then without side borders under short headers,
    then one row a record)."""
    names = list(dict.fromkeys(name for _, name in calls_of("openai")))
    path = loop_scenario(tmp_path, names, "required")
    with StandIn("openai") as server:
        one = toolchoice("run", str(path), "-p", "openai", "--base-url", server.base_url("openai"), COLUMNS=str(width))
        three = toolchoice("run", str(path), "-p", "openai", "--base-url", server.base_url("openai"), "--repeat", "3",
                           COLUMNS=str(width))
    for result in (one, three):
        assert result.returncode in (0, 4), result.stderr
        lines = result.stdout.splitlines()
        assert all(len(line) <= width for line in lines), result.stdout
        words = {w for line in lines for w in re.findall(r"[A-Za-z_]{3,}", line)}
        for word in ("step", "obeyed", "latency", "tokens") if result is one else ("step", "reached", "obeyed", "tokens"):
            assert word in words, (word, result.stdout)
    for name in names:  # a tool name the steps show stays whole
        assert name in one.stdout, (name, one.stdout)


def test_a_saved_stream_replayed_without_stream_says_to_add_it(tmp_path: Path) -> None:
    """`run --stream --save` keeps each step's stream; replaying that folder without --stream said only
    "non-JSON response" (an adversarial run). The error now says --stream, and with it the replay runs."""
    from toolchoice.providers.core.mock.server import running_mock

    path = planner_file(tmp_path)
    saved = tmp_path / "saved"
    with running_mock("openai") as mock:
        first = toolchoice("run", str(path), "-p", "openai", "--base-url", mock.base_url, "--stream", "--save",
                           str(saved))
    assert first.returncode in (0, 4), first.stderr
    plain = toolchoice("run", str(path), "-p", "openai", "--replay", str(saved))
    assert "is a saved stream: replay it with --stream" in " ".join((plain.stdout + plain.stderr).split())
    streamed = toolchoice("run", str(path), "-p", "openai", "--replay", str(saved), "--stream")
    assert streamed.returncode in (0, 4) and "saved stream" not in streamed.stdout, streamed.stdout[-500:]


def test_a_usage_without_an_output_count_shows_a_dash_not_none(tmp_path: Path) -> None:
    """Gemini's usageMetadata may lack candidatesTokenCount (a reply of a call only): the step row said
    "29/None"; a count the reply does not give is "–", as everywhere in the tables (in and out said as send says them)."""
    body = fixture("gemini", DEFAULT_REPLY["gemini"])
    body["usageMetadata"].pop("candidatesTokenCount")
    path = loop_scenario(tmp_path, list(dict.fromkeys(name for _, name in calls_of("gemini"))), "auto")
    with StandIn("gemini", default=Step(body=body)) as server:
        result = toolchoice("run", str(path), "--provider", "gemini", "--base-url", server.base_url("gemini"),
                            "--retries", "0")
    assert "None" not in result.stdout, result.stdout
    assert f"in {body['usageMetadata']['promptTokenCount']}" in result.stdout and "out –" in result.stdout, result.stdout
