"""Exit codes and the one-line error rule: no command ever shows a traceback for bad input."""

from __future__ import annotations

import functools
import os
import sys
from typing import Any, Callable, Iterable, TypeVar

import typer

from toolchoice.providers.core.errors import (ArgumentError, MissingKey, Named, NothingToSend, OutOfRange,
                                              ToolchoiceError)

from toolchoice.providers.core.outcome import (BAD_INPUT, DISOBEYED, DRIFT, EXIT_CODES, FAILED, INTERRUPTED,  # noqa: F401
                                               OK, REFUSED, outcome)

F = TypeVar("F", bound=Callable[..., Any])


_RANK = {OK: 0, DISOBEYED: 1, REFUSED: 2, FAILED: 3}  # the order of `outcome`, most fundamental first


def worst(codes: Iterable[int]) -> int:
    """The exit code of several runs (several scenarios): the one `outcome` ranks highest."""
    return max(codes, key=lambda c: _RANK.get(c, 4), default=OK)


def summary_text(results: Iterable[tuple[Any, int]], sent: bool = True) -> str:
    """One line per scenario with its exit code and meaning, for runs over several scenarios; ``sent``: False
    for a dry run (exit 0 then means rendered, nothing was sent or judged)."""
    rows = list(results)
    meaning = dict(EXIT_CODES)
    meaning[OK] = "sent and obeyed (warnings allowed)" if sent else "rendered (warnings allowed)"
    lines = [f"{len(rows)} scenarios:"]
    # a path is data: a newline in a file name written out, so it cannot start a line that reads as another result
    from .output import shown_path

    shown = [(shown_path(path), code) for path, code in rows]
    lines += [f"  {code}  {path}: {meaning.get(code, 'exit ' + str(code))}" for path, code in shown]
    return "\n".join(lines)


ERROR_CHARS = 1800  # an error line longer than this is cut in its middle


def one_line_shown(message: str) -> str:
    """``message`` as an error or warning line shows it: data, every control character written out as the tables
    write it (``redaction.visible``: ``\\u001b[31m``, ``\\u0007``, ``\\u202e``, a lone surrogate of a bytes path
    ``\\udcff``) and a newline too (``\\u000a``, as ``output.shown_path`` writes it), never acted on by the terminal
    nor dropped: a file name holding ESC, BEL or CR was shown without them (``printable`` deletes escape
    sequences), so the user could not tell which file was meant, and one holding a newline read as a space."""
    from toolchoice.providers.core.redaction import visible

    return visible(message).replace("\n", "\\u000a")


def error_line(message: str) -> None:
    """One line on stderr, with every key in the environment redacted (an error may quote what the
    user typed: a .env file given as the scenario, a key pasted into --provider) and no terminal
    escapes (``one_line_shown``)."""
    _to_stderr(f"toolchoice: error: {_bounded_line(message)}\n")


def warning_line(message: str) -> None:
    """One line on stderr, shown as ``error_line`` shows its line: keys redacted, every control character written
    out, cut as long (a warning quotes what the user typed: ``--model``, ``--host``)."""
    _to_stderr(f"toolchoice: warning: {_bounded_line(message)}\n")


def _bounded_line(message: str) -> str:
    """``message`` redacted, shown (``one_line_shown``) and at most ERROR_CHARS long: a huge value quoted in it (a
    120 kB --model) keeps its start and its end (what to do)."""
    from .output import output_redactor

    text = output_redactor().text(one_line_shown(message))
    if len(text) > ERROR_CHARS:
        left_out = len(text) - ERROR_CHARS
        text = f"{text[:ERROR_CHARS * 2 // 3]}…({left_out:,} characters left out)…{text[-ERROR_CHARS // 3:]}"
    return text


def _to_stderr(line: str) -> None:
    """A command started with stderr closed (``2>&-``: sys.stderr is None) has nowhere to say it; its exit code still
    does (it was 1, from the AttributeError, instead of the error's own)."""
    if sys.stderr is not None:
        sys.stderr.write(line)
        sys.stderr.flush()


def concluded(result: Any, scenario: Any = None) -> int:
    """The end of a job that sent (``jobs.SendResult`` / ``jobs.CompareResult``): after Ctrl-C one line and exit
    130 (what finished was drawn already); else one line per provider under ``--min-obeyed``, and the code.
    ``scenario``: the file, named in those lines when the command was given several."""
    if result.interrupted:
        error_line(result.interrupted.line())
        raise typer.Exit(result.code)
    for below in result.below:  # a Python caller's words (below min_obeyed 0.95); these name the option
        line = below.spelled(option_of) if isinstance(below, Named) else below
        error_line(line if scenario is None else f"{scenario}: {line}")
    return result.code


# errno -> what to do, for a write the machine refused (stdout on a full disk, a --save folder past its quota):
# the environment's doing, not a bug to report. Still exit 70, as before; the line says what happened.
_WRITE_ERRNOS = {"ENOSPC": "free some space, or send the output elsewhere",
                 "EDQUOT": "free some space under your quota, or send the output elsewhere",
                 "EFBIG": "the file reached the size limit of this process, ulimit -f: send the output elsewhere",
                 "EIO": "the device reported an error: send the output elsewhere"}


def _failed_write(exc: Exception) -> str | None:
    """One line for an OSError a failed write raises (by its errno), else None."""
    import errno

    if not isinstance(exc, OSError) or exc.errno is None:
        return None
    hint = _WRITE_ERRNOS.get(errno.errorcode.get(exc.errno, ""))
    if hint is None:
        return None
    where = f" {exc.filename}" if exc.filename else " the output"
    return f"cannot write{where}: {exc.strerror or errno.errorcode[exc.errno]} ({hint})"


# a job's parameter whose option is not spelled after it: running_mock's save_dir is `toolchoice mock --save DIR`,
# load_replay's provider is run's -p; one named with its job (run.save: jobs.run's save; probe.save: the overlay
# load_overlay reads) is the command and option
_OPTIONS = {"save_dir": "--save", "provider": "-p", "run.save": "`run --save`",
            "probe.save": "toolchoice probe --save FILE",
            # what `trace` says of a folder run --save wrote (saved_request.PYTHON: a Python caller's words)
            "saved.run_save": "run --save", "saved.takers": "render, send and run take", "saved.trace": "toolchoice trace",
            "saved.writers": "proxy, mock or send --save", "saved.sample": "--sample N",
            "saved.provider_as": "-p ",
            # what run --replay FILE.har says (trace_har_replay.PYTHON: a Python caller's words)
            "har.trace_id": "--trace-id N", "har.trace": "toolchoice trace FILE.har",
            "trace.trace": "toolchoice trace FILE", "mcp.timeout": "--timeout",
            # a HAR's note (trace_har.notes: the entries at a host toolchoice does not know)
            "har.provider": "-p PROVIDER"}


def option_of(argument: str) -> str:
    """The option that gives a job's ``argument`` on the command line: ``min_obeyed`` is --min-obeyed."""
    return _OPTIONS.get(argument) or "--" + argument.replace("_", "-")


def note_words(message: str) -> str:
    """A record's note as the command line says it: words naming a job's argument (``errors.Named``: a HAR's
    ``give provider=...``) name its option (``give -p PROVIDER``); other words as they are."""
    return message.spelled(option_of) if isinstance(message, Named) else message


def in_command_words(error: ToolchoiceError) -> str:
    """``error``'s line as the command line says it. A missing key or variable (``MissingKey``) is drawn from its
    record: the library's words are a Python caller's (``RenderOptions(base_url=...)``, set it in the environment),
    these the shell's (``--base-url``, ``export``); so is ``compare --send`` with nothing to send (``NothingToSend``:
    the dry run without ``--send``, the mock put in front), and an argument out of its range or what it names names
    its option (``OutOfRange``, ``ArgumentError``: ``--min-obeyed``, ``--save``, not ``min_obeyed``, ``save``), as
    do other words that name an argument (``named``: ``check --base-url``, not ``RenderOptions(base_url=...)``)."""
    if isinstance(error, ArgumentError) and error.argument:  # what an option names: --save DIR
        return error.spelled(option_of)
    if isinstance(error, OutOfRange) and error.argument:  # the argument is an option here: --min-obeyed 0.95
        option = option_of(error.argument)
        hint = f"{error.lead} {option} {error.example}" if error.example else error.hint
        return ToolchoiceError(f"{option} {error.value}: give {error.takes}", hint=hint).one_line()
    if isinstance(error, NothingToSend):
        hint = ("without --send, compare is a dry run that needs no key; to send without one, put `toolchoice mock -p ID` "
                "in front (docs/mock.md)")
        return ToolchoiceError(error.message, path=error.path, line=error.line, column=error.column, hint=hint).one_line()
    if not isinstance(error, MissingKey) or not error.variables or error.of not in ("key", "header", "mcp tool"):
        return error.spelled(option_of)  # words naming an argument (``named``) name its option: --base-url
    first = error.variables[0]
    if error.of != "key":  # a variable a header or an mcp tool names
        headers = f"providers.{error.provider or '<id>'}.headers"
        hint = f"export it, or remove it from {'the mcp tool' if error.of == 'mcp tool' else headers}"
    elif error.local:
        hint = f"a local server that checks no key takes any value, e.g. export {first}=local"
    else:
        hint = ("the key is read from the environment at send time and never printed; to try without one: "
                f"`toolchoice mock -p {error.provider or 'ID'}`, then this command with `--base-url URL` and "
                f"`{first}=unused` (docs/mock.md)")
    return ToolchoiceError(error.message, path=error.path, line=error.line, column=error.column, hint=hint).one_line()


def handled(fn: F) -> F:
    """Turn ToolchoiceError into one line on stderr and its exit code; anything unexpected into one
    line too (set TOOLCHOICE_DEBUG=1 for the traceback)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ToolchoiceError as exc:
            error_line(in_command_words(exc))
            raise typer.Exit(exc.exit_code) from None
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            error_line("interrupted")
            raise typer.Exit(130) from None
        except BrokenPipeError:  # `toolchoice render -p all | head`: the reader has all it wanted
            from .output import closed_pipe

            try:
                closed_pipe()
            except BrokenPipeError:
                pass
            raise typer.Exit(OK) from None
        except Exception as exc:  # noqa: BLE001 - the promise is: never a traceback
            if os.environ.get("TOOLCHOICE_DEBUG"):
                raise
            failed_write = _failed_write(exc)
            if failed_write:  # what stdout's buffer still holds would fail again at the exit: a second report, exit 120
                from .output import point_stdout_at_devnull

                point_stdout_at_devnull()
            error_line(failed_write or f"internal error: {type(exc).__name__}: {exc} (please report it; "
                                       "TOOLCHOICE_DEBUG=1 shows the traceback)")
            raise typer.Exit(70) from None

    return wrapper  # type: ignore[return-value]
