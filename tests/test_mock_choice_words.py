"""The mock takes only the tool_choice words the provider's own types take: openai-python 3.57.0 types
``ChatCompletionToolChoiceOptionParam`` and Responses ``ToolChoiceOptions`` as ``Literal["none", "auto",
"required"]``, so ``"any"`` (Anthropic's and Mistral's word) is a 400 there. It was answered 200 with a call, and
`probe` against the mock reported "any honored" (a new user). A host whose types are not known to refuse it
(Mistral takes "any") is not refused."""

from __future__ import annotations

import typing

import pytest

from sdk_types import missing
from toolchoice.providers.core.mock.server import running_mock

pytestmark = pytest.mark.skipif(missing("openai"), reason="needs openai")

TOOL = {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}


def test_the_words_are_the_sdk_types() -> None:
    from openai.types.chat.chat_completion_tool_choice_option_param import ChatCompletionToolChoiceOptionParam
    from openai.types.responses.tool_choice_options import ToolChoiceOptions

    from toolchoice.providers.core.facts import choice_words

    (words,) = [a for a in typing.get_args(ChatCompletionToolChoiceOptionParam) if typing.get_origin(a) is typing.Literal]
    assert choice_words("openai")[1].words == typing.get_args(words)  # type: ignore[index]
    assert choice_words("openai-responses")[1].words == typing.get_args(ToolChoiceOptions)  # type: ignore[index]


def test_openai_refuses_any_and_mistral_takes_it() -> None:
    from openai import BadRequestError, OpenAI

    with running_mock("openai") as mock:
        client = OpenAI(base_url=mock.base_url, api_key="sk-test", max_retries=0)
        with pytest.raises(BadRequestError) as refused:
            client.chat.completions.create(model="gpt-5.4-mini", messages=[{"role": "user", "content": "hi"}],
                                           tools=[TOOL], tool_choice="any")  # type: ignore[arg-type]
        taken = client.chat.completions.create(model="gpt-5.4-mini", messages=[{"role": "user", "content": "hi"}],
                                               tools=[TOOL], tool_choice="required")
    assert "'any' is not one of 'none', 'auto', 'required'" in str(refused.value)
    assert taken.choices[0].message.tool_calls
    with running_mock("mistral") as mock:
        client = OpenAI(base_url=mock.base_url, api_key="sk-test", max_retries=0)
        answered = client.chat.completions.create(model="mistral-large-latest", tools=[TOOL], tool_choice="any",  # type: ignore[arg-type]
                                                  messages=[{"role": "user", "content": "hi"}])
    assert answered.choices[0].message.tool_calls
