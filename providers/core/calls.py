"""One tool call normalized from its wire parts (id, name, arguments as a JSON string or an object), for every
parser and stream assembler. Its JSON is read bounded (``bounded.json_loads``): depth-limited, and ``NaN`` /
``Infinity`` are not JSON."""

from __future__ import annotations

import json
from typing import Any

from .bounded import Unreadable, json_loads, no_constant
from .model import ToolCall


def make_call(call_id: Any, name: Any, arguments: Any) -> ToolCall:
    """Normalize one call. ``arguments`` may be a JSON string, an object, "null", "" or None;
    invalid JSON (or JSON that is not an object) is kept raw with the reason."""
    cid = call_id if isinstance(call_id, str) else (str(call_id) if call_id is not None else None)
    cname = name if isinstance(name, str) else ("" if name is None else str(name))
    if arguments is None:
        return ToolCall(cid, cname, {})
    if isinstance(arguments, dict):
        return ToolCall(cid, cname, arguments)
    if isinstance(arguments, str):
        text = arguments.strip()
        if text in ("", "null"):
            return ToolCall(cid, cname, {})
        try:
            value = json_loads(text, parse_constant=no_constant)
        except Unreadable as exc:  # valid JSON past a bound (json_depth, Python's digits): said with it, not invalid
            return ToolCall(cid, cname, None, raw_arguments=arguments, arguments_error=f"cannot be read: {exc}")
        except ValueError as exc:
            return ToolCall(cid, cname, None, raw_arguments=arguments, arguments_error=f"invalid JSON: {exc}")
        if value is None:
            return ToolCall(cid, cname, {})
        if isinstance(value, dict):
            return ToolCall(cid, cname, value)
        return ToolCall(cid, cname, None, raw_arguments=arguments,
                        arguments_error=f"arguments are JSON {type(value).__name__}, not an object")
    return ToolCall(cid, cname, None, raw_arguments=json.dumps(arguments, default=str),
                    arguments_error=f"arguments are {type(arguments).__name__}, not an object")
