"""Tool entries in any format read into neutral ``Tool`` records: ``convert`` (a parsed file, a listing, a body's
tools), each change a ledger note, notes about many tools grouped into one."""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from .model import NATIVE_TOOL_KINDS, TOOL_FIELD_TYPES, LedgerEntry, NativeTool, Tool
from .tool_file import ToolFile
from .tool_import_formats import (DataPath, ImportProblem, entry_format, format_title, formats, one_format,
                                  tool_list)
from .tool_import_limits import refusing_apis
from .tool_import_schemas import bfcl_tool_schema, family_schema


class Imported(NamedTuple):
    tools: tuple[Tool, ...]
    notes: tuple[LedgerEntry, ...]
    format: str
    source: str  # as the user wrote it: a path, or "mcp: COMMAND" / "mcp_url: URL"
    native: tuple[NativeTool, ...] = ()  # hosted tools of a kind toolchoice knows, read from a file (hosted_import)
    file: str | None = None  # the file read, as opened (None: from an MCP server)


@functools.lru_cache(maxsize=1)
def _kept() -> frozenset[str]:
    """What a tool entry may carry that is read (else dropped, with a note: no neutral field)."""
    return frozenset({"name", "description", "strict", "type"}
                     | {key for f in formats().values() for key in f.schema_keys}
                     | {f.wrapper for f in formats().values() if f.wrapper})


def convert(data: Any, shown: str, expect: str | None = None) -> Imported:
    """Plain data (a parsed file) -> tools and notes; hosted tools are left out and named. Raises ImportProblem."""
    return convert_keeping_hosted(data, shown, expect, False)[0]


def convert_keeping_hosted(data: Any, shown: str, expect: str | None, hosted: bool) -> tuple[Imported, list[tuple[Any, DataPath]]]:
    """``convert``; with ``hosted``, the entries of a hosted kind toolchoice knows (``NATIVE_TOOL_KINDS``) are
    returned with where each is, for the caller to read, instead of left out."""
    entries, at, wrapper = tool_list(data)
    found: list[str] = []
    skipped: list[str] = []
    native: list[tuple[Any, DataPath]] = []
    for i, (entry, where) in enumerate(entries):
        if not isinstance(entry, dict):
            raise ImportProblem(f"tool {i + 1} is not a mapping (found {type(entry).__name__})", where)
        kind = wrapper or entry_format(entry, where)
        if kind == "skip" and hosted and entry.get("type") in NATIVE_TOOL_KINDS:
            native.append((entry, where))
            kind = "hosted"
        elif kind == "skip":
            label = f"mcp server '{entry.get('server_label')}'" if entry.get("type") == "mcp" else entry.get("type")
            skipped.append(str(entry.get("name") or label))
        found.append(kind)
    fmt = one_format([f for f in found if f not in ("skip", "hosted")], expect)
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
    notes.insert(0, LedgerEntry("info", "import.format", f"{shown}: {count} read as {format_title(fmt)}" if tools else
                                f"{shown}: no function tools, {hosted_count}"))
    from . import limits

    if len(tools) > limits.get("tools"):  # `tools` prints them all; a scenario holding them is refused at load
        notes.insert(1, LedgerEntry("warning", "import.over_limit", f"{count}: a scenario takes at most "
                                    f"{limits.shown('tools')}: {limits.raise_hint('tools')}, or keep the ones the "
                                    "agent offers"))
    else:
        refusing = refusing_apis(len(tools))
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
        schema = bfcl_tool_schema(name, schema, notes)
    elif form.convert is not None and schema is not None and key == "parameters":
        schema = family_schema(name, schema, form, notes)
    if schema is not None and "type" in schema and schema["type"] != "object":
        _not_quite_bfcl(name, schema, schema_at)
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


def _not_quite_bfcl(name: str, schema: dict[str, Any], at: DataPath) -> None:
    """A BFCL tool (``type: dict``) whose schema also names a type neither BFCL nor JSON Schema has (a typo) is not
    read as BFCL's, and "must describe an object, not type 'dict'" then sent its author the wrong way: name the typo."""
    from .tool_import_formats import BFCL_TYPES, JSON_TYPES, types_in

    kind = schema.get("type")
    if not isinstance(kind, str) or BFCL_TYPES.get(kind) != "object":  # a list of types is no BFCL word
        return
    unknown = sorted(types_in(schema) - JSON_TYPES - set(BFCL_TYPES))
    if unknown:
        stack: list[tuple[Any, DataPath]] = [(schema, at)]  # the first place that names one, for its line
        while stack:
            node, where = stack.pop()
            if isinstance(node, dict) and node.get("type") in unknown:
                at = (*where, "type")
                break
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            stack.extend((v, (*where, k)) for k, v in reversed(list(items)) if isinstance(v, (dict, list)))
        raise ImportProblem(f"tool '{name}' reads as BFCL function docs ({schema['type']!r} is BFCL's word for object), "
                            f"but its schema names a type neither BFCL nor JSON Schema has: "
                            f"{', '.join(repr(u) for u in unknown)}", at,
                            "fix the type name (JSON Schema's: array, boolean, integer, null, number, object, string)")
