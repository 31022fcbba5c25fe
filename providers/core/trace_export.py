"""``run --trace-out FILE`` / ``send --trace-out FILE``: toolchoice's own records as an OTLP/JSON trace.

One span per step (per sample for ``send``), following the OpenTelemetry GenAI conventions
(https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/): ``gen_ai.operation.name`` "chat",
``gen_ai.provider.name``, ``gen_ai.request.model``, usage and finish reasons, and — unless content capture is
switched off with ``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=false`` (or ``NO_CONTENT``) —
``gen_ai.system_instructions``, ``gen_ai.input.messages``, ``gen_ai.output.messages`` and
``gen_ai.tool.definitions`` as JSON text. toolchoice's own: ``toolchoice.tool_choice.requested`` (the neutral
spelling, ``unset`` when none), ``toolchoice.tool_choice.effective`` (the value on the wire),
``toolchoice.verdict`` (the verdict's category) and ``toolchoice.provider`` (the exact provider id).

The document is the protobuf JSON mapping of ``ExportTraceServiceRequest`` as OTLP/JSON writes it: trace and
span ids in hex, enums as integers, 64-bit integers as decimal strings. Built as plain data (no OpenTelemetry
package at run time); tests parse it with opentelemetry-proto. Written through the transport's redaction, so
no key reaches the file; headers are never in it.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any, Iterable

from .model import Message, Reply, Scenario, Tool, Translation, word_or_json

# toolchoice id → gen_ai.provider.name well-known value (OTel GenAI registry); ids it does not list stay as they are
GENAI_NAMES = {"openai": "openai", "openai-responses": "openai", "azure": "azure.ai.openai", "anthropic": "anthropic",
               "bedrock": "aws.bedrock", "gemini": "gcp.gemini", "mistral": "mistral_ai", "groq": "groq",
               "deepseek": "deepseek", "cohere": "cohere", "xai": "x_ai"}
SPAN_KIND_CLIENT = 3  # opentelemetry.proto.trace.v1.Span.SpanKind
STATUS_ERROR = 2  # Status.StatusCode; UNSET (0) is the default and not written
_OFF = ("false", "0", "no", "no_content", "off")


def content_captured(environ: Any = None) -> bool:
    """Content (messages, tool definitions) goes in unless the OTel GenAI switch turns it off."""
    value = (environ if environ is not None else os.environ).get("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT")
    return value is None or value.strip().lower() not in _OFF


def new_id(size: int) -> str:
    return os.urandom(size).hex()


def _value(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, (list, tuple)):
        return {"arrayValue": {"values": [_value(v) for v in value]}}
    return {"stringValue": str(value)}


def _attributes(values: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"key": k, "value": _value(v)} for k, v in values.items() if v is not None]


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def request_model(translation: Translation, scenario: Scenario) -> str | None:
    """The model the request asks for: the body's, else the one in the URL (Gemini, Bedrock, an Azure
    deployment), else the settings'."""
    request = translation.request
    if request is not None:
        model = request.body.get("model") if isinstance(request.body, dict) else None
        if isinstance(model, str):
            return model
        found = re.search(r"/(?:models?|deployments)/([^/:?]+)", request.url)  # Gemini, Bedrock; Azure's deployment
        if found:
            from urllib.parse import unquote

            return unquote(found.group(1))
    settings = scenario.settings_for(translation.provider)
    return settings.model or settings.deployment


def _parts_message(m: Message) -> dict[str, Any]:
    """A history message in gen_ai.input.messages form (role + parts)."""
    if m.role == "tool":
        return {"role": "tool", "parts": [{"type": "tool_call_response", "id": m.tool_call_id,
                                           "response": m.content if m.content is not None else ""}]}
    return {"role": m.role, "parts": _parts(m.reasoning, m.content,
                                            [(call.id, call.name, call.arguments) for call in m.tool_calls])}


def _parts(reasoning: Any, text: str | None, calls: list[tuple[Any, str, Any]]) -> list[dict[str, Any]]:
    """gen_ai message parts in the conventions' order: reasoning text, text, then tool calls."""
    parts: list[dict[str, Any]] = [{"type": "reasoning", "content": item.text} for item in reasoning
                                   if item.text is not None]
    if text:
        parts.append({"type": "text", "content": text})
    parts.extend({"type": "tool_call", "id": i, "name": name, "arguments": arguments} for i, name, arguments in calls)
    return parts


def _output_message(reply: Reply) -> dict[str, Any]:
    parts = _parts(reply.reasoning, reply.text,
                   [(call.id, call.name, call.arguments if call.arguments is not None
                     else (call.input or call.raw_arguments)) for call in reply.tool_calls])
    return {"role": "assistant", "parts": parts, "finish_reason": reply.finish_reason or ""}


def _tool_definition(tool: Tool) -> dict[str, Any]:
    if tool.kind == "custom":
        data: dict[str, Any] = {"type": "custom", "name": tool.name}
        if tool.format is not None:
            data["format"] = dict(tool.format)
    else:
        data = {"type": "function", "name": tool.name, "parameters": tool.schema()}
    if tool.description is not None:
        data["description"] = tool.description
    if tool.strict is not None:  # as the Responses function tool carries it; trace import reads it back
        data["strict"] = tool.strict
    return data


def span(trace_id: str, scenario: Scenario, translation: Translation, sample: Any, end_ns: int,
         content: bool, skipped: str | None = None, parent: str = "") -> dict[str, Any]:
    """One chat span: the step's (or sample's) scenario, request, reply and verdict."""
    provider = translation.provider
    model = request_model(translation, scenario)
    choice = scenario.tool_choice
    reply = sample.reply if sample is not None else None
    values: dict[str, Any] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": GENAI_NAMES.get(provider, provider),
        "gen_ai.request.model": model,
        "toolchoice.provider": provider,
        "toolchoice.tool_choice.requested": "unset" if choice is None else word_or_json(choice.to_json()),
        "toolchoice.tool_choice.effective": (None if translation.effective_tool_choice is None
                                             else word_or_json(translation.effective_tool_choice)),
        "toolchoice.verdict": (sample.verdict or {}).get("category") if sample is not None else "error",
    }
    if scenario.parallel_tool_calls is not None:
        values["toolchoice.parallel_tool_calls"] = scenario.parallel_tool_calls
    if reply is not None:
        values["gen_ai.usage.input_tokens"] = reply.usage.input_tokens
        values["gen_ai.usage.output_tokens"] = reply.usage.output_tokens
        if reply.finish_reason:
            values["gen_ai.response.finish_reasons"] = [reply.finish_reason]
    if content:
        if scenario.system:
            values["gen_ai.system_instructions"] = _text([{"type": "text", "content": scenario.system}])
        values["gen_ai.input.messages"] = _text([_parts_message(m) for m in scenario.messages])
        # hosted tools as the scenario wrote them (their secrets are $NAME references there): a trace importer
        # that cannot take them says so, where leaving them out lost them without a word (a trial)
        values["gen_ai.tool.definitions"] = _text([*(_tool_definition(t) for t in scenario.tools),
                                                   *({"type": t.kind, **t.fields} for t in scenario.native_tools)])
        if reply is not None and reply.error is None:
            values["gen_ai.output.messages"] = _text([_output_message(reply)])
    error = skipped
    if error is None and reply is not None and reply.error is not None:
        error = reply.error.one_line(provider)
    if error is not None:
        values["error.type"] = (reply.error.type if reply is not None and reply.error is not None and reply.error.type
                                else "toolchoice.error")
    data: dict[str, Any] = {
        "traceId": trace_id, "spanId": new_id(8), "name": f"chat {model}" if model else "chat",
        "kind": SPAN_KIND_CLIENT, "startTimeUnixNano": str(end_ns - _latency_ns(sample)),
        "endTimeUnixNano": str(end_ns), "attributes": _attributes(values),
        "status": {"code": STATUS_ERROR, "message": error} if error is not None else {},  # unset: the default
    }
    if parent:
        data["parentSpanId"] = parent
    return data


def document(spans: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The ExportTraceServiceRequest holding ``spans`` (one resource, one scope)."""
    from .version import __version__

    resource = {"attributes": _attributes({"service.name": "toolchoice", "telemetry.sdk.name": "toolchoice",
                                           "telemetry.sdk.language": "python"})}
    return {"resourceSpans": [{"resource": resource, "scopeSpans": [
        {"scope": {"name": "toolchoice", "version": __version__}, "spans": list(spans)}]}]}


def loops_document(runs: list[Any], ended_at: dict[tuple[str, int, int], int],
                   content: bool | None = None) -> dict[str, Any]:
    """Every loop of ``run`` as one trace, one span per step (in step order). A step's span ends when the step
    ended and lasts its latency; a step never starts before the one before it ended (a replay answers every step
    at once with the recorded latencies: its spans are laid back to back, ending when the last step ended), so a
    reader that orders spans by their start, as ``toolchoice trace`` does, reads the steps in order."""
    content = content_captured() if content is None else content
    spans = []
    now = time.time_ns()
    for run in runs:
        trace_id = new_id(16)
        ends: list[int] = []
        following = None  # the start of the step after this one
        for record in reversed(run.steps):
            end = ended_at.get((run.provider, run.index, record.number), now)
            end = end if following is None else min(end, following)
            ends.append(end)
            following = end - _latency_ns(record.sample)
        for record, end in zip(run.steps, reversed(ends)):
            spans.append(span(trace_id, record.scenario, record.translation, record.sample, end, content,
                              record.skipped))
    return document(spans)


def _latency_ns(sample: Any) -> int:
    latency = sample.latency_ms if sample is not None and sample.latency_ms is not None else 0.0
    return int(latency * 1_000_000)


def samples_document(items: list[tuple[Scenario, Translation, Any, int]], content: bool | None = None) -> dict[str, Any]:
    """``send``'s samples: (scenario, translation, sample, end time) each a span, one trace per scenario."""
    content = content_captured() if content is None else content
    traces: dict[int, str] = {}
    spans = []
    for scenario, translation, sample, end in items:
        trace_id = traces.setdefault(id(scenario), new_id(16))
        spans.append(span(trace_id, scenario, translation, sample, end, content))
    return document(spans)


class SampleTrace:
    """``send``'s trace (``jobs.send(trace_out=...)``, made by ``call_args.sample_trace``): the samples one or more
    sends added (``add``: each as it completes, with the keys it was sent with; ``jobs.send`` adds the first
    ``runner.RESULTS_KEPT`` of them all), one trace per scenario; ``write``: them as one document to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.items: list[tuple[Scenario, Translation, Any, int]] = []
        self.secrets: dict[str, str] = {}

    def add(self, scenario: Scenario, translation: Translation, sample: Any, secrets: dict[str, str]) -> None:
        self.items.append((scenario, translation, sample, time.time_ns()))
        self.secrets.update(secrets)

    def write(self) -> None:
        write_document(self.path, samples_document(self.items), self.secrets)


def write_document(path: Path, data: dict[str, Any], secrets: dict[str, str]) -> None:
    """The document, every key redacted (the ones sent, and every provider key set in the environment), written
    whole or not at all."""
    from .errors import ArgumentError, argument_error
    from .model import ToolchoiceError
    from .redaction import Redactor, environment_secrets, visible_json

    from .save import write_atomic

    found = environment_secrets(os.environ)
    found.update(secrets)  # what json.dumps leaves raw (DEL, C1 controls, bidi controls) escaped as -f json's are:
    text = visible_json(json.dumps(Redactor(found).data(data), ensure_ascii=False)) + "\n"  # /dev/stdout, a tty
    try:  # a random O_EXCL name beside it (never a link planted at a name known in advance), a lone surrogate as
        write_atomic(path, text, "trace_out")  # its JSON escape
    except ArgumentError as exc:  # still the argument's (the command line names --trace-out), with the hint changed
        raise argument_error("trace_out", exc.said, "name a writable file") from None
    except ToolchoiceError as exc:
        raise ToolchoiceError(exc.message, hint="name a writable file") from None
