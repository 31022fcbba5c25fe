"""Suite-wide set-up: how many worker processes run the suite, and a one-certificate CA bundle in
``$SSL_CERT_FILE``.

Workers (``--workers``, tests/forked_workers.py): three on a machine of two cores or more, forked from this
process after it has collected the suite once. The suite is timed on two cores, and part of a worker's time is
spent waiting on real timeouts, pauses and servers (test_aio_transport, test_mcp_import, test_hardening_faults);
a third worker runs meanwhile. (Measured under pytest-xdist, which these workers replace, at 7,374 tests: 138.0 s
CPU and 254 s wall with two, 138.5 s and 191 s with three.) None (one process) on a one-core machine and for the
realmodel tests, which share one llama.cpp server per session: a second worker would start a second server.

Every httpx client builds a verifying TLS context, and reading certifi's bundle (~140 CAs) takes 15-50 ms
on this machine; the suite builds a few thousand clients (the secrets matrix alone ~1300: one per send,
one per probe question, one per provider in compare --send), all against ``http://127.0.0.1``. No test
reaches the internet, so no test verifies a public certificate: one real CA from certifi's bundle gives
httpx the same code path (``trust_env`` reads ``$SSL_CERT_FILE``, as transport.py relies on) at a
fraction of the cost. Subprocesses inherit it. It replaces any ``$SSL_CERT_FILE``/``$SSL_CERT_DIR`` of the
shell (this machine sets the system bundle, 140-odd CAs) for the session only; the TLS test in
test_transport.py sets its own bundle.

Bytecode: some machines (this one) set ``PYTHONDONTWRITEBYTECODE=1``. pytest then never caches its
assert-rewritten test modules, and an editable install has no ``.pyc`` for toolchoice's own modules, so every
run, in every worker, re-parses, rewrites and compiles ~60 test files and all of providers/ and cli/: 3.3 of
the 4.8 s CPU that collecting the suite takes in one process. The suite caches them the usual way
(``__pycache__`` beside each source, git-ignored) from here on; modules loaded before this file are
unaffected, and the environment of subprocesses is not changed (they read the cached ``.pyc`` files).
bench/ does the same for its children (bench/README.md, "Bytecode cache").

Garbage collector: after collection the workers hold every test module, the SDKs' type modules and
Hypothesis, none of which will be freed before the end; ``gc.freeze`` moves them out of the collector's
reach, so its full collections no longer walk them again and again (the CLI does the same with what it
imported, cli/app.py). The cost: cyclic garbage left by collection itself stays until the worker ends.
In three alternating pairs of full runs (fresh venv): 63.3-63.9 s CPU without it, 58.0-59.1 s with it.
During collection itself the collector is off: it allocates much and frees little, so the collector kept
walking the growing heap while pytest rewrote the asserts of each test module. Collecting the suite in one
process with no cached bytecode (a fresh clone, as CI runs it) took 3.5 s CPU with it on, 2.2 s with it
off; 1.2 s against 0.9 s with the cache.
After that the young generation is collected every 10,000 net allocations instead of CPython's 700 (as
test_fuzz.py did for itself alone): the tests allocate many short-lived objects (rendered tables, parsed
bodies, Hypothesis examples), and the collector's passes over them cost ~8% of the CPU of ten in-process
files (17.1 against 18.7 s CPU, two alternating pairs on a loaded machine). The same objects are collected;
only the passes are fewer. Subprocesses keep the default.

Ctrl-C: a shell without job control starts a background command (``pytest &``, a CI step run in the
background) with SIGINT ignored, and an ignored signal stays ignored in every process started from it, so
the real processes the Ctrl-C tests interrupt would never see their SIGINT and run to the end. The suite
restores Python's own handler; the processes it starts then begin with the default, as from a terminal.
"""

from __future__ import annotations

import gc
import os
import re
import signal
import sys
import tempfile
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

import forked_workers
from forked_workers import pytest_addoption, pytest_runtestloop  # noqa: F401  (the workers' hooks)


def _one_ca_bundle() -> None:
    import certifi

    text = Path(certifi.where()).read_text(encoding="ascii")
    first = re.search(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----\n", text, re.S)
    assert first, certifi.where()
    folder = Path(tempfile.mkdtemp(prefix="toolchoice-tests-ca-"))
    bundle = folder / "one-ca.pem"
    bundle.write_text(first.group(0), encoding="ascii")
    os.environ["SSL_CERT_FILE"] = str(bundle)
    os.environ.pop("SSL_CERT_DIR", None)
    _made.append(bundle)


# What each worker takes first (issue 18, measured per file: wall and CPU): the first worker the two matrices that
# run their jobs in two runner processes (they can keep both cores busy on their own), the second, meanwhile, the
# files that mostly wait (real timeouts, pauses, back-off), then test_fuzz (~11 s of CPU: a long file handed out
# last leaves one worker busy while the others have nothing left to do). The other files follow in collection order.
FIRST = {
    0: ("tests/test_hardening_secrets.py", "tests/test_hardening_offline.py"),
    1: ("tests/test_hardening_faults.py", "tests/test_streaming_live.py", "tests/test_transport.py",
        "tests/test_compare_send.py", "tests/test_fuzz.py"),
}


_made: list[Path] = []
YOUNG = 10_000  # allocations between young-generation passes of the collector (CPython's default: 700)


def _interruptible() -> None:
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        try:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        except ValueError:  # not the main thread: leave it
            pass


_one_ca_bundle()
_interruptible()
sys.dont_write_bytecode = False


def pytest_configure(config: pytest.Config) -> None:
    """``TOOLCHOICE_UPDATE_README=1``: the README's and docs' examples and generated blocks rewritten once, here,
    before the tests are collected (test_readme.regenerate; the workers are forked after collection). The files each
worker takes first (``FIRST``) go to tests/forked_workers.py."""
    config.stash[forked_workers.FIRST] = FIRST
    if os.environ.get("TOOLCHOICE_UPDATE_README"):
        import test_readme

        test_readme.regenerate()


def pytest_unconfigure(config: object) -> None:
    for bundle in _made:
        bundle.unlink(missing_ok=True)
        bundle.parent.rmdir()
        if os.environ.get("SSL_CERT_FILE") == str(bundle):
            del os.environ["SSL_CERT_FILE"]


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: object) -> Generator[None, object, object]:
    gc.disable()
    try:
        return (yield)
    finally:
        gc.freeze()
        gc.set_threshold(YOUNG, *gc.get_threshold()[1:])
        gc.enable()
