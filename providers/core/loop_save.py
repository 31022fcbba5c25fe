"""A loop's ``--save`` transcripts: ``DIR/<provider>/loop-NNN/`` with each step's request, response and
reply, and once the loop ended its full history as a scenario (``transcript_scenario``) and its document."""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path
from typing import Any

from .errors import argument_error
from .loop_records import LoopRun, StepRecord, message_json
from .model import Message, Scenario
from .call_args import LOOP_FILE as _SAVED_FILE  # the files a loop's folder holds


def prepare_loop_save(folder: Path) -> Path:
    """Create the --save folder, removing an earlier run's loop transcripts from it (only the files
    this module writes), so a replay never mixes two runs' loops."""
    from .capabilities import PROVIDER_IDS
    from .save import prepare_save_dir

    prepare_save_dir(folder)
    for provider in PROVIDER_IDS:
        base = folder / provider
        _not_linked(folder, base)
        if not base.is_dir():
            continue
        for loop_dir in base.iterdir():
            if not (loop_dir.is_dir() and re.fullmatch(r"loop-\d+", loop_dir.name)):
                continue
            _not_linked(folder, loop_dir)
            try:
                for old in loop_dir.iterdir():
                    if _SAVED_FILE.fullmatch(old.name) and old.is_file():
                        old.unlink()
                if not any(loop_dir.iterdir()):
                    loop_dir.rmdir()
            except OSError as exc:
                raise argument_error("save", f" {folder}: cannot remove the earlier run's {loop_dir}: "
                                             f"{exc.strerror}") from None
    return folder


def _not_linked(folder: Path, path: Path) -> None:
    """An earlier run's folder is cleared file by file: through a symbolic link that would remove files of the same
    names wherever it points, outside the --save folder (found by an adversarial run)."""
    if path.is_symlink():
        raise argument_error("save", f" {folder}: {path} is a symbolic link, not a folder an earlier run saved",
                             "remove the link, or save into another folder")


def save_step(folder: Path, run: LoopRun, record: StepRecord, scenario: Scenario, secrets: dict[str, str]) -> None:
    """``DIR/<provider>/loop-NNN/``: step-NN.request.json, step-NN.response.json (as received; a stream's bytes
    as step-NN.response.sse/.ndjson/.eventstream, as ``send --stream --save`` keeps them) and
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
        if sample.raw_bytes is not None:  # a stream's bytes, as send --save keeps them (.sse/.ndjson/.eventstream)
            from .stream_framing import SAVE_SUFFIX
            from .stream_redaction import redact_stream

            framing = next((f for f, s in SAVE_SUFFIX.items() if s == sample.raw_suffix), "sse")
            write_atomic(base / f"{stem}.response{sample.raw_suffix or '.txt'}",
                         redact_stream(sample.raw_bytes, framing, redactor))
        else:
            suffix = ".response.json" if sample.raw_is_json else ".response.txt"
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


TRANSCRIPT_OF = "transcript of a toolchoice run of "  # a transcript's description, then the scenario it ran


def transcript_of(path: str | os.PathLike[str]) -> str | None:
    """The scenario file a saved transcript (the ``scenario.yaml`` a --save folder holds) ran, as its first line's
    description names it; None for any other file (or one that cannot be read)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [f.readline(4096).rstrip("\n") for _ in range(8)]
    except (OSError, UnicodeDecodeError):
        return None
    prefix = f"description: {TRANSCRIPT_OF}"
    if not lines[0].startswith(prefix):
        return None
    folded = [lines[0][len(prefix):]] + [line.strip() for line in
                                         itertools.takewhile(lambda line: line.startswith(" "), lines[1:])]
    return " ".join(folded).strip("'\" ") or None  # a path past the dump's width 100 is folded at its spaces


def is_recording(path: str | os.PathLike[str]) -> bool:
    """Whether a file is a recording `run --replay` reads without a scenario, a HAR or an OTLP/JSON trace (what a
    transcript's ``transcript_of`` names when its run replayed one), not a scenario file."""
    from .trace_har import is_har

    if is_har(Path(path)):
        return True
    try:
        with open(path, "rb") as handle:
            return any(k in handle.read(4096) for k in (b'"resourceSpans"', b'"resource_spans"'))
    except OSError:
        return False


def saved_start(folder: str | os.PathLike[str]) -> tuple[str, str] | None:
    """The scenario file a run --save folder's first loop started from, and that loop's provider (its transcript,
    FOLDER/<provider>/loop-NNN/scenario.yaml, names the file); None where the folder holds none."""
    from pathlib import Path

    transcript = next(iter(sorted(Path(folder).glob("*/loop-*/scenario.yaml"))[:1]), None)
    started = transcript_of(transcript) if transcript is not None else None
    return (started, transcript.parent.parent.name) if started is not None and transcript is not None else None


def transcript_scenario(scenario: Scenario, history: list[Message]) -> str:
    """The scenario with the loop's full history as its messages, as YAML that `render`, `send`
    and `run` read as it is (the loop: section kept as written)."""
    import yaml

    from .yaml_input import whole_characters

    data: dict[str, Any] = {"description": f"{TRANSCRIPT_OF}{scenario.path}"}
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
    tools.extend({"type": t.kind, **t.fields} for t in scenario.native_tools)  # secrets in them are $ENV names
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
        values = {k: (dict(v) if k in ("headers", "extra", "rules") else v) for k, v in settings._asdict().items()
                  if v is not None and v != {} and k != "thinking_mode"}
        if settings.thinking_mode is not None:  # the loader's record of a richer `thinking:`, written back as one
            values["thinking"] = _thinking_written(settings.thinking_mode)
        providers[pid] = values or None
    if providers:
        data["providers"] = providers
    if scenario.loop is not None and scenario.loop.raw is not None:
        data["loop"] = scenario.loop.raw
    halves = [0]
    data = whole_characters(data, halves)
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    if halves[0]:  # said at the end: the first line is the description transcript_of reads
        text += (f"# {halves[0]} lone surrogate{'s' if halves[0] != 1 else ''} (half a character, which no scenario "
                 "holds: a reply's JSON \\ud800 escape) written as U+FFFD; loop.json keeps each as it came\n")
    return text


def _thinking_written(setting: Any) -> Any:
    """A ``ThinkingSetting`` as a scenario writes it (scenario.py's ``_thinking`` reads it back to the same
    record): ``adaptive``, or ``{type, budget, effort}``."""
    if setting.mode == "adaptive" and setting.budget is None and setting.effort is None:
        return "adaptive"
    written: dict[str, Any] = {"type": {"on": "enabled", "adaptive": "adaptive", "off": "disabled"}[setting.mode]}
    if setting.budget is not None:
        written["budget"] = setting.budget
    if setting.effort is not None:
        written["effort"] = setting.effort
    return written
