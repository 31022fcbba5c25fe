"""The one runner: prepare → send → read the reply → judge, for one sample, N samples and many
providers at once. `send`, `compare --send`, `probe` and `run` all send through it; it never prints.

A ``Job`` is one provider's translated request. ``prepare_jobs`` resolves every key before any
connection (a missing key fails the job, or raises for callers that want that); ``run`` sends each
live job ``repeat`` times on one event loop and one shared connection pool, judges each reply as it
arrives and hands every ``Sample`` to ``on_sample`` in completion order. A sample that fails for any
reason becomes an error sample: one provider's failure never loses another's result.

The transport (an ``httpx.AsyncBaseTransport``, e.g. ``httpx.MockTransport``) and the sleep between
retries can be injected, so retry and fault logic is tested in-process without sockets or waits.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Iterable, Protocol

from .errors import MissingKey, NothingToSend, ToolchoiceError
from .model import ProviderError, Reply, Scenario, Translation
from .redaction import settings_secrets

if TYPE_CHECKING:  # for type checkers and IDEs: at run time this module imports no httpx (a dry run sends nothing)
    import httpx


class _FromRaw:
    def __repr__(self) -> str:
        return "FROM_RAW"

    def __reduce__(self) -> str:  # pickled (a shard's loops) and copied as the one FROM_RAW
        return "FROM_RAW"


FROM_RAW: Any = _FromRaw()  # a Sample's ``parsed``: the body is JSON, parsed from ``raw`` when asked


@dataclass
class Sample:
    """One sent request and what became of it (JSON-ready parts only; texts already redacted)."""

    index: int
    status: int | None
    attempts: list[dict[str, Any]]
    latency_ms: float | None
    reply: Reply
    verdict: dict[str, Any]
    raw: bytes | str  # the response body as received (b"" when none arrived), read as text by ``raw_text``
    parsed: Any  # the parsed body, or None (not JSON), or FROM_RAW (``release``): parsed again when ``raw_json`` is asked
    stream: dict[str, Any] | None = None  # a streamed reply's facts (StreamResult.to_json), None when not streamed
    raw_suffix: str = ""  # the saved raw stream's file suffix (.sse, .ndjson, .eventstream), "" when not streamed
    raw_bytes: bytes | None = None  # a stream's bytes as they arrived (redacted), what --save keeps
    raw_encoding: str | None = None  # the charset the server named for ``raw``, if any

    @property
    def raw_json(self) -> Any:
        """The parsed body, or None when it is not JSON. Once the sample is released (``release``), parsed again
        from ``raw`` each time it is asked: a kept sample does not hold the whole body's JSON (a call's arguments
        in it as text, beside the reply's parsed ones) as well as its bytes."""
        if self.parsed is FROM_RAW:
            from .transport import parse_body

            return parse_body(self.raw, self.raw_encoding)
        return self.parsed

    def release(self) -> None:
        """Drop the parsed body once the callbacks that save or show it as it arrived are done (``raw_json``
        parses it again if asked later): the runner and the loop call this after ``on_sample`` / ``on_step``."""
        if self.parsed is not None:
            self.parsed = FROM_RAW

    @property
    def raw_is_json(self) -> bool:
        """Whether the body is JSON (``raw_json`` is not None), without parsing it."""
        return self.parsed is not None

    @property
    def raw_text(self) -> str:
        """The body as received, as text (a stream's raw bytes as text), decoded when asked: kept as the bytes
        that arrived, not beside them as a text too (``transport.decode_body``)."""
        if isinstance(self.raw, str):
            return self.raw
        from .transport import decode_body

        return decode_body(self.raw, self.raw_encoding)

    def error_line(self, provider: str) -> str | None:
        return self.reply.error.one_line(provider) if self.reply.error else None

    def to_json(self, provider: str, raw: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "sample": self.index,
            "status": self.status,
            "attempts": self.attempts,
            "latency_ms": None if self.latency_ms is None else round(self.latency_ms, 1),
            "reply": self.reply.to_json(),
            "verdict": self.verdict,
            "error": self.error_line(provider),
        }
        if self.stream is not None:
            data["stream"] = self.stream
        if raw:
            data["raw"] = self.raw_json if self.raw_is_json else self.raw_text
        return data


@dataclass
class Job:
    """One provider's request, ready to send. ``skipped`` says why nothing is sent (refused
    translation, missing key, unusable URL); ``prepared`` holds the resolved request otherwise."""

    provider: str
    scenario: Scenario
    translation: Translation
    prepared: Any = None
    skipped: str | None = None
    skipped_for: ToolchoiceError | None = None  # the error behind ``skipped`` (a MissingKey, a URL); None: refused
    samples: list[Sample] = field(default_factory=list)
    # streamed samples Ctrl-C cut short, in the order they were cut: what had arrived of each (stream_sample)
    cuts: list[Sample] = field(default_factory=list)

    @property
    def first(self) -> Sample | None:
        return self.samples[0] if self.samples else None

    @property
    def cut(self) -> Sample | None:
        """The last stream Ctrl-C cut short (one sample, or one loop step, has one at most)."""
        return self.cuts[-1] if self.cuts else None

    def arrived(self) -> list[Sample]:
        """The streams Ctrl-C cut short after their answer began (a status came), by sample number: what is kept
        of them (a stream cut before its answer began holds nothing that arrived)."""
        return sorted((s for s in self.cuts if s.status is not None), key=lambda s: s.index)


class AsyncTransport(Protocol):
    """What ``SendSettings.transport`` takes: an httpx async transport (``httpx.MockTransport``,
    ``httpx.AsyncHTTPTransport``, any ``httpx.AsyncBaseTransport``), told by the one method httpx's client calls, as
    ``call_args.send_settings`` checks it. A Protocol, not httpx's class: this module imports no httpx, and
    ``typing.get_type_hints(SendSettings)`` resolves without it."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response: ...


@dataclass(frozen=True)
class SendSettings:
    """How to send: the read timeout (seconds), retries per request, requests in flight, whether the
    runner keeps every sample, and, for tests, the httpx transport and the sleep between retries."""

    timeout: float = 120.0
    retries: int = 2
    concurrency: int = 4  # requests in flight per job (provider)
    max_in_flight: int | None = None  # requests in flight across all jobs (None: no bound beyond per job)
    keep: bool = True  # append each sample to its job (False: only ``on_sample`` sees it)
    transport: AsyncTransport | None = None  # e.g. httpx.MockTransport; None: real sockets
    sleep: Callable[[float], Awaitable[None]] | None = None


def prepare_jobs(scenario: Scenario, translations: Iterable[Translation], *,
                 missing_key_fails: bool = False) -> tuple[list[Job], dict[str, str]]:
    """One Job per translation with its key resolved (before any connection), and every resolved
    secret (value → placeholder) for redacting output. A refused translation, a missing key or an
    unusable URL marks the job skipped — or, with ``missing_key_fails``, raises ToolchoiceError.

    A raised error stands alone, so it names its provider (``openai: no API key: set OPENAI_API_KEY``); a
    skip's reason does not (``skipped: no API key: set OPENAI_API_KEY``): it travels in its job, whose
    ``provider`` names it, and each reader says the provider where it needs it (compare's row and record
    beside their own provider, ``nothing to send: openai: skipped: ...``)."""
    transport = _transport()
    jobs: list[Job] = []
    # a key a Python caller wrote into the settings as text (a file holding one is refused): kept out as a read one is
    secrets: dict[str, str] = settings_secrets(scenario.providers) if scenario.providers else {}
    for t in translations:
        job = Job(t.provider, scenario, t)
        jobs.append(job)
        if t.request is None:
            job.skipped = "refused: " + "; ".join(e.message for e in t.ledger if e.severity == "error")
            continue
        try:
            job.prepared = transport.prepare(t.request, t.provider if missing_key_fails else "")
        except ToolchoiceError as exc:
            if missing_key_fails:
                raise
            if isinstance(exc, MissingKey) and not exc.provider:  # its words name no provider; its record does
                exc.provider = t.provider
                if exc.of == "key" and not exc.local and not exc.key_help:  # what the module says to do without
                    from .key_help import key_help  # the key (Bedrock's IAM users), as a send's line says it

                    exc.key_help = key_help(t.provider, exc.variables[0])
                    exc.message += f"; {exc.key_help}" if exc.key_help else ""
            job.skipped, job.skipped_for = f"skipped: {exc.message}", exc
            continue
        secrets.update(job.prepared.secrets)
    return jobs, secrets


def nothing_to_send(jobs: list[Job]) -> NothingToSend:
    """Why none of ``jobs`` (``prepare_jobs``'s, every one skipped) can be sent, in a Python caller's words, with its
    record (``NothingToSend``): each provider and its reason, and the missing keys or variables, from which the
    command line draws its own words (``compare_send``)."""
    skipped = tuple((j.provider, j.skipped or "") for j in jobs)
    missing = tuple(j.skipped_for for j in jobs if isinstance(j.skipped_for, MissingKey))
    reasons = "; ".join(f"{provider}: {reason}" for provider, reason in skipped)  # a reason names no provider
    keys = [m for m in missing if m.of == "key"]
    if keys and all(m.local for m in keys):
        hint = f'a local server that checks no key takes any value, e.g. os.environ["{keys[0].variables[0]}"] = "local"'
    elif keys:
        hint = ("jobs.render needs no key; to send without one, send to a server on 127.0.0.1 that checks none "
                "(running_mock(provider), docs/python.md): its base URL as RenderOptions(base_url=...), and the "
                "provider's key variable set to any value")
    elif missing:
        names = ", ".join(dict.fromkeys(name for m in missing for name in m.variables))
        hint = f"set {names} in os.environ, or remove it from the headers or the mcp tool that names it"
    else:
        hint = ("a refused translation (request None) says why in its ledger's errors; compare_send sends the "
                "translations that were not refused")
    error = NothingToSend(f"nothing to send: {reasons}", hint=hint)
    error.skipped, error.missing = skipped, missing
    return error


def judge(job: Job, index: int, response: Any) -> Sample:
    """A transport Response → Sample (reply + verdict)."""
    read_reply, verdict = _judging()
    attempts = [a.to_json() for a in response.attempts]
    if response.status is None:
        tries = len(response.attempts)
        message = f"{response.transport_error} (after {tries} attempt{'s' if tries != 1 else ''})"
        reply = Reply(error=ProviderError(None, "transport_error", message))
    else:
        # parsed and judged from the body as received (a short key must not rewrite it: issue 16, 5) ...
        # the text (decoded from the bytes when asked) is read only for a body that is not JSON
        text = response.text if response.body is None else ""
        reply = read_reply(job.provider, response.status, response.body, text, headers=response.headers)
        if reply.error is not None and response.status == 404 and job.translation.request is not None:
            from .reply import repeated_path  # a base URL ending in the path the provider adds: /v1/v1/messages

            reply = reply._replace(error=repeated_path(reply.error, job.translation.request.url))
    judged = verdict(job.scenario, reply, job.translation)
    if getattr(response, "twice", ()):  # the body names a key twice: judged on the last, said beside the verdict
        from .verdict import with_twice

        judged = with_twice(judged, response.twice)
    # ... then every text derived from it redacted, so replies, verdicts and probe evidence are safe to
    # show and save; raw_text/raw_json stay as received and are redacted where they are shown or saved
    redactor = getattr(response, "redactor", None)
    if redactor:
        reply, judged = redactor.data(reply), redactor.data(judged)
    return Sample(index, response.status, attempts, response.latency_ms if response.attempts else None,
                  reply, judged, response.raw, response.body, raw_encoding=response.encoding)


@functools.lru_cache(maxsize=None)
def _judging() -> tuple[Callable[..., Reply], Callable[..., Any]]:
    """``reply.read_reply`` and ``verdict.verdict``, imported by the first reply judged (or ``warm_judging``, while
    the first requests are in flight) and then kept: an import statement in ``judge`` cost ~3 µs a sample."""
    from .reply import read_reply
    from .verdict import verdict

    return read_reply, verdict


@functools.lru_cache(maxsize=None)
def _transport() -> Any:
    """The transport module, imported by the first job prepared (this module loads without it: ``parse``)."""
    from . import transport

    return transport


def failed_sample(job: Job, index: int, exc: Exception) -> Sample:
    """A sample whose sending or judging raised: an error reply, judged as such."""
    from .verdict import verdict

    reply = Reply(error=ProviderError(None, "internal_error", f"{type(exc).__name__}: {exc}"))
    return Sample(index, None, [], None, reply, verdict(job.scenario, reply, job.translation), "", None)


# Modules httpx and httpcore import when installed that sending never uses: httpx's own command-line
# client (httpx._main: click, rich, pygments), trio, for httpcore's trio backend (sending runs on
# asyncio; importing trio 0.22 even runs `ldconfig -p`), and h2, for HTTP/2, which toolchoice's clients
# never ask for (httpcore then keeps its stand-in class, which says h2 is missing if ever used).
UNUSED_BY_SENDING = ("httpx._main", "trio", "h2")


def load_http_stack() -> None:
    """Import httpx and httpcore without ``UNUSED_BY_SENDING``."""
    import_without(("httpcore", "httpx"), UNUSED_BY_SENDING)


def import_without(modules: tuple[str, ...], optional: tuple[str, ...]) -> None:
    """Import ``modules`` while the ``optional`` modules they try to import (``try: import x`` /
    ``except ImportError``) are held back: a None entry in sys.modules makes such an import fail at
    once. Only while ``modules`` load, and only those optional modules not imported already: a later
    ``import x`` works as ever. Should one of ``modules`` import a held-back module unguarded, all
    this attempt loaded is dropped and the import redone with nothing held back."""
    import importlib

    if all(name in sys.modules for name in modules):
        return
    before = set(sys.modules)
    held = [name for name in optional if name not in sys.modules]
    for name in held:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        for name in modules:
            importlib.import_module(name)
    except ImportError:
        for name in set(sys.modules) - before:  # the held entries and whatever this attempt loaded
            del sys.modules[name]
        for name in modules:
            importlib.import_module(name)
    finally:
        for name in held:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]


OnSample = Callable[[Job, Sample], None]


async def run_async(jobs: list[Job], repeat: int, settings: SendSettings, on_sample: OnSample | None = None) -> None:
    """Send every live job ``repeat`` times, judge each reply, and hand each sample to ``on_sample``
    as it completes (in completion order). Each job has at most ``settings.concurrency`` requests in
    flight, all jobs together at most ``settings.max_in_flight``: a fixed pool of workers pulls the
    next sample number, so memory does not grow with ``repeat``. Unless ``settings.keep`` is False,
    the samples are also appended to their job's ``samples`` (sorted by index at the end)."""
    import asyncio

    from . import transport

    live = [job for job in jobs if job.prepared is not None]
    if not live:
        return
    load_http_stack()
    timeouts = transport.Timeouts.from_total(settings.timeout)
    policy, limits = transport.RetryPolicy(retries=settings.retries), transport.SendLimits.configured()
    per_job = max(1, min(settings.concurrency, repeat))
    in_flight = per_job * len(live)
    if settings.max_in_flight is not None:
        in_flight = max(1, min(settings.max_in_flight, in_flight))
    gate = asyncio.Semaphore(in_flight)

    async def one(job: Job, index: int, client: Any) -> None:
        async with gate:
            sample = await send_sample(job, index, client, policy, settings.sleep, limits)
        if settings.keep:
            job.samples.append(sample)
        if on_sample is not None:
            on_sample(job, sample)
        sample.release()

    async def worker(job: Job, numbers: Any, client: Any) -> None:
        for index in numbers:  # one shared iterator per job: each number is taken once
            await one(job, index, client)

    clients = transport.new_async_clients(timeouts, in_flight, transport=settings.transport,
                                          urls=[job.prepared.url for job in live], requests=repeat * len(live))
    try:
        workers = []
        for job in live:
            numbers = iter(range(1, repeat + 1))
            for _ in range(per_job):  # each worker keeps one client: the clients share the load evenly
                workers.append(worker(job, numbers, clients[len(workers) % len(clients)]))
        await asyncio.gather(*workers, warm_judging([job.scenario for job in live]))
    finally:
        for client in clients:
            await client.aclose()
    for job in live:
        job.samples.sort(key=lambda s: s.index)


async def warm_judging(scenarios: list[Scenario]) -> None:
    """What judging the first reply needs — reading replies, jsonschema (~30 ms to import) and each
    tool's checked schema — loaded while the first requests are in flight rather than after the first
    reply arrived, where it held up every reply of the first wave. Started after every worker, it waits
    for the event loop's first pass with nothing else to run (``_quiet``); any failure is left for
    judging to meet and report sample by sample, as before."""
    await _quiet()
    try:
        from . import reply, verdict  # noqa: F401 - loaded for judge()

        for scenario in scenarios:
            verdict.prepare_tools(scenario.tools)
    except Exception:  # noqa: BLE001, S110 - see the docstring
        pass


QUIET_PASS_S = 0.0003  # a pass of the event loop that runs nothing but the caller takes ~10-30 µs


async def _quiet(passes: int = 200, in_a_row: int = 3) -> None:
    """Return once ``in_a_row`` passes of the event loop in a row ran nothing but this (every other task
    waiting for the network), or after ``passes`` passes. When every worker has reached its first wait,
    its connection is still being opened and its request not yet written: an import started then
    (warm_judging) held every first request back by its length (the first of 50 requests reached the
    server ~50 ms after it was begun, on a 2-core machine; ~17 ms when started after three quiet passes:
    one quiet pass comes between opening the connections and writing the requests)."""
    import asyncio
    import time

    quiet = 0
    for _ in range(passes):
        started = time.perf_counter()
        await asyncio.sleep(0)
        quiet = quiet + 1 if time.perf_counter() - started < QUIET_PASS_S else 0
        if quiet == in_a_row:
            return


async def send_sample(job: Job, index: int, client: Any, policy: Any,
                      sleep: Callable[[float], Awaitable[None]] | None = None, limits: Any = None) -> Sample:
    """Send one prepared job on ``client`` and judge the reply: a Sample, never an exception (a
    ToolchoiceError aside). ``run_async`` and the agent loop (loop.py) send through this, with the
    ``transport.SendLimits`` the run read once (else each sample reads the environment for them)."""
    transport = _transport()
    extra = {} if sleep is None else {"sleep": sleep}
    try:
        if job.translation.request is not None and job.translation.request.stream:
            return await stream_sample(job, index, client, policy, sleep)
        response = await transport.send_async(job.translation.request, provider=job.provider,
                                              prepared=job.prepared, policy=policy, client=client, limits=limits,
                                              **extra)
        return judge(job, index, response)
    except ToolchoiceError:
        raise
    except Exception as exc:  # noqa: BLE001 - one failed sample never loses the others
        return failed_sample(job, index, exc)


async def stream_sample(job: Job, index: int, client: Any, policy: Any,
                        sleep: Callable[[float], Awaitable[None]] | None = None) -> Sample:
    """A ``--stream`` request: read and assemble the stream as it arrives (streaming.stream_reply) and
    judge the assembled reply. A stream that failed before its first event (no answer, or a
    retryable status) is retried as ``send_async`` retries; once events arrived, never. On Ctrl-C, what had
    arrived joins ``job.cuts`` (judged: an error, stream.interrupted) before the cancellation goes on."""
    import asyncio
    import time

    from . import retry_policy, stream_framing, streaming
    from .verdict import verdict

    started = time.monotonic()
    attempts: list[dict[str, Any]] = []
    read_timeout = client.timeout.read or 120.0

    def sample_of(result: Any) -> Sample:
        return Sample(index, result.status, attempts, result.timings.total_ms, result.reply,
                      verdict(job.scenario, result.reply, job.translation), result.raw, None,
                      stream=result.to_json(), raw_suffix=stream_framing.save_suffix(job.provider),
                      raw_bytes=result.raw)

    def keep_cut(result: Any) -> None:
        attempts.append({"status": result.status, "error": "interrupted (Ctrl-C)",
                         "latency_ms": round(result.timings.total_ms or 0.0, 1), "wait_s": 0.0, "wait_source": None})
        job.cuts.append(sample_of(result))

    while True:
        # keep_events=False: a sample keeps the stream's bytes and its summary, never the parsed events (held
        # whole, they took ~10x the bytes: 32 MiB of stream grew the process by ~300 MB)
        result = await streaming.stream_reply(client, job.prepared, job.provider, deadline=read_timeout,
                                              idle=min(streaming.DEFAULT_IDLE, read_timeout), keep_events=False,
                                              on_cut=keep_cut)
        retryable = result.events == 0 and (result.status is None
                                           or retry_policy.should_retry(result.status, result.headers))
        wait = (retry_policy.next_wait(len(attempts), result.status, result.headers, time.monotonic() - started,
                                       policy)
                if retryable else None)
        attempts.append({"status": result.status, "error": None if result.status is not None else
                         (result.reply.error.message if result.reply.error else "no answer"),
                         "latency_ms": round(result.timings.total_ms or 0.0, 1),
                         "wait_s": round(wait[0], 3) if wait else 0.0, "wait_source": wait[1] if wait else None})
        if wait is None:
            break
        await retry_policy.paused(sleep or asyncio.sleep, wait[0])
    return sample_of(result)


def open_client(settings: SendSettings, connections: int) -> Any:
    """One ``httpx.AsyncClient`` of ``connections`` connections, with the settings' timeouts and
    transport, for callers that send sample by sample (the agent loop); use as ``async with``."""
    from . import transport

    load_http_stack()
    return transport.new_async_client(transport.Timeouts.from_total(settings.timeout), connections,
                                      transport=settings.transport)


def run(jobs: list[Job], repeat: int, settings: SendSettings, on_sample: OnSample | None = None) -> list[Job]:
    """``run_async`` on a new event loop (``sync_run``: in a worker thread when this one runs a loop already);
    returns ``jobs`` with their samples."""
    from .sync_run import run_to_end

    run_to_end(lambda: run_async(jobs, repeat, settings, on_sample))
    return jobs


RESULTS_KEPT = 100  # per-sample results a repeated run's document keeps by default (the summary counts all)


class Collector:
    """What the final document of many samples needs, reduced as each sample completes, so memory
    does not grow with their number: the running tally, the first ``keep`` samples' results (all
    when ``keep`` is None), the most frequent error lines and disobedience reasons, and — only when
    ``raw`` is asked for — every raw body."""

    def __init__(self, provider: str, keep: int | None = RESULTS_KEPT, raw: bool = False) -> None:
        from collections import Counter

        from .verdict import Tally

        self.provider = provider
        self.keep = keep
        self.raw = raw
        self.tally = Tally()
        self.results: list[dict[str, Any]] = []
        self.errors: Counter[str] = Counter()
        self.reasons: Counter[str] = Counter()
        self.unenforced = False
        self.raws: list[tuple[int, Any, str]] = []
        # results of samples Ctrl-C cut mid-stream, in sample order (jobs adds them as Job.arrived gives them):
        # kept, never tallied
        self.cut: list[dict[str, Any]] = []

    def add_cut(self, sample: Sample) -> None:
        """A sample Ctrl-C cut short mid-stream: its result (what had arrived, stream.interrupted) is kept apart
        from the tally, which counts finished samples alone (a cut is the user's stop, not the model's answer)."""
        self.cut.append(sample.to_json(self.provider, self.raw))

    def add(self, sample: Sample) -> None:
        result = sample.to_json(self.provider, self.raw)  # with raw: the parsed body in result["raw"]
        self.tally.add(result)
        if self.keep is None or len(self.results) < self.keep:
            self.results.append(result)
        if sample.reply.error is not None:
            self.errors[sample.error_line(self.provider) or ""] += 1
        elif sample.verdict["category"] != "obeyed":
            self.reasons.update(sample.verdict["reasons"][:1])
        if not sample.verdict.get("enforced", True):
            self.unenforced = True
        if self.raw:  # the text is shown only for a body that is not JSON: not kept beside the parsed one
            parsed = result["raw"] if sample.raw_is_json else None
            self.raws.append((sample.index, parsed, "" if sample.raw_is_json else sample.raw_text))

    @property
    def done(self) -> int:
        return self.tally.n

    def sorted_results(self) -> list[dict[str, Any]]:
        return sorted(self.results, key=lambda r: r["sample"])
