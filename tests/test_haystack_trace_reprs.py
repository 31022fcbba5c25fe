"""docs/traces.md, "What is read from haystack's trace, and why not its reprs": the recorded haystack-ai trace
(tests/data/traces/SOURCES.md) holds the tools, the call ids and the results only inside Python reprs in
``input.value`` / ``output.value``; the import reads none of them. Held to the proxy's lines of the same run
(what the mock really made: the ids)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from cli import run_cli

DATA = Path(__file__).resolve().parent / "data" / "traces"
NAME = "openinference-haystack-0.1.46"


def span_values() -> list[str]:
    trace = json.loads((DATA / f"{NAME}.json").read_text(encoding="utf-8"))
    spans = [s for rs in trace["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]
    return [a["value"]["stringValue"] for s in spans for a in s["attributes"]
            if a["key"] in ("input.value", "output.value")]


def test_the_ids_and_results_are_there_only_as_reprs_and_the_import_reads_none_of_them():
    ids = [c["id"] for c in json.loads((DATA / f"{NAME}.proxy.json").read_text(encoding="utf-8"))[0]["calls"]]
    values = "\n".join(span_values())
    for call_id in ids:  # the mock's ids, in the reprs of haystack's ToolCall
        assert f"id='{call_id}'" in values
    assert "ToolCallResult(" in values and "ChatMessage(_role=<ChatRole." in values
    page = " ".join((Path(__file__).resolve().parent.parent / "docs" / "traces.md").read_text().split())
    assert "What is read from haystack's trace, and why not its reprs." in page
    imported = run_cli(["trace", str(DATA / f"{NAME}.json"), "--format", "json"])
    assert imported.returncode == 0, imported.stderr
    assert not any(call_id in imported.stdout for call_id in ids)
    assert "ToolCall" not in imported.stdout and "ChatMessage(" not in imported.stdout


def test_a_tool_s_repr_is_not_python_literal_syntax():
    """The page: a `Tool` repr holds `function=<function ... at 0x...>`, so no literal reader takes it whole."""
    tools = [item for value in span_values() for item in json.loads(value).get("tools", [])
             if isinstance(item, str) and item.startswith("Tool(")]
    assert tools and all("function=<function " in tool for tool in tools)
    for tool in tools:
        with pytest.raises((ValueError, SyntaxError)):
            ast.literal_eval(tool)
