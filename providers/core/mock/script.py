"""``--script FILE``: what the mock answers, in order or per request number.

    replies:                 # one per request, in order; after the last, the default answers
      - call: get_weather    # a call to this tool; arguments from its schema unless given
        arguments: {city: Paris}
      - calls: [{name: a}, {name: b, arguments: {x: 1}}]
      - text: "Done."        # a text answer
      - disobey: true        # the opposite of the choice: text for a forced choice, a call for none
      - phantom: delete_all  # a call to a tool that is not offered
      - call: get_weather
        broken_json: true    # the arguments are not valid JSON ('{"city": ')
      - {status: 429, retry_after: 2}
      - {status: 500}
      - {delay_ms: 200, text: slow}
      - {cut_after: 3}       # a stream cut after 3 events (a whole reply: the connection closes)
      - {}                   # the default answer
      - choices: [{}, {disobey: true}]  # n > 1: choice i answers as choices[i] says, past the list as the reply's
                             # own keys say (here choice 1 disobeys, choices 0 and 2.. answer as the API would)
      - {redacted_thinking: true}  # with thinking on, the reasoning is handed out redacted (Anthropic's
                             # redacted_thinking block, its data the opaque state); the default answer otherwise
    steps:                   # per request number (from 1): wins over replies
      3: {text: "Stop."}

Read with the scenario loader's YAML reader (safe tags only, duplicate keys refused, sizes bounded):
every problem is one line naming file:line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, NamedTuple

from ..model import ToolchoiceError

REPLY_KEYS = ("call", "arguments", "calls", "text", "disobey", "phantom", "broken_json", "status", "retry_after",
              "message", "delay_ms", "cut_after", "choices", "redacted_thinking")
CHOICE_KEYS = ("call", "arguments", "calls", "text", "disobey", "phantom", "broken_json")  # what one choice may say
MAX_DELAY_MS = 600_000


class ScriptCall(NamedTuple):
    name: str
    arguments: Mapping[str, Any] | None = None  # None: made from the tool's schema


class Step(NamedTuple):
    """One scripted reply. Every field unset means: answer as the API would (the default)."""

    calls: tuple[ScriptCall, ...] = ()
    text: str | None = None
    disobey: bool = False
    phantom: str | None = None
    broken_json: bool = False
    status: int | None = None
    retry_after: float | None = None
    message: str | None = None
    delay_ms: int = 0
    cut_after: int | None = None
    line: int = 0  # where it was written (0: not scripted)
    choices: tuple["Step", ...] = ()  # n > 1: choice i's answer (past them: this step's own)
    redacted_thinking: bool = False  # the answer's reasoning handed out redacted (where thinking is on)

    def choice(self, index: int) -> "Step":
        """What choice ``index`` of the answer follows."""
        return self.choices[index] if index < len(self.choices) else self


class Script(NamedTuple):
    replies: tuple[Step, ...] = ()
    steps: Mapping[int, Step] = {}
    path: str = ""

    def step(self, number: int) -> Step | None:
        """The scripted reply for request ``number`` (1-based), or None for the default."""
        if number in self.steps:
            return self.steps[number]
        return self.replies[number - 1] if 0 < number <= len(self.replies) else None


def load_script(path: str | Path) -> Script:
    from ..yaml_input import composed, read_text

    name = str(path)
    text = read_text(path, "script", regular_only=True)  # a device or FIFO: refused at once, not read to 8 MB
    with composed(text, name) as (r, root):
        if root is None:
            raise ToolchoiceError("the script is empty", path=name, line=1, hint="write replies: [...] or steps: {...}")
        if isinstance(root, __import__("yaml").SequenceNode):  # a list of replies written without its key
            raise r.loc(root).fail("the script must be a mapping (key: value), not a list",
                                   "put the list under a replies: key, each reply indented below it")
        fields = r.mapping(root, "the script", ("replies", "steps"))
        if not fields:
            raise r.loc(root).fail("the script has no replies: and no steps:", None)
        replies = tuple(_step(r, node) for node in r.sequence(fields["replies"], "replies")) \
            if "replies" in fields else ()
        steps: dict[int, Step] = {}
        if "steps" in fields:
            node = fields["steps"]
            r.plain(node)
            import yaml

            if not isinstance(node, yaml.MappingNode):
                raise r.loc(node).fail("steps must map request numbers to replies", "steps: {1: {text: hi}}")
            for key_node, child in node.value:
                key = r.value(key_node)
                if isinstance(key, bool) or not isinstance(key, int) or key < 1:
                    raise r.loc(key_node).fail(f"a step key must be a request number from 1, not "
                                               f"{_written(key, key_node)}", None)
                if key in steps:
                    raise r.loc(key_node).fail(f"step {key} is written twice", "keep one of them")
                steps[key] = _step(r, child)
        return Script(replies, steps, name)


def _step(r: Any, node: Any, keys: tuple[str, ...] = REPLY_KEYS) -> Step:
    loc = r.loc(node)
    fields = r.mapping(node, "a reply" if keys is REPLY_KEYS else "a choice", keys)  # {}: the default answer
    choices = tuple(_step(r, child, CHOICE_KEYS) for child in r.sequence(fields["choices"], "choices")) \
        if "choices" in fields else ()
    values = {key: r.value(child) for key, child in fields.items() if key != "choices"}

    def fail(key: str, message: str, hint: str | None = None) -> ToolchoiceError:
        return r.loc(fields[key]).fail(message, hint)

    def said(key: str) -> str:
        return _written(values[key], fields[key])

    calls: list[ScriptCall] = []
    if "call" in values:
        calls.append(ScriptCall(_name(values["call"], lambda m: fail("call", m), fields["call"]),
                                _arguments(values, "arguments", fail)))
    elif "arguments" in values:
        raise fail("arguments", "arguments: goes with call:", "write call: NAME beside it")
    if "calls" in values:
        if "call" in values:
            raise fail("calls", "write call: or calls:, not both", None)
        items = values["calls"]
        if not isinstance(items, list) or not items:
            raise fail("calls", "calls must be a non-empty list of {name, arguments}", None)
        for item in items:
            if isinstance(item, str):
                item = {"name": item}
            if not isinstance(item, dict) or set(item) - {"name", "arguments"}:
                raise fail("calls", "each call is {name: NAME, arguments: {...}}", None)
            if item.get("arguments") is not None and not isinstance(item["arguments"], dict):
                raise fail("calls", "a call's arguments must be a mapping", None)
            calls.append(ScriptCall(_name(item.get("name"), lambda m: fail("calls", m)), item.get("arguments")))
    text = values.get("text")
    if text is not None and not isinstance(text, str):
        raise fail("text", f"text must be a string, not {said('text')}", "quote it")
    for key in ("disobey", "broken_json", "redacted_thinking"):
        if key in values and not isinstance(values[key], bool):
            raise fail(key, f"{key} must be true or false", None)
    phantom = values.get("phantom")
    if phantom is not None:
        phantom = _name(phantom, lambda m: fail("phantom", m), fields["phantom"])
    status = values.get("status")
    if status is not None and (isinstance(status, bool) or not isinstance(status, int) or not 400 <= status <= 599):
        raise fail("status", f"status must be an HTTP error status 400-599, not {said('status')}", "e.g. status: 429")
    retry_after = values.get("retry_after")
    if retry_after is not None:
        if isinstance(retry_after, bool) or not isinstance(retry_after, (int, float)) or not 0 <= retry_after <= 3600:
            raise fail("retry_after", "retry_after must be seconds from 0 to 3600", None)
        if status is None:
            raise fail("retry_after", "retry_after goes with status:", "e.g. {status: 429, retry_after: 2}")
    message = values.get("message")
    if message is not None and (not isinstance(message, str) or status is None):
        raise fail("message", "message must be a string, beside status:", None)
    delay = values.get("delay_ms", 0)
    if isinstance(delay, bool) or not isinstance(delay, int) or not 0 <= delay <= MAX_DELAY_MS:
        raise fail("delay_ms", f"delay_ms must be a whole number of milliseconds from 0 to {MAX_DELAY_MS}", None)
    cut = values.get("cut_after")
    if cut is not None and (isinstance(cut, bool) or not isinstance(cut, int) or cut < 0):
        raise fail("cut_after", "cut_after must be a number of events from 0", None)
    if values.get("broken_json") and not calls and phantom is None:
        raise fail("broken_json", "broken_json needs a call: or phantom: whose arguments it breaks", None)
    if status is not None and (calls or text is not None or phantom or values.get("disobey") or choices
                               or values.get("redacted_thinking")):
        raise fail("status", "a fault status answers no calls or text", "put the fault in a reply of its own")
    return Step(tuple(calls), text, bool(values.get("disobey")), phantom, bool(values.get("broken_json")), status,
                float(retry_after) if retry_after is not None else None, message, delay, cut, loc.line, choices,
                bool(values.get("redacted_thinking")))


def _name(value: Any, fail: Any, node: Any = None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise fail(f"a tool name must be a non-empty string, not {_written(value, node)}")
    return value


def _written(value: Any, node: Any = None) -> str:
    """``value`` in the file's own words (YAML's and JSON's: ``true``, ``null``, ``"x"``, ``[1]``), not Python's
    (``True``, ``None``, ``'x'``): a plain scalar as written (``yes``, ``1_000``), the rest as JSON writes it, cut."""
    import json

    import yaml

    from ..bounded import cut

    if value is None:
        return "nothing" if node is None or node.value == "" else node.value
    if isinstance(node, yaml.ScalarNode) and node.style in (None, "") and node.value and "\n" not in node.value:
        return cut(node.value, 60)  # a plain scalar (libyaml's style "", PyYAML's None) as written
    return cut(json.dumps(value, ensure_ascii=False), 60)


def _arguments(values: dict[str, Any], key: str, fail: Any) -> dict[str, Any] | None:
    value = values.get(key)
    if value is not None and not isinstance(value, dict):
        raise fail(key, "arguments must be a mapping", "arguments: {city: Paris}")
    return value
