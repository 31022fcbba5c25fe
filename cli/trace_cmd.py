"""`toolchoice trace FILE`: an OTLP/JSON trace of an agent run → the scenario that reproduces it; a request
saved by `proxy` / `mock` / `send --save` (a sample-NNN.request.json, or its folder and --sample N) → the neutral
scenario that sends it again on any provider.

The reading lives in providers/core/trace_import.py and trace_scenario.py (traces) and saved_request.py (saved
requests); this module parses options and writes the scenario (YAML with the ledger notes as comments, or JSON
with the notes on stderr), or the list of runs (samples) the file (folder) holds when it holds several and no
--trace-id (--sample) picks one.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Sequence

import typer

from toolchoice.providers.core.model import ToolchoiceError

from .exits import handled, note_words
from .output import dumps, write, write_json, yaml_list, yaml_text

if TYPE_CHECKING:
    from toolchoice.providers.core.redaction import Redactor


class TraceFormat(str, Enum):
    yaml = "yaml"
    json = "json"


@handled
def trace(
    file: Path = typer.Argument(..., help="An OTLP/JSON trace export ({\"resourceSpans\": [...]}, or one object "
                                "per line): OpenInference or OpenTelemetry GenAI LLM spans. Or a request proxy, mock "
                                "or send saved with --save (sample-NNN.request.json), or their folder. Or an HTTP "
                                "Archive (.har) a browser or a debugging proxy saved.",
                                show_default=False),
    format: TraceFormat = typer.Option(TraceFormat.yaml, "--format", "-f", help="yaml (with the notes as comments) "
                                       "or json (the notes on stderr)."),
    trace_id: Optional[str] = typer.Option(None, "--trace-id", help="The run to import when the file holds several "
                                           "(without it they are listed)."),
    sample: Optional[int] = typer.Option(None, "--sample", metavar="N", help="A save folder's sample, or a HAR's "
                                         "Nth provider call, to import (from 1, as listed; without it several are "
                                         "listed)."),
    provider: Optional[str] = typer.Option(None, "--provider", "-p", help="FILE is a saved request sent to this API "
                                           "(default: the provider its .reply.json names); in a HAR, the API of "
                                           "the entries at a host toolchoice does not know."),
    scenario_out: Optional[Path] = typer.Option(None, "--scenario-out", help="Write the scenario to this file (what "
                                                "stdout would show: YAML with the notes as comments, or --format "
                                                "json) instead of stdout.", show_default=False),
    force: bool = typer.Option(False, "--force", help="With --scenario-out: overwrite the file if it exists."),
) -> None:
    """Print the scenario that reproduces a recorded agent run (tools, messages, per-step tool_choice, results),
    or the one that sends a saved request again on any provider."""
    from toolchoice.providers.core import saved_request, trace_har, trace_scenario

    from .output import output_redactor

    if force and scenario_out is None:
        raise ToolchoiceError("--force overwrites the file --scenario-out names; no --scenario-out is given",
                              hint="add --scenario-out FILE, or drop --force")
    if scenario_out is not None and str(scenario_out) == "-":  # stdout, as `init -` (it wrote a file named -, and
        scenario_out = None  # suggested `render -`, which reads stdin)
    if provider is not None:  # `-p openai,anthropic` was an unknown provider, `-p all` told what Python passes
        from .inputs import one_provider

        provider = one_provider(provider, "trace", "name the one API the recorded requests went to")
    if scenario_out is not None:
        _writable(scenario_out, force, file)  # before the reading: a file that is there is said before any work
    redact = output_redactor()  # a key pasted into a recorded message is not printed
    if trace_har.is_har(file):
        if trace_id is not None:
            raise ToolchoiceError(f"{file} is an HTTP Archive: --trace-id picks a run of an OTLP/JSON trace",
                                  hint="pick a HAR's provider call with --sample N (without it they are listed)")
        _har(file, sample, provider, format, redact, scenario_out, force)
        return
    if saved_request.is_saved(file) or sample is not None or provider is not None:
        _saved(file, sample, provider, format, redact, scenario_out, force)
        return
    found = trace_scenario.import_trace(file, trace_id)
    if not isinstance(found[0], trace_scenario.ImportedTrace):
        runs = [trace_scenario.describe(r) for r in found]  # type: ignore[arg-type]
        _listing("file", file, "runs", runs, "--trace-id", format, redact, scenario_out)
        return
    imported = found[0]
    _scenario(imported.data, imported.notes, format, redact, scenario_out, force)  # type: ignore[union-attr]


def _saved(file: Path, sample: Optional[int], provider: Optional[str], format: TraceFormat,
           redact: Redactor, scenario_out: Optional[Path], force: bool) -> None:
    from toolchoice.providers.core import saved_request

    found = saved_request.import_saved(file, sample, provider)
    if isinstance(found, list):
        _listing("folder", file, "samples", found, "--sample N", format, redact, scenario_out)
        return
    _scenario(found.data, found.notes, format, redact, scenario_out, force, f"-p {found.provider}")


def _har(file: Path, sample: Optional[int], provider: Optional[str], format: TraceFormat,
         redact: Redactor, scenario_out: Optional[Path], force: bool) -> None:
    from toolchoice.providers.core import trace_har

    found = trace_har.import_har(file, sample, provider)
    if isinstance(found, trace_har.Listing):  # under the samples: how run --replay replays each conversation
        _listing("file", file, "samples", found.rows, "--sample N", format, redact, scenario_out, found.notes,
                 found.replay_lines(), {"replay": found.to_json()["replay"]})
        return
    from toolchoice.providers.core.har_replays import call_lines

    _scenario(found.data, found.notes, format, redact, scenario_out, force, f"-p {found.provider}",
              call_lines(found.replays))


def _listing(source_key: str, file: Path, kind: str, items: list[Any], option: str, format: TraceFormat,
             redact: Redactor, scenario_out: Optional[Path] = None, notes: Any = (),
             under: Sequence[tuple[str, bool]] = (), more: Optional[dict[str, Any]] = None) -> None:
    """A file of several runs, or a folder of several samples: each one's line, and the option that picks one
    (with --scenario-out: no scenario to write, said in one line); ``notes``: what the file holds beside them;
    ``under``: the library's lines after the items (a HAR's replay commands), and ``more``, the JSON's keys for them."""
    if scenario_out is not None:
        raise ToolchoiceError(f"{file} holds {len(items)} {kind}: --scenario-out writes one scenario",
                              hint=f"pick one with {option}; `toolchoice trace {file}` lists them")
    if format is TraceFormat.json:
        said = {"notes": [e.to_json() for e in notes]} if notes else {}  # the record's words, as import_har's
        write_json(redact.document({source_key: str(file), kind: items, **said, **(more or {})}, dump=dumps))
        return
    lines = "".join(f"# {_line(f'{e.severity} {e.code}: {note_words(e.message)}')}\n" for e in notes)
    after = _comments(under)
    write(redact.text(f"# {_line(str(file))} holds {len(items)} {kind}: pick one with {option}\n" + lines
                      + yaml_list(kind, redact.data(items)) + after))


def _comments(lines: Sequence[tuple[str, bool]]) -> str:
    """The library's (text, whole) lines as comments: an indented one under the line before it; a whole one (a command
    to copy) on a line of its own as it is, any other folded at spaces to the terminal's width."""
    import textwrap

    from .output import terminal_width

    out = []
    for text, whole in lines:
        lead = "#   " if text.startswith("  ") else "# "
        text = _line(text)
        pieces = [text] if whole else textwrap.wrap(text, max(20, terminal_width() - len(lead) - 2),
                                                    break_long_words=False, break_on_hyphens=False)
        out += [(lead if i == 0 else lead + "  ") + piece for i, piece in enumerate(pieces)]
    return "".join(line + "\n" for line in out)


def _scenario(data: Any, notes: Any, format: TraceFormat, redact: Redactor,
              scenario_out: Optional[Path] = None, force: bool = False, then: Optional[str] = None,
              over: Sequence[tuple[str, bool]] = ()) -> None:
    """The scenario on stdout, or in ``scenario_out`` and one line saying so (``then``: the render options it
    suggests; ``over``: the library's lines under the notes in YAML, a HAR's one call's replay command). Its strings are redacted before it is laid out, as ``emit_json`` does: a key redacted in the YAML text
    became ``content: [redacted]``, a list that the scenario reader refuses (or an ``enum`` it reads otherwise)."""
    redact = _found_too(redact, data)
    if format is TraceFormat.json:
        for e in notes:
            sys.stderr.write(redact.text(_line(f"{e.severity} {e.code}: {note_words(e.message)}")) + "\n")
        text = redact.document(data, dump=dumps)  # data, then its JSON text, in one pass (output.json_document)
    else:
        lines = "".join(f"# {_line(f'{e.severity} {e.code}: {note_words(e.message)}')}\n" for e in notes)
        text = redact.text(lines + _comments(over) + yaml_text(redact.data(data)))
    if scenario_out is None:  # JSON text takes JSON's escapes (write's \U000e0041 is none: the document would not read)
        (write_json if format is TraceFormat.json else write)(text)
        return
    _write_file(scenario_out, text if text.endswith("\n") else text + "\n", force)
    from toolchoice.providers.core.shell_word import bash_only, shell_path

    word = shell_path(scenario_out)
    command = " ".join(["toolchoice render", word, *([then] if then else [])])
    write(f"wrote {_line(str(scenario_out))}: try `{_line(command)}`{bash_only(word)}")


def _found_too(redact: Redactor, data: Any) -> Redactor:
    """``redact`` that also searches, by value, for the keys the scenario holds by their look (an AWS secret found
    beside its key id in one message is hidden in another too: docs/keys.md, "once found, the key is searched for by
    value in the rest of the body too"), as the mock's and the proxy's saves are redacted."""
    from toolchoice.providers.core.key_looks import pattern_keys
    from toolchoice.providers.core.mock.body_secrets import FOUND_AT_MOST
    from toolchoice.providers.core.redaction import Redactor

    found = pattern_keys(data, FOUND_AT_MOST)
    return Redactor(redact.secrets, found=found) if found else redact


def _writable(path: Path, force: bool, source: Path) -> None:
    """--scenario-out names a file that may be written: no folder, not ``source`` (the recording read: --force would
    replace it with the scenario), and not one that is there without --force (init FILE's words)."""
    if path.is_dir():
        raise ToolchoiceError(f"{path} is a folder", hint=f"name a file in it, e.g. {path / 'scenario.yaml'}")
    try:
        itself = path.exists() and path.samefile(source)
    except OSError:
        itself = False
    if itself:
        raise ToolchoiceError(f"--scenario-out {path} is {source} itself: the scenario would replace the recording "
                              "it is read from", hint="name another file, e.g. scenario.yaml")
    if path.exists() and not force:
        raise ToolchoiceError(f"{path} exists", hint="give another name, or --force to overwrite it")


def _write_file(path: Path, text: str, force: bool) -> None:
    try:
        with open(path, "w" if force else "x", encoding="utf-8") as handle:  # "x": not one made meanwhile either
            handle.write(text)
    except FileExistsError:
        raise ToolchoiceError(f"{path} exists", hint="give another name, or --force to overwrite it") from None
    except OSError as exc:
        missing = not path.parent.exists()
        raise ToolchoiceError(f"cannot write {path}: {exc.strerror}",
                              hint=f"make the folder {path.parent} first" if missing else None) from None


def _line(text: str) -> str:
    """One comment line: no terminal escapes, no line breaks (the text may quote the trace). An escape sequence is
    written out (``visible``: ``\\u001b[31m``), as the scenario below it writes the same text, not taken out: a tool
    name or a file name quoted is the one the file holds; so is a newline (``\\u000a``, as ``output.shown_path``
    writes it: a file `t<newline>x.json` was named `t x.json`)."""
    from toolchoice.providers.core.redaction import visible

    return " ".join(visible(text).replace("\n", "\\u000a").split())
