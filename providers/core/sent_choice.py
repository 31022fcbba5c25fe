"""The tool_choice a request sends when ``providers.<id>.extra`` writes it: read back to the neutral form with the
family's own reader (its mock module's ``mock_read``, the one ``toolchoice mock`` and ``trace SAVED`` use), so that
the verdict judges what went on the wire rather than the scenario's choice extra replaced
(``Translation.sent_choice``; core/verdict.py reads it).

Where the written form cannot be read (a shape the API refuses, a word it does not take, a body the reader refuses,
a tool no tools list declares) the scenario's choice is kept for the verdict, and the ledger says so instead of
guessing. Read only when extra changed the choice field: a translation without extra loads nothing of this.

The parallel setting alike (``Translation.sent_parallel``, ledger ``parallel.from_extra`` / ``parallel.extra_unread``):
where extra changes the field that holds it (``parallel_tool_calls``; Anthropic's ``tool_choice``, whose
``disable_parallel_tool_use`` goes with it), the family's reader reads what the merged body sends, and the verdict
judges that. A family whose wire has no parallel setting (Gemini, Bedrock's Converse, Cohere, Ollama) keeps the
scenario's."""

from __future__ import annotations

from typing import Any

# SentChoice and SentParallel live in model.py beside Translation, which holds them (an import from here would be a
# circle); handed on here, where they are made
from .model import SentChoice, SentParallel, SentSource, ToolChoice, ToolchoiceError, quoted  # noqa: F401
from .request_context import Context

ABSENT = object()  # the choice field is not in the body


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
              before: Any, reads: dict[str, Any] | None = None) -> SentChoice | None:
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
    choice, why = _read(ctx, method, url, body, after, reads)
    if why is not None:
        ctx.ledger.info("tool_choice.extra_unread", f"{where} sends {written}, which toolchoice cannot read back to a "
                        f"tool_choice ({why}): the verdict judges {scenario_s}")
        return None
    if _same(choice, own):
        return None
    ctx.ledger.info("tool_choice.from_extra", f"{where} sends {written} in place of {scenario_s}: the verdict "
                    f"judges what is sent, read as {_text(choice)}")
    return SentChoice(choice, path, _source(after),
                      f"judged against the tool_choice {where} sends ({_text(choice)}), not {scenario_s}")


def _source(after: Any) -> SentSource:
    """Where what is sent comes from: extra's value at the path, or no field there (the API's default)."""
    return "absent" if after is ABSENT else "extra"


# ---- the parallel setting -----------------------------------------------------------------------------------------

_PATHS: dict[str, tuple[tuple[str, ...], ...]] = {}


def parallel_paths(ctx: Context) -> tuple[tuple[str, ...], ...]:
    """Where the request's family holds its parallel setting on the wire: the ``parallel`` wire field of each row
    of the provider's module that has one (``parallel_tool_calls``; Anthropic's
    ``tool_choice.disable_parallel_tool_use``). () for a family whose wire has none."""
    module = ctx.cap.module
    found = _PATHS.get(module)
    if found is None:
        from .capabilities import CAPABILITIES

        found = _PATHS[module] = tuple(dict.fromkeys(
            tuple(c.parallel.wire.split(".")) for c in CAPABILITIES.values()
            if c.module == module and c.parallel.usable and c.parallel.wire))
    return found


def parallel_fields(body: dict[str, Any], paths: tuple[tuple[str, ...], ...]) -> tuple[Any, ...]:
    """The body's fields that hold the parallel setting (the first key of each path), before extra is merged."""
    return tuple(at(body, path[:1]) for path in paths)


def _changed(before: Any, after: Any) -> bool:
    """Whether extra changed a field: JSON's values compared (true is not 1)."""
    if after is before:
        return False
    if after is ABSENT or before is ABSENT:
        return True
    import json

    try:
        return json.dumps(after, sort_keys=True, default=str) != json.dumps(before, sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):  # keys JSON cannot sort, a loop: read it, as changed
        return True


def _flag(value: bool | None) -> str:
    return "not set" if value is None else str(value).lower()


def read_parallel(ctx: Context, method: str, url: str, body: dict[str, Any], paths: tuple[tuple[str, ...], ...],
                  before: tuple[Any, ...], reads: dict[str, Any] | None = None) -> SentParallel | None:
    """The parallel setting the merged ``body`` sends where extra changed the field that holds it (``before``:
    ``parallel_fields`` of the translated body), as the verdict is to judge it, with its ledger entry; None when
    nothing changes for the verdict (the same setting as the scenario's for a judge: only false limits the calls),
    or when it cannot be read (the ledger says why)."""
    changed = [path for path, was in zip(paths, before) if _changed(was, at(body, path[:1]))]
    if not changed:
        return None
    path = changed[0]
    after = at(body, path)
    where = f"providers.{ctx.provider}.extra"
    field = ".".join(path)
    written = f"no {field}" if after is ABSENT else f"{field} {quoted(after)[:160]}"
    own = ctx.scenario.parallel_tool_calls
    scenario_s = (f"the scenario's parallel_tool_calls {_flag(own)}" if own is not None
                  else "the scenario's (it sets none)")
    parallel, why = _read_parallel(ctx, method, url, body, after, reads)
    if why is not None:
        ctx.ledger.info("parallel.extra_unread", f"{where} sends {written}, which toolchoice cannot read back to a "
                        f"parallel setting ({why}): the verdict judges {scenario_s}")
        return None
    if (parallel is False) == (own is False):
        return None
    read = f"parallel_tool_calls {_flag(parallel)}" + (", the API's default" if parallel is None else "")
    ctx.ledger.info("parallel.from_extra", f"{where} sends {written} in place of {scenario_s}: the verdict judges "
                    f"what is sent, read as {read}")
    return SentParallel(parallel, path, _source(after),
                        f"judged against the parallel setting {where} sends ({read}), not {scenario_s}")


def _read_parallel(ctx: Context, method: str, url: str, body: dict[str, Any], after: Any,
                   reads: dict[str, Any] | None) -> tuple[bool | None, str | None]:
    """(the parallel setting sent, None: not set) and None, or (None, why it cannot be read), by the family's
    reader; a row of the family without a parallel switch keeps the scenario's."""
    if not ctx.cap.parallel.usable:
        return None, f"{ctx.cap.title} has no parallel switch a source documents, so what it does with the field is " \
                     "not known"
    read, why = _family_read(ctx, method, url, body, reads)
    if read is None:
        return None, why
    if read.parallel is None and after is not ABSENT and after is not None:
        return None, f"{quoted(after)[:80]} is not true or false"
    return read.parallel, None


def _family_read(ctx: Context, method: str, url: str, body: dict[str, Any],
                 reads: dict[str, Any] | None) -> tuple[Any, str | None]:
    """(the family reader's ``MockRead`` of ``body``, None) or (None, why it cannot be read); ``reads`` keeps the
    answer for the tool_choice's and the parallel setting's reading of the same body."""
    if reads is not None and "read" in reads:
        return reads["read"]
    found = _read_body(ctx, method, url, body)
    if reads is not None:
        reads["read"] = found
    return found


def _read_body(ctx: Context, method: str, url: str, body: dict[str, Any]) -> tuple[Any, str | None]:
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
    return read, None


def _read(ctx: Context, method: str, url: str, body: dict[str, Any], after: Any,
          reads: dict[str, Any] | None = None) -> tuple[ToolChoice | None, str | None]:
    """(the neutral choice, None) or (None, why it cannot be read), by the family's reader."""
    read, why = _family_read(ctx, method, url, body, reads)
    if read is None:
        return None, why
    if read.requested is None:
        if after is ABSENT or after is None:
            return None, None  # extra removed the choice: the request sets none
        return None, f"{ctx.cap.title} reads no tool_choice there"
    value = read.choice_value if read.choice_value is not None else read.requested
    if not isinstance(value, (str, dict)):  # no API's wire takes true, false, a number or a list (the neutral form
        # reads true as required and false as unset: not what is sent)
        return None, f"{quoted(value)[:80]} is not a tool_choice {ctx.cap.title} takes (a word or an object)"
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
