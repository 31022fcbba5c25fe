"""Hosted tools found in a ``from:`` tool file: an exported OpenAI Responses tool list holds its MCP servers as
``{"type": "mcp", "server_label": ..., "server_url": ...}`` beside the function tools. Each entry of a kind
toolchoice knows (``model.NATIVE_TOOL_KINDS``) is read by ``native_tools.read_native_tool`` from the tool file's
own YAML nodes, so it becomes the ``NativeTool`` the same entry written in a scenario's ``tools:`` gives, with
the same checks (a literal secret in ``headers`` / ``authorization`` refused) and one-line ``file:line`` errors
pointing into the tool file. Loaded only when a tool file holds one (``tool_import._imported``).

A Response echoes its tools with ``null`` for what was not set (openai 3.57.0 ``types/responses/tool.py``
``Mcp``: every key but ``type`` and ``server_label`` is ``Optional[...] = None``; the recorded body
``tests/data/responses/openai-responses/openai-responses-mcp-call.json`` has ``"allowed_tools": null,
"headers": null``): such a key is read as not set, and the ledger says so.
"""

from __future__ import annotations

import json
from typing import Any

import yaml

from . import native_tools
from .model import LedgerEntry, NativeTool, ToolchoiceError
from .yaml_input import Reader, composed

DataPath = tuple[Any, ...]

# openai 3.57.0 types/responses/tool.py class Mcp(BaseModel): the keys typed Optional[...] = None
MCP_NULLABLE = ("allowed_callers", "allowed_tools", "authorization", "connector_id", "defer_loading", "headers",
                "require_approval", "server_description", "server_url", "tunnel_id")
NULL_TAG = "tag:yaml.org,2002:null"


def read_hosted(text: str, name: str, shown: str, entries: list[tuple[Any, DataPath]],
                json_lines: list[int] | None) -> tuple[tuple[NativeTool, ...], LedgerEntry]:
    """The hosted entries (each with where it is in the parsed file) as ``NativeTool`` records, and the
    ``import.hosted`` note naming them. ``text``: the file; ``name``: its path, as errors name it; ``shown``:
    as the scenario wrote it; ``json_lines``: the line of each entry of a JSON Lines file."""
    tools: list[NativeTool] = []
    nulls: list[list[str]] = []
    seen: dict[str, tuple[int, str]] = {}

    def read(r: Reader, node: yaml.Node) -> None:
        node, dropped = _without_nulls(r, node)
        tool = native_tools.read_native_tool(r, node)
        native_tools.check_unique(r, tool, node, seen)
        tools.append(tool)
        nulls.append(dropped)

    if json_lines is not None:  # the rows composed as one list, each on the line it has in the file
        rows = text.splitlines()
        lines = [json_lines[where[0]] for _, where in entries]
        if lines[0] == 1:  # a "[" before the first row would move its columns: that row alone
            with composed(rows[0], name) as (r, root):
                read(r, root)
            lines = lines[1:]
        if lines:
            pieces, at = ["["], 1
            for n, line in enumerate(lines):  # the comma ends the row before, so each row starts its line
                pieces.append(("," if n else "") + "\n" * (line - at) + rows[line - 1])
                at = line
            with composed("".join(pieces) + "]", name) as (r, root):
                for node in root.value:
                    read(r, node)
    else:
        opened = False
        try:
            with composed(text, name) as (r, root):
                opened = True
                for _, where in entries:
                    read(r, _node_at(root, where))
        except ToolchoiceError:
            if opened:
                raise
            # JSON that YAML cannot compose (tabs for indentation): each entry read on its own, lines unknown
            for entry, _ in entries:
                try:
                    with composed(json.dumps(entry, ensure_ascii=False), name) as (r, root):
                        read(r, root)
                except ToolchoiceError as inner:
                    raise ToolchoiceError(inner.message, path=name, hint=inner.hint) from None
    named = ", ".join(t.label + (f" ({', '.join(dropped)} null: read as not set)" if dropped else "")
                      for t, dropped in zip(tools, nulls))
    message = (f"{shown}: {len(tools)} hosted tool{'s' if len(tools) != 1 else ''} kept, checked and sent as if "
               f"written in the scenario's tools: {named}")
    return tuple(tools), LedgerEntry("info", "import.hosted", message)


def _node_at(root: yaml.Node, where: DataPath) -> yaml.Node:
    node = root
    for step in where:
        if isinstance(node, yaml.MappingNode):
            node = next(v for k, v in node.value if k.value == step)
        else:
            node = node.value[step]
    return node


def _without_nulls(r: Reader, node: yaml.Node) -> tuple[yaml.Node, list[str]]:
    """An mcp entry without the keys a Response echoes as null (``MCP_NULLABLE``), and which those were."""
    if not isinstance(node, yaml.MappingNode):
        return node, []
    kind = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == "type"), None)
    if kind is None or r.value(kind) != "mcp":
        return node, []
    dropped = [k.value for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value in MCP_NULLABLE
               and isinstance(v, yaml.ScalarNode) and v.tag == NULL_TAG]
    if not dropped:
        return node, []
    kept = [(k, v) for k, v in node.value if not (isinstance(k, yaml.ScalarNode) and k.value in dropped)]
    return yaml.MappingNode(node.tag, kept, node.start_mark, node.end_mark, node.flow_style), dropped
