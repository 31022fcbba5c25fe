"""Tool definitions from a trace's tool-execution spans, for the tools its LLM spans call but do not define.

openinference-instrumentation-openai-agents (2.6.0, openai-agents 0.24.0 on Chat Completions) records no
``llm.tools`` on its ``generation`` spans; the tool each call ran is a span of kind ``TOOL`` with the
OpenInference attributes ``tool.name``, ``tool.description`` and ``tool.parameters`` ("Parameters of the tool
represented a dictionary JSON string", openinference-semantic-conventions 0.1.42 ``SpanAttributes``). OTel
GenAI's ``execute_tool`` spans carry ``gen_ai.tool.name`` and ``gen_ai.tool.description`` (no parameters;
opentelemetry-semantic-conventions 0.66b2 ``gen_ai_attributes``). A definition read here says what the agent
ran, not what one step offered: the steps' offered tools stay unrecorded.

The same spans hold what each tool returned (OpenInference ``output.value``): smolagents (1.26, recorded by
openinference-instrumentation-smolagents 0.1.43) sends its calls back as assistant text and their results as one
user text ("Observation: ..."), so its LLM spans carry no tool message to pair; its TOOL spans (no call id) are
the only per-call record of the results.
"""

from __future__ import annotations

from typing import Any

from .trace_import import Span


def executed_tools(spans: list[Span], trace_ids: set[str]) -> dict[str, dict[str, Any]]:
    """Tool name → ``{name, description?, parameters?}`` from the tool spans of ``trace_ids`` (first seen first;
    a span with parameters wins over one without)."""
    found: dict[str, dict[str, Any]] = {}
    for span in sorted(spans, key=lambda s: s.start):
        if span.trace_id not in trace_ids:
            continue
        a = span.attributes
        if a.get("openinference.span.kind") == "TOOL":
            name, description, parameters = a.get("tool.name"), a.get("tool.description"), a.get("tool.parameters")
        elif a.get("gen_ai.operation.name") == "execute_tool":
            name, description, parameters = a.get("gen_ai.tool.name"), a.get("gen_ai.tool.description"), None
        else:
            continue
        if not isinstance(name, str) or not name:
            continue
        schema = _object(parameters)
        if name in found and ("parameters" in found[name] or schema is None):
            continue
        tool: dict[str, Any] = {"name": name}
        if isinstance(description, str):
            tool["description"] = description
        if schema is not None:
            tool["parameters"] = schema
        found[name] = tool
    return found


def _object(value: Any) -> dict[str, Any] | None:
    if isinstance(value, str):
        from .bounded import DuplicateKey, TooDeep, json_loads, unique_keys

        try:  # never recurses past the json_depth limit (json's decoder would); a key twice is not read as the last
            value = json_loads(value, object_pairs_hook=unique_keys)
        except (TooDeep, DuplicateKey) as exc:
            from .model import ToolchoiceError

            raise ToolchoiceError(f"a TOOL span's tool.parameters: {exc}", hint="the exporter wrote it so: fix the "
                                  "instrumentation and export the trace again" if isinstance(exc, DuplicateKey)
                                  else "not a trace export") from None
        except ValueError:
            return None
    return value if isinstance(value, dict) and value.get("type") == "object" else None


def tool_outputs(spans: list[Span], trace_ids: set[str]) -> dict[str, list[str]]:
    """Tool name → the ``output.value`` of each of its OpenInference TOOL spans in ``trace_ids``, in start order."""
    found: dict[str, list[str]] = {}
    for span in sorted(spans, key=lambda s: s.start):
        a = span.attributes
        if span.trace_id not in trace_ids or a.get("openinference.span.kind") != "TOOL":
            continue
        name, output = a.get("tool.name"), a.get("output.value")
        if isinstance(name, str) and name and isinstance(output, str):
            found.setdefault(name, []).append(output)
    return found
