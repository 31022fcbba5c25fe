"""Record a two-step agent run with a REAL instrumentation and write it as OTLP/JSON.

    python tests/trace_recorder.py KIND OUT.json

KIND is one of ``openinference-openai``, ``openinference-openai-responses`` (one Responses API call),
``openinference-anthropic``, ``openinference-anthropic-thinking``, ``openinference-anthropic-history`` (one
call with parallel calls and their results in its history), ``openinference-google-genai``, ``otel-openai-v2``, ``otel-openai`` and
``otel-anthropic`` (opentelemetry-instrumentation-openai / -anthropic, OpenLLMetry); the agent frameworks'
kinds (``openinference-langchain``, ``openinference-openai-agents[-responses]``, ``pydantic-ai``) write the trace and,
beside it, the bodies the framework sent (``OUT.wire.json``): they were recorded once into tests/data/traces/;
``openinference-smolagents[-default]``, ``openinference-haystack`` and ``openinference-agno`` run the framework's agent
through ``toolchoice proxy`` in front of ``toolchoice mock`` and keep the proxy's lines too (``OUT.proxy.json``). The official SDK (openai or anthropic) is the client; the instrumentation
package records it with the OpenTelemetry SDK's in-memory exporter; the spans are encoded with
opentelemetry-exporter-otlp-proto-common's encoder and written with protobuf's JSON mapping, the
trace and span ids turned to hex as OTLP/JSON requires. The model answers from a stand-in on
127.0.0.1 (tests/servers.py): step 1 a recorded tool call, step 2 a text answer.

An instrumentation patches the SDK for the whole process until it is uninstrumented, and some read the
environment once per process (the semantic-convention opt-in): each recording instruments, runs and
uninstruments in turn, so one process can make several recordings that share an environment:

    python tests/trace_recorder.py many '[[KIND, OUT.json, RUNS, PARENT], ...]'

(tests/test_traces.py starts one such process per environment and SDK instead of one per recording: each
start imports the SDK, the OpenTelemetry SDK and protobuf again, ~1 s CPU.)
"""

from __future__ import annotations

import base64
import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from servers import StandIn, Step, fixture  # noqa: E402

OPENAI_TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "Weather in a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "state": {"type": "string"}},
                   "required": ["city"]}}}]
ANTHROPIC_TOOLS = [{"name": "weather", "description": "Weather at a location",
                    "input_schema": {"type": "object", "properties": {"location": {"type": "string"}},
                                     "required": ["location"]}}]
SYSTEM = "You answer weather questions with the tool."
OPENAI_TEXT = {"id": "chatcmpl-2", "object": "chat.completion", "created": 1727346170, "model": "gpt-4o-2024-08-06",
               "choices": [{"index": 0, "message": {"role": "assistant", "content": "It is 18 C and sunny.",
                                                     "refusal": None}, "logprobs": None, "finish_reason": "stop"}],
               "usage": {"prompt_tokens": 80, "completion_tokens": 9, "total_tokens": 89}}
ANTHROPIC_TEXT = {"model": "claude-haiku-4-5-20251001", "id": "msg_2", "type": "message", "role": "assistant",
                  "content": [{"type": "text", "text": "It is 18 C and sunny."}], "stop_reason": "end_turn",
                  "usage": {"input_tokens": 900, "output_tokens": 12}}


def otlp_json(spans: Any) -> dict[str, Any]:
    """Finished SDK spans → the OTLP/JSON document (ids in hex, enums as integers)."""
    from google.protobuf import json_format
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    data = json_format.MessageToDict(encode_spans(spans), use_integers_for_enums=True)
    for resource in data.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for key in ("traceId", "spanId", "parentSpanId"):
                    if span.get(key):
                        span[key] = base64.b64decode(span[key]).hex()
                for link in span.get("links", []):
                    for key in ("traceId", "spanId"):
                        if link.get(key):
                            link[key] = base64.b64decode(link[key]).hex()
    return data


def otlp_logs_json(records: Any) -> dict[str, Any]:
    """Finished SDK log records → the OTLP/JSON logs document (ids in hex)."""
    from google.protobuf import json_format
    from opentelemetry.exporter.otlp.proto.common._log_encoder import encode_logs

    data = json_format.MessageToDict(encode_logs(records), use_integers_for_enums=True)
    for resource in data.get("resourceLogs", []):
        for scope in resource.get("scopeLogs", []):
            for record in scope.get("logRecords", []):
                for key in ("traceId", "spanId"):
                    if record.get(key):
                        record[key] = base64.b64decode(record[key]).hex()
    return data


def record_events(out: Path) -> None:
    """``otel-openai-v2-events``: opentelemetry-instrumentation-openai-v2 before 2.2 (2.1b0, with
    opentelemetry-api < 1.39, which still has the Events API) writes the messages as events through the
    Logs API, not on the span: the file is two lines, the trace export and the logs export."""
    from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor
    from opentelemetry.sdk._events import EventLoggerProvider
    from opentelemetry.sdk._logs import LoggerProvider
    from opentelemetry.sdk._logs.export import InMemoryLogExporter, SimpleLogRecordProcessor

    os.environ["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] = "true"
    provider, exporter = _provider()
    logs = InMemoryLogExporter()
    logger_provider = LoggerProvider()
    logger_provider.add_log_record_processor(SimpleLogRecordProcessor(logs))
    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=provider, event_logger_provider=EventLoggerProvider(logger_provider))
    steps = [Step(body=fixture("openai", "openai-chat-single-strict")), Step(body=OPENAI_TEXT)]
    try:
        with StandIn("openai", *steps) as server:
            with provider.get_tracer("agent").start_as_current_span("agent run"):
                _agent_openai(server.base_url("openai"))
    finally:
        instrumentor.uninstrument()
    lines = [otlp_json(exporter.get_finished_spans()), otlp_logs_json(logs.get_finished_logs())]
    out.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def _provider() -> Any:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


def _agent_openai(base_url: str) -> None:
    import openai

    client = openai.OpenAI(api_key="sk-test-recorder", base_url=base_url, max_retries=0)
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM},
                                      {"role": "user", "content": "Weather in San Francisco?"}]
    first = client.chat.completions.create(model="gpt-4o", messages=messages, tools=OPENAI_TOOLS,  # type: ignore
                                           tool_choice={"type": "function", "function": {"name": "get_weather"}})
    call = first.choices[0].message.tool_calls[0]  # type: ignore[index]
    messages.append({"role": "assistant", "content": None, "tool_calls": [
        {"id": call.id, "type": "function", "function": {"name": call.function.name,  # type: ignore[union-attr]
                                                          "arguments": call.function.arguments}}]})  # type: ignore
    messages.append({"role": "tool", "tool_call_id": call.id, "content": "18 C, sunny"})
    client.chat.completions.create(model="gpt-4o", messages=messages, tools=OPENAI_TOOLS,  # type: ignore
                                   tool_choice="auto")


def _agent_anthropic(base_url: str, tools: list[dict[str, Any]], first_choice: dict[str, Any]) -> None:
    import anthropic

    client = anthropic.Anthropic(api_key="sk-ant-test-recorder", base_url=base_url, max_retries=0)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Weather in San Francisco?"}]
    first = client.messages.create(model="claude-haiku-4-5", max_tokens=2048, system=SYSTEM, messages=messages,  # type: ignore
                                   tools=tools, tool_choice=first_choice)  # type: ignore
    use = next(b for b in first.content if b.type == "tool_use")
    # the assistant turn goes back whole (thinking blocks with their signatures, as the API requires)
    messages.append({"role": "assistant", "content": [_block(b) for b in first.content]})
    messages.append({"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id,  # type: ignore
                                                  "content": "18 C, sunny"}]})
    client.messages.create(model="claude-haiku-4-5", max_tokens=2048, system=SYSTEM, messages=messages,  # type: ignore
                           tools=tools, tool_choice={"type": "auto"})  # type: ignore


def _one_response(base_url: str) -> None:
    """One Responses API call (the stand-in answers with a recorded function_call)."""
    import openai

    client = openai.OpenAI(api_key="sk-test-recorder", base_url=base_url, max_retries=0)
    tool = {"type": "function", "name": "get_weather", "description": "Weather in a city", "strict": False,
            "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}}
    client.responses.create(model="gpt-4.1", instructions=SYSTEM, input=[{"role": "user", "content": "Weather?"}],
                            tools=[tool], tool_choice={"type": "function", "name": "get_weather"})  # type: ignore


def _with_history(base_url: str) -> None:
    """One Messages call whose history holds two parallel calls, their results (one as content blocks) and a
    user text in the same turn; tool_choice auto with parallel tool use disabled."""
    import anthropic

    client = anthropic.Anthropic(api_key="sk-ant-test-recorder", base_url=base_url, max_retries=0)
    client.messages.create(model="claude-haiku-4-5", max_tokens=256, tools=ANTHROPIC_TOOLS, messages=[  # type: ignore
        {"role": "user", "content": "Weather in SF and NYC?"},
        {"role": "assistant", "content": [{"type": "text", "text": "Checking both."},
                                          {"type": "tool_use", "id": "t1", "name": "weather", "input": {"location": "SF"}},
                                          {"type": "tool_use", "id": "t2", "name": "weather", "input": {"location": "NYC"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "18 C"},
                                     {"type": "tool_result", "tool_use_id": "t2",
                                      "content": [{"type": "text", "text": "5 C"}]},
                                     {"type": "text", "text": "Thanks"}]}],
        tool_choice={"type": "auto", "disable_parallel_tool_use": True})  # type: ignore


GEMINI_TEXT = {"candidates": [{"content": {"parts": [{"text": "It is 18 C and sunny."}], "role": "model"},
                               "finishReason": "STOP", "index": 0}],
               "usageMetadata": {"promptTokenCount": 40, "candidatesTokenCount": 8, "totalTokenCount": 48},
               "modelVersion": "gemini-3-pro-preview"}


def _agent_gemini(base_url: str) -> None:
    """google-genai: step 1 mode ANY (answered with a recorded functionCall carrying a thoughtSignature), the
    model turn sent back whole, then the function response and mode AUTO."""
    from google import genai
    from google.genai import types

    client = genai.Client(api_key="test-key-recorder", http_options=types.HttpOptions(base_url=base_url))
    tool = types.Tool(function_declarations=[types.FunctionDeclaration(
        name="weather", description="Weather at a location",
        parameters_json_schema={"type": "object", "properties": {"location": {"type": "string"}},
                                "required": ["location"]})])

    def config(mode: str) -> Any:
        return types.GenerateContentConfig(system_instruction=SYSTEM, tools=[tool], tool_config=types.ToolConfig(
            function_calling_config=types.FunctionCallingConfig(mode=mode)))  # type: ignore[arg-type]

    contents = [types.Content(role="user", parts=[types.Part(text="Weather in San Francisco?")])]
    first = client.models.generate_content(model="gemini-3-pro-preview", contents=contents, config=config("ANY"))
    contents.append(first.candidates[0].content)  # type: ignore[index,arg-type]
    contents.append(types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(
        name="weather", response={"result": "18 C, sunny"}))]))
    client.models.generate_content(model="gemini-3-pro-preview", contents=contents, config=config("AUTO"))


def _block(block: Any) -> dict[str, Any]:
    if block.type == "thinking":
        return {"type": "thinking", "thinking": block.thinking, "signature": block.signature}
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    return {"type": "text", "text": block.text}


THINKING_TOOLS = [{"name": "checkSandboxErrors", "description": "Check the sandbox for errors",
                   "input_schema": {"type": "object", "properties": {}}}]


def record(kind: str, runs: int = 1, parent: bool = False) -> dict[str, Any]:
    """``runs`` agent runs (each in an "agent" parent span when ``parent``), recorded by ``kind``.
    ``openinference-anthropic-thinking``: step 1's reply is a recorded thinking block (with its signature)
    and a tool_use (tests/data/responses/reasoning/anthropic-thinking-tool-use.json)."""
    provider, exporter = _provider()
    thinking = kind.endswith("-thinking")
    kind = kind.removesuffix("-thinking")
    responses = kind.endswith("-responses")
    kind = kind.removesuffix("-responses")
    history = kind.endswith("-history")
    kind = kind.removesuffix("-history")
    family = "anthropic" if kind.endswith("anthropic") else "gemini" if kind.endswith("genai") else "openai"
    if kind == "openinference-openai":
        from openinference.instrumentation.openai import OpenAIInstrumentor as Instrumentor
    elif kind == "openinference-anthropic":
        from openinference.instrumentation.anthropic import AnthropicInstrumentor as Instrumentor  # type: ignore
    elif kind == "otel-openai-v2":
        os.environ.setdefault("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")
        from opentelemetry.instrumentation.openai_v2 import OpenAIInstrumentor as Instrumentor  # type: ignore
    elif kind == "openinference-google-genai":
        from openinference.instrumentation.google_genai import GoogleGenAIInstrumentor as Instrumentor  # type: ignore
    elif kind == "otel-openai":
        os.environ.setdefault("TRACELOOP_TRACE_CONTENT", "true")
        from opentelemetry.instrumentation.openai import OpenAIInstrumentor as Instrumentor  # type: ignore
    elif kind == "otel-anthropic":
        os.environ.setdefault("TRACELOOP_TRACE_CONTENT", "true")
        from opentelemetry.instrumentation.anthropic import AnthropicInstrumentor as Instrumentor  # type: ignore
    else:
        raise SystemExit(f"unknown kind {kind}")
    if responses:
        steps = [Step(body=fixture("openai-responses", "openai-responses-function-call"))]
    elif history:
        steps = [Step(body=ANTHROPIC_TEXT)]
    elif family == "gemini":
        steps = [Step(body=fixture("gemini", "gemini-function-call-thought-signature")), Step(body=GEMINI_TEXT)]
    elif family == "openai":
        steps = [Step(body=fixture("openai", "openai-chat-single-strict")), Step(body=OPENAI_TEXT)]
    elif thinking:
        steps = [Step(body=fixture("reasoning", "anthropic-thinking-tool-use")), Step(body=ANTHROPIC_TEXT)]
    else:
        steps = [Step(body=fixture("anthropic", "anthropic-tool-use-only")), Step(body=ANTHROPIC_TEXT)]
    instrumentor = Instrumentor()
    instrumentor.instrument(tracer_provider=provider)
    tracer = provider.get_tracer("agent")
    try:
        with StandIn(family, *(steps * runs)) as server:
            for _ in range(runs):
                with tracer.start_as_current_span("agent run") if parent else _nothing():
                    if responses:
                        _one_response(server.base_url("openai"))
                    elif history:
                        _with_history(server.base_url("anthropic"))
                    elif family == "gemini":
                        _agent_gemini(server.url)
                    elif family == "openai":
                        _agent_openai(server.base_url("openai"))
                    elif thinking:
                        _agent_anthropic(server.base_url("anthropic"), THINKING_TOOLS, {"type": "auto"})
                    else:
                        _agent_anthropic(server.base_url("anthropic"), ANTHROPIC_TOOLS, {"type": "any"})
    finally:
        instrumentor.uninstrument()
    provider.force_flush()
    return otlp_json(exporter.get_finished_spans())


def _nothing() -> Any:
    import contextlib

    return contextlib.nullcontext()


# ---- agent frameworks, recorded by their own or OpenInference's instrumentation (fixtures, not run by the suite) --

FRAMEWORK_KINDS = ("openinference-langchain", "openinference-openai-agents", "openinference-openai-agents-responses",
                   "pydantic-ai")


AGENTS_TOOL = {"type": "function", "name": "get_weather", "description": "Weather in a city", "strict": True,
               "parameters": {"properties": {"city": {"title": "City", "type": "string"},
                                             "state": {"anyOf": [{"type": "string"}, {"type": "null"}],
                                                       "title": "State"}},
                              "required": ["city", "state"], "title": "get_weather_args", "type": "object",
                              "additionalProperties": False}}


def _responses_steps() -> list[Step]:
    """The recorded Responses reply, echoing what openai-agents sends as the API does (its ``tools``,
    ``tool_choice`` and ``instructions``; the model answering gpt-4o): step 1 a function_call (tool_choice "required"), step 2 a text message (none sent: the
    API's default "auto")."""
    call = fixture("openai-responses", "openai-responses-function-call")
    call.update(tools=[AGENTS_TOOL], tool_choice="required", instructions=SYSTEM, model="gpt-4o-2024-08-06")
    call["output"][0].update(arguments='{"city":"San Francisco","state":"CA"}')
    text = {**call, "id": "resp_2", "tool_choice": "auto"}
    text["output"] = [{"id": "msg_2", "type": "message", "status": "completed", "role": "assistant",
                       "content": [{"type": "output_text", "text": "It is 18 C and sunny.", "annotations": []}]}]
    return [Step(body=call), Step(body=text)]


def record_framework(kind: str, out: Path) -> None:
    """A framework's two-step loop against the stand-in, recorded as OTLP/JSON to ``out``, and what the framework
    put on the wire (the stand-in's received bodies) to ``out`` with ``.wire.json`` for its name: the truth the
    imported trace is checked against. These are recorded once into tests/data/traces/ (SOURCES.md there)."""
    provider, exporter = _provider()
    responses = kind.endswith("-responses")
    kind = kind.removesuffix("-responses")
    steps = (_responses_steps() if responses else [Step(body=fixture("openai", "openai-chat-single-strict")), Step(body=OPENAI_TEXT)])
    undo: Any = None
    with StandIn("openai", *steps) as server:
        base = server.base_url("openai")
        if kind == "openinference-langchain":
            from openinference.instrumentation.langchain import LangChainInstrumentor

            undo = LangChainInstrumentor()
            undo.instrument(tracer_provider=provider)
            _langchain_loop(base)
        elif kind == "openinference-openai-agents":
            from openinference.instrumentation.openai_agents import OpenAIAgentsInstrumentor

            undo = OpenAIAgentsInstrumentor()
            undo.instrument(tracer_provider=provider)  # exclusive: the processor that exports to OpenAI is set aside
            _agents_loop(base, responses)
        elif kind == "pydantic-ai":
            _pydantic_ai_loop(base, provider)
        else:
            raise SystemExit(f"unknown kind {kind}")
        bodies = [r.json for r in server.requests]
    if undo is not None:
        undo.uninstrument()
    provider.force_flush()
    out.write_text(json.dumps(otlp_json(exporter.get_finished_spans()), indent=1), encoding="utf-8")
    out.with_name(out.name.removesuffix(".json") + ".wire.json").write_text(json.dumps(bodies, indent=1),
                                                                           encoding="utf-8")


def _langchain_loop(base_url: str) -> None:
    """ChatOpenAI.bind_tools: step 1 forces get_weather, step 2 (the result sent back) binds the tools alone."""
    from langchain_core.messages import HumanMessage, SystemMessage, ToolMessage
    from langchain_openai import ChatOpenAI

    model = ChatOpenAI(model="gpt-4o", base_url=base_url, api_key="sk-test-recorder", max_retries=0)
    history: list[Any] = [SystemMessage(SYSTEM), HumanMessage("Weather in San Francisco?")]
    called = model.bind_tools(OPENAI_TOOLS, tool_choice="get_weather").invoke(history)
    history += [called, ToolMessage("18 C, sunny", tool_call_id=called.tool_calls[0]["id"])]
    model.bind_tools(OPENAI_TOOLS).invoke(history)


def _agents_loop(base_url: str, responses: bool = False) -> None:
    """openai-agents with tool_choice "required" (reset after the call, its default) on Chat Completions, or on
    the Responses API (its default model)."""
    from agents import (Agent, ModelSettings, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner,
                        function_tool)
    from openai import AsyncOpenAI

    @function_tool
    def get_weather(city: str, state: str | None = None) -> str:
        """Weather in a city"""
        return "18 C, sunny"

    client = AsyncOpenAI(base_url=base_url, api_key="sk-test-recorder", max_retries=0)
    agent = Agent(name="weather", instructions=SYSTEM, tools=[get_weather],
                  model=(OpenAIResponsesModel if responses else OpenAIChatCompletionsModel)("gpt-4o", client),
                  model_settings=ModelSettings(tool_choice="required"))
    Runner.run_sync(agent, "Weather in San Francisco?", max_turns=4)


def _pydantic_ai_loop(base_url: str, provider: Any) -> None:
    """pydantic-ai's own instrumentation (InstrumentationSettings, its default data format)."""
    from pydantic_ai import Agent
    from pydantic_ai.models.instrumented import InstrumentationSettings
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    model = OpenAIChatModel("gpt-4o", provider=OpenAIProvider(base_url=base_url, api_key="sk-test-recorder"))
    agent = Agent(model, instructions=SYSTEM)
    agent.instrument = InstrumentationSettings(tracer_provider=provider)

    @agent.tool_plain
    def get_weather(city: str, state: str | None = None) -> str:
        """Weather in a city"""
        return "18 C, sunny"

    agent.run_sync("Weather in San Francisco?")


# ---- agent frameworks through `toolchoice proxy` in front of `toolchoice mock` (fixtures, not run by the suite) ----

PROXY_FRAMEWORK_KINDS = ("openinference-smolagents", "openinference-smolagents-default", "openinference-haystack",
                         "openinference-agno")
# step 1 two parallel calls of get_weather; smolagents then calls final_answer (its "required" forbids text), the
# others answer text at step 2 (their forced choice disobeyed, as a model may)
PROXY_SCRIPTS = {"openinference-smolagents": "replies:\n  - calls: [{name: get_weather}, {name: get_weather}]\n"
                                             "  - {call: final_answer}\n",
                 "openinference-haystack": "replies:\n  - calls: [{name: get_weather}, {name: get_weather}]\n"
                                           "steps:\n  2: {disobey: true}\n",
                 "openinference-agno": "replies:\n  - calls: [{name: get_weather}, {name: get_weather}]\n"
                                       "steps:\n  2: {disobey: true}\n"}
NAMED = {"type": "function", "function": {"name": "get_weather"}}


def record_through_proxy(kind: str, out: Path) -> None:
    """A framework's tool-calling agent against ``toolchoice mock`` (PROXY_SCRIPTS) through ``toolchoice proxy
    --save``, recorded by its OpenInference instrumentation: the trace to ``out``, the request bodies as the proxy
    received them to ``OUT.wire.json`` and the proxy's jsonl lines (its reading of each step) to ``OUT.proxy.json``.
    Recorded once into tests/data/traces/ (SOURCES.md there); the suite reads them."""
    import tempfile
    import time

    from toolchoice.providers.core.mock.proxy import ProxyHandler
    from toolchoice.providers.core.mock.script import load_script
    from toolchoice.providers.core.mock.server import Running, Server, running_mock

    os.environ["HAYSTACK_TELEMETRY_ENABLED"] = "False"  # read when haystack is imported
    os.environ["AGNO_TELEMETRY"] = "false"
    provider, exporter = _provider()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "steps.yaml").write_text(PROXY_SCRIPTS[kind.removesuffix("-default")], encoding="utf-8")
        (folder / "saved").mkdir()
        with running_mock("openai", script=load_script(folder / "steps.yaml")) as upstream:
            handler = ProxyHandler("openai", upstream.base_url, folder / "saved")
            with Running(Server(handler, bad_request=handler.service.error), handler.module) as proxy:
                undo = _framework_agent(kind, proxy.base_url, provider)
                deadline = time.monotonic() + 5
                while len(proxy.records) < len(upstream.records) and time.monotonic() < deadline:
                    time.sleep(0.01)
                lines = list(proxy.records)
        undo.uninstrument()
        bodies = [json.loads(p.read_text(encoding="utf-8"))["body"]
                  for p in sorted((folder / "saved").glob("sample-*.request.json"))]
    provider.force_flush()
    out.write_text(json.dumps(otlp_json(exporter.get_finished_spans()), indent=1), encoding="utf-8")
    stem = out.name.removesuffix(".json")
    out.with_name(stem + ".wire.json").write_text(json.dumps(bodies, indent=1), encoding="utf-8")
    out.with_name(stem + ".proxy.json").write_text(json.dumps(lines, indent=1), encoding="utf-8")


def _framework_agent(kind: str, base_url: str, provider: Any) -> Any:
    """Instrument, run the agent once, return the instrumentor (to uninstrument)."""
    key = "sk-test-recorder"
    if kind.startswith("openinference-smolagents"):
        from openinference.instrumentation.smolagents import SmolagentsInstrumentor
        from smolagents import OpenAIModel, ToolCallingAgent, tool

        @tool
        def get_weather(city: str) -> str:
            """The weather in a city.

            Args:
                city: the city's name
            """
            return "18 C, sunny"

        undo: Any = SmolagentsInstrumentor()
        undo.instrument(tracer_provider=provider)
        # the agent has no tool_choice parameter: it sends "required" at every step, unless the model's own
        # keyword arguments say otherwise (here "required" too; -default: none given)
        settings = {} if kind.endswith("-default") else {"tool_choice": "required"}
        model = OpenAIModel("gpt-4o-mini", api_base=base_url, api_key=key, client_kwargs={"max_retries": 0},
                            **settings)
        ToolCallingAgent(tools=[get_weather], model=model, max_steps=3, verbosity_level=0).run("Weather in Paris?")
    elif kind == "openinference-haystack":
        # imported first: the instrumentor wraps the run methods of the components registered when it starts
        from haystack.components.agents import Agent
        from haystack.components.generators.chat import OpenAIChatGenerator
        from haystack.dataclasses import ChatMessage
        from haystack.tools import create_tool_from_function
        from haystack.utils import Secret
        from openinference.instrumentation.haystack import HaystackInstrumentor

        undo = HaystackInstrumentor()
        undo.instrument(tracer_provider=provider)

        def get_weather(city: str) -> str:
            """The weather in a city."""
            return "18 C, sunny"

        generator = OpenAIChatGenerator(api_key=Secret.from_token(key), model="gpt-4o-mini", api_base_url=base_url,
                                        generation_kwargs={"tool_choice": NAMED}, max_retries=0)
        agent = Agent(chat_generator=generator, tools=[create_tool_from_function(get_weather)], max_agent_steps=3,
                      system_prompt=SYSTEM)
        agent.run(messages=[ChatMessage.from_user("Weather in Paris?")])
    elif kind == "openinference-agno":
        from agno.agent import Agent as AgnoAgent
        from agno.models.openai import OpenAIChat
        from openinference.instrumentation.agno import AgnoInstrumentor

        def get_weather(city: str) -> str:
            """The weather in a city.

            Args:
                city: the city's name
            """
            return "18 C, sunny"

        undo = AgnoInstrumentor()
        undo.instrument(tracer_provider=provider)
        model = OpenAIChat(id="gpt-4o-mini", base_url=base_url, api_key=key, max_retries=0)
        AgnoAgent(model=model, tools=[get_weather], tool_choice="required", telemetry=False,
                  instructions=SYSTEM).run("Weather in Paris?")
    else:
        raise SystemExit(f"unknown kind {kind}")
    return undo


if __name__ == "__main__" and sys.argv[1] == "many":
    for kind, out, runs, parent in json.loads(sys.argv[2]):
        Path(out).write_text(json.dumps(record(kind, runs, parent=parent), indent=1), encoding="utf-8")
elif __name__ == "__main__" and sys.argv[1] in PROXY_FRAMEWORK_KINDS:
    record_through_proxy(sys.argv[1], Path(sys.argv[2]))
elif __name__ == "__main__" and sys.argv[1] in FRAMEWORK_KINDS:
    record_framework(sys.argv[1], Path(sys.argv[2]))
elif __name__ == "__main__" and sys.argv[1] == "otel-openai-v2-events":
    record_events(Path(sys.argv[2]))
elif __name__ == "__main__":
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    data = record(sys.argv[1], runs, parent=len(sys.argv) > 4 and sys.argv[4] == "parent")
    Path(sys.argv[2]).write_text(json.dumps(data, indent=1), encoding="utf-8")
