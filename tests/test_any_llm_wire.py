"""any-llm (any-llm-sdk 1.40.2, mozilla-ai) as a real client of `toolchoice mock` on 127.0.0.1: what
``any_llm.completion(model=..., provider=P, tools=..., tool_choice=X, parallel_tool_calls=Q)`` puts on the OpenAI,
Anthropic and Mistral wires (its providers with the test extra's SDKs: openai, anthropic, mistralai), held to each
provider's own request types and set beside the API request toolchoice builds for the same neutral choice.
docs/any-llm.md tables the rows with the any-llm source that makes each.

any-llm is not in the test extra: any-llm-sdk 1.40.2 (the newest release, 2026-10) declares ``anthropic<1,>=0.124.0``
as a core requirement, and the extra pins anthropic>=2.14 (its other SDKs fit: openai<4, mistralai>=2.4.2). It runs
with anthropic 2.14 all the same (``pip install --no-deps any-llm-sdk==1.40.2 'openresponses-types>=2.4,<3'`` beside
the test extra). So the 36 choice requests are recorded (tests/data/peers/any-llm/choices.json: each body the mock
saved, its status, what any-llm raised) and every run holds the recording to the SDK types and to toolchoice's
request; where any-llm is installed the same requests are sent live and must match the recording
(``RERECORD_ANY_LLM=1`` writes it again), and the tools, thinking and extra_body tests run.

The expected wire values are the providers' documented forms written here, each checked against the SDK's type in
the same test; none is computed by toolchoice. One mock per provider serves the file (tests/litellm_client.py's
Client, without litellm: it refuses any connection but the loopback)."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any, Iterator

import pytest

from litellm_client import KEY, MESSAGES, NAMED, TOOLS, WEATHER, Client, Sent, _settled
from sdk_types import check, missing
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario_text

pytestmark = [pytest.mark.skipif(missing("openai", "anthropic", "mistralai"), reason="the test extra's SDKs"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]
live = pytest.mark.skipif(missing("any_llm"), reason="any-llm-sdk installed beside the test extra (the docstring)")
RECORDING = Path(__file__).parent / "data" / "peers" / "any-llm" / "choices.json"

MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-sonnet-4-5", "mistral": "mistral-large-latest"}
# the neutral choice (toolchoice's scenario word) -> the tool_choice argument any-llm takes (OpenAI's spelling; "any"
# passed as the word, as a caller with Anthropic's or Mistral's word in mind would)
ARGUMENTS: dict[str | None, Any] = {None: None, "auto": "auto", "none": "none", "required": "required",
                                    "any": "any", "get_weather": NAMED}
ABSENT = "<absent>"


class AnyLLMClient(Client):
    """The mocks and the loopback guard of tests/litellm_client.py, without importing litellm."""

    def __enter__(self) -> "AnyLLMClient":
        self._guard()
        return self

    def base(self, provider: str) -> str:
        url = self.mock(provider).base_url
        # mistralai's SDK appends /v1/chat/completions to its server_url; openai's appends /chat/completions
        return url.removesuffix("/v1") if provider == "mistral" else url

    def send(self, provider: str, *, stream: bool = False, model: str | None = None, settle: float = 5.0,
             **arguments: Any) -> Sent:
        from any_llm import completion

        mock = self.mock(provider)
        before = len(mock.records)
        calls: list[str] | None = None
        error: BaseException | None = None
        try:
            reply: Any = completion(model=model or MODELS[provider], provider=provider, messages=MESSAGES,
                                    api_key=KEY, api_base=self.base(provider), **{"tools": TOOLS, **arguments})
            calls = [c.function.name for c in reply.choices[0].message.tool_calls or []]
        except Exception as exc:  # what any-llm raises is the result here
            error = exc
        lines = _settled(mock, before, settle)
        if not lines:
            return Sent(calls, error, None, None, None)
        (line,) = lines
        saved = self._saved_request(provider, line["n"])
        return Sent(calls, error, line, saved["body"], saved["url"])


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORDING.read_text(encoding="utf-8"))
    return data


def key(provider: str, choice: str | None, parallel: bool | None) -> str:
    return f"{provider} {choice} {parallel}"


def as_recorded(sent: Sent) -> dict[str, Any]:
    """One request as the recording keeps it: the path and body the mock saved, its status, what any-llm raised."""
    return {"path": sent.path, "body": sent.body, "status": None if sent.line is None else sent.line["status"],
            "error": None if sent.error is None else f"{type(sent.error).__name__}: {sent.error}"[:300],
            "calls": sent.calls}


CASES = [(p, c, q) for p in MODELS for c in ARGUMENTS for q in (None, False)]


@live
def test_live_requests_match_the_recording(client: "AnyLLMClient") -> None:
    """any-llm's real completion() sends what the recording holds, for every case (anthropic's max_tokens given, as
    its provider asks for one)."""
    import os

    made = {}
    for provider, choice, parallel in CASES:
        extra = {"max_tokens": 256} if provider == "anthropic" else {}
        made[key(provider, choice, parallel)] = as_recorded(client.send(
            provider, tool_choice=ARGUMENTS[choice], parallel_tool_calls=parallel, **extra))
    if os.environ.get("RERECORD_ANY_LLM") == "1":
        from any_llm import __version__

        RECORDING.parent.mkdir(parents=True, exist_ok=True)
        RECORDING.write_text(json.dumps({"any_llm_sdk": __version__, **made}, indent=2) + "\n", encoding="utf-8")
    recorded = json.loads(RECORDING.read_text(encoding="utf-8"))
    assert {k: v for k, v in recorded.items() if k != "any_llm_sdk"} == made


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AnyLLMClient]:
    with AnyLLMClient(tmp_path_factory.mktemp("any-llm")) as made:
        yield made
    assert made.outside == [], made.outside  # nothing but the loopback, in the whole file


def api_body(provider: str, choice: str | None, parallel: bool | None) -> dict[str, Any]:
    """The API request toolchoice builds for the same tools, neutral choice and parallel setting."""
    tools = "".join(f"  - {{name: {t['function']['name']}, description: {t['function']['description']}, "
                    f"parameters: {json.dumps(WEATHER)}}}\n" for t in TOOLS)
    text = (f"tools:\n{tools}messages: [{{role: user, content: Weather in Paris?}}]\n"
            + (f"tool_choice: {choice}\n" if choice else "")
            + (f"parallel_tool_calls: {str(parallel).lower()}\n" if parallel is not None else "")
            + f"providers:\n  {provider}:\n    model: {MODELS[provider]}\n")
    made = translate(provider, load_scenario_text(text, "any-llm.yaml"))
    assert made.request is not None, [e.message for e in made.ledger]
    return made.request.body


class Recorded:
    """A recorded request, read as the tests read a live one."""

    def __init__(self, entry: dict[str, Any]) -> None:
        self.path, self.body, self.status = entry["path"], entry["body"], entry["status"]
        self.error, self.calls = entry["error"], entry["calls"]


def _words(alias: Any) -> tuple[str, ...]:
    (words,) = [a for a in typing.get_args(alias) if typing.get_origin(a) is typing.Literal]
    return typing.get_args(words)


# ---- OpenAI: the argument as given -------------------------------------------------------------------------------

@pytest.mark.parametrize("parallel", [None, False], ids=["parallel-unset", "parallel-false"])
@pytest.mark.parametrize("choice", list(ARGUMENTS), ids=lambda c: str(c))
def test_openai_gets_the_argument_as_given(recorded: dict[str, Any], choice: str | None, parallel: bool | None) -> None:
    """providers/openai/base.py _convert_completion_params: ``params.model_dump(exclude_none=True)`` handed to
    ``client.chat.completions.create``: every tool_choice as written, ``parallel_tool_calls`` where given. The same as
    toolchoice's request but for "any", which openai-python's ChatCompletionToolChoiceOptionParam does not have: sent,
    and the mock answers OpenAI's recorded 400 (toolchoice sends "required", its meaning)."""
    from openai.types.chat.chat_completion_tool_choice_option_param import ChatCompletionToolChoiceOptionParam

    sent = Recorded(recorded[key("openai", choice, parallel)])
    assert sent.body is not None and sent.path == "/v1/chat/completions"
    wire = sent.body.get("tool_choice", ABSENT)
    assert wire == (ABSENT if choice is None else ARGUMENTS[choice])
    assert sent.body.get("parallel_tool_calls", ABSENT) == (ABSENT if parallel is None else parallel)
    ours = api_body("openai", choice, parallel)
    if choice == "any":
        assert "any" not in _words(ChatCompletionToolChoiceOptionParam) and ours["tool_choice"] == "required"
        assert sent.error.startswith("BadRequestError: ") and sent.status == 400
        # OpenAI's recorded words (fact openai.tool_choice_value_words), as any-llm raises them
        assert sent.error.endswith("Invalid value: 'any'. Supported values are: 'none', 'auto', and 'required'.")
        return
    assert sent.error is None, sent.error
    if wire != ABSENT:
        assert check(wire, ChatCompletionToolChoiceOptionParam) == []
    assert wire == ours.get("tool_choice", ABSENT)
    assert sent.calls == ([] if choice == "none" else ["get_weather"])


# ---- Anthropic: any-llm's own conversion -------------------------------------------------------------------------

def anthropic_expected(choice: str | None, parallel: bool | None) -> Any:
    """providers/anthropic/utils.py _convert_tool_choice (any-llm 1.40.2, lines 546-566), called where tool_choice or
    parallel_tool_calls is given (line 709): unset parallel counts as True, so ``disable_parallel_tool_use`` is
    written false in every choice but none ("Anthropic's none choice takes no other field"); required is "any";
    OpenAI's named object is {"type": "tool", "name"}; any other string is the type as written ("any" is Anthropic's
    own word)."""
    if choice is None and parallel is None:
        return ABSENT
    if choice == "none":
        return {"type": "none"}
    disable = parallel is False
    if choice == "get_weather":
        return {"type": "tool", "name": "get_weather", "disable_parallel_tool_use": disable}
    return {"type": {None: "auto", "required": "any"}.get(choice, choice), "disable_parallel_tool_use": disable}


@pytest.mark.parametrize("parallel", [None, False], ids=["parallel-unset", "parallel-false"])
@pytest.mark.parametrize("choice", list(ARGUMENTS), ids=lambda c: str(c))
def test_anthropic_gets_its_own_form(recorded: dict[str, Any], choice: str | None, parallel: bool | None) -> None:
    """Every choice reaches the Messages API in its own form (anthropic's ToolChoiceParam), "any" too (LiteLLM drops
    it: docs/litellm.md). It differs from toolchoice's request only in spelling: with parallel_tool_calls unset
    any-llm writes ``disable_parallel_tool_use: false``, the API's default, where toolchoice leaves the field out;
    the model is held the same (the mock's reading of the choice is the same)."""
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming
    from anthropic.types.tool_choice_param import ToolChoiceParam

    sent = Recorded(recorded[key("anthropic", choice, parallel)])
    assert sent.error is None, sent.error
    assert sent.body is not None and sent.path == "/v1/messages"
    wire = sent.body.get("tool_choice", ABSENT)
    assert wire == anthropic_expected(choice, parallel)
    assert "parallel_tool_calls" not in sent.body
    if wire != ABSENT:
        assert check(wire, ToolChoiceParam) == []
    assert check(sent.body, MessageCreateParamsNonStreaming) == [], sent.body
    ours = api_body("anthropic", choice, parallel).get("tool_choice", ABSENT)
    if isinstance(wire, dict) and isinstance(ours, dict) and parallel is None and choice != "none":
        assert ours.get("disable_parallel_tool_use", False) is False
        ours = {**ours, "disable_parallel_tool_use": False}  # the API's default, written out
    assert wire == ours
    assert sent.calls == ([] if choice == "none" else ["get_weather"])


@live
def test_anthropic_tools_and_thinking(client: AnyLLMClient) -> None:
    """The tools go out as Anthropic's {name, description, input_schema} (utils.py _convert_tool_spec), the schema as
    given; with reasoning_effort left at its default ("auto") no thinking field is sent, and with
    reasoning_effort=None any-llm sends ``thinking: {type: disabled}`` (utils.py _convert_params)."""
    from anthropic.types.thinking_config_param import ThinkingConfigParam

    sent = client.send("anthropic", tool_choice="auto", max_tokens=256)
    assert sent.body is not None and "thinking" not in sent.body
    assert sent.body["tools"] == [{"name": t["function"]["name"], "description": t["function"]["description"],
                                   "input_schema": WEATHER} for t in TOOLS]
    off = client.send("anthropic", tool_choice="auto", max_tokens=256, reasoning_effort=None)
    assert off.body is not None and off.body["thinking"] == {"type": "disabled"}
    assert check(off.body["thinking"], ThinkingConfigParam) == []


# ---- Mistral: the argument as given, through mistralai's SDK -----------------------------------------------------

@pytest.mark.parametrize("parallel", [None, False], ids=["parallel-unset", "parallel-false"])
@pytest.mark.parametrize("choice", list(ARGUMENTS), ids=lambda c: str(c))
def test_mistral_gets_the_argument_as_given(recorded: dict[str, Any], choice: str | None, parallel: bool | None) -> None:
    """providers/mistral/mistral.py _convert_completion_params: ``params.model_dump(exclude_none=True)`` handed to
    mistralai's ``chat.complete_async``: every word as written, both "required" and "any" being Mistral's
    (mistralai's ToolChoiceEnum); toolchoice sends "any" for both. The named object goes through mistralai's
    ToolChoice model (the same JSON)."""
    from mistralai.client.models.toolchoiceenum import ToolChoiceEnum

    sent = Recorded(recorded[key("mistral", choice, parallel)])
    assert sent.error is None, sent.error
    assert sent.body is not None and sent.path == "/v1/chat/completions"
    wire = sent.body.get("tool_choice", ABSENT)
    assert wire == (ABSENT if choice is None else ARGUMENTS[choice])
    assert sent.body.get("parallel_tool_calls", ABSENT) == (ABSENT if parallel is None else parallel)
    ours = api_body("mistral", choice, parallel).get("tool_choice", ABSENT)
    if isinstance(wire, str) and wire != ABSENT:
        assert wire in _words(ToolChoiceEnum) and ours in _words(ToolChoiceEnum)
    if choice == "required":
        assert (wire, ours) == ("required", "any")  # two words of Mistral's for one meaning
    else:
        assert wire == ours
    assert sent.calls == ([] if choice == "none" else ["get_weather"])


@live
def test_extra_body_goes_where_each_sdk_puts_it(client: AnyLLMClient) -> None:
    """``completion(..., extra_body={...})``: a keyword any-llm hands to the provider's SDK call unread
    (``**kwargs``); openai-python and anthropic-python merge it into the body's top level, over what they built
    (the same as toolchoice's ``providers.<id>.extra``). mistralai's ``complete_async`` takes no extra_body: any-llm
    raises TypeError before sending."""
    sends_time = {"openai": {"type": "function", "function": {"name": "get_time"}},
                  "anthropic": {"type": "tool", "name": "get_time"}}
    for provider, written in sends_time.items():
        sent = client.send(provider, tool_choice=NAMED, max_tokens=256, extra_body={"tool_choice": written})
        assert sent.error is None and sent.body is not None, sent.error
        assert sent.body["tool_choice"] == written and "extra_body" not in sent.body
        assert sent.calls == ["get_time"]
    mock = client.mock("mistral")
    before = len(mock.records)
    # raised by the call's signature, before any request: nothing to wait for
    refused = client.send("mistral", tool_choice=NAMED, extra_body={"tool_choice": "none"}, settle=0.0)
    assert isinstance(refused.error, TypeError) and "extra_body" in str(refused.error), refused.error
    assert len(mock.records) == before
