"""Many `toolchoice` invocations in a few long-lived runner processes (the key-leak and the offline
matrices: hundreds of jobs each, where a cold start per job would take minutes).

Each runner is a real interpreter started once per test module: it runs the installed click command
in-process once per job (argv; optional ``env`` to set and ``unset`` names), with the environment reset
to the runner's own before each job, a fresh ``sys.stdout``/``sys.stderr`` and an empty stdin, and
answers with ``{code, stdout, stderr, seconds}`` per job. Batches of jobs come and go as one JSON line
each on a private pipe; the process's own file descriptors 1 and 2 point at a file that is read after
every batch, so whatever the process itself printed (a warning, a stray write to fd 1 or 2) comes back
with the batch as ``process_output``, and the tests check it as they check each job's output. What the
process prints after the last batch (at exit) is returned by ``close``, which also checks the exit code.

A ``prelude`` (code run before the CLI is imported: the offline matrix blocks sockets there) may define
``job_started()`` and ``job_extra() -> dict``, called around each job; ``job_extra``'s keys join the
job's result.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout  # the builtin TimeoutError from 3.11 on
from typing import Any, Mapping

LOOP = r"""
import contextlib, io, json, os, sys, tempfile, time, traceback

_protocol_in = sys.stdin
_protocol_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
_exit_stderr = os.dup(2)
_own = tempfile.TemporaryFile()
os.dup2(_own.fileno(), 1)
os.dup2(_own.fileno(), 2)


def _own_output():
    for stream in (sys.__stdout__, sys.__stderr__):
        stream.flush()
    _own.seek(0)
    text = _own.read().decode("utf-8", errors="replace")
    _own.seek(0)
    _own.truncate()
    return text


def _main():
    import typer
    from toolchoice.cli.app import app

    command = typer.main.get_command(app)
    started_hook, extra_hook = globals().get("job_started"), globals().get("job_extra")
    base = dict(os.environ)

    def reset_environment():
        if dict(os.environ) != base:  # (a look costs a fifth of a reset)
            os.environ.clear()
            os.environ.update(base)

    for line in _protocol_in:
        results = []
        for job in json.loads(line):
            reset_environment()
            for name in job.get("unset", ()):
                os.environ.pop(name, None)
            os.environ.update(job.get("env", {}))
            if started_hook:
                started_hook()
            out, err = io.StringIO(), io.StringIO()
            code = 0
            sys.stdin = io.StringIO("")
            started = time.perf_counter()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    command.main(args=job["argv"], prog_name="toolchoice", standalone_mode=True)
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            result = {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue(),
                      "seconds": time.perf_counter() - started}
            if extra_hook:
                result.update(extra_hook())
            results.append(result)
        reset_environment()
        _protocol_out.write(json.dumps({"results": results, "process_output": _own_output()}) + "\n")
        _protocol_out.flush()


try:
    _main()
except BaseException:
    traceback.print_exc()
    raise
finally:  # what the process prints from here on (and a crash's traceback) goes to the real stderr
    _left = _own_output()
    os.dup2(_exit_stderr, 2)
    os.dup2(_exit_stderr, 1)
    sys.stderr.write(_left)
    sys.stderr.flush()
"""


# A prelude that blocks every way to open a connection, recording each attempt, and says after each job
# whether httpx has been imported by then (by that job or an earlier one): the offline and dry-run checks.
BLOCK_SOCKETS = r"""
import socket

ATTEMPTS = []

def refuse(what):
    def blocked(*args, **kwargs):
        ATTEMPTS.append(what)
        raise OSError(f"toolchoice dry-run test: {what} is blocked")
    return blocked

class NoSocket(socket.socket):
    def __init__(self, *args, **kwargs):
        ATTEMPTS.append("socket.socket()")
        raise OSError("toolchoice dry-run test: socket.socket() is blocked")

socket.socket.connect = refuse("socket.connect")
socket.socket.connect_ex = refuse("socket.connect_ex")
socket.socket = NoSocket
socket.create_connection = refuse("socket.create_connection")
socket.getaddrinfo = refuse("socket.getaddrinfo")
socket.socketpair = refuse("socket.socketpair")

def job_started():
    ATTEMPTS.clear()

def job_extra():
    import sys
    return {"sockets": list(ATTEMPTS), "httpx": "httpx" in sys.modules}
"""


class RunnerPool:
    """``processes`` runner processes with environment ``env``; ``run`` splits jobs over them."""

    def __init__(self, processes: int, env: Mapping[str, str], prelude: str = "", timeout: float = 300) -> None:
        self.timeout = timeout  # seconds for one call of ``run``, as the one-shot runners had
        self.procs = [subprocess.Popen([sys.executable, "-c", prelude + LOOP], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
                                       env=dict(env))
                      for _ in range(processes)]

    def _batch(self, proc: subprocess.Popen[str], jobs: list[dict[str, Any]]) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(jobs) + "\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        if not line:  # the runner died: its traceback is on its stderr
            _, stderr = proc.communicate(timeout=60)
            raise AssertionError(f"runner exited {proc.returncode}: {stderr[-3000:]}")
        return json.loads(line)

    def run(self, jobs: Mapping[str, dict[str, Any]], processes: int | None = None
            ) -> tuple[dict[str, dict[str, Any]], str]:
        """Each job's result by name, and what the processes printed themselves meanwhile. Jobs go to the
        first ``processes`` runners (all by default), dealt in turn; each runner runs its share in order."""
        names = list(jobs)
        procs = self.procs[:processes or len(self.procs)]
        chunks = [(proc, names[i::len(procs)]) for i, proc in enumerate(procs)]
        chunks = [(proc, chunk) for proc, chunk in chunks if chunk]
        results: dict[str, dict[str, Any]] = {}
        output = ""
        if not chunks:
            return results, output
        pool = ThreadPoolExecutor(len(chunks))
        try:
            answers = pool.map(lambda c: (c[1], self._batch(c[0], [jobs[n] for n in c[1]])), chunks,
                               timeout=self.timeout)
            for chunk, answer in answers:
                results.update(zip(chunk, answer["results"]))
                output += answer["process_output"]
        except FuturesTimeout:
            self.kill()
            raise AssertionError(f"the runners took more than {self.timeout} s") from None
        finally:
            pool.shutdown(wait=True)
        return results, output

    def kill(self) -> None:
        for proc in self.procs:
            proc.kill()

    def close(self) -> str:
        """End the runners; returns what they printed at exit. Each must exit 0."""
        output = ""
        for proc in self.procs:
            try:
                _, stderr = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                self.kill()
                raise
            assert proc.returncode == 0, stderr[-3000:]
            output += stderr
        return output
