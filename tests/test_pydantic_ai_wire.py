"""`--dialect pydantic-ai` held to what the real pydantic-ai Agent sends: each case below is rendered by the dialect
and run by ``Agent(<ModelClass>(MODEL), tools=[...]).run_sync(...)`` against ``toolchoice mock`` on 127.0.0.1, and the
tool fields of the Agent's first request (as the mock saved it) are compared with the dialect's body, or what the
Agent raised with the dialect's ``dialect.refused``. The pydantic-ai settings each case gives the Agent are written
here by hand (``CHOICES``); none is computed by the code under test.

Cheap: one mock per model class for the whole file, in this process; each run stops after its first request
(``UsageLimits(request_limit=1)``: the Agent raises before a second), and while the module runs a connection or a
name lookup for anything but the loopback raises and is recorded.
"""

from __future__ import annotations

import functools
import json
import socket
import time
import warnings
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable, Iterator, NamedTuple

import pytest

from sdk_types import missing
from toolchoice.providers.core.choice import parse_tool_choice
from toolchoice.providers.core.model import ThinkingSetting
from toolchoice.providers.core.registry import translate
from toolchoice.providers.core.scenario import load_scenario

pytestmark = [pytest.mark.skipif(missing("pydantic_ai", "openai", "anthropic", "google.genai", "mistralai", "groq",
                                         "cohere", "boto3"), reason="the test extra's pydantic-ai-slim and SDKs"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::ResourceWarning")]

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "tests" / "dialect" / "pydantic-ai.yaml"  # the tools, prompt and models below
KEY = "sk-pydantic-ai-wire-0a1b2c3d"
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _tool_or_output(names: list[str]) -> Any:
    from pydantic_ai.settings import ToolOrOutput

    return ToolOrOutput(function_tools=names)


# case -> (the scenario's tool_choice spelling, the ModelSettings.tool_choice a pydantic-ai user writes for it, per
# pydantic_ai/settings.py: 'auto' | 'none' | 'required' | list[str] ("Force a call to one of the specified function
# and/or output tools") | ToolOrOutput ("Specified function tools plus output tools/text/image"))
CHOICES: dict[str, tuple[Any, Any]] = {
    "unset": (None, None),
    "auto": ("auto", "auto"),
    "none": ("none", "none"),
    "required": ("required", "required"),
    "named": ("get_time", ["get_time"]),
    "allowed-auto": ({"allowed": ["get_time"], "mode": "auto"}, lambda: _tool_or_output(["get_time"])),
    "allowed-two-required": ({"allowed": ["get_weather", "get_time"], "mode": "required"},
                             ["get_weather", "get_time"]),
    "allowed-two-auto": ({"allowed": ["get_weather", "get_time"], "mode": "auto"},
                         lambda: _tool_or_output(["get_weather", "get_time"])),
    "allowed-all-required": ({"allowed": ["get_weather", "get_time", "get_date"], "mode": "required"},
                             ["get_weather", "get_time", "get_date"]),
}


def _model(provider: str, base: str, model: str) -> Any:
    """The pydantic-ai model class for ``provider`` at the mock's base URL."""
    if provider in ("openai", "openai-responses"):
        from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
        from pydantic_ai.providers.openai import OpenAIProvider

        made = OpenAIChatModel if provider == "openai" else OpenAIResponsesModel
        return made(model, provider=OpenAIProvider(base_url=base, api_key=KEY))
    if provider == "anthropic":
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        return AnthropicModel(model, provider=AnthropicProvider(base_url=base, api_key=KEY))
    if provider == "gemini":
        from pydantic_ai.models.google import GoogleModel
        from pydantic_ai.providers.google import GoogleProvider

        import httpx2  # google-genai's default is an aiohttp session it leaves open; pydantic-ai's client is httpx2's

        client = httpx2.AsyncClient(timeout=30)  # httpx's 5 s default draws pydantic-ai's UserWarning
        return GoogleModel(model, provider=GoogleProvider(api_key=KEY, base_url=base, http_client=client))
    if provider == "mistral":
        from pydantic_ai.models.mistral import MistralModel
        from pydantic_ai.providers.mistral import MistralProvider

        return MistralModel(model, provider=MistralProvider(api_key=KEY, base_url=base))
    if provider == "groq":
        from pydantic_ai.models.groq import GroqModel
        from pydantic_ai.providers.groq import GroqProvider

        return GroqModel(model, provider=GroqProvider(api_key=KEY, base_url=base))
    if provider == "cohere":
        from cohere import AsyncClientV2
        from pydantic_ai.models.cohere import CohereModel
        from pydantic_ai.providers.cohere import CohereProvider

        import httpx  # cohere's default transport is httpx-aiohttp's, whose aiohttp session is left open at exit

        client = AsyncClientV2(api_key=KEY, base_url=base, httpx_client=httpx.AsyncClient(timeout=30))
        return CohereModel(model, provider=CohereProvider(cohere_client=client))
    if provider in HOSTS:
        return _host_model(provider, base, model)
    assert provider == "bedrock"
    from pydantic_ai.models.bedrock import BedrockConverseModel

    return BedrockConverseModel(model, provider=_bedrock_provider(base))


@functools.cache
def _bedrock_provider(base: str) -> Any:
    """One BedrockProvider (its boto3 client) per mock, as a pydantic-ai user keeps one: each model class above gets
    it. Building the client parses botocore's bedrock-runtime model anew (~70 ms, most of a Bedrock case); the body
    the model class sends is made from the model and its settings, and pydantic-ai registers its handlers on a
    client once (pydantic_ai/models/bedrock.py, ``_register_extra_headers``)."""
    from pydantic_ai.providers.bedrock import BedrockProvider

    return BedrockProvider(region_name="us-east-1", aws_access_key_id="AKIDPYDANTICAIWIRE",
                           aws_secret_access_key="unused", base_url=base)


# The OpenAI-compatible hosts: toolchoice's provider id -> the pydantic-ai model class and provider class a user takes
# for it (what infer_model('<id>:MODEL') makes, pydantic_ai/models/__init__.py; llama.cpp has no provider of its own:
# OpenAICompatibleProvider), written here by hand
HOSTS: dict[str, tuple[str, str]] = {
    "deepseek": ("openai.OpenAIChatModel", "deepseek.DeepSeekProvider"),
    "azure": ("openai.OpenAIChatModel", "azure.AzureProvider"),
    "fireworks": ("openai.OpenAIChatModel", "fireworks.FireworksProvider"),
    "together": ("openai.OpenAIChatModel", "together.TogetherProvider"),
    "sambanova": ("openai.OpenAIChatModel", "sambanova.SambaNovaProvider"),
    "vllm": ("openai.OpenAIChatModel", "vllm.VLLMProvider"),
    "llamacpp": ("openai.OpenAIChatModel", "openai_compatible.OpenAICompatibleProvider"),
    "cerebras": ("cerebras.CerebrasModel", "cerebras.CerebrasProvider"),
    "openrouter": ("openrouter.OpenRouterModel", "openrouter.OpenRouterProvider"),
    "huggingface": ("huggingface.HuggingFaceModel", "huggingface.HuggingFaceProvider"),
}


def _host_model(provider: str, base: str, model: str) -> Any:
    """The host's model class with its provider class, the provider's client pointed at the mock (the profile is
    the provider class's, whatever the client)."""
    import importlib

    (model_module, model_class), (provider_module, provider_class) = (
        spec.split(".") for spec in HOSTS[provider])
    made = getattr(importlib.import_module(f"pydantic_ai.models.{model_module}"), model_class)
    given = getattr(importlib.import_module(f"pydantic_ai.providers.{provider_module}"), provider_class)
    if provider == "huggingface":
        from huggingface_hub import AsyncInferenceClient

        return made(model, provider=given(hf_client=AsyncInferenceClient(base_url=base, api_key=KEY), api_key=KEY))
    from openai import AsyncOpenAI

    client = AsyncOpenAI(base_url=base, api_key=KEY)
    if provider == "llamacpp":
        return made(model, provider=given("llamacpp", openai_client=client))
    return made(model, provider=given(openai_client=client))


class Sent(NamedTuple):
    body: dict[str, Any] | None  # the first request as the mock saved it (None: nothing was sent)
    error: BaseException | None  # what the run raised, past its one allowed request


class Agents:
    """One mock per provider (with --save, to read the bodies), started when first asked for; the loopback guard."""

    def __init__(self, folder: Path) -> None:
        self.folder, self.outside = folder, []  # type: list[str]
        self._stack, self._mocks = ExitStack(), {}  # type: ExitStack, dict[str, Any]
        self._saved = (socket.getaddrinfo, socket.socket.connect)

    def __enter__(self) -> "Agents":
        lookup, connect = self._saved

        def local(host: Any) -> bool:
            return not isinstance(host, str) or host in LOOPBACK or host.startswith("127.")

        def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
            if not local(host):
                self.outside.append(f"getaddrinfo {host}")
                raise OSError(f"{host} is not the loopback")
            return lookup(host, *args, **kwargs)

        def guarded(sock: socket.socket, address: Any) -> Any:
            if isinstance(address, tuple) and not local(address[0]):
                self.outside.append(f"connect {address[0]}")
                raise OSError(f"{address[0]} is not the loopback")
            return connect(sock, address)

        socket.getaddrinfo = getaddrinfo  # type: ignore[assignment]
        socket.socket.connect = guarded  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._stack.close()
        finally:
            socket.getaddrinfo, socket.socket.connect = self._saved  # type: ignore[assignment, method-assign]

    def mock(self, provider: str) -> Any:
        from toolchoice.providers.core.mock.server import running_mock

        if provider not in self._mocks:
            self._mocks[provider] = self._stack.enter_context(running_mock(provider, save_dir=self.folder / provider))
            if provider == "huggingface":  # huggingface_hub fetches its agent registry from the Hub for its
                from unittest import mock  # user-agent header: its cache, as when the Hub is unreachable

                self._stack.enter_context(mock.patch("huggingface_hub.utils._detect_agent._registry",
                                                     {"standardEnvVars": [], "harnesses": {}}))
        return self._mocks[provider]

    def run(self, provider: str, model: str, step_one: dict[str, Any], tools: bool = True) -> Sent:
        """The Agent's run with ``step_one`` as its first step's ModelSettings (a forcing tool_choice raises when
        given statically: pydantic_ai/agent/__init__.py, so it is given per step, as a pydantic-ai user must)."""
        from pydantic_ai import Agent, Tool
        from pydantic_ai.exceptions import UsageLimitExceeded
        from pydantic_ai.usage import UsageLimits

        mock = self.mock(provider)
        declared = [Tool.from_schema(lambda **_: "sunny", "get_weather", "Weather in a city.", WEATHER),
                    Tool.from_schema(lambda **_: "noon", "get_time", "Time in a city.", WEATHER),
                    Tool.from_schema(lambda **_: "today", "get_date", "Date in a city.", WEATHER)] if tools else []
        agent = Agent(_model(provider, mock.base_url, model), tools=declared)
        before = len(mock.records)
        error: BaseException | None = None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # UnsupportedSettingWarning for a setting the model class ignores
            try:
                agent.run_sync("Weather in Paris?", usage_limits=UsageLimits(request_limit=1),
                               model_settings=lambda ctx: step_one if ctx.run_step == 1 else {})
            except UsageLimitExceeded:  # the second request, after the tool call: not sent
                pass
            except Exception as exc:  # what pydantic-ai raises instead of sending is the result here
                error = exc
        refused = type(error).__name__ == "UserError"  # raised before sending: nothing to wait for
        deadline = time.monotonic() + (0 if refused else 5)
        while len(mock.records) == before and time.monotonic() < deadline:  # a line follows the answer's last byte
            time.sleep(0.005)
        if len(mock.records) == before:
            return Sent(None, error)
        path = self.folder / provider / f"sample-{mock.records[before]['n']:03d}.request.json"
        deadline = time.monotonic() + 5
        while not path.exists() and time.monotonic() < deadline:  # written beside the line, once answered
            time.sleep(0.01)
        return Sent(json.loads(path.read_text(encoding="utf-8"))["body"], error)


@pytest.fixture(scope="module")
def agents(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Agents]:
    with Agents(tmp_path_factory.mktemp("pydantic-ai")) as made:
        yield made
    assert made.outside == [], made.outside  # nothing but the loopback, in the whole file


@functools.cache
def _scenario() -> Any:
    return load_scenario(SCENARIO)


def render(provider: str, choice: str, parallel: bool | None = None, model: str | None = None,
           thinking: ThinkingSetting | None = None, tools: bool = True, max_tokens: int | None = None) -> Any:
    from toolchoice.providers.pydantic_ai_dialect import apply

    base = _scenario() if tools else _scenario()._replace(tools=())
    spelled = CHOICES[choice][0]
    scenario = base._replace(parallel_tool_calls=parallel, tool_choice=parse_tool_choice(
        spelled, base.tool_names or ("get_weather",)) if spelled is not None else None)
    settings = scenario.settings_for(provider)
    if thinking is not None:
        settings = settings._replace(thinking=thinking.mode != "off", thinking_mode=thinking)
    if model is not None:
        settings = settings._replace(model=model)
    if max_tokens is not None:
        settings = settings._replace(max_tokens=max_tokens)
    scenario = scenario._replace(providers={**scenario.providers, provider: settings})
    return apply(translate(provider, scenario), scenario)


def run(agents: Agents, provider: str, choice: str, parallel: bool | None = None, model: str | None = None,
        extra: dict[str, Any] | None = None, tools: bool = True) -> Sent:
    value = CHOICES[choice][1]
    step_one = {**({"tool_choice": value() if callable(value) else value} if value is not None else {}),
                **({"parallel_tool_calls": parallel} if parallel is not None else {}), **(extra or {})}
    return agents.run(provider, model or _scenario().settings_for(provider).model, step_one, tools)


# where each model class's request carries the tools and the choice
TOOLS_AT = {"bedrock": "toolConfig.tools"}
CHOICE_AT = {"gemini": "toolConfig.functionCallingConfig", "bedrock": "toolConfig.toolChoice"}


def _at(body: dict[str, Any], path: str) -> Any:
    node: Any = body
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return "<absent>"
        node = node[part]
    return node


def _names(tools: Any) -> list[Any]:
    """Each tools entry's function names (Gemini: the declarations of each entry, as a list)."""
    if not isinstance(tools, list):
        return tools
    return [[d["name"] for d in t["functionDeclarations"]] if "functionDeclarations" in t else
            t.get("name") or (t.get("function") or t.get("toolSpec") or {}).get("name") for t in tools]


def hold(provider: str, view: Any, sent: Sent) -> None:
    """The dialect's view against what the Agent did: the same refusal, or the same tool fields."""
    if sent.body is None:
        assert sent.error is not None and type(sent.error).__name__ == "UserError", sent.error
        refusals = [e.message for e in view.translation.ledger if e.code == "dialect.refused"]
        assert view.translation.request is None and len(refusals) == 1, view.translation.ledger
        assert f"UserError: {sent.error}" in refusals[0], (refusals[0], str(sent.error))
        return
    assert sent.error is None, sent.error
    assert view.translation.request is not None, [e.message for e in view.translation.ledger]
    body = view.translation.request.body
    tools_at, choice_at = TOOLS_AT.get(provider, "tools"), CHOICE_AT.get(provider, "tool_choice")
    assert _names(_at(body, tools_at)) == _names(_at(sent.body, tools_at)), (body, sent.body)
    assert _at(body, choice_at) == _at(sent.body, choice_at), (_at(body, choice_at), _at(sent.body, choice_at))
    assert _at(body, "parallel_tool_calls") == _at(sent.body, "parallel_tool_calls")
    assert ("toolConfig" in body) == ("toolConfig" in sent.body)


PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "mistral", "groq", "cohere", "bedrock")


@pytest.mark.parametrize("choice", list(CHOICES))
@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_agents_first_request_is_the_dialects(agents: Agents, provider: str, choice: str) -> None:
    """Each model class with each tool_choice setting: the tools it declares and the choice it writes are the
    dialect's."""
    hold(provider, render(provider, choice), run(agents, provider, choice))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_parallel_tool_calls_false(agents: Agents, provider: str) -> None:
    """ModelSettings(parallel_tool_calls=False): the body's field (OpenAI, Groq, Mistral), disable_parallel_tool_use
    inside Anthropic's choice, nothing at all where the class ignores the setting (Gemini, Cohere, Bedrock), which the
    ledger says."""
    view = render(provider, "auto", parallel=False)
    hold(provider, view, run(agents, provider, "auto", parallel=False))
    ignored = [e for e in view.translation.ledger if e.code == "dialect.differs" and "does not send it" in e.message]
    assert bool(ignored) == (provider in ("gemini", "cohere", "bedrock"))


def test_anthropic_none_keeps_parallel_out_of_the_choice(agents: Agents) -> None:
    hold("anthropic", render("anthropic", "none", parallel=False),
         run(agents, "anthropic", "none", parallel=False))


@pytest.mark.parametrize("choice", ["required", "named", "auto"])
def test_claude_with_extended_thinking_refuses_a_forcing_choice(agents: Agents, choice: str) -> None:
    """anthropic_thinking {type: enabled}: a forcing tool_choice raises UserError before any request; auto is sent."""
    view = render("anthropic", choice, thinking=ThinkingSetting("on", budget=2048), max_tokens=4096)
    thinking = view.api.request.body["thinking"] if view.api.request else {"type": "enabled", "budget_tokens": 2048}
    assert thinking["type"] == "enabled"
    hold("anthropic", view, run(agents, "anthropic", choice, extra={"anthropic_thinking": thinking}))


@pytest.mark.parametrize("choice", ["required", "named"])
def test_claude_adaptive_thinking_takes_a_forcing_choice(agents: Agents, choice: str) -> None:
    view = render("anthropic", choice, model="claude-sonnet-4-6", thinking=ThinkingSetting("adaptive"))
    hold("anthropic", view, run(agents, "anthropic", choice, model="claude-sonnet-4-6",
                                extra={"anthropic_thinking": {"type": "adaptive"}}))


@pytest.mark.parametrize("choice", ["required", "named", "auto"])
def test_a_claude_model_that_refuses_forcing(agents: Agents, choice: str) -> None:
    """claude-sonnet-5-5: pydantic-ai's profile refuses any forcing choice (UserError); auto is sent."""
    hold("anthropic", render("anthropic", choice, model="claude-sonnet-5-5"),
         run(agents, "anthropic", choice, model="claude-sonnet-5-5"))


@pytest.mark.parametrize("model", ["claude-sonnet-4-6"])
def test_the_refusal_names_adaptive_thinking_where_the_model_takes_it(agents: Agents, model: str) -> None:
    view = render("anthropic", "required", model=model, thinking=ThinkingSetting("on", budget=2048), max_tokens=4096)
    hold("anthropic", view, run(agents, "anthropic", "required", model=model, extra={
        "anthropic_thinking": {"type": "enabled", "budget_tokens": 2048}}))
    assert "Alternatively" in view.translation.ledger[-1].message


@pytest.mark.parametrize("model", ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", "us.anthropic.claude-sonnet-4-6"])
def test_bedrock_claude_with_extended_thinking_refuses_a_forcing_choice(agents: Agents, model: str) -> None:
    view = render("bedrock", "required", model=model, thinking=ThinkingSetting("on", budget=2048), max_tokens=4096)
    hold("bedrock", view, run(agents, "bedrock", "required", model=model, extra={
        "bedrock_additional_model_requests_fields": {"thinking": {"type": "enabled", "budget_tokens": 2048}}}))


@pytest.mark.parametrize("choice", ["required", "named", "auto"])
def test_bedrock_forces_no_tool_on_a_model_its_profile_gives_no_tool_choice(agents: Agents, choice: str) -> None:
    """Llama on Bedrock (bedrock_supports_tool_choice unset): a forcing choice raises UserError; auto sends the tools
    without toolChoice, which the ledger says."""
    model = "meta.llama3-1-70b-instruct-v1:0"
    view = render("bedrock", choice, model=model)
    hold("bedrock", view, run(agents, "bedrock", choice, model=model))
    if choice == "auto":
        assert "toolChoice" not in view.translation.request.body["toolConfig"]
        assert any("sends no toolChoice" in e.message for e in view.translation.ledger)


def test_gemini_2_0_keeps_auto(agents: Agents) -> None:
    """VALIDATED only where the profile says the model thinks (Gemini 2.5 and later): 2.0 gets AUTO."""
    view = render("gemini", "auto", model="gemini-2.0-flash")
    hold("gemini", view, run(agents, "gemini", "auto", model="gemini-2.0-flash"))
    assert view.translation.request.body["toolConfig"]["functionCallingConfig"] == {"mode": "AUTO"}


@pytest.mark.parametrize("choice", ["required", "auto"])
def test_without_tools(agents: Agents, choice: str) -> None:
    """No tools: 'required' raises (no function tools); auto sends neither tools nor a choice."""
    hold("openai", render("openai", choice, tools=False), run(agents, "openai", choice, tools=False))


def test_the_cli_renders_the_dialect() -> None:
    """`render --dialect pydantic-ai` through the command line: the model class as the label, JSON with the call."""
    from cli import run_cli

    result = run_cli(["render", str(SCENARIO), "-p", "anthropic", "--dialect", "pydantic-ai", "--tool-choice",
                      "get_time", "-f", "json"])
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)  # one provider: its view alone
    assert view["dialect"] == "pydantic-ai" and view["model_class"] == "AnthropicModel('claude-sonnet-4-5')"
    assert view["tool_choice_setting"] == "['get_time']"
    assert view["request"]["body"]["tool_choice"] == {"type": "tool", "name": "get_time"}


@pytest.mark.parametrize("dialect", [None, "pydantic-ai"])
def test_render_loads_the_dialect_only_when_asked_and_never_pydantic_ai(dialect: str | None) -> None:
    """A command imports only what it uses: the dialect's two modules with --dialect pydantic-ai alone, and
    pydantic-ai itself never (the rules are data)."""
    from test_render_imports import command_in_child

    seen = command_in_child("render", "configs/weather.yaml", "-p", "openai", "-f", "json",
                            *(["--dialect", dialect] if dialect else []))
    assert seen["code"] == 0
    loaded = sorted(m for m in seen["modules"] if "pydantic_ai" in m)
    assert loaded == ([] if dialect is None else ["toolchoice.providers.pydantic_ai_dialect",
                                                  "toolchoice.providers.pydantic_ai_rules"])


@pytest.mark.parametrize(("provider", "forced"), [("openai", "required"), ("anthropic", {"type": "any"})])
def test_a_structured_output_type_forces_its_own_tool_where_the_dialect_says(agents: Agents, provider: str,
                                                                            forced: Any) -> None:
    """The ledger's dialect.output: with output_type=Model (a tool output) and no tool_choice set, pydantic-ai adds
    final_result and forces a tool call; the described Agent (text output) sends auto."""
    from pydantic import BaseModel
    from pydantic_ai import Agent, Tool
    from pydantic_ai.exceptions import UsageLimitExceeded
    from pydantic_ai.usage import UsageLimits

    class Forecast(BaseModel):
        city: str

    mock = agents.mock(provider)
    model = _model(provider, mock.base_url, _scenario().settings_for(provider).model)
    agent = Agent(model, output_type=Forecast,
                  tools=[Tool.from_schema(lambda **_: "sunny", "get_weather", "Weather in a city.", WEATHER)])
    before = len(mock.records)
    with pytest.raises(UsageLimitExceeded):  # the mock calls get_weather; the second request is not sent
        agent.run_sync("Weather in Paris?", usage_limits=UsageLimits(request_limit=1))
    deadline = time.monotonic() + 5
    while len(mock.records) == before and time.monotonic() < deadline:
        time.sleep(0.005)
    line = mock.records[before]
    assert line["offered_tools"] == ["get_weather", "final_result"] and line["requested"] == {
        "openai": "required", "anthropic": {"type": "any"}}[provider] == forced
    view = render(provider, "unset")
    (note,) = [e.message for e in view.translation.ledger if e.code == "dialect.output"]
    assert "final_result" in note and "'required'" in note
    assert view.translation.effective_tool_choice == {"openai": "auto", "anthropic": {"type": "auto"}}[provider]


def _quoted_sources() -> list[Any]:
    from toolchoice.providers import pydantic_ai_rules as rules

    found = {name: value for name, value in vars(rules).items() if isinstance(value, rules.Source)}
    found.update({f"{m.cls} parallel_tool_calls": m.parallel.source for m in rules.MODELS.values()})
    for host, route in rules.ROUTES.items():  # each host's route: its profile, the line that picks its model class
        found.update({f"{host} profile": route.profile, f"{host} picked": route.picked})
        found.update({f"{host} forcing": route.forcing.source, f"{host} forcing with thinking":
                      route.forcing.thinking_source})
        found.update({f"{host} forcing also {n}": source for n, (_, source) in enumerate(route.forcing.also)})
    found.update({f"{host} other wire": wire[3] for host, wire in rules.OTHER_WIRE.items()})
    found = {name: source for name, source in found.items() if source is not None}
    return [pytest.param(source, id=name) for name, source in sorted(found.items())]


def _squeezed(text: str) -> str:
    import re

    return re.sub(r"\s*([)\]}])", r"\1", re.sub(r"([(\[{])\s*", r"\1", " ".join(text.split())))


@pytest.mark.parametrize("source", _quoted_sources())
def test_each_rule_quotes_the_installed_pydantic_ai_at_its_line(source: Any) -> None:
    """Each Source's code, up to its first gap (`...` or `;`), is in the wheel at the file and line it names (within
    the statement that starts there): the facts are pydantic-ai's words, and a new release that moves them fails here
    before the docs go stale."""
    import importlib.metadata
    import importlib.util
    import re

    from toolchoice.providers.pydantic_ai_rules import VERSION

    if importlib.metadata.version("pydantic-ai-slim") != VERSION:
        pytest.skip(f"the rules quote pydantic-ai-slim {VERSION}")
    root = Path(importlib.util.find_spec("pydantic_ai").origin).parent  # type: ignore[arg-type]
    lines = (root / source.file).read_text(encoding="utf-8").splitlines()
    window = _squeezed(" ".join(lines[source.line - 1:source.line + 14]))
    first = re.split(r"\s*\.\.\.\s*|;\s", source.words)[0]
    assert len(first) >= 12 and _squeezed(first)[:60] in window, (first, window[:300])


@pytest.mark.parametrize("provider", ["openai", "openai-responses"])
def test_openai_reasoning_takes_a_forcing_choice(agents: Agents, provider: str) -> None:
    """OpenAI's profile sets no forcing flag: with reasoning on (openai_reasoning_effort), a forcing choice is sent
    as without it."""
    model = "o3" if provider == "openai" else "gpt-5.4-mini"
    for choice in ("required", "named"):
        view = render(provider, choice, model=model, thinking=ThinkingSetting("on", effort="high"))
        assert view.api.request is not None and "dialect.refused" not in [e.code for e in view.translation.ledger]
        hold(provider, view, run(agents, provider, choice, model=model, extra={"openai_reasoning_effort": "high"}))


@pytest.mark.parametrize("choice", ["required", "named"])
def test_bedrock_forces_on_nova_and_on_claude_with_adaptive_thinking(agents: Agents, choice: str) -> None:
    """Amazon Nova's profile gives it a toolChoice; Claude on Bedrock with adaptive thinking takes a forcing one."""
    nova = "us.amazon.nova-pro-v1:0"
    hold("bedrock", render("bedrock", choice, model=nova), run(agents, "bedrock", choice, model=nova))
    claude = "us.anthropic.claude-sonnet-4-6"
    view = render("bedrock", choice, model=claude, thinking=ThinkingSetting("adaptive"))
    assert view.api.request is not None and view.api.request.body["additionalModelRequestFields"]["thinking"] == {
        "type": "adaptive"}
    hold("bedrock", view, run(agents, "bedrock", choice, model=claude, extra={
        "bedrock_additional_model_requests_fields": {"thinking": {"type": "adaptive"}}}))



# ---- the OpenAI-compatible hosts, each through its pydantic-ai provider class --------------------------------------

HOST_CHOICES = ("unset", "none", "required", "named", "allowed-two-required", "allowed-auto")


def _host_param(provider: str) -> Any:
    marks = [pytest.mark.skipif(missing("huggingface_hub"), reason="huggingface_hub")] if provider == "huggingface" \
        else []
    return pytest.param(provider, marks=marks, id=provider)


@pytest.mark.parametrize("choice", HOST_CHOICES)
@pytest.mark.parametrize("provider", [_host_param(p) for p in HOSTS])
def test_each_host_through_its_provider_class(agents: Agents, provider: str, choice: str) -> None:
    """OpenAIChatModel (CerebrasModel, OpenRouterModel, HuggingFaceModel) with the host's provider class, against the
    mock serving that host: no host's profile takes allowed_tools, so a subset filters the tools; a named tool is the
    function choice (HuggingFaceModel's without "type")."""
    view = render(provider, choice)
    assert "dialect.route" in [e.code for e in view.translation.ledger]
    hold(provider, view, run(agents, provider, choice))


@pytest.mark.parametrize("provider", [_host_param(p) for p in HOSTS])
def test_each_host_parallel_tool_calls_false(agents: Agents, provider: str) -> None:
    """parallel_tool_calls goes into the body on OpenAIChatModel and its subclasses (Cerebras drops only logit_bias);
    HuggingFaceModel does not send it, which the ledger says."""
    view = render(provider, "required", parallel=False)
    hold(provider, view, run(agents, provider, "required", parallel=False))
    ignored = [e for e in view.translation.ledger if e.code == "dialect.differs" and "does not send it" in e.message]
    assert bool(ignored) == (provider == "huggingface")


@pytest.mark.parametrize(("provider", "model"), [("deepseek", "deepseek-reasoner"), ("deepseek", "deepseek-v4-flash"),
                                                 ("together", "openai/gpt-oss-120b"), ("cerebras", "gpt-oss-120b"),
                                                 ("vllm", "openai/gpt-oss-20b")])
@pytest.mark.parametrize("choice", ["required", "named", "auto"])
def test_a_host_profile_that_refuses_forcing(agents: Agents, provider: str, model: str, choice: str) -> None:
    """supports_forced_tool_choice=False (or, on DeepSeek's V4 and Flash, with thinking, on by default): an explicit
    forcing tool_choice raises UserError before any request; auto is sent."""
    hold(provider, render(provider, choice, model=model), run(agents, provider, choice, model=model))


def test_deepseek_v4_with_thinking_off_sends_a_forcing_choice_the_api_refuses(agents: Agents) -> None:
    """thinking false in the scenario: the Agent is given thinking=False and sends the named choice, with
    reasoning_effort 'none' where DeepSeek turns thinking off with thinking {type: disabled}; the mock, as DeepSeek,
    answers 400, which the dialect's warning says."""
    view = render("deepseek", "named", model="deepseek-v4-flash", thinking=ThinkingSetting("off"))
    assert "'thinking': False" in view.call and view.translation.request is not None
    sent = run(agents, "deepseek", "named", model="deepseek-v4-flash", extra={"thinking": False})
    assert sent.body is not None and sent.body["reasoning_effort"] == "none" and "thinking" not in sent.body
    assert "Thinking mode does not support this tool_choice" in str(sent.error)
    hold("deepseek", view, sent._replace(error=None))
    (warned,) = [e.message for e in view.translation.ledger if e.code == "dialect.differs" and "reasoning_effort" in
                 e.message]
    assert "Thinking mode does not support this tool_choice" in warned


# model ids each host's rule is held to, against the provider class's own model_profile: some its profile refuses
# forcing for, some it does not (the rule is a pattern over the id; these are where the patterns could go wrong)
PROFILE_SAMPLES: dict[str, tuple[str, ...]] = {
    "deepseek": ("deepseek-chat", "deepseek-reasoner", "deepseek-v4-flash", "deepseek-v4-pro", "deepseek-flash"),
    "azure": ("gpt-4o-mini", "gpt-oss-120b", "grok-3", "DeepSeek-R1", "Mistral-Large-2411", "o3"),
    "fireworks": ("accounts/fireworks/models/llama-v3p1-70b-instruct", "accounts/fireworks/models/gpt-oss-120b",
                  "accounts/fireworks/models/qwen3-coder-480b-a35b-instruct", "accounts/fireworks/models/qwen-3-coder"),
    "together": ("meta-llama/Llama-3.3-70B-Instruct-Turbo", "openai/gpt-oss-120b", "deepseek-ai/DeepSeek-V4-Pro",
                 "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8", "qwen/qwen-3-coder", "anthropic/claude-sonnet-5-5",
                 "deepseek-ai/DeepSeek-R1"),
    "sambanova": ("Meta-Llama-3.3-70B-Instruct", "gpt-oss-120b", "Qwen3-32B", "qwen-3-coder", "DeepSeek-R1"),
    "vllm": ("meta-llama/Llama-3.1-8B-Instruct", "openai/gpt-oss-20b", "gpt-oss-120b",
             "Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen-3-coder", "Qwen/Qwen3-8B"),
    "llamacpp": ("qwen3", "gpt-oss-20b", "openai/gpt-oss-20b", "qwen/qwen-3-coder", "anthropic/claude-opus-5-5"),
    "cerebras": ("llama-3.3-70b", "gpt-oss-120b", "qwen-3-coder-480b", "qwen-3-32b", "zai-glm-4.6"),
    "openrouter": ("openai/gpt-4o-mini", "openai/gpt-oss-120b", "qwen/qwen3-coder", "qwen/qwen-3-coder",
                   "anthropic/claude-sonnet-4.5", "anthropic/claude-sonnet-5-5", "~anthropic/claude-fable-5-1"),
    "huggingface": ("openai/gpt-oss-120b",),  # HuggingFaceModel checks no forcing flag: held by the wire test above
    "ollama": ("qwen3", "gpt-oss:20b", "llama3.2", "qwen3-coder", "qwen-3-coder"),
    "xai": ("grok-4", "grok-4.3", "grok-code-fast-1"),
}


@pytest.mark.parametrize("provider", list(PROFILE_SAMPLES))
def test_each_host_rule_is_its_provider_profile(provider: str) -> None:
    """The rule's verdict (refuses forcing outright; refuses it while thinking, on by default) is what the provider
    class's model_profile says for each sample id: supports_forced_tool_choice, and
    supports_forced_tool_choice_with_thinking with thinking_enabled_by_default."""
    import importlib

    from toolchoice.providers.pydantic_ai_rules import NO_FORCING_ERROR, ROUTES, refuses_forcing

    route = ROUTES[provider]
    module = route.profile.file.removesuffix(".py").replace("/", ".")
    if provider == "xai" and missing("xai_sdk"):  # providers/xai.py imports it; the profile is grok's
        from pydantic_ai.profiles.grok import grok_model_profile as profile_of
    else:
        profile_of = getattr(importlib.import_module(f"pydantic_ai.{module}"), route.provider_class).model_profile
    for model in PROFILE_SAMPLES[provider]:
        profile = profile_of(model) or {}
        outright = not profile.get("supports_forced_tool_choice", True)
        thinking = not profile.get("supports_forced_tool_choice_with_thinking", True) and profile.get(
            "thinking_enabled_by_default", False)
        if provider == "openrouter":  # OpenRouterModel weighs thinking only where the user asks for it
            thinking = False
        found = refuses_forcing(provider, model, thinking_off=False)
        assert (found is not None) == (outright or thinking), (model, found)
        if found is not None:
            assert (found[0] == NO_FORCING_ERROR) == outright, (model, found)
        assert not profile.get("openai_chat_supports_allowed_tools", False), model


def test_ollama_and_xai_are_described_on_their_own_wire() -> None:
    """OllamaModel (Ollama's /v1/chat/completions) and XaiModel (xAI's gRPC through xai-sdk) are reached by
    pydantic-ai, but not on the wire toolchoice builds for them: the ledger says what they send, the API request is
    shown; gpt-oss on Ollama refuses a forcing choice (the Harmony profile) before anything is sent."""
    for provider in ("ollama", "xai"):
        view = render(provider, "allowed-two-required")
        other = [e for e in view.translation.ledger if e.code == "dialect.other_wire"]
        assert len(other) == 1 and "['get_weather', 'get_time']" in other[0].message, view.translation.ledger
        assert view.translation.request == view.api.request
    assert "required_tool('get_time')" in [e.message for e in render("xai", "named").translation.ledger
                                           if e.code == "dialect.other_wire"][0]
    refused = render("ollama", "required", model="gpt-oss:20b")
    assert refused.translation.request is None
    assert [e.code for e in refused.translation.ledger if e.severity == "error"] == ["dialect.refused"]


def test_ollama_refusal_is_the_agents(agents: Agents) -> None:
    """OllamaModel with gpt-oss and tool_choice required raises the UserError the ledger quotes, before sending."""
    from pydantic_ai import Agent, Tool
    from pydantic_ai.models.ollama import OllamaModel
    from pydantic_ai.providers.ollama import OllamaProvider

    view = render("ollama", "required", model="gpt-oss:20b")
    agent = Agent(OllamaModel("gpt-oss:20b", provider=OllamaProvider(base_url="http://127.0.0.1:9/v1")),
                  tools=[Tool.from_schema(lambda **_: "sunny", "get_weather", "Weather in a city.", WEATHER)])
    with pytest.raises(Exception) as raised:
        agent.run_sync("Weather in Paris?", model_settings=lambda ctx: {"tool_choice": "required"})
    assert type(raised.value).__name__ == "UserError"
    (refusal,) = [e.message for e in view.translation.ledger if e.code == "dialect.refused"]
    assert f"UserError: {raised.value}" in refusal


# ---- the run's later requests (dialect.later_steps) ------------------------------------------------------------


def _two_steps(agents: Agents, provider: str, step_one: dict[str, Any], later: dict[str, Any]) -> list[dict[str, Any]]:
    """The bodies of the Agent's first two requests: ``step_one`` as run_step 1's ModelSettings, ``later`` after; the
    mock's default answer to the first calls a tool, so a second request follows (a third is not sent:
    request_limit=2)."""
    from pydantic_ai import Agent, Tool
    from pydantic_ai.exceptions import UsageLimitExceeded
    from pydantic_ai.usage import UsageLimits

    mock = agents.mock(provider)
    declared = [Tool.from_schema(lambda **_: "sunny", "get_weather", "Weather in a city.", WEATHER),
                Tool.from_schema(lambda **_: "noon", "get_time", "Time in a city.", WEATHER),
                Tool.from_schema(lambda **_: "today", "get_date", "Date in a city.", WEATHER)]
    agent = Agent(_model(provider, mock.base_url, _scenario().settings_for(provider).model), tools=declared)
    before = len(mock.records)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            agent.run_sync("Weather in Paris?", usage_limits=UsageLimits(request_limit=2),
                           model_settings=lambda ctx: step_one if ctx.run_step == 1 else later)
        except UsageLimitExceeded:  # a third request, after a second tool call: not sent
            pass
    deadline = time.monotonic() + 5
    while len(mock.records) < before + 2 and time.monotonic() < deadline:
        time.sleep(0.005)
    assert len(mock.records) == before + 2, mock.records[before:]
    bodies = []
    for line in mock.records[before:before + 2]:
        path = agents.folder / provider / f"sample-{line['n']:03d}.request.json"
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        bodies.append(json.loads(path.read_text(encoding="utf-8"))["body"])
    return bodies


@pytest.mark.parametrize("provider", ("openai", "anthropic", "gemini", "groq", "mistral"))
@pytest.mark.parametrize("choice", ("named", "required", "auto"))
def test_the_later_requests_of_a_run_are_the_dialects(agents: Agents, provider: str, choice: str) -> None:
    """The Agent's second request, after the tool call: a forcing setting given for run_step 1 only (the dialect's
    described call) leaves the later steps to pydantic-ai's default, and a non-forcing one holds; the choice the
    second request sent is the one dialect.later_steps names, and the tools are the first request's."""
    value = CHOICES[choice][1]
    forcing = choice != "auto"
    first, second = _two_steps(agents, provider, {"tool_choice": value}, {} if forcing else {"tool_choice": value})
    view = render(provider, choice)
    tools_at, choice_at = TOOLS_AT.get(provider, "tools"), CHOICE_AT.get(provider, "tool_choice")
    assert _names(_at(second, tools_at)) == _names(_at(first, tools_at))
    (said,) = [e.message for e in view.translation.ledger if e.code == "dialect.later_steps"]
    sent = _at(second, choice_at)
    expected = render(provider, "unset") if forcing else view  # the view without a tool_choice, or this one
    assert _at(expected.translation.request.body, choice_at) == sent, (sent, said)
    from toolchoice.providers.core.model import compact

    assert ("nothing" if sent == "<absent>" else compact(sent)) in said, (sent, said)


# ---- OpenRouter's openrouter_reasoning ---------------------------------------------------------------------------


@pytest.mark.parametrize(("model", "reasoning", "choice"), [
    ("anthropic/claude-sonnet-4.5", {"effort": "high"}, "named"),
    ("anthropic/claude-sonnet-4.5", {"effort": "high"}, "required"),
    ("anthropic/claude-sonnet-4.5", {"effort": "high"}, "auto"),
    ("anthropic/claude-sonnet-4.5", {"max_tokens": 2048}, "named"),
    ("anthropic/claude-sonnet-4.5", {"enabled": False}, "named"),
    ("anthropic/claude-sonnet-4.5", {"effort": "none"}, "required"),
    ("openai/gpt-5.4-mini", {"effort": "high"}, "named"),
])
def test_openrouter_reasoning_is_the_bodys_reasoning_and_weighs_against_forcing(
        agents: Agents, model: str, reasoning: dict[str, Any], choice: str) -> None:
    """The body's reasoning (providers.openrouter.extra) is ModelSettings(openrouter_reasoning=...): OpenRouterModel
    sends it as is, and on an Anthropic upstream a thinking one makes an explicit forcing choice raise."""
    from toolchoice.providers.pydantic_ai_dialect import apply

    base = _scenario()
    spelled = CHOICES[choice][0]
    scenario = base._replace(tool_choice=parse_tool_choice(spelled, base.tool_names))
    settings = scenario.settings_for("openrouter")._replace(model=model, extra={"reasoning": reasoning})
    scenario = scenario._replace(providers={**scenario.providers, "openrouter": settings})
    view = apply(translate("openrouter", scenario), scenario)
    value = CHOICES[choice][1]
    sent = agents.run("openrouter", model, {"tool_choice": value() if callable(value) else value,
                                            "openrouter_reasoning": reasoning})
    hold("openrouter", view, sent)
    if sent.body is not None:
        assert sent.body.get("reasoning") == reasoning == view.translation.request.body.get("reasoning")
