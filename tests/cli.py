"""Run `toolchoice ARGS` in the test process: the same entry (``toolchoice.cli.app.run``) the console
script calls, with its own environment, working folder, stdin, stdout and stderr, and the exit code
it would exit with. Tests that need a real process (what gets imported, signals, the console script
itself) start one; everything else runs here, without paying an interpreter start per call."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Mapping, Sequence


def run_cli(args: Sequence[str], *, env: Mapping[str, str] | None = None, input: str | None = None,
            cwd: str | Path | None = None) -> subprocess.CompletedProcess[str]:
    """``toolchoice *args`` in-process; ``env`` replaces the whole environment for the call (as a
    subprocess's would), ``input`` is stdin. Returns what ``subprocess.run(..., text=True)`` would."""
    from toolchoice.cli.app import run

    saved_env, saved_cwd, saved_stdin = dict(os.environ), os.getcwd(), sys.stdin
    out, err = io.StringIO(), io.StringIO()
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
        if cwd is not None:
            os.chdir(cwd)
        sys.stdin = io.StringIO(input or "")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = run(list(args))
            except SystemExit as exc:  # typer's own exits (--help)
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(["toolchoice", *args], code, out.getvalue(), err.getvalue())
