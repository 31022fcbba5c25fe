"""Keys out of the errors the library raises to a Python caller (docs/python.md, "Errors say no key").

An error may quote what the caller wrote: a key pasted into a scenario's tool name or a provider id. The command
line's error line redacts every key set in the environment (``cli/exits.error_line``); a library caller's
exception went to its logs and tracebacks as it was. ``says_no_key`` wraps a public entry (the loaders, the jobs,
``running_mock``) so that the ``ToolchoiceError`` it raises has those keys replaced by their placeholders, as
the command line shows them. Only the error path pays: the redaction module is imported when one is raised."""

from __future__ import annotations

import functools
from typing import Any, Callable, ParamSpec, TypeVar

from .model import ToolchoiceError


P = ParamSpec("P")
R = TypeVar("R")


def without_keys(error: ToolchoiceError) -> ToolchoiceError:
    """``error`` itself, its message, hint, path, ``args`` and the texts of its record (``ArgumentError.said``, a
    ``NothingToSend``'s reasons) with every key set in the environment replaced by its placeholder
    (``$OPENAI_API_KEY``): the keys the command line's error line redacts."""
    import os

    from .redaction import Redactor, environment_secrets

    redactor = Redactor(environment_secrets(os.environ))
    if not redactor or not redactor.contains(" ".join(map(str, (error.message, error.hint, error.path, *error.args)))):
        return error
    error.message = redactor.text(error.message)
    error.hint = redactor.text(error.hint) if error.hint is not None else None
    error.path = redactor.text(error.path) if error.path is not None else None
    error.args = (error.one_line(), *(redactor.text(a) if isinstance(a, str) else a for a in error.args[1:]))
    for name, value in vars(error).items():  # the record the command line draws its own words from
        if name not in ("message", "hint", "path") and isinstance(value, (str, tuple)):
            setattr(error, name, _texts_redacted(value, redactor))
    return error


def _texts_redacted(value: Any, redactor: Any) -> Any:
    """``value`` with every string in it (a str, or tuples of them, nested) redacted; anything else as it is."""
    if isinstance(value, str):
        return redactor.text(value)
    if isinstance(value, tuple):
        return tuple(_texts_redacted(item, redactor) for item in value)
    return value


def says_no_key(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn``, raising its ``ToolchoiceError`` with ``without_keys`` applied (same object, same traceback)."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except ToolchoiceError as error:
            without_keys(error)
            raise

    return wrapper
