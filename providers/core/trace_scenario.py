"""Recorded LLM calls (``trace_import``) → the scenario that reproduces the trajectory, and its replies.

The scenario: ``tools`` from the recorded definitions, ``messages`` of the first call, ``loop:`` with each
call's recorded tool_choice in order (neutral spelling; unspecified where the trace has none, with a note) and
``results`` per tool in order (the tool messages later calls sent), ``providers: {<recorded>: {model: ...}}``.
The replies: each call's recorded assistant turn as ``Reply.to_json()`` writes it, for ``run --replay FILE``,
which answers the loop offline with them on any provider (``Transcript.translated_sender``).
Every change to what was recorded is a ledger note (``Scenario.notes``: the start of every step's ledger).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, NamedTuple

from .error_keys import says_no_key
from .model import LedgerEntry, Scenario, ToolchoiceError
from .trace_import import LlmCall, family_of, provider_id, reasoning_family  # noqa: F401 (re-exported)

class Trajectory(NamedTuple):
    id: str
    calls: list[LlmCall]


class ImportedTrace(NamedTuple):
    data: dict[str, Any]  # the scenario, as a scenario file writes it
    replies: list[dict[str, Any]]  # per step, Reply.to_json()
    notes: list[LedgerEntry]
    provider: str | None  # the toolchoice id of the recorded provider
    trajectory: Trajectory


# ---- which calls make one run ------------------------------------------------------------------


def trajectories(calls: list[LlmCall]) -> list[Trajectory]:
    """Calls grouped into runs: the same opening (system prompt and first message) is one conversation,
    across traces too (an SDK call without a parent span is a trace of its own); a call whose history does
    not grow starts a new run."""
    groups: dict[str, list[list[LlmCall]]] = {}
    for call in calls:
        key = json.dumps([call.system, call.messages[:1]], sort_keys=True, default=str)
        runs = groups.setdefault(key, [])
        if runs and len(call.messages) > len(runs[-1][-1].messages):
            runs[-1].append(call)
        else:
            runs.append([call])
    found = [run for runs in groups.values() for run in runs]
    found.sort(key=lambda run: run[0].span.start)
    counts: dict[str, int] = {}
    out = []
    for run in found:
        trace = run[0].span.trace_id
        counts[trace] = counts.get(trace, 0) + 1
        out.append((trace, run))
    numbered: dict[str, int] = {}
    result = []
    for trace, run in out:
        numbered[trace] = numbered.get(trace, 0) + 1
        ident = trace if counts[trace] == 1 else f"{trace}/{numbered[trace]}"
        result.append(Trajectory(ident, run))
    return result


def select(path: Path, calls: list[LlmCall], trace_id: str | None) -> list[Trajectory]:
    """The runs in the file (every one when ``trace_id`` is None), or the one ``trace_id`` names."""
    if not calls:
        raise ToolchoiceError(f"{path}: no LLM spans (neither OpenInference nor OTel GenAI chat spans)",
                              hint="export the trace of an instrumented LLM client")
    if not any(c.messages or c.output for c in calls):
        said = next((n for c in calls for n in c.untravelled or () if n.endswith("it is not read")), None)
        if said is not None:  # captured, but not JSON that reads as written (cut, or a key written twice)
            raise ToolchoiceError(f"{path}: the LLM spans carry no messages that read: {said}",
                                  hint="the exporter wrote the attribute so: fix the instrumentation or its limits, "
                                       "and export the trace again")
        raise ToolchoiceError(f"{path}: the LLM spans carry no messages: content was not captured",
                              hint="record with content capture on (OTel GenAI: "
                                   "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT; OpenInference captures it "
                                   "unless OPENINFERENCE_HIDE_INPUTS/OUTPUTS is set); where the messages went to "
                                   "log events, add the OTLP/JSON logs export as lines of the same file")
    runs = trajectories(calls)
    if trace_id is None:
        return runs
    wanted = trace_id.strip().lower()
    chosen = [r for r in runs if r.id == wanted] or [r for r in runs if r.id.split("/")[0] == wanted]
    if not chosen:
        chosen = [r for r in runs if any(c.span.trace_id == wanted for c in r.calls)]
    if not chosen:
        raise ToolchoiceError(f"{path}: no run with trace id {trace_id}",
                              hint=f"the file holds {', '.join(r.id for r in runs)}")
    return chosen


def describe(run: Trajectory) -> dict[str, Any]:
    """One line of `toolchoice trace`'s listing."""
    first = run.calls[0]
    opening = next((m.get("content") for m in first.messages if m.get("role") == "user"), None)
    return {"trace_id": run.id, "llm_calls": len(run.calls), "provider": first.provider, "model": first.model,
            "convention": first.convention, "first_message": opening}


# ---- the scenario --------------------------------------------------------------------------------


def build(path: Path, run: Trajectory, executed: dict[str, dict[str, Any]] | None = None,
          outputs: dict[str, list[str]] | None = None) -> ImportedTrace:
    """The scenario and replies of one run; the scenario is checked by the scenario loader. ``executed``: tool
    definitions from the trace's tool spans (``trace_tool_spans``), for called tools no LLM span defines;
    ``outputs``: what those spans say each tool returned, for called tools no later LLM call sent a result of."""
    from .choice import parse_tool_choice

    calls = run.calls
    first = calls[0]
    shown = str(path)
    notes: list[LedgerEntry] = [LedgerEntry("info", "trace.imported", f"{shown}: {len(calls)} LLM call"
                                            f"{'s' if len(calls) != 1 else ''} of trace {run.id} read as "
                                            f"{_convention(first)} ({first.span.scope or 'unknown scope'})")]
    tools, per_step = _tools(shown, calls, notes, executed or {})
    names = tuple(t["name"] for t in tools)
    recorded = first.toolchoice_provider or first.provider
    pid = provider_id(recorded)
    if pid is None:
        notes.append(LedgerEntry("warning", "trace.provider_unknown",
                                 f"the recorded provider {_named(recorded)} is not one toolchoice knows: -p decides"))
    elif recorded != pid:
        from .registry import traced_name_note

        why = traced_name_note(pid, str(recorded))  # the family's words (its module's TRACED_NAMES)
        notes.append(LedgerEntry("info", "trace.provider_mapped", f"the recorded provider {_named(recorded)} is "
                                 f"toolchoice's {pid}" + (f" ({why})" if why else "")))
    parallel = first.parallel_tool_calls
    steps: list[dict[str, Any]] = []
    unrecorded: list[int] = []
    for number, call in enumerate(calls, 1):
        step: dict[str, Any] = {}
        value = call.choice
        if isinstance(value, dict) and "disable_parallel_tool_use" in value:
            value = {k: v for k, v in value.items() if k != "disable_parallel_tool_use"}
            if call.choice.get("disable_parallel_tool_use") is True and parallel is None:
                parallel = False
                notes.append(LedgerEntry("info", "trace.parallel_from_choice",
                                         f"step {number}'s recorded tool_choice disables parallel tool use: the "
                                         "scenario says parallel_tool_calls: false"))
        if not call.choice_recorded:
            unrecorded.append(number)
        else:
            def fail(message: str, hint: str | None = None, n: int = number) -> ToolchoiceError:
                return ToolchoiceError(f"step {n}: {message}", hint=hint)

            try:
                choice = parse_tool_choice(value, names, fail)
            except ToolchoiceError as exc:
                notes.append(LedgerEntry("warning", "trace.tool_choice_unreadable",
                                         f"step {number}'s recorded tool_choice {json.dumps(value)[:200]} cannot be "
                                         f"read ({exc.message}): left unspecified"))
                choice = None
            if choice is not None:
                step["tool_choice"] = choice.to_json()
        offered = per_step[number - 1]
        if offered is not None and tuple(offered) != names:
            wanted = step.get("tool_choice")
            extra = [wanted["tool"]] if isinstance(wanted, dict) and "tool" in wanted else (
                wanted.get("allowed", []) if isinstance(wanted, dict) else [])
            step["tools"] = list(dict.fromkeys([*offered, *[n for n in extra if n not in offered]]))
        steps.append(step)
    if unrecorded:
        which = "any step" if len(unrecorded) == len(calls) else "step " + ", ".join(map(str, unrecorded))
        why = ("its invocation parameters and request hold none" if first.convention == "openinference" else
               f"{_convention(first)} has no tool_choice attribute")
        notes.append(LedgerEntry("warning", "trace.tool_choice_not_recorded",
                                 f"the trace records no tool_choice for {which} ({why}): not recorded, left unspecified"))
    data: dict[str, Any] = {"description": f"imported from {path.name}: trace {run.id}, {len(calls)} LLM call"
                                           f"{'s' if len(calls) != 1 else ''}"}
    if tools:
        data["tools"] = tools
    if parallel is not None:
        data["parallel_tool_calls"] = parallel
    if first.system:
        data["system"] = first.system
    data["messages"] = [_history(m, notes) for m in first.messages]
    if pid is not None:
        model = first.model
        data["providers"] = {pid: {"model": model} if model else None}
    loop: dict[str, Any] = {"max_steps": len(calls)}
    if any(steps):
        loop["steps"] = steps
    results = _results(calls)
    _results_from_tool_spans(calls, results, outputs or {}, notes)
    if results:
        loop["results"] = results
    data["loop"] = loop
    replies = [_reply(call) for call in calls]
    data["messages"], replies = _known_reasoning(calls, data["messages"], replies, notes)
    for number, call in enumerate(calls, 1):
        for line in call.untravelled:
            notes.append(LedgerEntry("warning", "trace.not_replayed", f"step {number}: {line}"))
    _check(shown, data)
    return ImportedTrace(data, replies, notes, pid, run)


_NAMED = 3  # providers a note names one by one: a trace's calls may each name another


def _named(recorded: Any) -> str:
    """A recorded provider's name as a note quotes it: JSON text, cut at ``bounded.KEY_SHOWN`` (a trace is the
    server's data: a name of 200,000 characters made a note of 200 KB)."""
    from .bounded import KEY_SHOWN, cut

    return json.dumps(cut(recorded, KEY_SHOWN) if isinstance(recorded, str) else recorded)


def _known_reasoning(calls: list[LlmCall], messages: list[dict[str, Any]], replies: list[dict[str, Any]],
                     notes: list[LedgerEntry]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The messages and replies without the reasoning state of a provider no row is (``family_of``: None): no API's
    form is known to hold it, so none is guessed; left out and said."""
    left = 0

    def known(holder: dict[str, Any]) -> dict[str, Any]:
        nonlocal left
        items = holder.get("reasoning") or []
        kept = [item for item in items if item.get("family") is not None]
        if len(kept) == len(items):
            return holder
        left += len(items) - len(kept)
        return {k: v for k, v in holder.items() if k != "reasoning"} | ({"reasoning": kept} if kept else {})

    messages, replies = [known(m) for m in messages], [known(r) for r in replies]
    if left:
        named = list(dict.fromkeys(_named(c.provider) for c in calls
                                   if isinstance(c.provider, str) and reasoning_family(c.provider) is None))
        more = f" and {len(named) - _NAMED:,} more" if len(named) > _NAMED else ""
        whose = f"the provider {', '.join(named[:_NAMED])}{more}, which toolchoice does not know" if named else \
            "a provider the trace does not name"
        notes.append(LedgerEntry("warning", "trace.reasoning_unknown",
                                 f"the recorded reasoning state ({left} item{'s' if left != 1 else ''}) is of {whose}: "
                                 "no API's form is known to hold it, so it is left out (-p's API does not get it back)"))
    return messages, replies


def _convention(call: LlmCall) -> str:
    return {"openinference": "OpenInference", "genai": "OTel GenAI", "toolchoice": "toolchoice's own OTel GenAI"}[
        call.convention]


def _tools(shown: str, calls: list[LlmCall], notes: list[LedgerEntry], executed: dict[str, dict[str, Any]]
           ) -> tuple[list[dict[str, Any]], list[list[str] | None]]:
    """The declared tools (union, first seen first) and each step's offered names (None: not recorded)."""
    from .tool_import_entries import convert
    from .tool_import_formats import ImportProblem

    declared: dict[str, dict[str, Any]] = {}
    per_step: list[list[str] | None] = []
    noted = False
    for number, call in enumerate(calls, 1):
        if not call.tools:
            per_step.append(None if call.tools is None else [])
            continue
        try:
            imported = convert(call.tools, f"{shown} step {number}")
        except ImportProblem as problem:  # hosted tools only, an odd entry: said, and the step's tools unknown
            where = ".".join(str(w) for w in problem.where)
            notes.append(LedgerEntry("warning", "trace.tools_unreadable",
                                     f"step {number}'s recorded tool definitions cannot be read: {problem.message}"
                                     + (f" (at {where})" if where else "")))
            per_step.append(None)
            continue
        if not noted:
            notes.extend(e for e in imported.notes if e.code != "import.format")
            noted = True
        for tool in imported.tools:
            declared.setdefault(tool.name, _tool_data(tool))
        per_step.append([t.name for t in imported.tools])
    called = [c["name"] for call in calls for m in [*call.messages, call.output or {}] for c in m.get("tool_calls", [])]
    missing = [n for n in dict.fromkeys(called) if n and n not in declared]
    ran = [n for n in missing if "parameters" in executed.get(n, {})]
    if ran:
        declared.update((n, dict(executed[n])) for n in ran)
        missing = [n for n in missing if n not in ran]
        notes.append(LedgerEntry("info", "trace.tools_from_tool_spans",
                                 f"the LLM spans record no definition of {', '.join(ran)}: declared as the trace's "
                                 "tool spans ran them (what the agent ran, not what each step offered)"))
    if missing:
        for name in missing:
            declared[name] = {"name": name, "parameters": {"type": "object"}}
        recorded = any(offered for offered in per_step)
        said = (f"no definition of {', '.join(missing)}" if recorded else
                f"no tool definitions, only calls to {', '.join(missing)}")
        notes.append(LedgerEntry("warning", "trace.open_schema",
                                 f"the trace records {said}: declared with an open schema {{type: object}}"))
        if not recorded:
            per_step = [None] * len(calls)
    return list(declared.values()), per_step


def _tool_data(tool: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"name": tool.name}
    if tool.kind == "custom":
        data["type"] = "custom"
    if tool.description is not None:
        data["description"] = tool.description
    if tool.kind == "custom":
        if tool.format is not None:
            data["format"] = dict(tool.format)
        return data
    if tool.parameters is not None:
        data["parameters"] = tool.parameters
    if tool.strict is not None:
        data["strict"] = tool.strict
    data.update(dict(tool.fields))
    return data


def _history(message: dict[str, Any], notes: list[LedgerEntry]) -> dict[str, Any]:
    """A recorded input message as the scenario loader takes it (arguments must be objects)."""
    if not message.get("tool_calls"):
        return message
    calls = []
    for call in message["tool_calls"]:
        args = call.get("arguments")
        if not isinstance(args, dict):
            notes.append(LedgerEntry("warning", "trace.arguments_undecodable",
                                     f"{call.get('name')}'s recorded arguments are not a JSON object: the history "
                                     "carries {}"))
            args = {}
        calls.append({**call, "arguments": args})
    return {**message, "tool_calls": calls}


def _results(calls: list[LlmCall]) -> dict[str, list[str]]:
    """Per tool, in call order, the result a later call sent back for each recorded call: the tool message
    with the call's id, else (no ids recorded, as Gemini's calls have none) the one at the call's position
    after the next call's last assistant turn."""
    answers: dict[str, str] = {}
    for call in calls:
        for m in call.messages:
            if m.get("role") == "tool" and m.get("tool_call_id"):
                answers.setdefault(m["tool_call_id"], m.get("content") or "")
    results: dict[str, list[str]] = {}
    for number, call in enumerate(calls):
        made = (call.output or {}).get("tool_calls", [])
        following = _after_last_turn(calls[number + 1].messages) if number + 1 < len(calls) else []
        for position, c in enumerate(made):
            if not c.get("name"):
                continue
            if c.get("id") and c["id"] in answers:
                results.setdefault(c["name"], []).append(answers[c["id"]])
            elif position < len(following) and not following[position].get("tool_call_id"):
                results.setdefault(c["name"], []).append(following[position].get("content") or "")
    return results


def _results_from_tool_spans(calls: list[LlmCall], results: dict[str, list[str]], outputs: dict[str, list[str]],
                             notes: list[LedgerEntry]) -> None:
    """A called tool with no result in any later call's messages (smolagents sends them back as text) takes the
    outputs of its tool spans, in order, one per recorded call of it."""
    made: dict[str, int] = {}
    for call in calls:
        for c in (call.output or {}).get("tool_calls", []):
            if c.get("name"):
                made[c["name"]] = made.get(c["name"], 0) + 1
    taken = []
    for name, count in made.items():
        if name not in results and outputs.get(name):
            results[name] = outputs[name][:count]
            taken.append(name)
    if taken:
        notes.append(LedgerEntry("info", "trace.results_from_tool_spans",
                                 f"no later LLM call sends back a result of {', '.join(taken)} as a tool message: "
                                 "the results are the outputs of the trace's tool spans (output.value), in call order"))


def _after_last_turn(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool messages right after the last assistant turn with calls."""
    last = max((i for i, m in enumerate(messages) if m.get("role") == "assistant" and m.get("tool_calls")), default=None)
    if last is None:
        return []
    out = []
    for m in messages[last + 1:]:
        if m.get("role") != "tool":
            break
        out.append(m)
    return out


def _reply(call: LlmCall) -> dict[str, Any]:
    out = call.output or {}
    calls = []
    for c in out.get("tool_calls", []):
        args = c.get("arguments")
        item: dict[str, Any] = {"id": c.get("id"), "name": c.get("name") or "", "arguments": args}
        if not isinstance(args, dict):
            item.update(arguments=None, raw_arguments=args if isinstance(args, str) else json.dumps(args),
                        arguments_error="the recorded arguments are not a JSON object")
        if c.get("signature"):
            item["signature"] = c["signature"]
        calls.append(item)
    reply: dict[str, Any] = {"tool_calls": calls, "text": out.get("content") or None,
                             "finish_reason": call.finish_reason,
                             "usage": {"input_tokens": call.usage[0], "output_tokens": call.usage[1]}, "error": None}
    if out.get("reasoning"):
        reply["reasoning"] = out["reasoning"]
    return reply


def _check(shown: str, data: dict[str, Any]) -> Scenario:
    from .scenario import load_scenario_text

    try:
        return load_scenario_text(json.dumps(data, ensure_ascii=False), shown)
    except ToolchoiceError as exc:
        raise ToolchoiceError(f"{shown}: the recorded run does not make a valid scenario: {exc.message}",
                              hint=exc.hint) from None


# ---- reading a file ----------------------------------------------------------------------------


@says_no_key
def import_trace(path: str | os.PathLike[str], trace_id: str | None = None) -> list[ImportedTrace] | list[Trajectory]:
    """One run → ``[ImportedTrace]``; several (and no ``trace_id``) → the list of runs to choose from
    (``describe(run)``: each one's line). ``path``: an OTLP/JSON trace export (docs/traces.md)."""
    from . import call_args
    from .trace_import import llm_calls, read_spans

    path = call_args.path_arg(path)
    if trace_id is not None and not isinstance(trace_id, str):
        raise call_args.wrong("trace_id", "a trace id (str) or None", trace_id)

    from .trace_tool_spans import executed_tools, tool_outputs

    spans = read_spans(path)
    runs = select(path, llm_calls(spans), trace_id)
    if len(runs) > 1:
        return runs
    traces = {c.span.trace_id for c in runs[0].calls}
    try:
        executed = executed_tools(spans, traces)
    except ToolchoiceError as exc:  # a TOOL span's parameters that do not read: the file they are in
        raise ToolchoiceError(f"{path}: {exc.message}", hint=exc.hint) from None
    return [build(path, runs[0], executed, tool_outputs(spans, traces))]


def replay_trace(path: Path, trace_id: str | None, provider: str) -> tuple[Scenario, Any]:
    """``run --replay FILE``: the scenario (notes in every ledger) and a ``Replay`` answering from the trace."""
    from . import loop

    found = import_trace(path, trace_id)
    if not isinstance(found[0], ImportedTrace):
        runs = ", ".join(r.id for r in found)  # type: ignore[union-attr]
        from .errors import named

        raise named((f"{path}: holds {len(found)} runs ({runs})",), "pick one with ", "; ", " lists them",
                    names=("trace_id", "trace.trace"),  # the command line's words: cli/exits.py _OPTIONS
                    spelling={"trace_id": "trace_id=", "trace.trace": "trace_scenario.import_trace(path)"})
    imported: ImportedTrace = found[0]  # type: ignore[assignment]
    notes = list(imported.notes)
    family = family_of(provider)
    carried = {item.get("family") for r in imported.replies for item in r.get("reasoning", [])}
    carried |= {item.get("family") for m in imported.data["messages"] for item in m.get("reasoning", [])}
    signed = any(c.get("signature") for r in imported.replies for c in r["tool_calls"])
    for other in sorted(f for f in carried if f and f != family):
        notes.append(LedgerEntry("warning", "trace.reasoning_not_carried",
                                 f"the recorded reasoning state ({other}: text, signatures) is valid only on {other}: "
                                 f"{provider} does not get it back"))
    signers: dict[str, str] = {}
    if signed:  # which families sign their calls is theirs to say (their modules' CALL_SIGNATURES): asked only then
        from .registry import call_signatures

        signers = call_signatures()
    if signed and family not in signers:
        notes.append(LedgerEntry("warning", "trace.reasoning_not_carried",
                                 f"the recorded calls carry {', '.join(signers.values())}: {provider} does not get them"))
    scenario = _check(str(path), imported.data)._replace(notes=tuple(notes))
    replies = {n: {"status": 200, "reply": r} for n, r in enumerate(imported.replies, 1)}
    transcript = loop.Transcript(path, f"trace:{imported.provider or 'unknown'}", {}, replies)
    return scenario, loop.Replay([transcript])
