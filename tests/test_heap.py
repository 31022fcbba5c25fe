"""cli/heap.settle: the console script's process tunes its collector before sending many requests; an
in-process caller's collector is left as it was."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from typing import Callable

from toolchoice.cli import heap


def test_an_in_process_caller_keeps_its_collector() -> None:
    before = gc.get_threshold(), gc.get_freeze_count()
    assert heap.OWNED is False
    heap.settle()
    assert (gc.get_threshold(), gc.get_freeze_count()) == before


def test_the_console_script_settles_its_heap_before_sending() -> None:
    """In a process of its own, as app.main runs a command: what is alive is frozen, the young generation
    collected every 10,000 allocations."""
    code = ("import gc, sys\n"
            "from toolchoice.cli import heap\n"
            "heap.OWNED = True\n"
            "heap.settle()\n"
            "print(gc.get_threshold(), gc.get_freeze_count() > 1000)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "(10000, 10, 10) True"


def test_app_main_owns_the_process() -> None:
    code = ("import atexit, sys\n"
            "from toolchoice.cli import app, heap\n"
            "sys.argv = ['toolchoice', '--version']\n"
            "atexit.register(lambda: print(heap.OWNED, file=sys.stderr))\n"  # main ends the process (app._exit_now)
            "app.main()\n")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stderr
    assert err.strip().endswith("True")


EXIT = """
import atexit, os, sys, threading, time, types
from toolchoice.cli import app


class Dropped:
    def __del__(self, write=os.write):  # os itself may be torn down first
        write(1, b"TEARDOWN")


def at_exit():
    late = types.ModuleType("late")  # made after main's gc.freeze: the interpreter's teardown frees it
    late.kept = Dropped()
    sys.modules["late"] = late
    print("ATEXIT", flush=True)


atexit.register(at_exit)
if sys.argv[1] == "thread":
    def late():
        time.sleep(0.3)
        print("THREAD", flush=True)
    threading.Thread(target=late).start()
sys.argv = ["toolchoice", *sys.argv[2:]]
print("OUTPUT", end="")  # left in stdout's buffer for the exit to flush
app.main()
"""


def test_the_console_script_ends_without_the_teardown_but_with_atexit_flushes_and_its_code() -> None:
    """app.main ends the process with os._exit once atexit's handlers ran and stdout and stderr are flushed:
    the interpreter's teardown (freeing every module and object) is left out, the exit code kept."""
    done = subprocess.run([sys.executable, "-c", EXIT, "plain", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("OUTPUT") and "ATEXIT" in done.stdout, done
    assert "TEARDOWN" not in done.stdout
    bad = subprocess.run([sys.executable, "-c", EXIT, "plain", "render", "/nonexistent.yaml"], capture_output=True,
                         text=True)
    assert bad.returncode == 2 and "ATEXIT" in bad.stdout and len(bad.stderr.strip().splitlines()) == 1, bad


def test_a_thread_still_running_at_the_end_is_joined_as_the_interpreter_joins_it() -> None:
    done = subprocess.run([sys.executable, "-c", EXIT, "thread", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and "THREAD" in done.stdout and "ATEXIT" in done.stdout, done


def _closing(fd: int) -> Callable[[], None]:
    return lambda: os.close(fd)  # in the child, before it runs: the interpreter sets sys.stdout/stderr to None


def test_the_exit_keeps_the_code_when_stdout_or_stderr_was_closed() -> None:
    """`toolchoice ... >&-` / `2>&-`: the interpreter starts with sys.stdout (sys.stderr) None and its own exit
    skips it; the console script's exit must too, not end in a traceback and exit code 1."""
    for fd, args, code in [(1, ["render", "/nonexistent.yaml"], 2), (2, ["--version"], 0),
                           (2, ["render", "/nonexistent.yaml"], 2)]:  # the error line has nowhere to go; its code does
        code_text = f"import sys\nfrom toolchoice.cli import app\nsys.argv = ['toolchoice', *{args!r}]\napp.main()\n"
        done = subprocess.run([sys.executable, "-c", code_text], capture_output=True, text=True,
                              preexec_fn=_closing(fd))
        assert done.returncode == code and "Traceback" not in done.stderr, (fd, done)


def test_a_profile_taken_with_python_m_cprofile_is_written(tmp_path) -> None:
    """`python -m cProfile -o FILE -m toolchoice.cli ...` writes its report when the command returns; from
    Python 3.12 cProfile attaches through sys.monitoring (sys.getprofile() stays None), which the console
    script's exit must see too, or os._exit ends the process before the report is written."""
    out = tmp_path / "profile.out"
    done = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), "-m", "toolchoice.cli", "--version"],
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("toolchoice "), done
    assert out.is_file() and out.stat().st_size > 0


STALLED = """
import atexit, io, os, signal, sys
from toolchoice.cli import app

exiting = []
atexit.register(lambda: exiting.append(True))  # app.main's exit runs atexit's handlers, then flushes stdout


class Stalled(io.TextIOWrapper):
    def flush(self):
        if exiting:  # the last output waits on a full pipe when SIGTERM (`timeout`) or Ctrl-C arrives
            os.kill(os.getpid(), signal.SIGTERM)
        super().flush()


sys.stdout = Stalled(sys.stdout.detach(), encoding="utf-8")
sys.argv = ["toolchoice", "--version"]
app.main()
"""


def test_a_signal_while_the_exit_flushes_stdout_ends_as_interrupted_without_a_traceback() -> None:
    """SIGTERM (mapped to Ctrl-C's KeyboardInterrupt by app.main) while the exit's flush of stdout waits on a
    reader that stopped reading: the command ends as an interrupted one does (130), never with a traceback."""
    done = subprocess.run([sys.executable, "-c", STALLED], capture_output=True, text=True, timeout=60)
    assert done.returncode == 130 and "Traceback" not in done.stderr, done
