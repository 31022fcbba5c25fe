"""The mock takes only the tool_choice words the provider's own types take: openai-python 3.57.0 types
``ChatCompletionToolChoiceOptionParam`` and Responses ``ToolChoiceOptions`` as ``Literal["none", "auto",
"required"]``, so ``"any"`` (Anthropic's and Mistral's word) is a 400 there. It was answered 200 with a call, and
`probe` against the mock reported "any honored" (a new user). A host whose types are not known to refuse it
(Mistral takes "any") is not refused.

The 400 is the API's own (fact openai.tool_choice_value_words): the body below as maximhq/bifrost#6887 (2026-09-06)
records OpenAI answering "any" on /v1/chat/completions and /v1/responses, its message, param and code as a public
proxy's conformance tests of the direct API record them for both APIs (2026-08-30, 'bogus'), with the value as
sent. Azure's words are not recorded: its 400 keeps toolchoice's."""

from __future__ import annotations

import typing

import pytest

from sdk_types import missing
from toolchoice.providers.core.mock.server import running_mock

pytestmark = pytest.mark.skipif(missing("openai"), reason="needs openai")

TOOL = {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}
# OpenAI's recorded 400 for tool_choice "any" (maximhq/bifrost#6887), whole
RECORDED_ANY = {"error": {"message": "Invalid value: 'any'. Supported values are: 'none', 'auto', and 'required'.",
                          "type": "invalid_request_error", "param": "tool_choice", "code": "invalid_value"}}


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
    assert refused.value.status_code == 400 and refused.value.response.json() == RECORDED_ANY
    assert refused.value.body == RECORDED_ANY["error"]  # what openai-python hands its caller
    assert taken.choices[0].message.tool_calls
    with running_mock("mistral") as mock:
        client = OpenAI(base_url=mock.base_url, api_key="sk-test", max_retries=0)
        answered = client.chat.completions.create(model="mistral-large-latest", tools=[TOOL], tool_choice="any",  # type: ignore[arg-type]
                                                  messages=[{"role": "user", "content": "hi"}])
    assert answered.choices[0].message.tool_calls


def test_the_responses_api_refuses_any_in_its_recorded_words() -> None:
    """/v1/responses answers the same body (bifrost#6887: both endpoints); another word is named as sent (the
    conformance tests' 'bogus'); the line keeps toolchoice's words as tool_choice.word beside mock.refused."""
    from openai import BadRequestError, OpenAI

    tool = {"type": "function", "name": "get_time", "parameters": {"type": "object", "properties": {}}}
    with running_mock("openai-responses") as mock:
        client = OpenAI(base_url=mock.base_url, api_key="sk-test", max_retries=0)
        with pytest.raises(BadRequestError) as refused:
            client.responses.create(model="gpt-4o", input="hi", tools=[tool], tool_choice="any")  # type: ignore[arg-type]
        with pytest.raises(BadRequestError) as other:
            client.responses.create(model="gpt-4o", input="hi", tools=[tool], tool_choice="bogus")  # type: ignore[arg-type]
        line = mock.records[0]
    assert refused.value.status_code == 400 and refused.value.response.json() == RECORDED_ANY
    assert other.value.response.json()["error"] == {**RECORDED_ANY["error"], "message": "Invalid value: 'bogus'. "
                                                    "Supported values are: 'none', 'auto', and 'required'."}
    assert [f["code"] for f in line["findings"]] == ["tool_choice.word", "mock.refused"]
    assert "'any' is not one of 'none', 'auto', 'required'" in line["findings"][0]["message"]


def test_azure_keeps_toolchoice_s_words() -> None:
    """No recording gives Azure OpenAI's words for "any" (its specs' enum has none of it): the 400 stays toolchoice's
    sentence in OpenAI's envelope, no param or code claimed."""
    from openai import BadRequestError, OpenAI

    with running_mock("azure") as mock:
        client = OpenAI(base_url=mock.base_url, api_key="sk-test", max_retries=0)
        with pytest.raises(BadRequestError) as refused:
            client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}],
                                           tools=[TOOL], tool_choice="any")  # type: ignore[arg-type]
    assert refused.value.body == {"message": "Invalid value for 'tool_choice': 'any' is not one of 'none', 'auto', "
                                  "'required' (or a tool_choice object)", "type": "invalid_request_error",
                                  "param": None, "code": None}


def test_the_pretty_line_shows_a_long_tool_choice_once(capsys: pytest.CaptureFixture[str]) -> None:
    """A long string tool_choice was written four times on `toolchoice mock`'s line: as sent, as read, and in both
    errors quoting it. The line shows it once, as sent, and "…" in its place after; --format jsonl keeps every
    copy (the record is data). A word of a usual length is shown wherever it is."""
    from openai import BadRequestError, OpenAI

    from toolchoice.cli.mock_cmd import LONG_TEXT, _pretty

    long_word = "w" * 900 + '"\\'  # a quote and a backslash: the reading's JSON escapes them (under the 1,000 a
    # text of the line shows: tests/test_mock_line_bounds.py)
    with running_mock("openai") as mock:
        client = OpenAI(base_url=mock.base_url, api_key="sk-test", max_retries=0)
        for choice in (long_word, "v" * (LONG_TEXT - 1)):
            with pytest.raises(BadRequestError):
                client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}],
                                               tools=[TOOL], tool_choice=choice)  # type: ignore[arg-type]
        records = list(mock.records)
    import json

    assert json.dumps(records[0], ensure_ascii=False).count("w" * 900) == 4  # the data keeps each copy
    capsys.readouterr()
    for record in records:
        _pretty(record)
    long_line, short_line = capsys.readouterr().out.splitlines()
    assert long_line.count("w" * 900) == 1 and len(long_line) < 1500
    assert f"tool_choice {long_word} → " + '{"tool":"…"}' in long_line
    assert "error tool_choice.word: Invalid value for 'tool_choice': '…' is not one of" in long_line
    assert long_line.endswith("error mock.refused: Invalid value: '…'. Supported values are: 'none', 'auto', and "
                              "'required'.")
    assert short_line.count("v" * (LONG_TEXT - 1)) == 4  # as sent, as read, in both errors
