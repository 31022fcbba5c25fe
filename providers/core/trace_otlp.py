"""OTLP/JSON trace files → their spans (``trace_import`` reads the LLM calls from them).

A file is the protobuf JSON mapping of ``ExportTraceServiceRequest`` (``{"resourceSpans": [...]}``, as the
collector's file exporter and OTLP/HTTP JSON write it), or one such object per line; lines of an OTLP/JSON logs
export (``{"resourceLogs": [...]}``) join the span their ``gen_ai.*`` event records name. Ids in hex or base64.
Bounded like every input file: ``file_bytes``, ``json_depth`` levels, ``MAX_SPANS`` spans; anything else is one
line naming the file.
"""

from __future__ import annotations

import base64
import binascii
import re
import shlex
from pathlib import Path
from typing import Any, NamedTuple

from .model import ToolchoiceError

MAX_SPANS = 100_000  # spans read from one file; an agent run has tens


class Span(NamedTuple):
    trace_id: str
    span_id: str
    parent_id: str
    name: str
    start: int
    attributes: dict[str, Any]
    events: tuple[tuple[str, dict[str, Any]], ...]
    scope: str


# ---- the file ------------------------------------------------------------------------------------


_SCENARIO_START = (r"(?:[ \t]*(?:#.*)?\n)*(?:name|description|tools|tool_choice|parallel_tool_calls|strict|system|"
                   r"messages|providers|loop):")


def read_spans(path: Path) -> list[Span]:
    """Every span in an OTLP/JSON file. One line naming the file for what is not one."""
    from .bounded import json_documents, read_file, utf8_text

    name = str(path)
    hint = "give an OTLP/JSON trace export, one object or one per line"
    spans: list[Span] = []
    events: dict[str, list[tuple[str, dict[str, Any]]]] = {}
    read = [0]

    def take(line: int, document: Any) -> None:  # as each document is read: a bad one stops the reading there
        read[0] += 1
        where = f"{name}:{line}" if line else name
        if read[0] > MAX_SPANS:  # an export holds a span or more: 8 MB of `{"resourceSpans": []}` lines is 380,000
            raise ToolchoiceError(f"{where}: more than {MAX_SPANS} trace exports (lines), and each holds a span or "
                                  f"more: more than {MAX_SPANS} spans", hint="export one trace")
        logs = isinstance(document, dict) and any(k in document for k in ("resourceLogs", "resource_logs"))
        if not logs and (not isinstance(document, dict)
                         or not any(k in document for k in ("resourceSpans", "resource_spans"))):
            from .input_forms import SAVED, other_form

            if (other := other_form(document)) is not None:  # a HAR, a request body alone: what to make of it
                said = "" if other[0] == SAVED else "; not an OTLP/JSON trace export or a saved request"
                raise ToolchoiceError(f"{where}: {other[0]}{said}", hint=other[1])
            raise ToolchoiceError(f"{where}: not an OTLP/JSON trace export (no resourceSpans)",
                                  hint="export the trace as OTLP/JSON: {\"resourceSpans\": [...]}")
        try:
            if logs:
                _collect_events(document, events)
            else:
                _collect(document, spans)
        except (TypeError, AttributeError, ValueError, KeyError) as exc:
            raise ToolchoiceError(f"{where}: not an OTLP/JSON {'logs' if logs else 'trace'} export ({_reason(exc)})",
                                  hint="spans are resourceSpans[].scopeSpans[].spans[]") from None
        if len(spans) + len(events) > MAX_SPANS:
            raise ToolchoiceError(f"{where}: more than {MAX_SPANS} spans", hint="export one trace")

    # a trace is an input file: the limit every input file has (file_bytes), raised the same way, and a regular file
    # (a device is refused at once); JSON read in one pass, bounded by json_depth, as every JSON file is
    text = utf8_text(read_file(path, "trace", regular_only=True), name, "trace", "JSON", hint)
    if re.match(_SCENARIO_START, text[:100_000]):  # YAML, a scenario's key first (after its comments)
        raise ToolchoiceError(f"{name} is a toolchoice scenario, not a trace",
                              hint=f"a scenario goes to render, send or run (toolchoice run {shlex.quote(name)} -p "
                                   "ID); trace reads a recorded run (OTLP/JSON), a --save folder or a HAR file")
    json_documents(text, name, hint=hint, lines=True, each=take)
    if events:  # events sent through the Logs API belong to the span they name
        spans = [s._replace(events=s.events + tuple(events[s.span_id])) if s.span_id in events else s for s in spans]
    return spans


def _reason(exc: Exception) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0][:120]


def _get(data: dict[str, Any], *names: str) -> Any:
    for n in names:
        if n in data:
            return data[n]
    return None


def _items(value: Any, what: str) -> list[dict[str, Any]]:
    """A repeated field: a list of objects (absent: empty)."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ValueError(f"{what} must be a list of objects")
    return value


def _collect(document: dict[str, Any], spans: list[Span]) -> None:
    for resource in _items(_get(document, "resourceSpans", "resource_spans"), "resourceSpans"):
        scopes = _items(_get(resource, "scopeSpans", "scope_spans", "instrumentationLibrarySpans"), "scopeSpans")
        for scope in scopes:
            info = _get(scope, "scope", "instrumentationLibrary") or {}
            for raw in _items(scope.get("spans"), "spans"):
                events = tuple((str(e.get("name", "")), attributes(e.get("attributes")))
                               for e in _items(raw.get("events"), "events"))
                spans.append(Span(_hex(_get(raw, "traceId", "trace_id"), 16), _hex(_get(raw, "spanId", "span_id"), 8),
                                  _hex(_get(raw, "parentSpanId", "parent_span_id"), 8), str(raw.get("name", "")),
                                  int(_get(raw, "startTimeUnixNano", "start_time_unix_nano") or 0),
                                  attributes(raw.get("attributes")), events, str(info.get("name", ""))))


def _collect_events(document: dict[str, Any], events: dict[str, list[tuple[str, dict[str, Any]]]]) -> None:
    """GenAI events written through the Logs API (opentelemetry-instrumentation-openai-v2 before 2.2): log
    records named ``gen_ai.*`` (``eventName``, or the ``event.name`` attribute), their body's fields as the
    event's attributes, kept per span id."""
    for resource in _items(_get(document, "resourceLogs", "resource_logs"), "resourceLogs"):
        for scope in _items(_get(resource, "scopeLogs", "scope_logs"), "scopeLogs"):
            for record in _items(_get(scope, "logRecords", "log_records"), "logRecords"):
                fields = attributes(record.get("attributes"))
                name = _get(record, "eventName", "event_name") or fields.get("event.name")
                span = _hex(_get(record, "spanId", "span_id"), 8)
                if not isinstance(name, str) or not name.startswith("gen_ai.") or not span:
                    continue
                body = any_value(record.get("body"))
                if isinstance(body, dict):
                    fields.update(body)
                events.setdefault(span, []).append((name, fields))


def _hex(value: Any, size: int) -> str:
    """An id as hex: OTLP/JSON writes hex; protobuf's default mapping writes base64 (read too)."""
    if not value:
        return ""
    text = str(value)
    if len(text) == 2 * size:
        try:
            bytes.fromhex(text)
            return text.lower()
        except ValueError:
            pass
    try:
        return base64.b64decode(text, validate=True).hex()
    except (binascii.Error, ValueError):
        raise ValueError(f"id {text[:40]!r} is neither hex nor base64") from None


def attributes(items: Any) -> dict[str, Any]:
    return {str(item["key"]): any_value(item.get("value")) for item in _items(items, "attributes")}


def any_value(value: Any) -> Any:
    """An OTLP ``AnyValue`` → plain data."""
    if not isinstance(value, dict) or not value:
        return None
    key, inner = next(iter(value.items()))
    if key in ("stringValue", "string_value", "boolValue", "bool_value"):
        return inner
    if key in ("intValue", "int_value"):
        return int(inner)
    if key in ("doubleValue", "double_value"):
        return float(inner)
    if key in ("arrayValue", "array_value"):
        return [any_value(v) for v in (inner or {}).get("values") or []]
    if key in ("kvlistValue", "kvlist_value"):
        return attributes((inner or {}).get("values"))
    if key in ("bytesValue", "bytes_value"):
        return inner
    return None
