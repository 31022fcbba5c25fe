"""The ``loop:`` section of a scenario (``toolchoice run``): max_steps, the steps (tool_choice and tools
offered per step), stop, results per tool, narrow and after_call."""

from __future__ import annotations

import json

import yaml

from . import limits
from .choice import did_you_mean, parse_tool_choice, tool_did_you_mean
from .model import LoopResult, LoopSpec, LoopStep, Tool, ToolChoice
from .yaml_input import Reader as _Reader, refuse_yaml11_choice, show as _show

LOOP_KEYS = ("max_steps", "steps", "stop", "results", "narrow", "after_call")
STEP_KEYS = ("tool_choice", "tools")
_LOOP_EXAMPLE = "see configs/planner-loop.yaml"


def read_loop(r: _Reader, node: yaml.Node, tools: tuple[Tool, ...]) -> LoopSpec:
    """The ``loop:`` section: steps (tool_choice and tools offered per step; the last repeats),
    max_steps, stop (``when: no_tool_call`` or ``tool: NAME``, ``repeated_calls: K``), results per tool,
    narrow and after_call (core/loop_policy.py)."""
    from .loop_policy import AFTER_CALL, NARROW, read_word

    fields = r.mapping(node, "loop", LOOP_KEYS)
    names = tuple(t.name for t in tools)
    max_steps = 10
    if "max_steps" in fields:
        value = r.value(fields["max_steps"])
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise r.loc(fields["max_steps"]).fail(f"loop.max_steps must be a whole number of at least 1, not {_show(value)}",
                                                  "the loop sends at least one request")
        if value > limits.get("loop_steps"):
            raise r.loc(fields["max_steps"]).fail(f"loop.max_steps {value}: more than {limits.shown('loop_steps')}",
                                                  limits.raise_hint("loop_steps"))
        max_steps = value
    steps: list[LoopStep] = []
    if "steps" in fields and r.value(fields["steps"]) is not None:
        items = r.sequence(fields["steps"], "loop.steps")
        if not items:
            raise r.loc(fields["steps"]).fail("loop.steps is empty", "give at least one {tool_choice: ...} or leave steps out")
        steps = [_loop_step(r, item, number, names) for number, item in enumerate(items, 1)]
    stop_tool, repeated = (_loop_stop(r, fields["stop"], names) if "stop" in fields and r.value(fields["stop"]) is not None
                           else (None, None))
    results: dict[str, LoopResult] = {}
    if "results" in fields and r.value(fields["results"]) is not None:
        entries = r.mapping(fields["results"], "loop.results")
        for key_node, value_node in fields["results"].value:
            name = key_node.value
            tool = next((t for t in tools if t.name == name), None)
            if tool is None:
                hint = _undeclared_hint(name, names)
                raise r.loc(key_node).fail(f"loop.results has an entry for '{name}', which is not a declared tool", hint)
            results[name] = _loop_result(r, entries[name], tool, allow_list=True)
    policy = {key: read_word(r, fields[key], key, words) for key, words in (("narrow", NARROW), ("after_call", AFTER_CALL))
              if key in fields}
    return LoopSpec(max_steps=max_steps, steps=tuple(steps), stop_tool=stop_tool, results=results,
                    raw=r.value(node), repeated_calls=repeated, **policy)


def _undeclared_hint(name: str, names: tuple[str, ...]) -> str:
    """What to write for a loop entry naming ``name``, which no tool declares."""
    return tool_did_you_mean(name, names) or (f"declared tools: {', '.join(names)}" if names
                                              else "declare it under tools:")


def _loop_step(r: _Reader, node: yaml.Node, number: int, names: tuple[str, ...]) -> LoopStep:
    fields = r.mapping(node, f"loop.steps[{number}]", STEP_KEYS)
    offered: tuple[str, ...] | None = None
    if "tools" in fields:
        offered_list = []
        for item in r.sequence(fields["tools"], f"loop.steps[{number}].tools"):
            name = r.string(item, "a tool name")
            if name not in names:
                hint = _undeclared_hint(name, names)
                raise r.loc(item).fail(f"loop step {number} offers '{name}', which is not a declared tool", hint)
            offered_list.append(name)
        offered = tuple(offered_list)
    choice: ToolChoice | None = None
    has_choice = "tool_choice" in fields
    if has_choice:
        refuse_yaml11_choice(r, fields["tool_choice"])
        loc = r.loc(fields["tool_choice"])
        choice = parse_tool_choice(r.value(fields["tool_choice"]), names,
                                   lambda m, h=None: loc.fail(f"loop step {number}: {m}", h))
        wanted = (choice.name,) if choice is not None and choice.mode == "named" else (
            choice.allowed if choice is not None and choice.mode == "allowed" else ())
        missing = [n for n in wanted if offered is not None and n not in offered]
        if missing:
            raise loc.fail(f"loop step {number}: tool_choice names '{missing[0]}', which this step's tools do not offer",
                           f"add it to tools: [{', '.join((*(offered or ()), missing[0]))}]")
    return LoopStep(tool_choice=choice, has_choice=has_choice, tools=offered)


def _loop_stop(r: _Reader, node: yaml.Node, names: tuple[str, ...]) -> tuple[str | None, int | None]:
    """(the stop tool, stop.repeated_calls), each None when not written."""
    from .loop_policy import read_repeated

    if isinstance(node, yaml.ScalarNode) and isinstance(r.value(node), str):  # `stop: final_answer`
        word = r.value(node)
        raise r.loc(node).fail(f"loop.stop must be a mapping (key: value), not the scalar {word!r}",
                               "write stop: {when: no_tool_call}" if word == "no_tool_call"
                               else f"write stop: {{tool: {word}}} to end the loop when {word} is called")
    fields = r.mapping(node, "loop.stop", ("when", "tool", "repeated_calls"))
    repeated = read_repeated(r, fields.pop("repeated_calls")) if "repeated_calls" in fields else None
    if set(fields) == {"when"}:
        if r.value(fields["when"]) != "no_tool_call":
            raise r.loc(fields["when"]).fail(f"loop.stop.when must be no_tool_call, not {_show(r.value(fields['when']))}",
                                             "or write stop: {tool: NAME} to end the loop when NAME is called")
        return None, repeated
    if set(fields) == {"tool"}:
        name = r.string(fields["tool"], "loop.stop.tool")
        if name not in names:
            # the stop tool is the scenario's own: the model is offered it and calls it when done (nothing built in)
            hint = tool_did_you_mean(name, names) or (
                f"declare it under tools: (- {{name: {name}, description: Call when done, parameters: {{type: object, "
                f"properties: {{answer: {{type: string}}}}}}}}), or end on a text answer: stop: {{when: no_tool_call}}; "
                f"declared tools: {', '.join(names) or 'none'}")
            raise r.loc(fields["tool"]).fail(f"loop.stop.tool '{name}' is not a declared tool", hint)
        return name, repeated
    if not fields and repeated is not None:
        return None, repeated
    raise r.loc(node).fail("loop.stop takes when: no_tool_call or tool: NAME (one of them), and repeated_calls: K", None)


def _loop_result(r: _Reader, node: yaml.Node, tool: Tool, *, allow_list: bool) -> LoopResult:
    if isinstance(node, yaml.SequenceNode) and allow_list:
        items = [_loop_result(r, item, tool, allow_list=False) for item in r.sequence(node, f"loop.results.{tool.name}")]
        if not items:
            raise r.loc(node).fail(f"loop.results.{tool.name} is an empty list", "give one result per expected call")
        return LoopResult("list", tuple(items))
    if isinstance(node, yaml.MappingNode) and len(node.value) == 1 and node.value[0][0].value in ("template", "error"):
        key, child = node.value[0][0].value, node.value[0][1]
        text = r.string(child, f"loop.results.{tool.name}.{key}", empty_ok=True)
        if key == "error":
            return LoopResult("error", text)
        _check_template(r, child, text, tool)
        return LoopResult("template", text)
    value = r.value(node)
    content = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return LoopResult("literal", content)


def _check_template(r: _Reader, node: yaml.Node, text: str, tool: Tool) -> None:
    """Every ``{field}`` must name an argument (a property of the tool's parameters)."""
    import string

    properties = (tool.parameters or {}).get("properties")
    known = tuple(properties) if isinstance(properties, dict) else ()
    try:
        fields = [(name, spec, conv) for _, name, spec, conv in string.Formatter().parse(text) if name is not None]
    except ValueError as exc:
        raise r.loc(node).fail(f"loop.results.{tool.name}.template is not a valid template: {exc}",
                               "write {argument} for a field, {{ and }} for literal braces") from None
    for name, spec, conv in fields:
        if not name or spec or conv or not name.isidentifier():
            raise r.loc(node).fail(f"loop.results.{tool.name}.template: {{{name}{'!' + conv if conv else ''}"
                                   f"{':' + spec if spec else ''}}} is not a plain {{argument}} field",
                                   "write {argument}; {{ and }} for literal braces")
        if name not in known:
            hint = did_you_mean(name, known) or (f"its arguments: {', '.join(known)}" if known else
                                                 f"'{tool.name}' takes no arguments")
            raise r.loc(node).fail(f"loop.results.{tool.name}.template names '{{{name}}}', which is not an argument "
                                   f"of '{tool.name}'", hint)
