"""A tool's regular expressions matched against a model's arguments, bounded in time (limit ``pattern_seconds``).

A schema's ``pattern`` / ``patternProperties`` and a custom tool's regex grammar are the user's (or an MCP
server's); the text they are matched against is the model's. Python's ``re`` backtracks, so a pattern such as
``^(a|aa)+$`` on eighty a's and a '!' runs for ever, holding the GIL (not even Ctrl-C ends it), where the API's own
matcher (OpenAI documents the Rust regex crate's syntax, which matches in linear time) answers at once. These
matches go through the ``regex`` package instead, which gives up past a timeout: the call is then "not checked"
(``SlowPattern``), never judged on a guess. Imported only when a call is checked against such a schema."""

from __future__ import annotations

from typing import Any, Callable, Iterator

from . import limits


class SlowPattern(Exception):
    """A pattern that took longer than ``pattern_seconds`` on one value: the arguments are not checked."""

    def __init__(self, pattern: str, where: str, huge: bool = False) -> None:
        super().__init__(pattern, where)
        self.pattern, self.where, self.huge = pattern, where, huge  # huge: not compiled at all (MAX_PIECES)

    def line(self) -> str:
        shown = self.pattern if len(self.pattern) <= 80 else self.pattern[:77] + "..."
        if self.huge:
            return (f"schema: the {self.where} {shown!r} repeats to more than {MAX_PIECES:,} pieces, which the regex "
                    "package would each build before matching (~270 bytes a piece): arguments not checked")
        return (f"schema: the {self.where} {shown!r} took more than {limits.shown('pattern_seconds')} on a call's "
                "text (Python's regex engines backtrack; the API's may not): arguments not checked")


_SLOW: set[str] = set()  # patterns that once ran past the limit: not tried again in this process, so a reply of
# many calls (or a proxy's stream of answers) costs pattern_seconds once per such pattern, not once per value
_HUGE: set[str] = set()  # patterns refused before compiling: their repeats come to more than MAX_PIECES pieces
# the regex package compiles a repeat {m} (and {m,}, {m,n}) as m copies of what it repeats, ~270 bytes each, before a
# timeout can count: '^a{3000000}$' took 2 s and 815 MB, '^a{100000000}$' more memory than the machine had (Python's
# re reads the counts without copying). A real pattern's repeats come to tens or hundreds of pieces.
MAX_PIECES = 100_000
_PAST = MAX_PIECES + 1  # counts stop here: a pattern of nested repeats makes numbers of as many digits as it has repeats


# regex counts a timeout in microseconds in 64 bits: past ~9.2e12 seconds it times out at once, so
# TOOLCHOICE_LIMIT_PATTERN_SECONDS=999999999999999999 (meant: no bound) called every pattern slow. A billion
# seconds (31 years) is no bound anyone waits for.
REGEX_SECONDS_MOST = 1e9


_COMPILED: dict[str, Any] = {}  # pattern -> regex's compiled form (None: regex cannot read it); regex.compile's own
# cache lookup cost ~8 µs a call, more than the match: the mock tries up to 18 texts against each pattern a request


def _compiled(pattern: str) -> Any:
    try:
        return _COMPILED[pattern]
    except KeyError:
        pass
    import regex

    try:
        compiled = regex.compile(pattern)
    except (regex.error, RecursionError):  # (RecursionError: a pattern nested thousands deep)
        compiled = None
    if len(_COMPILED) < 1024:
        _COMPILED[pattern] = compiled
    return compiled


def readable(pattern: str) -> bool:
    """Whether the ``regex`` package reads ``pattern``: ``matcher`` then matches it in bounded time (or, for a
    pattern of more than ``MAX_PIECES`` pieces, which is not compiled, raises SlowPattern)."""
    return pieces(pattern) > MAX_PIECES or _compiled(pattern) is not None


def pieces(pattern: str) -> int:
    """At least how many pieces the regex package builds for ``pattern``, each repeat {m,...} counted m times (plus
    once for its optional rest), the alternatives of a group added: read from the text alone in one pass (a pattern
    neither re nor regex reads is still counted), so nothing is built to count it. Counted twice, as plain and as
    verbose text ((?x): blanks and ``#`` comments are no atom, so ``(a{1000}) {1000}`` repeats the group, and ``#[``
    opens no class), the larger kept; a ``(?#...)`` comment is no atom either way (trial 20m)."""
    return max(_pieces(pattern, False), _pieces(pattern, True))


def _pieces(pattern: str, verbose: bool) -> int:
    levels: list[list[int]] = [[0, 0]]  # per open group: [its size so far, the size of its last atom]
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if verbose and c in " \t\n\r\f\v" or c == "(" and pattern.startswith("(?#", i):
            i = i + 1 if c != "(" else pattern.find(")", i) + 1 or n
            continue
        if verbose and c == "#":
            i = pattern.find("\n", i) + 1 or n
            continue
        if c == "\\":
            i += 2
            if pattern[i - 1:i] in ("p", "P", "x", "N", "u", "U") and pattern[i:i + 1] == "{":
                i = pattern.find("}", i) + 1 or n  # \p{Lu}, \x{10FFFF}, \N{name}: one atom
            levels[-1][0] += 1
            levels[-1][1] = 1
            continue
        if c == "[":
            j = i + 1
            j += pattern[j:j + 1] == "^"
            j += pattern[j:j + 1] == "]"
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            i = j + 1
            levels[-1][0] += 1
            levels[-1][1] = 1
            continue
        if c == "(":
            levels.append([0, 0])
        elif c == ")" and len(levels) > 1:
            size = max(levels.pop()[0], 1)
            levels[-1][0] = min(levels[-1][0] + size, _PAST)
            levels[-1][1] = size
        elif c == "{":
            repeat = _repeat(pattern, i, verbose)
            if repeat is not None:
                copies = repeat[0]  # {m,} and {m,n}: m copies and the optional rest
                last = levels[-1][1]
                levels[-1][0] = min(levels[-1][0] + last * (copies - 1), _PAST)
                levels[-1][1] = min(last * copies, _PAST)
                i = repeat[1]
                continue
            levels[-1][0] += 1
            levels[-1][1] = 1
        elif c not in "|*+?^$":
            levels[-1][0] += 1
            levels[-1][1] = 1
        i += 1
    while len(levels) > 1:
        size = levels.pop()[0]
        levels[-1][0] = min(levels[-1][0] + size, _PAST)
    return levels[0][0]


def _repeat(pattern: str, at: int, verbose: bool) -> tuple[int, int] | None:
    """For the ``{`` at ``at``: (copies, where the repeat ends) if it starts {m}, {m,} or {m,n}, else None (a
    literal). Verbose, blanks and ``#`` comments inside the braces are skipped, as the regex package skips them."""
    m, digits, comma, j, n = 0, False, False, at + 1, len(pattern)
    while j < n:
        c = pattern[j]
        if verbose and c in " \t\n\r\f\v" or verbose and c == "#":
            j = j + 1 if c != "#" else pattern.find("\n", j) + 1 or n
        elif c.isascii() and c.isdigit():
            m, digits, j = (m if comma else min(m * 10 + int(c), _PAST)), digits or not comma, j + 1
        elif c == "," and not comma:
            comma, j = True, j + 1
        else:
            return (m + comma, j + 1) if c == "}" and digits else None
    return None


def matcher(pattern: str, *, where: str = "pattern", whole: bool = False) -> Callable[[str], bool]:
    """``matches`` for one pattern and many texts: the limit read and the pattern compiled once."""
    if pattern in _SLOW:
        raise SlowPattern(pattern, where)
    if pattern in _HUGE or pieces(pattern) > MAX_PIECES:
        if len(_HUGE) < 1024:
            _HUGE.add(pattern)
        raise SlowPattern(pattern, where, huge=True)
    seconds = min(limits.get("pattern_seconds"), REGEX_SECONDS_MOST)
    compiled = _compiled(pattern)
    if compiled is None:  # it compiled in Python's re (the schema was checked) but not here: as re reads it, unbounded
        import re

        unbounded = re.compile(pattern)
        plain = unbounded.fullmatch if whole else unbounded.search
        return lambda text: plain(text) is not None
    method = compiled.fullmatch if whole else compiled.search

    def test(text: str) -> bool:
        if pattern in _SLOW:
            raise SlowPattern(pattern, where)
        try:
            found = method(text, timeout=seconds)
        except TimeoutError:
            if len(_SLOW) < 1024:
                _SLOW.add(pattern)
            raise SlowPattern(pattern, where) from None
        return found is not None

    return test


def matches(pattern: str, text: str, *, where: str = "pattern", whole: bool = False) -> bool:
    """``re.search`` (``whole``: ``re.fullmatch``) of ``pattern`` in ``text``, stopped past ``pattern_seconds``."""
    return matcher(pattern, where=where, whole=whole)(text)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not matches(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")  # jsonschema's own words


def _pattern_properties(validator: Any, patterns: dict[str, Any], instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for name, value in instance.items():
            if matches(pattern, name, where="patternProperties pattern"):
                yield from validator.descend(value, subschema, path=name, schema_path=pattern)


def _additional_properties(original: Any) -> Any:
    """``additionalProperties`` beside ``patternProperties`` (whose names jsonschema matches with re): the names no
    property and no pattern takes, found in bounded time; without patterns, jsonschema's own check."""

    def check(validator: Any, extra: Any, instance: Any, schema: Any) -> Iterator[Any]:
        patterns = schema.get("patternProperties")
        if not isinstance(patterns, dict) or not patterns or not validator.is_type(instance, "object"):
            yield from original(validator, extra, instance, schema)
            return
        from jsonschema.exceptions import ValidationError

        named = schema.get("properties", {})
        extras = [name for name in instance if name not in named and not any(
            matches(p, name, where="patternProperties pattern") for p in patterns)]
        if validator.is_type(extra, "object"):
            for name in extras:
                yield from validator.descend(instance[name], extra, path=name)
        elif extra is False and extras:
            yield ValidationError(f"{', '.join(map(repr, sorted(extras)))} do not match any of the regexes: "
                                  f"{', '.join(map(repr, sorted(patterns)))}")

    return check


def _valid(validator: Any, instance: Any, schema: Any) -> bool:
    return next(validator.descend(instance, schema), None) is None


def _evaluated_names(validator: Any, instance: dict[str, Any], schema: Any, draft2019: bool) -> set[str]:
    """The names of ``instance`` that ``schema`` evaluates, as jsonschema 4.26 finds them for ``unevaluatedProperties``
    (``find_evaluated_property_keys_by_schema``: 2020-12's in ``_utils``, 2019-09's in ``_legacy_keywords``), with the
    names ``patternProperties`` takes matched in bounded time where jsonschema calls ``re.search``."""
    if validator.is_type(schema, "boolean"):
        return set()
    names: set[str] = set()

    def follow(resolved: Any) -> None:
        names.update(_evaluated_names(validator.evolve(schema=resolved.contents, _resolver=resolved.resolver),
                                      instance, resolved.contents, draft2019))

    if schema.get("$ref") is not None:
        follow(validator._resolver.lookup(schema["$ref"]))
    if draft2019 and "$recursiveRef" in schema:
        from referencing.jsonschema import lookup_recursive_ref

        follow(lookup_recursive_ref(validator._resolver))
    if not draft2019 and schema.get("$dynamicRef") is not None:
        follow(validator._resolver.lookup(schema["$dynamicRef"]))
    if draft2019:  # 2019-09: a keyword's true takes every name, its object the names it lists
        for keyword in ("properties", "additionalProperties", "unevaluatedProperties"):
            value = schema.get(keyword)
            if validator.is_type(value, "boolean") and value:
                names.update(instance)
            elif validator.is_type(value, "object"):
                names.update(name for name in value if name in instance)
    else:  # 2020-12: the names properties lists, and those whose value the other two take
        if validator.is_type(schema.get("properties"), "object"):
            names.update(schema["properties"].keys() & instance.keys())
        for keyword in ("additionalProperties", "unevaluatedProperties"):
            if (sub := schema.get(keyword)) is not None:
                names.update(name for name, value in instance.items() if _valid(validator, value, sub))
    if "patternProperties" in schema:
        tests = [matcher(p, where="patternProperties pattern") for p in schema["patternProperties"]]
        names.update(name for name in instance if any(test(name) for test in tests))
    for name, sub in (schema.get("dependentSchemas") or {}).items():
        if name in instance:
            names |= _evaluated_names(validator, instance, sub, draft2019)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for sub in schema.get(keyword, []):
            if _valid(validator, instance, sub):
                names |= _evaluated_names(validator, instance, sub, draft2019)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            names |= _evaluated_names(validator, instance, schema["if"], draft2019)
            if "then" in schema:
                names |= _evaluated_names(validator, instance, schema["then"], draft2019)
        elif "else" in schema:
            names |= _evaluated_names(validator, instance, schema["else"], draft2019)
    return names


def _unevaluated_properties(draft2019: bool) -> Any:
    """``unevaluatedProperties`` as jsonschema checks it (its words), the names evaluated found by ``_evaluated_names``:
    jsonschema's own matches a ``patternProperties`` beside it with ``re``, unbounded."""

    def check(validator: Any, unevaluated: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        from jsonschema.exceptions import ValidationError

        evaluated = _evaluated_names(validator, instance, schema, draft2019)
        bad = [name for name in instance if name not in evaluated  # once per error, as jsonschema lists them
               for _ in validator.descend(instance[name], unevaluated, path=name, schema_path=name)]
        if not bad:
            return
        listed = sorted(bad, key=str) if unevaluated is False else bad
        said = f"{', '.join(repr(name) for name in listed)} {'was' if len(listed) == 1 else 'were'}"
        if unevaluated is False:
            yield ValidationError(f"Unevaluated properties are not allowed ({said} unexpected)")
        else:
            yield ValidationError(f"Unevaluated properties are not valid under the given schema ({said} unevaluated "
                                  "and invalid)")

    return check


def bounded(cls: Any) -> Any:
    """The jsonschema validator class ``cls`` with ``pattern``, ``patternProperties`` and the names
    ``additionalProperties`` and ``unevaluatedProperties`` tell from them matched in bounded time."""
    from jsonschema import validators

    keywords = {"pattern": _pattern, "patternProperties": _pattern_properties}
    if "additionalProperties" in cls.VALIDATORS:
        keywords["additionalProperties"] = _additional_properties(cls.VALIDATORS["additionalProperties"])
    if "unevaluatedProperties" in cls.VALIDATORS:  # 2019-09 has $recursiveRef, 2020-12 $dynamicRef
        keywords["unevaluatedProperties"] = _unevaluated_properties("$recursiveRef" in cls.VALIDATORS)
    return validators.extend(cls, {k: v for k, v in keywords.items() if k in cls.VALIDATORS})
