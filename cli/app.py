"""The `toolchoice` command: wiring only.

Each command lives in its own module and imports what it needs (httpx, jsonschema, rich) inside the
function. ``main`` builds only the command being run, so `toolchoice render` neither imports the other
commands' modules nor pays typer for their parameters; help and unknown commands get the full app.
"""

from __future__ import annotations

import functools
import importlib
import io
import os
import re
import sys
from typing import Any, NoReturn

import typer

# name -> (module, function), in the order `toolchoice --help` lists them
COMMANDS: dict[str, tuple[str, str]] = {
    "render": ("render_cmd", "render"),
    "send": ("send_cmd", "send"),
    "run": ("run_cmd", "run"),
    "parse": ("parse_cmd", "parse"),
    "compare": ("compare_cmd", "compare"),
    "probe": ("probe_cmd", "probe"),
    "providers": ("providers_cmd", "providers"),
    "tools": ("tools_cmd", "tools"),
    "trace": ("trace_cmd", "trace"),
    "schema": ("schema_cmd", "schema"),
    "mock": ("mock_cmd", "mock"),
    "proxy": ("mock_cmd", "proxy"),
    "doctor": ("doctor_cmd", "doctor"),
    "init": ("init_cmd", "init"),
}
# a line break of click's message with the spaces and tabs around it, as [ \t]*\n[ \t]* reads it but only from the first
# of a run of spaces (a later start fails where the first did), or at a break right after the spaces the last match
# took (the same matches: tests/test_regex_linear.py): that pattern read a long run of spaces in an argument from
# each of its places to its end (8,000: 56 ms)
LINE_BREAK = r"(?<![ \t])[ \t]*\n[ \t]*|\n[ \t]*"


def _version(value: bool) -> None:
    if value:
        from toolchoice.providers import __version__

        sys.stdout.write(f"toolchoice {__version__}\n")
        raise typer.Exit()


def build(names: list[str] | None = None) -> typer.Typer:
    """The Typer app with the named commands (all when None)."""
    from .help_examples import epilog

    app = typer.Typer(add_completion=True, no_args_is_help=True, pretty_exceptions_enable=False)

    # a first command to type, each line whole at 60 columns (typer keeps an epilog's paragraphs apart)
    @app.callback(epilog="Start here (no key, no network needed):\n\n"
                         "toolchoice init scenario.yaml\n\n"
                         "toolchoice compare scenario.yaml -p all\n\n"
                         "toolchoice COMMAND --help: that command's options")
    def toolchoice(version: bool = typer.Option(False, "--version", "-V", is_eager=True, callback=_version,
                                                help="Print the version and exit.")) -> None:
        """What does your tool_choice become on each provider's wire, and did the model obey it?"""

    for name, (module_name, function) in COMMANDS.items():
        if names is None or name in names:
            module = importlib.import_module(f".{module_name}", __package__)
            command = getattr(module, function)
            # the list of commands keeps a docstring's line breaks (typer's rich mode): its first paragraph, one
            # line, folded to the terminal (`providers`' "one provider in" over "full")
            first = (command.__doc__ or "").split("\n\n")[0]
            app.command(name, short_help=" ".join(first.split()) or None, epilog=epilog(name))(command)
    return app


def __getattr__(name: str) -> Any:  # `from toolchoice.cli.app import app`: the full app
    if name == "app":
        return build()
    raise AttributeError(name)


def _click_errors() -> tuple[type[Exception], type[Exception]]:
    """(UsageError, Abort) of the click typer runs on: typer 0.28 vendors click as typer._click."""
    try:
        from typer._click.exceptions import UsageError
    except ImportError:  # typer versions that use the click package
        from click.exceptions import UsageError
    return UsageError, typer.Abort


def run(argv: list[str]) -> int:
    """Run ``toolchoice ARGV`` in this process and return its exit code (what ``main`` exits with);
    usage errors (an unknown option, a bad --format) are one line and exit 2. rich's globals are as the command
    found them once it returns (``output.rich_restored``): a caller's own rich output in this process is its own."""
    try:
        return _run(argv)
    finally:
        drawn = sys.modules.get(f"{__package__}.output")  # loaded only by a command that drew something
        if drawn is not None:
            drawn.rich_restored()


def _run(argv: list[str]) -> int:
    from .exits import BAD_INPUT, error_line

    # a pseudo-terminal of unknown size reports 0 columns and shells export COLUMNS=0: shutil reads that as not set,
    # rich as a width of 0 (it then printed nothing); not set, every printer asks the terminal (or takes 80)
    if os.environ.get("COLUMNS", "x").strip().strip("0") == "":
        del os.environ["COLUMNS"]
    if not argv or "--help" in argv:
        _fold_help_cells()
    if not argv:  # no arguments: the help, exactly as typer shows it
        try:
            build()(args=[], prog_name="toolchoice")
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 0
        return 0
    first = argv[0]
    empty = _empty_path_option(argv)
    if empty:
        error_line(f"{empty} is empty (an unset variable?): name the folder or file; '.' is the current folder")
        return BAD_INPUT
    command = _command(first if first in COMMANDS else None)
    usage_error, abort = _click_errors()
    try:
        code = command.main(args=list(argv), prog_name="toolchoice", standalone_mode=False)
    except usage_error as exc:
        where = f"toolchoice {first} --help" if first in COMMANDS else "toolchoice --help"
        import re

        instead = _option_instead(getattr(exc, "option_name", None), first)
        if instead:  # click's nearest names would mislead (`compare --json`: "Possible options: --send")
            exc.possibilities = None  # type: ignore[attr-defined]
        # click words some errors over lines, each choice after a tab ("Choose from:\n\tscenario,\n\trender"): one line
        message = re.sub(LINE_BREAK, " ", exc.format_message())  # type: ignore[attr-defined]
        where = f"see {where}"
        missing = getattr(getattr(exc, "param", None), "name", None)
        if missing == "provider" and type(exc).__name__ == "MissingParameter":  # what to give, before the help
            where = f"{_provider_hint(first, argv)}; {where}"
        if missing == "upstream" and first == "proxy" and type(exc).__name__ == "MissingParameter":
            where = f"{_upstream_hint(argv)}; {where}"
        if (missing in _ARGUMENT_GIVEN and type(exc).__name__ == "MissingParameter"
                and getattr(exc.param, "param_type_name", "") == "argument"):  # type: ignore[attr-defined]
            where = f"{_ARGUMENT_GIVEN[missing]}; {where}"  # what the argument is, and where a first one comes from
        if first == "parse" and message.startswith("Got unexpected extra argument"):  # `parse REPLY -p ID SCENARIO`
            where = ("the scenario to judge the reply against goes with -s: toolchoice parse REPLY -p ID -s SCENARIO; "
                     f"{where}")
        meant = _choice_meant(exc, argv) if type(exc).__name__ == "BadParameter" else None
        if meant:  # `--dialect openai_agents`, `-f JSON`: the value it is one character or a case away from
            where = f"did you mean {meant}? {where}"
        if first == "tools" and "--mcp" in argv[:-1] and " " not in argv[argv.index("--mcp") + 1]:
            # `--mcp npx -y server`: the command line not quoted, its words taken for options and arguments
            from toolchoice.providers.core.command_shown import command_secrets, hide_echoes

            from .tools_cmd import mcp_quoted

            words = argv[argv.index('--mcp') + 1:]
            where = f"{mcp_quoted(words)}; {where}"
            message = hide_echoes(message, command_secrets(words))  # click's "unexpected extra argument (TOKEN)"
        elsewhere = _commands_taking(getattr(exc, "option_name", None), first)
        if first not in COMMANDS and first.lower() in _COMMAND_WORDS and message.startswith("No such command"):
            where = f"{_COMMAND_WORDS[first.lower()]}; {where}"  # `toolchoice replay`: the command that does it
        if instead:
            where = f"{instead}; {where}"
        elif elsewhere:  # `send --dialect`: an option of other commands, which the line names
            where = f"{getattr(exc, 'option_name')} is an option of {', '.join(elsewhere)}; {where}"
        error_line(f"{message} ({where})")
        return BAD_INPUT
    except abort:
        error_line("aborted")
        return 130
    finally:
        if "toolchoice.providers.core.save" in sys.modules:  # --save folders locked by this command
            sys.modules["toolchoice.providers.core.save"].release_locks()
    return code if isinstance(code, int) else 0


def _provider_hint(command: str, argv: list[str]) -> str:
    """What a command run without -p needs: an id (and, for `run --replay DIR`, the ones DIR holds a saved run of)."""
    several = "" if command in ("send", "probe", "mock", "proxy") else ", or several: -p openai,anthropic"
    hint = f"name a provider: -p openai{several}; `toolchoice providers` lists the ids"
    if command == "parse":  # one body, in one provider's format: a list was then refused ("parse takes one provider")
        hint = "name the provider whose format the body is in: -p openai; `toolchoice providers` lists the ids"
    folder = next((argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--replay"), None)
    folder = folder or next((arg.partition("=")[2] for arg in argv if arg.startswith("--replay=")), None)
    if command == "run" and folder:
        from toolchoice.providers.core.loop_replay import saved_providers

        saved = saved_providers(folder)
        if saved:
            hint = (f"name a provider: {folder} holds a run saved on {', '.join(saved)} (-p {saved[0]} replays it as "
                    "recorded; another id renders its history for that provider)")
    return hint


def _upstream_hint(argv: list[str]) -> str:
    """`proxy -p ID` without --upstream: the base URL that provider's SDK takes, to forward to."""
    from .mock_cmd import upstream_for

    given = next((argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg in ("-p", "--provider")), None)
    given = given or next((arg.partition("=")[2] for arg in argv if arg.startswith("--provider=")), None)
    url = upstream_for(given) if given else None
    if url is None:
        return "give the real API's base URL as its SDK takes it (--upstream https://api.openai.com/v1 for openai)"
    return f"give the real API's base URL as its SDK takes it: --upstream {url} for {given}"


def _choice_meant(exc: Exception, argv: list[str]) -> str | None:
    """The choice a bad value of a choice option (or argument) likely meant, as a provider id's error names one:
    the same word in another case or with _ for -, else difflib's nearest."""
    param = getattr(exc, "param", None)
    choices = [str(getattr(c, "value", c)) for c in getattr(getattr(param, "type", None), "choices", ())]
    if not choices:
        return None
    opts = tuple(getattr(param, "opts", ()))
    given = None
    for i, arg in enumerate(argv):
        name, eq, value = arg.partition("=")
        if eq and name in opts and name.startswith("--"):
            given = value
        elif arg in opts and i + 1 < len(argv):
            given = argv[i + 1]
    if given is None and getattr(param, "param_type_name", "") == "argument":
        given = next((arg for arg in argv[1:] if not arg.startswith("-") and arg not in choices), None)
    if not given:
        return None
    folded = given.lower().replace("_", "-")
    if folded in choices:
        return folded
    if getattr(param, "name", None) == "format" and _FORMAT_WORDS.get(folded.lstrip(".")) in choices:
        return _FORMAT_WORDS[folded.lstrip(".")]  # `-f md`: too short for difflib to find markdown
    from toolchoice.providers.core.choice import did_you_mean

    said = did_you_mean(folded, choices)
    return said.removeprefix("did you mean ").removesuffix("?") if said else None


# a command's missing argument (click: "Missing argument 'response'"): what to give, and where a first one comes from
_ARGUMENT_GIVEN = {
    "scenario": "give a scenario file (YAML or JSON); toolchoice init scenario.yaml writes a starter one",
    "response": ("give a saved reply body (JSON), e.g. a step-01.response.json that run --save wrote, "
                 "or - to read it from stdin"),
    "file": "give an OTLP/JSON trace file, a folder proxy, mock or send --save wrote, or a HAR file",
}
_KEY_OPTIONS = ("--api-key", "--api_key", "--apikey", "--key", "--token")
# words a new user tries as a command (the docs' own: "replay", "dialects", "trace import"), and what does that job
_COMMAND_WORDS = {
    "replay": "a saved loop, trace or HAR file replays with toolchoice run --replay FILE -p ID",
    "dialect": "--dialect NAME is an option of render and compare",
    "dialects": "--dialect NAME is an option of render and compare",
    "import": "tools import with toolchoice tools FILE, a recorded run with toolchoice trace FILE",
    "serve": "toolchoice mock -p ID serves a provider's API on 127.0.0.1",
    "list": "toolchoice providers lists the providers",
    "snapshot": "golden snapshots are toolchoice render SCENARIO --snapshot DIR",
    "help": "toolchoice --help lists the commands, toolchoice COMMAND --help one command's options",
    "version": "toolchoice --version",
}
_FORMAT_WORDS = {"pretty": "pretty", "json": "json", "jsonl": "jsonl", "markdown": "markdown", "md": "markdown",
                 "curl": "curl", "yaml": "yaml"}


def _option_instead(option: str | None, given: str) -> str | None:
    """What an option a new user reaches for is spelled as here: a format as an option of its own (`--json`) is
    --format's value, and a key is never an option (it is read from the provider's variable)."""
    if not option or given not in COMMANDS:
        return None
    if option in _KEY_OPTIONS:
        return ("a key is never an option: each provider's is read from its variable, OPENAI_API_KEY, "
                "ANTHROPIC_API_KEY, ...; `toolchoice doctor` lists them, docs/keys.md")
    word = _FORMAT_WORDS.get(option.lstrip("-").lower())
    if word is None or not option.startswith("--"):
        return None
    formats = [p for p in _command(None).commands[given].params if p.name == "format"]
    if not formats:
        return None
    choices = [str(getattr(c, "value", c)) for c in getattr(formats[0].type, "choices", ())]
    if word in choices:
        return f"the output format is --format's value: -f {word}"
    return f"--format takes {', '.join(choices)} here"


def _commands_taking(option: str | None, given: str) -> list[str]:
    """The other commands that take ``option`` (an unknown option of ``given``), in the help's order."""
    if not option or not option.startswith("--") or given not in COMMANDS:
        return []
    app = _command(None)
    if any(option in (*p.opts, *p.secondary_opts) for p in app.commands[given].params):
        return []  # an option of this command given wrong (`render --tool-choice` without its value): no elsewhere
    return [name for name in COMMANDS if name != given
            and any(option in (*p.opts, *p.secondary_opts) for p in app.commands[name].params)]


# Options naming a folder or file written to (or read): an empty value would be the current folder, where
# --save removes an earlier run's sample files and --snapshot --update the files one render does not write.
_PATH_OPTIONS = ("--save", "--snapshot", "--trace-out", "--capabilities", "--scenario-out")


def _empty_path_option(argv: list[str]) -> str | None:
    for i, arg in enumerate(argv):
        name, eq, value = arg.partition("=")
        if name in _PATH_OPTIONS and (value == "" if eq else i + 1 < len(argv) and argv[i + 1] == ""):
            return name
    return None


@functools.lru_cache(maxsize=None)
def _command(name: str | None) -> Any:
    """The click command typer makes for ``name`` (None: the whole app), made once per process: a caller that
    runs many commands in one process (the tests, a notebook) pays typer's conversion (~1.4 ms) once each."""
    return typer.main.get_command(build([name] if name is not None else None))


class _LinesTrimmed:
    """The help console's stream with each line's end padding (rich pads every line to the width) left out: an
    example's shell continuation (help_examples) then ends its line with the ``\\`` itself, and its lines pasted
    from a terminal or a file run as one command (a ``\\`` before spaces escapes a space, and the shell ran the first
    line alone)."""

    _PADDING = re.compile(r" +(?=(?:\x1b\[[0-9;]*m)*\n)")

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(self._PADDING.sub("", text))

    def __getattr__(self, name: str) -> Any:  # isatty, flush, encoding, fileno: the stream's own
        return getattr(self._stream, name)


def _fold_help_cells() -> None:
    """--help: an option's help text folds a word longer than its column (a dotted key, an example, a variable
    name) onto the next line, where typer's table would cut it with "…" (at 80 columns and below). Only the
    help path loads typer's rich helpers, so the commands' start-up is untouched."""
    from rich.text import Text
    from typer import rich_utils

    original = rich_utils._get_parameter_help
    if getattr(original, "folds", False):
        return

    def folding(*args: Any, **kwargs: Any) -> Any:
        cell = original(*args, **kwargs)
        for item in getattr(cell, "renderables", ()):
            if isinstance(item, Text):
                item.overflow = "fold"
        return cell

    folding.folds = True  # type: ignore[attr-defined]
    rich_utils._get_parameter_help = folding
    from .help_layout import install

    install()  # the option panels: every word whole at the terminal's width
    make_console = rich_utils._get_rich_console

    def closing_quietly(stderr: bool = False) -> Any:
        """`toolchoice --help | head`: the reader has what it wanted, as for every command (rich exits 1). A word
        wider than its line breaks after a `/`, a `.`, ... as the commands' output breaks it (word_breaks)."""
        from .word_breaks import with_rule

        console = with_rule(make_console(stderr))
        console.file = _LinesTrimmed(console.file)

        def on_broken_pipe() -> None:
            from .output import point_stdout_at_devnull

            console.quiet = True
            point_stdout_at_devnull()
            raise SystemExit(0)

        console.on_broken_pipe = on_broken_pipe
        return console

    rich_utils._get_rich_console = closing_quietly
    for name in ("highlighter", "negative_highlighter"):  # the option names' cells (--results-from at 60)
        plain = getattr(rich_utils, name)

        class Folding(type(plain)):  # type: ignore[misc]
            def __call__(self, *args: Any, **kwargs: Any) -> Any:
                text = super().__call__(*args, **kwargs)
                text.overflow = "fold"
                return text

        setattr(rich_utils, name, Folding())


def main() -> None:
    """The console script: run the command, then exit without the interpreter's teardown walk."""
    import signal

    from . import heap

    heap.OWNED = True  # this process is the command's alone (heap.settle)
    # SIGTERM (a CI timeout, `timeout`, `kill`) ends the command as Ctrl-C does: what finished is kept and shown,
    # and the MCP servers it started are stopped (with the default action they outlived it)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    # a cheap look first, so that UTF-8 streams (nearly all) do not import stdio, whose writes_utf8 is the exact one
    if any(stream is not None and (getattr(stream, "encoding", None) or "").lower() != "utf-8"
           for stream in (sys.stdout, sys.stderr)):
        from .stdio import escape_unencodable

        escape_unencodable()  # a character the stream's encoding lacks is shown as a JSON escape, not a crash
    lossy = [name for name in ("stdout", "stderr") if _writes_may_be_lost(getattr(sys, name))]
    if lossy:
        from .stdio import whole_writes

        whole_writes(lossy)  # unbuffered (-u), a non-blocking pipe: every byte is written, or the error raised
    try:
        code = run(sys.argv[1:])
    except KeyboardInterrupt:  # before a command's own handling (typer building it, parsing): one line, no traceback
        from .exits import error_line

        error_line("interrupted")
        code = 130
    _skip_teardown()
    _exit_now(code)


def _writes_may_be_lost(stream: Any) -> bool:
    """Whether a write to ``stream`` could be cut short silently (a text layer on the raw file) or be refused by
    a full pipe (a non-blocking one): see cli/stdio.py, imported only then. Only Python's own text streams: a
    stream someone put in their place (a harness, an embedding program) is theirs."""
    if type(stream) is not io.TextIOWrapper:
        return False
    buffer = stream.buffer
    if type(buffer) is io.FileIO:
        return True
    try:
        return type(buffer) is io.BufferedWriter and not os.get_blocking(buffer.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def _skip_teardown() -> None:
    """The command is done and the process ends next: move every object into gc's permanent
    generation, so the interpreter's exit does not walk and free them one by one (~30 ms after a
    send, with asyncio, httpx and jsonschema loaded). atexit handlers and flushing stdout/stderr
    still run; nothing of toolchoice's relies on a finalizer at exit (files are closed where
    written, HTTP clients when their command ends). Here, not in the commands: an in-process
    caller (tests, CliRunner) keeps its garbage collection as it was."""
    import gc

    gc.freeze()


def _exit_now(code: int) -> NoReturn:
    """End the process as the interpreter's exit would, without its teardown: the atexit handlers run and
    stdout and stderr are flushed, then ``os._exit``. The teardown frees every module and object one by
    one (~12 ms after `run --repeat 200`, with asyncio, httpx, aiohttp and jsonschema loaded). Where the
    interpreter has more to do (a thread of ours still running, to be joined; a flush that fails, to be
    reported as it reports it; a profiler or tracer attached, which writes its report when the interpreter
    exits), it exits itself."""
    import atexit
    import threading

    if threading.active_count() > 1 or sys.getprofile() is not None or sys.gettrace() is not None or _monitored():
        sys.exit(code)
    atexit._run_exitfuncs()  # what the interpreter's exit runs first (handlers registered by the libraries too)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:  # None: started with the descriptor closed (`>&-`), as the interpreter skips it
                stream.flush()
    except (OSError, ValueError):
        sys.exit(code)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM while the last output waits on a full pipe: ended as interrupted
        os._exit(130)
    os._exit(code)


def _monitored() -> bool:
    """Whether a tool is attached through sys.monitoring (Python 3.12+), where cProfile attaches from 3.12 on
    (sys.getprofile() stays None) and coverage and debuggers may."""
    monitoring = getattr(sys, "monitoring", None)
    return monitoring is not None and any(monitoring.get_tool(tool) is not None for tool in range(6))
