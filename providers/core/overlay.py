"""Reading a capability overlay file (written by `toolchoice probe --save`) onto the built-in table.

The file is read as a scenario is (``yaml_input``: bounded, duplicate keys refused, every value with its line),
so a hand edit that breaks it is one line naming the file, the line and what to write instead."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .capabilities import Capability
from .model import ToolchoiceError
from .probe import RESULTS, apply_overlay

_RESULTS = tuple(r for r in RESULTS if r != "not asked")  # what probe writes: measured answers, and the unmeasured
# the question features probe records (probe.questions_for): a key outside them is a typo, not a fact
FEATURE_IDS = ("unset", "auto", "none", "required", "any", "named", "named_emulated", "allowed", "parallel", "history",
               "truncation")
_KEYS = ("toolchoice_capabilities", "provider", "endpoint", "model", "measured_at", "samples_per_question", "features")
_SAVED = "toolchoice probe --save FILE"  # the command line's: a Python caller saves jobs.probe's overlay (_python)
_HINT = f"write one with {_SAVED}"


def load_overlay(path: Path, capabilities: dict[str, Capability]) -> dict[str, Capability]:
    """The table with the file's measured facts applied to its provider. Bad files are exit-2 errors, whose hint
    says how to write one in a Python caller's words (``json.dump(jobs.probe(...)["overlay"], file)``); the command
    line draws its own from their record (``names``: ``probe.save``, its ``toolchoice probe --save FILE``)."""
    try:
        return _load(path, capabilities)
    except ToolchoiceError as exc:
        raise _python(exc) from None


def _python(error: ToolchoiceError) -> ToolchoiceError:
    """``error`` with the hint's ``toolchoice probe --save FILE`` as a Python caller writes an overlay, and the record
    the command line spells it back from (``errors.ToolchoiceError.spelled``)."""
    if error.names or not error.hint or _SAVED not in error.hint:
        return error
    before, _, after = error.hint.partition(_SAVED)
    error.hint_parts, error.names = (before, after), ("probe.save",)
    error.hint = f'{before}json.dump(jobs.probe(...)["overlay"], file){after}'
    error.args = (error.one_line(),)
    return error


def _load(path: Path, capabilities: dict[str, Capability]) -> dict[str, Capability]:
    name = str(path)
    from .bounded import TooDeep, json_value, read_file
    from .yaml_input import composed, decoded_text, json_problem

    if not Path(path).exists():
        raise ToolchoiceError(f"{name}: no such capability file", hint=_HINT)
    try:
        text = decoded_text(read_file(path, "capability"), name, "capability overlay")
        json_value(text)  # an overlay is JSON, bounded in depth (then read again below, for the lines)
    except TooDeep as exc:  # named with its limit, as every bound's refusal is (docs/limits.md)
        raise ToolchoiceError(f"{name}: not a capability overlay: {exc}", hint=_HINT) from None
    except OSError as exc:
        raise ToolchoiceError(f"{name}: cannot read the capability overlay: {exc.strerror or exc}") from None
    except ValueError as exc:
        problem = json_problem(text, name, json_only=True)
        if problem is not None:  # where the JSON stops reading, and what to write there
            raise ToolchoiceError(f"not a capability overlay: {problem.message}", path=name, line=problem.line,
                                  column=problem.column, hint=f"{problem.hint}; or {_HINT}") from None
        raise ToolchoiceError(f"{name}: not a capability overlay (JSON): {exc}", hint=_HINT) from None
    try:
        with composed(text, name) as (r, root):
            document = _document(r, root, capabilities)
    except ToolchoiceError as exc:
        if exc.message.startswith("invalid YAML"):  # an overlay is JSON: say what the file should be
            raise ToolchoiceError(f"not a capability overlay (JSON): {exc.message}", path=exc.path, line=exc.line,
                                  column=exc.column, hint=_HINT) from None
        raise
    table = dict(capabilities)
    table[document["provider"]] = apply_overlay(capabilities[document["provider"]], document)
    return table


def _document(r: Any, root: Any, capabilities: dict[str, Capability]) -> dict[str, Any]:
    """The overlay document as plain data, each field checked where it is written."""
    import yaml

    from .yaml_input import show

    if not isinstance(root, yaml.MappingNode):
        where = r.loc(root) if root is not None else None
        message = "not a capability overlay: it holds no JSON object (no toolchoice_capabilities: 1)"
        raise where.fail(message, _HINT) if where else ToolchoiceError(message, path=r.path, line=1, hint=_HINT)
    fields = r.mapping(root, "a capability overlay")
    version = fields.get("toolchoice_capabilities")
    if version is None or r.value(version) != 1 or isinstance(r.value(version), bool):
        where = r.loc(version if version is not None else root)
        raise where.fail("not a toolchoice capability overlay (no toolchoice_capabilities: 1)", _HINT)
    for key_node, _ in root.value:
        if key_node.value not in _KEYS:
            raise r.loc(key_node).fail(f"unknown key '{key_node.value}' in a capability overlay",
                                       f"its keys are {', '.join(_KEYS)}")
    document: dict[str, Any] = {"toolchoice_capabilities": 1}
    for key in ("provider", "endpoint", "measured_at"):
        if key not in fields:
            raise r.loc(root).fail(f"the capability overlay has no {key}", _HINT)
        document[key] = r.string(fields[key], key)
    if document["provider"] not in capabilities:
        raise r.loc(fields["provider"]).fail(f"unknown provider {document['provider']!r} in the overlay",
                                             "toolchoice providers lists the ids")
    if not document["endpoint"].lower().startswith(("http://", "https://")):
        raise r.loc(fields["endpoint"]).fail(
            f"endpoint must be the URL the answers were measured at (http:// or https://), not "
            f"{show(document['endpoint'])}", "the overlay applies only to requests sent to that URL")
    if "model" in fields:
        model = r.value(fields["model"])
        if model is not None and not isinstance(model, str):
            raise r.loc(fields["model"]).fail(f"model must be a string, not {show(model)}", None)
        document["model"] = model
    if "samples_per_question" in fields:
        samples = r.value(fields["samples_per_question"])
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise r.loc(fields["samples_per_question"]).fail(
                f"samples_per_question must be a whole number of at least 1, not {show(samples)}", None)
        document["samples_per_question"] = samples
    if "features" not in fields:
        raise r.loc(root).fail("the capability overlay has no features", _HINT)
    document["features"] = _features(r, fields["features"])
    return document


def _features(r: Any, node: Any) -> dict[str, dict[str, str]]:
    from .choice import did_you_mean
    from .yaml_input import show

    features: dict[str, dict[str, str]] = {}
    for feature, entry in r.mapping(node, "features").items():
        if feature not in FEATURE_IDS:
            where = next(k for k, _ in node.value if k.value == feature)
            raise r.loc(where).fail(f"unknown feature '{feature}' in the overlay's features",
                                    did_you_mean(feature, FEATURE_IDS) or f"probe measures {', '.join(FEATURE_IDS)}")
        values = r.mapping(entry, f"features.{feature}", ("result", "question", "evidence"))
        if "result" not in values:
            raise r.loc(entry).fail(f"features.{feature} has no result", f"result: one of {'|'.join(_RESULTS)}")
        result = r.value(values["result"])
        if result not in _RESULTS:
            raise r.loc(values["result"]).fail(
                f"features.{feature}.result must be a measured result ({'|'.join(_RESULTS)}), not {show(result)}",
                "an overlay states what probe measured, not a support level (native, emulated, unsupported)")
        features[feature] = {"result": result}
        for key in ("question", "evidence"):
            if key in values:
                features[feature][key] = r.string(values[key], f"features.{feature}.{key}", empty_ok=True)
    return features
