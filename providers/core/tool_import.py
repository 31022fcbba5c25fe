"""Tools from where they already are: a tool file in another API's format, or a live MCP server.

A scenario's ``tools:`` may hold ``{from: PATH}``, ``{from: {mcp: "COMMAND ARGS"}}`` or
``{from: {mcp_url: URL, headers: {...}}}`` next to inline tools. The file's format is detected
(a provider family's: each module declares its own as ``TOOL_FILE``, ``core/tool_file.py``, reached through
the registry — OpenAI chat or Responses tool lists, Anthropic tools, Gemini function declarations; or one that
is no provider's: an MCP ``tools/list`` result, BFCL function docs, toolchoice's own ``tools:`` list;
``tool_import_formats``), converted to neutral ``Tool`` records (``tool_import_entries``), and every change is a
ledger note that reaches every translation (``Scenario.notes``). A file that reads as two formats is refused, never
guessed. This module reads the sources: a scenario's ``from:``, a file, a live server's listing.

The MCP ``Tool``'s fields are mcp-types' (``name``, ``title``, ``description``, ``inputSchema``,
``outputSchema``, ``annotations``, ``icons``, ``execution``, ``_meta``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable

import yaml

from .model import LedgerEntry, ToolchoiceError
from .request_parts import HEADER_BREAK  # cli/tools_cmd reads it here too
from .tool_import_entries import Imported, convert, convert_keeping_hosted
from .tool_import_formats import DataPath, ImportProblem
from .yaml_input import composed, decoded_text

__all__ = ["Imported", "ImportProblem", "convert", "import_file", "import_listing", "import_tools"]

# ---- the scenario's `from:` entries --------------------------------------------------------------

FROM_KEYS = ("mcp", "mcp_url", "headers", "env", "timeout")
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # what a stdio server's env: may set
MAX_TIMEOUT = 3600  # seconds: the bound every --timeout has (docs/keys.md)
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
        return import_file(base / value, shown=value, at=(r.path, loc.line))._replace(file=str(base / value))
    if not isinstance(value, dict):
        raise loc.fail("from: must be a file path or {mcp: COMMAND} / {mcp_url: URL}", None)
    given = r.mapping(node, "from:", FROM_KEYS)
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
    from .request_parts import FRAMING_HEADERS

    framing = next((n for n in headers if str(n).lower() in FRAMING_HEADERS), None)
    if framing is not None:  # as a provider's headers: providers.<id>.headers (scenario._check_header)
        raise loc.fail(f"from: header {framing} is written by the HTTP client from the body it sends, not set by hand",
                       f"remove {framing} from headers")
    env = value.get("env") or {}
    if not isinstance(env, dict) or not all(isinstance(n, str) and ENV_NAME.fullmatch(n) and isinstance(v, str)
                                            and "\x00" not in v for n, v in env.items()):
        raise loc.fail("from: env must map variable names to strings", 'env: {GITHUB_TOKEN: "$GITHUB_TOKEN"}')
    if env and "mcp" not in value:
        raise loc.fail("from: env goes with mcp:, not mcp_url:", None)
    from . import literal_keys, mcp_client, source_policy

    literal_keys.check_from(r, given)  # a key written as text: refused whatever the command, before the policy's word

    chosen = source_policy.current()
    if not chosen.live:
        which = "mcp" if "mcp" in value else "mcp_url"
        act = "start the server" if which == "mcp" else "connect to the server"
        error = loc.fail(f"from: {which}: a dry run does not {act}: load it inside source_policy.policy(True) to read "
                         "its tools live", f"or save them once (toolchoice tools --{which.replace('_', '-')} ... "
                         "--format json > tools.json) and use from: tools.json")
        # the command line's words (cli/exits.py): "pass --live-mcp to read its tools live"
        error.said_parts = (f"from: {which}: a dry run does not {act}: pass ", " to read its tools live")
        error.names = ("live_mcp",)
        raise error
    source = value.get("mcp", value.get("mcp_url"))
    for where, texts, act in (("mcp" if "mcp" in value else "mcp_url", [source] if isinstance(source, str) else [],
                               "hand it to the MCP server" if "mcp" in value else "send it in the URL"),
                              ("headers", list(headers.values()), "send it to the MCP server"),
                              ("env", list(env.values()), "hand it to the MCP server")):
        unallowed = [name for name in _env_names(texts) if name not in chosen.allow_env]
        if unallowed:
            raise _not_allowed(loc, where, unallowed[0], act)

    try:
        if "mcp" in value:
            command = value["mcp"]
            if not isinstance(command, str) or not command.strip():
                raise loc.fail("from: mcp must be a command line", 'mcp: "python -m my_server"')
            if headers:
                raise loc.fail("from: headers go with mcp_url:, not mcp:", None)
            from .command_shown import env_secrets, shown_command

            return import_listing(mcp_client.list_tools_stdio(command, timeout=float(timeout), cwd=base, env=env),
                                  f"mcp: {shown_command(command, env_secrets(env))}")
        url = value["mcp_url"]
        if not isinstance(url, str) or not url.strip():
            raise loc.fail("from: mcp_url must be a URL", 'mcp_url: "http://127.0.0.1:8000/mcp"')
        return import_listing(mcp_client.list_tools_http(url, headers, timeout=float(timeout)), f"mcp_url: {url}")
    except ToolchoiceError as exc:
        if exc.path:
            raise
        raise ToolchoiceError(exc.message, path=r.path, line=loc.line, hint=exc.hint) from None


def _not_allowed(loc: Any, where: str, variable: str, act: str) -> ToolchoiceError:
    """A ``from:`` that reads ``variable`` the policy does not allow. A Python caller's words say the policy to load
    it under (``load_scenario`` allows no variable); the record (``hint_parts`` split where the hint names the
    argument, ``names``) is the command line's, which spells it as its option (cli/exits.py: ``--allow-env``)."""
    error = loc.fail(f"from: {where} reads ${variable} from the environment and would {act}; a scenario file reads "
                     "no variable without asking", f'load it inside source_policy.policy(True, allow_env=("{variable}",'
                     ')) if you trust this file')
    error.hint_parts = ("pass ", f" {variable} (or set TOOLCHOICE_ALLOW_ENV={variable}) if you trust this file")
    error.names = ("allow_env",)
    return error


def _env_names(texts: list[str]) -> list[str]:
    """Every environment variable ``$NAME`` / ``${NAME}`` the texts read, in order."""
    from .request_parts import ENV_PLACEHOLDER

    return list(dict.fromkeys(m.group(1) or m.group(2) for v in texts for m in ENV_PLACEHOLDER.finditer(v)))


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
    _not_a_program(path, shown, at)
    lines = _json_lines(text, name)
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
                raise ToolchoiceError("the file is empty: no tools to import", path=name, line=1, hint=(
                    "write the tools into it; a `toolchoice tools ... > FILE` that failed leaves FILE empty: "
                    "run it again and read its error"))
            data = reader.value(root)
            return _imported(data, shown, lambda where: _line_of(root, where), name, text)
    except ToolchoiceError as problem:
        if read:
            raise
        try:  # JSON that YAML cannot read (tabs for indentation): read it as JSON, lines unknown
            data = json.loads(text, object_pairs_hook=_unique_keys(name, text))
        except ValueError:  # not JSON either: the reader's one line (a bare raise here raised the JSON error, exit 70)
            raise problem from None
        return _imported(data, shown, lambda where: None, name, text)


PROGRAMS = {".py": "python", ".js": "node", ".mjs": "node", ".cjs": "node"}  # an MCP server's source, by suffix


def _not_a_program(path: Path, shown: str, at: tuple[str, int] | None) -> None:
    """An MCP server's own source given as the tool file (`toolchoice tools server.py`, `from: server.py`): it was
    read as YAML, "invalid YAML: mapping values are not allowed here (quote a value that holds ': ' ...)"."""
    import shlex

    runner = PROGRAMS.get(path.suffix.lower())
    if runner is None:
        return
    command = f"{runner} {shlex.quote(shown)}"
    if at:
        raise ToolchoiceError(f"from: {shown} is a program, not a tool file", path=at[0], line=at[1],
                              hint=f"an MCP server's tools: from: {{mcp: {json.dumps(command)}}} (a dry run starts "
                                   "it with --live-mcp)")
    raise ToolchoiceError(f"{shown} is a program, not a tool file",
                          hint=f"an MCP server's tools: toolchoice tools --mcp {shlex.quote(command)}")


def _json_document(text: str, name: str) -> Any:
    """The file as one JSON document, or None when it is not JSON (then it is YAML). Too deep: one line."""
    from . import bounded

    start = text.lstrip()[:1]
    if start not in ("{", "["):
        return None
    try:
        return bounded.json_loads(text, parse_constant=_no_constant, object_pairs_hook=bounded.unique_keys)
    except bounded.TooDeep as exc:
        raise ToolchoiceError(str(exc), path=name, line=1) from None
    except bounded.DuplicateKey as exc:  # json.loads would keep the last and drop the first without a word
        raise ToolchoiceError(str(exc), path=name, line=exc.line, hint="keep one of them") from None
    except ValueError:
        return None


def _unique_keys(name: str, text: str) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """``bounded.unique_keys`` refusing in one line naming the file and the line (``bounded.duplicate_line``: a file
    with NaN before the key twice, which the JSON reading above refuses, reached here and was said without it)."""
    from . import bounded

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        try:
            return bounded.unique_keys(pairs)
        except bounded.DuplicateKey as exc:
            raise ToolchoiceError(str(exc), path=name, line=bounded.duplicate_line(text),
                                  hint="keep one of them") from None
    return hook


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not JSON")


def _json_line_of(text: str, name: str, where: DataPath) -> int | None:
    try:
        with composed(text, name) as (_, root):
            return _line_of(root, where) if root is not None else None
    except ToolchoiceError:
        return None


def _json_lines(text: str, name: str) -> list[tuple[Any, int]] | None:
    """JSON Lines (BFCL's function doc files): one JSON object per line; None when it is not that. A key written
    twice in a line's object: one line naming the file and that line."""
    from . import bounded

    rows = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(rows) < 2 or not all(line.lstrip().startswith("{") and line.rstrip().endswith("}") for _, line in rows):
        return None
    out = []
    for n, line in rows:
        try:
            out.append((bounded.json_loads(line, parse_constant=_no_constant,
                                           object_pairs_hook=bounded.unique_keys), n))
        except bounded.DuplicateKey as exc:
            raise ToolchoiceError(str(exc), path=name, line=n, hint="keep one of them") from None
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
        imported, hosted = convert_keeping_hosted(data, shown, None, True)
    except ImportProblem as problem:
        raise ToolchoiceError(problem.message, path=name, line=line_of(problem.where), hint=problem.hint) from None
    imported = _with_field_warnings(imported)
    if not hosted:
        return imported
    from . import hosted_import

    native, note = hosted_import.read_hosted(text, name, shown, hosted, json_lines)
    notes = list(imported.notes)
    notes.insert(1, note)
    return imported._replace(notes=tuple(notes), native=native)


def _with_field_warnings(imported: Imported) -> Imported:
    """The field limits the APIs' sources state, warned of as tool counts are (``tool_import_limits``)."""
    from .schema_check import problem
    from .tool_import_limits import field_warnings

    warnings = [LedgerEntry("warning", "import.schema_invalid", f"tool '{t.name}': its parameters are not a valid "
                            f"JSON Schema: {found}; a scenario that declares it (or reads it with from:) is refused "
                            "until the schema is fixed")
                for t in imported.tools if t.kind != "custom" and (found := problem(t.parameters)) is not None]
    warnings += field_warnings(imported.tools)
    return imported._replace(notes=(*imported.notes, *warnings)) if warnings else imported


def import_listing(listing: Any, shown: str) -> Imported:
    """An MCP tools/list result read from a live server (no lines: errors name the source). Header values the
    server wrote back into it were replaced by their ``$NAME`` already (mcp_client): said in the notes; so are the
    keys it named twice in one object (``mcp_twice``: imported as the SDK read them, the last)."""
    from .mcp_client import ECHOED
    from .mcp_twice import TWICE

    echoed = listing.pop(ECHOED, None) if isinstance(listing, dict) else None
    twice = listing.pop(TWICE, None) if isinstance(listing, dict) else None
    try:
        imported = _with_field_warnings(convert(listing, shown, expect="mcp"))
        if echoed:
            from .key_looks import LITERAL_PLACEHOLDER

            said = ["a secret-named part of its command line" if e == LITERAL_PLACEHOLDER
                    else e for e in echoed]
            imported = imported._replace(notes=(*imported.notes, LedgerEntry(
                "warning", "import.secret_echoed", f"{shown}: the server's tool list held the value of "
                f"{', '.join(said)} (sent to it): written as {', '.join(echoed)}, never shown, saved or sent on")))
        if twice:  # a key the server wrote twice in one object: imported as the SDK read it, the last, and said
            from .mcp_twice import Keys, said as twice_said

            notes = twice_said(shown, Keys(tuple(twice["keys"]), twice["total"]))
            imported = imported._replace(notes=(*imported.notes, *notes))
        return imported
    except ImportProblem as problem:
        where = ".".join(str(w) for w in problem.where)
        raise ToolchoiceError(f"{shown}: {problem.message}" + (f" (at {where})" if where else ""),
                              hint=problem.hint) from None
