"""The suite's worker processes, forked after collection (``--workers N``; the hooks at the end, imported by
tests/conftest.py).

pytest-xdist starts each worker as a new interpreter that imports pytest and its plugins and collects the whole
suite again, and each worker then imports the official SDKs and agent frameworks its files use: on two cores
with three workers that was ~2.5 s of collection and ~5 s of the same imports, three times over. Here the
parent collects once, imports the SDKs once (``SHARED``), and forks its workers; they share what it loaded, copy
on write (``gc.freeze`` keeps the collector from touching those pages).

What stays as xdist's ``--dist loadfile`` did: each file goes whole to one worker, in the order the parent hands
them out (a worker takes the next file when it starts its file's last test, so module fixtures end where the
file does and session fixtures live on); every report, warning and crash comes back to the parent, which reports
them through pytest's own hooks (the terminal, ``-x``, the exit code, ``--durations``). A worker that dies fails
the test it was running and the rest of its file, by name.

``--workers 0`` runs in one process, as pytest does alone; the realmodel tests always do (one llama.cpp server).

A test still running after ``TEST_SECONDS`` is taken for hung: faulthandler writes every thread's stack of its
worker to a file in the session's temporary folder and ends the worker, and the parent fails that test with the
stacks (a hung worker once left the whole suite waiting, with no name for the test it was on). The slowest tests
take well under a minute on a quiet machine and a few minutes at a load of 25.
"""

from __future__ import annotations

import faulthandler
import gc
import importlib.util
import os
import re
import signal
import sys
import threading
import time
import traceback
import warnings
from multiprocessing.connection import Connection, Pipe, wait
from pathlib import Path
from typing import Any

import pytest

# Imported once in the parent before the fork: each is used by files that land on every worker (a dump of the
# modules each xdist worker had loaded at the end of a full run found all of them in all three). Only for a run of
# SUITE_SIZED files or more (a run of a few files imports what they use, as before), and only where installed.
# pydantic_ai (0.50 s CPU with the others loaded: test_pydantic_ai_wire, test_proxy_wire, test_dialect_extra_choice,
# trace_recorder) and mistralai.client (0.22 s: twelve files) are imported inside tests of files that land on
# different workers: once here instead of in each worker, and in what tests/forked_cli.py forks.
SHARED = ("openai", "anthropic", "google.genai", "mcp", "botocore.session", "agents", "langchain_core.messages",
          "langchain_openai", "langchain_anthropic", "hypothesis", "jsonschema", "opentelemetry.sdk.trace",
          "pydantic_ai", "mistralai.client")
SUITE_SIZED = 20
TEST_SECONDS = int(os.environ.get("TOOLCHOICE_TEST_SECONDS", "600"))  # a test past this is hung: stacks said, worker ends
# Where each test's CPU seconds go when set: a tab-separated line per test (node id, its worker's own CPU, its waited-for
# child processes' CPU, and the threads besides the main one that were alive before and after it and used 0.05 s or
# more meanwhile: ``name=seconds``; a thread an earlier test left running counts in a later test's CPU, and is named
# there), appended by the parent; how bench/README.md's table of the suite's costs is made
CPU_LOG = os.environ.get("TOOLCHOICE_TEST_CPU_LOG", "")
# LiteLLM (~3.8 s CPU) only when two or more of the files collected use it (tests/litellm_client.py), imported as
# litellm_client imports it: offline, with its bundled model map
LITELLM_USERS = re.compile(r"^\s*from litellm_client import", re.M)


def preload(files: list[Path]) -> list[str]:
    """SHARED's modules (and LiteLLM), imported for a run of ``files``; refuses to leave a thread behind (a fork
    copies only the calling thread)."""
    names = list(SHARED) if len(files) >= SUITE_SIZED else []
    if sum(1 for f in files if LITELLM_USERS.search(f.read_text(encoding="utf-8"))) >= 2:
        names.append("litellm")
    loaded = []
    for name in names:
        try:
            if importlib.util.find_spec(name.split(".")[0]) is None:
                continue
        except (ImportError, ValueError):
            continue
        offline = {"LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_HUB_OFFLINE": "1"} if name == "litellm" else {}
        saved = {k: os.environ.get(k) for k in offline}
        os.environ.update(offline)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                __import__(name)
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        loaded.append(name)
    assert threading.active_count() == 1, ("an import started a thread before the fork", threading.enumerate())
    return loaded


def units(items: list[pytest.Item], first: dict[int, tuple[str, ...]]) -> tuple[list[list[int]], dict[int, list[int]]]:
    """The items by file (in collection order), and which units each worker takes before the shared queue."""
    by_file: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        by_file.setdefault(item.nodeid.split("::", 1)[0], []).append(index)
    files = list(by_file)
    unit_of = {path: n for n, path in enumerate(files)}
    preferred = {worker: [unit_of[p] for p in paths if p in unit_of] for worker, paths in first.items()}
    return [by_file[path] for path in files], preferred


class Parent:
    """Hands out files, takes back reports, reports them; the worker side is ``_work``."""

    def __init__(self, session: pytest.Session, workers: int, first: dict[int, tuple[str, ...]]) -> None:
        self.session, self.config = session, session.config
        self.units, preferred = units(session.items, first)
        taken = {u for us in preferred.values() for u in us}
        self.preferred = preferred
        self.queue = [u for u in range(len(self.units)) if u not in taken]
        self.workers = workers
        self.running: dict[int, tuple[int, Connection]] = {}  # worker -> (pid, connection)
        self.current: dict[int, str | None] = {}  # worker -> the node id it is running
        self.pending: dict[int, list[int]] = {}  # worker -> the items of its units not yet reported

    def next_unit(self, worker: int) -> int | None:
        if self.session.shouldstop or self.session.shouldfail:
            return None
        mine = self.preferred.get(worker, [])
        if mine:
            return mine.pop(0)
        for other in self.preferred.values():  # another worker's first files, before the rest
            if other:
                return other.pop()
        return self.queue.pop(0) if self.queue else None

    def run(self) -> None:
        self.config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]  # one basetemp, made before the fork
        sys.stdout.flush()
        sys.stderr.flush()
        for worker in range(self.workers):
            mine, theirs = Pipe(duplex=True)
            pid = os.fork()
            if pid == 0:  # the worker
                mine.close()
                for _, earlier in self.running.values():  # the parent's ends to the workers forked before it
                    earlier.close()
                code = 1
                try:
                    code = _work(self.session, worker, theirs)
                except KeyboardInterrupt:  # Ctrl-C reached the whole process group: the parent says it
                    code = 2
                except BaseException:  # noqa: BLE001 -- said to the parent by the lost connection
                    traceback.print_exc()
                finally:
                    os._exit(code)
            theirs.close()
            self.running[worker] = (pid, mine)
            self.current[worker] = None
            self.pending[worker] = []
        try:
            self._serve()
        except BaseException:
            self._stop_all()
            raise
        if self.session.shouldfail:
            raise self.session.Failed(self.session.shouldfail)
        if self.session.shouldstop:
            raise self.session.Interrupted(self.session.shouldstop)

    def _serve(self) -> None:
        """Until every worker is done or lost; once pytest says stop (``-x``, ``--maxfail``), each worker is told
        to end after its current test (its fixtures torn down) and is waited for."""
        by_connection = {conn: worker for worker, (_, conn) in self.running.items()}
        stopping = False
        while by_connection:
            for conn in wait(list(by_connection)):
                worker = by_connection[conn]  # type: ignore[index]
                try:
                    kind, data = conn.recv()  # type: ignore[union-attr]
                except (EOFError, OSError):
                    self._lost(worker)
                    del by_connection[conn]  # type: ignore[arg-type]
                    continue
                self._handle(worker, kind, data, conn)  # type: ignore[arg-type]
                if kind == "done":
                    del by_connection[conn]  # type: ignore[arg-type]
                    os.waitpid(self.running[worker][0], 0)
            if (self.session.shouldstop or self.session.shouldfail) and not stopping:
                stopping = True
                for conn in by_connection:
                    _send(conn, ("stop", None))  # type: ignore[arg-type]

    def _handle(self, worker: int, kind: str, data: Any, conn: Connection) -> None:
        hook = self.config.hook
        if kind == "want":
            unit = self.next_unit(worker)
            if unit is not None:
                self.pending[worker].extend(self.units[unit])
            _send(conn, ("unit", None if unit is None else self.units[unit]))
        elif kind == "start":
            self.current[worker] = data[0]
            hook.pytest_runtest_logstart(nodeid=data[0], location=tuple(data[1]))
        elif kind == "report":
            report = hook.pytest_report_from_serializable(config=self.config, data=data)
            hook.pytest_runtest_logreport(report=report)
        elif kind == "finish":
            hook.pytest_runtest_logfinish(nodeid=data[0], location=tuple(data[1]))
            if CPU_LOG:
                with open(CPU_LOG, "a", encoding="utf-8") as log:
                    log.write(f"{data[0]}\t{data[3]:.4f}\t{data[4]:.4f}\t{' '.join(data[5])}\n")
            self.current[worker] = None
            index = data[2]
            if index in self.pending[worker]:
                self.pending[worker].remove(index)
        elif kind == "warning":
            category = _warning_class(data["module"], data["category"])
            message = warnings.WarningMessage(category(data["message"]), category, data["filename"], data["lineno"])
            hook.pytest_warning_recorded.call_historic(kwargs={
                "warning_message": message, "when": data["when"], "nodeid": data["nodeid"],
                "location": tuple(data["location"]) if data["location"] else None})

    def _lost(self, worker: int) -> None:
        """The worker ended without saying it was done: its test, and the rest of its file, fail by name."""
        pid, _ = self.running[worker]
        _, status = os.waitpid(pid, 0)
        said = (f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit code {os.WEXITSTATUS(status)}")
        try:
            stacks = _stacks_file(self.config, worker).read_text(encoding="utf-8", errors="replace")
        except OSError:
            stacks = ""
        hung = f" (past {TEST_SECONDS} s: taken for hung); its threads' stacks:\n{stacks}" if stacks else ""
        for index in list(self.pending[worker]):
            item = self.session.items[index]
            running = item.nodeid == self.current[worker]
            report = pytest.TestReport(
                item.nodeid, item.location, {}, "failed",
                f"worker {worker} (pid {pid}) ended with {said} "
                + ("while running this test" + hung if running else "before it ran this test"), "call", [])
            self.config.hook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
            self.config.hook.pytest_runtest_logreport(report=report)
            self.config.hook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
        self.pending[worker] = []

    def _stop_all(self) -> None:
        for pid, conn in self.running.values():
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            conn.close()
        for pid, _ in self.running.values():
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def _stacks_file(config: pytest.Config, worker: int) -> Path:
    return Path(config._tmp_path_factory.getbasetemp()) / f"worker-{worker}-stacks.txt"  # type: ignore[attr-defined]


def _send(conn: Connection, message: tuple[str, Any]) -> None:
    """To a worker; one that has ended is found by its connection's end of file, in ``_serve``."""
    try:
        conn.send(message)
    except OSError:
        pass


def _warning_class(module: str, name: str) -> type[Warning]:
    """The warning's own class where the parent has its module (builtins, pytest's, an SDK's); else UserWarning."""
    found: Any = sys.modules.get(module)
    for part in name.split("."):
        found = getattr(found, part, None)
    return found if isinstance(found, type) and issubclass(found, Warning) else UserWarning


class _Relay:
    """In a worker: every report and warning goes to the parent instead of this process's terminal."""

    def __init__(self, conn: Connection, config: pytest.Config) -> None:
        self.conn, self.config = conn, config

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.conn.send(("report", self.config.hook.pytest_report_to_serializable(config=self.config, report=report)))

    @pytest.hookimpl(trylast=True)
    def pytest_warning_recorded(self, warning_message: warnings.WarningMessage, when: str, nodeid: str,
                                location: tuple[str, int, str] | None) -> None:
        self.conn.send(("warning", {"message": str(warning_message.message),
                                    "category": warning_message.category.__qualname__,
                                    "module": warning_message.category.__module__,
                                    "filename": warning_message.filename, "lineno": warning_message.lineno,
                                    "when": when, "nodeid": nodeid, "location": list(location) if location else None}))


def _thread_seconds() -> dict[int, tuple[str, float]]:
    """The CPU seconds of each thread of this process but the main one (threading's threads), by ident."""
    seconds = {}
    for thread in threading.enumerate():
        if thread is threading.main_thread() or thread.ident is None:
            continue
        try:
            seconds[thread.ident] = (thread.name, time.clock_gettime(time.pthread_getcpuclockid(thread.ident)))
        except (OSError, AttributeError):  # ended meanwhile, or no per-thread clock here
            pass
    return seconds


def _work(session: pytest.Session, worker: int, conn: Connection) -> int:
    config = session.config
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.environ["TOOLCHOICE_TEST_WORKER"] = f"w{worker}"
    capture = config.pluginmanager.getplugin("capturemanager")
    if capture is not None:  # a capture file of its own: the parent's is shared after the fork
        capture.stop_global_capturing()
        capture.start_global_capturing()
        capture.suspend_global_capture()
    terminal = config.pluginmanager.getplugin("terminalreporter")
    if terminal is not None:
        config.pluginmanager.unregister(terminal)
    config.pluginmanager.register(_Relay(conn, config), "forked-relay")
    items = session.items
    stacks = open(_stacks_file(config, worker), "w", encoding="utf-8")  # noqa: SIM115 -- kept until os._exit

    stop = False

    def want() -> list[int]:
        nonlocal stop
        conn.send(("want", None))
        while True:  # the answer is a unit (None: no more); a stop may come before it
            kind, got = conn.recv()
            if kind == "unit":
                return [] if stop or got is None else list(got)
            stop = True

    todo = want()
    while todo:
        index = todo.pop(0)
        if not todo:  # the file's last test: the next file decides what it tears down
            todo = want()
        item = items[index]
        nextitem = items[todo[0]] if todo else None
        conn.send(("start", (item.nodeid, list(item.location))))
        faulthandler.dump_traceback_later(TEST_SECONDS, exit=True, file=stacks)
        threads = _thread_seconds() if CPU_LOG else {}
        before, own = os.times(), time.process_time()
        item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
        after, own = os.times(), time.process_time() - own
        busy = [f"{name}={seconds - threads.get(ident, (name, 0.0))[1]:.2f}"
                for ident, (name, seconds) in _thread_seconds().items()
                if seconds - threads.get(ident, (name, 0.0))[1] >= 0.05] if CPU_LOG else []
        faulthandler.cancel_dump_traceback_later()
        conn.send(("finish", (item.nodeid, list(item.location), index, own,
                              after.children_user + after.children_system
                              - before.children_user - before.children_system, busy)))
        if todo and conn.poll():  # only a stop comes unasked
            conn.recv()
            stop = True
            session._setupstate.teardown_exact(None)  # type: ignore[attr-defined]  # as pytest's -x leaves them
            break
    conn.send(("done", None))
    conn.close()
    return 0


# ---- the hooks (tests/conftest.py imports them; so does a suite tests/test_forked_workers.py writes) ----------------

# The files each worker takes first (a conftest sets it in pytest_configure: ``config.stash[FIRST] = {0: (...)}``)
FIRST = pytest.StashKey[dict[int, tuple[str, ...]]]()


def workers(config: pytest.Config) -> int:
    """``--workers``: a number, or ``auto``: three on a machine of two cores or more; none (one process) on one core
    and for the realmodel tests, which share one llama.cpp server per session."""
    asked = str(config.getoption("workers"))
    if asked != "auto":
        return int(asked)
    marks = getattr(config.option, "markexpr", "") or ""
    if "realmodel" in marks and "not realmodel" not in marks:
        return 0
    return 3 if (os.cpu_count() or 1) >= 2 else 0


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--workers", default="auto", help="worker processes forked after collection (tests/forked_workers.py): "
                     "a number, 0 for one process, or auto (3 on two cores or more)")


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool | None:
    """The tests in ``--workers`` processes forked from this one after collection; one file or one worker: pytest's
    own loop."""
    files = list(dict.fromkeys(item.nodeid.split("::", 1)[0] for item in session.items))
    count = min(workers(session.config), len(files))
    debugging = session.config.getoption("usepdb", False) or session.config.getoption("trace", False)
    if count <= 1 or debugging or session.config.option.collectonly or (
            session.testsfailed and not session.config.option.continue_on_collection_errors):
        return None
    preload([session.config.rootpath / f for f in files])
    gc.freeze()  # what preload imported joins what collection made: shared with the workers, never walked
    Parent(session, count, session.config.stash.get(FIRST, {})).run()
    return True
