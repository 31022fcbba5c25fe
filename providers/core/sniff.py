"""Which wire family a reply body looks like, from the top-level fields each API documents.

Used when a body does not read as the provider asked for (``parse FILE -p anthropic`` on an OpenAI
body) to say which ``-p`` would read it. Each provider module declares its family's success shape
(``looks_like_reply``) and what to call it (``REPLY_KIND``); error bodies read as errors."""

from __future__ import annotations

from typing import Any

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
