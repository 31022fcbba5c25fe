"""Replay of saved loops (``run --replay DIR``): the transcripts ``--save`` wrote (or step files named by
step) read back, answered through an ``httpx.MockTransport`` for the recorded provider (the same code path
as live, offline) or, for another provider, each step's recorded reply judged against that provider's
request. Moved out of loop.py unchanged; loop.py re-exports its names."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

from .error_keys import says_no_key
from .errors import ArgumentError, argument_error
from .model import ProviderError, ReasoningItem, Reply, ServerCall, ToolCall, Usage
from .runner import Job, Sample

Sender = Callable[[Job, int], Awaitable[Sample]]

_STEP_FILE = re.compile(r"step-0*(\d+)(?:\.response)?\.(json|txt|sse|ndjson|eventstream)")


@dataclass
class Transcript:
    """One saved loop: the recorded provider and, per step, the status and body as received (and
    the parsed reply, for rendering the transcript for another provider)."""

    folder: Path
    provider: str
    bodies: dict[int, tuple[int, bytes, str]]  # step -> (status, body, content type)
    replies: dict[int, dict[str, Any]]  # step -> the saved reply.json (when there is one)
    steps: int = 0  # how many steps the recording made, where some may have kept no answer (a HAR's calls)

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
            if _saved_stream(body, content_type) and not _streamed(request):
                raise httpx.ConnectError(f"replay: {self.folder}'s step {count['n']} is a saved stream: replay it "
                                         "with --stream")
            cut = _transport_fault((self.replies.get(count["n"]) or {}).get("reply"))
            if cut is not None and _saved_stream(body, content_type):
                return httpx.Response(status, stream=_cut_stream(body, cut), headers={"content-type": content_type})
            return httpx.Response(status, content=body, headers={"content-type": content_type})

        return httpx.MockTransport(handler)

    def unrecorded(self, job: Job, number: int) -> Sample:
        """Step ``number``'s sample where the recording holds no reply for it (the replayed loop went on past the
        recorded run, or the recording kept no answer for that step): said as a replay's error (type ``replay``),
        not as a failed connection, since nothing is sent."""
        from .call_args import runs_shown
        from .verdict import verdict

        recorded = sorted({*self.bodies, *self.replies})
        kept = f"it holds step{'s' if len(recorded) != 1 else ''} {runs_shown(recorded)}" if recorded else "it holds none"
        if number > max(recorded[-1] if recorded else 0, self.steps):  # the loop went on where the recorded one ended
            what = ("the replayed loop went on past the recorded run; replay it with the recording's own scenario "
                    "and results, or record a run that goes as far")
        else:
            what = "the recording kept no answer for it; record the run again with its answers"
        reply = Reply(error=ProviderError(None, "replay", f"the recording holds no reply for step {number} "
                                          f"({self.folder}: {kept}), so nothing answers it: {what}"))
        return Sample(number, None, [], None, reply, verdict(job.scenario, reply, job.translation), "", None)

    def recorded_result(self, step: int, index: int, name: str) -> tuple[str, bool] | None:
        """What the recorded run's step gave its ``index``-th call (the saved ``results``: ``--results-from``'s
        output, ``loop.results``' value): (content, is_error), or None where it kept none for a call of that name."""
        results = (self.replies.get(step) or {}).get("results") or []
        if index >= len(results) or results[index].get("name") != name:
            return None
        return results[index]["content"], bool(results[index].get("is_error"))

    def said(self, step: int, code: str) -> bool:
        """Whether the recorded step's ledger has ``code`` (True without a saved ledger: bare step bodies)."""
        ledger = (self.replies.get(step) or {}).get("ledger")
        if not isinstance(ledger, list):
            return True
        return any(isinstance(e, dict) and e.get("code") == code for e in ledger)

    def translated_sender(self) -> Sender:
        """For another provider than the recorded one: each step's request is rendered for it, and the
        recorded (normalized) reply is judged against that request. Nothing is sent."""
        from .verdict import verdict

        async def send(job: Job, number: int) -> Sample:
            saved = self.replies.get(number)
            if saved is None:
                return self.unrecorded(job, number)
            reply = reply_from_json(saved.get("reply") or {})
            return Sample(number, saved.get("status"), [], saved.get("latency_ms"), reply,
                          verdict(job.scenario, reply, job.translation), "", None)

        return send


_FAULT = re.compile(r"the stream failed: (\w+): (.*)", re.S)


def _transport_fault(reply: Any) -> Exception | None:
    """The network fault that cut a recorded stream (its reply's ``stream.transport`` error), rebuilt as the httpx
    error the run met, so its replay ends in the same error instead of reading the saved bytes as a whole stream."""
    import httpx

    error = reply.get("error") if isinstance(reply, dict) else None
    if not isinstance(error, dict) or error.get("type") != "stream.transport":
        return None
    found = _FAULT.fullmatch(str(error.get("message") or ""))
    name, text = found.groups() if found else ("ReadError", str(error.get("message") or "the stream was cut"))
    kind = getattr(httpx, name, None)
    if not (isinstance(kind, type) and issubclass(kind, httpx.TransportError)):
        kind = httpx.ReadError
    return kind(text)


def _cut_stream(body: bytes, fault: Exception) -> Any:
    """A recorded stream's bytes, then the fault that cut it (httpx is imported only by a replay)."""
    import httpx

    class CutStream(httpx.AsyncByteStream):
        async def __aiter__(self) -> Any:
            yield body
            raise fault

    return CutStream()


# a saved stream's file suffix (run --stream --save, stream_framing.SAVE_SUFFIX) -> the content type it replays with
_STREAM_TYPES = {".sse": "text/event-stream", ".ndjson": "application/x-ndjson",
                 ".eventstream": "application/vnd.amazon.eventstream"}


def _saved_stream(body: bytes, content_type: str) -> bool:
    """Whether a recorded body is a stream: saved as one, or SSE by its first bytes (an older .txt save)."""
    return content_type in _STREAM_TYPES.values() or body.lstrip()[:6] in (b"data: ", b"event:")


def _streamed(request: Any) -> bool:
    """Whether a request asks for a stream (a body's "stream": true, Gemini's :streamGenerateContent, Bedrock's
    /converse-stream)."""
    return b'"stream":true' in request.content or "stream" in request.url.path.lower()


@dataclass
class Replay:
    """``--replay DIR``: the transcripts found there, one per loop (``jobs.run`` replays each once: ``check_run``)."""

    transcripts: list[Transcript]

    def transcript(self, index: int) -> Transcript:
        return self.transcripts[min(index, len(self.transcripts)) - 1]

    def check_run(self, repeat: int, save: Path | None) -> None:
        """``repeat`` loops of a replay: at most the recorded ones, each replayed once (the last loop replayed again
        gives the same verdicts, which --repeat's tallies would count as another sample); ``save``: not the folder
        the recording's ``<provider>/loop-NNN/`` is in (``prepare_loop_save`` clears an earlier run's loops there)."""
        for t in self.transcripts if save is not None else ():
            try:  # the folder as it is, not as spelled (a link to it, or sub/.., names no loop-NNN)
                folder = t.folder.resolve()
                inside = (folder.is_dir() and re.fullmatch(r"loop-\d+", folder.name) is not None
                          and save.resolve() == folder.parent.parent)
            except (OSError, RuntimeError):  # a link's loop: not the recording's folder
                inside = False
            if inside:
                raise argument_error("save", f" {save}: it holds the recording being replayed ({t.folder}): saving "
                                             "there would replace it", "save into another folder")
        held = len(self.transcripts)
        if repeat > max(1, held):
            from .errors import out_of_range

            raise out_of_range("repeat", str(repeat), f"at most {held}: the recording holds {held} loop"
                               f"{'s' if held != 1 else ''}, each replayed once (the same loop again gives the same "
                               "verdicts, not another sample)")

    def files(self) -> list[Path]:
        """What the replay reads: each transcript's folder's files (a --trace-out over a step file would replace it),
        or the recording itself (a HAR, a trace)."""
        read: list[Path] = []
        for t in self.transcripts:
            try:
                read.extend([p for p in sorted(t.folder.iterdir()) if p.is_file()] if t.folder.is_dir() else [t.folder])
            except OSError:
                read.append(t.folder)
        return read

    def check_stream(self, provider: str, stream: bool) -> None:
        """Saved streams replay only as streams (the recorded bytes answer the request as sent): said before
        the run (``jobs.run`` asks, for the command line too), as bad input, not as a failed step. The reverse
        replays: a saved reply answers a streamed request whole, as a server that does not stream would."""
        for t in self.transcripts:
            body = t.bodies.get(1)
            if not stream and t.provider == provider and body and _saved_stream(body[1], body[2]):
                raise _unreplayable((f" {t.folder}: step 1 is a saved stream: replay it with ", ""), names=("stream",))


# what a replay error's words call the arguments they name, to a Python caller (the command line: cli/exits.py)
_SPELLING = {"save": "jobs.run(save=...)", "run.save": "jobs.run(save=...)", "stream": "RenderOptions(stream=True)"}


def _unreplayable(said: str | tuple[str, ...], *hint_parts: str, names: tuple[str, ...] = ()) -> ArgumentError:
    """What is given to replay cannot be replayed: the ``ArgumentError`` of ``replay`` (``jobs.run``'s, the command
    line's --replay), the other arguments its words name (``names``: a run's ``save``, ``stream``, ``provider``) in
    a Python caller's words; the command line says its options instead, byte for byte its words before."""
    return argument_error("replay", said, *hint_parts, names=names, spelling=_SPELLING)


@says_no_key
def load_replay(folder: str | os.PathLike[str], provider: str) -> Replay:
    """Find the transcripts under ``folder`` (a ``str`` or a path): ``<provider>/loop-NNN/`` (what --save writes),
    ``loop-NNN/``, or step files directly in ``folder`` (``step-01.response.json``, ``step-1.json``);
    a folder with one other provider's transcripts replays those rendered for ``provider``."""
    from .call_args import folder as folder_arg
    from .registry import check_provider

    folder = folder_arg(folder, "folder")
    check_provider(provider)
    if not folder.is_dir():
        raise _unreplayable(f" {folder}: no such folder", "give the folder ", " wrote", names=("save",))
    candidates = [folder / provider, folder]
    others = sorted(p for p in folder.iterdir() if p.is_dir() and _loop_dirs(p))
    candidates.extend(others)
    for base in candidates:
        dirs = _loop_dirs(base) if base.is_dir() else []
        if dirs:
            return Replay([_transcript(d, provider) for d in dirs])
        if base.is_dir() and _step_files(base):
            return Replay([_transcript(base, provider)])
    raise _unreplayable(f" {folder}: no saved loop found", "give the folder ",
                        " wrote, or one with step-01.response.json, step-02...", names=("run.save",))


def saved_providers(folder: str | os.PathLike[str]) -> list[str]:
    """The provider ids ``folder`` holds a saved run of (``<provider>/loop-NNN/``, what --save writes); [] where it
    holds none, or cannot be read."""
    from .capabilities import PROVIDER_IDS

    try:
        return [p.name for p in sorted(Path(folder).iterdir()) if p.name in PROVIDER_IDS and p.is_dir() and
                _loop_dirs(p)]
    except OSError:
        return []


def _loop_dirs(base: Path) -> list[Path]:
    return sorted(_not_linked(p) for p in base.iterdir()
                  if p.is_dir() and re.fullmatch(r"loop-\d+", p.name) and _step_files(p))


def _step_files(base: Path) -> dict[int, Path]:
    found: dict[int, Path] = {}
    for p in sorted(base.iterdir()):
        m = _STEP_FILE.fullmatch(p.name)
        if m and p.is_file():
            number = int(m.group(1))
            if number in found:  # which one answers would be the directory's order: say so instead
                raise _unreplayable(f": {found[number]} and {p.name} both answer step {number}", "keep one of them")
            found[number] = _not_linked(p)
    return found


def _not_linked(path: Path) -> Path:
    """A transcript's folders and files as --save wrote them: a symbolic link in a shared or downloaded run folder
    could make the replay read, and show, any file of this machine (found by an adversarial run)."""
    if path.is_symlink():
        raise _unreplayable(f": {path} is a symbolic link, not a file of the transcript", "replay the folder ",
                            " wrote, without links", names=("run.save",))
    return path


def _transcript(base: Path, provider: str) -> Transcript:
    from .bounded import DuplicateKey, Unreadable, json_loads, no_constant, read_file, unique_keys  # as any input
    from .model import ToolchoiceError

    bodies: dict[int, tuple[int, bytes, str]] = {}
    replies: dict[int, dict[str, Any]] = {}
    recorded = provider
    for number, path in sorted(_step_files(base).items()):
        reply_file = base / f"step-{number:02d}.reply.json"
        saved: dict[str, Any] = {}
        if reply_file.is_file():
            _not_linked(reply_file)
            try:
                loaded = json_loads(read_file(reply_file, "transcript"), parse_constant=no_constant,
                                    object_pairs_hook=unique_keys)
            except DuplicateKey as exc:  # json.loads would replay the last of the two and drop the first unsaid
                raise ToolchoiceError(str(exc), path=str(reply_file), line=exc.line, hint="keep one of them") from None
            except Unreadable as exc:  # JSON past a bound (json_depth, the digit limit): said, never "not JSON"
                raise _unreplayable(f": {reply_file} cannot be read: {exc}") from None
            except ValueError as exc:
                raise _unreplayable(f": {reply_file} is not JSON: {exc}") from None
            if not isinstance(loaded, dict) or not isinstance(loaded.get("reply", {}), dict):
                raise _unreplayable(f": {reply_file} is not a step's reply file (a JSON object with 'reply' an "
                                    f"object; found {type(loaded).__name__})", "give the folder ", " wrote",
                                    names=("run.save",)) from None
            problem = (_step_problem(loaded) or _reply_problem(loaded.get("reply") or {})
                       or _results_problem(loaded.get("results")))
            if problem is not None:
                raise _unreplayable(f": {reply_file}: {problem}", "give the folder ",
                                    " wrote, or keep the reply as it wrote it", names=("run.save",))
            saved = loaded
            replies[number] = saved
            recorded = saved.get("provider") or recorded
        status = saved.get("status") if isinstance(saved.get("status"), int) else 200
        content_type = "application/json" if path.suffix == ".json" else _STREAM_TYPES.get(path.suffix, "text/plain")
        bodies[number] = (status, read_file(path, "transcript", limit="reply_bytes"), content_type)
        if not saved:
            _check_family(path, bodies[number][1], provider)
    return Transcript(base, recorded, bodies, replies)


def _check_family(path: Path, body: bytes, provider: str) -> None:
    """A bare step body (no reply file saying who answered) replays as ``provider``'s reply: one of another API
    family's documented shape (an OpenAI body replayed with -p anthropic) ended the loop in "response body is not a
    anthropic reply" (found by an adversarial run). Said here, with the -p that reads it."""
    from .bounded import json_value
    from .sniff import foreign_kind

    try:
        foreign = foreign_kind(provider, json_value(body))
    except ValueError:
        return  # not JSON: the step's reply says so as it is judged
    if foreign is None:
        return
    what, suggestion = foreign
    raise _unreplayable(f": {path} looks like {what}, not a reply in {provider}'s format (a step body without its "
                        "step-NN.reply.json replays only on the provider that answered it)", "replay it with ",
                        f" {suggestion}; to see it on {provider}, replay the folder ",
                        " wrote, whose reply files replay on any provider", names=("provider", "run.save"))


_TEXT = (str, type(None))
_CALL_FIELDS: dict[str, tuple[type, ...]] = {
    "id": _TEXT, "name": (str,), "arguments": (dict, type(None)), "raw_arguments": _TEXT, "arguments_error": _TEXT,
    "input": _TEXT, "signature": _TEXT, "caller": _TEXT}
_REASONING_FIELDS: dict[str, tuple[type, ...]] = {
    "family": (str,), "text": _TEXT, "signature": _TEXT, "encrypted": _TEXT, "redacted": (bool,), "id": _TEXT,
    "summary": (list,), "position": (int,)}
_SERVER_FIELDS: dict[str, tuple[type, ...]] = {
    "kind": (str,), "id": _TEXT, "name": _TEXT, "server": _TEXT, "loaded": (list,), "error": _TEXT}


def _step_problem(data: dict[str, Any]) -> str | None:
    """What in a saved step's own fields is not what ``--save`` writes: each is shown as the step's (``"latency_ms":
    "slow"`` was "internal error: ValueError", exit 70, replayed on another provider; 1e400 was "Infinity", no JSON,
    in ``-f json``)."""
    import math

    for key, kinds, said in (("provider", (str,), "a provider id"), ("status", (int,), "a whole number"),
                             ("latency_ms", (int, float), "a number of 0 or more")):
        value = data.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, kinds):
            return f"{key} must be {said} or null, not {type(value).__name__}"
        if key == "latency_ms" and not (math.isfinite(value) and value >= 0):  # 1e400: "Infinity" in -f json
            return f"latency_ms must be {said} or null, not {value}"
    return None


def _reply_problem(data: Any) -> str | None:
    """What in a saved step's ``reply`` is not what ``Reply.to_json()`` writes (a transcript edited by hand), so
    replay says which file and key instead of failing the loop on a Python error (found by an adversarial run)."""
    if not isinstance(data, dict):
        return f"'reply' must be an object, not {type(data).__name__}"
    for key in ("text", "finish_reason"):
        if not isinstance(data.get(key), _TEXT):
            return f"reply.{key} must be a string or null, not {type(data[key]).__name__}"
    lists = (("tool_calls", _CALL_FIELDS, ("name",)), ("reasoning", _REASONING_FIELDS, ("family",)),
             ("server_calls", _SERVER_FIELDS, ("kind",)))
    for key, fields, required in lists:
        items = data.get(key) or []
        if not isinstance(items, list):
            return f"reply.{key} must be a list, not {type(items).__name__}"
        for n, item in enumerate(items):
            if not isinstance(item, dict):
                return f"reply.{key}[{n}] must be an object, not {type(item).__name__}"
            for name in required:
                if name not in item:
                    return f"reply.{key}[{n}] has no '{name}'"
            for name, value in item.items():
                wanted = fields.get(name)
                if wanted is not None and (not isinstance(value, wanted) or isinstance(value, bool) and bool not in wanted):
                    return f"reply.{key}[{n}].{name} cannot be {type(value).__name__}"
                if isinstance(value, list) and not all(isinstance(v, str) for v in value):
                    return f"reply.{key}[{n}].{name} must be a list of strings"
    for key, fields in (("usage", ("input_tokens", "output_tokens")), ("error", ("status",))):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, dict):
            return f"reply.{key} must be an object or null, not {type(value).__name__}"
        for name in fields:
            if value.get(name) is not None and (isinstance(value[name], bool) or not isinstance(value[name], int)):
                return f"reply.{key}.{name} must be a whole number or null"
    error = data.get("error")
    if isinstance(error, dict) and not isinstance(error.get("message", ""), str):
        return "reply.error.message must be a string"
    if isinstance(error, dict) and not isinstance(error.get("type"), _TEXT):
        return "reply.error.type must be a string or null"
    return None


def _results_problem(results: Any) -> str | None:
    """What in a saved step's ``results`` is not what ``--save`` writes (each replays as the call's result)."""
    if results is None:
        return None
    if not isinstance(results, list):
        return f"results must be a list, not {type(results).__name__}"
    for n, item in enumerate(results):
        if not isinstance(item, dict):
            return f"results[{n}] must be an object, not {type(item).__name__}"
        if not isinstance(item.get("content"), str) or not isinstance(item.get("name"), (str, type(None))):
            return f"results[{n}] must have 'content' a string and 'name' a string"
        if not isinstance(item.get("is_error", False), bool):
            return f"results[{n}].is_error must be true or false"
    return None


def reply_from_json(data: dict[str, Any]) -> Reply:
    """``Reply.to_json()`` read back (calls with their signatures, reasoning state)."""
    calls = tuple(ToolCall(c.get("id"), c.get("name", ""), c.get("arguments"), c.get("raw_arguments"),
                           c.get("arguments_error"), input=c.get("input"), signature=c.get("signature"),
                           caller=c.get("caller"))
                  for c in data.get("tool_calls") or [])
    server = tuple(ServerCall(**{k: (tuple(v) if k == "loaded" else v) for k, v in item.items()
                                 if k in ServerCall._fields})
                   for item in data.get("server_calls") or [] if isinstance(item, dict) and "kind" in item)
    usage = data.get("usage") or {}
    error = data.get("error")
    reasoning = tuple(ReasoningItem(**{k: (tuple(v) if k == "summary" else v) for k, v in item.items()
                                       if k in ReasoningItem._fields})
                      for item in data.get("reasoning") or [])
    return Reply(calls, data.get("text"), data.get("finish_reason"),
                 Usage(usage.get("input_tokens"), usage.get("output_tokens")),
                 ProviderError(error.get("status"), error.get("type"), error.get("message", "")) if error else None,
                 upstream=data.get("upstream"), reasoning=reasoning, server_calls=server,
                 stop_details=data.get("stop_details") if isinstance(data.get("stop_details"), dict) else None)
