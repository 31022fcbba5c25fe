"""One bounded reader for every input: files, stdin, JSON text, subprocess output. Each read stops one
unit past its limit (``limits.py``) and refuses with one line naming the limit and how to raise it;
a FIFO or socket named where a file is expected is refused without blocking. Only the standard library.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, NamedTuple

from . import limits
from .json_last import (KEY_SHOWN, DuplicateKey, cut, key_shown, nests_at_most, no_constant,  # noqa: F401 - the
                        read_last, unique_keys)  # rest of the code imports these from here, the one reader of input
from .model import ToolchoiceError


_EXAMPLE = {"scenario": ".yaml file"}
CHUNK = 1 << 20  # read a MiB at a time: a read of the limit itself would first ask for that much memory


class TooLarge(ToolchoiceError):
    """An input past one of the limits."""


def too_large(subject: str, name: str, **where: Any) -> TooLarge:
    return TooLarge(f"{subject}: more than {limits.shown(name)}", hint=limits.raise_hint(name), **where)


def read_file(path: str | Path, what: str = "input", *, limit: str = "file_bytes", regular_only: bool = False,
              stdin: bool = False) -> bytes:
    """A file's bytes, at most the limit. ``regular_only``: refuse FIFOs, sockets and devices at once (without
    waiting for a writer, or reading /dev/zero to the limit) -- a scenario's ``from:`` names a file, not a pipe;
    ``stdin``: the command reads ``-`` instead, which its refusal says."""
    name = str(path)
    cap = limits.get(limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise ToolchoiceError(f"{name}: no such file", hint=_missing_hint(name)) from None
    except IsADirectoryError:
        raise _a_directory(name, what) from None
    except OSError as exc:
        raise ToolchoiceError(f"{name}: cannot read: {exc.strerror}") from None
    except ValueError:  # a NUL in the name (a scenario's from: "x\0y"): no file has one; was an internal error
        raise ToolchoiceError(f"{name}: no such file (a file name holds no NUL character)",
                              hint="check the path") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise _a_directory(name, what)
        if not stat.S_ISREG(mode) and (regular_only or stat.S_ISSOCK(mode)):
            kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else "a device"
            raise ToolchoiceError(f"{name}: is {kind}, not a regular {what} file (reading it could wait, or go on, "
                                  "forever)", hint="save what it gives into a file and name that"
                                  + (", or pipe it in and give -" if stdin else ""))
        if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
            os.set_blocking(fd, True)  # a pipe the user named on the command line (<(...)): read it
        chunks: list[bytes] = []
        size = 0
        while size <= cap:
            chunk = os.read(fd, min(CHUNK, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise ToolchoiceError(f"{name}: cannot read: {exc.strerror}") from None
    finally:
        os.close(fd)
    if size > cap:
        raise TooLarge(f"{name}: larger than {limits.larger_than(cap, limit)}, not a {what} file",
                       hint=limits.raise_hint(limit))
    return b"".join(chunks)


def _siblings(folder: str, most: int = 1000) -> list[str]:
    """The names of a folder's first ``most`` entries (a huge folder is not listed whole for a hint)."""
    try:
        with os.scandir(folder or ".") as entries:
            return [entry.name for _, entry in zip(range(most), entries)]
    except OSError:
        return []


def _missing_hint(name: str) -> str:
    """`configs/weather.yml` for configs/weather.yaml: the name beside it that is nearest, else "check the path"."""
    folder, base = os.path.split(name)
    names = {}  # compared case-folded: SRV.PY for srv.py was "check the path" (ratio 0.33)
    for sibling in _siblings(folder):
        names.setdefault(sibling.casefold(), os.path.join(folder, sibling))
    return (did_you_mean(base.casefold(), names, cutoff=0.8) if base else None) or "check the path"


# characters compared pair by pair (the word's times each option's) past which a did-you-mean compares in full only
# the options likeliest by difflib's quick bound: a folder of 1,000 names of ~200 characters, alike (`ab` strings),
# took 3.1 s for a hint; 1,000 names of 40 characters are 1.6 million, compared in full as before
NEAR_WORK = 2_000_000


def did_you_mean(word: str, options: Iterable[str] | Mapping[str, str], cutoff: float = 0.6) -> str | None:
    """"did you mean X?" for the option nearest ``word`` (difflib's ``get_close_matches``, its ratio at least
    ``cutoff``), or None. ``options``: the names, or a mapping of each name compared to how it is said (a file's
    path). Bounded: past ``NEAR_WORK``, only the options with the best quick bound (``quick_ratio``) are compared
    in full, as many as it allows."""
    said = options if isinstance(options, Mapping) else None
    match = nearest(word, options, cutoff)
    return f"did you mean {said[match] if said is not None else match}?" if match is not None else None


def nearest(word: str, names: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The name ``did_you_mean`` says (difflib's ``get_close_matches``, n=1, bounded the same way), or None: for a
    caller that words its own hint (``schema_check.keyword_typos``)."""
    match = close_matches(word, list(names), 1, cutoff)
    return match[0] if match else None


def close_matches(word: str, names: list[str], n: int, cutoff: float) -> list[str]:
    """difflib's ``get_close_matches``, bounded as ``did_you_mean`` is (choice.tool_did_you_mean asks it too)."""
    import difflib  # only errors need it

    if len(word) * sum(map(len, names)) > NEAR_WORK:
        names = _likeliest(word, names, cutoff)
    return difflib.get_close_matches(word, names, n=n, cutoff=cutoff)


def _likeliest(word: str, names: list[str], cutoff: float) -> list[str]:
    """Of ``names``, those ``get_close_matches`` would compare in full (both quick bounds at least ``cutoff``), the
    highest quick bound first, up to ``NEAR_WORK`` characters compared: none where the likeliest alone is past it
    (one id of 100,000 characters against another took 11 s of CPU for a hint)."""
    import difflib

    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    scored = []
    for name in names:
        matcher.set_seq1(name)
        if matcher.real_quick_ratio() >= cutoff and (bound := matcher.quick_ratio()) >= cutoff:
            scored.append((bound, name))
    scored.sort(reverse=True)
    kept: list[str] = []
    work = 0
    for _, name in scored:
        work += len(word) * len(name)
        if work > NEAR_WORK:
            break
        kept.append(name)
    return kept


def _a_directory(name: str, what: str) -> ToolchoiceError:
    """A folder named where a file goes; for scenarios, one of the files inside (`compare configs`: "name a .yaml
    file" left the user to look for one)."""
    hint = f"name a {_EXAMPLE.get(what, 'file')}"
    found = sorted(n for n in _siblings(name) if n.endswith((".yaml", ".yml"))) if what == "scenario" else []
    if found:
        hint += f" in it, such as {os.path.join(name, found[0])} ({len(found)} there)"
    return ToolchoiceError(f"{name}: is a directory, not a {what} file", hint=hint)


def read_at_most(stream: Any, cap: int) -> Any:
    """At most ``cap + 1`` bytes (or characters) of an open stream, read a MiB at a time: ``stream.read(cap + 1)``
    asks for a buffer of that size first, so a limit raised past the memory (TOOLCHOICE_LIMIT_FILE_BYTES=
    999999999999999999) was an internal MemoryError before a byte was read."""
    chunks = []
    size = 0
    while size <= cap:
        chunk = stream.read(min(CHUNK, cap + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return (b"" if not chunks or isinstance(chunks[0], bytes) else "").join(chunks)


def read_stdin_text(shown: str = "<stdin>", limit: str = "file_bytes") -> str:
    """stdin as text, at most the limit."""
    cap = limits.get(limit)
    stream = getattr(sys.stdin, "buffer", None)
    if stream is not None:
        raw = read_at_most(stream, cap)
        text = raw.decode("utf-8", errors="replace")
        size = len(raw)
    else:  # a text stream (tests)
        text = read_at_most(sys.stdin, cap)
        size = len(text)
    if size > cap:
        raise too_large(shown, limit)
    return text


def cap_bytes(data: bytes, subject: str, limit: str) -> bytes:
    if len(data) > limits.get(limit):
        raise too_large(subject, limit)
    return data


def depth_ok(text: str | bytes, limit: int | None = None) -> bool:
    """Whether JSON text nests at most ``limit`` levels (json_depth unless given): ``json_last.nests_at_most``."""
    return nests_at_most(text, limits.get("json_depth") if limit is None else limit)


class Unreadable(ValueError):
    """JSON past what this program or its interpreter reads (``TooDeep``, ``TooManyDigits``): a ValueError, as any
    text that is not JSON, whose message says which bound it passed, so it is never called "not JSON"."""


class TooDeep(Unreadable):
    """JSON nested past the json_depth limit."""


class TooManyDigits(Unreadable):
    """An integer with more digits than Python converts (``sys.get_int_max_str_digits``, 4,300 by default: a
    guard against the quadratic cost of converting long decimal strings, CPython 3.11+)."""


def digits_past_limit(exc: ValueError) -> TooManyDigits | None:
    """``exc`` as ``TooManyDigits`` when it is json's ValueError for an integer past Python's digit limit
    (CPython: 'Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; use
    sys.set_int_max_str_digits() to increase the limit')."""
    text = str(exc)
    if "int_max_str_digits" not in text:
        return None
    found = re.search(r"value has (\d+) digits", text)
    size = f"{int(found.group(1)):,} digits" if found else "more digits"
    return TooManyDigits(f"the JSON holds an integer of {size}, more than Python converts "
                         f"({sys.get_int_max_str_digits():,}: its integer-digit limit, sys.set_int_max_str_digits; "
                         "PYTHONINTMAXSTRDIGITS=0 lifts it for one run)")


def digits_line(text: str) -> int | None:
    """The line of ``text`` where the first integer past Python's digit limit starts (for the error's file:line)."""
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    # from a run's first digit only (the same place: a later start in a run is as short where the first was): each
    # digit of a shorter run was read up to limit + 1 further (a MB of 4,300-digit runs: 11.9 s; now ~20 ms)
    found = re.search(r"(?<!\d)\d{%d,}" % (limit + 1), text) if limit else None
    return text.count("\n", 0, found.start()) + 1 if found else None


TWICE_SAID = 20  # keys a server's JSON names twice said one by one (a stream, a reply); then one line for the rest


_BRACES = re.compile(r'["\\{}]')


def duplicate_line(text: str, at: int = 0) -> int | None:
    """The line where the first object of ``text`` (read from ``at``) that names a key twice opens. For the failure
    path only. The decoder completes objects in the order their closing braces come: the text is read again by the
    C scanner counting the objects it completed up to the one that raised, then that closing brace is found by a
    scan of braces, quotes and backslashes (linear; re-reading with the pure-Python scanner, which tells where each
    object starts, took 3.4 s for 10 MB, ~17 s for a 50 MB file)."""
    done = 0

    def counted(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        nonlocal done
        done += 1
        return unique_keys(pairs)

    at = _SPACE.match(text, at).end()  # json.loads's text may start with blank lines (raw_decode takes none)
    try:
        json.JSONDecoder(object_pairs_hook=counted).raw_decode(text, at)
        return None
    except DuplicateKey:
        pass
    except (ValueError, RecursionError):
        return None
    opened: list[int] = []
    in_string = False
    skip = -1
    for match in _BRACES.finditer(text, at):
        where = match.start()
        if where == skip:
            continue
        token = text[where]
        if in_string:
            if token == "\\":
                skip = where + 1
            elif token == '"':
                in_string = False
        elif token == '"':
            in_string = True
        elif token == "{":
            opened.append(where)
        elif opened:
            done -= 1
            start = opened.pop()
            if done == 0:
                return text.count("\n", 0, start) + 1
    return None


def json_loads(text: str | bytes, _read: Callable[[Any], Any] | None = None, **kwargs: Any) -> Any:
    """``json.loads`` that never recurses past the json_depth limit: deeper text raises ``TooDeep``
    (a ValueError, like any text that is not JSON) instead of RecursionError; an integer past Python's
    digit limit raises ``TooManyDigits``. With ``object_pairs_hook=unique_keys``, a key written twice raises
    ``DuplicateKey`` with the line of its object. ``_read``: what reads the text in json.loads's place
    (``json_loads_twice``'s ``read_last``)."""
    if not depth_ok(text):
        raise TooDeep(f"the JSON nests too deeply: more than {limits.shown('json_depth')}; "
                      f"{limits.raise_hint('json_depth')}")
    try:
        return json.loads(text, **kwargs) if _read is None else _read(text)
    except RecursionError:
        raise TooDeep(f"the JSON nests too deeply for this interpreter's stack ({limits.shown('json_depth')})") from None
    except DuplicateKey as exc:
        if exc.line is None:
            # bytes as json.loads read them (a UTF-8 BOM, UTF-16): decoded "utf-8", the BOM hid the line
            exc.line = duplicate_line(text if isinstance(text, str) else
                                      text.decode(json.detect_encoding(text), "replace"))
        raise
    except ValueError as exc:
        digits = digits_past_limit(exc)
        if digits is None:
            raise
        raise digits from None


def json_loads_twice(text: str | bytes) -> tuple[Any, tuple[str, ...]]:
    """A server's JSON: ``json_loads`` reading a key written twice in one object as the official SDKs'
    ``json.loads`` reads it (the last of the two), with each key so written (once, in the order met) for the caller
    to say so (``read_last``). Never refused: a server's duplicate is not the user's mistake (``unique_keys`` is
    for the user's). NaN and Infinity are not JSON (``no_constant``)."""
    twice: dict[str, None] = {}
    if isinstance(text, bytes):  # as json.loads reads bytes
        text = text.decode(json.detect_encoding(text), "surrogatepass")
    return json_loads(text, _read=lambda t: read_last(t, twice)), tuple(twice)


def keys_twice(data: bytes) -> tuple[str, ...]:
    """The keys a server's JSON ``data`` names twice in one object (``json_loads_twice``); () when it is not JSON."""
    try:
        return json_loads_twice(data.decode("utf-8", "replace"))[1]
    except ValueError:
        return ()


def unreadable(text: str) -> Unreadable | None:
    """Why ``text``, which failed to parse, is JSON this program cannot read (too deep, an integer past Python's
    digit limit), or None when it is simply not JSON (or no object or array). For the failure path only: it parses
    again."""
    if text.lstrip()[:1] not in ("{", "["):
        return None
    try:
        json_value(text)
    except Unreadable as exc:
        return exc
    except ValueError:
        return None
    return None


def json_value(text: str | bytes) -> Any:
    """JSON from outside (a reply, arguments, a tool result): within json_depth, without NaN/Infinity;
    anything else raises ValueError."""
    return json_loads(text, parse_constant=no_constant)


# ---- one reader of JSON files: a saved request, a reply file, a trace (and the place a scenario's .json stops) ----

class JsonStop(NamedTuple):
    """Where JSON text stops being JSON, in the decoder's words (1-based line and column of the text)."""

    line: int
    column: int
    message: str  # "Expecting ',' delimiter", ... (json/decoder.py's words, without its trailing place)


def json_stop(text: str, exc: json.JSONDecodeError) -> JsonStop:
    """``exc``'s place and words; for "Extra data" after a first document (JSON Lines), the first line that is not
    JSON, as a file of one document a line is read."""
    if exc.msg.startswith("Extra data"):
        decoder = json.JSONDecoder()
        for number, row in enumerate(text.split("\n"), 1):
            try:
                if row.strip():
                    decoder.decode(row)
            except json.JSONDecodeError as inner:
                return JsonStop(number, inner.colno, _words(inner.msg))
            except ValueError:  # an integer past the digit limit: said elsewhere
                break
    return JsonStop(exc.lineno, exc.colno, _words(exc.msg))


def _words(message: str) -> str:
    return re.sub(r"\s+(?:starting )?at$", "", message)  # "Unterminated string starting at": the place is ours


def utf8_text(raw: bytes, name: str, what: str = "input", kind: str = "YAML", hint: str | None = None) -> str:
    """File bytes as UTF-8 text (a BOM dropped), refusing UTF-16/32, binary files and bad bytes in one line naming
    the file, line and column. ``kind``: the text the file should hold (a YAML scenario, a JSON trace)."""
    import codecs

    if raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # before UTF-16: FF FE 00 00 starts both
        raise ToolchoiceError("not UTF-8 text (UTF-32)", path=name, line=1, column=1, hint="save the file as UTF-8")
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise ToolchoiceError("not UTF-8 text (UTF-16)", path=name, line=1, column=1, hint="save the file as UTF-8")
    if b"\x00" in raw:
        line, column = _byte_position(raw, raw.index(b"\x00"))
        raise ToolchoiceError(f"this is a binary file (it holds NUL bytes), not a {kind} {what}", path=name,
                              line=line, column=column,
                              hint=hint or f"a {what} is a {'YAML or JSON' if kind == 'YAML' else kind} text file")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, column = _byte_position(raw, exc.start)
        raise ToolchoiceError(f"not UTF-8 text (byte {exc.start} is 0x{raw[exc.start]:02x})", path=name, line=line,
                              column=column, hint="save the file as UTF-8") from None


def _byte_position(raw: bytes, index: int) -> tuple[int, int]:
    """1-based line and column (in bytes) of ``raw[index]``."""
    return raw.count(b"\n", 0, index) + 1, index - (raw.rfind(b"\n", 0, index) + 1) + 1


def _too_deep_value(value: Any, limit: int) -> bool:
    """Whether a parsed value nests objects and lists more than ``limit`` levels (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if type(item) is dict or type(item) is list:
            if depth > limit:
                return True
            stack.extend((v, depth + 1) for v in (item.values() if type(item) is dict else item)
                         if type(v) is dict or type(v) is list)
    return False


_SPACE = re.compile(r"\s*")


def json_documents(text: str, name: str, *, hint: str | None = None, lines: bool = False,
                   each: Callable[[int, Any], None] | None = None) -> list[tuple[int, Any]]:
    """The JSON document ``text`` holds (``lines``: or one a line, JSON Lines), each with the line it starts on (0
    for a whole-file document), read in one pass (``raw_decode``: a JSON Lines file is not parsed as a whole first)
    and bounded (json_depth, Python's integer-digit limit). Anything else is one line naming ``name`` and the
    line and column (a ``ToolchoiceError``, exit 2): not JSON in the decoder's words, an integer past the digit
    limit, nested past json_depth. ``each(line, document)`` is called as each document is read, before the next:
    the caller's refusal of one (or of one too many) stops the reading there (8 MB of ``{}`` lines, 2.8 million
    documents at ~10 us each, were all read before the first was refused)."""
    decoder = json.JSONDecoder(object_pairs_hook=unique_keys, parse_constant=no_constant)
    cap = limits.get("json_depth")
    found: list[tuple[int, Any]] = []
    at = len(text) - len(text.lstrip())
    if at == len(text):
        raise ToolchoiceError("the file is empty", path=name, hint=hint)
    line, counted = 1, 0
    while at < len(text):  # in linear time: counting from the start, and slicing off the rest, at every document
        line += text.count("\n", counted, at)  # took hours for a 4 MB file of 2,000,000 lines (an adversarial run)
        counted = at
        try:
            value, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            stop = json_stop(text, exc)
            raise ToolchoiceError(f"not JSON ({stop.message})", path=name, line=stop.line, column=stop.column,
                                  hint=hint) from None
        except RecursionError:  # the C scanner's own bound, past the interpreter's stack
            raise ToolchoiceError(f"nests deeper than {cap} levels", path=name, line=line,
                                  hint=limits.raise_hint("json_depth")) from None
        except DuplicateKey as exc:  # the decoder would keep the last and drop the first without a word
            raise ToolchoiceError(str(exc), path=name, line=duplicate_line(text, at) or line,
                                  hint="keep one of them") from None
        except ValueError as exc:
            digits = digits_past_limit(exc)
            if digits is None:  # NaN, Infinity: the decoder takes them, JSON (RFC 8259) has no such numbers
                if str(exc).endswith("is not a JSON value"):
                    raise ToolchoiceError(f"not JSON ({exc})", path=name, line=line,
                                          hint="write null, or the number as a string") from None
                raise
            raise ToolchoiceError(str(digits), path=name, line=digits_line(text), hint=hint) from None
        if _too_deep_value(value, cap):
            raise ToolchoiceError(f"nests deeper than {cap} levels", path=name, line=line,
                                  hint=limits.raise_hint("json_depth"))
        rest = _SPACE.match(text, end).end()  # str.lstrip's whitespace: re's \s is str.isspace
        if rest < len(text) and (not lines or "\n" not in text[end:rest]):  # more on the same line, or one document
            stop = json_stop(text, json.JSONDecodeError("Extra data", text, rest))
            raise ToolchoiceError(f"not JSON ({stop.message})", path=name, line=stop.line, column=stop.column,
                                  hint=hint)
        found.append((line if lines and (found or rest < len(text)) else 0, value))
        if each is not None:
            each(*found[-1])
        at = rest
    return found


def read_json_file(path: str | Path, what: str, *, hint: str | None = None, regular_only: bool = False) -> Any:
    """A JSON file read bounded (file_bytes, json_depth, the digit limit), UTF-8: its one document, or one line
    naming the file (and the line and column where it stops being JSON). ``regular_only``: as ``read_file``."""
    name = str(path)
    text = utf8_text(read_file(path, what, regular_only=regular_only), name, what, "JSON", hint)
    return json_documents(text, name, hint=hint)[0][1]


MAX_VALUES = 1_000_000  # values of a scenario after YAML aliases are expanded (yaml_input.Reader's bound)


def expanded_size(value: Any) -> tuple[int, int]:
    """(values, characters of text) that ``value`` (JSON-like data: dicts, lists, scalars) holds once every shared
    list or mapping is counted at each place it is used, as YAML aliases are read (PyYAML makes an alias a reference
    to its anchor's object) or a Python caller reuses an object: counted without writing anything out, each list
    and mapping once, its size kept by its id (so nine references a level, 9**levels values, cost a walk of the
    levels). A loop back to a list or mapping on the way counts once (the readers name the loop). Text is what str
    values and keys hold."""
    from collections.abc import Mapping  # any mapping, as load_scenario_dict writes any out (not dicts alone)

    sizes: dict[int, tuple[int, int]] = {}  # id -> (values, characters), once its children are counted
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        item, counted = stack.pop()
        if not isinstance(item, (Mapping, list, tuple)):
            continue
        children = list(item.values()) if isinstance(item, Mapping) else item
        if counted:
            values, chars = 1, sum(len(k) for k in item if isinstance(k, str)) if isinstance(item, Mapping) else 0
            for child in children:
                size = sizes.get(id(child), (1, 0)) if isinstance(child, (Mapping, list, tuple)) else (
                    1, len(child) if isinstance(child, str) else 0)
                values, chars = values + size[0], chars + size[1]
            sizes[id(item)] = (values, chars)
        elif id(item) not in sizes:
            sizes[id(item)] = (1, 0)  # on the way: a loop back to it counts once
            stack.append((item, True))
            stack.extend((child, False) for child in children)
    if isinstance(value, (Mapping, list, tuple)):
        return sizes[id(value)]
    return 1, len(value) if isinstance(value, str) else 0


def refuse_expanded(value: Any, subject: str, values_hint: str, **where: Any) -> None:
    """The scenario reader's bounds on values and text (yaml_input.Reader), counted by ``expanded_size`` before
    ``value`` is written out: ``<subject> to more than N values`` / ``... of text``, one line."""
    values, chars = expanded_size(value)
    if values > MAX_VALUES:
        raise ToolchoiceError(f"{subject} to more than {MAX_VALUES} values", hint=values_hint, **where)
    if chars > limits.get("expanded_bytes"):
        raise ToolchoiceError(f"{subject} to more than {limits.shown('expanded_bytes')} of text",
                              hint=limits.raise_hint("expanded_bytes"), **where)
