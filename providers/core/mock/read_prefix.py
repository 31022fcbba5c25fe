"""A family's reading of a request's history (its ``mock_read``) resumed from the previous request's.

An agent's recorded calls (a HAR's conversation) each send the whole history before them: call N's messages are call
N-1's and a few more. Each family's ``mock_read`` is a fold over that list (the calls made so far, the results paired
with them, the first misfit); read whole for each call, a replay of N calls read ~N²/2 messages, twice (the judge of
``har_conversations.follow``, then ``saved_request.read_request``). Inside ``resuming()`` (the HAR readers) a family
hands its fold to ``read_on``: where this list's JSON text starts with a list read before under the same key (the same
family, host and route), the state after that list is copied and only the new messages are read; otherwise the whole
list is. The state is the family's own (what its fold carries from message to message), so the result is the one the
whole reading gives: a fold reads a message from its value and the state before it, its place an absolute index. An
error raised by the fold is raised as the whole reading raises it (the prefix read without one) and nothing is kept.

Outside ``resuming()`` (the mock and the proxy, which read requests on worker threads) every list is read whole.
The texts are ``json.dumps``' (``1``, ``1.0`` and ``true`` are three texts), so a prefix is exactly the same values."""

from __future__ import annotations

import json
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Callable, Hashable, Iterator, Protocol, TypeVar

from ..json_text import extends_list


class Fold(Protocol):
    def copy(self) -> Any: ...


S = TypeVar("S", bound=Fold)

_KEPT: ContextVar[dict[Hashable, list[tuple[str, int, Any]]] | None] = ContextVar("read_prefix", default=None)
_PER_KEY = 4  # the last lists read under one key: a HAR's conversations may interleave
_MEMO: ContextVar[dict[Hashable, Any] | None] = ContextVar("read_prefix_memo", default=None)


@contextmanager
def resuming() -> Iterator[None]:
    """Reading on from the previous lists within the block (a nested block shares the outer one's)."""
    if _KEPT.get() is not None:
        yield
        return
    token, memo_token = _KEPT.set({}), _MEMO.set({})
    try:
        yield
    finally:
        _KEPT.reset(token)
        _MEMO.reset(memo_token)


def memo() -> dict[Hashable, Any] | None:
    """A dict that lives as long as the ``resuming()`` block (None outside it): what the reading of one request leaves
    for the next one's, by each user's own key (``call_origins.prefix_digests``: the digests of the messages it read,
    the same objects the next request's history holds where a family's fold read on)."""
    return _MEMO.get()


def read_on(key: Hashable, messages: list[Any], fresh: Callable[[], S], read: Callable[[S, list[Any], int], None]
            ) -> S:
    """The state ``read(state, messages, start)`` leaves after the whole list (``start``: the first message it reads,
    the state before it resumed from the longest list read before under ``key`` that this one starts with). Read
    whole outside ``resuming()``. The state returned is kept: the caller does not change it."""
    kept = _KEPT.get()
    if kept is None:
        return _whole(messages, fresh, read)
    try:
        text = json.dumps(messages)
    except (TypeError, ValueError):  # a value JSON does not write (a Python caller's): whole
        return _whole(messages, fresh, read)
    found: tuple[str, int, Any] | None = None
    for entry in kept.get(key, ()):
        before, count = entry[0], entry[1]
        if count and count <= len(messages) and (found is None or count > found[1]) and extends_list(text, before):
            found = entry
    state, start = (found[2].copy(), found[1]) if found is not None else (fresh(), 0)
    read(state, messages, start)
    entries = [e for e in kept.get(key, ()) if e is not found][-(_PER_KEY - 1):]
    kept[key] = [*entries, (text, len(messages), state)]
    return state


def _whole(messages: list[Any], fresh: Callable[[], S], read: Callable[[S, list[Any], int], None]) -> S:
    state = fresh()
    read(state, messages, 0)
    return state
