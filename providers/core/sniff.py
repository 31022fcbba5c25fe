"""What a file given as a saved reply (``toolchoice parse``) is, when it is not the reply asked for.

Which wire family a reply body looks like, from the top-level fields each API documents: used when a body does not
read as the provider asked for (``parse FILE -p anthropic`` on an OpenAI body) to say which ``-p`` would read it.
Each provider module declares its family's success shape (``looks_like_reply``) and what to call it (``REPLY_KIND``);
error bodies read as errors. And the files given there by mistake: the request or parsed-reply file ``--save``
writes beside the body (``saved_sibling``), a scenario (``scenario_given``), a saved stream (``saved_stream``)."""

from __future__ import annotations

import re
from pathlib import Path, PurePath
from typing import Any

from .model import ToolchoiceError
from .registry import family_modules


def family_of(body: Any) -> str | None:
    """The family module name whose documented reply shape ``body`` has, or None."""
    if not isinstance(body, dict):
        return None
    for module in family_modules():
        if module.looks_like_reply(body):
            return module.__name__.rsplit(".", 1)[1]
    return None


def reply_kind(family: str) -> tuple[str, str]:
    """(what to call a reply of the family module ``family``, the -p to suggest)."""
    return next(m.REPLY_KIND for m in family_modules() if m.__name__.rsplit(".", 1)[1] == family)


def foreign_kind(provider: str, body: Any) -> tuple[str, str] | None:
    """When ``body`` has the documented reply shape of a family other than ``provider``'s: (what to call such a
    reply, the -p that reads it); else None (no known shape, the provider's own, or an unknown provider)."""
    from .capabilities import CAPABILITIES

    family = family_of(body)
    if family is None or provider not in CAPABILITIES or family == CAPABILITIES[provider].module:
        return None
    return reply_kind(family)


def wrong_format(provider: str, body: Any) -> ToolchoiceError | None:
    """When the body has another family's documented reply shape (some parsers read a foreign body as
    an empty reply, others fail): a usage error naming the -p that reads it."""
    foreign = foreign_kind(provider, body)
    if foreign is None:
        return None
    what, suggestion = foreign
    return ToolchoiceError(f"this body looks like {what}, not a reply in {provider}'s format", hint=f"use -p {suggestion}")


# the files `send --save` / `run --save` write beside the body as it arrived (save.py), by their keys
_SAVED = ((frozenset({"method", "url", "headers", "body"}), "request"),
          (frozenset({"provider", "status", "attempts", "reply", "verdict"}), "reply"))


def saved_sibling(path: str, body: Any) -> ToolchoiceError | None:
    """A request or parsed-reply file that --save wrote, given where the response body goes (``path``; ``-``:
    stdin): bad input naming the body's file beside it (the README calls what parse reads "a saved reply")."""
    if not isinstance(body, dict):
        return None
    kind = next((kind for keys, kind in _SAVED if keys <= body.keys()), None)
    if kind is None:
        return None
    where = PurePath(path)
    name = where.name.replace(f".{kind}.json", ".response.json") if f".{kind}.json" in where.name else None
    if name is not None and path != "-" and not Path(where.with_name(name)).exists():
        from .stream_framing import SAVE_SUFFIX  # a --stream sample's body was saved as the stream it was

        streams = [where.with_name(name[:-len(".json")] + suffix) for suffix in SAVE_SUFFIX.values()]
        streamed = next((s for s in streams if Path(s).exists()), None)
        if streamed is not None:
            return ToolchoiceError(f"{path} is the {kind} file --save writes, not a response body",
                                   hint=f"give {streamed} --stream (the stream as it arrived)")
    hint = f"give {where.with_name(name)} (the body as it arrived)" if name else \
        "give the sample's .response.json file (the body as it arrived)"
    shown = "stdin" if path == "-" else path
    return ToolchoiceError(f"{shown} is the {kind} file --save writes, not a response body", hint=hint)


def saved_stream(path: str, text: str) -> bool:
    """Whether a file that is not JSON is a saved stream: named as `send --stream --save` names one, or SSE."""
    from .stream_framing import SAVE_SUFFIX

    return PurePath(path).suffix in SAVE_SUFFIX.values() or text.lstrip().startswith(("data:", "event:"))


def scenario_given(path: str, text: str) -> ToolchoiceError | None:
    """A toolchoice scenario given where the saved reply goes (a text that is not JSON, with a scenario's top-level
    keys): bad input, not a provider's non-JSON answer."""
    if re.search(r"^(tools|messages|tool_choice|loop):", text[:100_000], re.M):
        return ToolchoiceError(f"{path} is a toolchoice scenario, not a saved response body",
                               hint="a scenario goes to `toolchoice render FILE -p ID` or send; parse reads a reply "
                                    "(send --save writes them) and judges it with --scenario FILE")
    return None
