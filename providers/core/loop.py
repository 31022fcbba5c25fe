"""The agent loop (`toolchoice run`): per step, derive the step's scenario from the ``loop:`` section
and the history so far → translate → send through the runner → judge against that step's
tool_choice → append the assistant turn as the provider needs it back → append the tool results
(``loop.results``, or ``--results-from``) → go on, until the model answers without a tool call, the
stop tool is called, max_steps is reached, or a step fails.

Every finished step is kept on its ``LoopRun`` as it completes (``on_step`` sees it), so a loop that
fails at step k, or is interrupted, still has steps 1..k-1. ``--repeat N`` runs N independent loops
concurrently; requests in flight are bounded by the send settings' concurrency; one loop's failure
never loses another's steps. Replay (``replay_transport``) answers from saved bodies through an
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

from .model import (HistoryCall, LedgerEntry, LoopResult, LoopSpec, Message, ProviderError, ReasoningItem,
                    RenderOptions, Reply, Scenario, ToolCall, ToolchoiceError, Translation, Usage)
from .runner import Job, Sample, SendSettings

ENDINGS = ("no_tool_call", "stop_tool", "max_steps", "error", "interrupted")
STOP_RESULT = "done"  # the stop tool's result in the history when loop.results gives none
NO_LOOP = LoopSpec()  # a scenario without `loop:`: every step uses its tools and tool_choice, 10 steps


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

    def to_json(self) -> dict[str, Any]:
        tokens = self.tokens()
        latency = self.latency_ms()
        return {
            "provider": self.provider,
            "loop": self.index,
            "ended": {"reason": self.ended or "interrupted", "step": self.ended_step, "error": self.error},
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


def step_scenario(scenario: Scenario, number: int, history: list[Message] | tuple[Message, ...],
                  override: Any = None) -> Scenario:
    """The scenario step ``number`` sends: the step's tools and tool_choice (``override``, a parsed
    ToolChoice from --tool-choice, replaces step 1's), with the history so far."""
    spec = scenario.loop or NO_LOOP
    entry = spec.step(number)
    tools = scenario.tools
    if entry.tools is not None:
        tools = tuple(t for name in entry.tools for t in scenario.tools if t.name == name)
    choice = entry.tool_choice if entry.has_choice else scenario.tool_choice
    if number == 1 and override is not None:
        choice = override
    return scenario._replace(tools=tools, tool_choice=choice, messages=tuple(history),
                             tools_written_empty=scenario.tools_written_empty and not tools)


def later_steps(scenario: Scenario, override: Any = None) -> list[str]:
    """What steps 2.. depend on, one line each (for --dry-run)."""
    spec = scenario.loop or NO_LOOP
    lines = []
    for number in range(2, min(spec.max_steps, max(2, len(spec.steps))) + 1):
        s = step_scenario(scenario, number, (), override)
        choice = s.tool_choice.to_json() if s.tool_choice is not None else "unset"
        again = " (and every later step)" if spec.steps and number >= len(spec.steps) else ""
        lines.append(f"step {number}{again}: tool_choice {json.dumps(choice)}, offers "
                     f"{', '.join(s.tool_names) or 'no tools'}; its history adds step {number - 1}'s assistant turn "
                     "(the reply's calls and ids) and a result per call from loop.results")
    stop = f"the stop tool '{spec.stop_tool}' is called" if spec.stop_tool else "the model answers without a tool call"
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

    def render_for(self, provider: str) -> RenderOptions:
        """The translation options for one provider: its own model where one was given."""
        if self.models is None or self.models.get(provider) is None:
            return self.render
        return self.render._replace(model=self.models[provider])


async def run_loop(run: LoopRun, scenario: Scenario, options: LoopOptions, send: Sender,
                   prepare: Callable[[Translation, Scenario], Job], on_step: OnStep | None = None) -> LoopRun:
    """Run one loop to its end, appending each finished step to ``run.steps``."""
    from .history import assistant_message
    from .registry import translate
    from .verdict import offered_tools

    spec = scenario.loop or NO_LOOP
    results = ToolResults(spec, options.results_from, options.results_timeout)
    if not run.history:
        run.history = list(scenario.messages)
    for number in range(1, spec.max_steps + 1):
        s = step_scenario(scenario, number, run.history, options.override)
        translation = translate(run.provider, s, options.render_for(run.provider), options.capabilities)
        record = StepRecord(number, s, translation)
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
        turn, notes = settle_turn(assistant_message(reply, run.provider), reply, run.provider, run.history, number)
        record.notes.extend(notes)
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
                          replay: "Replay | None" = None) -> None:
    """Run every loop in ``runs`` concurrently (live: one shared client, ``settings.concurrency``
    requests in flight per provider, as `send` counts it; replay: each loop answered from its own transcript). A loop that raises
    ends as an error; the others go on."""
    import asyncio

    from . import runner, transport

    policy = transport.RetryPolicy(retries=settings.retries)

    async def guarded(run: LoopRun, send: Sender, prepare: Callable[[Translation, Scenario], Job]) -> None:
        try:
            await run_loop(run, scenario, options, send, prepare, on_step)
        except Exception as exc:  # noqa: BLE001 - one loop's failure never loses another's steps
            run.ended, run.error = "error", f"{type(exc).__name__}: {exc}"
            run.ended_step = len(run.steps) + 1

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
    gates = {p: asyncio.Semaphore(per_provider) for p in providers}  # --concurrency: per provider, as in send

    async def live(run: LoopRun, client: Any) -> None:
        async def send(job: Job, number: int) -> Sample:
            async with gates[run.provider]:
                return await runner.send_sample(job, number, client, policy, settings.sleep)

        await guarded(run, send, live_prepare(secrets))

    async with runner.open_client(settings, per_provider * len(providers)) as client:
        await asyncio.gather(*(live(run, client) for run in runs))


def new_runs(providers: list[str], repeat: int) -> list[LoopRun]:
    return [LoopRun(provider, index) for provider in providers for index in range(1, repeat + 1)]


def run_loops(scenario: Scenario, runs: list[LoopRun], settings: SendSettings, options: LoopOptions,
              secrets: dict[str, str], on_step: OnStep | None = None, replay: "Replay | None" = None) -> list[LoopRun]:
    """``run_loops_async`` on a new event loop. ``runs`` fill in place: on Ctrl-C (KeyboardInterrupt
    propagates) they hold every step finished so far."""
    import asyncio

    asyncio.run(run_loops_async(scenario, runs, settings, options, secrets, on_step, replay))
    return runs


# ---- replay ----------------------------------------------------------------------------------

_STEP_FILE = re.compile(r"step-0*(\d+)(?:\.response)?\.(json|txt)")


@dataclass
class Transcript:
    """One saved loop: the recorded provider and, per step, the status and body as received (and
    the parsed reply, for rendering the transcript for another provider)."""

    folder: Path
    provider: str
    bodies: dict[int, tuple[int, bytes, str]]  # step -> (status, body, content type)
    replies: dict[int, dict[str, Any]]  # step -> the saved reply.json (when there is one)

    def transport(self) -> Any:
        """An httpx.MockTransport answering the k-th request with step k's recorded body."""
        import httpx

        count = {"n": 0}

        def handler(request: Any) -> Any:
            count["n"] += 1
            found = self.bodies.get(count["n"])
            if found is None:
                raise httpx.ConnectError(f"replay: {self.folder} has no recorded reply for step {count['n']}")
            status, body, content_type = found
            return httpx.Response(status, content=body, headers={"content-type": content_type})

        return httpx.MockTransport(handler)

    def translated_sender(self) -> Sender:
        """For another provider than the recorded one: each step's request is rendered for it, and the
        recorded (normalized) reply is judged against that request. Nothing is sent."""
        from .verdict import verdict

        async def send(job: Job, number: int) -> Sample:
            saved = self.replies.get(number)
            if saved is None:
                reply = Reply(error=ProviderError(None, "replay",
                                                  f"{self.folder} has no recorded reply for step {number}"))
                return Sample(number, None, [], None, reply, verdict(job.scenario, reply, job.translation), "", None)
            reply = reply_from_json(saved.get("reply") or {})
            return Sample(number, saved.get("status"), [], saved.get("latency_ms"), reply,
                          verdict(job.scenario, reply, job.translation), "", None)

        return send


@dataclass
class Replay:
    """``--replay DIR``: the transcripts found there, one per loop (loops beyond them reuse the last)."""

    transcripts: list[Transcript]

    def transcript(self, index: int) -> Transcript:
        return self.transcripts[min(index, len(self.transcripts)) - 1]


def load_replay(folder: Path, provider: str) -> Replay:
    """Find the transcripts under ``folder``: ``<provider>/loop-NNN/`` (what --save writes),
    ``loop-NNN/``, or step files directly in ``folder`` (``step-01.response.json``, ``step-1.json``);
    a folder with one other provider's transcripts replays those rendered for ``provider``."""
    if not folder.is_dir():
        raise ToolchoiceError(f"--replay {folder}: no such folder", hint="give the folder --save wrote")
    candidates = [folder / provider, folder]
    others = sorted(p for p in folder.iterdir() if p.is_dir() and _loop_dirs(p))
    candidates.extend(others)
    for base in candidates:
        dirs = _loop_dirs(base) if base.is_dir() else []
        if dirs:
            return Replay([_transcript(d, provider) for d in dirs])
        if base.is_dir() and _step_files(base):
            return Replay([_transcript(base, provider)])
    raise ToolchoiceError(f"--replay {folder}: no saved loop found",
                          hint="give the folder `run --save` wrote, or one with step-01.response.json, step-02...")


def _loop_dirs(base: Path) -> list[Path]:
    return sorted(p for p in base.iterdir() if p.is_dir() and re.fullmatch(r"loop-\d+", p.name) and _step_files(p))


def _step_files(base: Path) -> dict[int, Path]:
    found: dict[int, Path] = {}
    for p in base.iterdir():
        m = _STEP_FILE.fullmatch(p.name)
        if m and p.is_file():
            found.setdefault(int(m.group(1)), p)
    return found


def _transcript(base: Path, provider: str) -> Transcript:
    bodies: dict[int, tuple[int, bytes, str]] = {}
    replies: dict[int, dict[str, Any]] = {}
    recorded = provider
    for number, path in sorted(_step_files(base).items()):
        reply_file = base / f"step-{number:02d}.reply.json"
        saved: dict[str, Any] = {}
        if reply_file.is_file():
            from .bounded import json_value, read_file

            try:
                loaded = json_value(read_file(reply_file, "transcript"))
            except ValueError as exc:
                raise ToolchoiceError(f"--replay: {reply_file} is not JSON: {exc}") from None
            if not isinstance(loaded, dict) or not isinstance(loaded.get("reply", {}), dict):
                raise ToolchoiceError(f"--replay: {reply_file} is not a step's reply file (a JSON object with "
                                      f"'reply' an object; found {type(loaded).__name__})",
                                      hint="give the folder `run --save` wrote") from None
            saved = loaded
            replies[number] = saved
            recorded = saved.get("provider") or recorded
        status = saved.get("status") if isinstance(saved.get("status"), int) else 200
        content_type = "application/json" if path.suffix == ".json" else "text/plain"
        from .bounded import read_file

        bodies[number] = (status, read_file(path, "transcript", limit="reply_bytes"), content_type)
    return Transcript(base, recorded, bodies, replies)


def reply_from_json(data: dict[str, Any]) -> Reply:
    """``Reply.to_json()`` read back (calls with their signatures, reasoning state)."""
    calls = tuple(ToolCall(c.get("id"), c.get("name", ""), c.get("arguments"), c.get("raw_arguments"),
                           c.get("arguments_error"), input=c.get("input"), signature=c.get("signature"))
                  for c in data.get("tool_calls") or [])
    usage = data.get("usage") or {}
    error = data.get("error")
    reasoning = tuple(ReasoningItem(**{k: (tuple(v) if k == "summary" else v) for k, v in item.items()
                                       if k in ReasoningItem._fields})
                      for item in data.get("reasoning") or [])
    return Reply(calls, data.get("text"), data.get("finish_reason"),
                 Usage(usage.get("input_tokens"), usage.get("output_tokens")),
                 ProviderError(error.get("status"), error.get("type"), error.get("message", "")) if error else None,
                 upstream=data.get("upstream"), reasoning=reasoning)


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


# ---- tallies (--repeat) ---------------------------------------------------------------------


def summary(runs: list[LoopRun]) -> dict[str, Any]:
    """Per step (obey rate with 95% Wilson interval, categories, latency, tokens) and per loop (how
    loops ended, steps to finish p50/p95, tokens and latency): the planner story's table."""
    from .verdict import aggregate, percentile, wilson

    n = len(runs)
    depth = max((len(r.steps) for r in runs), default=0)
    steps = []
    for number in range(1, depth + 1):
        results = [r.steps[number - 1].sample.to_json(r.provider) for r in runs
                   if len(r.steps) >= number and r.steps[number - 1].sample is not None]
        if not results:
            continue
        data = aggregate(results)
        steps.append({"step": number, "reached": len(results), "obeyed": data["counts"]["obeyed"],
                      "obey_rate": data["rates"]["obeyed"], **{k: data[k] for k in ("counts", "latency_ms", "tokens")}})
    ended = {}
    for reason in ENDINGS:
        count = sum(1 for r in runs if (r.ended or "interrupted") == reason)
        low, high = wilson(count, n)
        ended[reason] = {"count": count, "rate": count / n if n else 0.0, "low": low, "high": high}
    finished = [len(r.steps) for r in runs if r.ended in ("no_tool_call", "stop_tool")]
    tokens_in = [t for t in (r.tokens()[0] for r in runs) if t is not None]
    tokens_out = [t for t in (r.tokens()[1] for r in runs) if t is not None]
    latencies = [v for v in (r.latency_ms() for r in runs) if v is not None]
    return {
        "loops": n,
        "steps": steps,
        "ended": ended,
        "steps_to_finish": {"p50": percentile(finished, 50), "p95": percentile(finished, 95), "n": len(finished)},
        "tokens": {"input_total": sum(tokens_in), "output_total": sum(tokens_out),
                   "input_mean": sum(tokens_in) / len(tokens_in) if tokens_in else None,
                   "output_mean": sum(tokens_out) / len(tokens_out) if tokens_out else None},
        "latency_ms": {"p50": percentile(latencies, 50), "p95": percentile(latencies, 95), "n": len(latencies)},
    }
