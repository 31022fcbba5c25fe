"""The formats a tool file may be in, and how a file's format is found (one format per file, never guessed).

A provider family's format is its module's ``TOOL_FILE`` (``core/tool_file.py``, reached through the registry); the
ones that are no provider's are declared here: toolchoice's own ``tools:`` list, an MCP ``tools/list`` result, BFCL
function docs. ``tool_list`` finds the entries, ``entry_format`` and ``one_format`` the format they share.
"""

from __future__ import annotations

import functools
from typing import Any

from .tool_file import ToolFile

# BFCL function docs use their own type names. Before sending them to a native tools API, BFCL maps
# them to JSON Schema types with this table: GORILLA_TO_OPENAPI in
# berkeley-function-call-leaderboard/bfcl_eval/constants/type_mappings.py (ShishirPatil/gorilla, Apache-2.0).
BFCL_TYPES: dict[str, str] = {
    "integer": "integer", "number": "number", "float": "number", "double": "number", "string": "string",
    "boolean": "boolean", "bool": "boolean", "array": "array", "list": "array", "tuple": "array",
    "dict": "object", "object": "object", "any": "string", "Any": "string", "byte": "integer",
    "short": "integer", "long": "integer", "Bigint": "integer", "char": "string", "String": "string",
    "ArrayList": "array", "Array": "array", "Queue": "array", "Stack": "array", "HashMap": "object",
    "Hashtable": "object",
}
JSON_TYPES = frozenset(("integer", "number", "string", "boolean", "array", "object", "null"))

# The formats that are no provider family's; each family's is its module's TOOL_FILE (``formats()``).
TOOLCHOICE = ToolFile("toolchoice", "toolchoice tools (name, description, parameters)", "scenario.py's tools:",
                      strict=True, tool_fields=True)
MCP = ToolFile("mcp", "an MCP tools/list result", "mcp-types Tool", marks=lambda entry: "inputSchema" in entry,
               short="MCP", schema_keys=("inputSchema",), schema_required=True,
               schema_hint="the MCP Tool requires inputSchema")
BFCL = ToolFile("bfcl", "BFCL function docs", "gorilla bfcl_eval/constants/type_mappings.py",
                type_names=frozenset(BFCL_TYPES))


@functools.lru_cache(maxsize=1)
def formats() -> dict[str, ToolFile]:
    """Every format a tool file may be in, by id: the provider families' (``registry.tool_files``) and these."""
    from .registry import tool_files

    found = {f.format: f for f in tool_files()}
    return {"toolchoice": TOOLCHOICE, **found, "mcp": MCP, "bfcl": BFCL}


def format_title(fmt: str) -> str:
    return formats()[fmt].title


DataPath = tuple[Any, ...]


class ImportProblem(Exception):
    """A problem at a place in the imported data; the caller turns it into file:line."""

    def __init__(self, message: str, where: DataPath = (), hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.where, self.hint = message, where, hint


def tool_list(data: Any) -> tuple[list[tuple[Any, DataPath]], DataPath, str | None]:
    """The tool entries with where each is, where the list is, and the format a wrapper decides (Gemini)."""
    if isinstance(data, list):
        if data and all(isinstance(e, dict) and _declarations_key(e) for e in data):
            # groups of declarations (Gemini's tools: [{functionDeclarations: [...]}, {googleSearch: {}}, ...])
            out: list[tuple[Any, DataPath]] = []
            for i, group in enumerate(data):
                key = _declarations_key(group)
                if not isinstance(group[key], list):
                    raise ImportProblem(f"{key} must be a list", (i, key))
                out.extend((entry, (i, key, j)) for j, entry in enumerate(group[key]))
            return out, (), _grouped_by(_declarations_key(data[0]))
        return [(entry, (i,)) for i, entry in enumerate(data)], (), None
    if not isinstance(data, dict):
        raise ImportProblem(f"expected a list of tools or a mapping, not {type(data).__name__}", (),
                            "see `toolchoice tools --help` for the formats read")
    declarations = _declarations_key(data)
    containers = [k for k in ("tools", "function") if isinstance(data.get(k), list)]
    if declarations and containers:
        raise ImportProblem(f"ambiguous: the file has both {declarations}: and {containers[0]}:", (),
                            "keep one tool list per file")
    if declarations:
        if not isinstance(data[declarations], list):
            raise ImportProblem(f"{declarations} must be a list", (declarations,))
        return [(e, (declarations, i)) for i, e in enumerate(data[declarations])], (declarations,), \
            _grouped_by(declarations)
    if len(containers) > 1:
        raise ImportProblem("ambiguous: the file has both tools: and function: lists", ())
    if containers:  # tools: an MCP tools/list result, a request body, toolchoice's own list;
        key = containers[0]  # function: a BFCL question entry {id, question, function: [...]}
        entries, _, wrapper = tool_list(data[key])
        return [(entry, (key, *where)) for entry, where in entries], (key,), wrapper
    if isinstance(data.get("name"), str):  # one tool on its own
        return [(data, ())], (), None
    raise ImportProblem("no tool list found", (), "expected a list of tools, or tools: / functionDeclarations:")


def _declarations_key(data: dict[str, Any]) -> str | None:
    return next((k for f in formats().values() for k in f.groups if k in data), None)


def _grouped_by(key: str | None) -> str:
    """The format whose declarations list is under ``key``."""
    return next(f.format for f in formats().values() if key in f.groups)


def entry_format(entry: dict[str, Any], where: DataPath) -> str:
    kind = entry.get("type")
    marked = {f.format for f in formats().values() if f.marks is not None and f.marks(entry)}
    if kind not in (None, "function") and not marked:
        return "skip"  # hosted tools (web_search, code_interpreter, bash_20250124), OpenAI custom tools
    flat = {f.format for f in formats().values() if "parameters" in f.schema_keys and f.wrapper is None}
    if "parameters" in entry and marked - flat:
        marked.add("toolchoice")  # parameters beside input_schema / inputSchema / function
    if len(marked) > 1:
        raise ImportProblem(f"ambiguous tool: it reads as {' and as '.join(format_title(m) for m in sorted(marked))}",
                            where, "keep one format's keys in each tool")
    if marked:
        return marked.pop()
    foreign = types_in(entry.get("parameters")) - JSON_TYPES
    if foreign:  # type names JSON Schema does not have: a family's (Gemini's upper-case ones) or BFCL's
        for f in formats().values():
            if f is not BFCL and foreign & f.type_names:
                return f.format
        if foreign <= BFCL.type_names:
            return "bfcl"
    return "toolchoice"


def types_in(schema: Any) -> set[str]:
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("type"), str):
                found.add(node["type"])
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            stack.extend(node)
    return found


def one_format(found: list[str], expect: str | None) -> str:
    kinds = set(found)
    typed = [f.format for f in formats().values() if f.type_names]  # found by type names: beside plain tools
    if len(kinds) > 1 and all(kinds - {"toolchoice", t} for t in typed):
        first = {k: found.index(k) + 1 for k in kinds}
        shown = ", ".join(f"tool {first[k]} as {format_title(k)}" for k in sorted(kinds, key=first.get))
        raise ImportProblem(f"ambiguous: the tools read as different formats ({shown})", (),
                            "import each format from its own file")
    for t in typed:
        if kinds == {"toolchoice", t}:
            kinds = {t}
    fmt = kinds.pop() if kinds else (expect or "toolchoice")
    if expect == "mcp" and fmt == "toolchoice":
        return "mcp"  # a server listed tools without inputSchema: the checks below say so
    return fmt
