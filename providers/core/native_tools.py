"""Tools the provider runs itself, declared in a scenario's ``tools:``: a remote MCP server (``type: mcp``)
and the programmatic tool-calling tools (``type: programmatic_tool_calling``, OpenAI Responses';
``type: code_execution_20250825`` and its later versions, Anthropic's). Read into ``NativeTool`` records
with one-line ``file:line`` errors; each provider module that renders a kind lists it in ``NATIVE_TOOLS``
(the id of the dated fact naming its SDK type beside it, core/facts.py), and every other provider leaves the
tool out with a ``tool.native_dropped`` warning that cites the SDK type lacking it (the fact ``TOOLS_TYPE``
of the module names; ``lint``).

The keys of ``type: mcp`` are those of openai 3.57.0 ``types/responses/tool_param.py`` ``Mcp`` that a
scenario can write safely: a secret (``headers`` values, ``authorization``) must be an ``$ENV`` placeholder,
resolved only at send time (``Request.body_env``), read only with ``--allow-env`` and redacted as keys are.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any

import yaml

from .choice import did_you_mean
from .model import NATIVE_TOOL_KINDS, NativeTool
from .request_parts import ENV_PLACEHOLDER as PLACEHOLDER, HEADER_NAME, SCHEMED_PLACEHOLDER, env_read
from .yaml_input import Reader, key_node, show

# openai 3.57.0 types/responses/tool_param.py Mcp.connector_id (Literal)
CONNECTORS = ("connector_dropbox", "connector_gmail", "connector_googlecalendar", "connector_googledrive",
              "connector_microsoftteams", "connector_outlookcalendar", "connector_outlookemail",
              "connector_sharepoint")
MCP_KEYS = ("type", "server_label", "server_url", "connector_id", "tunnel_id", "server_description",
            "allowed_tools", "require_approval", "headers", "authorization", "defer_loading")
WHERE = ("server_url", "connector_id", "tunnel_id")  # Mcp: "One of `server_url`, `connector_id`, or `tunnel_id`"
# anthropic 2.14.0 types/tool_union_param.py: CodeExecutionTool20250825Param, ...20260120..., ...20260521...
# (name: Literal["code_execution"]); the tool that runs the code calling tools with allowed_callers.
CODE_EXECUTION = tuple(kind for kind in NATIVE_TOOL_KINDS if kind.startswith("code_execution_"))
KINDS = NATIVE_TOOL_KINDS


def is_native(r: Reader, node: yaml.Node) -> bool:
    """Whether a ``tools:`` item is one of these (its ``type`` is a kind above)."""
    type_node = _child(node, "type")
    return type_node is not None and r.value(type_node) in KINDS


def read_native_tool(r: Reader, node: yaml.Node) -> NativeTool:
    fields = r.mapping(node, "a tool")
    kind = r.value(fields["type"])
    if kind != "mcp":
        allowed = ("type", "name") if kind in CODE_EXECUTION else ("type",)
        r.mapping(node, f"a {kind} tool", allowed)
        if "name" in fields and r.value(fields["name"]) != "code_execution":
            raise r.loc(fields["name"]).fail(f"the {kind} tool's name is always code_execution, not "
                                             f"{show(r.value(fields['name']))}", "leave name out")
        return NativeTool(kind)
    r.mapping(node, "an mcp tool", MCP_KEYS)
    out: dict[str, Any] = {"type": "mcp"}
    if "server_label" not in fields:
        raise r.loc(node).fail("an mcp tool needs server_label, the name its calls carry", "add server_label: docs")
    out["server_label"] = _label(r, fields["server_label"])
    given = [k for k in WHERE if k in fields]
    if len(given) != 1:
        raise r.loc(fields[given[1]] if given else node).fail(
            "an mcp tool needs exactly one of server_url, connector_id and tunnel_id"
            + (f" (it has {' and '.join(given)})" if given else ""), "write server_url: https://…/mcp")
    where = given[0]
    value = r.string(fields[where], f"{where} of mcp tool '{out['server_label']}'")
    if where == "server_url":
        _server_url(r, fields[where], value, out["server_label"])
    if where == "connector_id" and value not in CONNECTORS:
        raise r.loc(fields[where]).fail(f"connector_id {value!r} is not one of openai's connectors",
                                        did_you_mean(value, CONNECTORS) or f"one of {', '.join(CONNECTORS)}")
    out[where] = value
    label = out["server_label"]
    if "server_description" in fields:
        out["server_description"] = r.string(fields["server_description"], f"server_description of '{label}'")
    if "allowed_tools" in fields:
        out["allowed_tools"] = _filter(r, fields["allowed_tools"], f"allowed_tools of mcp tool '{label}'", True)
    if "require_approval" in fields:
        out["require_approval"] = _approval(r, fields["require_approval"], label)
    if "headers" in fields:
        out["headers"] = _headers(r, fields["headers"], label)
    if "authorization" in fields:
        out["authorization"] = _secret(r, fields["authorization"], f"authorization of mcp tool '{label}'", True)
    if "defer_loading" in fields:
        out["defer_loading"] = r.boolean(fields["defer_loading"], f"defer_loading of mcp tool '{label}'")
    return NativeTool("mcp", MappingProxyType(out))


def check_unique(r: Reader, tool: NativeTool, node: yaml.Node, seen: dict[str, tuple[int, str]],
                 origin: str = "") -> None:
    """Two MCP servers may not share a label, nor a kind of programmatic tool appear twice (``seen``: label →
    the line of its first declaration and where it came from, filled in as the tools are read; ``origin``:
    ", imported by from: FILE" for a tool read from a tool file, whose line is that of the ``from:``)."""
    key = tool.label
    if key in seen:
        what = f"mcp server_label '{tool.fields['server_label']}'" if tool.kind == "mcp" else f"tool {tool.kind}"
        line, first = seen[key]
        raise r.loc(node).fail(f"duplicate {what}{origin} (first declared on line {line}{first})", "keep one of them")
    seen[key] = (r.loc(node).line, origin)


def _child(node: yaml.Node, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        return next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key), None)
    return None


def _label(r: Reader, node: yaml.Node) -> str:
    label = r.string(node, "server_label of an mcp tool")
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", label):
        raise r.loc(node).fail(f"server_label {label!r} must be letters, digits, _ and - (at most 64)",
                               "its calls carry it, and Anthropic uses it as the server's name")
    return label


def _names(r: Reader, node: yaml.Node, what: str) -> list[str]:
    names = [r.string(item, f"a name in {what}") for item in r.sequence(node, what)]
    return names


def _filter(r: Reader, node: yaml.Node, what: str, list_ok: bool) -> Any:
    """A list of tool names, or ``{tool_names: [...], read_only: bool}`` (Mcp ``McpAllowedToolsMcpToolFilter``)."""
    if list_ok and isinstance(node, yaml.SequenceNode):
        return _names(r, node, what)
    fields = r.mapping(node, what, ("tool_names", "read_only"))
    out: dict[str, Any] = {}
    if "tool_names" in fields:
        out["tool_names"] = _names(r, fields["tool_names"], f"{what}.tool_names")
    if "read_only" in fields:
        out["read_only"] = r.boolean(fields["read_only"], f"{what}.read_only")
    return out


def _approval(r: Reader, node: yaml.Node, label: str) -> Any:
    """``always`` | ``never`` | ``{always: FILTER, never: FILTER}`` (Mcp ``McpRequireApproval``)."""
    what = f"require_approval of mcp tool '{label}'"
    if isinstance(node, yaml.ScalarNode):
        value = r.value(node)
        if value not in ("always", "never"):
            raise r.loc(node).fail(f"{what} must be always, never or {{always: …, never: …}}, not {show(value)}",
                                   None)
        return value
    fields = r.mapping(node, what, ("always", "never"))
    return {key: _filter(r, child, f"{what}.{key}", False) for key, child in fields.items()}


MAX_HEADERS = 100  # headers of one MCP server: real ones send a few (20,000 took 22 s to check and print)


def _headers(r: Reader, node: yaml.Node, label: str) -> dict[str, str]:
    out: dict[str, str] = {}
    lowered: dict[str, str] = {}
    given = r.mapping(node, f"headers of mcp tool '{label}'")
    if len(given) > MAX_HEADERS:
        raise r.loc(node).fail(f"headers of mcp tool '{label}': {len(given)} headers, more than {MAX_HEADERS}",
                               "send the few the server needs")
    for name, child in given.items():
        if not HEADER_NAME.fullmatch(name):
            raise r.loc(key_node(node, name) or child).fail(f"headers of mcp tool '{label}': {name!r} is not a "
                                                            "valid HTTP header name", "letters, digits and - only")
        same = lowered.get(name.lower())
        lowered.setdefault(name.lower(), name)
        if same is not None:  # RFC 9110 §5.1: "Field names are case-insensitive"; §5.3: one line per name
            raise r.loc(key_node(node, name) or child).fail(
                f"headers of mcp tool '{label}': {name!r} and {same!r} name one header (header names are "
                "case-insensitive, RFC 9110 §5.1)", "keep one of them")
        out[name] = _secret(r, child, f"headers.{name} of mcp tool '{label}'", False)
    return out


def _server_url(r: Reader, node: yaml.Node, url: str, label: str) -> None:
    """An http(s) URL with a host, refused as a base URL is (request_parts.http_url_fault), a query string too:
    user info or a query would put a credential in the file and in every output; shown with those parts left out."""
    from .request_parts import http_url_fault

    fault = http_url_fault(url, base=False)
    if fault:
        words, in_parts = fault
        raise r.loc(node).fail(f"server_url of mcp tool '{label}' {words}",
                               "give scheme://host[:port]/path only; a token goes in authorization: $TOKEN or headers"
                               if in_parts else "write server_url: https://example.com/mcp")
    from .literal_keys import check_url_path

    check_url_path(r, node, f"server_url of mcp tool '{label}'", url, 'RenderOptions(allow_env=("{var}",))')


def _secret(r: Reader, node: yaml.Node, what: str, whole: bool) -> str:
    """A value sent to the MCP server that may hold a credential: it names an environment variable (``$NAME``),
    so the file never holds the secret and no output shows it. ``whole``: the reference alone (authorization);
    else a header, which may put an auth scheme word before it (``SCHEMED_PLACEHOLDER``) and nothing else."""
    value = r.value(node)
    form = PLACEHOLDER if whole else SCHEMED_PLACEHOLDER
    if not isinstance(value, str) or not form.fullmatch(value):
        allowed = ('an $ENV reference alone (e.g. "$DOCS_TOKEN")' if whole else
                   'an $ENV reference, alone or after one auth scheme word ("$DOCS_TOKEN", "Bearer $DOCS_TOKEN")')
        raise r.loc(node).fail(f"{what} must be {allowed}, with no literal text beside it",
                               "keep secrets out of scenario and tool files: export the value and write its name with $")
    return value


def own_authorization(fields: Any) -> str | None:
    """The name of an mcp tool's own Authorization header as written (header names are case-insensitive), when
    it also has ``authorization``: both would reach the server as its one Authorization header."""
    if "authorization" not in fields:
        return None
    return next((name for name in fields.get("headers") or {} if name.lower() == "authorization"), None)


def env_paths(fields: dict[str, Any], prefix: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """Where a rendered tool holds ``$ENV`` placeholders (``Request.body_env``): its headers and authorization,
    under whatever keys the family renders them (``fields`` maps body key → value)."""
    paths: list[tuple[Any, ...]] = []
    for key, value in fields.items():
        if isinstance(value, dict):
            paths.extend(env_paths(value, prefix + (key,)))
        elif isinstance(value, str) and PLACEHOLDER.search(value):
            paths.append(prefix + (key,))
    return paths


def lint(cap: Any, scenario: Any, ledger: Any) -> bool:
    """A ``tool.native_dropped`` warning for each hosted tool this provider's module does not render (its
    ``NATIVE_TOOLS``), naming the SDK type its tools are (``TOOLS_TYPE``); True when it renders any."""
    from .facts import cited
    from .registry import module_for, native_tool_takers

    module = module_for(cap.provider)
    takes = getattr(module, "NATIVE_TOOLS", {})
    kept = False
    for tool in scenario.native_tools:
        if tool.kind in takes:
            kept = True
            continue
        kinds = getattr(module, "TOOLS_TYPE", "")  # the id of the fact naming the SDK type (core/facts.py)
        kinds = kinds.get(cap.provider, kinds.get("")) if isinstance(kinds, dict) else kinds
        kinds = cited(kinds) if kinds else ""
        takers = native_tool_takers(tool.kind)
        ledger.warning("tool.native_dropped", f"tool {tool.label} is not sent: the tools of {cap.title} "
                       f"({kinds or 'its API reference'}) have no {tool.kind} tool, and toolchoice does not guess a "
                       f"stand-in; {', '.join(takers) or 'no provider'} take{'s' if len(takers) == 1 else ''} it")
    return kept


def kept(ctx: Any) -> tuple[NativeTool, ...]:
    """The scenario's hosted tools this request renders (its module's ``NATIVE_TOOLS``); none when the plan
    leaves the tools out (tool_choice none emulated)."""
    from .registry import module_for

    if not ctx.scenario.native_tools or ctx.plan.omit_tools:
        return ()
    takes = getattr(module_for(ctx.provider), "NATIVE_TOOLS", {})
    return tuple(t for t in ctx.scenario.native_tools if t.kind in takes)


def check_body_env(ctx: Any, body: dict[str, Any], url: str) -> None:
    """The environment variables an MCP server's headers read at send time: each is sent to the provider, which
    passes it to the server, so (as ``providers.<id>.headers``) only a variable the user allowed is read
    (``--allow-env NAME``: a warning naming where it goes), any other is an error."""
    from urllib.parse import urlsplit

    for path in ctx.body_env:
        value: Any = body
        for key in path:
            value = value[key] if isinstance(value, (dict, list)) else None
        if not isinstance(value, str):
            continue
        where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")
        for match in PLACEHOLDER.finditer(value):
            var = match.group(1) or match.group(2)
            env_read(ctx, var, where, "an mcp tool", refused_then=" (to the MCP server)",
                     allowed_then=f" to {urlsplit(url).netloc or url}, which passes it to the MCP server")
