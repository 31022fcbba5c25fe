"""What the framework dialects (``--dialect langchain``, ``litellm``, ``vercel``) share: a request body's fields
reached by dotted path (``ABSENT`` where a field is left out), the API request rebuilt for a changed scenario, and
the API side of a dialect view's JSON. Each dialect's rules stay in its own modules; imported only with a dialect."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from .core.dialects import Rebuild
from .core.model import Scenario, ToolChoice, Translation, compact

ABSENT: Any = object()  # a field the framework leaves out of the body
# toolchoice refuses the API request for these alone, and the frameworks send their request anyway
SENT_ANYWAY = frozenset({"thinking.forced_choice", "tool_choice.without_tools"})


def get_path(body: Any, path: str) -> Any:
    """The value at a dotted path of ``body``, or ABSENT."""
    node = body
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return ABSENT
        node = node[part]
    return node


def set_path(body: dict[str, Any], path: str, value: Any) -> None:
    """Sets the value at a dotted path, making the objects above it; ABSENT removes the field (and makes nothing)."""
    *parents, last = path.split(".")
    node = body
    for part in parents:
        if value is ABSENT and not isinstance(node.get(part), dict):
            return
        node = node.setdefault(part, {})
    if value is ABSENT:
        node.pop(last, None)
    else:
        node[last] = value


def shown(value: Any) -> str:
    return "nothing" if value is ABSENT else compact(value)


def filled(template: Any, name: str | None) -> Any:
    """A rule's wire template with ``"{name}"`` replaced by the named tool."""
    if isinstance(template, str):
        return name if template == "{name}" else template
    if isinstance(template, list):
        return [filled(v, name) for v in template]
    if isinstance(template, dict):
        return {k: filled(v, name) for k, v in template.items()}
    return template


def model_of(api: Translation) -> str:
    """The model id the API request names: the body's model, else the URL's (Bedrock's and Gemini's path, an Azure
    deployment)."""
    assert api.request is not None
    model = api.request.body.get("model")
    if isinstance(model, str):
        return model
    match = re.search(r"/model/([^/]+)/|/models/([^/:]+):|/deployments/([^/]+)/", api.request.url)
    return unquote(next(g for g in match.groups() if g)) if match else ""


def translated(rebuild: Rebuild | None, scenario: Scenario, provider: str) -> Translation:
    """The API translation of a changed scenario: with the command line's options when the caller gave them."""
    if rebuild is not None:
        return rebuild(scenario, provider)
    from .core.registry import translate

    return translate(provider, scenario)


def rebuilt_base(api: Translation, scenario: Scenario, rebuild: Rebuild | None) -> Translation:
    """A refused API translation whose only faults the framework does not check (``SENT_ANYWAY``), rebuilt with
    tool_choice auto, or none without tools (the dialect then sets the choice as the framework sends it). Else
    ``api``."""
    errors = {e.code for e in api.ledger if e.severity == "error"}
    if api.request is not None or not errors or not errors <= SENT_ANYWAY:
        return api
    base = translated(rebuild, scenario._replace(
        tool_choice=ToolChoice("auto", spelling="auto") if scenario.tools else None), api.provider)
    return base if base.request is not None else api


def api_json(api: Translation) -> dict[str, Any]:
    """The API side of a dialect view's JSON."""
    return {"effective_tool_choice": api.effective_tool_choice,
            "request": api.request.to_json() if api.request else None, "offered_tools": list(api.offered_tools)}
