"""A saved request (``proxy`` / ``mock`` / ``send --save DIR``: ``sample-NNN.request.json``) → the neutral scenario
that sends it again, on any provider (``toolchoice trace SAVED``).

The body is read by its provider's family module, the reader the mock and the proxy judge requests with
(``mock_read``, registry.mock_family): tools, tool_choice as on the wire, the history with its calls and results,
the system prompt, the settings that have a neutral form (model, max_tokens, temperature, thinking,
parallel_tool_calls). What the body holds that has no neutral form is kept under ``providers.<id>.extra`` (the
body's own top-level fields the family does not model), and said: the scenario is rendered back for the recorded
provider and every top-level field that does not come back as recorded is a ledger note (``saved.*``), so nothing
goes away unsaid. A saved request is already redacted (``[redacted]`` in place of every key); nothing of its
headers is carried but a ``*-beta`` header, the API's own opt-in, and the others are named (saved_headers).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, NamedTuple, overload
from urllib.parse import urlsplit

from .error_keys import says_no_key
from .errors import named
from .model import LedgerEntry, ToolchoiceError
from .saved_headers import carried_headers
from .saved_key_refs import Ref, key_refs, paired_keys
from .saved_diff import (CHOICE_FIELDS, CHOICE_HOLDERS, RENAMED, SYSTEM_KEYS, at_path, beside_choice, differences,
                         item_members, member_paths, missing_members, renamed_field, same_data, short_json, system_lost)
from .yaml_input import whole_characters

SAMPLE = re.compile(r"sample-([0-9]+)\.request\.json")  # ASCII digits: int() reads "١" as 1 too
STEP = re.compile(r"step-([0-9]+)\.request\.json")  # run --save DIR: DIR/<provider>/loop-NNN/step-NN.request.json
LISTED = 200  # samples whose reply file the listing reads
# a Python caller's words for what the command line says with an option or a command (cli/exits.py _OPTIONS:
# -p, `run --save`, `--sample N`, ...); the errors of import_saved name these
PYTHON = {"provider": "the provider argument", "saved.run_save": "jobs.run(save=...)",
          "saved.takers": "load_scenario reads", "saved.trace": "import_saved reads",
          "saved.writers": "running_mock(save_dir=...), toolchoice proxy --save or jobs.send(save=...)",
          "saved.sample": "sample=N", "saved.provider_as": "provider="}
# what a saved request is and where it comes from, split where it names what writes one and how a folder's sample
# is picked: a Python caller reads PYTHON's words, the command line its own (`--sample N`), never both
HINT_PARTS = ("give a sample-NNN.request.json that ", " wrote, or their folder with ", "")
HINT_NAMES = ("saved.writers", "saved.sample")
HINT = HINT_PARTS[0] + PYTHON["saved.writers"] + HINT_PARTS[1] + PYTHON["saved.sample"]


def _hinted(error: ToolchoiceError) -> ToolchoiceError:
    """``error`` with the record of its hint where that is ``HINT`` (its words a Python caller's), so the command
    line says its own (``errors.named``'s record: cli/exits.in_command_words)."""
    if error.hint == HINT and not error.names:
        error.hint_parts, error.names = HINT_PARTS, HINT_NAMES
    return error


class SavedScenario(NamedTuple):
    data: dict[str, Any]  # the scenario, as a scenario file writes it
    notes: list[LedgerEntry]
    provider: str
    file: Path
    # a HAR's one provider call (trace_har.import_har without a sample): how run --replay replays it (a
    # har_replays.Replay, none where it cannot be), as a Listing's conversations
    replays: tuple[Any, ...] = ()


def is_saved(path: Path) -> bool:
    """A save folder or a saved request, as ``trace`` tells one from a trace file: ``run --save``'s step requests
    (``step-NN.request.json``, the same form, their ``.reply.json`` naming the provider) too."""
    return path.is_dir() or SAMPLE.fullmatch(path.name) is not None or STEP.fullmatch(path.name) is not None


def samples(folder: Path) -> dict[int, Path]:
    """The folder's saved requests by sample number."""
    try:
        names = sorted(p.name for p in folder.iterdir())
    except OSError as exc:
        raise _hinted(ToolchoiceError(f"{folder}: cannot read the folder: {exc.strerror}", hint=HINT)) from None
    found: dict[int, Path] = {}
    for name in names:
        if (m := SAMPLE.fullmatch(name)) is None:
            continue
        number = int(m.group(1))
        if number in found:  # sample-1 and sample-001: picking either would leave the other unsaid
            raise ToolchoiceError(f"{folder}: {found[number].name} and {name} are both sample {number}",
                                  hint="move one of them out of the folder")
        found[number] = folder / name
    found = dict(sorted(found.items()))
    if not found:
        said = f"{folder}: no sample-NNN.request.json in the folder"
        run_saved = _run_saved(folder)
        raise _hint_named(said, run_saved) if run_saved else _hinted(ToolchoiceError(said, hint=HINT))
    return found


def _run_saved(folder: Path) -> tuple[str, ...] | None:
    """The hint for a folder ``run --save`` wrote (``loop.json`` and step files, or ``<provider>/loop-NNN/`` below)."""
    for pattern in ("loop.json", "loop-*/loop.json", "*/loop-*/loop.json"):
        found = sorted(folder.glob(pattern))[:1]
        if found:
            loop = found[0].parent
            steps = sorted(p.name for p in loop.iterdir() if STEP.fullmatch(p.name))
            step = ("; or one step's request: ", f" {loop / steps[0]}") if steps else ("",)
            return ("a ", f" folder: {loop / 'scenario.yaml'} is that loop's scenario with its whole history, which ",
                    *step)
    return None


def _hint_named(message: str, hint: tuple[str, ...]) -> ToolchoiceError:
    """The error of ``message`` whose hint names what ``run --save`` wrote (``_run_saved``'s parts)."""
    names = ("saved.run_save", "saved.takers", "saved.trace")[:len(hint) - 1]
    return named((message,), *hint, names=names, spelling=PYTHON)


def pick(path: Path, sample: int | None) -> Path | list[dict[str, Any]]:
    """The request file ``path`` and ``sample`` name; a folder of several without ``sample``: what each holds."""
    if not path.is_dir():
        if sample is not None:  # the command line's --sample, a Python caller's sample=N
            raise named((f"{path}: ", " picks a sample in a folder; this is one file"), "drop ", ", or give the folder",
                        names=("sample", "sample"), spelling={"sample": f"sample={sample}"})
        return path
    found = samples(path)
    if sample is None:
        if len(found) == 1:
            return next(iter(found.values()))
        # what each asked is read from the first LISTED samples' reply files; past them, their names only
        return [describe(n, f) if i < LISTED else {"sample": n, "file": f.name}
                for i, (n, f) in enumerate(found.items())]
    if sample not in found:
        shown = ", ".join(map(str, list(found)[:20])) + (", ..." if len(found) > 20 else "")
        raise ToolchoiceError(f"{path}: no sample {sample} (the folder holds {shown})", hint="pick one of those")
    return found[sample]


def describe(number: int, file: Path) -> dict[str, Any]:
    """One line of the listing: the sample, its provider and what it asked (from the reply file the save wrote)."""
    line = _reply_line(file)
    row: dict[str, Any] = {"sample": number, "file": file.name}
    findings = [f for f in line.get("findings") or () if isinstance(f, dict)]
    unread = any(f.get("code") in _UNREAD for f in findings)  # a path the mock or proxy did not read: it asked nothing
    for key in ("provider", "path", "model", "requested", "offered_tools", "thinking"):
        if line.get(key) is not None and not (unread and key in ("requested", "offered_tools")):
            row[key] = line[key]
        elif key == "requested" and key in line and not unread:
            row[key] = "(none sent)"  # as the HAR listing says it: the request carried no tool_choice
    # what the line said of the step: its status, answer, verdict (proxy) and findings (the ones between steps,
    # pitfall.forced_after_tool_result, mock.result_dropped, ...), codes only: the messages are in the reply file
    if isinstance(line.get("status"), int):
        row["status"] = line["status"]
    # a mock's or proxy's line has calls and a verdict word; send --save's reply file, the parsed reply and the
    # verdict record (its calls were read as none: "answered: text" for a sample that called the tool)
    parsed = line.get("reply") if isinstance(line.get("reply"), dict) else {}
    calls = [c.get("name") for c in line.get("calls") or parsed.get("tool_calls") or () if isinstance(c, dict)]
    if calls or line.get("status") == 200:
        row["answered"] = calls or "text"
    verdict = line.get("verdict")
    if isinstance(verdict, dict) and isinstance(verdict.get("category"), str):
        verdict = verdict["category"]
    if isinstance(verdict, str):
        row["verdict"] = verdict
    results = [r for r in line.get("results") or () if isinstance(r, dict)]
    if results:  # each result's call and the sample whose answer made it, as the mock's pretty line writes them
        row["results"] = [f"{r.get('id')}←#{r.get('from') if r.get('from') is not None else '?'}" for r in results]
    if isinstance(line.get("reasoning_from"), list):  # the sample whose answer handed out each turn's reasoning state
        row["reasoning"] = [f"←#{n if n is not None else '?'}" for n in line["reasoning_from"]]
    said = [f"{f.get('severity')} {f.get('code')}" + (f": {f.get('message')}" if f.get("severity") == "error" else "")
            for f in findings if not str(f.get("code")).startswith("verdict.")]
    if said:
        row["findings"] = said
    return row


_UNREAD = ("mock.unknown_path", "proxy.not_judged")


def _reply_line(file: Path) -> dict[str, Any]:
    """The sample's ``.reply.json`` (provider, path, requested ...), {} when there is none or it does not read."""
    from .bounded import read_json_file

    reply = file.with_name(file.name.replace(".request.json", ".reply.json"))
    try:
        # a FIFO, /dev/tty or /dev/stdin planted as the reply file (a save folder from elsewhere) would block
        value = read_json_file(reply, "reply", regular_only=True)
    except (ToolchoiceError, OSError):
        return {}
    return value if isinstance(value, dict) else {}


def read_saved(file: Path, regular_only: bool = True) -> tuple[str, str, Any]:
    """method, URL path and body of a saved request; one line naming the file for what is not one."""
    from .bounded import read_json_file

    name = str(file)
    # bounded; not JSON: file:line:col, exit 2
    try:
        document = read_json_file(file, "saved request", hint=HINT, regular_only=regular_only)
    except ToolchoiceError as exc:
        raise _hinted(exc) from None
    if not isinstance(document, dict) or not isinstance(document.get("body"), dict) \
            or not isinstance(document.get("url"), str):
        from .input_forms import other_form

        other = other_form(document)  # a HAR, a request body alone: what to make of it
        raise _hinted(ToolchoiceError(f"{name}: {other[0] + '; ' if other else ''}not a saved request (an object "
                                      "with a url and a JSON body; method and headers optional)",
                                      hint=other[1] if other else HINT))
    method = document.get("method") if isinstance(document.get("method"), str) else "POST"
    return method.upper(), urlsplit(document["url"]).path or "/", document


@overload
def import_saved(path: str | os.PathLike[str], sample: int, provider: str | None = None) -> SavedScenario: ...


@overload
def import_saved(path: str | os.PathLike[str], sample: None = None, provider: str | None = None
                 ) -> SavedScenario | list[dict[str, Any]]: ...


@says_no_key
def import_saved(path: str | os.PathLike[str], sample: int | None = None, provider: str | None = None
                 ) -> SavedScenario | list[dict[str, Any]]:
    """The scenario of one saved request (a file, or a folder and ``sample``); a folder of several samples and no
    ``sample``: the listing. ``provider``: the family that wrote the body (else the save's reply file says).
    ``load_scenario_dict(saved.data)`` reads the scenario (docs/python.md, "Read a saved request back")."""
    from . import call_args
    from .registry import check_provider

    path = call_args.path_arg(path)
    call_args.whole_number(sample, "sample", 0, optional=True)
    if provider is not None and not isinstance(provider, str):
        raise call_args.wrong("provider", "a provider id (str) or None", provider)
    found = pick(path, sample)
    if isinstance(found, list):
        return found
    file = found
    # a FIFO or a link to /dev/tty would wait for ever, /dev/zero is read to the limit: a regular file, named or found
    method, route_path, document = read_saved(file)
    recorded = _reply_line(file).get("provider")
    if provider is None:
        if not isinstance(recorded, str):
            raise named((f"{file}: no {file.name.replace('.request.json', '.reply.json')} beside it names the "
                         "provider",), "name the API the request was sent to with ", " (openai, anthropic, ...)",
                        names=("provider",), spelling=PYTHON)
        try:  # the reply file's word (a save from elsewhere may name anything): the file is named with it
            provider = check_provider(recorded)
        except ToolchoiceError as exc:
            reply = file.name.replace(".request.json", ".reply.json")
            said = f"{exc.hint} or name" if exc.hint and exc.hint.startswith("did you mean") else "name"
            raise named((f"{file.with_name(reply)}: the provider it names: {exc.message}",),
                        f"{said} the API the request was sent to with ", "", names=("provider",),
                        spelling=PYTHON) from None
    return read_request(file, method, route_path, document, provider, recorded)


def read_request(file: Path, method: str, route_path: str, document: dict[str, Any], provider: str,
                 recorded: Any = None, hint: str = HINT) -> SavedScenario:
    """The scenario of one request (``document``: its ``url``, JSON ``body`` and optional ``headers``) sent to
    ``provider``'s API, ``file`` naming it in every line (a saved request, a HAR's entry)."""
    from .mock.body_secrets import MARKER, scrub_module, secrets
    from .mock.judge import MockMalformed
    from .redaction import Redactor
    from .registry import check_provider, mock_family

    provider = check_provider(provider)
    family = mock_family(provider)
    route = family.mock_route(method, route_path)
    if route is None:
        from .mock.service import served_by

        other = served_by(provider, method, route_path)  # openai-agents' /v1/responses saved by a -p openai mock
        if other is not None:
            raise named((f"{file}: {method} {route_path} is not a request of {provider}'s API but of {other}'s",),
                        "read it as one with ", f"'{other}'", names=("saved.provider_as",), spelling=PYTHON)
        raise named((f"{file}: {method} {route_path} is not a request of {provider}'s API",),
                    "name the provider the request went to with ", "", names=("provider",), spelling=PYTHON)
    per_host = {"provider": provider} if getattr(family, "MOCK_PER_HOST", False) else {}
    # an MCP server's token in the body (a save made by hand or by another tool; ours hold [redacted] there already)
    # is never printed: replaced where the family's MOCK_SECRETS say, and anywhere else it is quoted
    scrubbed = scrub_module(family, document["body"])
    document = {**document, "body": whole_characters(scrubbed.body, halves := [0], shared=True)}  # as run --save's transcript
    try:
        read = family.mock_read(document["body"], route, **per_host)
    except MockMalformed as exc:
        raise _hinted(ToolchoiceError(f"{file}: {provider}'s API cannot read this body: {str(exc)[:200]}",
                                      hint=hint)) from None
    except (TypeError, AttributeError, KeyError, IndexError, ValueError) as exc:  # a value of a kind the reader
        # does not expect where the API's own validation would refuse it (a tool_calls that is not a list)
        raise _hinted(ToolchoiceError(f"{file}: {provider}'s request body does not read: {type(exc).__name__}: "
                                      f"{(str(exc).splitlines() or [''])[0][:160]}", hint=hint)) from None
    from .bounded import TooDeep

    try:
        saved = build(file, provider, document, read, recorded, halves)
    except TooDeep as exc:  # a JSON text in it (a call's arguments), which the mock's reading took as {}
        raise ToolchoiceError(f"{file}: the saved request does not make a valid scenario: a JSON text in it (a "
                              f"call's arguments): {exc}") from None
    saved.notes.extend(LedgerEntry("warning", "saved.lone_surrogate", f"{n} lone surrogate{'s' * (n > 1)} in the "
                                   "request (half a character, which no scenario holds: a JSON \\ud800 escape, as "
                                   "json.loads reads it) read as U+FFFD") for n in halves if n)
    if not scrubbed.values:
        return saved
    redactor = Redactor(secrets(scrubbed.values))
    notes = [e._replace(message=redactor.text(e.message)) for e in saved.notes]
    notes.append(LedgerEntry("warning", "saved.redacted", f"{len(scrubbed.values)} key(s) in the request body (an "
                             f"MCP server's token or URL key) written as {MARKER}: put the key in a variable"))
    return saved._replace(data=redactor.data(saved.data), notes=notes)


def build(file: Path, provider: str, document: dict[str, Any], read: Any, recorded: Any = None,
          halves: list[int] | None = None) -> SavedScenario:
    """The scenario data from the family's reading (``MockRead``), checked by the scenario loader, with the notes."""
    from .choice import parse_tool_choice
    from .loop_records import message_json
    from .trace_scenario import _tool_data

    body = document["body"]
    notes = [LedgerEntry("info", "saved.imported", f"{file}: {document.get('method', 'POST')} "
                         f"{urlsplit(document['url']).path} read as {provider}'s request")]
    if isinstance(recorded, str) and recorded != provider:
        notes.append(LedgerEntry("warning", "saved.provider", f"the save says {recorded}; read as {provider} (-p)"))
    notes.extend(read.notes)
    if read.refusal:
        notes.append(LedgerEntry("warning", "saved.refused", f"{provider}'s API refuses this request as it was "
                                 f"sent: {read.refusal}"))
    tools = [_tool_data(t) for t in read.tools] + [{"type": t.kind, **dict(t.fields)} for t in read.native_tools]
    names = tuple(t.name for t in read.tools)
    data: dict[str, Any] = {"description": f"imported from {file.name}: the {provider} request as it was sent"}
    if tools:
        data["tools"] = tools
    extra = {k: body[k] for k in read.unjudged if k in body}
    if read.requested is not None:
        def fail(message: str, hint: str | None = None) -> ToolchoiceError:
            return ToolchoiceError(message, hint=hint)

        try:
            choice = parse_tool_choice(read.choice_value if read.choice_value is not None else read.requested,
                                       names, fail)
        except ToolchoiceError as exc:
            notes.append(LedgerEntry("warning", "saved.tool_choice_unreadable",
                                     f"the request's tool_choice {json.dumps(read.requested)[:200]} has no neutral "
                                     f"form ({exc.message}): kept as written in providers.{provider}.extra"))
            choice = None
            extra.update({k: body[k] for k in _choice_keys(body, read.requested)})
        if choice is not None:
            data["tool_choice"] = choice.to_json()
    if read.parallel is not None:
        data["parallel_tool_calls"] = read.parallel
    messages = [message_json(m) for m in read.messages]
    if read.system:
        if read.system_role == "developer":
            messages.insert(0, {"role": "developer", "content": read.system})
        else:
            data["system"] = read.system
    data["messages"] = messages
    refs: dict[str, Ref] = {}  # a key-shaped value -> its stand-in and $NAME reference
    settings = _settings(read, document, notes, provider, refs)
    data["providers"] = {provider: settings or None}
    memo: dict[str, Any] = {}
    data = whole_characters(data, halves if halves is not None else [0])  # one the reading decoded (arguments)
    _check(file, data, memo)
    # the body's fields the family reads but the scenario has no place for (store, include, n, ...): rendered back
    # for the provider they would be missing, so they are kept as written too; a stream is --stream's, not the body's.
    # Members beside a neutral one (generationConfig.topK beside the temperature, thinking.display): kept as the
    # members the rendering lacks, which extra merges back into the translated object (request_parts.merge_extra)
    again = _rendered(file, provider, data, memo)
    kept = sorted(extra)
    if again is not None:
        for key, value in body.items():
            if key in extra or key in _STREAM:
                continue
            if key not in again:
                if renamed_field(key, body, again) is None:
                    extra[key] = value
            elif not same_data(value, again[key]):
                added = (missing_members(value, again[key]) if key not in CHOICE_FIELDS else
                         beside_choice(value, again[key]) if key in CHOICE_HOLDERS else {})
                if added:
                    extra[key] = added
                    kept.extend(f"{key}.{path}" for path in member_paths(added))
    kept += [k for k in extra if k not in kept and not any(p.startswith(f"{k}.") for p in kept)]
    if extra:
        settings["extra"] = key_refs(extra, f"providers.{provider}.extra", "", False, refs, paired=paired_keys(extra))
        data["providers"] = {provider: settings}
        notes.append(LedgerEntry("info", "saved.kept", f"{', '.join(sorted(kept))}: no neutral form; kept as written "
                                 f"in providers.{provider}.extra (sent to {provider} only)"))
    if not refs:
        return SavedScenario(data, notes + _unsaid(file, provider, data, body, read, memo), provider, file)
    # compared with the recorded body holding the same stand-ins: the same, not a difference to quote
    notes += _unsaid(file, provider, data, key_refs(body, "", "", False, refs, only=True), read, memo)
    return _referenced(file, data, notes, provider, refs)


def _referenced(file: Path, data: dict[str, Any], notes: list[LedgerEntry], provider: str,
                refs: dict[str, Ref]) -> SavedScenario:
    """The scenario with each stand-in its ``$NAME`` (checked by the loader again), the notes with the values
    redacted and the stand-ins their references, and one note saying where each went (never the value)."""
    from .mock.body_secrets import secrets
    from .redaction import Redactor

    named = {r.stand_in: r.reference for r in refs.values()}

    def swap(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return named.get(value, value) if isinstance(value, str) else value

    data = swap(data)
    _check(file, data)
    redactor = Redactor(secrets(refs))
    texts = [e._replace(message=redactor.text(e.message)) for e in notes]
    for stand_in, reference in named.items():
        texts = [e._replace(message=e.message.replace(stand_in, reference)) for e in texts]
    places = "; ".join(f"{r.where} as {r.reference}" for r in refs.values())
    names = [r.reference.rpartition('$')[2] for r in refs.values()]
    allow = " ".join(f"--allow-env {n}" for n in names)  # the command line's; a Python caller's is RenderOptions'
    texts.append(LedgerEntry("warning", "saved.key_env", f"{len(refs)} key-shaped value(s) in the request where the "
                             f"scenario would show them, written as a variable: {places} (export each key in its "
                             f"variable and send with {allow}; from Python, "
                             f"RenderOptions(allow_env=({', '.join(map(json.dumps, names))}{',' * (len(names) == 1)})))"))
    return SavedScenario(data, texts, provider, file)


_STREAM = ("stream", "stream_options")  # `send --stream` asks a stream; stream_options without it is a 400


def _rendered(file: Path, provider: str, data: dict[str, Any], memo: dict[str, Any]) -> dict[str, Any] | None:
    """The body the scenario renders for ``provider`` ({} when it renders none; None when it does not render)."""
    try:
        rendered = translated(provider, _check(file, data, memo)).request
    except ToolchoiceError:
        return None
    return rendered.body if rendered is not None else {}


def _choice_keys(body: dict[str, Any], requested: Any) -> list[str]:
    return [k for k, v in body.items() if v is requested] or [k for k in ("tool_choice", "toolConfig", "tool_config")
                                                               if k in body]


def _settings(read: Any, document: dict[str, Any], notes: list[LedgerEntry], provider: str,
              refs: dict[str, Ref]) -> dict[str, Any]:
    from .scenario import EFFORTS

    settings = read.settings
    out: dict[str, Any] = {}
    if read.model:
        out["model"] = read.model
    if settings.max_tokens is not None:
        out["max_tokens"] = settings.max_tokens
    if settings.temperature is not None:
        out["temperature"] = settings.temperature
    spec = settings.thinking_mode
    if spec is not None:
        thinking: dict[str, Any] = {"type": spec.mode}
        if spec.budget is not None:
            thinking["budget"] = spec.budget
        if spec.effort is not None and spec.effort in EFFORTS:
            thinking["effort"] = spec.effort
        out["thinking"] = thinking if len(thinking) > 1 or spec.mode == "adaptive" else spec.mode != "off"
    elif settings.thinking is not None:
        out["thinking"] = settings.thinking
    headers = carried_headers(document, provider, refs, notes)
    if headers is not None:
        out["headers"] = headers
    return out


_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufffe\uffff\ud800-\udfff]")


def _escaped(text: str) -> str:
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _check(file: Path, data: dict[str, Any], memo: dict[str, Any] | None = None) -> Any:
    """The scenario the loader reads from ``data``; ``memo``: read once for the same data (``build`` checks it,
    renders it back before extra is known, and again after, when extra is there). The last few read are kept
    (``_READ``): a HAR's call is checked by ``build`` and again by its verdict (trace_har.verdict_of), the same text."""
    from .saved_prefix import data_text, forget, resumed
    from .scenario import _loaded
    from .yaml_input import MAX_DEPTH, _json_deeper_than

    # JSON text kept readable, but for what YAML's reader refuses (DEL, C1, U+FFFE/FFFF, a lone surrogate) or reads
    # as a line break (NEL, LS, PS: folded in a quoted scalar): escaped, which valid JSON allows in a string
    text, messages_text = data_text(data, memo, _escaped)
    if memo is not None and text in memo:
        return memo[text]
    # a tools: [{from: FILE}] reads a file, which may change: read again each time
    key = (str(file), text) if '"from"' not in text else None
    if key is not None and key in _READ:
        scenario = _READ[key]
        if memo is not None:
            forget(memo)
            memo[text] = scenario
        return scenario
    try:  # json.dumps of data within MAX_DEPTH: libyaml composes it without looking for either bound again
        # (its conversation read on from the previous request's, where it starts with the same messages)
        scenario = resumed(str(file), data, _escaped, messages_text) or _loaded(text, str(file),
                                                                 shallow=not _json_deeper_than(data, MAX_DEPTH))
    except ToolchoiceError as exc:
        error = ToolchoiceError(f"{file}: the saved request does not make a valid scenario: {exc.message}",
                                hint=exc.hint)
        if not exc.said_parts:  # the hint's words that name an option: the command line spells them (--allow-env)
            error.hint_parts, error.names = exc.hint_parts, exc.names
        raise error from None
    if memo is not None:
        forget(memo)
        memo[text] = scenario
    if key is not None:
        while len(_READ) >= 2:  # the texts are a request's whole history: a few only
            del _READ[next(iter(_READ))]
        _READ[key] = scenario
    return scenario


def translated(provider: str, scenario: Any) -> Any:
    """``registry.translate(provider, scenario)``, or its ToolchoiceError raised, once for the last scenario ``_check``
    read: ``build`` renders it back twice where nothing goes to extra, and a HAR call's verdict a third time."""
    from .registry import translate

    last = _TRANSLATED.get(provider)
    if last is not None and last[0] is scenario:
        result = last[1]
    else:
        try:
            result = translate(provider, scenario)
        except ToolchoiceError as exc:
            result = exc
        _TRANSLATED.clear()
        _TRANSLATED[provider] = (scenario, result)  # the scenario held: its id is not another's while kept
    if isinstance(result, ToolchoiceError):
        raise result
    return result


_TRANSLATED: dict[str, tuple[Any, Any]] = {}
_READ: dict[tuple[str, str], Any] = {}  # (file, text) -> the scenario _check read from it, the last two


def _unsaid(file: Path, provider: str, data: dict[str, Any], body: dict[str, Any], read: Any,
            memo: dict[str, Any]) -> list[LedgerEntry]:
    """The scenario rendered back for ``provider``: every top-level field of the recorded body that does not come
    back as recorded, and every one the rendering adds, as a note (the ledger of what the neutral form loses)."""
    from .registry import mock_family

    notes: list[LedgerEntry] = []
    try:
        translation = translated(provider, _check(file, data, memo))
    except ToolchoiceError as exc:
        rendered, failed = None, exc.message
    else:  # refused by its own ledger (a $NAME the save kept in extra: env.not_allowed): that, not every field lost
        rendered = translation.request
        failed = "; ".join(f"{e.code}: {e.message}" for e in translation.ledger if e.severity == "error")
    again = rendered.body if rendered is not None else {}
    for field in read.unjudged:
        # a part of a field the family reads (a Gemini tools[] group's other key): said unless extra carries it back
        if field not in body and (rendered is None or not same_data(at_path(body, field), at_path(again, field))):
            notes.append(LedgerEntry("warning", "saved.not_carried", f"{field}: no neutral form, and inside a field "
                                     "the scenario writes: not carried"))
    if rendered is None and failed:
        return [*notes, LedgerEntry("warning", "saved.not_rendered", f"rendered back for {provider}: {failed}")]
    renamed: set[str] = set()
    for key in body:
        if key in again and same_data(again[key], body[key]):
            continue
        other = renamed_field(key, body, again) if key not in again else None
        if other is not None:
            renamed.add(other)
            notes.append(LedgerEntry("info", "saved.differs", f"{key}: sent as {other} when rendered back for "
                                     f"{provider} (the same value, {short_json(body[key])})"))
        elif key == "stream" and body[key] is False:  # LangChain's ChatOpenAI sends it: the scenario, sent without
            continue  # --stream, asks no stream either (OpenAI's default), so nothing is lost
        elif key not in again:
            why = " (the request streamed: send with --stream)" if key in _STREAM else ""
            notes.append(LedgerEntry("warning", "saved.not_carried",
                                     f"{key}: {short_json(body[key])} is not carried{why}"))
        elif key in SYSTEM_KEYS and (lost := system_lost(key, body[key], again[key], provider)) is not None:
            notes.append(lost)
        else:  # an input item's members the family says of (an echo of the API's output, an id it pairs on)
            recorded, said = item_members(getattr(mock_family(provider), "SAVED_ITEM_MEMBERS", {}), key, body[key],
                                          again[key], provider)
            notes += said
            found = [] if said and same_data(recorded, again[key]) else differences(recorded, again[key], key)
            more = f"; and {len(found) - 3} more" if len(found) > 3 else ""
            severity = "info" if all(f.endswith(RENAMED) for f in found) else "warning"
            if found:
                notes.append(LedgerEntry(severity, "saved.differs", f"{key}: rendered back for {provider} it differs: "
                                         + "; ".join(found[:3]) + more))
    if read.stream and not any(k in body for k in _STREAM):  # Gemini's, Bedrock's: the stream is in the path
        notes.append(LedgerEntry("warning", "saved.not_carried", "the request streamed (its path asks for a stream): "
                                 "not carried, send with --stream"))
    for key in again:
        if key not in body and key not in renamed:
            notes.append(LedgerEntry("info", "saved.added", f"{key}: {short_json(again[key])} is sent, not in the "
                                     f"recorded request ({provider}'s translation adds it)"))
    return notes


