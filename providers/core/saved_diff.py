"""How a saved request's recorded body differs from its scenario rendered back (core/saved_request.py): equal as
data, the members only the recording has (which ``extra`` merges back), each place two JSON values differ, and what a
system prompt sent as blocks loses in the neutral form."""

from __future__ import annotations

import json
from typing import Any

from .model import LedgerEntry


def missing_members(recorded: Any, again: Any) -> dict[str, Any]:
    """The members of the recorded object the rendered one lacks, at any depth (null members count as left out): an
    object that only adds to the rendered one, so ``extra`` merges it back."""
    if not isinstance(recorded, dict) or not isinstance(again, dict):
        return {}
    out: dict[str, Any] = {}
    for key, value in recorded.items():
        if value is None or same_data(value, again.get(key)) or key not in again and alias(key, recorded, again):
            continue
        if key not in again:  # (a null there is a value extra would replace the object for: said, not kept)
            out[key] = value
        elif (inner := missing_members(value, again[key])):
            out[key] = inner
    return out


def member_paths(value: dict[str, Any]) -> list[str]:
    return [f"{k}.{p}" if isinstance(v, dict) and v else k for k, v in value.items()
            for p in (member_paths(v) if isinstance(v, dict) and v else [""])]


# the tool choice's own field, which extra sends as written (request_parts.merge_extra): a difference there is said,
# not kept, or the scenario's tool_choice would not be sent. A field that holds the choice among other members takes
# extra member by member: a member beside the choice (Gemini's toolConfig.retrievalConfig) is kept.
CHOICE_FIELDS = ("tool_choice", "toolChoice", "toolConfig", "tool_config")


CHOICE_HOLDERS = ("toolConfig", "tool_config")


def beside_choice(recorded: Any, again: Any) -> dict[str, Any]:
    """The recorded choice field's members the rendering lacks, where every member it has is recorded the same."""
    if not isinstance(recorded, dict) or not isinstance(again, dict):
        return {}
    if any(k not in recorded or not same_data(recorded[k], v) for k, v in again.items()):
        return {}
    return {k: v for k, v in recorded.items() if k not in again and v is not None}


def renamed_field(key: str, body: dict[str, Any], again: dict[str, Any]) -> str | None:
    """The field the rendering sends ``key``'s value under instead (max_tokens as max_completion_tokens), if any."""
    return next((k for k in again if k not in body and same_data(again[k], body[key])), None)


SYSTEM_KEYS = ("system", "systemInstruction", "system_instruction")  # Anthropic's, Bedrock's; Gemini's


def system_lost(where: str, recorded: Any, again: Any, provider: str) -> LedgerEntry | None:
    """A system prompt sent as blocks (Anthropic's text blocks, Bedrock's, Gemini's parts) that comes back in another
    form: the scenario keeps its text, and the note says what else each block held (``cache_control``, a Bedrock
    ``cachePoint`` block, ...), which the neutral ``system`` cannot say and ``extra`` cannot merge into a rendered
    string or list. None when the prompt was no list of blocks."""
    blocks = recorded.get("parts") if isinstance(recorded, dict) else recorded
    if not isinstance(blocks, list):
        return None
    lost: list[str] = []
    for number, block in enumerate(blocks, 1):
        if not isinstance(block, dict) or not isinstance(block.get("text"), str):
            lost.append(f"block {number} whole ({short_json(block, 80)})")
            continue
        other = {k: v for k, v in block.items() if k != "text" and not (k == "type" and v == "text") and v is not None}
        if other:
            lost.append(f"block {number}'s " + ", ".join(f"{k} {short_json(v, 80)}" for k, v in other.items()))
    texts = sum(isinstance(b, dict) and isinstance(b.get("text"), str) for b in blocks)
    form = (f"sent as {len(blocks)} block{'s' if len(blocks) != 1 else ''}"
            f"{f' ({texts} of text)' if texts != len(blocks) else ' of text'}")
    back = "a string" if isinstance(again, str) else short_json(again, 80)
    if not lost:
        return LedgerEntry("info", "saved.system_blocks", f"{where}: {form}; the scenario keeps the text, rendered back "
                           f"for {provider} as {back}: the same prompt, only its form differs")
    return LedgerEntry("warning", "saved.system_blocks", f"{where}: {form}; the scenario keeps the text, rendered back for "
                       f"{provider} as {back}; lost (no neutral form, and extra cannot merge into it): "
                       + "; ".join(lost[:4]) + (f"; and {len(lost) - 4} more" if len(lost) > 4 else ""))


def same_data(a: Any, b: Any) -> bool:
    """Equal as data: a JSON text (a call's arguments) is equal to another spelling of the same value."""
    if a == b:  # as written (a recorded history rendered back): one comparison in C, not a walk of every message
        return True  # (== is this function's own test at each leaf, and on lists and dicts needs more, never less)
    if isinstance(a, str) and isinstance(b, str) and a != b and a.lstrip()[:1] in ("{", "[") and \
            b.lstrip()[:1] in ("{", "["):
        from .bounded import TooDeep, json_loads

        try:  # bounded: a recorded call's arguments nested 50,000 deep were RecursionError, exit 70
            return json_loads(a) == json_loads(b)
        except TooDeep:  # import_saved says so, as the scenario loader says a value nested too deeply
            raise
        except ValueError:
            return False
    if isinstance(a, dict) and isinstance(b, dict):  # a null member is the member left out
        keys = {k for k in a if a[k] is not None} | {k for k in b if b[k] is not None}
        return all(same_data(a.get(k), b.get(k)) for k in keys)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_data(x, y) for x, y in zip(a, b))
    return a == b


def short_json(value: Any, size: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= size else text[:size - 3] + "..."


def at_path(value: Any, path: str) -> Any:
    """The member a dotted path names (``additionalModelRequestFields.top_k``), None where there is none."""
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def alias(key: str, recorded: dict[str, Any], again: dict[str, Any]) -> str | None:
    """The other spelling ``again`` sends ``recorded[key]``'s value under (google-genai's thinking_budget, the
    API's thinkingBudget: the same field in proto JSON), if any."""
    other = camel(key)
    return other if other != key and other not in recorded and same_data(again.get(other), recorded[key]) else None


RENAMED = " (the same value, another spelling of the field)"


def differences(recorded: Any, again: Any, where: str) -> list[str]:
    """Each place two JSON values differ: ``at messages[2].content: recorded X, rendered Y`` (a list of another length
    or a value of another kind is one place)."""
    if isinstance(recorded, dict) and isinstance(again, dict):
        found: list[str] = []
        aliases = {k: a for k in recorded if k not in again and (a := alias(k, recorded, again))}
        for key in dict.fromkeys([*recorded, *again]):
            a, b = recorded.get(key), again.get(key)
            if same_data(a, b) or key in aliases.values():
                continue
            if key in aliases:
                found.append(f"at {where}.{key}: sent as {aliases[key]}{RENAMED}")
                continue
            if a is None or b is None:
                found.append(f"at {where}.{key}: " + (f"recorded {short_json(a)}, not rendered" if b is None
                                                        else f"not recorded, rendered {short_json(b)}"))
            else:
                found.extend(differences(a, b, f"{where}.{key}"))
        return found
    if isinstance(recorded, list) and isinstance(again, list) and len(recorded) == len(again):
        return [d for i, (a, b) in enumerate(zip(recorded, again)) if not same_data(a, b)
                for d in differences(a, b, f"{where}[{i}]")]
    return [f"at {where}: recorded {short_json(recorded)}, rendered {short_json(again)}"]


def item_members(rules: dict[tuple[str, str, str, Any], tuple[str, str]], key: str, recorded: Any, again: Any,
                 provider: str) -> tuple[Any, list[LedgerEntry]]:
    """The recorded field ``key`` without the item members its family says of (``SAVED_ITEM_MEMBERS``: an input
    item's member the rendering sends without, and why that matters or not), and a note per rule saying where they
    were and why. Only where the rendering has the item at the same place, of the same type, without the member."""
    if not isinstance(recorded, list) or not isinstance(again, list) or len(recorded) != len(again):
        return recorded, []
    said: dict[tuple[str, str, str, Any], list[tuple[str, Any]]] = {}
    kept = []
    for index, (item, back) in enumerate(zip(recorded, again)):
        if isinstance(item, dict) and isinstance(back, dict) and item.get("type") == back.get("type"):
            gone = {m for (field, kind, m, value) in rules if field == key and kind == item.get("type") and m in item
                    and m not in back and (value is None or item[m] == value)}
            for rule in rules:
                if rule[0] == key and rule[1] == item.get("type") and rule[2] in gone:
                    said.setdefault(rule, []).append((f"{key}[{index}].{rule[2]}", item[rule[2]]))
            item = {k: v for k, v in item.items() if k not in gone}
        kept.append(item)
    notes = []
    for rule, where in said.items():
        severity, why = rules[rule]
        paths = ", ".join(p for p, _ in where[:3]) + (f" and {len(where) - 3} more" if len(where) > 3 else "")
        notes.append(LedgerEntry(severity, "saved.differs", f"{paths}: recorded {short_json(where[0][1])}"
                                 f"{' (the first)' if len(where) > 1 else ''}, not rendered back for {provider}: {why}"))
    return kept, notes
