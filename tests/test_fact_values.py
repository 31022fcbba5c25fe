"""The typed values the dated facts state (core/fact_values.py), which the mock and the translators act on, held to
the official SDKs' own types where an SDK can decide them: the expected words and numbers are read from the installed
SDKs here (typing.get_args of their aliases, their docstrings), never from the code under test. Where no SDK decides
(Together types a string as ``str``; xAI, OpenRouter and llama-server are not in the test extra), the test says so."""

from __future__ import annotations

import importlib
import inspect
import json
import re
import typing
from typing import Any

import pytest

from sdk_types import missing
from toolchoice.providers.core.capabilities import CAPABILITIES
from toolchoice.providers.core.fact_values import (ChoiceCount, ChoiceWords, NamedModels, NameRule, RefusalWords,
                                                  VersionRemoves, refusals)
from toolchoice.providers.core.facts import FACTS, choice_words

_OPENAI_CHAT = ("openai", "openai.types.chat.chat_completion_tool_choice_option_param",
                "ChatCompletionToolChoiceOptionParam")

# provider -> (the SDK's import name, its module, the alias its tool_choice is typed as)
SDK_CHOICE_TYPES = {
    "openai": _OPENAI_CHAT,
    "openai-responses": ("openai", "openai.types.responses.tool_choice_options", "ToolChoiceOptions"),
    # openai 3.57.0 lib/azure.py: AzureOpenAI is OpenAI's client on another base URL, with OpenAI's request types
    "azure": _OPENAI_CHAT,
    # fact deepseek.tool_choice_words: no DeepSeek source lists them; the mock reads OpenAI's
    "deepseek": _OPENAI_CHAT,
    "groq": ("groq", "groq.types.chat.chat_completion_tool_choice_option_param", "ChatCompletionToolChoiceOptionParam"),
    "mistral": ("mistralai", "mistralai.client.models.toolchoiceenum", "ToolChoiceEnum"),
    "fireworks": ("fireworks", "fireworks.types.chat.completion_create_params", "ToolChoice"),
    "cerebras": ("cerebras.cloud.sdk", "cerebras.cloud.sdk.types.chat.completion_create_params", "ToolChoice"),
    "sambanova": ("sambanova", "sambanova.types.chat.completion_create_params", "ToolChoice"),
    "huggingface": ("huggingface_hub", "huggingface_hub.inference._generated.types.chat_completion",
                    "ChatCompletionInputToolChoiceEnum"),
    "cohere": ("cohere", "cohere.v2.types.v2chat_request_tool_choice", "V2ChatRequestToolChoice"),
}


def _members(alias: Any) -> tuple[Any, ...]:
    return typing.get_args(alias) if typing.get_origin(alias) is typing.Union else (alias,)


def _literal_words(alias: Any) -> list[str]:
    return [w for member in _members(alias) if typing.get_origin(member) is typing.Literal
            for w in typing.get_args(member)]


def _open(alias: Any) -> bool:
    """The type lets any string through: a member that is str, a subclass of it (mistralai's UnrecognizedStr) or Any."""
    return any(member is typing.Any or (isinstance(member, type) and issubclass(member, str))
               for member in _members(alias))


def _sdk_alias(provider: str) -> Any:
    package, module, name = SDK_CHOICE_TYPES[provider]
    if missing(package):
        pytest.skip(f"needs {package}")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("provider", sorted(SDK_CHOICE_TYPES))
def test_the_tool_choice_words_are_the_sdk_literals(provider: str) -> None:
    alias = _sdk_alias(provider)
    stated = choice_words(provider)
    assert stated is not None, f"{provider}: no fact states its tool_choice words"
    words = stated[1].words
    assert len(set(words)) == len(words) and set(words) == set(_literal_words(alias))


@pytest.mark.parametrize("provider", sorted(SDK_CHOICE_TYPES))
def test_a_word_is_refused_only_where_the_sdk_type_is_closed(provider: str) -> None:
    """"refused" rests on a closed Literal (and, for Groq, a recorded 400); an SDK that lets any string through
    (mistralai's UnrecognizedStr, Cohere's Any) cannot back a refusal. DeepSeek's words are OpenAI's, read, never
    refused."""
    alias = _sdk_alias(provider)
    _, words = choice_words(provider)  # type: ignore[misc]
    if words.others == "refused":
        assert not _open(alias) and provider != "deepseek"


def test_cohere_names_no_object_form() -> None:
    """Cohere's union is its two words and Any: no named form, so any other value is unread (forms=False)."""
    alias = _sdk_alias("cohere")
    assert [m for m in _members(alias) if typing.get_origin(m) is not typing.Literal] == [typing.Any]
    assert choice_words("cohere")[1].forms is False  # type: ignore[index]


@pytest.mark.skipif(missing("together"), reason="needs together")
def test_together_s_sdk_cannot_decide_its_words() -> None:
    """together 3.1.1 types the string as str: its words come from its docs (fact together.tool_choice_words), and
    no source says another is refused."""
    from together.types.chat.completion_create_params import ToolChoice

    assert str in _members(ToolChoice)
    assert choice_words("together")[1].others == "unread"  # type: ignore[index]


@pytest.mark.parametrize("provider", sorted(p for p in CAPABILITIES if choice_words(p) is not None))
def test_the_matrix_sends_only_words_the_fact_names(provider: str) -> None:
    """The support matrix (the rows' wire templates, what translators send) and the mock read the same words: a
    string template of auto / none / required / any is one of the host's words."""
    words = choice_words(provider)[1].words  # type: ignore[index]
    cap = CAPABILITIES[provider]
    sent = []
    for feature in ("auto", "none", "required", "any"):
        wire = cap.feature(feature).wire
        if wire.startswith('"'):
            sent.append(json.loads(wire))
    assert sent and set(sent) <= set(words), (provider, sent, words)


def test_every_value_is_a_known_kind_on_its_facts_providers() -> None:
    kinds: dict[tuple[type, str], str] = {}
    for fact in FACTS:
        if fact.value is None:
            continue
        rows = refusals(fact.value)
        assert rows or isinstance(fact.value, (ChoiceWords, ChoiceCount, NamedModels, VersionRemoves, NameRule)), fact.id
        for row in rows:
            assert isinstance(row, RefusalWords) and set(row.providers) <= set(fact.providers), fact.id
        if not rows and not isinstance(fact.value, NamedModels):  # one fact per provider states its words, one its
            # count of choices; models named for a feature are one fact per feature (strict schemas, redacted thinking)
            for provider in fact.providers:
                assert kinds.setdefault((type(fact.value), provider), fact.id) == fact.id, (fact.id, provider)


def test_named_models_name_a_model_by_a_fragment_of_its_id_and_nothing_else() -> None:
    named = NamedModels(("claude-opus-4-6", "claude-haiku-4-5"), "Claude Opus 4.6 and Claude Haiku 4.5")
    assert named.named("global.anthropic.claude-opus-4-6-v1") == "claude-opus-4-6"
    assert named.named("US.Anthropic.Claude-Haiku-4-5-20251001-v1:0") == "claude-haiku-4-5"
    assert named.named("anthropic.claude-opus-4-7") is None and named.named("amazon.nova-pro-v1:0") is None
    assert refusals(named) == ()


def test_refusals_tells_the_words_from_the_other_values() -> None:
    assert refusals(ChoiceWords(("a",), "unread")) == () and refusals(ChoiceCount("warning", 1, "w")) == ()
    assert refusals(None) == () and refusals((RefusalWords("c", ("p",), "w"),)) == (RefusalWords("c", ("p",), "w"),)


def _count(provider: str) -> ChoiceCount:
    (value,) = [f.value for f in FACTS if provider in f.providers and isinstance(f.value, ChoiceCount)]
    return value


def _docstring_after(module: str, field: str) -> str:
    source = inspect.getsource(importlib.import_module(module))
    start = source.index(f"\n    {field}:")
    return " ".join(source[start:start + 600].split())


@pytest.mark.skipif(missing("groq"), reason="needs groq")
def test_groq_s_count_is_its_sdk_s() -> None:
    doc = _docstring_after("groq.types.chat.completion_create_params", "n")
    most = re.search(r"only n=(\d+) is supported\. Other values will result in a 400 response", doc)
    assert most is not None, doc
    value = _count("groq")
    assert (value.severity, value.most) == ("error", int(most.group(1)))


@pytest.mark.skipif(missing("fireworks"), reason="needs fireworks-ai")
def test_fireworks_count_is_its_sdk_s() -> None:
    doc = _docstring_after("fireworks.types.chat.completion_create_params", "n")
    most = re.search(r"Required range: `1 <= x <= (\d+)`", doc)
    assert most is not None, doc
    value = _count("fireworks")
    assert (value.severity, value.most) == ("warning", int(most.group(1)))  # a range, no stated refusal
    assert value.words in doc


@pytest.mark.skipif(missing("huggingface_hub"), reason="needs huggingface_hub")
def test_hugging_face_s_count_is_its_sdk_s() -> None:
    """The SDK marks n UNUSED: one choice comes back whatever is asked, a warning past 1."""
    doc = _docstring_after("huggingface_hub.inference._generated.types.chat_completion", "n")
    assert doc.startswith('n: int | None = None """UNUSED')
    value = _count("huggingface")
    assert (value.severity, value.most) == ("warning", 1) and value.words in doc
