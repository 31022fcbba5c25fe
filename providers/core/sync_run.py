"""A job's coroutine run to its end from synchronous code, wherever that code is called from.

``asyncio.run`` refuses to start inside a running event loop ("asyncio.run() cannot be called from a running
event loop"): a Jupyter cell, a pytest-asyncio test or an async web handler calling ``jobs.send`` would fail. With
no loop running in this thread, the coroutine runs on ``asyncio.run`` as before; inside one, it runs on a fresh
loop in a worker thread while this thread waits (blocking the caller's loop, as any synchronous call does; in
async code ``await asyncio.to_thread(jobs.send, ...)`` keeps it free). Ctrl-C while waiting cancels the worker's
coroutine and raises KeyboardInterrupt here, as ``asyncio.run`` does, so a job keeps what finished: while it
waits, the main thread's SIGINT handler is Python's own (the caller's loop may have its own, as asyncio.run's
does, which only cancels the caller's task, blocked here), and the caller's is put back after."""

from __future__ import annotations

import asyncio
import signal
import threading
from typing import Any, Callable, Coroutine

WAIT_STEP = 0.1  # seconds between checks for the worker, so that Ctrl-C reaches the waiting thread


def run_to_end(make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run the coroutine ``make()`` returns and return its value (or raise its exception). ``make`` is called
    only where the coroutine will run, so no coroutine is left never awaited."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    box: dict[str, Any] = {}
    started = threading.Event()

    async def main() -> Any:
        box["loop"], box["task"] = asyncio.get_running_loop(), asyncio.current_task()
        started.set()
        return await make()

    def work() -> None:
        try:
            box["value"] = asyncio.run(main())
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = exc
        finally:
            started.set()

    worker = threading.Thread(target=work, name="toolchoice-job", daemon=True)
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(WAIT_STEP)
    except KeyboardInterrupt:
        started.wait()
        if "task" in box:
            try:
                box["loop"].call_soon_threadsafe(box["task"].cancel)
            except RuntimeError:  # the loop closed meanwhile: the coroutine ended
                pass
        worker.join()
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if "error" in box:
        raise box["error"]
    return box.get("value")
