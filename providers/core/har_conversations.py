"""A HAR's provider calls followed as `toolchoice mock` and `proxy` follow a session of requests: which calls are
steps of one conversation, and what broke between the steps (``trace FILE.har``'s listing, docs/traces.md "HAR").

Each call is read and judged as the mock reads it (``mock.judge.judge``: the family's ``mock_read`` and the
translator's lints), in the file's order, through one ``mock.call_origins.CallOrigins``, and its recorded reply
(``trace_har.recorded_reply``) is remembered as the proxy remembers an upstream's answer (its calls' ids, the
reasoning state it hands out, the tools, system prompt and, where the model runs the prefix check, the history its
request was sent). So a call says what the mock would say of the same request at the same place in the session:

- ``mock.tools_changed_with_thinking``, ``mock.system_changed_with_thinking``, ``mock.history_changed_with_thinking``:
  the history carries thinking from an earlier call's reply, and on a model that runs Anthropic's preserved-thinking
  prefix check this call's tools, system prompt or earlier messages are not the ones that call was sent;
- ``mock.result_dropped``: a call an earlier reply made is carried without its result;
- ``pitfall.forced_after_tool_result``, ``pitfall.required_trap``, ``pitfall.history_tools_not_offered``: a forced
  choice right after a tool result (the loop cannot end), the history calling a tool no longer offered;
- ``loop.repeated_call`` (``run``'s code and rule, ``loop_policy.call_key``): the reply makes the same call(s), same
  tools and arguments, as the reply of the call it continues.

``#N`` in the mock's words is sample N. ``mock.result_unknown_call`` is left out: a HAR may begin in the middle of a
loop, and results of calls made before the recording are no fault.

A call continues an earlier one (``continues``) when its history carries that call's reply: a result of a call the
reply made or the reasoning state it handed out (the mock's ``results`` and ``reasoning_from``, by the ids and
signatures the API handed out); where none of those is carried (a text answer without thinking), the earlier call's
messages, under the same system prompt at the same API, followed by an assistant turn making the calls its reply
made (none for a text answer). The latest such call is the one it continues,
and its conversation is that call's (``conversation``, numbered in the file's order; ``step``: 1 for a call that
continues none). A call whose API refused it (400, 422) is followed as the proxy follows one: its results named, no
findings, no reply remembered.
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple

# the judge's findings that are about the step's place in the loop (choice_plan.lint_pitfalls)
_BETWEEN = frozenset({"pitfall.forced_after_tool_result", "pitfall.required_trap", "pitfall.history_tools_not_offered"})
_LEFT_OUT = frozenset({"mock.result_unknown_call"})
_REFUSED = frozenset({400, 422})


class Exchange(NamedTuple):
    """One provider call of the file as read (trace_har.exchanges)."""

    sample: int
    provider: str
    method: str
    path: str
    body: dict[str, Any] | None  # None: no JSON object body
    status: int | None  # the recorded response's
    reply: Any  # its recorded Reply, or None (no body, a status the API refused with)


class Step(NamedTuple):
    conversation: int
    step: int
    continues: int | None  # the sample whose reply this call's history carries
    findings: list[dict[str, Any]]


def follow(exchanges: Iterable[Exchange]) -> dict[int, Step]:
    """Sample number -> its Step, for the file's calls in order; a call that does not read as its API's request
    has none."""
    from .loop_policy import call_key
    from .mock.call_origins import CallOrigins, Sent, loop_findings, prefix_check, reply_reasoning
    from .mock.judge import judge, prefix_tools
    from .registry import mock_family

    origins = CallOrigins()
    # (provider, system prompt, digest of a call's messages) -> the latest sample that sent them, its reply's call ids
    ends: dict[tuple[str, str, bytes], tuple[int, set[str]]] = {}
    steps: dict[int, Step] = {}
    keys: dict[int, tuple[Any, int]] = {}  # sample -> (its reply's calls as call_key reads them, how many in a row)
    conversations = 0
    for call in exchanges:
        if call.body is None:
            continue
        module = mock_family(call.provider)
        try:
            judged = judge(call.provider, module, call.body, module.mock_route(call.method, call.path) or {})
        except Exception:  # noqa: BLE001 - a fault of the reader's (the proxy passes such a request on unjudged):
            continue  # the call's row says what its import says; no step to follow it by
        read = judged.read
        if read is None:
            continue
        said = [e.to_json() for e in judged.findings]
        before = len(said)
        sent = Sent(read.messages)
        if call.status in _REFUSED:
            results = origins.results(read.messages)
        else:
            results = loop_findings(origins, sent, said, "mock", prefix_tools(judged), call.provider, read.model,
                                    read.system)
        findings = ([f for f in said[:before] if f["code"] in _BETWEEN]
                    + [f for f in said[before:] if f["code"] not in _LEFT_OUT])
        digests = sent.digests()
        linked = [r["from"] for r in results] + origins.reasoning_from(sent)
        if not any(n is not None for n in linked):  # no id of an earlier reply: an earlier call's messages, then its
            linked = [sample for i, m in enumerate(read.messages) if m.role == "assistant"  # reply sent back
                      for sample, ids in [ends.get((call.provider, read.system or "", digests[i]), (None, None))]
                      if sample is not None and (not ids or ids == {c.id for c in m.tool_calls})]
        after = max((n for n in linked if n is not None and n < call.sample and n in steps), default=None)
        if after is None:
            conversations += 1
            step = Step(conversations, 1, None, findings)
        else:
            step = Step(steps[after].conversation, steps[after].step + 1, after, findings)
        reply = call.reply if call.status not in _REFUSED else None
        if reply is not None and reply.error is None:
            key = call_key(reply)
            last = keys.get(after) if after is not None else None
            count = last[1] + 1 if key and last is not None and last[0] == key else 1
            keys[call.sample] = (key, count)
            if count > 1:
                findings.append(_repeated(key, after, count))
            handed = reply_reasoning(reply)
            made = [(c.id, c.name) for choice in reply.choices or (reply,) for c in choice.tool_calls]
            origins.made(call.sample, made, prefix_tools(judged), read.system, handed,
                         sent if handed and prefix_check(call.provider, read.model) else None)
        made_ids = {c.id for c in reply.tool_calls if c.id} if reply is not None and reply.error is None else set()
        ends[(call.provider, read.system or "", digests[-1])] = (call.sample, made_ids)
        steps[call.sample] = step
    return steps


def _repeated(key: Any, after: int | None, count: int) -> dict[str, Any]:
    """``loop.repeated_call`` in a HAR's terms (``loop_policy.Repeats``' rule: the same tools and arguments)."""
    from .bounded import cut

    shown = cut(", ".join(f"{name}({args})" for name, args in key), 200)
    return {"severity": "warning", "code": "loop.repeated_call",
            "message": f"the reply makes the same call as #{after}'s reply, the step before ({count} in a row): "
            f"{shown}; a loop that gets the same answer back calls again — end it on a repeated call, or change what "
            "the tool result says"}
