"""Load a scenario file (YAML, so JSON too) into a ``Scenario``, with errors that name the line.

The YAML is read by ``yaml_input`` (safe loader, no object tags, bounded) and walked by hand, so
every value keeps its position: a semantic error (an unknown tool in tool_choice, a tool result
that answers no call) points at the line that caused it.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path
from typing import Any

import yaml

from . import limits as _limits, literal_keys
from .bounded import too_large
from .capabilities import PROVIDER_IDS, provider_hint
from .choice import did_you_mean, parse_tool_choice
from .model import (CUSTOM_TOOL_FIELDS, NATIVE_TOOL_KINDS, SETTINGS_KEYS, TOOL_FIELD_TYPES, LedgerEntry, NativeTool,
                    ProviderSettings, Scenario, ThinkingSetting, Tool, ToolChoice, ToolchoiceError, WrongArgument)
from .error_keys import says_no_key
from .redaction import MIN_SECRET_LENGTH, key_header, key_shapes
from .request_parts import FRAMING_HEADERS, HEADER_NAME, SCHEME, SCHEMED_PLACEHOLDER, http_url_fault
from .scenario_loop import read_loop
from .scenario_messages import read_messages, read_system, refuse_foreign_system_key
from .yaml_input import (Loc as _Loc, Reader as _Reader, composed, key_node as _key_node, read_text,
                         refuse_yaml11_choice, show as _show)

TOP_KEYS = ("name", "description", "tools", "tool_choice", "parallel_tool_calls", "strict", "system",
            "messages", "providers", "loop")
TOOL_KEYS = ("name", "description", "parameters", "strict")
CUSTOM_TOOL_KEYS = ("name", "description", "format")


@says_no_key
def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file. Raises ToolchoiceError (one line, with file:line)."""
    if not isinstance(path, (str, os.PathLike)):
        raise WrongArgument(f"path: give a file name (str or Path), not {_kind(path)}",
                            hint="load_scenario_text(yaml) reads a string, load_scenario_dict(data) a dict")
    return load_scenario_text(read_text(path), str(path))


@says_no_key
def load_scenario_text(text: str, path: str = "<scenario>") -> Scenario:
    if not isinstance(text, str):
        raise WrongArgument(f"text: give the scenario's YAML or JSON as a str, not {_kind(text)}",
                            hint="load_scenario_dict(data) reads a dict, load_scenario(path) a file; decode bytes first")
    cap = _limits.get("file_bytes")  # as a file or stdin is bounded, before the text is composed (50 MB: ~14 s)
    if len(text) > cap // 4 and (len(text) > cap or len(text.encode("utf-8", "surrogatepass")) > cap):
        raise too_large(path, "file_bytes")
    return _loaded(text, path)


def _loaded(text: str, path: str, shallow: bool = False) -> Scenario:
    """``load_scenario_text``'s reading; ``shallow``: ``yaml_input.composed``'s (saved_request._check's JSON)."""
    with composed(text, path, shallow) as (reader, root):
        return _built(reader, root)


_JSON_TYPES = ("object", "array", "string", "number", "integer", "boolean", "null")


def _kind(value: Any) -> str:
    return "None" if value is None else type(value).__name__


def _built(r: _Reader, root: yaml.Node | None) -> Scenario:
    if root is None or (isinstance(root, yaml.ScalarNode) and root.value.strip() == ""):
        raise ToolchoiceError("the scenario is empty", path=r.path, line=1,
                              hint="write tools:, tool_choice: and messages:, or let `toolchoice init FILE` write a commented "
                                   "starter")
    return _build(r, root)


# Keys a tool file has at its top and a scenario has not (Gemini's declarations, one tool of OpenAI's, Anthropic's or
# an MCP listing's shape): such a file given as the scenario is told how tools are read from it
_TOOL_FILE_KEYS = ("functionDeclarations", "function_declarations", "function", "parameters", "input_schema",
                   "inputSchema")
_TOOL_FILE_HINT = ("a tool file? `toolchoice tools FILE` prints its tools as a scenario's tools:, and a scenario reads "
                   "them with tools: [{from: FILE}]")


def _build(r: _Reader, root: yaml.Node) -> Scenario:
    r.plain(root)  # a tag first (!!python/object at the top): refused as every tag is
    if isinstance(root, yaml.SequenceNode):  # a list of tools (OpenAI's, Anthropic's) given as the scenario
        raise r.loc(root).fail("the scenario must be a mapping (key: value), not a list", _TOOL_FILE_HINT)
    # every key a string (a list as a key, `? [a]: 1`, is refused below as it was), none a scenario's tools or messages
    keys = [k for k, _ in root.value if isinstance(k, yaml.ScalarNode)] if isinstance(root, yaml.MappingNode) else []
    if keys and len(keys) == len(root.value) and not {k.value for k in keys} & {"tools", "messages"}:
        key = next((k for k in keys if k.value in _TOOL_FILE_KEYS), None)
        if key is not None:
            raise r.loc(key).fail(f"unknown key '{key.value}' in the scenario", _TOOL_FILE_HINT)
    refuse_foreign_system_key(r, root)
    written = {k.value for k in keys}
    if keys and not written & {"tools", "messages", "tool_choice"}:
        from .sniff import family_of, reply_kind

        family = family_of(r.value(root)) if len(keys) == len(root.value) else None
        if family is not None:  # a reply body (run --save's step-01.response.json) given as the scenario
            what, provider = reply_kind(family)
            raise r.loc(root).fail(f"this is {what}, not a scenario",
                                   f"parse reads a saved reply: toolchoice parse {shlex.quote(r.path)} -p {provider}")
    setting = next((k for k in keys if k.value in _SETTING_TYPES and k.value not in TOP_KEYS), None)
    # `model: gpt-4o` at the top of a scenario (not of a reply body): a per-provider setting, under providers:
    if setting is not None and written & {"tools", "messages", "tool_choice"}:
        also = " (or --model on the command line)" if setting.value == "model" else ""
        raise r.loc(setting).fail(f"unknown key '{setting.value}' in the scenario",
                                  f"{setting.value} is set per provider: providers: {{openai: {{{setting.value}: "
                                  f"...}}}}, one entry per provider id{also}")
    top = r.mapping(root, "the scenario", TOP_KEYS)
    tools, written_empty, notes, native, files_read = _tools(r, top.get("tools"))
    names = tuple(t.name for t in tools)

    choice: ToolChoice | None = None
    if "tool_choice" in top:
        refuse_yaml11_choice(r, top["tool_choice"])
        loc = r.loc(top["tool_choice"])
        choice = parse_tool_choice(r.value(top["tool_choice"]), names,
                                   lambda m, h=None: loc.fail(m, h))

    messages, leading = read_messages(r, top.get("messages"))
    system = read_system(r, top["system"]) if "system" in top and r.value(top["system"]) is not None else None
    system_role = "system"
    if leading:
        if system is not None:
            raise leading[0][2].fail(f"a {leading[0][0]} message and the top-level system: key both set the "
                                     "system prompt", "keep one of them")
        system = "\n\n".join(content for _, content, _ in leading)
        roles = {role for role, _, _ in leading}
        system_role = "developer" if roles == {"developer"} else "system"
        if len(leading) > 1:  # several messages become one prompt: said, as every change is
            written = ", ".join(role for role, _, _ in leading)
            notes = notes + (LedgerEntry("info", "system.messages_joined", f"the {len(leading)} leading messages "
                                         f"({written}) are sent as one {system_role} prompt, joined by a blank "
                                         "line" + ("" if len(roles) == 1 else ": the developer text goes with the "
                                         "system role")),)
    parallel = r.boolean(top["parallel_tool_calls"], "parallel_tool_calls") if "parallel_tool_calls" in top else None
    strict = r.boolean(top["strict"], "strict") if "strict" in top else None
    providers = _providers(r, top.get("providers"))
    for key in ("name", "description"):
        if key in top and r.value(top[key]) is not None:
            r.string(top[key], key, empty_ok=True)
    loop = read_loop(r, top["loop"], tools) if "loop" in top and r.value(top["loop"]) is not None else None
    return Scenario(path=r.path, tools=tools, tools_written_empty="tools" in top and not tools and written_empty,
                    tool_choice=choice, parallel_tool_calls=parallel, strict=strict, system=system,
                    messages=messages, providers=providers, notes=notes, loop=loop,
                    system_role=system_role, native_tools=native, files_read=files_read)


def _tools(r: _Reader, node: yaml.Node | None
           ) -> tuple[tuple[Tool, ...], bool, tuple[LedgerEntry, ...], tuple[NativeTool, ...], tuple[str, ...]]:
    if node is None:
        return (), False, (), (), ()
    if isinstance(node, yaml.ScalarNode) and r.value(node) is None:
        return (), False, (), (), ()
    items = r.sequence(node, "tools", "start each tool with '- ' (- name: get_weather), one list item per tool")
    tools: list[Tool] = []
    notes: list[LedgerEntry] = []
    native: list[tuple[NativeTool, yaml.Node]] = []
    files: list[str] = []
    labels: dict[str, tuple[int, str]] = {}
    first_line: dict[str, int] = {}
    for item in items:
        kind = next((v for k, v in item.value if isinstance(k, yaml.ScalarNode) and k.value == "type"), None
                    ) if isinstance(item, yaml.MappingNode) else None
        if isinstance(kind, yaml.ScalarNode) and r.value(kind) in NATIVE_TOOL_KINDS:  # an MCP server, a code tool
            from . import native_tools  # only when a scenario declares one (its regexes cost every start-up else)

            hosted = native_tools.read_native_tool(r, item)
            native_tools.check_unique(r, hosted, item, labels)
            native.append((hosted, item))
            if len(tools) + len(native) > _limits.get("tools"):
                raise r.loc(item).fail(f"more than {_limits.get('tools')} tools in one scenario (limit tools)",
                                       _limits.raise_hint("tools"))
            continue
        if _key_node(item, "from") is not None:  # tools from a file or an MCP server (imported on use)
            from .tool_import import import_tools

            imported = import_tools(r, item)
            batch, origin = imported.tools, f" (imported by from: {imported.source})"
            notes.extend(imported.notes)
            if imported.file is not None:
                files.append(imported.file)
            if imported.native:  # hosted tools in the file: as if declared here (core/hosted_import.py)
                from . import native_tools

                for hosted in imported.native:
                    native_tools.check_unique(r, hosted, item, labels, f", imported by from: {imported.source}")
                    native.append((hosted, item))
        else:
            batch, origin = (_tool(r, item),), ""
        if len(tools) + len(native) + len(batch) > _limits.get("tools"):
            raise r.loc(item).fail(f"more than {_limits.get('tools')} tools in one scenario (limit tools)",
                                   _limits.raise_hint("tools"))
        for tool in batch:
            if tool.kind != "custom" and tool.parameters is not None:
                from .schema_check import keyword_typos, required_unknown

                _check_schema(r, item, tool, origin)
                for where, word, meant in keyword_typos(tool.parameters):
                    notes.append(LedgerEntry("warning", "schema.keyword_typo", f"tool '{tool.name}': '{word}' (at "
                                             f"{where}) is not a JSON Schema keyword, so it is ignored; did you mean "
                                             f"'{meant}'?"))
                for where, word, meant, names in required_unknown(tool.parameters):
                    notes.append(LedgerEntry("warning", "schema.required_unknown", f"tool '{tool.name}': required "
                                             f"names '{word}' (at {where}), which its properties do not describe, so "
                                             "every call must send an argument the model is never told of; "
                                             + (f"did you mean '{meant}'?" if meant else "its properties: "
                                                + (", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
                                                   if names else "none"))))
            if tool.name in first_line:
                raise r.loc(item).fail(f"duplicate tool name '{tool.name}'{origin} (first declared on line "
                                       f"{first_line[tool.name]})", "tool names must be unique: rename or remove one")
            first_line[tool.name] = r.loc(item).line
            tools.append(tool)
    return tuple(tools), not items, tuple(notes), tuple(t for t, _ in native), tuple(files)


def _schema_beside(r: _Reader, fields: dict[str, yaml.Node]) -> None:
    """``type: object`` beside a tool's name, where an indent too few put the schema's ``type`` (under an empty
    ``parameters:``): said as that, not as an unsupported kind of tool."""
    kind = fields.get("type")
    if not isinstance(kind, yaml.ScalarNode) or r.value(kind) not in _JSON_TYPES:
        return
    empty = "parameters" in fields and r.value(fields["parameters"]) is None
    raise r.loc(kind).fail(f"type: {r.value(kind)} is a JSON Schema type, not a kind of tool",
                           "indent it (and the schema's other keys) under parameters:, two spaces more" if empty else
                           "the arguments' schema goes under parameters: ({type: object, properties: {...}}); a "
                           "function tool needs no type")


def _misplaced(r: _Reader, node: yaml.Node, pid: str) -> None:
    """What a newcomer puts under ``providers.<id>`` that goes elsewhere: a model id alone (``openai: gpt-4o``), or a
    key of the scenario's top level (``tool_choice``), which is every provider's; ``extra`` sends one its own value."""
    if isinstance(node, yaml.ScalarNode) and isinstance(r.value(node), str) and r.value(node).strip():
        raise r.loc(node).fail(f"providers.{pid} must be a mapping (key: value), not the scalar {r.value(node)!r}",
                               f"for the model, write providers.{pid}: {{model: {r.value(node)}}}")
    if not isinstance(node, yaml.MappingNode):
        return
    for key_node, _ in node.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        if key in TOP_KEYS and key not in SETTINGS_KEYS and key not in ("name", "description"):
            own = (f"; to send {pid} a value of its own as written, providers.{pid}.extra: {{{key}: ...}}"
                   if key in ("tool_choice", "parallel_tool_calls") else "")
            raise r.loc(key_node).fail(f"{key} is not a per-provider setting (providers.{pid}.{key})",
                                       f"write {key}: at the top level of the scenario, where it holds for every "
                                       f"provider{own}")


def _check_schema(r: _Reader, item: yaml.Node, tool: Tool, origin: str) -> None:
    """A tool's parameters that are no valid JSON Schema: one line at the wrong value's own line and column where the
    tool is written here (else the tool's line, and the file its ``from:`` read it from)."""
    from .schema_check import problem_at

    found = problem_at(tool.parameters)
    if found is None:
        return
    said, at = found
    node = None if origin else _schema_node(item, at)
    where = r.loc(node) if node is not None else None
    raise ToolchoiceError(f"tool '{tool.name}'{origin}: its parameters are not a valid JSON Schema: {said}",
                          hint="fix the schema (https://json-schema.org/understanding-json-schema)", path=r.path,
                          line=where.line if where else r.loc(item).line,
                          column=where.node.start_mark.column + 1 if where else None)


def _schema_node(item: yaml.Node, at: tuple[str | int, ...]) -> yaml.Node | None:
    """The node of the value at ``at`` in a tool's parameters as written (``parameters:`` or ``input_schema:``, in
    the tool or in its ``function:``), or None where the text does not hold it (an alias, a merged key)."""
    def value(node: yaml.Node | None, key: str | int) -> yaml.Node | None:
        if isinstance(node, yaml.MappingNode):
            return next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(key)), None)
        if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
            return node.value[key]
        return None

    holder = value(item, "function") if value(item, "function") is not None else item
    node = value(holder, "parameters") or value(holder, "input_schema")
    for key in at:
        node = value(node, key)
    return node


def _tool(r: _Reader, node: yaml.Node) -> Tool:
    if isinstance(node, yaml.ScalarNode) and isinstance(r.value(node), str) and re.fullmatch(r"[\w.-]+", r.value(node)):
        name = r.value(node)  # `tools: [get_weather]`: a name alone (`name:a`, glued, is the mapping reader's)
        raise r.loc(node).fail(f"a tool must be a mapping (key: value), not the scalar {name!r}",
                               f"write - name: {name} (with description: and parameters:, the JSON Schema of its "
                               "arguments)" if len(name) <= 64 and name.isprintable() else None)
    fields = r.mapping(node, "a tool")
    _schema_beside(r, fields)
    # Accept tools pasted in OpenAI's wrapped form, Responses' flat form (type: function beside
    # name) and Anthropic's form (input_schema, optional type: custom). OpenAI's custom (free-text)
    # tools are type: custom without input_schema/parameters, flat or wrapped in custom: {...}.
    wrapped = "function" in fields and set(fields) <= {"type", "function"}
    if ("type" in fields and r.value(fields["type"]) == "custom" and not wrapped
            and "input_schema" not in fields and "parameters" not in fields):
        return _custom_tool(r, node, fields)
    if "type" in fields and r.value(fields["type"]) not in (("function",) if wrapped else ("function", "custom")):
        raise r.loc(fields["type"]).fail("only function and custom tools are supported (and the hosted kinds: "
                                         f"{', '.join(NATIVE_TOOL_KINDS)})",
                                         "use type: function (or type: custom for a free-text tool; type: mcp for a "
                                         "remote MCP server)")
    if wrapped:
        fields = r.mapping(fields["function"], "function", TOOL_KEYS)
    elif "type" in fields:
        fields = {k: v for k, v in fields.items() if k != "type"}
    if "input_schema" in fields and "parameters" not in fields:
        fields = {("parameters" if k == "input_schema" else k): v for k, v in fields.items()}
    loc = r.loc(node)
    extras = {k: v for k, v in fields.items() if k in TOOL_FIELD_TYPES}
    fields = {k: v for k, v in fields.items() if k not in TOOL_FIELD_TYPES}
    unknown = [k for k in fields if k not in TOOL_KEYS]
    if unknown:
        known = TOOL_KEYS + tuple(TOOL_FIELD_TYPES)
        hint = did_you_mean(unknown[0], known) or f"known keys: {', '.join(known)}"
        where = _key_node(node, unknown[0]) or fields[unknown[0]]
        raise r.loc(where).fail(f"unknown key '{unknown[0]}' in a tool", hint)
    name, description = _name_and_description(r, loc, fields)
    parameters = None
    if "parameters" in fields and r.value(fields["parameters"]) is not None:
        pnode = fields["parameters"]
        parameters = r.value(pnode)
        if not isinstance(parameters, dict):
            raise r.loc(pnode).fail(f"parameters of tool '{name}' must be a JSON Schema object (a mapping)", None)
        if "type" in parameters and parameters["type"] != "object":
            typo = did_you_mean(parameters["type"], ("object",)) if isinstance(parameters["type"], str) else None
            raise r.loc(pnode).fail(f"parameters of tool '{name}' must describe an object, not type {parameters['type']!r}",
                                    typo if typo and parameters["type"] not in _JSON_TYPES else
                                    "wrap the value in an object property")
    strict = r.boolean(fields["strict"], f"strict of tool '{name}'") if "strict" in fields else None
    return Tool(name=name, description=description, parameters=parameters, strict=strict,
                fields=_tool_fields(r, name, extras))


def _name_and_description(r: _Reader, loc: _Loc, fields: dict[str, yaml.Node]) -> tuple[str, str | None]:
    if "name" not in fields:
        raise loc.fail("a tool needs a name", "add name: my_tool")
    name = r.string(fields["name"], "a tool's name")
    description = None
    if "description" in fields and r.value(fields["description"]) is not None:
        description = r.string(fields["description"], f"description of tool '{name}'", empty_ok=True)
    return name, description


def _tool_fields(r: _Reader, name: str, extras: dict[str, yaml.Node]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, child in extras.items():
        value = _typed(r, child, TOOL_FIELD_TYPES[key], f"{key} of tool '{name}'")
        if value is None:
            continue
        if key == "input_examples" and not all(isinstance(v, dict) for v in value):
            raise r.loc(child).fail(f"input_examples of tool '{name}' must be a list of argument mappings",
                                    "write input_examples: [{city: Paris}]")
        out[key] = value
    return out


def _custom_tool(r: _Reader, node: yaml.Node, fields: dict[str, yaml.Node]) -> Tool:
    """OpenAI's custom tool: flat (Responses: name, description, format) or wrapped (Chat: custom: {...},
    whose grammar format nests {grammar: {syntax, definition}}); kept in the flat form."""
    if "custom" in fields:
        if set(fields) - {"type", "custom"}:
            extra = sorted(set(fields) - {"type", "custom"})[0]
            raise r.loc(fields[extra]).fail(f"unknown key '{extra}' beside custom in a custom tool",
                                            "put name, description and format inside custom: {...}")
        fields = r.mapping(fields["custom"], "custom", CUSTOM_TOOL_KEYS)
    else:
        fields = {k: v for k, v in fields.items() if k != "type"}
        known = CUSTOM_TOOL_KEYS + CUSTOM_TOOL_FIELDS
        unknown = [k for k in fields if k not in known]
        if unknown:
            hint = did_you_mean(unknown[0], known) or f"a custom tool takes {', '.join(known)}"
            raise r.loc(_key_node(node, unknown[0]) or fields[unknown[0]]).fail(
                f"unknown key '{unknown[0]}' in a custom tool", hint)
    extras = {k: v for k, v in fields.items() if k in CUSTOM_TOOL_FIELDS}
    loc = r.loc(node)
    name, description = _name_and_description(r, loc, fields)
    form = None
    if "format" in fields and r.value(fields["format"]) is not None:
        form = _custom_format(r, name, fields["format"])
    return Tool(name=name, description=description, kind="custom", format=form, fields=_tool_fields(r, name, extras))


def _custom_format(r: _Reader, name: str, node: yaml.Node) -> dict[str, Any]:
    value = r.value(node)
    fail = r.loc(node).fail
    if not isinstance(value, dict) or value.get("type") not in ("text", "grammar"):
        raise fail(f"format of custom tool '{name}' must be {{type: text}} or {{type: grammar, syntax, definition}}",
                   None)
    if value["type"] == "text":
        if set(value) != {"type"}:
            raise fail(f"format {{type: text}} of custom tool '{name}' takes no other key", None)
        return {"type": "text"}
    grammar = value.get("grammar") if isinstance(value.get("grammar"), dict) else value  # Chat nests it
    keys = set(value) - {"type"} if grammar is value else set(value) - {"type", "grammar"}
    if grammar is not value and keys:
        raise fail(f"format of custom tool '{name}': put syntax and definition inside grammar, not beside it", None)
    if grammar is value and keys - {"syntax", "definition"}:
        raise fail(f"format of custom tool '{name}' has unknown key '{sorted(keys - {'syntax', 'definition'})[0]}'",
                   "a grammar format takes syntax and definition")
    syntax, definition = grammar.get("syntax"), grammar.get("definition")
    if syntax not in ("lark", "regex"):
        raise fail(f"grammar syntax of custom tool '{name}' must be lark or regex, not {_show(syntax)}", None)
    if not isinstance(definition, str) or not definition:
        raise fail(f"grammar of custom tool '{name}' needs a definition (a non-empty string)", None)
    return {"type": "grammar", "syntax": syntax, "definition": definition}


_SETTING_TYPES: dict[str, tuple[type, ...]] = {
    "model": (str,), "base_url": (str,), "gateway": (bool,), "max_tokens": (int,), "temperature": (int, float), "thinking": (bool,),
    "deployment": (str,), "endpoint": (str,), "api_version": (str,), "region": (str,), "api_key_env": (str,),
    "headers": (dict,), "extra": (dict,), "require_parameters": (bool,),
    "schema_form": (str,), "rules": (dict,),
}
_SETTING_CHOICES: dict[str, tuple[str, ...]] = {"schema_form": ("auto", "parameters", "parametersJsonSchema")}
EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
_THINKING_HINT = ("thinking: true | false | adaptive | {budget: 4096} | {effort: high} | "
                  "{type: adaptive, effort: medium}")
_WANTED = {(str,): "a string", (int,): "an integer", (int, float): "a number", (bool,): "true or false",
           (dict,): "a mapping"}


def _check_header(r: _Reader, pid: str, name_node: yaml.Node, value_node: yaml.Node) -> None:
    """A header that no HTTP client can send is bad input here, not a failure at send time."""
    name, value = r.value(name_node), r.value(value_node)
    if not HEADER_NAME.fullmatch(name):
        raise r.loc(name_node).fail(f"providers.{pid}.headers: {name!r} is not a valid HTTP header name",
                                    "letters, digits and - only")
    if name.lower() in FRAMING_HEADERS:  # the client writes them from the body it sends: another value breaks the request
        raise r.loc(name_node).fail(f"providers.{pid}.headers.{name} is written by the HTTP client from the body it "
                                    "sends, not set by hand", f"remove {name} from providers.{pid}.headers")
    if any(ord(ch) < 32 and ch != "\t" or ord(ch) == 127 for ch in value):
        raise r.loc(value_node).fail(f"providers.{pid}.headers.{name} holds a line break or control character, "
                                     "which no HTTP header can carry", "keep the value on one line")
    if value != value.strip():
        raise r.loc(value_node).fail(f"providers.{pid}.headers.{name} must be plain text without spaces at its "
                                     "ends", None)
    wide = next((at for at, ch in enumerate(value, 1) if not ch.isascii()), None)  # httpx sends values as ASCII
    if wide is not None:
        raise r.loc(value_node).fail(f"providers.{pid}.headers.{name} holds a non-ASCII character (character {wide} "
                                     f"of {len(value)}), which the HTTP client cannot send",
                                     "write it in ASCII (a typographic quote or dash?)")
    _check_key_header(r, pid, name, value_node, value)
    literal_keys.check_header_shape(r, pid, name, value_node, value)


def _check_key_header(r: _Reader, pid: str, name: str, node: yaml.Node, value: str) -> None:
    """A header whose name says it carries a credential (``redaction.key_header``: Authorization, X-Api-Key,
    X-Portkey-Api-Key, Helicone-Auth, ...) takes its key as ``$NAME`` (after one auth scheme word), as an MCP tool's
    headers do: a key written as text would be in the file, and in every render, ledger, saved file and error.
    Text shorter than MIN_SECRET_LENGTH after a short scheme word (a local server's ``Bearer EMPTY``) is no key
    and stays as written. The refusal says how long the text is, never what it is."""
    if not key_header(name) or SCHEMED_PLACEHOLDER.fullmatch(value):
        return
    scheme = re.match(SCHEME, value).group(0)  # type: ignore[union-attr]  # SCHEME matches "" at least
    if len(scheme) > MIN_SECRET_LENGTH:  # a word of 8 letters or more may be the key itself: no scheme then
        scheme = ""
    literal = value[len(scheme):]
    if len(literal) < MIN_SECRET_LENGTH:
        return
    var = literal_keys.variable_for(name)
    error = r.loc(node).fail(
        f"providers.{pid}.headers.{name} holds {len(literal)} characters of text where a key goes (a header named "
        "for a credential): it would be shown in every output and saved file",
        f'export the key and write {name}: "{scheme}${var}", then pass RenderOptions(allow_env=("{var}",))')
    # the command line's words (cli/exits.py spells allow_env as its option): "..., then pass --allow-env VAR"
    error.hint_parts = (f'export the key and write {name}: "{scheme}${var}", then pass ', f" {var}")
    error.names = ("allow_env",)
    raise error


_URL_EXAMPLES = {"base_url": "scheme://host[:port]/path, e.g. http://127.0.0.1:8000/v1",
                 "endpoint": "scheme://host[:port], e.g. https://my-resource.openai.azure.com"}


def _check_url(r: _Reader, node: yaml.Node, what: str, key: str, url: str) -> None:
    """A base URL or endpoint no client can send to is bad input here, with its line, not a failure at
    send time that names --base-url (or, in a dry run, a request printed to a URL that cannot be)."""
    fault = http_url_fault(url)
    if fault:
        words, in_parts = fault
        raise r.loc(node).fail(f"{what} {words}", "give scheme://host[:port]/path only" if in_parts
                               else f"write {_URL_EXAMPLES[key]}")


def _typed(r: _Reader, node: yaml.Node, types: tuple[type, ...], what: str) -> Any:
    """The node's value (None when written null), refused in one line unless it is of ``types``."""
    value = r.value(node)
    if value is not None and (isinstance(value, bool) and bool not in types or not isinstance(value, types)):
        raise r.loc(node).fail(f"{what} must be {_WANTED[types]}, not {_show(value)}", None)
    return value


def _providers(r: _Reader, node: yaml.Node | None) -> dict[str, ProviderSettings]:
    if node is None or (isinstance(node, yaml.ScalarNode) and r.value(node) is None):
        return {}
    out: dict[str, ProviderSettings] = {}
    entries = r.mapping(node, "providers")  # a mapping with string keys, none twice
    for key_node, _ in node.value:
        pid = key_node.value
        if pid not in PROVIDER_IDS:
            hint = provider_hint(pid)
            raise r.loc(key_node).fail(f"unknown provider '{pid}'", hint)
    for pid, value_node in entries.items():
        if isinstance(value_node, yaml.ScalarNode) and r.value(value_node) is None:
            out[pid] = ProviderSettings()
            continue
        _misplaced(r, value_node, pid)
        fields = r.mapping(value_node, f"providers.{pid}", SETTINGS_KEYS)
        values: dict[str, Any] = {}
        for key, child in fields.items():
            if key == "thinking" and not isinstance(r.value(child), (bool, type(None))):
                values["thinking"], values["thinking_mode"] = _thinking(r, child, pid, r.value(child))
                continue
            value = _typed(r, child, _SETTING_TYPES[key], f"providers.{pid}.{key}")
            if value is None:
                continue
            if key == "rules":
                values["rules"] = _rules(r, child, pid)
                continue
            if key == "headers":
                for name_node, header_node in child.value:
                    if not isinstance(r.value(header_node), str):
                        hint = (f'quote it: {name_node.value}: "{header_node.value}"'
                                if isinstance(header_node, yaml.ScalarNode) and not key_header(str(name_node.value))
                                else None)
                        raise r.loc(header_node).fail(f"providers.{pid}.headers values must be strings", hint)
                    _check_header(r, pid, name_node, header_node)
            if key == "extra":
                literal_keys.check_extra(r, pid, child)
            if key == "api_key_env":
                literal_keys.check_api_key_env(r, pid, child, value)
            if key == "api_key_env" and not re.fullmatch(r"[A-Z_][A-Z0-9_]*", value):
                _bad_key_env(r, child, pid, value)
            if key in _SETTING_CHOICES and value not in _SETTING_CHOICES[key]:
                raise r.loc(child).fail(f"providers.{pid}.{key} must be one of {', '.join(_SETTING_CHOICES[key])}, "
                                        f"not {_show(value)}", did_you_mean(value, _SETTING_CHOICES[key]))
            if key in _URL_EXAMPLES:
                _check_url(r, child, f"providers.{pid}.{key}", key, value)
                literal_keys.check_url_shape(r, pid, key, child, value)
            if key == "max_tokens" and value < 1:
                raise r.loc(child).fail(f"providers.{pid}.max_tokens must be at least 1", None)
            values[key] = value
        out[pid] = ProviderSettings(**values)
    return out


def _bad_key_env(r: _Reader, node: yaml.Node, pid: str, value: str) -> None:
    """``api_key_env`` that is no variable name: often the key itself pasted there, so the refusal says how long
    the text is and how it starts (3 characters, as ``sk-``), never the rest."""
    what = f"providers.{pid}.api_key_env must name an environment variable in upper case (A-Z, 0-9, _)"
    name = re.fullmatch(r"\$\{?([A-Z_][A-Z0-9_]*)\}?", value)
    if name:
        raise r.loc(node).fail(f"{what}, without $", f"write api_key_env: {name.group(1)}")
    # the variable as another tool's config names it (LiteLLM's os.environ/NAME, env:NAME), or with a space at an end
    name = re.fullmatch(r"\s*(?:os\.environ/|env:|\$\{?)?([A-Z_][A-Z0-9_]*)\}?\s*", value)
    if name and not key_shapes(name.group(1)):  # env:AKIA... is a key id: said by its length below, not echoed
        raise r.loc(node).fail(f"{what}, and only its name", f"write api_key_env: {name.group(1)}")
    # a variable in lower case (openai_api_key): a name of words, one of them key or token, is no key itself
    if re.fullmatch(r"[a-z_][a-z0-9_]*", value) and {"key", "token"} & set(value.split("_")):
        raise r.loc(node).fail(f"{what}, not {value!r}",
                               f"export it as {value.upper()} and write api_key_env: {value.upper()}")
    raise r.loc(node).fail(f"{what}, not a text of {len(value)} characters starting {value[:3]!r} (a key itself?)",
                           "export the key in a variable and write its name: api_key_env: MY_PROXY_KEY")


def _thinking(r: _Reader, node: yaml.Node, pid: str, value: Any) -> tuple[bool, ThinkingSetting]:
    """The richer thinking forms; ``thinking`` keeps the on/off meaning every translator already reads."""
    where = f"providers.{pid}.thinking"
    if value == "adaptive":
        return True, ThinkingSetting("adaptive")
    if not isinstance(value, dict):
        # the API's own words (Anthropic's type: enabled / disabled) said as the setting that sends them
        word = {"enabled": "true", "on": "true", "disabled": "false", "off": "false"}.get(str(value).strip().lower())
        if isinstance(value, int) and not isinstance(value, bool):  # a budget written alone
            word = f"{{budget: {value}}}"
        raise r.loc(node).fail(f"{where} is not a thinking setting: {_show(value)}",
                               f"write thinking: {word} ({_THINKING_HINT})" if word else _THINKING_HINT)
    fields = r.mapping(node, where, ("type", "budget", "effort"))
    kind = value.get("type", "on")
    kinds = {"on": "on", "enabled": "on", "adaptive": "adaptive", "off": "off", "disabled": "off"}
    if isinstance(kind, bool):
        kind = "on" if kind else "off"
    if kind not in kinds:
        raise r.loc(fields["type"]).fail(f"{where}.type must be enabled, adaptive or disabled, not {_show(kind)}", None)
    budget = value.get("budget")
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 0):
        raise r.loc(fields["budget"]).fail(f"{where}.budget must be a whole number of tokens (0 or more), "
                                           f"not {_show(budget)}", "e.g. thinking: {budget: 4096}")
    effort = value.get("effort")
    if effort is not None and effort not in EFFORTS:
        raise r.loc(fields["effort"]).fail(f"{where}.effort must be one of {', '.join(EFFORTS)}, not {_show(effort)}",
                                           did_you_mean(str(effort), EFFORTS))
    mode = kinds[kind]
    if effort == "none" and "type" not in value:
        mode = "off"  # effort none is OpenAI's and DeepSeek's word for no reasoning
    if mode == "off" and budget:
        raise r.loc(fields["budget"]).fail(f"{where} is off but has a budget", "drop budget or the type")
    return mode != "off", ThinkingSetting(mode, budget, effort)  # type: ignore[arg-type]


def _rules(r: _Reader, node: yaml.Node, pid: str) -> dict[str, Any]:
    from .model_rules import RULE_KEYS, check_override

    out: dict[str, Any] = {}
    for key, child in r.mapping(node, f"providers.{pid}.rules").items():
        value = r.value(child)
        problem = check_override(key, value)
        if problem:
            where = child if key in RULE_KEYS else _key_node(node, key) or child
            raise r.loc(where).fail(f"providers.{pid}.{problem}",
                                    did_you_mean(key, tuple(RULE_KEYS)) if key not in RULE_KEYS
                                    else RULE_KEYS[key][1])
        out[key] = value
    return out
