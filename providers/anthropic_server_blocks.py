"""Anthropic's server tool blocks and structured stop, read alike from a whole Messages body (``anthropic.parse_reply``)
and from its stream (``anthropic_stream``): tool search and MCP blocks as server calls, ``stop_details`` as given."""

from __future__ import annotations

from typing import Any

from .core.model import ServerCall

TOOL_SEARCH_TOOLS = ("tool_search_tool_regex", "tool_search_tool_bm25")  # types/server_tool_use_block.py names


class ToolSearches:
    """Tool search blocks of one reply, in order: a ``server_tool_use`` of a tool search tool and the
    ``tool_search_tool_result`` that answers it (by ``tool_use_id``) make one ServerCall."""

    def __init__(self) -> None:
        self.found: dict[str, ServerCall] = {}

    def add(self, block: dict[str, Any]) -> None:
        kind = block.get("type")
        if kind == "mcp_tool_use" and isinstance(block.get("id"), str):  # beta/beta_mcp_tool_use_block.py
            name, server = block.get("name"), block.get("server_name")
            self.found.setdefault(block["id"], ServerCall("mcp_tool_use", id=block["id"],
                                                          name=name if isinstance(name, str) else None,
                                                          server=server if isinstance(server, str) else None))
        elif kind == "mcp_tool_result" and block.get("tool_use_id") in self.found and block.get("is_error") is True:
            ident = block["tool_use_id"]  # beta/beta_mcp_tool_result_block.py: content, is_error, tool_use_id
            self.found[ident] = self.found[ident]._replace(error="mcp_tool_result is_error")
        elif kind == "server_tool_use" and block.get("name") in TOOL_SEARCH_TOOLS and isinstance(block.get("id"), str):
            self.found.setdefault(block["id"], ServerCall("tool_search", id=block["id"], name=block["name"]))
        elif kind == "tool_search_tool_result" and isinstance(block.get("tool_use_id"), str):
            ident = block["tool_use_id"]
            call = self.found.get(ident, ServerCall("tool_search", id=ident))
            content = block.get("content") if isinstance(block.get("content"), dict) else {}
            if content.get("type") == "tool_search_tool_result_error":
                code = content.get("error_code")
                call = call._replace(error=code if isinstance(code, str) else "tool_search_tool_result_error")
            else:
                refs = content.get("tool_references")
                loaded = tuple(r["tool_name"] for r in (refs if isinstance(refs, list) else [])
                               if isinstance(r, dict) and r.get("type") == "tool_reference"
                               and isinstance(r.get("tool_name"), str))
                call = call._replace(loaded=call.loaded + loaded)
            self.found[ident] = call

    def calls(self) -> tuple[ServerCall, ...]:
        return tuple(self.found.values())


def stop_details(holder: dict[str, Any]) -> dict[str, Any] | None:
    """``stop_details`` as the reply gave it, or None: RefusalStopDetails has type, category, explanation
    (anthropic 2.14.0); the API has also sent ``recommended_model`` (vercel/ai's recorded anthropic-refusal.json),
    so every text field is kept (at most 8, each bounded)."""
    details = holder.get("stop_details")
    if not isinstance(details, dict):
        return None
    kept = {}
    for key, value in details.items():
        if isinstance(key, str) and (value is None or isinstance(value, str)) and len(kept) < 8:
            kept[key[:64]] = value[:2000] if isinstance(value, str) else None
    return kept
