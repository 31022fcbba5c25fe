"""Tool-call arguments made from a tool's JSON Schema: the smallest value that validates.

Deterministic (the same schema gives the same arguments): enums and consts first, then the
declared type with its bounds (lengths, ranges, multipleOf, item counts), required properties
only, nested objects and arrays, local ``$ref`` (``#/$defs/..``, ``#/definitions/..``), ``allOf``
merged, the first ``anyOf``/``oneOf`` branch, and the common string ``format``s. Bounded: a
schema nested deeper than ``MAX_DEPTH`` yields null below that depth.
"""

from __future__ import annotations

from typing import Any, Callable

MAX_DEPTH = 24
MAX_ITEMS = 256  # minItems / minProperties above this are not met: a schema cannot make the mock allocate without end
MAX_LENGTH = 65536  # the same for minLength

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


def arguments_for(schema: Any) -> dict[str, Any]:
    """Arguments for a tool whose parameters are ``schema`` (always an object)."""
    value = _value(schema if isinstance(schema, dict) else {}, schema if isinstance(schema, dict) else {}, 0)
    return value if isinstance(value, dict) else {}


def _resolve(root: dict[str, Any], node: dict[str, Any], depth: int) -> dict[str, Any]:
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
        for part in node["allOf"]:
            if isinstance(part, dict):
                part = _resolve(root, part, depth)
                for key, value in part.items():
                    if key == "properties" and isinstance(value, dict):
                        merged["properties"] = {**merged.get("properties", {}), **value}
                    elif key == "required" and isinstance(value, list):
                        merged["required"] = list(dict.fromkeys([*merged.get("required", []), *value]))
                    else:
                        merged.setdefault(key, value)
        node = merged
    return node


def _value(root: dict[str, Any], node: Any, depth: int) -> Any:
    if not isinstance(node, dict) or depth > MAX_DEPTH:
        return None if depth > MAX_DEPTH else {}
    node = _resolve(root, node, depth)
    if "const" in node:
        return node["const"]
    if isinstance(node.get("enum"), list) and node["enum"]:
        return node["enum"][0]
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            usable = [b for b in branches if isinstance(b, dict) and b.get("type") != "null"] or branches
            rest = {k: v for k, v in node.items() if k not in ("anyOf", "oneOf")}
            return _value(root, {**rest, **usable[0]} if isinstance(usable[0], dict) else rest, depth + 1)
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if isinstance(k, str) and k != "null"), "null")
    if not isinstance(kind, str):
        kind = "object" if "properties" in node else "array" if "items" in node else "string"
    maker = _MAKERS.get(kind)
    return maker(root, node, depth) if maker else None


def _object(root: dict[str, Any], node: dict[str, Any], depth: int) -> dict[str, Any]:
    properties = node.get("properties") if isinstance(node.get("properties"), dict) else {}
    required = [name for name in node.get("required", []) if isinstance(name, str)] \
        if isinstance(node.get("required"), list) else []
    out: dict[str, Any] = {}
    for name in required:
        out[name] = _value(root, properties.get(name, {}), depth + 1)
    minimum = node.get("minProperties")
    if isinstance(minimum, int):
        minimum = min(minimum, MAX_ITEMS)
        for name, sub in properties.items():
            if len(out) >= minimum:
                break
            out.setdefault(name, _value(root, sub, depth + 1))
    return out


def _array(root: dict[str, Any], node: dict[str, Any], depth: int) -> list[Any]:
    prefix = node.get("prefixItems")
    items = node.get("items")
    out: list[Any] = []
    if isinstance(prefix, list):
        out = [_value(root, item, depth + 1) for item in prefix]
    elif isinstance(items, list):  # draft 4-7 tuple form
        out = [_value(root, item, depth + 1) for item in items]
    minimum = min(node.get("minItems"), MAX_ITEMS) if isinstance(node.get("minItems"), int) else 0
    if len(out) < minimum:
        item_schema = items if isinstance(items, dict) else {}
        made = [_value(root, item_schema, depth + 1) for _ in range(minimum - len(out))]
        if node.get("uniqueItems") and made and isinstance(made[0], (int, float)) and not isinstance(made[0], bool):
            made = [made[0] + i for i in range(len(made))]
        out.extend(made)
    return out


def _string(root: dict[str, Any], node: dict[str, Any], depth: int) -> str:
    text = FORMAT_VALUES.get(node.get("format", ""), "example") if isinstance(node.get("format"), str) else "example"
    pattern = node.get("pattern")
    if isinstance(pattern, str):
        fits = _fits(pattern)
        if not fits(text):
            text = next((t for t in _PATTERN_TRIES if fits(t)), text)
    low = min(node.get("minLength"), MAX_LENGTH) if isinstance(node.get("minLength"), int) else 0
    high = node.get("maxLength") if isinstance(node.get("maxLength"), int) else None
    if len(text) < low:
        text = text + "x" * (low - len(text))
    if high is not None and len(text) > high:
        text = text[:high]
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


def _number(root: dict[str, Any], node: dict[str, Any], depth: int, integer: bool = False) -> int | float:
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
        value = step * max(1, -(-value // step)) if value > 0 else step * (value // step)
    if integer:
        whole = int(value)
        return whole if whole == value else int(value) + 1
    return int(value) if float(value).is_integer() else value


_MAKERS: dict[str, Any] = {
    "object": _object, "array": _array, "string": _string,
    "number": lambda r, n, d: _number(r, n, d), "integer": lambda r, n, d: _number(r, n, d, integer=True),
    "boolean": lambda r, n, d: True, "null": lambda r, n, d: None,
}
