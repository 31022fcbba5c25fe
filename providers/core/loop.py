"""The agent loop (`toolchoice run`): per step, derive the step's scenario from the ``loop:`` section
and the history so far → translate → send through the runner → judge against that step's
tool_choice → append the assistant turn as the provider needs it back → append the tool results
(``loop.results``, or ``--results-from``) → go on, until the model answers without a tool call, the
stop tool is called, max_steps is reached, or a step fails.

Every finished step is kept on its ``LoopRun`` as it completes (``on_step`` sees it), so a loop that
fails at step k, or is interrupted, still has steps 1..k-1. ``--repeat N`` runs N independent loops,
the send settings' concurrency of them at a time per provider (each with one request in flight), and
hands each to ``on_loop`` once ended (`run` reduces it to tallies there: loop_tally.py); one loop's
failure never loses another's steps. Replay (loop_replay.py) answers from saved bodies through an
``httpx.MockTransport``, so a replayed loop runs the same code path offline. The records are in
loop_records.py, the tool results in loop_results.py, the ``--save`` transcripts in loop_save.py.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Mapping

from . import loop_lint
from .capabilities import Capability
from .history import assistant_message
from .loop_policy import NO_LOOP, Repeats, narrowed_as_sent, step_scenario  # noqa: F401 - the loop's interface
from .loop_records import LoopRun, StepRecord
from .loop_replay import Replay, Transcript, load_replay, reply_from_json  # noqa: F401 - the loop's interface
from .loop_results import ToolResults
from .loop_tally import ENDINGS, summary  # noqa: F401 - the loop's interface
from .model import (LedgerEntry, LoopSpec, Message, RenderOptions, Reply, Scenario, ToolCall, ToolChoice,
                    ToolchoiceError, Translation)
from .registry import empty_turn_content, translate
from .runner import Job, Sample, SendSettings, prepare_jobs
from .verdict import offered_tools

STOP_RESULT = "done"  # the stop tool's result in the history when loop.results gives none


# ---- the step's scenario -------------------------------------------------------------------


def later_steps(scenario: Scenario, override: Any = None) -> list[str]:
    """What steps 2.. depend on, one line each (for --dry-run)."""
    spec = scenario.loop or NO_LOOP
    lines = []
    for number in range(2, min(spec.max_steps, max(2, len(spec.steps))) + 1):
        s = step_scenario(scenario, number, (), override, called=True)  # a step after 1 follows a tool call
        choice = s.tool_choice.to_json() if s.tool_choice is not None else "unset"
        # the last entry of loop.steps repeats; without steps every step is step 2's
        again = " (and every later step)" if number >= len(spec.steps) and number < spec.max_steps else ""
        lines.append(f"step {number}{again}: tool_choice {json.dumps(choice)}, offers "
                     f"{', '.join(s.tool_names) or 'no tools'}; its history adds step {number - 1}'s assistant turn "
                     "(the reply's calls and ids) and a result per call from loop.results")
    stop = f"the stop tool '{spec.stop_tool}' is called" if spec.stop_tool else "the model answers without a tool call"
    if spec.repeated_calls:
        stop += f", when the same call comes {spec.repeated_calls} steps in a row"
    from .loop_lint import forcing_tail

    tail, _ = forcing_tail(scenario, override)
    if tail is None:
        lines.append(f"the loop ends when {stop}, at max_steps {spec.max_steps}, or when a step fails")
    else:  # every step from ``tail`` forces a call: the model cannot answer without one (loop.cannot_end)
        repeats = f", when the same call comes {spec.repeated_calls} steps in a row" if spec.repeated_calls else ""
        lines.append(f"the loop ends only at max_steps {spec.max_steps}{repeats} or when a step fails: from step "
                     f"{tail} on every step forces a call and no stop tool can end it (loop.cannot_end; a provider "
                     "that cannot send the choice, as Ollama, lets the model answer)")
    return lines


# ---- the assistant turn and the tool results ---------------------------------------------


def settle_turn(turn: Message, reply: Reply, provider: str, history: list[Message],
                step: int) -> tuple[Message, list[LedgerEntry]]:
    """Make the turn (history.assistant_message's: text, calls with their ids and signatures, reasoning
    state) one the next request can carry, each change a ledger note: a call without an id
    gets a stable one (``call_s<step>_<n>``), unique across steps, an id used before in the history gets ``_s<step>``
    appended (its result answers the new id); a turn with calls and no text carries what the provider's module
    says such a turn looks like (``registry.empty_turn_content``: "" rather than null for openai_chat)."""
    notes: list[LedgerEntry] = []
    seen = {c.id for m in history for c in m.tool_calls}
    calls = []
    for n, (call, original) in enumerate(zip(turn.tool_calls, reply.tool_calls), 1):
        call_id = call.id
        if not original.id:  # whatever id assistant_message gave it, the loop's is unique across steps
            call_id = _unused(f"call_s{step}_{n}", seen)
            notes.append(LedgerEntry("info", "loop.call_id_generated",
                                     f"{call.name} came back without an id: the history gives it '{call_id}' (stable: "
                                     "step and position), and its result answers that id"))
        elif call_id in seen:
            call_id = _unused(f"{call_id}_s{step}", seen)
            notes.append(LedgerEntry("warning", "loop.call_id_reused",
                                     f"{call.name} came back with id '{call.id}', already used in the history or this "
                                     "turn: "
                                     f"the history gives it '{call_id}' (ids must be unique)"))
        if original.arguments is None:
            notes.append(LedgerEntry("warning", "loop.arguments_undecodable",
                                     f"{call.name}'s arguments could not be decoded ({original.arguments_error}): the "
                                     "history carries {} and its result is an error"))
        seen.add(call_id)
        calls.append(call._replace(id=call_id))
    content = turn.content
    empty = empty_turn_content(provider) if content is None and calls else None
    if empty is not None:
        content, why = empty
        notes.append(LedgerEntry("info", "loop.empty_content", why))
    return turn._replace(content=content, tool_calls=tuple(calls)), notes


def _unused(call_id: str, seen: set[str]) -> str:
    """``call_id``, or with ``_2``, ``_3``... appended when the model already gave that id (it may write any id,
    ``call_s2_1`` included)."""
    found, n = call_id, 2
    while found in seen:
        found, n = f"{call_id}_{n}", n + 1
    return found


# ---- running loops -------------------------------------------------------------------------

Sender = Callable[[Job, int], Awaitable[Sample]]
OnStep = Callable[[LoopRun, StepRecord], None]
OnLoop = Callable[[LoopRun], None]


@dataclass
class LoopOptions:
    """How the loops are built and sent: translation options, a capability overlay, the parsed
    --tool-choice override of step 1, --results-from and its timeout."""

    render: RenderOptions = RenderOptions()
    capabilities: Mapping[str, Capability] | None = None  # a probe overlay (overlay.load_overlay)
    override: ToolChoice | None = None
    results_from: str | None = None
    results_timeout: float = 30.0
    models: dict[str, str | None] | None = None  # provider -> model (--model PROVIDER=MODEL); None: render.model
    _found: dict[str, Any] = field(default_factory=dict)  # per provider: the loop's findings, made once per run

    def render_for(self, provider: str) -> RenderOptions:
        """The translation options for one provider: its own model where one was given."""
        if self.models is None or self.models.get(provider) is None:
            return self.render
        return self.render._replace(model=self.models[provider])

    def findings(self, provider: str, scenario: Scenario) -> list[LedgerEntry]:
        """loop.cannot_end, loop.hosted_call, loop.no_results and loop.literal_field (loop_lint), once per provider:
        step 1's ledger carries them."""
        if provider not in self._found:
            from .loop_lint import cannot_end, hosted_calls, result_findings

            found = (cannot_end(scenario, self.override, provider, self.capabilities),
                     hosted_calls(scenario, self.override, provider))
            self._found[provider] = [*(f for f in found if f is not None),
                                     *result_findings(scenario, self.results_from, self.override)]
        return self._found[provider]

    def thinking_rules(self, provider: str, scenario: Scenario) -> tuple[str | None, str | None]:
        model = loop_lint.model_of(provider, scenario, self.render_for(provider).model, self.capabilities)
        return loop_lint.thinking_rules(provider, model, scenario)

    def allowed_form(self, provider: str) -> bool:
        return loop_lint.has_allowed_form(provider, self.capabilities)


async def run_loop(run: LoopRun, scenario: Scenario, options: LoopOptions, send: Sender,
                   prepare: Callable[[Translation, Scenario], Job], on_step: OnStep | None = None,
                   recorded: Transcript | None = None) -> LoopRun:
    """Run one loop to its end, appending each finished step to ``run.steps``. ``recorded`` (a replay without
    --results-from): the result the recorded run gave each call answers it, so the replayed requests are the
    recorded ones (the command is not run again; ``loop.results`` answers a call the recording has none for), and
    step 1 warns loop.no_results only where the recorded run did."""
    import asyncio

    spec = scenario.loop or NO_LOOP
    results = ToolResults(spec, options.results_from, options.results_timeout)
    if not run.history:
        run.history = list(scenario.messages)
    repeats, called, previous = Repeats(), False, None
    rules, has_allowed = options.thinking_rules(run.provider, scenario), options.allowed_form(run.provider)
    for number in range(1, spec.max_steps + 1):
        notes: list[LedgerEntry] = list(options.findings(run.provider, scenario)) if number == 1 else []
        if recorded is not None and number == 1 and not recorded.said(1, "loop.no_results"):
            notes[:] = [e for e in notes if e.code != "loop.no_results"]  # the recorded run had --results-from
        s = step_scenario(scenario, number, run.history, options.override, called, notes)
        translation = translate(run.provider, s, options.render_for(run.provider), options.capabilities)
        if notes:
            narrowed_as_sent(notes, s, translation)  # where extra writes the tool_choice over the step's narrowed one
        record = StepRecord(number, s, translation, notes=notes)
        if rules != (None, None):  # only where a model rule says thinking is at stake
            if previous is not None:
                notes.extend(loop_lint.thinking_changes((previous, (number, s, translation)), rules, has_allowed))
            previous = (number, s, translation)
        job = prepare(translation, s)
        if job.skipped is not None:
            record.skipped = job.skipped
            _finish(run, record, "error", job.skipped, on_step)
            return run
        try:
            record.sample = await send(job, number)
        except asyncio.CancelledError:
            if job.cut is not None and job.cut.status is not None:  # Ctrl-C mid-stream: what arrived is the step
                record.sample = job.cut
                _finish(run, record, "interrupted", job.cut.error_line(run.provider), on_step)
            raise
        reply = record.sample.reply
        if reply.error is not None:
            _finish(run, record, "error", record.sample.error_line(run.provider), on_step)
            return run
        if reply.choices:  # n > 1: one history goes on (core/choices.py)
            record.notes.append(LedgerEntry("info", "loop.choice_carried",
                                            f"the reply held {len(reply.choices)} choices (n): each is judged, and "
                                            "the history carries choice 0, as openai-python's users read choices[0]"))
        offered = offered_tools(translation, s)  # what the verdict counts as offered
        if s.tool_choice is not None and s.tool_choice.mode == "allowed":  # narrow: allowed sends every tool; the
            offered = tuple(n for n in offered if n in s.tool_choice.allowed)  # step offers its subset, as on removal
        elif s.tool_steps:  # narrow: allowed with a named tool or none, sent with every tool: the step's own tools
            named = s.tool_choice.name if s.tool_choice is not None else None  # (and a --tool-choice naming another)
            offered = tuple(n for n in offered if n in s.tool_steps[-1][1] or n == named)
        phantom = [c.name for c in reply.tool_calls if c.name not in offered]
        for name in dict.fromkeys(phantom):
            record.notes.append(LedgerEntry("warning", "loop.phantom_call",
                                            f"the model called '{name}', which step {number} did not offer: its "
                                            "result is an error saying so"))
        if not reply.tool_calls:
            if reply.text or reply.reasoning:
                run.history.append(assistant_message(reply, run.provider))
            run.final = reply.text
            _finish(run, record, "no_tool_call", None, on_step)
            return run
        called = True
        turn, settled = settle_turn(assistant_message(reply, run.provider), reply, run.provider, run.history, number)
        record.notes.extend(settled)
        repeated = repeats.see(number, reply, spec.repeated_calls)
        if repeated is not None:
            record.notes.append(repeated)
        run.history.append(turn)
        context = {"loop": run.index, "step": number, "provider": run.provider}
        for index, (call, history_call) in enumerate(zip(reply.tool_calls, turn.tool_calls)):
            found = recorded.recorded_result(number, index, call.name) if recorded is not None else None
            if found is not None:
                message = Message("tool", content=found[0], tool_call_id=history_call.id, tool_name=call.name,
                                  is_error=found[1])
            elif _stops(call, spec, offered) and call.name not in spec.results and options.results_from is None:
                message = Message("tool", content=STOP_RESULT, tool_call_id=history_call.id, tool_name=call.name)
                record.notes.append(LedgerEntry("info", "loop.stop_tool_result",
                                                f"the stop tool '{call.name}' has no loop.results entry: the history "
                                                f"answers it with '{STOP_RESULT}' (so the saved scenario is complete)"))
            else:
                message = await results.answer(call, history_call, offered, context)
            record.results.append(message)
            run.history.append(message)
        stop = next((c for c in reply.tool_calls if _stops(c, spec, offered)), None)
        if stop is not None:
            run.final = stop.arguments
            _finish(run, record, "stop_tool", None, on_step)
            return run
        if spec.repeated_calls is not None and repeats.count >= spec.repeated_calls:
            _finish(run, record, "repeated_call", None, on_step)
            return run
        if number == spec.max_steps:
            _finish(run, record, "max_steps", None, on_step)
            return run
        run.steps.append(record)
        if on_step is not None:
            on_step(run, record)
        _release(record)
    return run


def _release(record: StepRecord) -> None:
    """The step's sample, saved (``on_step``), keeps its body's bytes, not their JSON too (``Sample.release``)."""
    release = getattr(record.sample, "release", None)
    if release is not None:
        release()


def _stops(call: ToolCall, spec: LoopSpec, offered: tuple[str, ...]) -> bool:
    """Whether ``call`` ends the loop: the stop tool, offered at this step, with arguments that decode (a call the
    step did not offer, or whose arguments are not JSON, gets the error result its finding says, and the loop goes
    on: its arguments, the final answer, are not there)."""
    return bool(spec.stop_tool) and call.name == spec.stop_tool and call.name in offered and call.arguments is not None


def _finish(run: LoopRun, record: StepRecord, reason: str, error: str | None, on_step: OnStep | None) -> None:
    run.steps.append(record)
    run.ended, run.ended_step, run.error = reason, record.number, error
    if on_step is not None:
        on_step(run, record)
    _release(record)


def live_prepare(secrets: dict[str, str]) -> Callable[[Translation, Scenario], Job]:
    """Jobs for real sending: keys resolved per step (a missing key fails the step, not the run)."""
    def prepare(translation: Translation, scenario: Scenario) -> Job:
        jobs, found = prepare_jobs(scenario, [translation])
        secrets.update(found)
        return jobs[0]

    return prepare


def _body_names(request: Any) -> list[str]:
    """The variables the request's body strings read (``request.body_env``: an MCP server's headers, an allowed
    ``$NAME`` in ``extra``)."""
    from .request_parts import ENV_PLACEHOLDER
    from .transport import _resolved_body

    names: list[str] = []
    if request.body_env:
        _resolved_body(request.body, request.body_env,
                       lambda text: names.extend(a or b for a, b in ENV_PLACEHOLDER.findall(text)) or text)
    return names


def offline_prepare(translation: Translation, scenario: Scenario) -> Job:
    """Jobs for replay: the key placeholders filled with a stand-in (nothing leaves the machine)."""
    from . import transport

    job = Job(translation.provider, scenario, translation)
    if translation.request is None:
        job.skipped = "refused: " + "; ".join(e.message for e in translation.ledger if e.severity == "error")
        return job
    environ = dict(os.environ)
    for name in (*translation.request.key_env, *_body_names(translation.request)):
        if not environ.get(name):  # a variable the body reads (an allowed $NAME in extra, an MCP header) too
            environ[name] = "replay-offline"
    try:
        job.prepared = transport.prepare(translation.request, environ=environ)  # a skip's reason names no provider
    except ToolchoiceError as exc:
        job.skipped = f"skipped: {exc.message}"
    return job


async def run_loops_async(scenario: Scenario, runs: list[LoopRun], settings: SendSettings, options: LoopOptions,
                          secrets: dict[str, str], on_step: OnStep | None = None,
                          replay: "Replay | None" = None, on_loop: OnLoop | None = None) -> None:
    """Run every loop in ``runs`` concurrently (live: ``settings.concurrency`` loops at a time per
    provider, each with one request in flight, as `send` counts it; replay: each loop answered from its
    own transcript). A loop that raises ends as an error; the others go on. ``on_loop`` sees each loop
    once it has ended (not on Ctrl-C: the caller has the unfinished ones)."""
    import asyncio

    from . import runner, transport

    policy, limits = transport.RetryPolicy(retries=settings.retries), transport.SendLimits.configured()

    async def guarded(run: LoopRun, send: Sender, prepare: Callable[[Translation, Scenario], Job],
                      recorded: Transcript | None = None) -> None:
        try:
            await run_loop(run, scenario, options, send, prepare, on_step, recorded)
        except Exception as exc:  # noqa: BLE001 - one loop's failure never loses another's steps
            run.ended, run.error = "error", f"{type(exc).__name__}: {exc}"
            run.ended_step = len(run.steps) + 1
        except asyncio.CancelledError:  # Ctrl-C: the loop ends at the step under way (jobs.run: interrupted), whether
            if run.ended is None:  # or not a byte of its answer had come (mid-stream, run_loop ended it already)
                run.ended_step = len(run.steps) + 1
            raise
        if on_loop is not None:
            on_loop(run)

    if replay is not None:
        no_retry = transport.RetryPolicy(retries=0)

        async def replayed(run: LoopRun) -> None:
            source = replay.transcript(run.index)
            recorded = source if options.results_from is None else None
            if source.provider == run.provider:
                offline = runner.SendSettings(timeout=settings.timeout, retries=0, transport=source.transport())
                async with runner.open_client(offline, 1) as client:
                    async def send(job: Job, number: int) -> Sample:
                        if number not in source.bodies:  # nothing to answer with: said as the replay's, not as
                            return source.unrecorded(job, number)  # a connection that failed
                        sample = await runner.send_sample(job, number, client, no_retry)
                        latency = (source.replies.get(number) or {}).get("latency_ms")
                        if isinstance(latency, (int, float)):
                            sample.latency_ms = float(latency)  # the recorded latency: replay output is stable
                        return sample

                    await guarded(run, send, offline_prepare, recorded)
            else:
                await guarded(run, source.translated_sender(), offline_prepare, recorded)

        await asyncio.gather(*(replayed(run) for run in runs))
        return

    providers = sorted({run.provider for run in runs})
    per_provider = max(1, min(settings.concurrency, len(runs)))
    # --concurrency: per provider, as in send. As run_async does, a fixed pool of workers takes the next
    # loop and runs it to its end, so only that many loops are held at once whatever their number (all
    # started at once, every loop lived until nearly the last had ended), and the workers share clients
    # of at most transport.CONNECTIONS_PER_CLIENT connections (one client of 50 connections spent most of
    # a loop step scanning its pool).
    runner.load_http_stack()
    clients = transport.new_async_clients(transport.Timeouts.from_total(settings.timeout), per_provider * len(providers),
                                          transport=settings.transport, urls=_first_urls(scenario, providers, options),
                                          requests=len(runs) * (scenario.loop or NO_LOOP).max_steps)

    async def worker(queue: Any, client: Any) -> None:
        async def send(job: Job, number: int) -> Sample:
            return await runner.send_sample(job, number, client, policy, settings.sleep, limits)

        for run in queue:  # one shared iterator per provider: each loop is taken once
            await guarded(run, send, live_prepare(secrets))

    workers = []
    for p in providers:
        queue = iter([run for run in runs if run.provider == p])
        for _ in range(per_provider):
            workers.append(worker(queue, clients[len(workers) % len(clients)]))
    try:  # judging's imports and the tools' checked schemas (every step offers some) loaded while the first steps are in flight
        await asyncio.gather(*workers, runner.warm_judging([scenario]))
    finally:
        for client in clients:
            await client.aclose()


def _first_urls(scenario: Scenario, providers: list[str], options: LoopOptions) -> list[str] | None:
    """Where step 1 sends for each provider (every step of a loop sends to the same endpoint), so the
    clients skip reading the CA bundle when all are plain http (transport.new_async_clients)."""
    from .registry import translate

    try:
        first = step_scenario(scenario, 1, scenario.messages, options.override)
        requests = [translate(p, first, options.render_for(p), options.capabilities).request for p in providers]
    except Exception:  # noqa: BLE001 - the loops meet and report whatever fails here; the clients just verify
        return None
    return None if any(r is None for r in requests) else [r.url for r in requests]  # type: ignore[union-attr]


def new_runs(providers: list[str], repeat: int) -> list[LoopRun]:
    return [LoopRun(provider, index) for provider in providers for index in range(1, repeat + 1)]


def run_loops(scenario: Scenario, runs: list[LoopRun], settings: SendSettings, options: LoopOptions,
              secrets: dict[str, str], on_step: OnStep | None = None, replay: "Replay | None" = None,
              on_loop: OnLoop | None = None) -> list[LoopRun]:
    """``run_loops_async`` on a new event loop. ``runs`` fill in place: on Ctrl-C (KeyboardInterrupt
    propagates) they hold every step finished so far (except what ``on_loop`` took from them)."""
    from .sync_run import run_to_end  # in a worker thread when this one runs an event loop already

    run_to_end(lambda: run_loops_async(scenario, runs, settings, options, secrets, on_step, replay, on_loop))
    return runs
