"""Every capability claim an official SDK's request types can decide, decided by them.

The conformance tests prove that what toolchoice SENDS is valid; this file proves what it DROPS or calls
unsupported. For each provider with an official Python SDK (pinned in pyproject's ``test`` extra) it reads
the SDK's request types and compares them with the provider's row in ``core/capabilities.py``:

- ``parallel``: the row calls parallel_tool_calls usable ⇔ the SDK's request type has the field;
- ``strict``: the row calls strict anything but unsupported ⇔ the SDK's tool type has the field;
- the tool_choice words: a usable choice whose wire is a word must be one of the SDK's tool_choice literals;
- ``named``: the row calls a named choice usable ⇔ the SDK's tool_choice has an object form.

A row may disagree with its SDK only through ``EXCEPTIONS`` below, each with the source that says the API
differs from its SDK's types (checked 2026-11-26). The expected values come from the SDK files, never from
the code under test; break one fact in the table (Fireworks strict unsupported again) and a test fails.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import typing
from typing import Any, Callable, NamedTuple

import pytest
import typing_extensions

from sdk_types import botocore_session, missing
from toolchoice.providers.core.capabilities import CAPABILITIES, Level


class SdkFacts(NamedTuple):
    parallel: bool  # the request type has parallel_tool_calls (or the provider's own parallel switch)
    strict: bool  # the tool type (or the request, for Cohere) has strict
    words: frozenset[str]  # the tool_choice string literals
    named: bool  # tool_choice has an object form naming one tool


def _load(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def fields(tp: Any) -> set[str]:
    """The field names a TypedDict, pydantic model or dataclass declares (aliases included)."""
    if typing_extensions.is_typeddict(tp):
        names: set[str] = set()
        for klass in tp.__mro__:  # TypedDict bases keep their own annotations
            names.update(getattr(klass, "__annotations__", {}))
        return names
    model_fields = getattr(tp, "model_fields", None)
    if model_fields is not None:
        return set(model_fields) | {f.alias for f in model_fields.values() if f.alias}
    if dataclasses.is_dataclass(tp):
        return {f.name for f in dataclasses.fields(tp)}
    raise TypeError(f"cannot read the fields of {tp!r}")


def annotation(tp: Any, field: str) -> Any:
    if typing_extensions.is_typeddict(tp):
        return typing_extensions.get_type_hints(tp)[field]
    model_fields = getattr(tp, "model_fields", None)
    if model_fields is not None:
        return model_fields[field].annotation
    return typing.get_type_hints(tp)[field]


def _members(tp: Any, seen: set[int] | None = None) -> list[Any]:
    """The leaves of a type: unions, Optional, Required/NotRequired, Annotated and type aliases unwrapped."""
    seen = seen if seen is not None else set()
    if id(tp) in seen:
        return []
    seen.add(id(tp))
    value = getattr(tp, "__value__", None)  # TypeAliasType
    if value is not None:
        return _members(value, seen)
    origin = typing_extensions.get_origin(tp)
    if origin in (typing.Union, typing_extensions.Required, typing_extensions.NotRequired, typing_extensions.Annotated) \
            or str(origin) in ("types.UnionType",):
        args = typing_extensions.get_args(tp)
        if origin is typing_extensions.Annotated:
            args = args[:1]
        return [leaf for arg in args for leaf in _members(arg, seen)]
    if isinstance(tp, str):  # a forward reference left unresolved
        return []
    return [tp]


ANY_WORD = "*"


def literals(tp: Any) -> frozenset[str]:
    words: set[str] = set()
    for leaf in _members(tp):
        if leaf is str:  # any word (together types tool_choice as str | ToolChoiceParam)
            words.add(ANY_WORD)
        elif typing_extensions.get_origin(leaf) is typing_extensions.Literal:
            words.update(a for a in typing_extensions.get_args(leaf) if isinstance(a, str))
        elif isinstance(leaf, type) and issubclass(leaf, enum.Enum):
            words.update(str(m.value) for m in leaf)
    return frozenset(words)


def has_object(tp: Any) -> bool:
    return any(isinstance(leaf, type) and (typing_extensions.is_typeddict(leaf) or hasattr(leaf, "model_fields")
                                           or dataclasses.is_dataclass(leaf)) for leaf in _members(tp))


def typed(request: str, tool: str, choice: str = "tool_choice", strict_in: str = "tool") -> Callable[[], SdkFacts]:
    """Facts read from a request type and a tool (function) type given as 'module:Name'."""
    def read() -> SdkFacts:
        params, function = _load(request), _load(tool)
        has_choice = choice in fields(params)
        tp = annotation(params, choice) if has_choice else None
        strict_owner = params if strict_in == "request" else function
        return SdkFacts("parallel_tool_calls" in fields(params), "strict" in fields(strict_owner),
                        literals(tp) if has_choice else frozenset(), has_object(tp) if has_choice else False)
    read.request = request  # type: ignore[attr-defined]  # the request type read (tests/test_native_choices.py)
    read.tool = tool  # type: ignore[attr-defined]  # the function type read (the tool-name rule)
    return read


def anthropic_facts() -> SdkFacts:
    choice = _load("anthropic.types.tool_choice_param:ToolChoiceParam")
    words: set[str] = set()
    for member in _members(choice):
        kind = literals(annotation(member, "type"))
        if fields(member) <= {"type", "disable_parallel_tool_use"}:
            words.update(kind)
    parallel = any("disable_parallel_tool_use" in fields(m) for m in _members(choice))
    named = any("name" in fields(m) for m in _members(choice))
    return SdkFacts(parallel, "strict" in fields(_load("anthropic.types.tool_param:ToolParam")), frozenset(words), named)


def cohere_facts() -> SdkFacts:
    import inspect

    chat = _load("cohere.v2.client:V2Client").chat
    params = inspect.signature(chat).parameters
    choice = typing.get_type_hints(chat)["tool_choice"]
    return SdkFacts("parallel_tool_calls" in params, "strict_tools" in params, literals(choice), has_object(choice))


def gemini_facts() -> SdkFacts:
    config = _load("google.genai.types:FunctionCallingConfig")
    mode = _load("google.genai.types:FunctionCallingConfigMode")
    words = frozenset(m.value for m in mode)
    return SdkFacts("parallel_tool_calls" in fields(_load("google.genai.types:GenerateContentConfig")),
                    "VALIDATED" in words, words, "allowed_function_names" in fields(config))


def bedrock_facts() -> SdkFacts:
    shapes = botocore_session().get_service_model("bedrock-runtime")
    converse = shapes.operation_model("Converse").input_shape
    choice = shapes.shape_for("ToolChoice")
    return SdkFacts("parallelToolCalls" in converse.members, "strict" in shapes.shape_for("ToolSpecification").members,
                    frozenset(choice.members) - {"tool"}, "tool" in choice.members)


def ollama_facts() -> SdkFacts:
    request = _load("ollama._types:ChatRequest")
    function = _load("ollama._types:Tool").Function
    return SdkFacts("parallel_tool_calls" in fields(request), "strict" in fields(function),
                    frozenset(), "tool_choice" in fields(request))


_CHAT = "types.chat.completion_create_params:CompletionCreateParamsBase"
SDKS: dict[str, tuple[str, Callable[[], SdkFacts]]] = {
    "openai": ("openai", typed("openai." + _CHAT,
                               "openai.types.shared_params.function_definition:FunctionDefinition")),
    "azure": ("openai", typed("openai." + _CHAT, "openai.types.shared_params.function_definition:FunctionDefinition")),
    "openai-responses": ("openai", typed("openai.types.responses.response_create_params:ResponseCreateParamsBase",
                                         "openai.types.responses.function_tool_param:FunctionToolParam")),
    "anthropic": ("anthropic", anthropic_facts),
    "gemini": ("google.genai", gemini_facts),
    "mistral": ("mistralai", typed("mistralai.client.models.chatcompletionrequest:ChatCompletionRequest",
                                   "mistralai.client.models.function:Function")),
    "groq": ("groq", typed("groq.types.chat.completion_create_params:CompletionCreateParams", "groq.types.shared_params.function_definition:FunctionDefinition")),
    "together": ("together", typed("together." + _CHAT, "together.types.tools_param:Function")),
    "fireworks": ("fireworks", typed("fireworks." + _CHAT, "fireworks.types.shared_params.chat_completion_tool:Function")),
    "cerebras": ("cerebras.cloud.sdk", typed("cerebras.cloud.sdk.types.chat.completion_create_params:CompletionCreateParams",
                                             "cerebras.cloud.sdk.types.chat.completion_create_params:ToolFunction")),
    "sambanova": ("sambanova", typed("sambanova.types.chat.completion_create_params:CompletionCreateParamsBase",
                                     "sambanova.types.chat.completion_create_params:ToolFunction")),
    "cohere": ("cohere", cohere_facts),
    "bedrock": ("botocore", bedrock_facts),
    "huggingface": ("huggingface_hub", typed(
        "huggingface_hub.inference._generated.types.chat_completion:ChatCompletionInput",
        "huggingface_hub.inference._generated.types.chat_completion:ChatCompletionInputFunctionDefinition")),
    "ollama": ("ollama", ollama_facts),
}

# Where a row rightly differs from its SDK's types: (provider, claim) -> the source that says the API differs.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("azure", "allowed"): "Azure/azure-rest-api-specs 2024-10-21 inference.yaml chatCompletionToolChoiceOption: 'oneOf: "
                          "type: string ... enum: none, auto, required' or chatCompletionNamedToolChoice (no allowed_tools; "
                          "openai-python's types are OpenAI's own API): fact azure.tool_choice_forms",
}

# A usable choice's wire word -> the claim name.
CHOICES = ("auto", "none", "required", "any")


def _row_claims(provider: str) -> dict[str, Any]:
    cap = CAPABILITIES[provider]
    words = {}
    for feature in CHOICES:
        support = cap.feature(feature)
        if support.usable and support.wire.startswith('"'):
            words[feature] = support.wire.strip('"')
    return {"parallel": cap.parallel.usable, "strict": cap.strict.level is not Level.UNSUPPORTED,
            "named": cap.named.usable, "words": words}


CASES = sorted(SDKS)


@pytest.mark.parametrize("provider", CASES)
def test_the_row_says_what_the_sdk_types_say(provider: str) -> None:
    package, read = SDKS[provider]
    if missing(package):
        pytest.skip(f"{package} is not installed (pip install -e '.[test]')")
    sdk, row = read(), _row_claims(provider)
    problems = []
    for claim in ("parallel", "strict", "named"):
        if (provider, claim) in EXCEPTIONS:  # a documented exception must still be one
            assert row[claim] != getattr(sdk, claim), f"{provider} {claim}: the exception is stale, remove it"
        elif row[claim] != getattr(sdk, claim):
            problems.append(f"{claim}: the row says {'usable' if row[claim] else 'unsupported'}, the SDK types "
                            f"{'have' if getattr(sdk, claim) else 'lack'} it")
    for feature in ("none", "required"):  # a choice called unusable whose word the SDK types list
        cap_word = {w.lower() for w in sdk.words}
        if not CAPABILITIES[provider].feature(feature).usable and feature in cap_word \
                and (provider, feature) not in EXCEPTIONS:
            problems.append(f"{feature}: the row says unusable, the SDK's tool_choice lists {feature!r}")
    for feature, word in row["words"].items():
        if word not in sdk.words and ANY_WORD not in sdk.words and (provider, feature) not in EXCEPTIONS:
            problems.append(f"{feature}: the row sends {word!r}, not one of the SDK's words {sorted(sdk.words)}")
    assert not problems, f"{provider}: " + "; ".join(problems)


def test_a_broken_fact_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fireworks strict marked unsupported again (as it was until 2026-11-26) is caught."""
    if missing("fireworks"):
        pytest.skip("fireworks-ai is not installed")
    from toolchoice.providers.core import capabilities

    broken = CAPABILITIES["fireworks"].with_feature("strict", capabilities.Support(Level.UNSUPPORTED))
    monkeypatch.setitem(CAPABILITIES, "fireworks", broken)
    with pytest.raises(AssertionError, match="strict: the row says unsupported, the SDK types have it"):
        test_the_row_says_what_the_sdk_types_say("fireworks")


def test_the_reader_reads_the_sdk_forms() -> None:
    """The type readers against small types written here (not against the code under test)."""
    class Fn(typing_extensions.TypedDict, total=False):
        name: typing_extensions.Required[str]
        strict: bool

    class Named(typing_extensions.TypedDict):
        type: typing_extensions.Literal["function"]

    choice = typing.Optional[typing.Union[typing_extensions.Literal["auto", "none"], Named]]
    assert fields(Fn) == {"name", "strict"}
    assert literals(choice) == {"auto", "none"} and has_object(choice)
    assert not has_object(typing_extensions.Literal["auto"])
    assert literals(typing.Union[str, Named]) == {ANY_WORD}


# ---- end-of-life dates held to the SDKs that publish them -------------------------------------------------

def _openai_shutdowns() -> dict[str, str]:
    """model id -> shutdown date, from openai's ChatModel 'Deprecated values' docstring."""
    import re
    from pathlib import Path

    import openai.types.shared.chat_model as chat_model

    text = Path(chat_model.__file__).read_text(encoding="utf-8")
    block = text[text.index('"""Deprecated values:'):]
    dates: dict[str, str] = {}
    for item in re.split(r"\n- ", block)[1:]:
        found = re.search(r"Announced shutdown\s+date:\s+(\d{4}-\d{2}-\d{2})", item)
        if found:
            for model in re.findall(r'"([^"]+)"', item.split("Announced")[0]):
                dates[model] = found.group(1)
    return dates


@pytest.mark.skipif(missing("openai"), reason="needs openai")
def test_openai_end_of_life_dates_are_the_sdks() -> None:
    from toolchoice.providers.core.model_rules import END_OF_LIFE, retiring

    sdk = _openai_shutdowns()
    assert sdk.get("gpt-4o-mini") == "2027-01-14"  # the reader reads the docstring
    ours = [e for e in END_OF_LIFE if "openai" in e.providers]
    assert ours
    for entry in ours:  # every listed date is the SDK's, and every SDK id with that date is listed
        listed = {m for m, d in sdk.items() if d == entry.date}
        for model in listed:
            assert retiring("openai", model) is not None and retiring("openai", model).date == entry.date, model
        for model in sdk:
            if retiring("openai", model) is entry:
                assert sdk[model] == entry.date, model


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_anthropic_end_of_life_dates_are_the_sdks() -> None:
    import datetime
    import re

    from anthropic._data.deprecated_models import DEPRECATED_MODELS
    from toolchoice.providers.core.model_rules import retiring

    for model, when in DEPRECATED_MODELS.items():
        day = datetime.datetime.strptime(re.sub(r"(\d+)(st|nd|rd|th)", r"\1", when), "%B %d, %Y").date()
        entry = retiring("anthropic", model)
        assert entry is not None and entry.date == day.isoformat(), (model, when)


# ---- tool names: refused only where the provider's own types state the rule --------------------------------------

# OpenAI's words for a function's name (openai types/shared_params/function_definition.py); a host's SDK that states
# the rule carries them in its own function type's name field (a length bound only with "maximum length").
_NAME_RULE_WORDS = "Must be a-z, A-Z, 0-9, or contain underscores and dashes"


def _name_rule_stated(tool_type: str) -> tuple[bool, bool]:
    """(the characters rule, the 64 bound): read from the SDK function type's source, the name field's docstring."""
    import inspect
    import re

    source = inspect.getsource(_load(tool_type))
    found = re.search(r'\n\s+name: [^\n]*\n\s+"""(.*?)"""', source, re.S)
    words = " ".join(found.group(1).split()) if found else ""
    return _NAME_RULE_WORDS in words, "maximum length of 64" in words


_CHAT_HOST_SDKS = sorted(p for p in SDKS if CAPABILITIES[p].module == "openai_chat")
# Where the API states the rule and its SDK's type does not: provider -> the source (checked 2026-11-26).
NAME_EXCEPTIONS: dict[str, str] = {
    "mistral": "Mistral's OpenAPI spec (mistral-rouille 1.1.4, 'customized from Mistral's official OpenAPI "
               "specification'): 'Must be a-z,A-Z,0-9 or contain underscores and dashes, with a maximum length of 64.'",
}


@pytest.mark.parametrize("provider", _CHAT_HOST_SDKS)
def test_a_tool_name_is_refused_only_where_the_sdk_states_the_rule(provider: str) -> None:
    """'get.weather' (BFCL-style) and a 65-character name: refused exactly where the host's SDK function type states
    OpenAI's rule (and its bound); elsewhere sent as written with a warning, never refused on OpenAI's word."""
    package, read = SDKS[provider]
    if missing(package):
        pytest.skip(f"{package} is not installed")
    from toolchoice.providers import RenderOptions, load_scenario_text
    from toolchoice.providers.core.registry import translate

    chars, bound = _name_rule_stated(read.tool)  # type: ignore[attr-defined]
    if provider in NAME_EXCEPTIONS:
        assert not chars, f"{provider}: the SDK now states the rule: remove the exception"
        chars = bound = True
    for name, stated in (("get.weather", chars), ("x" * 65, bound)):
        scenario = load_scenario_text(f"tools:\n  - {{name: '{name}'}}\ntool_choice: auto\n"
                                      "messages:\n  - {role: user, content: hi}\n")
        t = translate(provider, scenario, RenderOptions())
        entries = [e for e in t.ledger if e.code in ("tool.name_invalid", "tool.name_unstated")]
        assert (t.request is None) == stated, (provider, name, [e.message for e in entries])
        assert [e.code for e in entries] == ["tool.name_invalid" if stated else "tool.name_unstated"], provider


def test_the_name_rule_reader_reads_the_sdks() -> None:
    """The reader against SDK files read by hand (2026-11-26): openai and groq state the rule and its bound, sambanova
    the rule alone ('Must be a-z, A-Z, 0-9, or contain underscores and dashes.'), huggingface_hub nothing."""
    for package, tool_type, expected in (
            ("openai", "openai.types.shared_params.function_definition:FunctionDefinition", (True, True)),
            ("groq", "groq.types.shared_params.function_definition:FunctionDefinition", (True, True)),
            ("sambanova", "sambanova.types.chat.completion_create_params:ToolFunction", (True, False)),
            ("together", "together.types.tools_param:Function", (False, False))):
        if missing(package):
            continue
        assert _name_rule_stated(tool_type) == expected, tool_type


# ---- the allowed-tools subset: native only where the SDK's tool_choice has an allowed form ------------------------

def _sdk_allowed(provider: str) -> bool:
    """Whether the SDK's request types carry an allowed-subset choice: a tool_choice member with allowed_tools (or a
    type literal 'allowed_tools'), Gemini's allowed_function_names; Anthropic's, Cohere's, Bedrock's and Ollama's
    choices are read field by field."""
    package, read = SDKS[provider]
    if provider == "gemini":
        return "allowed_function_names" in fields(_load("google.genai.types:FunctionCallingConfig"))
    if provider == "anthropic":
        return any("allowed" in " ".join(fields(m)) for m in _members(_load("anthropic.types.tool_choice_param:ToolChoiceParam")))
    if provider == "cohere":
        return False  # V2ChatRequestToolChoice = Literal['REQUIRED', 'NONE'] (cohere_facts reads it: no object form)
    if provider == "bedrock":
        return bool({"allowed", "allowedTools"} & set(botocore_session().get_service_model("bedrock-runtime")
                                                       .shape_for("ToolChoice").members))
    if provider == "ollama":
        return False  # ChatRequest has no tool_choice at all (ollama_facts)
    params = _load(read.request)  # type: ignore[attr-defined]
    if "tool_choice" not in fields(params):
        return False
    for leaf in _members(annotation(params, "tool_choice")):
        if isinstance(leaf, type) and (typing_extensions.is_typeddict(leaf) or hasattr(leaf, "model_fields")):
            names = fields(leaf)
            kind = literals(annotation(leaf, "type")) if "type" in names else frozenset()
            if "allowed_tools" in names or "allowed_tools" in kind:
                return True
    return False


@pytest.mark.parametrize("provider", CASES)
def test_an_allowed_subset_is_native_only_where_the_sdk_has_the_form(provider: str) -> None:
    package, _ = SDKS[provider]
    if missing(package):
        pytest.skip(f"{package} is not installed")
    native = CAPABILITIES[provider].allowed.usable
    if (provider, "allowed") in EXCEPTIONS:  # a documented exception must still be one
        assert native != _sdk_allowed(provider), f"{provider} allowed: the exception is stale, remove it"
        return
    assert native == _sdk_allowed(provider), (
        f"{provider}: the row calls the allowed subset {'native' if native else 'emulated'}, the SDK's tool_choice "
        f"{'has' if not native else 'lacks'} an allowed form")


@pytest.mark.skipif(missing("anthropic"), reason="needs anthropic")
def test_a_named_choice_gives_one_call_only_with_the_switch() -> None:
    """anthropic types/tool_choice_tool_param.py: disable_parallel_tool_use 'Defaults to `false`. If set to `true`, the
    model will output exactly one tool use.' So a named choice sent without it may return more than one tool use: the
    row must not call a named choice single-call (that silenced pitfall.named_parallel on Anthropic until 2026-11-26)."""
    import inspect

    source = " ".join(inspect.getsource(_load("anthropic.types.tool_choice_tool_param:ToolChoiceToolParam")).split())
    assert "Defaults to `false`. If set to `true`, the model will output exactly one tool use." in source
    assert not CAPABILITIES["anthropic"].named_single_call
    assert not CAPABILITIES["bedrock"].named_single_call  # the same models on Converse, which has no switch at all


# ---- the newer per-tool fields a module sends (TOOL_FIELDS) are its SDK tool type's ---------------------------------

_BASE_TOOL_KEYS = {"name", "description", "parameters", "input_schema", "strict", "type"}
# SDK fields a module does not take, each with why (checked 2026-11-26); a scenario's tool naming one is refused
# as an unknown key, never sent unchecked nor silently dropped.
# (Responses' async, undocumented, is sent as the user wrote it since 2026-11-26, as the SDK type allows.) The
# scenario still reads such a field; the translator drops it with the why (the module's TOOL_FIELDS_UNSENT).
NOT_TAKEN: dict[tuple[str, str], str] = {
    ("gemini", "behavior"): "google-genai 3.6.1 types.py FunctionDeclaration.behavior: 'This field is currently only "
                            "supported by the BidiGenerateContent method.' (toolchoice sends generateContent)",
}
# The SDK's own spellings of fields the wire spells otherwise (Gemini's REST API is camelCase).
_SDK_SPELLINGS = {"parameters_json_schema": "parameters"}  # Gemini: toolchoice sends its own JSON Schema there


@pytest.mark.parametrize("provider, tool_type", [
    ("anthropic", "anthropic.types.tool_param:ToolParam"),
    ("openai-responses", "openai.types.responses.function_tool_param:FunctionToolParam"),
    ("openai", "openai.types.shared_params.function_definition:FunctionDefinition"),
    ("gemini", "google.genai.types:FunctionDeclaration"),
])
def test_tool_fields_are_the_sdk_tool_types(provider: str, tool_type: str) -> None:
    package = tool_type.partition(".")[0]
    if missing(package):
        pytest.skip(f"{package} is not installed")
    from toolchoice.providers.core.facts import fact
    from toolchoice.providers.core.registry import module_for

    sdk = {_SDK_SPELLINGS.get(key, key) for key in fields(_load(tool_type))} - _BASE_TOOL_KEYS
    sdk = {key for key in sdk if not any(c.isupper() for c in key)}  # pydantic aliases (camelCase) of the same
    taken = set(module_for(provider).TOOL_FIELDS)
    skipped = {key for (p, key) in NOT_TAKEN if p == provider}
    assert taken == sdk - skipped, f"{provider}: TOOL_FIELDS {sorted(taken)}, the SDK's tool type {sorted(sdk)}"
    assert skipped <= sdk, f"{provider}: a NOT_TAKEN field is gone from the SDK: remove it"
    assert skipped == set(getattr(module_for(provider), "TOOL_FIELDS_UNSENT", {}))  # dropped with the why
    if sdk:
        statement = fact(f"{provider}.tool_fields").statement  # the dated fact names every field the SDK has
        assert all(key in statement for key in sdk), (provider, sorted(sdk), statement)


def test_bedrock_tool_specification_has_no_per_tool_field_beyond_the_base() -> None:
    """botocore 1.44.8 bedrock-runtime ToolSpecification: name, description, inputSchema, strict; so a scenario
    tool's per-tool fields are all dropped there with tool.field_dropped (bedrock's TOOL_FIELDS is empty)."""
    if missing("botocore"):
        pytest.skip("botocore is not installed")
    from toolchoice.providers.core.registry import module_for

    members = set(botocore_session().get_service_model("bedrock-runtime").shape_for("ToolSpecification").members)
    assert members == {"name", "description", "inputSchema", "strict"}
    assert tuple(getattr(module_for("bedrock"), "TOOL_FIELDS", ())) == ()


@pytest.mark.parametrize("provider, tool_type", [
    ("openai-responses", "openai.types.responses.custom_tool_param:CustomToolParam"),
    ("openai", "openai.types.chat.chat_completion_custom_tool_param:Custom"),
])
def test_custom_tool_fields_are_the_sdk_custom_tool_types(provider: str, tool_type: str) -> None:
    """A custom tool's per-tool fields (the module's CUSTOM_TOOL_FIELDS) are its SDK custom-tool type's fields
    beyond name, description, format and type; the scenario reads every one some family's custom tool has."""
    if missing("openai"):
        pytest.skip("openai is not installed")
    from toolchoice.providers.core.model import CUSTOM_TOOL_FIELDS
    from toolchoice.providers.core.registry import family_modules, module_for
    from toolchoice.providers.core.scenario import CUSTOM_TOOL_KEYS

    sdk = fields(_load(tool_type)) - set(CUSTOM_TOOL_KEYS) - {"type"}
    assert set(getattr(module_for(provider), "CUSTOM_TOOL_FIELDS", ())) == sdk, (provider, sorted(sdk))
    union = {key for module in family_modules() for key in getattr(module, "CUSTOM_TOOL_FIELDS", ())}
    assert set(CUSTOM_TOOL_FIELDS) == union
