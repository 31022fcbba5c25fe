"""A thinking effort on Groq and Mistral: their own ``reasoning_effort`` words, held to the official SDKs' types and
to the sources' words (read 2026-11-27; docs/fact-audit.md, fifth pass; the facts: core/effort_facts.py).

Until this pass neither host got an effort (``thinking.not_sent``). The expected words below are the SDKs' (read from
the installed files, no SDK import for the words) and the sources' (written here as quoted), never the translator's:
- groq 1.7.0 ``CompletionCreateParams.reasoning_effort``: none, default, low, medium, high; its docstring names
  gpt-oss-20b / -120b low, medium, high; "qwen3 models" none and default; qwen/qwen3.8-27b all five;
- Groq's 400 for qwen/qwen3-32b with high (earendil-works/pi#1745): "reasoning_effort must be one of none or default";
- mistralai 3.7.0 ``ReasoningEffort``: none, minimal, low, medium, high, xhigh, max (open);
- docs.mistral.ai/capabilities/reasoning/adjustable: mistral-small-latest and mistral-medium-3-5, high and none;
- Mistral's 400 for medium on Mistral Small (architects-toolkit/SmartHopper#647).
"""

from __future__ import annotations

import json
import re
import typing
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from sdk_types import check, missing
from toolchoice.providers import load_scenario_text, translate
from toolchoice.providers.core.mock.server import running_mock
from toolchoice.providers.core.model import Translation

GROQ_WORDS = ("none", "default", "low", "medium", "high")
MISTRAL_WORDS = ("none", "minimal", "low", "medium", "high", "xhigh", "max")
GROQ_QWEN3_32B_400 = "reasoning_effort must be one of none or default"  # earendil-works/pi#1745, 2026-03-03
MISTRAL_SMALL_400 = ("reasoning_effort='medium' is not supported for this model. Must be one of "
                     "(<ReasoningEffort.none: 'none'>, <ReasoningEffort.high: 'high'>)")  # SmartHopper#647, 2026-07-06
KEY = "sk-host-efforts-0123456789abcdef"
USER = [{"role": "user", "content": "Weather in Paris?"}]
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]


def _sdk_file(package: str, relative: str) -> str:
    spec = find_spec(package)
    assert spec is not None and spec.submodule_search_locations, package
    return (Path(list(spec.submodule_search_locations)[0]) / relative).read_text(encoding="utf-8")


def _render(provider: str, model: str, thinking: str, choice: str = "required") -> Translation:
    text = ("tools:\n  - name: get_weather\n    parameters: {type: object, properties: {city: {type: string}}}\n"
            f"tool_choice: {choice}\nmessages: [{{role: user, content: hi}}]\n"
            f"providers:\n  {provider}: {{model: {model}, thinking: {thinking}}}\n")
    return translate(provider, load_scenario_text(text, "t.yaml"))


def _codes(t: Translation) -> dict[str, str]:
    return {e.code: e.severity for e in t.ledger if e.code.startswith("thinking.")}


def _groq_problems(body: dict[str, Any]) -> list[str]:
    from groq.types.chat.completion_create_params import CompletionCreateParams

    return check(body, CompletionCreateParams)


def _mistral_problems(body: dict[str, Any]) -> list[str]:
    """mistralai's ChatCompletionRequest (pydantic, extra keys allowed, an open ReasoningEffort): the keys held to its
    fields and the effort to the Literal's members."""
    from mistralai.client.models.chatcompletionrequest import ChatCompletionRequest
    from mistralai.client.models.reasoningeffort import ReasoningEffort

    ChatCompletionRequest.model_validate(body)
    problems = [f"unknown key {k}" for k in body if k not in ChatCompletionRequest.model_fields]
    words = typing.get_args(typing.get_args(ReasoningEffort)[0])
    if "reasoning_effort" in body and body["reasoning_effort"] not in words:
        problems.append(f"reasoning_effort {body['reasoning_effort']!r} is not one of {words}")
    return problems


# ---- the words are the SDKs' ----------------------------------------------------------------------------------------


@pytest.mark.skipif(missing("groq"), reason="needs groq")
def test_groq_effort_words_and_docstring_are_the_sdks() -> None:
    from toolchoice.providers.core.effort_facts import GROQ_DOC
    from toolchoice.providers.openai_chat_hosts import HOST_EFFORTS

    source = _sdk_file("groq", "types/chat/completion_create_params.py")
    start = source.index("    reasoning_effort: Optional[Literal[")
    assert tuple(re.findall(r'"([^"]+)"', source[start:source.index("]]", start)])) == GROQ_WORDS
    doc = source[source.index('"""', start) + 3:]
    doc = " ".join(doc[:doc.index('"""')].split())
    assert doc == GROQ_DOC  # the fact quotes the docstring whole, as read 2026-11-27
    assert HOST_EFFORTS["groq"].words == GROQ_WORDS


@pytest.mark.skipif(missing("mistralai"), reason="needs mistralai")
def test_mistral_effort_words_are_the_sdks() -> None:
    from toolchoice.providers.openai_chat_hosts import HOST_EFFORTS

    source = _sdk_file("mistralai", "client/models/reasoningeffort.py")
    block = source[source.index("ReasoningEffort = Union["):]
    assert tuple(re.findall(r'"([^"]+)"', block[:block.index("UnrecognizedStr")])) == MISTRAL_WORDS
    assert HOST_EFFORTS["mistral"].words == MISTRAL_WORDS
    assert "reasoning_effort" in _sdk_file("mistralai", "client/models/chatcompletionrequest.py")


# ---- what goes out, held to the SDK types -----------------------------------------------------------------------------

# (model, effort, what goes out, the ledger code beside thinking.effort): from the docstring, docs and 400s above
GROQ_CASES = [
    ("openai/gpt-oss-120b", "low", "low", None), ("openai/gpt-oss-20b", "medium", "medium", None),
    ("openai/gpt-oss-120b", "high", "high", None),
    ("openai/gpt-oss-120b", "none", "none", "thinking.effort_unstated"),  # not among gpt-oss's; no 400 recorded
    ("qwen/qwen3-32b", "none", "none", None),
    ("qwen/qwen3-32b", "high", None, "thinking.effort_refused"),  # its 400 is recorded
    ("qwen/qwen3.8-27b", "high", "high", None), ("qwen/qwen3.8-27b", "none", "none", None),
    ("qwen/qwen3.6-27b", "low", "low", "thinking.effort_unstated"),  # "qwen3 models": none, default
    ("moonshotai/kimi-k2-instruct", "high", "high", "thinking.effort_unknown"),  # no source names it
    ("openai/gpt-oss-120b", "xhigh", None, "thinking.not_sent"), ("openai/gpt-oss-120b", "max", None, "thinking.not_sent"),
    ("openai/gpt-oss-120b", "minimal", None, "thinking.not_sent"),  # not Groq's words
]
MISTRAL_CASES = [
    ("mistral-small-latest", "high", "high", None), ("mistral-small-2603", "none", "none", None),
    ("mistral-small-latest", "medium", None, "thinking.effort_refused"),  # its 400 is recorded
    ("mistral-medium-3-5", "high", "high", None),
    ("mistral-medium-3-5", "low", "low", "thinking.effort_unstated"),  # the docs name high and none, no 400 recorded
    ("mistral-large-latest", "xhigh", "xhigh", "thinking.effort_unknown"),
]


@pytest.mark.skipif(missing("groq"), reason="needs groq")
@pytest.mark.parametrize("model, effort, sent, code", GROQ_CASES)
def test_groq_gets_its_own_reasoning_effort(model: str, effort: str, sent: str | None, code: str | None) -> None:
    t = _render("groq", model, f"{{effort: {effort}}}")
    found = _codes(t)
    if code == "thinking.effort_refused":
        assert t.request is None and found[code] == "error"
        assert GROQ_QWEN3_32B_400 in next(e.message for e in t.ledger if e.code == code)
        return
    assert t.request is not None
    assert t.request.body.get("reasoning_effort") == sent
    assert _groq_problems(t.request.body) == []
    assert (code in found) if code else set(found) <= {"thinking.effort"}, found
    if sent is None:  # said, naming Groq's words
        assert all(w in next(e.message for e in t.ledger if e.code == code) for w in GROQ_WORDS)


@pytest.mark.skipif(missing("mistralai"), reason="needs mistralai")
@pytest.mark.parametrize("model, effort, sent, code", MISTRAL_CASES)
def test_mistral_gets_its_own_reasoning_effort(model: str, effort: str, sent: str | None, code: str | None) -> None:
    t = _render("mistral", model, f"{{effort: {effort}}}")
    found = _codes(t)
    if code == "thinking.effort_refused":
        assert t.request is None and found[code] == "error"
        assert MISTRAL_SMALL_400 in next(e.message for e in t.ledger if e.code == code)
        return
    assert t.request is not None and t.request.body.get("reasoning_effort") == sent
    assert _mistral_problems(t.request.body) == []
    assert (code in found) if code else set(found) <= {"thinking.effort"}, found


@pytest.mark.parametrize("provider", ["groq", "mistral"])
@pytest.mark.parametrize("thinking", ["true", "false", "adaptive", "{budget: 2048}"])
def test_a_setting_without_an_effort_is_said_not_sent(provider: str, thinking: str) -> None:
    """Only an effort has a field on these hosts: anything else is a thinking.not_sent warning naming the words."""
    t = _render(provider, "mistral-small-latest" if provider == "mistral" else "openai/gpt-oss-120b", thinking)
    assert t.request is not None and "reasoning_effort" not in t.request.body
    (line,) = [e for e in t.ledger if e.code == "thinking.not_sent"]
    assert line.severity == "warning" and "write thinking: {effort: none|" in line.message


def test_a_refused_effort_at_a_base_url_that_replaces_the_host_is_a_warning_and_sent() -> None:
    """The 400s are api.groq.com's and api.mistral.ai's: another server at a base URL may take the value (core/
    host_rules.py), so there it is said and sent as written, as every host-source refusal is."""
    from toolchoice.providers.core.model import RenderOptions

    for provider, model, effort, words in (("groq", "qwen/qwen3-32b", "high", GROQ_QWEN3_32B_400),
                                           ("mistral", "mistral-small-latest", "medium", MISTRAL_SMALL_400)):
        text = ("tools:\n  - name: x\ntool_choice: auto\nmessages: [{role: user, content: hi}]\n"
                f"providers:\n  {provider}: {{model: {model}, thinking: {{effort: {effort}}}}}\n")
        t = translate(provider, load_scenario_text(text, "t.yaml"), RenderOptions(base_url="http://127.0.0.1:8000/v1"))
        assert t.request is not None and t.request.body["reasoning_effort"] == effort
        (line,) = [e for e in t.ledger if e.code == "thinking.effort_refused"]
        assert line.severity == "warning" and words in line.message and "sent as written" in line.message


def test_a_forcing_choice_with_an_effort_is_sent_as_written() -> None:
    """No Groq or Mistral source states a conflict between reasoning_effort and a forcing tool_choice: both go out."""
    for provider, model, wire in (("groq", "openai/gpt-oss-120b", "required"), ("mistral", "mistral-small-latest", "any")):
        t = _render(provider, model, "{effort: high}", choice="required")
        assert t.request is not None and t.request.body["tool_choice"] == wire
        assert t.request.body["reasoning_effort"] == "high"
        assert not [e for e in t.ledger if e.severity == "error"]


# ---- the mock takes what toolchoice now sends, and answers the recorded 400s ------------------------------------------


@pytest.mark.skipif(missing("groq"), reason="needs groq")
def test_the_groq_sdk_with_reasoning_effort_gets_the_mocks_answer() -> None:
    import groq

    with running_mock("groq") as mock:
        client = groq.Groq(api_key=KEY, base_url=mock.base_url.removesuffix("/openai/v1").removesuffix("/v1"),
                           max_retries=0)
        taken = client.chat.completions.create(model="openai/gpt-oss-120b", messages=USER, tools=TOOLS,
                                               tool_choice="required", reasoning_effort="low")
        default = client.chat.completions.create(model="qwen/qwen3-32b", messages=USER, tools=TOOLS,
                                                 tool_choice="required", reasoning_effort="default")
        with pytest.raises(groq.BadRequestError) as refused:
            client.chat.completions.create(model="qwen/qwen3-32b", messages=USER, tools=TOOLS,
                                           tool_choice="required", reasoning_effort="high")
        statuses = [r["status"] for r in mock.records]
    assert taken.choices[0].message.tool_calls[0].function.name == "get_weather"
    assert default.choices[0].message.tool_calls[0].function.name == "get_weather"
    assert isinstance(refused.value.body, dict) and refused.value.body["error"]["message"] == GROQ_QWEN3_32B_400
    assert statuses == [200, 200, 400]


@pytest.mark.skipif(missing("mistralai"), reason="needs mistralai")
def test_the_mistral_sdk_with_reasoning_effort_gets_the_mocks_answer() -> None:
    from mistralai.client import Mistral
    from mistralai.client.errors import SDKError

    with running_mock("mistral") as mock:
        client = Mistral(api_key=KEY, server_url=mock.base_url.removesuffix("/v1"))
        taken = client.chat.complete(model="mistral-small-latest", messages=USER, tools=TOOLS, tool_choice="any",
                                     reasoning_effort="high")
        unstated = client.chat.complete(model="mistral-medium-3-5", messages=USER, tools=TOOLS, tool_choice="any",
                                        reasoning_effort="low")
        with pytest.raises(SDKError) as refused:
            client.chat.complete(model="mistral-small-latest", messages=USER, tools=TOOLS, tool_choice="any",
                                 reasoning_effort="medium")
        records = list(mock.records)
    assert taken.choices[0].message.tool_calls[0].function.name == "get_weather"
    assert unstated.choices[0].message.tool_calls[0].function.name == "get_weather"
    assert refused.value.status_code == 400 and json.loads(refused.value.body)["message"] == MISTRAL_SMALL_400
    assert [r["status"] for r in records] == [200, 200, 400]
    assert "thinking.effort_unstated" in [f["code"] for f in records[1]["findings"]]
