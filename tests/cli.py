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
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Mapping, Sequence

if TYPE_CHECKING:
    import pytest


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


def record_retry_waits(monkeypatch: "pytest.MonkeyPatch") -> list[float]:
    """From here to the end of the test, every send the CLI makes in-process (send, compare --send,
    probe, run: each builds ``runner.SendSettings`` at call time) sleeps between retries through a
    recorder: the waits the runner asks for are appended to the returned list, in order, and none is
    slept. Everything else stays real: the sockets, the servers counting requests, the read timeouts.
    A test using this asserts on the list, so should the CLI ever stop reaching the seam, the list
    stays empty and the test fails rather than silently sleeping."""
    import asyncio
    from dataclasses import dataclass

    from toolchoice.providers.core import runner

    waits: list[float] = []

    async def recorded(seconds: float) -> None:
        waits.append(seconds)
        await asyncio.sleep(0)  # still a turn of the event loop, as a real sleep is

    @dataclass(frozen=True)
    class RecordedSleep(runner.SendSettings):
        sleep: Callable[[float], Awaitable[None]] | None = recorded

    monkeypatch.setattr(runner, "SendSettings", RecordedSleep)
    return waits


def refused(result: Any, *secrets: str) -> str:
    """A refusal as the command line gives it: exit 2, one line on stderr, nothing on stdout, no traceback, and no
    ``secret`` (nor its last 12 characters) anywhere. Returns the line."""
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 1
    for secret in secrets:
        for piece in (secret, secret[-12:]):
            assert piece not in result.stderr + result.stdout
    return result.stderr


def refused_saying(result: Any, *words: str) -> str:
    """``refused``'s one line, holding every one of ``words``."""
    line = refused(result)
    for word in words:
        assert word in line, line
    return line


def user_env(columns: int = 80, **extra: str) -> dict[str, str]:
    """The environment of a user with no key set, a terminal ``columns`` wide, no colour."""
    env = {k: v for k, v in os.environ.items()
           if not k.endswith(("_KEY", "_TOKEN", "_TOKEN_BEDROCK")) and k not in ("COLUMNS", "TOOLCHOICE_DEBUG")}
    return {**env, "COLUMNS": str(columns), "NO_COLOR": "1", "TERM": "dumb", **extra}


def refuse_sockets(monkeypatch: "pytest.MonkeyPatch") -> list[str]:
    """From here to the end of the test every way out of the process raises and is counted in the list returned
    (a dry run or a replay must leave it empty)."""
    import socket

    tried: list[str] = []

    def refuse(name: str) -> Callable[..., Any]:
        def blocked(*args: Any, **kwargs: Any) -> Any:
            tried.append(name)
            raise OSError(f"{name} blocked by the test")
        return blocked

    monkeypatch.setattr(socket.socket, "connect", refuse("connect"))
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("connect_ex"))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo"))
    return tried
