"""What a Python caller hands the library, checked at the door (docs/python.md, "Wrong arguments"): a value of
the wrong type is one ``WrongArgument`` naming the parameter, what it takes and the type it got, raised before
anything is read or sent — never an AttributeError or a TypeError from deep inside. ``WrongArgument`` is a
``ToolchoiceError`` (so the command line's one-line rule holds) and a ``TypeError`` (so ``pytest.raises(TypeError)``
holds too). Values are never quoted, only their types: a caller's string may be a key put in the wrong place.

Forgiving where the intent is plain: one provider id as a ``str`` is a list of one; a folder as a ``str`` is a
``Path``. Everything here is an ``isinstance`` or two: the jobs call it on every call."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Sequence

from .model import RenderOptions, Scenario, ToolChoice, ToolchoiceError, Translation, WrongArgument

# the files a --save folder holds: send's, and (under <provider>/loop-NNN/) run's
SAMPLE_FILE = re.compile(r"sample-\d{3,}\.(request|response|reply)\.(json|txt|sse|ndjson|eventstream)")
LOOP_FILE = re.compile(r"step-\d+\.(request|response|reply)\.(json|txt)|scenario\.yaml|loop\.json")


def _kind(value: Any) -> str:
    return "None" if value is None else type(value).__name__


def wrong(name: str, takes: str, value: Any, hint: str | None = None) -> WrongArgument:
    return WrongArgument(f"{name}: give {takes}, not {_kind(value)}", hint=hint)


def scenario_arg(value: Any, name: str = "scenario") -> Scenario:
    if not isinstance(value, Scenario):
        raise wrong(name, "a Scenario", value, "load_scenario(path), load_scenario_text(yaml) or load_scenario_dict(data)")
    return value


def provider_ids(value: Any, name: str = "providers") -> list[str] | None:
    """Provider ids as a list (one ``str`` is a list of one); None stays None (the job's default: the scenario's
    providers, else every one, as the command line without -p). An empty list is refused: left empty by mistake (a
    filter that kept nothing), it would otherwise run every provider, or none."""
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if isinstance(value, (bytes, dict)) or not isinstance(value, (list, tuple, Sequence, set, frozenset)):
        raise wrong(name, "provider ids (a list of str, or one str)", value, 'e.g. ["openai", "anthropic"]')
    ids = list(value)
    if not ids:
        raise empty(name, "provider")
    for index, item in enumerate(ids):
        if not isinstance(item, str):
            raise wrong(f"{name}[{index}]", "a provider id (str)", item)
    return ids


def render_options(value: Any, name: str = "options", *, sendable: bool = True) -> RenderOptions:
    """``RenderOptions`` with fields of their types (None: the defaults); ``allow_env`` as one ``str`` would
    otherwise be read letter by letter. ``sendable``: the jobs' door, where a ``base_url`` no client can send to is
    refused as --base-url is; ``translate`` alone renders any base URL into the request (a dry run)."""
    if value is None:
        return RenderOptions()
    if not isinstance(value, RenderOptions):
        raise wrong(name, "a RenderOptions", value, "RenderOptions(model=..., stream=True, ...)")
    for field in ("strict", "emulate", "stream", "gateway"):
        if not isinstance(getattr(value, field), bool):
            raise wrong(f"{name}.{field}", "True or False", getattr(value, field))
    for field in ("model", "base_url"):
        if getattr(value, field) is not None and not isinstance(getattr(value, field), str):
            raise wrong(f"{name}.{field}", "a str or None", getattr(value, field))
    if isinstance(value.allow_env, str) or not isinstance(value.allow_env, (tuple, list)):
        raise wrong(f"{name}.allow_env", "a tuple of variable names", value.allow_env, 'e.g. allow_env=("HOME",)')
    if not all(isinstance(v, str) for v in value.allow_env):
        raise wrong(f"{name}.allow_env", "variable names (str)", next(v for v in value.allow_env if not isinstance(v, str)))
    import re

    for given in value.allow_env:  # as --allow-env: a scenario's $NAME is upper-case, so $home is text (docs/keys.md)
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", given):
            raise ToolchoiceError(f"{name}.allow_env holds {given!r}: not an environment variable name",
                                  hint='give the name without $, e.g. allow_env=("MY_TOKEN",)')
        if not re.fullmatch(r"[A-Z_][A-Z0-9_]*", given):
            raise ToolchoiceError(f"{name}.allow_env holds {given!r}: a scenario reads only upper-case variable "
                                  "references ($NAME: A-Z, 0-9, _), so allowing it would do nothing",
                                  hint=f"export the value as {given.upper()}, write ${given.upper()} in the scenario "
                                  f'and give allow_env=("{given.upper()}",)')
    if sendable and value.base_url is not None:  # as --base-url is checked (cli/inputs.py), before anything is rendered
        from .request_parts import http_url_fault

        fault = http_url_fault(value.base_url)
        if fault:
            raise ToolchoiceError(f"{name}.base_url {fault[0]}", hint="give scheme://host[:port]/path only" if fault[1]
                                  else "write scheme://host[:port]/path, e.g. http://127.0.0.1:8000/v1")
    return value


def translation_arg(value: Any, name: str = "translation") -> Translation:
    if not isinstance(value, Translation):
        raise wrong(name, "a Translation", value, "one of jobs.translations(scenario, providers)")
    return value


def translation_list(value: Any, name: str = "translations") -> list[Translation]:
    if isinstance(value, (str, bytes, dict, Translation)) or not isinstance(value, (list, tuple, Sequence)):
        raise wrong(name, "a list of Translation", value, "jobs.translations(scenario, providers)")
    if not value:
        raise empty(name, "translation")
    return [translation_arg(t, f"{name}[{i}]") for i, t in enumerate(value)]


def empty(name: str, item: str) -> ToolchoiceError:
    """An empty list where a job takes one or more: one error naming the argument (never a job run on no provider, nor
    on every one)."""
    hint = ("leave it out (None) for the scenario's providers, else every one"
            if item == "provider" else "pass jobs.translations(scenario, providers), one for each provider")
    return ToolchoiceError(f"{name}: an empty list names no {item}; give one or more", hint=hint)


def send_settings(value: Any, kind: type, name: str = "settings") -> Any:
    """A ``runner.SendSettings`` (``kind``: this module imports neither runner nor loop, which reach the registry,
    which checks with it) or None; its transport, when set, an httpx async transport."""
    if value is None:
        return None
    if not isinstance(value, kind):
        raise wrong(name, "a runner.SendSettings", value, "runner.SendSettings(timeout=..., transport=...)")
    import inspect

    from .retry_policy import MAX_RETRIES
    from .transport import MAX_TIMEOUT

    whole_number(value.concurrency, f"{name}.concurrency", 0)  # 0 and less: one at a time, as before
    whole_number(value.max_in_flight, f"{name}.max_in_flight", 0, optional=True)
    # the bounds --timeout and --retries have (transport.check_seconds, retry_policy.check_retries), said in the
    # caller's words: the command line checks its options first, in its own
    whole_number(value.retries, f"{name}.retries", 0, MAX_RETRIES)
    seconds_arg(value.timeout, f"{name}.timeout", MAX_TIMEOUT)
    if not isinstance(value.keep, bool):
        raise wrong(f"{name}.keep", "True or False", value.keep)
    if value.transport is not None and not all(hasattr(value.transport, a) for a in ("handle_async_request", "aclose")):
        raise wrong(f"{name}.transport", "an httpx async transport (httpx.MockTransport, httpx.AsyncHTTPTransport)",
                    value.transport)
    if value.sleep is not None and (not callable(value.sleep) or inspect.isbuiltin(value.sleep)):  # time.sleep
        raise wrong(f"{name}.sleep", "an async function taking seconds (as asyncio.sleep) or None", value.sleep)
    return value


def folder(value: Any, name: str = "save", kind: str = "a folder") -> Path | None:
    """A folder (or ``kind``: "a file") given as a ``str`` or a path; None stays None."""
    if value is None or isinstance(value, Path):
        return value
    if isinstance(value, (str, os.PathLike)):
        return Path(value)
    raise wrong(name, f"{kind} (str or Path)", value)


def not_an_input(out: Path | None, name: str, *inputs: Any) -> None:
    """``out`` (a file the job writes at its end: ``trace_out``) is none of the files it reads (``inputs``: the
    scenario, a HAR or trace replayed): written over, the run's own input would be gone. Said before any work."""
    for given in inputs if out is not None else ():
        try:
            same = out.exists() and os.path.isfile(given) and out.samefile(given)
        except (OSError, TypeError, ValueError):  # a scenario built in Python (its path "-"), a link's loop
            same = False
        if same:
            from .errors import argument_error

            raise argument_error(name, f" {out}: it is {given}, which this run reads: writing there would replace it",
                                 "name another file")


def sample_trace(value: Any, kind: type, *reads: Any, save: Path | None = None) -> Any:
    """``send``'s ``trace_out``: a file (a ``str`` or a path), for a new ``kind`` (``trace_export.SampleTrace``, given
    by the caller: this module imports no job's), or a ``kind`` several sends share. Neither is a file the sends read
    (``reads``: the scenario's own, those its tools' ``from:`` read) nor one ``save`` writes (its sample-NNN files:
    the trace written over the saved request, it was gone): refused before anything is sent."""
    if not isinstance(value, kind):
        value = kind(value)
    value.path = trace_file(value.path, *reads)  # a str too, as a caller's SampleTrace("trace.json") holds it
    if save is not None:
        _not_saved_over(Path(value.path), Path(save), lambda parts: len(parts) == 1 and
                        bool(SAMPLE_FILE.fullmatch(parts[0])))
    return value


def _not_saved_over(path: Path, save: Path, written: Any) -> None:
    """``path`` (a trace) is none of the files the save folder writes (``written``: its parts under the folder)."""
    try:
        parts = path.resolve().relative_to(save.resolve()).parts
    except (OSError, RuntimeError, ValueError):  # elsewhere, or a link's loop (no folder save could use either)
        return
    if written(parts):
        from .errors import argument_error

        raise argument_error("trace_out", f" {path}: the save folder {save} writes a file of that name, which would "
                             "replace the trace or the trace it", "name another file")


def trace_file(value: Any, *reads: Any, save: Any = None) -> Path:
    """A ``trace_out`` file (a ``str`` or a path; ``run``'s and ``send``'s): none of ``reads``, not a folder, in a
    folder that is there, none ``run``'s ``save`` writes (its loops' step files, scenario.yaml, loop.json). Said
    before a request, not after every one was sent (``run`` said it only then)."""
    path = Path(folder(value, "trace_out", "a file") or "")
    not_an_input(path, "trace_out", *reads)
    if save is not None:
        _not_saved_over(path, Path(save), lambda parts: len(parts) == 3 and parts[1].startswith("loop-") and
                        bool(LOOP_FILE.fullmatch(parts[2])))
    where = path.parent if str(path.parent) else Path(".")
    if path.is_dir() or not where.is_dir():
        from .errors import argument_error

        raise argument_error("trace_out", f" {path}: " + ("it is a folder" if path.is_dir() else
                                                           f"there is no folder {where}"), "name a file")
    return path


def path_arg(value: Any, name: str = "path") -> Path:
    """A file or folder to read, given as a ``str`` or a path (``trace``'s FILE: ``import_saved``, ``import_trace``)."""
    if isinstance(value, (str, os.PathLike)) and not isinstance(value, bytes):
        return Path(value)
    raise wrong(name, "a file or folder (str or Path)", value)


def dialect_setting(key: str, value: Any) -> None:
    """``dialects.apply``'s ``settings[key]`` of its type (None: not set): ``drop_params`` True or False (the string
    "no" was read as True), ``active_tools`` tool names (one ``str`` is a list of one)."""
    name = f"settings[{key!r}]"
    if value is None:
        return
    if key == "drop_params" and not isinstance(value, bool):
        raise wrong(name, "True or False", value)
    if key == "active_tools":
        if isinstance(value, (bytes, dict)) or not isinstance(value, (str, list, tuple, set, frozenset)):
            raise wrong(name, "tool names (a list of str, or one str)", value, 'e.g. ["get_weather"]')
        for index, item in enumerate([value] if isinstance(value, str) else list(value)):
            if not isinstance(item, str):
                raise wrong(f"{name}[{index}]", "a tool name (str)", item)


def models_arg(value: Any, name: str = "models") -> Any:
    if value is None:
        return None
    if not hasattr(value, "get") or not hasattr(value, "items"):
        raise wrong(name, "a mapping of provider id to model", value, 'e.g. {"openai": "gpt-4o"}')
    from .capabilities import CAPABILITIES, provider_hint

    for provider, model in value.items():
        if not isinstance(provider, str):
            raise wrong(f"{name} key", "a provider id (str)", provider, 'e.g. {"openai": "gpt-4o"}')
        if provider not in CAPABILITIES:  # a misspelt id ran every provider on its default model, in silence
            raise ToolchoiceError(f"{name}: unknown provider '{provider}'", hint=provider_hint(provider))
        if model is not None and not isinstance(model, str):
            raise wrong(f"{name}[{provider!r}]", "a model id (str) or None", model)
    return value


def loop_options(value: Any, kind: type, name: str = "options") -> Any:
    """A ``loop.LoopOptions`` (``kind``) with a RenderOptions and fields of their kinds; None: the defaults."""
    if value is None:
        return kind()
    if not isinstance(value, kind):
        raise wrong(name, "a loop.LoopOptions", value, "loop.LoopOptions(render=RenderOptions(...))")
    if not isinstance(value.render, RenderOptions):
        raise wrong(f"{name}.render", "a RenderOptions", value.render)
    render_options(value.render, f"{name}.render")
    if value.override is not None and not isinstance(value.override, ToolChoice):
        raise wrong(f"{name}.override", "a ToolChoice or None", value.override,
                    "write the choice in the scenario (tool_choice:, loop.steps) or pass a ToolChoice")
    capabilities_arg(value.capabilities, f"{name}.capabilities")
    models_arg(value.models, f"{name}.models")
    if value.results_from is not None and not isinstance(value.results_from, str):
        raise wrong(f"{name}.results_from", "a shell command (str) or None", value.results_from)
    seconds_arg(value.results_timeout, f"{name}.results_timeout", 3600)  # as --results-timeout takes it
    return value


def capabilities_arg(value: Any, name: str = "capabilities") -> Any:
    """A capability table (``overlay.load_overlay``'s) or None."""
    if value is not None and (not hasattr(value, "get") or not hasattr(value, "items")):
        raise wrong(name, "a mapping of provider id to Capability or None", value, "overlay.load_overlay(path, CAPABILITIES)")
    return value


def run_extras(processes: Any, replay: Any, replay_kind: type, spool_json: Any) -> None:
    """``jobs.run``'s other arguments: ``processes`` as --processes takes it, a ``loop.Replay`` (``load_replay``)."""
    whole_number(processes, "processes", 1, 64)
    if replay is not None and not isinstance(replay, replay_kind):
        raise wrong("replay", "a loop.Replay or None", replay, "loop.load_replay(folder, provider)")
    if not isinstance(spool_json, bool):
        raise wrong("spool_json", "True or False", spool_json)


def probe_extras(model: Any, tool_choice: Any) -> None:
    """``jobs.probe``'s ``model`` (a str or None) and ``tool_choice`` (a ``ToolChoice`` or None, as
    ``LoopOptions.override`` takes it)."""
    if model is not None and not isinstance(model, str):
        raise wrong("model", "a model id (str) or None", model)
    if tool_choice is not None and not isinstance(tool_choice, ToolChoice):
        raise wrong("tool_choice", "a ToolChoice or None", tool_choice, 'e.g. ToolChoice("required"), or '
                    'ToolChoice("named", name="get_weather")')


def send_extras(on_sample: Any, keep: Any, raw: Any, on_result: Any = None) -> None:
    """``jobs.send``'s callbacks and what it keeps."""
    for name, callback in (("on_sample", on_sample), ("on_result", on_result)):
        if callback is not None and not callable(callback):
            raise wrong(name, "a function or None", callback)
    whole_number(keep, "keep", 0, optional=True)
    if not isinstance(raw, bool):
        raise wrong("raw", "True or False", raw)


def seconds_arg(seconds: Any, name: str, most: float) -> None:
    """A number of seconds greater than 0 and at most ``most``; an int compared as it is (math.isfinite(10**400)
    is an OverflowError, where the refusal was meant)."""
    import math

    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise wrong(name, "a number of seconds", seconds)
    if not (isinstance(seconds, int) or math.isfinite(seconds)) or not 0 < seconds <= most:
        raise ToolchoiceError(f"{name} {number_shown(seconds)}: give a number of seconds greater than 0 and at most "
                              f"{most:.0f}")


def number_shown(value: int | float) -> str:
    """``value`` for a message: an int of more than 30 digits by its length (10**5000 cannot even be written out:
    Python refuses to convert an int of more than 4,300 digits, a ValueError where the refusal was meant)."""
    if isinstance(value, int) and abs(value).bit_length() > 100:
        return f"{'-' if value < 0 else ''}(a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits)"
    return str(value)


def runs_shown(numbers: list[int]) -> str:
    """1-5, 7: ascending numbers (a recording's steps, a HAR's conversations) with each consecutive run as a range."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def whole_number(value: Any, name: str, low: int, high: int | None = None, *, optional: bool = False) -> int | None:
    """A whole number from ``low`` to ``high`` (None: no upper bound); a bool or a float is refused as its type
    (``True`` would be port 1, ``1.5`` was bound as 1), a number out of range said with the range."""
    from .model import ToolchoiceError

    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise wrong(name, "a whole number (int)" + (" or None" if optional else ""), value)
    if value < low or (high is not None and value > high):
        top = f"to {high}" if high is not None else "or more"
        raise ToolchoiceError(f"{name} {number_shown(value)}: give a whole number from {low} {top}")
    return value


def listen_args(host: Any, port: Any, max_requests: Any) -> None:
    """``running_mock``'s address and request count, checked before a thread starts: a port out of range was an
    OverflowError from ``bind()``, a str port a 'Servname not supported' line."""
    if not isinstance(host, str):
        raise wrong("host", "an address (str)", host, 'e.g. host="127.0.0.1"')
    if not host.strip():  # bind() takes "" as every interface: a server with no authentication open to the network
        raise ToolchoiceError("host is empty (an unset variable?)",
                              hint='give an address: host="127.0.0.1" (the default), or "0.0.0.0" for every interface')
    whole_number(port, "port", 0, 65535)
    whole_number(max_requests, "max_requests", 1, optional=True)


def cannot_listen_on(host: str, port: int, exc: OSError) -> ToolchoiceError:
    """``running_mock``'s server that could not listen, said with the argument to change (an ``ArgumentError``): a
    port taken or refused (``port 8080: cannot listen on 127.0.0.1: address already in use``), a host that does not
    resolve or is not this machine's; anything else as ``cannot listen on HOST:PORT: why``."""
    import errno
    import socket

    from .errors import argument_error

    why = exc.strerror if isinstance(exc, socket.gaierror) else os.strerror(exc.errno) if exc.errno else str(exc)
    why = why[:1].lower() + why[1:]  # asyncio's bind error wraps it: "error while attempting to bind on address ..."
    if exc.errno in (errno.EADDRINUSE, errno.EACCES):
        return argument_error("port", f" {port}: cannot listen on {host}: {why}", "choose another ", ", or ",
                              "=0 for a free one")
    if isinstance(exc, socket.gaierror) or exc.errno == errno.EADDRNOTAVAIL:
        return argument_error("host", f" {host}: cannot listen there: {why}", "give an address of this machine, e.g. ",
                              '="127.0.0.1"')
    return ToolchoiceError(f"cannot listen on {host}:{port}: {why}")
