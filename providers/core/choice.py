"""Every spelling of tool_choice people write, read into one neutral ``ToolChoice``.

Accepted: auto | none | required | any | true (= required) | false / null (= not specified) | a
tool name | {tool: NAME} | {allowed: [..], mode: auto|required} | provider-native objects
(OpenAI chat and Responses, Anthropic, Gemini, Bedrock, Hugging Face) | the Responses-only forms
``{type: mcp, server_label, name?}`` and ``{type: programmatic_tool_calling}`` (kept as ``native``, sent as
written on the one API that has them, refused elsewhere: ``NATIVE_FORMS``) | upper-case provider words
(AUTO, ANY, NONE, REQUIRED). A bare keyword always means the keyword; a tool literally called
``auto`` is chosen with ``{tool: auto}``.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from .bounded import did_you_mean
from .model import ToolChoice, ToolchoiceError, quoted

_KEYWORDS = {"auto": "auto", "none": "none", "required": "required", "any": "required"}
_UPPER = {"AUTO": "auto", "NONE": "none", "REQUIRED": "required", "ANY": "required"}

Fail = Callable[[str, str | None], ToolchoiceError]


# verbs tool names use for the same kind of act (`get_order` beside `lookup_order`): a name's verb counts as shared
# with a candidate's of the same kind, weaker than a shared noun
_VERBS = {word: kind for kind, words in (
    ("read", "get fetch lookup look find read retrieve query search list show describe load check view"),
    ("create", "create add insert new make post"), ("update", "update edit modify set patch change put write"),
    ("delete", "delete remove rm del destroy drop")) for word in words.split()}
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")  # get_order, getOrder, HNA_NEWS.search


def _words(name: str) -> set[str]:
    """A tool name's words (split on _ . - / and case), a plural as its singular; a verb as its kind and as itself."""
    out = set()
    for word in _WORD.findall(name):
        word = word.lower()
        if word in _VERBS:
            out |= {f"verb:{_VERBS[word]}", f"verb={word}"}
        else:
            out.add(word[:-1] if len(word) > 3 and word.endswith("s") else word)
    return out


def tool_did_you_mean(name: str, tool_names: list[str] | tuple[str, ...]) -> str | None:
    """The declared tool ``name`` likely meant: one a typo away (difflib, 0.8 and none as close); else the tool that
    shares most of its words (a noun 2, a verb of the same kind 1 and the same verb 1 more: `get_order` is
    lookup_order, not refund_order, which difflib ranks first), named where one is clearly first, listed where two or
    three tie; else difflib's."""
    from .bounded import close_matches

    options = list(tool_names)
    close = close_matches(name, options, 2, 0.8)
    if len(close) == 1:
        return f"did you mean {close[0]}?"
    words = _words(name)
    nouns = {w for w in words if not w.startswith("verb")}
    scored = sorted(((2 * len(nouns & other) + len((words - nouns) & other), tool) for tool in options
                     if nouns & (other := _words(tool))), key=lambda pair: -pair[0])
    if scored:
        best = [tool for score, tool in scored if score == scored[0][0]]
        if len(best) == 1:
            return f"did you mean {best[0]}?"
        if len(best) <= 3:
            return f"did you mean {', '.join(best[:-1])} or {best[-1]}?"
    return did_you_mean(name, options)


def parse_tool_choice(value: Any, tool_names: tuple[str, ...], fail: Fail | None = None) -> ToolChoice | None:
    """Read one tool_choice value. Returns None for 'not specified' (null, false, absent).

    ``fail(message, hint)`` builds the error to raise (the loader passes one that knows the file
    and line); by default a plain ToolchoiceError.
    """
    fail = fail or (lambda message, hint=None: ToolchoiceError(message, hint=hint))
    spelling = value if isinstance(value, str) else quoted(value)

    def named(name: Any, spelled: str = spelling, bare: bool = False) -> ToolChoice:
        return ToolChoice("named", name=_declared(name, tool_names, fail, bare=bare), spelling=spelled)

    if value is None or value is False:
        return None
    if value is True:
        return ToolChoice("required", spelling="true")
    if isinstance(value, str):
        word = value.strip()
        spelled = word if word == value else quoted(value)  # spaces read away: the ledger quotes them visibly
        if word in _KEYWORDS:
            return ToolChoice(_KEYWORDS[word], spelling=spelled)  # type: ignore[arg-type]
        if word in _UPPER:
            return ToolChoice(_UPPER[word], spelling=spelled)  # type: ignore[arg-type]
        if word.lower() in _KEYWORDS and word not in tool_names:
            return ToolChoice(_KEYWORDS[word.lower()], spelling=spelled)  # type: ignore[arg-type]
        return named(word, spelled, bare=True)
    if isinstance(value, dict):
        return _parse_object(value, tool_names, fail, spelling, named)
    hint = "write auto, none, required, a tool name, {tool: NAME} or {allowed: [...], mode: auto}"
    if isinstance(value, list) and value and all(isinstance(name, str) for name in value):
        # pydantic-ai's ModelSettings(tool_choice=['a', 'b']): a call to one of them (docs/pydantic-ai.md)
        hint = ("a list of tool names, as pydantic-ai's tool_choice takes it, is written "
                + (value[0] if len(value) == 1 else
                   f"{{allowed: [{', '.join(value[:8])}{', ...' if len(value) > 8 else ''}], mode: required}}")
                + " here")
    raise fail(f"tool_choice must be a word, a tool name or an object, not {type(value).__name__} {spelling}", hint)


def _declared(name: Any, tool_names: tuple[str, ...], fail: Fail, known: Any = None, bare: bool = False) -> str:
    """``name`` where it is a declared tool's; ``known``: the names as a set (an allowed list of 10,000 looked each up
    in the tuple: 10^8 comparisons); ``bare``: written as a bare word, which may be a keyword misspelled."""
    if not isinstance(name, str) or not name:
        said = ("tool_choice names no tool (its name is missing)" if name is None else
                f"tool_choice names a tool with {quoted(name)}, which is not a tool name")
        raise fail(said, f"name a declared tool: {', '.join(tool_names)}" if tool_names else "declare the tool under tools:")
    if name not in (tool_names if known is None else known):
        declared = ", ".join(tool_names) if tool_names else "none"
        hint = tool_did_you_mean(name, tool_names) or (did_you_mean(name.lower(), ("auto", "none", "required"))
                                                  if bare else None)
        raise fail(f"tool_choice names '{name}', which is not a declared tool (declared: {declared})",
                   hint or "declare it under tools:, or use auto, none, required or {tool: NAME}")
    return name


def _names_from(items: Any, fail: Fail, tool_names: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(items, list) or not items:
        written = items if isinstance(items, str) and items else ", ".join(tool_names[:2]) or "a, b"
        raise fail("the allowed list must be a non-empty list of tool names",
                   f"name at least one declared tool: [{written}]" if items == [] else f"write it in brackets: [{written}]")
    names: list[str] = []
    known = frozenset(tool_names)
    for item in items:
        if isinstance(item, dict):  # OpenAI {"type":"function","function":{"name"}} or flat {"name"}
            inner = item.get("function") if isinstance(item.get("function"), dict) else item
            item = inner.get("name")
        names.append(_declared(item, tool_names, fail, known))
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise fail(f"the allowed list names '{twice}' twice", "name each tool once")
    return tuple(names)


def _mode(word: Any, fail: Fail) -> str:
    if word in ("auto", "required"):
        return word
    if word in ("any", "ANY", "REQUIRED"):
        return "required"
    if word == "AUTO":
        return "auto"
    raise fail(f"allowed mode must be auto or required, not {quoted(word)}", None)


def _parse_object(value: dict[str, Any], tool_names: tuple[str, ...], fail: Fail, spelling: str,
                  named: Callable[..., ToolChoice]) -> ToolChoice:
    keys = set(value)
    # neutral forms
    if keys == {"tool"} and isinstance(value["tool"], str):
        return named(value["tool"])
    if "allowed" in keys and keys <= {"allowed", "mode"}:
        names = _names_from(value["allowed"], fail, tool_names)
        return ToolChoice("allowed", allowed=names, allowed_mode=_mode(value.get("mode", "auto"), fail),  # type: ignore[arg-type]
                          spelling=spelling)
    # Gemini: {functionCallingConfig: {...}} or {mode: ANY, allowedFunctionNames: [...]}
    for wrapper in ("functionCallingConfig", "function_calling_config", "toolConfig", "tool_config"):
        if keys == {wrapper} and isinstance(value[wrapper], dict):
            return _parse_object(value[wrapper], tool_names, fail, spelling, named)
    if "mode" in keys and keys <= {"mode", "allowedFunctionNames", "allowed_function_names"}:
        return _gemini(value, tool_names, fail, spelling)
    # Bedrock: {auto: {}}, {any: {}}, {tool: {name: X}}
    if len(keys) == 1 and next(iter(keys)) in ("auto", "any") and value[next(iter(keys))] in ({}, None):
        word = next(iter(keys))
        return ToolChoice(_KEYWORDS[word], spelling=spelling)  # type: ignore[arg-type]
    if keys == {"tool"} and isinstance(value["tool"], dict) and set(value["tool"]) == {"name"}:
        return named(value["tool"]["name"])
    # Hugging Face: {function: {name: X}}
    if keys == {"function"} and _name_only(value["function"]):
        return named(value["function"].get("name"))
    kind = value.get("type")
    if kind in ("function", "tool") and keys == {"type"}:  # a half-shape: the kind of a named choice, with no name
        tool = tool_names[0] if tool_names else "NAME"
        shape = f"{{type: function, function: {{name: {tool}}}}}" if kind == "function" else f"{{type: tool, name: {tool}}}"
        raise fail(f"tool_choice {spelling} names no tool", f"to force {tool}, write tool_choice: {tool} (or {shape}); "
                   "to force any tool, tool_choice: required")
    if kind == "function":
        if keys == {"type", "function"} and _name_only(value["function"]):
            return named(value["function"].get("name"))  # OpenAI chat
        if keys == {"type", "name"}:
            return named(value["name"])  # OpenAI Responses
    if kind == "tool" and keys <= {"type", "name", "disable_parallel_tool_use"}:
        _no_parallel_inside(value, fail)
        return named(value.get("name"))  # Anthropic
    if kind in ("auto", "any", "none") and keys <= {"type", "disable_parallel_tool_use"}:
        _no_parallel_inside(value, fail)
        return ToolChoice(_KEYWORDS[kind], spelling=spelling)  # type: ignore[arg-type]
    if kind == "allowed_tools":
        # OpenAI chat nests {mode, tools} under allowed_tools; Responses puts them beside type.
        nested = keys == {"type", "allowed_tools"} and isinstance(value["allowed_tools"], dict)
        inner = value["allowed_tools"] if nested else value
        extra = set(inner) - ({"mode", "tools"} if nested else {"type", "mode", "tools"})
        if extra:
            raise fail(f"tool_choice object {spelling} has unknown keys: {', '.join(sorted(map(str, extra)))}",
                       "allowed_tools holds only mode and tools")
        names = _names_from(inner.get("tools"), fail, tool_names)
        return ToolChoice("allowed", allowed=names, allowed_mode=_mode(inner.get("mode", "auto"), fail),  # type: ignore[arg-type]
                          spelling=spelling)
    if isinstance(kind, str) and kind in NATIVE_FORMS:
        return _native(value, fail, spelling)
    raise fail(f"tool_choice object {spelling} is not a form toolchoice knows", _unknown_object_hint(value, tool_names))


def _unknown_object_hint(value: dict[str, Any], tool_names: tuple[str, ...]) -> str:
    """What to write for an object no form reads: the form for the declared tool or the keyword it holds (a newcomer's
    ``{name: lookup_order}``, ``{type: required}``), else the forms there are."""
    words = [str(k) for k in value] + [v for v in value.values() if isinstance(v, str)]
    for inner in (v for v in value.values() if isinstance(v, dict)):  # one level down: {toolChoice: {any: {}}}
        words += [str(k) for k in inner] + [v for v in inner.values() if isinstance(v, str)]
    listed = next((v for v in value.values() if isinstance(v, list) and v
                   and all(isinstance(n, str) and n in tool_names for n in v)), None)
    if listed is not None:  # {allowed_tools: [a, b]}, {tools: [a]}: a subset, in another API's or a guessed key
        return f"to let the model call only {', '.join(listed[:8])}, write tool_choice: {{allowed: [{', '.join(listed[:8])}" \
               f"{', ...' if len(listed) > 8 else ''}], mode: required}} (mode: auto lets it answer in text)"
    tool = next((w for w in words if w in tool_names), None)
    if tool is not None:
        return f"to force {tool}, write tool_choice: {tool} (or {{tool: {tool}}})"
    keyword = next((w.lower() for w in words if w.lower() in _KEYWORDS), None)
    if keyword is not None:
        return (f"write the word alone: tool_choice: {keyword}"
                + (" (each provider's own spelling is made from it)" if keyword in ("required", "any") else ""))
    return "use {tool: NAME}, {allowed: [a, b], mode: auto}, or an OpenAI/Anthropic/Gemini/Bedrock tool_choice object"


# tool_choice forms only one API has: type -> (its keys, the source). No other provider's tool_choice type has
# them (tests/test_tool_surfaces_2026.py reads every pinned SDK's tool_choice union); the module of the API
# that takes them lists the types in NATIVE_CHOICES, and every other provider refuses them (registry.translate).
NATIVE_FORMS: dict[str, tuple[frozenset[str], str]] = {
    "mcp": (frozenset({"type", "server_label", "name"}),
            "openai 3.57.0 types/responses/tool_choice_mcp_param.py ToolChoiceMcpParam: \"Use this option to force "
            "the model to call a specific tool on a remote MCP server\" (server_label required, name optional)"),
    "programmatic_tool_calling": (frozenset({"type"}),
                                  "openai 3.57.0 types/responses/response_create_params.py "
                                  "ToolChoiceSpecificProgrammaticToolCallingParam: {type: programmatic_tool_calling}"),
}


def _native(value: dict[str, Any], fail: Fail, spelling: str) -> ToolChoice:
    kind = value["type"]
    keys, source = NATIVE_FORMS[kind]
    extra = set(value) - keys
    if extra:
        raise fail(f"tool_choice object {spelling} has unknown keys: {', '.join(sorted(map(str, extra)))}",
                   f"{{type: {kind}}} holds only {', '.join(sorted(keys))} ({source.split(':')[0]})")
    if kind == "mcp":
        label, name = value.get("server_label"), value.get("name")
        if not isinstance(label, str) or not label:
            raise fail(f"tool_choice {spelling} needs server_label, the label of an MCP server the request declares",
                       "write {type: mcp, server_label: LABEL, name: TOOL}")
        if name is not None and (not isinstance(name, str) or not name):
            raise fail(f"tool_choice {spelling}: name must be the MCP tool's name (or left out)", None)
    return ToolChoice("required", spelling=spelling, native=dict(value))


def native_refusal(choice: ToolChoice | None, takes: tuple[str, ...], title: str) -> str | None:
    """Why a provider whose module takes the native forms ``takes`` cannot send ``choice``, or None."""
    if choice is None or choice.native is None or choice.native.get("type") in takes:
        return None
    kind = choice.native["type"]
    return (f"tool_choice {choice.quoted()} is OpenAI Responses' own form ({NATIVE_FORMS[kind][1]}); the "
            f"tool_choice of {title} has no {kind} form, and toolchoice does not guess a stand-in: send it with -p "
            "openai-responses, or use required / {tool: NAME} here")


def _name_only(function: Any) -> bool:
    """``{"name": X}``, the function part of a named choice (a stray key means a form we don't know)."""
    return isinstance(function, dict) and set(function) <= {"name"}


def _no_parallel_inside(value: dict[str, Any], fail: Fail) -> None:
    if "disable_parallel_tool_use" in value:
        raise fail("disable_parallel_tool_use inside tool_choice is Anthropic's wire form",
                   "write parallel_tool_calls: false at the top level instead")


def _gemini(value: dict[str, Any], tool_names: tuple[str, ...], fail: Fail, spelling: str) -> ToolChoice:
    mode = str(value.get("mode", "")).upper()
    names_value = value.get("allowedFunctionNames", value.get("allowed_function_names"))
    if mode == "VALIDATED":
        raise fail("Gemini mode VALIDATED has no neutral equivalent",
                   "use tool_choice: auto with strict: true; toolchoice sends VALIDATED for strict tools on Gemini")
    if mode not in ("AUTO", "ANY", "NONE"):
        raise fail(f"Gemini mode must be AUTO, ANY or NONE, not {quoted(value.get('mode'))}", None)
    if names_value is None:
        return ToolChoice(_UPPER[mode], spelling=spelling)  # type: ignore[arg-type]
    if mode == "NONE":
        raise fail("allowedFunctionNames makes no sense with mode NONE", None)
    names = _names_from(names_value, fail, tool_names)
    if mode == "ANY" and len(names) == 1:
        return ToolChoice("named", name=names[0], spelling=spelling)
    return ToolChoice("allowed", allowed=names, allowed_mode="required" if mode == "ANY" else "auto",
                      spelling=spelling)


def _unread_hint(text: str, reason: str) -> str:
    """What to do about an option value YAML could not read. One that ends before its brackets close and holds a
    space reached us whole (the shell splits an unquoted value at its spaces): a bracket is missing, and quoting it
    again would not help; any other is most often a value the shell cut."""
    if "<stream end>" in reason and any(c.isspace() for c in text):
        return "close every { and [ it opens, e.g. --tool-choice '{tool: get_weather}'"
    return "quote it for the shell, e.g. --tool-choice '{tool: get_weather}'"


def parse_cli_value(text: str) -> Any:
    """Read ``--tool-choice VALUE``: a YAML/JSON object or list, true/false/null, or a plain word.

    A plain word is never read as a YAML 1.1 boolean (``no``/``off`` stay words)."""
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        import yaml

        try:
            value = yaml.load(stripped, Loader=_option_loader())  # noqa: S506 (a SafeLoader)
        except (yaml.YAMLError, RecursionError, ValueError, KeyError, AttributeError, TypeError, OverflowError) as exc:
            if isinstance(exc, yaml.MarkedYAMLError):
                reason = exc.problem or exc.context
            elif isinstance(exc, RecursionError):
                reason = "it nests too deeply"
            else:
                reason = (str(exc).splitlines() or [type(exc).__name__])[0]
            shown = text if len(text) <= 60 else text[:57] + "..."
            raise ToolchoiceError(f"--tool-choice {shown!r} is not valid YAML/JSON: {reason}",
                                  hint=_unread_hint(stripped, reason or "")) from None
        _bounded(value)
        _json_only(value)
        return value
    lowered = stripped.lower()
    if lowered in ("true", "false", "null", "~"):
        return {"true": True, "false": False}.get(lowered)
    return stripped


_OPTION_LOADER: Any = None


def _option_loader() -> Any:
    """PyYAML's safe loader, refusing a key written twice in one mapping (``{tool: a, tool: b}``): plain
    ``safe_load`` keeps the last and drops the first without a word, as the scenario reader never does."""
    global _OPTION_LOADER
    if _OPTION_LOADER is None:
        import yaml

        class OptionLoader(yaml.SafeLoader):
            def construct_mapping(self, node: Any, deep: bool = False) -> Any:
                if isinstance(node, yaml.MappingNode):
                    if any(k.tag == "tag:yaml.org,2002:merge" for k, _ in node.value):  # the scenario reader's words
                        raise ToolchoiceError("--tool-choice: YAML merge keys (<<) are not supported",  # (a key both
                                              hint="write the keys out")  # merged and written was "written twice")
                    seen: set[Any] = set()
                    for key_node, _ in node.value:
                        key = self.construct_object(key_node, deep=True)
                        if isinstance(key, (str, int, float, bool)):  # by type too: 1, 1.0 and true are 3 keys
                            if (type(key), key) in seen:
                                raise ToolchoiceError(f"--tool-choice: the key {quoted(key)} is written twice",
                                                      hint="keep one of them")
                            seen.add((type(key), key))
                return super().construct_mapping(node, deep=deep)

        _OPTION_LOADER = OptionLoader
    return _OPTION_LOADER


def _json_only(value: Any) -> None:
    """Refuse what YAML reads that JSON has no word for (a date, ``!!binary`` bytes, a ``!!set``, a non-string
    key, an infinite number), with the scenario reader's words, instead of quoting its Python repr later."""
    import math

    seen: set[int] = set()
    open_: set[int] = set()  # the lists and mappings being walked: an alias back to one is a loop
    stack: list[tuple[Any, bool]] = [(value, False)]  # (item, True): its children are walked
    while stack:
        item, walked = stack.pop()
        if walked:
            open_.discard(id(item))
            continue
        if isinstance(item, (dict, list)):
            if id(item) in open_:  # parse_tool_choice quoted it as Python writes a loop ({'tool': [[...]]})
                raise ToolchoiceError("--tool-choice: a YAML alias refers to a mapping or list that contains it",
                                      hint="remove the alias loop")
            if id(item) in seen:  # an alias met again: read once
                continue
            seen.add(id(item))
            open_.add(id(item))
            stack.append((item, True))
            if isinstance(item, dict):
                bad = [k for k in item if not isinstance(k, str)]
                if bad:
                    shown = quoted(bad[0]) if isinstance(bad[0], (int, float, type(None))) else \
                        f"a {type(bad[0]).__name__}"
                    raise ToolchoiceError(f"--tool-choice: keys must be strings, not {shown}", hint="quote the key")
            stack.extend((child, False) for child in (item.values() if isinstance(item, dict) else item))
        elif isinstance(item, float) and not math.isfinite(item):
            raise ToolchoiceError("--tool-choice: numbers must be finite", hint="quote it to make it a string")
        elif not isinstance(item, (str, int, float, bool, type(None))):
            raise ToolchoiceError(f"--tool-choice: a {type(item).__name__} value is not JSON data",
                                  hint="quote it to make it a string")


def _bounded(value: Any) -> None:
    """Refuse an option's YAML that, its aliases expanded, holds more values or text than a scenario file may:
    PyYAML makes an alias a reference to its anchor's object, so nine aliases a level stand for 9**levels values,
    which quoting the value (json.dumps) or walking it then writes out."""
    from .bounded import refuse_expanded

    refuse_expanded(value, "--tool-choice: its YAML aliases expand",
                    "YAML aliases (*name) repeat what they name: write the data out once")
