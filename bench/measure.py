"""Running commands and summarising timings: wall time and peak RSS of one child process each.

Peak RSS comes from ``os.wait4``, the kernel's ru_maxrss for exactly that child (KiB on Linux),
so nothing else in the bench process is counted.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
RESULTS = BENCH / "results"


@dataclass(frozen=True)
class Command:
    """A command to time: its argv, and the environment it runs with."""

    name: str
    argv: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class Run:
    seconds: float
    max_rss_kib: int
    returncode: int


def entry_argv() -> tuple[str, ...]:
    """The installed console script, run by this interpreter (never a pyenv/asdf shim on PATH)."""
    script = Path(sys.executable).parent / "toolchoice"
    if script.is_file():
        return (sys.executable, str(script))
    return (sys.executable, "-c", "from toolchoice.cli.app import main; main()")


def child_env(**extra: str) -> dict[str, str]:
    """The environment children run with.

    Bytecode caching is on, in a cache folder the bench owns (bench/results/pycache): this machine may
    set PYTHONDONTWRITEBYTECODE, and an editable install has no .pyc, so without it every run would
    recompile toolchoice's sources, which no installed copy does. Proxies are dropped so that
    127.0.0.1 is reached directly; colours and terminal width are fixed."""
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower() and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPYCACHEPREFIX=str(RESULTS / "pycache"), NO_PROXY="127.0.0.1,localhost", NO_COLOR="1",
               TERM="dumb", COLUMNS="120")
    env.update(extra)
    return env


def run_once(command: Command, *, capture: bool = False, timeout: float = 120.0) -> tuple[Run, str, str]:
    """Run once; returns the Run, and stdout/stderr text when ``capture`` (else empty strings)."""
    out = subprocess.PIPE if capture else subprocess.DEVNULL
    start = time.perf_counter()
    proc = subprocess.Popen(command.argv, stdout=out, stderr=out, env=command.env or None, cwd=ROOT,
                            text=capture)
    if capture:
        stdout, stderr = proc.communicate(timeout=timeout)  # reaps the child: no rusage for it
        return Run(time.perf_counter() - start, 0, proc.returncode), stdout, stderr
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Run(seconds, usage.ru_maxrss, proc.returncode), "", ""


def interleaved(commands: Sequence[Command], rounds: int) -> dict[str, list[Run]]:
    """Each round runs every command once, the order rotated per round, so drift hits all alike."""
    runs: dict[str, list[Run]] = {c.name: [] for c in commands}
    for i in range(rounds):
        shift = i % len(commands)
        for command in list(commands[shift:]) + list(commands[:shift]):
            run, _, _ = run_once(command)
            runs[command.name].append(run)
    return runs


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def median_seconds(runs: Sequence[Run]) -> float:
    return median([r.seconds for r in runs])


def peak_rss_mib(runs: Sequence[Run]) -> float:
    """The largest peak RSS over the runs, in MiB (a ceiling, not a median)."""
    return max((r.max_rss_kib for r in runs), default=0) / 1024
