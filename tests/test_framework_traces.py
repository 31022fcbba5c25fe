"""Agent frameworks' traces, as their newest releases write them (2026-11-26), read back step by step.

Each trace in tests/data/traces/ was recorded by ``python tests/trace_recorder.py KIND OUT.json`` (the framework's
two-step loop against the stand-in on 127.0.0.1, recorded by the real instrumentation; SOURCES.md there names the
versions); beside it, ``*.wire.json`` holds the bodies the framework put on the wire, as the stand-in received
them. That file is the truth here: each step's tools, tool_choice, calls, ids and results, imported from the
trace and rendered again for OpenAI, are held to it. Read in-process: no recorder runs in the suite.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli import run_cli

DATA = Path(__file__).parent / "data" / "traces"
FRAMEWORKS = ["openinference-langchain-0.1.80", "openinference-openai-agents-2.6.0", "pydantic-ai-2.68.0"]


def wire(name: str) -> list[dict[str, Any]]:
    return json.loads((DATA / f"{name}.wire.json").read_text(encoding="utf-8"))


def replayed(name: str) -> tuple[dict[str, Any], list[str]]:
    """``run --replay`` on OpenAI (the API the framework spoke): the loop, and the ledger codes of step 1."""
    result = run_cli(["run", "--replay", str(DATA / f"{name}.json"), "-p", "openai", "-f", "json"])
    assert result.returncode == 0, result.stderr
    loop = json.loads(result.stdout)["runs"][0]["loops"][0]
    return loop, [entry["code"] for entry in loop["steps"][0]["ledger"]]


def turns(messages: list[dict[str, Any]]) -> tuple[list[Any], list[Any]]:
    """A Chat Completions history's calls (id, name, decoded arguments) and results (call id, content)."""
    calls = [(c["id"], c["function"]["name"], json.loads(c["function"]["arguments"]))
             for m in messages if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    results = [(m["tool_call_id"], m["content"]) for m in messages if m["role"] == "tool"]
    return calls, results


def functions(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: t["function"].get(k) for k in ("name", "description", "parameters")} for t in tools]


@pytest.mark.parametrize("name", FRAMEWORKS)
def test_every_step_has_the_wires_tools_calls_ids_and_results(name):
    sent = wire(name)
    loop, _ = replayed(name)
    assert len(loop["steps"]) == len(sent) == 2
    for step, body in zip(loop["steps"], sent):
        request = step["request"]["body"]
        assert functions(request["tools"]) == functions(body["tools"])  # what the framework declared
        assert turns(request["messages"]) == turns(body["messages"])  # calls, their ids, the results sent back
    first_call = turns(sent[1]["messages"])[0]
    assert [(c["id"], c["name"], c["arguments"]) for c in loop["steps"][0]["reply"]["tool_calls"]] == first_call


def test_langchain_bind_tools_choice_is_each_steps_choice_on_the_wire():
    """bind_tools(tools, tool_choice="get_weather") sends the function form; the next bind_tools(tools) none."""
    sent = wire("openinference-langchain-0.1.80")
    loop, codes = replayed("openinference-langchain-0.1.80")
    assert sent[0]["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}
    assert "tool_choice" not in sent[1]
    assert [s["effective_tool_choice"] for s in loop["steps"]] == [sent[0]["tool_choice"], None]
    assert loop["steps"][0]["requested_tool_choice"] == {"tool": "get_weather"}
    assert "trace.tools_from_tool_spans" not in codes  # llm.tools is recorded on each LLM span


def test_openai_agents_required_then_reset_and_tools_from_the_tool_spans():
    """openai-agents 0.24.0 sends tool_choice "required", then none after the call (reset_tool_choice, its
    default); OpenInference's openai-agents instrumentation 2.6.0 records no llm.tools on its generation spans,
    so the tool's definition comes from its TOOL span (tool.parameters), not an open schema."""
    sent = wire("openinference-openai-agents-2.6.0")
    loop, codes = replayed("openinference-openai-agents-2.6.0")
    assert (sent[0]["tool_choice"], "tool_choice" in sent[1]) == ("required", False)
    assert [s["effective_tool_choice"] for s in loop["steps"]] == ["required", None]
    assert "trace.tools_from_tool_spans" in codes and "trace.open_schema" not in codes
    # the TOOL span has no strict: the wire's "strict": true does not travel
    assert sent[0]["tools"][0]["function"]["strict"] is True
    assert "strict" not in loop["steps"][0]["request"]["body"]["tools"][0]["function"]


def test_pydantic_ai_sends_auto_but_its_spans_record_no_tool_choice():
    """pydantic-ai 2.68.0 sends "auto" at each step of a text agent; its gen_ai.* spans record the tools
    (gen_ai.tool.definitions) but not the tool_choice (OTel GenAI has no such attribute): said, not guessed."""
    sent = wire("pydantic-ai-2.68.0")
    loop, codes = replayed("pydantic-ai-2.68.0")
    assert [b["tool_choice"] for b in sent] == ["auto", "auto"]
    assert "trace.tool_choice_not_recorded" in codes
    assert [s["effective_tool_choice"] for s in loop["steps"]] == [None, None]
    assert "trace.open_schema" not in codes and "trace.tools_from_tool_spans" not in codes


def test_a_tool_span_without_parameters_leaves_the_open_schema(tmp_path):
    """An OTel GenAI execute_tool span names the tool (gen_ai.tool.name) but carries no parameters: the called
    tool keeps the open schema and its note, as without the span."""
    trace = json.loads((DATA / "pydantic-ai-2.68.0.json").read_text(encoding="utf-8"))
    for resource in trace["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                span["attributes"] = [a for a in span["attributes"] if a["key"] != "gen_ai.tool.definitions"]
    path = tmp_path / "no-definitions.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    result = run_cli(["trace", str(path), "--format", "json"])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tools"] == [{"name": "get_weather", "parameters": {"type": "object"}}]
    assert "trace.open_schema" in result.stderr and "trace.tools_from_tool_spans" not in result.stderr


def test_openai_agents_on_the_responses_api_is_read_from_the_response_it_records():
    """On the Responses API (openai-agents' default model) OpenInference 2.6.0 records the Response object:
    the tools, tool_choice and instructions the API echoes back, and the answering model. The step is read as
    openai-responses; step 2 sent no tool_choice, and the echo says the API's default, "auto"."""
    name = "openinference-openai-agents-2.6.0-responses"
    sent = wire(name)
    result = run_cli(["run", "--replay", str(DATA / f"{name}.json"), "-p", "openai-responses", "-f", "json"])
    assert result.returncode == 0, result.stderr
    run = json.loads(result.stdout)["runs"][0]
    loop = run["loops"][0]
    assert (sent[0]["tool_choice"], "tool_choice" in sent[1]) == ("required", False)
    assert [s["effective_tool_choice"] for s in loop["steps"]] == ["required", "auto"]
    for step, body in zip(loop["steps"], sent):
        request = step["request"]["body"]
        assert request["instructions"] == body["instructions"]
        keys = ("name", "description", "parameters", "strict")
        assert [{k: t.get(k) for k in keys} for t in request["tools"]] == [{k: t.get(k) for k in keys}
                                                                          for t in body["tools"]]
        assert [(i["call_id"], i["name"], json.loads(i["arguments"])) for i in request["input"]
                if i.get("type") == "function_call"] == [(i["call_id"], i["name"], json.loads(i["arguments"]))
                                                         for i in body["input"] if i.get("type") == "function_call"]
        assert [(i["call_id"], i["output"]) for i in request["input"] if i.get("type") == "function_call_output"] == [
            (i["call_id"], i["output"]) for i in body["input"] if i.get("type") == "function_call_output"]
    (called,) = [i for i in sent[1]["input"] if i.get("type") == "function_call"]
    assert [(c["id"], c["name"]) for c in loop["steps"][0]["reply"]["tool_calls"]] == [(called["call_id"], "get_weather")]
    shown = run_cli(["trace", str(DATA / f"{name}.json"), "--format", "json"])
    assert list(json.loads(shown.stdout)["providers"]) == ["openai-responses"]  # not Chat Completions
