"""The tool_choice a request sends when ``providers.<id>.extra`` writes it: read back to the neutral form with the
family's own reader (its mock module's ``mock_read``, the one ``toolchoice mock`` and ``trace SAVED`` use), so that
the verdict judges what went on the wire rather than the scenario's choice extra replaced
(``Translation.sent_choice``; core/verdict.py reads it).

Where the written form cannot be read (a shape the API refuses, a word it does not take, a body the reader refuses,
a tool no tools list declares) the scenario's choice is kept for the verdict, and the ledger says so instead of
guessing. Read only when extra changed the choice field: a translation without extra loads nothing of this."""

from __future__ import annotations

from typing import Any, NamedTuple

from .model import ToolChoice, ToolchoiceError, quoted
from .request_context import Context

ABSENT = object()  # the choice field is not in the body


class SentChoice(NamedTuple):
    """What the verdict judges instead of the scenario's tool_choice: ``choice`` (None: the request sets none), and
    the reason line that says where it came from."""

    choice: ToolChoice | None
    said: str


def at(body: Any, path: tuple[str, ...]) -> Any:
    """The value at ``path`` in ``body``, or ``ABSENT``."""
    for key in path:
        if not isinstance(body, dict) or key not in body:
            return ABSENT
        body = body[key]
    return body


def _same(a: ToolChoice | None, b: ToolChoice | None) -> bool:
    """The same choice for a verdict (how it was spelled aside)."""
    if a is None or b is None:
        return a is b
    return a._replace(spelling="") == b._replace(spelling="")


def _text(choice: ToolChoice | None) -> str:
    return "not set" if choice is None else choice.quoted()


def read_back(ctx: Context, method: str, url: str, body: dict[str, Any], path: tuple[str, ...],
              before: Any) -> SentChoice | None:
    """The choice the merged ``body`` sends at ``path`` where extra changed it from ``before`` (the translated value,
    or ``ABSENT``), as the verdict is to judge it, with its ledger entry; None when nothing changes for the verdict
    (extra left the choice alone, or wrote the scenario's own choice in another spelling, or it cannot be read)."""
    after = at(body, path)
    if after is before or after == before:
        return None
    where = f"providers.{ctx.provider}.extra"
    field = ".".join(path)
    written = "no tool_choice" if after is ABSENT else f"{field} {quoted(after)[:160]}"
    own = ctx.scenario.tool_choice
    scenario_s = "the scenario's tool_choice " + _text(own) if own is not None else "the scenario's (it sets none)"
    choice, why = _read(ctx, method, url, body, after)
    if why is not None:
        ctx.ledger.info("tool_choice.extra_unread", f"{where} sends {written}, which toolchoice cannot read back to a "
                        f"tool_choice ({why}): the verdict judges {scenario_s}")
        return None
    if _same(choice, own):
        return None
    ctx.ledger.info("tool_choice.from_extra", f"{where} sends {written} in place of {scenario_s}: the verdict "
                    f"judges what is sent, read as {_text(choice)}")
    return SentChoice(choice, f"judged against the tool_choice {where} sends ({_text(choice)}), not {scenario_s}")


def _read(ctx: Context, method: str, url: str, body: dict[str, Any], after: Any) -> tuple[ToolChoice | None,
                                                                                             str | None]:
    """(the neutral choice, None) or (None, why it cannot be read), by the family's reader."""
    from .registry import mock_family

    try:
        family = mock_family(ctx.provider)
    except ToolchoiceError:
        return None, f"no reader of request bodies for {ctx.cap.title}"
    route = _route(family, method, url)
    if route is None:
        return None, f"the URL path is not one the reader for {ctx.cap.title} knows"
    per_host = {"provider": ctx.provider} if getattr(family, "MOCK_PER_HOST", False) else {}
    from .mock.judge import MockMalformed

    try:
        read = family.mock_read(body, route, **per_host)
    except MockMalformed as exc:  # the API's 400, whatever the choice: nothing it obeys or not
        return None, f"the API refuses the body: {(str(exc).splitlines() or [''])[0][:160]}"
    except (ToolchoiceError, TypeError, AttributeError, KeyError, IndexError, ValueError, RecursionError) as exc:
        return None, f"the body does not read: {type(exc).__name__}"
    shaped = [n for n in read.notes if n.severity == "error" and n.code.startswith("tool_choice.")]
    if read.shape is not None or shaped:  # another API's form: the API answers 400
        return None, f"not a shape {ctx.cap.title} takes; the API refuses it"
    if read.requested is None:
        if after is ABSENT or after is None:
            return None, None  # extra removed the choice: the request sets none
        return None, f"{ctx.cap.title} reads no tool_choice there"
    value = read.choice_value if read.choice_value is not None else read.requested
    from .facts import choice_words

    stated = choice_words(ctx.provider)
    if stated is not None and isinstance(value, str) and value not in stated[1].words:
        listed = ", ".join(stated[1].words)
        refused = stated[1].others == "refused" and isinstance(read.requested, str)
        return None, (f"{quoted(value)} is not one of the tool_choice words {ctx.cap.title} takes ({listed}; "
                      f"fact {stated[0]})" + ("; the API refuses it" if refused else ", and no source says what the API "
                                         "does with it"))
    if stated is not None and not stated[1].forms and value not in stated[1].words:
        return None, f"{quoted(value)} is not a value {ctx.cap.title} documents"
    from .choice import parse_tool_choice

    names = tuple(t.name for t in read.tools)
    try:
        return parse_tool_choice(value, names), None
    except ToolchoiceError as exc:
        return None, exc.message


def _route(family: Any, method: str, url: str) -> Any:
    """The family's route for the URL's path, or for its tail after a base URL's own prefix (a gateway's path)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url).path.split("/")
    for start in range(1, len(parts)):
        route = family.mock_route(method, "/" + "/".join(parts[start:]))
        if route is not None:
            return route
    return None
