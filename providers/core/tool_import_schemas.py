"""A tool file's schemas read as JSON Schema: BFCL's type names (as BFCL converts them itself) and a family's own
schema form (Gemini's Schema, by its module's converter), each change a ledger note."""

from __future__ import annotations

from collections import Counter
from typing import Any

from .model import LedgerEntry
from .tool_file import ToolFile
from .tool_import_formats import BFCL_TYPES

_SCHEMA_LISTS = ("items", "additionalProperties", "anyOf", "oneOf", "allOf", "$defs", "definitions")


def _counted(seen: Counter[str]) -> str:
    """"dict -> object, float -> number (2x)": each change once, with how often it happened."""
    return ", ".join(k + (f" ({n}x)" if n > 1 else "") for k, n in seen.items())


# ---- BFCL types -> JSON Schema ---------------------------------------------------------------------

def bfcl_schema(schema: Any, seen: Counter[str] | None = None) -> Any:
    """BFCL type names -> JSON Schema type names, recursively (other keys untouched), as BFCL itself
    converts them before a native tools request. ``seen`` counts each conversion ("float -> number")."""
    if isinstance(schema, list):
        return [bfcl_schema(item, seen) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, str):
            out[key] = BFCL_TYPES.get(value, value)
            if seen is not None and out[key] != value:
                seen[f"{value} -> {out[key]}"] += 1
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: bfcl_schema(prop, seen) for name, prop in value.items()}
        elif key in _SCHEMA_LISTS:
            out[key] = ({k: bfcl_schema(v, seen) for k, v in value.items()}
                        if key in ("$defs", "definitions") and isinstance(value, dict) else bfcl_schema(value, seen))
        else:
            out[key] = value
    return out


def bfcl_tool_schema(name: str, schema: dict[str, Any], notes: list[LedgerEntry]) -> dict[str, Any]:
    seen: Counter[str] = Counter()
    out = bfcl_schema(schema, seen)
    if seen:
        notes.append(LedgerEntry("info", "import.bfcl_types", f"tool '{name}': BFCL types read as JSON Schema, "
                                 f"as BFCL sends them: {_counted(seen)}"))
    lossy = sorted({k.split(" ")[0] for k in seen if k.split(" ")[0] in ("any", "Any", "tuple")})
    if lossy:
        what = {"any": "any becomes string (a value of another type fails the schema)",
                "Any": "Any becomes string (a value of another type fails the schema)",
                "tuple": "tuple becomes an array of any length (a fixed length is not held)"}
        notes.append(LedgerEntry("warning", "import.bfcl_lossy", f"tool '{name}': no JSON Schema type means the "
                                 f"same, so BFCL's own mapping stands in: {'; '.join(what[t] for t in lossy)}"))
    return out


# ---- a family's own schema form -> JSON Schema -------------------------------------------------------


def family_schema(name: str, schema: dict[str, Any], form: ToolFile, notes: list[LedgerEntry]) -> dict[str, Any]:
    """A schema in the family's own form (Gemini's Schema) read as JSON Schema by its module's converter."""
    assert form.convert is not None
    out, seen = form.convert(schema)
    if seen:
        code, words = form.convert_note
        notes.append(LedgerEntry("info", code, f"tool '{name}': {words}: {_counted(seen)}"))
    return out
