"""Wire templates: a row's ``wire`` text (``capabilities.py``, e.g. ``{"type":"function","function":{"name":N}}``)
read once into a builder (``wire_form``) that translators fill per request (``wire_value``), and the
matrix prints as written. See ``capabilities.py``'s docstring for the template language."""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Sequence

from .model import compact, json_string

# Builders take (name, names, mode, each): the one tool's name (or a list item's), every allowed name,
# the allowed mode, and an optional per-name replacement for list items (None keeps the template's item).
Builder = Callable[[Any, Sequence[str], str, Any], Any]
# A text builder takes (name, names, mode) and gives what the builder builds (without ``each``) as compact
# JSON text (``model.compact``), the way the ledger quotes it, without encoding the value.
TextBuilder = Callable[[Any, Sequence[str], str], str]


class WireForm:
    """A wire template, read once (``wire_form``): translators fill it per request, with no parsing then.
    (A plain class: a NamedTuple class costs render's start-up more to create.)"""

    __slots__ = ("build", "word", "text")

    def __init__(self, build: Builder, word: str | None = None, text: TextBuilder | None = None) -> None:
        self.build = build
        self.word = word  # the template is one constant word ('"required"'): the value, the same every time
        self.text = text  # for a template of an object or a list: its text, built without encoding


WIRE_FORMS: dict[str, WireForm] = {}  # template -> its form (wire_form)
_STRING = r'"(?:[^"\\]|\\.)*"'
_TOKENS = re.compile(rf"{_STRING}(?:\|{_STRING})+|{_STRING}|\bN\b|\bM\b")
_SLOT = "\x00"  # marks a placeholder inside the parsed template (no JSON template holds this character)


class WireTemplateError(ValueError):
    """A row's wire is not a value to send (a note where a translator needs a value)."""


def is_value_template(wire: str) -> bool:
    """True when ``wire`` is a value to send (a JSON form), not a note."""
    return wire[:1] in ('"', "{", "[")


def sends_no_field(wire: str) -> bool:
    """True when ``wire`` says the choice is expressed by sending no field, e.g. ``(default; omitted)``."""
    return wire.startswith("(") and wire.endswith(")")


def wire_value(wire: str, names: Sequence[str] = (), mode: str = "auto", each: Any = None) -> Any:
    """The value a row's wire template stands for: ``N`` filled with ``names[0]`` (in a list's item,
    with each name in turn), ``M`` with ``mode``, ``"A"|"B"`` with A when mode is required, else B.
    ``each(name)`` may give a list item of its own (None: the template's item). A ``(...)`` template
    gives None (no field); a note raises ``WireTemplateError``. Each call builds fresh containers, so
    a translator may add keys to what it gets."""
    return wire_form(wire).build(names[0] if names else None, names, mode, each)


def wire_form(wire: str) -> WireForm:
    """The template's builders, read once and kept in ``WIRE_FORMS``; a note raises ``WireTemplateError``."""
    form = WIRE_FORMS.get(wire)
    if form is None:
        form = WIRE_FORMS[wire] = _compile(wire)
    return form


def _compile(wire: str) -> WireForm:
    if sends_no_field(wire):
        return WireForm(lambda name, names, mode, each: None)
    parsed, alternatives = _parse(wire)
    build = _builder(parsed, alternatives)
    if isinstance(parsed, (dict, list)):
        return WireForm(build, text=_text_builder(parsed, alternatives))
    return WireForm(build, word=parsed if isinstance(parsed, str) and _constant(parsed) else None)


def _parse(wire: str) -> tuple[Any, list[tuple[str, str]]]:
    """A value template as JSON with its placeholders marked (N, M and alternative i as ``_SLOT`` strings),
    and the alternatives' words."""
    if not is_value_template(wire):
        raise WireTemplateError(f"{wire!r} is a note, not a value to send")
    alternatives: list[tuple[str, str]] = []

    def token(match: re.Match[str]) -> str:
        text = match.group(0)
        if text in ("N", "M"):
            return json.dumps(_SLOT + text)
        words = re.findall(_STRING, text)
        if len(words) == 1:
            return text
        if len(words) != 2:
            raise WireTemplateError(f'{wire!r}: "A"|"B" takes two words, for allowed mode required and for auto')
        alternatives.append((json.loads(words[0]), json.loads(words[1])))
        return json.dumps(f"{_SLOT}|{len(alternatives) - 1}")

    text = _TOKENS.sub(token, wire)
    try:
        return json.loads(text), alternatives
    except ValueError as exc:
        raise WireTemplateError(f"{wire!r} is not a JSON form: {exc}") from None


def _holds_name(node: Any) -> bool:
    if isinstance(node, dict):
        return any(_holds_name(v) for v in node.values())
    if isinstance(node, list):
        return any(_holds_name(v) for v in node)
    return node == _SLOT + "N"


def _constant(node: Any) -> bool:
    return node is None or isinstance(node, (bool, int, float)) or (isinstance(node, str) and not node.startswith(_SLOT))


def _builder(node: Any, alternatives: list[tuple[str, str]]) -> Builder:
    if isinstance(node, dict):
        # A copy of the constants with every key in the template's order; N and the built values (a call
        # each) are then put in their places.
        base: dict[str, Any] = {}
        name_keys: list[str] = []
        built: list[tuple[str, Builder]] = []
        for key, value in node.items():
            base[key] = value if _constant(value) else None
            if value == _SLOT + "N":
                name_keys.append(key)
            elif not _constant(value):
                built.append((key, _builder(value, alternatives)))
        if not built and not name_keys:
            return lambda name, names, mode, each: base.copy()
        if not built and len(name_keys) == 1:
            only = name_keys[0]

            def named(name: Any, names: Sequence[str], mode: str, each: Any) -> dict[str, Any]:
                out = base.copy()
                out[only] = name
                return out
            return named

        def build(name: Any, names: Sequence[str], mode: str, each: Any) -> dict[str, Any]:
            out = base.copy()
            for key in name_keys:
                out[key] = name
            for key, what in built:
                out[key] = what(name, names, mode, each)
            return out
        return build
    if isinstance(node, list):
        if len(node) == 1 and _holds_name(node[0]):  # one item per name
            item = _builder(node[0], alternatives)
            bare = node[0] == _SLOT + "N"  # [N]: the names themselves

            def repeat(name: Any, names: Sequence[str], mode: str, each: Any) -> list[Any]:
                if each is None:
                    return list(names) if bare else [item(n, names, mode, None) for n in names]
                out = []
                for n in names:
                    own = each(n)
                    out.append(item(n, names, mode, None) if own is None else own)
                return out
            return repeat
        parts = [_builder(value, alternatives) for value in node]
        return lambda name, names, mode, each: [b(name, names, mode, each) for b in parts]
    if node == _SLOT + "N":
        return lambda name, names, mode, each: name
    if node == _SLOT + "M":
        return lambda name, names, mode, each: mode
    if isinstance(node, str) and node.startswith(_SLOT + "|"):
        required, auto = alternatives[int(node[2:])]
        return lambda name, names, mode, each: required if mode == "required" else auto
    return lambda name, names, mode, each: node  # a constant: str, number, bool or null


def _text_builder(node: Any, alternatives: list[tuple[str, str]]) -> TextBuilder:
    parts = _text_parts(node, alternatives)
    if len(parts) == 1 and isinstance(parts[0], str):
        constant = parts[0]
        return lambda name, names, mode: constant
    if len(parts) == 3 and parts[1] is _name_text:  # one N between two texts: most named forms
        before, after = parts[0], parts[2]
        return lambda name, names, mode: before + compact(name) + after
    return lambda name, names, mode: "".join([p if type(p) is str else p(name, names, mode) for p in parts])


def _text_parts(node: Any, alternatives: list[tuple[str, str]]) -> list[Any]:
    """The template's text as a list of texts and slots (``slot(name, names, mode)`` gives a text),
    neighbouring texts joined."""
    parts: list[Any] = []

    def add(part: Any) -> None:
        if type(part) is str and parts and type(parts[-1]) is str:
            parts[-1] += part
        else:
            parts.append(part)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            add("{")
            for index, (key, value) in enumerate(node.items()):
                add(("," if index else "") + compact(key) + ":")
                walk(value)
            add("}")
        elif isinstance(node, list) and len(node) == 1 and _holds_name(node[0]):  # one item per name
            item = _text_builder(node[0], alternatives)
            add(lambda name, names, mode: "[" + ",".join([item(n, names, mode) for n in names]) + "]")
        elif isinstance(node, list):
            add("[")
            for index, value in enumerate(node):
                if index:
                    add(",")
                walk(value)
            add("]")
        elif node == _SLOT + "N":
            add(_name_text)
        elif node == _SLOT + "M":
            add(lambda name, names, mode: json_string(mode))
        elif isinstance(node, str) and node.startswith(_SLOT + "|"):
            required, auto = (compact(word) for word in alternatives[int(node[2:])])
            add(lambda name, names, mode: required if mode == "required" else auto)
        else:
            add(compact(node))  # a constant: str, number, bool or null

    walk(node)
    return parts


def _name_text(name: Any, names: Sequence[str], mode: str) -> str:
    return compact(name)
