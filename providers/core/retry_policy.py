"""When to retry a request and how long to wait first: pure decisions, no I/O (``transport`` acts on them).

Retry rules follow the official OpenAI/Anthropic Python SDKs (openai-python ``_base_client.py``:
408, 409, 429 and 5xx are retried; ``retry-after-ms`` is preferred over ``retry-after``, which may
be seconds or an HTTP date; ``x-should-retry`` overrides; backoff 0.5 s doubling to at most 8 s
with up to 25% jitter, ``INITIAL_RETRY_DELAY``/``MAX_RETRY_DELAY`` in its ``_constants.py``); 529 is
Anthropic's overloaded_error. A server wait is taken only when
``0 < wait <= 60`` (``_calculate_retry_timeout`` in both SDKs): ``Retry-After: 0`` or a date in the
past gets the exponential backoff, never an immediate retry. Retries are at most ``MAX_RETRIES``.
"""

from __future__ import annotations

import email.utils
import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .errors import out_of_range

RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
MAX_RETRIES = 10  # the most --retries any command accepts (each SDK's default is 2)


def check_retries(retries: int, argument: str = "retries") -> int:
    """Retries are bounded alike in every command: 0 to MAX_RETRIES. Else ``OutOfRange`` of ``argument``
    (``retries 11: ...``; the command line names its option: ``--retries 11: ...``)."""
    if isinstance(retries, bool) or not isinstance(retries, int) or not 0 <= retries <= MAX_RETRIES:
        raise out_of_range(argument, str(retries), f"a whole number from 0 to {MAX_RETRIES}",
                           hint="each retry waits longer (0.5 s doubling to 8 s); the SDKs default to 2")
    return retries


@dataclass(frozen=True)
class RetryPolicy:
    retries: int = 2  # retries after the first attempt
    initial_delay: float = 0.5
    max_delay: float = 8.0
    max_server_wait: float = 60.0  # a longer Retry-After is not waited for: the attempt is final
    total_budget: float = 180.0  # no retry starts once attempts + waits would pass this

    def __post_init__(self) -> None:
        check_retries(self.retries)


async def paused(sleep: Callable[[float], Any], seconds: float) -> None:
    """``await sleep(seconds)``, a caller's ``SendSettings.sleep`` that gave nothing to wait on (``time.sleep``,
    ``lambda s: None``: it blocked, or did nothing) refused in the caller's words: the sample was an internal
    error, "TypeError: object NoneType can't be used in 'await' expression", after the wait was slept anyway."""
    import inspect

    pause = sleep(seconds)
    if not inspect.isawaitable(pause):
        from .model import WrongArgument

        raise WrongArgument(f"settings.sleep: give an async function taking seconds (as asyncio.sleep); this one "
                            f"returned {type(pause).__name__}, not something to await",
                            hint="async def sleep(seconds): ... (time.sleep blocks every other request)")
    await pause


def retry_after(headers: Mapping[str, str], now: float | None = None) -> tuple[float, str] | None:
    """The server's requested wait in seconds, and which header said so.

    ``retry-after-ms`` wins over ``retry-after``; ``retry-after`` is seconds (floats tolerated) or
    an HTTP date. Negative values and unreadable ones count as absent."""
    lowered = {k.lower(): v for k, v in headers.items()}
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        raw = lowered.get(name)
        if raw is None:
            continue
        try:
            value = float(raw.strip())
        except ValueError:
            continue
        if value != value or value in (float("inf"), float("-inf")) or value < 0:
            continue
        return value / divisor, name
    raw = lowered.get("retry-after")
    if raw:
        try:
            parsed = email.utils.parsedate_tz(raw)
            if parsed is not None:
                seconds = email.utils.mktime_tz(parsed) - (time.time() if now is None else now)
                return max(0.0, float(seconds)), "retry-after"
        except (TypeError, ValueError, OverflowError):
            return None
    return None


def should_retry(status: int, headers: Mapping[str, str]) -> bool:
    flag = {k.lower(): v for k, v in headers.items()}.get("x-should-retry")
    if flag == "true":
        return True
    if flag == "false":
        return False
    return status in RETRY_STATUSES


def backoff(retry_number: int, policy: RetryPolicy, rng: Callable[[], float] = random.random) -> float:
    """Exponential backoff for the n-th retry (0-based) with up to 25% jitter taken off."""
    delay = min(policy.initial_delay * (2.0 ** min(retry_number, 30)), policy.max_delay)
    return delay * (1.0 - 0.25 * rng())


def next_wait(retry_number: int, status: int | None, headers: Mapping[str, str], elapsed: float,
              policy: RetryPolicy, rng: Callable[[], float] = random.random) -> tuple[float, str] | None:
    """How long to wait before retry number ``retry_number``, or None to stop here."""
    if retry_number >= policy.retries:
        return None
    if status is not None and not should_retry(status, headers):
        return None
    server = retry_after(headers) if status is not None else None
    if server is not None and server[0] > policy.max_server_wait:
        return None
    if server is not None and server[0] > 0:
        wait = server
    else:  # no header, or 0 / a date already past: as the SDKs do, back off instead of retrying at once
        wait = (backoff(retry_number, policy, rng), "backoff")
    if elapsed + wait[0] > policy.total_budget:
        return None
    return wait
