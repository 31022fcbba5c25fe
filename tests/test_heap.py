"""cli/heap.settle: the console script's process tunes its collector before sending many requests; an
in-process caller's collector is left as it was."""

from __future__ import annotations

import gc
import subprocess
import sys

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
    code = ("import sys\n"
            "from toolchoice.cli import app, heap\n"
            "sys.argv = ['toolchoice', '--version']\n"
            "try:\n    app.main()\nexcept SystemExit:\n    pass\n"
            "print(heap.OWNED, file=sys.stderr)\n")
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stderr
    assert err.strip().endswith("True")
