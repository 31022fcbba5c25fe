"""`toolchoice run` end to end against the real model server: a 3-step loop (named → auto → named stop
tool) whose saved transcript then replays offline to the same verdicts.

Facts this relies on (measured, test_server_facts.py): a named tool_choice always yields one
grammar-constrained call; auto with the tools in the prompt (a system message) calls a tool; an
assistant turn needs content "" rather than null (the loop sends "" beside tool calls). The model is
not instruction-tuned: the test asserts verdicts, endings, tool names and schema validity, never what
the arguments say.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from test_end_to_end import MODEL, SCHEMAS, TIMEOUT, TOOLS_YAML, toolchoice

pytestmark = pytest.mark.realmodel

LOOP_YAML = TOOLS_YAML + """
  - name: final_answer
    description: Give the final answer to the user.
    parameters:
      type: object
      properties:
        answer: {type: string}
      required: [answer]
tool_choice: auto
system: You are a helpful assistant. Use the tools when they help.
messages:
  - {role: user, content: "What time is it in Tokyo?"}
providers:
  openai: {model: %s, max_tokens: 64, temperature: 0}
loop:
  max_steps: 3
  steps:
    - {tool_choice: get_time, tools: [get_time]}
    - {tool_choice: auto, tools: [get_time, get_weather]}
    - {tool_choice: final_answer, tools: [final_answer]}
  stop: {tool: final_answer}
  results:
    get_time: "14:05 JST"
    get_weather: {template: "sunny in {city}"}
""" % MODEL


def test_three_step_loop_runs_end_to_end_and_its_transcript_replays_offline(llama_server: str, tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text(LOOP_YAML, encoding="utf-8")
    saved = tmp_path / "saved"
    live = toolchoice("run", str(path), "--provider", "openai", "--base-url", llama_server, "--timeout", TIMEOUT,
                      "--format", "json", "--save", str(saved))
    assert live.returncode == 0, live.stdout + live.stderr
    [run] = json.loads(live.stdout)["runs"][0]["loops"]
    assert run["ended"] == {"reason": "stop_tool", "step": 3, "error": None}, run["ended"]
    steps = run["steps"]
    assert [s["requested_tool_choice"] for s in steps] == [{"tool": "get_time"}, "auto", {"tool": "final_answer"}]
    assert [s["verdict"]["category"] for s in steps] == ["obeyed", "obeyed", "obeyed"]
    assert [c["name"] for c in steps[0]["reply"]["tool_calls"]] == ["get_time"]
    assert {c["name"] for c in steps[1]["reply"]["tool_calls"]} <= {"get_time", "get_weather"}
    assert steps[1]["reply"]["tool_calls"], "auto with the tools in the prompt calls a tool (test_server_facts)"
    for step in steps[:2]:
        for call in step["reply"]["tool_calls"]:
            jsonschema.validate(call["arguments"], SCHEMAS[call["name"]])
    assert [c["name"] for c in steps[2]["reply"]["tool_calls"]] == ["final_answer"]
    assert isinstance(run["final_answer"], dict) and isinstance(run["final_answer"].get("answer"), str)
    # step 2 carried step 1's call and its result, paired by the server's own id
    messages = steps[1]["request"]["body"]["messages"]
    call_id = steps[0]["reply"]["tool_calls"][0]["id"]
    assert messages[-2]["role"] == "assistant" and messages[-2]["content"] == ""
    assert messages[-2]["tool_calls"][0]["id"] == call_id
    assert messages[-1] == {"role": "tool", "tool_call_id": call_id, "content": "14:05 JST"}

    replay = toolchoice("run", str(path), "--provider", "openai", "--base-url", "http://127.0.0.1:9",
                        "--format", "json", "--replay", str(saved))
    assert replay.returncode == 0, replay.stdout + replay.stderr
    [again] = json.loads(replay.stdout)["runs"][0]["loops"]
    assert again["ended"] == run["ended"]
    assert [(s["verdict"], s["reply"]["tool_calls"]) for s in again["steps"]] == \
        [(s["verdict"], s["reply"]["tool_calls"]) for s in steps]
    assert [s["request"]["body"] for s in again["steps"]] == [s["request"]["body"] for s in steps]
