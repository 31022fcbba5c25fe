"""Did a reply obey the requested tool_choice? One verdict per reply, and the tally of many.

The verdict judges the request's intent (the scenario's neutral tool_choice), against the tools
that were actually in the request: a tool the translator filtered out counts as not offered.
Where the provider could not enforce the choice (the ledger says ``tool_choice.ignored`` or
``tool_choice.emulated``) the verdict says so, and still judges the intent. Where ``providers.<id>.extra``
replaced the choice the request sends, the verdict judges the one sent, read back by the family's reader
(``Translation.sent_choice``, ledger ``tool_choice.from_extra``; core/sent_choice.py); the translator's notes
about enforcing the scenario's choice then do not apply. Parallel calls alike: where extra changed the field that holds
the parallel setting (``parallel_tool_calls``, Anthropic's ``tool_choice``), the setting the body sends
(``Translation.sent_parallel``, ledger ``parallel.from_extra``); a family whose wire has none keeps the scenario's.

Categories, first match wins (issue 3): error, phantom_tool, wrong_tool, unwanted_call, no_call,
too_many_calls, invalid_arguments, obeyed. ``request_error`` (issue 11) comes before all of them: the
request was refused for missing reasoning state (a thinking block, a thought signature, a reasoning
item, reasoning_content), which is the request's problem, not the model's. It is counted only when it
occurs, so tallies without it keep their exact shape. jsonschema is imported only when a call is checked, and each
tool schema is checked against its metaschema once.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Iterable

from .model import Reply, Scenario, Tool, ToolCall, Translation
from .registry import module_for

CATEGORIES: tuple[str, ...] = ("error", "phantom_tool", "wrong_tool", "unwanted_call", "no_call", "too_many_calls",
                               "invalid_arguments", "obeyed")
NOT_ENFORCED_CODES = ("tool_choice.ignored", "tool_choice.emulated", "tool_choice.none_unenforced")
REQUEST_ERROR = "request_error"


@functools.lru_cache(maxsize=None)
def _marks() -> tuple[tuple[str, ...], dict[str, tuple[str, bool]]]:
    """The words of the providers' errors that name missing reasoning state (each row's
    ``marks.reasoning_refusals``, with where each was seen), and the finish reasons the verdict speaks of (its
    ``marks.finishes``: reason → what it says, whether it is the request's problem), read from the rows once."""
    from .capabilities import CAPABILITIES

    marks = [cap.marks for cap in CAPABILITIES.values()]
    return (tuple(dict.fromkeys(words for m in marks for words in m.reasoning_refusals)),
            {f.reason: (f.said, f.request_error) for m in marks for f in m.finishes})


def _finish(reply: Reply) -> tuple[str, bool] | None:
    """What the rows' marks say of the reply's finish reason (what, whether it is the request's problem), or None."""
    reason = reply.finish_reason
    return _marks()[1].get(reason) if isinstance(reason, str) else None


def reasoning_refusal(reply: Reply) -> str | None:
    """Why the reply is a refusal for missing reasoning state, or None."""
    finish = _finish(reply)
    if finish is not None and finish[1]:
        return f"finish reason {reply.finish_reason}: {finish[0]}"
    if reply.error is not None:
        text = reply.error.message.lower()
        if any(pattern in text for pattern in _marks()[0]):
            return "the provider refused the request for missing reasoning state; send back the reasoning the " \
                   "earlier reply carried (reasoning: items, signatures on calls, reasoning_content)"
    return None


MAX_SCHEMA_ERRORS = 10


# ---- which tools were offered ------------------------------------------------------------


def offered_tools(translation: Translation | None, scenario: Scenario) -> tuple[str, ...]:
    """Names of the tools in the request: the translator's ``offered_tools`` plus any other tool
    the body declares (e.g. merged from ``providers.<id>.extra``). Without a translation (``parse``
    with no scenario translation) the scenario's tools."""
    if translation is None:
        return scenario.tool_names
    names = list(translation.offered_tools)
    if translation.request is not None:
        names.extend(module_for(translation.provider).offered_tools(translation.request.body))
    return tuple(dict.fromkeys(names))


def not_enforced(translation: Translation | None) -> list[str]:
    """Ledger messages saying the provider could not enforce the requested choice."""
    if translation is None:
        return []
    return [e.message for e in translation.ledger if e.code in NOT_ENFORCED_CODES]


# ---- arguments against the schema --------------------------------------------------------


def argument_errors(tool: Tool | None, call: ToolCall) -> list[str]:
    """Why a call's arguments fail its tool's JSON Schema, each with its JSON path ([] = valid)."""
    if call.is_custom or (tool is not None and tool.kind == "custom"):
        return custom_input_errors(tool, call)
    if call.arguments is None:
        return [f"$: arguments could not be decoded ({call.arguments_error or 'not an object'})"]
    if tool is None:
        return []
    checked = _checked(tool.schema())
    if isinstance(checked, str):
        return [checked]
    unresolvable, off_site, slow_pattern = _check_exceptions()
    try:
        errors = sorted(checked.iter_errors(call.arguments), key=lambda e: (e.json_path, e.message))
    except (unresolvable, off_site) as exc:  # a $ref to nowhere, or off-site (never fetched)
        return [f"schema: a $ref cannot be resolved ({exc}); arguments not checked"]
    except RecursionError:  # a $ref cycle that never reaches a value ($defs a -> b -> a)
        return ["schema: its $refs loop without end; arguments not checked"]
    except slow_pattern as slow:  # a pattern Python's engines backtrack on for ever, on the model's text
        return [slow.line()]
    shown = [f"{e.json_path}: {e.message}" for e in errors[:MAX_SCHEMA_ERRORS]]
    if len(errors) > MAX_SCHEMA_ERRORS:
        shown.append(f"… and {len(errors) - MAX_SCHEMA_ERRORS} more")
    return shown


@functools.lru_cache(maxsize=None)
def _check_exceptions() -> tuple[type[Exception], type[Exception], type[Exception]]:
    """What a schema check raises for a $ref it cannot resolve (referencing's, jsonschema's) and for a slow
    pattern: imported with the first check (jsonschema loads while the first requests are in flight), read once."""
    from jsonschema import exceptions
    from referencing.exceptions import Unresolvable

    from .schema_patterns import SlowPattern

    return Unresolvable, exceptions._RefResolutionError, SlowPattern


def custom_input_errors(tool: Tool | None, call: ToolCall) -> list[str]:
    """A custom (free-text) call's input against its tool's format. A regex grammar is checked with
    Python's re.fullmatch when the definition compiles there (OpenAI documents its regex syntax as the
    Rust regex crate's; most patterns mean the same in both, some do not compile in Python and are then
    not checked); a lark grammar is not checked. A ``schema:`` line means 'not checked', not 'invalid'."""
    if tool is None:
        return []
    if tool.kind != "custom":
        return [f"$: a custom (free-text) call to function tool '{tool.name}', which takes JSON arguments"]
    if not call.is_custom:
        return [f"$: a function call with JSON arguments to custom tool '{tool.name}', which takes free text"]
    form = tool.format
    if form is None or form.get("type") != "grammar":
        return []
    if form["syntax"] == "lark":
        return ["schema: a lark grammar is not checked here; input accepted as is"]
    import re

    from .schema_patterns import SlowPattern, matches

    try:
        re.compile(form["definition"])
    except re.error as exc:
        return [f"schema: the regex does not compile in Python's re ({exc}); input not checked"]
    try:
        whole = matches(form["definition"], call.input or "", where="regex grammar", whole=True)
    except SlowPattern as slow:
        return [slow.line()]
    if not whole:
        shown = call.input if len(call.input or "") <= 80 else (call.input or "")[:77] + "..."
        return [f"$: input {shown!r} does not match the tool's regex grammar {form['definition']!r}"]
    return []


# repr(schema) -> its validator, or the line saying the schema itself is invalid. Checking a schema
# against its metaschema costs far more than validating arguments, so each schema is checked once
# per process, not once per call (`send --repeat 100` judges 100 replies against the same tools).
_CHECKED: dict[str, Any] = {}
_CHECKED_MAX = 1024  # distinct schemas kept; past that the cache starts over


def _offline_registry() -> Any:
    """A ``referencing`` registry that resolves only references inside the schema itself: judging a
    reply is offline, so a ``$ref`` to ``http://…`` or ``file://…`` is never fetched or read (without
    a registry jsonschema would fetch it with urllib) and reports as unresolvable instead."""
    from referencing import Registry
    from referencing.exceptions import NoSuchResource

    def refuse(uri: str) -> Any:
        raise NoSuchResource(ref=uri)

    return Registry(retrieve=refuse)  # type: ignore[call-arg]


def _checked(schema: Any) -> Any:
    """The validator for ``schema`` (checked against its metaschema once), or the "schema: …" line."""
    key = repr(schema)  # the content, not the object: Tool.schema() may build a fresh dict per call
    found = _CHECKED.get(key)
    if found is None:
        from copy import deepcopy

        from jsonschema import exceptions, validators

        from . import schema_patterns

        schema = deepcopy(schema)  # what the key says, even should the caller's dict change later
        try:
            cls = validators.validator_for(schema)
            cls.check_schema(schema)
            found = schema_patterns.bounded(cls)(schema, registry=_offline_registry())
        except exceptions.SchemaError as exc:
            found = f"schema: the tool's own schema is invalid ({exc.message}); arguments not checked"
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.clear()
        _CHECKED[key] = found
    return found


def prepare_tools(tools: Iterable[Tool]) -> None:
    """Check these tools' schemas now (importing jsonschema), so that judging a reply later only
    validates its arguments. The sending commands run this while their first requests are in flight."""
    for tool in tools:
        _checked(tool.schema())


def _schema_problem(lines: list[str]) -> bool:
    return bool(lines) and not lines[0].startswith("schema:")


# ---- the verdict -------------------------------------------------------------------------


def _intent(scenario: Scenario) -> str:
    choice = scenario.tool_choice
    if choice is None:
        return "tool_choice not set"
    if choice.native is not None:
        return f"tool_choice {choice.quoted()}"
    value = choice.to_json()
    if isinstance(value, str):
        return f"tool_choice {value}"
    if choice.mode == "named":
        return f"tool_choice {{tool: {choice.name}}}"
    return f"tool_choice {{allowed: [{', '.join(choice.allowed)}], mode: {choice.allowed_mode}}}"


def verdict(scenario: Scenario, reply: Reply, translation: Translation | None = None) -> dict[str, Any]:
    """Judge one reply. Returns ``{"obeyed", "category", "reasons", "enforced", "calls"}``:
    ``enforced`` is False when the provider could not enforce the choice; ``calls`` holds each
    call's schema check (``valid`` None when the tool is unknown or its arguments were not checked)."""
    if not isinstance(reply, Reply) or not isinstance(scenario, Scenario):
        from .call_args import scenario_arg, wrong

        scenario_arg(scenario)
        raise wrong("reply", "a Reply", reply, "parse_reply(provider, body)")
    if reply.choices:  # several choices (n > 1): each judged, the reply obeys when every one does
        from .choices import judged

        return judged(scenario, reply, translation, verdict, (REQUEST_ERROR, *CATEGORIES))
    sent = translation.sent_choice if translation is not None else None
    if sent is not None:  # extra wrote the tool_choice sent: judged as sent
        scenario = scenario._replace(tool_choice=sent.choice)
    parallel = translation.sent_parallel if translation is not None else None
    if parallel is not None:  # extra changed the parallel setting sent: judged as sent
        scenario = scenario._replace(parallel_tool_calls=parallel.parallel)
    offered = offered_tools(translation, scenario)
    unenforced = not_enforced(translation) if sent is None else []
    calls = list(reply.tool_calls)
    checks = []
    for call in calls:
        tool = scenario.tool(call.name) if call.name in offered else None
        decoded = call.arguments is not None or call.is_custom
        errors = argument_errors(tool, call) if (tool is not None or not decoded) else []
        unchecked = errors[:1] != [] and errors[0].startswith("schema:")  # neither valid nor invalid: not checked
        valid = None if tool is None and decoded or unchecked else not _schema_problem(errors)
        check = {"name": call.name, "offered": call.name in offered, "valid": valid, "errors": errors}
        if call.caller is not None:
            check["caller"] = call.caller
        checks.append(check)
    who = translation.provider if translation is not None else "provider"
    category, reasons = _categorize(scenario, reply, offered, checks, who)
    by_code = [c for c in calls if c.caller is not None and c.caller != "direct"]
    if by_code:  # programmatic tool calling: the model's code made these calls, not the model's own turn
        reasons.append("made by the model's code, not directly: " + ", ".join(f"{c.name} ({c.caller})" for c in by_code))
    if sent is not None:
        reasons.append(sent.said)
    if parallel is not None:
        reasons.append(parallel.said)
    reasons.extend(_server_notes(reply))
    finish = _finish(reply)
    if finish is not None and not finish[1]:  # a finish reason a row's marks say something of, beside the verdict
        reasons.append(f"finish reason {reply.finish_reason}: {finish[0]}")
    if unenforced:
        reasons.append("the provider could not enforce this tool_choice (judged against the request's intent): "
                       + " / ".join(unenforced))
    result = {"obeyed": category == "obeyed", "category": category, "reasons": reasons,
              "enforced": not unenforced, "calls": checks}
    if reply.server_calls:  # only when present: other verdicts keep their exact JSON
        result["server_calls"] = [call.to_json() for call in reply.server_calls]
    return result


def with_twice(judged: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """A verdict beside a reply whose JSON names ``keys`` twice in one object (``transport.Response.twice``): judged
    on the last of the two, as the official SDKs' ``json.loads`` reads it; each key said once (``twice_said``) in the
    verdict's ``findings`` (only when there is one: other verdicts keep their exact JSON) and as a reason."""
    said = twice_said(keys)
    return {**judged, "reasons": [*judged["reasons"], *(e.message for e in said)],
            "findings": [*judged.get("findings", ()), *(e.to_json() for e in said)]}


def twice_said(keys: tuple[str, ...], what: str = "the reply") -> list[Any]:
    """``reply.duplicate_key``, a warning a key ``what`` (a server's JSON) names twice in one object: read and judged on
    the last of the two. Not refused: the server wrote it, not the user. Each key quoted as every such message
    quotes it (``key_shown``: a long one cut); past ``TWICE_SAID`` keys, one line for the rest."""
    from .bounded import TWICE_SAID, key_shown
    from .model import LedgerEntry

    said = [LedgerEntry("warning", "reply.duplicate_key", f"{what} names the key "
                        f"{key_shown(key)} twice in one object: judged on the last of the two, as "
                        "the official SDKs' json.loads reads it (RFC 8259: names should be unique; other readers may "
                        "keep the first, or refuse it)") for key in keys[:TWICE_SAID]]
    if len(keys) > TWICE_SAID:
        said.append(LedgerEntry("warning", "reply.duplicate_key", f"and {len(keys) - TWICE_SAID:,} more keys "
                                f"{what} names twice in one object, each judged on the last"))
    return said


def _server_notes(reply: Reply) -> list[str]:
    """What the provider ran itself (tool searches, MCP calls, programs) and a structured stop, said
    beside the verdict so that a reply without a function call is not read as the model doing nothing."""
    notes = []
    for call in reply.server_calls:
        if call.kind == "tool_search":
            found = f"loaded {', '.join(call.loaded)}" if call.loaded else "loaded no tool"
            notes.append(f"tool search {call.name or ''} ({call.id}): " + (f"failed ({call.error})" if call.error
                                                                          else found))
        elif call.error is not None:
            notes.append(f"{call.kind} {call.server or ''}/{call.name or ''} failed: {call.error}")
    details = reply.stop_details
    if details:
        what = ", ".join(f"{k} {details[k]}" for k in ("category", "explanation") if details.get(k))
        notes.append(f"stop_details {details.get('type')}" + (f": {what}" if what else "")
                     + f" (stop_reason {reply.finish_reason})")
    return notes


MCP_CALLS = ("mcp_call", "mcp_approval_request", "mcp_tool_use")  # server calls of an MCP tool, every family


def _native(choice: Any, reply: Reply, intent: str) -> tuple[str, list[str]] | None:
    """Judge a Responses-only choice (model.ToolChoice.native) by the reply's server calls; None: judge the
    function calls as for required. ``{type: mcp, server_label, name?}`` wants an ``mcp_call`` (or an
    ``mcp_approval_request``, the same call awaiting approval) on that server, to that tool when named;
    ``{type: programmatic_tool_calling}`` wants a ``program`` item, and no call the model made directly."""
    native = choice.native
    calls = list(reply.tool_calls)
    text = f" and answered in text ({len(reply.text)} chars)" if reply.text else ""
    if native["type"] == "mcp":
        label, name = native.get("server_label"), native.get("name")
        mcp = [c for c in reply.server_calls if c.kind in ("mcp_call", "mcp_approval_request")]
        hits = [c for c in mcp if c.server == label and (name is None or c.name == name)]
        wanted = f"MCP server '{label}'" + (f" tool '{name}'" if name else "")
        others = [f"{c.server}/{c.name}" for c in mcp if c not in hits] + [c.name for c in calls]
        if others:
            return "wrong_tool", [f"{intent} forces a call to {wanted}, but the reply called "
                                  f"{', '.join(repr(o) for o in dict.fromkeys(others))}"]
        if not hits:
            return "no_call", [f"{intent} requires a call to {wanted}, but the reply made none{text}"]
        done = ", ".join(f"{c.server}/{c.name}" + (" (awaiting approval)" if c.kind == "mcp_approval_request" else "")
                         for c in hits)
        return "obeyed", [f"{intent}: called {done}"]
    programs = [c for c in reply.server_calls if c.kind == "program"]
    direct = [c.name for c in calls if c.caller == "direct"]
    if direct:
        return "wrong_tool", [f"{intent} forces programmatic tool calling, but the model called "
                              f"{', '.join(repr(n) for n in dict.fromkeys(direct))} directly"]
    if not programs and not any((c.caller or "").startswith("program") for c in calls):
        return "no_call", [f"{intent} requires a program, but the reply ran none{text}"]
    if not calls:
        return "obeyed", [f"{intent}: ran program {', '.join(str(p.id) for p in programs)}"]
    return None


def _categorize(scenario: Scenario, reply: Reply, offered: tuple[str, ...],
                checks: list[dict[str, Any]], who: str) -> tuple[str, list[str]]:
    choice = scenario.tool_choice
    calls = list(reply.tool_calls)
    names = [c.name for c in calls]
    intent = _intent(scenario)
    refusal = reasoning_refusal(reply)
    if refusal is not None:
        reasons = [reply.error.one_line(who)] if reply.error is not None else []
        return REQUEST_ERROR, reasons + [refusal]
    if reply.error is not None:
        return "error", [reply.error.one_line(who)]
    phantom = [n for n in names if n not in offered]
    if phantom:
        reasons = []
        history = set(scenario.history_tool_names())
        for name in dict.fromkeys(phantom):
            why = f"called '{name}', which was not offered (offered: {', '.join(offered) or 'none'})"
            if name in history:
                why += "; it appears in the conversation history"
            elif scenario.tool(name) is not None:
                why += "; it is declared in the scenario but was left out of the request"
            reasons.append(why)
        return "phantom_tool", reasons
    if choice is not None and choice.native is not None:
        judged = _native(choice, reply, intent)
        if judged is not None:
            return judged
    if choice is not None and choice.mode == "named":
        wrong = [n for n in names if n != choice.name]
        if wrong:
            return "wrong_tool", [f"{intent} forces '{choice.name}', but the reply called "
                                  f"{', '.join(repr(n) for n in dict.fromkeys(wrong))}"]
    if choice is not None and choice.mode == "allowed":
        outside = [n for n in names if n not in choice.allowed]
        if outside:
            return "wrong_tool", [f"{intent}: {', '.join(repr(n) for n in dict.fromkeys(outside))} "
                                  "is outside the allowed subset"]
    if choice is not None and choice.mode == "none" and calls:
        return "unwanted_call", [f"{intent}, but the reply called {', '.join(repr(n) for n in names)}"]
    if choice is not None and choice.mode == "required" and not calls and not choice.native:
        # a tool on a declared MCP server is a tool: the provider ran the call itself. Servers the scenario
        # declares in tools: are the ones offered (others may come through providers.<id>.extra: any then)
        declared = {t.fields.get("server_label") for t in scenario.native_tools if t.kind == "mcp"}
        mcp = [f"{c.server}/{c.name}" for c in reply.server_calls
               if c.kind in MCP_CALLS and (not declared or c.server in declared)]
        if mcp:
            return "obeyed", [f"{intent}: called {', '.join(mcp)} (an MCP tool the provider ran)"]
    if choice is not None and choice.forces_call and not calls:
        text = f" and answered in text ({len(reply.text)} chars)" if reply.text else ""
        finish = f"; finish_reason {reply.finish_reason}" if reply.finish_reason else ""
        return "no_call", [f"{intent} requires a tool call, but the reply made none{text}{finish}"]
    if scenario.parallel_tool_calls is False and len(calls) > 1:
        return "too_many_calls", [f"parallel_tool_calls false, but the reply made {len(calls)} calls "
                                  f"({', '.join(names)})"]
    bad = [c for c in checks if c["valid"] is False]
    if bad:
        return "invalid_arguments", [f"{c['name']}: {err}" for c in bad for err in c["errors"]]
    unchecked = [f"{c['name']}: {err}" for c in checks for err in c["errors"] if err.startswith("schema:")]
    if calls and unchecked:  # (a pattern past its bounds, a $ref to nowhere, a lark grammar): not called valid
        return "obeyed", [f"{intent}: called {', '.join(names)}, arguments not all checked", *unchecked]
    if calls:
        return "obeyed", [f"{intent}: called {', '.join(names)} with valid arguments"]
    return "obeyed", [f"{intent}: answered without a tool call"]


# ---- many samples ------------------------------------------------------------------------


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default). Its lower bound at 0 successes
    and its upper bound at n are exactly 0 and 1 (centre and half-width are then equal): the float subtraction
    would leave noise such as 5.55e-17 there."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return (low, high)


def percentile(values: Iterable[float], q: float) -> float | None:
    """Linear-interpolation percentile (numpy's default), ``q`` in [0, 100]."""
    data = sorted(values)
    if not data:
        return None
    position = (len(data) - 1) * q / 100.0
    low = math.floor(position)
    high = math.ceil(position)
    return data[low] + (data[high] - data[low]) * (position - low)


class Tally:
    """Running statistics of judged samples, added as they complete: what a summary needs (counts,
    latencies, tokens) and nothing else, so memory stays flat however many samples run. Each
    result is a sample's JSON form: ``verdict`` (with ``category``), and optionally ``latency_ms``
    and ``reply.usage`` ({input_tokens, output_tokens})."""

    def __init__(self) -> None:
        self.n = 0
        self.counts = {c: 0 for c in CATEGORIES}
        self.latencies: list[float] = []
        self.tokens_in: list[int] = []
        self.tokens_out: list[int] = []

    def add(self, result: dict[str, Any]) -> None:
        self.n += 1
        category = result["verdict"]["category"]
        self.counts[category] = self.counts.get(category, 0) + 1
        latency = result.get("latency_ms")
        if isinstance(latency, (int, float)) and category not in ("error", REQUEST_ERROR):
            self.latencies.append(latency)
        reply = result.get("reply")
        usage = reply.get("usage") if isinstance(reply, dict) else None
        if isinstance(usage, dict):
            if isinstance(usage.get("input_tokens"), int):
                self.tokens_in.append(usage["input_tokens"])
            if isinstance(usage.get("output_tokens"), int):
                self.tokens_out.append(usage["output_tokens"])

    def merge(self, other: "Tally") -> None:
        """Add another tally's samples (a shard of the same run: loop_shards)."""
        self.n += other.n
        for category, count in other.counts.items():
            self.counts[category] = self.counts.get(category, 0) + count
        self.latencies += other.latencies
        self.tokens_in += other.tokens_in
        self.tokens_out += other.tokens_out

    def summary(self) -> dict[str, Any]:
        n, tokens_in, tokens_out = self.n, self.tokens_in, self.tokens_out
        rates = {}
        for category, count in self.counts.items():
            low, high = wilson(count, n)
            rates[category] = {"rate": count / n if n else 0.0, "low": low, "high": high}
        return {
            "samples": n,
            "counts": dict(self.counts),
            "rates": rates,
            "latency_ms": {"p50": percentile(self.latencies, 50), "p95": percentile(self.latencies, 95),
                           "n": len(self.latencies)},
            "tokens": {
                "input_total": sum(tokens_in), "output_total": sum(tokens_out),
                "input_mean": sum(tokens_in) / len(tokens_in) if tokens_in else None,
                "output_mean": sum(tokens_out) / len(tokens_out) if tokens_out else None,
            },
        }


def aggregate(results: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Tally samples (see ``Tally``) and summarize them."""
    tally = Tally()
    for result in results:
        tally.add(result)
    return tally.summary()
