"""Tool-call arguments made from a tool's JSON Schema: the smallest value that validates.

Deterministic (the same schema gives the same arguments): enums and consts first, then the
declared type with its bounds (lengths, ranges, multipleOf, item counts), required properties
only, nested objects and arrays, local ``$ref`` (``#/$defs/..``, ``#/definitions/..``), ``allOf``
merged, the first ``anyOf``/``oneOf`` branch, and the common string ``format``s. Bounded: a
schema nested deeper than ``MAX_DEPTH`` yields null below that depth, and one answer makes at most ``MAX_VALUES``
values and ``MAX_TEXT`` characters of strings (past them: minItems, minProperties and minLength are not met, a
required property is null): a schema of arrays of arrays (minItems 256 each) or of two required properties that
are the schema again (``$ref: "#"``) asks for more values than there are atoms.
"""

from __future__ import annotations

import math
from typing import Any, Callable

MAX_DEPTH = 24
MAX_ITEMS = 256  # minItems / minProperties above this are not met: a schema cannot make the mock allocate without end
MAX_LENGTH = 65536  # the same for minLength
MAX_VALUES = 10_000  # values one answer makes (each schema node resolved counts too)
MAX_TEXT = 1 << 20  # characters of strings one answer makes

# values for the formats JSON Schema 2020-12 lists (validation vocabulary, "Defined Formats")
FORMAT_VALUES: dict[str, str] = {
    "date-time": "2026-11-26T09:00:00Z", "date": "2026-11-26", "time": "09:00:00Z", "duration": "P1D",
    "email": "user@example.com", "idn-email": "user@example.com", "hostname": "example.com",
    "idn-hostname": "example.com", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1", "uri": "https://example.com/",
    "uri-reference": "https://example.com/", "iri": "https://example.com/", "iri-reference": "https://example.com/",
    "uuid": "00000000-0000-4000-8000-000000000000", "uri-template": "https://example.com/{id}",
    "json-pointer": "/a", "relative-json-pointer": "0", "regex": ".*",
}
# tried in order against a string's pattern (generating a match for any regex is out of scope)
_PATTERN_TRIES = ("example", "a", "A", "0", "1", "abc", "ABC", "a1", "2026-11-26", "09:00", "user@example.com",
                  "https://example.com/", "+15555550100", "US", "USD", "x_1", "")


class _Run:
    """One answer's making: the schema's root (for ``$ref``) and what is left of its bounds."""

    __slots__ = ("root", "values", "text")

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.values = MAX_VALUES
        self.text = MAX_TEXT

    def take(self) -> bool:
        """One more value (or schema node resolved), if the bound has room."""
        self.values -= 1
        return self.values >= 0


def arguments_for(schema: Any) -> dict[str, Any]:
    """Arguments for a tool whose parameters are ``schema`` (always an object)."""
    root = schema if isinstance(schema, dict) else {}
    value = _value(_Run(root), root, 0)
    return value if isinstance(value, dict) else {}


def _resolve(run: _Run, node: dict[str, Any], depth: int) -> dict[str, Any]:
    root = run.root
    seen = 0
    while isinstance(node.get("$ref"), str) and seen < 16:
        ref = node["$ref"]
        target: Any = root if ref.startswith("#") else None
        for part in ref.lstrip("#").strip("/").split("/") if target is not None and ref != "#" else ():
            part = part.replace("~1", "/").replace("~0", "~")
            target = target.get(part) if isinstance(target, dict) else None
        if not isinstance(target, dict):
            return {k: v for k, v in node.items() if k != "$ref"}
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        seen += 1
    if isinstance(node.get("allOf"), list):
        merged: dict[str, Any] = {k: v for k, v in node.items() if k != "allOf"}
        for part in node["allOf"]:  # an allOf naming the schema itself ($ref: "#") ends at the depth or the bound
            if isinstance(part, dict) and depth <= MAX_DEPTH and run.take():
                part = _resolve(run, part, depth + 1)
                for key, value in part.items():
                    if key == "properties" and isinstance(value, dict):
                        merged["properties"] = {**merged.get("properties", {}), **value}
                    elif key == "required" and isinstance(value, list):
                        merged["required"] = list(dict.fromkeys([*merged.get("required", []), *value]))
                    else:
                        merged.setdefault(key, value)
        node = merged
    return node


def _value(run: _Run, node: Any, depth: int) -> Any:
    if not run.take() or depth > MAX_DEPTH:  # a null past the depth is a value made too
        return None
    if not isinstance(node, dict):
        return {}
    node = _resolve(run, node, depth)
    if "const" in node:
        return node["const"]
    if isinstance(node.get("enum"), list) and node["enum"]:
        return node["enum"][0]
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            usable = [b for b in branches if isinstance(b, dict) and b.get("type") != "null"] or branches
            rest = {k: v for k, v in node.items() if k not in ("anyOf", "oneOf")}
            return _value(run, {**rest, **usable[0]} if isinstance(usable[0], dict) else rest, depth + 1)
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if isinstance(k, str) and k != "null"), "null")
    if not isinstance(kind, str):
        kind = "object" if "properties" in node else "array" if "items" in node else "string"
    maker = _MAKERS.get(kind)
    return maker(run, node, depth) if maker else None


def _object(run: _Run, node: dict[str, Any], depth: int) -> dict[str, Any]:
    properties = node.get("properties") if isinstance(node.get("properties"), dict) else {}
    required = [name for name in node.get("required", []) if isinstance(name, str)] \
        if isinstance(node.get("required"), list) else []
    out: dict[str, Any] = {}
    for name in required:
        out[name] = _value(run, properties.get(name, {}), depth + 1)
    minimum = node.get("minProperties")
    if isinstance(minimum, int):
        minimum = min(minimum, MAX_ITEMS)
        for name, sub in properties.items():
            if len(out) >= minimum or run.values <= 0:
                break
            out.setdefault(name, _value(run, sub, depth + 1))
    return out


def _array(run: _Run, node: dict[str, Any], depth: int) -> list[Any]:
    prefix = node.get("prefixItems")
    items = node.get("items")
    out: list[Any] = []
    tuple_form = prefix if isinstance(prefix, list) else items if isinstance(items, list) else []  # draft 4-7: items
    for item in tuple_form:
        if run.values <= 0:
            break
        out.append(_value(run, item, depth + 1))
    minimum = min(node.get("minItems"), MAX_ITEMS) if isinstance(node.get("minItems"), int) else 0
    if len(out) < minimum:
        item_schema = items if isinstance(items, dict) else {}
        made = []
        while len(out) + len(made) < minimum and run.values > 0:
            made.append(_value(run, item_schema, depth + 1))
        if node.get("uniqueItems") and made and isinstance(made[0], (int, float)) and not isinstance(made[0], bool):
            made = [made[0] + i for i in range(len(made))]
        out.extend(made)
    return out


def _string(run: _Run, node: dict[str, Any], depth: int) -> str:
    text = FORMAT_VALUES.get(node.get("format", ""), "example") if isinstance(node.get("format"), str) else "example"
    pattern = node.get("pattern")
    if isinstance(pattern, str):
        fits = _fits(pattern)
        if not fits(text):
            text = next((t for t in _PATTERN_TRIES if fits(t)), text)
    low = min(node.get("minLength"), MAX_LENGTH, max(run.text, 0)) if isinstance(node.get("minLength"), int) else 0
    high = node.get("maxLength") if isinstance(node.get("maxLength"), int) else None
    if len(text) < low:
        text = text + "x" * (low - len(text))
    if high is not None and len(text) > high:
        text = text[:high]
    run.text -= len(text)
    return text


def _fits(pattern: str) -> Callable[[str], bool]:
    """Whether a text matches ``pattern``, found in bounded time by the ``regex`` package alone (Python's re backtracks
    for ever on some patterns, even on these short strings: '^((.|.)*)*Z$', and cannot read some an API takes:
    '^\\p{Lu}+$'); a pattern regex cannot read, or one past the limit, fits none. Compiled once for all the tries."""
    from ..schema_patterns import SlowPattern, matcher, readable

    if not readable(pattern):
        return lambda text: False
    try:
        test = matcher(pattern)
    except SlowPattern:
        return lambda text: False

    def fits(text: str) -> bool:
        try:
            return test(text)
        except SlowPattern:
            return False

    return fits


def _number(run: _Run, node: dict[str, Any], depth: int, integer: bool = False) -> int | float:
    low, high = node.get("minimum"), node.get("maximum")
    xlow, xhigh = node.get("exclusiveMinimum"), node.get("exclusiveMaximum")
    step = node.get("multipleOf")
    value: float = 1
    if isinstance(low, (int, float)) and not isinstance(low, bool):
        value = max(value, low) if not isinstance(high, (int, float)) else low
    if isinstance(xlow, (int, float)) and not isinstance(xlow, bool) and value <= xlow:
        value = xlow + (1 if integer else 0.5)
    if isinstance(high, (int, float)) and not isinstance(high, bool) and value > high:
        value = high
    if isinstance(xhigh, (int, float)) and not isinstance(xhigh, bool) and value >= xhigh:
        value = xhigh - (1 if integer else 0.5)
        if isinstance(low, (int, float)) and value < low:
            value = (low + xhigh) / 2
    if isinstance(step, (int, float)) and not isinstance(step, bool) and step > 0:
        stepped = step * max(1, -(-value // step)) if value > 0 else step * (value // step)
        value = stepped if math.isfinite(stepped) else value  # multipleOf 5e-324: a count of steps past floats
    if isinstance(value, float) and not math.isfinite(value):
        value = 1
    if integer:
        whole = int(value)
        return whole if whole == value else int(value) + 1
    return int(value) if float(value).is_integer() else value


def _bounded_number(run: _Run, node: dict[str, Any], depth: int, integer: bool = False) -> int | float:
    """``_number``, or for bounds past a float (minimum: 1e400 written out, with multipleOf 0.5): the bound
    itself when it is whole, else 1."""
    try:
        return _number(run, node, depth, integer)
    except OverflowError:
        for key, past in (("minimum", 0), ("exclusiveMinimum", 1)):
            if type(node.get(key)) is int:
                return node[key] + past
        return 1


_MAKERS: dict[str, Any] = {
    "object": _object, "array": _array, "string": _string,
    "number": lambda r, n, d: _bounded_number(r, n, d),
    "integer": lambda r, n, d: _bounded_number(r, n, d, integer=True),
    "boolean": lambda r, n, d: True, "null": lambda r, n, d: None,
}
