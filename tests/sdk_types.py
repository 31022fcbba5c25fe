"""A strict checker of JSON values against an official SDK's TypedDict request types.

The SDKs' TypedDicts (openai, anthropic) are what their clients accept; they do not refuse unknown
keys at run time. ``check(value, SomeParams)`` walks the annotations and reports every key the type
does not declare, every missing Required key and every value outside its Literal/base type, with
the JSON path. Only the typing forms the SDK type files use are understood; anything else fails
loudly so that a checker gap can never pass silently.
"""

from __future__ import annotations

import collections.abc
import functools
import typing
from typing import Any

import typing_extensions


def missing(*packages: str) -> bool:
    """Whether any of ``packages`` is not installed, found without importing it (the SDKs take up to ~1 s to
    import; tests import them when they run, and a skip mark reads this at collection)."""
    from importlib.util import find_spec

    try:
        return any(find_spec(name) is None for name in packages)
    except ModuleNotFoundError:  # a dotted name whose parent package is missing
        return True


@functools.cache
def botocore_session() -> Any:
    """One botocore session per process: a new session re-reads the service models' JSON (~30 ms a time) that
    this one's loader has cached."""
    import botocore.session

    return botocore.session.get_session()


@functools.cache
def converse_input_shape() -> Any:
    """botocore's bedrock-runtime ``Converse`` input shape, for ``botocore.validate.ParamValidator``."""
    return botocore_session().get_service_model("bedrock-runtime").operation_model("Converse").input_shape


_ORIGINS_LIST = (list, collections.abc.Iterable, collections.abc.Sequence, collections.abc.Collection,
                 collections.abc.MutableSequence)
_HINTS: dict[Any, dict[str, Any]] = {}


def _strip(tp: Any) -> tuple[Any, bool | None]:
    """(the bare type, True for Required / False for NotRequired / None for neither)."""
    origin = typing_extensions.get_origin(tp)
    if origin in (typing_extensions.Required, typing.Required if hasattr(typing, "Required") else None):
        return typing_extensions.get_args(tp)[0], True
    if origin in (typing_extensions.NotRequired, typing.NotRequired if hasattr(typing, "NotRequired") else None):
        return typing_extensions.get_args(tp)[0], False
    if origin is typing_extensions.Annotated:
        return _strip(typing_extensions.get_args(tp)[0])
    return tp, None


def _hints(td: Any) -> dict[str, Any]:
    found = _HINTS.get(td)
    if found is None:
        found = _HINTS[td] = typing_extensions.get_type_hints(td, include_extras=True)
    return found


def is_typeddict(tp: Any) -> bool:
    return typing_extensions.is_typeddict(tp)


def check(value: Any, tp: Any, path: str = "$") -> list[str]:
    """Every way ``value`` breaks ``tp`` (empty: it conforms)."""
    tp, _ = _strip(tp)
    if tp is Any or tp is object:
        return []
    if isinstance(tp, typing.TypeVar):
        return []
    if tp is type(None):
        return [] if value is None else [f"{path}: expected null, got {type(value).__name__}"]
    if is_typeddict(tp):
        return _check_typeddict(value, tp, path)
    origin = typing_extensions.get_origin(tp)
    args = typing_extensions.get_args(tp)
    if origin is typing.Union or (origin is not None and str(origin) == "<class 'types.UnionType'>"):
        return _check_union(value, args, path)
    if origin is typing_extensions.Literal or origin is typing.Literal:
        return [] if value in args and type(value) in {type(a) for a in args} else [
            f"{path}: {value!r} is not one of {list(args)}"]
    if tp is str:
        return [] if isinstance(value, str) else [f"{path}: expected a string, got {type(value).__name__}"]
    if tp is bool:
        return [] if isinstance(value, bool) else [f"{path}: expected a boolean, got {type(value).__name__}"]
    if tp is int:
        return [] if isinstance(value, int) and not isinstance(value, bool) else [f"{path}: expected an integer"]
    if tp is float:
        return [] if isinstance(value, (int, float)) and not isinstance(value, bool) else [f"{path}: expected a number"]
    if origin in (dict, collections.abc.Mapping) or tp in (dict, typing.Dict):
        if not isinstance(value, dict):
            return [f"{path}: expected an object, got {type(value).__name__}"]
        if not args:
            return []
        out: list[str] = []
        for k, v in value.items():
            out += check(k, args[0], f"{path}.<key>") + check(v, args[1], f"{path}.{k}")
        return out
    if origin in _ORIGINS_LIST or tp in (list, typing.List):
        if not isinstance(value, list):
            return [f"{path}: expected an array, got {type(value).__name__}"]
        out = []
        for i, item in enumerate(value):
            out += check(item, args[0] if args else Any, f"{path}[{i}]")
        return out
    if getattr(tp, "__name__", "") == "SequenceNotStr":
        return check(value, typing.List[args[0]] if args else list, path)
    if origin is not None and getattr(origin, "__name__", "") == "SequenceNotStr":
        if not isinstance(value, list):
            return [f"{path}: expected an array"]
        return [e for i, item in enumerate(value) for e in check(item, args[0], f"{path}[{i}]")]
    if isinstance(tp, type) and tp.__module__.startswith(("openai", "anthropic")):
        # pydantic models / other classes in a param type: a JSON value never is one
        return [f"{path}: a {tp.__name__} object is not JSON"]
    raise TypeError(f"{path}: the checker does not understand {tp!r}")


def _check_union(value: Any, args: tuple[Any, ...], path: str) -> list[str]:
    attempts = []
    for arg in args:
        problems = check(value, arg, path)
        if not problems:
            return []
        attempts.append(problems)
    # report the closest alternative: the one with the fewest problems
    best = min(attempts, key=len)
    return best if len(attempts) == 1 else [f"{path}: matches no alternative; closest: " + "; ".join(best[:4])]


def _check_typeddict(value: Any, td: Any, path: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{path}: expected an object ({td.__name__}), got {type(value).__name__}"]
    hints = _hints(td)
    required = set(getattr(td, "__required_keys__", ()))
    out: list[str] = []
    for key in value:
        if key not in hints:
            out.append(f"{path}: unknown key '{key}' ({td.__name__} has {', '.join(sorted(hints))})")
    for key in required:
        if key not in value:
            out.append(f"{path}: missing required key '{key}' ({td.__name__})")
    for key, item in value.items():
        if key in hints:
            out += check(item, hints[key], f"{path}.{key}")
    return out


# The REST body's top-level fields and the google-genai model each one is (GenerateContentRequest in
# ai.google.dev/api/generate-content; google-genai 3.4.0 types.py).
def _gemini_models() -> dict[str, Any]:
    from google.genai import types

    return {"contents": types.Content, "tools": types.Tool, "toolConfig": types.ToolConfig,
            "systemInstruction": types.Content, "generationConfig": types.GenerationConfig}


def gemini_body_problems(body: dict[str, Any]) -> list[str]:
    """What google-genai's pydantic models find wrong in a generateContent REST body, one line each."""
    import pydantic

    models = _gemini_models()
    problems = [f"$: unknown key '{k}'" for k in body if k not in models]
    for key, model in models.items():
        if key not in body:
            continue
        values = body[key] if key in ("contents", "tools") else [body[key]]
        if not isinstance(values, list):
            problems.append(f"$.{key}: expected an array")
            continue
        for i, value in enumerate(values):
            try:
                model.model_validate(value)
            except pydantic.ValidationError as exc:
                problems += [f"$.{key}[{i}].{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
    return problems


# ---- one field of a request type, by its JSON path ------------------------------------------------------------


def _bare(tp: Any) -> Any:
    while typing_extensions.get_origin(tp) in (typing_extensions.Required, typing_extensions.NotRequired,
                                               typing_extensions.Annotated):
        tp = typing_extensions.get_args(tp)[0]
    return tp


def _members(tp: Any) -> list[Any]:
    tp = _bare(tp)
    origin = typing_extensions.get_origin(tp)
    if origin is typing.Union or str(origin) == "<class 'types.UnionType'>":
        return [m for arg in typing_extensions.get_args(tp) for m in _members(arg)]
    return [tp]


def sdk_field(root: Any, path: list[str]) -> list[Any]:
    """The types the SDK's request TypedDict ``root`` declares at ``path`` (through unions: every member that has the
    next key); empty where no member declares it."""
    found = [root]
    for key in path:
        found = [typing_extensions.get_type_hints(td, include_extras=True)[key] for tp in found for td in _members(tp)
                 if typing_extensions.is_typeddict(td) and key in typing_extensions.get_type_hints(td)]
    return found


def held_by_sdk(root: Any, path: list[str], value: Any) -> None:
    """``path`` is a field of the SDK's request type, and ``value`` (what the body holds there) is one of its values."""
    fields = sdk_field(root, path)
    assert fields, f"{root.__name__} has no field at {path}"
    assert any(not check(value, tp) for tp in fields), [check(value, tp) for tp in fields]
