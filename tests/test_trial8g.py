"""A trial of `toolchoice run` against models that misbehave between steps (trial 8g): each test a defect found
driving `run` against `toolchoice mock` and the stand-ins of tests/servers.py on 127.0.0.1, failing before its fix."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from cli import run_cli  # noqa: E402

from toolchoice.providers.core.mock.script import load_script  # noqa: E402
from toolchoice.providers.core.mock.server import running_mock  # noqa: E402

from test_loop_trial import KEY, KEYS, TOOLS  # noqa: E402  (the same canary key and two-tool scenario)


def toolchoice(*args: str) -> object:
    result = run_cli(args, env=KEYS | {"COLUMNS": "80"})
    assert KEY not in result.stdout + result.stderr and "Traceback" not in result.stderr
    return result


def _messages(request: dict) -> list:
    body = request["body"]
    return body.get("messages") or body.get("input")


def test_replay_of_a_results_from_run_answers_with_the_recorded_results(tmp_path: Path) -> None:
    """A loop run with `--results-from COMMAND --save DIR`, replayed offline (`run --replay DIR`, no command: it may
    have side effects, or need what only the live machine has), answered every call from `loop.results` instead of
    what the command had returned: step 1's results became "error: no result for 'search'", step 2's request was not
    the one sent (its tool message changed), and step 1's ledger warned loop.no_results for every tool. The recorded
    results (each saved step-NN.reply.json's `results`) now answer the calls of a replay, so the replayed requests are
    the recorded ones byte for byte (held against the request the mock received and `--save` kept)."""
    path = tmp_path / "loop.yaml"
    path.write_text(TOOLS + "loop:\n  max_steps: 3\n")
    script = tmp_path / "script.yaml"
    script.write_text("replies:\n  - call: search\n  - call: read_file\n  - text: done\n")
    saved = tmp_path / "saved"
    with running_mock("anthropic", script=load_script(script)) as mock:
        live = toolchoice("run", str(path), "-p", "anthropic", "--base-url", mock.base_url, "--save", str(saved),
                          "--format", "json", "--results-from", "cat >/dev/null; echo from-the-command")
        assert len(mock.records) == 3
    assert live.returncode == 0, live.stderr
    folder = saved / "anthropic" / "loop-001"
    sent = [json.loads((folder / f"step-0{n}.request.json").read_text()) for n in (1, 2, 3)]
    [answer] = [b for m in _messages(sent[1]) if m["role"] == "user" and isinstance(m["content"], list)
                for b in m["content"] if b.get("type") == "tool_result"]
    assert answer["content"] in ("from-the-command", [{"type": "text", "text": "from-the-command"}]), answer

    replayed = toolchoice("run", str(path), "-p", "anthropic", "--replay", str(saved), "--format", "json")
    assert replayed.returncode == 0, replayed.stderr
    [doc] = json.loads(replayed.stdout)["runs"][0]["loops"]
    assert [r["content"] for s in doc["steps"] for r in s["results"]] == ["from-the-command"] * 2
    assert [_messages(s["request"]) for s in doc["steps"]] == [_messages(r) for r in sent]
    codes = [e["code"] for s in doc["steps"] for e in s["ledger"]]
    assert "loop.no_results" not in codes  # as in the recorded run, which had --results-from
    assert doc["tool_results"] == {"total": 2, "errors": 0}
    # replayed for another provider, the recorded results answer there too
    other = toolchoice("run", str(path), "-p", "openai", "--replay", str(saved), "--format", "json")
    [doc] = json.loads(other.stdout)["runs"][0]["loops"]
    tool_messages = [m for m in doc["steps"][2]["request"]["body"]["messages"] if m["role"] == "tool"]
    assert [m["content"] for m in tool_messages] == ["from-the-command"] * 2


def test_replay_of_a_stream_cut_mid_call_ends_in_the_recorded_error(tmp_path: Path) -> None:
    """A stream the server cut mid-call (the mock scripted `cut_after: 1`) ended the live loop in "stream.transport:
    the stream failed: RemoteProtocolError: peer closed connection without sending complete message body", but its
    replay served the saved bytes as a whole body, which ended in another error ("stream.no_final_event: ... without
    data: [DONE]"): the replay did not reproduce the run. The replay now cuts the recorded stream where the
    connection failed, with the transport error the run met."""
    path = tmp_path / "loop.yaml"
    path.write_text(TOOLS + "loop:\n  max_steps: 3\n  results: {search: hits, read_file: text}\n")
    script = tmp_path / "script.yaml"
    script.write_text("replies:\n  - call: search\n  - {call: read_file, cut_after: 1}\n")
    saved = tmp_path / "saved"
    for provider in ("openai", "anthropic"):
        with running_mock(provider, script=load_script(script)) as mock:
            live = toolchoice("run", str(path), "-p", provider, "--base-url", mock.base_url, "--stream",
                              "--retries", "0", "--save", str(saved), "--format", "json")
        [doc] = json.loads(live.stdout)["runs"][0]["loops"]
        assert live.returncode == 1 and doc["ended"]["reason"] == "error" and doc["ended"]["step"] == 2
        assert "stream.transport" in doc["ended"]["error"] and "RemoteProtocolError" in doc["ended"]["error"]
        replayed = toolchoice("run", str(path), "-p", provider, "--stream", "--replay", str(saved), "--format", "json")
        [again] = json.loads(replayed.stdout)["runs"][0]["loops"]
        assert replayed.returncode == live.returncode
        assert again["ended"] == doc["ended"]
        assert [s["reply"] for s in again["steps"]] == [s["reply"] for s in doc["steps"]]


def test_a_call_outside_the_tools_a_narrowed_step_allows_gets_an_error_result_everywhere(tmp_path: Path) -> None:
    """`loop.narrow: allowed` (docs/loop.md) sends every tool and makes the step's `tools:` the provider's restriction
    (OpenAI `allowed_tools`, Gemini `allowedFunctionNames`); where there is none (Anthropic) only the step's tools are
    sent. A model calling a tool the step did not offer (the mock scripted `phantom: read_file` at a step offering
    `search`) got an error result and loop.phantom_call on Anthropic, but on OpenAI and Gemini the tool's real result
    and no finding: the same scenario and replies made another history per provider. docs/run.md: "A call to a tool
    the step did not offer gets an error result saying so". Now the same everywhere."""
    path = tmp_path / "loop.yaml"
    path.write_text(TOOLS + "loop:\n  max_steps: 3\n  narrow: allowed\n  steps:\n"
                    "    - {tool_choice: required, tools: [search]}\n    - {tool_choice: auto}\n"
                    "  results: {search: hits, read_file: text}\n")
    script = tmp_path / "script.yaml"
    script.write_text("replies:\n  - phantom: read_file\n  - text: done\n")
    seen = {}
    for provider in ("anthropic", "openai", "openai-responses", "gemini"):
        with running_mock(provider, script=load_script(script)) as mock:
            result = toolchoice("run", str(path), "-p", provider, "--base-url", mock.base_url, "--format", "json")
            assert [r["findings"] for r in mock.records if any(f["severity"] == "error" for f in r["findings"])] == []
        [doc] = json.loads(result.stdout)["runs"][0]["loops"]
        step = doc["steps"][0]
        assert step["verdict"]["obeyed"] is False
        [answer] = step["results"]
        codes = [e["code"] for e in step["ledger"]]
        seen[provider] = (answer["is_error"], answer["content"], "loop.phantom_call" in codes)
    assert set(seen.values()) == {(True, "error: tool 'read_file' is not available (offered: search)", True)}, seen


def test_a_stop_tool_call_the_step_cannot_take_does_not_end_the_loop(tmp_path: Path) -> None:
    """The stop tool called where the step did not offer it (`phantom: final_answer` at a step offering `search`),
    or with arguments that are not JSON (`broken_json`): the step's ledger said "loop.phantom_call ... its result is
    an error saying so" / "loop.arguments_undecodable ... its result is an error", yet the history answered the call
    `done` and the loop ended as `stop_tool`, counted as ended by itself, with the final answer `{}` or null. Such a
    call now gets the error result its finding promises, and the loop goes on (here: the model answers at step 2)."""
    path = tmp_path / "loop.yaml"
    tools = TOOLS.replace("tool_choice: auto", "  - {name: final_answer, description: Answer., parameters: "
                          "{type: object, properties: {answer: {type: string}}, required: [answer]}}\ntool_choice: auto")
    script = tmp_path / "script.yaml"
    for steps, first in (("  steps:\n    - {tool_choice: required, tools: [search]}\n    - {tool_choice: auto}\n",
                          "phantom: final_answer"),
                         ("", "{call: final_answer, broken_json: true}")):
        path.write_text(tools + "loop:\n  max_steps: 3\n" + steps + "  stop: {tool: final_answer}\n"
                        "  results: {search: hits, read_file: text}\n")
        script.write_text(f"replies:\n  - {first}\n  - text: the answer\n")
        for provider in ("openai", "anthropic"):
            with running_mock(provider, script=load_script(script)) as mock:
                result = toolchoice("run", str(path), "-p", provider, "--base-url", mock.base_url, "--format", "json")
                assert len(mock.records) == 2
            [doc] = json.loads(result.stdout)["runs"][0]["loops"]
            assert (doc["ended"]["reason"], doc["ended"]["step"]) == ("no_tool_call", 2), (first, doc["ended"])
            assert doc["final_answer"] == "the answer"
            [answer] = doc["steps"][0]["results"]
            assert answer["is_error"] is True and answer["content"].startswith("error: "), answer
            assert "loop.stop_tool_result" not in [e["code"] for e in doc["steps"][0]["ledger"]]
