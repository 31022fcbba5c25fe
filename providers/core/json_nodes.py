"""A `.json` file's text composed into the nodes PyYAML composes from it, in one pass of JSON's grammar.

JSON is YAML's flow style: libyaml composes a JSON text into mapping, sequence and scalar nodes, each with the
line and column it starts on, and ``yaml_input.Reader`` walks them. For a `.json` file that cost two parses, the
standard library's (is it JSON? how deep?) and libyaml's (the nodes): ~0.15 s and ~5 s of a 3 MB catalogue.
``compose`` reads the text once with JSON's own grammar (Python's string scanner, in C, for the strings) and makes
the nodes libyaml would: the same classes, tags, values (a number or ``true`` as written), styles and positions.

It answers None, and the text is read as before (``yaml_input.composed``: the JSON decoder, then libyaml or
PyYAML, with their messages), whenever the text is not JSON, nests past ``MAX_DEPTH``, or holds anything YAML
reads otherwise than JSON: a tab or a line break that is not ``\\n`` (YAML counts ``\\r``, NEL, LS and PS as
breaks), a character YAML refuses to read, a surrogate escape (libyaml refuses ``\\ud83d``), a key more than 1,000
characters or a line away from its colon (YAML's simple-key bound), a number of more than 4,000 characters or
NaN / Infinity. tests/test_json_nodes.py holds the nodes to libyaml's for generated and real files."""

from __future__ import annotations

import gc
import re
from bisect import bisect_right
from json.decoder import scanstring
from typing import Any

import yaml

CORE_TAG = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL, _MAP, _SEQ = (CORE_TAG + t for t in ("str", "int", "float", "bool", "null",
                                                                        "map", "seq"))
# what YAML reads otherwise than JSON (see above); C0 controls but \n are not JSON outside a string either
_UNLIKE_YAML = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]|\\\\u[dD][89a-fA-F]")
_SPACE = re.compile("[ \n]*").match
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?").match
_LITERALS = {"t": ("true", _BOOL), "f": ("false", _BOOL), "n": ("null", _NULL)}
_KEY_REACH = 1000  # libyaml drops a simple key more than 1024 characters before its ':'
_NUMBER_REACH = 4000  # int() refuses more than 4300 digits: past this the slow path says it


class _Unlike(Exception):
    """The text is not JSON, or YAML may read it otherwise: compose it the old way."""


class _Lines:
    """Where each line of the text starts, found the first time a node's line is asked (most reads ask none)."""

    __slots__ = ("text", "starts")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: list[int] | None = None

    def place(self, index: int) -> tuple[int, int]:
        if self.starts is None:
            starts, find, at = [0], self.text.find, 0
            while (at := find("\n", at) + 1) > 0:
                starts.append(at)
            self.starts = starts
        line = bisect_right(self.starts, index) - 1
        return line, index - self.starts[line]


class Mark:
    """A node's position as PyYAML's ``Mark`` gives it (0-based ``line`` and ``column``, ``index``), found on demand."""

    __slots__ = ("index", "_lines")

    def __init__(self, index: int, lines: _Lines) -> None:
        self.index = index
        self._lines = lines

    @property
    def line(self) -> int:
        return self._lines.place(self.index)[0]

    @property
    def column(self) -> int:
        return self._lines.place(self.index)[1]


def compose(text: str, max_depth: int) -> yaml.Node | None:
    """The root node libyaml composes from ``text`` (nodes nesting past ``max_depth``: None), or None (see above)."""
    if not text.strip() or _UNLIKE_YAML.search(text):
        return None
    collecting = gc.isenabled()
    gc.disable()  # the nodes are a tree, no cycles: a collection while composing finds nothing (~2/3 of the time)
    try:
        root, end = _Composer(text, max_depth).node(_SPACE(text, 0).end(), 0)
    except (_Unlike, ValueError, IndexError):  # ValueError: the string scanner's JSONDecodeError
        return None
    finally:
        if collecting:
            gc.enable()
    return root if _SPACE(text, end).end() == len(text) else None


class _Composer:
    __slots__ = ("text", "lines", "max_depth")

    def __init__(self, text: str, max_depth: int) -> None:
        self.text, self.lines, self.max_depth = text, _Lines(text), max_depth

    def node(self, at: int, depth: int) -> tuple[Any, int]:
        """The node starting at ``at`` (no space before it) and where it ends."""
        if depth > self.max_depth:
            raise _Unlike
        text, lines = self.text, self.lines
        first = text[at]
        if first == '"':
            value, end = scanstring(text, at + 1, True)
            return yaml.ScalarNode(_STR, value, Mark(at, lines), Mark(end, lines), '"'), end
        if first == "{":
            return self.mapping(at, depth)
        if first == "[":
            return self.sequence(at, depth)
        literal = _LITERALS.get(first)
        if literal is not None:
            word, tag = literal
            if not text.startswith(word, at):
                raise _Unlike
            end = at + len(word)
            return yaml.ScalarNode(tag, word, Mark(at, lines), Mark(end, lines), ""), end
        number = _NUMBER(text, at)
        if number is None:
            raise _Unlike
        end = number.end()
        if end - at > _NUMBER_REACH:
            raise _Unlike
        tag = _INT if number.lastindex is None else _FLOAT
        return yaml.ScalarNode(tag, number.group(), Mark(at, lines), Mark(end, lines), ""), end

    def mapping(self, at: int, depth: int) -> tuple[Any, int]:
        text, lines, pairs = self.text, self.lines, []
        here = _SPACE(text, at + 1).end()
        if text[here] != "}":
            while True:
                if text[here] != '"':
                    raise _Unlike
                key, after = scanstring(text, here + 1, True)
                colon = _SPACE(text, after).end()
                if text[colon] != ":" or colon - here > _KEY_REACH or text.find("\n", after, colon) >= 0:
                    raise _Unlike
                key_node = yaml.ScalarNode(_STR, key, Mark(here, lines), Mark(after, lines), '"')
                value, end = self.node(_SPACE(text, colon + 1).end(), depth + 1)
                pairs.append((key_node, value))
                here = _SPACE(text, end).end()
                if text[here] == "}":
                    break
                if text[here] != ",":
                    raise _Unlike
                here = _SPACE(text, here + 1).end()
        return yaml.MappingNode(_MAP, pairs, Mark(at, lines), Mark(here + 1, lines), True), here + 1

    def sequence(self, at: int, depth: int) -> tuple[Any, int]:
        text, items = self.text, []
        here = _SPACE(text, at + 1).end()
        if text[here] != "]":
            while True:
                value, end = self.node(here, depth + 1)
                items.append(value)
                here = _SPACE(text, end).end()
                if text[here] == "]":
                    break
                if text[here] != ",":
                    raise _Unlike
                here = _SPACE(text, here + 1).end()
        return yaml.SequenceNode(_SEQ, items, Mark(at, self.lines), Mark(here + 1, self.lines), True), here + 1
