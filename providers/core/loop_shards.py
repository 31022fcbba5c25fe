"""`run --repeat` over several processes: the loops shared out among forked shards.

A loop step costs about 1 ms of the process's CPU (reading and judging the reply, the next request, the
spooled JSON), so at ``--concurrency 50`` one process's core is what every step waits for: 200 loops of 4
steps against a stand-in answering at once took 1.05-1.08 s in one process and 0.84-0.85 s over two, and
1.43-1.55 against 1.31-1.38 s at 50 ms a reply (bench/README.md, "Loops over processes"). Each shard is a
fork of the command after its imports: it runs every ``shards``-th loop on its own event loop and
connections with its share of ``--concurrency`` (the bound on requests in flight stays the user's), and
reduces the loops it finished as one process does (``loop_tally.LoopReduction``, its JSON spooled into a
file the parent made); the parent merges what each shard reduced, so the tallies, the JSON document and the
saved files are those one process gives.

Only where a fork is safe (``fork_allowed``: Linux, no other thread in the process, real sockets, no
injected transport or sleep) and pays (``shard_count``: at most one shard per CPU, each with at least
``SHARD_MIN_REQUESTS`` requests); never for ``--replay`` or ``--trace-out``, which keep every step in one
process (the caller decides those). A fork the system refuses leaves its loops to the parent.

Signals: the shards lead process groups of their own, so the terminal's Ctrl-C reaches the parent alone,
which passes it on to each shard (and Ctrl-Z: the parent stops and continues them with itself). A shard
stops as one process stops on Ctrl-C, closes its unfinished loops as the caller does (``cut_short``) and
sends back what it reduced; the parent then raises KeyboardInterrupt as ``loop.run_loops`` does. A shard
whose parent is gone (killed) exits at once: it watches a pipe only the parent holds open. A shard that
ended without sending anything back (killed) leaves its loops ended in an error that says so; the other
shards' loops stand.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from typing import Any, Callable, NoReturn

from .http_clients import AIOHTTP_MIN_REQUESTS
from .model import ToolchoiceError

# Requests each shard sends at least: fewer are sent faster by one process than by forking (a fork and its
# merge cost ~10 ms; at 200 requests one process keeps up with the network: bench/README.md).
SHARD_MIN_REQUESTS = AIOHTTP_MIN_REQUESTS
_READ = 1 << 20


def cpus() -> int:
    """The CPUs this process may run on (its affinity, where the system says)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def shard_count(processes: int, loops: int, requests: int, concurrency: int, available: int) -> int:
    """How many processes share ``loops`` loops (``requests``: loops × max_steps, an upper bound) with
    ``processes`` allowed and ``available`` CPUs (``cpus``): never more than one per CPU (more would only
    take turns), nor than ``concurrency`` (each shard keeps one loop in flight at least), nor than leaves
    each shard ``SHARD_MIN_REQUESTS`` requests. Whether a fork may happen at all is ``fork_allowed``'s to say."""
    return max(1, min(processes, available, concurrency, loops, requests // SHARD_MIN_REQUESTS))


def fork_allowed(settings: Any) -> bool:
    """Whether this process may fork shards: Linux, no other thread, of ``threading`` or not (a fork copies
    the calling thread alone, and a lock another thread held would stay held in the copy), and real sockets
    (``settings``: no injected transport or sleep, which are the caller's in-process objects)."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return False
    if settings.transport is not None or settings.sleep is not None:
        return False
    import threading

    if threading.active_count() != 1:
        return False
    try:  # a thread started outside `threading` (_thread, a C library's own) is one of the process's tasks
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return True


def share(concurrency: int, shards: int, shard: int) -> int:
    """Shard ``shard``'s part of ``concurrency``: the parts add up to it."""
    return concurrency // shards + (1 if shard < concurrency % shards else 0)


Work = Callable[[list[Any], Any], None]  # (the shard's loops, its SendSettings): runs them (loop.run_loops)


def run_sharded(shards: int, runs: list[Any], settings: Any, work: Work, reduction: Any, requests: int, *,
                on_lost: Callable[[Any], None], cut_short: Callable[[list[Any]], None]) -> None:
    """``work`` over ``runs`` in ``shards`` forked processes (see the module docstring). ``reduction``: the
    run's ``LoopReduction``, into which each shard's is merged; ``requests``: how many the whole run may
    send (the HTTP stack is imported here, once, before forking); ``on_lost``: each loop of a shard that
    sent nothing back, once marked as an error; ``cut_short``: what the caller does with loops Ctrl-C
    stopped (mark, save, reduce them), which each shard does with its own before sending them back.
    Raises KeyboardInterrupt when Ctrl-C cut the loops short, every loop then reduced and ended."""
    import signal

    from . import http_clients, runner

    runner.load_http_stack()
    if http_clients.aiohttp_wanted(requests // shards):
        http_clients.load_aio_transport()  # once, before the fork

    parts = [runs[n::shards] for n in range(shards)]
    spooled = reduction.spool is not None
    if spooled:
        from .loop_tally import new_spool_file
    files = [new_spool_file() if spooled else None for _ in parts]  # each shard's JSON, read back from here
    children: list[tuple[int, int, list[Any]]] = []
    for stream in (sys.stdout, sys.stderr):
        stream.flush()  # a forked child never writes what the parent had buffered (it leaves by os._exit)
    lifeline = os.pipe()
    paused = _pass_on_pauses(children)  # from before the first fork: a Ctrl-Z at once stops every shard too
    try:
        stops = {signal.SIGINT, signal.SIGTERM, signal.SIGTSTP}
        signal.pthread_sigmask(signal.SIG_BLOCK, stops)  # held while forking: every child is known before a stop

        def shard(n: int, part: list[Any], write_end: int) -> NoReturn:
            mine = replace(settings, concurrency=share(settings.concurrency, shards, n))
            _shard(write_end, lifeline[0], files[n], part, mine, work, cut_short, reduction, stops)

        try:
            unforked = _fork(parts, files, children, lifeline, shard)
        finally:
            os.close(lifeline[0])
            interrupted = False
            try:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)  # a Ctrl-C held meanwhile is raised here
            except KeyboardInterrupt:
                interrupted = True
                _stop(children)
        if unforked and not interrupted:
            left = settings.concurrency - sum(share(settings.concurrency, shards, n) for n in range(len(children)))
            try:  # into the caller's own reduction, as one process runs them; the shards' are merged below
                work(unforked, replace(settings, concurrency=max(1, left)))
            except KeyboardInterrupt:
                interrupted = True
                _stop(children)
        payloads = []
        for n, (pid, read_end, part) in enumerate(children):
            data, interrupted = _read_all(read_end, children, interrupted)
            status, interrupted = _reap(pid, children, interrupted)
            payloads.append((_loads(data), status, part, files[n]))
    finally:
        if paused:
            signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.close(lifeline[1])
    _merge(payloads, reduction, on_lost, interrupted)


def _fork(parts: list[list[Any]], files: list[Any], children: list[tuple[int, int, list[Any]]],
          lifeline: tuple[int, int], shard: Callable[[int, list[Any], int], NoReturn]) -> list[Any]:
    """One fork per part, each running ``shard(n, part, write_end)``; ``children`` gets (pid, read end, part)
    of each. Returns the loops of the parts no fork took: the system refused one (EAGAIN), so the parent
    runs those itself."""
    for n, part in enumerate(parts):
        read_end, write_end = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_end)
            os.close(write_end)
            for file in files[n:]:
                if file is not None:
                    file.close()
            return [run for rest in parts[n:] for run in rest]
        if pid == 0:
            os.close(read_end)
            os.close(lifeline[1])
            for _, earlier, _ in children:
                os.close(earlier)
            shard(n, part, write_end)
        os.close(write_end)
        children.append((pid, read_end, part))
    return []


def _merge(payloads: list[tuple[Any, int, list[Any], Any]], reduction: Any, on_lost: Callable[[Any], None],
           interrupted: bool) -> None:
    """Each shard's results into the run's: its reduction and where each of its loops stands; a shard that sent
    nothing back leaves its loops ended in an error. Raises what the shards met (a ToolchoiceError, or
    KeyboardInterrupt when Ctrl-C cut any of them short)."""
    failure = None
    for payload, status, part, file in payloads:
        if payload is None:
            if file is not None:
                file.close()
            how = f"killed by signal {-status}" if status < 0 else f"exit status {status}"
            for run in part:
                run.steps, run.history = [], []
                run.ended, run.ended_step = "error", 1
                run.error = f"the process running this loop ended without its results ({how})"
                on_lost(run)
            continue
        reduction.absorb(payload["reduced"], file)
        for run, (ended, ended_step, final, error) in zip(part, payload["runs"]):
            run.ended, run.ended_step, run.final, run.error = ended, ended_step, final, error
        interrupted = interrupted or payload["interrupted"]
        failure = failure or payload["failure"]
    if failure is not None:
        error = ToolchoiceError(failure[0], hint=failure[1])
        error.exit_code = failure[2]
        raise error
    if interrupted:
        raise KeyboardInterrupt


def _signal(children: list[tuple[int, int, list[Any]]], sent: int) -> None:
    """``sent`` to every shard still there."""
    for pid, _, _ in children:
        try:
            os.kill(pid, sent)
        except ProcessLookupError:
            pass


def _stop(children: list[tuple[int, int, list[Any]]]) -> None:
    """Pass a Ctrl-C on to every shard still running."""
    import signal

    _signal(children, signal.SIGINT)


def _pass_on_pauses(children: list[tuple[int, int, list[Any]]]) -> bool:
    """Ctrl-Z: the terminal stops its foreground group, the parent alone (the shards lead groups of their own),
    so the parent stops every shard with itself and continues them with itself. Not over a caller's own
    SIGTSTP handler. Whether the handler was installed."""
    import signal

    if signal.getsignal(signal.SIGTSTP) is not signal.SIG_DFL:
        return False

    def pause(signum: int, frame: Any) -> None:
        _signal(children, signal.SIGSTOP)
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stops here; returns once continued (or at once, if not stopped)
        signal.signal(signal.SIGTSTP, pause)
        _signal(children, signal.SIGCONT)

    signal.signal(signal.SIGTSTP, pause)
    return True


def _read_all(fd: int, children: list[tuple[int, int, list[Any]]], interrupted: bool) -> tuple[bytes, bool]:
    """Everything a shard writes, to its end; a Ctrl-C meanwhile is passed on and reading goes on."""
    chunks = []
    while True:
        try:
            chunk = os.read(fd, _READ)
        except KeyboardInterrupt:
            interrupted = True
            _stop(children)
            continue
        if not chunk:
            os.close(fd)
            return b"".join(chunks), interrupted
        chunks.append(chunk)


def _reap(pid: int, children: list[tuple[int, int, list[Any]]], interrupted: bool) -> tuple[int, bool]:
    """The shard's exit status (negative: the signal that ended it)."""
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            return os.waitstatus_to_exitcode(status), interrupted
        except KeyboardInterrupt:
            interrupted = True
            _stop(children)


def _loads(data: bytes) -> dict[str, Any] | None:
    import pickle

    if not data:
        return None
    try:
        return pickle.loads(data)  # noqa: S301 - written by this process's own fork, through its own pipe
    except Exception:  # noqa: BLE001 - cut short: the shard died while writing
        return None


def _watch(lifeline: int) -> None:
    """In a shard: leave as soon as the parent is gone (its end of the pipe closes with it)."""
    try:
        os.read(lifeline, 1)
    finally:
        os._exit(1)


def _proxy(items: dict[str, Any]) -> Any:
    from types import MappingProxyType

    return MappingProxyType(items)


def _shard(write_end: int, lifeline: int, spool_file: Any, part: list[Any], settings: Any, work: Work,
           cut_short: Callable[[list[Any]], None], reduction: Any, stops: set[Any]) -> NoReturn:
    """The forked shard: run ``part``, send back what it reduced and where each loop stands, and leave
    without the parent's teardown (its buffers, its atexit, its temporary files are the parent's)."""
    code = 1
    try:
        import pickle
        import signal
        import threading

        os.setpgid(0, 0)  # the terminal's Ctrl-C reaches the parent alone, which passes it on once
        threading.Thread(target=_watch, args=(lifeline,), daemon=True).start()
        reduction.detach(spool_file)
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)  # the parent's pause handler is the parent's
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
        interrupted, failure = False, None
        try:
            work(part, settings)
        except KeyboardInterrupt:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the loops are being closed: a second Ctrl-C waits
            interrupted = True
            cut_short(part)
        except ToolchoiceError as exc:
            failure = (exc.message, exc.hint, exc.exit_code)
        except Exception as exc:  # noqa: BLE001 - reported by the parent as one line
            failure = (f"internal error in a process running loops: {type(exc).__name__}: {exc} (please report it)",
                       None, 70)  # as cli.exits reports an unexpected error in one process
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # what finished is on its way back: a second Ctrl-C waits
        import copyreg
        from types import MappingProxyType

        copyreg.pickle(MappingProxyType, lambda proxy: (_proxy, (dict(proxy),)))  # read-only mappings in choices
        runs = [(r.ended, r.ended_step, r.final, r.error) for r in part]
        data = pickle.dumps({"reduced": reduction.export(), "runs": runs, "interrupted": interrupted,
                             "failure": failure}, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            view = view[os.write(write_end, view):]
        code = 0
    except BaseException:  # noqa: BLE001, S110 - the parent sees no results and says so for these loops
        pass
    finally:
        os._exit(code)
