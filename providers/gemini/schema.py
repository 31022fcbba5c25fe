"""Gemini's Schema object, both ways: JSON Schema → Gemini Schema for a request's ``parameters``
(``convert``: every change is a note the translator writes to the ledger), and a Gemini Schema → JSON
Schema for a tool file in Gemini's format (``to_json_schema``, for ``core/tool_import_schemas.py``)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..core import translation
from ..core.translation import Context
from ..core.tool_file import ToolFile

# ai.google.dev/api/caching#Schema (v1beta): the only keys a Gemini API Schema object may carry.
SCHEMA_FIELDS = frozenset({
    "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties",
    "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf",
    "propertyOrdering", "default", "items", "minimum", "maximum",
})
# The Schema ``Type`` enum (STRING ... NULL); JSON Schema's lower-case spelling is what clients send.
SCHEMA_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")
_TYPE_SET = frozenset(SCHEMA_TYPES)
# Schema fields copied as they are (the others in SCHEMA_FIELDS are converted by _SchemaConverter.node).
_COPIED = SCHEMA_FIELDS - {"type", "properties", "items", "anyOf", "enum"}
_PLAIN = _COPIED | {"type"}  # a property with only these keys and one known type is sent as it is
# Keywords that only annotate the document: dropping them loses nothing the model could use.
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment"})
# Which keywords belong to which type, for splitting a type list into anyOf branches.
_TYPE_KEYWORDS = {
    "array": ("items", "minItems", "maxItems"),
    "object": ("properties", "required", "minProperties", "maxProperties", "propertyOrdering"),
    "string": ("minLength", "maxLength", "pattern", "format"),
    "number": ("minimum", "maximum"),
    "integer": ("minimum", "maximum"),
}

def convert(tool_name: str, schema: dict[str, Any]) -> tuple["SchemaConverter", dict[str, Any]]:
    """The conversion and its notes, not yet in the ledger (the caller decides whether it is used)."""
    converter = SchemaConverter(tool_name, schema)
    root = converter.node(schema, "parameters", ())
    if "type" not in schema and "anyOf" not in root:
        root = {"type": "object", **root}
        converter.note("info", "schema.type_added", "type object added", "parameters",
                       "Gemini wants an OBJECT schema for function parameters")
    # an OBJECT with no properties is sent as written: the API takes it (fact gemini.schema_empty_object; until
    # 2026-11-28 it was left out, which the API refused under mode ANY, googleapis/python-genai#981)
    return converter, root


# what to do about each of the API's rules (gemini/schema_rules.py): the schema is sent as written, so the user fixes it
_FIXES = {"only allowed for OBJECT type": "remove them: on a non-object they constrain nothing",
          "property is not defined": "name it in properties, or drop it from required",
          "only allowed for STRING type": "make the type string, or drop the enum",
          "missing field.": "give the array an items schema"}
_RULES_FACT = " (the API's recorded words, fact gemini.schema_rule_words)"
_IN_SCHEMA = re.compile(r"tools\[(\d+)\]\.function_declarations\[(\d+)\]\.((?:parameters|response)(?:\..*)?)",
                        re.DOTALL)  # a property's name may hold a line break: its place is still the API's to refuse
# the places (and the parser's lines) a warning names, then "… and N more": a tool of 5,000 undefined required names
# was one warning of 292,057 characters (a render of 1.4 MB)
_PLACES_AT_MOST = 6


# the warnings judge found for a tools list, by its marshal bytes (decodable: equal bytes, equal lists; 1.7 us for
# planner-loop's, json.dumps 14): a loop translates the same tools at every step, and judging them cost ~2x the rest
# of a Gemini translation (planner-loop: 85 against 29 us)
_JUDGED: dict[bytes, tuple[str, ...]] = {}
_JUDGED_AT_MOST, _JUDGED_TEXT_AT_MOST = 64, 256 * 1024


def judge(ctx: Context, tools: list[Any]) -> None:
    """The request's function declarations as sent, after ``extra`` is merged (``parameters`` as converted, a
    ``response`` schema and a ``parametersJsonSchema`` as written), judged by what the API refuses in them and
    gemini_mock.py answers 400 to: gemini/request_fields.py's parser lines, gemini/schema_rules.py's rules (on
    ``parameters``, as the API runs them; a ``parametersJsonSchema``'s ``$ref`` that does not resolve). One
    ``schema.api_refuses`` warning per tool naming each place, the API's words and their source. Nothing is changed:
    the request is sent as written."""
    import marshal

    try:
        key: bytes | None = marshal.dumps(tools)
    except ValueError:  # an object marshal does not write (none in a JSON body)
        key = None
    said = _JUDGED.get(key) if key is not None else None
    if said is None:
        said = _judged(tools)
        if key is not None and len(key) <= _JUDGED_TEXT_AT_MOST:
            if len(_JUDGED) >= _JUDGED_AT_MOST:
                _JUDGED.clear()
            _JUDGED[key] = said
    for message in said:
        ctx.ledger.warning("schema.api_refuses", message)


def _judged(tools: list[Any]) -> tuple[str, ...]:
    """judge's warnings for ``tools``, one a tool at fault."""
    from .request_fields import judged, line
    from .schema_rules import BOTH_SOURCE, REF_SOURCE, SOURCES, UNDEFINED_REF, both_forms, refused, undefined_refs

    parsed: dict[tuple[int, int], list[str]] = {}
    ruled: dict[tuple[int, int], dict[str, list[str]]] = {}
    body = {"tools": tools}
    for name, at, _, kind in judged(body):
        place = _IN_SCHEMA.fullmatch(f"{at}.{name}" if at else "")
        if place is not None:
            source = ("fact gemini.unknown_field_words" if kind is None else "fact gemini.schema_rule_words"
                      if isinstance(kind, tuple) else "zed-industries/zed#53919" if kind == "repeating" else
                      "toolchoice's words: no recorded answer of the API's")
            parsed.setdefault((int(place[1]), int(place[2])), []).append(
                f"{_shown(place[3])}: {translation.compact(line(name, at, kind))} ({source})")
    for at, words in refused(body):
        place = _IN_SCHEMA.fullmatch(at)
        if place is not None:
            ruled.setdefault((int(place[1]), int(place[2])), {}).setdefault(words, []).append(_shown(place[3]))
    refs: dict[tuple[int, int], list[str]] = {}
    for group, number, at in undefined_refs(body):
        refs.setdefault((group, number), []).append(at)
    both = set(both_forms(body))
    out = []
    for group, number in sorted({*parsed, *ruled, *refs, *both}):
        rules = ruled.get((group, number), {})
        said = [*_first(parsed.get((group, number), [])),
                *(f"{translation.compact(words)} at {', '.join(_first(places))} ({SOURCES[words]}; {_FIXES[words]})"
                  for words, places in rules.items())]
        if (group, number) in refs:
            places = refs[group, number]
            others = ", ".join(_first([_shown(at) for at in places[1:]]))
            said.append(f"parametersJsonSchema: {translation.compact(UNDEFINED_REF.format(at=places[0]))}"
                        f"{'' if len(places) == 1 else ' (and at ' + others + ': the API names one)'} "
                        f"({REF_SOURCE}; fact gemini.json_schema_ref_words; give each $ref a definition in the "
                        "schema's $defs, or write the schema it stands for in its place)")
        if (group, number) in both:
            said.append(f"parameters beside parametersJsonSchema ({BOTH_SOURCE}; fact gemini.parameters_exclusive; "
                        "the API's status and words for this are not recorded; send one of them)")
        answer = "answers 400 INVALID_ARGUMENT to" if len(said) > ((group, number) in both) else "rejects"
        out.append(f"tool '{_name(tools, group, number)}': Gemini's API {answer} its "
                   f"declaration as sent: {'; '.join(said)}{_RULES_FACT if rules else ''}; the request is sent as "
                   "written")
    return tuple(out)


def _first(items: list[str]) -> list[str]:
    """The first of ``items`` a warning names, then "… and N more" for the rest."""
    if len(items) <= _PLACES_AT_MOST:
        return items
    return [*items[:_PLACES_AT_MOST], f"… and {len(items) - _PLACES_AT_MOST} more"]


def _shown(place: str) -> str:
    """A place as a ledger message names it: a property name's control characters written out (``visible``) and its
    line break too, so the warning stays one line in a table's cell."""
    from ..core.redaction import visible

    return visible(place).replace("\n", "\\u000a")


def _name(tools: list[Any], group: int, number: int) -> Any:
    """The name of declaration ``number`` in ``tools[group]``, in either spelling (a tools list written in extra)."""
    declarations = tools[group].get("functionDeclarations", tools[group].get("function_declarations"))
    return declarations[number].get("name")


_PLAIN_ENUM = _PLAIN | {"enum"}


def _as_is(sub: Any) -> dict[str, Any] | None:
    """What SchemaConverter.node makes of a schema it has nothing to convert in, made without it: only copied keys,
    one known type (or none) and an enum of strings (node: the same keys in their order, the enum a new list, no
    note); None for any other schema (node's work)."""
    if not isinstance(sub, dict):
        return None
    keys = sub.keys()
    enum = None
    if not keys <= _PLAIN:
        if not keys <= _PLAIN_ENUM:
            return None
        enum = sub["enum"]
        if not isinstance(enum, list) or not all(isinstance(value, str) for value in enum):
            return None
    kind = sub.get("type", "object")
    if not (isinstance(kind, str) and kind.lower() in _TYPE_SET):
        return None
    copied = dict(sub)
    if enum is not None:
        copied["enum"] = list(enum)
    return copied


INLINED_AT_MOST = 1000  # $refs one tool's parameters may inline (SchemaConverter.reference)


class SchemaConverter:
    def __init__(self, tool_name: str, root: dict[str, Any]) -> None:
        self.tool = tool_name
        self.defs: dict[str, Any] = {}
        for key in ("$defs", "definitions"):
            if isinstance(root.get(key), dict):
                self.defs.update({f"#/{key}/{name}": sub for name, sub in root[key].items()})
        # (severity, code, what, why) -> paths, in first-seen order
        self.notes: dict[tuple[str, str, str, str], list[str]] = {}
        self.inlined = 0  # $refs inlined so far: a definition using another twice, 16 deep, was 65,536 (minutes)

    def note(self, severity: str, code: str, what: str, path: str, why: str) -> None:
        paths = self.notes.setdefault((severity, code, what, why), [])
        if path not in paths:
            paths.append(path)

    def flush(self, ctx: Context) -> None:
        for (severity, code, what, why), paths in self.notes.items():
            shown = ", ".join(paths[:6]) + (f" and {len(paths) - 6} more" if len(paths) > 6 else "")
            ctx.ledger.add(severity, code, f"tool '{self.tool}': {what} at {shown} ({why})")  # type: ignore[arg-type]

    def removed(self, keyword: str, path: str, why: str = "") -> None:
        self.note("warning", "schema.keyword_removed", f"{keyword} removed", path,
                  why or "not a field of Gemini's Schema (ai.google.dev/api/caching#Schema)")

    def node(self, schema: Any, path: str, refs: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(schema, dict):
            self.note("error", "schema.type_unsupported", f"a {type(schema).__name__} schema", path,
                      "Gemini needs a Schema object here; write an object schema")
            return {}
        if "$ref" in schema:
            return self.reference(schema, path, refs)
        node = schema
        if "allOf" in node or "oneOf" in node:
            node = dict(schema)  # combinator edits it
            for key in ("allOf", "oneOf"):
                if key in node:
                    node = self.combinator(node, key, path)
        kinds = node.get("type")
        if (isinstance(kinds, list) and "anyOf" not in node and all(isinstance(k, str) for k in kinds)
                and all(k.lower() in _TYPE_SET for k in kinds)
                and len([k for k in kinds if k.lower() != "null"]) > 1):
            node = self.split_types(node, path)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _COPIED:  # most keys: description, required, format, ...
                out[key] = value
            elif key == "type":
                if isinstance(value, str) and value.lower() in _TYPE_SET:  # the common case: one known type
                    out["type"] = value
                else:
                    self.type_(value, out, path)
            elif key == "properties" and isinstance(value, dict):
                out["properties"] = properties = {}
                for name, sub in value.items():
                    # most properties have only copied keys and one known type (or none): nothing to convert
                    kind = sub.get("type", "object") if isinstance(sub, dict) and sub.keys() <= _PLAIN else None
                    if isinstance(kind, str) and kind.lower() in _TYPE_SET:
                        properties[name] = dict(sub)
                    else:
                        copied = _as_is(sub)
                        properties[name] = copied if copied is not None else self.node(sub, f"{path}.{name}", refs)
            elif key == "items":
                if isinstance(value, dict):
                    copied = _as_is(value)
                    out["items"] = copied if copied is not None else self.node(value, f"{path}[]", refs)
                else:
                    self.removed("items (tuple form)", path, "Gemini's items is a single schema")
            elif key == "anyOf" and isinstance(value, list):
                self.any_of(value, out, path, refs)
            elif key == "enum":
                self.enum(value, out, path)
            elif key == "const":
                self.const(value, node, out, path)
            elif key in ("$defs", "definitions") and not refs and path == "parameters":
                self.note("info", "schema.converted", f"{key} dropped", path,
                          "its references are inlined where they are used")
            elif key in _ANNOTATIONS:
                self.note("info", "schema.converted", f"{key} dropped", path, "an annotation; no meaning is lost")
            elif key == "additionalProperties":
                self.removed(key, path, "not in the Gemini API Schema; the google-genai SDK refuses it for the "
                             "Gemini API, so extra keys are no longer forbidden")
            elif key in SCHEMA_FIELDS:
                out[key] = value
            else:
                self.removed(key, path)
        return out

    def reference(self, schema: dict[str, Any], path: str, refs: tuple[str, ...]) -> dict[str, Any]:
        ref = schema["$ref"]
        target = self.defs.get(ref) if isinstance(ref, str) else None
        if target is None or ref in refs:
            why = ("it refers back to itself; Gemini's Schema has no references, so it cannot be inlined"
                   if ref in refs else "only local #/$defs/... and #/definitions/... references can be inlined")
            self.note("error", "schema.ref_unresolved", f"$ref {ref}", path, why)
            return {}
        self.inlined += 1
        if self.inlined > INLINED_AT_MOST:
            self.note("error", "schema.ref_unresolved", "$ref", path, f"inlined, the references would make more than "
                      f"{INLINED_AT_MOST:,} schemas (a definition using another several times, many deep)")
            return {}
        self.note("info", "schema.converted", f"$ref {ref} inlined", path, "Gemini's Schema has no references")
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        merged = {**target, **siblings} if isinstance(target, dict) else target
        return self.node(merged, path, refs + (ref,))

    def combinator(self, node: dict[str, Any], key: str, path: str) -> dict[str, Any]:
        branches = node.pop(key)
        if not isinstance(branches, list) or not branches:
            self.removed(key, path)
            return node
        if key == "allOf":
            if len(branches) == 1 and isinstance(branches[0], dict):
                self.note("info", "schema.converted", "allOf with one branch merged", path, "Gemini has no allOf")
                return {**branches[0], **node}
            self.removed(key, path, "Gemini has no allOf; its constraints are no longer sent")
            return node
        if "anyOf" in node:
            self.removed(key, path, "Gemini has no oneOf, and this node already has an anyOf")
            return node
        kinds = [b.get("type") for b in branches if isinstance(b, dict)]
        if len(kinds) == len(branches) and all(isinstance(k, str) for k in kinds) and len(set(kinds)) == len(kinds):
            # Branches of different types cannot both match: oneOf and anyOf accept the same values.
            self.note("info", "schema.converted", "oneOf sent as anyOf", path,
                      "Gemini has no oneOf; the branches have different types, so no value matches two")
        else:
            self.note("warning", "schema.keyword_removed", "oneOf sent as anyOf", path,
                      "Gemini has no oneOf; 'exactly one branch' becomes 'at least one'")
        return {**node, "anyOf": branches}

    def type_(self, value: Any, out: dict[str, Any], path: str) -> None:
        """A type list (or an unknown type; node() handles one known type itself)."""
        names = value if isinstance(value, list) else [value]
        unknown = [n for n in names if not isinstance(n, str) or n.lower() not in _TYPE_SET]
        if unknown:
            from .request_fields import TYPE_PROTO

            said = (f"; the API answers 400 'Invalid value at '...type' ({TYPE_PROTO}), "
                    f"{translation.compact(unknown[0])}' (fact gemini.schema_rule_words)"
                    if isinstance(unknown[0], str) else "")
            self.note("error", "schema.type_unsupported", f"type {translation.compact(unknown[0])}", path,
                      f"Gemini's Schema types are {', '.join(SCHEMA_TYPES)}{said}; fix the schema")
            return
        if not isinstance(value, list):
            out["type"] = value
            return
        concrete = [n for n in value if n.lower() != "null"]
        out["type"] = concrete[0] if concrete else "null"
        nullable = bool(concrete) and len(concrete) < len(value)
        if nullable:
            out["nullable"] = True
        self.note("info", "schema.converted",
                  f"type {translation.compact(value)} → {translation.compact(out['type'])}{' + nullable' if nullable else ''}",
                  path, "Gemini's type is a single value")

    def split_types(self, node: dict[str, Any], path: str) -> dict[str, Any]:
        """A list of several concrete types becomes one anyOf branch per type, each carrying the
        keywords of its type (items for array, properties for object, ...)."""
        value = node["type"]
        concrete = [n for n in value if isinstance(n, str) and n.lower() != "null"]
        rest = {k: v for k, v in node.items() if k != "type"}
        branches = []
        for name in concrete:
            branch: dict[str, Any] = {"type": name}
            for keyword in _TYPE_KEYWORDS.get(name.lower(), ()):
                if keyword in rest:
                    branch[keyword] = rest[keyword]
            branches.append(branch)
        for name in concrete:
            for keyword in _TYPE_KEYWORDS.get(name.lower(), ()):
                rest.pop(keyword, None)
        if len(concrete) < len(value):
            rest["nullable"] = True
        self.note("info", "schema.converted", f"type {translation.compact(value)} → anyOf", path,
                  "Gemini's type is a single value")
        return {**rest, "anyOf": branches}

    def any_of(self, branches: list[Any], out: dict[str, Any], path: str, refs: tuple[str, ...]) -> None:
        concrete = [b for b in branches if not (isinstance(b, dict) and b.get("type") == "null" and len(b) == 1)]
        nullable = len(concrete) < len(branches)
        if nullable:
            out["nullable"] = True
        converted = [self.node(b, f"{path}.anyOf[{i}]", refs) for i, b in enumerate(concrete)]
        if len(converted) == 1:
            for key, value in converted[0].items():
                out.setdefault(key, value)
            what = "anyOf [schema, null] → schema + nullable" if nullable else "anyOf with one branch merged"
            self.note("info", "schema.converted", what, path, "the same values, in the form Gemini's Schema takes")
        else:
            if converted:
                out["anyOf"] = converted
            if nullable:
                self.note("info", "schema.converted", "anyOf null branch → nullable", path,
                          "Gemini marks optional values with nullable")

    def enum(self, values: Any, out: dict[str, Any], path: str) -> None:
        if not isinstance(values, list):
            self.removed("enum", path, "enum must be a list")
            return
        kept = [v for v in values if v is not None]
        if len(kept) < len(values):
            out["nullable"] = True
            self.note("info", "schema.converted", "null in enum → nullable", path, "Gemini enums hold strings only")
        if all(isinstance(v, str) for v in kept):
            out["enum"] = kept
        else:
            self.removed(f"enum {translation.compact(values)[:60]}", path,
                         "Gemini enums hold strings only (Type.STRING with enum format), and the API answers 400 "
                         "'Invalid value at '...enum[0]' (TYPE_STRING), 0' to a number or boolean in one (fact "
                         "gemini.schema_rule_words); the allowed values are lost")

    def const(self, value: Any, node: dict[str, Any], out: dict[str, Any], path: str) -> None:
        if "enum" in node:
            self.removed("const", path, "Gemini has no const and the node already has an enum")
        elif isinstance(value, str):
            out["enum"] = [value]
            self.note("info", "schema.converted", "const → enum with one value", path, "Gemini has no const")
        else:
            self.removed(f"const {translation.compact(value)[:40]}", path,
                         "Gemini has no const, and its enums hold strings only")



# ---- Gemini Schema → JSON Schema (a tool file in Gemini's format) ---------------------------------

# google-genai ``types.Type``: the upper-case names a Gemini Schema's ``type`` carries.
WIRE_TYPES = frozenset(("STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL", "TYPE_UNSPECIFIED"))
_RENAMES = {"any_of": "anyOf", "max_items": "maxItems", "min_items": "minItems", "max_length": "maxLength",
            "min_length": "minLength", "max_properties": "maxProperties", "min_properties": "minProperties",
            "additional_properties": "additionalProperties", "defs": "$defs", "ref": "$ref"}
_DROPPED = ("propertyOrdering", "property_ordering", "example")


def to_json_schema(schema: dict[str, Any]) -> tuple[dict[str, Any], Counter[str]]:
    """A Gemini Schema (either spelling of its keys) → JSON Schema, and each change with how often it happened."""
    seen: Counter[str] = Counter()
    return _json_node(schema, seen), seen


def _json_node(node: Any, seen: Counter[str]) -> Any:
    if isinstance(node, list):
        return [_json_node(item, seen) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROPPED:
            seen[f"{key} dropped"] += 1
            continue
        new_key = _RENAMES.get(key, key)
        if new_key != key:
            seen[f"{key} -> {new_key}"] += 1
        if key == "type" and isinstance(value, str) and value in WIRE_TYPES:
            if value == "TYPE_UNSPECIFIED":
                seen["TYPE_UNSPECIFIED dropped"] += 1
                continue
            out["type"] = value.lower()
            seen["upper-case type names"] += 1
        elif key in ("properties", "defs", "$defs") and isinstance(value, dict):
            out[new_key] = {k: _json_node(v, seen) for k, v in value.items()}
        elif new_key in ("items", "anyOf", "additionalProperties"):
            out[new_key] = _json_node(value, seen)
        elif key == "nullable":
            continue
        else:
            out[new_key] = value
    if node.get("nullable") is True:
        seen["nullable -> type with null"] += 1
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


# A tool file in Gemini's format (core/tool_file.py): google-genai FunctionDeclaration (``parameters`` as a Gemini
# Schema with upper-case Type names and ``nullable``, read back by ``to_json_schema``; or ``parametersJsonSchema``),
# in lists under ``functionDeclarations``.
_DECLARATION_ONLY = ("parametersJsonSchema", "parameters_json_schema", "behavior", "responseJsonSchema",
                     "response_json_schema")
TOOL_FILE = ToolFile("gemini", "Gemini function declarations", "google-genai types.py FunctionDeclaration {description, "
                     "name, parameters, parameters_json_schema, response, response_json_schema, behavior}",
                     marks=lambda entry: any(key in entry for key in _DECLARATION_ONLY), short="Gemini",
                     schema_keys=("parametersJsonSchema", "parameters_json_schema", "parameters"),
                     groups=("functionDeclarations", "function_declarations"), type_names=WIRE_TYPES,
                     convert=to_json_schema, convert_note=("import.gemini_schema", "Gemini Schema read as JSON Schema"),
                     tool_fields=True, field_spellings={"responseJsonSchema": "response_json_schema"})
