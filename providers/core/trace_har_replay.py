"""``run --replay FILE.har``: one conversation of an HTTP Archive (trace_har.py reads the file, har_conversations.py
groups its calls as ``trace FILE.har`` lists them) replayed as the loop's steps, offline, as a trace file's run is.

The scenario is the conversation's first call as ``trace FILE.har --sample N`` reads it (the saved-request reader:
tools, tool_choice, system, messages, the recorded provider's settings), with ``loop:`` holding each call's own
tool_choice (and its tools where they differ from the first's), ``max_steps`` the number of calls, and ``results``
the tool results each later call sent back. The replies are the recorded responses, as a ``loop_replay.Replay``:
on the recorded provider the recorded bytes answer each request through an ``httpx.MockTransport`` (the code path
of a live run, as a folder ``--save`` wrote replays), each call given the result the recording sent back; on
another provider each step's request is rendered for it and the recorded reply judged against it. The HAR's keys
are redacted from the scenario, the notes and the replies; nothing is sent."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .bounded import cut
from .mock.read_prefix import resuming
from .model import LedgerEntry, Scenario, ToolchoiceError

# a Python caller's words for what the command line says with its options and commands (cli/exits.py _OPTIONS:
# --trace-id, -p, `toolchoice trace FILE.har`): the errors below name these (errors.named), the command line its own
PYTHON = {"trace_id": "trace_id=", "har.trace_id": 'trace_id="N"', "provider": "provider=",
          "har.trace": "trace_har.import_har(path)"}
_LISTS = " lists them"  # the hint's tail, after what lists the conversations ("har.trace")


def _error(said: str, *hint_parts: str, names: tuple[str, ...]) -> ToolchoiceError:
    """The error whose hint names arguments: a Python caller's words (``PYTHON``), the command line's options."""
    from .errors import named

    return named((said,), *hint_parts, names=names, spelling=PYTHON)


def replay_file(path: str | os.PathLike[str], trace_id: str | None, provider: str) -> tuple[Scenario, Any]:
    """``run --replay FILE``: a HAR's conversation (``trace_har.is_har``) or an OTLP/JSON trace's run, as the scenario
    (its notes in every ledger) and the ``loop.Replay`` answering it, for ``provider`` (``jobs.run(scenario,
    [provider], replay=...)``, docs/python.md). ``path``: a ``str`` or a path, as ``trace_har.import_har`` takes."""
    from . import call_args
    from .trace_har import is_har

    path = call_args.path_arg(path)
    if trace_id is not None and not isinstance(trace_id, str):
        raise call_args.wrong("trace_id", "a conversation's number as a str, or None", trace_id)
    if not isinstance(provider, str):
        raise call_args.wrong("provider", "a provider id (str)", provider)

    if is_har(path):
        return replay_har(path, trace_id, provider)
    from .trace_scenario import replay_trace

    return replay_trace(path, trace_id, provider)


@resuming()  # each call's history read by its family on from the previous call's (mock.read_prefix)
def replay_har(path: Path, trace_id: str | None, provider: str) -> tuple[Scenario, Any]:
    """The conversation ``trace_id`` names (its number in ``trace FILE.har``'s listing; needed where the file holds
    several) as a scenario and a ``Replay``. ``provider``: the one the loop runs on, which also names the API of
    entries at a host toolchoice does not know (as ``trace FILE.har -p`` does). Bad input: one line naming the file
    (and the entry)."""
    from .har_conversations import follow
    from .har_replays import grouped
    from .trace_har import LISTED, _no_calls, exchanges, import_call, read_har, read_response, where

    har = read_har(path, provider)
    if not har.calls:
        raise _no_calls(har)
    read: dict[int, Any] = {}  # sample -> trace_har.read_response's: each recorded response read once
    conversations, unread = grouped(har.calls[:LISTED], follow(exchanges(har, har.calls[:LISTED], read)))
    for call in unread:  # a call that does not read belongs to no conversation: a step replayed without it would be
        import_call(har, call)  # silently missing; its import says why, naming its entry
    if unread:
        raise _error(f"{where(path, unread[0].index)}: the request does not read as {unread[0].provider}'s, so its "
                     "conversation is not known", "", _LISTS, names=("har.trace",))
    number = _chosen(path, conversations, trace_id)
    calls = conversations[number]
    apis = _apis(calls)
    if len(apis) > 1:
        raise ToolchoiceError(f"{path}: conversation {number}'s calls go to {len(apis)} APIs ({_said(apis)}): a loop "
                              "replays on one provider", hint="record each API's loop on its own")

    def response(call: Any) -> Any:  # read where following the conversations did not (its reading failed: said here)
        if call.sample not in read:
            read[call.sample] = read_response(har, call)
        return read[call.sample]

    calls, left = _until_the_loop_ends(calls, response)
    for step, call in enumerate(calls, 1):
        if response(call)[2] is None:  # nothing to answer the step with: said before anything is replayed
            raise _no_response(path, number, step, call)
    notes: list[LedgerEntry] = [LedgerEntry("info", "har.replayed", f"{path}: conversation {number}, {len(calls)} "
                                            f"call{'s' if len(calls) != 1 else ''} to {calls[0].provider} "
                                            f"(log.entries[{', '.join(str(c.index) for c in calls)}]), replayed as "
                                            "the loop's steps")]
    if left:
        notes.append(LedgerEntry("warning", "har.not_replayed", f"the reply of step {len(calls)} "
                                 f"(log.entries[{calls[-1].index}]) calls no tool, where a loop ends; the "
                                 f"conversation's {len(left)} later call{'s' if len(left) != 1 else ''} "
                                 f"(log.entries[{', '.join(str(c.index) for c in left)}]), sent after it (a new user "
                                 f"turn, a retry), {'are' if len(left) != 1 else 'is'} not replayed"))
    if len(har.calls) > LISTED:
        notes.append(LedgerEntry("info", "har.not_followed", f"the file holds {len(har.calls):,} provider calls: its "
                                 f"conversations are those of the first {LISTED}, as trace FILE.har lists them"))
    if provider != calls[0].provider:
        notes.append(LedgerEntry("info", "har.rendered_for", f"the calls went to {calls[0].provider}: each step is "
                                 f"rendered for {provider} and the recorded reply judged against it"))
    data, replies = _scenario(har, calls, notes, lambda h, c: import_call(h, c, judged=False), response)
    from . import loop
    from .trace_scenario import _check

    scenario = _check(str(path), data)._replace(notes=tuple(_notes_redacted(har, notes)))
    bodies = {n: body for n, (body, _) in replies.items() if body is not None}
    saved = {n: reply for n, (_, reply) in replies.items() if reply is not None}
    return scenario, loop.Replay([loop.Transcript(path, calls[0].provider, bodies, saved, len(calls))])


def _until_the_loop_ends(calls: list[Any], response: Any) -> tuple[list[Any], list[Any]]:
    """(the calls a loop replays, those after): a loop ends at a reply that calls no tool (a text answer, an error),
    so the calls the app sent after one (its next user turn, a retry) are no steps of it. ``response(call)``:
    ``trace_har.read_response``'s, read once a call."""
    for step, call in enumerate(calls[:-1], 1):
        reply = response(call)[0]
        if reply is not None and not reply.tool_calls:
            return calls[:step], calls[step:]
    return calls, []


_JSON_KINDS = {bool: "boolean", int: "number", float: "number", list: "array", dict: "object"}


def _no_response(path: Path, number: int, step: int, call: Any) -> ToolchoiceError:
    """A replayed call whose entry holds no response body: HAR 1.2 makes ``content.text`` optional, and an export
    without content writes ``content`` as ``{size, mimeType}`` alone (Chrome DevTools' HAR writer adds ``text`` only
    to a HAR saved with content; ``_transferSize`` still says what came over the wire); a request that got no answer
    (cancelled, failed: status 0, Chrome's ``_error``) has none either."""
    from .trace_har import _path, where

    response = call.response or {}
    status = response.get("status")
    said = f"{where(path, call.index)}: step {step} of conversation {number} ({call.method} {_path(call.url)})"
    if not isinstance(status, int) or isinstance(status, bool) or status <= 0:
        return ToolchoiceError(f"{said} got no response (status {json.dumps(status)[:20]}: the request failed or was "
                               "cancelled before an answer), so nothing answers the step",
                               hint="record the conversation again until each of its calls is answered")
    field = "response.content.text" if isinstance(response.get("content"), dict) else "response.content"
    text = response["content"].get("text") if field == "response.content.text" else None
    if text is not None and not isinstance(text, str):  # there, but no text: not "missing or empty"
        return ToolchoiceError(f"{said}: {field} is a JSON {_JSON_KINDS.get(type(text), 'value')}, not the "
                               "body's text (HAR 1.2: a string)", hint="give an HTTP Archive as a browser or a "
                               "debugging proxy saves it")
    return ToolchoiceError(f"{said} has no response body ({field} is missing or empty: the HAR was saved without "
                           f"content), so nothing answers the step", hint="save the HAR again with the response "
                           "bodies: a browser's export with content, a proxy's with its bodies kept")


def _apis(calls: list[Any]) -> dict[str, list[int]]:
    apis: dict[str, list[int]] = {}
    for call in calls:
        apis.setdefault(call.provider, []).append(call.sample)
    return apis


def _said(apis: dict[str, list[int]], what: str = "sample") -> str:
    from .call_args import runs_shown

    return "; ".join(f"{api}: {what}{'s' if len(ns) != 1 else ''} {runs_shown(ns)}" for api, ns in apis.items())


def _held(conversations: dict[int, list[Any]]) -> str:
    """The conversations a file holds, those alike (as many calls, to the same APIs) together, their numbers as
    ranges: ``1-200 (each 1 call to openai)``; each listed alone, 200 were ~1.9 KB of one error line."""
    from .call_args import runs_shown

    alike: dict[str, list[int]] = {}
    for n, cs in conversations.items():
        alike.setdefault(f"{len(cs)} call{'s' if len(cs) != 1 else ''} to {'+'.join(_apis(cs))}", []).append(n)
    return "; ".join(f"{runs_shown(ns)} ({'each ' if len(ns) > 1 else ''}{what})" for what, ns in alike.items())


def _chosen(path: Path, conversations: dict[int, list[Any]], trace_id: str | None) -> int:
    """The conversation to replay: the one ``trace_id`` names, the only one, or a line saying which exist."""
    if trace_id is not None:
        wanted = trace_id.strip().removeprefix("conversation").strip()
        # decimal digits of any script (int() reads them), few enough to be a number: '²' is a digit int() refuses
        if not (wanted.isdecimal() and len(wanted) <= 12) or int(wanted) not in conversations:
            raise _error(f"{path}: no conversation {json.dumps(trace_id[:40])}; it holds {_held(conversations)}", "give ",
                         " one of those numbers; ", _LISTS, names=("trace_id", "har.trace"))
        return int(wanted)
    if len(conversations) == 1:
        return next(iter(conversations))
    apis: dict[str, list[int]] = {}
    for n, cs in conversations.items():
        for api in _apis(cs):
            apis.setdefault(api, []).append(n)
    if len(apis) > 1:
        from .errors import named

        raise named((f"{path}: its calls go to {len(apis)} APIs ({_said(apis, 'conversation')}): one ", " per API"),
                    "replay a conversation with ", " and its API's ", "; ", _LISTS,
                    names=("provider", "har.trace_id", "provider", "har.trace"), spelling=PYTHON)
    raise _error(f"{path}: holds {len(conversations)} conversations: {_held(conversations)}", "pick one with ", "; ",
                 _LISTS,
                 names=("har.trace_id", "har.trace"))


def _scenario(har: Any, calls: list[Any], notes: list[LedgerEntry], import_call: Any, response: Any
              ) -> tuple[dict[str, Any], dict[int, tuple[Any, Any]]]:
    """The scenario data (the first call's, with the loop) and, per step, (the recorded body for the transport, the
    reply file's content for another provider); ``notes`` gets each call's notes (later calls' warnings).
    ``response(call)``: ``trace_har.read_response``'s."""
    imported = []
    before: tuple[list[Any], list[Any]] | None = None
    for call in calls:
        saved, before = _redacted_import(har, import_call(har, call), before)
        imported.append(saved)
    seen = {(n.code, n.message) for n in notes}
    for step, saved in enumerate(imported, 1):
        for note in saved.notes:
            if note.code == "har.reply" or (step > 1 and note.severity == "info"):
                continue  # the loop judges each reply itself
            said = note if step == 1 or note.code.startswith("har.") else note._replace(
                message=f"step {step}: {note.message}")
            if (said.code, said.message) not in seen:
                seen.add((said.code, said.message))
                notes.append(said)
    first = dict(imported[0].data)
    first["description"] = (f"replayed from {har.file.name}: {len(calls)} call{'s' if len(calls) != 1 else ''} to "
                            f"{calls[0].provider} (log.entries[{', '.join(str(c.index) for c in calls)}])")
    declared: dict[str, Any] = {}
    for number, saved in enumerate(imported, 1):
        for tool in saved.data.get("tools") or ():
            kept = declared.setdefault(_tool_key(tool), tool)
            if kept != tool:  # one definition a name: the first call's that offered it
                notes.append(LedgerEntry("warning", "har.tool_differs", f"step {number} "
                                         f"(log.entries[{calls[number - 1].index}]) declared {tool.get('name')} "
                                         "otherwise than an earlier call: the replay offers the earlier one"))
    if declared:
        first["tools"] = list(declared.values())
    # every step's tools: a step offering others says so, with the tools it can name (its function and custom tools):
    # a step's tools: sends no hosted tool (loop_policy.step_scenario, loop.step_tools), and a hosted tool without a
    # name (Responses' {type: web_search}) made the step offer every declared tool, the others' too
    names = [_tool_key(t) for t in first.get("tools") or ()]
    loop: dict[str, Any] = {"max_steps": len(calls)}
    steps = []
    for number, saved in enumerate(imported, 1):
        step: dict[str, Any] = {}
        if "tool_choice" in saved.data or "tool_choice" in first:  # a step that sent none sends none (not step 1's)
            step["tool_choice"] = saved.data.get("tool_choice")
        offered = saved.data.get("tools") or ()
        if [_tool_key(t) for t in offered] != names:
            step["tools"] = [t.get("name") for t in offered if t.get("type") in (None, "custom")]
        steps.append(step)
        if number > 1:
            _settings_differ(number, calls[number - 1].index, first, saved.data, notes)
            _history_differs(number, calls[number - 1].index, imported[number - 2].data, saved.data, notes)
    if any(steps):
        loop["steps"] = steps
    replies = _replies(har, calls, imported, response)
    results: dict[str, list[str]] = {}
    for _, reply in replies.values():
        for given in (reply or {}).get("results", ()):
            if given["name"]:
                results.setdefault(given["name"], []).append(given["content"])
    if results:
        loop["results"] = results
    first["loop"] = loop
    return first, replies


def _redacted_import(har: Any, saved: Any, before: tuple[list[Any], list[Any]] | None
                     ) -> tuple[Any, tuple[list[Any], list[Any]] | None]:
    """``trace_har._redacted(har, saved)``, and (its messages as imported, as redacted) for the next call's: a
    message the previous call sent the same is not redacted again (an agent's call holds the whole history before
    it: every message was redacted once a call, ~12% of a 200-step replay). The same data: the redaction is each
    string's own (``Redactor.data``: a string's patterns by the field it is under, its secrets searched alone; the
    whole text's look only skips a walk that would find nothing), and no message is under a credential's field."""
    from .trace_har import _redacted

    redactor = _har_redactor(har)
    messages = saved.data.get("messages")
    if redactor is None or not isinstance(messages, list) or redactor.data(["messages"]) != ["messages"]:
        return _redacted(har, saved), None
    rest = _redacted(har, saved._replace(data={k: v for k, v in saved.data.items() if k != "messages"}))
    kept = len(before[0]) if before is not None and messages[:len(before[0])] == before[0] else 0
    shown = [*(before[1][:kept] if before is not None else ()), *(redactor.data(m) for m in messages[kept:])]
    others = iter(rest.data.items())
    data = dict(("messages", shown) if key == "messages" else next(others) for key in saved.data)
    return rest._replace(data=data), (messages, shown)


def _tool_key(tool: dict[str, Any]) -> str:
    """A tool's identity among the calls': its name, or a hosted tool's whole data where it has none."""
    return tool.get("name") or json.dumps(tool, sort_keys=True)


def _settings_differ(number: int, index: int, first: dict[str, Any], later: dict[str, Any],
                     notes: list[LedgerEntry]) -> None:
    """A later call's own settings (parallel_tool_calls, its model, its ``extra``: a tool_choice with no neutral form,
    a temperature) where they differ from the first call's: the loop sends the first's at every step, and says so."""
    def fields(data: dict[str, Any]) -> dict[str, Any]:
        out = {key: value for key, value in data.items() if key not in _PER_STEP}  # parallel_tool_calls, strict...
        for api, settings in (data.get("providers") or {}).items():
            for key, value in (settings or {}).items():
                if key == "extra" and isinstance(value, dict):
                    out.update((f"providers.{api}.extra.{k}", v) for k, v in value.items())
                else:
                    out[f"providers.{api}.{key}"] = value
        return out

    before, now = fields(first), fields(later)
    changed = [key for key in dict.fromkeys([*before, *now]) if before.get(key, _UNSET) != now.get(key, _UNSET)]
    if changed:
        said = "; ".join(f"{key} {_shown(now.get(key, _UNSET))} (step 1: {_shown(before.get(key, _UNSET))})"
                         for key in changed[:4]) + (f"; {len(changed) - 4} more" if len(changed) > 4 else "")
        notes.append(LedgerEntry("warning", "har.step_settings", f"step {number} (log.entries[{index}]) was sent "
                                 f"with {said}: the replay sends step 1's settings at every step"))


_UNSET = object()
_PER_STEP = ("description", "messages", "system", "tools", "tool_choice", "providers", "loop")  # each said elsewhere


def _history_differs(number: int, index: int, before: dict[str, Any], data: dict[str, Any],
                     notes: list[LedgerEntry]) -> None:
    """A later call whose history is not the one a loop sends (the previous call's messages, its reply's turn, the
    results): a message the app added (a reminder, a new user turn), one it changed or left out, another system
    prompt. The loop sends its own history; the warning names what the recorded call sent besides."""
    previous, messages = before.get("messages") or [], data.get("messages") or []
    said = []
    if data.get("system") != before.get("system"):
        said.append("another system prompt")
    kept = messages[:len(previous)] == previous
    if not kept:
        at = next((i for i, (a, b) in enumerate(zip(previous, messages)) if a != b), min(len(previous), len(messages)))
        said.append(f"messages[{at}] not as step {number - 1} sent it")
    else:
        added = messages[len(previous):]
        roles = [m.get("role") for m in added]
        if not (roles[:1] == ["assistant"] and all(r == "tool" for r in roles[1:])):
            extra = next((len(previous) + i for i, r in enumerate(roles) if (r != "assistant" if i == 0 else
                                                                              r != "tool")), len(messages))
            said.append(f"a {roles[extra - len(previous)]} message at messages[{extra}]" if extra < len(messages)
                        else f"no turn of step {number - 1}'s reply")
    if said:
        notes.append(LedgerEntry("warning", "har.history_differs", f"step {number} (log.entries[{index}]) was sent "
                                 f"with {' and '.join(said)}, besides step {number - 1}'s history, its reply and the "
                                 "results: the replay sends the loop's history (step 1's messages, each reply, each "
                                 "result)"))


def _shown(value: Any) -> str:
    if value is _UNSET:
        return "not set"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return cut(text, 80)


def _replies(har: Any, calls: list[Any], imported: list[Any], response: Any) -> dict[int, tuple[Any, Any]]:
    """Per step: ((status, body, content type) as recorded, or None; {"status", "reply", "latency_ms", "results"},
    or None where the entry holds no response to read). ``response(call)``: ``trace_har.read_response``'s."""
    from .trace_har import _recorded_body

    redactor = _har_redactor(har)
    out: dict[int, tuple[Any, Any]] = {}
    for step, call in enumerate(calls, 1):
        reply, _, read, events = response(call)
        found = _recorded_body(har, call, read, events) if reply is not None else None
        if found is None or reply is None:
            out[step] = (None, None)
            continue
        status, data, kind = found
        if redactor is not None:  # a reply that quotes a key the HAR's request sent
            data = redactor.text(data.decode("utf-8", "replace")).encode("utf-8")
        shown = reply.to_json()
        saved: dict[str, Any] = {"status": status, "reply": redactor.data(shown) if redactor else shown}
        time = call.time
        if isinstance(time, (int, float)) and not isinstance(time, bool) and 0 <= time < 1e9:
            saved["latency_ms"] = float(time)
        if step < len(calls):
            saved["results"] = _results_given(reply, imported[step].data.get("messages") or [])
        out[step] = ((status, data, kind), saved)
    return out


def _results_given(reply: Any, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the next call sent back for each call ``reply`` made, in the reply's order: the tool message with the
    call's id, else the one at its position after the last assistant turn (Gemini's calls have no ids); a call with
    none gets an empty name (``Transcript.recorded_result`` then leaves it to ``loop.results``)."""
    from .trace_scenario import _after_last_turn

    answers = {m["tool_call_id"]: m for m in messages if m.get("role") == "tool" and m.get("tool_call_id")}
    following = _after_last_turn(messages)
    given = []
    for position, call in enumerate(reply.tool_calls):
        message = answers.get(call.id) if call.id else None
        if message is None and position < len(following) and not following[position].get("tool_call_id"):
            message = following[position]
        if message is None:
            given.append({"name": "", "content": ""})
            continue
        content = message.get("content")
        given.append({"name": call.name, "content": content if isinstance(content, str) else
                      json.dumps(content, ensure_ascii=False), "is_error": bool(message.get("is_error"))})
    return given


def _notes_redacted(har: Any, notes: list[LedgerEntry]) -> list[LedgerEntry]:
    redactor = _har_redactor(har)
    return notes if redactor is None else [n._replace(message=redactor.text(n.message)) for n in notes]


def _har_redactor(har: Any) -> Any:
    """trace_har's one Redactor for the HAR's credentials and found keys (None: it holds none)."""
    from .trace_har import _redactor

    return _redactor(tuple(har.secrets.items()), tuple(har.found.items())) if har.secrets or har.found else None
