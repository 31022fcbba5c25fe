"""Agent frameworks' traces, as their newest releases write them (2026-11-26/27), read back step by step.

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


# ---- smolagents, haystack-ai, agno: recorded through `toolchoice proxy` in front of `toolchoice mock` ------------
# Each recording (tests/trace_recorder.py PROXY_FRAMEWORK_KINDS; SOURCES.md) has three files: the trace, the bodies
# the proxy received (`*.wire.json`) and the proxy's lines for the same run (`*.proxy.json`): what the proxy read
# as each step's tool_choice, offered tools, calls (with the ids the mock made) and results paired by id.

PROXIED = ["openinference-smolagents-0.1.43", "openinference-smolagents-0.1.43-default",
           "openinference-haystack-0.1.46", "openinference-agno-1.0.15"]


def proxy_lines(name: str) -> list[dict[str, Any]]:
    return json.loads((DATA / f"{name}.proxy.json").read_text(encoding="utf-8"))


def text(content: Any) -> str:
    """A message's text: a string, or the joined text parts (smolagents sends parts)."""
    return content if isinstance(content, str) else "".join(part["text"] for part in content)


def imported(name: str) -> tuple[dict[str, Any], str]:
    result = run_cli(["trace", str(DATA / f"{name}.json"), "--format", "json"])
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), result.stderr


@pytest.mark.parametrize("name", PROXIED)
def test_each_steps_calls_and_the_provider_family_are_what_the_proxy_saw(name):
    """Two LLM calls, read as OpenAI (the API each framework spoke: agno records llm.provider "OpenAI"); each
    step's recorded calls are the proxy's, name and arguments, and their ids where the trace records them."""
    lines, sent = proxy_lines(name), wire(name)
    scenario, notes = imported(name)
    assert list(scenario["providers"]) == ["openai"] and scenario["providers"]["openai"]["model"] == sent[0]["model"]
    opening = [(m["role"], text(m["content"])) for m in sent[0]["messages"]]
    # agno's OpenAIChat sends the system prompt as a developer message; its trace records the role system
    assert opening == [(opening[0][0], scenario["system"]), ("user", scenario["messages"][0]["content"])]
    assert opening[0][0] == ("developer" if "agno" in name else "system")
    loop, _ = replayed(name)
    assert len(loop["steps"]) == len(lines) == len(sent) == 2
    for step, line in zip(loop["steps"], lines):
        got = [(c["name"], c["arguments"]) for c in step["reply"]["tool_calls"]]
        assert got == [(c["name"], c["arguments"]) for c in line["calls"]]
    ids = [c["id"] for c in loop["steps"][0]["reply"]["tool_calls"]]
    if "haystack" in name:  # openinference-instrumentation-haystack 0.1.46 records no tool_call.id
        assert ids == [None, None] and len({c["id"] for c in lines[0]["calls"]}) == 2
    else:
        assert ids == [c["id"] for c in lines[0]["calls"]]


@pytest.mark.parametrize("name", PROXIED)
def test_each_steps_tool_choice_is_the_one_sent_where_the_trace_records_it_and_said_unrecorded_elsewhere(name):
    """The proxy saw a tool_choice on every step of every run. smolagents' instrumentation records the model's
    keyword arguments (OpenAIModel(tool_choice="required")) as llm.invocation_parameters, not the "required" its
    agent adds by default; haystack's records no invocation parameters (generation_kwargs' named choice is not on
    the span); agno's calls get_request_params() without the tools and tool_choice, so records none either."""
    lines = proxy_lines(name)
    loop, codes = replayed(name)
    sent = [line["requested"] for line in lines]
    assert sent == [b.get("tool_choice") for b in wire(name)] and None not in sent
    effective = [s["effective_tool_choice"] for s in loop["steps"]]
    if name == "openinference-smolagents-0.1.43":
        assert effective == sent == ["required", "required"]
        assert "trace.tool_choice_not_recorded" not in codes
    else:
        assert effective == [None, None] and "trace.tool_choice_not_recorded" in codes


@pytest.mark.parametrize("name", PROXIED)
def test_the_tools_are_the_ones_offered_where_recorded(name):
    lines, sent = proxy_lines(name), wire(name)
    scenario, notes = imported(name)
    assert [t["name"] for t in scenario["tools"]] == lines[0]["offered_tools"]
    if "haystack" in name:  # no llm.tools: the called tool with an open schema, said
        assert scenario["tools"] == [{"name": "get_weather", "parameters": {"type": "object"}}]
        assert "trace.open_schema" in notes
    else:
        loop, _ = replayed(name)
        for step, body in zip(loop["steps"], sent):
            assert functions(step["request"]["body"]["tools"]) == functions(body["tools"])


def test_agno_results_go_back_paired_with_their_calls_ids():
    """agno sends each result as a tool message with its call's id, and its trace records them so."""
    name = "openinference-agno-1.0.15"
    loop, _ = replayed(name)
    assert turns(loop["steps"][1]["request"]["body"]["messages"]) == turns(wire(name)[1]["messages"])
    assert [(r["id"], r["from"]) for r in proxy_lines(name)[1]["results"]] == [
        (c["id"], 1) for c in loop["steps"][0]["reply"]["tool_calls"]]
    # its TOOL spans hold the outputs too, but the tool messages are the record: no note
    assert "trace.results_from_tool_spans" not in imported(name)[1]


@pytest.mark.parametrize("name", ["openinference-agno-1.0.15", "openinference-smolagents-0.1.43"])
def test_a_tool_spans_parameters_that_are_no_schema_are_not_read_as_one(name, tmp_path):
    """agno's TOOL spans record the call's arguments as tool.parameters ({"city": ...}), smolagents' its own
    `inputs` form (no "type": "object"): without llm.tools, the called tool keeps the open schema."""
    trace = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    for resource in trace["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                span["attributes"] = [a for a in span["attributes"] if not a["key"].startswith("llm.tools.")]
    path = tmp_path / "no-llm-tools.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    result = run_cli(["trace", str(path), "--format", "json"])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tools"][0] == {"name": "get_weather", "parameters": {"type": "object"}}
    assert "trace.open_schema" in result.stderr


@pytest.mark.parametrize("name", ["openinference-smolagents-0.1.43", "openinference-smolagents-0.1.43-default"])
def test_smolagents_results_come_from_its_tool_spans(name):
    """smolagents carries calls back as assistant text ("Calling tools: [...]") and the results as one user text
    ("Observation: ..."): its trace's input messages have the roles tool-call and tool-response, no tool messages
    with ids. Each tool that ran is a TOOL span with its output (output.value): the results are read from those,
    in call order, with a note; replayed, each goes back with its call's id."""
    sent = wire(name)
    scenario, notes = imported(name)
    observation = next(m for m in sent[1]["messages"] if m["role"] == "user" and "Observation:" in json.dumps(m))
    assert not [m for m in sent[1]["messages"] if m["role"] == "tool"]
    results = scenario["loop"]["results"]
    assert results["get_weather"] == ["18 C, sunny", "18 C, sunny"]  # the tool's return (the recorder's)
    assert json.dumps(observation).count("18 C, sunny") == 2
    assert "trace.results_from_tool_spans" in notes
    loop, codes = replayed(name)
    calls = [c["id"] for c in loop["steps"][0]["reply"]["tool_calls"]]
    assert [r for r in turns(loop["steps"][1]["request"]["body"]["messages"])[1]] == [
        (i, "18 C, sunny") for i in calls]
    assert "history.is_error_dropped" not in codes
