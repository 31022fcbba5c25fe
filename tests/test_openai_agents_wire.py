"""`--dialect openai-agents` held to what the real OpenAI Agents SDK (openai-agents 0.24.0) sends: for each route
(OpenAIChatCompletionsModel on OpenAI Chat and on an OpenAI-compatible host's base URL, OpenAIResponsesModel,
LitellmModel on APIs with no model class of their own) and each tool_choice of the neutral table, the real
``Runner.run`` sends its first request to ``toolchoice mock`` on 127.0.0.1 and the tool fields of the body the mock
saved are compared with the body the dialect renders for the same scenario. The expected values are the bodies the
SDK sent and the errors it raised; none is computed by the code under test.

One mock per provider and one import of litellm serve the whole file (tests/litellm_client.py keeps LiteLLM off the
internet: only the loopback is reached); ``tool_use_behavior="stop_on_first_tool"`` ends each run at its first
request, and the runs share no state but the mocks."""

from __future__ import annotations

import asyncio
import functools
import time
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest

from litellm_client import KEY, Client
from sdk_types import missing
from toolchoice.providers.core.choice import parse_tool_choice
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario
from toolchoice.providers.openai_agents_dialect import apply
from toolchoice.providers.openai_agents_rules import CHAT_MCP_ERROR, CHAT_PROGRAMMATIC_ERROR

pytestmark = [pytest.mark.skipif(missing("agents", "litellm"), reason="the test extra's openai-agents and litellm"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore:.*`ReadOnly` qualifier:UserWarning")]

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests/dialect/litellm.yaml"  # get_weather and get_time, and a model per provider
# the neutral tool_choice (the scenario's spelling), and what an openai-agents user gives ModelSettings.tool_choice
CHOICES: dict[str, tuple[str | None, str | None]] = {
    "unset": (None, None), "auto": ("auto", "auto"), "none": ("none", "none"), "required": ("required", "required"),
    "any": ("any", "required"), "named": ("get_weather", "get_weather")}
# provider -> the model class the test builds (the routes of openai_agents_rules.ROUTES)
ROUTES = {"openai": "chat", "groq": "chat", "mistral": "chat", "azure": "chat", "openai-responses": "responses",
          "anthropic": "litellm", "gemini": "litellm", "cohere": "litellm", "ollama": "litellm", "bedrock": "litellm"}
# LitellmModel's model string (LiteLLM's route, as --dialect litellm names it) and the mock's path it takes
LITELLM = {"anthropic": ("anthropic/claude-sonnet-4-5", ""), "gemini": ("gemini/gemini-2.5-flash", "/v1beta"),
           "cohere": ("cohere_chat/command-a-03-2025", "/v2/chat"), "ollama": ("ollama_chat/llama3.1", ""),
           "bedrock": ("bedrock/converse/anthropic.claude-3-5-sonnet-20240620-v1:0", "")}
# LiteLLM signs Bedrock's request for whatever host it is given (the mock checks no signature): the credentials go
# through ModelSettings.extra_args, which LitellmModel hands to litellm.acompletion
BEDROCK_ARGS = {"aws_access_key_id": "AKIDAGENTSWIRE", "aws_secret_access_key": "unused", "aws_region_name": "us-east-1"}
FIELDS = ("tools", "tool_choice", "parallel_tool_calls", "toolConfig", "additionalModelRequestFields", "strict_tools")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    with Client(tmp_path_factory.mktemp("openai-agents")) as made:
        from agents import set_tracing_disabled

        set_tracing_disabled(True)  # no trace export to api.openai.com
        yield made
    assert made.outside == [], made.outside


@functools.cache
def _scenario() -> Any:
    return load_scenario(SCENARIO)


def scenario_for(choice: str, parallel: bool | None, tools: bool = True) -> Any:
    base = _scenario()
    if not tools:
        base = base._replace(tools=())
    spelled = CHOICES[choice][0]
    return base._replace(parallel_tool_calls=parallel, tool_choice=parse_tool_choice(
        spelled, base.tool_names or ("get_weather",)) if spelled else None)


def _function_tools(scenario: Any) -> list[Any]:
    from agents import FunctionTool

    async def invoke(_context: Any, _arguments: str) -> str:
        return "sunny"

    return [FunctionTool(name=t.name, description=t.description or "", params_json_schema=t.schema(),
                         on_invoke_tool=invoke, strict_json_schema=scenario.tool_is_strict(t)) for t in scenario.tools]


def _model(client: Client, provider: str, kind: str) -> Any:
    from agents import OpenAIChatCompletionsModel, OpenAIResponsesModel
    from agents.extensions.models.litellm_model import LitellmModel
    from openai import AsyncAzureOpenAI, AsyncOpenAI

    mock = client.mock(provider)
    if kind == "litellm":
        model, path = LITELLM[provider]
        return LitellmModel(model=model, base_url=mock.base_url + path, api_key=KEY)
    model = _scenario().settings_for(provider).model
    openai = AsyncOpenAI(base_url=mock.base_url, api_key=KEY, max_retries=0)
    if provider == "azure":  # the deployment is the model; the api-version toolchoice's URL has
        model = _scenario().settings_for(provider).deployment
        openai = AsyncAzureOpenAI(azure_endpoint="http://" + urlsplit(mock.base_url).netloc, api_key=KEY,
                                  api_version="2024-10-21", max_retries=0)
    cls = OpenAIResponsesModel if kind == "responses" else OpenAIChatCompletionsModel
    return cls(model=model, openai_client=openai)


class Run:
    """One Runner.run: the bodies the mock saved, in order, and what the SDK raised."""

    def __init__(self, bodies: list[dict[str, Any]], error: BaseException | None) -> None:
        self.bodies, self.error = bodies, error


def run_agent(client: Client, provider: str, scenario: Any, setting: Any, *, stop: bool = True,
              reset: bool = True, max_turns: int = 3, extra_args: dict[str, Any] | None = None) -> Run:
    """The real Runner with the scenario's tools and ModelSettings(tool_choice=setting, parallel_tool_calls=...)."""
    from agents import Agent, ModelSettings, Runner

    mock = client.mock(provider)
    before = len(mock.records)
    if provider == "bedrock":
        extra_args = {**BEDROCK_ARGS, **(extra_args or {})}
    agent = Agent(name="weather", tools=_function_tools(scenario), model=_model(client, provider, ROUTES[provider]),
                  model_settings=ModelSettings(tool_choice=setting, parallel_tool_calls=scenario.parallel_tool_calls,
                                               extra_args=extra_args),
                  tool_use_behavior="stop_on_first_tool" if stop else "run_llm_again", reset_tool_choice=reset)
    error: BaseException | None = None
    try:
        asyncio.run(Runner.run(agent, "Weather in Paris?", max_turns=max_turns))
    except Exception as exc:  # what the SDK raises is the result here
        error = exc
    raised_first = isinstance(error, client.litellm.UnsupportedParamsError) or type(error).__name__ == "UserError"
    deadline = time.monotonic() + (0 if raised_first else 5)  # else: the request went out
    settled = before
    while time.monotonic() < deadline:  # a line follows the answer's last byte
        if len(mock.records) > settled:
            if stop:  # stop_on_first_tool: the run made one request
                break
            settled, deadline = len(mock.records), time.monotonic() + 0.05
        time.sleep(0.005)
    return Run([client._saved_request(provider, line["n"])["body"] for line in mock.records[before:]], error)


def rendered(provider: str, scenario: Any) -> Any:
    return apply(translate(provider, scenario), scenario)


def fields(body: dict[str, Any]) -> dict[str, Any]:
    return {k: body[k] for k in FIELDS if k in body}


CASES = [pytest.param(p, c, par, id=f"{p}-{c}-parallel={par}") for p in ROUTES for c in CHOICES
         for par in (None, False)]


@pytest.mark.parametrize("provider, choice, parallel", CASES)
def test_the_dialect_is_what_the_runner_sends_first(client: Client, provider: str, choice: str,
                                                    parallel: bool | None) -> None:
    scenario = scenario_for(choice, parallel)
    view = rendered(provider, scenario)
    hold(view, run_agent(client, provider, scenario, CHOICES[choice][1]))


def hold(view: Any, sent: Run) -> None:
    """The dialect's view against what the SDK did: the same refusal (LiteLLM's, through LitellmModel), or the same
    tool fields in its first request."""
    if not sent.bodies:  # raised before sending
        refusals = [e.message for e in view.translation.ledger if e.code == "dialect.refused"]
        assert view.translation.request is None and len(refusals) == 1, (sent.error, view.translation.ledger)
        said = " ".join(str(sent.error).split())
        assert " ".join(refusals[0].split()).split(": ", 1)[1].startswith(f"{type(sent.error).__name__}: {said}"), (
            refusals[0], said)
        return
    assert view.translation.request is not None, view.translation.ledger
    assert fields(view.translation.request.body) == fields(sent.bodies[0])


NO_TOOLS = [pytest.param(p, c, id=f"{p}-{c}") for p in ("openai", "openai-responses", "anthropic")
            for c in ("unset", "auto", "none", "required")]


@pytest.mark.parametrize("provider, choice", NO_TOOLS)
def test_a_choice_without_tools_is_what_the_runner_sends(client: Client, provider: str, choice: str) -> None:
    """An agent with no tools: Chat sends the choice without tools (parallel_tool_calls left out), Responses with
    "tools": [], LitellmModel hands it to LiteLLM (which sends Anthropic's choice without tools). toolchoice refuses
    a forcing choice there (tool_choice.without_tools); the dialect shows the SDK's request anyway."""
    scenario = scenario_for(choice, False, tools=False)
    view = rendered(provider, scenario)
    sent = run_agent(client, provider, scenario, CHOICES[choice][1])
    assert sent.bodies, sent.error
    assert fields(view.translation.request.body) == fields(sent.bodies[0])
    if choice == "required":
        assert view.api.request is None and any(e.code == "dialect.differs" and "sends its request anyway" in e.message
                                                for e in view.translation.ledger)


# ---- what the model classes do with names (the SDK driven directly: a scenario names only its own tools) --------


def test_a_hosted_tools_name_becomes_its_type_on_responses(client: Client) -> None:
    """OpenAIResponsesModel's convert_tool_choice reads "web_search" (and file_search, code_interpreter, ...) as the
    hosted tool before any function name: a function tool called web_search, chosen by name, goes out as
    {"type": "web_search"}; the dialect says so. On Chat the same name is a function."""
    scenario = _scenario()
    tool = scenario.tools[0]._replace(name="web_search")
    scenario = scenario._replace(tools=(tool, *scenario.tools[1:]), parallel_tool_calls=None,
                                 tool_choice=parse_tool_choice("web_search", ("web_search", "get_time")))
    warned = {}
    for provider, wire in (("openai-responses", {"type": "web_search"}),
                           ("openai", {"type": "function", "function": {"name": "web_search"}})):
        view = rendered(provider, scenario)
        sent = run_agent(client, provider, scenario, "web_search")
        assert sent.bodies and sent.bodies[0]["tool_choice"] == wire == view.translation.request.body["tool_choice"]
        assert fields(view.translation.request.body) == fields(sent.bodies[0])
        warned[provider] = [e.message for e in view.translation.ledger if e.severity == "warning"]
    (hosted,) = warned["openai-responses"]
    assert hosted.startswith('tool_choice: openai-agents sends {"type":"web_search"}') and "hosted tool" in hosted
    assert warned["openai"] == []


def test_an_unknown_name_is_sent_as_given(client: Client) -> None:
    """Neither model class checks that a named choice names a tool it was given: both send it (the API answers)."""
    scenario = scenario_for("auto", None)
    for provider, wire in (("openai-responses", {"type": "function", "name": "nope"}),
                           ("openai", {"type": "function", "function": {"name": "nope"}})):
        sent = run_agent(client, provider, scenario, "nope")
        assert sent.bodies and sent.bodies[0]["tool_choice"] == wire


def test_chat_refuses_the_responses_only_choices(client: Client) -> None:
    """MCPToolChoice and "programmatic_tool_calling" raise on the Chat model before anything is sent, in the words
    the dialect quotes (toolchoice refuses those forms off the Responses API too)."""
    from agents.model_settings import MCPToolChoice

    scenario = scenario_for("auto", None)
    for setting, words in ((MCPToolChoice(server_label="docs", name="ask"), CHAT_MCP_ERROR),
                           ("programmatic_tool_calling", CHAT_PROGRAMMATIC_ERROR)):
        sent = run_agent(client, "openai", scenario, setting)
        assert sent.bodies == [] and f"{type(sent.error).__name__}: {sent.error}" == words


def test_responses_takes_the_mcp_choice_as_toolchoice_writes_it(client: Client) -> None:
    from agents.model_settings import MCPToolChoice

    scenario = scenario_for("auto", None)
    native = scenario._replace(tool_choice=parse_tool_choice({"type": "mcp", "server_label": "docs", "name": "ask"},
                                                             scenario.tool_names))
    view = rendered("openai-responses", native)
    sent = run_agent(client, "openai-responses", scenario, MCPToolChoice(server_label="docs", name="ask"))
    assert sent.bodies and sent.bodies[0]["tool_choice"] == view.translation.request.body["tool_choice"] == {
        "server_label": "docs", "type": "mcp", "name": "ask"}


# ---- between requests: reset_tool_choice ----------------------------------------------------------------------


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "anthropic"])
def test_the_runner_drops_a_forcing_choice_after_a_tool_call(client: Client, provider: str) -> None:
    """Agent.reset_tool_choice (True by default): the second request carries no tool_choice, as dialect.reset says;
    with reset_tool_choice=False every request carries it (the loop then ends at max_turns)."""
    scenario = scenario_for("required", None)
    view = rendered(provider, scenario)
    (reset,) = [e for e in view.translation.ledger if e.code == "dialect.reset"]
    assert "without tool_choice" in reset.message and "reset_tool_choice=False" in reset.message
    first, second = run_agent(client, provider, scenario, "required", stop=False).bodies[:2]
    assert first["tool_choice"] == view.translation.request.body["tool_choice"] and "tool_choice" not in second
    kept = run_agent(client, provider, scenario, "required", stop=False, reset=False, max_turns=2)
    assert len(kept.bodies) == 2 and kept.bodies[0]["tool_choice"] == kept.bodies[1]["tool_choice"]
    assert type(kept.error).__name__ == "MaxTurnsExceeded"


def test_litellm_model_passes_drop_params_given_as_extra_args(client: Client) -> None:
    """What the dialect's refusal says for a LitellmModel route: ModelSettings(extra_args={'drop_params': True})
    reaches litellm.acompletion, and the request is --dialect litellm --drop-params's (Cohere v2: no
    parallel_tool_calls, no tool_choice)."""
    from toolchoice.providers.litellm_dialect import apply as litellm_apply

    scenario = scenario_for("required", False)
    (refused,) = [e for e in rendered("cohere", scenario).translation.ledger if e.code == "dialect.refused"]
    assert "ModelSettings(extra_args={'drop_params': True})" in refused.message
    sent = run_agent(client, "cohere", scenario, "required", extra_args={"drop_params": True})
    dropped = litellm_apply(translate("cohere", scenario), scenario, {"drop_params": True}).translation.request.body
    assert sent.bodies and sent.bodies[0].keys() & {"tool_choice", "parallel_tool_calls"} == set()
    assert [t["function"]["name"] for t in sent.bodies[0]["tools"]] == [t["function"]["name"] for t in dropped["tools"]]
    assert dropped.keys() & {"tool_choice", "parallel_tool_calls"} == set()


def test_docs_state_the_case_counts() -> None:
    page = (ROOT / "docs/openai-agents.md").read_text(encoding="utf-8")
    assert f"**{len(CASES)} of {len(CASES)}** first requests" in page
    assert f"**{len(NO_TOOLS)} of {len(NO_TOOLS)}** without tools" in page
    assert all(f"`{p}`" in page for p in ROUTES)


# ---- strict tools: FunctionTool(strict_json_schema=True) rewrites the schema before anything is sent ------------

STRICT_SETS = {"weather": ROOT / "configs/weather.yaml", "nested": ROOT / "tests/dialect/nested.yaml",
               "strict": ROOT / "tests/dialect/strict.yaml"}


@pytest.mark.parametrize("provider", ["openai", "openai-responses", "anthropic", "gemini", "cohere", "ollama",
                                      "bedrock"])
@pytest.mark.parametrize("tool_set", list(STRICT_SETS))
def test_a_strict_tool_is_what_the_runner_sends(client: Client, provider: str, tool_set: str) -> None:
    """Every tool strict (weather: an optional property and no additionalProperties, which toolchoice refuses as
    strict; nested: an array of objects and an anyOf) or one strict tool beside one that is not (strict.yaml): the
    SDK's ensure_strict_json_schema closes every object and requires every property, and the dialect's port of it
    writes the same tools. LitellmModel hands LiteLLM the schemas FunctionTool rewrote (the dialect handed it the
    scenario's, until trial16l)."""
    scenario = load_scenario(STRICT_SETS[tool_set])
    scenario = scenario._replace(tool_choice=None, parallel_tool_calls=None,
                                 strict=True if tool_set != "strict" else None)
    view = rendered(provider, scenario)
    assert not [e for e in view.translation.ledger if e.code in ("dialect.unchecked", "dialect.refused")]
    hold(view, run_agent(client, provider, scenario, None))
    if tool_set == "weather" and provider in ("openai", "openai-responses"):
        assert view.api.request is None  # schema.strict_invalid: the API's rules; the SDK rewrites the schema
        assert any("(schema.strict_invalid)" in e.message for e in view.translation.ledger if e.severity == "warning")


def test_an_open_object_in_a_strict_tool_is_refused_in_the_sdks_words(client: Client) -> None:
    """additionalProperties: true under strict_json_schema=True: FunctionTool raises when it is made."""
    from agents.exceptions import UserError

    scenario = load_scenario(STRICT_SETS["strict"])
    tool = scenario.tools[0]
    opened = tool._replace(parameters={**tool.parameters, "additionalProperties": True})
    scenario = scenario._replace(tools=(opened, *scenario.tools[1:]))
    (refused,) = [e for e in rendered("openai", scenario).translation.ledger if e.code == "dialect.refused"]
    with pytest.raises(UserError) as raised:
        _function_tools(scenario)
    assert f"UserError: {raised.value}" in refused.message
