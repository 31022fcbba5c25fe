"""Reading YAML (so JSON too) safely, with positions: a file's text (bounded size, UTF-8 only), the
document composed into nodes with PyYAML's safe loader (libyaml when it can be trusted), and ``Reader``,
which walks the nodes into plain data refusing object tags, alias loops, alias bombs ("billion laughs")
and absurd nesting, each with a ``file:line`` error. The scenario loader and ``from:`` tool files read
through it."""

from __future__ import annotations

import math
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import yaml

from . import limits as _limits
from .bounded import MAX_VALUES  # values read after alias expansion (a file of nested aliases can mean billions)
from .choice import did_you_mean
from .json_text import whole_characters  # noqa: F401 - its callers' name for it
from .model import ToolchoiceError

MAX_BYTES = 8 * 1024 * 1024  # a scenario file; real ones are a few KB, a big tool catalogue well under 1 MB
MAX_DEPTH = 100  # nesting of mappings/lists; real tool schemas stay under 20
_COMPOSE_SAFE = 1000  # libyaml's composer recurses in C: no document nesting deeper than this reaches it
_DEEPER = "a scenario nests at most that; put a deeper schema in a from: JSON file, bounded by limit json_depth"
CORE_TAG = "tag:yaml.org,2002:"
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")  # C0 controls but tab, newline and carriage return
_STR_TAG = CORE_TAG + "str"
_SCALAR_TAGS = frozenset(CORE_TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp", "binary"))
_PLAIN_DATA = "scenario files hold plain data: strings, numbers, lists, mappings"

# YAML 1.1 reads a float only with a dot: 1e-5 (a JSON number) would become the string "1e-5". A scenario
# written as JSON (it starts with { or [) is meant as JSON: there every JSON number is a number, as YAML 1.2
# reads it. A YAML file keeps YAML 1.1's reading (PyYAML writes the string "1e5" unquoted), and a schema
# keyword that gets a string where it needs a number is refused by the metaschema check (schema_check.py).
_JSON_EXPONENT = re.compile(r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?[eE][-+]?[0-9]+$")


def _json_numbers(loader: type) -> type:
    class Loader(loader):  # type: ignore[misc,valid-type]
        pass

    Loader.add_implicit_resolver(CORE_TAG + "float", _JSON_EXPONENT, list("-0123456789"))
    return Loader


_SafeLoader = _json_numbers(yaml.SafeLoader)
_CSafeLoader = _json_numbers(yaml.CSafeLoader) if hasattr(yaml, "CSafeLoader") else None


class Loc:
    """A YAML node with the file it came from, for error messages."""

    __slots__ = ("node", "path")

    def __init__(self, node: yaml.Node, path: str) -> None:
        self.node = node
        self.path = path

    @property
    def line(self) -> int:
        return self.node.start_mark.line + 1

    def fail(self, message: str, hint: str | None = None) -> ToolchoiceError:
        return ToolchoiceError(message, path=self.path, line=self.line,
                               column=self.node.start_mark.column + 1, hint=hint)


class Reader:
    def __init__(self, path: str, loader: yaml.SafeLoader) -> None:
        self.path = path
        self.loader = loader
        self.budget = MAX_VALUES
        self.bytes = _limits.get("expanded_bytes")  # characters of scalars read, aliases expanded
        self.open: set[int] = set()  # ids of the collections being read: an alias loop comes back to one
        self.escapes = True  # whether a string may hold an escape (\ud800 makes a lone surrogate)
        self.aliases = True  # whether the document may use aliases (for the size message)

    def loc(self, node: yaml.Node) -> Loc:
        return Loc(node, self.path)

    def plain(self, node: yaml.Node) -> None:
        """Refuse explicit tags other than the JSON-like core ones (``!!python/object...``, ``!!set``)."""
        if isinstance(node, yaml.MappingNode):
            ok = node.tag == CORE_TAG + "map"
        elif isinstance(node, yaml.SequenceNode):
            ok = node.tag == CORE_TAG + "seq"
        else:
            ok = node.tag in _SCALAR_TAGS
        if not ok:
            shown = "!!" + node.tag[len(CORE_TAG):] if node.tag.startswith(CORE_TAG) else node.tag
            raise self.loc(node).fail(f"the YAML tag {shown} is not allowed", _PLAIN_DATA)

    def value(self, node: yaml.Node) -> Any:
        """Plain Python data for a node, refusing duplicate keys and non-JSON values."""
        if node.tag == _STR_TAG and type(node) is yaml.ScalarNode:  # most values: what construct_yaml_str returns
            size = len(node.value)  # (what the general path below refuses, it refuses with its message)
            if self.budget > 0 and self.bytes >= size and not (self.escapes and _SURROGATE.search(node.value)):
                self.budget -= 1
                self.bytes -= size
                return node.value
        self.plain(node)
        self.budget -= 1
        if self.budget < 0:
            raise self.loc(node).fail(f"the scenario expands to more than {MAX_VALUES} values",
                                      "YAML aliases (*name) repeat what they name: write the data out once"
                                      if self.aliases else "a scenario holds tools and messages, not bulk data")
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            if id(node) in self.open:
                raise self.loc(node).fail("a YAML alias refers to a mapping or list that contains it",
                                          "remove the alias loop")
            if len(self.open) >= MAX_DEPTH:
                raise self.loc(node).fail(f"values nest more than {MAX_DEPTH} levels deep", _DEEPER)
            self.open.add(id(node))
            try:
                if isinstance(node, yaml.MappingNode):
                    return {key: self.value(child) for key, child in self.pairs(node)}
                return [self.value(child) for child in node.value]
            finally:
                self.open.discard(id(node))
        self.bytes -= len(node.value) if isinstance(node.value, str) else 0
        if self.bytes < 0:
            raise self.loc(node).fail(f"the scenario expands to more than "
                                      f"{_limits.shown('expanded_bytes')} of text"
                                      + (" (YAML aliases repeat what they name)" if self.aliases else ""),
                                      _limits.raise_hint("expanded_bytes"))
        try:
            value = self.loader.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            raise self.loc(node).fail(f"cannot read this value: {exc.problem}", _PLAIN_DATA) from None
        except (ValueError, KeyError, AttributeError, TypeError, OverflowError):  # e.g. !!int abc
            text = str(node.value)
            if re.fullmatch(r"[-+]?[0-9_]+", text):  # a whole number past int()'s 4,300 digits, no tag needed
                raise self.loc(node).fail(f"a number of {len(text)} characters is past what can be read",
                                          "write a smaller number, or quote it to make it a string") from None
            shown = repr(text) if len(text) <= 60 else f"{text[:40]!r}... ({len(text)} characters)"
            raise self.loc(node).fail(f"cannot read {shown} as {node.tag.rsplit(':', 1)[-1]}",
                                      "drop the !!tag, or quote the value") from None
        if isinstance(value, str) and self.escapes and _SURROGATE.search(value):
            value = _paired(value)  # "\ud83d\ude00", as json.dumps writes 😀, is one character
        if isinstance(value, str) and self.escapes and _SURROGATE.search(value):
            raise self.loc(node).fail("a string holds a lone surrogate escape (\\ud800-\\udfff), which is half "
                                      "of a character, not text", "write the character itself, or both halves")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.loc(node).fail("numbers must be finite", "quote it to make it a string")
        if not isinstance(value, (str, int, float, bool, type(None))):
            raise self.loc(node).fail(f"a {type(value).__name__} value is not JSON data", "quote it to make it a string")
        return value

    def pairs(self, node: yaml.MappingNode) -> list[tuple[str, yaml.Node]]:
        self.plain(node)
        seen: dict[str, int] = {}
        out = []
        for key_node, child in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise self.loc(key_node).fail("YAML merge keys (<<) are not supported", "write the keys out")
            key = self.value(key_node)
            if not isinstance(key, str):
                raise self.loc(key_node).fail(f"keys must be strings, not {key!r}", "quote the key")
            if key in seen:
                raise self.loc(key_node).fail(f"duplicate key '{key}' (first on line {seen[key]})", "keep one of them")
            seen[key] = key_node.start_mark.line + 1
            out.append((key, child))
        return out

    def mapping(self, node: yaml.Node, what: str, allowed: tuple[str, ...] | None = None) -> dict[str, yaml.Node]:
        self.plain(node)
        if not isinstance(node, yaml.MappingNode):
            glued = isinstance(node, yaml.ScalarNode) and re.fullmatch(r"[A-Za-z_][\w-]*:[^\s/].*", node.value or "")
            hint = "put a space after the ':' of each key" if glued else None
            words = (node.value or "").split(None, 1) if isinstance(node, yaml.ScalarNode) else []
            if hint is None and allowed and len(words) == 2 and words[0] in allowed:  # `- phantom read_file`
                hint = f"write {words[0]}: {words[1]} - a colon and a space after the key"
            raise self.loc(node).fail(f"{what} must be a mapping (key: value), not {kind(node)}", hint)
        result = dict(self.pairs(node))
        if allowed is not None:
            for key_node, _ in node.value:
                key = key_node.value
                if key not in allowed:
                    hint = did_you_mean(key, allowed) or f"known keys: {', '.join(allowed)}"
                    raise self.loc(key_node).fail(f"unknown key '{key}' in {what}", hint)
        return result

    def sequence(self, node: yaml.Node, what: str, hint: str | None = None) -> list[yaml.Node]:
        self.plain(node)
        if not isinstance(node, yaml.SequenceNode):
            raise self.loc(node).fail(f"{what} must be a list, not {kind(node)}", hint)
        return list(node.value)

    def string(self, node: yaml.Node, what: str, *, empty_ok: bool = False) -> str:
        value = self.value(node)
        if not isinstance(value, str) or (not empty_ok and not value.strip()):
            raise self.loc(node).fail(f"{what} must be a {'string' if empty_ok else 'non-empty string'}, "
                                      f"not {show(value)}", "quote it if YAML read it as something else")
        return value

    def boolean(self, node: yaml.Node, what: str) -> bool | None:
        value = self.value(node)
        if value is not None and not isinstance(value, bool):
            raise self.loc(node).fail(f"{what} must be true or false, not {show(value)}", None)
        return value


def kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    return f"the scalar {node.value!r}" if node.value != "" else "an empty value"


def show(value: Any) -> str:
    return "nothing" if value is None else f"{type(value).__name__} {value!r}"


def only_keys(r: Reader, mapping: yaml.MappingNode, allowed: tuple[str, ...], what: str) -> None:
    """Refuse keys outside ``allowed``, pointing at the key (``mapping`` was read with r.mapping)."""
    for key_node, _ in mapping.value:
        if key_node.value not in allowed:
            hint = did_you_mean(key_node.value, allowed) or f"known keys: {', '.join(allowed)}"
            raise r.loc(key_node).fail(f"unknown key '{key_node.value}' in {what}", hint)


def key_node(mapping: yaml.Node, key: str) -> yaml.Node | None:
    if isinstance(mapping, yaml.MappingNode):
        return next((k for k, _ in mapping.value if k.value == key), None)
    return None


def refuse_yaml11_choice(r: Reader, node: yaml.Node) -> None:
    """``tool_choice: off`` / ``no`` / ``yes`` / ``on`` are YAML 1.1 booleans: refuse instead of guessing."""
    if not (isinstance(node, yaml.ScalarNode) and node.tag == CORE_TAG + "bool"):
        return
    word = node.value
    if word.lower() in ("true", "false"):
        return
    if r.value(node):
        hint = f'write true or required to require a tool call, or "{word}" for a tool named {word}'
    else:
        hint = f'write false to leave tool_choice unset, none to forbid tool calls, or "{word}" for a tool named {word}'
    raise r.loc(node).fail(f"tool_choice: {word} is a YAML boolean ({str(bool(r.value(node))).lower()})", hint)


def read_text(path: str | Path, what: str = "scenario", regular_only: bool = False) -> str:
    """A file's text, refusing what is not UTF-8 text with one line (``what``: the kind of file; ``regular_only``:
    a FIFO or device is refused at once, as ``bounded.read_file`` says)."""
    from . import bounded

    return decoded_text(bounded.read_file(path, what, regular_only=regular_only), str(path), what)


def decoded_text(raw: bytes, name: str, what: str = "scenario") -> str:
    """File bytes as UTF-8 text, refusing UTF-16/32, binary files and bad bytes with one line (bounded.utf8_text,
    the decoding every input file has)."""
    from .bounded import utf8_text

    return utf8_text(raw, name, what)


class _TooDeep(Exception):
    """libyaml's parser events passed ``_COMPOSE_SAFE`` levels at ``mark``: past ``MAX_DEPTH`` whatever follows."""

    def __init__(self, mark: Any) -> None:
        super().__init__()
        self.mark = mark


def _too_deep(path: str, mark: Any, text: str) -> ToolchoiceError:
    """Past ``_COMPOSE_SAFE`` levels: JSON text is JSON at any depth (RFC 8259 sets no bound), so it is refused as
    any text past ``MAX_DEPTH`` is, never called invalid; YAML past libyaml's own bound (1000 flow levels) is what
    libyaml cannot read. Either way with what to do, as the ``MAX_DEPTH`` refusal says it."""
    where = {"path": path, "line": mark.line + 1 if mark else None, "column": mark.column + 1 if mark else None,
             "hint": _DEEPER}
    if _read_as_json(text, path):
        return ToolchoiceError(f"values nest more than {MAX_DEPTH} levels deep", **where)
    return ToolchoiceError(f"invalid {_kind(text, path)}: mappings and lists nest too deeply to read",
                           **{**where, "hint": _DEEPER.replace("at most that", f"at most {MAX_DEPTH} levels")})


@contextmanager
def composed(text: str, path: str, shallow: bool = False) -> Iterator[tuple[Reader, yaml.Node | None]]:
    """The YAML document's root node and a reader for it (values with lines), or one-line errors. A `.json` file is
    read as JSON (``strict_json``): YAML's flow style would read much that is not JSON. ``shallow``: the caller
    knows ``text`` is ``json.dumps`` of a value ``_json_deeper_than`` found within ``MAX_DEPTH`` (what
    ``strict_json`` finds of a `.json` file), so ``_compose_fast`` looks for neither bound again."""
    shallow = strict_json(text, path) or shallow
    text = _json_raw_escaped(text, path)  # after strict_json: a .json text that reaches here is JSON
    as_json = _is_json(text)
    try:
        fast = _compose_fast(text, shallow=shallow)
    except _TooDeep as deep:  # the pure-Python scanner would take ~0.5 s to fail the same way, later in the text
        raise _too_deep(path, deep.mark, text) from None
    if fast is not None:
        loader, root = fast
        try:
            yield _reader(path, loader, text), root
        finally:
            loader.dispose()
        return
    try:
        loader = (_SafeLoader if as_json else yaml.SafeLoader)(text)  # the reader refuses control characters here
    except yaml.reader.ReaderError as exc:
        raise json_problem(text, path) or _reader_error(exc, text, path) from None
    try:
        try:
            root = loader.get_single_node()
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            problem, hint = _told(exc)
            raise json_problem(text, path) or ToolchoiceError(
                f"invalid YAML: {problem}", path=path, line=mark.line + 1 if mark else None,
                column=mark.column + 1 if mark else None, hint=hint) from None
        except yaml.reader.ReaderError as exc:
            raise json_problem(text, path) or _reader_error(exc, text, path) from None
        except yaml.YAMLError as exc:
            raise json_problem(text, path) or ToolchoiceError(f"invalid YAML: {str(exc).splitlines()[0]}",
                                                              path=path) from None
        except RecursionError:  # PyYAML composes nested collections recursively
            raise _too_deep(path, loader.get_mark(), text) from None
        yield _reader(path, loader, text), root
    finally:
        loader.dispose()


def _paired(value: str) -> str:
    """``value`` with each high and low surrogate in a row (two escapes, as JSON writes a character past U+FFFF)
    read as the one character they spell; a lone one stays."""
    try:
        return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        return value


# what a JSON string holds as written and YAML reads otherwise: U+0085, U+2028 and U+2029 are YAML 1.1 line breaks
# (a double-quoted scalar folds them and the spaces around them into one space), DEL and the C1 controls its reader
# refuses. In a JSON text they can only be inside a string: there their \u escape is the same value.
_JSON_RAW = re.compile("[\x7f-\x9f\u2028\u2029]")


def _json_raw_escaped(text: str, path: str) -> str:
    if not path.lower().endswith(".json") or not _JSON_RAW.search(text):
        return text
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_BLOCKS = {"while parsing a block mapping": "the keys of the mapping", "while parsing a block collection": "the list"}


def _told(exc: yaml.MarkedYAMLError) -> tuple[str, str]:
    """PyYAML's problem in a user's words, and what to do: the parser's own words where they are plain, plain words
    for the tokens it names (``<block end>``), a hint for the mistakes people make (a tab, a misaligned key, a value
    holding ': ', a second document, an alias without its anchor, an unclosed quote or bracket)."""
    mark, start = exc.problem_mark or exc.context_mark, exc.context_mark
    problem, context = exc.problem or exc.context or "", exc.context
    began = f"began on line {start.line + 1}, column {start.column + 1}" if start else ""
    if problem.startswith("expected <block end>") and context in _BLOCKS and start:
        return (f"this line is indented differently from {_BLOCKS[context]} that {began}",
                "indent it with spaces exactly as the key or list item it belongs beside; a list item's keys line up "
                "after its '- '")
    if "character '\\t'" in problem:
        return "a tab character, where YAML takes only spaces for indentation", "replace the tab with spaces"
    if context and problem.startswith("but "):  # "expected X" + "but found Y"
        problem = f"{context}, {problem}"
    elif context and start and mark and start.line != mark.line:
        # an unclosed quote or bracket: say where it began, the problem is only where it ended
        problem += f", {context} that {began}"
    if problem.startswith("expected a single document"):
        return problem, "a scenario is one YAML document: remove the '---' line and what follows, or split the file"
    if problem.startswith("found undefined alias"):
        return problem, "an alias *NAME needs its anchor &NAME before it; quote a value that starts with '*'"
    if problem == "mapping values are not allowed here" or problem == "expected ',' or '}', but got ':'":
        return problem, "quote a value that holds ': ', as in content: \"Note: this\"; or check the indentation"
    if "while scanning a quoted scalar" in problem:
        return problem, "close the quote that began there"
    if "while parsing a flow" in problem:
        return problem, "close the bracket that began there, or put a comma between its items"
    return problem, "check indentation and quoting around this point"


def _is_json(text: str) -> bool:
    return text.lstrip()[:1] in ("{", "[")


# a JSON document's start (a quoted key, a value in a list): `{tools: [...]}` is YAML's flow style, not JSON
_JSON_START = re.compile(r'\s*[\[{]\s*(?:["\[{\]}]|-?\d|true\b|false\b|null\b)')
# what Python's JSON decoder says (json/decoder.py, json/scanner.py) -> what to do about it
_JSON_HINTS = (
    ("Expecting ',' delimiter", "a comma is missing between two items here, or a bracket before it is not closed"),
    ("Expecting ':' delimiter", "put a colon between the key and its value"),
    ("Expecting property name", "write the key in double quotes, and no comma after an object's last item"),
    ("Expecting value", "a value is missing here: no comma after a list's last item, strings in double quotes"),
    ("Unterminated string", "close the string that starts here with a double quote"),
    ("Invalid control character", "write a line break, tab or other control character inside a string as an escape: "
                                   "\\n, \\t, \\u0007"),
    ("Invalid \\escape", "write a backslash inside a string as \\\\"),
    ("Extra data", "the document goes on after its end: one top-level value a file"),
)


def _read_as_json(text: str, path: str) -> bool:
    """Whether a reader's problem is said in JSON's words: a `.json` file, or one that starts as JSON does (not a
    `.yaml` / `.yml` one: YAML's flow style starts with a bracket too)."""
    suffix = path.lower().rpartition(".")[2] if "." in path else ""
    return suffix == "json" or (suffix not in ("yaml", "yml") and bool(_JSON_START.match(text)))


def _kind(text: str, path: str) -> str:
    return "JSON" if _read_as_json(text, path) else "YAML"


def json_problem(text: str, path: str, json_only: bool = False) -> ToolchoiceError | None:
    """The one-line error of a JSON file (a `.json` name, a text that starts as JSON does, or ``json_only``: a file
    that can only be JSON) that does not read, in JSON's words: where Python's decoder stopped and what to fix.
    None when the file is YAML, or reads as JSON (then YAML's own message stands)."""
    import json

    if not json_only and not _read_as_json(text, path):
        return None
    from .bounded import json_stop

    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        stop = json_stop(text, exc)  # JSON Lines (a tool file may be): the first line that is not JSON
        hint = next((h for said, h in _JSON_HINTS if stop.message.startswith(said)),
                    "check the quotes, commas and brackets around this point")
        return ToolchoiceError(f"invalid JSON: {stop.message[:1].lower()}{stop.message[1:]}", path=path,
                               line=stop.line, column=stop.column, hint=hint)
    except (ValueError, RecursionError):  # nested past the interpreter's depth: YAML's message says so
        return None
    return None


# a string (skipped whole) or a constant Python's decoder takes and JSON has not (RFC 8259 has no NaN, no Infinity)
_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)')


def strict_json(text: str, path: str) -> bool:
    """A `.json` file that is not JSON (RFC 8259) refused in one line where the JSON decoder stops, with what to do:
    single quotes, comments, a comma after the last item, unquoted keys and NaN read as YAML (flow style) but are
    not JSON. Past the depth or digit bound the reader says so with its own bounds; an empty file is said empty.

    True when the decoder read it nesting at most ``MAX_DEPTH`` levels: YAML composes the same tree from it (JSON
    is YAML's flow style, with no aliases), so what ``_compose_fast`` would find out by parsing the text once more
    before composing it (``_shallow_for_libyaml``: ~440 ms of a 7 MB catalogue's ~3.8 s) and by walking the
    composed tree (``_unusual``: ~75 ms) is known from this parse (its walk: ~35 ms)."""
    if not path.lower().endswith(".json") or not text.strip():
        return False
    import json

    from . import bounded

    try:  # not bounded.json_value: its depth scan costs more than the parse (~250 ms for 7 MB of strings)
        return not _json_deeper_than(json.loads(text, parse_constant=bounded.no_constant), MAX_DEPTH)
    except RecursionError:  # nested past the interpreter's stack (the C scanner checks it): past MAX_DEPTH anyway
        return False
    except ValueError as exc:
        if bounded.digits_past_limit(exc) is not None:
            return False
        problem = json_problem(text, path, json_only=True)
        if problem is None:  # the decoder read it: a NaN or Infinity it takes and JSON does not
            found = next((m for m in _CONSTANT.finditer(text) if m.group(1)), None)
            line, column = _place(text, found.start() if found else 0)
            problem = ToolchoiceError(f"invalid JSON: {exc}", path=path, line=line, column=column,
                                      hint="write null, or the number as a string")
    hint = problem.hint
    if _reads_as_yaml(text):  # what YAML would have taken: say so, and where YAML goes
        if (problem.line, problem.column) == _place(text, len(text) - len(text.lstrip())):
            hint = "this .json file is YAML, not JSON: name it .yaml, or write it as JSON"
        else:
            hint = f"{hint}; YAML would take it, JSON does not: name the file .yaml to write YAML"
    raise ToolchoiceError(problem.message, path=path, line=problem.line, column=problem.column, hint=hint) from None


def _json_deeper_than(value: Any, limit: int) -> bool:
    """``_deeper_than`` of the tree YAML composes from this JSON value: a value inside an object (its keys too) or
    a list one level deeper than it, the root at 0; only the objects and lists are walked."""
    if type(value) is not dict and type(value) is not list:
        return limit < 0
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if type(node) is dict else node
        if children and depth >= limit:  # a child (a key, at least) one level past the limit
            return True
        stack.extend((child, depth + 1) for child in children if type(child) is dict or type(child) is list)
    return False


def _place(text: str, position: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset in ``text``."""
    return text.count("\n", 0, position) + 1, position - (text.rfind("\n", 0, position) + 1) + 1


def _reads_as_yaml(text: str) -> bool:
    """Whether libyaml composes ``text`` (on the failure path only; without libyaml: False)."""
    try:
        fast = _compose_fast(text)
    except _TooDeep:
        return False
    if fast is None:
        return False
    fast[0].dispose()
    return True


def _compose_fast(text: str, *, shallow: bool = False) -> tuple[Any, yaml.Node | None] | None:
    """Compose with libyaml when PyYAML has it (several times faster). Any problem returns None and the
    pure-Python loader reads the text again: its messages are the ones the user sees. ``shallow``: the text is
    known to nest at most ``MAX_DEPTH`` levels without aliases (``strict_json`` read it), so neither bound is
    looked for again."""
    c_loader = _CSafeLoader if _is_json(text) else getattr(yaml, "CSafeLoader", None)
    if c_loader is None or _CONTROL.search(text) or _SURROGATE.search(text):
        return None  # libyaml takes UTF-8 only: a lone surrogate (decoded from JSON's \ud800) goes the slow way
    if not shallow and not _shallow_for_libyaml(text, c_loader):
        return None  # a parse error: the pure-Python loader reports it precisely
    loader = c_loader(text)
    try:
        root = loader.get_single_node()
    except Exception:  # noqa: BLE001 - the slow path reports it precisely
        loader.dispose()
        return None
    # the slow path refuses these with its own messages and limits
    if not shallow and _unusual(root, MAX_DEPTH, aliases="*" in text):
        loader.dispose()
        return None
    return loader, root


def _shallow_for_libyaml(text: str, c_loader: Any) -> bool:
    """Whether the document nests at most ``_COMPOSE_SAFE`` levels, found without composing it: PyYAML's
    C composer recurses once per level and overflows the C stack (a segfault) somewhere past 10,000.

    A cheap bound first: a level opens with a flow bracket or an indented/``- ``/``? `` block entry,
    so depth <= brackets + the longest line. Only a document that could pass it is counted exactly,
    from libyaml's parser events (an iterative state machine, no recursion); one that does not raises
    ``_TooDeep`` at the event that passed the bound (no reader can compose it: past ``MAX_DEPTH`` anyway)."""
    brackets = text.count("[") + text.count("{")
    if brackets + max(map(len, text.splitlines()), default=0) <= _COMPOSE_SAFE:
        return True
    parser = c_loader(text)
    depth = 0
    try:
        while True:
            event = parser.get_event()
            if event is None or isinstance(event, yaml.StreamEndEvent):
                return True
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > _COMPOSE_SAFE:
                    mark = event.start_mark
                    break
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.MarkedYAMLError as exc:
        if exc.problem != "exceeded maximum nesting depth":  # libyaml's own bound (1000 levels): the same refusal
            return False  # a parse error: the pure-Python loader reports it precisely
        mark = exc.problem_mark
    except Exception:  # noqa: BLE001 - as above
        return False
    finally:
        parser.dispose()
    raise _TooDeep(mark)


def _unusual(root: yaml.Node | None, limit: int, aliases: bool = True) -> bool:
    """Whether the text nests mappings and lists deeper than ``limit`` (a node deeper than ``limit``, the root
    being at 0). ``aliases``: whether the text may hold one (an alias is written with ``*``).

    An alias (``*name``) is the node its anchor composed, reached again: each node is looked at once, at
    the first place it is reached in document order, which is where its anchor is written (an alias
    comes after its anchor). That place's depth is the one the pure-Python composer recurses to. What
    aliases expand to (loops, alias bombs) is not composing's business: the reader refuses it with the
    same messages on either path (``Reader.value``: the loop, the depth and the value budget).

    Without aliases every node is reached once: nothing needs remembering, and a scalar (most nodes) matters
    only as a child one level past the limit, so only collections are walked (a 780 kB tool catalogue:
    ~35 -> ~10 ms)."""
    if not aliases:
        return _deeper_than(root, limit)
    stack = [(root, 0)]
    seen: set[int] = set()
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            continue
        if depth > limit:
            return True
        seen.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            stack.extend((child, depth + 1) for pair in reversed(node.value) for child in reversed(pair))
    return False


def _deeper_than(root: yaml.Node | None, limit: int) -> bool:
    """``_unusual`` for a document without aliases."""
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, yaml.MappingNode):
            children = [child for pair in node.value for child in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = node.value
        else:
            continue
        if children and depth >= limit:  # a child one level past the limit
            return True
        stack.extend((child, depth + 1) for child in children if type(child) is not yaml.ScalarNode)
    return False


def _reader(path: str, loader: Any, text: str) -> Reader:
    """A reader for ``text``'s nodes, told what the text can hold (cheap checks skip the rest)."""
    reader = Reader(path, loader)
    reader.escapes = "\\" in text  # only an escape makes a lone surrogate (\ud800)
    reader.aliases = "*" in text
    return reader


def _reader_error(exc: yaml.reader.ReaderError, text: str, path: str) -> ToolchoiceError:
    position = exc.position
    line, column = _place(text, position)
    character = f"U+{exc.character:04X}" if isinstance(exc.character, int) else repr(exc.character)
    return ToolchoiceError(f"invalid {_kind(text, path)}: control character {character} is not allowed", path=path,
                           line=line, column=column,
                           hint="remove it, or write it as an escape in a double-quoted string")
