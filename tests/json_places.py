"""Places in a JSON value and a copy with one place changed: what the mock's fuzz tests mutate bodies with."""

from __future__ import annotations

import copy
from typing import Any, Iterator


def places(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place under ``value`` (keys and list indexes from the top), parents before their children."""
    if at:
        yield at
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from places(item, (*at, key))


def put(body: dict[str, Any], place: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A deep copy of ``body`` with ``value`` at ``place``."""
    done = copy.deepcopy(body)
    inner: Any = done
    for key in place[:-1]:
        inner = inner[key]
    inner[place[-1]] = value
    return done
