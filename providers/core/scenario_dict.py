"""A scenario given as Python data (a dict, as a test builds one) → ``Scenario``, through the very reader a
scenario file goes through (so every check and every bound is the file's). The data is written as JSON with
one value per line, and each line remembers where in the data it came from: an error names that place
(``scenario['tools'][0]['name']: a tool's name must be a non-empty string, not int 5``) instead of a line of
a text the caller never saw. A value JSON cannot hold (a set, bytes, an object, NaN, a key that is not a str)
is a ``WrongArgument`` naming its place; values are never quoted."""

from __future__ import annotations

import json
import math
import sys
from typing import Any, Mapping

from .error_keys import says_no_key
from .model import Scenario, ToolchoiceError, WrongArgument

MAX_DEPTH = 200  # past the scenario reader's own nesting bound (100), short of Python's recursion limit; a cycle


@says_no_key
def load_scenario_dict(data: Mapping[str, Any], name: str = "scenario") -> Scenario:
    """``data`` (a mapping of a scenario file's keys: tools, tool_choice, messages, ...) as a Scenario; a bad value
    raises ToolchoiceError naming its place in ``data``."""
    from .scenario import load_scenario_text

    if not isinstance(data, Mapping):
        raise WrongArgument(f"{name}: give a mapping (a dict of a scenario's keys), not "
                            f"{'None' if data is None else type(data).__name__}",
                            hint="load_scenario(path) reads a file, load_scenario_text(yaml) a string")
    _refuse_expanded(data, name)
    lines: list[str] = []
    places: list[str] = []
    _emit(data, name, "", lines, places, 0)
    try:
        return load_scenario_text("\n".join(lines) + "\n", name)
    except ToolchoiceError as exc:
        if exc.path == name and exc.line is not None and 0 < exc.line <= len(places):
            # the data was written as JSON, so a hint about how YAML reads a file's text is no hint to this caller
            hint = None if exc.hint in _YAML_HINTS else exc.hint
            raise type(exc)(exc.message, path=places[exc.line - 1], hint=hint) from None
        raise


_YAML_HINTS = ("quote it if YAML read it as something else",)  # yaml_input.Reader.string's


def _refuse_expanded(data: Mapping[str, Any], name: str) -> None:
    """The reader's bounds, counted before the data is written out: an object the data holds at many places (a list
    of one list nine times, and so on) is written out at each, so six levels of nine were 4.8 million lines (19 s,
    347 MB) before the reader refused them, eleven never ended."""
    from .bounded import refuse_expanded

    refuse_expanded(dict(data), "the scenario expands", "a scenario holds tools and messages, not bulk data (an "
                    "object used at many places counts at each)", path=name)


def _emit(value: Any, where: str, lead: str, lines: list[str], places: list[str], depth: int) -> None:
    if depth > MAX_DEPTH:
        shown = where if len(where) <= 120 else where[:117] + "..."
        raise WrongArgument(f"{shown}: nests more than {MAX_DEPTH} levels deep (or holds itself)")
    if isinstance(value, Mapping):
        lines.append(lead + "{")
        places.append(where)
        items = list(value.items())
        for index, (key, item) in enumerate(items):
            if not isinstance(key, str):
                raise WrongArgument(f"{where}: keys must be str, not {type(key).__name__}")
            _emit(item, f"{where}[{key!r}]", json.dumps(key, ensure_ascii=False) + ": ", lines, places, depth + 1)
            if index < len(items) - 1:
                lines[-1] += ","
        lines.append("}")
        places.append(where)
    elif isinstance(value, (list, tuple)):
        lines.append(lead + "[")
        places.append(where)
        for index, item in enumerate(value):
            _emit(item, f"{where}[{index}]", "", lines, places, depth + 1)
            if index < len(value) - 1:
                lines[-1] += ","
        lines.append("]")
        places.append(where)
    elif value is None or isinstance(value, (str, bool, int)) or (isinstance(value, float) and math.isfinite(value)):
        try:
            lines.append(lead + json.dumps(value, ensure_ascii=False))
        except ValueError:  # an int past Python's integer-digit limit, which has no decimal text (a file's reader
            raise WrongArgument(f"{where}: an integer of more digits than Python writes out "  # says the same)
                                f"({sys.get_int_max_str_digits():,})", hint="write a smaller number, or give it as a "
                                "string") from None
        places.append(where)
    else:
        kind = "a number that is not finite" if isinstance(value, float) else type(value).__name__
        raise WrongArgument(f"{where}: give JSON data (dict, list, str, int, float, bool or None), not {kind}")
