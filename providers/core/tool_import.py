"""Tools from where they already are: a tool file in another API's format, or a live MCP server.

A scenario's ``tools:`` may hold ``{from: PATH}``, ``{from: {mcp: "COMMAND ARGS"}}`` or
``{from: {mcp_url: URL, headers: {...}}}`` next to inline tools. The file's format is detected
(a provider family's: each module declares its own as ``TOOL_FILE``, ``core/tool_file.py``, reached through
the registry — OpenAI chat or Responses tool lists, Anthropic tools, Gemini function declarations; or one that
is no provider's, declared here: an MCP ``tools/list`` result, BFCL function docs, toolchoice's own ``tools:``
list), converted to neutral ``Tool`` records, and every change is a ledger note that reaches every translation
(``Scenario.notes``). A file that reads as two formats is refused, never guessed.

The MCP ``Tool``'s fields are mcp-types' (``name``, ``title``, ``description``, ``inputSchema``,
``outputSchema``, ``annotations``, ``icons``, ``execution``, ``_meta``).
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any, Callable, NamedTuple

import yaml

from .model import NATIVE_TOOL_KINDS, TOOL_FIELD_TYPES, LedgerEntry, NativeTool, Tool, ToolchoiceError
from .tool_file import ToolFile
from .yaml_input import composed, decoded_text

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
_SCHEMA_LISTS = ("items", "additionalProperties", "anyOf", "oneOf", "allOf", "$defs", "definitions")

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


def _title(fmt: str) -> str:
    return formats()[fmt].title


@functools.lru_cache(maxsize=1)
def _kept() -> frozenset[str]:
    """What a tool entry may carry that is read (else dropped, with a note: no neutral field)."""
    return frozenset({"name", "description", "strict", "type"}
                     | {key for f in formats().values() for key in f.schema_keys}
                     | {f.wrapper for f in formats().values() if f.wrapper})

DataPath = tuple[Any, ...]


class Imported(NamedTuple):
    tools: tuple[Tool, ...]
    notes: tuple[LedgerEntry, ...]
    format: str
    source: str  # as the user wrote it: a path, or "mcp: COMMAND" / "mcp_url: URL"
    native: tuple[NativeTool, ...] = ()  # hosted tools of a kind toolchoice knows, read from a file (hosted_import)


class ImportProblem(Exception):
    """A problem at a place in the imported data; the caller turns it into file:line."""

    def __init__(self, message: str, where: DataPath = (), hint: str | None = None) -> None:
        super().__init__(message)
        self.message, self.where, self.hint = message, where, hint


# ---- the scenario's `from:` entries --------------------------------------------------------------

FROM_KEYS = ("mcp", "mcp_url", "headers", "timeout")
MAX_TIMEOUT = 3600  # seconds: the bound every --timeout has (docs/keys.md)
HEADER_BREAK = re.compile(r"[\r\n\x00]")
DEFAULT_TIMEOUT = 30.0


def import_tools(r: Any, item: yaml.Node) -> Imported:
    """``{from: ...}`` in a scenario's tools (``r``: the scenario's reader, for lines and values)."""
    fields = r.mapping(item, "a tools entry with from:", ("from",))
    node = fields["from"]
    loc = r.loc(node)
    base = Path(r.path).parent if not r.path.startswith("<") else Path.cwd()
    value = r.value(node)
    if isinstance(value, str):
        if not value.strip():
            raise loc.fail("from: needs a file path", "from: tools.json, or from: {mcp: COMMAND}")
        return import_file(base / value, shown=value, at=(r.path, loc.line))
    if not isinstance(value, dict):
        raise loc.fail("from: must be a file path or {mcp: COMMAND} / {mcp_url: URL}", None)
    r.mapping(node, "from:", FROM_KEYS)
    sources = [k for k in ("mcp", "mcp_url") if k in value]
    if len(sources) != 1:
        raise loc.fail("from: needs exactly one of mcp: or mcp_url:" if sources else
                       "from: needs a file path, mcp: COMMAND or mcp_url: URL", None)
    timeout = value.get("timeout", DEFAULT_TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= MAX_TIMEOUT:
        raise loc.fail(f"from: timeout must be a number of seconds above 0, at most {MAX_TIMEOUT}", None)
    headers = value.get("headers") or {}
    if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
        raise loc.fail("from: headers must map names to strings", 'headers: {Authorization: "Bearer $TOKEN"}')
    from .request_parts import HEADER_NAME

    bad = next((n for n, v in headers.items() if not HEADER_NAME.fullmatch(str(n)) or HEADER_BREAK.search(v)), None)
    if bad is not None:  # what the HTTP client would refuse later, in its own words and without the line
        raise loc.fail(f"from: header {str(bad)!r} is not a header name with a one-line value",
                       "a name of letters, digits and !#$%&'*+-.^_`|~ (RFC 9110 token), a value without line breaks")
    from . import mcp_client, source_policy

    chosen = source_policy.current()
    if not chosen.live:
        which = "mcp" if "mcp" in value else "mcp_url"
        act = "start the server" if which == "mcp" else "connect to the server"
        raise loc.fail(f"from: {which}: a dry run does not {act}: pass {source_policy.LIVE_FLAG} to read its tools "
                       "live", f"or save them once (toolchoice tools --{which.replace('_', '-')} ... > tools.json) "
                       "and use from: tools.json")
    unallowed = [name for name in _header_names(headers) if name not in chosen.allow_env]
    if unallowed:
        first = unallowed[0]
        raise loc.fail(f"from: headers read ${first} from the environment and would send it to the MCP server; "
                       "a scenario file reads no variable without asking",
                       f"pass --allow-env {first} (or set TOOLCHOICE_ALLOW_ENV={first}) if you trust this file")

    try:
        if "mcp" in value:
            command = value["mcp"]
            if not isinstance(command, str) or not command.strip():
                raise loc.fail("from: mcp must be a command line", 'mcp: "python -m my_server"')
            if headers:
                raise loc.fail("from: headers go with mcp_url:, not mcp:", None)
            return import_listing(mcp_client.list_tools_stdio(command, timeout=float(timeout), cwd=base),
                                  f"mcp: {command}")
        url = value["mcp_url"]
        if not isinstance(url, str) or not url.strip():
            raise loc.fail("from: mcp_url must be a URL", 'mcp_url: "http://127.0.0.1:8000/mcp"')
        return import_listing(mcp_client.list_tools_http(url, headers, timeout=float(timeout)), f"mcp_url: {url}")
    except ToolchoiceError as exc:
        if exc.path:
            raise
        raise ToolchoiceError(exc.message, path=r.path, line=loc.line, hint=exc.hint) from None


def _header_names(headers: dict[str, str]) -> list[str]:
    """Every environment variable ``$NAME`` / ``${NAME}`` the header values read, in order."""
    from .transport import _PLACEHOLDER

    return list(dict.fromkeys(m.group(1) or m.group(2) for v in headers.values() for m in _PLACEHOLDER.finditer(v)))


# ---- files ---------------------------------------------------------------------------------------

def import_file(path: Path, shown: str | None = None, at: tuple[str, int] | None = None) -> Imported:
    """Tools from a JSON, YAML or JSON Lines file. ``shown``: the path as the user wrote it (the notes
    name it: the same on every machine); errors name ``path``, where the user finds the file; ``at``:
    the scenario file and line that asked for it."""
    from . import bounded

    shown = shown or str(path)
    name = str(path)
    try:
        text = decoded_text(bounded.read_file(path, "tool", regular_only=True), name, "tool")
    except ToolchoiceError as exc:
        if at and not exc.path:  # no such file: say which scenario line asked for it
            raise ToolchoiceError(f"from: {exc.message}", path=at[0], line=at[1], hint=exc.hint) from None
        raise
    lines = _json_lines(text)
    if lines is not None:
        data: Any = [entry for entry, _ in lines]
        return _imported(data, shown, lambda where: lines[where[0]][1] if where else 1, name, text,
                         [n for _, n in lines])
    data = _json_document(text, name)
    if data is not None:  # JSON is read as JSON (YAML 1.1 would turn 1e-5 into a string); lines found on demand
        return _imported(data, shown, lambda where: _json_line_of(text, name, where), name, text)
    read = False
    try:
        with composed(text, name) as (reader, root):
            read = True
            if root is None or (isinstance(root, yaml.ScalarNode) and not root.value.strip()):
                raise ToolchoiceError("the file is empty: no tools to import", path=name, line=1)
            data = reader.value(root)
            return _imported(data, shown, lambda where: _line_of(root, where), name, text)
    except ToolchoiceError:
        if read:
            raise
        try:  # JSON that YAML cannot read (tabs for indentation): read it as JSON, lines unknown
            data = json.loads(text)
        except ValueError:
            raise
        return _imported(data, shown, lambda where: None, name, text)


def _json_document(text: str, name: str) -> Any:
    """The file as one JSON document, or None when it is not JSON (then it is YAML). Too deep: one line."""
    from . import bounded

    start = text.lstrip()[:1]
    if start not in ("{", "["):
        return None
    try:
        return bounded.json_loads(text, parse_constant=_no_constant)
    except bounded.TooDeep as exc:
        raise ToolchoiceError(str(exc), path=name, line=1) from None
    except ValueError:
        return None


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not JSON")


def _json_line_of(text: str, name: str, where: DataPath) -> int | None:
    try:
        with composed(text, name) as (_, root):
            return _line_of(root, where) if root is not None else None
    except ToolchoiceError:
        return None


def _json_lines(text: str) -> list[tuple[Any, int]] | None:
    """JSON Lines (BFCL's function doc files): one JSON object per line; None when it is not that."""
    from . import bounded

    rows = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(rows) < 2 or not all(line.lstrip().startswith("{") and line.rstrip().endswith("}") for _, line in rows):
        return None
    out = []
    for n, line in rows:
        try:
            out.append((bounded.json_loads(line, parse_constant=_no_constant), n))
        except ValueError:
            return None
    return out


def _line_of(root: yaml.Node, where: DataPath) -> int | None:
    node = root
    for step in where:
        if isinstance(node, yaml.MappingNode) and isinstance(step, str):
            node = next((v for k, v in node.value if k.value == step), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            break
        if node is None:
            return None
    return node.start_mark.line + 1


def _imported(data: Any, shown: str, line_of: Callable[[DataPath], int | None], name: str, text: str,
              json_lines: list[int] | None = None) -> Imported:
    """A file's tools; its hosted tools of a kind toolchoice knows are read from the file's own nodes, as a
    scenario's ``tools:`` reads them (``hosted_import``, loaded only when the file has one)."""
    try:
        imported, hosted = _convert(data, shown, None, True)
    except ImportProblem as problem:
        raise ToolchoiceError(problem.message, path=name, line=line_of(problem.where), hint=problem.hint) from None
    if not hosted:
        return imported
    from . import hosted_import

    native, note = hosted_import.read_hosted(text, name, shown, hosted, json_lines)
    notes = list(imported.notes)
    notes.insert(1, note)
    return imported._replace(notes=tuple(notes), native=native)


def import_listing(listing: Any, shown: str) -> Imported:
    """An MCP tools/list result read from a live server (no lines: errors name the source). Header values the
    server wrote back into it were replaced by their ``$NAME`` already (mcp_client): said in the notes."""
    from .mcp_client import ECHOED

    echoed = listing.pop(ECHOED, None) if isinstance(listing, dict) else None
    try:
        imported = convert(listing, shown, expect="mcp")
        if echoed:
            imported = imported._replace(notes=(*imported.notes, LedgerEntry(
                "warning", "import.secret_echoed", f"{shown}: the server's tool list held the value of "
                f"{', '.join(echoed)} (a header it was sent): written as {', '.join(echoed)}, never shown, saved "
                "or sent on")))
        return imported
    except ImportProblem as problem:
        where = ".".join(str(w) for w in problem.where)
        raise ToolchoiceError(f"{shown}: {problem.message}" + (f" (at {where})" if where else ""),
                              hint=problem.hint) from None


# ---- detection and conversion --------------------------------------------------------------------

def convert(data: Any, shown: str, expect: str | None = None) -> Imported:
    """Plain data (a parsed file) -> tools and notes; hosted tools are left out and named. Raises ImportProblem."""
    return _convert(data, shown, expect, False)[0]


def _convert(data: Any, shown: str, expect: str | None, hosted: bool) -> tuple[Imported, list[tuple[Any, DataPath]]]:
    """``convert``; with ``hosted``, the entries of a hosted kind toolchoice knows (``NATIVE_TOOL_KINDS``) are
    returned with where each is, for the caller to read, instead of left out."""
    entries, at, wrapper = _tool_list(data)
    found: list[str] = []
    skipped: list[str] = []
    native: list[tuple[Any, DataPath]] = []
    for i, (entry, where) in enumerate(entries):
        if not isinstance(entry, dict):
            raise ImportProblem(f"tool {i + 1} is not a mapping (found {type(entry).__name__})", where)
        kind = wrapper or _entry_format(entry, where)
        if kind == "skip" and hosted and entry.get("type") in NATIVE_TOOL_KINDS:
            native.append((entry, where))
            kind = "hosted"
        elif kind == "skip":
            label = f"mcp server '{entry.get('server_label')}'" if entry.get("type") == "mcp" else entry.get("type")
            skipped.append(str(entry.get("name") or label))
        found.append(kind)
    fmt = _one_format([f for f in found if f not in ("skip", "hosted")], expect)
    notes: list[LedgerEntry] = []
    tools: list[Tool] = []
    first: dict[str, int] = {}
    for i, ((entry, where), kind) in enumerate(zip(entries, found)):
        if kind in ("skip", "hosted"):
            continue
        tool = _convert_entry(entry, fmt, where, notes)
        if tool.name in first:
            raise ImportProblem(f"duplicate tool name '{tool.name}' (also tool {first[tool.name] + 1})", where,
                                "tool names must be unique")
        first[tool.name] = i
        tools.append(tool)
    if not tools and not native:
        raise ImportProblem(f"no function tools to import (only {', '.join(skipped)})" if entries
                            else "the tool list is empty", at)
    count = f"{len(tools)} tool{'s' if len(tools) != 1 else ''}"
    hosted_count = f"{len(native)} hosted tool{'s' if len(native) != 1 else ''}"
    notes.insert(0, LedgerEntry("info", "import.format", f"{shown}: {count} read as {_title(fmt)}" if tools else
                                f"{shown}: no function tools, {hosted_count}"))
    from . import limits

    if len(tools) > limits.get("tools"):  # `tools` prints them all; a scenario holding them is refused at load
        notes.insert(1, LedgerEntry("warning", "import.over_limit", f"{count}: a scenario takes at most "
                                    f"{limits.shown('tools')}: {limits.raise_hint('tools')}, or keep the ones the "
                                    "agent offers"))
    else:
        refusing = _refusing_apis(len(tools))
        if refusing:
            notes.insert(1, LedgerEntry("warning", "import.over_limit", f"{count}: {refusing}; keep the ones the "
                                        "agent offers, or send them to another API"))
    if skipped:
        kinds = [str(e.get("type")) for (e, _), kind in zip(entries, found)
                 if kind == "skip" and isinstance(e, dict) and e.get("type") in NATIVE_TOOL_KINDS]
        hint = (f"declare {', '.join(dict.fromkeys(kinds))} in the scenario's tools: itself (- type: mcp, "
                "server_label: ..., server_url: ...; docs/tool-surfaces.md)" if kinds else
                "hosted tools have no neutral form; write a custom free-text tool inline in the scenario")
        notes.append(LedgerEntry("warning", "import.skipped", f"{shown}: not function tools, left out: "
                                 f"{', '.join(skipped)} ({hint})"))
    return Imported(tuple(tools), tuple(grouped_notes(notes)), fmt, shown), native


def _refusing_apis(count: int) -> str:
    """The APIs whose capability row says they refuse ``count`` tools in one request (``tool_limit``, each with its
    dated fact), grouped by limit: the same data render and send refuse with; "" when none does."""
    from .capabilities import CAPABILITIES

    by_most: dict[int, list[str]] = {}
    for row in CAPABILITIES.values():
        if row.tool_limit is not None and count > row.tool_limit.most:
            by_most.setdefault(row.tool_limit.most, []).append(f"{row.title} (fact {row.tool_limit.fact})")
    return "; ".join(f"{', '.join(titles)} refuse{'s' if len(titles) == 1 else ''} more than {most} in one request"
                     for most, titles in sorted(by_most.items()))


_TOOL_NOTE = re.compile(r"tool '((?:[^'\\]|\\.)*)': (.*)", re.S)
SHOWN_NAMES = 10


def grouped_notes(notes: list[LedgerEntry]) -> list[LedgerEntry]:
    """One note per (severity, code, what it says), naming every tool it is about, instead of one per tool
    (a catalogue of 200 tools would otherwise open every ledger with 200 equal lines)."""
    names: dict[tuple[str, str, str], list[str]] = {}
    out: list[Any] = []
    for note in notes:
        match = _TOOL_NOTE.fullmatch(note.message)
        if match is None:
            out.append(note)
            continue
        key = (note.severity, note.code, match.group(2))
        if key not in names:
            names[key] = []
            out.append(key)
        names[key].append(match.group(1))
    result = []
    for item in out:
        if isinstance(item, LedgerEntry):
            result.append(item)
            continue
        severity, code, rest = item
        tools = names[item]
        if len(tools) == 1:
            result.append(LedgerEntry(severity, code, f"tool '{tools[0]}': {rest}"))
            continue
        shown = ", ".join(f"'{n}'" for n in tools[:SHOWN_NAMES])
        more = f" and {len(tools) - SHOWN_NAMES} more" if len(tools) > SHOWN_NAMES else ""
        result.append(LedgerEntry(severity, code, f"{len(tools)} tools ({shown}{more}): {rest}"))
    return result


def _tool_list(data: Any) -> tuple[list[tuple[Any, DataPath]], DataPath, str | None]:
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
        entries, _, wrapper = _tool_list(data[key])
        return [(entry, (key, *where)) for entry, where in entries], (key,), wrapper
    if isinstance(data.get("name"), str):  # one tool on its own
        return [(data, ())], (), None
    raise ImportProblem("no tool list found", (), "expected a list of tools, or tools: / functionDeclarations:")


def _declarations_key(data: dict[str, Any]) -> str | None:
    return next((k for f in formats().values() for k in f.groups if k in data), None)


def _grouped_by(key: str | None) -> str:
    """The format whose declarations list is under ``key``."""
    return next(f.format for f in formats().values() if key in f.groups)


def _entry_format(entry: dict[str, Any], where: DataPath) -> str:
    kind = entry.get("type")
    marked = {f.format for f in formats().values() if f.marks is not None and f.marks(entry)}
    if kind not in (None, "function") and not marked:
        return "skip"  # hosted tools (web_search, code_interpreter, bash_20250124), OpenAI custom tools
    flat = {f.format for f in formats().values() if "parameters" in f.schema_keys and f.wrapper is None}
    if "parameters" in entry and marked - flat:
        marked.add("toolchoice")  # parameters beside input_schema / inputSchema / function
    if len(marked) > 1:
        raise ImportProblem(f"ambiguous tool: it reads as {' and as '.join(_title(m) for m in sorted(marked))}",
                            where, "keep one format's keys in each tool")
    if marked:
        return marked.pop()
    foreign = _types_in(entry.get("parameters")) - JSON_TYPES
    if foreign:  # type names JSON Schema does not have: a family's (Gemini's upper-case ones) or BFCL's
        for f in formats().values():
            if f is not BFCL and foreign & f.type_names:
                return f.format
        if foreign <= BFCL.type_names:
            return "bfcl"
    return "toolchoice"


def _types_in(schema: Any) -> set[str]:
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


def _one_format(found: list[str], expect: str | None) -> str:
    kinds = set(found)
    typed = [f.format for f in formats().values() if f.type_names]  # found by type names: beside plain tools
    if len(kinds) > 1 and all(kinds - {"toolchoice", t} for t in typed):
        first = {k: found.index(k) + 1 for k in kinds}
        shown = ", ".join(f"tool {first[k]} as {_title(k)}" for k in sorted(kinds, key=first.get))
        raise ImportProblem(f"ambiguous: the tools read as different formats ({shown})", (),
                            "import each format from its own file")
    for t in typed:
        if kinds == {"toolchoice", t}:
            kinds = {t}
    fmt = kinds.pop() if kinds else (expect or "toolchoice")
    if expect == "mcp" and fmt == "toolchoice":
        return "mcp"  # a server listed tools without inputSchema: the checks below say so
    return fmt


def _convert_entry(entry: dict[str, Any], fmt: str, where: DataPath, notes: list[LedgerEntry]) -> Tool:
    fields = entry
    inner: DataPath = where
    form = formats()[fmt]
    if form.wrapper:
        if entry.get("type") not in ("function", None):
            raise ImportProblem(f"{form.short} tool of type {entry.get('type')!r}: only function tools import", where)
        fields, inner = entry[form.wrapper], (*where, form.wrapper)
        if not isinstance(fields, dict):
            raise ImportProblem(f"{form.wrapper} must be a mapping (name, description, parameters)", inner)
    name = fields.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ImportProblem("a tool needs a name (a non-empty string)", inner)
    description = fields.get("description")
    if description is not None and not isinstance(description, str):
        raise ImportProblem(f"description of tool '{name}' must be a string", (*inner, "description"))
    strict = fields.get("strict") if form.strict else None
    if strict is not None and not isinstance(strict, bool):
        raise ImportProblem(f"strict of tool '{name}' must be true or false", (*inner, "strict"))

    key, schema = _schema_of(fields, form)
    if form.schema_required and key is None:
        raise ImportProblem(f"{form.short} tool '{name}' has no {form.schema_keys[0]}", inner, form.schema_hint)
    schema_at = (*inner, key) if key else inner
    if schema is not None and not isinstance(schema, dict):
        raise ImportProblem(f"the schema of tool '{name}' must be a JSON Schema object (a mapping), not "
                            f"{type(schema).__name__}", schema_at)
    if fmt == "bfcl" and schema is not None:
        schema = _bfcl_schema(name, schema, notes)
    elif form.convert is not None and schema is not None and key == "parameters":
        schema = _converted(name, schema, form, notes)
    if schema is not None and "type" in schema and schema["type"] != "object":
        raise ImportProblem(f"the schema of tool '{name}' must describe an object, not type {schema['type']!r}",
                            schema_at, "a tool's arguments are an object: wrap the value in an object property")
    if form.field_spellings:
        fields = {form.field_spellings.get(k, k): v for k, v in fields.items()}
    extras = _tool_fields(name, fields, inner) if form.tool_fields else {}
    dropped = [k for k in fields if k not in _kept() and k not in extras]
    if form.wrapper:
        dropped += [k for k in entry if k not in ("type", form.wrapper)]
    if dropped:
        notes.append(LedgerEntry("info", "import.dropped", f"tool '{name}': {', '.join(dropped)} not imported "
                                 f"(a function tool has no field for {'it' if len(dropped) == 1 else 'them'})"))
    return Tool(name=name, description=description, parameters=schema, strict=strict, fields=extras)


def _tool_fields(name: str, fields: dict[str, Any], where: DataPath) -> dict[str, Any]:
    """The newer per-tool fields a scenario's tool takes too (cache_control, input_examples, ...); the
    translators keep them where the provider's tool type has them and say so where not."""
    out: dict[str, Any] = {}
    for key, types in TOOL_FIELD_TYPES.items():
        value = fields.get(key)
        if value is None:
            continue
        if isinstance(value, bool) and bool not in types or not isinstance(value, types):
            raise ImportProblem(f"{key} of tool '{name}' must be {' or '.join(t.__name__ for t in types)}",
                                (*where, key))
        if key == "input_examples" and not all(isinstance(v, dict) for v in value):
            raise ImportProblem(f"input_examples of tool '{name}' must be a list of argument mappings", (*where, key))
        out[key] = value
    return out


def _schema_of(fields: dict[str, Any], form: ToolFile) -> tuple[str | None, Any]:
    for key in form.schema_keys:
        if key in fields and fields[key] is not None:
            return key, fields[key]
    return None, None


def _counted(seen: Counter[str]) -> str:
    """"dict -> object, float -> number (2x)": each change once, with how often it happened."""
    return ", ".join(k + (f" ({n}x)" if n > 1 else "") for k, n in seen.items())


# ---- BFCL types -> JSON Schema ---------------------------------------------------------------------

def bfcl_schema(schema: Any, seen: Counter[str] | None = None) -> Any:
    """BFCL type names -> JSON Schema type names, recursively (other keys untouched), as BFCL itself
    converts them before a native tools request. ``seen`` counts each conversion ("float -> number")."""
    if isinstance(schema, list):
        return [bfcl_schema(item, seen) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            out[key] = BFCL_TYPES.get(value, value)
            if seen is not None and out[key] != value:
                seen[f"{value} -> {out[key]}"] += 1
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: bfcl_schema(prop, seen) for name, prop in value.items()}
        elif key in _SCHEMA_LISTS:
            out[key] = ({k: bfcl_schema(v, seen) for k, v in value.items()}
                        if key in ("$defs", "definitions") and isinstance(value, dict) else bfcl_schema(value, seen))
        else:
            out[key] = value
    return out


def _bfcl_schema(name: str, schema: dict[str, Any], notes: list[LedgerEntry]) -> dict[str, Any]:
    seen: Counter[str] = Counter()
    out = bfcl_schema(schema, seen)
    if seen:
        notes.append(LedgerEntry("info", "import.bfcl_types", f"tool '{name}': BFCL types read as JSON Schema, "
                                 f"as BFCL sends them: {_counted(seen)}"))
    lossy = sorted({k.split(" ")[0] for k in seen if k.split(" ")[0] in ("any", "Any", "tuple")})
    if lossy:
        what = {"any": "any becomes string", "Any": "Any becomes string", "tuple": "tuple an array of any length"}
        notes.append(LedgerEntry("warning", "import.bfcl_lossy", f"tool '{name}': no JSON Schema type means the "
                                 f"same, so BFCL's own mapping narrows it: {', '.join(what[t] for t in lossy)}"))
    return out


# ---- a family's own schema form -> JSON Schema -------------------------------------------------------


def _converted(name: str, schema: dict[str, Any], form: ToolFile, notes: list[LedgerEntry]) -> dict[str, Any]:
    """A schema in the family's own form (Gemini's Schema) read as JSON Schema by its module's converter."""
    assert form.convert is not None
    out, seen = form.convert(schema)
    if seen:
        code, words = form.convert_note
        notes.append(LedgerEntry("info", code, f"tool '{name}': {words}: {_counted(seen)}"))
    return out
