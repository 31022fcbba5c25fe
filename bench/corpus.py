"""The translation corpus: real tool schemas (tests/data/schemas) × several tool_choice values.

Each schema file becomes one tool set; each tool set is crossed with the tool_choice values below.
The same cases are produced twice: as toolchoice Scenarios (through the real loader) and as
OpenAI-format chat requests (tools / tool_choice / messages) for LiteLLM's transformations.

BFCL function docs use their own type names ("dict", "float", "tuple", "any", ...). Before sending
them to a native tools API, BFCL itself maps them to JSON Schema types with its GORILLA_TO_OPENAPI
table (bfcl_eval/constants/type_mappings.py, ShishirPatil/gorilla, Apache-2.0) and replaces "." in
function names with "_" (OpenAI-style name rules); the library's ``bfcl_schema`` (the same table, in
toolchoice.providers.core.tool_import_schemas) and ``wire_name`` apply the same facts, so both sides translate the schemas the leaderboard actually sends and every request is built.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolchoice.providers.core.tool_import_schemas import bfcl_schema

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "tests" / "data" / "schemas"

# One model per provider id, used by both toolchoice and LiteLLM; azure and bedrock need their location.
PROVIDER_SETTINGS: dict[str, dict[str, Any]] = {
    "openai": {"model": "gpt-4o-mini"},
    "openai-responses": {"model": "gpt-4o-mini"},
    "anthropic": {"model": "claude-sonnet-4-5", "max_tokens": 1024},
    "gemini": {"model": "gemini-2.5-flash"},
    "mistral": {"model": "mistral-small-latest"},
    "groq": {"model": "llama-3.3-70b-versatile"},
    "deepseek": {"model": "deepseek-chat"},
    "ollama": {"model": "llama3.1"},
    "bedrock": {"model": "anthropic.claude-3-5-sonnet-20240620-v1:0", "region": "us-east-1"},
    "cohere": {"model": "command-r7b-12-2024"},
    "azure": {"model": "gpt-4o-mini", "endpoint": "https://bench.openai.azure.com", "deployment": "gpt-4o-mini"},
    "fireworks": {"model": "accounts/fireworks/models/llama-v3p1-8b-instruct"},
    "together": {"model": "meta-llama/Llama-3.3-70B-Instruct-Turbo"},
    "openrouter": {"model": "openai/gpt-4o-mini"},
    "xai": {"model": "grok-3"},
    "cerebras": {"model": "llama-3.3-70b"},
    "sambanova": {"model": "Meta-Llama-3.3-70B-Instruct"},
    "vllm": {"model": "meta-llama/Llama-3.1-8B-Instruct"},
    "llamacpp": {"model": "llama-3.1-8b-instruct"},
    "huggingface": {"model": "meta-llama/Llama-3.3-70B-Instruct"},
}

# The one Chat Completions request the range benchmarks hand MockService.handle (bench/range_cost.py,
# bench/range_instructions.py): the same bytes on both sides of a comparison.
MOCK_CHAT_BODY = json.dumps({"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "weather?"}],
                             "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {
                                 "type": "object", "properties": {"city": {"type": "string"}}}}}],
                             "tool_choice": "auto"}).encode()
SYSTEM = "You are a careful assistant. Use the tools when they help."
USER = "Please do what the tools are for, with sensible arguments."


@dataclass(frozen=True)
class Case:
    """One request to translate: a tool set and a neutral tool_choice (scenario YAML spelling)."""

    source: str  # schema file name
    tools: tuple[dict[str, Any], ...]  # {name, description?, parameters}
    tool_choice: Any  # auto | none | required | {tool: NAME} | {allowed: [...], mode: required}
    parallel_tool_calls: bool | None = None

    def scenario_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "tools": list(self.tools), "tool_choice": self.tool_choice, "system": SYSTEM,
            "messages": [{"role": "user", "content": USER}], "providers": PROVIDER_SETTINGS,
        }
        if self.parallel_tool_calls is not None:
            doc["parallel_tool_calls"] = self.parallel_tool_calls
        return doc

    def openai_request(self) -> dict[str, Any]:
        """The same case as an OpenAI chat request (what LiteLLM takes as input)."""
        request: dict[str, Any] = {
            "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": USER}],
            "tools": [{"type": "function", "function": dict(t)} for t in self.tools],
            "tool_choice": openai_tool_choice(self.tool_choice),
        }
        if self.parallel_tool_calls is not None:
            request["parallel_tool_calls"] = self.parallel_tool_calls
        return request


def openai_tool_choice(value: Any) -> Any:
    """Neutral spelling -> OpenAI chat spelling (named: {type: function, ...}; allowed: allowed_tools)."""
    if isinstance(value, dict) and "tool" in value:
        return {"type": "function", "function": {"name": value["tool"]}}
    if isinstance(value, dict) and "allowed" in value:
        tools = [{"type": "function", "function": {"name": n}} for n in value["allowed"]]
        return {"type": "allowed_tools", "allowed_tools": {"mode": value["mode"], "tools": tools}}
    return value


def wire_name(name: str) -> str:
    return name.replace(".", "_")


def tool_sets() -> list[tuple[str, tuple[dict[str, Any], ...]]]:
    """(file name, tools) for every schema file, tools reduced to name/description/parameters."""
    sets = []
    for path in sorted(SCHEMAS.glob("*.json")):
        tools = []
        for tool in json.loads(path.read_text(encoding="utf-8"))["tools"]:
            entry = {"name": wire_name(tool["name"]), "parameters": bfcl_schema(tool.get("parameters") or {})}
            if tool.get("description"):
                entry["description"] = tool["description"]
            tools.append(entry)
        sets.append((path.name, tuple(tools)))
    return sets


def cases() -> list[Case]:
    """Every tool set × auto, none, required, required + parallel false, named, allowed subset."""
    out: list[Case] = []
    for source, tools in tool_sets():
        names = [t["name"] for t in tools]
        choices: list[tuple[Any, bool | None]] = [("auto", None), ("none", None), ("required", None),
                                                   ("required", False), ({"tool": names[-1]}, None)]
        if len(names) > 1:
            choices.append(({"allowed": names[:2], "mode": "required"}, None))
        out.extend(Case(source, tools, choice, parallel) for choice, parallel in choices)
    return out
