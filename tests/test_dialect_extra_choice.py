"""`--dialect` shows the tool choice ``providers.<id>.extra`` writes where the library's way of passing extra sends it
over the body the library builds, and the library's own where that way puts it elsewhere or drops it
(core/dialects.extra_choice, ledger ``dialect.extra_choice``).

Truth from outside: the real libraries of the test extra (LangChain's ChatOpenAI and ChatAnthropic, LiteLLM, the
OpenAI Agents SDK, pydantic-ai) send a request for the scenario's choice (``get_weather``) with extra's body field
(``get_time``, written by hand in each API's form) through their own setting (``extra_body``) to ``toolchoice mock``
on 127.0.0.1; the choice field of the body the mock saved is compared with the dialect's body. One mock per provider
and one import of litellm serve the whole file (tests/litellm_client.py keeps every library on the loopback)."""

from __future__ import annotations

import asyncio
import json
import functools
import warnings
from pathlib import Path
from typing import Any, Iterator

import pytest

from litellm_client import KEY, TOOLS, WEATHER, Client
from sdk_types import missing
from toolchoice.providers.core.dialects import apply
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario_text

pytestmark = [pytest.mark.skipif(missing("litellm", "agents", "pydantic_ai", "langchain_openai", "langchain_anthropic"),
                                 reason="the test extra's frameworks"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::ResourceWarning"),
              pytest.mark.filterwarnings("ignore:.*`ReadOnly` qualifier:UserWarning")]

# extra's choice field, sending get_time, in each API's own form (its API reference's forced-function shape)
SENDS_TIME: dict[str, tuple[str, Any]] = {
    "openai": ("tool_choice", {"type": "function", "function": {"name": "get_time"}}),
    "groq": ("tool_choice", {"type": "function", "function": {"name": "get_time"}}),
    "openai-responses": ("tool_choice", {"type": "function", "name": "get_time"}),
    "anthropic": ("tool_choice", {"type": "tool", "name": "get_time"}),
    "gemini": ("toolConfig.functionCallingConfig", {"mode": "ANY", "allowedFunctionNames": ["get_time"]}),
    "bedrock": ("toolConfig.toolChoice", {"tool": {"name": "get_time"}}),
}
MODELS = {"openai": "gpt-4o-mini", "openai-responses": "gpt-4o-mini", "groq": "llama-3.3-70b-versatile",
          "anthropic": "claude-sonnet-4-5", "gemini": "gemini-2.5-flash",
          "bedrock": "anthropic.claude-3-5-sonnet-20240620-v1:0"}


def _extra(provider: str) -> dict[str, Any]:
    path, value = SENDS_TIME[provider]
    out: dict[str, Any] = {}
    node = out
    *parents, last = path.split(".")
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value
    return out


def _at(body: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(body, dict) or part not in body:
            return "<absent>"
        body = body[part]
    return body


@functools.cache
def _scenario(provider: str) -> Any:
    import json

    text = (f"tools:\n  - {{name: get_weather, description: Weather in a city., parameters: {json.dumps(WEATHER)}}}\n"
            f"  - {{name: get_time, description: Time in a city., parameters: {json.dumps(WEATHER)}}}\n"
            "messages: [{role: user, content: Weather in Paris?}]\ntool_choice: get_weather\n"
            f"providers:\n  {provider}:\n    model: {MODELS[provider]}\n    extra: {json.dumps(_extra(provider))}\n")
    return load_scenario_text(text, "extra-choice.yaml")


def view(dialect: str, provider: str) -> Any:
    scenario = _scenario(provider)
    (made,) = apply(dialect, [translate(provider, scenario)], scenario)
    return made


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    with Client(tmp_path_factory.mktemp("extra-choice")) as made:
        from agents import set_tracing_disabled

        set_tracing_disabled(True)  # no trace export to api.openai.com
        yield made
    assert made.outside == [], made.outside


def sent_body(client: Client, provider: str, before: int) -> dict[str, Any]:
    """The body of the one request the mock took after ``before`` records."""
    import time

    mock = client.mock(provider)
    deadline = time.monotonic() + 5
    while len(mock.records) == before and time.monotonic() < deadline:  # a line follows the answer's last byte
        time.sleep(0.005)
    assert len(mock.records) == before + 1, mock.records[before:]
    body: dict[str, Any] = client._saved_request(provider, mock.records[before]["n"])["body"]
    return body


# ---- each library, run -----------------------------------------------------------------------------------------


def run_langchain(client: Client, provider: str) -> dict[str, Any]:
    mock = client.mock(provider)
    before = len(mock.records)
    if provider == "openai":
        from langchain_openai import ChatOpenAI

        model: Any = ChatOpenAI(model=MODELS[provider], base_url=mock.base_url, api_key=KEY, max_retries=0,
                                extra_body=_extra(provider))
    else:
        from langchain_anthropic import ChatAnthropic

        model = ChatAnthropic(model=MODELS[provider], base_url=mock.base_url, api_key=KEY, max_retries=0,
                              model_kwargs={"extra_body": _extra(provider)})
    model.bind_tools(TOOLS, tool_choice="get_weather").invoke("Weather in Paris?")
    return sent_body(client, provider, before)


def run_litellm(client: Client, provider: str) -> dict[str, Any]:
    sent = client.send(provider, tool_choice={"type": "function", "function": {"name": "get_weather"}},
                       extra_body=_extra(provider))
    assert sent.error is None and sent.body is not None, sent.error
    return sent.body


def run_agents(client: Client, provider: str) -> dict[str, Any]:
    from agents import Agent, FunctionTool, ModelSettings, OpenAIChatCompletionsModel, OpenAIResponsesModel, Runner
    from agents.extensions.models.litellm_model import LitellmModel
    from openai import AsyncOpenAI

    async def invoke(_context: Any, _arguments: str) -> str:
        return "sunny"

    mock = client.mock(provider)
    before = len(mock.records)
    if provider == "anthropic":
        model: Any = LitellmModel(model=f"anthropic/{MODELS[provider]}", base_url=mock.base_url, api_key=KEY)
    else:
        made = OpenAIResponsesModel if provider == "openai-responses" else OpenAIChatCompletionsModel
        model = made(model=MODELS[provider], openai_client=AsyncOpenAI(base_url=mock.base_url, api_key=KEY,
                                                                        max_retries=0))
    tools = [FunctionTool(name=t["function"]["name"], description=t["function"]["description"],
                          params_json_schema=WEATHER, on_invoke_tool=invoke, strict_json_schema=False) for t in TOOLS]
    agent = Agent(name="weather", tools=tools, model=model, tool_use_behavior="stop_on_first_tool",
                  model_settings=ModelSettings(tool_choice="get_weather", extra_body=_extra(provider)))
    asyncio.run(Runner.run(agent, "Weather in Paris?", max_turns=2))
    return sent_body(client, provider, before)


def _pydantic_model(provider: str, base: str) -> Any:
    if provider in ("openai", "openai-responses"):
        from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
        from pydantic_ai.providers.openai import OpenAIProvider

        made = OpenAIChatModel if provider == "openai" else OpenAIResponsesModel
        return made(MODELS[provider], provider=OpenAIProvider(base_url=base, api_key=KEY))
    if provider == "anthropic":
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        return AnthropicModel(MODELS[provider], provider=AnthropicProvider(base_url=base, api_key=KEY))
    if provider == "groq":
        from pydantic_ai.models.groq import GroqModel
        from pydantic_ai.providers.groq import GroqProvider

        return GroqModel(MODELS[provider], provider=GroqProvider(api_key=KEY, base_url=base))
    from pydantic_ai.models.google import GoogleModel
    from pydantic_ai.providers.google import GoogleProvider

    import httpx2  # google-genai's default is an aiohttp session it leaves open; pydantic-ai's client is httpx2's

    return GoogleModel(MODELS[provider], provider=GoogleProvider(api_key=KEY, base_url=base,
                                                                 http_client=httpx2.AsyncClient(timeout=30)))


def run_pydantic_ai(client: Client, provider: str) -> dict[str, Any]:
    from pydantic_ai import Agent, Tool
    from pydantic_ai.exceptions import UsageLimitExceeded
    from pydantic_ai.usage import UsageLimits

    mock = client.mock(provider)
    before = len(mock.records)
    tools = [Tool.from_schema(lambda **_: "sunny", t["function"]["name"], t["function"]["description"], WEATHER)
             for t in TOOLS]
    agent = Agent(_pydantic_model(provider, mock.base_url), tools=tools)
    step_one = {"tool_choice": ["get_weather"], "extra_body": _extra(provider)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # UnsupportedSettingWarning where the model class ignores extra_body
        try:
            agent.run_sync("Weather in Paris?", usage_limits=UsageLimits(request_limit=1),
                           model_settings=lambda ctx: step_one if ctx.run_step == 1 else {})
        except UsageLimitExceeded:  # the second request, after the tool call: not sent
            pass
    return sent_body(client, provider, before)


RUNS = {"langchain": run_langchain, "litellm": run_litellm, "openai-agents": run_agents, "pydantic-ai": run_pydantic_ai}
# (dialect, provider) -> whether the library sends extra's choice (the run below says it; the dialect must agree)
CASES: dict[tuple[str, str], bool] = {
    ("langchain", "openai"): True, ("langchain", "anthropic"): True,
    ("litellm", "openai"): True, ("litellm", "anthropic"): False, ("litellm", "gemini"): True,
    ("litellm", "bedrock"): False,
    ("openai-agents", "openai"): True, ("openai-agents", "openai-responses"): True,
    ("openai-agents", "anthropic"): False,
    ("pydantic-ai", "openai"): True, ("pydantic-ai", "openai-responses"): True, ("pydantic-ai", "anthropic"): True,
    ("pydantic-ai", "groq"): True, ("pydantic-ai", "gemini"): False,
}


@pytest.mark.parametrize(("dialect", "provider"), list(CASES), ids=[f"{d}-{p}" for d, p in CASES])
def test_the_dialect_sends_the_choice_the_library_sends(client: Client, dialect: str, provider: str) -> None:
    path, written = SENDS_TIME[provider]
    body = RUNS[dialect](client, provider)
    shown = view(dialect, provider)
    assert shown.translation.request is not None, [e.message for e in shown.translation.ledger]
    on_wire = _at(body, path)
    assert (on_wire == written) is CASES[(dialect, provider)], on_wire  # the library itself, as listed
    assert _at(shown.translation.request.body, path) == on_wire
    assert shown.translation.effective_tool_choice == on_wire
    said = [e for e in shown.translation.ledger if e.code == "dialect.extra_choice"]
    assert len(said) == 1 and said[0].message.startswith(path + ":"), said
    if on_wire != written:  # the library's own choice stays: the ledger says where extra went
        assert said[0].severity == "warning" and "sends its own" in said[0].message
    # no entry left saying the library sends another choice than the one shown
    assert not [e for e in shown.translation.ledger if e.code == "dialect.differs" and
                e.message.startswith(path + ":") and on_wire == written]


def test_no_extra_choice_no_entry() -> None:
    """Extra that leaves the choice alone changes nothing of the dialect's view."""
    scenario = _scenario("openai")
    plain = scenario._replace(providers={"openai": scenario.settings_for("openai")._replace(extra={"user": "u1"})})
    (shown,) = apply("langchain", [translate("openai", plain)], plain)
    assert not [e for e in shown.translation.ledger if e.code == "dialect.extra_choice"]
    assert shown.translation.request.body["tool_choice"] == {"type": "function", "function": {"name": "get_weather"}}


def test_a_route_not_run_says_so() -> None:
    """The AI SDK has no extra-body setting: the view shows extra's choice as the API request merges it, and says it
    was not run."""
    (shown,) = apply("vercel", [translate("openai", _scenario("openai"))], _scenario("openai"))
    (said,) = [e for e in shown.translation.ledger if e.code == "dialect.extra_choice"]
    assert said.severity == "warning" and "not run against the library" in said.message
    assert shown.translation.request.body["tool_choice"] == SENDS_TIME["openai"][1]


def test_the_cli_shows_extras_choice(tmp_path: Path) -> None:
    import json
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from cli import run_cli

    path = tmp_path / "s.yaml"
    path.write_text("tools:\n  - {name: get_weather}\n  - {name: get_time}\nmessages: [{role: user, content: hi}]\n"
                    f"tool_choice: get_weather\nproviders:\n  openai:\n    extra: {json.dumps(_extra('openai'))}\n",
                    encoding="utf-8")
    out = run_cli(["render", str(path), "-p", "openai", "--dialect", "litellm", "-f", "json"])
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert shown["request"]["body"]["tool_choice"] == SENDS_TIME["openai"][1]
    assert "dialect.extra_choice" in [e["code"] for e in shown["ledger"]]


# ---- the other fields of extra: where LiteLLM puts extra_body on anthropic/ and bedrock/ ---------------------------

# a field of the provider's own (Anthropic's top_k), one no API has, and one toolchoice translates (max_tokens): each
# run through litellm.completion as extra_body and as keyword arguments
OTHER_FIELDS = {"top_k": 3, "metadata_note": {"a": 1}, "max_tokens": 77}
NESTED = {"anthropic": "extra_body", "bedrock": "additionalModelRequestFields.extra_body"}


def _fields_view(provider: str) -> Any:
    text = ("tools:\n  - {name: get_weather}\n  - {name: get_time}\nmessages: [{role: user, content: hi}]\n"
            f"tool_choice: auto\nproviders:\n  {provider}:\n    model: {MODELS[provider]}\n"
            f"    extra: {json.dumps(OTHER_FIELDS)}\n")
    scenario = load_scenario_text(text, "extra-fields.yaml")
    (made,) = apply("litellm", [translate(provider, scenario)], scenario)
    return made


@pytest.mark.parametrize("provider", list(NESTED))
def test_litellm_nests_extra_body_on_anthropic_and_bedrock(client: Client, provider: str) -> None:
    """LiteLLM merges extra_body into the body it builds on the OpenAI-compatible routes, but on anthropic/ it sends
    extra whole as a body field named "extra_body" and on bedrock/converse/ under additionalModelRequestFields; as
    keyword arguments the same fields reach the top level (anthropic/) or additionalModelRequestFields' members
    (bedrock/). The view shows the first and its dialect.extra_fields warning names the second."""
    sent = client.send(provider, tool_choice="auto", extra_body=OTHER_FIELDS)
    assert sent.error is None and sent.body is not None, sent.error
    assert _at(sent.body, NESTED[provider]) == OTHER_FIELDS
    assert "top_k" not in sent.body and "metadata_note" not in sent.body and sent.body.get("max_tokens") != 77
    shown = _fields_view(provider)
    body = shown.translation.request.body
    assert _at(body, NESTED[provider]) == _at(sent.body, NESTED[provider])
    assert "top_k" not in body and "metadata_note" not in body and body.get("max_tokens") != 77
    if provider == "anthropic":  # toolchoice's own, as the API request has it without extra
        assert body["max_tokens"] == view_without_extra(provider)["max_tokens"]
    (said,) = [e for e in shown.translation.ledger if e.code == "dialect.extra_fields"]
    assert said.severity == "warning" and NESTED[provider] in said.message
    as_keywords = client.send(provider, tool_choice="auto", **{k: v for k, v in OTHER_FIELDS.items() if k != "max_tokens"})
    assert as_keywords.error is None and as_keywords.body is not None, as_keywords.error
    where = as_keywords.body if provider == "anthropic" else as_keywords.body["additionalModelRequestFields"]
    assert where["top_k"] == 3 and where["metadata_note"] == {"a": 1}
    assert ("sent at the top level" if provider == "anthropic" else "goes into additionalModelRequestFields") in said.message


def test_bedrock_extra_writing_additional_fields_is_nested_beside_litellm_s_own(client: Client) -> None:
    """Extra writing additionalModelRequestFields itself is nested too, beside the parallel form LiteLLM writes there
    for a Claude id its map flags (anthropic.claude-sonnet-4-6), and no dialect.differs entry is left about it."""
    model, extra = "anthropic.claude-sonnet-4-6", {"additionalModelRequestFields": {"top_k": 3}}
    sent = client.send("bedrock", model=f"bedrock/converse/{model}", tool_choice="auto", parallel_tool_calls=False,
                       extra_body=extra)
    assert sent.error is None and sent.body is not None, sent.error
    text = ("tools:\n  - {name: get_weather}\n  - {name: get_time}\nmessages: [{role: user, content: hi}]\n"
            f"tool_choice: auto\nparallel_tool_calls: false\nproviders:\n  bedrock:\n    model: {model}\n"
            f"    extra: {json.dumps(extra)}\n")
    scenario = load_scenario_text(text, "extra-fields.yaml")
    (shown,) = apply("litellm", [translate("bedrock", scenario)], scenario)
    assert shown.translation.request.body["additionalModelRequestFields"] == sent.body["additionalModelRequestFields"]
    assert not [e for e in shown.translation.ledger if e.code == "dialect.differs"
                and e.message.startswith("additionalModelRequestFields")]


def view_without_extra(provider: str) -> dict[str, Any]:
    text = (f"tools:\n  - {{name: get_weather}}\n  - {{name: get_time}}\nmessages: [{{role: user, content: hi}}]\n"
            f"tool_choice: auto\nproviders:\n  {provider}:\n    model: {MODELS[provider]}\n")
    made = translate(provider, load_scenario_text(text, "plain.yaml"))
    assert made.request is not None
    return made.request.body


def test_extra_body_merged_elsewhere_says_nothing_of_it() -> None:
    """On a route where LiteLLM merges extra_body over its body (openai/), extra's fields stay where the API request
    has them and no dialect.extra_fields entry is written."""
    text = ("tools:\n  - {name: get_weather}\nmessages: [{role: user, content: hi}]\ntool_choice: auto\n"
            f"providers:\n  openai:\n    extra: {json.dumps(OTHER_FIELDS)}\n")
    scenario = load_scenario_text(text, "extra-fields.yaml")
    (shown,) = apply("litellm", [translate("openai", scenario)], scenario)
    assert shown.translation.request.body["top_k"] == 3 and shown.translation.request.body["max_tokens"] == 77
    assert not [e for e in shown.translation.ledger if e.code == "dialect.extra_fields"]


def test_litellm_model_nests_extra_body_as_litellm_does(client: Client) -> None:
    """openai-agents' LitellmModel on Anthropic hands ModelSettings(extra_body) to litellm.acompletion as extra_body,
    so it arrives as a body field named "extra_body", and ModelSettings(extra_args) as keyword arguments, which reach
    the top level: the openai-agents view shows the first, its dialect.extra_fields entry names the second."""
    from agents import Agent, FunctionTool, ModelSettings, Runner
    from agents.extensions.models.litellm_model import LitellmModel

    async def invoke(_context: Any, _arguments: str) -> str:
        return "sunny"

    mock = client.mock("anthropic")
    fields = {k: v for k, v in OTHER_FIELDS.items() if k != "max_tokens"}
    bodies = []
    for settings in ({"extra_body": fields}, {"extra_args": fields}):
        before = len(mock.records)
        model = LitellmModel(model=f"anthropic/{MODELS['anthropic']}", base_url=mock.base_url, api_key=KEY)
        tools = [FunctionTool(name=t["function"]["name"], description=t["function"]["description"],
                              params_json_schema=WEATHER, on_invoke_tool=invoke, strict_json_schema=False)
                 for t in TOOLS]
        agent = Agent(name="weather", tools=tools, model=model, tool_use_behavior="stop_on_first_tool",
                      model_settings=ModelSettings(tool_choice="auto", **settings))
        asyncio.run(Runner.run(agent, "Weather in Paris?", max_turns=2))
        bodies.append(sent_body(client, "anthropic", before))
    nested, top = bodies
    assert nested["extra_body"] == fields and "top_k" not in nested
    assert top["top_k"] == 3 and top["metadata_note"] == {"a": 1} and "extra_body" not in top
    text = ("tools:\n  - {name: get_weather}\n  - {name: get_time}\nmessages: [{role: user, content: hi}]\n"
            f"tool_choice: auto\nproviders:\n  anthropic:\n    model: {MODELS['anthropic']}\n"
            f"    extra: {json.dumps(fields)}\n")
    scenario = load_scenario_text(text, "extra-fields.yaml")
    (shown,) = apply("openai-agents", [translate("anthropic", scenario)], scenario)
    assert shown.translation.request.body["extra_body"] == nested["extra_body"] and "top_k" not in shown.translation.request.body
    (said,) = [e for e in shown.translation.ledger if e.code == "dialect.extra_fields"]
    assert "ModelSettings(extra_body=extra)" in said.message and "ModelSettings(extra_args=" in said.message
