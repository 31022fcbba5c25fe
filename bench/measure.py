"""Running commands and summarising timings: wall time of a child process, and its peak RSS.

Peak RSS is the kernel's ru_maxrss for the child (KiB on Linux), read with ``os.wait4`` by a tiny
helper interpreter (``python -I -S``, ~8 MiB) that spawns the command. Not by this process: on
Linux a child's ru_maxrss starts at its parent's RSS (the fork copies it and exec keeps the high
water mark), so children of the bench, which has loaded toolchoice, could never read below ~27 MiB.
``/usr/bin/time -f %M`` gives the same figures as the helper.
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
    returncode: int


RSS_HELPER = """
import os, sys
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ,
                     file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
_, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


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
    """Run once; returns the Run, and stdout/stderr text when ``capture`` (else empty strings).

    A timed run waits with a plain blocking ``wait()``: given a timeout, subprocess polls with
    sleeps of up to 50 ms and every time would be rounded up to that grid."""
    out = subprocess.PIPE if capture else subprocess.DEVNULL
    start = time.perf_counter()
    proc = subprocess.Popen(command.argv, stdout=out, stderr=out, env=command.env or None, cwd=ROOT, text=capture)
    if capture:
        stdout, stderr = proc.communicate(timeout=timeout)
        return Run(time.perf_counter() - start, proc.returncode), stdout, stderr
    proc.wait()
    return Run(time.perf_counter() - start, proc.returncode), "", ""


def peak_rss_kib(command: Command) -> int:
    """The command's peak RSS in KiB, measured by the helper (see the module docstring)."""
    argv = (sys.executable, "-I", "-S", "-c", RSS_HELPER, *command.argv)
    proc = subprocess.run(argv, capture_output=True, text=True, env=command.env or None, cwd=ROOT, timeout=120)
    kib, _ = proc.stdout.split()
    return int(kib)


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


def peak_rss_mib(command: Command, runs: int) -> float:
    """The largest peak RSS over ``runs`` runs, in MiB (a ceiling, not a median)."""
    return max(peak_rss_kib(command) for _ in range(runs)) / 1024
