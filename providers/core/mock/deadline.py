"""A deadline a block of the mock's server keeps, which it may move as it goes (the request's first byte gives the
rest of it its own time): ``asyncio.timeout`` where there is one (Python 3.11), else ``_Deadline`` (3.10). Moved
out of server.py unchanged."""

from __future__ import annotations

import asyncio
from typing import Any

_timeout = getattr(asyncio, "timeout", None)


def within(seconds: float) -> Any:
    """A deadline for the block that ``reschedule(when)`` moves (asyncio.timeout where there is one)."""
    if _timeout is not None:
        return _timeout(seconds)
    return _Deadline(seconds)


class _Deadline:
    """asyncio.timeout for Python 3.10: cancels the task at the deadline and raises TimeoutError."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.handle: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[Any] | None = None
        self.fired = False

    async def __aenter__(self) -> "_Deadline":
        self.task = asyncio.current_task()
        self.reschedule(asyncio.get_running_loop().time() + self.seconds)
        return self

    def reschedule(self, when: float) -> None:
        if self.handle is not None:
            self.handle.cancel()
        self.handle = asyncio.get_running_loop().call_at(when, self._fire)

    def _fire(self) -> None:
        self.fired = True
        assert self.task is not None
        self.task.cancel()

    async def __aexit__(self, kind: Any, exc: Any, tb: Any) -> bool:
        assert self.handle is not None
        self.handle.cancel()
        if self.fired and kind is asyncio.CancelledError:
            raise asyncio.TimeoutError from None
        return False
