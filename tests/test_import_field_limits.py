"""`toolchoice tools` and a scenario's `from:` warn of the field limits the APIs' sources state, as they warn of tool
counts (import.over_limit), from the same capability rows render and send refuse with (core/body_limits.py).

Truth from outside the code (2026-11-26): Azure OpenAI refuses a function description over 1024 characters
("Expected a string with maximum length 1024", langchain-ai/open_deep_research#80); OpenAI Chat Completions was
recorded refusing it until 2025-04 (getsentry/sentry-mcp#106) and found taking 36,000 characters in 2025-05
(run-llama/llama_index#18784): a warning since 2026-11-27; Anthropic refuses more than 20 strict tools in one request ("The maximum number of
strict tools supported is 20", datarobot-oss/datarobot-genai#547; the structured-outputs page's "Strict tools per
request | 20"); Cohere's docs allow 200 fields across the tools with strict_tools (a warning there too).

In-process: files in tmp_path, the listing as data (no server).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from toolchoice.providers.core.tool_import import import_file, import_listing

EMPTY = {"type": "object", "properties": {}}


def over(notes: Any) -> list[str]:
    return [n.message for n in notes if n.code == "import.over_limit"]


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_description_past_1024_characters_warns_naming_the_apis_that_state_it(tmp_path: Path) -> None:
    tools = [{"name": "short", "description": "d", "inputSchema": EMPTY},
             {"name": "long", "description": "x" * 1025, "inputSchema": EMPTY}]
    found = over(import_file(write(tmp_path, {"tools": tools}), shown="tools.json").notes)
    # OpenAI's limit is a warning since 2026-11-27, Azure's since 2026-11-28 (its newest recorded 400 is of 2025-04-23,
    # fact azure.description_limit): one warning names both, and neither is said to refuse it
    assert len(found) == 1
    warned = found[0]
    assert "tool 'long'" in warned and "1025 characters" in warned and "at most 1024" in warned
    assert "Azure OpenAI" in warned and "OpenAI Chat Completions" in warned and "may refuse" in warned
    assert "azure.description_limit" in warned and "openai.description_limit" in warned
    assert all("Anthropic" not in text and "Gemini" not in text for text in found)
    tools[1]["description"] = "x" * 1024
    assert not over(import_file(write(tmp_path, {"tools": tools}), shown="tools.json").notes)


def test_each_tool_past_a_limit_is_named(tmp_path: Path) -> None:
    tools = [{"name": f"t{i}", "description": "x" * 2000, "inputSchema": EMPTY} for i in range(3)]
    found = over(import_file(write(tmp_path, {"tools": tools}), shown="tools.json").notes)
    assert all(any(f"'t{i}'" in text for text in found) for i in range(3))


def test_more_than_20_strict_tools_warn_of_anthropics_limit(tmp_path: Path) -> None:
    closed = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
              "additionalProperties": False}
    tools = [{"name": f"t{i}", "input_schema": closed, "strict": True} for i in range(21)]
    found = over(import_file(write(tmp_path, tools), shown="tools.json").notes)
    assert len(found) == 1 and "21 strict tools" in found[0] and "more than 20" in found[0]
    assert "Anthropic Messages" in found[0] and "anthropic.strict_tool_limit" in found[0]
    assert not over(import_file(write(tmp_path, tools[:20]), shown="tools.json").notes)


def test_an_mcp_listing_warns_of_a_long_description() -> None:
    listing = {"tools": [{"name": "long", "description": "x" * 1100, "inputSchema": EMPTY}]}
    found = over(import_listing(listing, "mcp: server").notes)
    assert len(found) == 1 and all("tool 'long'" in text and "1100 characters" in text for text in found)


def test_every_row_with_body_limits_has_a_body_the_importer_measures_on() -> None:
    """A new body limit is warned of at import too, or this fails: its row's module says its tools' form."""
    from toolchoice.providers.core.capabilities import CAPABILITIES
    from toolchoice.providers.core.tool_import_limits import body_for

    assert all(body_for(pid, ()) is not None for pid, row in CAPABILITIES.items() if row.body_limits)
