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
``httpx.MockTransport``, so a replayed loop runs the same code path offline.
"""

from __future__ import annotations

import json
import os
import re
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

from .loop_policy import NO_LOOP, step_scenario  # noqa: F401 - the loop's interface
from .loop_replay import Replay, Transcript, load_replay, reply_from_json  # noqa: F401 - the loop's interface
from .loop_tally import ENDINGS, summary  # noqa: F401 - the loop's interface
from .model import (HistoryCall, LedgerEntry, LoopResult, LoopSpec, Message, RenderOptions, Reply, Scenario, ToolCall,
                    ToolchoiceError, Translation)
from .runner import Job, Sample, SendSettings

STOP_RESULT = "done"  # the stop tool's result in the history when loop.results gives none


# ---- records ---------------------------------------------------------------------------------


@dataclass
class StepRecord:
    """One step of one loop: the request as translated, the sample (reply + verdict), the results
    appended after it, and the loop's own ledger entries (generated ids, phantom calls...)."""

    number: int
    scenario: Scenario
    translation: Translation
    sample: Sample | None = None
    skipped: str | None = None  # refused translation or missing key: nothing was sent
    results: list[Message] = field(default_factory=list)
    notes: list[LedgerEntry] = field(default_factory=list)

    @property
    def verdict(self) -> dict[str, Any] | None:
        return self.sample.verdict if self.sample is not None else None

    @property
    def reply(self) -> Reply | None:
        return self.sample.reply if self.sample is not None else None

    def to_json(self) -> dict[str, Any]:
        t, s = self.translation, self.sample
        choice = self.scenario.tool_choice
        return {
            "step": self.number,
            "requested_tool_choice": choice.to_json() if choice is not None else None,
            "effective_tool_choice": t.effective_tool_choice,
            "offered_tools": list(t.offered_tools),
            "request": t.request.to_json() if t.request is not None else None,
            "ledger": [e.to_json() for e in (*t.ledger, *self.notes)],
            "status": s.status if s else None,
            "attempts": s.attempts if s else [],
            "latency_ms": None if s is None or s.latency_ms is None else round(s.latency_ms, 1),
            "reply": s.reply.to_json() if s else None,
            "verdict": s.verdict if s else None,
            "error": (s.error_line(t.provider) if s else self.skipped),
            "results": [_result_json(m) for m in self.results],
        }


@dataclass
class LoopRun:
    """One loop on one provider: its steps so far, how it ended and the history it built."""

    provider: str
    index: int
    steps: list[StepRecord] = field(default_factory=list)
    history: list[Message] = field(default_factory=list)
    ended: str | None = None  # one of ENDINGS; None while running
    ended_step: int | None = None
    final: Any = None  # the final answer: the text, or the stop tool's arguments
    error: str | None = None

    @property
    def verdicts(self) -> list[dict[str, Any]]:
        return [s.verdict for s in self.steps if s.verdict is not None]

    def tokens(self) -> tuple[int | None, int | None]:
        ins = [s.reply.usage.input_tokens for s in self.steps if s.reply and s.reply.usage.input_tokens is not None]
        outs = [s.reply.usage.output_tokens for s in self.steps if s.reply and s.reply.usage.output_tokens is not None]
        return (sum(ins) if ins else None, sum(outs) if outs else None)

    def latency_ms(self) -> float | None:
        values = [s.sample.latency_ms for s in self.steps if s.sample and s.sample.latency_ms is not None]
        return sum(values) if values else None

    def tool_results(self) -> tuple[int, int]:
        """(tool results given, of which errors): a loop answering every call with an error is loud."""
        given = [m for s in self.steps for m in s.results]
        return len(given), sum(1 for m in given if m.is_error)

    @property
    def terminated(self) -> bool:
        """The loop ended by itself (an answer without a call, or the stop tool), not by a limit or a failure."""
        return self.ended in ("no_tool_call", "stop_tool")

    def to_json(self) -> dict[str, Any]:
        tokens = self.tokens()
        latency = self.latency_ms()
        given, errors = self.tool_results()
        return {
            "provider": self.provider,
            "loop": self.index,
            "ended": {"reason": self.ended or "interrupted", "step": self.ended_step, "error": self.error},
            "terminated": self.terminated,
            "tool_results": {"total": given, "errors": errors},
            "final_answer": self.final,
            "steps_taken": len(self.steps),
            "tokens": {"input": tokens[0], "output": tokens[1]},
            "latency_ms": None if latency is None else round(latency, 1),
            "steps": [s.to_json() for s in self.steps],
            "history": [message_json(m) for m in self.history],
        }


def _result_json(m: Message) -> dict[str, Any]:
    return {"tool_call_id": m.tool_call_id, "name": m.tool_name, "content": m.content, "is_error": m.is_error}


def _call_json(call: HistoryCall) -> dict[str, Any]:
    data: dict[str, Any] = {"id": call.id, "name": call.name, "arguments": call.arguments}
    if call.signature is not None:  # Gemini's thoughtSignature on the functionCall part
        data["signature"] = call.signature
    return data


def message_json(m: Message) -> dict[str, Any]:
    """A history message as a scenario file writes it (the loader reads it back unchanged)."""
    if m.role == "user":
        return {"role": "user", "content": m.content}
    if m.role == "assistant":
        data: dict[str, Any] = {"role": "assistant"}
        if m.content is not None:
            data["content"] = m.content
        if m.tool_calls:
            data["tool_calls"] = [_call_json(c) for c in m.tool_calls]
        if m.reasoning:  # thinking blocks, signatures, reasoning items: sent back where the API wants them
            data["reasoning"] = [item.to_json() for item in m.reasoning]
        return data
    data = {"role": "tool", "tool_call_id": m.tool_call_id, "content": m.content}
    if m.is_error:
        data["is_error"] = True
    return data


# ---- the step's scenario -------------------------------------------------------------------


def later_steps(scenario: Scenario, override: Any = None) -> list[str]:
    """What steps 2.. depend on, one line each (for --dry-run)."""
    spec = scenario.loop or NO_LOOP
    lines = []
    for number in range(2, min(spec.max_steps, max(2, len(spec.steps))) + 1):
        s = step_scenario(scenario, number, (), override, called=True)  # a step after 1 follows a tool call
        choice = s.tool_choice.to_json() if s.tool_choice is not None else "unset"
        again = " (and every later step)" if spec.steps and number >= len(spec.steps) else ""
        lines.append(f"step {number}{again}: tool_choice {json.dumps(choice)}, offers "
                     f"{', '.join(s.tool_names) or 'no tools'}; its history adds step {number - 1}'s assistant turn "
                     "(the reply's calls and ids) and a result per call from loop.results")
    stop = f"the stop tool '{spec.stop_tool}' is called" if spec.stop_tool else "the model answers without a tool call"
    if spec.repeated_calls:
        stop += f", when the same call comes {spec.repeated_calls} steps in a row"
    lines.append(f"the loop ends when {stop}, at max_steps {spec.max_steps}, or when a step fails")
    return lines


# ---- the assistant turn and the tool results ---------------------------------------------


def settle_turn(turn: Message, reply: Reply, provider: str, history: list[Message],
                step: int) -> tuple[Message, list[LedgerEntry]]:
    """Make the turn (history.assistant_message's: text, calls with their ids and signatures, reasoning
    state) one the next request can carry, each change a ledger note: a call without an id
    gets a stable one (``call_s<step>_<n>``), unique across steps, an id used before in the history gets ``_s<step>``
    appended (its result answers the new id); OpenAI-style hosts get content "" rather than null
    beside tool calls (OpenAI accepts both; llama-cpp-python's server rejects null, measured in
    tests/realmodel/test_server_facts.py)."""
    from .capabilities import CAPABILITIES

    notes: list[LedgerEntry] = []
    seen = {c.id for m in history for c in m.tool_calls}
    calls = []
    for n, (call, original) in enumerate(zip(turn.tool_calls, reply.tool_calls), 1):
        call_id = call.id
        if not original.id:  # whatever id assistant_message gave it, the loop's is unique across steps
            call_id = f"call_s{step}_{n}"
            notes.append(LedgerEntry("info", "loop.call_id_generated",
                                     f"{call.name} came back without an id: the history gives it '{call_id}' (stable: "
                                     "step and position), and its result answers that id"))
        elif call_id in seen:
            call_id = f"{call_id}_s{step}"
            notes.append(LedgerEntry("warning", "loop.call_id_reused",
                                     f"{call.name} came back with id '{call.id}', already used earlier in the history: "
                                     f"the history gives it '{call_id}' (ids must be unique)"))
        if original.arguments is None:
            notes.append(LedgerEntry("warning", "loop.arguments_undecodable",
                                     f"{call.name}'s arguments could not be decoded ({original.arguments_error}): the "
                                     "history carries {} and its result is an error"))
        seen.add(call_id)
        calls.append(call._replace(id=call_id))
    content = turn.content
    if content is None and calls and provider in CAPABILITIES and CAPABILITIES[provider].module == "openai_chat":
        content = ""
        notes.append(LedgerEntry("info", "loop.empty_content", "the assistant turn goes back with content \"\" (the "
                                 "reply's was null): OpenAI accepts either beside tool_calls; llama-cpp-python's "
                                 "server rejects null"))
    return turn._replace(content=content, tool_calls=tuple(calls)), notes


class ToolResults:
    """What each call "returns" in one loop: ``loop.results`` (lists are consumed per call, in
    order), or ``--results-from COMMAND``. A call to a tool the step did not offer gets an error
    result saying so; so does a tool without a results entry."""

    def __init__(self, spec: LoopSpec, command: str | None = None, timeout: float = 30.0) -> None:
        self.spec = spec
        self.command = command
        self.timeout = timeout
        self.used: dict[str, int] = {}

    async def answer(self, call: ToolCall, history_call: HistoryCall, offered: tuple[str, ...],
                     context: dict[str, Any]) -> Message:
        def result(content: str, is_error: bool = False) -> Message:
            return Message("tool", content=content, tool_call_id=history_call.id, tool_name=call.name,
                           is_error=is_error)

        if call.name not in offered:
            return result(f"error: tool '{call.name}' is not available (offered: {', '.join(offered) or 'none'})", True)
        if call.arguments is None:
            return result(f"error: the arguments of '{call.name}' could not be decoded ({call.arguments_error})", True)
        if self.command is not None:
            return await self._from_command(call, history_call, context, result)
        spec = self.spec.results.get(call.name)
        if spec is None:
            return result(f"error: no result for '{call.name}' (add it under loop.results)", True)
        if spec.kind == "list":
            n = self.used.get(call.name, 0)
            self.used[call.name] = n + 1
            if n >= len(spec.value):
                return result(f"error: '{call.name}' has no result left (loop.results.{call.name} lists "
                              f"{len(spec.value)}; this is call {n + 1})", True)
            spec = spec.value[n]
        return self._one(spec, call, result)

    @staticmethod
    def _one(spec: LoopResult, call: ToolCall, result: Callable[..., Message]) -> Message:
        if spec.kind == "error":
            return result(spec.value, True)
        if spec.kind == "template":
            arguments = call.arguments or {}
            import string

            missing = [name for _, name, _, _ in string.Formatter().parse(spec.value)
                       if name is not None and name not in arguments]
            if missing:
                return result(f"error: '{call.name}' was called without {', '.join(missing)}", True)
            values = {k: v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for k, v in arguments.items()}
            return result(spec.value.format_map(values))
        return result(spec.value)

    async def _from_command(self, call: ToolCall, history_call: HistoryCall, context: dict[str, Any],
                            result: Callable[..., Message]) -> Message:
        import asyncio

        stdin = json.dumps({"id": history_call.id, "name": call.name, "arguments": call.arguments, **context},
                           ensure_ascii=False).encode()
        assert self.command is not None
        process = await asyncio.create_subprocess_shell(self.command, stdin=asyncio.subprocess.PIPE,
                                                        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                                                        start_new_session=os.name == "posix")

        def kill() -> None:
            """The command and everything it started (a pipeline keeps the pipes open after its shell)."""
            try:
                if os.name == "posix":
                    os.killpg(process.pid, signal.SIGKILL)
                else:
                    process.kill()
            except (ProcessLookupError, PermissionError):
                pass
        from . import limits

        cap = limits.get("result_bytes")

        async def capped(stream: Any, keep_tail: bool) -> tuple[bytes, bool]:
            """At most ``cap`` bytes of a pipe (stderr: the last ``cap``), read to its end; whether it was cut."""
            kept, over = bytearray(), False
            while True:
                chunk = await stream.read(65536)
                if not chunk:
                    return bytes(kept), over
                kept += chunk
                if len(kept) > cap:
                    over = True
                    if not keep_tail:
                        kill()  # no need to read on: the result is refused
                        return bytes(kept[:cap]), True
                    del kept[:len(kept) - cap]

        async def talk() -> tuple[tuple[bytes, bool], tuple[bytes, bool]]:
            async def feed() -> None:
                try:
                    process.stdin.write(stdin)
                    await process.stdin.drain()
                    process.stdin.close()
                except (BrokenPipeError, ConnectionResetError):
                    pass

            _, out, err = await asyncio.gather(feed(), capped(process.stdout, False), capped(process.stderr, True))
            await process.wait()
            return out, err

        try:
            (out, cut), (err, _) = await asyncio.wait_for(talk(), self.timeout)
        except asyncio.TimeoutError:
            kill()
            await process.wait()
            return result(f"error: --results-from took longer than {self.timeout:g} s for '{call.name}'", True)
        if cut:
            return result(f"error: --results-from printed more than {limits.shown('result_bytes')} for '{call.name}'; "
                          f"{limits.raise_hint('result_bytes')}", True)
        text = out.decode("utf-8", "replace").rstrip("\n")
        if process.returncode != 0:
            why = (err.decode("utf-8", "replace").strip() or text or f"exit {process.returncode}").splitlines()[-1]
            return result(f"error: {why}", True)
        return result(text)


# ---- running loops -------------------------------------------------------------------------

Sender = Callable[[Job, int], Awaitable[Sample]]
OnStep = Callable[[LoopRun, StepRecord], None]
OnLoop = Callable[[LoopRun], None]


@dataclass
class LoopOptions:
    """How the loops are built and sent: translation options, a capability overlay, the parsed
    --tool-choice override of step 1, --results-from and its timeout."""

    render: RenderOptions = RenderOptions()
    capabilities: Any = None
    override: Any = None
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
        """loop.cannot_end and loop.no_results (loop_lint), once per provider: step 1's ledger carries them."""
        if provider not in self._found:
            from .loop_lint import cannot_end, no_results

            ends = cannot_end(scenario, self.override)
            self._found[provider] = [*([ends] if ends else []), *no_results(scenario, self.results_from, self.override)]
        return self._found[provider]

    def thinking_rules(self, provider: str, scenario: Scenario) -> tuple[str | None, str | None]:
        from .loop_lint import model_of, thinking_rules

        return thinking_rules(provider, model_of(provider, scenario, self.render_for(provider).model, self.capabilities),
                            scenario)

    def allowed_form(self, provider: str) -> bool:
        from .loop_lint import has_allowed_form

        return has_allowed_form(provider, self.capabilities)


async def run_loop(run: LoopRun, scenario: Scenario, options: LoopOptions, send: Sender,
                   prepare: Callable[[Translation, Scenario], Job], on_step: OnStep | None = None) -> LoopRun:
    """Run one loop to its end, appending each finished step to ``run.steps``."""
    from .history import assistant_message
    from .registry import translate
    from .verdict import offered_tools

    from .loop_lint import thinking_changes
    from .loop_policy import Repeats

    spec = scenario.loop or NO_LOOP
    results = ToolResults(spec, options.results_from, options.results_timeout)
    if not run.history:
        run.history = list(scenario.messages)
    repeats, called, previous = Repeats(), False, None
    rules, has_allowed = options.thinking_rules(run.provider, scenario), options.allowed_form(run.provider)
    for number in range(1, spec.max_steps + 1):
        notes: list[LedgerEntry] = list(options.findings(run.provider, scenario)) if number == 1 else []
        s = step_scenario(scenario, number, run.history, options.override, called, notes)
        translation = translate(run.provider, s, options.render_for(run.provider), options.capabilities)
        record = StepRecord(number, s, translation, notes=notes)
        if rules != (None, None):  # only where a model rule says thinking is at stake
            if previous is not None:
                notes.extend(thinking_changes((previous, (number, s, translation)), rules, has_allowed))
            previous = (number, s, translation)
        job = prepare(translation, s)
        if job.skipped is not None:
            record.skipped = job.skipped
            _finish(run, record, "error", job.skipped, on_step)
            return run
        record.sample = await send(job, number)
        reply = record.sample.reply
        if reply.error is not None:
            _finish(run, record, "error", record.sample.error_line(run.provider), on_step)
            return run
        offered = offered_tools(translation, s)  # what the verdict counts as offered
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
        for call, history_call in zip(reply.tool_calls, turn.tool_calls):
            if call.name == spec.stop_tool and call.name not in spec.results and options.results_from is None:
                message = Message("tool", content=STOP_RESULT, tool_call_id=history_call.id, tool_name=call.name)
                record.notes.append(LedgerEntry("info", "loop.stop_tool_result",
                                                f"the stop tool '{call.name}' has no loop.results entry: the history "
                                                f"answers it with '{STOP_RESULT}' (so the saved scenario is complete)"))
            else:
                message = await results.answer(call, history_call, offered, context)
            record.results.append(message)
            run.history.append(message)
        stop = next((c for c in reply.tool_calls if spec.stop_tool and c.name == spec.stop_tool), None)
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
    return run


def _finish(run: LoopRun, record: StepRecord, reason: str, error: str | None, on_step: OnStep | None) -> None:
    run.steps.append(record)
    run.ended, run.ended_step, run.error = reason, record.number, error
    if on_step is not None:
        on_step(run, record)


def live_prepare(secrets: dict[str, str]) -> Callable[[Translation, Scenario], Job]:
    """Jobs for real sending: keys resolved per step (a missing key fails the step, not the run)."""
    from .runner import prepare_jobs

    def prepare(translation: Translation, scenario: Scenario) -> Job:
        jobs, found = prepare_jobs(scenario, [translation])
        secrets.update(found)
        return jobs[0]

    return prepare


def offline_prepare(translation: Translation, scenario: Scenario) -> Job:
    """Jobs for replay: the key placeholders filled with a stand-in (nothing leaves the machine)."""
    from . import transport

    job = Job(translation.provider, scenario, translation)
    if translation.request is None:
        job.skipped = "refused: " + "; ".join(e.message for e in translation.ledger if e.severity == "error")
        return job
    environ = dict(os.environ)
    for name in translation.request.key_env:
        if not environ.get(name):
            environ[name] = "replay-offline"
    try:
        job.prepared = transport.prepare(translation.request, translation.provider, environ=environ)
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

    policy = transport.RetryPolicy(retries=settings.retries)

    async def guarded(run: LoopRun, send: Sender, prepare: Callable[[Translation, Scenario], Job]) -> None:
        try:
            await run_loop(run, scenario, options, send, prepare, on_step)
        except Exception as exc:  # noqa: BLE001 - one loop's failure never loses another's steps
            run.ended, run.error = "error", f"{type(exc).__name__}: {exc}"
            run.ended_step = len(run.steps) + 1
        if on_loop is not None:
            on_loop(run)

    if replay is not None:
        no_retry = transport.RetryPolicy(retries=0)

        async def replayed(run: LoopRun) -> None:
            source = replay.transcript(run.index)
            if source.provider == run.provider:
                offline = runner.SendSettings(timeout=settings.timeout, retries=0, transport=source.transport())
                async with runner.open_client(offline, 1) as client:
                    async def send(job: Job, number: int) -> Sample:
                        sample = await runner.send_sample(job, number, client, no_retry)
                        recorded = (source.replies.get(number) or {}).get("latency_ms")
                        if isinstance(recorded, (int, float)):
                            sample.latency_ms = float(recorded)  # the recorded latency: replay output is stable
                        return sample

                    await guarded(run, send, offline_prepare)
            else:
                await guarded(run, source.translated_sender(), offline_prepare)

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
            return await runner.send_sample(job, number, client, policy, settings.sleep)

        for run in queue:  # one shared iterator per provider: each loop is taken once
            await guarded(run, send, live_prepare(secrets))

    workers = []
    for p in providers:
        queue = iter([run for run in runs if run.provider == p])
        for _ in range(per_provider):
            workers.append(worker(queue, clients[len(workers) % len(clients)]))
    try:
        await asyncio.gather(*workers)
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
    import asyncio

    asyncio.run(run_loops_async(scenario, runs, settings, options, secrets, on_step, replay, on_loop))
    return runs


# ---- saving ----------------------------------------------------------------------------------


_SAVED_FILE = re.compile(r"step-\d+\.(request|response|reply)\.(json|txt)|scenario\.yaml|loop\.json")


def prepare_loop_save(folder: Path) -> Path:
    """Create the --save folder, removing an earlier run's loop transcripts from it (only the files
    this module writes), so a replay never mixes two runs' loops."""
    from .capabilities import PROVIDER_IDS
    from .save import prepare_save_dir

    prepare_save_dir(folder)
    for provider in PROVIDER_IDS:
        base = folder / provider
        if not base.is_dir():
            continue
        for loop_dir in base.iterdir():
            if not (loop_dir.is_dir() and re.fullmatch(r"loop-\d+", loop_dir.name)):
                continue
            try:
                for old in loop_dir.iterdir():
                    if _SAVED_FILE.fullmatch(old.name) and old.is_file():
                        old.unlink()
                if not any(loop_dir.iterdir()):
                    loop_dir.rmdir()
            except OSError as exc:
                raise ToolchoiceError(f"--save {folder}: cannot remove the earlier run's {loop_dir}: "
                                      f"{exc.strerror}") from None
    return folder


def save_step(folder: Path, run: LoopRun, record: StepRecord, scenario: Scenario, secrets: dict[str, str]) -> None:
    """``DIR/<provider>/loop-NNN/``: step-NN.request.json, step-NN.response.json (as received) and
    step-NN.reply.json (reply, verdict, results: written last, so it marks the step complete). The
    loop's whole-history files are written once it ends (``save_summary``): rewriting them every step
    would cost the square of the steps in bytes written."""
    from .save import dumps, save_redactor, write_atomic

    redactor = save_redactor(secrets)
    redact = redactor.text
    base = folder / run.provider / f"loop-{run.index:03d}"
    base.mkdir(parents=True, exist_ok=True)
    stem = f"step-{record.number:02d}"
    if record.translation.request is not None:
        write_atomic(base / f"{stem}.request.json", redact(dumps(record.translation.request.to_json())))
    sample = record.sample
    if sample is not None and sample.status is not None:
        suffix = ".response.json" if sample.raw_json is not None else ".response.txt"
        from .redaction import safe_json_text

        write_atomic(base / f"{stem}{suffix}", safe_json_text(sample.raw_text, sample.raw_json, redactor))
    meta = {"provider": run.provider, **record.to_json()}
    meta.pop("request", None)
    write_atomic(base / f"{stem}.reply.json", redact(dumps(meta)))


def save_summary(folder: Path, run: LoopRun, scenario: Scenario, secrets: dict[str, str]) -> None:
    """scenario.yaml (the loop's full history: render, send and run read it as is) and loop.json (its
    document), once the loop ended, was interrupted or failed."""
    from .save import dumps, save_redactor, write_atomic

    redact = save_redactor(secrets).text
    base = folder / run.provider / f"loop-{run.index:03d}"
    base.mkdir(parents=True, exist_ok=True)
    write_atomic(base / "scenario.yaml", redact(transcript_scenario(scenario, run.history)))
    write_atomic(base / "loop.json", redact(dumps(run.to_json())))


def transcript_scenario(scenario: Scenario, history: list[Message]) -> str:
    """The scenario with the loop's full history as its messages, as YAML that `render`, `send`
    and `run` read as it is (the loop: section kept as written)."""
    import yaml

    data: dict[str, Any] = {"description": f"transcript of a toolchoice run of {scenario.path}"}
    tools = []
    for t in scenario.tools:
        tool: dict[str, Any] = {"type": "custom", "name": t.name} if t.kind == "custom" else {"name": t.name}
        if t.description is not None:
            tool["description"] = t.description
        if t.kind == "custom":
            if t.format is not None:
                tool["format"] = dict(t.format)
            tools.append(tool)
            continue
        if t.parameters is not None:
            tool["parameters"] = t.parameters
        if t.strict is not None:
            tool["strict"] = t.strict
        tool.update(dict(t.fields))
        tools.append(tool)
    if tools or scenario.tools_written_empty:
        data["tools"] = tools
    if scenario.tool_choice is not None:
        data["tool_choice"] = scenario.tool_choice.to_json()
    for key in ("parallel_tool_calls", "strict", "system"):
        if getattr(scenario, key) is not None:
            data[key] = getattr(scenario, key)
    data["messages"] = [message_json(m) for m in history]
    providers = {}
    for pid, settings in scenario.providers.items():
        values = {k: (dict(v) if k in ("headers", "extra") else v) for k, v in settings._asdict().items()
                  if v is not None and v != {}}
        providers[pid] = values or None
    if providers:
        data["providers"] = providers
    if scenario.loop is not None and scenario.loop.raw is not None:
        data["loop"] = scenario.loop.raw
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
