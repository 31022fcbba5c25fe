"""The library's jobs, one function each: ``render``, ``send`` (one or many samples, streamed or not),
``compare_send``, ``probe`` and ``run`` (the agent loop). Each takes plain data (a loaded ``Scenario``,
provider ids, ``RenderOptions``, ``SendSettings``), owns preparing the requests, the ``--save`` folder,
Ctrl-C (what finished is kept and the result says ``interrupted``), the tally and the outcome (the
exit code), and returns a result whose records are redacted for display. The command line parses
options and draws these results; a Python caller uses them as they are (docs/python.md).

httpx is imported only when something is sent (``runner.run``); ``render`` never sends."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, ParamSpec, Sequence, TypeVar

from . import outcome as outcomes
from .capabilities import PROVIDER_IDS, Capability
from .error_keys import says_no_key
from .errors import ToolchoiceError, out_of_range
from .model import RenderOptions, Scenario, ToolChoice, Translation
from .registry import check_provider, translate

if TYPE_CHECKING:  # the result and settings types, for type checkers and IDEs; at run time each job imports its own
    # modules when called, so `render` loads none of them (tests/test_render_imports.py)
    from .loop import LoopOptions
    from .loop_records import LoopRun
    from .loop_replay import Replay
    from .runner import Collector, Job, Sample, SendSettings
    from .trace_export import SampleTrace

P = ParamSpec("P")
R = TypeVar("R")


# Plain classes, not dataclasses or NamedTuples: `render` imports this module, and making those costs
# milliseconds of start-up.

class Interrupted:
    """Ctrl-C came: ``done`` of ``total`` ``unit`` finished (and are in the result, and saved)."""

    __slots__ = ("done", "total", "unit", "saved", "note", "shown")

    def __init__(self, done: int, total: int, unit: str = "samples", saved: bool = False, note: str = "",
                 shown: str = "") -> None:
        self.done, self.total, self.unit, self.saved, self.note = done, total, unit, saved, note
        self.shown = shown  # what is shown when not the finished ones (a stream cut short: what had arrived)

    def __repr__(self) -> str:
        return f"Interrupted(done={self.done}, total={self.total}, unit={self.unit!r})"

    def line(self) -> str:
        shown = f"{self.shown} " if self.shown else ""
        return (f"interrupted: {self.done} of {self.total} {self.unit} finished ({shown}shown above"
                f"{' and saved' if self.saved else ''}{self.note})")


class _Result:
    """What every job's result has: the exit code, the interruption if any, and the secrets its records
    are redacted with (never shown)."""

    def __init__(self) -> None:
        self.interrupted: Interrupted | None = None
        self.code = outcomes.OK
        self.below: list[str] = []  # one line per provider under --min-obeyed
        self.secrets: dict[str, str] = {}

    def shown(self, record: Any) -> Any:
        """A record built from this result, redacted for display."""
        return outcomes.shown(record, self.secrets)


# The bounds on repeat the command line holds (cli/options.py REPEAT, send's --repeat), held here too: a caller's
# repeat=0 would otherwise send nothing and come back OK, as if the model had obeyed.
REPEAT_MAX = 1000  # compare --send, probe, run
SEND_REPEAT_MAX = 1_000_000  # send


def check_repeat(repeat: Any, most: int = REPEAT_MAX) -> int:
    """``repeat`` as the command line takes it: a whole number from 1 to ``most``; else a ToolchoiceError."""
    if isinstance(repeat, bool) or not isinstance(repeat, int) or not 1 <= repeat <= most:
        from .call_args import number_shown

        shown = number_shown(repeat) if isinstance(repeat, int) else repr(repeat)  # 10**5000: no ValueError
        raise out_of_range("repeat", shown, f"a whole number from 1 to {most:,}")
    return repeat


# ---- render ---------------------------------------------------------------------------------------

def _chosen(scenario: Scenario, ids: list[str] | None) -> list[str]:
    """The providers a job runs on (``call_args.provider_ids``: never empty), each once as the command line's
    -p openai,openai (cli/inputs.py); None: the scenario's, else every one, as -p left out."""
    return list(dict.fromkeys(check_provider(p) for p in ids)) if ids is not None else (
        list(scenario.providers) or list(PROVIDER_IDS))


@says_no_key
def translations(scenario: Scenario, providers: Sequence[str] | None = None,
                 options: RenderOptions = RenderOptions(), *, models: Mapping[str, str | None] | None = None,
                 capabilities: Mapping[str, Capability] | None = None) -> list[Translation]:
    """The scenario's exact request and ledger for each provider (one id or a list; left out, the scenario's
    providers, else every one; an empty list is refused), as they are sent: ``send`` and ``compare_send`` take
    these. ``models`` gives a provider its model (else ``options.model``); ``capabilities`` may be a probe overlay
    (``overlay.load_overlay``)."""
    from . import call_args

    scenario, options = call_args.scenario_arg(scenario), call_args.render_options(options)
    providers, models = call_args.provider_ids(providers), call_args.models_arg(models)
    capabilities = call_args.capabilities_arg(capabilities)
    ids = _chosen(scenario, providers)
    models = models or {}
    caps = dict(capabilities) if capabilities is not None else None
    per_provider = {pid: options._replace(model=models.get(pid, options.model)) for pid in ids}
    done = [translate(pid, scenario, per_provider[pid], caps) for pid in ids]
    if scenario.loop is None:
        return done
    from .loop_lint import with_loop_findings  # a loop: section's findings join the ledger

    return [with_loop_findings(t, scenario, per_provider[t.provider], caps) for t in done]


@says_no_key
def render(scenario: Scenario, providers: Sequence[str] | None = None, options: RenderOptions = RenderOptions(),
           *, models: Mapping[str, str | None] | None = None,
           capabilities: Mapping[str, Capability] | None = None) -> list[Translation]:
    """``translations`` for display: every key set in the environment (and each ``options.allow_env``
    variable) replaced by its placeholder, e.g. a key the shell expanded into a base URL. Nothing is sent."""
    import os

    from . import call_args
    from .redaction import Redactor, environment_secrets, settings_secrets

    options = call_args.render_options(options)
    scenario = call_args.scenario_arg(scenario)  # and a key a Python caller wrote into its settings as text:
    redactor = Redactor({**environment_secrets(os.environ, tuple(options.allow_env)), **settings_secrets(scenario.providers)})
    return [redactor.data(t) for t in translations(scenario, providers, options, models=models,
                                                   capabilities=capabilities)]


# ---- send -----------------------------------------------------------------------------------------

def _frees_its_folders(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` (a job that may save), unlocking the ``save`` folders it locked once it returns or raises: a later job
    of the same program may save into them again (save.py)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        # save.py is imported by a job that saves (render never loads it); one another thread is still importing
        # has locked nothing for this one
        held_here = getattr(sys.modules.get(f"{__package__}.save"), "held_here", None)
        before = held_here() if held_here is not None else frozenset()
        try:
            return fn(*args, **kwargs)
        finally:
            unlock_since = getattr(sys.modules.get(f"{__package__}.save"), "unlock_since", None)
            if unlock_since is not None:
                unlock_since(before)

    return wrapper


class SendResult(_Result):
    """One scenario sent to one provider ``repeat`` times. ``samples``: every sample in order when
    ``repeat`` is 1 (else ``collected``, a ``runner.Collector``, tallies them and keeps the first
    ``keep`` results); ``code``: the exit code; ``below``: the provider under --min-obeyed, if so."""

    samples: list[Sample]
    collected: Collector | None

    def __init__(self, provider: str, translation: Translation, repeat: int) -> None:
        super().__init__()
        self.provider, self.translation, self.repeat = provider, translation, repeat
        self.samples = []
        self.collected = None

    @property
    def done(self) -> int:
        return len(self.samples) if self.collected is None else self.collected.done

    def document(self, raw: bool = False) -> dict[str, Any]:
        """The JSON document `send --format json` prints, redacted."""
        from .records import refused_json, repeat_json, sample_json

        if self.translation.refused:
            return refused_json(self.provider, self.translation)
        data = (sample_json(self.provider, self.translation, self.samples[0], raw) if self.collected is None else
                repeat_json(self.provider, self.translation, self.collected))
        if self.interrupted:
            data["partial"] = {"done": self.interrupted.done, "requested": self.repeat}
            if self.collected is not None and self.collected.cut:  # samples cut mid-stream: not in the tally
                data["partial"]["cut"] = self.collected.cut
        return outcomes.shown(data, self.secrets)


@says_no_key
@_frees_its_folders
def send(scenario: Scenario, translation: Translation, *, repeat: int = 1, settings: SendSettings | None = None,
         save: str | os.PathLike[str] | None = None, keep: int | None = 100, raw: bool = False, min_obeyed: float | None = None,
         on_sample: Callable[[Sample], None] | None = None, on_result: Callable[[dict[str, Any]], None] | None = None,
         trace_out: str | os.PathLike[str] | SampleTrace | None = None) -> SendResult:
    """Send ``translation`` (one of ``translations``) ``repeat`` times and judge every reply. ``settings``: a
    ``runner.SendSettings`` (timeouts, retries, concurrency, a test ``transport``); ``save``: a folder for every sample;
    ``keep``: how many results a repeated run keeps (``runner.RESULTS_KEPT``; None: all; the tally counts every one);
    ``on_sample``: called with each sample as it completes; ``on_result``: with its result, redacted (``send -f jsonl``);
    ``min_obeyed``: the outcome is the obeyed rate against it; ``trace_out``: a file for the samples as OTLP/JSON (the
    first 100; after Ctrl-C too), or a ``trace_export.SampleTrace`` several sends share. Said before sending: a missing
    key (``MissingKey``), a ``trace_out`` that is a file the scenario was read from (``ArgumentError``)."""
    from . import call_args, runner

    scenario, translation = call_args.scenario_arg(scenario), call_args.translation_arg(translation)
    settings, save = call_args.send_settings(settings, runner.SendSettings), call_args.folder(save)
    call_args.send_extras(on_sample, keep, raw, on_result)
    check_repeat(repeat, SEND_REPEAT_MAX)
    outcomes.check_rate(min_obeyed)
    trace: SampleTrace | None = None
    if trace_out is not None:  # trace_export is imported only then; a file is a new SampleTrace, written below
        from .trace_export import SampleTrace

        trace = call_args.sample_trace(trace_out, SampleTrace, scenario.path, *scenario.files_read, save=save)
    provider = translation.provider
    result = SendResult(provider, translation, repeat)
    if translation.refused:
        result.code = outcomes.REFUSED
        return result
    jobs, result.secrets = runner.prepare_jobs(scenario, [translation], missing_key_fails=True)
    folder = save
    if folder is not None:
        from .save import prepare_save_dir

        folder = prepare_save_dir(folder)
    run_settings = replace(settings or runner.SendSettings(), keep=repeat == 1)
    categories: set[str] = set()
    if repeat > 1:
        result.collected = runner.Collector(provider, keep, raw)

    def each(job: Any, sample: Any, cut: bool = False) -> None:
        if folder is not None:
            from .save import save_sample

            save_sample(folder, provider, translation, sample, result.secrets)
        categories.add(sample.verdict["category"])
        if result.collected is not None:
            (result.collected.add_cut if cut else result.collected.add)(sample)
        if on_sample is not None:
            on_sample(sample)
        if trace is not None and len(trace.items) < runner.RESULTS_KEPT:
            trace.add(scenario, translation, sample, result.secrets)
        if on_result is not None:  # what Collector.add keeps of it, shown as document() shows it
            on_result(outcomes.shown(sample.to_json(provider, raw), result.secrets))

    try:
        runner.run(jobs, repeat, run_settings, each)
    except KeyboardInterrupt:
        result.samples = jobs[0].samples
        result.interrupted = _kept_at_interrupt(result, jobs[0], each, folder is not None)
        if result.interrupted is None:
            raise
    result.samples = jobs[0].samples
    if result.interrupted:
        result.code = outcomes.INTERRUPTED
    elif min_obeyed is not None:
        counts = (outcomes.obeyed_counts(s.verdict for s in result.samples) if result.collected is None else
                  (result.collected.tally.counts.get("obeyed", 0), result.collected.tally.n))
        result.below = outcomes.below_threshold({provider: counts}, min_obeyed)
        result.code = outcomes.threshold_code(result.below)
    else:
        result.code = outcomes.outcome({"category": c} for c in categories)
    if trace is not None and trace is not trace_out:  # made here: written here
        trace.write()
    return result


def _kept_at_interrupt(result: SendResult, job: Any, each: Callable[..., None], saved: bool) -> Interrupted | None:
    """After Ctrl-C: the finished samples stand (saved and tallied as they came); each stream cut short after its
    answer began is kept with what had arrived (``job.arrived``: judged an error, stream.interrupted), saved and
    shown too. One sample: the cut one is the sample (done 0 of 1). Several: the cut ones stand apart from the
    tally (``Collector.add_cut``), which counts finished samples alone. None when nothing is kept."""
    cuts = job.arrived() if result.repeat > 1 or not result.samples else []
    if not cuts and not result.done:
        return None
    for cut in cuts:
        each(job, cut, cut=True)
    if result.collected is None and cuts:  # one sample, its stream begun
        job.samples.append(cuts[0])
        return Interrupted(0, 1, "samples", saved,
                           shown=f"what had arrived of its stream, {cuts[0].stream['events']} events,")
    note = f"; {len(cuts)} cut short mid-stream, kept with what had arrived, not in the tally" if cuts else ""
    return Interrupted(result.done, result.repeat, "samples", saved, note)


# ---- compare --send --------------------------------------------------------------------------------

MAX_IN_FLIGHT = 64  # requests in flight across every provider of one compare --send


class CompareResult(_Result):
    """Every provider's job (``runner.Job``: translation, samples or why it was skipped), the wall time,
    the exit code and the providers under --min-obeyed."""

    jobs: list[Job]

    def __init__(self, scenario: Scenario, jobs: list[Job], repeat: int, wall_ms: float) -> None:
        super().__init__()
        self.scenario, self.jobs, self.repeat, self.wall_ms = scenario, jobs, repeat, wall_ms

    def document(self, scenario_path: str | None = None) -> dict[str, Any]:
        """The JSON document `compare --send --format json` prints, redacted (``scenario_path``: as the document
        names the scenario; its own path by default)."""
        from .compare_records import send_document

        path = self.scenario.path if scenario_path is None else scenario_path
        return self.shown(send_document(str(path), self.jobs, self.repeat, self.wall_ms))


@says_no_key
@_frees_its_folders
def compare_send(scenario: Scenario, translations: Sequence[Translation], *, repeat: int = 1,
                 settings: SendSettings | None = None, save: str | os.PathLike[str] | None = None,
                 min_obeyed: float | None = None) -> CompareResult:
    """Send every translation at once (one event loop, one connection pool), ``repeat`` samples each.
    A provider without a key is skipped with the variable to set; one that fails keeps its error in
    its own job. ``save``: one folder per provider under it."""
    from . import call_args, runner

    scenario, translations = call_args.scenario_arg(scenario), call_args.translation_list(translations)
    settings, save = call_args.send_settings(settings, runner.SendSettings), call_args.folder(save)
    check_repeat(repeat)
    outcomes.check_rate(min_obeyed)
    seen: set[str] = set()
    for t in translations:  # one job per provider: its samples, tally and --save folder are the provider's
        if t.provider in seen:
            raise ToolchoiceError(f"{t.provider} is given twice: compare_send sends one translation per provider",
                                  hint="pass each provider's translation once")
        seen.add(t.provider)
    jobs, secrets = runner.prepare_jobs(scenario, translations)
    if not any(j.prepared for j in jobs):
        raise runner.nothing_to_send(jobs)
    on_sample: Any = None
    if save is not None:
        from .save import prepare_save_dir, save_sample

        folders = {j.provider: prepare_save_dir(save / j.provider) for j in jobs if j.prepared}

        def save_each(job: Any, sample: Any) -> None:
            save_sample(folders[job.provider], job.provider, job.translation, sample, secrets)

        on_sample = save_each

    base = settings or runner.SendSettings()
    run_settings = replace(base, max_in_flight=base.max_in_flight or MAX_IN_FLIGHT)
    started = time.perf_counter()
    interrupted = None
    try:
        runner.run(jobs, repeat, run_settings, on_sample)
    except KeyboardInterrupt:  # what finished is kept (and was saved), marked partial
        interrupted = _compare_interrupted(jobs, repeat, on_sample, save is not None)
    for j in jobs:  # the jobs are the result's records: the resolved keys stay in result.secrets alone
        if j.prepared is not None:
            j.prepared = j.prepared.shown()
    result = CompareResult(scenario, jobs, repeat, (time.perf_counter() - started) * 1000.0)
    result.interrupted, result.secrets = interrupted, secrets
    if interrupted:
        result.code = outcomes.INTERRUPTED
        return result
    refused = any(j.translation.request is None for j in jobs)
    if min_obeyed is not None:
        result.below = outcomes.below_threshold(
            {j.provider: outcomes.obeyed_counts(s.verdict for s in j.samples) for j in jobs if j.samples}, min_obeyed)
        result.code = outcomes.threshold_code(result.below, refused)
    else:
        result.code = outcomes.outcome((s.verdict for j in jobs for s in j.samples), refused=refused)
    return result


def _compare_interrupted(jobs: list[Any], repeat: int, on_sample: Callable[[Any, Any], None] | None,
                         saved: bool) -> Interrupted:
    """After Ctrl-C in compare --send: each provider keeps its finished samples, and each stream cut short after
    its answer began with what had arrived (``job.cuts``, saved as ``send`` saves it: stream.interrupted, judged
    an error). One sample a provider: the cut one is its sample, as for ``send``; several: the cut ones stand
    apart from the provider's tally (the document's ``cut``)."""
    done = cut = 0
    for j in jobs:
        j.samples.sort(key=lambda s: s.index)
        done += len(j.samples)
        j.cuts = j.arrived() if j.prepared is not None else []
        cut += len(j.cuts)
        for sample in j.cuts:
            if on_sample is not None:
                on_sample(j, sample)
        if repeat == 1 and j.cuts and not j.samples:
            j.samples.append(j.cuts[0])
        elif j.prepared is not None and not j.samples:
            j.skipped = ("interrupted before it answered" if not j.cuts else
                         f"interrupted before a sample finished ({len(j.cuts)} cut short mid-stream)")
    note = (f"; {cut} cut short mid-stream, kept with what had arrived{', not in the tallies' if repeat > 1 else ''}"
            if cut else "")
    return Interrupted(done, repeat * sum(1 for j in jobs if j.prepared), "samples", saved, note)


# ---- probe ----------------------------------------------------------------------------------------

@says_no_key
def probe(provider: str, scenario: Scenario | None = None, *, model: str | None = None,
          options: RenderOptions = RenderOptions(), repeat: int = 3, settings: SendSettings | None = None,
          tool_choice: ToolChoice | None = None) -> dict[str, Any]:
    """Ask ``provider`` each probe question (auto, none, required, named in each form, allowed subset,
    parallel off) ``repeat`` times and classify what it did: honored, ignored, rejected, inconclusive
    or not asked. ``scenario``: your tools (default: a built-in two-tool scenario); ``tool_choice``:
    ask only the questions for this neutral ``ToolChoice`` (and the control, once, when one of them is
    rejected or ignored). Returns the redacted result: the questions with their evidence, and ``overlay``, the capability overlay document (``probe_code``
    says whether it may be saved). On Ctrl-C after a question was answered, the rest are "not asked"
    and ``partial`` says how many were answered."""
    from . import call_args, runner
    from .probe import run_questions

    if scenario is not None:
        call_args.scenario_arg(scenario)
    options, settings = call_args.render_options(options), call_args.send_settings(settings, runner.SendSettings)
    call_args.probe_extras(model, tool_choice)
    check_provider(provider)
    check_repeat(repeat)
    result, secrets = run_questions(provider, scenario, model, options, repeat, settings, tool_choice)
    return outcomes.shown(result, secrets)


def probe_code(result: dict[str, Any]) -> int:
    """A probe's exit code: INTERRUPTED after Ctrl-C (``result["partial"]``: how many questions were
    answered), FAILED when a question got no measured answer; only OK lets the overlay be saved."""
    from .probe import conclusive

    if "partial" in result:
        return outcomes.INTERRUPTED
    return outcomes.OK if conclusive(result["questions"]) else outcomes.FAILED


# ---- run (the agent loop) ----------------------------------------------------------------------------

class RunResult(_Result):
    """The loops run (``loop_records.LoopRun``: steps, verdicts, how each ended), the exit code and whether
    Ctrl-C cut them short. ``document()`` / ``write_json`` give what `run --format json` prints, for a run of
    any size; a reduced run (``repeat`` > 1) keeps its loops' JSON in a spool file until ``close()`` (or the
    end of a ``with`` block)."""

    runs: list[LoopRun]

    def __init__(self, runs: list[LoopRun], scenario_path: str = "-", providers: Sequence[str] = (),
                 repeat: int = 1, replayed: bool = False) -> None:
        super().__init__()
        self.runs = runs
        self.reduced: Any = None  # loop_tally.LoopReduction when the loops were reduced as they ended
        self.head = {"scenario": scenario_path, "replay": replayed, "repeat": repeat}
        self.providers = list(providers) or list(dict.fromkeys(r.provider for r in runs))

    def document(self, scenario_path: str | None = None, providers: Sequence[str] | None = None,
                 repeat: int | None = None, replayed: bool | None = None) -> dict[str, Any]:
        """The JSON document `run --format json` prints (``json.loads`` of its output), keys redacted. The
        arguments default to the run's own (what the command prints); a reduced run's loops are read back from
        its spool, all at once: for many loops ``write_json`` writes the same document one loop at a time."""
        if self.reduced is None:
            from .loop_tally import run_document

            head, providers = self._frame(scenario_path, providers, repeat, replayed)
            return self.shown(run_document(head["scenario"], self.runs, providers, head["repeat"], head["replay"]))
        import json

        return json.loads(b"".join(self.json_pieces(scenario_path, providers, repeat, replayed)))

    def json_pieces(self, scenario_path: str | None = None, providers: Sequence[str] | None = None,
                    repeat: int | None = None, replayed: bool | None = None) -> Iterator[bytes]:
        """The bytes `run --format json` prints (UTF-8, redacted, control characters written out, a newline
        at the end), piece by piece: a reduced run's a loop at a time from its spool, so memory stays that of
        one loop however many ran."""
        from .loop_tally import run_document_pieces

        head, providers = self._frame(scenario_path, providers, repeat, replayed)
        if self.reduced is not None and self.reduced.spool is None:
            raise ToolchoiceError("this run kept no JSON document: its loops were reduced to tallies as they ended",
                                  hint="run it with jobs.run(..., spool_json=True), the default")
        if self.reduced is not None and self.reduced.spool.files[0].closed:
            raise ToolchoiceError("this run's document was dropped by close()",
                                  hint="ask for document() or write_json() before close() (inside the with block)")
        return run_document_pieces(head, providers, self.runs, self.reduced, self.shown)

    def write_json(self, out: Callable[[bytes], Any] | Any) -> None:
        """``json_pieces`` written to ``out``: a binary file (``sys.stdout.buffer``, ``open(path, "wb")``) or a
        function taking bytes."""
        write = out if callable(out) else out.write
        for piece in self.json_pieces():
            write(piece)

    def _frame(self, scenario_path: str | None, providers: Sequence[str] | None, repeat: int | None,
               replayed: bool | None) -> tuple[dict[str, Any], list[str]]:
        head = dict(self.head)
        for key, value in (("scenario", scenario_path), ("repeat", repeat), ("replay", replayed)):
            if value is not None:
                head[key] = value
        return head, list(providers) if providers is not None else self.providers

    def close(self) -> None:
        """Drop the spool file of a reduced run (after its document is written)."""
        if self.reduced is not None:
            self.reduced.close()

    def __enter__(self) -> "RunResult":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@says_no_key
@_frees_its_folders
def run(scenario: Scenario, providers: Sequence[str] | None = None, options: LoopOptions | None = None, *,
        repeat: int = 1, settings: SendSettings | None = None, save: str | os.PathLike[str] | None = None,
        replay: Replay | None = None,
        trace_out: str | os.PathLike[str] | None = None, spool_json: bool = True, processes: int = 1) -> RunResult:
    """Run the scenario's agent loop ``repeat`` times per provider (``providers`` as ``translations`` takes them;
    ``options``: ``loop.LoopOptions``; ``replay``: ``loop.load_replay``'s transcripts, sent through a mock transport
    instead of the network; saved streams replay only with ``stream=True``, else ``ArgumentError`` before a step).
    ``save``: each loop's transcript in this folder. A missing key raises ``MissingKey`` before any request; a loop
    that ended in an error (an error reply, a transcript it could not read) makes the outcome FAILED, whatever its
    earlier steps. ``trace_out``: the loops as OTLP/JSON, one span per step (``trace_export``), written
    even when Ctrl-C cut them short. Several loops are reduced as they end (``result.reduced``: per
    provider a ``loop_tally.LoopTally``; with ``spool_json``, the default, each loop's JSON kept in a spool
    file for ``result.document()`` and ``result.write_json``), their steps dropped unless a trace is written;
    call ``result.close()`` when done (or use the result in a ``with`` block). ``processes``: how many processes may share the loops of a live run
    without a trace (``loop_shards``: forks of this process, used only where that is safe and pays); the
    results are those of one process."""
    import time

    from . import call_args, loop, loop_save, runner
    from .loop_records import redact_runs

    scenario, settings = call_args.scenario_arg(scenario), call_args.send_settings(settings, runner.SendSettings)
    save, trace_out = call_args.folder(save), call_args.folder(trace_out, "trace_out", "a file")
    check_repeat(repeat)
    providers = _chosen(scenario, call_args.provider_ids(providers))
    options = call_args.loop_options(options, loop.LoopOptions)
    from .loop_replay import Replay

    call_args.run_extras(processes, replay, Replay, spool_json)
    if replay is not None:  # each recorded loop once, and the recording kept (not --save's folder): before a step
        replay.check_run(repeat, save)
    trace_out = trace_out and call_args.trace_file(trace_out, scenario.path, *scenario.files_read,
                                                   *(replay.files() if replay else ()), save=save)
    for provider in providers if replay is not None else ():  # a saved stream replays only as one: said before a step
        replay.check_stream(provider, options.render_for(provider).stream)
    keys: dict[str, str] = {}
    if replay is None:  # a missing key is one error before any request, as for send
        first = loop.step_scenario(scenario, 1, scenario.messages, options.override)
        found = [translate(p, first, options.render_for(p), options.capabilities) for p in providers]
        _, keys = runner.prepare_jobs(first, [t for t in found if t.request is not None], missing_key_fails=True)
    count = len(replay.transcripts) if replay is not None and repeat == 1 else repeat
    runs = loop.new_runs(list(providers), count)
    result = RunResult(runs, scenario.path, providers, count, replay is not None)
    from .redaction import environment_secrets, settings_secrets

    # every key set in the environment, as render redacts them: a replay resolves none, and a trace or transcript
    # may quote one (its records, --save and --trace-out were written unredacted); a key written into the settings
    result.secrets.update({**environment_secrets(os.environ, tuple(options.render.allow_env)), **settings_secrets(scenario.providers)})
    result.secrets.update(keys)  # known before any loop: so are they to shards forked from here
    if count > 1:
        from .line_redaction import LineRedaction
        from .loop_tally import LoopReduction

        # each loop's text redacted and made visible line by line, each line the loops share once (secrets may grow)
        result.reduced = LoopReduction(providers, spool_json, LineRedaction(result.secrets, visible=True),
                                       keep_steps=trace_out is not None, shows=True)
    folder = loop_save.prepare_loop_save(save) if save is not None else None

    ended_at: dict[tuple[str, int, int], int] = {}
    summarized: set[tuple[str, int]] = set()

    def finish_loop(r: Any) -> None:
        """A loop that ended (or was cut short): its whole-history files saved once, then reduced."""
        if folder is not None and r.steps and (r.provider, r.index) not in summarized:
            summarized.add((r.provider, r.index))
            loop_save.save_summary(folder, r, scenario, result.secrets)
        if result.reduced is not None:
            result.reduced.add(r)

    def on_step(r: Any, record: Any) -> None:
        if trace_out is not None:
            ended_at[(r.provider, r.index, record.number)] = time.time_ns()
        if folder is not None:
            loop_save.save_step(folder, r, record, scenario, result.secrets)

    def write_trace() -> None:
        if trace_out is not None:
            from .trace_export import loops_document, write_document

            write_document(trace_out, loops_document(runs, ended_at), result.secrets)

    settings = settings or runner.SendSettings()
    shards = 1
    if result.reduced is not None and replay is None and trace_out is None and processes > 1:
        from . import loop_shards

        requests = len(runs) * (scenario.loop or loop.NO_LOOP).max_steps
        if loop_shards.fork_allowed(settings):
            shards = loop_shards.shard_count(processes, len(runs), requests, settings.concurrency, loop_shards.cpus())

    def cut_short(part: list[Any]) -> None:
        """After Ctrl-C: each unfinished loop ended as interrupted (its last step saved again), every one reduced."""
        for r in part:
            if r.ended is None:
                r.ended = "interrupted"
                if folder is not None and r.steps:
                    loop_save.save_step(folder, r, r.steps[-1], scenario, result.secrets)
        write_trace()
        for r in part:
            finish_loop(r)

    try:
        if shards > 1:
            def work(part: list[Any], shard_settings: Any) -> None:
                loop.run_loops(scenario, part, shard_settings, options, result.secrets, on_step, None, finish_loop)

            loop_shards.run_sharded(shards, runs, settings, work, result.reduced, requests, on_lost=finish_loop,
                                    cut_short=cut_short)
        else:
            loop.run_loops(scenario, runs, settings, options, result.secrets, on_step, replay, finish_loop)
    except KeyboardInterrupt:
        cut_short(runs)
        result.interrupted = Interrupted(sum(1 for r in runs if r.ended != "interrupted"), len(runs), "loops",
                                         folder is not None, "; unfinished loops keep their finished steps and "
                                         "what had arrived of a step's stream")
        result.code = outcomes.INTERRUPTED
        redact_runs(runs, result.secrets)
        return result
    write_trace()
    redact_runs(runs, result.secrets)
    if result.reduced is not None:  # the tallies saw every loop: "error" stands for one that ended in an error
        verdicts, refused = result.reduced.outcome_inputs()
        result.code = outcomes.outcome(verdicts, refused)
        return result
    refused = any(s.skipped and s.skipped.startswith("refused") for r in runs for s in r.steps)
    # a loop that ended in an error (a missing key, a transcript it could not read, an internal error) failed,
    # whatever its earlier steps were judged
    failed = any(r.ended == "error" and not (r.steps and (r.steps[-1].skipped or "").startswith("refused"))
                 for r in runs)
    result.code = outcomes.outcome((v for r in runs for v in r.verdicts), refused, failed)
    return result


__all__ = ["translations", "render", "send", "compare_send", "probe", "probe_code", "run", "SendResult", "CompareResult",
           "RunResult", "Interrupted"]
